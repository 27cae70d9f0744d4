/* wb-cli-profile.c — `thunder-wb --headless profile PATH`: run a stage warm-up + N timed iterations, per
 * region times, reports, session storage and the regression gate
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wb-cli-cuda.h"
#include "wb-cli-profile-private.h"
#include "wb-cli-run.h"
#include "wb-cli.h"
#include "wb-data.h"

static void
profile_options_clear (ProfileOptions *o)
{
  g_free (o->device);
  g_free (o->executors);
  g_free (o->default_executor);
  g_free (o->session);
  g_strfreev (o->reports);
  g_free (o->chrome_trace);
  g_free (o->baseline);
  g_free (o->stage);
  g_free (o->inputs);
  g_free (o->label);
  g_free (o->save_outputs);
}

static gboolean
parse_fail_above (const char *name, const char *value, gpointer data, GError **error)
{
  ProfileOptions  *o = data;
  char            *end = NULL;
  g_autofree char *text = g_strstrip (g_strdup (value));

  if (o->fail_above_set)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("%s given more than once: give it once"), name);
      return FALSE;
    }
  if (g_str_has_suffix (text, "%"))
    text[strlen (text) - 1] = '\0';
  o->fail_above = g_ascii_strtod (text, &end);
  if (text[0] == '\0' || end == NULL || *end != '\0' || !isfinite (o->fail_above) || !(o->fail_above >= 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("--fail-above takes a finite percentage >= 0, not “%s”"), value);
      return FALSE;
    }
  o->fail_above_set = TRUE;
  return TRUE;
}

/* --iters N and --warmup N: given once, within bounds that a run can finish (a million timed
 * iterations, a hundred thousand untimed ones). */
static gboolean
parse_count (const char *name, const char *value, gboolean *set, gint64 min, gint64 max, int *out, GError **error)
{
  gint64 v = 0;

  if (*set)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("%s given more than once: give it once"), name);
      return FALSE;
    }
  if (!wb_cli_parse_int_option (name, value, min, max, &v, error))
    return FALSE;
  *out = (int) v;
  *set = TRUE;
  return TRUE;
}

static gboolean
parse_iters (const char *name, const char *value, gpointer data, GError **error)
{
  ProfileOptions *o = data;
  return parse_count (name, value, &o->iters_set, 1, 1000000, &o->iters, error);
}

static gboolean
parse_warmup (const char *name, const char *value, gpointer data, GError **error)
{
  ProfileOptions *o = data;
  return parse_count (name, value, &o->warmup_set, 0, 100000, &o->warmup, error);
}

/* Two outputs naming one file would overwrite each other: every --report and --chrome-trace must
 * differ (wb_cli_same_file()). Returns WB_EXIT_OK or a usage error. */
static int
check_distinct_outputs (const ProfileOptions *o)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autoptr (GPtrArray) opts = g_ptr_array_new ();

  for (guint i = 0; o->reports != NULL && o->reports[i] != NULL; i++)
    {
      g_ptr_array_add (outs, o->reports[i]);
      g_ptr_array_add (opts, (gpointer) "--report");
    }
  if (o->chrome_trace != NULL)
    {
      g_ptr_array_add (outs, o->chrome_trace);
      g_ptr_array_add (opts, (gpointer) "--chrome-trace");
    }
  for (guint i = 0; i < outs->len; i++)
    for (guint j = i + 1; j < outs->len; j++)
      if (wb_cli_same_file (outs->pdata[i], outs->pdata[j]))
        return wb_cli_usage_error (_ ("%s %s and %s %s name the same file: one would overwrite the other"), (char *) opts->pdata[i],
                                   (char *) outs->pdata[i], (char *) opts->pdata[j], (char *) outs->pdata[j]);
  return WB_EXIT_OK;
}

/* -- progress ------------------------------------------------------------------------------------ */

static void
on_progress (WbProfilePhase phase, guint done, guint total, gint64 iteration_ns, gpointer user_data)
{
  Progress        *p = user_data;
  gint64           now = g_get_monotonic_time ();
  g_autofree char *left = NULL;

  /* long runs only: after 2 s, at most once a second, and always the last of each phase once started */
  if (p->quiet || now - p->start_us < 2 * G_USEC_PER_SEC)
    return;
  if (now - p->last_us < G_USEC_PER_SEC && !(done == total && p->last_us > 0))
    return;
  p->last_us = now;
  /* what is left of the phase at the last iteration's pace (the GPU's phases: the runner's wall time) */
  if (iteration_ns > 0 && done < total)
    left = g_strdup_printf (", about %.1f s left in this phase", (double) iteration_ns * (total - done) / 1e9);
  g_printerr ("profile: %s %u/%u (%.1f ms%s)\n", wb_profile_phase_to_string (phase), done, total, iteration_ns / 1e6, left ? left : "");
}

