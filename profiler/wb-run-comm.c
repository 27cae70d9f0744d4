/* wb-run-comm.c — communication in a multi-GPU run: collectives, NCCL kernels and their overlap
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Interval arithmetic over a run's kernel records: per iteration, the union of the communication kernels'
 * [start, end) intervals, the union of the others', and the length of their intersection. Kernels of
 * several streams overlap each other; a union counts each nanosecond once. */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"

/* Thunder's distributed prims (thunder/distributed/prims.py) and torch.distributed's own names. */
static const char *const collective_names[] = {
  "all_reduce",
  "all_gather",
  "reduce_scatter",
  "broadcast",
  "wait",
  "synchronize",
  "all_to_all",
  "all_gather_into_tensor",
  "reduce_scatter_tensor",
  "all_to_all_single",
  "reduce",
  "barrier",
};

gboolean
wb_kernel_name_is_nccl (const char *name)
{
  /* NCCL's device kernels: ncclDevKernel_AllReduce_Sum_f32_RING_LL, ncclKernel_... (older NCCL), or as CUPTI
   * reports them, mangled: _Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE */
  if (name != NULL && name[0] == '_' && name[1] == 'Z')
    for (name += 2; g_ascii_isdigit (*name); name++)
      ;
  return name != NULL && g_str_has_prefix (name, "nccl");
}

gboolean
wb_collective_symbol_is_known (const char *name)
{
  const char      *base;
  g_autofree char *stem = NULL;
  gsize            len;
  const WbSymbol  *symbol;

  if (name == NULL || *name == '\0')
    return FALSE;
  /* the symbol table's distributed symbols (ltorch.all_reduce, ltorch.all_reduce_, ltorch.wait, ...) */
  symbol = wb_symbol_lookup (name, strlen (name));
  if (symbol != NULL && wb_symbol_get_category (symbol) == WB_SYMBOL_CATEGORY_DISTRIBUTED)
    return TRUE;
  /* "ltorch.all_reduce", "dist_prims.wait": the name after the last dot */
  base = strrchr (name, '.');
  base = base != NULL ? base + 1 : name;
  /* "torch_all_reduce_prim_impl": the torch executor's implementation of the prim */
  if (g_str_has_prefix (base, "torch_"))
    base += strlen ("torch_");
  stem = g_strdup (base);
  /* "torch_all_reduce_prim_impl#2": a profile's second call of the symbol */
  if (strchr (stem, '#') != NULL)
    *strchr (stem, '#') = '\0';
  len = strlen (stem);
  if (g_str_has_suffix (stem, "_prim_impl"))
    stem[len - strlen ("_prim_impl")] = '\0';
  else if (g_str_has_suffix (stem, "_impl"))
    stem[len - strlen ("_impl")] = '\0';
  for (gsize i = 0; i < G_N_ELEMENTS (collective_names); i++)
    if (strcmp (stem, collective_names[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
wb_run_region_is_collective (const WbRegionStats *stats)
{
  if (stats == NULL)
    return FALSE;
  return g_strcmp0 (stats->executor, wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_NCCL))) == 0 || wb_collective_symbol_is_known (stats->name);
}

gboolean
wb_kernel_record_is_communication (const WbRun          *run,
                                   const WbKernelRecord *record)
{
  if (record == NULL)
    return FALSE;
  if (wb_kernel_name_is_nccl (record->name))
    return TRUE;
  if (run == NULL || record->region == NULL)
    return FALSE;
  return wb_run_region_is_collective (wb_run_find_region (run, record->region));
}

/* a set of the collective regions' names makes it linear in the kernels */
gboolean *
wb_run_dup_communication_flags (const WbRun *run)
{
  g_autoptr (GHashTable) collective = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean *is_comm;

  g_return_val_if_fail (run != NULL, NULL);
  is_comm = g_new0 (gboolean, MAX (run->kernels->len, 1));
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);

      if (r->name != NULL && wb_run_region_is_collective (r))
        g_hash_table_add (collective, r->name);
    }
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      is_comm[i] = wb_kernel_name_is_nccl (k->name) ||
                   (k->region != NULL && g_hash_table_contains (collective, k->region));
    }
  return is_comm;
}

/* -- intervals ------------------------------------------------------------------------------------ */

typedef struct
{
  gint64 start;
  gint64 end;
} Interval;

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const Interval *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->end > y->end) - (x->end < y->end);
}

/* Sorts @list and merges it in place into disjoint, ordered intervals; returns the union's length. */
static gint64
merge_intervals (GArray *list)
{
  guint  out = 0;
  gint64 length = 0;

  if (list->len == 0)
    return 0;
  g_array_sort (list, compare_intervals);
  for (guint i = 1; i < list->len; i++)
    {
      Interval       *last = &g_array_index (list, Interval, out);
      const Interval *next = &g_array_index (list, Interval, i);

      if (next->start <= last->end)
        last->end = MAX (last->end, next->end);
      else
        g_array_index (list, Interval, ++out) = *next;
    }
  g_array_set_size (list, out + 1);
  for (guint i = 0; i < list->len; i++)
    length += g_array_index (list, Interval, i).end - g_array_index (list, Interval, i).start;
  return length;
}

