/* test-executor-claims.c — one claim rule: the planner, the runner and the app give the same answers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 42: "may executor E take this bound symbol, and why not" is answered by the executor registry
 * (compiler/wb-executor-info.*) alone. For every case of the zoo (build/tests/zoo/zoo) and of the bundled
 * traces ($WB_TRACES_DIR) this runs the planner and asks, for every (bound symbol, executor) pair the
 * planner decided on and for every executor of the registry:
 *   - the planner's claim (its remarks) against the registry's answer;
 *   - the runner's choice (wb_cuda_executors_takes, what its dispatch asks before choosing how to run;
 *     no GPU needed) against the registry's answer for a call on the GPU;
 *   - the app's drop-down source (wb_region_table_can_run, with -Dgui=true) for the planner's regions
 *     (the first MAX_REGIONS of each case) and every choice it offers, against the registry and the runner.
 * The runner's NCCL path (wb_cuda_nccl_op) must take the zoo's collectives, and only symbols of the
 * distributed category. Reasons are compared too. The runner places every tensor on its GPU, so for a trace annotated on the
 * cpu its answers are the registry's for CUDA devices; for a trace on CUDA all three agree exactly. */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"
#ifdef WB_TEST_HAVE_VIEWS
#include "wb-views.h"
#endif

typedef struct
{
  guint cases, planner, runner, app, collectives;
} Counts;

static const WbDevice gpu = { WB_DEVICE_CUDA, 0 };

static gboolean
trace_on_cuda (const WbTrace *t)
{
  for (guint i = 0; i < t->n_body; i++)
    if (t->body[i]->kind == WB_BSYM_ANNOTATION && t->body[i]->type.kind == WB_TYPE_TENSOR)
      return t->body[i]->type.device.type == WB_DEVICE_CUDA;
  return TRUE;
}

/* the stage the claim pass read (the stage before "Transform for operator executor execution") */
static const WbTrace *
claim_input (const WbPipeline *pipeline)
{
  for (guint i = 1; i < wb_pipeline_get_n_stages (pipeline); i++)
    {
      const WbStage *s = wb_pipeline_get_stage (pipeline, i);
      if (strcmp (wb_stage_get_pass (s), "Transform for operator executor execution") == 0)
        return wb_stage_get_trace (wb_pipeline_get_stage (pipeline, wb_stage_get_previous (s)));
    }
  return NULL;
}

static void
assert_same (const char *what, const WbBsym *b, const char *exec, gboolean a, const char *why_a, gboolean b_ok, const char *why_b)
{
  if (a != b_ok || (!a && g_strcmp0 (why_a, why_b) != 0))
    g_error ("%s: %s on %s: %s (%s) vs %s (%s)", what, exec, b->name, a ? "yes" : "no", why_a ? why_a : "",
             b_ok ? "yes" : "no", why_b ? why_b : "");
}

