/* wb-cuda-codegen.h — CUDA C for a fusion region or one op: a plan of kernels, buffers and outputs (WbCudaPlan)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The `nvrtc` fusion executor and the per-op `cuda` executor generate their kernels here. Plain C, GLib
 * and the compiler: no CUDA header or library is needed, so the code generation builds and is tested on
 * machines without the toolkit and `export --region R --as cuda` prints it.
 *
 * What a plan does. The body (a region's subsymbols, composites flattened to prims) is a dataflow graph
 * whose values are functions of a multi-index. Elementwise prims compose; views (broadcast_in_dim,
 * reshape, transpose, squeeze, slice, flip, shallow_copy, stride_order) and index ops (take, gather,
 * take_along_axis, pad, cat, iota, full) are folded into the indexing of their operand, so nothing in
 * between is written to memory. Every reduction (sum, prod, amax, amin, var, var_mean) ends a kernel: it
 * gets one kernel whose input expression is inlined, and writes a buffer that later kernels load.
 * Outputs that remain are computed by one pointwise kernel per output shape (outputs of one shape share
 * common subexpressions); an output that is a view of an input or of a reduction's buffer is returned as
 * that view without a kernel. Shapes, strides and literal numbers are baked into the source; value
 * names are not, so regions that differ only in names (the repeated blocks of a deep model) produce the
 * same source and compile once.
 *
 * Numerics follow the cpu executor: f32, bf16 and f16 compute in float and every op rounds its result
 * to its dtype (bf16/f16 round to nearest even), f64 in double, integers and b8 in int64 wrapped to the
 * dtype; reductions accumulate in float (f32 class), double or int64.
 * Threads: plans are immutable once built; building one touches no global state. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda.h> or <wb-executors.h> can be included directly."
#endif

#include "wb-compiler.h"

G_BEGIN_DECLS

#define WB_CUDA_CODEGEN_ERROR (wb_cuda_codegen_error_quark ())
GQuark wb_cuda_codegen_error_quark (void);

typedef enum
{
  WB_CUDA_CODEGEN_ERROR_UNSUPPORTED = 1, /* an op, dtype or argument form the generator does not handle: says which */
  WB_CUDA_CODEGEN_ERROR_BAD_REGION,      /* names or types that do not fit (an undefined name, a meta failure) */
} WbCudaCodegenError;

/* Threads per block of every generated kernel. */
#define WB_CUDA_BLOCK 256

typedef enum
{
  WB_CUDA_ARG_TENSOR = 1,
  WB_CUDA_ARG_NUMBER,
  WB_CUDA_ARG_OTHER, /* anything else (a dtype, a device, None): not usable as an operand */
} WbCudaArgKind;

/* WbCudaArg: what the generator knows of one input: its dtype, shape and strides (elements; 0 for
 * broadcast dims; the storage offset is folded into the pointer the kernel receives), or its value. */
typedef struct
{
  WbCudaArgKind kind;
  WbDtype       dtype; /* tensors; numbers: b8, i64 or f64 for bool, int and float */
  guint         rank;
  gint64        shape[WB_MAX_RANK];
  gint64        strides[WB_MAX_RANK];
  double        f; /* numbers */
  gint64        i;
} WbCudaArg;

/* wb_cuda_arg_init_contiguous: a tensor argument of @type (a WB_TYPE_TENSOR) with row-major strides. */
void wb_cuda_arg_init_contiguous (WbCudaArg *arg, const WbType *type);

/* WbCudaKernel: one kernel of a plan. Its parameters are slot pointers in the order of @params: slot
 * s < n_inputs is input s (a tensor), otherwise buffer s - n_inputs. Launch: @grid blocks of @block
 * threads (0: WB_CUDA_BLOCK) with @smem_bytes of dynamic shared memory (bytes; over 48 KiB the launcher
 * raises the function's limit). A @once kernel fills a @table buffer (WbCudaBuffer) and runs only at the
 * launch that allocates the plan's kept buffers (the first with a runtime), not in later launches or
 * graph replays. A kernel whose blocks wait for its other blocks (the combiners of a mixed row and column
 * reduction, wb-cuda-codegen-mix.c) finishes only where the device holds @resident of its blocks at once
 * (0: no wait); wb_cuda_plan_launch checks that before it launches anything of the plan. */
