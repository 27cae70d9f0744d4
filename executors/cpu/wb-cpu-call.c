/* wb-cpu-call.c — reading a kernel call's arguments (by printed position, then keyword)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cpu-private.h"

static gboolean
bad_arg (GError **error, guint pos, const char *name, const char *want, const WbRtValue *got)
{
  g_autofree char *d = wb_rt_value_describe (got);

  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
               "argument %u (%s) should be %s, got %s", pos, name ? name : "?", want, got ? d : "nothing");
  return FALSE;
}

gboolean
_wb_cpu_arg_tensor (WbKernelCall *call, guint pos, const char *name, WbTensor **out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v == NULL || v->kind != WB_RT_TENSOR)
    return bad_arg (error, pos, name, "a tensor", v);
  if (!_wb_dtype_is_supported (v->tensor->dtype))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "argument %u (%s): dtype %s is not supported by the cpu executor", pos, name,
                   wb_dtype_shortname (v->tensor->dtype));
      return FALSE;
    }
  *out = v->tensor;
  return TRUE;
}

gboolean
_wb_cpu_arg_tensor_opt (WbKernelCall *call, guint pos, const char *name, WbTensor **out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v == NULL || v->kind == WB_RT_NONE)
    {
      *out = NULL;
      return TRUE;
    }
  return _wb_cpu_arg_tensor (call, pos, name, out, error);
}

gboolean
_wb_cpu_arg_int (WbKernelCall *call, guint pos, const char *name, gboolean has_def, gint64 def, gint64 *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if ((v == NULL || v->kind == WB_RT_NONE) && has_def)
    {
      *out = def;
      return TRUE;
    }
  if (v != NULL && v->kind == WB_RT_TENSOR && v->tensor->rank == 0)
    {
      *out = wb_tensor_get_i64 (v->tensor, 0);
      return TRUE;
    }
  if (!wb_rt_value_get_int (v, out))
    return bad_arg (error, pos, name, "an int", v);
  return TRUE;
}

gboolean
_wb_cpu_arg_number (WbKernelCall *call, guint pos, const char *name, gboolean has_def, double def, double *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if ((v == NULL || v->kind == WB_RT_NONE) && has_def)
    {
      *out = def;
      return TRUE;
    }
  if (v != NULL && v->kind == WB_RT_TENSOR && v->tensor->rank == 0)
    {
      *out = wb_tensor_get_f64 (v->tensor, 0);
      return TRUE;
    }
  if (!wb_rt_value_get_number (v, out))
    return bad_arg (error, pos, name, "a number", v);
  return TRUE;
}

gboolean
_wb_cpu_arg_bool (WbKernelCall *call, guint pos, const char *name, gboolean has_def, gboolean def, gboolean *out, GError **error)
{
  gint64 i;

  if (!_wb_cpu_arg_int (call, pos, name, has_def, def, &i, error))
    return FALSE;
  *out = i != 0;
  return TRUE;
}

gboolean
_wb_cpu_value_ints (const WbRtValue *v, gboolean allow_scalar, gint64 *out, guint max, guint *n)
{
  if (v == NULL)
    return FALSE;
  if (allow_scalar && (v->kind == WB_RT_INT || v->kind == WB_RT_BOOL))
    {
      if (max < 1)
        return FALSE;
      out[0] = v->i;
      *n = 1;
      return TRUE;
    }
  if (!wb_rt_value_is_sequence (v) || v->items->len > max)
    return FALSE;
  for (guint i = 0; i < v->items->len; i++)
    if (!wb_rt_value_get_int (v->items->pdata[i], &out[i]))
      return FALSE;
  *n = v->items->len;
  return TRUE;
}

gboolean
_wb_cpu_arg_ints (WbKernelCall *call, guint pos, const char *name, gboolean allow_scalar, gint64 *out, guint max, guint *n, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (!_wb_cpu_value_ints (v, allow_scalar, out, max, n))
    return bad_arg (error, pos, name, "a sequence of ints", v);
  return TRUE;
}

gboolean
_wb_cpu_arg_dtype (WbKernelCall *call, guint pos, const char *name, WbDtype *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  *out = WB_DTYPE_UNKNOWN;
  if (v == NULL || v->kind == WB_RT_NONE)
    return TRUE;
  if (v->kind != WB_RT_DTYPE)
    return bad_arg (error, pos, name, "a dtype", v);
  *out = v->dtype;
  return TRUE;
}

gboolean
_wb_cpu_dim (gint64 d, guint rank, gint64 *out, GError **error)
{
  gint64 r = MAX (rank, 1);

  if (d < -r || d >= r)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "dim %" G_GINT64_FORMAT " is out of range for rank %u", d, rank);
      return FALSE;
    }
  *out = d < 0 ? d + r : d;
  return TRUE;
}

gboolean
_wb_cpu_set_result (WbKernelCall *call, WbTensor *tensor)
{
  g_clear_pointer (&call->result, wb_rt_value_unref);
  call->result = wb_rt_value_take_tensor (tensor);
  return TRUE;
}

gboolean
_wb_cpu_check_dtype (WbKernelCall *call, WbDtype dtype, guint64 mask, GError **error)
{
  if (dtype < 64 && (mask & (G_GUINT64_CONSTANT (1) << dtype)))
    return TRUE;
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
               "dtype %s is not supported by this kernel", wb_dtype_shortname (dtype));
  return FALSE;
}

gint64
_wb_cpu_numel (guint rank, const gint64 *shape)
{
  gint64 n = 1;

  for (guint d = 0; d < rank; d++)
    n *= shape[d];
  return n;
}

static WbTensor *
to_class (WbTensor *t, WbDtype dtype, GError **error)
{
  if (t->dtype == dtype && wb_tensor_is_contiguous (t))
    return wb_tensor_ref (t);
  return wb_tensor_to_dtype (t, dtype, error);
}

WbTensor *
_wb_cpu_to_f32 (WbTensor *t, GError **error)
{
  return to_class (t, WB_DTYPE_FLOAT32, error);
}

WbTensor *
_wb_cpu_to_f64 (WbTensor *t, GError **error)
{
  return to_class (t, WB_DTYPE_FLOAT64, error);
}

WbTensor *
_wb_cpu_to_i64 (WbTensor *t, GError **error)
{
  return to_class (t, WB_DTYPE_INT64, error);
}

/* @name inside printed @v, whose value is @rt: its type into @out when it is a tensor */
static gboolean
find_named (const WbValue *v, const WbRtValue *rt, const char *name, WbType *out)
{
  if (v == NULL || rt == NULL)
    return FALSE;
  if (v->kind == WB_VALUE_NAME)
    {
      if (strcmp (v->text, name) != 0 || rt->kind != WB_RT_TENSOR)
        return FALSE;
      wb_type_init_tensor (out, rt->tensor->dtype, &rt->tensor->device, rt->tensor->rank, rt->tensor->shape);
      return TRUE;
    }
  if (wb_value_is_sequence (v) && wb_rt_value_is_sequence (rt) && rt->items->len == v->n_items)
    for (guint i = 0; i < v->n_items; i++)
      if (find_named (v->items[i], rt->items->pdata[i], name, out))
        return TRUE;
  return FALSE;
}

