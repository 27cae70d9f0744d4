/* wb-run.c — a profiling run as plain data: constructors, copies, order statistics, checksum
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-profiler.h"

const char *
wb_run_status_to_string (WbRunStatus status)
{
  switch (status)
    {
    case WB_RUN_STATUS_OK:
      return "ok";
    case WB_RUN_STATUS_FAILED:
      return "failed";
    default:
      return "unknown";
    }
}

gboolean
wb_run_status_from_string (const char  *text,
                           WbRunStatus *status)
{
  g_return_val_if_fail (status != NULL, FALSE);

  if (g_strcmp0 (text, "ok") == 0)
    *status = WB_RUN_STATUS_OK;
  else if (g_strcmp0 (text, "failed") == 0)
    *status = WB_RUN_STATUS_FAILED;
  else
    return FALSE;
  return TRUE;
}

/* -- kernel records ------------------------------------------------------------------------------ */

WbKernelRecord *
wb_kernel_record_new (const char *name,
                      const char *region)
{
  WbKernelRecord *record = g_new0 (WbKernelRecord, 1);

  record->name = g_strdup (name);
  record->region = g_strdup (region);
  return record;
}

WbKernelRecord *
wb_kernel_record_copy (const WbKernelRecord *record)
{
  WbKernelRecord *copy;

  g_return_val_if_fail (record != NULL, NULL);

  copy = g_memdup2 (record, sizeof *record);
  copy->name = g_strdup (record->name);
  copy->region = g_strdup (record->region);
  return copy;
}

void
wb_kernel_record_free (WbKernelRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->name);
  g_free (record->region);
  g_free (record);
}

/* -- region statistics --------------------------------------------------------------------------- */

static GArray *
new_times_array (void)
{
  return g_array_new (FALSE, FALSE, sizeof (gint64));
}

static GArray *
copy_times_array (const GArray *times)
{
  GArray *copy = new_times_array ();

  if (times != NULL && times->len > 0)
    g_array_append_vals (copy, times->data, times->len);
  return copy;
}

WbRegionStats *
wb_region_stats_new (const char *name,
                     const char *executor)
{
  WbRegionStats *stats = g_new0 (WbRegionStats, 1);

  stats->name = g_strdup (name);
  stats->executor = g_strdup (executor);
  stats->times_ns = new_times_array ();
  return stats;
}

WbRegionStats *
wb_region_stats_copy (const WbRegionStats *stats)
{
  WbRegionStats *copy;

  g_return_val_if_fail (stats != NULL, NULL);

  copy = g_memdup2 (stats, sizeof *stats);
  copy->name = g_strdup (stats->name);
  copy->executor = g_strdup (stats->executor);
  copy->times_ns = copy_times_array (stats->times_ns);
  copy->key = g_strdup (stats->key);
  copy->contents = g_strdup (stats->contents);
  copy->unfused_from = g_strdup (stats->unfused_from);
  return copy;
}

void
wb_region_stats_free (WbRegionStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->name);
  g_free (stats->executor);
  g_free (stats->key);
  g_free (stats->contents);
  g_free (stats->unfused_from);
  g_clear_pointer (&stats->times_ns, g_array_unref);
  g_free (stats);
}

void
wb_region_stats_add_time (WbRegionStats *stats,
                          gint64         time_ns)
{
  g_return_if_fail (stats != NULL);
  g_array_append_val (stats->times_ns, time_ns);
}

void
wb_region_stats_update (WbRegionStats *stats)
{
  const gint64 *t;
  guint         n;

  g_return_if_fail (stats != NULL);

  n = stats->times_ns->len;
  t = (const gint64 *) stats->times_ns->data;
  stats->median_ns = wb_times_median_ns (t, n);
  stats->min_ns = stats->max_ns = 0;
  for (guint i = 0; i < n; i++)
    {
      if (i == 0 || t[i] < stats->min_ns)
        stats->min_ns = t[i];
      if (i == 0 || t[i] > stats->max_ns)
        stats->max_ns = t[i];
    }
}

/* -- kernel attribution -------------------------------------------------------------------------- */

