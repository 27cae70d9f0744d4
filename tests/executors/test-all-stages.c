/* test-all-stages.c — every stage of every case in $WB_TRACES_DIR computes what the case's first trace
 * computes, from the same seeded inputs, within a tolerance per dtype; prints the table
 * case x stage x error
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Stages: every trace of the case folder (Thunder's, stages/, default_execs/, fallback/) and the
 * workbench's own recomputed stages (sub-set "workbench", wb_case_add_workbench_stages).
 * References: outputs against the first inference trace (forward_00); gradients against the first stage
 * that computes them (forward_04, the joint trace); a prologue's outputs against the inputs it must pass
 * on, an epilogue's against what it was given, a fusion region's against the fusion call of the stage
 * it was captured from. Error of a tensor = max |c - r| / max |r| (wb-compare.h); a stage passes when
 * every error is within the tolerance of its dtype (f32 1e-4, bf16 5e-2, f16 1e-2, f64 1e-10, integers
 * and b8 exact).
 *
 * Budget: the small cases run every stage. ce_loss, gpt2_block and llama_layer run at their traced
 * shapes (the traces hard-code them: reshape sizes, iota lengths, sdpa max_q), so by default only one
 * stage per group runs: forward_00 (the inference trace, reference) and the final forward + backward
 * (training: every Thunder pass between them folded in); their other stages are listed as "not run
 * (budget)". WB_EXECUTORS_FULL=1 runs everything (minutes per big stage on two cores).
 * WB_EXECUTORS_CASES=a,b restricts the cases; WB_EXECUTORS_STAGES=p,q the stages to labels starting with p
 * or q (the reference stages run regardless); WB_EXECUTORS_PROGRESS=1 also prints each row to stderr as
 * it is done. Stages that cannot run are in known_unsupported with the
 * reason their error must contain; anything else failing fails the test. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-test-common.h"
#include "wb-test-executors.h"

typedef struct
{
  const char *case_name;
  const char *stage_prefix; /* label prefix */
  const char *reason;       /* substring of the error */
} KnownUnsupported;

/* Stages that cannot run, each with the reason its error must give. */
static const KnownUnsupported known_unsupported[] = {
  { NULL, NULL, NULL },
};

static const char *big_cases[] = { "ce_loss", "gpt2_block", "llama_layer" };

static double
rel_tolerance (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
      return 1e-10;
    case WB_DTYPE_FLOAT32:
      return 1e-4;
    case WB_DTYPE_FLOAT16:
      return 1e-2;
    case WB_DTYPE_BFLOAT16:
      return 5e-2;
    default:
      return 0;
    }
}

static gboolean
is_big (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (big_cases); i++)
    if (strcmp (big_cases[i], name) == 0)
      return TRUE;
  return FALSE;
}

static const KnownUnsupported *
find_known (const char *case_name, const char *label)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_unsupported); i++)
    {
      const KnownUnsupported *k = &known_unsupported[i];
      if (k->case_name && strcmp (k->case_name, case_name) == 0 && g_str_has_prefix (label, k->stage_prefix))
        return k;
    }
  return NULL;
}