/* The length of the intersection of two merged (disjoint, ordered) lists. */
static gint64
intersect_length (const GArray *a,
                  const GArray *b)
{
  guint  i = 0, j = 0;
  gint64 length = 0;

  while (i < a->len && j < b->len)
    {
      const Interval *x = &g_array_index (a, Interval, i);
      const Interval *y = &g_array_index (b, Interval, j);
      gint64          lo = MAX (x->start, y->start), hi = MIN (x->end, y->end);

      if (hi > lo)
        length += hi - lo;
      if (x->end < y->end)
        i++;
      else
        j++;
    }
  return length;
}

/* Appends [start, end) clipped to [from, to) to @list when anything is left. */
static void
add_clipped (GArray *list,
             gint64  start,
             gint64  end,
             gint64  from,
             gint64  to)
{
  Interval iv = { MAX (start, from), MIN (end, to) };

  if (iv.end > iv.start)
    g_array_append_val (list, iv);
}

typedef struct
{
  gint64 comm;
  gint64 compute;
  gint64 overlap;
} Measure;

static Measure
measure_lists (GArray *comm,
               GArray *compute)
{
  Measure m;

  m.comm = merge_intervals (comm);
  m.compute = merge_intervals (compute);
  m.overlap = intersect_length (comm, compute);
  return m;
}

void
wb_run_measure_comm_range (const WbRun *run,
                           gint64       from_ns,
                           gint64       to_ns,
                           gint64      *comm_ns,
                           gint64      *compute_ns,
                           gint64      *overlap_ns)
{
  g_autoptr (GArray) comm = g_array_new (FALSE, FALSE, sizeof (Interval));
  g_autoptr (GArray) compute = g_array_new (FALSE, FALSE, sizeof (Interval));
  Measure m = { 0, 0, 0 };

  if (run != NULL && to_ns > from_ns)
    {
      g_autofree gboolean *is_comm = wb_run_dup_communication_flags (run);

      for (guint i = 0; i < run->kernels->len; i++)
        {
          const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

          add_clipped (is_comm[i] ? comm : compute, k->start_ns, k->end_ns, from_ns, to_ns);
        }
      m = measure_lists (comm, compute);
    }
  if (comm_ns != NULL)
    *comm_ns = m.comm;
  if (compute_ns != NULL)
    *compute_ns = m.compute;
  if (overlap_ns != NULL)
    *overlap_ns = m.overlap;
}

static void
add_collectives (const WbRun *run,
                 WbCommStats *stats)
{
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = g_ptr_array_index (run->regions, i);

      if (!wb_run_region_is_collective (r))
        continue;
      stats->collective_calls++;
      stats->collective_bytes += r->bytes_moved;
      stats->collective_ns += r->median_ns;
    }
}

/* The highest iteration kept: a corrupt iteration number must not make us allocate gigabytes. */
#define MAX_ITERATIONS 1000000

/* The timed iterations a run's figures cover: max (iteration_ns->len, the highest kernel iteration + 1), a
 * kernel's iteration of MAX_ITERATIONS or more (a damaged session file) left out. */
static guint
count_iterations (const WbRun *run)
{
  guint n = run->iteration_ns != NULL ? run->iteration_ns->len : 0;

  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      if (k->iteration < MAX_ITERATIONS)
        n = MAX (n, k->iteration + 1);
    }
  return n;
}

WbCommStats
wb_run_get_comm_stats (const WbRun *run)
{
  WbCommStats          stats;
  guint                n;
  g_autofree gboolean *is_comm = NULL;
  g_autofree gint64   *comm = NULL, *compute = NULL, *overlap = NULL, *exposed = NULL;
  g_autoptr (GPtrArray) lists = NULL; /* two interval lists per iteration: comm, then the others */

  memset (&stats, 0, sizeof stats);
  g_return_val_if_fail (run != NULL, stats);

  add_collectives (run, &stats);
  n = count_iterations (run);
  is_comm = wb_run_dup_communication_flags (run);
  for (guint i = 0; i < run->kernels->len; i++)
    stats.comm_kernels += is_comm[i] ? 1 : 0;
  stats.iterations = n;
  if (n == 0 || run->kernels->len == 0)
    return stats;

  lists = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < 2 * n; i++)
    g_ptr_array_add (lists, g_array_new (FALSE, FALSE, sizeof (Interval)));
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      if (k->iteration < n)
        add_clipped (g_ptr_array_index (lists, 2 * k->iteration + (is_comm[i] ? 0 : 1)), k->start_ns, k->end_ns,
                     G_MININT64, G_MAXINT64);
    }
  comm = g_new0 (gint64, n);
  compute = g_new0 (gint64, n);
  overlap = g_new0 (gint64, n);
  exposed = g_new0 (gint64, n);
  for (guint it = 0; it < n; it++)
    {
      Measure m = measure_lists (g_ptr_array_index (lists, 2 * it), g_ptr_array_index (lists, 2 * it + 1));

      comm[it] = m.comm;
      compute[it] = m.compute;
      overlap[it] = m.overlap;
      exposed[it] = m.comm - m.overlap;
      stats.comm_ns_total += comm[it];
      stats.compute_ns_total += compute[it];
      stats.overlap_ns_total += overlap[it];
      stats.exposed_comm_ns_total += exposed[it];
    }
  stats.comm_ns = wb_times_median_ns (comm, n);
  stats.compute_ns = wb_times_median_ns (compute, n);
  stats.overlap_ns = wb_times_median_ns (overlap, n);
  stats.exposed_comm_ns = wb_times_median_ns (exposed, n);
  return stats;
}

