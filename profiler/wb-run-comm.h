/* wb-run-comm.h — communication in a multi-GPU run: collectives, NCCL kernels and their overlap
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One WbRun per rank (wb-run.h: rank, world_size, clock_origin_ns, group). Communication shows up as kernel
 * records whose name starts with "nccl" (NCCL's kernels, on their own stream) and as the region statistics
 * of top-level collective calls (executor "nccl", or a known collective symbol). These functions measure,
 * per timed iteration, how long the device communicated, computed, and both at once. Plain C over WbRun:
 * no GTK, no SQLite. Units: ns. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-run.h"

G_BEGIN_DECLS

/* WbCommStats: a run's communication and computation time, per timed iteration (the medians) and summed
 * over the iterations (the totals). comm is the union of the communication kernels' intervals, compute the
 * union of the other kernels' intervals, overlap their intersection, exposed_comm = comm - overlap (the
 * communication nothing hid). The medians are each the median of its own per-iteration figures, so
 * exposed_comm_ns need not equal comm_ns - overlap_ns. All 0 for a run without kernel records. */
typedef struct
{
  guint32 iterations;      /* timed iterations measured: max (iteration_ns->len, highest kernel iteration + 1) */
  guint32 comm_kernels;    /* communication kernel records, all iterations */
  gint64  comm_ns;         /* median over iterations, ns */
  gint64  compute_ns;      /* median over iterations, ns */
  gint64  overlap_ns;      /* median over iterations, ns */
  gint64  exposed_comm_ns; /* median over iterations, ns */
  gint64  comm_ns_total;   /* sum over iterations, ns */
  gint64  compute_ns_total;
  gint64  overlap_ns_total;
  gint64  exposed_comm_ns_total;
  guint32 collective_calls; /* collective regions (calls) per iteration (wb_run_region_is_collective) */
  guint64 collective_bytes; /* their bytes_moved summed: bytes per iteration */
  gint64  collective_ns;    /* their median_ns summed: ns per iteration (host-side call time) */
} WbCommStats;

/* wb_kernel_name_is_nccl: TRUE when @name (nullable) is one of NCCL's device kernels (its name starts with
 * "nccl": ncclDevKernel_AllReduce_Sum_f32_RING_LL), as printed or mangled as CUPTI reports it (_Z39nccl...). */
gboolean wb_kernel_name_is_nccl (const char *name);

/* wb_run_region_is_collective: TRUE when @stats is a top-level collective call: its executor is "nccl", or
 * its name is a known collective symbol (torch_all_reduce_prim_impl, torch_reduce_scatter_prim_impl,
 * torch_all_gather_prim_impl, torch_wait_prim_impl, ltorch.all_reduce, ...: see wb_collective_symbol_is_known).
 * FALSE for NULL. */
gboolean wb_run_region_is_collective (const WbRegionStats *stats);

/* wb_collective_symbol_is_known: TRUE when @name (nullable) names a collective: Thunder's distributed prims
 * (all_reduce, reduce_scatter, all_gather, broadcast, wait, synchronize, pack/unpack for buckets) in
 * any of the spellings traces use ("all_reduce", "ltorch.all_reduce", "prims.all_reduce",
 * "torch_all_reduce_prim_impl", "dist_prims.wait"), or a symbol of the symbol table's distributed category
 * (WB_SYMBOL_CATEGORY_DISTRIBUTED: ltorch.all_reduce_, ...). */
gboolean wb_collective_symbol_is_known (const char *name);

/* wb_kernel_record_is_communication: TRUE when @record is communication: its name starts with "nccl"
 * (ncclDevKernel_AllReduce_Sum_f32_RING_LL, ncclKernel_...), or @run (nullable) has a collective region
 * (wb_run_region_is_collective) of the name @record is attributed to. FALSE for NULL. */
gboolean wb_kernel_record_is_communication (const WbRun          *run,
                                            const WbKernelRecord *record);

/* wb_run_dup_communication_flags: (transfer full) one gboolean per kernel of @run, in run->kernels' order:
 * wb_kernel_record_is_communication of each, computed in time linear in the kernels (for views that
 * colour many kernels); free with g_free. */
gboolean *wb_run_dup_communication_flags (const WbRun *run);

/* wb_run_get_comm_stats: @run's communication figures (see WbCommStats), returned by value. A run that is
 * not distributed gets them as well (all comm 0 when it has no NCCL kernel and no collective region). */
WbCommStats wb_run_get_comm_stats (const WbRun *run);

/* wb_run_measure_comm_range: the communication, computation and overlap of @run's kernels clipped to
 * [@from_ns, @to_ns) on the run's clock (kernel start_ns/end_ns), whatever their iteration, in ns; each out
 * pointer nullable. All 0 when @to_ns <= @from_ns. The timeline's range statistics use it per rank. */
void wb_run_measure_comm_range (const WbRun *run,
                                gint64       from_ns,
                                gint64       to_ns,
                                gint64      *comm_ns,
                                gint64      *compute_ns,
                                gint64      *overlap_ns);

/* wb_run_group_measure_peer_wait: for each run of @runs (the ranks of one multi-GPU run, any order), the
 * median per timed iteration of the time its NCCL kernels spent waiting for the last rank to launch the same
 * collective (the k-th NCCL kernel of an iteration on every rank; clocks aligned on
 * clock_origin_ns) into @wait_ns[i], ns (part of WbCommStats.comm_ns; the rest is the transfer). FALSE, and
 * @wait_ns untouched past what was zeroed, when there are fewer than two runs, a run has no clock origin, or
 * the ranks' NCCL kernels do not pair up (another count in an iteration). @wait_ns holds runs->len values. */
gboolean wb_run_group_measure_peer_wait (const GPtrArray *runs, gint64 *wait_ns);

G_END_DECLS
