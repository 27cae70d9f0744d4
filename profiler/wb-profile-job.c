/* wb-profile-job.c — one profiling job: device choice, the GPU runner or the in-process cpu, ceilings, notes
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-profile-job.h"

#include <gio/gio.h>
#include <string.h>

struct _WbProfileJob
{
  WbCase               *wcase; /* borrowed */
  WbProgram            *program;
  char                 *stage_label;
  WbProfileDevice       asked;
  WbProfileDevice       device; /* AUTO until chosen */
  char                 *reason;
  char                 *model;
  char                 *runner_program;
  char                 *default_executor; /* (nullable) the runner's executor of what is not assigned */
  WbRunner             *runner;           /* the GPU runner, started and probed by choose_device */
  WbAssignment         *assignment;
  WbProfileOptions      options;
  WbSafetensors        *tensors; /* borrowed */
  WbDeviceCeilings     *ceilings;
  gboolean              measured;
  WbProfile            *profile;
  GPtrArray            *notes;    /* (element-type utf8) */
  GPtrArray            *warnings; /* (element-type utf8): what a report shows first */
  WbRun                *failed;
  char                 *store_error;
  int                   runner_exit;
  WbProfileJobStoreFunc store;
  gpointer              store_data;
  WbProfileJobLogFunc   log;
  gpointer              log_data;
  GCancellable         *cancellable;
  guint                 runner_calls; /* PROGRESS messages of calls in this run */
  int                   cuda_device;  /* the runner's GPU (-1: the first) */
  WbProfileGroupRank    group;        /* a multi-GPU run's rank (world_size 0: none) */
  WbRunResult          *checked;      /* the GPU runner's checked run: outputs and gradients on the host */
};

gboolean
wb_profile_device_parse (const char *text, WbProfileDevice *device)
{
  if (text == NULL)
    *device = WB_PROFILE_DEVICE_AUTO;
  else if (strcmp (text, "cpu") == 0)
    *device = WB_PROFILE_DEVICE_CPU;
  else if (strcmp (text, "cuda") == 0 || g_str_has_prefix (text, "cuda:"))
    *device = WB_PROFILE_DEVICE_CUDA;
  else
    return FALSE;
  return TRUE;
}

const char *
wb_profile_device_to_string (WbProfileDevice device)
{
  switch (device)
    {
    case WB_PROFILE_DEVICE_CPU:
      return "cpu";
    case WB_PROFILE_DEVICE_CUDA:
      return "cuda";
    case WB_PROFILE_DEVICE_AUTO:
    default:
      return "auto";
    }
}

WbProfileJob *
wb_profile_job_new (WbCase *wcase, WbProgram *program, const char *stage_label)
{
  WbProfileJob *job;

  g_return_val_if_fail (wcase != NULL && program != NULL, NULL);
  job = g_new0 (WbProfileJob, 1);
  job->wcase = wcase;
  job->program = wb_program_ref (program);
  job->stage_label = g_strdup (stage_label);
  job->notes = g_ptr_array_new_with_free_func (g_free);
  job->warnings = g_ptr_array_new_with_free_func (g_free);
  wb_profile_options_init (&job->options);
  job->cuda_device = -1;
  return job;
}

void
wb_profile_job_free (WbProfileJob *job)
{
  if (job == NULL)
    return;
  wb_program_unref (job->program);
  g_free (job->stage_label);
  g_free (job->reason);
  g_free (job->model);
  g_free (job->runner_program);
  g_free (job->default_executor);
  g_clear_pointer (&job->runner, wb_runner_free);
  g_clear_pointer (&job->assignment, wb_assignment_unref);
  g_clear_pointer (&job->ceilings, wb_device_ceilings_free);
  g_clear_pointer (&job->profile, wb_profile_free);
  g_ptr_array_unref (job->notes);
  g_ptr_array_unref (job->warnings);
  g_clear_pointer (&job->failed, wb_run_free);
  g_free (job->store_error);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->group.nccl_id, g_bytes_unref);
  g_free (job->group.group);
  g_clear_pointer (&job->checked, wb_run_result_free);
  g_free (job);
}

void
wb_profile_job_set_device (WbProfileJob *job, WbProfileDevice device)
{
  g_return_if_fail (job != NULL);
  job->asked = device;
}

