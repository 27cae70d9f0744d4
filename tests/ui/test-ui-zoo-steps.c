/* test-ui-zoo-steps.c — test-ui-zoo's views of a case: every stage stepped with Alt+Right, each pane
 * checked against what it shows (Thunder's file read here, or the workbench's stage printed); the wheel
 * turned over the panes on the way; the graph's first picture; a cpu profile's rows in the Regions table
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "test-ui-zoo.h"

/* a cpu profile (1 iteration) for a case whose sub-program's traces are at most this big: the whole
 * test stays within minutes on 2 cores */
#define PROFILE_MAX_TRACE_BYTES (400 * 1024)

/* -- stages ----------------------------------------------------------------------------------------- */

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

/* @text without its trailing newlines (transfer full) */
static char *
chomp (char *text)
{
  gsize n = strlen (text);

  while (n > 0 && text[n - 1] == '\n')
    text[--n] = '\0';
  return text;
}

/* what entry @i shows: a file of Thunder's as read from the folder (the recorder's bytes), a stage the
 * workbench computed as printed (transfer full) */
static char *
expected_text (const WbTraceSet *set, guint i)
{
  const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
  char               *text = NULL;

  if (g_strcmp0 (e->subset, "workbench") != 0 && e->path != NULL && g_file_test (e->path, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr (GError) error = NULL;

      g_assert_true (g_file_get_contents (e->path, &text, NULL, &error));
      return chomp (text);
    }
  return chomp (wb_trace_to_string (e->trace));
}

/* the rows of @pane that are not fillers of @pair's side @right, joined (transfer full); and that the
 * buffer has exactly the pair's rows, fillers empty */
static char *
pane_lines (GtkTextView *pane, const WbStagePair *pair, gboolean right)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (pane);
  GString       *s = g_string_new (NULL);
  guint          n_rows = wb_stage_pair_get_n_rows (pair), n = 0;

  g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, MAX (n_rows, 1));
  for (guint row = 0; row < n_rows; row++)
    {
      GtkTextIter      start, end;
      g_autofree char *line = NULL;
      guint            l, r;

      wb_stage_pair_get_row (pair, row, &l, &r);
      gtk_text_buffer_get_iter_at_line (buffer, &start, (int) row);
      end = start;
      if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_to_line_end (&end);
      line = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      if ((right ? r : l) == G_MAXUINT)
        {
          g_assert_cmpstr (line, ==, "");
          continue;
        }
      g_string_append_printf (s, "%s%s", n++ ? "\n" : "", line);
    }
  return chomp (g_string_free (s, FALSE));
}

/* the first line where @a and @b differ, for the message */
static void
assert_same_text (const char *a, const char *b, const char *what)
{
  guint line = 1;
  gsize k;

  if (strcmp (a, b) == 0)
    return;
  for (k = 0; a[k] && a[k] == b[k]; k++)
    line += a[k] == '\n';
  g_test_fail_printf ("%s: the pane differs from its stage at line %u: \"%.60s\" | \"%.60s\"", what, line, a + k, b + k);
}

static void
check_entry (WbStageView *view, GtkTextView **panes, guint entry)
{
  WbDocument         *doc = wb_window_get_document (zoo_window);
  const WbTraceSet   *set = wb_document_get_trace_set (doc);
  const WbTraceEntry *e = wb_trace_set_get_entry (set, entry);
  const WbStagePair  *pair = wb_stage_view_get_pair (view);
  int                 prev = wb_document_get_previous (doc, entry);
  g_autofree char    *right = NULL, *left = NULL, *want = NULL;

  g_assert_nonnull (pair);
  right = pane_lines (panes[1], pair, TRUE);
  want = expected_text (set, entry);
  assert_same_text (right, want, "right");
  g_clear_pointer (&want, g_free);
  left = pane_lines (panes[0], pair, FALSE);
  if (prev < 0)
    {
      g_assert_cmpstr (left, ==, "");
      return;
    }
  /* the diff is against an earlier stage of the same sub-program: a file of the same folder and list,
   * or (a stage the workbench computed) the stage it was computed from */
  g_assert_cmpint (prev, <, (int) entry);
  if (g_strcmp0 (e->subset, "workbench") != 0)
    {
      const WbTraceEntry *p = wb_trace_set_get_entry (set, (guint) prev);

      g_assert_cmpstr (p->subset, ==, e->subset);
      g_assert_cmpint (p->kind, ==, e->kind);
      g_assert_true (wb_stage_pair_can_pair (p->trace, e->trace));
    }
  want = expected_text (set, (guint) prev);
  assert_same_text (left, want, "left");
}

