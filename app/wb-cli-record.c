/* wb-cli-record.c — `thunder-wb record [--session F | --out DIR] [--save-inputs] [--profile] -- COMMAND...`:
 * run a live Thunder program with the recorder (python/thunder_wb_record) and import what it captured
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Steps:
 *   1. find the recorder's Python package (find_package_dir: $THUNDER_WB_PYTHONDIR, the build tree, the
 *      installed $datadir/thunder-wb/python, the source tree);
 *   2. check that the command's Python imports torch and thunder (`PY -c "import torch; import thunder"`;
 *      PY is COMMAND[0] when its name starts with "python", else --python or python3): exit 3 with a clear
 *      message when it cannot;
 *   3. run COMMAND (GSubprocess; standard input, output and error are the terminal's) with PYTHONPATH
 *      starting with the package's folder and its _site/ (a sitecustomize.py that installs the import
 *      hook), THUNDER_WB_RECORD_DIR = the capture directory and the options as THUNDER_WB_RECORD_*;
 *      Ctrl-C reaches the command; thunder-wb waits for it and imports what was captured before it;
 *   4. read the capture's record.json (for a distributed program, first merged from the ranks'
 *      record-rank<R>.json by wb-cli-record-ranks.c: rank R's cases are <case>/rank<R>/); import every
 *      case folder into the session (wb_session_import_path)
 *      and turn each profile.json into a stored run whose regions carry the executor Thunder used;
 *   5. print a summary: traces per jitted function, the session, the trace sets and run ids.
 * Exit: 0 ok; 1 the command failed or nothing was captured; 2 bad usage or a capture that does not
 * import; 3 environment: no PyTorch/Thunder for the command's Python, the recorder package missing. */
#include "config.h"

#include "wb-cli-record.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define RECORD_MANIFEST "record.json"

typedef struct
{
  char    *session;
  char    *out;
  char    *python;
  gboolean save_inputs;
  gboolean profile;
  int      iters;
  int      warmup;
  int      profiled_iters;
  gboolean no_stages;
  char    *label;
} RecordOptions;

static void
record_options_clear (RecordOptions *o)
{
  g_free (o->session);
  g_free (o->out);
  g_free (o->python);
  g_free (o->label);
}

/* -- the recorder package ------------------------------------------------------------------------ */

static gboolean
is_package_dir (const char *dir)
{
  g_autofree char *init = g_build_filename (dir, "thunder_wb_record", "__init__.py", NULL);
  g_autofree char *site = g_build_filename (dir, "thunder_wb_record", "_site", "sitecustomize.py", NULL);

  return g_file_test (init, G_FILE_TEST_IS_REGULAR) && g_file_test (site, G_FILE_TEST_IS_REGULAR);
}

/* The folder holding thunder_wb_record/ (transfer full), or NULL with *@tried listing where it looked. */
static char *
find_package_dir (GString *tried)
{
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  const char      *env = g_getenv ("THUNDER_WB_PYTHONDIR");

  if (env != NULL && env[0] != '\0')
    g_ptr_array_add (candidates, g_strdup (env));
  if (exe != NULL)
    {
      g_autofree char *bindir = g_path_get_dirname (exe);

      /* build tree: build/app/thunder-wb -> build/python (a copy made by python/meson.build), then the
       * source tree beside the build folder; installed: $prefix/bin -> $prefix/share/thunder-wb/python */
      g_ptr_array_add (candidates, g_build_filename (bindir, "..", "python", NULL));
      g_ptr_array_add (candidates, g_build_filename (bindir, "..", "share", "thunder-wb", "python", NULL));
      g_ptr_array_add (candidates, g_build_filename (bindir, "..", "..", "python", NULL));
    }
  g_ptr_array_add (candidates, g_build_filename (PKGDATADIR, "python", NULL));
#ifdef WB_RECORD_SOURCE_PYTHONDIR
  g_ptr_array_add (candidates, g_strdup (WB_RECORD_SOURCE_PYTHONDIR));
#endif
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *dir = candidates->pdata[i];

      if (is_package_dir (dir))
        return g_canonicalize_filename (dir, NULL);
      g_string_append_printf (tried, "%s%s", tried->len ? ", " : "", dir);
    }
  return NULL;
}