/* -- loading ------------------------------------------------------------------------------------- */

static gboolean
is_session_file (const char *path)
{
  return g_str_has_suffix (path, ".wbsession") || wb_session_file_has_header (path);
}

/* The latest trace set of @session as a case (wb_case_new_for_set: no folder is written), its id and name. */
static WbCase *
session_case (WbSession *session, gint64 *trace_set_id, char **set_name, GError **error)
{
  g_autoptr (GPtrArray) sets = wb_session_list_trace_sets (session, error);
  const WbSessionTraceSet *last;
  WbTraceSet              *set;

  if (sets == NULL)
    return NULL;
  if (sets->len == 0)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND, "%s: the session holds no traces (import some with “import PATH --session F”)",
                   wb_session_get_path (session));
      return NULL;
    }
  last = sets->pdata[sets->len - 1];
  if ((set = wb_session_load_trace_set (session, last->id, error)) == NULL)
    return NULL;
  *trace_set_id = last->id;
  *set_name = g_strdup (last->name);
  return wb_case_new_for_set (set, last->name ? last->name : "session");
}

/* -- ceilings ------------------------------------------------------------------------------------ */

static WbDeviceCeilings *
get_ceilings (WbSession *session, gboolean quiet)
{
  g_autofree char *model = wb_cpu_device_model ();
  g_autoptr (GError) error = NULL;
  WbDeviceCeilings *c = NULL;

  if (session != NULL)
    {
      c = wb_session_lookup_ceilings (session, model, &error);
      if (c != NULL)
        return c;
      g_clear_error (&error);
    }
  c = wb_ceilings_cache_lookup (model);
  if (c == NULL)
    {
      if (!quiet)
        g_printerr ("profile: measuring the ceilings of %s (once per CPU model; cached in %s)\n", model,
                    session ? wb_session_get_path (session) : "$XDG_CACHE_HOME/thunder-wb");
      c = wb_ceilings_measure_cpu (&error);
      if (c == NULL)
        {
          g_printerr ("profile: %s: no GB/s and TFLOP/s percentages\n", error->message);
          return NULL;
        }
      if (!wb_ceilings_cache_store (c, &error))
        {
          g_printerr ("profile: cannot cache the ceilings: %s\n", error->message);
          g_clear_error (&error);
        }
    }
  if (session != NULL && !wb_session_store_ceilings (session, c, &error))
    g_printerr ("profile: cannot store the ceilings in the session: %s\n", error->message);
  return c;
}

/* The GPU's ceilings from the session or the cache; NULL when they must be measured (by the runner). */
static WbDeviceCeilings *
lookup_gpu_ceilings (WbSession *session, const char *model)
{
  g_autoptr (GError) error = NULL;
  WbDeviceCeilings *c = NULL;

  if (session != NULL && (c = wb_session_lookup_ceilings (session, model, &error)) != NULL)
    return c;
  if ((c = wb_ceilings_cache_lookup (model)) != NULL && session != NULL && !wb_session_store_ceilings (session, c, &error))
    g_printerr ("profile: cannot store the ceilings in the session: %s\n", error->message);
  return c;
}

void
_wb_cli_profile_store_gpu_ceilings (WbSession *session, const WbDeviceCeilings *c)
{
  g_autoptr (GError) error = NULL;

  if (!wb_ceilings_cache_store (c, &error))
    {
      g_printerr ("profile: cannot cache the ceilings: %s\n", error->message);
      g_clear_error (&error);
    }
  if (session != NULL && !wb_session_store_ceilings (session, c, &error))
    g_printerr ("profile: cannot store the ceilings in the session: %s\n", error->message);
}

/* -- baseline ------------------------------------------------------------------------------------ */

/* SESSION[:RUN] -> the run (summary); with @group (nullable), the runs of that run's multi-GPU group too, by
 * rank (an empty array when it has none; transfer full). */
