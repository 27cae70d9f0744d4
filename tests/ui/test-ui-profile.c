/* test-ui-profile.c — the app's tuning loop on a real 2-layer model of the zoo (issue 45, parts 1-3):
 * stepping through every stage with the aligned diff, profiling through the shared job on the "GPU" (the
 * fake runner of tests/profiler, so CI drives the GPU path) and on the cpu, changing an executor and
 * finding each region again by key, cancelling long runs with the memory given back, and a GPU run's host
 * calls on the timeline's CUDA API track.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb-ui-common.h"

static WbWindow *window;
static char     *case_dir;

/* -- helpers -------------------------------------------------------------------------------------- */

/* resident memory of this process, bytes */
static guint64
rss_bytes (void)
{
  g_autofree char *text = NULL;
  guint64          pages = 0;

  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL))
    {
      g_auto (GStrv) f = g_strsplit (text, " ", -1);

      if (f[0] != NULL && f[1] != NULL)
        pages = g_ascii_strtoull (f[1], NULL, 10);
    }
  return pages * (guint64) sysconf (_SC_PAGESIZE);
}

static WbRegionTable *
table (void)
{
  return WB_REGION_TABLE (wb_window_get_region_table (window));
}

static gboolean
dialog_shown (gpointer data)
{
  return wb_region_table_get_confirm_dialog (table ()) != NULL;
}

/* answers the confirmation dialog that a profile asks first; returns its body */
static char *
confirm (const char *response)
{
  GtkWidget *dialog;
  char      *body;

  g_assert_true (wb_ui_wait (dialog_shown, NULL, 10));
  dialog = wb_region_table_get_confirm_dialog (table ());
  body = g_strdup (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), response);
  gtk_window_destroy (GTK_WINDOW (dialog));
  return body;
}

typedef struct
{
  guint      runs;
  GPtrArray *texts; /* progress texts seen */
  guint64    peak_rss;
  double     fraction; /* the progress bar's highest fraction seen; it never went back (asserted) */
} Watch;

static gboolean
run_done (gpointer data)
{
  Watch      *w = data;
  WbDocument *doc = wb_window_get_document (window);
  const char *text = wb_region_table_get_progress_text (table ());

  if (text != NULL && w->texts != NULL && (w->texts->len == 0 || strcmp (g_ptr_array_index (w->texts, w->texts->len - 1), text) != 0))
    g_ptr_array_add (w->texts, g_strdup (text));
  if (text != NULL && w->texts != NULL)
    {
      double f = wb_region_table_get_progress_fraction (table ());

      g_assert_cmpfloat (f, >=, w->fraction);
      w->fraction = f;
    }
  w->peak_rss = MAX (w->peak_rss, rss_bytes ());
  return wb_document_get_runs (doc)->len >= w->runs && !wb_document_is_busy (doc);
}

static gboolean
texts_have (GPtrArray *texts, const char *prefix)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (texts->pdata[i], prefix))
      return TRUE;
  return FALSE;
}

static const WbRun *
latest_run (void)
{
  GPtrArray *runs = wb_document_get_runs (wb_window_get_document (window));

  return runs->len ? runs->pdata[runs->len - 1] : NULL;
}

/* the cells of the Regions table's row @name (tab-separated: Region, Executor, Ops, Bytes, Time, Δ, ...) */
static GStrv
row_cells (const char *name)
{
  g_autofree char *text = wb_region_table_dup_text (table ());
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      GStrv cells = g_strsplit (lines[i], "\t", -1);

      if (cells[0] != NULL && strcmp (cells[0], name) == 0)
        return cells;
      g_strfreev (cells);
    }
  return NULL;
}

/* -- part 3: every stage, the aligned diff ---------------------------------------------------------- */

