/* wb-report-chrome.c — the run as Chrome trace event JSON, for Perfetto and chrome://tracing
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}. Timestamps in µs since the first
 * timed iteration began. One process per device (pid 1: the run's device), named by "M" metadata events;
 * its threads: tid 1 "iterations" (each timed iteration, from its first kernel to its last), tid 2
 * "regions" (one "X" span per region and iteration, from its first kernel to its last, args region,
 * executor, stage, line, iteration, kind), and tid 10 + N "stream N" (one "X" event per kernel record,
 * args region, line, iteration, stream, correlation). Every kernel with a region has a flow from its
 * region's span: an "s" event on the regions thread at the span's start and an "f" event (bp "e") at the
 * kernel's start, with the same id (cat "region-kernel"). A GPU run's host calls (WbHostCall: the CUDA API
 * calls of its traced iterations) are one thread per host thread, tid 1000000 + N, named "CUDA API (thread
 * T)" and sorted above the streams: an "X" event per call (cat "cuda_api", args iteration, thread,
 * correlation and, when correlation joins one, kernel (the first it launched, as shown) and kernels).
 * otherData holds the generator, title, stage, device, iterations, the time origin, host_calls (their
 * count) and, for GPU runs, kernel_source (where the kernel records came from). */
#include "config.h"

#include <json-glib/json-glib.h>

#include "wb-report-private.h"

#define PID 1
#define TID_ITERATIONS 1
#define TID_REGIONS 2
#define TID_STREAM0 10
#define TID_HOST0 1000000

typedef struct
{
  char   *region;
  guint   iteration;
  gint64  start;
  gint64  end;
  guint32 line;
} Span;

static void
span_free (gpointer data)
{
  Span *s = data;

  g_free (s->region);
  g_free (s);
}

static double
us (gint64 ns)
{
  return (double) ns / 1000.0;
}

static void
begin_event (JsonBuilder *b, const char *ph, const char *name, const char *cat, guint tid)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name ? name : "?");
  json_builder_set_member_name (b, "ph");
  json_builder_add_string_value (b, ph);
  if (cat != NULL)
    {
      json_builder_set_member_name (b, "cat");
      json_builder_add_string_value (b, cat);
    }
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, PID);
  json_builder_set_member_name (b, "tid");
  json_builder_add_int_value (b, tid);
}

static void
add_ts (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

static void
add_arg_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_arg_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
metadata (JsonBuilder *b, const char *what, guint tid, const char *name, int sort_index)
{
  g_autofree char *sort = g_strdup_printf ("%s_sort_index", g_str_has_prefix (what, "process") ? "process" : "thread");

  begin_event (b, "M", what, NULL, tid);
  add_ts (b, "ts", 0);
  json_builder_set_member_name (b, "args");
  json_builder_begin_object (b);
  add_arg_string (b, "name", name);
  json_builder_end_object (b);
  json_builder_end_object (b);

  begin_event (b, "M", sort, NULL, tid);
  add_ts (b, "ts", 0);
  json_builder_set_member_name (b, "args");
  json_builder_begin_object (b);
  add_arg_int (b, "sort_index", sort_index);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

/* What the events are made from: each region's span per iteration, each iteration's first kernel start
 * and last kernel end, the streams the kernels ran on */
typedef struct
{
  GPtrArray  *spans;      /* Span, in the order of their first kernel */
  GHashTable *span_index; /* "ITERATION\x1fREGION" (owned) -> the span's index + 1 */
  GHashTable *streams;    /* stream + 1 */
  GArray     *iter_lo, *iter_hi;
  guint       n_iters;
  GArray     *host_threads; /* guint32: the host calls' threads, in order of first call */
} Timeline;

static void
timeline_init (Timeline *tl, const WbReport *report)
{
  const WbRun *run = report->run;

  tl->spans = g_ptr_array_new_with_free_func (span_free);
  tl->span_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  tl->streams = g_hash_table_new (g_direct_hash, g_direct_equal);
  tl->iter_lo = g_array_new (FALSE, TRUE, sizeof (gint64));
  tl->iter_hi = g_array_new (FALSE, TRUE, sizeof (gint64));
  tl->n_iters = MAX (report->n_iters, 1);
  g_array_set_size (tl->iter_lo, tl->n_iters);
  g_array_set_size (tl->iter_hi, tl->n_iters);
  for (guint i = 0; i < tl->n_iters; i++)
    {
      g_array_index (tl->iter_lo, gint64, i) = G_MAXINT64;
      g_array_index (tl->iter_hi, gint64, i) = G_MININT64;
    }

  /* region spans per (iteration, region) */
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];
      guint                 it = MIN (k->iteration, tl->n_iters - 1);

      g_hash_table_add (tl->streams, GUINT_TO_POINTER (k->stream + 1));
      g_array_index (tl->iter_lo, gint64, it) = MIN (g_array_index (tl->iter_lo, gint64, it), k->start_ns);
      g_array_index (tl->iter_hi, gint64, it) = MAX (g_array_index (tl->iter_hi, gint64, it), k->end_ns);
      if (k->region != NULL)
        {
          g_autofree char *key = g_strdup_printf ("%u\x1f%s", k->iteration, k->region);
          gpointer         index = g_hash_table_lookup (tl->span_index, key);
          Span            *s;

          if (index == NULL)
            {
              s = g_new0 (Span, 1);
              s->region = g_strdup (k->region);
              s->iteration = k->iteration;
              s->start = k->start_ns;
              s->end = k->end_ns;
              s->line = k->trace_line;
              g_ptr_array_add (tl->spans, s);
              g_hash_table_insert (tl->span_index, g_steal_pointer (&key), GUINT_TO_POINTER (tl->spans->len));
            }
          else
            {
              s = tl->spans->pdata[GPOINTER_TO_UINT (index) - 1];
              s->start = MIN (s->start, k->start_ns);
              s->end = MAX (s->end, k->end_ns);
            }
        }
    }
  if (g_hash_table_size (tl->streams) == 0)
    g_hash_table_add (tl->streams, GUINT_TO_POINTER (1));
  tl->host_threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];
      gboolean          seen = FALSE;

      for (guint t = 0; t < tl->host_threads->len && !seen; t++)
        seen = g_array_index (tl->host_threads, guint32, t) == c->thread;
      if (!seen)
        g_array_append_val (tl->host_threads, c->thread);
    }
}

