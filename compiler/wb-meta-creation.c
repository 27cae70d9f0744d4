/* wb-meta-creation.c — meta functions of creation and random ops (full, iota, empty, uniform, arange, rand,
 * *_like factories) and of conversions, copies and aliases (convert_element_type, to, copy_, update_aliases)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: thunder/core/prims.py (_full_meta, _iota_meta, _uniform_meta, _convert_element_type_meta,
 * copy__meta, bitcast_meta, ...), thunder/torch/__init__.py (arange, full, to, rand, empty_like, ...).
 * Without dtype= torch factories create float32 tensors (the default dtype) on the CPU. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

static const WbDevice cpu_device = { WB_DEVICE_CPU, -1 };

static gboolean
is_tensor (const WbType *t)
{
  return t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR;
}

static gboolean
check_shape (WbMetaCall *call, const gint64 *shape, guint n, GError **error)
{
  if (n > WB_MAX_RANK)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "rank %u exceeds %d", n, WB_MAX_RANK);
  for (guint i = 0; i < n; i++)
    if (shape[i] < 0)
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "negative dimension %" G_GINT64_FORMAT, shape[i]);
  return TRUE;
}

/* dtype= and device= by name; both required for prims. */
static gboolean
kw_dtype_device (WbMetaCall *call, gboolean required, WbDtype *dtype, gboolean *weak, WbDevice *device, GError **error)
{
  int     dp = _wb_meta_param_index (call, "dtype"), vp = _wb_meta_param_index (call, "device");
  GError *local = NULL;

  *dtype = WB_DTYPE_UNKNOWN;
  *weak = FALSE;
  *device = cpu_device;
  if (dp >= 0 && !_wb_meta_arg_dtype (call, dp, dtype, weak, &local) && local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (vp >= 0 && !_wb_meta_arg_device (call, vp, device, &local) && local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (required && *dtype == WB_DTYPE_UNKNOWN)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "dtype is required");
  if (required && !(vp >= 0 && _wb_meta_arg_present (call, vp)))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "device is required");
  return TRUE;
}

static gboolean
out_new (WbMetaCall *call, guint shape_param, GError **error)
{
  gint64   shape[MAXD];
  guint    n;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (!_wb_meta_arg_ints (call, shape_param, shape, MAXD, &n, FALSE, error) || !check_shape (call, shape, n, error))
    return FALSE;
  if (!kw_dtype_device (call, TRUE, &dtype, &weak, &device, error))
    return FALSE;
  _wb_meta_out_tensor (call, dtype, weak, &device, n, shape);
  return TRUE;
}

/* ---- prims -------------------------------------------------------------------------------------- */

gboolean
_wb_meta_prim_full (WbMetaCall *call, GError **error)
{
  WbType fill;

  if (!_wb_meta_arg_type (call, 1, &fill, error))
    return FALSE;
  if (is_tensor (&fill) || fill.kind == WB_TYPE_UNKNOWN)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "fill_value must be a number");
  return out_new (call, 0, error);
}

gboolean
_wb_meta_prim_shape_create (WbMetaCall *call, GError **error)
{
  return out_new (call, 0, error);
}

gboolean
_wb_meta_prim_randint (WbMetaCall *call, GError **error)
{
  gint64 low, high;

  if (!_wb_meta_arg_int (call, 0, &low, error) || !_wb_meta_arg_int (call, 1, &high, error))
    return FALSE;
  if (low >= high)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "low must be less than high");
  return out_new (call, 2, error);
}

