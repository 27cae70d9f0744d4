/* wb-cuda-kernels-pool.c — pooling on the GPU: max pooling with indices and its backward, adaptive average
 * pooling and its backward (wb-cuda-kernels-private.h; kernels in wb-cuda-kernels-pool.cuh)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Arguments are read and checked as the cpu executor reads them (executors/cpu/wb-cpu-pool.c): a form it
 * would refuse is WB_CUDA_ERROR_CALL here, so the call runs on the cpu and fails there with the cpu's words.
 * Float dtypes only (f64, f32, bf16, f16); inputs of other strides are made contiguous first. */
#include "config.h"

#include <string.h>

#include "wb-cuda-kernels-pool-text.h"
#include "wb-cuda-kernels-private.h"

/* WbPoolGeom of the kernels (the same layout): the spatial dims padded to 3 with leading dims of 1 */
typedef struct
{
  gint64 planes, in[3], out[3], k[3], stride[3], pad[3], dil[3];
} PoolGeom;

const char *
_wb_cuda_kernels_pool_source (void)
{
  return wb_cuda_kernels_pool_text;
}

static gboolean
launch (WbCudaRuntime *rt, const char *kernel, WbDtype dt, gint64 items, void **args, const char *what, GError **error)
{
  return items == 0 || _wb_cuda_kern_launch (rt, wb_cuda_kernels_pool_text, kernel, dt, _wb_cuda_kern_blocks (items), args, what, error);
}

static gint64
plane (const gint64 n[3])
{
  return n[0] * n[1] * n[2];
}

static gboolean
float_dtype (const WbKernelCall *call, WbDtype dt, GError **error)
{
  if (dt == WB_DTYPE_FLOAT64 || dt == WB_DTYPE_FLOAT32 || dt == WB_DTYPE_BFLOAT16 || dt == WB_DTYPE_FLOAT16)
    return TRUE;
  return _wb_cuda_kern_unsupported (error, "%s: dtype %s is not supported (f64, f32, bf16, f16)", call->bsym->name, wb_dtype_shortname (dt));
}

/* @a's planes (every dim but the last @f) and its spatial dims; every other field 1 */
static gboolean
geom_init (PoolGeom *g, const WbKernelCall *call, const WbTensor *a, guint f, GError **error)
{
  memset (g, 0, sizeof *g);
  if (f < 1 || f > 3 || a->rank < f + 1)
    return _wb_cuda_kern_unsupported (error, "%s: pooling needs %u spatial dims and a channel dim, got rank %u", call->bsym->name, f, a->rank);
  g->planes = 1;
  for (guint d = 0; d < a->rank - f; d++)
    g->planes *= a->shape[d];
  for (guint i = 0; i < 3; i++)
    g->in[i] = g->out[i] = g->k[i] = g->stride[i] = g->dil[i] = 1;
  for (guint i = 0; i < f; i++)
    g->in[3 - f + i] = a->shape[a->rank - f + i];
  return TRUE;
}

/* Argument @pos as @f per-dim values (an int, or a sequence of 1 or @f ints) into the last @f of @out[3];
 * missing, None or an empty sequence keeps @out. */
static gboolean
per_dim (WbKernelCall *call, guint pos, const char *name, guint f, gint64 *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);
  gint64     vals[3];
  guint      n = 0;

  if (v == NULL || v->kind == WB_RT_NONE)
    return TRUE;
  if (v->kind == WB_RT_INT || v->kind == WB_RT_BOOL)
    vals[n++] = v->kind == WB_RT_BOOL ? v->b : v->i;
  else if (wb_rt_value_is_sequence (v) && v->items->len <= 3)
    for (guint i = 0; i < v->items->len; i++)
      {
        WbRtValue *x = v->items->pdata[i];
        if (x->kind != WB_RT_INT && x->kind != WB_RT_BOOL)
          return _wb_cuda_kern_unsupported (error, "%s: %s is not a sequence of ints", call->bsym->name, name);
        vals[n++] = x->kind == WB_RT_BOOL ? x->b : x->i;
      }
  else
    return _wb_cuda_kern_unsupported (error, "%s: %s is not a sequence of ints", call->bsym->name, name);
  if (n == 0)
    return TRUE;
  if (n != 1 && n != f)
    return _wb_cuda_kern_unsupported (error, "%s: %s: expected 1 or %u values, got %u", call->bsym->name, name, f, n);
  for (guint i = 0; i < f; i++)
    out[3 - f + i] = vals[n == 1 ? 0 : i];
  return TRUE;
}

/* (transfer full) a contiguous device tensor of @a's shape with the spatial dims of @g's output */
static WbTensor *
pooled_like (WbCudaRuntime *rt, const WbTensor *a, const PoolGeom *g, guint f, GError **error)
{
  gint64 shape[WB_MAX_RANK];

  memcpy (shape, a->shape, sizeof (gint64) * a->rank);
  for (guint i = 0; i < f; i++)
    shape[a->rank - f + i] = g->out[3 - f + i];
  return wb_cuda_tensor_new (rt, a->dtype, a->rank, shape, error);
}

/* -- max pooling with indices ------------------------------------------------------------------- */

