/* wb-cpu-indexing.c — take, take_along_axis, gather, scatter, scatter_add, index_add, index_copy,
 * index_put, embedding, embedding_backward
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Indices are int64 (or any integer dtype, converted) and checked: an index outside [-size, size) is
 * WB_EXECUTOR_ERROR_BAD_ARGUMENT naming the index and the size, never a wild read; negative indices count
 * from the end. Copies move whole elements; the accumulating ops (scatter_add, index_add,
 * index_put(accumulate=True), embedding_backward) work in f64 (floats) or int64 and round once on store.
 * Outputs are new contiguous tensors; the input is never written. */
#include "config.h"

#include <string.h>

#include "wb-cpu-private.h"

/* Contiguous int64 copy of @idx, with every entry normalised into [0, size). */
static WbTensor *
load_indices (WbTensor *idx, gint64 size, GError **error)
{
  g_autoptr (WbTensor) c = NULL;
  gint64 *p;
  gint64  n;

  if (_wb_dtype_class (idx->dtype) != WB_CLASS_I64 || idx->dtype == WB_DTYPE_BOOL8)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "index tensors must be integers, got %s", wb_dtype_shortname (idx->dtype));
      return NULL;
    }
  c = wb_tensor_to_dtype (idx, WB_DTYPE_INT64, error);
  if (c == NULL)
    return NULL;
  p = wb_tensor_get_data (c);
  n = wb_tensor_numel (c);
  for (gint64 i = 0; i < n; i++)
    {
      if (p[i] < -size || p[i] >= size)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "index %" G_GINT64_FORMAT " (element %" G_GINT64_FORMAT ") is out of range for size %" G_GINT64_FORMAT,
                       p[i], i, size);
          return NULL;
        }
      if (p[i] < 0)
        p[i] += size;
    }
  return g_steal_pointer (&c);
}

/* take(a, index, dim): a.shape[:dim] + index.shape + a.shape[dim+1:] */
static gboolean
op_take (WbKernelCall *call, WbTensor *a, WbTensor *index, gint64 dim, GError **error)
{
  g_autoptr (WbTensor) ac = NULL;
  g_autoptr (WbTensor) ic = NULL;
  g_autoptr (WbTensor) out = NULL;
  gint64        shape[WB_MAX_RANK];
  guint         rank = 0;
  gint64        outer = 1, inner = 1, ni, size = a->rank ? a->shape[dim] : 1;
  gsize         es = wb_dtype_size (a->dtype);
  const guint8 *src;
  guint8       *dst;
  const gint64 *ip;

  if (a->rank + index->rank - 1 > WB_MAX_RANK || a->rank == 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "take: result rank too high or a is 0-d");
      return FALSE;
    }
  for (guint d = 0; d < dim; d++)
    shape[rank++] = a->shape[d], outer *= a->shape[d];
  for (guint d = 0; d < index->rank; d++)
    shape[rank++] = index->shape[d];
  for (guint d = dim + 1; d < a->rank; d++)
    shape[rank++] = a->shape[d], inner *= a->shape[d];
  if ((ic = load_indices (index, size, error)) == NULL || (ac = wb_tensor_contiguous (a, error)) == NULL ||
      (out = wb_tensor_new (a->dtype, rank, shape, error)) == NULL)
    return FALSE;
  ni = wb_tensor_numel (ic);
  ip = wb_tensor_get_data (ic);
  src = wb_tensor_get_data (ac);
  dst = wb_tensor_get_data (out);
  for (gint64 o = 0; o < outer; o++)
    for (gint64 j = 0; j < ni; j++)
      memcpy (dst + ((o * ni + j) * inner) * (gint64) es, src + ((o * size + ip[j]) * inner) * (gint64) es,
              (gsize) inner * es);
  return _wb_cpu_set_result (call, g_steal_pointer (&out));
}

/* Row-major multi-index of @i over @shape into @idx. */
static void
unravel (gint64 i, guint rank, const gint64 *shape, gint64 *idx)
{
  for (int d = (int) rank - 1; d >= 0; d--)
    {
      idx[d] = i % shape[d];
      i /= shape[d];
    }
}

/* take_along_axis / gather: out[i] = a[i with dim := index[i]]; out has index's shape (other dims of
 * index must not exceed a's; take_along_axis also broadcasts size-1 dims of index). */
