/* test-ui-loop-run.c — test-ui-loop's runs: Ctrl+R and the dialog's Profile button, a range dragged
 * across the timeline; an executor chosen in the Regions table's drop-down, the new run's regions
 * matched by key; a long run stopped by the Cancel button, its memory given back
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <malloc.h>
#include <unistd.h>

#include "test-ui-loop.h"

static WbRegionTable *
table (void)
{
  return WB_REGION_TABLE (wb_window_get_region_table (window));
}

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

static gboolean
dialog_shown (gpointer data)
{
  GtkWidget *d = wb_region_table_get_confirm_dialog (table ());

  return d != NULL && gtk_widget_get_mapped (d) && wb_ui_find_button (d, "Profile") != NULL;
}

/* Ctrl+R (or what @start does), then a click on the dialog's Profile button */
static void
start_profile (GtkWidget *start)
{
  GtkWidget *dialog;

  if (start == NULL)
    {
      g_assert_true (wb_ui_input_focus (input));
      wb_ui_input_key (input, "<Control>r");
    }
  else
    wb_ui_input_click_widget (input, start);
  g_assert_true (wb_ui_wait (dialog_shown, NULL, 20));
  dialog = wb_region_table_get_confirm_dialog (table ());
  g_test_message ("dialog: %s", adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)));
  wb_ui_input_click_widget (input, wb_ui_find_button (dialog, "Profile"));
}

/* the document has @data runs, or a run failed (the table's message an error: printed here) */
static gboolean
runs_at_least (gpointer data)
{
  WbDocument *doc = wb_window_get_document (window);
  gboolean    is_error = FALSE;
  const char *message;

  if (wb_document_is_busy (doc))
    return FALSE;
  message = wb_region_table_get_message (table (), &is_error);
  if (is_error && message != NULL)
    g_error ("the run failed: %s", message);
  return wb_document_get_runs (doc)->len >= GPOINTER_TO_UINT (data);
}

static const WbRun *
latest_run (void)
{
  GPtrArray *runs = wb_document_get_runs (wb_window_get_document (window));

  return runs->len ? runs->pdata[runs->len - 1] : NULL;
}

/* -- a profile, a range of the timeline ------------------------------------------------------------- */

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

void
loop_profile_and_range (const char *what, guint iters)
{
  WbDocument         *doc = wb_window_get_document (window);
  WbTimeline         *timeline = WB_TIMELINE (wb_window_get_timeline (window));
  GtkWidget          *area = wb_ui_find_type (GTK_WIDGET (timeline), GTK_TYPE_DRAWING_AREA);
  guint               runs = wb_document_get_runs (doc)->len;
  const WbRun        *run;
  const WbRangeStats *stats;
  double              from, to, w, h, x0, x1, ns_per_px;
  gint64              ns = 0, t0 = g_get_monotonic_time ();
  g_autofree char    *shot = g_strdup_printf ("loop-%s-timeline-range", what);

  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_CPU);
  wb_region_table_set_iterations (table (), iters, 0);
  wb_region_table_set_confirm (table (), TRUE);
  start_profile (NULL);
  g_assert_true (wb_ui_wait (runs_at_least, GUINT_TO_POINTER (runs + 1), 600));
  run = latest_run ();
  g_test_message ("bench: %s cpu profile (%u iteration(s)) from Ctrl+R: %.1f s, %u kernels", what, iters, loop_ms_since (t0) / 1e3,
                  run->kernels->len);
  g_assert_cmpuint (run->kernels->len, >, 4);

  wb_window_show_view (window, "timeline");
  wb_ui_input_sync (input);
  g_assert_cmpuint (wb_timeline_get_n_kernels (timeline), ==, run->kernels->len);
  g_assert_null (wb_timeline_get_range_stats (timeline));
  w = gtk_widget_get_width (area);
  h = gtk_widget_get_height (area);
  g_assert_cmpfloat (w, >, LEFT_W + 200);
  wb_timeline_get_visible_range (timeline, &from, &to);
  ns_per_px = (to - from) / (w - LEFT_W);
  x0 = floor (LEFT_W + (w - LEFT_W) * 0.25);
  x1 = floor (LEFT_W + (w - LEFT_W) * 0.75);
  t0 = g_get_monotonic_time ();
  wb_ui_input_drag (input, area, x0, h / 2, x1, h / 2, 6);
  g_assert_true (wb_ui_wait (has_range, timeline, 10));
  wb_ui_input_sync (input);
  stats = wb_timeline_get_range_stats (timeline);
  g_test_message ("bench: %s range dragged (6 moves) and its statistics drawn: %.0f ms; %.4f-%.4f ms: %u of %u kernels", what, loop_ms_since (t0),
                  stats->from_ns / 1e6, stats->to_ns / 1e6, stats->kernels, run->kernels->len);
  /* the times under the press and the release, to a pixel; the kernels in them counted here */
  g_assert_cmpfloat (fabs (stats->from_ns - (from + (x0 - LEFT_W) * ns_per_px)), <=, ns_per_px + 1);
  g_assert_cmpfloat (fabs (stats->to_ns - (from + (x1 - LEFT_W) * ns_per_px)), <=, ns_per_px + 1);
  g_assert_cmpuint (stats->kernels, ==, wb_ui_count_kernels_in_range (run, stats->from_ns, stats->to_ns, &ns));
  g_assert_cmpuint (stats->kernels, >, 0);
  g_assert_cmpuint (stats->kernels, <, run->kernels->len);
  g_assert_cmpint (stats->kernel_ns, ==, ns);
  {
    g_autofree char      *count = g_strdup_printf ("%u", stats->kernels);
    const WbAggregateRow *top = stats->by_symbol->pdata[0];

    g_assert_nonnull (strstr (wb_timeline_get_stats_text (timeline), count));
    g_assert_nonnull (strstr (wb_timeline_get_stats_text (timeline), top->key));
  }
  loop_shot (shot);
  wb_ui_input_key (input, "Escape");
  g_assert_true (wb_ui_wait (no_range, timeline, 10));
}

