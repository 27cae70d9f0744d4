/* test-symbols-meta.c — the meta functions' rules: the output types each symbol derives from its
 * arguments, and the errors it gives (the table itself is in test-symbols.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

/* ---- helpers ------------------------------------------------------------------------------------ */

typedef struct
{
  GHashTable *types; /* name -> WbType* */
} Env;

static gboolean
env_lookup (const char *name, WbType *out, gpointer data)
{
  Env    *env = data;
  WbType *t = g_hash_table_lookup (env->types, name);
  if (t == NULL)
    return FALSE;
  *out = *t;
  return TRUE;
}

/* Parses a trace whose parameters are declared by @decls ("a: cuda:0 f32[2, 3]; b: float 1.5"), with the
 * single statement `out = CALL`, and runs the called symbol's meta function. Returns the derived output
 * types joined by "; ", or "error: MESSAGE". */
static char *
infer (const char *decls, const char *call)
{
  g_autoptr (GString) text = g_string_new ("import torch\nimport thunder.core.dtypes as dtypes\n\ndef f(");
  g_auto (GStrv) parts = g_strsplit (decls, ";", -1);
  g_autoptr (GString) body = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;
  g_autoptr (GHashTable) types = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GArray) outputs = g_array_new (FALSE, TRUE, sizeof (WbType));
  g_autoptr (GString) result = g_string_new (NULL);
  Env           env = { types };
  const WbBsym *b = NULL;
  guint         n = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char            *colon = strchr (parts[i], ':');
      g_autofree char *name = NULL;
      if (colon == NULL)
        continue;
      name = g_strstrip (g_strndup (parts[i], colon - parts[i]));
      g_string_append_printf (text, n++ ? ", %s" : "%s", name);
      g_string_append_printf (body, "  # %s: \"%s\"\n", name, g_strstrip (colon + 1));
    }
  g_string_append_printf (text, "):\n%s  out = %s\n  return out\n", body->str, call);
  trace = wb_trace_parse (text->str, -1, "infer.py", &error);
  if (trace == NULL)
    return g_strdup_printf ("parse error: %s", error->message);
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *s = trace->body[i];
      if (s->kind == WB_BSYM_ANNOTATION)
        g_hash_table_insert (types, (gpointer) s->name, g_memdup2 (&s->type, sizeof s->type));
      else if (s->kind == WB_BSYM_CALL)
        b = s;
    }
  g_assert_nonnull (b);
  if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, env_lookup, &env, outputs, &error))
    {
      g_assert_error (error, WB_SYMBOL_ERROR, error->code);
      g_assert_cmpuint (outputs->len, ==, 0);
      return g_strdup_printf ("error: %s", error->message);
    }
  for (guint i = 0; i < outputs->len; i++)
    {
      if (i)
        g_string_append (result, "; ");
      wb_type_append (&g_array_index (outputs, WbType, i), result);
    }
  return g_strdup (result->str);
}

#define assert_infer(decls, call, expected)                                  \
  G_STMT_START                                                               \
  {                                                                          \
    g_autofree char *got_ = infer ((decls), (call));                         \
    if (g_strcmp0 (got_, (expected)) != 0)                                   \
      g_error ("%s with %s:\n  expected %s\n  got      %s", (call), (decls), \
               (expected), got_);                                            \
  }                                                                          \
  G_STMT_END

#define assert_infer_error(decls, call, fragment)                                  \
  G_STMT_START                                                                     \
  {                                                                                \
    g_autofree char *got_ = infer ((decls), (call));                               \
    if (!g_str_has_prefix (got_, "error: ") || strstr (got_, (fragment)) == NULL)  \
      g_error ("%s with %s: expected an error with '%s', got %s", (call), (decls), \
               (fragment), got_);                                                  \
  }                                                                                \
  G_STMT_END

/* ---- meta rules --------------------------------------------------------------------------------- */

static void
test_meta_broadcast (void)
{
  assert_infer ("a: cuda:0 f32[2, 1, 3]; b: cuda:0 f32[4, 1]", "ltorch.add(a, b, alpha=1)", "cuda:0 f32[2, 4, 3]");
  assert_infer ("a: cuda:0 f32[3]; b: cuda:0 f32[2, 3]", "ltorch.mul(a, b)", "cuda:0 f32[2, 3]");
  assert_infer ("a: cuda:0 f32[5, 1]; b: cuda:0 f32[]", "torch.sub(a, b, alpha=1)", "cuda:0 f32[5, 1]");
  assert_infer_error ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[4]", "ltorch.add(a, b, alpha=1)", "do not broadcast");
  /* prims never broadcast */
  assert_infer_error ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[3]", "prims.add(a, b)", "prims do not broadcast");
  assert_infer ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[2, 3]", "prims.add(a, b)", "cuda:0 f32[2, 3]");
  /* where: condition, then promotion of the two branches */
  assert_infer ("c: cuda:0 b8[4, 1]; a: cuda:0 i64[4, 1]", "ltorch.where(c, a, 32000)", "cuda:0 i64[4, 1]");
  assert_infer ("c: cuda:0 b8[2048, 2048]; a: cuda:0 bf16[1, 32, 2048, 2048]", "ltorch.where(c, a, -float('inf'))",
                "cuda:0 bf16[1, 32, 2048, 2048]");
  assert_infer ("c: cuda:0 b8[1000]", "prims.where(c, 512, 0)", "cuda:0 i64[1000]");
  assert_infer_error ("c: cuda:0 f32[4]; a: cuda:0 f32[4]", "prims.where(c, a, a)", "pred must have dtype b8");
}

