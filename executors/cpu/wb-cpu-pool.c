/* wb-cpu-pool.c — pooling over 1 to 3 trailing spatial dims: adaptive average pooling and its backward,
 * max pooling with indices and its backward
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inputs are [lead..., S1..Sk] (lead: batch and channels, or channels alone); every lead index is one
 * independent plane. Values are computed in f64 and rounded once to the input's dtype.
 * adaptive_avg_pool (a, output_size): output o of a dim averages input [floor(o * in / out),
 * ceil((o + 1) * in / out)) (ATen's start_index/end_index, aten/src/ATen/native/AdaptivePooling.h).
 * max_pool_with_indices (a, kernel_size, stride, padding, dilation, ceil_mode): windows padded with
 * -inf; the index is the flat position in the input plane, as PyTorch returns it; NaN wins; output
 * sizes follow ATen's pooling_output_shape (aten/src/ATen/native/Pool.h). The indices have the input's
 * dtype, as Thunder's meta types them and its traces annotate them (PyTorch returns i64): a plane too
 * large for that dtype to count exactly is an error, never a rounded index. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

/* Spatial geometry padded to 3 dims with size-1 leading dims. */
typedef struct
{
  guint  f; /* spatial dims (1-3) */
  gint64 planes;
  gint64 in[3], out[3], k[3], stride[3], pad[3], dil[3];
} PoolGeom;

static gboolean
geom_init (PoolGeom *g, const WbTensor *a, guint f, GError **error)
{
  memset (g, 0, sizeof *g);
  if (f < 1 || f > 3 || a->rank < f + 1)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "pooling needs %u spatial dims and a channel dim, got rank %u", f,
                   a->rank);
      return FALSE;
    }
  g->f = f;
  g->planes = _wb_cpu_numel (a->rank - f, a->shape);
  for (guint i = 0; i < 3; i++)
    g->in[i] = g->out[i] = g->k[i] = g->stride[i] = g->dil[i] = 1;
  for (guint i = 0; i < f; i++)
    g->in[3 - f + i] = a->shape[a->rank - f + i];
  return TRUE;
}

/* Reads argument @pos as @f per-dim values (one int or a sequence of 1 or f) into the last f of @out[3];
 * None or an empty sequence keeps @out (the default already there). */
static gboolean
per_dim (WbKernelCall *call, guint pos, const char *name, guint f, gint64 *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);
  gint64     vals[3];
  guint      n = 0;

  if (v == NULL || v->kind == WB_RT_NONE)
    return TRUE;
  if (!_wb_cpu_arg_ints (call, pos, name, TRUE, vals, 3, &n, error))
    return FALSE;
  if (n == 0)
    return TRUE;
  if (n != 1 && n != f)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "%s: expected 1 or %u values, got %u", name, f, n);
      return FALSE;
    }
  for (guint i = 0; i < f; i++)
    out[3 - f + i] = vals[n == 1 ? 0 : i];
  return TRUE;
}

static WbTensor *
new_output (const WbTensor *a, const PoolGeom *g, WbDtype dtype, GError **error)
{
  gint64 shape[WB_MAX_RANK];

  memcpy (shape, a->shape, sizeof (gint64) * a->rank);
  for (guint i = 0; i < g->f; i++)
    shape[a->rank - g->f + i] = g->out[3 - g->f + i];
  return wb_tensor_new_zeros (dtype, a->rank, shape, error);
}

static gboolean
finish (WbKernelCall *call, WbTensor *acc64, WbDtype dtype, GError **error)
{
  g_autoptr (WbTensor) owned = acc64;
  WbTensor *out = wb_tensor_to_dtype (owned, dtype, error);
  return out != NULL && _wb_cpu_set_result (call, out);
}

/* ---- adaptive average pooling ------------------------------------------------------------------- */

static void
adaptive_window (gint64 o, gint64 out, gint64 in, gint64 *start, gint64 *end)
{
  *start = (o * in) / out;
  *end = ((o + 1) * in + out - 1) / out;
}

