/* wb-cuda-codegen-epilogue.c — sibling reductions in one kernel, and the pointwise work after a row reduction in
 * the same kernel (WbCgEpilogue)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A normalisation (layer norm, RMS norm, softmax and their backwards) is one or more reductions over the
 * innermost dims of a tensor, then pointwise work over that tensor that reads the reductions' results. Done
 * one kernel per reduction and one per pointwise shape, the tensor's rows are read from memory again by
 * every kernel and each launch costs its own gap. Here:
 *
 * - Sibling reductions: reductions over the same dims of operands of one shape, none reading another's
 *   result, are one kernel with an accumulator each (gpt2_block's layer-norm backward: the two row sums;
 *   the weight and bias gradients: two or three column sums). Their operands are emitted at the same
 *   index in one scope, so loads and subexpressions they share are done once.
 * - The epilogue: a row-reduction kernel of a plan (its reduced dims trailing; the last such that can)
 *   also computes the plan's pointwise outputs of the operand's shape ("elements", up to dims of extent 1:
 *   llama_layer's RMS-norm backward stores a bf16 [2048, 4096] beside its f32 [1, 2048, 4096] operand, at
 *   the same linear index) and of the kept shape
 *   ("rows", the rsqrt of a variance), when every read of the reductions' results that they make is of
 *   the row being reduced, and they read no reduction that runs after it (a later reduction may read
 *   them: they are stored before it runs): each group of T threads stores its row's results and keeps
 *   them in registers (every thread of the group has them after the group's reduction), then lane 0
 *   computes the row outputs and the T threads the row's elements from those registers. The
 *   operand's row was just read by the same threads, so the loads hit the cache. This is the persistent
 *   reduction of TorchInductor (torch/_inductor/codegen/triton.py: a whole row per program) done with
 *   the reduction's own thread groups.
 *
 * Which reads are of the reduced row is found by walking the epilogue's values to the reductions' results
 * through elementwise ops (same shape), broadcast_in_dim and reshapes that only add or drop dims of extent 1,
 * following which dim of the operand each dim is; any other path to a result refuses the group.
 *
 * The epilogue's buffers and the inputs it reads are wb-cuda-codegen-outputs.c's; its element walk also takes a
 * mixed column set's sums (-mix.c, which never calls back here). */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

#define MAX_SIBLINGS 4

/* -- sibling reductions ----------------------------------------------------------------------- */

typedef struct
{
  GHashTable *done;  /* Node* of reductions in earlier sets */
  GHashTable *seen;  /* Val* */
  gboolean    found; /* a reduction not in @done was reached */
} Pending;

static gboolean
reaches_pending (Gen *g, Val *v, gpointer data)
{
  Pending *p = data;

  if (v == NULL || !v->is_tensor || v->input >= 0 || v->buffer >= 0 || v->def == NULL || !g_hash_table_add (p->seen, v))
    return FALSE;
  if (v->def->is_reduction)
    return !g_hash_table_contains (p->done, v->def);
  return _wb_cg_node_reads_any (g, v->def, reaches_pending, p);
}

static gboolean
same_dims (const gboolean *a, const gboolean *b, guint rank)
{
  for (guint d = 0; d < rank; d++)
    if (a[d] != b[d])
      return FALSE;
  return TRUE;
}

GPtrArray *
_wb_cg_reduction_sets (Gen *g)
{
  GPtrArray *sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GHashTable) done = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) taken = g_hash_table_new (NULL, NULL);
  gboolean siblings = !g->opt.no_siblings;

  for (guint i = 0; i < g->nodes->len; i++)
    {
      Node         *n = g->nodes->pdata[i];
      GPtrArray    *set;
      WbCgReduction L;
      if (!n->is_reduction || !n->out[0]->needed || n->done || g_hash_table_contains (taken, n))
        continue;
      set = g_ptr_array_new ();
      g_ptr_array_add (set, n);
      g_hash_table_add (taken, n);
      if (siblings && _wb_cg_reduction_layout (g, n, &L, NULL) && !L.is_var && (L.row || L.column))
        for (guint j = i + 1; j < g->nodes->len && set->len < MAX_SIBLINGS; j++)
          {
            Node         *m = g->nodes->pdata[j];
            WbCgReduction M;
            Pending       p = { done, NULL, FALSE };
            if (!m->is_reduction || !m->out[0]->needed || m->done || g_hash_table_contains (taken, m) || !_wb_cg_reduction_layout (g, m, &M, NULL) ||
                M.is_var || M.row != L.row || M.column != L.column || !_wb_cg_same_shape (M.a, L.a) || !same_dims (M.red, L.red, L.a->rank) ||
                _wb_cg_dtype_cls (M.a->dtype) != _wb_cg_dtype_cls (L.a->dtype))
              continue;
            /* m reads no reduction that is not done before this set: neither n nor one emitted later */
            p.seen = g_hash_table_new (NULL, NULL);
            p.found = reaches_pending (g, M.a, &p);
            g_hash_table_unref (p.seen);
            if (p.found)
              continue;
            g_ptr_array_add (set, m);
            g_hash_table_add (taken, m);
          }
      for (guint j = 0; j < set->len; j++)
        g_hash_table_add (done, set->pdata[j]);
      g_ptr_array_add (sets, set);
    }
  return sets;
}

