/* wb-cuda-codegen-outputs.c — how a plan's outputs are produced: views of inputs and buffers, transposes of
 * computed values, outputs computed before the reductions that read them; the stores of kept-shape values
 * and of outputs of several shapes
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

/* -- outputs as views ----------------------------------------------------------------------- */

/* PyTorch's computeStride: strides for viewing (@rank, @shape, @strides) as @nrank/@nshape, or FALSE. */
static gboolean
view_strides (guint rank, const gint64 *shape, const gint64 *strides, guint nrank, const gint64 *nshape, gint64 *out)
{
  gint64 numel = _wb_cg_numel_of (rank, shape);
  int    view_d = (int) nrank - 1;
  gint64 chunk_base_stride, tensor_numel = 1, view_numel = 1;

  if (numel == 0)
    return FALSE;
  if (rank == 0)
    {
      for (guint d = 0; d < nrank; d++)
        out[d] = 1;
      return TRUE;
    }
  chunk_base_stride = strides[rank - 1];
  for (int tensor_d = (int) rank - 1; tensor_d >= 0; tensor_d--)
    {
      tensor_numel *= shape[tensor_d];
      if (tensor_d == 0 || (shape[tensor_d - 1] != 1 && strides[tensor_d - 1] != tensor_numel * chunk_base_stride))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || nshape[view_d] == 1))
            {
              out[view_d] = view_numel * chunk_base_stride;
              view_numel *= nshape[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (tensor_d > 0)
            {
              chunk_base_stride = strides[tensor_d - 1];
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

/* Another value that the same view op makes of the same operand, with the same dtype and shape, and that is
 * an input or has a buffer (llama_layer's recomputed backward reshapes one value twice, once for an output
 * and once for the transpose that a weight gradient's matmul reads: the transpose is then a view of the
 * output's buffer), or NULL. */
static Val *
view_twin (Gen *g, Val *v)
{
  Node *n = v->def;
  Val  *a;

  if (n == NULL || n->n_out != 1 || !(strcmp (n->op, "reshape") == 0 || strcmp (n->op, "view") == 0) ||
      (a = _wb_cg_operand (g, n->arg[0])) == NULL)
    return NULL;
  for (guint i = 0; i < g->nodes->len; i++)
    {
      Node *m = g->nodes->pdata[i];
      Val  *w = m->n_out == 1 ? m->out[0] : NULL;
      if (m == n || w == NULL || strcmp (m->op, n->op) != 0 || _wb_cg_operand (g, m->arg[0]) != a || w->dtype != v->dtype ||
          w->rank != v->rank || memcmp (w->shape, v->shape, v->rank * sizeof v->shape[0]) != 0)
        continue;
      if (w->input >= 0 || w->buffer >= 0)
        return w;
    }
  return NULL;
}

gboolean
_wb_cg_as_view (Gen *g, Val *v, WbCgLayout *L, int depth)
{
  Val *twin;

  Node      *n;
  Val       *a;
  WbCgLayout la;
  gint64     ints[WB_MAX_RANK], ints3[WB_MAX_RANK];
  guint      ni = 0, ni3 = 0;

  if (!v->is_tensor || depth > 64)
    return FALSE;
  if (v->input >= 0 || v->buffer >= 0)
    {
      L->slot = v->input >= 0 ? (guint) v->input : g->n_inputs + (guint) v->buffer;
      L->rank = v->rank;
      memcpy (L->shape, v->shape, sizeof L->shape);
      if (v->input >= 0)
        memcpy (L->strides, v->strides, sizeof L->strides);
      else
        _wb_cg_contiguous_strides (v->rank, v->shape, L->strides);
      L->offset = 0;
      return TRUE;
    }
  if ((twin = view_twin (g, v)) != NULL)
    return _wb_cg_as_view (g, twin, L, depth + 1);
  n = v->def;
  if (n == NULL || n->n_out != 1 || n->is_reduction)
    return FALSE;
  a = _wb_cg_operand (g, n->arg[0]);
  if (a == NULL || !a->is_tensor)
    return FALSE;
  if (strcmp (n->op, "convert_element_type") == 0 && a->dtype != v->dtype)
    return FALSE;
  if (!(strcmp (n->op, "shallow_copy") == 0 || strcmp (n->op, "stride_order") == 0 || strcmp (n->op, "clone") == 0 ||
        strcmp (n->op, "convert_element_type") == 0 || strcmp (n->op, "broadcast_in_dim") == 0 || strcmp (n->op, "reshape") == 0 ||
        strcmp (n->op, "view") == 0 || strcmp (n->op, "transpose") == 0 || strcmp (n->op, "squeeze") == 0 ||
        strcmp (n->op, "slice_prim") == 0))
    return FALSE;
  if (!_wb_cg_as_view (g, a, &la, depth + 1))
    return FALSE;
  *L = la;
  L->rank = v->rank;
  memcpy (L->shape, v->shape, sizeof L->shape);
  if (strcmp (n->op, "broadcast_in_dim") == 0)
    {
      if (!_wb_cg_get_ints (n->arg[2], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        return FALSE;
      memset (L->strides, 0, sizeof L->strides);
      for (guint d = 0; d < a->rank; d++)
        L->strides[ints[d]] = a->shape[d] == v->shape[ints[d]] ? la.strides[d] : 0;
    }
  else if (strcmp (n->op, "reshape") == 0 || strcmp (n->op, "view") == 0)
    {
      if (!view_strides (a->rank, a->shape, la.strides, v->rank, v->shape, L->strides))
        return FALSE;
    }
  else if (strcmp (n->op, "transpose") == 0)
    {
      if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        return FALSE;
      for (guint d = 0; d < v->rank; d++)
        L->strides[d] = la.strides[ints[d]];
    }
  else if (strcmp (n->op, "squeeze") == 0)
    {
      gboolean sq[WB_MAX_RANK] = { FALSE };
      guint    o = 0;
      if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni))
        return FALSE;
      for (guint i = 0; i < ni; i++)
        if (ints[i] >= 0 && ints[i] < a->rank)
          sq[ints[i]] = TRUE;
      for (guint d = 0; d < a->rank; d++)
        if (!sq[d])
          L->strides[o++] = la.strides[d];
    }
  else if (strcmp (n->op, "slice_prim") == 0)
    {
      if (!_wb_cg_get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        return FALSE;
      for (guint d = 0; d < a->rank; d++)
        ints3[d] = 1;
      if (n->arg[3] != NULL && n->arg[3]->kind != WB_VALUE_NONE && (!_wb_cg_get_ints (n->arg[3], ints3, WB_MAX_RANK, &ni3) || ni3 != a->rank))
        return FALSE;
      for (guint d = 0; d < a->rank; d++)
        {
          L->offset += ints[d] * la.strides[d];
          L->strides[d] = la.strides[d] * ints3[d];
        }
    }
  return TRUE;
}

/* (transfer none) The group of @v's shape in @groups (one pointwise kernel per shape), or NULL. */
GPtrArray *
_wb_cg_group_of_shape (GPtrArray *groups, const Val *v)
{
  for (guint j = 0; j < groups->len; j++)
    if (_wb_cg_same_shape (g_ptr_array_index ((GPtrArray *) groups->pdata[j], 0), v))
      return groups->pdata[j];
  return NULL;
}

/* Adds @v to the group of its shape in @groups, made when there is none. */
void
_wb_cg_add_to_group (GPtrArray *groups, Val *v)
{
  GPtrArray *grp = _wb_cg_group_of_shape (groups, v);

  if (grp == NULL)
    {
      grp = g_ptr_array_new ();
      g_ptr_array_add (groups, grp);
    }
  if (!g_ptr_array_find (grp, v, NULL))
    g_ptr_array_add (grp, v);
}

/* The value @v is a view of through reshapes, squeezes, same-dtype conversions and (with @need_move) at
 * least one transpose that moves the innermost dim, when that value is computed here (no input, no
 * reduction buffer) and @v is a view of it once it has a contiguous buffer; else NULL. */
Val *
_wb_cg_view_root (Gen *g, Val *v, gboolean need_move)
{
  Val       *r = v;
  gboolean   moved = FALSE, view;
  WbCgLayout L;

  for (int depth = 0; depth < 64 && r->def != NULL && r->def->n_out == 1 && !r->def->is_reduction; depth++)
    {
      Node  *n = r->def;
      Val   *a = _wb_cg_operand (g, n->arg[0]);
      gint64 perm[WB_MAX_RANK];
      guint  np = 0;
      if (a == NULL || !a->is_tensor)
        return NULL;
      if (strcmp (n->op, "transpose") == 0)
        {
          if (!_wb_cg_get_ints (n->arg[1], perm, WB_MAX_RANK, &np) || np != a->rank || np == 0)
            return NULL;
          moved |= perm[np - 1] != (gint64) np - 1 && a->shape[np - 1] > 1;
        }
      else if (!(strcmp (n->op, "reshape") == 0 || strcmp (n->op, "view") == 0 || strcmp (n->op, "squeeze") == 0 ||
                 strcmp (n->op, "shallow_copy") == 0 || (strcmp (n->op, "convert_element_type") == 0 && a->dtype == r->dtype)))
        break;
      r = a;
    }
  if ((need_move && !moved) || r == v || r->input >= 0 || r->buffer >= 0 || r->def == NULL || r->def->is_reduction || r->rank < 2)
    return NULL;
  r->buffer = 0; /* as if computed: only its shape matters */
  view = _wb_cg_as_view (g, v, &L, 0);
  r->buffer = -1;
  return view ? r : NULL;
}

typedef struct
{
  GHashTable *seen;
  Val        *target; /* reaches: the value looked for; NULL: looks for a reduction */
} Walk;

/* Whether computing @v reads @w->target (or, without a target, a reduction's result) through the
 * elementwise and view nodes it is computed by. */
static gboolean
walk (Gen *g, Val *v, gpointer data)
{
  Walk *w = data;

  if (v == w->target)
    return TRUE;
  if (v->input >= 0 || v->def == NULL || !g_hash_table_add (w->seen, v))
    return FALSE;
  if (v->def->is_reduction)
    return w->target == NULL;
  return _wb_cg_node_reads_any (g, v->def, walk, w);
}

gboolean
_wb_cg_depends_on_reduction (Gen *g, Val *v)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  Walk w = { seen, NULL };

  return walk (g, v, &w);
}

typedef struct
{
  GHashTable *seen;
  gboolean (*pred) (Gen *g, Node *n, gpointer data);
  gpointer data;
} ReadsWalk;

static gboolean
reads_walk (Gen *g, Val *v, gpointer data)
{
  ReadsWalk *w = data;

  if (v == NULL || !v->is_tensor || v->input >= 0 || v->def == NULL)
    return FALSE;
  if (v->def->is_reduction && w->pred (g, v->def, w->data))
    return TRUE;
  if (v->buffer >= 0 || !g_hash_table_add (w->seen, v))
    return FALSE; /* computed by an earlier kernel: loaded */
  return _wb_cg_node_reads_any (g, v->def, reads_walk, w);
}

gboolean
_wb_cg_reads_reduction (Gen *g, Val *const *vals, guint n, gboolean (*pred) (Gen *g, Node *n, gpointer data), gpointer data)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  ReadsWalk w = { seen, pred, data };

  for (guint i = 0; i < n; i++)
    if (reads_walk (g, vals[i], &w))
      return TRUE;
  return FALSE;
}

/* Whether a needed reduction's operand is computed from @v without another reduction in between; a column
 * reduction over @v's elements (its reduced dims leading) or a row reduction of @v's shape (up to dims of extent 1,
 * as the epilogue's element outputs) whose kernel takes an epilogue does not count: that kernel computes @v at each element itself (_wb_cg_column_pick,
 * _wb_cg_epilogue_pick), reading the inputs once. */
gboolean
_wb_cg_read_by_reduction (Gen *g, Val *v)
{
  for (guint i = 0; i < g->nodes->len; i++)
    {
      Node *n = g->nodes->pdata[i];
      if (n->is_reduction && n->out[0]->needed)
        {
          g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
          Walk          w = { seen, v };
          Val          *a = _wb_cg_operand (g, n->arg[0]);
          WbCgReduction R;
          if (a == NULL || !walk (g, a, &w))
            continue;
          if (!g->opt.no_epilogue && _wb_cg_reduction_layout (g, n, &R, NULL) &&
              ((R.column && R.lead && _wb_cg_numel_of (v->rank, v->shape) == _wb_cg_numel_of (R.a->rank, R.a->shape) && _wb_cg_column_split (v, &R) >= 0) ||
               (R.row && R.takes_epilogue && _wb_cg_same_shape_squeezed (v, R.a))))
            continue;
          return TRUE;
        }
    }
  return FALSE;
}

/* -- storing outputs ------------------------------------------------------------------------ */

gboolean
_wb_cg_emit_kept_values (Kern *k, GPtrArray *groups, const char *at, const char *guard, const guint *slots, GError **error)
{
  Gen  *g = k->g;
  guint vec = k->vec, next = 0;

  k->vec = 0; /* one value per thread: scalar code */
  for (guint i = 0; i < groups->len; i++)
    {
      GPtrArray *grp = groups->pdata[i];
      Val       *first = grp->pdata[0];
      Idx        ix;
      if (guard != NULL)
        _wb_cg_line (k, "%s", guard);
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      _wb_cg_idx_unravel (k, at, first->rank, first->shape, &ix);
      for (guint j = 0; j < grp->len; j++)
        {
          Val        *v = grp->pdata[j];
          const char *x = _wb_cg_emit (k, v, &ix, error);
          if (x == NULL)
            {
              k->vec = vec;
              return FALSE;
            }
          _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", slots[next++]), at, x, v->dtype));
        }
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
    }
  k->vec = vec;
  return TRUE;
}

gboolean
_wb_cg_take_shape (GPtrArray *vals, const guint *slots, guint i, gboolean *done, GPtrArray *same, GArray *same_slots)
{
  Val *first = vals->pdata[i];

  if (done[i])
    return FALSE;
  for (guint j = i; j < vals->len; j++)
    if (!done[j] && _wb_cg_same_shape (vals->pdata[j], first))
      {
        done[j] = TRUE;
        g_ptr_array_add (same, vals->pdata[j]);
        g_array_append_val (same_slots, slots[j]);
      }
  return TRUE;
}

/* -- an epilogue's outputs and inputs --------------------------------------------------------
 * Their buffers (hidden while the kernel computing the epilogue runs: it computes them wherever it needs
 * them), and the contiguous inputs its values read at their own linear index: what a row kernel prefetches
 * and what a mixed column set reads beside it (-epilogue.c, -mix.c, -column.c, -reduce.c). */

static void
each_output (const WbCgEpilogue *epi, void (*fn) (Val *v, gpointer data), gpointer data)
{
  for (guint i = 0; i < epi->rows->len; i++)
    {
      GPtrArray *grp = epi->rows->pdata[i];
      for (guint j = 0; j < grp->len; j++)
        fn (grp->pdata[j], data);
    }
  for (guint j = 0; j < epi->elems->len; j++)
    fn (epi->elems->pdata[j], data);
}

typedef struct
{
  Gen    *g;
  GArray *writes;
} Buffers;

static void
add_buffer (Val *v, gpointer data)
{
  Buffers *b = data;
  guint    slot;

  if (v->buffer < 0)
    v->buffer = _wb_cg_add_buffer (b->g, v);
  slot = b->g->n_inputs + (guint) v->buffer;
  g_array_append_val (b->writes, slot);
}

void
_wb_cg_epilogue_buffers (Gen *g, const WbCgEpilogue *epi, GArray *writes)
{
  Buffers b = { g, writes };

  each_output (epi, add_buffer, &b);
}

static void
collect (Val *v, gpointer data)
{
  g_ptr_array_add (data, v);
}

guint *
_wb_cg_epilogue_hide (Gen *g, const WbCgEpilogue *epi)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  guint *slots;

  each_output (epi, collect, outs);
  slots = g_new (guint, MAX (outs->len, 1));
  /* every slot first: a value may be two outputs */
  for (guint i = 0; i < outs->len; i++)
    slots[i] = g->n_inputs + (guint) ((Val *) outs->pdata[i])->buffer;
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = -1;
  return slots;
}

void
_wb_cg_epilogue_show (Gen *g, const WbCgEpilogue *epi, const guint *slots)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  each_output (epi, collect, outs);
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = (int) (slots[i] - g->n_inputs);
}

