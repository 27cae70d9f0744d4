/* test-ui-big.c — the window on the zoo's big cases: the 2-layer Llama, the 32-layer Llama (1,017
 * entries) and ResNet-50's 6,510-node stage: open, the graph's first picture and an expand within their
 * targets (2 s, 1 s), search that centres, a range of the timeline and its statistics; timings printed
 * as test messages
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-ui-common.h"

#define FIRST_PICTURE_MS 2000.0
#define EXPAND_MS 1000.0

static char *
zoo_case (const char *name)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");
  char       *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);

  /* the build unpacks the zoo (tests/zoo/meson.build, build_by_default): a missing case is a failure */
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  return path;
}

static gboolean
graph_ready (gpointer data)
{
  return !wb_graph_view_is_busy (data);
}

/* the entry whose trace draws the most nodes with every region expanded (the largest stage) */
static guint
largest_entry (WbDocument *doc)
{
  const WbTraceSet *set = wb_document_get_trace_set (doc);
  guint             best = 0, best_n = 0;

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      WbTrace *t = wb_trace_set_get_entry (set, i)->trace;
      guint    n = t ? t->n_params : 0;

      for (guint k = 0; t && k < t->n_body; k++)
        n += 1 + (wb_bsym_is_fusion (t->body[k]) ? t->body[k]->n_subsymbols : 0);
      if (n > best_n)
        best = i, best_n = n;
    }
  return best;
}

static const WbBsym *
largest_region (WbTrace *trace)
{
  const WbBsym *best = NULL;

  for (guint i = 0; i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && wb_bsym_is_fusion (trace->body[i]) && (best == NULL || trace->body[i]->n_subsymbols > best->n_subsymbols))
      best = trace->body[i];
  return best;
}

/* the entry holding the region with the largest body */
static guint
entry_with_largest_region (WbDocument *doc)
{
  const WbTraceSet *set = wb_document_get_trace_set (doc);
  guint             best = 0, best_n = 0;

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      WbTrace      *t = wb_trace_set_get_entry (set, i)->trace;
      const WbBsym *r = t ? largest_region (t) : NULL;

      if (r != NULL && r->n_subsymbols > best_n)
        best = i, best_n = r->n_subsymbols;
    }
  g_assert_cmpuint (best_n, >, 0);
  return best;
}

/* shows entry @entry's graph: the first picture within FIRST_PICTURE_MS, fitted, named; then expands
 * @region (found by the search, which expands what holds it and centres on it) within EXPAND_MS */