static gboolean
entry_changed (gpointer data)
{
  return wb_document_get_entry (wb_window_get_document (zoo_window)) != GPOINTER_TO_UINT (data);
}

static const char *
entry_what (const WbTraceSet *set, guint i)
{
  const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

  return e->path ? e->path : e->label ? e->label
                                      : wb_trace_kind_to_string (e->kind);
}

static gboolean
moved_from (gpointer data)
{
  gpointer *d = data;

  return gtk_adjustment_get_value (d[0]) > *(double *) d[1];
}

/* a few wheel clicks down over @pane, and one back up (what a reader does between steps) */
static void
wheel (GtkTextView *pane)
{
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (pane));
  double         before = gtk_adjustment_get_value (adj);
  gboolean       room = gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj) > before + 1;

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      /* a pixel apart each time: the pointer moves into the pane before the wheel turns */
      wb_ui_input_move (zoo_input, GTK_WIDGET (pane), gtk_widget_get_width (GTK_WIDGET (pane)) / 2.0 + attempt,
                        gtk_widget_get_height (GTK_WIDGET (pane)) / 2.0);
      wb_ui_input_scroll (zoo_input, -3);
      /* the pane moved down where it could (GTK may animate the move over a few frames) */
      if (!room || wb_ui_wait (moved_from, (gpointer[]){ adj, &before }, 2))
        break;
      /* X's smooth scrolling counts a wheel click from the last one seen: after the pointer crossed into
       * the window, the first clicks may move nothing */
      g_test_message ("%s: 3 wheel clicks moved nothing; again", context_text ());
    }
  if (room && gtk_adjustment_get_value (adj) <= before)
    g_error ("%s: 3 wheel clicks left the pane at %.0f px (of %.0f, %.0f shown)", context_text (), gtk_adjustment_get_value (adj),
             gtk_adjustment_get_upper (adj), gtk_adjustment_get_page_size (adj));
  wb_ui_input_scroll (zoo_input, 1);
}

