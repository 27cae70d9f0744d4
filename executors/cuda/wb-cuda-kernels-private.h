/* wb-cuda-kernels-private.h — what the files of the hand-written kernels share (wb-cuda-kernels*.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-cuda-kernels.c holds the op table and the dispatch (wb_cuda_kernels_run), these helpers, and the random
 * draws, sorting, argmax and nll_loss_backward; wb-cuda-kernels-pool.c the pooling ops; wb-cuda-kernels-index.c
 * index_add, scatter_add, embedding and its backward, cumsum and kl_div. Each family's kernels are one NVRTC unit (its .cuh after
 * wb-cuda-kernels-common.cuh, embedded by meson.build), compiled on first use and cached on disk.
 * Errors: WB_CUDA_ERROR_CALL for an argument of a form or dtype the kernels refuse (the executor then runs
 * the call on the cpu, with the message as the reason), other WB_CUDA_ERRORs from compiling and launching,
 * WB_EXECUTOR_ERROR_BAD_ARGUMENT for an index out of range seen in a checked run. Threads: the runner's. */
#pragma once

#if !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-kernels.h"

G_BEGIN_DECLS

/* the largest grid the kernels launch (they stride over the rest) */
#define WB_CUDA_KERN_MAX_GRID 65535

/* _wb_cuda_kern_unsupported: sets WB_CUDA_ERROR_CALL with the message; returns FALSE. */
gboolean _wb_cuda_kern_unsupported (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* _wb_cuda_kern_arg_int: argument @pos (or keyword @name) of @call as an int (a bool counts); @def when it is
 * missing or None and @optional. FALSE with WB_CUDA_ERROR_CALL otherwise. */
gboolean _wb_cuda_kern_arg_int (WbKernelCall *call, guint pos, const char *name, gboolean optional, gint64 def, gint64 *out, GError **error);
/* _wb_cuda_kern_arg_device: (transfer full) argument @pos as a device tensor (a host tensor is uploaded for
 * the call); NULL when it is missing or None and @optional (without an error), or with WB_CUDA_ERROR_CALL
 * when it is not a tensor. */
WbTensor *_wb_cuda_kern_arg_device (WbCudaRuntime *rt, WbKernelCall *call, guint pos, const char *name, gboolean optional, GError **error);
/* _wb_cuda_kern_device_as: (transfer full) device tensor @t converted to @dtype and contiguous (@t itself,
 * referenced, when it already is). */
WbTensor *_wb_cuda_kern_device_as (WbCudaRuntime *rt, WbTensor *t, WbDtype dtype, GError **error);
/* _wb_cuda_kern_suffix: the kernels' name suffix of @dt ("f32", "bf16", "i64", ...), NULL for a dtype they
 * have no entries for. */
const char *_wb_cuda_kern_suffix (WbDtype dt);
/* _wb_cuda_kern_blocks: blocks of WB_CUDA_BLOCK threads for @n items. */
gint64 _wb_cuda_kern_blocks (gint64 n);
/* _wb_cuda_kern_launch: launches the entry @kernel_<suffix of @dt> (@kernel itself for WB_DTYPE_UNKNOWN) of
 * the unit @source (static text) with @blocks blocks (at most WB_CUDA_KERN_MAX_GRID) of WB_CUDA_BLOCK
 * threads; @what names the launch in errors and the launch hook. WB_CUDA_ERROR_CALL for a dtype without
 * entries. */
gboolean _wb_cuda_kern_launch (WbCudaRuntime *rt, const char *source, const char *kernel, WbDtype dt, gint64 blocks, void **args, const char *what, GError **error);
/* _wb_cuda_kern_set_tensor: sets call->result to @t (transfer full); returns TRUE. */
gboolean _wb_cuda_kern_set_tensor (WbKernelCall *call, WbTensor *t);
/* _wb_cuda_kern_sort: sorts contiguous device tensor @a, [@outer, @n, @inner], along its middle dim (stable;
 * NaN above every number; descending when @desc) and writes the first @k of each row: their values into
 * @vals (@a's dtype) and their positions into @inds (int64), both contiguous [@outer, @k, @inner] and
 * allocated by the caller. Rows of more than 2048 use rows x next_pow2(@n) x 16 bytes of scratch. */
gboolean _wb_cuda_kern_sort (WbCudaRuntime *rt, WbTensor *a, gint64 outer, gint64 n, gint64 inner, gint64 k, gboolean desc, WbTensor *vals, WbTensor *inds, const char *what, GError **error);

/* wb-cuda-kernels-pool.c: (transfer none) the pooling unit's CUDA C (without the prelude) */
const char *_wb_cuda_kernels_pool_source (void);
/* max_pool{2,3}d_with_indices (a, kernel_size, stride, padding, dilation, ceil_mode) over the trailing @f dims:
 * (values, indices), both of a's dtype (f64, f32, bf16, f16). */
gboolean _wb_cuda_kernels_max_pool (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error);
/* max_pool{2,3}d_with_indices_backward (grad, a, kernel_size, stride, padding, dilation, ceil_mode, result1):
 * the gradient of a, grad's dtype. */
gboolean _wb_cuda_kernels_max_pool_backward (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error);
/* ltorch.adaptive_avg_pool{2,3}d (a, output_size) over the trailing @f dims. */
gboolean _wb_cuda_kernels_adaptive_avg (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error);
/* ltorch.adaptive_avg_pool2d_backward (g, a) over the trailing @f dims: the gradient of a, a's dtype. */
gboolean _wb_cuda_kernels_adaptive_avg_backward (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error);

/* wb-cuda-kernels-index.c: (transfer none) the index unit's CUDA C (without the prelude) */
const char *_wb_cuda_kernels_index_source (void);
/* prims.index_add (a, index, value, dim) */
gboolean _wb_cuda_kernels_index_add (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* prims.scatter_add (a, index, value, dim) */
gboolean _wb_cuda_kernels_scatter_add (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* prims.embedding (a, weight, *, padding_idx, max_norm=None, ...): rows of weight [num, d] (max_norm refused) */
gboolean _wb_cuda_kernels_embedding (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* prims.embedding_backward (grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse): [num, d] */
gboolean _wb_cuda_kernels_embedding_backward (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* ltorch.cumsum (a, dim, *, dtype=None) */
gboolean _wb_cuda_kernels_cumsum (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* ltorch.kl_div (input, target, size_average, reduce, reduction='mean', log_target=False) */
gboolean _wb_cuda_kernels_kl_div (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* kl_div_vjp (((input, target), {'reduction': ..., 'log_target': ...}), g) -> (grad_input, grad_target): the
 * torch executor's vjp of kl_div, both gradients in one kernel */
gboolean _wb_cuda_kernels_kl_div_vjp (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* copy_with_setitem (a, key, value): a copy of a with a[key] = value; ints, slices and ... as the key (the
 * strided copy of the runtime, no kernel of its own) */
gboolean _wb_cuda_kernels_copy_with_setitem (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

G_END_DECLS
