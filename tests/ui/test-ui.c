/* test-ui.c — drives the real window on gpt2_block (or data/samples/mlp_small): open, step through every
 * stage, select a line (counterpart, region), switch a region's executor on the cpu, screenshots; prints
 * timings (first paint, stepping) as test messages
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "wb-ui-common.h"

static WbWindow *window;
static char     *case_path;

static guint
n_entries (void)
{
  return wb_trace_set_get_n_entries (wb_document_get_trace_set (wb_window_get_document (window)));
}

static void
test_open (void)
{
  gint64 start = g_get_monotonic_time ();

  window = wb_ui_open (case_path);
  g_test_message ("bench: %s open to first paint: %.1f ms", case_path, (g_get_monotonic_time () - start) / 1e3);
  g_assert_nonnull (wb_document_get_trace_set (wb_window_get_document (window)));
  g_assert_cmpuint (n_entries (), >, 5);
  g_assert_nonnull (wb_document_get_pipeline (wb_window_get_document (window)));
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "01-open"));
}

static gboolean painted;

static void
after_paint_cb (GdkFrameClock *clock, gpointer data)
{
  painted = TRUE;
}

static gboolean
was_painted (gpointer data)
{
  return painted;
}

/* time from the step to the window's next paint */
static void
test_step_all (void)
{
  WbSidebar  *sidebar = WB_SIDEBAR (wb_window_get_sidebar (window));
  WbDocument *doc = wb_window_get_document (window);
  guint       steps = 0;
  gint64      worst = 0, total = 0;

  wb_document_set_entry (doc, 0);
  wb_ui_spin (0.1);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint", G_CALLBACK (after_paint_cb), NULL);
  for (;;)
    {
      gint64   t0 = g_get_monotonic_time ();
      gboolean more;
      gint64   dt;

      painted = FALSE;
      more = wb_sidebar_step (sidebar, 1);
      if (!more)
        break;
      gtk_widget_queue_draw (GTK_WIDGET (window));
      g_assert_true (wb_ui_wait (was_painted, NULL, 10));
      dt = g_get_monotonic_time () - t0;
      worst = MAX (worst, dt);
      total += dt;
      steps++;
    }
  g_assert_cmpuint (steps, ==, n_entries () - 1);
  g_assert_cmpuint (wb_document_get_entry (doc), ==, n_entries () - 1);
  g_test_message ("bench: stepped %u stages (GSK_RENDERER=%s): mean %.1f ms, worst %.1f ms", steps,
                  g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "default", total / 1e3 / MAX (steps, 1), worst / 1e3);
  /* and back with the keyboard action */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-stage", NULL);
  g_assert_cmpuint (wb_document_get_entry (doc), ==, n_entries () - 2);

  wb_sidebar_set_hide_unchanged (sidebar, TRUE);
  g_assert_cmpuint (wb_sidebar_get_n_visible (sidebar), <, n_entries ());
  wb_sidebar_set_hide_unchanged (sidebar, FALSE);
}

/* the workbench's fusion stage */
static int
find_workbench_stage (const char *pass)
{
  WbDocument *doc = wb_window_get_document (window);

  for (guint i = 0; i < n_entries (); i++)
    {
      const WbStage *stage = wb_document_get_stage (doc, i);

      if (stage != NULL && g_strcmp0 (wb_stage_get_pass (stage), pass) == 0)
        return (int) i;
    }
  return -1;
}

