/* test-session-concurrent.c — several processes on one session: a writer and a reader, two writers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * writer-and-reader: a child stores runs in a loop while this process, on its own connection, reads the
 * latest two runs and compares them, reads the latest run with its kernels and lists all runs, over and
 * over. Every read must succeed and be whole: each run equal to the one made again from its sequence
 * number (its checksums checked), the run list only growing, ids increasing.
 * two-writers: two children store runs at once; both finish without error (the second waits for the
 * first's lock: BEGIN IMMEDIATE and the busy timeout) and every run is there, intact. */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb-test-common.h"
#include "wb-test-runs.h"

#define N_KERNELS 100
#define N_ITERS 30

static GPtrArray *
load_regions (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *llama = traces ? g_build_filename (traces, "llama_layer", NULL) : NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);

  return wb_test_regions_load (llama && g_file_test (llama, G_FILE_TEST_IS_DIR) ? llama : mlp);
}

/* check_summary: @run (read without kernels) is the run made again from its label. */
static void
check_summary (const GPtrArray *regions,
               const WbRun     *run)
{
  gint64 seq = wb_test_run_seq (run);
  g_autoptr (WbRun) expected = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_assert_cmpint (seq, >=, 0);
  expected = wb_test_make_run (regions, (guint64) seq, N_ITERS, N_KERNELS);
  a = wb_run_compute_checksum (expected, WB_RUN_CHECKSUM_SUMMARY);
  b = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpuint (run->regions->len, ==, regions->len);
}

static guint
count_committed (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += lines[i][0] == 'c';
  return n;
}

static void
test_writer_and_reader (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) regions = load_regions ();
  g_autofree char *regions_text = wb_test_regions_to_string (regions);
  g_autofree char *dir = g_dir_make_tmp ("wb-concurrent-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "shared.wbsession", NULL);
  g_autofree char *out = NULL;
  g_autoptr (WbSession) session = NULL;
  const guint64 n_runs = 150;
  guint         pairs = 0, full_reads = 0, lists = 0;
  guint         last_count = 0;
  int           fd = -1;
  int           status = 0;
  GPid          pid;

  g_assert_no_error (error);
  session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);
  g_assert_no_error (error);

  pid = wb_test_spawn_writer (path, regions_text, 0, n_runs, N_KERNELS, N_ITERS, &fd);
  for (;;)
    {
      gboolean done = waitpid (pid, &status, WNOHANG) == pid;
      g_autoptr (GPtrArray) runs = NULL;

      /* The latest two, compared: one read transaction for both. */
      {
        g_autoptr (WbRun) a = NULL;
        g_autoptr (WbRun) b = NULL;

        if (wb_session_get_run_pair (session, 0, 0, &a, &b, &error))
          {
            g_autoptr (WbComparison) comparison = wb_comparison_new (a, b);
            g_autofree char *md = wb_comparison_to_markdown (comparison, path);

            check_summary (regions, a);
            check_summary (regions, b);
            g_assert_cmpint (a->id, <, b->id);
            g_assert_cmpuint (comparison->regions->len, ==, regions->len);
            g_assert_nonnull (md);
            pairs++;
          }
        else
          {
            /* Only before the writer has stored two runs. */
            g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND);
            g_assert_cmpuint (last_count, <, 2);
            g_clear_error (&error);
          }
      }

      /* Every run listed; the list only grows; the latest read whole, kernels and all. */
      runs = wb_session_list_runs (session, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (runs->len, >=, last_count);
      last_count = runs->len;
      lists++;
      for (guint i = 1; i < runs->len; i++)
        g_assert_cmpint (((WbRun *) runs->pdata[i - 1])->id, <, ((WbRun *) runs->pdata[i])->id);
      if (runs->len > 0)
        {
          const WbRun *latest = g_ptr_array_index (runs, runs->len - 1);
          g_autoptr (WbRun) back = wb_session_get_run (session, latest->id, WB_SESSION_READ_KERNELS, &error);
          g_autoptr (WbRun) expected = NULL;

          g_assert_no_error (error);
          expected = wb_test_make_run (regions, (guint64) wb_test_run_seq (back), N_ITERS, N_KERNELS);
          g_assert_true (wb_run_equal (expected, back));
          full_reads++;
        }
      if (done)
        break;
    }

  out = wb_test_read_fd (fd);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpuint (count_committed (out), ==, n_runs);
  g_assert_cmpint (wb_session_count_runs (session, &error), ==, (gint64) n_runs);
  g_assert_true (wb_session_check_integrity (session, &error));
  g_assert_no_error (error);
  g_test_message ("while %" G_GUINT64_FORMAT " runs were stored: %u compared pairs, %u full reads, %u lists",
                  n_runs, pairs, full_reads, lists);
  g_assert_cmpuint (pairs, >=, 10);

  g_clear_pointer (&session, wb_session_close);
  wb_test_remove_tree (dir);
}

static void
test_two_writers (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) regions = load_regions ();
  g_autofree char *regions_text = wb_test_regions_to_string (regions);
  g_autofree char *dir = g_dir_make_tmp ("wb-concurrent-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "shared.wbsession", NULL);
  g_autoptr (WbSession) session = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  const guint64 n_each = 60;
  int           fds[2];
  GPid          pids[2];

  g_assert_no_error (error);
  {
    g_autoptr (WbSession) created = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
  }
  pids[0] = wb_test_spawn_writer (path, regions_text, 0, n_each, N_KERNELS, N_ITERS, &fds[0]);
  pids[1] = wb_test_spawn_writer (path, regions_text, 1000, n_each, N_KERNELS, N_ITERS, &fds[1]);
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *out = wb_test_read_fd (fds[i]);
      int              status = 0;

      g_assert_cmpint (waitpid (pids[i], &status, 0), ==, pids[i]);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 0);
      g_assert_cmpuint (count_committed (out), ==, n_each);
    }

  session = wb_session_open (path, WB_SESSION_OPEN_CHECK, &error);
  g_assert_no_error (error);
  g_assert_true (wb_session_check_integrity (session, &error));
  runs = wb_session_list_runs (session, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 2 * n_each);
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun *listed = g_ptr_array_index (runs, i);
      g_autoptr (WbRun) back = wb_session_get_run (session, listed->id, WB_SESSION_READ_KERNELS, &error);
      g_autoptr (WbRun) expected = NULL;

      g_assert_no_error (error);
      expected = wb_test_make_run (regions, (guint64) wb_test_run_seq (back), N_ITERS, N_KERNELS);
      g_assert_true (wb_run_equal (expected, back));
    }
  g_clear_pointer (&session, wb_session_close);
  wb_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/WbSession/concurrent/writer-and-reader", test_writer_and_reader);
  g_test_add_func ("/data/WbSession/concurrent/two-writers", test_two_writers);
  return g_test_run ();
}
