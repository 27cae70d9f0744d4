/* wb-session.c — opening a session file safely: header check, defensive connection, schema check, migration
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "wb-session-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-session-error-quark, wb_session_error)
/* clang-format on */

#define DEFAULT_BUSY_TIMEOUT_MS 10000
/* Largest string or blob SQLite will build for us (a printed trace is a few MiB at most). */
#define MAX_VALUE_BYTES (256 * 1024 * 1024)

/* -- the file header ------------------------------------------------------------------------------ */

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* The first 16 bytes of every SQLite 3 database file (https://www.sqlite.org/fileformat.html, 1.3). */
static const char sqlite_magic[16] = "SQLite format 3";

gboolean
wb_session_file_has_header (const char *path)
{
  char   header[sizeof sqlite_magic] = { 0 };
  FILE  *f;
  size_t n;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || (f = g_fopen (path, "rb")) == NULL)
    return FALSE;
  n = fread (header, 1, sizeof header, f);
  fclose (f);
  return n == sizeof header && memcmp (header, sqlite_magic, sizeof sqlite_magic) == 0;
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
  g_autofree char *wal_path = NULL;
  GStatBuf         st;
  GStatBuf         wal_st;
  guint8           header[100];
  FILE            *file;
  size_t           got;
  guint32          page_size;
  guint32          n_pages;

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

  if (got < sizeof sqlite_magic || memcmp (header, sqlite_magic, sizeof sqlite_magic) != 0)
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

  return _wb_session_exec (session, "PRAGMA trusted_schema = OFF", "PRAGMA trusted_schema", error) &&
         _wb_session_exec (session, "PRAGMA cell_size_check = ON", "PRAGMA cell_size_check", error) &&
         _wb_session_exec (session, "PRAGMA mmap_size = 0", "PRAGMA mmap_size", error);
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

  if (_wb_session_query_int (session, "PRAGMA application_id", application_id, &local) &&
      _wb_session_query_int (session, "PRAGMA user_version", version, &local) &&
      _wb_session_query_int (session, "SELECT count(*) FROM main.sqlite_master", n_objects, &local))
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
  return _wb_session_exec (session, sql, "setting the schema version", error);
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

/* Whether this process may write @path and create files beside it (SQLite's journal, WAL, lock). */
static gboolean
is_writable (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  return g_access (path, W_OK) == 0 && g_access (dir, W_OK) == 0;
}

/* An immutable open reads the main file only: refused when a write-ahead log beside it holds commits
 * the main file lacks. */
static gboolean
check_no_wal (const char *path,
              GError    **error)
{
  g_autofree char *wal_path = g_strconcat (path, "-wal", NULL);
  GStatBuf         st;

  if (g_stat (wal_path, &st) != 0 || st.st_size == 0)
    return TRUE;
  g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY,
               "%s: cannot be read where it is: its write-ahead log %s holds changes that only a writable "
               "folder lets SQLite apply (copy both files to a writable folder)",
               path, wal_path);
  return FALSE;
}

/* sqlite3_open_v2 of session->path; @immutable: through the URI "file:PATH?mode=ro&immutable=1". */
static int
open_connection (WbSession *session,
                 int        open_flags,
                 gboolean   immutable)
{
  g_autofree char *absolute = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *uri = NULL;

  if (!immutable)
    return sqlite3_open_v2 (session->path, &session->db, open_flags, NULL);
  absolute = g_canonicalize_filename (session->path, NULL);
  escaped = g_uri_escape_string (absolute, "/", FALSE);
  uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", escaped);
  return sqlite3_open_v2 (uri, &session->db, open_flags | SQLITE_OPEN_URI, NULL);
}

static WbSession *open_session (const char *path, WbSessionOpenFlags flags, GError **error);

