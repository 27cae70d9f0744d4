/* wb-cpu-utility.c — copies and aliases (shallow_copy, clone, copy_, update_aliases), device_put, item,
 * bitcast, the prologue checks, clear_mutable_collection and the no-op utility prims
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Aliasing follows PyTorch: shallow_copy and update_aliases return the same storage, copy_(from, to)
 * writes `to` in place and returns it, so every alias sees the write. Devices: the workbench runs a
 * trace recorded on cuda:0 on the cpu, so a device in a check or in device_put matches any device. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

static gboolean
check_failed (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
check_failed (GError **error, const char *format, ...)
{
  va_list          args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_CHECK_FAILED, msg);
  return FALSE;
}

/* check_tensor_shape_and_metadata(t, shape, device, dtype, requires_grad) */
static gboolean
check_tensor (WbKernelCall *call, GError **error)
{
  WbRtValue *t = wb_kernel_call_get_arg (call, 0, "t");
  gint64     shape[WB_MAX_RANK];
  guint      rank;
  WbDtype    dtype;

  if (t == NULL || t->kind != WB_RT_TENSOR)
    {
      g_autofree char *d = wb_rt_value_describe (t);
      return check_failed (error, "expected a tensor, got %s", d);
    }
  if (!_wb_cpu_arg_ints (call, 1, "shape", TRUE, shape, WB_MAX_RANK, &rank, error) ||
      !_wb_cpu_arg_dtype (call, 3, "dtype", &dtype, error))
    return FALSE;
  if (rank != t->tensor->rank || memcmp (shape, t->tensor->shape, rank * sizeof (gint64)) != 0 ||
      (dtype != WB_DTYPE_UNKNOWN && dtype != t->tensor->dtype))
    {
      WbType           want;
      g_autofree char *got = wb_tensor_type_to_string (t->tensor);
      g_autofree char *w = NULL;
      wb_type_init_tensor (&want, dtype, &t->tensor->device, rank, shape);
      w = wb_type_to_string (&want);
      return check_failed (error, "tensor metadata check failed: expected %s, got %s", w, got);
    }
  return TRUE;
}

static gboolean
check_number (WbKernelCall *call, GError **error)
{
  WbRtValue *n = wb_kernel_call_get_arg (call, 0, "n");
  WbRtValue *v = wb_kernel_call_get_arg (call, 1, "value");
  double     a, b;

  /* a number the workbench could not know (an object's attribute without an annotated value) passes */
  if (n == NULL || n->kind == WB_RT_OPAQUE || v == NULL)
    return TRUE;
  if (!wb_rt_value_get_number (n, &a) || !wb_rt_value_get_number (v, &b))
    {
      g_autofree char *dn = wb_rt_value_describe (n);
      return check_failed (error, "expected a number, got %s", dn);
    }
  if (a != b && !(isnan (a) && isnan (b)))
    return check_failed (error, "number check failed: expected %g, got %g", b, a);
  return TRUE;
}

/* shallow_copy and device_put (the same value), clone, copy_ (in place) and update_aliases */
static gboolean
util_copy (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;

  switch (op)
    {
    case WB_UTIL_SHALLOW_COPY:
    case WB_UTIL_DEVICE_PUT:
      {
        WbRtValue *v = wb_kernel_call_get_arg (call, 0, "a");
        if (v == NULL)
          return _wb_cpu_arg_tensor (call, 0, "a", &a, error);
        call->result = wb_rt_value_ref (v);
        return TRUE;
      }

    case WB_UTIL_CLONE:
      {
        WbTensor *out;
        if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
          return FALSE;
        out = wb_tensor_new_like (a, error);
        if (out == NULL || !wb_tensor_copy_into (out, a, error))
          {
            g_clear_pointer (&out, wb_tensor_unref);
            return FALSE;
          }
        return _wb_cpu_set_result (call, out);
      }

    case WB_UTIL_COPY_:
      {
        WbTensor *from, *to;
        if (!_wb_cpu_arg_tensor (call, 0, "copy_from", &from, error) ||
            !_wb_cpu_arg_tensor (call, 1, "copy_to", &to, error))
          return FALSE;
        for (guint d = 0; d < to->rank; d++)
          if (to->strides[d] == 0 && to->shape[d] > 1)
            {
              g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                           "copy_ into a broadcast (stride-0) tensor");
              return FALSE;
            }
        if (!wb_tensor_copy_into (to, from, error))
          return FALSE;
        return _wb_cpu_set_result (call, wb_tensor_ref (to));
      }

    case WB_UTIL_UPDATE_ALIASES:
      {
        WbRtValue *v = wb_kernel_call_get_arg (call, 0, "aliases");
        if (!wb_rt_value_is_sequence (v))
          {
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "update_aliases takes a tuple");
            return FALSE;
          }
        {
          WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
          for (guint i = 0; i < v->items->len; i++)
            wb_rt_value_append (tuple, wb_rt_value_ref (v->items->pdata[i]));
          call->result = tuple;
        }
        return TRUE;
      }

    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

