/* test-ui-session.c — a session made by `thunder-wb --headless profile data/samples/mlp_small --session F`
 * twice: opened in the window, its runs in the sidebar, the two runs compared (executors, times,
 * difference, noise verdict); the region page's claim remarks are the region's own; the Regions table
 * lists the regions of the stage the runs timed (TorchCompile0/1) with their medians; the Record dialog
 * runs a stand-in recorder into the session, shows its output, stops it, and reopens the session
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "wb-record-dialog.h"
#include "wb-ui-common.h"

static WbWindow *window;
static char     *session;
static char     *recorder; /* (nullable) the stand-in recorder: WB_THUNDER_WB */

static void
make_session (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  const char      *source = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *exe = g_build_filename (build ? build : ".", "app", "thunder-wb", NULL);
  g_autofree char *sample = g_build_filename (source ? source : ".", "data", "samples", "mlp_small", NULL);
  g_autofree char *dir = g_dir_make_tmp ("wb-ui-session-XXXXXX", NULL);

  g_assert_nonnull (dir);
  session = g_build_filename (dir, "two-runs.wbsession", NULL);
  for (int i = 0; i < 2; i++)
    {
      const char      *argv[] = { exe, "--headless", "profile", sample, "--session", session, "--iters", "5", NULL };
      g_autofree char *out = NULL, *err = NULL;
      int              status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
      if (!g_spawn_check_wait_status (status, NULL))
        g_test_message ("profile: %s%s", out, err);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
    }
}

static void
test_open_session (void)
{
  WbDocument *doc;

  make_session ();
  window = wb_ui_open (session);
  doc = wb_window_get_document (window);
  g_assert_nonnull (wb_document_get_trace_set (doc));
  g_assert_nonnull (wb_document_get_pipeline (doc));
  g_assert_cmpstr (wb_document_get_session_path (doc), ==, session);
  g_assert_cmpuint (wb_document_get_runs (doc)->len, ==, 2);
  g_assert_cmpint (((WbRun *) wb_document_get_runs (doc)->pdata[0])->id, >, 0);
  {
    g_autofree char *label = wb_document_dup_run_label (doc, 1);

    g_assert_true (strstr (label, "Run 2") != NULL);
  }
  {
    /* the profile dialog's estimate before any run of this window: the session's latest run's iterations */
    const WbRun *run = wb_document_get_run (doc);
    double       last = 0, estimate = 0;

    g_assert_true (wb_document_estimate_seconds (doc, 2 * run->iters, 0, &last, &estimate));
    g_assert_cmpfloat (estimate, >, 0);
    g_assert_cmpfloat (fabs (estimate - 2 * run->iters * wb_run_get_iteration_median_ns (run) / 1e9), <, 1e-9);
  }
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "20-session-open"));
}

static void
test_compare (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbCompareView   *view = WB_COMPARE_VIEW (wb_window_get_compare_view (window));
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint        a = 9, b = 9, n_regions = 0;
  const WbRun *run_a, *run_b;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.compare-runs", NULL);
  wb_ui_spin (0.3);
  g_assert_true (wb_compare_view_get_runs (view, &a, &b));
  g_assert_cmpuint (a, ==, 0);
  g_assert_cmpuint (b, ==, 1);
  run_a = wb_document_get_runs (doc)->pdata[0];
  run_b = wb_document_get_runs (doc)->pdata[1];
  text = wb_compare_view_get_text (view);
  g_assert_nonnull (text);
  g_test_message ("comparison:\n%s", text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Region\tExecutor A\tExecutor B\tA (ms)\tB (ms)"));
  g_assert_true (g_str_has_prefix (lines[1], "Whole iteration\t"));
  /* every region of run A is a row with its executors, both medians, the difference and a verdict */
  for (guint i = 0; i < run_a->regions->len; i++)
    {
      const WbRegionStats *sa = run_a->regions->pdata[i];
      const WbRegionStats *sb = wb_run_find_region (run_b, sa->name);
      g_auto (GStrv) cells = g_strsplit (lines[i + 2], "\t", -1);
      g_autofree char *ma = g_strdup_printf ("%.3f", sa->median_ns / 1e6);
      g_autofree char *mb = NULL;
      g_autofree char *diff = NULL;

      g_assert_nonnull (sb);
      mb = g_strdup_printf ("%.3f", sb->median_ns / 1e6);
      diff = g_strdup_printf ("%+.3f", (sb->median_ns - sa->median_ns) / 1e6);
      g_assert_cmpuint (g_strv_length (cells), ==, 9);
      g_assert_cmpstr (cells[0], ==, sa->name);
      g_assert_cmpstr (cells[1], ==, sa->executor);
      g_assert_cmpstr (cells[2], ==, sb->executor);
      g_assert_cmpstr (cells[3], ==, ma);
      g_assert_cmpstr (cells[4], ==, mb);
      g_assert_cmpstr (cells[5], ==, diff);
      g_assert_true (g_str_has_prefix (cells[7], "±"));
      g_assert_true (strcmp (cells[8], "within noise") == 0 || strcmp (cells[8], "slower") == 0 || strcmp (cells[8], "faster") == 0);
      n_regions++;
    }
  g_assert_cmpuint (n_regions, >, 0);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "21-compare-two-runs"));

  /* swapped: B against A */
  wb_compare_view_set_runs (view, 1, 0);
  g_assert_true (wb_compare_view_get_runs (view, &a, &b));
  g_assert_cmpuint (a, ==, 1);
  g_assert_cmpuint (b, ==, 0);
}

