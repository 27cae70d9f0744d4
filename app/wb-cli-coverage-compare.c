/* wb-cli-coverage-compare.c — how `coverage` judges a run's results: against the case's reference tensors,
 * a GPU run against the cpu's (then the f64 program, then call by call), and the FLOPs of a stage
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from wb-cli-coverage-case.c, which runs the levels in the child process and calls these. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-cli-coverage-case-private.h"
#include "wb-cli-coverage.h"
#include "wb-cli-cuda.h"
#include "wb-cli-run.h"
#include "wb-executors.h"
#include "wb-profiler.h"

double
wb_cli_coverage_estimate_gflop (WbCase *c, const WbCaseStage *stage)
{
  WbTraceSet *set = wb_case_get_trace_set (c);
  const int   entries[] = { stage->entry, stage->backward_entry };
  guint64     total = 0;

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      WbTrace *t = entries[i] >= 0 ? wb_trace_set_get_entry (set, entries[i])->trace : NULL;
      g_autoptr (WbCostModel) model = t != NULL ? wb_cost_model_new (t) : NULL;

      if (t == NULL)
        continue;
      for (guint b = 0; b < t->n_body; b++)
        {
          guint64 flops = 0;

          wb_cost_model_count (model, t->body[b], NULL, &flops);
          total += flops;
        }
    }
  return total / 1e9;
}

void
wb_cli_coverage_note_worst (WbCliCoverageWorst *w, const char *name, const WbCompareResult *cmp)
{
  double rel = cmp->max_ref > 0 ? cmp->max_abs / cmp->max_ref : cmp->max_abs;

  if (rel > w->rel)
    {
      w->name = name;
      w->max_abs = cmp->max_abs;
      w->rel = rel;
    }
}

void
wb_cli_coverage_compare_results (WbCliCoverageResult *r, const WbCaseRun *run, WbSafetensors *reference, const char *reference_path)
{
  guint              compared = 0;
  WbCliCoverageWorst worst = { "-", 0, -1 };

  for (guint i = 0; i < run->names->len; i++)
    {
      const char *name = run->names->pdata[i];
      WbRtValue  *v = run->values->pdata[i];
      WbTensor   *ref = wb_cli_find_reference (reference, name);
      g_autoptr (GError) error = NULL;
      WbCompareResult cmp;
      double          rtol, atol;

      if (ref == NULL || v == NULL || v->kind != WB_RT_TENSOR)
        continue;
      if (!wb_cli_compare_tensor (v->tensor, ref, FALSE, 0, 0, &cmp, &rtol, &atol, &error))
        {
          wb_cli_coverage_result_set_fail (r, "%s: %s", name, error->message);
          return;
        }
      if (cmp.mismatches > 0)
        {
          wb_cli_coverage_result_set_fail (r, "%s: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " elements outside atol %g + rtol %g * |ref| "
                                              "(max abs error %.3e, first at #%" G_GINT64_FORMAT ") against %s",
                                           name, cmp.mismatches, cmp.n, atol, rtol, cmp.max_abs, cmp.first_mismatch, reference_path);
          return;
        }
      wb_cli_coverage_note_worst (&worst, name, &cmp);
      compared++;
    }
  r->status = WB_CLI_COVERAGE_OK;
  if (compared == 0)
    r->detail = g_strdup_printf ("not compared: %s holds none of the %u results", reference_path, run->names->len);
  else
    r->detail = g_strdup_printf ("%u of %u results compared with %s, all within tolerance; worst %s: max abs error %.3e, %.3e of max |ref|",
                                 compared, run->names->len, reference_path, worst.name, worst.max_abs, worst.rel);
}

/* An f32 result of the GPU outside tolerance of the cpu's: judged against the program run in f64
 * (wb-cli-coverage-f64.c), which runs once per case (*@f64), with the cpu's run accumulating in f32
 * (*@cpu32, once per case) as the second baseline, both on @inputs as they were before the cpu's run
 * wrote into them (NULL: no copy could be made). TRUE when it passes (noted in *@by_f64);
 * FALSE with *@why (transfer full) saying why not, as a suffix of the failure. */
