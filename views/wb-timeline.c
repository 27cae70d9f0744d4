/* wb-timeline.c — the selected run's kernels per stream on a zoomable time axis, regions and calls above
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As Nsight Systems and Perfetto: a track of region spans (consecutive kernels of one region in one
 * iteration), a track of the host's calls (consecutive kernels launched by one line of the run's stage,
 * named by its call), then one track per stream; beside them, the statistics of the selected range
 * (WbRangeStats: kernels, busy time, time by region and by symbol), in a pane that resizes. Drawn with
 * cairo, culled to the visible time range. Drag selects a range (Shift or the middle button pans), a click
 * selects a kernel's region and line, scroll zooms about the pointer (Shift: pans); keys as Perfetto's:
 * W/S zoom in and out, A/D pan, Escape clears the range. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "wb-data.h"
#include "wb-views.h"

#define AXIS_H 22.0
#define ROW_H 26.0
#define LEFT_W 90.0

typedef struct
{
  const char *region;     /* the region, or the call's symbol on the calls track */
  gint64      start, end; /* ns from the run's first kernel */
  guint32     line;
} Span;

#define TRACKS_ABOVE 2 /* regions, calls */

struct _WbTimeline
{
  GtkWidget parent_instance;

  WbDocument   *document;
  GPtrArray    *kernels; /* (element-type WbKernelRecord) copies, start order */
  GArray       *streams; /* guint32 stream ids, one row each */
  GArray       *spans;   /* Span */
  GArray       *calls;   /* Span: the calls track */
  gint64        t0, t1;
  int           selected;
  gint64        sel_from, sel_to; /* the selected range, ns from t0; sel_to < 0: none */
  WbRangeStats *range;
  gboolean      panning;
  double        drag_x;

  double   ns_per_px, offset_ns; /* view: x = LEFT_W + (t - offset_ns) / ns_per_px */
  double   drag_offset, pointer_x;
  gboolean user_view; /* the user zoomed or panned: keep the view when the size changes */
  int      fitted_width;

  GtkWidget *area;
  GtkLabel  *info;
  GtkLabel  *stats;
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

/* the run's stage (what kernel lines refer to), or NULL */
static WbTrace *
run_trace (WbTimeline *self)
{
  int entry = self->document ? wb_document_get_run_entry (self->document) : -1;

  return entry >= 0 ? wb_trace_set_get_entry (wb_document_get_trace_set (self->document), entry)->trace : NULL;
}

/* consecutive kernels of one iteration grouped by region (@calls FALSE) or by line (TRUE) */
static void
collect_spans (WbTimeline *self, GArray *out, gboolean calls)
{
  g_autoptr (GHashTable) names = g_hash_table_new (NULL, NULL);
  WbTrace *trace = calls ? run_trace (self) : NULL;
  Span     cur = { NULL, 0, 0, 0 };
  guint32  iteration = G_MAXUINT32;

  for (guint i = 0; trace != NULL && i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && trace->body[i]->name)
      g_hash_table_insert (names, GUINT_TO_POINTER (wb_trace_get_bsym_line (trace, trace->body[i])), (gpointer) trace->body[i]->name);
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      const char           *key = calls ? g_hash_table_lookup (names, GUINT_TO_POINTER (k->trace_line)) : k->region;

      if (calls && key == NULL && k->trace_line != 0)
        key = k->region; /* a line of another trace (the backward's) */
      if (cur.region != NULL && (g_strcmp0 (cur.region, key) != 0 || cur.line != (calls ? k->trace_line : 0) || k->iteration != iteration))
        {
          g_array_append_val (out, cur);
          cur.region = NULL;
        }
      if (key == NULL)
        continue;
      if (cur.region == NULL)
        {
          cur.region = key;
          cur.line = calls ? k->trace_line : 0;
          cur.start = k->start_ns - self->t0;
          iteration = k->iteration;
        }
      cur.end = MAX (cur.end, k->end_ns - self->t0);
    }
  if (cur.region != NULL)
    g_array_append_val (out, cur);
}