static void
test_select_line (void)
{
  WbDocument   *doc = wb_window_get_document (window);
  WbStageView  *view = WB_STAGE_VIEW (wb_window_get_stage_view (window));
  int           entry = find_workbench_stage ("Fusion");
  WbTrace      *trace;
  const WbBsym *target = NULL;

  g_assert_cmpint (entry, >=, 0);
  wb_document_set_entry (doc, entry);
  wb_ui_spin (0.2);
  g_assert_cmpuint (wb_stage_view_get_n_changes (view), >, 0);
  trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  /* a region's call: its counterparts are the bound symbols it fused */
  for (guint i = 0; i < trace->n_body && target == NULL; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && wb_bsym_is_fusion (trace->body[i]))
      target = trace->body[i];
  g_assert_nonnull (target);
  wb_stage_view_select_line (view, TRUE, wb_trace_get_bsym_line (trace, target));
  wb_ui_spin (0.2);
  {
    g_autoptr (GArray) right = wb_stage_view_get_selected_lines (view, TRUE);
    g_autoptr (GArray) left = wb_stage_view_get_selected_lines (view, FALSE);
    const char    *region = wb_document_get_region (doc);
    WbRegionTable *table = WB_REGION_TABLE (wb_window_get_region_table (window));

    g_assert_cmpuint (right->len, ==, 1);
    g_assert_cmpuint (left->len, >=, 2);
    g_assert_nonnull (region);
    g_assert_cmpstr (wb_region_table_get_selected (table), ==, region);
    g_test_message ("selected %s: %u counterpart lines on the left", region, left->len);
  }
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "02-select-line"));
  /* the panes show the same aligned rows (after the scroll to the selection has been laid out) */
  {
    guint top_left, top_right;
    wb_stage_view_scroll_to_row (view, 40);
    wb_ui_spin (0.3);
    wb_stage_view_get_top_rows (view, &top_left, &top_right);
    g_test_message ("top rows: left %u, right %u", top_left, top_right);
    g_assert_cmpuint (top_left, ==, 40);
    g_assert_cmpuint (top_right, ==, 40);
  }

  /* a line before fusion maps forward to its region too */
  {
    int      prev = wb_document_get_previous (doc, entry);
    WbTrace *ptrace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), prev)->trace;
    g_autoptr (GArray) left = wb_stage_view_get_selected_lines (view, FALSE);

    wb_stage_view_select_line (view, FALSE, g_array_index (left, guint, 0));
    g_assert_true (wb_document_get_bsym_trace (doc) == ptrace);
    g_assert_nonnull (wb_document_get_region (doc));
  }
}

static gboolean
runs_at_least (gpointer data)
{
  WbDocument *doc = wb_window_get_document (window);

  return wb_document_get_runs (doc)->len >= GPOINTER_TO_UINT (data) && !wb_document_is_busy (doc);
}

static void
test_switch_executor (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbRegionTable   *table = WB_REGION_TABLE (wb_window_get_region_table (window));
  g_autofree char *why = NULL;
  GPtrArray       *regions = wb_pipeline_get_regions (wb_document_get_pipeline (doc));
  g_autofree char *name = g_strdup (((WbRegion *) regions->pdata[0])->name);
  guint            n_regions = regions->len;
  gint64           t0 = g_get_monotonic_time ();

  wb_window_show_view (window, "regions");
  wb_region_table_set_iterations (table, 1, 0);
  wb_region_table_set_confirm (table, FALSE); /* test-ui-profile drives the dialog */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile", NULL);
  g_assert_true (wb_ui_wait (runs_at_least, GUINT_TO_POINTER (1), 240));
  g_test_message ("bench: first cpu run: %.1f s", (g_get_monotonic_time () - t0) / 1e6);
  /* the app profiles through the same job as the command line: it says where it ran and why */
  g_assert_nonnull (wb_document_get_device_reason (doc));
  g_test_message ("device: %s", wb_document_get_device_reason (doc));
  g_assert_cmpstr (((WbRun *) wb_document_get_runs (doc)->pdata[wb_document_get_runs (doc)->len - 1])->device_name, ==, "cpu");

  /* an operator executor cannot take a fused region: the reason comes back */
  g_assert_false (wb_region_table_set_executor (table, name, "cublas", &why));
  g_assert_nonnull (why);
  g_test_message ("cublas on %s: %s", name, why);

  t0 = g_get_monotonic_time ();
  g_assert_true (wb_region_table_set_executor (table, name, "unfuse", NULL));
  g_assert_true (wb_document_is_busy (doc));
  wb_ui_spin (0.5);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "03-rerun-progress"));
  g_assert_true (wb_ui_wait (runs_at_least, GUINT_TO_POINTER (2), 240));
  g_test_message ("bench: re-run after the switch: %.1f s", (g_get_monotonic_time () - t0) / 1e6);
  {
    const WbAssignment *assignment = wb_document_get_assignment (doc);
    g_autofree char    *spec = wb_assignment_to_string (assignment);

    /* the choice is stored by the region's key, which survives the renumbering */
    g_assert_nonnull (assignment);
    g_assert_true (spec[0] == '@');
    g_assert_true (g_str_has_suffix (spec, "=unfuse"));
  }
  g_assert_cmpuint (wb_pipeline_get_regions (wb_document_get_pipeline (doc))->len, !=, 0);
  (void) n_regions;
  wb_document_select_region (doc, ((WbRegion *) wb_pipeline_get_regions (wb_document_get_pipeline (doc))->pdata[0])->name);
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "04-regions-after-switch"));

  /* the gutter shows times on the run's stage */
  {
    int entry = wb_document_get_run_entry (doc);

    g_assert_cmpint (entry, >=, 0);
    wb_window_show_view (window, "stages");
    wb_document_set_entry (doc, entry);
    wb_ui_spin (0.3);
    g_free (wb_ui_screenshot (GTK_WIDGET (window), "05-stage-times"));
  }
}