/* the tid of host thread @thread */
static guint
host_tid (const Timeline *tl, guint32 thread)
{
  for (guint t = 0; t < tl->host_threads->len; t++)
    if (g_array_index (tl->host_threads, guint32, t) == thread)
      return TID_HOST0 + t;
  return TID_HOST0;
}

static void
timeline_clear (Timeline *tl)
{
  g_clear_pointer (&tl->spans, g_ptr_array_unref);
  g_clear_pointer (&tl->span_index, g_hash_table_unref);
  g_clear_pointer (&tl->streams, g_hash_table_unref);
  g_clear_pointer (&tl->iter_lo, g_array_unref);
  g_clear_pointer (&tl->iter_hi, g_array_unref);
  g_clear_pointer (&tl->host_threads, g_array_unref);
}

/* The process (the device) and its threads: iterations, regions, a thread per stream */
static void
add_names (JsonBuilder *b, const WbRun *run, const Timeline *tl)
{
  g_autofree char *process = g_strdup_printf ("%s — %s", run->device_name ? run->device_name : "device",
                                              run->device_model ? run->device_model : "?");
  GHashTableIter   iter;
  gpointer         key;

  metadata (b, "process_name", 0, process, 0);
  metadata (b, "thread_name", TID_ITERATIONS, "iterations", 0);
  metadata (b, "thread_name", TID_REGIONS, "regions", 1);
  for (guint t = 0; t < tl->host_threads->len; t++)
    {
      g_autofree char *name = g_strdup_printf ("CUDA API (thread %u)", g_array_index (tl->host_threads, guint32, t));

      metadata (b, "thread_name", TID_HOST0 + t, name, 2);
    }
  g_hash_table_iter_init (&iter, tl->streams);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint            stream = GPOINTER_TO_UINT (key) - 1;
      g_autofree char *name = g_strdup_printf ("stream %u", stream);

      metadata (b, "thread_name", TID_STREAM0 + stream, name, 3 + (int) stream);
    }
}

