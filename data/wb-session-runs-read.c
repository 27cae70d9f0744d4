/* wb-session-runs-read.c — reading runs back from a session: one run, a pair, the list, checked against
 * the counts and checksums stored with them
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-session-private.h"

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

/* read_attribution: the run_attribution columns of WB_RUN_COLUMNS from @first on (run_id, then the figures
 * in the table's order) into @a; left empty when the run has no row. FALSE when the kernel source is not
 * valid UTF-8. */
static gboolean
read_attribution (sqlite3_stmt        *stmt,
                  int                  first,
                  WbKernelAttribution *a)
{
  int i = first + 1;

  if (sqlite3_column_type (stmt, first) == SQLITE_NULL)
    return TRUE;
  a->kernel_source = _wb_session_column_dup (stmt, i++);
  a->kernel_ns_total = sqlite3_column_int64 (stmt, i++);
  a->kernel_ns_attributed = sqlite3_column_int64 (stmt, i++);
  a->kernel_ns_by_time_range = sqlite3_column_int64 (stmt, i++);
  a->kernels_by_correlation = (guint32) sqlite3_column_int64 (stmt, i++);
  a->kernels_by_time_range = (guint32) sqlite3_column_int64 (stmt, i++);
  a->kernels_unattributed = (guint32) sqlite3_column_int64 (stmt, i++);
  a->memcpy_count = (guint32) sqlite3_column_int64 (stmt, i++);
  a->memcpy_bytes = (guint64) sqlite3_column_int64 (stmt, i++);
  a->memcpy_ns = sqlite3_column_int64 (stmt, i++);
  a->memset_count = (guint32) sqlite3_column_int64 (stmt, i++);
  a->memset_bytes = (guint64) sqlite3_column_int64 (stmt, i++);
  a->memset_ns = sqlite3_column_int64 (stmt, i++);
  a->memops_attributed = (guint32) sqlite3_column_int64 (stmt, i++);
  return a->kernel_source == NULL || g_utf8_validate (a->kernel_source, -1, NULL);
}

/* read_ranks: the run_ranks columns of WB_RUN_COLUMNS from @first on (run_id, rank, world_size,
 * clock_origin_ns, run_group) into @run; left 0/NULL when the run has no row. FALSE when the group id is
 * not valid UTF-8. */
static gboolean
read_ranks (sqlite3_stmt *stmt,
            int           first,
            WbRun        *run)
{
  if (sqlite3_column_type (stmt, first) == SQLITE_NULL)
    return TRUE;
  run->rank = (guint32) sqlite3_column_int64 (stmt, first + 1);
  run->world_size = (guint32) sqlite3_column_int64 (stmt, first + 2);
  run->clock_origin_ns = sqlite3_column_int64 (stmt, first + 3);
  run->group = _wb_session_column_dup (stmt, first + 4);
  return run->group == NULL || g_utf8_validate (run->group, -1, NULL);
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
  run->launch_list = sqlite3_column_int64 (stmt, WB_RUN_LAUNCH_LIST_COLUMN) != 0;
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

  if (!_wb_session_json_to_strings (versions, run->executor_versions))
    {
      corrupt_run (session, run->id, "executor versions are not a JSON array of strings", error);
      return NULL;
    }
  if (!wb_run_status_from_string (status, &run->status))
    {
      corrupt_run (session, run->id, "unknown status", error);
      return NULL;
    }
  if (!_wb_session_blob_to_times (stmt, 16, run->iteration_ns))
    {
      corrupt_run (session, run->id, "iteration times are not whole 8-byte values", error);
      return NULL;
    }
  if (!read_attribution (stmt, 22, &run->attribution))
    {
      corrupt_run (session, run->id, "its kernel source is not valid UTF-8", error);
      return NULL;
    }
  if (!read_ranks (stmt, WB_RUN_RANK_COLUMN, run))
    {
      corrupt_run (session, run->id, "its group id is not valid UTF-8", error);
      return NULL;
    }
  return g_steal_pointer (&run);
}

/* A row of a run's table, read into @run: FALSE with @error set when a column is corrupt. */
typedef gboolean (*ReadRowFunc) (WbSession    *session,
                                 sqlite3_stmt *stmt,
                                 WbRun        *run,
                                 GError      **error);

/* read_run_rows: every row of statement @id (a query whose one parameter is the run id) for @run, each
 * given to @read_row; the statement is reset either way. FALSE with @error set by @read_row, or from SQLite
 * naming @what ("reading region statistics"). */
