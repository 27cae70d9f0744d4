/* wb-run-skew.c — how long each rank's NCCL kernels waited for their peers (wb-run-comm.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An NCCL kernel runs from its launch on one rank until the transfer ends, and the transfer cannot start
 * before every rank launched its part of the same collective: the rank that comes first spends the
 * difference waiting for the last (the step's skew). With the ranks' clocks aligned (clock_origin_ns: one
 * host's CLOCK_MONOTONIC), the k-th NCCL kernel of an iteration on every rank is the same collective (the
 * ranks run one program), so rank r waits min (end_r, max over ranks of start) - start_r in it. */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"

/* @run's NCCL kernels of iteration @it, in start order (the run's kernels are sorted by start). */
static GPtrArray *
nccl_kernels (const WbRun *run, guint32 it)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = g_ptr_array_index (run->kernels, i);

      if (k->iteration == it && wb_kernel_name_is_nccl (k->name))
        g_ptr_array_add (out, (gpointer) k);
    }
  return out;
}

static guint32
n_iterations (const WbRun *run)
{
  guint32 n = run->iteration_ns != NULL ? run->iteration_ns->len : 0;

  for (guint i = 0; i < run->kernels->len; i++)
    n = MAX (n, ((const WbKernelRecord *) g_ptr_array_index (run->kernels, i))->iteration + 1);
  return n;
}

gboolean
wb_run_group_measure_peer_wait (const GPtrArray *runs, gint64 *wait_ns)
{
  guint   n = runs != NULL ? runs->len : 0;
  guint32 iters = G_MAXUINT32;

  if (n < 2)
    return FALSE;
  for (guint r = 0; r < n; r++)
    {
      const WbRun *run = g_ptr_array_index (runs, r);

      if (run == NULL || run->clock_origin_ns == 0 || run->kernels == NULL)
        return FALSE;
      iters = MIN (iters, n_iterations (run));
      wait_ns[r] = 0;
    }
  if (iters == 0 || iters == G_MAXUINT32)
    return FALSE;
  {
    g_autofree gint64 *per_iter = g_new0 (gint64, (gsize) n * iters);
    gboolean           matched = TRUE, any = FALSE;

    for (guint32 it = 0; it < iters && matched; it++)
      {
        g_autoptr (GPtrArray) lists = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

        for (guint r = 0; r < n; r++)
          g_ptr_array_add (lists, nccl_kernels (g_ptr_array_index (runs, r), it));
        for (guint r = 1; r < n && matched; r++)
          matched = ((GPtrArray *) lists->pdata[r])->len == ((GPtrArray *) lists->pdata[0])->len;
        any = any || ((GPtrArray *) lists->pdata[0])->len > 0;
        for (guint k = 0; matched && k < ((GPtrArray *) lists->pdata[0])->len; k++)
          {
            gint64 last = G_MININT64;

            for (guint r = 0; r < n; r++)
              {
                const WbRun          *run = g_ptr_array_index (runs, r);
                const WbKernelRecord *kr = g_ptr_array_index ((GPtrArray *) lists->pdata[r], k);
                last = MAX (last, run->clock_origin_ns + kr->start_ns);
              }
            for (guint r = 0; r < n; r++)
              {
                const WbRun          *run = g_ptr_array_index (runs, r);
                const WbKernelRecord *kr = g_ptr_array_index ((GPtrArray *) lists->pdata[r], k);
                gint64                start = run->clock_origin_ns + kr->start_ns, end = run->clock_origin_ns + kr->end_ns;

                per_iter[(gsize) r * iters + it] += MAX (0, MIN (end, last) - start);
              }
          }
      }
    if (!matched || !any)
      return FALSE; /* no NCCL kernel at all: nothing to pair, the wait is unknown (not 0) */
    for (guint r = 0; r < n; r++)
      wait_ns[r] = wb_times_median_ns (per_iter + (gsize) r * iters, iters);
  }
  return TRUE;
}
