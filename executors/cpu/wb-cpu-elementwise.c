/* wb-cpu-elementwise.c — unary, binary and ternary elementwise prims, and convert_element_type
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One engine for every row of wb-cpu-elementwise.def. Operands are tensors (any strides, broadcast
 * already explicit; size-1 and missing leading dims broadcast too) or Python numbers. Work is split in
 * blocks of WB_EW_BLOCK elements of one row of the (coalesced) output: each operand block is loaded into
 * the compute class (f32 for f32/bf16/f16, f64, or i64 for integers and b8) unless it already is one
 * with unit stride, the op runs over contiguous arrays, and the result is stored with the output dtype's
 * rounding. Blocks run in parallel (_wb_parallel_for). Output: a new contiguous tensor. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

#define WB_EW_BLOCK 1024

/* -- scalar helpers used by the .def expressions ---------------------------------------------- */

static inline gint64
ew_neg_i64 (gint64 x)
{
  return (gint64) (0 - (guint64) x);
}

static inline gint64
ew_div_i64 (gint64 x, gint64 y)
{
  if (y == 0)
    return 0;
  if (y == -1)
    return ew_neg_i64 (x);
  return x / y;
}

static inline gint64
ew_floordiv_i64 (gint64 x, gint64 y)
{
  gint64 q;

  if (y == 0)
    return 0;
  if (y == -1)
    return ew_neg_i64 (x);
  q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0)))
    q--;
  return q;
}

static inline gint64
ew_fmod_i64 (gint64 x, gint64 y)
{
  if (y == 0 || y == -1)
    return 0;
  return x % y;
}

static inline gint64
ew_remainder_i64 (gint64 x, gint64 y)
{
  gint64 r;

  if (y == 0 || y == -1)
    return 0;
  r = x % y;
  if (r != 0 && ((r < 0) != (y < 0)))
    r += y;
  return r;
}

static inline double
ew_remainder_f64 (double x, double y)
{
  double r = fmod (x, y);

  if (r != 0 && ((r < 0) != (y < 0)))
    r += y;
  return r;
}

static inline gint64
ew_shl_i64 (gint64 x, gint64 y)
{
  if (y < 0 || y >= 64)
    return 0;
  return (gint64) ((guint64) x << y);
}

static inline gint64
ew_shr_i64 (gint64 x, gint64 y)
{
  if (y < 0 || y >= 64)
    return x < 0 ? -1 : 0;
  return x >> y;
}

static inline gint64
ew_pow_i64 (gint64 x, gint64 y)
{
  guint64 result = 1, base = (guint64) x;

  if (y < 0)
    return x == 1 ? 1 : (x == -1 ? ((y & 1) ? -1 : 1) : 0);
  while (y > 0)
    {
      if (y & 1)
        result *= base;
      base *= base;
      y >>= 1;
    }
  return (gint64) result;
}

/* erfinv: initial rational approximation (Giles 2010) refined by two Newton steps on erf. */
static double
ew_erfinv (double x)
{
  double w, p;

  if (isnan (x) || x < -1 || x > 1)
    return NAN;
  if (x == 1)
    return INFINITY;
  if (x == -1)
    return -INFINITY;
  w = -log ((1.0 - x) * (1.0 + x));
  if (w < 5.0)
    {
      w = w - 2.5;
      p = 2.81022636e-08;
      p = 3.43273939e-07 + p * w;
      p = -3.5233877e-06 + p * w;
      p = -4.39150654e-06 + p * w;
      p = 0.00021858087 + p * w;
      p = -0.00125372503 + p * w;
      p = -0.00417768164 + p * w;
      p = 0.246640727 + p * w;
      p = 1.50140941 + p * w;
    }
  else
    {
      w = sqrt (w) - 3.0;
      p = -0.000200214257;
      p = 0.000100950558 + p * w;
      p = 0.00134934322 + p * w;
      p = -0.00367342844 + p * w;
      p = 0.00573950773 + p * w;
      p = -0.0076224613 + p * w;
      p = 0.00943887047 + p * w;
      p = 1.00167406 + p * w;
      p = 2.83297682 + p * w;
    }
  p *= x;
  for (int i = 0; i < 2; i++)
    p -= (erf (p) - x) / (2.0 / sqrt (G_PI) * exp (-p * p));
  return p;
}

