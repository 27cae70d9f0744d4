/* wb-executors-private.h — helpers shared inside executors/: dtype conversion loops, the strided
 * iterator, the parallel loop. Not installed; kernels and the runtime include it.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-executors.h"

G_BEGIN_DECLS

/* WB_CLONES: hot loops are compiled for x86-64-v4 (AVX-512), x86-64-v3 (AVX2) and the baseline, and the
 * loader picks one at start (GCC target_clones, an ifunc). -DWB_NO_CLONES turns it off. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && !defined(WB_NO_CLONES)
#define WB_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define WB_CLONES
#endif

/* The dtypes the runtime stores and computes: f64 f32 bf16 f16 i64 i32 i16 i8 ui8 b8. */
gboolean _wb_dtype_is_supported (WbDtype dtype);

/* Compute classes: every elementwise op and conversion goes through one of these. bf16/f16 compute in
 * f32; integers and b8 in i64. */
typedef enum
{
  WB_CLASS_F32 = 1,
  WB_CLASS_F64,
  WB_CLASS_I64,
} WbComputeClass;

WbComputeClass _wb_dtype_class (WbDtype dtype);

/* Load @n elements from @src (element type @dtype, @stride elements apart) into a contiguous buffer;
 * store @n contiguous values into @dst (@stride elements apart) converting to @dtype (bf16/f16 rounded
 * to nearest even; floats to ints truncate toward zero through int64, NaN -> 0; anything to b8 is
 * != 0). */
void _wb_load_f32 (float *dst, const void *src, WbDtype dtype, gint64 stride, gsize n);
void _wb_load_f64 (double *dst, const void *src, WbDtype dtype, gint64 stride, gsize n);
void _wb_load_i64 (gint64 *dst, const void *src, WbDtype dtype, gint64 stride, gsize n);
void _wb_store_f32 (void *dst, WbDtype dtype, gint64 stride, const float *src, gsize n);
void _wb_store_f64 (void *dst, WbDtype dtype, gint64 stride, const double *src, gsize n);
void _wb_store_i64 (void *dst, WbDtype dtype, gint64 stride, const gint64 *src, gsize n);
/* _wb_convert_row: @n elements from (@src, @sdt, @sstride) to (@dst, @ddt, @dstride). */
void _wb_convert_row (void *dst, WbDtype ddt, gint64 dstride, const void *src, WbDtype sdt, gint64 sstride, gsize n);

/* _wb_storage_base: (transfer none) the first byte of @t's storage (not of its view). */
guint8 *_wb_storage_base (const WbTensor *t);

/* _wb_elem_ptr: address of storage element @offset of @t (offset in elements). */
static inline guint8 *
_wb_elem_ptr (const WbTensor *t, gint64 offset)
{
  return _wb_storage_base (t) + offset * (gint64) wb_dtype_size (t->dtype);
}

#define WB_ITER_MAX_OPS 4

/* WbStridedIter: walks up to WB_ITER_MAX_OPS operands of one shape row by row, after dropping size-1
 * dims and merging dims that are contiguous in every operand. */
typedef struct
{
  guint  n_ops;
  guint  rank; /* >= 1 */
  gint64 shape[WB_MAX_RANK];
  gint64 strides[WB_ITER_MAX_OPS][WB_MAX_RANK];
  gint64 n_rows;  /* product of all dims but the last */
  gint64 row_len; /* the last dim */
} WbStridedIter;

/* _wb_strided_iter_init: @strides[k] are operand k's strides for @shape (rank @rank, may be 0). */
void _wb_strided_iter_init (WbStridedIter *it, guint rank, const gint64 *shape, guint n_ops, const gint64 *const *strides);
/* _wb_strided_iter_offsets: element offsets (relative to each operand's base) of the first element of
 * row @row into @offsets[n_ops]. */
void _wb_strided_iter_offsets (const WbStridedIter *it, gint64 row, gint64 *offsets);

/* _wb_parallel_for: calls @func(begin, end, @data) over [0, @n) split into at most the configured number
 * of threads, each part at least @grain items; runs inline when one part suffices. Waits for all. */
typedef void (*WbParallelFunc) (gint64 begin, gint64 end, gpointer data);
void  _wb_parallel_for (gint64 n, gint64 grain, WbParallelFunc func, gpointer data);
guint _wb_get_num_threads (void);
void  _wb_set_num_threads (guint n);

/* _wb_tensor_convert_dense: @t converted to @dtype keeping its memory layout when it is a permutation of
 * a contiguous layout (a transposed view stays transposed: the copy runs in memory order); otherwise a
 * contiguous copy. (transfer full) */
WbTensor *_wb_tensor_convert_dense (WbTensor *t, WbDtype dtype, GError **error);

/* _wb_contiguous_strides: row-major strides of @shape into @strides; returns numel. */
gint64 _wb_contiguous_strides (guint rank, const gint64 *shape, gint64 *strides);

/* wb-interpreter.c: adds to @set (interned by the trace: no copies) every name bound symbol @b reads, its
 * subsymbols' included */
void _wb_bsym_collect_uses (const WbBsym *b, GHashTable *set);

/* WbKlDivVjpArgs: the arguments of the torch executor's kl_div_vjp (((input, target), {kwargs}), g), as
 * Thunder's vjp of an automatically registered torch function saves them and compiler/wb-meta-nn.c reads
 * them. Tensors are (transfer none), host or device. */
typedef struct
{
  WbTensor   *input, *target, *g; /* input and target floats of one shape; g that shape for 'none', else 1 element */
  const char *reduction;          /* "none", "mean", "sum" or "batchmean" */
  gboolean    log_target;
  double      divisor; /* what the loss was divided by: 1 ('none', 'sum'), the elements ('mean'), input.shape[0] ('batchmean') */
} WbKlDivVjpArgs;

/* _wb_kl_div_divisor: what kl_div divides its sum by under @reduction over @input ('sum' 1, 'mean' the
 * elements, 'batchmean' the first dim), 0 for 'none' (no reduction), -1 for an unknown reduction; one rule
 * for kl_div and its vjp on every executor (executors/cpu/wb-cpu-nn.c). */
double _wb_kl_div_divisor (const char *reduction, const WbTensor *input);
/* _wb_kl_div_vjp_args: reads @call's arguments into @out (executors/cpu/wb-cpu-nn.c); FALSE with
 * WB_EXECUTOR_ERROR_BAD_ARGUMENT for a form the meta refuses, _UNSUPPORTED for broadcasting. */
gboolean _wb_kl_div_vjp_args (const WbKernelCall *call, WbKlDivVjpArgs *out, GError **error);

G_END_DECLS