/* The input window [lo, hi) per padded dim of output element (od, oh, ow); returns its size. */
static gint64
adaptive_box (const PoolGeom *g, gint64 od, gint64 oh, gint64 ow, gint64 *lo, gint64 *hi)
{
  const gint64 o[3] = { od, oh, ow };

  for (guint i = 0; i < 3; i++)
    adaptive_window (o[i], g->out[i], g->in[i], &lo[i], &hi[i]);
  return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

static gboolean
op_adaptive_avg (WbKernelCall *call, guint f, GError **error)
{
  WbTensor *a;
  PoolGeom  g;
  g_autoptr (WbTensor) a64 = NULL;
  WbTensor     *acc;
  const double *x;
  double       *y;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !geom_init (&g, a, f, error))
    return FALSE;
  memcpy (g.out, g.in, sizeof g.out);
  if (!per_dim (call, 1, "output_size", f, g.out, error))
    return FALSE;
  if ((a64 = _wb_cpu_to_f64 (a, error)) == NULL || (acc = new_output (a, &g, WB_DTYPE_FLOAT64, error)) == NULL)
    return FALSE;
  x = wb_tensor_get_data (a64);
  y = wb_tensor_get_data (acc);
  for (gint64 p = 0; p < g.planes; p++)
    for (gint64 od = 0; od < g.out[0]; od++)
      for (gint64 oh = 0; oh < g.out[1]; oh++)
        for (gint64 ow = 0; ow < g.out[2]; ow++)
          {
            gint64 lo[3], hi[3], size = adaptive_box (&g, od, oh, ow, lo, hi);
            double sum = 0;
            for (gint64 d = lo[0]; d < hi[0]; d++)
              for (gint64 h = lo[1]; h < hi[1]; h++)
                for (gint64 w = lo[2]; w < hi[2]; w++)
                  sum += x[((p * g.in[0] + d) * g.in[1] + h) * g.in[2] + w];
            y[((p * g.out[0] + od) * g.out[1] + oh) * g.out[2] + ow] = sum / (double) size;
          }
  return finish (call, acc, a->dtype, error);
}

/* adaptive_avg_pool2d_backward (g, a): each output's gradient spread evenly over its window. */
static gboolean
op_adaptive_avg_backward (WbKernelCall *call, GError **error)
{
  WbTensor *go, *a;
  PoolGeom  g;
  guint     f;
  g_autoptr (WbTensor) g64 = NULL;
  WbTensor     *acc;
  const double *gy;
  double       *gx;

  if (!_wb_cpu_arg_tensor (call, 0, "g", &go, error) || !_wb_cpu_arg_tensor (call, 1, "a", &a, error))
    return FALSE;
  f = 2; /* ATen has _adaptive_avg_pool2d_backward and _adaptive_avg_pool3d_backward: Thunder uses 2d */
  if (go->rank != a->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "adaptive_avg_pool backward: gradient rank %u, input rank %u", go->rank,
                   a->rank);
      return FALSE;
    }
  if (!geom_init (&g, a, f, error))
    return FALSE;
  for (guint i = 0; i < f; i++)
    g.out[3 - f + i] = go->shape[go->rank - f + i];
  if ((g64 = _wb_cpu_to_f64 (go, error)) == NULL || (acc = wb_tensor_new_zeros (WB_DTYPE_FLOAT64, a->rank, a->shape, error)) == NULL)
    return FALSE;
  gy = wb_tensor_get_data (g64);
  gx = wb_tensor_get_data (acc);
  for (gint64 p = 0; p < g.planes; p++)
    for (gint64 od = 0; od < g.out[0]; od++)
      for (gint64 oh = 0; oh < g.out[1]; oh++)
        for (gint64 ow = 0; ow < g.out[2]; ow++)
          {
            gint64 lo[3], hi[3], size = adaptive_box (&g, od, oh, ow, lo, hi);
            double v = gy[((p * g.out[0] + od) * g.out[1] + oh) * g.out[2] + ow] / (double) size;
            for (gint64 d = lo[0]; d < hi[0]; d++)
              for (gint64 h = lo[1]; h < hi[1]; h++)
                for (gint64 w = lo[2]; w < hi[2]; w++)
                  gx[((p * g.in[0] + d) * g.in[1] + h) * g.in[2] + w] += v;
          }
  return finish (call, acc, a->dtype, error);
}

