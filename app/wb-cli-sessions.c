/* wb-cli-sessions.c — the session commands: `sessions SESSION` (runs and assignments), `import PATH --session F`
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-cli.h"
#include "wb-data.h"

int
wb_cli_report_session_error (const GError *error)
{
  g_return_val_if_fail (error != NULL, WB_EXIT_ENVIRONMENT);

  if (error->domain != WB_SESSION_ERROR)
    return wb_cli_report_error (error);
  /* A bad, untrusted, newer, missing or corrupt file, or a run that is not there, is bad input; a file
   * another process keeps locked, or an SQLite failure on a good file (disk full), is the environment
   * (wb_cli_exit_code). */
  return wb_cli_report_error (error);
}

gboolean
wb_cli_parse_session_command (const char         *name,
                              const char         *parameters,
                              const char         *summary,
                              const GOptionEntry *entries,
                              int                 argc,
                              char              **argv,
                              char             ***positional,
                              int                *exit_code)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("thunder-wb --headless %s", name);
  g_auto (GStrv) args = g_new0 (char *, argc + 1);

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_set_prgname (prgname);
  context = g_option_context_new (parameters);
  g_option_context_set_summary (context, summary);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      *exit_code = wb_cli_usage_error ("%s", error->message);
      return FALSE;
    }
  g_set_prgname ("thunder-wb");
  /* Drop argv[0]: what is left are the positional arguments. */
  *positional = g_strdupv (args[0] ? args + 1 : args);
  return TRUE;
}

static char *
format_date_us (gint64 us)
{
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);

  return t ? g_date_time_format (t, "%Y-%m-%d %H:%M:%S") : g_strdup ("-");
}

static char *
format_median_ms (const WbRun *run)
{
  if (run->iteration_ns->len == 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.4f", (double) wb_run_get_iteration_median_ns (run) / 1e6);
}

static char *
format_device (const WbRun *run)
{
  g_autofree char *text = g_strdup_printf ("%s%s%s", run->device_name ? run->device_name : "-", run->device_model ? " " : "",
                                           run->device_model ? run->device_model : "");
  return wb_cli_escape_controls (text, FALSE);
}

/* A string read from the session file, for one cell of a table: "-" when absent, control characters
 * escaped (wb_cli_escape_controls()). */
static char *
cell (const char *text)
{
  return text != NULL ? wb_cli_escape_controls (text, FALSE) : g_strdup ("-");
}

/* -- sessions ------------------------------------------------------------------------------------ */

static void
sessions_text (WbSession *session,
               GPtrArray *sets,
               GPtrArray *runs,
               GPtrArray *assignments,
               gboolean   checked)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *creator = wb_session_dup_meta (session, "creator", NULL);
  g_autofree char *created = wb_session_dup_meta (session, "created_at", NULL);
  g_autofree char *created_date = created ? format_date_us (g_ascii_strtoll (created, NULL, 10)) : NULL;
  int              device_width = strlen ("device");
  int              assignment_width = strlen ("assignment");
  g_autofree char *path = cell (wb_session_get_path (session)), *by = cell (creator);

  /* Column names are the project's vocabulary and stay untranslated: scripts read this table. */
  g_string_append_printf (out, "session %s: schema version %d, created %s UTC by %s\n", path, WB_SESSION_SCHEMA_VERSION,
                          created_date ? created_date : "-", by);
  if (checked)
    g_string_append (out, "integrity: ok (PRAGMA integrity_check, foreign_key_check)\n");

  g_string_append_printf (out, "\ntrace sets: %u\n", sets->len);
  for (guint i = 0; i < sets->len; i++)
    {
      const WbSessionTraceSet *s = g_ptr_array_index (sets, i);
      g_autofree char         *date = format_date_us (s->imported_at_us);

      g_autofree char *name = cell (s->name), *origin = cell (s->origin);

      g_string_append_printf (out, "  %3" G_GINT64_FORMAT "  %-24s %4u traces  imported %s UTC from %s\n", s->id,
                              name, s->n_entries, date, origin);
    }

  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun     *run = g_ptr_array_index (runs, i);
      g_autofree char *device = format_device (run);
      g_autofree char *assignment = cell (run->assignment);

      device_width = MAX (device_width, (int) g_utf8_strlen (device, -1));
      assignment_width = MAX (assignment_width, (int) g_utf8_strlen (assignment, -1));
    }
  g_string_append_printf (out, "\nruns: %u (median ms: the median of each run's timed iterations)\n", runs->len);
  if (runs->len > 0)
    g_string_append_printf (out, "  %4s  %-19s  %-*s  %-6s  %5s  %10s  %-*s  %s\n", "run", "started (UTC)",
                            device_width, "device", "status", "iters", "median ms", assignment_width, "assignment",
                            "label");
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun     *run = g_ptr_array_index (runs, i);
      g_autofree char *date = format_date_us (run->start_time_us);
      g_autofree char *device = format_device (run);
      g_autofree char *median = format_median_ms (run);
      g_autofree char *assignment = cell (run->assignment), *label = cell (run->label), *err = cell (run->error);

      g_string_append_printf (out, "  %4" G_GINT64_FORMAT "  %-19s  %-*s  %-6s  %5u  %10s  %-*s  %s\n", run->id, date,
                              device_width, device, wb_run_status_to_string (run->status), run->iteration_ns->len,
                              median, assignment_width, assignment, label);
      if (run->status != WB_RUN_STATUS_OK && run->error != NULL)
        g_string_append_printf (out, "        error: %s\n", err);
    }

  g_string_append_printf (out, "\nassignments: %u\n", assignments->len);
  if (assignments->len > 0)
    g_string_append_printf (out, "  %4s  %-*s  %7s  %4s  %s\n", "id", assignment_width, "name", "regions", "runs",
                            "choices");
  for (guint i = 0; i < assignments->len; i++)
    {
      const WbSessionAssignment *a = g_ptr_array_index (assignments, i);
      g_autofree char           *name = cell (a->name), *spec = cell (a->spec);

      g_string_append_printf (out, "  %4" G_GINT64_FORMAT "  %-*s  %7u  %4u  %s\n", a->id, assignment_width, name,
                              a->n_regions, a->n_runs, spec);
    }
  wb_cli_write (out->str, out->len);
}

