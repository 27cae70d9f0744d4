/* wb-document.c — what one window shows: a case's trace set, the workbench's stages, runs and the selection
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-document-private.h"

G_DEFINE_FINAL_TYPE (WbDocument, wb_document, G_TYPE_OBJECT)

static guint signals[N_SIGNALS];

void
_wb_document_emit (WbDocument *self, WbDocumentSignal which)
{
  if (which != SELECTION_CHANGED)
    g_clear_pointer (&self->estimates, g_hash_table_unref);
  g_signal_emit (self, signals[which], 0);
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
  if (run->group != NULL && run->world_size > 1)
    {
      if (run->id > 0)
        /* TRANSLATORS: a run of one rank of a multi-GPU run: number in the window, id in the session, device,
         * rank, ranks */
        return g_strdup_printf (_ ("Run %u (#%lld) · %s · rank %u of %u"), i + 1, (long long) run->id,
                                run->device_name ? run->device_name : "", run->rank, run->world_size);
      return g_strdup_printf (_ ("Run %u · %s · rank %u of %u"), i + 1, run->device_name ? run->device_name : "",
                              run->rank, run->world_size);
    }
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

const WbAssignment *
wb_document_get_assignment (WbDocument *self)
{
  return self->assignment;
}

GPtrArray *
wb_document_get_run_notes (WbDocument *self)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);
  return self->run_notes;
}

const char *
wb_document_get_device_reason (WbDocument *self)
{
  return self->device_reason;
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

/* -- runs ----------------------------------------------------------------------------------------- */

GPtrArray *
wb_document_get_runs (WbDocument *self)
{
  return self->runs;
}

/* wb_document_get_run and wb_document_get_previous_run: wb-document-ranks.c */

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

typedef struct
{
  GPtrArray  *estimates; /* (element-type WbOpEstimate) */
  GHashTable *index;     /* op -> its estimate */
} Estimates;

static void
estimates_free (gpointer data)
{
  Estimates *e = data;

  g_ptr_array_unref (e->estimates);
  g_hash_table_unref (e->index);
  g_free (e);
}

const WbOpEstimate *
wb_document_get_op_estimate (WbDocument *self, WbTrace *trace, const WbBsym *op)
{
  const WbRun *run = wb_document_get_run (self);
  Estimates   *e;

  if (run == NULL || trace == NULL || op == NULL)
    return NULL;
  if (self->estimates == NULL || self->estimates_run != run)
    {
      g_clear_pointer (&self->estimates, g_hash_table_unref);
      self->estimates = g_hash_table_new_full (g_direct_hash, g_direct_equal, (GDestroyNotify) wb_trace_unref, estimates_free);
      self->estimates_run = run;
    }
  if ((e = g_hash_table_lookup (self->estimates, trace)) == NULL)
    {
      g_autoptr (WbDeviceCeilings) ceilings = run->device_model ? wb_ceilings_cache_lookup (run->device_model) : NULL;

      e = g_new0 (Estimates, 1);
      e->estimates = wb_op_estimates_compute (&trace, NULL, 1, run, ceilings);
      e->index = wb_op_estimates_index (e->estimates);
      g_hash_table_insert (self->estimates, wb_trace_ref (trace), e);
    }
  return g_hash_table_lookup (e->index, op);
}

double
wb_document_get_op_estimate_ms (WbDocument *self, WbTrace *trace, const WbBsym *op)
{
  const WbOpEstimate *e = wb_document_get_op_estimate (self, trace, op);

  return e != NULL ? e->estimated_ns / 1e6 : -1;
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
  g_free (self->subprogram);
  g_free (self->session_path);
  g_clear_pointer (&self->wcase, wb_case_free);
  g_clear_pointer (&self->set, wb_trace_set_free);
  g_clear_pointer (&self->claims, wb_region_claims_free);
  g_clear_pointer (&self->pipeline, wb_pipeline_free);
  g_clear_pointer (&self->estimates, g_hash_table_unref);
  g_free (self->pipeline_error);
  g_clear_pointer (&self->assignment, wb_assignment_unref);
  g_free (self->device_reason);
  g_clear_pointer (&self->run_notes, g_ptr_array_unref);
  g_free (self->previous);
  g_ptr_array_unref (self->runs);
  g_clear_pointer (&self->bsym_trace, wb_trace_unref);
  g_free (self->region);
  g_clear_pointer (&self->region_map, g_hash_table_unref);
  _wb_document_drop_runner (self);

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

const char *
wb_document_get_subprogram (WbDocument *self, guint *n_subprograms)
{
  g_autoptr (GPtrArray) names = NULL;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);
  names = self->wcase != NULL ? wb_case_list_subprograms (self->wcase) : NULL;
  if (n_subprograms != NULL)
    *n_subprograms = names != NULL ? names->len : 0;
  if (names == NULL)
    return NULL;
  return wb_case_choose_subprogram (self->wcase, self->set, self->entry, self->subprogram);
}

guint
wb_document_get_case_ranks (WbDocument *self)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), 0);
  return self->case_ranks;
}
