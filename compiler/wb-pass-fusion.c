/* wb-pass-fusion.c — fusion region formation and per-region executor choices
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Modelled on thunder/executors/data_dependent_partition.py (fuse_bound_symbols): bound symbols that a
 * fusion executor marked as fusible are grouped, either as maximal consecutive runs or by a topological
 * order that keeps choosing ready nodes of the current group (dataflow), so producers and consumers merge
 * without forming cycles. Forward and backward never share a region. A region's inputs are the names its
 * body reads but does not produce and its outputs the names it produces that are read after it, both in
 * first-appearance order (thunder/executors/utils.py Region). A ready node joins the open group only as a
 * consumer of it or when that hoists it over nothing of another kind (see may_join). Regions are numbered per executor across the
 * whole trace, so backward numbers continue the forward's (TorchCompile0/1 forward, 2/3 backward). */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

typedef struct
{
  const WbBsym         *bsym;
  const WbExecutorInfo *fusion; /* NULL: not fusible */
  gboolean              backward;
  GArray               *users;     /* guint node indices reading this node's outputs */
  GArray               *producers; /* guint node indices whose outputs this node reads */
  guint                 group;     /* schedule group it joined (1-based), 0 while unscheduled */
  guint                 waiting;   /* producers not scheduled yet */
  gboolean              scheduled;
} Node;

static int
key_of (const Node *n)
{
  if (n->fusion == NULL)
    return 0;
  return 1 + 2 * (int) wb_executor_info_get_id (n->fusion) + (n->backward ? 1 : 0);
}

static int
cmp_uint (gconstpointer a, gconstpointer b, gpointer data)
{
  guint x = GPOINTER_TO_UINT (a), y = GPOINTER_TO_UINT (b);
  return x < y ? -1 : x > y;
}

/* Whether ready node @i may join the open group @group of its kind: when it reads an output of the group
 * (a producer-consumer merge), or when no node of another kind comes before it in the trace and is still
 * unscheduled (so nothing is hoisted over an op it does not depend on, which would only stretch live
 * ranges: parameter broadcasts stay next to their consumers). */
static gboolean
may_join (Node *nodes, guint n, guint i, guint group, int key, guint *first_unscheduled)
{
  for (guint p = 0; p < nodes[i].producers->len; p++)
    if (nodes[g_array_index (nodes[i].producers, guint, p)].group == group)
      return TRUE;
  while (*first_unscheduled < n && nodes[*first_unscheduled].scheduled)
    (*first_unscheduled)++;
  for (guint k = *first_unscheduled; k < i; k++)
    if (!nodes[k].scheduled && key_of (&nodes[k]) != key)
      return FALSE;
  return TRUE;
}

