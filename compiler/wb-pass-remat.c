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
 * returning what nobody reads, and its body loses what those outputs alone needed.
 *
 * Thunder takes every producer/consumer pair of fusion regions, the backward's among them; so does the second
 * rule here. An output x of a backward region P that only later regions read, and that a cheap chain computes
 * in P, is recomputed in each of them; where the chain meets a value P computes otherwise (a reduction), the
 * cut is there and that value becomes a new output of P. It is taken when the bytes moved between P and its
 * readers go down: x's cost is its write and one read per reader; the plan's, a read per reader for each value
 * it needs that the reader does not read already, and a write and the reads for each new output. gpt2_block's
 * layer-norm backward wrote the input gradient's mean term as f32 [8, 1024, 768], a per-row value (f32
 * [8, 1024]) broadcast: the next region now reads the per-row value and broadcasts it. WB_NO_BACKWARD_REMAT=1 turns
 * this rule off. */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

static gboolean
is_cheap (const WbBsym *b)
{
  WbSymbolCategory cat;
  const char      *name;
  if (b->kind != WB_BSYM_CALL || b->symbol == NULL || wb_symbol_is_fusion (b->symbol) || b->outputs == NULL || b->outputs->kind != WB_VALUE_NAME)
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
  GHashTable    *backward;    /* the backward's top-level bsyms */
  GHashTable    *readers;     /* name -> GPtrArray of the top-level bsyms reading it */
  GHashTable    *bw_reads;    /* names saved for backward now */
  GHashTable    *pinned;      /* names that must stay where they are (a recomputation reads them) */
  GHashTable    *chains;      /* region -> set of the bsyms it recomputes first */
  GHashTable    *top_names;   /* top-level names (a recomputed one is renamed inside its reader) */
  GHashTable    *dropped;     /* backward outputs their readers recompute */
  GHashTable    *cut_outputs; /* backward region -> GPtrArray of its new outputs */
  GPtrArray     *names;       /* scratch */
  GHashTable    *written;     /* names a copy_ writes into (its destination), at any depth */
} Remat;

/* Collects into @chain (producer order unknown yet) the cheap bsyms computing @name inside the producer
 * region, and into @frontier what they read from outside the chain. FALSE if not recomputable. With @cut
 * (a backward producer), a name the region computes with an op that is not cheap ends the chain there and
 * goes into @cut (a new output of the region); @name itself must be computed cheaply. */
static gboolean
collect_chain (Remat *r, GHashTable *prod, const char *name, GHashTable *chain, GHashTable *frontier, GHashTable *cut, int depth)
{
  const WbBsym *b = g_hash_table_lookup (prod, name);
  g_autoptr (GPtrArray) ins = g_ptr_array_new ();
  if (b == NULL || depth > 64)
    return FALSE;
  if (g_hash_table_contains (chain, b))
    return TRUE;
  if (!is_cheap (b))
    {
      if (cut == NULL || depth == 0)
        return FALSE;
      g_hash_table_add (cut, (gpointer) name);
      return TRUE;
    }
  g_hash_table_add (chain, (gpointer) b);
  _wb_bsym_add_inputs (b, ins);
  for (guint i = 0; i < ins->len; i++)
    {
      const char *n = ins->pdata[i];
      /* a copy_ writes into @n's storage later in the step (an in-place activation, a running statistic):
       * recomputed in the backward, the chain would read the new contents, not what the forward read */
      if (g_hash_table_contains (r->written, n))
        return FALSE;
      if (g_hash_table_contains (r->available, n))
        g_hash_table_add (frontier, (gpointer) n);
      else if (!collect_chain (r, prod, n, chain, frontier, cut, depth + 1))
        return FALSE;
    }
  return TRUE;
}

/* Whether region @reader reads @name already. */
static gboolean
region_reads (const WbBsym *reader, const char *name)
{
  for (guint a = 0; a < reader->n_args; a++)
    if (reader->args[a]->kind == WB_VALUE_NAME && strcmp (reader->args[a]->text, name) == 0)
      return TRUE;
  return FALSE;
}