WbRun *
_wb_cli_profile_load_baseline (const char *spec, char **label, GPtrArray **group, GError **error)
{
  g_autofree char *path = g_strdup (spec);
  char            *colon = strrchr (path, ':');
  guint64          id = 0;
  g_autoptr (WbSession) session = NULL;
  WbRun *run;

  if (colon != NULL && colon[1] != '\0' && g_ascii_string_to_unsigned (colon[1] == '#' ? colon + 2 : colon + 1, 10, 1, G_MAXINT64, &id, NULL))
    *colon = '\0';
  else
    id = 0;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO, "%s: %s (--baseline)", path, g_strerror (ENOENT));
      return NULL;
    }
  /* a session of an older schema is migrated first (keeping its runs), as the app's window does */
  if ((session = wb_session_open (path, WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE, error)) == NULL)
    return NULL;
  if (id == 0)
    {
      g_autoptr (GPtrArray) runs = wb_session_list_runs (session, error);

      if (runs == NULL)
        return NULL;
      if (runs->len == 0)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND, "%s: the session has no runs to compare with (--baseline)", path);
          return NULL;
        }
      id = (guint64) ((const WbRun *) runs->pdata[runs->len - 1])->id;
    }
  run = wb_session_get_run (session, (gint64) id, WB_SESSION_READ_SUMMARY, error);
  if (run != NULL && group != NULL)
    *group = run->group != NULL ? wb_session_list_group_runs (session, run->group, WB_SESSION_READ_SUMMARY, error)
                                : g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  if (run != NULL && group != NULL && *group == NULL)
    g_clear_pointer (&run, wb_run_free);
  if (run != NULL)
    *label = g_strdup_printf ("%s:%" G_GUINT64_FORMAT, path, id);
  return run;
}

/* -- the command --------------------------------------------------------------------------------- */

int
_wb_cli_profile_executor_exit (const GError *error)
{
  return wb_cli_exit_code (error);
}

/* What one `profile` command holds while it runs. */

void
_wb_cli_profile_clear (Profiling *p)
{
  g_clear_pointer (&p->program, wb_program_unref);
  g_clear_pointer (&p->subprograms, g_ptr_array_unref);
  g_clear_pointer (&p->c, wb_case_free);
  g_clear_pointer (&p->source_session, wb_session_close);
  g_clear_pointer (&p->session, wb_session_close);
  g_clear_pointer (&p->tensors, wb_safetensors_free);
  g_free (p->set_name);
  g_clear_error (&p->store_error);
}

/* The job's store hook: the run (or the failed run) into the session, importing PATH first when the
 * session does not hold its traces yet. */
static gboolean
store_in_session (WbRun *run, gpointer data, GError **error)
{
  Profiling *p = data;

  if (p->session == NULL)
    return TRUE;
  if (run->label == NULL)
    run->label = g_strdup (p->label);
  if (p->trace_set_id == 0 && p->source_session == NULL)
    {
      WbSessionImport imported = { 0 };

      if (!wb_session_import_path (p->session, p->path, &imported, &p->store_error))
        {
          g_propagate_error (error, g_error_copy (p->store_error));
          return FALSE;
        }
      p->trace_set_id = imported.trace_set_id;
    }
  if (wb_session_store_run (p->session, run, p->trace_set_id, &p->store_error) == 0)
    {
      g_propagate_error (error, g_error_copy (p->store_error));
      return FALSE;
    }
  return TRUE;
}

static void
log_line (const char *line, gpointer data)
{
  if (!*(const gboolean *) data)
    g_printerr ("profile: %s\n", line);
}

/* Loads PATH (a case, a trace file or a session file: its latest trace set, no folder written) and picks
 * the stage; -1 or an exit code. */
