/* wb-profile-job-gpu.c — the profiling job's GPU part: the runner's request and its profile as a WbRun
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-profile-job-private.h"

/* -- the GPU runner's profile (moved from app/wb-cli-cuda.c) --------------------------------------- */

G_GNUC_PRINTF (3, 4)
static void
gpu_log (WbProfileJobLogFunc log, gpointer log_data, const char *format, ...)
{
  g_autofree char *line = NULL;
  va_list          ap;

  if (log == NULL)
    return;
  va_start (ap, format);
  line = g_strdup_vprintf (format, ap);
  va_end (ap);
  log (line, log_data);
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median of @ms (element-type double, not empty): the upper middle value, as `run --device cuda` prints. */
static double
ms_median (GArray *ms)
{
  g_autoptr (GArray) sorted = g_array_copy (ms);

  g_array_sort (sorted, cmp_double);
  return g_array_index (sorted, double, sorted->len / 2);
}

static const gint64 *
fixed_int64 (GVariant *dict, const char *key, gsize *n, GVariant **holder)
{
  *holder = g_variant_lookup_value (dict, key, G_VARIANT_TYPE ("ax"));
  if (*holder == NULL)
    {
      *n = 0;
      return NULL;
    }
  return g_variant_get_fixed_array (*holder, n, sizeof (gint64));
}

/* The runner's statistics as the run's executor versions (and log lines). */
/* With calls on the cpu fallback (--allow-cpu-fallback), the warning a report shows first: how many, which
 * ops and why (the runner's fallback_symbols and fallback_reasons); NULL without any (transfer full). */
static char *
fallback_warning (GVariant *stats, guint32 fallbacks)
{
  g_autoptr (GVariant) syms = g_variant_lookup_value (stats, "fallback_symbols", G_VARIANT_TYPE ("a{su}"));
  g_autoptr (GVariant) reasons = g_variant_lookup_value (stats, "fallback_reasons", G_VARIANT_TYPE ("a{ss}"));
  GString     *s;
  GVariantIter it;
  const char  *name;
  guint32      n;

  if (fallbacks == 0)
    return NULL;
  s = g_string_new (NULL);
  g_string_append_printf (s, "%u calls a run ran on the cpu fallback (--allow-cpu-fallback), their tensors downloaded and uploaded: "
                             "the times below are not the GPU's",
                          fallbacks);
  if (syms != NULL)
    {
      g_variant_iter_init (&it, syms);
      while (g_variant_iter_next (&it, "{&su}", &name, &n))
        {
          const char *why = NULL;
          if (reasons != NULL)
            g_variant_lookup (reasons, name, "&s", &why);
          g_string_append_printf (s, "; %s x%u%s%s%s", name, n, why ? " (" : "", why ? why : "", why ? ")" : "");
        }
    }
  return g_string_free (s, FALSE);
}

/* The runner's autotuning, when it was on: the report's "autotune" line (which variant each plan that left the
 * default runs, at most AUTOTUNE_LISTED of them, the rest counted) and a warning for variants whose results
 * disagreed with the default's. */
#define AUTOTUNE_LISTED 40
static void
add_autotune_stats (WbRun *run, GVariant *stats, GPtrArray *warnings, WbProfileJobLogFunc log, gpointer log_data)
{
  guint32     tuned = 0, cached = 0, changed = 0, refused = 0;
  const char *refusal = NULL;
  g_autoptr (GVariant) choices = NULL;
  g_autoptr (GString) s = g_string_new (NULL);

  if (!g_variant_lookup (stats, "autotune_tuned", "u", &tuned))
    return;
  g_variant_lookup (stats, "autotune_cached", "u", &cached);
  g_variant_lookup (stats, "autotune_changed", "u", &changed);
  g_variant_lookup (stats, "autotune_refused", "u", &refused);
  g_variant_lookup (stats, "autotune_refusal", "&s", &refusal);
  choices = g_variant_lookup_value (stats, "autotune_choices", G_VARIANT_TYPE ("as"));
  g_string_printf (s, "%u plans' variants timed on this device, %u read from the autotune cache; %u run a variant other than the default", tuned, cached,
                   changed);
  for (gsize i = 0; choices != NULL && i < g_variant_n_children (choices) && i < AUTOTUNE_LISTED; i++)
    {
      const char *c = NULL;
      g_variant_get_child (choices, i, "&s", &c);
      g_string_append_printf (s, "%s%s", i ? "; " : ": ", c);
    }
  if (choices != NULL && g_variant_n_children (choices) > AUTOTUNE_LISTED)
    g_string_append_printf (s, "; and %u more", (guint) (g_variant_n_children (choices) - AUTOTUNE_LISTED));
  wb_run_add_executor_version (run, "autotune", s->str);
  gpu_log (log, log_data, "autotune: %s", s->str);
  if (refused > 0)
    {
      char *warning = g_strdup_printf ("autotune: %u variants' results disagreed with the default plan's and were refused (the first: %s): a code "
                                       "generator error, worth a report",
                                       refused, refusal ? refusal : "?");
      gpu_log (log, log_data, "warning: %s", warning);
      g_ptr_array_add (warnings, warning);
    }
}

/* The checked run's host time by symbol (its stats' "checked_calls": the five costliest), the run's "checked run
 * calls" line: what a first call pays once (a module's first load, cuDNN's graph, cuBLASLt's heuristic). */
static void
add_checked_calls (WbRun *run, GVariant *stats, WbProfileJobLogFunc log, gpointer log_data)
{
  g_autoptr (GVariant) calls = g_variant_lookup_value (stats, "checked_calls", G_VARIANT_TYPE ("a(sdud)"));
  g_autoptr (GString) line = NULL;
  GVariantIter it;
  const char  *name;
  double       ms, max_ms;
  guint32      n;

  if (calls == NULL || g_variant_n_children (calls) == 0)
    return;
  line = g_string_new (NULL);
  g_variant_iter_init (&it, calls);
  while (g_variant_iter_next (&it, "(&sdud)", &name, &ms, &n, &max_ms))
    g_string_append_printf (line, "%s%s %.1f ms (%u calls, the slowest %.1f ms)", line->len ? ", " : "", name, ms, n, max_ms);
  wb_run_add_executor_version (run, "checked run calls", line->str);
  gpu_log (log, log_data, "checked run calls: %s", line->str);
}

/* Where the runner's wall time went before its result (its stats' "setup_ms", wb-runner-main-private.h): the
 * run's "runner setup" line, so that a slow command says whether the runner's start, the kernels, the checked
 * run or the graph's capture took it. */
static void
add_setup_phases (WbRun *run, GVariant *stats, WbProfileJobLogFunc log, gpointer log_data)
{
  static const struct
  {
    const char *key, *words;
  } phases[] = { { "start", "runner start (CUDA context and libraries)" },
                 { "parse", "traces parsed" },
                 { "prepare", "inputs uploaded and kernels ready" },
                 { "checked", "checked run" },
                 { "capture", "CUDA graph captured" },
                 { "runs", "warm-up and timed runs" } };
  g_autoptr (GVariant) setup = g_variant_lookup_value (stats, "setup_ms", G_VARIANT_TYPE ("a{sd}"));
  g_autoptr (GString) line = NULL;
  double total = 0;

  if (setup == NULL)
    return;
  line = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      double ms;
      if (!g_variant_lookup (setup, phases[i].key, "d", &ms))
        continue;
      g_string_append_printf (line, "%s%s %.1f ms", line->len ? ", " : "", phases[i].words, ms);
      total += ms;
    }
  g_string_append_printf (line, "; in all %.1f ms", total);
  wb_run_add_executor_version (run, "runner setup", line->str);
  gpu_log (log, log_data, "runner setup: %s", line->str);
  add_checked_calls (run, stats, log, log_data);
}

