/* wb-identity.c — calls that are the identity for their shapes (wb-identity.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-identity.h"

#include <string.h>

#include "wb-type.h"
#include "wb-value.h"

/* the symbol among @symbol and those it stands for that is one of the ops, as its id; WB_SYMBOL_OPAQUE if none */
static WbSymbolId
op_symbol (const WbSymbol *symbol)
{
  for (guint depth = 0; symbol != NULL && depth < 4; depth++, symbol = wb_symbol_get_like (symbol))
    switch (wb_symbol_get_id (symbol))
      {
      case WB_SYMBOL_PRIMS_FLIP:
      case WB_SYMBOL_LTORCH_FLIP:
      case WB_SYMBOL_PRIMS_PAD:
      case WB_SYMBOL_LTORCH_PAD:
      case WB_SYMBOL_PRIMS_CAT:
      case WB_SYMBOL_LTORCH_CAT:
        return wb_symbol_get_id (symbol);
      default:
        break;
      }
  return WB_SYMBOL_OPAQUE;
}

WbIdentityOp
wb_identity_op_of (const WbSymbol *symbol)
{
  switch (op_symbol (symbol))
    {
    case WB_SYMBOL_PRIMS_FLIP:
    case WB_SYMBOL_LTORCH_FLIP:
      return WB_IDENTITY_FLIP;
    case WB_SYMBOL_PRIMS_PAD:
      return WB_IDENTITY_PAD;
    case WB_SYMBOL_LTORCH_PAD:
      return WB_IDENTITY_PAD_LIST;
    case WB_SYMBOL_PRIMS_CAT:
    case WB_SYMBOL_LTORCH_CAT:
      return WB_IDENTITY_CAT;
    default:
      return WB_IDENTITY_NONE;
    }
}

gboolean
wb_identity_holds (WbIdentityOp op, guint rank, const gint64 *shape, const gint64 *params, guint n_params)
{
  switch (op)
    {
    case WB_IDENTITY_FLIP:
      for (guint i = 0; i < n_params; i++)
        {
          gint64 d = params[i] < 0 ? params[i] + (gint64) rank : params[i];
          if (d < 0 || d >= (gint64) rank || shape[d] > 1)
            return FALSE;
        }
      return TRUE;
    case WB_IDENTITY_PAD:
      if (n_params != 3 * rank)
        return FALSE;
      for (guint d = 0; d < rank; d++)
        if (params[3 * d] != 0 || params[3 * d + 1] != 0 || params[3 * d + 2] < 0 || (params[3 * d + 2] != 0 && shape[d] > 1))
          return FALSE;
      return TRUE;
    case WB_IDENTITY_PAD_LIST:
      if (n_params % 2 != 0 || n_params > 2 * rank)
        return FALSE;
      for (guint i = 0; i < n_params; i++)
        if (params[i] != 0)
          return FALSE;
      return TRUE;
    case WB_IDENTITY_CAT:
      return n_params == 1 && params[0] == 1;
    default:
      return FALSE;
    }
}

/* the argument printed at @pos, else the keyword @name, else NULL */
static const WbValue *
arg_at (const WbBsym *b, guint pos, const char *name)
{
  if (pos < b->n_args)
    return b->args[pos];
  for (guint i = 0; i < b->n_kwargs; i++)
    if (g_strcmp0 (b->kwargs[i].name, name) == 0)
      return b->kwargs[i].value;
  return NULL;
}

/* ltorch.flip(a, *dims): dims as one sequence, as ints one after another, or none (then every dim: the
 * identity only where every extent is at most 1, whichever Thunder means by no dims) */
static gboolean
flip_varargs (const WbBsym *b, guint rank, gint64 *out, guint *n)
{
  const WbValue *kw = arg_at (b, G_MAXUINT, "dims");

  if (kw != NULL)
    return wb_value_get_int_sequence (kw, out, WB_MAX_RANK, n, TRUE);
  if (b->n_args == 2 && wb_value_is_sequence (b->args[1]))
    return wb_value_get_int_sequence (b->args[1], out, WB_MAX_RANK, n, FALSE);
  if (b->n_args > WB_MAX_RANK + 1)
    return FALSE;
  *n = 0;
  for (guint i = 1; i < b->n_args; i++)
    if (!wb_value_get_int (b->args[i], &out[(*n)++]))
      return FALSE;
  if (b->n_args == 1)
    for (guint d = 0; d < rank; d++)
      out[(*n)++] = d;
  return TRUE;
}

/* prims.pad's padding_config, ((lo, hi, interior), ...), into @out (3 a dim) */
static gboolean
pad_config (const WbValue *cfg, gint64 *out, guint *n)
{
  if (!wb_value_is_sequence (cfg) || cfg->n_items > WB_MAX_RANK)
    return FALSE;
  *n = 0;
  for (guint d = 0; d < cfg->n_items; d++)
    {
      guint k = 0;
      if (!wb_value_get_int_sequence (cfg->items[d], out + *n, 3, &k, FALSE) || k != 3)
        return FALSE;
      *n += 3;
    }
  return TRUE;
}

/* the parameters of @b (an op @id) over a tensor of @rank dims, as wb_identity_holds reads them */
static gboolean
read_params (const WbBsym *b, WbSymbolId id, guint rank, gint64 *out, guint *n)
{
  const WbValue *mode;

  switch (id)
    {
    case WB_SYMBOL_PRIMS_FLIP:
      return wb_value_get_int_sequence (arg_at (b, 1, "dims"), out, WB_MAX_RANK, n, TRUE);
    case WB_SYMBOL_LTORCH_FLIP:
      return flip_varargs (b, rank, out, n);
    case WB_SYMBOL_PRIMS_PAD:
      return pad_config (arg_at (b, 2, "padding_config"), out, n);
    case WB_SYMBOL_LTORCH_PAD:
      mode = arg_at (b, 2, "mode");
      if (mode != NULL && !(mode->kind == WB_VALUE_STRING && g_strcmp0 (mode->v.s, "constant") == 0))
        return FALSE;
      return wb_value_get_int_sequence (arg_at (b, 1, "pad"), out, 2 * WB_MAX_RANK, n, FALSE);
    default:
      return FALSE;
    }
}

const WbValue *
wb_bsym_get_identity_source (const WbBsym *b, WbTypeLookupFunc lookup, gpointer user_data)
{
  WbSymbolId     id;
  const WbValue *src;
  WbType         t;
  gint64         params[3 * WB_MAX_RANK];
  guint          n = 0;

  if (b == NULL || b->kind != WB_BSYM_CALL || (id = op_symbol (b->symbol)) == WB_SYMBOL_OPAQUE)
    return NULL;
  if (id == WB_SYMBOL_PRIMS_CAT || id == WB_SYMBOL_LTORCH_CAT)
    {
      const WbValue *list = arg_at (b, 0, "tensors");
      if (!wb_value_is_sequence (list) || list->n_items == 0)
        return NULL;
      params[0] = list->n_items;
      src = list->items[0];
      n = 1;
    }
  else
    src = arg_at (b, 0, "a");
  if (src == NULL || src->kind != WB_VALUE_NAME || lookup == NULL || !lookup (src->text, &t, user_data) || t.kind != WB_TYPE_TENSOR)
    return NULL;
  if (n == 0 && !read_params (b, id, t.rank, params, &n))
    return NULL;
  return wb_identity_holds (wb_identity_op_of (b->symbol), t.rank, t.shape, params, n) ? src : NULL;
}
