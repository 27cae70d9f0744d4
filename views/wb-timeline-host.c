/* wb-timeline-host.c — WbTimeline's CUDA API tracks: one run's host calls (WbRun.host_calls, CUPTI's
 * driver and runtime API records), a track per host thread above the streams, as Nsight Systems' "CUDA API"
 * rows
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A traced iteration of a big program has tens of thousands of calls, most a few µs long. Drawing finds the
 * first call that can reach the visible range by binary search on the start (calls are in start order; the
 * longest call is the margin) and stops at the first that starts after it; on each track a call that would
 * fall inside the pixel column already filled is skipped, so a zoomed-out view costs a cairo rectangle per
 * pixel, not per call. A launch (a call joined by correlation to a kernel) is drawn in its kernel's region
 * colour, any other call grey. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "wb-timeline-private.h"

typedef WbTimelineHostCall HostCall;

void
_wb_timeline_build_host (WbTimeline *self, const WbRun *run)
{
  g_autoptr (GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_set_size (self->host, 0);
  self->host_max_ns = 0;
  for (guint i = 0; run != NULL && i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];
      HostCall          h = { g_intern_string (c->name), c->start_ns, c->end_ns, -1, c->kernel, c->n_kernels, c->thread, c->iteration, c->correlation_id };
      guint             t;

      for (t = 0; t < threads->len && g_array_index (threads, guint32, t) != c->thread; t++)
        ;
      if (t == threads->len)
        {
          WbTrack track = { WB_TRACK_HOST, 0, t, c->thread };

          g_array_append_val (threads, c->thread);
          g_array_append_val (self->tracks, track);
        }
      for (guint r = 0; r < self->tracks->len; r++)
        if (g_array_index (self->tracks, WbTrack, r).kind == WB_TRACK_HOST && g_array_index (self->tracks, WbTrack, r).stream == t)
          h.track = (int) r;
      if (h.kernel >= (gint32) run->kernels->len)
        h.kernel = -1;
      self->host_max_ns = MAX (self->host_max_ns, h.end - h.start);
      g_array_append_val (self->host, h);
    }
}

void
_wb_timeline_place_host (WbTimeline *self)
{
  self->lo = 0;
  for (guint i = 0; i < self->host->len; i++)
    {
      HostCall *h = &g_array_index (self->host, HostCall, i);

      h->start -= self->t0;
      h->end -= self->t0;
      self->lo = MIN (self->lo, h->start);
      self->t1 = MAX (self->t1, h->end + self->t0);
    }
}

/* the first call that may end at or after @t (ns from t0) */
static guint
first_from (WbTimeline *self, double t)
{
  guint lo = 0, hi = self->host->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) g_array_index (self->host, HostCall, mid).start < t - (double) self->host_max_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
_wb_timeline_draw_host (WbTimeline *self, cairo_t *cr, PangoLayout *text, int width)
{
  double             t_from = _wb_timeline_x_to_time (self, WB_TIMELINE_LEFT_W), t_to = _wb_timeline_x_to_time (self, width);
  g_autofree double *filled = g_new0 (double, self->tracks->len + 1); /* per track: the right edge drawn so far */

  for (guint r = 0; r < self->tracks->len; r++)
    filled[r] = -G_MAXDOUBLE;
  for (guint i = first_from (self, t_from); i < self->host->len; i++)
    {
      const HostCall *h = &g_array_index (self->host, HostCall, i);
      double          x0, x1, y = WB_TIMELINE_AXIS_H + WB_TIMELINE_ROW_H * h->track + 5, rgb[3] = { 0.62, 0.62, 0.62 };

      if ((double) h->start > t_to)
        break;
      if ((double) h->end < t_from)
        continue;
      x0 = _wb_timeline_time_to_x (self, h->start);
      x1 = MAX (_wb_timeline_time_to_x (self, h->end), x0 + 1);
      if (x1 <= filled[h->track] + 0.5)
        continue; /* inside the pixel column already drawn on this track */
      x0 = MAX (x0, filled[h->track]);
      filled[h->track] = x1;
      if (h->kernel >= 0)
        {
          const WbKernelRecord *k = self->kernels->pdata[h->kernel];
          guint                 hash = k->region ? g_str_hash (k->region) : 0;
          float                 r, g, b;

          gtk_hsv_to_rgb ((hash % 360) / 360.0f, k->region ? 0.35f : 0.0f, 0.92f, &r, &g, &b);
          rgb[0] = r, rgb[1] = g, rgb[2] = b;
        }
      cairo_rectangle (cr, x0, y, x1 - x0, WB_TIMELINE_ROW_H - 10);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_fill (cr);
      if (x1 - x0 > 50)
        {
          cairo_save (cr);
          cairo_rectangle (cr, x0, y, x1 - x0, WB_TIMELINE_ROW_H - 10);
          cairo_clip (cr);
          pango_layout_set_text (text, h->name, -1);
          cairo_set_source_rgb (cr, 0.05, 0.05, 0.05);
          cairo_move_to (cr, MAX (x0, WB_TIMELINE_LEFT_W) + 3, y);
          pango_cairo_show_layout (cr, text);
          cairo_restore (cr);
        }
    }
}

