/* wb-graph-view.c — the selected stage's dataflow laid out by Graphviz: regions as collapsible clusters
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: a GTask worker builds the stage's graph (one node per input and top-level bound symbol, one per
 * collapsed region, one box per expanded region) and lays it out with cgraph + gvc ("dot"), reading the
 * positions back from ND_coord / ED_spl. An expanded region's body is laid out on its own and cached by
 * its call, then placed as a fixed-size node of the top level: expanding one region of a 32-layer model
 * lays out that region and the (small) top level only. Graphviz keeps global state: one lock around it.
 * Drawing: cairo in a GtkDrawingArea, culled to what is visible; pan (drag), zoom (scroll, pinch). */
#include "config.h"

#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <math.h>
#include <string.h>

#include "wb-export.h"
#include "wb-views.h"

#define COLLAPSE_ABOVE 200 /* bound symbols (top level and region bodies) above which regions start collapsed */
#define CLUSTER_PAD 10.0
#define CLUSTER_BAR 20.0
#define MAX_LABEL 30

typedef enum
{
  GN_INPUT,
  GN_OP,
  GN_RETURN,
  GN_REGION,
  GN_CLUSTER
} VNodeKind;

typedef struct _Layout Layout;

typedef struct
{
  VNodeKind     kind;
  const WbBsym *bsym;  /* (nullable) its bound symbol; NULL for an input */
  const WbBsym *owner; /* the top-level bound symbol it stands for (a region's call for its body) */
  char         *label;
  double        x, y, w, h; /* centre and size, points, y down */
  Layout       *inner;      /* GN_CLUSTER: the body's layout (a reference) */
} VNode;

typedef struct
{
  guint   src, dst;
  guint   n_pts;
  double *pts; /* x, y pairs: a cubic B-spline as Graphviz gives it */
} VEdge;

struct _Layout
{
  GArray *nodes; /* VNode */
  GArray *edges; /* VEdge */
  double  width, height;
};

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

static Layout *
layout_ref (Layout *l)
{
  return g_rc_box_acquire (l);
}

static void
layout_unref (Layout *l)
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
  VNode n = { kind, bsym, owner, label, 0, 0, w, h, NULL };

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

/* The top level; @inner maps an expanded region's call to its body's layout. */
static Layout *
build_top (WbTrace *trace, GHashTable *inner, double cw, double lh)
{
  Build b;

  build_init (&b, cw, lh);
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      const char    *name = p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text
                                                                         : "?";
      guint          n = add_node (&b, GN_INPUT, NULL, NULL, g_strdup (name), 0, 0);

      g_hash_table_insert (b.producer, (gpointer) name, GUINT_TO_POINTER (n + 1));
    }
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *bsym = trace->body[i];
      guint         n;

      if (!drawn_kind (bsym))
        continue;
      if (bsym->kind == WB_BSYM_CALL && wb_bsym_is_fusion (bsym))
        {
          Layout *body = g_hash_table_lookup (inner, bsym);

          if (body != NULL)
            {
              n = add_node (&b, GN_CLUSTER, bsym, bsym, g_strdup (bsym->name), body->width + 2 * CLUSTER_PAD,
                            body->height + 2 * CLUSTER_PAD + CLUSTER_BAR);
              g_array_index (b.l->nodes, VNode, n).inner = layout_ref (body);
            }
          else
            {
              const char *exec = wb_symbol_get_executor (bsym->symbol);
              char       *label = g_strdup_printf ("%s\n%u ops%s%s", bsym->name, bsym->n_subsymbols,
                                             exec ? " · " : "", exec ? exec : "");

              n = add_node (&b, GN_REGION, bsym, bsym, label, 0, 0);
            }
        }
      else
        n = add_node (&b, bsym->kind == WB_BSYM_RETURN ? GN_RETURN : GN_OP, bsym, bsym, node_label (bsym), 0, 0);
      add_edges_from (&b, bsym, n);
      set_outputs (&b, bsym, n);
    }
  return build_finish (&b);
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

typedef struct
{
  WbTrace    *trace;
  GPtrArray  *expand;   /* region calls to draw expanded */
  GHashTable *inner;    /* region call -> Layout (ref): the cache's, then the new ones */
  GPtrArray  *computed; /* region calls whose bodies this job laid out */
  Layout     *top;
  double      cw, lh, ms;
} Job;