void
zoo_step_stages (const char *what)
{
  WbDocument       *doc = wb_window_get_document (zoo_window);
  const WbTraceSet *set = wb_document_get_trace_set (doc);
  WbSidebar        *sidebar = WB_SIDEBAR (wb_window_get_sidebar (zoo_window));
  WbStageView      *view = WB_STAGE_VIEW (wb_window_get_stage_view (zoo_window));
  GtkWidget        *hide = wb_ui_find_type (GTK_WIDGET (sidebar), GTK_TYPE_CHECK_BUTTON);
  guint             n = wb_trace_set_get_n_entries (set);
  GtkTextView      *panes[2] = { NULL, NULL };
  guint             n_panes = 0;
  double            worst_ms = 0, total_ms = 0;
  guint             worst = 0;

  g_assert_cmpuint (n, >, 0);
  /* every stage listed: "Hide stages that changed nothing" unchecked by a click when it is checked */
  g_assert_nonnull (hide);
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (hide)))
    wb_ui_input_click_widget (zoo_input, hide);
  g_assert_cmpuint (wb_sidebar_get_n_visible (sidebar), ==, n);
  /* a case opens on its first stage */
  g_assert_cmpuint (wb_document_get_entry (doc), ==, 0);
  find_panes (GTK_WIDGET (view), panes, &n_panes);
  g_assert_cmpuint (n_panes, ==, 2);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (panes[1])));
  /* the window has the keyboard (the chooser had it), and a click in the right pane gives it the pane */
  g_assert_true (wb_ui_input_focus (zoo_input));
  wb_ui_input_click (zoo_input, GTK_WIDGET (panes[1]), gtk_widget_get_width (GTK_WIDGET (panes[1])) / 2.0, 8);
  zoo_set_context ("%s entry 0 (%s)", what, entry_what (set, 0));
  check_entry (view, panes, 0);
  wheel (panes[0]);
  for (guint i = 1; i < n; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      zoo_set_context ("%s entry %u (%s)", what, i, entry_what (set, i));
      wb_ui_input_key_quick (zoo_input, "<Alt>Right"); /* returns after the frame that showed it */
      if (!wb_ui_wait (entry_changed, GUINT_TO_POINTER (i - 1), 10))
        g_error ("%s: Alt+Right left the stage as it was (focus on %s)", what,
                 gtk_window_get_focus (GTK_WINDOW (zoo_window)) ? G_OBJECT_TYPE_NAME (gtk_window_get_focus (GTK_WINDOW (zoo_window))) : "nothing");
      ms = zoo_ms_since (t0);
      if (ms > worst_ms)
        worst_ms = ms, worst = i;
      total_ms += ms;
      g_assert_cmpuint (wb_document_get_entry (doc), ==, i);
      check_entry (view, panes, i);
      /* the wheel now and then, the next step drawn after it */
      if (i % 32 == 1)
        wheel (panes[i % 2]);
    }
  g_test_message ("bench: %s stepped through %u stages with Alt+Right: %.0f ms in all, %.1f ms a step on average, slowest %.0f ms (entry %u)", what, n,
                  total_ms, total_ms / MAX (n - 1, 1), worst_ms, worst);
}

/* -- the graph: its first picture of the stage on screen -------------------------------------------- */

static gboolean
graph_ready (gpointer data)
{
  return !wb_graph_view_is_busy (data);
}

void
zoo_graph (const char *what)
{
  WbDocument  *doc = wb_window_get_document (zoo_window);
  WbGraphView *graph = WB_GRAPH_VIEW (wb_window_get_graph_view (zoo_window));
  guint        entry = wb_document_get_entry (doc);
  WbTrace     *trace = wb_trace_set_get_entry (wb_document_get_trace_set (doc), entry)->trace;
  gint64       t0 = g_get_monotonic_time ();

  zoo_set_context ("%s graph of entry %u", what, entry);
  zoo_click_view ("Graph");
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  wb_ui_input_sync (zoo_input);
  g_test_message ("bench: %s graph of entry %u (%u top-level bsyms): first picture drawn %.0f ms (layout %.0f ms), %u nodes", what, entry,
                  trace->n_body, zoo_ms_since (t0), wb_graph_view_get_layout_ms (graph), wb_graph_view_get_n_nodes (graph));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (graph)));
  g_assert_nonnull (wb_graph_view_get_title (graph));
  if (trace->n_body + trace->n_params > 0)
    g_assert_cmpuint (wb_graph_view_get_n_nodes (graph), >, 0);
}

/* -- a cpu profile of the sub-program on screen ---------------------------------------------------- */

static WbRegionTable *
table (void)
{
  return WB_REGION_TABLE (wb_window_get_region_table (zoo_window));
}

/* bytes of the trace files under @dir, counted here */
static guint64
trace_bytes (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint64     n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf         st;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        n += trace_bytes (path);
      else if (g_str_has_suffix (name, ".py") && g_stat (path, &st) == 0)
        n += (guint64) st.st_size;
    }
  return n;
}

static gboolean
dialog_shown (gpointer data)
{
  GtkWidget *d = wb_region_table_get_confirm_dialog (table ());

  return d != NULL && gtk_widget_get_mapped (d) && wb_ui_find_button (d, "Profile") != NULL;
}