gboolean
_wb_cpu_call_lookup (const char *name, WbType *out, gpointer user_data)
{
  const WbKernelCall *call = user_data;
  const WbBsym       *b = call->bsym;

  for (guint i = 0; b != NULL && i < b->n_args && i < call->n_args; i++)
    if (find_named (b->args[i], call->args[i], name, out))
      return TRUE;
  for (guint i = 0; b != NULL && i < call->n_kwargs; i++)
    for (guint k = 0; k < b->n_kwargs; k++)
      if (g_strcmp0 (b->kwargs[k].name, call->kwarg_names[i]) == 0 && find_named (b->kwargs[k].value, call->kwargs[i], name, out))
        return TRUE;
  return FALSE;
}

gboolean
_wb_cpu_identity (WbKernelCall *call, WbTensor *a)
{
  const WbValue *src = call->bsym ? wb_bsym_get_identity_source (call->bsym, _wb_cpu_call_lookup, call) : NULL;
  WbType         t;

  /* the source must be @a, the tensor the kernel read */
  if (src == NULL || !_wb_cpu_call_lookup (src->text, &t, call) || t.rank != a->rank || memcmp (t.shape, a->shape, a->rank * sizeof (gint64)) != 0)
    return FALSE;
  return _wb_cpu_set_result (call, wb_tensor_ref (a));
}
