/* test-cuda-runner.c — the GPU runner process end to end (suite gpu): the probe, `run --device cuda
 * --compare` of mlp_small and elementwise_chain_small against PyTorch's tensors.safetensors (Thunder's
 * final stages and the workbench's recomputed ones), and a planted out-of-bounds index: the kernel clamps
 * it and records it, the checked run fails naming the region and the index, the command exits 2 (bad input,
 * as on the cpu), and the next run succeeds.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Without a runner, a driver or a GPU every case is skipped (the probe of wb-runner.h). The command is
 * $WB_BUILD_ROOT/app/thunder-wb (or $WB_THUNDER_WB); traces come from $WB_TRACES_DIR. */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb-profiler.h"
#include "wb-test-common.h"

static char *thunder_wb;
static char *skip_reason;

static int
run_cli (char **out, char **err, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  va_list     ap;
  const char *a;

  g_ptr_array_add (argv, thunder_wb);
  g_ptr_array_add (argv, "--headless");
  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_newv ((const char *const *) argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_test_message ("%s\n%s", *out, *err);
  return g_subprocess_get_exit_status (p);
}

static gboolean
need_gpu (void)
{
  if (skip_reason)
    {
      g_test_skip (skip_reason);
      return FALSE;
    }
  return TRUE;
}

static void
test_compare (gconstpointer data)
{
  const char      *name = data;
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autofree char *ref = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int              rc;

  if (!need_gpu ())
    return;
  if (dir == NULL)
    {
      g_test_skip ("no traces (WB_TRACES_DIR)");
      return;
    }
  path = g_build_filename (dir, name, NULL);
  ref = g_build_filename (path, "tensors.safetensors", NULL);
  rc = run_cli (&out, &err, "run", path, "--device", "cuda", "--inputs", ref, "--compare", ref, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "all within tolerance"));
  g_assert_nonnull (strstr (out, "0 cpu fallbacks"));
}

/* The workbench's own final stages (nvrtc regions) of the case. */
static void
test_compare_recompiled (gconstpointer data)
{
  const char      *name = data;
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autofree char *ref = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *stage = NULL;
  g_auto (GStrv) lines = NULL;
  int rc;

  if (!need_gpu ())
    return;
  if (dir == NULL)
    {
      g_test_skip ("no traces (WB_TRACES_DIR)");
      return;
    }
  path = g_build_filename (dir, name, NULL);
  ref = g_build_filename (path, "tensors.safetensors", NULL);
  rc = run_cli (&out, &err, "stages", path, "--recompile", NULL);
  g_assert_cmpint (rc, ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], "workbench") && strstr (lines[i], "Delete Last Used") &&
        (strstr (lines[i], " forward ") || strstr (lines[i], " computation ")))
      {
        g_free (stage);
        stage = g_strdup_printf ("%d", atoi (lines[i]));
      }
  g_assert_nonnull (stage);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (&out, &err, "run", path, "--recompile", "--stage", stage, "--device", "cuda", "--inputs", ref, "--compare", ref, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "all within tolerance"));
  g_assert_nonnull (strstr (out, "0 cpu fallbacks"));
}

static const char index_trace[] =
    "@torch.no_grad()\n"
    "def computation(a, i):\n"
    "  # a: \"cuda:0 f32[8, 4]\"\n"
    "  # i: \"cuda:0 i64[3]\"\n"
    "  [t0] = nvrtcFusion0(a, i)\n"
    "    # t0 = prims.take(a, i, 0)  # t0: \"cuda:0 f32[3, 4]\"\n"
    "  return (t0,)\n";

