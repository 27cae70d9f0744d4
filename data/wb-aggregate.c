/* wb-aggregate.c — a stage's calls and a run's kernels summed by symbol and by region (no GTK)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kernels reach symbols through their trace line: the top-level call printed on that line (a region's
 * call for a fused region's kernels). A kernel without a line that maps counts under its region, or
 * under its own name. */
#include "config.h"

#include "wb-aggregate.h"

void
wb_aggregate_row_free (WbAggregateRow *row)
{
  if (row == NULL)
    return;
  g_free (row->key);
  g_clear_pointer (&row->callers, g_ptr_array_unref);
  g_clear_pointer (&row->callees, g_ptr_array_unref);
  g_free (row);
}

/* the row of @key in @index (key -> row), added to @rows when new */
static WbAggregateRow *
row_get (GPtrArray *rows, GHashTable *index, const char *key)
{
  WbAggregateRow *row = g_hash_table_lookup (index, key);

  if (row == NULL)
    {
      row = g_new0 (WbAggregateRow, 1);
      row->key = g_strdup (key);
      g_ptr_array_add (rows, row);
      g_hash_table_insert (index, row->key, row);
    }
  return row;
}

/* a count of @key in @list (a row's callers or callees), made when needed */
static void
link_add (GPtrArray **list, const char *key)
{
  if (*list == NULL)
    *list = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_aggregate_row_free);
  for (guint i = 0; i < (*list)->len; i++)
    if (g_strcmp0 (((WbAggregateRow *) (*list)->pdata[i])->key, key) == 0)
      {
        ((WbAggregateRow *) (*list)->pdata[i])->calls++;
        return;
      }
  {
    WbAggregateRow *row = g_new0 (WbAggregateRow, 1);

    row->key = g_strdup (key);
    row->calls = 1;
    g_ptr_array_add (*list, row);
  }
}

static int
by_time_then_calls (gconstpointer a, gconstpointer b)
{
  const WbAggregateRow *x = *(WbAggregateRow **) a, *y = *(WbAggregateRow **) b;
  guint                 cx = x->calls + x->calls_in_regions, cy = y->calls + y->calls_in_regions;

  if (x->time_ns != y->time_ns)
    return x->time_ns > y->time_ns ? -1 : 1;
  if (cx != cy)
    return cx > cy ? -1 : 1;
  return g_strcmp0 (x->key, y->key);
}

static int
by_count (gconstpointer a, gconstpointer b)
{
  const WbAggregateRow *x = *(WbAggregateRow **) a, *y = *(WbAggregateRow **) b;

  return x->calls != y->calls ? (x->calls > y->calls ? -1 : 1) : g_strcmp0 (x->key, y->key);
}

/* line -> top-level call of @trace */
static GHashTable *
line_index (WbTrace *trace)
{
  GHashTable *lines = g_hash_table_new (NULL, NULL);

  for (guint i = 0; trace != NULL && i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && trace->body[i]->name != NULL)
      g_hash_table_insert (lines, GUINT_TO_POINTER (wb_trace_get_bsym_line (trace, trace->body[i])), (gpointer) trace->body[i]);
  return lines;
}

/* the key a kernel counts under by symbol */
static const char *
kernel_symbol (const WbKernelRecord *k, GHashTable *lines)
{
  const WbBsym *b = k->trace_line ? g_hash_table_lookup (lines, GUINT_TO_POINTER (k->trace_line)) : NULL;

  return b ? b->name : k->region ? k->region
                                 : k->name;
}

static guint
n_iterations (const WbRun *run)
{
  guint n = 0;

  for (guint i = 0; run->kernels && i < run->kernels->len; i++)
    n = MAX (n, ((WbKernelRecord *) run->kernels->pdata[i])->iteration + 1);
  return MAX (n, 1);
}

/* the calls of one top-level bound symbol: its row, its body's rows (one level), callers and callees */
static void
count_call (GPtrArray *rows, GHashTable *index, const WbCostModel *cost, const WbBsym *b)
{
  WbAggregateRow *row = row_get (rows, index, b->name);
  gboolean        region = wb_bsym_is_fusion (b);
  guint64         bytes = 0;

  row->calls++;
  wb_cost_model_count (cost, b, &bytes, NULL);
  row->bytes += bytes;
  for (guint k = 0; k < b->n_subsymbols; k++)
    {
      const WbBsym   *sub = b->subsymbols[k];
      WbAggregateRow *inner;

      if (sub->kind != WB_BSYM_CALL || sub->name == NULL)
        continue;
      link_add (&row->callees, sub->name);
      if (!region)
        continue;
      inner = row_get (rows, index, sub->name);
      inner->calls_in_regions++;
      bytes = 0;
      wb_cost_model_count (cost, sub, &bytes, NULL);
      inner->bytes += bytes;
      link_add (&inner->callers, b->name);
    }
}

