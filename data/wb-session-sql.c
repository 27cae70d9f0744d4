/* wb-session-sql.c — what every wb-session*.c file uses: the prepared statements, SQLite errors as GErrors,
 * transactions, binds and columns, and the encodings of times and string lists in columns
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "wb-session-private.h"

static const char *const stmt_sql[WB_N_STMTS] = {
  [WB_STMT_META_GET] = "SELECT value FROM meta WHERE key = ?1",
  [WB_STMT_META_SET] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
  [WB_STMT_TEXT_FIND] = "SELECT id FROM texts WHERE sha256 = ?1",
  [WB_STMT_TEXT_INSERT] = "INSERT INTO texts (sha256, bytes, text) VALUES (?1, ?2, ?3)",
  [WB_STMT_SET_FIND] = "SELECT id FROM trace_sets WHERE sha256 = ?1",
  [WB_STMT_SET_INSERT] = "INSERT INTO trace_sets (sha256, name, origin, imported_at) VALUES (?1, ?2, ?3, ?4)",
  [WB_STMT_SET_GET] = "SELECT name FROM trace_sets WHERE id = ?1",
  [WB_STMT_SOURCE_INSERT] =
      "INSERT INTO source_texts (trace_set_id, position, kind, idx, subset, label, path, provenance, "
      "provenance_ms, text_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
  [WB_STMT_SOURCE_LIST] =
      "SELECT s.kind, s.idx, s.subset, s.label, s.path, t.text, t.sha256 FROM source_texts s "
      "JOIN texts t ON t.id = s.text_id WHERE s.trace_set_id = ?1 ORDER BY s.position",
  [WB_STMT_SETS_LIST] =
      "SELECT ts.id, ts.name, ts.origin, ts.imported_at, "
      "(SELECT count(*) FROM source_texts s WHERE s.trace_set_id = ts.id) FROM trace_sets ts ORDER BY ts.id",
  [WB_STMT_STAGE_FIND] =
      "SELECT id FROM stages WHERE trace_set_id IS ?1 AND name = ?2 AND text_id = ?3 AND provenance_map IS ?4",
  [WB_STMT_STAGE_NEXT_POSITION] = "SELECT coalesce(max(position) + 1, 0) FROM stages WHERE trace_set_id IS ?1",
  [WB_STMT_STAGE_INSERT] =
      "INSERT INTO stages (trace_set_id, position, name, text_id, provenance_map, created_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [WB_STMT_STAGE_GET] =
      "SELECT s.name, t.text, s.provenance_map FROM stages s JOIN texts t ON t.id = s.text_id WHERE s.id = ?1",
  [WB_STMT_REGION_FIND] = "SELECT id FROM regions WHERE stage = ?1 AND name = ?2",
  [WB_STMT_REGION_INSERT] = "INSERT INTO regions (stage, name) VALUES (?1, ?2)",
  [WB_STMT_ASSIGNMENT_FIND_SPEC] = "SELECT id FROM assignments WHERE spec = ?1",
  [WB_STMT_ASSIGNMENT_FIND_NAME] = "SELECT id, spec FROM assignments WHERE name = ?1",
  [WB_STMT_ASSIGNMENT_NEXT_ID] = "SELECT coalesce(max(id), 0) + 1 FROM assignments",
  [WB_STMT_ASSIGNMENT_INSERT] = "INSERT INTO assignments (name, spec, created_at) VALUES (?1, ?2, ?3)",
  [WB_STMT_CHOICE_INSERT] = "INSERT INTO assignment_choices (assignment_id, region, executor) VALUES (?1, ?2, ?3)",
  [WB_STMT_ASSIGNMENTS_LIST] =
      "SELECT a.id, a.name, a.spec, a.created_at, "
      "(SELECT count(*) FROM assignment_choices c WHERE c.assignment_id = a.id), "
      "(SELECT count(*) FROM runs r WHERE r.assignment_id = a.id) FROM assignments a ORDER BY a.id",
  [WB_STMT_KERNEL_NAME_FIND] = "SELECT id FROM kernel_names WHERE name = ?1",
  [WB_STMT_KERNEL_NAME_INSERT] = "INSERT INTO kernel_names (name) VALUES (?1)",
  [WB_STMT_RUN_INSERT] =
      "INSERT INTO runs (label, trace_set_id, assignment_id, assignment, stage, device_name, device_model, "
      "driver_version, executor_versions, iters, warmup, cuda_graphs, executors, status, error, started_at, "
      "iteration_ns, iteration_median_ns, dropped_records, n_regions, n_kernels, checksum, kernels_checksum, "
      "launch_list) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
      "?21, ?22, ?23, ?24)",
  [WB_STMT_REGION_STATS_INSERT] =
      "INSERT INTO region_stats (run_id, position, region_id, executor, stage_line, median_ns, min_ns, max_ns, "
      "times_ns, kernel_count, bytes_moved, flops, share, key, contents, unfused_from) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
  [WB_STMT_KERNEL_INSERT] =
      "INSERT INTO kernels (run_id, seq, name_id, region_id, trace_line, stream, grid_x, grid_y, grid_z, "
      "block_x, block_y, block_z, registers, shared_bytes, start_ns, end_ns, iteration, correlation_id) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
  [WB_STMT_HOST_CALL_INSERT] =
      "INSERT INTO host_calls (run_id, seq, name, start_ns, end_ns, thread, iteration, correlation_id) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
  [WB_STMT_ATTRIBUTION_INSERT] =
      "INSERT INTO run_attribution (run_id, kernel_source, kernel_ns_total, kernel_ns_attributed, "
      "kernel_ns_by_time_range, kernels_by_correlation, kernels_by_time_range, kernels_unattributed, "
      "memcpy_count, memcpy_bytes, memcpy_ns, memset_count, memset_bytes, memset_ns, memops_attributed) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
  [WB_STMT_RANKS_INSERT] =
      "INSERT INTO run_ranks (run_id, rank, world_size, clock_origin_ns, run_group) VALUES (?1, ?2, ?3, ?4, ?5)",
  [WB_STMT_GROUP_RUNS] = "SELECT run_id FROM run_ranks WHERE run_group = ?1 ORDER BY rank, run_id",
  [WB_STMT_RUN_GET] =
      "SELECT " WB_RUN_COLUMNS " FROM " WB_RUN_FROM " WHERE r.id = ?1",
  [WB_STMT_RUNS_LIST] =
      "SELECT " WB_RUN_COLUMNS " FROM " WB_RUN_FROM " ORDER BY r.id",
  [WB_STMT_RUNS_LATEST] = "SELECT id FROM runs ORDER BY id DESC LIMIT 2",
  [WB_STMT_RUNS_COUNT] = "SELECT count(*) FROM runs",
  [WB_STMT_REGION_STATS_GET] =
      "SELECT r.name, s.executor, s.stage_line, s.median_ns, s.min_ns, s.max_ns, s.times_ns, s.kernel_count, "
      "s.bytes_moved, s.flops, s.share, s.key, s.contents, s.unfused_from FROM region_stats s JOIN regions r ON r.id = s.region_id "
      "WHERE s.run_id = ?1 ORDER BY s.position",
  [WB_STMT_KERNELS_GET] =
      "SELECT n.name, r.name, k.trace_line, k.stream, k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, "
      "k.block_z, k.registers, k.shared_bytes, k.start_ns, k.end_ns, k.iteration, k.correlation_id "
      "FROM kernels k JOIN kernel_names n ON n.id = k.name_id LEFT JOIN regions r ON r.id = k.region_id "
      "WHERE k.run_id = ?1 ORDER BY k.seq",
  [WB_STMT_HOST_CALLS_GET] =
      "SELECT name, start_ns, end_ns, thread, iteration, correlation_id FROM host_calls WHERE run_id = ?1 ORDER BY seq",
  [WB_STMT_CEILINGS_SET] =
      "INSERT OR REPLACE INTO device_ceilings (device_model, copy_gbps, bf16_tflops, measured_at) "
      "VALUES (?1, ?2, ?3, ?4)",
  [WB_STMT_CEILINGS_GET] = "SELECT copy_gbps, bf16_tflops, measured_at FROM device_ceilings WHERE device_model = ?1",
};

/* -- errors -------------------------------------------------------------------------------------- */