static gboolean
read_run_rows (WbSession  *session,
               WbStmt      id,
               WbRun      *run,
               ReadRowFunc read_row,
               const char *what,
               GError    **error)
{
  sqlite3_stmt *stmt = _wb_session_stmt (session, id, error);
  int           rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (!read_row (session, stmt, run, error))
      {
        sqlite3_reset (stmt);
        return FALSE;
      }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, what);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_region_row (WbSession    *session,
                 sqlite3_stmt *stmt,
                 WbRun        *run,
                 GError      **error)
{
  g_autofree char *name = _wb_session_column_dup (stmt, 0);
  g_autofree char *executor = _wb_session_column_dup (stmt, 1);
  WbRegionStats   *r = wb_region_stats_new (name, executor);

  wb_run_add_region (run, r);
  r->stage_line = (guint32) sqlite3_column_int64 (stmt, 2);
  r->median_ns = sqlite3_column_int64 (stmt, 3);
  r->min_ns = sqlite3_column_int64 (stmt, 4);
  r->max_ns = sqlite3_column_int64 (stmt, 5);
  if (!_wb_session_blob_to_times (stmt, 6, r->times_ns))
    return corrupt_run (session, run->id, "region times are not whole 8-byte values", error);
  r->kernel_count = (guint32) sqlite3_column_int64 (stmt, 7);
  r->bytes_moved = (guint64) sqlite3_column_int64 (stmt, 8);
  r->flops = (guint64) sqlite3_column_int64 (stmt, 9);
  r->share = _wb_session_column_double (stmt, 10);
  r->key = _wb_session_column_dup (stmt, 11);
  r->contents = _wb_session_column_dup (stmt, 12);
  r->unfused_from = _wb_session_column_dup (stmt, 13);
  return TRUE;
}

static gboolean
read_kernel_row (WbSession    *session,
                 sqlite3_stmt *stmt,
                 WbRun        *run,
                 GError      **error)
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
  return TRUE;
}

static gboolean
read_host_call_row (WbSession    *session,
                    sqlite3_stmt *stmt,
                    WbRun        *run,
                    GError      **error)
{
  g_autofree char *name = _wb_session_column_dup (stmt, 0);
  WbHostCall      *c = wb_host_call_new (name ? name : "?");

  wb_run_add_host_call (run, c);
  c->start_ns = sqlite3_column_int64 (stmt, 1);
  c->end_ns = sqlite3_column_int64 (stmt, 2);
  c->thread = (guint32) sqlite3_column_int64 (stmt, 3);
  c->iteration = (guint32) sqlite3_column_int64 (stmt, 4);
  c->correlation_id = (guint64) sqlite3_column_int64 (stmt, 5);
  return TRUE;
}

/* read_kernels: @run's kernel records and host calls, the calls linked to their kernels. */
static gboolean
read_kernels (WbSession *session,
              WbRun     *run,
              GError   **error)
{
  if (!read_run_rows (session, WB_STMT_KERNELS_GET, run, read_kernel_row, "reading kernel records", error) ||
      !read_run_rows (session, WB_STMT_HOST_CALLS_GET, run, read_host_call_row, "reading host calls", error))
    return FALSE;
  wb_run_link_host_calls (run);
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

  if (!read_run_rows (session, WB_STMT_REGION_STATS_GET, run, read_region_row, "reading region statistics", error))
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

GPtrArray *
wb_session_list_group_runs (WbSession         *session,
                            const char        *group,
                            WbSessionReadFlags flags,
                            GError           **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3_stmt *stmt;
  int           rc;

  g_return_val_if_fail (session != NULL, NULL);
  g_return_val_if_fail (group != NULL, NULL);

  if (!_wb_session_begin (session, FALSE, error))
    return NULL;
  stmt = _wb_session_stmt (session, WB_STMT_GROUP_RUNS, error);
  if (stmt == NULL)
    goto fail;
  _wb_session_bind_text (stmt, 1, group);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (ids, id);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      _wb_session_set_error (session, error, "listing the runs of a group");
      goto fail;
    }
  for (guint i = 0; i < ids->len; i++)
    {
      WbRun *run = read_run (session, g_array_index (ids, gint64, i), flags, error);

      if (run == NULL)
        goto fail;
      g_ptr_array_add (runs, run);
    }
  if (!_wb_session_commit (session, error))
    return NULL;
  return g_steal_pointer (&runs);

fail:
  _wb_session_rollback (session);
  return NULL;
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