gboolean
_wb_meta_prim_iota (WbMetaCall *call, GError **error)
{
  gint64   length;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (!_wb_meta_arg_int (call, 0, &length, error) || !kw_dtype_device (call, TRUE, &dtype, &weak, &device, error))
    return FALSE;
  if (!wb_dtype_is_integer (dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "dtype %s is not a non-boolean integer dtype",
                          wb_dtype_shortname (dtype));
  if (length < 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "negative length");
  _wb_meta_out_tensor (call, dtype, weak, &device, length == 0 ? 0 : 1, &length);
  return TRUE;
}

static int
number_rank (WbTypeKind k)
{
  switch (k)
    {
    case WB_TYPE_BOOL:
      return 0;
    case WB_TYPE_INT:
      return 1;
    case WB_TYPE_FLOAT:
      return 2;
    case WB_TYPE_COMPLEX:
      return 3;
    default:
      return -1;
    }
}

/* Nested tuples/lists of numbers: shape from the nesting, dtype from dtype= or the numbers. */
static gboolean
sequence_shape (WbMetaCall *call, const WbValue *v, guint depth, gint64 *shape, guint *rank, WbTypeKind *kind)
{
  if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    {
      if (depth >= WB_MAX_RANK)
        return FALSE;
      if (depth == *rank)
        {
          shape[depth] = v->n_items;
          (*rank)++;
        }
      else if (shape[depth] != v->n_items)
        return FALSE;
      for (guint i = 0; i < v->n_items; i++)
        if (!sequence_shape (call, v->items[i], depth + 1, shape, rank, kind))
          return FALSE;
      return TRUE;
    }
  else
    {
      WbType t;
      if (!_wb_meta_value_type (call, v, &t, NULL) || is_tensor (&t))
        return FALSE;
      if (number_rank (t.kind) < 0)
        return FALSE;
      if (*kind == WB_TYPE_UNKNOWN || number_rank (t.kind) > number_rank (*kind))
        *kind = t.kind;
      return depth == *rank;
    }
}

gboolean
_wb_meta_prim_tensor_from_sequence (WbMetaCall *call, GError **error)
{
  gint64     shape[MAXD];
  guint      rank = 0;
  WbTypeKind kind = WB_TYPE_UNKNOWN;
  WbDtype    dtype;
  gboolean   weak;
  WbDevice   device;

  if (call->params[0] == NULL || !sequence_shape (call, call->params[0], 0, shape, &rank, &kind))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a (nested) sequence of numbers");
  if (!kw_dtype_device (call, FALSE, &dtype, &weak, &device, error))
    return FALSE;
  if (dtype == WB_DTYPE_UNKNOWN)
    dtype = kind == WB_TYPE_UNKNOWN ? WB_DTYPE_FLOAT32 : _wb_meta_number_dtype (kind);
  _wb_meta_out_tensor (call, dtype, weak, &device, rank, shape);
  return TRUE;
}

gboolean
_wb_meta_prim_multinomial (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 n, shape[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &n, error))
    return FALSE;
  if (a.rank < 1 || a.rank > 2 || n < 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects a 1-d or 2-d input and a non-negative count");
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[a.rank - 1] = n;
  _wb_meta_out_tensor (call, WB_DTYPE_INT64, FALSE, &a.device, a.rank, shape);
  return TRUE;
}

gboolean
_wb_meta_prim_rng_state (WbMetaCall *call, GError **error)
{
  _wb_meta_out_int (call, FALSE, 0);
  _wb_meta_out_int (call, FALSE, 0);
  return TRUE;
}

gboolean
_wb_meta_prim_convert_element_type (WbMetaCall *call, GError **error)
{
  WbType   a, out;
  WbDtype  dtype;
  gboolean weak = FALSE;
  GError  *local = NULL;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (!_wb_meta_arg_dtype (call, 1, &dtype, &weak, &local))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "dtype is required");
      return FALSE;
    }
  if (!is_tensor (&a))
    {
      WbTypeKind k;
      switch (wb_dtype_kind (dtype))
        {
        case WB_DTYPE_KIND_BOOL:
          k = WB_TYPE_BOOL;
          break;
        case WB_DTYPE_KIND_FLOAT:
          k = WB_TYPE_FLOAT;
          break;
        case WB_DTYPE_KIND_COMPLEX:
          k = WB_TYPE_COMPLEX;
          break;
        default:
          k = WB_TYPE_INT;
        }
      if (a.kind != WB_TYPE_INT && a.kind != WB_TYPE_BOOL && a.kind != WB_TYPE_FLOAT && a.kind != WB_TYPE_COMPLEX)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a tensor or a number");
      _wb_meta_out_kind (call, k);
      return TRUE;
    }
  out = a;
  out.text = NULL;
  out.dtype = dtype;
  out.weak = weak;
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_prim_device_put (WbMetaCall *call, GError **error)
{
  WbType   a, out;
  WbDevice device;
  GError  *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!_wb_meta_arg_device (call, 1, &device, &local))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "device is required");
      return FALSE;
    }
  out = a;
  out.device = device;
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_prim_bitcast (WbMetaCall *call, GError **error)
{
  WbType  a, out;
  WbDtype dtype;
  gsize   src, dst;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!_wb_meta_arg_dtype (call, 1, &dtype, NULL, error))
    return FALSE;
  out = a;
  out.dtype = dtype;
  out.weak = FALSE;
  src = wb_dtype_size (a.dtype);
  dst = wb_dtype_size (dtype);
  if (src != dst)
    {
      if (a.rank == 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "cannot change the element size of a 0-d tensor");
      if (dst > src)
        {
          gint64 f = (gint64) (dst / src);
          if (dst % src != 0 || a.shape[a.rank - 1] % f != 0)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "last dim is not divisible by %" G_GINT64_FORMAT, f);
          out.shape[a.rank - 1] /= f;
        }
      else
        out.shape[a.rank - 1] *= (gint64) (src / dst);
    }
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_prim_copy_ (WbMetaCall *call, GError **error)
{
  WbType from, to;

  if (!_wb_meta_arg_tensor (call, 0, &from, error) || !_wb_meta_arg_tensor (call, 1, &to, error))
    return FALSE;
  if (from.rank != to.rank || memcmp (from.shape, to.shape, sizeof (gint64) * from.rank) != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "copy_from and copy_to shapes differ");
  if (from.dtype != to.dtype || !wb_device_equal (&from.device, &to.device))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "copy_from and copy_to dtypes or devices differ");
  _wb_meta_out_like (call, &to, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_prim_item (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  switch (wb_dtype_kind (a.dtype))
    {
    case WB_DTYPE_KIND_BOOL:
      _wb_meta_out_kind (call, WB_TYPE_BOOL);
      break;
    case WB_DTYPE_KIND_FLOAT:
      _wb_meta_out_kind (call, WB_TYPE_FLOAT);
      break;
    case WB_DTYPE_KIND_COMPLEX:
      _wb_meta_out_kind (call, WB_TYPE_COMPLEX);
      break;
    default:
      _wb_meta_out_kind (call, WB_TYPE_INT);
    }
  return TRUE;
}

/* update_aliases((a, b)), exogenous_like([a, b]): one tensor like each. */
gboolean
_wb_meta_each_like (WbMetaCall *call, GError **error)
{
  WbValue *const *items;
  guint           n;
  WbType          t;

  if (!_wb_meta_arg_items (call, 0, &items, &n, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (!_wb_meta_value_tensor (call, items[i], "aliases", &t, error))
        return FALSE;
      _wb_meta_out_like (call, &t, WB_DTYPE_UNKNOWN);
    }
  return TRUE;
}

/* ---- ltorch ------------------------------------------------------------------------------------- */

/* ltorch.to(a, tensor_dtype_or_device=None, optional_positional_dtype=None, /, *, device, dtype, copy,
 * memory_format): _parse_to_device_and_dtype */
gboolean
_wb_meta_to (WbMetaCall *call, GError **error)
{
  WbType         a, out, other;
  const WbValue *first = call->params[1];
  WbDtype        dtype = WB_DTYPE_UNKNOWN;
  gboolean       weak = FALSE;
  WbDevice       device;
  gboolean       have_device = FALSE;
  int            dp = _wb_meta_param_index (call, "dtype"), vp = _wb_meta_param_index (call, "device");
  GError        *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  out = a;
  out.text = NULL;
  if (first != NULL && first->kind != WB_VALUE_NONE)
    {
      if (wb_value_get_device (first, &device))
        {
          have_device = TRUE;
          if (_wb_meta_arg_present (call, 2) && !_wb_meta_arg_dtype (call, 2, &dtype, &weak, error))
            return FALSE;
        }
      else if (wb_value_get_dtype (first, &dtype, &weak))
        ;
      else if (_wb_meta_value_tensor (call, first, "tensor_dtype_or_device", &other, error))
        {
          device = other.device;
          have_device = TRUE;
          dtype = other.dtype;
          weak = _wb_meta_is_weak (&other);
        }
      else
        return FALSE;
    }
  if (dtype == WB_DTYPE_UNKNOWN && dp >= 0 && !_wb_meta_arg_dtype (call, dp, &dtype, &weak, &local) && local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (!have_device && vp >= 0)
    {
      if (_wb_meta_arg_device (call, vp, &device, &local))
        have_device = TRUE;
      else if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  if (dtype != WB_DTYPE_UNKNOWN && dtype != a.dtype)
    {
      out.dtype = dtype;
      out.weak = weak;
    }
  if (have_device)
    out.device = device;
  _wb_meta_out (call, &out);
  return TRUE;
}

/* Tensor.long() and friends: meta_arg is the WbDtype. */
gboolean
_wb_meta_type_cast (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  _wb_meta_out_like (call, &a, (WbDtype) call->arg);
  return TRUE;
}

gboolean
_wb_meta_type_as (WbMetaCall *call, GError **error)
{
  WbType a, b;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  _wb_meta_out_like (call, &a, b.dtype);
  return TRUE;
}

gboolean
_wb_meta_arange (WbMetaCall *call, GError **error)
{
  WbType   t[3];
  double   start = 0, end, step = 1, len;
  gboolean any_float = FALSE;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;
  gint64   n;

  for (guint i = 0; i < 3; i++)
    {
      if (!_wb_meta_arg_present (call, i))
        continue;
      if (!_wb_meta_arg_type (call, i, &t[i], error))
        return FALSE;
      if (t[i].kind == WB_TYPE_FLOAT)
        any_float = TRUE;
      else if (t[i].kind != WB_TYPE_INT && t[i].kind != WB_TYPE_BOOL)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "start, end and step must be numbers");
    }
  if (!_wb_meta_arg_number (call, 0, &end))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "start has no known value");
  if (_wb_meta_arg_present (call, 1))
    {
      start = end;
      if (!_wb_meta_arg_number (call, 1, &end))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "end has no known value");
    }
  if (_wb_meta_arg_present (call, 2) && !_wb_meta_arg_number (call, 2, &step))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "step has no known value");
  if (step == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "step must be nonzero");
  if (!kw_dtype_device (call, FALSE, &dtype, &weak, &device, error))
    return FALSE;
  if (dtype == WB_DTYPE_UNKNOWN)
    dtype = any_float ? WB_DTYPE_FLOAT32 : WB_DTYPE_INT64;
  len = ceil ((end - start) / step);
  n = len > 0 ? (gint64) len : 0;
  _wb_meta_out_tensor (call, dtype, weak, &device, 1, &n);
  return TRUE;
}

