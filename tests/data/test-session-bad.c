/* test-session-bad.c — WbSession refuses bad and untrusted files: truncated, random and mutated bytes,
 * another application's database, a fake application id, extra triggers, views, tables and indexes, a
 * changed or malformed schema, empty and missing files, a directory; and the error domains' names
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "wb-session-private.h"
#include "wb-test-common.h"
#include "wb-test-runs.h"
#include "wb-test-session.h"

/* -- helpers ------------------------------------------------------------------------------------- */

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

/* -- bad files ----------------------------------------------------------------------------------- */

static void
test_bad_truncated (WbTestSessionFixture *f,
                    gconstpointer         data)
{
  g_autofree char *good = g_build_filename (f->dir, "good.wbsession", NULL);
  g_autofree char *bytes = NULL;
  gsize            len = 0;
  const gsize      page = 4096;
  gsize            cuts[6];

  wb_test_session_make_with_runs (good, 30);
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
test_bad_random (WbTestSessionFixture *f,
                 gconstpointer         data)
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
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, "not an SQLite database");

  /* Random bytes behind a real session's 100-byte header, as many pages as the header counts. */
  wb_test_session_make_with_runs (good, 1);
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

/* Random bytes flipped anywhere in a good session: opening and reading everything either works or fails
 * with a WB_SESSION_ERROR (or a trace parse error); never a crash (run it under ASan too). */
static void
test_bad_mutated (WbTestSessionFixture *f,
                  gconstpointer         data)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (77);
  g_autofree char *good = g_build_filename (f->dir, "good.wbsession", NULL);
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *bytes = NULL;
  gsize            len = 0;
  guint            opened = 0, refused = 0, read_errors = 0;

  {
    g_autoptr (WbSession) session = wb_test_session_create (good);
    WbSessionImport r = { 0 };

    wb_test_session_import_ok (session, mlp, &r);
  }
  wb_test_session_make_with_runs (good, 6);
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
test_bad_other_application (WbTestSessionFixture *f,
                            gconstpointer         data)
{
  sqlite3 *db = wb_test_sqlite_open (f->path);

  wb_test_sqlite_exec (db, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT);"
                           "CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, fk INTEGER);"
                           "INSERT INTO moz_places (url) VALUES ('https://example.org/');");
  sqlite3_close (db);
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, "another application's SQLite database");

  /* An empty SQLite database made elsewhere is not a session either (without CREATE). */
  g_unlink (f->path);
  db = wb_test_sqlite_open (f->path);
  wb_test_sqlite_exec (db, "PRAGMA user_version = 3; CREATE TABLE t (x); DROP TABLE t;");
  sqlite3_close (db);
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, NULL);
}

static void
test_bad_fake_application_id (WbTestSessionFixture *f,
                              gconstpointer         data)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = %d;"
                                          "CREATE TABLE runs (id INTEGER PRIMARY KEY, evil TEXT);",
                                          WB_SESSION_APPLICATION_ID, WB_SESSION_SCHEMA_VERSION);
  sqlite3         *db = wb_test_sqlite_open (f->path);

  wb_test_sqlite_exec (db, sql);
  sqlite3_close (db);
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "not a");
}

static void
test_bad_extra_trigger (WbTestSessionFixture *f,
                        gconstpointer         data)
{
  sqlite3 *db;

  /* The canary: if this trigger ever fired, meta would hold it. */
  wb_test_session_make_altered (f->path, 3, "CREATE TRIGGER evil AFTER INSERT ON runs BEGIN "
                                            "INSERT OR REPLACE INTO meta VALUES ('canary', 'fired'); END;"
                                            "CREATE TRIGGER evil_kernels AFTER INSERT ON kernels BEGIN "
                                            "INSERT OR REPLACE INTO meta VALUES ('canary2', 'fired'); END;");

  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "trigger “evil”");
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE | WB_SESSION_OPEN_CHECK, &error);

    g_assert_null (session);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED);
  }
  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "SELECT count(*) FROM meta WHERE key LIKE 'canary%'"), ==, 0);
  g_assert_cmpint (wb_test_sqlite_int (db, "SELECT count(*) FROM runs"), ==, 3);
  sqlite3_close (db);
}

/* A trigger named like one of our indexes and placed before it in sqlite_master: compared by name only,
 * the index hid it (issue 46). The whole schema is a list: the second object under the name is refused. */
