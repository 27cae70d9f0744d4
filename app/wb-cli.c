/* wb-cli.c — the command line: global options, dispatch to --headless commands or the GUI
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cli.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wb-data.h"
#include "wb-executors.h"
#include "wb-profiler.h"

#if HAVE_GUI
#include "wb-application.h"
#endif

typedef struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *usage;   /* the command's arguments, as in DESIGN.md */
  const char *summary; /* translated with _() when shown */
} WbCliCommand;

/* The --headless commands that exist now. DESIGN.md lists the planned ones (run, profile, compare,
 * export, record); they are named in --help's description so nobody thinks they are forgotten. */
static const WbCliCommand commands[] = {
  { "stages", wb_cli_command_stages, "PATH [--show K] [--format text|json]", N_ ("List the traces of PATH; --show K prints entry K") },
  { "print", wb_cli_command_print, "PATH", N_ ("Parse PATH and print it back (byte-identical)") },
  { "check", wb_cli_command_check, "PATH [--no-types]", N_ ("Verify every trace of PATH (types re-derived, names, regions)") },
  { "export", wb_cli_command_export, "PATH [--stage K] --as python|torch|dot|svg [-o FILE]", N_ ("Export entry K of PATH as Python, a standalone PyTorch script, DOT or SVG") },
  { "import", wb_cli_command_import, "PATH --session F", N_ ("Import the traces of PATH into session file F (idempotent)") },
  { "sessions", wb_cli_command_sessions, "SESSION [--format text|json] [--check]", N_ ("List the trace sets, runs and assignments of a session file") },
  { "compare", wb_cli_command_compare, "SESSION [RUN_A RUN_B] [--format md|json]", N_ ("Compare two runs per region and for the whole iteration (default: the latest two)") },
  { "run", wb_cli_command_run, "PATH [--stage K] [--device cpu|cuda [--allow-cpu-fallback]] [--inputs F] [--seed N] [--compare F] [--save-outputs F] [--check-shapes]", N_ ("Run a stage of PATH on the cpu executor (or the GPU); print (and --compare) outputs and gradients") },
  { "profile", wb_cli_command_profile, "PATH [--device cpu|cuda [--allow-cpu-fallback]] [--executors REGION=EXEC,...] [--iters N] [--warmup N] [--session F] [--report F.md|.json|.html] [--chrome-trace F.json] [--baseline SESSION[:RUN] --fail-above PCT]", N_ ("Profile a stage of PATH: per-region times, GB/s, TFLOP/s, reports, regression gate") },
  { "bisect", wb_cli_command_bisect, "PATH [--stage K] [--inputs F] [--seed N] [--default-executor EXEC]", N_ ("Find the first call whose GPU result makes the program disagree with the cpu (halving: first k calls on the GPU)") },
  { "coverage", wb_cli_command_coverage, "PATH... [--levels load,check,roundtrip,recompile,run-cpu,run-gpu] [--format md|json] [--jobs N] [--timeout S] [--cpu-budget-gflop G] [-o FILE]", N_ ("Run every case under PATH through each level; per case ok or the first error, and pass rates") },
  { "executors", wb_cli_command_executors, "[--format text|json]", N_ ("List the executors and which symbols (with dtypes) each runs") },
  { "record", wb_cli_command_record, "[--session F | --out DIR] [--save-inputs] [--profile] -- COMMAND…", N_ ("Run a Thunder program and capture every trace it compiles (also without --headless)") },
};

int
wb_cli_usage_error (const char *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("thunder-wb: %s\n", message);
  g_printerr (_ ("Run “thunder-wb --help” for usage.\n"));
  return WB_EXIT_BAD_INPUT;
}

int
wb_cli_option_once (const char *option,
                    char      **values,
                    char      **value)
{
  g_return_val_if_fail (option != NULL && value != NULL, WB_EXIT_BAD_INPUT);

  g_clear_pointer (value, g_free);
  if (values == NULL || values[0] == NULL)
    return WB_EXIT_OK;
  if (values[1] != NULL)
    return wb_cli_usage_error (_ ("%s given more than once (“%s”, then “%s”): give it once"), option, values[0], values[1]);
  *value = g_strdup (values[0]);
  return WB_EXIT_OK;
}

