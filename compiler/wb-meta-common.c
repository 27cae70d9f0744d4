/* wb-meta-common.c — helpers shared by the meta functions: reading bound arguments, type promotion,
 * broadcasting, dims
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "wb-meta-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-symbol-error-quark, wb_symbol_error)
/* clang-format on */

gboolean
_wb_meta_fail (GError **error, int code, const WbMetaCall *call, const char *format, ...)
{
  va_list          ap;
  g_autofree char *msg = NULL;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, WB_SYMBOL_ERROR, code, "%s: %s", call && call->name ? call->name : "?", msg);
  return FALSE;
}

static gboolean
is_none (const WbValue *v)
{
  return v == NULL || v->kind == WB_VALUE_NONE;
}

gboolean
_wb_meta_arg_present (const WbMetaCall *call, guint i)
{
  return i < WB_META_MAX_PARAMS && !is_none (call->params[i]);
}

int
_wb_meta_param_index (const WbMetaCall *call, const char *name)
{
  if (call->symbol == NULL)
    return -1;
  for (guint i = 0; i < call->symbol->n_params; i++)
    if (strcmp (call->symbol->params[i].name, name) == 0)
      return (int) i;
  return -1;
}

static const char *
param_name (const WbMetaCall *call, guint i)
{
  if (call->symbol != NULL && i < call->symbol->n_params)
    return call->symbol->params[i].name;
  return "?";
}

/* ---- values ------------------------------------------------------------------------------------- */

gboolean
_wb_meta_value_type (const WbMetaCall *call, const WbValue *v, WbType *out, GError **error)
{
  memset (out, 0, sizeof *out);
  if (v == NULL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "missing argument");
  switch (v->kind)
    {
    case WB_VALUE_NAME:
      if (call->lookup != NULL && call->lookup (v->text, out, call->lookup_data))
        {
          if (out->kind == WB_TYPE_UNKNOWN)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "the type of '%s' is unknown", v->text);
          return TRUE;
        }
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "'%s' is not a known proxy", v->text);
    case WB_VALUE_INT:
      out->kind = WB_TYPE_INT;
      out->has_value = TRUE;
      out->int_value = v->v.i;
      return TRUE;
    case WB_VALUE_BOOL:
      out->kind = WB_TYPE_BOOL;
      out->has_value = TRUE;
      out->int_value = v->v.b ? 1 : 0;
      return TRUE;
    case WB_VALUE_FLOAT:
      out->kind = WB_TYPE_FLOAT;
      out->has_value = TRUE;
      out->float_value = v->v.f;
      return TRUE;
    case WB_VALUE_COMPLEX:
      out->kind = WB_TYPE_COMPLEX;
      return TRUE;
    case WB_VALUE_NEG:
      if (!_wb_meta_value_type (call, v->base, out, error))
        return FALSE;
      if (out->kind == WB_TYPE_INT || out->kind == WB_TYPE_BOOL)
        {
          out->kind = WB_TYPE_INT;
          out->int_value = -out->int_value;
        }
      else if (out->kind == WB_TYPE_FLOAT)
        out->float_value = -out->float_value;
      out->text = NULL;
      return TRUE;
    case WB_VALUE_CALL:
      /* float('inf'), complex(1, 2): numbers spelled as calls */
      if (v->base != NULL && v->base->kind == WB_VALUE_NAME)
        {
          if (strcmp (v->base->text, "float") == 0)
            {
              out->kind = WB_TYPE_FLOAT;
              return TRUE;
            }
          if (strcmp (v->base->text, "complex") == 0)
            {
              out->kind = WB_TYPE_COMPLEX;
              return TRUE;
            }
        }
      break;
    default:
      break;
    }
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a tensor or a number");
}

