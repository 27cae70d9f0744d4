/* bench-open.c — opening a big case in the window, and what the Regions table asks of the executors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson compile -C build-gui bench-open
 *   xvfb-run -a -s "-screen 0 1280x1024x24" build-gui/tests/bench/bench-open [CASE...]   # default: resnet50 densenet121
 *
 * CASE: a zoo case's name (the zoo unpacked in the build tree) or a path. For each: opens it in a window
 * (wb_window_open, no chooser) and times the load until the first frame painted after it; then the
 * Regions page shown, every workbench stage stepped to (each to its next frame; the slowest printed), and
 * the first 30 regions selected one by one (each to its next frame). Then, outside the widgets, the
 * executors' answers for every region and choice of the window's pipeline: wb_region_table_can_run (types
 * rebuilt per call) against WbRegionClaims (cached), cold and again, with how many answers differ (must
 * be 0; tests/zoo/test-region-claims asserts it). Timings are not tests: nothing is asserted here. */
#include "config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <stdio.h>

#include "wb-application.h"
#include "wb-views.h"
#include "wb-window.h"

static gboolean painted;

static void
after_paint_cb (GdkFrameClock *clock, gpointer data)
{
  painted = TRUE;
}

static double
ms_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e3;
}

/* iterates the main loop until @window is not loading and a frame was painted after; FALSE after 300 s */
static gboolean
wait_frame (WbWindow *window)
{
  gint64 end = g_get_monotonic_time () + 300 * G_USEC_PER_SEC;

  while (wb_window_is_loading (window) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  painted = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (window));
  while (!painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return painted;
}

/* every region x choice: the uncached rule, then the cache cold and warm */
static void
bench_claims (const char *name, const WbPipeline *pipeline)
{
  GPtrArray *regions = wb_pipeline_get_regions (pipeline);
  g_autoptr (WbRegionClaims) claims = wb_region_claims_new (pipeline);
  g_autoptr (GArray) plain = g_array_new (FALSE, FALSE, sizeof (gboolean));
  double ms[3];
  guint  n = 0, differ = 0;

  for (int pass = 0; pass < 3; pass++)
    {
      gint64 t0 = g_get_monotonic_time ();
      guint  k = 0;

      for (guint i = 0; i < regions->len; i++)
        for (const char *const *c = wb_region_table_get_choices (); *c != NULL; c++, k++)
          {
            const WbRegion *r = regions->pdata[i];
            gboolean        ok = pass == 0 ? wb_region_table_can_run (pipeline, r, *c, NULL) : wb_region_claims_can_run (claims, r, *c, NULL);

            if (pass == 0)
              g_array_append_val (plain, ok);
            else
              differ += ok != g_array_index (plain, gboolean, k);
          }
      ms[pass] = ms_since (t0);
      n = k;
    }
  printf ("%s: %u regions x choices (%u answers): uncached %.0f ms, cached cold %.0f ms (%u type environments), warm %.2f ms; %u differ\n",
          name, regions->len, n, ms[0], ms[1], wb_region_claims_get_n_envs (claims), ms[2], differ);
}

static void
bench_window (GtkApplication *app, const char *name, const char *path)
{
  WbWindow   *window = wb_window_new (app);
  WbDocument *doc;
  GPtrArray  *regions;
  gint64      t0;
  double      total = 0, worst = 0;
  guint       n = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 900);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint", G_CALLBACK (after_paint_cb), NULL);
  wait_frame (window);
  t0 = g_get_monotonic_time ();
  wb_window_open (window, path);
  wait_frame (window);
  doc = wb_window_get_document (window);
  printf ("%s: open to the first frame loaded: %.0f ms (%u entries)\n", name, ms_since (t0),
          wb_document_get_trace_set (doc) ? wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)) : 0);
  if (wb_document_get_pipeline (doc) == NULL)
    {
      printf ("%s: no workbench stages (%s)\n", name, wb_document_get_pipeline_error (doc) ? wb_document_get_pipeline_error (doc) : "no pipeline");
      goto done;
    }
  t0 = g_get_monotonic_time ();
  wb_window_show_view (window, "regions");
  wait_frame (window);
  printf ("%s: Regions page shown: %.0f ms\n", name, ms_since (t0));
  for (guint e = 0; e < wb_trace_set_get_n_entries (wb_document_get_trace_set (doc)); e++)
    {
      double ms;

      if (wb_document_get_stage (doc, e) == NULL)
        continue;
      t0 = g_get_monotonic_time ();
      wb_document_set_entry (doc, e);
      wait_frame (window);
      ms = ms_since (t0);
      total += ms;
      worst = MAX (worst, ms);
      n++;
    }
  printf ("%s: %u workbench stages stepped to (Regions shown): %.0f ms, slowest %.0f ms\n", name, n, total, worst);
  regions = wb_pipeline_get_regions (wb_document_get_pipeline (doc));
  total = worst = 0;
  for (n = 0; n < regions->len && n < 30; n++)
    {
      double ms;

      t0 = g_get_monotonic_time ();
      wb_document_select_region (doc, ((WbRegion *) regions->pdata[n])->name);
      wait_frame (window);
      ms = ms_since (t0);
      total += ms;
      worst = MAX (worst, ms);
    }
  printf ("%s: %u regions selected: %.0f ms, slowest %.0f ms\n", name, n, total, worst);
  if (g_getenv ("WB_BENCH_OPEN_STEPS_ONLY") == NULL)
    bench_claims (name, wb_document_get_pipeline (doc));
done:
  gtk_window_destroy (GTK_WINDOW (window));
}

static char *
case_path (const char *arg)
{
  if (g_file_test (arg, G_FILE_TEST_EXISTS))
    return g_strdup (arg);
  return g_build_filename (WB_BENCH_ZOO, arg, NULL);
}

int
main (int argc, char **argv)
{
  const char        *defaults[] = { "resnet50", "densenet121", NULL };
  const char *const *cases = argc > 1 ? (const char *const *) argv + 1 : defaults;
  GtkApplication    *app;

  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_set_prgname ("bench-open");
  g_set_application_name ("bench-open");
  if (!gtk_init_check ())
    {
      fprintf (stderr, "bench-open: no display (run it under xvfb-run)\n");
      return 1;
    }
  adw_init ();
  gtk_source_init ();
  app = GTK_APPLICATION (wb_application_new (NULL));
  g_application_register (G_APPLICATION (app), NULL, NULL);
  for (guint i = 0; cases[i] != NULL; i++)
    {
      g_autofree char *path = case_path (cases[i]);

      bench_window (app, cases[i], path);
    }
  g_object_unref (app);
  return 0;
}
