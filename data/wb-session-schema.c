/* wb-session-schema.c — the session schema: migration steps, and the check that a file holds exactly it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schema of version N is what the steps 1..N create, applied in order to an empty database: a new
 * file runs every step, a file of version K runs the steps K+1..N. The same steps, run on an in-memory
 * database, give the reference that an opened file's sqlite_master must equal exactly (type, name, table
 * and SQL text of every table and index), so a trigger, a view, a virtual table, an expression index or
 * a changed column definition (a DEFAULT or CHECK calling a function) in a file from elsewhere is refused
 * before any of its tables is read.
 *
 * Never edit a step once released: add a step. Units in columns: *_ns nanoseconds, *_at Unix time in
 * microseconds, *_bytes bytes, *_gbps GB/s, *_tflops TFLOP/s; BLOBs of times are little-endian int64
 * arrays (8 bytes per iteration). */
#include "config.h"

#include <string.h>

#include "wb-session-private.h"

typedef struct
{
  int         version;
  const char *description;
  const char *sql;
} WbSessionMigration;

static const WbSessionMigration migrations[] = {
  { 1, "initial schema",
    "PRAGMA application_id = 1415004755;\n" /* WB_SESSION_APPLICATION_ID, "TWBS" */
    "CREATE TABLE meta (\n"
    "  key   TEXT PRIMARY KEY NOT NULL,\n"
    "  value TEXT NOT NULL\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE texts (\n"
    "  id     INTEGER PRIMARY KEY,\n"
    "  sha256 TEXT NOT NULL UNIQUE,\n"
    "  bytes  INTEGER NOT NULL,\n"
    "  text   TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE trace_sets (\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  sha256      TEXT NOT NULL UNIQUE,\n"
    "  name        TEXT NOT NULL,\n"
    "  origin      TEXT NOT NULL,\n"
    "  imported_at INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE source_texts (\n"
    "  id            INTEGER PRIMARY KEY,\n"
    "  trace_set_id  INTEGER NOT NULL REFERENCES trace_sets (id) ON DELETE CASCADE,\n"
    "  position      INTEGER NOT NULL,\n"
    "  kind          TEXT NOT NULL,\n"
    "  idx           INTEGER NOT NULL,\n"
    "  subset        TEXT NOT NULL,\n"
    "  label         TEXT,\n"
    "  path          TEXT NOT NULL,\n"
    "  provenance    TEXT,\n"
    "  provenance_ms REAL,\n"
    "  text_id       INTEGER NOT NULL REFERENCES texts (id),\n"
    "  UNIQUE (trace_set_id, position)\n"
    ");\n"
    "CREATE INDEX source_texts_text ON source_texts (text_id);\n"
    "CREATE TABLE stages (\n"
    "  id             INTEGER PRIMARY KEY,\n"
    "  trace_set_id   INTEGER REFERENCES trace_sets (id) ON DELETE CASCADE,\n"
    "  position       INTEGER NOT NULL,\n"
    "  name           TEXT NOT NULL,\n"
    "  text_id        INTEGER NOT NULL REFERENCES texts (id),\n"
    "  provenance_map TEXT,\n"
    "  created_at     INTEGER NOT NULL\n"
    ");\n"
    "CREATE INDEX stages_trace_set ON stages (trace_set_id, position);\n"
    "CREATE INDEX stages_text ON stages (text_id);\n"
    "CREATE TABLE regions (\n"
    "  id    INTEGER PRIMARY KEY,\n"
    "  stage TEXT NOT NULL,\n"
    "  name  TEXT NOT NULL,\n"
    "  UNIQUE (stage, name)\n"
    ");\n"
    "CREATE TABLE assignments (\n"
    "  id         INTEGER PRIMARY KEY,\n"
    "  name       TEXT NOT NULL UNIQUE,\n"
    "  spec       TEXT NOT NULL UNIQUE,\n"
    "  created_at INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE assignment_choices (\n"
    "  assignment_id INTEGER NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,\n"
    "  region        TEXT NOT NULL,\n"
    "  executor      TEXT NOT NULL,\n"
    "  PRIMARY KEY (assignment_id, region)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE runs (\n"
    "  id                  INTEGER PRIMARY KEY,\n"
    "  label               TEXT,\n"
    "  trace_set_id        INTEGER REFERENCES trace_sets (id) ON DELETE SET NULL,\n"
    "  assignment_id       INTEGER REFERENCES assignments (id),\n"
    "  assignment          TEXT,\n"
    "  stage               TEXT,\n"
    "  device_name         TEXT,\n"
    "  device_model        TEXT,\n"
    "  driver_version      TEXT,\n"
    "  executor_versions   TEXT NOT NULL,\n"
    "  iters               INTEGER NOT NULL,\n"
    "  warmup              INTEGER NOT NULL,\n"
    "  cuda_graphs         INTEGER NOT NULL,\n"
    "  executors           TEXT,\n"
    "  status              TEXT NOT NULL,\n"
    "  error               TEXT,\n"
    "  started_at          INTEGER NOT NULL,\n"
    "  iteration_ns        BLOB NOT NULL,\n"
    "  iteration_median_ns INTEGER NOT NULL,\n"
    "  dropped_records     INTEGER NOT NULL,\n"
    "  n_regions           INTEGER NOT NULL,\n"
    "  n_kernels           INTEGER NOT NULL,\n"
    "  checksum            TEXT NOT NULL,\n"
    "  kernels_checksum    TEXT NOT NULL\n"
    ");\n"
    "CREATE INDEX runs_trace_set ON runs (trace_set_id);\n"
    "CREATE INDEX runs_assignment ON runs (assignment_id);\n"
    "CREATE TABLE region_stats (\n"
    "  run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
    "  position     INTEGER NOT NULL,\n"
    "  region_id    INTEGER NOT NULL REFERENCES regions (id),\n"
    "  executor     TEXT,\n"
    "  stage_line   INTEGER NOT NULL,\n"
    "  median_ns    INTEGER NOT NULL,\n"
    "  min_ns       INTEGER NOT NULL,\n"
    "  max_ns       INTEGER NOT NULL,\n"
    "  times_ns     BLOB NOT NULL,\n"
    "  kernel_count INTEGER NOT NULL,\n"
    "  bytes_moved  INTEGER NOT NULL,\n"
    "  flops        INTEGER NOT NULL,\n"
    "  share        REAL,\n"
    "  PRIMARY KEY (run_id, position)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX region_stats_region ON region_stats (region_id);\n"
    "CREATE TABLE kernel_names (\n"
    "  id   INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL UNIQUE\n"
    ");\n"
    "CREATE TABLE kernels (\n"
    "  run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
    "  seq          INTEGER NOT NULL,\n"
    "  name_id      INTEGER NOT NULL REFERENCES kernel_names (id),\n"
    "  region_id    INTEGER REFERENCES regions (id),\n"
    "  trace_line   INTEGER NOT NULL,\n"
    "  stream       INTEGER NOT NULL,\n"
    "  grid_x       INTEGER NOT NULL,\n"
    "  grid_y       INTEGER NOT NULL,\n"
    "  grid_z       INTEGER NOT NULL,\n"
    "  block_x      INTEGER NOT NULL,\n"
    "  block_y      INTEGER NOT NULL,\n"
    "  block_z      INTEGER NOT NULL,\n"
    "  registers    INTEGER NOT NULL,\n"
    "  shared_bytes INTEGER NOT NULL,\n"
    "  start_ns     INTEGER NOT NULL,\n"
    "  end_ns       INTEGER NOT NULL,\n"
    "  iteration    INTEGER NOT NULL,\n"
    "  PRIMARY KEY (run_id, seq)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX kernels_name ON kernels (name_id);\n"
    "CREATE INDEX kernels_region ON kernels (region_id);\n" },

  { 2, "kernel correlation ids; cached device ceilings",
    "ALTER TABLE kernels ADD COLUMN correlation_id INTEGER NOT NULL DEFAULT 0;\n"
    "CREATE TABLE device_ceilings (\n"
    "  device_model TEXT PRIMARY KEY NOT NULL,\n"
    "  copy_gbps    REAL,\n"
    "  bf16_tflops  REAL,\n"
    "  measured_at  INTEGER NOT NULL\n"
    ") WITHOUT ROWID;\n" },

  /* One row per run that has figures (WbKernelAttribution; GPU runs profiled from this version on): where
   * its kernel records came from and how they were joined to its regions. Runs without a row read back as
   * NULL and zeros. Counts of kernel records over the timed iterations; *_ns summed over them. */
  { 3, "kernel attribution of a run",
    "CREATE TABLE run_attribution (\n"
    "  run_id                  INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,\n"
    "  kernel_source           TEXT,\n"
    "  kernel_ns_total         INTEGER NOT NULL,\n"
    "  kernel_ns_attributed    INTEGER NOT NULL,\n"
    "  kernel_ns_by_time_range INTEGER NOT NULL,\n"
    "  kernels_by_correlation  INTEGER NOT NULL,\n"
    "  kernels_by_time_range   INTEGER NOT NULL,\n"
    "  kernels_unattributed    INTEGER NOT NULL,\n"
    "  memcpy_count            INTEGER NOT NULL,\n"
    "  memcpy_bytes            INTEGER NOT NULL,\n"
    "  memcpy_ns               INTEGER NOT NULL,\n"
    "  memset_count            INTEGER NOT NULL,\n"
    "  memset_bytes            INTEGER NOT NULL,\n"
    "  memset_ns               INTEGER NOT NULL,\n"
    "  memops_attributed       INTEGER NOT NULL\n"
    ");\n" },

  /* Each timed call's identity across re-fusion (WbRegionStats.key, "@t12") and a digest of what it
   * computes (contents): comparisons match regions by key. NULL for runs stored before. */
  { 4, "region keys and contents of a run's regions",
    "ALTER TABLE region_stats ADD COLUMN key TEXT;\n"
    "ALTER TABLE region_stats ADD COLUMN contents TEXT;\n" },

  /* The rank of a multi-GPU run (WbRun.rank, world_size, clock_origin_ns, group): one row per run that has
   * any of them; runs without a row (every run stored before, and runs that are not distributed) read back
   * 0/NULL. run_group is the id the ranks of one run share; its index lists a group. */
  { 5, "ranks of multi-GPU runs",
    "CREATE TABLE run_ranks (\n"
    "  run_id          INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,\n"
    "  rank            INTEGER NOT NULL,\n"
    "  world_size      INTEGER NOT NULL,\n"
    "  clock_origin_ns INTEGER NOT NULL,\n"
    "  run_group       TEXT\n"
    ");\n"
    "CREATE INDEX run_ranks_group ON run_ranks (run_group, rank);\n" },

  /* The key of the region a timed call was unfused from (WbRegionStats.unfused_from, "@t12"): a comparison
   * says "unfused" for that region rather than "only in A". NULL for regions, other calls and runs stored
   * before. */
  { 6, "the region each call of a run was unfused from",
    "ALTER TABLE region_stats ADD COLUMN unfused_from TEXT;\n" },

  /* A GPU run's host calls (WbHostCall: the CUDA API calls of its traced iterations, CUPTI's API records),
   * in start order; times on the run's clock as the kernels'. Runs stored before have none. The kernels'
   * checksum covers them when there are any. */
  { 7, "host calls of a GPU run",
    "CREATE TABLE host_calls (\n"
    "  run_id         INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
    "  seq            INTEGER NOT NULL,\n"
    "  name           TEXT NOT NULL,\n"
    "  start_ns       INTEGER NOT NULL,\n"
    "  end_ns         INTEGER NOT NULL,\n"
    "  thread         INTEGER NOT NULL,\n"
    "  iteration      INTEGER NOT NULL,\n"
    "  correlation_id INTEGER NOT NULL,\n"
    "  PRIMARY KEY (run_id, seq)\n"
    ") WITHOUT ROWID;\n" },

  /* How a GPU run without a CUDA graph repeated its timed iterations (WbRun.launch_list): 1 when a flat
   * launch list replayed them, 0 when the interpreter ran them call by call. Runs stored before read 0. */
  { 8, "whether a run replayed a launch list",
    "ALTER TABLE runs ADD COLUMN launch_list INTEGER NOT NULL DEFAULT 0;\n" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == WB_SESSION_SCHEMA_VERSION);
G_STATIC_ASSERT (WB_SESSION_APPLICATION_ID == 1415004755);

const char *
_wb_session_migration_sql (int version)
{
  if (version < 1 || version > (int) G_N_ELEMENTS (migrations))
    return NULL;
  g_assert (migrations[version - 1].version == version);
  return migrations[version - 1].sql;
}

gboolean
_wb_session_run_script (sqlite3    *db,
                        const char *sql,
                        GError    **error)
{
  const char *tail = sql;

  while (tail != NULL && *tail != '\0')
    {
      sqlite3_stmt *stmt = NULL;
      const char   *next = NULL;
      int           rc;

      rc = sqlite3_prepare_v2 (db, tail, -1, &stmt, &next);
      if (rc != SQLITE_OK)
        {
          g_set_error (error, WB_SESSION_ERROR, _wb_session_error_code (rc), "%s (%s)",
                       sqlite3_errmsg (db), _wb_session_rc_name (sqlite3_extended_errcode (db)));
          return FALSE;
        }
      if (stmt == NULL) /* only whitespace or a comment was left */
        break;
      do
        rc = sqlite3_step (stmt);
      while (rc == SQLITE_ROW);
      if (rc != SQLITE_DONE)
        {
          g_set_error (error, WB_SESSION_ERROR, _wb_session_error_code (rc), "%s (%s)",
                       sqlite3_errmsg (db), _wb_session_rc_name (sqlite3_extended_errcode (db)));
          sqlite3_finalize (stmt);
          return FALSE;
        }
      sqlite3_finalize (stmt);
      tail = next;
    }
  return TRUE;
}

/* One row of sqlite_master. */
typedef struct
{
  char *type;
  char *name;
  char *tbl_name;
  char *sql;
} SchemaObject;

static void
schema_object_free (gpointer data)
{
  SchemaObject *o = data;

  g_free (o->type);
  g_free (o->name);
  g_free (o->tbl_name);
  g_free (o->sql);
  g_free (o);
}

static int
compare_strings (const char *a,
                 const char *b)
{
  return g_strcmp0 (a, b);
}

/* Orders schema rows by name, then type, table and SQL: two lists of the same rows sort alike. */
static int
compare_objects (gconstpointer pa,
                 gconstpointer pb)
{
  const SchemaObject *a = *(const SchemaObject *const *) pa;
  const SchemaObject *b = *(const SchemaObject *const *) pb;
  int                 c;

  if ((c = compare_strings (a->name, b->name)) != 0 || (c = compare_strings (a->type, b->type)) != 0 ||
      (c = compare_strings (a->tbl_name, b->tbl_name)) != 0)
    return c;
  return compare_strings (a->sql, b->sql);
}

/* read_schema: every row of @db's sqlite_master, duplicate names included, sorted (compare_objects).
 * NULL with the SQLite message on failure (a malformed schema fails here: SQLITE_CORRUPT). */
static GPtrArray *
read_schema (sqlite3 *db,
             int     *rc_out,
             char   **message)
{
  g_autoptr (GPtrArray) objects = g_ptr_array_new_with_free_func (schema_object_free);
  sqlite3_stmt *stmt = NULL;
  int           rc;

  rc = sqlite3_prepare_v2 (db, "SELECT type, name, tbl_name, sql FROM main.sqlite_master", -1, &stmt, NULL);
  while (rc == SQLITE_OK || rc == SQLITE_ROW)
    {
      SchemaObject *o;

      rc = sqlite3_step (stmt);
      if (rc != SQLITE_ROW)
        break;
      o = g_new0 (SchemaObject, 1);
      o->type = _wb_session_column_dup (stmt, 0);
      o->name = _wb_session_column_dup (stmt, 1);
      o->tbl_name = _wb_session_column_dup (stmt, 2);
      o->sql = _wb_session_column_dup (stmt, 3);
      if (o->name == NULL)
        o->name = g_strdup ("");
      g_ptr_array_add (objects, o);
    }
  if (rc != SQLITE_DONE)
    {
      *rc_out = sqlite3_extended_errcode (db);
      *message = g_strdup_printf ("%s (%s)", sqlite3_errmsg (db), _wb_session_rc_name (*rc_out));
      sqlite3_finalize (stmt);
      return NULL;
    }
  sqlite3_finalize (stmt);
  g_ptr_array_sort (objects, compare_objects);
  return g_steal_pointer (&objects);
}

static GPtrArray *
reference_schema (int      version,
                  GError **error)
{
  g_autoptr (GError) local = NULL;
  sqlite3   *db = NULL;
  GPtrArray *objects = NULL;
  int        rc = SQLITE_OK;
  char      *message = NULL;

  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_SQLITE, "sqlite3_open(:memory:): %s",
                   db ? sqlite3_errmsg (db) : "out of memory");
      sqlite3_close (db);
      return NULL;
    }
  for (int v = 1; v <= version; v++)
    if (!_wb_session_run_script (db, _wb_session_migration_sql (v), &local))
      {
        g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_SQLITE,
                     "building the reference schema (step %d): %s", v, local->message);
        sqlite3_close (db);
        return NULL;
      }
  objects = read_schema (db, &rc, &message);
  if (objects == NULL)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_SQLITE, "reading the reference schema: %s", message);
      g_free (message);
    }
  sqlite3_close (db);
  return objects;
}

