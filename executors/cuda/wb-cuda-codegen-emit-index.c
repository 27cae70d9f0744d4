/* wb-cuda-codegen-emit-index.c — the code generator's creation and index ops: values made from numbers, or
 * read from an operand at a computed index
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * empty, full and iota are numbers of the index; cat and pad branch on the index (cat: the piece it falls
 * in, pad: inside the operand or the padding); take, take_along_axis and gather read an index tensor and
 * check it (negative counts from the end, out of range is recorded and clamped: wb_index_bad). The rows of
 * _wb_cg_emit_creation and _wb_cg_emit_indexing are what _wb_cg_emit_node dispatches to. In a vector variant, a
 * cat or a pad whose branch is the same in every lane of a thread computes all the lanes at once (vec_cat,
 * vec_pad). */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-emit-private.h"
#include "wb-cuda-codegen-private.h"

/* -- cat and pad in the vector variants ------------------------------------------------------
 * A branch on the index (a cat's piece, a pad's inside or padding) that is the same for every lane of a
 * thread is emitted once for all V lanes: its loads are vectors shared by the lanes, and the lanes after the
 * first find their values in the memo (the lane forms of indices, wb-cuda-codegen-pointwise.c). */

/* Declares @n variables of @ctype in @r: one a lane (k->vec), or one a pair of lanes in pair mode (bf16x2 words). */
static void
lane_vars (Kern *k, const char *ctype, guint n, const char **r)
{
  GString *decl = g_string_new (ctype);

  for (guint j = 0; j < n; j++)
    {
      r[j] = _wb_cg_gstr (k->g, "v%u", k->next_var++);
      g_string_append_printf (decl, "%s %s", j ? "," : "", r[j]);
    }
  _wb_cg_line (k, "%s;", decl->str);
  g_string_free (decl, TRUE);
}

/* Lanes 1 .. V-1 of @v at @ix are @r[1..]: the memo answers their emission. */
static void
memo_lanes (Kern *k, const Val *v, const Idx *ix, const char *const *r)
{
  for (guint j = 1; j < k->vec; j++)
    {
      Idx lx;
      _wb_cg_idx_in_lane (k, ix, j, &lx);
      _wb_cg_memo_put (k, _wb_cg_idx_key (k->g, v->id, &lx), r[j]);
    }
}

/* In pair mode: lanes 2i and 2i + 1 of @v at @ix are word @w[i]: the memo answers the words and the lanes. */
static void
memo_words (Kern *k, const Val *v, const Idx *ix, const char *const *w)
{
  for (guint j = 0; j < k->vec; j += 2)
    {
      Idx lx;
      _wb_cg_idx_in_lane (k, ix, j, &lx);
      _wb_cg_pair_memo (k, v, &lx, j, w[j / 2]);
    }
}

static gint64
gcd64 (gint64 a, gint64 b)
{
  while (b != 0)
    {
      gint64 t = a % b;
      a = b;
      b = t;
    }
  return a < 0 ? -a : a;
}

/* A uniform branch of the vector loop over dim @d of @v at @ix, with boundaries every @step elements of @d (base
 * + j in the lanes) or anywhere in @d (the same in every lane: boundaries every extent of the lanes' dim at
 * least): k->seg, the run of the lanes' dim that no branch boundary splits. */
static void
note_seg (Kern *k, const Val *v, const Idx *ix, guint d, gint64 step)
{
  gint64 run = 0;

  if (ix->lane[d] == LANE_UNIT)
    run = gcd64 (step, v->shape[d]);
  else
    for (guint e = 0; e < ix->rank; e++)
      if (ix->lane[e] == LANE_UNIT)
        run = v->shape[e];
  if (run > 0)
    k->seg = k->seg ? gcd64 (k->seg, run) : run;
}

/* cat along a dim that is the same in every lane, or base + j with every piece starting and ending on a
 * multiple of V: all the lanes of a thread fall in the same piece, so one branch computes the value of
 * every lane (its loads are vectors shared by the lanes), and the lanes after the first find theirs in the
 * memo. FALSE when that does not apply (nothing emitted); else TRUE with *@out the value of lane 0, or
 * NULL and @error. */
