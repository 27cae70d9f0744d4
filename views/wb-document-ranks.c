/* wb-document-ranks.c — the runs a WbDocument shows, and the ranks of a multi-GPU run among them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A multi-GPU run is one WbRun per rank, the ranks sharing WbRun.group. The document shows one rank of the
 * latest group at a time (wb_document_set_rank): wb_document_get_run returns that rank's run, so every view
 * that shows "the run" switches with the selector. The runs of a group stay in the order they came. */
#include "config.h"

#include <string.h>

#include "wb-document-private.h"

/* the index of the first run of the group the run at @last belongs to (itself when it has no group);
 * a group's runs are consecutive when they were added by wb_document_add_run_group or read from a session */
static guint
unit_start (WbDocument *self,
            guint       last)
{
  const WbRun *run = self->runs->pdata[last];
  guint        i = last;

  if (run->group == NULL)
    return last;
  while (i > 0 && g_strcmp0 (((const WbRun *) self->runs->pdata[i - 1])->group, run->group) == 0)
    i--;
  return i;
}

/* the run shown for the unit (a plain run, or a group) that ends at @last: the selected rank's */
static const WbRun *
shown_in_unit (WbDocument *self,
               guint       last)
{
  guint first = unit_start (self, last);

  for (guint i = first; i <= last; i++)
    {
      const WbRun *run = self->runs->pdata[i];

      if (run->group != NULL && run->rank == self->rank)
        return run;
    }
  /* no run of the selected rank in this group: its first rank's */
  return self->runs->pdata[first];
}

const WbRun *
wb_document_get_run (WbDocument *self)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);
  return self->runs->len > 0 ? shown_in_unit (self, self->runs->len - 1) : NULL;
}

const WbRun *
wb_document_get_previous_run (WbDocument *self)
{
  guint first;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);
  if (self->runs->len == 0)
    return NULL;
  first = unit_start (self, self->runs->len - 1);
  return first > 0 ? shown_in_unit (self, first - 1) : NULL;
}

const char *
wb_document_get_group (WbDocument *self)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);
  return self->runs->len > 0 ? ((const WbRun *) self->runs->pdata[self->runs->len - 1])->group : NULL;
}

GPtrArray *
wb_document_get_group_runs (WbDocument *self,
                            const char *group)
{
  GPtrArray *runs;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), NULL);
  runs = g_ptr_array_new ();
  for (guint i = 0; group != NULL && i < self->runs->len; i++)
    {
      WbRun *run = self->runs->pdata[i];
      guint  at = runs->len;

      if (g_strcmp0 (run->group, group) != 0)
        continue;
      /* by rank, stable */
      while (at > 0 && ((WbRun *) runs->pdata[at - 1])->rank > run->rank)
        at--;
      g_ptr_array_insert (runs, (int) at, run);
    }
  return runs;
}

guint
wb_document_get_rank (WbDocument *self)
{
  g_return_val_if_fail (WB_IS_DOCUMENT (self), 0);
  return self->rank;
}

void
wb_document_set_rank (WbDocument *self,
                      guint       rank)
{
  g_return_if_fail (WB_IS_DOCUMENT (self));
  if (self->rank == rank)
    return;
  self->rank = rank;
  _wb_document_emit (self, RUNS_CHANGED);
}

void
wb_document_add_run (WbDocument *self,
                     WbRun      *run)
{
  g_return_if_fail (WB_IS_DOCUMENT (self));
  g_return_if_fail (run != NULL);
  g_ptr_array_add (self->runs, run);
  _wb_document_emit (self, RUNS_CHANGED);
}

gboolean
wb_document_add_run_group (WbDocument      *self,
                           const GPtrArray *runs,
                           GError         **error)
{
  g_autoptr (GPtrArray) copies = NULL;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), FALSE);
  if (!wb_report_ranks_check (runs, error))
    return FALSE;
  if (((const WbRun *) runs->pdata[0])->group == NULL)
    {
      g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS, "the runs of a multi-GPU run have no group id");
      return FALSE;
    }
  copies = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  for (guint i = 0; i < runs->len; i++)
    g_ptr_array_add (copies, wb_run_copy (runs->pdata[i]));
  for (guint i = 0; i < copies->len; i++)
    g_ptr_array_add (self->runs, g_steal_pointer (&copies->pdata[i]));
  self->rank = 0;
  _wb_document_emit (self, RUNS_CHANGED);
  return TRUE;
}

gboolean
wb_document_is_collective (WbDocument *self,
                           const char *name)
{
  const WbRun *run;

  g_return_val_if_fail (WB_IS_DOCUMENT (self), FALSE);
  if (name == NULL)
    return FALSE;
  if (wb_collective_symbol_is_known (name))
    return TRUE;
  run = wb_document_get_run (self);
  return run != NULL && wb_run_region_is_collective (wb_run_find_region (run, name));
}