const char *
_wb_session_rc_name (int rc)
{
  static const struct
  {
    int         rc;
    const char *name;
  } names[] = {
    { SQLITE_IOERR_SHORT_READ, "SQLITE_IOERR_SHORT_READ" },
    { SQLITE_CORRUPT_INDEX, "SQLITE_CORRUPT_INDEX" },
    { SQLITE_BUSY_SNAPSHOT, "SQLITE_BUSY_SNAPSHOT" },
    { SQLITE_BUSY_RECOVERY, "SQLITE_BUSY_RECOVERY" },
    { SQLITE_READONLY_DBMOVED, "SQLITE_READONLY_DBMOVED" },
    { SQLITE_CONSTRAINT_UNIQUE, "SQLITE_CONSTRAINT_UNIQUE" },
    { SQLITE_CONSTRAINT_FOREIGNKEY, "SQLITE_CONSTRAINT_FOREIGNKEY" },
    { SQLITE_CONSTRAINT_NOTNULL, "SQLITE_CONSTRAINT_NOTNULL" },
    { SQLITE_CONSTRAINT_PRIMARYKEY, "SQLITE_CONSTRAINT_PRIMARYKEY" },
    { SQLITE_OK, "SQLITE_OK" },
    { SQLITE_ERROR, "SQLITE_ERROR" },
    { SQLITE_INTERNAL, "SQLITE_INTERNAL" },
    { SQLITE_PERM, "SQLITE_PERM" },
    { SQLITE_ABORT, "SQLITE_ABORT" },
    { SQLITE_BUSY, "SQLITE_BUSY" },
    { SQLITE_LOCKED, "SQLITE_LOCKED" },
    { SQLITE_NOMEM, "SQLITE_NOMEM" },
    { SQLITE_READONLY, "SQLITE_READONLY" },
    { SQLITE_INTERRUPT, "SQLITE_INTERRUPT" },
    { SQLITE_IOERR, "SQLITE_IOERR" },
    { SQLITE_CORRUPT, "SQLITE_CORRUPT" },
    { SQLITE_NOTFOUND, "SQLITE_NOTFOUND" },
    { SQLITE_FULL, "SQLITE_FULL" },
    { SQLITE_CANTOPEN, "SQLITE_CANTOPEN" },
    { SQLITE_PROTOCOL, "SQLITE_PROTOCOL" },
    { SQLITE_SCHEMA, "SQLITE_SCHEMA" },
    { SQLITE_TOOBIG, "SQLITE_TOOBIG" },
    { SQLITE_CONSTRAINT, "SQLITE_CONSTRAINT" },
    { SQLITE_MISMATCH, "SQLITE_MISMATCH" },
    { SQLITE_MISUSE, "SQLITE_MISUSE" },
    { SQLITE_NOLFS, "SQLITE_NOLFS" },
    { SQLITE_AUTH, "SQLITE_AUTH" },
    { SQLITE_RANGE, "SQLITE_RANGE" },
    { SQLITE_NOTADB, "SQLITE_NOTADB" },
    { SQLITE_ROW, "SQLITE_ROW" },
    { SQLITE_DONE, "SQLITE_DONE" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].rc == rc)
      return names[i].name;
  /* An extended code we do not name: fall back to its primary code. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].rc == (rc & 0xff))
      return names[i].name;
  return "SQLITE_?";
}

WbSessionError
_wb_session_error_code (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_CORRUPT:
      return WB_SESSION_ERROR_CORRUPT;
    case SQLITE_NOTADB:
      return WB_SESSION_ERROR_NOT_A_SESSION;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return WB_SESSION_ERROR_BUSY;
    case SQLITE_READONLY:
      return WB_SESSION_ERROR_READ_ONLY;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_FULL:
    case SQLITE_PERM:
    case SQLITE_NOLFS:
      return WB_SESSION_ERROR_IO;
    default:
      return WB_SESSION_ERROR_SQLITE;
    }
}

void
_wb_session_set_error (WbSession  *session,
                       GError    **error,
                       const char *what)
{
  int rc = sqlite3_extended_errcode (session->db);

  g_set_error (error, WB_SESSION_ERROR, _wb_session_error_code (rc), "%s: %s: %s (%s)",
               session->path, what, sqlite3_errmsg (session->db), _wb_session_rc_name (rc));
}

/* -- small helpers ------------------------------------------------------------------------------- */

sqlite3_stmt *
_wb_session_stmt (WbSession *session,
                  WbStmt     id,
                  GError   **error)
{
  g_assert (id < WB_N_STMTS);

  if (session->stmts[id] == NULL)
    {
      if (sqlite3_prepare_v3 (session->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                              &session->stmts[id], NULL) != SQLITE_OK)
        {
          _wb_session_set_error (session, error, "preparing a statement");
          session->stmts[id] = NULL;
          return NULL;
        }
    }
  else
    {
      sqlite3_reset (session->stmts[id]);
      sqlite3_clear_bindings (session->stmts[id]);
    }
  return session->stmts[id];
}

gboolean
_wb_session_step_done (WbSession    *session,
                       sqlite3_stmt *stmt,
                       const char   *what,
                       GError      **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, what);
      sqlite3_reset (stmt);
      return FALSE;
    }
  sqlite3_reset (stmt);
  return TRUE;
}