/* Compares @v with @ref; updates the worst error; FALSE when out of tolerance. */
static gboolean
check_value (WbRtValue *v, WbRtValue *ref, double *worst, GString *why, const char *name)
{
  WbCompareResult r;
  g_autoptr (GError) error = NULL;
  double tol;

  if (ref == NULL || ref->kind != WB_RT_TENSOR)
    return v == NULL || v->kind != WB_RT_TENSOR || ref != NULL;
  if (v == NULL || v->kind != WB_RT_TENSOR)
    {
      g_string_append_printf (why, "%s: no tensor; ", name);
      return FALSE;
    }
  if (v->tensor->dtype != ref->tensor->dtype)
    {
      g_string_append_printf (why, "%s: dtype %s, reference %s; ", name, wb_dtype_shortname (v->tensor->dtype),
                              wb_dtype_shortname (ref->tensor->dtype));
      return FALSE;
    }
  if (!wb_tensor_compare (v->tensor, ref->tensor, 0, 0, FALSE, &r, &error))
    {
      g_string_append_printf (why, "%s: %s; ", name, error->message);
      return FALSE;
    }
  tol = rel_tolerance (ref->tensor->dtype);
  *worst = MAX (*worst, r.rel);
  if (!(r.rel <= tol))
    {
      g_string_append_printf (why, "%s: error %.3g > %.3g; ", name, r.rel, tol);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  guint ok, failed, known, budget;
} Totals;

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static gboolean
matches_filter (char **prefixes, const char *label)
{
  for (guint i = 0; prefixes[i]; i++)
    if (g_str_has_prefix (label, prefixes[i]))
      return TRUE;
  return FALSE;
}

static void
row (GString *table, const char *name, const WbCaseStage *s, double ms, const char *out_s, const char *grad_s, const char *status)
{
  char ms_s[32] = "-";

  if (ms >= 0)
    g_snprintf (ms_s, sizeof ms_s, "%.1f", ms);
  g_string_append_printf (table, "%-22s %-62.62s %-9s %9s %10s %10s  %s\n", name, s ? s->label : "-",
                          s ? wb_program_kind_to_string (s->kind) : "-", ms_s, out_s, grad_s, status);
  /* also as it happens, to stderr, so that a run cut short still shows its rows */
  if (g_getenv ("WB_EXECUTORS_PROGRESS"))
    g_printerr ("# %-22s %-62.62s %-9s %9s %10s %10s  %s\n", name, s ? s->label : "-",
                s ? wb_program_kind_to_string (s->kind) : "-", ms_s, out_s, grad_s, status);
}

static void
run_case (const char *dir, const char *name, gboolean full, Totals *totals, GString *table)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = wb_case_load (dir, &error);
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_case_run_free);
  WbCaseRun *out_ref = NULL, *grad_ref = NULL;
  GPtrArray *stages;
  gboolean   big = is_big (name) && !full;
  g_auto (GStrv) filter = g_getenv ("WB_EXECUTORS_STAGES") ? g_strsplit (g_getenv ("WB_EXECUTORS_STAGES"), ",", -1) : NULL;
  WbRunOptions options;

  if (c == NULL)
    {
      g_autofree char *status = g_strdup_printf ("no traces: %s", error->message);
      row (table, name, NULL, -1, "-", "-", status);
      /* a case folder without traces (Thunder failed: misc_tensor_repeats) is reported, not run */
      g_assert_true (g_error_matches (error, WB_TRACE_ERROR, WB_TRACE_ERROR_EMPTY));
      totals->known++;
      return;
    }
  /* the workbench's own recomputed stages (compiler/wb-pipeline.h) run too, sub-set "workbench" */
  if (!wb_case_add_workbench_stages (c, &error))
    {
      g_autofree char *status = g_strdup_printf ("FAIL workbench stages not recomputed: %s", error->message);
      row (table, name, NULL, -1, "-", "-", status);
      totals->failed++;
      g_clear_error (&error);
    }
  inputs = wb_case_make_inputs (c, NULL, 1234, &error);
  g_assert_no_error (error);
  wb_run_options_init (&options);
  options.seed = 1234;
  options.check_shapes = TRUE;
  stages = wb_case_get_stages (c);
  for (guint i = 0; i < stages->len; i++)
    {
      const WbCaseStage      *s = stages->pdata[i];
      const KnownUnsupported *known = find_known (name, s->label);
      WbCaseRun              *run;
      g_autoptr (GString) why = g_string_new (NULL);
      g_autoptr (GString) status = g_string_new (NULL);
      double   out_err = 0, grad_err = 0;
      gboolean ok = TRUE, has_outs = FALSE, has_grads = FALSE;
      char     out_s[32] = "-", grad_s[32] = "-";

      if (filter != NULL && !matches_filter (filter, s->label) &&
          !(out_ref == NULL && s->kind == WB_PROGRAM_INFERENCE && s->subset[0] == '\0') &&
          !(grad_ref == NULL && (s->kind == WB_PROGRAM_JOINT || s->kind == WB_PROGRAM_TRAINING) && s->subset[0] == '\0'))
        {
          row (table, name, s, -1, "-", "-", "not run (WB_EXECUTORS_STAGES filter)");
          totals->budget++;
          continue;
        }
      if (big)
        {
          gboolean first = out_ref == NULL && s->kind == WB_PROGRAM_INFERENCE && s->subset[0] == '\0';
          gboolean final = s == wb_case_get_default_stage (c);
          if (!first && !final && s->kind != WB_PROGRAM_PROLOGUE)
            {
              row (table, name, s, -1, "-", "-", "not run (budget: WB_EXECUTORS_FULL=1)");
              totals->budget++;
              continue;
            }
        }
      g_clear_error (&error);
      run = wb_case_run_stage (c, s, inputs, NULL, &options, &error);
      if (run == NULL)
        {
          if (known && strstr (error->message, known->reason))
            {
              g_string_printf (status, "known unsupported: %s", known->reason);
              totals->known++;
            }
          else
            {
              g_string_printf (status, "FAIL %s", error->message);
              totals->failed++;
            }
          row (table, name, s, -1, "-", "-", status->str);
          continue;
        }
      g_ptr_array_add (owned, run);
      g_assert_null (known); /* a known-unsupported stage that now runs: update the list */

      if (run->reference != NULL)
        for (guint k = 0; k < run->reference->len && k < run->result->outputs->len; k++)
          {
            g_autofree char *n = g_strdup_printf ("output.%u", k);
            ok &= check_value (run->result->outputs->pdata[k], run->reference->pdata[k], &out_err, why, n);
            has_outs = TRUE;
          }
      else if (s->kind == WB_PROGRAM_INFERENCE || s->kind == WB_PROGRAM_JOINT || s->kind == WB_PROGRAM_TRAINING)
        {
          if (out_ref == NULL && s->kind == WB_PROGRAM_INFERENCE && s->subset[0] == '\0')
            out_ref = run;
          if (grad_ref == NULL && run->result->grads->len > 0 && s->subset[0] == '\0')
            grad_ref = run;
          for (guint k = 0; k < run->names->len; k++)
            {
              const char *n = run->names->pdata[k];
              gboolean    is_grad = g_str_has_prefix (n, "grad.");
              WbCaseRun  *refrun = is_grad ? grad_ref : out_ref;
              WbRtValue  *ref = refrun ? wb_case_run_lookup (refrun, n) : NULL;
              if (ref == NULL)
                continue;
              if (is_grad)
                ok &= check_value (run->values->pdata[k], ref, &grad_err, why, n), has_grads = TRUE;
              else
                ok &= check_value (run->values->pdata[k], ref, &out_err, why, n), has_outs = TRUE;
            }
        }
      if (has_outs)
        g_snprintf (out_s, sizeof out_s, "%.2e", out_err);
      if (has_grads)
        g_snprintf (grad_s, sizeof grad_s, "%.2e", grad_err);
      g_string_append (status, !ok ? "FAIL" : (!has_outs && !has_grads) ? "ran (no reference)"
                                                                        : "ok");
      if (run == out_ref)
        g_string_append (status, " (reference for outputs)");
      if (run == grad_ref)
        g_string_append (status, " (reference for gradients)");
      if (why->len)
        g_string_append_printf (status, ": %s", why->str);
      if (run->note)
        g_string_append_printf (status, " [%s]", run->note);
      row (table, name, s, run->ns / 1e6, out_s, grad_s, status->str);
      if (ok)
        totals->ok++;
      else
        totals->failed++;
    }
}