GPtrArray *
wb_aggregate_by_symbol (WbTrace *trace, const WbRun *run)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_aggregate_row_free);
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) lines = NULL;
  g_autoptr (WbCostModel) cost = NULL;

  g_return_val_if_fail (trace != NULL, rows);

  cost = wb_cost_model_new (trace);
  for (guint i = 0; i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && trace->body[i]->name != NULL)
      count_call (rows, index, cost, trace->body[i]);
  if (run != NULL && run->kernels != NULL)
    {
      guint iters = n_iterations (run);

      lines = line_index (trace);
      for (guint i = 0; i < run->kernels->len; i++)
        {
          const WbKernelRecord *k = run->kernels->pdata[i];
          const WbBsym         *b = k->trace_line ? g_hash_table_lookup (lines, GUINT_TO_POINTER (k->trace_line)) : NULL;
          WbAggregateRow       *row;

          if (b == NULL)
            continue; /* not a call of this stage */
          row = row_get (rows, index, b->name);
          row->kernels++;
          row->time_ns += k->end_ns - k->start_ns;
        }
      for (guint i = 0; i < rows->len; i++)
        {
          WbAggregateRow *row = rows->pdata[i];

          row->time_ns /= iters;
          row->kernels = (row->kernels + iters - 1) / iters;
        }
    }
  for (guint i = 0; i < rows->len; i++)
    {
      WbAggregateRow *row = rows->pdata[i];

      if (row->callers)
        g_ptr_array_sort (row->callers, by_count);
      if (row->callees)
        g_ptr_array_sort (row->callees, by_count);
    }
  g_ptr_array_sort (rows, by_time_then_calls);
  return rows;
}

const WbAggregateRow *
wb_aggregate_find (GPtrArray *rows, const char *key)
{
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    if (g_strcmp0 (((WbAggregateRow *) rows->pdata[i])->key, key) == 0)
      return rows->pdata[i];
  return NULL;
}

/* -- a time range of a run ------------------------------------------------------------------------ */

gint64
wb_run_get_kernel_origin (const WbRun *run)
{
  gint64 t0 = G_MAXINT64;

  for (guint i = 0; run != NULL && run->kernels && i < run->kernels->len; i++)
    t0 = MIN (t0, ((WbKernelRecord *) run->kernels->pdata[i])->start_ns);
  return t0 == G_MAXINT64 ? 0 : t0;
}

typedef struct
{
  gint64 start, end;
} Interval;

static int
by_start (gconstpointer a, gconstpointer b)
{
  const Interval *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start ? 1
                                                        : 0;
}

/* the length of the union of @spans */
static gint64
union_length (GArray *spans)
{
  gint64 busy = 0, cur_start = 0, cur_end = G_MININT64;

  g_array_sort (spans, by_start);
  for (guint i = 0; i < spans->len; i++)
    {
      Interval *s = &g_array_index (spans, Interval, i);

      if (s->start > cur_end)
        {
          if (cur_end > cur_start)
            busy += cur_end - cur_start;
          cur_start = s->start, cur_end = s->end;
        }
      else
        cur_end = MAX (cur_end, s->end);
    }
  if (cur_end > cur_start)
    busy += cur_end - cur_start;
  return busy;
}

WbRangeStats *
wb_range_stats_new (const WbRun *run, WbTrace *trace, gint64 from_ns, gint64 to_ns)
{
  WbRangeStats *stats = g_new0 (WbRangeStats, 1);
  g_autoptr (GHashTable) regions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) symbols = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) lines = line_index (trace);
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (Interval));
  gint64 origin = wb_run_get_kernel_origin (run);

  stats->from_ns = MIN (from_ns, to_ns);
  stats->to_ns = MAX (from_ns, to_ns);
  stats->by_region = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_aggregate_row_free);
  stats->by_symbol = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_aggregate_row_free);
  for (guint i = 0; run != NULL && run->kernels && i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];
      gint64                s = k->start_ns - origin, e = k->end_ns - origin;
      Interval              in = { MAX (s, stats->from_ns), MIN (e, stats->to_ns) };
      WbAggregateRow       *row;

      /* overlapping [from, to); a kernel of no length when it starts inside */
      if (e > s ? (s >= stats->to_ns || e <= stats->from_ns) : (s < stats->from_ns || s >= stats->to_ns))
        continue;
      stats->kernels++;
      stats->kernel_ns += in.end - in.start;
      g_array_append_val (spans, in);
      row = row_get (stats->by_region, regions, k->region ? k->region : "—");
      row->kernels++;
      row->time_ns += in.end - in.start;
      row = row_get (stats->by_symbol, symbols, kernel_symbol (k, lines));
      row->kernels++;
      row->time_ns += in.end - in.start;
    }
  stats->busy_ns = union_length (spans);
  for (guint i = run != NULL ? wb_run_find_host_call (run, stats->from_ns + origin, wb_run_get_host_call_max_ns (run)) : 0;
       run != NULL && i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];
      gint64            s = c->start_ns - origin, e = c->end_ns - origin;

      if (s >= stats->to_ns)
        break; /* in start order: none later can overlap */
      if (e > s ? e <= stats->from_ns : s < stats->from_ns)
        continue;
      stats->host_calls++;
      stats->host_launches += c->n_kernels > 0;
      stats->host_call_ns += MIN (e, stats->to_ns) - MAX (s, stats->from_ns);
    }
  g_ptr_array_sort (stats->by_region, by_time_then_calls);
  g_ptr_array_sort (stats->by_symbol, by_time_then_calls);
  return stats;
}

void
wb_range_stats_free (WbRangeStats *stats)
{
  if (stats == NULL)
    return;
  g_clear_pointer (&stats->by_region, g_ptr_array_unref);
  g_clear_pointer (&stats->by_symbol, g_ptr_array_unref);
  g_free (stats);
}
