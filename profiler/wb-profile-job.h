/* wb-profile-job.h — one profiling job: device choice, the GPU runner or the in-process cpu, ceilings, notes (WbProfileJob)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `profile`, `run --device`, the app and the benchmarks share. A job is built from a case (a folder,
 * a file, or a trace set loaded from a session with wb_case_new_for_set: no temporary folder) and the
 * program of one of its stages, then:
 *  1. wb_profile_job_choose_device(): the device, and why (wb_profile_job_get_device_reason):
 *     - asked for cpu: cpu;
 *     - asked for cuda or nothing asked: the GPU runner, when one is found (wb_runner_find_program, or
 *       wb_profile_job_set_runner_program) and its probe reports a device. Without an explicit runner
 *       program or $WB_RUNNER, a machine without the driver node /dev/nvidiactl is not probed (no process
 *       is started for nothing). When the runner is absent or its probe says no: asked for cuda, an error
 *       (WB_PROFILE_ERROR_UNAVAILABLE with the reason); nothing asked, cpu, with the reason as a note.
 *  2. wb_profile_job_run(): inputs (seeded, or from --inputs), the assignment, @options->iters timed
 *     iterations after the warm-up, on the device chosen; the run gets the job's notes; the store hook
 *     (a session, set by the caller: profiler/ does not know SQLite) gets the run, or the failed run.
 *
 * Threads: a job is used from one thread (the app runs it on a worker thread); a cancelled job stops at
 * the next iteration on the cpu, and after the runner answers on the GPU. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-ceilings.h"
#include "wb-profile.h"
#include "wb-runner.h"

G_BEGIN_DECLS

/* The device a job is asked to use (WB_PROFILE_DEVICE_AUTO: the GPU when there is one), and the one it chose. */
typedef enum
{
  WB_PROFILE_DEVICE_AUTO = 0,
  WB_PROFILE_DEVICE_CPU,
  WB_PROFILE_DEVICE_CUDA,
} WbProfileDevice;

/* wb_profile_device_parse: "cpu", "cuda", "cuda:N" (and NULL: AUTO) into @device; FALSE otherwise. */
gboolean wb_profile_device_parse (const char *text, WbProfileDevice *device);
/* wb_profile_device_to_string: "auto", "cpu", "cuda". */
const char *wb_profile_device_to_string (WbProfileDevice device);

/* WbProfileJobStoreFunc: stores @run (status OK, or FAILED with what was measured); FALSE with @error when
 * it could not (the job keeps the run and reports the error as wb_profile_job_get_store_error). */
typedef gboolean (*WbProfileJobStoreFunc) (WbRun   *run,
                                           gpointer user_data,
                                           GError **error);
/* WbProfileJobLogFunc: one line of progress for a terminal ("running on NVIDIA H200 through ..."). */
typedef void (*WbProfileJobLogFunc) (const char *line,
                                     gpointer    user_data);

typedef struct _WbProfileJob WbProfileJob;

/* WbProfileGroupRank: one rank of a multi-GPU run (wb-profile-group.h): @rank of @world_size, NCCL's unique id
 * (128 bytes) and the group's id (WbRun.group). world_size 0: not part of one. */
typedef struct
{
  guint   world_size;
  guint   rank;
  GBytes *nccl_id;
  char   *group;
} WbProfileGroupRank;

/* wb_profile_job_new: (transfer full) a job profiling @program (referenced) of @wcase (transfer none: it
 * must outlive the job), whose stage is called @stage_label ("forward_06+backward_00"; nullable). */
WbProfileJob *wb_profile_job_new (WbCase     *wcase,
                                  WbProgram  *program,
                                  const char *stage_label);
void          wb_profile_job_free (WbProfileJob *job);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbProfileJob, wb_profile_job_free)

void wb_profile_job_set_device (WbProfileJob *job, WbProfileDevice device);
/* wb_profile_job_set_default_executor: (nullable) the GPU runner's executor for what the assignment
 * leaves out; NULL: the registry's default on CUDA (wb_executor_info_get_default). The caller reads any
 * setting (`profile --default-executor`). */
