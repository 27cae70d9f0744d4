/* wb-cuda-codegen-emit-index.c — the code generator's creation and index ops: values made from numbers, or
 * read from an operand at a computed index
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * empty, full and iota are numbers of the index; cat and pad branch on the index (cat: the piece it falls
 * in, pad: inside the operand or the padding); take, take_along_axis and gather read an index tensor and
 * check it (negative counts from the end, out of range traps). The rows of _wb_cg_emit_creation and
 * _wb_cg_emit_indexing are what _wb_cg_emit_node dispatches to. */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-emit-private.h"
#include "wb-cuda-codegen-private.h"

/* empty: zeros, as the cpu executor fills it (runs stay deterministic) */
static const char *
emit_empty (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  /* zeros, as the cpu executor fills it (runs stay deterministic) */
  Cls c = _wb_cg_dtype_cls (v->dtype);
  return c == CLS_F ? "0.0f" : c == CLS_D ? "0.0"
                                          : "0LL";
}

/* full: the fill value in the output dtype */
static const char *
emit_full (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen *g = k->g;

  Val *fill = _wb_cg_number_of (g, n->arg[1]);
  if (fill == NULL)
    {
      _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.full: fill value is not a number");
      return NULL;
    }
  return _wb_cg_literal_of_dtype (g, fill, v->dtype);
}

/* iota: start + index * step */
static const char *
emit_iota (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen *g = k->g;

  Val *start = _wb_cg_number_of (g, n->arg[1]), *step = _wb_cg_number_of (g, n->arg[2]);
  Cls  c = _wb_cg_dtype_cls (v->dtype);
  if (start == NULL || step == NULL)
    {
      _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.iota: start and step must be numbers");
      return NULL;
    }
  return _wb_cg_new_var (k, _wb_cg_cls_ctype (c), _wb_cg_normalize (g, _wb_cg_gstr (g, "%s + (%s) %s * %s", _wb_cg_literal (g, start, c), _wb_cg_cls_ctype (c), ix->e[0], _wb_cg_literal (g, step, c)), v->dtype));
}

/* cat: the piece the index of the cat dim falls in, one branch a piece (vector kernels: every lane at once) */
static const char *
emit_cat (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen *g = k->g;
  Idx  ax = { 0 };

  const WbValue *list = n->arg[0];
  gint64         dim, off = 0;
  const char    *r = _wb_cg_gstr (g, "v%u", k->next_var++);
  if (list == NULL || !wb_value_is_sequence (list) || list->n_items == 0 || !wb_value_get_int (n->arg[1], &dim))
    return _wb_cg_bad_args (n, error);
  if (dim < 0)
    dim += v->rank;
  if (dim < 0 || dim >= v->rank)
    return _wb_cg_bad_args (n, error);
  if (k->vec > 1 && _wb_cg_vec_cat (k, v, list, (guint) dim, ix, &r, error))
    return r; /* every lane at once */
  if (k->pair)
    return _wb_cg_refuse_pair (k);
  _wb_cg_line (k, "%s %s;", _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype)), r);
  for (guint i = 0; i < list->n_items; i++)
    {
      Val        *t = _wb_cg_operand (g, list->items[i]);
      const char *x;
      if (t == NULL || !t->is_tensor || t->rank != v->rank)
        return _wb_cg_bad_args (n, error);
      if (i + 1 < list->n_items)
        _wb_cg_line (k, "%sif (%s < %" G_GINT64_FORMAT ")", i ? "else " : "", ix->e[dim], off + t->shape[dim]);
      else if (i > 0)
        _wb_cg_line (k, "else");
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      ax = *ix;
      _wb_cg_idx_lin (&ax, NULL);
      for (guint d = 0; d < t->rank; d++)
        if (t->shape[d] == 1)
          ax.e[d] = "0";
      if (t->shape[dim] != 1)
        ax.e[dim] = off ? _wb_cg_new_var (k, k->ity, _wb_cg_gstr (g, "%s - %" G_GINT64_FORMAT, ix->e[dim], off)) : ix->e[dim];
      /* lanes may straddle two pieces */
      ax.lane[dim] = ix->lane[dim] == LANE_SAME ? LANE_SAME : LANE_ANY;
      x = _wb_cg_emit (k, t, &ax, error);
      if (x == NULL)
        return NULL;
      _wb_cg_line (k, "%s = %s;", r, t->dtype == v->dtype ? x : _wb_cg_normalize (g, _wb_cg_cast_cls (g, x, _wb_cg_dtype_cls (t->dtype), _wb_cg_dtype_cls (v->dtype)), v->dtype));
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
      off += t->shape[dim];
    }
  return r;
}