static void
rebuild (WbTimeline *self)
{
  const WbRun *run = self->document ? wb_document_get_run (self->document) : NULL;

  g_ptr_array_set_size (self->kernels, 0);
  g_array_set_size (self->streams, 0);
  g_array_set_size (self->spans, 0);
  g_array_set_size (self->calls, 0);
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
      collect_spans (self, self->spans, FALSE);
      collect_spans (self, self->calls, TRUE);
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
  gtk_widget_set_size_request (self->area, -1, (int) (AXIS_H + ROW_H * (TRACKS_ABOVE + self->streams->len) + 10));
  wb_timeline_select_range (self, 0, -1);
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

/* the axis: a tick every 1, 2 or 5 × 10^k ns, about every 100 px */
static void
draw_axis (WbTimeline *self, cairo_t *cr, PangoLayout *text, const GdkRGBA *fg, int width, int height)
{
  double step = pow (10, floor (log10 (self->ns_per_px * 100)));
  double t_from = x_to_time (self, LEFT_W), t_to = x_to_time (self, width);

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
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.15);
      cairo_move_to (cr, x, AXIS_H - 4);
      cairo_line_to (cr, x, height);
      cairo_stroke (cr);
      /* TRANSLATORS: a time-axis tick, milliseconds (the precision follows the zoom) */
      label = g_strdup_printf (_ ("%.*f ms"), step >= 1e6 ? 0 : step >= 1e3 ? 3
                                                                            : 6,
                               t / 1e6);
      pango_layout_set_text (text, label, -1);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      cairo_move_to (cr, x + 3, 3);
      pango_cairo_show_layout (cr, text);
    }
}

static void
draw_labels (WbTimeline *self, cairo_t *cr, PangoLayout *text, const GdkRGBA *fg)
{
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
  pango_layout_set_text (text, _ ("Regions"), -1);
  cairo_move_to (cr, 6, AXIS_H + 6);
  pango_cairo_show_layout (cr, text);
  /* TRANSLATORS: a timeline track: the host's calls that launched the kernels */
  pango_layout_set_text (text, _ ("Calls"), -1);
  cairo_move_to (cr, 6, AXIS_H + ROW_H + 6);
  pango_cairo_show_layout (cr, text);
  for (guint s = 0; s < self->streams->len; s++)
    {
      /* TRANSLATORS: a timeline row: CUDA stream number */
      g_autofree char *label = g_strdup_printf (_ ("Stream %u"), g_array_index (self->streams, guint32, s));

      pango_layout_set_text (text, label, -1);
      cairo_move_to (cr, 6, AXIS_H + ROW_H * (s + TRACKS_ABOVE) + 6);
      pango_cairo_show_layout (cr, text);
    }
}

/* a box from x0 to x1 on the track at @y, its label clipped to it when there is room */
static void
draw_box (cairo_t *cr, PangoLayout *text, double x0, double x1, double y, const double *rgb, const char *label, gboolean framed, double frame)
{
  cairo_rectangle (cr, x0, y, x1 - x0, ROW_H - 6);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_fill (cr);
  if (framed)
    {
      cairo_rectangle (cr, x0 + 0.5, y + 0.5, MAX (x1 - x0 - 1, 1), ROW_H - 7);
      cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
      cairo_set_line_width (cr, frame);
      cairo_stroke (cr);
    }
  if (x1 - x0 > 40 && label != NULL)
    {
      cairo_save (cr);
      cairo_rectangle (cr, x0, y, x1 - x0, ROW_H - 6);
      cairo_clip (cr);
      pango_layout_set_text (text, label, -1);
      cairo_set_source_rgb (cr, 0.05, 0.05, 0.05);
      cairo_move_to (cr, MAX (x0, LEFT_W) + 3, y + 3);
      pango_cairo_show_layout (cr, text);
      cairo_restore (cr);
    }
}

static void
draw_spans (WbTimeline *self, cairo_t *cr, PangoLayout *text, GArray *spans, int track, const char *region, int width)
{
  for (guint i = 0; i < spans->len; i++)
    {
      Span  *sp = &g_array_index (spans, Span, i);
      double x0 = time_to_x (self, sp->start), x1 = MAX (time_to_x (self, sp->end), x0 + 1);
      double rgb[3];

      if (x1 < LEFT_W || x0 > width)
        continue;
      region_color (sp->region, rgb);
      for (int c = 0; c < 3; c++)
        rgb[c] *= track == 0 ? 0.8 : 0.9;
      draw_box (cr, text, x0, x1, AXIS_H + ROW_H * track + 3, rgb, sp->region, track == 0 && g_strcmp0 (sp->region, region) == 0, 2);
    }
}

