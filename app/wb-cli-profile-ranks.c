/* wb-cli-profile-ranks.c — `profile` of a multi-GPU case (PATH/rank<N>/), --save-outputs
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cli-profile-private.h"

/* F.md -> F.rank1.md: a multi-GPU case writes one file per rank */
static char *
rank_path (const char *path, guint rank)
{
  const char *dot = strrchr (path, '.'), *slash = strrchr (path, '/');

  if (dot == NULL || (slash != NULL && dot < slash))
    return g_strdup_printf ("%s.rank%u", path, rank);
  return g_strdup_printf ("%.*s.rank%u%s", (int) (dot - path), path, rank, dot);
}

/* --save-outputs: the checked run's outputs (output.<i>) and gradients (grad.<flat argument>) */
gboolean
_wb_cli_profile_save_outputs (WbProfileJob *job, const char *save_path, GError **error)
{
  WbRunResult *r = wb_profile_job_get_checked_result (job);
  g_autoptr (WbSafetensors) out = wb_safetensors_new ();

  if (r == NULL)
    {
      g_set_error_literal (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "--save-outputs: only a run on cuda keeps its outputs");
      return FALSE;
    }
  for (guint i = 0; r->outputs != NULL && i < r->outputs->len; i++)
    {
      WbRtValue       *v = r->outputs->pdata[i];
      g_autofree char *n = g_strdup_printf ("output.%u", i);
      if (v->kind == WB_RT_TENSOR)
        wb_safetensors_add (out, n, v->tensor);
    }
  for (guint i = 0; r->grads != NULL && i < r->grads->len; i++)
    {
      WbRtValue       *v = r->grads->pdata[i];
      g_autofree char *n = g_strdup_printf ("grad.%s", i < r->flat_args->len ? (const char *) r->flat_args->pdata[i] : "?");
      if (v->kind == WB_RT_TENSOR)
        wb_safetensors_add (out, n, v->tensor);
    }
  wb_safetensors_set_metadata (out, "producer", "thunder-wb profile");
  if (!wb_safetensors_save (out, save_path, error))
    return FALSE;
  g_printerr ("profile: saved %u tensors to %s\n", wb_safetensors_get_n (out), save_path);
  return TRUE;
}

/* --session: rank 0's traces (the ranks run the same program on their shards) and every rank's run, one group
 * (WbRun.group: the app shows them with a rank selector); an exit code, -1 when stored. */
static int
store_ranks (const char *session_path, const char *rank0_path, GPtrArray *runs)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_session_open (session_path, WB_SESSION_OPEN_CREATE, &error);
  WbSessionImport imported = { 0 };

  if (session == NULL || !wb_session_import_path (session, rank0_path, &imported, &error))
    return wb_cli_report_session_error (error);
  for (guint r = 0; r < runs->len; r++)
    if (wb_session_store_run (session, runs->pdata[r], imported.trace_set_id, &error) == 0)
      return wb_cli_report_session_error (error);
  g_printerr ("profile: stored the %u ranks' runs in %s\n", runs->len, session_path);
  return -1;
}

/* The ranks side by side (data/wb-report-ranks.h): to every --report and --chrome-trace, else printed; an exit
 * code, -1 when all went well. */
static int
write_ranks_report (ProfileOptions *o, GPtrArray *runs, const char *title)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%s (%u ranks)", title, runs->len);

  for (guint i = 0; o->reports != NULL && o->reports[i] != NULL; i++)
    {
      WbReportFormat format;

      wb_report_format_from_path (o->reports[i], &format);
      if (!wb_report_write_ranks (runs, name, format, o->reports[i], &error))
        {
          g_printerr ("thunder-wb: --report: %s\n", error->message);
          return wb_cli_exit_code (error);
        }
    }
  if (o->chrome_trace != NULL && !wb_report_write_ranks (runs, name, WB_REPORT_FORMAT_CHROME_TRACE, o->chrome_trace, &error))
    {
      g_printerr ("thunder-wb: --chrome-trace: %s\n", error->message);
      return wb_cli_exit_code (error);
    }
  if (o->reports == NULL || o->reports[0] == NULL)
    {
      g_autofree char *md = wb_report_ranks_to_markdown (runs, name);
      wb_cli_write (md, strlen (md));
    }
  return -1;
}