static gboolean
op_take_along (WbKernelCall *call, WbTensor *a, WbTensor *index, gint64 dim, gboolean broadcast, GError **error)
{
  g_autoptr (WbTensor) ic = NULL;
  g_autoptr (WbTensor) out = NULL;
  gint64        shape[WB_MAX_RANK], idx[WB_MAX_RANK], n;
  gsize         es = wb_dtype_size (a->dtype);
  const gint64 *ip;
  guint8       *dst;

  if (index->rank != a->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "index has rank %u, the tensor %u", index->rank, a->rank);
      return FALSE;
    }
  for (guint d = 0; d < a->rank; d++)
    {
      shape[d] = index->shape[d];
      if (broadcast && d != dim && index->shape[d] == 1)
        shape[d] = a->shape[d];
      if (d != dim && shape[d] > a->shape[d])
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "index dim %u (%" G_GINT64_FORMAT ") exceeds the tensor's (%" G_GINT64_FORMAT ")", d, shape[d], a->shape[d]);
          return FALSE;
        }
    }
  if ((ic = load_indices (index, a->shape[dim], error)) == NULL || (out = wb_tensor_new (a->dtype, a->rank, shape, error)) == NULL)
    return FALSE;
  ip = wb_tensor_get_data (ic);
  dst = wb_tensor_get_data (out);
  n = wb_tensor_numel (out);
  for (gint64 i = 0; i < n; i++)
    {
      gint64 off = a->offset, ioff = 0, istride = 1;
      unravel (i, a->rank, shape, idx);
      for (int d = (int) a->rank - 1; d >= 0; d--)
        {
          gint64 id = index->shape[d] == 1 ? 0 : idx[d];
          ioff += id * istride;
          istride *= index->shape[d];
        }
      for (guint d = 0; d < a->rank; d++)
        off += (d == dim ? ip[ioff] : idx[d]) * a->strides[d];
      memcpy (dst + i * (gint64) es, _wb_elem_ptr (a, off), es);
    }
  return _wb_cpu_set_result (call, g_steal_pointer (&out));
}

/* A contiguous working copy of @a: same dtype for plain writes, f64/int64 for accumulation. */
static WbTensor *
working_copy (WbTensor *a, gboolean accumulate, GError **error)
{
  WbDtype wdt = a->dtype;

  if (accumulate)
    wdt = _wb_dtype_class (a->dtype) == WB_CLASS_I64 ? WB_DTYPE_INT64 : WB_DTYPE_FLOAT64;
  return wb_tensor_to_dtype (a, wdt, error);
}

static gboolean
finish (WbKernelCall *call, WbTensor *work, WbDtype dtype, GError **error)
{
  WbTensor *out;

  if (work->dtype == dtype)
    return _wb_cpu_set_result (call, wb_tensor_ref (work));
  out = wb_tensor_to_dtype (work, dtype, error);
  return out != NULL && _wb_cpu_set_result (call, out);
}

/* Element @i of @v (tensor, converted to @work's dtype, or a number) written or added at @dst. */
static void
put_element (WbTensor *work, gint64 woff, const WbTensor *src, gint64 soff, double number, gboolean accumulate)
{
  guint8 *p = _wb_elem_ptr (work, woff);

  if (!accumulate)
    {
      if (src)
        _wb_convert_row (p, work->dtype, 1, _wb_elem_ptr (src, soff), src->dtype, 1, 1);
      else
        _wb_store_f64 (p, work->dtype, 1, &number, 1);
      return;
    }
  if (work->dtype == WB_DTYPE_INT64)
    {
      gint64 v = (gint64) number;
      if (src)
        _wb_load_i64 (&v, _wb_elem_ptr (src, soff), src->dtype, 1, 1);
      *(gint64 *) p = (gint64) ((guint64) * (gint64 *) p + (guint64) v);
    }
  else
    {
      double v = number;
      if (src)
        _wb_load_f64 (&v, _wb_elem_ptr (src, soff), src->dtype, 1, 1);
      *(double *) p += v;
    }
}

