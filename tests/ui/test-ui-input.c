/* test-ui-input.c — the window driven as a user drives it: key presses and a pointer drag made by the X
 * server (XTEST, wb-ui-input.h) on the zoo's 2-layer Llama after a cpu run: Alt+Right / Alt+Left step
 * the stages, Ctrl+F and typing search for a region, a click focuses the graph and Ctrl+plus / minus / 0
 * zoom and fit it, a drag across the timeline selects a range (its statistics: that range's kernels,
 * counted here), W / S zoom about the pointer, A / D pan, Escape clears the range
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Skips (exit 77) with the reason when the display cannot take real input (not X11, no XTEST, built
 * without libXtst); with WB_UI_REQUIRE_XTEST set (.ci/run) that is a failure instead. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-ui-common.h"
#include "wb-ui-input.h"

static WbWindow  *window;
static WbUiInput *input;
static char      *no_input; /* why there is no real input */

/* FALSE, the test skipped (or failed under WB_UI_REQUIRE_XTEST), when there is no real input */
static gboolean
have_input (void)
{
  if (input != NULL)
    return TRUE;
  if (g_getenv ("WB_UI_REQUIRE_XTEST") != NULL)
    g_test_fail_printf ("WB_UI_REQUIRE_XTEST is set but %s", no_input ? no_input : "the window did not open");
  else
    g_test_skip (no_input ? no_input : "the window did not open");
  return FALSE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
profiled_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (wb_document_profile_finish (WB_DOCUMENT (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

/* the first GtkDrawingArea under @widget: the tracks of the timeline, the graph's canvas */
static GtkWidget *
find_area (GtkWidget *widget)
{
  if (GTK_IS_DRAWING_AREA (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *a = find_area (c);

      if (a != NULL)
        return a;
    }
  return NULL;
}

/* whether the window's focus is @widget or inside it */
static gboolean
focus_in (GtkWidget *widget)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* the zoo's 2-layer Llama, profiled on the cpu (2 iterations) so that the timeline has kernels */
static void
test_open (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "llama", "thunderfx_g0_GraphModule_3", NULL);
  WbDocument      *doc;
  gboolean         done = FALSE;

  /* the build unpacks the zoo (tests/zoo/meson.build): a missing case is a failure */
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  window = wb_ui_open (path);
  input = wb_ui_input_new (GTK_WINDOW (window), &no_input);
  if (!have_input ())
    return;
  doc = wb_window_get_document (window);
  wb_document_profile_async (doc, NULL, WB_PROFILE_DEVICE_CPU, 2, 0, NULL, NULL, NULL, profiled_cb, &done);
  g_assert_true (wb_ui_wait (is_true, &done, 300));
  g_assert_nonnull (wb_document_get_run (doc));
  g_assert_cmpuint (wb_document_get_run (doc)->kernels->len, >, 4);
  /* as a window manager does on a click: the window takes the keyboard */
  g_assert_true (wb_ui_input_focus (input));
}

static gboolean
entry_is (gpointer data)
{
  return wb_document_get_entry (wb_window_get_document (window)) == GPOINTER_TO_INT (data);
}

/* Alt+Right and Alt+Left (the shortcuts window's "Next stage", "Previous stage") with the stage view
 * focused */
static void
test_stages (void)
{
  WbDocument *doc;
  GtkWidget  *view;

  if (!have_input ())
    return;
  doc = wb_window_get_document (window);
  view = wb_window_get_stage_view (window);
  wb_window_show_view (window, "stages");
  wb_sidebar_set_hide_unchanged (WB_SIDEBAR (wb_window_get_sidebar (window)), FALSE);
  wb_document_set_entry (doc, 0);
  wb_ui_spin (0.1);
  if (!gtk_widget_grab_focus (view))
    gtk_widget_child_focus (view, GTK_DIR_TAB_FORWARD);
  g_assert_true (focus_in (view));
  for (int i = 1; i <= 3; i++)
    {
      wb_ui_input_key (input, "<Alt>Right");
      g_assert_true (wb_ui_wait (entry_is, GINT_TO_POINTER (i), 10));
    }
  wb_ui_input_key (input, "<Alt>Left");
  g_assert_true (wb_ui_wait (entry_is, GINT_TO_POINTER (2), 10));
  /* at the first stage Alt+Left stays there */
  wb_document_set_entry (doc, 0);
  wb_ui_input_key (input, "<Alt>Left"); /* returns after the frame that followed the key */
  g_assert_cmpint (wb_document_get_entry (doc), ==, 0);
  g_assert_true (focus_in (view));
  if (wb_ui_input_get_gizmo_warnings () > 0)
    g_test_message ("GTK warned %u time(s) of a scrollbar trough drawn without an allocation (not fatal)", wb_ui_input_get_gizmo_warnings ());
}

static GtkWidget *
find_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *a = find_type (c, type);

      if (a != NULL)
        return a;
    }
  return NULL;
}

static gboolean
search_focused (gpointer data)
{
  return focus_in (data);
}

static gboolean
revealed (gpointer data)
{
  return gtk_revealer_get_child_revealed (data);
}

static gboolean
hidden (gpointer data)
{
  return !gtk_revealer_get_child_revealed (data);
}

static gboolean
region_is (gpointer data)
{
  return g_strcmp0 (wb_document_get_region (wb_window_get_document (window)), data) == 0;
}

static gboolean
search_closed (gpointer data)
{
  return !gtk_search_bar_get_search_mode (data);
}

/* Ctrl+F opens the search with its entry focused; a region's name typed and Return select it; Escape
 * closes the search */
static void
test_search (void)
{
  WbDocument      *doc;
  GtkSearchBar    *bar;
  GtkWidget       *entry;
  GPtrArray       *regions;
  g_autofree char *name = NULL;

  if (!have_input ())
    return;
  doc = wb_window_get_document (window);
  bar = GTK_SEARCH_BAR (find_type (GTK_WIDGET (window), GTK_TYPE_SEARCH_BAR));
  entry = find_type (GTK_WIDGET (window), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (bar);
  g_assert_nonnull (entry);
  regions = wb_pipeline_get_regions (wb_document_get_pipeline (doc));
  g_assert_cmpuint (regions->len, >, 1);
  name = g_strdup (((WbRegion *) regions->pdata[regions->len - 1])->name);
  wb_document_select_region (doc, ((WbRegion *) regions->pdata[0])->name);
  g_assert_false (region_is (name));
  g_assert_false (gtk_search_bar_get_search_mode (bar));

  wb_ui_input_key (input, "<Control>f");
  g_assert_true (wb_ui_wait (search_focused, entry, 10));
  g_assert_true (gtk_search_bar_get_search_mode (bar));
  /* the bar slides in; the user types once it is there */
  g_assert_true (wb_ui_wait (revealed, find_type (GTK_WIDGET (bar), GTK_TYPE_REVEALER), 10));
  wb_ui_input_type (input, name);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, name);
  wb_ui_input_key (input, "Return");
  g_assert_true (wb_ui_wait (region_is, name, 10));
  g_test_message ("typed %s: region %s selected", name, wb_document_get_region (doc));
  wb_ui_input_key (input, "Escape");
  g_assert_true (wb_ui_wait (search_closed, bar, 10));
  g_assert_true (wb_ui_wait (hidden, find_type (GTK_WIDGET (bar), GTK_TYPE_REVEALER), 10));
}

static gboolean
graph_ready (gpointer data)
{
  return !wb_graph_view_is_busy (data);
}

typedef struct
{
  WbGraphView *graph;
  double       zoom;
} ZoomIs;

static gboolean
zoom_is (gpointer data)
{
  ZoomIs *z = data;

  return fabs (wb_graph_view_get_zoom (z->graph) - z->zoom) < 1e-9 * z->zoom;
}

/* the run's stage's top-level bound symbols whose nodes are inside the visible area */
static guint
n_visible (WbGraphView *graph, WbTrace *trace)
{
  guint n = 0;

  for (guint i = 0; i < trace->n_body; i++)
    n += wb_graph_view_node_is_visible (graph, trace->body[i]);
  return n;
}

static void
press_zoom (WbGraphView *graph, const char *accel, double expect)
{
  ZoomIs z = { graph, expect };

  wb_ui_input_key (input, accel);
  if (!wb_ui_wait (zoom_is, &z, 10))
    g_error ("%s: zoom %.6f, expected %.6f", accel, wb_graph_view_get_zoom (graph), expect);
}

/* a click on the graph's empty corner focuses it; Ctrl+0 fits the whole stage in view, Ctrl+plus zooms
 * in 1.25x, Ctrl+minus out 0.8x */
static void
test_graph (void)
{
  WbDocument  *doc;
  WbGraphView *graph;
  GtkWidget   *area;
  WbTrace     *trace;
  double       fit;
  guint        all, zoomed;

  if (!have_input ())
    return;
  doc = wb_window_get_document (window);
  graph = WB_GRAPH_VIEW (wb_window_get_graph_view (window));
  wb_window_show_view (window, "graph");
  wb_document_set_entry (doc, wb_document_get_run_entry (doc));
  trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), wb_document_get_run_entry (doc))->trace;
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  area = find_area (GTK_WIDGET (graph));
  g_assert_nonnull (area);
  g_assert_false (gtk_widget_has_focus (area));
  /* above the graph, where its title is drawn and no node is; clear of the pane's handle at the left
   * edge (GtkPaned takes presses a few pixels beside it) */
  wb_ui_input_click (input, area, 40, 12);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  g_assert_true (gtk_widget_has_focus (area));

  wb_ui_input_key (input, "<Control>0");
  fit = wb_graph_view_get_zoom (graph);
  g_assert_cmpfloat (fit, >, 0);
  all = n_visible (graph, trace);
  g_assert_cmpuint (all, >, 3);
  press_zoom (graph, "<Control>plus", fit * 1.25);
  press_zoom (graph, "<Control>plus", fit * 1.25 * 1.25);
  zoomed = n_visible (graph, trace);
  g_test_message ("graph of %s: fit zoom %.4f, %u nodes in view; zoomed in twice %u", wb_stage_get_pass (wb_document_get_stage (doc, wb_document_get_entry (doc))),
                  fit, all, zoomed);
  g_assert_cmpuint (zoomed, <=, all);
  press_zoom (graph, "<Control>minus", fit * 1.25 * 1.25 * 0.8);
  press_zoom (graph, "<Control>0", fit);
  g_assert_cmpuint (n_visible (graph, trace), ==, all);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "70-input-graph"));
}