static void
test_all_stages (void)
{
  const char *traces = wb_test_traces_dir ();
  const char *only = g_getenv ("WB_EXECUTORS_CASES");
  gboolean    full = g_strcmp0 (g_getenv ("WB_EXECUTORS_FULL"), "1") == 0;
  g_auto (GStrv) wanted = only ? g_strsplit (only, ",", -1) : NULL;
  g_autoptr (GString) table = g_string_new (NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = NULL;
  const char *n;
  Totals      totals = { 0 };

  if (traces == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR (../shared/traces)");
      return;
    }
  d = g_dir_open (traces, 0, NULL);
  g_assert_nonnull (d);
  while ((n = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (traces, n, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR) && (wanted == NULL || g_strv_contains ((const char *const *) wanted, n)))
        g_ptr_array_add (names, g_strdup (n));
    }
  g_ptr_array_sort (names, compare_names);
  g_string_append_printf (table, "%-22s %-62s %-9s %9s %10s %10s  %s\n", "case", "stage", "kind", "ms",
                          "out err", "grad err", "status");
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *p = g_build_filename (traces, names->pdata[i], NULL);
      gint64           t0 = g_get_monotonic_time ();
      run_case (p, names->pdata[i], full, &totals, table);
      g_printerr ("# %s: %.1f s\n", (char *) names->pdata[i], (g_get_monotonic_time () - t0) / 1e6);
    }
  g_string_append_printf (table, "\n%u ok, %u failed, %u known unsupported or without traces, %u not run (budget)%s\n",
                          totals.ok, totals.failed, totals.known, totals.budget,
                          full ? "" : "; WB_EXECUTORS_FULL=1 runs every stage of the big cases");
  /* the table goes to stdout as TAP comments so that `meson test -v` shows it */
  {
    g_auto (GStrv) lines = g_strsplit (table->str, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      if (lines[i][0])
        g_print ("# %s\n", lines[i]);
  }
  g_assert_cmpuint (totals.failed, ==, 0);
  g_assert_cmpuint (totals.ok, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/executors/all-stages", test_all_stages);
  return g_test_run ();
}