int
_wb_cli_profile_load_case (ProfileOptions *o, Profiling *p)
{
  g_autoptr (GError) error = NULL;

  if (!wb_cli_check_path (p->path, &error))
    return wb_cli_report_error (error);
  if (is_session_file (p->path))
    {
      if ((p->source_session = wb_session_open (p->path, WB_SESSION_OPEN_DEFAULT, &error)) == NULL)
        return wb_cli_report_session_error (error);
      if ((p->c = session_case (p->source_session, &p->trace_set_id, &p->set_name, &error)) == NULL)
        return wb_cli_report_session_error (error);
    }
  else if ((p->c = wb_case_load (p->path, &error)) == NULL)
    return wb_cli_report_error (error);
  if (o->recompile && !wb_case_add_workbench_stages (p->c, &error))
    return wb_cli_report_error (error);
  if (o->stage != NULL)
    {
      guint64            entry = 0;
      const WbCaseStage *fallback = wb_case_get_default_stage (p->c);

      if (!g_ascii_string_to_unsigned (o->stage, 10, 0, G_MAXINT, &entry, NULL))
        p->stage = wb_case_find_stage (p->c, -1, o->stage);
      /* a backward entry pairs with several forwards (forward_05 and forward_06 both end in "Delete Last
       * Used"): prefer the default stage's */
      else if (fallback != NULL && (fallback->entry == (int) entry || fallback->backward_entry == (int) entry))
        p->stage = fallback;
      else
        p->stage = wb_case_find_stage (p->c, (int) entry, NULL);
      if (p->stage == NULL)
        return wb_cli_usage_error (_ ("--stage %s: no such entry or stage in %s (see “stages %s”)"), o->stage, p->path, p->path);
    }
  else if ((p->subprograms = wb_case_list_subprograms (p->c)) != NULL)
    {
      /* a folder of several sub-programs: profile_main profiles each in turn (wb-cli-profile-programs.c), unless
       * an option takes one program's run */
      const char      *option = o->baseline ? "--baseline" : p->source_session ? "profile SESSION"
                                                                               : NULL;
      g_autofree char *message = option ? wb_cli_ambiguous_default (p->c, p->path, option) : NULL;

      return message != NULL ? wb_cli_usage_error ("%s", message) : -1;
    }
  else if ((p->stage = wb_case_get_default_stage (p->c)) == NULL)
    return wb_cli_usage_error (_ ("%s: no stage to profile"), p->path);
  if ((p->program = wb_case_make_program (p->c, p->stage, &error)) == NULL)
    return wb_cli_report_error (error);
  if (o->inputs != NULL && (p->tensors = wb_safetensors_load (o->inputs, &error)) == NULL)
    {
      g_printerr ("thunder-wb: --inputs: %s\n", error->message);
      return WB_EXIT_BAD_INPUT;
    }
  return -1;
}

/* The device, the assignment, the options and the ceilings of the job; -1 or an exit code. */
int
_wb_cli_profile_configure_job (ProfileOptions *o, Profiling *p, WbProfileJob *job, Progress *progress)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) assignment = NULL;
  g_autoptr (WbDeviceCeilings) ceilings = NULL;
  WbProfileDevice  device;
  WbProfileOptions po;

  wb_profile_device_parse (o->device, &device);
  wb_profile_job_set_device (job, device);
  wb_profile_job_set_default_executor (job, o->default_executor);
  if (!wb_profile_job_choose_device (job, &error))
    {
      g_printerr ("thunder-wb: --device %s: %s\n", o->device, error->message);
      return wb_cli_exit_code (error);
    }
  if (device == WB_PROFILE_DEVICE_AUTO && wb_profile_job_get_device (job) == WB_PROFILE_DEVICE_CPU && !o->quiet)
    g_printerr ("profile: note: %s; profiling on cpu\n", wb_profile_job_get_device_reason (job));
  if ((assignment = wb_assignment_parse (o->executors, &error)) == NULL)
    {
      g_printerr ("thunder-wb: --executors: %s\n", error->message);
      return WB_EXIT_BAD_INPUT;
    }
  wb_profile_job_set_assignment (job, assignment);
  wb_profile_job_set_inputs (job, p->tensors);
  wb_profile_options_init (&po);
  po.iters = (guint) o->iters;
  po.warmup = (guint) o->warmup;
  po.seed = (guint64) o->seed;
  po.check_shapes = o->check_shapes;
  po.progress = on_progress;
  po.progress_data = progress;
  po.cuda_graphs = !o->no_cuda_graphs;
  po.memory_plan = o->memory_plan; /* off by default: on the H200 it raised resnet50's step peak (tests/bench/README.md) */
  po.allow_cpu_fallback = o->allow_cpu_fallback;
  po.allow_tf32 = o->allow_tf32;
  po.autotune = o->autotune;
  wb_profile_job_set_options (job, &po);
  wb_profile_job_set_store (job, store_in_session, p);
  wb_profile_job_set_log (job, log_line, &o->quiet);
  if (wb_profile_job_get_device (job) == WB_PROFILE_DEVICE_CUDA)
    {
      const char *model = wb_profile_job_get_device_model (job);

      ceilings = lookup_gpu_ceilings (p->session, model);
      if (ceilings == NULL && !o->quiet)
        g_printerr ("profile: measuring the ceilings of %s (once per GPU model; cached in %s)\n", model,
                    p->session ? wb_session_get_path (p->session) : "$XDG_CACHE_HOME/thunder-wb");
    }
  else
    ceilings = get_ceilings (p->session, o->quiet);
  wb_profile_job_set_ceilings (job, ceilings);
  return -1;
}