/* the region page lists the claim remarks of the region's bound symbols, not every same-named op */
static void
test_region_page (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbRegionTable   *table = WB_REGION_TABLE (wb_window_get_region_table (window));
  GPtrArray       *regions = wb_pipeline_get_regions (wb_document_get_pipeline (doc));
  GPtrArray       *remarks = wb_pipeline_get_remarks (wb_document_get_pipeline (doc));
  const WbRegion  *region = regions->pdata[0];
  g_autofree char *page = NULL;
  guint            total = 0;

  wb_window_show_view (window, "regions");
  wb_document_select_region (doc, region->name);
  wb_ui_spin (0.2);
  page = wb_region_table_get_page_text (table);
  g_test_message ("page:\n%s", page);
  g_assert_true (strstr (page, "Claim remarks") != NULL);
  g_assert_true (strstr (page, "What runs it") != NULL);
  for (guint i = 0; i < remarks->len; i++)
    {
      const WbRemark  *r = remarks->pdata[i];
      g_autofree char *line = g_strdup_printf ("%s %s (line %u)", r->executor, r->symbol, r->line);

      g_assert_nonnull (r->bsym);
      if (strstr (page, line) != NULL)
        total++;
    }
  g_assert_cmpuint (total, >, 0);
  g_assert_cmpuint (total, <, remarks->len);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "22-session-region-page"));
}

/* the runs of `profile` timed Thunder's final stage: the Regions table lists that stage's regions
 * (TorchCompile0, TorchCompile1) with the latest run's medians, not "–" for the plan's nvrtcFusionN */
static void
test_run_regions (void)
{
  WbDocument      *doc = wb_window_get_document (window);
  WbRegionTable   *table = WB_REGION_TABLE (wb_window_get_region_table (window));
  const WbRun     *run = wb_document_get_run (doc);
  const WbRun     *previous = wb_document_get_previous_run (doc);
  g_autofree char *text = NULL;
  g_autofree char *page = NULL;
  g_auto (GStrv) lines = NULL;
  const char *const names[] = { "TorchCompile0", "TorchCompile1" };

  g_assert_nonnull (run);
  g_assert_nonnull (run->stage);
  g_assert_false (wb_document_run_is_planned (doc, run));
  wb_window_show_view (window, "regions");
  wb_ui_spin (0.2);
  text = wb_region_table_dup_text (table);
  g_test_message ("regions table:\n%s", text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Region\tExecutor\tOps\tBytes\tTime (ms)\t"));
  g_assert_cmpuint (g_strv_length (lines) - 2, ==, run->regions->len); /* titles, rows, the empty last */
  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      const WbRegionStats *s = wb_run_find_region (run, names[n]);
      const WbRegionStats *p = previous ? wb_run_find_region (previous, names[n]) : NULL;
      g_autofree char     *median = NULL;
      g_autofree char     *share = NULL;
      gboolean             found = FALSE;

      g_assert_nonnull (s);
      median = g_strdup_printf ("%.3f", s->median_ns / 1e6);
      share = g_strdup_printf ("%.1f%%", 100.0 * s->share);
      for (guint i = 1; lines[i] != NULL && !found; i++)
        {
          g_auto (GStrv) cells = g_strsplit (lines[i], "\t", -1);

          if (g_strcmp0 (cells[0], names[n]) != 0)
            continue;
          found = TRUE;
          g_assert_cmpuint (g_strv_length (cells), ==, 10);
          g_assert_cmpstr (cells[9], ==, "fusion"); /* TorchCompileN */
          g_assert_cmpstr (cells[1], ==, s->executor);
          g_assert_cmpstr (cells[2], !=, ""); /* ops of its call in forward_NN / backward_NN */
          g_assert_cmpstr (cells[4], !=, "–");
          g_assert_cmpstr (cells[4], ==, median);
          g_assert_cmpstr (cells[6], ==, share);
          g_assert_cmpstr (cells[7], !=, "–");
          if (p != NULL && p->median_ns > 0)
            g_assert_cmpstr (cells[5], !=, "");
        }
      g_assert_true (found);
    }

  /* its page: the run's figures and its call in the stage it ran */
  wb_document_select_region (doc, "TorchCompile0");
  wb_ui_spin (0.2);
  g_assert_cmpstr (wb_region_table_get_selected (table), ==, "TorchCompile0");
  page = wb_region_table_get_page_text (table);
  g_test_message ("page:\n%s", page);
  g_assert_true (strstr (page, "Region TorchCompile0") != NULL);
  g_assert_true (strstr (page, run->stage) != NULL);
  g_assert_true (strstr (page, "Its call in the stage") != NULL);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "23-session-run-regions"));
}

