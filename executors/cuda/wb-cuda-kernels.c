/* wb-cuda-kernels.c — the hand-written kernels' op table and dispatch, the helpers their files share
 * (wb-cuda-kernels-private.h), random draws, topk/sort, argmax/argmin, nll_loss_backward (wb-cuda-kernels.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cuda-kernels-private.h"
#include "wb-cuda-kernels-text.h"

#define SORT_SMALL 2048 /* WB_SORT_SMALL of the kernels */

typedef enum
{
  OP_NONE = 0,
  OP_UNIFORM,
  OP_UNIFORM_PHILOX,
  OP_RANDN,
  OP_RANDINT,
  OP_TOPK,
  OP_SORT,
  OP_ARGMAX,
  OP_ARGMIN,
  OP_NLL_LOSS_BACKWARD,
  OP_UPDATE_ALIASES,
  OP_MAX_POOL2D,
  OP_MAX_POOL3D,
  OP_MAX_POOL2D_BACKWARD,
  OP_MAX_POOL3D_BACKWARD,
  OP_ADAPTIVE_AVG_POOL2D,
  OP_ADAPTIVE_AVG_POOL3D,
  OP_ADAPTIVE_AVG_POOL2D_BACKWARD,
  OP_INDEX_ADD,
  OP_SCATTER_ADD,
  OP_EMBEDDING,
  OP_EMBEDDING_BACKWARD,
  OP_CUMSUM,
  OP_KL_DIV,
  OP_KL_DIV_VJP,
  OP_DETACH,
  OP_COPY_WITH_SETITEM,
} Op;

static const struct
{
  const char *name;
  Op          op;
} ops[] = {
  { "prims.uniform", OP_UNIFORM },
  { "prims.uniform_philox", OP_UNIFORM_PHILOX },
  { "prims.randn", OP_RANDN },
  { "prims.randint", OP_RANDINT },
  { "prims.topk", OP_TOPK },
  { "prims.sort", OP_SORT },
  { "prims.argmax", OP_ARGMAX },
  { "prims.argmin", OP_ARGMIN },
  { "ltorch.nll_loss_backward", OP_NLL_LOSS_BACKWARD },
  { "prims.update_aliases", OP_UPDATE_ALIASES },
  /* wb-cuda-kernels-pool.c */
  { "max_pool2d_with_indices", OP_MAX_POOL2D },
  { "max_pool3d_with_indices", OP_MAX_POOL3D },
  { "max_pool2d_with_indices_backward", OP_MAX_POOL2D_BACKWARD },
  { "max_pool3d_with_indices_backward", OP_MAX_POOL3D_BACKWARD },
  { "ltorch.adaptive_avg_pool2d", OP_ADAPTIVE_AVG_POOL2D },
  { "ltorch.adaptive_avg_pool3d", OP_ADAPTIVE_AVG_POOL3D },
  { "ltorch.adaptive_avg_pool2d_backward", OP_ADAPTIVE_AVG_POOL2D_BACKWARD },
  /* wb-cuda-kernels-index.c */
  { "prims.index_add", OP_INDEX_ADD },
  { "prims.scatter_add", OP_SCATTER_ADD },
  { "prims.embedding", OP_EMBEDDING },
  { "prims.embedding_backward", OP_EMBEDDING_BACKWARD },
  { "ltorch.cumsum", OP_CUMSUM },
  { "ltorch.kl_div", OP_KL_DIV },
  { "kl_div_vjp", OP_KL_DIV_VJP },
  { "ltorch.detach", OP_DETACH },
  { "prims.copy_with_setitem", OP_COPY_WITH_SETITEM },
};

/* The op @b stands for: its own symbol or the one an executor's alias names (uniform -> prims.uniform). */
static Op
op_of (const WbBsym *b)
{
  const WbSymbol *s = b->symbol;

  if (b->kind != WB_BSYM_CALL || s == NULL)
    return OP_NONE;
  if (wb_symbol_get_like (s) != NULL)
    s = wb_symbol_get_like (s);
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strcmp (wb_symbol_get_name (s), ops[i].name) == 0)
      return ops[i].op;
  return OP_NONE;
}