static void
test_meta_promotion (void)
{
  WbType   t[2] = { 0 };
  WbDtype  d;
  gboolean weak;

  /* Python numbers rank below tensors; inexact beats exact */
  assert_infer ("a: cuda:0 i32[4]", "ltorch.add(a, 2.5, alpha=1)", "cuda:0 f32[4]");
  assert_infer ("a: cuda:0 i32[4]", "ltorch.add(a, 2, alpha=1)", "cuda:0 i32[4]");
  assert_infer ("a: cuda:0 bf16[4]", "ltorch.mul(a, 2.0)", "cuda:0 bf16[4]");
  /* a 0-d tensor is weak: bf16[4] with f32[] stays bf16 */
  assert_infer ("a: cuda:0 bf16[4]; b: cuda:0 f32[]", "ltorch.add(a, b, alpha=1)", "cuda:0 bf16[4]");
  assert_infer ("a: cuda:0 bf16[]; b: cuda:0 i64[]", "ltorch.true_divide(a, b)", "cuda:0 bf16[]");
  /* strong with strong */
  assert_infer ("a: cuda:0 i64[4]; b: cuda:0 i32[4]", "ltorch.add(a, b, alpha=1)", "cuda:0 i64[4]");
  assert_infer ("a: cuda:0 bf16[2]; b: cuda:0 f16[2]", "ltorch.add(a, b, alpha=1)", "cuda:0 f32[2]");
  assert_infer ("a: cuda:0 ui8[2]; b: cuda:0 i8[2]", "ltorch.add(a, b, alpha=1)", "cuda:0 i16[2]");
  /* kinds: INT_TO_FLOAT, ALWAYS_BOOL, COMPLEX_TO_FLOAT */
  assert_infer ("a: cuda:0 i64[4]", "ltorch.true_divide(a, 2)", "cuda:0 f32[4]");
  assert_infer ("a: cuda:0 i64[4]", "ltorch.exp(a)", "cuda:0 f32[4]");
  assert_infer ("a: cuda:0 f32[4, 1]", "ltorch.eq(a, float('inf'))", "cuda:0 b8[4, 1]");
  assert_infer ("a: cuda:0 c64[3]", "ltorch.abs(a)", "cuda:0 f32[3]");
  assert_infer ("a: cuda:0 i32[4]; b: cuda:0 i32[4]", "ltorch.bitwise_left_shift(a, b)", "cuda:0 i32[4]");
  /* alpha takes part: an int tensor minus a float multiple is float */
  assert_infer ("a: cuda:0 i32[4]; b: cuda:0 i32[4]", "ltorch.sub(a, b, alpha=0.5)", "cuda:0 f32[4]");
  /* numbers only give a number */
  assert_infer ("", "ltorch.mul(2, 3.0)", "float ?");

  /* the lattice itself: weak i64 tensor with a Python float is a weak f32 */
  t[0].kind = WB_TYPE_TENSOR;
  t[0].dtype = WB_DTYPE_INT64;
  t[0].rank = 0;
  t[1].kind = WB_TYPE_FLOAT;
  g_assert_true (wb_symbol_promote_types (t, 2, &d, &weak));
  g_assert_cmpint (d, ==, WB_DTYPE_FLOAT32);
  g_assert_true (weak);
  t[0].rank = 1;
  t[0].shape[0] = 3;
  t[1].kind = WB_TYPE_TENSOR;
  t[1].dtype = WB_DTYPE_FLOAT16;
  t[1].weak = TRUE;
  g_assert_true (wb_symbol_promote_types (t, 2, &d, &weak));
  g_assert_cmpint (d, ==, WB_DTYPE_FLOAT16);
  g_assert_true (weak);
  t[1].kind = WB_TYPE_STR;
  g_assert_false (wb_symbol_promote_types (t, 2, &d, &weak));

  /* prims need one dtype and a number of the tensor's kind */
  assert_infer_error ("a: cuda:0 f32[2]; b: cuda:0 bf16[2]", "prims.add(a, b)", "expected dtype f32 but found bf16");
  assert_infer_error ("a: cuda:0 f32[2]", "prims.add(a, 1)", "does not match dtype f32");
  assert_infer ("a: cuda:0 f32[2]", "prims.add(1.0, a)", "cuda:0 f32[2]");
  assert_infer ("a: cuda:0 i64[4, 1]", "prims.ne(a, -100)", "cuda:0 b8[4, 1]");
  /* fp math prims reject low precision inputs (Thunder upcasts first) */
  assert_infer_error ("a: cuda:0 bf16[2]", "prims.exp(a)", "unsupported input dtype bf16");
  assert_infer ("a: cuda:0 f32[2]", "prims.exp(a)", "cuda:0 f32[2]");
  assert_infer_error ("a: cuda:0 f32[2]", "prims.bitwise_not(a)", "unsupported input dtype f32");
}

static void
test_meta_reductions (void)
{
  assert_infer ("a: cuda:0 i32[2, 3]", "ltorch.sum(a, 1, False, dtype=None)", "cuda:0 i64[2]");
  assert_infer ("a: cuda:0 b8[4096, 1]", "ltorch.sum(a, None, False, dtype=None)", "cuda:0 i64[]");
  assert_infer ("a: cuda:0 bf16[8, 1024, 768]", "ltorch.sum(a, (0, 1), False, dtype=None)", "cuda:0 bf16[768]");
  assert_infer ("a: cuda:0 f32[4, 5]", "ltorch.sum(a, 1, True, dtype=dtypes.float64)", "cuda:0 f64[4, 1]");
  assert_infer ("a: cuda:0 f32[4, 5]", "ltorch.mean(a, -1, True, dtype=None)", "cuda:0 f32[4, 1]");
  assert_infer ("a: cuda:0 f32[4, 5]", "torch.mean(a, -1, False, dtype=None)", "cuda:0 f32[4]");
  assert_infer_error ("a: cuda:0 i64[4, 5]", "ltorch.mean(a, -1, False, dtype=None)", "not a floating point");
  assert_infer ("a: cuda:0 f32[4, 32000]", "ltorch.amax(a, 1, True)", "cuda:0 f32[4, 1]");
  assert_infer ("a: cuda:0 f32[4, 32000]", "ltorch.logsumexp(a, 1, True)", "cuda:0 f32[4, 1]");
  assert_infer ("a: cuda:0 f32[4, 7]", "ltorch.argmax(a, 1, False)", "cuda:0 i64[4]");
  assert_infer ("a: cuda:0 f32[8, 1024, 768]", "ltorch.var_mean(a, (2,), keepdim=True, correction=0)",
                "cuda:0 f32[8, 1024, 1]; cuda:0 f32[8, 1024, 1]");
  assert_infer ("a: cuda:0 f32[8, 1024, 768]", "torch.var_mean(a, (2,), correction=0)", "cuda:0 f32[8, 1024]; cuda:0 f32[8, 1024]");
  /* torch.sum with two args implements prims.sum through ltorch.sum's signature */
  assert_infer ("a: cuda:0 f32[1, 2048, 4096]", "torch.sum(a, (2,))", "cuda:0 f32[1, 2048]");
  /* prims drop the dims, which must be given and valid */
  assert_infer ("a: cuda:0 f32[2, 3]", "prims.sum(a, (1,))", "cuda:0 f32[2]");
  assert_infer ("a: cuda:0 f32[4, 1]", "prims.sum(a, (0, 1))", "cuda:0 f32[]");
  assert_infer_error ("a: cuda:0 f32[2, 3]", "prims.sum(a, (2,))", "out of range");
  assert_infer_error ("a: cuda:0 f32[2, 3]", "prims.sum(a, ())", "no dims");
  assert_infer ("a: cuda:0 c64[2, 3]", "prims.var_mean(a, (1,), correction=0)", "cuda:0 f32[2]; cuda:0 c64[2]");
  assert_infer ("a: cuda:0 f32[2, 3]", "prims.argmax(a, 1)", "cuda:0 i64[2]");
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 2048]", "ltorch._softmax(a, -1, dtype=None)", "cuda:0 bf16[1, 32, 2048, 2048]");
  assert_infer ("a: cuda:0 bf16[4096, 32000]", "ltorch.log_softmax(a, 1, dtype=dtypes.float32)", "cuda:0 f32[4096, 32000]");
  assert_infer ("a: cuda:0 bf16[4096, 32000]", "torch.nn.functional.log_softmax(a, 1)", "cuda:0 bf16[4096, 32000]");
}

