/* wb-cli-bisect.c — `thunder-wb --headless bisect PATH`: the first call whose GPU result is wrong
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * thunder-wb --headless bisect PATH [--stage K] [--inputs F.safetensors] [--seed N] [--default-executor E]
 *
 * When a program's GPU results disagree with the cpu executor's, which call is to blame? The error of one
 * wrong kernel spreads to every result after it, so the results alone do not say. bisect answers as
 * PyTorch's compiler bisector (torch/_inductor/compiler_bisector.py) and LLVM's opt-bisect do, by
 * halving: the program runs in the GPU runner with its first k top-level calls on the GPU and the rest on
 * the runner's cpu executor (WbRunnerRequest.call_executors), and is judged as coverage's run-gpu judges
 * it (wb-cli-coverage-f64.c: every f32 result against the program run in f64, allowed twice the cpu f32
 * results' error; other dtypes within the dtype's tolerance of the cpu's). k = 0 passes, k = all fails;
 * the smallest failing k names call k - 1: with it on the GPU the program is wrong, without it right.
 * That assumes a wrong result stays wrong through the calls after it (they do not undo an error), which
 * holds for the errors this is for. About log2 (calls) runs of the program.
 *
 * Then that split runs again with the call checked against the runner's cpu executor on the same inputs: a
 * wrong result, or round-off that the program after it amplifies. Only for a wrong result does it run once
 * more with the call's executor replaced by `cuda` (one generated kernel per op, no fusion): when that passes,
 * the fused kernel is to blame, not the ops.
 *
 * Cotangents are drawn with --seed (a file's grad_output is not read: the f64 reading draws them too).
 * Exit: 0 a call found, or nothing to find (the GPU agrees); 1 the cpu alone disagrees with f64 (nothing
 * to judge by) or the GPU fails for another reason than a wrong result; 2 bad input; 3 no GPU runner. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "wb-cli-coverage.h"
#include "wb-cli-cuda.h"
#include "wb-cli-run.h"
#include "wb-cli.h"
#include "wb-executors.h"

typedef struct
{
  WbCase            *c;
  const WbCaseStage *stage;
  const char        *path;
  GHashTable        *inputs; /* as drawn or read, before any run wrote into them */
  WbSafetensors     *input_file;
  const char        *default_executor;
  WbRunner          *runner;
  WbProgram         *program;  /* the host's: call ordinals, names and lines */
  GArray            *ordinals; /* guint: the calls that run kernels (utility calls never move) */
  const char       **calls;    /* per ordinal: the executor of this probe, or NULL */
  guint              n_calls;
  WbCaseRun         *cpu, *cpu32, *f64; /* the references (wb-cli-coverage-f64.c) */
  guint              probes;
} Bisect;

typedef struct
{
  gboolean pass;
  char    *worst;   /* the result furthest beyond its allowance (or the first failing one) */
  double   err_got; /* its RMS error against f64 (f32) or max abs error against the cpu */
  double   err_cpu; /* the cpu f32 results' RMS error against f64 (f32), or the tolerance */
  char    *failure; /* the run failed (an error, not a result): its message */
} Verdict;

static void
verdict_clear (Verdict *v)
{
  g_clear_pointer (&v->worst, g_free);
  g_clear_pointer (&v->failure, g_free);
}

static void
bisect_clear (Bisect *b)
{
  g_clear_pointer (&b->cpu, wb_case_run_free);
  g_clear_pointer (&b->cpu32, wb_case_run_free);
  g_clear_pointer (&b->f64, wb_case_run_free);
  g_clear_pointer (&b->calls, g_free);
  g_clear_pointer (&b->ordinals, g_array_unref);
  g_clear_pointer (&b->program, wb_program_unref);
  g_clear_pointer (&b->runner, wb_runner_free);
  g_clear_pointer (&b->inputs, g_hash_table_unref);
}

/* One result of the GPU run against the references: FALSE when it fails; *@score: how far past its
 * allowance (> 1 fails), to name the worst. */
