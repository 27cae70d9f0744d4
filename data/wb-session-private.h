/* wb-session-private.h — what the wb-session*.c files share: the connection, cached statements, errors
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sqlite3.h>

#include "wb-data.h"

G_BEGIN_DECLS

/* Statements prepared once per connection (SQLITE_PREPARE_PERSISTENT) and reset after each use. Every
 * value goes through a bind: no SQL text is ever built from data. */
typedef enum
{
  WB_STMT_META_GET,
  WB_STMT_META_SET,
  WB_STMT_TEXT_FIND,
  WB_STMT_TEXT_INSERT,
  WB_STMT_SET_FIND,
  WB_STMT_SET_INSERT,
  WB_STMT_SET_GET,
  WB_STMT_SOURCE_INSERT,
  WB_STMT_SOURCE_LIST,
  WB_STMT_SETS_LIST,
  WB_STMT_STAGE_FIND,
  WB_STMT_STAGE_NEXT_POSITION,
  WB_STMT_STAGE_INSERT,
  WB_STMT_STAGE_GET,
  WB_STMT_REGION_FIND,
  WB_STMT_REGION_INSERT,
  WB_STMT_ASSIGNMENT_FIND_SPEC,
  WB_STMT_ASSIGNMENT_FIND_NAME,
  WB_STMT_ASSIGNMENT_NEXT_ID,
  WB_STMT_ASSIGNMENT_INSERT,
  WB_STMT_CHOICE_INSERT,
  WB_STMT_ASSIGNMENTS_LIST,
  WB_STMT_KERNEL_NAME_FIND,
  WB_STMT_KERNEL_NAME_INSERT,
  WB_STMT_RUN_INSERT,
  WB_STMT_REGION_STATS_INSERT,
  WB_STMT_KERNEL_INSERT,
  WB_STMT_RUN_GET,
  WB_STMT_RUNS_LIST,
  WB_STMT_RUNS_LATEST,
  WB_STMT_RUNS_COUNT,
  WB_STMT_REGION_STATS_GET,
  WB_STMT_KERNELS_GET,
  WB_STMT_CEILINGS_SET,
  WB_STMT_CEILINGS_GET,
  WB_N_STMTS
} WbStmt;

/* The columns of runs that wb_session_get_run() and wb_session_list_runs() read, in this order. */
#define WB_RUN_COLUMNS                                                                                  \
  "id, label, trace_set_id, assignment, stage, device_name, device_model, driver_version, "             \
  "executor_versions, iters, warmup, cuda_graphs, executors, status, error, started_at, iteration_ns, " \
  "dropped_records, n_regions, n_kernels, checksum, kernels_checksum"

struct _WbSession
{
  sqlite3      *db;
  char         *path;
  gboolean      read_only;
  int           opened_version;
  sqlite3_stmt *stmts[WB_N_STMTS];
};

/* _wb_session_stmt: (transfer none) statement @id, prepared on first use and reset, or NULL with
 * @error set. */
sqlite3_stmt *_wb_session_stmt (WbSession *session,
                                WbStmt     id,
                                GError   **error);
/* _wb_session_set_error: sets @error from the connection's last SQLite error:
 * "PATH: WHAT: MESSAGE (SQLITE_NAME)", with a WbSessionError code derived from the result code. */
void _wb_session_set_error (WbSession  *session,
                            GError    **error,
                            const char *what);
/* _wb_session_error_code: the WbSessionError for SQLite (extended) result code @rc. */
WbSessionError _wb_session_error_code (int rc);
/* _wb_session_rc_name: "SQLITE_BUSY", ... for a primary or extended result code (transfer none). */
const char *_wb_session_rc_name (int rc);
/* _wb_session_step_done: steps @stmt expecting SQLITE_DONE; resets it either way. */
gboolean _wb_session_step_done (WbSession    *session,
                                sqlite3_stmt *stmt,
                                const char   *what,
                                GError      **error);
/* Transactions: BEGIN IMMEDIATE (@write) or BEGIN DEFERRED (a read snapshot); COMMIT; ROLLBACK
 * (never fails: errors are ignored because the transaction is being abandoned). */
gboolean _wb_session_begin (WbSession *session,
                            gboolean   write,
                            GError   **error);
gboolean _wb_session_commit (WbSession *session,
                             GError   **error);
void     _wb_session_rollback (WbSession *session);
/* _wb_session_bind_text: binds @value (NULL binds NULL) as transient text. */
void _wb_session_bind_text (sqlite3_stmt *stmt,
                            int           index,
                            const char   *value);
/* _wb_session_column_dup: (transfer full) column @i as text, NULL for NULL. */
char *_wb_session_column_dup (sqlite3_stmt *stmt,
                              int           i);
/* _wb_session_sha256: (transfer full) lowercase hex SHA-256 of @len bytes of @data. */
char *_wb_session_sha256 (const void *data,
                          gsize       len);

/* Schema (wb-session-schema.c). */

/* _wb_session_migration_sql: (transfer none) the SQL of the step that takes a file from @version - 1
 * to @version (1..WB_SESSION_SCHEMA_VERSION), or NULL. Tests use it to make old files by hand. */
const char *_wb_session_migration_sql (int version);
/* _wb_session_run_script: prepares and steps each statement of @sql in turn. */
gboolean _wb_session_run_script (sqlite3    *db,
                                 const char *sql,
                                 GError    **error);
/* _wb_session_verify_schema: TRUE when sqlite_master of @db holds exactly the tables and indexes of
 * schema @version with our definitions; otherwise FALSE with WB_SESSION_ERROR_UNTRUSTED naming the
 * first difference ("an unexpected trigger “t” on runs"). */
gboolean _wb_session_verify_schema (sqlite3    *db,
                                    const char *path,
                                    int         version,
                                    GError    **error);

G_END_DECLS
