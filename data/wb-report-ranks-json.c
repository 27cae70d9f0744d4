/* wb-report-ranks-json.c — the report of a multi-GPU run as JSON ("thunder-wb/ranks-report",
 * docs/report-schema.md) and as a Chrome trace (one process per rank)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chrome trace: {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}. Timestamps in µs on
 * the common clock: each rank's kernel times plus its clock_origin_ns minus the smallest origin of the
 * ranks (otherData.aligned true), or each rank on its own clock when a rank has no origin (aligned false).
 * pid rank + 1, named "rank N — DEVICE", sorted by rank; its threads: tid 1 "iterations" (first kernel to
 * last, per timed iteration), tid 2 "regions" (one span per region and iteration, first kernel to last:
 * cat "collective" for collective calls, "region" otherwise) and tid 10 + N "stream N" (one event per
 * kernel: cat "collective" for communication kernels, "kernel" otherwise). */
#include "config.h"

#include <json-glib/json-glib.h>

#include "wb-report-private.h"
#include "wb-report-ranks-private.h"

#define TID_ITERATIONS 1
#define TID_REGIONS 2
#define TID_STREAM0 10

/* -- JSON ------------------------------------------------------------------------------------------ */

static void
add_collectives (JsonBuilder *b,
                 const WbRun *run)
{
  json_builder_set_member_name (b, "collective_regions");
  json_builder_begin_array (b);
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);

      if (!wb_run_region_is_collective (r))
        continue;
      json_builder_begin_object (b);
      _wb_json_add_string (b, "name", r->name);
      _wb_json_add_string (b, "executor", r->executor);
      _wb_json_add_int (b, "line", r->stage_line);
      _wb_json_add_ms (b, "median_ms", r->median_ns);
      _wb_json_add_int (b, "bytes", (gint64) r->bytes_moved);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_rank (JsonBuilder          *b,
          const WbRanksFigures *f,
          guint                 i)
{
  const WbRankRow *r = _wb_ranks_row (f, i);
  const WbRun     *run = r->run;

  json_builder_begin_object (b);
  _wb_json_add_int (b, "rank", run->rank);
  json_builder_set_member_name (b, "run_id");
  if (run->id > 0)
    json_builder_add_int_value (b, run->id);
  else
    json_builder_add_null_value (b);
  _wb_json_add_string (b, "device", run->device_name);
  _wb_json_add_string (b, "device_model", run->device_model);
  _wb_json_add_string (b, "status", wb_run_status_to_string (run->status));
  _wb_json_add_string (b, "error", run->error);
  _wb_json_add_int (b, "iterations", r->comm.iterations);
  _wb_json_add_int (b, "clock_origin_ns", run->clock_origin_ns);
  _wb_json_add_ms (b, "step_ms", r->step_ns);
  _wb_json_add_ms (b, "iteration_median_ms", r->iteration_ns);
  _wb_json_add_optional (b, "unprofiled_median_ms", run->unprofiled_median_ns > 0 ? _wb_report_ms (run->unprofiled_median_ns) : -1);
  _wb_json_add_ms (b, "compute_ms", r->comm.compute_ns);
  _wb_json_add_ms (b, "comm_ms", r->comm.comm_ns);
  _wb_json_add_optional (b, "peer_wait_ms", r->peer_wait_ns >= 0 ? _wb_report_ms (r->peer_wait_ns) : -1);
  _wb_json_add_ms (b, "overlap_ms", r->comm.overlap_ns);
  _wb_json_add_ms (b, "exposed_comm_ms", r->comm.exposed_comm_ns);
  _wb_json_add_optional (b, "exposed_comm_share", r->exposed_share);
  json_builder_set_member_name (b, "totals");
  json_builder_begin_object (b);
  _wb_json_add_ms (b, "compute_ms", r->comm.compute_ns_total);
  _wb_json_add_ms (b, "comm_ms", r->comm.comm_ns_total);
  _wb_json_add_ms (b, "overlap_ms", r->comm.overlap_ns_total);
  _wb_json_add_ms (b, "exposed_comm_ms", r->comm.exposed_comm_ns_total);
  json_builder_end_object (b);
  _wb_json_add_int (b, "comm_kernels", r->comm.comm_kernels);
  _wb_json_add_int (b, "collectives", r->comm.collective_calls);
  _wb_json_add_int (b, "collective_bytes", (gint64) r->comm.collective_bytes);
  _wb_json_add_ms (b, "collective_ms", r->comm.collective_ns);
  json_builder_set_member_name (b, "slowest");
  json_builder_add_boolean_value (b, (int) i == f->slowest);
  add_collectives (b, run);
  json_builder_end_object (b);
}

