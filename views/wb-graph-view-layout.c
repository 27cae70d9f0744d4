/* wb-graph-view-layout.c — WbGraphView's layouts: a stage as a graph of nodes and edges, laid out by Graphviz
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GTask worker builds the stage's graph (one node per input and top-level bound symbol, one per
 * collapsed region, one box per expanded region) and lays it out with cgraph + gvc ("dot"), reading the
 * positions back from ND_coord / ED_spl. An expanded region's body is laid out on its own and placed as a
 * fixed-size node of the top level. Graphviz keeps global state: one lock around it. */
#include "config.h"

#include <glib/gi18n.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <string.h>

#include "wb-graph-view-private.h"

#define MAX_LABEL 30

/* -- layouts (reference-counted; a cluster holds its body's) -------------------------------------- */

static void
layout_clear (Layout *l)
{
  for (guint i = 0; l->nodes && i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);

      g_free (n->label);
      if (n->inner)
        g_rc_box_release_full (n->inner, (GDestroyNotify) layout_clear);
    }
  for (guint i = 0; l->edges && i < l->edges->len; i++)
    g_free (g_array_index (l->edges, VEdge, i).pts);
  g_clear_pointer (&l->nodes, g_array_unref);
  g_clear_pointer (&l->edges, g_array_unref);
}

static Layout *
layout_new (void)
{
  Layout *l = g_rc_box_new0 (Layout);

  l->nodes = g_array_new (FALSE, TRUE, sizeof (VNode));
  l->edges = g_array_new (FALSE, TRUE, sizeof (VEdge));
  return l;
}

Layout *
_wb_graph_layout_ref (Layout *l)
{
  return g_rc_box_acquire (l);
}

void
_wb_graph_layout_unref (Layout *l)
{
  g_rc_box_release_full (l, (GDestroyNotify) layout_clear);
}

/* -- building the graph (worker thread; traces are immutable) ------------------------------------- */

static void
value_names (const WbValue *v, GPtrArray *out)
{
  if (v == NULL)
    return;
  switch (v->kind)
    {
    case WB_VALUE_NAME:
      g_ptr_array_add (out, (gpointer) v->text);
      break;
    case WB_VALUE_TUPLE:
    case WB_VALUE_LIST:
    case WB_VALUE_DICT:
    case WB_VALUE_CALL:
    case WB_VALUE_SLICE:
    case WB_VALUE_SUBSCRIPT:
      for (guint i = 0; i < v->n_items; i++)
        value_names (v->items[i], out);
      if (v->kind == WB_VALUE_SUBSCRIPT || v->kind == WB_VALUE_CALL)
        value_names (v->base, out);
      break;
    case WB_VALUE_ATTRIBUTE:
    case WB_VALUE_NEG:
    case WB_VALUE_STAR:
    case WB_VALUE_STARSTAR:
      value_names (v->base, out);
      break;
    default:
      break;
    }
}

static void
bsym_reads (const WbBsym *b, GPtrArray *out)
{
  if (b->kind == WB_BSYM_CALL)
    {
      for (guint i = 0; i < b->n_args; i++)
        value_names (b->args[i], out);
      for (guint i = 0; i < b->n_kwargs; i++)
        value_names (b->kwargs[i].value, out);
    }
  else
    value_names (b->value, out);
}

static void
truncate_line (GString *s, const char *text)
{
  glong n = g_utf8_strlen (text, -1);

  if (n <= MAX_LABEL)
    g_string_append (s, text);
  else
    {
      const char *end = g_utf8_offset_to_pointer (text, MAX_LABEL - 1);

      g_string_append_len (s, text, end - text);
      g_string_append (s, "…");
    }
}

/* an input's name, its tail when long (module paths: the tail tells them apart) */
static char *
input_label (const char *name)
{
  glong n = g_utf8_strlen (name, -1);

  return n <= MAX_LABEL ? g_strdup (name) : g_strconcat ("…", g_utf8_offset_to_pointer (name, n - (MAX_LABEL - 1)), NULL);
}

