/* wb-document-profile.c — the parts of the window's profile that hold no job: the progress's words, and the
 * profile of a case recorded per rank (every rank at once, one GPU each)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A case of N rank folders (CASE/rank<N>/: each rank's program on its shards) runs as the command line's
 * multi-GPU profile does (wb-profile-group.h): one WbProfileJob per rank, each on its own runner and GPU, NCCL
 * between them. Each rank's program is the workbench's, as a one-rank profile's: the rank's traces through the
 * pipeline with the document's assignment (the ranks run one program, so a region has the same name on every
 * rank). The runs come back in rank order with one group id; the document shows them with its rank selector. */
#include "config.h"

#include <glib/gi18n.h>

#include "wb-document-private.h"

/* Rank @dir's program: its traces through the pipeline with @assignment; its case in *@rcase (transfer full). */
static WbProgram *
rank_program (const char *dir, const WbAssignment *assignment, WbCase **rcase, GError **error)
{
  WbPipelineOptions   options = { NULL, WB_FUSION_DATAFLOW, (WbAssignment *) assignment };
  const WbTraceEntry *input;
  g_autoptr (WbPipeline) pipeline = NULL;

  if ((*rcase = wb_case_load (dir, error)) == NULL)
    return NULL;
  if ((input = wb_pipeline_find_input (wb_case_get_trace_set (*rcase))) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: no joint or computation trace to compute the workbench's stages from"),
                   dir);
      return NULL;
    }
  if ((pipeline = wb_pipeline_run (input->trace, &options, error)) == NULL)
    return NULL;
  return wb_program_new_for_pipeline (pipeline, error);
}

gboolean
_wb_document_profile_ranks (const WbDocumentRanksRequest *req, GPtrArray **runs_out, GPtrArray **notes_out, GError **error)
{
  g_auto (GStrv) dirs = wb_case_dir_list_ranks (req->path, error);
  g_autoptr (GPtrArray) jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_profile_job_free);
  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_case_free);
  g_autoptr (GPtrArray) programs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_program_unref);
  g_autoptr (GPtrArray) runs = NULL;
  guint n;

  if (dirs == NULL)
    return FALSE;
  n = g_strv_length (dirs);
  if (req->device == WB_PROFILE_DEVICE_CPU)
    {
      /* TRANSLATORS: a case recorded per rank (DDP, FSDP): its ranks run together, one GPU each */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _ ("This case has %u ranks: they run together on %u GPUs, one process per rank, with NCCL between them. "
                      "Choose the GPU (or Auto) to profile them; the cpu runs one rank (open %s)."),
                   n, n, dirs[0]);
      return FALSE;
    }
  for (guint r = 0; r < n; r++)
    {
      WbCase          *rcase = NULL;
      WbProgram       *program = NULL;
      WbProfileJob    *pj;
      WbProfileOptions options;

      if (r > 0)
        {
          program = rank_program (dirs[r], req->assignment, &rcase, error);
          if (rcase != NULL)
            g_ptr_array_add (cases, rcase);
        }
      else if (req->pipeline0 != NULL) /* rank 0: the document's case and the pipeline it has just run */
        {
          rcase = req->case0;
          program = wb_program_new_for_pipeline (req->pipeline0, error);
        }
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", req->pipeline0_error);
      if (program == NULL)
        {
          g_prefix_error (error, _ ("rank %u of %u: "), r, n);
          return FALSE;
        }
      g_ptr_array_add (programs, program);
      pj = wb_profile_job_new (rcase, program, "workbench");
      g_ptr_array_add (jobs, pj);
      wb_profile_options_init (&options);
      options.iters = req->iters;
      options.warmup = req->warmup;
      options.allow_cpu_fallback = req->allow_cpu_fallback;
      if (r == 0) /* the ranks run in step: rank 0's progress stands for all */
        {
          options.progress = req->progress;
          options.progress_data = req->progress_data;
        }
      wb_profile_job_set_options (pj, &options);
      wb_profile_job_set_inputs (pj, wb_case_get_reference (rcase, NULL));
      wb_profile_job_set_cancellable (pj, req->cancellable);
    }
  if ((runs = wb_profile_group_run ((WbProfileJob **) jobs->pdata, n, error)) == NULL)
    return FALSE;
  *notes_out = g_ptr_array_new_with_free_func (g_free);
  for (guint r = 0; r < n; r++)
    {
      GPtrArray *notes = wb_profile_job_get_notes (jobs->pdata[r]);
      WbRun     *run = runs->pdata[r];

      g_free (run->assignment);
      run->assignment = wb_assignment_is_empty (req->assignment) ? NULL : wb_assignment_to_string (req->assignment);
      for (guint i = 0; notes != NULL && i < notes->len; i++)
        /* TRANSLATORS: a rank's note on its run ("rank 1: CUDA graphs: ...") */
        g_ptr_array_add (*notes_out, g_strdup_printf (_ ("rank %u: %s"), r, (const char *) notes->pdata[i]));
    }
  *runs_out = g_steal_pointer (&runs);
  return TRUE;
}

char *
_wb_document_phase_text (WbProfilePhase phase, guint done, guint total, const char *device)
{
  switch (phase)
    {
    case WB_PROFILE_PHASE_CHECKED:
      /* TRANSLATORS: progress: the GPU's first, checked run (every kernel synchronised), at its call %u of %u, on %s */
      return g_strdup_printf (_ ("Checked run: call %u of %u on %s"), done, total, device);
    case WB_PROFILE_PHASE_WARMUP:
      /* TRANSLATORS: progress: warm-up iteration %u of %u, on %s ("the cpu", "the GPU") */
      return g_strdup_printf (_ ("Warming up: %u of %u on %s"), done, total, device);
    case WB_PROFILE_PHASE_UNPROFILED:
      /* TRANSLATORS: progress: iteration %u of %u run without the profiler's events (the program's own time), on %s */
      return g_strdup_printf (_ ("Unprofiled iteration %u of %u on %s"), done, total, device);
    case WB_PROFILE_PHASE_TRACED:
      /* TRANSLATORS: progress: iteration %u of %u traced by CUPTI for the kernel records, on %s */
      return g_strdup_printf (_ ("Traced iteration %u of %u on %s"), done, total, device);
    case WB_PROFILE_PHASE_TIMED:
    default:
      /* TRANSLATORS: progress: timed iteration %u of %u, on %s ("the cpu", "the GPU") */
      return g_strdup_printf (_ ("Iteration %u of %u on %s"), done, total, device);
    }
}