gboolean
wb_kernel_attribution_is_empty (const WbKernelAttribution *a)
{
  g_return_val_if_fail (a != NULL, TRUE);
  return a->kernel_source == NULL && a->kernel_ns_total == 0 && a->kernel_ns_attributed == 0 &&
         a->kernel_ns_by_time_range == 0 && a->kernels_by_correlation == 0 && a->kernels_by_time_range == 0 &&
         a->kernels_unattributed == 0 && a->memcpy_count == 0 && a->memcpy_bytes == 0 && a->memcpy_ns == 0 &&
         a->memset_count == 0 && a->memset_bytes == 0 && a->memset_ns == 0 && a->memops_attributed == 0;
}

void
wb_kernel_attribution_clear (WbKernelAttribution *a)
{
  g_return_if_fail (a != NULL);
  g_free (a->kernel_source);
  memset (a, 0, sizeof *a);
}

/* -- runs ---------------------------------------------------------------------------------------- */

WbRun *
wb_run_new (void)
{
  WbRun *run = g_new0 (WbRun, 1);

  run->status = WB_RUN_STATUS_OK;
  run->start_time_us = g_get_real_time ();
  run->executor_versions = g_ptr_array_new_with_free_func (g_free);
  run->iteration_ns = new_times_array ();
  run->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_region_stats_free);
  run->kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
  run->host_calls = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_host_call_free);
  return run;
}

WbRun *
wb_run_copy (const WbRun *run)
{
  WbRun *copy;

  g_return_val_if_fail (run != NULL, NULL);

  copy = wb_run_new ();
  copy->id = run->id;
  copy->label = g_strdup (run->label);
  copy->device_name = g_strdup (run->device_name);
  copy->device_model = g_strdup (run->device_model);
  copy->driver_version = g_strdup (run->driver_version);
  for (guint i = 0; i < run->executor_versions->len; i++)
    g_ptr_array_add (copy->executor_versions, g_strdup (g_ptr_array_index (run->executor_versions, i)));
  copy->iters = run->iters;
  copy->warmup = run->warmup;
  copy->cuda_graphs = run->cuda_graphs;
  copy->launch_list = run->launch_list;
  copy->device_step_peak_bytes = run->device_step_peak_bytes;
  copy->memory = run->memory;
  copy->unprofiled_median_ns = run->unprofiled_median_ns;
  copy->executors = g_strdup (run->executors);
  copy->assignment = g_strdup (run->assignment);
  copy->stage = g_strdup (run->stage);
  copy->status = run->status;
  copy->error = g_strdup (run->error);
  copy->start_time_us = run->start_time_us;
  g_array_append_vals (copy->iteration_ns, run->iteration_ns->data, run->iteration_ns->len);
  copy->dropped_records = run->dropped_records;
  for (guint i = 0; i < run->regions->len; i++)
    g_ptr_array_add (copy->regions, wb_region_stats_copy (g_ptr_array_index (run->regions, i)));
  for (guint i = 0; i < run->kernels->len; i++)
    g_ptr_array_add (copy->kernels, wb_kernel_record_copy (g_ptr_array_index (run->kernels, i)));
  for (guint i = 0; i < run->host_calls->len; i++)
    g_ptr_array_add (copy->host_calls, wb_host_call_copy (g_ptr_array_index (run->host_calls, i)));
  copy->attribution = run->attribution;
  copy->attribution.kernel_source = g_strdup (run->attribution.kernel_source);
  copy->rank = run->rank;
  copy->world_size = run->world_size;
  copy->clock_origin_ns = run->clock_origin_ns;
  copy->group = g_strdup (run->group);
  return copy;
}

void
wb_run_free (WbRun *run)
{
  if (run == NULL)
    return;
  g_free (run->label);
  g_free (run->device_name);
  g_free (run->device_model);
  g_free (run->driver_version);
  g_clear_pointer (&run->executor_versions, g_ptr_array_unref);
  g_free (run->executors);
  g_free (run->assignment);
  g_free (run->stage);
  g_free (run->error);
  g_clear_pointer (&run->iteration_ns, g_array_unref);
  g_clear_pointer (&run->regions, g_ptr_array_unref);
  g_clear_pointer (&run->kernels, g_ptr_array_unref);
  g_clear_pointer (&run->host_calls, g_ptr_array_unref);
  g_free (run->attribution.kernel_source);
  g_free (run->group);
  g_free (run);
}

