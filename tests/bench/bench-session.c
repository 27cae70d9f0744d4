/* bench-session.c — a session file with 1,000 llama_layer runs: file size, time to store a run, to compare two
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds a session in a fresh temporary directory (or --dir DIR): imports ../shared/traces/llama_layer (or
 * --traces DIR/llama_layer), then stores --runs runs (default 1000) of that case's regions (the top-level
 * region calls of its last forward and backward traces: TorchCompile0..3 and the two SDPA calls), each
 * with --iters timed iterations (30) and --kernels kernel records (100), made by wb_test_make_run(). Then:
 *   - file size (the closed file: WAL checkpointed) and bytes per run;
 *   - store: wall time of wb_session_store_run() for each run (one BEGIN IMMEDIATE transaction, synchronous
 *     FULL: an fsync of the WAL per commit), median / p90 / max;
 *   - open: wb_session_open() of the 1,000-run file (header check, schema check), and with
 *     WB_SESSION_OPEN_CHECK (PRAGMA quick_check over every page);
 *   - compare: wb_session_get_run_pair() + wb_comparison_new() + the Markdown, for the latest two runs and
 *     for --pairs random pairs (default 200), median / max (target: under 50 ms);
 *   - read: one run with its kernel records; list: every run (what `sessions` reads);
 *   - the CLI end to end, when the built thunder-wb is found: `thunder-wb --headless compare SESSION`
 *     (process start, open, checks, compare, output), median of 20.
 * Not a test: run it by hand (tests/bench/README.md). */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "wb-test-common.h"
#include "wb-test-runs.h"

#ifndef WB_BENCH_DEFAULT_TRACES
#define WB_BENCH_DEFAULT_TRACES "../shared/traces"
#endif
#ifndef WB_BENCH_THUNDER_WB
#define WB_BENCH_THUNDER_WB ""
#endif

#define TARGET_COMPARE_MS 50.0

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Summary of a set of timings in ms. */
typedef struct
{
  double median, p90, max, min;
} Stats;

static Stats
stats_of (GArray *ms)
{
  Stats s = { 0 };

  if (ms->len == 0)
    return s;
  g_array_sort (ms, compare_double);
  s.min = g_array_index (ms, double, 0);
  s.median = g_array_index (ms, double, ms->len / 2);
  s.p90 = g_array_index (ms, double, MIN (ms->len - 1, ms->len * 9 / 10));
  s.max = g_array_index (ms, double, ms->len - 1);
  return s;
}

