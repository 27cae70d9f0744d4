/* wb-timeline.c — the selected run's kernels per stream on a zoomable time axis, region spans above
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row of region spans (consecutive kernels of one region in one iteration), then one row per stream.
 * Drawn with cairo, culled to the visible time range; scroll zooms about the pointer, drag pans; hover
 * shows the kernel record; a click selects its region and its line in the run's stage. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "wb-views.h"

#define AXIS_H 22.0
#define ROW_H 26.0
#define LEFT_W 90.0

typedef struct
{
  const char *region;
  gint64      start, end; /* ns from the run's first kernel */
} Span;

struct _WbTimeline
{
  GtkWidget parent_instance;

  WbDocument *document;
  GPtrArray  *kernels; /* (element-type WbKernelRecord) copies, start order */
  GArray     *streams; /* guint32 stream ids, one row each */
  GArray     *spans;   /* Span */
  gint64      t0, t1;
  int         selected;

  double   ns_per_px, offset_ns; /* view: x = LEFT_W + (t - offset_ns) / ns_per_px */
  double   drag_offset, pointer_x;
  gboolean user_view; /* the user zoomed or panned: keep the view when the size changes */
  int      fitted_width;

  GtkWidget *area;
  GtkLabel  *info;
};

G_DEFINE_FINAL_TYPE (WbTimeline, wb_timeline, GTK_TYPE_WIDGET)

static void
region_color (const char *region, double *rgb)
{
  guint h = region ? g_str_hash (region) : 0;
  float hue = (h % 360) / 360.0f, s = region ? 0.45f : 0.0f, v = region ? 0.85f : 0.7f, r, g, b;

  gtk_hsv_to_rgb (hue, s, v, &r, &g, &b);
  rgb[0] = r, rgb[1] = g, rgb[2] = b;
}

static int
stream_row (WbTimeline *self, guint32 stream)
{
  for (guint i = 0; i < self->streams->len; i++)
    if (g_array_index (self->streams, guint32, i) == stream)
      return (int) i;
  return -1;
}

static void
fit (WbTimeline *self)
{
  double w = gtk_widget_get_width (self->area) - LEFT_W - 10;

  self->fitted_width = gtk_widget_get_width (self->area);
  self->user_view = FALSE;
  self->offset_ns = 0;
  self->ns_per_px = MAX (1.0, (self->t1 - self->t0) / MAX (w, 100));
}

static void
rebuild (WbTimeline *self)
{
  const WbRun *run = self->document ? wb_document_get_run (self->document) : NULL;
  Span         cur = { NULL, 0, 0 };
  guint32      iteration = G_MAXUINT32;

  g_ptr_array_set_size (self->kernels, 0);
  g_array_set_size (self->streams, 0);
  g_array_set_size (self->spans, 0);
  self->selected = -1;
  self->t0 = self->t1 = 0;
  if (run != NULL && run->kernels != NULL && run->kernels->len > 0)
    {
      self->t0 = G_MAXINT64;
      self->t1 = G_MININT64;
      for (guint i = 0; i < run->kernels->len; i++)
        {
          const WbKernelRecord *k = run->kernels->pdata[i];

          g_ptr_array_add (self->kernels, wb_kernel_record_copy (k));
          self->t0 = MIN (self->t0, k->start_ns);
          self->t1 = MAX (self->t1, k->end_ns);
          if (stream_row (self, k->stream) < 0)
            g_array_append_val (self->streams, k->stream);
        }
      for (guint i = 0; i < self->kernels->len; i++)
        {
          const WbKernelRecord *k = self->kernels->pdata[i];

          if (cur.region != NULL && (g_strcmp0 (cur.region, k->region) != 0 || k->iteration != iteration))
            {
              g_array_append_val (self->spans, cur);
              cur.region = NULL;
            }
          if (k->region == NULL)
            continue;
          if (cur.region == NULL)
            {
              cur.region = k->region;
              cur.start = k->start_ns - self->t0;
              iteration = k->iteration;
            }
          cur.end = k->end_ns - self->t0;
        }
      if (cur.region != NULL)
        g_array_append_val (self->spans, cur);
    }
  fit (self);
  {
    g_autofree char *text = NULL;

    if (self->kernels->len == 0)
      text = g_strdup (_ ("No run yet: profile to see its kernels"));
    else
      /* TRANSLATORS: timeline status: kernels, streams, region spans, milliseconds */
      text = g_strdup_printf (_ ("%u kernels on %u streams · %u region spans · %.3f ms"), self->kernels->len,
                              self->streams->len, self->spans->len, (self->t1 - self->t0) / 1e6);
    gtk_label_set_text (self->info, text);
  }
  gtk_widget_set_size_request (self->area, -1, (int) (AXIS_H + ROW_H * (1 + self->streams->len) + 10));
  gtk_widget_queue_draw (self->area);
}

