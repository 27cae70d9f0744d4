/* wb-document-jobs.c — WbDocument's worker threads: loading, re-running the pipeline, profiling; installing results
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <malloc.h>
#include <string.h>

#include "wb-document-private.h"

/* -- the worker's job ----------------------------------------------------------------------------- */

typedef struct
{
  char           *path;
  WbAssignment   *assignment; /* (nullable) */
  WbCase         *wcase;      /* borrowed from the document while profiling */
  gboolean        own_case;
  WbTraceSet     *set;
  WbPipeline     *pipeline;
  char           *pipeline_error;
  WbRun          *run;
  GPtrArray      *session_runs; /* (element-type WbRun) runs read from a session */
  char           *session_path; /* a session: store the run there */
  gint64          trace_set_id;
  char           *store_error;   /* the run was made but not stored in the session */
  char           *device_reason; /* why the profiling job chose its device */
  GPtrArray      *notes;         /* (element-type utf8) (nullable) the profiling job's notes on its run */
  GPtrArray      *rank_runs;     /* (element-type WbRun) (nullable) a case recorded per rank: every rank's run */
  guint           iters, warmup;
  WbProfileDevice device;
  gboolean        allow_cpu_fallback;
  guint           case_ranks; /* the case's rank folders (load: found; profile: the document's) */
  WbProfileDevice device_used;
  gint64          started_us, finished_us;
  void (*progress) (double, const char *, gpointer);
  gpointer      progress_data;
  double        shown;          /* the highest fraction handed to @progress: the bar never goes back */
  guint         progress_seq;   /* the last progress call's number (progress_lock) */
  guint        *progress_shown; /* (atomic rc box) the number of the last call the bar showed: main thread only */
  GCancellable *cancellable;
  char         *subprogram; /* (nullable) a folder of several sub-programs: the one the pipeline starts from */
  WbCase       *sub_case;   /* (nullable) its own case (PATH/<subprogram>): its inputs, named as its program's */
  WbRunner     *runner;     /* (nullable) the document's GPU runner, lent to the profile and given back */
} Job;

static void
job_free (Job *job)
{
  g_free (job->path);
  g_clear_pointer (&job->assignment, wb_assignment_unref);
  if (job->own_case)
    g_clear_pointer (&job->wcase, wb_case_free);
  g_clear_pointer (&job->set, wb_trace_set_free);
  g_clear_pointer (&job->pipeline, wb_pipeline_free);
  g_free (job->pipeline_error);
  g_clear_pointer (&job->run, wb_run_free);
  g_clear_pointer (&job->session_runs, g_ptr_array_unref);
  g_free (job->session_path);
  g_free (job->store_error);
  g_free (job->device_reason);
  g_clear_pointer (&job->notes, g_ptr_array_unref);
  g_clear_pointer (&job->rank_runs, g_ptr_array_unref);
  g_clear_pointer (&job->progress_shown, g_atomic_rc_box_release);
  g_clear_object (&job->cancellable);
  g_free (job->subprogram);
  g_clear_pointer (&job->sub_case, wb_case_free);
  g_clear_pointer (&job->runner, wb_runner_free);
  g_free (job);
}

/* A set of the case's entries plus the pipeline's stages (run with job->assignment). */
static gboolean
job_build_set (Job *job, const WbTraceSet *base, GError **error)
{
  /* a folder of several sub-programs has no program of its own: the pipeline starts from the chosen one's */
  const WbTraceEntry *input = job->subprogram ? wb_pipeline_find_input_in (base, job->subprogram) : wb_pipeline_find_input (base);
  WbPipelineOptions   options = { NULL, WB_FUSION_DATAFLOW, job->assignment };
  g_autoptr (GError) local = NULL;

  job->set = wb_trace_set_new ();
  for (guint i = 0; i < wb_trace_set_get_n_entries (base); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (base, i);

      if (g_strcmp0 (e->subset, "workbench") == 0)
        continue;
      wb_trace_set_add (job->set, e->trace, e->kind, e->index, e->subset, e->label, e->path);
    }
  wb_trace_set_copy_failures (job->set, base); /* the sidebar lists the files that did not load */
  if (input == NULL)
    {
      job->pipeline_error = g_strdup (_ ("No joint or computation trace to compute the workbench's stages from"));
      return TRUE;
    }
  job->pipeline = wb_pipeline_run (input->trace, &options, &local);
  if (job->pipeline == NULL)
    {
      /* a bad assignment is the user's error; a trace the pipeline cannot take is only a note */
      if (!wb_assignment_is_empty (job->assignment))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      job->pipeline_error = g_strdup (local->message);
      return TRUE;
    }
  wb_pipeline_append_stages (job->pipeline, job->set);
  return TRUE;
}

