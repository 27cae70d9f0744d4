/* wb-ui-common.c — helpers of the ui tests: start the app on a display, wait, take screenshots
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-ui-common.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <locale.h>

#include "wb-locale.h"

static GtkApplication *application;

gboolean
wb_ui_init (int *argc, char ***argv)
{
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  /* as thunder-wb's main(): the build tree's catalogues, since this runs from it */
  wb_locale_init ();
  g_test_init (argc, argv, NULL);
  if (!gtk_init_check ())
    return FALSE;
  adw_init ();
  gtk_source_init ();
  return TRUE;
}

static gboolean
loaded (gpointer data)
{
  return !wb_window_is_loading (data);
}

WbWindow *
wb_ui_new_window (void)
{
  WbWindow *window;

  if (application == NULL)
    {
      application = GTK_APPLICATION (wb_application_new (NULL));
      g_application_register (G_APPLICATION (application), NULL, NULL);
    }
  window = wb_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 900);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

WbWindow *
wb_ui_open (const char *path)
{
  WbWindow *window = wb_ui_new_window ();

  wb_window_open (window, path);
  g_assert_true (wb_ui_wait (loaded, window, 60));
  wb_ui_spin (0.3);
  return window;
}

gboolean
wb_ui_wait (gboolean (*done) (gpointer), gpointer data, double timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (!done (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

static gboolean
never (gpointer data)
{
  return FALSE;
}

void
wb_ui_spin (double seconds)
{
  wb_ui_wait (never, NULL, seconds);
}

char *
wb_ui_screenshot (GtkWidget *widget, const char *name)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *dir = g_build_filename (build ? build : ".", "tests", "ui", "screenshots", NULL);
  char            *path = NULL;
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);

  g_mkdir_with_parents (dir, 0755);
  path = g_strdup_printf ("%s/%s.png", dir, name);
  wb_ui_spin (0.2);
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    return path;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_texture_save_to_png (texture, path);
  g_test_message ("screenshot: %s", path);
  return path;
}

char *
wb_ui_case_path (const char *name)
{
  const char *traces = g_getenv ("WB_TRACES_DIR");
  const char *source = g_getenv ("WB_SOURCE_ROOT");
  char       *path = traces ? g_build_filename (traces, name, NULL) : NULL;

  if (path != NULL && g_file_test (path, G_FILE_TEST_IS_DIR))
    return path;
  g_free (path);
  return g_build_filename (source ? source : ".", "data", "samples", "mlp_small", NULL);
}

guint
wb_ui_count_kernels_in_range (const WbRun *run, gint64 from, gint64 to, gint64 *ns)
{
  gint64 t0 = G_MAXINT64;
  guint  n = 0;

  *ns = 0;
  for (guint i = 0; i < run->kernels->len; i++)
    t0 = MIN (t0, ((WbKernelRecord *) run->kernels->pdata[i])->start_ns);
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];
      gint64                s = k->start_ns - t0, e = k->end_ns - t0;

      if (e > s ? (s < to && e > from) : (s >= from && s < to))
        {
          n++;
          *ns += MIN (e, to) - MAX (s, from);
        }
    }
  return n;
}
