/* wb-cli-coverage.c — `thunder-wb --headless coverage PATH...`: every case under the paths, each level's
 * result (ok, or the first error), and a summary of pass rates
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * thunder-wb --headless coverage PATH... [--levels load,check,roundtrip,recompile,run-cpu,run-gpu]
 *     [--format md|json] [--jobs N] [--timeout S] [--cpu-budget-gflop G] [-o FILE]
 * A case is a folder at or below a PATH that holds prologue_NN.py, forward_NN.py, backward_NN.py or
 * epilogue_NN.py (its stages/ belong to it; its sub-sets default_execs/ and fallback/ are cases of their
 * own), or a PATH that is a file. Each case runs in a child process of this binary (`--one-case`,
 * wb-cli-coverage-case.c) in its own process group, so that a crash, an abort or a hang is that case's
 * error and the others go on; --jobs children at a time, each with --timeout seconds. A run-cpu that
 * times out is not run (too costly), and run-gpu is then tried in a new child.
 * Exit: 0 every level asked passed for every case; 1 a level failed or was not run; 2 bad usage or a
 * PATH with no case; 3 the children could not be started or the report not written. */
#include "config.h"

#include "wb-cli-coverage.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "wb-profiler.h"

typedef struct
{
  char **levels;
  char  *format;
  char  *output;
  gint   jobs;
  gint   timeout_s;
  double cpu_budget_gflop;
  char  *one_case;
  gint   threads;
  char  *no_cuda;
} CoverageOptions;

static void
coverage_options_clear (CoverageOptions *o)
{
  g_strfreev (o->levels);
  g_free (o->format);
  g_free (o->output);
  g_free (o->one_case);
  g_free (o->no_cuda);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CoverageOptions, coverage_options_clear)

/* -- finding the cases ---------------------------------------------------------------------------- */

/* "forward_03.py" and the like: the files that make a folder a case. */
static gboolean
is_trace_file_name (const char *name)
{
  static const char *const prefixes[] = { "prologue_", "forward_", "backward_", "epilogue_" };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      {
        const char *p = name + strlen (prefixes[i]);

        if (!g_ascii_isdigit (*p))
          return FALSE;
        while (g_ascii_isdigit (*p))
          p++;
        return strcmp (p, ".py") == 0;
      }
  return FALSE;
}

typedef struct
{
  GPtrArray  *cases;   /* (element-type WbCliCoverageCase) */
  GPtrArray  *skipped; /* (element-type WbCliCoverageSkipped) */
  GHashTable *seen;    /* real paths of the folders visited */
} Finder;

static void
find_cases (Finder *f, const char *dir, const char *name, guint depth)
{
  g_autoptr (GDir) d = NULL;
  g_autoptr (GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *real = realpath (dir, NULL);
  g_autofree char *meta = g_build_filename (dir, "meta.json", NULL);
  g_autofree char *zoo = g_build_filename (dir, "zoo.json", NULL);
  const char      *entry;
  gboolean         is_case = FALSE;

  if (depth > 16 || real == NULL || !g_hash_table_add (f->seen, g_strdup (real)) || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return;
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, entry, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          if (entry[0] != '.' && strcmp (entry, "stages") != 0)
            g_ptr_array_add (subdirs, g_strdup (entry));
        }
      else if (is_trace_file_name (entry))
        is_case = TRUE;
    }
  if (is_case)
    {
      WbCliCoverageCase *k = g_new0 (WbCliCoverageCase, 1);

      k->name = g_strdup (name);
      k->path = g_strdup (dir);
      g_ptr_array_add (f->cases, k);
    }
  else if (g_file_test (meta, G_FILE_TEST_IS_REGULAR))
    {
      WbCliCoverageSkipped *s = g_new0 (WbCliCoverageSkipped, 1);
      g_autofree char      *why = wb_case_dir_explain_empty (dir);

      s->name = g_strdup (name);
      s->path = g_strdup (dir);
      s->reason = g_strdup_printf ("no trace files; %s", why);
      g_ptr_array_add (f->skipped, s);
    }
  else if (subdirs->len == 0 && g_file_test (zoo, G_FILE_TEST_IS_REGULAR))
    {
      WbCliCoverageSkipped *s = g_new0 (WbCliCoverageSkipped, 1);
      g_autofree char      *why = wb_case_dir_explain_empty (dir);

      s->name = g_strdup (name);
      s->path = g_strdup (dir);
      s->reason = g_strdup_printf ("no trace files; %s", why);
      g_ptr_array_add (f->skipped, s);
    }
  for (guint i = 0; i < subdirs->len; i++)
    {
      g_autofree char *child = g_build_filename (dir, subdirs->pdata[i], NULL);
      g_autofree char *child_name = *name ? g_strconcat (name, "/", subdirs->pdata[i], NULL) : g_strdup (subdirs->pdata[i]);

      find_cases (f, child, child_name, depth + 1);
    }
}