static void
add_runner_stats (WbRun *run, GVariant *stats, GPtrArray *warnings, WbProfileJobLogFunc log, gpointer log_data)
{
  guint32          compiles = 0, hits = 0, fallbacks = 0, pre_units = 0, pre_compiled = 0;
  double           cms = 0, pre_ms = 0;
  const char      *attention = NULL, *convolution = NULL;
  g_autofree char *what = NULL;
  g_variant_lookup (stats, "nvrtc_compiles", "u", &compiles);
  g_variant_lookup (stats, "nvrtc_hits", "u", &hits);
  g_variant_lookup (stats, "compile_ms", "d", &cms);
  g_variant_lookup (stats, "fallbacks", "u", &fallbacks);
  g_variant_lookup (stats, "precompile_units", "u", &pre_units);
  g_variant_lookup (stats, "precompile_compiled", "u", &pre_compiled);
  g_variant_lookup (stats, "precompile_ms", "d", &pre_ms);
  what = g_strdup_printf ("%u regions' units compiled ahead on every core (%u by NVRTC, the rest cached) in %.1f ms; then %u compiled "
                          "(cold, %.1f ms), %u from the disk cache (warm); %u cpu fallbacks",
                          pre_units, pre_compiled, pre_ms, compiles, cms, hits, fallbacks);
  wb_run_add_executor_version (run, "nvrtc kernels", what);
  gpu_log (log, log_data, "NVRTC kernels: %s", what);
  {
    char *warning = fallback_warning (stats, fallbacks);
    if (warning != NULL)
      {
        gpu_log (log, log_data, "warning: %s", warning);
        g_ptr_array_add (warnings, warning);
      }
  }
  if (g_variant_lookup (stats, "attention", "&s", &attention))
    {
      wb_run_add_executor_version (run, "attention", attention);
      gpu_log (log, log_data, "attention: %s", attention);
    }
  if (g_variant_lookup (stats, "convolution", "&s", &convolution))
    {
      wb_run_add_executor_version (run, "convolution", convolution);
      gpu_log (log, log_data, "convolution: %s", convolution);
    }
  add_autotune_stats (run, stats, warnings, log, log_data);
  add_setup_phases (run, stats, log, log_data);
}