/* -- recording ----------------------------------------------------------------------------------- */

/* A stand-in for `thunder-wb record --session F -- COMMAND...`: it prints its arguments, fails for a
 * script named *fail*, sleeps for one named *slow*, and otherwise imports the sample into F, as the
 * real recorder imports what it recorded. */
static void
write_recorder (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  const char      *source = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *exe = g_build_filename (build ? build : ".", "app", "thunder-wb", NULL);
  g_autofree char *sample = g_build_filename (source ? source : ".", "data", "samples", "mlp_small", NULL);
  g_autofree char *dir = g_dir_make_tmp ("wb-ui-record-XXXXXX", NULL);
  g_autofree char *script = NULL;

  g_assert_nonnull (dir);
  recorder = g_build_filename (dir, "thunder-wb", NULL);
  script = g_strdup_printf ("#!/bin/sh\n"
                            "echo \"recording $*\"\n"
                            "case \"$6\" in\n"
                            "  *fail*) echo 'no Thunder here' >&2; exit 1 ;;\n"
                            "  *slow*) exec sleep 30 ;;\n"
                            "esac\n"
                            "exec '%s' --headless import '%s' --session \"$3\"\n",
                            exe, sample);
  g_assert_true (g_file_set_contents (recorder, script, -1, NULL));
  g_assert_cmpint (g_chmod (recorder, 0755), ==, 0);
  g_setenv ("WB_THUNDER_WB", recorder, TRUE);
}

static WbRecordDialog *
find_record_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (WB_IS_RECORD_DIALOG (item))
        return WB_RECORD_DIALOG (item);
    }
  return NULL;
}

static gboolean
record_finished (gpointer data)
{
  return !wb_record_dialog_is_running (data);
}

static gboolean
window_loaded (gpointer data)
{
  return !wb_window_is_loading (data);
}

/* runs @command in @dialog to its end; (transfer full) the output */
static char *
record (WbRecordDialog *dialog, const char *command, gboolean stop)
{
  wb_record_dialog_set_command (dialog, command);
  wb_record_dialog_start (dialog);
  g_assert_true (wb_record_dialog_is_running (dialog));
  if (stop)
    {
      wb_ui_spin (0.3);
      wb_record_dialog_stop (dialog);
    }
  g_assert_true (wb_ui_wait (record_finished, dialog, 60));
  return wb_record_dialog_dup_output (dialog);
}

static void
test_record (void)
{
  WbRecordDialog  *dialog;
  g_autofree char *failed = NULL, *stopped = NULL, *recorded = NULL;
  g_autofree char *expected = NULL;

  g_assert_nonnull (window);
  g_assert_true (wb_window_can_record (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL);
  dialog = find_record_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  /* the window shows a session: the recordings go into it */
  g_assert_cmpstr (wb_record_dialog_get_session (dialog), ==, session);

  failed = record (dialog, "python3 'fail here.py'", FALSE);
  expected = g_strdup_printf ("$ %s record --session %s -- python3 fail here.py\n", recorder, session);
  g_assert_true (g_str_has_prefix (failed, expected));
  g_assert_nonnull (strstr (failed, "no Thunder here"));
  g_assert_nonnull (strstr (failed, "The recording failed"));

  stopped = record (dialog, "python3 slow.py", TRUE);
  g_assert_nonnull (strstr (stopped, "The recording failed"));
  g_assert_null (strstr (stopped, "no Thunder here")); /* each recording starts a fresh output */

  recorded = record (dialog, "python3 train.py --steps 1", FALSE);
  g_assert_nonnull (strstr (recorded, "mlp_small")); /* import's line: the sample is already in the session */
  g_assert_nonnull (strstr (recorded, "Recorded; opening the session."));
  g_free (wb_ui_screenshot (GTK_WIDGET (dialog), "24-record-dialog"));
  g_assert_true (wb_ui_wait (window_loaded, window, 60));
  g_assert_cmpstr (wb_document_get_session_path (wb_window_get_document (window)), ==, session);
  g_assert_nonnull (wb_document_get_trace_set (wb_window_get_document (window)));

  gtk_window_destroy (GTK_WINDOW (dialog));
  wb_ui_spin (0.1);
  g_assert_null (find_record_dialog ());
}

int
main (int argc, char **argv)
{
  int result;

  if (!wb_ui_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 77;
    }
  g_test_add_func ("/ui/session/open", test_open_session);
  g_test_add_func ("/ui/session/compare", test_compare);
  g_test_add_func ("/ui/session/region-page", test_region_page);
  g_test_add_func ("/ui/session/run-regions", test_run_regions);
  g_test_add_func ("/ui/session/record", test_record);
  write_recorder ();
  result = g_test_run ();
  if (recorder != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (recorder);

      g_unlink (recorder);
      g_rmdir (dir);
    }
  if (session != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (session);
      g_autofree char *wal = g_strconcat (session, "-wal", NULL);
      g_autofree char *shm = g_strconcat (session, "-shm", NULL);

      g_unlink (session);
      g_unlink (wal);
      g_unlink (shm);
      g_rmdir (dir);
    }
  return result;
}
