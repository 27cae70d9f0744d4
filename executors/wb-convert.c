/* wb-convert.c — dtype conversion loops, the strided row iterator and the parallel loop
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-executors-private.h"

gboolean
_wb_dtype_is_supported (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
    case WB_DTYPE_FLOAT32:
    case WB_DTYPE_BFLOAT16:
    case WB_DTYPE_FLOAT16:
    case WB_DTYPE_INT64:
    case WB_DTYPE_INT32:
    case WB_DTYPE_INT16:
    case WB_DTYPE_INT8:
    case WB_DTYPE_UINT8:
    case WB_DTYPE_BOOL8:
      return TRUE;
    default:
      return FALSE;
    }
}

WbComputeClass
_wb_dtype_class (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
      return WB_CLASS_F64;
    case WB_DTYPE_FLOAT32:
    case WB_DTYPE_BFLOAT16:
    case WB_DTYPE_FLOAT16:
      return WB_CLASS_F32;
    default:
      return WB_CLASS_I64;
    }
}

/* float -> int64 as PyTorch's cast does on the host for in-range values; NaN -> 0, saturating. */
static inline gint64
f64_to_i64 (double x)
{
  if (isnan (x))
    return 0;
  if (x >= 9223372036854775807.0)
    return G_MAXINT64;
  if (x <= -9223372036854775808.0)
    return G_MININT64;
  return (gint64) x;
}

/* The switches below are tables, one dtype a line. */
/* clang-format off */
/* One loop per source dtype; T is the destination element type, CVT converts one source value. */
#define LOAD_LOOP(T, SRC_T, EXPR)                               \
  do                                                            \
    {                                                           \
      const SRC_T *s = (const SRC_T *) src;                     \
      if (stride == 1)                                          \
        for (gsize i = 0; i < n; i++)                           \
          {                                                     \
            SRC_T v = s[i];                                     \
            dst[i] = (T) (EXPR);                                \
          }                                                     \
      else                                                      \
        for (gsize i = 0; i < n; i++)                           \
          {                                                     \
            SRC_T v = s[(gint64) i * stride];                   \
            dst[i] = (T) (EXPR);                                \
          }                                                     \
    }                                                           \
  while (0)

WB_CLONES void
_wb_load_f32 (float *dst, const void *src, WbDtype dtype, gint64 stride, gsize n)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT32:
      if (stride == 1)
        memcpy (dst, src, n * sizeof (float));
      else
        LOAD_LOOP (float, float, v);
      break;
    case WB_DTYPE_FLOAT64: LOAD_LOOP (float, double, v); break;
    case WB_DTYPE_BFLOAT16: LOAD_LOOP (float, guint16, wb_bf16_to_f32 (v)); break;
    case WB_DTYPE_FLOAT16: LOAD_LOOP (float, guint16, wb_f16_to_f32 (v)); break;
    case WB_DTYPE_INT64: LOAD_LOOP (float, gint64, v); break;
    case WB_DTYPE_INT32: LOAD_LOOP (float, gint32, v); break;
    case WB_DTYPE_INT16: LOAD_LOOP (float, gint16, v); break;
    case WB_DTYPE_INT8: LOAD_LOOP (float, gint8, v); break;
    case WB_DTYPE_UINT8: LOAD_LOOP (float, guint8, v); break;
    case WB_DTYPE_BOOL8: LOAD_LOOP (float, guint8, v != 0); break;
    default: g_assert_not_reached ();
    }
}

WB_CLONES void
_wb_load_f64 (double *dst, const void *src, WbDtype dtype, gint64 stride, gsize n)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
      if (stride == 1)
        memcpy (dst, src, n * sizeof (double));
      else
        LOAD_LOOP (double, double, v);
      break;
    case WB_DTYPE_FLOAT32: LOAD_LOOP (double, float, v); break;
    case WB_DTYPE_BFLOAT16: LOAD_LOOP (double, guint16, wb_bf16_to_f32 (v)); break;
    case WB_DTYPE_FLOAT16: LOAD_LOOP (double, guint16, wb_f16_to_f32 (v)); break;
    case WB_DTYPE_INT64: LOAD_LOOP (double, gint64, v); break;
    case WB_DTYPE_INT32: LOAD_LOOP (double, gint32, v); break;
    case WB_DTYPE_INT16: LOAD_LOOP (double, gint16, v); break;
    case WB_DTYPE_INT8: LOAD_LOOP (double, gint8, v); break;
    case WB_DTYPE_UINT8: LOAD_LOOP (double, guint8, v); break;
    case WB_DTYPE_BOOL8: LOAD_LOOP (double, guint8, v != 0); break;
    default: g_assert_not_reached ();
    }
}