static double
time_to_x (WbTimeline *self, double ns)
{
  return LEFT_W + (ns - self->offset_ns) / self->ns_per_px;
}

static double
x_to_time (WbTimeline *self, double x)
{
  return (x - LEFT_W) * self->ns_per_px + self->offset_ns;
}

static void
draw_cb (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  WbTimeline  *self = data;
  const char  *region = self->document ? wb_document_get_region (self->document) : NULL;
  PangoLayout *text = pango_cairo_create_layout (cr);
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Sans 8");
  double  step, t_from = x_to_time (self, LEFT_W), t_to = x_to_time (self, width);
  GdkRGBA fg;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  pango_layout_set_font_description (text, font);
  if (self->kernels->len == 0 || self->ns_per_px <= 0)
    {
      g_object_unref (text);
      return;
    }

  /* the axis: a tick every 1, 2 or 5 × 10^k ns, about every 100 px */
  step = pow (10, floor (log10 (self->ns_per_px * 100)));
  if (step * 5 < self->ns_per_px * 100)
    step *= 5;
  else if (step * 2 < self->ns_per_px * 100)
    step *= 2;
  cairo_set_line_width (cr, 1);
  for (double t = floor (MAX (t_from, 0) / step) * step; t <= t_to; t += step)
    {
      double           x = floor (time_to_x (self, t)) + 0.5;
      g_autofree char *label = NULL;

      if (x < LEFT_W)
        continue;
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
      cairo_move_to (cr, x, AXIS_H - 4);
      cairo_line_to (cr, x, height);
      cairo_stroke (cr);
      /* TRANSLATORS: a time-axis tick, milliseconds (the precision follows the zoom) */
      label = g_strdup_printf (_ ("%.*f ms"), step >= 1e6 ? 0 : step >= 1e3 ? 3
                                                                            : 6,
                               t / 1e6);
      pango_layout_set_text (text, label, -1);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      cairo_move_to (cr, x + 3, 3);
      pango_cairo_show_layout (cr, text);
    }

  /* row labels */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  pango_layout_set_text (text, _ ("Regions"), -1);
  cairo_move_to (cr, 6, AXIS_H + 6);
  pango_cairo_show_layout (cr, text);
  for (guint s = 0; s < self->streams->len; s++)
    {
      /* TRANSLATORS: a timeline row: CUDA stream number */
      g_autofree char *label = g_strdup_printf (_ ("Stream %u"), g_array_index (self->streams, guint32, s));

      pango_layout_set_text (text, label, -1);
      cairo_move_to (cr, 6, AXIS_H + ROW_H * (s + 1) + 6);
      pango_cairo_show_layout (cr, text);
    }
  cairo_rectangle (cr, LEFT_W, 0, width - LEFT_W, height);
  cairo_clip (cr);

  for (guint i = 0; i < self->spans->len; i++)
    {
      Span  *sp = &g_array_index (self->spans, Span, i);
      double x0 = time_to_x (self, sp->start), x1 = MAX (time_to_x (self, sp->end), x0 + 1);
      double rgb[3];

      if (x1 < LEFT_W || x0 > width)
        continue;
      region_color (sp->region, rgb);
      cairo_rectangle (cr, x0, AXIS_H + 3, x1 - x0, ROW_H - 6);
      cairo_set_source_rgb (cr, rgb[0] * 0.8, rgb[1] * 0.8, rgb[2] * 0.8);
      cairo_fill (cr);
      if (g_strcmp0 (sp->region, region) == 0)
        {
          cairo_rectangle (cr, x0 + 0.5, AXIS_H + 3.5, x1 - x0 - 1, ROW_H - 7);
          cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
          cairo_set_line_width (cr, 2);
          cairo_stroke (cr);
        }
      if (x1 - x0 > 40)
        {
          cairo_save (cr);
          cairo_rectangle (cr, x0, AXIS_H, x1 - x0, ROW_H);
          cairo_clip (cr);
          pango_layout_set_text (text, sp->region, -1);
          cairo_set_source_rgb (cr, 0.05, 0.05, 0.05);
          cairo_move_to (cr, MAX (x0, LEFT_W) + 3, AXIS_H + 6);
          pango_cairo_show_layout (cr, text);
          cairo_restore (cr);
        }
    }
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      double                x0 = time_to_x (self, k->start_ns - self->t0);
      double                x1 = MAX (time_to_x (self, k->end_ns - self->t0), x0 + 1);
      double                y = AXIS_H + ROW_H * (stream_row (self, k->stream) + 1) + 3;
      double                rgb[3];

      if (x1 < LEFT_W || x0 > width)
        continue;
      region_color (k->region, rgb);
      cairo_rectangle (cr, x0, y, x1 - x0, ROW_H - 6);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_fill (cr);
      if ((int) i == self->selected || (region != NULL && g_strcmp0 (k->region, region) == 0))
        {
          cairo_rectangle (cr, x0 + 0.5, y + 0.5, MAX (x1 - x0 - 1, 1), ROW_H - 7);
          cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
          cairo_set_line_width (cr, (int) i == self->selected ? 2.5 : 1.2);
          cairo_stroke (cr);
        }
      if (x1 - x0 > 50)
        {
          cairo_save (cr);
          cairo_rectangle (cr, x0, y, x1 - x0, ROW_H - 6);
          cairo_clip (cr);
          pango_layout_set_text (text, k->name, -1);
          cairo_set_source_rgb (cr, 0.05, 0.05, 0.05);
          cairo_move_to (cr, MAX (x0, LEFT_W) + 3, y + 3);
          pango_cairo_show_layout (cr, text);
          cairo_restore (cr);
        }
    }
  g_object_unref (text);
}

