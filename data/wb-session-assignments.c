/* wb-session-assignments.c — assignments in a session: named sets of region -> executor, stored once each
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-session-private.h"

void
wb_session_assignment_free (WbSessionAssignment *assignment)
{
  if (assignment == NULL)
    return;
  g_free (assignment->name);
  g_free (assignment->spec);
  g_free (assignment);
}

/* -- assignments --------------------------------------------------------------------------------- */

typedef struct
{
  char *region;
  char *executor;
} Choice;

static void
choice_clear (gpointer data)
{
  Choice *c = data;

  g_free (c->region);
  g_free (c->executor);
}

static int
compare_choices (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (((const Choice *) a)->region, ((const Choice *) b)->region);
}

static GArray *
new_choices (void)
{
  GArray *choices = g_array_new (FALSE, TRUE, sizeof (Choice));

  g_array_set_clear_func (choices, choice_clear);
  return choices;
}

gboolean
_wb_session_valid_name (const char *s)
{
  return s != NULL && *s != '\0' && strpbrk (s, "=,") == NULL && g_utf8_validate (s, -1, NULL);
}

/* canonical_spec: sorts @choices by region, refuses duplicates, and returns "R=E,R=E" (transfer full). */
static char *
canonical_spec (GArray    *choices,
                WbSession *session,
                GError   **error)
{
  GString *spec = g_string_new (NULL);

  g_array_sort (choices, compare_choices);
  for (guint i = 0; i < choices->len; i++)
    {
      const Choice *c = &g_array_index (choices, Choice, i);

      if (i > 0 && strcmp (c->region, g_array_index (choices, Choice, i - 1).region) == 0)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: region “%s” is assigned twice", session->path, c->region);
          g_string_free (spec, TRUE);
          return NULL;
        }
      g_string_append_printf (spec, "%s%s=%s", i ? "," : "", c->region, c->executor);
    }
  return g_string_free (spec, FALSE);
}

/* The choices of @assignment, as the session stores them. */
static GArray *
assignment_choices (const WbAssignment *assignment)
{
  GArray *choices = new_choices ();

  for (guint i = 0; i < wb_assignment_get_n_choices (assignment); i++)
    {
      const WbAssignmentChoice *ac = wb_assignment_get_choice (assignment, i);
      Choice                    c = { g_strdup (ac->key), g_strdup (ac->executor) };

      g_array_append_val (choices, c);
    }
  return choices;
}

/* ensure_assignment: inside a write transaction, the id of the assignment with @choices, storing it
 * under @name (nullable) when new. @strict: a name already used by other choices is an error; otherwise
 * a free variant "NAME-N" is taken. 0 with @error on failure. */
gint64
_wb_session_ensure_assignment (WbSession  *session,
                               const char *name,
                               GArray     *choices,
                               gboolean    strict,
                               GError    **error)
{
  g_autofree char *spec = canonical_spec (choices, session, error);
  g_autofree char *chosen = NULL;
  sqlite3_stmt    *stmt;
  gint64           id = 0;
  gint64           next_id = 1;
  int              rc;

  if (spec == NULL)
    return 0;

  stmt = _wb_session_stmt (session, WB_STMT_ASSIGNMENT_FIND_SPEC, error);
  if (stmt == NULL)
    return 0;
  _wb_session_bind_text (stmt, 1, spec);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    id = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "looking up an assignment");
      return 0;
    }
  if (id != 0)
    return id;

  stmt = _wb_session_stmt (session, WB_STMT_ASSIGNMENT_NEXT_ID, error);
  if (stmt == NULL)
    return 0;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    next_id = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);

  chosen = name ? g_strdup (name) : g_strdup_printf ("a%" G_GINT64_FORMAT, next_id);
  for (guint attempt = 0;; attempt++)
    {
      stmt = _wb_session_stmt (session, WB_STMT_ASSIGNMENT_FIND_NAME, error);
      if (stmt == NULL)
        return 0;
      _wb_session_bind_text (stmt, 1, chosen);
      rc = sqlite3_step (stmt);
      sqlite3_reset (stmt);
      if (rc == SQLITE_DONE)
        break;
      if (rc != SQLITE_ROW)
        {
          _wb_session_set_error (session, error, "looking up an assignment");
          return 0;
        }
      if (strict)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: the assignment name “%s” is taken by other choices", session->path, chosen);
          return 0;
        }
      g_free (chosen);
      chosen = g_strdup_printf ("%s-%" G_GINT64_FORMAT, name ? name : "a", next_id + attempt);
    }

  stmt = _wb_session_stmt (session, WB_STMT_ASSIGNMENT_INSERT, error);
  if (stmt == NULL)
    return 0;
  _wb_session_bind_text (stmt, 1, chosen);
  _wb_session_bind_text (stmt, 2, spec);
  sqlite3_bind_int64 (stmt, 3, g_get_real_time ());
  if (!_wb_session_step_done (session, stmt, "storing an assignment", error))
    return 0;
  id = sqlite3_last_insert_rowid (session->db);

  for (guint i = 0; i < choices->len; i++)
    {
      const Choice *c = &g_array_index (choices, Choice, i);

      stmt = _wb_session_stmt (session, WB_STMT_CHOICE_INSERT, error);
      if (stmt == NULL)
        return 0;
      sqlite3_bind_int64 (stmt, 1, id);
      _wb_session_bind_text (stmt, 2, c->region);
      _wb_session_bind_text (stmt, 3, c->executor);
      if (!_wb_session_step_done (session, stmt, "storing an assignment choice", error))
        return 0;
    }
  return id;
}

