/* wb-session.c — opening a session file safely: header check, defensive connection, schema check, migration
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "wb-session-private.h"

G_DEFINE_QUARK (wb - session - error - quark, wb_session_error)

#define DEFAULT_BUSY_TIMEOUT_MS 10000
/* Largest string or blob SQLite will build for us (a printed trace is a few MiB at most). */
#define MAX_VALUE_BYTES (256 * 1024 * 1024)

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
      "SELECT s.kind, s.idx, s.subset, s.label, s.path, t.text FROM source_texts s "
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
      "iteration_ns, iteration_median_ns, dropped_records, n_regions, n_kernels, checksum, kernels_checksum) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
      "?21, ?22, ?23)",
  [WB_STMT_REGION_STATS_INSERT] =
      "INSERT INTO region_stats (run_id, position, region_id, executor, stage_line, median_ns, min_ns, max_ns, "
      "times_ns, kernel_count, bytes_moved, flops, share) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
  [WB_STMT_KERNEL_INSERT] =
      "INSERT INTO kernels (run_id, seq, name_id, region_id, trace_line, stream, grid_x, grid_y, grid_z, "
      "block_x, block_y, block_z, registers, shared_bytes, start_ns, end_ns, iteration, correlation_id) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
  [WB_STMT_RUN_GET] =
      "SELECT " WB_RUN_COLUMNS " FROM runs WHERE id = ?1",
  [WB_STMT_RUNS_LIST] =
      "SELECT " WB_RUN_COLUMNS " FROM runs ORDER BY id",
  [WB_STMT_RUNS_LATEST] = "SELECT id FROM runs ORDER BY id DESC LIMIT 2",
  [WB_STMT_RUNS_COUNT] = "SELECT count(*) FROM runs",
  [WB_STMT_REGION_STATS_GET] =
      "SELECT r.name, s.executor, s.stage_line, s.median_ns, s.min_ns, s.max_ns, s.times_ns, s.kernel_count, "
      "s.bytes_moved, s.flops, s.share FROM region_stats s JOIN regions r ON r.id = s.region_id "
      "WHERE s.run_id = ?1 ORDER BY s.position",
  [WB_STMT_KERNELS_GET] =
      "SELECT n.name, r.name, k.trace_line, k.stream, k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, "
      "k.block_z, k.registers, k.shared_bytes, k.start_ns, k.end_ns, k.iteration, k.correlation_id "
      "FROM kernels k JOIN kernel_names n ON n.id = k.name_id LEFT JOIN regions r ON r.id = k.region_id "
      "WHERE k.run_id = ?1 ORDER BY k.seq",
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