static void
test_step_stages (void)
{
  WbDocument  *doc = wb_window_get_document (window);
  WbStageView *view = WB_STAGE_VIEW (wb_window_get_stage_view (window));
  guint        n = wb_trace_set_get_n_entries (wb_document_get_trace_set (doc));
  guint        renamed_rows = 0, skipped_neighbours = 0;
  double       worst_ms = 0;

  wb_window_show_view (window, "stages");
  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (wb_document_get_trace_set (doc), i);
      int                 prev = wb_document_get_previous (doc, i);
      const WbStagePair  *pair;
      gint64              t0 = g_get_monotonic_time ();
      double              ms;

      wb_document_set_entry (doc, i);
      wb_ui_spin (0.02);
      ms = (g_get_monotonic_time () - t0) / 1e3;
      worst_ms = MAX (worst_ms, ms);
      pair = wb_stage_view_get_pair (view);
      g_assert_nonnull (pair);
      /* a file's diff is against a file of its own sub-program, never simply the file before it */
      if (prev >= 0 && wb_document_get_stage (doc, i) == NULL)
        g_assert_true (wb_stage_pair_can_pair (wb_trace_set_get_entry (wb_document_get_trace_set (doc), prev)->trace, e->trace));
      if (i > 0 && prev != (int) i - 1 && wb_document_get_stage (doc, i) == NULL &&
          g_strcmp0 (wb_trace_set_get_entry (wb_document_get_trace_set (doc), i - 1)->subset, e->subset) == 0)
        skipped_neighbours++;
      /* the first renamed row of the pair: its names are highlighted in both panes, and nothing else */
      for (guint row = 0; row < wb_stage_pair_get_n_rows (pair) && renamed_rows < 3; row++)
        {
          guint l, r;

          wb_stage_pair_get_row (pair, row, &l, &r);
          if (l != G_MAXUINT && r != G_MAXUINT && wb_stage_pair_get_line_mark (pair, FALSE, l) == WB_LINE_RENAMED)
            {
              g_autoptr (GArray) hl = wb_stage_view_get_highlights (view, FALSE, row, "renamed-text");
              g_autoptr (GArray) hr = wb_stage_view_get_highlights (view, TRUE, row, "renamed-text");
              g_autoptr (GArray) cl = wb_stage_view_get_highlights (view, FALSE, row, "changed-text");
              g_autofree char *left = wb_stage_view_dup_row_text (view, FALSE, row);
              g_autofree char *right = wb_stage_view_dup_row_text (view, TRUE, row);

              /* both panes show the pair's lines on the same row (filler lines keep them aligned) */
              g_assert_cmpstr (left, !=, right);
              g_assert_cmpuint (hl->len, >, 0);
              g_assert_cmpuint (hr->len, >, 0);
              g_assert_cmpuint (cl->len, ==, 0);
              g_assert_true (g_ascii_isalpha (left[g_array_index (hl, guint, 0)]) || left[g_array_index (hl, guint, 0)] == '_');
              g_test_message ("entry %u row %u renamed:\n  %s\n  %s", i, row, left, right);
              renamed_rows++;
              break;
            }
        }
    }
  g_test_message ("bench: stepped through %u stages, slowest step %.0f ms", n, worst_ms);
  g_assert_cmpuint (renamed_rows, >, 0);
  g_assert_cmpuint (skipped_neighbours, >, 0); /* split_backward is not diffed against split_forward */
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "30-zoo-aligned-diff"));
}

/* -- part 1: the GPU path (fake runner), progress, the dialog ---------------------------------------- */

/* The progress texts of a GPU run, in the order seen: each phase's words (in run order, none again after
 * it ended) with its iteration number rising and, for the phases of iterations, the last one shown. */
static void
check_phase_texts (GPtrArray *texts, guint iters)
{
  static const char *const phases[] = { "Checked run: call ", "Warming up: ", "Unprofiled iteration ", "Iteration ", "Traced iteration " };
  guint                    seen[G_N_ELEMENTS (phases)] = { 0 }, last[G_N_ELEMENTS (phases)] = { 0 }, total[G_N_ELEMENTS (phases)] = { 0 };
  int                      at = -1;

  for (guint i = 0; i < texts->len; i++)
    {
      const char *t = texts->pdata[i];

      for (int k = 0; k < (int) G_N_ELEMENTS (phases); k++)
        if (g_str_has_prefix (t, phases[k]))
          {
            guint done = 0, of = 0;

            g_assert_cmpint (sscanf (t + strlen (phases[k]), "%u of %u", &done, &of), ==, 2);
            g_assert_cmpint (k, >=, at);
            g_assert_cmpuint (done, >, k == at ? last[k] : 0);
            at = k;
            last[k] = done;
            total[k] = of;
            seen[k]++;
          }
    }
  for (guint k = 2; k < G_N_ELEMENTS (phases); k++)
    {
      g_test_message ("%s: %u texts, the last %u of %u", phases[k], seen[k], last[k], total[k]);
      g_assert_cmpuint (seen[k], >=, 2);
      g_assert_cmpuint (total[k], ==, iters);
      g_assert_cmpuint (last[k], ==, iters);
    }
  g_assert_cmpuint (seen[0], >, 0);
}