static void
job_free (Job *job)
{
  wb_trace_unref (job->trace);
  g_ptr_array_unref (job->expand);
  g_hash_table_unref (job->inner);
  g_ptr_array_unref (job->computed);
  g_clear_pointer (&job->top, layout_unref);
  g_free (job);
}

static void
layout_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job   *job = data;
  gint64 t0 = g_get_monotonic_time ();

  for (guint i = 0; i < job->expand->len; i++)
    {
      const WbBsym *region = job->expand->pdata[i];
      Layout       *body;

      if (g_hash_table_contains (job->inner, region))
        continue;
      if (g_task_return_error_if_cancelled (task))
        return;
      body = build_body (region, job->cw, job->lh);
      gv_layout (body);
      g_hash_table_insert (job->inner, (gpointer) region, body);
      g_ptr_array_add (job->computed, (gpointer) region);
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  job->top = build_top (job->trace, job->inner, job->cw, job->lh);
  gv_layout (job->top);
  job->ms = (g_get_monotonic_time () - t0) / 1e3;
  g_task_return_boolean (task, TRUE);
}

/* -- the widget ----------------------------------------------------------------------------------- */

struct _WbGraphView
{
  GtkWidget parent_instance;

  WbDocument   *document;
  WbTrace      *trace;       /* shown (a reference) */
  GHashTable   *expanded;    /* region calls drawn expanded */
  GHashTable   *inner_cache; /* region call -> Layout (ref) */
  Layout       *layout;
  GCancellable *cancellable;
  gboolean      dirty, running;
  double        layout_ms;

  double        zoom, ox, oy;
  double        drag_ox, drag_oy, zoom_start, pointer_x, pointer_y;
  const WbBsym *selected;

  double      cw, lh;
  GtkWidget  *area;
  GtkLabel   *info;
  GtkSpinner *spinner;
};

G_DEFINE_FINAL_TYPE (WbGraphView, wb_graph_view, GTK_TYPE_WIDGET)

static void start_layout (WbGraphView *self);

static guint
count_bsyms (WbTrace *trace)
{
  guint n = 0;

  for (guint i = 0; i < trace->n_body; i++)
    if (drawn_kind (trace->body[i]))
      n += 1 + (wb_bsym_is_fusion (trace->body[i]) ? trace->body[i]->n_subsymbols : 0);
  return n;
}

static WbTrace *
current_trace (WbGraphView *self)
{
  const WbTraceSet *set = self->document ? wb_document_get_trace_set (self->document) : NULL;
  guint             entry;

  if (set == NULL)
    return NULL;
  entry = wb_document_get_entry (self->document);
  return entry < wb_trace_set_get_n_entries (set) ? wb_trace_set_get_entry (set, entry)->trace : NULL;
}

static void
update_info (WbGraphView *self)
{
  g_autofree char *text = NULL;

  if (self->running)
    text = g_strdup (_ ("Laying out…"));
  else if (self->layout != NULL)
    /* TRANSLATORS: graph view status: nodes, expanded regions, layout time */
    text = g_strdup_printf (_ ("%u nodes · %u regions expanded · laid out in %.0f ms"), wb_graph_view_get_n_nodes (self),
                            g_hash_table_size (self->expanded), self->layout_ms);
  else
    text = g_strdup ("");
  gtk_label_set_text (self->info, text);
}

static void
fit (WbGraphView *self)
{
  double w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);
  double z;

  if (self->layout == NULL || w <= 0 || h <= 0)
    return;
  z = MIN ((w - 20) / MAX (self->layout->width, 1), (h - 20) / MAX (self->layout->height, 1));
  if (z >= 0.35)
    {
      self->zoom = MIN (z, 1.2);
      self->ox = (w - self->layout->width * self->zoom) / 2;
      self->oy = (h - self->layout->height * self->zoom) / 2;
    }
  else
    {
      /* too big to fit readably: the top, centred, at a size that still shows the labels */
      self->zoom = 0.6;
      self->ox = (w - self->layout->width * self->zoom) / 2;
      self->oy = 10;
    }
}

/* find the node of @bsym: top level, or inside an expanded cluster (then *@cluster is that cluster) */
static VNode *
find_node (Layout *l, const WbBsym *bsym, VNode **cluster)
{
  if (l == NULL || bsym == NULL)
    return NULL;
  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);

      if (n->bsym == bsym)
        return n;
      if (n->inner != NULL)
        for (guint k = 0; k < n->inner->nodes->len; k++)
          if (g_array_index (n->inner->nodes, VNode, k).bsym == bsym)
            {
              if (cluster)
                *cluster = n;
              return &g_array_index (n->inner->nodes, VNode, k);
            }
    }
  return NULL;
}