/* take: the operand at the index tensor's value in the take dim */
static const char *
emit_take (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Idx ax = { 0 };

  Val        *index = _wb_cg_arg_val (k, n, 1, error);
  gint64      dim;
  Idx         jx = { 0 };
  const char *iv;
  if (index == NULL || !wb_value_get_int (n->arg[2], &dim))
    return _wb_cg_bad_args (n, error);
  if (dim < 0)
    dim += a->rank;
  if (dim < 0 || dim >= a->rank || !index->is_tensor || index->rank > 1)
    return _wb_cg_bad_args (n, error);
  jx.rank = index->rank;
  _wb_cg_idx_dim (&jx, 0, ix, (guint) dim);
  if ((iv = _wb_cg_operand_expr (k, index, &jx, CLS_I, error)) == NULL)
    return NULL;
  ax = *ix;
  _wb_cg_idx_lin (&ax, NULL);
  _wb_cg_checked_index (k, iv, a->shape[dim], &ax, (guint) dim, _wb_cg_idx_is_same (&jx));
  return _wb_cg_emit (k, a, &ax, error);
}

/* take_along_axis, gather: the operand at the index tensor's value at the same index, in the dim */
static const char *
emit_gather (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Idx ax = { 0 };

  Val        *index = _wb_cg_arg_val (k, n, 1, error);
  gint64      dim;
  const char *iv;
  if (index == NULL || !wb_value_get_int (n->arg[2], &dim))
    return _wb_cg_bad_args (n, error);
  if (dim < 0)
    dim += a->rank;
  if (dim < 0 || dim >= a->rank || !index->is_tensor)
    return _wb_cg_bad_args (n, error);
  if ((iv = _wb_cg_operand_expr (k, index, ix, CLS_I, error)) == NULL)
    return NULL;
  ax = *ix;
  _wb_cg_idx_lin (&ax, NULL);
  for (guint d = 0; d < a->rank; d++)
    if (a->shape[d] == 1)
      ax.e[d] = "0";
  _wb_cg_checked_index (k, iv, a->shape[dim], &ax, (guint) dim, _wb_cg_idx_is_same (ix));
  return _wb_cg_emit (k, a, &ax, error);
}

