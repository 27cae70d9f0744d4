/* wb-cpu-shape.c — shape prims: broadcast_in_dim, reshape/view, transpose, slice, squeeze, cat, pad,
 * flip, unfold, stride_order, shape
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * broadcast_in_dim, transpose, slice, squeeze, unfold and (when strides allow) reshape return views
 * that share the input's storage; cat, pad and flip write new contiguous tensors, except where they are
 * the identity (a flip over dims of extent 1, a pad of zero widths, a cat of one tensor:
 * wb_bsym_get_identity_source, the rule the memory plan and the CUDA generator follow), which return the
 * argument itself. stride_order changes only the memory layout in Thunder, so values are returned
 * unchanged (a view). */
#include "config.h"

#include <string.h>

#include "wb-cpu-private.h"

static gboolean
arg_shape (WbKernelCall *call, guint pos, const char *name, gint64 *shape, guint *rank, GError **error)
{
  if (!_wb_cpu_arg_ints (call, pos, name, TRUE, shape, WB_MAX_RANK, rank, error))
    return FALSE;
  for (guint d = 0; d < *rank; d++)
    if (shape[d] < 0)
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                     "shape dim %u is %" G_GINT64_FORMAT, d, shape[d]);
        return FALSE;
      }
  return TRUE;
}

static gboolean
shape_cat (WbKernelCall *call, GError **error)
{
  WbRtValue *seq = wb_kernel_call_get_arg (call, 0, "tensors");
  gint64     dim, offset = 0;
  gint64     shape[WB_MAX_RANK];
  WbTensor  *first;
  WbDtype    dtype;
  g_autoptr (WbTensor) out = NULL;

  if (!wb_rt_value_is_sequence (seq) || seq->items->len == 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "cat takes a non-empty list of tensors");
      return FALSE;
    }
  for (guint i = 0; i < seq->items->len; i++)
    if (((WbRtValue *) seq->items->pdata[i])->kind != WB_RT_TENSOR)
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "cat: element %u is not a tensor", i);
        return FALSE;
      }
  first = ((WbRtValue *) seq->items->pdata[0])->tensor;
  if (!_wb_cpu_arg_int (call, 1, "dim", FALSE, 0, &dim, error) || !_wb_cpu_dim (dim, first->rank, &dim, error))
    return FALSE;
  if (_wb_cpu_identity (call, first)) /* one tensor: itself */
    return TRUE;
  memcpy (shape, first->shape, first->rank * sizeof (gint64));
  shape[dim] = 0;
  dtype = first->dtype;
  for (guint i = 0; i < seq->items->len; i++)
    {
      WbTensor *t = ((WbRtValue *) seq->items->pdata[i])->tensor;
      if (t->rank != first->rank)
        goto mismatch;
      for (guint d = 0; d < t->rank; d++)
        if (d != dim && t->shape[d] != first->shape[d])
          goto mismatch;
      shape[dim] += t->shape[dim];
      if (t->dtype != dtype)
        dtype = wb_dtype_promote (dtype, t->dtype);
    }
  out = wb_tensor_new (dtype, first->rank, shape, error);
  if (out == NULL)
    return FALSE;
  for (guint i = 0; i < seq->items->len; i++)
    {
      WbTensor *t = ((WbRtValue *) seq->items->pdata[i])->tensor;
      gint64    starts[WB_MAX_RANK] = { 0 }, ends[WB_MAX_RANK];
      g_autoptr (WbTensor) part = NULL;

      memcpy (ends, shape, first->rank * sizeof (gint64));
      starts[dim] = offset;
      ends[dim] = offset + t->shape[dim];
      offset = ends[dim];
      part = wb_tensor_slice (out, starts, ends, NULL, error);
      if (part == NULL || !wb_tensor_copy_into (part, t, error))
        return FALSE;
    }
  return _wb_cpu_set_result (call, g_steal_pointer (&out));

mismatch:
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
               "cat: tensors differ in rank or in a dim other than %" G_GINT64_FORMAT, dim);
  return FALSE;
}

