/* test-numerics.c — the numerics a deep real model needs from the cpu executor: inputs drawn in range,
 * the program read in f64 (the reference of f32 rounding), and the first NaN found by --detect-nan
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a real zoo case: RegNet-Y 400MF training (ThunderFX), whose squeeze-excitation gates overflowed
 * Thunder's sigmoid backward (exp(-x) * 0 = NaN) when the module state was drawn as N(0, 1) activations;
 * and ConvNeXt under FSDP (fsdp3_convnext_w1), whose recorded reference was computed with TF32. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cli-coverage.h"
#include "wb-executors.h"

#define CASE "regnet_y_400mf/thunderfx_g0_GraphModule"

static char *
case_path (void)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");
  return g_build_filename (build ? build : ".", "tests", "zoo", "zoo", CASE, NULL);
}

static WbCase *
load (void)
{
  g_autofree char *path = case_path ();
  g_autoptr (GError) error = NULL;
  WbCase *c;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return NULL;
  c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
  g_assert_no_error (error);
  return c;
}

static WbCaseRun *
run (WbCase *c, GHashTable *inputs, gboolean detect_nan, GError **error)
{
  WbRunOptions options;

  wb_run_options_init (&options);
  options.detect_nan = detect_nan;
  return wb_case_run_stage (c, wb_case_get_default_stage (c), inputs, NULL, &options, error);
}

static WbTensor *
input_named (GHashTable *inputs, const char *suffix)
{
  GHashTableIter it;
  gpointer       k, v;

  g_hash_table_iter_init (&it, inputs);
  while (g_hash_table_iter_next (&it, &k, &v))
    if (g_str_has_suffix (k, suffix))
      return v;
  g_assert_not_reached ();
}

static double
max_abs (WbTensor *t)
{
  g_autoptr (WbTensor) d = wb_tensor_to_dtype (t, WB_DTYPE_FLOAT64, NULL);
  double m = 0;

  for (gint64 i = 0; i < wb_tensor_numel (d); i++)
    m = MAX (m, fabs (((double *) wb_tensor_get_data (d))[i]));
  return m;
}

/* Module state is drawn as the model initialises it, and the training step has no NaN. */
static void
test_draw_in_range (void)
{
  g_autoptr (WbCase) c = load ();
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) r = NULL;
  g_autoptr (GError) error = NULL;
  WbTensor *w, *var;

  if (c == NULL)
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  inputs = wb_case_make_inputs (c, NULL, 0, &error);
  g_assert_no_error (error);
  w = input_named (inputs, "stem_modules_0_parameters_weight_"); /* conv [32, 3, 3, 3]: fan_in 27 */
  g_assert_cmpuint (w->rank, ==, 4);
  g_assert_cmpfloat (max_abs (w), <=, 1.0 / sqrt (27.0));
  var = input_named (inputs, "stem_modules_1_buffers_running_var_");
  g_assert_cmpfloat (max_abs (var), <, 1.5);
  r = run (c, inputs, TRUE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
}

/* The f64 reading runs the same program in double precision: every f32 result comes back f64, close
 * to the f32 one but not equal to it (so it was computed in f64, convolutions included). */
