/* wb-session-import.c — trace sets and computed stages in a session: import (idempotent), list, load back
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-session-private.h"

void
wb_session_trace_set_free (WbSessionTraceSet *set)
{
  if (set == NULL)
    return;
  g_free (set->name);
  g_free (set->origin);
  g_free (set);
}

/* One entry ready to store. */
typedef struct
{
  const WbTraceEntry *entry;
  char               *text;
  gsize               len;
  char               *sha256;
  char               *path; /* relative to the import root */
} PendingEntry;

static void
pending_entry_clear (gpointer data)
{
  PendingEntry *p = data;

  g_free (p->text);
  g_free (p->sha256);
  g_free (p->path);
}

static char *
relative_path (const char *path,
               const char *root)
{
  gsize n;

  if (path == NULL)
    return g_strdup ("");
  if (root == NULL)
    return g_strdup (path);
  n = strlen (root);
  while (n > 1 && root[n - 1] == G_DIR_SEPARATOR)
    n--;
  if (strncmp (path, root, n) == 0 && path[n] == G_DIR_SEPARATOR)
    return g_strdup (path + n + 1);
  if (strcmp (path, root) == 0)
    return g_path_get_basename (path);
  return g_strdup (path);
}

/* find_or_add_text: the id of the text with @sha256, storing it first when new (*@added set). */
static gint64
find_or_add_text (WbSession  *session,
                  const char *sha256,
                  const char *text,
                  gsize       len,
                  gboolean   *added,
                  GError    **error)
{
  sqlite3_stmt *stmt;
  gint64        id = 0;
  int           rc;

  *added = FALSE;
  stmt = _wb_session_stmt (session, WB_STMT_TEXT_FIND, error);
  if (stmt == NULL)
    return 0;
  _wb_session_bind_text (stmt, 1, sha256);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    id = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  if (rc == SQLITE_ROW)
    return id;
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "looking up a text");
      return 0;
    }

  stmt = _wb_session_stmt (session, WB_STMT_TEXT_INSERT, error);
  if (stmt == NULL)
    return 0;
  _wb_session_bind_text (stmt, 1, sha256);
  sqlite3_bind_int64 (stmt, 2, (sqlite3_int64) len);
  sqlite3_bind_text64 (stmt, 3, text, len, SQLITE_STATIC, SQLITE_UTF8);
  if (!_wb_session_step_done (session, stmt, "storing a text", error))
    return 0;
  *added = TRUE;
  return sqlite3_last_insert_rowid (session->db);
}

static gboolean
find_id (WbSession  *session,
         WbStmt      id,
         const char *key,
         gint64     *found,
         GError    **error)
{
  sqlite3_stmt *stmt = _wb_session_stmt (session, id, error);
  int           rc;

  *found = 0;
  if (stmt == NULL)
    return FALSE;
  _wb_session_bind_text (stmt, 1, key);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *found = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "looking up a row");
      return FALSE;
    }
  return TRUE;
}