/* Adds the bsyms of @chain to what each of @readers (the backward's alone if @backward_only) recomputes. */
static void
add_chain (Remat *r, GPtrArray *readers, GHashTable *chain, gboolean backward_only)
{
  for (guint k = 0; k < readers->len; k++)
    {
      GHashTable    *to;
      GHashTableIter it;
      gpointer       key;
      if (backward_only && !g_hash_table_contains (r->backward, readers->pdata[k]))
        continue;
      to = g_hash_table_lookup (r->chains, readers->pdata[k]);
      if (to == NULL)
        g_hash_table_insert (r->chains, readers->pdata[k], to = g_hash_table_new (g_direct_hash, g_direct_equal));
      g_hash_table_iter_init (&it, chain);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_hash_table_add (to, key);
    }
}

/* The first rule, for output @x of a forward region (@prod: its body's producers): every backward reader a
 * region, the bytes newly saved no more than x's. */
static void
decide_forward (Remat *r, GHashTable *prod, const char *x)
{
  GPtrArray *rs = g_hash_table_lookup (r->readers, x);
  g_autoptr (GHashTable) chain = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) frontier = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean       ok = rs != NULL && !g_hash_table_contains (r->pinned, x);
  guint          n_bw = 0;
  gint64         new_bytes = 0;
  GHashTableIter it;
  gpointer       key;
  /* every backward reader must be a region (it can recompute); forward readers do not matter */
  for (guint k = 0; ok && k < rs->len; k++)
    if (g_hash_table_contains (r->backward, rs->pdata[k]))
      {
        ok = wb_bsym_is_fusion (rs->pdata[k]);
        n_bw++;
      }
  if (!ok || n_bw == 0)
    return;
  g_hash_table_remove (r->available, x);
  if (!collect_chain (r, prod, x, chain, frontier, NULL, 0))
    {
      g_hash_table_add (r->available, (gpointer) x);
      return;
    }
  g_hash_table_iter_init (&it, frontier);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (!g_hash_table_contains (r->bw_reads, key))
      new_bytes += bytes_of (r->ctx->types, key);
  if (new_bytes > bytes_of (r->ctx->types, x))
    {
      g_hash_table_add (r->available, (gpointer) x);
      return;
    }
  /* accepted: x leaves the saved values, its frontier joins them */
  g_hash_table_remove (r->bw_reads, x);
  g_hash_table_iter_init (&it, frontier);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      g_hash_table_add (r->bw_reads, key);
      g_hash_table_add (r->pinned, key);
    }
  add_chain (r, rs, chain, TRUE);
}

/* The second rule, for output @x of backward region @p (@prod: the producers of its body and of what it
 * recomputes): every reader a later region, the bytes moved between p and its readers fewer. */
static void
decide_backward (Remat *r, const WbBsym *p, GHashTable *prod, const char *x)
{
  GPtrArray *rs = g_hash_table_lookup (r->readers, x);
  g_autoptr (GHashTable) chain = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) frontier = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) cut = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean       ok = rs != NULL && rs->len > 0 && !g_hash_table_contains (r->pinned, x);
  gint64         cost_x, cost_plan = 0;
  GHashTableIter it;
  gpointer       key;
  for (guint k = 0; ok && k < rs->len; k++)
    ok = wb_bsym_is_fusion (rs->pdata[k]) && rs->pdata[k] != p;
  if (!ok)
    return;
  g_hash_table_remove (r->available, x);
  if (!collect_chain (r, prod, x, chain, frontier, cut, 0))
    {
      g_hash_table_add (r->available, (gpointer) x);
      return;
    }
  /* x: its write and a read per reader; the plan: a read per reader of what it needs that the reader does not
   * read already, a write and the reads of each new output */
  cost_x = bytes_of (r->ctx->types, x) * (1 + (gint64) rs->len);
  g_hash_table_iter_init (&it, frontier);
  while (g_hash_table_iter_next (&it, &key, NULL))
    for (guint k = 0; k < rs->len; k++)
      if (!region_reads (rs->pdata[k], key))
        cost_plan += bytes_of (r->ctx->types, key);
  g_hash_table_iter_init (&it, cut);
  while (g_hash_table_iter_next (&it, &key, NULL))
    cost_plan += bytes_of (r->ctx->types, key) * (1 + (gint64) rs->len);
  if (cost_plan >= cost_x)
    {
      g_hash_table_add (r->available, (gpointer) x);
      return;
    }
  /* accepted: x is no longer p's output; the cut values are, and stay */
  g_hash_table_add (r->dropped, (gpointer) x);
  g_hash_table_iter_init (&it, frontier);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_hash_table_add (r->pinned, key);
  g_hash_table_iter_init (&it, cut);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      GPtrArray *extra = g_hash_table_lookup (r->cut_outputs, p);
      if (extra == NULL)
        g_hash_table_insert (r->cut_outputs, (gpointer) p, extra = g_ptr_array_new ());
      if (!g_hash_table_contains (r->available, key))
        g_ptr_array_add (extra, key);
      g_hash_table_add (r->available, key);
      g_hash_table_add (r->top_names, key); /* another reader's chain through it renames it */
      g_hash_table_add (r->pinned, key);
    }
  add_chain (r, rs, chain, FALSE);
}

