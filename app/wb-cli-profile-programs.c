/* wb-cli-profile-programs.c — `profile` of a folder of several sub-programs (ThunderFX's subgraphs): each in
 * turn, each one's report in its own folder, and their summary (data/wb-report-programs.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A model that torch.compile split (CASE/thunderfx_g0_GraphModule, CASE/thunderfx_g0_GraphModule_1, ...) is
 * several programs, each with its own traces and inputs. Each is profiled as `profile CASE/<name>` would: the
 * same profiling job and options (device, iterations, warm-up, CUDA graphs, executors, --session), its default
 * stage; a sub-program that fails is a row with its error and the others still run. --report F and
 * --chrome-trace F put each sub-program's own report in DIR/<name>/BASENAME (DIR, BASENAME: F's) and the
 * summary in F; without --report each sub-program's Markdown report is printed, then the summary.
 * --save-outputs F likewise writes DIR/<name>/BASENAME, and --inputs F reads it (CASE/tensors.safetensors:
 * each sub-program's recorded inputs). Exit: 0 when every sub-program ran, else the first
 * failure's code (2 bad input, 3 environment, as `profile` of that folder would).
 * On the GPU one runner serves them in turn (wb_profile_job_set_runner): each new runner process would pay
 * for its CUDA context, library handles and modules again. A sub-program whose run fails or kills it hands
 * on none, and the next starts a fresh one; WB_RUNNER_PER_PROGRAM=1 starts one per sub-program (to compare). */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "wb-cli-profile-private.h"
#include "wb-cli-run.h"

/* "NAME/forward_07.py + backward_00.py": the stage's files, relative to the folder of the sub-programs */
static char *
stage_files (WbCase *c, const WbCaseStage *stage, const char *dir, const char *name)
{
  WbTraceSet *set = wb_case_get_trace_set (c);
  int         entries[2] = { stage->entry, stage->backward_entry };
  GString    *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      const WbTraceEntry *e = entries[i] >= 0 && (guint) entries[i] < wb_trace_set_get_n_entries (set)
                                  ? wb_trace_set_get_entry (set, (guint) entries[i])
                                  : NULL;
      const char         *rel;

      if (e == NULL || e->path == NULL)
        continue;
      rel = g_str_has_prefix (e->path, dir) && G_IS_DIR_SEPARATOR (e->path[strlen (dir)]) ? e->path + strlen (dir) + 1 : e->path;
      if (s->len == 0)
        g_string_append_printf (s, "%s/%s", name, rel);
      else
        g_string_append_printf (s, " + %s", rel);
    }
  if (s->len == 0)
    g_string_append_printf (s, "%s/%s", name, stage->label);
  return g_string_free (s, FALSE);
}

/* Loads sub-program @name (p->path) and picks its default stage, as `profile` of its folder does, except that a
 * trace file that did not parse fails it (wb_cli_case_failure) rather than profiling an earlier stage; -1 or
 * the exit code with @error set. */
static int
load_program (ProfileOptions *o, WbCase *parent, Profiling *p, const char *name, WbProgramRow *row, GError **error)
{
  const char *failure;

  /* the traces the folder's load parsed already, not parsed again */
  if ((p->c = parent != NULL ? wb_case_load_subset (parent, name, error) : wb_case_load (p->path, error)) == NULL)
    return wb_cli_exit_code (*error);
  if ((failure = wb_cli_case_failure (p->c)) != NULL)
    {
      g_set_error_literal (error, WB_TRACE_ERROR, WB_TRACE_ERROR_SYNTAX, failure);
      return WB_EXIT_BAD_INPUT;
    }
  if (o->recompile && !wb_case_add_workbench_stages (p->c, error))
    return wb_cli_exit_code (*error);
  if ((p->stage = wb_case_get_default_stage (p->c)) == NULL)
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_EMPTY, "%s: no stage to profile", p->path);
      return WB_EXIT_BAD_INPUT;
    }
  row->stage = g_strdup (p->stage->label);
  row->stage_file = stage_files (p->c, p->stage, p->path, name);
  if ((p->program = wb_case_make_program (p->c, p->stage, error)) == NULL)
    return wb_cli_exit_code (*error);
  if (o->inputs != NULL && (p->tensors = wb_safetensors_load (o->inputs, error)) == NULL)
    return WB_EXIT_BAD_INPUT;
  return -1;
}

/* Its own report (and Chrome trace, saved outputs) under DIR/@name/ of each file asked; an exit code, -1 ok */
static int
write_program_report (ProfileOptions *o, Profiling *p, WbProfileJob *job, WbRun *run, const char *name, WbProgramRow *row)
{
  ProfileOptions ro = *o;
  guint          n = o->reports ? g_strv_length (o->reports) : 0;
  g_auto (GStrv) reports = g_new0 (char *, n + 1);
  g_autofree char *chrome = NULL, *save = NULL;
  g_autoptr (GError) error = NULL;
  int code;

  for (guint i = 0; i < n; i++)
    if ((reports[i] = wb_cli_subprogram_file (o->reports[i], name, TRUE, &error)) == NULL)
      return wb_cli_report_error (error);
  if ((o->chrome_trace != NULL && (chrome = wb_cli_subprogram_file (o->chrome_trace, name, TRUE, &error)) == NULL) ||
      (o->save_outputs != NULL && (save = wb_cli_subprogram_file (o->save_outputs, name, TRUE, &error)) == NULL))
    return wb_cli_report_error (error);
  if (save != NULL && !_wb_cli_profile_save_outputs (job, save, &error))
    {
      row->error = g_strdup (error->message);
      return wb_cli_report_error (error);
    }
  ro.reports = n > 0 ? reports : NULL;
  ro.chrome_trace = chrome;
  if (n > 0)
    row->report_dir = g_strdup (name);
  code = _wb_cli_profile_report_run (&ro, p, job, run, NULL, NULL);
  return code == WB_EXIT_OK ? -1 : code;
}