/* The median iteration the runner ran before the timed ones without the profiler's events inside it (the
 * program's own time), ns, or 0; the report's note on what profiling cost, beside the timed median. */
static gint64
unprofiled_median (GVariant *profile, const gint64 *iter_ns, gsize n_iter, GPtrArray *notes, WbProfileJobLogFunc log, gpointer log_data)
{
  g_autoptr (GVariant) plain_v = NULL;
  gsize            n_plain = 0;
  const gint64    *plain = fixed_int64 (profile, "unprofiled_iter_ns", &n_plain, &plain_v);
  gint64           median;
  double           um, pm;
  g_autofree char *overhead = NULL;

  if (plain == NULL || n_plain == 0 || n_iter == 0)
    return 0;
  median = wb_times_median_ns (plain, n_plain);
  um = median / 1e6;
  pm = wb_times_median_ns (iter_ns, n_iter) / 1e6;
  overhead = g_strdup_printf ("without the profiler's events around each region an iteration took %.3f ms (GPU time, median of "
                              "%u run before the timed ones); the timed iterations' %.3f ms is %.2fx that",
                              um, (guint) n_plain, pm, um > 0 ? pm / um : 0.0);
  g_ptr_array_add (notes, g_strdup_printf ("profiling's cost: %s", overhead));
  gpu_log (log, log_data, "%s", overhead);
  return median;
}

/* Profiles @program in the GPU runner (CUDA events around each entry, CUPTI's kernel records) and builds the
 * run as the cpu profiler would; *@ceilings (transfer full) the ceilings measured when @measure_ceilings;
 * the runner's medians and statistics go to @log, what a report should say to @notes. */
/* The runner's entries are the profile's, in order: FALSE with WB_RUNNER_ERROR_PROTOCOL otherwise. */
static gboolean
check_entries (GVariant *names, WbProfile *profile, GError **error)
{
  for (guint i = 0; i < wb_profile_get_n_entries (profile); i++)
    {
      const char *name = NULL;

      g_variant_get_child (names, i, "&s", &name);
      if (g_strcmp0 (name, wb_profile_get_entry_name (profile, i)) != 0)
        {
          g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "the GPU runner's entry %u is %s, not %s", i, name,
                       wb_profile_get_entry_name (profile, i));
          return FALSE;
        }
    }
  return TRUE;
}

/* The runner's request for one profiled run of @program (its sources; the runner decomposes as wb_program_new
 * did) under @options; @assignment, @args and @cotangents borrowed */
static void
fill_request (WbRunnerRequest *req, WbProgram *program, WbAssignment *assignment, const char *default_executor, GPtrArray *args, GPtrArray *cotangents, const WbProfileOptions *options, gboolean measure_ceilings, const WbProfileGroupRank *group)
{
  req->forward = wb_program_get_source (program, FALSE);
  req->backward = wb_program_get_source (program, TRUE);
  req->assignment = assignment;
  req->default_executor = default_executor;
  req->args = args;
  req->cotangents = cotangents;
  req->seed = options->seed;
  req->warmup = MAX (options->warmup, 1); /* the checked run counts as the first */
  req->iters = options->iters;
  req->check_shapes = options->check_shapes;
  req->profile = TRUE;
  req->ceilings = measure_ceilings;
  req->cuda_graphs = options->cuda_graphs;
  req->no_memory_plan = !options->memory_plan;
  req->allow_cpu_fallback = options->allow_cpu_fallback;
  req->allow_tf32 = options->allow_tf32;
  req->autotune = options->autotune;
  req->world_size = group->world_size;
  req->rank = group->rank;
  req->nccl_id = group->nccl_id;
}

