/* wb-timeline.c — the selected run's kernels per stream on a zoomable time axis, regions and calls above
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As Nsight Systems and Perfetto: a track of region spans (consecutive kernels of one region in one
 * iteration), a track of the host's calls (consecutive kernels launched by one line of the run's stage,
 * named by its call), a "CUDA API" track per host thread (a GPU run's driver and runtime API calls,
 * wb-timeline-host.c), then one track per stream; beside them, the statistics of the selected range
 * (WbRangeStats: kernels, busy time, time by region and by symbol), in a pane that resizes. Drawn with
 * cairo, culled to the visible time range. Drag selects a range (Shift or the middle button pans), a click
 * selects a kernel's region and line, scroll zooms about the pointer (Shift: pans); keys as Perfetto's:
 * W/S zoom in and out, A/D pan, Escape clears the range. A multi-GPU run (the document's run has a group)
 * shows one group of tracks per rank instead: its regions, then its streams, the ranks aligned on their
 * clock origins, communication kernels and collective calls in the collectives' colour
 * (wb-timeline-ranks.c). */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "wb-timeline-private.h"

#define AXIS_H WB_TIMELINE_AXIS_H
#define ROW_H WB_TIMELINE_ROW_H
#define LEFT_W WB_TIMELINE_LEFT_W

typedef WbTimelineSpan Span;

G_DEFINE_FINAL_TYPE (WbTimeline, wb_timeline, GTK_TYPE_WIDGET)

static void
region_color (const char *region, double *rgb)
{
  guint h = region ? g_str_hash (region) : 0;
  float hue = (h % 360) / 360.0f, s = region ? 0.45f : 0.0f, v = region ? 0.85f : 0.7f, r, g, b;

  gtk_hsv_to_rgb (hue, s, v, &r, &g, &b);
  rgb[0] = r, rgb[1] = g, rgb[2] = b;
}

/* the row of @rank's stream @stream, added at the end when new (a group adds each rank's rows in order) */
static int
stream_track (WbTimeline *self, guint32 rank, guint32 stream)
{
  WbTrack track = { WB_TRACK_STREAM, rank, stream };

  for (guint i = 0; i < self->tracks->len; i++)
    {
      const WbTrack *t = &g_array_index (self->tracks, WbTrack, i);

      if (t->kind == WB_TRACK_STREAM && t->rank == rank && t->stream == stream)
        return (int) i;
    }
  g_array_append_val (self->tracks, track);
  self->n_streams++;
  return (int) self->tracks->len - 1;
}

void
_wb_timeline_add_kernel (WbTimeline *self, const WbKernelRecord *k, gint64 offset, guint32 rank, gboolean communication)
{
  WbKernelRecord *copy = wb_kernel_record_copy (k);
  int             track = stream_track (self, rank, k->stream);

  copy->start_ns += offset;
  copy->end_ns += offset;
  g_ptr_array_add (self->kernels, copy);
  g_array_append_val (self->kernel_track, track);
  g_array_append_val (self->kernel_comm, communication);
  g_array_append_val (self->kernel_rank, rank);
  self->t0 = MIN (self->t0, copy->start_ns);
  self->t1 = MAX (self->t1, copy->end_ns);
}

void
_wb_timeline_fit (WbTimeline *self)
{
  double w = gtk_widget_get_width (self->area) - LEFT_W - 10;

  self->fitted_width = gtk_widget_get_width (self->area);
  self->user_view = FALSE;
  self->offset_ns = self->lo; /* host calls may start before the first kernel */
  self->ns_per_px = MAX (1.0, (self->t1 - self->t0 - self->lo) / MAX (w, 100));
}

/* the run's stage (what kernel lines refer to), or NULL */
static WbTrace *
run_trace (WbTimeline *self)
{
  int entry = self->document ? wb_document_get_run_entry (self->document) : -1;

  return entry >= 0 ? wb_trace_set_get_entry (wb_document_get_trace_set (self->document), entry)->trace : NULL;
}

/* consecutive kernels of one iteration (and one rank) grouped by region (@calls FALSE: each on its rank's
 * regions row) or by line (TRUE: the calls row) */
