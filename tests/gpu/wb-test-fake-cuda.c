/* wb-test-fake-cuda.c — a WbCudaRuntime over a fake driver table (wb-test-fake-cuda.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-test-fake-cuda.h"

static CUresult
ok_free (CUdeviceptr p, CUstream s)
{
  (void) p, (void) s;
  return CUDA_SUCCESS;
}

static CUresult
ok_record (CUevent e, CUstream s)
{
  (void) e, (void) s;
  return CUDA_SUCCESS;
}

static CUresult
ok_wait (CUstream s, CUevent e, unsigned int flags)
{
  (void) s, (void) e, (void) flags;
  return CUDA_SUCCESS;
}

static CUresult
ok_event_create (CUevent *e, unsigned int flags)
{
  static guintptr next = 0x900;

  (void) flags;
  *e = (CUevent) next++;
  return CUDA_SUCCESS;
}

static CUresult
ok_event_destroy (CUevent e)
{
  (void) e;
  return CUDA_SUCCESS;
}

static CUresult
ok_sync (CUstream s)
{
  (void) s;
  return CUDA_SUCCESS;
}

WbCudaRuntime *
wb_test_fake_runtime_new (WbCuApi *cu)
{
  WbCudaRuntime *rt = g_new0 (WbCudaRuntime, 1);

  if (cu->cuMemFreeAsync == NULL)
    cu->cuMemFreeAsync = ok_free;
  if (cu->cuEventRecord == NULL)
    cu->cuEventRecord = ok_record;
  if (cu->cuStreamWaitEvent == NULL)
    cu->cuStreamWaitEvent = ok_wait;
  if (cu->cuEventCreate == NULL)
    cu->cuEventCreate = ok_event_create;
  if (cu->cuEventDestroy == NULL)
    cu->cuEventDestroy = ok_event_destroy;
  if (cu->cuStreamSynchronize == NULL)
    cu->cuStreamSynchronize = ok_sync;
  rt->cu = cu;
  rt->main = rt->stream = WB_TEST_FAKE_MAIN_STREAM;
  rt->side = WB_TEST_FAKE_SIDE_STREAM;
  rt->side_epoch = 1; /* as the runtime starts: a block's 0 is "never touched" */
  rt->ev_fork = (CUevent) (guintptr) 0x30;
  rt->ev_join = (CUevent) (guintptr) 0x31;
  rt->ev_free = (CUevent) (guintptr) 0x32;
  rt->fn_smem = g_hash_table_new (NULL, NULL);
  rt->fn_names = g_hash_table_new (NULL, NULL);
  rt->index_errors = g_hash_table_new (NULL, NULL);
  rt->aborted_captures = g_hash_table_new (NULL, NULL);
  rt->deferred = g_array_new (FALSE, FALSE, sizeof (CUdeviceptr));
  return rt;
}

void
wb_test_fake_runtime_free (WbCudaRuntime *rt)
{
  g_clear_pointer (&rt->arena_busy, g_array_unref);
  g_clear_pointer (&rt->arena_expect, g_array_unref);
  g_clear_pointer (&rt->deferred, g_array_unref);
  g_hash_table_unref (rt->fn_smem);
  g_hash_table_unref (rt->fn_names);
  g_hash_table_unref (rt->index_errors);
  g_hash_table_unref (rt->aborted_captures);
  g_free (rt);
}
