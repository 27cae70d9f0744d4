/* wb-cuda-conv.h — convolution on the GPU through cuDNN (the runner's convolution path)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Semantics are the cpu executor's (executors/cpu/wb-cpu-nn.c) and PyTorch's:
 *   convolution(a [N, C_in, *S], weight, bias, stride, padding, dilation, transposed, output_padding, groups)
 * with 1 to 3 spatial dims S; not transposed: weight [C_out, C_in/groups, *R], out [N, C_out, *O] with
 * O = (S + 2 padding - dilation (R - 1) - 1) / stride + 1; transposed: weight [C_in, C_out/groups, *R],
 * O = (S - 1) stride - 2 padding + dilation (R - 1) + output_padding + 1. stride, padding, dilation and
 * output_padding are an int or one entry per spatial dim; bias is None or [C_out]. f32, bf16 and f16, all
 * operands of one dtype; f32 accumulation. The calls taken: prims.convolution and ltorch.convolution (that
 * signature), ltorch.conv1d/conv2d/conv3d (a, weight, bias, stride, padding, dilation, groups; padding also
 * "valid" or "same") and the executors' aliases of them (torch.convolution, ...).
 * The work is cuDNN's (wb-cudnn-conv.h): one graph per shape, built once; the bias is added in the graph when
 * cuDNN's engines take that, else by a small NVRTC kernel after it. Inputs that are not dense or not 16-byte
 * aligned are copied first. Threads: the runner's thread. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* wb_cuda_conv_is_op: whether @b calls one of the convolutions above (by its symbol or the one it aliases). */
gboolean wb_cuda_conv_is_op (const WbBsym *b);

/* wb_cuda_conv_available: whether this build has cuDNN support and libcudnn.so.9 loads; FALSE with a
 * reason (transfer full, when @why_not is not NULL) otherwise. */
gboolean wb_cuda_conv_available (char **why_not);

/* wb_cuda_conv_run: runs @call (a call wb_cuda_conv_is_op accepts) on the GPU and sets @call->result (a new
 * contiguous device tensor, transfer full). Host tensor arguments are uploaded. FALSE with
 * WB_EXECUTOR_ERROR_UNSUPPORTED ("convolution: ...") for arguments outside the semantics above (rank, dtype,
 * channels that do not fit the groups, an empty output), WB_CUDA_ERROR_NOT_SUPPORTED / _LIBRARY when cuDNN
 * takes no graph for it or is missing, or the CUDA error of a failed call (_FAULT, _OUT_OF_MEMORY, _CALL). */
gboolean wb_cuda_conv_run (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

/* wb_cuda_conv_bias_source: (transfer none) the CUDA C of the bias kernels (after the code generator's prelude),
 * for the tests' compile-only run; entries wb_conv_bias_{f32,bf16,f16}. */
const char *wb_cuda_conv_bias_source (void);

/* WbCudaConvStats: what wb_cuda_conv_run did since the last reset (process-wide). */
typedef struct
{
  guint calls;            /* convolutions run by cuDNN */
  guint bias_fused;       /* of them, with the bias added inside cuDNN's graph */
  guint bias_kernel;      /* of them, with the bias added by the NVRTC kernel */
  guint copies;           /* inputs copied first (not dense, or misaligned) */
  char  why_unfused[200]; /* cuDNN's refusal of the last graph with a bias ("" when none) */
} WbCudaConvStats;

/* wb_cuda_conv_get_stats: copies the counters into @out. */
void wb_cuda_conv_get_stats (WbCudaConvStats *out);

/* wb_cuda_conv_reset_stats: zeroes them (the graphs built stay). */
void wb_cuda_conv_reset_stats (void);

/* wb_cuda_conv_describe: (transfer full) one line for the report ("cuDNN 9.14.0: 53 convolutions, 12 graphs
 * built in 410.2 ms, bias in the graph 0, by kernel 1"), or NULL when no convolution ran. */
char *wb_cuda_conv_describe (void);

G_END_DECLS
