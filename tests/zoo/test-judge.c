/* test-judge.c — coverage's f64 judge on real zoo cases: its two cpu f32 baselines (reductions accumulated
 * in f64 and in f32, WbRunOptions.accumulate), an f64 result that is zero by cancellation, and random ops
 * drawn alike in the f32 program and its f64 reading (WbRunOptions.draw_f64_as_f32)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * densenet121 (ThunderFX, training): its last dense block normalises 2 values per channel (batch 2, 1x1).
 * efficientnet_b0 (ThunderFX, training): the bias gradient of a BatchNorm whose output feeds a convolution
 * and a training BatchNorm is zero in exact arithmetic (the second norm removes any per-channel shift).
 * bert (ThunderFX, training): dropout draws uniform numbers (prims.uniform, f32). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cli-coverage.h"
#include "wb-executors.h"

static char *
case_path (const char *name)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");
  return g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
}

/* (transfer full) a copy of @inputs (a run writes running statistics into its inputs) */
static GHashTable *
copy_inputs (GHashTable *inputs)
{
  GHashTable    *copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_tensor_unref);
  GHashTableIter it;
  gpointer       k, v;

  g_hash_table_iter_init (&it, inputs);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_hash_table_insert (copy, g_strdup (k), wb_tensor_to_dtype (v, ((WbTensor *) v)->dtype, NULL));
  return copy;
}

typedef struct
{
  WbCase    *c;
  WbCaseRun *cpu;   /* f32, reductions accumulated in f64 */
  WbCaseRun *cpu32; /* f32, reductions accumulated in f32 */
  WbCaseRun *f64;   /* the f64 reading (coverage's) */
} Runs;

static void
runs_clear (Runs *r)
{
  g_clear_pointer (&r->c, wb_case_free);
  g_clear_pointer (&r->cpu, wb_case_run_free);
  g_clear_pointer (&r->cpu32, wb_case_run_free);
  g_clear_pointer (&r->f64, wb_case_run_free);
}

/* FALSE when the zoo is not unpacked */
static gboolean
runs_init (Runs *r, const char *name)
{
  g_autofree char *path = case_path (name);
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GHashTable) in1 = NULL;
  g_autoptr (GHashTable) in2 = NULL;
  g_autoptr (GHashTable) in3 = NULL;
  g_autoptr (GError) error = NULL;
  const WbCaseStage *stage;
  WbRunOptions       options;

  memset (r, 0, sizeof *r);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return FALSE;
  r->c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
  g_assert_no_error (error);
  stage = wb_case_get_default_stage (r->c);
  inputs = wb_case_make_inputs (r->c, NULL, 0, &error);
  g_assert_no_error (error);
  in1 = copy_inputs (inputs), in2 = copy_inputs (inputs), in3 = copy_inputs (inputs);
  wb_run_options_init (&options);
  r->cpu = wb_case_run_stage (r->c, stage, in1, NULL, &options, &error);
  g_assert_no_error (error);
  options.accumulate = WB_ACCUMULATE_F32;
  r->cpu32 = wb_case_run_stage (r->c, stage, in2, NULL, &options, &error);
  g_assert_no_error (error);
  r->f64 = wb_cli_coverage_run_f64 (path, stage->label, in3, &error);
  g_assert_no_error (error);
  return TRUE;
}

static const WbTensor *
result (WbCaseRun *run, const char *name)
{
  WbRtValue *v = wb_case_run_lookup (run, name);
  return v != NULL && v->kind == WB_RT_TENSOR ? v->tensor : NULL;
}

/* RMS of @a - @b (any float dtypes, one shape), and of @b into *@rms_b */
static double
rms_diff (const WbTensor *a, const WbTensor *b, double *rms_b)
{
  WbCompareResult r;
  g_assert_true (wb_tensor_compare (a, b, 0, 0, FALSE, &r, NULL));
  if (rms_b)
    *rms_b = r.rms_ref;
  return r.rms;
}