static void
test_meta_shapes (void)
{
  assert_infer ("a: cuda:0 bf16[8, 1024, 768]", "ltorch.reshape(a, -1, 768)", "cuda:0 bf16[8192, 768]");
  assert_infer ("a: cuda:0 bf16[1, 2048, 12288]", "ltorch.view(a, 1, 2048, 32, 3, 128)", "cuda:0 bf16[1, 2048, 32, 3, 128]");
  assert_infer ("a: cuda:0 f32[512, 8, 3]", "torch.reshape(a, [512, 24])", "cuda:0 f32[512, 24]");
  assert_infer_error ("a: cuda:0 f32[6]", "ltorch.reshape(a, -1, -1)", "only one dimension");
  assert_infer_error ("a: cuda:0 f32[6]", "prims.reshape(a, (4, 2))", "cannot reshape [6] to [4, 2]");
  assert_infer ("a: cuda:0 f32[6]", "torch_prims_reshape_impl(a, (2, 3))", "cuda:0 f32[2, 3]");
  assert_infer ("a: cuda:0 bf16[1, 2048, 32, 3, 128]", "prims.transpose(a, (0, 2, 3, 1, 4))", "cuda:0 bf16[1, 32, 3, 2048, 128]");
  assert_infer ("a: cuda:0 bf16[1, 2048, 32, 3, 128]", "ltorch.permute(a, 0, 2, 3, 1, 4)", "cuda:0 bf16[1, 32, 3, 2048, 128]");
  assert_infer ("a: cuda:0 bf16[1, 2048, 32, 3, 128]", "torch.permute(a, (0, 2, 3, 1, 4))", "cuda:0 bf16[1, 32, 3, 2048, 128]");
  assert_infer_error ("a: cuda:0 f32[2, 3]", "prims.transpose(a, (0, 0))", "invalid permutation");
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 128]", "ltorch.transpose(a, -2, -1)", "cuda:0 bf16[1, 32, 128, 2048]");
  assert_infer ("a: cuda:0 f32[512, 8]", "prims.broadcast_in_dim(a, [512, 8, 1], [0, 1])", "cuda:0 f32[512, 8, 1]");
  assert_infer ("a: cuda:0 bf16[768]", "prims.broadcast_in_dim(a, (8, 1024, 768), (2,))", "cuda:0 bf16[8, 1024, 768]");
  assert_infer_error ("a: cuda:0 f32[3]", "prims.broadcast_in_dim(a, (2, 4), (1,))", "cannot broadcast");
  assert_infer ("a: cuda:0 f32[512, 8, 1]", "ltorch.expand(a, [512, 8, 3])", "cuda:0 f32[512, 8, 3]");
  assert_infer ("a: cuda:0 f32[512, 8, 1]", "Tensor.expand(a, -1, -1, 3)", "cuda:0 f32[512, 8, 3]");
  assert_infer_error ("a: cuda:0 f32[2, 3]", "ltorch.expand(a, 2, 4)", "cannot expand");
  assert_infer ("a: cuda:0 f32[512, 8]", "ltorch.unsqueeze(a, 2)", "cuda:0 f32[512, 8, 1]");
  assert_infer ("a: cuda:0 i64[4096]", "torch.unsqueeze(a, 1)", "cuda:0 i64[4096, 1]");
  assert_infer ("a: cuda:0 f32[2, 1, 3]", "prims.squeeze(a, (1,))", "cuda:0 f32[2, 3]");
  assert_infer_error ("a: cuda:0 f32[2, 1, 3]", "prims.squeeze(a, (0,))", "cannot squeeze");
  assert_infer ("a: cuda:0 f32[2, 1, 3, 1]", "ltorch.squeeze(a, None)", "cuda:0 f32[2, 3]");
  assert_infer ("a: cuda:0 bf16[8, 1024, 2304]", "prims.slice_prim(a, [0, 0, 768], [8, 1024, 1536], [1, 1, 1])",
                "cuda:0 bf16[8, 1024, 768]");
  assert_infer ("a: cuda:0 f32[10]", "prims.slice_prim(a, [1], [10], [3])", "cuda:0 f32[3]");
  assert_infer ("a: cuda:0 f32[10]", "prims.slice_prim(a, [1], [10])", "cuda:0 f32[9]");
  assert_infer_error ("a: cuda:0 f32[10]", "prims.slice_prim(a, [1], [11], [1])", "invalid slice");
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 64]; b: cuda:0 bf16[1, 32, 2048, 64]", "prims.cat([a, b], -1)",
                "cuda:0 bf16[1, 32, 2048, 128]");
  assert_infer ("a: cuda:0 bf16[2, 3]; b: cuda:0 f32[4, 3]", "ltorch.cat((a, b), 0)", "cuda:0 f32[6, 3]");
  assert_infer_error ("a: cuda:0 bf16[2, 3]; b: cuda:0 f32[4, 3]", "prims.cat([a, b], 0)", "dtypes differ");
  assert_infer_error ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[2, 4]", "torch.cat([a, b], 0)", "expected size 3 but got 4");
  assert_infer ("a: cuda:0 bf16[4096, 32000]", "prims.pad(a, 0.0, [(0, 0, 0), (0, 1, 0)])", "cuda:0 bf16[4096, 32001]");
  assert_infer ("a: cuda:0 f32[3, 4]", "prims.pad(a, 0.0, ((1, 1, 0), (0, 0, 1)))", "cuda:0 f32[5, 7]");
  assert_infer_error ("a: cuda:0 f32[3, 4]", "prims.pad(a, 0, ((1, 1, 0), (0, 0, 1)))", "padding value");
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 64]", "torch_pad_prim_impl(a, 0.0, ((0, 0, 0), (0, 0, 0), (0, 0, 0), (64, 0, 0)))",
                "cuda:0 bf16[1, 32, 2048, 128]");
  assert_infer ("a: cuda:0 f32[10]", "prims.unfold(a, 0, 3, 2)", "cuda:0 f32[4, 3]");
  assert_infer ("a: cuda:0 f32[2, 3]", "prims.flip(a, (0, 1))", "cuda:0 f32[2, 3]");
  assert_infer ("a: cuda:0 f32[2, 3, 4]", "ltorch.flatten(a, 1, -1)", "cuda:0 f32[2, 12]");
  assert_infer ("a: cuda:0 f32[2, 3, 4]", "ltorch.movedim(a, 0, -1)", "cuda:0 f32[3, 4, 2]");
  assert_infer ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[2, 3]", "ltorch.stack([a, b], 1)", "cuda:0 f32[2, 2, 3]");
  assert_infer ("a: cuda:0 f32[2, 3]", "ltorch.pad(a, (1, 2), 'constant', 0.0)", "cuda:0 f32[2, 6]");
}

static void
test_meta_split (void)
{
  assert_infer ("a: cuda:0 bf16[8, 1024, 2304]", "ltorch.split(a, 768, 2)",
                "cuda:0 bf16[8, 1024, 768]; cuda:0 bf16[8, 1024, 768]; cuda:0 bf16[8, 1024, 768]");
  assert_infer ("a: cuda:0 bf16[1, 32, 3, 2048, 128]", "ltorch.split(a, (1, 1, 1), 2)",
                "cuda:0 bf16[1, 32, 1, 2048, 128]; cuda:0 bf16[1, 32, 1, 2048, 128]; cuda:0 bf16[1, 32, 1, 2048, 128]");
  assert_infer ("a: cuda:0 f32[10]", "ltorch.split(a, 4, 0)", "cuda:0 f32[4]; cuda:0 f32[4]; cuda:0 f32[2]");
  assert_infer_error ("a: cuda:0 f32[10]", "ltorch.split(a, (4, 4), 0)", "add up to 8, not 10");
  assert_infer ("a: cuda:0 f32[10, 2]", "ltorch.chunk(a, 3, 0)", "cuda:0 f32[4, 2]; cuda:0 f32[4, 2]; cuda:0 f32[2, 2]");
}