static void
center_on (WbGraphView *self, const WbBsym *bsym)
{
  VNode *cluster = NULL;
  VNode *n = find_node (self->layout, bsym, &cluster);
  double x, y, w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);

  if (n == NULL)
    return;
  x = n->x, y = n->y;
  if (cluster != NULL)
    {
      x += cluster->x - cluster->w / 2 + CLUSTER_PAD;
      y += cluster->y - cluster->h / 2 + CLUSTER_PAD + CLUSTER_BAR;
    }
  x = x * self->zoom + self->ox;
  y = y * self->zoom + self->oy;
  if (x < 0 || y < 0 || x > w || y > h)
    {
      self->ox += w / 2 - x;
      self->oy += h / 2 - y;
    }
}

static void
update_selected (WbGraphView *self)
{
  const WbBsym *bsym = self->document ? wb_document_get_bsym (self->document) : NULL;

  self->selected = NULL;
  if (self->trace != NULL && bsym != NULL)
    {
      if (find_node (self->layout, bsym, NULL) != NULL)
        self->selected = bsym;
      else
        {
          /* a bound symbol of another stage: its region's call here, if this stage has it */
          const WbRegion *region = wb_document_region_of (self->document, bsym);

          if (region != NULL && find_node (self->layout, region->bsym, NULL) != NULL)
            self->selected = region->bsym;
        }
    }
  if (self->selected == NULL && self->document != NULL && wb_document_get_region (self->document) != NULL)
    {
      const WbRegion *region = wb_document_lookup_region (self->document, wb_document_get_region (self->document));

      if (region != NULL && find_node (self->layout, region->bsym, NULL) != NULL)
        self->selected = region->bsym;
    }
  if (self->selected != NULL)
    center_on (self, self->selected);
  gtk_widget_queue_draw (self->area);
}

static void
layout_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  WbGraphView *self = user_data;
  Job         *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_object_unref (self);
      return;
    }
  if (job->trace == self->trace)
    {
      for (guint i = 0; i < job->computed->len; i++)
        {
          gpointer region = job->computed->pdata[i];

          g_hash_table_insert (self->inner_cache, region, layout_ref (g_hash_table_lookup (job->inner, region)));
        }
      g_clear_pointer (&self->layout, layout_unref);
      self->layout = layout_ref (job->top);
      self->layout_ms = job->ms;
      self->running = FALSE;
      gtk_spinner_stop (self->spinner);
      if (job->computed->len == job->expand->len || self->zoom <= 0)
        fit (self);
      update_selected (self);
      update_info (self);
    }
  if (self->dirty)
    start_layout (self);
  g_object_unref (self);
}

static void
start_layout (WbGraphView *self)
{
  g_autoptr (GTask) task = NULL;
  Job           *job;
  GHashTableIter it;
  gpointer       key;

  if (self->trace == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  self->dirty = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->trace = wb_trace_ref (self->trace);
  job->expand = g_ptr_array_new ();
  job->inner = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) layout_unref);
  job->computed = g_ptr_array_new ();
  job->cw = self->cw;
  job->lh = self->lh;
  g_hash_table_iter_init (&it, self->expanded);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      Layout *cached = g_hash_table_lookup (self->inner_cache, key);

      g_ptr_array_add (job->expand, key);
      if (cached != NULL)
        g_hash_table_insert (job->inner, key, layout_ref (cached));
    }
  self->running = TRUE;
  gtk_spinner_start (self->spinner);
  update_info (self);
  task = g_task_new (self, self->cancellable, layout_done, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, layout_thread);
}

/* the document's stage changed: new trace, default expansion */
static void
set_trace (WbGraphView *self, WbTrace *trace)
{
  if (trace == self->trace)
    return;
  g_clear_pointer (&self->trace, wb_trace_unref);
  g_clear_pointer (&self->layout, layout_unref);
  g_hash_table_remove_all (self->expanded);
  self->zoom = 0;
  self->selected = NULL;
  if (trace != NULL)
    {
      self->trace = wb_trace_ref (trace);
      if (count_bsyms (trace) <= COLLAPSE_ABOVE)
        for (guint i = 0; i < trace->n_body; i++)
          if (trace->body[i]->kind == WB_BSYM_CALL && wb_bsym_is_fusion (trace->body[i]))
            g_hash_table_add (self->expanded, trace->body[i]);
    }
  self->dirty = TRUE;
  if (self->running)
    g_cancellable_cancel (self->cancellable);
  self->running = FALSE;
  start_layout (self);
  update_info (self);
  gtk_widget_queue_draw (self->area);
}