/* A span per timed iteration, from its first kernel to its last */
static void
add_iterations (JsonBuilder *b, const WbRun *run, const Timeline *tl)
{
  for (guint i = 0; i < tl->n_iters && run->kernels->len > 0; i++)
    {
      gint64           lo = g_array_index (tl->iter_lo, gint64, i);
      gint64           hi = g_array_index (tl->iter_hi, gint64, i);
      g_autofree char *name = g_strdup_printf ("iteration %u", i);

      if (lo > hi)
        continue;
      begin_event (b, "X", name, "iteration", TID_ITERATIONS);
      add_ts (b, "ts", us (lo));
      add_ts (b, "dur", us (hi - lo));
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      add_arg_int (b, "iteration", i);
      if (i < run->iteration_ns->len)
        add_ts (b, "iteration_ms", _wb_report_ms (g_array_index (run->iteration_ns, gint64, i)));
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
}

/* A span per region and iteration */
static void
add_regions (JsonBuilder *b, const WbReport *report, const Timeline *tl)
{
  const WbRun *run = report->run;

  for (guint i = 0; i < tl->spans->len; i++)
    {
      const Span          *s = tl->spans->pdata[i];
      const WbRegionStats *st = wb_run_find_region (run, s->region);
      gboolean             is_region = FALSE;

      for (guint k = 0; k < report->regions->len; k++)
        if (g_array_index (report->regions, WbReportRegion, k).stats == st)
          is_region = g_array_index (report->regions, WbReportRegion, k).is_region;
      begin_event (b, "X", s->region, "region", TID_REGIONS);
      add_ts (b, "ts", us (s->start));
      add_ts (b, "dur", us (MAX (s->end - s->start, 0)));
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      add_arg_string (b, "region", s->region);
      add_arg_string (b, "executor", st ? st->executor : NULL);
      add_arg_string (b, "stage", run->stage);
      add_arg_int (b, "line", st ? st->stage_line : s->line);
      add_arg_int (b, "iteration", s->iteration);
      add_arg_string (b, "kind", wb_run_region_is_collective (st) ? "collective" : is_region ? "region"
                                                                                             : "op");
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
}

/* An event per kernel record on its stream's thread, and a flow to it from its region's span */
static void
add_kernels (JsonBuilder *b, const WbReport *report, const Timeline *tl)
{
  const WbRun *run = report->run;

  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];
      guint                 tid = TID_STREAM0 + k->stream;
      const char           *shown = _wb_report_kernel_name (report, k->name);

      begin_event (b, "X", shown, "kernel", tid);
      add_ts (b, "ts", us (k->start_ns));
      add_ts (b, "dur", us (MAX (k->end_ns - k->start_ns, 0)));
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      add_arg_string (b, "region", k->region);
      if (g_strcmp0 (shown, k->name) != 0)
        add_arg_string (b, "name_mangled", k->name);
      add_arg_int (b, "line", k->trace_line);
      add_arg_int (b, "iteration", k->iteration);
      add_arg_int (b, "stream", k->stream);
      add_arg_int (b, "correlation", (gint64) k->correlation_id);
      if (k->grid[0] > 0)
        {
          g_autofree char *grid = g_strdup_printf ("%u,%u,%u", k->grid[0], k->grid[1], k->grid[2]);
          g_autofree char *block = g_strdup_printf ("%u,%u,%u", k->block[0], k->block[1], k->block[2]);

          add_arg_string (b, "grid", grid);
          add_arg_string (b, "block", block);
          add_arg_int (b, "registers per thread", k->registers);
          add_arg_int (b, "shared memory", k->shared_bytes);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);

      if (k->region != NULL)
        {
          g_autofree char *key = g_strdup_printf ("%u\x1f%s", k->iteration, k->region);
          const Span      *s = tl->spans->pdata[GPOINTER_TO_UINT (g_hash_table_lookup (tl->span_index, key)) - 1];

          begin_event (b, "s", "region-kernel", "region-kernel", TID_REGIONS);
          add_ts (b, "ts", us (s->start));
          add_arg_int (b, "id", i + 1);
          json_builder_end_object (b);

          begin_event (b, "f", "region-kernel", "region-kernel", tid);
          add_ts (b, "ts", us (k->start_ns));
          add_arg_int (b, "id", i + 1);
          add_arg_string (b, "bp", "e");
          json_builder_end_object (b);
        }
    }
}

/* An event per host call on its thread's track, naming the kernel it launched */
static void
add_host_calls (JsonBuilder *b, const WbReport *report, const Timeline *tl)
{
  const WbRun *run = report->run;

  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];

      begin_event (b, "X", c->name, "cuda_api", host_tid (tl, c->thread));
      add_ts (b, "ts", us (c->start_ns));
      add_ts (b, "dur", us (MAX (c->end_ns - c->start_ns, 0)));
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      add_arg_int (b, "iteration", c->iteration);
      add_arg_int (b, "thread", c->thread);
      add_arg_int (b, "correlation", (gint64) c->correlation_id);
      if (c->kernel >= 0 && (guint) c->kernel < run->kernels->len)
        {
          const WbKernelRecord *k = run->kernels->pdata[c->kernel];

          add_arg_string (b, "kernel", _wb_report_kernel_name (report, k->name));
          add_arg_int (b, "kernels", c->n_kernels);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
}

static void
add_other_data (JsonBuilder *b, const WbReport *report)
{
  const WbRun *run = report->run;

  json_builder_set_member_name (b, "otherData");
  json_builder_begin_object (b);
  add_arg_string (b, "generator", "thunder-wb " PACKAGE_VERSION);
  add_arg_string (b, "title", report->title);
  add_arg_string (b, "stage", run->stage);
  add_arg_string (b, "device", run->device_name);
  add_arg_string (b, "device_model", run->device_model);
  add_arg_int (b, "iterations", report->n_iters);
  add_arg_string (b, "time_origin", "the start of the first timed iteration");
  add_arg_int (b, "host_calls", run->host_calls->len);
  if (run->attribution.kernel_source != NULL)
    add_arg_string (b, "kernel_source", run->attribution.kernel_source);
  json_builder_end_object (b);
}

char *
wb_report_to_chrome_trace (const WbReport *report)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  Timeline tl = { 0 };

  g_return_val_if_fail (report != NULL, NULL);
  timeline_init (&tl, report);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "traceEvents");
  json_builder_begin_array (b);
  add_names (b, report->run, &tl);
  add_iterations (b, report->run, &tl);
  add_regions (b, report, &tl);
  add_kernels (b, report, &tl);
  add_host_calls (b, report, &tl);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "displayTimeUnit");
  json_builder_add_string_value (b, "ms");
  add_other_data (b, report);
  json_builder_end_object (b);
  timeline_clear (&tl);

  return _wb_json_finish (b, FALSE);
}