WbSession *
wb_session_open (const char        *path,
                 WbSessionOpenFlags flags,
                 GError           **error)
{
  g_autoptr (GError) local = NULL;
  WbSession *session;

  if ((flags & (WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE)) != (WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE))
    return open_session (path, flags & ~WB_SESSION_OPEN_MIGRATE, error);
  session = open_session (path, flags & ~WB_SESSION_OPEN_MIGRATE, &local);
  /* an older schema refused read-only: migrated in place (one transaction) when the file may be written */
  if (session == NULL && g_error_matches (local, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY) && is_writable (path))
    {
      g_clear_error (&local);
      if ((session = open_session (path, flags & ~(WB_SESSION_OPEN_MIGRATE | WB_SESSION_OPEN_READ_ONLY), &local)) != NULL)
        {
          wb_session_close (session);
          session = open_session (path, flags & ~WB_SESSION_OPEN_MIGRATE, &local);
        }
    }
  if (session == NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  return session;
}

/* PRAGMA quick_check: FALSE with WB_SESSION_ERROR_CORRUPT naming SQLite's first finding when the file's pages
 * are not sound (reads every page) */
static gboolean
quick_check (WbSession *session,
             GError   **error)
{
  gint64        ok = 0;
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (session->db, "PRAGMA quick_check(1)", -1, &stmt, NULL) == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    ok = g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "ok") == 0;
  if (!ok)
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT, "%s: corrupt session file: %s", session->path,
                 stmt && sqlite3_column_text (stmt, 0) ? (const char *) sqlite3_column_text (stmt, 0)
                                                       : sqlite3_errmsg (session->db));
  sqlite3_finalize (stmt);
  return ok;
}

static WbSession *
open_session (const char        *path,
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
  gboolean immutable;
  gboolean migrating;
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

  /* A file that nobody may write here (it, or its folder, read-only) is opened immutable: SQLite
   * then needs no lock file and no shared memory beside it, which a read-only folder cannot hold. */
  immutable = exists && !empty && !create && !is_writable (path);
  if (immutable && !check_no_wal (path, error))
    return NULL;
  read_only = read_only || immutable;

  session = g_new0 (WbSession, 1);
  session->path = g_strdup (path);
  session->read_only = read_only;

  open_flags = SQLITE_OPEN_EXRESCODE | (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE);
  if (create && !read_only)
    open_flags |= SQLITE_OPEN_CREATE;
  rc = open_connection (session, open_flags, immutable);
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

  /* a file about to be migrated is checked first, so that a broken one is refused before anything of it
   * is written (WAL, the migration) */
  migrating = version > 0 && version < WB_SESSION_SCHEMA_VERSION && !read_only && !sqlite3_db_readonly (session->db, "main");
  if (((flags & WB_SESSION_OPEN_CHECK) != 0 || migrating) && version > 0 && !quick_check (session, error))
    return NULL;

  if (!read_only)
    {
      /* Only now that the schema is known to be ours: WAL (readers never block the writer), full
       * sync at each commit (a committed run survives a crash of the machine too). */
      if (!sqlite3_db_readonly (session->db, "main") &&
          !_wb_session_exec (session, "PRAGMA journal_mode = WAL", "switching to WAL", error))
        return NULL;
      if (!_wb_session_exec (session, "PRAGMA synchronous = FULL", "PRAGMA synchronous", error))
        return NULL;
    }
  if (!_wb_session_exec (session, "PRAGMA foreign_keys = ON", "PRAGMA foreign_keys", error))
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

/* Reads every run back with its kernel records, as wb_session_get_run() does for `compare`: each must
 * match the checksums stored with it. */
static gboolean
check_all_runs (WbSession *session,
                GError   **error)
{
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3_stmt *stmt = NULL;
  int           rc;

  if (sqlite3_prepare_v2 (session->db, "SELECT id FROM runs ORDER BY id", -1, &stmt, NULL) != SQLITE_OK)
    {
      _wb_session_set_error (session, error, "listing runs");
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (ids, id);
    }
  if (rc != SQLITE_DONE)
    _wb_session_set_error (session, error, "listing runs");
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return FALSE;
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (WbRun) run = wb_session_get_run (session, g_array_index (ids, gint64, i), WB_SESSION_READ_KERNELS, error);

      if (run == NULL)
        return FALSE;
    }
  return TRUE;
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
  /* the rules every reader applies, to every row: a text's hash, a run's checksums (as `compare`) */
  return _wb_session_check_all_texts (session, error) && check_all_runs (session, error);
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