/* pad: the operand inside, the padding value outside and between interior steps */
static const char *
emit_pad (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen *g = k->g;
  Idx  ax = { 0 };

  Val           *padv = _wb_cg_number_of (g, n->arg[1]);
  const WbValue *cfg = n->arg[2];
  gint64         lo[WB_MAX_RANK], step[WB_MAX_RANK]; /* low padding; interior padding + 1 */
  gboolean       interior = FALSE;
  GString       *cond;
  const char    *r = _wb_cg_gstr (g, "v%u", k->next_var++);
  const char    *ctype = _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype));
  const char    *x, *pad_lit;
  if (padv == NULL || cfg == NULL || !wb_value_is_sequence (cfg) || cfg->n_items != a->rank)
    return _wb_cg_bad_args (n, error);
  for (guint d = 0; d < a->rank; d++)
    {
      gint64 c[3];
      guint  nc = 0;
      if (!_wb_cg_get_ints (cfg->items[d], c, 3, &nc) || nc != 3 || c[2] < 0)
        return _wb_cg_bad_args (n, error);
      lo[d] = c[0];
      step[d] = c[2] + 1;
      interior |= c[2] != 0;
    }
  /* in pair mode the padding is a word: a value that is no bf16 has none */
  pad_lit = k->pair ? _wb_cg_pair_literal (g, padv) : _wb_cg_literal_of_dtype (g, padv, v->dtype);
  if (k->vec > 1 && !interior && pad_lit != NULL && _wb_cg_vec_pad (k, v, a, lo, pad_lit, ix, &r, error))
    return r; /* every lane at once */
  if (k->pair)
    return _wb_cg_refuse_pair (k);
  cond = g_string_new (NULL);
  ax.rank = a->rank;
  ax.lin = NULL;
  for (guint d = 0; d < a->rank; d++)
    {
      const char *t;
      if (lo[d] == 0 && step[d] == 1 && v->shape[d] == a->shape[d])
        {
          _wb_cg_idx_dim (&ax, d, ix, d);
          continue;
        }
      ax.lane[d] = ix->lane[d] == LANE_SAME ? LANE_SAME : LANE_ANY;
      t = _wb_cg_new_var (k, k->ity, _wb_cg_gstr (g, "%s - (%" G_GINT64_FORMAT ")", ix->e[d], lo[d]));
      if (cond->len)
        g_string_append (cond, " && ");
      if (step[d] == 1)
        {
          g_string_append_printf (cond, "%s >= 0 && %s < %" G_GINT64_FORMAT, t, t, a->shape[d]);
          ax.e[d] = t;
        }
      else
        {
          g_string_append_printf (cond, "%s >= 0 && %s %% %" G_GINT64_FORMAT " == 0 && %s / %" G_GINT64_FORMAT " < %" G_GINT64_FORMAT, t,
                                  t, step[d], t, step[d], a->shape[d]);
          ax.e[d] = _wb_cg_gstr (g, "(%s / %" G_GINT64_FORMAT ")", t, step[d]);
        }
    }
  _wb_cg_line (k, "%s %s;", ctype, r);
  _wb_cg_line (k, "if (%s)", cond->len ? cond->str : "true");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  x = _wb_cg_emit (k, a, &ax, error);
  if (x != NULL)
    _wb_cg_line (k, "%s = %s;", r, _wb_cg_cast_cls (g, x, _wb_cg_dtype_cls (a->dtype), _wb_cg_dtype_cls (v->dtype)));
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "else");
  _wb_cg_line (k, "  %s = %s;", r, _wb_cg_literal_of_dtype (g, padv, v->dtype));
  g_string_free (cond, TRUE);
  return x ? r : NULL;
}

static const WbCgEmitRow creation_rows[] = {
  { WB_SYMBOL_PRIMS_EMPTY, FALSE, emit_empty },
  { WB_SYMBOL_PRIMS_FULL, FALSE, emit_full },
  { WB_SYMBOL_PRIMS_IOTA, FALSE, emit_iota },
};

static const WbCgEmitRow index_rows[] = {
  { WB_SYMBOL_PRIMS_CAT, FALSE, emit_cat },
  { WB_SYMBOL_PRIMS_TAKE, TRUE, emit_take },
  { WB_SYMBOL_PRIMS_TAKE_ALONG_AXIS, TRUE, emit_gather },
  { WB_SYMBOL_PRIMS_GATHER, TRUE, emit_gather },
  { WB_SYMBOL_PRIMS_PAD, TRUE, emit_pad },
};

const WbCgEmitFamily _wb_cg_emit_creation = { "creation", creation_rows, G_N_ELEMENTS (creation_rows) };
const WbCgEmitFamily _wb_cg_emit_indexing = { "indexing", index_rows, G_N_ELEMENTS (index_rows) };