/* pad(a, value, ((lo, hi, interior), ...)): lo/hi may be negative (cropping). */
static gboolean
shape_pad (WbKernelCall *call, WbTensor *a, GError **error)
{
  WbRtValue *cfg = wb_kernel_call_get_arg (call, 2, "padding_config");
  double     value;
  gint64     lo[WB_MAX_RANK], hi[WB_MAX_RANK], in[WB_MAX_RANK], shape[WB_MAX_RANK];
  gint64     starts[WB_MAX_RANK], ends[WB_MAX_RANK], steps[WB_MAX_RANK];
  gint64     sstarts[WB_MAX_RANK], sends[WB_MAX_RANK];
  g_autoptr (WbTensor) out = NULL;
  g_autoptr (WbTensor) dst = NULL;
  g_autoptr (WbTensor) src = NULL;
  g_autoptr (WbTensor) fill = NULL;

  if (!_wb_cpu_arg_number (call, 1, "padding_value", FALSE, 0, &value, error))
    return FALSE;
  if (_wb_cpu_identity (call, a)) /* zero widths: the argument itself */
    return TRUE;
  if (!wb_rt_value_is_sequence (cfg) || cfg->items->len != a->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "pad: padding_config needs one (lo, hi, interior) per dim (%u)", a->rank);
      return FALSE;
    }
  for (guint d = 0; d < a->rank; d++)
    {
      gint64 v[3];
      guint  n;
      if (!_wb_cpu_value_ints (cfg->items->pdata[d], FALSE, v, 3, &n) || n != 3 || v[2] < 0)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "pad: bad config for dim %u", d);
          return FALSE;
        }
      lo[d] = v[0], hi[d] = v[1], in[d] = v[2];
      shape[d] = a->shape[d] == 0 ? lo[d] + hi[d] : lo[d] + hi[d] + a->shape[d] + (a->shape[d] - 1) * in[d];
      if (shape[d] < 0)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "pad: dim %u becomes negative", d);
          return FALSE;
        }
    }
  out = wb_tensor_new (a->dtype, a->rank, shape, error);
  if (out == NULL)
    return FALSE;
  fill = wb_tensor_new_scalar (a->dtype, value);
  if (!wb_tensor_copy_into (out, fill, error))
    return FALSE;
  /* the interior-dilated source lands at lo, lo + (1 + in), ...; negative lo/hi crop it */
  for (guint d = 0; d < a->rank; d++)
    {
      gint64 step = in[d] + 1;
      gint64 first = 0, last = a->shape[d]; /* source indices kept: [first, last) */
      /* out position of source i: lo + i * step; keep 0 <= pos < shape */
      while (first < last && lo[d] + first * step < 0)
        first++;
      while (last > first && lo[d] + (last - 1) * step >= shape[d])
        last--;
      sstarts[d] = first;
      sends[d] = last;
      starts[d] = lo[d] + first * step;
      ends[d] = last > first ? lo[d] + (last - 1) * step + 1 : starts[d];
      steps[d] = step;
      if (last == first)
        return _wb_cpu_set_result (call, g_steal_pointer (&out));
    }
  dst = wb_tensor_slice (out, starts, ends, steps, error);
  src = dst ? wb_tensor_slice (a, sstarts, sends, NULL, error) : NULL;
  if (src == NULL || !wb_tensor_copy_into (dst, src, error))
    return FALSE;
  return _wb_cpu_set_result (call, g_steal_pointer (&out));
}

