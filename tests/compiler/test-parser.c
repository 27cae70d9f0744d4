/* test-parser.c — the printed-trace parser: every statement form, the IR it builds, and its errors
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

static WbTrace *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  WbTrace *t = wb_trace_parse (text, -1, "t.py", &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
assert_parse_error (const char *text, WbTraceError code, const char *location, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = wb_trace_parse_many (text, -1, "bad.py", &error);
  g_assert_null (traces);
  g_assert_error (error, WB_TRACE_ERROR, code);
  if (!g_str_has_prefix (error->message, location))
    g_error ("expected the error at %s, got: %s", location, error->message);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("expected '%s' in: %s", fragment, error->message);
}

#define HEAD "import torch\nfrom thunder.executors.torchex import no_autocast\n\n@torch.no_grad()\n@no_autocast\n"

static void
test_parse_computation (void)
{
  g_autoptr (WbTrace) t = parse_ok (
      "# Constructed by Delete Last Used (took 3 milliseconds)\n" HEAD
      "def computation(x, y):\n"
      "  # x: \"cuda:0 f32[3, 3]\"\n"
      "  # y: \"cpu bf16[3, 3, 3]\"\n"
      "\n"
      "  # run.py:4: \tz = x + y\n"
      "  t1 = torch.add(x, y, alpha=1)  # t1: \"cuda:0 f32[3, 3, 3]\"\n"
      "    # t1 = ltorch.add(x, y, alpha=1)  # t1: \"cuda:0 f32[3, 3, 3]\"\n"
      "      # t4 = prims.broadcast_in_dim(x, (3, 3, 3), (1, 2))  # t4: \"cuda:0 f32[3, 3, 3]\"\n"
      "      # t1 = prims.add(t4, y)  # t1: \"cuda:0 f32[3, 3, 3]\"\n"
      "  del x\n"
      "  return (t1,)");
  const WbBsym *call, *sub;

  g_assert_cmpstr (t->provenance, ==, "Delete Last Used");
  g_assert_cmpfloat (t->provenance_ms, ==, 3.0);
  g_assert_cmpstr (t->function_name, ==, "computation");
  g_assert_cmpuint (t->n_params, ==, 2);
  g_assert_true (wb_value_is_name (t->params[1], "y"));
  g_assert_cmpuint (t->n_body, ==, 7);
  g_assert_cmpint (t->body[0]->kind, ==, WB_BSYM_ANNOTATION);
  g_assert_cmpstr (t->body[1]->name, ==, "y");
  g_assert_cmpint (t->body[1]->type.dtype, ==, WB_DTYPE_BFLOAT16);
  g_assert_cmpint (t->body[1]->type.device.type, ==, WB_DEVICE_CPU);
  g_assert_cmpint (t->body[2]->kind, ==, WB_BSYM_BLANK);
  g_assert_cmpint (t->body[3]->kind, ==, WB_BSYM_COMMENT);

  call = t->body[4];
  g_assert_cmpint (call->kind, ==, WB_BSYM_CALL);
  g_assert_cmpuint (call->line, ==, 12);
  g_assert_cmpuint (call->col, ==, 3);
  g_assert_cmpstr (call->name, ==, "torch.add");
  g_assert_nonnull (call->symbol);
  g_assert_cmpuint (call->n_args, ==, 2);
  g_assert_cmpuint (call->n_kwargs, ==, 1);
  g_assert_cmpstr (call->kwargs[0].name, ==, "alpha");
  g_assert_cmpint (call->kwargs[0].value->v.i, ==, 1);
  g_assert_true (call->has_type);
  g_assert_cmpuint (call->type.rank, ==, 3);
  g_assert_cmpint (call->type.shape[2], ==, 3);
  g_assert_cmpuint (call->n_subsymbols, ==, 1);
  sub = call->subsymbols[0];
  g_assert_cmpuint (sub->depth, ==, 1);
  g_assert_cmpuint (sub->col, ==, 7);
  g_assert_cmpuint (sub->n_subsymbols, ==, 2);
  g_assert_cmpstr (sub->subsymbols[0]->name, ==, "prims.broadcast_in_dim");
  g_assert_cmpint (sub->subsymbols[0]->args[1]->kind, ==, WB_VALUE_TUPLE);
  g_assert_cmpuint (sub->subsymbols[0]->args[1]->n_items, ==, 3);
  g_assert_cmpint (t->body[5]->kind, ==, WB_BSYM_DEL);
  g_assert_cmpint (t->body[6]->kind, ==, WB_BSYM_RETURN);
  g_assert_false (t->ends_with_newline);
  g_assert_cmpuint (wb_trace_count_bsyms (t), ==, 1);
}

static void
test_parse_statement_forms (void)
{
  g_autoptr (WbTrace) t = parse_ok (
      HEAD "def backward_fn(saved_for_backward, cotangents):\n"
           "  C0, C1, = saved_for_backward\n"
           "  # C0: \"Collection\"\n"
           "  # C1 (empty sequence)\n"
           "  t_a, t_b, \\\n"
           "  t_c, = C0\n"
           "  (vals, _, inds) = ltorch.topk(t_a, 8, -1, True, True)\n"
           "  [t5, t6] = TorchCompile0(t_a, t_b)\n"
           "    # t5 = prims.neg(t_a)  # t5: \"cuda:0 f32[]\"\n"
           "    # t6 = prims.mul(t5, -float('inf'))  # t6: \"cuda:0 f32[]\"\n"
           "  t7 = ltorch.getitem(t5, (..., slice(None,64,None)))  # t7: \"cuda:0 f32[]\"\n"
           "  x: \"cuda:0 f32[32, 128]\" = args[0]\n"
           "  f8: \"float 1e-05\" = m1.eps\n"
           "  clear_mutable_collection(C0)\n"
           "  return {'output': (t5,), 'flat_args': [t_a, None]}, ((t6,), ())\n");
  const WbBsym *b;

  b = t->body[0];
  g_assert_cmpint (b->kind, ==, WB_BSYM_UNPACK);
  g_assert_cmpuint (b->outputs->n_items, ==, 2);
  g_assert_true (b->outputs->flags & WB_VALUE_FLAG_TRAILING_COMMA);
  g_assert_cmpint (t->body[1]->kind, ==, WB_BSYM_ANNOTATION);
  g_assert_cmpint (t->body[1]->type.kind, ==, WB_TYPE_COLLECTION);
  g_assert_cmpint (t->body[2]->kind, ==, WB_BSYM_COMMENT);
  g_assert_cmpstr (t->body[2]->comment, ==, " C1 (empty sequence)");

  b = t->body[3]; /* continued unpack */
  g_assert_cmpint (b->kind, ==, WB_BSYM_UNPACK);
  g_assert_cmpuint (b->outputs->n_items, ==, 3);
  g_assert_nonnull (b->outputs->breaks);
  g_assert_cmpint (b->outputs->breaks[1], ==, 1);
  g_assert_cmpint (b->outputs->breaks[0], ==, 0);

  b = t->body[4];
  g_assert_cmpint (b->kind, ==, WB_BSYM_CALL);
  g_assert_cmpint (b->outputs->kind, ==, WB_VALUE_TUPLE);
  g_assert_true (wb_value_is_name (b->outputs->items[1], "_"));
  g_assert_cmpint (b->args[2]->v.i, ==, -1);

  b = t->body[5];
  g_assert_true (wb_bsym_is_fusion (b));
  g_assert_cmpint (b->outputs->kind, ==, WB_VALUE_LIST);
  g_assert_cmpuint (b->n_subsymbols, ==, 2);
  g_assert_cmpint (b->subsymbols[1]->args[1]->kind, ==, WB_VALUE_FLOAT);
  g_assert_true (b->subsymbols[1]->args[1]->v.f < 0 && !isfinite (b->subsymbols[1]->args[1]->v.f));
  g_assert_cmpuint (b->subsymbols[0]->type.rank, ==, 0);

  b = t->body[6];
  g_assert_cmpint (b->args[1]->items[1]->kind, ==, WB_VALUE_SLICE);

  b = t->body[7];
  g_assert_cmpint (b->kind, ==, WB_BSYM_ASSIGN);
  g_assert_cmpstr (b->name, ==, "x");
  g_assert_cmpint (b->value->kind, ==, WB_VALUE_SUBSCRIPT);
  g_assert_cmpint (t->body[8]->type.kind, ==, WB_TYPE_FLOAT);
  g_assert_cmpfloat (t->body[8]->type.float_value, ==, 1e-05);
  g_assert_cmpint (t->body[9]->kind, ==, WB_BSYM_CALL);
  g_assert_null (t->body[9]->outputs);
  g_assert_cmpint (t->body[10]->value->kind, ==, WB_VALUE_TUPLE);
  g_assert_true (t->ends_with_newline);
}

