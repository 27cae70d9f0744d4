/* wb-graph-view.c — the selected stage's dataflow laid out by Graphviz: regions as collapsible clusters
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The widget: the stage it shows, the regions drawn expanded, the selection, and the layout jobs. A job
 * runs on a GTask worker (wb-graph-view-layout.c). An expanded region's body is laid out on its own and
 * cached by its call, then placed as a fixed-size node of the top level: expanding one region of a
 * 32-layer model lays out that region and the (small) top level only. Drawing and the exports are in
 * wb-graph-view-draw.c; pan, zoom, clicks, tooltips and the actions in wb-graph-view-input.c. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-graph-view-private.h"

G_DEFINE_FINAL_TYPE (WbGraphView, wb_graph_view, GTK_TYPE_WIDGET)

/* -- the shown stage, its layout, the selection --------------------------------------------------- */

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

static char *
stage_title (WbGraphView *self)
{
  const WbTraceSet   *set = wb_document_get_trace_set (self->document);
  const WbTraceEntry *e = wb_trace_set_get_entry (set, wb_document_get_entry (self->document));
  GString            *s = g_string_new (NULL);

  if (e->subset != NULL && e->subset[0])
    g_string_append_printf (s, "%s/", e->subset);
  g_string_append_printf (s, "%s_%02d", wb_trace_kind_to_string (e->kind), MAX (e->index, 0));
  if (e->trace->provenance != NULL)
    g_string_append_printf (s, " · %s", e->trace->provenance);
  return g_string_free (s, FALSE);
}

static void
update_info (WbGraphView *self)
{
  g_autofree char *text = NULL;

  if (self->running)
    text = g_strdup (_ ("Laying out…"));
  else if (self->layout != NULL && self->chunks != NULL)
    /* TRANSLATORS: graph view status of a large stage: nodes, its top level's chunks, expanded chunks and regions, layout time */
    text = g_strdup_printf (_ ("%u nodes · top level in %u chunks · %u expanded · laid out in %.0f ms"), wb_graph_view_get_n_nodes (self),
                            self->chunks->len, g_hash_table_size (self->expanded), self->layout_ms);
  else if (self->layout != NULL)
    /* TRANSLATORS: graph view status: nodes, expanded regions, layout time */
    text = g_strdup_printf (_ ("%u nodes · %u regions expanded · laid out in %.0f ms"), wb_graph_view_get_n_nodes (self),
                            g_hash_table_size (self->expanded), self->layout_ms);
  else
    text = g_strdup ("");
  gtk_label_set_text (self->info, text);
}

void
_wb_graph_view_fit (WbGraphView *self)
{
  double w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);
  double z;

  if (self->layout == NULL || w <= 0 || h <= 0)
    return;
  /* the whole graph, below the stage's name; a large stage's top level is chunks, so it stays readable */
  z = MIN ((w - 20) / MAX (self->layout->width, 1), (h - 50) / MAX (self->layout->height, 1));
  self->zoom = CLAMP (z, 0.02, 1.2);
  self->ox = (w - self->layout->width * self->zoom) / 2;
  self->oy = 36 + (h - 40 - self->layout->height * self->zoom) / 2;
}

/* find the node of @bsym at any depth (top level, expanded chunks and regions); its centre in graph
 * coordinates in *@x, *@y (nullable) */
static VNode *
find_node_at (Layout *l, const WbBsym *bsym, double dx, double dy, double *x, double *y)
{
  for (guint i = 0; l != NULL && bsym != NULL && i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);
      VNode *in;

      if (n->bsym == bsym && (n->kind != GN_CLUSTER || n->group == bsym))
        {
          if (x)
            *x = n->x + dx, *y = n->y + dy;
          return n;
        }
      if (n->inner != NULL && (in = find_node_at (n->inner, bsym, dx + n->x - n->w / 2 + CLUSTER_PAD, dy + n->y - n->h / 2 + CLUSTER_PAD + CLUSTER_BAR, x, y)) != NULL)
        return in;
    }
  return NULL;
}

static VNode *
find_node (Layout *l, const WbBsym *bsym)
{
  return find_node_at (l, bsym, 0, 0, NULL, NULL);
}