typedef struct
{
  char    *entry; /* "wb_k0_3f2a9c01": wb_k<index>_<first 8 hex digits of the SHA-1 of the source> */
  char    *what;  /* "pointwise f32[32, 512] -> 2 outputs", "sum over (1,) of bf16[8, 1024, 768]" */
  guint    grid;
  guint    block;
  guint    smem_bytes;
  gboolean once;
  guint    resident; /* blocks that must be resident at once (0: none) */
  guint   *params;
  guint    n_params;
  gint64   elements; /* elements the kernel reads from its reduction input or writes (for reports) */
} WbCudaKernel;

/* WbCudaBuffer: memory a plan's kernels write: an output or a reduction result, contiguous. A @counters
 * buffer (u32) is the arrival counters of a reduction whose last block combines the partial results: zero
 * before the first launch, and every kernel that counts in it leaves it at zero; wb_cuda_plan_launch
 * allocates and zeroes it once per plan and keeps it (@scratch) instead of allocating it per launch. A
 * @table buffer (a lookup table, wb-cuda-codegen-table.c) is kept the same way, not zeroed: the plan's
 * @once kernel fills it when it is allocated. */
typedef struct
{
  WbDtype  dtype;
  guint    rank;
  gint64   shape[WB_MAX_RANK];
  gint64   numel;
  gboolean counters;
  gboolean table;
} WbCudaBuffer;

/* WbCudaOutput: output i of the plan is a view of a slot (an input passed through or viewed, or a
 * buffer) with this layout (elements, relative to the slot's first element). */
typedef struct
{
  guint   slot;
  WbDtype dtype;
  guint   rank;
  gint64  shape[WB_MAX_RANK];
  gint64  strides[WB_MAX_RANK];
  gint64  offset;
} WbCudaOutput;

typedef struct
{
  char         *source; /* the CUDA C of every kernel (extern "C" __global__), no #include */
  WbCudaKernel *kernels;
  guint         n_kernels;
  WbCudaBuffer *buffers;
  guint         n_buffers;
  WbCudaOutput *outputs;
  guint         n_outputs;
  guint         n_inputs;
  guint         n_ops; /* prims in the flattened body */
  /* the launcher's cache (wb_cuda_plan_launch): each kernel's CUfunction in the runtime @functions_owner, so
   * that a launch does not look its module up by the whole source text again (NULL until the first launch) */
  gpointer     *functions;
  gconstpointer functions_owner;
  /* the launcher's @counters buffers: one device tensor per buffer (NULL for the others), made by the runtime
   * @scratch_owner with a free function that releases them; unreffed with the plan */
  GPtrArray    *scratch;
  gconstpointer scratch_owner;
} WbCudaPlan;

void wb_cuda_plan_free (WbCudaPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCudaPlan, wb_cuda_plan_free)

/* WbCudaCodegenFlags: what a plan may not use, where the device cannot run it (the nvrtc executor builds a plan
 * again so when wb_cuda_plan_launch refuses it). WB_CUDA_CODEGEN_NO_WAIT: no kernel whose blocks wait for its
 * other blocks (WbCudaKernel.resident is 0 in every kernel: a norm backward's row and column sums as two
 * kernels, not one mixed kernel), for WB_CUDA_ERROR_RESIDENT. WB_CUDA_CODEGEN_NO_TABLE: no lookup table
 * (wb-cuda-codegen-table.c, whose kernels copy 128 KiB into shared memory: more than the 99 KiB of sm_86 and
 * sm_89), for WB_CUDA_ERROR_SHARED_MEMORY. */
typedef enum
{
  WB_CUDA_CODEGEN_DEFAULT = 0,
  WB_CUDA_CODEGEN_NO_WAIT = 1 << 0,
  WB_CUDA_CODEGEN_NO_TABLE = 1 << 1,
} WbCudaCodegenFlags;