void wb_profile_job_set_default_executor (WbProfileJob *job, const char *executor);
/* wb_profile_job_set_cuda_device: the GPU the job's runner uses (its WB_CUDA_DEVICE; -1, the default: the
 * first); set before the device is chosen. */
void wb_profile_job_set_cuda_device (WbProfileJob *job, int cuda_device);
/* wb_profile_job_set_group_rank: (copied) makes the job's run @rank's part of a multi-GPU run: the runner joins
 * NCCL's communicator before the checked run, and the run gets rank, world_size and group. */
void wb_profile_job_set_group_rank (WbProfileJob *job, const WbProfileGroupRank *rank);
/* wb_profile_job_get_checked_result: (transfer none) (nullable) the outputs, gradients and flat argument
 * names of the GPU run's checked run (host tensors), after wb_profile_job_run on cuda. */
WbRunResult *wb_profile_job_get_checked_result (const WbProfileJob *job);
/* wb_profile_job_get_runner: (transfer none) (nullable) the GPU runner wb_profile_job_choose_device started. */
WbRunner *wb_profile_job_get_runner (WbProfileJob *job);
/* wb_profile_job_set_runner_program: (nullable) the GPU runner to start instead of the one found
 * (tests start a fake one); also probed without /dev/nvidiactl. */
void wb_profile_job_set_runner_program (WbProfileJob *job, const char *path);
/* wb_profile_job_set_assignment: (nullable) (referenced) applied by wb_profile_job_run. */
void wb_profile_job_set_assignment (WbProfileJob *job, WbAssignment *assignment);
/* wb_profile_job_set_options: copied; iters, warmup, seed, check_shapes, progress, cuda_graphs, memory_plan,
 * allow_cpu_fallback are used; parameters are the case's inputs (set by the job). */
void wb_profile_job_set_options (WbProfileJob *job, const WbProfileOptions *options);
/* wb_profile_job_set_inputs: (nullable) (transfer none; must outlive the run) tensors to take inputs and
 * cotangents from (--inputs); NULL: seeded inputs. */
void wb_profile_job_set_inputs (WbProfileJob *job, WbSafetensors *tensors);
/* wb_profile_job_set_ceilings: (nullable) (transfer none, copied) the device's known ceilings; on the GPU
 * without them the runner measures them (wb_profile_job_get_ceilings, wb_profile_job_measured_ceilings). */
void wb_profile_job_set_ceilings (WbProfileJob *job, const WbDeviceCeilings *ceilings);
void wb_profile_job_set_store (WbProfileJob *job, WbProfileJobStoreFunc store, gpointer user_data);
void wb_profile_job_set_log (WbProfileJob *job, WbProfileJobLogFunc log, gpointer user_data);
void wb_profile_job_set_cancellable (WbProfileJob *job, GCancellable *cancellable);

/* wb_profile_job_choose_device: chooses the device (above). FALSE with WB_PROFILE_ERROR_UNAVAILABLE
 * when cuda was asked for and cannot be had. Called by wb_profile_job_run when not called before. */
gboolean        wb_profile_job_choose_device (WbProfileJob *job, GError **error);
WbProfileDevice wb_profile_job_get_device (const WbProfileJob *job); /* CPU or CUDA once chosen */
/* wb_profile_job_get_device_reason: (transfer none) why that device ("the GPU runner reports cuda:0
 * (NVIDIA H200)", "no --device given and this build has no GPU runner ..."). */
const char *wb_profile_job_get_device_reason (const WbProfileJob *job);
/* wb_profile_job_get_device_model: (transfer none) the GPU's or the cpu's model name once chosen. */
const char *wb_profile_job_get_device_model (const WbProfileJob *job);
/* wb_profile_job_start_runner_ahead: (transfer full) (nullable) the GPU runner a job of the default runner
 * program and GPU would start (the same program and checks as its device choice), started now and not probed,
 * so that its CUDA start overlaps what the caller does before the job runs; hand it to the job with
 * wb_profile_job_set_runner. NULL where a job would not start one or it did not start. */
