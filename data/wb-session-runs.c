/* wb-session-runs.c — storing a run (its row, region statistics and kernel records in one transaction) and
 * device ceilings in a session; wb-session-runs-read.c reads them back
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-session-private.h"

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

/* store_attribution: inside the run's transaction, its run_attribution row; none when it is empty (the
 * row's absence reads back as empty). */
static gboolean
store_attribution (WbSession                 *session,
                   gint64                     run_id,
                   const WbKernelAttribution *a,
                   GError                   **error)
{
  sqlite3_stmt *stmt;

  if (wb_kernel_attribution_is_empty (a))
    return TRUE;
  stmt = _wb_session_stmt (session, WB_STMT_ATTRIBUTION_INSERT, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run_id);
  _wb_session_bind_text (stmt, 2, a->kernel_source);
  sqlite3_bind_int64 (stmt, 3, a->kernel_ns_total);
  sqlite3_bind_int64 (stmt, 4, a->kernel_ns_attributed);
  sqlite3_bind_int64 (stmt, 5, a->kernel_ns_by_time_range);
  sqlite3_bind_int64 (stmt, 6, a->kernels_by_correlation);
  sqlite3_bind_int64 (stmt, 7, a->kernels_by_time_range);
  sqlite3_bind_int64 (stmt, 8, a->kernels_unattributed);
  sqlite3_bind_int64 (stmt, 9, a->memcpy_count);
  sqlite3_bind_int64 (stmt, 10, (sqlite3_int64) a->memcpy_bytes);
  sqlite3_bind_int64 (stmt, 11, a->memcpy_ns);
  sqlite3_bind_int64 (stmt, 12, a->memset_count);
  sqlite3_bind_int64 (stmt, 13, (sqlite3_int64) a->memset_bytes);
  sqlite3_bind_int64 (stmt, 14, a->memset_ns);
  sqlite3_bind_int64 (stmt, 15, a->memops_attributed);
  return _wb_session_step_done (session, stmt, "storing the kernel attribution", error);
}

/* store_ranks: inside the run's transaction, its run_ranks row; none for a run that is not distributed
 * (every multi-GPU field 0/NULL: the row's absence reads back so). */
static gboolean
store_ranks (WbSession   *session,
             gint64       run_id,
             const WbRun *run,
             GError     **error)
{
  sqlite3_stmt *stmt;

  if (run->rank == 0 && run->world_size <= 1 && run->clock_origin_ns == 0 && run->group == NULL)
    return TRUE;
  stmt = _wb_session_stmt (session, WB_STMT_RANKS_INSERT, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run_id);
  sqlite3_bind_int64 (stmt, 2, run->rank);
  sqlite3_bind_int64 (stmt, 3, run->world_size);
  sqlite3_bind_int64 (stmt, 4, run->clock_origin_ns);
  _wb_session_bind_text (stmt, 5, run->group);
  return _wb_session_step_done (session, stmt, "storing the run's rank", error);
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
      if (r->executor != NULL && !_wb_session_valid_name (r->executor))
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
  if (run->attribution.kernel_source != NULL && !g_utf8_validate (run->attribution.kernel_source, -1, NULL))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                   "%s: the run's kernel source is not valid UTF-8", session->path);
      return FALSE;
    }
  if (run->group != NULL && (*run->group == '\0' || !g_utf8_validate (run->group, -1, NULL)))
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                   "%s: the run's group id is empty or not valid UTF-8", session->path);
      return FALSE;
    }
  if (run->world_size > 1 && run->rank >= run->world_size)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID,
                   "%s: the run's rank %u is not below its world size %u", session->path, run->rank,
                   run->world_size);
      return FALSE;
    }
  return TRUE;
}

/* The run's per-region statistics (inside the transaction of wb_session_store_run) */
static gboolean
store_region_stats (StoreCache *cache, gint64 run_id, const WbRun *run, GError **error)
{
  WbSession    *session = cache->session;
  sqlite3_stmt *stmt;

  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);
      g_autoptr (GBytes) times = _wb_session_times_to_blob (r->times_ns);
      gint64 region_id = intern (cache, cache->regions, WB_STMT_REGION_FIND, WB_STMT_REGION_INSERT, r->name, error);

      if (region_id == 0)
        return FALSE;
      stmt = _wb_session_stmt (session, WB_STMT_REGION_STATS_INSERT, error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, run_id);
      sqlite3_bind_int64 (stmt, 2, i);
      sqlite3_bind_int64 (stmt, 3, region_id);
      _wb_session_bind_text (stmt, 4, r->executor);
      sqlite3_bind_int64 (stmt, 5, r->stage_line);
      sqlite3_bind_int64 (stmt, 6, r->median_ns);
      sqlite3_bind_int64 (stmt, 7, r->min_ns);
      sqlite3_bind_int64 (stmt, 8, r->max_ns);
      _wb_session_bind_blob (stmt, 9, times);
      sqlite3_bind_int64 (stmt, 10, r->kernel_count);
      sqlite3_bind_int64 (stmt, 11, (sqlite3_int64) r->bytes_moved);
      sqlite3_bind_int64 (stmt, 12, (sqlite3_int64) r->flops);
      _wb_session_bind_double (stmt, 13, r->share);
      _wb_session_bind_text (stmt, 14, r->key);
      _wb_session_bind_text (stmt, 15, r->contents);
      _wb_session_bind_text (stmt, 16, r->unfused_from);
      if (!_wb_session_step_done (session, stmt, "storing region statistics", error))
        return FALSE;
    }
  return TRUE;
}