/* The name of @path as a case: its base name ("." and "/" resolved). */
static char *
base_name (const char *path)
{
  g_autofree char *real = realpath (path, NULL);
  g_autofree char *trimmed = g_strdup (real != NULL ? real : path);

  while (strlen (trimmed) > 1 && g_str_has_suffix (trimmed, "/"))
    trimmed[strlen (trimmed) - 1] = '\0';
  return g_path_get_basename (trimmed);
}

static gboolean
folder_is_case (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    if (is_trace_file_name (entry))
      return TRUE;
  return FALSE;
}

static int
cmp_cases (gconstpointer a, gconstpointer b)
{
  const WbCliCoverageCase *x = *(WbCliCoverageCase *const *) a, *y = *(WbCliCoverageCase *const *) b;
  int                      c = strcmp (x->name, y->name);

  return c != 0 ? c : strcmp (x->path, y->path);
}

/* Fills @report's cases and skipped folders from @paths; FALSE (exit 2) with the message printed when a
 * PATH does not exist or none holds a case. */
static gboolean
collect_cases (WbCliCoverageReport *report, char **paths)
{
  Finder f = { report->cases, report->skipped, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };

  for (guint i = 0; paths[i] != NULL; i++)
    {
      if (!g_file_test (paths[i], G_FILE_TEST_EXISTS))
        {
          g_printerr ("thunder-wb: %s: %s\n", paths[i], g_strerror (ENOENT));
          g_hash_table_unref (f.seen);
          return FALSE;
        }
      if (!g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        {
          WbCliCoverageCase *k = g_new0 (WbCliCoverageCase, 1);

          k->name = base_name (paths[i]);
          k->path = g_strdup (paths[i]);
          g_ptr_array_add (report->cases, k);
          continue;
        }
      {
        g_autofree char *name = folder_is_case (paths[i]) ? base_name (paths[i]) : g_strdup ("");

        find_cases (&f, paths[i], name, 0);
      }
    }
  g_hash_table_unref (f.seen);
  g_ptr_array_sort (report->cases, cmp_cases);
  for (guint i = 0; i < report->cases->len; i++)
    {
      WbCliCoverageCase *k = report->cases->pdata[i];

      k->files = wb_cli_coverage_list_files (k->path);
    }
  if (report->cases->len == 0)
    {
      g_printerr ("thunder-wb: %s", _ ("no case under the paths given: a case is a folder holding "
                                       "prologue_NN.py, forward_NN.py, backward_NN.py or epilogue_NN.py, or a trace file\n"));
      for (guint i = 0; i < report->skipped->len; i++)
        g_printerr ("  %s: %s\n", ((WbCliCoverageSkipped *) report->skipped->pdata[i])->path,
                    ((WbCliCoverageSkipped *) report->skipped->pdata[i])->reason);
      return FALSE;
    }
  return TRUE;
}

/* -- the children ---------------------------------------------------------------------------------- */

typedef struct _Scheduler Scheduler;

/* One child at work on one case. */
typedef struct
{
  Scheduler         *scheduler;
  WbCliCoverageCase *kase;
  guint              levels; /* the levels this child runs */
  GSubprocess       *process;
  GSource           *timeout;
  gboolean           timed_out;
  GBytes            *out;
  GBytes            *err;
} Child;

struct _Scheduler
{
  const WbCliCoverageReport *report;
  const char                *self;    /* this program */
  const char                *no_cuda; /* (nullable) */
  guint                      threads;
  GQueue                     queue; /* (element-type Child) waiting */
  guint                      running;
  guint                      finished;
  GError                    *error; /* a child that could not be started */
};

static void
child_free (Child *c)
{
  if (c->timeout != NULL)
    {
      g_source_destroy (c->timeout);
      g_source_unref (c->timeout);
    }
  g_clear_object (&c->process);
  g_clear_pointer (&c->out, g_bytes_unref);
  g_clear_pointer (&c->err, g_bytes_unref);
  g_free (c);
}

static void
queue_case (Scheduler *s, WbCliCoverageCase *kase, guint levels)
{
  Child *c = g_new0 (Child, 1);

  c->scheduler = s;
  c->kase = kase;
  c->levels = levels;
  g_queue_push_tail (&s->queue, c);
}

static void
child_setup (gpointer data)
{
  (void) data;
  setpgid (0, 0); /* a group of its own: a timeout ends the child and whatever it started */
}

/* Kills the child's process group (SIGKILL) while the child has not been reaped. */
static gboolean
on_timeout (gpointer data)
{
  Child      *c = data;
  const char *id = g_subprocess_get_identifier (c->process);

  c->timed_out = TRUE;
  if (id != NULL)
    kill (-(pid_t) g_ascii_strtoll (id, NULL, 10), SIGKILL);
  g_clear_pointer (&c->timeout, g_source_unref);
  return G_SOURCE_REMOVE;
}

static void child_finish (Child *c);

static void
on_waited (GObject *source, GAsyncResult *result, gpointer data)
{
  Child *c = data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  child_finish (c);
}

static void
on_communicated (GObject *source, GAsyncResult *result, gpointer data)
{
  Child *c = data;

  g_subprocess_communicate_finish (G_SUBPROCESS (source), result, &c->out, &c->err, NULL);
  g_subprocess_wait_async (c->process, NULL, on_waited, c);
}

static gboolean
child_start (Child *c, GError **error)
{
  Scheduler *s = c->scheduler;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) levels = g_string_new (NULL);

  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if (c->levels & (1u << l))
      g_string_append_printf (levels, "%s%s", levels->len ? "," : "", wb_cli_coverage_level_to_string (l));
  g_ptr_array_add (argv, g_strdup (s->self));
  g_ptr_array_add (argv, g_strdup ("--headless"));
  g_ptr_array_add (argv, g_strdup ("coverage"));
  g_ptr_array_add (argv, g_strdup ("--levels"));
  g_ptr_array_add (argv, g_strdup (levels->str));
  g_ptr_array_add (argv, g_strdup_printf ("--cpu-budget-gflop=%.17g", s->report->cpu_budget_gflop));
  g_ptr_array_add (argv, g_strdup_printf ("--threads=%u", s->threads));
  if (s->no_cuda != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--no-cuda=%s", s->no_cuda));
  g_ptr_array_add (argv, g_strdup_printf ("--one-case=%s", c->kase->path));
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  c->process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, error);
  if (c->process == NULL)
    return FALSE;
  s->running++;
  g_subprocess_communicate_async (c->process, NULL, NULL, on_communicated, c);
  c->timeout = g_timeout_source_new_seconds (s->report->timeout_s);
  g_source_set_callback (c->timeout, on_timeout, c, NULL);
  g_source_attach (c->timeout, g_main_context_get_thread_default ());
  return TRUE;
}