/* The document keeps its GPU runner from one profile to the next: one started before a test set its FAKE_RUNNER_*
 * variables would not see them, so each GPU test starts from none */
static void
fresh_runner (void)
{
  wb_document_end_runner (wb_window_get_document (window));
}

static void
test_profile_gpu (void)
{
  const char      *runner = g_getenv ("WB_FAKE_RUNNER");
  Watch            w = { 1, g_ptr_array_new_with_free_func (g_free), 0 };
  g_autofree char *body = NULL;

  if (runner == NULL)
    {
      g_test_skip ("no fake runner");
      g_ptr_array_unref (w.texts);
      return;
    }
  g_setenv ("WB_RUNNER", runner, TRUE);
  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  /* 60 ms iterations: the runner's rate limit (one per 50 ms) lets every phase show several */
  g_setenv ("FAKE_RUNNER_ITER_MS", "60", TRUE);
  /* the runner's note on the timed iterations: the line under the table says it */
  g_setenv ("FAKE_RUNNER_REPLAY_NOTE", "cannot capture a CUDA graph: nvFusion0 runs ltorch.topk on the cpu fallback; the 8 timed "
                                       "iterations ran without one",
            TRUE);
  fresh_runner ();
  wb_region_table_set_confirm (table (), TRUE);
  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_AUTO);
  wb_region_table_set_iterations (table (), 8, 3);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile", NULL);
  body = confirm ("profile");
  g_test_message ("dialog: %s", body);
  g_assert_nonnull (strstr (body, "8 timed iterations"));
  g_assert_nonnull (strstr (body, "no earlier run"));
  g_assert_true (wb_ui_wait (run_done, &w, 120));
  g_assert_cmpstr (latest_run ()->device_model, ==, "NVIDIA Fake 80GB");
  g_assert_cmpuint (latest_run ()->iteration_ns->len, ==, 8);
  g_assert_true (texts_have (w.texts, "Iteration"));
  for (guint i = 0; i < w.texts->len; i++)
    g_test_message ("progress: %s", (char *) w.texts->pdata[i]);
  check_phase_texts (w.texts, 8);
  g_assert_true (texts_have (w.texts, "Traced iteration 8 of 8"));
  {
    gboolean left = FALSE; /* the iterations' texts say how long is left */

    for (guint i = 0; i < w.texts->len; i++)
      left |= g_str_has_prefix (w.texts->pdata[i], "Iteration ") && strstr (w.texts->pdata[i], " s left") != NULL;
    g_assert_true (left);
  }
  g_assert_nonnull (strstr (wb_document_get_device_reason (wb_window_get_document (window)), "NVIDIA Fake"));
  g_ptr_array_unref (w.texts);
  {
    gboolean    is_error = TRUE;
    const char *message = wb_region_table_get_message (table (), &is_error);

    g_test_message ("message: %s", message);
    g_assert_false (latest_run ()->cuda_graphs || latest_run ()->launch_list);
    g_assert_true (g_str_has_prefix (message, "Timed call by call: no CUDA graph, no launch list.\n"));
    g_assert_nonnull (strstr (message, "cannot capture a CUDA graph: nvFusion0 runs ltorch.topk on the cpu fallback"));
    g_assert_false (is_error);
  }
  g_unsetenv ("FAKE_RUNNER_REPLAY_NOTE");

  /* the second dialog estimates from the first run */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile", NULL);
  g_free (body);
  body = confirm ("cancel");
  g_assert_nonnull (strstr (body, "should take about"));
  g_assert_false (wb_document_is_busy (wb_window_get_document (window)));
}

static gboolean
not_busy (gpointer data)
{
  return !wb_document_is_busy (wb_window_get_document (window));
}

static gboolean
process_gone (gpointer pid)
{
  return kill (GPOINTER_TO_INT (pid), 0) == -1 && errno == ESRCH;
}