/* What @run holds from the runner's @res beyond the times: the kernels' attribution, memory, its rank (@group),
 * the runner's statistics (logged, with warnings), NCCL as the executor of collectives, the kernels' trace
 * lines */
static void
complete_run (WbRun *run, WbRunnerResult *res, const WbProfileGroupRank *group, GPtrArray *warnings, WbProfileJobLogFunc log, gpointer log_data)
{
  wb_runner_profile_get_attribution (res->profile, &run->attribution);
  run->device_step_peak_bytes = res->device_step_peak_bytes;
  run->memory = res->memory;
  g_variant_lookup (res->profile, "clock_origin_ns", "x", &run->clock_origin_ns);
  if (group->world_size > 0)
    {
      run->rank = group->rank;
      run->world_size = group->world_size;
      run->group = g_strdup (group->group);
    }
  if (res->device_step_peak_bytes > 0)
    gpu_log (log, log_data, "device memory: the step's peak %.1f MiB above its inputs", res->device_step_peak_bytes / 1048576.0);
  /* with CUPTI it names the traced iterations and how much slower they ran (tests/bench reads it) */
  if (run->attribution.kernel_source != NULL)
    gpu_log (log, log_data, "kernel records: %s", run->attribution.kernel_source);
  /* what the runner compiled (cold) and found in the disk cache (warm), kept with the run's versions */
  if (res->stats != NULL)
    add_runner_stats (run, res->stats, warnings, log, log_data);
  /* collectives ran on NCCL whatever executor the assignment named (executors/cuda/wb-cuda-nccl.h) */
  for (guint k = 0; k < run->regions->len; k++)
    {
      WbRegionStats *rs = run->regions->pdata[k];

      if (wb_collective_symbol_is_known (rs->name))
        {
          g_free (rs->executor);
          rs->executor = g_strdup (wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_NCCL)));
        }
    }
  /* trace lines: the entry's stage line */
  for (guint k = 0; k < run->kernels->len; k++)
    {
      WbKernelRecord *kr = run->kernels->pdata[k];
      WbRegionStats  *rs = kr->region ? wb_run_find_region (run, kr->region) : NULL;

      kr->trace_line = rs ? rs->stage_line : 0;
    }
}

