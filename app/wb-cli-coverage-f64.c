/* wb-cli-coverage-f64.c — the f64 reference of coverage's GPU-versus-cpu comparison
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two correct f32 programs (the GPU's, the cpu executor's) sum in different orders, and through a deep
 * model's backward their results can differ by more than any fixed tolerance although neither is wrong.
 * Which one is closer to the truth is decided as torch._dynamo does for torch.compile's accuracy checks
 * (torch/_dynamo/utils.py, same() with fp64_ref): the same program runs in float64 on the cpu executor
 * (every float32 of its text read as float64, the inputs converted), and the GPU's result passes when its
 * RMS error against that f64 result is at most twice the cpu f32 result's, plus a tenth of dynamo's
 * tolerance (1e-4), taken relative to the tensor's RMS so that it holds for gradients of any scale, and at
 * least a tenth of the dtype's atol. The floor matters because the cpu executor sums in f64, so its f32
 * result can be a few units in the last place from the truth, where any f32 kernel's is a few more
 * (RegNet's classifier bias: 3e-6 against 9e-6 of its RMS). A deep model's backward in f32 can be several percent off the f64 result on either executor.
 *
 * The baseline is the larger of two cpu f32 errors: the cpu executor's as it runs (reductions accumulated in
 * f64) and with WB_ACCUMULATE_F32 (accumulated in f32 as a plain f32 kernel), so that the GPU passes where it
 * is as close to f64 as a plain f32 implementation gets (dynamo's baseline is an f32 eager run).
 *
 * The f64 reading draws the f32 program's random numbers (WbRunOptions.draw_f64_as_f32), so dropout is the
 * same program in both. The reference is still refused where the cpu's own f32 result is not even near it
 * (RMS error above half the f64 result's RMS), unless the f64 result is zero to the f32 programs' round-off
 * (below WB_CLI_F64_ZERO of the cpu f32 result's RMS: an exact cancellation, where both f32 results are
 * round-off and the GPU's is judged by the same rule). */
#include "config.h"

#include <math.h>

#include "wb-cli-coverage.h"
#include "wb-executors.h"

WbCaseRun *
wb_cli_coverage_run_f64 (const char *path, const char *stage_label, GHashTable *inputs, GError **error)
{
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GHashTable) inputs64 = NULL;
  const WbCaseStage *stage;
  WbRunOptions       options;

  c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS | WB_TRACE_SET_LOAD_F32_AS_F64, error);
  if (c == NULL)
    return NULL;
  if ((stage = wb_case_find_stage (c, -1, stage_label)) == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "%s: no stage %s in its f64 reading", path,
                   stage_label);
      return NULL;
    }
  if ((inputs64 = wb_case_inputs_copy (inputs, TRUE, error)) == NULL)
    return NULL;
  wb_run_options_init (&options);
  options.draw_f64_as_f32 = TRUE; /* the f32 program's random numbers, widened */
  return wb_case_run_stage (c, stage, inputs64, NULL, &options, error);
}

WbCliF64Verdict
wb_cli_coverage_judge_f64 (const WbTensor *got, const WbTensor *cpu, const WbTensor *cpu32, const WbTensor *f64, double *err_got, double *err_cpu)
{
  WbCompareResult g, c, c32, own;
  double          rtol, atol, multiplier;

  *err_got = *err_cpu = NAN;
  /* the RMS errors of wb_tensor_compare, whose tolerances play no part here; a NaN or Inf anywhere, or
   * shapes that differ, leave no reference */
  if (!wb_tensor_compare (got, f64, 0, 0, FALSE, &g, NULL) || !wb_tensor_compare (cpu, f64, 0, 0, FALSE, &c, NULL) ||
      !wb_tensor_compare (f64, cpu, 0, 0, FALSE, &own, NULL) || g.nonfinite > 0 || c.nonfinite > 0 || g.n == 0)
    return WB_CLI_F64_UNTRUSTED;
  if (cpu32 != NULL && (!wb_tensor_compare (cpu32, f64, 0, 0, FALSE, &c32, NULL) || c32.nonfinite > 0))
    return WB_CLI_F64_UNTRUSTED;
  *err_got = g.rms;
  *err_cpu = cpu32 != NULL ? MAX (c.rms, c32.rms) : c.rms;
  /* own.rms_ref: the cpu f32 result's RMS */
  if (c.rms > 0.5 * c.rms_ref && c.rms_ref >= WB_CLI_F64_ZERO * own.rms_ref)
    return WB_CLI_F64_UNTRUSTED;
  wb_dtype_default_tolerance (cpu->dtype, &rtol, &atol);
  multiplier = cpu->dtype == WB_DTYPE_BFLOAT16 || cpu->dtype == WB_DTYPE_FLOAT16 ? 3.0 : 2.0;
  return *err_got <= multiplier * *err_cpu + MAX (atol, WB_CLI_F64_TOL * c.rms_ref) / 10.0 ? WB_CLI_F64_PASS : WB_CLI_F64_FAIL;
}
