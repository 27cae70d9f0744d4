/* wb-dtensor.h — DTensor traces: the mesh and placement globals, and what a redistribute communicates
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's DTensor support (thunder/torch/experimental/dtensor_torch_and_prims.py) prints
 * dtensor_from_local (a local tensor -> a DTensor), dtensor_to_local (a DTensor -> its local tensor) and
 * dtensor_redistribute (a change of placements) on values annotated "DTensor cuda:0 f32[4, 16, 256]
 * mesh=DeviceMesh((2,), 'cuda', stride=(1,)), placements=(Shard(dim=2),)" (WB_TYPE_DTENSOR: the global
 * shape and WbDtensorSpec). The mesh and each placement are arguments printed as opaque globals
 * (`_torch_distributed_device_mesh_DeviceMesh_10`, `_torch_distributed_tensor_placement_types_Shard_19`);
 * a Shard global's name does not say its dim, so they are typed from the trace's own annotated calls,
 * as process groups are (wb-distributed.h). At run time a DTensor value is its local tensor. */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

/* wb_dtensor_globals_new: (transfer full) global name -> (WbType *) inferred from the annotated
 * dtensor_from_local and dtensor_redistribute calls of @trace (subsymbols included, every spelling): a
 * mesh global is typed as the call's DTensor output type (its mesh is what a meta reads), a placement
 * global as that type with the placement as its first placement (dtensor.placements[0]). A global no
 * annotated call types is absent. Keys point into @trace; values are freed with the table. */
GHashTable *wb_dtensor_globals_new (const WbTrace *trace);

/* One step of a redistribute on one mesh dim: what torch's redistribute_local_tensor
 * (torch/distributed/tensor/_redistribute.py) does for (current, target) placements. */
typedef enum
{
  WB_DTENSOR_STEP_ALL_REDUCE = 1, /* Partial(op) -> Replicate: Partial._reduce_value, all_reduce(op) */
  WB_DTENSOR_STEP_ALL_GATHER,     /* Shard(d) -> Replicate: Shard._to_replicate_tensor, all_gather along d */
  WB_DTENSOR_STEP_REDUCE_SCATTER, /* Partial(op) -> Shard(d): Partial._reduce_shard_value, reduce_scatter(op) along d */
  WB_DTENSOR_STEP_SPLIT,          /* Replicate -> Shard(d): Shard._replicate_to_shard, the rank's chunk of d, no communication */
  WB_DTENSOR_STEP_ALL_TO_ALL,     /* Shard(a) -> Shard(b): Shard._to_new_shard_dim, all_to_all from a to b */
} WbDtensorStepKind;

typedef struct
{
  WbDtensorStepKind kind;
  guint             mesh_dim;   /* the mesh dim it communicates over */
  gint64            group_size; /* ranks along that mesh dim */
  guint             dim;        /* the tensor dim gathered, scattered, split or all_to_all'd into */
  guint             src_dim;    /* ALL_TO_ALL: the tensor dim sharded before */
  WbPartialOp       op;         /* ALL_REDUCE, REDUCE_SCATTER: the reduction */
} WbDtensorStep;

/* wb_dtensor_redistribute_plan: the steps that take DTensor type @src to @dst (same mesh and global
 * shape), one per mesh dim whose placement changes over more than one rank, in mesh-dim order (torch's
 * planner may order the steps of a mesh of 2 or more dims otherwise; the result is the same up to
 * rounding). *@n_steps gets their number (0: the local tensor is kept), @steps has room for
 * WB_MAX_MESH_RANK. FALSE with WB_SYMBOL_ERROR_BAD_ARGS where DTensor.redistribute refuses too (any change
 * to a Partial placement: "redistributing to Partial is for internal use only", torch/distributed/tensor/
 * _api.py; another mesh) and WB_SYMBOL_ERROR_BAD_TYPE when either is not a DTensor type. */
gboolean wb_dtensor_redistribute_plan (const WbType *src, const WbType *dst, WbDtensorStep *steps, guint *n_steps, GError **error);
/* wb_dtensor_step_kind_to_string: "all_reduce", "all_gather", "reduce_scatter", "split", "all_to_all"
 * (transfer none). */
const char *wb_dtensor_step_kind_to_string (WbDtensorStepKind kind);
/* wb_dtensor_step_to_string: (transfer full) "all_gather(dim=2)", "all_reduce(sum)", "reduce_scatter(sum,
 * dim=2)", "split(dim=1)", "all_to_all(0->2)": the forms tests/compiler/dtensor-redistribute.tsv uses. */
char *wb_dtensor_step_to_string (const WbDtensorStep *step);

G_END_DECLS
