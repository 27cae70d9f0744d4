/* test-session.c — WbSession: creating and reopening a file, import, runs, assignments, stages, ceilings,
 * a second writer (migration: test-session-migrate.c; bad and untrusted files: test-session-bad.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>

#include "wb-session-private.h"
#include "wb-test-common.h"
#include "wb-test-runs.h"
#include "wb-test-session.h"

/* -- schema -------------------------------------------------------------------------------------- */

static void
test_create_reopen (WbTestSessionFixture *f,
                    gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *creator = NULL;
  sqlite3         *db;

  {
    g_autoptr (WbSession) session = wb_test_session_create (f->path);

    g_assert_cmpint (wb_session_get_opened_version (session), ==, 0);
    creator = wb_session_dup_meta (session, "creator", &error);
    g_assert_no_error (error);
    g_assert_cmpstr (creator, ==, PACKAGE_NAME " " PACKAGE_VERSION);
    g_assert_true (wb_session_check_integrity (session, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CHECK, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, WB_SESSION_SCHEMA_VERSION);
    g_assert_cmpint (wb_session_count_runs (session, &error), ==, 0);
  }

  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA user_version"), ==, WB_SESSION_SCHEMA_VERSION);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA application_id"), ==, WB_SESSION_APPLICATION_ID);
  {
    sqlite3_stmt *stmt = NULL;

    sqlite3_prepare_v2 (db, "PRAGMA journal_mode", -1, &stmt, NULL);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "wal");
    sqlite3_finalize (stmt);
  }
  sqlite3_close (db);
}

/* -- import -------------------------------------------------------------------------------------- */

static gint64
count_rows (const char *path,
            const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM %s", table);
  sqlite3         *db = wb_test_sqlite_open (path);
  gint64           n = wb_test_sqlite_int (db, sql);

  sqlite3_close (db);
  return n;
}

static void
test_import_samples (WbTestSessionFixture *f,
                     gconstpointer         data)
{
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *forward = g_build_filename (mlp, "forward_00.py", NULL);
  WbSessionImport  first = { 0 };
  WbSessionImport  again = { 0 };
  WbSessionImport  file = { 0 };
  gint64           texts;

  {
    g_autoptr (WbSession) session = wb_test_session_create (f->path);

    wb_test_session_import_ok (session, mlp, &first);
    g_assert_true (first.new_trace_set);
    g_assert_cmpuint (first.n_entries, >, 10);
    g_assert_cmpuint (first.n_new_texts, >, 0);
    g_assert_cmpuint (first.n_new_texts + first.n_known_texts, ==, first.n_entries);

    wb_test_session_import_ok (session, mlp, &again);
    g_assert_false (again.new_trace_set);
    g_assert_cmpint (again.trace_set_id, ==, first.trace_set_id);
    g_assert_cmpuint (again.n_new_texts, ==, 0);
  }
  texts = count_rows (f->path, "texts");
  g_assert_cmpint (texts, ==, first.n_new_texts);
  g_assert_cmpint (count_rows (f->path, "source_texts"), ==, first.n_entries);

  /* Reopened, the same directory again: still nothing new. A single file of it: a new set, no new text. */
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, NULL);

    wb_test_session_import_ok (session, mlp, &again);
    g_assert_false (again.new_trace_set);
    wb_test_session_import_ok (session, forward, &file);
    g_assert_true (file.new_trace_set);
    g_assert_cmpuint (file.n_new_texts, ==, 0);
    wb_test_session_import_ok (session, forward, &file);
    g_assert_false (file.new_trace_set);
  }
  g_assert_cmpint (count_rows (f->path, "texts"), ==, texts);
  g_assert_cmpint (count_rows (f->path, "trace_sets"), ==, 2);
}

