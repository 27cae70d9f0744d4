/* wb-executor-info.h — the executor registry: every executor's row and the claim rule
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per executor (wb-executor-info.def): ours, which run here or in the GPU runner, and Thunder's,
 * which are read-only (planned with and displayed, never run). "May executor E take this bound symbol,
 * and why not" is answered here and only here: the planner (wb-pass-claim.c, wb-pass-fusion.c), the
 * runner (executors/cuda/wb-cuda-executors.c, which keeps only how to run), the app's executor choice
 * (views/wb-region-table.c) and `thunder-wb --headless executors` ask it. Rows are static and the
 * functions keep no state: any thread may call them. */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-symbol.h"

G_BEGIN_DECLS

typedef enum
{
  WB_EXECUTOR_KIND_OPERATOR = 1, /* claims one bound symbol and runs it as one op */
  WB_EXECUTOR_KIND_FUSION,       /* absorbs runs of fusible bound symbols into regions */
} WbExecutorKind;

/* WbExecutorRuns: where thunder-wb runs an executor. */
typedef enum
{
  WB_EXECUTOR_RUNS_HERE = 1, /* in the process (and in the GPU runner, through transfers): cpu */
  WB_EXECUTOR_RUNS_RUNNER,   /* only in thunder-wb-runner, on a GPU */
  WB_EXECUTOR_RUNS_THUNDER,  /* one of Thunder's executors: read-only, never run here */
} WbExecutorRuns;

/* WbExecutorSet: which rows wb_executor_info_dup_names lists (flags). */
typedef enum
{
  WB_EXECUTOR_SET_HERE = 1 << 0,
  WB_EXECUTOR_SET_RUNNER = 1 << 1,
  WB_EXECUTOR_SET_THUNDER = 1 << 2,
  WB_EXECUTOR_SET_RUNNABLE = WB_EXECUTOR_SET_HERE | WB_EXECUTOR_SET_RUNNER,
  WB_EXECUTOR_SET_ALL = WB_EXECUTOR_SET_RUNNABLE | WB_EXECUTOR_SET_THUNDER,
} WbExecutorSet;

typedef enum
{
  WB_EXECUTOR_ID_NONE = 0,
#define WB_EXECUTOR_INFO(id, name, kind, runs, cuda_rank, cpu_rank, prefix, partner, desc) WB_EXECUTOR_ID_##id,
#include "wb-executor-info.def"
#undef WB_EXECUTOR_INFO
  WB_N_EXECUTOR_IDS
} WbExecutorId;

typedef struct _WbExecutorInfo WbExecutorInfo;

/* wb_executor_info_lookup: the executor called @name ("nvrtc", "torchcompile"); NULL if none. (transfer none) */
const WbExecutorInfo *wb_executor_info_lookup (const char *name);
/* wb_executor_info_get: (transfer none) the executor @id. */
const WbExecutorInfo *wb_executor_info_get (WbExecutorId id);
WbExecutorId          wb_executor_info_get_id (const WbExecutorInfo *info);
const char           *wb_executor_info_get_name (const WbExecutorInfo *info);
const char           *wb_executor_info_get_description (const WbExecutorInfo *info);
WbExecutorKind        wb_executor_info_get_kind (const WbExecutorInfo *info);
/* wb_executor_info_is_thunder: one of Thunder's executors (planned with and displayed, never run here). */
gboolean       wb_executor_info_is_thunder (const WbExecutorInfo *info);
WbExecutorRuns wb_executor_info_get_runs (const WbExecutorInfo *info);
/* wb_executor_info_get_partner: (transfer none) (nullable) the operator executor whose ops a region of
 * fusion executor @info may hold between its fused steps (nvrtc: cublas). */