static gboolean
exec_simple (WbSession  *session,
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
static gboolean
query_int (WbSession  *session,
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
  return exec_simple (session, write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED",
                      write ? "starting a write transaction" : "starting a read transaction", error);
}

gboolean
_wb_session_commit (WbSession *session,
                    GError   **error)
{
  if (!exec_simple (session, "COMMIT", "committing", error))
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
    exec_simple (session, "ROLLBACK", "rolling back", NULL);
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

/* -- the file header ------------------------------------------------------------------------------ */

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* check_header: looks at the file before SQLite does. Sets *@exists and *@empty. Refuses what is not
 * an SQLite file (random bytes, another format) and a file shorter than its header says (truncated),
 * unless a write-ahead log beside it may hold the missing pages. */
static gboolean
check_header (const char *path,
              gboolean   *exists,
              gboolean   *empty,
              GError    **error)
{
  static const char magic[16] = "SQLite format 3";
  g_autofree char  *wal_path = NULL;
  GStatBuf          st;
  GStatBuf          wal_st;
  guint8            header[100];
  FILE             *file;
  size_t            got;
  guint32           page_size;
  guint32           n_pages;

  *exists = *empty = FALSE;
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      if (saved == ENOENT)
        return TRUE;
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO, "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  *exists = TRUE;
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO, "%s: not a regular file", path);
      return FALSE;
    }
  if (st.st_size == 0)
    {
      *empty = TRUE;
      return TRUE;
    }

  file = g_fopen (path, "rb");
  if (file == NULL)
    {
      int saved = errno;

      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO, "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  got = fread (header, 1, sizeof header, file);
  fclose (file);

  if (got < sizeof magic || memcmp (header, magic, sizeof magic) != 0)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_A_SESSION,
                   "%s: not a thunder-wb session: not an SQLite database (it does not start with "
                   "“SQLite format 3”)",
                   path);
      return FALSE;
    }
  if (got < sizeof header)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT,
                   "%s: truncated session file: %" G_GINT64_FORMAT " bytes, shorter than SQLite's "
                   "100-byte header",
                   path, (gint64) st.st_size);
      return FALSE;
    }

  page_size = ((guint32) header[16] << 8) | header[17];
  if (page_size == 1)
    page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1)) != 0)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT,
                   "%s: corrupt session file: invalid page size %u in the header", path, page_size);
      return FALSE;
    }

  /* With a non-empty write-ahead log the main file may lag behind; SQLite reconciles the two. */
  wal_path = g_strconcat (path, "-wal", NULL);
  if (g_stat (wal_path, &wal_st) == 0 && wal_st.st_size > 0)
    return TRUE;

  if (st.st_size % page_size != 0)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT,
                   "%s: truncated session file: %" G_GINT64_FORMAT " bytes is not a whole number of "
                   "%u-byte pages",
                   path, (gint64) st.st_size, page_size);
      return FALSE;
    }
  /* The page count at offset 28 is valid when the change counter (24) equals version-valid-for (92). */
  n_pages = read_be32 (header + 28);
  if (n_pages != 0 && read_be32 (header + 24) == read_be32 (header + 92) &&
      (guint64) st.st_size < (guint64) n_pages * page_size)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT,
                   "%s: truncated session file: its header counts %u pages of %u bytes (%" G_GUINT64_FORMAT
                   " bytes) but the file has %" G_GINT64_FORMAT " bytes",
                   path, n_pages, page_size, (guint64) n_pages * page_size, (gint64) st.st_size);
      return FALSE;
    }
  return TRUE;
}

/* -- opening ---------------------------------------------------------------------------------------- */

static gboolean
configure_defensive (WbSession *session,
                     GError   **error)
{
  sqlite3 *db = session->db;
  int      off = 0;

  sqlite3_extended_result_codes (db, 1);
  /* Nothing from the file may run code: no schema functions, no triggers, no views, no extensions,
   * no writes to sqlite_master, no oversized values. */
  if (sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
      sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &off) != SQLITE_OK ||
      sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &off) != SQLITE_OK ||
      sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &off) != SQLITE_OK ||
      sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &off) != SQLITE_OK)
    {
      _wb_session_set_error (session, error, "making the connection defensive");
      return FALSE;
    }
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES);
  sqlite3_limit (db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_busy_timeout (db, DEFAULT_BUSY_TIMEOUT_MS);

  return exec_simple (session, "PRAGMA trusted_schema = OFF", "PRAGMA trusted_schema", error) &&
         exec_simple (session, "PRAGMA cell_size_check = ON", "PRAGMA cell_size_check", error) &&
         exec_simple (session, "PRAGMA mmap_size = 0", "PRAGMA mmap_size", error);
}

/* read_identity: the application id, user_version and number of schema objects of the file. The first
 * read of the file: a file that is not a database, or whose schema does not parse, fails here. */
static gboolean
read_identity (WbSession *session,
               gint64    *application_id,
               gint64    *version,
               gint64    *n_objects,
               GError   **error)
{
  g_autoptr (GError) local = NULL;

  if (query_int (session, "PRAGMA application_id", application_id, &local) &&
      query_int (session, "PRAGMA user_version", version, &local) &&
      query_int (session, "SELECT count(*) FROM main.sqlite_master", n_objects, &local))
    return TRUE;

  if (local->code == WB_SESSION_ERROR_NOT_A_SESSION)
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_A_SESSION,
                 "%s: not a thunder-wb session: SQLite cannot read it as a database (%s)",
                 session->path, sqlite3_errmsg (session->db));
  else if (local->code == WB_SESSION_ERROR_CORRUPT)
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT,
                 "%s: corrupt session file: %s (%s)", session->path, sqlite3_errmsg (session->db),
                 _wb_session_rc_name (sqlite3_extended_errcode (session->db)));
  else
    g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* describe_tables: "moz_places, moz_bookmarks, …" for the message about another application's file. */
