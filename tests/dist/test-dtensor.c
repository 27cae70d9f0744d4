/* test-dtensor.c — DTensor traces (Thunder's tensor parallelism through ThunderFX): the type, the metas of
 * dtensor_from_local / dtensor_to_local / dtensor_redistribute, and what a redistribute lowers to, checked
 * against PyTorch (suite compiler; the run on the cpu executor in suite executors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The traces are the zoo's tp_mlp_thunder_main_w2 (two ranks, six ThunderFX subgraphs each), unpacked into
 * BUILD/tests/zoo/zoo. What torch does for each pair of placements is tests/compiler/dtensor-redistribute.tsv,
 * written by tests/compiler/dtensor-redistribute-torch.py from torch 2.11's own DTensor.redistribute
 * (torch/distributed/tensor/_redistribute.py) on a fake process group of two ranks. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-executors.h"

#define CASE "tp_mlp_thunder_main_w2"

static char *
case_dir (void)
{
  const char *root = g_getenv ("WB_BUILD_ROOT");
  char       *dir = root ? g_build_filename (root, "tests", "zoo", "zoo", CASE, NULL) : NULL;

  if (dir != NULL && !g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&dir, g_free);
  if (dir == NULL)
    g_test_skip ("the zoo is not unpacked (WB_BUILD_ROOT/tests/zoo/zoo/" CASE ")");
  return dir;
}

/* The subgraph folders of rank folder @rank, sorted. */
static GPtrArray *
subgraphs (const char *rank)
{
  GPtrArray  *out = g_ptr_array_new_with_free_func (g_free);
  GDir       *d = g_dir_open (rank, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "thunderfx_"))
      g_ptr_array_add (out, g_build_filename (rank, name, NULL));
  g_dir_close (d);
  g_ptr_array_sort (out, (GCompareFunc) g_strcmp0);
  return out;
}

/* ---- the type ------------------------------------------------------------------------------------ */

static void
parse_ok (const char *text, WbType *t)
{
  g_autofree char *back = NULL;

  g_assert_true (wb_type_parse (text, strlen (text), t, NULL));
  g_assert_cmpint (t->kind, ==, WB_TYPE_DTENSOR);
  back = wb_type_to_string (t);
  g_assert_cmpstr (back, ==, text);
}