/* -- the Python check ---------------------------------------------------------------------------- */

static const char check_script[] =
    "import sys\n"
    "bad = []\n"
    "for n in ('torch', 'thunder'):\n"
    "    try:\n"
    "        if not hasattr(__import__(n), 'jit'):\n"
    "            raise ImportError('%s is not the one needed: it has no %s.jit' % (n, n))\n"
    "    except BaseException as e:\n"
    "        m = str(e).splitlines()\n"
    "        bad.append('%s (%s%s)' % (n, type(e).__name__, ': ' + m[0] if m else ''))\n"
    "sys.stdout.write('; '.join(bad))\n"
    "sys.exit(3 if bad else 0)\n";

static gboolean
looks_like_python (const char *program)
{
  g_autofree char *base = g_path_get_basename (program);

  return g_str_has_prefix (base, "python");
}

static void
print_needs_thunder (const char *python, const char *why)
{
  g_printerr (_ ("thunder-wb: record needs PyTorch and Lightning Thunder, importable by the command’s Python (%s): %s\n"
                 "Install them into that Python (pip install torch lightning-thunder), or name the Python that has "
                 "them with --python or as the command.\n"),
              python, why);
}

/* Returns WB_EXIT_OK when @python imports torch and thunder; otherwise prints why and returns 3. */
static int
check_python (const char *python)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char      *argv[] = { python, "-c", check_script, NULL };
  int              status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error))
    {
      g_autofree char *why = g_strdup_printf (_ ("cannot run it: %s"), error->message);

      print_needs_thunder (python, why);
      return WB_EXIT_ENVIRONMENT;
    }
  if (g_spawn_check_wait_status (status, NULL))
    return WB_EXIT_OK;
  g_strstrip (out);
  if (out[0] == '\0')
    {
      g_autofree char *why = g_strdup_printf (_ ("it failed: %s"), g_strstrip (err));

      print_needs_thunder (python, why);
    }
  else
    print_needs_thunder (python, out);
  return WB_EXIT_ENVIRONMENT;
}

static gboolean
dir_is_empty (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);

  return dir != NULL && g_dir_read_name (dir) == NULL;
}

/* -- running the command -------------------------------------------------------------------------- */

static char **
record_environment (const RecordOptions *o, const char *package_dir, const char *capture)
{
  char           **env = g_get_environ ();
  g_autofree char *site = g_build_filename (package_dir, "thunder_wb_record", "_site", NULL);
  const char      *old = g_environ_getenv (env, "PYTHONPATH");
  g_autofree char *path = old && old[0] ? g_strjoin (":", package_dir, site, old, NULL) : g_strjoin (":", package_dir, site, NULL);
  g_autofree char *iters = g_strdup_printf ("%d", o->iters);
  g_autofree char *warmup = g_strdup_printf ("%d", o->warmup);
  g_autofree char *profiled = g_strdup_printf ("%d", o->profiled_iters);

  env = g_environ_setenv (env, "PYTHONPATH", path, TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_DIR", capture, TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_SAVE_INPUTS", o->save_inputs ? "1" : "0", TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_PROFILE", o->profile ? "1" : "0", TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_ITERS", iters, TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_WARMUP", warmup, TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_PROFILED_ITERS", profiled, TRUE);
  env = g_environ_setenv (env, "THUNDER_WB_RECORD_STAGES", o->no_stages ? "0" : "1", TRUE);
  return env;
}

/* Runs @argv with @env, output passed through; returns its wait status in *@status. */
static gboolean
run_command (char **argv, char **env, int *status, GError **error)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  g_autoptr (GSubprocess) child = NULL;
  void (*old_int) (int);
  gboolean ok;

  g_subprocess_launcher_set_environ (launcher, env);
  child = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv, error);
  if (child == NULL)
    return FALSE;
  /* Ctrl-C goes to the whole foreground group: the command decides; we wait and import what it left. */
  old_int = signal (SIGINT, SIG_IGN);
  ok = g_subprocess_wait (child, NULL, error);
  signal (SIGINT, old_int);
  if (ok)
    *status = g_subprocess_get_status (child);
  return ok;
}

