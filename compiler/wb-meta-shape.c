/* wb-meta-shape.c — meta functions of shape prims (explicit: broadcast_in_dim, reshape, slice_prim, pad, ...)
 * and of ltorch shape ops (reshape with -1, expand, permute, split, cat with promotion, ...)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: thunder/core/prims.py (*_meta), thunder/torch/__init__.py, thunder/clang/__init__.py. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

static void
format_shape (GString *s, const gint64 *shape, guint rank)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < rank; i++)
    g_string_append_printf (s, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, shape[i]);
  g_string_append_c (s, ']');
}

static char *
shape_str (const gint64 *shape, guint rank)
{
  GString *s = g_string_new (NULL);
  format_shape (s, shape, rank);
  return g_string_free (s, FALSE);
}

static gint64
numel (const gint64 *shape, guint rank)
{
  gint64 n = 1;
  for (guint i = 0; i < rank; i++)
    n *= shape[i];
  return n;
}

static gboolean
check_permutation (WbMetaCall *call, const gint64 *perm, guint n, guint rank, GError **error)
{
  gboolean seen[MAXD] = { FALSE };

  if (n != rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "permutation of length %u for rank %u", n, rank);
  for (guint i = 0; i < n; i++)
    {
      if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid permutation for rank %u", rank);
      seen[perm[i]] = TRUE;
    }
  return TRUE;
}

/* ---- prims -------------------------------------------------------------------------------------- */

gboolean
_wb_meta_prim_broadcast_in_dim (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD], bdims[MAXD];
  guint  ns, nb;
  gint64 prev = -1;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, shape, MAXD, &ns, FALSE, error) || !_wb_meta_arg_ints (call, 2, bdims, MAXD, &nb, FALSE, error))
    return FALSE;
  if (nb != a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%u broadcast dimensions for an input of rank %u", nb, a.rank);
  for (guint k = 0; k < nb; k++)
    {
      gint64 idx = bdims[k];
      if (idx <= prev || idx >= ns)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "broadcast dimensions must increase and be below %u", ns);
      prev = idx;
      if (a.shape[k] != 1 && shape[idx] != a.shape[k])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                              "input dim %u of length %" G_GINT64_FORMAT " cannot broadcast to length %" G_GINT64_FORMAT,
                              k, a.shape[k], shape[idx]);
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, ns, error);
}