/* -- waiting for peers ------------------------------------------------------------------------------
 * An NCCL kernel runs from its launch on one rank until the transfer ends, and the transfer cannot start
 * before every rank launched its part of the same collective: the rank that comes first spends the
 * difference waiting for the last (the step's skew). With the ranks' clocks aligned (clock_origin_ns: one
 * host's CLOCK_MONOTONIC), the k-th NCCL kernel of an iteration on every rank is the same collective (the
 * ranks run one program), so rank r waits min (end_r, max over ranks of start) - start_r in it. */

/* (transfer full) @n arrays: @run's NCCL kernels of each iteration below @n, in start order (a run's kernels
 * are sorted by start), in one pass over the kernels. */
static GPtrArray *
nccl_kernels_by_iteration (const WbRun *run, guint n)
{
  GPtrArray *by = g_ptr_array_new_full (n, (GDestroyNotify) g_ptr_array_unref);

  for (guint it = 0; it < n; it++)
    g_ptr_array_add (by, g_ptr_array_new ());
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      if (k->iteration < n && wb_kernel_name_is_nccl (k->name))
        g_ptr_array_add (by->pdata[k->iteration], (gpointer) k);
    }
  return by;
}

/* Adds to @wait (one per run, for iteration @it of @iters) each run's wait in @kernels (per run, the
 * iteration's NCCL kernels, the same count on every run). */
static void
add_waits (const GPtrArray *runs, GPtrArray *const *kernels, guint it, guint iters, gint64 *wait)
{
  for (guint k = 0; k < kernels[0]->len; k++)
    {
      gint64 last = G_MININT64;

      for (guint r = 0; r < runs->len; r++)
        {
          const WbRun          *run = g_ptr_array_index (runs, r);
          const WbKernelRecord *kr = g_ptr_array_index (kernels[r], k);

          last = MAX (last, run->clock_origin_ns + kr->start_ns);
        }
      for (guint r = 0; r < runs->len; r++)
        {
          const WbRun          *run = g_ptr_array_index (runs, r);
          const WbKernelRecord *kr = g_ptr_array_index (kernels[r], k);
          gint64                start = run->clock_origin_ns + kr->start_ns, end = run->clock_origin_ns + kr->end_ns;

          wait[(gsize) r * iters + it] += MAX (0, MIN (end, last) - start);
        }
    }
}

gboolean
wb_run_group_measure_peer_wait (const GPtrArray *runs, gint64 *wait_ns)
{
  guint n = runs != NULL ? runs->len : 0, iters = G_MAXUINT;
  g_autoptr (GPtrArray) by_run = NULL; /* per run: its NCCL kernels by iteration */
  g_autofree gint64 *per_iter = NULL;
  gboolean           any = FALSE;

  if (n < 2)
    return FALSE;
  for (guint r = 0; r < n; r++)
    {
      const WbRun *run = g_ptr_array_index (runs, r);

      if (run == NULL || run->clock_origin_ns == 0 || run->kernels == NULL)
        return FALSE;
      iters = MIN (iters, count_iterations (run));
      wait_ns[r] = 0;
    }
  if (iters == 0)
    return FALSE;
  by_run = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint r = 0; r < n; r++)
    g_ptr_array_add (by_run, nccl_kernels_by_iteration (g_ptr_array_index (runs, r), iters));
  per_iter = g_new0 (gint64, (gsize) n * iters);
  for (guint it = 0; it < iters; it++)
    {
      g_autofree GPtrArray **kernels = g_new (GPtrArray *, n);

      for (guint r = 0; r < n; r++)
        {
          kernels[r] = ((GPtrArray *) by_run->pdata[r])->pdata[it];
          if (kernels[r]->len != kernels[0]->len)
            return FALSE; /* the ranks' NCCL kernels do not pair up */
        }
      any = any || kernels[0]->len > 0;
      add_waits (runs, kernels, it, iters, per_iter);
    }
  if (!any)
    return FALSE; /* no NCCL kernel at all: nothing to pair, the wait is unknown (not 0) */
  for (guint r = 0; r < n; r++)
    wait_ns[r] = wb_times_median_ns (per_iter + (gsize) r * iters, iters);
  return TRUE;
}