/* Applies the child's lines to its case; returns the first level it started without a result, or
 * WB_CLI_COVERAGE_N_LEVELS when every level it was asked has one. */
static WbCliCoverageLevel
apply_lines (Child *c)
{
  gsize            len = 0;
  const char      *data = c->out ? g_bytes_get_data (c->out, &len) : NULL;
  g_autofree char *text = g_strndup (data != NULL ? data : "", len);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint done = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *o;
      const char *name;
      guint       l;

      if (lines[i][0] == '\0' || !json_parser_load_from_data (parser, lines[i], -1, NULL) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      o = json_node_get_object (json_parser_get_root (parser));
      name = json_object_get_string_member_with_default (o, "level", "");
      for (l = 0; l < WB_CLI_COVERAGE_N_LEVELS && strcmp (name, wb_cli_coverage_level_to_string (l)) != 0; l++)
        ;
      if (l < WB_CLI_COVERAGE_N_LEVELS && (c->levels & (1u << l)) && json_object_has_member (o, "result") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "result")) &&
          wb_cli_coverage_result_from_json (&c->kase->levels[l], json_object_get_object_member (o, "result")))
        done |= 1u << l;
    }
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if ((c->levels & (1u << l)) && !(done & (1u << l)))
      return l;
  return WB_CLI_COVERAGE_N_LEVELS;
}