static void
test_import_real_traces (WbTestSessionFixture *f,
                         gconstpointer         data)
{
  const char *traces = wb_test_traces_dir ();
  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (WbSession) session = NULL;
  g_autoptr (GDir) d = NULL;
  const char *name;
  gint64      texts, sets, entries;

  if (traces == NULL)
    {
      g_test_skip ("no real traces ($WB_TRACES_DIR unset or missing)");
      return;
    }
  d = g_dir_open (traces, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (traces, name, NULL);
      g_autoptr (GPtrArray) files = NULL;

      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      /* Some case folders are placeholders with no trace yet. */
      files = wb_test_list_trace_files (path);
      if (files->len > 0)
        g_ptr_array_add (cases, g_steal_pointer (&path));
    }
  g_assert_cmpuint (cases->len, >, 0);

  session = wb_test_session_create (f->path);
  for (guint i = 0; i < cases->len; i++)
    {
      WbSessionImport r = { 0 };

      wb_test_session_import_ok (session, g_ptr_array_index (cases, i), &r);
      g_assert_true (r.new_trace_set);
      g_test_message ("%s: %u entries, %u new texts (%" G_GUINT64_FORMAT " bytes), %u already stored",
                      (char *) g_ptr_array_index (cases, i), r.n_entries, r.n_new_texts, r.new_text_bytes,
                      r.n_known_texts);
    }
  texts = count_rows (f->path, "texts");
  sets = count_rows (f->path, "trace_sets");
  entries = count_rows (f->path, "source_texts");
  for (guint i = 0; i < cases->len; i++)
    {
      WbSessionImport r = { 0 };

      wb_test_session_import_ok (session, g_ptr_array_index (cases, i), &r);
      g_assert_false (r.new_trace_set);
      g_assert_cmpuint (r.n_new_texts, ==, 0);
    }
  g_assert_cmpint (count_rows (f->path, "texts"), ==, texts);
  g_assert_cmpint (count_rows (f->path, "trace_sets"), ==, sets);
  g_assert_cmpint (count_rows (f->path, "source_texts"), ==, entries);
}

static void
test_import_load_back (WbTestSessionFixture *f,
                       gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (WbSession) session = wb_test_session_create (f->path);
  g_autoptr (WbTraceSet) original = wb_trace_set_load (mlp, &error);
  g_autoptr (WbTraceSet) back = NULL;
  g_autoptr (GPtrArray) sets = NULL;
  WbSessionImport r = { 0 };

  g_assert_no_error (error);
  wb_test_session_import_ok (session, mlp, &r);
  back = wb_session_load_trace_set (session, r.trace_set_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_trace_set_get_n_entries (back), ==, wb_trace_set_get_n_entries (original));
  for (guint i = 0; i < wb_trace_set_get_n_entries (back); i++)
    {
      const WbTraceEntry *a = wb_trace_set_get_entry (original, i);
      const WbTraceEntry *b = wb_trace_set_get_entry (back, i);
      g_autofree char    *ta = wb_trace_to_string (a->trace);
      g_autofree char    *tb = wb_trace_to_string (b->trace);

      g_assert_cmpint (a->kind, ==, b->kind);
      g_assert_cmpint (a->index, ==, b->index);
      g_assert_cmpstr (a->subset, ==, b->subset);
      g_assert_cmpstr (a->label, ==, b->label);
      g_assert_cmpstr (ta, ==, tb);
      g_assert_true (g_str_has_suffix (a->path, b->path));
    }

  sets = wb_session_list_trace_sets (session, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sets->len, ==, 1);
  g_assert_cmpstr (((WbSessionTraceSet *) sets->pdata[0])->name, ==, "mlp_small");

  g_assert_null (wb_session_load_trace_set (session, 999, &error));
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND);
}

/* -- runs ---------------------------------------------------------------------------------------- */