static void
collect_spans (WbTimeline *self, GArray *out, gboolean calls)
{
  g_autoptr (GHashTable) names = g_hash_table_new (NULL, NULL);
  WbTrace *trace = calls ? run_trace (self) : NULL;
  Span     cur = { NULL, 0, 0, 0, 0, FALSE };
  guint32  iteration = G_MAXUINT32, rank = G_MAXUINT32;

  for (guint i = 0; trace != NULL && i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && trace->body[i]->name)
      g_hash_table_insert (names, GUINT_TO_POINTER (wb_trace_get_bsym_line (trace, trace->body[i])), (gpointer) trace->body[i]->name);
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      const char           *key = calls ? g_hash_table_lookup (names, GUINT_TO_POINTER (k->trace_line)) : k->region;
      guint32               k_rank = g_array_index (self->kernel_rank, guint32, i);

      if (calls && key == NULL && k->trace_line != 0)
        key = k->region; /* a line of another trace (the backward's) */
      if (cur.region != NULL && (g_strcmp0 (cur.region, key) != 0 || cur.line != (calls ? k->trace_line : 0) || k->iteration != iteration || k_rank != rank))
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
          cur.end = 0;
          cur.track = calls ? 1 : 0;
          cur.collective = !calls && g_array_index (self->kernel_comm, gboolean, i) && k->region != NULL;
          for (guint t = 0; !calls && t < self->tracks->len; t++)
            if (g_array_index (self->tracks, WbTrack, t).kind == WB_TRACK_REGIONS && g_array_index (self->tracks, WbTrack, t).rank == k_rank)
              cur.track = (int) t;
          iteration = k->iteration;
          rank = k_rank;
        }
      cur.end = MAX (cur.end, k->end_ns - self->t0);
    }
  if (cur.region != NULL)
    g_array_append_val (out, cur);
}

/* one run: a regions track, a calls track, then a track per stream */
static void
build_run (WbTimeline *self, const WbRun *run)
{
  WbTrack              regions = { WB_TRACK_REGIONS, 0, 0 }, calls = { WB_TRACK_CALLS, 0, 0 };
  g_autofree gboolean *comm = run != NULL && run->kernels != NULL ? wb_run_dup_communication_flags (run) : NULL;

  g_array_append_val (self->tracks, regions);
  g_array_append_val (self->tracks, calls);
  _wb_timeline_build_host (self, run); /* its rows above the streams' */
  for (guint i = 0; comm != NULL && i < run->kernels->len; i++)
    _wb_timeline_add_kernel (self, run->kernels->pdata[i], 0, 0, comm[i]);
}

static void
rebuild (WbTimeline *self)
{
  const WbRun *run = self->document ? wb_document_get_run (self->document) : NULL;
  g_autoptr (GPtrArray) group = self->document && run && run->group ? wb_document_get_group_runs (self->document, run->group) : NULL;

  g_ptr_array_set_size (self->kernels, 0);
  g_array_set_size (self->kernel_track, 0);
  g_array_set_size (self->kernel_comm, 0);
  g_array_set_size (self->kernel_rank, 0);
  g_array_set_size (self->tracks, 0);
  g_array_set_size (self->spans, 0);
  g_array_set_size (self->calls, 0);
  g_array_set_size (self->host, 0);
  g_array_set_size (self->group_offset, 0);
  g_clear_pointer (&self->group_runs, g_ptr_array_unref);
  self->n_streams = 0;
  self->selected = -1;
  self->t0 = G_MAXINT64;
  self->t1 = G_MININT64;
  if (group != NULL && group->len > 1)
    _wb_timeline_build_group (self, group);
  else
    build_run (self, run);
  if (self->kernels->len == 0)
    self->t0 = self->t1 = 0;
  _wb_timeline_place_host (self);
  collect_spans (self, self->spans, FALSE);
  if (self->group_runs == NULL)
    collect_spans (self, self->calls, TRUE);
  _wb_timeline_fit (self);
  {
    g_autofree char *text = NULL;

    if (self->kernels->len == 0)
      text = g_strdup (_ ("No run yet: profile to see its kernels"));
    else if (self->group_runs != NULL)
      /* TRANSLATORS: timeline status of a multi-GPU run: ranks, kernels, streams, milliseconds */
      text = g_strdup_printf (_ ("%u ranks · %u kernels on %u streams · %.3f ms"), self->group_runs->len, self->kernels->len,
                              self->n_streams, (self->t1 - self->t0) / 1e6);
    else
      /* TRANSLATORS: timeline status: kernels, streams, region spans, milliseconds */
      text = g_strdup_printf (_ ("%u kernels on %u streams · %u region spans · %.3f ms"), self->kernels->len,
                              self->n_streams, self->spans->len, (self->t1 - self->t0 - self->lo) / 1e6);
    if (self->host->len > 0)
      {
        /* TRANSLATORS: appended to the timeline status: the run's CUDA API calls on the host */
        g_autofree char *host = g_strdup_printf (_ (" · %u host calls"), self->host->len);
        char            *both = g_strconcat (text, host, NULL);

        g_free (text);
        text = both;
      }
    gtk_label_set_text (self->info, text);
  }
  gtk_widget_set_size_request (self->area, -1, (int) (AXIS_H + ROW_H * self->tracks->len + 10));
  wb_timeline_select_range (self, 0, -1);
  gtk_widget_queue_draw (self->area);
}

