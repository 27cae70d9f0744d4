/* wb-session-runs.c — runs, region statistics, kernel records, assignments and device ceilings in a session
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
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

/* -- encodings ------------------------------------------------------------------------------------ */

/* Times are stored as little-endian int64 arrays, 8 bytes per iteration. */
static GBytes *
times_to_blob (const GArray *times)
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

static gboolean
blob_to_times (sqlite3_stmt *stmt,
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

static void
bind_blob (sqlite3_stmt *stmt,
           int           index,
           GBytes       *bytes)
{
  gsize         len = 0;
  gconstpointer data = g_bytes_get_data (bytes, &len);

  /* A zero-length blob, not NULL: the columns are NOT NULL. */
  sqlite3_bind_blob64 (stmt, index, len ? data : "", len, SQLITE_TRANSIENT);
}

static void
bind_double (sqlite3_stmt *stmt,
             int           index,
             double        value)
{
  if (isnan (value))
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_double (stmt, index, value);
}

static double
column_double (sqlite3_stmt *stmt,
               int           column)
{
  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    return NAN;
  return sqlite3_column_double (stmt, column);
}

static char *
strings_to_json (const GPtrArray *strings)
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

static gboolean
json_to_strings (const char *text,
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

static gboolean
valid_name (const char *s)
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

static GArray *
parse_spec (WbSession  *session,
            const char *spec,
            GError    **error)
{
  g_autoptr (GArray) choices = new_choices ();
  g_auto (GStrv) items = g_strsplit (spec, ",", -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (items[i]));
      char            *eq = strchr (item, '=');
      Choice           c = { 0 };

      if (*item == '\0')
        continue;
      if (eq == NULL)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: “%s” is not REGION=EXECUTOR", session->path, item);
          return NULL;
        }
      *eq = '\0';
      c.region = g_strstrip (g_strdup (item));
      c.executor = g_strstrip (g_strdup (eq + 1));
      if (!valid_name (c.region) || !valid_name (c.executor))
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: “%s=%s” is not REGION=EXECUTOR", session->path, c.region, c.executor);
          choice_clear (&c);
          return NULL;
        }
      g_array_append_val (choices, c);
    }
  return g_steal_pointer (&choices);
}

/* ensure_assignment: inside a write transaction, the id of the assignment with @choices, storing it
 * under @name (nullable) when new. @strict: a name already used by other choices is an error; otherwise
 * a free variant "NAME-N" is taken. 0 with @error on failure. */
static gint64
ensure_assignment (WbSession  *session,
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
  g_autoptr (GArray) choices = NULL;
  gint64 id;

  g_return_val_if_fail (session != NULL, 0);
  g_return_val_if_fail (spec != NULL, 0);

  if (name != NULL && !valid_name (name))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                   "%s: “%s” is not a valid assignment name", session->path, name);
      return 0;
    }
  choices = parse_spec (session, spec, error);
  if (choices == NULL)
    return 0;
  if (!_wb_session_begin (session, TRUE, error))
    return 0;
  id = ensure_assignment (session, name, choices, TRUE, error);
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

/* -- storing a run -------------------------------------------------------------------------------- */

/* Ids looked up or created while one run is stored (regions by name, kernel names). */
typedef struct
{
  WbSession  *session;
  const char *stage;
  GHashTable *regions;      /* name -> id (gint64 in a pointer) */
  GHashTable *kernel_names; /* name -> id */
} StoreCache;

static gint64
intern (StoreCache *cache,
        GHashTable *table,
        WbStmt      find,
        WbStmt      insert,
        const char *name,
        GError    **error)
{
  WbSession    *session = cache->session;
  gpointer      value;
  sqlite3_stmt *stmt;
  gint64        id = 0;
  int           rc;
  gboolean      is_region = table == cache->regions;

  if (g_hash_table_lookup_extended (table, name, NULL, &value))
    return (gint64) GPOINTER_TO_SIZE (value);

  stmt = _wb_session_stmt (session, find, error);
  if (stmt == NULL)
    return 0;
  if (is_region)
    {
      _wb_session_bind_text (stmt, 1, cache->stage);
      _wb_session_bind_text (stmt, 2, name);
    }
  else
    _wb_session_bind_text (stmt, 1, name);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    id = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "looking up a name");
      return 0;
    }
  if (id == 0)
    {
      stmt = _wb_session_stmt (session, insert, error);
      if (stmt == NULL)
        return 0;
      if (is_region)
        {
          _wb_session_bind_text (stmt, 1, cache->stage);
          _wb_session_bind_text (stmt, 2, name);
        }
      else
        _wb_session_bind_text (stmt, 1, name);
      if (!_wb_session_step_done (session, stmt, "storing a name", error))
        return 0;
      id = sqlite3_last_insert_rowid (session->db);
    }
  g_hash_table_insert (table, g_strdup (name), GSIZE_TO_POINTER ((gsize) id));
  return id;
}