static gboolean
graph_ready (gpointer data)
{
  return !wb_graph_view_is_busy (data);
}

/* the graph of the fusion stage: the selected line's node is selected; clicking a node selects its bsym */
static void
test_graph (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbStageView     *view = WB_STAGE_VIEW (wb_window_get_stage_view (window));
  WbGraphView     *graph = WB_GRAPH_VIEW (wb_window_get_graph_view (window));
  int              entry = find_workbench_stage ("Fusion");
  WbTrace         *trace;
  const WbBsym    *target = NULL, *other = NULL;
  g_autofree char *dir = g_build_filename (g_getenv ("WB_BUILD_ROOT") ? g_getenv ("WB_BUILD_ROOT") : ".", "tests", "ui", "screenshots", NULL);

  g_assert_cmpint (entry, >=, 0);
  wb_window_show_view (window, "stages");
  wb_document_set_entry (doc, entry);
  trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  for (guint i = 0; i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && wb_bsym_is_fusion (trace->body[i]))
      {
        if (target == NULL)
          target = trace->body[i];
        else if (other == NULL)
          other = trace->body[i];
      }
  g_assert_nonnull (target);
  wb_stage_view_select_line (view, TRUE, wb_trace_get_bsym_line (trace, target));
  wb_window_show_view (window, "graph");
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  wb_ui_spin (0.2);
  g_test_message ("bench: graph of %s: %u nodes, %u regions expanded, layout %.1f ms", wb_stage_get_pass (wb_document_get_stage (doc, entry)),
                  wb_graph_view_get_n_nodes (graph), wb_graph_view_get_n_expanded (graph), wb_graph_view_get_layout_ms (graph));
  g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), >, 3);
  g_assert_true (wb_graph_view_get_selected (graph) == target);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "07-graph"));

  /* a click on another node selects its bound symbol everywhere */
  if (other != NULL)
    {
      g_assert_true (wb_graph_view_click_bsym (graph, other));
      g_assert_true (wb_document_get_bsym (doc) == other);
      g_assert_true (wb_graph_view_get_selected (graph) == other);
      {
        g_autoptr (GArray) right = wb_stage_view_get_selected_lines (view, TRUE);

        g_assert_cmpuint (right->len, ==, 1);
        g_assert_cmpuint (g_array_index (right, guint, 0), ==, wb_trace_get_bsym_line (trace, other));
      }
    }
  /* collapse everything, then expand one region: only its body and the top level are laid out again */
  {
    guint collapsed_nodes;

    gtk_widget_activate_action (GTK_WIDGET (graph), "graph.collapse-all", NULL);
    g_assert_true (wb_ui_wait (graph_ready, graph, 60));
    g_assert_cmpuint (wb_graph_view_get_n_expanded (graph), ==, 0);
    collapsed_nodes = wb_graph_view_get_n_nodes (graph);
    wb_graph_view_set_expanded (graph, target, TRUE);
    g_assert_true (wb_ui_wait (graph_ready, graph, 60));
    g_assert_cmpuint (wb_graph_view_get_n_expanded (graph), ==, 1);
    g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), >, collapsed_nodes);
    g_test_message ("bench: expanding %s: %u -> %u nodes, layout %.1f ms", target->name, collapsed_nodes,
                    wb_graph_view_get_n_nodes (graph), wb_graph_view_get_layout_ms (graph));
    g_free (wb_ui_screenshot (GTK_WIDGET (window), "07b-graph-expanded"));
  }
  /* exports */
  for (int f = WB_GRAPH_EXPORT_PNG; f <= WB_GRAPH_EXPORT_DOT; f++)
    {
      static const char *ext[] = { NULL, "png", "svg", "dot" };
      g_autofree char   *path = g_strdup_printf ("%s/graph-export.%s", dir, ext[f]);
      g_autoptr (GError) error = NULL;
      g_autofree char *contents = NULL;
      gsize            len = 0;

      g_mkdir_with_parents (dir, 0755);
      g_assert_true (wb_graph_view_export (graph, path, f, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      g_assert_cmpuint (len, >, 100);
      if (f == WB_GRAPH_EXPORT_DOT)
        g_assert_true (g_str_has_prefix (contents, "digraph"));
      g_test_message ("graph export: %s (%" G_GSIZE_FORMAT " bytes)", path, len);
    }
  wb_window_show_view (window, "stages");
}

/* after the runs: a region of the run's stage expanded in the graph shows each op's estimated share of the
 * region's measured time, labelled "est." (profiler/wb-op-estimate.h), and so does the region's page */
static void
test_graph_estimates (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbGraphView     *graph = WB_GRAPH_VIEW (wb_window_get_graph_view (window));
  WbRegionTable   *table = WB_REGION_TABLE (wb_window_get_region_table (window));
  int              entry = wb_document_get_run_entry (doc);
  const WbRun     *run = wb_document_get_run (doc);
  const WbBsym    *region = NULL, *op = NULL;
  g_autofree char *tag = NULL, *page = NULL;
  WbTrace         *trace;
  double           rgb[3];

  g_assert_cmpint (entry, >=, 0);
  g_assert_nonnull (run);
  trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  /* the region the run spent most in */
  {
    gint64 most = 0;

    for (guint i = 0; i < trace->n_body; i++)
      {
        const WbRegionStats *s = wb_bsym_is_fusion (trace->body[i]) ? wb_run_find_region (run, trace->body[i]->name) : NULL;

        if (s != NULL && s->median_ns > most)
          most = s->median_ns, region = trace->body[i];
      }
  }
  g_assert_nonnull (region);
  /* the op the estimate gives most: a non-view op, so its tag is not "est. 0.000 ms" */
  {
    gint64 best = -1;

    for (guint k = 0; k < region->n_subsymbols; k++)
      {
        const WbOpEstimate *e = wb_document_get_op_estimate (doc, trace, region->subsymbols[k]);

        g_assert_nonnull (e);
        if (e->estimated_ns > best)
          best = e->estimated_ns, op = region->subsymbols[k];
      }
    g_assert_cmpint (best, >, 0);
  }
  wb_document_set_entry (doc, entry);
  wb_window_show_view (window, "graph");
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  gtk_widget_activate_action (GTK_WIDGET (graph), "graph.collapse-all", NULL);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  wb_graph_view_set_expanded (graph, region, TRUE);
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  tag = wb_graph_view_dup_node_tag (graph, op);
  g_test_message ("%s: %s %s: %s", region->name, op->name, op->outputs && op->outputs->kind == WB_VALUE_NAME ? op->outputs->text : "", tag);
  g_assert_nonnull (tag);
  g_assert_true (g_str_has_prefix (tag, "est. "));
  g_assert_cmpfloat (wb_graph_view_get_node_ms (graph, op), >, 0);
  /* coloured by it: not the plain op colour of a node without a time */
  g_assert_true (wb_graph_view_get_node_rgb (graph, op, rgb));
  g_assert_false (fabs (rgb[0] - 0.859) < 1e-3 && fabs (rgb[1] - 0.914) < 1e-3 && fabs (rgb[2] - 0.965) < 1e-3);
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "07c-graph-estimates"));
  /* the Regions table's page of the region lists its ops with their estimated share */
  wb_window_show_view (window, "regions");
  wb_document_select_region (doc, region->name);
  wb_ui_spin (0.3);
  page = wb_region_table_get_page_text (table);
  g_assert_nonnull (strstr (page, "Its ops, est."));
  g_assert_nonnull (strstr (page, op->name));
  /* the stage's gutter gives the region's lines their estimates ("est. 0.49 ms"), seen in the screenshot */
  wb_window_show_view (window, "stages");
  wb_stage_view_select_line (WB_STAGE_VIEW (wb_window_get_stage_view (window)), TRUE, wb_trace_get_bsym_line (trace, op));
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "07d-stage-estimates"));
}

