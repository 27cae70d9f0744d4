/* test-session.c — WbSession: schema, migration, refusal of bad and untrusted files, import, runs
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "wb-session-private.h"
#include "wb-test-common.h"
#include "wb-test-runs.h"

/* -- fixtures and helpers ------------------------------------------------------------------------ */

typedef struct
{
  char *dir;
  char *path; /* dir/test.wbsession */
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("wb-session-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "test.wbsession", NULL);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  wb_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static GPtrArray *
test_regions (void)
{
  static GPtrArray *regions;

  if (regions == NULL)
    {
      const char      *traces = wb_test_traces_dir ();
      g_autofree char *llama = traces ? g_build_filename (traces, "llama_layer", NULL) : NULL;
      g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);

      regions = wb_test_regions_load (llama && g_file_test (llama, G_FILE_TEST_IS_DIR) ? llama : mlp);
      g_assert_cmpuint (regions->len, >, 0);
    }
  return regions;
}

static sqlite3 *
raw_open (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  return db;
}

static void
raw_exec (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static gint64
raw_int (sqlite3    *db,
         const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64        value = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

static WbSession *
create_session (const char *path)
{
  g_autoptr (GError) error = NULL;
  WbSession *session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

/* make_session_with_runs: a closed session file at @path with @n runs (checkpointed: no WAL left). */
static void
make_session_with_runs (const char *path,
                        guint       n)
{
  g_autoptr (WbSession) session = create_session (path);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbRun) run = wb_test_make_run (test_regions (), i, 20, 100);

      g_assert_cmpint (wb_session_store_run (session, run, 0, &error), >, 0);
      g_assert_no_error (error);
    }
}

static void
write_file (const char *path,
            const void *data,
            gsize       len)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

static char *
read_file (const char *path,
           gsize      *len)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;

  g_file_get_contents (path, &data, len, &error);
  g_assert_no_error (error);
  return data;
}

/* assert_refused: opening @path fails with @code and a message naming the file and containing @needle. */
static void
assert_refused (const char *path,
                int         code,
                const char *needle)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_session_open (path, WB_SESSION_OPEN_DEFAULT, &error);

  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, code);
  g_test_message ("refused as expected: %s", error->message);
  g_assert_true (strstr (error->message, path) != NULL);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("message “%s” does not contain “%s”", error->message, needle);
}

/* -- schema -------------------------------------------------------------------------------------- */

static void
test_create_reopen (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *creator = NULL;
  sqlite3         *db;

  {
    g_autoptr (WbSession) session = create_session (f->path);

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

  db = raw_open (f->path);
  g_assert_cmpint (raw_int (db, "PRAGMA user_version"), ==, WB_SESSION_SCHEMA_VERSION);
  g_assert_cmpint (raw_int (db, "PRAGMA application_id"), ==, WB_SESSION_APPLICATION_ID);
  {
    sqlite3_stmt *stmt = NULL;

    sqlite3_prepare_v2 (db, "PRAGMA journal_mode", -1, &stmt, NULL);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "wal");
    sqlite3_finalize (stmt);
  }
  sqlite3_close (db);
}

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
  sqlite3         *db = raw_open (path);
  sqlite3_stmt    *stmt = NULL;
  g_autofree char *sum = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  g_autofree char *ksum = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_KERNELS);
  g_autoptr (GString) versions = g_string_new ("[");

  raw_exec (db, "BEGIN");
  raw_exec (db, _wb_session_migration_sql (1));
  raw_exec (db, "PRAGMA user_version = 1");
  raw_exec (db, "INSERT INTO meta VALUES ('creator', 'thunder-wb 0.0.9'), ('created_at', '1700000000000000')");

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
  raw_exec (db, "COMMIT");
  sqlite3_close (db);
}