/* PyTorch's step peaks for the case in @dir (meta.json "timings": eager and torch_compile's
 * peak_minus_before_mb, the recorder's tools/zoo/record_case.py) into @run; nothing when absent */
static void
read_torch_peaks (const char *dir, WbRun *run)
{
  g_autofree char *path = dir ? g_build_filename (dir, "meta.json", NULL) : NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *keys[] = { "eager", "torch_compile" };
  gint64     *into[] = { &run->memory.torch_eager_peak_bytes, &run->memory.torch_compile_peak_bytes };
  JsonNode   *root;
  JsonObject *timings;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR) || !json_parser_load_from_file (parser, path, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      !json_object_has_member (json_node_get_object (root), "timings") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (root), "timings")))
    return;
  timings = json_object_get_object_member (json_node_get_object (root), "timings");
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      JsonNode *t = json_object_get_member (timings, keys[i]);
      if (t != NULL && JSON_NODE_HOLDS_OBJECT (t) && json_object_has_member (json_node_get_object (t), "peak_minus_before_mb"))
        *into[i] = (gint64) (json_object_get_double_member (json_node_get_object (t), "peak_minus_before_mb") * 1048576.0);
    }
}

/* The report of @run: written to the --report files and the Chrome trace, or printed; then the gate. */
int
_wb_cli_profile_report_run (ProfileOptions *o, Profiling *p, WbProfileJob *job, WbRun *run, WbRun *baseline, const char *baseline_label)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbReport) report = NULL;
  g_autoptr (WbGate) gate = NULL;
  g_autofree char *stage_text = wb_profile_dup_stage_text (wb_profile_job_get_profile (job));
  WbProfile       *profile = wb_profile_job_get_profile (job);
  GPtrArray       *notes = wb_profile_job_get_notes (job);

  if (run->device_step_peak_bytes > 0 && p->c != NULL)
    read_torch_peaks (wb_case_get_path (p->c), run);
  report = wb_report_new (run, wb_profile_job_get_ceilings (job), p->set_name ? p->set_name : wb_case_get_name (p->c), stage_text);
  for (guint i = 0; i < wb_profile_get_n_entries (profile); i++)
    wb_report_set_region_kind (report, wb_profile_get_entry_name (profile, i), wb_profile_get_entry_is_region (profile, i));
  {
    g_autoptr (GPtrArray) estimates = wb_profile_estimate_ops (profile, run, wb_profile_job_get_ceilings (job));

    wb_report_set_op_estimates (report, estimates);
  }
  for (guint i = 0; i < notes->len; i++)
    wb_report_add_note (report, notes->pdata[i]);
  if (o->cuda_graphs && wb_profile_job_get_device (job) != WB_PROFILE_DEVICE_CUDA)
    wb_report_add_note (report, "--cuda-graphs was ignored: the run is on cpu");
  if (o->allow_tf32)
    wb_report_add_note (report, wb_profile_job_get_device (job) == WB_PROFILE_DEVICE_CUDA
                                    ? "--allow-tf32: f32 convolutions may run in TF32 on tensor cores, as PyTorch lets cuDNN by default"
                                    : "--allow-tf32 was ignored: the run is on cpu");
  if (o->autotune && wb_profile_job_get_device (job) != WB_PROFILE_DEVICE_CUDA)
    wb_report_add_note (report, "--autotune was ignored: the run is on cpu");
  for (guint i = 0; i < wb_profile_job_get_warnings (job)->len; i++)
    wb_report_add_warning (report, wb_profile_job_get_warnings (job)->pdata[i]);
  if (p->session != NULL)
    {
      g_autofree char *note = g_strdup_printf ("stored as run #%" G_GINT64_FORMAT " in %s", run->id, wb_session_get_path (p->session));

      wb_report_add_note (report, note);
    }
  if (baseline != NULL)
    {
      gate = wb_gate_new (baseline, run, o->fail_above_set ? o->fail_above : 0);
      gate->baseline_label = g_strdup (baseline_label);
      wb_report_set_gate (report, gate);
    }
  for (guint i = 0; o->reports != NULL && o->reports[i] != NULL; i++)
    {
      WbReportFormat format;

      wb_report_format_from_path (o->reports[i], &format);
      if (!wb_report_write (report, format, o->reports[i], &error))
        {
          g_printerr ("thunder-wb: --report: %s\n", error->message);
          return wb_cli_exit_code (error);
        }
    }
  if (o->chrome_trace != NULL && !wb_report_write (report, WB_REPORT_FORMAT_CHROME_TRACE, o->chrome_trace, &error))
    {
      g_printerr ("thunder-wb: --chrome-trace: %s\n", error->message);
      return wb_cli_exit_code (error);
    }
  if (o->reports == NULL || o->reports[0] == NULL)
    {
      g_autofree char *md = wb_report_to_markdown (report);

      wb_cli_write (md, strlen (md));
    }
  if (gate != NULL && gate->failed)
    {
      g_autofree char *failures = wb_gate_dup_failures (gate);

      g_printerr ("thunder-wb: regression gate failed (--fail-above %g%% beyond the noise, baseline %s):\n%s\n",
                  gate->fail_above_pct, baseline_label, failures);
      return WB_EXIT_CHECK_FAILED;
    }
  return WB_EXIT_OK;
}