/* The run's kernel records (inside the transaction of wb_session_store_run) */
static gboolean
store_kernel_records (StoreCache *cache, gint64 run_id, const WbRun *run, GError **error)
{
  WbSession    *session = cache->session;
  sqlite3_stmt *stmt;

  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);
      gint64                name_id;
      gint64                region_id = 0;

      name_id = intern (cache, cache->kernel_names, WB_STMT_KERNEL_NAME_FIND, WB_STMT_KERNEL_NAME_INSERT, k->name, error);
      if (name_id == 0)
        return FALSE;
      if (k->region != NULL)
        {
          region_id = intern (cache, cache->regions, WB_STMT_REGION_FIND, WB_STMT_REGION_INSERT, k->region, error);
          if (region_id == 0)
            return FALSE;
        }
      stmt = _wb_session_stmt (session, WB_STMT_KERNEL_INSERT, error);
      if (stmt == NULL)
        return FALSE;
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
        return FALSE;
    }
  return TRUE;
}

/* The run's host calls (inside the transaction of wb_session_store_run) */
static gboolean
store_host_calls (WbSession *session, gint64 run_id, const WbRun *run, GError **error)
{
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *c = g_ptr_array_index (run->host_calls, i);
      sqlite3_stmt     *stmt = _wb_session_stmt (session, WB_STMT_HOST_CALL_INSERT, error);

      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, run_id);
      sqlite3_bind_int64 (stmt, 2, i);
      _wb_session_bind_text (stmt, 3, c->name);
      sqlite3_bind_int64 (stmt, 4, c->start_ns);
      sqlite3_bind_int64 (stmt, 5, c->end_ns);
      sqlite3_bind_int64 (stmt, 6, c->thread);
      sqlite3_bind_int64 (stmt, 7, c->iteration);
      sqlite3_bind_int64 (stmt, 8, (sqlite3_int64) c->correlation_id);
      if (!_wb_session_step_done (session, stmt, "storing a host call", error))
        return FALSE;
    }
  return TRUE;
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
  versions = _wb_session_strings_to_json (run->executor_versions);
  iterations = _wb_session_times_to_blob (run->iteration_ns);
  choices = _wb_session_run_choices (run);

  if (!_wb_session_begin (session, TRUE, error))
    return 0;

  if (choices->len > 0)
    {
      assignment_id = _wb_session_ensure_assignment (session, _wb_session_valid_name (run->assignment) ? run->assignment : NULL,
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
  _wb_session_bind_blob (stmt, 17, iterations);
  sqlite3_bind_int64 (stmt, 18, wb_run_get_iteration_median_ns (run));
  sqlite3_bind_int64 (stmt, 19, (sqlite3_int64) run->dropped_records);
  sqlite3_bind_int64 (stmt, 20, run->regions->len);
  sqlite3_bind_int64 (stmt, 21, run->kernels->len);
  _wb_session_bind_text (stmt, 22, checksum);
  _wb_session_bind_text (stmt, 23, kernels_checksum);
  sqlite3_bind_int (stmt, 24, run->launch_list ? 1 : 0);
  if (!_wb_session_step_done (session, stmt, "storing a run", error))
    goto fail;
  run_id = sqlite3_last_insert_rowid (session->db);
  if (!store_attribution (session, run_id, &run->attribution, error) || !store_ranks (session, run_id, run, error))
    goto fail;

  if (!store_region_stats (&cache, run_id, run, error) || !store_kernel_records (&cache, run_id, run, error) ||
      !store_host_calls (session, run_id, run, error))
    goto fail;

  if (!_wb_session_commit (session, error))
    return 0;
  run->id = run_id;
  return run_id;

fail:
  _wb_session_rollback (session);
  return 0;
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
  _wb_session_bind_double (stmt, 2, ceilings->copy_gbps);
  _wb_session_bind_double (stmt, 3, ceilings->bf16_tflops);
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
      c = wb_device_ceilings_new (device_model, _wb_session_column_double (stmt, 0), _wb_session_column_double (stmt, 1));
      c->measured_at_us = sqlite3_column_int64 (stmt, 2);
    }
  else if (rc != SQLITE_DONE)
    _wb_session_set_error (session, error, "reading device ceilings");
  sqlite3_reset (stmt);
  return c;
}
