/* wb-test-session.c — the session tests' fixture and helpers (test-session*.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-test-session.h"

#include <string.h>

#include "wb-test-common.h"

void
wb_test_session_fixture_set_up (WbTestSessionFixture *f,
                                gconstpointer         data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("wb-session-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "test.wbsession", NULL);
}

void
wb_test_session_fixture_tear_down (WbTestSessionFixture *f,
                                   gconstpointer         data)
{
  wb_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

GPtrArray *
wb_test_session_regions (void)
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

sqlite3 *
wb_test_sqlite_open (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  return db;
}

void
wb_test_sqlite_exec (sqlite3    *db,
                     const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

gint64
wb_test_sqlite_int (sqlite3    *db,
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

char *
wb_test_sqlite_columns (sqlite3    *db,
                        const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT name FROM pragma_table_info('%s', 'main') ORDER BY cid", table);
  GString         *out = g_string_new (NULL);
  sqlite3_stmt    *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_string_append_printf (out, "%s%s", out->len ? ", " : "", (const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  g_assert_cmpuint (out->len, >, 0);
  return g_string_free (out, FALSE);
}

WbSession *
wb_test_session_create (const char *path)
{
  g_autoptr (GError) error = NULL;
  WbSession *session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

void
wb_test_session_make_with_runs (const char *path,
                                guint       n)
{
  g_autoptr (WbSession) session = wb_test_session_create (path);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbRun) run = wb_test_make_run (wb_test_session_regions (), i, 20, 100);

      g_assert_cmpint (wb_session_store_run (session, run, 0, &error), >, 0);
      g_assert_no_error (error);
    }
}

void
wb_test_session_make_altered (const char *path,
                              guint       n,
                              const char *sql)
{
  sqlite3 *db;

  wb_test_session_make_with_runs (path, n);
  db = wb_test_sqlite_open (path);
  wb_test_sqlite_exec (db, sql);
  sqlite3_close (db);
}

void
wb_test_session_assert_refused (const char *path,
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

void
wb_test_session_import_ok (WbSession       *session,
                           const char      *path,
                           WbSessionImport *result)
{
  g_autoptr (GError) error = NULL;

  wb_session_import_path (session, path, result, &error);
  g_assert_no_error (error);
}