double
_wb_timeline_time_to_x (WbTimeline *self, double ns)
{
  return LEFT_W + (ns - self->offset_ns) / self->ns_per_px;
}

double
_wb_timeline_x_to_time (WbTimeline *self, double x)
{
  return (x - LEFT_W) * self->ns_per_px + self->offset_ns;
}

#define time_to_x _wb_timeline_time_to_x
#define x_to_time _wb_timeline_x_to_time

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
  for (guint i = 0; i < self->tracks->len; i++)
    {
      const WbTrack   *t = &g_array_index (self->tracks, WbTrack, i);
      g_autofree char *label = _wb_timeline_track_label (self, i);

      pango_layout_set_text (text, label, -1);
      cairo_move_to (cr, 6, AXIS_H + ROW_H * i + 6);
      pango_cairo_show_layout (cr, text);
      if (self->group_runs != NULL && t->kind == WB_TRACK_REGIONS && i > 0)
        {
          /* a line above each rank's group of tracks */
          cairo_move_to (cr, 0, AXIS_H + ROW_H * i + 0.5);
          cairo_line_to (cr, LEFT_W, AXIS_H + ROW_H * i + 0.5);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
        }
    }
}

/* the colour of a span, or of a kernel: the collectives' own for communication, else by region */
static void
fill_color (const char *region, gboolean collective, double *rgb)
{
  static const double shade[3] = { WB_COLLECTIVE_RGB };

  if (collective)
    {
      rgb[0] = shade[0], rgb[1] = shade[1], rgb[2] = shade[2];
      return;
    }
  region_color (region, rgb);
}

/* a box from x0 to x1 on the track at @y, its label clipped to it when there is room */
static void
draw_box (cairo_t *cr, PangoLayout *text, double x0, double x1, double y, double h, const double *rgb, const char *label, gboolean framed, double frame)
{
  cairo_rectangle (cr, x0, y, x1 - x0, h);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_fill (cr);
  if (framed)
    {
      cairo_rectangle (cr, x0 + 0.5, y + 0.5, MAX (x1 - x0 - 1, 1), h - 1);
      cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
      cairo_set_line_width (cr, frame);
      cairo_stroke (cr);
    }
  if (x1 - x0 > 40 && label != NULL)
    {
      cairo_save (cr);
      cairo_rectangle (cr, x0, y, x1 - x0, h);
      cairo_clip (cr);
      pango_layout_set_text (text, label, -1);
      cairo_set_source_rgb (cr, 0.05, 0.05, 0.05);
      cairo_move_to (cr, MAX (x0, LEFT_W) + 3, y + 3);
      pango_cairo_show_layout (cr, text);
      cairo_restore (cr);
    }
}