WB_CLONES void
_wb_load_i64 (gint64 *dst, const void *src, WbDtype dtype, gint64 stride, gsize n)
{
  switch (dtype)
    {
    case WB_DTYPE_INT64:
      if (stride == 1)
        memcpy (dst, src, n * sizeof (gint64));
      else
        LOAD_LOOP (gint64, gint64, v);
      break;
    case WB_DTYPE_FLOAT64: LOAD_LOOP (gint64, double, f64_to_i64 (v)); break;
    case WB_DTYPE_FLOAT32: LOAD_LOOP (gint64, float, f64_to_i64 (v)); break;
    case WB_DTYPE_BFLOAT16: LOAD_LOOP (gint64, guint16, f64_to_i64 (wb_bf16_to_f32 (v))); break;
    case WB_DTYPE_FLOAT16: LOAD_LOOP (gint64, guint16, f64_to_i64 (wb_f16_to_f32 (v))); break;
    case WB_DTYPE_INT32: LOAD_LOOP (gint64, gint32, v); break;
    case WB_DTYPE_INT16: LOAD_LOOP (gint64, gint16, v); break;
    case WB_DTYPE_INT8: LOAD_LOOP (gint64, gint8, v); break;
    case WB_DTYPE_UINT8: LOAD_LOOP (gint64, guint8, v); break;
    case WB_DTYPE_BOOL8: LOAD_LOOP (gint64, guint8, v != 0); break;
    default: g_assert_not_reached ();
    }
}

#define STORE_LOOP(DST_T, SRC_T, EXPR)                          \
  do                                                            \
    {                                                           \
      DST_T *d = (DST_T *) dst;                                 \
      if (stride == 1)                                          \
        for (gsize i = 0; i < n; i++)                           \
          {                                                     \
            SRC_T v = src[i];                                   \
            d[i] = (DST_T) (EXPR);                              \
          }                                                     \
      else                                                      \
        for (gsize i = 0; i < n; i++)                           \
          {                                                     \
            SRC_T v = src[i];                                   \
            d[(gint64) i * stride] = (DST_T) (EXPR);            \
          }                                                     \
    }                                                           \
  while (0)

WB_CLONES void
_wb_store_f32 (void *dst, WbDtype dtype, gint64 stride, const float *src, gsize n)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT32:
      if (stride == 1)
        memcpy (dst, src, n * sizeof (float));
      else
        STORE_LOOP (float, float, v);
      break;
    case WB_DTYPE_FLOAT64: STORE_LOOP (double, float, v); break;
    case WB_DTYPE_BFLOAT16: STORE_LOOP (guint16, float, wb_f32_to_bf16 (v)); break;
    case WB_DTYPE_FLOAT16: STORE_LOOP (guint16, float, wb_f32_to_f16 (v)); break;
    case WB_DTYPE_INT64: STORE_LOOP (gint64, float, f64_to_i64 (v)); break;
    case WB_DTYPE_INT32: STORE_LOOP (gint32, float, f64_to_i64 (v)); break;
    case WB_DTYPE_INT16: STORE_LOOP (gint16, float, f64_to_i64 (v)); break;
    case WB_DTYPE_INT8: STORE_LOOP (gint8, float, f64_to_i64 (v)); break;
    case WB_DTYPE_UINT8: STORE_LOOP (guint8, float, f64_to_i64 (v)); break;
    case WB_DTYPE_BOOL8: STORE_LOOP (guint8, float, v != 0); break;
    default: g_assert_not_reached ();
    }
}

WB_CLONES void
_wb_store_f64 (void *dst, WbDtype dtype, gint64 stride, const double *src, gsize n)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
      if (stride == 1)
        memcpy (dst, src, n * sizeof (double));
      else
        STORE_LOOP (double, double, v);
      break;
    case WB_DTYPE_FLOAT32: STORE_LOOP (float, double, v); break;
    case WB_DTYPE_BFLOAT16: STORE_LOOP (guint16, double, wb_f32_to_bf16 ((float) v)); break;
    case WB_DTYPE_FLOAT16: STORE_LOOP (guint16, double, wb_f32_to_f16 ((float) v)); break;
    case WB_DTYPE_INT64: STORE_LOOP (gint64, double, f64_to_i64 (v)); break;
    case WB_DTYPE_INT32: STORE_LOOP (gint32, double, f64_to_i64 (v)); break;
    case WB_DTYPE_INT16: STORE_LOOP (gint16, double, f64_to_i64 (v)); break;
    case WB_DTYPE_INT8: STORE_LOOP (gint8, double, f64_to_i64 (v)); break;
    case WB_DTYPE_UINT8: STORE_LOOP (guint8, double, f64_to_i64 (v)); break;
    case WB_DTYPE_BOOL8: STORE_LOOP (guint8, double, v != 0); break;
    default: g_assert_not_reached ();
    }
}