/* digamma: reflection for x < 0.5, recurrence up to x >= 6, then the asymptotic series. */
static double
ew_digamma (double x)
{
  double r = 0, f;

  if (x == 0)
    return signbit (x) ? INFINITY : -INFINITY;
  if (x < 0 && x == floor (x))
    return NAN;
  if (x < 0.5)
    return ew_digamma (1.0 - x) - G_PI / tan (G_PI * x);
  while (x < 6)
    {
      r -= 1.0 / x;
      x += 1;
    }
  f = 1.0 / (x * x);
  return r + log (x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

/* Hurwitz zeta(x, q) by Euler-Maclaurin summation (Cephes zeta.c). */
static double
ew_zeta (double x, double q)
{
  static const double A[] = { 12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                              7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                              -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18 };
  double              s, a, b, k, t, w;
  int                 i;

  if (x == 1)
    return INFINITY;
  if (x < 1)
    return NAN;
  if (q <= 0)
    {
      if (q == floor (q))
        return INFINITY;
      if (x != floor (x))
        return NAN;
    }
  s = pow (q, -x);
  a = q;
  i = 0;
  b = 0;
  while (i < 9 || a <= 9)
    {
      i++;
      a += 1;
      b = pow (a, -x);
      s += b;
      if (fabs (b / s) < 1e-17)
        return s;
    }
  w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1;
  k = 0;
  for (i = 0; i < 12; i++)
    {
      a *= x + k;
      b /= w;
      t = a * b / A[i];
      s += t;
      if (fabs (t / s) < 1e-17)
        break;
      k += 1;
      a *= x + k;
      b /= w;
      k += 1;
    }
  return s;
}

/* -- per-op block loops ----------------------------------------------------------------------- */

#define EW_FN(T, SUFFIX, ID, EXPR)                                                             \
  WB_CLONES static void ew_##ID##_##SUFFIX (T *o, const T *a, const T *b, const T *c, gsize n) \
  {                                                                                            \
    (void) a;                                                                                  \
    (void) b;                                                                                  \
    (void) c;                                                                                  \
    for (gsize i = 0; i < n; i++)                                                              \
      {                                                                                        \
        T x = a ? a[i] : 0, y = b ? b[i] : 0, z = c ? c[i] : 0;                                \
        (void) x;                                                                              \
        (void) y;                                                                              \
        (void) z;                                                                              \
        o[i] = (T) (EXPR);                                                                     \
      }                                                                                        \
  }

#define EW_FNS(ID, F32, F64, I64) \
  EW_FN (float, f32, ID, F32)     \
  EW_FN (double, f64, ID, F64)    \
  EW_FN (gint64, i64, ID, I64)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wunused-function"
#define WB_EW_UNARY(id, name, res, dt, f32, f64, i64) EW_FNS (id, f32, f64, i64)
#define WB_EW_BINARY(id, name, res, dt, f32, f64, i64) EW_FNS (id, f32, f64, i64)
#define WB_EW_TERNARY(id, name, res, dt, f32, f64, i64) EW_FNS (id, f32, f64, i64)
#include "wb-cpu-elementwise.def"
#undef WB_EW_UNARY
#undef WB_EW_BINARY
#undef WB_EW_TERNARY
#pragma GCC diagnostic pop

typedef void (*EwF32) (float *, const float *, const float *, const float *, gsize);
typedef void (*EwF64) (double *, const double *, const double *, const double *, gsize);
typedef void (*EwI64) (gint64 *, const gint64 *, const gint64 *, const gint64 *, gsize);

typedef struct
{
  const char *name;
  guint       arity;
  int         result;
  guint64     dtypes;
  EwF32       f32;
  EwF64       f64;
  EwI64       i64;
} EwOpInfo;

static const EwOpInfo ew_ops[WB_N_EW_OPS] = {
#define WB_EW_UNARY(id, name, res, dt, f32, f64, i64) { name, 1, res, dt, ew_##id##_f32, ew_##id##_f64, ew_##id##_i64 },
#define WB_EW_BINARY(id, name, res, dt, f32, f64, i64) { name, 2, res, dt, ew_##id##_f32, ew_##id##_f64, ew_##id##_i64 },
#define WB_EW_TERNARY(id, name, res, dt, f32, f64, i64) { name, 3, res, dt, ew_##id##_f32, ew_##id##_f64, ew_##id##_i64 },
#include "wb-cpu-elementwise.def"
#undef WB_EW_UNARY
#undef WB_EW_BINARY
#undef WB_EW_TERNARY
};

/* -- the engine ------------------------------------------------------------------------------- */

typedef union
{
  float  f32[WB_EW_BLOCK];
  double f64[WB_EW_BLOCK];
  gint64 i64[WB_EW_BLOCK];
} EwBuffer;

typedef struct
{
  const EwOpInfo *op;
  WbComputeClass  cls;
  guint           n;
  const WbTensor *in[3]; /* NULL for a number operand */
  EwBuffer       *konst[3];
  WbTensor       *out;
  WbStridedIter   it; /* operand 0 = out, 1..n = inputs (numbers: stride 0) */
  gint64          blocks_per_row;
} EwJob;

static WbDtype
class_dtype (WbComputeClass cls)
{
  return cls == WB_CLASS_F32 ? WB_DTYPE_FLOAT32 : cls == WB_CLASS_F64 ? WB_DTYPE_FLOAT64
                                                                      : WB_DTYPE_INT64;
}

static void
ew_blocks (gint64 begin, gint64 end, gpointer data)
{
  EwJob   *job = data;
  gsize    es = job->cls == WB_CLASS_F32 ? 4 : 8;
  WbDtype  cdt = class_dtype (job->cls);
  EwBuffer buf[4];
  gint64   off[WB_ITER_MAX_OPS];
  guint    last = job->it.rank - 1;

  for (gint64 item = begin; item < end; item++)
    {
      gint64      row = item / job->blocks_per_row;
      gint64      start = (item % job->blocks_per_row) * WB_EW_BLOCK;
      gsize       m = (gsize) MIN (WB_EW_BLOCK, job->it.row_len - start);
      const void *src[3] = { NULL, NULL, NULL };
      void       *dst;
      gint64      ostride = job->it.strides[0][last];
      gboolean    direct_out;

      _wb_strided_iter_offsets (&job->it, row, off);
      for (guint k = 0; k < job->n; k++)
        {
          const WbTensor *t = job->in[k];
          if (t == NULL)
            {
              src[k] = job->konst[k];
              continue;
            }
          {
            gint64        stride = job->it.strides[k + 1][last];
            const guint8 *p = _wb_elem_ptr (t, t->offset + off[k + 1] + start * stride);
            if (t->dtype == cdt && stride == 1)
              src[k] = p;
            else
              {
                if (job->cls == WB_CLASS_F32)
                  _wb_load_f32 (buf[k].f32, p, t->dtype, stride, m);
                else if (job->cls == WB_CLASS_F64)
                  _wb_load_f64 (buf[k].f64, p, t->dtype, stride, m);
                else
                  _wb_load_i64 (buf[k].i64, p, t->dtype, stride, m);
                src[k] = &buf[k];
              }
          }
        }
      dst = _wb_elem_ptr (job->out, job->out->offset + off[0] + start * ostride);
      direct_out = job->out->dtype == cdt && ostride == 1;
      if (job->cls == WB_CLASS_F32)
        {
          float *o = direct_out ? dst : buf[3].f32;
          job->op->f32 (o, src[0], src[1], src[2], m);
          if (!direct_out)
            _wb_store_f32 (dst, job->out->dtype, ostride, o, m);
        }
      else if (job->cls == WB_CLASS_F64)
        {
          double *o = direct_out ? dst : buf[3].f64;
          job->op->f64 (o, src[0], src[1], src[2], m);
          if (!direct_out)
            _wb_store_f64 (dst, job->out->dtype, ostride, o, m);
        }
      else
        {
          gint64 *o = direct_out ? dst : buf[3].i64;
          job->op->i64 (o, src[0], src[1], src[2], m);
          if (!direct_out)
            _wb_store_i64 (dst, job->out->dtype, ostride, o, m);
        }
      (void) es;
    }
}

static WbComputeClass
max_class (WbComputeClass a, WbComputeClass b)
{
  if (a == WB_CLASS_F64 || b == WB_CLASS_F64)
    return WB_CLASS_F64;
  if (a == WB_CLASS_F32 || b == WB_CLASS_F32)
    return WB_CLASS_F32;
  return WB_CLASS_I64;
}

static WbComputeClass
number_class (const WbRtValue *v)
{
  return v->kind == WB_RT_FLOAT ? WB_CLASS_F32 : WB_CLASS_I64;
}

/* The dtype Thunder gives an elementwise prim whose value operands are all numbers. */
static WbDtype
number_dtype (const WbRtValue *v)
{
  return v->kind == WB_RT_FLOAT ? WB_DTYPE_FLOAT32 : v->kind == WB_RT_BOOL ? WB_DTYPE_BOOL8
                                                                           : WB_DTYPE_INT64;
}

/* Numbers only: Python semantics in f64 / i64; returns a number value. */
static WbRtValue *
ew_numbers (const EwOpInfo *op, int op_id, WbRtValue **operands, guint n)
{
  gboolean all_int = TRUE;

  for (guint k = 0; k < n; k++)
    if (operands[k]->kind == WB_RT_FLOAT && !(op_id == WB_EW_WHERE && k == 0))
      all_int = FALSE;
  if (all_int && op_id != WB_EW_DIV)
    {
      gint64 a[3] = { 0 }, o;
      for (guint k = 0; k < n; k++)
        wb_rt_value_get_int (operands[k], &a[k]);
      op->i64 (&o, &a[0], n > 1 ? &a[1] : NULL, n > 2 ? &a[2] : NULL, 1);
      if (op->result == WB_EW_RES_BOOL)
        return wb_rt_value_new_bool (o != 0);
      return wb_rt_value_new_int (o);
    }
  else
    {
      double a[3] = { 0 }, o;
      for (guint k = 0; k < n; k++)
        wb_rt_value_get_number (operands[k], &a[k]);
      op->f64 (&o, &a[0], n > 1 ? &a[1] : NULL, n > 2 ? &a[2] : NULL, 1);
      if (op->result == WB_EW_RES_BOOL)
        return wb_rt_value_new_bool (o != 0);
      return wb_rt_value_new_float (o);
    }
}

WbTensor *
_wb_cpu_elementwise_apply (int op_id, WbRtValue **operands, guint n, WbDtype out_dtype, GError **error)
{
  const EwOpInfo *op = &ew_ops[op_id];
  EwJob           job = { 0 };
  guint           rank = 0;
  gint64          shape[WB_MAX_RANK];
  gint64          strides[WB_ITER_MAX_OPS][WB_MAX_RANK];
  const gint64   *sp[WB_ITER_MAX_OPS];
  WbDtype         value_dtype = WB_DTYPE_UNKNOWN;
  WbComputeClass  cls = WB_CLASS_I64;
  gboolean        have_tensor = FALSE;
  g_autoptr (WbTensor) out = NULL;
  EwBuffer *konst[3] = { NULL };

  g_assert (n == op->arity);
  /* broadcast shape (right-aligned) and the value dtype */
  for (guint k = 0; k < n; k++)
    if (operands[k]->kind == WB_RT_TENSOR)
      rank = MAX (rank, operands[k]->tensor->rank);
  for (guint d = 0; d < rank; d++)
    shape[d] = 1;
  for (guint k = 0; k < n; k++)
    {
      const WbRtValue *v = operands[k];
      if (v->kind == WB_RT_TENSOR)
        {
          const WbTensor *t = v->tensor;
          if (!_wb_dtype_is_supported (t->dtype))
            {
              g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                           "dtype %s is not supported by the cpu executor", wb_dtype_shortname (t->dtype));
              return NULL;
            }
          for (guint d = 0; d < t->rank; d++)
            {
              gint64 *s = &shape[rank - t->rank + d];
              if (*s == 1)
                *s = t->shape[d];
              else if (t->shape[d] != 1 && t->shape[d] != *s)
                {
                  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                               "operand shapes do not match: dim %u is %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT,
                               d, *s, t->shape[d]);
                  return NULL;
                }
            }
          cls = max_class (cls, _wb_dtype_class (t->dtype));
          if (!(op_id == WB_EW_WHERE && k == 0))
            {
              if (!(op->dtypes & (G_GUINT64_CONSTANT (1) << t->dtype)))
                {
                  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                               "%s of %s is not supported", op->name, wb_dtype_shortname (t->dtype));
                  return NULL;
                }
              value_dtype = value_dtype == WB_DTYPE_UNKNOWN ? t->dtype
                                                            : (value_dtype == t->dtype ? value_dtype : wb_dtype_promote (value_dtype, t->dtype));
            }
          have_tensor = TRUE;
        }
      else if (!wb_rt_value_is_number (v))
        {
          g_autofree char *d = wb_rt_value_describe (v);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "operand %u of %s is %s, not a tensor or a number", k, op->name, d);
          return NULL;
        }
    }
  g_assert (have_tensor);
  if (value_dtype == WB_DTYPE_UNKNOWN)
    {
      /* where(pred, number, number): the numbers decide */
      for (guint k = 1; k < n; k++)
        value_dtype = value_dtype == WB_DTYPE_UNKNOWN ? number_dtype (operands[k])
                                                      : wb_dtype_promote (value_dtype, number_dtype (operands[k]));
    }
  if (out_dtype == WB_DTYPE_UNKNOWN)
    out_dtype = op->result == WB_EW_RES_BOOL ? WB_DTYPE_BOOL8 : value_dtype;
  /* compute class: the operands' for comparisons, otherwise the result's */
  if (op->result == WB_EW_RES_BOOL)
    {
      for (guint k = 0; k < n; k++)
        if (operands[k]->kind != WB_RT_TENSOR)
          cls = max_class (cls, number_class (operands[k]));
    }
  else
    cls = _wb_dtype_class (value_dtype);
  if (!(op->dtypes & (G_GUINT64_CONSTANT (1) << value_dtype)))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "%s of %s is not supported", op->name, wb_dtype_shortname (value_dtype));
      return NULL;
    }

  out = wb_tensor_new (out_dtype, rank, shape, error);
  if (out == NULL)
    return NULL;
  sp[0] = out->strides;
  for (guint k = 0; k < n; k++)
    {
      const WbRtValue *v = operands[k];
      gint64          *st = strides[k + 1];
      memset (st, 0, sizeof strides[0]);
      if (v->kind == WB_RT_TENSOR)
        {
          const WbTensor *t = v->tensor;
          for (guint d = 0; d < t->rank; d++)
            st[rank - t->rank + d] = t->shape[d] == 1 ? 0 : t->strides[d];
          job.in[k] = t;
        }
      else
        {
          double f = 0;
          gint64 i = 0;
          konst[k] = g_malloc (sizeof *konst[k]);
          wb_rt_value_get_number (v, &f);
          if (!wb_rt_value_get_int (v, &i))
            i = (gint64) f;
          for (guint j = 0; j < WB_EW_BLOCK; j++)
            {
              if (cls == WB_CLASS_F32)
                konst[k]->f32[j] = (float) f;
              else if (cls == WB_CLASS_F64)
                konst[k]->f64[j] = f;
              else
                konst[k]->i64[j] = i;
            }
          job.konst[k] = konst[k];
        }
      sp[k + 1] = st;
    }
  job.op = op;
  job.cls = cls;
  job.n = n;
  job.out = out;
  _wb_strided_iter_init (&job.it, rank, shape, n + 1, sp);
  job.blocks_per_row = (job.it.row_len + WB_EW_BLOCK - 1) / WB_EW_BLOCK;
  _wb_parallel_for (job.it.n_rows * job.blocks_per_row, 16, ew_blocks, &job);
  for (guint k = 0; k < 3; k++)
    g_free (konst[k]);
  return g_steal_pointer (&out);
}