/* -- the command --------------------------------------------------------------------------------- */

static char *
describe_counts (JsonObject *counts)
{
  static const char *const kinds[] = { "prologue", "forward", "backward", "epilogue", "stages" };
  GString                 *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_string_append_printf (s, "%s%s %" G_GINT64_FORMAT, i ? ", " : "", kinds[i], wb_cli_record_obj_int (counts, kinds[i], 0));
  return g_string_free (s, FALSE);
}

/* The capture directory (transfer full): --out, a temporary one for --session (*@temporary set), or a new
 * thunder-wb-record-DATE folder here. NULL after printing why, with the exit code in *@exit_code. */
static char *
make_capture_dir (const RecordOptions *o, gboolean *temporary, int *exit_code)
{
  g_autoptr (GError) error = NULL;
  char *capture;

  *temporary = FALSE;
  if (o->out != NULL)
    {
      if (g_mkdir_with_parents (o->out, 0755) != 0)
        {
          g_printerr ("thunder-wb: --out %s: %s\n", o->out, g_strerror (errno));
          *exit_code = WB_EXIT_ENVIRONMENT;
          return NULL;
        }
      return g_canonicalize_filename (o->out, NULL);
    }
  if (o->session != NULL)
    {
      if ((capture = g_dir_make_tmp ("thunder-wb-record-XXXXXX", &error)) == NULL)
        {
          *exit_code = wb_cli_report_error (error);
          return NULL;
        }
      *temporary = TRUE;
      return capture;
    }
  {
    g_autoptr (GDateTime) now = g_date_time_new_now_local ();
    g_autofree char *stamp = g_date_time_format (now, "thunder-wb-record-%Y%m%d-%H%M%S");

    if (g_mkdir (stamp, 0755) != 0)
      {
        g_printerr ("thunder-wb: record: %s: %s\n", stamp, g_strerror (errno));
        *exit_code = WB_EXIT_ENVIRONMENT;
        return NULL;
      }
    return g_canonicalize_filename (stamp, NULL);
  }
}

/* A case's profile.json (@profile in @case_dir) as a run of Thunder's own kernel times, stored in
 * @session when there is one. Returns the exit code it asks for; sets *@keep_capture on a failure. */
static int
import_profile (const RecordOptions *o, WbSession *session, const char *case_dir, const char *dir, const char *profile, gint64 trace_set_id, gboolean *keep_capture)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *profile_path = g_build_filename (case_dir, profile, NULL);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *label = o->label ? g_strdup (o->label) : g_strdup_printf ("thunder: %s (recorded)", dir);
  g_autoptr (WbRun) run = NULL;

  run = wb_cli_record_run_from_profile (profile_path, case_dir, label, notes, &error);
  if (run == NULL)
    {
      g_printerr ("thunder-wb: record: %s\n", error->message);
      *keep_capture = TRUE;
      return WB_EXIT_BAD_INPUT;
    }
  g_print ("    Thunder's own run: %s %s, median %.4f ms of %u iterations, %u regions, %u kernel records\n",
           run->device_name, run->device_model ? run->device_model : "", wb_run_get_iteration_median_ns (run) / 1e6,
           run->iteration_ns->len, run->regions->len, run->kernels->len);
  for (guint k = 0; k < notes->len; k++)
    g_print ("    note: %s\n", (const char *) notes->pdata[k]);
  if (session == NULL)
    {
      g_print ("    profile: %s\n", profile_path);
      return WB_EXIT_OK;
    }
  if (wb_session_store_run (session, run, trace_set_id, &error) == 0)
    {
      *keep_capture = TRUE;
      return wb_cli_report_session_error (error);
    }
  g_print ("    stored as run #%" G_GINT64_FORMAT "\n", run->id);
  return WB_EXIT_OK;
}

