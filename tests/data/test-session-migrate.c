/* test-session-migrate.c — WbSession and files of other schema versions: a version 1 file made by hand
 * migrates (not when opened read-only), a newer version is refused, and so is a trigger planted in an old
 * file before its migration writes anything
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <unistd.h>

#include "wb-session-private.h"
#include "wb-test-common.h"
#include "wb-test-runs.h"
#include "wb-test-session.h"

/* -- schema versions ----------------------------------------------------------------------------- */

/* encode_times: little-endian int64 blob, the session's encoding. */
static void
bind_times (sqlite3_stmt *stmt,
            int           index,
            const GArray *times)
{
  guint8 *bytes = g_malloc0 (times->len * 8 + 1);

  for (guint i = 0; i < times->len; i++)
    for (int b = 0; b < 8; b++)
      bytes[i * 8 + b] = (guint8) ((guint64) g_array_index (times, gint64, i) >> (8 * b));
  sqlite3_bind_blob (stmt, index, bytes, times->len * 8, g_free);
}

/* make_v1_file: a session of schema version 1 made by hand, the way thunder-wb of that version wrote it,
 * holding @run (whose kernels must have correlation_id 0: version 1 had no such column). */
static void
make_v1_file (const char  *path,
              const WbRun *run)
{
  sqlite3         *db = wb_test_sqlite_open (path);
  sqlite3_stmt    *stmt = NULL;
  g_autofree char *sum = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  g_autofree char *ksum = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_KERNELS);
  g_autoptr (GString) versions = g_string_new ("[");

  wb_test_sqlite_exec (db, "BEGIN");
  wb_test_sqlite_exec (db, _wb_session_migration_sql (1));
  wb_test_sqlite_exec (db, "PRAGMA user_version = 1");
  wb_test_sqlite_exec (db, "INSERT INTO meta VALUES ('creator', 'thunder-wb 0.0.9'), ('created_at', '1700000000000000')");

  for (guint i = 0; i < run->executor_versions->len; i++)
    g_string_append_printf (versions, "%s\"%s\"", i ? "," : "", (char *) g_ptr_array_index (run->executor_versions, i));
  g_string_append (versions, "]");

  sqlite3_prepare_v2 (db,
                      "INSERT INTO runs (id, label, assignment, stage, device_name, device_model, driver_version, "
                      "executor_versions, iters, warmup, cuda_graphs, executors, status, error, started_at, "
                      "iteration_ns, iteration_median_ns, dropped_records, n_regions, n_kernels, checksum, "
                      "kernels_checksum) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
                      "?15, ?16, ?17, ?18, ?19, ?20, ?21)",
                      -1, &stmt, NULL);
  sqlite3_bind_text (stmt, 1, run->label, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, run->assignment, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 3, run->stage, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 4, run->device_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 5, run->device_model, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 6, run->driver_version, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 7, versions->str, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 8, run->iters);
  sqlite3_bind_int64 (stmt, 9, run->warmup);
  sqlite3_bind_int (stmt, 10, run->cuda_graphs);
  sqlite3_bind_text (stmt, 11, run->executors, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 12, wb_run_status_to_string (run->status), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 13, run->error, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 14, run->start_time_us);
  bind_times (stmt, 15, run->iteration_ns);
  sqlite3_bind_int64 (stmt, 16, wb_run_get_iteration_median_ns (run));
  sqlite3_bind_int64 (stmt, 17, run->dropped_records);
  sqlite3_bind_int64 (stmt, 18, run->regions->len);
  sqlite3_bind_int64 (stmt, 19, run->kernels->len);
  sqlite3_bind_text (stmt, 20, sum, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 21, ksum, -1, SQLITE_TRANSIENT);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);

  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);

      sqlite3_prepare_v2 (db, "INSERT INTO regions (id, stage, name) VALUES (?1, ?2, ?3)", -1, &stmt, NULL);
      sqlite3_bind_int64 (stmt, 1, i + 1);
      sqlite3_bind_text (stmt, 2, run->stage, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 3, r->name, -1, SQLITE_TRANSIENT);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_finalize (stmt);

      sqlite3_prepare_v2 (db,
                          "INSERT INTO region_stats VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                          -1, &stmt, NULL);
      sqlite3_bind_int64 (stmt, 1, i);
      sqlite3_bind_int64 (stmt, 2, i + 1);
      sqlite3_bind_text (stmt, 3, r->executor, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (stmt, 4, r->stage_line);
      sqlite3_bind_int64 (stmt, 5, r->median_ns);
      sqlite3_bind_int64 (stmt, 6, r->min_ns);
      sqlite3_bind_int64 (stmt, 7, r->max_ns);
      bind_times (stmt, 8, r->times_ns);
      sqlite3_bind_int64 (stmt, 9, r->kernel_count);
      sqlite3_bind_int64 (stmt, 10, r->bytes_moved);
      sqlite3_bind_int64 (stmt, 11, r->flops);
      sqlite3_bind_double (stmt, 12, r->share);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_finalize (stmt);
    }

  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      g_assert_cmpuint (k->correlation_id, ==, 0);
      sqlite3_prepare_v2 (db, "INSERT OR IGNORE INTO kernel_names (name) VALUES (?1)", -1, &stmt, NULL);
      sqlite3_bind_text (stmt, 1, k->name, -1, SQLITE_TRANSIENT);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_finalize (stmt);

      sqlite3_prepare_v2 (db,
                          "INSERT INTO kernels VALUES (1, ?1, (SELECT id FROM kernel_names WHERE name = ?2), "
                          "(SELECT id FROM regions WHERE name = ?3), ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                          "?14, ?15, ?16)",
                          -1, &stmt, NULL);
      sqlite3_bind_int64 (stmt, 1, i);
      sqlite3_bind_text (stmt, 2, k->name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 3, k->region, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (stmt, 4, k->trace_line);
      sqlite3_bind_int64 (stmt, 5, k->stream);
      for (int d = 0; d < 3; d++)
        sqlite3_bind_int64 (stmt, 6 + d, k->grid[d]);
      for (int d = 0; d < 3; d++)
        sqlite3_bind_int64 (stmt, 9 + d, k->block[d]);
      sqlite3_bind_int64 (stmt, 12, k->registers);
      sqlite3_bind_int64 (stmt, 13, k->shared_bytes);
      sqlite3_bind_int64 (stmt, 14, k->start_ns);
      sqlite3_bind_int64 (stmt, 15, k->end_ns);
      sqlite3_bind_int64 (stmt, 16, k->iteration);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_finalize (stmt);
    }
  wb_test_sqlite_exec (db, "COMMIT");
  sqlite3_close (db);
}

