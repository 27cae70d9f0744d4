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
  WB_STMT_HOST_CALL_INSERT,
  WB_STMT_ATTRIBUTION_INSERT,
  WB_STMT_RANKS_INSERT,
  WB_STMT_GROUP_RUNS,
  WB_STMT_RUN_GET,
  WB_STMT_RUNS_LIST,
  WB_STMT_RUNS_LATEST,
  WB_STMT_RUNS_COUNT,
  WB_STMT_REGION_STATS_GET,
  WB_STMT_KERNELS_GET,
  WB_STMT_HOST_CALLS_GET,
  WB_STMT_CEILINGS_SET,
  WB_STMT_CEILINGS_GET,
  WB_N_STMTS
} WbStmt;

/* The columns of a run that wb_session_get_run() and wb_session_list_runs() read, in this order, from
 * WB_RUN_FROM: the runs row (r), then its run_attribution row (a; all NULL when it has none), then its
 * run_ranks row (g, from WB_RUN_RANK_COLUMN on; all NULL when it has none), then the runs row's launch_list
 * (WB_RUN_LAUNCH_LIST_COLUMN: a column schema version 8 added, so it comes last). */
#define WB_RUN_COLUMNS                                                                                          \
  "r.id, r.label, r.trace_set_id, r.assignment, r.stage, r.device_name, r.device_model, r.driver_version, "     \
  "r.executor_versions, r.iters, r.warmup, r.cuda_graphs, r.executors, r.status, r.error, r.started_at, "       \
  "r.iteration_ns, r.dropped_records, r.n_regions, r.n_kernels, r.checksum, r.kernels_checksum, "               \
  "a.run_id, a.kernel_source, a.kernel_ns_total, a.kernel_ns_attributed, a.kernel_ns_by_time_range, "           \
  "a.kernels_by_correlation, a.kernels_by_time_range, a.kernels_unattributed, a.memcpy_count, a.memcpy_bytes, " \
  "a.memcpy_ns, a.memset_count, a.memset_bytes, a.memset_ns, a.memops_attributed, "                             \
  "g.run_id, g.rank, g.world_size, g.clock_origin_ns, g.run_group, r.launch_list"
#define WB_RUN_RANK_COLUMN 37
#define WB_RUN_LAUNCH_LIST_COLUMN 42
#define WB_RUN_FROM \
  "runs r LEFT JOIN run_attribution a ON a.run_id = r.id LEFT JOIN run_ranks g ON g.run_id = r.id"

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
/* _wb_session_exec: prepares, steps to the end and finalizes @sql (one constant statement). */
gboolean _wb_session_exec (WbSession  *session,
                           const char *sql,
                           const char *what,
                           GError    **error);
/* _wb_session_query_int: the first column of the first row of @sql (a constant statement) as an
 * integer; 0 when there is no row. */
gboolean _wb_session_query_int (WbSession  *session,
                                const char *sql,
                                gint64     *value,
                                GError    **error);
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
/* _wb_session_check_text_hash: TRUE when @len bytes of @text hash to @sha256; else FALSE with
 * WB_SESSION_ERROR_CORRUPT naming @what (a path, "text 3"). */
gboolean _wb_session_check_text_hash (WbSession  *session,
                                      const char *text,
                                      gsize       len,
                                      const char *sha256,
                                      const char *what,
                                      GError    **error);
/* _wb_session_check_all_texts: _wb_session_check_text_hash on every row of texts. */
gboolean _wb_session_check_all_texts (WbSession *session,
                                      GError   **error);
/* _wb_session_sha256: (transfer full) lowercase hex SHA-256 of @len bytes of @data. */
char *_wb_session_sha256 (const void *data,
                          gsize       len);

/* Encodings of columns (wb-session-sql.c). Times are little-endian int64 arrays, 8 bytes each. */

/* _wb_session_times_to_blob: (transfer full) @times (element-type gint64) as a BLOB's bytes. */
GBytes *_wb_session_times_to_blob (const GArray *times);
/* _wb_session_blob_to_times: appends the times of BLOB column @column to @times; FALSE when its length
 * is not a multiple of 8. */
gboolean _wb_session_blob_to_times (sqlite3_stmt *stmt,
                                    int           column,
                                    GArray       *times);
/* _wb_session_bind_blob: binds @bytes (a zero-length blob, never NULL, when empty). */
void _wb_session_bind_blob (sqlite3_stmt *stmt,
                            int           index,
                            GBytes       *bytes);
/* _wb_session_bind_double / _column_double: NaN is stored as NULL and NULL read back as NaN. */
void   _wb_session_bind_double (sqlite3_stmt *stmt,
                                int           index,
                                double        value);
double _wb_session_column_double (sqlite3_stmt *stmt,
                                  int           column);
/* _wb_session_strings_to_json: (transfer full) @strings (element-type utf8) as a JSON array. */
char *_wb_session_strings_to_json (const GPtrArray *strings);
/* _wb_session_json_to_strings: appends the strings of JSON array @text to @strings; FALSE when @text is
 * not an array of strings. */
gboolean _wb_session_json_to_strings (const char *text,
                                      GPtrArray  *strings);

/* Assignments (wb-session-assignments.c). */

/* _wb_session_valid_name: a region, executor or assignment name: UTF-8, not empty, no "=" or ",". */
gboolean _wb_session_valid_name (const char *s);
/* _wb_session_run_choices: (transfer full) the run's assignment as an array of choices: each region with
 * an executor -> that executor (an opaque element type; only ->len is for the caller). */
GArray *_wb_session_run_choices (const WbRun *run);
/* _wb_session_ensure_assignment: inside a write transaction, the id of the assignment with @choices (from
 * _wb_session_run_choices; sorted in place), storing it under @name (nullable) when new. @strict: a name
 * already used by other choices is an error; otherwise a free variant "NAME-N" is taken. 0 with @error on
 * failure. */
gint64 _wb_session_ensure_assignment (WbSession  *session,
                                      const char *name,
                                      GArray     *choices,
                                      gboolean    strict,
                                      GError    **error);

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
