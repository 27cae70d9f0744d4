/* wb-cuda-codegen-select.c — cat pieces that are the same up to the inputs they read, emitted once
 * through pointers chosen per thread (the vector variants of wb-cuda-codegen-pointwise.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A cat's pieces are emitted as branches, one a piece. Where a warp's threads fall in several pieces
 * (the rotary backward's cat of the q, k and v gradients: 128 columns a piece, 256 a warp), the warp runs
 * the branches one after the other, and each waits for its own loads. When consecutive pieces compute the
 * same expression of different inputs (q and k: the same rotary backward of two gradients), one branch
 * does: the pieces' inputs are read through pointers chosen by the piece the thread's index falls in
 * (`const T *s = q == 0 ? p3 : p4`), and the branch's loads are the same instructions for every thread of
 * the warp. The rotary backward's pads stay branches (a warp straddles them too): without branches, with
 * loads at a clamped index and a select, or with loads predicated on the pad's condition, they were slower.
 *
 * Two pieces are the same up to their inputs when their expressions are the same tree of nodes (the same
 * op, output and non-tensor arguments at every node, the same shapes and dtypes), their numbers are equal,
 * and each input the first reads corresponds to one input of the other, of the same dtype, shape and
 * strides. A value both read is the same value, and the inputs it reads must correspond to themselves (its
 * loads would otherwise go through the select too). Values with a buffer (a reduction's result, stored) are
 * only the same as themselves.
 * The branch is emitted in a memo scope that hides every scope outside it (Kern.memo_floor): a value
 * emitted outside for the first piece's input is not that of the others. WB_CUDA_NO_CAT_SELECT=1 keeps a
 * branch a piece. */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

typedef struct
{
  Gen        *g;
  guint      *map;    /* input slot of the first piece -> that of the other piece; G_MAXUINT: none yet */
  GHashTable *seen;   /* "a|b" ids of the pairs already found the same */
  gboolean   *shared; /* input slots read by a value both pieces read */
  GHashTable *walked; /* values whose inputs are in @shared */
} Same;

/* Marks the inputs @v reads in s->shared: their loads are the same in every piece, so no pointer select may
 * take them over */
static gboolean
mark_shared (Gen *g, Val *v, gpointer data)
{
  Same *s = data;

  if (g_hash_table_contains (s->walked, v))
    return FALSE;
  g_hash_table_add (s->walked, v);
  if (v->input >= 0)
    s->shared[v->input] = TRUE;
  else if (v->buffer < 0 && v->def != NULL)
    _wb_cg_node_reads_any (g, v->def, mark_shared, s);
  return FALSE;
}

static gboolean same_val (Same *s, Val *a, Val *b);

static gboolean
same_arg (Same *s, const WbValue *x, const WbValue *y)
{
  g_autofree char *sx = NULL, *sy = NULL;

  if (x == NULL || y == NULL)
    return x == y;
  if (x->kind == WB_VALUE_NAME && y->kind == WB_VALUE_NAME)
    {
      Val *a = g_hash_table_lookup (s->g->env, x->text), *b = g_hash_table_lookup (s->g->env, y->text);
      if (a != NULL && b != NULL)
        return same_val (s, a, b);
      if (a != NULL || b != NULL)
        return FALSE;
      return strcmp (x->text, y->text) == 0;
    }
  if (wb_value_is_sequence (x) || wb_value_is_sequence (y))
    {
      if (x->kind != y->kind || x->n_items != y->n_items)
        return FALSE;
      for (guint i = 0; i < x->n_items; i++)
        if (!same_arg (s, x->items[i], y->items[i]))
          return FALSE;
      return TRUE;
    }
  /* literals and the rest (dtypes, devices): the same spelling, the same value */
  sx = wb_value_to_string (x);
  sy = wb_value_to_string (y);
  return strcmp (sx, sy) == 0;
}

static gboolean
same_val (Same *s, Val *a, Val *b)
{
  const char *key;

  if (a == b)
    return a->is_tensor ? !mark_shared (s->g, a, s) : TRUE;
  if (a->is_tensor != b->is_tensor || a->dtype != b->dtype)
    return FALSE;
  if (!a->is_tensor)
    {
      if (a->input >= 0 || b->input >= 0 || a->is_float != b->is_float)
        return FALSE;
      return a->is_float ? memcmp (&a->f, &b->f, sizeof a->f) == 0 : a->i == b->i;
    }
  if (a->rank != b->rank || memcmp (a->shape, b->shape, a->rank * sizeof a->shape[0]) != 0)
    return FALSE;
  if (a->buffer >= 0 || b->buffer >= 0)
    return FALSE;
  if (a->input >= 0 || b->input >= 0)
    {
      guint *m;
      if (a->input < 0 || b->input < 0 || memcmp (a->strides, b->strides, a->rank * sizeof a->strides[0]) != 0)
        return FALSE;
      m = &s->map[a->input];
      if (*m == G_MAXUINT)
        *m = (guint) b->input;
      return *m == (guint) b->input;
    }
  if (a->def == NULL || b->def == NULL || a->def_out != b->def_out)
    return FALSE;
  key = _wb_cg_gstr (s->g, "%u|%u", a->id, b->id);
  if (g_hash_table_contains (s->seen, key))
    return TRUE;
  if (strcmp (a->def->op, b->def->op) != 0 || a->def->n_arg != b->def->n_arg || a->def->n_out != b->def->n_out)
    return FALSE;
  for (guint i = 0; i < a->def->n_arg; i++)
    if (!same_arg (s, a->def->arg[i], b->def->arg[i]))
      return FALSE;
  g_hash_table_add (s->seen, (gpointer) key);
  return TRUE;
}