static char *
describe_tables (WbSession *session)
{
  GString      *s = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;
  guint         n = 0;

  if (sqlite3_prepare_v2 (session->db,
                          "SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY name LIMIT 6",
                          -1, &stmt, NULL) == SQLITE_OK)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          if (n++ == 5)
            {
              g_string_append (s, ", …");
              break;
            }
          if (s->len > 0)
            g_string_append (s, ", ");
          g_string_append (s, (const char *) sqlite3_column_text (stmt, 0));
        }
    }
  sqlite3_finalize (stmt);
  return g_string_free (s, FALSE);
}

static gboolean
set_user_version (WbSession *session,
                  int        version,
                  GError   **error)
{
  /* PRAGMA takes no parameters; @version is one of our own constants, never data from a file. */
  g_autofree char *sql = g_strdup_printf ("PRAGMA user_version = %d", version);

  g_assert (version >= 0 && version <= WB_SESSION_SCHEMA_VERSION);
  return exec_simple (session, sql, "setting the schema version", error);
}

static gboolean
set_meta (WbSession  *session,
          const char *key,
          const char *value,
          GError    **error)
{
  sqlite3_stmt *stmt = _wb_session_stmt (session, WB_STMT_META_SET, error);

  if (stmt == NULL)
    return FALSE;
  _wb_session_bind_text (stmt, 1, key);
  _wb_session_bind_text (stmt, 2, value);
  return _wb_session_step_done (session, stmt, "writing meta", error);
}

/* migrate: inside BEGIN IMMEDIATE, takes the file from the version it has now (0: empty) to ours. Another
 * process may have done it meanwhile: then the version read here is already ours. */
static gboolean
migrate (WbSession *session,
         GError   **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *now = NULL;
  gint64           version = 0;
  gint64           application_id = 0;
  gint64           n_objects = 0;

  if (!_wb_session_begin (session, TRUE, error))
    return FALSE;
  if (!read_identity (session, &application_id, &version, &n_objects, error))
    goto fail;
  if (version == WB_SESSION_SCHEMA_VERSION)
    return _wb_session_commit (session, error);
  if (version > WB_SESSION_SCHEMA_VERSION || (version == 0 && n_objects != 0))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                   "%s: the file changed while it was being opened (schema version %" G_GINT64_FORMAT ")",
                   session->path, version);
      goto fail;
    }
  if (version > 0 && !_wb_session_verify_schema (session->db, session->path, (int) version, error))
    goto fail;

  for (int v = (int) version + 1; v <= WB_SESSION_SCHEMA_VERSION; v++)
    if (!_wb_session_run_script (session->db, _wb_session_migration_sql (v), &local))
      {
        g_set_error (error, local->domain, local->code, "%s: migrating the session to schema version %d: %s",
                     session->path, v, local->message);
        goto fail;
      }
  if (!set_user_version (session, WB_SESSION_SCHEMA_VERSION, error))
    goto fail;

  now = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_real_time ());
  if (version == 0)
    {
      if (!set_meta (session, "creator", PACKAGE_NAME " " PACKAGE_VERSION, error) ||
          !set_meta (session, "created_at", now, error))
        goto fail;
    }
  else
    {
      g_autofree char *key = g_strdup_printf ("migrated_from_%" G_GINT64_FORMAT, version);

      if (!set_meta (session, key, now, error))
        goto fail;
    }
  return _wb_session_commit (session, error);

fail:
  _wb_session_rollback (session);
  return FALSE;
}