static WbRun *
v1_run (void)
{
  WbRun *run = wb_test_make_run (test_regions (), 7, 12, 40);

  for (guint i = 0; i < run->kernels->len; i++)
    ((WbKernelRecord *) g_ptr_array_index (run->kernels, i))->correlation_id = 0;
  wb_kernel_attribution_clear (&run->attribution); /* nor attribution */
  run->id = 1;
  return run;
}

static void
test_migrate_v1 (Fixture      *f,
                 gconstpointer data)
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
      g_autoptr (WbRun) more = wb_test_make_run (test_regions (), 8, 12, 40);
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
  db = raw_open (f->path);
  g_assert_cmpint (raw_int (db, "PRAGMA user_version"), ==, WB_SESSION_SCHEMA_VERSION);
  sqlite3_close (db);
}

static void
test_migrate_read_only (Fixture      *f,
                        gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) run = v1_run ();
  g_autoptr (WbSession) session = NULL;
  sqlite3 *db;

  make_v1_file (f->path, run);
  session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);
  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
  db = raw_open (f->path);
  g_assert_cmpint (raw_int (db, "PRAGMA user_version"), ==, 1);
  sqlite3_close (db);
}

static void
test_newer_version (Fixture      *f,
                    gconstpointer data)
{
  sqlite3 *db;

  make_session_with_runs (f->path, 2);
  db = raw_open (f->path);
  raw_exec (db, "PRAGMA user_version = 99");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_NEWER_VERSION, "newer thunder-wb");
}

/* -- bad files ----------------------------------------------------------------------------------- */

static void
test_bad_truncated (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *good = g_build_filename (f->dir, "good.wbsession", NULL);
  g_autofree char *bytes = NULL;
  gsize            len = 0;
  const gsize      page = 4096;
  gsize            cuts[6];

  make_session_with_runs (good, 30);
  bytes = read_file (good, &len);
  g_assert_cmpuint (len, >, 8 * page);

  cuts[0] = len / 2 / page * page; /* page-aligned, half */
  cuts[1] = len - page;            /* the last page missing */
  cuts[2] = len - 1;               /* one byte short */
  cuts[3] = page;                  /* only page 1 (the schema root survives) */
  cuts[4] = 50;                    /* inside the header */
  cuts[5] = 3 * page + 17;
  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/truncated-%u.wbsession", f->dir, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (WbSession) session = NULL;

      write_file (path, bytes, cuts[i]);
      session = wb_session_open (path, WB_SESSION_OPEN_DEFAULT, &error);
      g_assert_null (session);
      g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
      g_assert_true (strstr (error->message, "truncated") != NULL);
      g_test_message ("cut at %" G_GSIZE_FORMAT ": %s", cuts[i], error->message);
    }
}

static void
test_bad_random (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (4242);
  g_autofree char *good = g_build_filename (f->dir, "good.wbsession", NULL);
  g_autofree char *header = NULL;
  gsize            header_len = 0;
  gsize            len = 64 * 1024;
  guint8          *noise = g_malloc (len);

  for (gsize i = 0; i < len; i++)
    noise[i] = (guint8) g_rand_int (rand);

  /* Plain random bytes. */
  write_file (f->path, noise, len);
  assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, "not an SQLite database");

  /* Random bytes behind a real session's 100-byte header, as many pages as the header counts. */
  make_session_with_runs (good, 1);
  header = read_file (good, &header_len);
  for (int trial = 0; trial < 20; trial++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbSession) session = NULL;
      guint8 *mixed = g_malloc (header_len);

      for (gsize i = 0; i < header_len; i++)
        mixed[i] = (guint8) g_rand_int (rand);
      /* Keep the header; on half of the trials also keep page 1's b-tree header so SQLite reads on. */
      memcpy (mixed, header, trial % 2 ? 100 : 112);
      write_file (f->path, mixed, header_len);
      g_free (mixed);
      session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
      g_assert_null (session);
      g_assert_true (error->domain == WB_SESSION_ERROR);
      g_assert_true (error->code == WB_SESSION_ERROR_CORRUPT || error->code == WB_SESSION_ERROR_NOT_A_SESSION ||
                     error->code == WB_SESSION_ERROR_UNTRUSTED);
      if (trial < 2)
        g_test_message ("%s", error->message);
    }
  g_free (noise);
}

