/* test-ui-zoo.c — every case folder of the zoo opened in the window as a user does, by real input only
 * (XTEST key presses and clicks, wb-ui-input.h): Ctrl+O, the folder typed into the chooser, its Open
 * button. A case that loads: the title names the folder, the stage list is filled, every stage is stepped
 * with Alt+Right and both panes are checked against the files (test-ui-zoo-steps.c), the graph's first
 * picture is drawn, and a small case is profiled on the cpu (1 iteration) until its rows appear. A folder
 * without traces (Thunder failed before writing any): the window shows an error naming FOLDER:LINE, and
 * nothing crashes. Any GLib or GTK warning fails the case, named with the stage on screen (the log
 * writer below; criticals abort under G_DEBUG=fatal-criticals, after the same line). Times are printed
 * as "bench:" messages, per case.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Skips (77) without real input, as test-ui-loop does; with WB_UI_REQUIRE_XTEST set that fails.
 * WB_UI_ZOO_CASES (comma-separated names) limits the cases, for a run by hand. */
#include "config.h"

#include "test-ui-zoo.h"

#include <stdarg.h>

WbWindow    *zoo_window;
WbUiInput   *zoo_input;
static char *no_input;
static char *context;    /* what the log writer names */
static guint n_warnings; /* warnings and criticals seen, every case */

double
zoo_ms_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e3;
}

void
zoo_set_context (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_free (context);
  context = g_strdup_vprintf (format, args);
  va_end (args);
}

const char *
context_text (void)
{
  return context ? context : "(no case)";
}

/* -- the log writer: any warning or critical names the case and stage ------------------------------- */

static GLogWriterOutput
log_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  const char *domain = NULL, *message = NULL;

  if (!(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)))
    return g_log_writer_default (level, fields, n_fields, data);
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
      domain = fields[i].value;
    else if (g_str_equal (fields[i].key, "MESSAGE"))
      message = fields[i].value;
  n_warnings++;
  g_printerr ("zoo: %s: %s-%s: %s\n", context ? context : "(no case)", domain ? domain : "?",
              (level & G_LOG_LEVEL_WARNING) ? "WARNING" : (level & G_LOG_LEVEL_CRITICAL) ? "CRITICAL"
                                                                                         : "ERROR",
              message ? message : "");
  if (level & G_LOG_LEVEL_WARNING)
    {
      /* the case fails, the others still run: every warning is named */
      g_test_fail_printf ("%s: %s warning: %s", context ? context : "(no case)", domain ? domain : "?", message ? message : "");
      return G_LOG_WRITER_HANDLED;
    }
  /* a critical (fatal under G_DEBUG=fatal-criticals) or an error: GLib's own writer, which aborts */
  return g_log_writer_default (level, fields, n_fields, data);
}

/* a warning of the old API (g_logv) is not fatal here: the writer has failed the case already */
static gboolean
fatal_handler (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  return !(level & G_LOG_LEVEL_WARNING);
}

/* -- finding what a user clicks --------------------------------------------------------------------- */

static gboolean
not_loading (gpointer data)
{
  return !wb_window_is_loading (zoo_window);
}

void
zoo_click_view (const char *title)
{
  GtkWidget *header = wb_ui_find_type (GTK_WIDGET (zoo_window), ADW_TYPE_VIEW_SWITCHER);
  GtkWidget *label = header ? wb_ui_find_label (header, title) : NULL;
  GtkWidget *button = label;

  g_assert_nonnull (label);
  while (button != NULL && !GTK_IS_TOGGLE_BUTTON (button))
    button = gtk_widget_get_parent (button);
  g_assert_nonnull (button);
  wb_ui_input_click_widget (zoo_input, button);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
}

/* whether the folder holds any trace file (*.py), below it too: counted here on its own */
static gboolean
has_traces (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_str_has_suffix (name, ".py") || (g_file_test (path, G_FILE_TEST_IS_DIR) && has_traces (path)))
        return TRUE;
    }
  return FALSE;
}

/* -- open: Ctrl+O, the path typed into the chooser's location, its Open button ----------------------- */