static gboolean
util_item (WbKernelCall *call, GError **error)
{
  WbTensor *a;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
    return FALSE;
  if (wb_tensor_numel (a) != 1)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "item of a tensor with %" G_GINT64_FORMAT " elements", wb_tensor_numel (a));
      return FALSE;
    }
  if (a->dtype == WB_DTYPE_BOOL8)
    call->result = wb_rt_value_new_bool (wb_tensor_get_i64 (a, 0) != 0);
  else if (_wb_dtype_class (a->dtype) == WB_CLASS_I64)
    call->result = wb_rt_value_new_int (wb_tensor_get_i64 (a, 0));
  else
    call->result = wb_rt_value_new_float (wb_tensor_get_f64 (a, 0));
  return TRUE;
}

static gboolean
util_bitcast (WbKernelCall *call, GError **error)
{
  WbTensor *a;
  WbDtype   dtype;
  g_autoptr (WbTensor) c = NULL;

  if (!_wb_cpu_arg_tensor (call, 0, "src", &a, error) || !_wb_cpu_arg_dtype (call, 1, "dtype", &dtype, error))
    return FALSE;
  if (dtype == WB_DTYPE_UNKNOWN || wb_dtype_size (dtype) != wb_dtype_size (a->dtype) || !_wb_dtype_is_supported (dtype))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "bitcast from %s to %s (only equal element sizes)", wb_dtype_shortname (a->dtype),
                   wb_dtype_shortname (dtype));
      return FALSE;
    }
  c = wb_tensor_contiguous (a, error);
  if (c == NULL)
    return FALSE;
  return _wb_cpu_set_result (call, wb_tensor_new_view (c, dtype, c->rank, c->shape, c->strides, c->offset));
}