/* (transfer full) f32 tensor @f64 + @k * (@dir - @f64) */
static WbTensor *
perturbed (const WbTensor *f64, const WbTensor *dir, double k)
{
  g_autoptr (WbTensor) r = wb_tensor_to_dtype ((WbTensor *) f64, WB_DTYPE_FLOAT64, NULL);
  g_autoptr (WbTensor) d = wb_tensor_to_dtype ((WbTensor *) dir, WB_DTYPE_FLOAT64, NULL);
  double       *rp = wb_tensor_get_data (r);
  const double *dp = wb_tensor_get_data (d);

  for (gint64 i = 0; i < wb_tensor_numel (r); i++)
    rp[i] += k * (dp[i] - rp[i]);
  return wb_tensor_to_dtype (r, WB_DTYPE_FLOAT32, NULL);
}

/* The f32-accumulated run is the second baseline: on densenet121's last layer (2 values per channel) its
 * error against f64 is measured and printed next to the f64-accumulated one; a result within the larger
 * passes, one 20x beyond it fails unless still within the round-off floor. */
static void
test_accumulate_baseline (void)
{
  Runs  r;
  guint n = 0, differ = 0, fail20 = 0;

  if (!runs_init (&r, "densenet121/thunderfx_g0_GraphModule"))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  for (guint i = 0; i < r.cpu->names->len; i++)
    {
      const char     *name = r.cpu->names->pdata[i];
      const WbTensor *c = result (r.cpu, name), *c32 = result (r.cpu32, name), *f = result (r.f64, name);
      double          e64, e32, rms, eg, ec, floor;
      WbCliF64Verdict v;

      if (c == NULL || c->dtype != WB_DTYPE_FLOAT32 || !g_str_has_prefix (name, "grad."))
        continue;
      g_assert_true (c32 != NULL && f != NULL);
      n++;
      differ += rms_diff (c, c32, NULL) > 0;
      e64 = rms_diff (c, f, &rms);
      e32 = rms_diff (c32, f, NULL);
      if (strstr (name, "denseblock4_modules_denselayer15_modules_norm") != NULL)
        g_test_message ("%s: RMS error against f64 %.3e (f64-accumulated), %.3e (f32-accumulated), of RMS %.3e", name + strlen ("grad.input.l_self_modules_model_modules_features_modules_"), e64, e32, rms);
      /* both baselines pass themselves; the judge reports the larger */
      g_assert_cmpint (wb_cli_coverage_judge_f64 (c32, c, c32, f, &eg, &ec), ==, WB_CLI_F64_PASS);
      g_assert_cmpfloat (ec, ==, MAX (e64, e32));
      floor = MAX (1e-5, WB_CLI_F64_TOL * rms) / 10;
      {
        const WbTensor *far = e32 >= e64 ? c32 : c;
        g_autoptr (WbTensor) within = perturbed (f, far, 1.5);
        g_autoptr (WbTensor) beyond = perturbed (f, far, 20.0);
        g_assert_cmpint (wb_cli_coverage_judge_f64 (within, c, c32, f, &eg, &ec), ==, WB_CLI_F64_PASS);
        v = wb_cli_coverage_judge_f64 (beyond, c, c32, f, &eg, &ec);
        g_assert_cmpfloat (fabs (eg - 20 * ec), <=, 1e-3 * eg + 1e-12);
        g_assert_cmpint (v, ==, eg <= 2 * ec + floor ? WB_CLI_F64_PASS : WB_CLI_F64_FAIL);
        fail20 += v == WB_CLI_F64_FAIL;
      }
    }
  g_test_message ("%u f32 gradients; %u differ between the two accumulations; 20x the baseline fails %u", n, differ, fail20);
  g_assert_cmpuint (n, >, 300);
  g_assert_cmpuint (differ, >, n / 2);
  g_assert_cmpuint (fail20, >, n / 2);
  runs_clear (&r);
}

/* A gradient that is zero in exact arithmetic: both f32 results are round-off, the f64 one some 1e-13; the
 * judge does not refuse the reference there, passes the other f32 result's round-off and fails 20x it. */