/* ---- max pooling with indices ------------------------------------------------------------------- */

/* Reads kernel_size (1), stride (2, default: the kernel), padding (3), dilation (4), ceil_mode (5). */
static gboolean
max_geom (WbKernelCall *call, const WbTensor *a, guint f, PoolGeom *g, GError **error)
{
  gboolean ceil_mode = FALSE;

  if (!geom_init (g, a, f, error))
    return FALSE;
  for (guint i = 0; i < 3; i++)
    g->k[i] = 1, g->pad[i] = 0;
  if (!per_dim (call, 1, "kernel_size", f, g->k, error))
    return FALSE;
  memcpy (g->stride, g->k, sizeof g->stride);
  if (!per_dim (call, 2, "stride", f, g->stride, error) || !per_dim (call, 3, "padding", f, g->pad, error) ||
      !per_dim (call, 4, "dilation", f, g->dil, error) || !_wb_cpu_arg_bool (call, 5, "ceil_mode", TRUE, FALSE, &ceil_mode, error))
    return FALSE;
  for (guint i = 0; i < 3; i++)
    {
      if (g->k[i] < 1 || g->stride[i] < 1 || g->dil[i] < 1 || g->pad[i] < 0 || g->pad[i] * 2 > g->k[i])
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "max_pool: invalid kernel, stride, padding or dilation");
          return FALSE;
        }
      g->out[i] = wb_pool_output_size (g->in[i], g->k[i], g->pad[i], g->stride[i], g->dil[i], ceil_mode);
    }
  return TRUE;
}

static gboolean
op_max_pool_with_indices (WbKernelCall *call, guint f, GError **error)
{
  WbTensor *a;
  PoolGeom  g;
  g_autoptr (WbTensor) a64 = NULL;
  g_autoptr (WbTensor) indices = NULL;
  WbTensor     *acc, *values, *typed;
  const double *x;
  double       *y;
  gint64       *idx, plane_in, plane_out;
  WbRtValue    *tuple;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !max_geom (call, a, f, &g, error))
    return FALSE;
  if ((a64 = _wb_cpu_to_f64 (a, error)) == NULL || (acc = new_output (a, &g, WB_DTYPE_FLOAT64, error)) == NULL)
    return FALSE;
  if (_wb_dtype_class (a->dtype) != WB_CLASS_I64 && g.in[0] * g.in[1] * g.in[2] > wb_dtype_exact_integers (a->dtype))
    {
      wb_tensor_unref (acc);
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "max_pool_with_indices: %s cannot count the %" G_GINT64_FORMAT " positions of a plane exactly (Thunder types the indices like the input)",
                   wb_dtype_shortname (a->dtype), g.in[0] * g.in[1] * g.in[2]);
      return FALSE;
    }
  if ((indices = new_output (a, &g, WB_DTYPE_INT64, error)) == NULL)
    {
      wb_tensor_unref (acc);
      return FALSE;
    }
  x = wb_tensor_get_data (a64);
  y = wb_tensor_get_data (acc);
  idx = wb_tensor_get_data (indices);
  plane_in = g.in[0] * g.in[1] * g.in[2];
  plane_out = g.out[0] * g.out[1] * g.out[2];
  for (gint64 p = 0; p < g.planes; p++)
    for (gint64 o = 0; o < plane_out; o++)
      {
        gint64 od = o / (g.out[1] * g.out[2]), oh = (o / g.out[2]) % g.out[1], ow = o % g.out[2];
        double best = -INFINITY;
        gint64 at = -1;
        for (gint64 kd = 0; kd < g.k[0]; kd++)
          for (gint64 kh = 0; kh < g.k[1]; kh++)
            for (gint64 kw = 0; kw < g.k[2] && !(at >= 0 && isnan (best)); kw++)
              {
                gint64 d = od * g.stride[0] - g.pad[0] + kd * g.dil[0], h = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
                gint64 w = ow * g.stride[2] - g.pad[2] + kw * g.dil[2], flat;
                double v;
                if (d < 0 || d >= g.in[0] || h < 0 || h >= g.in[1] || w < 0 || w >= g.in[2])
                  continue;
                flat = (d * g.in[1] + h) * g.in[2] + w;
                v = x[p * plane_in + flat];
                /* the first maximum wins; a NaN wins and stops the window */
                if (at < 0 || v > best || isnan (v))
                  best = v, at = flat;
              }
        y[p * plane_out + o] = best;
        idx[p * plane_out + o] = at;
      }
  values = wb_tensor_to_dtype (acc, a->dtype, error);
  wb_tensor_unref (acc);
  if (values == NULL)
    return FALSE;
  typed = wb_tensor_to_dtype (indices, a->dtype, error);
  if (typed == NULL)
    {
      wb_tensor_unref (values);
      return FALSE;
    }
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (values));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (typed));
  call->result = tuple;
  return TRUE;
}

