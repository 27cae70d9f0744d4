/* test-ui-loop-view.c — test-ui-loop's views: every stage stepped with Alt+Right, the aligned diff
 * checked on screen on a renamed line (the wheel scrolls both panes as one); a region of the graph
 * expanded by a click on its node (the wheel zooming in about it first while it is small)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "test-ui-loop.h"

/* -- stages ----------------------------------------------------------------------------------------- */

/* the stage view's two panes: [0] left, [1] right */
static void
find_panes (GtkWidget *widget, GtkTextView **panes, guint *n)
{
  if (GTK_IS_TEXT_VIEW (widget) && *n < 2)
    {
      panes[(*n)++] = GTK_TEXT_VIEW (widget);
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    find_panes (c, panes, n);
}

/* whether buffer row @row of @view is wholly inside its visible area */
static gboolean
row_visible (GtkTextView *view, guint row)
{
  GdkRectangle rect;
  GtkTextIter  iter;
  int          y, h;

  gtk_text_view_get_visible_rect (view, &rect);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, (int) row);
  gtk_text_view_get_line_yrange (view, &iter, &y, &h);
  return y >= rect.y && y + h <= rect.y + rect.height;
}

/* the top of buffer row @row of @view on screen: y in the window's coordinates */
static double
row_y (GtkTextView *view, guint row)
{
  GtkTextIter      iter;
  int              y, h, wx, wy;
  graphene_point_t p;

  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, (int) row);
  gtk_text_view_get_line_yrange (view, &iter, &y, &h);
  gtk_text_view_buffer_to_window_coords (view, GTK_TEXT_WINDOW_WIDGET, 0, y, &wx, &wy);
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), GTK_WIDGET (window), &GRAPHENE_POINT_INIT (wx, wy), &p));
  return p.y;
}

/* the first row (below @limit) of the pair shown where both panes have a line and the left one is marked
 * renamed; G_MAXUINT when none */
static guint
renamed_row (const WbStagePair *pair, guint limit)
{
  for (guint row = 0; row < wb_stage_pair_get_n_rows (pair) && row < limit; row++)
    {
      guint l, r;

      wb_stage_pair_get_row (pair, row, &l, &r);
      if (l != G_MAXUINT && r != G_MAXUINT && wb_stage_pair_get_line_mark (pair, FALSE, l) == WB_LINE_RENAMED)
        return row;
    }
  return G_MAXUINT;
}

/* renamed row @row: its names (and nothing else) highlighted in both panes; the wheel over the left pane
 * brings it into view with the right pane following row for row; on screen both halves of the row are
 * at the same height */
static void
check_renamed (WbStageView *view, GtkTextView **panes, guint row, guint entry)
{
  g_autoptr (GArray) hl = wb_stage_view_get_highlights (view, FALSE, row, "renamed-text");
  g_autoptr (GArray) hr = wb_stage_view_get_highlights (view, TRUE, row, "renamed-text");
  g_autoptr (GArray) cl = wb_stage_view_get_highlights (view, FALSE, row, "changed-text");
  g_autofree char *left = wb_stage_view_dup_row_text (view, FALSE, row);
  g_autofree char *right = wb_stage_view_dup_row_text (view, TRUE, row);
  guint            clicks = 0, tl, tr;
  double           yl, yr;

  g_assert_cmpstr (left, !=, right);
  g_assert_cmpuint (hl->len, >, 0);
  g_assert_cmpuint (hr->len, >, 0);
  g_assert_cmpuint (cl->len, ==, 0);
  wb_ui_input_move (input, GTK_WIDGET (panes[0]), gtk_widget_get_width (GTK_WIDGET (panes[0])) / 2.0,
                    gtk_widget_get_height (GTK_WIDGET (panes[0])) / 2.0);
  while (!row_visible (panes[0], row) && clicks < 400)
    {
      wb_ui_input_scroll (input, -1);
      clicks++;
      wb_stage_view_get_top_rows (view, &tl, &tr);
      g_assert_cmpuint (tl, ==, tr);
    }
  g_assert_true (row_visible (panes[0], row));
  g_assert_true (row_visible (panes[1], row));
  yl = row_y (panes[0], row);
  yr = row_y (panes[1], row);
  g_test_message ("entry %u row %u renamed, %u wheel clicks down, on screen at y %.0f | %.0f:\n  %s\n  %s", entry, row, clicks, yl, yr,
                  left, right);
  g_assert_cmpfloat (fabs (yl - yr), <=, 1.0);
}

static gboolean
entry_changed (gpointer data)
{
  return wb_document_get_entry (wb_window_get_document (window)) != GPOINTER_TO_INT (data);
}