static gboolean
cat_shapes (WbMetaCall *call, guint tensors_param, gint64 dim, gboolean promote, GError **error)
{
  WbValue *const *items;
  guint           n;
  WbType          ts[64], out;
  guint           d;

  if (!_wb_meta_arg_items (call, tensors_param, &items, &n, error))
    return FALSE;
  if (n == 0 || n > G_N_ELEMENTS (ts))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "expects between 1 and %u tensors", (guint) G_N_ELEMENTS (ts));
  for (guint i = 0; i < n; i++)
    if (!_wb_meta_value_tensor (call, items[i], "tensors", &ts[i], error))
      return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, ts[0].rank, &d, error))
    return FALSE;
  if (ts[0].rank == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "zero-dimensional tensors cannot be concatenated");
  out = ts[0];
  out.text = NULL;
  for (guint i = 1; i < n; i++)
    {
      if (ts[i].rank != out.rank)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "tensor %u has rank %u, expected %u", i, ts[i].rank, out.rank);
      if (!promote && ts[i].dtype != ts[0].dtype)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dtypes differ: %s and %s",
                              wb_dtype_shortname (ts[0].dtype), wb_dtype_shortname (ts[i].dtype));
      if (!wb_device_equal (&ts[i].device, &ts[0].device))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "devices differ");
      for (guint k = 0; k < out.rank; k++)
        if (k != d && ts[i].shape[k] != out.shape[k])
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                                "expected size %" G_GINT64_FORMAT " but got %" G_GINT64_FORMAT " at dim %u of tensor %u",
                                out.shape[k], ts[i].shape[k], k, i);
      out.shape[d] += ts[i].shape[d];
    }
  if (promote)
    {
      WbDtype  dtype;
      gboolean weak;
      if (!_wb_meta_promote (call, ts, n, WB_PROMOTE_PRESERVE, &dtype, &weak, error))
        return FALSE;
      out.dtype = dtype;
      out.weak = weak;
    }
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_prim_cat (WbMetaCall *call, GError **error)
{
  gint64 dim;

  if (!_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  return cat_shapes (call, 0, dim, FALSE, error);
}

gboolean
_wb_meta_prim_flip (WbMetaCall *call, GError **error)
{
  WbType   a;
  gint64   dims[MAXD];
  guint    n;
  gboolean seen[MAXD] = { FALSE };

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, dims, MAXD, &n, FALSE, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (dims[i] < 0 || dims[i] >= a.rank || seen[dims[i]])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid flip dims for rank %u", a.rank);
      seen[dims[i]] = TRUE;
    }
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_prim_pad (WbMetaCall *call, GError **error)
{
  WbType          a, value;
  WbValue *const *cfg;
  guint           n;
  gint64          shape[MAXD];
  WbTypeKind      want;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_type (call, 1, &value, error) || !_wb_meta_arg_items (call, 2, &cfg, &n, error))
    return FALSE;
  switch (wb_dtype_kind (a.dtype))
    {
    case WB_DTYPE_KIND_BOOL:
      want = WB_TYPE_BOOL;
      break;
    case WB_DTYPE_KIND_FLOAT:
      want = WB_TYPE_FLOAT;
      break;
    case WB_DTYPE_KIND_COMPLEX:
      want = WB_TYPE_COMPLEX;
      break;
    default:
      want = WB_TYPE_INT;
    }
  if (value.kind != want && !(value.kind == WB_TYPE_TENSOR && value.dtype == a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "padding value does not match dtype %s",
                          wb_dtype_shortname (a.dtype));
  if (n != a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%u padding configs for rank %u", n, a.rank);
  for (guint i = 0; i < n; i++)
    {
      gint64 c[3];
      guint  k;
      if (!_wb_meta_value_ints (call, cfg[i], c, 3, &k, FALSE) || k != 3)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "padding config %u is not (lo, hi, interior)", i);
      shape[i] = a.shape[i] + MAX (0, a.shape[i] - 1) * c[2] + c[0] + c[1];
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, n, error);
}

gboolean
_wb_meta_prim_reshape (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, shape, MAXD, &n, FALSE, error))
    return FALSE;
  if (numel (shape, n) != wb_type_numel (&a))
    {
      g_autofree char *x = shape_str (a.shape, a.rank), *y = shape_str (shape, n);
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot reshape %s to %s", x, y);
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, n, error);
}

gboolean
_wb_meta_prim_slice (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 start[MAXD], end[MAXD], strides[MAXD], shape[MAXD];
  guint  n1, n2, n3;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, start, MAXD, &n1, FALSE, error) || !_wb_meta_arg_ints (call, 2, end, MAXD, &n2, FALSE, error))
    return FALSE;
  if (_wb_meta_arg_present (call, 3))
    {
      if (!_wb_meta_arg_ints (call, 3, strides, MAXD, &n3, FALSE, error))
        return FALSE;
    }
  else
    {
      n3 = a.rank;
      for (guint i = 0; i < n3 && i < MAXD; i++)
        strides[i] = 1;
    }
  if (n1 != a.rank || n2 != a.rank || n3 != a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "start, end and strides need %u entries", a.rank);
  for (guint i = 0; i < a.rank; i++)
    {
      if (start[i] < 0 || start[i] > end[i] || end[i] > a.shape[i] || strides[i] < 1)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                              "invalid slice %" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT
                              " of dim %u with length %" G_GINT64_FORMAT,
                              start[i], end[i], strides[i], i, a.shape[i]);
      shape[i] = (end[i] - start[i] + strides[i] - 1) / strides[i];
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_prim_squeeze (WbMetaCall *call, GError **error)
{
  WbType   a;
  gint64   dims[MAXD], shape[MAXD];
  guint    n, r = 0;
  gboolean drop[MAXD] = { FALSE };

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, dims, MAXD, &n, FALSE, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (dims[i] < 0 || dims[i] >= a.rank || drop[dims[i]])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid squeeze dims for rank %u", a.rank);
      if (a.shape[dims[i]] != 1)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot squeeze dim %" G_GINT64_FORMAT " of length %" G_GINT64_FORMAT,
                              dims[i], a.shape[dims[i]]);
      drop[dims[i]] = TRUE;
    }
  for (guint i = 0; i < a.rank; i++)
    if (!drop[i])
      shape[r++] = a.shape[i];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
}