/* Fills r->readers and r->bw_reads from @in's body. */
static void
find_readers (Remat *r, const WbTrace *in)
{
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *bsym = in->body[i];
      g_ptr_array_set_size (r->names, 0);
      _wb_bsym_add_inputs (bsym, r->names);
      for (guint k = 0; k < r->names->len; k++)
        {
          GPtrArray *list = g_hash_table_lookup (r->readers, r->names->pdata[k]);
          if (list == NULL)
            g_hash_table_insert (r->readers, r->names->pdata[k], list = g_ptr_array_new ());
          if (list->len == 0 || list->pdata[list->len - 1] != bsym)
            g_ptr_array_add (list, (gpointer) bsym);
          if (g_hash_table_contains (r->backward, bsym))
            g_hash_table_add (r->bw_reads, r->names->pdata[k]);
        }
    }
}

/* Adds to @written the destination of every copy_ in @body, at every depth. */
static void
find_written (WbBsym *const *body, guint n, GHashTable *written)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->kind == WB_BSYM_CALL && b->name != NULL && g_str_has_suffix (b->name, "copy_") && b->n_args >= 2 &&
          b->args[1]->kind == WB_VALUE_NAME)
        g_hash_table_add (written, (gpointer) b->args[1]->text);
      find_written (b->subsymbols, b->n_subsymbols, written);
    }
}

/* Decides what every region recomputes: forward regions' outputs first, then backward regions' in order. */
static void
decide (Remat *r, const WbTrace *in)
{
  find_readers (r, in);
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *p = in->body[i];
      g_autoptr (GHashTable) prod = NULL;
      if (!wb_bsym_is_fusion (p) || g_hash_table_contains (r->backward, p))
        continue;
      prod = body_producers (p);
      for (guint o = 0; o < p->outputs->n_items; o++)
        decide_forward (r, prod, p->outputs->items[o]->text);
    }
  if (g_getenv ("WB_NO_BACKWARD_REMAT") != NULL)
    return;
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *p = in->body[i];
      g_autoptr (GHashTable) prod = NULL;
      GHashTable *pre;
      if (!wb_bsym_is_fusion (p) || !g_hash_table_contains (r->backward, p))
        continue;
      prod = body_producers (p);
      /* what p will recompute itself (an earlier decision's chain) is p's to compute too */
      if ((pre = g_hash_table_lookup (r->chains, p)) != NULL)
        {
          GHashTableIter it;
          gpointer       key;
          g_hash_table_iter_init (&it, pre);
          while (g_hash_table_iter_next (&it, &key, NULL))
            {
              g_ptr_array_set_size (r->names, 0);
              _wb_bsym_add_outputs (key, r->names);
              for (guint k = 0; k < r->names->len; k++)
                g_hash_table_insert (prod, r->names->pdata[k], key);
            }
        }
      for (guint o = 0; o < p->outputs->n_items; o++)
        if (p->outputs->items[o]->kind == WB_VALUE_NAME)
          decide_backward (r, p, prod, p->outputs->items[o]->text);
    }
}

static guint
name_number (const char *n)
{
  char   *end;
  guint64 v;

  if (n[0] != 't' || !g_ascii_isdigit (n[1]))
    return 0;
  v = g_ascii_strtoull (n + 1, &end, 10);
  return *end == '\0' && v < G_MAXUINT / 2 ? (guint) v : 0;
}

