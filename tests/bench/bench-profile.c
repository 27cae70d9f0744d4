/* bench-profile.c — profiling overhead: the profiled iteration against an unprofiled run of the same
 * program (target: at most 1.05x), on the cpu
 *
 *   meson compile -C build bench-profile && build/tests/bench/bench-profile [--rounds R] [--iters N] [CASE_DIR[:STAGE]...]
 *
 * Without arguments: data/samples/mlp_small (regions), its default_execs stage (one entry per op: the most
 * timed calls per iteration), and elementwise_chain_small from the real traces when present. Each round
 * runs N unprofiled iterations (wb_profile_time_unprofiled: no hook, no observer) and N profiled ones
 * (wb_profile_run: both hooks, a kernel record per call), alternating which goes first; the table gives
 * the medians and minima over all rounds and their ratios. Results go to tests/bench/README.md by hand.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-profiler.h"

#ifndef WB_BENCH_DEFAULT_TRACES
#define WB_BENCH_DEFAULT_TRACES "../shared/traces"
#endif
#ifndef WB_BENCH_SAMPLES
#define WB_BENCH_SAMPLES "data/samples"
#endif

static int
cmp_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
median_ms (GArray *t)
{
  g_array_sort (t, cmp_i64);
  return wb_times_median_ns ((const gint64 *) t->data, t->len) / 1e6;
}

static double
min_ms (GArray *t)
{
  g_array_sort (t, cmp_i64);
  return t->len ? g_array_index (t, gint64, 0) / 1e6 : 0;
}

static gboolean
bench_case (const char *spec, guint rounds, guint iters)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) parts = g_strsplit (spec, ":", 2);
  g_autoptr (WbCase) c = wb_case_load (parts[0], &error);
  const WbCaseStage *stage;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbProfile) profile = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GArray) plain = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) profiled = g_array_new (FALSE, FALSE, sizeof (gint64));
  WbProfileOptions options;
  double           pm, qm, pn, qn;
  g_autofree char *name = NULL;

  if (c == NULL)
    {
      g_printerr ("bench-profile: %s\n", error->message);
      return FALSE;
    }
  stage = parts[1] ? wb_case_find_stage (c, -1, parts[1]) : wb_case_get_default_stage (c);
  if (stage == NULL)
    {
      g_printerr ("bench-profile: %s: no stage %s\n", parts[0], parts[1] ? parts[1] : "(default)");
      return FALSE;
    }
  program = wb_case_make_program (c, stage, &error);
  if (program == NULL || (inputs = wb_case_make_inputs (c, NULL, 0, &error)) == NULL ||
      (args = wb_case_make_args (c, program, inputs, &error)) == NULL)
    {
      g_printerr ("bench-profile: %s\n", error->message);
      return FALSE;
    }
  profile = wb_profile_new (program, stage->label);
  wb_profile_options_init (&options);
  options.iters = iters;
  options.warmup = 2;

  for (guint r = 0; r < rounds; r++)
    for (guint k = 0; k < 2; k++)
      {
        gboolean do_profiled = (r + k) % 2 == 1;

        if (do_profiled)
          {
            g_autoptr (WbRun) run = wb_profile_run (profile, args, NULL, &options, NULL, &error);

            if (run == NULL)
              {
                g_printerr ("bench-profile: %s\n", error->message);
                return FALSE;
              }
            g_array_append_vals (profiled, run->iteration_ns->data, run->iteration_ns->len);
          }
        else if (!wb_profile_time_unprofiled (profile, args, NULL, &options, plain, &error))
          {
            g_printerr ("bench-profile: %s\n", error->message);
            return FALSE;
          }
      }
  pm = median_ms (plain);
  qm = median_ms (profiled);
  pn = min_ms (plain);
  qn = min_ms (profiled);
  name = g_path_get_basename (parts[0]);
  g_print ("| %s | %s | %u | %u | %.4f | %.4f | %.3fx | %.4f | %.4f | %.3fx | %s |\n", name, stage->label,
           wb_profile_get_n_entries (profile), plain->len, pm, qm, qm / pm, pn, qn, qn / pn, qm / pm <= 1.05 ? "yes" : "no");
  return TRUE;
}

int
main (int argc, char **argv)
{
  guint rounds = 6, iters = 50;
  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *model = NULL;
  gboolean         ok = TRUE;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc)
        rounds = (guint) MAX (1, atoi (argv[++i]));
      else if (strcmp (argv[i], "--iters") == 0 && i + 1 < argc)
        iters = (guint) MAX (1, atoi (argv[++i]));
      else
        g_ptr_array_add (cases, g_strdup (argv[i]));
    }
  if (cases->len == 0)
    {
      g_autofree char *traces = g_build_filename (WB_BENCH_DEFAULT_TRACES, "elementwise_chain_small", NULL);

      g_ptr_array_add (cases, g_build_filename (WB_BENCH_SAMPLES, "mlp_small", NULL));
      g_ptr_array_add (cases, g_strconcat (WB_BENCH_SAMPLES, "/mlp_small:default_execs/forward_06", NULL));
      if (g_file_test (traces, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (cases, g_steal_pointer (&traces));
    }
  model = wb_cpu_device_model ();
  g_print ("Profiling overhead on cpu: %s; %u rounds x %u timed iterations per mode (2 warm-up each)\n\n", model,
           rounds, iters);
  g_print ("| case | stage | timed calls/iter | iterations | unprofiled median ms | profiled median ms | ratio | "
           "unprofiled min ms | profiled min ms | min ratio | <= 1.05x |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  for (guint i = 0; i < cases->len; i++)
    ok &= bench_case (cases->pdata[i], rounds, iters);
  return ok ? 0 : 1;
}
