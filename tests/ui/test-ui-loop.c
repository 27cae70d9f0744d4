/* test-ui-loop.c — issue 45's loop driven only by real input (XTEST key presses, clicks, the wheel and
 * drags, wb-ui-input.h) on the zoo's 2-layer Llama, and the cheap parts on the 32-layer Llama: open
 * (Ctrl+O, the folder typed into the chooser), every stage stepped with Alt+Right (the aligned diff
 * asserted on screen on a renamed line), a region expanded by a click on its node, a profile (Ctrl+R,
 * the dialog's Profile button) and a range dragged across the timeline, an executor changed in the
 * Regions table's drop-down with the new run matched by key, a long run stopped by its Cancel button
 * with its memory given back. Times are printed as "bench:" messages (tests/bench/README.md, "ui").
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Skips (77) without real input, as test-ui-input does; with WB_UI_REQUIRE_XTEST set that fails. */
#include "config.h"

#include "test-ui-loop.h"

WbWindow    *window;
WbUiInput   *input;
static char *no_input;

gboolean
loop_have_input (void)
{
  if (input != NULL)
    return TRUE;
  if (g_getenv ("WB_UI_REQUIRE_XTEST") != NULL)
    g_test_fail_printf ("WB_UI_REQUIRE_XTEST is set but %s", no_input ? no_input : "the window did not open");
  else
    g_test_skip (no_input ? no_input : "the window did not open");
  return FALSE;
}

double
loop_ms_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e3;
}

char *
loop_zoo_case (const char *name)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");
  char       *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);

  /* the build unpacks the zoo (tests/zoo/meson.build): a missing case is a failure */
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  return path;
}

/* -- open: Ctrl+O, the path typed into the chooser's location, its Open button ----------------------- */

static gboolean
loaded (gpointer data)
{
  WbDocument *doc = wb_window_get_document (window);

  return !wb_window_is_loading (window) && wb_document_get_trace_set (doc) != NULL &&
         g_strcmp0 (wb_document_get_path (doc), data) == 0;
}

void
loop_open (const char *path, guint min_entries, const char *what)
{
  GtkWidget       *open;
  g_autofree char *base = g_path_get_basename (path);
  gint64           t0;
  double           open_ms;

  window = wb_ui_new_window ();
  wb_ui_spin (0.2);
  g_clear_pointer (&input, wb_ui_input_free);
  g_clear_pointer (&no_input, g_free);
  input = wb_ui_input_new (GTK_WINDOW (window), &no_input);
  if (!loop_have_input ())
    return;
  open = wb_ui_input_choose_path (input, path, FALSE);
  t0 = g_get_monotonic_time ();
  wb_ui_input_click_widget (input, open);
  g_assert_true (wb_ui_wait (loaded, (gpointer) path, 120));
  wb_ui_input_sync (input); /* the first frame after the load */
  open_ms = loop_ms_since (t0);
  g_test_message ("bench: %s open (the chooser's Open clicked to the first frame loaded): %.0f ms, %u entries", what, open_ms,
                  wb_trace_set_get_n_entries (wb_document_get_trace_set (wb_window_get_document (window))));
  g_assert_cmpuint (wb_trace_set_get_n_entries (wb_document_get_trace_set (wb_window_get_document (window))), >=, min_entries);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), base));
  g_assert_true (wb_ui_input_focus (input));
}