static void import_ok (WbSession       *session,
                       const char      *path,
                       WbSessionImport *result);

/* Random bytes flipped anywhere in a good session: opening and reading everything either works or fails
 * with a WB_SESSION_ERROR (or a trace parse error); never a crash (run it under ASan too). */
static void
test_bad_mutated (Fixture      *f,
                  gconstpointer data)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (77);
  g_autofree char *good = g_build_filename (f->dir, "good.wbsession", NULL);
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *bytes = NULL;
  gsize            len = 0;
  guint            opened = 0, refused = 0, read_errors = 0;

  {
    g_autoptr (WbSession) session = create_session (good);
    WbSessionImport r = { 0 };

    import_ok (session, mlp, &r);
  }
  make_session_with_runs (good, 6);
  bytes = read_file (good, &len);

  for (int trial = 0; trial < 150; trial++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbSession) session = NULL;
      g_autofree char *copy = g_memdup2 (bytes, len);
      g_autofree char *wal = g_strconcat (f->path, "-wal", NULL);
      g_autofree char *shm = g_strconcat (f->path, "-shm", NULL);
      int              n_flips = g_rand_int_range (rand, 1, 9);

      for (int i = 0; i < n_flips; i++)
        copy[g_rand_int_range (rand, 0, (gint32) len)] ^= (char) g_rand_int_range (rand, 1, 256);
      write_file (f->path, copy, len);
      g_unlink (wal);
      g_unlink (shm);

      session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
      if (session == NULL)
        {
          g_assert_true (error->domain == WB_SESSION_ERROR);
          refused++;
          continue;
        }
      opened++;
      {
        g_autoptr (GPtrArray) runs = wb_session_list_runs (session, &error);
        g_autoptr (GPtrArray) sets = NULL;

        if (runs == NULL)
          {
            g_assert_true (error->domain == WB_SESSION_ERROR);
            g_clear_error (&error);
            read_errors++;
          }
        for (guint i = 0; runs != NULL && i < runs->len; i++)
          {
            g_autoptr (WbRun) run = wb_session_get_run (session, ((WbRun *) runs->pdata[i])->id, WB_SESSION_READ_KERNELS, &error);

            if (run == NULL)
              {
                g_assert_true (error->domain == WB_SESSION_ERROR);
                g_clear_error (&error);
                read_errors++;
              }
          }
        sets = wb_session_list_trace_sets (session, &error);
        if (sets == NULL)
          {
            g_clear_error (&error);
            read_errors++;
          }
        for (guint i = 0; sets != NULL && i < sets->len; i++)
          {
            g_autoptr (WbTraceSet) set = wb_session_load_trace_set (session, ((WbSessionTraceSet *) sets->pdata[i])->id, &error);

            if (set == NULL)
              {
                g_assert_true (error->domain == WB_SESSION_ERROR || error->domain == WB_TRACE_ERROR);
                g_clear_error (&error);
                read_errors++;
              }
          }
        wb_session_check_integrity (session, NULL);
      }
    }
  g_test_message ("150 mutated files: %u refused at open, %u opened (%u read errors found)", refused, opened,
                  read_errors);
}

static void
test_bad_other_application (Fixture      *f,
                            gconstpointer data)
{
  sqlite3 *db = raw_open (f->path);

  raw_exec (db, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT);"
                "CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, fk INTEGER);"
                "INSERT INTO moz_places (url) VALUES ('https://example.org/');");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, "another application's SQLite database");

  /* An empty SQLite database made elsewhere is not a session either (without CREATE). */
  g_unlink (f->path);
  db = raw_open (f->path);
  raw_exec (db, "PRAGMA user_version = 3; CREATE TABLE t (x); DROP TABLE t;");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, NULL);
}