static void
test_f64_reading (void)
{
  g_autoptr (WbCase) c = load ();
  g_autofree char *path = case_path ();
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) r = NULL;
  g_autoptr (WbCaseRun) r64 = NULL;
  g_autoptr (GError) error = NULL;
  guint compared = 0, differ = 0, judged_fail = 0, judged_floor = 0;

  if (c == NULL)
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  inputs = wb_case_make_inputs (c, NULL, 0, &error);
  g_assert_no_error (error);
  /* coverage's f64 reading (the case loaded with WB_TRACE_SET_LOAD_F32_AS_F64, the inputs converted), run
   * first: the f32 run below writes the running statistics into its inputs */
  r64 = wb_cli_coverage_run_f64 (path, wb_case_get_default_stage (c)->label, inputs, &error);
  g_assert_no_error (error);
  r = run (c, inputs, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->names->len, ==, r64->names->len);
  for (guint i = 0; i < r->names->len; i++)
    {
      WbRtValue *a = r->values->pdata[i], *b = wb_case_run_lookup (r64, r->names->pdata[i]);
      g_autoptr (WbTensor) a64 = NULL;
      g_autoptr (WbTensor) b64 = NULL;
      double err = 0, scale;

      if (a == NULL || a->kind != WB_RT_TENSOR || a->tensor->dtype != WB_DTYPE_FLOAT32)
        continue;
      g_assert_nonnull (b);
      g_assert_cmpint (b->tensor->dtype, ==, WB_DTYPE_FLOAT64);
      a64 = wb_tensor_to_dtype (a->tensor, WB_DTYPE_FLOAT64, NULL);
      b64 = wb_tensor_to_dtype (b->tensor, WB_DTYPE_FLOAT64, NULL); /* contiguous */
      scale = max_abs (b->tensor);
      for (gint64 e = 0; e < wb_tensor_numel (a64); e++)
        err = MAX (err, fabs (((double *) wb_tensor_get_data (a64))[e] - ((double *) wb_tensor_get_data (b64))[e]));
      if (err > 5e-2 * scale + 1e-6)
        g_test_message ("%s: %g of %g", (char *) r->names->pdata[i], err, scale);
      g_assert_cmpfloat (err, <=, 5e-2 * scale + 1e-6);
      differ += err > 0;
      compared++;
      if (err > 0)
        {
          /* coverage's judge: the cpu's own result passes; one 20x further from f64 than it does not, unless
           * that is still within round-off of the tensor's scale (WB_CLI_F64_TOL / 10 of its RMS) */
          g_autoptr (WbTensor) worse = wb_tensor_to_dtype (a->tensor, WB_DTYPE_FLOAT32, NULL);
          double eg, ec, rms = 0;
          for (gint64 e = 0; e < wb_tensor_numel (worse); e++)
            {
              double d = ((double *) wb_tensor_get_data (a64))[e] - ((double *) wb_tensor_get_data (b64))[e];
              ((float *) wb_tensor_get_data (worse))[e] += (float) (20 * d);
              rms += ((double *) wb_tensor_get_data (b64))[e] * ((double *) wb_tensor_get_data (b64))[e];
            }
          rms = sqrt (rms / (double) wb_tensor_numel (b64));
          g_assert_cmpint (wb_cli_coverage_judge_f64 (a->tensor, a->tensor, NULL, b->tensor, &eg, &ec), ==, WB_CLI_F64_PASS);
          g_assert_cmpfloat (eg, ==, ec);
          g_assert_cmpint (wb_cli_coverage_judge_f64 (worse, a->tensor, NULL, b->tensor, &eg, &ec), ==,
                           eg <= 2 * ec + MAX (1e-5, WB_CLI_F64_TOL * rms) / 10 ? WB_CLI_F64_PASS : WB_CLI_F64_FAIL);
          g_assert_cmpfloat (eg, >, 15 * ec);
          judged_fail += eg > 2 * ec + MAX (1e-5, WB_CLI_F64_TOL * rms) / 10;
          judged_floor += eg <= 2 * ec + MAX (1e-5, WB_CLI_F64_TOL * rms) / 10;
        }
    }
  g_test_message ("%u f32 results compared with the f64 reading, %u differ; 20x their error fails %u, is within round-off %u",
                  compared, differ, judged_fail, judged_floor);
  g_assert_cmpuint (judged_fail, >, 0);
  g_assert_cmpuint (compared, >, 200);
  g_assert_cmpuint (differ, >, compared / 2);
}

/* --detect-nan names the first call that makes a NaN (an Inf in the image: Inf - Inf in the first
 * convolution's sums), and says when a NaN came in through an input instead. */
static void
test_detect_nan (void)
{
  g_autoptr (WbCase) c = load ();
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) r = NULL;
  g_autoptr (GError) error = NULL;
  WbTensor *x;

  if (c == NULL)
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  inputs = wb_case_make_inputs (c, NULL, 0, &error);
  g_assert_no_error (error);
  x = input_named (inputs, "input.l_x_");
  g_assert_cmpint (x->dtype, ==, WB_DTYPE_FLOAT32);
  ((float *) wb_tensor_get_data (x))[100] = INFINITY;
  ((float *) wb_tensor_get_data (x))[101] = -INFINITY;
  r = run (c, inputs, TRUE, &error);
  g_assert_null (r);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_NAN);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "first NaN of the run"));
  g_assert_nonnull (strstr (error->message, ".py:"));
  g_clear_error (&error);

  ((float *) wb_tensor_get_data (x))[100] = NAN;
  ((float *) wb_tensor_get_data (x))[101] = 0;
  r = run (c, inputs, TRUE, &error);
  g_assert_null (r);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_NAN);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "passed on from its argument"));
  g_clear_error (&error);

  /* without the check the same run completes (NaN in its results) */
  r = run (c, inputs, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
}

/* Index inputs drawn within the tables they index through selections and arithmetic: BERT's token types
 * (a gather of a buffer, two rows) and RoBERTa's positions (cumsum(mask) * mask + 1, 128 rows); before,
 * the GPU run stopped at "index 5 ... size 2" and "index 331 ... size 128". */
