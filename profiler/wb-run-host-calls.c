/* wb-run-host-calls.c — a GPU run's host calls (WbHostCall): the record, joining them to the kernels they
 * launched by correlation id, finding the first in a time range
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-profiler.h"

WbHostCall *
wb_host_call_new (const char *name)
{
  WbHostCall *call = g_new0 (WbHostCall, 1);

  call->name = g_strdup (name);
  call->kernel = -1;
  return call;
}

WbHostCall *
wb_host_call_copy (const WbHostCall *call)
{
  WbHostCall *copy;

  g_return_val_if_fail (call != NULL, NULL);
  copy = g_memdup2 (call, sizeof *call);
  copy->name = g_strdup (call->name);
  return copy;
}

void
wb_host_call_free (WbHostCall *call)
{
  if (call == NULL)
    return;
  g_free (call->name);
  g_free (call);
}

void
wb_run_add_host_call (WbRun *run, WbHostCall *call)
{
  g_return_if_fail (run != NULL && call != NULL);
  g_ptr_array_add (run->host_calls, call);
}

/* (iteration, correlation id) as one hash key: correlation ids are per process, but a run stored by hand or
 * a fake runner may repeat them across iterations */
static guint
key_hash (gconstpointer p)
{
  const guint64 *k = p;

  return g_int64_hash (&k[0]) ^ (g_int64_hash (&k[1]) * 31u);
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const guint64 *x = a, *y = b;

  return x[0] == y[0] && x[1] == y[1];
}

void
wb_run_link_host_calls (WbRun *run)
{
  g_autoptr (GHashTable) first = NULL; /* key -> guint64[3]: key, then first kernel index + 1 and count */
  g_autofree guint64 *slots = NULL;

  g_return_if_fail (run != NULL);
  if (run->host_calls->len == 0)
    return;
  first = g_hash_table_new (key_hash, key_equal);
  slots = g_new0 (guint64, (gsize) run->kernels->len * 4 + 1);
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];
      guint64              *slot = &slots[(gsize) i * 4];
      guint64              *found;

      if (k->correlation_id == 0)
        continue;
      slot[0] = k->iteration;
      slot[1] = k->correlation_id;
      if ((found = g_hash_table_lookup (first, slot)) != NULL)
        found[3]++;
      else
        {
          slot[2] = i;
          slot[3] = 1;
          g_hash_table_add (first, slot);
        }
    }
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      WbHostCall    *c = run->host_calls->pdata[i];
      guint64        key[2] = { c->iteration, c->correlation_id };
      const guint64 *found = c->correlation_id ? g_hash_table_lookup (first, key) : NULL;

      c->kernel = found ? (gint32) found[2] : -1;
      c->n_kernels = found ? (guint32) found[3] : 0;
    }
}

gint64
wb_run_get_host_call_max_ns (const WbRun *run)
{
  gint64 most = 0;

  for (guint i = 0; run != NULL && i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];
      most = MAX (most, c->end_ns - c->start_ns);
    }
  return most;
}

guint
wb_run_find_host_call (const WbRun *run, gint64 from_ns, gint64 max_ns)
{
  guint lo = 0, hi;

  g_return_val_if_fail (run != NULL, 0);
  hi = run->host_calls->len;
  while (lo < hi)
    {
      guint             mid = lo + (hi - lo) / 2;
      const WbHostCall *c = run->host_calls->pdata[mid];

      if (c->start_ns < from_ns - max_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