static void
test_zero_reference (void)
{
  Runs  r;
  guint zeros = 0;

  if (!runs_init (&r, "efficientnet_b0/thunderfx_g0_GraphModule"))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  for (guint i = 0; i < r.cpu->names->len; i++)
    {
      const char     *name = r.cpu->names->pdata[i];
      const WbTensor *c = result (r.cpu, name), *c32 = result (r.cpu32, name), *f = result (r.f64, name);
      double          eg, ec, rms_f, rms_c;

      if (c == NULL || c->dtype != WB_DTYPE_FLOAT32)
        continue;
      g_assert_true (c32 != NULL && f != NULL);
      g_assert_cmpint (wb_cli_coverage_judge_f64 (c, c, c32, f, &eg, &ec), ==, WB_CLI_F64_PASS);
      rms_diff (c, f, &rms_f);
      rms_diff (f, c, &rms_c);
      if (rms_f < WB_CLI_F64_ZERO * rms_c)
        {
          g_autoptr (WbTensor) beyond = perturbed (f, c, 20.0);
          g_test_message ("%s: f64 RMS %.3e, cpu f32 RMS %.3e", name, rms_f, rms_c);
          zeros++;
          g_assert_cmpint (wb_cli_coverage_judge_f64 (c32, c, c32, f, &eg, &ec), ==, WB_CLI_F64_PASS);
          g_assert_cmpint (wb_cli_coverage_judge_f64 (beyond, c, c32, f, &eg, &ec), ==, WB_CLI_F64_FAIL);
        }
    }
  g_assert_cmpuint (zeros, >=, 1);
  runs_clear (&r);
}

/* bert's dropout: the f64 reading draws the f32 program's uniforms, widened, so every result is within f32
 * round-off of the f32 run's; drawn in f64 instead (the option off) they are different programs. */
static void
test_f64_draws (void)
{
  g_autofree char *path = case_path ("bert/thunderfx_g0_GraphModule");
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbCase) c64 = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GHashTable) in1 = NULL;
  g_autoptr (GHashTable) in2 = NULL;
  g_autoptr (GHashTable) in64 = NULL;
  g_autoptr (WbCaseRun) r = NULL;
  g_autoptr (WbCaseRun) r64 = NULL;
  g_autoptr (WbCaseRun) r64_own = NULL;
  g_autoptr (GError) error = NULL;
  WbRunOptions   options;
  GHashTableIter it;
  gpointer       k, v;
  double         worst = 0, worst_own = 0;
  guint          n = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
  g_assert_no_error (error);
  inputs = wb_case_make_inputs (c, NULL, 0, &error);
  g_assert_no_error (error);
  in1 = copy_inputs (inputs), in2 = copy_inputs (inputs);
  wb_run_options_init (&options);
  r = wb_case_run_stage (c, wb_case_get_default_stage (c), in1, NULL, &options, &error);
  g_assert_no_error (error);
  r64 = wb_cli_coverage_run_f64 (path, wb_case_get_default_stage (c)->label, in2, &error);
  g_assert_no_error (error);
  /* the same reading with its random numbers drawn in f64 */
  c64 = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS | WB_TRACE_SET_LOAD_F32_AS_F64, &error);
  g_assert_no_error (error);
  in64 = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_tensor_unref);
  g_hash_table_iter_init (&it, inputs);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_hash_table_insert (in64, g_strdup (k),
                         wb_tensor_to_dtype (v, ((WbTensor *) v)->dtype == WB_DTYPE_FLOAT32 ? WB_DTYPE_FLOAT64 : ((WbTensor *) v)->dtype, NULL));
  r64_own = wb_case_run_stage (c64, wb_case_find_stage (c64, -1, wb_case_get_default_stage (c)->label), in64, NULL, &options, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < r->names->len; i++)
    {
      const char     *name = r->names->pdata[i];
      const WbTensor *a = result (r, name);
      double          rms, e, e_own;
      if (a == NULL || a->dtype != WB_DTYPE_FLOAT32)
        continue;
      e = rms_diff (a, result (r64, name), &rms);
      e_own = rms_diff (a, result (r64_own, name), NULL);
      if (rms > 0)
        worst = MAX (worst, e / rms), worst_own = MAX (worst_own, e_own / rms);
      n++;
    }
  g_test_message ("%u f32 results; worst RMS error of the f64 reading relative to the result's RMS: %.3e (f32 draws), %.3e (f64 draws)", n, worst, worst_own);
  g_assert_cmpuint (n, >, 10);
  g_assert_cmpfloat (worst, <, 1e-5);
  g_assert_cmpfloat (worst_own, >, 1e-1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/zoo/judge/accumulate-baseline", test_accumulate_baseline);
  g_test_add_func ("/zoo/judge/zero-reference", test_zero_reference);
  g_test_add_func ("/zoo/judge/f64-draws", test_f64_draws);
  return g_test_run ();
}