/* The prologue's checks: a value the workbench could not know (opaque) passes */
static gboolean
util_check (WbKernelCall *call, int op, GError **error)
{
  switch (op)
    {
    case WB_UTIL_CHECK_TENSOR:
      return check_tensor (call, error);

    case WB_UTIL_CHECK_LEN:
      {
        WbRtValue *seq = wb_kernel_call_get_arg (call, 0, "seq");
        gint64     n;
        if (!_wb_cpu_arg_int (call, 1, "length", FALSE, 0, &n, error))
          return FALSE;
        if (seq == NULL || seq->kind == WB_RT_OPAQUE)
          return TRUE;
        if (seq->items == NULL)
          return check_failed (error, "check_len of a %s", wb_rt_value_kind_to_string (seq->kind));
        {
          guint len = seq->kind == WB_RT_DICT ? seq->items->len / 2 : seq->items->len;
          if ((gint64) len != n)
            return check_failed (error, "length check failed: expected %" G_GINT64_FORMAT ", got %u", n, len);
        }
        return TRUE;
      }

    case WB_UTIL_CHECK_NONE:
      {
        WbRtValue *p = wb_kernel_call_get_arg (call, 0, "p");
        if (p != NULL && p->kind != WB_RT_NONE && p->kind != WB_RT_OPAQUE)
          return check_failed (error, "expected None");
        return TRUE;
      }

    case WB_UTIL_CHECK_EMPTY:
      {
        WbRtValue *p = wb_kernel_call_get_arg (call, 0, "seq");
        if (p != NULL && p->items != NULL && p->items->len != 0)
          return check_failed (error, "expected an empty sequence");
        return TRUE;
      }

    case WB_UTIL_CHECK_NUMBER:
      return check_number (call, error);

    case WB_UTIL_CHECK_PASS:
      return TRUE;

    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

/* frexp(a) -> (mantissa in a's dtype, exponent in int32) */
static gboolean
util_frexp (WbKernelCall *call, GError **error)
{
  WbTensor *a, *m, *e;
  g_autoptr (WbTensor) x = NULL;
  gint64 n;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_check_dtype (call, a->dtype, WB_DT_FLOATS, error) ||
      (x = wb_tensor_to_dtype (a, WB_DTYPE_FLOAT64, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (x);
  m = wb_tensor_new (WB_DTYPE_FLOAT64, a->rank, a->shape, error);
  e = m ? wb_tensor_new (WB_DTYPE_INT32, a->rank, a->shape, error) : NULL;
  if (e == NULL)
    {
      g_clear_pointer (&m, wb_tensor_unref);
      return FALSE;
    }
  for (gint64 i = 0; i < n; i++)
    {
      int ex = 0;
      ((double *) wb_tensor_get_data (m))[i] = frexp (((double *) wb_tensor_get_data (x))[i], &ex);
      ((gint32 *) wb_tensor_get_data (e))[i] = ex;
    }
  {
    WbTensor  *mt = wb_tensor_to_dtype (m, a->dtype, error);
    WbRtValue *tuple;
    wb_tensor_unref (m);
    if (mt == NULL)
      {
        wb_tensor_unref (e);
        return FALSE;
      }
    tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
    wb_rt_value_append (tuple, wb_rt_value_take_tensor (mt));
    wb_rt_value_append (tuple, wb_rt_value_take_tensor (e));
    call->result = tuple;
  }
  return TRUE;
}

gboolean
_wb_cpu_utility (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;

  switch (op)
    {
    case WB_UTIL_SHALLOW_COPY:
    case WB_UTIL_DEVICE_PUT:
    case WB_UTIL_CLONE:
    case WB_UTIL_COPY_:
    case WB_UTIL_UPDATE_ALIASES:
      return util_copy (call, op, error);

    case WB_UTIL_DIM:
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
        return FALSE;
      call->result = wb_rt_value_new_int (a->rank);
      return TRUE;

    case WB_UTIL_ITEM:
      return util_item (call, error);

    case WB_UTIL_BITCAST:
      return util_bitcast (call, error);

    case WB_UTIL_CHECK_TENSOR:
    case WB_UTIL_CHECK_LEN:
    case WB_UTIL_CHECK_NONE:
    case WB_UTIL_CHECK_EMPTY:
    case WB_UTIL_CHECK_NUMBER:
    case WB_UTIL_CHECK_PASS:
      return util_check (call, op, error);

    case WB_UTIL_NOTHING:
      return TRUE;

    case WB_UTIL_CLEAR_COLLECTION:
      {
        WbRtValue *v = wb_kernel_call_get_arg (call, 0, "x");
        if (v != NULL && v->kind == WB_RT_LIST)
          g_ptr_array_set_size (v->items, 0);
        return TRUE;
      }

    case WB_UTIL_PACK_TUPLE:
    case WB_UTIL_PACK_LIST:
      {
        WbRtValue *seq = wb_rt_value_new_sequence (op == WB_UTIL_PACK_LIST ? WB_RT_LIST : WB_RT_TUPLE);
        for (guint i = 0; i < call->n_args; i++)
          wb_rt_value_append (seq, wb_rt_value_ref (call->args[i]));
        call->result = seq;
        return TRUE;
      }

    case WB_UTIL_FIRST:
      {
        WbRtValue *v = wb_kernel_call_get_arg (call, 0, NULL);
        call->result = v ? wb_rt_value_ref (v) : wb_rt_value_new_none ();
        return TRUE;
      }

    case WB_UTIL_OPAQUE:
      call->result = wb_rt_value_new_opaque (call->bsym->name);
      return TRUE;

    case WB_UTIL_FREXP:
      return util_frexp (call, error);

    case WB_UTIL_PRINT:
      {
        g_autofree char *d = wb_rt_value_describe (wb_kernel_call_get_arg (call, 0, "x"));
        g_print ("%s\n", d);
        return TRUE;
      }

    default:
      g_assert_not_reached ();
    }
  return FALSE;
}
