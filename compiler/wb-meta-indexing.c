/* wb-meta-indexing.c — meta functions of indexing and sorting: take, take_along_axis, gather, scatter-like
 * prims, topk, sort, getitem (basic and advanced indexing), take_along_dim, index_select,
 * repeat_interleave, tril/triu
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: thunder/core/prims.py, thunder/clang/__init__.py (getitem, _basic_indexing,
 * _advanced_indexing), thunder/torch/__init__.py. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

static gboolean
check_index_dtype (WbMetaCall *call, const WbType *index, GError **error)
{
  if (!wb_dtype_is_integer (index->dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "index must have an integer dtype, not %s",
                          wb_dtype_shortname (index->dtype));
  return TRUE;
}

/* ---- prims -------------------------------------------------------------------------------------- */

gboolean
_wb_meta_prim_take (WbMetaCall *call, GError **error)
{
  WbType a, index;
  gint64 dim, shape[MAXD];
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &index, error) || !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  if (!check_index_dtype (call, &index, error))
    return FALSE;
  if (a.rank == 0 || dim < 0 || dim >= a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim %" G_GINT64_FORMAT " is invalid for rank %u", dim, a.rank);
  d = (guint) dim;
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[d] = index.rank == 1 ? index.shape[0] : 1;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* take_along_axis (meta_arg 0): index matches a except at dim; gather (meta_arg 1): index no larger. */
gboolean
_wb_meta_prim_take_along_axis (WbMetaCall *call, GError **error)
{
  WbType a, index;
  gint64 dim;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &index, error) || !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  if (!check_index_dtype (call, &index, error))
    return FALSE;
  if (dim < 0 || dim >= a.rank || index.rank != a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "index rank %u, input rank %u, dim %" G_GINT64_FORMAT,
                          index.rank, a.rank, dim);
  for (guint i = 0; i < a.rank; i++)
    if (i != dim && (call->arg == 1 ? index.shape[i] > a.shape[i] : index.shape[i] != a.shape[i]))
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                            "index length %" G_GINT64_FORMAT " does not fit input length %" G_GINT64_FORMAT " at dim %u",
                            index.shape[i], a.shape[i], i);
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, index.shape, index.rank, error);
}

gboolean
_wb_meta_prim_scatter_like (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

static gboolean
topk_like (WbMetaCall *call, const WbType *a, gint64 k, gint64 dim, GError **error)
{
  gint64 shape[MAXD];
  guint  d = 0;

  memcpy (shape, a->shape, sizeof (gint64) * a->rank);
  if (a->rank > 0)
    {
      if (!_wb_meta_canonical_dim (call, dim, a->rank, &d, error))
        return FALSE;
      if (k < 0 || k > a->shape[d])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "k=%" G_GINT64_FORMAT " is out of range for length %" G_GINT64_FORMAT,
                              k, a->shape[d]);
      shape[d] = k;
    }
  return _wb_meta_out_shape (call, a, WB_DTYPE_UNKNOWN, shape, a->rank, error) && _wb_meta_out_shape (call, a, WB_DTYPE_INT64, shape, a->rank, error);
}

gboolean
_wb_meta_prim_topk (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 k, dim;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &k, error) || !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  return topk_like (call, &a, k, dim, error);
}

gboolean
_wb_meta_prim_sort (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 dim;
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  _wb_meta_out_like (call, &a, WB_DTYPE_INT64);
  return TRUE;
}

/* ---- ltorch ------------------------------------------------------------------------------------- */

gboolean
_wb_meta_topk (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 k, dim = -1;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &k, error))
    return FALSE;
  if (_wb_meta_arg_present (call, 2) && !_wb_meta_arg_int (call, 2, &dim, error))
    return FALSE;
  return topk_like (call, &a, k, dim, error);
}

