/* wb-cuda-streams.c — the runtime's second stream: forks, joins, and frees ordered after both streams' uses
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What wb-cuda-runtime.h says under "Two streams". A fork and a join are one event each (recorded on one
 * stream, waited for by the other with cuStreamWaitEvent); an event is re-recorded at every fork or join,
 * which is enough because a wait takes the event's last record at the time of the call. While capturing, a
 * plain record and wait are the graph's edges (the side stream joins the capture by waiting for an event
 * recorded on a capturing stream). The side epoch tells which blocks side work touched since the last join:
 * a block marked with the current epoch while side work is pending. */
#include "config.h"

#include "wb-cuda-runtime-private.h"

/* one stream waits for @from as it is now, through @ev */
static gboolean
wait_for (WbCudaRuntime *rt, CUstream waiter, CUstream from, CUevent ev, GError **error)
{
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuEventRecord (ev, from), "cuEventRecord", error) ||
      !_wb_cuda_runtime_check (rt, rt->cu->cuStreamWaitEvent (waiter, ev, 0), "cuStreamWaitEvent", error))
    return FALSE;
  if (rt->list != NULL) /* a launch list repeats the fork or join */
    {
      _wb_cuda_list_event (rt, from, ev, FALSE);
      _wb_cuda_list_event (rt, waiter, ev, TRUE);
    }
  return TRUE;
}

WbCudaBlock *
_wb_cuda_block_of (const WbTensor *t)
{
  if (t == NULL || t->device.type != WB_DEVICE_CUDA)
    return NULL;
  return wb_tensor_get_external_data (t);
}

static gboolean
touched_unjoined (WbCudaRuntime *rt, const WbCudaBlock *b)
{
  return b != NULL && rt->side_pending && b->side_epoch == rt->side_epoch;
}

gboolean
_wb_cuda_block_touched_unjoined (WbCudaRuntime *rt, const WbCudaBlock *b)
{
  return touched_unjoined (rt, b);
}

void
_wb_cuda_block_free_ordered (WbCudaRuntime *rt, WbCudaBlock *b)
{
  if (rt->stream == rt->main && touched_unjoined (rt, b))
    {
      /* the side stream frees it once the run's stream has passed this point: no wait on the run's stream.
       * Should the wait fail (a lost context), the memory is left to the pool rather than freed early. */
      if (wait_for (rt, rt->side, rt->main, rt->ev_free, NULL))
        rt->cu->cuMemFreeAsync (b->ptr, rt->side);
      return;
    }
  rt->cu->cuMemFreeAsync (b->ptr, rt->stream);
}

guint
wb_cuda_runtime_get_streams (WbCudaRuntime *rt)
{
  return rt->side_off ? 1 : 2;
}

gboolean
wb_cuda_runtime_side_pending (WbCudaRuntime *rt)
{
  return rt->side_pending;
}

gboolean
wb_cuda_runtime_in_side (WbCudaRuntime *rt)
{
  return rt->side != NULL && rt->stream == rt->side;
}

void
wb_cuda_runtime_mark_side (WbCudaRuntime *rt, const WbTensor *t)
{
  WbCudaBlock *b = _wb_cuda_block_of (t);

  if (b != NULL && wb_cuda_runtime_in_side (rt))
    b->side_epoch = rt->side_epoch;
}

gboolean
wb_cuda_runtime_begin_side (WbCudaRuntime *rt, GError **error)
{
  g_return_val_if_fail (rt->stream == rt->main && !rt->side_off, FALSE);
  if (rt->broken)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_FAULT, "the CUDA context was lost by an earlier fault");
      return FALSE;
    }
  /* each made once; one that failed is tried again at the next fork */
  if ((rt->ev_fork == NULL && !_wb_cuda_runtime_check (rt, rt->cu->cuEventCreate (&rt->ev_fork, CU_EVENT_DISABLE_TIMING), "cuEventCreate", error)) ||
      (rt->ev_join == NULL && !_wb_cuda_runtime_check (rt, rt->cu->cuEventCreate (&rt->ev_join, CU_EVENT_DISABLE_TIMING), "cuEventCreate", error)) ||
      (rt->ev_free == NULL && !_wb_cuda_runtime_check (rt, rt->cu->cuEventCreate (&rt->ev_free, CU_EVENT_DISABLE_TIMING), "cuEventCreate", error)) ||
      (rt->side == NULL && !_wb_cuda_runtime_check (rt, rt->cu->cuStreamCreate (&rt->side, CU_STREAM_NON_BLOCKING), "cuStreamCreate", error)))
    return FALSE;
  if (!wait_for (rt, rt->side, rt->main, rt->ev_fork, error))
    return FALSE;
  rt->stream = rt->side;
  rt->side_pending = TRUE;
  return TRUE;
}

void
wb_cuda_runtime_end_side (WbCudaRuntime *rt, WbTensor *const *touched, guint n)
{
  g_return_if_fail (wb_cuda_runtime_in_side (rt));
  for (guint i = 0; i < n; i++)
    wb_cuda_runtime_mark_side (rt, touched[i]);
  rt->stream = rt->main;
  rt->stats.side_calls++;
}

gboolean
wb_cuda_runtime_join_side (WbCudaRuntime *rt, GError **error)
{
  g_return_val_if_fail (rt->stream == rt->main, FALSE);
  if (!rt->side_pending)
    return TRUE;
  if (!wait_for (rt, rt->main, rt->side, rt->ev_join, error))
    return FALSE;
  rt->side_pending = FALSE;
  rt->side_epoch++;
  rt->stats.side_joins++;
  return TRUE;
}

gboolean
wb_cuda_runtime_join_for (WbCudaRuntime *rt, const WbTensor *t, GError **error)
{
  if (rt->stream != rt->main || !touched_unjoined (rt, _wb_cuda_block_of (t)))
    return TRUE;
  return wb_cuda_runtime_join_side (rt, error);
}
