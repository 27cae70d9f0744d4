/* test-cost.c — the static cost model: the rule table, bytes and FLOPs of real regions and ops
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-executors.h"
#include "wb-profiler.h"
#include "wb-test-common.h"

typedef struct
{
  const char *name;
  WbCostRule  rule;
} Row;

static const Row rows[] = {
#define WB_COST(name, rule) { name, WB_COST_RULE_##rule },
#include "wb-cost.def"
#undef WB_COST
};

/* every row of wb-cost.def names a symbol of the table, and that symbol gets the row's rule */
static void
test_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const WbSymbol *s = wb_symbol_lookup (rows[i].name, strlen (rows[i].name));

      g_test_message ("%s -> %s", rows[i].name, wb_cost_rule_to_string (rows[i].rule));
      g_assert_nonnull (s);
      g_assert_cmpint (wb_cost_rule_for_symbol (s), ==, rows[i].rule);
    }
  /* aliases follow their target: torch.matmul -> ltorch.matmul */
  g_assert_cmpint (wb_cost_rule_for_symbol (wb_symbol_lookup ("torch.matmul", strlen ("torch.matmul"))), ==,
                   WB_COST_RULE_MATMUL);
  g_assert_cmpint (wb_cost_rule_for_symbol (wb_symbol_lookup ("prims.add", strlen ("prims.add"))), ==,
                   WB_COST_RULE_DEFAULT);
}