void
wb_run_add_iteration (WbRun *run,
                      gint64 time_ns)
{
  g_return_if_fail (run != NULL);
  g_array_append_val (run->iteration_ns, time_ns);
}

void
wb_run_add_region (WbRun         *run,
                   WbRegionStats *stats)
{
  g_return_if_fail (run != NULL);
  g_return_if_fail (stats != NULL);
  g_ptr_array_add (run->regions, stats);
}

void
wb_run_add_kernel (WbRun          *run,
                   WbKernelRecord *record)
{
  g_return_if_fail (run != NULL);
  g_return_if_fail (record != NULL);
  g_ptr_array_add (run->kernels, record);
}

void
wb_run_add_executor_version (WbRun      *run,
                             const char *name,
                             const char *version)
{
  g_return_if_fail (run != NULL);
  g_return_if_fail (name != NULL);
  g_ptr_array_add (run->executor_versions, g_strdup_printf ("%s=%s", name, version ? version : ""));
}

WbRegionStats *
wb_run_find_region (const WbRun *run,
                    const char  *name)
{
  g_return_val_if_fail (run != NULL, NULL);

  for (guint i = 0; i < run->regions->len; i++)
    {
      WbRegionStats *stats = g_ptr_array_index (run->regions, i);

      if (g_strcmp0 (stats->name, name) == 0)
        return stats;
    }
  return NULL;
}

gint64
wb_run_get_iteration_median_ns (const WbRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return wb_times_median_ns ((const gint64 *) run->iteration_ns->data, run->iteration_ns->len);
}

/* -- checksum ------------------------------------------------------------------------------------ */

/* Every field goes in with a one-byte tag and a fixed-size or length-prefixed encoding, so that no two
 * different runs serialize to the same bytes. */
static void
sum_u64 (GChecksum *sum,
         guint64    value)
{
  guint8 bytes[9];

  bytes[0] = 'i';
  for (int i = 0; i < 8; i++)
    bytes[1 + i] = (guint8) (value >> (8 * i));
  g_checksum_update (sum, bytes, sizeof bytes);
}

static void
sum_double (GChecksum *sum,
            double     value)
{
  guint64 bits;

  /* SQLite stores NaN as NULL and may turn -0.0 into 0: hash what survives the round trip. */
  if (isnan (value))
    value = NAN;
  if (value == 0.0)
    value = 0.0;
  memcpy (&bits, &value, sizeof bits);
  sum_u64 (sum, bits);
}

static void
sum_string (GChecksum  *sum,
            const char *value)
{
  if (value == NULL)
    {
      g_checksum_update (sum, (const guchar *) "n", 1);
      return;
    }
  g_checksum_update (sum, (const guchar *) "s", 1);
  sum_u64 (sum, strlen (value));
  g_checksum_update (sum, (const guchar *) value, strlen (value));
}

static void
sum_times (GChecksum    *sum,
           const GArray *times)
{
  sum_u64 (sum, times->len);
  for (guint i = 0; i < times->len; i++)
    sum_u64 (sum, (guint64) g_array_index (times, gint64, i));
}

static void
sum_kernels (GChecksum   *sum,
             const WbRun *run)
{
  g_checksum_update (sum, (const guchar *) "wb-kernels-1", 12);
  sum_u64 (sum, run->kernels->len);
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      sum_string (sum, k->name);
      sum_string (sum, k->region);
      sum_u64 (sum, k->trace_line);
      sum_u64 (sum, k->stream);
      for (int d = 0; d < 3; d++)
        sum_u64 (sum, k->grid[d]);
      for (int d = 0; d < 3; d++)
        sum_u64 (sum, k->block[d]);
      sum_u64 (sum, k->registers);
      sum_u64 (sum, k->shared_bytes);
      sum_u64 (sum, (guint64) k->start_ns);
      sum_u64 (sum, (guint64) k->end_ns);
      sum_u64 (sum, k->iteration);
      sum_u64 (sum, k->correlation_id);
    }
  /* only when there are any: the checksums of runs without host calls stay what they were */
  if (run->host_calls->len == 0)
    return;
  g_checksum_update (sum, (const guchar *) "wb-host-calls-1", 15);
  sum_u64 (sum, run->host_calls->len);
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *c = g_ptr_array_index (run->host_calls, i);

      sum_string (sum, c->name);
      sum_u64 (sum, (guint64) c->start_ns);
      sum_u64 (sum, (guint64) c->end_ns);
      sum_u64 (sum, c->thread);
      sum_u64 (sum, c->iteration);
      sum_u64 (sum, c->correlation_id);
    }
}

