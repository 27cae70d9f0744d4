/* wb-cuda-attention.h — scaled dot-product attention, forward and backward, on the GPU: fused
 * FlashAttention-2 kernels (wb-cuda-flash.h) or cuBLASLt GEMMs and NVRTC row kernels (the runner's attention path)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The semantics and output layouts are the cpu executor's (executors/cpu/wb-cpu-attention.c): q [B, H, Tq, E],
 * k [B, H, Tk, E], v [B, H, Tk, Ev] of one dtype (f32, bf16, f16; any strides), scale (default 1/sqrt(E)),
 * is_causal (top-left aligned: query i sees keys j <= i), dropout_p 0, no attn_mask.
 * Paths, first that takes the call: cuDNN's fused flash attention (wb-cudnn-sdpa.h; bf16 and f16, E = Ev a
 * multiple of 8 up to 128, when the build has cuDNN support, libcudnn.so.9 loads and an engine takes the
 * graph; skipped when WB_CUDA_ATTN is set to anything but "cudnn", e.g. "flash" or "deterministic").
 * Fused path: bf16 and f16 with head dim 64 or 128 (E = Ev) run the FlashAttention-2 kernels of
 * wb-cuda-flash.h (no [Tq, Tk] matrix in memory, no GEMM); everything else, or any call while the
 * environment has WB_CUDA_ATTN=unfused, takes the unfused path below, and the reason is recorded
 * (wb_cuda_attention_get_stats). Unfused forward, per (batch, head), in chunks of heads that bound the
 * scratch memory:
 *   S = scale Q K^T           cuBLASLt strided batch, bf16/f16/f32 operands, f32 accumulation, f32 S
 *   P = softmax(S), lse       NVRTC kernel wb_attn_softmax: one block per row, f32 max/sum, causal mask,
 *                             P in the input dtype, lse = max + log(sum) (f32, 0 in the padding)
 *   O = P V                   cuBLASLt, O in the input dtype
 * Backward (P recomputed from the saved lse, FlashAttention-2's equations):
 *   S = scale Q K^T (f32); P = exp(S - lse), D = rowsum(dO * O)     wb_attn_bwd_p
 *   dV = P^T dO; dP = dO V^T (f32)                                   cuBLASLt
 *   dS = P (dP - D) in the input dtype                               wb_attn_bwd_ds
 *   dQ = scale dS K; dK = scale dS^T Q                               cuBLASLt
 * Scratch comes from the run's stream-ordered pool (wb_cuda_tensor_new) and is freed in stream order.
 * Symbols (positions as printed by Thunder; see wb-cpu-attention.c for the output tuples):
 *   sdpafx_grad_forward_scaled_dot_product_efficient_attention     lse [B, H, ceil16(Tq)], 9 outputs
 *   sdpafx_scaled_dot_product_efficient_attention_backward         (dq, dk, dv)
 *   sdpaex_grad_forward_scaled_dot_product_efficient_attention     lse [B, H, ceil32(Tq)], 4 outputs
 *   sdpaex_scaled_dot_product_efficient_attention_backward         (dq, dk, dv, None)
 *   ltorch.scaled_dot_product_attention                            the output alone (rank 4 only)
 * The seeds, offsets and cumulative lengths these ops return are zero int64 device tensors (no dropout).
 * Threads: the runner's thread (one runtime per process). */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

typedef enum
{
  WB_CUDA_ATTENTION_NONE = 0,
  WB_CUDA_ATTENTION_FLASH_FWD,     /* sdpafx_grad_forward_scaled_dot_product_efficient_attention */
  WB_CUDA_ATTENTION_FLASH_BWD,     /* sdpafx_scaled_dot_product_efficient_attention_backward */
  WB_CUDA_ATTENTION_EFFICIENT_FWD, /* sdpaex_grad_forward_scaled_dot_product_efficient_attention */
  WB_CUDA_ATTENTION_EFFICIENT_BWD, /* sdpaex_scaled_dot_product_efficient_attention_backward */
  WB_CUDA_ATTENTION_SDPA,          /* ltorch.scaled_dot_product_attention (and torch.nn.functional's) */
} WbCudaAttentionOp;