gboolean
_wb_meta_arg_type (const WbMetaCall *call, guint i, WbType *out, GError **error)
{
  if (i >= WB_META_MAX_PARAMS || call->params[i] == NULL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "missing argument '%s'", param_name (call, i));
  if (!_wb_meta_value_type (call, call->params[i], out, error))
    {
      if (error != NULL && *error != NULL && (*error)->code == WB_SYMBOL_ERROR_BAD_TYPE)
        {
          g_clear_error (error);
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "argument '%s' is not a tensor or a number",
                                param_name (call, i));
        }
      return FALSE;
    }
  return TRUE;
}

gboolean
_wb_meta_value_tensor (const WbMetaCall *call, const WbValue *v, const char *what, WbType *out, GError **error)
{
  if (is_none (v))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a tensor for '%s', got None", what);
  if (!_wb_meta_value_type (call, v, out, error))
    return FALSE;
  if (out->kind != WB_TYPE_TENSOR && out->kind != WB_TYPE_FUTURE_TENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a tensor for '%s'", what);
  return TRUE;
}

gboolean
_wb_meta_arg_tensor (const WbMetaCall *call, guint i, WbType *out, GError **error)
{
  if (i >= WB_META_MAX_PARAMS)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "missing argument");
  return _wb_meta_value_tensor (call, call->params[i], param_name (call, i), out, error);
}

