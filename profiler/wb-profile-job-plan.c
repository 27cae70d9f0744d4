/* wb-profile-job-plan.c — the app's profiling job: the program of a pipeline's final stages, and the
 * assignment the GPU runner gets once the device is chosen
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What views/wb-document-jobs.c does with a WbProfileJob, GTK-free, so that the GPU test drives the job
 * on the GPU machine exactly as the app does (tests/gpu/test-app-job.c). */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"

void
wb_pipeline_get_final_stages (const WbPipeline *pipeline, WbTrace **forward, WbTrace **backward)
{
  *forward = *backward = NULL;
  for (guint i = 0; pipeline != NULL && i < wb_pipeline_get_n_stages (pipeline); i++)
    {
      const WbStage *s = wb_pipeline_get_stage (pipeline, i);

      switch (wb_stage_get_list (s))
        {
        case WB_STAGE_FORWARD:
        case WB_STAGE_COMPUTATION:
          *forward = wb_stage_get_trace (s);
          break;
        case WB_STAGE_BACKWARD:
          *backward = wb_stage_get_trace (s);
          break;
        default:
          break;
        }
    }
}

WbProgram *
wb_program_new_for_pipeline (const WbPipeline *pipeline, GError **error)
{
  WbTrace *forward, *backward;

  g_return_val_if_fail (pipeline != NULL, NULL);
  wb_pipeline_get_final_stages (pipeline, &forward, &backward);
  if (forward == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "the pipeline has no final forward or computation stage");
      return NULL;
    }
  if (backward != NULL && wb_program_classify_trace (forward) != WB_PROGRAM_TRAINING)
    backward = NULL;
  return wb_program_new (forward, backward, error);
}

/* The choices of @plan (nullable) that name a region of @program with an executor (not "unfuse"). */
static WbAssignment *
runner_assignment (const WbAssignment *plan, WbProgram *program)
{
  const WbTrace *traces[2] = { wb_program_get_forward (program), wb_program_get_backward (program) };
  WbAssignment  *runner = wb_assignment_new ();

  for (guint i = 0; i < wb_assignment_get_n_choices (plan); i++)
    {
      const WbAssignmentChoice *c = wb_assignment_get_choice (plan, i);

      if (strcmp (c->executor, "unfuse") != 0 && wb_assignment_resolve_key (c->key, traces, 2) != NULL)
        wb_assignment_set (runner, c->key, c->executor, NULL);
    }
  return runner;
}

gboolean
wb_profile_job_choose_device_for_plan (WbProfileJob *job, WbProgram *program, const WbAssignment *plan, GError **error)
{
  g_return_val_if_fail (job != NULL && program != NULL, FALSE);
  if (!wb_profile_job_choose_device (job, error))
    return FALSE;
  /* the plan was the pipeline's (unfuse, fusion executors) and is consumed there; on the GPU its choices of
   * executors that still name a region of the program also tell the runner where to run them */
  if (wb_profile_job_get_device (job) == WB_PROFILE_DEVICE_CUDA && plan != NULL)
    {
      g_autoptr (WbAssignment) runner = runner_assignment (plan, program);

      wb_profile_job_set_assignment (job, runner);
    }
  return TRUE;
}
