/* wb-document-regions.c — WbDocument's regions across the pipeline's stages (provenance), and the calls a run timed
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-document-private.h"

/* -- regions across the pipeline's stages --------------------------------------------------------- */

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

gboolean
wb_document_can_run (WbDocument *self, const WbRegion *region, const char *executor, char **why_not)
{
  if (why_not != NULL)
    *why_not = NULL;
  if (self->pipeline == NULL)
    return FALSE;
  if (self->claims == NULL)
    self->claims = wb_region_claims_new (self->pipeline);
  return wb_region_claims_can_run (self->claims, region, executor, why_not);
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

/* -- the calls a run timed ------------------------------------------------------------------------ */

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

/* -- the region of any bound symbol (one cached map) ---------------------------------------------- */

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
