/* test-session-crash.c — a writer process killed with SIGKILL at random moments never damages a session
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Round after round, a child (wb-session-writer) stores runs in a loop and is killed with SIGKILL after a
 * random delay (the generator is seeded: $WB_TEST_SEED, default below; the seed is printed). After each
 * kill the session is reopened (its schema checked) and:
 *   - PRAGMA integrity_check and foreign_key_check are clean;
 *   - every run the child reported as committed ("c SEQ") is there and intact: read back with its kernels,
 *     checked against its stored checksums, and equal to the run made again from its sequence number;
 *   - a run the child had not reported is the one in flight, and it is complete (same checks) or absent.
 * $WB_CRASH_KILLS sets the number of kills (default 24). */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb-test-common.h"
#include "wb-test-runs.h"

#define DEFAULT_SEED 20261121u
#define DEFAULT_KILLS 24

static GPtrArray *
load_regions (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *llama = traces ? g_build_filename (traces, "llama_layer", NULL) : NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);

  return wb_test_regions_load (llama && g_file_test (llama, G_FILE_TEST_IS_DIR) ? llama : mlp);
}

static guint
env_uint (const char *name,
          guint       fallback)
{
  const char *value = g_getenv (name);

  return value && *value ? (guint) g_ascii_strtoull (value, NULL, 10) : fallback;
}

static void
test_sigkill (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) regions = load_regions ();
  g_autofree char *regions_text = wb_test_regions_to_string (regions);
  g_autofree char *dir = g_dir_make_tmp ("wb-crash-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "crash.wbsession", NULL);
  g_autoptr (GHashTable) reported = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GArray) seqs = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint   seed = env_uint ("WB_TEST_SEED", DEFAULT_SEED);
  guint   kills = env_uint ("WB_CRASH_KILLS", DEFAULT_KILLS);
  GRand  *rand = g_rand_new_with_seed (seed);
  guint64 next = 0;
  guint   inside_store = 0;
  guint   in_flight_complete = 0;
  guint   in_flight_absent = 0;

  g_assert_no_error (error);
  g_test_message ("seed %u (set WB_TEST_SEED to repeat), %u kills, session %s", seed, kills, path);
  {
    g_autoptr (WbSession) session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
  }

  for (guint round = 0; round < kills; round++)
    {
      g_autoptr (WbSession) session = NULL;
      g_autoptr (GPtrArray) runs = NULL;
      g_autofree char *out = NULL;
      g_auto (GStrv) lines = NULL;
      gint64 in_flight = -1;
      gint64 max_seen = -1;
      guint  n_committed = 0;
      guint  delay_ms = 1 + g_rand_int_range (rand, 0, 120);
      int    fd = -1;
      int    status = 0;
      GPid   pid;

      pid = wb_test_spawn_writer (path, regions_text, next, 0, 400, 30, &fd);
      g_usleep (delay_ms * 1000);
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      out = wb_test_read_fd (fd);
      if (!WIFSIGNALED (status) || WTERMSIG (status) != SIGKILL)
        g_error ("round %u: the writer did not die of SIGKILL (status 0x%x); it printed: %s", round, status, out);

      /* "b N": about to store run N; "c N": run N committed. */
      lines = g_strsplit (out, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          gint64 seq;

          if (lines[i][0] == '\0')
            continue;
          seq = g_ascii_strtoll (lines[i] + 2, NULL, 10);
          if (lines[i][0] == 'b')
            in_flight = seq;
          else if (lines[i][0] == 'c')
            {
              gint64 *key = g_new (gint64, 1);

              *key = seq;
              g_hash_table_add (reported, key);
              in_flight = -1;
              n_committed++;
            }
        }
      if (in_flight >= 0)
        inside_store++;

      /* Reopen: the schema is checked; then integrity and every run. */
      session = wb_session_open (path, WB_SESSION_OPEN_CHECK, &error);
      g_assert_no_error (error);
      g_assert_true (wb_session_check_integrity (session, &error));
      g_assert_no_error (error);
      runs = wb_session_list_runs (session, &error);
      g_assert_no_error (error);

      g_array_set_size (seqs, 0);
      for (guint i = 0; i < runs->len; i++)
        {
          const WbRun *listed = g_ptr_array_index (runs, i);
          gint64       seq = wb_test_run_seq (listed);
          g_autoptr (WbRun) back = NULL;
          g_autoptr (WbRun) expected = NULL;

          g_assert_cmpint (seq, >=, 0);
          back = wb_session_get_run (session, listed->id, WB_SESSION_READ_KERNELS, &error);
          g_assert_no_error (error);
          expected = wb_test_make_run (regions, (guint64) seq, 30, 400);
          if (!wb_run_equal (expected, back))
            g_error ("round %u: run %" G_GINT64_FORMAT " (seq %" G_GINT64_FORMAT ") is not intact", round,
                     listed->id, seq);
          if (!g_hash_table_contains (reported, &seq))
            {
              /* Only the run in flight may be there unreported, and it is complete (checked above). */
              g_assert_cmpint (seq, ==, in_flight);
              g_assert_cmpint (seq, >, max_seen);
            }
          g_array_append_val (seqs, seq);
          max_seen = MAX (max_seen, seq);
        }

      /* Every run reported committed, in this round or before, is there; none twice. */
      g_assert_cmpuint (runs->len, >=, g_hash_table_size (reported));
      g_assert_cmpuint (runs->len, <=, g_hash_table_size (reported) + 1);
      {
        g_autoptr (GHashTable) present = g_hash_table_new (g_int64_hash, g_int64_equal);
        GHashTableIter iter;
        gpointer       key;

        for (guint i = 0; i < seqs->len; i++)
          g_assert_true (g_hash_table_add (present, &g_array_index (seqs, gint64, i)));
        g_hash_table_iter_init (&iter, reported);
        while (g_hash_table_iter_next (&iter, &key, NULL))
          if (!g_hash_table_contains (present, key))
            g_error ("round %u: run seq %" G_GINT64_FORMAT " was committed but is gone", round, *(gint64 *) key);
        if (in_flight >= 0)
          {
            if (g_hash_table_contains (present, &in_flight))
              {
                gint64 *k = g_new (gint64, 1);

                /* Complete: from now on it counts as committed. */
                *k = in_flight;
                g_hash_table_add (reported, k);
                in_flight_complete++;
              }
            else
              in_flight_absent++;
          }
      }

      g_test_message ("round %2u: killed after %3u ms, %2u runs committed this round, %s; %u runs in the file",
                      round, delay_ms, n_committed,
                      in_flight >= 0 ? "killed inside a store" : "killed outside a store", runs->len);
      next = (guint64) MAX ((gint64) next + n_committed + 1, max_seen + 1);
    }

  g_test_message ("%u kills: %u inside a store (the run in flight was complete %u times, absent %u times); "
                  "%u runs committed",
                  kills, inside_store, in_flight_complete, in_flight_absent,
                  g_hash_table_size (reported));
  /* The test means something only if some kills land inside a store. */
  g_assert_cmpuint (inside_store, >=, 1);
  g_assert_cmpuint (g_hash_table_size (reported), >, 0);

  {
    GHashTableIter iter;
    gpointer       key;

    g_hash_table_iter_init (&iter, reported);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_free (key);
  }
  g_rand_free (rand);
  wb_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/WbSession/crash/sigkill-writer", test_sigkill);
  return g_test_run ();
}
