/* wb-executor.h — the executor interface: a versioned vtable, the kernel call, errors, the registry
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An executor runs bound symbols. Modelled on ggml's backend interface (docs/model-codebases.md §2):
 * one vtable with an ABI version, each member documented and marked (optional) where it may be NULL.
 * can_execute always says why not. The interpreter (wb-program.h) asks the executor assigned to a
 * bound symbol to run it; when the executor cannot, a symbol that has subsymbols (composites such as
 * ltorch.*, torch.*, and fusion regions such as TorchCompile0) runs through its subsymbols on the same
 * executor, and anything else is WB_EXECUTOR_ERROR_UNSUPPORTED naming the symbol and FILE:LINE. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-rt-value.h"

G_BEGIN_DECLS

#define WB_EXECUTOR_ERROR (wb_executor_error_quark ())
GQuark wb_executor_error_quark (void);

/* Errors of WB_EXECUTOR_ERROR. Messages about a bound symbol start with "FILE:LINE: ". */
typedef enum
{
  WB_EXECUTOR_ERROR_UNSUPPORTED = 1, /* no kernel and no decomposition, or a dtype/argument the kernel cannot do */
  WB_EXECUTOR_ERROR_BAD_ARGUMENT,    /* arguments are not what the symbol takes (kind, rank, an index out of range) */
  WB_EXECUTOR_ERROR_TYPE_MISMATCH,   /* a value differs from its annotation (input check, --check-shapes) */
  WB_EXECUTOR_ERROR_CHECK_FAILED,    /* a prologue check of the trace failed (check_tensor_metadata, check_len) */
  WB_EXECUTOR_ERROR_UNDEFINED_NAME,  /* a name is used before it is defined */
  WB_EXECUTOR_ERROR_OUT_OF_MEMORY,   /* a tensor could not be allocated */
  WB_EXECUTOR_ERROR_IO,              /* reading or writing a tensors file failed, or the file is malformed */
  WB_EXECUTOR_ERROR_NO_DEVICE,       /* the device asked for is not available in this build or machine */
  WB_EXECUTOR_ERROR_CPU_FALLBACK,    /* a GPU run would move a call to the cpu, and the user did not allow that */
  WB_EXECUTOR_ERROR_NAN,             /* a call produced a NaN (WbRunOptions.detect_nan) */
} WbExecutorError;

#define WB_EXECUTOR_ABI_VERSION 1

/* WbExecutorKind (operator or fusion) comes from compiler/wb-executor-info.h, which also lists what each
 * executor claims for planning; the executors here are the implementations. */

/* WbAccumulate: how the cpu executor accumulates the reductions of f32, bf16 and f16 tensors (sum, prod,
 * var, std, var_mean, cumsum; executors/cpu/wb-cpu-reduction.c). f64 tensors always accumulate in f64. */
typedef enum
{
  WB_ACCUMULATE_F64 = 0, /* in f64, rounded once to the dtype: the default, nearly exact for short reductions */
  WB_ACCUMULATE_F32,     /* in f32 rounded after every step, as a plain f32 GPU kernel: 32 strided lanes, each
                            summing sequentially, then combined by a pairwise tree (a warp's shuffles) */
} WbAccumulate;

/* WbRunState: what every kernel of one run shares. */
typedef struct
{
  guint64  rng_seed;   /* the run's Philox seed (wb-philox.h) */
  guint64  rng_offset; /* next free Philox block for draws without an explicit seed */
  WbDevice device;     /* where new tensors live (cpu) */
  /* ranks of the distributed run the trace comes from (>= 1): WbRunOptions.world_size, else the size
   * of the trace's process groups (wb_dist_group_sizes_new), else 1; the cpu's collectives refuse > 1 */
  int world_size;
  /* (nullable) the buckets DDP's pack made in this run (torchex.py's _key_to_bucket_and_views): bucket_key
   * -> a TUPLE WbRtValue (buffer, numel of view 0, numel of view 1, ...); owned by the run */
  GHashTable *buckets;
  WbAccumulate accumulate; /* WbRunOptions.accumulate */
  /* WbRunOptions.draw_f64_as_f32: random ops asked for f64 values draw the f32 values and widen them */
  gboolean draw_f64_as_f32;
} WbRunState;

