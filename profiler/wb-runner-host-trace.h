/* wb-runner-host-trace.h — where the runner's host time goes in a timed iteration (a developer's diagnostic)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With WB_CUDA_HOST_TRACE=1, the unprofiled timed iterations of `run --device cuda` note the host's
 * CLOCK_MONOTONIC time (ns) before and after every kernel launch (the runtime's launch hook, cuBLASLt calls
 * included) at the iteration's start and end, and at every top-level call's start and end. After the last timed iteration it prints to stderr the
 * iteration's host time, the time spent inside launch calls and between them, and the longest gaps between
 * consecutive launches with the launches on either side: the host's share that a CUDA graph removes. A
 * wall-clock view only; Nsight Systems' CUDA API row is the fuller picture where it is installed. */
#pragma once

#include "wb-cuda-toolkit.h"

typedef struct _WbHostTrace WbHostTrace;

/* wb_host_trace_new: (transfer full) (nullable) a trace hooked on @rt's launches when WB_CUDA_HOST_TRACE=1,
 * else NULL (every function below takes NULL and does nothing). */
WbHostTrace *wb_host_trace_new (WbCudaRuntime *rt);
/* wb_host_trace_begin: starts a timed iteration (forgets the previous one's launches). */
void wb_host_trace_begin (WbHostTrace *trace);
/* wb_host_trace_mark: notes a top-level call's start (@done FALSE) or end in the timeline (@name: interned or
 * static). */
void wb_host_trace_mark (WbHostTrace *trace,
                         const char  *name,
                         gboolean     done);
/* wb_host_trace_end: the iteration's host work is done (call it before the synchronisation). */
void wb_host_trace_end (WbHostTrace *trace);
/* wb_host_trace_free: prints the last iteration's summary to stderr, with @gpu_ms (its GPU time, ms; 0 when
 * unknown) beside the host's, unhooks and frees. A negative @gpu_ms (a failed run) prints nothing. */
void wb_host_trace_free (WbHostTrace *trace,
                         double       gpu_ms);