static WbRun *
v1_run (void)
{
  WbRun *run = wb_test_make_run (wb_test_session_regions (), 7, 12, 40);

  for (guint i = 0; i < run->kernels->len; i++)
    ((WbKernelRecord *) g_ptr_array_index (run->kernels, i))->correlation_id = 0;
  wb_kernel_attribution_clear (&run->attribution); /* nor attribution */
  run->id = 1;
  return run;
}

static void
test_migrate_v1 (WbTestSessionFixture *f,
                 gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) run = v1_run ();
  g_autoptr (WbRun) back = NULL;
  g_autofree char *migrated = NULL;
  sqlite3         *db;

  make_v1_file (f->path, run);
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, 1);
    migrated = wb_session_dup_meta (session, "migrated_from_1", &error);
    g_assert_no_error (error);
    g_assert_nonnull (migrated);
    back = wb_session_get_run (session, 1, WB_SESSION_READ_KERNELS, &error);
    g_assert_no_error (error);
    g_assert_true (wb_run_equal (run, back));
    g_assert_true (wb_session_check_integrity (session, &error));
    g_assert_no_error (error);
    /* The new column and table work. */
    {
      g_autoptr (WbRun) more = wb_test_make_run (wb_test_session_regions (), 8, 12, 40);
      g_autoptr (WbRun) more_back = NULL;

      g_assert_cmpint (wb_session_store_run (session, more, 0, &error), ==, 2);
      more_back = wb_session_get_run (session, 2, WB_SESSION_READ_KERNELS, &error);
      g_assert_no_error (error);
      g_assert_true (wb_run_equal (more, more_back));
    }
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, WB_SESSION_SCHEMA_VERSION);
  }
  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA user_version"), ==, WB_SESSION_SCHEMA_VERSION);
  sqlite3_close (db);
}