void
wb_profile_job_set_default_executor (WbProfileJob *job, const char *executor)
{
  g_return_if_fail (job != NULL);
  g_free (job->default_executor);
  job->default_executor = g_strdup (executor);
}

void
wb_profile_job_set_runner_program (WbProfileJob *job, const char *path)
{
  g_return_if_fail (job != NULL);
  g_free (job->runner_program);
  job->runner_program = g_strdup (path);
}

void
wb_profile_job_set_assignment (WbProfileJob *job, WbAssignment *assignment)
{
  g_return_if_fail (job != NULL);
  g_clear_pointer (&job->assignment, wb_assignment_unref);
  job->assignment = assignment ? wb_assignment_ref (assignment) : NULL;
}

void
wb_profile_job_set_options (WbProfileJob *job, const WbProfileOptions *options)
{
  g_return_if_fail (job != NULL && options != NULL);
  job->options = *options;
}

void
wb_profile_job_set_inputs (WbProfileJob *job, WbSafetensors *tensors)
{
  g_return_if_fail (job != NULL);
  job->tensors = tensors;
}

void
wb_profile_job_set_ceilings (WbProfileJob *job, const WbDeviceCeilings *ceilings)
{
  g_return_if_fail (job != NULL);
  g_clear_pointer (&job->ceilings, wb_device_ceilings_free);
  if (ceilings != NULL)
    job->ceilings = wb_device_ceilings_new (ceilings->device_model, ceilings->copy_gbps, ceilings->bf16_tflops);
}

void
wb_profile_job_set_store (WbProfileJob *job, WbProfileJobStoreFunc store, gpointer user_data)
{
  g_return_if_fail (job != NULL);
  job->store = store;
  job->store_data = user_data;
}

void
wb_profile_job_set_log (WbProfileJob *job, WbProfileJobLogFunc log, gpointer user_data)
{
  g_return_if_fail (job != NULL);
  job->log = log;
  job->log_data = user_data;
}

void
wb_profile_job_set_cancellable (WbProfileJob *job, GCancellable *cancellable)
{
  g_return_if_fail (job != NULL);
  g_set_object (&job->cancellable, cancellable);
}

G_GNUC_PRINTF (2, 3)
static void
job_log (WbProfileJob *job, const char *format, ...)
{
  g_autofree char *line = NULL;
  va_list          ap;

  if (job->log == NULL)
    return;
  va_start (ap, format);
  line = g_strdup_vprintf (format, ap);
  va_end (ap);
  job->log (line, job->log_data);
}

/* -- the device ----------------------------------------------------------------------------------- */

/* Starts and probes the runner: TRUE with job->runner set, or FALSE with the reason in *why. */
static gboolean
start_runner (WbProfileJob *job, char **why)
{
  g_autofree char *path = job->runner_program ? g_strdup (job->runner_program) : wb_runner_find_program ();
  g_autoptr (WbRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;
  gboolean         explicit_runner = job->runner_program != NULL || (g_getenv ("WB_RUNNER") && *g_getenv ("WB_RUNNER"));

  /* without a runner named explicitly, wb_cuda_is_available's check (and its words) decide first */
  if (path == NULL || (!explicit_runner && !wb_cuda_is_available (why)))
    {
      if (*why == NULL)
        wb_cuda_is_available (why);
      return FALSE;
    }
  if ((runner = wb_runner_new_full (path, job->cuda_device, &error)) == NULL || !wb_runner_probe (runner, &device, &error))
    {
      *why = g_strdup (error->message);
      return FALSE;
    }
  job->model = g_strdup (wb_runner_get_model (runner) ? wb_runner_get_model (runner) : "unknown GPU");
  job->reason = g_strdup_printf ("the GPU runner reports %s", device ? device : job->model);
  job->runner = g_steal_pointer (&runner);
  return TRUE;
}

gboolean
wb_profile_job_choose_device (WbProfileJob *job, GError **error)
{
  g_autofree char *why = NULL;

  g_return_val_if_fail (job != NULL, FALSE);
  if (job->device != WB_PROFILE_DEVICE_AUTO)
    return TRUE;
  g_clear_pointer (&job->reason, g_free);
  if (job->asked == WB_PROFILE_DEVICE_CPU)
    {
      job->device = WB_PROFILE_DEVICE_CPU;
      job->reason = g_strdup ("asked for cpu");
    }
  else if (start_runner (job, &why))
    job->device = WB_PROFILE_DEVICE_CUDA;
  else if (job->asked == WB_PROFILE_DEVICE_CUDA)
    {
      g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNAVAILABLE, "%s", why);
      return FALSE;
    }
  else
    {
      job->device = WB_PROFILE_DEVICE_CPU;
      job->reason = g_strdup_printf ("no device asked for and %s", why);
      g_ptr_array_add (job->notes, g_strdup_printf ("profiled on cpu: %s", why));
    }
  if (job->device == WB_PROFILE_DEVICE_CPU)
    job->model = wb_cpu_device_model ();
  return TRUE;
}

