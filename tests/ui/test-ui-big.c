/* test-ui-big.c — the window on the zoo's big cases: the 2-layer Llama, the 32-layer Llama (1,017
 * entries) and ResNet-50's 6,510-node stage: open, the graph's first picture and an expand within their
 * targets (2 s, 1 s), search that centres, a range of the timeline and its statistics; timings printed
 * as test messages
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

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
  return g_test_run ();
}
