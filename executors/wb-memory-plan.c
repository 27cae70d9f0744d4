/* wb-memory-plan.c — lifetimes of a program's intermediates, their alias groups, and the greedy-by-size
 * offsets of one arena (wb-memory-plan.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-memory-plan.h"

#include <string.h>

#include "wb-interpreter-private.h"

/* One name of the program: its alias group (union-find), whether it escapes, where it is used last */
typedef struct _Node Node;
struct _Node
{
  Node         *parent;
  const char   *name;
  const WbBsym *def; /* the call that allocates it (a fresh output), or NULL */
  guint         trace, output, first;
  gint64        nbytes;
  gint          last; /* the last step that reads it, -1 none */
  gboolean      escapes;
  gboolean      defined; /* bound by some statement already (a backward unpack of a saved tensor rebinds it) */
};

struct _WbMemoryPlan
{
  GArray     *buffers; /* WbMemoryBuffer, in step order */
  GHashTable *by_call; /* const WbBsym * -> GPtrArray of const WbMemoryBuffer * */
  gint64      arena, sum, live_peak;
  guint       n_steps, n_aliases;
};

typedef enum
{
  KIND_FRESH = 0, /* outputs are new tensors */
  KIND_ALIAS,     /* outputs share argument @src's storage */
  KIND_EXTERNAL,  /* outputs come from outside the step (cotangents, collectives, collections) */
} CallKind;

/* Calls whose outputs are views or aliases of their first argument (by the printed name's last part) */
static const char *const view_names[] = {
  "reshape",
  "torch_prims_reshape_impl",
  "view",
  "view_as",
  "_unsafe_view",
  "transpose",
  "permute",
  "expand",
  "expand_as",
  "broadcast_in_dim",
  "squeeze",
  "unsqueeze",
  "slice",
  "slice_prim",
  "narrow",
  "flatten",
  "unflatten",
  "movedim",
  "t",
  "T",
  "mT",
  "split",
  "chunk",
  "tensor_split",
  "unbind",
  "diagonal",
  "detach",
  "alias",
  "contiguous",
  "shallow_copy",
  "unfold",
  "as_strided",
  "select",
  "getitem",
  "real",
  "view_as_real",
  "view_as_complex",
  "unpack_trivial",
};

static const char *
base_name (const char *printed)
{
  const char *dot = printed ? strrchr (printed, '.') : NULL;

  return dot ? dot + 1 : printed ? printed
                                 : "";
}

/* What call @b's outputs are; for KIND_ALIAS, @src: the argument value whose storage they share */
static CallKind
classify (const WbBsym *b, const WbValue **src)
{
  const char      *base = base_name (b->name);
  WbSymbolCategory cat = b->symbol ? wb_symbol_get_category (b->symbol) : WB_SYMBOL_CATEGORY_OPAQUE;

  *src = NULL;
  if (g_strcmp0 (b->name, "prims.get_grad") == 0 || cat == WB_SYMBOL_CATEGORY_UTILITY || cat == WB_SYMBOL_CATEGORY_PROLOGUE ||
      cat == WB_SYMBOL_CATEGORY_DISTRIBUTED)
    return strcmp (base, "unpack_trivial") == 0 && b->n_args > 0 ? (*src = b->args[0], KIND_ALIAS) : KIND_EXTERNAL;
  if (strcmp (base, "copy_") == 0)
    {
      *src = b->n_args > 1 ? b->args[1] : NULL; /* copy_(from, to): writes `to` and returns it */
      for (guint i = 0; *src == NULL && i < b->n_kwargs; i++)
        if (g_strcmp0 (b->kwargs[i].name, "copy_to") == 0)
          *src = b->kwargs[i].value;
      return *src ? KIND_ALIAS : KIND_EXTERNAL;
    }
  if (strcmp (base, "update_aliases") == 0)
    return b->n_args > 0 ? (*src = b->args[0], KIND_ALIAS) : KIND_EXTERNAL;
  if ((b->symbol && wb_symbol_is_inplace (b->symbol)) || (g_str_has_suffix (base, "_") && !g_str_has_suffix (base, "__")))
    return b->n_args > 0 ? (*src = b->args[0], KIND_ALIAS) : KIND_EXTERNAL;
  for (guint i = 0; i < G_N_ELEMENTS (view_names); i++)
    if (strcmp (base, view_names[i]) == 0)
      return b->n_args > 0 ? (*src = b->args[0], KIND_ALIAS) : KIND_EXTERNAL;
  return KIND_FRESH;
}