/* The preference reaches the GPU runner's request: off by default, on once the user allows it. Both profiles
 * are served by one runner, which the document keeps after them until wb_document_end_runner. */
static void
test_allow_cpu_fallback (void)
{
  const char      *runner = g_getenv ("WB_FAKE_RUNNER");
  GSettings       *settings = wb_application_get_settings (WB_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));
  g_autofree char *log = g_build_filename (g_get_tmp_dir (), "wb-ui-fallback-XXXXXX", NULL);
  g_autofree char *starts = NULL, *pidfile = NULL;
  g_autofree char *text = NULL;
  int              fd, pid;

  if (runner == NULL)
    {
      g_test_skip ("no fake runner");
      return;
    }
  fd = g_mkstemp (log);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  starts = g_strconcat (log, ".starts", NULL); /* beside the log made above: names of this run's own */
  pidfile = g_strconcat (log, ".pid", NULL);
  g_setenv ("WB_RUNNER", runner, TRUE);
  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_ITER_MS", "1", TRUE);
  g_setenv ("FAKE_RUNNER_REQUEST_LOG", log, TRUE);
  g_setenv ("FAKE_RUNNER_LOG", starts, TRUE);
  g_setenv ("FAKE_RUNNER_PIDFILE", pidfile, TRUE);
  fresh_runner ();
  wb_region_table_set_confirm (table (), FALSE);
  wb_region_table_set_iterations (table (), 3, 0);
  for (int allow = 0; allow <= 1; allow++)
    {
      g_settings_set_boolean (settings, "allow-cpu-fallback", allow);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.profile", NULL);
      wb_ui_spin (0.2);
      g_assert_true (wb_ui_wait (not_busy, NULL, 120));
    }
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  g_test_message ("requests: %s", text);
  g_assert_cmpstr (text, ==, "allow_cpu_fallback=0\nallow_cpu_fallback=1\n");
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (starts, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "start\n"); /* one runner for both */
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (pidfile, &text, NULL, NULL));
  pid = atoi (text);
  g_assert_cmpint (kill (pid, 0), ==, 0); /* kept for the next profile */
  fresh_runner ();
  g_assert_true (wb_ui_wait (process_gone, GINT_TO_POINTER (pid), 10));
  g_settings_set_boolean (settings, "allow-cpu-fallback", FALSE);
  g_unsetenv ("FAKE_RUNNER_REQUEST_LOG");
  g_unsetenv ("FAKE_RUNNER_LOG");
  g_unsetenv ("FAKE_RUNNER_PIDFILE");
  g_unlink (log);
  g_unlink (starts);
  g_unlink (pidfile);
}

/* A GPU run with CUPTI's host calls (the fake runner's FAKE_RUNNER_KERNELS=1: a cuLaunchKernel before each
 * kernel, with its correlation id, and a cuStreamSynchronize per iteration): the timeline has a "CUDA API"
 * track between the calls track and the streams, a bar's hit test and tooltip name the call, its duration
 * and the kernel it launched, a click on a launch selects that kernel, and a range counts the host calls
 * in it (counted here from the run's own records). */
