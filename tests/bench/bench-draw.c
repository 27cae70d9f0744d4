/* bench-draw.c — drawing a case's random inputs (Philox, wb_case_make_inputs) on one thread and on all of them
 *
 *   meson compile -C build bench-draw && build/tests/bench/bench-draw [--rounds R] [CASE_DIR...]
 *
 * Every `run` and `profile` without --inputs draws its inputs before the first iteration: normal values for
 * activations, uniform ones for parameters, converted to the inputs' dtypes (executors/wb-case.c). The draws and
 * the conversion are split over threads (_wb_parallel_for), with the same values whatever the split
 * (tests/executors/test-runtime.c, /executors/philox/draws-over-threads). For each case (default: llama_layer and
 * gpt2_block from the real traces) and for bare draws of 50M doubles, the table gives the best of R rounds on one
 * thread and on all, and their ratio. Results go to tests/bench/README.md by hand.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-executors.h"

#ifndef WB_BENCH_DEFAULT_TRACES
#define WB_BENCH_DEFAULT_TRACES "../shared/traces"
#endif

typedef gint64 (*Timed) (gpointer data, gint64 *elements, GError **error);

static gint64
time_case (gpointer data, gint64 *elements, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (GHashTable) inputs = wb_case_make_inputs (data, NULL, 0, error);
  gint64         t1 = g_get_monotonic_time ();
  GHashTableIter it;
  gpointer       v;

  if (inputs == NULL)
    return -1;
  *elements = 0;
  g_hash_table_iter_init (&it, inputs);
  while (g_hash_table_iter_next (&it, NULL, &v))
    *elements += wb_tensor_numel (v);
  return t1 - t0;
}

static gint64
time_draw (gpointer data, gint64 *elements, GError **error)
{
  const gsize        n = 50u << 20;
  g_autofree double *v = g_new (double, n);
  gint64             t0 = g_get_monotonic_time ();

  (void) error;
  if (GPOINTER_TO_INT (data))
    wb_philox_normal_f64 (1, 2, 0, v, n);
  else
    wb_philox_uniform_f64 (1, 2, 0, v, n);
  *elements = (gint64) n;
  return g_get_monotonic_time () - t0 + (v[n - 1] > 1e300); /* keep the draw */
}

static gboolean
row (const char *label, Timed f, gpointer data, guint rounds, guint all)
{
  gint64 best[2] = { G_MAXINT64, G_MAXINT64 }, elements = 0;

  for (guint r = 0; r < rounds; r++)
    for (guint k = 0; k < 2; k++)
      {
        g_autoptr (GError) error = NULL;
        gint64 us;
        wb_cpu_executor_set_num_threads (k == 0 ? 1 : all);
        us = f (data, &elements, &error);
        if (us < 0)
          {
            g_printerr ("bench-draw: %s: %s\n", label, error->message);
            return FALSE;
          }
        best[k] = MIN (best[k], us);
      }
  g_print ("| %s | %.1f M | %.1f | %.1f | %.2fx |\n", label, elements / 1e6, best[0] / 1e3, best[1] / 1e3, (double) best[0] / MAX (best[1], 1));
  return TRUE;
}

int
main (int argc, char **argv)
{
  guint rounds = 3, all = wb_cpu_executor_get_num_threads ();
  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = (guint) MAX (1, atoi (argv[++i]));
    else
      g_ptr_array_add (cases, g_strdup (argv[i]));
  if (cases->len == 0)
    {
      g_ptr_array_add (cases, g_build_filename (WB_BENCH_DEFAULT_TRACES, "llama_layer", NULL));
      g_ptr_array_add (cases, g_build_filename (WB_BENCH_DEFAULT_TRACES, "gpt2_block", NULL));
    }
  g_print ("inputs drawn, ms (best of %u): 1 thread against %u\n\n", rounds, all);
  g_print ("| what | elements | 1 thread ms | %u threads ms | ratio |\n|---|---:|---:|---:|---:|\n", all);
  ok &= row ("normal f64 draw", time_draw, GINT_TO_POINTER (1), rounds, all);
  ok &= row ("uniform f64 draw", time_draw, GINT_TO_POINTER (0), rounds, all);
  for (guint i = 0; i < cases->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbCase) c = wb_case_load (cases->pdata[i], &error);
      g_autofree char *label = NULL, *base = g_path_get_basename (cases->pdata[i]);
      if (c == NULL)
        {
          g_printerr ("bench-draw: %s\n", error->message);
          ok = FALSE;
          continue;
        }
      label = g_strdup_printf ("%s inputs", base);
      ok &= row (label, time_case, c, rounds, all);
    }
  return ok ? 0 : 1;
}
