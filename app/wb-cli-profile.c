/* wb-cli-profile.c — `thunder-wb --headless profile PATH`: run a stage warm-up + N timed iterations, per
 * region times, reports, session storage and the regression gate
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wb-cli-cuda.h"
#include "wb-cli.h"
#include "wb-data.h"

typedef struct
{
  char    *device;
  char    *executors;
  char    *default_executor;
  int      iters;
  int      warmup;
  gboolean cuda_graphs;
  char    *session;
  char   **reports;
  char    *chrome_trace;
  char    *baseline;
  double   fail_above;
  gboolean fail_above_set;
  char    *stage;
  gint64   seed;
  char    *inputs;
  char    *label;
  gboolean check_shapes;
  gboolean recompile;
  gboolean quiet;
} ProfileOptions;

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
}

static gboolean
parse_fail_above (const char *name, const char *value, gpointer data, GError **error)
{
  ProfileOptions  *o = data;
  char            *end = NULL;
  g_autofree char *text = g_strstrip (g_strdup (value));

  if (g_str_has_suffix (text, "%"))
    text[strlen (text) - 1] = '\0';
  o->fail_above = g_ascii_strtod (text, &end);
  if (text[0] == '\0' || end == NULL || *end != '\0' || !(o->fail_above >= 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("--fail-above takes a percentage >= 0, not “%s”"), value);
      return FALSE;
    }
  o->fail_above_set = TRUE;
  return TRUE;
}

/* -- progress ------------------------------------------------------------------------------------ */

typedef struct
{
  gint64   start_us;
  gint64   last_us;
  gboolean quiet;
} Progress;

static void
on_progress (WbProfilePhase phase, guint done, guint total, gint64 iteration_ns, gpointer user_data)
{
  Progress *p = user_data;
  gint64    now = g_get_monotonic_time ();

  /* long runs only: after 2 s, at most once a second, and always the last iteration once started */
  if (p->quiet || now - p->start_us < 2 * G_USEC_PER_SEC)
    return;
  if (now - p->last_us < G_USEC_PER_SEC && !(phase == WB_PROFILE_PHASE_TIMED && done == total && p->last_us > 0))
    return;
  p->last_us = now;
  g_printerr ("profile: %s %u/%u (%.1f ms)\n", phase == WB_PROFILE_PHASE_WARMUP ? "warm-up" : "iteration", done, total,
              iteration_ns / 1e6);
}

/* -- loading ------------------------------------------------------------------------------------- */

static gboolean
is_session_file (const char *path)
{
  return g_str_has_suffix (path, ".wbsession") || wb_session_file_has_header (path);
}

/* A stored entry path is untrusted: relative, no "..", no empty or hidden tricks. */
static gboolean
safe_relative_path (const char *path)
{
  g_auto (GStrv) parts = NULL;

  if (path == NULL || path[0] == '\0' || g_path_is_absolute (path) || strchr (path, '\\') != NULL)
    return FALSE;
  parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0)
      return FALSE;
  return TRUE;
}

static void
free_gstring (gpointer data)
{
  g_string_free (data, TRUE);
}

/* Writes the latest trace set of @session into a new folder (the layout it was imported from) and returns
 * the path wb_case_load() takes: the folder, or the one file when the set came from one file. */
static char *
materialize_session (WbSession *session, gint64 *trace_set_id, char **set_name, char **tmpdir, GError **error)
{
  g_autoptr (GPtrArray) sets = wb_session_list_trace_sets (session, error);
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (GHashTable) texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_gstring);
  g_autoptr (GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
  const WbSessionTraceSet *last;
  char                    *dir;

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
  if ((dir = g_dir_make_tmp ("thunder-wb-profile-XXXXXX", error)) == NULL)
    return NULL;
  *tmpdir = dir;

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      GString            *text;

      if (!safe_relative_path (e->path))
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID, "%s: trace set %" G_GINT64_FORMAT ": unsafe entry path “%s”",
                       wb_session_get_path (session), last->id, e->path ? e->path : "");
          return NULL;
        }
      text = g_hash_table_lookup (texts, e->path);
      if (text == NULL)
        {
          text = g_string_new (NULL);
          g_hash_table_insert (texts, g_strdup (e->path), text);
          g_ptr_array_add (order, g_strdup (e->path));
        }
      {
        g_autofree char *printed = wb_trace_to_string (e->trace);

        if (text->len > 0 && text->str[text->len - 1] != '\n')
          g_string_append_c (text, '\n');
        g_string_append (text, printed);
      }
    }
  for (guint i = 0; i < order->len; i++)
    {
      GString         *text = g_hash_table_lookup (texts, order->pdata[i]);
      g_autofree char *file = g_build_filename (dir, order->pdata[i], NULL);
      g_autofree char *parent = g_path_get_dirname (file);
      gboolean         ok;

      ok = g_mkdir_with_parents (parent, 0700) == 0 && g_file_set_contents (file, text->str, text->len, error);
      if (!ok)
        {
          if (error && *error == NULL)
            g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot create the folder", parent);
          return NULL;
        }
    }
  if (order->len == 1)
    return g_build_filename (dir, order->pdata[0], NULL);
  return g_strdup (dir);
}