WbSession *
wb_session_open (const char        *path,
                 WbSessionOpenFlags flags,
                 GError           **error)
{
  g_autoptr (WbSession) session = NULL;
  gboolean exists = FALSE;
  gboolean empty = FALSE;
  gboolean create = (flags & WB_SESSION_OPEN_CREATE) != 0;
  gboolean read_only = (flags & WB_SESSION_OPEN_READ_ONLY) != 0;
  gint64   application_id = 0;
  gint64   version = 0;
  gint64   n_objects = 0;
  int      open_flags;
  int      rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_header (path, &exists, &empty, error))
    return NULL;
  if (!exists && (!create || read_only))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_IO, "%s: %s", path, g_strerror (ENOENT));
      return NULL;
    }
  if (exists && empty && (!create || read_only))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_A_SESSION,
                   "%s: not a thunder-wb session: the file is empty", path);
      return NULL;
    }

  session = g_new0 (WbSession, 1);
  session->path = g_strdup (path);
  session->read_only = read_only;

  open_flags = SQLITE_OPEN_EXRESCODE | (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE);
  if (create && !read_only)
    open_flags |= SQLITE_OPEN_CREATE;
  rc = sqlite3_open_v2 (path, &session->db, open_flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, WB_SESSION_ERROR, _wb_session_error_code (rc), "%s: %s (%s)", path,
                   session->db ? sqlite3_errmsg (session->db) : sqlite3_errstr (rc), _wb_session_rc_name (rc));
      return NULL;
    }
  if (!configure_defensive (session, error))
    return NULL;

  if (!read_identity (session, &application_id, &version, &n_objects, error))
    return NULL;

  if (version > WB_SESSION_SCHEMA_VERSION && application_id == WB_SESSION_APPLICATION_ID)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NEWER_VERSION,
                   "%s: written by a newer thunder-wb (session schema version %" G_GINT64_FORMAT
                   "; this build reads up to version %d): open it with a newer thunder-wb",
                   path, version, WB_SESSION_SCHEMA_VERSION);
      return NULL;
    }
  if (application_id == 0 && version == 0 && n_objects == 0)
    {
      /* An empty database: ours to create. */
      if (!create || read_only)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_A_SESSION,
                       "%s: not a thunder-wb session: an empty SQLite database", path);
          return NULL;
        }
    }
  else if (application_id != WB_SESSION_APPLICATION_ID)
    {
      g_autofree char *tables = describe_tables (session);

      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_A_SESSION,
                   "%s: not a thunder-wb session: another application's SQLite database "
                   "(application_id 0x%08" G_GINT64_MODIFIER "x, user_version %" G_GINT64_FORMAT
                   "%s%s)",
                   path, application_id, version, tables[0] ? ", tables: " : "", tables);
      return NULL;
    }
  else if (version < 1)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                   "%s: not a valid thunder-wb session: schema version %" G_GINT64_FORMAT, path, version);
      return NULL;
    }
  else if (!_wb_session_verify_schema (session->db, path, (int) version, error))
    return NULL;

  session->opened_version = (int) version;

  if ((flags & WB_SESSION_OPEN_CHECK) != 0 && version > 0)
    {
      gint64        ok = 0;
      sqlite3_stmt *stmt = NULL;

      if (sqlite3_prepare_v2 (session->db, "PRAGMA quick_check(1)", -1, &stmt, NULL) == SQLITE_OK &&
          sqlite3_step (stmt) == SQLITE_ROW)
        ok = g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "ok") == 0;
      if (!ok)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT, "%s: corrupt session file: %s", path,
                       stmt && sqlite3_column_text (stmt, 0) ? (const char *) sqlite3_column_text (stmt, 0)
                                                             : sqlite3_errmsg (session->db));
          sqlite3_finalize (stmt);
          return NULL;
        }
      sqlite3_finalize (stmt);
    }

  if (!read_only)
    {
      /* Only now that the schema is known to be ours: WAL (readers never block the writer), full
       * sync at each commit (a committed run survives a crash of the machine too). */
      if (!sqlite3_db_readonly (session->db, "main") &&
          !exec_simple (session, "PRAGMA journal_mode = WAL", "switching to WAL", error))
        return NULL;
      if (!exec_simple (session, "PRAGMA synchronous = FULL", "PRAGMA synchronous", error))
        return NULL;
    }
  if (!exec_simple (session, "PRAGMA foreign_keys = ON", "PRAGMA foreign_keys", error))
    return NULL;

  if (version < WB_SESSION_SCHEMA_VERSION)
    {
      if (read_only || sqlite3_db_readonly (session->db, "main"))
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY,
                       "%s: schema version %" G_GINT64_FORMAT " needs migrating to version %d, but the "
                       "file is read-only",
                       path, version, WB_SESSION_SCHEMA_VERSION);
          return NULL;
        }
      if (!migrate (session, error))
        return NULL;
      if (!_wb_session_verify_schema (session->db, path, WB_SESSION_SCHEMA_VERSION, error))
        return NULL;
    }

  return g_steal_pointer (&session);
}