/* -- which epilogue values read only their own row ------------------------------------------- */

typedef struct
{
  Gen        *g;
  GPtrArray  *held;  /* Node* */
  GHashTable *later; /* Node* of the reductions emitted after the held ones: not readable */
  const Val  *a;     /* the reductions' operand */
  int         kept_dim[WB_MAX_RANK];
  guint       n_kept;
  guint       budget;
  GHashTable *reach; /* Val* -> 1: reaches a held result, 2: does not */
} Own;

static gboolean
held_result (Own *o, const Val *v)
{
  for (guint j = 0; j < o->held->len; j++)
    {
      Node *n = o->held->pdata[j];
      for (guint i = 0; i < n->n_out; i++)
        if (n->out[i] == v)
          return TRUE;
    }
  return FALSE;
}

static gboolean reaches_held (Own *o, Val *v);

static gboolean
reaches_held_cb (Gen *g, Val *v, gpointer data)
{
  (void) g;
  return reaches_held (data, v);
}

static gboolean
later_result (Own *o, const Val *v)
{
  return v->def != NULL && v->def->is_reduction && g_hash_table_contains (o->later, v->def);
}

/* Whether computing @v reads a held reduction's result or a later one's. */
static gboolean
reaches_held (Own *o, Val *v)
{
  gpointer r;
  gboolean yes;

  if (held_result (o, v) || later_result (o, v))
    return TRUE;
  if (!v->is_tensor || v->input >= 0 || v->buffer >= 0 || v->def == NULL)
    return FALSE;
  if ((r = g_hash_table_lookup (o->reach, v)) != NULL)
    return GPOINTER_TO_INT (r) == 1;
  g_hash_table_insert (o->reach, v, GINT_TO_POINTER (2));
  yes = _wb_cg_node_reads_any (o->g, v->def, reaches_held_cb, o);
  g_hash_table_insert (o->reach, v, GINT_TO_POINTER (yes ? 1 : 2));
  return yes;
}

/* The dims of extent other than 1 of @v, in order. */
static guint
big_dims (const Val *v, guint *out)
{
  guint n = 0;

  for (guint d = 0; d < v->rank; d++)
    if (v->shape[d] != 1)
      out[n++] = d;
  return n;
}

/* Whether computing @v at an element of the reduced row reads the held reductions' results only at that
 * row. @map[d]: the operand dim that dim d of @v follows (-1: none, @v is broadcast along it). */