static void
selection_changed_cb (WbGraphView *self)
{
  set_trace (self, current_trace (self));
  update_selected (self);
}

static void
document_changed_cb (WbGraphView *self)
{
  g_hash_table_remove_all (self->inner_cache);
  g_clear_pointer (&self->trace, wb_trace_unref);
  selection_changed_cb (self);
}

static void
runs_changed_cb (WbGraphView *self)
{
  gtk_widget_queue_draw (self->area);
}

/* -- drawing -------------------------------------------------------------------------------------- */

static void
node_fill (WbGraphView *self, const VNode *n, double *rgb)
{
  const WbRegion *region = n->owner ? wb_document_region_of (self->document, n->owner) : NULL;
  double          share = region ? wb_document_get_region_share (self->document, region->name) : -1;

  if (share >= 0)
    {
      static const double lo[3] = { 0.996, 0.961, 0.922 }, hi[3] = { 0.890, 0.380, 0.090 };
      double              t = MIN (1.0, sqrt (share));

      for (int i = 0; i < 3; i++)
        rgb[i] = lo[i] + (hi[i] - lo[i]) * t;
      return;
    }
  switch (n->kind)
    {
    case GN_INPUT:
      rgb[0] = 0.851, rgb[1] = 0.949, rgb[2] = 0.851;
      break;
    case GN_RETURN:
      rgb[0] = 0.976, rgb[1] = 0.827, rgb[2] = 0.647;
      break;
    case GN_REGION:
      rgb[0] = 0.929, rgb[1] = 0.910, rgb[2] = 0.800;
      break;
    default:
      rgb[0] = 0.859, rgb[1] = 0.914, rgb[2] = 0.965;
      break;
    }
}