gboolean
wb_session_import_trace_set (WbSession        *session,
                             const WbTraceSet *set,
                             const char       *name,
                             const char       *root,
                             WbSessionImport  *result,
                             GError          **error)
{
  g_autoptr (GArray) pending = NULL;
  g_autoptr (GChecksum) set_sum = NULL;
  WbSessionImport done = { 0 };
  sqlite3_stmt   *stmt;
  guint           n;
  gint64          set_id = 0;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (set != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  /* Print and hash everything before taking the write lock. */
  n = wb_trace_set_get_n_entries (set);
  pending = g_array_sized_new (FALSE, TRUE, sizeof (PendingEntry), n);
  g_array_set_clear_func (pending, pending_entry_clear);
  set_sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (set_sum, (const guchar *) "wb-trace-set-1", -1);
  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autoptr (GString) text = g_string_new (NULL);
      g_autofree char *fields = NULL;
      PendingEntry     p = { 0 };

      wb_trace_print (e->trace, text);
      p.entry = e;
      p.len = text->len;
      p.sha256 = _wb_session_sha256 (text->str, text->len);
      p.text = g_string_free (g_steal_pointer (&text), FALSE);
      p.path = relative_path (e->path, root);
      /* The set's identity: every entry's place and text, not where the files happen to be now. */
      fields = g_strdup_printf ("%s|%d|%s|%s%s|%s|%s", wb_trace_kind_to_string (e->kind), e->index,
                                e->subset ? e->subset : "", e->label ? "l:" : "n", e->label ? e->label : "",
                                p.path, p.sha256);
      g_checksum_update (set_sum, (const guchar *) fields, strlen (fields) + 1);
      g_array_append_val (pending, p);
    }

  done.n_entries = n;
  if (!_wb_session_begin (session, TRUE, error))
    return FALSE;

  if (!find_id (session, WB_STMT_SET_FIND, g_checksum_get_string (set_sum), &set_id, error))
    goto fail;
  if (set_id != 0)
    {
      done.trace_set_id = set_id;
      done.n_known_texts = n;
      if (!_wb_session_commit (session, error))
        return FALSE;
      if (result != NULL)
        *result = done;
      return TRUE;
    }

  stmt = _wb_session_stmt (session, WB_STMT_SET_INSERT, error);
  if (stmt == NULL)
    goto fail;
  _wb_session_bind_text (stmt, 1, g_checksum_get_string (set_sum));
  _wb_session_bind_text (stmt, 2, name);
  _wb_session_bind_text (stmt, 3, root ? root : "");
  sqlite3_bind_int64 (stmt, 4, g_get_real_time ());
  if (!_wb_session_step_done (session, stmt, "storing a trace set", error))
    goto fail;
  set_id = sqlite3_last_insert_rowid (session->db);

  for (guint i = 0; i < n; i++)
    {
      PendingEntry       *p = &g_array_index (pending, PendingEntry, i);
      const WbTraceEntry *e = p->entry;
      gboolean            added = FALSE;
      gint64              text_id;

      text_id = find_or_add_text (session, p->sha256, p->text, p->len, &added, error);
      if (text_id == 0)
        goto fail;
      if (added)
        {
          done.n_new_texts++;
          done.new_text_bytes += p->len;
        }
      else
        done.n_known_texts++;

      stmt = _wb_session_stmt (session, WB_STMT_SOURCE_INSERT, error);
      if (stmt == NULL)
        goto fail;
      sqlite3_bind_int64 (stmt, 1, set_id);
      sqlite3_bind_int64 (stmt, 2, i);
      _wb_session_bind_text (stmt, 3, wb_trace_kind_to_string (e->kind));
      sqlite3_bind_int64 (stmt, 4, e->index);
      _wb_session_bind_text (stmt, 5, e->subset ? e->subset : "");
      _wb_session_bind_text (stmt, 6, e->label);
      _wb_session_bind_text (stmt, 7, p->path);
      _wb_session_bind_text (stmt, 8, e->trace->provenance);
      if (e->trace->provenance_ms >= 0)
        sqlite3_bind_double (stmt, 9, e->trace->provenance_ms);
      else
        sqlite3_bind_null (stmt, 9);
      sqlite3_bind_int64 (stmt, 10, text_id);
      if (!_wb_session_step_done (session, stmt, "storing a trace entry", error))
        goto fail;
    }

  if (!_wb_session_commit (session, error))
    return FALSE;
  done.trace_set_id = set_id;
  done.new_trace_set = TRUE;
  if (result != NULL)
    *result = done;
  return TRUE;

fail:
  _wb_session_rollback (session);
  return FALSE;
}

gboolean
wb_session_import_path (WbSession       *session,
                        const char      *path,
                        WbSessionImport *result,
                        GError         **error)
{
  g_autoptr (WbTraceSet) set = NULL;
  g_autofree char *name = NULL;
  g_autofree char *root = NULL;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  set = wb_trace_set_load (path, error);
  if (set == NULL)
    return FALSE;

  name = g_path_get_basename (path);
  /* one rank of a case recorded per rank (CASE/rank<N>/): "CASE/rank<N>", so that the cases' ranks differ */
  if (g_str_has_prefix (name, "rank") && name[4] != '\0' && strspn (name + 4, "0123456789") == strlen (name + 4))
    {
      g_autofree char *parent = g_path_get_dirname (path);
      g_autofree char *case_name = g_path_get_basename (parent);
      char            *joined = g_strdup_printf ("%s/%s", case_name, name);

      g_free (name);
      name = joined;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    root = g_strdup (path);
  else
    {
      if (g_str_has_suffix (name, ".py"))
        name[strlen (name) - 3] = '\0';
      root = g_path_get_dirname (path);
    }
  return wb_session_import_trace_set (session, set, name, root, result, error);
}

GPtrArray *
wb_session_list_trace_sets (WbSession *session,
                            GError   **error)
{
  g_autoptr (GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_session_trace_set_free);
  sqlite3_stmt *stmt;
  int           rc;

  g_return_val_if_fail (session != NULL, NULL);

  stmt = _wb_session_stmt (session, WB_STMT_SETS_LIST, error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WbSessionTraceSet *set = g_new0 (WbSessionTraceSet, 1);

      set->id = sqlite3_column_int64 (stmt, 0);
      set->name = _wb_session_column_dup (stmt, 1);
      set->origin = _wb_session_column_dup (stmt, 2);
      set->imported_at_us = sqlite3_column_int64 (stmt, 3);
      set->n_entries = (guint) sqlite3_column_int64 (stmt, 4);
      g_ptr_array_add (sets, set);
    }
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "listing trace sets");
      sqlite3_reset (stmt);
      return NULL;
    }
  sqlite3_reset (stmt);
  return g_steal_pointer (&sets);
}