static void
test_bad_trigger_named_like_index (WbTestSessionFixture *f,
                                   gconstpointer         data)
{
  sqlite3 *db;

  wb_test_session_make_altered (f->path, 2, "DROP INDEX kernels_region;"
                                            "CREATE TRIGGER kernels_region AFTER INSERT ON runs BEGIN "
                                            "INSERT OR REPLACE INTO meta VALUES ('canary', 'fired'); END;"
                                            "CREATE INDEX kernels_region ON kernels (region_id);");
  db = wb_test_sqlite_open (f->path);
  g_assert_cmpint (wb_test_sqlite_int (db, "SELECT count(*) FROM sqlite_master WHERE name = 'kernels_region'"), ==, 2);
  sqlite3_close (db);
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "2 objects named “kernels_region”");

  /* the same object twice is no better than once: an index dropped and a trigger left in its name */
  g_unlink (f->path);
  wb_test_session_make_altered (f->path, 1, "DROP INDEX kernels_region;"
                                            "CREATE TRIGGER kernels_region AFTER INSERT ON runs BEGIN SELECT 1; END;");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "trigger “kernels_region”");
}

static void
test_bad_extra_view (WbTestSessionFixture *f,
                     gconstpointer         data)
{
  wb_test_session_make_altered (f->path, 1, "CREATE VIEW latest AS SELECT * FROM runs ORDER BY id DESC LIMIT 1;");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "view “latest”");
}

static void
test_bad_changed_schema (WbTestSessionFixture *f,
                         gconstpointer         data)
{
  /* A column definition that differs from ours (a DEFAULT could call a function). */
  wb_test_session_make_altered (f->path, 1, "ALTER TABLE runs ADD COLUMN extra TEXT DEFAULT 'x';");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "table “runs”");

  /* An extra index, an extra table, a missing index. */
  g_unlink (f->path);
  wb_test_session_make_altered (f->path, 1, "CREATE INDEX sneaky ON runs (lower(label));");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "index “sneaky”");

  g_unlink (f->path);
  wb_test_session_make_altered (f->path, 1, "CREATE VIRTUAL TABLE IF NOT EXISTS dummy USING fts5(x);");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "unexpected");

  /* A schema entry rewritten behind SQLite's back (writable_schema) so that it no longer parses. */
  g_unlink (f->path);
  wb_test_session_make_altered (f->path, 1, "PRAGMA writable_schema = ON;"
                                            "UPDATE sqlite_master SET sql = 'CREATE TABLE regions (' WHERE name = 'regions';");
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);

    g_assert_null (session);
    g_assert_true (g_error_matches (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT) ||
                   g_error_matches (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED));
    g_test_message ("malformed schema: %s", error->message);
  }

  g_unlink (f->path);
  wb_test_session_make_altered (f->path, 1, "DROP INDEX kernels_region;");
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_UNTRUSTED, "missing");
}

static void
test_bad_empty_missing (WbTestSessionFixture *f,
                        gconstpointer         data)
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
  wb_test_session_assert_refused (f->path, WB_SESSION_ERROR_NOT_A_SESSION, "empty");
  session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_clear_pointer (&session, wb_session_close);

  /* A directory. */
  session = wb_session_open (f->dir, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO);
}

/* -- error domains ------------------------------------------------------------------------------- */

/* Each module's domain reads as its name: clang-format once spaced G_DEFINE_QUARK's first argument
 * into "wb - trace - error - quark", and that string is what g_quark_to_string gives. */
static void
test_error_quark_names (void)
{
  struct
  {
    GQuark      quark;
    const char *name;
  } domains[] = {
    { WB_TRACE_ERROR, "wb-trace-error-quark" },
    { WB_SYMBOL_ERROR, "wb-symbol-error-quark" },
    { WB_PIPELINE_ERROR, "wb-pipeline-error-quark" },
    { WB_EXECUTOR_ERROR, "wb-executor-error-quark" },
    { WB_PROFILE_ERROR, "wb-profile-error-quark" },
    { WB_CUPTI_ERROR, "wb-cupti-error-quark" },
    { WB_SESSION_ERROR, "wb-session-error-quark" },
    { WB_REPORT_ERROR, "wb-report-error-quark" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (domains); i++)
    g_assert_cmpstr (g_quark_to_string (domains[i].quark), ==, domains[i].name);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/data/WbSession/" path, WbTestSessionFixture, NULL, wb_test_session_fixture_set_up, func, wb_test_session_fixture_tear_down)
  ADD ("bad/truncated", test_bad_truncated);
  ADD ("bad/random-bytes", test_bad_random);
  ADD ("bad/mutated", test_bad_mutated);
  ADD ("bad/other-application", test_bad_other_application);
  ADD ("bad/fake-application-id", test_bad_fake_application_id);
  ADD ("bad/extra-trigger", test_bad_extra_trigger);
  ADD ("bad/trigger-named-like-index", test_bad_trigger_named_like_index);
  ADD ("bad/extra-view", test_bad_extra_view);
  ADD ("bad/changed-schema", test_bad_changed_schema);
  ADD ("bad/empty-missing-directory", test_bad_empty_missing);
#undef ADD
  g_test_add_func ("/data/errors/quark-names", test_error_quark_names);

  return g_test_run ();
}