WB_CLONES void
_wb_store_i64 (void *dst, WbDtype dtype, gint64 stride, const gint64 *src, gsize n)
{
  switch (dtype)
    {
    case WB_DTYPE_INT64:
      if (stride == 1)
        memcpy (dst, src, n * sizeof (gint64));
      else
        STORE_LOOP (gint64, gint64, v);
      break;
    case WB_DTYPE_FLOAT64: STORE_LOOP (double, gint64, v); break;
    case WB_DTYPE_FLOAT32: STORE_LOOP (float, gint64, v); break;
    case WB_DTYPE_BFLOAT16: STORE_LOOP (guint16, gint64, wb_f32_to_bf16 ((float) v)); break;
    case WB_DTYPE_FLOAT16: STORE_LOOP (guint16, gint64, wb_f32_to_f16 ((float) v)); break;
    /* narrowing wraps modulo 2^bits, as PyTorch's integer casts do */
    case WB_DTYPE_INT32: STORE_LOOP (gint32, gint64, (guint32) v); break;
    case WB_DTYPE_INT16: STORE_LOOP (gint16, gint64, (guint16) v); break;
    case WB_DTYPE_INT8: STORE_LOOP (gint8, gint64, (guint8) v); break;
    case WB_DTYPE_UINT8: STORE_LOOP (guint8, gint64, (guint8) v); break;
    case WB_DTYPE_BOOL8: STORE_LOOP (guint8, gint64, v != 0); break;
    default: g_assert_not_reached ();
    }
}

#define CONVERT_BLOCK 1024

void
_wb_convert_row (void *dst, WbDtype ddt, gint64 dstride, const void *src, WbDtype sdt, gint64 sstride, gsize n)
{
  gsize         es = wb_dtype_size (sdt), ed = wb_dtype_size (ddt);
  const guint8 *s = src;
  guint8       *d = dst;

  if (ddt == sdt)
    {
      if (sstride == 1 && dstride == 1)
        memcpy (dst, src, n * es);
      else if (es == 2)
        for (gsize i = 0; i < n; i++)
          ((guint16 *) dst)[(gint64) i * dstride] = ((const guint16 *) src)[(gint64) i * sstride];
      else if (es == 4)
        for (gsize i = 0; i < n; i++)
          ((guint32 *) dst)[(gint64) i * dstride] = ((const guint32 *) src)[(gint64) i * sstride];
      else if (es == 8)
        for (gsize i = 0; i < n; i++)
          ((guint64 *) dst)[(gint64) i * dstride] = ((const guint64 *) src)[(gint64) i * sstride];
      else
        for (gsize i = 0; i < n; i++)
          d[(gint64) i * dstride] = s[(gint64) i * sstride];
      return;
    }

  for (gsize done = 0; done < n; done += CONVERT_BLOCK)
    {
      gsize        m = MIN (CONVERT_BLOCK, n - done);
      const void  *sp = s + (gint64) done * sstride * (gint64) es;
      void        *dp = d + (gint64) done * dstride * (gint64) ed;
      WbComputeClass sc = _wb_dtype_class (sdt), dc = _wb_dtype_class (ddt);

      if (sc == WB_CLASS_I64 && dc == WB_CLASS_I64)
        {
          gint64 buf[CONVERT_BLOCK];
          _wb_load_i64 (buf, sp, sdt, sstride, m);
          _wb_store_i64 (dp, ddt, dstride, buf, m);
        }
      else if (sc == WB_CLASS_F64 || dc == WB_CLASS_F64 || (sc == WB_CLASS_I64 && dc != WB_CLASS_F32))
        {
          double buf[CONVERT_BLOCK];
          _wb_load_f64 (buf, sp, sdt, sstride, m);
          _wb_store_f64 (dp, ddt, dstride, buf, m);
        }
      else if (sc == WB_CLASS_I64)
        {
          /* int -> f32/bf16/f16: one rounding to f32 as static_cast<float> does */
          float buf[CONVERT_BLOCK];
          _wb_load_f32 (buf, sp, sdt, sstride, m);
          _wb_store_f32 (dp, ddt, dstride, buf, m);
        }
      else
        {
          float buf[CONVERT_BLOCK];
          _wb_load_f32 (buf, sp, sdt, sstride, m);
          _wb_store_f32 (dp, ddt, dstride, buf, m);
        }
    }
}

/* -- strided iterator ------------------------------------------------------------------------- */