gboolean
_wb_meta_take_along_dim (WbMetaCall *call, GError **error)
{
  WbType a, index;
  gint64 dim, shape[MAXD];
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &index, error))
    return FALSE;
  if (!check_index_dtype (call, &index, error))
    return FALSE;
  if (!_wb_meta_arg_present (call, 2))
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ wb_type_numel (&index) }, 1, error);
  if (!_wb_meta_arg_int (call, 2, &dim, error) || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (index.rank != a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input and indices need the same rank (%u and %u)", a.rank, index.rank);
  for (guint i = 0; i < a.rank; i++)
    {
      if (i == d)
        shape[i] = index.shape[i];
      else if (a.shape[i] == index.shape[i] || index.shape[i] == 1)
        shape[i] = a.shape[i];
      else if (a.shape[i] == 1)
        shape[i] = index.shape[i];
      else
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input and indices do not broadcast at dim %u", i);
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_gather (WbMetaCall *call, GError **error)
{
  WbType a, index;
  gint64 dim;
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error) || !_wb_meta_arg_tensor (call, 2, &index, error))
    return FALSE;
  if (!check_index_dtype (call, &index, error) || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (index.rank != a.rank && !(a.rank == 0 && index.rank <= 1))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input and index need the same rank");
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, index.shape, index.rank, error);
}

gboolean
_wb_meta_index_select (WbMetaCall *call, GError **error)
{
  WbType a, index;
  gint64 dim, shape[MAXD];
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error) || !_wb_meta_arg_tensor (call, 2, &index, error))
    return FALSE;
  if (!check_index_dtype (call, &index, error) || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (index.rank > 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "index must be 0-d or 1-d");
  if (a.rank == 0)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, a.shape, 0, error);
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[d] = wb_type_numel (&index);
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_repeat_interleave (WbMetaCall *call, GError **error)
{
  WbType a, r;
  gint64 repeats, dim, shape[MAXD];
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_type (call, 1, &r, error))
    return FALSE;
  if (r.kind == WB_TYPE_TENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "repeats given as a tensor make the output shape data-dependent");
  if (!_wb_meta_arg_int (call, 1, &repeats, error))
    return FALSE;
  if (repeats < 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "repeats must be non-negative");
  if (!_wb_meta_arg_present (call, 2))
    {
      shape[0] = wb_type_numel (&a) * repeats;
      return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, 1, error);
    }
  if (!_wb_meta_arg_int (call, 2, &dim, error) || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (a.rank == 0)
    {
      shape[0] = repeats;
      return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, 1, error);
    }
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[d] *= repeats;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_tril (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (a.rank < 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects a tensor of rank 2 or more, got rank %u", a.rank);
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ---- getitem ------------------------------------------------------------------------------------ */

typedef enum
{
  KEY_INT,
  KEY_SLICE,
  KEY_NONE,
  KEY_ELLIPSIS,
  KEY_TENSOR, /* an integer tensor or a sequence of ints (advanced indexing) */
} KeyKind;

typedef struct
{
  KeyKind  kind;
  gint64   i;      /* KEY_INT */
  gboolean has[3]; /* KEY_SLICE: start, stop, step given */
  gint64   s[3];
  WbType   index; /* KEY_TENSOR: the index type (rank/shape) */
} Key;

static gboolean
parse_key (WbMetaCall *call, const WbValue *v, Key *k, GError **error)
{
  memset (k, 0, sizeof *k);
  switch (v->kind)
    {
    case WB_VALUE_NONE:
      k->kind = KEY_NONE;
      return TRUE;
    case WB_VALUE_ELLIPSIS:
      k->kind = KEY_ELLIPSIS;
      return TRUE;
    case WB_VALUE_SLICE:
      k->kind = KEY_SLICE;
      for (guint j = 0; j < 3 && j < v->n_items; j++)
        {
          if (v->items[j] == NULL || v->items[j]->kind == WB_VALUE_NONE)
            continue;
          if (!_wb_meta_value_int (call, v->items[j], &k->s[j]))
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "slice bounds must be integers");
          k->has[j] = TRUE;
        }
      if (k->has[2] && k->s[2] < 1)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "slice step must be at least 1");
      return TRUE;
    case WB_VALUE_LIST:
    case WB_VALUE_TUPLE:
      /* a sequence of ints inside the key tuple: an index tensor of that length */
      k->kind = KEY_TENSOR;
      k->index.kind = WB_TYPE_TENSOR;
      k->index.dtype = WB_DTYPE_INT64;
      k->index.rank = 1;
      k->index.shape[0] = v->n_items;
      for (guint j = 0; j < v->n_items; j++)
        {
          gint64 x;
          if (!_wb_meta_value_int (call, v->items[j], &x))
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "index sequences must hold integers");
        }
      return TRUE;
    default:
      break;
    }
  if (_wb_meta_value_int (call, v, &k->i))
    {
      k->kind = KEY_INT;
      return TRUE;
    }
  if (!_wb_meta_value_type (call, v, &k->index, error))
    return FALSE;
  if (k->index.kind != WB_TYPE_TENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported index (number without a known value?)");
  if (k->index.dtype == WB_DTYPE_BOOL8)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "boolean mask indexing has a data-dependent shape");
  if (!check_index_dtype (call, &k->index, error))
    return FALSE;
  k->kind = KEY_TENSOR;
  return TRUE;
}