/* One case of the capture's manifest: its summary, its import into @session, its profile. Returns the
 * exit code it asks for, or -1 when it is not a case (an unsafe or missing folder); sets *@keep_capture
 * on a failure, so that the capture stays for a look. */
static int
import_case (const RecordOptions *o, WbSession *session, const char *capture, JsonObject *c, gboolean *keep_capture)
{
  const char      *dir = wb_cli_record_obj_string (c, "dir");
  const char      *profile = wb_cli_record_obj_string (c, "profile");
  const char      *function = wb_cli_record_obj_string (c, "function");
  JsonArray       *errors = wb_cli_record_obj_array (c, "errors");
  g_autofree char *case_dir = NULL;
  g_autofree char *counts = NULL;
  WbSessionImport  imported = { 0 };

  if (!wb_cli_record_safe_relative_path (dir))
    return -1;
  case_dir = g_build_filename (capture, dir, NULL);
  if (!g_file_test (case_dir, G_FILE_TEST_IS_DIR))
    return -1;
  counts = describe_counts (wb_cli_record_obj_object (c, "counts"));
  if (wb_cli_record_obj_int (c, "rank", -1) >= 0)
    g_print ("  %s (thunder.jit of %s, rank %" G_GINT64_FORMAT "): %s\n", dir, function ? function : "?",
             wb_cli_record_obj_int (c, "rank", -1), counts);
  else
    g_print ("  %s (thunder.jit of %s): %s\n", dir, function ? function : "?", counts);
  for (guint k = 0; errors != NULL && k < json_array_get_length (errors); k++)
    g_print ("    problem: %s\n", json_array_get_string_element (errors, k));

  if (session != NULL)
    {
      g_autoptr (GError) error = NULL;

      if (!wb_session_import_path (session, case_dir, &imported, &error))
        {
          *keep_capture = TRUE;
          return wb_cli_report_session_error (error); /* prints it */
        }
      g_print ("    trace set %" G_GINT64_FORMAT " in %s%s\n", imported.trace_set_id, wb_session_get_path (session),
               imported.new_trace_set ? "" : " (already there)");
    }
  if (profile != NULL && wb_cli_record_safe_component (profile))
    return import_profile (o, session, case_dir, dir, profile, imported.trace_set_id, keep_capture);
  return WB_EXIT_OK;
}