static void
test_type (void)
{
  WbType t, local;
  gint64 coord[WB_MAX_MESH_RANK];

  parse_ok ("DTensor cuda:1 f32[4, 16, 64] mesh=DeviceMesh((2,), 'cuda', stride=(1,)), placements=(Partial(sum),)", &t);
  g_assert_cmpuint (t.dtensor.mesh_rank, ==, 1);
  g_assert_cmpint (t.dtensor.mesh_shape[0], ==, 2);
  g_assert_cmpint (t.dtensor.placements[0].kind, ==, WB_PLACEMENT_PARTIAL);
  g_assert_cmpint (t.dtensor.placements[0].op, ==, WB_PARTIAL_SUM);
  g_assert_cmpint (t.device.index, ==, 1);
  parse_ok ("DTensor cuda:0 bf16[4, 6] mesh=DeviceMesh((dp=2, tp=3), 'cuda', stride=(3, 1)), placements=(Shard(dim=0), Partial(avg))", &t);
  g_assert_cmpuint (t.dtensor.mesh_rank, ==, 2);
  g_assert_cmpint (t.dtensor.mesh_shape[1], ==, 3);
  g_assert_cmpint (t.dtensor.placements[1].op, ==, WB_PARTIAL_AVG);
  parse_ok ("DTensor cpu f32[5, 7] mesh=DeviceMesh((2, 3), 'cpu', stride=(3, 1)), placements=(Shard(dim=0), Shard(dim=1))", &t);
  /* global rank 4 is (1, 1) in a 2x3 mesh; torch.chunk(5, 2) = 3, 2 and torch.chunk(7, 3) = 3, 3, 1 */
  wb_type_dtensor_mesh_coord (&t, 4, coord);
  g_assert_cmpint (coord[0], ==, 1);
  g_assert_cmpint (coord[1], ==, 1);
  g_assert_true (wb_type_dtensor_local (&t, coord, &local));
  g_assert_cmpint (local.kind, ==, WB_TYPE_TENSOR);
  g_assert_cmpint (local.shape[0], ==, 2);
  g_assert_cmpint (local.shape[1], ==, 3);
  coord[1] = 2;
  wb_type_dtensor_local (&t, coord, &local);
  g_assert_cmpint (local.shape[1], ==, 1);
  parse_ok ("DTensor cuda:0 f32[8] mesh=DeviceMesh((4,), 'cuda', stride=(1,)), placements=(Replicate(),)", &t);
  for (guint i = 0; i < 5; i++)
    {
      static const char *const ops[] = { "sum", "avg", "max", "min", "product" };
      g_autofree char         *s = g_strdup_printf ("DTensor cpu f32[8] mesh=DeviceMesh((4,), 'cpu', stride=(1,)), placements=(Partial(%s),)", ops[i]);
      parse_ok (s, &t);
      g_assert_cmpint (t.dtensor.placements[0].op, ==, (int) i + 1);
    }
  /* what the workbench does not model is not a DTensor type (the trace parser keeps it verbatim) */
  {
    static const char *const bad[] = {
      "DTensor cpu f32[8] mesh=DeviceMesh((4,), 'cpu', stride=(1,)), placements=(_StridedShard(dim=0, sf=2),)",
      "DTensor cpu f32[8] mesh=DeviceMesh((4,), 'cpu', stride=(1,)), placements=(Shard(dim=1),)",
      "DTensor cpu f32[8] mesh=DeviceMesh((4,), 'cpu', stride=(1,)), placements=(Replicate(), Replicate())",
      "DTensor cpu f32[8] placements=(Replicate(),)",
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      g_assert_false (wb_type_parse (bad[i], strlen (bad[i]), &t, NULL));
  }
}

/* ---- what torch does per pair of placements -------------------------------------------------------- */

/* tests/compiler/dtensor-redistribute.tsv: "src\tdst\twhat" -> what. */
static GHashTable *
torch_table (void)
{
  const char      *src = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *path = g_build_filename (src ? src : ".", "tests", "compiler", "dtensor-redistribute.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;
      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", 3);
      g_assert_cmpuint (g_strv_length (f), ==, 3);
      g_hash_table_insert (table, g_strdup_printf ("%s\t%s", f[0], f[1]), g_strdup (f[2]));
    }
  return table;
}

/* What wb_dtensor_redistribute_plan makes of @src -> @dst, in the table's words. */
static char *
plan_text (const WbType *src, const WbType *dst)
{
  WbDtensorStep steps[WB_MAX_MESH_RANK];
  guint         n = 0;
  GString      *s = g_string_new (NULL);

  if (!wb_dtensor_redistribute_plan (src, dst, steps, &n, NULL))
    g_string_append (s, "error");
  else if (n == 0)
    g_string_append (s, "none");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *one = wb_dtensor_step_to_string (&steps[i]);
      g_string_append_printf (s, "%s%s", i ? "," : "", one);
    }
  return g_string_free (s, FALSE);
}

static void
test_torch_pairs (void)
{
  g_autoptr (GHashTable) table = torch_table ();
  GHashTableIter it;
  gpointer       key, value;
  guint          n = 0;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      g_auto (GStrv) pl = g_strsplit (key, "\t", 2);
      g_autofree char *a = g_strdup_printf ("DTensor cpu f32[4, 16, 256] mesh=DeviceMesh((2,), 'cpu', stride=(1,)), placements=(%s,)", pl[0]);
      g_autofree char *b = g_strdup_printf ("DTensor cpu f32[4, 16, 256] mesh=DeviceMesh((2,), 'cpu', stride=(1,)), placements=(%s,)", pl[1]);
      g_autofree char *got = NULL;
      WbType           src, dst;

      g_assert_true (wb_type_parse (a, strlen (a), &src, NULL));
      g_assert_true (wb_type_parse (b, strlen (b), &dst, NULL));
      got = plan_text (&src, &dst);
      if (strcmp (got, value) != 0)
        g_error ("%s -> %s: the workbench does %s, torch %s", pl[0], pl[1], got, (const char *) value);
      n++;
    }
  g_assert_cmpuint (n, ==, 64);
}

/* ---- the zoo's traces ------------------------------------------------------------------------------ */

static gboolean
lookup (const char *name, WbType *out, gpointer data)
{
  const WbType *t = g_hash_table_lookup (data, name);
  if (t == NULL)
    return FALSE;
  *out = *t;
  return TRUE;
}

static void
collect_annotations (GHashTable *types, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->has_type && b->kind == WB_BSYM_ANNOTATION && b->name != NULL)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
      else if (b->has_type && b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
        g_hash_table_insert (types, (gpointer) b->outputs->text, (gpointer) &b->type);
      collect_annotations (types, b->subsymbols, b->n_subsymbols);
    }
}

typedef struct
{
  GHashTable *types;   /* name -> annotated WbType */
  GHashTable *globals; /* wb_dtensor_globals_new */
  GHashTable *torch;   /* torch_table */
  guint       calls[3], lowered[2];
} Walk;

static gboolean
walk_lookup (const char *name, WbType *out, gpointer data)
{
  Walk *w = data;
  return lookup (name, out, w->types) || lookup (name, out, w->globals);
}

