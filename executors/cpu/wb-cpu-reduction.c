/* wb-cpu-reduction.c — sum, prod, amax, amin, var, std, var_mean over dims; argmax, argmin
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reduced dims are dropped (keepdim is a later broadcast_in_dim in Thunder). The input is viewed as
 * [kept..., reduced...]. When the reduced elements of one output are contiguous, each output reduces a
 * row; when the innermost kept dim is contiguous instead, rows of that dim are accumulated across the
 * reduced index (column reduction, for bias gradients); otherwise the permuted input is copied first.
 * Floats accumulate in f64 (sum, prod, var) — at least as accurate as PyTorch's f32 tree sums — integers
 * in int64 with wrap-around; the result has the input's dtype. With WB_ACCUMULATE_F32 (the run's
 * WbRunState.accumulate) f32, bf16 and f16 accumulate in f32 instead, rounded after every step, as a plain
 * f32 GPU kernel does (the workbench's codegen, PyTorch's): 32 lanes, lane l summing elements l, l + 32, ...
 * in order, then combined by a pairwise tree (a warp's shuffles); var is two passes in f32 the same way. amax/amin and argmax/argmin propagate NaN
 * (NaN counts as the largest, first NaN wins); arg* return the first index of the extremum, as int64.
 * var(a, dims, correction) = sum((x - mean)^2) / (n - correction), two passes. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

#define RED_BLOCK 1024

typedef struct
{
  int             op;
  gboolean        is_int;
  const WbTensor *src; /* the [kept..., reduced...] view */
  guint           nkept, nred;
  gint64          nk, nr;    /* numel of kept / reduced */
  gint64          inner_len; /* COLUMN: innermost kept dim length */
  double          correction;
  double         *out_f;    /* nk results (float path) */
  gint64         *out_i;    /* nk results (int path and arg*) */
  double         *out_mean; /* var_mean */
  gboolean        acc32;    /* WB_ACCUMULATE_F32 on a float narrower than f64 */
} RedJob;

#define F32_LANES 32

/* Combines @lane (F32_LANES partial results) by a pairwise tree in f32, as a warp's xor shuffles leave it
 * in lane 0. */
static float
lanes_combine (float *lane, gboolean prod)
{
  for (int m = F32_LANES / 2; m > 0; m /= 2)
    for (int l = 0; l < m; l++)
      lane[l] = prod ? lane[l] * lane[l + m] : lane[l] + lane[l + m];
  return lane[0];
}

/* sum (or @prod) of the @n contiguous elements at @p in f32 (module comment); with @mean, the sum of
 * (x - mean)^2, each step in f32 */
static float
row_reduce_f32 (const guint8 *p, WbDtype dtype, gint64 n, gboolean prod, const float *mean)
{
  float  lane[F32_LANES];
  double fb[RED_BLOCK];
  gsize  es = wb_dtype_size (dtype);

  for (int l = 0; l < F32_LANES; l++)
    lane[l] = prod ? 1.0f : 0.0f;
  for (gint64 s = 0; s < n; s += RED_BLOCK)
    {
      gsize m = (gsize) MIN (RED_BLOCK, n - s);
      _wb_load_f64 (fb, p + s * es, dtype, 1, m);
      for (gsize i = 0; i < m; i++)
        {
          float x = (float) fb[i], *a = &lane[i % F32_LANES]; /* RED_BLOCK is a multiple of the lanes */
          if (mean != NULL)
            {
              float d = x - *mean;
              *a += d * d;
            }
          else if (prod)
            *a *= x;
          else
            *a += x;
        }
    }
  return lanes_combine (lane, prod);
}

static double
init_f (int op)
{
  switch (op)
    {
    case WB_RED_PROD:
      return 1.0;
    case WB_RED_AMAX:
      return -INFINITY;
    case WB_RED_AMIN:
      return INFINITY;
    default:
      return 0.0;
    }
}

static gint64
init_i (int op)
{
  switch (op)
    {
    case WB_RED_PROD:
      return 1;
    case WB_RED_AMAX:
      return G_MININT64;
    case WB_RED_AMIN:
      return G_MAXINT64;
    default:
      return 0;
    }
}