static void
graph_first_and_expand (WbWindow *window, guint entry, const char *what)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbGraphView     *graph = WB_GRAPH_VIEW (wb_window_get_graph_view (window));
  WbTrace         *trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  const WbBsym    *region = largest_region (trace), *found;
  guint            before;
  gint64           t0;
  g_autofree char *shot = NULL;

  wb_window_show_view (window, "graph");
  wb_ui_spin (0.1);
  t0 = g_get_monotonic_time ();
  wb_document_set_entry (doc, entry);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  g_test_message ("bench: %s graph of entry %u (%u top-level bsyms, %u chunks): first picture %.0f ms (layout %.0f ms), %u nodes",
                  what, entry, trace->n_body, wb_graph_view_get_n_chunks (graph), (g_get_monotonic_time () - t0) / 1e3,
                  wb_graph_view_get_layout_ms (graph), wb_graph_view_get_n_nodes (graph));
  g_assert_cmpfloat (wb_graph_view_get_layout_ms (graph), <, FIRST_PICTURE_MS);
  g_assert_cmpfloat ((g_get_monotonic_time () - t0) / 1e3, <, FIRST_PICTURE_MS + 500);
  g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), >, 3);
  g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), <=, 400); /* collapsed: the top level stays small */
  /* fitted on open: the stage's name is drawn over it */
  g_assert_cmpfloat (wb_graph_view_get_zoom (graph), >, 0);
  g_assert_nonnull (wb_graph_view_get_title (graph));
  g_assert_nonnull (strstr (wb_graph_view_get_title (graph), wb_trace_kind_to_string (wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->kind)));
  if (wb_graph_view_get_n_chunks (graph) > 0)
    {
      /* a bound symbol inside a collapsed chunk: the chunk's node is drawn selected */
      const WbBsym *mid = trace->body[trace->n_body / 2];

      wb_document_select_bsym (doc, trace, mid);
      g_assert_nonnull (wb_graph_view_get_selected (graph));
    }
  shot = g_strdup_printf ("big-%s-graph", what);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), shot));
  if (region == NULL)
    return;

  before = wb_graph_view_get_n_nodes (graph);
  t0 = g_get_monotonic_time ();
  found = wb_graph_view_search (graph, region->name);
  g_assert_true (found == region);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  g_test_message ("bench: %s expanding %s (%u ops): %.0f ms (layout %.0f ms), %u -> %u nodes", what, region->name,
                  region->n_subsymbols, (g_get_monotonic_time () - t0) / 1e3, wb_graph_view_get_layout_ms (graph), before,
                  wb_graph_view_get_n_nodes (graph));
  g_assert_cmpfloat (wb_graph_view_get_layout_ms (graph), <, EXPAND_MS);
  g_assert_cmpuint (wb_graph_view_get_n_expanded (graph), >=, 1);
  g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), >=, before + region->n_subsymbols / 2);
  /* the search selected it and centred on it */
  g_assert_true (wb_document_get_bsym (doc) == region);
  wb_ui_spin (0.2);
  g_assert_true (wb_graph_view_node_is_visible (graph, region));
  /* an op inside it: found, and centred on */
  if (region->n_subsymbols > 0 && region->subsymbols[0]->name != NULL)
    {
      const WbBsym *op = wb_graph_view_search (graph, region->subsymbols[0]->name);

      g_assert_nonnull (op);
      g_assert_true (wb_ui_wait (graph_ready, graph, 60));
      wb_ui_spin (0.1);
      g_assert_true (wb_graph_view_node_is_visible (graph, op));
    }
  g_free (shot);
  shot = g_strdup_printf ("big-%s-graph-expanded", what);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), shot));
}

/* the entry of the workbench's stage after pass @pass, or -1 */
static int
workbench_stage (WbDocument *doc, const char *pass)
{
  for (guint i = 0; i < wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)); i++)
    {
      const WbStage *stage = wb_document_get_stage (doc, i);

      if (stage != NULL && g_strcmp0 (wb_stage_get_pass (stage), pass) == 0)
        return (int) i;
    }
  return -1;
}

/* the 2-layer Llama (a ThunderFX graph module with its joint trace): the fusion stage's graph */
static void
test_llama_2layer (void)
{
  g_autofree char *path = zoo_case ("llama/thunderfx_g0_GraphModule_3");
  WbWindow        *window = wb_ui_open (path);
  int              fusion = workbench_stage (wb_window_get_document (window), "Fusion");

  g_assert_cmpint (fusion, >=, 0);
  graph_first_and_expand (window, (guint) fusion, "llama2");
  graph_first_and_expand (window, largest_entry (wb_window_get_document (window)), "llama2-largest");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* the 32-layer Llama: every graph module's traces in one window; its largest stage */
static void
test_llama_32layer (void)
{
  g_autofree char *path = zoo_case ("llama_32layer");
  gint64           t0 = g_get_monotonic_time ();
  WbWindow        *window = wb_ui_open (path);
  WbDocument      *doc = wb_window_get_document (window);

  g_test_message ("bench: llama_32layer (%u entries) open: %.0f ms", wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)),
                  (g_get_monotonic_time () - t0) / 1e3);
  g_assert_cmpuint (wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)), >, 1000);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "llama_32layer"));
  graph_first_and_expand (window, largest_entry (doc), "llama32");
  graph_first_and_expand (window, entry_with_largest_region (doc), "llama32-region");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ResNet-50's workbench stages: 1,106 top-level bound symbols, 6,510 nodes expanded (the view took
 * 127 s before its top level was drawn as chunks) */