static void
json_string (JsonBuilder *b,
             const char  *name,
             const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
json_int (JsonBuilder *b,
          const char  *name,
          gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
sessions_json (WbSession *session,
               GPtrArray *sets,
               GPtrArray *runs,
               GPtrArray *assignments,
               gboolean   checked)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_string (b, "schema", "thunder-wb/sessions");
  json_int (b, "version", 1);
  json_string (b, "session", wb_session_get_path (session));
  json_int (b, "schema_version", WB_SESSION_SCHEMA_VERSION);
  json_string (b, "integrity", checked ? "ok" : NULL);

  json_builder_set_member_name (b, "trace_sets");
  json_builder_begin_array (b);
  for (guint i = 0; i < sets->len; i++)
    {
      const WbSessionTraceSet *s = g_ptr_array_index (sets, i);

      json_builder_begin_object (b);
      json_int (b, "id", s->id);
      json_string (b, "name", s->name);
      json_string (b, "origin", s->origin);
      json_int (b, "imported_at_us", s->imported_at_us);
      json_int (b, "traces", s->n_entries);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun *run = g_ptr_array_index (runs, i);

      json_builder_begin_object (b);
      json_int (b, "id", run->id);
      json_string (b, "label", run->label);
      json_int (b, "started_at_us", run->start_time_us);
      json_string (b, "device_name", run->device_name);
      json_string (b, "device_model", run->device_model);
      json_string (b, "driver_version", run->driver_version);
      json_string (b, "status", wb_run_status_to_string (run->status));
      json_string (b, "error", run->error);
      json_int (b, "iterations", run->iteration_ns->len);
      json_int (b, "warmup", run->warmup);
      json_builder_set_member_name (b, "iteration_median_ms");
      if (run->iteration_ns->len > 0)
        json_builder_add_double_value (b, (double) wb_run_get_iteration_median_ns (run) / 1e6);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "cuda_graphs");
      json_builder_add_boolean_value (b, run->cuda_graphs);
      json_builder_set_member_name (b, "launch_list");
      json_builder_add_boolean_value (b, run->launch_list);
      json_string (b, "executors", run->executors);
      json_string (b, "assignment", run->assignment);
      json_string (b, "stage", run->stage);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "assignments");
  json_builder_begin_array (b);
  for (guint i = 0; i < assignments->len; i++)
    {
      const WbSessionAssignment *a = g_ptr_array_index (assignments, i);

      json_builder_begin_object (b);
      json_int (b, "id", a->id);
      json_string (b, "name", a->name);
      json_string (b, "choices", a->spec);
      json_int (b, "regions", a->n_regions);
      json_int (b, "runs", a->n_runs);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  wb_cli_write (text, strlen (text));
  wb_cli_write ("\n", 1);
}

int
wb_cli_command_sessions (int    argc,
                         char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autoptr (GPtrArray) sets = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  g_autoptr (GPtrArray) assignments = NULL;
  g_auto (GStrv) positional = NULL;
  g_autofree char   *format = NULL;
  gboolean           check = FALSE;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_ ("Output format: text (default) or json"), "text|json" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &check, N_ ("Also check the whole file (PRAGMA integrity_check): reads every page"), NULL },
    { NULL }
  };
  int exit_code = WB_EXIT_OK;

  if (!wb_cli_parse_session_command ("sessions", "SESSION",
                                     _ ("List the trace sets, runs and assignments of a session file."),
                                     entries, argc, argv, &positional, &exit_code))
    return exit_code;
  if (g_strv_length (positional) != 1)
    return wb_cli_usage_error (_ ("“sessions” takes one SESSION"));
  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    return wb_cli_usage_error (_ ("--format must be text or json, not “%s”"), format);

  session = wb_session_open (positional[0], check ? WB_SESSION_OPEN_CHECK : WB_SESSION_OPEN_DEFAULT, &error);
  if (session == NULL)
    return wb_cli_report_session_error (error);
  if (check && !wb_session_check_integrity (session, &error))
    return wb_cli_report_session_error (error);
  if ((sets = wb_session_list_trace_sets (session, &error)) == NULL ||
      (runs = wb_session_list_runs (session, &error)) == NULL ||
      (assignments = wb_session_list_assignments (session, &error)) == NULL)
    return wb_cli_report_session_error (error);

  if (format != NULL && strcmp (format, "json") == 0)
    sessions_json (session, sets, runs, assignments, check);
  else
    sessions_text (session, sets, runs, assignments, check);
  return WB_EXIT_OK;
}