static void
test_meta_indexing (void)
{
  assert_infer ("x: cuda:0 f32[512, 256]; i: cuda:0 i64[1000]", "prims.take(x, i, 0)", "cuda:0 f32[1000, 256]");
  assert_infer_error ("x: cuda:0 f32[512, 256]; i: cuda:0 f32[1000]", "prims.take(x, i, 0)", "integer dtype");
  assert_infer ("a: cuda:0 bf16[4096, 32001]; i: cuda:0 i64[4096, 1]", "prims.take_along_axis(a, i, 1)", "cuda:0 bf16[4096, 1]");
  assert_infer ("a: cuda:0 bf16[4096, 32001]; i: cuda:0 i64[4096, 1]", "ltorch.take_along_dim(a, i, 1)", "cuda:0 bf16[4096, 1]");
  assert_infer_error ("a: cuda:0 bf16[4096, 32001]; i: cuda:0 i64[4095, 1]", "prims.take_along_axis(a, i, 1)", "does not fit");
  assert_infer ("a: cuda:0 f32[4, 5]; i: cuda:0 i64[4, 2]", "prims.gather(a, i, 1)", "cuda:0 f32[4, 2]");
  assert_infer ("x: cuda:0 f32[512, 256]", "ltorch.topk(x, 8, -1, True, True)", "cuda:0 f32[512, 8]; cuda:0 i64[512, 8]");
  assert_infer ("x: cuda:0 f32[512, 256]", "prims.topk(x, 8, 1, True, True)", "cuda:0 f32[512, 8]; cuda:0 i64[512, 8]");
  assert_infer_error ("x: cuda:0 f32[512, 256]", "prims.topk(x, 300, 1, True, True)", "out of range");
  assert_infer ("x: cuda:0 f32[5, 6]", "prims.sort(x, 0, False, True)", "cuda:0 f32[5, 6]; cuda:0 i64[5, 6]");
  assert_infer ("v: cuda:0 f32[512, 8]", "ltorch.repeat_interleave(v, 3, -1, output_size=None)", "cuda:0 f32[512, 24]");
  assert_infer ("v: cuda:0 f32[2, 3]", "ltorch.repeat_interleave(v, 2, None, output_size=None)", "cuda:0 f32[12]");
  assert_infer_error ("v: cuda:0 f32[2, 3]; r: cuda:0 i64[3]", "ltorch.repeat_interleave(v, r, 1, output_size=None)",
                      "data-dependent");
  assert_infer ("a: cuda:0 f32[10, 4]; i: cuda:0 i64[3]", "ltorch.index_select(a, 0, i)", "cuda:0 f32[3, 4]");
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 2048]", "ltorch.tril(a, 0, fill_value=-float('inf'))", "cuda:0 bf16[1, 32, 2048, 2048]");
}

static void
test_meta_getitem (void)
{
  /* basic: ellipsis and slices */
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 128]", "ltorch.getitem(a, (..., slice(None,64,None)))", "cuda:0 bf16[1, 32, 2048, 64]");
  assert_infer ("a: cuda:0 bf16[1, 32, 2048, 128]", "ltorch.getitem(a, (..., slice(64,None,None)))", "cuda:0 bf16[1, 32, 2048, 64]");
  /* ints drop dims, None adds them, steps round up, bounds clamp */
  assert_infer ("a: cuda:0 f32[4, 5, 6]", "ltorch.getitem(a, (0, None, slice(1,None,2)))", "cuda:0 f32[1, 2, 6]");
  assert_infer ("a: cuda:0 f32[4, 5]", "ltorch.getitem(a, (slice(-2,None,None), -1))", "cuda:0 f32[2]");
  assert_infer ("a: cuda:0 f32[4]", "ltorch.getitem(a, slice(2,100,None))", "cuda:0 f32[2]");
  assert_infer_error ("a: cuda:0 f32[4, 5]", "ltorch.getitem(a, (4,))", "out of range");
  assert_infer_error ("a: cuda:0 f32[4]", "ltorch.getitem(a, (0, 0))", "2 indices for a tensor of rank 1");
  /* advanced: an integer tensor index replaces its dim */
  assert_infer ("x: cuda:0 f32[512, 256]; i: cuda:0 i64[1000]", "ltorch.getitem(x, i)", "cuda:0 f32[1000, 256]");
  assert_infer ("x: cuda:0 f32[512, 256]; i: cuda:0 i64[1000]", "Tensor.__getitem__(x, i)", "cuda:0 f32[1000, 256]");
  assert_infer ("x: cuda:0 f32[3, 4, 5]; i: cuda:0 i64[2, 7]", "ltorch.getitem(x, (slice(None,None,None), i))",
                "cuda:0 f32[3, 2, 7, 5]");
  /* two index tensors broadcast; separated by a slice they go to the front */
  assert_infer ("x: cuda:0 f32[3, 4, 5]; i: cuda:0 i64[7]; j: cuda:0 i64[1]", "ltorch.getitem(x, (i, slice(None,None,None), j))",
                "cuda:0 f32[7, 4]");
  assert_infer ("x: cuda:0 f32[3, 4, 5]; i: cuda:0 i64[7]", "ltorch.getitem(x, (0, [1, 2]))", "cuda:0 f32[2, 5]");
  assert_infer_error ("x: cuda:0 f32[3]; m: cuda:0 b8[3]", "ltorch.getitem(x, m)", "data-dependent");
}

static void
test_meta_matmul (void)
{
  assert_infer ("a: cuda:0 bf16[2, 3, 4]; w: cuda:0 bf16[5, 4]", "prims.linear(a, w, None)", "cuda:0 bf16[2, 3, 5]");
  assert_infer ("a: cuda:0 bf16[8, 1024, 768]; w: cuda:0 bf16[2304, 768]; b: cuda:0 bf16[2304]",
                "torch.nn.functional.linear(a, w, b)", "cuda:0 bf16[8, 1024, 2304]");
  assert_infer_error ("a: cuda:0 bf16[2, 3]; w: cuda:0 bf16[5, 4]", "ltorch.linear(a, w, None)", "inner length");
  assert_infer_error ("a: cuda:0 bf16[2, 4]; w: cuda:0 f32[5, 4]", "prims.linear(a, w, None)", "dtypes differ");
  assert_infer_error ("a: cuda:0 f32[2, 4]; w: cuda:0 f32[5, 4]; b: cuda:0 f32[4]", "prims.linear(a, w, b)", "bias");
  assert_infer ("a: cuda:0 f32[2, 1, 3, 4]; b: cuda:0 f32[5, 4, 6]", "ltorch.matmul(a, b)", "cuda:0 f32[2, 5, 3, 6]");
  assert_infer_error ("a: cuda:0 f32[2, 3, 4]; b: cuda:0 f32[5, 4, 6]", "prims.matmul(a, b)", "batch dims differ");
  assert_infer ("a: cuda:0 f32[4]; b: cuda:0 f32[3, 4, 6]", "torch.matmul(a, b)", "cuda:0 f32[3, 6]");
  assert_infer ("a: cuda:0 f32[3, 4]; b: cuda:0 f32[4]", "prims.matmul(a, b)", "cuda:0 f32[3]");
  assert_infer ("a: cuda:0 f32[4]; b: cuda:0 f32[4]", "prims.matmul(a, b)", "cuda:0 f32[]");
  assert_infer ("a: cuda:0 bf16[8192, 768]; b: cuda:0 bf16[768, 3072]", "ltorch.matmul(a, b)", "cuda:0 bf16[8192, 3072]");
  assert_infer ("a: cuda:0 f32[2, 3, 4]; b: cuda:0 f32[2, 4, 5]", "ltorch.bmm(a, b)", "cuda:0 f32[2, 3, 5]");
  assert_infer ("a: cuda:0 f32[1, 3, 32, 32]; w: cuda:0 f32[8, 3, 3, 3]",
                "prims.convolution(a, w, None, (1,), (1,), (1,), False, (0,), 1)", "cuda:0 f32[1, 8, 32, 32]");
  assert_infer ("a: cuda:0 f32[1, 4, 9]; w: cuda:0 f32[6, 2, 3]",
                "prims.convolution(a, w, None, (2,), (0,), (1,), False, (0,), 2)", "cuda:0 f32[1, 6, 4]");
  assert_infer ("i: cuda:0 i64[2, 3]; w: cuda:0 f32[10, 4]", "prims.embedding(i, w)", "cuda:0 f32[2, 3, 4]");
  assert_infer_error ("i: cuda:0 i32[2, 3]; w: cuda:0 f32[10, 4]", "prims.embedding(i, w)", "indices must be i64");
  assert_infer ("i: cuda:0 i32[2, 3]; w: cuda:0 f32[10, 4]", "ltorch.embedding(i, w, None, None, 2.0, False, False)",
                "cuda:0 f32[2, 3, 4]");
}