static int
kernel_at (WbTimeline *self, double x, double y)
{
  int    row = (int) floor ((y - AXIS_H) / ROW_H) - 1;
  double t;
  int    best = -1;
  double best_d = 4 * self->ns_per_px; /* within 4 px */

  if (row < 0 || row >= (int) self->streams->len || x < LEFT_W)
    return -1;
  t = x_to_time (self, x) + self->t0;
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      double                d;

      if (stream_row (self, k->stream) != row)
        continue;
      d = t < k->start_ns ? k->start_ns - t : t > k->end_ns ? t - k->end_ns
                                                            : 0;
      if (d <= best_d)
        best = (int) i, best_d = d;
    }
  return best;
}

char *
wb_timeline_get_tooltip (WbTimeline *self, guint index)
{
  const WbKernelRecord *k;

  g_return_val_if_fail (index < self->kernels->len, NULL);
  k = self->kernels->pdata[index];
  return g_strdup_printf ("%s\n%s: %s\n%s: %u\n%s: %u\n%s: (%u, %u, %u)\n%s: (%u, %u, %u)\n%s: %u\n%s: %u B\n%s: %.3f ms\n%s: %.3f ms\n%s: %u",
                          k->name, _ ("Region"), k->region ? k->region : "—", _ ("Line"), k->trace_line,
                          _ ("Stream"), k->stream, _ ("Grid"), k->grid[0], k->grid[1], k->grid[2],
                          _ ("Block"), k->block[0], k->block[1], k->block[2], _ ("Registers"), k->registers,
                          _ ("Shared Memory"), k->shared_bytes, _ ("Duration"), (k->end_ns - k->start_ns) / 1e6,
                          _ ("Start"), (k->start_ns - self->t0) / 1e6, _ ("Iteration"), k->iteration);
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, WbTimeline *self)
{
  int              i = kernel_at (self, x, y);
  g_autofree char *text = NULL;

  if (i < 0)
    return FALSE;
  text = wb_timeline_get_tooltip (self, i);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
wb_timeline_click_kernel (WbTimeline *self, guint index)
{
  g_return_if_fail (WB_IS_TIMELINE (self));
  g_return_if_fail (index < self->kernels->len);

  self->selected = (int) index;
  wb_document_select_kernel (self->document, self->kernels->pdata[index]);
  gtk_widget_queue_draw (self->area);
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WbTimeline *self)
{
  self->drag_offset = self->offset_ns;
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WbTimeline *self)
{
  self->offset_ns = self->drag_offset - dx * self->ns_per_px;
  self->user_view = TRUE;
  gtk_widget_queue_draw (self->area);
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, WbTimeline *self)
{
  double sx, sy;
  int    i;

  if (hypot (dx, dy) > 4)
    return;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  if ((i = kernel_at (self, sx, sy)) >= 0)
    wb_timeline_click_kernel (self, i);
}

static void
zoom_at (WbTimeline *self, double factor, double x)
{
  double t = x_to_time (self, x);

  self->ns_per_px = CLAMP (self->ns_per_px * factor, 0.01, 1e12);
  self->user_view = TRUE;
  self->offset_ns = t - (x - LEFT_W) * self->ns_per_px;
  gtk_widget_queue_draw (self->area);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, WbTimeline *self)
{
  zoom_at (self, pow (1.2, dy), MAX (self->pointer_x, LEFT_W));
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller, double x, double y, WbTimeline *self)
{
  self->pointer_x = x;
}

static void
zoom_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbTimeline *self = WB_TIMELINE (widget);
  double      w = gtk_widget_get_width (self->area);

  if (g_str_equal (action_name, "timeline.zoom-fit"))
    {
      fit (self);
      gtk_widget_queue_draw (self->area);
    }
  else
    zoom_at (self, g_str_equal (action_name, "timeline.zoom-in") ? 0.5 : 2.0, LEFT_W + (w - LEFT_W) / 2);
}

