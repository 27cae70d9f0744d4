/* wb-document.c — what one window shows: a case's trace set, the workbench's stages, runs and the selection
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "wb-data.h"
#include "wb-views.h"

struct _WbDocument
{
  GObject parent_instance;

  char       *path;
  WbCase     *wcase;    /* NULL when the path is not a runnable case */
  WbTraceSet *set;      /* the case's entries, then the workbench's stages */
  WbPipeline *pipeline; /* nullable */
  char       *pipeline_error;
  char       *assignment;
  int        *previous; /* per entry */
  GPtrArray  *runs;     /* (element-type WbRun) */
  gboolean    busy;
  char       *session_path; /* (nullable) the .wbsession this came from: new runs are stored there */
  gint64      trace_set_id; /* the session's trace set shown */

  guint         entry;
  WbTrace      *bsym_trace;
  const WbBsym *bsym;
  char         *region;

  GHashTable *region_map; /* (nullable) WbBsym* -> const WbRegion*, built on first use per pipeline */
};

G_DEFINE_FINAL_TYPE (WbDocument, wb_document, G_TYPE_OBJECT)

enum
{
  CHANGED,
  SELECTION_CHANGED,
  RUNS_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* -- the worker's job ----------------------------------------------------------------------------- */

typedef struct
{
  char       *path;
  char       *assignment;
  WbCase     *wcase; /* borrowed from the document while profiling */
  gboolean    own_case;
  WbTraceSet *set;
  WbPipeline *pipeline;
  char       *pipeline_error;
  WbRun      *run;
  GPtrArray  *session_runs; /* (element-type WbRun) runs read from a session */
  char       *session_path; /* a session: store the run there */
  gint64      trace_set_id;
  char       *store_error; /* the run was made but not stored in the session */
  guint       iters, warmup;
  void (*progress) (double, gpointer);
  gpointer      progress_data;
  GCancellable *cancellable;
} Job;

static void
job_free (Job *job)
{
  g_free (job->path);
  g_free (job->assignment);
  if (job->own_case)
    g_clear_pointer (&job->wcase, wb_case_free);
  g_clear_pointer (&job->set, wb_trace_set_free);
  g_clear_pointer (&job->pipeline, wb_pipeline_free);
  g_free (job->pipeline_error);
  g_clear_pointer (&job->run, wb_run_free);
  g_clear_pointer (&job->session_runs, g_ptr_array_unref);
  g_free (job->session_path);
  g_free (job->store_error);
  g_clear_object (&job->cancellable);
  g_free (job);
}

/* A set of the case's entries plus the pipeline's stages (run with job->assignment). */
static gboolean
job_build_set (Job *job, const WbTraceSet *base, GError **error)
{
  const WbTraceEntry *input = wb_pipeline_find_input (base);
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
  if (input == NULL)
    {
      job->pipeline_error = g_strdup (_ ("No joint or computation trace to compute the workbench's stages from"));
      return TRUE;
    }
  job->pipeline = wb_pipeline_run (input->trace, &options, &local);
  if (job->pipeline == NULL)
    {
      /* a bad assignment is the user's error; a trace the pipeline cannot take is only a note */
      if (job->assignment != NULL)
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
  char   header[16] = { 0 };
  FILE  *f;
  size_t n;

  if (g_str_has_suffix (path, ".wbsession"))
    return TRUE;
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || (f = g_fopen (path, "rb")) == NULL)
    return FALSE;
  n = fread (header, 1, sizeof header, f);
  fclose (f);
  return n == sizeof header && memcmp (header, "SQLite format 3", 16) == 0;
}

/* A session: its latest trace set and every run (the latest with its kernel records). When the folder
 * the set was imported from is still a case, it is loaded too so that the window can profile. */
static WbTraceSet *
load_session (Job *job, GError **error)
{
  g_autoptr (WbSession) session = wb_session_open (job->path, WB_SESSION_OPEN_READ_ONLY, error);
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
  job->session_runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  if ((listed = wb_session_list_runs (session, error)) == NULL)
    {
      wb_trace_set_free (set);
      return NULL;
    }
  for (guint i = 0; i < listed->len; i++)
    {
      const WbRun *r = listed->pdata[i];
      WbRun       *run = wb_session_get_run (session, r->id, i + 1 == listed->len ? WB_SESSION_READ_KERNELS : WB_SESSION_READ_SUMMARY, error);

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

  job->own_case = TRUE;
  if (wb_document_is_session_file (job->path))
    {
      if ((plain = load_session (job, &error)) == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      base = plain;
    }
  else if ((job->wcase = wb_case_load (job->path, NULL)) != NULL)
    base = wb_case_get_trace_set (job->wcase);
  else if ((plain = wb_trace_set_load (job->path, &error)) != NULL)
    base = plain;
  else
    {
      g_task_return_error (task, error);
      return;
    }
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
      else if (i > 0)
        {
          const WbTraceEntry *p = wb_trace_set_get_entry (self->set, i - 1);

          if (g_strcmp0 (p->subset, e->subset) == 0 && p->kind == e->kind)
            self->previous[i] = (int) i - 1;
        }
    }
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
  self->pipeline_error = g_steal_pointer (&job->pipeline_error);
  g_free (self->assignment);
  self->assignment = g_strdup (job->assignment);
  index_entries (self);
  g_clear_pointer (&self->region_map, g_hash_table_unref);
  self->bsym = NULL;
  g_clear_pointer (&self->bsym_trace, wb_trace_unref);
  n = wb_trace_set_get_n_entries (self->set);
  self->entry = old_entry < n ? old_entry : 0;
  g_signal_emit (self, signals[CHANGED], 0);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
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
  for (guint i = 0; job->session_runs != NULL && i < job->session_runs->len; i++)
    g_ptr_array_add (self->runs, g_steal_pointer (&job->session_runs->pdata[i]));
  g_clear_pointer (&job->session_runs, g_ptr_array_unref);
  g_free (self->session_path);
  self->session_path = g_steal_pointer (&job->session_path);
  self->trace_set_id = job->trace_set_id;
  if (job->wcase == NULL)
    g_clear_pointer (&self->wcase, wb_case_free);
  self->entry = 0;
  install (self, job);
  g_signal_emit (self, signals[RUNS_CHANGED], 0);
  return TRUE;
}

/* -- profiling ------------------------------------------------------------------------------------ */

typedef struct
{
  void (*func) (double, gpointer);
  gpointer data;
  double   fraction;
} ProgressCall;

static gboolean
progress_idle (gpointer data)
{
  ProgressCall *call = data;

  call->func (call->fraction, call->data);
  return G_SOURCE_REMOVE;
}

static void
on_profile_progress (WbProfilePhase phase, guint done, guint total, gint64 ns, gpointer user_data)
{
  Job          *job = user_data;
  ProgressCall *call;
  guint         all = job->iters + job->warmup;
  guint         at = phase == WB_PROFILE_PHASE_WARMUP ? done : job->warmup + done;

  if (job->progress == NULL)
    return;
  call = g_new (ProgressCall, 1);
  call->func = job->progress;
  call->data = job->progress_data;
  call->fraction = 0.1 + 0.9 * (double) at / MAX (all, 1);
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, progress_idle, call, g_free);
}

static void
final_stages (const WbPipeline *pipeline, WbTrace **forward, WbTrace **backward)
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

static void
profile_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job    *job = data;
  GError *error = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbProfile) profile = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  WbProfileOptions options;
  WbTrace         *forward, *backward;

  if (!job_build_set (job, wb_case_get_trace_set (job->wcase), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->pipeline == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", job->pipeline_error);
      return;
    }
  final_stages (job->pipeline, &forward, &backward);
  if (forward != NULL && backward != NULL && wb_program_classify_trace (forward) != WB_PROGRAM_TRAINING)
    backward = NULL;
  if ((program = wb_program_new (forward, backward, &error)) == NULL || (inputs = wb_case_make_inputs (job->wcase, wb_case_get_reference (job->wcase, NULL), 0, &error)) == NULL || (args = wb_case_make_args (job->wcase, program, inputs, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  profile = wb_profile_new (program, "workbench");
  wb_profile_options_init (&options);
  options.iters = job->iters;
  options.warmup = job->warmup;
  options.progress = on_profile_progress;
  options.progress_data = job;
  options.parameters = wb_case_parameter_lookup;
  options.parameters_data = inputs;
  if ((job->run = wb_profile_run (profile, args, NULL, &options, NULL, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_free (job->run->assignment);
  job->run->assignment = g_strdup (job->assignment);
  if (job->session_path != NULL)
    {
      g_autoptr (WbSession) session = wb_session_open (job->session_path, WB_SESSION_OPEN_DEFAULT, &error);

      if (session == NULL || wb_session_store_run (session, job->run, job->trace_set_id, &error) == 0)
        {
          job->store_error = g_strdup (error->message);
          g_clear_error (&error);
        }
    }
  g_task_return_boolean (task, TRUE);
}

void
wb_document_profile_async (WbDocument *self, const char *assignment, guint iters, guint warmup, GCancellable *cancellable, void (*progress) (double, gpointer), gpointer progress_data, GAsyncReadyCallback callback, gpointer user_data)
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
  job->assignment = assignment && assignment[0] ? g_strdup (assignment) : NULL;
  job->wcase = self->wcase;
  job->iters = MAX (iters, 1);
  job->warmup = warmup;
  job->progress = progress;
  job->progress_data = progress_data;
  job->session_path = g_strdup (self->session_path);
  job->trace_set_id = self->trace_set_id;
  self->busy = TRUE;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, profile_thread);
}

gboolean
wb_document_profile_finish (WbDocument *self, GAsyncResult *result, GError **error)
{
  Job *job;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  self->busy = FALSE;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  job = g_task_get_task_data (G_TASK (result));
  if (job->store_error != NULL)
    g_warning ("the run was not stored in the session: %s", job->store_error);
  g_ptr_array_add (self->runs, g_steal_pointer (&job->run));
  install (self, job);
  g_signal_emit (self, signals[RUNS_CHANGED], 0);
  return TRUE;
}

gboolean
wb_document_is_busy (WbDocument *self)
{
  return self->busy;
}

/* -- accessors ------------------------------------------------------------------------------------ */

const char *
wb_document_get_path (WbDocument *self)
{
  return self->path;
}

const char *
wb_document_get_session_path (WbDocument *self)
{
  return self->session_path;
}

char *
wb_document_dup_run_label (WbDocument *self, guint i)
{
  const WbRun *run;

  if (i >= self->runs->len)
    return NULL;
  run = self->runs->pdata[i];
  if (run->id > 0)
    /* TRANSLATORS: a run in a list: its number in the window, its id in the session file, the device */
    return g_strdup_printf (_ ("Run %u (#%lld) · %s"), i + 1, (long long) run->id, run->device_name ? run->device_name : "");
  return g_strdup_printf (_ ("Run %u · %s"), i + 1, run->device_name ? run->device_name : "");
}

const char *
wb_document_get_pipeline_error (WbDocument *self)
{
  return self->pipeline_error;
}

const WbTraceSet *
wb_document_get_trace_set (WbDocument *self)
{
  return self->set;
}

const WbPipeline *
wb_document_get_pipeline (WbDocument *self)
{
  return self->pipeline;
}

const char *
wb_document_get_assignment (WbDocument *self)
{
  return self->assignment;
}

const WbStage *
wb_document_get_stage (WbDocument *self, guint entry)
{
  const WbTraceEntry *e;

  if (self->set == NULL || self->pipeline == NULL || entry >= wb_trace_set_get_n_entries (self->set))
    return NULL;
  e = wb_trace_set_get_entry (self->set, entry);
  if (g_strcmp0 (e->subset, "workbench") != 0 || e->index < 0 || (guint) e->index >= wb_pipeline_get_n_stages (self->pipeline))
    return NULL;
  return wb_pipeline_get_stage (self->pipeline, e->index);
}

int
wb_document_get_previous (WbDocument *self, guint entry)
{
  if (self->set == NULL || entry >= wb_trace_set_get_n_entries (self->set))
    return -1;
  return self->previous[entry];
}

guint
wb_document_get_entry (WbDocument *self)
{
  return self->entry;
}

void
wb_document_set_entry (WbDocument *self, guint entry)
{
  g_return_if_fail (WB_IS_DOCUMENT (self));

  if (self->set == NULL || entry >= wb_trace_set_get_n_entries (self->set) || entry == self->entry)
    return;
  self->entry = entry;
  /* keep the bound symbol when the new stage has it (nodes are shared between the workbench's stages) */
  if (self->bsym != NULL && wb_trace_get_bsym_line (wb_trace_set_get_entry (self->set, entry)->trace, self->bsym) == 0)
    {
      self->bsym = NULL;
      g_clear_pointer (&self->bsym_trace, wb_trace_unref);
    }
  else if (self->bsym != NULL)
    {
      g_clear_pointer (&self->bsym_trace, wb_trace_unref);
      self->bsym_trace = wb_trace_ref (wb_trace_set_get_entry (self->set, entry)->trace);
    }
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

const WbBsym *
wb_document_get_bsym (WbDocument *self)
{
  return self->bsym;
}

WbTrace *
wb_document_get_bsym_trace (WbDocument *self)
{
  return self->bsym_trace;
}

void
wb_document_select_bsym (WbDocument *self, WbTrace *trace, const WbBsym *bsym)
{
  const WbRegion *region;

  g_return_if_fail (WB_IS_DOCUMENT (self));

  if (bsym == self->bsym && trace == self->bsym_trace)
    return;
  g_clear_pointer (&self->bsym_trace, wb_trace_unref);
  self->bsym = bsym;
  self->bsym_trace = trace && bsym ? wb_trace_ref (trace) : NULL;
  region = bsym ? wb_document_find_region (self, trace, bsym) : NULL;
  g_free (self->region);
  self->region = region ? g_strdup (region->name) : NULL;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

const char *
wb_document_get_region (WbDocument *self)
{
  return self->region;
}

void
wb_document_select_region (WbDocument *self, const char *region)
{
  const WbBsym *bsym;

  g_return_if_fail (WB_IS_DOCUMENT (self));

  if (g_strcmp0 (region, self->region) == 0)
    return;
  g_free (self->region);
  self->region = g_strdup (region);
  bsym = region ? wb_document_find_region_bsym (self, self->entry, region) : NULL;
  g_clear_pointer (&self->bsym_trace, wb_trace_unref);
  self->bsym = bsym;
  if (bsym != NULL)
    self->bsym_trace = wb_trace_ref (wb_trace_set_get_entry (self->set, self->entry)->trace);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

const WbRegion *
wb_document_lookup_region (WbDocument *self, const char *name)
{
  GPtrArray *regions;

  if (self->pipeline == NULL || name == NULL)
    return NULL;
  regions = wb_pipeline_get_regions (self->pipeline);
  for (guint i = 0; i < regions->len; i++)
    if (strcmp (((WbRegion *) regions->pdata[i])->name, name) == 0)
      return regions->pdata[i];
  return NULL;
}

static int
stage_of_trace (const WbPipeline *pipeline, const WbTrace *trace)
{
  for (guint i = 0; pipeline != NULL && i < wb_pipeline_get_n_stages (pipeline); i++)
    if (wb_stage_get_trace (wb_pipeline_get_stage (pipeline, i)) == trace)
      return (int) i;
  return -1;
}

const WbRegion *
wb_document_find_region (WbDocument *self, WbTrace *trace, const WbBsym *bsym)
{
  GPtrArray              *regions;
  guint                   n;
  int                     s;
  g_autofree GHashTable **sets = NULL;
  const WbRegion         *found = NULL;

  if (self->pipeline == NULL || bsym == NULL)
    return NULL;
  regions = wb_pipeline_get_regions (self->pipeline);
  for (guint r = 0; r < regions->len; r++)
    if (((WbRegion *) regions->pdata[r])->bsym == bsym)
      return regions->pdata[r];
  if (bsym->kind == WB_BSYM_CALL && wb_bsym_is_fusion (bsym))
    return wb_document_lookup_region (self, bsym->name);
  if ((s = stage_of_trace (self->pipeline, trace)) < 0)
    return NULL;

  /* follow the bound symbol forward through the stages computed from this one */
  n = wb_pipeline_get_n_stages (self->pipeline);
  sets = g_new0 (GHashTable *, n);
  sets[s] = g_hash_table_new (NULL, NULL);
  g_hash_table_add (sets[s], (gpointer) bsym);
  for (guint t = s + 1; t < n && found == NULL; t++)
    {
      const WbStage *stage = wb_pipeline_get_stage (self->pipeline, t);
      int            prev = wb_stage_get_previous (stage);
      WbTrace       *tt = wb_stage_get_trace (stage);

      if (prev < 0 || sets[prev] == NULL || g_hash_table_size (sets[prev]) == 0)
        continue;
      sets[t] = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < tt->n_body; i++)
        {
          GPtrArray *sources = wb_stage_get_sources (stage, tt->body[i]);

          for (guint k = 0; sources != NULL && k < sources->len; k++)
            if (g_hash_table_contains (sets[prev], sources->pdata[k]))
              {
                g_hash_table_add (sets[t], tt->body[i]);
                break;
              }
        }
      for (guint r = 0; r < regions->len && found == NULL; r++)
        if (g_hash_table_contains (sets[t], ((WbRegion *) regions->pdata[r])->bsym))
          found = regions->pdata[r];
    }
  for (guint t = 0; t < n; t++)
    g_clear_pointer (&sets[t], g_hash_table_unref);
  return found;
}

const WbBsym *
wb_document_find_region_bsym (WbDocument *self, guint entry, const char *name)
{
  const WbRegion *region = wb_document_lookup_region (self, name);
  WbTrace        *target;
  g_autoptr (GHashTable) set = NULL;
  const WbBsym *best = NULL;
  guint         best_line = G_MAXUINT;
  int           s, t = -1;

  if (self->set == NULL || entry >= wb_trace_set_get_n_entries (self->set))
    return NULL;
  target = wb_trace_set_get_entry (self->set, entry)->trace;
  for (guint i = 0; i < target->n_body; i++)
    if (target->body[i]->kind == WB_BSYM_CALL && g_strcmp0 (target->body[i]->name, name) == 0)
      return target->body[i];
  if (region == NULL || (s = stage_of_trace (self->pipeline, target)) < 0)
    return NULL;
  /* the last stage that has the region's call, then back through the sources */
  for (guint i = 0; i < wb_pipeline_get_n_stages (self->pipeline); i++)
    if (wb_trace_get_bsym_line (wb_stage_get_trace (wb_pipeline_get_stage (self->pipeline, i)), region->bsym) != 0)
      t = (int) i;
  if (t < 0)
    return NULL;
  set = g_hash_table_new (NULL, NULL);
  g_hash_table_add (set, (gpointer) region->bsym);
  while (t > s)
    {
      const WbStage *stage = wb_pipeline_get_stage (self->pipeline, t);
      g_autoptr (GHashTable) prev = g_hash_table_new (NULL, NULL);
      GHashTableIter it;
      gpointer       key;

      g_hash_table_iter_init (&it, set);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          GPtrArray *sources = wb_stage_get_sources (stage, key);

          for (guint k = 0; sources != NULL && k < sources->len; k++)
            g_hash_table_add (prev, sources->pdata[k]);
        }
      g_hash_table_unref (set);
      set = g_steal_pointer (&prev);
      t = wb_stage_get_previous (stage);
    }
  if (t != s)
    return NULL;
  {
    GHashTableIter it;
    gpointer       key;

    g_hash_table_iter_init (&it, set);
    while (g_hash_table_iter_next (&it, &key, NULL))
      {
        guint line = wb_trace_get_bsym_line (target, key);

        if (line != 0 && line < best_line)
          best_line = line, best = key;
      }
  }
  return best;
}

GPtrArray *
wb_document_get_runs (WbDocument *self)
{
  return self->runs;
}

const WbRun *
wb_document_get_run (WbDocument *self)
{
  return self->runs->len > 0 ? self->runs->pdata[self->runs->len - 1] : NULL;
}

const WbRun *
wb_document_get_previous_run (WbDocument *self)
{
  return self->runs->len > 1 ? self->runs->pdata[self->runs->len - 2] : NULL;
}

int
wb_document_get_run_entry (WbDocument *self)
{
  WbTrace *forward, *backward;

  if (self->set == NULL || self->pipeline == NULL)
    return -1;
  final_stages (self->pipeline, &forward, &backward);
  return forward ? find_entry_of_trace (self->set, forward) : -1;
}

double
wb_document_get_bsym_ms (WbDocument *self, const WbBsym *bsym)
{
  const WbRun   *run = wb_document_get_run (self);
  WbRegionStats *stats;

  if (run == NULL || bsym == NULL || bsym->kind != WB_BSYM_CALL || bsym->name == NULL)
    return -1;
  if ((stats = wb_run_find_region (run, bsym->name)) == NULL)
    return -1;
  return stats->median_ns / 1e6;
}

gboolean
wb_document_run_is_planned (WbDocument *self, const WbRun *run)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), TRUE);

  if (run == NULL || run->stage == NULL || run->stage[0] == '\0')
    return TRUE;
  /* the window's runs are named "workbench"; `profile --stage workbench/NN_…` runs a workbench stage */
  return strcmp (run->stage, "workbench") == 0 || g_str_has_prefix (run->stage, "workbench/");
}

/* whether entry @e is the trace that stage label part @part ("forward_06", "default_execs/forward_06",
 * "stages/17_split_forward") names: its path without ".py", relative to the case; @exact: the subset
 * folder must match too, else any path that ends in "/PART" */
static gboolean
entry_is_part (const WbTraceEntry *e, const char *part, gboolean exact)
{
  g_autofree char *base = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *rel = NULL;
  gsize            n;

  if (e->path == NULL || g_strcmp0 (e->subset, "workbench") == 0)
    return FALSE;
  stem = g_str_has_suffix (e->path, ".py") ? g_strndup (e->path, strlen (e->path) - 3) : g_strdup (e->path);
  if (exact)
    {
      base = g_path_get_basename (stem);
      rel = e->subset && e->subset[0] ? g_strdup_printf ("%s/%s", e->subset, base) : g_strdup (base);
      return strcmp (rel, part) == 0;
    }
  n = strlen (part);
  return strcmp (stem, part) == 0 || (strlen (stem) > n && g_str_has_suffix (stem, part) && stem[strlen (stem) - n - 1] == G_DIR_SEPARATOR);
}

static WbTrace *
trace_of_part (WbDocument *self, const char *part)
{
  for (int exact = 1; exact >= 0; exact--)
    for (guint i = 0; i < wb_trace_set_get_n_entries (self->set); i++)
      {
        const WbTraceEntry *e = wb_trace_set_get_entry (self->set, i);

        if (entry_is_part (e, part, exact))
          return e->trace;
      }
  return NULL;
}

const WbBsym *
wb_document_find_run_call (WbDocument *self, const WbRun *run, const char *name, WbTrace **trace)
{
  g_auto (GStrv) parts = NULL;
  g_autofree char *call = NULL;
  guint            nth = 1, seen = 0;
  char            *hash;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);

  if (trace != NULL)
    *trace = NULL;
  if (self->set == NULL || run == NULL || run->stage == NULL || name == NULL)
    return NULL;
  /* the profiler names the n-th call of one name "NAME#n" */
  call = g_strdup (name);
  if ((hash = strrchr (call, '#')) != NULL && hash[1] != '\0')
    {
      nth = (guint) MAX (1, g_ascii_strtoull (hash + 1, NULL, 10));
      *hash = '\0';
    }
  parts = g_strsplit (run->stage, "+", -1);
  for (guint p = 0; parts[p] != NULL; p++)
    {
      WbTrace *t = trace_of_part (self, parts[p]);

      for (guint i = 0; t != NULL && i < t->n_body; i++)
        if (t->body[i]->kind == WB_BSYM_CALL && g_strcmp0 (t->body[i]->name, call) == 0 && ++seen == nth)
          {
            if (trace != NULL)
              *trace = t;
            return t->body[i];
          }
    }
  return NULL;
}

static void
map_body (GHashTable *map, const WbBsym *bsym, const WbRegion *region)
{
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    if (!g_hash_table_contains (map, bsym->subsymbols[i]))
      g_hash_table_insert (map, (gpointer) bsym->subsymbols[i], (gpointer) region);
}

/* One pass over the pipeline, last stage first: a region's call and body, then back through the sources
 * of every mapped bound symbol (each stage's previous comes before it). */
const WbRegion *
wb_document_region_of (WbDocument *self, const WbBsym *bsym)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);

  if (bsym == NULL || self->pipeline == NULL)
    return NULL;
  if (self->region_map == NULL)
    {
      GPtrArray *regions = wb_pipeline_get_regions (self->pipeline);

      self->region_map = g_hash_table_new (NULL, NULL);
      for (guint r = 0; r < regions->len; r++)
        {
          const WbRegion *region = regions->pdata[r];

          g_hash_table_insert (self->region_map, (gpointer) region->bsym, (gpointer) region);
          map_body (self->region_map, region->bsym, region);
        }
      for (int t = (int) wb_pipeline_get_n_stages (self->pipeline) - 1; t >= 0; t--)
        {
          const WbStage *stage = wb_pipeline_get_stage (self->pipeline, t);
          WbTrace       *tt = wb_stage_get_trace (stage);

          if (wb_stage_get_previous (stage) < 0)
            continue;
          for (guint i = 0; i < tt->n_body; i++)
            {
              const WbRegion *region = g_hash_table_lookup (self->region_map, tt->body[i]);
              GPtrArray      *sources;

              if (region == NULL || (sources = wb_stage_get_sources (stage, tt->body[i])) == NULL)
                continue;
              for (guint k = 0; k < sources->len; k++)
                if (!g_hash_table_contains (self->region_map, sources->pdata[k]))
                  g_hash_table_insert (self->region_map, sources->pdata[k], (gpointer) region);
            }
        }
    }
  {
    const WbRegion *region = g_hash_table_lookup (self->region_map, bsym);

    if (region == NULL && bsym->kind == WB_BSYM_CALL && wb_bsym_is_fusion (bsym))
      region = wb_document_lookup_region (self, bsym->name);
    return region;
  }
}