static void
test_index_bounds (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *bert = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "bert", "thunderfx_g0_GraphModule", NULL);
  g_autofree char *roberta =
      g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "roberta", "thunderfx_g0_GraphModule_1", NULL);
  const char *const paths[] = { bert, roberta };
  g_autoptr (GError) error = NULL;

  if (!g_file_test (bert, G_FILE_TEST_IS_DIR) || !g_file_test (roberta, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr (WbCase) c = wb_case_load_full (paths[i], WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
      g_autoptr (GHashTable) inputs = NULL;
      g_autoptr (WbCaseRun) r = NULL;
      const WbCaseInput *tt = NULL;

      g_assert_no_error (error);
      for (guint k = 0; k < wb_case_get_n_inputs (c); k++)
        if (g_str_has_suffix (wb_case_get_input (c, k)->name, "buffers_token_type_ids_"))
          tt = wb_case_get_input (c, k);
      g_assert_nonnull (tt);
      g_assert_cmpint (tt->index_bound, ==, 2);
      if (i == 1)
        {
          const WbCaseInput *mask = wb_case_find_input (c, "mask");
          g_assert_nonnull (mask);
          /* 32 positions: each mask element below bound / 32 keeps the running sum, times mask, plus 1 under 128 */
          g_assert_cmpint (mask->index_bound, >, 0);
          g_assert_cmpint (mask->index_bound * 32 * mask->index_bound + 1, <=, 128);
        }
      inputs = wb_case_make_inputs (c, NULL, 0, &error);
      g_assert_no_error (error);
      r = run (c, inputs, FALSE, &error); /* the cpu refuses an index out of range */
      g_assert_no_error (error);
      g_assert_nonnull (r);
    }
}

/* fsdp3_convnext_w1/rank0 (FSDP ZeRO-3, world size 1) on its recorded inputs: the cpu's f32 loss and
 * gradients are within f32's tolerance of PyTorch's own step computed in f64 on the cpu
 * (tests/zoo/data/make-fsdp3-convnext-torch.py). The reference recorded on the H200 with PyTorch's
 * defaults (cuDNN convolutions in TF32) missed f32's tolerance by 3e-4 on the classifier's weight
 * gradient: run-cpu's failure there was the reference's (tools/zoo/precision.py), not the cpu's. */
static void
test_recorded_reference_precision (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  const char      *src = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "fsdp3_convnext_w1", "rank0", NULL);
  g_autofree char *recorded_path = g_build_filename (path, "tensors.safetensors", NULL);
  g_autofree char *torch_path = g_build_filename (src ? src : ".", "tests", "zoo", "data", "fsdp3_convnext_w1_torch_f64.safetensors", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) r = NULL;
  WbSafetensors *recorded, *torch;
  WbRunOptions   options;
  guint          compared = 0;
  double         rtol, atol, recorded_err = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
  g_assert_no_error (error);
  recorded = wb_safetensors_load (recorded_path, &error);
  g_assert_no_error (error);
  torch = wb_safetensors_load (torch_path, &error);
  g_assert_no_error (error);
  inputs = wb_case_make_inputs (c, recorded, 0, &error);
  g_assert_no_error (error);
  wb_run_options_init (&options);
  r = wb_case_run_stage (c, wb_case_get_default_stage (c), inputs, recorded, &options, &error);
  g_assert_no_error (error);
  wb_dtype_default_tolerance (WB_DTYPE_FLOAT32, &rtol, &atol);
  for (guint i = 0; i < r->names->len; i++)
    {
      const char     *name = r->names->pdata[i];
      WbRtValue      *v = r->values->pdata[i];
      WbTensor       *want = wb_safetensors_lookup (torch, name), *rec = wb_safetensors_lookup (recorded, name);
      WbCompareResult cmp;

      if (want == NULL || v == NULL || v->kind != WB_RT_TENSOR)
        continue;
      g_assert_true (wb_tensor_compare (v->tensor, want, rtol, atol, FALSE, &cmp, &error));
      g_assert_no_error (error);
      if (cmp.mismatches > 0)
        g_test_message ("%s: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " outside, max abs error %g", name, cmp.mismatches,
                        cmp.n, cmp.max_abs);
      g_assert_cmpint (cmp.mismatches, ==, 0);
      compared++;
      if (rec != NULL && wb_tensor_compare (rec, want, rtol, atol, FALSE, &cmp, NULL))
        recorded_err = MAX (recorded_err, cmp.max_abs);
    }
  g_assert_cmpuint (compared, ==, 13); /* the loss and 12 gradients */
  g_test_message ("the recorded reference's max abs error against PyTorch's f64 step: %g", recorded_err);
  wb_safetensors_free (recorded);
  wb_safetensors_free (torch);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/zoo/numerics/draw-in-range", test_draw_in_range);
  g_test_add_func ("/zoo/numerics/f64-reading", test_f64_reading);
  g_test_add_func ("/zoo/numerics/detect-nan", test_detect_nan);
  g_test_add_func ("/zoo/numerics/index-bounds", test_index_bounds);
  g_test_add_func ("/zoo/numerics/recorded-reference-precision", test_recorded_reference_precision);
  return g_test_run ();
}
