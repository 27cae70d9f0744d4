/* wb-cuda-codegen-emit-view.c — the code generator's view ops: a value of a view is its operand at a moved index
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * broadcast_in_dim, reshape and view, squeeze, transpose, slice, flip and the copies (shallow_copy,
 * stride_order, clone) write nothing: each maps the index of its output to an index of its operand and
 * emits the operand there. The rows of _wb_cg_emit_views are what _wb_cg_emit_node dispatches to. */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-emit-private.h"
#include "wb-cuda-codegen-private.h"

/* shallow_copy, stride_order, clone: the operand itself */
static const char *
emit_copy (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  return _wb_cg_emit (k, a, ix, error);
}

/* broadcast_in_dim: the operand's dims at the output dims they map to, 0 where the operand has extent 1 */
static const char *
emit_broadcast_in_dim (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Idx    ax = { 0 };
  gint64 ints[WB_MAX_RANK];
  guint  ni = 0;

  if (!_wb_cg_get_ints (n->arg[2], ints, WB_MAX_RANK, &ni) || ni != a->rank)
    return _wb_cg_bad_args (n, error);
  ax.rank = a->rank;
  for (guint d = 0; d < a->rank; d++)
    if (a->shape[d] == 1)
      ax.e[d] = "0";
    else
      _wb_cg_idx_dim (&ax, d, ix, (guint) ints[d]);
  _wb_cg_idx_lin (&ax, _wb_cg_same_shape (a, v) ? ix : NULL);
  return _wb_cg_emit (k, a, &ax, error);
}

/* reshape, view: dim group by dim group where the shapes allow it, else the linear index unravelled */
static const char *
emit_reshape (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Idx ax = { 0 };

  if (_wb_cg_same_shape (a, v))
    return _wb_cg_emit (k, a, ix, error);
  if (!_wb_cg_idx_reshape_grouped (k, ix, v, a, &ax) && !(k->vec && _wb_cg_vec_reshape (k, ix, v, a, &ax)))
    _wb_cg_idx_unravel (k, _wb_cg_idx_linear (k, ix, v->rank, v->shape), a->rank, a->shape, &ax);
  return _wb_cg_emit (k, a, &ax, error);
}

/* squeeze: the squeezed dims at 0 */
static const char *
emit_squeeze (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Idx    ax = { 0 };
  gint64 ints[WB_MAX_RANK];
  guint  ni = 0;

  guint    o = 0;
  gboolean sq[WB_MAX_RANK] = { FALSE };
  if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni))
    return _wb_cg_bad_args (n, error);
  for (guint i = 0; i < ni; i++)
    if (ints[i] >= 0 && ints[i] < a->rank)
      sq[ints[i]] = TRUE;
  ax.rank = a->rank;
  for (guint d = 0; d < a->rank; d++)
    if (sq[d])
      ax.e[d] = "0";
    else
      _wb_cg_idx_dim (&ax, d, ix, o++);
  _wb_cg_idx_lin (&ax, ix);
  return _wb_cg_emit (k, a, &ax, error);
}

/* transpose: the dims permuted */
static const char *
emit_transpose (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Idx    ax = { 0 };
  gint64 ints[WB_MAX_RANK];
  guint  ni = 0;

  if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
    return _wb_cg_bad_args (n, error);
  ax.rank = a->rank;
  for (guint d = 0; d < v->rank; d++)
    _wb_cg_idx_dim (&ax, (guint) ints[d], ix, d);
  return _wb_cg_emit (k, a, &ax, error);
}

/* slice_prim: start + index * stride in each dim */
static const char *
emit_slice (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen   *g = k->g;
  Idx    ax = { 0 };
  gint64 ints[WB_MAX_RANK], ints3[WB_MAX_RANK];
  guint  ni = 0, ni3 = 0;

  if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
    return _wb_cg_bad_args (n, error);
  for (guint d = 0; d < a->rank; d++)
    ints3[d] = 1;
  if (n->arg[3] != NULL && n->arg[3]->kind != WB_VALUE_NONE && (!_wb_cg_get_ints (n->arg[3], ints3, WB_MAX_RANK, &ni3) || ni3 != a->rank))
    return _wb_cg_bad_args (n, error);
  ax.rank = a->rank;
  ax.lin = NULL;
  for (guint d = 0; d < a->rank; d++)
    {
      if (a->shape[d] == 1 || v->shape[d] == 1)
        {
          ax.e[d] = a->shape[d] == 1 ? "0" : _wb_cg_gstr (g, "%" G_GINT64_FORMAT, ints[d]);
          ax.lane[d] = LANE_SAME;
        }
      else if (ints[d] == 0 && ints3[d] == 1)
        _wb_cg_idx_dim (&ax, d, ix, d);
      else
        {
          ax.e[d] = _wb_cg_gstr (g, "(%" G_GINT64_FORMAT " + %s * %" G_GINT64_FORMAT ")", ints[d], ix->e[d], ints3[d]);
          _wb_cg_idx_moved (k, &ax, d, ix, d, ints[d], ints3[d]);
        }
    }
  if (_wb_cg_same_shape (a, v))
    _wb_cg_idx_lin (&ax, ix);
  return _wb_cg_emit (k, a, &ax, error);
}

/* flip: extent - 1 - index in the flipped dims */
static const char *
emit_flip (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen   *g = k->g;
  Idx    ax = { 0 };
  gint64 ints[WB_MAX_RANK];
  guint  ni = 0;

  gboolean fl[WB_MAX_RANK] = { FALSE };
  if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni))
    return _wb_cg_bad_args (n, error);
  for (guint i = 0; i < ni; i++)
    fl[(ints[i] + a->rank) % MAX (a->rank, 1)] = TRUE;
  ax.rank = a->rank;
  ax.lin = NULL;
  for (guint d = 0; d < a->rank; d++)
    if (fl[d] && a->shape[d] > 1)
      {
        ax.e[d] = _wb_cg_gstr (g, "(%" G_GINT64_FORMAT " - %s)", a->shape[d] - 1, ix->e[d]);
        _wb_cg_idx_moved (k, &ax, d, ix, d, a->shape[d] - 1, -1);
      }
    else
      _wb_cg_idx_dim (&ax, d, ix, d);
  return _wb_cg_emit (k, a, &ax, error);
}

static const WbCgEmitRow view_rows[] = {
  { WB_SYMBOL_PRIMS_SHALLOW_COPY, TRUE, emit_copy },
  { WB_SYMBOL_PRIMS_STRIDE_ORDER, TRUE, emit_copy },
  { WB_SYMBOL_PRIMS_CLONE, TRUE, emit_copy },
  { WB_SYMBOL_PRIMS_BROADCAST_IN_DIM, TRUE, emit_broadcast_in_dim },
  { WB_SYMBOL_PRIMS_RESHAPE, TRUE, emit_reshape },
  { WB_SYMBOL_PRIMS_VIEW, TRUE, emit_reshape },
  { WB_SYMBOL_PRIMS_SQUEEZE, TRUE, emit_squeeze },
  { WB_SYMBOL_PRIMS_TRANSPOSE, TRUE, emit_transpose },
  { WB_SYMBOL_PRIMS_SLICE, TRUE, emit_slice },
  { WB_SYMBOL_PRIMS_FLIP, TRUE, emit_flip },
};

const WbCgEmitFamily _wb_cg_emit_views = { "view", view_rows, G_N_ELEMENTS (view_rows) };