static void
test_host_calls_timeline (void)
{
  const char         *runner = g_getenv ("WB_FAKE_RUNNER");
  WbDocument         *doc = wb_window_get_document (window);
  WbTimeline         *timeline = WB_TIMELINE (wb_window_get_timeline (window));
  Watch               w = { wb_document_get_runs (doc)->len + 1, NULL, 0, 0 };
  const WbRun        *run;
  guint               host_row = 0, first_stream = 0, launch = G_MAXUINT, in_range = 0, launches = 0;
  gint64              origin = G_MAXINT64, from, to;
  double              x, y;
  int                 kernel = -1;
  const WbRangeStats *stats;

  if (runner == NULL)
    {
      g_test_skip ("no fake runner");
      return;
    }
  g_setenv ("WB_RUNNER", runner, TRUE);
  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_ITER_MS", "1", TRUE);
  g_setenv ("FAKE_RUNNER_KERNELS", "1", TRUE);
  fresh_runner ();
  wb_region_table_set_confirm (table (), FALSE);
  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_AUTO);
  wb_region_table_set_iterations (table (), 3, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile", NULL);
  g_assert_true (wb_ui_wait (run_done, &w, 120));
  g_unsetenv ("FAKE_RUNNER_KERNELS");
  run = wb_document_get_run (doc);
  g_assert_nonnull (run);
  g_assert_cmpuint (run->kernels->len, >, 0);
  g_assert_cmpuint (run->host_calls->len, ==, run->kernels->len + 3); /* a launch per kernel, a sync per iteration */

  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.3);
  g_assert_cmpuint (wb_timeline_get_n_host_calls (timeline), ==, run->host_calls->len);
  for (guint r = 0; r < wb_timeline_get_n_tracks (timeline); r++)
    {
      g_autofree char *label = wb_timeline_get_track_label (timeline, r);

      g_test_message ("track %u: %s", r, label);
      if (strcmp (label, "CUDA API") == 0)
        host_row = r;
      else if (g_str_has_prefix (label, "Stream ") && first_stream == 0)
        first_stream = r;
    }
  g_assert_cmpuint (host_row, >, 0);
  g_assert_cmpuint (host_row, <, first_stream); /* above the streams */
  g_assert_nonnull (strstr (wb_timeline_get_status_text (timeline), " host calls"));

  /* the first launch: the hit test at its bar's middle finds it */
  for (guint i = 0; i < wb_timeline_get_n_host_calls (timeline) && launch == G_MAXUINT; i++)
    if (g_strcmp0 (wb_timeline_get_host_call_name (timeline, i, &kernel), "cuLaunchKernel") == 0 && kernel >= 0)
      launch = i;
  g_assert_cmpuint (launch, !=, G_MAXUINT);
  wb_timeline_get_host_call_position (timeline, launch, &x, &y);
  g_assert_cmpfloat (x, >=, 90);
  g_assert_cmpint (wb_timeline_get_host_call_at (timeline, x, y), ==, (int) launch);
  g_assert_cmpint (wb_timeline_get_host_call_at (timeline, x, y + 26), ==, -1); /* the row below is a stream's */
  {
    g_autofree char      *tip = wb_timeline_get_host_call_tooltip (timeline, launch);
    const WbKernelRecord *k = wb_timeline_get_kernel (timeline, kernel);

    g_test_message ("tooltip: %s", tip);
    g_assert_true (g_str_has_prefix (tip, "cuLaunchKernel\nDuration: 0.050 µs\n")); /* the fake's 50 ns launch */
    g_assert_nonnull (strstr (tip, k->name));
    g_assert_true (g_str_has_prefix (k->name, "fake_kernel_"));
  }
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-fit", NULL);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "profile-host-calls"));

  /* a range over the first iteration's first half: its host calls, counted from the run */
  for (guint i = 0; i < run->kernels->len; i++)
    origin = MIN (origin, ((WbKernelRecord *) run->kernels->pdata[i])->start_ns);
  from = ((WbHostCall *) run->host_calls->pdata[0])->start_ns - origin;
  to = from + (((WbHostCall *) run->host_calls->pdata[run->kernels->len / 3])->end_ns - origin - from) / 2;
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];

      if (c->start_ns - origin < to && c->end_ns - origin > from)
        {
          in_range++;
          launches += g_strcmp0 (c->name, "cuLaunchKernel") == 0;
        }
    }
  g_assert_cmpint (from, <, 0); /* the first launch precedes the first kernel */
  wb_timeline_select_range (timeline, from, to);
  stats = wb_timeline_get_range_stats (timeline);
  g_assert_nonnull (stats);
  g_assert_cmpuint (in_range, >, 0);
  g_assert_cmpuint (stats->host_calls, ==, in_range);
  g_assert_cmpuint (stats->host_launches, ==, launches);
  {
    g_autofree char *line = g_strdup_printf ("%u host calls (%u launches)", in_range, launches);

    g_test_message ("%s", wb_timeline_get_stats_text (timeline));
    g_assert_nonnull (strstr (wb_timeline_get_stats_text (timeline), line));
  }
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-range", NULL);
  wb_window_show_view (window, "regions");
}

/* 100,000 host calls (a made-up GPU run: 1000 kernels of 1 µs every 2 µs, each launched by a cuLaunchKernel
 * 100 ns before it, and 99,000 cuEventQuery of 10 ns in between): the fitted view draws, a hit test finds a
 * launch and a range over the whole run counts them all, each well under a second. Last: it adds a run. */
