/* wb-aggregate.h — a stage's calls and a run's kernels summed by symbol and by region (no GTK)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two summaries the views show, computed here so that they are tested without a display:
 * - by symbol over a stage (WbSymbolAggregate: all `prims.mul` together: calls, kernel time, bytes, the
 *   regions that hold them and what they decompose into, as Sysprof's callers and callees);
 * - a time range of a run's kernels (WbRangeStats: kernels, busy time, time by region and by symbol).
 * Times are ns on the run's clock; bytes from the static cost model (profiler/wb-cost.h). */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include "wb-compiler.h"
#include "wb-profiler.h"

G_BEGIN_DECLS

/* WbAggregateRow: one symbol (or region, or caller/callee) and its sums. */
typedef struct
{
  char      *key;              /* "prims.mul", a region's name, or a kernel's name when nothing else is known */
  guint      calls;            /* top-level calls of the stage with this symbol */
  guint      calls_in_regions; /* calls inside regions' bodies */
  guint      kernels;          /* kernel records (per the whole run, or in the range) */
  gint64     time_ns;          /* their time (clipped to the range), summed over the run's iterations */
  guint64    bytes;            /* bytes moved by one execution of every call counted, summed (static) */
  GPtrArray *callers;          /* (element-type WbAggregateRow) (nullable) regions holding its calls */
  GPtrArray *callees;          /* (element-type WbAggregateRow) (nullable) symbols of its subsymbols */
} WbAggregateRow;

void wb_aggregate_row_free (WbAggregateRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbAggregateRow, wb_aggregate_row_free)

/* wb_aggregate_by_symbol: every symbol called in @trace (top level and regions' bodies, one level), with
 * the time of @run's kernels (nullable) on the lines of its top-level calls, @run's iterations
 * averaged (time_ns is per iteration). (transfer full) (element-type WbAggregateRow) sorted by time,
 * then calls, descending. */
GPtrArray *wb_aggregate_by_symbol (WbTrace *trace, const WbRun *run);
/* wb_aggregate_find: (transfer none) (nullable) the row of @key. */
const WbAggregateRow *wb_aggregate_find (GPtrArray *rows, const char *key);

/* WbRangeStats: what ran in [from_ns, to_ns) of a run (ns from the run's first kernel start). */
typedef struct
{
  gint64     from_ns, to_ns;
  guint      kernels;   /* kernels overlapping the range */
  gint64     kernel_ns; /* their time inside the range, summed */
  gint64     busy_ns;   /* time inside the range when at least one kernel ran */
  GPtrArray *by_region; /* (element-type WbAggregateRow) time descending; "—" for unattributed kernels */
  GPtrArray *by_symbol; /* (element-type WbAggregateRow) the call on each kernel's line, else its region */
  /* the host's CUDA API calls (WbRun.host_calls) overlapping the range, as the kernels (one of no length
   * when it starts inside); 0 for runs without any */
  guint  host_calls;
  guint  host_launches; /* of them, those that launched a kernel (joined by correlation) */
  gint64 host_call_ns;  /* their time inside the range, summed */
} WbRangeStats;

/* wb_range_stats_new: (transfer full) @run's kernels and host calls in the range, symbols from @trace
 * (nullable: the stage the run's kernel lines refer to). */
WbRangeStats *wb_range_stats_new (const WbRun *run, WbTrace *trace, gint64 from_ns, gint64 to_ns);
void          wb_range_stats_free (WbRangeStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRangeStats, wb_range_stats_free)
/* wb_run_get_kernel_origin: the first kernel's start (what range times count from), 0 without kernels */
gint64 wb_run_get_kernel_origin (const WbRun *run);

G_END_DECLS
