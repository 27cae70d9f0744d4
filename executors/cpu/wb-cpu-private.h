/* wb-cpu-private.h — the cpu executor's kernel interface, argument helpers and op table types
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kernel is `gboolean f (WbKernelCall *call, int op, GError **error)`: @op is the row's operation
 * code (one function serves a family, e.g. every unary elementwise prim). Arguments are read by
 * position as Thunder prints them (canonical layout: positional-or-keyword parameters positionally,
 * keyword-only as k=v) with the keyword name as fallback. Kernels allocate fresh contiguous outputs
 * (views for shape ops) and never write into their inputs, except copy_, which writes its destination. */
#pragma once

#include "wb-executors-private.h"

G_BEGIN_DECLS

typedef gboolean (*WbCpuKernelFunc) (WbKernelCall *call, int op, GError **error);

#define WB_DT(x) (G_GUINT64_CONSTANT (1) << WB_DTYPE_##x)
#define WB_DT_FLOATS (WB_DT (FLOAT64) | WB_DT (FLOAT32) | WB_DT (BFLOAT16) | WB_DT (FLOAT16))
#define WB_DT_INTS (WB_DT (INT64) | WB_DT (INT32) | WB_DT (INT16) | WB_DT (INT8) | WB_DT (UINT8))
#define WB_DT_BOOL (WB_DT (BOOL8))
#define WB_DT_EXACT (WB_DT_INTS | WB_DT_BOOL)
#define WB_DT_ALL (WB_DT_FLOATS | WB_DT_INTS | WB_DT_BOOL)
#define WB_DT_NONE G_GUINT64_CONSTANT (0)

/* -- arguments -------------------------------------------------------------------------------- */

/* _wb_cpu_arg_tensor: a required tensor argument. */
gboolean _wb_cpu_arg_tensor (WbKernelCall *call, guint pos, const char *name, WbTensor **out, GError **error);
/* _wb_cpu_arg_tensor_opt: a tensor or None/absent (*out = NULL). */
gboolean _wb_cpu_arg_tensor_opt (WbKernelCall *call, guint pos, const char *name, WbTensor **out, GError **error);
/* _wb_cpu_arg_int: an int (bool accepted); @def when absent or None if @has_def. */
gboolean _wb_cpu_arg_int (WbKernelCall *call, guint pos, const char *name, gboolean has_def, gint64 def, gint64 *out, GError **error);
/* _wb_cpu_arg_number: a number as a double; @def when absent or None if @has_def. */
gboolean _wb_cpu_arg_number (WbKernelCall *call, guint pos, const char *name, gboolean has_def, double def, double *out, GError **error);
/* _wb_cpu_arg_bool: a bool (or 0/1). */
gboolean _wb_cpu_arg_bool (WbKernelCall *call, guint pos, const char *name, gboolean has_def, gboolean def, gboolean *out, GError **error);
/* _wb_cpu_arg_ints: a sequence of ints (a lone int counts as one when @allow_scalar) into @out. */
gboolean _wb_cpu_arg_ints (WbKernelCall *call, guint pos, const char *name, gboolean allow_scalar, gint64 *out, guint max, guint *n, GError **error);
/* _wb_cpu_arg_dtype: a dtype (dtypes.float32, torch.float32, float); *out UNKNOWN when None/absent. */
gboolean _wb_cpu_arg_dtype (WbKernelCall *call, guint pos, const char *name, WbDtype *out, GError **error);
/* _wb_cpu_value_ints: a sequence of ints from a value. */
gboolean _wb_cpu_value_ints (const WbRtValue *v, gboolean allow_scalar, gint64 *out, guint max, guint *n);
/* _wb_cpu_dim: normalises dim @d (negative counts from the end) for @rank; FALSE with @error if out of
 * range. rank 0 accepts 0 and -1. */
gboolean _wb_cpu_dim (gint64 d, guint rank, gint64 *out, GError **error);
/* _wb_cpu_set_result: sets call->result to a tensor (transfer full). Returns TRUE. */
gboolean _wb_cpu_set_result (WbKernelCall *call, WbTensor *tensor);
/* _wb_cpu_call_lookup: the WbTypeLookupFunc over @call (a WbKernelCall *): the type of a tensor argument
 * printed as that name (inside lists too), from its value */
gboolean _wb_cpu_call_lookup (const char *name, WbType *out, gpointer call);
/* _wb_cpu_identity: when @call returns its argument @a unchanged (wb_bsym_get_identity_source: a flip over
 * dims of extent 1, a pad of zero widths, a cat of one tensor), sets the result to @a itself (a new
 * reference, sharing its storage) and returns TRUE; else FALSE and nothing is set */
