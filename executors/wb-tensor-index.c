/* wb-tensor-index.c — the view that basic indexing selects (wb_tensor_basic_index_view, wb-tensor.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Python's and PyTorch's basic indexing: ints (negative from the end) drop their dim, slices (Python's
 * slice.indices() clamping, positive steps) keep it, one Ellipsis stands for the dims no item names. Only the
 * layout is computed, so the view works on host and device tensors alike (the cpu's and the GPU's
 * copy_with_setitem). */
#include "config.h"

#include "wb-executors-private.h"

/* Python's slice.indices(): @start, @stop, @step of a slice over a dim of @size, clamped. */
static gboolean
slice_bounds (const WbRtValue *s, gint64 size, gint64 *start, gint64 *stop, gint64 *step, GError **error)
{
  const WbRtValue *v[3];

  for (guint i = 0; i < 3; i++)
    v[i] = i < wb_rt_value_get_n_items (s) ? wb_rt_value_get_item (s, i) : NULL;
  *step = v[2] && v[2]->kind == WB_RT_INT ? v[2]->i : 1;
  if (*step <= 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "setitem: slice steps must be positive");
      return FALSE;
    }
  *start = v[0] && v[0]->kind == WB_RT_INT ? v[0]->i : 0;
  *stop = v[1] && v[1]->kind == WB_RT_INT ? v[1]->i : size;
  if (*start < 0)
    *start += size;
  if (*stop < 0)
    *stop += size;
  *start = CLAMP (*start, 0, size);
  *stop = CLAMP (*stop, *start, size);
  return TRUE;
}

WbTensor *
wb_tensor_basic_index_view (WbTensor *t, const WbRtValue *key, GError **error)
{
  gint64   starts[WB_MAX_RANK], ends[WB_MAX_RANK], steps[WB_MAX_RANK], shape[WB_MAX_RANK], strides[WB_MAX_RANK];
  gboolean drop[WB_MAX_RANK] = { FALSE };
  guint    n = key->kind == WB_RT_TUPLE || key->kind == WB_RT_LIST ? wb_rt_value_get_n_items (key) : 1, dim = 0, rank = 0;
  g_autoptr (WbTensor) sliced = NULL;

  for (guint d = 0; d < t->rank; d++)
    starts[d] = 0, ends[d] = t->shape[d], steps[d] = 1;
  for (guint k = 0; k < n; k++)
    {
      const WbRtValue *item = n == 1 && key->kind != WB_RT_TUPLE && key->kind != WB_RT_LIST ? key : wb_rt_value_get_item (key, k);
      if (item->kind == WB_RT_ELLIPSIS)
        {
          dim = t->rank - (n - k - 1);
          continue;
        }
      if (dim >= t->rank)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "setitem: too many indices for a rank-%u tensor", t->rank);
          return NULL;
        }
      if (item->kind == WB_RT_INT)
        {
          gint64 i = item->i < 0 ? item->i + t->shape[dim] : item->i;
          if (i < 0 || i >= t->shape[dim])
            {
              g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "setitem: index %" G_GINT64_FORMAT " is out of range for size %" G_GINT64_FORMAT,
                           item->i, t->shape[dim]);
              return NULL;
            }
          starts[dim] = i, ends[dim] = i + 1, drop[dim] = TRUE;
        }
      else if (item->kind == WB_RT_SLICE)
        {
          if (!slice_bounds (item, t->shape[dim], &starts[dim], &ends[dim], &steps[dim], error))
            return NULL;
        }
      else
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "setitem: only ints, slices and ... index (not tensors or None)");
          return NULL;
        }
      dim++;
    }
  if ((sliced = wb_tensor_slice (t, starts, ends, steps, error)) == NULL)
    return NULL;
  for (guint d = 0; d < sliced->rank; d++)
    if (!drop[d])
      shape[rank] = sliced->shape[d], strides[rank++] = sliced->strides[d];
  return wb_tensor_new_view (sliced, sliced->dtype, rank, shape, strides, sliced->offset);
}