static void
center_on (WbGraphView *self, const WbBsym *bsym, gboolean always)
{
  double x, y, w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);

  if (find_node_at (self->layout, bsym, 0, 0, &x, &y) == NULL)
    return;
  if (always && self->zoom < 0.5)
    self->zoom = 0.8;
  x = x * self->zoom + self->ox;
  y = y * self->zoom + self->oy;
  if (always || x < 0 || y < 0 || x > w || y > h)
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
      if (find_node (self->layout, bsym) != NULL)
        self->selected = bsym;
      else
        {
          /* a bound symbol of another stage: its region's call here, if this stage has it */
          const WbRegion *region = wb_document_region_of (self->document, bsym);

          if (region != NULL && find_node (self->layout, region->bsym) != NULL)
            self->selected = region->bsym;
        }
    }
  if (self->selected == NULL && self->document != NULL && wb_document_get_region (self->document) != NULL)
    {
      const WbRegion *region = wb_document_lookup_region (self->document, wb_document_get_region (self->document));

      if (region != NULL && find_node (self->layout, region->bsym) != NULL)
        self->selected = region->bsym;
    }
  if (self->selected == NULL && bsym != NULL && self->chunks != NULL)
    {
      /* inside a collapsed chunk: the chunk's node (it stands for its first bound symbol) */
      WbGraphChunk *chunk = _wb_graph_chunk_of (self->chunks, self->trace, bsym);

      for (guint i = 0; chunk != NULL && self->layout != NULL && i < self->layout->nodes->len; i++)
        if (g_array_index (self->layout->nodes, VNode, i).group == chunk)
          self->selected = g_array_index (self->layout->nodes, VNode, i).bsym;
    }
  if (self->selected != NULL)
    center_on (self, self->selected, FALSE);
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

          g_hash_table_insert (self->inner_cache, region, _wb_graph_layout_ref (g_hash_table_lookup (job->inner, region)));
        }
      g_clear_pointer (&self->layout, _wb_graph_layout_unref);
      self->layout = _wb_graph_layout_ref (job->top);
      self->layout_ms = job->ms;
      self->running = FALSE;
      gtk_spinner_stop (self->spinner);
      if (job->computed->len == job->expand->len || self->zoom <= 0)
        _wb_graph_view_fit (self);
      update_selected (self);
      if (self->centre != NULL && find_node (self->layout, self->centre) != NULL)
        {
          center_on (self, self->centre, TRUE);
          self->centre = NULL;
        }
      update_info (self);
    }
  if (self->dirty)
    _wb_graph_view_start_layout (self);
  g_object_unref (self);
}

void
_wb_graph_view_start_layout (WbGraphView *self)
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
  job->inner = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) _wb_graph_layout_unref);
  job->computed = g_ptr_array_new ();
  job->cw = self->cw;
  job->lh = self->lh;
  job->chunks = self->chunks ? g_ptr_array_ref (self->chunks) : NULL;
  g_hash_table_iter_init (&it, self->expanded);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      Layout *cached = g_hash_table_lookup (self->inner_cache, key);

      g_ptr_array_add (job->expand, key);
      if (cached != NULL)
        g_hash_table_insert (job->inner, key, _wb_graph_layout_ref (cached));
    }
  self->running = TRUE;
  gtk_spinner_start (self->spinner);
  update_info (self);
  task = g_task_new (self, self->cancellable, layout_done, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) _wb_graph_job_free);
  g_task_run_in_thread (task, _wb_graph_layout_thread);
}