static WbTraceKind
kind_from_string (const char *text)
{
  static const WbTraceKind kinds[] = {
    WB_TRACE_KIND_PROLOGUE,
    WB_TRACE_KIND_FORWARD,
    WB_TRACE_KIND_BACKWARD,
    WB_TRACE_KIND_EPILOGUE,
    WB_TRACE_KIND_STAGE,
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_strcmp0 (text, wb_trace_kind_to_string (kinds[i])) == 0)
      return kinds[i];
  return WB_TRACE_KIND_UNKNOWN;
}

static gboolean
trace_set_exists (WbSession *session,
                  gint64     trace_set_id,
                  GError   **error)
{
  sqlite3_stmt *stmt = _wb_session_stmt (session, WB_STMT_SET_GET, error);
  int           rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, trace_set_id);
  rc = sqlite3_step (stmt);
  sqlite3_reset (stmt);
  if (rc == SQLITE_ROW)
    return TRUE;
  if (rc == SQLITE_DONE)
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND, "%s: no trace set %" G_GINT64_FORMAT,
                 session->path, trace_set_id);
  else
    _wb_session_set_error (session, error, "looking up a trace set");
  return FALSE;
}

gboolean
_wb_session_check_text_hash (WbSession  *session,
                             const char *text,
                             gsize       len,
                             const char *sha256,
                             const char *what,
                             GError    **error)
{
  g_autofree char *actual = _wb_session_sha256 (text != NULL ? text : "", text != NULL ? len : 0);

  if (g_strcmp0 (actual, sha256) == 0)
    return TRUE;
  g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT,
               "%s: corrupt session file: the stored text of %s does not match the hash stored with it",
               session->path, what);
  return FALSE;
}

gboolean
_wb_session_check_all_texts (WbSession *session,
                             GError   **error)
{
  sqlite3_stmt *stmt = NULL;
  int           rc;

  if (sqlite3_prepare_v2 (session->db, "SELECT id, text, sha256 FROM texts ORDER BY id", -1, &stmt, NULL) != SQLITE_OK)
    {
      _wb_session_set_error (session, error, "reading texts");
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *what = g_strdup_printf ("text %" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 0));

      if (!_wb_session_check_text_hash (session, (const char *) sqlite3_column_text (stmt, 1), sqlite3_column_bytes (stmt, 1),
                                        (const char *) sqlite3_column_text (stmt, 2), what, error))
        {
          sqlite3_finalize (stmt);
          return FALSE;
        }
    }
  if (rc != SQLITE_DONE)
    _wb_session_set_error (session, error, "reading texts");
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE;
}

WbTraceSet *
wb_session_load_trace_set (WbSession *session,
                           gint64     trace_set_id,
                           GError   **error)
{
  g_autoptr (WbTraceSet) set = NULL;
  sqlite3_stmt *stmt;
  int           rc;

  g_return_val_if_fail (session != NULL, NULL);

  if (!_wb_session_begin (session, FALSE, error))
    return NULL;
  if (!trace_set_exists (session, trace_set_id, error))
    goto fail;
  stmt = _wb_session_stmt (session, WB_STMT_SOURCE_LIST, error);
  if (stmt == NULL)
    goto fail;
  sqlite3_bind_int64 (stmt, 1, trace_set_id);
  set = wb_trace_set_new ();
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (WbTrace) trace = NULL;
      g_autofree char *path = _wb_session_column_dup (stmt, 4);

      if (!_wb_session_check_text_hash (session, (const char *) sqlite3_column_text (stmt, 5),
                                        sqlite3_column_bytes (stmt, 5), (const char *) sqlite3_column_text (stmt, 6),
                                        path, error))
        {
          sqlite3_reset (stmt);
          goto fail;
        }
      trace = wb_trace_parse ((const char *) sqlite3_column_text (stmt, 5), sqlite3_column_bytes (stmt, 5),
                              path, error);
      if (trace == NULL)
        {
          sqlite3_reset (stmt);
          goto fail;
        }
      wb_trace_set_add (set, trace, kind_from_string ((const char *) sqlite3_column_text (stmt, 0)),
                        sqlite3_column_int (stmt, 1), (const char *) sqlite3_column_text (stmt, 2),
                        (const char *) sqlite3_column_text (stmt, 3), path);
    }
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "reading trace texts");
      sqlite3_reset (stmt);
      goto fail;
    }
  sqlite3_reset (stmt);
  if (!_wb_session_commit (session, error))
    return NULL;
  return g_steal_pointer (&set);

