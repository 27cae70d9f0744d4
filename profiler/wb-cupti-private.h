/* wb-cupti-private.h — what wb-cupti.c (the collector) and wb-cupti-api.c (host calls) share; not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The driver's and the runtime's calls the collector enables API records for (fine-grained correlation) and
 * names without libcupti, as X-macros of the names after CUPTI_DRIVER_TRACE_CBID_ / CUPTI_RUNTIME_TRACE_CBID_.
 * The first of each list must be cuLaunchKernel / cudaLaunchKernel (see wb_cupti_start). */
#pragma once

#include "wb-profiler.h"

G_BEGIN_DECLS

/* every launch, copy and memset of the driver, whose API records carry an external id */
#define WB_CUPTI_DRIVER_CALLS(X)     \
  X (cuLaunchKernel)                 \
  X (cuLaunchKernel_ptsz)            \
  X (cuLaunchKernelEx)               \
  X (cuLaunchKernelEx_ptsz)          \
  X (cuLaunchCooperativeKernel)      \
  X (cuLaunchCooperativeKernel_ptsz) \
  X (cuGraphLaunch)                  \
  X (cuGraphLaunch_ptsz)             \
  X (cuMemcpyAsync)                  \
  X (cuMemcpyAsync_ptsz)             \
  X (cuMemcpyHtoDAsync_v2)           \
  X (cuMemcpyHtoDAsync_v2_ptsz)      \
  X (cuMemcpyDtoHAsync_v2)           \
  X (cuMemcpyDtoHAsync_v2_ptsz)      \
  X (cuMemcpyDtoDAsync_v2)           \
  X (cuMemcpyDtoDAsync_v2_ptsz)      \
  X (cuMemcpy2DAsync_v2)             \
  X (cuMemcpy2DAsync_v2_ptsz)        \
  X (cuMemcpy3DAsync_v2)             \
  X (cuMemcpy3DAsync_v2_ptsz)        \
  X (cuMemsetD8Async)                \
  X (cuMemsetD8Async_ptsz)           \
  X (cuMemsetD16Async)               \
  X (cuMemsetD16Async_ptsz)          \
  X (cuMemsetD32Async)               \
  X (cuMemsetD32Async_ptsz)          \
  X (cuMemsetD2D8Async)              \
  X (cuMemsetD2D8Async_ptsz)         \
  X (cuMemsetD2D32Async)             \
  X (cuMemsetD2D32Async_ptsz)

/* the runtime's (cuBLASLt may launch through cudart): launches, copies, memsets, graphs */
#define WB_CUPTI_RUNTIME_CALLS(X)            \
  X (cudaLaunchKernel_v7000)                 \
  X (cudaLaunchKernel_ptsz_v7000)            \
  X (cudaLaunch_v3020)                       \
  X (cudaLaunch_ptsz_v7000)                  \
  X (cudaLaunchKernelExC_v11060)             \
  X (cudaLaunchKernelExC_ptsz_v11060)        \
  X (__cudaLaunchKernel_v13000)              \
  X (__cudaLaunchKernel_ptsz_v13000)         \
  X (cudaLaunchCooperativeKernel_v9000)      \
  X (cudaLaunchCooperativeKernel_ptsz_v9000) \
  X (cudaGraphLaunch_v10000)                 \
  X (cudaGraphLaunch_ptsz_v10000)            \
  X (cudaMemcpyAsync_v3020)                  \
  X (cudaMemcpyAsync_ptsz_v7000)             \
  X (cudaMemsetAsync_v3020)                  \
  X (cudaMemsetAsync_ptsz_v7000)             \
  X (cudaMemset2DAsync_v3020)                \
  X (cudaMemset2DAsync_ptsz_v7000)

/* other calls a profiled iteration makes, named without libcupti (never enabled one by one) */
#define WB_CUPTI_DRIVER_OTHER_CALLS(X) \
  X (cuEventRecord)                    \
  X (cuEventRecord_ptsz)               \
  X (cuEventRecordWithFlags)           \
  X (cuEventRecordWithFlags_ptsz)      \
  X (cuStreamSynchronize)              \
  X (cuStreamSynchronize_ptsz)         \
  X (cuStreamWaitEvent)                \
  X (cuStreamWaitEvent_ptsz)           \
  X (cuEventSynchronize)               \
  X (cuEventElapsedTime)               \
  X (cuEventElapsedTime_v2)            \
  X (cuEventQuery)                     \
  X (cuMemAllocAsync)                  \
  X (cuMemAllocAsync_ptsz)             \
  X (cuMemFreeAsync)                   \
  X (cuMemFreeAsync_ptsz)              \
  X (cuCtxGetCurrent)                  \
  X (cuCtxSetCurrent)
#define WB_CUPTI_RUNTIME_OTHER_CALLS(X)    \
  X (cudaStreamSynchronize_v3020)          \
  X (cudaStreamSynchronize_ptsz_v7000)     \
  X (cudaEventRecord_v3020)                \
  X (cudaEventRecord_ptsz_v7000)           \
  X (cudaEventRecordWithFlags_v11010)      \
  X (cudaEventRecordWithFlags_ptsz_v11010) \
  X (cudaMallocAsync_v11020)               \
  X (cudaMallocAsync_ptsz_v11020)          \
  X (cudaFreeAsync_v11020)                 \
  X (cudaFreeAsync_ptsz_v11020)

/* The signature of cuptiGetCallbackName (domain 1 driver, 2 runtime as CUpti_CallbackDomain). */
typedef int (*WbCuptiCallbackNameFunc) (int domain, guint32 cbid, const char **name);

/* _wb_cupti_set_callback_name_func: libcupti's cuptiGetCallbackName once it is loaded (nullable), for
 * wb_cupti_api_call_from_record's names. Call before any record is parsed on another thread. */
void _wb_cupti_set_callback_name_func (WbCuptiCallbackNameFunc func);

G_END_DECLS
