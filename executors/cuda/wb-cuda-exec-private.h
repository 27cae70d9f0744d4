/* wb-cuda-exec-private.h — what the files of the runner's CUDA executors share (wb-cuda-executors.h); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-cuda-executors.c    the executors themselves: the path of each call, the vtable, the dispatch, explain
 * wb-cuda-exec-state.c   a run's state: uploaded host tensors, the plan cache, calls refused by the
 *                        generator, dispatch statistics; values between host and device; what a symbol is
 * wb-cuda-exec-fusion.c  the nvrtc paths: a call or fusion region as one plan, a region split around
 *                        its matmul/linear calls into fusible runs
 * wb-cuda-exec-ops.c     the per-op paths: cuBLASLt matmul, copy_, attention, the cpu fallback
 * wb-cuda-attention.c    attention (wb-cuda-attention.h): the arguments and the choice of path (cuDNN, the
 *                        FlashAttention-2 kernels); its unfused path, the row kernels between cuBLASLt GEMMs,
 *                        in wb-cuda-attention-unfused.c
 * Every name here is private to libwbcuda (hidden visibility). */
#pragma once

#include "wb-cuda-executors.h"
#include "wb-executors-private.h"

G_BEGIN_DECLS

/* wb-cuda-exec-state.c */
void                 _wb_cuda_exec_ensure_tables (void);
WbCudaDispatchStats *_wb_cuda_exec_stats (void);
const char          *_wb_cuda_exec_text_of (const WbBsym *b);
const WbCudaSplit   *_wb_cuda_exec_split_of (const WbBsym *b);
WbCudaPlan          *_wb_cuda_exec_lookup_plan (const char *key);
WbCudaPlan          *_wb_cuda_exec_site_plan (gconstpointer site, const WbCudaArg *args, guint n_args);
void                 _wb_cuda_exec_remember_site (gconstpointer site, const WbCudaArg *args, guint n_args, WbCudaPlan *plan);
gboolean             _wb_cuda_exec_keep_plan (GString *key, WbCudaPlan *plan);
gboolean             _wb_cuda_exec_is_unfusable (const WbBsym *b);
void                 _wb_cuda_exec_set_unfusable (const WbBsym *b);
/* The path an executor flavor (0 .. _WB_CUDA_EXEC_MEMO_FLAVORS - 1) chose for @b in the current program:
 * path + 1, or 0 when not chosen yet; forgotten with the program and whenever a call becomes unfusable. */
#define _WB_CUDA_EXEC_MEMO_FLAVORS WB_N_EXECUTOR_IDS
guint       _wb_cuda_exec_memo_path (const WbBsym *b, guint flavor);
void        _wb_cuda_exec_memo_set_path (const WbBsym *b, guint flavor, guint path);
void        _wb_cuda_exec_note_reason (const WbBsym *b, const char *reason);
WbRtValue  *_wb_cuda_exec_to_device (WbCudaRuntime *rt, WbRtValue *v, GError **error);
WbRtValue  *_wb_cuda_exec_to_host (WbCudaRuntime *rt, WbRtValue *v, GError **error);
const char *_wb_cuda_exec_prim_name (const WbBsym *b);
WbRtValue  *_wb_cuda_exec_make_result (const WbBsym *b, WbTensor **outs, guint n);

/* A plan of the site @data for @args under @options: the code generator's constructor the site uses
 * (transfer full), or NULL with WB_CUDA_CODEGEN_ERROR. */
typedef WbCudaPlan *(*WbCudaPlanBuildFunc) (gconstpointer data, const WbCudaArg *args, const WbCudaCodegenOptions *options, GError **error);
/* wb-cuda-autotune.c: the variants (0, "default", and the changes of the options the autotuner times) */
guint       _wb_cuda_autotune_n_variants (void);
const char *_wb_cuda_autotune_variant_name (guint v);
/* @o as the environment sets it under @flags (wb_cuda_codegen_options_init_from_env), with variant @v applied */
void _wb_cuda_autotune_options (guint v, WbCudaCodegenFlags flags, WbCudaCodegenOptions *o);
/* The variant the site's plan runs as: 0 when autotuning is off (or @def has no kernels, or the stream is
 * being captured or is the side stream), else the stored choice for @def's source on this device, or the
 * fastest of the variants built by @build, launched on @inputs and timed (the stats count them). @where names
 * the region in the stats. -1 with @error when the default plan fails to launch or the timing fails. */
int _wb_cuda_autotune_choose (WbCudaRuntime *rt, WbCudaPlanBuildFunc build, gconstpointer data, const char *where, const WbCudaArg *args, WbTensor *const *inputs, WbCudaPlan *def, GError **error);
/* Adds to @sources (element-type utf8, transfer full) the source of every variant of @def whose source differs
 * from @def's, when autotuning is on: the precompiler compiles them with the rest. */
void _wb_cuda_autotune_variant_sources (WbCudaPlanBuildFunc build, gconstpointer data, const WbCudaArg *args, const WbCudaPlan *def, GPtrArray *sources);