/* Number of forward outputs a training trace returns ('flat_output' or 'output'), for the cotangents. */
static guint
count_forward_outputs (const WbTrace *trace)
{
  for (guint i = trace->n_body; i > 0; i--)
    {
      const WbBsym  *b = trace->body[i - 1];
      const WbValue *v = b->value;

      if (b->kind != WB_BSYM_RETURN || v == NULL)
        continue;
      if (v->kind == WB_VALUE_TUPLE && v->n_items == 2)
        v = v->items[0];
      if (v->kind == WB_VALUE_DICT)
        for (guint k = 0; k + 1 < v->n_items; k += 2)
          if (v->items[k]->kind == WB_VALUE_STRING &&
              (g_strcmp0 (v->items[k]->v.s, "flat_output") == 0 || g_strcmp0 (v->items[k]->v.s, "output") == 0))
            return wb_value_is_sequence (v->items[k + 1]) ? v->items[k + 1]->n_items : 1;
      return 1;
    }
  return 1;
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

static void
store_gpu_ceilings (WbSession *session, const WbDeviceCeilings *c)
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

/* SESSION[:RUN] -> the run (summary). */
static WbRun *
load_baseline (const char *spec, char **label, GError **error)
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
  if ((session = wb_session_open (path, WB_SESSION_OPEN_READ_ONLY, error)) == NULL)
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
  if (run != NULL)
    *label = g_strdup_printf ("%s:%" G_GUINT64_FORMAT, path, id);
  return run;
}

/* -- the command --------------------------------------------------------------------------------- */

static int
executor_error_exit (const GError *error)
{
  if (error->domain == WB_EXECUTOR_ERROR &&
      (error->code == WB_EXECUTOR_ERROR_UNSUPPORTED || error->code == WB_EXECUTOR_ERROR_NO_DEVICE ||
       error->code == WB_EXECUTOR_ERROR_OUT_OF_MEMORY))
    return WB_EXIT_ENVIRONMENT;
  if (error->domain == WB_PROFILE_ERROR && error->code == WB_PROFILE_ERROR_UNAVAILABLE)
    return WB_EXIT_ENVIRONMENT;
  return WB_EXIT_BAD_INPUT;
}

