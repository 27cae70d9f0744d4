/* wb-profile-run.c — running a WbProfile on the cpu: warm-up and timed iterations, per-entry times and kernel
 * records from the interpreter's observer, and the WbRun of a run measured elsewhere (the GPU runner); the
 * timing rules are in wb-profile.h
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-profile-job-private.h"
#include "wb-runner.h"

typedef WbProfileEntry Entry;

typedef struct
{
  guint  entry;
  guint  iteration;
  gint64 start;
  gint64 end;
} Record;

typedef struct
{
  WbProfile *profile;
  gboolean   timing; /* a timed iteration is running */
  guint      iteration;
  gint64     origin; /* start of the first timed iteration */
  gint64     call_start;
  gint64     last_end;
  gint64    *acc;        /* per entry: its time in the current iteration */
  GArray    *records;    /* (element-type Record) */
  int        slow_entry; /* -1: none */
  gulong     slow_us;
} Timing;

#ifdef WB_RUN_OPTIONS_HAS_CALL_STARTED
static void
on_call_started (const WbTrace *trace, const WbBsym *bsym, gpointer user_data)
{
  Timing *t = user_data;

  t->call_start = wb_run_clock_ns ();
}
#endif

static void
on_call_done (const WbTrace *trace, const WbBsym *bsym, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer user_data)
{
  Timing *t = user_data;
  guint   index = GPOINTER_TO_UINT (g_hash_table_lookup (t->profile->by_bsym, bsym));
  gint64  end;

  if (index > 0 && (int) index - 1 == t->slow_entry)
    g_usleep (t->slow_us);
  end = wb_run_clock_ns ();
#ifndef WB_RUN_OPTIONS_HAS_CALL_STARTED
  t->call_start = t->last_end;
#endif
  if (index > 0 && t->timing)
    {
      Record r = { index - 1, t->iteration, t->call_start - t->origin, end - t->origin };

      t->acc[index - 1] += end - t->call_start;
      g_array_append_val (t->records, r);
    }
  t->last_end = wb_run_clock_ns ();
}

/* WB_TEST_SLOW_REGION=NAME:MS */
static void
read_slow_knob (WbProfile *p, Timing *t)
{
  const char *env = g_getenv (WB_TEST_SLOW_REGION_ENV);
  const char *colon;
  double      ms;

  t->slow_entry = -1;
  if (env == NULL || (colon = strrchr (env, ':')) == NULL)
    return;
  ms = g_ascii_strtod (colon + 1, NULL);
  if (!(ms > 0))
    return;
  for (guint i = 0; i < p->entries->len; i++)
    {
      const Entry *e = p->entries->pdata[i];

      if (strlen (e->name) == (gsize) (colon - env) && strncmp (e->name, env, colon - env) == 0)
        {
          t->slow_entry = (int) i;
          t->slow_us = (gulong) (ms * 1000.0 + 0.5);
          return;
        }
    }
}

static const char *
entry_executor (const WbProfile *p, const Entry *e)
{
  const char *name = g_hash_table_lookup (p->by_name, e->call_name);

  return name != NULL ? name : p->cuda ? p->default_executor
                                       : wb_executor_info_get_name (wb_executor_info_get_default (FALSE));
}

static WbRun *
new_run (WbProfile *p, const WbProfileOptions *options)
{
  WbRun *run = wb_run_new ();
  g_autoptr (GHashTable) executors = g_hash_table_new (g_str_hash, g_str_equal);

  run->device_name = g_strdup ("cpu");
  run->device_model = wb_cpu_device_model ();
  run->iters = options->iters;
  run->warmup = options->warmup;
  run->cuda_graphs = FALSE;
  run->launch_list = FALSE;
  run->executors = p->assignment != NULL ? wb_assignment_to_string (p->assignment) : NULL;
  run->stage = g_strdup (p->stage_name);
  g_hash_table_add (executors, (gpointer) (p->cuda ? p->default_executor : wb_executor_info_get_name (wb_executor_info_get_default (FALSE))));
  for (guint i = 0; i < p->entries->len; i++)
    g_hash_table_add (executors, (gpointer) entry_executor (p, p->entries->pdata[i]));
  {
    g_autofree gpointer *names = g_hash_table_get_keys_as_array (executors, NULL);
    guint                n = g_hash_table_size (executors);

    qsort (names, n, sizeof (gpointer), (int (*) (const void *, const void *)) g_strcmp0);
    for (guint i = 0; i < n; i++)
      {
        WbExecutor      *e = wb_executor_lookup (names[i]);
        g_autofree char *describe = e ? wb_executor_describe (e) : NULL;
        g_autofree char *version = g_strdup_printf ("thunder-wb %s%s%s%s", PACKAGE_VERSION, describe ? " (" : "",
                                                    describe ? describe : "", describe ? ")" : "");

        wb_run_add_executor_version (run, names[i], version);
      }
  }
  return run;
}