/* -- import -------------------------------------------------------------------------------------- */

int
wb_cli_command_import (int    argc,
                       char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;
  g_auto (GStrv) positional = NULL;
  g_autofree char   *session_path = NULL;
  g_autofree char   *name = NULL;
  g_autofree char   *set_id = NULL;
  g_autofree char   *bytes = NULL;
  WbSessionImport    result = { 0 };
  const GOptionEntry entries[] = {
    { "session", 0, 0, G_OPTION_ARG_FILENAME, &session_path, N_ ("The session file (created when missing)"), "F" },
    { NULL }
  };
  int exit_code = WB_EXIT_OK;

  if (!wb_cli_parse_session_command ("import", "PATH --session F",
                                     _ ("Import a trace file or a directory like traces/<case>/ into a session file.\n"
                                        "Idempotent: texts already in the session are not stored again."),
                                     entries, argc, argv, &positional, &exit_code))
    return exit_code;
  if (g_strv_length (positional) != 1)
    return wb_cli_usage_error (_ ("“import” takes one PATH"));
  if (session_path == NULL)
    return wb_cli_usage_error (_ ("“import” needs --session F"));
  if (!wb_cli_check_path (positional[0], &error))
    return wb_cli_report_error (error);

  session = wb_session_open (session_path, WB_SESSION_OPEN_CREATE, &error);
  if (session == NULL)
    return wb_cli_report_session_error (error);
  if (!wb_session_import_path (session, positional[0], &result, &error))
    return wb_cli_report_session_error (error);

  name = g_path_get_basename (positional[0]);
  set_id = g_strdup_printf ("%" G_GINT64_FORMAT, result.trace_set_id);
  bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, result.new_text_bytes);
  if (result.new_trace_set)
    g_print (_ ("imported %s into %s as trace set %s: %u traces, %u new texts (%s bytes), %u already stored\n"),
             name, session_path, set_id, result.n_entries, result.n_new_texts, bytes, result.n_known_texts);
  else
    g_print (_ ("nothing new: %s is already in %s (trace set %s, %u traces)\n"), name, session_path, set_id,
             result.n_entries);
  return WB_EXIT_OK;
}
