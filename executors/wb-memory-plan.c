/* wb-memory-plan.c — lifetimes of a program's intermediates, their alias groups, and the greedy-by-size
 * offsets of one arena (wb-memory-plan.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-memory-plan.h"

#include <string.h>

#include "wb-interpreter-private.h"
#include "wb-memory-plan-private.h"

/* One name of the program: its alias group (union-find), whether it escapes, where it is used last */
typedef struct _Node Node;
struct _Node
{
  Node         *parent;
  const char   *name;
  const WbBsym *def; /* the call that allocates it (a fresh output), or NULL */
  guint         trace, output, first;
  gint64        nbytes;
  gint          last; /* the last step that holds it (a read, or its trace's end: below), -1 none */
  gboolean      escapes;
  gboolean      returned;        /* the program returns it: it lives until the last step (and past it, the caller's) */
  gboolean      defined;         /* bound by some statement already (a backward unpack of a saved tensor rebinds it) */
  gint          bind_trace;      /* the trace of its latest binding, -1 none */
  gboolean      used_since_bind; /* read in that trace after that binding */
  Node         *maybe_of;        /* a conversion that may return its argument itself: the argument's name */
  guint         bind_step;       /* the step of its latest binding */
};

struct _WbMemoryPlan
{
  GArray     *buffers; /* WbMemoryBuffer, in step order */
  GHashTable *by_call; /* const WbBsym * -> GPtrArray of const WbMemoryBuffer * */
  gint64      arena, sum, live_peak;
  guint       n_steps, n_aliases, n_widened;
};

static Node *
node_get (GHashTable *nodes, const char *name)
{
  Node *n = g_hash_table_lookup (nodes, name);

  if (n == NULL)
    {
      n = g_new0 (Node, 1);
      n->name = name;
      n->last = -1;
      n->bind_trace = -1;
      g_hash_table_insert (nodes, (gpointer) name, n);
    }
  return n;
}

static Node *
node_root (Node *n)
{
  while (n->parent != NULL)
    {
      if (n->parent->parent != NULL)
        n->parent = n->parent->parent;
      n = n->parent;
    }
  return n;
}

static void
node_union (Node *a, Node *b)
{
  a = node_root (a);
  b = node_root (b);
  if (a != b)
    b->parent = a;
}

/* every NAME inside @v marked as returned */
static void
mark_returned_value (GHashTable *nodes, const WbValue *v)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    node_get (nodes, v->text)->returned = TRUE;
  mark_returned_value (nodes, v->base);
  for (guint i = 0; i < v->n_items; i++)
    mark_returned_value (nodes, v->items[i]);
  for (guint i = 0; i < v->n_kwargs; i++)
    mark_returned_value (nodes, v->kwargs[i].value);
}

/* What leaves the program: the backward's return (gradients); the forward's, but for a training forward
 * only its first item (the outputs dict), the second being what the backward reads */
static void
mark_returned (GHashTable *nodes, const WbTrace *trace, gboolean training_forward)
{
  const WbBsym  *ret = NULL;
  const WbValue *v;

  for (guint i = trace->n_body; i > 0 && ret == NULL; i--)
    if (trace->body[i - 1]->kind == WB_BSYM_RETURN)
      ret = trace->body[i - 1];
  if (ret == NULL || (v = ret->value) == NULL)
    return;
  if (training_forward && v->kind == WB_VALUE_TUPLE && v->n_items == 2)
    v = v->items[0];
  mark_returned_value (nodes, v);
}

/* The outputs of call @b (kind @kind, alias source @src) at @step of @trace. A region's (a call with
 * subsymbols) output that its subsymbols make a view or a conversion of an argument or of another output is
 * that output's alias or maybe-alias, as the executors answer it (_wb_memory_plan_classify_output). */