/* Fills @run's regions and kernels from what @t measured over @n_iters iterations. */
static void
finish_run (WbProfile *p, WbRun *run, Timing *t, GArray *per_entry, guint n_iters)
{
  gint64 iteration_median = wb_run_get_iteration_median_ns (run);

  for (guint i = 0; i < p->entries->len; i++)
    {
      const Entry   *e = p->entries->pdata[i];
      WbRegionStats *s = wb_region_stats_new (e->name, entry_executor (p, e));

      s->stage_line = e->stage_line;
      s->key = g_strdup (e->key);
      s->contents = wb_call_contents (e->bsym);
      s->unfused_from = g_strdup (e->unfused_from);
      for (guint k = 0; k < n_iters; k++)
        wb_region_stats_add_time (s, g_array_index (per_entry, gint64, (gsize) k * p->entries->len + i));
      wb_region_stats_update (s);
      s->kernel_count = 1;
      s->bytes_moved = e->bytes;
      s->flops = e->flops;
      s->share = iteration_median > 0 ? (double) s->median_ns / (double) iteration_median : 0;
      wb_run_add_region (run, s);
    }
  for (guint k = 0; k < t->records->len; k++)
    {
      const Record   *r = &g_array_index (t->records, Record, k);
      const Entry    *e = p->entries->pdata[r->entry];
      WbKernelRecord *kr;

      if (r->iteration >= n_iters)
        continue;
      kr = wb_kernel_record_new (e->call_name, e->name);
      kr->trace_line = e->stage_line;
      kr->stream = 0;
      kr->start_ns = r->start;
      kr->end_ns = MAX (r->end, r->start);
      kr->iteration = r->iteration;
      wb_run_add_kernel (run, kr);
    }
}

WbRun *
wb_profile_build_run (WbProfile *profile, const WbProfileOptions *options, const WbProfileDeviceTimes *times)
{
  WbRun *run;
  gint64 iteration_median;

  g_return_val_if_fail (profile != NULL && options != NULL && times != NULL, NULL);
  run = new_run (profile, options);
  g_free (run->device_name);
  g_free (run->device_model);
  run->device_name = g_strdup (times->device_name ? times->device_name : "cuda:0");
  run->device_model = g_strdup (times->device_model ? times->device_model : "unknown GPU");
  run->driver_version = g_strdup (times->driver_version);
  run->cuda_graphs = times->cuda_graphs;
  run->launch_list = times->launch_list;
  run->dropped_records = times->dropped_records;
  for (guint k = 0; k < times->n_iters; k++)
    wb_run_add_iteration (run, times->iteration_ns[k]);
  iteration_median = wb_run_get_iteration_median_ns (run);
  for (guint i = 0; i < profile->entries->len; i++)
    {
      const Entry   *e = profile->entries->pdata[i];
      WbRegionStats *s = wb_region_stats_new (e->name, entry_executor (profile, e));
      guint          n_kernels = 0;

      s->stage_line = e->stage_line;
      s->key = g_strdup (e->key);
      s->contents = wb_call_contents (e->bsym);
      s->unfused_from = g_strdup (e->unfused_from);
      for (guint k = 0; k < times->n_iters; k++)
        wb_region_stats_add_time (s, times->entry_ns[(gsize) k * profile->entries->len + i]);
      wb_region_stats_update (s);
      for (guint k = 0; times->kernels && k < times->kernels->len; k++)
        {
          const WbKernelRecord *kr = times->kernels->pdata[k];

          n_kernels += g_strcmp0 (kr->region, e->name) == 0;
        }
      s->kernel_count = times->n_iters > 0 ? (n_kernels + times->n_iters - 1) / times->n_iters : 0;
      s->bytes_moved = e->bytes;
      s->flops = e->flops;
      s->share = iteration_median > 0 ? (double) s->median_ns / (double) iteration_median : 0;
      wb_run_add_region (run, s);
    }
  for (guint k = 0; times->kernels && k < times->kernels->len; k++)
    wb_run_add_kernel (run, wb_kernel_record_copy (times->kernels->pdata[k]));
  for (guint k = 0; times->host_calls && k < times->host_calls->len; k++)
    wb_run_add_host_call (run, wb_host_call_copy (times->host_calls->pdata[k]));
  wb_run_link_host_calls (run);
  return run;
}

static void
init_run_options (WbRunOptions *ro, const WbProfileOptions *options)
{
  wb_run_options_init (ro);
  ro->seed = options->seed;
  ro->check_shapes = options->check_shapes;
  ro->parameters = options->parameters;
  ro->parameters_data = options->parameters_data;
  ro->cancellable = options->cancellable;
}

