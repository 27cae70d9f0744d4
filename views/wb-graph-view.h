/* wb-graph-view.h — the selected stage's dataflow laid out by Graphviz: regions as collapsible clusters
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_GRAPH_VIEW (wb_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (WbGraphView, wb_graph_view, WB, GRAPH_VIEW, GtkWidget)

typedef enum
{
  WB_GRAPH_EXPORT_PNG = 1,
  WB_GRAPH_EXPORT_SVG,
  WB_GRAPH_EXPORT_DOT,
} WbGraphExport;

GtkWidget *wb_graph_view_new (void);
void       wb_graph_view_set_document (WbGraphView *self, WbDocument *document);
/* wb_graph_view_is_busy: a layout is in flight (or due: the view lays out only while it is shown). */
gboolean wb_graph_view_is_busy (WbGraphView *self);
/* wb_graph_view_get_selected: (nullable) (transfer none) the bound symbol whose node is drawn selected. */
const WbBsym *wb_graph_view_get_selected (WbGraphView *self);
/* wb_graph_view_get_n_nodes: nodes drawn (a collapsed region counts one, an expanded one its body). */
guint wb_graph_view_get_n_nodes (WbGraphView *self);
/* wb_graph_view_get_layout_ms: wall time of the last layout (worker thread), or -1. */
double wb_graph_view_get_layout_ms (WbGraphView *self);
/* wb_graph_view_set_expanded: expands or collapses the region whose call is @region (a top-level bsym). */
void wb_graph_view_set_expanded (WbGraphView *self, const WbBsym *region, gboolean expanded);
/* wb_graph_view_get_n_expanded: regions drawn expanded. */
guint wb_graph_view_get_n_expanded (WbGraphView *self);
/* wb_graph_view_click: what a click at graph coordinates does (tests); FALSE when nothing is there. */
gboolean wb_graph_view_click_bsym (WbGraphView *self, const WbBsym *bsym);
/* wb_graph_view_get_n_chunks: the collapsible runs a large stage's top level is drawn as (0: none). */
guint wb_graph_view_get_n_chunks (WbGraphView *self);
/* wb_graph_view_get_title: (transfer none) (nullable) the shown stage's name, drawn over the graph. */
const char *wb_graph_view_get_title (WbGraphView *self);
/* Keys, once a click or drag has focused the graph: Ctrl+plus (or Ctrl+=) zooms in 1.25x about the
 * middle, Ctrl+minus out 0.8x, Ctrl+0 fits the whole stage (the actions graph.zoom-in, -out, -fit). */
/* wb_graph_view_get_zoom: the view's scale (1: a point per pixel); 0 before the first layout. */
double wb_graph_view_get_zoom (WbGraphView *self);
/* wb_graph_view_search: the next bound symbol after the last one found whose call is @text, else whose call, outputs or value
 * contain @text (at the top level or in a region's body): it is selected, the chunk or region holding
 * it expanded, and the view centred on it once laid out. (transfer none) (nullable) what was found. */
const WbBsym *wb_graph_view_search (WbGraphView *self, const char *text);
/* wb_graph_view_node_is_visible: whether @bsym's node is laid out and inside the visible area. */
gboolean wb_graph_view_node_is_visible (WbGraphView *self, const WbBsym *bsym);
/* wb_graph_view_get_node_rect: where the node a user clicks for @bsym is drawn, in the canvas's
 * coordinates (px of the view's GtkDrawingArea, as the pointer's events give them): @bsym's own node,
 * or else, for a top-level bound symbol of a collapsed chunk, the chunk's node. A click inside it does
 * what a click on that node does (a collapsed region or chunk expands). FALSE when neither is laid out. */
gboolean wb_graph_view_get_node_rect (WbGraphView *self, const WbBsym *bsym, graphene_rect_t *rect);
/* wb_graph_view_get_node_ms: the latest run's time drawn on @bsym's node (its tag, and its colour), ms;
 * -1 when the node shows none or is not laid out. */
double wb_graph_view_get_node_ms (WbGraphView *self, const WbBsym *bsym);
/* wb_graph_view_dup_node_tag: (transfer full) (nullable) the time tag drawn on @bsym's node: "0.123 ms", or
 * for an op inside an expanded fusion region its estimated share of the region's time, "est. 0.123 ms"
 * (profiler/wb-op-estimate.h); NULL when the node shows no time or is not laid out. */
char *wb_graph_view_dup_node_tag (WbGraphView *self, const WbBsym *bsym);
/* wb_graph_view_get_node_rgb: the fill colour of @bsym's node (sRGB 0..1 in @rgb[0..2]): by the latest
 * run's time, by kind, and for a collective call (wb_document_is_collective) the collectives' colour
 * (WB_COLLECTIVE_RGB, lighter for a small share of the iteration). FALSE when it is not laid out. */
gboolean wb_graph_view_get_node_rgb (WbGraphView *self, const WbBsym *bsym, double *rgb);
/* wb_graph_view_export: the graph as shown (PNG, SVG) or the stage as DOT, written to @path. */
gboolean wb_graph_view_export (WbGraphView *self, const char *path, WbGraphExport format, GError **error);

G_END_DECLS