/* A schedule of node indices: consecutive or dataflow grouping. */
static GArray *
schedule (Node *nodes, guint n, WbFusionType type)
{
  GArray     *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  GHashTable *ready; /* key -> GSequence of node indices */
  int         current = -1;
  guint       group = 0, first_unscheduled = 0;
  if (type == WB_FUSION_CONSECUTIVE)
    {
      for (guint i = 0; i < n; i++)
        g_array_append_val (order, i);
      return order;
    }
  ready = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_sequence_free);
  for (guint i = 0; i < n; i++)
    if (nodes[i].waiting == 0)
      {
        int        k = key_of (&nodes[i]);
        GSequence *seq = g_hash_table_lookup (ready, GINT_TO_POINTER (k));
        if (seq == NULL)
          g_hash_table_insert (ready, GINT_TO_POINTER (k), seq = g_sequence_new (NULL));
        g_sequence_insert_sorted (seq, GUINT_TO_POINTER (i), cmp_uint, NULL);
      }
  while (order->len < n)
    {
      GSequence     *seq = current > 0 ? g_hash_table_lookup (ready, GINT_TO_POINTER (current)) : NULL;
      GSequenceIter *it = NULL;
      guint          pick;
      if (seq != NULL)
        for (it = g_sequence_get_begin_iter (seq); !g_sequence_iter_is_end (it); it = g_sequence_iter_next (it))
          if (may_join (nodes, n, GPOINTER_TO_UINT (g_sequence_get (it)), group, current, &first_unscheduled))
            break;
      if (seq == NULL || it == NULL || g_sequence_iter_is_end (it))
        {
          /* close the group: take the earliest ready node of any kind */
          GHashTableIter hi;
          gpointer       key, val;
          guint          best = G_MAXUINT;
          int            best_key = 0;
          g_hash_table_iter_init (&hi, ready);
          while (g_hash_table_iter_next (&hi, &key, &val))
            if (!g_sequence_is_empty (val))
              {
                guint first = GPOINTER_TO_UINT (g_sequence_get (g_sequence_get_begin_iter (val)));
                if (first < best)
                  best = first, best_key = GPOINTER_TO_INT (key);
              }
          g_assert (best != G_MAXUINT); /* a cycle is impossible in a trace */
          seq = g_hash_table_lookup (ready, GINT_TO_POINTER (best_key));
          current = best_key;
          group++;
          it = g_sequence_get_begin_iter (seq);
        }
      pick = GPOINTER_TO_UINT (g_sequence_get (it));
      g_sequence_remove (it);
      nodes[pick].scheduled = TRUE;
      nodes[pick].group = group;
      g_array_append_val (order, pick);
      for (guint u = 0; u < nodes[pick].users->len; u++)
        {
          guint user = g_array_index (nodes[pick].users, guint, u);
          if (--nodes[user].waiting == 0)
            {
              int        k = key_of (&nodes[user]);
              GSequence *s2 = g_hash_table_lookup (ready, GINT_TO_POINTER (k));
              if (s2 == NULL)
                g_hash_table_insert (ready, GINT_TO_POINTER (k), s2 = g_sequence_new (NULL));
              g_sequence_insert_sorted (s2, GUINT_TO_POINTER (user), cmp_uint, NULL);
            }
        }
    }
  g_hash_table_unref (ready);
  return order;
}

static char *
next_region_name (WbPassShared *sh, const WbExecutorInfo *ex)
{
  const char *prefix = wb_executor_info_get_region_prefix (ex);
  guint       k = GPOINTER_TO_UINT (g_hash_table_lookup (sh->counters, prefix));
  g_hash_table_insert (sh->counters, (gpointer) prefix, GUINT_TO_POINTER (k + 1));
  return g_strdup_printf ("%s%u", prefix, k);
}

typedef struct
{
  WbPassContext  *ctx;
  WbTraceBuilder *builder;
  Node           *nodes;
  guint           n_nodes;
  GHashTable     *position; /* name -> last schedule position reading it (+1) */
  GHashTable     *defined;  /* names defined in the trace */
  GHashTable     *returned; /* names the return reads */
  const char     *unfusing; /* (nullable) the key of the region emit_unfused is emitting */
  GError        **error;
} Fusion;

/* Emits @b claimed by operator executor @only (or the first that takes it), decomposing composites
 * nobody takes whole, as the claim pass does. */