static gboolean
validate_run (WbSession   *session,
              const WbRun *run,
              GError     **error)
{
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);

      if (r->name == NULL || !g_utf8_validate (r->name, -1, NULL))
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: region %u of the run has no valid name", session->path, i);
          return FALSE;
        }
      if (r->executor != NULL && !valid_name (r->executor))
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: region “%s”: “%s” is not a valid executor name", session->path, r->name,
                       r->executor);
          return FALSE;
        }
    }
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      if (k->name == NULL)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                       "%s: kernel record %u of the run has no name", session->path, i);
          return FALSE;
        }
    }
  return TRUE;
}

/* run_choices: the run's assignment: each region with an executor -> that executor. */
static GArray *
run_choices (const WbRun *run)
{
  GArray *choices = new_choices ();

  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);
      Choice               c = { 0 };
      gboolean             seen = FALSE;

      if (r->executor == NULL || !valid_name (r->name))
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

gint64
wb_session_store_run (WbSession *session,
                      WbRun     *run,
                      gint64     trace_set_id,
                      GError   **error)
{
  g_autofree char *checksum = NULL;
  g_autofree char *kernels_checksum = NULL;
  g_autofree char *versions = NULL;
  g_autoptr (GBytes) iterations = NULL;
  g_autoptr (GArray) choices = NULL;
  g_autoptr (GHashTable) regions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) kernel_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  StoreCache    cache = { session, run->stage ? run->stage : "", regions, kernel_names };
  sqlite3_stmt *stmt;
  gint64        run_id;
  gint64        assignment_id = 0;

  g_return_val_if_fail (session != NULL, 0);
  g_return_val_if_fail (run != NULL, 0);

  if (!validate_run (session, run, error))
    return 0;

  /* Everything that needs no lock is computed before BEGIN IMMEDIATE, to keep the write short. */
  checksum = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  kernels_checksum = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_KERNELS);
  versions = strings_to_json (run->executor_versions);
  iterations = times_to_blob (run->iteration_ns);
  choices = run_choices (run);

  if (!_wb_session_begin (session, TRUE, error))
    return 0;

  if (choices->len > 0)
    {
      assignment_id = ensure_assignment (session, valid_name (run->assignment) ? run->assignment : NULL,
                                         choices, FALSE, error);
      if (assignment_id == 0)
        goto fail;
    }

  stmt = _wb_session_stmt (session, WB_STMT_RUN_INSERT, error);
  if (stmt == NULL)
    goto fail;
  _wb_session_bind_text (stmt, 1, run->label);
  if (trace_set_id > 0)
    sqlite3_bind_int64 (stmt, 2, trace_set_id);
  else
    sqlite3_bind_null (stmt, 2);
  if (assignment_id > 0)
    sqlite3_bind_int64 (stmt, 3, assignment_id);
  else
    sqlite3_bind_null (stmt, 3);
  _wb_session_bind_text (stmt, 4, run->assignment);
  _wb_session_bind_text (stmt, 5, run->stage);
  _wb_session_bind_text (stmt, 6, run->device_name);
  _wb_session_bind_text (stmt, 7, run->device_model);
  _wb_session_bind_text (stmt, 8, run->driver_version);
  _wb_session_bind_text (stmt, 9, versions);
  sqlite3_bind_int64 (stmt, 10, run->iters);
  sqlite3_bind_int64 (stmt, 11, run->warmup);
  sqlite3_bind_int (stmt, 12, run->cuda_graphs ? 1 : 0);
  _wb_session_bind_text (stmt, 13, run->executors);
  _wb_session_bind_text (stmt, 14, wb_run_status_to_string (run->status));
  _wb_session_bind_text (stmt, 15, run->error);
  sqlite3_bind_int64 (stmt, 16, run->start_time_us);
  bind_blob (stmt, 17, iterations);
  sqlite3_bind_int64 (stmt, 18, wb_run_get_iteration_median_ns (run));
  sqlite3_bind_int64 (stmt, 19, (sqlite3_int64) run->dropped_records);
  sqlite3_bind_int64 (stmt, 20, run->regions->len);
  sqlite3_bind_int64 (stmt, 21, run->kernels->len);
  _wb_session_bind_text (stmt, 22, checksum);
  _wb_session_bind_text (stmt, 23, kernels_checksum);
  if (!_wb_session_step_done (session, stmt, "storing a run", error))
    goto fail;
  run_id = sqlite3_last_insert_rowid (session->db);

  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);
      g_autoptr (GBytes) times = times_to_blob (r->times_ns);
      gint64 region_id = intern (&cache, regions, WB_STMT_REGION_FIND, WB_STMT_REGION_INSERT, r->name, error);

      if (region_id == 0)
        goto fail;
      stmt = _wb_session_stmt (session, WB_STMT_REGION_STATS_INSERT, error);
      if (stmt == NULL)
        goto fail;
      sqlite3_bind_int64 (stmt, 1, run_id);
      sqlite3_bind_int64 (stmt, 2, i);
      sqlite3_bind_int64 (stmt, 3, region_id);
      _wb_session_bind_text (stmt, 4, r->executor);
      sqlite3_bind_int64 (stmt, 5, r->stage_line);
      sqlite3_bind_int64 (stmt, 6, r->median_ns);
      sqlite3_bind_int64 (stmt, 7, r->min_ns);
      sqlite3_bind_int64 (stmt, 8, r->max_ns);
      bind_blob (stmt, 9, times);
      sqlite3_bind_int64 (stmt, 10, r->kernel_count);
      sqlite3_bind_int64 (stmt, 11, (sqlite3_int64) r->bytes_moved);
      sqlite3_bind_int64 (stmt, 12, (sqlite3_int64) r->flops);
      bind_double (stmt, 13, r->share);
      if (!_wb_session_step_done (session, stmt, "storing region statistics", error))
        goto fail;
    }

  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);
      gint64                name_id;
      gint64                region_id = 0;

      name_id = intern (&cache, kernel_names, WB_STMT_KERNEL_NAME_FIND, WB_STMT_KERNEL_NAME_INSERT, k->name, error);
      if (name_id == 0)
        goto fail;
      if (k->region != NULL)
        {
          region_id = intern (&cache, regions, WB_STMT_REGION_FIND, WB_STMT_REGION_INSERT, k->region, error);
          if (region_id == 0)
            goto fail;
        }
      stmt = _wb_session_stmt (session, WB_STMT_KERNEL_INSERT, error);
      if (stmt == NULL)
        goto fail;
      sqlite3_bind_int64 (stmt, 1, run_id);
      sqlite3_bind_int64 (stmt, 2, i);
      sqlite3_bind_int64 (stmt, 3, name_id);
      if (region_id != 0)
        sqlite3_bind_int64 (stmt, 4, region_id);
      else
        sqlite3_bind_null (stmt, 4);
      sqlite3_bind_int64 (stmt, 5, k->trace_line);
      sqlite3_bind_int64 (stmt, 6, k->stream);
      for (int d = 0; d < 3; d++)
        sqlite3_bind_int64 (stmt, 7 + d, k->grid[d]);
      for (int d = 0; d < 3; d++)
        sqlite3_bind_int64 (stmt, 10 + d, k->block[d]);
      sqlite3_bind_int64 (stmt, 13, k->registers);
      sqlite3_bind_int64 (stmt, 14, k->shared_bytes);
      sqlite3_bind_int64 (stmt, 15, k->start_ns);
      sqlite3_bind_int64 (stmt, 16, k->end_ns);
      sqlite3_bind_int64 (stmt, 17, k->iteration);
      sqlite3_bind_int64 (stmt, 18, (sqlite3_int64) k->correlation_id);
      if (!_wb_session_step_done (session, stmt, "storing a kernel record", error))
        goto fail;
    }

  if (!_wb_session_commit (session, error))
    return 0;
  run->id = run_id;
  return run_id;

