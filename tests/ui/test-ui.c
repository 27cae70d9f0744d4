/* test-ui.c — drives the real window on gpt2_block (or data/samples/mlp_small): open, step through every
 * stage, select a line (counterpart, region), switch a region's executor on the cpu, screenshots; prints
 * timings (first paint, stepping) as test messages
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

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
  g_test_message ("bench: stepped %u stages: mean %.1f ms, worst %.1f ms", steps, total / 1e3 / MAX (steps, 1), worst / 1e3);
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
    const char *region = wb_document_get_region (doc);
    WbRegionTable *table = WB_REGION_TABLE (wb_window_get_region_table (window));

    g_assert_cmpuint (right->len, ==, 1);
    g_assert_cmpuint (left->len, >=, 2);
    g_assert_nonnull (region);
    g_assert_cmpstr (wb_region_table_get_selected (table), ==, region);
    g_test_message ("selected %s: %u counterpart lines on the left", region, left->len);
  }
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "02-select-line"));

  /* a line before fusion maps forward to its region too */
  {
    int prev = wb_document_get_previous (doc, entry);
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
  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile", NULL);
  g_assert_true (wb_ui_wait (runs_at_least, GUINT_TO_POINTER (1), 240));
  g_test_message ("bench: first cpu run: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

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
  g_assert_nonnull (wb_document_get_assignment (doc));
  g_assert_true (g_str_has_suffix (wb_document_get_assignment (doc), "=unfuse"));
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
  g_test_add_func ("/ui/window/switch-executor", test_switch_executor);
  return g_test_run ();
}
