/* wb-profile-job.c — one profiling job: device choice, the GPU runner or the in-process cpu, ceilings, notes
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-profile-job.h"

#include <gio/gio.h>
#include <string.h>

#include "wb-profile-job-private.h"

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
  WbRunner             *offered;          /* (nullable) an earlier job's runner for choose_device to use */
  gboolean              runner_failed;    /* a run in the runner failed: it serves no other job */
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
  g_clear_pointer (&job->offered, wb_runner_free);
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

/* The program of the runner a job on the GPU starts (@runner_program, else wb_runner_find_program's), or NULL with
 * *@why: without a runner named explicitly (@runner_program or WB_RUNNER), wb_cuda_is_available's check (and its
 * words) decide first. (transfer full) */
static char *
runner_to_start (const char *runner_program, char **why)
{
  g_autofree char *path = runner_program ? g_strdup (runner_program) : wb_runner_find_program ();
  gboolean         explicit_runner = runner_program != NULL || (g_getenv ("WB_RUNNER") && *g_getenv ("WB_RUNNER"));

  if (path == NULL || (!explicit_runner && !wb_cuda_is_available (why)))
    {
      if (*why == NULL)
        wb_cuda_is_available (why);
      return NULL;
    }
  return g_steal_pointer (&path);
}

WbRunner *
wb_profile_job_start_runner_ahead (void)
{
  g_autofree char *why = NULL;
  g_autofree char *path = runner_to_start (NULL, &why);

  return path != NULL ? wb_runner_new_full (path, -1, NULL) : NULL;
}

/* Starts and probes the runner: TRUE with job->runner set, or FALSE with the reason in *why. */
static gboolean
start_runner (WbProfileJob *job, char **why)
{
  g_autofree char *path = runner_to_start (job->runner_program, why);
  g_autoptr (WbRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;

  if (path == NULL)
    return FALSE;
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

/* Takes the runner an earlier job left (wb_profile_job_set_runner) when it is the one this job would start (the
 * same program and GPU), still runs, and its probe still reports a device (no new CUDA context: the runner made
 * its own once); TRUE with job->runner set. Otherwise it is ended and FALSE: start_runner starts a fresh one. */
static gboolean
take_offered_runner (WbProfileJob *job)
{
  g_autoptr (WbRunner) offered = g_steal_pointer (&job->offered);
  g_autofree char *path = NULL;
  g_autofree char *device = NULL;
  g_autoptr (GError) error = NULL;

  if (offered == NULL)
    return FALSE;
  path = job->runner_program ? g_strdup (job->runner_program) : wb_runner_find_program ();
  if (g_strcmp0 (path, wb_runner_get_program (offered)) != 0 || wb_runner_get_cuda_device (offered) != MAX (job->cuda_device, -1) ||
      !wb_runner_is_alive (offered) || !wb_runner_probe (offered, &device, &error))
    return FALSE;
  job->model = g_strdup (wb_runner_get_model (offered) ? wb_runner_get_model (offered) : "unknown GPU");
  job->reason = g_strdup_printf ("the GPU runner reports %s", device ? device : job->model);
  job->runner = g_steal_pointer (&offered);
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
  else if (take_offered_runner (job) || start_runner (job, &why))
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

void
wb_profile_job_set_runner (WbProfileJob *job, WbRunner *runner)
{
  g_return_if_fail (job != NULL && job->device == WB_PROFILE_DEVICE_AUTO);
  g_clear_pointer (&job->offered, wb_runner_free);
  job->offered = runner;
}

WbRunner *
wb_profile_job_steal_runner (WbProfileJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  if (job->runner == NULL)
    return g_steal_pointer (&job->offered); /* a cpu job leaves the one offered as it was */
  if (job->runner_failed || !wb_runner_is_alive (job->runner))
    return NULL;
  return g_steal_pointer (&job->runner);
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

/* the runner's PROGRESS as the job's: the checked run's calls (counted here: the runner names them), then
 * each phase's iterations as the runner counts them */
static void
on_runner_progress (const WbRunnerProgress *p, gpointer data)
{
  static const WbProfilePhase phases[] = {
    [WB_RUNNER_PHASE_WARMUP] = WB_PROFILE_PHASE_WARMUP,
    [WB_RUNNER_PHASE_UNPROFILED] = WB_PROFILE_PHASE_UNPROFILED,
    [WB_RUNNER_PHASE_TIMED] = WB_PROFILE_PHASE_TIMED,
    [WB_RUNNER_PHASE_TRACED] = WB_PROFILE_PHASE_TRACED,
  };
  WbProfileJob *job = data;
  guint         n = wb_profile_get_n_entries (job->profile);

  if (job->options.progress == NULL)
    return;
  if (p->phase != WB_RUNNER_PHASE_NONE && (guint) p->phase < G_N_ELEMENTS (phases) && p->iterations > 0)
    job->options.progress (phases[p->phase], MIN (p->iteration, p->iterations), p->iterations, p->iteration_ns, job->options.progress_data);
  else if (p->region != NULL && n > 0)
    {
      job->runner_calls++; /* not inside MIN (), which would count it twice */
      job->options.progress (WB_PROFILE_PHASE_CHECKED, MIN (job->runner_calls, n), n, 0, job->options.progress_data);
    }
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
  run = _wb_profile_job_run_in_runner (job->runner, &job->group, job->profile, job->program, args, cotangents, po, job->ceilings == NULL, &measured, job->notes,
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
    {
      /* alive or not, a runner whose run failed (a crash, a fault, an error with an exit code) is not handed on */
      job->runner_failed = TRUE;
      g_propagate_error (error, g_steal_pointer (&local));
    }
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
  /* one rank of a larger world alone: its collectives would wait for peers that never come (or, on one
   * rank's communicator, gather the wrong shapes); the cpu executor refuses them itself, naming the op */
  {
    int world = wb_trace_set_get_world_size (wb_case_get_trace_set (job->wcase));

    if (job->device == WB_PROFILE_DEVICE_CUDA && world > 1 && job->group.world_size == 0)
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                     "%s is rank %d of a world of %d: its collectives need every rank; profile the case folder that "
                     "holds rank0 ... rank%d (one GPU per rank)",
                     wb_case_get_name (job->wcase), wb_trace_set_get_rank (wb_case_get_trace_set (job->wcase)), world, world - 1);
        return NULL;
      }
  }
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