static void
rounded (cairo_t *cr, double x, double y, double w, double h, double r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

typedef struct
{
  double       x0, y0, x1, y1; /* visible, graph coordinates; x1 < x0: everything */
  PangoLayout *text;
  gboolean     labels;
} Paint;

static gboolean
visible (const Paint *p, double x, double y, double w, double h)
{
  return p->x1 < p->x0 || !(x + w < p->x0 || y + h < p->y0 || x > p->x1 || y > p->y1);
}

static void
draw_layout (WbGraphView *self, cairo_t *cr, Layout *l, Paint *p, double dx, double dy)
{
  cairo_set_line_width (cr, 1.0);
  for (guint i = 0; i < l->edges->len; i++)
    {
      VEdge *e = &g_array_index (l->edges, VEdge, i);
      double ax, ay, bx, by, len;

      if (e->n_pts < 2)
        continue;
      cairo_set_source_rgba (cr, 0.33, 0.33, 0.33, 0.8);
      cairo_move_to (cr, e->pts[0] + dx, e->pts[1] + dy);
      for (guint k = 1; k + 2 < e->n_pts; k += 3)
        cairo_curve_to (cr, e->pts[2 * k] + dx, e->pts[2 * k + 1] + dy, e->pts[2 * k + 2] + dx, e->pts[2 * k + 3] + dy,
                        e->pts[2 * k + 4] + dx, e->pts[2 * k + 5] + dy);
      cairo_stroke (cr);
      /* the arrowhead: from the spline's last point to the endpoint Graphviz left for it */
      ax = e->pts[2 * e->n_pts - 4] + dx, ay = e->pts[2 * e->n_pts - 3] + dy;
      bx = e->pts[2 * e->n_pts - 2] + dx, by = e->pts[2 * e->n_pts - 1] + dy;
      len = hypot (bx - ax, by - ay);
      if (len > 0.1)
        {
          double ux = (bx - ax) / len, uy = (by - ay) / len;

          cairo_move_to (cr, bx, by);
          cairo_line_to (cr, bx - 7 * ux + 3.5 * uy, by - 7 * uy - 3.5 * ux);
          cairo_line_to (cr, bx - 7 * ux - 3.5 * uy, by - 7 * uy + 3.5 * ux);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
    }
  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode   *n = &g_array_index (l->nodes, VNode, i);
      double   x = n->x - n->w / 2 + dx, y = n->y - n->h / 2 + dy;
      double   rgb[3];
      gboolean selected = n->bsym != NULL && n->bsym == self->selected;

      if (!visible (p, x, y, n->w, n->h))
        continue;
      if (n->kind == GN_CLUSTER)
        {
          g_autofree char *title = NULL;
          const char      *exec = wb_symbol_get_executor (n->bsym->symbol);

          node_fill (self, n, rgb);
          rounded (cr, x, y, n->w, n->h, 6);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.35);
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, selected ? 0.208 : 0.60, selected ? 0.518 : 0.60, selected ? 0.894 : 0.50);
          cairo_set_line_width (cr, selected ? 3 : 1.2);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1.0);
          if (p->labels)
            {
              title = g_strdup_printf ("▾ %s%s%s%s", n->bsym->name, exec ? " (" : "", exec ? exec : "", exec ? ")" : "");
              pango_layout_set_text (p->text, title, -1);
              cairo_set_source_rgb (cr, 0.2, 0.2, 0.15);
              cairo_move_to (cr, x + 6, y + 3);
              pango_cairo_show_layout (cr, p->text);
            }
          draw_layout (self, cr, n->inner, p, x + CLUSTER_PAD, y + CLUSTER_PAD + CLUSTER_BAR);
          continue;
        }
      node_fill (self, n, rgb);
      if (n->kind == GN_INPUT)
        {
          cairo_save (cr);
          cairo_translate (cr, x + n->w / 2, y + n->h / 2);
          cairo_scale (cr, n->w / 2, n->h / 2);
          cairo_arc (cr, 0, 0, 1, 0, 2 * G_PI);
          cairo_restore (cr);
        }
      else
        rounded (cr, x, y, n->w, n->h, n->kind == GN_REGION ? 2 : 5);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_fill_preserve (cr);
      if (selected)
        {
          cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
          cairo_set_line_width (cr, 3);
        }
      else
        {
          cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
          cairo_set_line_width (cr, n->kind == GN_REGION ? 2 : 0.8);
        }
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1.0);
      if (p->labels)
        {
          int tw, th;

          pango_layout_set_text (p->text, n->label, -1);
          pango_layout_get_pixel_size (p->text, &tw, &th);
          cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
          cairo_move_to (cr, x + (n->w - tw) / 2, y + (n->h - th) / 2);
          pango_cairo_show_layout (cr, p->text);
        }
    }
}

static PangoLayout *
label_layout (cairo_t *cr)
{
  PangoLayout *text = pango_cairo_create_layout (cr);
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Monospace 8");

  pango_layout_set_font_description (text, font);
  pango_layout_set_alignment (text, PANGO_ALIGN_CENTER);
  return text;
}

static void
draw_cb (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  WbGraphView *self = data;
  Paint        p;

  if (self->layout == NULL)
    return;
  if (self->zoom <= 0)
    fit (self);
  cairo_translate (cr, self->ox, self->oy);
  cairo_scale (cr, self->zoom, self->zoom);
  p.x0 = -self->ox / self->zoom;
  p.y0 = -self->oy / self->zoom;
  p.x1 = p.x0 + width / self->zoom;
  p.y1 = p.y0 + height / self->zoom;
  p.labels = self->zoom >= 0.3;
  p.text = label_layout (cr);
  draw_layout (self, cr, self->layout, &p, 0, 0);
  g_object_unref (p.text);
}

/* -- input ---------------------------------------------------------------------------------------- */

/* what is under graph point (x, y): a node of the top level or of an expanded body; *@bar when on an
 * expanded region's title bar */
static VNode *
hit (Layout *l, double x, double y, gboolean *bar)
{
  *bar = FALSE;
  for (guint i = 0; l && i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);
      double nx = n->x - n->w / 2, ny = n->y - n->h / 2;

      if (x < nx || y < ny || x > nx + n->w || y > ny + n->h)
        continue;
      if (n->kind == GN_CLUSTER)
        {
          gboolean inner_bar;
          VNode   *in;

          if (y < ny + CLUSTER_BAR)
            {
              *bar = TRUE;
              return n;
            }
          in = hit (n->inner, x - nx - CLUSTER_PAD, y - ny - CLUSTER_PAD - CLUSTER_BAR, &inner_bar);
          return in ? in : n;
        }
      return n;
    }
  return NULL;
}