/* The last line the child wrote to its standard error, for a crash's message (transfer full). */
static char *
last_message (Child *c)
{
  gsize            len = 0;
  const char      *data = c->err ? g_bytes_get_data (c->err, &len) : NULL;
  g_autofree char *text = g_strstrip (g_strndup (data != NULL ? data : "", len));
  const char      *nl = strrchr (text, '\n');

  return g_strdup (nl != NULL ? nl + 1 : text);
}

/* How the child ended without a result for @level ("crashed: signal 11 (Segmentation fault)"). */
static char *
describe_end (Child *c, WbCliCoverageLevel level)
{
  const char      *name = wb_cli_coverage_level_to_string (level);
  g_autofree char *last = last_message (c);
  g_autofree char *how = NULL;

  if (c->timed_out)
    return g_strdup_printf ("timed out after %u s at level %s", c->scheduler->report->timeout_s, name);
  if (g_subprocess_get_if_signaled (c->process))
    {
      int sig = g_subprocess_get_term_sig (c->process);

      how = g_strdup_printf ("crashed: signal %d (%s) at level %s", sig, g_strsignal (sig), name);
    }
  else
    how = g_strdup_printf ("exited with status %d at level %s without a result", g_subprocess_get_exit_status (c->process), name);
  if (*last == '\0')
    return g_steal_pointer (&how);
  return g_strdup_printf ("%s; its last message: %s", how, last);
}

static void
print_progress (Scheduler *s, const WbCliCoverageCase *k)
{
  g_autoptr (GString) line = g_string_new (NULL);

  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if (s->report->levels & (1u << l))
      g_string_append_printf (line, " %s %s", wb_cli_coverage_level_to_string (l),
                              k->levels[l].status == WB_CLI_COVERAGE_OK ? "ok" : k->levels[l].status == WB_CLI_COVERAGE_FAIL ? "FAIL"
                                                                                                                             : "-");
  g_printerr ("coverage: [%u/%u] %s:%s\n", s->finished, s->report->cases->len, k->name, line->str);
}

static void
child_finish (Child *c)
{
  Scheduler         *s = c->scheduler;
  WbCliCoverageLevel missing = apply_lines (c);

  s->running--;
  if (missing < WB_CLI_COVERAGE_N_LEVELS)
    {
      g_autofree char *why = describe_end (c, missing);
      guint            rest = c->levels & ~((2u << missing) - 1);

      if (c->timed_out && missing == WB_CLI_COVERAGE_RUN_CPU)
        {
          g_autofree char *detail = g_strdup_printf ("still running after %u s (--timeout)", s->report->timeout_s);

          wb_cli_coverage_result_set_not_run (&c->kase->levels[missing], WB_CLI_COVERAGE_REASON_TIMEOUT, detail);
          if (rest != 0)
            {
              queue_case (s, c->kase, rest); /* run-gpu in a child of its own, with a new --timeout */
              child_free (c);
              return;
            }
        }
      else
        {
          WbCliCoverageResult *r = &c->kase->levels[missing];

          wb_cli_coverage_result_set_fail (r, "%s", why);
          if (missing <= WB_CLI_COVERAGE_ROUNDTRIP) /* a file level: none of the case's files counts as passed */
            {
              r->has_files = TRUE;
              r->files_ok = 0;
              r->files = c->kase->files->len;
            }
          for (guint l = missing + 1; l < WB_CLI_COVERAGE_N_LEVELS; l++)
            if (rest & (1u << l))
              wb_cli_coverage_result_set_not_run (&c->kase->levels[l], WB_CLI_COVERAGE_REASON_EARLIER, NULL);
        }
    }
  s->finished++;
  print_progress (s, c->kase);
  child_free (c);
}