static void
test_parse_old_format (void)
{
  /* Older Thunder output: @no_autocast() with parentheses, trailing spaces after type comments,
   * no type comments at all, augmented_forward_fn(*args), clear_collection. */
  const char *text =
      "import torch\nfrom thunder.executors.torchex import no_autocast\n\n@torch.no_grad()\n@no_autocast()\n"
      "def augmented_forward_fn(*args):\n"
      "  # args: \"Collection\" \n"
      "  t0, \\\n"
      "  t1, \\\n"
      "  = args\n"
      "  t2 = ltorch.add(t0, t1)  # t2 \n"
      "  clear_collection(args)\n"
      "  return t2\n";
  g_autoptr (WbTrace) t = parse_ok (text);
  g_autofree char *printed = wb_trace_to_string (t);
  g_assert_cmpstr (printed, ==, text);
  g_assert_cmpint (t->params[0]->kind, ==, WB_VALUE_STAR);
  g_assert_cmpstr (t->body[0]->trailing, ==, " ");
  g_assert_cmpint (t->body[1]->kind, ==, WB_BSYM_UNPACK);
  g_assert_false (t->body[2]->has_type);
  g_assert_cmpstr (t->body[2]->comment, ==, "  # t2");
}

static void
test_dtypes_and_types (void)
{
  static const char *shortnames[] = { "b8", "ui8", "i8", "i16", "i32", "i64", "bf16", "f16", "f32", "f64",
                                      "f8_e4m3fn", "f8_e4m3fnuz", "f8_e5m2", "f8_e5m2fnuz", "f8_e8m0fnu",
                                      "f4_e2m1fn_x2", "c32", "c64", "c128", "ui64" };
  WbType             ty;
  gsize              err;
  for (guint i = 0; i < G_N_ELEMENTS (shortnames); i++)
    {
      g_autofree char *s = g_strdup_printf ("cuda:1 %s[2, 0]", shortnames[i]);
      g_autofree char *back = NULL;
      g_assert_true (wb_type_parse (s, strlen (s), &ty, &err));
      g_assert_cmpint (ty.dtype, !=, WB_DTYPE_UNKNOWN);
      g_assert_cmpstr (wb_dtype_shortname (ty.dtype), ==, shortnames[i]);
      g_assert_cmpint (ty.device.index, ==, 1);
      back = wb_type_to_string (&ty);
      g_assert_cmpstr (back, ==, s);
    }
  g_assert_false (wb_type_parse ("cuda:0 f31[2]", 13, &ty, &err));
  g_assert_cmpuint (err, ==, 7);
  g_assert_true (wb_type_parse ("int ?", 5, &ty, &err));
  g_assert_false (ty.has_value);
  g_assert_true (wb_type_parse ("<class 'torch.dtype'>", 21, &ty, &err));
  g_assert_cmpint (ty.kind, ==, WB_TYPE_OTHER);
  g_assert_cmpint (wb_dtype_promote (WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16), ==, WB_DTYPE_FLOAT32);
  g_assert_cmpint (wb_dtype_promote (WB_DTYPE_INT64, WB_DTYPE_BFLOAT16), ==, WB_DTYPE_BFLOAT16);
  g_assert_cmpint (wb_dtype_promote (WB_DTYPE_UINT8, WB_DTYPE_INT8), ==, WB_DTYPE_INT16);
}