gboolean
wb_cuda_kernels_takes (const WbBsym *bsym)
{
  g_return_val_if_fail (bsym != NULL, FALSE);
  return bsym->n_subsymbols == 0 && op_of (bsym) != OP_NONE;
}

const char *
wb_cuda_kernels_source (guint unit)
{
  switch (unit)
    {
    case 0:
      return wb_cuda_kernels_text;
    case 1:
      return _wb_cuda_kernels_pool_source ();
    case 2:
      return _wb_cuda_kernels_index_source ();
    default:
      return NULL;
    }
}

/* -- arguments ---------------------------------------------------------------------------------- */

gboolean
_wb_cuda_kern_unsupported (GError **error, const char *format, ...)
{
  va_list ap;
  char   *msg;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, msg);
  g_free (msg);
  return FALSE;
}

gboolean
_wb_cuda_kern_arg_int (WbKernelCall *call, guint pos, const char *name, gboolean optional, gint64 def, gint64 *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v == NULL || v->kind == WB_RT_NONE)
    {
      *out = def;
      return optional || _wb_cuda_kern_unsupported (error, "%s: argument %s is missing", call->bsym->name, name);
    }
  if (v->kind == WB_RT_INT || v->kind == WB_RT_BOOL)
    {
      *out = v->kind == WB_RT_BOOL ? v->b : v->i;
      return TRUE;
    }
  return _wb_cuda_kern_unsupported (error, "%s: argument %s is not an int", call->bsym->name, name);
}

static gboolean
arg_number (WbKernelCall *call, guint pos, const char *name, double *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v != NULL && v->kind != WB_RT_TENSOR && wb_rt_value_get_number (v, out))
    return TRUE;
  return _wb_cuda_kern_unsupported (error, "%s: argument %s is not a number", call->bsym->name, name);
}

static gboolean
arg_shape (WbKernelCall *call, guint pos, const char *name, guint *rank, gint64 *shape, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v == NULL || !wb_rt_value_is_sequence (v) || v->items->len > WB_MAX_RANK)
    return _wb_cuda_kern_unsupported (error, "%s: %s is not a shape", call->bsym->name, name);
  *rank = v->items->len;
  for (guint d = 0; d < *rank; d++)
    {
      WbRtValue *x = v->items->pdata[d];
      if (x->kind != WB_RT_INT || x->i < 0)
        return _wb_cuda_kern_unsupported (error, "%s: %s is not a shape", call->bsym->name, name);
      shape[d] = x->i;
    }
  return TRUE;
}

static WbDtype
arg_dtype (WbKernelCall *call, WbDtype def)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, G_MAXUINT, "dtype");

  return v != NULL && v->kind == WB_RT_DTYPE ? v->dtype : def;
}

WbTensor *
_wb_cuda_kern_arg_device (WbCudaRuntime *rt, WbKernelCall *call, guint pos, const char *name, gboolean optional, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v == NULL || v->kind != WB_RT_TENSOR)
    {
      if (!optional || (v != NULL && v->kind != WB_RT_NONE))
        _wb_cuda_kern_unsupported (error, "%s: argument %s is not a tensor", call->bsym->name, name);
      return NULL;
    }
  return wb_cuda_tensor_is_device (v->tensor) ? wb_tensor_ref (v->tensor) : wb_cuda_upload (rt, v->tensor, error);
}

WbTensor *
_wb_cuda_kern_device_as (WbCudaRuntime *rt, WbTensor *t, WbDtype dtype, GError **error)
{
  WbTensor *out;

  if (t->dtype == dtype)
    return wb_cuda_contiguous (rt, t, error);
  if ((out = wb_cuda_tensor_new (rt, dtype, t->rank, t->shape, error)) == NULL)
    return NULL;
  if (!wb_cuda_copy_into (rt, out, t, error))
    g_clear_pointer (&out, wb_tensor_unref);
  return out;
}

