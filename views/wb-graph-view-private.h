/* wb-graph-view-private.h — what the files of WbGraphView share (wb-graph-view.h); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-graph-view.c         the widget: the shown stage, its layout jobs, the selection, the public API
 * wb-graph-view-layout.c  a stage as a graph of nodes and edges (worker thread), laid out by Graphviz
 * wb-graph-view-draw.c    drawing with cairo: on screen, culled to what is visible, and the exports
 * wb-graph-view-input.c   pan (drag), zoom (scroll, pinch), clicks, tooltips, and the view's actions
 * Every name here is private to libwbviews (hidden visibility). */
#pragma once

#include "wb-views.h"

G_BEGIN_DECLS

#define CLUSTER_PAD 10.0
#define WB_GRAPH_COLLAPSE_ABOVE 60 /* nodes (top level and region bodies) above which regions start collapsed: fitted, the rest stays readable */
#define WB_GRAPH_CHUNK_ABOVE 200   /* top-level nodes (inputs, bound symbols) above which the top level is drawn as chunks */
#define CLUSTER_BAR 20.0

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
  gpointer      group;      /* GN_REGION, GN_CLUSTER: what expands: a region's call or a WbGraphChunk */
} VNode;

/* A run of consecutive top-level bound symbols of a large stage, drawn as one collapsible node, so that
 * the top level stays small enough for Graphviz to lay out at once; its body is laid out on its own. */
typedef struct
{
  guint first, last; /* the trace's body[first..last) */
  guint n_drawn;     /* bound symbols drawn in it */
  char *label;       /* "40 ops · ltorch.linear … prims.add" */
} WbGraphChunk;

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

/* a layout job: what the worker lays out, and what it hands back */
typedef struct
{
  WbTrace    *trace;
  GPtrArray  *expand;   /* region calls to draw expanded */
  GHashTable *inner;    /* region call -> Layout (ref): the cache's, then the new ones */
  GPtrArray  *computed; /* region calls whose bodies this job laid out */
  GPtrArray  *chunks;   /* (nullable) WbGraphChunk, a reference: the top level's chunks */
  Layout     *top;
  double      cw, lh, ms;
} Job;

struct _WbGraphView
{
  GtkWidget parent_instance;

  WbDocument   *document;
  WbTrace      *trace;       /* shown (a reference) */
  GHashTable   *expanded;    /* region calls drawn expanded */
  GHashTable   *inner_cache; /* region call or chunk -> Layout (ref) */
  GPtrArray    *chunks;      /* (nullable) the shown stage's WbGraphChunks, when its top level is large */
  char         *title;       /* the shown stage's name, drawn over the graph */
  const WbBsym *centre;      /* (nullable) centre on this bound symbol after the next layout */
  Layout       *layout;
  GCancellable *cancellable;
  gboolean      dirty, running;
  double        layout_ms;

  double        zoom, ox, oy;
  double        drag_ox, drag_oy, zoom_start, pointer_x, pointer_y;
  const WbBsym *selected;

  double      cw, lh;
  double      mm_x, mm_y, mm_w, mm_h, mm_scale; /* the minimap's place on the canvas; mm_w 0: none */
  gboolean    mm_drag;
  guint       search_at; /* where the next search starts: a top-level index */
  GtkWidget  *area;
  GtkLabel   *info;
  GtkSpinner *spinner;
};

/* wb-graph-view-layout.c */
Layout       *_wb_graph_layout_ref (Layout *l);
void          _wb_graph_layout_unref (Layout *l);
guint         _wb_graph_count_bsyms (WbTrace *trace);
gboolean      _wb_graph_is_group (const WbBsym *b);
guint         _wb_graph_group_size (const WbBsym *b);
void          _wb_graph_default_expanded (WbTrace *trace, GHashTable *expanded);
GPtrArray    *_wb_graph_chunks_new (WbTrace *trace);
WbGraphChunk *_wb_graph_chunk_of (GPtrArray *chunks, WbTrace *trace, const WbBsym *bsym);
gboolean      _wb_graph_is_chunk (GPtrArray *chunks, gconstpointer group);
void          _wb_graph_job_free (Job *job);
gboolean      _wb_graph_job_run (Job *job, GCancellable *cancellable);
void          _wb_graph_layout_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable);

/* wb-graph-view.c */
void _wb_graph_view_start_layout (WbGraphView *self);
void _wb_graph_view_fit (WbGraphView *self);
void _wb_graph_view_minimap_move (WbGraphView *self, double x, double y);

/* wb-graph-view-draw.c */
double _wb_graph_view_node_ms (WbGraphView *self, const VNode *n);
/* _wb_graph_view_node_is_estimate: whether @n's time is an estimate: an op inside an expanded fusion region
 * (wb_document_get_op_estimate); _wb_graph_view_node_tag: (transfer full) (nullable) the tag drawn for time @ms
 * ("0.123 ms", an estimate's "est. 0.123 ms"), NULL for ms < 0 */
gboolean _wb_graph_view_node_is_estimate (WbGraphView *self, const VNode *n);
char    *_wb_graph_view_node_tag (WbGraphView *self, const VNode *n, double ms);
/* _wb_graph_view_node_fill: the colour @n is filled with, as drawn (sRGB 0..1) */
void _wb_graph_view_node_fill (WbGraphView *self, const VNode *n, double *rgb);
void _wb_graph_view_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data);

/* wb-graph-view-input.c */
void _wb_graph_view_click_node (WbGraphView *self, VNode *n, gboolean bar);
void _wb_graph_view_add_controllers (WbGraphView *self);
void _wb_graph_view_install_actions (GtkWidgetClass *widget_class);

G_END_DECLS