/* scatter / scatter_add(a, index, src|value, dim): out[i with dim := index[i]] (+)= src[i] */
static gboolean
op_scatter (WbKernelCall *call, WbTensor *a, WbTensor *index, WbRtValue *src, gint64 dim, gboolean accumulate, GError **error)
{
  g_autoptr (WbTensor) ic = NULL;
  g_autoptr (WbTensor) work = NULL;
  gint64          idx[WB_MAX_RANK], n;
  double          number = 0;
  const WbTensor *st = src && src->kind == WB_RT_TENSOR ? src->tensor : NULL;

  if (st == NULL && !wb_rt_value_get_number (src, &number))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "scatter source is not a tensor or a number");
      return FALSE;
    }
  if (index->rank != a->rank || (st && st->rank != a->rank))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "scatter: ranks differ");
      return FALSE;
    }
  for (guint d = 0; d < a->rank; d++)
    if ((d != dim && index->shape[d] > a->shape[d]) || (st && index->shape[d] > st->shape[d]))
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "scatter: index dim %u too large", d);
        return FALSE;
      }
  if ((ic = load_indices (index, a->shape[dim], error)) == NULL || (work = working_copy (a, accumulate, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (ic);
  for (gint64 i = 0; i < n; i++)
    {
      gint64 woff = 0, soff = st ? st->offset : 0;
      unravel (i, index->rank, index->shape, idx);
      for (guint d = 0; d < a->rank; d++)
        {
          woff += (d == dim ? ((gint64 *) wb_tensor_get_data (ic))[i] : idx[d]) * work->strides[d];
          if (st)
            soff += idx[d] * st->strides[d];
        }
      put_element (work, woff, st, soff, number, accumulate);
    }
  return finish (call, work, a->dtype, error);
}

/* index_add / index_copy(a, index[1-D], value, dim): out[..., index[j], ...] (+)= value[..., j, ...] */
static gboolean
op_index_add (WbKernelCall *call, WbTensor *a, WbTensor *index, WbTensor *value, gint64 dim, gboolean accumulate, GError **error)
{
  g_autoptr (WbTensor) ic = NULL;
  g_autoptr (WbTensor) work = NULL;
  gint64 idx[WB_MAX_RANK], n;

  if (index->rank > 1 || value->rank != a->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_add/index_copy: index must be 1-D and value of a's rank");
      return FALSE;
    }
  for (guint d = 0; d < a->rank; d++)
    if (d == dim ? value->shape[d] != wb_tensor_numel (index) : value->shape[d] != a->shape[d])
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_add/index_copy: value dim %u does not fit", d);
        return FALSE;
      }
  if ((ic = load_indices (index, a->shape[dim], error)) == NULL || (work = working_copy (a, accumulate, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (value);
  for (gint64 i = 0; i < n; i++)
    {
      gint64 woff = 0, soff = value->offset;
      unravel (i, value->rank, value->shape, idx);
      for (guint d = 0; d < a->rank; d++)
        {
          woff += (d == dim ? ((gint64 *) wb_tensor_get_data (ic))[idx[d]] : idx[d]) * work->strides[d];
          soff += idx[d] * value->strides[d];
        }
      put_element (work, woff, value, soff, 0, accumulate);
    }
  return finish (call, work, a->dtype, error);
}

/* index_put(a, indices (tensors for the leading dims), values, accumulate) */
static gboolean
op_index_put (WbKernelCall *call, WbTensor *a, GError **error)
{
  WbRtValue *indices = wb_kernel_call_get_arg (call, 1, "indices");
  WbTensor  *values;
  gboolean   accumulate;
  guint      k;
  gint64     bshape[WB_MAX_RANK], full[WB_MAX_RANK], idx[WB_MAX_RANK];
  guint      brank = 0, frank;
  g_autoptr (GPtrArray) ics = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  g_autoptr (WbTensor) work = NULL;
  g_autoptr (WbTensor) vfull = NULL;
  gint64 nb, inner = 1;

  if (!wb_rt_value_is_sequence (indices) || !_wb_cpu_arg_tensor (call, 2, "values", &values, error) ||
      !_wb_cpu_arg_bool (call, 3, "accumulate", TRUE, FALSE, &accumulate, error))
    {
      if (error && *error == NULL)
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_put takes a tuple of index tensors");
      return FALSE;
    }
  k = indices->items->len;
  if (k == 0 || k > a->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_put with %u indices for rank %u", k, a->rank);
      return FALSE;
    }
  /* broadcast the index tensors */
  for (guint i = 0; i < k; i++)
    {
      WbRtValue *v = indices->items->pdata[i];
      if (v->kind != WB_RT_TENSOR)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "index_put: only tensor indices (no None or slices)");
          return FALSE;
        }
      brank = MAX (brank, v->tensor->rank);
    }
  for (guint d = 0; d < brank; d++)
    bshape[d] = 1;
  for (guint i = 0; i < k; i++)
    {
      WbTensor *t = ((WbRtValue *) indices->items->pdata[i])->tensor;
      for (guint d = 0; d < t->rank; d++)
        {
          gint64 *s = &bshape[brank - t->rank + d];
          if (*s == 1)
            *s = t->shape[d];
          else if (t->shape[d] != 1 && t->shape[d] != *s)
            {
              g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_put: index shapes do not broadcast");
              return FALSE;
            }
        }
    }
  for (guint i = 0; i < k; i++)
    {
      WbTensor *t = ((WbRtValue *) indices->items->pdata[i])->tensor;
      WbTensor *c = load_indices (t, a->shape[i], error);
      if (c == NULL)
        return FALSE;
      g_ptr_array_add (ics, c);
    }
  frank = brank + a->rank - k;
  if (frank > WB_MAX_RANK)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_put: rank too high");
      return FALSE;
    }
  memcpy (full, bshape, brank * sizeof (gint64));
  for (guint d = k; d < a->rank; d++)
    full[brank + d - k] = a->shape[d], inner *= a->shape[d];
  /* values broadcast to [broadcast indices..., remaining dims...] */
  vfull = wb_tensor_new (accumulate ? (_wb_dtype_class (a->dtype) == WB_CLASS_I64 ? WB_DTYPE_INT64 : WB_DTYPE_FLOAT64) : a->dtype,
                         frank, full, error);
  if (vfull == NULL || !wb_tensor_copy_into (vfull, values, error) || (work = working_copy (a, accumulate, error)) == NULL)
    return FALSE;
  nb = _wb_cpu_numel (brank, bshape);
  for (gint64 b = 0; b < nb; b++)
    {
      gint64 woff = 0;
      unravel (b, brank, bshape, idx);
      for (guint i = 0; i < k; i++)
        {
          WbTensor *t = ics->pdata[i];
          gint64    ioff = 0, stride = 1;
          for (int d = (int) t->rank - 1; d >= 0; d--)
            {
              gint64 id = t->shape[d] == 1 ? 0 : idx[brank - t->rank + d];
              ioff += id * stride;
              stride *= t->shape[d];
            }
          woff += ((gint64 *) wb_tensor_get_data (t))[ioff] * work->strides[i];
        }
      for (gint64 j = 0; j < inner; j++)
        put_element (work, woff + j, vfull, b * inner + j, 0, accumulate);
    }
  return finish (call, work, a->dtype, error);
}

/* embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse) */
static gboolean
op_embedding_backward (WbKernelCall *call, GError **error)
{
  WbTensor *grad, *indices;
  gint64    num, padding, d, n;
  gboolean  scale, sparse;
  g_autoptr (WbTensor) ic = NULL;
  g_autoptr (WbTensor) g64 = NULL;
  g_autoptr (WbTensor) work = NULL;
  g_autofree gint64 *counts = NULL;

  if (!_wb_cpu_arg_tensor (call, 0, "grad", &grad, error) || !_wb_cpu_arg_tensor (call, 1, "indices", &indices, error) ||
      !_wb_cpu_arg_int (call, 2, "num_weights", FALSE, 0, &num, error) ||
      !_wb_cpu_arg_int (call, 3, "padding_idx", TRUE, -1, &padding, error) ||
      !_wb_cpu_arg_bool (call, 4, "scale_grad_by_freq", TRUE, FALSE, &scale, error) ||
      !_wb_cpu_arg_bool (call, 5, "sparse", TRUE, FALSE, &sparse, error))
    return FALSE;
  if (sparse)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "sparse embedding gradients are not supported");
      return FALSE;
    }
  d = grad->rank ? grad->shape[grad->rank - 1] : 1;
  if ((ic = load_indices (indices, num, error)) == NULL || (g64 = wb_tensor_to_dtype (grad, WB_DTYPE_FLOAT64, error)) == NULL ||
      (work = wb_tensor_new_zeros (WB_DTYPE_FLOAT64, 2, (gint64[]){ num, d }, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (ic);
  if (wb_tensor_numel (g64) != n * d)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "embedding_backward: grad does not match indices");
      return FALSE;
    }
  counts = g_new0 (gint64, MAX (num, 1));
  for (gint64 i = 0; i < n; i++)
    counts[((gint64 *) wb_tensor_get_data (ic))[i]]++;
  for (gint64 i = 0; i < n; i++)
    {
      gint64        row = ((gint64 *) wb_tensor_get_data (ic))[i];
      double       *w = (double *) wb_tensor_get_data (work) + row * d;
      const double *gsrc = (const double *) wb_tensor_get_data (g64) + i * d;
      double        f = scale ? 1.0 / (double) counts[row] : 1.0;
      if (row == padding)
        continue;
      for (gint64 j = 0; j < d; j++)
        w[j] += gsrc[j] * f;
    }
  return finish (call, work, grad->dtype, error);
}