static void
test_meta_nn (void)
{
  assert_infer ("x: cuda:0 bf16[8, 1024, 768]; w: cuda:0 bf16[768]; b: cuda:0 bf16[768]",
                "ltorch.layer_norm(x, (768,), w, b, 1e-05)", "cuda:0 bf16[8, 1024, 768]");
  assert_infer_error ("x: cuda:0 bf16[8, 1024, 768]", "ltorch.layer_norm(x, (512,), None, None, 1e-05)", "normalized_shape");
  assert_infer ("l: cuda:0 bf16[4096, 32000]; t: cuda:0 i64[4096]",
                "ltorch.cross_entropy(l, t, None, None, -100, None, 'mean', 0.0)", "cuda:0 bf16[]");
  assert_infer ("l: cuda:0 bf16[4096, 32000]; t: cuda:0 i64[4096]",
                "ltorch.cross_entropy(l, t, None, None, -100, None, 'none', 0.0)", "cuda:0 bf16[4096]");
  assert_infer ("l: cuda:0 bf16[4096, 32000]; t: cuda:0 i64[4096]", "ltorch.nll_loss(l, t, None, -100, 'sum')", "cuda:0 bf16[]");
  assert_infer_error ("l: cuda:0 bf16[4096, 32000]; t: cuda:0 i64[4095]", "ltorch.nll_loss(l, t, None, -100, 'mean')",
                      "target shape");
  assert_infer ("g: cuda:0 bf16[]; l: cuda:0 bf16[4096, 32000]; t: cuda:0 i64[4096]; w: cuda:0 i64[]",
                "torch_nll_loss_backward_impl(g, l, t, None, 'mean', -100, w)", "cuda:0 bf16[4096, 32000]");
  assert_infer ("g: cuda:0 bf16[4096, 32000]; o: cuda:0 bf16[4096, 32000]",
                "torch.torch.ops.aten._log_softmax_backward_data(g, o, 1, torch.float32)", "cuda:0 f32[4096, 32000]");
  assert_infer ("g: cuda:0 bf16[4096, 32000]; o: cuda:0 bf16[4096, 32000]",
                "ltorch.log_softmax_backward(g, o, 1, dtypes.bfloat16)", "cuda:0 bf16[4096, 32000]");
  assert_infer ("x: cuda:0 bf16[1, 2048, 11008]", "ltorch.silu(x, False)", "cuda:0 bf16[1, 2048, 11008]");
  assert_infer ("x: cuda:0 f32[32, 512]", "ltorch.gelu(x, approximate='tanh')", "cuda:0 f32[32, 512]");
  assert_infer ("x: cuda:0 bf16[2, 4]", "ltorch.dropout(x, 0.0, True, False)", "cuda:0 bf16[2, 4]");
}

static void
test_meta_attention (void)
{
  const char *qkv = "q: cuda:0 bf16[1, 32, 2048, 128]; k: cuda:0 bf16[1, 32, 2048, 128]; v: cuda:0 bf16[1, 32, 2048, 64]";
  const char *bwd = "g: cuda:0 bf16[1, 32, 2048, 128]; q: cuda:0 bf16[1, 32, 2048, 128]; k: cuda:0 bf16[1, 32, 2048, 128]; "
                    "v: cuda:0 bf16[1, 32, 2048, 128]; o: cuda:0 bf16[1, 32, 2048, 128]; l: cuda:0 f32[1, 32, 2048]; "
                    "cq: cuda:0 i64[2]; ck: cuda:0 i64[2]; s: cuda:0 i64[]; f: cuda:0 i64[]";

  assert_infer (qkv, "ltorch.scaled_dot_product_attention(q, k, v, None, 0.0, True, scale=0.08838834764831843)",
                "cuda:0 bf16[1, 32, 2048, 64]");
  assert_infer (qkv, "sdpaex_grad_forward_scaled_dot_product_efficient_attention(q, k, v, None, 0.0, True, None)",
                "cuda:0 bf16[1, 32, 2048, 64]; cuda:0 f32[1, 32, 2048]; cuda:0 i64[]; cuda:0 i64[]");
  assert_infer ("q: cuda:0 bf16[8, 12, 1000, 64]; k: cuda:0 bf16[8, 12, 1000, 64]; v: cuda:0 bf16[8, 12, 1000, 64]",
                "sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, True, scale=None)",
                "cuda:0 bf16[8, 12, 1000, 64]; cuda:0 f32[8, 12, 1008]; cuda:0 i64[9]; cuda:0 i64[9]; int 1000; int 1000; "
                "cuda:0 i64[]; cuda:0 i64[]; cuda:0 i64[]");
  assert_infer_error ("q: cuda:0 f32[1, 2, 16, 8]; k: cuda:0 f32[1, 2, 16, 8]; v: cuda:0 f32[1, 2, 16, 8]",
                      "sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, True, scale=None)",
                      "unsupported dtype f32");
  assert_infer (bwd,
                "sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, l, cq, ck, 2048, 2048, 0.0, True, s, f, "
                "scale=0.08838834764831843)",
                "cuda:0 bf16[1, 32, 2048, 128]; cuda:0 bf16[1, 32, 2048, 128]; cuda:0 bf16[1, 32, 2048, 128]");
  assert_infer_error (bwd,
                      "sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, o, cq, ck, 2048, 2048, 0.0, True, s, "
                      "f, scale=None)",
                      "logsumexp must be f32 [1, 32, 2048]");
  assert_infer_error (qkv, "ltorch.scaled_dot_product_attention(q, k, None, None, 0.0, True, scale=None)", "expected a tensor");
}

static void
test_meta_creation (void)
{
  assert_infer ("", "prims.uniform((512, 256), 0, 1, device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)",
                "cuda:0 f32[512, 256]");
  assert_infer ("", "uniform((512, 256), 0, 1, device=torch.device(\"cuda:0\"), dtype=torch.float32)", "cuda:0 f32[512, 256]");
  assert_infer_error ("", "prims.uniform((512, 256), 0, 1, device=devices.Device(\"cuda:0\"))", "missing argument 'dtype'");
  assert_infer ("", "prims.iota(2048, start=0, step=1, device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)", "cuda:0 i64[2048]");
  assert_infer_error ("", "prims.iota(8, start=0, step=1, device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)",
                      "not a non-boolean integer dtype");
  assert_infer ("", "ltorch.arange(2048, None, 1, device=devices.Device(\"cuda:0\"), dtype=None)", "cuda:0 i64[2048]");
  assert_infer ("", "ltorch.arange(0, 10, 3, device=None, dtype=None)", "cpu i64[4]");
  assert_infer ("", "ltorch.arange(0.0, 1.0, 0.25, device=None, dtype=None)", "cpu f32[4]");
  assert_infer ("", "ltorch.full((2, 3), 7, device=None, dtype=None)", "cpu i64[2, 3]");
  assert_infer ("", "prims.full((2, 3), 1.5, device=devices.Device(\"cuda:0\"), dtype=dtypes.bfloat16)", "cuda:0 bf16[2, 3]");
  assert_infer ("", "prims.empty((512, 256), device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)", "cuda:0 f32[512, 256]");
  assert_infer ("", "ltorch.empty((512, 256), device=devices.Device(\"cuda:0\"), dtype=dtypes.float32, out=None, "
                    "layout=torch.strided, requires_grad=False, pin_memory=False, memory_format=_torch_memory_format_11)",
                "cuda:0 f32[512, 256]");
  assert_infer ("", "torch.empty((512, 256), device=torch.device(\"cuda:0\"), dtype=torch.float32)", "cuda:0 f32[512, 256]");
  assert_infer ("", "ltorch.rand((4, 2), generator=None, dtype=None, device=None, layout=torch.strided, requires_grad=False, "
                    "pin_memory=False, out=None)",
                "cpu f32[4, 2]");
  assert_infer_error ("", "ltorch.randn(3, dtype=dtypes.int64)", "floating-point dtype");
  assert_infer ("x: cuda:0 f32[512, 256]", "ltorch.rand_like(x, dtype=None, layout=None, device=None, requires_grad=False, "
                                           "memory_format=_torch_memory_format_10)",
                "cuda:0 f32[512, 256]");
  assert_infer ("x: cuda:0 f32[512, 256]", "ltorch.zeros_like(x, device=None, dtype=dtypes.int32)", "cuda:0 i32[512, 256]");
  assert_infer ("", "prims.tensor_from_sequence([[1, 2, 3], [4, 5, 6]], dtype=None, device=devices.Device(\"cpu\"))", "cpu i64[2, 3]");
  assert_infer ("", "prims.tensor_from_sequence([1.0, 2], dtype=None, device=devices.Device(\"cpu\"))", "cpu f32[2]");
}

