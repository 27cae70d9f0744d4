/* wb-rt-value.c — WbRtValue: the interpreter's values
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "wb-executors-private.h"

static WbRtValue *
rt_new (WbRtKind kind)
{
  WbRtValue *v = g_new0 (WbRtValue, 1);

  v->ref_count = 1;
  v->kind = kind;
  return v;
}

WbRtValue *
wb_rt_value_ref (WbRtValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);
  value->ref_count++;
  return value;
}

void
wb_rt_value_unref (WbRtValue *value)
{
  if (value == NULL || --value->ref_count > 0)
    return;
  g_free (value->s);
  g_clear_pointer (&value->tensor, wb_tensor_unref);
  g_clear_pointer (&value->items, g_ptr_array_unref);
  g_free (value);
}

WbRtValue *
wb_rt_value_new_none (void)
{
  return rt_new (WB_RT_NONE);
}

WbRtValue *
wb_rt_value_new_bool (gboolean value)
{
  WbRtValue *v = rt_new (WB_RT_BOOL);

  v->b = value != FALSE;
  v->i = v->b;
  v->f = v->b;
  return v;
}

WbRtValue *
wb_rt_value_new_int (gint64 value)
{
  WbRtValue *v = rt_new (WB_RT_INT);

  v->i = value;
  v->f = (double) value;
  return v;
}

WbRtValue *
wb_rt_value_new_float (double value)
{
  WbRtValue *v = rt_new (WB_RT_FLOAT);

  v->f = value;
  return v;
}

WbRtValue *
wb_rt_value_new_string (const char *value)
{
  WbRtValue *v = rt_new (WB_RT_STRING);

  v->s = g_strdup (value);
  return v;
}

WbRtValue *
wb_rt_value_new_tensor (WbTensor *tensor)
{
  return wb_rt_value_take_tensor (wb_tensor_ref (tensor));
}

WbRtValue *
wb_rt_value_take_tensor (WbTensor *tensor)
{
  WbRtValue *v = rt_new (WB_RT_TENSOR);

  g_return_val_if_fail (tensor != NULL, v);
  v->tensor = tensor;
  return v;
}

WbRtValue *
wb_rt_value_new_dtype (WbDtype dtype, gboolean weak)
{
  WbRtValue *v = rt_new (WB_RT_DTYPE);

  v->dtype = dtype;
  v->b = weak;
  return v;
}

WbRtValue *
wb_rt_value_new_device (const WbDevice *device)
{
  WbRtValue *v = rt_new (WB_RT_DEVICE);

  v->device = *device;
  return v;
}

WbRtValue *
wb_rt_value_new_opaque (const char *description)
{
  WbRtValue *v = rt_new (WB_RT_OPAQUE);

  v->s = g_strdup (description);
  return v;
}

WbRtValue *
wb_rt_value_new_ellipsis (void)
{
  return rt_new (WB_RT_ELLIPSIS);
}

WbRtValue *
wb_rt_value_new_sequence (WbRtKind kind)
{
  WbRtValue *v;

  g_return_val_if_fail (kind == WB_RT_TUPLE || kind == WB_RT_LIST || kind == WB_RT_DICT || kind == WB_RT_SLICE, NULL);
  v = rt_new (kind);
  v->items = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  return v;
}

void
wb_rt_value_append (WbRtValue *seq, WbRtValue *item)
{
  g_return_if_fail (seq != NULL && seq->items != NULL && item != NULL);
  g_ptr_array_add (seq->items, item);
}

gboolean
wb_rt_value_is_sequence (const WbRtValue *value)
{
  return value != NULL && (value->kind == WB_RT_TUPLE || value->kind == WB_RT_LIST);
}

gboolean
wb_rt_value_is_number (const WbRtValue *value)
{
  return value != NULL && (value->kind == WB_RT_BOOL || value->kind == WB_RT_INT || value->kind == WB_RT_FLOAT);
}

gboolean
wb_rt_value_get_number (const WbRtValue *value, double *out)
{
  if (!wb_rt_value_is_number (value))
    return FALSE;
  *out = value->kind == WB_RT_FLOAT ? value->f : (double) value->i;
  return TRUE;
}

gboolean
wb_rt_value_get_int (const WbRtValue *value, gint64 *out)
{
  if (value == NULL)
    return FALSE;
  if (value->kind == WB_RT_INT || value->kind == WB_RT_BOOL)
    {
      *out = value->i;
      return TRUE;
    }
  if (value->kind == WB_RT_FLOAT && isfinite (value->f) && value->f == floor (value->f))
    {
      *out = (gint64) value->f;
      return TRUE;
    }
  return FALSE;
}

guint
wb_rt_value_get_n_items (const WbRtValue *value)
{
  return value != NULL && value->items != NULL ? value->items->len : 0;
}

WbRtValue *
wb_rt_value_get_item (const WbRtValue *value, guint i)
{
  g_return_val_if_fail (value != NULL && value->items != NULL && i < value->items->len, NULL);
  return value->items->pdata[i];
}

WbRtValue *
wb_rt_value_dict_lookup (const WbRtValue *dict, const char *key)
{
  if (dict == NULL || dict->kind != WB_RT_DICT)
    return NULL;
  for (guint i = 0; i + 1 < dict->items->len; i += 2)
    {
      const WbRtValue *k = dict->items->pdata[i];
      if (k->kind == WB_RT_STRING && g_strcmp0 (k->s, key) == 0)
        return dict->items->pdata[i + 1];
    }
  return NULL;
}

const char *
wb_rt_value_kind_to_string (WbRtKind kind)
{
  switch (kind)
    {
    case WB_RT_NONE:
      return "None";
    case WB_RT_BOOL:
      return "bool";
    case WB_RT_INT:
      return "int";
    case WB_RT_FLOAT:
      return "float";
    case WB_RT_STRING:
      return "str";
    case WB_RT_TENSOR:
      return "tensor";
    case WB_RT_TUPLE:
      return "tuple";
    case WB_RT_LIST:
      return "list";
    case WB_RT_DICT:
      return "dict";
    case WB_RT_DTYPE:
      return "dtype";
    case WB_RT_DEVICE:
      return "device";
    case WB_RT_SLICE:
      return "slice";
    case WB_RT_ELLIPSIS:
      return "Ellipsis";
    case WB_RT_OPAQUE:
      return "object";
    default:
      return "?";
    }
}

char *
wb_rt_value_describe (const WbRtValue *value)
{
  char buf[32];

  if (value == NULL)
    return g_strdup ("(undefined)");
  switch (value->kind)
    {
    case WB_RT_TENSOR:
      return wb_tensor_type_to_string (value->tensor);
    case WB_RT_BOOL:
      return g_strdup (value->b ? "bool True" : "bool False");
    case WB_RT_INT:
      return g_strdup_printf ("int %" G_GINT64_FORMAT, value->i);
    case WB_RT_FLOAT:
      return g_strdup_printf ("float %g", value->f);
    case WB_RT_STRING:
      return g_strdup_printf ("str '%s'", value->s);
    case WB_RT_TUPLE:
    case WB_RT_LIST:
    case WB_RT_DICT:
      return g_strdup_printf ("%s of %u", wb_rt_value_kind_to_string (value->kind), value->items->len);
    case WB_RT_DTYPE:
      return g_strdup_printf ("dtype %s", wb_dtype_shortname (value->dtype));
    case WB_RT_DEVICE:
      return g_strdup_printf ("device %s", wb_device_to_string (&value->device, buf));
    case WB_RT_OPAQUE:
      return g_strdup_printf ("object %s", value->s ? value->s : "");
    default:
      return g_strdup (wb_rt_value_kind_to_string (value->kind));
    }
}

GPtrArray *
wb_rt_value_array_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
}

static gint64
tensor_count_nan (WbTensor *t)
{
  g_autoptr (WbTensor) f = NULL;
  g_autoptr (GError) error = NULL;
  gint64 n = 0, numel;

  if (t->device.type != WB_DEVICE_CPU || !wb_dtype_is_float (t->dtype) || wb_tensor_numel (t) == 0)
    return 0;
  /* one contiguous f64 copy: any float dtype, any layout */
  if ((f = wb_tensor_to_dtype (t, WB_DTYPE_FLOAT64, &error)) == NULL)
    return 0;
  numel = wb_tensor_numel (f);
  for (gint64 i = 0; i < numel; i++)
    n += isnan (((const double *) wb_tensor_get_data (f))[i]) ? 1 : 0;
  return n;
}

gint64
wb_rt_value_count_nan (const WbRtValue *value)
{
  gint64 n = 0;

  if (value == NULL)
    return 0;
  if (value->kind == WB_RT_TENSOR && value->tensor != NULL)
    return tensor_count_nan (value->tensor);
  if (value->items != NULL)
    for (guint i = 0; i < value->items->len; i++)
      n += wb_rt_value_count_nan (value->items->pdata[i]);
  return n;
}