static gboolean
judged_by_f64 (CaseWork *w, const WbCaseStage *stage, GHashTable *inputs, WbCaseRun **f64, WbCaseRun **cpu32, const char *name, const WbTensor *got, const WbTensor *cpu, GString **by_f64, char **why)
{
  g_autoptr (GError) error = NULL;
  WbRtValue   *ref, *c32;
  double       err_got = 0, err_cpu = 0;
  WbRunOptions options;

  if (cpu->dtype != WB_DTYPE_FLOAT32)
    return FALSE;
  if (inputs == NULL)
    return FALSE;
  if (*f64 == NULL && (*f64 = wb_cli_coverage_run_f64 (w->path, stage->label, inputs, &error)) == NULL)
    {
      *why = g_strdup_printf ("; no f64 reference: %s", error->message);
      return FALSE;
    }
  ref = wb_case_run_lookup (*f64, name);
  if (ref == NULL || ref->kind != WB_RT_TENSOR)
    {
      *why = g_strdup ("; the f64 reference lacks it");
      return FALSE;
    }
  /* the second baseline: the cpu with its f32 reductions accumulated in f32, as a plain f32 kernel */
  wb_run_options_init (&options);
  options.accumulate = WB_ACCUMULATE_F32;
  if (*cpu32 == NULL && (*cpu32 = wb_case_run_stage (w->c, stage, inputs, NULL, &options, &error)) == NULL)
    {
      *why = g_strdup_printf ("; no cpu run with f32 accumulation: %s", error->message);
      return FALSE;
    }
  c32 = wb_case_run_lookup (*cpu32, name);
  switch (wb_cli_coverage_judge_f64 (got, cpu, c32 != NULL && c32->kind == WB_RT_TENSOR ? c32->tensor : NULL, ref->tensor, &err_got, &err_cpu))
    {
    case WB_CLI_F64_PASS:
      if (*by_f64 == NULL)
        *by_f64 = g_string_new ("; judged against the f64 program (RMS error at most twice the cpu f32's, f64- or f32-accumulated):");
      g_string_append_printf (*by_f64, " %s %.2e vs cpu %.2e,", name, err_got, err_cpu);
      return TRUE;
    case WB_CLI_F64_FAIL:
      *why = g_strdup_printf ("; against the f64 program, RMS error %.3e, more than twice the cpu f32's %.3e (the larger of f64- and f32-accumulated)", err_got, err_cpu);
      return FALSE;
    case WB_CLI_F64_UNTRUSTED:
    default:
      *why = g_strdup_printf ("; the f64 program is no reference here (cpu f32 RMS error against it %.3e)", err_cpu);
      return FALSE;
    }
}

/* A GPU result the f64 judge refuses, judged call by call instead: the GPU runs the stage once more with every
 * call checked against the runner's cpu executor on the same inputs (WbRunnerRequest.check_all). A program that
 * amplifies round-off (a batch norm over two values per channel: DenseNet's last block at batch 2) turns a
 * kernel's last-digit difference into a visible one at its end, which neither the cpu nor the f64 reading
 * shows; where every call agrees with the cpu on its own inputs, no kernel is wrong. TRUE when every call is
 * within the dtype's tolerance; *@summary (transfer full) says what was found either way. */
static gboolean
judged_call_by_call (CaseWork *w, const WbCaseStage *stage, GHashTable *inputs, char **summary)
{
  g_autoptr (WbCaseRun) run = NULL;
  g_autoptr (GError) error = NULL;
  WbCliCudaCalls calls = { .quiet = TRUE, .check_call = -1, .check_all = TRUE };
  WbRunOptions   options;
  int            code = WB_EXIT_ENVIRONMENT;
  guint32        n = 0, outside = 0;
  const char    *call = NULL, *output = NULL;
  double         max_abs = 0, max_ref = 0, ratio = 0;

  wb_run_options_init (&options);
  run = wb_cli_run_stage_on_cuda_with (w->c, stage, inputs, NULL, &options, 0, NULL, &calls, NULL, &code, &error);
  g_clear_pointer (&calls.check_result, g_variant_unref);
  if (run == NULL || calls.check_all_result == NULL)
    {
      *summary = g_strdup_printf ("; not judged call by call: %s", error ? error->message : "the runner did not check the calls");
      g_clear_pointer (&calls.check_all_result, g_variant_unref);
      return FALSE;
    }
  g_variant_get (calls.check_all_result, "(uu&s&sddd)", &n, &outside, &call, &output, &max_abs, &max_ref, &ratio);
  if (outside == 0 && n > 0)
    *summary = g_strdup_printf ("; judged call by call, as the program amplifies round-off: each of its %u calls agrees with the cpu executor "
                                "on the same inputs (worst %s, %s: max abs error %.3e, %.2f of the dtype's tolerance)",
                                n, call, output, max_abs, ratio);
  else
    *summary = g_strdup_printf ("; call by call, %u of %u calls are outside the dtype's tolerance of the cpu executor on the same inputs, "
                                "the worst %s (%s: max abs error %.3e, max |cpu| %.3e)",
                                outside, n, call, output, max_abs, max_ref);
  g_variant_unref (calls.check_all_result);
  return outside == 0 && n > 0;
}