static gboolean
needs_cotangents (WbProgram *program)
{
  WbProgramKind kind = wb_program_get_kind (program);

  return kind == WB_PROGRAM_TRAINING || kind == WB_PROGRAM_JOINT;
}

WbRun *
wb_profile_run (WbProfile              *profile,
                GPtrArray              *args,
                GPtrArray              *cotangents,
                const WbProfileOptions *options,
                WbRun                 **failed_run,
                GError                **error)
{
  g_autoptr (WbRun) run = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autoptr (GArray) per_entry = NULL;
  g_autofree gint64 *acc = NULL;
  WbRunOptions       ro;
  Timing             t = { 0 };
  guint              n_entries;
  guint              total;

  g_return_val_if_fail (profile != NULL && args != NULL && options != NULL, NULL);
  g_return_val_if_fail (options->iters >= 1, NULL);

  n_entries = profile->entries->len;
  run = new_run (profile, options);
  cots = cotangents ? g_ptr_array_ref (cotangents) : NULL;
  acc = g_new0 (gint64, MAX (n_entries, 1));
  per_entry = g_array_new (FALSE, TRUE, sizeof (gint64));
  t.profile = profile;
  t.acc = acc;
  t.records = g_array_sized_new (FALSE, FALSE, sizeof (Record), (guint) MIN ((guint64) n_entries * options->iters, 1u << 20));
  read_slow_knob (profile, &t);

  init_run_options (&ro, options);
  ro.observer = on_call_done;
  ro.observer_data = &t;
#ifdef WB_RUN_OPTIONS_HAS_CALL_STARTED
  ro.call_started = on_call_started;
#endif

  total = options->warmup + options->iters;
  for (guint it = 0; it < total; it++)
    {
      gboolean timed = it >= options->warmup;
      g_autoptr (WbRunResult) result = NULL;
      gint64 t0, t1;

      if (timed)
        {
          t.iteration = it - options->warmup;
          memset (acc, 0, sizeof (gint64) * MAX (n_entries, 1));
        }
      t.timing = timed;
      t0 = wb_run_clock_ns ();
      if (timed && t.iteration == 0)
        t.origin = t0;
      t.last_end = t0;
      result = wb_program_run (profile->program, &ro, args, cots, error);
      t1 = wb_run_clock_ns ();
      if (result == NULL)
        {
          if (failed_run != NULL)
            {
              guint done = timed ? t.iteration : 0;

              g_array_set_size (run->iteration_ns, MIN (run->iteration_ns->len, done));
              finish_run (profile, run, &t, per_entry, done);
              run->status = WB_RUN_STATUS_FAILED;
              run->error = g_strdup (error && *error ? (*error)->message : "the run failed");
              *failed_run = g_steal_pointer (&run);
            }
          g_array_unref (t.records);
          return NULL;
        }
      if (cots == NULL && needs_cotangents (profile->program) && result->cotangents != NULL)
        cots = g_ptr_array_ref (result->cotangents);
      if (timed)
        {
          wb_run_add_iteration (run, t1 - t0);
          g_array_append_vals (per_entry, acc, n_entries);
        }
      if (options->progress != NULL)
        options->progress (timed ? WB_PROFILE_PHASE_TIMED : WB_PROFILE_PHASE_WARMUP,
                           timed ? t.iteration + 1 : it + 1, timed ? options->iters : options->warmup, t1 - t0,
                           options->progress_data);
    }
  finish_run (profile, run, &t, per_entry, options->iters);
  g_array_unref (t.records);
  return g_steal_pointer (&run);
}

gboolean
wb_profile_time_unprofiled (WbProfile              *profile,
                            GPtrArray              *args,
                            GPtrArray              *cotangents,
                            const WbProfileOptions *options,
                            GArray                 *iteration_ns,
                            GError                **error)
{
  g_autoptr (GPtrArray) cots = NULL;
  WbRunOptions ro;
  guint        total;

  g_return_val_if_fail (profile != NULL && args != NULL && options != NULL && iteration_ns != NULL, FALSE);
  cots = cotangents ? g_ptr_array_ref (cotangents) : NULL;
  init_run_options (&ro, options);
  total = options->warmup + options->iters;
  for (guint it = 0; it < total; it++)
    {
      g_autoptr (WbRunResult) result = NULL;
      gint64 t0 = wb_run_clock_ns ();
      gint64 t1;

      result = wb_program_run (profile->program, &ro, args, cots, error);
      t1 = wb_run_clock_ns ();
      if (result == NULL)
        return FALSE;
      if (cots == NULL && needs_cotangents (profile->program) && result->cotangents != NULL)
        cots = g_ptr_array_ref (result->cotangents);
      if (it >= options->warmup)
        {
          gint64 ns = t1 - t0;

          g_array_append_val (iteration_ns, ns);
        }
    }
  return TRUE;
}