/* Nothing for an empty attribution: runs stored before sessions kept it keep their checksums. */
static void
sum_attribution (GChecksum                 *sum,
                 const WbKernelAttribution *a)
{
  if (wb_kernel_attribution_is_empty (a))
    return;
  g_checksum_update (sum, (const guchar *) "wb-attribution-1", 16);
  sum_string (sum, a->kernel_source);
  sum_u64 (sum, (guint64) a->kernel_ns_total);
  sum_u64 (sum, (guint64) a->kernel_ns_attributed);
  sum_u64 (sum, (guint64) a->kernel_ns_by_time_range);
  sum_u64 (sum, a->kernels_by_correlation);
  sum_u64 (sum, a->kernels_by_time_range);
  sum_u64 (sum, a->kernels_unattributed);
  sum_u64 (sum, a->memcpy_count);
  sum_u64 (sum, a->memcpy_bytes);
  sum_u64 (sum, (guint64) a->memcpy_ns);
  sum_u64 (sum, a->memset_count);
  sum_u64 (sum, a->memset_bytes);
  sum_u64 (sum, (guint64) a->memset_ns);
  sum_u64 (sum, a->memops_attributed);
}

/* Nothing for a run that is not distributed (every multi-GPU field 0/NULL): older runs keep their checksums.
 * Any field set adds all four, so a world_size-1 run with a clock origin still differs from one without. */
static void
sum_distribution (GChecksum   *sum,
                  const WbRun *run)
{
  if (run->rank == 0 && run->world_size <= 1 && run->clock_origin_ns == 0 && run->group == NULL)
    return;
  g_checksum_update (sum, (const guchar *) "wb-ranks-1", 10);
  sum_u64 (sum, run->rank);
  sum_u64 (sum, run->world_size);
  sum_u64 (sum, (guint64) run->clock_origin_ns);
  sum_string (sum, run->group);
}

char *
wb_run_compute_checksum (const WbRun      *run,
                         WbRunChecksumPart part)
{
  g_autoptr (GChecksum) sum = NULL;

  g_return_val_if_fail (run != NULL, NULL);

  sum = g_checksum_new (G_CHECKSUM_SHA256);
  if (part == WB_RUN_CHECKSUM_KERNELS)
    {
      sum_kernels (sum, run);
      return g_strdup (g_checksum_get_string (sum));
    }

  g_checksum_update (sum, (const guchar *) "wb-run-1", 8);
  sum_string (sum, run->label);
  sum_string (sum, run->device_name);
  sum_string (sum, run->device_model);
  sum_string (sum, run->driver_version);
  sum_u64 (sum, run->executor_versions->len);
  for (guint i = 0; i < run->executor_versions->len; i++)
    sum_string (sum, g_ptr_array_index (run->executor_versions, i));
  sum_u64 (sum, run->iters);
  sum_u64 (sum, run->warmup);
  sum_u64 (sum, run->cuda_graphs ? 1 : 0);
  if (run->launch_list) /* only when set: the checksums of runs stored before it existed stay what they were */
    sum_u64 (sum, 2);
  sum_string (sum, run->executors);
  sum_string (sum, run->assignment);
  sum_string (sum, run->stage);
  sum_u64 (sum, run->status);
  sum_string (sum, run->error);
  sum_u64 (sum, (guint64) run->start_time_us);
  sum_times (sum, run->iteration_ns);
  sum_u64 (sum, run->dropped_records);

  sum_u64 (sum, run->regions->len);
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);

      sum_string (sum, r->name);
      sum_string (sum, r->executor);
      sum_u64 (sum, r->stage_line);
      sum_u64 (sum, (guint64) r->median_ns);
      sum_u64 (sum, (guint64) r->min_ns);
      sum_u64 (sum, (guint64) r->max_ns);
      sum_times (sum, r->times_ns);
      sum_u64 (sum, r->kernel_count);
      sum_u64 (sum, r->bytes_moved);
      sum_u64 (sum, r->flops);
      sum_double (sum, r->share);
      /* only when set: the checksums of runs stored before keys existed stay what they were */
      if (r->key != NULL || r->contents != NULL)
        {
          sum_string (sum, r->key);
          sum_string (sum, r->contents);
        }
      if (r->unfused_from != NULL)
        sum_string (sum, r->unfused_from);
    }
  sum_attribution (sum, &run->attribution);
  sum_distribution (sum, run);

  return g_strdup (g_checksum_get_string (sum));
}

