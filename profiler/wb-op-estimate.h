/* wb-op-estimate.h — a fusion region's measured time attributed to its ops: an estimate (WbOpEstimate)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fusion region runs as one or a few kernels, so a run measures the region, not its ops. This splits the
 * measured time of every executed region (WbRegionStats.median_ns, ns) over its ops (the region's
 * subsymbols, one level deep: the lines printed under its call) and says so everywhere it is shown: these
 * are estimates, never measurements.
 *
 * The split. Each op gets a roofline time, max(bytes / bandwidth, FLOPs / peak), in seconds:
 *   FLOPs      wb-cost.h's count of the op
 *   bytes      on the cpu (and for a region an executor runs op by op) every op moves its own tensors
 *              (wb-cost.h's count: distinct tensor arguments read, outputs written; views 0). In a fused
 *              kernel group (a GPU region) an op moves only what crosses the group's edge: the arguments it
 *              reads from outside the group (region inputs, other kernels' results; a value read by several
 *              ops of the group counted once, shared among them; through a view, at most the viewed
 *              tensor), and the outputs something outside the group reads (region outputs, other kernels'
 *              arguments). An intermediate kept in registers moves nothing: such an op gets its FLOPs' share
 *              only. Views (reshape, transpose, slice, split, broadcast, squeeze; shallow_copy and the like in
 *              a fused group) get 0.
 *   bandwidth  the device's measured copy ceiling (WbDeviceCeilings.copy_gbps), else the default below
 *   peak       the device's measured matmul ceiling (bf16_tflops), else the default below
 * Kernel groups. A GPU region that ran as several kernels whose ops are known is split first by the measured
 * kernel times: a region the nvrtc executor splits at its matmuls (executors/cuda/wb-cuda-codegen-split.c)
 * runs each fused step as one plan (wb_cuda_split_plans_annotated: its kernels, launched in order, named
 * "wb_k...") and each matmul as cuBLASLt kernels (other names). The region's kernel records of each timed
 * iteration (in start order) are matched to the steps by those counts; a run of consecutive matmul steps
 * whose kernels do not come one per step is one group. Each group gets the region's time in proportion to
 * the median over iterations of its kernels' time (so the launch gaps are spread like the kernels), and
 * only that is split by the roofline within the group. When the records do not match the steps (another
 * executor, other kernels), the whole region is one group. A cpu run is one group, op by op.
 * Rounding: every estimate is whole ns and a region's estimates add up to its median exactly. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-compiler.h"
#include "wb-run.h"

G_BEGIN_DECLS

/* Ceilings assumed when the run has none measured: GB/s and TFLOP/s. Only their ratio matters to the split. */
#define WB_OP_ESTIMATE_CPU_GBPS 20.0
#define WB_OP_ESTIMATE_CPU_TFLOPS 0.5
#define WB_OP_ESTIMATE_GPU_GBPS 3000.0
#define WB_OP_ESTIMATE_GPU_TFLOPS 700.0

/* What an estimate is split from. */
typedef enum
{
  WB_OP_ESTIMATE_REGION = 1, /* the region's whole time, by the roofline */
  WB_OP_ESTIMATE_KERNELS,    /* the measured time of the op's kernel group, by the roofline within it */
} WbOpEstimateBasis;

/* wb_op_estimate_basis_to_string: "region" or "kernels" (transfer none). */
const char *wb_op_estimate_basis_to_string (WbOpEstimateBasis basis);

/* WbOpEstimate: one op of one region. Strings owned. */
typedef struct
{
  char             *region;      /* the region's entry name in the run ("TorchCompile0") */
  guint32           region_line; /* stage line of the region's call (WbRegionStats.stage_line) */
  guint32           line;        /* stage line of the op (forward then backward, as wb-profile.h counts) */
  guint             index;       /* the op's index among the region's subsymbols */
  char             *symbol;      /* the op's printed name ("prims.linear") */
  char             *output;      /* (nullable) its first output name */
  guint64           bytes;       /* bytes the roofline counted for it (see above) */
  guint64           flops;       /* its FLOPs */
  double            roofline_ns; /* max(bytes / bandwidth, FLOPs / peak), ns */
  gboolean          fused;       /* in a fused kernel group (bytes: only what crosses its edge) */
  guint             group;       /* 0-based kernel group of the region it was split in */
  WbOpEstimateBasis basis;
  gint64            estimated_ns; /* the estimate, ns (>= 0) */
  double            share;        /* estimated_ns / the region's median (0..1) */
  gconstpointer     bsym;         /* (nullable) the op's WbBsym, borrowed from the traces given: valid while they live */
} WbOpEstimate;

void wb_op_estimate_free (WbOpEstimate *estimate);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbOpEstimate, wb_op_estimate_free)
/* wb_op_estimate_compare_costliest: a GCompareFunc over WbOpEstimate ** (g_ptr_array_sort) of one region's ops:
 * the costliest first, ties in the region's order (index). */
int wb_op_estimate_compare_costliest (gconstpointer a, gconstpointer b);

/* wb_op_estimates_compute: (transfer full) (element-type WbOpEstimate) the estimates of every fusion region of
 * @traces (n_traces of them: the forward, then the backward; nullable entries skipped) that @run measured
 * (a region found by its entry name, wb-profile.h: "NAME", "NAME#2" for a later call of the same name, with a
 * median > 0), region by region in trace order, ops in region order. @line_offsets[i]: the stage line
 * before @traces[i]'s first line (0 for the forward; NULL: all 0). @ceilings: nullable (the defaults above
 * for the run's device). Never fails: a region it cannot split by kernels is split whole. */
GPtrArray *wb_op_estimates_compute (WbTrace *const         *traces,
                                    const guint32          *line_offsets,
                                    guint                   n_traces,
                                    const WbRun            *run,
                                    const WbDeviceCeilings *ceilings);

/* wb_op_estimates_index: (transfer full) the op's WbBsym -> its WbOpEstimate (borrowed from @estimates). */
GHashTable *wb_op_estimates_index (GPtrArray *estimates);

G_END_DECLS