gboolean
_wb_cpu_indexing (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a, *index, *value;
  gint64    dim;

  switch (op)
    {
    case WB_IDX_TAKE:
    case WB_IDX_TAKE_ALONG_AXIS:
    case WB_IDX_GATHER:
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_tensor (call, 1, "index", &index, error) ||
          !_wb_cpu_arg_int (call, 2, "dim", FALSE, 0, &dim, error) || !_wb_cpu_dim (dim, a->rank, &dim, error))
        return FALSE;
      if (op == WB_IDX_TAKE)
        return op_take (call, a, index, dim, error);
      return op_take_along (call, a, index, dim, op == WB_IDX_TAKE_ALONG_AXIS, error);

    case WB_IDX_SCATTER:
    case WB_IDX_SCATTER_ADD:
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_tensor (call, 1, "index", &index, error) ||
          !_wb_cpu_arg_int (call, 3, "dim", FALSE, 0, &dim, error) || !_wb_cpu_dim (dim, a->rank, &dim, error))
        return FALSE;
      return op_scatter (call, a, index, wb_kernel_call_get_arg (call, 2, op == WB_IDX_SCATTER ? "src" : "value"), dim,
                         op == WB_IDX_SCATTER_ADD, error);

    case WB_IDX_INDEX_ADD:
    case WB_IDX_INDEX_COPY:
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_tensor (call, 1, "index", &index, error) ||
          !_wb_cpu_arg_tensor (call, 2, "value", &value, error) ||
          !_wb_cpu_arg_int (call, 3, "dim", FALSE, 0, &dim, error) || !_wb_cpu_dim (dim, a->rank, &dim, error))
        return FALSE;
      return op_index_add (call, a, index, value, dim, op == WB_IDX_INDEX_ADD, error);

    case WB_IDX_INDEX_PUT:
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
        return FALSE;
      return op_index_put (call, a, error);

    case WB_IDX_EMBEDDING:
      {
        WbTensor  *weight;
        WbRtValue *max_norm = wb_kernel_call_get_arg (call, 99, "max_norm");
        g_autoptr (WbTensor) flat = NULL;
        if (!_wb_cpu_arg_tensor (call, 0, "a", &index, error) || !_wb_cpu_arg_tensor (call, 1, "weight", &weight, error))
          return FALSE;
        if (max_norm != NULL && max_norm->kind != WB_RT_NONE)
          {
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "embedding with max_norm is not supported");
            return FALSE;
          }
        if (weight->rank != 2)
          {
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "embedding weight must be 2-D");
            return FALSE;
          }
        return op_take (call, weight, index, 0, error);
      }

    case WB_IDX_EMBEDDING_BACKWARD:
      return op_embedding_backward (call, error);

    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

