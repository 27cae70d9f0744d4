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

/* @a's iteration and entry through its external correlation id, when @correlations has one of ours for it */
static gboolean
joined (const WbCuptiActivity *a, GHashTable *correlations, guint *iteration, guint *entry)
{
  const guint64 *ext = correlations && a->correlation_id ? g_hash_table_lookup (correlations, GUINT_TO_POINTER (a->correlation_id)) : NULL;
  guint          it, e;

  if (ext == NULL || !wb_cupti_ext_id_decode (*ext, &it, &e) || e > G_MAXINT32)
    return FALSE;
  if (iteration)
    *iteration = it;
  if (entry)
    *entry = e;
  return TRUE;
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
      guint            it, entry;
      gint64           best = -1;
      int              best_range = -1;

      a->end_ns = MAX (a->end_ns, a->start_ns);
      if (a->by == WB_CUPTI_BY_NONE)
        a->entry = -1;
      if (joined (a, correlations, &it, &entry))
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

/* -- aligning the ranges of a graph replay ------------------------------------------------------- */

typedef struct
{
  gint64 at;
  int    step; /* +1 an interval opens, -1 it closes */
} Edge;

static int
cmp_edge (gconstpointer a, gconstpointer b)
{
  const Edge *x = a, *y = b;

  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  return y->step - x->step; /* closed intervals: opening before closing at one point */
}

/* how far the segment [lo, hi] lies from 0 (0 when it holds 0) */
static gint64
distance_to_0 (gint64 lo, gint64 hi)
{
  return lo > 0 ? lo : hi < 0 ? -hi
                              : 0;
}

gint64
wb_cupti_align_ranges (const WbCuptiActivity *acts,
                       guint                  n,
                       GHashTable            *correlations,
                       WbCuptiRange          *ranges,
                       guint                  n_ranges,
                       gint64                 max_shift_ns)
{
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  gint64 best_lo = 0, best_hi = 0, shift;
  int    count = 0, best = 0;

  /* kernel k lies inside range r shifted by d iff r.start + d <= k.start and k.end <= r.end + d */
  for (guint i = 0; i < n; i++)
    {
      const WbCuptiActivity *a = &acts[i];
      if (a->kind != WB_CUPTI_KERNEL || a->start_ns <= 0 || a->by != WB_CUPTI_BY_NONE || joined (a, correlations, NULL, NULL))
        continue;
      for (guint r = 0; r < n_ranges; r++)
        {
          Edge lo = { MAX (a->end_ns - ranges[r].end_ns, -max_shift_ns), +1 };
          Edge hi = { MIN (a->start_ns - ranges[r].start_ns, max_shift_ns), -1 };
          if (lo.at > hi.at)
            continue;
          g_array_append_val (edges, lo);
          g_array_append_val (edges, hi);
        }
    }
  if (edges->len == 0)
    return 0;
  g_array_sort (edges, cmp_edge);
  /* the sweep: the segments where the most kernels lie inside; of those, the one nearest no shift */
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
      count += e->step;
      if (e->step > 0 && count >= best && i + 1 < edges->len)
        {
          gint64 lo = e->at, hi = g_array_index (edges, Edge, i + 1).at;
          if (count > best || distance_to_0 (lo, hi) < distance_to_0 (best_lo, best_hi))
            {
              best = count;
              best_lo = lo;
              best_hi = hi;
            }
        }
    }
  shift = distance_to_0 (best_lo, best_hi) == 0 ? 0 : best_lo + (best_hi - best_lo) / 2;
  for (guint r = 0; r < n_ranges; r++)
    {
      ranges[r].start_ns += shift;
      ranges[r].end_ns += shift;
    }
  return shift;
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