/* The planner's remarks and the runner's answers for every bound symbol the planner decided on. */
static void
check_bsyms (const WbPipeline *pipeline, Counts *n)
{
  const WbTrace *in = claim_input (pipeline);
  GPtrArray     *remarks = wb_pipeline_get_remarks (pipeline);
  g_autoptr (GHashTable) types = wb_executor_info_types_new (in);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_auto (GStrv) runnable = wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE);
  gboolean on_cuda = trace_on_cuda (in);

  g_assert_nonnull (in);
  wb_cuda_executors_set_program (in, NULL);
  for (guint i = 0; i < remarks->len; i++)
    {
      const WbRemark       *r = remarks->pdata[i];
      const WbExecutorInfo *info = wb_executor_info_lookup (r->executor);
      g_autofree char      *why = NULL;
      gboolean              ok;

      if (info == NULL) /* "-": decomposed or kept unclaimed, no executor asked */
        continue;
      ok = wb_executor_info_can_take (info, r->bsym, wb_executor_info_types_lookup, types, &why);
      assert_same ("planner vs registry", r->bsym, r->executor, r->accepted, r->accepted ? NULL : r->reason, ok, why);
      n->planner++;
      if (!g_hash_table_add (seen, (gpointer) r->bsym))
        continue;
      /* the runner's NCCL path takes a collective by its symbol table row: only the distributed category */
      if (wb_cuda_nccl_op (r->bsym) != WB_CUDA_NCCL_NONE)
        {
          const WbSymbol *like = wb_symbol_get_like (r->bsym->symbol);

          g_assert_cmpint (wb_symbol_get_category (like != NULL ? like : r->bsym->symbol), ==, WB_SYMBOL_CATEGORY_DISTRIBUTED);
          n->collectives++;
        }
      for (guint e = 0; runnable[e] != NULL; e++)
        {
          const WbExecutorInfo *ex = wb_executor_info_lookup (runnable[e]);
          g_autofree char      *why_runner = NULL, *why_reg = NULL;
          gboolean              runner = wb_cuda_executors_takes (runnable[e], r->bsym, &why_runner);
          gboolean              reg = on_cuda ? wb_executor_info_can_run (ex, r->bsym, wb_executor_info_types_lookup, types, &why_reg)
                                              : wb_executor_info_can_run_on (ex, r->bsym, &gpu, wb_executor_info_types_lookup, types, &why_reg);

          assert_same ("runner vs registry", r->bsym, runnable[e], runner, why_runner, reg, why_reg);
          n->runner++;
        }
    }
}

#ifdef WB_TEST_HAVE_VIEWS
/* The app's drop-down for every choice of a case's first MAX_REGIONS regions (each drop-down answer reads
 * every stage holding the region: all regions of the 32-layer models would take minutes), against the
 * registry and the runner. */
#define MAX_REGIONS 16

static void
check_regions (const WbPipeline *pipeline, Counts *n)
{
  GPtrArray *regions = wb_pipeline_get_regions (pipeline);

  for (guint i = 0; i < regions->len && i < MAX_REGIONS; i++)
    {
      const WbRegion *region = regions->pdata[i];
      g_autoptr (GHashTable) types = wb_executor_info_types_new (NULL);
      const WbTrace *final = NULL;

      for (guint s = 0; s < wb_pipeline_get_n_stages (pipeline); s++)
        {
          WbTrace *t = wb_stage_get_trace (wb_pipeline_get_stage (pipeline, s));
          if (wb_trace_get_bsym_line (t, region->bsym) != 0)
            {
              wb_executor_info_types_add (types, t);
              final = final ? final : t;
            }
        }
      g_assert_nonnull (final);
      wb_cuda_executors_set_program (final, NULL);
      for (const char *const *c = wb_region_table_get_choices (); *c != NULL; c++)
        {
          const WbExecutorInfo *ex = wb_executor_info_lookup (*c);
          g_autofree char      *why_app = NULL, *why_reg = NULL, *why_runner = NULL, *why_gpu = NULL;
          gboolean              app, reg, runner, reg_gpu;

          if (ex == NULL) /* unfuse */
            continue;
          g_assert_false (wb_executor_info_is_thunder (ex)); /* the app offers only what can run */
          app = wb_region_table_can_run (pipeline, region, *c, &why_app);
          reg = wb_executor_info_can_run (ex, region->bsym, wb_executor_info_types_lookup, types, &why_reg);
          assert_same ("app vs registry", region->bsym, *c, app, why_app, reg, why_reg);
          runner = wb_cuda_executors_takes (*c, region->bsym, &why_runner);
          reg_gpu = wb_executor_info_can_run_on (ex, region->bsym, &gpu, wb_executor_info_types_lookup, types, &why_gpu);
          assert_same ("runner vs registry", region->bsym, *c, runner, why_runner, reg_gpu, why_gpu);
          if (trace_on_cuda (final))
            assert_same ("app vs runner", region->bsym, *c, app, why_app, runner, why_runner);
          /* the planner fused it for its executor: the app and the runner must let that executor run it */
          if (strcmp (*c, region->executor) == 0)
            g_assert_true (app);
          n->app++;
        }
    }
}
#endif

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* a case is a folder holding trace files itself (its stages/ belong to it); others are looked into */
static gboolean
holds_traces (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".py") && (g_str_has_prefix (name, "forward_") || g_str_has_prefix (name, "prologue_")))
      return TRUE;
  return FALSE;
}