typedef struct
{
  WbTimeline *timeline;
  double      from, to; /* the visible range before the key */
} View;

static gboolean
view_changed (gpointer data)
{
  View  *v = data;
  double from, to;

  wb_timeline_get_visible_range (v->timeline, &from, &to);
  return from != v->from || to != v->to;
}

/* presses @key on the timeline; the visible range before it in *@before, after it in *@after */
static void
press_view (WbTimeline *timeline, const char *key, View *before, View *after)
{
  before->timeline = after->timeline = timeline;
  wb_timeline_get_visible_range (timeline, &before->from, &before->to);
  wb_ui_input_key (input, key);
  g_assert_true (wb_ui_wait (view_changed, before, 10));
  wb_timeline_get_visible_range (timeline, &after->from, &after->to);
}

static gboolean
has_range (gpointer data)
{
  return wb_timeline_get_range_stats (data) != NULL;
}

static gboolean
no_range (gpointer data)
{
  return wb_timeline_get_range_stats (data) == NULL;
}

#define LEFT_W 90.0 /* the track names' column left of the tracks (wb-timeline-private.h) */

/* W / S zoom 2x in / out about the pointer (the time under it stays), A / D pan a fifth of the tracks */
static void
timeline_keys (WbTimeline *timeline, double pointer_x, double tracks_w)
{
  View   a, b;
  double span, px;

  press_view (timeline, "w", &a, &b);
  span = a.to - a.from;
  g_assert_cmpfloat (fabs ((b.to - b.from) - span / 2), <, span * 1e-6);
  /* the pivot: the x where the time is the same before and after */
  px = LEFT_W + (b.from - a.from) / (span / tracks_w - (b.to - b.from) / tracks_w);
  g_test_message ("W: %.4f-%.4f -> %.4f-%.4f ms, about x %.1f (pointer %.1f)", a.from / 1e6, a.to / 1e6, b.from / 1e6, b.to / 1e6, px,
                  pointer_x);
  g_assert_cmpfloat (fabs (px - pointer_x), <=, 1.0);

  press_view (timeline, "s", &a, &b);
  span = a.to - a.from;
  g_assert_cmpfloat (fabs ((b.to - b.from) - span * 2), <, span * 1e-6);
  px = LEFT_W + (b.from - a.from) / (span / tracks_w - (b.to - b.from) / tracks_w);
  g_assert_cmpfloat (fabs (px - pointer_x), <=, 1.0);

  press_view (timeline, "a", &a, &b);
  span = a.to - a.from;
  g_assert_cmpfloat (fabs ((b.from - a.from) + span / 5), <, span * 1e-6);
  g_assert_cmpfloat (fabs ((b.to - b.from) - span), <, span * 1e-6);
  press_view (timeline, "d", &a, &b);
  g_assert_cmpfloat (fabs ((b.from - a.from) - span / 5), <, span * 1e-6);
  g_assert_cmpfloat (fabs ((b.to - b.from) - span), <, span * 1e-6);
}

