/* wb-cuda-kernels-index.c — index_add, scatter_add, embedding and its backward, cumsum, kl_div and its vjp on the GPU
 * (wb-cuda-kernels-private.h; kernels in wb-cuda-kernels-index.cuh)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Arguments are read and checked as the cpu executor reads them (executors/cpu/wb-cpu-indexing.c,
 * wb-cpu-reduction.c, wb-cpu-nn.c): a form it would refuse is WB_CUDA_ERROR_CALL here, so the call runs on
 * the cpu and fails there with the cpu's words. index_add and scatter_add sort their index first (the sort
 * kernels of wb-cuda-kernels.c) so that every output element gathers its values in a fixed order: the same
 * bits every run, no atomic adds. */
#include "config.h"

#include <string.h>

#include "wb-cuda-kernels-index-text.h"
#include "wb-cuda-kernels-private.h"
#include "wb-executors-private.h"

#define KL_PARTIALS 1024 /* the most blocks of kl_div's partial sums */

/* WbScatterGeom of the kernels (the same layout) */
typedef struct
{
  gint32 rank, dim;
  gint64 shape[8], ishape[8], sstride[8];
} ScatterGeom;

G_STATIC_ASSERT (WB_MAX_RANK <= 8);

const char *
_wb_cuda_kernels_index_source (void)
{
  return wb_cuda_kernels_index_text;
}

static gboolean
launch (WbCudaRuntime *rt, const char *kernel, WbDtype dt, gint64 blocks, void **args, const char *what, GError **error)
{
  return blocks == 0 || _wb_cuda_kern_launch (rt, wb_cuda_kernels_index_text, kernel, dt, blocks, args, what, error);
}

static gboolean
arg_dim (WbKernelCall *call, guint pos, guint rank, gint64 *dim, GError **error)
{
  gint64 r = MAX (rank, 1);

  if (!_wb_cuda_kern_arg_int (call, pos, "dim", FALSE, 0, dim, error))
    return FALSE;
  if (*dim < -r || *dim >= r)
    return _wb_cuda_kern_unsupported (error, "%s: dim %" G_GINT64_FORMAT " is out of range for rank %u", call->bsym->name, *dim, rank);
  if (*dim < 0)
    *dim += r;
  return TRUE;
}

/* -- index_add, scatter_add --------------------------------------------------------------------- */

/* (transfer full) @index (integers) as int64 wrapped for a dim of @size, sorted along its dim @dim (stable;
 * -1: all its elements as one row): the keys in @keys, their positions along @dim (the flat positions) in
 * @pos; both of @index's shape. */
static gboolean
sorted_index (WbCudaRuntime *rt, WbKernelCall *call, WbTensor *index, gint64 dim, gint64 size, WbTensor **keys, WbTensor **pos, GError **error)
{
  g_autoptr (WbTensor) i64 = NULL;
  g_autoptr (WbTensor) wrapped = NULL;
  g_autofree char *what = NULL;
  gint64           n = wb_tensor_numel (index), outer = 1, inner = 1, len = dim < 0 ? n : index->rank ? index->shape[dim]
                                                                                                      : 1;

  *keys = *pos = NULL;
  if (wb_dtype_is_float (index->dtype) || wb_dtype_is_complex (index->dtype) || index->dtype == WB_DTYPE_BOOL8)
    return _wb_cuda_kern_unsupported (error, "%s: index tensors must be integers, got %s", call->bsym->name, wb_dtype_shortname (index->dtype));
  for (gint64 d = 0; dim >= 0 && d < index->rank; d++)
    if (d < dim)
      outer *= index->shape[d];
    else if (d > dim)
      inner *= index->shape[d];
  what = g_strdup_printf ("%s: its index of %" G_GINT64_FORMAT " elements, sorted", call->bsym->name, n);
  if ((i64 = _wb_cuda_kern_device_as (rt, index, WB_DTYPE_INT64, error)) == NULL ||
      (wrapped = wb_cuda_tensor_new (rt, WB_DTYPE_INT64, index->rank, index->shape, error)) == NULL ||
      (*keys = wb_cuda_tensor_new (rt, WB_DTYPE_INT64, index->rank, index->shape, error)) == NULL ||
      (*pos = wb_cuda_tensor_new (rt, WB_DTYPE_INT64, index->rank, index->shape, error)) == NULL)
    goto fail;
  {
    CUdeviceptr pi = wb_cuda_tensor_ptr (i64), pw = wb_cuda_tensor_ptr (wrapped);
    void       *args[] = { &pi, &pw, &n, &size };
    if (!launch (rt, "wb_index_prepare", WB_DTYPE_UNKNOWN, _wb_cuda_kern_blocks (n), args, what, error))
      goto fail;
  }
  if (_wb_cuda_kern_sort (rt, wrapped, outer, len, inner, len, FALSE, *keys, *pos, what, error))
    return TRUE;
fail:
  g_clear_pointer (keys, wb_tensor_unref);
  g_clear_pointer (pos, wb_tensor_unref);
  return FALSE;
}