static char *
node_label (const WbBsym *b)
{
  GString         *s = g_string_new (NULL);
  g_autofree char *outs = b->outputs ? wb_value_to_string (b->outputs) : NULL;

  switch (b->kind)
    {
    case WB_BSYM_CALL:
      truncate_line (s, b->name ? b->name : "?");
      break;
    case WB_BSYM_ASSIGN:
      {
        g_autofree char *rhs = b->value ? wb_value_to_string (b->value) : g_strdup ("?");

        truncate_line (s, rhs);
        if (outs == NULL && b->name)
          outs = g_strdup (b->name);
        break;
      }
    case WB_BSYM_UNPACK:
      g_string_append (s, "unpack");
      break;
    case WB_BSYM_RETURN:
      g_string_append (s, "return");
      break;
    default:
      break;
    }
  if (outs != NULL && outs[0])
    {
      g_string_append_c (s, '\n');
      truncate_line (s, outs);
    }
  return g_string_free (s, FALSE);
}

typedef struct
{
  Layout     *l;
  GHashTable *producer; /* name -> node index + 1 */
  GHashTable *edges;    /* (src << 32 | dst) */
  double      cw, lh;
} Build;

static guint
add_node (Build *b, VNodeKind kind, const WbBsym *bsym, const WbBsym *owner, char *label, double w, double h)
{
  VNode n = { kind, bsym, owner, label, 0, 0, w, h, NULL, NULL };

  if (w <= 0 || h <= 0)
    {
      g_auto (GStrv) lines = g_strsplit (label, "\n", -1);
      guint widest = 0;

      for (guint i = 0; lines[i]; i++)
        widest = MAX (widest, (guint) g_utf8_strlen (lines[i], -1));
      n.w = MAX (widest * b->cw + 16, 40);
      n.h = g_strv_length (lines) * b->lh + 10;
    }
  g_array_append_val (b->l->nodes, n);
  return b->l->nodes->len - 1;
}

static void
add_edges_from (Build *b, const WbBsym *bsym, guint dst)
{
  g_autoptr (GPtrArray) reads = g_ptr_array_new ();

  bsym_reads (bsym, reads);
  for (guint i = 0; i < reads->len; i++)
    {
      guint   src = GPOINTER_TO_UINT (g_hash_table_lookup (b->producer, reads->pdata[i]));
      guint64 key;

      if (src == 0 || src - 1 == dst)
        continue;
      key = ((guint64) (src - 1) << 32) | dst;
      if (g_hash_table_add (b->edges, g_memdup2 (&key, sizeof key)))
        {
          VEdge e = { src - 1, dst, 0, NULL };

          g_array_append_val (b->l->edges, e);
        }
    }
}

static void
set_outputs (Build *b, const WbBsym *bsym, guint node)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  value_names (bsym->outputs, names);
  if (bsym->kind == WB_BSYM_ASSIGN && bsym->outputs == NULL && bsym->name)
    g_ptr_array_add (names, (gpointer) bsym->name);
  for (guint i = 0; i < names->len; i++)
    if (strcmp (names->pdata[i], "_") != 0)
      g_hash_table_insert (b->producer, names->pdata[i], GUINT_TO_POINTER (node + 1));
}

static void
build_init (Build *b, double cw, double lh)
{
  b->l = layout_new ();
  b->producer = g_hash_table_new (g_str_hash, g_str_equal);
  b->edges = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  b->cw = cw;
  b->lh = lh;
}

static Layout *
build_finish (Build *b)
{
  g_hash_table_unref (b->producer);
  g_hash_table_unref (b->edges);
  return b->l;
}

static gboolean
drawn_kind (const WbBsym *b)
{
  return b->kind == WB_BSYM_CALL || b->kind == WB_BSYM_ASSIGN || b->kind == WB_BSYM_UNPACK || b->kind == WB_BSYM_RETURN;
}

