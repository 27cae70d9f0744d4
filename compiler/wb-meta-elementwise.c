/* wb-meta-elementwise.c — meta functions of elementwise prims (same shape, same dtype) and of ltorch
 * elementwise ops (broadcasting and type promotion)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: thunder/core/prims.py (_elementwise_unary_meta_factory, _elementwise_binary_meta_factory,
 * _where_meta, _lerp_meta) and thunder/clang/__init__.py (_elementwise_binary_wrapper). */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

static gboolean
is_tensor (const WbType *t)
{
  return t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR;
}

static gboolean
is_number (const WbType *t)
{
  return t->kind == WB_TYPE_INT || t->kind == WB_TYPE_BOOL || t->kind == WB_TYPE_FLOAT || t->kind == WB_TYPE_COMPLEX;
}

static gboolean
is_cpu_scalar (const WbType *t)
{
  return is_tensor (t) && t->rank == 0 && t->device.type == WB_DEVICE_CPU;
}

/* The Python number kind a dtype corresponds to (dtypes.dtype_to_numbertype). */
static WbTypeKind
dtype_number_kind (WbDtype d)
{
  switch (wb_dtype_kind (d))
    {
    case WB_DTYPE_KIND_BOOL:
      return WB_TYPE_BOOL;
    case WB_DTYPE_KIND_UINT:
    case WB_DTYPE_KIND_INT:
      return WB_TYPE_INT;
    case WB_DTYPE_KIND_FLOAT:
      return WB_TYPE_FLOAT;
    case WB_DTYPE_KIND_COMPLEX:
      return WB_TYPE_COMPLEX;
    }
  return WB_TYPE_UNKNOWN;
}

static const char *
number_kind_name (WbTypeKind k)
{
  switch (k)
    {
    case WB_TYPE_BOOL:
      return "bool";
    case WB_TYPE_INT:
      return "int";
    case WB_TYPE_FLOAT:
      return "float";
    case WB_TYPE_COMPLEX:
      return "complex";
    default:
      return "?";
    }
}

/* Whether a tensor dtype (strong) or a number kind is in a prim's supported-input set. */
static gboolean
supported_dtype (int set, WbDtype d)
{
  WbDtypeKind k = wb_dtype_kind (d);
  gboolean    exact = k == WB_DTYPE_KIND_BOOL || k == WB_DTYPE_KIND_UINT || k == WB_DTYPE_KIND_INT;

  switch (set)
    {
    case WB_EW_IN_MATH:
      return !_wb_meta_is_low_precision (d);
    case WB_EW_IN_FP_MATH:
      return !exact && !_wb_meta_is_low_precision (d);
    case WB_EW_IN_EXACT:
      return exact;
    case WB_EW_IN_COMPARISON:
      return k != WB_DTYPE_KIND_COMPLEX;
    case WB_EW_IN_INEXACT:
      return !exact;
    case WB_EW_IN_CEIL_FLOOR:
      return k == WB_DTYPE_KIND_FLOAT;
    default:
      return TRUE;
    }
}

static gboolean
supported_number (int set, WbTypeKind k)
{
  switch (set)
    {
    case WB_EW_IN_FP_MATH:
    case WB_EW_IN_INEXACT:
      return k == WB_TYPE_FLOAT || k == WB_TYPE_COMPLEX;
    case WB_EW_IN_EXACT:
      return k == WB_TYPE_BOOL || k == WB_TYPE_INT;
    case WB_EW_IN_COMPARISON:
    case WB_EW_IN_CEIL_FLOOR:
      return k != WB_TYPE_COMPLEX;
    default:
      return TRUE;
    }
}

static void
out_number (WbMetaCall *call, WbTypeKind kind)
{
  _wb_meta_out_kind (call, kind);
}

/* ---- prims -------------------------------------------------------------------------------------- */