static WbTrace *
load_trace (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = wb_trace_parse_file (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (traces->len, ==, 1);
  return wb_trace_ref (traces->pdata[0]);
}

static const WbBsym *
find_call (const WbTrace *trace, const char *name)
{
  for (guint i = 0; i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && g_strcmp0 (trace->body[i]->name, name) == 0)
      return trace->body[i];
  g_assert_not_reached ();
  return NULL;
}

/* mlp_small: Linear(128, 512) -> GELU(tanh) -> Linear(512, 128) at batch 32, f32 */
static void
test_mlp_small (void)
{
  g_autofree char *fw_path = g_build_filename (wb_test_samples_dir (), "mlp_small", "forward_06.py", NULL);
  g_autofree char *bw_path = g_build_filename (wb_test_samples_dir (), "mlp_small", "backward_00.py", NULL);
  g_autoptr (WbTrace) fw = load_trace (fw_path);
  g_autoptr (WbTrace) bw = load_trace (bw_path);
  g_autoptr (WbCostModel) fm = wb_cost_model_new (fw);
  g_autoptr (WbCostModel) bm = wb_cost_model_new (bw);
  guint64 bytes = 0, flops = 0;
  WbType  t;

  wb_cost_model_count (fm, find_call (fw, "TorchCompile0"), &bytes, &flops);
  /* in: input 32x128, w0 512x128, b0 512, w2 128x512, b2 128; out: t18 32x512, t63 32x128 (f32) */
  g_assert_cmpuint (bytes, ==, 4 * (32 * 128 + 512 * 128 + 512 + 128 * 512 + 128 + 32 * 512 + 32 * 128));
  /* two linears (2MNK + bias) and 9 elementwise ops over 32x512 */
  g_assert_cmpuint (flops, ==, (2ull * 32 * 512 * 128 + 32 * 512) + 9ull * 32 * 512 + (2ull * 32 * 128 * 512 + 32 * 128));

  g_assert_true (wb_cost_model_lookup_type (bm, "t64", &t)); /* an unpack annotation */
  g_assert_cmpint (t.rank, ==, 2);
  wb_cost_model_count (bm, find_call (bw, "TorchCompile1"), &bytes, &flops);
  g_test_message ("TorchCompile1: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " FLOPs", bytes, flops);
  /* three GEMMs of 32 x 128 x 512 at least (input grad of linear 2, both weight grads) */
  g_assert_cmpuint (flops, >=, 3ull * 2 * 32 * 128 * 512);
  g_assert_cmpuint (flops, <, 6ull * 2 * 32 * 128 * 512);
  g_assert_cmpuint (bytes, >, 0);
}

typedef void (*RegionFunc) (const WbTraceEntry *entry, WbCostModel *m, const WbBsym *b, guint64 bytes, gpointer data);

/* Calls @fn on every fusion region (a call with subsymbols) of the workbench's recomputed stages of @case_name,
 * with its bytes; FALSE (and the test skipped) without the traces. */
static gboolean
each_workbench_region (const char *case_name, RegionFunc fn, gpointer data)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  WbTraceSet *set;

  if (traces == NULL)
    {
      g_test_skip ("WB_TRACES_DIR (../shared/traces) is absent");
      return FALSE;
    }
  path = g_build_filename (traces, case_name, NULL);
  c = wb_case_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (wb_case_add_workbench_stages (c, &error));
  g_assert_no_error (error);
  set = wb_case_get_trace_set (c);
  for (guint e = 0; e < wb_trace_set_get_n_entries (set); e++)
    {
      const WbTraceEntry *entry = wb_trace_set_get_entry (set, e);
      g_autoptr (WbCostModel) m = NULL;
      if (g_strcmp0 (entry->subset, "workbench") != 0)
        continue;
      m = wb_cost_model_new (entry->trace);
      for (guint i = 0; i < entry->trace->n_body; i++)
        {
          const WbBsym *b = entry->trace->body[i];
          guint64       bytes = 0, flops = 0;
          if (b->kind != WB_BSYM_CALL || !wb_bsym_is_fusion (b) || b->outputs == NULL || b->n_subsymbols == 0)
            continue;
          wb_cost_model_count (m, b, &bytes, &flops);
          fn (entry, m, b, bytes, data);
        }
    }
  return TRUE;
}

/* Whether @b has a bf16 output of @rank and @shape (rank 2 or 3). */
static gboolean
has_output (WbCostModel *m, const WbBsym *b, guint rank, const gint64 *shape)
{
  for (guint j = 0; j < b->outputs->n_items; j++)
    {
      WbType t;
      if (b->outputs->items[j]->kind == WB_VALUE_NAME && wb_cost_model_lookup_type (m, b->outputs->items[j]->text, &t) && t.rank == rank &&
          memcmp (t.shape, shape, rank * sizeof (gint64)) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
qkv_region (const WbTraceEntry *entry, WbCostModel *m, const WbBsym *b, guint64 bytes, gpointer data)
{
  const gint64  wide[2] = { 8192, 2304 }, tall[2] = { 2304, 8192 };
  const guint64 head = 8ull * 12 * 1024 * 64 * 2, qkv = 8192ull * 2304 * 2, bias = 2304 * 2;

  if (!has_output (m, b, 2, wide) || !has_output (m, b, 2, tall))
    return;
  g_test_message ("%s %s (line %u): %" G_GUINT64_FORMAT " bytes", entry->label, b->name, b->line, bytes);
  g_assert_cmpuint (bytes, ==, 3 * head + qkv + bias);
  (*(guint *) data)++;
}

/* gpt2_block's recomputed program (the workbench's own stages): the attention backward's qkv gradient region
 * returns the gradient [8192, 2304] and, as a second output, its transpose [2304, 8192]: one tensor (the
 * transpose is a view; nvFuser and the workbench's executors return it as an alias). Its traffic is the three
 * head-major gradients [8, 12, 1024, 64] read, the qkv gradient written once and the bias gradient [2304]. */
static void
test_view_outputs (void)
{
  guint found = 0;

  if (each_workbench_region ("gpt2_block", qkv_region, &found))
    g_assert_cmpuint (found, >, 0);
}

/* Whether every subsymbol of @b is a reshape, transpose, permute, squeeze, split or view. */
static gboolean
only_views (const WbBsym *b)
{
  static const char *const views[] = { "prims.transpose", "prims.reshape", "prims.squeeze", "ltorch.split", "ltorch.reshape",
                                       "ltorch.transpose", "ltorch.permute", "ltorch.squeeze", "ltorch.view", NULL };

  for (guint i = 0; i < b->n_subsymbols; i++)
    if (b->subsymbols[i]->kind == WB_BSYM_CALL && (b->subsymbols[i]->name == NULL || !g_strv_contains (views, b->subsymbols[i]->name)))
      return FALSE;
  return TRUE;
}

typedef struct
{
  guint viewing, mixed;
} Viewed;

static void
viewing_region (const WbTraceEntry *entry, WbCostModel *m, const WbBsym *b, guint64 bytes, gpointer data)
{
  Viewed       *v = data;
  const gint64  tokens[3] = { 1, 2048, 4096 }, rows[2] = { 2048, 4096 };
  const guint64 act = 2048ull * 4096 * 2, vec = 4096 * 2;

  if (only_views (b))
    {
      g_test_message ("%s %s: views only, %" G_GUINT64_FORMAT " bytes", entry->label, b->name, bytes);
      g_assert_cmpuint (bytes, ==, 0);
      v->viewing++;
    }
  else if (b->outputs->n_items == 2 && has_output (m, b, 3, tokens) && has_output (m, b, 2, rows))
    {
      g_test_message ("%s %s: %" G_GUINT64_FORMAT " bytes", entry->label, b->name, bytes);
      g_assert_cmpuint (bytes, ==, 3 * act + 2 * vec);
      v->mixed++;
    }
}

/* llama_layer's recomputed program: arguments that a region only returns as views are no traffic. Its regions made
 * of views alone (the attention's saved inputs reshaped) count nothing; the region that computes the residual
 * [2048, 4096] from two such tensors and two [4096] vectors and returns an argument as a [1, 2048, 4096] view counts
 * those reads and its write, not the viewed argument (the code before counted it: 67 MB). That region is the
 * program without rematerialization between backward regions (WB_NO_BACKWARD_REMAT=1): with it, its reader
 * recomputes the view and the region returns the residual alone. */
static void
test_view_arguments (void)
{
  Viewed   v = { 0, 0 };
  gboolean ran;

  g_setenv ("WB_NO_BACKWARD_REMAT", "1", TRUE);
  ran = each_workbench_region ("llama_layer", viewing_region, &v);
  g_unsetenv ("WB_NO_BACKWARD_REMAT");
  if (!ran)
    return;
  g_assert_cmpuint (v.viewing, >, 0);
  g_assert_cmpuint (v.mixed, >, 0);
}

/* Whether a subsymbol of @b calls @name. */
static gboolean
has_subsymbol (const WbBsym *b, const char *name)
{
  for (guint i = 0; i < b->n_subsymbols; i++)
    if (g_strcmp0 (b->subsymbols[i]->name, name) == 0)
      return TRUE;
  return FALSE;
}

static void
split_region (const WbTraceEntry *entry, WbCostModel *m, const WbBsym *b, guint64 bytes, gpointer data)
{
  if (!has_subsymbol (b, "ltorch.split") || !only_views (b))
    return;
  g_test_message ("%s %s (line %u): split and views only, %" G_GUINT64_FORMAT " bytes", entry->label, b->name, b->line, bytes);
  g_assert_cmpuint (bytes, ==, 0);
  (*(guint *) data)++;
}

/* gpt2_block's recomputed program: the region that splits the qkv projection [8, 1024, 2304] into q, k and v
 * (ltorch.split, each piece reshaped to heads and transposed) launches no kernel: its outputs are views of its
 * argument, so it moves nothing (it counted 75.5 MB before, 1400% of the H200's copy bandwidth in 1.3 us). */
static void
test_view_split (void)
{
  guint found = 0;

  if (each_workbench_region ("gpt2_block", split_region, &found))
    g_assert_cmpuint (found, >, 0);
}

static void
rotary_region (const WbTraceEntry *entry, WbCostModel *m, const WbBsym *b, guint64 bytes, gpointer data)
{
  const gint64  heads[4] = { 1, 32, 2048, 128 };
  const guint64 qkv = 2048ull * 12288 * 2, head = 2048ull * 4096 * 2, table = 2048 * 128 * 2;

  if (!has_subsymbol (b, "ltorch.split") || only_views (b) || b->outputs->n_items != 3 || !has_output (m, b, 4, heads))
    return;
  g_test_message ("%s %s: %" G_GUINT64_FORMAT " bytes", entry->label, b->name, bytes);
  g_assert_cmpuint (bytes, ==, 2 * qkv / 3 + 2 * head + 2 * table);
  (*(guint *) data)++;
}

/* llama_layer's recomputed program: the rotary region takes the qkv projection [1, 2048, 12288] and splits it; it
 * reads q and k (two thirds), rotates them with the cos and sin tables [2048, 128] and writes them, and returns v
 * as a view of its argument: it reads and writes 64 MB, not the 101.7 MB the whole argument and three outputs
 * make. */
static void
test_view_split_reads (void)
{
  guint found = 0;

  if (each_workbench_region ("llama_layer", rotary_region, &found))
    g_assert_cmpuint (found, >, 0);
}

static void
test_elementwise_chain (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (WbTrace) fw = NULL;
  g_autoptr (WbCostModel) m = NULL;
  guint64 bytes = 0, flops = 0;

  if (traces == NULL)
    {
      g_test_skip ("WB_TRACES_DIR (../shared/traces) is absent");
      return;
    }
  path = g_build_filename (traces, "elementwise_chain_small", "forward_06.py", NULL);
  fw = load_trace (path);
  m = wb_cost_model_new (fw);
  wb_cost_model_count (m, find_call (fw, "TorchCompile0"), &bytes, &flops);
  g_assert_cmpuint (bytes, ==, 3 * 4096 * 4); /* x, y in; t5 out */
  g_assert_cmpuint (flops, ==, 6 * 4096);     /* sin, exp, mul, mul, tanh, add */
}

/* llama_layer: causal flash attention forward at B=1, H=32, T=2048, E=128; its outputs have no annotation
 * (the meta function derives them) */
static void
test_attention (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (WbTrace) fw = NULL;
  g_autoptr (WbCostModel) m = NULL;
  const char *op = "sdpafx_grad_forward_scaled_dot_product_efficient_attention";
  guint64     bytes = 0, flops = 0;
  WbType      t;

  if (traces == NULL)
    {
      g_test_skip ("WB_TRACES_DIR (../shared/traces) is absent");
      return;
    }
  path = g_build_filename (traces, "llama_layer", "forward_06.py", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("llama_layer is absent");
      return;
    }
  fw = load_trace (path);
  m = wb_cost_model_new (fw);
  wb_cost_model_count (m, find_call (fw, op), &bytes, &flops);
  /* (2 L S E + 2 L S Ev) B H, halved for is_causal=True */
  g_assert_cmpuint (flops, ==, 2ull * 32 * 2048 * 2048 * 128);
  g_assert_true (wb_cost_model_lookup_type (m, "t404", &t));
  g_assert_cmpint (t.rank, ==, 4);
  /* q, k, v and the output are bf16 [1, 32, 2048, 128]: at least those four */
  g_assert_cmpuint (bytes, >=, 4ull * 32 * 2048 * 128 * 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profiler/cost/table", test_table);
  g_test_add_func ("/profiler/cost/mlp_small", test_mlp_small);
  g_test_add_func ("/profiler/cost/elementwise_chain_small", test_elementwise_chain);
  g_test_add_func ("/profiler/cost/attention", test_attention);
  g_test_add_func ("/profiler/cost/view-outputs", test_view_outputs);
  g_test_add_func ("/profiler/cost/view-arguments", test_view_arguments);
  g_test_add_func ("/profiler/cost/view-split", test_view_split);
  g_test_add_func ("/profiler/cost/view-split-reads", test_view_split_reads);
  return g_test_run ();
}