/* after the runs: the timeline and the kernel table show the latest run's kernels */
static void
test_timeline (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbTimeline      *timeline = WB_TIMELINE (wb_window_get_timeline (window));
  WbKernelTable   *table = WB_KERNEL_TABLE (wb_window_get_kernel_table (window));
  const WbRun     *run = wb_document_get_run (doc);
  g_autofree char *tip = NULL;
  guint            pick = 0;

  g_assert_nonnull (run);
  g_assert_cmpuint (run->kernels->len, >, 0);
  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.3);
  g_assert_cmpuint (wb_timeline_get_n_kernels (timeline), ==, run->kernels->len);
  g_assert_cmpuint (wb_timeline_get_n_streams (timeline), >=, 1);
  g_assert_cmpuint (wb_kernel_table_get_n_rows (table), ==, run->kernels->len);
  g_test_message ("timeline: %u kernels on %u streams", wb_timeline_get_n_kernels (timeline), wb_timeline_get_n_streams (timeline));

  /* sortable by every column; duration descending puts the longest first */
  for (int c = 0; c < WB_KERNEL_N_COLUMNS; c++)
    wb_kernel_table_sort (table, c, FALSE);
  wb_kernel_table_sort (table, WB_KERNEL_COLUMN_DURATION, TRUE);
  if (wb_kernel_table_get_n_rows (table) > 1)
    {
      const WbKernelRecord *a = wb_kernel_table_get_row (table, 0), *b = wb_kernel_table_get_row (table, 1);

      g_assert_cmpint (a->end_ns - a->start_ns, >=, b->end_ns - b->start_ns);
    }
  wb_kernel_table_sort (table, WB_KERNEL_COLUMN_NAME, FALSE);
  g_assert_cmpstr (wb_kernel_table_get_row (table, 0)->name, <=, wb_kernel_table_get_row (table, wb_kernel_table_get_n_rows (table) - 1)->name);

  /* hover text and click: the kernel's region and line are selected */
  for (guint i = 0; i < wb_timeline_get_n_kernels (timeline); i++)
    if (wb_timeline_get_kernel (timeline, i)->region != NULL && wb_timeline_get_kernel (timeline, i)->trace_line != 0)
      {
        pick = i;
        break;
      }
  tip = wb_timeline_get_tooltip (timeline, pick);
  g_assert_nonnull (strstr (tip, wb_timeline_get_kernel (timeline, pick)->name));
  wb_timeline_click_kernel (timeline, pick);
  wb_ui_spin (0.2);
  if (wb_timeline_get_kernel (timeline, pick)->region != NULL)
    g_assert_cmpstr (wb_document_get_region (doc), ==, wb_timeline_get_kernel (timeline, pick)->region);
  if (wb_timeline_get_kernel (timeline, pick)->trace_line != 0)
    {
      g_assert_nonnull (wb_document_get_bsym (doc));
      g_assert_cmpint (wb_document_get_entry (doc), ==, wb_document_get_run_entry (doc));
    }
  g_test_message ("clicked kernel %s: region %s", wb_timeline_get_kernel (timeline, pick)->name, wb_document_get_region (doc));
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "08-timeline"));
  wb_window_show_view (window, "graph");
  g_assert_true (wb_ui_wait (graph_ready, wb_window_get_graph_view (window), 60));
  wb_ui_spin (0.2);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "09-graph-after-run"));
}