static gboolean
shape_flip (WbKernelCall *call, WbTensor *a, GError **error)
{
  gint64   dims[WB_MAX_RANK], strides[WB_MAX_RANK], offset = a->offset;
  guint    n;
  gboolean flip[WB_MAX_RANK] = { FALSE };
  g_autoptr (WbTensor) out = NULL;
  g_autoptr (WbTensor) view = NULL;

  if (!_wb_cpu_arg_ints (call, 1, "dims", TRUE, dims, WB_MAX_RANK, &n, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      gint64 d;
      if (!_wb_cpu_dim (dims[i], a->rank, &d, error))
        return FALSE;
      flip[d] = TRUE;
    }
  if (_wb_cpu_identity (call, a)) /* every flipped dim of extent 1: the argument itself */
    return TRUE;
  /* a negative-stride view, copied at once so that no negative stride escapes this function */
  for (guint d = 0; d < a->rank; d++)
    {
      strides[d] = a->strides[d];
      if (flip[d] && a->shape[d] > 1)
        {
          offset += (a->shape[d] - 1) * a->strides[d];
          strides[d] = -a->strides[d];
        }
    }
  view = wb_tensor_new_view (a, a->dtype, a->rank, a->shape, strides, offset);
  out = wb_tensor_new_like (a, error);
  if (out == NULL || !wb_tensor_copy_into (out, view, error))
    return FALSE;
  return _wb_cpu_set_result (call, g_steal_pointer (&out));
}

gboolean
_wb_cpu_shape (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;
  gint64    v1[WB_MAX_RANK], v2[WB_MAX_RANK], v3[WB_MAX_RANK];
  guint     n1 = 0, n2 = 0, n3 = 0;
  WbTensor *out = NULL;

  if (op == WB_SHAPE_CAT)
    return shape_cat (call, error);
  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
    return FALSE;

  switch (op)
    {
    case WB_SHAPE_BROADCAST_IN_DIM:
      if (!arg_shape (call, 1, "shape", v1, &n1, error) ||
          !_wb_cpu_arg_ints (call, 2, "broadcast_dimensions", TRUE, v2, WB_MAX_RANK, &n2, error))
        return FALSE;
      if (n2 != a->rank)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "broadcast_dimensions has %u entries for a rank-%u tensor", n2, a->rank);
          return FALSE;
        }
      out = wb_tensor_broadcast_in_dim (a, n1, v1, v2, error);
      break;

    case WB_SHAPE_RESHAPE:
      if (!arg_shape (call, 1, "shape", v1, &n1, error))
        return FALSE;
      out = wb_tensor_reshape (a, n1, v1, error);
      break;

    case WB_SHAPE_TRANSPOSE:
      if (!_wb_cpu_arg_ints (call, 1, "permutation", TRUE, v1, WB_MAX_RANK, &n1, error))
        return FALSE;
      if (n1 != a->rank)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "permutation has %u entries for a rank-%u tensor", n1, a->rank);
          return FALSE;
        }
      out = wb_tensor_permute (a, v1, error);
      break;

    case WB_SHAPE_SLICE:
      if (!_wb_cpu_arg_ints (call, 1, "start_indices", TRUE, v1, WB_MAX_RANK, &n1, error) ||
          !_wb_cpu_arg_ints (call, 2, "end_indices", TRUE, v2, WB_MAX_RANK, &n2, error))
        return FALSE;
      {
        WbRtValue *st = wb_kernel_call_get_arg (call, 3, "strides");
        if (st != NULL && st->kind != WB_RT_NONE &&
            !_wb_cpu_arg_ints (call, 3, "strides", TRUE, v3, WB_MAX_RANK, &n3, error))
          return FALSE;
      }
      if (n1 != a->rank || n2 != a->rank || (n3 != 0 && n3 != a->rank))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "slice needs one start, end (and stride) per dim of a rank-%u tensor", a->rank);
          return FALSE;
        }
      out = wb_tensor_slice (a, v1, v2, n3 ? v3 : NULL, error);
      break;

    case WB_SHAPE_SQUEEZE:
      {
        gboolean drop[WB_MAX_RANK] = { FALSE };
        gint64   st[WB_MAX_RANK];
        guint    r = 0;
        if (!_wb_cpu_arg_ints (call, 1, "dims", TRUE, v1, WB_MAX_RANK, &n1, error))
          return FALSE;
        for (guint i = 0; i < n1; i++)
          {
            gint64 d;
            if (!_wb_cpu_dim (v1[i], a->rank, &d, error))
              return FALSE;
            if (a->shape[d] != 1)
              {
                g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                             "squeeze of dim %" G_GINT64_FORMAT " of size %" G_GINT64_FORMAT, d, a->shape[d]);
                return FALSE;
              }
            drop[d] = TRUE;
          }
        for (guint d = 0; d < a->rank; d++)
          if (!drop[d])
            v2[r] = a->shape[d], st[r] = a->strides[d], r++;
        out = wb_tensor_new_view (a, a->dtype, r, v2, st, a->offset);
      }
      break;

    case WB_SHAPE_PAD:
      return shape_pad (call, a, error);

    case WB_SHAPE_FLIP:
      return shape_flip (call, a, error);

    case WB_SHAPE_UNFOLD:
      {
        gint64 dim, size, step, st[WB_MAX_RANK];
        if (!_wb_cpu_arg_int (call, 1, "dim", FALSE, 0, &dim, error) ||
            !_wb_cpu_arg_int (call, 2, "size", FALSE, 0, &size, error) ||
            !_wb_cpu_arg_int (call, 3, "step", FALSE, 0, &step, error) ||
            !_wb_cpu_dim (dim, a->rank, &dim, error))
          return FALSE;
        if (a->rank + 1 > WB_MAX_RANK || step < 1 || size < 0 || size > MAX (a->shape[dim], 1))
          {
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "unfold: bad size or step");
            return FALSE;
          }
        memcpy (v1, a->shape, a->rank * sizeof (gint64));
        memcpy (st, a->strides, a->rank * sizeof (gint64));
        v1[dim] = a->rank == 0 ? 1 : (a->shape[dim] - size) / step + 1;
        st[dim] = a->rank == 0 ? 1 : a->strides[dim] * step;
        v1[a->rank] = size;
        st[a->rank] = a->rank == 0 ? 1 : a->strides[dim];
        out = wb_tensor_new_view (a, a->dtype, a->rank + 1, v1, st, a->offset);
      }
      break;

    case WB_SHAPE_STRIDE_ORDER:
      out = wb_tensor_ref (a);
      break;

    case WB_SHAPE_SHAPE:
      {
        WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
        for (guint d = 0; d < a->rank; d++)
          wb_rt_value_append (tuple, wb_rt_value_new_int (a->shape[d]));
        call->result = tuple;
        return TRUE;
      }

    default:
      g_assert_not_reached ();
    }
  if (out == NULL)
    return FALSE;
  return _wb_cpu_set_result (call, out);
}