/* a top-level bound symbol drawn as a region: collapsible, its body laid out on its own */
gboolean
_wb_graph_is_group (const WbBsym *b)
{
  return b->kind == WB_BSYM_CALL && wb_bsym_is_fusion (b);
}

/* the bound symbols of a region's body */
guint
_wb_graph_group_size (const WbBsym *b)
{
  return b->n_subsymbols;
}

/* the regions drawn expanded when @trace is first shown: every one of a small stage, none of a large */
void
_wb_graph_default_expanded (WbTrace *trace, GHashTable *expanded)
{
  if (_wb_graph_count_bsyms (trace) > WB_GRAPH_COLLAPSE_ABOVE)
    return;
  for (guint i = 0; i < trace->n_body; i++)
    if (_wb_graph_is_group (trace->body[i]))
      g_hash_table_add (expanded, trace->body[i]);
}

/* bound symbols drawn when every region is expanded */
guint
_wb_graph_count_bsyms (WbTrace *trace)
{
  guint n = 0;

  for (guint i = 0; i < trace->n_body; i++)
    if (drawn_kind (trace->body[i]))
      n += 1 + (wb_bsym_is_fusion (trace->body[i]) ? trace->body[i]->n_subsymbols : 0);
  return n;
}

/* A region's body: its subsymbols, with the dataflow among them. */
static Layout *
build_body (const WbBsym *region, double cw, double lh)
{
  Build b;

  build_init (&b, cw, lh);
  for (guint i = 0; i < region->n_subsymbols; i++)
    {
      const WbBsym *sub = region->subsymbols[i];
      guint         n;

      if (!drawn_kind (sub))
        continue;
      n = add_node (&b, GN_OP, sub, region, node_label (sub), 0, 0);
      add_edges_from (&b, sub, n);
      set_outputs (&b, sub, n);
    }
  if (b.l->nodes->len == 0)
    add_node (&b, GN_OP, region, region, g_strdup (region->name), 0, 0);
  return build_finish (&b);
}

/* adds @items (bound symbols of a stage's top level): a region expanded when @inner has its body's layout */
static void
add_items (Build *b, WbBsym *const *items, guint n_items, GHashTable *inner)
{
  for (guint i = 0; i < n_items; i++)
    {
      const WbBsym *bsym = items[i];
      guint         n;

      if (!drawn_kind (bsym))
        continue;
      if (_wb_graph_is_group (bsym))
        {
          Layout     *body = g_hash_table_lookup (inner, bsym);
          const char *exec = wb_symbol_get_executor (bsym->symbol);

          if (body != NULL)
            {
              n = add_node (b, GN_CLUSTER, bsym, bsym, g_strdup_printf ("%s%s%s%s", bsym->name, exec ? " (" : "", exec ? exec : "", exec ? ")" : ""),
                            body->width + 2 * CLUSTER_PAD, body->height + 2 * CLUSTER_PAD + CLUSTER_BAR);
              g_array_index (b->l->nodes, VNode, n).inner = _wb_graph_layout_ref (body);
            }
          else
            n = add_node (b, GN_REGION, bsym, bsym,
                          g_strdup_printf ("%s\n%u ops%s%s", bsym->name, bsym->n_subsymbols, exec ? " · " : "", exec ? exec : ""), 0, 0);
          g_array_index (b->l->nodes, VNode, n).group = (gpointer) bsym;
        }
      else
        n = add_node (b, bsym->kind == WB_BSYM_RETURN ? GN_RETURN : GN_OP, bsym, bsym, node_label (bsym), 0, 0);
      add_edges_from (b, bsym, n);
      set_outputs (b, bsym, n);
    }
}