gboolean
_wb_meta_value_int (const WbMetaCall *call, const WbValue *v, gint64 *out)
{
  WbType t;

  if (v == NULL)
    return FALSE;
  switch (v->kind)
    {
    case WB_VALUE_INT:
      *out = v->v.i;
      return TRUE;
    case WB_VALUE_BOOL:
      *out = v->v.b ? 1 : 0;
      return TRUE;
    case WB_VALUE_NEG:
      if (!_wb_meta_value_int (call, v->base, out))
        return FALSE;
      *out = -*out;
      return TRUE;
    case WB_VALUE_NAME:
      if (call->lookup != NULL && call->lookup (v->text, &t, call->lookup_data) && (t.kind == WB_TYPE_INT || t.kind == WB_TYPE_BOOL) && t.has_value)
        {
          *out = t.int_value;
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

gboolean
_wb_meta_arg_int (const WbMetaCall *call, guint i, gint64 *out, GError **error)
{
  if (i < WB_META_MAX_PARAMS && _wb_meta_value_int (call, call->params[i], out))
    return TRUE;
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected an integer for '%s'", param_name (call, i));
}

gboolean
_wb_meta_arg_bool (const WbMetaCall *call, guint i, gboolean fallback, gboolean *out, GError **error)
{
  gint64 v;

  if (!_wb_meta_arg_present (call, i))
    {
      *out = fallback;
      return TRUE;
    }
  if (!_wb_meta_value_int (call, call->params[i], &v))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a bool for '%s'", param_name (call, i));
  *out = v != 0;
  return TRUE;
}

gboolean
_wb_meta_arg_number (const WbMetaCall *call, guint i, double *out)
{
  WbType t;

  if (!_wb_meta_arg_present (call, i) || !_wb_meta_value_type (call, call->params[i], &t, NULL))
    return FALSE;
  switch (t.kind)
    {
    case WB_TYPE_INT:
    case WB_TYPE_BOOL:
      *out = (double) t.int_value;
      return t.has_value;
    case WB_TYPE_FLOAT:
      *out = t.float_value;
      return t.has_value;
    default:
      return FALSE;
    }
}

gboolean
_wb_meta_value_ints (const WbMetaCall *call, const WbValue *v, gint64 *out, guint max, guint *n, gboolean allow_scalar)
{
  if (v == NULL)
    return FALSE;
  if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    {
      if (v->n_items > max)
        return FALSE;
      for (guint k = 0; k < v->n_items; k++)
        if (!_wb_meta_value_int (call, v->items[k], &out[k]))
          return FALSE;
      *n = v->n_items;
      return TRUE;
    }
  if (allow_scalar && max >= 1 && _wb_meta_value_int (call, v, &out[0]))
    {
      *n = 1;
      return TRUE;
    }
  return FALSE;
}

gboolean
_wb_meta_arg_ints (const WbMetaCall *call, guint i, gint64 *out, guint max, guint *n, gboolean allow_scalar, GError **error)
{
  if (i < WB_META_MAX_PARAMS && _wb_meta_value_ints (call, call->params[i], out, max, n, allow_scalar))
    return TRUE;
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a sequence of at most %u integers for '%s'",
                        max, param_name (call, i));
}

gboolean
_wb_meta_varargs_ints (const WbMetaCall *call, gint64 *out, guint max, guint *n, GError **error)
{
  if (call->n_varargs == 1 && call->varargs[0] != NULL && (call->varargs[0]->kind == WB_VALUE_TUPLE || call->varargs[0]->kind == WB_VALUE_LIST))
    {
      if (_wb_meta_value_ints (call, call->varargs[0], out, max, n, FALSE))
        return TRUE;
    }
  else if (call->n_varargs <= max)
    {
      guint k;
      for (k = 0; k < call->n_varargs; k++)
        if (!_wb_meta_value_int (call, call->varargs[k], &out[k]))
          break;
      if (k == call->n_varargs)
        {
          *n = k;
          return TRUE;
        }
    }
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected at most %u integers (or one sequence of them)", max);
}

gboolean
_wb_meta_arg_dtype (const WbMetaCall *call, guint i, WbDtype *dtype, gboolean *weak, GError **error)
{
  gboolean w = FALSE;

  if (!_wb_meta_arg_present (call, i))
    return FALSE;
  if (!wb_value_get_dtype (call->params[i], dtype, &w))
    {
      *dtype = WB_DTYPE_UNKNOWN;
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a dtype for '%s'", param_name (call, i));
    }
  if (weak != NULL)
    *weak = w;
  return TRUE;
}

gboolean
_wb_meta_arg_device (const WbMetaCall *call, guint i, WbDevice *device, GError **error)
{
  if (!_wb_meta_arg_present (call, i))
    return FALSE;
  if (!wb_value_get_device (call->params[i], device))
    {
      device->type = WB_DEVICE_UNKNOWN;
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a device for '%s'", param_name (call, i));
    }
  return TRUE;
}

const char *
_wb_meta_arg_string (const WbMetaCall *call, guint i)
{
  if (!_wb_meta_arg_present (call, i) || call->params[i]->kind != WB_VALUE_STRING)
    return NULL;
  return call->params[i]->v.s;
}

gboolean
_wb_meta_arg_items (const WbMetaCall *call, guint i, WbValue *const **items, guint *n, GError **error)
{
  const WbValue *v = i < WB_META_MAX_PARAMS ? call->params[i] : NULL;

  if (v == NULL || (v->kind != WB_VALUE_TUPLE && v->kind != WB_VALUE_LIST))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a tuple or list for '%s'", param_name (call, i));
  *items = v->items;
  *n = v->n_items;
  return TRUE;
}

gboolean
_wb_meta_canonical_dim (const WbMetaCall *call, gint64 dim, guint rank, guint *out, GError **error)
{
  gint64 r = rank == 0 ? 1 : rank;

  if (dim < -r || dim >= r)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim %" G_GINT64_FORMAT " is out of range for rank %u",
                          dim, rank);
  *out = (guint) (dim < 0 ? dim + r : dim);
  return TRUE;
}

/* ---- outputs ------------------------------------------------------------------------------------ */

void
_wb_meta_out (WbMetaCall *call, const WbType *type)
{
  g_array_append_vals (call->outputs, type, 1);
}

void
_wb_meta_out_tensor (WbMetaCall *call, WbDtype dtype, gboolean weak, const WbDevice *device, guint rank, const gint64 *shape)
{
  WbType t;

  memset (&t, 0, sizeof t);
  t.kind = WB_TYPE_TENSOR;
  t.dtype = dtype;
  t.weak = weak;
  t.device = *device;
  t.rank = MIN (rank, WB_MAX_RANK);
  if (shape != NULL)
    memcpy (t.shape, shape, sizeof (gint64) * t.rank);
  _wb_meta_out (call, &t);
}

void
_wb_meta_out_like (WbMetaCall *call, const WbType *like, WbDtype dtype)
{
  WbType t = *like;

  t.kind = WB_TYPE_TENSOR;
  t.text = NULL;
  if (dtype != WB_DTYPE_UNKNOWN && dtype != like->dtype)
    {
      t.dtype = dtype;
      t.weak = FALSE;
    }
  _wb_meta_out (call, &t);
}

void
_wb_meta_out_kind (WbMetaCall *call, WbTypeKind kind)
{
  WbType t;

  memset (&t, 0, sizeof t);
  t.kind = kind;
  _wb_meta_out (call, &t);
}

void
_wb_meta_out_int (WbMetaCall *call, gboolean has_value, gint64 value)
{
  WbType t;

  memset (&t, 0, sizeof t);
  t.kind = WB_TYPE_INT;
  t.has_value = has_value;
  t.int_value = value;
  _wb_meta_out (call, &t);
}

/* ---- dtypes ------------------------------------------------------------------------------------- */

gboolean
_wb_meta_is_weak (const WbType *t)
{
  if (t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR)
    return t->weak || t->rank == 0;
  return TRUE;
}

WbDtype
_wb_meta_number_dtype (WbTypeKind kind)
{
  switch (kind)
    {
    case WB_TYPE_BOOL:
      return WB_DTYPE_BOOL8;
    case WB_TYPE_INT:
      return WB_DTYPE_INT64;
    case WB_TYPE_FLOAT:
      return WB_DTYPE_FLOAT32;
    case WB_TYPE_COMPLEX:
      return WB_DTYPE_COMPLEX64;
    default:
      return WB_DTYPE_UNKNOWN;
    }
}

WbDtype
_wb_meta_computation_dtype (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT16:
    case WB_DTYPE_BFLOAT16:
      return WB_DTYPE_FLOAT32;
    case WB_DTYPE_COMPLEX32:
      return WB_DTYPE_COMPLEX64;
    default:
      return dtype;
    }
}