static gboolean
emit_operator (Fusion *f, const char *region, const WbBsym *b, const WbExecutorInfo *only, int depth)
{
  WbPassShared *sh = f->ctx->shared;
  g_autoptr (GString) reasons = g_string_new (NULL);
  const WbExecutorInfo *taker = NULL;
  for (guint e = 0; e < sh->n_executors && taker == NULL; e++)
    {
      const WbExecutorInfo *ex = only ? only : sh->executors[e];
      g_autofree char      *why = NULL;
      if (wb_executor_info_get_kind (ex) != WB_EXECUTOR_KIND_OPERATOR)
        continue;
      if (wb_executor_info_can_take (ex, b, _wb_type_env_lookup, f->ctx->types, &why))
        taker = ex;
      else if (why)
        g_string_append_printf (reasons, "%s%s", reasons->len ? "; " : "", why);
      if (only)
        break;
    }
  if (taker == NULL && b->n_subsymbols > 0 && depth < 16)
    {
      for (guint i = 0; i < b->n_subsymbols; i++)
        if (!emit_operator (f, region, b->subsymbols[i], only, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (taker == NULL)
    {
      g_set_error (f->error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT, "%s: cannot unfuse: %s has no operator executor%s%s",
                   region, b->name, reasons->len ? ": " : "", reasons->str);
      return FALSE;
    }
  g_hash_table_insert (sh->claims, (gpointer) b, (gpointer) taker);
  _wb_remark_add (sh, wb_executor_info_get_name (taker), b, wb_trace_get_bsym_line (f->ctx->in, b), TRUE, "claimed (region unfused by the assignment)");
  if (f->unfusing != NULL)
    {
      char *key = wb_call_key (b);

      if (key != NULL)
        g_hash_table_insert (sh->unfused_from, key, g_strdup (f->unfusing));
    }
  wb_trace_builder_append (f->builder, b);
  return TRUE;
}

/* Emits the members of a group one by one, claimed by operator executors; each call emitted is noted as
 * unfused from the group's region key @key (nullable) in sh->unfused_from. */
static gboolean
emit_unfused (Fusion *f, const char *region, const char *key, const guint *members, guint n, const WbExecutorInfo *only)
{
  gboolean ok = TRUE;

  f->unfusing = key;
  for (guint i = 0; i < n && ok; i++)
    ok = emit_operator (f, region, f->nodes[members[i]].bsym, only, 0);
  f->unfusing = NULL;
  return ok;
}

/* The region key of a group (wb_region_key of the region it would become). */
static char *
region_key (Fusion *f, const guint *members, guint n)
{
  g_autofree const WbBsym **bsyms = g_new (const WbBsym *, n);

  for (guint i = 0; i < n; i++)
    bsyms[i] = f->nodes[members[i]].bsym;
  return _wb_region_key_of_members (bsyms, n);
}

/* The assignment's choice for the region @name with @key (a key wins over a name), taken out of
 * sh->overrides (both entries) so that choices left at the end name no region; (transfer full) or NULL. */
static char *
take_choice (WbPassShared *sh, const char *name, const char *key)
{
  char *choice = NULL;

  if (sh->overrides == NULL)
    return NULL;
  if (key != NULL)
    choice = g_strdup (g_hash_table_lookup (sh->overrides, key));
  if (choice == NULL)
    choice = g_strdup (g_hash_table_lookup (sh->overrides, name));
  if (key != NULL)
    g_hash_table_remove (sh->overrides, key);
  g_hash_table_remove (sh->overrides, name);
  return choice;
}

static gboolean
emit_region (Fusion *f, const guint *members, guint n, guint end_pos, const WbExecutorInfo *ex)
{
  WbPassShared    *sh = f->ctx->shared;
  g_autofree char *name = next_region_name (sh, ex);
  g_autofree char *key = region_key (f, members, n);
  g_autofree char *choice = take_choice (sh, name, key);
  g_autoptr (GHashTable) inside = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seen_in = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) ins = g_ptr_array_new (), outs = g_ptr_array_new (), tmp = g_ptr_array_new ();
  WbBsym         *region;
  WbValue       **items;
  const WbSymbol *sym;

  if (choice != NULL)
    {
      const WbExecutorInfo *target = wb_executor_info_lookup (choice);
      if (strcmp (choice, "unfuse") == 0)
        return emit_unfused (f, name, key, members, n, NULL);
      if (target == NULL)
        {
          g_set_error (f->error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_UNKNOWN_EXECUTOR, "%s=%s: no executor is called '%s'", name, choice, choice);
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *why = NULL;
          const WbBsym    *b = f->nodes[members[i]].bsym;
          if (!wb_executor_info_can_take (target, b, _wb_type_env_lookup, f->ctx->types, &why))
            {
              g_set_error (f->error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT, "%s=%s is impossible: %s (line %u): %s", name,
                           choice, b->name, wb_trace_get_bsym_line (f->ctx->in, b), why ? why : "rejected");
              return FALSE;
            }
        }
      if (wb_executor_info_get_kind (target) == WB_EXECUTOR_KIND_OPERATOR)
        return emit_unfused (f, name, key, members, n, target);
      if (target != ex)
        {
          g_free (name);
          name = next_region_name (sh, target);
          ex = target;
        }
    }

  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = f->nodes[members[i]].bsym;
      g_ptr_array_set_size (tmp, 0);
      _wb_bsym_add_inputs (b, tmp);
      for (guint k = 0; k < tmp->len; k++)
        {
          const char *nm = tmp->pdata[k];
          if (!g_hash_table_contains (inside, nm) && !g_hash_table_contains (seen_in, nm) && g_hash_table_contains (f->defined, nm))
            {
              g_hash_table_add (seen_in, (gpointer) nm);
              g_ptr_array_add (ins, (gpointer) nm);
            }
        }
      g_ptr_array_set_size (tmp, 0);
      _wb_bsym_add_outputs (b, tmp);
      for (guint k = 0; k < tmp->len; k++)
        {
          const char *nm = tmp->pdata[k];
          guint       last = GPOINTER_TO_UINT (g_hash_table_lookup (f->position, nm));
          g_hash_table_add (inside, (gpointer) nm);
          if (last > end_pos || g_hash_table_contains (f->returned, nm))
            g_ptr_array_add (outs, (gpointer) nm);
        }
    }

  sym = wb_symbol_lookup (name, strlen (name));
  region = wb_trace_builder_new_bsym (f->builder, WB_BSYM_CALL);
  region->symbol = sym;
  region->name = wb_trace_builder_strdup (f->builder, name);
  items = (WbValue **) wb_trace_builder_array (f->builder, outs->len);
  for (guint i = 0; i < outs->len; i++)
    items[i] = wb_trace_builder_name (f->builder, outs->pdata[i]);
  region->outputs = wb_trace_builder_sequence (f->builder, WB_VALUE_LIST, items, outs->len, 0);
  region->args = (WbValue **) wb_trace_builder_array (f->builder, ins->len);
  region->n_args = ins->len;
  for (guint i = 0; i < ins->len; i++)
    region->args[i] = wb_trace_builder_name (f->builder, ins->pdata[i]);
  {
    WbBsym **subs = g_new (WbBsym *, n);
    for (guint i = 0; i < n; i++)
      {
        subs[i] = (WbBsym *) f->nodes[members[i]].bsym;
        _wb_sources_add (f->ctx->sources, region, subs[i]);
      }
    wb_trace_builder_set_subsymbols (f->builder, region, subs, n);
    g_free (subs);
  }
  g_hash_table_insert (sh->claims, region, (gpointer) ex);
  g_hash_table_insert (sh->region_exec, g_strdup (name), (gpointer) ex);
  if (key != NULL)
    g_hash_table_insert (sh->region_keys, g_strdup (name), g_steal_pointer (&key));
  wb_trace_builder_append (f->builder, region);
  return TRUE;
}

WbTrace *
_wb_pass_fusion (WbPassContext *ctx, GError **error)
{
  WbTrace      *in = ctx->in;
  WbPassShared *sh = ctx->shared;
  g_autoptr (GHashTable) backward = _wb_trace_find_backward (in);
  g_autoptr (GHashTable) producer = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GArray) order = NULL;
  g_autoptr (GPtrArray) head = g_ptr_array_new (), tail = g_ptr_array_new ();
  Fusion   f = { ctx, NULL, NULL, 0, NULL, NULL, NULL, NULL, error };
  WbTrace *out = NULL;
  gboolean ok = TRUE;
  guint    n = 0;

  f.nodes = g_new0 (Node, in->n_body + 1);
  f.position = g_hash_table_new (g_str_hash, g_str_equal);
  f.defined = g_hash_table_new (g_str_hash, g_str_equal);
  f.returned = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *b = in->body[i];
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (b, names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_add (f.defined, names->pdata[k]);
      if (b->kind == WB_BSYM_ANNOTATION || (b->kind == WB_BSYM_UNPACK && n == 0))
        {
          g_ptr_array_add (head, (gpointer) b);
          continue;
        }
      if (b->kind == WB_BSYM_RETURN)
        {
          g_ptr_array_set_size (names, 0);
          _wb_bsym_add_inputs (b, names);
          for (guint k = 0; k < names->len; k++)
            g_hash_table_add (f.returned, names->pdata[k]);
          g_ptr_array_add (tail, (gpointer) b);
          continue;
        }
      f.nodes[n].bsym = b;
      f.nodes[n].users = g_array_new (FALSE, FALSE, sizeof (guint));
      f.nodes[n].producers = g_array_new (FALSE, FALSE, sizeof (guint));
      f.nodes[n].backward = g_hash_table_contains (backward, b);
      {
        const WbExecutorInfo *ex = g_hash_table_lookup (sh->claims, b);
        f.nodes[n].fusion = ex != NULL && wb_executor_info_get_kind (ex) == WB_EXECUTOR_KIND_FUSION ? ex : NULL;
      }
      n++;
    }
  f.n_nodes = n;
  /* dependencies */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GHashTable) deps = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_inputs (f.nodes[i].bsym, names);
      for (guint k = 0; k < names->len; k++)
        {
          gpointer p;
          if (g_hash_table_lookup_extended (producer, names->pdata[k], NULL, &p) && !g_hash_table_contains (deps, p))
            {
              guint src = GPOINTER_TO_UINT (p);
              g_hash_table_add (deps, p);
              g_array_append_val (f.nodes[src].users, i);
              g_array_append_val (f.nodes[i].producers, src);
              f.nodes[i].waiting++;
            }
        }
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (f.nodes[i].bsym, names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_insert (producer, names->pdata[k], GUINT_TO_POINTER (i));
    }
  order = schedule (f.nodes, n, sh->fusion_type);
  /* last reader position of every name, in schedule order */
  for (guint p = 0; p < order->len; p++)
    {
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_inputs (f.nodes[g_array_index (order, guint, p)].bsym, names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_insert (f.position, names->pdata[k], GUINT_TO_POINTER (p + 1));
    }

  f.builder = wb_trace_builder_new (in);
  for (guint i = 0; i < head->len; i++)
    wb_trace_builder_append (f.builder, head->pdata[i]);
  for (guint p = 0; p < order->len && ok;)
    {
      guint idx = g_array_index (order, guint, p), q = p;
      Node *node = &f.nodes[idx];
      if (node->fusion == NULL)
        {
          wb_trace_builder_append (f.builder, node->bsym);
          p++;
          continue;
        }
      while (q < order->len && key_of (&f.nodes[g_array_index (order, guint, q)]) == key_of (node))
        q++;
      ok = emit_region (&f, &g_array_index (order, guint, p), q - p, q, node->fusion);
      p = q;
    }
  for (guint i = 0; i < tail->len; i++)
    wb_trace_builder_append (f.builder, tail->pdata[i]);

  if (ok && sh->overrides != NULL && g_hash_table_size (sh->overrides) > 0)
    {
      GHashTableIter it;
      gpointer       key;
      g_hash_table_iter_init (&it, sh->overrides);
      g_hash_table_iter_next (&it, &key, NULL);
      g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT, "%s: no region has this name or key in the fusion stage",
                   (const char *) key);
      ok = FALSE;
    }
  if (ok)
    out = wb_trace_builder_end (g_steal_pointer (&f.builder));
  g_clear_pointer (&f.builder, wb_trace_builder_free);
  for (guint i = 0; i < n; i++)
    {
      g_array_free (f.nodes[i].users, TRUE);
      g_array_free (f.nodes[i].producers, TRUE);
    }
  g_free (f.nodes);
  g_hash_table_unref (f.position);
  g_hash_table_unref (f.defined);
  g_hash_table_unref (f.returned);
  return out;
}