static gboolean
has_recent (gpointer data)
{
  return g_menu_model_get_n_items (wb_window_get_recent_menu (window)) > 0;
}

/* preferences (GSettings), the style, the shortcuts window and the recent files */
static void
test_preferences (void)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  GSettings      *settings = wb_application_get_settings (WB_APPLICATION (app));
  GListModel     *toplevels = gtk_window_get_toplevels ();
  guint           before = g_list_model_get_n_items (toplevels);
  gboolean        found = FALSE;

  g_assert_nonnull (settings);
  g_settings_set_string (settings, "style", "dark");
  g_assert_true (adw_style_manager_get_color_scheme (adw_style_manager_get_default ()) == ADW_COLOR_SCHEME_FORCE_DARK);
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "11-dark"));
  g_settings_set_string (settings, "style", "system");
  g_assert_true (adw_style_manager_get_color_scheme (adw_style_manager_get_default ()) == ADW_COLOR_SCHEME_DEFAULT);

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  wb_ui_spin (0.3);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_PREFERENCES_WINDOW (w))
        {
          found = TRUE;
          g_free (wb_ui_screenshot (GTK_WIDGET (w), "12-preferences"));
          gtk_window_destroy (w);
          break;
        }
    }
  g_assert_true (found);
  (void) before;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  wb_ui_spin (0.3);
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)))));
  gtk_widget_set_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))), FALSE);

  /* what was opened is in the recent menu */
  g_assert_true (wb_ui_wait (has_recent, NULL, 10));
  g_test_message ("recent menu: %d items", g_menu_model_get_n_items (wb_window_get_recent_menu (window)));
}