fail:
  _wb_session_rollback (session);
  return 0;
}

/* -- reading runs --------------------------------------------------------------------------------- */

static gboolean
corrupt_run (WbSession  *session,
             gint64      run_id,
             const char *what,
             GError    **error)
{
  g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT, "%s: run %" G_GINT64_FORMAT ": %s",
               session->path, run_id, what);
  return FALSE;
}

/* read_run_row: a WbRun from a row of WB_RUN_COLUMNS (regions and kernels empty). Also returns the
 * stored counts and checksums for the caller to check. */
static WbRun *
read_run_row (WbSession    *session,
              sqlite3_stmt *stmt,
              gint64       *n_regions,
              gint64       *n_kernels,
              char        **checksum,
              char        **kernels_checksum,
              GError      **error)
{
  g_autoptr (WbRun) run = wb_run_new ();
  g_autofree char *versions = NULL;
  g_autofree char *status = NULL;

  run->id = sqlite3_column_int64 (stmt, 0);
  run->label = _wb_session_column_dup (stmt, 1);
  run->assignment = _wb_session_column_dup (stmt, 3);
  run->stage = _wb_session_column_dup (stmt, 4);
  run->device_name = _wb_session_column_dup (stmt, 5);
  run->device_model = _wb_session_column_dup (stmt, 6);
  run->driver_version = _wb_session_column_dup (stmt, 7);
  versions = _wb_session_column_dup (stmt, 8);
  run->iters = (guint32) sqlite3_column_int64 (stmt, 9);
  run->warmup = (guint32) sqlite3_column_int64 (stmt, 10);
  run->cuda_graphs = sqlite3_column_int64 (stmt, 11) != 0;
  run->executors = _wb_session_column_dup (stmt, 12);
  status = _wb_session_column_dup (stmt, 13);
  run->error = _wb_session_column_dup (stmt, 14);
  run->start_time_us = sqlite3_column_int64 (stmt, 15);
  run->dropped_records = (guint64) sqlite3_column_int64 (stmt, 17);
  *n_regions = sqlite3_column_int64 (stmt, 18);
  *n_kernels = sqlite3_column_int64 (stmt, 19);
  if (checksum != NULL)
    *checksum = _wb_session_column_dup (stmt, 20);
  if (kernels_checksum != NULL)
    *kernels_checksum = _wb_session_column_dup (stmt, 21);

  if (!json_to_strings (versions, run->executor_versions))
    {
      corrupt_run (session, run->id, "executor versions are not a JSON array of strings", error);
      return NULL;
    }
  if (!wb_run_status_from_string (status, &run->status))
    {
      corrupt_run (session, run->id, "unknown status", error);
      return NULL;
    }
  if (!blob_to_times (stmt, 16, run->iteration_ns))
    {
      corrupt_run (session, run->id, "iteration times are not whole 8-byte values", error);
      return NULL;
    }
  return g_steal_pointer (&run);
}