const char *
_wb_cuda_kern_suffix (WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_FLOAT64:
      return "f64";
    case WB_DTYPE_FLOAT32:
      return "f32";
    case WB_DTYPE_BFLOAT16:
      return "bf16";
    case WB_DTYPE_FLOAT16:
      return "f16";
    case WB_DTYPE_INT64:
      return "i64";
    case WB_DTYPE_INT32:
      return "i32";
    case WB_DTYPE_INT16:
      return "i16";
    case WB_DTYPE_INT8:
      return "i8";
    case WB_DTYPE_UINT8:
      return "u8";
    case WB_DTYPE_BOOL8:
      return "b8";
    default:
      return NULL;
    }
}

gboolean
_wb_cuda_kern_launch (WbCudaRuntime *rt, const char *source, const char *kernel, WbDtype dt, gint64 blocks, void **args, const char *what, GError **error)
{
  g_autofree char *entry = NULL;
  CUfunction       fn;

  if (dt != WB_DTYPE_UNKNOWN && _wb_cuda_kern_suffix (dt) == NULL)
    return _wb_cuda_kern_unsupported (error, "%s: dtype %s is not supported", what, wb_dtype_shortname (dt));
  entry = dt == WB_DTYPE_UNKNOWN ? g_strdup (kernel) : g_strdup_printf ("%s_%s", kernel, _wb_cuda_kern_suffix (dt));
  if ((fn = wb_cuda_runtime_get_static_function (rt, source, entry, error)) == NULL)
    return FALSE;
  return wb_cuda_runtime_launch (rt, fn, (guint) CLAMP (blocks, 0, WB_CUDA_KERN_MAX_GRID), args, what, error);
}

/* a kernel of this file's unit */
static gboolean
launch (WbCudaRuntime *rt, const char *kernel, WbDtype dt, gint64 blocks, void **args, const char *what, GError **error)
{
  return _wb_cuda_kern_launch (rt, wb_cuda_kernels_text, kernel, dt, blocks, args, what, error);
}

gint64
_wb_cuda_kern_blocks (gint64 n)
{
  return (n + WB_CUDA_BLOCK - 1) / WB_CUDA_BLOCK;
}

gboolean
_wb_cuda_kern_set_tensor (WbKernelCall *call, WbTensor *t)
{
  call->result = wb_rt_value_take_tensor (t);
  return TRUE;
}

/* -- random draws --------------------------------------------------------------------------------- */