/* llama_layer: first paint, stepping (cold and with the pairs cached), the joint trace's graph layout
 * and the longest main-loop iteration while it ran (numbers printed, not asserted) */
static WbWindow *bench_window;
static gboolean  bench_painted;

static void
bench_paint_cb (GdkFrameClock *clock, gpointer data)
{
  if (!wb_window_is_loading (bench_window))
    bench_painted = TRUE;
}

static gboolean
bench_ready (gpointer data)
{
  return bench_painted;
}

static void
step_through (WbSidebar *sidebar, WbDocument *doc, int dir, const char *what)
{
  gint64 worst = 0, total = 0;
  guint  steps = 0;

  for (;;)
    {
      gint64 t0 = g_get_monotonic_time (), dt;

      painted = FALSE;
      if (!wb_sidebar_step (sidebar, dir))
        break;
      gtk_widget_queue_draw (GTK_WIDGET (bench_window));
      g_assert_true (wb_ui_wait (was_painted, NULL, 10));
      dt = g_get_monotonic_time () - t0;
      worst = MAX (worst, dt);
      total += dt;
      steps++;
    }
  g_test_message ("bench: llama_layer stepping %s (%u steps): mean %.1f ms, worst %.1f ms", what, steps,
                  total / 1e3 / MAX (steps, 1), worst / 1e3);
}