static void
test_host_calls_100k (void)
{
  WbDocument         *doc = wb_window_get_document (window);
  WbTimeline         *timeline = WB_TIMELINE (wb_window_get_timeline (window));
  WbRun              *run = wb_run_new ();
  const WbRangeStats *stats;
  guint64             corr = 0;
  gint64              t, draw_us, hit_us, range_us;
  double              x, y;
  int                 kernel = -1;

  run->device_name = g_strdup ("cuda:0");
  run->device_model = g_strdup ("NVIDIA Fake 80GB");
  for (guint k = 0; k < 1000; k++)
    {
      WbKernelRecord *kr = wb_kernel_record_new ("fake_kernel", k % 2 ? "nvrtcFusion0" : "prims.linear");
      WbHostCall     *c = wb_host_call_new ("cuLaunchKernel");

      kr->stream = 7;
      kr->start_ns = 1000000 + 2000 * (gint64) k;
      kr->end_ns = kr->start_ns + 1000;
      kr->correlation_id = c->correlation_id = ++corr;
      c->start_ns = kr->start_ns - 100;
      c->end_ns = kr->start_ns - 50;
      c->thread = 4242;
      wb_run_add_kernel (run, kr);
      wb_run_add_host_call (run, c);
      for (guint q = 0; q < 99; q++)
        {
          WbHostCall *e = wb_host_call_new ("cuEventQuery");

          e->start_ns = kr->start_ns + 20 * (gint64) q;
          e->end_ns = e->start_ns + 10;
          e->thread = 4242;
          e->correlation_id = ++corr;
          wb_run_add_host_call (run, e);
        }
    }
  wb_run_link_host_calls (run);
  wb_document_add_run (doc, run);
  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.3);
  g_assert_cmpuint (wb_timeline_get_n_host_calls (timeline), ==, 100000);

  t = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-fit", NULL);
  g_free (wb_ui_screenshot (GTK_WIDGET (timeline), "profile-host-calls-100k"));
  draw_us = g_get_monotonic_time () - t - 200000; /* the screenshot's own 0.2 s wait */

  g_assert_cmpstr (wb_timeline_get_host_call_name (timeline, 0, &kernel), ==, "cuLaunchKernel");
  g_assert_cmpint (kernel, ==, 0);
  wb_timeline_get_host_call_position (timeline, 0, &x, &y);
  t = g_get_monotonic_time ();
  g_assert_cmpint (wb_timeline_get_host_call_at (timeline, x, y), >=, 0);
  hit_us = g_get_monotonic_time () - t;

  t = g_get_monotonic_time ();
  wb_timeline_select_range (timeline, -100, 2000000);
  range_us = g_get_monotonic_time () - t;
  stats = wb_timeline_get_range_stats (timeline);
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->host_calls, ==, 100000);
  g_assert_cmpuint (stats->host_launches, ==, 1000);
  g_assert_cmpint (stats->host_call_ns, ==, 1000 * 50 + 99000 * 10);
  g_test_message ("bench: 100k host calls: draw (fitted, with the screenshot) %.1f ms, hit test %.3f ms, range %.1f ms",
                  draw_us / 1e3, hit_us / 1e3, range_us / 1e3);
  g_assert_cmpint (draw_us, <, 1000000);
  g_assert_cmpint (hit_us, <, 100000);
  g_assert_cmpint (range_us, <, 1000000);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-range", NULL);
}

/* an iteration after the first of a phase of iterations (the GPU's first is its unprofiled phase) */
static gboolean
iterating (gpointer data)
{
  const char *text = wb_region_table_get_progress_text (table ());

  *(guint64 *) data = MAX (*(guint64 *) data, rss_bytes ());
  if (text != NULL && g_str_has_prefix (text, "Unprofiled i"))
    text += strlen ("Unprofiled i") - 1;
  return text != NULL && (g_str_has_prefix (text, "Iteration") || g_str_has_prefix (text, "iteration")) && !g_str_has_prefix (text + 1, "teration 1 ");
}