/* zeros/ones/empty/rand/randn(*shape, dtype=, device=): float32 on the CPU unless told otherwise. */
gboolean
_wb_meta_factory (WbMetaCall *call, GError **error)
{
  gint64   shape[MAXD];
  guint    n;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (!_wb_meta_varargs_ints (call, shape, MAXD, &n, error) || !check_shape (call, shape, n, error))
    return FALSE;
  if (!kw_dtype_device (call, FALSE, &dtype, &weak, &device, error))
    return FALSE;
  if (dtype == WB_DTYPE_UNKNOWN)
    dtype = WB_DTYPE_FLOAT32;
  if (call->arg == 1 && !wb_dtype_is_float (dtype) && !wb_dtype_is_complex (dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "random floats need a floating-point dtype, not %s",
                          wb_dtype_shortname (dtype));
  _wb_meta_out_tensor (call, dtype, weak, &device, n, shape);
  return TRUE;
}

gboolean
_wb_meta_factory_like (WbMetaCall *call, GError **error)
{
  WbType   a, out;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;
  int      vp = _wb_meta_param_index (call, "device");

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !kw_dtype_device (call, FALSE, &dtype, &weak, &device, error))
    return FALSE;
  out = a;
  out.text = NULL;
  if (dtype != WB_DTYPE_UNKNOWN && dtype != a.dtype)
    {
      out.dtype = dtype;
      out.weak = weak;
    }
  if (vp >= 0 && _wb_meta_arg_present (call, vp))
    out.device = device;
  _wb_meta_out (call, &out);
  return TRUE;
}