static gboolean
read_regions (WbSession *session,
              WbRun     *run,
              GError   **error)
{
  sqlite3_stmt *stmt = _wb_session_stmt (session, WB_STMT_REGION_STATS_GET, error);
  int           rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *name = _wb_session_column_dup (stmt, 0);
      g_autofree char *executor = _wb_session_column_dup (stmt, 1);
      WbRegionStats   *r = wb_region_stats_new (name, executor);

      wb_run_add_region (run, r);
      r->stage_line = (guint32) sqlite3_column_int64 (stmt, 2);
      r->median_ns = sqlite3_column_int64 (stmt, 3);
      r->min_ns = sqlite3_column_int64 (stmt, 4);
      r->max_ns = sqlite3_column_int64 (stmt, 5);
      if (!blob_to_times (stmt, 6, r->times_ns))
        {
          sqlite3_reset (stmt);
          return corrupt_run (session, run->id, "region times are not whole 8-byte values", error);
        }
      r->kernel_count = (guint32) sqlite3_column_int64 (stmt, 7);
      r->bytes_moved = (guint64) sqlite3_column_int64 (stmt, 8);
      r->flops = (guint64) sqlite3_column_int64 (stmt, 9);
      r->share = column_double (stmt, 10);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "reading region statistics");
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_kernels (WbSession *session,
              WbRun     *run,
              GError   **error)
{
  sqlite3_stmt *stmt = _wb_session_stmt (session, WB_STMT_KERNELS_GET, error);
  int           rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *name = _wb_session_column_dup (stmt, 0);
      g_autofree char *region = _wb_session_column_dup (stmt, 1);
      WbKernelRecord  *k = wb_kernel_record_new (name, region);

      wb_run_add_kernel (run, k);
      k->trace_line = (guint32) sqlite3_column_int64 (stmt, 2);
      k->stream = (guint32) sqlite3_column_int64 (stmt, 3);
      for (int d = 0; d < 3; d++)
        k->grid[d] = (guint32) sqlite3_column_int64 (stmt, 4 + d);
      for (int d = 0; d < 3; d++)
        k->block[d] = (guint32) sqlite3_column_int64 (stmt, 7 + d);
      k->registers = (guint32) sqlite3_column_int64 (stmt, 10);
      k->shared_bytes = (guint32) sqlite3_column_int64 (stmt, 11);
      k->start_ns = sqlite3_column_int64 (stmt, 12);
      k->end_ns = sqlite3_column_int64 (stmt, 13);
      k->iteration = (guint32) sqlite3_column_int64 (stmt, 14);
      k->correlation_id = (guint64) sqlite3_column_int64 (stmt, 15);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "reading kernel records");
      return FALSE;
    }
  return TRUE;
}