/* A long GPU run cancelled: the runner process is ended at once (with what it held), not waited for. */
static void
test_cancel_gpu (void)
{
  g_autofree char *pidfile = g_build_filename (g_get_tmp_dir (), "wb-ui-fake-runner.pid", NULL);
  g_autofree char *pidtext = NULL;
  guint64          peak = 0;
  gint64           t0;
  gboolean         is_error = TRUE;
  int              pid;

  if (g_getenv ("WB_FAKE_RUNNER") == NULL)
    {
      g_test_skip ("no fake runner");
      return;
    }
  g_setenv ("FAKE_RUNNER_ITER_MS", "200", TRUE);
  g_setenv ("FAKE_RUNNER_PIDFILE", pidfile, TRUE);
  fresh_runner ();
  wb_region_table_set_confirm (table (), FALSE);
  wb_region_table_set_iterations (table (), 1000, 1);
  wb_region_table_profile (table (), NULL);
  g_assert_true (wb_ui_wait (iterating, &peak, 120));
  g_assert_true (g_file_get_contents (pidfile, &pidtext, NULL, NULL));
  pid = atoi (pidtext);
  g_assert_cmpint (kill (pid, 0), ==, 0);
  t0 = g_get_monotonic_time ();
  wb_region_table_cancel (table ());
  g_assert_true (wb_ui_wait (not_busy, NULL, 10));
  g_test_message ("bench: GPU run cancelled in %.0f ms", (g_get_monotonic_time () - t0) / 1e3);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
  g_assert_true (kill (pid, 0) == -1 && errno == ESRCH); /* the runner is gone, reaped */
  g_assert_nonnull (wb_region_table_get_message (table (), &is_error));
  g_assert_false (is_error);
  g_assert_null (strstr (wb_region_table_get_message (table (), NULL), "Operation was cancelled"));
  g_remove (pidfile);
  g_unsetenv ("FAKE_RUNNER_PIDFILE");
  g_unsetenv ("WB_RUNNER");
  g_unsetenv ("FAKE_RUNNER_DEVICE");
}

/* -- part 2: change an executor, the regions matched by key --------------------------------------- */

static void
test_change_executor (void)
{
  WbDocument          *doc = wb_window_get_document (window);
  Watch                w = { 0, NULL, 0 };
  GPtrArray           *regions;
  const WbRegion      *first, *later = NULL;
  g_autofree char     *later_key = NULL;
  g_autofree char     *first_key = NULL;
  g_autofree char     *first_name = NULL;
  const WbRegionStats *s;
  double               share = 0;

  wb_region_table_set_confirm (table (), FALSE);
  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_CPU);
  wb_region_table_set_iterations (table (), 5, 1);
  w.runs = wb_document_get_runs (doc)->len + 1;
  wb_region_table_profile (table (), NULL);
  g_assert_true (wb_ui_wait (run_done, &w, 600));
  g_assert_cmpstr (latest_run ()->device_name, ==, "cpu");

  /* unfuse the first region */
  regions = wb_pipeline_get_regions (wb_document_get_pipeline (doc));
  g_assert_cmpuint (regions->len, >=, 2);
  first = regions->pdata[0];
  for (guint i = 1; i < regions->len && later == NULL; i++)
    if (((const WbRegion *) regions->pdata[i])->executor != NULL && strcmp (((const WbRegion *) regions->pdata[i])->executor, first->executor) == 0)
      later = regions->pdata[i];
  g_assert_nonnull (later);
  later_key = g_strdup (later->key);
  first_key = g_strdup (first->key);
  first_name = g_strdup (first->name);
  wb_region_table_set_confirm (table (), TRUE);
  g_assert_true (wb_region_table_set_executor (table (), first->name, "unfuse", NULL));
  g_free (confirm ("profile"));
  w.runs++;
  g_assert_true (wb_ui_wait (run_done, &w, 600));

  /* the unfused region's first op is now a call of its own, found by the region's key: Δ previous says it was
   * unfused from that region (compare's wb_compare_unfused_from), not a change of contents */
  s = wb_run_find_region_by_key (latest_run (), first_key);
  g_assert_nonnull (s);
  g_test_message ("%s (%s) is now %s", first_name, first_key, s->name);
  g_assert_cmpstr (s->name, !=, first_name);
  {
    g_auto (GStrv) cells = row_cells (s->name);

    g_assert_nonnull (cells);
    g_test_message ("row: %s | %s | Δ %s", cells[0], cells[1], cells[5]);
    g_assert_cmpstr (cells[5], ==, "unfused");
  }
  /* a region the change left alone: matched by key, Δ previous compares it with itself, with a verdict */
  s = wb_run_find_region_by_key (latest_run (), later_key);
  g_assert_nonnull (s);
  {
    g_auto (GStrv) cells = row_cells (s->name);

    g_assert_nonnull (cells);
    g_test_message ("row: %s | %s | Δ %s", cells[0], cells[1], cells[5]);
    g_assert_nonnull (strstr (cells[5], "%"));
    g_assert_true (g_str_has_suffix (cells[5], "within noise") || g_str_has_suffix (cells[5], "slower") || g_str_has_suffix (cells[5], "faster"));
  }
  /* every call is a row: the unfused ops too, and the shares add up */
  for (guint i = 0; i < latest_run ()->regions->len; i++)
    {
      const WbRegionStats *r = latest_run ()->regions->pdata[i];
      g_auto (GStrv) cells = row_cells (r->name);

      g_assert_nonnull (cells);
      share += r->share;
    }
  /* and the time between them is a row of its own: the Share column adds up to the iteration */
  {
    g_auto (GStrv) other = row_cells ("(between calls)");

    g_assert_nonnull (other);
    g_test_message ("shares: %u calls %.1f%%, between calls %s", latest_run ()->regions->len, 100 * share, other[6]);
    g_assert_cmpfloat (share, >, 0.05);
    g_assert_cmpfloat (fabs (100 * share + g_ascii_strtod (other[6], NULL) - 100), <, 1.0);
  }
  wb_window_show_view (window, "regions");
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "31-zoo-regions-by-key"));
}