static gboolean
run_random (WbCudaRuntime *rt, WbKernelCall *call, Op op, GError **error)
{
  gint64      shape[WB_MAX_RANK], n, low = 0, high = 0, seed, offset;
  guint       rank = 0, shape_pos = op == OP_RANDINT ? 2 : 0;
  double      lo = 0, hi = 0;
  WbDtype     dt = arg_dtype (call, op == OP_RANDINT ? WB_DTYPE_INT64 : WB_DTYPE_FLOAT32);
  guint64     blocks;
  WbTensor   *out;
  CUdeviceptr p;
  const char *kernel = op == OP_RANDN ? "wb_randn" : op == OP_RANDINT ? "wb_randint"
                                                                      : "wb_uniform";

  /* a CUDA graph replays the seed and offset of its capture, and so does every run launched call by call: a
   * program's run starts its offset at 0 (wb_program_run), so each iteration draws the same numbers either way */
  if (!arg_shape (call, shape_pos, "shape", &rank, shape, error))
    return FALSE;
  if (op == OP_UNIFORM || op == OP_UNIFORM_PHILOX)
    if (!arg_number (call, 1, "minval", &lo, error) || !arg_number (call, 2, "maxval", &hi, error))
      return FALSE;
  if (op == OP_RANDINT)
    {
      if (!_wb_cuda_kern_arg_int (call, 0, "low", FALSE, 0, &low, error) || !_wb_cuda_kern_arg_int (call, 1, "high", FALSE, 0, &high, error))
        return FALSE;
      if (high <= low)
        return _wb_cuda_kern_unsupported (error, "%s: high <= low", call->bsym->name);
    }
  else if (!wb_dtype_is_float (dt))
    return _wb_cuda_kern_unsupported (error, "%s: dtype %s is not a float", call->bsym->name, wb_dtype_shortname (dt));
  seed = (gint64) call->state->rng_seed;
  offset = (gint64) call->state->rng_offset;
  if (op == OP_UNIFORM_PHILOX &&
      (!_wb_cuda_kern_arg_int (call, G_MAXUINT, "seed", FALSE, 0, &seed, error) || !_wb_cuda_kern_arg_int (call, G_MAXUINT, "offset", FALSE, 0, &offset, error)))
    return FALSE;
  if ((out = wb_cuda_tensor_new (rt, dt, rank, shape, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (out);
  p = wb_cuda_tensor_ptr (out);
  {
    guint64          useed = (guint64) seed, uoff = (guint64) offset, range = (guint64) (high - low);
    void            *uniform_args[] = { &p, &n, &useed, &uoff, &lo, &hi };
    void            *randn_args[] = { &p, &n, &useed, &uoff };
    void            *randint_args[] = { &p, &n, &useed, &uoff, &low, &range };
    void           **args = op == OP_RANDN ? randn_args : op == OP_RANDINT ? randint_args
                                                                           : uniform_args;
    g_autofree char *what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " elements]", call->bsym->name, wb_dtype_shortname (dt), n);
    /* threads: one per Philox block (4 words) for 32-bit uniform draws, else one per pair */
    gint64 items = (op == OP_UNIFORM || op == OP_UNIFORM_PHILOX) && dt != WB_DTYPE_FLOAT64 ? (n + 3) / 4 : (n + 1) / 2;
    if (n > 0 && !launch (rt, kernel, dt, _wb_cuda_kern_blocks (items), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  /* the blocks the cpu executor consumes for the same draw */
  if (op == OP_RANDINT)
    blocks = (guint64) (2 * n + 3) / 4;
  else if (op == OP_RANDN || dt == WB_DTYPE_FLOAT64)
    blocks = (guint64) (n + 1) / 2;
  else
    blocks = (guint64) (n + 3) / 4;
  if (op != OP_UNIFORM_PHILOX)
    call->state->rng_offset += blocks;
  return _wb_cuda_kern_set_tensor (call, out);
}

/* -- topk, sort ----------------------------------------------------------------------------------- */

gboolean
_wb_cuda_kern_sort (WbCudaRuntime *rt, WbTensor *a, gint64 outer, gint64 n, gint64 inner, gint64 k, gboolean desc, WbTensor *vals, WbTensor *inds, const char *what, GError **error)
{
  CUdeviceptr pa = wb_cuda_tensor_ptr (a), pv = wb_cuda_tensor_ptr (vals), pi = wb_cuda_tensor_ptr (inds);
  int         P = 1, ni = (int) n, ki = (int) k, desc_i = desc != 0;

  if (n >= G_MAXINT / 2)
    return _wb_cuda_kern_unsupported (error, "%s: a dim of %" G_GINT64_FORMAT " elements is too long to sort", what, n);
  if (outer * inner * k == 0)
    return TRUE;
  while (P < n)
    P *= 2;
  if (P <= SORT_SMALL)
    {
      void *args[] = { &pa, &pv, &pi, &outer, &ni, &inner, &ki, &P, &desc_i };
      return launch (rt, "wb_sort_small", a->dtype, outer * inner, args, what, error);
    }
  {
    /* scratch pairs: keys in the dtype's class, int indices */
    gint64      rows = outer * inner, total = rows * P;
    WbDtype     kdt = a->dtype == WB_DTYPE_FLOAT64 ? WB_DTYPE_FLOAT64 : wb_dtype_is_float (a->dtype) ? WB_DTYPE_FLOAT32
                                                                                                     : WB_DTYPE_INT64;
    const char *step = kdt == WB_DTYPE_FLOAT64 ? "wb_sort_step_d" : kdt == WB_DTYPE_FLOAT32 ? "wb_sort_step_f"
                                                                                            : "wb_sort_step_i";
    g_autoptr (WbTensor) keys = wb_cuda_tensor_new (rt, kdt, 1, &total, error);
    g_autoptr (WbTensor) idx = keys ? wb_cuda_tensor_new (rt, WB_DTYPE_INT32, 1, &total, error) : NULL;
    CUdeviceptr pk, px;
    if (idx == NULL)
      return FALSE;
    pk = wb_cuda_tensor_ptr (keys), px = wb_cuda_tensor_ptr (idx);
    {
      void *args[] = { &pa, &pk, &px, &outer, &ni, &inner, &P };
      if (!launch (rt, "wb_sort_init", a->dtype, _wb_cuda_kern_blocks (total), args, what, error))
        return FALSE;
    }
    for (int kk = 2; kk <= P; kk <<= 1)
      for (int st = kk >> 1; st > 0; st >>= 1)
        {
          void *args[] = { &pk, &px, &rows, &P, &kk, &st, &desc_i };
          if (!launch (rt, step, WB_DTYPE_UNKNOWN, _wb_cuda_kern_blocks (total), args, what, error))
            return FALSE;
        }
    {
      void *args[] = { &pk, &px, &pv, &pi, &outer, &inner, &ki, &P };
      return launch (rt, "wb_sort_write", a->dtype, _wb_cuda_kern_blocks (rows * k), args, what, error);
    }
  }
}

static gboolean
run_sort (WbCudaRuntime *rt, WbKernelCall *call, Op op, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) ac = NULL;
  gint64           k = 0, dim = -1, desc = 0, outer = 1, inner = 1, n, shape[WB_MAX_RANK];
  WbTensor        *vals = NULL, *inds = NULL;
  WbRtValue       *tuple;
  g_autofree char *what = NULL;

  if ((a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL)
    return FALSE;
  if (op == OP_TOPK)
    {
      if (!_wb_cuda_kern_arg_int (call, 1, "k", FALSE, 0, &k, error) || !_wb_cuda_kern_arg_int (call, 2, "dim", TRUE, -1, &dim, error) ||
          !_wb_cuda_kern_arg_int (call, 3, "largest", TRUE, TRUE, &desc, error))
        return FALSE;
    }
  else if (!_wb_cuda_kern_arg_int (call, 1, "dim", TRUE, -1, &dim, error) || !_wb_cuda_kern_arg_int (call, 2, "descending", TRUE, FALSE, &desc, error))
    return FALSE;
  if (a->rank == 0)
    dim = 0, n = 1;
  else
    {
      if (dim < 0)
        dim += a->rank;
      if (dim < 0 || dim >= a->rank)
        return _wb_cuda_kern_unsupported (error, "%s: dim %" G_GINT64_FORMAT " is out of range", call->bsym->name, dim);
      n = a->shape[dim];
      for (gint64 d = 0; d < a->rank; d++)
        if (d < dim)
          outer *= a->shape[d];
        else if (d > dim)
          inner *= a->shape[d];
    }
  if (op == OP_SORT)
    k = n;
  if (k < 0 || k > n)
    return _wb_cuda_kern_unsupported (error, "%s: k = %" G_GINT64_FORMAT " is out of range for a dim of %" G_GINT64_FORMAT, call->bsym->name, k, n);
  if ((ac = wb_cuda_contiguous (rt, a, error)) == NULL)
    return FALSE;
  memcpy (shape, a->shape, sizeof shape);
  if (a->rank > 0)
    shape[dim] = k;
  if ((vals = wb_cuda_tensor_new (rt, a->dtype, a->rank, shape, error)) == NULL ||
      (inds = wb_cuda_tensor_new (rt, WB_DTYPE_INT64, a->rank, shape, error)) == NULL)
    goto fail;
  what = g_strdup_printf ("%s of %" G_GINT64_FORMAT " rows of %" G_GINT64_FORMAT " %s, k %" G_GINT64_FORMAT, call->bsym->name, outer * inner, n,
                          wb_dtype_shortname (a->dtype), k);
  if (!_wb_cuda_kern_sort (rt, ac, outer, n, inner, k, desc != 0, vals, inds, what, error))
    goto fail;
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (vals));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (inds));
  call->result = tuple;
  return TRUE;

fail:
  g_clear_pointer (&vals, wb_tensor_unref);
  g_clear_pointer (&inds, wb_tensor_unref);
  return FALSE;
}

/* -- argmax, argmin ------------------------------------------------------------------------------- */

static gboolean
run_argbest (WbCudaRuntime *rt, WbKernelCall *call, Op op, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) ac = NULL;
  WbRtValue *dv = wb_kernel_call_get_arg (call, 1, "dim");
  gint64     outer = 1, inner = 1, n, shape[WB_MAX_RANK];
  guint      rank = 0;
  int        is_max = op == OP_ARGMAX;
  WbTensor  *out;

  if ((a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL)
    return FALSE;
  if (dv == NULL || dv->kind == WB_RT_NONE)
    n = wb_tensor_numel (a); /* over every element: a 0-d result */
  else
    {
      gint64 dim;
      if (dv->kind != WB_RT_INT)
        return _wb_cuda_kern_unsupported (error, "%s: dim is not an int", call->bsym->name);
      dim = dv->i < 0 ? dv->i + a->rank : dv->i;
      if (a->rank == 0 && (dim == 0 || dim == -1))
        n = 1;
      else if (dim < 0 || dim >= a->rank)
        return _wb_cuda_kern_unsupported (error, "%s: dim %" G_GINT64_FORMAT " is out of range", call->bsym->name, dv->i);
      else
        {
          n = a->shape[dim];
          for (gint64 d = 0; d < a->rank; d++)
            if (d < dim)
              outer *= a->shape[d], shape[rank++] = a->shape[d];
            else if (d > dim)
              inner *= a->shape[d], shape[rank++] = a->shape[d];
        }
    }
  if ((ac = wb_cuda_contiguous (rt, a, error)) == NULL || (out = wb_cuda_tensor_new (rt, WB_DTYPE_INT64, rank, shape, error)) == NULL)
    return FALSE;
  if (outer * inner > 0)
    {
      CUdeviceptr      pa = wb_cuda_tensor_ptr (ac), po = wb_cuda_tensor_ptr (out);
      void            *args[] = { &pa, &po, &outer, &n, &inner, &is_max };
      g_autofree char *what = g_strdup_printf ("%s of %" G_GINT64_FORMAT " rows of %" G_GINT64_FORMAT " %s", call->bsym->name, outer * inner, n,
                                               wb_dtype_shortname (a->dtype));
      if (!launch (rt, "wb_argbest", a->dtype, outer * inner, args, what, error))
        {
          wb_tensor_unref (out);
          return FALSE;
        }
    }
  return _wb_cuda_kern_set_tensor (call, out);
}

/* -- nll_loss_backward ---------------------------------------------------------------------------- */

static gboolean
run_nll_loss_backward (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) go = NULL;
  g_autoptr (WbTensor) input = NULL;
  g_autoptr (WbTensor) target = NULL;
  g_autoptr (WbTensor) weight = NULL;
  g_autoptr (WbTensor) g64 = NULL;
  g_autoptr (WbTensor) t64 = NULL;
  g_autoptr (WbTensor) w64 = NULL;
  g_autoptr (WbTensor) total64 = NULL;
  g_autoptr (GError) local = NULL;
  WbRtValue  *red = wb_kernel_call_get_arg (call, 4, "reduction"), *tv = wb_kernel_call_get_arg (call, 6, "total_weight");
  const char *reduction = red && red->kind == WB_RT_STRING ? red->s : "mean";
  int         mode = g_strcmp0 (reduction, "none") == 0 ? 0 : g_strcmp0 (reduction, "sum") == 0 ? 2
                                                                                                : 1;
  gint64      ignore, nb, nc, nr;
  WbTensor   *out;

  if ((go = _wb_cuda_kern_arg_device (rt, call, 0, "g", FALSE, error)) == NULL || (input = _wb_cuda_kern_arg_device (rt, call, 1, "a", FALSE, error)) == NULL ||
      (target = _wb_cuda_kern_arg_device (rt, call, 2, "target", FALSE, error)) == NULL)
    return FALSE;
  weight = _wb_cuda_kern_arg_device (rt, call, 3, "weight", TRUE, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (!_wb_cuda_kern_arg_int (call, 5, "ignore_index", TRUE, -100, &ignore, error))
    return FALSE;
  if (!wb_dtype_is_float (input->dtype) || _wb_cuda_kern_suffix (input->dtype) == NULL)
    return _wb_cuda_kern_unsupported (error, "%s: dtype %s is not supported", call->bsym->name, wb_dtype_shortname (input->dtype));
  if (input->rank == 1)
    nb = 1, nc = input->shape[0], nr = 1;
  else
    {
      nb = input->shape[0], nc = input->shape[1], nr = 1;
      for (guint d = 2; d < input->rank; d++)
        nr *= input->shape[d];
    }
  if (wb_tensor_numel (target) != nb * nr || (weight && wb_tensor_numel (weight) != nc) ||
      wb_tensor_numel (go) != (mode == 0 ? nb * nr : 1))
    return _wb_cuda_kern_unsupported (error, "%s: target, weight or grad_output does not fit the input", call->bsym->name);
  if ((g64 = _wb_cuda_kern_device_as (rt, go, WB_DTYPE_FLOAT64, error)) == NULL || (t64 = _wb_cuda_kern_device_as (rt, target, WB_DTYPE_INT64, error)) == NULL ||
      (weight && (w64 = _wb_cuda_kern_device_as (rt, weight, WB_DTYPE_FLOAT64, error)) == NULL))
    return FALSE;
  /* total_weight: a number or a one-element tensor */
  if (tv != NULL && tv->kind == WB_RT_TENSOR)
    {
      g_autoptr (WbTensor) td = NULL;
      if ((td = _wb_cuda_kern_arg_device (rt, call, 6, "total_weight", FALSE, error)) == NULL)
        return FALSE;
      if (wb_tensor_numel (td) != 1)
        return _wb_cuda_kern_unsupported (error, "%s: total_weight has %" G_GINT64_FORMAT " elements", call->bsym->name, wb_tensor_numel (td));
      if ((total64 = _wb_cuda_kern_device_as (rt, td, WB_DTYPE_FLOAT64, error)) == NULL)
        return FALSE;
    }
  else
    {
      double x = 1.0;
      g_autoptr (WbTensor) h = NULL;
      if (tv != NULL && tv->kind != WB_RT_NONE && !wb_rt_value_get_number (tv, &x))
        return _wb_cuda_kern_unsupported (error, "%s: total_weight is not a number", call->bsym->name);
      h = wb_tensor_new_scalar (WB_DTYPE_FLOAT64, x);
      if ((total64 = wb_cuda_upload (rt, h, error)) == NULL)
        return FALSE;
    }
  if ((out = wb_cuda_tensor_new (rt, input->dtype, input->rank, input->shape, error)) == NULL)
    return FALSE;
  {
    CUdeviceptr      po = wb_cuda_tensor_ptr (out), pg = wb_cuda_tensor_ptr (g64), pt = wb_cuda_tensor_ptr (t64);
    CUdeviceptr      pw = w64 ? wb_cuda_tensor_ptr (w64) : 0, ptot = wb_cuda_tensor_ptr (total64);
    void            *args[] = { &po, &pg, &pt, &pw, &ptot, &nb, &nc, &nr, &mode, &ignore };
    g_autofree char *what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " elements]", call->bsym->name, wb_dtype_shortname (input->dtype), nb * nc * nr);
    if (nb * nc * nr > 0 && !launch (rt, "wb_nll_loss_backward", input->dtype, _wb_cuda_kern_blocks (nb * nc * nr), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, out);
}

/* -- dispatch ------------------------------------------------------------------------------------- */

gboolean
wb_cuda_kernels_run (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  Op op = op_of (call->bsym);

  switch (op)
    {
    case OP_UNIFORM:
    case OP_UNIFORM_PHILOX:
    case OP_RANDN:
    case OP_RANDINT:
      return run_random (rt, call, op, error);
    case OP_TOPK:
    case OP_SORT:
      return run_sort (rt, call, op, error);
    case OP_ARGMAX:
    case OP_ARGMIN:
      return run_argbest (rt, call, op, error);
    case OP_NLL_LOSS_BACKWARD:
      return run_nll_loss_backward (rt, call, error);
    case OP_MAX_POOL2D:
    case OP_MAX_POOL3D:
      return _wb_cuda_kernels_max_pool (rt, call, op == OP_MAX_POOL2D ? 2 : 3, error);
    case OP_MAX_POOL2D_BACKWARD:
    case OP_MAX_POOL3D_BACKWARD:
      return _wb_cuda_kernels_max_pool_backward (rt, call, op == OP_MAX_POOL2D_BACKWARD ? 2 : 3, error);
    case OP_ADAPTIVE_AVG_POOL2D:
    case OP_ADAPTIVE_AVG_POOL3D:
      return _wb_cuda_kernels_adaptive_avg (rt, call, op == OP_ADAPTIVE_AVG_POOL2D ? 2 : 3, error);
    case OP_ADAPTIVE_AVG_POOL2D_BACKWARD:
      return _wb_cuda_kernels_adaptive_avg_backward (rt, call, 2, error);
    case OP_INDEX_ADD:
      return _wb_cuda_kernels_index_add (rt, call, error);
    case OP_SCATTER_ADD:
      return _wb_cuda_kernels_scatter_add (rt, call, error);
    case OP_EMBEDDING:
      return _wb_cuda_kernels_embedding (rt, call, error);
    case OP_EMBEDDING_BACKWARD:
      return _wb_cuda_kernels_embedding_backward (rt, call, error);
    case OP_CUMSUM:
      return _wb_cuda_kernels_cumsum (rt, call, error);
    case OP_KL_DIV:
      return _wb_cuda_kernels_kl_div (rt, call, error);
    case OP_KL_DIV_VJP:
      return _wb_cuda_kernels_kl_div_vjp (rt, call, error);
    case OP_COPY_WITH_SETITEM:
      return _wb_cuda_kernels_copy_with_setitem (rt, call, error);
    case OP_DETACH:
      {
        /* the input itself, as the cpu executor aliases it (no autograd here) */
        WbTensor *a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error);
        return a != NULL && _wb_cuda_kern_set_tensor (call, a);
      }
    case OP_UPDATE_ALIASES:
      {
        /* the aliases themselves, as the cpu executor returns them */
        WbRtValue *v = wb_kernel_call_get_arg (call, 0, "aliases");
        if (v == NULL || !wb_rt_value_is_sequence (v))
          return _wb_cuda_kern_unsupported (error, "%s takes a tuple", call->bsym->name);
        call->result = wb_rt_value_new_sequence (WB_RT_TUPLE);
        for (guint i = 0; i < v->items->len; i++)
          wb_rt_value_append (call->result, wb_rt_value_ref (v->items->pdata[i]));
        return TRUE;
      }
    default:
      return _wb_cuda_kern_unsupported (error, "%s has no hand-written CUDA kernel", call->bsym->name);
    }
}