/* -- an executor changed in the drop-down ------------------------------------------------------------ */

/* the drop-down of the Regions table's row @name, shown */
static GtkWidget *
find_drop (GtkWidget *widget, const char *name)
{
  if (GTK_IS_DROP_DOWN (widget) && gtk_widget_get_mapped (widget) && g_strcmp0 (g_object_get_data (G_OBJECT (widget), "region"), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *d = find_drop (c, name);

      if (d != NULL)
        return d;
    }
  return NULL;
}

static gboolean
popover_shown (gpointer data)
{
  GtkWidget *p = wb_ui_find_type (data, GTK_TYPE_POPOVER);

  return p != NULL && gtk_widget_get_mapped (p) && wb_ui_find_label (p, "unfuse") != NULL;
}

/* the cells of the Regions table's row @name (Region, Executor, Ops, Bytes, Time, Δ, Share, ...) */
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

void
loop_change_executor (const char *what)
{
  WbDocument          *doc = wb_window_get_document (window);
  GPtrArray           *regions = wb_pipeline_get_regions (wb_document_get_pipeline (doc));
  const WbRegion      *first = NULL, *later = NULL;
  GtkWidget           *drop = NULL, *popover;
  g_autofree char     *first_key = NULL, *first_name = NULL, *later_key = NULL;
  guint                runs = wb_document_get_runs (doc)->len;
  const WbRegionStats *s;
  gint64               t0;

  g_assert_cmpuint (runs, >=, 1); /* loop_profile_and_range ran first: Δ previous has a run to compare with */
  wb_window_show_view (window, "regions");
  wb_ui_input_sync (input);
  /* a region shown in the table with a later region of the same executor (left alone by the change) */
  for (guint i = 0; i < regions->len && later == NULL; i++)
    {
      first = regions->pdata[i];
      if ((drop = find_drop (GTK_WIDGET (table ()), first->name)) == NULL)
        continue;
      for (guint k = i + 1; k < regions->len && later == NULL; k++)
        if (g_strcmp0 (((const WbRegion *) regions->pdata[k])->executor, first->executor) == 0)
          later = regions->pdata[k];
    }
  g_assert_nonnull (later);
  first_key = g_strdup (first->key);
  first_name = g_strdup (first->name);
  later_key = g_strdup (later->key);

  /* the drop-down opens on a click; a click on "unfuse" chooses it; the dialog's Profile runs it */
  wb_ui_input_click_widget (input, drop);
  g_assert_true (wb_ui_wait (popover_shown, drop, 10));
  popover = wb_ui_find_type (drop, GTK_TYPE_POPOVER);
  t0 = g_get_monotonic_time ();
  start_profile (wb_ui_find_label (popover, "unfuse"));
  g_assert_true (wb_ui_wait (runs_at_least, GUINT_TO_POINTER (runs + 1), 600));
  wb_ui_input_sync (input);
  g_test_message ("bench: %s %s unfused from its drop-down: re-run and profiled in %.1f s", what, first_name, loop_ms_since (t0) / 1e3);

  /* the choice is kept by the region's key */
  {
    g_autofree char *spec = wb_assignment_to_string (wb_document_get_assignment (doc));

    g_assert_true (g_str_has_suffix (spec, "=unfuse"));
  }
  /* the unfused region's first op is a call of its own, found by the region's key: Δ says "unfused" */
  s = wb_run_find_region_by_key (latest_run (), first_key);
  g_assert_nonnull (s);
  g_assert_cmpstr (s->name, !=, first_name);
  {
    g_auto (GStrv) cells = row_cells (s->name);

    g_assert_nonnull (cells);
    g_test_message ("row: %s | %s | Δ %s", cells[0], cells[1], cells[5]);
    g_assert_cmpstr (cells[5], ==, "unfused");
  }
  /* the region the change left alone: matched by key, compared with itself, with a verdict */
  s = wb_run_find_region_by_key (latest_run (), later_key);
  g_assert_nonnull (s);
  {
    g_auto (GStrv) cells = row_cells (s->name);

    g_assert_nonnull (cells);
    g_test_message ("row: %s | %s | Δ %s", cells[0], cells[1], cells[5]);
    g_assert_nonnull (strstr (cells[5], "%"));
  }
}

/* -- a long run cancelled by its button -------------------------------------------------------------- */

/* an iteration after the first */
static gboolean
iterating (gpointer data)
{
  const char *text = wb_region_table_get_progress_text (table ());

  *(guint64 *) data = MAX (*(guint64 *) data, rss_bytes ());
  return text != NULL && (g_str_has_prefix (text, "Iteration") || g_str_has_prefix (text, "iteration")) &&
         !g_str_has_prefix (text + 1, "teration 1 ");
}

static gboolean
not_busy (gpointer data)
{
  return !wb_document_is_busy (wb_window_get_document (window));
}

void
loop_cancel (const char *what)
{
  guint64    before, peak = 0, after;
  GtkWidget *cancel;
  gint64     t0;
  double     cancel_ms;
  gboolean   is_error = TRUE;

  wb_window_show_view (window, "regions");
  malloc_trim (0);
  wb_ui_spin (0.2);
  before = rss_bytes ();
  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_CPU);
  wb_region_table_set_iterations (table (), 100000, 1);
  start_profile (NULL);
  g_assert_true (wb_ui_wait (iterating, &peak, 600));
  wb_ui_input_sync (input);
  cancel = wb_ui_find_button (GTK_WIDGET (table ()), "Cancel");
  g_assert_nonnull (cancel);
  t0 = g_get_monotonic_time ();
  wb_ui_input_click_widget (input, cancel);
  g_assert_true (wb_ui_wait (not_busy, NULL, 30));
  cancel_ms = loop_ms_since (t0);
  wb_ui_spin (0.3);
  after = rss_bytes ();
  g_test_message ("bench: %s cpu run cancelled by its button in %.0f ms; RSS %.1f MB before, %.1f MB at the peak, %.1f MB after", what,
                  cancel_ms, before / 1e6, peak / 1e6, after / 1e6);
  g_assert_cmpfloat (cancel_ms, <, 1000);
  g_assert_cmpuint (peak, >, before);
  /* what the run took is given back: at most a quarter of its growth (and 16 MB of caches) stays */
  g_assert_cmpuint (after, <=, before + (peak - before) / 4 + 16 * 1024 * 1024);
  g_assert_nonnull (wb_region_table_get_message (table (), &is_error));
  g_assert_false (is_error);
  g_assert_false (gtk_widget_get_mapped (cancel));
}
