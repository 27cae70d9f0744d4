/* wb-cupti-attribute.c — joining CUPTI's activity records to profile entries (pure C, no CUDA; tested in CI)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See wb-cupti.h, part 1: by correlation (external id -> CUPTI correlation id -> the record), else by the
 * entries' time ranges, else unattributed. */
#include "config.h"

#include <time.h>

#include "wb-profiler.h"

/* -- attribution -------------------------------------------------------------------------- */

gboolean
wb_cupti_ext_id_decode (guint64 ext_id,
                        guint  *iteration,
                        guint  *entry)
{
  guint64 it = ext_id >> 32;

  if (it == 0 || it > G_MAXUINT32)
    return FALSE;
  if (iteration)
    *iteration = (guint) (it - 1);
  if (entry)
    *entry = (guint) (ext_id & 0xffffffffu);
  return TRUE;
}

GHashTable *
wb_cupti_correlations_new (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
}

void
wb_cupti_correlations_insert (GHashTable *correlations,
                              guint32     correlation_id,
                              guint64     ext_id)
{
  g_hash_table_insert (correlations, GUINT_TO_POINTER (correlation_id), g_memdup2 (&ext_id, sizeof ext_id));
}

static void
summary_add (WbCuptiSummary *s, const WbCuptiActivity *a)
{
  gint64 ns = a->end_ns - a->start_ns;

  switch (a->kind)
    {
    case WB_CUPTI_KERNEL:
      s->kernels++;
      s->kernel_ns_total += ns;
      if (a->by == WB_CUPTI_BY_CORRELATION || a->by == WB_CUPTI_BY_LAUNCH)
        {
          s->kernels_by_correlation++;
          s->kernel_ns_by_correlation += ns;
        }
      else if (a->by == WB_CUPTI_BY_TIME_RANGE)
        {
          s->kernels_by_time_range++;
          s->kernel_ns_by_time_range += ns;
        }
      else
        s->kernels_unattributed++;
      break;
    case WB_CUPTI_MEMCPY:
      s->memcpy_count++;
      s->memcpy_bytes += a->bytes;
      s->memcpy_ns += ns;
      break;
    case WB_CUPTI_MEMSET:
      s->memset_count++;
      s->memset_bytes += a->bytes;
      s->memset_ns += ns;
      break;
    default:
      break;
    }
  if (a->kind != WB_CUPTI_KERNEL && a->entry >= 0)
    s->memops_attributed++;
}

void
wb_cupti_attribute (WbCuptiActivity    *acts,
                    guint               n,
                    GHashTable         *correlations,
                    const WbCuptiRange *ranges,
                    guint               n_ranges,
                    WbCuptiSummary     *summary)
{
  for (guint i = 0; i < n; i++)
    {
      WbCuptiActivity *a = &acts[i];
      const guint64   *ext = correlations && a->correlation_id ? g_hash_table_lookup (correlations, GUINT_TO_POINTER (a->correlation_id)) : NULL;
      guint            it, entry;
      gint64           best = -1;
      int              best_range = -1;

      a->end_ns = MAX (a->end_ns, a->start_ns);
      if (a->by == WB_CUPTI_BY_NONE)
        a->entry = -1;
      if (ext != NULL && wb_cupti_ext_id_decode (*ext, &it, &entry) && entry <= G_MAXINT32)
        {
          a->entry = (gint32) entry;
          a->iteration = it;
          a->by = WB_CUPTI_BY_CORRELATION;
        }
      else if (a->by == WB_CUPTI_BY_NONE && a->start_ns > 0)
        {
          for (guint r = 0; r < n_ranges; r++)
            {
              const WbCuptiRange *x = &ranges[r];
              gint64              overlap = MIN (a->end_ns, x->end_ns) - MAX (a->start_ns, x->start_ns);

              if (a->end_ns == a->start_ns)
                overlap = a->start_ns >= x->start_ns && a->start_ns <= x->end_ns ? 0 : -1;
              else if (overlap <= 0)
                continue;
              if (overlap > best)
                {
                  best = overlap;
                  best_range = (int) r;
                }
            }
          if (best_range >= 0)
            {
              a->entry = ranges[best_range].entry;
              a->iteration = ranges[best_range].iteration;
              a->by = WB_CUPTI_BY_TIME_RANGE;
            }
        }
      if (summary)
        summary_add (summary, a);
    }
}

gint64
wb_cupti_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

const char *
wb_cupti_correlation_name (WbCuptiCorrelation correlation)
{
  switch (correlation)
    {
    case WB_CUPTI_CORRELATION_CALLBACKS:
      return "callbacks";
    case WB_CUPTI_CORRELATION_RECORDS:
      return "records";
    case WB_CUPTI_CORRELATION_FINE_GRAINED:
      return "fine-grained";
    case WB_CUPTI_CORRELATION_NONE:
      return "none";
    default:
      return "?";
    }
}