static void
test_bad_fake_application_id (Fixture      *f,
                              gconstpointer data)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = %d;"
                                          "CREATE TABLE runs (id INTEGER PRIMARY KEY, evil TEXT);",
                                          WB_SESSION_APPLICATION_ID, WB_SESSION_SCHEMA_VERSION);
  sqlite3         *db = raw_open (f->path);

  raw_exec (db, sql);
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "not a");
}

static void
test_bad_extra_trigger (Fixture      *f,
                        gconstpointer data)
{
  sqlite3 *db;

  make_session_with_runs (f->path, 3);
  db = raw_open (f->path);
  /* The canary: if this trigger ever fired, meta would hold it. */
  raw_exec (db, "CREATE TRIGGER evil AFTER INSERT ON runs BEGIN "
                "INSERT OR REPLACE INTO meta VALUES ('canary', 'fired'); END;"
                "CREATE TRIGGER evil_kernels AFTER INSERT ON kernels BEGIN "
                "INSERT OR REPLACE INTO meta VALUES ('canary2', 'fired'); END;");
  sqlite3_close (db);

  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "trigger “evil”");
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE | WB_SESSION_OPEN_CHECK, &error);

    g_assert_null (session);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED);
  }
  db = raw_open (f->path);
  g_assert_cmpint (raw_int (db, "SELECT count(*) FROM meta WHERE key LIKE 'canary%'"), ==, 0);
  g_assert_cmpint (raw_int (db, "SELECT count(*) FROM runs"), ==, 3);
  sqlite3_close (db);
}

static void
test_bad_trigger_old_version (Fixture      *f,
                              gconstpointer data)
{
  g_autoptr (WbRun) run = v1_run ();
  sqlite3 *db;

  /* Migration writes into meta: a trigger on it must be refused before the migration runs. */
  make_v1_file (f->path, run);
  db = raw_open (f->path);
  raw_exec (db, "CREATE TRIGGER on_meta AFTER INSERT ON meta BEGIN "
                "INSERT INTO kernel_names (name) VALUES ('canary'); END;");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "trigger “on_meta”");

  db = raw_open (f->path);
  g_assert_cmpint (raw_int (db, "PRAGMA user_version"), ==, 1);
  g_assert_cmpint (raw_int (db, "SELECT count(*) FROM kernel_names WHERE name = 'canary'"), ==, 0);
  g_assert_cmpint (raw_int (db, "SELECT count(*) FROM meta WHERE key LIKE 'migrated%'"), ==, 0);
  sqlite3_close (db);
}

static void
test_bad_extra_view (Fixture      *f,
                     gconstpointer data)
{
  sqlite3 *db;

  make_session_with_runs (f->path, 1);
  db = raw_open (f->path);
  raw_exec (db, "CREATE VIEW latest AS SELECT * FROM runs ORDER BY id DESC LIMIT 1;");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "view “latest”");
}

static void
test_bad_changed_schema (Fixture      *f,
                         gconstpointer data)
{
  sqlite3 *db;

  /* A column definition that differs from ours (a DEFAULT could call a function). */
  make_session_with_runs (f->path, 1);
  db = raw_open (f->path);
  raw_exec (db, "ALTER TABLE runs ADD COLUMN extra TEXT DEFAULT 'x';");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "table “runs”");

  /* An extra index, an extra table, a missing index. */
  g_unlink (f->path);
  make_session_with_runs (f->path, 1);
  db = raw_open (f->path);
  raw_exec (db, "CREATE INDEX sneaky ON runs (lower(label));");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "index “sneaky”");

  g_unlink (f->path);
  make_session_with_runs (f->path, 1);
  db = raw_open (f->path);
  raw_exec (db, "CREATE VIRTUAL TABLE IF NOT EXISTS dummy USING fts5(x);");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "unexpected");

  /* A schema entry rewritten behind SQLite's back (writable_schema) so that it no longer parses. */
  g_unlink (f->path);
  make_session_with_runs (f->path, 1);
  db = raw_open (f->path);
  raw_exec (db, "PRAGMA writable_schema = ON;"
                "UPDATE sqlite_master SET sql = 'CREATE TABLE regions (' WHERE name = 'regions';");
  sqlite3_close (db);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);

    g_assert_null (session);
    g_assert_true (g_error_matches (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT) ||
                   g_error_matches (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED));
    g_test_message ("malformed schema: %s", error->message);
  }

  g_unlink (f->path);
  make_session_with_runs (f->path, 1);
  db = raw_open (f->path);
  raw_exec (db, "DROP INDEX kernels_region;");
  sqlite3_close (db);
  assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "missing");
}