static inline double
combine_f (int op, double acc, double v)
{
  switch (op)
    {
    case WB_RED_PROD:
      return acc * v;
    case WB_RED_AMAX:
      return (isnan (acc) || isnan (v)) ? NAN : (v > acc ? v : acc);
    case WB_RED_AMIN:
      return (isnan (acc) || isnan (v)) ? NAN : (v < acc ? v : acc);
    default:
      return acc + v;
    }
}

static inline gint64
combine_i (int op, gint64 acc, gint64 v)
{
  switch (op)
    {
    case WB_RED_PROD:
      return (gint64) ((guint64) acc * (guint64) v);
    case WB_RED_AMAX:
      return v > acc ? v : acc;
    case WB_RED_AMIN:
      return v < acc ? v : acc;
    default:
      return (gint64) ((guint64) acc + (guint64) v);
    }
}

/* Offset of kept index @o (row-major over the kept dims) in the view. */
static gint64
kept_offset (const WbTensor *v, guint nkept, gint64 o)
{
  gint64 off = v->offset;

  for (int d = (int) nkept - 1; d >= 0; d--)
    {
      off += (o % v->shape[d]) * v->strides[d];
      o /= v->shape[d];
    }
  return off;
}

/* ROW: the reduced elements of output o start at kept_offset and are contiguous (nr of them). */
static void
row_reduce (gint64 begin, gint64 end, gpointer data)
{
  RedJob *job = data;
  double  fb[RED_BLOCK];
  gint64  ib[RED_BLOCK];

  for (gint64 o = begin; o < end; o++)
    {
      const guint8 *p = _wb_elem_ptr (job->src, kept_offset (job->src, job->nkept, o));
      gsize         es = wb_dtype_size (job->src->dtype);

      if (job->op == WB_RED_ARGMAX || job->op == WB_RED_ARGMIN)
        {
          double best = 0;
          gint64 best_i = -1;
          for (gint64 s = 0; s < job->nr; s += RED_BLOCK)
            {
              gsize m = (gsize) MIN (RED_BLOCK, job->nr - s);
              _wb_load_f64 (fb, p + s * es, job->src->dtype, 1, m);
              for (gsize i = 0; i < m; i++)
                {
                  double v = fb[i];
                  if (best_i >= 0 && isnan (best))
                    break;
                  if (best_i < 0 || isnan (v) || (job->op == WB_RED_ARGMAX ? v > best : v < best))
                    best = v, best_i = s + (gint64) i;
                }
            }
          job->out_i[o] = MAX (best_i, 0);
        }
      else if (job->is_int)
        {
          gint64 acc = init_i (job->op);
          for (gint64 s = 0; s < job->nr; s += RED_BLOCK)
            {
              gsize m = (gsize) MIN (RED_BLOCK, job->nr - s);
              _wb_load_i64 (ib, p + s * es, job->src->dtype, 1, m);
              for (gsize i = 0; i < m; i++)
                acc = combine_i (job->op, acc, ib[i]);
            }
          job->out_i[o] = acc;
        }
      else if (job->acc32 && (job->op == WB_RED_VAR || job->op == WB_RED_STD || job->op == WB_RED_VAR_MEAN))
        {
          float mean = job->nr > 0 ? row_reduce_f32 (p, job->src->dtype, job->nr, FALSE, NULL) / (float) job->nr : NAN;
          float var = row_reduce_f32 (p, job->src->dtype, job->nr, FALSE, &mean) / (float) MAX ((double) job->nr - job->correction, 0.0);
          job->out_f[o] = job->op == WB_RED_STD ? sqrtf (var) : var;
          if (job->out_mean)
            job->out_mean[o] = mean;
        }
      else if (job->acc32 && (job->op == WB_RED_SUM || job->op == WB_RED_PROD))
        job->out_f[o] = row_reduce_f32 (p, job->src->dtype, job->nr, job->op == WB_RED_PROD, NULL);
      else if (job->op == WB_RED_VAR || job->op == WB_RED_STD || job->op == WB_RED_VAR_MEAN)
        {
          double sum = 0, mean, m2 = 0, var;
          for (gint64 s = 0; s < job->nr; s += RED_BLOCK)
            {
              gsize m = (gsize) MIN (RED_BLOCK, job->nr - s);
              _wb_load_f64 (fb, p + s * es, job->src->dtype, 1, m);
              for (gsize i = 0; i < m; i++)
                sum += fb[i];
            }
          mean = job->nr > 0 ? sum / (double) job->nr : NAN;
          for (gint64 s = 0; s < job->nr; s += RED_BLOCK)
            {
              gsize m = (gsize) MIN (RED_BLOCK, job->nr - s);
              _wb_load_f64 (fb, p + s * es, job->src->dtype, 1, m);
              for (gsize i = 0; i < m; i++)
                m2 += (fb[i] - mean) * (fb[i] - mean);
            }
          var = m2 / MAX ((double) job->nr - job->correction, 0.0);
          job->out_f[o] = job->op == WB_RED_STD ? sqrt (var) : var;
          if (job->out_mean)
            job->out_mean[o] = mean;
        }
      else
        {
          double acc = init_f (job->op);
          for (gint64 s = 0; s < job->nr; s += RED_BLOCK)
            {
              gsize m = (gsize) MIN (RED_BLOCK, job->nr - s);
              _wb_load_f64 (fb, p + s * es, job->src->dtype, 1, m);
              if (job->op == WB_RED_SUM)
                for (gsize i = 0; i < m; i++)
                  acc += fb[i];
              else
                for (gsize i = 0; i < m; i++)
                  acc = combine_f (job->op, acc, fb[i]);
            }
          job->out_f[o] = acc;
        }
    }
}