void
wb_session_close (WbSession *session)
{
  if (session == NULL)
    return;
  for (guint i = 0; i < WB_N_STMTS; i++)
    sqlite3_finalize (session->stmts[i]);
  if (session->db != NULL)
    sqlite3_close_v2 (session->db);
  g_free (session->path);
  g_free (session);
}

const char *
wb_session_get_path (const WbSession *session)
{
  g_return_val_if_fail (session != NULL, NULL);
  return session->path;
}

int
wb_session_get_opened_version (const WbSession *session)
{
  g_return_val_if_fail (session != NULL, 0);
  return session->opened_version;
}

void
wb_session_set_busy_timeout (WbSession *session,
                             int        timeout_ms)
{
  g_return_if_fail (session != NULL);
  sqlite3_busy_timeout (session->db, MAX (timeout_ms, 0));
}

gboolean
wb_session_check_integrity (WbSession *session,
                            GError   **error)
{
  static const char *const checks[] = { "PRAGMA integrity_check(20)", "PRAGMA foreign_key_check" };

  g_return_val_if_fail (session != NULL, FALSE);

  for (guint c = 0; c < G_N_ELEMENTS (checks); c++)
    {
      g_autoptr (GString) findings = g_string_new (NULL);
      sqlite3_stmt *stmt = NULL;
      int           rc;

      if (sqlite3_prepare_v2 (session->db, checks[c], -1, &stmt, NULL) != SQLITE_OK)
        {
          _wb_session_set_error (session, error, checks[c]);
          return FALSE;
        }
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          if (c == 0 && g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "ok") == 0)
            continue;
          if (findings->len > 0)
            g_string_append (findings, "; ");
          if (c == 0)
            g_string_append (findings, (const char *) sqlite3_column_text (stmt, 0));
          else
            g_string_append_printf (findings, "table %s row %" G_GINT64_FORMAT " refers to a missing %s row",
                                    sqlite3_column_text (stmt, 0), (gint64) sqlite3_column_int64 (stmt, 1),
                                    sqlite3_column_text (stmt, 2));
        }
      if (rc != SQLITE_DONE)
        {
          _wb_session_set_error (session, error, checks[c]);
          sqlite3_finalize (stmt);
          return FALSE;
        }
      sqlite3_finalize (stmt);
      if (findings->len > 0)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT, "%s: %s: %s", session->path,
                       checks[c], findings->str);
          return FALSE;
        }
    }
  return TRUE;
}

char *
wb_session_dup_meta (WbSession  *session,
                     const char *key,
                     GError    **error)
{
  sqlite3_stmt *stmt;
  char         *value = NULL;
  int           rc;

  g_return_val_if_fail (session != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  stmt = _wb_session_stmt (session, WB_STMT_META_GET, error);
  if (stmt == NULL)
    return NULL;
  _wb_session_bind_text (stmt, 1, key);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    value = _wb_session_column_dup (stmt, 0);
  else if (rc != SQLITE_DONE)
    _wb_session_set_error (session, error, "reading meta");
  sqlite3_reset (stmt);
  return value;
}