static void
test_bad_empty_missing (Fixture      *f,
                        gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;

  /* Missing, without CREATE. */
  session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO);
  g_clear_error (&error);

  /* Empty, without CREATE; then with CREATE it becomes a session. */
  write_file (f->path, "", 0);
  assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, "empty");
  session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_clear_pointer (&session, wb_session_close);

  /* A directory. */
  session = wb_session_open (f->dir, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO);
}

/* -- import -------------------------------------------------------------------------------------- */

static gint64
count_rows (const char *path,
            const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM %s", table);
  sqlite3         *db = raw_open (path);
  gint64           n = raw_int (db, sql);

  sqlite3_close (db);
  return n;
}

static void
import_ok (WbSession       *session,
           const char      *path,
           WbSessionImport *result)
{
  g_autoptr (GError) error = NULL;

  wb_session_import_path (session, path, result, &error);
  g_assert_no_error (error);
}

static void
test_import_samples (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *forward = g_build_filename (mlp, "forward_00.py", NULL);
  WbSessionImport  first = { 0 };
  WbSessionImport  again = { 0 };
  WbSessionImport  file = { 0 };
  gint64           texts;

  {
    g_autoptr (WbSession) session = create_session (f->path);

    import_ok (session, mlp, &first);
    g_assert_true (first.new_trace_set);
    g_assert_cmpuint (first.n_entries, >, 10);
    g_assert_cmpuint (first.n_new_texts, >, 0);
    g_assert_cmpuint (first.n_new_texts + first.n_known_texts, ==, first.n_entries);

    import_ok (session, mlp, &again);
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

    import_ok (session, mlp, &again);
    g_assert_false (again.new_trace_set);
    import_ok (session, forward, &file);
    g_assert_true (file.new_trace_set);
    g_assert_cmpuint (file.n_new_texts, ==, 0);
    import_ok (session, forward, &file);
    g_assert_false (file.new_trace_set);
  }
  g_assert_cmpint (count_rows (f->path, "texts"), ==, texts);
  g_assert_cmpint (count_rows (f->path, "trace_sets"), ==, 2);
}

static void
test_import_real_traces (Fixture      *f,
                         gconstpointer data)
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

  session = create_session (f->path);
  for (guint i = 0; i < cases->len; i++)
    {
      WbSessionImport r = { 0 };

      import_ok (session, g_ptr_array_index (cases, i), &r);
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

      import_ok (session, g_ptr_array_index (cases, i), &r);
      g_assert_false (r.new_trace_set);
      g_assert_cmpuint (r.n_new_texts, ==, 0);
    }
  g_assert_cmpint (count_rows (f->path, "texts"), ==, texts);
  g_assert_cmpint (count_rows (f->path, "trace_sets"), ==, sets);
  g_assert_cmpint (count_rows (f->path, "source_texts"), ==, entries);
}