static int
record_main (RecordOptions *o, char **command)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) tried = g_string_new (NULL);
  g_autoptr (WbSession) session = NULL;
  g_autoptr (JsonNode) manifest = NULL;
  g_auto (GStrv) env = NULL;
  g_autofree char *package_dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *manifest_path = NULL;
  g_autoptr (GArray) ranks = NULL;
  const char *python;
  gboolean    temporary = FALSE;
  gboolean    keep_capture = FALSE;
  JsonArray  *cases;
  int         status = 0;
  int         exit_code = WB_EXIT_OK;
  guint       n_cases = 0;

  /* 0. usage: --out must be new or empty (checked before anything runs) */
  if (o->out != NULL && g_file_test (o->out, G_FILE_TEST_EXISTS) &&
      !(g_file_test (o->out, G_FILE_TEST_IS_DIR) && dir_is_empty (o->out)))
    return wb_cli_usage_error (_ ("--out %s: the folder must not exist yet or be empty"), o->out);

  /* 1. the package */
  if ((package_dir = find_package_dir (tried)) == NULL)
    {
      g_printerr (_ ("thunder-wb: record: the recorder’s Python package (thunder_wb_record) is not installed; "
                     "looked in %s (set THUNDER_WB_PYTHONDIR to the folder that holds it)\n"),
                  tried->str);
      return WB_EXIT_ENVIRONMENT;
    }

  /* 2. PyTorch and Thunder */
  python = o->python ? o->python : looks_like_python (command[0]) ? command[0]
                                                                  : "python3";
  if ((exit_code = check_python (python)) != WB_EXIT_OK)
    return exit_code;

  /* 3. the capture directory and the session */
  if ((capture = make_capture_dir (o, &temporary, &exit_code)) == NULL)
    return exit_code;
  if (o->session != NULL && (session = wb_session_open (o->session, WB_SESSION_OPEN_CREATE, &error)) == NULL)
    {
      if (temporary)
        wb_cli_remove_tree (capture);
      return wb_cli_report_session_error (error);
    }

  /* 4. the command */
  env = record_environment (o, package_dir, capture);
  if (!run_command (command, env, &status, &error))
    {
      g_printerr ("thunder-wb: record: %s: %s\n", command[0], error->message);
      if (temporary)
        wb_cli_remove_tree (capture);
      return WB_EXIT_ENVIRONMENT;
    }

  /* 5. what it captured (a distributed program's ranks: merged into record.json first) */
  manifest_path = g_build_filename (capture, RECORD_MANIFEST, NULL);
  if ((ranks = wb_cli_record_list_ranks (capture))->len > 0)
    {
      if ((manifest = wb_cli_record_merge_ranks (capture, &error)) == NULL)
        {
          g_printerr ("thunder-wb: record: %s\n", error->message);
          g_printerr (_ ("thunder-wb: record: the capture is kept in %s\n"), capture);
          return WB_EXIT_BAD_INPUT;
        }
    }
  else if (g_file_test (manifest_path, G_FILE_TEST_EXISTS))
    {
      g_clear_error (&error);
      if ((manifest = wb_cli_record_load_json (manifest_path, &error)) == NULL || !JSON_NODE_HOLDS_OBJECT (manifest))
        {
          g_printerr ("thunder-wb: record: %s: %s\n", manifest_path, error ? error->message : "not a JSON object");
          g_printerr (_ ("thunder-wb: record: the capture is kept in %s\n"), capture);
          return WB_EXIT_BAD_INPUT;
        }
    }
  cases = manifest ? wb_cli_record_obj_array (json_node_get_object (manifest), "cases") : NULL;

  g_print ("\n");
  if (g_spawn_check_wait_status (status, NULL))
    g_print ("record: %s exited with status 0\n", command[0]);
  else
    {
      g_autoptr (GError) st = NULL;

      g_spawn_check_wait_status (status, &st);
      g_print ("record: %s failed: %s\n", command[0], st->message);
      exit_code = WB_EXIT_CHECK_FAILED;
    }

  wb_cli_record_print_ranks (manifest);
  for (guint i = 0; cases != NULL && i < json_array_get_length (cases); i++)
    {
      int code = import_case (o, session, capture, json_array_get_object_element (cases, i), &keep_capture);

      if (code < 0)
        continue;
      n_cases++;
      exit_code = MAX (exit_code, code);
    }

  if (n_cases == 0)
    {
      g_autofree char *why = wb_cli_record_environment_problem (capture);

      if (why != NULL)
        {
          print_needs_thunder (python, why);
          exit_code = WB_EXIT_ENVIRONMENT;
        }
      else
        {
          g_print ("record: nothing was captured: the command made no call of a thunder.jit-compiled function\n");
          exit_code = MAX (exit_code, WB_EXIT_CHECK_FAILED);
        }
    }
  else
    g_print ("record: captured %u compiled %s\n", n_cases, n_cases == 1 ? "entry" : "entries");
  if (session != NULL)
    g_print ("session: %s\n", wb_session_get_path (session));
  if (!temporary || keep_capture)
    g_print ("traces: %s\n", capture);
  if (temporary && !keep_capture)
    wb_cli_remove_tree (capture);
  return exit_code;
}