/* COLUMN: item = (outer kept row, chunk of the innermost kept dim); accumulate across reduced indices. */
static void
column_reduce (gint64 begin, gint64 end, gpointer data)
{
  RedJob         *job = data;
  gint64          chunks = (job->inner_len + RED_BLOCK - 1) / RED_BLOCK;
  double          fb[RED_BLOCK], facc[RED_BLOCK];
  gint64          ib[RED_BLOCK], iacc[RED_BLOCK];
  const WbTensor *v = job->src;

  for (gint64 item = begin; item < end; item++)
    {
      gint64 orow = item / chunks, c0 = (item % chunks) * RED_BLOCK;
      gsize  m = (gsize) MIN (RED_BLOCK, job->inner_len - c0);
      gint64 base = kept_offset (v, job->nkept, orow * job->inner_len + c0);

      for (gsize i = 0; i < m; i++)
        facc[i] = init_f (job->op), iacc[i] = init_i (job->op);
      for (gint64 r = 0; r < job->nr; r++)
        {
          gint64 off = base, rem = r;
          for (int d = (int) (job->nkept + job->nred) - 1; d >= (int) job->nkept; d--)
            {
              off += (rem % v->shape[d]) * v->strides[d];
              rem /= v->shape[d];
            }
          if (job->is_int)
            {
              _wb_load_i64 (ib, _wb_elem_ptr (v, off), v->dtype, 1, m);
              for (gsize i = 0; i < m; i++)
                iacc[i] = combine_i (job->op, iacc[i], ib[i]);
            }
          else
            {
              _wb_load_f64 (fb, _wb_elem_ptr (v, off), v->dtype, 1, m);
              if (job->op == WB_RED_SUM)
                for (gsize i = 0; i < m; i++)
                  facc[i] += fb[i];
              else
                for (gsize i = 0; i < m; i++)
                  facc[i] = combine_f (job->op, facc[i], fb[i]);
            }
        }
      for (gsize i = 0; i < m; i++)
        {
          gint64 o = orow * job->inner_len + c0 + (gint64) i;
          if (job->is_int)
            job->out_i[o] = iacc[i];
          else
            job->out_f[o] = facc[i];
        }
    }
}

static WbTensor *
make_output (WbDtype dtype, guint rank, const gint64 *shape, const double *f, const gint64 *i, GError **error)
{
  WbTensor *out = wb_tensor_new (dtype, rank, shape, error);

  if (out == NULL)
    return NULL;
  if (f != NULL)
    _wb_store_f64 (wb_tensor_get_data (out), dtype, 1, f, (gsize) wb_tensor_numel (out));
  else
    _wb_store_i64 (wb_tensor_get_data (out), dtype, 1, i, (gsize) wb_tensor_numel (out));
  return out;
}