WbRunner *wb_profile_job_start_runner_ahead (void);
/* wb_profile_job_set_runner: (transfer full) (nullable) a runner an earlier job started and probed
 * (wb_profile_job_steal_runner), for this job's device choice to use instead of starting one, so that the
 * sub-programs of a model, or the app's profiles of one document, pay for one CUDA context. Used only when
 * the device is not cpu and it is the runner this job would start (the same program, runner_program or
 * wb_runner_find_program's, and cuda_device), it is alive and its probe again reports a device; otherwise it
 * is ended there and a fresh one started. Set before the device is chosen. */
void wb_profile_job_set_runner (WbProfileJob *job, WbRunner *runner);
/* wb_profile_job_steal_runner: (transfer full) (nullable) the job's GPU runner when it can serve another job or
 * request: the one wb_profile_job_choose_device started or took, alive, and whose run (if the job ran) did not
 * fail; NULL when it died or its run failed (it ends with the job). On the cpu: the runner offered, unused.
 * `run --device cuda` takes it after the device choice to send its own request (no second runner); a job
 * must not be run after it. */
WbRunner *wb_profile_job_steal_runner (WbProfileJob *job);

/* The app's job (wb-profile-job-plan.c): wb_pipeline_get_final_stages gives (transfer none) the last
 * forward or computation stage and the last backward of @pipeline (NULL when absent);
 * wb_program_new_for_pipeline (transfer full) their program (the backward only with a training forward);
 * wb_profile_job_choose_device_for_plan chooses the device and, on the GPU, gives the runner the choices of
 * @plan (nullable: the pipeline's assignment) that name an executor for a region of @program ("unfuse"
 * was the pipeline's to apply). */
void       wb_pipeline_get_final_stages (const WbPipeline *pipeline, WbTrace **forward, WbTrace **backward);
WbProgram *wb_program_new_for_pipeline (const WbPipeline *pipeline, GError **error);
gboolean   wb_profile_job_choose_device_for_plan (WbProfileJob *job, WbProgram *program, const WbAssignment *plan, GError **error);

/* wb_profile_job_run: (transfer full) the run, with the job's notes, stored through the store hook;
 * NULL with the error (the executors' WB_EXECUTOR_ERROR naming FILE:LINE, WB_PROFILE_ERROR for the
 * assignment or device, WB_RUNNER_ERROR for the runner, G_IO_ERROR_CANCELLED) otherwise; a failed run
 * is then stored and kept (wb_profile_job_get_failed_run). */
WbRun *wb_profile_job_run (WbProfileJob *job, GError **error);

/* wb_profile_job_get_profile: (transfer none) (nullable) the profile of the last run (entries, stage text). */
WbProfile *wb_profile_job_get_profile (const WbProfileJob *job);
/* wb_profile_job_get_notes: (transfer none) (element-type utf8) what the report should say about the run. */
GPtrArray *wb_profile_job_get_notes (const WbProfileJob *job);
/* wb_profile_job_get_warnings: (transfer none) (element-type utf8) what the report should say first: calls
 * that ran on the cpu fallback of a GPU run (options.allow_cpu_fallback), which makes its times misleading. */
GPtrArray *wb_profile_job_get_warnings (const WbProfileJob *job);
/* wb_profile_job_get_ceilings: (transfer none) (nullable) the ceilings known or measured. */
const WbDeviceCeilings *wb_profile_job_get_ceilings (const WbProfileJob *job);
/* wb_profile_job_measured_ceilings: TRUE when the runner measured the ceilings in this run (store them). */
gboolean wb_profile_job_measured_ceilings (const WbProfileJob *job);
/* wb_profile_job_get_failed_run: (transfer none) (nullable) the failed run of a run that failed. */
WbRun *wb_profile_job_get_failed_run (const WbProfileJob *job);
/* wb_profile_job_get_store_error: (transfer none) (nullable) why the store hook failed. */
const char *wb_profile_job_get_store_error (const WbProfileJob *job);
/* wb_profile_job_get_runner_exit: the exit status the GPU runner asked for with a failure (2 bad input,
 * 3 environment), 0 when none. */
int wb_profile_job_get_runner_exit (const WbProfileJob *job);

G_END_DECLS