/* wb_cuda_attention_op: which attention op @b calls (by its symbol), or WB_CUDA_ATTENTION_NONE. */
WbCudaAttentionOp wb_cuda_attention_op (const WbBsym *b);

/* wb_cuda_attention_check: whether @b, an attention op, can run here judging by its printed arguments:
 * FALSE with a reason (transfer full, when @why_not is not NULL) for a literal dropout_p other than 0 or an
 * attn_mask that is not None. The dtypes and shapes are checked by wb_cuda_attention_run. */
gboolean wb_cuda_attention_check (const WbBsym *b, char **why_not);

/* wb_cuda_attention_run: runs @call (an attention op, @op) on the GPU and sets @call->result (a tuple laid
 * out as the cpu executor's, device tensors; transfer full). The tensor arguments must be device tensors
 * (any strides). @n_gemms (nullable) receives the number of cuBLASLt calls (0 on the fused path). FALSE with WB_CUDA_ERROR_CALL
 * and a reason starting with "attention: " when the call is not handled here (dropout, mask, dtype, rank,
 * empty sequences, no cuBLASLt algorithm: the caller falls back), or with the CUDA error of a failed call
 * (WB_CUDA_ERROR_FAULT: the context is lost; _OUT_OF_MEMORY; _COMPILE). */
gboolean wb_cuda_attention_run (WbCudaRuntime *rt, WbCudaAttentionOp op, WbKernelCall *call, guint *n_gemms, GError **error);

/* WbCudaAttentionStats: the paths wb_cuda_attention_run took since the last reset (process-wide; calls
 * refused before a path was chosen are not counted). */
typedef struct
{
  guint cudnn;              /* calls run by cuDNN's fused attention (wb-cudnn-sdpa.h) */
  char  why_not_cudnn[240]; /* why the last call that cuDNN did not run went elsewhere ("" when none):
                             * "WB_CUDA_ATTN=flash", "cuDNN is not available: ...", cuDNN's refusal */
  guint fused;              /* calls run by the FlashAttention-2 kernels */
  guint atomic_dq;          /* fused backward calls whose dQ was summed with atomic adds (its last bits vary) */
  guint unfused;            /* calls run by cuBLASLt and the row kernels */
  char  why_unfused[160];   /* why the last unfused call was not fused ("" when none was): "f32 inputs (the
                             * fused kernels take bf16 and f16)", "head dim 80 (...)", "WB_CUDA_ATTN=unfused" */
} WbCudaAttentionStats;

/* wb_cuda_attention_get_stats: copies the counters into @out. */
void wb_cuda_attention_get_stats (WbCudaAttentionStats *out);
/* wb_cuda_attention_reset_stats: zeroes them. */
void wb_cuda_attention_reset_stats (void);

/* wb_cuda_attention_describe_paths: (transfer full) which paths ran the attention calls since the last reset,
 * one line: "cuDNN 9.14.0 2 calls (2 graphs built in 310.2 ms); FlashAttention-2 kernels 1 calls; not cuDNN:
 * ..."; NULL when there were none. */
char *wb_cuda_attention_describe_paths (void);

/* wb_cuda_attention_cudnn_takes: whether calls of @dtype with head dims @e (q, k) and @ev (v) and @scale go to cuDNN
 * first: WB_CUDA_ATTN unset or "cudnn", bf16 or f16, e = ev a multiple of 8 up to 128, scale > 0 (cuDNN 9.14 gave
 * NaN rows for a causal call with scale -0.1: its mask is applied before the scale), a build with cuDNN support and
 * libcudnn.so.9 loaded (wb_cudnn_load). FALSE with the reason (transfer full, when @why_not is not NULL). cuDNN
 * may still refuse a graph at run time (stats.why_not_cudnn). */
gboolean wb_cuda_attention_cudnn_takes (WbDtype dtype, gint64 e, gint64 ev, double scale, char **why_not);

/* wb_cuda_attention_source: (transfer full) the CUDA C of the unfused path's row kernels for @dtype (f32, bf16, f16),
 * entries wb_attn_softmax, wb_attn_bwd_p and wb_attn_bwd_ds, compiled by NVRTC after the prelude; NULL for
 * another dtype. The shapes and the causal flag are kernel arguments, so each dtype compiles once. */
char *wb_cuda_attention_source (WbDtype dtype);

G_END_DECLS