static void
add_outputs (WbMemoryPlan *plan, GHashTable *nodes, GHashTable *types, const WbBsym *b, WbMemoryCallKind kind, const WbValue *src, guint trace, guint step)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  wb_bsym_get_output_names (b, outs);
  for (guint k = 0; k < outs->len; k++)
    {
      Node         *n = node_get (nodes, outs->pdata[k]);
      const WbType *t = g_hash_table_lookup (types, outs->pdata[k]);
      /* update_aliases((a, b)) -> (a', b'): item by item */
      const WbValue   *s = src && src->kind == WB_VALUE_TUPLE ? (k < src->n_items ? src->items[k] : NULL) : src;
      const char      *from = s != NULL && s->kind == WB_VALUE_NAME ? s->text : NULL;
      WbMemoryCallKind ok = kind;

      if (kind == WB_MEMORY_KIND_FRESH && b->n_subsymbols > 0)
        ok = _wb_memory_plan_classify_output (b, outs->pdata[k], types, &from);
      n->defined = TRUE;
      n->bind_trace = (gint) trace;
      n->bind_step = step;
      n->used_since_bind = FALSE;
      if (ok == WB_MEMORY_KIND_MAYBE && from != NULL)
        n->maybe_of = node_get (nodes, from);
      if (ok == WB_MEMORY_KIND_ALIAS && from != NULL)
        {
          node_union (node_get (nodes, from), n);
          plan->n_aliases++;
        }
      else if ((ok == WB_MEMORY_KIND_FRESH || ok == WB_MEMORY_KIND_MAYBE) && t != NULL && t->kind == WB_TYPE_TENSOR && wb_type_nbytes (t) > 0 && n->def == NULL)
        {
          n->def = b;
          n->trace = trace;
          n->output = k;
          n->first = step;
          n->nbytes = wb_type_nbytes (t);
        }
      else
        n->escapes = TRUE;
    }
}

/* Walks the steps: uses, definitions, alias groups */
static void
walk (WbMemoryPlan *plan, GHashTable *nodes, GHashTable *types, const WbTrace *trace, guint tix, guint *step)
{
  g_autoptr (GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < trace->n_body; i++, (*step)++)
    {
      const WbBsym  *b = trace->body[i];
      const WbValue *src = NULL;
      GHashTableIter it;
      gpointer       key;

      g_hash_table_remove_all (used);
      _wb_bsym_collect_uses (b, used);
      g_hash_table_iter_init (&it, used);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          Node *n = node_get (nodes, key);
          n->last = (gint) *step;
          n->used_since_bind = TRUE;
        }
      if (b->kind == WB_BSYM_CALL && b->outputs != NULL)
        {
          WbMemoryCallKind kind = _wb_memory_plan_classify (b, types, &src);
          add_outputs (plan, nodes, types, b, kind, src, tix, *step);
        }
      else if ((b->kind == WB_BSYM_UNPACK || b->kind == WB_BSYM_ASSIGN) && b->outputs != NULL)
        {
          /* an unpack binds a value from outside the step, or (backward) a saved tensor the forward made */
          g_autoptr (GPtrArray) outs = g_ptr_array_new ();
          wb_bsym_get_output_names (b, outs);
          for (guint k = 0; k < outs->len; k++)
            {
              Node *n = node_get (nodes, outs->pdata[k]);
              if (!n->defined)
                n->escapes = TRUE;
              n->defined = TRUE;
              n->bind_trace = (gint) tix;
              n->bind_step = *step;
              n->used_since_bind = FALSE;
            }
        }
    }
  /* a name bound here and never read after: the interpreter releases names at their last read only, so it
   * holds this one until the trace's end (an unused output of a call, a saved tensor the backward unpacks
   * and does not read) */
  {
    GHashTableIter it;
    gpointer       val;
    g_hash_table_iter_init (&it, nodes);
    while (g_hash_table_iter_next (&it, NULL, &val))
      {
        Node *n = val;
        if (n->bind_trace == (gint) tix && !n->used_since_bind && *step > 0)
          n->last = MAX (n->last, (gint) *step - 1);
      }
  }
}

/* The orders the offsets are assigned in (Pisarchyk & Lee 2020): greedy by size, largest first (4.3);
 * the same with the longer lifetime first among equal sizes; greedy by breadth (4.2: the buffers of the
 * steps with the most bytes live first, each step's largest first) */
typedef struct
{
  const WbMemoryBuffer *b;
  gint64                breadth; /* the most bytes live at a step of its lifetime */
} Item;

static gint
by_size_desc (gconstpointer a, gconstpointer b)
{
  const Item *x = a, *y = b;

  if (x->b->size != y->b->size)
    return x->b->size > y->b->size ? -1 : 1;
  return x->b->first < y->b->first ? -1 : x->b->first > y->b->first;
}

static gint
by_size_then_life (gconstpointer a, gconstpointer b)
{
  const Item *x = a, *y = b;
  guint       lx = x->b->last - x->b->first, ly = y->b->last - y->b->first;

  if (x->b->size != y->b->size)
    return x->b->size > y->b->size ? -1 : 1;
  if (lx != ly)
    return lx > ly ? -1 : 1;
  return x->b->first < y->b->first ? -1 : x->b->first > y->b->first;
}