/* --baseline of a multi-GPU case without --report: rank @r's gate against the baseline's rank @r, its failures
 * printed as a one-rank profile prints them; FALSE when it failed */
static gboolean
rank_gate (ProfileOptions *o, WbRun *baseline, WbRun *run, const char *label, guint r)
{
  g_autoptr (WbGate) gate = wb_gate_new (baseline, run, o->fail_above_set ? o->fail_above : 0);
  g_autofree char *failures = NULL;

  if (!gate->failed)
    return TRUE;
  failures = wb_gate_dup_failures (gate);
  g_printerr ("thunder-wb: regression gate failed on rank %u (--fail-above %g%% beyond the noise, baseline %s rank %u):\n%s\n", r,
              gate->fail_above_pct, label, r, failures);
  return FALSE;
}

/* A multi-GPU case: PATH/rank0 ... PATH/rank<N-1> (each rank's traces and inputs), one runner per GPU (see
 * wb-profile-group.h); each rank takes its recorded inputs (its share of the batch) unless --inputs names a file
 * (F.rankR.EXT for rank R when it exists, else F).
 * --report and --chrome-trace get the ranks side by side (wb-report-ranks.h) and, for --report, each rank's own
 * report as F.rankN.EXT; --save-outputs one file per rank (F.rankN.EXT); --baseline SESSION[:RUN] --fail-above
 * PCT holds each rank against the same rank of that multi-GPU run (a group of as many ranks: exit 1 when a
 * rank's gate fails, after the reports and the session are written). */
/* Rank folders that hold several entries (ThunderFX's subgraphs: CASE/rank<N>/<ENTRY>/, each a case of its own
 * with its prologue and inputs): --stage ENTRY/LABEL runs folder ENTRY of every rank at stage LABEL. Returns the
 * ranks' folders (transfer full) and sets *@stage to LABEL; NULL when --stage does not name an entry. */
static char **
entry_dirs (const ProfileOptions *o, const char *const *dirs, const char **stage)
{
  const char      *slash = o->stage != NULL ? strchr (o->stage, '/') : NULL;
  g_autofree char *entry = slash != NULL ? g_strndup (o->stage, slash - o->stage) : NULL;
  g_autofree char *first = entry != NULL ? g_build_filename (dirs[0], entry, NULL) : NULL;
  guint            n = g_strv_length ((char **) dirs);
  char           **out;

  if (first == NULL || entry[0] == '\0' || strchr (slash + 1, '/') != NULL || !g_file_test (first, G_FILE_TEST_IS_DIR))
    return NULL;
  out = g_new0 (char *, n + 1);
  for (guint r = 0; r < n; r++)
    out[r] = g_build_filename (dirs[r], entry, NULL);
  *stage = slash + 1;
  return out;
}