/* the document's stage changed: new trace, default expansion */
static void
set_trace (WbGraphView *self, WbTrace *trace)
{
  if (trace == self->trace)
    return;
  g_clear_pointer (&self->trace, wb_trace_unref);
  g_clear_pointer (&self->layout, _wb_graph_layout_unref);
  g_hash_table_remove_all (self->expanded);
  g_hash_table_remove_all (self->inner_cache); /* keyed by the old stage's regions and chunks */
  g_clear_pointer (&self->chunks, g_ptr_array_unref);
  self->zoom = 0;
  self->selected = NULL;
  self->centre = NULL;
  if (trace != NULL)
    {
      self->trace = wb_trace_ref (trace);
      self->chunks = _wb_graph_chunks_new (trace);
      g_free (self->title);
      self->title = stage_title (self);
      _wb_graph_default_expanded (trace, self->expanded);
    }
  self->dirty = TRUE;
  if (self->running)
    g_cancellable_cancel (self->cancellable);
  self->running = FALSE;
  _wb_graph_view_start_layout (self);
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

/* -- public --------------------------------------------------------------------------------------- */

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

static guint
count_nodes (Layout *l)
{
  guint n = 0;

  for (guint i = 0; l && i < l->nodes->len; i++)
    {
      VNode *node = &g_array_index (l->nodes, VNode, i);

      n += node->inner ? count_nodes (node->inner) : 1;
    }
  return n;
}

guint
wb_graph_view_get_n_nodes (WbGraphView *self)
{
  return count_nodes (self->layout);
}

guint
wb_graph_view_get_n_chunks (WbGraphView *self)
{
  return self->chunks ? self->chunks->len : 0;
}

const char *
wb_graph_view_get_title (WbGraphView *self)
{
  return self->title;
}

double
wb_graph_view_get_zoom (WbGraphView *self)
{
  return self->zoom;
}

double
wb_graph_view_get_node_ms (WbGraphView *self, const WbBsym *bsym)
{
  VNode *n = find_node (self->layout, bsym);

  return n != NULL ? _wb_graph_view_node_ms (self, n) : -1;
}

char *
wb_graph_view_dup_node_tag (WbGraphView *self, const WbBsym *bsym)
{
  VNode *n;

  g_return_val_if_fail (WB_IS_GRAPH_VIEW (self), NULL);
  if ((n = find_node (self->layout, bsym)) == NULL)
    return NULL;
  return _wb_graph_view_node_tag (self, n, _wb_graph_view_node_ms (self, n));
}

gboolean
wb_graph_view_get_node_rgb (WbGraphView *self, const WbBsym *bsym, double *rgb)
{
  VNode *n;

  g_return_val_if_fail (WB_IS_GRAPH_VIEW (self), FALSE);
  if ((n = find_node (self->layout, bsym)) == NULL)
    return FALSE;
  _wb_graph_view_node_fill (self, n, rgb);
  return TRUE;
}

gboolean
wb_graph_view_node_is_visible (WbGraphView *self, const WbBsym *bsym)
{
  double x, y;

  if (find_node_at (self->layout, bsym, 0, 0, &x, &y) == NULL)
    return FALSE;
  x = x * self->zoom + self->ox, y = y * self->zoom + self->oy;
  return x >= 0 && y >= 0 && x <= gtk_widget_get_width (self->area) && y <= gtk_widget_get_height (self->area);
}

/* the node drawn for @group (a region's call or a WbGraphChunk) at any depth; its top-left corner in
 * graph coordinates in *@x, *@y */
static VNode *
find_group_at (Layout *l, gconstpointer group, double dx, double dy, double *x, double *y)
{
  for (guint i = 0; l != NULL && group != NULL && i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);
      VNode *in;

      if (n->group == group)
        {
          *x = n->x - n->w / 2 + dx, *y = n->y - n->h / 2 + dy;
          return n;
        }
      if (n->inner != NULL && (in = find_group_at (n->inner, group, dx + n->x - n->w / 2 + CLUSTER_PAD, dy + n->y - n->h / 2 + CLUSTER_PAD + CLUSTER_BAR, x, y)) != NULL)
        return in;
    }
  return NULL;
}

gboolean
wb_graph_view_get_node_rect (WbGraphView *self, const WbBsym *bsym, graphene_rect_t *rect)
{
  VNode *n;
  double x, y;

  g_return_val_if_fail (WB_IS_GRAPH_VIEW (self), FALSE);
  if (self->zoom <= 0)
    return FALSE;
  if ((n = find_node_at (self->layout, bsym, 0, 0, &x, &y)) != NULL)
    x -= n->w / 2, y -= n->h / 2;
  else if ((n = find_group_at (self->layout, _wb_graph_chunk_of (self->chunks, self->trace, bsym), 0, 0, &x, &y)) == NULL)
    return FALSE;
  graphene_rect_init (rect, x * self->zoom + self->ox, y * self->zoom + self->oy, n->w * self->zoom, n->h * self->zoom);
  return TRUE;
}

/* pass 0: @b's call is @text; pass 1: its call, outputs or value contain @text */
static gboolean
bsym_matches (const WbBsym *b, const char *text, int pass)
{
  g_autofree char *outs = NULL;

  if (pass == 0)
    return g_strcmp0 (b->name, text) == 0;
  outs = b->outputs ? wb_value_to_string (b->outputs) : b->value ? wb_value_to_string (b->value)
                                                                 : NULL;
  return (b->name && strstr (b->name, text)) || (outs && strstr (outs, text));
}