static gboolean
judge_value (Bisect *b, const char *name, const WbTensor *got, double *err_got, double *err_cpu, double *score)
{
  WbRtValue      *c = wb_case_run_lookup (b->cpu, name);
  WbRtValue      *c32 = b->cpu32 ? wb_case_run_lookup (b->cpu32, name) : NULL;
  WbRtValue      *r64 = b->f64 ? wb_case_run_lookup (b->f64, name) : NULL;
  WbCompareResult cmp;
  double          rtol, atol;

  *score = 0;
  if (c == NULL || c->kind != WB_RT_TENSOR)
    return TRUE;
  if (!wb_tensor_compare (got, c->tensor, 0, 0, FALSE, &cmp, NULL))
    {
      *score = INFINITY;
      return FALSE; /* shapes differ */
    }
  if (wb_compare_adds_nonfinite (&cmp, c->tensor))
    {
      *err_got = INFINITY, *err_cpu = 0, *score = INFINITY;
      return FALSE;
    }
  if (got->dtype == WB_DTYPE_FLOAT32 && r64 != NULL && r64->kind == WB_RT_TENSOR)
    {
      WbCliF64Verdict v = wb_cli_coverage_judge_f64 (got, c->tensor, c32 && c32->kind == WB_RT_TENSOR ? c32->tensor : NULL, r64->tensor, err_got, err_cpu);
      double          allowed = 2.0 * *err_cpu;

      if (v == WB_CLI_F64_UNTRUSTED)
        return TRUE;
      *score = allowed > 0 ? *err_got / allowed : (*err_got > 0 ? INFINITY : 0);
      return v == WB_CLI_F64_PASS;
    }
  /* other dtypes: within the dtype's tolerance of the cpu's, atol at least rtol * max |cpu| (as coverage) */
  wb_dtype_scaled_tolerance (got->dtype, cmp.max_ref, &rtol, &atol);
  wb_tensor_compare (got, c->tensor, rtol, atol, FALSE, &cmp, NULL);
  *err_got = cmp.max_abs;
  *err_cpu = atol;
  *score = *err_cpu > 0 ? *err_got / *err_cpu : 0;
  return cmp.mismatches == 0;
}

static void
judge (Bisect *b, const WbCaseRun *run, Verdict *v)
{
  double worst = -1;

  v->pass = TRUE;
  for (guint i = 0; i < run->names->len; i++)
    {
      WbRtValue *g = run->values->pdata[i];
      double     eg = 0, ec = 0, score = 0;
      gboolean   ok;

      if (g == NULL || g->kind != WB_RT_TENSOR)
        continue;
      ok = judge_value (b, run->names->pdata[i], g->tensor, &eg, &ec, &score);
      v->pass &= ok;
      if (score > worst)
        {
          worst = score;
          g_free (v->worst);
          v->worst = g_strdup (run->names->pdata[i]);
          v->err_got = eg, v->err_cpu = ec;
        }
    }
}

/* Runs the program with the calls of b->ordinals from @k on the cpu, and @ordinal (G_MAXUINT: none) on
 * @executor (NULL: checked against the runner's cpu executor instead, into *@check); judges it into @v.
 * FALSE only when the runner itself failed (@error). */
static gboolean
probe (Bisect *b, guint k, guint ordinal, const char *executor, Verdict *v, GVariant **check, GError **error)
{
  g_autoptr (WbCaseRun) run = NULL;
  WbCliCudaCalls calls = { .quiet = TRUE, .check_call = -1 };
  WbRunOptions   options;
  int            code = WB_EXIT_ENVIRONMENT;

  memset (b->calls, 0, sizeof (char *) * b->n_calls);
  for (guint j = k; j < b->ordinals->len; j++)
    b->calls[g_array_index (b->ordinals, guint, j)] = wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_CPU));
  if (ordinal != G_MAXUINT && executor != NULL)
    b->calls[ordinal] = executor;
  else if (ordinal != G_MAXUINT)
    calls.check_call = (int) ordinal;
  calls.call_executors = b->calls;
  calls.n_call_executors = b->n_calls;
  wb_run_options_init (&options);
  b->probes++;
  memset (v, 0, sizeof *v);
  run = wb_cli_run_stage_on_cuda_with (b->c, b->stage, b->inputs, NULL, &options, 0, b->default_executor, &calls, b->runner, &code, error);
  if (check != NULL)
    *check = calls.check_result;
  else
    g_clear_pointer (&calls.check_result, g_variant_unref);
  if (run == NULL)
    {
      if (error != NULL && *error != NULL && ((*error)->domain != WB_RUNNER_ERROR || (*error)->code == WB_RUNNER_ERROR_FAILED))
        {
          /* the program failed on the GPU (an op it cannot run): that is a verdict too */
          v->pass = FALSE;
          v->failure = g_strdup ((*error)->message);
          g_clear_error (error);
          return TRUE;
        }
      return FALSE;
    }
  judge (b, run, v);
  return TRUE;
}