/* wb-cuda-exec-fusion.c */
/* A call site run as one plan: @b a fusion region taken whole (@whole; @names one entry per argument, its
 * inputs) or one op or composite (@names the names it reads, once each, tuples and lists flattened); the
 * names are (transfer none) strings of @b. */
typedef struct
{
  const WbBsym *b;
  gboolean      whole;
  GPtrArray    *names;
} WbCudaCallSite;
/* The plan builders of the nvrtc call sites (WbCudaPlanBuildFunc), the run's and the precompiler's: @data is
 * a WbCudaCallSite, or a WbCudaStep of kind WB_CUDA_STEP_FUSED (a split region's fused run). */
WbCudaPlan *_wb_cuda_exec_call_build (gconstpointer data, const WbCudaArg *args, const WbCudaCodegenOptions *o, GError **error);
WbCudaPlan *_wb_cuda_exec_step_build (gconstpointer data, const WbCudaArg *args, const WbCudaCodegenOptions *o, GError **error);
gboolean    _wb_cuda_exec_run_plan (WbCudaRuntime *rt, WbKernelCall *call, gboolean whole, GError **error);
gboolean    _wb_cuda_exec_can_split (const WbBsym *b);
gboolean    _wb_cuda_exec_run_split (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

/* wb-cuda-exec-ops.c */
gboolean _wb_cuda_exec_run_matmul (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
/* wb-cuda-exec-streams.c */
void     _wb_cuda_exec_streams_forget (void);
void     _wb_cuda_exec_note_cublas_call (const WbBsym *b);
gboolean _wb_cuda_exec_join_for_call (WbCudaRuntime *rt, const WbKernelCall *call, GError **error);
gboolean _wb_cuda_exec_run_copy_ (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
gboolean _wb_cuda_exec_run_on_cpu (WbCudaRuntime *rt, WbKernelCall *call, GError **error);
gboolean _wb_cuda_exec_run_attention (WbCudaRuntime *rt, WbKernelCall *call, GError **error);

/* wb-cuda-executors.c: how @e (one of these executors) runs @b where generated code is concerned: one plan
 * for a whole fusion region (its args its inputs), one plan for a call (its named arguments its inputs),
 * a region split into fused runs around library calls, a call decomposed into its subsymbols (each asked
 * again), a library or hand-written kernel, a utility op, or none of these (the cpu). */
typedef enum
{
  WB_CUDA_PLAN_NONE = 0,
  WB_CUDA_PLAN_REGION,
  WB_CUDA_PLAN_CALL,
  WB_CUDA_PLAN_SPLIT,
  WB_CUDA_PLAN_DECOMPOSED,
  WB_CUDA_PLAN_LIBRARY, /* cuBLASLt, cuDNN, attention, a hand-written kernel, NCCL: dense outputs */
  WB_CUDA_PLAN_UTILITY, /* the cpu executor on the values as they are (checks, aliases, unpacking) */
  WB_CUDA_PLAN_COPY,    /* copy_ (from, to): a strided copy into to's storage */
  WB_CUDA_PLAN_KERNEL,  /* a hand-written kernel (wb-cuda-kernels.h): dense inputs and outputs */
  WB_CUDA_PLAN_CONV,    /* cuDNN's convolution (wb-cuda-conv.h): dense inputs and outputs, a bias kernel */
} WbCudaPlanPath;
WbCudaPlanPath _wb_cuda_exec_plan_path (WbExecutor *e, const WbBsym *b);

/* wb-cuda-attention-unfused.c: the sizes of one attention call as the unfused passes read them; @gemms counts
 * the cuBLASLt calls they make */
typedef struct
{
  gint64   bh, tq, tk, e, ev, lse_len;
  WbDtype  dtype;
  float    scale;
  gboolean causal;
  guint    gemms;
} WbCudaAttnDims;
/* the row kernels' source slot of @dtype: 0 f32, 1 bf16, 2 f16; -1 for a dtype they do not take */
int _wb_cuda_attn_dtype_slot (WbDtype dtype);
/* [B*H, T, D] over @t [B, H, T, D] with a unit inner stride and one batch stride (a view, or a contiguous
 * copy when the strides do not allow one). (transfer full) */
WbTensor *_wb_cuda_attn_flat_heads (WbCudaRuntime *rt, WbTensor *t, GError **error);
/* O [BH, Tq, Ev] and lse [BH, lse_len] (both contiguous, allocated by the caller) from q, k, v [BH, T, D] */
gboolean _wb_cuda_attn_unfused_forward (WbCudaRuntime *rt, WbCudaAttnDims *d, WbTensor *q, WbTensor *k, WbTensor *v, WbTensor *o, WbTensor *lse, GError **error);
/* dq, dk, dv [BH, T, D] contiguous (allocated by the caller); go, o [BH, Tq, Ev] and lse contiguous */
gboolean _wb_cuda_attn_unfused_backward (WbCudaRuntime *rt, WbCudaAttnDims *d, WbTensor *go, WbTensor *q, WbTensor *k, WbTensor *v, WbTensor *o, WbTensor *lse, WbTensor *dq, WbTensor *dk, WbTensor *dv, GError **error);

G_END_DECLS