static void
test_resnet50 (void)
{
  g_autofree char *path = zoo_case ("resnet50");
  WbWindow        *window = wb_ui_open (path);
  int              remat = workbench_stage (wb_window_get_document (window), "Rematerialization");

  g_assert_cmpint (remat, >=, 0);
  graph_first_and_expand (window, (guint) remat, "resnet50");
  g_assert_cmpuint (wb_graph_view_get_n_chunks (WB_GRAPH_VIEW (wb_window_get_graph_view (window))), >, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
profiled_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (wb_document_profile_finish (WB_DOCUMENT (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* the Symbols page on the run's stage: every call of a symbol counted once, the run's time on its calls,
 * callers and callees */
static void
symbols_of_run (WbWindow *window, const char *what)
{
  WbDocument           *doc = wb_window_get_document (window);
  WbSymbolView         *view = WB_SYMBOL_VIEW (wb_window_get_symbol_view (window));
  int                   entry = wb_document_get_run_entry (doc);
  WbTrace              *trace;
  const WbBsym         *region = NULL;
  const WbAggregateRow *row;
  const char           *op = NULL;
  guint                 calls = 0, inside = 0;
  g_autofree char      *shot = g_strdup_printf ("big-%s-symbols", what);

  g_assert_cmpint (entry, >=, 0);
  wb_window_show_view (window, "symbols");
  wb_document_set_entry (doc, entry);
  wb_ui_spin (0.2);
  trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  for (guint i = 0; i < trace->n_body && region == NULL; i++)
    if (wb_bsym_is_fusion (trace->body[i]) && trace->body[i]->n_subsymbols > 0)
      region = trace->body[i];
  g_assert_nonnull (region);
  op = region->subsymbols[0]->name;
  /* the op's calls, counted here: top level, and one level into every region */
  for (guint i = 0; i < trace->n_body; i++)
    {
      calls += g_strcmp0 (trace->body[i]->name, op) == 0;
      for (guint k = 0; wb_bsym_is_fusion (trace->body[i]) && k < trace->body[i]->n_subsymbols; k++)
        inside += g_strcmp0 (trace->body[i]->subsymbols[k]->name, op) == 0;
    }
  g_assert_cmpuint (wb_symbol_view_get_n_rows (view), >, 3);
  row = wb_symbol_view_get_row (view, op);
  g_assert_nonnull (row);
  g_assert_cmpuint (row->calls, ==, calls);
  g_assert_cmpuint (row->calls_in_regions, ==, inside);
  g_assert_cmpuint (row->bytes, >, 0);
  wb_symbol_view_select (view, op);
  g_assert_cmpuint (wb_symbol_view_get_n_callers (view), >=, 1);
  /* the region's call: the run's kernels on its line, and its body as callees */
  row = wb_symbol_view_get_row (view, region->name);
  g_assert_nonnull (row);
  g_assert_cmpuint (row->kernels, >=, 1);
  g_assert_cmpint (row->time_ns, >, 0);
  wb_symbol_view_select (view, region->name);
  g_assert_cmpuint (wb_symbol_view_get_n_callees (view), >=, 1);
  g_test_message ("%s symbols: %u; %s: %u calls + %u in regions; %s %.4f ms", what, wb_symbol_view_get_n_rows (view), op, calls, inside,
                  region->name, row->time_ns / 1e6);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), shot));
}

/* the graph of the run's stage: each call's node carries the run's time */
static void
graph_times (WbWindow *window, const char *what)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbGraphView     *graph = WB_GRAPH_VIEW (wb_window_get_graph_view (window));
  int              entry = wb_document_get_run_entry (doc);
  WbTrace         *trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  guint            timed = 0;
  g_autofree char *shot = g_strdup_printf ("big-%s-graph-times", what);

  wb_window_show_view (window, "graph");
  wb_document_set_entry (doc, entry);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  for (guint i = 0; i < trace->n_body; i++)
    {
      double ms = wb_document_get_bsym_ms (doc, trace->body[i]);

      if (ms < 0 || wb_graph_view_get_n_chunks (graph) > 0)
        continue;
      g_assert_cmpfloat (wb_graph_view_get_node_ms (graph, trace->body[i]), ==, ms);
      timed++;
    }
  g_assert_cmpuint (timed, >, 0);
  g_test_message ("%s graph of the run's stage: %u nodes with times", what, timed);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), shot));
}