gint64
wb_session_add_assignment (WbSession  *session,
                           const char *name,
                           const char *spec,
                           GError    **error)
{
  g_autoptr (WbAssignment) assignment = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (session != NULL, 0);
  g_return_val_if_fail (spec != NULL, 0);
  if ((assignment = wb_assignment_parse (spec, &local)) == NULL)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID, "%s: %s", session->path, local->message);
      return 0;
    }
  return wb_session_add_assignment_choices (session, name, assignment, error);
}

gint64
wb_session_add_assignment_choices (WbSession          *session,
                                   const char         *name,
                                   const WbAssignment *assignment,
                                   GError            **error)
{
  g_autoptr (GArray) choices = NULL;
  gint64 id;

  g_return_val_if_fail (session != NULL, 0);
  if (name != NULL && !_wb_session_valid_name (name))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                   "%s: “%s” is not a valid assignment name", session->path, name);
      return 0;
    }
  choices = assignment_choices (assignment);
  if (!_wb_session_begin (session, TRUE, error))
    return 0;
  id = _wb_session_ensure_assignment (session, name, choices, TRUE, error);
  if (id == 0)
    {
      _wb_session_rollback (session);
      return 0;
    }
  return _wb_session_commit (session, error) ? id : 0;
}

GPtrArray *
wb_session_list_assignments (WbSession *session,
                             GError   **error)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_session_assignment_free);
  sqlite3_stmt *stmt;
  int           rc;

  g_return_val_if_fail (session != NULL, NULL);

  stmt = _wb_session_stmt (session, WB_STMT_ASSIGNMENTS_LIST, error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WbSessionAssignment *a = g_new0 (WbSessionAssignment, 1);

      a->id = sqlite3_column_int64 (stmt, 0);
      a->name = _wb_session_column_dup (stmt, 1);
      a->spec = _wb_session_column_dup (stmt, 2);
      a->created_at_us = sqlite3_column_int64 (stmt, 3);
      a->n_regions = (guint) sqlite3_column_int64 (stmt, 4);
      a->n_runs = (guint) sqlite3_column_int64 (stmt, 5);
      g_ptr_array_add (list, a);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "listing assignments");
      return NULL;
    }
  return g_steal_pointer (&list);
}

/* run_choices: the run's assignment: each region with an executor -> that executor. */
GArray *
_wb_session_run_choices (const WbRun *run)
{
  GArray *choices = new_choices ();

  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);
      Choice               c = { 0 };
      gboolean             seen = FALSE;

      if (r->executor == NULL || !_wb_session_valid_name (r->name))
        continue;
      for (guint j = 0; j < choices->len && !seen; j++)
        seen = strcmp (g_array_index (choices, Choice, j).region, r->name) == 0;
      if (seen)
        continue;
      c.region = g_strdup (r->name);
      c.executor = g_strdup (r->executor);
      g_array_append_val (choices, c);
    }
  return choices;
}