/* -- part 1: a long cpu run cancelled, its memory given back ---------------------------------------- */

static void
test_cancel_cpu (void)
{
  guint64 before, peak = 0, after;
  gint64  t0;
  double  cancel_ms;

  malloc_trim (0);
  wb_ui_spin (0.2);
  before = rss_bytes ();
  wb_region_table_set_confirm (table (), FALSE);
  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_CPU);
  wb_region_table_set_iterations (table (), 100000, 1);
  wb_region_table_profile (table (), NULL);
  g_assert_true (wb_ui_wait (iterating, &peak, 600));
  t0 = g_get_monotonic_time ();
  wb_region_table_cancel (table ());
  g_assert_true (wb_ui_wait (not_busy, NULL, 30));
  cancel_ms = (g_get_monotonic_time () - t0) / 1e3;
  wb_ui_spin (0.3);
  after = rss_bytes ();
  g_test_message ("bench: cpu run cancelled in %.0f ms; RSS %.1f MB before, %.1f MB at the peak, %.1f MB after", cancel_ms,
                  before / 1e6, peak / 1e6, after / 1e6);
  g_assert_cmpfloat (cancel_ms, <, 1000);
  g_assert_cmpuint (peak, >, before);
  /* what the run took is given back: at most a quarter of its growth (and 16 MB of caches) stays */
  g_assert_cmpuint (after, <=, before + (peak - before) / 4 + 16 * 1024 * 1024);
  g_assert_false (wb_document_is_busy (wb_window_get_document (window)));
}

int
main (int argc, char **argv)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");

  if (!wb_ui_init (&argc, &argv))
    return 77;
  case_dir = build ? g_build_filename (build, "tests", "zoo", "zoo", "llama", "thunderfx_g0_GraphModule_3", NULL) : NULL;
  if (case_dir == NULL || !g_file_test (case_dir, G_FILE_TEST_IS_DIR))
    {
      g_print ("1..0 # SKIP the zoo is not unpacked (tests/zoo)\n");
      return 0;
    }
  window = wb_ui_open (case_dir);
  g_test_add_func ("/ui/profile/step-stages", test_step_stages);
  g_test_add_func ("/ui/profile/gpu-fake-runner", test_profile_gpu);
  g_test_add_func ("/ui/profile/cancel-gpu", test_cancel_gpu);
  g_test_add_func ("/ui/profile/allow-cpu-fallback", test_allow_cpu_fallback);
  g_test_add_func ("/ui/profile/gpu-host-calls-timeline", test_host_calls_timeline);
  g_test_add_func ("/ui/profile/change-executor", test_change_executor);
  g_test_add_func ("/ui/profile/cancel-cpu", test_cancel_cpu);
  g_test_add_func ("/ui/profile/host-calls-100k", test_host_calls_100k);
  return g_test_run ();
}