static void
click_node (WbGraphView *self, VNode *n, gboolean bar)
{
  if (n == NULL || n->owner == NULL)
    return;
  if (n->kind == GN_REGION)
    wb_graph_view_set_expanded (self, n->bsym, TRUE);
  else if (n->kind == GN_CLUSTER && bar)
    {
      wb_graph_view_set_expanded (self, n->bsym, FALSE);
      return;
    }
  wb_document_select_bsym (self->document, self->trace, n->owner);
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WbGraphView *self)
{
  self->drag_ox = self->ox;
  self->drag_oy = self->oy;
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WbGraphView *self)
{
  self->ox = self->drag_ox + dx;
  self->oy = self->drag_oy + dy;
  gtk_widget_queue_draw (self->area);
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, WbGraphView *self)
{
  double   sx, sy;
  gboolean bar = FALSE;
  VNode   *n;

  if (hypot (dx, dy) > 4 || self->zoom <= 0)
    return;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  n = hit (self->layout, (sx - self->ox) / self->zoom, (sy - self->oy) / self->zoom, &bar);
  click_node (self, n, bar);
}

static void
zoom_at (WbGraphView *self, double factor, double x, double y)
{
  double z = CLAMP (self->zoom * factor, 0.02, 4.0);

  self->ox = x - (x - self->ox) * z / self->zoom;
  self->oy = y - (y - self->oy) * z / self->zoom;
  self->zoom = z;
  gtk_widget_queue_draw (self->area);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, WbGraphView *self)
{
  if (self->zoom > 0)
    zoom_at (self, pow (1.15, -dy), self->pointer_x, self->pointer_y);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller, double x, double y, WbGraphView *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static void
zoom_begin_cb (GtkGesture *gesture, GdkEventSequence *sequence, WbGraphView *self)
{
  self->zoom_start = self->zoom;
}

static void
zoom_scale_cb (GtkGestureZoom *gesture, double scale, WbGraphView *self)
{
  double cx, cy;

  if (self->zoom <= 0 || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  zoom_at (self, self->zoom_start * scale / self->zoom, cx, cy);
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, WbGraphView *self)
{
  gboolean bar;
  VNode   *n;
  g_autoptr (GString) text = NULL;

  if (self->zoom <= 0 || (n = hit (self->layout, (x - self->ox) / self->zoom, (y - self->oy) / self->zoom, &bar)) == NULL)
    return FALSE;
  text = g_string_new (n->kind == GN_CLUSTER || n->kind == GN_REGION ? n->bsym->name : n->label);
  if (n->owner != NULL)
    {
      const WbRegion *region = wb_document_region_of (self->document, n->owner);
      double          share = region ? wb_document_get_region_share (self->document, region->name) : -1;

      if (region != NULL)
        g_string_append_printf (text, "\n%s: %s", _ ("Region"), region->name);
      if (share >= 0)
        /* TRANSLATORS: share of the latest run's time, percent */
        {
          g_string_append_c (text, '\n');
          g_string_append_printf (text, _ ("%.1f%% of the run"), share * 100);
        }
    }
  if (n->kind == GN_REGION)
    g_string_append_printf (text, "\n%s", _ ("Click to expand"));
  else if (n->kind == GN_CLUSTER && bar)
    g_string_append_printf (text, "\n%s", _ ("Click to collapse"));
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* -- actions -------------------------------------------------------------------------------------- */

static void
zoom_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbGraphView *self = WB_GRAPH_VIEW (widget);
  double       w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);

  if (g_str_equal (action_name, "graph.zoom-fit"))
    {
      double z;

      if (self->layout == NULL)
        return;
      z = MIN ((w - 20) / MAX (self->layout->width, 1), (h - 20) / MAX (self->layout->height, 1));
      self->zoom = CLAMP (z, 0.02, 1.2);
      self->ox = (w - self->layout->width * self->zoom) / 2;
      self->oy = (h - self->layout->height * self->zoom) / 2;
      gtk_widget_queue_draw (self->area);
    }
  else if (self->zoom > 0)
    zoom_at (self, g_str_equal (action_name, "graph.zoom-in") ? 1.25 : 0.8, w / 2, h / 2);
}

static void
expand_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbGraphView *self = WB_GRAPH_VIEW (widget);
  gboolean     expand = g_str_equal (action_name, "graph.expand-all");

  if (self->trace == NULL)
    return;
  g_hash_table_remove_all (self->expanded);
  for (guint i = 0; expand && i < self->trace->n_body; i++)
    if (self->trace->body[i]->kind == WB_BSYM_CALL && wb_bsym_is_fusion (self->trace->body[i]))
      g_hash_table_add (self->expanded, self->trace->body[i]);
  self->dirty = TRUE;
  start_layout (self);
}