static void
draw_cb (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  WbTimeline  *self = data;
  const char  *region = self->document ? wb_document_get_region (self->document) : NULL;
  PangoLayout *text = pango_cairo_create_layout (cr);
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Sans 8");
  GdkRGBA fg;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  pango_layout_set_font_description (text, font);
  if (self->kernels->len == 0 || self->ns_per_px <= 0)
    {
      g_object_unref (text);
      return;
    }
  draw_axis (self, cr, text, &fg, width, height);
  draw_labels (self, cr, text, &fg);
  cairo_rectangle (cr, LEFT_W, 0, width - LEFT_W, height);
  cairo_clip (cr);
  draw_spans (self, cr, text, self->spans, 0, region, width);
  draw_spans (self, cr, text, self->calls, 1, region, width);
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      double                x0 = time_to_x (self, k->start_ns - self->t0);
      double                x1 = MAX (time_to_x (self, k->end_ns - self->t0), x0 + 1);
      double                rgb[3];

      if (x1 < LEFT_W || x0 > width)
        continue;
      region_color (k->region, rgb);
      draw_box (cr, text, x0, x1, AXIS_H + ROW_H * (stream_row (self, k->stream) + TRACKS_ABOVE) + 3, rgb, x1 - x0 > 50 ? k->name : NULL,
                (int) i == self->selected || (region != NULL && g_strcmp0 (k->region, region) == 0), (int) i == self->selected ? 2.5 : 1.2);
    }
  if (self->sel_to >= 0)
    {
      double x0 = time_to_x (self, self->sel_from), x1 = time_to_x (self, self->sel_to);

      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), height);
      cairo_set_source_rgba (cr, 0.208, 0.518, 0.894, 0.15);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, 0.208, 0.518, 0.894, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, floor (x0) + 0.5, 0);
      cairo_line_to (cr, floor (x0) + 0.5, height);
      cairo_move_to (cr, floor (x1) + 0.5, 0);
      cairo_line_to (cr, floor (x1) + 0.5, height);
      cairo_stroke (cr);
    }
  g_object_unref (text);
}

static int
kernel_at (WbTimeline *self, double x, double y)
{
  int    row = (int) floor ((y - AXIS_H) / ROW_H) - TRACKS_ABOVE;
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

/* -- the selected range and its statistics -------------------------------------------------------- */

static void
append_rows (GString *s, const char *title, GPtrArray *rows, gint64 span)
{
  g_string_append_printf (s, "\n<b>%s</b>\n", title);
  /* TRANSLATORS: the columns of the range statistics; keep the widths */
  g_string_append_printf (s, "<tt>%-28s %10s %7s %8s</tt>\n", _ ("Name"), _ ("ms"), _ ("Share"), _ ("Kernels"));
  for (guint i = 0; i < rows->len && i < 12; i++)
    {
      const WbAggregateRow *row = rows->pdata[i];
      g_autofree char      *name = g_markup_escape_text (row->key, -1);
      g_autofree char      *cut = g_utf8_strlen (name, -1) > 28 ? g_utf8_substring (name, 0, 27) : NULL;

      g_string_append_printf (s, "<tt>%-28s %10.4f %6.1f%% %8u</tt>\n", cut ? cut : name, row->time_ns / 1e6,
                              span > 0 ? 100.0 * row->time_ns / span : 0, row->kernels);
    }
  if (rows->len > 12)
    /* TRANSLATORS: more rows than shown in the range statistics */
    g_string_append_printf (s, _ ("… and %u more\n"), rows->len - 12);
}

static void
update_stats (WbTimeline *self)
{
  g_autoptr (GString) s = g_string_new (NULL);

  if (self->range == NULL)
    {
      gtk_label_set_markup (self->stats, self->kernels->len > 0 ? _ ("Drag across the tracks to select a range and see what ran in it.") : "");
      return;
    }
  /* TRANSLATORS: range statistics: start, end and length in ms */
  g_string_append_printf (s, _ ("<b>Range</b> %.4f – %.4f ms (%.4f ms)\n"), self->range->from_ns / 1e6, self->range->to_ns / 1e6,
                          (self->range->to_ns - self->range->from_ns) / 1e6);
  /* TRANSLATORS: range statistics: kernels, their time, the time the device was busy */
  g_string_append_printf (s, _ ("%u kernels · kernel time %.4f ms · busy %.4f ms (%.0f%%)\n"), self->range->kernels,
                          self->range->kernel_ns / 1e6, self->range->busy_ns / 1e6,
                          self->range->to_ns > self->range->from_ns ? 100.0 * self->range->busy_ns / (self->range->to_ns - self->range->from_ns) : 0);
  append_rows (s, _ ("By region"), self->range->by_region, self->range->kernel_ns);
  append_rows (s, _ ("By symbol"), self->range->by_symbol, self->range->kernel_ns);
  gtk_label_set_markup (self->stats, s->str);
}

void
wb_timeline_select_range (WbTimeline *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (WB_IS_TIMELINE (self));

  g_clear_pointer (&self->range, wb_range_stats_free);
  self->sel_from = MIN (from_ns, to_ns);
  self->sel_to = MAX (from_ns, to_ns);
  if (to_ns < 0 || from_ns < 0 || self->kernels->len == 0)
    self->sel_to = -1;
  else
    self->range = wb_range_stats_new (wb_document_get_run (self->document), run_trace (self), self->sel_from, self->sel_to);
  update_stats (self);
  gtk_widget_queue_draw (self->area);
}

const WbRangeStats *
wb_timeline_get_range_stats (WbTimeline *self)
{
  return self->range;
}

const char *
wb_timeline_get_stats_text (WbTimeline *self)
{
  return gtk_label_get_text (self->stats);
}

void
wb_timeline_get_visible_range (WbTimeline *self, double *from_ns, double *to_ns)
{
  *from_ns = x_to_time (self, LEFT_W);
  *to_ns = x_to_time (self, MAX (gtk_widget_get_width (self->area), LEFT_W + 1));
}

guint
wb_timeline_get_n_calls (WbTimeline *self)
{
  return self->calls->len;
}

/* -- input ---------------------------------------------------------------------------------------- */

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WbTimeline *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (self->area);
  self->panning = (mods & GDK_SHIFT_MASK) || gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_MIDDLE;
  self->drag_offset = self->offset_ns;
  self->drag_x = x;
}