static char *
describe_object (const SchemaObject *o)
{
  if (g_strcmp0 (o->type, "trigger") == 0 || g_strcmp0 (o->type, "index") == 0)
    return g_strdup_printf ("%s “%s” on %s", o->type, o->name, o->tbl_name ? o->tbl_name : "?");
  return g_strdup_printf ("%s “%s”", o->type ? o->type : "object", o->name);
}

/* The first object of @objects named @name, or NULL. */
static const SchemaObject *
find_named (GPtrArray  *objects,
            const char *name)
{
  for (guint i = 0; i < objects->len; i++)
    if (strcmp (((const SchemaObject *) objects->pdata[i])->name, name) == 0)
      return objects->pdata[i];
  return NULL;
}

/* How many objects of @objects are named @name. */
static guint
count_named (GPtrArray  *objects,
             const char *name)
{
  guint n = 0;

  for (guint i = 0; i < objects->len; i++)
    n += strcmp (((const SchemaObject *) objects->pdata[i])->name, name) == 0;
  return n;
}

/* The error for the first place where the sorted lists @found and @expected differ at @i. */
static void
schema_mismatch (GPtrArray  *found,
                 GPtrArray  *expected,
                 guint       i,
                 const char *path,
                 int         version,
                 GError    **error)
{
  const SchemaObject *f = i < found->len ? found->pdata[i] : NULL;
  const SchemaObject *e;
  g_autofree char    *what = NULL;

  if (f == NULL || (e = find_named (expected, f->name)) == NULL)
    {
      if (f == NULL)
        {
          what = describe_object (expected->pdata[i]);
          g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                       "%s: not a valid thunder-wb session: the %s of schema version %d is missing", path, what, version);
          return;
        }
      what = describe_object (f);
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                   "%s: not a trusted thunder-wb session: its schema holds an unexpected %s "
                   "(schema version %d has none); refusing to read it",
                   path, what, version);
      return;
    }
  if (i < expected->len && find_named (found, ((const SchemaObject *) expected->pdata[i])->name) == NULL)
    {
      what = describe_object (expected->pdata[i]);
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                   "%s: not a valid thunder-wb session: the %s of schema version %d is missing", path, what, version);
      return;
    }
  what = describe_object (f);
  if (count_named (found, f->name) > count_named (expected, f->name))
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                 "%s: not a trusted thunder-wb session: its schema holds %u objects named “%s” (one is a %s), "
                 "schema version %d has %u; refusing to read it",
                 path, count_named (found, f->name), f->name, what, version, count_named (expected, f->name));
  else if (count_named (found, f->name) < count_named (expected, f->name))
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                 "%s: not a valid thunder-wb session: an object named “%s” of schema version %d is missing",
                 path, f->name, version);
  else
    g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED,
                 "%s: not a trusted thunder-wb session: the %s differs from the definition of "
                 "schema version %d; refusing to read it",
                 path, what, version);
}

gboolean
_wb_session_verify_schema (sqlite3    *db,
                           const char *path,
                           int         version,
                           GError    **error)
{
  g_autoptr (GPtrArray) expected = NULL;
  g_autoptr (GPtrArray) found = NULL;
  g_autofree char *message = NULL;
  int              rc = SQLITE_OK;

  expected = reference_schema (version, error);
  if (expected == NULL)
    return FALSE;
  found = read_schema (db, &rc, &message);
  if (found == NULL)
    {
      g_set_error (error, WB_SESSION_ERROR, _wb_session_error_code (rc),
                   "%s: cannot read the schema: %s", path, message);
      return FALSE;
    }

  /* The whole schema as a list, duplicates included: a second object under a name the schema uses
   * (a trigger named like an index) is as foreign as one under a new name. Both lists are sorted the
   * same way, so they are equal row by row or differ at a first row, which the message names. */
  for (guint i = 0; i < MAX (found->len, expected->len); i++)
    if (i >= found->len || i >= expected->len || compare_objects (&found->pdata[i], &expected->pdata[i]) != 0)
      {
        schema_mismatch (found, expected, i, path, version, error);
        return FALSE;
      }
  return TRUE;
}