char *
wb_report_ranks_to_json (const GPtrArray *runs,
                         const char      *title)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  WbRanksFigures f;
  char          *text;

  g_return_val_if_fail (runs != NULL, NULL);
  _wb_ranks_figures_init (&f, runs);
  json_builder_begin_object (b);
  _wb_json_add_string (b, "schema", WB_RANKS_REPORT_SCHEMA);
  _wb_json_add_int (b, "schema_version", WB_RANKS_REPORT_SCHEMA_VERSION);
  _wb_json_add_string (b, "generator", "thunder-wb " PACKAGE_VERSION);
  _wb_json_add_string (b, "title", title);
  _wb_json_add_string (b, "group", f.group);
  _wb_json_add_string (b, "stage", f.stage);
  _wb_json_add_int (b, "world_size", f.world_size);
  json_builder_set_member_name (b, "aligned");
  json_builder_add_boolean_value (b, f.aligned);
  json_builder_set_member_name (b, "slowest_rank");
  if (f.slowest >= 0)
    json_builder_add_int_value (b, _wb_ranks_row (&f, f.slowest)->run->rank);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "step_spread_ms");
  if (f.slowest >= 0)
    json_builder_add_double_value (
        b, (double) (_wb_ranks_row (&f, f.slowest)->step_ns - _wb_ranks_row (&f, f.fastest)->step_ns) / 1e6);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint i = 0; i < f.rows->len; i++)
    add_rank (b, &f, i);
  json_builder_end_array (b);
  json_builder_end_object (b);
  text = _wb_json_finish (b, TRUE);
  _wb_ranks_figures_clear (&f);
  return text;
}

/* -- Chrome trace --------------------------------------------------------------------------------- */

static void
begin_event (JsonBuilder *b,
             const char  *ph,
             const char  *name,
             const char  *cat,
             guint        pid,
             guint        tid)
{
  json_builder_begin_object (b);
  _wb_json_add_string (b, "name", name ? name : "?");
  _wb_json_add_string (b, "ph", ph);
  if (cat != NULL)
    _wb_json_add_string (b, "cat", cat);
  _wb_json_add_int (b, "pid", pid);
  _wb_json_add_int (b, "tid", tid);
}