static Node *
node_get (GHashTable *nodes, const char *name)
{
  Node *n = g_hash_table_lookup (nodes, name);

  if (n == NULL)
    {
      n = g_new0 (Node, 1);
      n->name = name;
      n->last = -1;
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

/* every NAME inside @v marked as escaping */
static void
mark_escaping (GHashTable *nodes, const WbValue *v)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    node_get (nodes, v->text)->escapes = TRUE;
  mark_escaping (nodes, v->base);
  for (guint i = 0; i < v->n_items; i++)
    mark_escaping (nodes, v->items[i]);
  for (guint i = 0; i < v->n_kwargs; i++)
    mark_escaping (nodes, v->kwargs[i].value);
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
  mark_escaping (nodes, v);
}

/* The outputs of call @b (kind @kind, alias source @src) at @step of @trace */
static void
add_outputs (WbMemoryPlan *plan, GHashTable *nodes, GHashTable *types, const WbBsym *b, CallKind kind, const WbValue *src, guint trace, guint step)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  wb_bsym_get_output_names (b, outs);
  for (guint k = 0; k < outs->len; k++)
    {
      Node         *n = node_get (nodes, outs->pdata[k]);
      const WbType *t = g_hash_table_lookup (types, outs->pdata[k]);
      /* update_aliases((a, b)) -> (a', b'): item by item */
      const WbValue *s = src && src->kind == WB_VALUE_TUPLE ? (k < src->n_items ? src->items[k] : NULL) : src;

      n->defined = TRUE;
      if (kind == KIND_ALIAS && s != NULL && s->kind == WB_VALUE_NAME)
        {
          node_union (node_get (nodes, s->text), n);
          plan->n_aliases++;
        }
      else if (kind == KIND_FRESH && t != NULL && t->kind == WB_TYPE_TENSOR && wb_type_nbytes (t) > 0 && n->def == NULL)
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
        node_get (nodes, key)->last = (gint) *step;
      if (b->kind == WB_BSYM_CALL && b->outputs != NULL)
        {
          CallKind kind = classify (b, &src);
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
            }
        }
    }
}

static gint
by_size_desc (gconstpointer a, gconstpointer b)
{
  const WbMemoryBuffer *x = *(const WbMemoryBuffer *const *) a, *y = *(const WbMemoryBuffer *const *) b;

  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

static gint
by_offset (gconstpointer a, gconstpointer b)
{
  const WbMemoryBuffer *x = *(const WbMemoryBuffer *const *) a, *y = *(const WbMemoryBuffer *const *) b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Greedy by size (Pisarchyk & Lee 2020, 4.3): each buffer, largest first, into the smallest gap that fits
 * between the placed buffers whose lifetimes overlap it, else above them all */
static void
assign_offsets (WbMemoryPlan *plan)
{
  guint n = plan->buffers->len;
  g_autoptr (GPtrArray) order = g_ptr_array_sized_new (n);
  g_autoptr (GPtrArray) placed = g_ptr_array_sized_new (n);
  g_autoptr (GPtrArray) overlap = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (order, &g_array_index (plan->buffers, WbMemoryBuffer, i));
  g_ptr_array_sort (order, by_size_desc);
  for (guint i = 0; i < n; i++)
    {
      WbMemoryBuffer *b = order->pdata[i];
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
      plan->arena = MAX (plan->arena, b->offset + b->size);
      g_ptr_array_add (placed, b);
    }
}

/* the most bytes live at one step (a sweep over lifetime ends) */
static gint64
live_peak (const WbMemoryPlan *plan)
{
  g_autofree gint64 *delta = g_new0 (gint64, plan->n_steps + 2);
  gint64             live = 0, most = 0;

  for (guint i = 0; i < plan->buffers->len; i++)
    {
      const WbMemoryBuffer *b = &g_array_index (plan->buffers, WbMemoryBuffer, i);
      delta[b->first] += b->size;
      delta[b->last + 1] -= b->size;
    }
  for (guint s = 0; s <= plan->n_steps; s++)
    {
      live += delta[s];
      most = MAX (most, live);
    }
  return most;
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
  assign_offsets (plan);
  plan->live_peak = live_peak (plan);
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