static void
print_verdict (const char *what, const Verdict *v)
{
  if (v->failure != NULL)
    g_print ("  %s: %s (%s)\n", what, _ ("the run failed"), v->failure);
  else if (v->worst == NULL)
    g_print ("  %s: %s\n", what, v->pass ? _ ("pass") : _ ("FAIL"));
  else
    g_print (_ ("  %s: %s (worst %s: error %.3e, the cpu's %.3e)\n"), what, v->pass ? _ ("pass") : _ ("FAIL"), v->worst,
             v->err_got, v->err_cpu);
}

/* The references: the cpu executor's run (reductions in f64), its run with f32 accumulation and, for f32
 * programs, the program read in f64, each on its own copy of the inputs (the cpu writes into them). */
static gboolean
make_references (Bisect *b, GError **error)
{
  g_autoptr (GHashTable) in1 = NULL;
  g_autoptr (GHashTable) in2 = NULL;
  g_autoptr (GHashTable) in3 = NULL;
  g_autoptr (GError) local = NULL;
  WbRunOptions options;

  if ((in1 = wb_case_inputs_copy (b->inputs, FALSE, error)) == NULL || (in2 = wb_case_inputs_copy (b->inputs, FALSE, error)) == NULL ||
      (in3 = wb_case_inputs_copy (b->inputs, FALSE, error)) == NULL)
    return FALSE;
  wb_run_options_init (&options);
  if ((b->cpu = wb_case_run_stage (b->c, b->stage, in1, NULL, &options, error)) == NULL)
    return FALSE;
  options.accumulate = WB_ACCUMULATE_F32;
  if ((b->cpu32 = wb_case_run_stage (b->c, b->stage, in2, NULL, &options, error)) == NULL)
    return FALSE;
  /* f64 reading: only where the program has f32 to widen; without it other dtypes are judged alone */
  if ((b->f64 = wb_cli_coverage_run_f64 (b->path, b->stage->label, in3, &local)) == NULL)
    g_print (_ ("note: no f64 reference (%s): f32 results are judged within the dtype's tolerance\n"), local->message);
  return TRUE;
}

/* The calls that run kernels, in program order */
static void
list_calls (Bisect *b)
{
  b->n_calls = wb_program_get_n_calls (b->program);
  b->calls = g_new0 (const char *, MAX (b->n_calls, 1));
  b->ordinals = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < b->n_calls; i++)
    {
      const WbBsym *call = wb_program_get_call (b->program, i, NULL);

      if (!wb_executor_info_is_utility (call)) /* regions included */
        g_array_append_val (b->ordinals, i);
    }
}

/* What the call found is: where, what, and its text (the first lines of a region) */
static void
print_call (Bisect *b, guint ordinal)
{
  gboolean       backward = FALSE;
  const WbBsym  *call = wb_program_get_call (b->program, ordinal, &backward);
  const WbTrace *t = backward ? wb_program_get_backward (b->program) : wb_program_get_forward (b->program);
  g_autoptr (GString) text = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  guint n_lines;

  g_print (_ ("first call whose GPU result makes the program disagree: #%u, %s:%u %s (%u subsymbols)\n"), ordinal,
           t->filename ? t->filename : "<trace>", wb_trace_get_bsym_line (t, call), call->name ? call->name : "?", call->n_subsymbols);
  wb_bsym_print (call, 0, text);
  lines = g_strsplit (text->str, "\n", -1);
  n_lines = g_strv_length (lines);
  for (guint i = 0; i < n_lines && i < 40; i++)
    if (lines[i][0] != '\0')
      g_print ("    %s\n", lines[i]);
  if (n_lines > 40)
    g_print (_ ("    ... (%u more lines)\n"), n_lines - 40);
}

/* The call's outputs on the GPU against the runner's cpu executor on the same inputs (probe's check); TRUE
 * when they differ by round-off only */