WbProfileDevice
wb_profile_job_get_device (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, WB_PROFILE_DEVICE_AUTO);
  return job->device;
}

const char *
wb_profile_job_get_device_reason (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->reason;
}

const char *
wb_profile_job_get_device_model (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->model;
}

void
wb_profile_job_set_cuda_device (WbProfileJob *job, int cuda_device)
{
  g_return_if_fail (job != NULL && job->runner == NULL);
  job->cuda_device = cuda_device;
}

void
wb_profile_job_set_group_rank (WbProfileJob *job, const WbProfileGroupRank *rank)
{
  g_return_if_fail (job != NULL && rank != NULL);
  g_clear_pointer (&job->group.nccl_id, g_bytes_unref);
  g_clear_pointer (&job->group.group, g_free);
  job->group.world_size = rank->world_size;
  job->group.rank = rank->rank;
  job->group.nccl_id = rank->nccl_id ? g_bytes_ref (rank->nccl_id) : NULL;
  job->group.group = g_strdup (rank->group);
}

WbRunResult *
wb_profile_job_get_checked_result (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->checked;
}

WbRunner *
wb_profile_job_get_runner (WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->runner;
}

WbRunner *
wb_profile_job_steal_runner (WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return g_steal_pointer (&job->runner);
}

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
static WbRun *
run_in_runner (WbRunner *runner, const WbProfileGroupRank *group, WbProfile *profile, WbProgram *program, GPtrArray *args, GPtrArray *cotangents, const WbProfileOptions *options, gboolean measure_ceilings, WbDeviceCeilings **ceilings, GPtrArray *notes, GPtrArray *warnings, const char *default_executor, WbProfileJobLogFunc log, gpointer log_data, WbRunResult **checked, int *exit_code, GError **error)
{
  gint64 unprofiled_ns = 0; /* the median iteration without the profiler's events (GPU time) */
  g_autoptr (WbRunnerResult) res = NULL;
  g_autoptr (GVariant) names = NULL;
  g_autoptr (GVariant) iter_v = NULL;
  g_autoptr (GVariant) start_v = NULL;
  g_autoptr (GVariant) entry_v = NULL;
  g_autoptr (GPtrArray) kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
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
  req.forward = wb_program_get_forward (program);
  req.backward = wb_program_get_backward (program);
  req.assignment = wb_profile_get_assignment (profile);
  req.default_executor = default_executor;
  req.args = args;
  req.cotangents = cotangents;
  req.seed = options->seed;
  req.warmup = MAX (options->warmup, 1); /* the checked run counts as the first */
  req.iters = options->iters;
  req.check_shapes = options->check_shapes;
  req.profile = TRUE;
  req.ceilings = measure_ceilings;
  req.cuda_graphs = options->cuda_graphs;
  req.allow_cpu_fallback = options->allow_cpu_fallback;
  req.world_size = group->world_size;
  req.rank = group->rank;
  req.nccl_id = group->nccl_id;
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
  for (guint i = 0; i < n_entries; i++)
    {
      const char *name = NULL;

      g_variant_get_child (names, i, "&s", &name);
      if (g_strcmp0 (name, wb_profile_get_entry_name (profile, i)) != 0)
        {
          g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "the GPU runner's entry %u is %s, not %s", i, name,
                       wb_profile_get_entry_name (profile, i));
          return NULL;
        }
    }
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
      if (tstart != NULL && n_tstart == n_iter)
        kernels = wb_runner_profile_get_kernels (res->profile, entry_names, n_entries, tstart, (guint) n_iter);
      else
        kernels = wb_runner_profile_get_kernels (res->profile, entry_names, n_entries, start_ns, (guint) n_iter);
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
  times.cuda_graphs = res->cuda_graphs_used;
  if (options->cuda_graphs && res->cuda_graphs_note != NULL)
    {
      g_ptr_array_add (notes, g_strdup (res->cuda_graphs_note));
      gpu_log (log, log_data, "%s", res->cuda_graphs_note);
    }
  unprofiled_ns = unprofiled_median (res->profile, iter_ns, n_iter, notes, log, log_data);
  {
    WbRun *run = wb_profile_build_run (profile, options, &times);

    wb_runner_profile_get_attribution (res->profile, &run->attribution);
    run->device_step_peak_bytes = res->device_step_peak_bytes;
    run->unprofiled_median_ns = unprofiled_ns;
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
    /* trace lines: the entry's stage line */
    for (guint k = 0; k < run->kernels->len; k++)
      {
        WbKernelRecord *kr = run->kernels->pdata[k];
        WbRegionStats  *rs = kr->region ? wb_run_find_region (run, kr->region) : NULL;

        kr->trace_line = rs ? rs->stage_line : 0;
      }
    if (measure_ceilings && ceilings != NULL && res->copy_gbps > 0 && res->bf16_tflops > 0)
      *ceilings = wb_device_ceilings_new (times.device_model, res->copy_gbps, res->bf16_tflops);
    *checked = g_steal_pointer (&res->result);
    *exit_code = 0;
    return run;
  }
}