static void
metadata (JsonBuilder *b,
          const char  *what,
          guint        pid,
          guint        tid,
          const char  *name,
          int          sort_index)
{
  gboolean process = g_str_has_prefix (what, "process");

  begin_event (b, "M", what, NULL, pid, tid);
  _wb_json_add_double (b, "ts", 0);
  json_builder_set_member_name (b, "args");
  json_builder_begin_object (b);
  _wb_json_add_string (b, "name", name);
  json_builder_end_object (b);
  json_builder_end_object (b);
  begin_event (b, "M", process ? "process_sort_index" : "thread_sort_index", NULL, pid, tid);
  _wb_json_add_double (b, "ts", 0);
  json_builder_set_member_name (b, "args");
  json_builder_begin_object (b);
  _wb_json_add_int (b, "sort_index", sort_index);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static void
add_span (JsonBuilder *b,
          const char  *name,
          const char  *cat,
          guint        pid,
          guint        tid,
          gint64       start_ns,
          gint64       end_ns)
{
  begin_event (b, "X", name, cat, pid, tid);
  _wb_json_add_double (b, "ts", (double) start_ns / 1000.0);
  _wb_json_add_double (b, "dur", (double) MAX (end_ns - start_ns, 0) / 1000.0);
}

typedef struct
{
  gint64  start, end;
  guint32 iteration;
  char   *region;
} Span;

static void
span_free (gpointer data)
{
  Span *s = data;

  g_free (s->region);
  g_free (s);
}

/* One rank: its names, its iterations, its regions' spans and its kernels, shifted by @offset ns */
static void
add_rank_events (JsonBuilder *b,
                 const WbRun *run,
                 gint64       offset)
{
  guint pid = run->rank + 1;
  g_autoptr (GHashTable) streams = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) spans = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new_with_free_func (span_free);
  g_autoptr (GArray) lo = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) hi = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *process = g_strdup_printf ("rank %u — %s", run->rank, run->device_name ? run->device_name : "device");
  g_autoptr (GHashTable) shown = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  metadata (b, "process_name", pid, 0, process, (int) run->rank);
  metadata (b, "thread_name", pid, TID_ITERATIONS, "iterations", 0);
  metadata (b, "thread_name", pid, TID_REGIONS, "regions", 1);
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);
      gboolean              comm = wb_kernel_record_is_communication (run, k);
      const char           *cat = comm ? "collective" : "kernel";
      gint64                start = k->start_ns + offset, end = k->end_ns + offset;
      const char           *name = k->name ? g_hash_table_lookup (shown, k->name) : NULL;

      if (g_hash_table_add (streams, GUINT_TO_POINTER (k->stream + 1)))
        {
          g_autofree char *name = g_strdup_printf ("stream %u", k->stream);

          metadata (b, "thread_name", pid, TID_STREAM0 + k->stream, name, 2 + (int) MIN (k->stream, 1000000));
        }
      if (k->name != NULL && name == NULL)
        {
          name = wb_report_demangle (k->name);
          g_hash_table_insert (shown, k->name, (char *) name);
        }
      add_span (b, name, cat, pid, TID_STREAM0 + k->stream, start, end);
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      _wb_json_add_string (b, "region", k->region);
      _wb_json_add_int (b, "line", k->trace_line);
      _wb_json_add_int (b, "iteration", k->iteration);
      _wb_json_add_int (b, "stream", k->stream);
      _wb_json_add_int (b, "rank", run->rank);
      json_builder_end_object (b);
      json_builder_end_object (b);

      if (k->iteration < 100000)
        {
          guint old = lo->len;

          if (k->iteration >= lo->len)
            {
              g_array_set_size (lo, k->iteration + 1);
              g_array_set_size (hi, k->iteration + 1);
              for (guint it = old; it < lo->len; it++)
                {
                  g_array_index (lo, gint64, it) = G_MAXINT64;
                  g_array_index (hi, gint64, it) = G_MININT64;
                }
            }
          g_array_index (lo, gint64, k->iteration) = MIN (g_array_index (lo, gint64, k->iteration), start);
          g_array_index (hi, gint64, k->iteration) = MAX (g_array_index (hi, gint64, k->iteration), end);
        }
      if (k->region != NULL)
        {
          g_autofree char *span_key = g_strdup_printf ("%u\x1f%s", k->iteration, k->region);
          Span            *s = g_hash_table_lookup (spans, span_key);

          if (s == NULL)
            {
              s = g_new0 (Span, 1);
              s->region = g_strdup (k->region);
              s->iteration = k->iteration;
              s->start = start;
              s->end = end;
              g_ptr_array_add (order, s);
              g_hash_table_insert (spans, g_steal_pointer (&span_key), s);
            }
          s->start = MIN (s->start, start);
          s->end = MAX (s->end, end);
        }
    }
  for (guint it = 0; it < lo->len; it++)
    {
      g_autofree char *name = g_strdup_printf ("iteration %u", it);

      if (g_array_index (lo, gint64, it) > g_array_index (hi, gint64, it))
        continue;
      add_span (b, name, "iteration", pid, TID_ITERATIONS, g_array_index (lo, gint64, it), g_array_index (hi, gint64, it));
      json_builder_end_object (b);
    }
  for (guint i = 0; i < order->len; i++)
    {
      const Span          *s = g_ptr_array_index (order, i);
      const WbRegionStats *st = wb_run_find_region (run, s->region);
      gboolean             collective = wb_run_region_is_collective (st);

      add_span (b, s->region, collective ? "collective" : "region", pid, TID_REGIONS, s->start, s->end);
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      _wb_json_add_string (b, "executor", st ? st->executor : NULL);
      _wb_json_add_int (b, "iteration", s->iteration);
      _wb_json_add_string (b, "kind", collective ? "collective" : "region");
      if (collective)
        _wb_json_add_int (b, "bytes", (gint64) st->bytes_moved);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
}

char *
wb_report_ranks_to_chrome_trace (const GPtrArray *runs,
                                 const char      *title)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  WbRanksFigures f;
  char          *text;

  g_return_val_if_fail (runs != NULL, NULL);
  _wb_ranks_figures_init (&f, runs);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "traceEvents");
  json_builder_begin_array (b);
  for (guint i = 0; i < f.rows->len; i++)
    add_rank_events (b, _wb_ranks_row (&f, i)->run, _wb_ranks_offset_ns (&f, _wb_ranks_row (&f, i)->run));
  json_builder_end_array (b);
  _wb_json_add_string (b, "displayTimeUnit", "ms");
  json_builder_set_member_name (b, "otherData");
  json_builder_begin_object (b);
  _wb_json_add_string (b, "generator", "thunder-wb " PACKAGE_VERSION);
  _wb_json_add_string (b, "title", title);
  _wb_json_add_string (b, "group", f.group);
  _wb_json_add_string (b, "stage", f.stage);
  _wb_json_add_int (b, "world_size", f.world_size);
  json_builder_set_member_name (b, "aligned");
  json_builder_add_boolean_value (b, f.aligned);
  _wb_json_add_int (b, "clock_origin_ns", f.origin_ns);
  _wb_json_add_string (b, "time_origin", f.aligned ? "the earliest rank's clock 0 (host CLOCK_MONOTONIC, clock_origin_ns)" : "each rank's own clock 0 (a rank has no clock origin)");
  json_builder_end_object (b);
  json_builder_end_object (b);
  text = _wb_json_finish (b, FALSE);
  _wb_ranks_figures_clear (&f);
  return text;
}