gboolean
_wb_cpu_elementwise (WbKernelCall *call, int op_id, GError **error)
{
  const EwOpInfo *op = &ew_ops[op_id];
  WbRtValue      *operands[3] = { NULL, NULL, NULL };
  gboolean        any_tensor = FALSE;
  WbTensor       *out;

  if (call->n_args < op->arity)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s takes %u operands, got %u", op->name, op->arity, call->n_args);
      return FALSE;
    }
  for (guint k = 0; k < op->arity; k++)
    {
      operands[k] = call->args[k];
      any_tensor |= operands[k]->kind == WB_RT_TENSOR;
    }
  /* bitwise_not of b8 is logical not */
  if (op_id == WB_EW_BITWISE_NOT && operands[0]->kind == WB_RT_TENSOR && operands[0]->tensor->dtype == WB_DTYPE_BOOL8)
    op_id = WB_EW_LOGICAL_NOT, op = &ew_ops[op_id];
  if (!any_tensor)
    {
      for (guint k = 0; k < op->arity; k++)
        if (!wb_rt_value_is_number (operands[k]))
          {
            g_autofree char *d = wb_rt_value_describe (operands[k]);
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                         "operand %u of %s is %s, not a tensor or a number", k, op->name, d);
            return FALSE;
          }
      call->result = ew_numbers (op, op_id, operands, op->arity);
      return TRUE;
    }
  out = _wb_cpu_elementwise_apply (op_id, operands, op->arity, WB_DTYPE_UNKNOWN, error);
  if (out == NULL)
    return FALSE;
  return _wb_cpu_set_result (call, out);
}