guint
wb_timeline_get_n_kernels (WbTimeline *self)
{
  return self->kernels->len;
}

guint
wb_timeline_get_n_streams (WbTimeline *self)
{
  return self->streams->len;
}

const WbKernelRecord *
wb_timeline_get_kernel (WbTimeline *self, guint index)
{
  return index < self->kernels->len ? self->kernels->pdata[index] : NULL;
}

void
wb_timeline_set_document (WbTimeline *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_TIMELINE (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_signal_connect_swapped (document, "runs-changed", G_CALLBACK (rebuild), self);
  g_signal_connect_swapped (document, "selection-changed", G_CALLBACK (gtk_widget_queue_draw), self->area);
  rebuild (self);
}

GtkWidget *
wb_timeline_new (void)
{
  return g_object_new (WB_TYPE_TIMELINE, NULL);
}

/* fitted while hidden (width 0) or at another width, and not zoomed since: fit again */
static void
resize_cb (GtkDrawingArea *area, int width, int height, WbTimeline *self)
{
  if (!self->user_view && self->kernels->len > 0 && width != self->fitted_width)
    fit (self);
}

static void
wb_timeline_dispose (GObject *object)
{
  WbTimeline *self = WB_TIMELINE (object);
  GtkWidget  *child;

  if (self->document != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->document, self);
      g_signal_handlers_disconnect_by_data (self->document, self->area);
    }
  g_clear_object (&self->document);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->kernels, g_ptr_array_unref);
  g_clear_pointer (&self->streams, g_array_unref);
  g_clear_pointer (&self->spans, g_array_unref);

  G_OBJECT_CLASS (wb_timeline_parent_class)->dispose (object);
}

static void
wb_timeline_class_init (WbTimelineClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = wb_timeline_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
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
wb_timeline_init (WbTimeline *self)
{
  GtkWidget          *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkGesture         *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
  self->streams = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->selected = -1;
  self->ns_per_px = 1000;

  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 3);
  gtk_widget_set_margin_bottom (bar, 3);
  self->info = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->info, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->info), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->info), "dim-label");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->info));
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-out-symbolic", "timeline.zoom-out", _ ("Zoom Out")));
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-fit-best-symbolic", "timeline.zoom-fit", _ ("Fit to Window")));
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-in-symbolic", "timeline.zoom-in", _ ("Zoom In")));
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->area, scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (self->area, motion);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  g_signal_connect (self->area, "resize", G_CALLBACK (resize_cb), self);
  gtk_widget_set_parent (self->area, GTK_WIDGET (self));
}