/* WbCudaCodegenOptions: everything a plan is built under: the device's limits (@flags, @sms) and the
 * debugging switches, each named after the environment variable wb_cuda_codegen_options_init_from_env reads
 * it from (WB_CUDA_NO_CSE=1 -> @no_cse). The generator reads no environment itself: a caller reads it once,
 * at its edge, and passes the options in. Numbers are 0 for "the generator's default". */
typedef struct
{
  WbCudaCodegenFlags flags;
  guint              sms; /* SMs the grids are sized for; 0: wb_cuda_codegen_get_sm_count () */
  /* pieces of the generator turned off, to compare with and to bisect */
  gboolean no_bf16x2;        /* bf16 ops one lane at a time, never two to a word (-pair.c) */
  gboolean no_cat_select;    /* cat pieces one branch each, not through pointer selects (-select.c) */
  gboolean no_column_split;  /* a column reduction's range not split over blocks (-column.c) */
  gboolean no_cse;           /* a repeat of a pure op on the same operands computed again (-graph.c) */
  gboolean no_epilogue;      /* pointwise work and siblings left to pointwise kernels (-epilogue.c) */
  gboolean no_hoist;         /* a vector pad's loads not hoisted to the top of their block (-pointwise.c) */
  gboolean no_mix;           /* no column sums in a row kernel of the same elements (-mix.c) */
  gboolean no_mix_defer;     /* a mixed kernel's deferred row sums kept as two kernels (-mix.c) */
  gboolean no_partial_table; /* no lookup table of a costly value inside a group of several inputs (-table.c) */
  gboolean no_prefetch;      /* a mixed kernel's column inputs not prefetched to L1 (-reduce.c) */
  gboolean no_reschedule;    /* a split region's fused runs in program order, not moved together (-split.c) */
  gboolean no_siblings;      /* sibling reductions one kernel each (-epilogue.c) */
  gboolean no_table;         /* no lookup table (-table.c) */
  gboolean no_vector;        /* scalar pointwise and row kernels: no 16-byte vectors (-pointwise.c) */
  gboolean no_warp_rows;     /* a warp's lanes over one row, never rows of fewer lanes (-pointwise.c) */
  /* choices forced */
  gboolean mix_defer_always;   /* mix wherever the sums can be deferred, whatever the size (-mix.c) */
  gboolean mix_scalar_combine; /* the mixed kernel's combiners one float at a time (-mix.c) */
  gboolean reshape_linear;     /* a reshape's operand index unravelled from the linear index (-reshape.c) */
  gboolean table_always;       /* a lookup table wherever one fits, whatever the size and cost (-table.c) */
  gboolean table_cached;       /* the table kernels' loads and stores through the caches (-table.c) */
  guint    column_blocks_per_sm; /* the column kernel's blocks per SM (-column.c) */
  guint    column_rows;          /* rows an iteration of a column walk that stores outputs, 1 to 8 (-column.c) */
  guint    mix_blocks_per_sm;    /* the mixed kernel's blocks per SM (-mix.c) */
  /* launch shapes (the autotuner's variants, wb-cuda-autotune.c) */
  guint pointwise_block;         /* threads per block of a pointwise kernel, a multiple of 32 up to 1024; 0: WB_CUDA_BLOCK */
  guint pointwise_blocks_per_sm; /* the most blocks per SM a pointwise grid has (its grid-stride loop covers the rest); 0: 32 */
  guint row_threads;             /* the most threads of a vector row kernel's group per row, a power of two (32: a warp a row) */
  gboolean no_row_warp;          /* short rows keep their block of threads, not one warp (-reduce.c) */
} WbCudaCodegenOptions;

/* wb_cuda_codegen_options_init: @options with every switch off and every number the default, under @flags. */
void wb_cuda_codegen_options_init (WbCudaCodegenOptions *options, WbCudaCodegenFlags flags);
/* wb_cuda_codegen_options_init_from_env: @options as the environment sets them (WB_CUDA_NO_CSE=1 and so on:
 * docs/ARCHITECTURE.md lists them), under @flags. For the edge of a program: the runner, the command line,
 * tests. */
