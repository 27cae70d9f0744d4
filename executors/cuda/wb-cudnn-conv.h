/* wb-cudnn-conv.h — convolution, and its transpose, through cuDNN's graph API, built with NVIDIA's
 * header-only cudnn-frontend (a C interface over one C++ file, beside wb-cudnn-sdpa.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One graph per key: a forward convolution (cudnn-frontend `Graph::conv_fprop`, cross-correlation as PyTorch's
 * convolution) or a transposed one (`Graph::conv_dgrad`: the transposed convolution of x by w is the data
 * gradient of the forward convolution whose filter is w), optionally followed by a pointwise add of a bias of
 * one value per output channel in the same graph, which cuDNN's runtime fusion engines take for some layouts
 * and dtypes and refuse for others (the caller then builds the graph without the bias and adds it itself).
 * Tensors are 4-d (2 spatial dims; the caller gives a 1-d convolution a unit height) or 5-d, logical
 * [N, C, *S] with any positive strides (elements); the filter is [K, C/groups, *R] for the forward and
 * [C_in, C_out/groups, *R] for the transpose: cuDNN derives the group count from the channel counts. The
 * output is written contiguous. Accumulation and the bias add are f32 (cuDNN's compute type FLOAT); f32 graphs
 * leave out the engines on tensor cores, which would compute in TF32 (PyTorch lets cuDNN do so by default:
 * torch.backends.cudnn.allow_tf32), so that f32 is f32 here as on the cpu executor and in cuBLASLt's matmuls.
 * libcudnn.so.9 is opened by wb_cudnn_load (wb-cudnn-sdpa.h). Threads: the runner's thread. */
#pragma once

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

#define WB_CUDNN_CONV_MAX_RANK 5

/* WbCudnnConvKey: what a convolution graph is built for (compared byte for byte: zero it before filling in) */
typedef struct
{
  gint32 dtype;      /* WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16 or WB_DTYPE_FLOAT16: x, w, y and the bias */
  gint32 transposed; /* 0: y = conv(x, w); 1: y = conv_transpose(x, w) */
  gint32 rank;       /* 4 or 5: the tensors' rank (2 or 3 spatial dims) */
  gint32 bias;       /* 1: y += bias[k] in the graph (bias contiguous [K]) */
  gint32 tf32;       /* 1: an f32 graph may run on tensor cores in TF32 (wb_cuda_executors_set_tf32) */
  gint32 reserved;   /* 0 (the key is compared as bytes) */
  gint64 x_dims[WB_CUDNN_CONV_MAX_RANK], x_strides[WB_CUDNN_CONV_MAX_RANK];
  gint64 w_dims[WB_CUDNN_CONV_MAX_RANK], w_strides[WB_CUDNN_CONV_MAX_RANK];
  gint64 y_dims[WB_CUDNN_CONV_MAX_RANK];  /* y is contiguous */
  gint64 pre_padding[3], post_padding[3]; /* per spatial dim, before and after */
  gint64 stride[3], dilation[3];
} WbCudnnConvKey;

typedef struct _WbCudnnConvPlan WbCudnnConvPlan;

/* wb_cudnn_conv_plan: (transfer none) the built graph for @key, kept for the life of the process (built on
 * first use: validate, operation graph, heuristics mode A then the fallback list, support check, plan; a few
 * to hundreds of ms). @workspace_bytes receives the scratch its execution needs (bytes, may be 0). NULL with
 * WB_CUDA_ERROR_NOT_SUPPORTED and cuDNN's reason when no engine takes the graph, or WB_CUDA_ERROR_LIBRARY
 * when cuDNN is not available; a refusal is remembered for that key. */
WbCudnnConvPlan *wb_cudnn_conv_plan (const WbCudnnConvKey *key, gint64 *workspace_bytes, GError **error);

/* wb_cudnn_conv_execute: runs @plan on @stream. @x, @w, @y (and @bias when the key has one; else 0) are
 * device addresses; @workspace at least the plan's workspace bytes (0 when it needs none). FALSE with
 * WB_CUDA_ERROR_CALL and cuDNN's message when the launch fails. */
gboolean wb_cudnn_conv_execute (WbCudnnConvPlan *plan,
                                CUstream         stream,
                                CUdeviceptr      x,
                                CUdeviceptr      w,
                                CUdeviceptr      bias,
                                CUdeviceptr      y,
                                CUdeviceptr      workspace,
                                GError         **error);

/* WbCudnnConvStats: graphs built since the process started, refused keys, and the build time (ms, host). */
typedef struct
{
  guint  built;
  guint  refused;
  double build_ms;
} WbCudnnConvStats;

/* wb_cudnn_conv_get_stats: copies the counters into @out. */
void wb_cudnn_conv_get_stats (WbCudnnConvStats *out);

G_END_DECLS