/* Profiles sub-program @name of @path into @row: -1 when it ran, else its exit code (its error in @row);
 * *@fatal when the others cannot run either (no such device, a bad --executors, the session). *@runner
 * (inout, nullable): the GPU runner the previous sub-program left, taken by the job; on return the one the
 * next can use (wb_profile_job_steal_runner: none after a failed run). */
static int
profile_program (ProfileOptions *o, WbCase *parent, const char *path, const char *name, WbProgramRow *row, WbRunner **runner, gboolean *fatal)
{
  g_autofree char *dir = g_build_filename (path, name, NULL);
  g_auto (Profiling) p = { .path = dir, .label = o->label };
  g_autofree char *inputs = wb_cli_subprogram_file (o->inputs, name, FALSE, NULL);
  ProfileOptions   po = *o;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbRun) run = NULL;
  g_autoptr (GError) error = NULL;
  Progress progress = { 0 };
  int      code;

  po.inputs = inputs;
  o = &po;
  if ((code = load_program (o, parent, &p, name, row, &error)) >= 0)
    {
      row->error = g_strdup (error->message);
      g_printerr ("thunder-wb: profile: %s: %s\n", name, error->message);
      return code;
    }
  if (o->session != NULL && (p.session = wb_session_open (o->session, WB_SESSION_OPEN_CREATE, &error)) == NULL)
    {
      *fatal = TRUE;
      return wb_cli_report_session_error (error);
    }
  job = wb_profile_job_new (p.c, p.program, p.stage->label);
  wb_profile_job_set_runner (job, g_steal_pointer (runner));
  if ((code = _wb_cli_profile_configure_job (o, &p, job, &progress)) >= 0)
    {
      *fatal = TRUE;
      return code;
    }
  progress.start_us = g_get_monotonic_time ();
  progress.quiet = o->quiet;
  run = wb_profile_job_run (job, &error);
  *runner = wb_profile_job_steal_runner (job);
  if (wb_profile_job_measured_ceilings (job))
    _wb_cli_profile_store_gpu_ceilings (p.session, wb_profile_job_get_ceilings (job));
  if (run == NULL)
    {
      if (wb_profile_job_get_failed_run (job) != NULL)
        wb_program_row_set_run (row, wb_profile_job_get_failed_run (job));
      g_free (row->error);
      row->error = g_strdup (error->message);
      g_printerr ("thunder-wb: profile: %s: %s\n", name, error->message);
      if (wb_profile_job_get_runner_exit (job) > 0)
        return wb_profile_job_get_runner_exit (job);
      return error->domain == WB_RUNNER_ERROR ? WB_EXIT_ENVIRONMENT : _wb_cli_profile_executor_exit (error);
    }
  wb_program_row_set_run (row, run);
  if (p.store_error != NULL)
    {
      *fatal = TRUE;
      row->error = g_strdup (p.store_error->message);
      return wb_cli_report_session_error (p.store_error);
    }
  return write_program_report (o, &p, job, run, name, row);
}

/* The summary to every --report (the format its name says), else printed; an exit code, -1 ok */
static int
write_summary (ProfileOptions *o, GPtrArray *rows, const char *title)
{
  g_autoptr (GError) error = NULL;

  for (guint i = 0; o->reports != NULL && o->reports[i] != NULL; i++)
    {
      WbReportFormat format;

      wb_report_format_from_path (o->reports[i], &format);
      if (!wb_report_write_programs (rows, title, format, o->reports[i], &error))
        {
          g_printerr ("thunder-wb: --report: %s\n", error->message);
          return wb_cli_exit_code (error);
        }
    }
  if (o->reports == NULL || o->reports[0] == NULL)
    {
      g_autofree char *md = wb_report_programs_to_markdown (rows, title);

      wb_cli_write ("\n", 1);
      wb_cli_write (md, strlen (md));
    }
  return -1;
}

int
_wb_cli_profile_programs (ProfileOptions *o, WbCase *parent, const char *path, GPtrArray *names, WbRunner *early)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_program_row_free);
  g_autofree char *title = g_path_get_basename (path);
  int              exit_code = -1, code;
  gboolean         fatal = FALSE;
  gboolean         per_program = g_strcmp0 (g_getenv ("WB_RUNNER_PER_PROGRAM"), "1") == 0;
  g_autoptr (WbRunner) runner = early;

  for (guint i = 0; i < names->len && !fatal; i++)
    {
      const char   *name = names->pdata[i];
      WbProgramRow *row = wb_program_row_new (name);

      g_ptr_array_add (rows, row);
      if (!o->quiet)
        g_printerr ("profile: sub-program %u of %u: %s\n", i + 1, names->len, name);
      code = profile_program (o, parent, path, name, row, &runner, &fatal);
      if (per_program)
        g_clear_pointer (&runner, wb_runner_free);
      if (code >= 0 && code != WB_EXIT_OK && exit_code < 0)
        exit_code = code;
    }
  if (fatal)
    return exit_code;
  if ((code = write_summary (o, rows, title)) >= 0)
    return code;
  return exit_code < 0 ? WB_EXIT_OK : exit_code;
}