static void
test_value_helpers (void)
{
  g_autoptr (WbTrace) t = parse_ok (
      HEAD "def computation(a):\n"
           "  t0 = prims.convert_element_type(a, dtypes.float32_)  # t0: \"cuda:0 f32[]\"\n"
           "  t1 = prims.full((2, 3), 0.0, device=devices.Device(\"cuda:0\"), dtype=torch.bfloat16)  # t1: \"cuda:0 bf16[2, 3]\"\n"
           "  return t1\n");
  WbDtype  dt;
  gboolean weak;
  WbDevice dev;
  gint64   shape[4];
  guint    n;
  g_assert_true (wb_value_get_dtype (t->body[0]->args[1], &dt, &weak));
  g_assert_cmpint (dt, ==, WB_DTYPE_FLOAT32);
  g_assert_true (weak);
  g_assert_true (wb_value_get_device (t->body[1]->kwargs[0].value, &dev));
  g_assert_cmpint (dev.type, ==, WB_DEVICE_CUDA);
  g_assert_true (wb_value_get_dtype (t->body[1]->kwargs[1].value, &dt, &weak));
  g_assert_cmpint (dt, ==, WB_DTYPE_BFLOAT16);
  g_assert_false (weak);
  g_assert_true (wb_value_get_int_sequence (t->body[1]->args[0], shape, 4, &n, FALSE));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (shape[1], ==, 3);
}