static gboolean
print_check (GVariant *check)
{
  GVariantIter it;
  const char  *name, *dtype;
  double       max_abs, max_ref, rms, rms_ref, worst = 0, rtol, atol;

  if (check == NULL || g_variant_n_children (check) == 0)
    {
      g_print (_ ("  (the runner did not compare that call with its cpu executor)\n"));
      return FALSE;
    }
  g_print (_ ("  its outputs on the GPU against the runner's cpu executor on the same inputs:\n"));
  g_variant_iter_init (&it, check);
  while (g_variant_iter_next (&it, "(&s&sdddd)", &name, &dtype, &max_abs, &max_ref, &rms, &rms_ref))
    {
      double rel = max_ref > 0 ? max_abs / max_ref : (max_abs > 0 ? INFINITY : 0);

      g_print (_ ("    %s (%s): max abs error %.3e (%.2e of max |cpu| %.3e), RMS error %.3e (%.2e of the cpu's RMS)\n"), name, dtype, max_abs,
               rel, max_ref, rms, rms_ref > 0 ? rms / rms_ref : 0.0);
      wb_dtype_default_tolerance (wb_dtype_from_shortname (dtype, -1), &rtol, &atol);
      worst = MAX (worst, rel / MAX (rtol, 1e-12));
    }
  /* within a tenth of the dtype's rtol of max |cpu|: what two correct implementations of one op differ by */
  g_print (worst <= 0.1 ? _ ("  that is round-off: the program after this call amplifies it (ill-conditioned there), the call is not wrong\n")
                        : _ ("  that is more than round-off: the call's GPU result is wrong\n"));
  return worst <= 0.1;
}

static int
bisect_run (Bisect *b, GError **error)
{
  Verdict all = { 0 }, none = { 0 }, mid = { 0 }, split = { 0 };
  g_autoptr (GVariant) check = NULL;
  guint    lo = 0, hi, m;
  int      rc = WB_EXIT_OK;
  gint64   t0 = g_get_monotonic_time ();
  gboolean ok;

  list_calls (b);
  m = hi = b->ordinals->len;
  g_print (_ ("bisect: %s, stage %s: %u calls, %u of them run kernels; judged as coverage run-gpu judges\n"), wb_case_get_name (b->c), b->stage->label,
           b->n_calls, m);
  if (!make_references (b, error))
    return wb_cli_report_error (*error);
  if (!probe (b, m, G_MAXUINT, NULL, &all, NULL, error))
    return wb_cli_report_error (*error);
  print_verdict (_ ("every call on the GPU"), &all);
  if (all.pass)
    {
      g_print (_ ("the GPU agrees: nothing to bisect\n"));
      verdict_clear (&all);
      return WB_EXIT_OK;
    }
  if (!probe (b, 0, G_MAXUINT, NULL, &none, NULL, error))
    return wb_cli_report_error (*error);
  print_verdict (_ ("every call on the cpu (in the runner)"), &none);
  if (!none.pass)
    {
      g_print (_ ("the runner's cpu executor disagrees too: the references are not a judge here\n"));
      verdict_clear (&all), verdict_clear (&none);
      return WB_EXIT_CHECK_FAILED;
    }
  while (hi - lo > 1)
    {
      guint            k = lo + (hi - lo) / 2;
      g_autofree char *what = g_strdup_printf (_ ("[%u] calls #0-#%u on the GPU"), b->probes - 1, g_array_index (b->ordinals, guint, k - 1));

      if (!probe (b, k, G_MAXUINT, NULL, &mid, NULL, error))
        return wb_cli_report_error (*error);
      print_verdict (what, &mid);
      if (mid.pass)
        lo = k;
      else
        hi = k;
      verdict_clear (&mid);
    }
  m = g_array_index (b->ordinals, guint, hi - 1);
  print_call (b, m);
  /* that call's outputs against the cpu executor's on the same inputs: a wrong result, or round-off that
   * the program after it amplifies */
  if (!probe (b, hi, m, NULL, &mid, &check, error))
    return wb_cli_report_error (*error);
  verdict_clear (&mid);
  /* round-off: one kernel per op would be judged by the same amplification, and say nothing of the call */
  if (print_check (check))
    {
      g_print (_ ("%u runs in %.1f s\n"), b->probes, (g_get_monotonic_time () - t0) / 1e6);
      verdict_clear (&all), verdict_clear (&none);
      return rc;
    }
  /* the same split, the call's ops one kernel each */
  ok = probe (b, hi, m, wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_CUDA)), &split, NULL, error);
  if (!ok)
    return wb_cli_report_error (*error);
  print_verdict (_ ("the same, that call on executor cuda (one kernel per op)"), &split);
  {
    const WbBsym *call = wb_program_get_call (b->program, m, NULL);

    if (!split.pass)
      g_print (_ ("it is wrong one kernel per op too: the kernel or library call of one of its ops is wrong\n"));
    else if (wb_bsym_is_fusion (call))
      g_print (_ ("its ops are right one kernel each: the fused kernel is wrong (`export --as cuda --region %s` shows it)\n"), call->name);
    else
      g_print (_ ("it is right one kernel per op: the path the GPU's executor took for it (a library call, a fused kernel) is wrong\n"));
  }
  g_print (_ ("%u runs in %.1f s\n"), b->probes, (g_get_monotonic_time () - t0) / 1e6);
  verdict_clear (&all), verdict_clear (&none), verdict_clear (&split);
  return rc;
}

