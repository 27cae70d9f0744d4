/* wb-cpu-sort.c — topk and sort along one dim
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each slice along the dim is copied with its indices and ordered by a stable sort: largest first for
 * topk(largest=True) and sort(descending=True), smallest first otherwise; NaN counts as larger than any
 * number (PyTorch's order); ties keep the lower index first. Returns (values, indices int64). The
 * `sorted` flag of topk is honoured trivially (results are always sorted). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wb-cpu-private.h"

typedef struct
{
  double v;
  gint64 i;
} Item;

static int
cmp_ascending (const void *pa, const void *pb)
{
  const Item *a = pa, *b = pb;
  gboolean    na = isnan (a->v), nb = isnan (b->v);

  if (na != nb)
    return na ? 1 : -1;
  if (!na && a->v != b->v)
    return a->v < b->v ? -1 : 1;
  return a->i < b->i ? -1 : (a->i > b->i);
}

static int
cmp_descending (const void *pa, const void *pb)
{
  const Item *a = pa, *b = pb;
  gboolean    na = isnan (a->v), nb = isnan (b->v);

  if (na != nb)
    return na ? -1 : 1;
  if (!na && a->v != b->v)
    return a->v > b->v ? -1 : 1;
  return a->i < b->i ? -1 : (a->i > b->i);
}

typedef struct
{
  const WbTensor *a; /* permuted: dim last */
  gint64          n; /* slice length */
  gint64          k; /* kept */
  gboolean        desc;
  double         *vals; /* rows x k */
  gint64         *inds;
} SortJob;

static void
sort_rows (gint64 begin, gint64 end, gpointer data)
{
  SortJob *job = data;
  Item    *items = g_new (Item, MAX (job->n, 1));
  double  *buf = g_new (double, MAX (job->n, 1));

  for (gint64 r = begin; r < end; r++)
    {
      gint64 off = job->a->offset, rem = r;
      for (int d = (int) job->a->rank - 2; d >= 0; d--)
        {
          off += (rem % job->a->shape[d]) * job->a->strides[d];
          rem /= job->a->shape[d];
        }
      _wb_load_f64 (buf, _wb_elem_ptr (job->a, off), job->a->dtype, job->a->strides[job->a->rank - 1], (gsize) job->n);
      for (gint64 i = 0; i < job->n; i++)
        items[i].v = buf[i], items[i].i = i;
      qsort (items, (gsize) job->n, sizeof (Item), job->desc ? cmp_descending : cmp_ascending);
      for (gint64 i = 0; i < job->k; i++)
        {
          job->vals[r * job->k + i] = items[i].v;
          job->inds[r * job->k + i] = items[i].i;
        }
    }
  g_free (items);
  g_free (buf);
}

gboolean
_wb_cpu_sort (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;
  gint64    k = 0, dim, perm[WB_MAX_RANK], shape[WB_MAX_RANK], rows;
  gboolean  desc;
  SortJob   job = { 0 };
  g_autoptr (WbTensor) view = NULL;
  g_autoptr (WbTensor) values = NULL;
  g_autoptr (WbTensor) indices = NULL;
  g_autofree double *vals = NULL;
  g_autofree gint64 *inds = NULL;
  WbRtValue         *tuple;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
    return FALSE;
  if (op == WB_SORT_TOPK)
    {
      if (!_wb_cpu_arg_int (call, 1, "k", FALSE, 0, &k, error) || !_wb_cpu_arg_int (call, 2, "dim", TRUE, -1, &dim, error) ||
          !_wb_cpu_arg_bool (call, 3, "largest", TRUE, TRUE, &desc, error))
        return FALSE;
    }
  else if (!_wb_cpu_arg_int (call, 1, "dim", TRUE, -1, &dim, error) ||
           !_wb_cpu_arg_bool (call, 2, "descending", TRUE, FALSE, &desc, error))
    return FALSE;
  if (!_wb_cpu_check_dtype (call, a->dtype, WB_DT_ALL, error))
    return FALSE;
  if (a->rank == 0)
    {
      /* a 0-d tensor: one element */
      view = wb_tensor_new_view (a, a->dtype, 1, (gint64[]){ 1 }, (gint64[]){ 1 }, a->offset);
      dim = 0;
    }
  else
    {
      if (!_wb_cpu_dim (dim, a->rank, &dim, error))
        return FALSE;
      for (guint d = 0, j = 0; d < a->rank; d++)
        if (d != dim)
          perm[j++] = d;
      perm[a->rank - 1] = dim;
      view = wb_tensor_permute (a, perm, error);
      if (view == NULL)
        return FALSE;
    }
  job.a = view;
  job.n = view->shape[view->rank - 1];
  job.k = op == WB_SORT_TOPK ? k : job.n;
  if (job.k < 0 || job.k > job.n)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "topk: k = %" G_GINT64_FORMAT " is out of range for a dim of %" G_GINT64_FORMAT, job.k, job.n);
      return FALSE;
    }
  job.desc = desc;
  rows = _wb_cpu_numel (view->rank - 1, view->shape);
  vals = g_new (double, MAX (rows * job.k, 1));
  inds = g_new (gint64, MAX (rows * job.k, 1));
  job.vals = vals;
  job.inds = inds;
  _wb_parallel_for (rows, 16, sort_rows, &job);

  /* results: [others..., k] then moved back so that k sits at dim */
  memcpy (shape, view->shape, view->rank * sizeof (gint64));
  shape[view->rank - 1] = job.k;
  values = wb_tensor_new (a->dtype, view->rank, shape, error);
  indices = values ? wb_tensor_new (WB_DTYPE_INT64, view->rank, shape, error) : NULL;
  if (indices == NULL)
    return FALSE;
  _wb_store_f64 (wb_tensor_get_data (values), a->dtype, 1, vals, (gsize) (rows * job.k));
  memcpy (wb_tensor_get_data (indices), inds, (gsize) (rows * job.k) * sizeof (gint64));
  if (a->rank > 0 && dim != a->rank - 1)
    {
      gint64 inv[WB_MAX_RANK];
      for (guint d = 0; d < a->rank; d++)
        inv[perm[d]] = d;
      {
        g_autoptr (WbTensor) pv = wb_tensor_permute (values, inv, error);
        g_autoptr (WbTensor) pi = wb_tensor_permute (indices, inv, error);
        g_clear_pointer (&values, wb_tensor_unref);
        g_clear_pointer (&indices, wb_tensor_unref);
        values = wb_tensor_contiguous (pv, error);
        indices = wb_tensor_contiguous (pi, error);
      }
    }
  else if (a->rank == 0)
    {
      g_autoptr (WbTensor) v0 = wb_tensor_try_view (values, 0, NULL);
      g_autoptr (WbTensor) i0 = wb_tensor_try_view (indices, 0, NULL);
      g_clear_pointer (&values, wb_tensor_unref);
      g_clear_pointer (&indices, wb_tensor_unref);
      values = g_steal_pointer (&v0);
      indices = g_steal_pointer (&i0);
    }
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&values)));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&indices)));
  call->result = tuple;
  return TRUE;
}