/* Runs every case in children, @jobs at a time. FALSE with @error when a child could not be started. */
static gboolean
run_children (WbCliCoverageReport *report, const char *self, const char *no_cuda, GError **error)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  Scheduler s = { 0 };

  s.report = report;
  s.self = self;
  s.no_cuda = no_cuda;
  s.threads = MAX (1, g_get_num_processors () / report->jobs);
  g_queue_init (&s.queue);
  for (guint i = 0; i < report->cases->len; i++)
    queue_case (&s, report->cases->pdata[i], report->levels);

  g_main_context_push_thread_default (context);
  while (s.error == NULL && (s.running > 0 || !g_queue_is_empty (&s.queue)))
    {
      while (s.error == NULL && s.running < report->jobs && !g_queue_is_empty (&s.queue))
        {
          Child *c = g_queue_pop_head (&s.queue);

          if (!child_start (c, &s.error))
            child_free (c);
        }
      if (s.running > 0)
        g_main_context_iteration (context, TRUE);
    }
  while (s.running > 0) /* after a failure to start one, let the others end */
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  g_queue_clear_full (&s.queue, (GDestroyNotify) child_free);
  if (s.error != NULL)
    {
      g_propagate_prefixed_error (error, s.error, "%s: ", _ ("cannot start a child process for coverage"));
      return FALSE;
    }
  return TRUE;
}