static void
open_case (const char *path, const char *what)
{
  GtkWidget       *open;
  g_autofree char *base = g_path_get_basename (path);
  WbDocument      *doc = wb_window_get_document (zoo_window);
  gint64           t0;

  open = wb_ui_input_choose_path (zoo_input, path, TRUE);
  t0 = g_get_monotonic_time ();
  wb_ui_input_click_widget (zoo_input, open);
  /* the title is set when the load starts; it ends with the set installed, or an error shown */
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (zoo_window)), base));
  g_assert_true (wb_ui_wait (not_loading, NULL, 120));
  wb_ui_input_sync (zoo_input); /* the first frame after the load */
  g_test_message ("bench: %s open (the chooser's Open clicked to the first frame loaded): %.0f ms, %u entries", what, zoo_ms_since (t0),
                  wb_document_get_trace_set (doc) ? wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)) : 0);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (zoo_window)), base));
}

/* the error page of a folder that did not open: it names FOLDER:LINE: what */
static void
check_error_page (const char *path)
{
  GtkWidget       *page = wb_ui_find_type (GTK_WIDGET (zoo_window), ADW_TYPE_STATUS_PAGE);
  const char      *text;
  g_autofree char *at = g_strdup_printf ("%s:", path);
  const char      *p;

  g_assert_nonnull (page);
  g_assert_true (gtk_widget_get_mapped (page));
  text = adw_status_page_get_description (ADW_STATUS_PAGE (page));
  g_test_message ("error page: %s: %s", adw_status_page_get_title (ADW_STATUS_PAGE (page)), text);
  g_assert_nonnull (text);
  p = strstr (text, at);
  g_assert_nonnull (p);
  g_assert_true (g_ascii_isdigit (p[strlen (at)]));
  /* and why, as the recorder wrote it beside the (missing) traces */
  {
    g_autofree char *zoo = g_build_filename (path, "zoo.json", NULL);

    if (g_file_test (zoo, G_FILE_TEST_IS_REGULAR))
      g_assert_nonnull (strstr (text, "zoo.json: "));
  }
}

static void
test_case (gconstpointer data)
{
  const char      *name = data;
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
  WbDocument      *doc;
  gint64           t0 = g_get_monotonic_time ();

  if (zoo_input == NULL)
    {
      if (g_getenv ("WB_UI_REQUIRE_XTEST") != NULL)
        g_test_fail_printf ("WB_UI_REQUIRE_XTEST is set but %s", no_input ? no_input : "the window did not open");
      else
        g_test_skip (no_input ? no_input : "the window did not open");
      return;
    }
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  zoo_set_context ("%s (open)", name);
  open_case (path, name);
  doc = wb_window_get_document (zoo_window);
  if (!has_traces (path))
    {
      check_error_page (path);
      return;
    }
  g_assert_cmpstr (wb_document_get_path (doc), ==, path);
  g_assert_nonnull (wb_document_get_trace_set (doc));
  zoo_step_stages (name);
  zoo_graph (name);
  zoo_profile (name);
  zoo_click_view ("Stages");
  g_test_message ("bench: %s in all: %.1f s", name, zoo_ms_since (t0) / 1e3);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

int
main (int argc, char **argv)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *zoo = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) only = g_getenv ("WB_UI_ZOO_CASES") ? g_strsplit (g_getenv ("WB_UI_ZOO_CASES"), ",", -1) : NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;
  int         result;

  g_log_set_writer_func (log_writer, NULL, NULL);
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
  g_test_log_set_fatal_handler (fatal_handler, NULL);
  /* the build unpacks the zoo (tests/zoo/meson.build): every folder in it is a case */
  dir = g_dir_open (zoo, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (zoo, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && (only == NULL || g_strv_contains ((const char *const *) only, name)))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *test = g_strdup_printf ("/ui/zoo/%s", (char *) names->pdata[i]);

      g_test_add_data_func (test, names->pdata[i], test_case);
    }

  zoo_window = wb_ui_new_window ();
  wb_ui_spin (0.2);
  zoo_input = wb_ui_input_new (GTK_WINDOW (zoo_window), &no_input);
  result = g_test_run ();
  g_test_message ("warnings and criticals in all: %u", n_warnings);
  g_clear_pointer (&zoo_input, wb_ui_input_free);
  gtk_window_destroy (GTK_WINDOW (zoo_window));
  wb_ui_spin (0.2);
  g_free (no_input);
  g_free (context);
  return result;
}
