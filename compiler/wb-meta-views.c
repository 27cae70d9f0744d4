/* wb-meta-views.c — meta functions of ltorch's view and split ops beyond reshape/permute: select,
 * diagonal, t, unbind, tensor_split, unflatten, repeat, atleast_1d/2d/3d, glu, view_as_real,
 * view_as_complex, and of the sort family (sort, argsort, torch_max, one_hot)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Source: the functions of the same names in thunder/torch/__init__.py, which follow PyTorch's shapes. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

/* Appends @a with dim @d removed. */
static gboolean
out_without_dim (WbMetaCall *call, const WbType *a, guint d, WbDtype dtype, GError **error)
{
  gint64 shape[MAXD];
  guint  r = 0;

  for (guint i = 0; i < a->rank; i++)
    if (i != d)
      shape[r++] = a->shape[i];
  return _wb_meta_out_shape (call, a, dtype, shape, r, error);
}

/* select (a, dim, index): dim removed. */
gboolean
_wb_meta_select (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim, index;
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (a.rank == 0 || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return a.rank == 0 ? _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot select from a 0-d tensor") : FALSE;
  if (_wb_meta_arg_int (call, 2, &index, NULL) && (index < -a.shape[d] || index >= a.shape[d]))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "index %" G_GINT64_FORMAT " is out of range for size %" G_GINT64_FORMAT,
                          index, a.shape[d]);
  return out_without_dim (call, &a, d, WB_DTYPE_UNKNOWN, error);
}

/* diagonal (a, offset=0, dim1=0, dim2=1): dim1 and dim2 removed, the diagonal's length appended. */
gboolean
_wb_meta_diagonal (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 offset = 0, d1 = 0, d2 = 1, shape[MAXD], len;
  guint  x, y, r = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &offset, error) || !_wb_meta_arg_int (call, 2, &d1, error) || !_wb_meta_arg_int (call, 3, &d2, error))
    return FALSE;
  if (a.rank < 2 || !_wb_meta_canonical_dim (call, d1, a.rank, &x, error) || !_wb_meta_canonical_dim (call, d2, a.rank, &y, error))
    return a.rank < 2 ? _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "needs a tensor of rank 2 or more") : FALSE;
  if (x == y)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim1 and dim2 are the same dim %u", x);
  for (guint i = 0; i < a.rank; i++)
    if (i != x && i != y)
      shape[r++] = a.shape[i];
  len = offset >= 0 ? MIN (a.shape[x], a.shape[y] - offset) : MIN (a.shape[x] + offset, a.shape[y]);
  shape[r++] = MAX (len, 0);
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
}

/* t (a): a 2-d tensor transposed; 0-d and 1-d tensors unchanged. */
gboolean
_wb_meta_t (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (a.rank > 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects a tensor of rank 2 or less, got %u", a.rank);
  if (a.rank == 2)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ a.shape[1], a.shape[0] }, 2, error);
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* unbind (a, dim=0): one tensor per index of dim, each without dim. */
gboolean
_wb_meta_unbind (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim = 0;
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (a.rank == 0 || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return a.rank == 0 ? _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot unbind a 0-d tensor") : FALSE;
  if (a.shape[d] > 4096)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "unbinding %" G_GINT64_FORMAT " tensors is more than supported", a.shape[d]);
  for (gint64 i = 0; i < a.shape[d]; i++)
    if (!out_without_dim (call, &a, d, WB_DTYPE_UNKNOWN, error))
      return FALSE;
  return TRUE;
}

/* tensor_split (a, indices_or_sections, dim=0): an int n gives n parts, the first size % n one longer;
 * a sequence gives the parts between the indices. */
gboolean
_wb_meta_tensor_split (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim = 0, n, idx[256], shape[MAXD], start = 0;
  guint  d, k;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  if (a.rank == 0 || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return a.rank == 0 ? _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot split a 0-d tensor") : FALSE;
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (_wb_meta_arg_int (call, 1, &n, NULL))
    {
      if (n <= 0 || n > 4096)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "cannot split into %" G_GINT64_FORMAT " sections", n);
      for (gint64 i = 0; i < n; i++)
        {
          shape[d] = a.shape[d] / n + (i < a.shape[d] % n ? 1 : 0);
          if (!_wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error))
            return FALSE;
        }
      return TRUE;
    }
  if (!_wb_meta_arg_ints (call, 1, idx, G_N_ELEMENTS (idx) - 1, &k, FALSE, error))
    return FALSE;
  idx[k] = a.shape[d];
  for (guint i = 0; i <= k; i++)
    {
      gint64 end = CLAMP (idx[i] < 0 ? idx[i] + a.shape[d] : idx[i], 0, a.shape[d]);
      shape[d] = MAX (end - start, 0);
      start = MAX (start, end);
      if (!_wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error))
        return FALSE;
    }
  return TRUE;
}

/* unflatten (a, dim, sizes): dim replaced by sizes (one -1 inferred). */
gboolean
_wb_meta_unflatten (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim, sizes[MAXD], shape[MAXD], known = 1;
  guint  d, n, r = 0;
  int    infer = -1;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error) || !_wb_meta_arg_ints (call, 2, sizes, MAXD, &n, FALSE, error))
    return FALSE;
  if (a.rank == 0 || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return a.rank == 0 ? _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot unflatten a 0-d tensor") : FALSE;
  for (guint i = 0; i < n; i++)
    if (sizes[i] == -1 && infer < 0)
      infer = (int) i;
    else
      known *= sizes[i];
  if (infer >= 0 && known > 0)
    sizes[infer] = a.shape[d] / known, known *= sizes[infer];
  if (known != a.shape[d])
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "sizes do not multiply to %" G_GINT64_FORMAT, a.shape[d]);
  for (guint i = 0; i < a.rank; i++)
    if (i == d)
      for (guint k = 0; k < n && r < MAXD; k++)
        shape[r++] = sizes[k];
    else if (r < MAXD)
      shape[r++] = a.shape[i];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank - 1 + n, error);
}