static int
profile_main (ProfileOptions *o, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbProfile) profile = NULL;
  g_autoptr (WbSafetensors) tensors = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cotangents = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autoptr (WbSession) source_session = NULL;
  g_autoptr (WbRun) run = NULL;
  g_autoptr (WbRun) failed = NULL;
  g_autoptr (WbRun) baseline = NULL;
  g_autoptr (WbDeviceCeilings) ceilings = NULL;
  g_autoptr (WbReport) report = NULL;
  g_autoptr (WbGate) gate = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (WbCliCudaProfile) gpu = NULL;
  g_autofree char   *case_path = NULL;
  g_autofree char   *tmpdir = NULL;
  g_autofree char   *set_name = NULL;
  g_autofree char   *baseline_label = NULL;
  g_autofree char   *stage_text = NULL;
  const WbCaseStage *stage;
  const char        *session_path = o->session;
  gint64             trace_set_id = 0;
  WbProfileOptions   po;
  Progress           progress = { 0 };
  int                exit_code = WB_EXIT_OK;

  /* the device */
  if (o->device != NULL && strcmp (o->device, "cpu") != 0 && strcmp (o->device, "cuda") != 0 &&
      !g_str_has_prefix (o->device, "cuda:"))
    return wb_cli_usage_error (_ ("--device must be cpu or cuda, not “%s”"), o->device);
  {
    g_autofree char *why = NULL;
    gboolean         cuda = wb_cuda_is_available (&why);
    gboolean         asked = o->device != NULL && strcmp (o->device, "cpu") != 0;

    if (asked && !cuda)
      {
        g_printerr ("thunder-wb: --device %s: %s\n", o->device, why);
        return WB_EXIT_ENVIRONMENT;
      }
    if ((asked || o->device == NULL) && cuda)
      {
        g_autoptr (GError) gpu_error = NULL;

        /* the GPU runner: started and probed once; it runs the program (wb-cli-cuda.c) */
        gpu = wb_cli_cuda_profile_open (&gpu_error);
        if (gpu == NULL && asked)
          {
            g_printerr ("thunder-wb: --device %s: %s\n", o->device, gpu_error->message);
            return WB_EXIT_ENVIRONMENT;
          }
        if (gpu == NULL)
          {
            g_clear_pointer (&why, g_free);
            why = g_strdup (gpu_error->message);
            cuda = FALSE;
          }
      }
    if (o->device == NULL && !cuda)
      {
        g_ptr_array_add (notes, g_strdup_printf ("profiled on cpu: %s", why));
        if (!o->quiet)
          g_printerr ("profile: note: no --device given and %s; profiling on cpu\n", why);
      }
  }
  if (o->cuda_graphs)
    {
      if (o->device != NULL && strcmp (o->device, "cpu") == 0)
        return wb_cli_usage_error (_ ("--cuda-graphs needs --device cuda"));
      /* on the GPU the runner captures the program once and replays it; its note comes with the run */
      if (gpu == NULL)
        g_ptr_array_add (notes, g_strdup ("--cuda-graphs was ignored: the run is on cpu"));
    }

  /* the case and its stage */
  if (!wb_cli_check_path (path, &error))
    return wb_cli_report_error (error);
  if (is_session_file (path))
    {
      if ((source_session = wb_session_open (path, WB_SESSION_OPEN_DEFAULT, &error)) == NULL)
        return wb_cli_report_session_error (error);
      case_path = materialize_session (source_session, &trace_set_id, &set_name, &tmpdir, &error);
      if (case_path == NULL)
        {
          wb_cli_remove_tree (tmpdir);
          return wb_cli_report_session_error (error);
        }
      if (session_path == NULL)
        session_path = path;
    }
  else
    case_path = g_strdup (path);
  c = wb_case_load (case_path, &error);
  if (c == NULL || (o->recompile && !wb_case_add_workbench_stages (c, &error)))
    {
      wb_cli_remove_tree (tmpdir);
      return wb_cli_report_error (error);
    }
  if (o->stage != NULL)
    {
      guint64 entry = 0;

      const WbCaseStage *fallback = wb_case_get_default_stage (c);

      if (!g_ascii_string_to_unsigned (o->stage, 10, 0, G_MAXINT, &entry, NULL))
        stage = wb_case_find_stage (c, -1, o->stage);
      /* a backward entry pairs with several forwards (forward_05 and forward_06 both end in "Delete Last
       * Used"): prefer the default stage's */
      else if (fallback != NULL && (fallback->entry == (int) entry || fallback->backward_entry == (int) entry))
        stage = fallback;
      else
        stage = wb_case_find_stage (c, (int) entry, NULL);
      if (stage == NULL)
        {
          wb_cli_remove_tree (tmpdir);
          return wb_cli_usage_error (_ ("--stage %s: no such entry or stage in %s (see “stages %s”)"), o->stage, path, path);
        }
    }
  else if ((stage = wb_case_get_default_stage (c)) == NULL)
    {
      wb_cli_remove_tree (tmpdir);
      return wb_cli_usage_error (_ ("%s: no stage to profile"), path);
    }
  program = wb_case_make_program (c, stage, &error);
  if (program == NULL)
    {
      wb_cli_remove_tree (tmpdir);
      return wb_cli_report_error (error);
    }
  profile = wb_profile_new (program, stage->label);
  stage_text = wb_profile_dup_stage_text (profile);
  if (gpu != NULL)
    wb_profile_set_device_cuda (profile, o->default_executor);
  if (!wb_profile_set_executors (profile, o->executors, &error))
    {
      g_printerr ("thunder-wb: %s\n", error->message);
      wb_cli_remove_tree (tmpdir);
      return executor_error_exit (error);
    }

  /* inputs */
  if (o->inputs != NULL && (tensors = wb_safetensors_load (o->inputs, &error)) == NULL)
    {
      wb_cli_remove_tree (tmpdir);
      g_printerr ("thunder-wb: --inputs: %s\n", error->message);
      return WB_EXIT_BAD_INPUT;
    }
  inputs = wb_case_make_inputs (c, tensors, (guint64) o->seed, &error);
  if (inputs != NULL)
    args = wb_case_make_args (c, program, inputs, &error);
  if (inputs == NULL || args == NULL)
    {
      wb_cli_remove_tree (tmpdir);
      g_printerr ("thunder-wb: %s\n", error->message);
      return executor_error_exit (error);
    }
  if (tensors != NULL && wb_program_get_kind (program) == WB_PROGRAM_TRAINING)
    cotangents = wb_case_make_cotangents (c, tensors, count_forward_outputs (wb_program_get_forward (program)));

  /* the baseline is read before this run is stored (it may be the same session) */
  if (o->baseline != NULL && (baseline = load_baseline (o->baseline, &baseline_label, &error)) == NULL)
    {
      wb_cli_remove_tree (tmpdir);
      return wb_cli_report_session_error (error);
    }

  if (session_path != NULL)
    {
      if (source_session != NULL && g_strcmp0 (session_path, path) == 0)
        session = g_steal_pointer (&source_session);
      else if ((session = wb_session_open (session_path, WB_SESSION_OPEN_CREATE, &error)) == NULL)
        {
          wb_cli_remove_tree (tmpdir);
          return wb_cli_report_session_error (error);
        }
    }
  if (gpu != NULL)
    {
      ceilings = lookup_gpu_ceilings (session, wb_cli_cuda_profile_get_model (gpu));
      if (ceilings == NULL && !o->quiet)
        g_printerr ("profile: measuring the ceilings of %s (once per GPU model; cached in %s)\n", wb_cli_cuda_profile_get_model (gpu),
                    session ? wb_session_get_path (session) : "$XDG_CACHE_HOME/thunder-wb");
    }
  else
    ceilings = get_ceilings (session, o->quiet);

  /* run */
  wb_profile_options_init (&po);
  po.iters = (guint) o->iters;
  po.warmup = (guint) o->warmup;
  po.seed = (guint64) o->seed;
  po.check_shapes = o->check_shapes;
  po.parameters = wb_case_parameter_lookup; /* prologue stages: module.get_parameter */
  po.parameters_data = inputs;
  po.progress = on_progress;
  po.progress_data = &progress;
  po.cuda_graphs = o->cuda_graphs && gpu != NULL;
  progress.start_us = g_get_monotonic_time ();
  progress.quiet = o->quiet;
  if (gpu != NULL)
    {
      g_autoptr (WbDeviceCeilings) measured = NULL;
      int gpu_exit = WB_EXIT_ENVIRONMENT;

      if (!o->quiet)
        g_printerr ("profile: running on %s through thunder-wb-runner (%d warm-up, %d timed iterations)\n",
                    wb_cli_cuda_profile_get_model (gpu), o->warmup, o->iters);
      run = wb_cli_cuda_profile_run (gpu, profile, program, args, cotangents, &po, ceilings == NULL, &measured, &gpu_exit, &error);
      wb_cli_remove_tree (tmpdir);
      if (run == NULL)
        {
          g_printerr ("thunder-wb: profile: %s\n", error->message);
          return gpu_exit != WB_EXIT_OK ? gpu_exit : WB_EXIT_ENVIRONMENT;
        }
      if (measured != NULL)
        {
          store_gpu_ceilings (session, measured);
          ceilings = g_steal_pointer (&measured);
        }
      if (wb_cli_cuda_profile_get_overhead_note (gpu) != NULL)
        {
          g_ptr_array_add (notes, g_strdup_printf ("profiling's cost: %s", wb_cli_cuda_profile_get_overhead_note (gpu)));
          if (!o->quiet)
            g_printerr ("profile: %s\n", wb_cli_cuda_profile_get_overhead_note (gpu));
        }
      if (po.cuda_graphs && wb_cli_cuda_profile_get_graphs_note (gpu) != NULL)
        {
          g_ptr_array_add (notes, g_strdup (wb_cli_cuda_profile_get_graphs_note (gpu)));
          if (!o->quiet)
            g_printerr ("profile: %s\n", wb_cli_cuda_profile_get_graphs_note (gpu));
        }
    }
  else
    run = wb_profile_run (profile, args, cotangents, &po, &failed, &error);
  if (gpu == NULL)
    wb_cli_remove_tree (tmpdir);
  if (run == NULL)
    {
      g_printerr ("thunder-wb: profile: %s\n", error->message);
      exit_code = executor_error_exit (error);
      if (session != NULL && failed != NULL)
        {
          g_autoptr (GError) store_error = NULL;

          failed->label = g_strdup (o->label);
          if (trace_set_id == 0 && source_session == NULL)
            {
              WbSessionImport imported = { 0 };

              if (wb_session_import_path (session, path, &imported, NULL))
                trace_set_id = imported.trace_set_id;
            }
          if (wb_session_store_run (session, failed, trace_set_id, &store_error) == 0)
            g_printerr ("thunder-wb: %s\n", store_error->message);
        }
      return exit_code;
    }
  run->label = g_strdup (o->label);

  /* store */
  if (session != NULL)
    {
      if (trace_set_id == 0)
        {
          WbSessionImport imported = { 0 };

          if (!wb_session_import_path (session, path, &imported, &error))
            return wb_cli_report_session_error (error);
          trace_set_id = imported.trace_set_id;
        }
      if (wb_session_store_run (session, run, trace_set_id, &error) == 0)
        return wb_cli_report_session_error (error);
    }

  /* report */
  report = wb_report_new (run, ceilings, set_name ? set_name : wb_case_get_name (c), stage_text);
  for (guint i = 0; i < wb_profile_get_n_entries (profile); i++)
    wb_report_set_region_kind (report, wb_profile_get_entry_name (profile, i), wb_profile_get_entry_is_region (profile, i));
  for (guint i = 0; i < notes->len; i++)
    wb_report_add_note (report, notes->pdata[i]);
  if (session != NULL)
    {
      g_autofree char *note = g_strdup_printf ("stored as run #%" G_GINT64_FORMAT " in %s", run->id, wb_session_get_path (session));

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
          return WB_EXIT_ENVIRONMENT;
        }
    }
  if (o->chrome_trace != NULL && !wb_report_write (report, WB_REPORT_FORMAT_CHROME_TRACE, o->chrome_trace, &error))
    {
      g_printerr ("thunder-wb: --chrome-trace: %s\n", error->message);
      return WB_EXIT_ENVIRONMENT;
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

int
wb_cli_command_profile (int    argc,
                        char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  ProfileOptions     o = { .iters = 20, .warmup = 3 };
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING, &o.device, N_ ("cpu or cuda (default: cuda when available, else cpu)"), "DEVICE" },
    { "executors", 0, 0, G_OPTION_ARG_STRING, &o.executors, N_ ("Run regions on these executors for this run"), "REGION=EXEC,..." },
    { "default-executor", 0, 0, G_OPTION_ARG_STRING, &o.default_executor,
      N_ ("With --device cuda: the executor of what --executors does not assign (default: the registry's)"), "EXEC" },
    { "iters", 0, 0, G_OPTION_ARG_INT, &o.iters, N_ ("Timed iterations (default 20)"), "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &o.warmup, N_ ("Untimed iterations before them (default 3)"), "N" },
    { "cuda-graphs", 0, 0, G_OPTION_ARG_NONE, &o.cuda_graphs, N_ ("Capture the program as a CUDA graph (cuda only)"), NULL },
    { "session", 0, 0, G_OPTION_ARG_FILENAME, &o.session, N_ ("Store the run (and the traces) in session file F"), "F.wbsession" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.reports, N_ ("Write a report; the format follows the name (repeatable)"), "F.md|F.json|F.html" },
    { "chrome-trace", 0, 0, G_OPTION_ARG_FILENAME, &o.chrome_trace, N_ ("Write a Chrome trace (Perfetto, chrome://tracing)"), "F.json" },
    { "baseline", 0, 0, G_OPTION_ARG_FILENAME, &o.baseline, N_ ("Compare with run RUN (default: the latest) of SESSION"), "SESSION[:RUN]" },
    { "fail-above", 0, 0, G_OPTION_ARG_CALLBACK, parse_fail_above, N_ ("With --baseline: exit 1 when a region or the iteration is slower by more than PCT percent beyond the noise"), "PCT" },
    { "stage", 0, 0, G_OPTION_ARG_STRING, &o.stage, N_ ("Entry K of `stages PATH` or a stage label (default: the final forward + backward)"), "K" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &o.seed, N_ ("Seed of generated inputs and random ops (default 0)"), "N" },
    { "inputs", 0, 0, G_OPTION_ARG_FILENAME, &o.inputs, N_ ("Inputs (and cotangents) from a safetensors file"), "F.safetensors" },
    { "label", 0, 0, G_OPTION_ARG_STRING, &o.label, N_ ("A note stored with the run"), "TEXT" },
    { "check-shapes", 0, 0, G_OPTION_ARG_NONE, &o.check_shapes, N_ ("Check every annotated output while running (slower)"), NULL },
    { "recompile", 0, 0, G_OPTION_ARG_NONE, &o.recompile,
      N_ ("Add the workbench's recomputed stages (as `stages --recompile`): --stage can name them"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, N_ ("No progress or notes on standard error"), NULL },
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
  else if (o.iters < 1)
    result = wb_cli_usage_error (_ ("--iters must be at least 1"));
  else if (o.warmup < 0)
    result = wb_cli_usage_error (_ ("--warmup must be 0 or more"));
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