gboolean
_wb_session_exec (WbSession  *session,
                  const char *sql,
                  const char *what,
                  GError    **error)
{
  sqlite3_stmt *stmt = NULL;
  int           rc;

  if (sqlite3_prepare_v2 (session->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      _wb_session_set_error (session, error, what);
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    ;
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, what);
      sqlite3_finalize (stmt);
      return FALSE;
    }
  sqlite3_finalize (stmt);
  return TRUE;
}

/* query_int: the first column of the first row of @sql (a constant statement), as an integer. */
gboolean
_wb_session_query_int (WbSession  *session,
                       const char *sql,
                       gint64     *value,
                       GError    **error)
{
  sqlite3_stmt *stmt = NULL;
  int           rc;

  if (sqlite3_prepare_v2 (session->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      _wb_session_set_error (session, error, sql);
      return FALSE;
    }
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *value = sqlite3_column_int64 (stmt, 0);
  else if (rc == SQLITE_DONE)
    *value = 0;
  else
    {
      _wb_session_set_error (session, error, sql);
      sqlite3_finalize (stmt);
      return FALSE;
    }
  sqlite3_finalize (stmt);
  return TRUE;
}

gboolean
_wb_session_begin (WbSession *session,
                   gboolean   write,
                   GError   **error)
{
  if (write && session->read_only)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY,
                   "%s: the session was opened read-only", session->path);
      return FALSE;
    }
  return _wb_session_exec (session, write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED",
                           write ? "starting a write transaction" : "starting a read transaction", error);
}