static void
test_errors (void)
{
  assert_parse_error ("", WB_TRACE_ERROR_EMPTY, "bad.py:1:1: ", "no trace");
  assert_parse_error ("\n\n", WB_TRACE_ERROR_EMPTY, "bad.py:", "no trace");
  assert_parse_error (HEAD "def f(x):\n  t0 = prims.neg(x  # t0: \"cuda:0 f32[2]\"\n",
                      WB_TRACE_ERROR_SYNTAX, "bad.py:7:", "expected");
  /* an unknown dtype, a rank beyond the IR: kept as text (test-open-world.c), not errors */
  assert_parse_error (HEAD "def f(x):\n   t0 = prims.neg(x)\n", WB_TRACE_ERROR_SYNTAX, "bad.py:7:4: ", "indentation");
  assert_parse_error (HEAD "def f(x):\n  t0 = prims.neg(x)\n      # t1 = prims.neg(x)\n",
                      WB_TRACE_ERROR_SYNTAX, "bad.py:8:7: ", "subsymbol");
  assert_parse_error (HEAD "def f(x):\n  t0 = prims.neg('x)\n", WB_TRACE_ERROR_SYNTAX, "bad.py:7:18: ", "unterminated string");
  assert_parse_error (HEAD "def f(x):\n  t0 = prims.neg(x) + 1\n", WB_TRACE_ERROR_SYNTAX, "bad.py:7:21: ", NULL);
  assert_parse_error (HEAD "def f(x:\n  return x\n", WB_TRACE_ERROR_SYNTAX, "bad.py:6:", NULL);
  assert_parse_error ("import torch\n@torch.no_grad()\n", WB_TRACE_ERROR_SYNTAX, "bad.py:2:1: ", "expected 'def'");
  assert_parse_error ("import torch\nx = 1\n", WB_TRACE_ERROR_SYNTAX, "bad.py:2:1: ", NULL);
  assert_parse_error (HEAD "def f(x):\n  a, \\\n  b, = x \\\n", WB_TRACE_ERROR_SYNTAX, "bad.py:", NULL);
  assert_parse_error (HEAD "def f(x):\n  # \xff\xfe\n", WB_TRACE_ERROR_SYNTAX, "bad.py:7:", "UTF-8");
  {
    /* deep nesting must be an error, not a stack overflow */
    GString *s = g_string_new (HEAD "def f(x):\n  t0 = prims.neg(");
    for (int i = 0; i < 100000; i++)
      g_string_append_c (s, '(');
    assert_parse_error (s->str, WB_TRACE_ERROR_UNSUPPORTED, "bad.py:7:", "nested");
    g_string_free (s, TRUE);
  }
}

static void
test_trace_set_directory (void)
{
  g_autofree char *dir = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = wb_trace_set_load (dir, &error);
  guint               n_fw = 0, n_stage = 0, n_default = 0;
  const WbTraceEntry *first;
  g_assert_no_error (error);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      if (*e->subset == '\0' && e->kind == WB_TRACE_KIND_FORWARD)
        n_fw++;
      if (*e->subset == '\0' && e->kind == WB_TRACE_KIND_STAGE)
        n_stage++;
      if (g_strcmp0 (e->subset, "default_execs") == 0)
        n_default++;
    }
  g_assert_cmpuint (n_fw, ==, 7);
  g_assert_cmpuint (n_stage, ==, 19);
  g_assert_cmpuint (n_default, >, 0);
  first = wb_trace_set_get_entry (set, 0);
  g_assert_cmpint (first->kind, ==, WB_TRACE_KIND_PROLOGUE);
  g_assert_cmpint (first->index, ==, 0);
  g_assert_cmpint (wb_trace_set_get_entry (set, 2)->kind, ==, WB_TRACE_KIND_FORWARD);
  g_assert_cmpstr (wb_trace_set_get_entry (set, 8)->trace->provenance, ==, "Delete Last Used");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbTrace/parse/computation", test_parse_computation);
  g_test_add_func ("/compiler/WbTrace/parse/statement-forms", test_parse_statement_forms);
  g_test_add_func ("/compiler/WbTrace/parse/old-format", test_parse_old_format);
  g_test_add_func ("/compiler/WbTrace/parse/errors", test_errors);
  g_test_add_func ("/compiler/WbType/dtypes", test_dtypes_and_types);
  g_test_add_func ("/compiler/WbValue/helpers", test_value_helpers);
  g_test_add_func ("/compiler/WbTraceSet/directory", test_trace_set_directory);
  return g_test_run ();
}