static gboolean
own_rows (Own *o, Val *v, const int *map)
{
  Node       *n;
  const char *op;
  int         xm[WB_MAX_RANK];

  if (!v->is_tensor)
    return TRUE;
  if (o->budget-- == 0 || later_result (o, v))
    return FALSE; /* not computed yet when the epilogue runs */
  if (held_result (o, v))
    {
      /* a result of kept shape: its dim i must follow the operand's i-th kept dim */
      if (v->rank != o->n_kept)
        return FALSE;
      for (guint i = 0; i < v->rank; i++)
        if (v->shape[i] != 1 && map[i] != o->kept_dim[i])
          return FALSE;
      return TRUE;
    }
  if (!reaches_held (o, v))
    return TRUE;
  n = v->def;
  op = n->op;
  if (_wb_cg_ew_lookup (op) != NULL || strcmp (op, "convert_element_type") == 0 || strcmp (op, "shallow_copy") == 0 ||
      strcmp (op, "stride_order") == 0 || strcmp (op, "clone") == 0)
    {
      for (guint i = 0; i < n->n_arg; i++)
        {
          Val *x = _wb_cg_operand (o->g, n->arg[i]);
          if (x == NULL || !x->is_tensor)
            continue;
          if (!_wb_cg_same_shape (x, v) || !own_rows (o, x, map))
            return FALSE;
        }
      return TRUE;
    }
  if (strcmp (op, "broadcast_in_dim") == 0)
    {
      Val   *x = _wb_cg_operand (o->g, n->arg[0]);
      gint64 bd[WB_MAX_RANK];
      guint  nb = 0;
      if (x == NULL || !x->is_tensor || !_wb_cg_get_ints (n->arg[2], bd, WB_MAX_RANK, &nb) || nb != x->rank)
        return FALSE;
      for (guint i = 0; i < x->rank; i++)
        {
          if (bd[i] < 0 || bd[i] >= v->rank)
            return FALSE;
          xm[i] = x->shape[i] == 1 ? -1 : map[bd[i]];
        }
      return own_rows (o, x, xm);
    }
  if (strcmp (op, "reshape") == 0 || strcmp (op, "view") == 0 || strcmp (op, "squeeze") == 0)
    {
      Val  *x = _wb_cg_operand (o->g, n->arg[0]);
      guint vb[WB_MAX_RANK], xb[WB_MAX_RANK], nx;
      if (x == NULL || !x->is_tensor || !_wb_cg_same_shape_squeezed (v, x))
        return FALSE;
      (void) big_dims (v, vb);
      nx = big_dims (x, xb);
      for (guint d = 0; d < x->rank; d++)
        xm[d] = -1;
      for (guint i = 0; i < nx; i++)
        xm[xb[i]] = map[vb[i]];
      return own_rows (o, x, xm);
    }
  return FALSE;
}

static void
own_init (Own *o, Gen *g, GPtrArray *held, GHashTable *later, const WbCgReduction *L)
{
  memset (o, 0, sizeof *o);
  o->g = g;
  o->held = held;
  o->later = later;
  o->a = L->a;
  for (guint d = 0; d < L->a->rank; d++)
    if (!L->red[d])
      o->kept_dim[o->n_kept++] = (int) d;
  o->reach = g_hash_table_new (NULL, NULL);
}

/* Moves group @gi of @groups into @epi: its values to @epi->elems when @elems (of the operand's shape), else the
 * group to @epi->rows (of the kept shape). */
static void
take_group (WbCgEpilogue *epi, GPtrArray *groups, guint gi, gboolean elems)
{
  GPtrArray *grp = groups->pdata[gi];

  if (elems)
    g_ptr_array_extend (epi->elems, grp, NULL, NULL);
  else
    g_ptr_array_add (epi->rows, g_ptr_array_ref (grp));
  g_ptr_array_remove_index (groups, gi);
}

/* Whether the dims of extent other than 1 of @v are, in order, those of the operand's dims @ad (@n of them) whose
 * extent is not 1; then @map[d]: the operand dim that dim d of @v follows (-1 for its dims of extent 1). */
static gboolean
follows_dims (const Own *o, const Val *v, const guint *ad, guint n, int *map)
{
  guint vb[WB_MAX_RANK], ab[WB_MAX_RANK], nv = big_dims (v, vb), na = 0;

  for (guint i = 0; i < n; i++)
    if (o->a->shape[ad[i]] != 1)
      ab[na++] = ad[i];
  if (nv != na)
    return FALSE;
  for (guint i = 0; i < nv; i++)
    if (v->shape[vb[i]] != o->a->shape[ab[i]])
      return FALSE;
  for (guint d = 0; d < v->rank; d++)
    map[d] = -1;
  for (guint i = 0; i < nv; i++)
    map[vb[i]] = (int) ab[i];
  return TRUE;
}

/* Whether @v is of the operand's shape up to dims of extent 1 (an element output of [2048, 4096] for an operand of
 * [1, 2048, 4096]), with @map as follows_dims gives it. */
static gboolean
elems_map (const Own *o, const Val *v, int *map)
{
  guint all[WB_MAX_RANK];

  for (guint d = 0; d < o->a->rank; d++)
    all[d] = d;
  return follows_dims (o, v, all, o->a->rank, map);
}

/* Whether @v is of the reductions' kept shape (dims of extent 1 aside), with @map for own_rows. */
static gboolean
kept_map (const Own *o, const Val *v, int *map)
{
  guint kept[WB_MAX_RANK];

  for (guint i = 0; i < o->n_kept; i++)
    kept[i] = (guint) o->kept_dim[i];
  return follows_dims (o, v, kept, o->n_kept, map);
}