void
loop_stages (const char *what, guint max_entries)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbStageView     *view = WB_STAGE_VIEW (wb_window_get_stage_view (window));
  guint            n = MIN (wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)), max_entries), n_seen = 1, renamed = 0;
  GtkTextView     *panes[2] = { NULL, NULL };
  guint            n_panes = 0;
  g_autofree char *seen = NULL;
  double           worst_ms = 0, total_ms = 0;
  g_autofree char *shot = g_strdup_printf ("loop-%s-stage-diff", what);

  wb_window_show_view (window, "stages");
  wb_sidebar_set_hide_unchanged (WB_SIDEBAR (wb_window_get_sidebar (window)), FALSE);
  wb_document_set_entry (doc, 0);
  wb_ui_input_sync (input);
  find_panes (GTK_WIDGET (view), panes, &n_panes);
  g_assert_cmpuint (n_panes, ==, 2);
  /* a click in the right pane gives it the keyboard, as a user's */
  wb_ui_input_click (input, GTK_WIDGET (panes[1]), gtk_widget_get_width (GTK_WIDGET (panes[1])) / 2.0, 8);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (panes[1])));
  seen = g_malloc0 (wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)));
  seen[0] = 1;
  while (n_seen < n)
    {
      int                entry = wb_document_get_entry (doc);
      gint64             t0 = g_get_monotonic_time ();
      const WbStagePair *pair;
      double             ms;
      guint              row;

      wb_ui_input_key (input, "<Alt>Right"); /* returns after the frame that followed it */
      g_assert_true (wb_ui_wait (entry_changed, GINT_TO_POINTER (entry), 10));
      ms = loop_ms_since (t0);
      worst_ms = MAX (worst_ms, ms);
      total_ms += ms;
      entry = wb_document_get_entry (doc);
      g_assert_cmpint (entry, >=, 0);
      g_assert_false (seen[entry]); /* each stage once: the steps go forward through all of them */
      seen[entry] = 1;
      n_seen++;
      pair = wb_stage_view_get_pair (view);
      g_assert_nonnull (pair);
      /* aligned: filler rows make both panes as long as the pair's rows */
      g_assert_cmpint (gtk_text_buffer_get_line_count (gtk_text_view_get_buffer (panes[0])), ==,
                       gtk_text_buffer_get_line_count (gtk_text_view_get_buffer (panes[1])));
      if (renamed < 2 && (row = renamed_row (pair, 400)) != G_MAXUINT)
        {
          check_renamed (view, panes, row, (guint) entry);
          if (renamed++ == 0)
            loop_shot (shot);
        }
    }
  g_test_message ("bench: %s stepped through %u stages with Alt+Right: %.0f ms in all, %.1f ms a step on average, slowest %.0f ms", what,
                  n_seen, total_ms, total_ms / MAX (n_seen - 1, 1), worst_ms);
  g_assert_cmpuint (renamed, >, 0);
}

/* -- graph: a click on a region's node expands it ---------------------------------------------------- */

static gboolean
graph_ready (gpointer data)
{
  return !wb_graph_view_is_busy (data);
}

static const WbBsym *
largest_region (WbTrace *trace)
{
  const WbBsym *best = NULL;

  for (guint i = 0; i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && wb_bsym_is_fusion (trace->body[i]) &&
        (best == NULL || trace->body[i]->n_subsymbols > best->n_subsymbols))
      best = trace->body[i];
  return best;
}

/* the entry holding the region with the largest body; the entry drawing the most top-level nodes */
static guint
pick_entry (WbDocument *doc, gboolean by_region)
{
  const WbTraceSet *set = wb_document_get_trace_set (doc);
  guint             best = 0, best_n = 0;

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      WbTrace      *t = wb_trace_set_get_entry (set, i)->trace;
      const WbBsym *r = t && by_region ? largest_region (t) : NULL;
      guint         n = by_region ? (r ? r->n_subsymbols : 0) : t ? t->n_body + t->n_params
                                                                  : 0;

      if (n > best_n)
        best = i, best_n = n;
    }
  g_assert_cmpuint (best_n, >, 0);
  return best;
}

/* clicks the node @target is drawn in until @target is selected: a collapsed chunk's first (which
 * expands it), then its own (a region's expands it); the wheel zooms in about it while it is small */