/* kernel_size (@at), stride (@at + 1, default: the kernel), padding, dilation, ceil_mode (@at + 4) over @a: the
 * forward's arguments follow its input (@at 1), the backward's its gradient and input (@at 2) */
static gboolean
max_geom (WbKernelCall *call, const WbTensor *a, guint f, guint at, PoolGeom *g, GError **error)
{
  gint64 ceil_mode = 0;

  if (!geom_init (g, call, a, f, error))
    return FALSE;
  if (!per_dim (call, at, "kernel_size", f, g->k, error))
    return FALSE;
  memcpy (g->stride, g->k, sizeof g->stride);
  if (!per_dim (call, at + 1, "stride", f, g->stride, error) || !per_dim (call, at + 2, "padding", f, g->pad, error) ||
      !per_dim (call, at + 3, "dilation", f, g->dil, error) ||
      !_wb_cuda_kern_arg_int (call, at + 4, "ceil_mode", TRUE, FALSE, &ceil_mode, error))
    return FALSE;
  for (guint i = 0; i < 3; i++)
    {
      if (g->k[i] < 1 || g->stride[i] < 1 || g->dil[i] < 1 || g->pad[i] < 0 || g->pad[i] * 2 > g->k[i])
        return _wb_cuda_kern_unsupported (error, "%s: invalid kernel, stride, padding or dilation", call->bsym->name);
      g->out[i] = wb_pool_output_size (g->in[i], g->k[i], g->pad[i], g->stride[i], g->dil[i], ceil_mode != 0);
      if (g->out[i] < 0)
        return _wb_cuda_kern_unsupported (error, "%s: the window is larger than the padded input", call->bsym->name);
    }
  return TRUE;
}

gboolean
_wb_cuda_kernels_max_pool (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) ac = NULL;
  WbTensor        *vals = NULL, *idx = NULL;
  PoolGeom         g;
  WbRtValue       *tuple;
  g_autofree char *what = NULL;

  if ((a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL || !float_dtype (call, a->dtype, error) ||
      !max_geom (call, a, f, 1, &g, error))
    return FALSE;
  if (plane (g.in) > wb_dtype_exact_integers (a->dtype))
    return _wb_cuda_kern_unsupported (error,
                                      "%s: %s cannot count the %" G_GINT64_FORMAT " positions of a plane exactly (Thunder types the indices like the input)",
                                      call->bsym->name, wb_dtype_shortname (a->dtype), plane (g.in));
  if ((ac = wb_cuda_contiguous (rt, a, error)) == NULL || (vals = pooled_like (rt, a, &g, f, error)) == NULL)
    return FALSE;
  if ((idx = pooled_like (rt, a, &g, f, error)) == NULL)
    {
      wb_tensor_unref (vals);
      return FALSE;
    }
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " planes of %" G_GINT64_FORMAT "]", call->bsym->name, wb_dtype_shortname (a->dtype), g.planes,
                          plane (g.in));
  {
    CUdeviceptr pa = wb_cuda_tensor_ptr (ac), pv = wb_cuda_tensor_ptr (vals), pi = wb_cuda_tensor_ptr (idx);
    void       *args[] = { &pa, &pv, &pi, &g };
    if (!launch (rt, "wb_max_pool", a->dtype, g.planes * plane (g.out), args, what, error))
      {
        wb_tensor_unref (vals);
        wb_tensor_unref (idx);
        return FALSE;
      }
  }
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (vals));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (idx));
  call->result = tuple;
  return TRUE;
}

/* Whether the trailing @f dims of @t are @g's outputs, and its leading dims hold @g's planes */
static gboolean
is_pooled (const WbTensor *t, const PoolGeom *g, guint f)
{
  for (guint i = 0; i < f; i++)
    if (t->shape[t->rank - f + i] != g->out[3 - f + i])
      return FALSE;
  return wb_tensor_numel (t) == g->planes * plane (g->out);
}

