/* wb-region-claims.c — what each executor choice says of the regions of one pipeline, computed once
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb_region_table_can_run builds the types of every stage holding the region (a walk of whole traces,
 * inferring the types of unannotated outputs) for each call: the table asks it for each row it binds and
 * each choice, the page for each choice. Here the same environment is built once per set of stages, in
 * the same order (a name already there keeps its type), and each answer is kept. */
#include "config.h"

#include "wb-region-claims.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-region-table-private.h"

struct _WbRegionClaims
{
  const WbPipeline *pipeline;
  GHashTable       *envs;    /* "i,j,..." the stages holding a region -> its types (wb_executor_info_types_new) */
  GHashTable       *answers; /* "REGION-ADDRESS EXECUTOR" -> Answer */
};

typedef struct
{
  gboolean ok;
  char    *why; /* (nullable) */
} Answer;

static void
answer_free (Answer *a)
{
  g_free (a->why);
  g_free (a);
}

WbRegionClaims *
wb_region_claims_new (const WbPipeline *pipeline)
{
  WbRegionClaims *self = g_new0 (WbRegionClaims, 1);

  g_return_val_if_fail (pipeline != NULL, self);
  self->pipeline = pipeline;
  self->envs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  self->answers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) answer_free);
  return self;
}

void
wb_region_claims_free (WbRegionClaims *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->envs, g_hash_table_unref);
  g_clear_pointer (&self->answers, g_hash_table_unref);
  g_free (self);
}

guint
wb_region_claims_get_n_envs (WbRegionClaims *self)
{
  return self->envs ? g_hash_table_size (self->envs) : 0;
}

/* (transfer none) the types of the stages that hold @region's call, merged in stage order */
static GHashTable *
env_of (WbRegionClaims *self, const WbRegion *region)
{
  g_autoptr (GString) key = g_string_new (NULL);
  g_autoptr (GArray) stages = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTable *types;

  for (guint i = 0; i < wb_pipeline_get_n_stages (self->pipeline); i++)
    if (wb_trace_get_bsym_line (wb_stage_get_trace (wb_pipeline_get_stage (self->pipeline, i)), region->bsym) != 0)
      {
        g_string_append_printf (key, "%s%u", key->len ? "," : "", i);
        g_array_append_val (stages, i);
      }
  if ((types = g_hash_table_lookup (self->envs, key->str)) != NULL)
    return types;
  types = wb_executor_info_types_new (NULL);
  for (guint k = 0; k < stages->len; k++)
    wb_executor_info_types_add (types, wb_stage_get_trace (wb_pipeline_get_stage (self->pipeline, g_array_index (stages, guint, k))));
  g_hash_table_insert (self->envs, g_string_free (g_steal_pointer (&key), FALSE), types);
  return types;
}

gboolean
wb_region_claims_can_run (WbRegionClaims *self, const WbRegion *region, const char *executor, char **why_not)
{
  const WbExecutorInfo *info;
  g_autofree char      *key = NULL;
  Answer               *a;

  g_return_val_if_fail (self != NULL && self->pipeline != NULL && region != NULL && executor != NULL, FALSE);
  if (why_not != NULL)
    *why_not = NULL;
  if (strcmp (executor, WB_REGION_TABLE_UNFUSE) == 0)
    return TRUE;
  if ((info = wb_executor_info_lookup (executor)) == NULL)
    {
      if (why_not != NULL)
        *why_not = g_strdup_printf (_ ("%s: no such executor"), executor);
      return FALSE;
    }
  key = g_strdup_printf ("%p %s", (const void *) region, executor);
  if ((a = g_hash_table_lookup (self->answers, key)) == NULL)
    {
      a = g_new0 (Answer, 1);
      a->ok = wb_executor_info_can_run (info, region->bsym, wb_executor_info_types_lookup, env_of (self, region), &a->why);
      g_hash_table_insert (self->answers, g_steal_pointer (&key), a);
    }
  if (why_not != NULL)
    *why_not = g_strdup (a->why);
  return a->ok;
}