/* a, index, value (tensors) and dim of index_add / scatter_add; value of a's dtype, which has kernels */
static gboolean
update_args (WbCudaRuntime *rt, WbKernelCall *call, WbTensor **a, WbTensor **index, WbTensor **value, gint64 *dim, GError **error)
{
  if ((*a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL ||
      (*index = _wb_cuda_kern_arg_device (rt, call, 1, "index", FALSE, error)) == NULL ||
      (*value = _wb_cuda_kern_arg_device (rt, call, 2, "value", FALSE, error)) == NULL || !arg_dim (call, 3, (*a)->rank, dim, error))
    return FALSE;
  if ((*a)->rank == 0 || (*value)->dtype != (*a)->dtype || _wb_cuda_kern_suffix ((*a)->dtype) == NULL || (*a)->dtype == WB_DTYPE_BOOL8)
    return _wb_cuda_kern_unsupported (error, "%s: a %s of rank %u with values %s", call->bsym->name, wb_dtype_shortname ((*a)->dtype), (*a)->rank,
                                      wb_dtype_shortname ((*value)->dtype));
  return TRUE;
}

gboolean
_wb_cuda_kernels_index_add (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) index = NULL;
  g_autoptr (WbTensor) value = NULL;
  g_autoptr (WbTensor) ac = NULL;
  g_autoptr (WbTensor) vc = NULL;
  g_autoptr (WbTensor) keys = NULL;
  g_autoptr (WbTensor) pos = NULL;
  WbTensor        *out;
  gint64           dim, outer = 1, inner = 1, R, J;
  g_autofree char *what = NULL;

  if (!update_args (rt, call, &a, &index, &value, &dim, error))
    return FALSE;
  J = wb_tensor_numel (index);
  if (index->rank > 1 || value->rank != a->rank)
    return _wb_cuda_kern_unsupported (error, "%s: index must be 1-D and value of a's rank", call->bsym->name);
  for (guint d = 0; d < a->rank; d++)
    if (d == dim ? value->shape[d] != J : value->shape[d] != a->shape[d])
      return _wb_cuda_kern_unsupported (error, "%s: value dim %u does not fit", call->bsym->name, d);
  R = a->shape[dim];
  for (gint64 d = 0; d < a->rank; d++)
    if (d < dim)
      outer *= a->shape[d];
    else if (d > dim)
      inner *= a->shape[d];
  if (!sorted_index (rt, call, index, -1, R, &keys, &pos, error) || (ac = wb_cuda_contiguous (rt, a, error)) == NULL ||
      (vc = wb_cuda_contiguous (rt, value, error)) == NULL || (out = wb_cuda_tensor_new (rt, a->dtype, a->rank, a->shape, error)) == NULL)
    return FALSE;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " elements] of %" G_GINT64_FORMAT " indices", call->bsym->name, wb_dtype_shortname (a->dtype),
                          wb_tensor_numel (a), J);
  {
    CUdeviceptr pa = wb_cuda_tensor_ptr (ac), pv = wb_cuda_tensor_ptr (vc), pk = wb_cuda_tensor_ptr (keys), pp = wb_cuda_tensor_ptr (pos);
    CUdeviceptr po = wb_cuda_tensor_ptr (out);
    void       *args[] = { &pa, &pv, &pk, &pp, &po, &outer, &R, &inner, &J };
    if (!launch (rt, "wb_index_add", a->dtype, _wb_cuda_kern_blocks (wb_tensor_numel (a)), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, out);
}

gboolean
_wb_cuda_kernels_scatter_add (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) index = NULL;
  g_autoptr (WbTensor) value = NULL;
  g_autoptr (WbTensor) ac = NULL;
  g_autoptr (WbTensor) vc = NULL;
  g_autoptr (WbTensor) keys = NULL;
  g_autoptr (WbTensor) pos = NULL;
  WbTensor        *out;
  gint64           dim, n, stride = 1;
  ScatterGeom      g;
  g_autofree char *what = NULL;

  if (!update_args (rt, call, &a, &index, &value, &dim, error))
    return FALSE;
  if (index->rank != a->rank || value->rank != a->rank)
    return _wb_cuda_kern_unsupported (error, "%s: ranks differ", call->bsym->name);
  memset (&g, 0, sizeof g);
  g.rank = (gint32) a->rank;
  g.dim = (gint32) dim;
  for (int d = (int) a->rank - 1; d >= 0; d--)
    {
      if ((d != dim && index->shape[d] > a->shape[d]) || index->shape[d] > value->shape[d])
        return _wb_cuda_kern_unsupported (error, "%s: index dim %d too large", call->bsym->name, d);
      g.shape[d] = a->shape[d];
      g.ishape[d] = index->shape[d];
      g.sstride[d] = stride;
      stride *= value->shape[d];
    }
  if (!sorted_index (rt, call, index, dim, a->shape[dim], &keys, &pos, error) || (ac = wb_cuda_contiguous (rt, a, error)) == NULL ||
      (vc = wb_cuda_contiguous (rt, value, error)) == NULL || (out = wb_cuda_tensor_new (rt, a->dtype, a->rank, a->shape, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (a);
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " elements] of %" G_GINT64_FORMAT " indices", call->bsym->name, wb_dtype_shortname (a->dtype), n,
                          wb_tensor_numel (index));
  {
    CUdeviceptr pa = wb_cuda_tensor_ptr (ac), pv = wb_cuda_tensor_ptr (vc), pk = wb_cuda_tensor_ptr (keys), pp = wb_cuda_tensor_ptr (pos);
    CUdeviceptr po = wb_cuda_tensor_ptr (out);
    void       *args[] = { &pa, &pv, &pk, &pp, &po, &n, &g };
    if (!launch (rt, "wb_scatter_add", a->dtype, _wb_cuda_kern_blocks (n), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, out);
}

/* -- embedding, embedding_backward ------------------------------------------------------------- */

gboolean
_wb_cuda_kernels_embedding (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) index = NULL;
  g_autoptr (WbTensor) weight = NULL;
  g_autoptr (WbTensor) i64 = NULL;
  g_autoptr (WbTensor) wc = NULL;
  WbRtValue       *max_norm = wb_kernel_call_get_arg (call, G_MAXUINT, "max_norm");
  gint64           shape[WB_MAX_RANK], n, d, num;
  WbTensor        *out;
  g_autofree char *what = NULL;

  if ((index = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL ||
      (weight = _wb_cuda_kern_arg_device (rt, call, 1, "weight", FALSE, error)) == NULL)
    return FALSE;
  if (max_norm != NULL && max_norm->kind != WB_RT_NONE)
    return _wb_cuda_kern_unsupported (error, "%s: max_norm is not supported (it renormalises the weight)", call->bsym->name);
  if (weight->rank != 2 || index->rank + 1 > WB_MAX_RANK || _wb_cuda_kern_suffix (weight->dtype) == NULL || weight->dtype == WB_DTYPE_BOOL8 ||
      wb_dtype_is_float (index->dtype) || wb_dtype_is_complex (index->dtype) || index->dtype == WB_DTYPE_BOOL8)
    return _wb_cuda_kern_unsupported (error, "%s: a weight %s of rank %u, indices %s of rank %u", call->bsym->name, wb_dtype_shortname (weight->dtype),
                                      weight->rank, wb_dtype_shortname (index->dtype), index->rank);
  num = weight->shape[0], d = weight->shape[1], n = wb_tensor_numel (index);
  memcpy (shape, index->shape, sizeof (gint64) * index->rank);
  shape[index->rank] = d;
  if ((i64 = _wb_cuda_kern_device_as (rt, index, WB_DTYPE_INT64, error)) == NULL || (wc = wb_cuda_contiguous (rt, weight, error)) == NULL ||
      (out = wb_cuda_tensor_new (rt, weight->dtype, index->rank + 1, shape, error)) == NULL)
    return FALSE;
  what = g_strdup_printf ("%s of %" G_GINT64_FORMAT " rows of %" G_GINT64_FORMAT " %s", call->bsym->name, n, d, wb_dtype_shortname (weight->dtype));
  {
    CUdeviceptr pw = wb_cuda_tensor_ptr (wc), pi = wb_cuda_tensor_ptr (i64), po = wb_cuda_tensor_ptr (out);
    void       *args[] = { &pw, &pi, &po, &n, &d, &num };
    if (!launch (rt, "wb_embedding", weight->dtype, _wb_cuda_kern_blocks (n * d), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, out);
}

gboolean
_wb_cuda_kernels_embedding_backward (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) grad = NULL;
  g_autoptr (WbTensor) indices = NULL;
  g_autoptr (WbTensor) gc = NULL;
  g_autoptr (WbTensor) keys = NULL;
  g_autoptr (WbTensor) pos = NULL;
  gint64           num, padding, scale = 0, sparse = 0, n, d;
  int              scale_i;
  WbTensor        *out;
  g_autofree char *what = NULL;

  if ((grad = _wb_cuda_kern_arg_device (rt, call, 0, "grad", FALSE, error)) == NULL ||
      (indices = _wb_cuda_kern_arg_device (rt, call, 1, "indices", FALSE, error)) == NULL ||
      !_wb_cuda_kern_arg_int (call, 2, "num_weights", FALSE, 0, &num, error) || !_wb_cuda_kern_arg_int (call, 3, "padding_idx", TRUE, -1, &padding, error) ||
      !_wb_cuda_kern_arg_int (call, 4, "scale_grad_by_freq", TRUE, FALSE, &scale, error) ||
      !_wb_cuda_kern_arg_int (call, 5, "sparse", TRUE, FALSE, &sparse, error))
    return FALSE;
  if (sparse)
    return _wb_cuda_kern_unsupported (error, "%s: sparse embedding gradients are not supported", call->bsym->name);
  if (!wb_dtype_is_float (grad->dtype) || _wb_cuda_kern_suffix (grad->dtype) == NULL || num < 0)
    return _wb_cuda_kern_unsupported (error, "%s: a gradient of dtype %s", call->bsym->name, wb_dtype_shortname (grad->dtype));
  d = grad->rank ? grad->shape[grad->rank - 1] : 1;
  n = wb_tensor_numel (indices);
  if (wb_tensor_numel (grad) != n * d)
    return _wb_cuda_kern_unsupported (error, "%s: grad does not match indices", call->bsym->name);
  if (!sorted_index (rt, call, indices, -1, num, &keys, &pos, error) ||
      (gc = wb_cuda_contiguous (rt, grad, error)) == NULL || (out = wb_cuda_tensor_new (rt, grad->dtype, 2, (gint64[]){ num, d }, error)) == NULL)
    return FALSE;
  what = g_strdup_printf ("%s of %" G_GINT64_FORMAT " rows of %" G_GINT64_FORMAT " %s into %" G_GINT64_FORMAT, call->bsym->name, n, d,
                          wb_dtype_shortname (grad->dtype), num);
  scale_i = scale != 0;
  {
    CUdeviceptr pg = wb_cuda_tensor_ptr (gc), pk = wb_cuda_tensor_ptr (keys), pp = wb_cuda_tensor_ptr (pos), po = wb_cuda_tensor_ptr (out);
    void       *args[] = { &pg, &pk, &pp, &po, &num, &d, &n, &padding, &scale_i };
    if (!launch (rt, "wb_embedding_backward", grad->dtype, _wb_cuda_kern_blocks (num * d), args, what, error))
      {
        wb_tensor_unref (out);
        return FALSE;
      }
  }
  return _wb_cuda_kern_set_tensor (call, out);
}

/* -- cumsum ------------------------------------------------------------------------------------- */

/* running sums of contiguous @src along the middle of [@outer, @len, @inner] into @out (both of one dtype with
 * kernels): a thread a row for short rows or many strided ones, else a block a row */
static gboolean
scan (WbCudaRuntime *rt, WbTensor *src, WbTensor *out, gint64 outer, gint64 len, gint64 inner, const char *what, GError **error)
{
  CUdeviceptr ps = wb_cuda_tensor_ptr (src), po = wb_cuda_tensor_ptr (out);
  void       *args[] = { &ps, &po, &outer, &len, &inner };
  gint64      rows = outer * inner;

  if (rows * len == 0)
    return TRUE;
  if (len <= 64 || (inner >= 32 && rows >= 1024))
    return launch (rt, "wb_cumsum_rows", src->dtype, _wb_cuda_kern_blocks (rows), args, what, error);
  return launch (rt, "wb_cumsum_block", src->dtype, rows, args, what, error);
}

gboolean
_wb_cuda_kernels_cumsum (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) src = NULL;
  g_autoptr (WbTensor) acc = NULL;
  WbRtValue       *dv = wb_kernel_call_get_arg (call, 2, "dtype");
  WbDtype          dtype = WB_DTYPE_UNKNOWN, work;
  gboolean         exact;
  gint64           dim, outer = 1, inner = 1, len = 1;
  WbTensor        *out;
  g_autofree char *what = NULL;

  if ((a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL || !arg_dim (call, 1, a->rank, &dim, error))
    return FALSE;
  if (dv != NULL && dv->kind == WB_RT_DTYPE)
    dtype = dv->dtype;
  else if (dv != NULL && dv->kind != WB_RT_NONE)
    return _wb_cuda_kern_unsupported (error, "%s: dtype is not a dtype", call->bsym->name);
  if (!_wb_dtype_is_supported (a->dtype) || (dtype != WB_DTYPE_UNKNOWN && !_wb_dtype_is_supported (dtype)))
    return _wb_cuda_kern_unsupported (error, "%s: dtype %s is not supported", call->bsym->name, wb_dtype_shortname (a->dtype));
  /* as the cpu: integers (and bools) add in int64 and give int64 unless dtype= says otherwise, floats in double */
  exact = _wb_dtype_class (a->dtype) == WB_CLASS_I64;
  if (dtype == WB_DTYPE_UNKNOWN)
    dtype = exact ? WB_DTYPE_INT64 : a->dtype;
  exact = exact && _wb_dtype_class (dtype) == WB_CLASS_I64;
  for (gint64 d = 0; d < a->rank; d++)
    if (d < dim)
      outer *= a->shape[d];
    else if (d > dim)
      inner *= a->shape[d];
    else
      len = a->shape[d];
  /* the input's own dtype where the result has it, else the work dtype and a conversion after */
  work = dtype == a->dtype && a->dtype != WB_DTYPE_BOOL8 ? a->dtype : exact ? WB_DTYPE_INT64
                                                                            : WB_DTYPE_FLOAT64;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " rows of %" G_GINT64_FORMAT "]", call->bsym->name, wb_dtype_shortname (a->dtype), outer * inner, len);
  if ((src = _wb_cuda_kern_device_as (rt, a, work, error)) == NULL || (acc = wb_cuda_tensor_new (rt, work, a->rank, a->shape, error)) == NULL ||
      !scan (rt, src, acc, outer, len, inner, what, error))
    return FALSE;
  if (work == dtype)
    return _wb_cuda_kern_set_tensor (call, g_steal_pointer (&acc));
  if ((out = wb_cuda_tensor_new (rt, dtype, a->rank, a->shape, error)) == NULL)
    return FALSE;
  if (!wb_cuda_copy_into (rt, out, acc, error))
    {
      wb_tensor_unref (out);
      return FALSE;
    }
  return _wb_cuda_kern_set_tensor (call, out);
}

/* -- kl_div ------------------------------------------------------------------------------------- */

gboolean
_wb_cuda_kernels_kl_div (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  g_autoptr (WbTensor) x = NULL;
  g_autoptr (WbTensor) t = NULL;
  g_autoptr (WbTensor) xc = NULL;
  g_autoptr (WbTensor) tc = NULL;
  WbRtValue       *red = wb_kernel_call_get_arg (call, 4, "reduction");
  const char      *reduction = red && red->kind == WB_RT_STRING ? red->s : "mean";
  gint64           log_target = 0, n;
  int              lt;
  double           divisor;
  WbTensor        *out;
  CUdeviceptr      px, pt, po;
  g_autofree char *what = NULL;

  if ((x = _wb_cuda_kern_arg_device (rt, call, 0, "input", FALSE, error)) == NULL ||
      (t = _wb_cuda_kern_arg_device (rt, call, 1, "target", FALSE, error)) == NULL ||
      !_wb_cuda_kern_arg_int (call, 5, "log_target", TRUE, FALSE, &log_target, error))
    return FALSE;
  if (x->rank != t->rank || memcmp (x->shape, t->shape, sizeof (gint64) * x->rank) != 0 || x->dtype != t->dtype || !wb_dtype_is_float (x->dtype))
    return _wb_cuda_kern_unsupported (error, "%s: input and target differ in shape or dtype, or are not floats", call->bsym->name);
  if ((divisor = _wb_kl_div_divisor (reduction, x)) < 0)
    return _wb_cuda_kern_unsupported (error, "%s: unknown reduction '%s'", call->bsym->name, reduction);
  n = wb_tensor_numel (x);
  lt = log_target != 0;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " elements], %s", call->bsym->name, wb_dtype_shortname (x->dtype), n, reduction);
  if ((xc = wb_cuda_contiguous (rt, x, error)) == NULL || (tc = wb_cuda_contiguous (rt, t, error)) == NULL ||
      (out = wb_cuda_tensor_new (rt, x->dtype, divisor == 0 ? x->rank : 0, x->shape, error)) == NULL)
    return FALSE;
  px = wb_cuda_tensor_ptr (xc), pt = wb_cuda_tensor_ptr (tc), po = wb_cuda_tensor_ptr (out);
  if (divisor == 0)
    {
      void *args[] = { &px, &pt, &po, &n, &lt };
      if (!launch (rt, "wb_kl_div", x->dtype, _wb_cuda_kern_blocks (n), args, what, error))
        goto fail;
    }
  else
    {
      /* a grid fixed by n: the same partial sums, added in the same order, every run */
      gint64 parts = MIN (_wb_cuda_kern_blocks (n), KL_PARTIALS), one = MAX (parts, 1);
      g_autoptr (WbTensor) partial = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT64, 1, &one, error);
      CUdeviceptr pp;
      if (partial == NULL)
        goto fail;
      pp = wb_cuda_tensor_ptr (partial);
      {
        void *args[] = { &px, &pt, &pp, &n, &lt };
        void *fin[] = { &pp, &po, &parts, &divisor };
        if (!launch (rt, "wb_kl_div_partial", x->dtype, parts, args, what, error) ||
            !_wb_cuda_kern_launch (rt, wb_cuda_kernels_index_text, "wb_kl_div_finish", x->dtype, 1, fin, what, error))
          goto fail;
      }
    }
  return _wb_cuda_kern_set_tensor (call, out);

fail:
  wb_tensor_unref (out);
  return FALSE;
}

/* (transfer full) @t (host or device) on the device, contiguous */
static WbTensor *
device_contiguous (WbCudaRuntime *rt, WbTensor *t, GError **error)
{
  g_autoptr (WbTensor) d = wb_cuda_tensor_is_device (t) ? wb_tensor_ref (t) : wb_cuda_upload (rt, t, error);

  return d == NULL ? NULL : wb_cuda_contiguous (rt, d, error);
}

/* kl_div_vjp (((input, target), {kwargs}), g): both gradients in one kernel (wb_kl_div_vjp), read as the cpu
 * reads them (_wb_kl_div_vjp_args); input, target and g of one float dtype, else the cpu runs it. */
gboolean
_wb_cuda_kernels_kl_div_vjp (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbKlDivVjpArgs a;
  g_autoptr (GError) local = NULL;
  g_autoptr (WbTensor) x = NULL;
  g_autoptr (WbTensor) t = NULL;
  g_autoptr (WbTensor) g = NULL;
  WbTensor        *gi = NULL, *gt = NULL;
  gint64           n, g_step;
  int              lt;
  g_autofree char *what = NULL;

  if (!_wb_kl_div_vjp_args (call, &a, &local))
    return _wb_cuda_kern_unsupported (error, "%s", local->message);
  if (a.target->dtype != a.input->dtype || a.g->dtype != a.input->dtype)
    return _wb_cuda_kern_unsupported (error, "%s: input, target and cotangent dtypes differ", call->bsym->name);
  if ((x = device_contiguous (rt, a.input, error)) == NULL || (t = device_contiguous (rt, a.target, error)) == NULL ||
      (g = device_contiguous (rt, a.g, error)) == NULL || (gi = wb_cuda_tensor_new (rt, x->dtype, x->rank, x->shape, error)) == NULL ||
      (gt = wb_cuda_tensor_new (rt, x->dtype, x->rank, x->shape, error)) == NULL)
    goto fail;
  n = wb_tensor_numel (x);
  g_step = strcmp (a.reduction, "none") == 0 ? 1 : 0;
  lt = a.log_target != 0;
  what = g_strdup_printf ("%s %s[%" G_GINT64_FORMAT " elements], %s", call->bsym->name, wb_dtype_shortname (x->dtype), n, a.reduction);
  {
    CUdeviceptr px = wb_cuda_tensor_ptr (x), pt = wb_cuda_tensor_ptr (t), pg = wb_cuda_tensor_ptr (g);
    CUdeviceptr pi = wb_cuda_tensor_ptr (gi), pgt = wb_cuda_tensor_ptr (gt);
    void       *args[] = { &px, &pt, &pg, &pi, &pgt, &n, &g_step, &a.divisor, &lt };
    if (!launch (rt, "wb_kl_div_vjp", x->dtype, _wb_cuda_kern_blocks (n), args, what, error))
      goto fail;
  }
  call->result = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (call->result, wb_rt_value_take_tensor (gi));
  wb_rt_value_append (call->result, wb_rt_value_take_tensor (gt));
  return TRUE;

fail:
  g_clear_pointer (&gi, wb_tensor_unref);
  g_clear_pointer (&gt, wb_tensor_unref);
  return FALSE;
}

/* -- copy_with_setitem ------------------------------------------------------------------------------ */

gboolean
_wb_cuda_kernels_copy_with_setitem (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbRtValue *key = wb_kernel_call_get_arg (call, 1, "index"), *value = wb_kernel_call_get_arg (call, 2, "value");
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) out = NULL;
  g_autoptr (WbTensor) part = NULL;
  g_autoptr (WbTensor) src = NULL;
  g_autoptr (WbTensor) wide = NULL;
  g_autoptr (GError) local = NULL;
  gint64 bdims[WB_MAX_RANK];

  if ((a = _wb_cuda_kern_arg_device (rt, call, 0, "a", FALSE, error)) == NULL)
    return FALSE;
  if (key == NULL || value == NULL)
    return _wb_cuda_kern_unsupported (error, "%s: needs an index and a value", call->bsym->name);
  if ((out = wb_cuda_tensor_new (rt, a->dtype, a->rank, a->shape, error)) == NULL || !wb_cuda_copy_into (rt, out, a, error))
    return FALSE;
  /* a key of tensors (advanced indexing) is not taken here */
  if ((part = wb_tensor_basic_index_view (out, key, &local)) == NULL)
    return _wb_cuda_kern_unsupported (error, "%s: %s", call->bsym->name, local->message);
  if (value->kind == WB_RT_TENSOR)
    src = _wb_cuda_kern_arg_device (rt, call, 2, "value", FALSE, error);
  else if (value->kind == WB_RT_INT || value->kind == WB_RT_BOOL || value->kind == WB_RT_FLOAT)
    {
      g_autoptr (WbTensor) host = wb_tensor_new_scalar (a->dtype, value->kind == WB_RT_FLOAT ? value->f : value->kind == WB_RT_INT ? (double) value->i
                                                                                                                                   : (double) value->b);
      src = wb_cuda_upload (rt, host, error);
    }
  else
    return _wb_cuda_kern_unsupported (error, "%s: the value must be a tensor or a number", call->bsym->name);
  if (src == NULL)
    return FALSE;
  if (src->rank > part->rank)
    return _wb_cuda_kern_unsupported (error, "%s: a rank-%u value does not fit a rank-%u selection", call->bsym->name, src->rank, part->rank);
  for (guint d = 0; d < src->rank; d++)
    bdims[d] = part->rank - src->rank + d;
  if ((wide = wb_tensor_broadcast_in_dim (src, part->rank, part->shape, bdims, error)) == NULL || !wb_cuda_copy_into (rt, part, wide, error))
    return FALSE;
  return _wb_cuda_kern_set_tensor (call, g_steal_pointer (&out));
}
