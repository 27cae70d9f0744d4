/* wb-cli-commands.c — the --headless commands that exist now: stages, print, check
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-cli.h"
#include "wb-data.h"

/* parse_command: parses one command's options from @argc/@argv (argv[0] is the program name) and
 * takes exactly one PATH. On success returns TRUE and sets *@path (transfer full); otherwise prints
 * the problem and returns FALSE with *@exit_code set. */
static gboolean
parse_command (const char         *name,
               const char         *summary,
               const GOptionEntry *entries,
               int                 argc,
               char              **argv,
               char              **path,
               int                *exit_code)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("thunder-wb --headless %s", name);
  g_auto (GStrv) args = g_new0 (char *, argc + 1);

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  /* --help's usage line reads "thunder-wb --headless NAME [OPTION…] PATH". */
  g_set_prgname (prgname);
  context = g_option_context_new ("PATH");
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

  if (g_strv_length (args) != 2)
    {
      *exit_code = wb_cli_usage_error (_ ("“%s” takes one PATH"), name);
      return FALSE;
    }
  *path = g_strdup (args[1]);
  return TRUE;
}

/* -- stages ------------------------------------------------------------------------------------ */

static void
print_stages_text (const WbTraceSet *set)
{
  guint n = wb_trace_set_get_n_entries (set);
  int   subset_width = strlen ("subset");

  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      int                 len = (e->subset && e->subset[0]) ? (int) strlen (e->subset) : 1;

      subset_width = MAX (subset_width, len);
    }

  /* Column names are the project's vocabulary and stay untranslated: scripts read this table. */
  g_print ("%4s  %-8s  %5s  %-*s  %5s  %8s  %s\n",
           "#", "kind", "index", subset_width, "subset", "bsyms", "ms", "provenance");
  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      char                index[16] = "-";
      char                ms[32] = "-";

      if (e->index >= 0)
        g_snprintf (index, sizeof index, "%d", e->index);
      if (e->trace->provenance_ms >= 0)
        g_snprintf (ms, sizeof ms, "%g", e->trace->provenance_ms);
      g_print ("%4u  %-8s  %5s  %-*s  %5u  %8s  %s\n",
               i,
               wb_trace_kind_to_string (e->kind),
               index,
               subset_width,
               (e->subset && e->subset[0]) ? e->subset : "-",
               wb_trace_count_bsyms (e->trace),
               ms,
               e->trace->provenance ? e->trace->provenance : "-");
    }
}

static void
add_string_member (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_entry_json (JsonBuilder        *builder,
                guint               number,
                const WbTraceEntry *e,
                gboolean            with_text)
{
  const WbTrace *t = e->trace;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "number");
  json_builder_add_int_value (builder, number);
  add_string_member (builder, "kind", wb_trace_kind_to_string (e->kind));
  json_builder_set_member_name (builder, "index");
  if (e->index >= 0)
    json_builder_add_int_value (builder, e->index);
  else
    json_builder_add_null_value (builder);
  add_string_member (builder, "subset", e->subset ? e->subset : "");
  add_string_member (builder, "label", e->label);
  add_string_member (builder, "path", e->path);
  json_builder_set_member_name (builder, "first_line");
  json_builder_add_int_value (builder, t->first_line);
  json_builder_set_member_name (builder, "last_line");
  json_builder_add_int_value (builder, t->last_line);
  add_string_member (builder, "function", t->function_name);
  add_string_member (builder, "provenance", t->provenance);
  json_builder_set_member_name (builder, "milliseconds");
  if (t->provenance_ms >= 0)
    json_builder_add_double_value (builder, t->provenance_ms);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "bsyms");
  json_builder_add_int_value (builder, wb_trace_count_bsyms (t));
  if (with_text)
    {
      g_autofree char *text = wb_trace_to_string (t);

      add_string_member (builder, "text", text);
    }
  json_builder_end_object (builder);
}

static void
print_json (JsonBuilder *builder)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;
  gsize            len = 0;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &len);
  wb_cli_write (text, len);
  wb_cli_write ("\n", 1);
}

/* Lists the one case (or file) @path, or prints entry @show (-1: none); JSON into @builder when set (the
 * caller prints the builder when @in_ranks: one object of its "ranks" array). The command's exit code. */