static gint
by_breadth (gconstpointer a, gconstpointer b)
{
  const Item *x = a, *y = b;

  if (x->breadth != y->breadth)
    return x->breadth > y->breadth ? -1 : 1;
  return by_size_desc (a, b);
}

static gint
by_offset (gconstpointer a, gconstpointer b)
{
  const WbMemoryBuffer *x = *(const WbMemoryBuffer *const *) a, *y = *(const WbMemoryBuffer *const *) b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Offsets in the order of @items (each buffer into the smallest gap that fits between the placed buffers
 * whose lifetimes overlap it, else above them all), written to @offsets (by buffer index); the arena */
static gint64
place (GArray *buffers, const Item *items, gint64 *offsets)
{
  guint           n = buffers->len;
  WbMemoryBuffer *base = (WbMemoryBuffer *) (gpointer) buffers->data;
  g_autoptr (GPtrArray) placed = g_ptr_array_sized_new (n);
  g_autoptr (GPtrArray) overlap = g_ptr_array_new ();
  gint64 arena = 0;

  for (guint i = 0; i < n; i++)
    {
      WbMemoryBuffer *b = (WbMemoryBuffer *) items[i].b;
      gint64          best = -1, best_gap = G_MAXINT64, prev_end = 0;

      g_ptr_array_set_size (overlap, 0);
      for (guint k = 0; k < placed->len; k++)
        {
          WbMemoryBuffer *p = placed->pdata[k];
          if (p->first <= b->last && b->first <= p->last)
            g_ptr_array_add (overlap, p);
        }
      g_ptr_array_sort (overlap, by_offset);
      for (guint k = 0; k < overlap->len; k++)
        {
          WbMemoryBuffer *p = overlap->pdata[k];
          gint64          gap = p->offset - prev_end;
          if (gap >= b->size && gap < best_gap)
            best = prev_end, best_gap = gap;
          prev_end = MAX (prev_end, p->offset + p->size);
        }
      b->offset = best >= 0 ? best : prev_end;
      offsets[b - base] = b->offset;
      arena = MAX (arena, b->offset + b->size);
      g_ptr_array_add (placed, b);
    }
  return arena;
}

/* Each order in turn; the smallest arena is kept (ties: the earlier order) */
static gint64
assign_offsets (GArray *buffers, const gint64 *live_at)
{
  static const GCompareFunc orders[] = { by_size_desc, by_size_then_life, by_breadth };
  guint                     n = buffers->len;
  g_autofree Item          *items = g_new0 (Item, MAX (n, 1));
  g_autofree gint64        *offsets = g_new0 (gint64, MAX (n, 1));
  g_autofree gint64        *best = g_new0 (gint64, MAX (n, 1));
  gint64                    best_arena = G_MAXINT64;

  for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
    {
      gint64 arena;
      for (guint i = 0; i < n; i++)
        {
          const WbMemoryBuffer *b = &g_array_index (buffers, WbMemoryBuffer, i);
          items[i].b = b;
          items[i].breadth = 0;
          for (guint s = b->first; orders[o] == by_breadth && s <= b->last; s++)
            items[i].breadth = MAX (items[i].breadth, live_at[s]);
        }
      qsort (items, n, sizeof (Item), orders[o]);
      arena = place (buffers, items, offsets);
      if (arena < best_arena)
        {
          best_arena = arena;
          memcpy (best, offsets, n * sizeof (gint64));
        }
    }
  for (guint i = 0; i < n; i++)
    g_array_index (buffers, WbMemoryBuffer, i).offset = best[i];
  return n > 0 ? best_arena : 0;
}

/* the bytes live at each step (@live_at, n_steps of them; a sweep over lifetime ends) and the most */
static gint64
live_peak (GArray *buffers, guint n_steps, gint64 *live_at)
{
  g_autofree gint64 *delta = g_new0 (gint64, n_steps + 2);
  gint64             live = 0, most = 0;

  for (guint i = 0; i < buffers->len; i++)
    {
      const WbMemoryBuffer *b = &g_array_index (buffers, WbMemoryBuffer, i);
      delta[b->first] += b->size;
      delta[b->last + 1] -= b->size;
    }
  for (guint s = 0; s < n_steps; s++)
    {
      live += delta[s];
      live_at[s] = live;
      most = MAX (most, live);
    }
  return most;
}

static gint
by_bind_step_desc (gconstpointer a, gconstpointer b)
{
  const Node *x = *(const Node *const *) a, *y = *(const Node *const *) b;

  return x->bind_step > y->bind_step ? -1 : x->bind_step < y->bind_step;
}

/* Returned groups live until the last step. A conversion that may be its argument itself (WB_MEMORY_KIND_MAYBE) has a
 * buffer of its own and keeps its argument's group alive as long as its own: whichever the executor does,
 * no byte is reused while a tensor holds it. Latest first, so that a chain of them carries through. */
static void
extend_maybe (WbMemoryPlan *plan, GHashTable *nodes)
{
  g_autoptr (GPtrArray) maybes = g_ptr_array_new ();
  gint           end = plan->n_steps > 0 ? (gint) plan->n_steps - 1 : 0;
  GHashTableIter it;
  gpointer       val;

  g_hash_table_iter_init (&it, nodes);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      Node *n = val, *r = node_root (n);
      if (r == n && n->returned)
        n->last = end;
      if (n->maybe_of != NULL)
        g_ptr_array_add (maybes, n);
    }
  g_ptr_array_sort (maybes, by_bind_step_desc);
  for (guint i = 0; i < maybes->len; i++)
    {
      Node *n = maybes->pdata[i], *r = node_root (n), *src = node_root (n->maybe_of);
      gint  last = r->escapes || r->returned ? end : MAX (r->last, (gint) n->bind_step);
      if (src != r)
        src->last = MAX (src->last, last);
    }
}