/* the run is in, or it failed (the table's message an error) */
static gboolean
run_done (gpointer data)
{
  gboolean    is_error = FALSE;
  const char *message;

  if (wb_document_is_busy (wb_window_get_document (zoo_window)))
    return FALSE;
  message = wb_region_table_get_message (table (), &is_error);
  return wb_document_get_runs (wb_window_get_document (zoo_window))->len >= GPOINTER_TO_UINT (data) || (is_error && message != NULL);
}

void
zoo_profile (const char *what)
{
  WbDocument      *doc = wb_window_get_document (zoo_window);
  guint            n_sub = 0, runs = wb_document_get_runs (doc)->len;
  const char      *sub = wb_document_get_subprogram (doc, &n_sub);
  g_autofree char *dir = sub ? g_build_filename (wb_document_get_path (doc), sub, NULL) : g_strdup (wb_document_get_path (doc));
  guint64          bytes = trace_bytes (dir);
  gboolean         is_error = FALSE;
  const char      *message;
  GtkWidget       *dialog;
  gint64           t0;
  g_autofree char *text = NULL;
  g_auto (GStrv) rows = NULL;
  guint n_timed = 0;

  if (bytes > PROFILE_MAX_TRACE_BYTES || wb_document_get_pipeline (doc) == NULL)
    {
      g_test_message ("%s: no profile (%s, %.0f KB of traces)", what, sub ? sub : "the case", bytes / 1024.0);
      return;
    }
  zoo_set_context ("%s cpu profile of %s", what, sub ? sub : "the case");
  wb_region_table_set_device (table (), WB_PROFILE_DEVICE_CPU);
  wb_region_table_set_iterations (table (), 1, 0);
  wb_region_table_set_confirm (table (), TRUE);
  g_assert_true (wb_ui_input_focus (zoo_input));
  t0 = g_get_monotonic_time ();
  wb_ui_input_key (zoo_input, "<Control>r");
  g_assert_true (wb_ui_wait (dialog_shown, NULL, 20));
  dialog = wb_region_table_get_confirm_dialog (table ());
  g_test_message ("dialog: %s", adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)));
  /* the case's first run: no estimate from a run of the case opened before it */
  if (runs == 0)
    g_assert_null (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "The last run took"));
  wb_ui_input_click_widget (zoo_input, wb_ui_find_button (dialog, "Profile"));
  g_assert_true (wb_ui_wait (run_done, GUINT_TO_POINTER (runs + 1), 300));
  message = wb_region_table_get_message (table (), &is_error);
  if (wb_document_get_case_ranks (doc) > 1)
    {
      /* the ranks run together: the window says how (the command line's multi-GPU profile) */
      g_test_message ("%s: %s", what, message);
      g_assert_true (is_error && message != NULL);
      return;
    }
  if (is_error)
    g_test_fail_printf ("%s: the cpu profile of %s failed: %s", what, sub ? sub : "the case", message);
  g_assert_false (is_error);
  zoo_click_view ("Regions");
  wb_ui_input_sync (zoo_input);
  /* its rows: each region with a time, the first one's name drawn in the table */
  text = wb_region_table_dup_text (table ());
  rows = g_strsplit (text, "\n", -1);
  for (guint i = 1; rows[i] != NULL && rows[i][0] != '\0'; i++)
    {
      g_auto (GStrv) cells = g_strsplit (rows[i], "\t", -1);

      n_timed += g_strv_length (cells) > 4 && cells[4][0] != '\0' && g_ascii_isdigit (cells[4][0]);
    }
  g_test_message ("bench: %s cpu profile of %s (1 iteration, %.0f KB of traces) from Ctrl+R: %.1f s, %u kernels, %u of %u rows timed", what,
                  sub ? sub : "the case", bytes / 1024.0, zoo_ms_since (t0) / 1e3,
                  wb_document_get_run (doc) ? wb_document_get_run (doc)->kernels->len : 0, n_timed, g_strv_length (rows) - 2);
  g_assert_cmpuint (n_timed, >, 0);
  {
    g_auto (GStrv) first = g_strsplit (rows[1], "\t", -1);

    g_assert_nonnull (wb_ui_find_label (GTK_WIDGET (table ()), first[0]));
  }
}