int
wb_cli_command_bisect (int    argc,
                       char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  g_auto (GStrv) stage_v = NULL;
  g_auto (GStrv) inputs_v = NULL;
  g_autofree char *stage_arg = NULL;
  g_autofree char *inputs_path = NULL;
  g_autofree char *default_executor = NULL;
  g_autofree char *device = NULL;
  g_autoptr (WbCase) c = NULL;
  gint64       seed = 0;
  GOptionEntry entries[] = {
    { "stage", 0, 0, G_OPTION_ARG_STRING_ARRAY, &stage_v, N_ ("Entry K of `stages PATH`, or a stage label (default: the final forward, with its backward)"), "K" },
    { "inputs", 0, 0, G_OPTION_ARG_STRING_ARRAY, &inputs_v, N_ ("Take inputs from a safetensors file (cotangents are drawn with --seed)"), "F" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_ ("Seed of the drawn inputs, cotangents and random ops (default 0)"), "N" },
    { "default-executor", 0, 0, G_OPTION_ARG_STRING, &default_executor, N_ ("The GPU executor of every call on the GPU (default: the registry's)"), "EXEC" },
    { NULL },
  };
  Bisect b = { 0 };
  int    rc;

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  g_set_prgname ("thunder-wb --headless bisect");
  context = g_option_context_new ("PATH");
  g_option_context_set_summary (context, _ ("Finds the first call of a stage whose GPU result makes the program's results disagree with the cpu executor's\n"
                                            "(judged against the program in f64, as coverage run-gpu judges): runs with the first k calls on the GPU\n"
                                            "and the rest on the cpu, halving k, then tries that call one kernel per op."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      return wb_cli_usage_error ("%s", error->message);
    }
  g_set_prgname ("thunder-wb");
  if (g_strv_length (args) != 2)
    return wb_cli_usage_error (_ ("“%s” takes one PATH"), "bisect");
  if (wb_cli_option_once ("--stage", stage_v, &stage_arg) || wb_cli_option_once ("--inputs", inputs_v, &inputs_path))
    return WB_EXIT_BAD_INPUT;
  if (wb_cli_check_runnable_executor ("--default-executor", default_executor) != WB_EXIT_OK)
    return WB_EXIT_BAD_INPUT;
  b.path = args[1];
  b.default_executor = default_executor;
  if (!wb_cli_check_path (b.path, &error) || (c = wb_case_load (b.path, &error)) == NULL)
    return wb_cli_report_error (error);
  b.c = c;
  b.stage = wb_cli_pick_stage (c, stage_arg);
  if (b.stage == NULL)
    return wb_cli_usage_error (_ ("no stage “%s” in %s (see “thunder-wb --headless stages %s”)"), stage_arg ? stage_arg : "-", b.path, b.path);
  if (inputs_path && (b.input_file = wb_safetensors_load (inputs_path, &error)) == NULL)
    return wb_cli_report_error (error);
  if ((b.inputs = wb_case_make_inputs (c, b.input_file, (guint64) seed, &error)) == NULL || (b.program = wb_case_make_program (c, b.stage, &error)) == NULL)
    {
      g_clear_pointer (&b.input_file, wb_safetensors_free);
      bisect_clear (&b);
      return wb_cli_report_error (error);
    }
  if ((b.runner = wb_runner_new (&error)) == NULL || !wb_runner_probe (b.runner, &device, &error))
    {
      g_printerr ("thunder-wb: %s\n", error->message);
      g_clear_pointer (&b.input_file, wb_safetensors_free);
      bisect_clear (&b);
      return WB_EXIT_ENVIRONMENT;
    }
  g_print (_ ("on %s\n"), device);
  rc = bisect_run (&b, &error);
  g_clear_pointer (&b.input_file, wb_safetensors_free);
  bisect_clear (&b);
  return rc;
}
