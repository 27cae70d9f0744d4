/* wb-timeline-private.h — what the files of WbTimeline share (wb-timeline.h); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-timeline.c        the widget: its tracks and kernels from the document's run, drawing, the public API
 * wb-timeline-input.c  pointer and keys: drag (range or pan), click, scroll, zoom and pan actions
 * wb-timeline-ranks.c  a multi-GPU run: one group of tracks per rank on the common clock, and the
 *                      range's compute / communication / overlap per rank
 * wb-timeline-host.c   one run's host calls (CUDA API records): a track per host thread, culled drawing,
 *                      hit tests and tooltips
 * Every name here is private to libwbviews (hidden visibility). */
#pragma once

#include "wb-data.h"
#include "wb-views.h"

G_BEGIN_DECLS

#define WB_TIMELINE_AXIS_H 22.0
#define WB_TIMELINE_ROW_H 26.0
#define WB_TIMELINE_LEFT_W 90.0

typedef enum
{
  WB_TRACK_REGIONS, /* region spans (of one rank in a group) */
  WB_TRACK_CALLS,   /* the host's calls (one run only) */
  WB_TRACK_STREAM,  /* one stream's kernels (of one rank in a group) */
  WB_TRACK_HOST,    /* one host thread's CUDA API calls (one run only) */
} WbTrackKind;

/* One row of the timeline, top to bottom. */
typedef struct
{
  WbTrackKind kind;
  guint32     rank;   /* the rank whose row it is (0 for one run) */
  guint32     stream; /* WB_TRACK_STREAM: the CUDA stream; WB_TRACK_HOST: the thread's index (0, 1, ...) */
  guint32     thread; /* WB_TRACK_HOST: the host thread id */
} WbTrack;

/* One host call as drawn (WbHostCall of the shown run, copied): times in ns from t0 */
typedef struct
{
  const char *name; /* interned */
  gint64      start, end;
  int         track;
  gint32      kernel; /* index into the timeline's kernels of the first it launched, or -1 */
  guint32     n_kernels;
  guint32     thread, iteration;
  guint64     correlation_id;
} WbTimelineHostCall;

typedef struct
{
  const char *region;     /* the region, or the call's symbol on the calls track */
  gint64      start, end; /* ns from t0 */
  guint32     line;
  int         track;      /* the row it is drawn on */
  gboolean    collective; /* a collective call: drawn in the collectives' colour */
} WbTimelineSpan;

struct _WbTimeline
{
  GtkWidget parent_instance;

  WbDocument *document;
  GPtrArray  *kernels;        /* (element-type WbKernelRecord) copies, rank by rank in start order; times on
                               * the timeline's clock (a group: each rank's shifted by its clock offset) */
  GArray       *kernel_track; /* int per kernel: its stream's row */
  GArray       *kernel_comm;  /* gboolean per kernel: a communication kernel (wb_kernel_record_is_communication) */
  GArray       *kernel_rank;  /* guint32 per kernel: its rank (0 for one run) */
  GArray       *tracks;       /* WbTrack, one per row */
  GArray       *spans;        /* WbTimelineSpan: the regions tracks */
  GArray       *calls;        /* WbTimelineSpan: the calls track (one run only) */
  GArray       *host;         /* WbTimelineHostCall in start order: the CUDA API tracks (one run only) */
  gint64        host_max_ns;  /* the longest host call (culling's margin) */
  gint64        lo;           /* the earliest time drawn, ns from t0 (<= 0: host calls before the first kernel) */
  GPtrArray    *group_runs;   /* (nullable) (element-type WbRun) (borrowed from the document) a group's runs by rank */
  GArray       *group_offset; /* gint64 per group run: added to its kernel times to put them on the common clock */
  guint         n_streams;    /* stream rows, all ranks */
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

/* wb-timeline.c */
double _wb_timeline_time_to_x (WbTimeline *self, double ns);
double _wb_timeline_x_to_time (WbTimeline *self, double x);
void   _wb_timeline_fit (WbTimeline *self);
int    _wb_timeline_kernel_at (WbTimeline *self, double x, double y);
/* _wb_timeline_add_kernel: appends a copy of @k shifted by @offset ns, on the stream row of (@rank,
 * k->stream) (added when new), marked communication or not. */
void _wb_timeline_add_kernel (WbTimeline *self, const WbKernelRecord *k, gint64 offset, guint32 rank, gboolean communication);

/* wb-timeline-input.c */
void _wb_timeline_class_init_input (GtkWidgetClass *widget_class);
void _wb_timeline_init_input (WbTimeline *self);

/* wb-timeline-host.c */
/* _wb_timeline_build_host: a CUDA API track per host thread of @run (appended to the tracks: call it before
 * the kernels add their streams' rows) and its calls, their times still on the run's clock;
 * _wb_timeline_place_host, once t0 is known: their times from t0, lo and t1 widened to them. */
void _wb_timeline_build_host (WbTimeline *self, const WbRun *run);
void _wb_timeline_place_host (WbTimeline *self);
/* _wb_timeline_draw_host: the host calls in the visible range (binary search on the start, then a call per
 * pixel at most on each track: O(visible pixels + log n) cairo work). */
void _wb_timeline_draw_host (WbTimeline *self, cairo_t *cr, PangoLayout *text, int width);
/* _wb_timeline_host_call_at: the host call under widget point (@x, @y) (within 4 px), or -1. */
int _wb_timeline_host_call_at (WbTimeline *self, double x, double y);
/* _wb_timeline_track_label: (transfer full) row @row's label. */
char *_wb_timeline_track_label (WbTimeline *self, guint row);

/* wb-timeline-ranks.c */
/* _wb_timeline_build_group: fills the tracks, kernels and spans from @runs (element-type WbRun), a group's
 * runs by rank, aligned on their clock origins; sets group_runs and group_offset. */
void _wb_timeline_build_group (WbTimeline *self, GPtrArray *runs);
/* _wb_timeline_append_rank_stats: the selected range's compute / communication / overlap per rank, as
 * Pango markup lines appended to @s; nothing for one run. */
void _wb_timeline_append_rank_stats (WbTimeline *self, GString *s);
/* _wb_timeline_range_on_run: [@from, @to) of the timeline (ns from t0) on @run's own clock (ns from its
 * first kernel, as WbRangeStats counts) */
void _wb_timeline_range_on_run (WbTimeline *self, const WbRun *run, gint64 *from, gint64 *to);

G_END_DECLS