/* WbKernelCall: one call of a bound symbol with its arguments evaluated. */
typedef struct
{
  const WbBsym *bsym;     /* the bound symbol (name, annotations, subsymbols) */
  const char   *filename; /* its trace's file, for messages */
  guint         line;     /* its 1-based line (0 when computed) */
  WbRtValue   **args;     /* positional arguments as printed (transfer none) */
  guint         n_args;
  const char  **kwarg_names; /* keyword arguments as printed */
  WbRtValue   **kwargs;
  guint         n_kwargs;
  WbRunState   *state;
  WbRtValue    *result; /* set by run (transfer full): the value, a TUPLE for several outputs, or NONE */
  /* (nullable) the DTensor type (WB_TYPE_DTENSOR) the trace annotates the first argument with, when it
   * is a name so annotated (dtensor_redistribute's source placements; the value is the local tensor) */
  const WbType *in_dtensor;
} WbKernelCall;

/* wb_kernel_call_get_arg: (transfer none) the argument printed at position @pos, else the keyword argument
 * @name (nullable), else NULL — how every executor reads a call's arguments. */
WbRtValue *wb_kernel_call_get_arg (const WbKernelCall *call,
                                   guint               pos,
                                   const char         *name);

/* WbExecutorSupport: one row of the table of what an executor runs (for `thunder-wb executors`). */
typedef struct
{
  const char *symbol;   /* printed name: "prims.add", "torch_slice_prim_impl" */
  const char *category; /* "elementwise", "shape", ... */
  guint64     dtypes;   /* bit (1 << WbDtype) per supported input dtype; 0 = not dtype-specific */
  const char *note;     /* (nullable) e.g. "alias of prims.reshape" */
} WbExecutorSupport;

typedef struct _WbExecutor WbExecutor;

typedef struct
{
  guint abi_version; /* WB_EXECUTOR_ABI_VERSION */
  /* get_name: "cpu" (transfer none) */
  const char *(*get_name) (WbExecutor *self);
  WbExecutorKind (*get_kind) (WbExecutor *self);
  /* can_execute: TRUE when the executor has a kernel for @bsym as it is (symbol, and dtypes when they
   * are annotated); otherwise FALSE and, if @why_not is not NULL, a reason (transfer full) */
  gboolean (*can_execute) (WbExecutor *self, const WbBsym *bsym, char **why_not);
  /* run: runs @call; sets call->result. Errors are WB_EXECUTOR_ERROR without the FILE:LINE prefix,
   * which the interpreter adds */
  gboolean (*run) (WbExecutor *self, WbKernelCall *call, GError **error);
  /* (optional) list_support: appends a WbExecutorSupport per symbol with a kernel to @rows */
  void (*list_support) (WbExecutor *self, GArray *rows);
  /* (optional) describe: one line about the build and settings ("OpenBLAS 0.3.21, 2 threads") */
  char *(*describe) (WbExecutor *self);
} WbExecutorVTable;

struct _WbExecutor
{
  const WbExecutorVTable *vtable;
  gpointer                priv;
};

const char    *wb_executor_get_name (WbExecutor *executor);
WbExecutorKind wb_executor_get_kind (WbExecutor *executor);
gboolean       wb_executor_can_execute (WbExecutor *executor, const WbBsym *bsym, char **why_not);
gboolean       wb_executor_run (WbExecutor *executor, WbKernelCall *call, GError **error);
/* wb_executor_list_support: (transfer full) (element-type WbExecutorSupport) rows, sorted by symbol. */
GArray *wb_executor_list_support (WbExecutor *executor);
/* wb_executor_describe: (transfer full) one line, or NULL. */
char *wb_executor_describe (WbExecutor *executor);

/* wb_executor_get: (transfer none) the in-process executor of the registry's row @id
 * (compiler/wb-executor-info.def), or NULL when that executor does not run in this process (the GPU
 * runner's, Thunder's). */
WbExecutor *wb_executor_get (WbExecutorId id);
/* wb_executor_lookup: (transfer none) the in-process executor the registry calls @name, or NULL. */
WbExecutor *wb_executor_lookup (const char *name);
/* wb_executor_get_names: (transfer none) NULL-terminated names of the registry's rows that run in this
 * process (WB_EXECUTOR_SET_HERE). */
const char *const *wb_executor_get_names (void);

/* wb_dtype_mask_to_string: "f64 f32 bf16 f16" for a dtype bit mask (transfer full); "-" for 0. */
char *wb_dtype_mask_to_string (guint64 mask);

G_END_DECLS
