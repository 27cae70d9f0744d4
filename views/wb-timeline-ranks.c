/* wb-timeline-ranks.c — WbTimeline for a multi-GPU run: a group of tracks per rank (its regions, then one
 * per stream) on one clock, and the selected range's compute, communication and overlap per rank
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ranks of one host share CLOCK_MONOTONIC: rank r's kernel times plus clock_origin_ns(r) are on one
 * clock. The timeline shifts each rank's kernels by clock_origin_ns(r) minus the smallest origin of the
 * ranks; when a rank has no origin (0), no rank is shifted and each starts at its own clock 0. */
#include "config.h"

#include <glib/gi18n.h>

#include "wb-timeline-private.h"

void
_wb_timeline_build_group (WbTimeline *self, GPtrArray *runs)
{
  gboolean aligned = runs->len > 0;
  gint64   origin = G_MAXINT64;

  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun *run = runs->pdata[i];

      if (run->clock_origin_ns == 0)
        aligned = FALSE;
      origin = MIN (origin, run->clock_origin_ns);
    }
  self->group_runs = g_ptr_array_copy (runs, NULL, NULL);
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun         *run = runs->pdata[i];
      gint64               offset = aligned ? run->clock_origin_ns - origin : 0;
      WbTrack              regions = { WB_TRACK_REGIONS, run->rank, 0 };
      g_autofree gboolean *comm = run->kernels != NULL ? wb_run_dup_communication_flags (run) : NULL;

      g_array_append_val (self->group_offset, offset);
      g_array_append_val (self->tracks, regions);
      for (guint k = 0; comm != NULL && k < run->kernels->len; k++)
        _wb_timeline_add_kernel (self, run->kernels->pdata[k], offset, run->rank, comm[k]);
    }
}

/* the offset of @run (one of group_runs), 0 when it is not one */
static gint64
offset_of (WbTimeline *self, const WbRun *run)
{
  for (guint i = 0; self->group_runs != NULL && i < self->group_runs->len; i++)
    if (self->group_runs->pdata[i] == run)
      return g_array_index (self->group_offset, gint64, i);
  return 0;
}

void
_wb_timeline_range_on_run (WbTimeline *self, const WbRun *run, gint64 *from, gint64 *to)
{
  /* the run's first kernel, on the timeline's clock */
  gint64 first = wb_run_get_kernel_origin (run) + offset_of (self, run);

  *from = MAX (*from + self->t0 - first, 0);
  *to = MAX (*to + self->t0 - first, *from);
}

/* [from, to) of the selection on @run's own clock (kernel start_ns), for wb_run_measure_comm_range */
static void
range_on_clock (WbTimeline *self, const WbRun *run, gint64 *from, gint64 *to)
{
  gint64 offset = offset_of (self, run);

  *from = self->sel_from + self->t0 - offset;
  *to = self->sel_to + self->t0 - offset;
}

void
_wb_timeline_append_rank_stats (WbTimeline *self, GString *s)
{
  if (self->group_runs == NULL || self->sel_to < 0)
    return;
  /* TRANSLATORS: range statistics of a multi-GPU run: a heading */
  g_string_append_printf (s, "\n<b>%s</b>\n", _ ("By rank"));
  /* TRANSLATORS: the columns of the range statistics by rank; keep the widths */
  g_string_append_printf (s, "<tt>%-6s %10s %10s %10s %10s</tt>\n", _ ("Rank"), _ ("compute"), _ ("comm"), _ ("overlap"),
                          _ ("exposed"));
  for (guint i = 0; i < self->group_runs->len; i++)
    {
      const WbRun *run = self->group_runs->pdata[i];
      gint64       from, to, comm = 0, compute = 0, overlap = 0;

      range_on_clock (self, run, &from, &to);
      wb_run_measure_comm_range (run, from, to, &comm, &compute, &overlap);
      g_string_append_printf (s, "<tt>%-6u %10.4f %10.4f %10.4f %10.4f</tt>\n", run->rank, compute / 1e6, comm / 1e6,
                              overlap / 1e6, (comm - overlap) / 1e6);
    }
  /* TRANSLATORS: under the range statistics by rank: the unit and what the columns are */
  g_string_append_printf (s, "%s\n", _ ("ms in the range: kernels' busy time, communication (NCCL) and both at once"));
}

guint
wb_timeline_get_n_ranks (WbTimeline *self)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), 0);
  return self->group_runs != NULL ? self->group_runs->len : 0;
}

gboolean
wb_timeline_get_rank_stats (WbTimeline *self, guint32 rank, gint64 *compute_ns, gint64 *comm_ns, gint64 *overlap_ns)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), FALSE);
  if (self->group_runs == NULL || self->sel_to < 0)
    return FALSE;
  for (guint i = 0; i < self->group_runs->len; i++)
    {
      const WbRun *run = self->group_runs->pdata[i];
      gint64       from, to;

      if (run->rank != rank)
        continue;
      range_on_clock (self, run, &from, &to);
      wb_run_measure_comm_range (run, from, to, comm_ns, compute_ns, overlap_ns);
      return TRUE;
    }
  return FALSE;
}

gboolean
wb_timeline_kernel_is_communication (WbTimeline *self, guint index)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), FALSE);
  return index < self->kernel_comm->len && g_array_index (self->kernel_comm, gboolean, index);
}

guint32
wb_timeline_get_kernel_rank (WbTimeline *self, guint index)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), 0);
  return index < self->kernel_rank->len ? g_array_index (self->kernel_rank, guint32, index) : 0;
}

guint
wb_timeline_get_n_tracks (WbTimeline *self)
{
  g_return_val_if_fail (WB_IS_TIMELINE (self), 0);
  return self->tracks->len;
}