/* -- running -------------------------------------------------------------------------------------- */

/* Number of forward outputs a training trace returns ('flat_output' or 'output'), for the cotangents. */
static guint
count_forward_outputs (const WbTrace *trace)
{
  for (guint i = trace->n_body; i > 0; i--)
    {
      const WbBsym  *b = trace->body[i - 1];
      const WbValue *v = b->value;

      if (b->kind != WB_BSYM_RETURN || v == NULL)
        continue;
      if (v->kind == WB_VALUE_TUPLE && v->n_items == 2)
        v = v->items[0];
      if (v->kind == WB_VALUE_DICT)
        for (guint k = 0; k + 1 < v->n_items; k += 2)
          if (v->items[k]->kind == WB_VALUE_STRING &&
              (g_strcmp0 (v->items[k]->v.s, "flat_output") == 0 || g_strcmp0 (v->items[k]->v.s, "output") == 0))
            return wb_value_is_sequence (v->items[k + 1]) ? v->items[k + 1]->n_items : 1;
      return 1;
    }
  return 1;
}

static void
store_run (WbProfileJob *job, WbRun *run)
{
  g_autoptr (GError) error = NULL;

  if (job->store != NULL && !job->store (run, job->store_data, &error))
    {
      g_free (job->store_error);
      job->store_error = g_strdup (error ? error->message : "the run could not be stored");
    }
}

/* the runner's PROGRESS as the job's: the checked run's calls as the warm-up phase, then its iterations */
static void
on_runner_progress (const char *region, guint line, guint iteration, guint iterations, gpointer data)
{
  WbProfileJob *job = data;
  guint         n = wb_profile_get_n_entries (job->profile);

  if (job->options.progress == NULL)
    return;
  if (iterations > 0)
    job->options.progress (WB_PROFILE_PHASE_TIMED, MIN (iteration, iterations), iterations, 0, job->options.progress_data);
  else if (region != NULL && n > 0)
    job->options.progress (WB_PROFILE_PHASE_WARMUP, MIN (++job->runner_calls, n), n, 0, job->options.progress_data);
}

/* a cancel ends the runner at once (its process, and the device memory with it), from the cancelling thread */
static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  wb_runner_kill (data);
}