typedef struct
{
  WbGraphView  *self;
  WbGraphExport format;
} ExportCall;

static void
export_response_cb (GtkNativeDialog *dialog, int response, ExportCall *call)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path != NULL && !wb_graph_view_export (call->self, path, call->format, &error))
        g_warning ("%s", error->message);
    }
  g_object_unref (call->self);
  g_free (call);
  g_object_unref (dialog);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbGraphView          *self = WB_GRAPH_VIEW (widget);
  const char           *what = g_variant_get_string (parameter, NULL);
  ExportCall           *call = g_new0 (ExportCall, 1);
  GtkFileChooserNative *chooser;
  g_autofree char      *name = NULL;
  GtkRoot              *root = gtk_widget_get_root (widget);

  call->self = g_object_ref (self);
  call->format = g_str_equal (what, "svg") ? WB_GRAPH_EXPORT_SVG : g_str_equal (what, "dot") ? WB_GRAPH_EXPORT_DOT
                                                                                             : WB_GRAPH_EXPORT_PNG;
  chooser = gtk_file_chooser_native_new (_ ("Export the Graph"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  name = g_strdup_printf ("graph.%s", what);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), call);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* -- public --------------------------------------------------------------------------------------- */

gboolean
wb_graph_view_export (WbGraphView *self, const char *path, WbGraphExport format, GError **error)
{
  cairo_surface_t *surface;
  cairo_t         *cr;
  Paint            p = { 0, 0, -1, -1, NULL, TRUE };
  double           scale = 1.0;
  cairo_status_t   status;

  g_return_val_if_fail (WB_IS_GRAPH_VIEW (self), FALSE);

  if (self->trace == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _ ("No stage to export"));
      return FALSE;
    }
  if (format == WB_GRAPH_EXPORT_DOT)
    {
      g_autofree char *dot = wb_export_dot (self->trace, self->trace->provenance);

      return g_file_set_contents (path, dot, -1, error);
    }
  if (self->layout == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, "%s", _ ("The graph is still being laid out"));
      return FALSE;
    }
  if (format == WB_GRAPH_EXPORT_PNG)
    {
      /* cairo's image surfaces stop at 32767 pixels a side */
      scale = MIN (1.5, 30000.0 / MAX (self->layout->width, self->layout->height));
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (self->layout->width * scale) + 20,
                                            (int) ceil (self->layout->height * scale) + 20);
    }
  else
    surface = cairo_svg_surface_create (path, self->layout->width + 20, self->layout->height + 20);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_translate (cr, 10, 10);
  cairo_scale (cr, scale, scale);
  p.text = label_layout (cr);
  draw_layout (self, cr, self->layout, &p, 0, 0);
  g_object_unref (p.text);
  cairo_destroy (cr);
  if (format == WB_GRAPH_EXPORT_PNG)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

gboolean
wb_graph_view_is_busy (WbGraphView *self)
{
  return self->running || self->dirty;
}

const WbBsym *
wb_graph_view_get_selected (WbGraphView *self)
{
  return self->selected;
}

guint
wb_graph_view_get_n_nodes (WbGraphView *self)
{
  guint n = 0;

  for (guint i = 0; self->layout && i < self->layout->nodes->len; i++)
    {
      VNode *node = &g_array_index (self->layout->nodes, VNode, i);

      n += node->inner ? node->inner->nodes->len : 1;
    }
  return n;
}

double
wb_graph_view_get_layout_ms (WbGraphView *self)
{
  return self->layout ? self->layout_ms : -1;
}

guint
wb_graph_view_get_n_expanded (WbGraphView *self)
{
  return g_hash_table_size (self->expanded);
}

