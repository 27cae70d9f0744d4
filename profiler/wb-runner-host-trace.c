/* wb-runner-host-trace.c — the host's timeline of a timed iteration (wb-runner-host-trace.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-runner-host-trace.h"

#include <stdio.h>

typedef struct
{
  const char *name, *what; /* interned */
  gint64      before, after;
  gint64      mem_ns; /* the runtime's alloc_ns + free_ns before the launch */
} HostLaunch;

typedef struct
{
  const char *name;
  gboolean    done;
  gint64      at;
  guint       launches; /* launches before it */
} HostMark;

struct _WbHostTrace
{
  WbCudaRuntime     *rt;
  GArray            *launches; /* (element-type HostLaunch) this iteration */
  GArray            *marks;    /* (element-type HostMark) this iteration */
  gint64             start, end;
  WbCudaRuntimeStats at_start, at_end;
  gboolean           on;
};

static gint64
host_now (void)
{
  return g_get_monotonic_time () * 1000;
}

static void
host_launch_hook (gboolean after, const char *name, const char *what, const guint grid[3], const guint block[3], gpointer data)
{
  WbHostTrace *t = data;
  gint64       now = host_now ();

  if (!t->on)
    return;
  if (!after)
    {
      WbCudaRuntimeStats st;
      HostLaunch         l = { g_intern_string (name), g_intern_string (what ? what : ""), now, now, 0 };
      wb_cuda_runtime_get_stats (t->rt, &st);
      l.mem_ns = st.alloc_ns + st.free_ns;
      g_array_append_val (t->launches, l);
    }
  else if (t->launches->len > 0)
    g_array_index (t->launches, HostLaunch, t->launches->len - 1).after = now;
}

WbHostTrace *
wb_host_trace_new (WbCudaRuntime *rt)
{
  WbHostTrace *t;

  if (g_strcmp0 (g_getenv ("WB_CUDA_HOST_TRACE"), "1") != 0)
    return NULL;
  t = g_new0 (WbHostTrace, 1);
  t->rt = rt;
  t->launches = g_array_new (FALSE, FALSE, sizeof (HostLaunch));
  t->marks = g_array_new (FALSE, FALSE, sizeof (HostMark));
  wb_cuda_runtime_set_launch_hook (rt, host_launch_hook, t);
  return t;
}

void
wb_host_trace_begin (WbHostTrace *t)
{
  if (t == NULL)
    return;
  g_array_set_size (t->launches, 0);
  g_array_set_size (t->marks, 0);
  t->on = TRUE;
  wb_cuda_runtime_get_stats (t->rt, &t->at_start);
  t->start = host_now ();
}

void
wb_host_trace_mark (WbHostTrace *t, const char *name, gboolean done)
{
  HostMark m;

  if (t == NULL || !t->on)
    return;
  m.name = name, m.done = done, m.at = host_now (), m.launches = t->launches->len;
  g_array_append_val (t->marks, m);
}

void
wb_host_trace_end (WbHostTrace *t)
{
  if (t == NULL)
    return;
  t->end = host_now ();
  wb_cuda_runtime_get_stats (t->rt, &t->at_end);
  t->on = FALSE;
}

typedef struct
{
  gint64 gap;
  guint  index; /* the launch after the gap; launches->len: the iteration's end */
} Gap;

static int
gap_cmp (gconstpointer a, gconstpointer b)
{
  const Gap *x = a, *y = b;
  return x->gap < y->gap ? 1 : x->gap > y->gap ? -1
                                               : 0;
}

void
wb_host_trace_free (WbHostTrace *t, double gpu_ms)
{
  g_autoptr (GArray) gaps = NULL;
  gint64 in_calls = 0, prev;
  guint  n;

  if (t == NULL)
    return;
  wb_cuda_runtime_set_launch_hook (t->rt, NULL, NULL);
  n = gpu_ms < 0 ? 0 : t->launches->len;
  gaps = g_array_sized_new (FALSE, FALSE, sizeof (Gap), n + 1);
  prev = t->start;
  for (guint i = 0; i <= n; i++)
    {
      gint64 at = i < n ? g_array_index (t->launches, HostLaunch, i).before : t->end;
      Gap    g = { at - prev, i };
      g_array_append_val (gaps, g);
      if (i < n)
        {
          const HostLaunch *l = &g_array_index (t->launches, HostLaunch, i);
          in_calls += l->after - l->before;
          prev = l->after;
        }
    }
  if (gpu_ms < 0)
    goto done;
  fprintf (stderr, "host trace (WB_CUDA_HOST_TRACE, last timed iteration): host %.3f ms, GPU %.3f ms; %u launches, %.3f ms inside the launch calls, %.3f ms between them\n",
           (t->end - t->start) / 1e6, gpu_ms, n, in_calls / 1e6, (t->end - t->start - in_calls) / 1e6);
  fprintf (stderr, "  %u cuMemAllocAsync (%.3f ms), %u cuMemFreeAsync (%.3f ms)\n", t->at_end.allocs - t->at_start.allocs,
           (t->at_end.alloc_ns - t->at_start.alloc_ns) / 1e6, t->at_end.frees - t->at_start.frees, (t->at_end.free_ns - t->at_start.free_ns) / 1e6);
  g_array_sort (gaps, gap_cmp);
  fprintf (stderr, "  longest gaps (us): before launch  <- after launch\n");
  for (guint i = 0; i < MIN (gaps->len, 25u); i++)
    {
      const Gap  *g = &g_array_index (gaps, Gap, i);
      const char *next = g->index < n ? g_array_index (t->launches, HostLaunch, g->index).what : "(end of iteration)";
      const char *last = g->index > 0 ? g_array_index (t->launches, HostLaunch, g->index - 1).what : "(start of iteration)";
      fprintf (stderr, "  %8.1f  #%u %s  <- %s\n", g->gap / 1e3, g->index, next, last);
    }
  fprintf (stderr, "  every launch and top-level call (us from the start: launch call, its duration, allocating and freeing since the last launch, what)\n");
  for (guint i = 0, m = 0; i <= n; i++)
    {
      for (; m < t->marks->len && g_array_index (t->marks, HostMark, m).launches == i; m++)
        {
          const HostMark *k = &g_array_index (t->marks, HostMark, m);
          fprintf (stderr, "  %8.1f                %s %s\n", (k->at - t->start) / 1e3, k->done ? "end  " : "call ", k->name);
        }
      if (i < n)
        {
          const HostLaunch *l = &g_array_index (t->launches, HostLaunch, i);
          gint64            mem = l->mem_ns - (i > 0 ? g_array_index (t->launches, HostLaunch, i - 1).mem_ns : t->at_start.alloc_ns + t->at_start.free_ns);
          fprintf (stderr, "  %8.1f %6.1f %6.1f    %s  %s\n", (l->before - t->start) / 1e3, (l->after - l->before) / 1e3, mem / 1e3, l->name, l->what);
        }
    }
done:
  g_array_unref (t->launches);
  g_array_unref (t->marks);
  g_free (t);
}