guint
_wb_cg_cat_run (Kern *k, const WbValue *list, guint i, guint dim, guint max, guint *maps)
{
  Gen        *g = k->g;
  Val        *first = _wb_cg_operand (g, list->items[i]);
  guint       run = 1;

  if (g->opt.no_cat_select || k->resident != NULL || k->ptable != NULL || k->table_bits != NULL)
    return 1;
  while (run < max && i + run < list->n_items)
    {
      Val                 *t = _wb_cg_operand (g, list->items[i + run]);
      guint               *map = maps + run * g->n_inputs;
      g_autofree gboolean *shared = g_new0 (gboolean, g->n_inputs);
      Same                 s = { g, map, g_hash_table_new (g_str_hash, g_str_equal), shared, g_hash_table_new (NULL, NULL) };
      gboolean             ok;
      for (guint j = 0; j < g->n_inputs; j++)
        map[j] = G_MAXUINT;
      ok = t != NULL && t->is_tensor && t->rank == first->rank && t->shape[dim] == first->shape[dim] && same_val (&s, first, t);
      /* an input read both through a value the pieces share and as one that differs would be read through the
       * select in both places: not the same */
      for (guint j = 0; ok && j < g->n_inputs; j++)
        if (shared[j])
          {
            ok = map[j] == G_MAXUINT || map[j] == j;
            map[j] = j;
          }
      g_hash_table_unref (s.seen);
      g_hash_table_unref (s.walked);
      if (!ok)
        break;
      run++;
    }
  return run;
}

void
_wb_cg_select_open (Kern *k, guint run, const guint *maps, const char *at, gint64 off, gint64 extent, const char **local, WbCgSelect *saved)
{
  Gen           *g = k->g;
  GHashTable    *alias = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer       key, value;
  const char    *q;

  saved->alias = k->alias;
  saved->memo_floor = k->memo_floor;
  k->memo_floor = k->memo->len - 1; /* the branch's own scope and those it opens */
  q = _wb_cg_new_var (k, k->ity, extent == 1 ? _wb_cg_gstr (g, "%s - %" G_GINT64_FORMAT, at, off) : _wb_cg_gstr (g, "(%s - %" G_GINT64_FORMAT ") / %" G_GINT64_FORMAT, at, off, extent));
  *local = extent == 1 ? "0" : _wb_cg_new_var (k, k->ity, _wb_cg_gstr (g, "%s - %" G_GINT64_FORMAT " - %s * %" G_GINT64_FORMAT, at, off, q, extent));
  if (k->alias != NULL) /* inside another select: its pointers stay, and the new ones choose among them */
    {
      g_hash_table_iter_init (&it, k->alias);
      while (g_hash_table_iter_next (&it, &key, &value))
        g_hash_table_insert (alias, key, value);
    }
  for (guint slot = 0; slot < g->n_inputs; slot++)
    {
      GString    *sel;
      const char *name;
      gboolean    differs = FALSE;
      if (maps[g->n_inputs + slot] == G_MAXUINT)
        continue; /* the pieces do not read it */
      for (guint r = 1; r < run; r++)
        differs |= maps[r * g->n_inputs + slot] != slot;
      if (!differs)
        continue;
      sel = g_string_new (_wb_cg_input_ptr (k, maps[(run - 1) * g->n_inputs + slot]));
      for (guint r = run - 1; r-- > 0;)
        g_string_prepend (sel, _wb_cg_gstr (g, "%s == %u ? %s : ", q, r, _wb_cg_input_ptr (k, r == 0 ? slot : maps[r * g->n_inputs + slot])));
      name = _wb_cg_gstr (g, "s%u", k->next_var++);
      _wb_cg_line (k, "const %s *__restrict__ %s = %s;", wb_cuda_storage_ctype (_wb_cg_input_val (g, slot)->dtype), name, sel->str);
      g_string_free (sel, TRUE);
      g_hash_table_insert (alias, GUINT_TO_POINTER (slot), (gpointer) name);
    }
  k->alias = alias;
}

void
_wb_cg_select_close (Kern *k, guint run, const guint *maps, const WbCgSelect *saved)
{
  Gen  *g = k->g;
  guint n = k->vslots->len;

  /* the other pieces' inputs are accessed with the vectors of the first's: their alignment is tested too */
  for (guint i = 0; i < n; i += 2)
    {
      guint slot = g_array_index (k->vslots, guint, i), bytes = g_array_index (k->vslots, guint, i + 1);
      if (slot < g->n_inputs && maps[g->n_inputs + slot] != G_MAXUINT)
        for (guint r = 1; r < run; r++)
          _wb_cg_note_slot (k, maps[r * g->n_inputs + slot], bytes);
    }
  g_hash_table_unref (k->alias);
  k->alias = saved->alias;
  k->memo_floor = saved->memo_floor;
}