gboolean
_wb_meta_getitem (WbMetaCall *call, GError **error)
{
  WbType         a;
  const WbValue *kv = call->params[1];
  Key            keys[2 * MAXD], full[3 * MAXD];
  guint          nk = 0, nf = 0, indexing = 0, in_dim = 0, r = 0, n_adv = 0;
  gint64         shape[3 * MAXD];
  int            adv_pos = -1, last_adv = -2;
  gboolean       adv_gap = FALSE, ellipsis_done = FALSE;
  WbType         adv_types[2 * MAXD], adv_shape;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (kv == NULL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "missing key");
  if (kv->kind == WB_VALUE_TUPLE)
    {
      if (kv->n_items > G_N_ELEMENTS (keys))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "too many indices");
      for (guint j = 0; j < kv->n_items; j++)
        if (!parse_key (call, kv->items[j], &keys[nk++], error))
          return FALSE;
    }
  else if (!parse_key (call, kv, &keys[nk++], error))
    return FALSE;

  for (guint j = 0; j < nk; j++)
    if (keys[j].kind != KEY_NONE && keys[j].kind != KEY_ELLIPSIS)
      indexing++;
  if (indexing > a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%u indices for a tensor of rank %u", indexing, a.rank);

  /* expand the first ellipsis into ':' for every dim no other key indexes, then pad with ':' */
  for (guint j = 0; j < nk; j++)
    {
      if (keys[j].kind == KEY_ELLIPSIS)
        {
          if (!ellipsis_done)
            for (guint e = 0; e < a.rank - indexing; e++)
              full[nf++] = (Key){ .kind = KEY_SLICE };
          ellipsis_done = TRUE;
          continue;
        }
      full[nf++] = keys[j];
    }
  for (guint j = 0, used = 0; j <= nf; j++)
    {
      if (j == nf)
        {
          while (used < a.rank)
            {
              full[nf++] = (Key){ .kind = KEY_SLICE };
              used++;
            }
          break;
        }
      if (full[j].kind != KEY_NONE)
        used++;
    }

  /* basic keys shape the output in place; advanced (tensor) keys form one broadcast block, placed where
   * they are when adjacent and in front otherwise (numpy rules, clang._advanced_indexing) */
  for (guint j = 0; j < nf; j++)
    {
      const Key *k = &full[j];
      gint64     len;
      if (k->kind == KEY_NONE)
        {
          shape[r++] = 1;
          continue;
        }
      len = a.shape[in_dim++];
      if (k->kind == KEY_INT)
        {
          if (k->i < -len || k->i >= len)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                                  "index %" G_GINT64_FORMAT " is out of range for length %" G_GINT64_FORMAT, k->i, len);
          continue;
        }
      if (k->kind == KEY_SLICE)
        {
          gint64 start = k->has[0] ? k->s[0] : 0, stop = k->has[1] ? k->s[1] : len, step = k->has[2] ? k->s[2] : 1;
          if (start < 0)
            start += len;
          if (stop < 0)
            stop += len;
          start = CLAMP (start, 0, len);
          stop = CLAMP (stop, 0, len);
          shape[r++] = stop > start ? (stop - start + step - 1) / step : 0;
          continue;
        }
      /* KEY_TENSOR */
      if (last_adv >= 0 && last_adv != (int) j - 1)
        adv_gap = TRUE;
      last_adv = (int) j;
      if (adv_pos < 0)
        adv_pos = (int) r;
      adv_types[n_adv++] = k->index;
    }
  if (n_adv == 0)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
  if (!_wb_meta_broadcast (call, adv_types, n_adv, &adv_shape, error))
    return FALSE;
  {
    gint64 result[4 * MAXD];
    guint  rr = 0, pos = adv_gap ? 0 : (guint) adv_pos;
    for (guint i = 0; i <= r; i++)
      {
        if (i == pos)
          for (guint b = 0; b < adv_shape.rank; b++)
            result[rr++] = adv_shape.shape[b];
        if (i < r)
          result[rr++] = shape[i];
      }
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, result, rr, error);
  }
}