static int
stages_one (const char           *path,
            int                   show,
            JsonBuilder          *builder,
            gboolean              in_ranks,
            WbCliPipelineOptions *popts)
{
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbPipeline) pipeline = NULL;
  g_autoptr (GError) error = NULL;
  guint n;

  if (!(set = wb_cli_load (path, &error)))
    return wb_cli_report_error (error);
  wb_cli_report_failures (set); /* the files that did not load; the rest is listed */
  if ((popts->recompile || popts->assignment || popts->plan_with) && !(pipeline = wb_cli_pipeline_run (set, popts, &error)))
    return wb_cli_report_error (error);
  n = wb_trace_set_get_n_entries (set);

  if (show != -1)
    {
      const WbTraceEntry *e;

      if (show < 0 || (guint) show >= n)
        return wb_cli_usage_error (_ ("--show %d: %s has %u entries, numbered from 0"), show, path, n);
      e = wb_trace_set_get_entry (set, show);
      if (builder != NULL)
        {
          add_entry_json (builder, show, e, TRUE);
          print_json (builder);
        }
      else
        {
          g_autoptr (GString) out = g_string_new (NULL);

          wb_trace_print (e->trace, out);
          wb_cli_write (out->str, out->len);
        }
      return WB_EXIT_OK;
    }

  if (builder != NULL)
    {
      json_builder_begin_object (builder);
      add_string_member (builder, "path", path);
      json_builder_set_member_name (builder, "entries");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n; i++)
        add_entry_json (builder, i, wb_trace_set_get_entry (set, i), FALSE);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      if (!in_ranks)
        print_json (builder);
    }
  else
    {
      print_stages_text (set);
      if (pipeline != NULL)
        wb_cli_pipeline_print_regions (pipeline, popts->remarks);
    }

  return WB_EXIT_OK;
}

int
wb_cli_command_stages (int    argc,
                       char **argv)
{
  g_autofree char *path = NULL;
  g_autofree char *format = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) ranks = NULL;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  int      show = -1;
  int      exit_code = WB_EXIT_OK;
  gboolean json;
  g_auto (WbCliPipelineOptions) popts = { 0 };
  g_autofree GOptionEntry *pentries = wb_cli_pipeline_entries (&popts);
  g_autoptr (GArray) all = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  const GOptionEntry entries[] = {
    { "show", 0, 0, G_OPTION_ARG_INT, &show, N_ ("Print the text of entry K (the # column)"), "K" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_ ("Output format: text (default) or json"), "text|json" },
  };

  g_array_append_vals (all, entries, G_N_ELEMENTS (entries));
  for (guint i = 0; pentries[i].long_name; i++)
    g_array_append_val (all, pentries[i]);
  if (!parse_command ("stages", _ ("Lists the traces of PATH: number, kind, index, sub-set, bound symbols,\n"
                                   "the milliseconds of the provenance line, and the provenance.\n"
                                   "With --recompile the workbench's own stages follow (sub-set “workbench”)."),
                      (const GOptionEntry *) all->data, argc, argv, &path, &exit_code))
    return exit_code;

  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    return wb_cli_usage_error (_ ("unknown --format “%s” (text or json)"), format);
  json = format != NULL && strcmp (format, "json") == 0;

  ranks = wb_case_dir_list_ranks (path, &error);
  if (ranks == NULL && error != NULL)
    return wb_cli_report_error (error);
  if (ranks == NULL)
    return stages_one (path, show, json ? builder : NULL, FALSE, &popts);
  /* a case recorded per rank (PATH/rank0, PATH/rank1, ...): each rank folder is a case of its own */
  if (show != -1)
    return wb_cli_usage_error (_ ("--show %d: %s holds one case per rank: give one of them, such as %s"), show, path, ranks[0]);
  if (json)
    {
      json_builder_begin_object (builder);
      add_string_member (builder, "path", path);
      json_builder_set_member_name (builder, "ranks");
      json_builder_begin_array (builder);
    }
  for (guint r = 0; ranks[r] != NULL; r++)
    {
      int code;
      if (!json)
        {
          g_autofree char *header = g_strdup_printf ("### %s\n", ranks[r]);
          wb_cli_write (header, strlen (header));
        }
      code = stages_one (ranks[r], -1, json ? builder : NULL, TRUE, &popts);
      if (code != WB_EXIT_OK)
        return code;
    }
  if (json)
    {
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      print_json (builder);
    }
  return WB_EXIT_OK;
}

/* -- print ------------------------------------------------------------------------------------- */