static WbDtype
fill_dtype (const WbType *fill)
{
  switch (fill->kind)
    {
    case WB_TYPE_BOOL:
      return WB_DTYPE_BOOL8;
    case WB_TYPE_INT:
      return WB_DTYPE_INT64;
    case WB_TYPE_COMPLEX:
      return WB_DTYPE_COMPLEX64;
    default:
      return WB_DTYPE_FLOAT32;
    }
}

gboolean
_wb_meta_full (WbMetaCall *call, GError **error)
{
  gint64   shape[MAXD];
  guint    n;
  WbType   fill;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (!_wb_meta_arg_ints (call, 0, shape, MAXD, &n, TRUE, error) || !check_shape (call, shape, n, error) || !_wb_meta_arg_type (call, 1, &fill, error) || !kw_dtype_device (call, FALSE, &dtype, &weak, &device, error))
    return FALSE;
  if (is_tensor (&fill))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "fill_value must be a number");
  if (dtype == WB_DTYPE_UNKNOWN)
    dtype = fill_dtype (&fill);
  _wb_meta_out_tensor (call, dtype, weak, &device, n, shape);
  return TRUE;
}

gboolean
_wb_meta_full_like (WbMetaCall *call, GError **error)
{
  return _wb_meta_factory_like (call, error);
}