int
_wb_cli_profile_ranks (ProfileOptions *o, const char *const *dirs)
{
  guint       n = g_strv_length ((char **) dirs);
  const char *entry_stage = NULL;
  g_auto (GStrv) entries = entry_dirs (o, dirs, &entry_stage);
  g_autoptr (GPtrArray) jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_profile_job_free);
  g_autofree Profiling *ps = g_new0 (Profiling, n);
  g_autofree Progress  *progress = g_new0 (Progress, n);
  g_autoptr (GPtrArray) runs = NULL;
  g_autoptr (GPtrArray) base_runs = NULL;
  g_autofree char *base_label = NULL;
  g_autoptr (GError) error = NULL;
  int      exit_code = -1;
  gboolean gate_failed = FALSE;

  ProfileOptions co = *o; /* a multi-GPU case runs on the GPUs: cuda unless asked otherwise */

  /* --baseline: a multi-GPU run of as many ranks, read before this run is stored (it may be the same session) */
  if (o->baseline != NULL)
    {
      g_autoptr (WbRun) picked = _wb_cli_profile_load_baseline (o->baseline, &base_label, &base_runs, &error);

      if (picked == NULL)
        return wb_cli_report_session_error (error);
      if (base_runs->len != n)
        return wb_cli_usage_error (_ ("--baseline %s: a case of %u ranks compares with a multi-GPU run of %u ranks, not one of %u"), base_label, n,
                                   n, MAX (base_runs->len, 1));
    }
  if (o->device != NULL && g_str_has_prefix (o->device, "cpu"))
    return wb_cli_usage_error (_ ("a case of %u ranks runs on %u GPUs, one per rank (the cpu runs one rank: profile %s)"), n,
                               n, dirs[0]);
  if (co.device == NULL)
    co.device = (char *) "cuda";
  if (entries != NULL)
    {
      co.stage = (char *) entry_stage;
      dirs = (const char *const *) entries;
    }
  o = &co;
  for (guint r = 0; r < n && exit_code < 0; r++)
    {
      WbProfileJob *job;

      ProfileOptions   ro = *o;
      g_autofree char *inputs = o->inputs ? rank_path (o->inputs, r) : NULL;

      /* --inputs F: rank r reads F.rankR.EXT when there is one (each rank's share), else F */
      if (inputs != NULL && g_file_test (inputs, G_FILE_TEST_EXISTS))
        ro.inputs = inputs;
      ps[r].path = dirs[r];
      ps[r].label = o->label;
      if ((exit_code = _wb_cli_profile_load_case (&ro, &ps[r])) >= 0)
        break;
      job = wb_profile_job_new (ps[r].c, ps[r].program, ps[r].stage->label);
      g_ptr_array_add (jobs, job);
      wb_profile_job_set_cuda_device (job, (int) r);
      progress[r].quiet = o->quiet || r > 0;
      progress[r].start_us = g_get_monotonic_time ();
      if ((exit_code = _wb_cli_profile_configure_job (o, &ps[r], job, &progress[r])) >= 0)
        g_printerr ("thunder-wb: profile: rank %u of %u needs GPU %u (above)\n", r, n, r);
      if (ps[r].tensors == NULL)
        wb_profile_job_set_inputs (job, wb_case_get_reference (ps[r].c, NULL));
      wb_profile_job_set_store (job, NULL, NULL);
    }
  if (exit_code < 0 && (runs = wb_profile_group_run ((WbProfileJob **) jobs->pdata, n, &error)) == NULL)
    {
      g_printerr ("thunder-wb: profile: %s\n", error->message);
      exit_code = error->domain == WB_RUNNER_ERROR || error->domain == WB_PROFILE_ERROR ? WB_EXIT_ENVIRONMENT : _wb_cli_profile_executor_exit (error);
    }
  for (guint r = 0; exit_code < 0 && r < n; r++)
    {
      ProfileOptions ro = *o;
      g_auto (GStrv) reports = g_new0 (char *, o->reports ? g_strv_length (o->reports) + 1 : 1);
      g_autofree char *save = o->save_outputs ? rank_path (o->save_outputs, r) : NULL;

      for (guint i = 0; o->reports != NULL && o->reports[i] != NULL; i++)
        reports[i] = rank_path (o->reports[i], r);
      ro.reports = reports;
      if (save != NULL && !_wb_cli_profile_save_outputs (jobs->pdata[r], save, &error))
        {
          g_printerr ("thunder-wb: %s\n", error->message);
          exit_code = WB_EXIT_ENVIRONMENT;
          break;
        }
      /* each rank's own report beside the ranks' one: F.rankR.EXT, with its rank's gate */
      ro.chrome_trace = NULL;
      if (o->reports != NULL && o->reports[0] != NULL)
        {
          g_autofree char *label = base_runs ? g_strdup_printf ("%s (rank %u)", base_label, r) : NULL;

          exit_code = _wb_cli_profile_report_run (&ro, &ps[r], jobs->pdata[r], runs->pdata[r], base_runs ? base_runs->pdata[r] : NULL, label);
          gate_failed |= exit_code == WB_EXIT_CHECK_FAILED;
          if (exit_code == WB_EXIT_OK || exit_code == WB_EXIT_CHECK_FAILED)
            exit_code = -1;
        }
      else if (base_runs != NULL)
        gate_failed |= !rank_gate (o, base_runs->pdata[r], runs->pdata[r], base_label, r);
    }
  if (exit_code < 0 && o->session != NULL)
    exit_code = store_ranks (o->session, ps[0].path, runs);
  if (exit_code < 0)
    exit_code = write_ranks_report (o, runs, wb_case_get_name (ps[0].c));
  for (guint r = 0; r < n; r++)
    _wb_cli_profile_clear (&ps[r]);
  if (exit_code < 0 && gate_failed)
    return WB_EXIT_CHECK_FAILED;
  return exit_code < 0 ? WB_EXIT_OK : exit_code;
}