/* profiles @path on the cpu, then drags across the middle half of the timeline: the statistics */
static void
timeline_range (const char *path, const char *what)
{
  WbWindow           *window = wb_ui_open (path);
  WbDocument         *doc = wb_window_get_document (window);
  WbTimeline         *timeline = WB_TIMELINE (wb_window_get_timeline (window));
  const WbRun        *run;
  const WbRangeStats *stats;
  gboolean            done = FALSE;
  double              from, to, from2, to2, w;
  gint64              ns = 0, region_ns = 0, symbol_ns = 0;
  gint64              t0 = g_get_monotonic_time ();
  g_autofree char    *shot = g_strdup_printf ("big-%s-timeline", what);

  wb_document_profile_async (doc, NULL, WB_PROFILE_DEVICE_CPU, 2, 0, NULL, NULL, NULL, profiled_cb, &done);
  g_assert_true (wb_ui_wait (is_true, &done, 300));
  g_test_message ("bench: %s cpu profile (2 iterations): %.1f s", what, (g_get_monotonic_time () - t0) / 1e6);
  run = wb_document_get_run (doc);
  g_assert_nonnull (run);
  g_assert_cmpuint (run->kernels->len, >, 4);
  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.3);
  g_assert_cmpuint (wb_timeline_get_n_kernels (timeline), ==, run->kernels->len);
  g_assert_cmpuint (wb_timeline_get_n_calls (timeline), >, 0);
  g_assert_null (wb_timeline_get_range_stats (timeline));

  /* drag across the middle half of the tracks */
  w = gtk_widget_get_width (GTK_WIDGET (timeline)) - 360;
  wb_timeline_get_visible_range (timeline, &from, &to);
  g_assert_cmpfloat (to, >, from);
  wb_timeline_drag (timeline, 90 + (w - 90) * 0.25, 90 + (w - 90) * 0.75);
  stats = wb_timeline_get_range_stats (timeline);
  g_assert_nonnull (stats);
  g_assert_cmpint (stats->to_ns, >, stats->from_ns);
  g_assert_cmpuint (stats->kernels, ==, wb_ui_count_kernels_in_range (run, stats->from_ns, stats->to_ns, &ns));
  g_assert_cmpuint (stats->kernels, >, 0);
  g_assert_cmpuint (stats->kernels, <, run->kernels->len);
  g_assert_cmpint (stats->kernel_ns, ==, ns);
  g_assert_cmpint (stats->busy_ns, <=, stats->kernel_ns);
  g_assert_cmpint (stats->busy_ns, <=, stats->to_ns - stats->from_ns);
  for (guint i = 0; i < stats->by_region->len; i++)
    region_ns += ((WbAggregateRow *) stats->by_region->pdata[i])->time_ns;
  for (guint i = 0; i < stats->by_symbol->len; i++)
    symbol_ns += ((WbAggregateRow *) stats->by_symbol->pdata[i])->time_ns;
  g_assert_cmpint (region_ns, ==, ns);
  g_assert_cmpint (symbol_ns, ==, ns);
  {
    g_autofree char      *count = g_strdup_printf ("%u", stats->kernels);
    const WbAggregateRow *top = stats->by_symbol->pdata[0];

    g_assert_nonnull (strstr (wb_timeline_get_stats_text (timeline), count));
    g_assert_nonnull (strstr (wb_timeline_get_stats_text (timeline), top->key));
    g_test_message ("%s range %.4f-%.4f ms: %u kernels, top symbol %s %.4f ms", what, stats->from_ns / 1e6, stats->to_ns / 1e6,
                    stats->kernels, top->key, top->time_ns / 1e6);
  }
  g_free (wb_ui_screenshot (GTK_WIDGET (window), shot));

  /* keys as Perfetto's: W zooms in about the middle, D pans right, Escape clears the range */
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-in", NULL);
  wb_timeline_get_visible_range (timeline, &from2, &to2);
  g_assert_cmpfloat (fabs ((to2 - from2) - (to - from) / 2), <, (to - from) * 0.01);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.pan-right", NULL);
  wb_timeline_get_visible_range (timeline, &from, &to);
  g_assert_cmpfloat (from, >, from2);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-out", NULL);
  wb_timeline_get_visible_range (timeline, &from2, &to2);
  g_assert_cmpfloat (fabs ((to2 - from2) - 2 * (to - from)), <, (to - from) * 0.01);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-range", NULL);
  g_assert_null (wb_timeline_get_range_stats (timeline));
  symbols_of_run (window, what);
  graph_times (window, what);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_timeline_llama_2layer (void)
{
  g_autofree char *path = zoo_case ("llama/thunderfx_g0_GraphModule_3");

  timeline_range (path, "llama2");
}