static void
test_run_round_trip (WbTestSessionFixture *f,
                     gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  gint64 ids[3];

  {
    g_autoptr (WbSession) session = wb_test_session_create (f->path);

    for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
      {
        g_autoptr (WbRun) run = wb_test_make_run (wb_test_session_regions (), 100 + i, 30, 120);

        run->launch_list = i == 0; /* seq 100 has no CUDA graph: its iterations replayed a launch list */
        ids[i] = wb_session_store_run (session, run, 0, &error);
        g_assert_no_error (error);
        g_assert_cmpint (ids[i], ==, i + 1);
        g_assert_cmpint (run->id, ==, ids[i]);
      }
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
      {
        g_autoptr (WbRun) expected = wb_test_make_run (wb_test_session_regions (), 100 + i, 30, 120);
        g_autoptr (WbRun) back = wb_session_get_run (session, ids[i], WB_SESSION_READ_KERNELS, &error);
        g_autoptr (WbRun) summary = wb_session_get_run (session, ids[i], WB_SESSION_READ_SUMMARY, &error);

        g_assert_no_error (error);
        expected->launch_list = i == 0;
        g_assert_true (wb_run_equal (expected, back));
        g_assert_cmpint (back->launch_list, ==, i == 0);
        g_assert_cmpint (summary->launch_list, ==, i == 0);
        g_assert_cmpint (back->id, ==, ids[i]);
        g_assert_cmpuint (back->kernels->len, ==, 120);
        g_assert_cmpuint (summary->kernels->len, ==, 0);
        g_assert_cmpuint (summary->regions->len, ==, expected->regions->len);
        g_assert_cmpstr (back->label, ==, expected->label);
        g_assert_cmpint (wb_run_get_iteration_median_ns (back), ==, wb_run_get_iteration_median_ns (expected));
      }
    runs = wb_session_list_runs (session, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (runs->len, ==, 3);
    g_assert_cmpstr (((WbRun *) runs->pdata[2])->label, ==, "seq 102");

    /* Read-only: no writes. */
    {
      g_autoptr (WbRun) run = wb_test_make_run (wb_test_session_regions (), 1, 3, 3);

      g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 0);
      g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
      g_clear_error (&error);
    }
    g_assert_null (wb_session_get_run (session, 42, 0, &error));
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND);
  }
}

static void
test_run_edge_cases (WbTestSessionFixture *f,
                     gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_test_session_create (f->path);
  g_autoptr (WbRun) failed = wb_run_new ();
  g_autoptr (WbRun) back = NULL;
  g_autoptr (WbRun) bad = wb_run_new ();
  WbRegionStats *r;

  /* A run that failed at once: no iterations, a region without times or executor, a NaN share,
   * an error with newlines and quotes, a kernel that could not be attributed. */
  failed->status = WB_RUN_STATUS_FAILED;
  failed->error = g_strdup ("nvrtcCompileProgram: NVRTC_ERROR_COMPILATION\nline 2: “quoted” | pipe");
  failed->device_name = g_strdup ("cpu");
  r = wb_region_stats_new ("nvFusion0", NULL);
  r->share = NAN;
  wb_run_add_region (failed, r);
  wb_run_add_kernel (failed, wb_kernel_record_new ("unattributed", NULL));
  g_assert_cmpint (wb_session_store_run (session, failed, 0, &error), ==, 1);
  g_assert_no_error (error);
  back = wb_session_get_run (session, 1, WB_SESSION_READ_KERNELS, &error);
  g_assert_no_error (error);
  g_assert_true (wb_run_equal (failed, back));
  g_assert_cmpint (back->status, ==, WB_RUN_STATUS_FAILED);
  g_assert_cmpstr (back->error, ==, failed->error);
  g_assert_true (isnan (((WbRegionStats *) back->regions->pdata[0])->share));
  g_assert_null (((WbKernelRecord *) back->kernels->pdata[0])->region);
  g_assert_cmpuint (back->iteration_ns->len, ==, 0);

  /* Invalid data is refused and leaves nothing behind. */
  wb_run_add_region (bad, wb_region_stats_new ("TorchCompile0", "bad=executor"));
  g_assert_cmpint (wb_session_store_run (session, bad, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_count_runs (session, &error), ==, 1);
}

static void
test_run_tampered (WbTestSessionFixture *f,
                   gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  sqlite3 *db;

  wb_test_session_make_with_runs (f->path, 2);
  db = wb_test_sqlite_open (f->path);
  wb_test_sqlite_exec (db, "UPDATE region_stats SET median_ns = median_ns + 1 WHERE run_id = 1 AND position = 0;"
                           "UPDATE kernels SET end_ns = end_ns + 1 WHERE run_id = 2 AND seq = 5;");
  sqlite3_close (db);
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
    g_autoptr (WbRun) run = NULL;

    g_assert_no_error (error);
    run = wb_session_get_run (session, 1, WB_SESSION_READ_SUMMARY, &error);
    g_assert_null (run);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
    g_test_message ("%s", error->message);
    g_clear_error (&error);
    run = wb_session_get_run (session, 2, WB_SESSION_READ_SUMMARY, &error);
    g_assert_no_error (error);
    g_clear_pointer (&run, wb_run_free);
    run = wb_session_get_run (session, 2, WB_SESSION_READ_KERNELS, &error);
    g_assert_null (run);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
  }
}