/* a chunk's node on the top level: collapsed, or expanded when @inner has its body's layout */
static void
add_chunk (Build *b, WbTrace *trace, WbGraphChunk *chunk, GHashTable *inner)
{
  Layout       *body = g_hash_table_lookup (inner, chunk);
  const WbBsym *first = NULL;
  guint         n;

  for (guint i = chunk->first; i < chunk->last && first == NULL; i++)
    if (drawn_kind (trace->body[i]))
      first = trace->body[i];
  if (body != NULL)
    {
      n = add_node (b, GN_CLUSTER, first, first, g_strdup (chunk->label), body->width + 2 * CLUSTER_PAD,
                    body->height + 2 * CLUSTER_PAD + CLUSTER_BAR);
      g_array_index (b->l->nodes, VNode, n).inner = _wb_graph_layout_ref (body);
    }
  else
    n = add_node (b, GN_REGION, first, first, g_strdup (chunk->label), 0, 0);
  g_array_index (b->l->nodes, VNode, n).group = chunk;
  for (guint i = chunk->first; i < chunk->last; i++)
    if (drawn_kind (trace->body[i]))
      {
        add_edges_from (b, trace->body[i], n);
        set_outputs (b, trace->body[i], n);
      }
}

/* The top level; @inner maps an expanded region's call (or chunk) to its body's layout. */
static Layout *
build_top (WbTrace *trace, GPtrArray *chunks, GHashTable *inner, double cw, double lh)
{
  Build b;

  build_init (&b, cw, lh);
  /* chunked, the inputs are drawn in the chunks that read them (build_chunk) */
  for (guint i = 0; chunks == NULL && i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      const char    *name = p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text
                                                                         : "?";
      guint          n = add_node (&b, GN_INPUT, NULL, NULL, input_label (name), 0, 0);

      g_hash_table_insert (b.producer, (gpointer) name, GUINT_TO_POINTER (n + 1));
    }
  if (chunks == NULL)
    add_items (&b, trace->body, trace->n_body, inner);
  else
    for (guint i = 0; i < chunks->len; i++)
      add_chunk (&b, trace, chunks->pdata[i], inner);
  return build_finish (&b);
}

static const char *
param_name (const WbValue *p)
{
  return p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text
                                                      : "?";
}

/* A chunk's body: the stage's inputs it reads, its bound symbols, and the dataflow among them. */
static Layout *
build_chunk (WbTrace *trace, WbGraphChunk *chunk, GHashTable *inner, double cw, double lh)
{
  Build b;
  g_autoptr (GHashTable) params = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) reads = g_ptr_array_new ();

  build_init (&b, cw, lh);
  for (guint i = 0; i < trace->n_params; i++)
    g_hash_table_add (params, (gpointer) param_name (trace->params[i]));
  for (guint i = chunk->first; i < chunk->last; i++)
    if (drawn_kind (trace->body[i]))
      bsym_reads (trace->body[i], reads);
  for (guint i = 0; i < reads->len; i++)
    if (g_hash_table_remove (params, reads->pdata[i]))
      {
        guint n = add_node (&b, GN_INPUT, NULL, NULL, input_label (reads->pdata[i]), 0, 0);

        g_hash_table_insert (b.producer, reads->pdata[i], GUINT_TO_POINTER (n + 1));
      }
  add_items (&b, trace->body + chunk->first, chunk->last - chunk->first, inner);
  return build_finish (&b);
}

/* -- chunks --------------------------------------------------------------------------------------- */

static void
chunk_free (WbGraphChunk *chunk)
{
  g_free (chunk->label);
  g_free (chunk);
}

static const char *
chunk_name (const WbBsym *b)
{
  return b->kind == WB_BSYM_CALL && b->name ? b->name : b->kind == WB_BSYM_RETURN ? "return"
                                                                                  : "=";
}

/* (transfer full) (nullable) @trace's top level cut into runs of consecutive bound symbols, about 40
 * of them, each at least 40 drawn: NULL when the top level (inputs and bound symbols) is small enough
 * to lay out as it is. A 300-node top level takes 0.5 to 2 s in dot, 1,100 nodes 127 s; 40 nodes ~20 ms. */