gboolean
wb_document_is_session_file (const char *path)
{
  return g_str_has_suffix (path, ".wbsession") || wb_session_file_has_header (path);
}

/* A session: its latest trace set and every run (the latest with its kernel records). When the folder
 * the set was imported from is still a case, it is loaded too so that the window can profile. */
static WbTraceSet *
load_session (Job *job, GError **error)
{
  /* read-only, but a writable file of an older schema is migrated first, as the user's own file */
  g_autoptr (WbSession) session = wb_session_open (job->path, WB_SESSION_OPEN_READ_ONLY | WB_SESSION_OPEN_MIGRATE, error);
  g_autoptr (GPtrArray) sets = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  const WbSessionTraceSet *last;
  WbTraceSet              *set;

  if (session == NULL || (sets = wb_session_list_trace_sets (session, error)) == NULL)
    return NULL;
  if (sets->len == 0)
    {
      g_set_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_NOT_FOUND, _ ("%s: the session holds no traces"), job->path);
      return NULL;
    }
  last = sets->pdata[sets->len - 1];
  if ((set = wb_session_load_trace_set (session, last->id, error)) == NULL)
    return NULL;
  job->session_path = g_strdup (job->path);
  job->trace_set_id = last->id;
  if (last->origin != NULL && g_file_test (last->origin, G_FILE_TEST_EXISTS))
    job->wcase = wb_case_load (last->origin, NULL);
  if (job->wcase == NULL)
    {
      /* the session's own texts, as a case: nothing is written to a folder */
      WbTraceSet *copy = wb_session_load_trace_set (session, last->id, NULL);

      if (copy != NULL)
        job->wcase = wb_case_new_for_set (copy, last->name ? last->name : "session");
    }
  job->session_runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  if ((listed = wb_session_list_runs (session, error)) == NULL)
    {
      wb_trace_set_free (set);
      return NULL;
    }
  for (guint i = 0; i < listed->len; i++)
    {
      const WbRun *r = listed->pdata[i];
      const WbRun *latest = listed->pdata[listed->len - 1];
      /* the latest run with its kernel records: every rank of it when it is a multi-GPU run */
      gboolean with_kernels = i + 1 == listed->len || (latest->group != NULL && g_strcmp0 (r->group, latest->group) == 0);
      WbRun   *run = wb_session_get_run (session, r->id, with_kernels ? WB_SESSION_READ_KERNELS : WB_SESSION_READ_SUMMARY, error);

      if (run == NULL)
        {
          wb_trace_set_free (set);
          return NULL;
        }
      g_ptr_array_add (job->session_runs, run);
    }
  return set;
}