/* run-gpu without reference tensors to compare with: the cpu executor (the reference) runs the same stage on
 * the same @inputs, within the cpu budget, and every result of @gpu is compared with its; FALSE (and @r
 * untouched) when the cpu run is over budget or fails. */
gboolean
_wb_cli_coverage_compare_with_cpu (CaseWork *w, WbCliCoverageResult *r, const WbCaseStage *stage, GHashTable *inputs, const WbCaseRun *gpu, double gflop)
{
  g_autoptr (WbCaseRun) cpu = NULL;
  g_autoptr (WbCaseRun) f64 = NULL;
  g_autoptr (WbCaseRun) cpu32 = NULL;
  g_autoptr (GHashTable) pristine = NULL;
  g_autoptr (GString) by_f64 = NULL;
  g_autofree char   *calls_summary = NULL;
  WbRunOptions       options;
  guint              compared = 0;
  int                by_calls = 0; /* 0 not tried, 1 every call agrees, -1 not */
  WbCliCoverageWorst worst = { "-", 0, -1 };

  if (gflop > w->options->cpu_budget_gflop)
    return FALSE;
  wb_run_options_init (&options);
  pristine = wb_case_inputs_copy (inputs, FALSE, NULL); /* the run writes running statistics into its inputs */
  if ((cpu = wb_case_run_stage (w->c, stage, inputs, NULL, &options, NULL)) == NULL)
    return FALSE;
  for (guint i = 0; i < gpu->names->len && i < cpu->names->len; i++)
    {
      WbRtValue *g = gpu->values->pdata[i], *c = cpu->values->pdata[i];
      g_autoptr (GError) error = NULL;
      g_autofree char *why = NULL;
      WbCompareResult  cmp;
      double           rtol, atol;

      if (g == NULL || c == NULL || g->kind != WB_RT_TENSOR || c->kind != WB_RT_TENSOR ||
          g_strcmp0 (gpu->names->pdata[i], cpu->names->pdata[i]) != 0)
        continue;
      /* two correct f32 programs sum in different orders (the GPU's reductions and GEMMs, the cpu's), and through a
       * deep model's backward the elements that cancel to near zero differ by more than the dtype's atol: those are
       * judged against the tensor's scale, atol = rtol * max |cpu| (the comparison's max_ref) */
      wb_dtype_default_tolerance (c->tensor->dtype, &rtol, &atol);
      if (wb_cli_compare_tensor (g->tensor, c->tensor, TRUE, rtol, atol, &cmp, NULL, NULL, &error) && cmp.mismatches > 0 &&
          rtol * cmp.max_ref > atol)
        {
          wb_dtype_scaled_tolerance (c->tensor->dtype, cmp.max_ref, &rtol, &atol);
          wb_cli_compare_tensor (g->tensor, c->tensor, TRUE, rtol, atol, &cmp, NULL, NULL, &error);
        }
      if (error != NULL)
        {
          wb_cli_coverage_result_set_fail (r, "%s: %s", (const char *) gpu->names->pdata[i], error->message);
          return TRUE;
        }
      if (cmp.mismatches > 0 && !judged_by_f64 (w, stage, pristine, &f64, &cpu32, gpu->names->pdata[i], g->tensor, c->tensor, &by_f64, &why))
        {
          if (by_calls == 0)
            by_calls = pristine != NULL && judged_call_by_call (w, stage, pristine, &calls_summary) ? 1 : -1;
          if (by_calls > 0)
            {
              wb_cli_coverage_note_worst (&worst, gpu->names->pdata[i], &cmp);
              compared++;
              continue;
            }
          wb_cli_coverage_result_set_fail (r, "%s: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " elements outside atol %g + rtol %g * |cpu| "
                                              "(max abs error %.3e, first at #%" G_GINT64_FORMAT ") against the cpu executor%s%s",
                                           (const char *) gpu->names->pdata[i], cmp.mismatches, cmp.n, atol, rtol, cmp.max_abs,
                                           cmp.first_mismatch, why ? why : "", calls_summary ? calls_summary : "");
          g_clear_pointer (&r->detail, g_free);
          return TRUE;
        }
      wb_cli_coverage_note_worst (&worst, gpu->names->pdata[i], &cmp);
      compared++;
    }
  if (compared == 0)
    return FALSE;
  r->status = WB_CLI_COVERAGE_OK;
  g_free (r->detail);
  r->detail = g_strdup_printf ("%u of %u results compared with the cpu executor's on the same inputs (seed 0), all within tolerance "
                               "(the dtype's rtol, its atol at least rtol * max |cpu|); worst %s: max abs error %.3e, %.3e of max |cpu|%s%s",
                               compared, gpu->names->len, worst.name, worst.max_abs, worst.rel, by_f64 ? by_f64->str : "",
                               by_calls > 0 ? calls_summary : "");
  return TRUE;
}