WbDtype
_wb_meta_real_dtype (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_COMPLEX32:
      return WB_DTYPE_FLOAT16;
    case WB_DTYPE_COMPLEX64:
      return WB_DTYPE_FLOAT32;
    case WB_DTYPE_COMPLEX128:
      return WB_DTYPE_FLOAT64;
    default:
      return dtype;
    }
}

gboolean
_wb_meta_is_low_precision (WbDtype dtype)
{
  return (wb_dtype_kind (dtype) == WB_DTYPE_KIND_FLOAT && wb_dtype_bits (dtype) <= 16) || dtype == WB_DTYPE_COMPLEX32;
}

/* ---- shapes ------------------------------------------------------------------------------------- */

static gboolean
is_tensor (const WbType *t)
{
  return t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR;
}

static void
append_shape (GString *s, const WbType *t)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < t->rank; i++)
    g_string_append_printf (s, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, t->shape[i]);
  g_string_append_c (s, ']');
}

gboolean
wb_symbol_broadcast_shapes (const WbType *types, guint n, WbType *out, GError **error)
{
  const WbType *first = NULL, *device_from = NULL;
  guint         rank = 0;

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < n; i++)
    if (is_tensor (&types[i]))
      {
        if (first == NULL)
          first = &types[i];
        if (device_from == NULL && !(types[i].rank == 0 && types[i].device.type == WB_DEVICE_CPU))
          device_from = &types[i];
        rank = MAX (rank, types[i].rank);
      }
  if (first == NULL)
    {
      g_set_error (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_TYPE, "no tensor to broadcast");
      return FALSE;
    }
  out->kind = WB_TYPE_TENSOR;
  out->dtype = first->dtype;
  out->device = (device_from ? device_from : first)->device;
  out->rank = MIN (rank, WB_MAX_RANK);
  for (guint d = 0; d < out->rank; d++)
    out->shape[d] = 1;
  for (guint i = 0; i < n; i++)
    {
      const WbType *t = &types[i];
      if (!is_tensor (t))
        continue;
      for (guint k = 0; k < t->rank; k++)
        {
          guint  d = out->rank - t->rank + k;
          gint64 have = out->shape[d], want = t->shape[k];
          if (want == have || want == 1)
            continue;
          if (have == 1)
            {
              out->shape[d] = want;
              continue;
            }
          {
            g_autoptr (GString) s = g_string_new ("shapes ");
            for (guint j = 0; j < n; j++)
              if (is_tensor (&types[j]))
                {
                  if (s->len > 7)
                    g_string_append (s, " and ");
                  append_shape (s, &types[j]);
                }
            g_string_append (s, " do not broadcast");
            g_set_error_literal (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_SHAPE, s->str);
          }
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
_wb_meta_broadcast (const WbMetaCall *call, const WbType *types, guint n, WbType *out, GError **error)
{
  GError *local = NULL;

  if (wb_symbol_broadcast_shapes (types, n, out, &local))
    return TRUE;
  _wb_meta_fail (error, local->code, call, "%s", local->message);
  g_error_free (local);
  return FALSE;
}

void
_wb_meta_reduce_shape (const WbType *in, const gboolean *reduced, gboolean keepdim, WbType *out)
{
  guint r = 0;

  *out = *in;
  out->text = NULL;
  for (guint d = 0; d < in->rank; d++)
    {
      if (!reduced[d])
        out->shape[r++] = in->shape[d];
      else if (keepdim)
        out->shape[r++] = 1;
    }
  out->rank = r;
}

gboolean
_wb_meta_reduction_dims (const WbMetaCall *call, guint i, guint rank, gboolean *mask, GError **error)
{
  gint64 dims[WB_MAX_RANK + 1];
  guint  n = 0;

  memset (mask, 0, sizeof (gboolean) * WB_MAX_RANK);
  if (!_wb_meta_arg_present (call, i))
    {
      for (guint d = 0; d < rank; d++)
        mask[d] = TRUE;
      return TRUE;
    }
  if (!_wb_meta_arg_ints (call, i, dims, G_N_ELEMENTS (dims), &n, TRUE, error))
    return FALSE;
  if (n == 0)
    {
      for (guint d = 0; d < rank; d++)
        mask[d] = TRUE;
      return TRUE;
    }
  for (guint k = 0; k < n; k++)
    {
      guint d = 0;
      if (!_wb_meta_canonical_dim (call, dims[k], rank, &d, error))
        return FALSE;
      if (rank > 0 && mask[d])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim %u is repeated", d);
      if (rank > 0)
        mask[d] = TRUE;
    }
  return TRUE;
}

gboolean
_wb_meta_out_shape (WbMetaCall *call, const WbType *like, WbDtype dtype, const gint64 *shape, guint rank, GError **error)
{
  WbType t = *like;

  if (rank > WB_MAX_RANK)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "rank %u exceeds %d", rank, WB_MAX_RANK);
  for (guint i = 0; i < rank; i++)
    if (shape[i] < 0)
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "negative dimension %" G_GINT64_FORMAT, shape[i]);
  t.kind = WB_TYPE_TENSOR;
  t.text = NULL;
  if (dtype != WB_DTYPE_UNKNOWN && dtype != t.dtype)
    {
      t.dtype = dtype;
      t.weak = FALSE;
    }
  t.rank = rank;
  memset (t.shape, 0, sizeof t.shape);
  if (rank > 0)
    memcpy (t.shape, shape, sizeof (gint64) * rank);
  _wb_meta_out (call, &t);
  return TRUE;
}