static WbRun *
run_on_gpu (WbProfileJob *job, GPtrArray *args, GPtrArray *cotangents, WbProfileOptions *po, GError **error)
{
  g_autoptr (WbDeviceCeilings) measured = NULL;
  g_autoptr (GError) local = NULL;
  gulong handler = 0;
  WbRun *run;

  job_log (job, "running on %s through thunder-wb-runner (%u warm-up, %u timed iterations)", job->model, po->warmup, po->iters);
  job->runner_calls = 0;
  g_clear_pointer (&job->checked, wb_run_result_free);
  wb_runner_set_progress (job->runner, on_runner_progress, job);
  if (job->cancellable != NULL)
    handler = g_cancellable_connect (job->cancellable, G_CALLBACK (on_cancelled), job->runner, NULL);
  run = run_in_runner (job->runner, &job->group, job->profile, job->program, args, cotangents, po, job->ceilings == NULL, &measured, job->notes,
                       job->warnings, job->default_executor, job->log, job->log_data, &job->checked, &job->runner_exit, &local);
  g_cancellable_disconnect (job->cancellable, handler);
  wb_runner_set_progress (job->runner, NULL, NULL);
  if (run == NULL && g_cancellable_is_cancelled (job->cancellable))
    {
      /* not a crash: the runner was ended on purpose; the next job starts a fresh one */
      g_clear_pointer (&job->runner, wb_runner_free);
      job->runner_exit = 0;
      g_cancellable_set_error_if_cancelled (job->cancellable, error);
      return NULL;
    }
  if (run == NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  if (measured != NULL)
    {
      g_clear_pointer (&job->ceilings, wb_device_ceilings_free);
      job->ceilings = g_steal_pointer (&measured);
      job->measured = TRUE;
    }
  return run;
}

static WbRun *
run_on_device (WbProfileJob *job, GPtrArray *args, GPtrArray *cotangents, WbProfileOptions *po, GError **error)
{
  if (job->device == WB_PROFILE_DEVICE_CUDA)
    return run_on_gpu (job, args, cotangents, po, error);
  g_clear_pointer (&job->failed, wb_run_free);
  return wb_profile_run (job->profile, args, cotangents, po, &job->failed, error);
}

WbRun *
wb_profile_job_run (WbProfileJob *job, GError **error)
{
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cotangents = NULL;
  WbProfileOptions po;
  WbRun           *run;

  g_return_val_if_fail (job != NULL, NULL);
  if (!wb_profile_job_choose_device (job, error))
    return NULL;
  g_clear_pointer (&job->profile, wb_profile_free);
  job->profile = wb_profile_new (job->program, job->stage_label);
  if (job->device == WB_PROFILE_DEVICE_CUDA)
    wb_profile_set_device_cuda (job->profile, job->default_executor);
  if (!wb_profile_set_assignment (job->profile, job->assignment, error))
    return NULL;
  inputs = wb_case_make_inputs (job->wcase, job->tensors, job->options.seed, error);
  if (inputs == NULL || (args = wb_case_make_args (job->wcase, job->program, inputs, error)) == NULL)
    return NULL;
  if (job->tensors != NULL && wb_program_get_kind (job->program) == WB_PROGRAM_TRAINING)
    cotangents = wb_case_make_cotangents (job->wcase, job->tensors, count_forward_outputs (wb_program_get_forward (job->program)));
  if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return NULL;

  po = job->options;
  po.parameters = wb_case_parameter_lookup; /* prologue stages: module.get_parameter */
  po.parameters_data = inputs;
  po.cuda_graphs = po.cuda_graphs && job->device == WB_PROFILE_DEVICE_CUDA;
  po.cancellable = job->cancellable;
  run = run_on_device (job, args, cotangents, &po, error);
  if (run == NULL)
    {
      /* a cancel is not a failed run: nothing is stored */
      if (g_cancellable_is_cancelled (job->cancellable))
        g_clear_pointer (&job->failed, wb_run_free);
      if (job->failed != NULL)
        store_run (job, job->failed);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
    {
      wb_run_free (run);
      return NULL;
    }
  store_run (job, run);
  return run;
}

WbProfile *
wb_profile_job_get_profile (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->profile;
}

GPtrArray *
wb_profile_job_get_notes (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->notes;
}

GPtrArray *
wb_profile_job_get_warnings (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->warnings;
}

const WbDeviceCeilings *
wb_profile_job_get_ceilings (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->ceilings;
}

gboolean
wb_profile_job_measured_ceilings (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, FALSE);
  return job->measured;
}

WbRun *
wb_profile_job_get_failed_run (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->failed;
}

const char *
wb_profile_job_get_store_error (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->store_error;
}

int
wb_profile_job_get_runner_exit (const WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, 0);
  return job->runner_exit;
}