/* read_run: inside a read transaction, run @run_id with its regions (and kernels), checked against the
 * stored counts and checksums. */
static WbRun *
read_run (WbSession         *session,
          gint64             run_id,
          WbSessionReadFlags flags,
          GError           **error)
{
  g_autoptr (WbRun) run = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *kernels_checksum = NULL;
  g_autofree char *actual = NULL;
  sqlite3_stmt    *stmt;
  gint64           n_regions = 0;
  gint64           n_kernels = 0;
  int              rc;

  stmt = _wb_session_stmt (session, WB_STMT_RUN_GET, error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, run_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    run = read_run_row (session, stmt, &n_regions, &n_kernels, &checksum, &kernels_checksum, error);
  else if (rc == SQLITE_DONE)
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND, "%s: no run %" G_GINT64_FORMAT,
                 session->path, run_id);
  else
    _wb_session_set_error (session, error, "reading a run");
  sqlite3_reset (stmt);
  if (run == NULL)
    return NULL;

  if (!read_regions (session, run, error))
    return NULL;
  if (run->regions->len != n_regions)
    {
      corrupt_run (session, run_id, "the number of regions differs from the one stored with the run", error);
      return NULL;
    }
  actual = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  if (g_strcmp0 (actual, checksum) != 0)
    {
      corrupt_run (session, run_id, "its content does not match the checksum stored with it", error);
      return NULL;
    }

  if ((flags & WB_SESSION_READ_KERNELS) != 0)
    {
      if (!read_kernels (session, run, error))
        return NULL;
      if (run->kernels->len != n_kernels)
        {
          corrupt_run (session, run_id, "the number of kernel records differs from the one stored with the run",
                       error);
          return NULL;
        }
      g_free (actual);
      actual = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_KERNELS);
      if (g_strcmp0 (actual, kernels_checksum) != 0)
        {
          corrupt_run (session, run_id, "its kernel records do not match the checksum stored with them", error);
          return NULL;
        }
    }
  return g_steal_pointer (&run);
}

WbRun *
wb_session_get_run (WbSession         *session,
                    gint64             run_id,
                    WbSessionReadFlags flags,
                    GError           **error)
{
  g_autoptr (WbRun) run = NULL;

  g_return_val_if_fail (session != NULL, NULL);

  if (!_wb_session_begin (session, FALSE, error))
    return NULL;
  run = read_run (session, run_id, flags, error);
  if (run == NULL)
    {
      _wb_session_rollback (session);
      return NULL;
    }
  if (!_wb_session_commit (session, error))
    return NULL;
  return g_steal_pointer (&run);
}