int
wb_cli_command_print (int    argc,
                      char **argv)
{
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  int exit_code = WB_EXIT_OK;

  if (!parse_command ("print", _ ("Parses PATH and prints every trace back. For a file the output is the\n"
                                  "file byte for byte; for a directory, or a session file's latest trace\n"
                                  "set, each file's traces follow a line “### FILE” (which always starts a\n"
                                  "line of its own)."),
                      NULL, argc, argv, &path, &exit_code))
    return exit_code;

  /* a directory or a session file: every entry of its set, each file's traces after "### FILE" */
  if (g_file_test (path, G_FILE_TEST_IS_DIR) || wb_session_file_has_header (path))
    {
      g_autoptr (WbTraceSet) set = NULL;
      const char *previous = NULL;

      if (!(set = wb_cli_load (path, &error)))
        return wb_cli_report_error (error);
      for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
        {
          const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

          if (g_strcmp0 (previous, e->path) != 0)
            {
              /* Thunder's files end without a newline: the separator still starts a line. */
              if (out->len > 0 && out->str[out->len - 1] != '\n')
                g_string_append_c (out, '\n');
              g_string_append_printf (out, "### %s\n", e->path);
            }
          previous = e->path;
          wb_trace_print (e->trace, out);
        }
      /* the files that did not load are listed; the others are printed */
      if (wb_cli_report_failures (set) > 0)
        exit_code = WB_EXIT_BAD_INPUT;
    }
  else
    {
      /* A single file is printed in its own order (a set would sort its traces by kind). */
      g_autoptr (GPtrArray) traces = NULL;

      if (wb_cli_check_path (path, &error))
        traces = wb_trace_parse_file (path, &error);
      if (traces == NULL)
        return wb_cli_report_error (error);
      for (guint i = 0; i < traces->len; i++)
        wb_trace_print (g_ptr_array_index (traces, i), out);
    }

  wb_cli_write (out->str, out->len);
  return exit_code;
}

/* -- check ------------------------------------------------------------------------------------- */

/* Checks the one case (or file) @path: diagnostics, then its summary line; the command's exit code. */
static int
check_one (const char *path,
           gboolean    no_types)
{
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) sharded = NULL;
  guint n_errors = 0;
  guint n_warnings = 0;
  guint n;

  if (!(set = wb_cli_load (path, &error)))
    return wb_cli_report_error (error);

  n = wb_trace_set_get_n_entries (set);
  /* FSDP's sharded parameters, which Thunder prints as shards before its fsdp pass */
  sharded = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    wb_dist_sharded_params_add (sharded, wb_trace_set_get_entry (set, i)->trace);
  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autoptr (GPtrArray) diagnostics = wb_trace_verify_full (e->trace, no_types ? WB_VERIFY_NO_TYPES : WB_VERIFY_DEFAULT, sharded, NULL);

      for (guint j = 0; j < diagnostics->len; j++)
        {
          const WbDiagnostic *d = g_ptr_array_index (diagnostics, j);
          g_autofree char    *line = wb_diagnostic_to_string (d);

          g_printerr ("%s\n", line);
          if (d->severity == WB_DIAGNOSTIC_WARNING)
            n_warnings++;
        }
      n_errors += wb_diagnostics_count_errors (diagnostics);
    }

  n_errors += wb_cli_report_failures (set);

  /* TRANSLATORS: the summary of `check`: PATH, traces checked, errors, warnings */
  g_print (_ ("%s: %u traces checked, %u errors, %u warnings\n"), path, n, n_errors, n_warnings);
  if (wb_trace_set_get_n_failures (set) > 0)
    /* TRANSLATORS: after the summary of `check` on a directory: PATH, files that did not load */
    g_print (_ ("%s: %u files not loaded (listed above; the other files were checked)\n"), path,
             wb_trace_set_get_n_failures (set));
  return n_errors > 0 ? WB_EXIT_CHECK_FAILED : WB_EXIT_OK;
}

int
wb_cli_command_check (int    argc,
                      char **argv)
{
  g_autofree char *path = NULL;
  g_auto (GStrv) ranks = NULL;
  g_autoptr (GError) error = NULL;
  gboolean           no_types = FALSE;
  int                exit_code = WB_EXIT_OK;
  const GOptionEntry entries[] = {
    { "no-types", 0, 0, G_OPTION_ARG_NONE, &no_types, N_ ("Check names and regions only; do not re-derive types"), NULL },
    { NULL }
  };

  if (!parse_command ("check", _ ("Verifies every trace of PATH: each annotated type is re-derived from the\n"
                                  "symbol table, names are defined before use and once, fusion regions are\n"
                                  "well formed and uniquely named. Diagnostics go to standard error as\n"
                                  "FILE:LINE:COL: error: MESSAGE; the exit status is 1 when any is an error.\n"
                                  "A case recorded per rank (PATH/rank0, PATH/rank1, ...) is checked rank by rank."),
                      entries, argc, argv, &path, &exit_code))
    return exit_code;

  /* a case recorded per rank (CASE/rank0, CASE/rank1, ...): each rank folder is a case of its own */
  ranks = wb_case_dir_list_ranks (path, &error);
  if (ranks == NULL && error != NULL)
    return wb_cli_report_error (error);
  if (ranks == NULL)
    return check_one (path, no_types);
  for (guint r = 0; ranks[r] != NULL; r++)
    {
      int code = check_one (ranks[r], no_types);
      exit_code = MAX (exit_code, code); /* 1 check failed < 2 bad input < 3 environment */
    }
  return exit_code;
}