/* A column reduction whose kernel can take an epilogue (reduced dims leading: _wb_cg_column_pick). */
static gboolean
column_lead (Gen *g, Node *n, gpointer data)
{
  WbCgReduction R;

  (void) data;
  return _wb_cg_reduction_layout (g, n, &R, NULL) && R.column && R.lead;
}

/* Moves the values of group @gi of @groups (of the row reductions' kept shape) that read a column reduction's results
 * to a group of their own after it: they are of that shape only where the extents happen to be alike (the column
 * sums of [4096, 4096] and its row sums are both [4096]), and left to the column kernel's epilogue
 * (_wb_cg_column_pick), so that the column set can still share the row set's kernel (_wb_cg_mix_pick). Returns
 * whether group @gi is now only such values. */
static gboolean
split_for_column (Gen *g, GPtrArray *groups, guint gi)
{
  GPtrArray *grp = groups->pdata[gi], *col = g_ptr_array_new ();

  for (guint i = 0; i < grp->len;)
    {
      if (_wb_cg_reads_reduction (g, (Val *const *) &grp->pdata[i], 1, column_lead, NULL))
        g_ptr_array_add (col, g_ptr_array_steal_index (grp, i));
      else
        i++;
    }
  if (grp->len == 0)
    {
      g_ptr_array_extend_and_steal (grp, col);
      return TRUE;
    }
  if (col->len > 0)
    g_ptr_array_insert (groups, (gint) gi + 1, col);
  else
    g_ptr_array_unref (col);
  return FALSE;
}

static gboolean
epilogue_choose (Gen *g, GPtrArray *held, GHashTable *later, GPtrArray *groups, WbCgEpilogue *epi)
{
  WbCgReduction L;
  Own           o;

  memset (epi, 0, sizeof *epi);
  if (!_wb_cg_reduction_layout (g, held->pdata[0], &L, NULL) || !L.takes_epilogue)
    return FALSE;
  own_init (&o, g, held, later, &L);
  epi->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  epi->elems = g_ptr_array_new ();
  for (guint gi = 0; gi < groups->len;)
    {
      GPtrArray *grp = groups->pdata[gi];
      Val       *first = grp->pdata[0];
      int        map[WB_MAX_RANK];
      gboolean   elems = elems_map (&o, first, map), rows = !elems && kept_map (&o, first, map), fits = TRUE;
      if ((!elems && !rows) || (rows && split_for_column (g, groups, gi)))
        {
          gi++;
          continue;
        }
      for (guint i = 0; i < grp->len && fits; i++)
        {
          o.budget = 4096;
          fits = own_rows (&o, grp->pdata[i], map);
        }
      if (!fits)
        {
          gi++;
          continue;
        }
      take_group (epi, groups, gi, elems);
    }
  g_hash_table_unref (o.reach);
  if (epi->rows->len == 0 && epi->elems->len == 0)
    {
      _wb_cg_epilogue_clear (epi);
      return FALSE;
    }
  return TRUE;
}

int
_wb_cg_epilogue_pick (Gen *g, GPtrArray *sets, GPtrArray *groups, WbCgEpilogue *epi)
{
  memset (epi, 0, sizeof *epi);
  if (g->opt.no_epilogue)
    return -1;
  for (int s = (int) sets->len - 1; s >= 0; s--)
    {
      g_autoptr (GHashTable) later = g_hash_table_new (NULL, NULL);
      for (guint t = (guint) s + 1; t < sets->len; t++)
        for (guint j = 0; j < ((GPtrArray *) sets->pdata[t])->len; j++)
          g_hash_table_add (later, ((GPtrArray *) sets->pdata[t])->pdata[j]);
      if (epilogue_choose (g, sets->pdata[s], later, groups, epi))
        return s;
    }
  return -1;
}

void
_wb_cg_epilogue_clear (WbCgEpilogue *epi)
{
  g_clear_pointer (&epi->rows, g_ptr_array_unref);
  g_clear_pointer (&epi->elems, g_ptr_array_unref);
}

/* -- emission -------------------------------------------------------------------------------- */

const char *
_wb_cg_epilogue_describe (Gen *g, const WbCgEpilogue *epi)
{
  guint n_rows = 0;

  for (guint i = 0; i < epi->rows->len; i++)
    n_rows += ((GPtrArray *) epi->rows->pdata[i])->len;
  return _wb_cg_gstr (g, "%u pointwise output%s per row and %u per element", n_rows, n_rows == 1 ? "" : "s", epi->elems->len);
}