static void
test_meta_conversion (void)
{
  assert_infer ("x: cuda:0 bf16[2, 3]", "prims.convert_element_type(x, dtypes.float32)", "cuda:0 f32[2, 3]");
  assert_infer ("x: cuda:0 bf16[]", "prims.convert_element_type(x, dtypes.float32_)", "cuda:0 f32[]");
  assert_infer ("x: cuda:0 bf16[2]", "ltorch.to(x, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)",
                "cuda:0 f32[2]");
  assert_infer ("x: cuda:0 bf16[2]", "Tensor.to(x, torch.float32, copy=True)", "cuda:0 f32[2]");
  assert_infer ("x: cuda:0 bf16[2]", "ltorch.to(x, 'cpu', None, device=None, dtype=None, copy=False, memory_format=None)",
                "cpu bf16[2]");
  assert_infer ("x: cuda:0 bf16[2]; y: cpu f16[5]", "ltorch.to(x, y, None, device=None, dtype=None, copy=False, memory_format=None)",
                "cpu f16[2]");
  assert_infer ("x: cuda:0 bf16[2]", "ltorch.to(x, None, None, device=devices.Device(\"cuda:1\"), dtype=dtypes.int8, copy=False, "
                                     "memory_format=None)",
                "cuda:1 i8[2]");
  assert_infer ("x: cuda:0 f32[2]", "prims.device_put(x, devices.Device(\"cpu\"))", "cpu f32[2]");
  assert_infer ("x: cuda:0 f32[2, 8]", "prims.bitcast(x, dtypes.float16)", "cuda:0 f16[2, 16]");
  assert_infer ("x: cuda:0 f32[2, 3]; y: cuda:0 f32[2, 3]", "copy_(x, y, grad_enabled=False)", "cuda:0 f32[2, 3]");
  assert_infer_error ("x: cuda:0 f32[2, 3]; y: cuda:0 f32[3, 2]", "prims.copy_(x, y, grad_enabled=False)", "shapes differ");
  assert_infer ("x: cuda:0 f32[2, 3]; y: cuda:0 f32[4]", "update_aliases((x, y))", "cuda:0 f32[2, 3]; cuda:0 f32[4]");
  assert_infer ("x: cuda:0 f32[2, 3]", "prims.shape(x)", "int 2; int 3");
  assert_infer ("x: cuda:0 i32[2]", "prims.item(x)", "int ?");
  assert_infer ("x: cuda:0 f32[2]", "ltorch.long(x)", "cuda:0 i64[2]");
}

static void
test_meta_checks (void)
{
  assert_infer ("x: cuda:0 f32[512, 256]", "check_tensor_metadata(x, (512, 256), 'cuda:0', torch.float32, False)", "");
  assert_infer_error ("x: cuda:0 f32[512, 256]", "check_tensor_metadata(x, (512, 255), 'cuda:0', torch.float32, False)",
                      "checks a shape");
  assert_infer_error ("x: cuda:0 f32[512, 256]", "prims.check_tensor_shape_and_metadata(x, (512, 256), 'cpu', torch.float32, False)",
                      "checks device cpu");
  assert_infer_error ("x: cuda:0 f32[512, 256]", "check_tensor_metadata(x, (512, 256), 'cuda:0', torch.int32, False)",
                      "checks dtype i32");
  assert_infer ("i: int 8", "check_number_type_and_value(i, 8)", "");
  assert_infer_error ("i: int 8", "check_number_type_and_value(i, 9)", "checks value int 9");
  assert_infer ("b: bool False", "check_number_type_and_value(b, False)", "");
  assert_infer ("x: cuda:0 f32[2]", "prims.get_grad(x)", "cuda:0 f32[2]");
  assert_infer ("c: Collection", "clear_mutable_collection(c)", "");
}

/* Meta functions never crash: every symbol with many malformed argument lists either derives something or
 * sets a WB_SYMBOL_ERROR. */
static void
test_meta_robust (void)
{
  static const char *const arglists[] = {
    "",
    "a",
    "a, a",
    "a, a, a",
    "a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a",
    "1",
    "2.0, 'x'",
    "None, None, None",
    "n, n, n",
    "a, (1, 2), (0,)",
    "a, (a, a), 1",
    "a, [(0, 1, 0)], 0.0",
    "a, dim=1",
    "a, bogus=1",
    "a, 1, 2, 3, 4, 5",
    "s, s",
    "(a, n), [a]",
    "a, slice(1,2,3), ...",
    "a, -1, -1",
    "a, (9, 9, 9, 9, 9, 9, 9, 9, 9, 9)",
    "a, 0, 99999",
    "a, dtypes.float32, devices.Device(\"cuda:0\")",
    "a, (1, None, ..., slice(None,None,None), a)",
    "z, z, z",
    "a, (), ()",
    "a, -100, True",
    "e, e",
  };
  g_autoptr (GString) text = g_string_new ("import torch\n\ndef f(a, n, s, z, e):\n"
                                           "  # a: \"cuda:0 f32[2, 3]\"\n  # n: \"int 4\"\n  # s: \"str\"\n"
                                           "  # z: \"cuda:0 f32[]\"\n  # e: \"cuda:0 i64[0, 3]\"\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;
  g_autoptr (GHashTable) types = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  Env   env = { types };
  guint n_calls = 0, n_ok = 0;

  for (guint i = 0; i < WB_N_SYMBOLS; i++)
    {
      const WbSymbol *s = wb_symbol_get_by_id (i);
      const char     *name = wb_symbol_get_name (s);
      if (wb_symbol_is_fusion (s))
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (arglists); k++)
        g_string_append_printf (text, "  out = %s(%s)\n", name, arglists[k]);
    }
  g_string_append (text, "  return a\n");
  trace = wb_trace_parse (text->str, -1, "robust.py", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      g_autoptr (GArray) outputs = g_array_new (FALSE, TRUE, sizeof (WbType));
      g_autoptr (GError) err = NULL;
      if (b->kind == WB_BSYM_ANNOTATION)
        {
          g_hash_table_insert (types, (gpointer) b->name, g_memdup2 (&b->type, sizeof b->type));
          continue;
        }
      if (b->kind != WB_BSYM_CALL)
        continue;
      n_calls++;
      if (wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, env_lookup, &env, outputs, &err))
        {
          g_assert_no_error (err);
          n_ok++;
          for (guint o = 0; o < outputs->len; o++)
            {
              const WbType *t = &g_array_index (outputs, WbType, o);
              g_assert_cmpuint (t->rank, <=, WB_MAX_RANK);
              if (t->kind == WB_TYPE_TENSOR)
                for (guint d = 0; d < t->rank; d++)
                  g_assert_cmpint (t->shape[d], >=, 0);
            }
        }
      else
        {
          g_assert_nonnull (err);
          g_assert_true (err->domain == WB_SYMBOL_ERROR);
          g_assert_cmpuint (outputs->len, ==, 0);
        }
    }
  g_assert_cmpuint (n_calls, >, 10000);
  g_assert_cmpuint (n_ok, >, 0);
  g_assert_cmpuint (n_ok, <, n_calls);
}