static void
load_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job    *job = data;
  GError *error = NULL;
  g_autoptr (WbTraceSet) plain = NULL;
  const WbTraceSet *base;

  g_auto (GStrv) ranks = NULL;
  const char *load_path = job->path;

  job->own_case = TRUE;
  /* a case recorded per rank: rank 0's traces (the ranks run one program on their shards) */
  if (g_file_test (job->path, G_FILE_TEST_IS_DIR))
    {
      if ((ranks = wb_case_dir_list_ranks (job->path, &error)) == NULL && error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      if (ranks != NULL)
        {
          job->case_ranks = g_strv_length (ranks);
          load_path = ranks[0];
        }
    }
  if (wb_document_is_session_file (job->path))
    {
      if ((plain = load_session (job, &error)) == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      base = plain;
    }
  else if ((job->wcase = wb_case_load (load_path, NULL)) != NULL)
    base = wb_case_get_trace_set (job->wcase);
  else if ((plain = wb_trace_set_load (load_path, &error)) != NULL)
    base = plain;
  else
    {
      /* a folder without traces: what was recorded beside them says why (zoo.json, meta.json) */
      g_autofree char *why = g_error_matches (error, WB_TRACE_ERROR, WB_TRACE_ERROR_EMPTY) ? wb_case_dir_explain_empty (load_path) : NULL;

      if (why != NULL)
        {
          GError *explained = g_error_new (error->domain, error->code, "%s; %s", error->message, why);

          g_error_free (error);
          error = explained;
        }
      g_task_return_error (task, error);
      return;
    }
  /* a folder of several sub-programs: the workbench's stages are the first one's until a profile asks for another */
  if (job->wcase != NULL)
    job->subprogram = g_strdup (wb_case_choose_subprogram (job->wcase, base, 0, NULL));
  if (!job_build_set (job, base, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* -- indexing ------------------------------------------------------------------------------------- */

static int
find_entry_of_trace (const WbTraceSet *set, const WbTrace *trace)
{
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    if (wb_trace_set_get_entry (set, i)->trace == trace)
      return (int) i;
  return -1;
}

static void
index_entries (WbDocument *self)
{
  guint n = wb_trace_set_get_n_entries (self->set);

  g_free (self->previous);
  self->previous = g_new (int, n + 1);
  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (self->set, i);
      const WbStage      *stage = wb_document_get_stage (self, i);

      self->previous[i] = -1;
      if (stage != NULL)
        {
          int prev = wb_stage_get_previous (stage);

          if (prev >= 0)
            self->previous[i] = find_entry_of_trace (self->set, wb_stage_get_trace (wb_pipeline_get_stage (self->pipeline, prev)));
        }
      else
        /* the nearest earlier file of the same sub-program (function and parameters): Thunder's stage
         * files interleave the prologue, the computation and each torch.compile subgraph, and a forward
         * is never diffed against a backward */
        for (guint k = i; k > 0 && self->previous[i] < 0; k--)
          {
            const WbTraceEntry *p = wb_trace_set_get_entry (self->set, k - 1);

            if (g_strcmp0 (p->subset, e->subset) == 0 && p->kind == e->kind && wb_stage_pair_can_pair (p->trace, e->trace))
              self->previous[i] = (int) k - 1;
          }
    }
}

static gpointer
end_runner (gpointer runner)
{
  wb_runner_free (runner);
  return NULL;
}

void
_wb_document_drop_runner (WbDocument *self)
{
  /* its QUIT is answered once the CUDA context is torn down: a thread waits, not the window (and should the app
   * exit first, the runner ends on its own at the end of its stdin) */
  if (self->runner != NULL)
    g_thread_unref (g_thread_new ("wb-runner-end", end_runner, g_steal_pointer (&self->runner)));
}

void
wb_document_end_runner (WbDocument *self)
{
  g_return_if_fail (WB_IS_DOCUMENT (self));
  _wb_document_drop_runner (self);
}

static void
install (WbDocument *self, Job *job)
{
  guint old_entry = self->entry;
  guint n;

  if (job->wcase != NULL && job->own_case)
    {
      g_clear_pointer (&self->wcase, wb_case_free);
      self->wcase = g_steal_pointer (&job->wcase);
    }
  g_clear_pointer (&self->set, wb_trace_set_free);
  g_clear_pointer (&self->pipeline, wb_pipeline_free);
  g_clear_pointer (&self->pipeline_error, g_free);
  self->set = g_steal_pointer (&job->set);
  self->pipeline = g_steal_pointer (&job->pipeline);
  g_free (self->subprogram);
  self->subprogram = g_steal_pointer (&job->subprogram);
  self->pipeline_error = g_steal_pointer (&job->pipeline_error);
  g_clear_pointer (&self->assignment, wb_assignment_unref);
  self->assignment = job->assignment ? wb_assignment_ref (job->assignment) : NULL;
  index_entries (self);
  g_clear_pointer (&self->region_map, g_hash_table_unref);
  g_clear_pointer (&self->claims, wb_region_claims_free);
  self->bsym = NULL;
  g_clear_pointer (&self->bsym_trace, wb_trace_unref);
  n = wb_trace_set_get_n_entries (self->set);
  self->entry = old_entry < n ? old_entry : 0;
  _wb_document_emit (self, CHANGED);
  _wb_document_emit (self, SELECTION_CHANGED);
}

void
wb_document_load_async (WbDocument *self, const char *path, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Job *job;

  g_return_if_fail (WB_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);

  job = g_new0 (Job, 1);
  job->path = g_strdup (path);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, wb_document_load_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, load_thread);
}

gboolean
wb_document_load_finish (WbDocument *self, GAsyncResult *result, GError **error)
{
  Job *job;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  job = g_task_get_task_data (G_TASK (result));
  g_free (self->path);
  self->path = g_strdup (job->path);
  g_ptr_array_set_size (self->runs, 0);
  g_clear_pointer (&self->run_notes, g_ptr_array_unref);
  /* another case: a profile's estimate must not come from the last one's runs */
  self->last_seconds = 0;
  self->last_iterations = 0;
  self->rank = 0;
  self->case_ranks = job->case_ranks;
  for (guint i = 0; job->session_runs != NULL && i < job->session_runs->len; i++)
    g_ptr_array_add (self->runs, g_steal_pointer (&job->session_runs->pdata[i]));
  g_clear_pointer (&job->session_runs, g_ptr_array_unref);
  g_free (self->session_path);
  self->session_path = g_steal_pointer (&job->session_path);
  self->trace_set_id = job->trace_set_id;
  if (job->wcase == NULL)
    g_clear_pointer (&self->wcase, wb_case_free);
  _wb_document_drop_runner (self); /* another case opened: the runner is kept for one case's tuning only */
  self->entry = 0;
  install (self, job);
  _wb_document_emit (self, RUNS_CHANGED);
  return TRUE;
}

/* -- profiling ------------------------------------------------------------------------------------ */

typedef struct
{
  void (*func) (double, const char *, gpointer);
  gpointer data;
  double   fraction;
  char    *text;
  guint    seq;   /* its number among the job's calls */
  guint   *shown; /* (rc box) the job's progress_shown */
} ProgressCall;

/* on the main thread: shows @call unless a later call was shown already (a call the main thread made itself
 * runs at once, ahead of the ones other threads queued before it: those are stale then) */
static gboolean
progress_idle (gpointer data)
{
  ProgressCall *call = data;

  if (call->seq > *call->shown)
    {
      *call->shown = call->seq;
      call->func (call->fraction, call->text, call->data);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_call_free (gpointer data)
{
  ProgressCall *call = data;

  g_atomic_rc_box_release (call->shown);
  g_free (call->text);
  g_free (call);
}

static GMutex progress_lock;

/* on the worker: hands @fraction and @text to the main thread */
static void
job_progress (Job *job, double fraction, char *text)
{
  ProgressCall *call;

  if (job->progress == NULL)
    {
      g_free (text);
      return;
    }
  /* the phases' spans are estimates made as the run reports them (the device, the runner's phases): a later
   * estimate may place the bar a little lower, which the bar does not show. Progress can come from more than
   * one thread (the worker, the runner's reader, the main thread): the highest fraction so far and the call's
   * number are taken together, and the main thread shows a call only if no later one was shown (progress_idle),
   * so the bar never goes back to a call queued before one the main thread ran at once */
  g_mutex_lock (&progress_lock);
  job->shown = MAX (job->shown, fraction);
  call = g_new (ProgressCall, 1);
  call->func = job->progress;
  call->data = job->progress_data;
  call->fraction = job->shown;
  call->text = text;
  call->seq = ++job->progress_seq;
  if (job->progress_shown == NULL)
    job->progress_shown = g_atomic_rc_box_new0 (guint);
  call->shown = g_atomic_rc_box_acquire (job->progress_shown);
  g_mutex_unlock (&progress_lock);
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, progress_idle, call, progress_call_free);
}

/* Where @phase lies among the job's iterations, as fractions of them all: @start, @width. Each iteration
 * counts one, the GPU's checked run one too; on the GPU profiling runs unprofiled, timed and traced
 * iterations after the warm-up (traced only with CUPTI: without, the bar goes from the timed phase's end to
 * done). Also the iterations of the phases after it, in @after. */
static void
phase_span (const Job *job, WbProfilePhase phase, double *start, double *width, guint *after)
{
  gboolean gpu = job->device_used == WB_PROFILE_DEVICE_CUDA;
  guint    units[WB_PROFILE_PHASE_TRACED + 1] = { 0 };
  guint    total = 0, before = 0;

  units[WB_PROFILE_PHASE_CHECKED] = gpu ? 1 : 0;
  units[WB_PROFILE_PHASE_WARMUP] = gpu ? MAX (job->warmup, 1) - 1 : job->warmup;
  units[WB_PROFILE_PHASE_UNPROFILED] = gpu ? job->iters : 0;
  units[WB_PROFILE_PHASE_TIMED] = job->iters;
  units[WB_PROFILE_PHASE_TRACED] = gpu ? job->iters : 0;
  *after = 0;
  for (guint k = WB_PROFILE_PHASE_CHECKED; k <= WB_PROFILE_PHASE_TRACED; k++)
    {
      total += units[k];
      if (k < (guint) phase)
        before += units[k];
      else if (k > (guint) phase)
        *after += units[k];
    }
  total = MAX (total, 1);
  *start = (double) before / total;
  *width = (guint) phase <= WB_PROFILE_PHASE_TRACED ? (double) units[phase] / total : 0;
}

/* the job's phases as a fraction and words: the pipeline (0 to 0.1), then every phase's iterations in
 * proportion to their number (phase_span), with the time left at the last iteration's pace */
static void
on_profile_progress (WbProfilePhase phase, guint done, guint total, gint64 ns, gpointer user_data)
{
  Job             *job = user_data;
  const char      *device = job->device_used == WB_PROFILE_DEVICE_CUDA ? _ ("the GPU") : _ ("the cpu");
  double           part = total > 0 ? (double) MIN (done, total) / total : 1.0;
  double           start, width;
  guint            after;
  g_autofree char *text = _wb_document_phase_text (phase, done, total, device);

  phase_span (job, phase, &start, &width, &after);
  if (ns > 0 && done <= total)
    {
      double left_s = (double) ns * (total - done + after) / 1e9;

      if (left_s >= 0.05)
        {
          /* TRANSLATORS: progress: the phase's words ("Iteration 5 of 20 on the GPU"), then the seconds left */
          char *with_left = g_strdup_printf (_ ("%s, about %.1f s left"), text, left_s);

          g_free (text);
          text = with_left;
        }
    }
  job_progress (job, 0.1 + 0.9 * (start + width * part), g_steal_pointer (&text));
}

/* The profiling job's store hook: the run into the document's session (opened for the write only). */
static gboolean
store_in_session (WbRun *run, gpointer data, GError **error)
{
  Job *job = data;
  g_autoptr (WbSession) session = NULL;

  /* the run's rows already have the fusion pass's keys (wb_trace_get_call_key through the program) */
  if (job->session_path == NULL)
    return TRUE;
  if ((session = wb_session_open (job->session_path, WB_SESSION_OPEN_DEFAULT, error)) == NULL)
    return FALSE;
  return wb_session_store_run (session, run, job->trace_set_id, error) != 0;
}

/* Chooses @pj's device (the document's runner lent, job->runner, taken when it still serves) and runs it; the
 * runner, when it can serve the document's next profile, back into job->runner */
static gboolean
run_profile_job (Job *job, WbProfileJob *pj, WbProgram *program, GCancellable *cancellable, GError **error)
{
  GPtrArray *notes;
  gboolean   ok;

  wb_profile_job_set_runner (pj, g_steal_pointer (&job->runner));
  job_progress (job, 0.08, g_strdup (_ ("Looking for the GPU runner…")));
  ok = wb_profile_job_choose_device_for_plan (pj, program, job->assignment, error);
  if (ok)
    {
      job->device_used = wb_profile_job_get_device (pj);
      wb_profile_job_set_cancellable (pj, cancellable);
      wb_profile_job_set_store (pj, store_in_session, job);
      job->run = wb_profile_job_run (pj, error);
      g_free (job->device_reason);
      job->device_reason = g_strdup (wb_profile_job_get_device_reason (pj));
      g_clear_pointer (&job->notes, g_ptr_array_unref);
      job->notes = g_ptr_array_new_with_free_func (g_free);
      notes = wb_profile_job_get_notes (pj);
      for (guint i = 0; notes != NULL && i < notes->len; i++)
        g_ptr_array_add (job->notes, g_strdup (notes->pdata[i]));
      ok = job->run != NULL;
    }
  job->runner = wb_profile_job_steal_runner (pj);
  return ok;
}

/* A case recorded per rank: every rank at once, one GPU each (wb-document-profile.c), rank 0 from the pipeline
 * the window shows; the runs into the document's session when it has one, as one group */
static gboolean
profile_ranks (Job *job, GCancellable *cancellable, GError **error)
{
  WbDocumentRanksRequest req = { .path = job->path,
                                 .case0 = job->wcase,
                                 .assignment = job->assignment,
                                 .device = job->device,
                                 .iters = job->iters,
                                 .warmup = job->warmup,
                                 .allow_cpu_fallback = job->allow_cpu_fallback,
                                 .cancellable = cancellable,
                                 .progress = on_profile_progress,
                                 .progress_data = job };

  job_progress (job, 0.02, g_strdup (_ ("Re-running the pipeline…")));
  /* the window goes on showing rank 0's stages, now with the assignment (as a one-rank profile installs them) */
  if (!job_build_set (job, wb_case_get_trace_set (job->wcase), error))
    return FALSE;
  req.pipeline0 = job->pipeline;
  req.pipeline0_error = job->pipeline_error;
  job->device_used = WB_PROFILE_DEVICE_CUDA;
  if (!_wb_document_profile_ranks (&req, &job->rank_runs, &job->notes, error))
    return FALSE;
  for (guint r = 0; r < job->rank_runs->len; r++)
    if (!store_in_session (job->rank_runs->pdata[r], job, error))
      {
        job->store_error = g_strdup ((*error)->message);
        g_clear_error (error);
        break;
      }
  g_free (job->device_reason);
  /* TRANSLATORS: where a case recorded per rank ran: %u ranks, one GPU each */
  job->device_reason = g_strdup_printf (_ ("%u ranks on GPUs 0 to %u, one each, NCCL between them"), job->rank_runs->len, job->rank_runs->len - 1);
  return TRUE;
}

/* Re-runs the pipeline with the job's assignment and profiles its final stages with the profiling job
 * the command line uses (WbProfileJob): on the GPU when the runner reports one, else on the cpu. */
static gboolean
profile_job (Job *job, GCancellable *cancellable, GError **error)
{
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbProfileJob) pj = NULL;
  WbProfileOptions options;

  if (job->case_ranks > 1)
    return profile_ranks (job, cancellable, error);
  job_progress (job, 0.02, g_strdup (_ ("Re-running the pipeline…")));
  if (!job_build_set (job, wb_case_get_trace_set (job->wcase), error))
    return FALSE;
  if (job->pipeline == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", job->pipeline_error);
      return FALSE;
    }
  if ((program = wb_program_new_for_pipeline (job->pipeline, error)) == NULL)
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (job->subprogram != NULL)
    {
      /* its program's inputs are its own folder's (meta.json, tensors.safetensors) */
      g_autofree char *dir = g_build_filename (wb_case_get_path (job->wcase), job->subprogram, NULL);

      if ((job->sub_case = wb_case_load (dir, error)) == NULL)
        return FALSE;
    }
  pj = wb_profile_job_new (job->sub_case ? job->sub_case : job->wcase, program, "workbench");
  wb_profile_job_set_device (pj, job->device);
  wb_profile_options_init (&options);
  options.iters = job->iters;
  options.warmup = job->warmup;
  options.allow_cpu_fallback = job->allow_cpu_fallback;
  options.progress = on_profile_progress;
  options.progress_data = job;
  wb_profile_job_set_options (pj, &options);
  wb_profile_job_set_inputs (pj, wb_case_get_reference (job->sub_case ? job->sub_case : job->wcase, NULL));
  if (!run_profile_job (job, pj, program, cancellable, error))
    return FALSE;
  g_free (job->run->assignment);
  job->run->assignment = wb_assignment_is_empty (job->assignment) ? NULL : wb_assignment_to_string (job->assignment);
  if (wb_profile_job_get_store_error (pj) != NULL)
    job->store_error = g_strdup (wb_profile_job_get_store_error (pj));
  return TRUE;
}

static void
profile_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job     *job = data;
  GError  *error = NULL;
  gboolean ok;

  job->started_us = g_get_monotonic_time ();
  ok = profile_job (job, cancellable, &error);
  job->finished_us = g_get_monotonic_time ();
  if (!ok)
    {
      /* what the run held (tensors, the program, the new pipeline) is freed now, not with the task, and
       * the allocator hands the pages back to the system: a cancelled 3 GB run leaves no 3 GB behind */
      g_clear_pointer (&job->pipeline, wb_pipeline_free);
      g_clear_pointer (&job->set, wb_trace_set_free);
      malloc_trim (0);
      g_task_return_error (task, error);
      return;
    }
  malloc_trim (0);
  g_task_return_boolean (task, TRUE);
}

void
wb_document_profile_async (WbDocument *self, const WbAssignment *assignment, WbProfileDevice device, guint iters, guint warmup, GCancellable *cancellable, void (*progress) (double, const char *, gpointer), gpointer progress_data, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Job *job;

  g_return_if_fail (WB_IS_DOCUMENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, wb_document_profile_async);
  if (self->wcase == NULL || self->busy)
    {
      g_task_return_new_error (task, G_IO_ERROR, self->busy ? G_IO_ERROR_BUSY : G_IO_ERROR_NOT_SUPPORTED, "%s",
                               self->busy ? _ ("A run is already in progress")
                                          : _ ("This trace set has no inputs to run (open a case folder)"));
      return;
    }
  job = g_new0 (Job, 1);
  job->assignment = wb_assignment_is_empty (assignment) ? NULL : wb_assignment_ref ((WbAssignment *) assignment);
  job->wcase = self->wcase;
  job->iters = MAX (iters, 1);
  job->warmup = warmup;
  job->device = device;
  job->allow_cpu_fallback = self->allow_cpu_fallback;
  job->case_ranks = self->case_ranks;
  job->path = g_strdup (self->path); /* a case recorded per rank: its rank folders are found from it */
  job->progress = progress;
  job->progress_data = progress_data;
  job->session_path = g_strdup (self->session_path);
  job->trace_set_id = self->trace_set_id;
  job->subprogram = g_strdup (wb_document_get_subprogram (self, NULL));
  job->runner = g_steal_pointer (&self->runner); /* the last profile's: no new CUDA context for this one */
  self->busy = TRUE;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, profile_thread);
}

