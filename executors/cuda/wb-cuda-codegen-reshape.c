/* wb-cuda-codegen-reshape.c — the index of a reshape's operand from the index of its result
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A reshape keeps the row-major linear index: unravelling the result's linear index over the operand's
 * shape is always right, and a vector kernel does it once for its V lanes (_wb_cg_vec_reshape). But the
 * expressions it builds (E / 2359296, (E / 2304) % 1024, ...) differ from the ones other paths to the same
 * operand build from per-dim indexes, so the memo of emitted values cannot share them: a column kernel that
 * sums a cat of three transposed gradients and stores it as [8192, 2304] would build its cat twice a row,
 * once for the sum from (row, column) and once for the store from E. Mapped dim group by dim group
 * (_wb_cg_idx_reshape_grouped: the runs of dims whose extents have the same product on both sides; 8192 =
 * 8 x 1024, 2304 = 3 x 768), the store's (row, column) index reaches the sum's expressions and the cat is
 * emitted once. WB_CUDA_RESHAPE_LINEAR=1 unravels the linear index instead. */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

/* A variable holding @expr, declared once per scope. */
static const char *
memo_var (Kern *k, const char *expr)
{
  const char *key = _wb_cg_gstr (k->g, "lin|%s", expr);
  const char *var = _wb_cg_memo_get (k, key);

  if (var == NULL)
    {
      var = _wb_cg_new_var (k, k->ity, expr);
      _wb_cg_memo_put (k, key, var);
    }
  return var;
}