const WbExecutorInfo *wb_executor_info_get_partner (const WbExecutorInfo *info);
/* wb_executor_info_dup_names: (transfer full) the names of the rows in @set, in row order. */
char **wb_executor_info_dup_names (WbExecutorSet set);
/* wb_executor_info_dup_priority: (transfer full) the default planning priority for a trace on CUDA
 * (@cuda) or on the cpu, as names, first first. */
char **wb_executor_info_dup_priority (gboolean cuda);
/* wb_executor_info_get_default: (transfer none) what runs a region or call without an assignment on
 * CUDA (@cuda) or on the cpu: the first fusion executor of the device's priority, else its first. */
const WbExecutorInfo *wb_executor_info_get_default (gboolean cuda);
/* wb_executor_info_get_region_prefix: "nvrtcFusion", "TorchCompile"; NULL for operator executors. */
const char *wb_executor_info_get_region_prefix (const WbExecutorInfo *info);
/* wb_executor_info_for_region: the fusion executor whose regions are named like @region_name
 * ("TorchCompile3" -> torchcompile); NULL if none. */
const WbExecutorInfo *wb_executor_info_for_region (const char *region_name);

/* wb_executor_info_can_take: whether @info takes @bsym: an operator executor claims it as one op; a
 * fusion executor can fuse it (a composite is fusible when each of its subsymbols is, recursively;
 * regions are never fused again). Conditions on dtype, device and shape read the input and output types
 * through @lookup. Returns TRUE, or FALSE with a reason in *why_not such as
 * "cublas: dtype i64 is not supported (f32, bf16, f16 only)" (transfer full; may be NULL). */
gboolean wb_executor_info_can_take (const WbExecutorInfo *info,
                                    const WbBsym         *bsym,
                                    WbTypeLookupFunc      lookup,
                                    gpointer              user_data,
                                    char                **why_not);
/* wb_executor_info_can_run: whether @info may be handed the top-level call @bsym of a program to run
 * whole: a fusion region (a symbol wb_symbol_is_fusion) when a fusion executor can fuse each of its
 * calls (or, for nvrtc, its partner cublas takes it) and an operator executor when the region holds one
 * op it takes; any other call as wb_executor_info_can_take. Utility calls inside a region are ignored.
 * FALSE with a reason in *why_not (transfer full; may be NULL). */
gboolean wb_executor_info_can_run (const WbExecutorInfo *info,
                                   const WbBsym         *bsym,
                                   WbTypeLookupFunc      lookup,
                                   gpointer              user_data,
                                   char                **why_not);
/* wb_executor_info_can_run_on: wb_executor_info_can_run for a call that will run on @device whatever
 * devices its trace annotates (the GPU runner places every tensor on its GPU); NULL @device: as annotated. */
gboolean wb_executor_info_can_run_on (const WbExecutorInfo *info,
                                      const WbBsym         *bsym,
                                      const WbDevice       *device,
                                      WbTypeLookupFunc      lookup,
                                      gpointer              user_data,
                                      char                **why_not);
/* wb_executor_info_types_new: (transfer full) the types the claim rule reads, name -> WbType *, of every
 * proxy of @trace (annotations, type comments, types derived for unannotated outputs, subsymbols
 * included); NULL @trace gives an empty table. The keys point into @trace, which must outlive it. */
GHashTable *wb_executor_info_types_new (const WbTrace *trace);
/* wb_executor_info_types_add: adds @trace's proxies to @types (a name already there keeps its type). */
void wb_executor_info_types_add (GHashTable    *types,
                                 const WbTrace *trace);
/* wb_executor_info_types_lookup: the WbTypeLookupFunc over a table of wb_executor_info_types_new. */
gboolean wb_executor_info_types_lookup (const char *name,
                                        WbType     *out,
                                        gpointer    types);

/* wb_executor_info_is_utility: bound symbols no executor needs to claim (del, return, unpacking, comments,
 * get_grad, collection handling): the python executor keeps them. */
gboolean wb_executor_info_is_utility (const WbBsym *bsym);

G_END_DECLS