gboolean
_wb_meta_prim_transpose (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 perm[MAXD], shape[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, perm, MAXD, &n, FALSE, error))
    return FALSE;
  if (!check_permutation (call, perm, n, a.rank, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    shape[i] = a.shape[perm[i]];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, n, error);
}

gboolean
_wb_meta_prim_unfold (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim, size, step, shape[MAXD];
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error) || !_wb_meta_arg_int (call, 2, &size, error) || !_wb_meta_arg_int (call, 3, &step, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (step <= 0 || size < 0 || (a.rank > 0 && size > a.shape[d]))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid unfold size %" G_GINT64_FORMAT " step %" G_GINT64_FORMAT,
                          size, step);
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (a.rank == 0)
    {
      shape[0] = size;
      return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, 1, error);
    }
  shape[d] = (shape[d] - size) / step + 1;
  shape[a.rank] = size;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank + 1, error);
}

/* ---- ltorch ------------------------------------------------------------------------------------- */

/* Infers one -1 entry of @shape from @total elements. */
static gboolean
infer_shape (WbMetaCall *call, gint64 *shape, guint n, gint64 total, GError **error)
{
  gint64 known = 1;
  int    infer = -1;

  for (guint i = 0; i < n; i++)
    {
      if (shape[i] == -1)
        {
          if (infer >= 0)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "only one dimension can be inferred");
          infer = (int) i;
        }
      else if (shape[i] < 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid dimension %" G_GINT64_FORMAT, shape[i]);
      else
        known *= shape[i];
    }
  if (infer >= 0)
    {
      if (known == 0 || total % known != 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot infer a dimension for %" G_GINT64_FORMAT " elements", total);
      shape[infer] = total / known;
      known = total;
    }
  if (known != total)
    {
      g_autofree char *y = shape_str (shape, n);
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot reshape %" G_GINT64_FORMAT " elements to %s", total, y);
    }
  return TRUE;
}

gboolean
_wb_meta_reshape (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_varargs_ints (call, shape, MAXD, &n, error))
    return FALSE;
  if (!infer_shape (call, shape, n, wb_type_numel (&a), error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, n, error);
}

gboolean
_wb_meta_view_as (WbMetaCall *call, GError **error)
{
  WbType a, b;
  gint64 shape[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  memcpy (shape, b.shape, sizeof (gint64) * b.rank);
  if (!infer_shape (call, shape, b.rank, wb_type_numel (&a), error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, b.rank, error);
}

static gboolean
expand_to (WbMetaCall *call, const WbType *a, gint64 *shape, guint n, GError **error)
{
  if (n < a->rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot expand rank %u to rank %u", a->rank, n);
  for (guint i = 0; i < n; i++)
    {
      gint64 have;
      if (i < n - a->rank)
        {
          if (shape[i] < 0)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "-1 is not allowed for a new leading dimension");
          continue;
        }
      have = a->shape[i - (n - a->rank)];
      if (shape[i] == -1)
        shape[i] = have;
      else if (have != 1 && have != shape[i])
        {
          g_autofree char *x = shape_str (a->shape, a->rank), *y = shape_str (shape, n);
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot expand %s to %s", x, y);
        }
    }
  return _wb_meta_out_shape (call, a, WB_DTYPE_UNKNOWN, shape, n, error);
}

gboolean
_wb_meta_expand (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_varargs_ints (call, shape, MAXD, &n, error))
    return FALSE;
  return expand_to (call, &a, shape, n, error);
}

gboolean
_wb_meta_expand_as (WbMetaCall *call, GError **error)
{
  WbType a, b;
  gint64 shape[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  memcpy (shape, b.shape, sizeof (gint64) * b.rank);
  return expand_to (call, &a, shape, b.rank, error);
}

gboolean
_wb_meta_unsqueeze (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim, shape[MAXD];
  guint  d, r = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank + 1, &d, error))
    return FALSE;
  for (guint i = 0; i <= a.rank; i++)
    {
      if (i == d)
        shape[r++] = 1;
      if (i < a.rank)
        shape[r++] = a.shape[i];
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank + 1, error);
}

gboolean
_wb_meta_squeeze (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean mask[WB_MAX_RANK];
  gint64   shape[MAXD];
  guint    r = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_reduction_dims (call, 1, a.rank, mask, error))
    return FALSE;
  for (guint i = 0; i < a.rank; i++)
    if (!(mask[i] && a.shape[i] == 1))
      shape[r++] = a.shape[i];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
}