void wb_cuda_codegen_options_init_from_env (WbCudaCodegenOptions *options, WbCudaCodegenFlags flags);

/* wb_cuda_codegen_set_sm_count: the number of SMs of the device the plans built from now on run on (the
 * runtime's WbCudaDeviceInfo.sm_count; the nvrtc executor sets it before it builds a plan for the device). Grids
 * are sized from it: a mixed norm backward's persistent grid of 2 blocks per SM and its partials, a column
 * reduction's slices, the cap of grid-stride loops. Plans for another count differ only in those numbers, and
 * so in their source (and kernel cache key). @n_sms 0 restores the default, 132, which
 * `export --as cuda` and the tests without a GPU use. Process-wide; not to be changed while another thread
 * builds a plan. */
void wb_cuda_codegen_set_sm_count (guint n_sms);
/* wb_cuda_codegen_get_sm_count: the count plans are sized for now (wb_cuda_codegen_set_sm_count). */
guint wb_cuda_codegen_get_sm_count (void);

/* The plan constructors below that take WbCudaCodegenFlags are the edge for callers that keep no options:
 * each reads the environment once (wb_cuda_codegen_options_init_from_env) and calls its _with_options form. */

/* wb_cuda_plan_new_region: the plan of fusion region @region (a CALL whose subsymbols are its body)
 * with @args[i] describing the value of @region->args[i] (n_args == region->n_args), under @flags.
 * Outputs are the region's output names in order. (transfer full) or NULL with WB_CUDA_CODEGEN_ERROR. */
WbCudaPlan *wb_cuda_plan_new_region (const WbBsym *region, const WbCudaArg *args, guint n_args, WbCudaCodegenFlags flags, GError **error);
WbCudaPlan *wb_cuda_plan_new_region_with_options (const WbBsym *region, const WbCudaArg *args, guint n_args, const WbCudaCodegenOptions *options, GError **error);

/* wb_cuda_plan_new: the plan of the bound symbols @body (prims, or composites through their
 * subsymbols) reading the values @input_names[i] described by @inputs[i] and returning the values
 * @output_names in order (one bound symbol of the per-op executor: @body = that symbol, its argument
 * names as inputs and its outputs), under @flags. (transfer full) or NULL with WB_CUDA_CODEGEN_ERROR. */
WbCudaPlan *wb_cuda_plan_new (const WbBsym *const *body, guint n_body, const char *const *input_names, const WbCudaArg *inputs, guint n_inputs, const char *const *output_names, guint n_outputs, WbCudaCodegenFlags flags, GError **error);
WbCudaPlan *wb_cuda_plan_new_with_options (const WbBsym *const *body, guint n_body, const char *const *input_names, const WbCudaArg *inputs, guint n_inputs, const char *const *output_names, guint n_outputs, const WbCudaCodegenOptions *options, GError **error);

/* wb_cuda_plan_new_annotated: the plan of @region, a fusion call in @trace, with its inputs described by
 * @trace's type annotations (tensors contiguous, numbers with their annotated values), under @flags: what a
 * run with contiguous inputs compiles (export --as cuda, the code generation tests). (transfer full) or NULL
 * with WB_CUDA_CODEGEN_ERROR (_BAD_REGION: an input without an annotation). */
WbCudaPlan *wb_cuda_plan_new_annotated (const WbTrace *trace, const WbBsym *region, WbCudaCodegenFlags flags, GError **error);
WbCudaPlan *wb_cuda_plan_new_annotated_with_options (const WbTrace *trace, const WbBsym *region, const WbCudaCodegenOptions *options, GError **error);

/* wb_cuda_codegen_can_fuse: a structural check of @bsym (no shapes): TRUE when every prim its
 * decomposition reaches has a generator, else FALSE and why (transfer full) in @why_not. */
gboolean wb_cuda_codegen_can_fuse (const WbBsym *bsym, char **why_not);