static void
check_case (const char *path, Counts *n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbPipeline) pipeline = NULL;
  const WbTraceEntry *input;

  if ((set = wb_trace_set_load (path, &error)) == NULL || (input = wb_pipeline_find_input (set)) == NULL)
    {
      g_test_message ("%s: no input stage: %s", path, error ? error->message : "-");
      return;
    }
  if ((pipeline = wb_pipeline_run (input->trace, NULL, &error)) == NULL)
    {
      /* the zoo's coverage baseline records which cases fail to recompile and why */
      g_test_message ("%s: the pipeline fails: %s", path, error->message);
      return;
    }
  check_bsyms (pipeline, n);
#ifdef WB_TEST_HAVE_VIEWS
  check_regions (pipeline, n);
#endif
  n->cases++;
}

static void
check_dir (const char *root, Counts *n)
{
  g_autoptr (GDir) dir = g_dir_open (root, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (root, names->pdata[i], NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_DIR) || strcmp (names->pdata[i], "stages") == 0)
        continue;
      if (holds_traces (path))
        check_case (path, n);
      check_dir (path, n);
    }
}

static void
test_zoo (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *zoo = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", NULL);
  Counts           n = { 0 };

  if (!g_file_test (zoo, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  check_dir (zoo, &n);
  g_test_message ("zoo: %u cases, %u planner decisions, %u runner answers, %u drop-down answers, %u collectives", n.cases, n.planner,
                  n.runner, n.app, n.collectives);
  g_assert_cmpuint (n.collectives, >, 0); /* the zoo's DDP and FSDP cases */
  g_assert_cmpuint (n.cases, >=, 30);
  g_assert_cmpuint (n.planner, >, 1000);
  g_assert_cmpuint (n.runner, >, 1000);
#ifdef WB_TEST_HAVE_VIEWS
  g_assert_cmpuint (n.app, >, 100);
#endif
}

static void
test_bundled (void)
{
  const char *dir = wb_test_traces_dir ();
  Counts      n = { 0 };

  if (dir == NULL)
    {
      g_test_skip ("no bundled traces (WB_TRACES_DIR)");
      return;
    }
  check_dir (dir, &n);
  g_test_message ("bundled: %u cases, %u planner decisions, %u runner answers, %u drop-down answers", n.cases, n.planner, n.runner, n.app);
  g_assert_cmpuint (n.cases, >=, 4);
  g_assert_cmpuint (n.runner, >, 0);
}

/* The runner offers exactly the registry's runnable rows, the app the same plus "unfuse", and nothing of
 * Thunder's; the default executor on CUDA is one of them. */
static void
test_names (void)
{
  g_auto (GStrv) runnable = wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE);
  g_auto (GStrv) thunder = wb_executor_info_dup_names (WB_EXECUTOR_SET_THUNDER);

  g_assert_true (g_strv_contains ((const char *const *) runnable, wb_executor_info_get_name (wb_executor_info_get_default (TRUE))));
  g_assert_true (g_strv_contains ((const char *const *) runnable, wb_executor_info_get_name (wb_executor_info_get_default (FALSE))));
  for (guint i = 0; thunder[i] != NULL; i++)
    g_assert_false (g_strv_contains ((const char *const *) runnable, thunder[i]));
#ifdef WB_TEST_HAVE_VIEWS
  {
    const char *const *choices = wb_region_table_get_choices ();

    g_assert_cmpuint (g_strv_length ((char **) choices), ==, g_strv_length (runnable) + 1);
    for (guint i = 0; runnable[i] != NULL; i++)
      g_assert_true (g_strv_contains (choices, runnable[i]));
  }
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/executors/claims/names", test_names);
  g_test_add_func ("/executors/claims/bundled", test_bundled);
  g_test_add_func ("/executors/claims/zoo", test_zoo);
  return g_test_run ();
}