/* Whether expression @x can be an operand of / and % as it is: a name, a number, or one parenthesised whole. */
static gboolean
is_operand (const char *x)
{
  size_t n = strlen (x);
  int    depth = 0;

  if (strspn (x, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n)
    return n > 0;
  if (x[0] != '(' || x[n - 1] != ')')
    return FALSE;
  for (size_t i = 0; i < n; i++)
    {
      depth += x[i] == '(' ? 1 : x[i] == ')' ? -1
                                             : 0;
      if (depth == 0 && i + 1 < n)
        return FALSE; /* (a) + (b) */
    }
  return TRUE;
}

/* Group [@j0, @j1) of @a's dims from @v's one dim @vd (of @ix): its index unravelled. */
static void
split_dim (Kern *k, const Idx *ix, guint vd, const Val *a, guint j0, guint j1, Idx *ax)
{
  gboolean unit = k->vec > 1 && ix->lane[vd] == LANE_UNIT;
  int      ja = _wb_cg_innermost_dim (j1 - j0, a->shape + j0);
  Idx      u;

  const char *x;

  if (unit && a->shape[j0 + (guint) ja] % k->vec != 0)
    unit = FALSE;
  x = unit ? ix->base[vd] : ix->e[vd];
  if (!is_operand (x))
    x = memo_var (k, x); /* unravelled as an operand of / and % */
  _wb_cg_idx_unravel_memo (k, x, j1 - j0, a->shape + j0, &u);
  for (guint j = j0; j < j1; j++)
    {
      ax->e[j] = u.e[j - j0];
      ax->lane[j] = k->vec > 1 && ix->lane[vd] != LANE_ANY ? LANE_SAME : LANE_ANY;
    }
  if (unit)
    {
      ax->lane[j0 + ja] = LANE_UNIT;
      ax->base[j0 + ja] = u.e[ja];
      ax->e[j0 + ja] = _wb_cg_lane_expr (k, u.e[ja]);
    }
  else if (k->vec > 1 && ix->lane[vd] == LANE_UNIT)
    for (guint j = j0; j < j1; j++)
      ax->lane[j] = LANE_ANY;
}

/* @a's one dim @ja from @v's dims [@i0, @i1) (of @ix): their indexes added up with their strides. */
static void
join_dims (Kern *k, const Idx *ix, const Val *v, guint i0, guint i1, guint ja, Idx *ax)
{
  gint64   st[WB_MAX_RANK];
  GString *s = g_string_new (NULL), *b = g_string_new (NULL);
  Lane     form = LANE_SAME;
  int      last = _wb_cg_innermost_dim (i1 - i0, v->shape + i0) + (int) i0;

  st[i1 - 1] = 1;
  for (guint d = i1 - 1; d > i0; d--)
    st[d - 1] = st[d] * v->shape[d];
  for (guint d = i0; d < i1; d++)
    {
      Lane l = k->vec > 1 ? ix->lane[d] : LANE_ANY;
      if (v->shape[d] == 1 || strcmp (ix->e[d], "0") == 0)
        continue;
      if (l == LANE_ANY || (l == LANE_UNIT && (int) d != last) || (l == LANE_SAME && (int) d != last && st[d] % k->vec != 0))
        form = LANE_ANY;
      else if (l == LANE_UNIT && form == LANE_SAME)
        form = LANE_UNIT;
      g_string_append_printf (s, "%s(%s) %s * %" G_GINT64_FORMAT, s->len ? " + " : "", k->ity, ix->e[d], st[d]);
      g_string_append_printf (b, "%s(%s) %s * %" G_GINT64_FORMAT, b->len ? " + " : "", k->ity, l == LANE_UNIT ? ix->base[d] : ix->e[d], st[d]);
    }
  if (form == LANE_UNIT) /* base: a multiple of V (the other dims' strides are), base + V - 1 in the dim */
    {
      ax->base[ja] = memo_var (k, b->str);
      ax->e[ja] = _wb_cg_lane_expr (k, ax->base[ja]);
    }
  else
    ax->e[ja] = s->len ? memo_var (k, s->str) : "0";
  ax->lane[ja] = form;
  g_string_free (s, TRUE);
  g_string_free (b, TRUE);
}

gboolean
_wb_cg_idx_reshape_grouped (Kern *k, const Idx *ix, const Val *v, const Val *a, Idx *ax)
{
  guint i = 0, j = 0;

  if (k->g->opt.reshape_linear || _wb_cg_numel_of (v->rank, v->shape) == 0)
    return FALSE;
  memset (ax, 0, sizeof *ax);
  ax->rank = a->rank;
  while (i < v->rank || j < a->rank)
    {
      guint  i0 = i, j0 = j, nv = 0, na = 0, vd = 0, ja = 0;
      gint64 pv = i < v->rank ? v->shape[i++] : 1, pa = j < a->rank ? a->shape[j++] : 1;
      while (pv != pa)
        if (pv < pa && i < v->rank)
          pv *= v->shape[i++];
        else if (pa < pv && j < a->rank)
          pa *= a->shape[j++];
        else
          return FALSE;
      for (guint d = i0; d < i; d++)
        if (v->shape[d] != 1)
          nv++, vd = d;
      for (guint d = j0; d < j; d++)
        {
          ax->e[d] = "0";
          ax->lane[d] = LANE_SAME;
          if (a->shape[d] != 1)
            na++, ja = d;
        }
      if (na == 0)
        continue;
      if (nv == 1 && na == 1)
        {
          ax->e[ja] = ix->e[vd];
          ax->lane[ja] = k->vec > 1 ? ix->lane[vd] : LANE_ANY;
          ax->base[ja] = ix->base[vd];
        }
      else if (nv == 1)
        split_dim (k, ix, vd, a, j0, j, ax);
      else if (na == 1)
        join_dims (k, ix, v, i0, i, ja, ax);
      else
        return FALSE;
    }
  ax->lin = ix->lin;
  ax->lin_lane = ix->lin_lane;
  ax->lin_base = ix->lin_base;
  return TRUE;
}

/* The index of reshape operand @a of @v from the linear index of @ix in a vector kernel, when that is
 * the same in every lane or base + j: emitted once for all lanes. FALSE: the caller unravels lane by lane. */
gboolean
_wb_cg_vec_reshape (Kern *k, const Idx *ix, const Val *v, const Val *a, Idx *ax)
{
  const char *base;
  Lane        form;
  int         ua = _wb_cg_innermost_dim (a->rank, a->shape);

  if (ix->lin != NULL)
    {
      form = ix->lin_lane;
      base = form == LANE_UNIT ? ix->lin_base : ix->lin;
      if (form == LANE_ANY)
        return FALSE;
    }
  else
    {
      gint64   cs[WB_MAX_RANK];
      int      unit = -1;
      GString *s = g_string_new (NULL);
      _wb_cg_contiguous_strides (v->rank, v->shape, cs);
      for (guint d = 0; d < v->rank; d++)
        {
          if (v->shape[d] == 1 || strcmp (ix->e[d], "0") == 0)
            continue;
          if (s->len)
            g_string_append (s, " + ");
          if (ix->lane[d] == LANE_UNIT && cs[d] == 1)
            {
              unit = (int) d;
              g_string_append (s, ix->base[d]);
            }
          else if (ix->lane[d] == LANE_SAME && cs[d] % k->vec == 0)
            g_string_append_printf (s, "(%s) %s * %" G_GINT64_FORMAT, k->ity, ix->e[d], cs[d]);
          else if (ix->lane[d] == LANE_SAME && cs[d] == 1)
            g_string_append (s, ix->e[d]); /* only when no dim is base + j (checked below) */
          else
            {
              g_string_free (s, TRUE);
              return FALSE;
            }
        }
      for (guint d = 0; unit >= 0 && d < v->rank; d++)
        if ((int) d != unit && v->shape[d] != 1 && strcmp (ix->e[d], "0") != 0 && cs[d] % k->vec != 0)
          {
            g_string_free (s, TRUE);
            return FALSE;
          }
      if (s->len == 0)
        g_string_append (s, "0");
      form = unit >= 0 ? LANE_UNIT : LANE_SAME;
      base = memo_var (k, s->str);
      g_string_free (s, TRUE);
    }
  if (form == LANE_UNIT && (ua < 0 || a->shape[ua] % k->vec != 0))
    return FALSE;
  /* unravel the base once (the first lane) and share the variables */
  _wb_cg_idx_unravel_memo (k, base, a->rank, a->shape, ax);
  for (guint d = 0; d < a->rank; d++)
    ax->lane[d] = LANE_SAME;
  ax->lin_lane = LANE_SAME;
  if (form == LANE_UNIT)
    {
      ax->lane[ua] = LANE_UNIT;
      ax->base[ua] = ax->e[ua];
      ax->e[ua] = _wb_cg_lane_expr (k, ax->base[ua]);
      ax->lin = _wb_cg_lane_expr (k, base);
      ax->lin_lane = LANE_UNIT;
      ax->lin_base = base;
    }
  return TRUE;
}
