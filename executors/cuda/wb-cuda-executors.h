/* wb-cuda-executors.h — the nvrtc, cublas and cuda executors over device tensors, and cuBLASLt matmul
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each executor is a WbExecutor (executors/wb-executor.h) that runs in the runner process on device
 * tensors. They share one dispatch: a call the executor was chosen for goes to its own kernels when it
 * has them, and otherwise down a fixed chain so that a whole program always runs on the GPU where it can:
 *   nvrtc   a fusion region (or composite) whose every prim has a generator: one plan, its kernels
 *           (wb-cuda-codegen.h); a region it cannot take whole is split by the interpreter into its
 *           subsymbols, each dispatched as below
 *   cublas  prims.matmul and prims.linear (also reached through ltorch.matmul/linear): cuBLASLt
 *   cuda    any other prim with a generator: one kernel per op (the eager baseline); prims.copy_
 *           writes into its destination on the device
 *   kernel  random draws, topk/sort, argmax/argmin, nll_loss_backward: hand-written kernels (wb-cuda-kernels.h)
 *   (any)   scaled dot-product attention (the sdpa executor's ops, ltorch.scaled_dot_product_attention):
 *           cuBLASLt GEMMs and NVRTC row kernels (wb-cuda-attention.h); counted under matmuls
 *   cpu     anything else (library ops without a decomposition that no kernel above takes): the
 *           arguments are downloaded, the cpu executor runs it, the results are uploaded. Counted and
 *           reported per symbol ("fallbacks").
 * Whether an executor takes a call is the registry's answer (wb_executor_info_can_run, compiler/
 * wb-executor-info.h), never decided here: a call the executor assigned does not take goes to the first
 * executor of the CUDA priority that does (Thunder's claiming), and this file only chooses how it runs
 * there (the paths above, then the cpu fallback when the path is refused at run time).
 * Arguments that are still host tensors (cotangents drawn by the interpreter, constants) are uploaded
 * on first use and the copy is kept for the rest of the run (wb_cuda_executors_begin_run ... end_run). */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* wb_cuda_executor_get: (transfer none) the runner's executor named @name, one per runnable row of the
 * registry (wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE); the cpu one runs the cpu executor
 * through transfers); NULL for another name (Thunder's read-only executors included) or when CUDA is
 * unavailable (@error). */
WbExecutor *wb_cuda_executor_get (const char *name, GError **error);
/* wb_cuda_executor_peek: (transfer none) the CUDA executor @name (a registry name) without asking for the
 * device: what it would take and how (can_execute, wb_cuda_executors_precompile_sources) answers on a machine
 * without a GPU; running a call through it asks for the device then. NULL for a name the registry does not
 * run here. */
WbExecutor *wb_cuda_executor_peek (const char *name);
/* wb_cuda_executors_set_program: the traces of the program about to run (@backward may be NULL): the
 * registry's claim rule reads their types. Keeps none of them past the next call; forgets the memo. */
void wb_cuda_executors_set_program (const WbTrace *forward, const WbTrace *backward);
/* wb_cuda_executors_takes: whether the runner's executor @executor (a runnable registry name) takes @bsym
 * itself: the registry's answer with the program's types, which the runner's dispatch asks first. FALSE
 * with a reason in *why_not (transfer full; may be NULL). Needs no GPU. */
gboolean wb_cuda_executors_takes (const char *executor, const WbBsym *bsym, char **why_not);

/* WbCudaDispatchStats: what ran where since begin_run. */
typedef struct
{
  guint       regions_fused;    /* calls run as one nvrtc plan */
  guint       plan_kernels;     /* kernels those plans launched */
  guint       ops_generated;    /* prims run as one-op plans (cuda) */
  guint       matmuls;          /* cuBLASLt calls */
  guint       fallbacks;        /* calls run on the cpu with transfers */
  GHashTable *fallback_symbols; /* (element-type utf8 guint) name -> count (owned by the executors) */
  GHashTable *fallback_reasons; /* (element-type utf8 utf8) name -> first reason */
  guint       device_rebuilds;  /* call sites (regions, split segments, ops) switched to a plan built again for the
                                   device's limits (WB_CUDA_ERROR_RESIDENT: no mixed reductions; _SHARED_MEMORY: no
                                   lookup tables; wb-cuda-codegen.h's WbCudaCodegenFlags); each site once */
  char *device_rebuild_reason;  /* the first such error, "REGION: message" (owned by the executors) */
  /* autotuning (wb_cuda_executors_set_autotune): plans whose variants were timed this run, plans whose variant
   * came from the autotune cache, of both those that run a variant other than the default, and variants whose
   * results disagreed with the default's (a generator's error: refused) */
  guint      autotune_tuned;
  guint      autotune_cached;
  guint      autotune_changed;
  guint      autotune_refused;
  char      *autotune_refusal; /* the first refused, "VARIANT of REGION" (owned by the executors) */
  GPtrArray *autotune_choices; /* (element-type utf8) "REGION: VARIANT (5.1 us, the default 7.2 us, of 4 variants)"
                                  for each plan run as another variant than the default, in order */
} WbCudaDispatchStats;

/* wb_cuda_executors_begin_run / end_run: a run's scope for uploaded host tensors and statistics; every
 * program must start with begin_run (plans are cached under the printed call; the memo from bound
 * symbols to their text is only valid for one program). */
void wb_cuda_executors_begin_run (void);
void wb_cuda_executors_end_run (void);
/* wb_cuda_executors_forget_program: drops what is tied to the bound symbols of the current program. */
void wb_cuda_executors_forget_program (void);
/* Calls on the runtime's second stream (wb-cuda-exec-streams.c; wb-cuda-runtime.h, "Two streams").
 * wb_cuda_executors_call_starting: before top-level call @b of @trace runs (the interpreter's call_started,
 * ahead of anything that records an event for it): places it on the side stream when it is a cuBLASLt call
 * of the checked run whose outputs the next two calls do not read, and the runtime allows two streams and
 * is not synchronising every launch. FALSE with WB_CUDA_ERROR_CALL when the fork fails.
 * wb_cuda_executors_call_finished: after it ran (the interpreter's observer, after whatever records its
 * end): @args and @result (transfer none) are what it read and wrote; the run's stream becomes current
 * again. Also with @b NULL, to leave the side stream after a failed call. */
gboolean wb_cuda_executors_call_starting (const WbTrace *trace, const WbBsym *b, GError **error);
void     wb_cuda_executors_call_finished (const WbBsym *b, WbRtValue *const *args, guint n_args, WbRtValue *result);
/* wb_cuda_executors_late_calls: (transfer container) (element-type WbBsym) the top-level calls of @trace
 * whose outputs the next two calls do not read, in order: those of them that take cuBLASLt go to the side
 * stream. The program's memo: valid until wb_cuda_executors_forget_program. */
GPtrArray *wb_cuda_executors_late_calls (const WbTrace *trace);

/* wb_cuda_executors_set_cpu_fallback: whether a call that no GPU path takes (or that its path refuses at run
 * time: a dtype, a shape, a library without an engine for it) may run on the cpu, its tensors downloaded and
 * the results uploaded. Off by default: such a call then fails the run with WB_EXECUTOR_ERROR_CPU_FALLBACK
 * naming the op and the reason (the interpreter adds FILE:LINE). Calls of a region or op the user assigned to
 * the cpu executor run there either way. Process-wide; the runner sets it per request. */
void wb_cuda_executors_set_cpu_fallback (gboolean allowed);

/* wb_cuda_executors_set_tf32: whether f32 convolutions may run on tensor cores in TF32 (10-bit mantissa
 * products, f32 sums), as PyTorch lets cuDNN by default (torch.backends.cudnn.allow_tf32); off by default:
 * f32 is then exact (wb-cudnn-conv.cc). Matmuls stay exact either way, as PyTorch's default
 * (torch.backends.cuda.matmul.allow_tf32 False). Process-wide; the runner sets it per request. */
void     wb_cuda_executors_set_tf32 (gboolean allowed);
gboolean wb_cuda_executors_get_tf32 (void);

/* wb_cuda_executors_set_autotune: whether the first launch of each generated plan times the code generator's
 * variants of it on the call's inputs and keeps the fastest (wb-cuda-autotune.c), the choice stored beside the
 * kernel cache under the device and the plan's source, and read from there by later runs with autotuning on;
 * off by default (every plan the generator's default). Process-wide; the runner sets it per request. */
void     wb_cuda_executors_set_autotune (gboolean on);
gboolean wb_cuda_executors_get_autotune (void);

/* wb_cuda_executors_precompile_sources: (transfer full) (element-type utf8) the distinct CUDA sources of the
 * plans @program's executors generate for it (forward and backward): every top-level fusion region run as
 * one plan, every call run as one plan, the fused runs of regions split around library calls, and the same
 * for the subsymbols of calls the executor decomposes; each from the trace's annotations (or types its
 * metas derive), with the layouts the run gives their inputs: dense, or the strides of a view a plan
 * made (size-1 dimensions with stride 0); also the copies (wb_cuda_copy_source) of copy_, of views a library
 * call or hand-written kernel takes dense and of returned views, and the hand-written kernels' units.
 * @n_failed (nullable): plans that could not be generated from the annotations (left to the run), and
 * @first_failure (nullable, transfer full) the first one's call and reason. @program's traces must be the ones set
 * (wb_cuda_executors_set_program) and its executors assigned. Needs no device. */
GPtrArray *wb_cuda_executors_precompile_sources (WbProgram *program, guint *n_failed, char **first_failure);

/* wb_cuda_executors_precompile: compiles wb_cuda_executors_precompile_sources (@program) with NVRTC for
 * @arch ("sm_90", or "compute_90" for PTX) on @threads threads (0: one per processor) into the kernel cache,
 * so that the checked run finds them there rather than compiling them one after another. @n_sources
 * (nullable) receives the number of distinct compile units, @n_compiled how many of them NVRTC compiled (the
 * rest were in the disk cache). Returns the wall time (ms). Compile errors are left for the run to report. */
double wb_cuda_executors_precompile (const char *arch, WbProgram *program, guint threads, guint *n_sources, guint *n_compiled);

/* wb_cuda_executors_get_stats: (transfer none) the statistics of the current or last run. */
const WbCudaDispatchStats *wb_cuda_executors_get_stats (void);

/* wb_cuda_executors_explain: appends to @out where each call of @trace would run with @executor as the
 * default (a tree: "TorchCompile0: split", "  prims.linear: cublas", ...) from the structure alone (no GPU
 * needed; a region whose plan fails for its actual arguments is split at run time). Returns the number of
 * calls that would fall back to the cpu or fail. */
guint wb_cuda_executors_explain (const WbTrace *trace, const char *executor, GString *out);

/* wb_cuda_matmul: @out = @a @ @b (prims.matmul: [..., M, K] x [K, N] or batched [B..., M, K] x [B..., K, N])
 * or, with @linear, @a @ @b^T + @bias (prims.linear: b is [N, K], bias [N] or NULL), through cuBLASLt with
 * f32 accumulation (no TF32) for f32, bf16 and f16. FALSE with WB_CUDA_ERROR_CALL and a reason when the
 * shapes or dtypes are not handled (the caller falls back). (transfer full) @out. */
gboolean wb_cuda_matmul (WbCudaRuntime *rt, WbTensor *a, WbTensor *b, WbTensor *bias, gboolean linear, WbTensor **out, GError **error);

/* WbCudaGemmOperand: one operand of wb_cuda_gemm: row-major rows of @ld elements of @dtype (f32, bf16, f16)
 * at device address @ptr, matrices @bstride elements apart (0: one matrix for the whole batch); @trans: the
 * memory holds the operand's transpose. */
typedef struct
{
  CUdeviceptr ptr;
  WbDtype     dtype;
  gint64      ld;
  gint64      bstride;
  gboolean    trans;
} WbCudaGemmOperand;

/* wb_cuda_gemm: row-major C[M, N] = @alpha op(A)[M, K] op(B)[K, N] for @batch matrices on the run's
 * stream through cuBLASLt, f32 accumulation (no TF32); the algorithm of each (shapes, layouts, alignments)
 * is chosen once (shared with wb_cuda_matmul, as are the handle and the 32 MiB workspace). @what names
 * the call to the launch hook and in errors. FALSE with WB_CUDA_ERROR_CALL (or WB_CUDA_ERROR_LIBRARY
 * without cuBLASLt). */
gboolean wb_cuda_gemm (WbCudaRuntime *rt, const char *what, gint64 batch, gint64 M, gint64 N, gint64 K, float alpha, const WbCudaGemmOperand *a, const WbCudaGemmOperand *b, const WbCudaGemmOperand *c, GError **error);

G_END_DECLS
