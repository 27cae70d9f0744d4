/* wb-timeline.h — the selected run's kernels per stream on a zoomable time axis, regions and calls above
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Input (wb-timeline-input.c): a drag across the tracks selects a range (and focuses them); with the
 * tracks focused, W / S zoom in / out 2x about the pointer when it is over the tracks (else about their
 * middle), A / D pan left / right by a fifth of the tracks' width, Escape clears the range. */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-data.h"
#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_TIMELINE (wb_timeline_get_type ())
G_DECLARE_FINAL_TYPE (WbTimeline, wb_timeline, WB, TIMELINE, GtkWidget)

GtkWidget *wb_timeline_new (void);
void       wb_timeline_set_document (WbTimeline *self, WbDocument *document);
/* wb_timeline_get_n_kernels: kernels of the latest run drawn; wb_timeline_get_n_streams: their rows. */
guint wb_timeline_get_n_kernels (WbTimeline *self);
guint wb_timeline_get_n_streams (WbTimeline *self);
/* wb_timeline_get_kernel: (transfer none) kernel @index in start order. */
const WbKernelRecord *wb_timeline_get_kernel (WbTimeline *self, guint index);
/* wb_timeline_click_kernel: what a click on kernel @index does: selects its region and line. */
void wb_timeline_click_kernel (WbTimeline *self, guint index);
/* wb_timeline_get_tooltip: (transfer full) the hover text of kernel @index. */
char *wb_timeline_get_tooltip (WbTimeline *self, guint index);
/* wb_timeline_select_range: selects [@from_ns, @to_ns) (ns from the run's first kernel, negative for host
 * calls before it; @to_ns < 0, or @from_ns before the earliest host call, clears it) and shows its
 * statistics beside the tracks. */
void wb_timeline_select_range (WbTimeline *self, gint64 from_ns, gint64 to_ns);
/* wb_timeline_drag: what a drag from widget x @x0 to @x1 across the tracks does: selects that range. */
void wb_timeline_drag (WbTimeline *self, double x0, double x1);
/* wb_timeline_get_range_stats: (transfer none) (nullable) the selected range's statistics. */
const WbRangeStats *wb_timeline_get_range_stats (WbTimeline *self);
/* wb_timeline_get_stats_text: (transfer none) the statistics pane's text. */
const char *wb_timeline_get_stats_text (WbTimeline *self);
/* wb_timeline_get_visible_range: the times (ns from the first kernel) at the tracks' left and right edges. */
void wb_timeline_get_visible_range (WbTimeline *self, double *from_ns, double *to_ns);
/* wb_timeline_get_n_calls: spans on the calls track (consecutive kernels of one line of the run's stage). */
guint wb_timeline_get_n_calls (WbTimeline *self);
/* wb_timeline_get_status_text: (transfer none) the line above the tracks (kernels, streams, spans, length,
 * host calls). */
const char *wb_timeline_get_status_text (WbTimeline *self);
/* wb_timeline_get_track_label: (transfer full) the label of row @row (0 at the top), as drawn. */
char *wb_timeline_get_track_label (WbTimeline *self, guint row);

/* One run's host calls (WbRun.host_calls: the CUDA driver and runtime API calls of a GPU run's traced
 * iterations), on a "CUDA API" track per host thread between the calls track and the streams, in start
 * order. Hovering one shows its tooltip; clicking a launch selects the kernel it launched; the range's
 * statistics count them. None for a multi-GPU run's group. */
/* wb_timeline_get_n_host_calls: the host calls drawn. */
guint wb_timeline_get_n_host_calls (WbTimeline *self);
/* wb_timeline_get_host_call_name: (transfer none) host call @index's function name; *@kernel (nullable) the
 * index (wb_timeline_get_kernel) of the first kernel it launched, or -1. */
const char *wb_timeline_get_host_call_name (WbTimeline *self, guint index, int *kernel);
/* wb_timeline_get_host_call_tooltip: (transfer full) the hover text of host call @index: its name, duration
 * (µs), the kernel it launched and that kernel's region, thread, correlation id, start, iteration. */
char *wb_timeline_get_host_call_tooltip (WbTimeline *self, guint index);
/* wb_timeline_get_host_call_at: the host call under the tracks' point (@x, @y) (widget coordinates of the
 * drawing area, within 4 px), or -1; wb_timeline_get_host_call_position: the middle of host call @index's
 * bar there. */
int  wb_timeline_get_host_call_at (WbTimeline *self, double x, double y);
void wb_timeline_get_host_call_position (WbTimeline *self, guint index, double *x, double *y);

/* A multi-GPU run (the shown run has a group of more than one run): one group of tracks per rank, its
 * regions then its streams, the ranks on one clock (each shifted by its clock_origin_ns minus the
 * smallest; unshifted when a rank has none). The kernels above are then every rank's, rank by rank, their
 * times on that clock; the range is on that clock too, its WbRangeStats the shown rank's. */
/* wb_timeline_get_n_ranks: the ranks drawn; 0 for one run. */
guint wb_timeline_get_n_ranks (WbTimeline *self);
/* wb_timeline_get_n_tracks: rows drawn (regions, calls, streams; per rank for a group). */
guint wb_timeline_get_n_tracks (WbTimeline *self);
/* wb_timeline_get_kernel_rank: the rank of kernel @index (0 for one run). */
guint32 wb_timeline_get_kernel_rank (WbTimeline *self, guint index);
/* wb_timeline_kernel_is_communication: whether kernel @index is drawn as communication (the collectives'
 * colour: wb_kernel_record_is_communication). */
gboolean wb_timeline_kernel_is_communication (WbTimeline *self, guint index);
/* wb_timeline_get_rank_stats: the selected range's computation, communication and overlap of rank @rank's
 * kernels, ns (wb_run_measure_comm_range on its clock); each out pointer nullable. FALSE without a range,
 * for one run, or for a rank not drawn. The statistics pane shows them per rank ("By rank"). */
gboolean wb_timeline_get_rank_stats (WbTimeline *self, guint32 rank, gint64 *compute_ns, gint64 *comm_ns, gint64 *overlap_ns);

G_END_DECLS
