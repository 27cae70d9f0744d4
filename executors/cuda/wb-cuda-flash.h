/* wb-cuda-flash.h — fused scaled dot-product attention: FlashAttention-2 forward and backward kernels
 * (NVRTC, tensor cores through mma.sync), the fast path of wb-cuda-attention.c
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The algorithm is Tri Dao's, "FlashAttention-2: Faster Attention with Better Parallelism and Work
 * Partitioning" (2023): no [Tq, Tk] matrix ever reaches memory. The forward keeps a tile of query rows in
 * registers and streams key/value tiles through shared memory with an online softmax (running max and
 * sum, f32); it writes O and the log-sum-exp. The backward recomputes P from Q, K and the saved
 * log-sum-exp: a small kernel computes D = rowsum(dO * O), then one kernel per key tile accumulates dK and
 * dV over the query tiles and adds each tile's share of dQ into an f32 sum with atomic adds (the paper's
 * Algorithm 2), and a last kernel scales and rounds dQ. The order of those adds varies, so dQ may differ in
 * its last bits from run to run; with `deterministic`, dQ comes instead from its own kernel, one block per
 * query tile over the key tiles (two more MMAs per tile, no atomics, the same bits every run).
 * Semantics are the cpu executor's (executors/cpu/wb-cpu-attention.c): q [B, H, Tq, E], k [B, H, Tk, E],
 * v [B, H, Tk, E], bf16 or f16, E = 64 or 128, any scale, is_causal top-left aligned (query i sees keys
 * j <= i), Tq and Tk need not be multiples of a tile and may differ. P is rounded to the input dtype
 * before P V, and dS before dS K and dS^T Q (as the unfused path does); accumulation is f32.
 * Threads: the runner's thread (one runtime per process). */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* WbCudaFlashMat: a [B, H, T, E] operand in device memory with unit inner stride: element (b, h, t, e) is at
 * ptr + 2 (b sb + h sh + t ss + e) bytes. ptr and every stride times 2 must be multiples of 16 bytes. */
typedef struct
{
  CUdeviceptr ptr;
  gint64      sb, sh, ss; /* elements */
} WbCudaFlashMat;

typedef struct
{
  WbDtype  dtype;        /* WB_DTYPE_BFLOAT16 or WB_DTYPE_FLOAT16 */
  gint64   b, h, tq, tk; /* batch, heads, query and key lengths (>= 1) */
  gint64   e;            /* head dim of q, k and v: 64 or 128 */
  float    scale;        /* multiplies Q K^T */
  gboolean causal;
  gboolean deterministic; /* backward: dQ without atomic adds (slower; WB_CUDA_ATTN=deterministic) */
} WbCudaFlashDims;

/* wb_cuda_flash_supported: whether the fused kernels take @dtype with head dims @e (q, k) and @ev (v); FALSE
 * with the reason (transfer full, when @why_not is not NULL): "f32 inputs (the fused kernels take bf16 and
 * f16)", "head dim 80 (the fused kernels take 64 and 128)", ... */
gboolean wb_cuda_flash_supported (WbDtype dtype, gint64 e, gint64 ev, char **why_not);

/* wb_cuda_flash_arch_ok: whether the fused kernels compile for a device of compute capability @cc_major.@cc_minor:
 * they store tiles with stmatrix, which PTX has from sm_90 on (their mma.sync, ldmatrix and cp.async from sm_80);
 * FALSE with the reason (transfer full, when @why_not is not NULL): "sm_86: the fused kernels need sm_90 or newer
 * (stmatrix)". Other devices run attention on cuDNN or the unfused kernels. */
gboolean wb_cuda_flash_arch_ok (int cc_major, int cc_minor, char **why_not);

/* wb_cuda_flash_mat: @t (a rank-4 device tensor) as an operand read in place, when its inner stride is 1
 * and its address and strides are 16-byte aligned; FALSE otherwise (the caller copies it). */
gboolean wb_cuda_flash_mat (const WbTensor *t, WbCudaFlashMat *out);

/* wb_cuda_flash_forward: O [B, H, Tq, E] (contiguous, at @o) and the log-sum-exp of each query row in f32
 * [B, H, @lse_len] (contiguous, at @lse; @lse_len >= Tq, rows Tq.. are written 0) on the runtime's stream.
 * FALSE with WB_CUDA_ERROR_CALL ("attention: ..." for sizes beyond the kernels' int indexing) or the
 * error of the compile (WB_CUDA_ERROR_COMPILE) or launch. */
gboolean wb_cuda_flash_forward (WbCudaRuntime *rt, const WbCudaFlashDims *d, const WbCudaFlashMat *q, const WbCudaFlashMat *k, const WbCudaFlashMat *v, CUdeviceptr o, CUdeviceptr lse, gint64 lse_len, GError **error);

/* wb_cuda_flash_backward: dQ [B, H, Tq, E], dK and dV [B, H, Tk, E] (contiguous, at @dq, @dk, @dv) from the
 * gradient @go and output @o [B, H, Tq, E] and the forward's log-sum-exp (f32 [B, H, @lse_len],
 * contiguous). Scratch from the stream-ordered pool, per (batch, head, query row rounded up to 128): 8 bytes,
 * and 4 E bytes (dQ's f32 sum) unless @d->deterministic. Errors as wb_cuda_flash_forward (and WB_CUDA_ERROR_OUT_OF_MEMORY). */
gboolean wb_cuda_flash_backward (WbCudaRuntime *rt, const WbCudaFlashDims *d, const WbCudaFlashMat *q, const WbCudaFlashMat *k, const WbCudaFlashMat *v, const WbCudaFlashMat *go, const WbCudaFlashMat *o, CUdeviceptr lse, gint64 lse_len, CUdeviceptr dq, CUdeviceptr dk, CUdeviceptr dv, GError **error);

/* wb_cuda_flash_source: (transfer full) the CUDA C of the kernels for @dtype (bf16, f16) and head dim
 * @head_dim (64, 128), entries wb_flash_fwd, wb_flash_bwd_dot, wb_flash_bwd_dkdvq (64) or wb_flash_bwd_kvq (128),
 * wb_flash_bwd_dq_convert, and (deterministic) wb_flash_bwd_dkdv and wb_flash_bwd_dq, compiled by NVRTC after
 * the prelude; NULL for another dtype or head dim. */
char *wb_cuda_flash_source (WbDtype dtype, gint64 head_dim);

/* The kernels' text without its defines, in two parts that make one unit in this order (internal to the
 * library): wb_cuda_flash_fwd_text the tile macros, the device helpers and the forward (wb-cuda-flash-kernels.c),
 * wb_cuda_flash_bwd_text the backward kernels (wb-cuda-flash-backward.c). */
extern const char wb_cuda_flash_fwd_text[];
extern const char wb_cuda_flash_bwd_text[];

G_END_DECLS