static gboolean
vec_cat (Kern *k, Val *v, const WbValue *list, guint dim, const Idx *ix, const char **out, GError **error)
{
  Gen              *g = k->g;
  const char       *ctype = _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype));
  const char       *r[8];
  gint64            off = 0;
  gboolean          unit = ix->lane[dim] == LANE_UNIT;
  const char       *at = unit ? ix->base[dim] : ix->e[dim];
  g_autofree guint *maps = NULL;
  gboolean          pair = k->pair; /* every lane's word (wb-cuda-codegen-pair.c) */

  if (k->lane != 0 || k->batch || k->vec > G_N_ELEMENTS (r) || !(unit || ix->lane[dim] == LANE_SAME))
    return FALSE;
  for (guint d = 0; d < ix->rank; d++)
    if (ix->lane[d] == LANE_ANY && strcmp (ix->e[d], "0") != 0)
      return FALSE;
  for (guint i = 0; i < list->n_items; i++)
    {
      Val *t = _wb_cg_operand (g, list->items[i]);
      if (t == NULL || !t->is_tensor || t->rank != v->rank || (unit && t->shape[dim] % k->vec != 0) || (pair && t->dtype != v->dtype))
        return FALSE;
    }
  lane_vars (k, pair ? "unsigned int" : ctype, pair ? k->vec / 2 : k->vec, r);
  k->batch = TRUE;
  maps = g_new (guint, G_N_ELEMENTS (r) * g->n_inputs);
  for (guint i = 0, run; i < list->n_items; i += run)
    {
      Val        *t = _wb_cg_operand (g, list->items[i]);
      WbCgSelect  saved;
      WbCgHoist   hoist;
      const char *local = NULL; /* the index along dim inside a piece of a select */
      const char *piece_at;     /* the index along dim inside the piece */
      run = _wb_cg_cat_run (k, list, i, dim, G_N_ELEMENTS (r), maps);
      note_seg (k, v, ix, dim, off + (gint64) run * t->shape[dim]); /* the branch's end (a select inside it branches not) */
      if (i + run < list->n_items)
        _wb_cg_line (k, "%sif (%s < %" G_GINT64_FORMAT ")", i ? "else " : "", at, off + (gint64) run * t->shape[dim]);
      else if (i > 0)
        _wb_cg_line (k, "else");
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      if (run > 1)
        _wb_cg_select_open (k, run, maps, at, off, t->shape[dim], &local, &saved);
      _wb_cg_hoist_open (k, &hoist);
      piece_at = local ? local : off ? _wb_cg_gstr (g, "(%s - %" G_GINT64_FORMAT ")", at, off)
                                     : at;
      for (k->lane = 0; k->lane < k->vec; k->lane += pair ? 2 : 1)
        {
          Idx         ax;
          const char *x;
          _wb_cg_idx_in_lane (k, ix, k->lane, &ax);
          _wb_cg_idx_lin (&ax, NULL);
          for (guint d = 0; d < t->rank; d++)
            if (t->shape[d] == 1)
              ax.e[d] = "0";
          if (t->shape[dim] == 1)
            ax.e[dim] = "0";
          else if (unit)
            {
              ax.base[dim] = piece_at;
              ax.e[dim] = _wb_cg_lane_expr (k, ax.base[dim]);
            }
          else
            ax.e[dim] = piece_at;
          if ((x = _wb_cg_emit (k, t, &ax, error)) == NULL)
            {
              _wb_cg_hoist_close (k, &hoist);
              if (run > 1)
                _wb_cg_select_close (k, run, maps, &saved);
              k->lane = 0;
              k->batch = FALSE;
              *out = NULL;
              return TRUE;
            }
          _wb_cg_line (k, "%s = %s;", r[pair ? k->lane / 2 : k->lane],
                       t->dtype == v->dtype ? x : _wb_cg_normalize (g, _wb_cg_cast_cls (g, x, _wb_cg_dtype_cls (t->dtype), _wb_cg_dtype_cls (v->dtype)), v->dtype));
        }
      _wb_cg_hoist_close (k, &hoist);
      if (run > 1)
        _wb_cg_select_close (k, run, maps, &saved);
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
      off += (gint64) run * t->shape[dim];
    }
  k->lane = 0;
  k->batch = FALSE;
  if (pair)
    memo_words (k, v, ix, r);
  else
    memo_lanes (k, v, ix, r);
  *out = r[0];
  return TRUE;
}

/* An index variable of a vector pad: at the hoist point where @hoist and its expression @expr is visible there
 * (so that the branch's loads can go there too), else here */
static const char *
pad_index (Kern *k, const char *expr, gboolean hoist)
{
  const char *name = _wb_cg_gstr (k->g, "v%u", k->next_var++);
  const char *line = _wb_cg_gstr (k->g, "const %s %s = %s;", k->ity, name, expr);

  if (!hoist || !_wb_cg_hoist_line (k, name, line))
    _wb_cg_line (k, "%s", line);
  return name;
}

/* pad (no interior padding) where every padded dim is the same in every lane, or base + j with its low
 * padding and its source extent multiples of V: the lanes of a thread are all inside the source or all
 * padding, so one branch loads every lane (vectors where the source allows) instead of V branches of
 * scalar loads. RoPE's rotate-half backward is such a pad. @lo: the low padding of each dim of @a
 * (interior 0; the high padding follows from the shapes); @pad_literal: the padding value as an
 * expression of @v's class. Also inside a branch of vec_cat, at its lane 0. FALSE when that does
 * not apply (nothing emitted); else TRUE with *@out the value of lane 0, or NULL and @error. */