int
wb_cli_command_record (int    argc,
                       char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  RecordOptions      o = { .iters = 20, .warmup = 3, .profiled_iters = 5 };
  const GOptionEntry entries[] = {
    { "session", 0, 0, G_OPTION_ARG_FILENAME, &o.session, N_ ("Import the traces (and runs) into session file F"), "F.wbsession" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &o.out, N_ ("Keep the captured trace folders in DIR (new or empty)"), "DIR" },
    { "save-inputs", 0, 0, G_OPTION_ARG_NONE, &o.save_inputs, N_ ("Also write each call's inputs and parameters (tensors.safetensors)"), NULL },
    { "profile", 0, 0, G_OPTION_ARG_NONE, &o.profile, N_ ("Also time Thunder's own program per region under torch.profiler"), NULL },
    { "iters", 0, 0, G_OPTION_ARG_INT, &o.iters, N_ ("With --profile: timed iterations (default 20)"), "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &o.warmup, N_ ("With --profile: untimed iterations first (default 3)"), "N" },
    { "profiled-iters", 0, 0, G_OPTION_ARG_INT, &o.profiled_iters, N_ ("With --profile: iterations under torch.profiler (default 5)"), "N" },
    { "python", 0, 0, G_OPTION_ARG_FILENAME, &o.python, N_ ("The Python to check for PyTorch and Thunder (default: COMMAND when it is a python, else python3)"), "PY" },
    { "no-stages", 0, 0, G_OPTION_ARG_NONE, &o.no_stages, N_ ("Do not capture Thunder's hidden intermediate stages"), NULL },
    { "label", 0, 0, G_OPTION_ARG_STRING, &o.label, N_ ("A note stored with Thunder's run"), "TEXT" },
    { NULL }
  };
  GOptionGroup *group;
  int           result;

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_set_prgname ("thunder-wb record");
  context = g_option_context_new ("[--] COMMAND [ARG…]");
  g_option_context_set_summary (context,
                                _ ("Runs COMMAND (a Python program that uses thunder.jit) with thunder-wb’s recorder and\n"
                                   "imports every prologue, computation, backward and epilogue trace it compiled, with\n"
                                   "Thunder’s hidden stages. --profile also stores Thunder’s own per-region kernel times as\n"
                                   "a run, for `compare`. Without --session or --out the traces go to a new folder\n"
                                   "thunder-wb-record-DATE-TIME here.\n"
                                   "Exit status: 0 ok, 1 the command failed or captured nothing, 2 bad usage or input,\n"
                                   "3 environment (PyTorch or Thunder missing for the command’s Python)."));
  group = g_option_group_new ("record", "", "", &o, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  /* options end at "--" or at the first word of COMMAND: the command's own options are its own */
  g_option_context_set_strict_posix (context, TRUE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      record_options_clear (&o);
      return wb_cli_usage_error ("%s", error->message);
    }
  g_set_prgname ("thunder-wb");

  {
    char **command = args + 1;

    if (command[0] != NULL && strcmp (command[0], "--") == 0)
      command++;
    if (command[0] == NULL)
      result = wb_cli_usage_error (_ ("“record” needs a COMMAND to run: thunder-wb record [--session F] -- python3 script.py"));
    else if (o.iters < 1 || o.profiled_iters < 1)
      result = wb_cli_usage_error (_ ("--iters and --profiled-iters must be at least 1"));
    else if (o.warmup < 0)
      result = wb_cli_usage_error (_ ("--warmup must be 0 or more"));
    else
      result = record_main (&o, command);
  }
  record_options_clear (&o);
  return result;
}

/* -- sessions as PATH (check, stages, print, export) --------------------------------------------- */

WbTraceSet *
wb_cli_load_session (const char *path,
                     gboolean   *is_session,
                     GError    **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autoptr (GPtrArray) sets = NULL;
  WbTraceSet *set = NULL;

  *is_session = FALSE;
  if (!wb_session_file_has_header (path))
    return NULL;
  *is_session = TRUE;
  /* a session of an older schema is migrated first (keeping its runs), then read */
  if ((session = wb_session_open (path, WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE, &local)) != NULL &&
      (sets = wb_session_list_trace_sets (session, &local)) != NULL)
    {
      if (sets->len == 0)
        g_set_error (&local, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND,
                     "%s: the session holds no traces (import some with “import PATH --session F”)", path);
      else
        set = wb_session_load_trace_set (session, ((const WbSessionTraceSet *) sets->pdata[sets->len - 1])->id, &local);
    }
  if (set == NULL)
    {
      if (local->domain == WB_TRACE_ERROR)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error_literal (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, local->message);
    }
  return set;
}