/* The index of the element (o, r) of the operand: its kept dims from @kx, its reduced dims from @rx. */
static void
element_idx (const WbCgRows *R, const Idx *kx, const Idx *rx, const char *lin, Idx *ax)
{
  guint ki = 0, ri = 0;

  memset (ax, 0, sizeof *ax);
  ax->rank = R->a->rank;
  for (guint d = 0; d < R->a->rank; d++)
    _wb_cg_idx_dim (ax, d, R->red[d] ? rx : kx, R->red[d] ? ri++ : ki++);
  ax->lin = lin; /* the reduced dims are trailing: element (o, r) is o * K + r */
}

/* The index in element output @v (of the operand @a's shape up to dims of extent 1: elems_map) of the operand's
 * element @ax: its dims of extent other than 1 are the operand's, in order. */
static void
elem_idx (const Idx *ax, const Val *a, const Val *v, Idx *vx)
{
  guint j = 0;

  *vx = *ax;
  if (_wb_cg_same_shape (v, a))
    return;
  vx->rank = v->rank;
  for (guint d = 0; d < v->rank; d++)
    {
      if (v->shape[d] == 1)
        {
          vx->e[d] = "0";
          vx->base[d] = NULL;
          vx->lane[d] = LANE_SAME;
          continue;
        }
      while (a->shape[j] == 1)
        j++;
      vx->e[d] = ax->e[j];
      vx->base[d] = ax->base[j];
      vx->lane[d] = ax->lane[j];
      j++;
    }
}

/* The row set's own sums at the elements of this step (WbCgRows.accs), lane by lane in the order of the row
 * kernel's own walk (reduction_loop_lanes), in the scope of the element outputs so that they share its loads. */
static gboolean
accumulate_rows (Kern *k, const WbCgRows *R, const Idx *kx, const Idx *rx, int u, GError **error)
{
  Idx   ax, r = *rx;
  guint V = R->V > 1 ? R->V : 1;

  for (guint d = 0; d < R->n_red; d++)
    r.lane[d] = LANE_SAME;
  element_idx (R, kx, &r, "E", &ax);
  for (guint d = 0; d < ax.rank; d++)
    ax.lane[d] = LANE_SAME;
  for (k->lane = 0; k->lane < V; k->lane++)
    {
      Idx aj = ax;
      _wb_cg_idx_lane_unit (k, &aj, u, "E");
      if (!_wb_cg_accumulate (k, R->accs, R->n_accs, &aj, R->c, NULL, error))
        {
          k->lane = 0;
          return FALSE;
        }
    }
  k->lane = 0;
  return TRUE;
}

/* The T threads of each group: the element outputs over the row o, stored at o * K + r. */
static gboolean
emit_elems (Kern *k, const WbCgEpilogue *epi, const WbCgRows *R, const guint *slots, GError **error)
{
  Gen        *g = k->g;
  const char *ity = k->ity;
  Idx         kx, rx, ax;
  guint       V = R->V > 1 ? R->V : 1;
  int         u = -1, ur = -1;

  for (guint d = 0; d < R->a->rank; d++)
    if (R->a->shape[d] != 1)
      u = (int) d;
  for (guint d = 0; d < R->n_red; d++)
    if (R->red_shape[d] != 1)
      ur = (int) d;
  _wb_cg_open_row_lanes (k, R->n_kept, R->kept_shape, R->n_red, R->red_shape, R->T, V, R->mix != NULL ? R->mix->steps : 0, &kx);
  _wb_cg_line (k, "const %s E = o * %" G_GINT64_FORMAT " + r0;", ity, R->K);
  _wb_cg_idx_unravel (k, "r0", R->n_red, R->red_shape, &rx);
  /* the column sums first, in the same scope: the outputs below share their loads */
  if (R->mix != NULL && !_wb_cg_mix_accumulate (k, R->mix, error))
    return FALSE;
  if (R->accs != NULL && !accumulate_rows (k, R, &kx, &rx, u, error))
    return FALSE;
  if (k->vec > 1)
    {
      g_autofree gboolean *done = g_new0 (gboolean, epi->elems->len);
      for (guint d = 0; d < R->n_red; d++)
        rx.lane[d] = LANE_SAME;
      element_idx (R, &kx, &rx, "E", &ax);
      for (guint d = 0; d < ax.rank; d++)
        ax.lane[d] = LANE_SAME;
      /* one vector store call per shape of output (they differ only in dims of extent 1) */
      for (guint i = 0; i < epi->elems->len; i++)
        {
          Val *first = epi->elems->pdata[i];
          Idx  vx;
          g_autoptr (GPtrArray) outs = g_ptr_array_new ();
          g_autoptr (GArray) oslots = g_array_new (FALSE, FALSE, sizeof (guint));
          if (!_wb_cg_take_shape (epi->elems, slots, i, done, outs, oslots))
            continue;
          elem_idx (&ax, R->a, first, &vx);
          if (!_wb_cg_vec_store_outputs (k, outs, (const guint *) oslots->data, &vx, _wb_cg_innermost_dim (first->rank, first->shape), "E", error))
            return FALSE;
        }
    }
  else
    for (k->lane = 0; k->lane < V; k->lane++)
      {
        Idx rj = rx;
        if (V > 1)
          _wb_cg_idx_lane_unit (k, &rj, ur, NULL);
        element_idx (R, &kx, &rj, _wb_cg_lane_expr (k, "E"), &ax);
        for (guint j = 0; j < epi->elems->len; j++)
          {
            Val        *v = epi->elems->pdata[j];
            Idx         vx;
            const char *x;
            elem_idx (&ax, R->a, v, &vx);
            x = _wb_cg_emit (k, v, &vx, error);
            if (x == NULL)
              {
                k->lane = 0;
                return FALSE;
              }
            _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", slots[j]), _wb_cg_lane_expr (k, "E"), x, v->dtype));
          }
      }
  _wb_cg_close_row_lanes (k);
  return TRUE;
}