GPtrArray *
_wb_graph_chunks_new (WbTrace *trace)
{
  GPtrArray    *chunks;
  guint         drawn = 0, size;
  WbGraphChunk *cur = NULL;
  const WbBsym *first = NULL, *last = NULL;

  for (guint i = 0; i < trace->n_body; i++)
    drawn += drawn_kind (trace->body[i]);
  if (drawn + trace->n_params <= WB_GRAPH_CHUNK_ABOVE)
    return NULL;
  size = MAX (40, (drawn + 39) / 40);
  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) chunk_free);
  for (guint i = 0; i <= trace->n_body; i++)
    {
      if (cur != NULL && (i == trace->n_body || cur->n_drawn == size))
        {
          cur->last = i;
          /* TRANSLATORS: a collapsed run of a large stage's bound symbols: count, first and last symbol */
          cur->label = g_strdup_printf (_ ("%u ops\n%s … %s"), cur->n_drawn, chunk_name (first), chunk_name (last));
          g_ptr_array_add (chunks, cur);
          cur = NULL;
        }
      if (i == trace->n_body || !drawn_kind (trace->body[i]))
        continue;
      if (cur == NULL)
        {
          cur = g_new0 (WbGraphChunk, 1);
          cur->first = i;
          first = trace->body[i];
        }
      cur->n_drawn++;
      last = trace->body[i];
    }
  return chunks;
}

gboolean
_wb_graph_is_chunk (GPtrArray *chunks, gconstpointer group)
{
  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    if (chunks->pdata[i] == group)
      return TRUE;
  return FALSE;
}

/* (transfer none) (nullable) the chunk holding top-level @bsym */
WbGraphChunk *
_wb_graph_chunk_of (GPtrArray *chunks, WbTrace *trace, const WbBsym *bsym)
{
  for (guint c = 0; chunks != NULL && c < chunks->len; c++)
    {
      WbGraphChunk *chunk = chunks->pdata[c];

      for (guint i = chunk->first; i < chunk->last; i++)
        if (trace->body[i] == bsym)
          return chunk;
    }
  return NULL;
}

/* -- Graphviz (worker thread, one at a time) ------------------------------------------------------ */

static GMutex gv_lock;
static GVC_t *gv_context;

static void
set_inches (Agnode_t *n, Agsym_t *sym, double points)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  agxset (n, sym, g_ascii_formatd (buf, sizeof buf, "%.3f", points / 72.0));
}