/* ---- copy_with_setitem -------------------------------------------------------------------------- */

/* copy_with_setitem (a, key, value): a copy of a with a[key] = value (a tensor or number that broadcasts
 * to the selected part). */
gboolean
_wb_cpu_copy_with_setitem (WbKernelCall *call, int op, GError **error)
{
  WbTensor  *a;
  WbRtValue *key = wb_kernel_call_get_arg (call, 1, "index"), *value = wb_kernel_call_get_arg (call, 2, "value");
  g_autoptr (WbTensor) out = NULL;
  g_autoptr (WbTensor) part = NULL;
  g_autoptr (WbTensor) src = NULL;
  g_autoptr (WbTensor) wide = NULL;
  gint64 bdims[WB_MAX_RANK];

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
    return FALSE;
  if (key == NULL || value == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "copy_with_setitem: needs an index and a value");
      return FALSE;
    }
  if ((out = wb_tensor_to_dtype (a, a->dtype, error)) == NULL || (part = wb_tensor_basic_index_view (out, key, error)) == NULL)
    return FALSE;
  if (value->kind == WB_RT_TENSOR)
    src = wb_tensor_ref (value->tensor);
  else if (value->kind == WB_RT_INT || value->kind == WB_RT_BOOL)
    src = wb_tensor_new_scalar (a->dtype, (double) (value->kind == WB_RT_INT ? value->i : value->b));
  else if (value->kind == WB_RT_FLOAT)
    src = wb_tensor_new_scalar (a->dtype, value->f);
  else
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "copy_with_setitem: the value must be a tensor or a number");
      return FALSE;
    }
  if (src->rank > part->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "copy_with_setitem: a rank-%u value does not fit a rank-%u selection", src->rank,
                   part->rank);
      return FALSE;
    }
  for (guint d = 0; d < src->rank; d++)
    bdims[d] = part->rank - src->rank + d;
  if ((wide = wb_tensor_broadcast_in_dim (src, part->rank, part->shape, bdims, error)) == NULL || !wb_tensor_copy_into (part, wide, error))
    return FALSE;
  return _wb_cpu_set_result (call, g_steal_pointer (&out));
}