gboolean
_wb_cpu_reduction (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;
  gint64    dims[WB_MAX_RANK], perm[WB_MAX_RANK], out_shape[WB_MAX_RANK];
  gboolean  reduced[WB_MAX_RANK] = { FALSE };
  guint     ndims = 0, nkept = 0, nred = 0;
  gboolean  is_arg = op == WB_RED_ARGMAX || op == WB_RED_ARGMIN;
  gboolean  is_var = op == WB_RED_VAR || op == WB_RED_STD || op == WB_RED_VAR_MEAN;
  RedJob    job = { 0 };
  g_autoptr (WbTensor) view = NULL;
  g_autoptr (WbTensor) copy = NULL;
  g_autofree double *out_f = NULL;
  g_autofree gint64 *out_i = NULL;
  g_autofree double *out_mean = NULL;
  WbTensor          *result;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
    return FALSE;
  if (!_wb_cpu_check_dtype (call, a->dtype, is_var ? WB_DT_FLOATS : (is_arg ? WB_DT_FLOATS | WB_DT_INTS : WB_DT_ALL), error))
    return FALSE;
  if (is_arg)
    {
      WbRtValue *d = wb_kernel_call_get_arg (call, 1, "dim");
      if (d == NULL || d->kind == WB_RT_NONE)
        {
          for (guint i = 0; i < a->rank; i++)
            dims[ndims++] = i;
        }
      else if (!_wb_cpu_arg_int (call, 1, "dim", FALSE, 0, &dims[0], error))
        return FALSE;
      else
        ndims = 1;
    }
  else
    {
      WbRtValue *d = wb_kernel_call_get_arg (call, 1, "dims");
      if (d == NULL || d->kind == WB_RT_NONE)
        {
          for (guint i = 0; i < a->rank; i++)
            dims[ndims++] = i;
        }
      else if (!_wb_cpu_arg_ints (call, 1, "dims", TRUE, dims, WB_MAX_RANK, &ndims, error))
        return FALSE;
    }
  if (is_var && !_wb_cpu_arg_number (call, 2, "correction", TRUE, 1.0, &job.correction, error))
    return FALSE;
  for (guint i = 0; i < ndims; i++)
    {
      gint64 d;
      if (a->rank == 0)
        continue;
      if (!_wb_cpu_dim (dims[i], a->rank, &d, error))
        return FALSE;
      reduced[d] = TRUE;
    }
  for (guint d = 0; d < a->rank; d++)
    if (!reduced[d])
      perm[nkept] = d, out_shape[nkept] = a->shape[d], nkept++;
  for (guint d = 0; d < a->rank; d++)
    if (reduced[d])
      perm[nkept + nred++] = d;
  /* argmax over all dims of an n-d tensor: flatten */
  view = wb_tensor_permute (a, perm, error);
  if (view == NULL)
    return FALSE;

  job.op = op;
  job.is_int = !is_arg && !is_var && _wb_dtype_class (a->dtype) == WB_CLASS_I64;
  job.nkept = nkept;
  job.nred = nred;
  job.nk = _wb_cpu_numel (nkept, view->shape);
  job.nr = _wb_cpu_numel (nred, view->shape + nkept);
  job.acc32 = call->state != NULL && call->state->accumulate == WB_ACCUMULATE_F32 && !is_arg && !job.is_int &&
              a->dtype != WB_DTYPE_FLOAT64;
  if (is_arg || job.is_int)
    out_i = g_new (gint64, MAX (job.nk, 1));
  else
    out_f = g_new (double, MAX (job.nk, 1));
  if (op == WB_RED_VAR_MEAN)
    out_mean = g_new (double, MAX (job.nk, 1));
  job.out_f = out_f;
  job.out_i = out_i;
  job.out_mean = out_mean;

  {
    /* are the reduced elements of one output contiguous? */
    gboolean row = TRUE, column = FALSE;
    gint64   expect = 1;
    for (int d = (int) (nkept + nred) - 1; d >= (int) nkept; d--)
      {
        if (view->shape[d] != 1 && view->strides[d] != expect)
          row = FALSE;
        expect *= view->shape[d];
      }
    /* f32 accumulation reduces rows only (its lanes run along a row) */
    if (!row && !is_arg && !is_var && !job.acc32 && nkept > 0 && view->strides[nkept - 1] == 1)
      column = TRUE;
    if (!row && !column)
      {
        copy = wb_tensor_contiguous (view, error);
        if (copy == NULL)
          return FALSE;
        g_clear_pointer (&view, wb_tensor_unref);
        view = wb_tensor_ref (copy);
      }
    job.src = view;
    if (column)
      {
        job.inner_len = view->shape[nkept - 1];
        {
          gint64 chunks = (job.inner_len + RED_BLOCK - 1) / RED_BLOCK;
          _wb_parallel_for (job.nk / MAX (job.inner_len, 1) * chunks, 1, column_reduce, &job);
        }
      }
    else
      _wb_parallel_for (job.nk, MAX (1, 65536 / MAX (job.nr, 1)), row_reduce, &job);
  }

  if (is_arg)
    result = make_output (WB_DTYPE_INT64, nkept, out_shape, NULL, out_i, error);
  else if (job.is_int)
    result = make_output (a->dtype, nkept, out_shape, NULL, out_i, error);
  else
    result = make_output (a->dtype, nkept, out_shape, out_f, NULL, error);
  if (result == NULL)
    return FALSE;
  if (op == WB_RED_VAR_MEAN)
    {
      WbTensor  *mean = make_output (a->dtype, nkept, out_shape, out_mean, NULL, error);
      WbRtValue *tuple;
      if (mean == NULL)
        {
          wb_tensor_unref (result);
          return FALSE;
        }
      tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (result));
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (mean));
      call->result = tuple;
      return TRUE;
    }
  return _wb_cpu_set_result (call, result);
}