/* the largest N of the names tN that @body defines, at every depth */
static guint
last_defined_name (WbBsym *const *body, guint n, GPtrArray *names)
{
  guint last = 0;

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (body[i], names);
      for (guint k = 0; k < names->len; k++)
        last = MAX (last, name_number (names->pdata[k]));
      last = MAX (last, last_defined_name (body[i]->subsymbols, body[i]->n_subsymbols, names));
    }
  return last;
}

/* The largest N of the Thunder-style names tN the trace types or defines (an unknown symbol's outputs have
 * no type), so that tN+1, tN+2... are free */
static guint
last_thunder_name (WbPassContext *ctx)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GHashTableIter it;
  gpointer       key;
  guint          last = last_defined_name (ctx->in->body, ctx->in->n_body, names);

  g_hash_table_iter_init (&it, ctx->types);
  while (g_hash_table_iter_next (&it, &key, NULL))
    last = MAX (last, name_number (key));
  return last;
}

/* @region (a backward region) with @chain recomputed first: the chain's bsyms in their producers' order,
 * then the old body; its arguments are what the new body reads from outside. A recomputed value that is
 * still a top-level name (the forward reads it too) gets a fresh name inside the region (tN after
 * *@next_name): names stay unique in the joint trace. */
static WbBsym *
recompute_chain (Remat *r, WbTraceBuilder *b, const WbTrace *in, const WbBsym *region, GHashTable *chain, guint *next_name)
{
  GPtrArray *names = r->names;
  g_autoptr (GPtrArray) subs = g_ptr_array_new ();
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GHashTable) inside = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) renames = g_hash_table_new (g_str_hash, g_str_equal);
  WbBsym *copy = wb_trace_builder_copy_bsym (b, region);
  guint   n_chain;

  for (guint j = 0; j < in->n_body; j++)
    if (wb_bsym_is_fusion (in->body[j]))
      for (guint s = 0; s < in->body[j]->n_subsymbols; s++)
        if (g_hash_table_contains (chain, in->body[j]->subsymbols[s]))
          g_ptr_array_add (subs, in->body[j]->subsymbols[s]);
  for (guint s = 0; s < region->n_subsymbols; s++)
    g_ptr_array_add (subs, region->subsymbols[s]);
  n_chain = subs->len - region->n_subsymbols;
  for (guint s = 0; s < n_chain; s++)
    {
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (subs->pdata[s], names);
      for (guint k = 0; k < names->len; k++)
        if (g_hash_table_contains (r->top_names, names->pdata[k]) && !g_hash_table_contains (renames, names->pdata[k]))
          {
            g_autofree char *fresh = g_strdup_printf ("t%u", ++*next_name);
            g_hash_table_insert (renames, names->pdata[k], wb_trace_builder_name (b, fresh));
          }
    }
  for (guint s = 0; s < subs->len; s++)
    subs->pdata[s] = (gpointer) _wb_bsym_rename (b, subs->pdata[s], renames);
  for (guint s = 0; s < subs->len; s++)
    {
      const WbBsym *sb = subs->pdata[s];
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_inputs (sb, names);
      for (guint k = 0; k < names->len; k++)
        if (!g_hash_table_contains (inside, names->pdata[k]) && !g_hash_table_contains (seen, names->pdata[k]) && g_hash_table_contains (r->available, names->pdata[k]))
          {
            g_hash_table_add (seen, names->pdata[k]);
            g_ptr_array_add (args, wb_trace_builder_name (b, names->pdata[k]));
          }
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (sb, names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_add (inside, names->pdata[k]);
    }
  wb_trace_builder_set_subsymbols (b, copy, (WbBsym *const *) subs->pdata, subs->len);
  copy->n_args = args->len;
  copy->args = (WbValue **) wb_trace_builder_array (b, args->len);
  memcpy (copy->args, args->pdata, sizeof (gpointer) * args->len);
  return copy;
}

/* @bsym (a fusion region, @orig before this pass rewrote it) with the outputs it keeps: forward, what
 * somebody reads (@read); backward, all but what its readers now recompute, plus the new outputs cut
 * from its chains; then only the body and arguments those need. @bsym itself when nothing changes. */
