/* wb-pass-remat.c — rematerialization: recompute cheap forward values in the backward region that reads them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's rematerialize (thunder/core/rematerialization.py) chooses, for a producer region and its
 * consumer region, the cut of the producer's graph with the fewest saved bytes (a min-cut). This pass
 * takes a simpler, documented rule on the same idea: a backward region input x that a forward region P
 * produces with elementwise, conversion and shape ops only (a "cheap" chain) from values the backward
 * can read anyway, and that in the backward only regions read, is recomputed at the start of each of them
 * when the bytes newly saved for it are no more than x's own bytes (outputs are tried in P's order;
 * what a recomputation reads stays saved). P then stops
 * returning what nobody reads, and its body loses what those outputs alone needed. */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

static gboolean
is_cheap (const WbBsym *b)
{
  WbSymbolCategory cat;
  const char *name;
  if (b->kind != WB_BSYM_CALL || b->symbol == NULL || wb_symbol_is_fusion (b->symbol) || b->outputs == NULL
      || b->outputs->kind != WB_VALUE_NAME)
    return FALSE;
  name = b->name;
  if (strstr (name, "uniform") || strstr (name, "rand") || strstr (name, "dropout") || strstr (name, "empty"))
    return FALSE;
  cat = wb_symbol_get_category (b->symbol);
  return cat == WB_SYMBOL_CATEGORY_ELEMENTWISE || cat == WB_SYMBOL_CATEGORY_CONVERSION || cat == WB_SYMBOL_CATEGORY_SHAPE;
}

static gint64
bytes_of (GHashTable *types, const char *name)
{
  WbType *t = g_hash_table_lookup (types, name);
  return t != NULL ? wb_type_nbytes (t) : G_MAXINT32;
}

/* The producer of every name inside a region body. */
static GHashTable *
body_producers (const WbBsym *region)
{
  GHashTable *p = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint i = 0; i < region->n_subsymbols; i++)
    {
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (region->subsymbols[i], names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_insert (p, names->pdata[k], region->subsymbols[i]);
    }
  return p;
}

typedef struct
{
  WbPassContext *ctx;
  GHashTable    *available;   /* names a backward region may read: top-level definitions */
} Remat;

/* Collects into @chain (producer order unknown yet) the cheap bsyms computing @name inside the producer
 * region, and into @frontier what they read from outside the chain. FALSE if not recomputable. */
static gboolean
collect_chain (Remat *r, GHashTable *prod, const char *name, GHashTable *chain, GHashTable *frontier, int depth)
{
  const WbBsym *b = g_hash_table_lookup (prod, name);
  g_autoptr (GPtrArray) ins = g_ptr_array_new ();
  if (b == NULL || depth > 64)
    return FALSE;
  if (g_hash_table_contains (chain, b))
    return TRUE;
  if (!is_cheap (b))
    return FALSE;
  g_hash_table_add (chain, (gpointer) b);
  _wb_bsym_add_inputs (b, ins);
  for (guint i = 0; i < ins->len; i++)
    {
      const char *n = ins->pdata[i];
      if (g_hash_table_contains (r->available, n))
        g_hash_table_add (frontier, (gpointer) n);
      else if (!collect_chain (r, prod, n, chain, frontier, depth + 1))
        return FALSE;
    }
  return TRUE;
}