/* repeat (a, *repeats): repeats has at least a's rank; new leading dims come first. */
gboolean
_wb_meta_repeat (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 reps[MAXD], shape[MAXD];
  guint  n, lead;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_varargs_ints (call, reps, MAXD, &n, error))
    return FALSE;
  if (n < a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%u repeats for a rank-%u tensor", n, a.rank);
  lead = n - a.rank;
  for (guint i = 0; i < n; i++)
    shape[i] = reps[i] * (i < lead ? 1 : a.shape[i - lead]);
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, n, error);
}

/* atleast_1d/2d/3d (*args): each tensor argument with leading (1-d: none; 2-d: [1, n]; 3-d: [1, n, 1])
 * size-1 dims added up to the rank (meta_arg). Tensors in one sequence argument count as the args. */
gboolean
_wb_meta_atleast (WbMetaCall *call, GError **error)
{
  WbValue *const *args = call->varargs;
  guint           n = call->n_varargs, want = (guint) call->arg;

  if (n == 1 && args[0] != NULL && (args[0]->kind == WB_VALUE_TUPLE || args[0]->kind == WB_VALUE_LIST))
    {
      n = args[0]->n_items;
      args = args[0]->items;
    }
  for (guint i = 0; i < n; i++)
    {
      WbType a;
      gint64 shape[MAXD];
      guint  r = 0;

      if (!_wb_meta_value_tensor (call, args[i], "argument", &a, error))
        return FALSE;
      if (a.rank >= want)
        {
          _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
          continue;
        }
      if (a.rank == 0)
        for (; r < want; r++)
          shape[r] = 1;
      else if (want == 2 || a.rank == 2)
        {
          /* [n] -> [1, n]; [m, n] -> [m, n, 1] */
          if (a.rank == 1)
            shape[r++] = 1;
          memcpy (shape + r, a.shape, sizeof (gint64) * a.rank);
          r += a.rank;
          if (want == 3)
            shape[r++] = 1;
        }
      else
        {
          shape[r++] = 1;
          shape[r++] = a.shape[0];
          shape[r++] = 1;
        }
      if (!_wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error))
        return FALSE;
    }
  return TRUE;
}

/* glu (a, dim=-1): dim halved. */
gboolean
_wb_meta_glu (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim = -1, shape[MAXD];
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (a.rank == 0 || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return a.rank == 0 ? _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "glu needs a tensor of rank 1 or more") : FALSE;
  if (a.shape[d] % 2 != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim %u has odd size %" G_GINT64_FORMAT, d, a.shape[d]);
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[d] /= 2;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* view_as_real (a): complex [...] -> real [..., 2]; view_as_complex (a): real [..., 2] -> complex [...].
 * meta_arg 0: to real, 1: to complex. */
gboolean
_wb_meta_view_complex (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (call->arg == 0)
    {
      if (!wb_dtype_is_complex (a.dtype))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a complex tensor, got %s", wb_dtype_shortname (a.dtype));
      shape[a.rank] = 2;
      return _wb_meta_out_shape (call, &a, _wb_meta_real_dtype (a.dtype), shape, a.rank + 1, error);
    }
  if (a.rank == 0 || a.shape[a.rank - 1] != 2 || !wb_dtype_is_float (a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects a floating-point tensor whose last dim is 2");
  return _wb_meta_out_shape (call, &a, a.dtype == WB_DTYPE_FLOAT64 ? WB_DTYPE_COMPLEX128 : WB_DTYPE_COMPLEX64, shape, a.rank - 1, error);
}

/* ---- sort family -------------------------------------------------------------------------------- */

/* sort (a, dim=None, descending=False, stable=False): values and i64 indices; argsort: the indices.
 * meta_arg 0: sort, 1: argsort. dim None is the last dim. */
gboolean
_wb_meta_sort (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim = -1;
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (_wb_meta_arg_present (call, 1) && !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (call->arg == 0)
    _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  _wb_meta_out_like (call, &a, WB_DTYPE_INT64);
  return TRUE;
}

/* torch_max (a, dim=None, keepdim=False): with no dim the 0-d maximum; with a dim (values, i64 indices). */
gboolean
_wb_meta_torch_max (WbMetaCall *call, GError **error)
{
  WbType   a;
  gint64   dim, shape[MAXD];
  gboolean keepdim = FALSE;
  guint    d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!_wb_meta_arg_present (call, 1))
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, NULL, 0, error);
  if (!_wb_meta_arg_int (call, 1, &dim, error) || !_wb_meta_arg_bool (call, 2, FALSE, &keepdim, error) || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (!keepdim)
    return out_without_dim (call, &a, d, WB_DTYPE_UNKNOWN, error) && out_without_dim (call, &a, d, WB_DTYPE_INT64, error);
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (a.rank > 0)
    shape[d] = 1;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error) && _wb_meta_out_shape (call, &a, WB_DTYPE_INT64, shape, a.rank, error);
}

/* one_hot (a, num_classes): i64 [..., num_classes]; num_classes -1 (data-dependent) is refused. */
gboolean
_wb_meta_one_hot (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 n, shape[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &n, error))
    return FALSE;
  if (!wb_dtype_is_integer (a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects integer class indices, got %s", wb_dtype_shortname (a.dtype));
  if (n < 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "num_classes must be given (it is %" G_GINT64_FORMAT ")", n);
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[a.rank] = n;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_INT64, shape, a.rank + 1, error);
}