gboolean
wb_cli_parse_int_option (const char *option,
                         const char *value,
                         gint64      min,
                         gint64      max,
                         gint64     *out,
                         GError    **error)
{
  g_autofree char *text = g_strstrip (g_strdup (value));

  if (!g_ascii_string_to_signed (text, 10, min, max, out, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("%s takes a whole number from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ", not “%s”"),
                   option, min, max, value);
      return FALSE;
    }
  return TRUE;
}

char *
wb_cli_escape_controls (const char *text,
                        gboolean    keep_newlines)
{
  return wb_output_escape_text (text, -1, keep_newlines ? WB_ESCAPE_KEEP_LAYOUT : WB_ESCAPE_DEFAULT);
}

/* Everything g_print() and g_printerr() write (tables, messages, diagnostics: they quote names, paths
 * and text from files) goes out with its control characters and non-UTF-8 bytes escaped. */
static void
print_escaped (const char *text)
{
  g_autofree char *safe = wb_output_escape_text (text, -1, WB_ESCAPE_KEEP_LAYOUT);

  fputs (safe, stdout);
}

static void
printerr_escaped (const char *text)
{
  g_autofree char *safe = wb_output_escape_text (text, -1, WB_ESCAPE_KEEP_LAYOUT);

  fputs (safe, stderr);
  fflush (stderr);
}

gboolean
wb_cli_same_file (const char *a,
                  const char *b)
{
  g_autofree char *ca = g_canonicalize_filename (a, NULL);
  g_autofree char *cb = g_canonicalize_filename (b, NULL);
  GStatBuf         sa, sb;

  if (strcmp (ca, cb) == 0)
    return TRUE;
  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int
wb_cli_exit_code (const GError *error)
{
  g_return_val_if_fail (error != NULL, WB_EXIT_ENVIRONMENT);

  if (error->domain == WB_SESSION_ERROR)
    return error->code == WB_SESSION_ERROR_BUSY || error->code == WB_SESSION_ERROR_SQLITE ? WB_EXIT_ENVIRONMENT
                                                                                          : WB_EXIT_BAD_INPUT;
  if (error->domain == WB_EXECUTOR_ERROR)
    switch ((WbExecutorError) error->code)
      {
      case WB_EXECUTOR_ERROR_TYPE_MISMATCH:
      case WB_EXECUTOR_ERROR_CHECK_FAILED:
      case WB_EXECUTOR_ERROR_NAN:
        return WB_EXIT_CHECK_FAILED;
      case WB_EXECUTOR_ERROR_OUT_OF_MEMORY:
      case WB_EXECUTOR_ERROR_NO_DEVICE:
        return WB_EXIT_ENVIRONMENT;
      default: /* unsupported by this trace's symbols or dtypes, bad arguments, a bad tensors file */
        return WB_EXIT_BAD_INPUT;
      }
  if (error->domain == G_FILE_ERROR)
    switch ((GFileError) error->code)
      {
      case G_FILE_ERROR_NOSPC:
      case G_FILE_ERROR_NOMEM:
      case G_FILE_ERROR_IO:
      case G_FILE_ERROR_MFILE:
      case G_FILE_ERROR_NFILE:
        return WB_EXIT_ENVIRONMENT; /* the machine: a full disk, no memory, an I/O error */
      default:
        return WB_EXIT_BAD_INPUT; /* the path: missing, not allowed, a device, a directory */
      }
  if (error->domain == WB_PROFILE_ERROR)
    return error->code == WB_PROFILE_ERROR_UNAVAILABLE ? WB_EXIT_ENVIRONMENT : WB_EXIT_BAD_INPUT;
  if (error->domain == WB_EXPORT_ERROR)
    return error->code == WB_EXPORT_ERROR_UNSUPPORTED || error->code == WB_EXPORT_ERROR_LAYOUT ? WB_EXIT_ENVIRONMENT
                                                                                               : WB_EXIT_BAD_INPUT;
  if (error->domain == WB_TRACE_ERROR || error->domain == G_OPTION_ERROR || error->domain == WB_PIPELINE_ERROR ||
      error->domain == WB_ASSIGNMENT_ERROR)
    return WB_EXIT_BAD_INPUT;
  return WB_EXIT_ENVIRONMENT; /* the runner, CUDA, a library: the message says which */
}

int
wb_cli_report_error (const GError *error)
{
  g_return_val_if_fail (error != NULL, WB_EXIT_ENVIRONMENT);

  g_printerr ("%s\n", error->message);
  return wb_cli_exit_code (error);
}

gboolean
wb_cli_check_path (const char *path,
                   GError    **error)
{
  g_return_val_if_fail (path != NULL, FALSE);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s: %s", path, g_strerror (ENOENT));
  return FALSE;
}

WbTraceSet *
wb_cli_load (const char *path,
             GError    **error)
{
  gboolean    is_session = FALSE;
  WbTraceSet *set;

  if (!wb_cli_check_path (path, error))
    return NULL;
  set = wb_cli_load_session (path, &is_session, error); /* a .wbsession: its latest trace set */
  return is_session ? set : wb_trace_set_load (path, error);
}

/* Lists the files of a directory that did not load, as diagnostics: a file that failed to parse is an
 * error at its FILE:LINE:COL, a `None` file a note. Returns the number of errors. */
guint
wb_cli_report_failures (const WbTraceSet *set)
{
  guint n_errors = 0;

  for (guint i = 0; i < wb_trace_set_get_n_failures (set); i++)
    {
      const WbTraceFailure *f = wb_trace_set_get_failure (set, i);
      const char           *what = f->not_a_trace ? "note" : "error";
      const char           *m = f->message;
      const char           *q = g_str_has_prefix (m, f->path) ? m + strlen (f->path) : NULL;

      /* "FILE:LINE:COL: message" -> "FILE:LINE:COL: error: message" */
      for (int k = 0; q != NULL && k < 2; k++)
        {
          if (*q != ':' || !g_ascii_isdigit (q[1]))
            q = NULL;
          else
            for (q++; g_ascii_isdigit (*q); q++)
              ;
        }
      if (q != NULL && q[0] == ':' && q[1] == ' ')
        g_printerr ("%.*s: %s: %s\n", (int) (q - m), m, what, q + 2);
      else
        g_printerr ("%s: %s: %s\n", f->path, what, m);
      n_errors += f->not_a_trace ? 0 : 1;
    }
  return n_errors;
}

void
wb_cli_write (const char *data,
              gsize       len)
{
  g_autofree char *safe = NULL;

  /* a terminal gets the text with its control characters escaped; a file or a pipe every byte (print's
   * round trip, exports) */
  if (len > 0 && isatty (STDOUT_FILENO))
    {
      safe = wb_output_escape_text (data, (gssize) len, WB_ESCAPE_KEEP_LAYOUT);
      data = safe;
      len = strlen (safe);
    }
  if (len > 0 && fwrite (data, 1, len, stdout) != len)
    g_printerr ("thunder-wb: %s: %s\n", _ ("writing to standard output failed"), g_strerror (errno));
}

void
wb_cli_remove_tree (const char *path)
{
  GDir       *dir;
  const char *name;

  if (path == NULL)
    return;
  if ((dir = g_dir_open (path, 0, NULL)) != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            wb_cli_remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static const WbCliCommand *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_strcmp0 (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

/* command_names: "stages, print, check, ..." from the table (transfer full). */
static char *
command_names (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (s, "%s%s", i > 0 ? ", " : "", commands[i].name);
  return g_string_free (s, FALSE);
}

static char *
describe_commands (void)
{
  GString *s = g_string_new (_ ("Commands (with --headless):"));

  g_string_append_c (s, '\n');
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (s, "  %s %s\n      %s\n", commands[i].name, commands[i].usage,
                            _ (commands[i].summary));
  g_string_append_c (s, '\n');
  g_string_append (s, _ ("PATH is a printed trace file (one trace or several one after another) or a\n"
                         "directory laid out like traces/<case>/ (prologue_NN.py, forward_NN.py, stages/,\n"
                         "default_execs/, fallback/).\n"));
  g_string_append_c (s, '\n');
  g_string_append (s, _ ("Exit status: 0 ok, 1 the check failed, 2 bad input (the message names\n"
                         "file:line:col), 3 environment (no GUI built, no display)."));
  return g_string_free (s, FALSE);
}

static int
run_gui (const char *path)
{
  g_autoptr (GError) error = NULL;

  if (path != NULL && !wb_cli_check_path (path, &error))
    return wb_cli_report_error (error);
#if HAVE_GUI
  return wb_application_run (path);
#else
  g_printerr ("thunder-wb: %s\n",
              _ ("the GUI was not built (this build has -Dgui=false); use “thunder-wb --headless COMMAND PATH”"));
  return WB_EXIT_ENVIRONMENT;
#endif
}

/* --max-trace-bytes, else a $WB_MAX_TRACE_BYTES that must then be valid. FALSE after a usage error. */
static gboolean
apply_max_trace_bytes (const char *option)
{
  const char *env = g_getenv ("WB_MAX_TRACE_BYTES");
  guint64     size = 0;

  if (option != NULL && !wb_input_parse_size (option, &size))
    {
      wb_cli_usage_error (_ ("--max-trace-bytes takes a size in bytes from 1 (suffix K, M or G), not “%s”"), option);
      return FALSE;
    }
  if (option == NULL && env != NULL && !wb_input_parse_size (env, &size))
    {
      wb_cli_usage_error (_ ("WB_MAX_TRACE_BYTES must be a size in bytes from 1 (suffix K, M or G), not “%s”"), env);
      return FALSE;
    }
  wb_input_set_max_trace_bytes (size);
  return TRUE;
}

int
wb_cli_run (int    argc,
            char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = NULL;
  g_autofree char   *description = NULL;
  g_autofree char   *max_trace_bytes = NULL;
  gboolean           headless = FALSE;
  gboolean           version = FALSE;
  const GOptionEntry entries[] = {
    { "headless", 0, 0, G_OPTION_ARG_NONE, &headless, N_ ("Run COMMAND without the GUI"), NULL },
    { "max-trace-bytes", 0, 0, G_OPTION_ARG_STRING, &max_trace_bytes,
      N_ ("Refuse a trace file larger than SIZE bytes (suffix K, M or G; default 256M, or $WB_MAX_TRACE_BYTES)"), N_ ("SIZE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_ ("Print the version and exit"), NULL },
    { NULL }
  };
  const WbCliCommand *command;
  guint               n_args;

  g_set_prgname ("thunder-wb");
  g_set_print_handler (print_escaped);
  g_set_printerr_handler (printerr_escaped);
  args = g_new0 (char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  context = g_option_context_new (_ ("[PATH] | --headless COMMAND PATH [OPTION…]"));
  g_option_context_set_summary (context,
                                _ ("A workbench for Lightning Thunder's traces. Without --headless it opens\n"
                                   "PATH in the GUI."));
  description = describe_commands ();
  g_option_context_set_description (context, description);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  /* Stop at the first non-option: what follows belongs to the command, which parses its own options. */
  g_option_context_set_strict_posix (context, TRUE);

  if (!g_option_context_parse_strv (context, &args, &error))
    return wb_cli_usage_error ("%s", error->message);

  if (version)
    {
      g_print ("thunder-wb %s\n", PACKAGE_VERSION);
      return WB_EXIT_OK;
    }
  if (!apply_max_trace_bytes (max_trace_bytes))
    return WB_EXIT_BAD_INPUT;

  n_args = g_strv_length (args);

  if (!headless && n_args >= 2 && strcmp (args[1], "record") == 0)
    headless = TRUE; /* `thunder-wb record -- COMMAND` needs no GUI (DESIGN.md) */
  if (!headless)
    {
      if (n_args >= 2 && find_command (args[1]) != NULL &&
          !g_file_test (args[1], G_FILE_TEST_EXISTS))
        return wb_cli_usage_error (_ ("“%s” is a command: did you mean “thunder-wb --headless %s”?"),
                                   args[1], args[1]);
      if (n_args > 2)
        return wb_cli_usage_error (_ ("the GUI opens one PATH; got %u arguments"), n_args - 1);
      return run_gui (n_args == 2 ? args[1] : NULL);
    }

  if (n_args < 2)
    {
      g_autofree char *names = command_names ();

      return wb_cli_usage_error (_ ("--headless needs a COMMAND (%s)"), names);
    }

  command = find_command (args[1]);
  if (command == NULL)
    {
      g_autofree char *names = command_names ();

      return wb_cli_usage_error (_ ("unknown command “%s” (known: %s)"), args[1], names);
    }

  /* The command sees "thunder-wb" as argv[0] and its own arguments after it. */
  g_free (args[1]);
  memmove (&args[1], &args[2], (n_args - 1) * sizeof (char *));
  return command->run (n_args - 1, args);
}