static void
test_assignments (WbTestSessionFixture *f,
                  gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_test_session_create (f->path);
  g_autoptr (GPtrArray) list = NULL;
  WbSessionAssignment *a;
  gint64               id1, id2, id3;

  id1 = wb_session_add_assignment (session, "baseline", "TorchCompile1=torchcompile, TorchCompile0=torchcompile", &error);
  g_assert_no_error (error);
  g_assert_cmpint (id1, >, 0);
  /* The same choices in another order: the same assignment. */
  id2 = wb_session_add_assignment (session, NULL, "TorchCompile0=torchcompile,TorchCompile1=torchcompile", &error);
  g_assert_no_error (error);
  g_assert_cmpint (id2, ==, id1);
  /* The name taken by other choices, a spec that does not parse, a region twice. */
  g_assert_cmpint (wb_session_add_assignment (session, "baseline", "TorchCompile0=nvfuser", &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_add_assignment (session, NULL, "TorchCompile0", &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_add_assignment (session, NULL, "A=x,A=y", &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  id3 = wb_session_add_assignment (session, NULL, "TorchCompile0=nvfuser", &error);
  g_assert_no_error (error);
  g_assert_cmpint (id3, >, id1);

  /* Runs bring their own assignments. */
  for (guint i = 0; i < 6; i++)
    {
      g_autoptr (WbRun) run = wb_test_make_run (wb_test_session_regions (), i, 5, 5);

      g_assert_cmpint (wb_session_store_run (session, run, 0, &error), >, 0);
      g_assert_no_error (error);
    }
  list = wb_session_list_assignments (session, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, >=, 3);
  a = list->pdata[0];
  g_assert_cmpstr (a->name, ==, "baseline");
  g_assert_cmpstr (a->spec, ==, "TorchCompile0=torchcompile,TorchCompile1=torchcompile");
  g_assert_cmpuint (a->n_regions, ==, 2);
  a = list->pdata[1];
  g_assert_cmpstr (a->name, ==, "a2");
  g_assert_cmpstr (a->spec, ==, "TorchCompile0=nvfuser");
  {
    guint runs = 0;

    for (guint i = 0; i < list->len; i++)
      runs += ((WbSessionAssignment *) list->pdata[i])->n_runs;
    g_assert_cmpuint (runs, ==, 6);
  }
}

static void
test_stages (WbTestSessionFixture *f,
             gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (WbSession) session = wb_test_session_create (f->path);
  g_autofree char *name = NULL, *text = NULL, *map = NULL;
  WbSessionImport  r = { 0 };
  const char      *stage_text = "# Constructed by fusion\ndef computation(a):\n  return a\n";
  const char      *stage_map = "{\"t5\": [\"t1\", \"t2\"]}";
  gint64           s1, s2, s3;

  wb_test_session_import_ok (session, mlp, &r);
  s1 = wb_session_add_stage (session, r.trace_set_id, "fusion", stage_text, stage_map, &error);
  g_assert_no_error (error);
  s2 = wb_session_add_stage (session, r.trace_set_id, "fusion", stage_text, stage_map, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s1, ==, s2);
  s3 = wb_session_add_stage (session, 0, "cse", stage_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s3, !=, s1);
  g_assert_true (wb_session_get_stage (session, s1, &name, &text, &map, &error));
  g_assert_cmpstr (name, ==, "fusion");
  g_assert_cmpstr (text, ==, stage_text);
  g_assert_cmpstr (map, ==, stage_map);
  g_assert_cmpint (wb_session_add_stage (session, r.trace_set_id, "x", stage_text, "{not json", &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_add_stage (session, 77, "x", stage_text, NULL, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND);
}

static void
test_ceilings (WbTestSessionFixture *f,
               gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_test_session_create (f->path);
  g_autoptr (WbDeviceCeilings) c = wb_device_ceilings_new ("NVIDIA H100 80GB HBM3", 2890.5, 741.25);
  g_autoptr (WbDeviceCeilings) back = NULL;
  g_autoptr (WbDeviceCeilings) none = NULL;

  g_assert_true (wb_session_store_ceilings (session, c, &error));
  g_assert_no_error (error);
  c->copy_gbps = 2901.0;
  g_assert_true (wb_session_store_ceilings (session, c, &error));
  back = wb_session_lookup_ceilings (session, "NVIDIA H100 80GB HBM3", &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_cmpfloat (back->copy_gbps, ==, 2901.0);
  g_assert_cmpfloat (back->bf16_tflops, ==, 741.25);
  g_assert_cmpint (back->measured_at_us, ==, c->measured_at_us);
  none = wb_session_lookup_ceilings (session, "NVIDIA H200", &error);
  g_assert_no_error (error);
  g_assert_null (none);
}

/* -- a second writer waits ------------------------------------------------------------------------ */

static gpointer
release_later (gpointer data)
{
  sqlite3 *db = data;

  g_usleep (300 * 1000);
  wb_test_sqlite_exec (db, "COMMIT");
  return NULL;
}

static void
test_writer_waits (WbTestSessionFixture *f,
                   gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_test_session_create (f->path);
  g_autoptr (WbRun) run = wb_test_make_run (wb_test_session_regions (), 1, 10, 10);
  sqlite3 *db = wb_test_sqlite_open (f->path);
  GThread *thread;
  gint64   start;

  /* Another connection holds the write lock for 300 ms: the store waits, then succeeds. */
  wb_test_sqlite_exec (db, "BEGIN IMMEDIATE");
  thread = g_thread_new ("release", release_later, db);
  start = g_get_monotonic_time ();
  g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 250 * 1000);
  g_thread_join (thread);

  /* With a short timeout it gives up with BUSY and stores nothing. */
  wb_test_sqlite_exec (db, "BEGIN IMMEDIATE");
  wb_session_set_busy_timeout (session, 50);
  g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_BUSY);
  g_test_message ("%s", error->message);
  wb_test_sqlite_exec (db, "COMMIT");
  sqlite3_close (db);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_count_runs (session, &error), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/data/WbSession/" path, WbTestSessionFixture, NULL, wb_test_session_fixture_set_up, func, wb_test_session_fixture_tear_down)
  ADD ("schema/create-reopen", test_create_reopen);
  ADD ("import/samples-idempotent", test_import_samples);
  ADD ("import/real-traces-idempotent", test_import_real_traces);
  ADD ("import/load-back", test_import_load_back);
  ADD ("run/round-trip", test_run_round_trip);
  ADD ("run/edge-cases", test_run_edge_cases);
  ADD ("run/tampered", test_run_tampered);
  ADD ("assignments", test_assignments);
  ADD ("stages", test_stages);
  ADD ("ceilings", test_ceilings);
  ADD ("writer-waits", test_writer_waits);
#undef ADD

  return g_test_run ();
}
