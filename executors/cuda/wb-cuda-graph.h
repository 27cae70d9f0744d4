/* wb-cuda-graph.h — a run captured once as a CUDA graph and replayed (WbCudaGraph): the launch-overhead
 * remedy of torch.compile's "reduce-overhead" mode
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb_cuda_graph_capture runs a body (the runner: one wb_program_run of forward and backward) with the
 * run's stream in capture mode (wb-cuda-runtime.h, "Stream capture"): nothing executes, every kernel
 * launch, cuBLASLt call, device copy, event record and cuMemAllocAsync/cuMemFreeAsync becomes a node. The
 * graph is instantiated with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, so the memory the capture
 * allocated and did not free (the run's outputs, gradients, saved tensors) is freed again before each
 * replay and handed out at the same addresses: the values the body returned hold those addresses and, after
 * a replay has finished, the replay's results. Keep them until the graph's last replay is done, then drop
 * them (that frees the last replay's memory) and the graph.
 *
 * What a graph cannot hold makes the capture fail cleanly: the runtime refuses a synchronisation, a
 * download (a cpu fallback, a host read of a device scalar) and an upload while capturing
 * (WB_CUDA_ERROR_CAPTURE), the body fails, the capture is ended and thrown away, and the stream is usable
 * as before. Events recorded during the capture (wb_cuda_runtime_record_event) are event-record nodes: they
 * are recorded again at every replay, so per-region CUDA-event timing keeps working under graphs.
 *
 * Threads: the runtime's thread only. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* WbCudaGraphBody: the work to capture; returns FALSE with @error when it fails (or is refused). */
typedef gboolean (*WbCudaGraphBody) (gpointer data, GError **error);

/* wb_cuda_graph_capture: synchronises the stream, captures @body, instantiates the graph and uploads it.
 * (transfer full) or NULL with @error: WB_CUDA_ERROR_CAPTURE with the runtime's first refusal as the
 * message ("runs ltorch.topk on the cpu fallback", "synchronises the stream", ...; the caller names the
 * region), WB_CUDA_ERROR_FAULT (a sticky error: the context is lost), or the failing call
 * ("cuStreamEndCapture: CUDA_ERROR_STREAM_CAPTURE_INVALIDATED ...", "cuGraphInstantiateWithFlags: ...").
 * Any other error of @body comes back as it is. */
WbCudaGraph *wb_cuda_graph_capture (WbCudaRuntime  *rt,
                                    WbCudaGraphBody body,
                                    gpointer        data,
                                    GError        **error);
/* wb_cuda_graph_record_list: the same run recorded as a flat launch list instead of a graph, for the paths a
 * graph is not used on (--no-cuda-graphs): @body runs twice for real, first to size its allocations, which
 * are then placed in one arena (wb_memory_plan_place), then to record every kernel launch (function, grid,
 * block, shared memory, argument bytes), memset, event record, stream wait and library call (cuBLASLt, cuDNN)
 * on those addresses (wb-cuda-launch-list.c). wb_cuda_graph_launch then walks the list: no interpreter, no
 * lookup, no allocation. The values the second run returned hold the arena's addresses, and after a replay
 * its results: keep them, as a graph's, until the last replay is done. (transfer full) or NULL with
 * WB_CUDA_ERROR_CAPTURE (what the list cannot repeat, the runtime's refusal as for a graph; a run that
 * allocates differently the second time; a driver without cuFuncGetParamInfo, CUDA 12.4; kernels timed one by
 * one by the profiler's launch hook), WB_CUDA_ERROR_FAULT, or @body's or a CUDA call's error. */
WbCudaGraph *wb_cuda_graph_record_list (WbCudaRuntime  *rt,
                                        WbCudaGraphBody body,
                                        gpointer        data,
                                        GError        **error);
/* wb_cuda_graph_is_list: @graph is a launch list (wb_cuda_graph_record_list) */
gboolean wb_cuda_graph_is_list (const WbCudaGraph *graph);
/* wb_cuda_graph_describe_list: (transfer full) (nullable) the list's steps, allocations and arena, in words */
char *wb_cuda_graph_describe_list (const WbCudaGraph *graph);
/* wb_cuda_graph_new: (transfer full) the executable graph of @graph (taken) as wb_cuda_runtime_end_capture
 * makes it; @held (taken, nullable; element-type CUdeviceptr) are blocks the graph reads that are freed with
 * it. NULL with WB_CUDA_ERROR_CALL when instantiation fails (then @graph is destroyed, @held freed). */
WbCudaGraph *wb_cuda_graph_new (WbCudaRuntime *rt,
                                CUgraph        graph,
                                GArray        *held,
                                GError       **error);
/* wb_cuda_graph_launch: replays the graph on the run's stream, between two CUDA events of its own. */
gboolean wb_cuda_graph_launch (WbCudaGraph *graph,
                               GError     **error);
/* wb_cuda_graph_get_last_ns: the last replay's time (ns) between those events; call after synchronising. */
gboolean wb_cuda_graph_get_last_ns (WbCudaGraph *graph,
                                    gint64      *ns,
                                    GError     **error);
/* wb_cuda_graph_get_start_event: (transfer none) the event recorded on the stream right before the last
 * launch (the stream was idle then, so it marks the host time of the launch on the GPU's clock). */
CUevent wb_cuda_graph_get_start_event (WbCudaGraph *graph);
/* wb_cuda_graph_get_n_nodes: the nodes of the captured graph (kernels, memory, event records ...), or the
 * steps of a launch list. */
guint wb_cuda_graph_get_n_nodes (const WbCudaGraph *graph);
/* wb_cuda_graph_free: destroys the executable graph and the graph, then frees the held blocks (stream-ordered:
 * after the replays already queued). */
void wb_cuda_graph_free (WbCudaGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCudaGraph, wb_cuda_graph_free)

/* wb_cuda_values_compare: compares two runs' results, value by value (element-type WbRtValue; tuples and
 * lists recursively; device tensors are downloaded, so not while capturing). *@n_differ counts tensors whose
 * bytes differ, *@max_abs (nullable) is the largest absolute difference of their elements (0 when all are
 * bit-identical). FALSE with WB_CUDA_ERROR_CALL when the values do not pair up (kinds, shapes, dtypes, counts). */
gboolean wb_cuda_values_compare (WbCudaRuntime *rt,
                                 GPtrArray     *a,
                                 GPtrArray     *b,
                                 guint         *n_differ,
                                 double        *max_abs,
                                 GError       **error);

G_END_DECLS
