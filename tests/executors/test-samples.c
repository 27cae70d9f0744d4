/* test-samples.c — mlp_small and elementwise_chain_small against PyTorch's tensors (tensors.safetensors):
 * outputs and every gradient within relative error 1e-5 (f32; relative = max abs / max |reference|),
 * through the API and through `thunder-wb --headless run --inputs F --compare F`
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-test-common.h"
#include "wb-test-executors.h"

static void
run_case (gconstpointer data)
{
  const char      *name = data;
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *dir = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) run = NULL;
  WbSafetensors     *ref;
  const WbCaseStage *stage;
  WbRunOptions       options;
  guint              compared = 0;

  if (traces == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR");
      return;
    }
  dir = g_build_filename (traces, name, NULL);
  c = wb_case_load (dir, &error);
  g_assert_no_error (error);
  ref = wb_case_get_reference (c, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ref);
  stage = wb_case_get_default_stage (c);
  g_assert_nonnull (stage);
  inputs = wb_case_make_inputs (c, ref, 0, &error);
  g_assert_no_error (error);
  /* every input comes from the file */
  for (guint i = 0; i < wb_case_get_n_inputs (c); i++)
    g_assert_true (g_hash_table_lookup (inputs, wb_case_get_input (c, i)->name) ==
                   wb_safetensors_lookup (ref, wb_case_get_input (c, i)->name));
  wb_run_options_init (&options);
  options.check_shapes = TRUE;
  run = wb_case_run_stage (c, stage, inputs, ref, &options, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < run->names->len; i++)
    {
      WbRtValue      *v = run->values->pdata[i];
      WbTensor       *want = wb_safetensors_lookup (ref, run->names->pdata[i]);
      WbCompareResult r;
      g_assert_nonnull (want);
      g_assert_cmpint (v->kind, ==, WB_RT_TENSOR);
      g_assert_true (wb_tensor_compare (v->tensor, want, 1e-5, 0, FALSE, &r, &error));
      g_test_message ("%s %s: max abs %.3g, rel %.3g", name, (char *) run->names->pdata[i], r.max_abs, r.rel);
      g_assert_cmpfloat (r.rel, <=, 1e-5);
      compared++;
    }
  /* mlp_small: output + 5 gradients; elementwise_chain_small: one output */
  g_assert_cmpuint (compared, ==, strcmp (name, "mlp_small") == 0 ? 6 : 1);
}

static void
run_cli (gconstpointer data)
{
  const char      *name = data;
  const char      *traces = wb_test_traces_dir ();
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *exe = build ? g_build_filename (build, "app", "thunder-wb", NULL) : NULL;
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  if (traces == NULL || exe == NULL || !g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no WB_TRACES_DIR or thunder-wb not built");
      return;
    }
  dir = g_build_filename (traces, name, NULL);
  file = g_build_filename (dir, "tensors.safetensors", NULL);
  {
    const char *argv[] = { exe, "--headless", "run", dir, "--inputs", file, "--compare", file, "--rtol", "1e-5",
                           "--atol", "1e-5", "--check-shapes", NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  }
  g_assert_no_error (error);
  g_test_message ("%s", out);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_nonnull (strstr (out, "output.0"));
  g_assert_nonnull (strstr (out, "all within tolerance"));
  if (strcmp (name, "mlp_small") == 0)
    {
      g_assert_nonnull (strstr (out, "grad.param.0.weight"));
      g_assert_nonnull (strstr (out, "6 compared"));
    }
}

/* Seeded index inputs respect the size they index, read back through copies, where() and sums: T5's
 * bucket index is relative_buckets + where(is_small, relative_position_1, relative_position_if_large_1)
 * into a 32-row embedding, so each term is drawn below 16 and the run stays in range. */
static void
index_bounds (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "executors", "data", "t5_relative_buckets", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = wb_case_load (path, &error);
  static const char *const terms[] = { "relative_buckets", "relative_position_1", "relative_position_if_large_1" };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (terms); i++)
    {
      const WbCaseInput *in = wb_case_find_input (c, terms[i]);
      g_assert_nonnull (in);
      g_assert_cmpint (in->index_bound, ==, 16);
    }
  g_assert_cmpint (wb_case_find_input (c, "is_small")->index_bound, ==, 0);

  /* a getitem key of two index tensors: each bounded by the dim it indexes */
  {
    g_autofree char *gpt2 = g_test_build_filename (G_TEST_DIST, "executors", "data", "gpt2_packed_mask", NULL);
    g_autoptr (WbCase) g = wb_case_load (gpt2, &error);
    g_assert_no_error (error);
    g_assert_cmpint (wb_case_find_input (g, "batch_indices")->index_bound, ==, 2);
    /* q_indices also reaches an index through a sum elsewhere: at most 32, maybe less */
    g_assert_cmpint (wb_case_find_input (g, "q_indices")->index_bound, >, 0);
    g_assert_cmpint (wb_case_find_input (g, "q_indices")->index_bound, <=, 32);
  }
  {
    g_auto (WbTestRun) run = { 0 };
    const char *const args[] = { "--headless", "run", path, "--seed", "3", NULL };
    wb_test_run_thunder_wb (&run, NULL, args);
    if (run.status != 0)
      g_error ("run %s: exit %d\n%s", path, run.status, run.err);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/executors/samples/mlp_small", "mlp_small", run_case);
  g_test_add_data_func ("/executors/samples/elementwise_chain_small", "elementwise_chain_small", run_case);
  g_test_add_data_func ("/executors/samples/cli/mlp_small", "mlp_small", run_cli);
  g_test_add_data_func ("/executors/samples/cli/elementwise_chain_small", "elementwise_chain_small", run_cli);
  g_test_add_func ("/executors/samples/index-bounds", index_bounds);
  return g_test_run ();
}