static gboolean
vec_pad (Kern *k, Val *v, Val *a, const gint64 *lo, const char *pad_literal, const Idx *ix, const char **out, GError **error)
{
  Gen        *g = k->g;
  const char *ctype = _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype));
  const char *r[8];
  GString    *cond;
  Idx         ax;

  gboolean batch = k->batch; /* inside a uniform branch of cat, at its lane 0 */
  gboolean clamp = k->hoist.on && !k->g->opt.no_hoist;
  int      pad_indent;

  gboolean pair = k->pair; /* every lane's word (wb-cuda-codegen-pair.c); @pad_literal is one */

  if (k->lane != 0 || k->vec < 2 || k->vec > G_N_ELEMENTS (r) || a->rank != v->rank || (pair && (a->dtype != v->dtype || k->vec % 2 != 0)))
    return FALSE;
  for (guint d = 0; d < ix->rank; d++)
    {
      gboolean padded = lo[d] != 0 || a->shape[d] != v->shape[d];
      if (ix->lane[d] == LANE_ANY && strcmp (ix->e[d], "0") != 0)
        return FALSE;
      if (padded && ix->lane[d] == LANE_UNIT && (lo[d] % k->vec != 0 || a->shape[d] % k->vec != 0))
        return FALSE;
    }
  cond = g_string_new (NULL);
  ax = *ix;
  _wb_cg_idx_lin (&ax, NULL);
  for (guint d = 0; d < a->rank; d++)
    {
      gboolean    unit = ix->lane[d] == LANE_UNIT;
      const char *t;
      if (lo[d] == 0 && a->shape[d] == v->shape[d])
        continue;
      note_seg (k, v, ix, d, gcd64 (lo[d], a->shape[d]));
      t = pad_index (k, _wb_cg_gstr (g, "%s - (%" G_GINT64_FORMAT ")", unit ? ix->base[d] : ix->e[d], lo[d]), clamp);
      g_string_append_printf (cond, "%s%s >= 0 && %s < %" G_GINT64_FORMAT, cond->len ? " && " : "", t, t, a->shape[d]);
      /* inside the branch the clamped index is the index; outside it, it still addresses the source */
      if (clamp)
        t = pad_index (k, _wb_cg_gstr (g, "min (max (%s, (%s) 0), (%s) %" G_GINT64_FORMAT ")", t, k->ity, k->ity, a->shape[d] - (unit ? (gint64) k->vec : 1)), TRUE);
      if (unit)
        ax.base[d] = t, ax.e[d] = t;
      else
        ax.e[d] = t;
    }
  for (guint d = 0; d < a->rank; d++)
    if (a->shape[d] == 1)
      ax.e[d] = "0", ax.lane[d] = LANE_SAME;
  lane_vars (k, pair ? "unsigned int" : ctype, pair ? k->vec / 2 : k->vec, r);
  _wb_cg_line (k, "if (%s)", cond->len ? cond->str : "true");
  g_string_free (cond, TRUE);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  pad_indent = k->pad_indent;
  if (clamp)
    k->pad_indent = k->indent;
  k->batch = TRUE;
  for (k->lane = 0; k->lane < k->vec; k->lane += pair ? 2 : 1)
    {
      Idx         lx;
      const char *x;
      _wb_cg_idx_in_lane (k, &ax, k->lane, &lx);
      if ((x = _wb_cg_emit (k, a, &lx, error)) == NULL)
        {
          k->lane = 0;
          k->batch = batch;
          k->pad_indent = pad_indent;
          *out = NULL;
          return TRUE;
        }
      _wb_cg_line (k, "%s = %s;", r[pair ? k->lane / 2 : k->lane], pair ? x : _wb_cg_cast_cls (g, x, _wb_cg_dtype_cls (a->dtype), _wb_cg_dtype_cls (v->dtype)));
    }
  k->lane = 0;
  k->batch = batch;
  k->pad_indent = pad_indent;
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "else");
  _wb_cg_line (k, "{");
  for (guint j = 0; j < (pair ? k->vec / 2 : k->vec); j++)
    _wb_cg_line (k, "  %s = %s;", r[j], pad_literal);
  _wb_cg_line (k, "}");
  if (pair)
    memo_words (k, v, ix, r);
  else
    memo_lanes (k, v, ix, r);
  *out = r[0];
  return TRUE;
}

/* -- the ops --------------------------------------------------------------------------------- */

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
  if (k->vec > 1 && vec_cat (k, v, list, (guint) dim, ix, &r, error))
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
  if (k->vec > 1 && !interior && pad_lit != NULL && vec_pad (k, v, a, lo, pad_lit, ix, &r, error))
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