void
loop_close (void)
{
  g_clear_pointer (&input, wb_ui_input_free);
  if (window != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  window = NULL;
  wb_ui_spin (0.2);
}

/* -- shots: PNGs of the window where $WB_UI_SHOTS says (else the build's tests/ui/screenshots) ------ */

void
loop_shot (const char *name)
{
  g_autofree char *path = wb_ui_screenshot (GTK_WIDGET (window), name);
  const char      *dir = g_getenv ("WB_UI_SHOTS");

  if (dir != NULL && path != NULL && g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *to = g_build_filename (dir, base, NULL);
      g_autofree char *bytes = NULL;
      gsize            n = 0;

      g_mkdir_with_parents (dir, 0755);
      g_assert_true (g_file_get_contents (path, &bytes, &n, NULL));
      g_assert_true (g_file_set_contents (to, bytes, (gssize) n, NULL));
      g_test_message ("screenshot: %s", to);
    }
}

/* -- the cases ------------------------------------------------------------------------------------ */

static void
test_llama2 (gconstpointer data)
{
  g_autofree char *path = loop_zoo_case ("llama/thunderfx_g0_GraphModule_3");
  const char      *part = data;

  if (g_str_equal (part, "open"))
    loop_open (path, 10, "llama2");
  else if (!loop_have_input ())
    return;
  else if (g_str_equal (part, "stages"))
    loop_stages ("llama2", G_MAXUINT);
  else if (g_str_equal (part, "graph-expand"))
    loop_graph_expand ("llama2");
  else if (g_str_equal (part, "timeline-range"))
    loop_profile_and_range ("llama2", 2);
  else if (g_str_equal (part, "change-executor"))
    loop_change_executor ("llama2");
  else if (g_str_equal (part, "cancel"))
    loop_cancel ("llama2");
  else if (g_str_equal (part, "close"))
    loop_close ();
}

static void
test_llama32 (gconstpointer data)
{
  g_autofree char *path = loop_zoo_case ("llama_32layer");
  const char      *part = data;

  if (g_str_equal (part, "open"))
    loop_open (path, 1000, "llama32");
  else if (!loop_have_input ())
    return;
  else if (g_str_equal (part, "stages"))
    loop_stages ("llama32", G_MAXUINT);
  else if (g_str_equal (part, "graph-expand"))
    loop_graph_expand ("llama32");
  else if (g_str_equal (part, "close"))
    loop_close ();
}

/* one layer's graph module of the 32-layer Llama: the whole folder has no one program to run (its
 * modules are ThunderFX subgraphs, each with its own inputs), so the runs are on this one, opened alone */
static void
test_llama32_module (gconstpointer data)
{
  g_autofree char *path = loop_zoo_case ("llama_32layer/thunderfx_g0_GraphModule_10");
  const char      *part = data;

  if (g_str_equal (part, "open"))
    loop_open (path, 10, "llama32-gm10");
  else if (!loop_have_input ())
    return;
  else if (g_str_equal (part, "timeline-range"))
    loop_profile_and_range ("llama32-gm10", 2);
  else if (g_str_equal (part, "change-executor"))
    loop_change_executor ("llama32-gm10");
  else if (g_str_equal (part, "cancel"))
    loop_cancel ("llama32-gm10");
  else if (g_str_equal (part, "close"))
    loop_close ();
}

int
main (int argc, char **argv)
{
  static const char *const parts2[] = { "open", "stages", "graph-expand", "timeline-range", "change-executor", "cancel", "close" };
  static const char *const parts32[] = { "open", "stages", "graph-expand", "close" };
  static const char *const parts32m[] = { "open", "timeline-range", "change-executor", "cancel", "close" };
  int                      result;

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
  for (guint i = 0; i < G_N_ELEMENTS (parts2); i++)
    {
      g_autofree char *name = g_strdup_printf ("/ui/loop/llama2/%s", parts2[i]);

      g_test_add_data_func (name, parts2[i], test_llama2);
    }
  for (guint i = 0; i < G_N_ELEMENTS (parts32); i++)
    {
      g_autofree char *name = g_strdup_printf ("/ui/loop/llama32/%s", parts32[i]);

      g_test_add_data_func (name, parts32[i], test_llama32);
    }
  for (guint i = 0; i < G_N_ELEMENTS (parts32m); i++)
    {
      g_autofree char *name = g_strdup_printf ("/ui/loop/llama32-gm10/%s", parts32m[i]);

      g_test_add_data_func (name, parts32m[i], test_llama32_module);
    }
  result = g_test_run ();
  loop_close ();
  g_free (no_input);
  return result;
}
