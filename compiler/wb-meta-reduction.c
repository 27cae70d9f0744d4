/* wb-meta-reduction.c — meta functions of reductions: prims (dims dropped) and ltorch (dim=None means all,
 * keepdim, dtype=), softmax-like ops and cumsum
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: thunder/core/prims.py (_reduction_meta, _argmin_argmax_meta, _var_meta, _var_mean_meta) and
 * thunder/torch/__init__.py (_reduction, sum, mean, var_mean, logsumexp, _softmax, log_softmax). */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

static gboolean
is_exact (WbDtype d)
{
  return wb_dtype_kind (d) == WB_DTYPE_KIND_BOOL || wb_dtype_is_integer (d);
}

/* prims take an explicit dims sequence; every dim must be in range, and () only for 0-d inputs. */
static gboolean
prim_dims (WbMetaCall *call, guint param, const WbType *a, gboolean *mask, GError **error)
{
  gint64 dims[MAXD];
  guint  n;

  memset (mask, 0, sizeof (gboolean) * WB_MAX_RANK);
  if (!_wb_meta_arg_ints (call, param, dims, MAXD, &n, FALSE, error))
    return FALSE;
  if (n == 0 && a->rank != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "no dims to reduce for a tensor of rank %u", a->rank);
  for (guint i = 0; i < n; i++)
    {
      if (dims[i] < 0 || dims[i] >= MAX (a->rank, 1))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim %" G_GINT64_FORMAT " is out of range for rank %u",
                              dims[i], a->rank);
      if (a->rank > 0)
        mask[dims[i]] = TRUE;
    }
  return TRUE;
}

static void
out_reduced (WbMetaCall *call, const WbType *a, const gboolean *mask, gboolean keepdim, WbDtype dtype)
{
  WbType out;

  _wb_meta_reduce_shape (a, mask, keepdim, &out);
  out.kind = WB_TYPE_TENSOR;
  if (dtype != WB_DTYPE_UNKNOWN && dtype != out.dtype)
    {
      out.dtype = dtype;
      out.weak = FALSE;
    }
  _wb_meta_out (call, &out);
}

gboolean
_wb_meta_prim_reduction (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean mask[WB_MAX_RANK];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !prim_dims (call, 1, &a, mask, error))
    return FALSE;
  out_reduced (call, &a, mask, FALSE, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_prim_argminmax (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean mask[WB_MAX_RANK];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_reduction_dims (call, 1, a.rank, mask, error))
    return FALSE;
  out_reduced (call, &a, mask, FALSE, WB_DTYPE_INT64);
  return TRUE;
}

gboolean
_wb_meta_prim_var (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean mask[WB_MAX_RANK];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !prim_dims (call, 1, &a, mask, error))
    return FALSE;
  out_reduced (call, &a, mask, FALSE, _wb_meta_real_dtype (a.dtype));
  return TRUE;
}

gboolean
_wb_meta_prim_var_mean (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean mask[WB_MAX_RANK];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !prim_dims (call, 1, &a, mask, error))
    return FALSE;
  out_reduced (call, &a, mask, FALSE, _wb_meta_real_dtype (a.dtype));
  out_reduced (call, &a, mask, FALSE, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ltorch reductions: a, dim (None = all, int or sequence), keepdim, dtype= where the signature has them. */
gboolean
_wb_meta_reduction (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean mask[WB_MAX_RANK], keepdim = FALSE;
  int      dim_p = _wb_meta_param_index (call, "dim");
  int      keep_p = _wb_meta_param_index (call, "keepdim");
  int      dtype_p = _wb_meta_param_index (call, "dtype");
  WbDtype  dtype = WB_DTYPE_UNKNOWN, result;
  GError  *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!_wb_meta_reduction_dims (call, dim_p >= 0 ? (guint) dim_p : G_MAXUINT, a.rank, mask, error))
    return FALSE;
  if (keep_p >= 0 && !_wb_meta_arg_bool (call, keep_p, FALSE, &keepdim, error))
    return FALSE;
  if (dtype_p >= 0 && !_wb_meta_arg_dtype (call, dtype_p, &dtype, NULL, &local))
    {
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  switch (call->arg)
    {
    case WB_REDUCE_SUM:
    case WB_REDUCE_PROD:
      result = dtype != WB_DTYPE_UNKNOWN ? dtype : is_exact (a.dtype) ? WB_DTYPE_INT64
                                                                      : a.dtype;
      break;
    case WB_REDUCE_MEAN:
      result = dtype != WB_DTYPE_UNKNOWN ? dtype : a.dtype;
      if (is_exact (result))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "dtype %s is not a floating point or complex dtype",
                              wb_dtype_shortname (result));
      break;
    case WB_REDUCE_ARG:
      result = WB_DTYPE_INT64;
      break;
    case WB_REDUCE_VAR:
      result = _wb_meta_real_dtype (a.dtype);
      break;
    case WB_REDUCE_VAR_MEAN:
      out_reduced (call, &a, mask, keepdim, _wb_meta_real_dtype (a.dtype));
      result = a.dtype;
      break;
    case WB_REDUCE_LOGSUMEXP:
      result = is_exact (a.dtype) ? WB_DTYPE_FLOAT32 : a.dtype;
      break;
    case WB_REDUCE_BOOL:
      result = WB_DTYPE_BOOL8;
      break;
    case WB_REDUCE_SAME:
    default:
      result = a.dtype;
      break;
    }
  out_reduced (call, &a, mask, keepdim, result);
  return TRUE;
}

/* _softmax, log_softmax: same shape, dtype= or the input's dtype. */
gboolean
_wb_meta_softmax (WbMetaCall *call, GError **error)
{
  WbType  a;
  gint64  dim;
  guint   d;
  WbDtype dtype = WB_DTYPE_UNKNOWN;
  int     dtype_p = _wb_meta_param_index (call, "dtype");
  GError *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (dtype_p >= 0 && !_wb_meta_arg_dtype (call, dtype_p, &dtype, NULL, &local) && local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (dtype == WB_DTYPE_UNKNOWN && is_exact (a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a floating-point input, got %s",
                          wb_dtype_shortname (a.dtype));
  _wb_meta_out_like (call, &a, dtype);
  return TRUE;
}

gboolean
_wb_meta_cumsum (WbMetaCall *call, GError **error)
{
  WbType  a;
  gint64  dim;
  guint   d;
  WbDtype dtype = WB_DTYPE_UNKNOWN;
  GError *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &dim, error))
    return FALSE;
  if (!_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
    return FALSE;
  if (!_wb_meta_arg_dtype (call, 2, &dtype, NULL, &local))
    {
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      dtype = is_exact (a.dtype) ? WB_DTYPE_INT64 : a.dtype;
    }
  _wb_meta_out_like (call, &a, dtype);
  return TRUE;
}