static void
draw_spans (WbTimeline *self, cairo_t *cr, PangoLayout *text, GArray *spans, const char *region, int width)
{
  /* two passes: the collectives' spans last, over the others */
  for (guint i = 0; i < 2 * spans->len; i++)
    {
      Span    *sp = &g_array_index (spans, Span, i % spans->len);
      double   x0 = time_to_x (self, sp->start), x1 = MAX (time_to_x (self, sp->end), x0 + 1);
      double   rgb[3];
      gboolean regions = g_array_index (self->tracks, WbTrack, sp->track).kind == WB_TRACK_REGIONS;

      if (x1 < LEFT_W || x0 > width || sp->collective != (i >= spans->len))
        continue;
      fill_color (sp->region, sp->collective, rgb);
      for (int c = 0; c < 3; c++)
        rgb[c] *= regions ? 0.8 : 0.9;
      /* a collective runs beside the computation: its span takes the lower half of the row */
      draw_box (cr, text, x0, x1, AXIS_H + ROW_H * sp->track + 3 + (sp->collective ? (ROW_H - 6) / 2 : 0),
                sp->collective ? (ROW_H - 6) / 2 : ROW_H - 6, rgb, sp->region, regions && g_strcmp0 (sp->region, region) == 0, 2);
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
  draw_spans (self, cr, text, self->spans, region, width);
  draw_spans (self, cr, text, self->calls, region, width);
  _wb_timeline_draw_host (self, cr, text, width);
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      double                x0 = time_to_x (self, k->start_ns - self->t0);
      double                x1 = MAX (time_to_x (self, k->end_ns - self->t0), x0 + 1);
      double                rgb[3];

      if (x1 < LEFT_W || x0 > width)
        continue;
      fill_color (k->region, g_array_index (self->kernel_comm, gboolean, i), rgb);
      draw_box (cr, text, x0, x1, AXIS_H + ROW_H * g_array_index (self->kernel_track, int, i) + 3, ROW_H - 6, rgb, x1 - x0 > 50 ? k->name : NULL,
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

int
_wb_timeline_kernel_at (WbTimeline *self, double x, double y)
{
  int    row = (int) floor ((y - AXIS_H) / ROW_H);
  double t;
  int    best = -1;
  double best_d = 4 * self->ns_per_px; /* within 4 px */

  if (row < 0 || row >= (int) self->tracks->len || x < LEFT_W || g_array_index (self->tracks, WbTrack, row).kind != WB_TRACK_STREAM)
    return -1;
  t = x_to_time (self, x) + self->t0;
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WbKernelRecord *k = self->kernels->pdata[i];
      double                d;

      if (g_array_index (self->kernel_track, int, i) != row)
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
  int              i = _wb_timeline_kernel_at (self, x, y);
  g_autofree char *text = NULL;

  if (i < 0 && (i = _wb_timeline_host_call_at (self, x, y)) >= 0)
    text = wb_timeline_get_host_call_tooltip (self, i);
  else if (i < 0)
    return FALSE;
  else
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
  if (self->host->len > 0)
    /* TRANSLATORS: range statistics: the host's CUDA API calls, those that launched a kernel, their time */
    g_string_append_printf (s, _ ("%u host calls (%u launches) · %.4f ms in the CUDA API\n"), self->range->host_calls,
                            self->range->host_launches, self->range->host_call_ns / 1e6);
  _wb_timeline_append_rank_stats (self, s);
  append_rows (s, _ ("By region"), self->range->by_region, self->range->kernel_ns);
  append_rows (s, _ ("By symbol"), self->range->by_symbol, self->range->kernel_ns);
  gtk_label_set_markup (self->stats, s->str);
}

void
wb_timeline_select_range (WbTimeline *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (WB_IS_TIMELINE (self));

  g_clear_pointer (&self->range, wb_range_stats_free);
  self->sel_from = MAX (MIN (from_ns, to_ns), self->lo);
  self->sel_to = MAX (from_ns, to_ns);
  if (to_ns < 0 || from_ns < self->lo || self->kernels->len == 0)
    self->sel_to = -1;
  else
    {
      /* the shown run's kernels in the range: for a group, the range on that rank's own clock */
      const WbRun *run = wb_document_get_run (self->document);
      gint64       from = self->sel_from, to = self->sel_to;

      if (self->group_runs != NULL)
        _wb_timeline_range_on_run (self, run, &from, &to);
      self->range = wb_range_stats_new (run, run_trace (self), from, to);
    }
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

const char *
wb_timeline_get_status_text (WbTimeline *self)
{
  return gtk_label_get_text (self->info);
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

guint
wb_timeline_get_n_kernels (WbTimeline *self)
{
  return self->kernels->len;
}

guint
wb_timeline_get_n_streams (WbTimeline *self)
{
  return self->n_streams;
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
    _wb_timeline_fit (self);
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
  g_clear_pointer (&self->kernel_track, g_array_unref);
  g_clear_pointer (&self->kernel_comm, g_array_unref);
  g_clear_pointer (&self->kernel_rank, g_array_unref);
  g_clear_pointer (&self->tracks, g_array_unref);
  g_clear_pointer (&self->group_runs, g_ptr_array_unref);
  g_clear_pointer (&self->group_offset, g_array_unref);
  g_clear_pointer (&self->spans, g_array_unref);
  g_clear_pointer (&self->calls, g_array_unref);
  g_clear_pointer (&self->host, g_array_unref);
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
  _wb_timeline_class_init_input (widget_class);
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
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *side = gtk_scrolled_window_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
  self->kernel_track = g_array_new (FALSE, FALSE, sizeof (int));
  self->kernel_comm = g_array_new (FALSE, FALSE, sizeof (gboolean));
  self->kernel_rank = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->tracks = g_array_new (FALSE, FALSE, sizeof (WbTrack));
  self->group_offset = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->calls = g_array_new (FALSE, FALSE, sizeof (Span));
  self->host = g_array_new (FALSE, FALSE, sizeof (WbTimelineHostCall));
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
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  _wb_timeline_init_input (self);
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