/* The GPU runner started before the case loads (transfer full; NULL on the cpu, without a GPU or when it does not
 * start): the runner makes its CUDA context as soon as it runs (wb-runner-main.c), so that start, about 0.3 s on an
 * H200, overlaps reading the traces and drawing the inputs; the job takes it (wb_profile_job_set_runner) when it is
 * the runner it would start, else ends it. */
static WbRunner *
start_runner_early (WbProfileDevice device)
{
  if (device == WB_PROFILE_DEVICE_CPU || g_strcmp0 (g_getenv ("WB_RUNNER_EARLY"), "0") == 0)
    return NULL;
  return wb_profile_job_start_runner_ahead ();
}

static int
profile_main (ProfileOptions *o, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbRun) run = NULL;
  g_autoptr (WbRun) baseline = NULL;
  g_autoptr (WbRunner) early = NULL;
  g_autofree char *baseline_label = NULL;
  g_auto (Profiling) p = { .path = path, .label = o->label };
  Progress        progress = { 0 };
  WbProfileDevice device;
  int             exit_code;
  gboolean        rank_case = FALSE; /* PATH/rank0 alone: a 1-rank run on its recorded inputs */

  if (!wb_profile_device_parse (o->device, &device))
    return wb_cli_usage_error (_ ("--device must be cpu or cuda, not “%s”"), o->device);
  if (o->cuda_graphs && device == WB_PROFILE_DEVICE_CPU)
    return wb_cli_usage_error (_ ("--cuda-graphs needs --device cuda"));
  if (o->cuda_graphs && o->no_cuda_graphs)
    return wb_cli_usage_error (_ ("--cuda-graphs and --no-cuda-graphs contradict each other"));
  if (o->memory_plan && o->no_memory_plan)
    return wb_cli_usage_error (_ ("--memory-plan and --no-memory-plan contradict each other"));
  {
    g_autoptr (GError) rank_error = NULL;
    g_auto (GStrv) ranks = g_file_test (path, G_FILE_TEST_IS_DIR) ? wb_case_dir_list_ranks (path, &rank_error) : NULL;

    if (rank_error != NULL)
      return wb_cli_report_error (rank_error);

    /* one rank runs as any case (its collectives on one GPU); more need one GPU each */
    if (ranks != NULL && ranks[1] != NULL)
      return _wb_cli_profile_ranks (o, (const char *const *) ranks);
    if (ranks != NULL)
      p.path = path = g_intern_string (ranks[0]);
    rank_case = ranks != NULL;
  }
  early = start_runner_early (device);
  if ((exit_code = _wb_cli_profile_load_case (o, &p)) >= 0)
    return exit_code;
  if (p.subprograms != NULL)
    return _wb_cli_profile_programs (o, p.c, path, p.subprograms, g_steal_pointer (&early));
  /* the baseline is read before this run is stored (it may be the same session) */
  if (o->baseline != NULL && (baseline = _wb_cli_profile_load_baseline (o->baseline, &baseline_label, NULL, &error)) == NULL)
    return wb_cli_report_session_error (error);
  if (o->session != NULL && p.source_session != NULL && g_strcmp0 (o->session, path) != 0)
    {
      if ((p.session = wb_session_open (o->session, WB_SESSION_OPEN_CREATE, &error)) == NULL)
        return wb_cli_report_session_error (error);
    }
  else if (p.source_session != NULL)
    p.session = g_steal_pointer (&p.source_session);
  else if (o->session != NULL && (p.session = wb_session_open (o->session, WB_SESSION_OPEN_CREATE, &error)) == NULL)
    return wb_cli_report_session_error (error);

  job = wb_profile_job_new (p.c, p.program, p.stage->label);
  wb_profile_job_set_runner (job, g_steal_pointer (&early));
  if ((exit_code = _wb_cli_profile_configure_job (o, &p, job, &progress)) >= 0)
    return exit_code;
  if (rank_case && p.tensors == NULL)
    wb_profile_job_set_inputs (job, wb_case_get_reference (p.c, NULL));
  progress.start_us = g_get_monotonic_time ();
  progress.quiet = o->quiet;
  run = wb_profile_job_run (job, &error);
  if (wb_profile_job_measured_ceilings (job))
    _wb_cli_profile_store_gpu_ceilings (p.session, wb_profile_job_get_ceilings (job));
  if (run == NULL)
    {
      g_printerr ("thunder-wb: profile: %s\n", error->message);
      if (p.store_error != NULL && wb_profile_job_get_failed_run (job) != NULL)
        g_printerr ("thunder-wb: %s\n", p.store_error->message);
      if (wb_profile_job_get_runner_exit (job) > 0)
        return wb_profile_job_get_runner_exit (job);
      if (error->domain == WB_RUNNER_ERROR)
        return WB_EXIT_ENVIRONMENT;
      return _wb_cli_profile_executor_exit (error);
    }
  if (p.store_error != NULL)
    return wb_cli_report_session_error (p.store_error);
  if (o->save_outputs != NULL && !_wb_cli_profile_save_outputs (job, o->save_outputs, &error))
    return wb_cli_report_error (error);
  return _wb_cli_profile_report_run (o, &p, job, run, baseline, baseline_label);
}