/* ltorch.copy_(a, b): b is copied into a (b broadcasts to a). */
gboolean
_wb_meta_copy_ (WbMetaCall *call, GError **error)
{
  WbType a, b;
  WbType ops[2], out;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_type (call, 1, &b, error))
    return FALSE;
  if (is_tensor (&b))
    {
      ops[0] = a;
      ops[1] = b;
      if (!_wb_meta_broadcast (call, ops, 2, &out, error))
        return FALSE;
      if (out.rank != a.rank || memcmp (out.shape, a.shape, sizeof (gint64) * a.rank) != 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "source does not broadcast to the destination");
    }
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_dropout (WbMetaCall *call, GError **error)
{
  WbType a;
  double p;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (_wb_meta_arg_number (call, 1, &p) && (p < 0 || p > 1))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "p must be in [0, 1]");
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ltorch.randint (*args, generator=None, out=None, dtype=None, layout, device=None, ...): args are
 * (high, size) or (low, high, size); the result is i64 unless dtype= says otherwise. */
gboolean
_wb_meta_randint (WbMetaCall *call, GError **error)
{
  gint64   shape[MAXD], low = 0, high;
  guint    n;
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (call->n_varargs < 2 || call->n_varargs > 3)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "expects (high, size) or (low, high, size)");
  if ((call->n_varargs == 3 && !_wb_meta_value_int (call, call->varargs[0], &low)) || !_wb_meta_value_int (call, call->varargs[call->n_varargs - 2], &high))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "low and high must be ints");
  if (low >= high)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "low must be less than high");
  if (!_wb_meta_value_ints (call, call->varargs[call->n_varargs - 1], shape, MAXD, &n, FALSE))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "size must be a sequence of ints");
  if (!kw_dtype_device (call, FALSE, &dtype, &weak, &device, error))
    return FALSE;
  _wb_meta_out_tensor (call, dtype == WB_DTYPE_UNKNOWN ? WB_DTYPE_INT64 : dtype, FALSE, &device, n, shape);
  return TRUE;
}

/* ltorch.torch_type (a, dtype=None, ...): with a dtype, a tensor like a of that dtype; without, the type
 * name (a str). */
gboolean
_wb_meta_torch_type (WbMetaCall *call, GError **error)
{
  WbType  a;
  WbDtype dtype;
  GError *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!_wb_meta_arg_dtype (call, 1, &dtype, NULL, &local))
    {
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      _wb_meta_out_kind (call, WB_TYPE_STR);
      return TRUE;
    }
  _wb_meta_out_like (call, &a, dtype);
  return TRUE;
}

/* ltorch.cuda (a, device=None, ...): a on the given CUDA device (cuda:0 by default). */
gboolean
_wb_meta_to_cuda (WbMetaCall *call, GError **error)
{
  WbType   a, out;
  WbDevice device = { .type = WB_DEVICE_CUDA, .index = 0 };
  GError  *local = NULL;
  gint64   index;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (_wb_meta_arg_int (call, 1, &index, NULL))
    device.index = (int) index;
  else if (!_wb_meta_arg_device (call, 1, &device, &local) && local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  out = a;
  out.text = NULL;
  out.device = device;
  _wb_meta_out (call, &out);
  return TRUE;
}

/* The torch executor's torch.ops.rngprims.philox_rand (shape, *, stride=None, device, dtype, seed,
 * offset): the uniform values and the next Philox offset (a cpu i64 0-d tensor). */
gboolean
_wb_meta_philox_rand (WbMetaCall *call, GError **error)
{
  static const WbDevice cpu = { .type = WB_DEVICE_CPU, .index = 0 };

  if (!out_new (call, 0, error))
    return FALSE;
  _wb_meta_out_tensor (call, WB_DTYPE_INT64, FALSE, &cpu, 0, NULL);
  return TRUE;
}
