/* wb-graph-view-input.c — WbGraphView's input: pan (drag), zoom (scroll, pinch, Ctrl+plus/minus/0), clicks,
 * tooltips, and its actions
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "wb-graph-view-private.h"

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

void
_wb_graph_view_click_node (WbGraphView *self, VNode *n, gboolean bar)
{
  if (n == NULL || n->owner == NULL)
    return;
  if (n->kind == GN_REGION)
    wb_graph_view_set_expanded (self, n->group, TRUE);
  else if (n->kind == GN_CLUSTER && bar)
    {
      wb_graph_view_set_expanded (self, n->group, FALSE);
      return;
    }
  wb_document_select_bsym (self->document, self->trace, n->owner);
}

static gboolean
in_minimap (WbGraphView *self, double x, double y)
{
  return self->mm_w > 0 && x >= self->mm_x && y >= self->mm_y && x <= self->mm_x + self->mm_w && y <= self->mm_y + self->mm_h;
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WbGraphView *self)
{
  gtk_widget_grab_focus (self->area); /* for the keys (_wb_graph_view_install_actions) */
  self->drag_ox = self->ox;
  self->drag_oy = self->oy;
  self->mm_drag = in_minimap (self, x, y);
  if (self->mm_drag)
    _wb_graph_view_minimap_move (self, x, y);
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WbGraphView *self)
{
  if (self->mm_drag)
    {
      double sx, sy;

      gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
      _wb_graph_view_minimap_move (self, sx + dx, sy + dy);
      return;
    }
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

  if (self->mm_drag || hypot (dx, dy) > 4 || self->zoom <= 0)
    return;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  n = hit (self->layout, (sx - self->ox) / self->zoom, (sy - self->oy) / self->zoom, &bar);
  _wb_graph_view_click_node (self, n, bar);
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
  text = g_string_new (n->label);
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
      _wb_graph_view_fit (self);
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
    if (_wb_graph_is_group (self->trace->body[i]))
      g_hash_table_add (self->expanded, self->trace->body[i]);
  for (guint i = 0; expand && self->chunks != NULL && i < self->chunks->len; i++)
    g_hash_table_add (self->expanded, self->chunks->pdata[i]);
  /* the chunks' cached bodies drew their regions collapsed */
  for (guint i = 0; self->chunks != NULL && i < self->chunks->len; i++)
    g_hash_table_remove (self->inner_cache, self->chunks->pdata[i]);
  self->dirty = TRUE;
  _wb_graph_view_start_layout (self);
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

/* -- setup ---------------------------------------------------------------------------------------- */

/* the drawing area's controllers: drag (pan, click), pinch, scroll (zoom at the pointer), tooltips */
void
_wb_graph_view_add_controllers (WbGraphView *self)
{
  GtkGesture         *drag = gtk_gesture_drag_new ();
  GtkGesture         *zoom = gtk_gesture_zoom_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();

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
}

void
_wb_graph_view_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.expand-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "graph.collapse-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_action);
  /* the keys of image viewers and browsers (the shortcuts window lists them): Ctrl+plus zooms in 1.25x
   * about the middle, Ctrl+minus out 0.8x, Ctrl+0 fits the graph */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "graph.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK, "graph.zoom-fit", NULL);
}