gboolean
_wb_meta_permute (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 perm[MAXD], shape[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_varargs_ints (call, perm, MAXD, &n, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint d;
      if (!_wb_meta_canonical_dim (call, perm[i], a.rank, &d, error))
        return FALSE;
      perm[i] = d;
    }
  if (!check_permutation (call, perm, n, a.rank, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    shape[i] = a.shape[perm[i]];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, n, error);
}

gboolean
_wb_meta_transpose (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 d0, d1, shape[MAXD], tmp;
  guint  x, y;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &d0, error) || !_wb_meta_arg_int (call, 2, &d1, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, d0, a.rank, &x, error) || !_wb_meta_canonical_dim (call, d1, a.rank, &y, error))
    return FALSE;
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (a.rank > 0)
    {
      tmp = shape[x];
      shape[x] = shape[y];
      shape[y] = tmp;
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_movedim (WbMetaCall *call, GError **error)
{
  WbType   a;
  gint64   src[MAXD], dst[MAXD], shape[MAXD];
  guint    ns, nd, order[MAXD];
  gboolean used_src[MAXD] = { FALSE }, used_dst[MAXD] = { FALSE };
  guint    next = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, src, MAXD, &ns, TRUE, error) || !_wb_meta_arg_ints (call, 2, dst, MAXD, &nd, TRUE, error))
    return FALSE;
  if (ns != nd)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "source and destination differ in length");
  for (guint i = 0; i < ns; i++)
    {
      guint s, d;
      if (!_wb_meta_canonical_dim (call, src[i], a.rank, &s, error) || !_wb_meta_canonical_dim (call, dst[i], a.rank, &d, error))
        return FALSE;
      if (used_src[s] || used_dst[d])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "repeated dim");
      used_src[s] = used_dst[d] = TRUE;
      order[d] = s;
    }
  for (guint d = 0; d < a.rank; d++)
    if (!used_dst[d])
      {
        while (next < a.rank && used_src[next])
          next++;
        order[d] = next++;
      }
  for (guint d = 0; d < a.rank; d++)
    shape[d] = a.shape[order[d]];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_flatten (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 s, e, shape[MAXD];
  guint  x, y, r = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &s, error) || !_wb_meta_arg_int (call, 2, &e, error))
    return FALSE;
  if (a.rank == 0)
    {
      shape[0] = 1;
      return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, 1, error);
    }
  if (!_wb_meta_canonical_dim (call, s, a.rank, &x, error) || !_wb_meta_canonical_dim (call, e, a.rank, &y, error))
    return FALSE;
  if (y < x)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "end_dim comes before start_dim");
  for (guint i = 0; i < x; i++)
    shape[r++] = a.shape[i];
  shape[r++] = numel (a.shape + x, y - x + 1);
  for (guint i = y + 1; i < a.rank; i++)
    shape[r++] = a.shape[i];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
}