gboolean _wb_cpu_identity (WbKernelCall *call, WbTensor *a);
/* _wb_cpu_check_dtype: FALSE with UNSUPPORTED when @dtype is not in @mask. */
gboolean _wb_cpu_check_dtype (WbKernelCall *call, WbDtype dtype, guint64 mask, GError **error);
/* _wb_cpu_numel: product of @shape. */
gint64 _wb_cpu_numel (guint rank, const gint64 *shape);
/* _wb_cpu_to_f32: a contiguous f32 copy (or @t itself when already f32 and contiguous). */
WbTensor *_wb_cpu_to_f32 (WbTensor *t, GError **error);
/* _wb_cpu_to_f64: as _wb_cpu_to_f32 for f64. _wb_cpu_to_i64 likewise for int64. */
WbTensor *_wb_cpu_to_f64 (WbTensor *t, GError **error);
WbTensor *_wb_cpu_to_i64 (WbTensor *t, GError **error);

/* -- elementwise ops (wb-cpu-elementwise.def) ------------------------------------------------- */

typedef enum
{
#define WB_EW_UNARY(id, name, res, dt, f32, f64, i64) WB_EW_##id,
#define WB_EW_BINARY(id, name, res, dt, f32, f64, i64) WB_EW_##id,
#define WB_EW_TERNARY(id, name, res, dt, f32, f64, i64) WB_EW_##id,
#include "wb-cpu-elementwise.def"
#undef WB_EW_UNARY
#undef WB_EW_BINARY
#undef WB_EW_TERNARY
  WB_N_EW_OPS
} WbEwOp;

/* Result dtype rule of an elementwise op. */
enum
{
  WB_EW_RES_SAME = 1, /* the (promoted) operand dtype */
  WB_EW_RES_BOOL,     /* b8 (comparisons, isfinite, signbit) */
};

/* Kernel families. Each is defined in the file of its category. */
gboolean _wb_cpu_elementwise (WbKernelCall *call, int op, GError **error);
/* _wb_cpu_elementwise_tensors: runs elementwise op @op on @n operands (tensors or numbers) and returns
 * the result tensor (transfer full), for other kernels (sdpa, loss) that reuse it. */
WbTensor *_wb_cpu_elementwise_apply (int op, WbRtValue **operands, guint n, WbDtype out_dtype, GError **error);