gboolean
_wb_session_commit (WbSession *session,
                    GError   **error)
{
  if (!_wb_session_exec (session, "COMMIT", "committing", error))
    {
      _wb_session_rollback (session);
      return FALSE;
    }
  return TRUE;
}

void
_wb_session_rollback (WbSession *session)
{
  if (!sqlite3_get_autocommit (session->db))
    _wb_session_exec (session, "ROLLBACK", "rolling back", NULL);
}

void
_wb_session_bind_text (sqlite3_stmt *stmt,
                       int           index,
                       const char   *value)
{
  if (value == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, value, -1, SQLITE_TRANSIENT);
}

char *
_wb_session_column_dup (sqlite3_stmt *stmt,
                        int           i)
{
  const unsigned char *text;

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NULL;
  text = sqlite3_column_text (stmt, i);
  return g_strndup ((const char *) text, sqlite3_column_bytes (stmt, i));
}

char *
_wb_session_sha256 (const void *data,
                    gsize       len)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, len);
}

/* -- encodings ------------------------------------------------------------------------------------ */

/* Times are stored as little-endian int64 arrays, 8 bytes per iteration. */
GBytes *
_wb_session_times_to_blob (const GArray *times)
{
  guint8 *bytes = g_malloc (MAX (times->len, 1) * 8);

  for (guint i = 0; i < times->len; i++)
    {
      guint64 v = (guint64) g_array_index (times, gint64, i);

      for (int b = 0; b < 8; b++)
        bytes[i * 8 + b] = (guint8) (v >> (8 * b));
    }
  return g_bytes_new_take (bytes, times->len * 8);
}

gboolean
_wb_session_blob_to_times (sqlite3_stmt *stmt,
                           int           column,
                           GArray       *times)
{
  const guint8 *bytes = sqlite3_column_blob (stmt, column);
  int           len = sqlite3_column_bytes (stmt, column);

  if (len % 8 != 0 || (len > 0 && bytes == NULL))
    return FALSE;
  for (int i = 0; i < len / 8; i++)
    {
      guint64 v = 0;

      for (int b = 0; b < 8; b++)
        v |= (guint64) bytes[i * 8 + b] << (8 * b);
      g_array_append_val (times, v);
    }
  return TRUE;
}

void
_wb_session_bind_blob (sqlite3_stmt *stmt,
                       int           index,
                       GBytes       *bytes)
{
  gsize         len = 0;
  gconstpointer data = g_bytes_get_data (bytes, &len);

  /* A zero-length blob, not NULL: the columns are NOT NULL. */
  sqlite3_bind_blob64 (stmt, index, len ? data : "", len, SQLITE_TRANSIENT);
}

void
_wb_session_bind_double (sqlite3_stmt *stmt,
                         int           index,
                         double        value)
{
  if (isnan (value))
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_double (stmt, index, value);
}

double
_wb_session_column_double (sqlite3_stmt *stmt,
                           int           column)
{
  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    return NAN;
  return sqlite3_column_double (stmt, column);
}

char *
_wb_session_strings_to_json (const GPtrArray *strings)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

gboolean
_wb_session_json_to_strings (const char *text,
                             GPtrArray  *strings)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode  *root;
  JsonArray *array;

  if (text == NULL || !json_parser_load_from_data (parser, text, -1, NULL))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return FALSE;
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return FALSE;
      g_ptr_array_add (strings, g_strdup (json_node_get_string (node)));
    }
  return TRUE;
}
