/* wb-cuda-nccl.h — collectives through NCCL: one communicator per runner process, one rank each
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner of a multi-GPU run is one process per rank (profiler/wb-profile-group.c). Rank 0's runner makes
 * NCCL's unique id (wb_cuda_nccl_get_unique_id), the workbench passes it to every runner, and each joins the
 * communicator (wb_cuda_nccl_init) on its own GPU. The collectives of Thunder's distributed transforms
 * (thunder/distributed/prims.py, run by Thunder's torch executor as torch_<op>_prim_impl) then run here:
 * all_reduce, all_gather, reduce_scatter and broadcast on a communication stream of their own, after the run's
 * stream has reached the call (an event); a synchronous call makes the run's stream wait for it at once, an
 * asynchronous one (do_async: Thunder's FutureTensorProxy) when wait() is called on its result, so that
 * communication overlaps the computation between them, as PyTorch's ProcessGroupNCCL does. A pending call
 * keeps its input and output tensors alive until that wait (their memory is freed in the run's stream order).
 * A CUDA graph captures the collectives as nodes (NCCL 2.9 and later capture them; the communication stream
 * joins the capture through the call's event), and a launch list repeats each one as a closure
 * (wb_cuda_runtime_record_call) with events of its own, so that every rank replays its step: ranks replay as
 * many times as each other, and their collectives pair up in order as in a plain run.
 * libnccl.so.2 is opened with dlopen ($WB_NCCL_LIBRARY, else by soname: the machine's PyTorch ships one in
 * site-packages/nvidia/nccl/lib, Debian's non-free libnccl2 another); the build needs only nccl.h
 * (tools/setup.sh fetches it). Without it, or without the header at build time, a collective fails with
 * WB_CUDA_ERROR_LIBRARY saying so.
 * Threads: the runner's one thread. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"
#include "wb-executor.h"

G_BEGIN_DECLS

#define WB_CUDA_NCCL_ID_BYTES 128 /* NCCL_UNIQUE_ID_BYTES */

/* The collective a bound symbol stands for, by its symbol table row: thunder.distributed.prims.<op>, the torch
 * executor's torch_<op>_prim_impl (an alias of it) and ltorch.<op>. */
typedef enum
{
  WB_CUDA_NCCL_NONE = 0,
  WB_CUDA_NCCL_ALL_REDUCE,
  WB_CUDA_NCCL_ALL_GATHER,
  WB_CUDA_NCCL_REDUCE_SCATTER,
  WB_CUDA_NCCL_BROADCAST,
  WB_CUDA_NCCL_WAIT,
  WB_CUDA_NCCL_DTENSOR_LOCAL, /* dtensor_from_local, dtensor_to_local: the local tensor (wb-cuda-nccl-dtensor.c) */
  WB_CUDA_NCCL_REDISTRIBUTE,  /* dtensor_redistribute: the collective its placements ask for (wb-cuda-nccl-dtensor.c) */
} WbCudaNcclOp;

/* wb_cuda_nccl_op: the collective @bsym calls, or WB_CUDA_NCCL_NONE. */
WbCudaNcclOp wb_cuda_nccl_op (const WbBsym *bsym);

/* wb_cuda_nccl_get_unique_id: fills @id (WB_CUDA_NCCL_ID_BYTES bytes) with a new ncclUniqueId; the process
 * that makes it hosts NCCL's bootstrap and must live until every rank joined. FALSE with WB_CUDA_ERROR_LIBRARY
 * (no libnccl) or WB_CUDA_ERROR_CALL. */
gboolean wb_cuda_nccl_get_unique_id (guint8 *id, GError **error);

/* wb_cuda_nccl_init: joins the communicator of @world_size ranks as @rank on @rt's device (ncclCommInitRank;
 * blocks until every rank joined). Idempotent for the same id; a different id replaces the communicator.
 * FALSE with WB_CUDA_ERROR_LIBRARY or WB_CUDA_ERROR_CALL (NCCL's message). */
gboolean wb_cuda_nccl_init (WbCudaRuntime *rt, guint world_size, guint rank, const guint8 *id, GError **error);

/* wb_cuda_nccl_get_world_size: ranks of the communicator; 1 without one (every collective is then the
 * identity on one rank, run without NCCL). */
guint wb_cuda_nccl_get_world_size (void);

/* wb_cuda_nccl_get_version: (transfer none) "2.27.7", or NULL before libnccl is loaded. */
const char *wb_cuda_nccl_get_version (void);

/* wb_cuda_nccl_run: runs @call, a collective (wb_cuda_nccl_op), on device tensors; sets call->result (a device
 * tensor: for do_async the tensor a later wait() returns). dim 0 only for all_gather and reduce_scatter
 * (Thunder's FSDP); tensors of bool, integer and floating dtypes NCCL has. Inside a CUDA graph capture the
 * collective becomes a node of the graph; while a launch list is recorded, the list keeps it. FALSE with
 * WB_CUDA_ERROR_CALL (arguments, NCCL's failure), WB_CUDA_ERROR_LIBRARY or WB_CUDA_ERROR_CAPTURE (the first
 * collective of a run without a communicator, inside a capture: the communicator is not made there). */
gboolean wb_cuda_nccl_run (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

/* wb_cuda_nccl_join_all: makes the run's stream wait for every pending collective and lets their tensors go
 * (the end of a run: Thunder waits on every future it makes, this covers one that is never waited on). */
gboolean wb_cuda_nccl_join_all (WbCudaRuntime *rt, GError **error);

/* wb_cuda_nccl_get_calls: collectives run since the last reset (for the runner's statistics). */
guint wb_cuda_nccl_get_calls (void);

/* wb_cuda_nccl_shutdown: joins, then destroys the communicator (the runner's exit). */
void wb_cuda_nccl_shutdown (WbCudaRuntime *rt);

/* Private to executors/cuda (wb-cuda-nccl-dtensor.c). */
/* _wb_cuda_nccl_collective: a synchronous @op (ALL_REDUCE, ALL_GATHER or REDUCE_SCATTER, dim 0 of the flat
 * buffers) from contiguous device tensor @in into contiguous @out, which the caller allocated (all_gather:
 * world size times @in's elements; reduce_scatter: @in's over the world size), with reduction @red
 * (WbPartialOp: sum, avg, max, min, product) on the communication stream, the run's stream waiting for it. */
gboolean _wb_cuda_nccl_collective (WbCudaRuntime *rt, WbCudaNcclOp op, WbTensor *in, WbTensor *out, int red, GError **error);
/* _wb_cuda_nccl_get_rank: this process's rank in the communicator (0 without one). */
guint _wb_cuda_nccl_get_rank (void);
/* _wb_cuda_nccl_run_dtensor: runs a WB_CUDA_NCCL_DTENSOR_LOCAL or WB_CUDA_NCCL_REDISTRIBUTE call. */
gboolean _wb_cuda_nccl_run_dtensor (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

G_END_DECLS
