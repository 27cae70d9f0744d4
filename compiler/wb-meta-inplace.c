/* wb-meta-inplace.c — meta functions of in-place ops (add_, mul_, masked_fill_, setitem_, ...), the index
 * updates (index_add, index_copy, index_put, scatter, scatter_add, setitem), and the tensor queries that
 * return Python values (dim, numel, is_floating_point, ...)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder defines each in-place op X_ as X followed by prims.copy_ into the first argument
 * (thunder/torch/__init__.py, _register_inplace / the `_` variants): the result has the first
 * argument's type, whatever X would promote to, and X's checks apply. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

/* An in-place op: meta_arg is the WbSymbolId of its out-of-place op. The bound arguments are matched to
 * the out-of-place op's parameters by name (polygamma_ (a, n) binds polygamma (n, a)); its meta checks
 * them; the output is the first argument's type. */
gboolean
_wb_meta_inplace (WbMetaCall *call, GError **error)
{
  const WbSymbol *base = wb_symbol_get_by_id ((WbSymbolId) call->arg);
  WbMetaCall      sub;
  WbType          a;
  gboolean        ok;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  memset (&sub, 0, sizeof sub);
  sub.symbol = base;
  sub.name = call->name;
  sub.arg = base->meta_arg;
  sub.lookup = call->lookup;
  sub.lookup_data = call->lookup_data;
  for (guint p = 0; p < base->n_params && p < WB_META_MAX_PARAMS; p++)
    {
      int i = _wb_meta_param_index (call, base->params[p].name);
      if (i >= 0)
        {
          sub.params[p] = call->params[i];
          sub.given[p] = call->given[i];
        }
      else
        sub.params[p] = base->params[p].default_value;
    }
  sub.varargs = call->varargs;
  sub.n_varargs = call->n_varargs;
  sub.outputs = g_array_new (FALSE, TRUE, sizeof (WbType));
  ok = base->meta (&sub, error);
  g_array_unref (sub.outputs);
  if (!ok)
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* Ops whose result has the first argument's type: setitem (inp, idx, val), zero_, the index updates
 * index_add / index_copy (a, dim, index, source), scatter / scatter_add (a, dim, index, src),
 * index_put (a, indices, values); a dim argument, where there is one, must be valid. */
gboolean
_wb_meta_update (WbMetaCall *call, GError **error)
{
  WbType a;
  int    dim_p = _wb_meta_param_index (call, "dim");
  gint64 dim;
  guint  d;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (dim_p >= 0 && _wb_meta_arg_present (call, (guint) dim_p))
    {
      if (!_wb_meta_arg_int (call, (guint) dim_p, &dim, error) || !_wb_meta_canonical_dim (call, dim, a.rank, &d, error))
        return FALSE;
    }
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ---- queries ------------------------------------------------------------------------------------ */

/* ltorch.dim (a) and numel (a): an int with its value. meta_arg 0: dim, 1: numel. */
gboolean
_wb_meta_tensor_size (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  _wb_meta_out_int (call, TRUE, call->arg == 0 ? (gint64) a.rank : wb_type_numel (&a));
  return TRUE;
}

/* Tensor predicates: is_nested, is_complex, is_floating_point, is_cuda, is_cpu; meta_arg says which. */
enum
{
  QUERY_NESTED,
  QUERY_COMPLEX,
  QUERY_FLOAT,
  QUERY_CUDA,
  QUERY_CPU,
};

gboolean
_wb_meta_tensor_query (WbMetaCall *call, GError **error)
{
  WbType a, out;
  gint64 v = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  switch (call->arg)
    {
    case QUERY_COMPLEX:
      v = wb_dtype_is_complex (a.dtype);
      break;
    case QUERY_FLOAT:
      v = wb_dtype_is_float (a.dtype);
      break;
    case QUERY_CUDA:
      v = a.device.type == WB_DEVICE_CUDA;
      break;
    case QUERY_CPU:
      v = a.device.type == WB_DEVICE_CPU;
      break;
    default:
      v = 0; /* thunder has no nested tensors */
    }
  memset (&out, 0, sizeof out);
  out.kind = WB_TYPE_BOOL;
  out.has_value = TRUE;
  out.int_value = v;
  _wb_meta_out (call, &out);
  return TRUE;
}