typedef struct
{
  GHashTable *seen;
  GArray     *slots;
  gint64      numel;
} RowInputs;

static gboolean
row_inputs_cb (Gen *g, Val *v, gpointer data)
{
  RowInputs *ri = data;
  guint      slot;

  if (!v->is_tensor || _wb_cg_numel_of (v->rank, v->shape) != ri->numel || !g_hash_table_add (ri->seen, v))
    return FALSE;
  if (v->input >= 0)
    {
      slot = (guint) v->input;
      if (_wb_cg_val_contiguous (v))
        g_array_append_val (ri->slots, slot);
      return FALSE;
    }
  if (v->buffer >= 0 || v->def == NULL || v->def->is_reduction)
    return FALSE;
  /* elementwise ops and reshapes of the same number of elements keep the linear index */
  if (_wb_cg_ew_lookup (v->def->op) != NULL || strcmp (v->def->op, "convert_element_type") == 0 || strcmp (v->def->op, "reshape") == 0)
    (void) _wb_cg_node_reads_any (g, v->def, row_inputs_cb, ri);
  return FALSE;
}

GArray *
_wb_cg_row_inputs (Gen *g, Val *const *vals, guint n, gint64 numel)
{
  RowInputs ri = { g_hash_table_new (NULL, NULL), g_array_new (FALSE, FALSE, sizeof (guint)), numel };

  for (guint j = 0; j < n; j++)
    {
      Val *v = vals[j];
      if (v->input >= 0 || v->def == NULL)
        (void) row_inputs_cb (g, v, &ri);
      else if (g_hash_table_add (ri.seen, v)) /* the values themselves may have buffers: start at their op */
        (void) _wb_cg_node_reads_any (g, v->def, row_inputs_cb, &ri);
    }
  g_hash_table_unref (ri.seen);
  return ri.slots;
}

GArray *
_wb_cg_epilogue_only_inputs (Gen *g, const WbCgEpilogue *epi, Val *const *operands, guint n_operands, gint64 numel)
{
  GArray *mine = _wb_cg_row_inputs (g, (Val *const *) epi->elems->pdata, epi->elems->len, numel);
  g_autoptr (GArray) theirs = _wb_cg_row_inputs (g, operands, n_operands, numel);

  for (guint i = mine->len; i-- > 0;)
    for (guint j = 0; j < theirs->len; j++)
      if (g_array_index (theirs, guint, j) == g_array_index (mine, guint, i))
        {
          g_array_remove_index (mine, i);
          break;
        }
  return mine;
}