/* Convolution, pooling, norms and interpolate; expected shapes are what PyTorch 2.11 returns. */
static void
test_meta_spatial (void)
{
  const char *x = "x: cuda:0 f32[2, 3, 17, 17]";

  assert_infer ("x: cuda:0 f32[2, 3, 17, 17]; w: cuda:0 f32[8, 3, 3, 3]", "ltorch.conv2d(x, w, None, 2, 1)", "cuda:0 f32[2, 8, 9, 9]");
  assert_infer ("x: cuda:0 f32[2, 3, 17, 17]; w: cuda:0 f32[6, 1, 3, 3]", "ltorch.conv2d(x, w, None, 1, 'same', 1, 3)", "cuda:0 f32[2, 6, 17, 17]");
  /* unbatched conv1d with dilation */
  assert_infer ("x: cuda:0 f32[4, 10]; w: cuda:0 f32[6, 4, 3]", "ltorch.conv1d(x, w, None, 1, 0, 2)", "cuda:0 f32[6, 6]");
  /* transposed: (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1 */
  assert_infer ("x: cuda:0 f32[2, 3, 17, 17]; w: cuda:0 f32[3, 4, 3, 3]", "torch.convolution(x, w, None, (2, 2), (1, 1), (1, 1), True, (1, 1), 1)",
                "cuda:0 f32[2, 4, 34, 34]");
  assert_infer_error ("x: cuda:0 f32[2, 4, 8, 8]; w: cuda:0 f32[8, 3, 3, 3]", "ltorch.conv2d(x, w)", "input channels");
  assert_infer_error ("x: cuda:0 f32[2, 3, 8, 8]; w: cuda:0 bf16[8, 3, 3, 3]", "ltorch.conv2d(x, w)", "different dtypes");
  /* pooling: ATen's output size, ceil_mode and its last-window rule */
  assert_infer (x, "ltorch.max_pool2d(x, 3, 2, 1, 1, False, False)", "cuda:0 f32[2, 3, 9, 9]");
  assert_infer ("x: cuda:0 f32[1, 1, 8, 8]", "torch.nn.functional.max_pool2d(x, 3, 2, 0, 1, False, True)", "cuda:0 f32[1, 1, 4, 4]");
  assert_infer ("x: cuda:0 f32[1, 1, 5, 5]", "ltorch.max_pool2d(x, 2, 2, 1, 1, False, True)", "cuda:0 f32[1, 1, 3, 3]");
  assert_infer ("x: cuda:0 f32[3, 10]", "ltorch.max_pool1d(x, 4)", "cuda:0 f32[3, 2]");
  /* Thunder types the indices like the input (and annotates saved indices so) */
  assert_infer (x, "max_pool2d_with_indices(x, 3, 2, 1, 1, False)", "cuda:0 f32[2, 3, 9, 9]; cuda:0 f32[2, 3, 9, 9]");
  assert_infer (x, "ltorch.max_pool2d(x, 3, 2, 1, 1, True, False)", "cuda:0 f32[2, 3, 9, 9]; cuda:0 i64[2, 3, 9, 9]");
  assert_infer (x, "ltorch.avg_pool2d(x, 2, 2, 0, True, True, None)", "cuda:0 f32[2, 3, 9, 9]");
  assert_infer_error (x, "ltorch.avg_pool2d(x, 2, 2, 2)", "more than half the kernel");
  assert_infer (x, "ltorch.adaptive_avg_pool2d(x, (None, 5))", "cuda:0 f32[2, 3, 17, 5]");
  assert_infer ("x: cuda:0 f32[1, 512, 2, 4, 4]", "ltorch.adaptive_avg_pool3d(x, (1, 1, 1))", "cuda:0 f32[1, 512, 1, 1, 1]");
  assert_infer ("g: cuda:0 f32[2, 3, 1, 1]; x: cuda:0 f32[2, 3, 17, 17]", "torch.torch.ops.aten._adaptive_avg_pool2d_backward(g, x)",
                "cuda:0 f32[2, 3, 17, 17]");
  /* norms: per-channel parameters must have C entries */
  assert_infer ("x: cuda:0 f32[2, 3, 17, 17]; m: cuda:0 f32[3]", "ltorch.batch_norm(x, m, m, m, m, True, 0.1, 1e-05)", "cuda:0 f32[2, 3, 17, 17]");
  assert_infer_error ("x: cuda:0 f32[2, 3, 17, 17]; m: cuda:0 f32[4]", "ltorch.batch_norm(x, m, m, None, None, True, 0.1, 1e-05)", "3 channels");
  assert_infer ("x: cuda:0 f32[2, 6, 5]", "ltorch.group_norm(x, 3)", "cuda:0 f32[2, 6, 5]");
  assert_infer_error ("x: cuda:0 f32[2, 6, 5]", "ltorch.group_norm(x, 4)", "groups do not divide");
  assert_infer (x, "ltorch.interpolate(x, None, 1.5)", "cuda:0 f32[2, 3, 25, 25]");
  assert_infer (x, "ltorch.interpolate(x, (4, 6))", "cuda:0 f32[2, 3, 4, 6]");
}

/* In-place ops have their first argument's type after the out-of-place op's checks. */
static void
test_meta_inplace (void)
{
  const WbSymbol *add_ = wb_symbol_lookup ("ltorch.add_", strlen ("ltorch.add_"));

  g_assert_nonnull (add_);
  g_assert_true (wb_symbol_is_inplace (add_));
  g_assert_false (wb_symbol_is_inplace (wb_symbol_lookup ("ltorch.add", strlen ("ltorch.add"))));
  g_assert_false (wb_symbol_is_inplace (wb_symbol_lookup ("Tensor.__getitem__", strlen ("Tensor.__getitem__"))));
  /* i32 += f32 stays i32 (PyTorch would refuse the cast; Thunder's copy_ casts) */
  assert_infer ("a: cuda:0 i64[2, 16]; b: cuda:0 f32[2, 16]", "ltorch.add_(a, b, alpha=1)", "cuda:0 i64[2, 16]");
  assert_infer ("a: cuda:0 f32[16, 64]", "ltorch.mul_(a, 0.5)", "cuda:0 f32[16, 64]");
  assert_infer ("a: cuda:0 f32[4, 3]; m: cuda:0 b8[4, 1]", "ltorch.masked_fill_(a, m, 1)", "cuda:0 f32[4, 3]");
  assert_infer ("a: cuda:0 f32[4]", "ltorch.eq_(a, 2.0)", "cuda:0 f32[4]");
  assert_infer ("a: cuda:0 f32[4]", "ltorch.polygamma_(a, 1)", "cuda:0 f32[4]");
  assert_infer_error ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[4]", "ltorch.add_(a, b, alpha=1)", "broadcast");
  assert_infer ("a: cuda:0 i64[2, 16]; v: cuda:0 i64[2, 15]", "ltorch.setitem_(a, (slice(None,None,None), slice(1,None,None)), v)", "cuda:0 i64[2, 16]");
  assert_infer ("a: cuda:0 f32[64, 64]; i: cuda:0 i64[8]; s: cuda:0 f32[8, 64]", "torch.index_add(a, 0, i, s)", "cuda:0 f32[64, 64]");
  assert_infer_error ("a: cuda:0 f32[64, 64]; i: cuda:0 i64[8]; s: cuda:0 f32[8, 64]", "ltorch.scatter_add(a, 2, i, s)", "out of range");
  /* tensor queries carry their values */
  assert_infer ("a: cuda:0 f32[2, 3, 4]", "ltorch.dim(a)", "int 3");
  assert_infer ("a: cuda:0 f32[2, 3, 4]", "ltorch.numel(a)", "int 24");
  assert_infer ("a: cuda:0 f32[2]", "ltorch.is_nested(a)", "bool False");
  assert_infer ("a: cuda:0 f32[2]", "ltorch.is_floating_point(a)", "bool True");
}