GPtrArray *
wb_session_list_runs (WbSession *session,
                      GError   **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  sqlite3_stmt *stmt;
  int           rc;

  g_return_val_if_fail (session != NULL, NULL);

  stmt = _wb_session_stmt (session, WB_STMT_RUNS_LIST, error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 n_regions, n_kernels;
      WbRun *run = read_run_row (session, stmt, &n_regions, &n_kernels, NULL, NULL, error);

      if (run == NULL)
        {
          sqlite3_reset (stmt);
          return NULL;
        }
      g_ptr_array_add (runs, run);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "listing runs");
      return NULL;
    }
  return g_steal_pointer (&runs);
}

gboolean
wb_session_get_run_pair (WbSession *session,
                         gint64     a_id,
                         gint64     b_id,
                         WbRun    **a,
                         WbRun    **b,
                         GError   **error)
{
  g_autoptr (WbRun) run_a = NULL;
  g_autoptr (WbRun) run_b = NULL;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (!_wb_session_begin (session, FALSE, error))
    return FALSE;
  if (a_id == 0 && b_id == 0)
    {
      sqlite3_stmt *stmt = _wb_session_stmt (session, WB_STMT_RUNS_LATEST, error);
      gint64        ids[2] = { 0, 0 };
      guint         n = 0;
      int           rc;

      if (stmt == NULL)
        goto fail;
      while (n < 2 && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64 (stmt, 0);
      sqlite3_reset (stmt);
      if (n < 2)
        {
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND,
                       "%s: the session holds %u run%s; comparing needs two", session->path, n,
                       n == 1 ? "" : "s");
          goto fail;
        }
      a_id = ids[1];
      b_id = ids[0];
    }
  run_a = read_run (session, a_id, WB_SESSION_READ_SUMMARY, error);
  if (run_a == NULL)
    goto fail;
  run_b = read_run (session, b_id, WB_SESSION_READ_SUMMARY, error);
  if (run_b == NULL)
    goto fail;
  if (!_wb_session_commit (session, error))
    return FALSE;
  *a = g_steal_pointer (&run_a);
  *b = g_steal_pointer (&run_b);
  return TRUE;

fail:
  _wb_session_rollback (session);
  return FALSE;
}

gint64
wb_session_count_runs (WbSession *session,
                       GError   **error)
{
  sqlite3_stmt *stmt;
  gint64        n = -1;

  g_return_val_if_fail (session != NULL, -1);

  stmt = _wb_session_stmt (session, WB_STMT_RUNS_COUNT, error);
  if (stmt == NULL)
    return -1;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  else
    _wb_session_set_error (session, error, "counting runs");
  sqlite3_reset (stmt);
  return n;
}

/* -- device ceilings ------------------------------------------------------------------------------ */

gboolean
wb_session_store_ceilings (WbSession              *session,
                           const WbDeviceCeilings *ceilings,
                           GError                **error)
{
  sqlite3_stmt *stmt;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (ceilings != NULL && ceilings->device_model != NULL, FALSE);

  if (session->read_only)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY, "%s: the session was opened read-only",
                   session->path);
      return FALSE;
    }
  stmt = _wb_session_stmt (session, WB_STMT_CEILINGS_SET, error);
  if (stmt == NULL)
    return FALSE;
  _wb_session_bind_text (stmt, 1, ceilings->device_model);
  bind_double (stmt, 2, ceilings->copy_gbps);
  bind_double (stmt, 3, ceilings->bf16_tflops);
  sqlite3_bind_int64 (stmt, 4, ceilings->measured_at_us);
  return _wb_session_step_done (session, stmt, "storing device ceilings", error);
}

WbDeviceCeilings *
wb_session_lookup_ceilings (WbSession  *session,
                            const char *device_model,
                            GError    **error)
{
  WbDeviceCeilings *c = NULL;
  sqlite3_stmt     *stmt;
  int               rc;

  g_return_val_if_fail (session != NULL, NULL);
  g_return_val_if_fail (device_model != NULL, NULL);

  stmt = _wb_session_stmt (session, WB_STMT_CEILINGS_GET, error);
  if (stmt == NULL)
    return NULL;
  _wb_session_bind_text (stmt, 1, device_model);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      c = wb_device_ceilings_new (device_model, column_double (stmt, 0), column_double (stmt, 1));
      c->measured_at_us = sqlite3_column_int64 (stmt, 2);
    }
  else if (rc != SQLITE_DONE)
    _wb_session_set_error (session, error, "reading device ceilings");
  sqlite3_reset (stmt);
  return c;
}