int
wb_cli_command_profile (int    argc,
                        char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  g_auto (GStrv) device_v = NULL, stage_v = NULL, session_v = NULL, chrome_v = NULL, baseline_v = NULL, inputs_v = NULL;
  ProfileOptions     o = { .iters = 20, .warmup = 3 };
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &device_v, N_ ("cpu or cuda (default: cuda when available, else cpu)"), "DEVICE" },
    { "executors", 0, 0, G_OPTION_ARG_STRING, &o.executors, N_ ("Run regions on these executors for this run"), "REGION=EXEC,..." },
    { "default-executor", 0, 0, G_OPTION_ARG_STRING, &o.default_executor,
      N_ ("With --device cuda: the executor of what --executors does not assign (default: the registry's)"), "EXEC" },
    { "iters", 0, 0, G_OPTION_ARG_CALLBACK, parse_iters, N_ ("Timed iterations (default 20)"), "N" },
    { "warmup", 0, 0, G_OPTION_ARG_CALLBACK, parse_warmup, N_ ("Untimed iterations before them (default 3)"), "N" },
    { "cuda-graphs", 0, 0, G_OPTION_ARG_NONE, &o.cuda_graphs,
      N_ ("Replay the timed iterations as a CUDA graph, captured after the checked run (cuda only; the default)"), NULL },
    { "no-cuda-graphs", 0, 0, G_OPTION_ARG_NONE, &o.no_cuda_graphs, N_ ("Replay the timed iterations from a flat launch list instead of a CUDA graph"), NULL },
    { "memory-plan", 0, 0, G_OPTION_ARG_NONE, &o.memory_plan,
      N_ ("Place the program's tensors in one arena planned from the traces, after the checked run (cuda only; off by default)"), NULL },
    { "no-memory-plan", 0, 0, G_OPTION_ARG_NONE, &o.no_memory_plan,
      N_ ("Take every tensor from the stream-ordered pool, without the static memory plan (the default; as WB_MEMORY_PLAN=0)"), NULL },
    { "allow-cpu-fallback", 0, 0, G_OPTION_ARG_NONE, &o.allow_cpu_fallback,
      N_ ("Let calls no GPU executor takes run on the cpu (cuda only; the report warns); without it they fail the run"), NULL },
    { "allow-tf32", 0, 0, G_OPTION_ARG_NONE, &o.allow_tf32,
      N_ ("Let f32 convolutions use TF32 tensor cores, as PyTorch allows cuDNN by default (cuda only; results then differ from exact f32)"), NULL },
    { "autotune", 0, 0, G_OPTION_ARG_NONE, &o.autotune,
      N_ ("Time the code generator's variants of each generated kernel on the device and keep the fastest, stored beside the kernel cache (cuda only; off by default)"),
      NULL },
    { "session", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &session_v, N_ ("Store the run (and the traces) in session file F"), "F.wbsession" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.reports, N_ ("Write a report; the format follows the name (repeatable)"), "F.md|F.json|F.html" },
    { "chrome-trace", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &chrome_v, N_ ("Write a Chrome trace (Perfetto, chrome://tracing)"), "F.json" },
    { "baseline", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &baseline_v, N_ ("Compare with run RUN (default: the latest) of SESSION"), "SESSION[:RUN]" },
    { "fail-above", 0, 0, G_OPTION_ARG_CALLBACK, parse_fail_above, N_ ("With --baseline: exit 1 when a region or the iteration is slower by more than PCT percent beyond the noise"), "PCT" },
    { "stage", 0, 0, G_OPTION_ARG_STRING_ARRAY, &stage_v, N_ ("Entry K of `stages PATH` or a stage label (default: the final forward + backward)"), "K" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &o.seed, N_ ("Seed of generated inputs and random ops (default 0)"), "N" },
    { "inputs", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs_v, N_ ("Inputs (and cotangents) from a safetensors file"), "F.safetensors" },
    { "label", 0, 0, G_OPTION_ARG_STRING, &o.label, N_ ("A note stored with the run"), "TEXT" },
    { "check-shapes", 0, 0, G_OPTION_ARG_NONE, &o.check_shapes, N_ ("Check every annotated output while running (slower)"), NULL },
    { "recompile", 0, 0, G_OPTION_ARG_NONE, &o.recompile,
      N_ ("Add the workbench's recomputed stages (as `stages --recompile`): --stage can name them"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, N_ ("No progress or notes on standard error"), NULL },
    { "save-outputs", 0, 0, G_OPTION_ARG_FILENAME, &o.save_outputs,
      N_ ("Write the checked run's outputs and gradients (cuda; a multi-GPU case: one file per rank, F.rankN.safetensors)"), "F.safetensors" },
    { NULL }
  };
  GOptionGroup *group;
  int           result;

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_set_prgname ("thunder-wb --headless profile");
  context = g_option_context_new ("PATH");
  g_option_context_set_summary (context,
                                _ ("Runs a stage of PATH (a trace file, a case directory or a session file) warm-up +\n"
                                   "N timed iterations and reports, region by region, where the time goes: median,\n"
                                   "min and max time, share of the iteration, GB/s, TFLOP/s and % of the device's\n"
                                   "ceilings, and the top kernels. Prints the Markdown report when no --report is given.\n"
                                   "Exit status: 0 ok, 1 the baseline gate failed, 2 bad input, 3 environment\n"
                                   "(no CUDA, an op the executor cannot run)."));
  group = g_option_group_new ("profile", "", "", &o, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      profile_options_clear (&o);
      return wb_cli_usage_error ("%s", error->message);
    }
  g_set_prgname ("thunder-wb");

  if (g_strv_length (args) != 2)
    result = wb_cli_usage_error (_ ("“%s” takes one PATH"), "profile");
  else if (wb_cli_option_once ("--device", device_v, &o.device) || wb_cli_option_once ("--stage", stage_v, &o.stage) || wb_cli_option_once ("--session", session_v, &o.session) || wb_cli_option_once ("--chrome-trace", chrome_v, &o.chrome_trace) || wb_cli_option_once ("--baseline", baseline_v, &o.baseline) || wb_cli_option_once ("--inputs", inputs_v, &o.inputs) || check_distinct_outputs (&o))
    result = WB_EXIT_BAD_INPUT;
  else if (o.fail_above_set && o.baseline == NULL)
    result = wb_cli_usage_error (_ ("--fail-above needs --baseline SESSION[:RUN]"));
  else if (o.baseline != NULL && !o.fail_above_set)
    result = wb_cli_usage_error (_ ("--baseline needs --fail-above PCT"));
  else if (wb_cli_check_runnable_executor ("--default-executor", o.default_executor) != WB_EXIT_OK)
    result = WB_EXIT_BAD_INPUT;
  else
    {
      result = -1;
      for (guint i = 0; o.reports != NULL && o.reports[i] != NULL; i++)
        {
          WbReportFormat format;

          if (!wb_report_format_from_path (o.reports[i], &format))
            {
              result = wb_cli_usage_error (_ ("--report %s: the name must end in .md, .json or .html"), o.reports[i]);
              break;
            }
        }
      if (result < 0)
        result = profile_main (&o, args[1]);
    }
  profile_options_clear (&o);
  return result;
}
