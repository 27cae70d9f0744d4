/* wb-meta-einsum.c — meta functions of einsum and multi_dot
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * einsum's equation is numpy's and PyTorch's subscript notation (torch.einsum documentation): terms of
 * letters separated by commas, at most one "..." per term standing for broadcast dims, and an optional
 * "->" output; without it the output is the broadcast "..." dims followed by the letters used once, in
 * ASCII order (PyTorch's order: upper case before lower case). */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)
#define MAX_OPERANDS 16

/* The tensors passed as *operands, or as one sequence in *operands. */
static gboolean
operand_types (WbMetaCall *call, WbValue *const *args, guint n, WbType *out, guint *n_out, GError **error)
{
  if (n == 1 && args[0] != NULL && (args[0]->kind == WB_VALUE_TUPLE || args[0]->kind == WB_VALUE_LIST))
    {
      n = args[0]->n_items;
      args = args[0]->items;
    }
  if (n == 0 || n > MAX_OPERANDS)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "expects 1 to %d operands, got %u", MAX_OPERANDS, n);
  for (guint i = 0; i < n; i++)
    if (!_wb_meta_value_tensor (call, args[i], "operand", &out[i], error))
      return FALSE;
  *n_out = n;
  return TRUE;
}

/* Broadcasts @size into the label's recorded size (-1: not seen yet). */
static gboolean
unify (WbMetaCall *call, gint64 *have, gint64 size, char label, GError **error)
{
  if (*have < 0 || *have == 1)
    *have = size;
  else if (size != 1 && size != *have)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "subscript '%c' has sizes %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT,
                          label, *have, size);
  return TRUE;
}

typedef struct
{
  gint64 label_size[128];
  guint  label_count[128];
  gint64 ell[MAXD]; /* the broadcast "..." dims, right-aligned */
  guint  n_ell;
} Subscripts;

/* Reads one term of the equation (up to ',' or '-' or the end) against @t. */
static gboolean
read_term (WbMetaCall *call, const char **p, const WbType *t, Subscripts *s, GError **error)
{
  const char *q = *p, *end = q;
  guint       dim = 0, n_letters = 0, ell_dims;
  gboolean    has_ell;

  while (*end && *end != ',' && *end != '-')
    end++;
  for (const char *r = q; r < end; r++)
    if (g_ascii_isalpha (*r))
      n_letters++;
  has_ell = g_strstr_len (q, end - q, "...") != NULL;
  if (n_letters > t->rank || (!has_ell && n_letters != t->rank))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "a term has %u subscripts for a rank-%u operand", n_letters, t->rank);
  ell_dims = t->rank - n_letters;
  while (q < end)
    {
      if (g_str_has_prefix (q, "..."))
        {
          for (guint k = 0; k < ell_dims; k++)
            {
              guint slot = MAXD - ell_dims + k;
              if (!unify (call, &s->ell[slot], t->shape[dim + k], '.', error))
                return FALSE;
            }
          s->n_ell = MAX (s->n_ell, ell_dims);
          dim += ell_dims;
          q += 3;
          continue;
        }
      if (g_ascii_isalpha (*q))
        {
          if (!unify (call, &s->label_size[(guchar) *q], t->shape[dim++], *q, error))
            return FALSE;
          s->label_count[(guchar) *q]++;
        }
      else if (*q != ' ')
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unexpected '%c' in the equation", *q);
      q++;
    }
  *p = q;
  return TRUE;
}

/* einsum (equation, *operands) */
gboolean
_wb_meta_einsum (WbMetaCall *call, GError **error)
{
  const char *eq = _wb_meta_arg_string (call, 0), *p;
  WbType      ops[MAX_OPERANDS];
  guint       n, r = 0, term = 0;
  Subscripts  s;
  gint64      shape[MAXD];
  WbDtype     dtype;
  gboolean    weak;

  if (eq == NULL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "the equation must be a string");
  if (!operand_types (call, call->varargs, call->n_varargs, ops, &n, error) || !_wb_meta_promote (call, ops, n, WB_PROMOTE_DEFAULT, &dtype, &weak, error))
    return FALSE;
  memset (&s, 0, sizeof s);
  for (guint i = 0; i < G_N_ELEMENTS (s.label_size); i++)
    s.label_size[i] = -1;
  for (guint i = 0; i < MAXD; i++)
    s.ell[i] = -1;
  for (p = eq; term < n; term++)
    {
      if (!read_term (call, &p, &ops[term], &s, error))
        return FALSE;
      if (term + 1 < n && *p++ != ',')
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "the equation has fewer terms than the %u operands", n);
    }
  while (*p == ' ')
    p++;
  if (*p != '\0' && !g_str_has_prefix (p, "->"))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "the equation has more terms than the %u operands", n);
  if (*p == '\0')
    {
      for (guint k = 0; k < s.n_ell; k++)
        shape[r++] = s.ell[MAXD - s.n_ell + k];
      for (guint c = 0; c < 128 && r < MAXD; c++)
        if (s.label_count[c] == 1)
          shape[r++] = s.label_size[c];
    }
  else
    for (p += 2; *p && r < MAXD; p++)
      if (g_str_has_prefix (p, "..."))
        {
          for (guint k = 0; k < s.n_ell && r < MAXD; k++)
            shape[r++] = s.ell[MAXD - s.n_ell + k];
          p += 2;
        }
      else if (g_ascii_isalpha (*p))
        {
          if (s.label_count[(guchar) *p] == 0)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "output subscript '%c' is not in any input", *p);
          shape[r++] = s.label_size[(guchar) *p];
        }
      else if (*p != ' ')
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unexpected '%c' in the output", *p);
  if (!_wb_meta_out_shape (call, &ops[0], dtype, shape, r, error))
    return FALSE;
  g_array_index (call->outputs, WbType, call->outputs->len - 1).weak = weak;
  return TRUE;
}

/* multi_dot (tensors): a chain of matrix products; the first may be 1-d (a row), the last 1-d (a column). */
gboolean
_wb_meta_multi_dot (WbMetaCall *call, GError **error)
{
  WbValue *const *items;
  WbType          ops[MAX_OPERANDS];
  guint           n;
  gint64          shape[2];
  guint           r = 0;

  if (!_wb_meta_arg_items (call, 0, &items, &n, error) || !operand_types (call, items, n, ops, &n, error))
    return FALSE;
  if (n < 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "expects at least 2 tensors, got %u", n);
  for (guint i = 0; i < n; i++)
    {
      gboolean edge = i == 0 || i == n - 1;
      if (ops[i].rank != 2 && !(edge && ops[i].rank == 1))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "tensor %u has rank %u", i, ops[i].rank);
      if (ops[i].dtype != ops[0].dtype)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "tensors have different dtypes");
      if (i > 0)
        {
          gint64 left = ops[i - 1].shape[ops[i - 1].rank - 1];
          if (ops[i].shape[0] != left)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "tensor %u has %" G_GINT64_FORMAT " rows, not %" G_GINT64_FORMAT,
                                  i, ops[i].shape[0], left);
        }
    }
  if (ops[0].rank == 2)
    shape[r++] = ops[0].shape[0];
  if (ops[n - 1].rank == 2)
    shape[r++] = ops[n - 1].shape[1];
  return _wb_meta_out_shape (call, &ops[0], WB_DTYPE_UNKNOWN, shape, r, error);
}