gboolean
_wb_cuda_kernels_max_pool_backward (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error)
{
  g_autoptr (WbTensor) go = NULL;
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) indices = NULL;
  g_autoptr (WbTensor) gc = NULL;
  g_autoptr (WbTensor) i64 = NULL;
  WbTensor        *gin;
  PoolGeom         g;
  g_autofree char *what = NULL;

  if ((go = _wb_cuda_kern_arg_device (rt, call, 0, "grad", FALSE, error)) == NULL ||
      (a = _wb_cuda_kern_arg_device (rt, call, 1, "a", FALSE, error)) == NULL ||
      (indices = _wb_cuda_kern_arg_device (rt, call, 7, "result1", FALSE, error)) == NULL || !float_dtype (call, go->dtype, error))
    return FALSE;
  if (go->rank != a->rank || indices->rank != a->rank)
    return _wb_cuda_kern_unsupported (error, "%s: gradient, input and indices do not match", call->bsym->name);
  if (!max_geom (call, a, f, 2, &g, error))
    return FALSE;
  if (!is_pooled (go, &g, f) || !is_pooled (indices, &g, f))
    return _wb_cuda_kern_unsupported (error, "%s: the gradient or the indices are not the pooling of the input", call->bsym->name);
  if (wb_dtype_is_complex (indices->dtype) || indices->dtype == WB_DTYPE_BOOL8)
    return _wb_cuda_kern_unsupported (error, "%s: indices of dtype %s", call->bsym->name, wb_dtype_shortname (indices->dtype));
  if ((gc = wb_cuda_contiguous (rt, go, error)) == NULL || (i64 = _wb_cuda_kern_device_as (rt, indices, WB_DTYPE_INT64, error)) == NULL)
    return FALSE;
  if ((gin = wb_cuda_tensor_new (rt, go->dtype, a->rank, a->shape, error)) == NULL)
    return FALSE;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " planes of %" G_GINT64_FORMAT "]", call->bsym->name, wb_dtype_shortname (go->dtype), g.planes,
                          plane (g.in));
  {
    CUdeviceptr      pg = wb_cuda_tensor_ptr (gc), pi = wb_cuda_tensor_ptr (i64), px = wb_cuda_tensor_ptr (gin);
    void            *check[] = { &pi, &g };
    void            *args[] = { &pg, &pi, &px, &g };
    g_autofree char *check_what = g_strdup_printf ("%s: its indices, each inside its window", what);
    /* the gather below finds an index only in its own window: the checked run tests that they are */
    if ((wb_cuda_runtime_get_sync (rt) && !launch (rt, "wb_max_pool_check", WB_DTYPE_UNKNOWN, g.planes * plane (g.out), check, check_what, error)) ||
        !launch (rt, "wb_max_pool_backward", go->dtype, g.planes * plane (g.in), args, what, error))
      {
        wb_tensor_unref (gin);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, gin);
}

/* -- adaptive average pooling ------------------------------------------------------------------- */

gboolean
_wb_cuda_kernels_adaptive_avg (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) ac = NULL;
  WbTensor        *out;
  PoolGeom         g;
  g_autofree char *what = NULL;

  if ((a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL || !float_dtype (call, a->dtype, error) ||
      !geom_init (&g, call, a, f, error))
    return FALSE;
  memcpy (g.out, g.in, sizeof g.out);
  if (!per_dim (call, 1, "output_size", f, g.out, error))
    return FALSE;
  for (guint i = 0; i < 3; i++)
    if (g.out[i] < 0)
      return _wb_cuda_kern_unsupported (error, "%s: output_size %" G_GINT64_FORMAT " is negative", call->bsym->name, g.out[i]);
  if ((ac = wb_cuda_contiguous (rt, a, error)) == NULL || (out = pooled_like (rt, a, &g, f, error)) == NULL)
    return FALSE;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " planes of %" G_GINT64_FORMAT "]", call->bsym->name, wb_dtype_shortname (a->dtype), g.planes,
                          plane (g.in));
  {
    CUdeviceptr pa = wb_cuda_tensor_ptr (ac), po = wb_cuda_tensor_ptr (out);
    void       *args[] = { &pa, &po, &g };
    if (!launch (rt, "wb_adaptive_avg", a->dtype, g.planes * plane (g.out), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, out);
}

gboolean
_wb_cuda_kernels_adaptive_avg_backward (WbCudaRuntime *rt, WbKernelCall *call, guint f, GError **error)
{
  g_autoptr (WbTensor) go = NULL;
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) gc = NULL;
  WbTensor        *gin;
  PoolGeom         g;
  g_autofree char *what = NULL;

  if ((go = _wb_cuda_kern_arg_device (rt, call, 0, "g", FALSE, error)) == NULL || (a = _wb_cuda_kern_arg_device (rt, call, 1, "a", FALSE, error)) == NULL ||
      !float_dtype (call, a->dtype, error))
    return FALSE;
  if (go->rank != a->rank || go->dtype != a->dtype)
    return _wb_cuda_kern_unsupported (error, "%s: gradient %s of rank %u, input %s of rank %u", call->bsym->name, wb_dtype_shortname (go->dtype), go->rank,
                                      wb_dtype_shortname (a->dtype), a->rank);
  if (!geom_init (&g, call, a, f, error))
    return FALSE;
  for (guint i = 0; i < f; i++)
    g.out[3 - f + i] = go->shape[go->rank - f + i];
  if (!is_pooled (go, &g, f))
    return _wb_cuda_kern_unsupported (error, "%s: the gradient's leading dims are not the input's", call->bsym->name);
  if ((gc = wb_cuda_contiguous (rt, go, error)) == NULL || (gin = wb_cuda_tensor_new (rt, a->dtype, a->rank, a->shape, error)) == NULL)
    return FALSE;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " planes of %" G_GINT64_FORMAT "]", call->bsym->name, wb_dtype_shortname (a->dtype), g.planes,
                          plane (g.in));
  {
    CUdeviceptr pg = wb_cuda_tensor_ptr (gc), px = wb_cuda_tensor_ptr (gin);
    void       *args[] = { &pg, &px, &g };
    if (!launch (rt, "wb_adaptive_avg_backward", a->dtype, g.planes * plane (g.in), args, what, error))
      {
        wb_tensor_unref (gin);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, gin);
}