fail:
  _wb_session_rollback (session);
  return NULL;
}

/* -- stages -------------------------------------------------------------------------------------- */

static void
bind_set_id (sqlite3_stmt *stmt,
             int           index,
             gint64        trace_set_id)
{
  if (trace_set_id == 0)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_int64 (stmt, index, trace_set_id);
}

gint64
wb_session_add_stage (WbSession  *session,
                      gint64      trace_set_id,
                      const char *name,
                      const char *text,
                      const char *provenance_map,
                      GError    **error)
{
  g_autofree char *sha = NULL;
  sqlite3_stmt    *stmt;
  gboolean         added = FALSE;
  gint64           text_id;
  gint64           stage_id = 0;
  gint64           position = 0;
  int              rc;

  g_return_val_if_fail (session != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);
  g_return_val_if_fail (text != NULL, 0);

  if (provenance_map != NULL)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) local = NULL;

      if (!json_parser_load_from_data (parser, provenance_map, -1, &local))
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: stage “%s”: the provenance map is not JSON: %s", session->path, name, local->message);
          return 0;
        }
    }

  sha = _wb_session_sha256 (text, strlen (text));
  if (!_wb_session_begin (session, TRUE, error))
    return 0;
  if (trace_set_id != 0 && !trace_set_exists (session, trace_set_id, error))
    goto fail;
  text_id = find_or_add_text (session, sha, text, strlen (text), &added, error);
  if (text_id == 0)
    goto fail;

  stmt = _wb_session_stmt (session, WB_STMT_STAGE_FIND, error);
  if (stmt == NULL)
    goto fail;
  bind_set_id (stmt, 1, trace_set_id);
  _wb_session_bind_text (stmt, 2, name);
  sqlite3_bind_int64 (stmt, 3, text_id);
  _wb_session_bind_text (stmt, 4, provenance_map);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    stage_id = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "looking up a stage");
      goto fail;
    }
  if (stage_id != 0)
    return _wb_session_commit (session, error) ? stage_id : 0;

  stmt = _wb_session_stmt (session, WB_STMT_STAGE_NEXT_POSITION, error);
  if (stmt == NULL)
    goto fail;
  bind_set_id (stmt, 1, trace_set_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    position = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);

  stmt = _wb_session_stmt (session, WB_STMT_STAGE_INSERT, error);
  if (stmt == NULL)
    goto fail;
  bind_set_id (stmt, 1, trace_set_id);
  sqlite3_bind_int64 (stmt, 2, position);
  _wb_session_bind_text (stmt, 3, name);
  sqlite3_bind_int64 (stmt, 4, text_id);
  _wb_session_bind_text (stmt, 5, provenance_map);
  sqlite3_bind_int64 (stmt, 6, g_get_real_time ());
  if (!_wb_session_step_done (session, stmt, "storing a stage", error))
    goto fail;
  stage_id = sqlite3_last_insert_rowid (session->db);
  return _wb_session_commit (session, error) ? stage_id : 0;

fail:
  _wb_session_rollback (session);
  return 0;
}

gboolean
wb_session_get_stage (WbSession *session,
                      gint64     stage_id,
                      char     **name,
                      char     **text,
                      char     **provenance_map,
                      GError   **error)
{
  sqlite3_stmt *stmt;
  int           rc;

  g_return_val_if_fail (session != NULL, FALSE);

  stmt = _wb_session_stmt (session, WB_STMT_STAGE_GET, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, stage_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      if (name != NULL)
        *name = _wb_session_column_dup (stmt, 0);
      if (text != NULL)
        *text = _wb_session_column_dup (stmt, 1);
      if (provenance_map != NULL)
        *provenance_map = _wb_session_column_dup (stmt, 2);
    }
  else if (rc == SQLITE_DONE)
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND, "%s: no stage %" G_GINT64_FORMAT,
                 session->path, stage_id);
  else
    _wb_session_set_error (session, error, "reading a stage");
  sqlite3_reset (stmt);
  return rc == SQLITE_ROW;
}