static void
gv_layout (Layout *l)
{
  Agraph_t  *g;
  Agsym_t   *sw, *sh;
  Agnode_t **an;
  Agedge_t **ae;
  boxf       bb;

  g_mutex_lock (&gv_lock);
  if (gv_context == NULL)
    gv_context = gvContext ();
  g = agopen ((char *) "g", Agdirected, NULL);
  agattr (g, AGRAPH, (char *) "rankdir", (char *) "TB");
  agattr (g, AGRAPH, (char *) "nodesep", (char *) "0.2");
  agattr (g, AGRAPH, (char *) "ranksep", (char *) "0.3");
  /* Bound the network simplex passes and the crossing minimisation: on llama_layer's joint trace (260
   * nodes, 340 edges) the defaults take 9.6 s, nslimit=2 mclimit=0.3 0.4 s, for a layout that reads the
   * same. Above 600 nodes, straight edges and one ranking pass as well. */
  if (l->nodes->len > 100)
    {
      agattr (g, AGRAPH, (char *) "nslimit", (char *) "2");
      agattr (g, AGRAPH, (char *) "mclimit", (char *) "0.3");
    }
  if (l->nodes->len > 600)
    {
      agattr (g, AGRAPH, (char *) "nslimit1", (char *) "1");
      agattr (g, AGRAPH, (char *) "mclimit", (char *) "0.1");
      agattr (g, AGRAPH, (char *) "remincross", (char *) "false");
      agattr (g, AGRAPH, (char *) "splines", (char *) "line");
    }
  agattr (g, AGNODE, (char *) "shape", (char *) "box");
  agattr (g, AGNODE, (char *) "fixedsize", (char *) "true");
  agattr (g, AGNODE, (char *) "label", (char *) "");
  sw = agattr (g, AGNODE, (char *) "width", (char *) "0.75");
  sh = agattr (g, AGNODE, (char *) "height", (char *) "0.5");
  an = g_new (Agnode_t *, l->nodes->len);
  ae = g_new (Agedge_t *, l->edges->len);
  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);
      char   name[24];

      g_snprintf (name, sizeof name, "n%u", i);
      an[i] = agnode (g, name, 1);
      set_inches (an[i], sw, n->w);
      set_inches (an[i], sh, n->h);
    }
  for (guint i = 0; i < l->edges->len; i++)
    {
      VEdge *e = &g_array_index (l->edges, VEdge, i);

      ae[i] = agedge (g, an[e->src], an[e->dst], NULL, 1);
    }
  gvLayout (gv_context, g, "dot");
  bb = GD_bb (g);
  l->width = bb.UR.x - bb.LL.x;
  l->height = bb.UR.y - bb.LL.y;
  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);

      n->x = ND_coord (an[i]).x - bb.LL.x;
      n->y = bb.UR.y - ND_coord (an[i]).y;
    }
  for (guint i = 0; i < l->edges->len; i++)
    {
      VEdge   *e = &g_array_index (l->edges, VEdge, i);
      splines *spl = ED_spl (ae[i]);
      bezier  *bz;
      guint    k = 0;

      if (spl == NULL || spl->size == 0)
        continue;
      bz = &spl->list[0];
      e->n_pts = (guint) bz->size + (bz->eflag ? 1 : 0);
      e->pts = g_new (double, 2 * e->n_pts);
      for (int p = 0; p < (int) bz->size; p++, k++)
        {
          e->pts[2 * k] = bz->list[p].x - bb.LL.x;
          e->pts[2 * k + 1] = bb.UR.y - bz->list[p].y;
        }
      if (bz->eflag)
        {
          e->pts[2 * k] = bz->ep.x - bb.LL.x;
          e->pts[2 * k + 1] = bb.UR.y - bz->ep.y;
        }
    }
  gvFreeLayout (gv_context, g);
  agclose (g);
  g_mutex_unlock (&gv_lock);
  g_free (an);
  g_free (ae);
}

/* -- the worker's job ----------------------------------------------------------------------------- */

void
_wb_graph_job_free (Job *job)
{
  wb_trace_unref (job->trace);
  g_ptr_array_unref (job->expand);
  g_hash_table_unref (job->inner);
  g_ptr_array_unref (job->computed);
  g_clear_pointer (&job->chunks, g_ptr_array_unref);
  g_clear_pointer (&job->top, _wb_graph_layout_unref);
  g_free (job);
}

/* Lays out @job: the bodies it lacks, then the top level. FALSE when @cancellable was cancelled. */
gboolean
_wb_graph_job_run (Job *job, GCancellable *cancellable)
{
  gint64 t0 = g_get_monotonic_time ();

  /* the regions' bodies first: an expanded chunk holds the expanded regions in it */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < job->expand->len; i++)
      {
        gpointer group = job->expand->pdata[i];
        gboolean chunk = _wb_graph_is_chunk (job->chunks, group);
        Layout  *body;

        if (chunk != (pass == 1) || g_hash_table_contains (job->inner, group))
          continue;
        if (g_cancellable_is_cancelled (cancellable))
          return FALSE;
        body = chunk ? build_chunk (job->trace, group, job->inner, job->cw, job->lh) : build_body (group, job->cw, job->lh);
        gv_layout (body);
        g_hash_table_insert (job->inner, group, body);
        g_ptr_array_add (job->computed, group);
      }
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  job->top = build_top (job->trace, job->chunks, job->inner, job->cw, job->lh);
  gv_layout (job->top);
  job->ms = (g_get_monotonic_time () - t0) / 1e3;
  return TRUE;
}

void
_wb_graph_layout_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  if (!_wb_graph_job_run (data, cancellable))
    g_task_return_error_if_cancelled (task);
  else
    g_task_return_boolean (task, TRUE);
}