/* The buffers: one per alias group with a fresh base and no escaping member, living until its members'
 * last use */
static void
collect_buffers (WbMemoryPlan *plan, GHashTable *nodes)
{
  g_autoptr (GHashTable) roots = g_hash_table_new (NULL, NULL); /* root -> its group's base Node, or the root itself when ruled out */
  GHashTableIter it;
  gpointer       val;
  GPtrArray     *bases = g_ptr_array_new ();

  g_hash_table_iter_init (&it, nodes);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      Node *n = val, *r = node_root (n);
      if (n->escapes)
        r->escapes = TRUE;
      if (n->returned)
        r->returned = TRUE;
      if (n->def != NULL)
        {
          Node *had = g_hash_table_lookup (roots, r);
          if (had != NULL && had != n)
            r->escapes = TRUE; /* two allocations in one group: not a single buffer */
          g_hash_table_insert (roots, r, n);
        }
    }
  /* group lifetimes: the latest use of any member */
  g_hash_table_iter_init (&it, nodes);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      Node *n = val, *r = node_root (n);
      if (r != n)
        r->last = MAX (r->last, n->last);
    }
  extend_maybe (plan, nodes);
  g_hash_table_iter_init (&it, roots);
  while (g_hash_table_iter_next (&it, (gpointer *) &val, NULL))
    {
      Node *r = val;
      if (!r->escapes)
        g_ptr_array_add (bases, g_hash_table_lookup (roots, r));
    }
  for (guint i = 0; i < bases->len; i++)
    {
      Node          *n = bases->pdata[i];
      Node          *r = node_root (n);
      WbMemoryBuffer b = { 0 };
      b.name = n->name;
      b.def = n->def;
      b.trace = n->trace;
      b.output = n->output;
      b.first = n->first;
      b.last = (guint) MAX ((gint) n->first, r->last);
      b.nbytes = n->nbytes;
      b.size = (n->nbytes + WB_MEMORY_PLAN_ALIGN - 1) / WB_MEMORY_PLAN_ALIGN * WB_MEMORY_PLAN_ALIGN;
      g_array_append_val (plan->buffers, b);
      plan->sum += b.size;
    }
  g_ptr_array_unref (bases);
}

static gint
by_step (gconstpointer a, gconstpointer b)
{
  const WbMemoryBuffer *x = a, *y = b;

  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  return x->output < y->output ? -1 : x->output > y->output;
}

/* The runtime gives a call's allocation the first free place of its size (wb-cuda-arena.c): it cannot tell
 * which output an allocation will be, and executors allocate outputs in their own order. Outputs of one call
 * with the same size therefore live as long as the longest of them, so that either may take either place.
 * Buffers are in step order: a call's are next to each other. */
static void
same_size_outputs (WbMemoryPlan *plan)
{
  guint n = plan->buffers->len;

  for (guint i = 0; i < n; i++)
    {
      WbMemoryBuffer *a = &g_array_index (plan->buffers, WbMemoryBuffer, i);
      for (guint k = i + 1; k < n && g_array_index (plan->buffers, WbMemoryBuffer, k).def == a->def; k++)
        {
          WbMemoryBuffer *b = &g_array_index (plan->buffers, WbMemoryBuffer, k);
          if (b->size == a->size && b->last != a->last)
            {
              guint last = MAX (a->last, b->last);
              a->last = b->last = last;
              plan->n_widened++;
            }
        }
    }
}