gboolean
_wb_meta_flip (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dims[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_varargs_ints (call, dims, MAXD, &n, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint d;
      if (!_wb_meta_canonical_dim (call, dims[i], a.rank, &d, error))
        return FALSE;
    }
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_cat (WbMetaCall *call, GError **error)
{
  gint64 dim;

  if (!_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  return cat_shapes (call, 0, dim, TRUE, error);
}

gboolean
_wb_meta_stack (WbMetaCall *call, GError **error)
{
  WbValue *const *items;
  guint           n, d;
  gint64          dim, shape[MAXD];
  WbType          first, t;

  if (!_wb_meta_arg_items (call, 0, &items, &n, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (n == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "expects a non-empty list of tensors");
  if (!_wb_meta_value_tensor (call, items[0], "tensors", &first, error))
    return FALSE;
  for (guint i = 1; i < n; i++)
    {
      if (!_wb_meta_value_tensor (call, items[i], "tensors", &t, error))
        return FALSE;
      if (t.rank != first.rank || memcmp (t.shape, first.shape, sizeof (gint64) * t.rank) != 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "stack expects tensors of equal shape");
    }
  if (!_wb_meta_canonical_dim (call, dim, first.rank + 1, &d, error))
    return FALSE;
  for (guint i = 0, r = 0; i <= first.rank; i++)
    {
      if (i == d)
        shape[r++] = n;
      if (i < first.rank)
        shape[r++] = first.shape[i];
    }
  return _wb_meta_out_shape (call, &first, WB_DTYPE_UNKNOWN, shape, first.rank + 1, error);
}

/* Splits dim @d of @a into pieces of @sizes (list output). */
static gboolean
out_pieces (WbMetaCall *call, const WbType *a, guint d, const gint64 *sizes, guint n, GError **error)
{
  gint64 shape[MAXD];

  memcpy (shape, a->shape, sizeof (gint64) * a->rank);
  for (guint i = 0; i < n; i++)
    {
      shape[d] = sizes[i];
      if (!_wb_meta_out_shape (call, a, WB_DTYPE_UNKNOWN, shape, a->rank, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
_wb_meta_split (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim, sizes[256], total = 0;
  guint  d, n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (a.rank == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot split a zero-dimensional tensor");
  if (call->params[1] != NULL && (call->params[1]->kind == WB_VALUE_TUPLE || call->params[1]->kind == WB_VALUE_LIST))
    {
      if (!_wb_meta_arg_ints (call, 1, sizes, G_N_ELEMENTS (sizes), &n, FALSE, error))
        return FALSE;
      for (guint i = 0; i < n; i++)
        total += sizes[i];
      if (total != a.shape[d])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                              "split sizes add up to %" G_GINT64_FORMAT ", not %" G_GINT64_FORMAT, total, a.shape[d]);
      return out_pieces (call, &a, d, sizes, n, error);
    }
  else
    {
      gint64 size;
      if (!_wb_meta_arg_int (call, 1, &size, error))
        return FALSE;
      if (size <= 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "split size must be positive");
      n = 0;
      for (gint64 off = 0; off < a.shape[d] || (a.shape[d] == 0 && n == 0); off += size)
        {
          if (n == G_N_ELEMENTS (sizes))
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "more than %u pieces", n);
          sizes[n++] = MIN (size, a.shape[d] - off);
        }
      return out_pieces (call, &a, d, sizes, n, error);
    }
}

gboolean
_wb_meta_chunk (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 chunks, dim, sizes[256], size;
  guint  d, n = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &chunks, error) || !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (chunks <= 0 || a.rank == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid chunk count or rank");
  size = (a.shape[d] + chunks - 1) / chunks;
  if (size == 0)
    size = 1;
  for (gint64 off = 0; off < a.shape[d] && n < G_N_ELEMENTS (sizes); off += size)
    sizes[n++] = MIN (size, a.shape[d] - off);
  return out_pieces (call, &a, d, sizes, n, error);
}

gboolean
_wb_meta_pad (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 pad[2 * MAXD], shape[MAXD];
  guint  n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_ints (call, 1, pad, G_N_ELEMENTS (pad), &n, FALSE, error))
    return FALSE;
  if (n % 2 != 0 || n / 2 > a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "padding of length %u for rank %u", n, a.rank);
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  for (guint i = 0; i < n / 2; i++)
    shape[a.rank - 1 - i] += pad[2 * i] + pad[2 * i + 1];
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}