gboolean
wb_run_equal (const WbRun *a,
              const WbRun *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  for (WbRunChecksumPart part = WB_RUN_CHECKSUM_SUMMARY; part <= WB_RUN_CHECKSUM_KERNELS; part++)
    {
      g_autofree char *sa = wb_run_compute_checksum (a, part);
      g_autofree char *sb = wb_run_compute_checksum (b, part);

      if (strcmp (sa, sb) != 0)
        return FALSE;
    }
  return TRUE;
}

/* -- device ceilings ----------------------------------------------------------------------------- */

WbDeviceCeilings *
wb_device_ceilings_new (const char *device_model,
                        double      copy_gbps,
                        double      bf16_tflops)
{
  WbDeviceCeilings *c = g_new0 (WbDeviceCeilings, 1);

  c->device_model = g_strdup (device_model);
  c->copy_gbps = copy_gbps;
  c->bf16_tflops = bf16_tflops;
  c->measured_at_us = g_get_real_time ();
  return c;
}

WbDeviceCeilings *
wb_device_ceilings_copy (const WbDeviceCeilings *ceilings)
{
  WbDeviceCeilings *copy;

  g_return_val_if_fail (ceilings != NULL, NULL);

  copy = g_memdup2 (ceilings, sizeof *ceilings);
  copy->device_model = g_strdup (ceilings->device_model);
  return copy;
}

void
wb_device_ceilings_free (WbDeviceCeilings *ceilings)
{
  if (ceilings == NULL)
    return;
  g_free (ceilings->device_model);
  g_free (ceilings);
}

/* -- order statistics ---------------------------------------------------------------------------- */

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static gint64 *
sorted_copy (const gint64 *times,
             gsize         n)
{
  gint64 *sorted = g_memdup2 (times, n * sizeof (gint64));

  qsort (sorted, n, sizeof (gint64), compare_gint64);
  return sorted;
}

gint64
wb_times_median_ns (const gint64 *times,
                    gsize         n)
{
  g_autofree gint64 *s = NULL;

  if (n == 0)
    return 0;
  g_return_val_if_fail (times != NULL, 0);

  s = sorted_copy (times, n);
  if (n % 2 == 1)
    return s[n / 2];
  /* The mean of the middle two without overflow, rounded down. */
  return s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2;
}

static gint64
interpolate (const gint64 *sorted,
             gsize         n,
             double        q)
{
  double pos = q * (double) (n - 1);
  gsize  lo = (gsize) floor (pos);
  gsize  hi = MIN (lo + 1, n - 1);
  double frac = pos - (double) lo;

  return sorted[lo] + (gint64) llround (frac * (double) (sorted[hi] - sorted[lo]));
}

void
wb_times_quartiles_ns (const gint64 *times,
                       gsize         n,
                       gint64       *q1,
                       gint64       *q3)
{
  g_autofree gint64 *s = NULL;

  g_return_if_fail (q1 != NULL && q3 != NULL);

  *q1 = *q3 = 0;
  if (n == 0)
    return;
  g_return_if_fail (times != NULL);

  s = sorted_copy (times, n);
  *q1 = interpolate (s, n, 0.25);
  *q3 = interpolate (s, n, 0.75);
}

WbRegionStats *
wb_run_find_region_by_key (const WbRun *run, const char *key)
{
  g_return_val_if_fail (run != NULL, NULL);
  for (guint i = 0; key != NULL && i < run->regions->len; i++)
    {
      WbRegionStats *s = run->regions->pdata[i];

      if (g_strcmp0 (s->key, key) == 0)
        return s;
    }
  return NULL;
}

gboolean
wb_run_has_keys (const WbRun *run)
{
  g_return_val_if_fail (run != NULL, FALSE);
  for (guint i = 0; i < run->regions->len; i++)
    if (((WbRegionStats *) run->regions->pdata[i])->key != NULL)
      return TRUE;
  return FALSE;
}
