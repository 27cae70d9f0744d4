/* wb-test-session.h — the session tests' fixture and helpers: a temporary session file, raw SQLite
 * access behind WbSession's back, sessions with runs, refusals, imports
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sqlite3.h>

#include "wb-test-runs.h"

G_BEGIN_DECLS

/* A temporary directory (removed with everything in it) and the path of a session file in it. */
typedef struct
{
  char *dir;
  char *path; /* dir/test.wbsession */
} WbTestSessionFixture;

void wb_test_session_fixture_set_up (WbTestSessionFixture *f, gconstpointer data);
void wb_test_session_fixture_tear_down (WbTestSessionFixture *f, gconstpointer data);

/* wb_test_session_regions: (transfer none) the regions of llama_layer ($WB_TRACES_DIR), else of the
 * bundled mlp_small, loaded once. */
GPtrArray *wb_test_session_regions (void);

/* wb_test_sqlite_open: @path opened (or created) with SQLite directly, read-write; a test failure
 * otherwise. wb_test_sqlite_exec runs @sql (g_error when it fails); wb_test_sqlite_int gives the first
 * column of the first row of @sql, or -1 when there is no row. */
sqlite3 *wb_test_sqlite_open (const char *path);
void     wb_test_sqlite_exec (sqlite3 *db, const char *sql);
gint64   wb_test_sqlite_int (sqlite3 *db, const char *sql);
/* wb_test_sqlite_columns: (transfer full) the columns of @table in the database "main" of @db, comma-separated
 * in order: what a file of an older version has, when it is made by copying from a session of this one. */
char *wb_test_sqlite_columns (sqlite3 *db, const char *table);

/* wb_test_session_create: (transfer full) a session opened with WB_SESSION_OPEN_CREATE, or a test failure. */
WbSession *wb_test_session_create (const char *path);
/* wb_test_session_make_with_runs: a closed session file at @path with @n runs (checkpointed: no WAL left). */
void wb_test_session_make_with_runs (const char *path, guint n);
/* wb_test_session_make_altered: the same, then @sql run on the closed file with SQLite directly (the tampering
 * that the bad-file tests look for). */
void wb_test_session_make_altered (const char *path, guint n, const char *sql);
/* wb_test_session_assert_refused: opening @path fails with @code and a message naming the file and
 * containing @needle (unless NULL). */
void wb_test_session_assert_refused (const char *path, int code, const char *needle);
/* wb_test_session_import_ok: imports @path into @session, filling @result, or a test failure. */
void wb_test_session_import_ok (WbSession *session, const char *path, WbSessionImport *result);

G_END_DECLS