gboolean
_wb_meta_prim_unary (WbMetaCall *call, GError **error)
{
  int     kind = call->arg & 0xff, set = call->arg & 0xff00;
  WbType  a;
  WbDtype out;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (is_number (&a))
    {
      WbTypeKind k = a.kind;
      if (!supported_number (set, k))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported input number type %s", number_kind_name (k));
      if (call->symbol->id == WB_SYMBOL_PRIMS_PY_ABS)
        out_number (call, k == WB_TYPE_FLOAT || k == WB_TYPE_COMPLEX ? WB_TYPE_FLOAT : WB_TYPE_INT);
      else if (kind == WB_EW_ALWAYS_BOOL)
        out_number (call, WB_TYPE_BOOL);
      else if (kind == WB_EW_INT_FOR_NUMBER)
        out_number (call, WB_TYPE_INT);
      else if (kind == WB_EW_COMPLEX_TO_FLOAT && k == WB_TYPE_COMPLEX)
        out_number (call, WB_TYPE_FLOAT);
      else
        out_number (call, k);
      return TRUE;
    }
  if (!is_tensor (&a))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a tensor or a number");
  if (call->arg & WB_EW_NUMBERS_ONLY)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "only numbers are supported, got a tensor");
  if (!supported_dtype (set, a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported input dtype %s", wb_dtype_shortname (a.dtype));
  out = a.dtype;
  if (kind == WB_EW_ALWAYS_BOOL)
    out = WB_DTYPE_BOOL8;
  else if (kind == WB_EW_COMPLEX_TO_FLOAT)
    out = _wb_meta_real_dtype (a.dtype);
  _wb_meta_out_like (call, &a, out);
  return TRUE;
}

/* utils.check_same_dtype over @n operands: numbers share one number kind, tensors one dtype (weakness
 * ignored; the first strong one wins), and a number's kind matches the tensors' dtype. */
static gboolean
check_same_dtype (WbMetaCall *call, const WbType *ops, guint n, WbTypeKind *numberkind, const WbType **tensor_dtype_from, GError **error)
{
  WbTypeKind    nk = WB_TYPE_UNKNOWN;
  const WbType *dt = NULL;

  for (guint i = 0; i < n; i++)
    {
      if (is_number (&ops[i]))
        {
          if (nk == WB_TYPE_UNKNOWN)
            nk = ops[i].kind;
          else if (nk != ops[i].kind)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected number type %s but found %s",
                                  number_kind_name (nk), number_kind_name (ops[i].kind));
        }
      else if (is_tensor (&ops[i]))
        {
          if (dt == NULL)
            dt = &ops[i];
          else if (dt->dtype != ops[i].dtype)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected dtype %s but found %s",
                                  wb_dtype_shortname (dt->dtype), wb_dtype_shortname (ops[i].dtype));
          else if (_wb_meta_is_weak (dt) && !_wb_meta_is_weak (&ops[i]))
            dt = &ops[i];
        }
    }
  if (nk != WB_TYPE_UNKNOWN && dt != NULL && dtype_number_kind (dt->dtype) != nk)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                          "a %s number does not match dtype %s (prims do not promote; expected a %s)",
                          number_kind_name (nk), wb_dtype_shortname (dt->dtype),
                          number_kind_name (dtype_number_kind (dt->dtype)));
  *numberkind = nk;
  *tensor_dtype_from = dt;
  return TRUE;
}

/* utils.check_same_shape / check_same_device over tensors, CPU scalar tensors exempt. Returns the first
 * tensor that is not a CPU scalar (or the first tensor). */
static const WbType *
check_same_shape (WbMetaCall *call, const WbType *ops, guint n, GError **error)
{
  const WbType *ref = NULL, *first = NULL;

  for (guint i = 0; i < n; i++)
    {
      if (!is_tensor (&ops[i]))
        continue;
      if (first == NULL)
        first = &ops[i];
      if (is_cpu_scalar (&ops[i]))
        continue;
      if (ref == NULL)
        {
          ref = &ops[i];
          continue;
        }
      if (ref->rank != ops[i].rank || memcmp (ref->shape, ops[i].shape, sizeof (gint64) * ref->rank) != 0)
        {
          g_autofree char *x = wb_type_to_string (ref), *y = wb_type_to_string (&ops[i]);
          _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "shapes differ: %s and %s (prims do not broadcast)", x, y);
          return NULL;
        }
      if (!wb_device_equal (&ref->device, &ops[i].device))
        {
          g_autofree char *x = wb_type_to_string (ref), *y = wb_type_to_string (&ops[i]);
          _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "devices differ: %s and %s", x, y);
          return NULL;
        }
    }
  return ref != NULL ? ref : first;
}