static double
click_until_selected (WbGraphView *graph, GtkWidget *area, const WbBsym *target, guint *n_clicks)
{
  WbDocument *doc = wb_window_get_document (window);
  double      last_ms = 0;

  for (*n_clicks = 0; *n_clicks < 3 && wb_document_get_bsym (doc) != target; (*n_clicks)++)
    {
      graphene_rect_t r;
      gint64          t0;

      g_assert_true (wb_graph_view_get_node_rect (graph, target, &r));
      for (guint k = 0; k < 30 && r.size.height < 24; k++)
        {
          wb_ui_input_move (input, area, r.origin.x + r.size.width / 2, r.origin.y + r.size.height / 2);
          wb_ui_input_scroll (input, 1);
          g_assert_true (wb_graph_view_get_node_rect (graph, target, &r));
        }
      g_assert_cmpfloat (r.origin.x + r.size.width / 2, >, 0);
      g_assert_cmpfloat (r.origin.y + r.size.height / 2, >, 0);
      g_assert_cmpfloat (r.origin.x + r.size.width / 2, <, gtk_widget_get_width (area));
      g_assert_cmpfloat (r.origin.y + r.size.height / 2, <, gtk_widget_get_height (area));
      wb_ui_input_move (input, area, r.origin.x + r.size.width / 2, r.origin.y + r.size.height / 2);
      t0 = g_get_monotonic_time ();
      wb_ui_input_button (input, 1, TRUE);
      wb_ui_input_button (input, 1, FALSE);
      g_assert_true (wb_ui_wait (graph_ready, graph, 60));
      wb_ui_input_sync (input); /* drawn */
      last_ms = loop_ms_since (t0);
      g_test_message ("click %u at a %.0fx%.0f px node: %.0f ms to the frame drawn after the layout (layout %.0f ms), %u nodes, %u expanded",
                      *n_clicks + 1, r.size.width, r.size.height, last_ms, wb_graph_view_get_layout_ms (graph),
                      wb_graph_view_get_n_nodes (graph), wb_graph_view_get_n_expanded (graph));
    }
  g_assert_true (wb_document_get_bsym (doc) == target);
  return last_ms;
}

static void
graph_expand (const char *what, guint entry, gboolean by_region)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbGraphView     *graph = WB_GRAPH_VIEW (wb_window_get_graph_view (window));
  GtkWidget       *area = wb_ui_find_type (GTK_WIDGET (graph), GTK_TYPE_DRAWING_AREA);
  WbTrace         *trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  const WbBsym    *region = largest_region (trace), *target;
  guint            before, clicks;
  gint64           t0;
  double           ms;
  graphene_rect_t  r;
  g_autofree char *shot = NULL;

  g_assert_nonnull (area);
  wb_window_show_view (window, "graph");
  wb_ui_input_sync (input);
  t0 = g_get_monotonic_time ();
  wb_document_set_entry (doc, entry);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  wb_ui_input_sync (input);
  g_test_message ("bench: %s graph of entry %u (%u top-level bsyms, %u chunks): first picture drawn %.0f ms (layout %.0f ms), %u nodes", what,
                  entry, trace->n_body, wb_graph_view_get_n_chunks (graph), loop_ms_since (t0), wb_graph_view_get_layout_ms (graph),
                  wb_graph_view_get_n_nodes (graph));
  g_assert_cmpfloat (wb_graph_view_get_layout_ms (graph), <, 2000);
  /* a region if the stage has one (by_region), else a bound symbol in the middle (in a chunk when the
   * top level is drawn as chunks) */
  target = by_region && region != NULL ? region : trace->body[trace->n_body / 2];
  before = wb_graph_view_get_n_nodes (graph);
  g_assert_false (wb_document_get_bsym (doc) == target);
  ms = click_until_selected (graph, area, target, &clicks);
  g_assert_cmpuint (wb_graph_view_get_n_expanded (graph), >=, 1);
  g_assert_cmpfloat (wb_graph_view_get_layout_ms (graph), <, 1000);
  if (target == region)
    {
      /* expanded: its body drawn, its node now the box around it */
      g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), >=, before + region->n_subsymbols / 2);
      g_assert_true (wb_graph_view_get_node_rect (graph, region, &r));
      g_assert_true (wb_graph_view_node_is_visible (graph, region->subsymbols[0]) || r.size.height > 100);
    }
  g_test_message ("bench: %s expand by click (%s, %u ops, %u click(s)): %.0f ms, %u -> %u nodes", what, target->name,
                  target->n_subsymbols, clicks, ms, before, wb_graph_view_get_n_nodes (graph));
  shot = g_strdup_printf ("loop-%s-graph-%s", what, target == region ? "region-expanded" : "chunk-expanded");
  loop_shot (shot);
}

void
loop_graph_expand (const char *what)
{
  WbDocument *doc = wb_window_get_document (window);
  guint       by_region = pick_entry (doc, TRUE), largest = pick_entry (doc, FALSE);

  graph_expand (what, by_region, TRUE);
  if (largest != by_region)
    graph_expand (what, largest, FALSE);
}