static void
check_calls (Walk *w, const WbTrace *t, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym   *b = body[i];
      const WbSymbol *base = b->kind == WB_BSYM_CALL ? b->symbol : NULL;
      int             k;

      while (base != NULL && wb_symbol_get_like (base) != NULL)
        base = wb_symbol_get_like (base);
      k = base == NULL || wb_symbol_is_opaque (base)                  ? -1
          : wb_symbol_get_id (base) == WB_SYMBOL_DTENSOR_FROM_LOCAL   ? 0
          : wb_symbol_get_id (base) == WB_SYMBOL_DTENSOR_TO_LOCAL     ? 1
          : wb_symbol_get_id (base) == WB_SYMBOL_DTENSOR_REDISTRIBUTE ? 2
                                                                      : -1;
      if (k >= 0)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (GArray) outs = g_array_new (FALSE, TRUE, sizeof (WbType));
          g_autofree char *want = NULL, *got = NULL;

          /* the meta types it as Thunder annotated it */
          g_assert_true (b->has_type);
          if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, walk_lookup, w, outs, &error))
            g_error ("%s:%u: %s: %s", t->filename, b->line, b->name, error->message);
          g_assert_cmpuint (outs->len, ==, 1);
          want = wb_type_to_string (&b->type);
          got = wb_type_to_string (&g_array_index (outs, WbType, 0));
          if (!wb_type_equal (&b->type, &g_array_index (outs, WbType, 0)))
            g_error ("%s:%u: %s: annotated %s, the meta gives %s", t->filename, b->line, b->name, want, got);
          g_assert_cmpint (b->type.kind, ==, k == 1 ? WB_TYPE_TENSOR : WB_TYPE_DTENSOR);
          w->calls[k]++;
        }
      if (k == 2)
        {
          /* the collective it lowers to is what torch does for the same placements */
          WbType src;
          g_autoptr (GString) a = g_string_new (NULL);
          g_autoptr (GString) d = g_string_new (NULL);
          g_autofree char *key = NULL, *got = NULL;
          const char      *want;

          g_assert_true (b->args[0]->kind == WB_VALUE_NAME && lookup (b->args[0]->text, &src, w->types));
          g_assert_cmpuint (src.dtensor.mesh_rank, ==, 1);
          wb_placement_append (&src.dtensor.placements[0], a);
          wb_placement_append (&b->type.dtensor.placements[0], d);
          key = g_strdup_printf ("%s\t%s", a->str, d->str);
          want = g_hash_table_lookup (w->torch, key);
          g_assert_nonnull (want);
          got = plan_text (&src, &b->type);
          if (strcmp (got, want) != 0)
            g_error ("%s:%u: %s -> %s: the workbench does %s, torch %s", t->filename, b->line, a->str, d->str, got, want);
          w->lowered[strcmp (got, "none") == 0 ? 0 : 1]++;
          if (strcmp (a->str, "Partial(sum)") == 0)
            g_assert_cmpstr (got, ==, "all_reduce(sum)");
        }
      check_calls (w, t, b->subsymbols, b->n_subsymbols);
    }
}

static void
test_zoo_traces (void)
{
  g_autofree char *dir = case_dir ();
  g_auto (GStrv) ranks = NULL;
  g_autoptr (GHashTable) torch = NULL;
  guint totals[3] = { 0 }, lowered[2] = { 0 }, n_sets = 0;

  if (dir == NULL)
    return;
  torch = torch_table ();
  ranks = wb_case_dir_list_ranks (dir, NULL);
  g_assert_nonnull (ranks);
  g_assert_cmpuint (g_strv_length (ranks), ==, 2);
  for (guint r = 0; ranks[r] != NULL; r++)
    {
      g_autoptr (GPtrArray) graphs = subgraphs (ranks[r]);

      g_assert_cmpuint (graphs->len, ==, 6);
      for (guint g = 0; g < graphs->len; g++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (WbTraceSet) set = wb_trace_set_load (graphs->pdata[g], &error);

          g_assert_no_error (error);
          g_assert_cmpint (wb_trace_set_get_world_size (set), ==, 2);
          g_assert_cmpint (wb_trace_set_get_rank (set), ==, (int) r);
          g_assert_cmpuint (wb_trace_set_get_n_failures (set), ==, 0);
          n_sets++;
          for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
            {
              const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
              g_autoptr (GPtrArray) diags = wb_trace_verify_full (e->trace, WB_VERIFY_DEFAULT, NULL, NULL);
              g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
              g_autoptr (GHashTable) globals = wb_dtensor_globals_new (e->trace);
              Walk w = { types, globals, torch, { 0 }, { 0 } };

              /* no warning: every dtensor call has a meta, every DTensor annotation is understood */
              for (guint k = 0; k < diags->len; k++)
                {
                  const WbDiagnostic *d = diags->pdata[k];
                  g_autofree char    *text = wb_diagnostic_to_string (d);
                  if (d->severity == WB_DIAGNOSTIC_WARNING || d->severity == WB_DIAGNOSTIC_ERROR)
                    g_error ("%s", text);
                }
              collect_annotations (types, e->trace->body, e->trace->n_body);
              check_calls (&w, e->trace, e->trace->body, e->trace->n_body);
              for (guint k = 0; k < 3; k++)
                totals[k] += w.calls[k];
              lowered[0] += w.lowered[0];
              lowered[1] += w.lowered[1];
            }
        }
    }
  g_assert_cmpuint (n_sets, ==, 12);
  g_test_message ("typed %u from_local, %u to_local, %u redistribute; %u redistributes keep the local tensor, %u all_reduce", totals[0],
                  totals[1], totals[2], lowered[0], lowered[1]);
  g_assert_cmpuint (totals[0], >, 0);
  g_assert_cmpuint (totals[1], >, 0);
  g_assert_cmpuint (totals[2], >, 0);
  g_assert_cmpuint (lowered[0], >, 0); /* Shard(2) -> Shard(2) in GraphModule_2 and _4 */
  g_assert_cmpuint (lowered[1], >, 0); /* Partial(sum) -> Replicate in GraphModule_3 and _5 */
}