/* a drag across the middle half of the tracks selects that range: its statistics are its kernels; then
 * the keys; Escape clears the range */
static void
test_timeline (void)
{
  WbDocument         *doc;
  WbTimeline         *timeline;
  GtkWidget          *area;
  const WbRun        *run;
  const WbRangeStats *stats;
  double              from, to, w, h, x0, x1, ns_per_px;
  gint64              ns = 0;

  if (!have_input ())
    return;
  doc = wb_window_get_document (window);
  timeline = WB_TIMELINE (wb_window_get_timeline (window));
  run = wb_document_get_run (doc);
  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.2);
  g_assert_cmpuint (wb_timeline_get_n_kernels (timeline), ==, run->kernels->len);
  g_assert_null (wb_timeline_get_range_stats (timeline));
  area = find_area (GTK_WIDGET (timeline));
  g_assert_nonnull (area);
  g_assert_false (gtk_widget_has_focus (area));
  w = gtk_widget_get_width (area);
  h = gtk_widget_get_height (area);
  g_assert_cmpfloat (w, >, LEFT_W + 200);
  wb_timeline_get_visible_range (timeline, &from, &to);
  ns_per_px = (to - from) / (w - LEFT_W);
  x0 = floor (LEFT_W + (w - LEFT_W) * 0.25);
  x1 = floor (LEFT_W + (w - LEFT_W) * 0.75);

  wb_ui_input_drag (input, area, x0, h / 2, x1, h / 2, 6);
  g_assert_true (wb_ui_wait (has_range, timeline, 10));
  g_assert_true (gtk_widget_has_focus (area));
  stats = wb_timeline_get_range_stats (timeline);
  g_test_message ("dragged x %.0f-%.0f: range %.4f-%.4f ms (expected %.4f-%.4f)", x0, x1, stats->from_ns / 1e6, stats->to_ns / 1e6,
                  (from + (x0 - LEFT_W) * ns_per_px) / 1e6, (from + (x1 - LEFT_W) * ns_per_px) / 1e6);
  /* the times under the press and the release, to a pixel */
  g_assert_cmpfloat (fabs (stats->from_ns - (from + (x0 - LEFT_W) * ns_per_px)), <=, ns_per_px + 1);
  g_assert_cmpfloat (fabs (stats->to_ns - (from + (x1 - LEFT_W) * ns_per_px)), <=, ns_per_px + 1);
  g_assert_cmpuint (stats->kernels, ==, wb_ui_count_kernels_in_range (run, stats->from_ns, stats->to_ns, &ns));
  g_assert_cmpuint (stats->kernels, >, 0);
  g_assert_cmpuint (stats->kernels, <, run->kernels->len);
  g_assert_cmpint (stats->kernel_ns, ==, ns);
  {
    g_autofree char      *count = g_strdup_printf ("%u", stats->kernels);
    const WbAggregateRow *top = stats->by_symbol->pdata[0];
    const char           *text = wb_timeline_get_stats_text (timeline);

    g_assert_nonnull (strstr (text, count));
    g_assert_nonnull (strstr (text, top->key));
    g_test_message ("statistics pane:\n%s", text);
  }
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "71-input-timeline-range"));

  timeline_keys (timeline, x1, w - LEFT_W);
  g_assert_nonnull (wb_timeline_get_range_stats (timeline));
  wb_ui_input_key (input, "Escape");
  g_assert_true (wb_ui_wait (no_range, timeline, 10));
  g_assert_null (strstr (wb_timeline_get_stats_text (timeline), "kernel time"));
}

int
main (int argc, char **argv)
{
  int result;

  wb_ui_input_set_log_writer ();
  if (!wb_ui_init (&argc, &argv))
    {
      if (g_getenv ("WB_UI_REQUIRE_XTEST") != NULL)
        {
          g_print ("Bail out! WB_UI_REQUIRE_XTEST is set but no display could be opened\n");
          return 1;
        }
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 77;
    }
  g_test_add_func ("/ui/input/open", test_open);
  g_test_add_func ("/ui/input/stages", test_stages);
  g_test_add_func ("/ui/input/search", test_search);
  g_test_add_func ("/ui/input/graph", test_graph);
  g_test_add_func ("/ui/input/timeline", test_timeline);
  result = g_test_run ();
  g_clear_pointer (&input, wb_ui_input_free);
  g_free (no_input);
  return result;
}