static void
test_import_load_back (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (WbSession) session = create_session (f->path);
  g_autoptr (WbTraceSet) original = wb_trace_set_load (mlp, &error);
  g_autoptr (WbTraceSet) back = NULL;
  g_autoptr (GPtrArray) sets = NULL;
  WbSessionImport r = { 0 };

  g_assert_no_error (error);
  import_ok (session, mlp, &r);
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
test_run_round_trip (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  gint64 ids[3];

  {
    g_autoptr (WbSession) session = create_session (f->path);

    for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
      {
        g_autoptr (WbRun) run = wb_test_make_run (test_regions (), 100 + i, 30, 120);

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
        g_autoptr (WbRun) expected = wb_test_make_run (test_regions (), 100 + i, 30, 120);
        g_autoptr (WbRun) back = wb_session_get_run (session, ids[i], WB_SESSION_READ_KERNELS, &error);
        g_autoptr (WbRun) summary = wb_session_get_run (session, ids[i], WB_SESSION_READ_SUMMARY, &error);

        g_assert_no_error (error);
        g_assert_true (wb_run_equal (expected, back));
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
      g_autoptr (WbRun) run = wb_test_make_run (test_regions (), 1, 3, 3);

      g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 0);
      g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
      g_clear_error (&error);
    }
    g_assert_null (wb_session_get_run (session, 42, 0, &error));
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND);
  }
}

static void
test_run_edge_cases (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = create_session (f->path);
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
test_run_tampered (Fixture      *f,
                   gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  sqlite3 *db;

  make_session_with_runs (f->path, 2);
  db = raw_open (f->path);
  raw_exec (db, "UPDATE region_stats SET median_ns = median_ns + 1 WHERE run_id = 1 AND position = 0;"
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
test_assignments (Fixture      *f,
                  gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = create_session (f->path);
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
      g_autoptr (WbRun) run = wb_test_make_run (test_regions (), i, 5, 5);

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
test_stages (Fixture      *f,
             gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (WbSession) session = create_session (f->path);
  g_autofree char *name = NULL, *text = NULL, *map = NULL;
  WbSessionImport  r = { 0 };
  const char      *stage_text = "# Constructed by fusion\ndef computation(a):\n  return a\n";
  const char      *stage_map = "{\"t5\": [\"t1\", \"t2\"]}";
  gint64           s1, s2, s3;

  import_ok (session, mlp, &r);
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
test_ceilings (Fixture      *f,
               gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = create_session (f->path);
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
  raw_exec (db, "COMMIT");
  return NULL;
}

static void
test_writer_waits (Fixture      *f,
                   gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = create_session (f->path);
  g_autoptr (WbRun) run = wb_test_make_run (test_regions (), 1, 10, 10);
  sqlite3 *db = raw_open (f->path);
  GThread *thread;
  gint64   start;

  /* Another connection holds the write lock for 300 ms: the store waits, then succeeds. */
  raw_exec (db, "BEGIN IMMEDIATE");
  thread = g_thread_new ("release", release_later, db);
  start = g_get_monotonic_time ();
  g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 250 * 1000);
  g_thread_join (thread);

  /* With a short timeout it gives up with BUSY and stores nothing. */
  raw_exec (db, "BEGIN IMMEDIATE");
  wb_session_set_busy_timeout (session, 50);
  g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_BUSY);
  g_test_message ("%s", error->message);
  raw_exec (db, "COMMIT");
  sqlite3_close (db);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_count_runs (session, &error), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/data/WbSession/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("schema/create-reopen", test_create_reopen);
  ADD ("schema/migrate-v1", test_migrate_v1);
  ADD ("schema/migrate-read-only", test_migrate_read_only);
  ADD ("schema/newer-version", test_newer_version);
  ADD ("bad/truncated", test_bad_truncated);
  ADD ("bad/random-bytes", test_bad_random);
  ADD ("bad/mutated", test_bad_mutated);
  ADD ("bad/other-application", test_bad_other_application);
  ADD ("bad/fake-application-id", test_bad_fake_application_id);
  ADD ("bad/extra-trigger", test_bad_extra_trigger);
  ADD ("bad/trigger-before-migration", test_bad_trigger_old_version);
  ADD ("bad/extra-view", test_bad_extra_view);
  ADD ("bad/changed-schema", test_bad_changed_schema);
  ADD ("bad/empty-missing-directory", test_bad_empty_missing);
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