/* Why CUDA cannot be used here (transfer full), or NULL when the GPU runner reaches a device. */
static char *
probe_cuda (void)
{
  g_autoptr (WbRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;

  if ((runner = wb_runner_new (&error)) == NULL || !wb_runner_probe (runner, &device, &error))
    return g_strdup (g_str_has_prefix (error->message, "CUDA is not available: ") ? error->message + strlen ("CUDA is not available: ")
                                                                                  : error->message);
  return NULL;
}

/* -- the command ----------------------------------------------------------------------------------- */

/* The child's side: writes the result lines to what was standard output and sends everything else the
 * case prints (the GPU runner's tables) to standard error. */
static int
run_one_case (const CoverageOptions *o, guint levels)
{
  WbCliCoverageCaseOptions co = { levels, o->cpu_budget_gflop, (guint) MAX (0, o->threads), o->no_cuda };
  int                      fd = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  int                      code;

  if (fd < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    {
      g_printerr ("thunder-wb: coverage: %s\n", g_strerror (errno));
      return WB_EXIT_ENVIRONMENT;
    }
  code = wb_cli_coverage_run_case (o->one_case, &co, fd);
  fflush (stdout);
  close (fd);
  return code;
}

static int
write_report (const WbCliCoverageReport *report, const CoverageOptions *o, gboolean json)
{
  g_autofree char *text = json ? wb_cli_coverage_report_to_json (report) : wb_cli_coverage_report_to_markdown (report, FALSE);
  g_autoptr (GError) error = NULL;

  if (o->output == NULL)
    {
      wb_cli_write (text, strlen (text));
      return WB_EXIT_OK;
    }
  if (!wb_output_write (o->output, text, -1, &error)) /* atomically, or in place for a FIFO or terminal */
    {
      g_printerr ("thunder-wb: %s\n", error->message);
      return wb_cli_exit_code (error);
    }
  {
    g_autofree char *summary = wb_cli_coverage_report_to_markdown (report, TRUE);

    wb_cli_write (summary, strlen (summary));
    g_print (_ ("report written to %s\n"), o->output);
  }
  return WB_EXIT_OK;
}

/* Checks the options' values; FALSE after printing the problem (exit 2). */
static gboolean
check_options (CoverageOptions *o, guint *levels, gboolean *json)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *list = o->levels != NULL ? g_strjoinv (",", o->levels) : NULL;

  *levels = WB_CLI_COVERAGE_ALL_LEVELS;
  if (list != NULL && !wb_cli_coverage_parse_levels (list, levels, &error))
    return wb_cli_usage_error ("%s", error->message), FALSE;
  if (o->format == NULL)
    *json = o->output != NULL && g_str_has_suffix (o->output, ".json");
  else if (strcmp (o->format, "md") == 0 || strcmp (o->format, "json") == 0)
    *json = strcmp (o->format, "json") == 0;
  else
    return wb_cli_usage_error (_ ("unknown --format “%s” (md or json)"), o->format), FALSE;
  if (o->jobs < 0 || o->jobs > 256)
    return wb_cli_usage_error (_ ("--jobs takes a number from 1 to 256, not %d"), o->jobs), FALSE;
  if (o->timeout_s <= 0)
    return wb_cli_usage_error (_ ("--timeout takes a number of seconds >= 1, not %d"), o->timeout_s), FALSE;
  if (!(o->cpu_budget_gflop >= 0))
    return wb_cli_usage_error (_ ("--cpu-budget-gflop takes a number >= 0")), FALSE;
  if (o->jobs == 0)
    o->jobs = (gint) MIN (g_get_num_processors (), 4u);
  return TRUE;
}

/* Parses the command line into @o; returns the PATHs (transfer full), or NULL with *@exit_code set. */
static GStrv
parse_options (int argc, char **argv, CoverageOptions *o, int *exit_code)
{
  const GOptionEntry entries[] = {
    { "levels", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->levels,
      N_ ("Levels to run, comma separated (default: all): load, check, roundtrip, recompile, run-cpu, run-gpu"), "LIST" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o->format, N_ ("Report format: md (default; json when -o names a .json file) or json"), "md|json" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output, N_ ("Write the report to FILE (the summary still goes to standard output)"), "FILE" },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &o->jobs, N_ ("Cases run at once (default: the number of processors, at most 4)"), "N" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &o->timeout_s, N_ ("Seconds a case may take (default 600)"), "S" },
    { "cpu-budget-gflop", 0, 0, G_OPTION_ARG_DOUBLE, &o->cpu_budget_gflop,
      N_ ("run-cpu skips cases estimated above this many GFLOP a run (default 200)"), "G" },
    { "one-case", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &o->one_case, "internal: run one case (the child)", "PATH" },
    { "threads", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &o->threads, "internal: the child's cpu threads", "N" },
    { "no-cuda", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &o->no_cuda, "internal: why CUDA is unavailable", "TEXT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PATH…");
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  g_set_prgname ("thunder-wb --headless coverage");
  g_option_context_set_summary (context, _ ("Runs every case under each PATH (a folder holding prologue_NN.py, forward_NN.py, ...;\n"
                                            "its default_execs/ and fallback/ are cases of their own; or a trace file) through the\n"
                                            "levels load, check, roundtrip, recompile, run-cpu and run-gpu, each case in a child\n"
                                            "process, and reports per case each level's result (ok, or the first error) and per\n"
                                            "level the cases and trace files passing. Exit 0 when every level asked passed for\n"
                                            "every case, 1 when one failed or was not run."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      *exit_code = wb_cli_usage_error ("%s", error->message);
      return NULL;
    }
  g_set_prgname ("thunder-wb");
  if (o->one_case == NULL && g_strv_length (args) < 2)
    {
      *exit_code = wb_cli_usage_error (_ ("“%s” takes at least one PATH"), "coverage");
      return NULL;
    }
  return g_strdupv (args + 1);
}

int
wb_cli_command_coverage (int argc, char **argv)
{
  g_auto (CoverageOptions) o = { .timeout_s = 600, .cpu_budget_gflop = 200 };
  g_auto (GStrv) paths = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char    *self = NULL;
  g_autofree char    *no_cuda = NULL;
  WbCliCoverageReport report = { 0 };
  guint               levels = 0;
  gboolean            json = FALSE;
  int                 code = WB_EXIT_BAD_INPUT;

  if ((paths = parse_options (argc, argv, &o, &code)) == NULL || !check_options (&o, &levels, &json))
    return code;
  if (o.one_case != NULL)
    return run_one_case (&o, levels);

  report.paths = paths;
  report.levels = levels;
  report.cpu_budget_gflop = o.cpu_budget_gflop;
  report.timeout_s = (guint) o.timeout_s;
  report.jobs = (guint) o.jobs;
  report.cases = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_cli_coverage_case_free);
  report.skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_cli_coverage_skipped_free);
  if (!collect_cases (&report, paths))
    code = WB_EXIT_BAD_INPUT;
  else if ((self = g_file_read_link ("/proc/self/exe", &error)) == NULL)
    code = (g_printerr ("thunder-wb: coverage: %s\n", error->message), WB_EXIT_ENVIRONMENT);
  else
    {
      if (levels & (1u << WB_CLI_COVERAGE_RUN_GPU))
        no_cuda = probe_cuda ();
      if (!run_children (&report, self, no_cuda, &error))
        code = (g_printerr ("thunder-wb: %s\n", error->message), WB_EXIT_ENVIRONMENT);
      else if ((code = write_report (&report, &o, json)) == WB_EXIT_OK)
        code = wb_cli_coverage_report_passed (&report) ? WB_EXIT_OK : WB_EXIT_CHECK_FAILED;
    }
  g_ptr_array_unref (report.cases);
  g_ptr_array_unref (report.skipped);
  return code;
}