static void
die (const char *what,
     GError     *error)
{
  fprintf (stderr, "bench-session: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}

static gint64
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (gint64) st.st_size : 0;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GPtrArray) regions = NULL;
  g_autoptr (GArray) store_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) compare_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) latest_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) cli_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GRand) rand = g_rand_new_with_seed (1000);
  g_autofree char *traces = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *llama = NULL;
  g_autofree char *path = NULL;
  g_autofree char *thunder_wb = NULL;
  gboolean         keep = FALSE;
  int              n_runs = 1000, n_kernels = 100, n_iters = 30, n_pairs = 200;
  gint64           t0, size;
  double           open_ms, check_ms, read_ms, list_ms, import_ms;
  Stats            st;
  GOptionEntry     entries[] = {
        { "runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Runs to store (1000)", "N" },
        { "kernels", 0, 0, G_OPTION_ARG_INT, &n_kernels, "Kernel records per run (100)", "N" },
        { "iters", 0, 0, G_OPTION_ARG_INT, &n_iters, "Timed iterations per run (30)", "N" },
        { "pairs", 0, 0, G_OPTION_ARG_INT, &n_pairs, "Random pairs to compare (200)", "N" },
        { "traces", 0, 0, G_OPTION_ARG_FILENAME, &traces, "The traces folder (../shared/traces)", "DIR" },
        { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where to write the session (a new temporary folder)", "DIR" },
        { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the session file", NULL },
        { "thunder-wb", 0, 0, G_OPTION_ARG_FILENAME, &thunder_wb, "The thunder-wb binary for the CLI timing", "PATH" },
        { NULL }
  };

  context = g_option_context_new ("- session file benchmark");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    die ("options", error);
  if (traces == NULL)
    traces = g_strdup (g_getenv ("WB_TRACES_DIR") ? g_getenv ("WB_TRACES_DIR") : WB_BENCH_DEFAULT_TRACES);
  if (thunder_wb == NULL)
    thunder_wb = g_strdup (WB_BENCH_THUNDER_WB);
  llama = g_build_filename (traces, "llama_layer", NULL);
  if (!g_file_test (llama, G_FILE_TEST_IS_DIR))
    {
      fprintf (stderr, "bench-session: %s not found (use --traces DIR)\n", llama);
      return 77;
    }
  if (dir == NULL && (dir = g_dir_make_tmp ("bench-session-XXXXXX", &error)) == NULL)
    die ("temporary folder", error);
  path = g_build_filename (dir, "bench.wbsession", NULL);
  g_unlink (path);

  regions = wb_test_regions_load (llama);
  printf ("bench-session: %d runs of llama_layer (%u regions:", n_runs, regions->len);
  for (guint i = 0; i < regions->len; i++)
    printf (" %s", ((WbTestRegion *) regions->pdata[i])->name);
  printf ("), %d iterations and %d kernel records each\nsession: %s\nSQLite %s\n\n", n_iters, n_kernels, path,
          sqlite3_libversion ());

  /* Store. */
  {
    g_autoptr (WbSession) session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);
    WbSessionImport imported = { 0 };

    if (session == NULL)
      die ("open", error);
    t0 = now_ns ();
    if (!wb_session_import_path (session, llama, &imported, &error))
      die ("import", error);
    import_ms = (now_ns () - t0) / 1e6;
    for (int i = 0; i < n_runs; i++)
      {
        g_autoptr (WbRun) run = wb_test_make_run (regions, (guint64) i, n_iters, n_kernels);
        double ms;

        t0 = now_ns ();
        if (wb_session_store_run (session, run, imported.trace_set_id, &error) == 0)
          die ("store", error);
        ms = (now_ns () - t0) / 1e6;
        g_array_append_val (store_ms, ms);
      }
  }
  size = file_size (path);

  /* Open, compare, read. */
  {
    g_autoptr (WbSession) checked = NULL;
    g_autoptr (WbSession) session = NULL;
    g_autoptr (GPtrArray) runs = NULL;
    g_autoptr (WbRun) full = NULL;

    t0 = now_ns ();
    session = wb_session_open (path, WB_SESSION_OPEN_DEFAULT, &error);
    open_ms = (now_ns () - t0) / 1e6;
    if (session == NULL)
      die ("reopen", error);
    t0 = now_ns ();
    checked = wb_session_open (path, WB_SESSION_OPEN_CHECK, &error);
    check_ms = (now_ns () - t0) / 1e6;
    if (checked == NULL)
      die ("reopen with quick_check", error);

    for (int i = 0; i < 20; i++)
      {
        g_autoptr (WbRun) a = NULL;
        g_autoptr (WbRun) b = NULL;
        g_autoptr (WbComparison) c = NULL;
        g_autofree char *md = NULL;
        double           ms;

        t0 = now_ns ();
        if (!wb_session_get_run_pair (session, 0, 0, &a, &b, &error))
          die ("compare latest", error);
        c = wb_comparison_new (a, b);
        md = wb_comparison_to_markdown (c, path);
        ms = (now_ns () - t0) / 1e6;
        g_array_append_val (latest_ms, ms);
      }
    for (int i = 0; i < n_pairs; i++)
      {
        g_autoptr (WbRun) a = NULL;
        g_autoptr (WbRun) b = NULL;
        g_autoptr (WbComparison) c = NULL;
        g_autofree char *md = NULL;
        gint64           ia = g_rand_int_range (rand, 1, n_runs + 1);
        gint64           ib = g_rand_int_range (rand, 1, n_runs + 1);
        double           ms;

        t0 = now_ns ();
        if (!wb_session_get_run_pair (session, ia, ib, &a, &b, &error))
          die ("compare", error);
        c = wb_comparison_new (a, b);
        md = wb_comparison_to_markdown (c, path);
        ms = (now_ns () - t0) / 1e6;
        g_array_append_val (compare_ms, ms);
      }

    t0 = now_ns ();
    full = wb_session_get_run (session, n_runs / 2, WB_SESSION_READ_KERNELS, &error);
    read_ms = (now_ns () - t0) / 1e6;
    if (full == NULL)
      die ("read", error);
    t0 = now_ns ();
    runs = wb_session_list_runs (session, &error);
    list_ms = (now_ns () - t0) / 1e6;
    if (runs == NULL)
      die ("list", error);
  }

  /* The CLI, end to end. */
  if (thunder_wb != NULL && thunder_wb[0] != '\0' && g_file_test (thunder_wb, G_FILE_TEST_IS_EXECUTABLE))
    for (int i = 0; i < 20; i++)
      {
        const char      *cli_argv[] = { thunder_wb, "--headless", "compare", path, NULL };
        g_autofree char *out = NULL;
        int              status = 0;
        double           ms;

        t0 = now_ns ();
        if (!g_spawn_sync (NULL, (char **) cli_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                           &status, &error) ||
            !g_spawn_check_wait_status (status, &error))
          die ("thunder-wb compare", error);
        ms = (now_ns () - t0) / 1e6;
        g_array_append_val (cli_ms, ms);
      }

  printf ("import llama_layer (59 traces):       %8.1f ms\n", import_ms);
  printf ("file size:                            %8.1f MiB (%" G_GINT64_FORMAT " bytes, %.1f KiB per run)\n",
          size / 1048576.0, size, size / 1024.0 / MAX (n_runs, 1));
  st = stats_of (store_ms);
  printf ("store one run (median of %d):       %8.2f ms (p90 %.2f, max %.2f)\n", n_runs, st.median, st.p90, st.max);
  printf ("open (schema check):                  %8.2f ms\n", open_ms);
  printf ("open with quick_check:                %8.2f ms\n", check_ms);
  st = stats_of (latest_ms);
  printf ("compare the latest two (median of 20):%8.2f ms (max %.2f)\n", st.median, st.max);
  st = stats_of (compare_ms);
  printf ("compare two runs (median of %d):     %8.2f ms (max %.2f)   target < %.0f ms: %s\n", n_pairs, st.median,
          st.max, TARGET_COMPARE_MS, st.max < TARGET_COMPARE_MS ? "met" : "MISSED");
  printf ("read one run with its kernels:        %8.2f ms\n", read_ms);
  printf ("list %d runs:                       %8.2f ms\n", n_runs, list_ms);
  if (cli_ms->len > 0)
    {
      st = stats_of (cli_ms);
      printf ("thunder-wb --headless compare (CLI):  %8.2f ms (median of 20, max %.2f)\n", st.median, st.max);
    }

  if (!keep)
    wb_test_remove_tree (dir);
  return 0;
}