void
wb_timeline_drag (WbTimeline *self, double x0, double x1)
{
  double t0 = x_to_time (self, MAX (x0, LEFT_W)), t1 = x_to_time (self, MAX (x1, LEFT_W));

  g_return_if_fail (WB_IS_TIMELINE (self));
  wb_timeline_select_range (self, (gint64) MAX (MIN (t0, t1), 0), (gint64) MIN (MAX (t0, t1), self->t1 - self->t0));
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WbTimeline *self)
{
  if (self->panning)
    {
      self->offset_ns = self->drag_offset - dx * self->ns_per_px;
      self->user_view = TRUE;
      gtk_widget_queue_draw (self->area);
    }
  else if (fabs (dx) > 4)
    wb_timeline_drag (self, self->drag_x, self->drag_x + dx);
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

static void
pan (WbTimeline *self, double px)
{
  self->offset_ns += px * self->ns_per_px;
  self->user_view = TRUE;
  gtk_widget_queue_draw (self->area);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, WbTimeline *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (mods & GDK_SHIFT_MASK)
    pan (self, 40 * (dy + dx));
  else if (dx != 0)
    pan (self, 40 * dx);
  else
    zoom_at (self, pow (1.2, dy), MAX (self->pointer_x, LEFT_W));
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller, double x, double y, WbTimeline *self)
{
  self->pointer_x = x;
}

/* zoom about the pointer when it is over the tracks (Perfetto's W/S), else about the middle */
static void
zoom_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbTimeline *self = WB_TIMELINE (widget);
  double      w = gtk_widget_get_width (self->area);
  double      x = self->pointer_x > LEFT_W && self->pointer_x < w ? self->pointer_x : LEFT_W + (w - LEFT_W) / 2;

  if (g_str_equal (action_name, "timeline.zoom-fit"))
    {
      fit (self);
      gtk_widget_queue_draw (self->area);
    }
  else
    zoom_at (self, g_str_equal (action_name, "timeline.zoom-in") ? 0.5 : 2.0, x);
}

static void
pan_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbTimeline *self = WB_TIMELINE (widget);
  double      w = MAX (gtk_widget_get_width (self->area) - LEFT_W, 100);

  pan (self, (g_str_equal (action_name, "timeline.pan-left") ? -0.2 : 0.2) * w);
}

static void
clear_range_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  wb_timeline_select_range (WB_TIMELINE (widget), 0, -1);
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
  g_clear_pointer (&self->calls, g_array_unref);
  g_clear_pointer (&self->range, wb_range_stats_free);

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
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-range", NULL, clear_range_action);
  /* Perfetto's keys */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-range", NULL);
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
  GtkWidget          *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget          *side = gtk_scrolled_window_new ();
  GtkGesture         *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
  self->streams = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->calls = g_array_new (FALSE, FALSE, sizeof (Span));
  self->selected = -1;
  self->sel_to = -1;
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
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
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
  /* the tracks, and beside them the range's statistics: a pane the user resizes */
  self->stats = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->stats, 0);
  gtk_label_set_yalign (self->stats, 0);
  gtk_label_set_wrap (self->stats, FALSE);
  gtk_label_set_selectable (self->stats, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->stats), 8);
  gtk_widget_set_margin_top (GTK_WIDGET (self->stats), 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (side), GTK_WIDGET (self->stats));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (side), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_paned_set_start_child (GTK_PANED (paned), self->area);
  gtk_paned_set_end_child (GTK_PANED (paned), side);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), TRUE);
  gtk_widget_set_size_request (side, 360, -1);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_widget_set_parent (paned, GTK_WIDGET (self));
}