/* ---- running on the cpu executor ------------------------------------------------------------------ */

/* Subgraph 2 of each rank (redistribute Shard(2) -> Shard(2), to_local, gelu, from_local Shard(2)): the
 * DTensor input is drawn as the rank's local tensor, [4, 16, 256 / 2], and the output, a DTensor, is its
 * local tensor gelu(input) (checked with libm's erf: 0.5 x (1 + erf(x / sqrt 2))). Subgraph 3's
 * redistribute (Partial(sum) -> Replicate) needs the other rank: the cpu refuses it naming the all_reduce. */
static void
test_run_cpu (void)
{
  g_autofree char *dir = case_dir ();

  for (guint r = 0; dir != NULL && r < 2; r++)
    {
      g_autofree char *rank = g_strdup_printf ("rank%u", r);
      g_autofree char *g2 = g_build_filename (dir, rank, "thunderfx_g0_GraphModule_2", NULL);
      g_autofree char *g3 = g_build_filename (dir, rank, "thunderfx_g0_GraphModule_3", NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WbCase) c = wb_case_load (g2, &error);
      g_autoptr (WbCase) c3 = NULL;
      g_autoptr (GHashTable) inputs = NULL;
      g_autoptr (WbCaseRun) run = NULL;
      WbTensor    *in, *out;
      WbRunOptions options;
      const float *x, *y;
      double       worst = 0;

      g_assert_no_error (error);
      inputs = wb_case_make_inputs (c, NULL, 7, &error);
      g_assert_no_error (error);
      in = g_hash_table_lookup (inputs, "input.linear");
      g_assert_nonnull (in);
      g_assert_cmpuint (in->rank, ==, 3);
      g_assert_cmpint (in->shape[2], ==, 128);
      wb_run_options_init (&options);
      run = wb_case_run_stage (c, wb_case_get_default_stage (c), inputs, NULL, &options, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (run->values->len, ==, 1);
      out = ((WbRtValue *) run->values->pdata[0])->tensor;
      g_assert_cmpint (out->shape[2], ==, 128);
      x = wb_tensor_get_data (in);
      y = wb_tensor_get_data (out);
      for (gint64 i = 0; i < wb_tensor_numel (in); i++)
        worst = MAX (worst, fabs (y[i] - 0.5 * x[i] * (1.0 + erf (x[i] / sqrt (2.0)))));
      g_assert_cmpfloat (worst, <, 1e-5);

      c3 = wb_case_load (g3, &error);
      g_assert_no_error (error);
      g_clear_pointer (&inputs, g_hash_table_unref);
      inputs = wb_case_make_inputs (c3, NULL, 7, &error);
      g_assert_no_error (error);
      g_clear_pointer (&run, wb_case_run_free);
      run = wb_case_run_stage (c3, wb_case_get_default_stage (c3), inputs, NULL, &options, &error);
      g_assert_null (run);
      g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "all_reduce(sum)"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dtensor/compiler/type", test_type);
  g_test_add_func ("/dtensor/compiler/redistribute-vs-torch", test_torch_pairs);
  g_test_add_func ("/dtensor/compiler/zoo-" CASE, test_zoo_traces);
  g_test_add_func ("/dtensor/run/cpu", test_run_cpu);
  return g_test_run ();
}