WbTrace *
_wb_pass_rematerialize (WbPassContext *ctx, GError **error)
{
  WbTrace *in = ctx->in;
  g_autoptr (GHashTable) backward = _wb_trace_find_backward (in);
  g_autoptr (GHashTable) replaced = g_hash_table_new (g_direct_hash, g_direct_equal);  /* old bw region -> new */
  g_autoptr (GHashTable) top_names = g_hash_table_new (g_str_hash, g_str_equal);
  guint next_name = 0;
  g_autoptr (GHashTable) chains = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (WbTraceBuilder) b = wb_trace_builder_new (in);
  Remat r = { ctx, g_hash_table_new (g_str_hash, g_str_equal) };

  /* every top-level name (what a backward region may read), and the next free Thunder-style name tN */
  for (guint i = 0; i < in->n_body; i++)
    {
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (in->body[i], names);
      for (guint k = 0; k < names->len; k++)
        {
          g_hash_table_add (r.available, names->pdata[k]);
          g_hash_table_add (top_names, names->pdata[k]);
        }
    }
  {
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init (&it, ctx->types);
    while (g_hash_table_iter_next (&it, &key, NULL))
      {
        const char *n = key;
        if (n[0] == 't' && g_ascii_isdigit (n[1]))
          {
            char *end;
            guint64 v = g_ascii_strtoull (n + 1, &end, 10);
            if (*end == '\0' && v > next_name && v < G_MAXUINT / 2)
              next_name = (guint) v;
          }
      }
  }

  /* decide: which forward region outputs every backward reader recomputes */
  {
    g_autoptr (GHashTable) bw_reads = g_hash_table_new (g_str_hash, g_str_equal);   /* names saved for backward now */
    g_autoptr (GHashTable) pinned = g_hash_table_new (g_str_hash, g_str_equal);     /* must stay saved */
    g_autoptr (GHashTable) readers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
    for (guint i = 0; i < in->n_body; i++)
      {
        const WbBsym *bsym = in->body[i];
        g_ptr_array_set_size (names, 0);
        _wb_bsym_add_inputs (bsym, names);
        for (guint k = 0; k < names->len; k++)
          {
            GPtrArray *list = g_hash_table_lookup (readers, names->pdata[k]);
            if (list == NULL)
              g_hash_table_insert (readers, names->pdata[k], list = g_ptr_array_new ());
            if (list->len == 0 || list->pdata[list->len - 1] != bsym)
              g_ptr_array_add (list, (gpointer) bsym);
            if (g_hash_table_contains (backward, bsym))
              g_hash_table_add (bw_reads, names->pdata[k]);
          }
      }
    for (guint i = 0; i < in->n_body; i++)
      {
        const WbBsym *p = in->body[i];
        g_autoptr (GHashTable) prod = NULL;
        if (!wb_bsym_is_fusion (p) || g_hash_table_contains (backward, p))
          continue;
        prod = body_producers (p);
        for (guint o = 0; o < p->outputs->n_items; o++)
          {
            const char *x = p->outputs->items[o]->text;
            GPtrArray *rs = g_hash_table_lookup (readers, x);
            g_autoptr (GHashTable) c2 = g_hash_table_new (g_direct_hash, g_direct_equal);
            g_autoptr (GHashTable) f2 = g_hash_table_new (g_str_hash, g_str_equal);
            gboolean ok = rs != NULL && !g_hash_table_contains (pinned, x);
            guint n_bw = 0;
            gint64 new_bytes = 0;
            GHashTableIter it;
            gpointer key;
            /* every backward reader must be a region (it can recompute); forward readers do not matter */
            for (guint k = 0; ok && k < rs->len; k++)
              if (g_hash_table_contains (backward, rs->pdata[k]))
                {
                  ok = wb_bsym_is_fusion (rs->pdata[k]);
                  n_bw++;
                }
            if (!ok || n_bw == 0)
              continue;
            g_hash_table_remove (r.available, x);
            if (!collect_chain (&r, prod, x, c2, f2, 0))
              {
                g_hash_table_add (r.available, (gpointer) x);
                continue;
              }
            g_hash_table_iter_init (&it, f2);
            while (g_hash_table_iter_next (&it, &key, NULL))
              if (!g_hash_table_contains (bw_reads, key))
                new_bytes += bytes_of (ctx->types, key);
            if (new_bytes > bytes_of (ctx->types, x))
              {
                g_hash_table_add (r.available, (gpointer) x);
                continue;
              }
            /* accepted: x leaves the saved values, its frontier joins them */
            g_hash_table_remove (bw_reads, x);
            g_hash_table_iter_init (&it, f2);
            while (g_hash_table_iter_next (&it, &key, NULL))
              {
                g_hash_table_add (bw_reads, key);
                g_hash_table_add (pinned, key);
              }
            for (guint k = 0; k < rs->len; k++)
              {
                GHashTable *chain;
                if (!g_hash_table_contains (backward, rs->pdata[k]))
                  continue;
                chain = g_hash_table_lookup (chains, rs->pdata[k]);
                if (chain == NULL)
                  g_hash_table_insert (chains, rs->pdata[k], chain = g_hash_table_new (g_direct_hash, g_direct_equal));
                g_hash_table_iter_init (&it, c2);
                while (g_hash_table_iter_next (&it, &key, NULL))
                  g_hash_table_add (chain, key);
              }
          }
      }
  }

  /* rewrite the backward regions that recompute something */
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *region = in->body[i];
      GHashTable *chain = g_hash_table_lookup (chains, region);
      if (chain != NULL)
        {
          /* the recomputed chain, in its producers' order, then the old body */
          GPtrArray *subs = g_ptr_array_new ();
          GPtrArray *args = g_ptr_array_new ();
          g_autoptr (GHashTable) inside = g_hash_table_new (g_str_hash, g_str_equal);
          g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
          WbBsym *copy = wb_trace_builder_copy_bsym (b, region);
          for (guint j = 0; j < in->n_body; j++)
            if (wb_bsym_is_fusion (in->body[j]))
              for (guint s = 0; s < in->body[j]->n_subsymbols; s++)
                if (g_hash_table_contains (chain, in->body[j]->subsymbols[s]))
                  g_ptr_array_add (subs, in->body[j]->subsymbols[s]);
          for (guint s = 0; s < region->n_subsymbols; s++)
            g_ptr_array_add (subs, region->subsymbols[s]);
          {
            /* A recomputed value that is still a top-level name (the forward reads it too) gets a fresh
             * name inside this region: names stay unique in the joint trace. */
            g_autoptr (GHashTable) renames = g_hash_table_new (g_str_hash, g_str_equal);
            guint n_chain = subs->len - region->n_subsymbols;
            for (guint s = 0; s < n_chain; s++)
              {
                g_ptr_array_set_size (names, 0);
                _wb_bsym_add_outputs (subs->pdata[s], names);
                for (guint k = 0; k < names->len; k++)
                  if (g_hash_table_contains (top_names, names->pdata[k]) && !g_hash_table_contains (renames, names->pdata[k]))
                    {
                      g_autofree char *fresh = g_strdup_printf ("t%u", ++next_name);
                      g_hash_table_insert (renames, names->pdata[k], wb_trace_builder_name (b, fresh));
                    }
              }
            for (guint s = 0; s < subs->len; s++)
              subs->pdata[s] = (gpointer) _wb_bsym_rename (b, subs->pdata[s], renames);
          }
          for (guint s = 0; s < subs->len; s++)
            {
              const WbBsym *sb = subs->pdata[s];
              g_ptr_array_set_size (names, 0);
              _wb_bsym_add_inputs (sb, names);
              for (guint k = 0; k < names->len; k++)
                if (!g_hash_table_contains (inside, names->pdata[k]) && !g_hash_table_contains (seen, names->pdata[k])
                    && g_hash_table_contains (r.available, names->pdata[k]))
                  {
                    g_hash_table_add (seen, names->pdata[k]);
                    g_ptr_array_add (args, wb_trace_builder_name (b, names->pdata[k]));
                  }
              g_ptr_array_set_size (names, 0);
              _wb_bsym_add_outputs (sb, names);
              for (guint k = 0; k < names->len; k++)
                g_hash_table_add (inside, names->pdata[k]);
            }
          wb_trace_builder_set_subsymbols (b, copy, (WbBsym * const *) subs->pdata, subs->len);
          copy->n_args = args->len;
          copy->args = (WbValue **) wb_trace_builder_array (b, args->len);
          memcpy (copy->args, args->pdata, sizeof (gpointer) * args->len);
          g_hash_table_insert (replaced, (gpointer) region, copy);
          _wb_sources_add (ctx->sources, copy, region);
          g_ptr_array_free (subs, TRUE);
          g_ptr_array_free (args, TRUE);
        }
    }

  /* prune forward regions' outputs nobody reads any more, then their bodies */
  {
    g_autoptr (GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
    for (guint i = 0; i < in->n_body; i++)
      {
        const WbBsym *bsym = g_hash_table_lookup (replaced, in->body[i]);
        if (bsym == NULL)
          bsym = in->body[i];
        g_ptr_array_set_size (names, 0);
        _wb_bsym_add_inputs (bsym, names);
        for (guint k = 0; k < names->len; k++)
          g_hash_table_add (read, names->pdata[k]);
      }
    for (guint i = 0; i < in->n_body; i++)
      {
        const WbBsym *bsym = g_hash_table_lookup (replaced, in->body[i]);
        if (bsym == NULL)
          bsym = in->body[i];
        if (wb_bsym_is_fusion (bsym) && !g_hash_table_contains (backward, in->body[i]))
          {
            g_autoptr (GPtrArray) keep = g_ptr_array_new ();
            for (guint o = 0; o < bsym->outputs->n_items; o++)
              if (g_hash_table_contains (read, bsym->outputs->items[o]->text))
                g_ptr_array_add (keep, bsym->outputs->items[o]);
            if (keep->len < bsym->outputs->n_items && keep->len > 0)
              {
                WbBsym *copy = wb_trace_builder_copy_bsym (b, bsym);
                g_autoptr (GHashTable) need = g_hash_table_new (g_str_hash, g_str_equal);
                g_autoptr (GPtrArray) body = g_ptr_array_new ();
                copy->outputs = wb_trace_builder_sequence (b, WB_VALUE_LIST, (WbValue * const *) keep->pdata, keep->len, 0);
                for (guint o = 0; o < keep->len; o++)
                  g_hash_table_add (need, (gpointer) ((WbValue *) keep->pdata[o])->text);
                for (guint s = bsym->n_subsymbols; s > 0; s--)
                  {
                    const WbBsym *sb = bsym->subsymbols[s - 1];
                    gboolean k = FALSE;
                    g_ptr_array_set_size (names, 0);
                    _wb_bsym_add_outputs (sb, names);
                    for (guint q = 0; q < names->len; q++)
                      k |= g_hash_table_contains (need, names->pdata[q]);
                    if (!k)
                      continue;
                    g_ptr_array_insert (body, 0, (gpointer) sb);
                    g_ptr_array_set_size (names, 0);
                    _wb_bsym_add_inputs (sb, names);
                    for (guint q = 0; q < names->len; q++)
                      g_hash_table_add (need, names->pdata[q]);
                  }
                wb_trace_builder_set_subsymbols (b, copy, (WbBsym * const *) body->pdata, body->len);
                {
                  /* inputs: those still read, in their old order */
                  g_autoptr (GPtrArray) args = g_ptr_array_new ();
                  for (guint a = 0; a < bsym->n_args; a++)
                    if (g_hash_table_contains (need, bsym->args[a]->text))
                      g_ptr_array_add (args, bsym->args[a]);
                  copy->n_args = args->len;
                  copy->args = (WbValue **) wb_trace_builder_array (b, args->len);
                  memcpy (copy->args, args->pdata, sizeof (gpointer) * args->len);
                }
                _wb_sources_add (ctx->sources, copy, in->body[i]);
                bsym = copy;
              }
          }
        wb_trace_builder_append (b, bsym);
      }
  }
  g_hash_table_unref (r.available);
  return wb_trace_builder_end (g_steal_pointer (&b));
}