void
wb_document_set_allow_cpu_fallback (WbDocument *self, gboolean allow)
{
  g_return_if_fail (WB_IS_DOCUMENT (self));
  self->allow_cpu_fallback = allow;
}

gboolean
wb_document_profile_finish (WbDocument *self, GAsyncResult *result, GError **error)
{
  Job *job;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  self->busy = FALSE;
  job = g_task_get_task_data (G_TASK (result));
  /* the runner back, whether or not the run failed: none when it died, its run failed or it was cancelled */
  _wb_document_drop_runner (self);
  self->runner = g_steal_pointer (&job->runner);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  if (job->store_error != NULL)
    g_warning ("the run was not stored in the session: %s", job->store_error);
  /* for the next run's estimate: how long this one took, for how many iterations */
  self->last_seconds = (job->finished_us - job->started_us) / 1e6;
  self->last_iterations = job->iters + job->warmup;
  if (job->rank_runs != NULL) /* a case recorded per rank: every rank's run, one group */
    for (guint r = 0; r < job->rank_runs->len; r++)
      g_ptr_array_add (self->runs, g_steal_pointer (&job->rank_runs->pdata[r]));
  else
    g_ptr_array_add (self->runs, g_steal_pointer (&job->run));
  g_free (self->device_reason);
  self->device_reason = g_steal_pointer (&job->device_reason);
  g_clear_pointer (&self->run_notes, g_ptr_array_unref);
  self->run_notes = g_steal_pointer (&job->notes);
  install (self, job);
  _wb_document_emit (self, RUNS_CHANGED);
  return TRUE;
}

gboolean
wb_document_is_busy (WbDocument *self)
{
  return self->busy;
}

int
wb_document_get_run_entry (WbDocument *self)
{
  WbTrace *forward, *backward;

  if (self->set == NULL || self->pipeline == NULL)
    return -1;
  wb_pipeline_get_final_stages (self->pipeline, &forward, &backward);
  return forward ? find_entry_of_trace (self->set, forward) : -1;
}

gboolean
wb_document_estimate_seconds (WbDocument *self, guint iters, guint warmup, double *last_seconds, double *estimate)
{
  const WbRun *run;
  double       per_iteration;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), FALSE);
  if (self->last_iterations > 0)
    {
      *last_seconds = self->last_seconds;
      *estimate = self->last_seconds * (iters + warmup) / self->last_iterations;
      return TRUE;
    }
  /* a run read from a session: its iterations' median, for each iteration asked */
  if ((run = wb_document_get_run (self)) == NULL || run->iteration_ns->len == 0)
    return FALSE;
  per_iteration = wb_run_get_iteration_median_ns (run) / 1e9;
  *last_seconds = per_iteration * (run->iters + run->warmup);
  *estimate = per_iteration * (iters + warmup);
  return TRUE;
}
