/* wb-cudnn-sdpa.h — scaled dot-product attention forward and backward through cuDNN's fused flash-attention
 * engines, built with NVIDIA's header-only cudnn-frontend (a C interface over one C++ file)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Why the frontend: cuDNN's C backend on the GPU machine (9.14) has only the non-causal fused forward
 * (CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR); causal masks and the backward need the "composite" operation
 * graph of matmuls, pointwise ops and reductions that cuDNN's engines recognise, which cudnn-frontend
 * (NVIDIA/cudnn-frontend, `Graph::sdpa` and `Graph::sdpa_backward`, PyPI nvidia-cudnn-frontend 1.32.0,
 * fetched by tools/setup.sh) builds for the runtime version it finds (../shared/docs/gpu-apis.md §4).
 * libcudnn.so.9 and libcudart are opened with dlopen at first use (the frontend's
 * NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING), so nothing here is a DT_NEEDED of the runner.
 *
 * Semantics are the cpu executor's (executors/cpu/wb-cpu-attention.c): q [B, H, Tq, E], k [B, H, Tk, E],
 * v [B, H, Tk, E], bf16 or f16, any strides with unit inner stride, scale multiplies Q K^T, is_causal top-left
 * aligned (query i sees keys j <= i); the statistics are the natural-log log-sum-exp of each scaled score
 * row, f32. Accumulation is f32. The backward's dQ is summed by cuDNN's engines in an order that may vary.
 * Threads: the runner's thread (one runtime per process). */
#pragma once

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* WbCudnnSdpaKey: what a cuDNN graph is built for (compared byte for byte: zero it before filling it in) */
typedef struct
{
  gint32 dtype;    /* WB_DTYPE_BFLOAT16 or WB_DTYPE_FLOAT16 */
  gint32 backward; /* 0: forward (O and the statistics), 1: backward (dQ, dK, dV) */
  gint32 causal;
  float  scale;
  gint64 b, h, tq, tk, e; /* batch, heads, query and key lengths, head dim */
  gint64 q_strides[4];    /* elements, of q [B, H, Tq, E] */
  gint64 k_strides[4];    /* of k [B, H, Tk, E] */
  gint64 v_strides[4];    /* of v [B, H, Tk, E] */
  gint64 o_strides[4];    /* forward: of the output it writes; backward: of the forward's output it reads */
  gint64 do_strides[4];   /* backward: of the output's gradient; forward: zero */
  gint64 lse_len;         /* the statistics are f32 [B, H, lse_len], contiguous, rows 0..Tq-1 used */
} WbCudnnSdpaKey;

typedef struct _WbCudnnSdpaPlan WbCudnnSdpaPlan;

/* wb_cudnn_load: opens libcudnn.so.9 (once; by name, then in the CUDA toolkit's library directories) and
 * creates the process's cuDNN handle. @version (nullable) receives cudnnGetVersion() (9.14.0 is 91400).
 * FALSE with WB_CUDA_ERROR_LIBRARY ("cuDNN is not available: ...") and the reason, every call, when it fails;
 * WB_CUDA_ERROR_NOT_SUPPORTED when this build has no cuDNN support (the cudnn build option). */
gboolean wb_cudnn_load (gsize *version, GError **error);

/* wb_cudnn_get_handle: (transfer none) the process's cudnnHandle_t (as a pointer) after wb_cudnn_load, for
 * the other cuDNN graphs of the runner (wb-cudnn-conv.h); NULL with wb_cudnn_load's errors. */
gpointer wb_cudnn_get_handle (GError **error);

/* wb_cudnn_sdpa_plan: (transfer none) the built graph for @key, kept for the life of the process (built on
 * first use: cudnn-frontend's validate, operation graph, heuristics mode A, support check, plan; tens to
 * hundreds of ms). @workspace_bytes receives the scratch its execution needs (bytes, may be 0). NULL with
 * WB_CUDA_ERROR_NOT_SUPPORTED and cuDNN's reason when no engine takes the graph (the caller falls back), or
 * WB_CUDA_ERROR_LIBRARY when cuDNN is not available; a refusal is remembered for that key. */
WbCudnnSdpaPlan *wb_cudnn_sdpa_plan (const WbCudnnSdpaKey *key, gint64 *workspace_bytes, GError **error);

/* wb_cudnn_sdpa_execute: runs @plan on @stream. @ptrs are device addresses (16-byte aligned), forward:
 * q, k, v, o, stats; backward: q, k, v, o, do, stats, dq, dk, dv (dq, dk, dv written contiguous
 * [B, H, T, E]). @workspace: at least the plan's workspace bytes (0 when it needs none). FALSE with
 * WB_CUDA_ERROR_CALL and cuDNN's message when the launch fails. */
gboolean wb_cudnn_sdpa_execute (WbCudnnSdpaPlan *plan, CUstream stream, const CUdeviceptr *ptrs, CUdeviceptr workspace, GError **error);

/* WbCudnnSdpaStats: graphs built since the process started and the time they took (ms, host wall clock). */
typedef struct
{
  guint  built;
  guint  refused;
  double build_ms;
} WbCudnnSdpaStats;

/* wb_cudnn_sdpa_get_stats: copies the counters into @out. */
void wb_cudnn_sdpa_get_stats (WbCudnnSdpaStats *out);

G_END_DECLS