WbRun *
_wb_profile_job_run_in_runner (WbRunner *runner, const WbProfileGroupRank *group, WbProfile *profile, WbProgram *program, GPtrArray *args, GPtrArray *cotangents, const WbProfileOptions *options, gboolean measure_ceilings, WbDeviceCeilings **ceilings, GPtrArray *notes, GPtrArray *warnings, const char *default_executor, WbProfileJobLogFunc log, gpointer log_data, WbRunResult **checked, int *exit_code, GError **error)
{
  gint64 unprofiled_ns = 0; /* the median iteration without the profiler's events (GPU time) */
  g_autoptr (WbRunnerResult) res = NULL;
  g_autoptr (GVariant) names = NULL;
  g_autoptr (WbAssignment) runner_assignment = NULL;
  g_autoptr (GVariant) iter_v = NULL;
  g_autoptr (GVariant) start_v = NULL;
  g_autoptr (GVariant) entry_v = NULL;
  g_autoptr (GPtrArray) kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
  g_autoptr (GPtrArray) host_calls = NULL;
  g_autofree char     *device_name = NULL;
  WbRunnerRequest      req = { 0 };
  WbProfileDeviceTimes times = { 0 };
  WbProgramKind        kind = wb_program_get_kind (program);
  const gint64        *iter_ns, *start_ns, *entry_ns;
  gsize                n_iter = 0, n_start = 0, n_entry = 0, n_names = 0;
  guint                n_entries = wb_profile_get_n_entries (profile);
  guint64              dropped = 0;

  *exit_code = 3;
  if (kind != WB_PROGRAM_INFERENCE && kind != WB_PROGRAM_JOINT && kind != WB_PROGRAM_TRAINING)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "the stage is a %s trace: --device cuda profiles computation stages (inference, joint, training); use --device cpu",
                   wb_program_kind_to_string (kind));
      return NULL;
    }
  runner_assignment = wb_profile_dup_assignment_by_name (profile);
  fill_request (&req, program, runner_assignment, default_executor, args, cotangents, options, measure_ceilings, group);
  if ((res = wb_runner_run (runner, &req, exit_code, error)) == NULL)
    return NULL;
  *exit_code = 3;
  /* what `run --device cuda` prints as its times, for comparing profiled and unprofiled runs (tests/bench) */
  if (res->iter_ms != NULL && res->iter_ms->len > 0)
    gpu_log (log, log_data, "wall time per timed run (host, synchronised, with the profiler's work after it): median %.3f ms of %u",
             ms_median (res->iter_ms), res->iter_ms->len);
  if (res->iter_gpu_ms != NULL && res->iter_gpu_ms->len > 0)
    gpu_log (log, log_data, "GPU time per timed run (CUDA events): median %.3f ms of %u", ms_median (res->iter_gpu_ms), res->iter_gpu_ms->len);
  if (res->profile == NULL)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "the GPU runner sent no profile");
      return NULL;
    }
  names = g_variant_lookup_value (res->profile, "entries", G_VARIANT_TYPE ("as"));
  if (names != NULL)
    n_names = g_variant_n_children (names);
  iter_ns = fixed_int64 (res->profile, "iter_ns", &n_iter, &iter_v);
  start_ns = fixed_int64 (res->profile, "iter_start_ns", &n_start, &start_v);
  entry_ns = fixed_int64 (res->profile, "entry_ns", &n_entry, &entry_v);
  g_variant_lookup (res->profile, "dropped_records", "t", &dropped);
  if (n_names != n_entries || n_iter != options->iters || n_start != n_iter || n_entry != n_iter * n_entries)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL,
                   "the GPU runner's profile does not match the program (%" G_GSIZE_FORMAT " entries, %" G_GSIZE_FORMAT " iterations; expected %u and %u)",
                   n_names, n_iter, n_entries, options->iters);
      return NULL;
    }
  if (!check_entries (names, profile, error))
    return NULL;
  {
    g_autofree const char **entry_names = g_new0 (const char *, n_entries + 1);
    for (guint i = 0; i < n_entries; i++)
      entry_names[i] = wb_profile_get_entry_name (profile, i);
    g_clear_pointer (&kernels, g_ptr_array_unref);
    {
      /* with a traced phase the kernels are its iterations', placed where those ran (after the timed ones) */
      g_autoptr (GVariant) tstart_v = NULL;
      gsize         n_tstart = 0;
      const gint64 *tstart = fixed_int64 (res->profile, "traced_iter_start_ns", &n_tstart, &tstart_v);
      const gint64 *origin = tstart != NULL && n_tstart == n_iter ? tstart : start_ns;
      guint64       over_cap = 0;

      kernels = wb_runner_profile_get_kernels (res->profile, entry_names, n_entries, origin, (guint) n_iter);
      /* the host's CUDA API calls of the same iterations, on the same clock */
      host_calls = wb_runner_profile_get_host_calls (res->profile, origin, (guint) n_iter, &over_cap);
      if (over_cap > 0)
        g_ptr_array_add (notes, g_strdup_printf ("host calls: %u kept, %" G_GUINT64_FORMAT " more not (over the runner's cap of %u)",
                                                 host_calls->len, over_cap, (guint) WB_RUNNER_MAX_HOST_CALLS));
    }
  }
  device_name = g_strdup_printf ("cuda:%u", group->world_size > 0 ? group->rank : 0);
  times.device_name = device_name;
  times.device_model = res->model ? res->model : (wb_runner_get_model (runner) ? wb_runner_get_model (runner) : "unknown GPU");
  times.driver_version = res->driver;
  times.iteration_ns = iter_ns;
  times.n_iters = (guint) n_iter;
  times.entry_ns = entry_ns;
  times.kernels = kernels;
  times.dropped_records = dropped;
  times.host_calls = host_calls;
  times.cuda_graphs = res->cuda_graphs_used;
  times.launch_list = res->launch_list_used;
  if (res->cuda_graphs_note != NULL) /* the graph's, or without graphs the launch list's */
    {
      g_ptr_array_add (notes, g_strdup (res->cuda_graphs_note));
      gpu_log (log, log_data, "%s", res->cuda_graphs_note);
    }
  unprofiled_ns = unprofiled_median (res->profile, iter_ns, n_iter, notes, log, log_data);
  {
    WbRun *run = wb_profile_build_run (profile, options, &times);

    run->unprofiled_median_ns = unprofiled_ns;
    complete_run (run, res, group, warnings, log, log_data);
    if (measure_ceilings && ceilings != NULL && res->copy_gbps > 0 && res->bf16_tflops > 0)
      *ceilings = wb_device_ceilings_new (times.device_model, res->copy_gbps, res->bf16_tflops);
    *checked = g_steal_pointer (&res->result);
    *exit_code = 0;
    return run;
  }
}