gboolean
_wb_cg_emit_epilogue (Kern *k, const WbCgEpilogue *epi, const WbCgRows *R, const guint *slots, GError **error)
{
  guint n_row_outs = 0;

  for (guint i = 0; i < epi->rows->len; i++)
    n_row_outs += ((GPtrArray *) epi->rows->pdata[i])->len;
  /* the row sums taken here: the kept-shape outputs come after the walk (the caller's) */
  if (R->accs != NULL)
    return emit_elems (k, epi, R, slots + n_row_outs, error);
  /* no barrier: the reductions' results are read from the registers of the row's own group (k->resident,
   * set by the row kernel); every read the epilogue makes of them is of its own row (the rule above) */
  g_assert (k->resident != NULL);
  return _wb_cg_emit_kept_values (k, epi->rows, "o", "if (ok && lane == 0)", slots, error) &&
         (epi->elems->len == 0 || emit_elems (k, epi, R, slots + n_row_outs, error));
}

/* -- pointwise work in a column kernel ------------------------------------------------------ */

int
_wb_cg_column_pick (Gen *g, GPtrArray *sets, GPtrArray *groups, WbCgEpilogue *epi)
{
  memset (epi, 0, sizeof *epi);
  if (g->opt.no_epilogue)
    return -1;
  for (guint s = 0; s < sets->len; s++)
    {
      GPtrArray    *set = sets->pdata[s];
      WbCgReduction L;
      Own           o;
      g_autoptr (GHashTable) later = NULL;
      if (!_wb_cg_reduction_layout (g, set->pdata[0], &L, NULL) || !L.column || !L.lead)
        continue;
      later = g_hash_table_new (NULL, NULL);
      for (guint t = s + 1; t < sets->len; t++)
        for (guint j = 0; j < ((GPtrArray *) sets->pdata[t])->len; j++)
          g_hash_table_add (later, ((GPtrArray *) sets->pdata[t])->pdata[j]);
      own_init (&o, g, set, later, &L);
      epi->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
      epi->elems = g_ptr_array_new ();
      for (guint gi = 0; gi < groups->len;)
        {
          GPtrArray *grp = groups->pdata[gi];
          int        map[WB_MAX_RANK];
          gboolean   elems = _wb_cg_column_split (grp->pdata[0], &L) >= 0, rows = !elems && kept_map (&o, grp->pdata[0], map), fits = elems || rows;
          /* elements: computed from what is there before the set's kernel runs, never its own results nor a
           * later set's; kept shape: read its results at their own index only, and no later set's */
          for (guint i = 0; i < grp->len && fits; i++)
            {
              o.budget = 4096;
              fits = elems ? !reaches_held (&o, grp->pdata[i]) : own_rows (&o, grp->pdata[i], map);
            }
          if (!fits)
            {
              gi++;
              continue;
            }
          take_group (epi, groups, gi, elems);
        }
      g_hash_table_unref (o.reach);
      if (epi->elems->len > 0 || epi->rows->len > 0)
        return (int) s;
      _wb_cg_epilogue_clear (epi);
    }
  return -1;
}