/* Views, splits, sort, einsum; expected shapes are what PyTorch 2.11 returns. */
static void
test_meta_views (void)
{
  assert_infer ("a: cuda:0 f32[7, 2]", "ltorch.tensor_split(a, 3)", "cuda:0 f32[3, 2]; cuda:0 f32[2, 2]; cuda:0 f32[2, 2]");
  assert_infer ("a: cuda:0 f32[7, 2]", "ltorch.tensor_split(a, (1, 5))", "cuda:0 f32[1, 2]; cuda:0 f32[4, 2]; cuda:0 f32[2, 2]");
  assert_infer ("a: cuda:0 f32[3, 5]", "ltorch.diagonal(a, 1)", "cuda:0 f32[3]");
  assert_infer ("a: cuda:0 f32[4]", "ltorch.atleast_3d(a)", "cuda:0 f32[1, 4, 1]");
  assert_infer ("a: cuda:0 f32[2, 4]", "ltorch.atleast_3d(a)", "cuda:0 f32[2, 4, 1]");
  assert_infer ("a: cuda:0 f32[2, 3]", "ltorch.repeat(a, 2, 1, 2)", "cuda:0 f32[2, 2, 6]");
  assert_infer ("a: cuda:0 f32[2, 12]", "ltorch.unflatten(a, 1, (3, -1))", "cuda:0 f32[2, 3, 4]");
  assert_infer ("a: cuda:0 f32[32, 2]", "ltorch.t(a)", "cuda:0 f32[2, 32]");
  assert_infer ("a: cuda:0 f32[3, 4]", "ltorch.unbind(a, 1)", "cuda:0 f32[3]; cuda:0 f32[3]; cuda:0 f32[3]; cuda:0 f32[3]");
  assert_infer ("a: cuda:0 f32[3, 4]", "ltorch.select(a, 0, -1)", "cuda:0 f32[4]");
  assert_infer ("a: cuda:0 i64[128]", "ltorch.sort(a, None, False, False)", "cuda:0 i64[128]; cuda:0 i64[128]");
  assert_infer ("a: cuda:0 f32[4, 6]", "torch.sort(a, dim=0, descending=False, stable=False)", "cuda:0 f32[4, 6]; cuda:0 i64[4, 6]");
  assert_infer ("a: cuda:0 f32[4, 6]", "ltorch.torch_max(a, 1, True)", "cuda:0 f32[4, 1]; cuda:0 i64[4, 1]");
  assert_infer ("a: cuda:0 i64[4]", "ltorch.one_hot(a, 10)", "cuda:0 i64[4, 10]");
  assert_infer ("a: cuda:0 f32[2, 3, 4]; b: cuda:0 f32[2, 4, 5]", "ltorch.einsum('bij,bjk->bik', a, b)", "cuda:0 f32[2, 3, 5]");
  assert_infer ("a: cuda:0 f32[7, 3, 4]; b: cuda:0 f32[4, 5]", "ltorch.einsum('...ij,jk', a, b)", "cuda:0 f32[7, 3, 5]");
  assert_infer ("a: cuda:0 f32[3, 3]", "ltorch.einsum('ii', a)", "cuda:0 f32[]");
  assert_infer_error ("a: cuda:0 f32[2, 3]; b: cuda:0 f32[4, 5]", "ltorch.einsum('ij,jk->ik', a, b)", "subscript 'j'");
  assert_infer ("a: cuda:0 f32[16, 10]; b: cuda:0 f32[16, 10]", "torch.nn.functional.kl_div(a, b, reduction='batchmean')", "cuda:0 f32[]");
  /* kl_div_vjp as no_grad_teacher's backward prints it: ((input, target), {kwargs}), cotangent -> (grad_input, grad_target) */
  {
    const char *kl = "a: cuda:0 f32[16, 10]; b: cuda:0 f32[16, 10]; g: cuda:0 f32[]; gn: cuda:0 f32[16, 10]";
    assert_infer (kl, "kl_div_vjp(((a, b), {'reduction': \"batchmean\"}), g)", "cuda:0 f32[16, 10]; cuda:0 f32[16, 10]");
    assert_infer (kl, "kl_div_vjp(((a, b), {}), g)", "cuda:0 f32[16, 10]; cuda:0 f32[16, 10]");
    assert_infer (kl, "kl_div_vjp(((a, b), {'reduction': 'none', 'log_target': True}), gn)", "cuda:0 f32[16, 10]; cuda:0 f32[16, 10]");
    assert_infer_error (kl, "kl_div_vjp(((a, b), {'reduction': 'none'}), g)", "the cotangent's shape is not the loss's");
    assert_infer_error (kl, "kl_div_vjp(((a, b), {'reduction': 'max'}), g)", "unknown reduction 'max'");
    assert_infer_error (kl, "kl_div_vjp(((a, b), {'size_average': None}), g)", "unsupported keyword argument 'size_average'");
    assert_infer_error (kl, "kl_div_vjp(((a, b), {'log_target': 'yes'}), g)", "log_target must be True or False");
    assert_infer_error (kl, "kl_div_vjp(((a, b, None), {}), g)", "positional arguments must be (input, target)");
    assert_infer_error (kl, "kl_div_vjp((a, b), g)", "saved_for_backward must be");
  }
  assert_infer ("a: cuda:0 b8[4, 6]", "ltorch.any_tensor(a, 1)", "cuda:0 b8[4]");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbSymbol/meta-broadcast", test_meta_broadcast);
  g_test_add_func ("/compiler/WbSymbol/meta-promotion", test_meta_promotion);
  g_test_add_func ("/compiler/WbSymbol/meta-reductions", test_meta_reductions);
  g_test_add_func ("/compiler/WbSymbol/meta-shapes", test_meta_shapes);
  g_test_add_func ("/compiler/WbSymbol/meta-split", test_meta_split);
  g_test_add_func ("/compiler/WbSymbol/meta-indexing", test_meta_indexing);
  g_test_add_func ("/compiler/WbSymbol/meta-getitem", test_meta_getitem);
  g_test_add_func ("/compiler/WbSymbol/meta-matmul", test_meta_matmul);
  g_test_add_func ("/compiler/WbSymbol/meta-nn", test_meta_nn);
  g_test_add_func ("/compiler/WbSymbol/meta-attention", test_meta_attention);
  g_test_add_func ("/compiler/WbSymbol/meta-creation", test_meta_creation);
  g_test_add_func ("/compiler/WbSymbol/meta-conversion", test_meta_conversion);
  g_test_add_func ("/compiler/WbSymbol/meta-checks", test_meta_checks);
  g_test_add_func ("/compiler/WbSymbol/meta-robust", test_meta_robust);
  g_test_add_func ("/compiler/WbSymbol/meta-spatial", test_meta_spatial);
  g_test_add_func ("/compiler/WbSymbol/meta-inplace", test_meta_inplace);
  g_test_add_func ("/compiler/WbSymbol/meta-views", test_meta_views);
  return g_test_run ();
}