static char *
write_inputs (const char *dir, const char *file, gint64 bad)
{
  g_autoptr (WbSafetensors) st = wb_safetensors_new ();
  g_autoptr (WbTensor) a = wb_tensor_new (WB_DTYPE_FLOAT32, 2, (gint64[]){ 8, 4 }, NULL);
  g_autoptr (WbTensor) i = wb_tensor_new (WB_DTYPE_INT64, 1, (gint64[]){ 3 }, NULL);
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, file, NULL);

  for (gint64 k = 0; k < 32; k++)
    wb_tensor_set_f64 (a, k, (double) k + 0.5);
  wb_tensor_set_f64 (i, 0, 1);
  wb_tensor_set_f64 (i, 1, (double) bad);
  wb_tensor_set_f64 (i, 2, 2);
  wb_safetensors_add (st, "input.a", a);
  wb_safetensors_add (st, "input.i", i);
  g_assert_true (wb_safetensors_save (st, path, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_index_out_of_range (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *good = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int              rc;

  if (!need_gpu ())
    return;
  dir = g_dir_make_tmp ("wb-index-XXXXXX", NULL);
  trace = g_build_filename (dir, "index.py", NULL);
  g_assert_true (g_file_set_contents (trace, index_trace, -1, NULL));
  bad = write_inputs (dir, "bad.safetensors", 1000000);
  good = write_inputs (dir, "good.safetensors", 7);
  rc = run_cli (&out, &err, "run", trace, "--device", "cuda", "--inputs", bad, NULL);
  g_assert_cmpint (rc, ==, 2);
  g_assert_nonnull (strstr (err, "nvrtcFusion0"));
  g_assert_nonnull (strstr (err, "index 1000000 is out of range for a dim of size 8"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (&out, &err, "run", trace, "--device", "cuda", "--inputs", good, "--compare", good, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "output.0"));
  /* and through the API, a new runner works */
  {
    g_autoptr (WbRunner) r = wb_runner_new (NULL);
    g_autoptr (GError) error = NULL;
    g_assert_nonnull (r);
    g_assert_true (wb_runner_probe (r, NULL, &error));
    g_assert_no_error (error);
  }
  g_unlink (trace);
  g_unlink (bad);
  g_unlink (good);
  g_rmdir (dir);
}

/* prims.index_copy has no GPU path (a cpu kernel only, by design of this test: if one is written, choose
 * another such op): a GPU run refuses to move it to the cpu silently, and runs it there when asked. */
static const char fallback_trace[] =
    "@torch.no_grad()\n"
    "def computation(a, i, s):\n"
    "  # a: \"cuda:0 f32[8, 4]\"\n"
    "  # i: \"cuda:0 i64[3]\"\n"
    "  # s: \"cuda:0 f32[3, 4]\"\n"
    "  t0 = prims.index_copy(a, i, s, 0)  # t0: \"cuda:0 f32[8, 4]\"\n"
    "  return (t0,)\n";

static void
test_cpu_fallback (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *inputs = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int              rc;

  if (!need_gpu ())
    return;
  dir = g_dir_make_tmp ("wb-fallback-XXXXXX", NULL);
  trace = g_build_filename (dir, "fallback.py", NULL);
  g_assert_true (g_file_set_contents (trace, fallback_trace, -1, NULL));
  {
    g_autoptr (WbSafetensors) st = wb_safetensors_new ();
    g_autoptr (WbTensor) a = wb_tensor_new (WB_DTYPE_FLOAT32, 2, (gint64[]){ 8, 4 }, NULL);
    g_autoptr (WbTensor) i = wb_tensor_new (WB_DTYPE_INT64, 1, (gint64[]){ 3 }, NULL);
    g_autoptr (WbTensor) s = wb_tensor_new (WB_DTYPE_FLOAT32, 2, (gint64[]){ 3, 4 }, NULL);
    g_autoptr (GError) error = NULL;
    for (gint64 k = 0; k < 32; k++)
      wb_tensor_set_f64 (a, k, (double) k);
    for (gint64 k = 0; k < 12; k++)
      wb_tensor_set_f64 (s, k, -1.0 - (double) k);
    wb_tensor_set_f64 (i, 0, 1);
    wb_tensor_set_f64 (i, 1, 5);
    wb_tensor_set_f64 (i, 2, 2);
    wb_safetensors_add (st, "input.a", a);
    wb_safetensors_add (st, "input.i", i);
    wb_safetensors_add (st, "input.s", s);
    inputs = g_build_filename (dir, "inputs.safetensors", NULL);
    g_assert_true (wb_safetensors_save (st, inputs, &error));
  }
  /* refused by default, naming the op and the way out */
  rc = run_cli (&out, &err, "run", trace, "--device", "cuda", "--inputs", inputs, NULL);
  g_assert_cmpint (rc, !=, 0);
  g_assert_nonnull (strstr (err, "prims.index_copy"));
  g_assert_nonnull (strstr (err, "--allow-cpu-fallback"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  /* asked for: it runs, and says so */
  rc = run_cli (&out, &err, "run", trace, "--device", "cuda", "--inputs", inputs, "--allow-cpu-fallback", NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "1 cpu fallbacks"));
  g_unlink (trace);
  g_unlink (inputs);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autoptr (WbRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;
  const char      *root = g_getenv ("WB_BUILD_ROOT");

  g_test_init (&argc, &argv, NULL);
  thunder_wb = g_strdup (g_getenv ("WB_THUNDER_WB"));
  if (thunder_wb == NULL)
    thunder_wb = g_build_filename (root ? root : ".", "app", "thunder-wb", NULL);
  if (g_getenv ("WB_RUNNER") == NULL && root != NULL)
    {
      g_autofree char *r = g_build_filename (root, "profiler", "thunder-wb-runner", NULL);
      g_setenv ("WB_RUNNER", r, TRUE);
    }
  runner = wb_runner_new (&error);
  if (runner == NULL || !wb_runner_probe (runner, &device, &error))
    skip_reason = g_strdup (error->message);
  else
    g_test_message ("runner probe: %s", device);
  g_test_add_data_func ("/cuda/runner/compare/mlp_small", "mlp_small", test_compare);
  g_test_add_data_func ("/cuda/runner/compare/elementwise_chain_small", "elementwise_chain_small", test_compare);
  g_test_add_data_func ("/cuda/runner/compare-recompiled/mlp_small", "mlp_small", test_compare_recompiled);
  g_test_add_data_func ("/cuda/runner/compare-recompiled/elementwise_chain_small", "elementwise_chain_small", test_compare_recompiled);
  g_test_add_func ("/cuda/runner/index-out-of-range", test_index_out_of_range);
  g_test_add_func ("/cuda/runner/cpu-fallback", test_cpu_fallback);
  return g_test_run ();
}
