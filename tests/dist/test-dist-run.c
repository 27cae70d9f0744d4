/* test-dist-run.c — the cpu executor on distributed traces Thunder printed (suite executors): the
 * world-size-1 DDP, ZeRO-2 and ZeRO-3 steps match Thunder's own outputs and gradients, as recorded and as
 * the workbench recompiles them; a rank of a world of 2 is refused, naming the op and its line
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-executors.h"

static char *
rank_dir (const char *name, int rank)
{
  const char      *root = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *r = g_strdup_printf ("rank%d", rank);
  char            *dir;

  if (root == NULL)
    return NULL;
  dir = g_build_filename (root, "tests", "dist", "cases", name, r, NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&dir, g_free);
  return dir;
}

/* Runs @stage of @c on the recorded inputs; every result the reference holds must be within the dtype's
 * tolerance. Returns how many were compared. */
static guint
run_and_compare (WbCase *c, const WbCaseStage *stage, WbSafetensors *ref)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) inputs = wb_case_make_inputs (c, ref, 0, &error);
  g_autoptr (WbCaseRun) run = NULL;
  WbRunOptions options;
  guint        compared = 0;

  g_assert_no_error (error);
  wb_run_options_init (&options);
  options.check_shapes = TRUE;
  run = wb_case_run_stage (c, stage, inputs, ref, &options, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < run->names->len; i++)
    {
      WbRtValue      *v = run->values->pdata[i];
      WbTensor       *want = wb_safetensors_lookup (ref, run->names->pdata[i]);
      WbCompareResult cmp;
      double          rtol, atol;

      if (want == NULL || v == NULL || v->kind != WB_RT_TENSOR)
        continue;
      wb_dtype_default_tolerance (want->dtype, &rtol, &atol);
      g_assert_true (wb_tensor_compare (v->tensor, want, rtol, atol, FALSE, &cmp, &error));
      if (cmp.mismatches > 0)
        g_error ("%s, %s: %s: %" G_GINT64_FORMAT " mismatches, max abs error %g", wb_case_get_path (c), stage->label,
                 (const char *) run->names->pdata[i], cmp.mismatches, cmp.max_abs);
      compared++;
    }
  return compared;
}

static void
test_one_rank (gconstpointer data)
{
  g_autofree char *dir = rank_dir (data, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  WbSafetensors     *ref;
  const WbCaseStage *last = NULL;
  GPtrArray         *stages;

  if (dir == NULL)
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  c = wb_case_load (dir, &error);
  g_assert_no_error (error);
  ref = wb_case_get_reference (c, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ref);
  /* Thunder's final forward and backward: output.0 and the four parameter gradients */
  g_assert_cmpuint (run_and_compare (c, wb_case_get_default_stage (c), ref), ==, 5);
  /* the workbench's own program, recompiled from the joint trace */
  g_assert_true (wb_case_add_workbench_stages (c, &error));
  g_assert_no_error (error);
  stages = wb_case_get_stages (c);
  for (guint i = 0; i < stages->len; i++)
    {
      const WbCaseStage *s = stages->pdata[i];
      if (g_str_has_prefix (s->label, "workbench/") && s->kind == WB_PROGRAM_TRAINING)
        last = s;
    }
  g_assert_nonnull (last);
  g_assert_cmpuint (run_and_compare (c, last, ref), ==, 5);
}

/* pack, unpack (with its run's bucket), pack_for_fsdp and unpack_for_fsdp as Thunder's torch executor ran
 * them: nine outputs, exact */
static void
test_bucketing (void)
{
  const char      *root = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *dir = root ? g_build_filename (root, "tests", "dist", "cases", "bucketing", NULL) : NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  WbSafetensors *ref;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  c = wb_case_load (dir, &error);
  g_assert_no_error (error);
  ref = wb_case_get_reference (c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (run_and_compare (c, wb_case_get_default_stage (c), ref), ==, 9);
}

/* A rank of a world of 2 on the cpu: WB_EXECUTOR_ERROR_UNSUPPORTED at the first collective. */
static void
test_two_ranks (gconstpointer data)
{
  g_autofree char *dir = rank_dir (data, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) run = NULL;
  WbSafetensors *ref;
  WbRunOptions   options;

  if (dir == NULL)
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  c = wb_case_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wb_trace_set_get_world_size (wb_case_get_trace_set (c)), ==, 2);
  g_assert_cmpint (wb_trace_set_get_rank (wb_case_get_trace_set (c)), ==, 1);
  ref = wb_case_get_reference (c, &error);
  inputs = wb_case_make_inputs (c, ref, 0, &error);
  g_assert_no_error (error);
  wb_run_options_init (&options);
  run = wb_case_run_stage (c, wb_case_get_default_stage (c), inputs, ref, &options, &error);
  g_assert_null (run);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, ".py:"));
  g_assert_true (strstr (error->message, ": torch_all_reduce_prim_impl: ") != NULL || strstr (error->message, ": torch_all_gather_prim_impl: ") != NULL);
  g_assert_nonnull (strstr (error->message, "over 2 ranks"));
  g_assert_nonnull (strstr (error->message, "one process per rank"));
}

int
main (int argc, char **argv)
{
  static const char *const one[] = { "ddp_ws1", "zero2_ws1", "zero3_ws1" };
  static const char *const two[] = { "ddp_ws2", "zero2_ws2", "zero3_ws2" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (one); i++)
    {
      g_autofree char *a = g_strdup_printf ("/dist/cpu/one-rank/%s", one[i]);
      g_autofree char *b = g_strdup_printf ("/dist/cpu/two-ranks-refused/%s", two[i]);
      g_test_add_data_func (a, one[i], test_one_rank);
      g_test_add_data_func (b, two[i], test_two_ranks);
    }
  g_test_add_func ("/dist/cpu/bucketing", test_bucketing);
  return g_test_run ();
}