gint64
wb_memory_plan_place (GArray *buffers, guint n_steps, gint64 *live_peak_bytes)
{
  g_autofree gint64 *live_at = g_new0 (gint64, n_steps + 1);
  gint64             peak = live_peak (buffers, n_steps, live_at);

  if (live_peak_bytes != NULL)
    *live_peak_bytes = peak;
  return assign_offsets (buffers, live_at);
}

WbMemoryPlan *
wb_memory_plan_new (const WbTrace *forward, const WbTrace *backward)
{
  WbMemoryPlan *plan = g_new0 (WbMemoryPlan, 1);
  g_autoptr (GHashTable) nodes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GHashTable) types = wb_executor_info_types_new (forward);
  guint step = 0;

  plan->buffers = g_array_new (FALSE, TRUE, sizeof (WbMemoryBuffer));
  plan->by_call = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  if (forward == NULL)
    return plan;
  if (backward != NULL)
    wb_executor_info_types_add (types, backward);
  _wb_memory_plan_add_region_types (types, forward);
  _wb_memory_plan_add_region_types (types, backward);
  for (guint k = 0; k < 2; k++)
    {
      const WbTrace *t = k == 0 ? forward : backward;
      for (guint i = 0; t != NULL && i < t->n_params; i++)
        {
          Node *n = node_get (nodes, _wb_param_name (t->params[i]));
          n->escapes = n->defined = TRUE;
        }
    }
  mark_returned (nodes, forward, backward != NULL);
  if (backward != NULL)
    mark_returned (nodes, backward, FALSE);
  walk (plan, nodes, types, forward, 0, &step);
  if (backward != NULL)
    walk (plan, nodes, types, backward, 1, &step);
  plan->n_steps = step;
  collect_buffers (plan, nodes);
  g_array_sort (plan->buffers, by_step);
  same_size_outputs (plan);
  plan->arena = wb_memory_plan_place (plan->buffers, plan->n_steps, &plan->live_peak);
  for (guint i = 0; i < plan->buffers->len; i++)
    {
      const WbMemoryBuffer *b = &g_array_index (plan->buffers, WbMemoryBuffer, i);
      GPtrArray            *outs = g_hash_table_lookup (plan->by_call, b->def);
      if (outs == NULL)
        g_hash_table_insert (plan->by_call, (gpointer) b->def, (outs = g_ptr_array_new ()));
      g_ptr_array_add (outs, (gpointer) b);
    }
  return plan;
}

WbMemoryPlan *
wb_memory_plan_new_for_program (const WbProgram *program)
{
  WbProgramKind kind = wb_program_get_kind (program);

  return wb_memory_plan_new (wb_program_get_forward (program), kind == WB_PROGRAM_TRAINING ? wb_program_get_backward (program) : NULL);
}

void
wb_memory_plan_free (WbMemoryPlan *plan)
{
  if (plan == NULL)
    return;
  g_hash_table_unref (plan->by_call);
  g_array_unref (plan->buffers);
  g_free (plan);
}

gint64
wb_memory_plan_get_arena_bytes (const WbMemoryPlan *plan)
{
  return plan->arena;
}

gint64
wb_memory_plan_get_sum_bytes (const WbMemoryPlan *plan)
{
  return plan->sum;
}

gint64
wb_memory_plan_get_live_peak_bytes (const WbMemoryPlan *plan)
{
  return plan->live_peak;
}

guint
wb_memory_plan_get_n_steps (const WbMemoryPlan *plan)
{
  return plan->n_steps;
}

guint
wb_memory_plan_get_n_buffers (const WbMemoryPlan *plan)
{
  return plan->buffers->len;
}

const WbMemoryBuffer *
wb_memory_plan_get_buffer (const WbMemoryPlan *plan, guint i)
{
  g_return_val_if_fail (i < plan->buffers->len, NULL);
  return &g_array_index (plan->buffers, WbMemoryBuffer, i);
}

guint
wb_memory_plan_get_n_widened (const WbMemoryPlan *plan)
{
  return plan->n_widened;
}

guint
wb_memory_plan_get_n_aliases (const WbMemoryPlan *plan)
{
  return plan->n_aliases;
}

const WbMemoryBuffer *const *
wb_memory_plan_get_outputs (const WbMemoryPlan *plan, const WbBsym *call, guint *n_out)
{
  GPtrArray *outs = plan ? g_hash_table_lookup (plan->by_call, call) : NULL;

  *n_out = outs ? outs->len : 0;
  return outs ? (const WbMemoryBuffer *const *) outs->pdata : NULL;
}