static const WbBsym *
prune_outputs (Remat *r, WbTraceBuilder *b, const WbBsym *bsym, const WbBsym *orig, GHashTable *read)
{
  GPtrArray *names = r->names;
  g_autoptr (GPtrArray) keep = g_ptr_array_new ();
  gboolean   bw = g_hash_table_contains (r->backward, orig);
  GPtrArray *extra = g_hash_table_lookup (r->cut_outputs, orig);
  guint      n_old;
  WbBsym    *copy;
  g_autoptr (GHashTable) need = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) body = g_ptr_array_new ();
  g_autoptr (GPtrArray) args = g_ptr_array_new ();

  for (guint o = 0; o < bsym->outputs->n_items; o++)
    if (bw ? !g_hash_table_contains (r->dropped, bsym->outputs->items[o]->text)
           : g_hash_table_contains (read, bsym->outputs->items[o]->text))
      g_ptr_array_add (keep, bsym->outputs->items[o]);
  n_old = keep->len;
  for (guint e = 0; extra != NULL && e < extra->len; e++)
    g_ptr_array_add (keep, wb_trace_builder_name (b, extra->pdata[e]));
  if (!((n_old < bsym->outputs->n_items || keep->len > n_old) && keep->len > 0))
    return bsym;

  copy = wb_trace_builder_copy_bsym (b, bsym);
  copy->outputs = wb_trace_builder_sequence (b, WB_VALUE_LIST, (WbValue *const *) keep->pdata, keep->len, 0);
  for (guint o = 0; o < keep->len; o++)
    g_hash_table_add (need, (gpointer) ((WbValue *) keep->pdata[o])->text);
  for (guint s = bsym->n_subsymbols; s > 0; s--)
    {
      const WbBsym *sb = bsym->subsymbols[s - 1];
      gboolean      k = FALSE;
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
  wb_trace_builder_set_subsymbols (b, copy, (WbBsym *const *) body->pdata, body->len);
  /* inputs: those still read, in their old order */
  for (guint a = 0; a < bsym->n_args; a++)
    if (g_hash_table_contains (need, bsym->args[a]->text))
      g_ptr_array_add (args, bsym->args[a]);
  copy->n_args = args->len;
  copy->args = (WbValue **) wb_trace_builder_array (b, args->len);
  memcpy (copy->args, args->pdata, sizeof (gpointer) * args->len);
  _wb_sources_add (r->ctx->sources, copy, orig);
  return copy;
}

WbTrace *
_wb_pass_rematerialize (WbPassContext *ctx, GError **error)
{
  WbTrace *in = ctx->in;
  g_autoptr (GHashTable) backward = _wb_trace_find_backward (in);
  g_autoptr (GHashTable) replaced = g_hash_table_new (g_direct_hash, g_direct_equal); /* old bw region -> new */
  g_autoptr (GHashTable) top_names = g_hash_table_new (g_str_hash, g_str_equal);
  guint next_name = 0;
  g_autoptr (GHashTable) chains = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (WbTraceBuilder) b = wb_trace_builder_new (in);
  g_autoptr (GHashTable) available = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) readers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GHashTable) bw_reads = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) pinned = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) dropped = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) cut_outputs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) written = g_hash_table_new (g_str_hash, g_str_equal);
  Remat r = { ctx, available, backward, readers, bw_reads, pinned, chains, top_names, dropped, cut_outputs, names, written };

  /* every top-level name (what a backward region may read), and the next free Thunder-style name tN */
  for (guint i = 0; i < in->n_body; i++)
    {
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (in->body[i], names);
      for (guint k = 0; k < names->len; k++)
        {
          g_hash_table_add (available, names->pdata[k]);
          g_hash_table_add (top_names, names->pdata[k]);
        }
    }
  next_name = last_thunder_name (ctx);
  find_written (in->body, in->n_body, written);
  decide (&r, in);

  /* rewrite the backward regions that recompute something */
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *region = in->body[i];
      GHashTable   *chain = g_hash_table_lookup (chains, region);
      if (chain != NULL)
        {
          WbBsym *copy = recompute_chain (&r, b, in, region, chain, &next_name);
          g_hash_table_insert (replaced, (gpointer) region, copy);
          _wb_sources_add (ctx->sources, copy, region);
        }
    }

  /* prune forward regions' outputs nobody reads any more, then their bodies */
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
      if (wb_bsym_is_fusion (bsym))
        bsym = prune_outputs (&r, b, bsym, in->body[i], read);
      wb_trace_builder_append (b, bsym);
    }
  return wb_trace_builder_end (g_steal_pointer (&b));
}
