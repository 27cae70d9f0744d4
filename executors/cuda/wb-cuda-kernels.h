/* wb-cuda-kernels.h — hand-written kernels for the ops the code generator cannot express
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-op `cuda` path (and every other CUDA executor, through the dispatch of wb-cuda-executors.c) runs
 * these calls on the GPU instead of falling back to the cpu executor. The kernels are CUDA C templates in
 * three units (wb-cuda-kernels.cuh, -pool.cuh, -index.cuh, each after wb-cuda-kernels-common.cuh; compiled by
 * NVRTC on first use and cached on disk like generated code) with the cpu executor's semantics:
 *   prims.uniform, uniform (torch's alias): the run's Philox state (call->state: seed, offset), which then
 *     advances by the blocks drawn, as the cpu does; prims.uniform_philox(seed=, offset=): exactly there.
 *     f32, bf16, f16, f64; values bit-identical to the cpu's (wb-philox.h for the counter layout).
 *   prims.randn (floats; Box-Muller in double: equal to the cpu's after rounding to f32 except for rare 1-ulp
 *     differences of CUDA's log/sin/cos), prims.randint (any dtype; exact).
 *   prims.topk (a, k, dim, largest, sorted) and prims.sort (a, dim, descending[, sorted]) -> (values, indices
 *     i64): stable (ties keep the lower index first), NaN above every number; any dim; rows of up to 2048
 *     elements sort in one block's shared memory, longer rows in global memory with one launch per bitonic
 *     step (rows x next_pow2(n) x 16 bytes of scratch). Every dtype but complex.
 *   prims.argmax / prims.argmin (a, dim or None) -> i64: the first NaN, else the first extreme.
 *   ltorch.nll_loss_backward, torch_nll_loss_backward_impl (g, input, target, weight, reduction,
 *     ignore_index, total_weight): one kernel over the gradient, computed in double.
 *   prims.update_aliases, update_aliases: the values themselves (no kernel), as the cpu does.
 *   max_pool2d_with_indices, max_pool3d_with_indices (a, kernel_size, stride, padding, dilation, ceil_mode)
 *     -> (values, indices), both of a's dtype as Thunder types them (a plane too large for that dtype to
 *     count exactly is refused, as on the cpu); their _backward (grad, a, ..., result1): each input
 *     element gathers the gradients of the outputs whose saved index names it (deterministic); the checked
 *     run also tests that every index lies in its output's window. 1 to 3 spatial dims, any leading dims.
 *   ltorch.adaptive_avg_pool2d / 3d (a, output_size) and ltorch.adaptive_avg_pool2d_backward (g, a): ATen's
 *     windows; the backward gathers too. Pooling takes f64, f32, bf16, f16 and sums in f32 (f64 for f64).
 *   prims.index_add (a, index[J], value, dim), prims.scatter_add (a, index, value, dim): out = a plus the
 *     values whose index names each element, in ascending source order, summed in f32 for f32/bf16/f16
 *     (f64, int64 wrapping for integers) and rounded once; deterministic (the index is sorted stably, each
 *     output element gathers its run of keys). Floats and integers but b8.
 *   prims.embedding (a, weight, max_norm=None): rows of weight copied as stored; prims.embedding_backward
 *     (grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse=False): index_add's sorted gather into
 *     zeros, the padding row 0, each value scaled by 1 / its row's count with scale_grad_by_freq.
 *   ltorch.cumsum (a, dim, dtype=None): sums in double for floats and int64 for integers (and the result
 *     int64 for integer inputs unless dtype= says), as the cpu; a thread a row or a block scan a row.
 *   ltorch.kl_div (input, target, ..., reduction, log_target): elementwise in double; 'sum', 'mean' and
 *     'batchmean' summed in double by a fixed grid, then one block (the same bits every run).
 *   kl_div_vjp (((input, target), {kwargs}), g): the torch executor's vjp of kl_div, both gradients at each
 *     element in one pass, in double (grad_target NaN where target is 0, as PyTorch's autograd).
 *   ltorch.detach, torch.detach: the input itself, as the cpu aliases it.
 * Indices out of range (index_add, scatter_add, embedding, a max pool's saved indices, nll_loss_backward's targets) are
 * clamped and recorded (wb_index_bad of the prelude): the checked run fails the call, as the cpu would.
 * Arguments that are host tensors are uploaded for the call. Shapes, k and dims are kernel parameters, so
 * one compiled module serves every call. Random draws refuse stream capture (a CUDA graph would replay
 * their seed and offset): wb_cuda_runtime_check_capturable. Threads: the runner's thread only (like WbCudaRuntime). */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* wb_cuda_kernels_takes: TRUE when @bsym (a call without subsymbols: a prim, an ltorch op Thunder printed
 * without a decomposition, an executor's op or an alias of one) has a kernel here. Structural only (no
 * dtypes, no shapes). */
gboolean wb_cuda_kernels_takes (const WbBsym *bsym);

/* wb_cuda_kernels_run: runs @call (a call wb_cuda_kernels_takes accepts) on the GPU and sets call->result
 * (device tensors, transfer full). FALSE with WB_CUDA_ERROR_CALL and the reason when an argument is of a
 * form or dtype the kernels do not handle (the caller falls back to the cpu executor), other WB_CUDA_ERRORs
 * from compiling or launching (WB_CUDA_ERROR_FAULT: the context is lost). */
gboolean wb_cuda_kernels_run (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

/* wb_cuda_kernels_source: (transfer none) the CUDA C of unit @unit (without the prelude, which the compiler
 * adds): 0 random draws, sorting, argmax, nll_loss_backward; 1 pooling; 2 index_add, scatter_add,
 * embedding and its backward, cumsum, kl_div and its vjp; NULL from 3 on. What --compile-only and the disk cache compile. */
const char *wb_cuda_kernels_source (guint unit);

G_END_DECLS