static void
test_migrate_read_only (WbTestSessionFixture *f,
                        gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) run = v1_run ();
  g_autoptr (WbSession) session = NULL;
  sqlite3 *db;

  make_v1_file (f->path, run);
  session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);
  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA user_version"), ==, 1);
  sqlite3_close (db);
}

/* READ_ONLY | MIGRATE: a writable file of an older schema is migrated, then read read-only; a file this
 * process may not write is refused as with READ_ONLY alone, and stays at its version */
static void
test_migrate_then_read (WbTestSessionFixture *f,
                        gconstpointer         data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) run = v1_run ();
  g_autoptr (WbRun) back = NULL;
  sqlite3 *db;

  make_v1_file (f->path, run);
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, WB_SESSION_SCHEMA_VERSION);
    back = wb_session_get_run (session, 1, WB_SESSION_READ_KERNELS, &error);
    g_assert_no_error (error);
    g_assert_true (wb_run_equal (run, back));
  }
  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA user_version"), ==, WB_SESSION_SCHEMA_VERSION);
  sqlite3_close (db);

  if (getuid () == 0)
    return; /* root writes any file: the read-only half cannot be made here */
  make_v1_file (f->path, run);
  g_assert_cmpint (g_chmod (f->path, 0444), ==, 0);
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE, &error);

    g_assert_null (session);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
  }
  g_assert_cmpint (g_chmod (f->path, 0644), ==, 0);
  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA user_version"), ==, 1);
  sqlite3_close (db);
}

static void
test_newer_version (WbTestSessionFixture *f,
                    gconstpointer         data)
{
  wb_test_session_make_altered (f->path, 2, "PRAGMA user_version = 99");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_NEWER_VERSION, "newer thunder-wb");
}

static void
test_bad_trigger_old_version (WbTestSessionFixture *f,
                              gconstpointer         data)
{
  g_autoptr (WbRun) run = v1_run ();
  sqlite3 *db;

  /* Migration writes into meta: a trigger on it must be refused before the migration runs. */
  make_v1_file (f->path, run);
  db = wb_test_sqlite_open (f->path);
  wb_test_sqlite_exec (db, "CREATE TRIGGER on_meta AFTER INSERT ON meta BEGIN "
                           "INSERT INTO kernel_names (name) VALUES ('canary'); END;");
  sqlite3_close (db);
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "trigger “on_meta”");

  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "PRAGMA user_version"), ==, 1);
  g_assert_cmpint (wb_test_sqlite_int (db, "SELECT count(*) FROM kernel_names WHERE name = 'canary'"), ==, 0);
  g_assert_cmpint (wb_test_sqlite_int (db, "SELECT count(*) FROM meta WHERE key LIKE 'migrated%'"), ==, 0);
  sqlite3_close (db);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/data/WbSession/" path, WbTestSessionFixture, NULL, wb_test_session_fixture_set_up, func, wb_test_session_fixture_tear_down)
  ADD ("schema/migrate-v1", test_migrate_v1);
  ADD ("schema/migrate-read-only", test_migrate_read_only);
  ADD ("schema/migrate-then-read", test_migrate_then_read);
  ADD ("schema/newer-version", test_newer_version);
  ADD ("bad/trigger-before-migration", test_bad_trigger_old_version);
#undef ADD

  return g_test_run ();
}