gboolean
_wb_meta_prim_binary (WbMetaCall *call, GError **error)
{
  int           kind = call->arg & 0xff, set = call->arg & 0xff00;
  WbType        ops[2];
  WbTypeKind    nk;
  const WbType *dt, *like;
  WbType        out;

  if (!_wb_meta_arg_type (call, 0, &ops[0], error) || !_wb_meta_arg_type (call, 1, &ops[1], error))
    return FALSE;
  for (guint i = 0; i < 2; i++)
    if (!is_number (&ops[i]) && !is_tensor (&ops[i]))
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected tensors or numbers");
  if (!check_same_dtype (call, ops, 2, &nk, &dt, error))
    return FALSE;
  if (nk != WB_TYPE_UNKNOWN && !supported_number (set, nk))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported number type %s", number_kind_name (nk));
  if (dt != NULL && !supported_dtype (set, dt->dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported input dtype %s", wb_dtype_shortname (dt->dtype));
  if (dt == NULL)
    {
      /* Thunder types a comparison of numbers by its value: bool when both are known; with one unknown
         ("float ?") it keeps the operands' number type (graph_break's `prims.gt(f8, 0.0)  # f9: "float ?"`) */
      gboolean known = ops[0].has_value && ops[1].has_value;
      out_number (call, kind == WB_EW_ALWAYS_BOOL && (known || nk == WB_TYPE_UNKNOWN) ? WB_TYPE_BOOL : nk);
      return TRUE;
    }
  if (call->arg & WB_EW_NUMBERS_ONLY)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "only numbers are supported, got a tensor");
  like = check_same_shape (call, ops, 2, error);
  if (like == NULL)
    return FALSE;
  out = *like;
  out.dtype = dt->dtype;
  out.weak = dt->weak;
  if (kind == WB_EW_ALWAYS_BOOL)
    {
      out.dtype = WB_DTYPE_BOOL8;
      out.weak = FALSE;
    }
  else if (kind == WB_EW_COMPLEX_TO_FLOAT)
    out.dtype = _wb_meta_real_dtype (out.dtype);
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_prim_frexp (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  _wb_meta_out_like (call, &a, WB_DTYPE_INT32);
  return TRUE;
}

gboolean
_wb_meta_prim_real_imag (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (a.kind == WB_TYPE_COMPLEX)
    {
      out_number (call, WB_TYPE_FLOAT);
      return TRUE;
    }
  if (!is_tensor (&a) || !wb_dtype_is_complex (a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a complex tensor or number");
  _wb_meta_out_like (call, &a, _wb_meta_real_dtype (a.dtype));
  return TRUE;
}

gboolean
_wb_meta_prim_where (WbMetaCall *call, GError **error)
{
  WbType        ops[3];
  WbTypeKind    nk;
  const WbType *dt, *like;
  WbType        out;

  for (guint i = 0; i < 3; i++)
    {
      if (!_wb_meta_arg_type (call, i, &ops[i], error))
        return FALSE;
      if (!is_number (&ops[i]) && !is_tensor (&ops[i]))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected tensors or numbers");
    }
  if (is_number (&ops[0]) && ops[0].kind != WB_TYPE_BOOL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "pred must be a bool number or tensor");
  if (is_tensor (&ops[0]) && ops[0].dtype != WB_DTYPE_BOOL8)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "pred must have dtype b8, not %s",
                          wb_dtype_shortname (ops[0].dtype));
  if (!check_same_dtype (call, ops + 1, 2, &nk, &dt, error))
    return FALSE;
  if (!is_tensor (&ops[0]) && !is_tensor (&ops[1]) && !is_tensor (&ops[2]))
    {
      out_number (call, nk);
      return TRUE;
    }
  like = check_same_shape (call, ops, 3, error);
  if (like == NULL)
    return FALSE;
  memset (&out, 0, sizeof out);
  out.kind = WB_TYPE_TENSOR;
  out.rank = like->rank;
  memcpy (out.shape, like->shape, sizeof out.shape);
  out.device = like->device;
  for (guint i = 0; i < 3; i++)
    if (is_tensor (&ops[i]) && !is_cpu_scalar (&ops[i]))
      {
        out.device = ops[i].device;
        break;
      }
  if (dt != NULL)
    {
      out.dtype = dt->dtype;
      out.weak = _wb_meta_is_weak (dt);
    }
  else
    {
      out.dtype = _wb_meta_number_dtype (nk);
      out.weak = TRUE;
    }
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_prim_lerp (WbMetaCall *call, GError **error)
{
  WbType        ops[3];
  WbTypeKind    nk;
  const WbType *dt, *like;

  if (!_wb_meta_arg_tensor (call, 0, &ops[0], error) || !_wb_meta_arg_tensor (call, 1, &ops[1], error) || !_wb_meta_arg_type (call, 2, &ops[2], error))
    return FALSE;
  if (!check_same_dtype (call, ops, 3, &nk, &dt, error))
    return FALSE;
  if (!supported_dtype (WB_EW_IN_FP_MATH, ops[0].dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported input dtype %s", wb_dtype_shortname (ops[0].dtype));
  like = check_same_shape (call, ops, 3, error);
  if (like == NULL)
    return FALSE;
  _wb_meta_out_like (call, &ops[0], WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ---- ltorch: broadcasting and promotion --------------------------------------------------------- */

/* Appends the result of an elementwise op over @ops: a number when no operand is a tensor, otherwise a
 * tensor of the broadcast shape with the promoted dtype. */
static gboolean
out_elementwise (WbMetaCall *call, const WbType *ops, guint n, WbPromoteKind kind, GError **error)
{
  WbDtype  dtype;
  gboolean weak, any_tensor = FALSE;
  WbType   out;

  for (guint i = 0; i < n; i++)
    {
      if (is_tensor (&ops[i]))
        any_tensor = TRUE;
      else if (!is_number (&ops[i]))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected tensors or numbers");
    }
  if (!_wb_meta_promote (call, ops, n, kind, &dtype, &weak, error))
    return FALSE;
  if (!any_tensor)
    {
      out_number (call, dtype_number_kind (dtype));
      return TRUE;
    }
  if (!_wb_meta_broadcast (call, ops, n, &out, error))
    return FALSE;
  out.dtype = dtype;
  out.weak = weak;
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_unary (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  return out_elementwise (call, &a, 1, (WbPromoteKind) call->arg, error);
}

gboolean
_wb_meta_binary (WbMetaCall *call, GError **error)
{
  WbType        ops[3];
  guint         n = 2;
  WbPromoteKind kind = (WbPromoteKind) call->arg;
  int           alpha = _wb_meta_param_index (call, "alpha");
  int           rounding = _wb_meta_param_index (call, "rounding_mode");
  double        av;

  if (!_wb_meta_arg_type (call, 0, &ops[0], error) || !_wb_meta_arg_type (call, 1, &ops[1], error))
    return FALSE;
  /* add/sub: b * alpha when alpha is not 1 */
  if (alpha >= 0 && _wb_meta_arg_present (call, alpha) && !(_wb_meta_arg_number (call, alpha, &av) && av == 1.0))
    {
      if (!_wb_meta_arg_type (call, alpha, &ops[2], error))
        return FALSE;
      n = 3;
    }
  /* div with rounding_mode='trunc'/'floor' keeps integers */
  if (rounding >= 0 && _wb_meta_arg_present (call, rounding))
    kind = WB_PROMOTE_DEFAULT;
  return out_elementwise (call, ops, n, kind, error);
}

gboolean
_wb_meta_where (WbMetaCall *call, GError **error)
{
  WbType   ops[3], out;
  WbDtype  dtype;
  gboolean weak;

  for (guint i = 0; i < 3; i++)
    if (!_wb_meta_arg_type (call, i, &ops[i], error))
      return FALSE;
  if (is_tensor (&ops[0]) && ops[0].dtype != WB_DTYPE_BOOL8)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "condition must have dtype b8, not %s",
                          wb_dtype_shortname (ops[0].dtype));
  if (!is_tensor (&ops[1]) && !is_number (&ops[1]))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected tensors or numbers");
  if (!is_tensor (&ops[2]) && !is_number (&ops[2]))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected tensors or numbers");
  if (!_wb_meta_promote (call, ops + 1, 2, WB_PROMOTE_PRESERVE, &dtype, &weak, error))
    return FALSE;
  if (!is_tensor (&ops[0]) && !is_tensor (&ops[1]) && !is_tensor (&ops[2]))
    {
      out_number (call, dtype_number_kind (dtype));
      return TRUE;
    }
  if (!_wb_meta_broadcast (call, ops, 3, &out, error))
    return FALSE;
  out.dtype = dtype;
  out.weak = weak;
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_lerp (WbMetaCall *call, GError **error)
{
  WbType ops[3];

  for (guint i = 0; i < 3; i++)
    if (!_wb_meta_arg_type (call, i, &ops[i], error))
      return FALSE;
  return out_elementwise (call, ops, 3, WB_PROMOTE_DEFAULT, error);
}

gboolean
_wb_meta_clamp (WbMetaCall *call, GError **error)
{
  WbType ops[3];
  guint  n = 1;

  if (!_wb_meta_arg_type (call, 0, &ops[0], error))
    return FALSE;
  for (guint i = 1; i < 3; i++)
    if (_wb_meta_arg_present (call, i))
      {
        if (!_wb_meta_arg_type (call, i, &ops[n], error))
          return FALSE;
        n++;
      }
  return out_elementwise (call, ops, n, WB_PROMOTE_DEFAULT, error);
}

gboolean
_wb_meta_masked_fill (WbMetaCall *call, GError **error)
{
  WbType a, mask, ops[2], out;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &mask, error))
    return FALSE;
  if (mask.dtype != WB_DTYPE_BOOL8)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "mask must have dtype b8, not %s", wb_dtype_shortname (mask.dtype));
  ops[0] = a;
  ops[1] = mask;
  if (!_wb_meta_broadcast (call, ops, 2, &out, error))
    return FALSE;
  out.dtype = a.dtype;
  out.weak = a.weak;
  _wb_meta_out (call, &out);
  return TRUE;
}

gboolean
_wb_meta_same (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_same_float (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!wb_dtype_is_float (a.dtype) && !wb_dtype_is_complex (a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a floating-point tensor, got %s",
                          wb_dtype_shortname (a.dtype));
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* addcmul / addcdiv (a, b, c, *, value=None): a + value * (b op c), broadcast and promoted together
 * (meta_arg: the WbPromoteKind; addcdiv of integer tensors is refused by PyTorch, not checked here). */
gboolean
_wb_meta_ternary (WbMetaCall *call, GError **error)
{
  WbType ops[4];
  guint  n = 3;

  for (guint i = 0; i < 3; i++)
    if (!_wb_meta_arg_type (call, i, &ops[i], error))
      return FALSE;
  if (_wb_meta_arg_present (call, 3))
    {
      if (!_wb_meta_arg_type (call, 3, &ops[3], error))
        return FALSE;
      n = 4;
    }
  return out_elementwise (call, ops, n, (WbPromoteKind) call->arg, error);
}

/* polygamma (n, a): the elementwise op applies to a (parameter 1); n must be an int. */
gboolean
_wb_meta_polygamma (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 order;

  if (!_wb_meta_arg_int (call, 0, &order, error) || !_wb_meta_arg_type (call, 1, &a, error))
    return FALSE;
  if (order < 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "order %" G_GINT64_FORMAT " is negative", order);
  return out_elementwise (call, &a, 1, WB_PROMOTE_INT_TO_FLOAT, error);
}

/* polar (abs_, angle): abs * (cos angle + i sin angle), broadcast; f32 -> c64, f64 -> c128. */
gboolean
_wb_meta_polar (WbMetaCall *call, GError **error)
{
  WbType ops[2], out;

  if (!_wb_meta_arg_tensor (call, 0, &ops[0], error) || !_wb_meta_arg_tensor (call, 1, &ops[1], error))
    return FALSE;
  if (ops[0].dtype != ops[1].dtype || (ops[0].dtype != WB_DTYPE_FLOAT32 && ops[0].dtype != WB_DTYPE_FLOAT64))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects two f32 or two f64 tensors");
  if (!_wb_meta_broadcast (call, ops, 2, &out, error))
    return FALSE;
  out.dtype = ops[0].dtype == WB_DTYPE_FLOAT64 ? WB_DTYPE_COMPLEX128 : WB_DTYPE_COMPLEX64;
  out.weak = FALSE;
  _wb_meta_out (call, &out);
  return TRUE;
}