gboolean _wb_cpu_convert_element_type (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_shape (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_reduction (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_indexing (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_sort (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_matmul (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_nn (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_attention (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_creation (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_utility (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_pool (WbKernelCall *call, int op, GError **error);
/* the distributed prims for a world size of 1 (wb-cpu-distributed.c), @op a WB_DIST_OP_* */
gboolean _wb_cpu_distributed (WbKernelCall *call, int op, GError **error);
/* cumsum (wb-cpu-reduction.c) and copy_with_setitem (wb-cpu-indexing.c): one op each, @op unused. */
gboolean _wb_cpu_cumsum (WbKernelCall *call, int op, GError **error);
gboolean _wb_cpu_copy_with_setitem (WbKernelCall *call, int op, GError **error);

/* Operation codes of the families (the `op` column of wb-cpu-ops.def). */
enum
{
  /* shape */
  WB_SHAPE_BROADCAST_IN_DIM = 1,
  WB_SHAPE_RESHAPE,
  WB_SHAPE_TRANSPOSE,
  WB_SHAPE_SLICE,
  WB_SHAPE_SQUEEZE,
  WB_SHAPE_CAT,
  WB_SHAPE_PAD,
  WB_SHAPE_FLIP,
  WB_SHAPE_UNFOLD,
  WB_SHAPE_STRIDE_ORDER,
  WB_SHAPE_SHAPE,
  /* reduction */
  WB_RED_SUM = 1,
  WB_RED_PROD,
  WB_RED_AMAX,
  WB_RED_AMIN,
  WB_RED_VAR,
  WB_RED_STD,
  WB_RED_VAR_MEAN,
  WB_RED_ARGMAX,
  WB_RED_ARGMIN,
  /* indexing */
  WB_IDX_TAKE = 1,
  WB_IDX_TAKE_ALONG_AXIS,
  WB_IDX_GATHER,
  WB_IDX_SCATTER,
  WB_IDX_SCATTER_ADD,
  WB_IDX_INDEX_ADD,
  WB_IDX_INDEX_COPY,
  WB_IDX_INDEX_PUT,
  WB_IDX_EMBEDDING,
  WB_IDX_EMBEDDING_BACKWARD,
  /* sort */
  WB_SORT_TOPK = 1,
  WB_SORT_SORT,
  /* matmul */
  WB_MM_MATMUL = 1,
  WB_MM_LINEAR,
  /* nn */
  WB_NN_CONVOLUTION = 1,
  WB_NN_NLL_LOSS_BACKWARD,
  WB_NN_KL_DIV,
  WB_NN_KL_DIV_VJP,
  /* attention */
  WB_ATTN_FLASH_FWD = 1,
  WB_ATTN_FLASH_BWD,
  WB_ATTN_EFFICIENT_FWD,
  WB_ATTN_EFFICIENT_BWD,
  /* creation */
  WB_CREATE_FULL = 1,
  WB_CREATE_IOTA,
  WB_CREATE_EMPTY,
  WB_CREATE_UNIFORM,
  WB_CREATE_UNIFORM_PHILOX,
  WB_CREATE_RANDN,
  WB_CREATE_RANDINT,
  WB_CREATE_TENSOR_FROM_SEQUENCE,
  WB_CREATE_RNG_STATE,
  WB_CREATE_EXOGENOUS_LIKE,
  WB_CREATE_MULTINOMIAL,
  /* utility */
  /* distributed (wb-cpu-distributed.c) */
  WB_DIST_OP_ALL_GATHER = 1,
  WB_DIST_OP_ALL_REDUCE,
  WB_DIST_OP_BROADCAST,
  WB_DIST_OP_REDUCE_SCATTER,
  WB_DIST_OP_SYNCHRONIZE,
  WB_DIST_OP_TENSOR_PARALLEL,
  WB_DIST_OP_WAIT,
  WB_DIST_OP_PASS, /* returns its first argument: stash_grad_for_fsdp */
  WB_DIST_OP_UPDATE_BUCKET_VIEW,
  WB_DIST_OP_PACK,
  WB_DIST_OP_PACK_FOR_FSDP,
  WB_DIST_OP_UNPACK,
  WB_DIST_OP_UNPACK_FOR_FSDP,
  WB_DIST_OP_DTENSOR_LOCAL, /* dtensor_from_local, dtensor_to_local: the local tensor */
  WB_DIST_OP_REDISTRIBUTE,  /* dtensor_redistribute */
  /* utility */
  WB_UTIL_SHALLOW_COPY = 1,
  WB_UTIL_CLONE,
  WB_UTIL_COPY_,
  WB_UTIL_UPDATE_ALIASES,
  WB_UTIL_DEVICE_PUT,
  WB_UTIL_ITEM,
  WB_UTIL_BITCAST,
  WB_UTIL_CHECK_TENSOR,
  WB_UTIL_CHECK_LEN,
  WB_UTIL_CHECK_NONE,
  WB_UTIL_CHECK_EMPTY,
  WB_UTIL_CHECK_NUMBER,
  WB_UTIL_CHECK_PASS,
  WB_UTIL_CLEAR_COLLECTION,
  WB_UTIL_NOTHING,
  WB_UTIL_PRINT,
  WB_UTIL_COPY_TORCH,
  WB_UTIL_PACK_TUPLE,
  WB_UTIL_PACK_LIST,
  WB_UTIL_FIRST,
  WB_UTIL_FREXP,
  WB_UTIL_OPAQUE,
  WB_UTIL_DIM,
  /* pooling */
  WB_POOL_ADAPTIVE_AVG_2D = 1,
  WB_POOL_ADAPTIVE_AVG_3D,
  WB_POOL_ADAPTIVE_AVG_BACKWARD,
  WB_POOL_MAX_2D_WITH_INDICES,
  WB_POOL_MAX_3D_WITH_INDICES,
  WB_POOL_MAX_2D_BACKWARD,
  WB_POOL_MAX_3D_BACKWARD,
};

/* -- matmul helpers (wb-cpu-matmul.c), shared with attention and convolution ----------------- */

/* _wb_cpu_sgemm: C[m,n] = alpha * op(A) op(B) + beta * C, row-major, through OpenBLAS. */
void _wb_cpu_sgemm (gboolean trans_a, gboolean trans_b, gint64 m, gint64 n, gint64 k, float alpha, const float *a, gint64 lda, const float *b, gint64 ldb, float beta, float *c, gint64 ldc);
void _wb_cpu_dgemm (gboolean trans_a, gboolean trans_b, gint64 m, gint64 n, gint64 k, double alpha, const double *a, gint64 lda, const double *b, gint64 ldb, double beta, double *c, gint64 ldc);
/* _wb_cpu_blas_set_threads / describe: OpenBLAS threads and its config string. */
void        _wb_cpu_blas_set_threads (guint n);
const char *_wb_cpu_blas_config (void);

G_END_DECLS
