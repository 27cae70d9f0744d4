/* wb-meta-utility.c — meta functions of prologue checks, unpacking and packing, Python statements and
 * grad markers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checks return nothing, but where the checked value's type is known they compare it with what they
 * check: check_tensor_metadata(x, (512, 256), 'cuda:0', torch.float32, False) against x's annotation. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

gboolean
_wb_meta_none (WbMetaCall *call, GError **error)
{
  return TRUE;
}

/* An opaque value; meta_arg 1 (unpack_trivial): the argument's own type when it is a known proxy. */
gboolean
_wb_meta_any (WbMetaCall *call, GError **error)
{
  WbType t;

  if (call->arg == 1 && call->params[0] != NULL && _wb_meta_value_type (call, call->params[0], &t, NULL))
    {
      _wb_meta_out (call, &t);
      return TRUE;
    }
  _wb_meta_out_kind (call, WB_TYPE_ANY);
  return TRUE;
}

/* check_tensor_shape_and_metadata(t, shape, device, dtype, requires_grad) */
gboolean
_wb_meta_check_tensor (WbMetaCall *call, GError **error)
{
  WbType   t;
  gint64   shape[MAXD];
  guint    n;
  WbDtype  dtype;
  WbDevice device;
  char     a[24], b[24];

  /* a DTensor (a DTensorProxy is a TensorProxy) is checked against its global shape */
  if (_wb_meta_arg_type (call, 0, &t, NULL) && t.kind == WB_TYPE_DTENSOR)
    ;
  else if (!_wb_meta_arg_tensor (call, 0, &t, error))
    return FALSE;
  if (!_wb_meta_arg_ints (call, 1, shape, MAXD, &n, FALSE, error))
    return FALSE;
  if (n != t.rank || memcmp (shape, t.shape, sizeof (gint64) * n) != 0)
    {
      g_autofree char *have = wb_type_to_string (&t);
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "checks a shape of rank %u that %s does not have", n, have);
    }
  if (_wb_meta_arg_device (call, 2, &device, NULL) && !wb_device_equal (&device, &t.device))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "checks device %s but the tensor is on %s",
                          wb_device_to_string (&device, a), wb_device_to_string (&t.device, b));
  if (_wb_meta_arg_dtype (call, 3, &dtype, NULL, NULL) && dtype != t.dtype)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "checks dtype %s but the tensor is %s",
                          wb_dtype_shortname (dtype), wb_dtype_shortname (t.dtype));
  return TRUE;
}

/* check_number_type_and_value(n, value) */
gboolean
_wb_meta_check_number (WbMetaCall *call, GError **error)
{
  WbType n, v;

  if (call->params[0] == NULL || call->params[1] == NULL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "missing argument");
  if (!_wb_meta_value_type (call, call->params[0], &n, NULL) || !_wb_meta_value_type (call, call->params[1], &v, NULL))
    return TRUE; /* opaque values: nothing to compare */
  if (n.kind == WB_TYPE_TENSOR || v.kind == WB_TYPE_TENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a number");
  if ((n.kind == WB_TYPE_INT || n.kind == WB_TYPE_BOOL || n.kind == WB_TYPE_FLOAT) && n.kind != v.kind)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "checks a number of another type");
  if (n.has_value && v.has_value && !wb_type_equal (&n, &v))
    {
      g_autofree char *x = wb_type_to_string (&n), *y = wb_type_to_string (&v);
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "checks value %s but the proxy is \"%s\"", y, x);
    }
  return TRUE;
}

gboolean
_wb_meta_check_len (WbMetaCall *call, GError **error)
{
  gint64 n;

  if (!_wb_meta_arg_int (call, 1, &n, error))
    return FALSE;
  if (n < 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "negative length");
  return TRUE;
}

/* unpack_sequence(x, length): @length opaque values */
gboolean
_wb_meta_unpack_sequence (WbMetaCall *call, GError **error)
{
  gint64 n;

  if (!_wb_meta_arg_int (call, 1, &n, error))
    return FALSE;
  if (n < 0 || n > 4096)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "invalid length %" G_GINT64_FORMAT, n);
  for (gint64 i = 0; i < n; i++)
    _wb_meta_out_kind (call, WB_TYPE_ANY);
  return TRUE;
}

/* shape(t): one int per dim, with its value */
gboolean
_wb_meta_prim_shape (WbMetaCall *call, GError **error)
{
  WbType t;

  if (!_wb_meta_arg_tensor (call, 0, &t, error))
    return FALSE;
  for (guint i = 0; i < t.rank; i++)
    _wb_meta_out_int (call, TRUE, t.shape[i]);
  return TRUE;
}

gboolean
_wb_meta_get_grad (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  a.text = NULL;
  _wb_meta_out (call, &a);
  return TRUE;
}

/* construct_tuple: a tuple; meta_arg 1 (pack_list): a list */
gboolean
_wb_meta_construct_tuple (WbMetaCall *call, GError **error)
{
  _wb_meta_out_kind (call, call->arg == 1 ? WB_TYPE_LIST : WB_TYPE_TUPLE);
  return TRUE;
}

/* ---- collectives -------------------------------------------------------------------------------- */

/* ltorch.all_reduce, all_reduce_, broadcast (a, ..., async_op=False): like a; with async_op a future
 * tensor to wait() on. all_gather and reduce_scatter have no meta here: their shapes depend on the
 * process group's size, which a trace does not print (their annotations type them). */
gboolean
_wb_meta_collective (WbMetaCall *call, GError **error)
{
  WbType   a;
  gboolean async_op = FALSE;
  int      p = _wb_meta_param_index (call, "async_op");

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (p >= 0 && !_wb_meta_arg_bool (call, (guint) p, FALSE, &async_op, error))
    return FALSE;
  a.text = NULL;
  a.kind = async_op ? WB_TYPE_FUTURE_TENSOR : WB_TYPE_TENSOR;
  _wb_meta_out (call, &a);
  return TRUE;
}

/* ltorch.wait (slf): the tensor a future tensor stands for. */
gboolean
_wb_meta_wait (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (a.kind != WB_TYPE_FUTURE_TENSOR && a.kind != WB_TYPE_TENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a future tensor");
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}