static void
test_bench_llama (void)
{
  g_autofree char    *path = wb_ui_case_path ("llama_layer");
  GtkApplication     *app = gtk_window_get_application (GTK_WINDOW (window));
  WbDocument         *doc;
  WbSidebar          *sidebar;
  WbGraphView        *graph;
  gint64              t0;
  const WbTraceEntry *input;
  int                 joint = -1;

  bench_window = wb_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (bench_window), 1500, 900);
  gtk_window_present (GTK_WINDOW (bench_window));
  wb_ui_spin (0.3);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (bench_window)), "after-paint", G_CALLBACK (bench_paint_cb), NULL);
  t0 = g_get_monotonic_time ();
  wb_window_open (bench_window, path);
  g_assert_true (wb_ui_wait (bench_ready, NULL, 60));
  doc = wb_window_get_document (bench_window);
  g_test_message ("bench: %s (%u stages) open to first paint: %.1f ms", path,
                  wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)), (g_get_monotonic_time () - t0) / 1e3);

  sidebar = WB_SIDEBAR (wb_window_get_sidebar (bench_window));
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (bench_window)), "after-paint", G_CALLBACK (after_paint_cb), NULL);
  wb_document_set_entry (doc, 0);
  wb_ui_spin (0.1);
  step_through (sidebar, doc, 1, "forward, first visit");
  step_through (sidebar, doc, -1, "back, pairs cached");

  /* the joint trace's graph */
  input = wb_pipeline_find_input (wb_document_get_trace_set (doc));
  for (guint i = 0; input && i < wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)); i++)
    if (wb_trace_set_get_entry (wb_document_get_trace_set (doc), i)->trace == input->trace)
      joint = (int) i;
  if (joint < 0)
    {
      g_test_message ("bench: no joint trace in %s", path);
      return;
    }
  graph = WB_GRAPH_VIEW (wb_window_get_graph_view (bench_window));
  wb_document_set_entry (doc, joint);
  wb_window_show_view (bench_window, "graph");
  {
    gint64 start = g_get_monotonic_time (), stall = 0, iterations = 0;

    while (wb_graph_view_is_busy (graph) && g_get_monotonic_time () - start < 120 * G_USEC_PER_SEC)
      {
        gint64 a = g_get_monotonic_time ();

        g_main_context_iteration (NULL, FALSE);
        stall = MAX (stall, g_get_monotonic_time () - a);
        iterations++;
        g_usleep (1000);
      }
    g_assert_false (wb_graph_view_is_busy (graph));
    g_test_message ("bench: joint trace graph (%u nodes): layout %.1f ms on the worker, %.1f ms to shown; "
                    "longest main-loop iteration meanwhile %.1f ms over %" G_GINT64_FORMAT " iterations",
                    wb_graph_view_get_n_nodes (graph), wb_graph_view_get_layout_ms (graph),
                    (g_get_monotonic_time () - start) / 1e3, stall / 1e3, iterations);
  }
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (bench_window), "10-llama-joint-graph"));
  gtk_window_destroy (GTK_WINDOW (bench_window));
}

/* A folder with one file cut in the middle of a line (the bundled sample's top-level traces): the window
 * opens the rest, and the sidebar lists the broken file with the parser's FILE:LINE:COL. */