/* prims.convert_element_type(a, dtype): a tensor converted (a new reference when the dtype is already
 * right, as torch's .to does), or a number converted by Python's rules. */
gboolean
_wb_cpu_convert_element_type (WbKernelCall *call, int op, GError **error)
{
  WbRtValue *a = wb_kernel_call_get_arg (call, 0, "a");
  WbDtype    dtype;
  WbTensor  *out;

  if (!_wb_cpu_arg_dtype (call, 1, "dtype", &dtype, error))
    return FALSE;
  if (a == NULL || dtype == WB_DTYPE_UNKNOWN)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "needs a value and a dtype");
      return FALSE;
    }
  if (a->kind != WB_RT_TENSOR)
    {
      double f;
      if (!wb_rt_value_get_number (a, &f))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "converts a tensor or a number");
          return FALSE;
        }
      if (dtype == WB_DTYPE_BOOL8)
        call->result = wb_rt_value_new_bool (f != 0);
      else if (wb_dtype_is_integer (dtype))
        call->result = wb_rt_value_new_int (a->kind == WB_RT_FLOAT ? (gint64) f : a->i);
      else
        call->result = wb_rt_value_new_float (f);
      return TRUE;
    }
  if (!_wb_cpu_check_dtype (call, dtype, WB_DT_ALL, error) || !_wb_cpu_check_dtype (call, a->tensor->dtype, WB_DT_ALL, error))
    return FALSE;
  if (a->tensor->dtype == dtype)
    return _wb_cpu_set_result (call, wb_tensor_ref (a->tensor));
  out = wb_tensor_to_dtype (a->tensor, dtype, error);
  if (out == NULL)
    return FALSE;
  return _wb_cpu_set_result (call, out);
}