/* the next match from self->search_at on (exact calls first); its top-level bound symbol in *@top_out */
static const WbBsym *
search_from (WbGraphView *self, const char *text, const WbBsym **top_out)
{
  for (int pass = 0; pass < 2; pass++)
    for (guint k = 0; k < self->trace->n_body; k++)
      {
        guint         i = (self->search_at + k) % self->trace->n_body;
        const WbBsym *top = self->trace->body[i];

        *top_out = top;
        if (bsym_matches (top, text, pass))
          {
            self->search_at = i + 1;
            return top;
          }
        for (guint j = 0; _wb_graph_is_group (top) && j < top->n_subsymbols; j++)
          if (bsym_matches (top->subsymbols[j], text, pass))
            {
              self->search_at = i + 1;
              return top->subsymbols[j];
            }
      }
  return NULL;
}

const WbBsym *
wb_graph_view_search (WbGraphView *self, const char *text)
{
  const WbBsym *top = NULL, *found;
  WbGraphChunk *chunk;

  g_return_val_if_fail (WB_IS_GRAPH_VIEW (self), NULL);

  if (self->trace == NULL || self->trace->n_body == 0 || text == NULL || text[0] == '\0')
    return NULL;
  if ((found = search_from (self, text, &top)) == NULL)
    return NULL;
  if ((chunk = _wb_graph_chunk_of (self->chunks, self->trace, top)) != NULL)
    wb_graph_view_set_expanded (self, (const WbBsym *) chunk, TRUE);
  if (_wb_graph_is_group (top))
    wb_graph_view_set_expanded (self, top, TRUE); /* a region found, or an op in its body: drawn open */
  self->centre = found;
  wb_document_select_bsym (self->document, self->trace, top);
  if (!wb_graph_view_is_busy (self) && find_node (self->layout, found) != NULL)
    {
      center_on (self, found, TRUE);
      self->centre = NULL;
      gtk_widget_queue_draw (self->area);
    }
  return found;
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
  if (!_wb_graph_is_chunk (self->chunks, region))
    {
      /* a chunk's cached body drew the region the other way */
      WbGraphChunk *chunk = _wb_graph_chunk_of (self->chunks, self->trace, region);

      if (chunk != NULL)
        g_hash_table_remove (self->inner_cache, chunk);
    }
  self->dirty = TRUE;
  _wb_graph_view_start_layout (self);
}

gboolean
wb_graph_view_click_bsym (WbGraphView *self, const WbBsym *bsym)
{
  VNode *n = find_node (self->layout, bsym);

  if (n == NULL)
    return FALSE;
  _wb_graph_view_click_node (self, n, FALSE);
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
    _wb_graph_view_start_layout (self);
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
  g_clear_pointer (&self->layout, _wb_graph_layout_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->inner_cache, g_hash_table_unref);
  g_clear_pointer (&self->chunks, g_ptr_array_unref);
  g_clear_pointer (&self->title, g_free);

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
  _wb_graph_view_install_actions (widget_class);
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
search_activate_cb (GtkSearchEntry *entry, WbGraphView *self)
{
  wb_graph_view_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
wb_graph_view_init (WbGraphView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *export_button = gtk_menu_button_new ();
  GtkWidget *search;
  g_autoptr (GMenu) menu = g_menu_new ();
  PangoContext     *context;
  PangoFontMetrics *metrics;
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Monospace 8");

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->expanded = g_hash_table_new (NULL, NULL);
  self->inner_cache = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) _wb_graph_layout_unref);

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
  search = gtk_search_entry_new ();
  g_object_set (search, "placeholder-text", _ ("Find a node"), NULL);
  gtk_widget_set_tooltip_text (search, _ ("Find a bound symbol by its call or outputs; Enter finds the next"));
  g_signal_connect (search, "activate", G_CALLBACK (search_activate_cb), self);
  gtk_box_append (GTK_BOX (bar), search);
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
  gtk_widget_set_focusable (self->area, TRUE); /* the zoom keys; a click focuses it */
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), _wb_graph_view_draw, self, NULL);
  _wb_graph_view_add_controllers (self);
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