int
_wb_timeline_host_call_at (WbTimeline *self, double x, double y)
{
  int    row = (int) floor ((y - WB_TIMELINE_AXIS_H) / WB_TIMELINE_ROW_H);
  double t, best_d = 4 * self->ns_per_px; /* within 4 px */
  int    best = -1;

  if (row < 0 || row >= (int) self->tracks->len || x < WB_TIMELINE_LEFT_W || g_array_index (self->tracks, WbTrack, row).kind != WB_TRACK_HOST)
    return -1;
  t = _wb_timeline_x_to_time (self, x);
  for (guint i = first_from (self, t - best_d); i < self->host->len; i++)
    {
      const HostCall *h = &g_array_index (self->host, HostCall, i);
      double          d;

      if ((double) h->start > t + best_d)
        break;
      if (h->track != row)
        continue;
      d = t < h->start ? h->start - t : t > h->end ? t - h->end
                                                   : 0;
      if (d <= best_d)
        best = (int) i, best_d = d;
    }
  return best;
}

char *
_wb_timeline_track_label (WbTimeline *self, guint row)
{
  const WbTrack *t = &g_array_index (self->tracks, WbTrack, row);
  guint          n_host = 0;

  if (self->group_runs != NULL && t->kind == WB_TRACK_REGIONS)
    /* TRANSLATORS: a timeline track of a multi-GPU run: the regions of one rank */
    return g_strdup_printf (_ ("Rank %u"), t->rank);
  if (self->group_runs != NULL)
    /* TRANSLATORS: a timeline row of a multi-GPU run: rank, CUDA stream number (short: 90 px) */
    return g_strdup_printf (_ ("%u: Stream %u"), t->rank, t->stream);
  if (t->kind == WB_TRACK_REGIONS)
    return g_strdup (_ ("Regions"));
  if (t->kind == WB_TRACK_CALLS)
    /* TRANSLATORS: a timeline track: the host's calls that launched the kernels */
    return g_strdup (_ ("Calls"));
  if (t->kind == WB_TRACK_HOST)
    {
      for (guint i = 0; i < self->tracks->len; i++)
        n_host += g_array_index (self->tracks, WbTrack, i).kind == WB_TRACK_HOST;
      if (n_host == 1)
        /* TRANSLATORS: a timeline track: the host thread's CUDA driver and runtime API calls (short: 90 px) */
        return g_strdup (_ ("CUDA API"));
      /* TRANSLATORS: a timeline track of one of several host threads: its CUDA API calls (short: 90 px) */
      return g_strdup_printf (_ ("CUDA API %u"), t->stream + 1);
    }
  /* TRANSLATORS: a timeline row: CUDA stream number */
  return g_strdup_printf (_ ("Stream %u"), t->stream);
}

char *
wb_timeline_get_track_label (WbTimeline *self, guint row)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (row < self->tracks->len, NULL);
  return _wb_timeline_track_label (self, row);
}

guint
wb_timeline_get_n_host_calls (WbTimeline *self)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), 0);
  return self->host->len;
}

int
wb_timeline_get_host_call_at (WbTimeline *self, double x, double y)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), -1);
  return _wb_timeline_host_call_at (self, x, y);
}

void
wb_timeline_get_host_call_position (WbTimeline *self, guint index, double *x, double *y)
{
  const HostCall *h;

  g_return_if_fail (WB_IS_TIMELINE (self) && index < self->host->len);
  h = &g_array_index (self->host, HostCall, index);
  *x = _wb_timeline_time_to_x (self, (h->start + h->end) / 2.0);
  *y = WB_TIMELINE_AXIS_H + WB_TIMELINE_ROW_H * (h->track + 0.5);
}

char *
wb_timeline_get_host_call_tooltip (WbTimeline *self, guint index)
{
  const HostCall *h;
  g_autoptr (GString) s = g_string_new (NULL);

  g_return_val_if_fail (WB_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (index < self->host->len, NULL);
  h = &g_array_index (self->host, HostCall, index);
  /* TRANSLATORS: a host call's tooltip: its duration in µs */
  g_string_append_printf (s, "%s\n%s: %.3f µs", h->name, _ ("Duration"), (h->end - h->start) / 1e3);
  if (h->kernel >= 0)
    {
      const WbKernelRecord *k = self->kernels->pdata[h->kernel];

      g_string_append_printf (s, "\n%s: %s", _ ("Launched"), k->name);
      if (h->n_kernels > 1)
        /* TRANSLATORS: a host call (a graph launch) that launched more kernels than the one named */
        g_string_append_printf (s, _ (" and %u more"), h->n_kernels - 1);
      g_string_append_printf (s, "\n%s: %s", _ ("Region"), k->region ? k->region : "—");
    }
  g_string_append_printf (s, "\n%s: %u\n%s: %" G_GUINT64_FORMAT "\n%s: %.3f ms\n%s: %u", _ ("Thread"), h->thread, _ ("Correlation"),
                          h->correlation_id, _ ("Start"), h->start / 1e6, _ ("Iteration"), h->iteration);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

const char *
wb_timeline_get_host_call_name (WbTimeline *self, guint index, int *kernel)
{
  const HostCall *h;

  g_return_val_if_fail (WB_IS_TIMELINE (self) && index < self->host->len, NULL);
  h = &g_array_index (self->host, HostCall, index);
  if (kernel != NULL)
    *kernel = h->kernel;
  return h->name;
}