/* wb_document_get_region_share: the share (0..1) of the latest run's iteration that @region took; -1 without one. */
double
wb_document_get_region_share (WbDocument *self, const char *region)
{
  const WbRun   *run = wb_document_get_run (self);
  WbRegionStats *stats;

  if (run == NULL || region == NULL || (stats = wb_run_find_region (run, region)) == NULL)
    return -1;
  return stats->share;
}

void
wb_document_select_kernel (WbDocument *self, const WbKernelRecord *kernel)
{
  int           entry;
  WbTrace      *trace;
  const WbBsym *bsym = NULL;

  g_return_if_fail (WB_IS_DOCUMENT (self));

  if (kernel == NULL)
    return;
  entry = wb_document_get_run_entry (self);
  if (entry >= 0 && kernel->trace_line != 0)
    {
      trace = wb_trace_set_get_entry (self->set, entry)->trace;
      for (guint i = 0; i < trace->n_body && bsym == NULL; i++)
        if (wb_trace_get_bsym_line (trace, trace->body[i]) == kernel->trace_line)
          bsym = trace->body[i];
      if (bsym != NULL)
        {
          wb_document_set_entry (self, entry);
          wb_document_select_bsym (self, trace, bsym);
          if (kernel->region != NULL && g_strcmp0 (self->region, kernel->region) != 0)
            {
              g_free (self->region);
              self->region = g_strdup (kernel->region);
              g_signal_emit (self, signals[SELECTION_CHANGED], 0);
            }
          return;
        }
    }
  if (entry >= 0)
    wb_document_set_entry (self, entry);
  wb_document_select_region (self, kernel->region);
}

/* -- GObject -------------------------------------------------------------------------------------- */

WbDocument *
wb_document_new (void)
{
  return g_object_new (WB_TYPE_DOCUMENT, NULL);
}

static void
wb_document_finalize (GObject *object)
{
  WbDocument *self = WB_DOCUMENT (object);

  g_free (self->path);
  g_free (self->session_path);
  g_clear_pointer (&self->wcase, wb_case_free);
  g_clear_pointer (&self->set, wb_trace_set_free);
  g_clear_pointer (&self->pipeline, wb_pipeline_free);
  g_free (self->pipeline_error);
  g_free (self->assignment);
  g_free (self->previous);
  g_ptr_array_unref (self->runs);
  g_clear_pointer (&self->bsym_trace, wb_trace_unref);
  g_free (self->region);
  g_clear_pointer (&self->region_map, g_hash_table_unref);

  G_OBJECT_CLASS (wb_document_parent_class)->finalize (object);
}

static void
wb_document_class_init (WbDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = wb_document_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[RUNS_CHANGED] = g_signal_new ("runs-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
wb_document_init (WbDocument *self)
{
  self->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
}