/* cumsum (a, dim, *, dtype=None): running sums along dim, in f64 for floats (in f32, rounded at every
 * step, for f32/bf16/f16 under WB_ACCUMULATE_F32) and i64 for exact dtypes (whose result is i64 unless
 * dtype= says otherwise, as in PyTorch). */
gboolean
_wb_cpu_cumsum (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;
  gint64    dim, outer, len, inner;
  WbDtype   dtype;
  gboolean  exact, acc32;
  g_autoptr (WbTensor) src = NULL;
  g_autoptr (WbTensor) acc = NULL;
  WbTensor *out;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_int (call, 1, "dim", FALSE, 0, &dim, error) ||
      !_wb_cpu_arg_dtype (call, 2, "dtype", &dtype, error) || !_wb_cpu_dim (dim, a->rank, &dim, error))
    return FALSE;
  exact = _wb_dtype_class (a->dtype) == WB_CLASS_I64;
  if (dtype == WB_DTYPE_UNKNOWN)
    dtype = exact ? WB_DTYPE_INT64 : a->dtype;
  exact = exact && _wb_dtype_class (dtype) == WB_CLASS_I64;
  acc32 = !exact && call->state != NULL && call->state->accumulate == WB_ACCUMULATE_F32 && dtype != WB_DTYPE_FLOAT64;
  src = exact ? _wb_cpu_to_i64 (a, error) : _wb_cpu_to_f64 (a, error);
  if (src == NULL || (acc = wb_tensor_new_like (src, error)) == NULL)
    return FALSE;
  len = a->rank == 0 ? 1 : a->shape[dim];
  outer = a->rank == 0 ? 1 : _wb_cpu_numel ((guint) dim, a->shape);
  inner = a->rank == 0 ? 1 : _wb_cpu_numel (a->rank - (guint) dim - 1, a->shape + dim + 1);
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        gint64 base = o * len * inner + i;
        if (exact)
          {
            const gint64 *x = wb_tensor_get_data (src);
            gint64       *y = wb_tensor_get_data (acc), run = 0;
            for (gint64 k = 0; k < len; k++)
              y[base + k * inner] = run += x[base + k * inner];
          }
        else
          {
            const double *x = wb_tensor_get_data (src);
            double       *y = wb_tensor_get_data (acc), run = 0;
            float         run32 = 0;
            if (acc32)
              for (gint64 k = 0; k < len; k++)
                y[base + k * inner] = run32 += (float) x[base + k * inner];
            else
              for (gint64 k = 0; k < len; k++)
                y[base + k * inner] = run += x[base + k * inner];
          }
      }
  out = wb_tensor_to_dtype (acc, dtype, error);
  return out != NULL && _wb_cpu_set_result (call, out);
}
