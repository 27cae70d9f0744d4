/* wb-distributed.h — distributed traces: reduce ops, process groups, world size and rank folders
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's DDP, FSDP and tensor-parallel transforms print collectives (symbols/distributed.def) whose
 * process group and reduce op are opaque globals (`_torch_distributed_distributed_c10d_ProcessGroup_3`,
 * `_DistributedReduceOps_SUM_1`). A run with W ranks is recorded as one case folder per rank,
 * CASE/rank0/ ... CASE/rank<W-1>/, each a complete case (traces, stages/, meta.json,
 * tensors.safetensors) whose meta.json says {"distributed": {"world_size": W, "rank": R, ...}}. */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

/* WbDistReduceOp: thunder.distributed.prims.DistributedReduceOps, in Thunder's order. */
typedef enum
{
  WB_DIST_REDUCE_UNKNOWN = 0,
  WB_DIST_REDUCE_SUM,
  WB_DIST_REDUCE_AVG,
  WB_DIST_REDUCE_PRODUCT,
  WB_DIST_REDUCE_MIN,
  WB_DIST_REDUCE_MAX,
  WB_DIST_REDUCE_BAND,
  WB_DIST_REDUCE_BOR,
  WB_DIST_REDUCE_BXOR,
} WbDistReduceOp;

/* wb_dist_reduce_op_from_name: the op of a printed global `_DistributedReduceOps_<OP>_<k>`
 * ("_DistributedReduceOps_AVG_0" -> WB_DIST_REDUCE_AVG); WB_DIST_REDUCE_UNKNOWN for anything else
 * (NULL included). */
WbDistReduceOp wb_dist_reduce_op_from_name (const char *name);
/* wb_dist_reduce_op_to_string: "SUM", "AVG", ...; "unknown" (transfer none). */
const char *wb_dist_reduce_op_to_string (WbDistReduceOp op);
/* wb_dist_is_process_group: whether @name is a printed process-group global
 * (`_torch_distributed_distributed_c10d_ProcessGroup_4`). */
gboolean wb_dist_is_process_group (const char *name);

/* wb_dist_group_sizes_new: (transfer full) process-group global name -> its size (GINT_TO_POINTER),
 * inferred from the annotated calls of @trace (subsymbols included): all_gather (output dim / input dim),
 * reduce_scatter (input dim / output dim) and synchronize of a FULLY_SHARDED tensor, in the prims' and
 * the torch executor's spellings. A group no annotated call sizes is absent. Keys point into @trace. */
GHashTable *wb_dist_group_sizes_new (const WbTrace *trace);

/* wb_dist_sharded_params_add: adds to @sharded (g_str_hash; name -> GINT_TO_POINTER (size)) every tensor
 * @trace passes to synchronize(..., _DistParallelType_FULLY_SHARDED_k) with its group's size when an
 * annotation of @trace sizes that group (wb_dist_group_sizes_new). Keys point into @trace. For
 * wb_trace_verify_full over the traces of one rank. */
void wb_dist_sharded_params_add (GHashTable *sharded, const WbTrace *trace);

/* wb_case_dir_list_ranks: (transfer full) (nullable) the rank folders of case folder @dir, in rank
 * order: the paths DIR/rank0, DIR/rank1, ... of its sub-folders named rank<N> (N decimal, no sign, no
 * leading zeros). NULL with no error when @dir has none (or is not a folder); NULL with WB_TRACE_ERROR_IO
 * when @dir cannot be read or the ranks are not 0..W-1 without a gap (the message names the missing
 * folder). */
char **wb_case_dir_list_ranks (const char *dir, GError **error);

G_END_DECLS