static void
test_timeline_llama_32layer (void)
{
  g_autofree char *path = zoo_case ("llama_32layer/thunderfx_g0_GraphModule_10");

  timeline_range (path, "llama32");
}

static gboolean
loaded_with (gpointer data)
{
  WbWindow *w = data;

  return !wb_window_is_loading (w) && wb_document_get_trace_set (wb_window_get_document (w)) != NULL;
}

static gboolean
has_recent_button (gpointer data)
{
  return gtk_widget_get_first_child (wb_window_get_welcome_recent (data)) != NULL;
}

/* the button under @widget whose action is @action */
static GtkWidget *
find_button (GtkWidget *widget, const char *action)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *b = find_button (c, action);

      if (b != NULL)
        return b;
    }
  return NULL;
}

/* First run: the welcome page's "Open the Sample" button opens the bundled sample; its recent files
 * (after the cases above were opened) each open with a click; the title names what is open */
static void
test_welcome (void)
{
  GtkApplication  *app = GTK_APPLICATION (g_application_get_default ());
  WbWindow        *fresh = wb_window_new (app);
  GtkWidget       *button;
  GVariant        *target;
  g_autofree char *path = NULL, *base = NULL;

  gtk_window_set_default_size (GTK_WINDOW (fresh), 1200, 800);
  gtk_window_present (GTK_WINDOW (fresh));
  g_assert_true (wb_ui_wait (has_recent_button, fresh, 10));
  wb_ui_spin (0.2);
  g_free (wb_ui_screenshot (GTK_WIDGET (fresh), "big-welcome"));
  button = find_button (GTK_WIDGET (fresh), "win.open-sample");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_visible (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (wb_ui_wait (loaded_with, fresh, 60));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (fresh)), "mlp_small"));
  gtk_window_destroy (GTK_WINDOW (fresh));

  fresh = wb_window_new (app);
  gtk_window_present (GTK_WINDOW (fresh));
  g_assert_true (wb_ui_wait (has_recent_button, fresh, 10));
  button = gtk_widget_get_first_child (wb_window_get_welcome_recent (fresh));
  target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));
  path = g_variant_dup_string (target, NULL);
  base = g_path_get_basename (path);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, base);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (wb_ui_wait (loaded_with, fresh, 120));
  g_assert_cmpstr (wb_document_get_path (wb_window_get_document (fresh)), ==, path);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (fresh)), base));
  gtk_window_destroy (GTK_WINDOW (fresh));
}

int
main (int argc, char **argv)
{
  if (!wb_ui_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 77;
    }
  g_test_add_func ("/ui/big/llama-2layer", test_llama_2layer);
  g_test_add_func ("/ui/big/llama-32layer", test_llama_32layer);
  g_test_add_func ("/ui/big/resnet50", test_resnet50);
  g_test_add_func ("/ui/big/timeline-llama-2layer", test_timeline_llama_2layer);
  g_test_add_func ("/ui/big/timeline-llama-32layer", test_timeline_llama_32layer);
  g_test_add_func ("/ui/big/welcome", test_welcome);
  return g_test_run ();
}