/* max_pool{2,3}d_with_indices_backward (grad, a, kernel_size, stride, padding, dilation, ceil_mode, indices)
 * over the trailing @f dims: each output's gradient goes to the input element its index names. */
static gboolean
op_max_pool_backward (WbKernelCall *call, guint f, GError **error)
{
  WbTensor *go, *a, *indices;
  g_autoptr (WbTensor) g64 = NULL;
  g_autoptr (WbTensor) i64 = NULL;
  WbTensor *acc;
  gint64    planes, plane_in, plane_out;

  if (!_wb_cpu_arg_tensor (call, 0, "grad", &go, error) || !_wb_cpu_arg_tensor (call, 1, "a", &a, error) ||
      !_wb_cpu_arg_tensor (call, 7, "result1", &indices, error))
    return FALSE;
  if (go->rank != a->rank || indices->rank != a->rank || a->rank < f + 1 || wb_tensor_numel (go) != wb_tensor_numel (indices))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "max_pool backward: gradient, input and indices do not match");
      return FALSE;
    }
  planes = _wb_cpu_numel (a->rank - f, a->shape);
  plane_in = _wb_cpu_numel (f, a->shape + a->rank - f);
  plane_out = _wb_cpu_numel (f, go->shape + go->rank - f);
  if ((g64 = _wb_cpu_to_f64 (go, error)) == NULL || (i64 = _wb_cpu_to_i64 (indices, error)) == NULL ||
      (acc = wb_tensor_new_zeros (WB_DTYPE_FLOAT64, a->rank, a->shape, error)) == NULL)
    return FALSE;
  for (gint64 p = 0; p < planes; p++)
    for (gint64 o = 0; o < plane_out; o++)
      {
        gint64 at = ((const gint64 *) wb_tensor_get_data (i64))[p * plane_out + o];
        if (at < 0 || at >= plane_in)
          {
            wb_tensor_unref (acc);
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "max_pool backward: index %" G_GINT64_FORMAT " is outside the input plane", at);
            return FALSE;
          }
        ((double *) wb_tensor_get_data (acc))[p * plane_in + at] += ((const double *) wb_tensor_get_data (g64))[p * plane_out + o];
      }
  return finish (call, acc, go->dtype, error);
}

gboolean
_wb_cpu_pool (WbKernelCall *call, int op, GError **error)
{
  switch (op)
    {
    case WB_POOL_ADAPTIVE_AVG_2D:
      return op_adaptive_avg (call, 2, error);
    case WB_POOL_ADAPTIVE_AVG_3D:
      return op_adaptive_avg (call, 3, error);
    case WB_POOL_ADAPTIVE_AVG_BACKWARD:
      return op_adaptive_avg_backward (call, error);
    case WB_POOL_MAX_2D_WITH_INDICES:
      return op_max_pool_with_indices (call, 2, error);
    case WB_POOL_MAX_3D_WITH_INDICES:
      return op_max_pool_with_indices (call, 3, error);
    case WB_POOL_MAX_2D_BACKWARD:
      return op_max_pool_backward (call, 2, error);
    case WB_POOL_MAX_3D_BACKWARD:
      return op_max_pool_backward (call, 3, error);
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}