/* -- regions with matmuls (wb-cuda-codegen-split.c) -------------------------------------------- */

typedef enum
{
  WB_CUDA_STEP_FUSED = 1, /* a run of fusible subsymbols: one plan */
  WB_CUDA_STEP_MATMUL,    /* a prims.matmul or prims.linear: one cuBLASLt call */
} WbCudaStepKind;

/* WbCudaStep: one step of a split region, in program order. A fused step reads @inputs (region inputs or
 * earlier steps' results; sorted by name) and defines @outputs (what later steps or the region's outputs
 * read). A matmul step is @matmul, a prim whose operands are names or None; its output name is defined
 * after it. Names and bsyms point into the region (transfer none). */
typedef struct
{
  WbCudaStepKind       kind;
  const WbBsym *const *units; /* FUSED */
  guint                n_units;
  const char         **inputs;
  guint                n_inputs;
  const char         **outputs;
  guint                n_outputs;
  const WbBsym        *matmul; /* MATMUL */
} WbCudaStep;

typedef struct
{
  const WbBsym *region;
  WbCudaStep   *steps;
  guint         n_steps;
  GPtrArray    *ordered; /* the region's fusible subsymbols in the order the fused steps run them; the steps' @units point into it */
} WbCudaSplit;

/* wb_cuda_codegen_outputs_named: whether @bsym's outputs are one name or a tuple of names, none of them "_"
 * (what a plan or a split can bind its results to). */
gboolean wb_cuda_codegen_outputs_named (const WbBsym *bsym);

/* wb_cuda_split_matmul_leaf: the prims.matmul / prims.linear @unit stands for (itself, or the single leaf
 * of ltorch.matmul / ltorch.linear), or NULL. (transfer none) */
const WbBsym *wb_cuda_split_matmul_leaf (const WbBsym *unit);

/* wb_cuda_split_new: fusion region @region (that the generator cannot take whole) as fused runs of its
 * subsymbols between its matmuls. (transfer full; the region must outlive it) or NULL with
 * WB_CUDA_CODEGEN_ERROR: _BAD_REGION for no fusion region or no matmul in it, _UNSUPPORTED naming the
 * subsymbol that is neither fusible nor a matmul with name operands. */
WbCudaSplit *wb_cuda_split_new (const WbBsym *region, GError **error);
/* wb_cuda_split_new_with_options: the same, ordered under @options (no_reschedule). */
WbCudaSplit *wb_cuda_split_new_with_options (const WbBsym *region, const WbCudaCodegenOptions *options, GError **error);
void         wb_cuda_split_free (WbCudaSplit *split);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCudaSplit, wb_cuda_split_free)

/* wb_cuda_split_plans_annotated: one plan per step of @split (NULL for matmul steps) with every input
 * described by @trace's annotations, contiguous (what `export --region R --as cuda` prints).
 * (transfer full: a GPtrArray freeing its plans) or NULL with WB_CUDA_CODEGEN_ERROR. */
GPtrArray *wb_cuda_split_plans_annotated (const WbTrace *trace, const WbCudaSplit *split, GError **error);
GPtrArray *wb_cuda_split_plans_annotated_with_options (const WbTrace *trace, const WbCudaSplit *split, const WbCudaCodegenOptions *options, GError **error);

/* wb_cuda_codegen_prelude: (transfer none) the device helpers every source starts with (conversions,
 * rounding, NaN-propagating min/max); part of the compiled text but not of WbCudaPlan.source. */
const char *wb_cuda_codegen_prelude (void);

/* wb_cuda_plan_describe: (transfer full) a comment block: kernels, launch sizes, buffers and outputs. */
char *wb_cuda_plan_describe (const WbCudaPlan *plan);

/* wb_cuda_storage_ctype: the C type a tensor of @dtype is stored as in generated kernels ("float",
 * "unsigned short" for bf16/f16, ...); NULL for a dtype the kernels do not handle. (transfer none) */
const char *wb_cuda_storage_ctype (WbDtype dtype);

G_END_DECLS