void
wb_graph_view_set_expanded (WbGraphView *self, const WbBsym *region, gboolean expanded)
{
  g_return_if_fail (WB_IS_GRAPH_VIEW (self));

  if (expanded == g_hash_table_contains (self->expanded, region))
    return;
  if (expanded)
    g_hash_table_add (self->expanded, (gpointer) region);
  else
    g_hash_table_remove (self->expanded, region);
  self->dirty = TRUE;
  start_layout (self);
}

gboolean
wb_graph_view_click_bsym (WbGraphView *self, const WbBsym *bsym)
{
  VNode *n = find_node (self->layout, bsym, NULL);

  if (n == NULL)
    return FALSE;
  click_node (self, n, FALSE);
  return TRUE;
}

void
wb_graph_view_set_document (WbGraphView *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_GRAPH_VIEW (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect_swapped (document, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (document, "runs-changed", G_CALLBACK (runs_changed_cb), self);
}

GtkWidget *
wb_graph_view_new (void)
{
  return g_object_new (WB_TYPE_GRAPH_VIEW, NULL);
}

static void
wb_graph_view_map (GtkWidget *widget)
{
  WbGraphView *self = WB_GRAPH_VIEW (widget);

  GTK_WIDGET_CLASS (wb_graph_view_parent_class)->map (widget);
  if (self->dirty && !self->running)
    start_layout (self);
}

static void
wb_graph_view_dispose (GObject *object)
{
  WbGraphView *self = WB_GRAPH_VIEW (object);
  GtkWidget   *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->trace, wb_trace_unref);
  g_clear_pointer (&self->layout, layout_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->inner_cache, g_hash_table_unref);

  G_OBJECT_CLASS (wb_graph_view_parent_class)->dispose (object);
}

static void
wb_graph_view_class_init (WbGraphViewClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = wb_graph_view_dispose;
  widget_class->map = wb_graph_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.expand-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "graph.collapse-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_action);
}

static GtkWidget *
icon_button (const char *icon, const char *action, const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static void
wb_graph_view_init (WbGraphView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *export_button = gtk_menu_button_new ();
  g_autoptr (GMenu) menu = g_menu_new ();
  GtkGesture         *drag = gtk_gesture_drag_new ();
  GtkGesture         *zoom = gtk_gesture_zoom_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  PangoContext       *context;
  PangoFontMetrics   *metrics;
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Monospace 8");

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->expanded = g_hash_table_new (NULL, NULL);
  self->inner_cache = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) layout_unref);

  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 3);
  gtk_widget_set_margin_bottom (bar, 3);
  self->info = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->info, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->info), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->info), "dim-label");
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->info));
  gtk_box_append (GTK_BOX (bar), icon_button ("list-add-symbolic", "graph.expand-all", _ ("Expand All Regions")));
  gtk_box_append (GTK_BOX (bar), icon_button ("list-remove-symbolic", "graph.collapse-all", _ ("Collapse All Regions")));
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-out-symbolic", "graph.zoom-out", _ ("Zoom Out")));
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-fit-best-symbolic", "graph.zoom-fit", _ ("Fit to Window")));
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-in-symbolic", "graph.zoom-in", _ ("Zoom In")));
  g_menu_append (menu, _ ("Export as _PNG…"), "graph.export::png");
  g_menu_append (menu, _ ("Export as _SVG…"), "graph.export::svg");
  g_menu_append (menu, _ ("Export as _DOT…"), "graph.export::dot");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (export_button), G_MENU_MODEL (menu));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (export_button), "document-save-as-symbolic");
  gtk_widget_set_tooltip_text (export_button, _ ("Export the Graph"));
  gtk_box_append (GTK_BOX (bar), export_button);
  gtk_widget_set_parent (bar, GTK_WIDGET (self));
  gtk_widget_set_parent (gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), GTK_WIDGET (self));

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (zoom_scale_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (zoom));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->area, scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (self->area, motion);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  gtk_widget_set_parent (self->area, GTK_WIDGET (self));

  context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  metrics = pango_context_get_metrics (context, font, NULL);
  self->cw = pango_font_metrics_get_approximate_char_width (metrics) / (double) PANGO_SCALE;
  self->lh = (pango_font_metrics_get_ascent (metrics) + pango_font_metrics_get_descent (metrics)) / (double) PANGO_SCALE;
  pango_font_metrics_unref (metrics);
  if (self->cw <= 0)
    self->cw = 7;
  if (self->lh <= 0)
    self->lh = 13;
  self->layout_ms = -1;
}
