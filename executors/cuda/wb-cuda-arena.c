/* wb-cuda-arena.c — the static memory plan's arena: one block of the pool, and the planned places the
 * current call's allocations take (wb-cuda-runtime.h, "The static memory plan's arena")
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan (executors/wb-memory-plan.h) says where each output of a call goes; this file only checks that
 * the place is free when the allocation comes. A range is busy from its allocation until its tensor is
 * dropped; after that, still while side work that touched it is not joined (the side stream may read it
 * later than the run's stream reuses it), and for good when it predates a capture that released it (every
 * replay of the graph reads it). With the ranges the runtime keeps, serving a plan that is wrong about a
 * lifetime costs memory (the pool's path), never a wrong value: a tensor still held (an earlier run's result
 * the caller keeps, the checked run's outputs compared with a replay's) keeps its range busy, so no place
 * over its bytes is handed out.
 *
 * The side stream: a call placed there forks from the run's stream before it allocates, so a range free
 * now (dropped by work on the run's stream enqueued before the fork) is free for it too. A range it takes
 * is marked as touched by side work, and a range dropped while a call runs there is held until the next
 * join, as the pool's path frees such blocks on the side stream. */
#include "config.h"

#include "wb-cuda-runtime-private.h"

typedef struct
{
  gint64   offset, nbytes;
  gboolean taken;
} WbCudaArenaPlace;

static gboolean
range_busy (WbCudaRuntime *rt, const WbCudaArenaRange *r)
{
  if (!r->released || r->pinned)
    return TRUE;
  return rt->side_pending && r->hold_epoch == rt->side_epoch;
}

/* drops released ranges nothing holds any more */
static void
prune (WbCudaRuntime *rt)
{
  for (guint i = rt->arena_busy->len; i > 0; i--)
    if (!range_busy (rt, &g_array_index (rt->arena_busy, WbCudaArenaRange, i - 1)))
      g_array_remove_index_fast (rt->arena_busy, i - 1);
}

static gboolean
overlaps_busy (WbCudaRuntime *rt, gint64 offset, gint64 end)
{
  for (guint i = 0; i < rt->arena_busy->len; i++)
    {
      const WbCudaArenaRange *r = &g_array_index (rt->arena_busy, WbCudaArenaRange, i);
      if (r->offset < end && offset < r->end && range_busy (rt, r))
        return TRUE;
    }
  return FALSE;
}

gboolean
wb_cuda_runtime_set_arena (WbCudaRuntime *rt, gint64 nbytes, GError **error)
{
  if (rt->arena_busy == NULL)
    {
      rt->arena_busy = g_array_new (FALSE, FALSE, sizeof (WbCudaArenaRange));
      rt->arena_expect = g_array_new (FALSE, FALSE, sizeof (WbCudaArenaPlace));
    }
  g_array_set_size (rt->arena_expect, 0);
  if (rt->capturing)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "the arena cannot change during a capture");
      return FALSE;
    }
  if (rt->arena != 0)
    {
      /* a tensor still in it keeps its range: it stays allocated (the pool's memory) until the process ends */
      prune (rt);
      if (rt->arena_busy->len == 0)
        rt->cu->cuMemFreeAsync (rt->arena, rt->stream);
      g_array_set_size (rt->arena_busy, 0);
      rt->arena = 0;
      rt->arena_bytes = 0;
      rt->stats.arena_bytes = 0;
    }
  if (nbytes <= 0)
    return TRUE;
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuMemAllocAsync (&rt->arena, (size_t) nbytes, rt->stream), "cuMemAllocAsync (the memory plan's arena)", error))
    {
      rt->arena = 0;
      return FALSE;
    }
  rt->arena_bytes = nbytes;
  rt->stats.arena_bytes = nbytes;
  return TRUE;
}

void
wb_cuda_runtime_expect (WbCudaRuntime *rt, const gint64 *offsets, const gint64 *nbytes, guint n)
{
  if (rt->arena_expect == NULL)
    return;
  g_array_set_size (rt->arena_expect, 0);
  for (guint i = 0; rt->arena != 0 && i < n; i++)
    {
      WbCudaArenaPlace p = { offsets[i], nbytes[i], FALSE };
      if (offsets[i] >= 0 && nbytes[i] > 0 && offsets[i] + nbytes[i] <= rt->arena_bytes)
        g_array_append_val (rt->arena_expect, p);
    }
}

CUdeviceptr
_wb_cuda_arena_take (WbCudaRuntime *rt, WbCudaBlock *b, gsize nbytes)
{
  guint untaken = 0;

  b->arena_off = -1;
  if (rt->arena == 0 || rt->arena_expect == NULL || rt->arena_expect->len == 0)
    return 0;
  prune (rt);
  for (guint i = 0; i < rt->arena_expect->len; i++)
    {
      WbCudaArenaPlace *p = &g_array_index (rt->arena_expect, WbCudaArenaPlace, i);
      WbCudaArenaRange  r = { 0 };
      if (p->taken || p->nbytes != (gint64) nbytes)
        {
          untaken += !p->taken;
          continue;
        }
      if (overlaps_busy (rt, p->offset, p->offset + p->nbytes))
        {
          rt->stats.arena_misses++;
          p->taken = TRUE; /* not again in this call */
          continue;
        }
      p->taken = TRUE;
      r.offset = p->offset;
      r.end = p->offset + p->nbytes;
      g_array_append_val (rt->arena_busy, r);
      b->arena_off = p->offset;
      if (rt->stream != rt->main)
        b->side_epoch = rt->side_epoch; /* side work writes it: held until joined once dropped */
      rt->stats.arena_allocs++;
      return rt->arena + (CUdeviceptr) p->offset;
    }
  rt->stats.arena_unplaced++;
  return 0;
}

void
_wb_cuda_arena_release (WbCudaRuntime *rt, WbCudaBlock *b)
{
  for (guint i = 0; i < rt->arena_busy->len; i++)
    {
      WbCudaArenaRange *r = &g_array_index (rt->arena_busy, WbCudaArenaRange, i);
      if (r->offset != b->arena_off || r->released)
        continue;
      r->released = TRUE;
      if (rt->capturing && b->capture != rt->capture_serial)
        r->pinned = TRUE;
      else if (_wb_cuda_block_touched_unjoined (rt, b) || (rt->stream != rt->main && rt->side_pending))
        r->hold_epoch = rt->side_epoch;
      else
        {
          g_array_remove_index_fast (rt->arena_busy, i);
          /* free now: a temporary of the current call that took one of its places gives it back */
          for (guint k = 0; rt->arena_expect != NULL && k < rt->arena_expect->len; k++)
            {
              WbCudaArenaPlace *p = &g_array_index (rt->arena_expect, WbCudaArenaPlace, k);
              if (p->offset == b->arena_off)
                p->taken = FALSE;
            }
        }
      return;
    }
}

gboolean
wb_cuda_tensor_in_arena (const WbTensor *t)
{
  WbCudaBlock *b = _wb_cuda_block_of (t);

  return b != NULL && b->arena_off >= 0;
}