static void
test_broken_file (void)
{
  g_autofree char *src = g_build_filename (g_getenv ("WB_SOURCE_ROOT"), "data", "samples", "mlp_small", NULL);
  g_autofree char *dir = g_dir_make_tmp ("wb-ui-broken-XXXXXX", NULL);
  g_autoptr (GDir) d = g_dir_open (src, 0, NULL);
  const char       *name;
  const char       *tooltip;
  WbWindow         *broken;
  GtkListBox       *failures;
  GtkListBoxRow    *row;
  guint             n_files = 0, loaded = 0;
  const WbTraceSet *set;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *from = g_build_filename (src, name, NULL);
      g_autofree char *to = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      gsize            len;

      if (!g_str_has_suffix (name, ".py"))
        continue;
      g_assert_true (g_file_get_contents (from, &text, &len, NULL));
      /* forward_03.py: keep its first 300 bytes, which end inside a statement */
      if (strcmp (name, "forward_03.py") == 0)
        {
          g_assert_cmpuint (len, >, 300);
          len = 300;
        }
      g_assert_true (g_file_set_contents (to, text, (gssize) len, NULL));
      n_files++;
    }
  g_assert_cmpuint (n_files, >, 3);

  broken = wb_ui_open (dir);
  g_assert_nonnull (wb_document_get_trace_set (wb_window_get_document (broken)));
  /* every other file's trace is there (the workbench's own stages come after them), the broken one's not */
  set = wb_document_get_trace_set (wb_window_get_document (broken));
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

      loaded += e->path != NULL && g_str_has_prefix (e->path, dir);
      g_assert_false (e->path != NULL && g_str_has_suffix (e->path, "forward_03.py"));
    }
  g_assert_cmpuint (loaded, ==, n_files - 1);
  failures = wb_sidebar_get_failure_list (WB_SIDEBAR (wb_window_get_sidebar (broken)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (failures)));
  row = gtk_list_box_get_row_at_index (failures, 0);
  g_assert_nonnull (row);
  g_assert_null (gtk_list_box_get_row_at_index (failures, 1));
  tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (row)); /* transfer none */
  g_test_message ("the broken file's row: %s", tooltip);
  g_assert_nonnull (strstr (tooltip, "forward_03.py:"));
  g_assert_true (g_regex_match_simple ("forward_03\\.py:[0-9]+:[0-9]+: ", tooltip, 0, 0));
  g_free (wb_ui_screenshot (GTK_WIDGET (broken), "11-broken-file"));
  gtk_window_destroy (GTK_WINDOW (broken));
  /* the copy holds files only */
  g_clear_pointer (&d, g_dir_close);
  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

static gboolean
window_loaded (gpointer data)
{
  WbWindow *w = data;
  return !wb_window_is_loading (w) && wb_document_get_trace_set (wb_window_get_document (w)) != NULL;
}

/* First run: a new window shows the welcome page; "Open the Sample" opens the bundled sample (from the
 * source tree here) and the window's title names it. */
static void
test_welcome (void)
{
  WbWindow        *fresh = wb_window_new (GTK_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));
  g_autofree char *sample = wb_window_find_sample ();

  g_assert_nonnull (sample);
  g_assert_true (g_str_has_suffix (sample, "mlp_small"));
  gtk_window_present (GTK_WINDOW (fresh));
  wb_ui_spin (0.2);
  g_free (wb_ui_screenshot (GTK_WIDGET (fresh), "09-welcome"));
  g_assert_null (wb_document_get_trace_set (wb_window_get_document (fresh)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fresh), "win.open-sample", NULL));
  g_assert_true (wb_ui_wait (window_loaded, fresh, 60));
  g_assert_cmpuint (wb_trace_set_get_n_entries (wb_document_get_trace_set (wb_window_get_document (fresh))), >, 3);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (fresh)), "mlp_small"));
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
  case_path = wb_ui_case_path ("gpt2_block");
  g_test_add_func ("/ui/window/open", test_open);
  g_test_add_func ("/ui/window/step-all", test_step_all);
  g_test_add_func ("/ui/window/select-line", test_select_line);
  g_test_add_func ("/ui/window/graph", test_graph);
  g_test_add_func ("/ui/window/preferences", test_preferences);
  g_test_add_func ("/ui/window/switch-executor", test_switch_executor);
  g_test_add_func ("/ui/window/graph-estimates", test_graph_estimates);
  g_test_add_func ("/ui/window/timeline", test_timeline);
  g_test_add_func ("/ui/window/broken-file", test_broken_file);
  g_test_add_func ("/ui/window/welcome", test_welcome);
  g_test_add_func ("/ui/bench/llama-layer", test_bench_llama);
  return g_test_run ();
}