void
_wb_strided_iter_init (WbStridedIter *it, guint rank, const gint64 *shape, guint n_ops,
                       const gint64 *const *strides)
{
  guint r = 0;

  g_assert (n_ops <= WB_ITER_MAX_OPS);
  memset (it, 0, sizeof *it);
  it->n_ops = n_ops;
  /* keep non-1 dims, outermost first */
  for (guint d = 0; d < rank; d++)
    {
      if (shape[d] == 1)
        continue;
      if (r > 0)
        {
          gboolean mergeable = TRUE;
          for (guint k = 0; k < n_ops; k++)
            if (it->strides[k][r - 1] != strides[k][d] * shape[d])
              mergeable = FALSE;
          if (mergeable)
            {
              it->shape[r - 1] *= shape[d];
              for (guint k = 0; k < n_ops; k++)
                it->strides[k][r - 1] = strides[k][d];
              continue;
            }
        }
      it->shape[r] = shape[d];
      for (guint k = 0; k < n_ops; k++)
        it->strides[k][r] = strides[k][d];
      r++;
    }
  if (r == 0)
    {
      it->shape[0] = 1;
      for (guint k = 0; k < n_ops; k++)
        it->strides[k][0] = 1;
      r = 1;
    }
  /* a tensor with a 0-sized dim has no rows */
  for (guint d = 0; d < rank; d++)
    if (shape[d] == 0)
      {
        it->shape[0] = 0;
        r = 1;
      }
  it->rank = r;
  it->row_len = it->shape[r - 1];
  it->n_rows = 1;
  for (guint d = 0; d + 1 < r; d++)
    it->n_rows *= it->shape[d];
  if (it->row_len == 0)
    it->n_rows = 0;
}

void
_wb_strided_iter_offsets (const WbStridedIter *it, gint64 row, gint64 *offsets)
{
  for (guint k = 0; k < it->n_ops; k++)
    offsets[k] = 0;
  for (int d = (int) it->rank - 2; d >= 0; d--)
    {
      gint64 i = row % it->shape[d];
      row /= it->shape[d];
      for (guint k = 0; k < it->n_ops; k++)
        offsets[k] += i * it->strides[k][d];
    }
}

gint64
_wb_contiguous_strides (guint rank, const gint64 *shape, gint64 *strides)
{
  gint64 n = 1;

  for (int d = (int) rank - 1; d >= 0; d--)
    {
      strides[d] = n;
      n *= shape[d];
    }
  return n;
}

/* -- parallel loop ---------------------------------------------------------------------------- */

static guint         n_threads = 0; /* 0: not set yet -> number of processors */
static GThreadPool  *pool;
static GMutex        pool_lock;

typedef struct
{
  WbParallelFunc func;
  gpointer       data;
  gint64         begin, end;
  gint          *remaining;
  GMutex        *lock;
  GCond         *cond;
} ParallelPart;

static void
run_part (gpointer item, gpointer user_data)
{
  ParallelPart *p = item;

  p->func (p->begin, p->end, p->data);
  g_mutex_lock (p->lock);
  if (--*p->remaining == 0)
    g_cond_signal (p->cond);
  g_mutex_unlock (p->lock);
}

guint
_wb_get_num_threads (void)
{
  if (n_threads == 0)
    {
      const char *env = g_getenv ("WB_NUM_THREADS");
      guint       n = env ? (guint) g_ascii_strtoull (env, NULL, 10) : 0;
      n_threads = n > 0 ? n : MAX (1u, g_get_num_processors ());
    }
  return n_threads;
}

void
_wb_set_num_threads (guint n)
{
  n_threads = MAX (1u, n);
}

void
_wb_parallel_for (gint64 n, gint64 grain, WbParallelFunc func, gpointer data)
{
  guint        nt = _wb_get_num_threads ();
  gint64       parts;
  ParallelPart part[64];
  gint         remaining;
  GMutex       lock;
  GCond        cond;

  if (n <= 0)
    return;
  grain = MAX (grain, 1);
  parts = MIN ((gint64) MIN (nt, 64u), (n + grain - 1) / grain);
  if (parts <= 1)
    {
      func (0, n, data);
      return;
    }

  g_mutex_lock (&pool_lock);
  if (pool == NULL)
    pool = g_thread_pool_new (run_part, NULL, -1, FALSE, NULL);
  g_mutex_unlock (&pool_lock);

  g_mutex_init (&lock);
  g_cond_init (&cond);
  remaining = (gint) parts - 1;
  for (gint64 p = 0; p < parts; p++)
    {
      part[p].func = func;
      part[p].data = data;
      part[p].begin = n * p / parts;
      part[p].end = n * (p + 1) / parts;
      part[p].remaining = &remaining;
      part[p].lock = &lock;
      part[p].cond = &cond;
    }
  for (gint64 p = 1; p < parts; p++)
    g_thread_pool_push (pool, &part[p], NULL);
  func (part[0].begin, part[0].end, data);
  g_mutex_lock (&lock);
  while (remaining > 0)
    g_cond_wait (&cond, &lock);
  g_mutex_unlock (&lock);
  g_mutex_clear (&lock);
  g_cond_clear (&cond);
}
/* clang-format on */
