/* wb-cuda-runtime.h — the CUDA runtime of a run: device, primary context, its streams, the stream-ordered
 * pool, device tensors, compiled modules and plan launches (WbCudaRuntime)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Driver API only (no libcudart): the primary context of device 0 (the one cuBLASLt also uses), one
 * non-blocking stream per run (and a second one for calls placed there: below), memory from the device's default memory pool through cuMemAllocAsync /
 * cuMemFreeAsync on that stream (the pool keeps freed memory: release threshold = unlimited), so a run
 * allocates and frees in stream order without synchronising. Device tensors are WbTensors
 * (device.type = CUDA) over that memory (wb_tensor_new_external); their views are ordinary WbTensor views.
 * Modules are compiled through wb-nvrtc.h (disk cache) and loaded once per process.
 * Probe order (docs/gpu-apis.md §5): libcuda.so.1, cuInit, device count, driver version, compute
 * capability, NVRTC support for sm_XY; each failure is one GError with the reason.
 * Threads: one runtime per process, used from the thread that created it. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include "wb-cuda-loader.h"
#include "wb-cuda.h"
#include "wb-nvrtc.h"

G_BEGIN_DECLS

typedef struct _WbCudaRuntime WbCudaRuntime;

typedef struct
{
  char   name[256]; /* "NVIDIA H100 80GB HBM3" */
  int    cc_major, cc_minor;
  int    driver_version; /* 13000 = 13.0 */
  int    sm_count;
  int    smem_optin; /* shared memory a block may opt in to (bytes): 227 KiB on sm_90, 99 KiB on sm_86 and sm_89 */
  gint64 total_bytes;
  char   arch[16]; /* what kernels are compiled for: "sm_90" */
} WbCudaDeviceInfo;

typedef struct
{
  guint  launches;    /* kernels launched by plans and copies */
  guint  plans_built; /* code generated (a plan-cache miss) */
  guint  plan_hits;
  guint  modules_loaded;
  gint64 bytes_uploaded;
  gint64 bytes_downloaded;
  guint  allocs;     /* cuMemAllocAsync calls */
  gint64 alloc_ns;   /* host time inside them, ns (a pool that must map new memory: tens of µs) */
  guint  frees;      /* cuMemFreeAsync calls */
  gint64 free_ns;    /* host time inside them, ns */
  guint  side_calls; /* calls placed on the second stream (wb_cuda_runtime_end_side) */
  guint  side_joins; /* times the run's stream waited for it */
  gint64 bytes_live; /* device tensors' bytes allocated and not yet dropped */
  gint64 bytes_peak; /* the most bytes_live since the runtime started or wb_cuda_runtime_reset_peak */
  /* the static memory plan's arena (below): device tensors placed in it (not in allocs, bytes_live or
   * bytes_peak: the arena is allocated once, its bytes are arena_bytes); planned places of the allocation's
   * size that could not be taken because a live tensor still held a byte of them (misses); and allocations of a
   * call with planned places that took none (unplaced: a miss, no untaken place of that size, or a temporary
   * that found its size's places taken) */
  guint  arena_allocs;
  guint  arena_misses;
  guint  arena_unplaced;
  gint64 arena_bytes;
} WbCudaRuntimeStats;

/* wb_cuda_runtime_get: the process's runtime, created on first use (probe, context, stream, pool).
 * (transfer none) or NULL with WB_CUDA_ERROR (NO_DRIVER, NO_DEVICE, DRIVER_TOO_OLD, LIBRARY, CALL). The
 * failure is remembered: later calls return the same error without retrying. */
/* wb_cuda_runtime_reset_peak: bytes_peak = bytes_live (the start of a step whose peak is measured). */
void wb_cuda_runtime_reset_peak (WbCudaRuntime *rt);
/* wb_cuda_tensor_untrack: leaves the device tensor @t (just allocated) out of bytes_live and bytes_peak:
 * a library's workspace, not the program's memory. */
void                    wb_cuda_tensor_untrack (WbTensor *t);
WbCudaRuntime          *wb_cuda_runtime_get (GError **error);
const WbCudaDeviceInfo *wb_cuda_runtime_get_info (WbCudaRuntime *rt);
CUstream                wb_cuda_runtime_get_stream (WbCudaRuntime *rt);
const WbCuApi          *wb_cuda_runtime_get_api (WbCudaRuntime *rt);
void                    wb_cuda_runtime_get_stats (WbCudaRuntime *rt, WbCudaRuntimeStats *out);
/* wb_cuda_runtime_synchronize: waits for the stream; a kernel fault comes back as WB_CUDA_ERROR_FAULT. */
gboolean wb_cuda_runtime_synchronize (WbCudaRuntime *rt, GError **error);
/* wb_cuda_runtime_set_sync: synchronise after every launch (faults point at the kernel that caused them),
 * and read the index record of every kernel that checks indices (wb_index_bad of the prelude): an index out
 * of range, which the kernel clamped, fails that launch (the runner's checked run). */
void     wb_cuda_runtime_set_sync (WbCudaRuntime *rt, gboolean sync);
gboolean wb_cuda_runtime_get_sync (WbCudaRuntime *rt);

/* Device tensors. */
/* wb_cuda_tensor_new: (transfer full) a contiguous, uninitialised device tensor, freed in stream order. */
WbTensor *wb_cuda_tensor_new (WbCudaRuntime *rt, WbDtype dtype, guint rank, const gint64 *shape, GError **error);
/* wb_cuda_tensor_is_device: TRUE when @t lives on the GPU. */
gboolean wb_cuda_tensor_is_device (const WbTensor *t);
/* wb_cuda_tensor_ptr: the device address of @t's element (0, ..., 0). */
CUdeviceptr wb_cuda_tensor_ptr (const WbTensor *t);
/* Host tensors of at most this many bytes are uploaded by memsets, which a CUDA graph can capture. */
#define WB_CUDA_UPLOAD_BY_MEMSET_BYTES 16

/* wb_cuda_upload: (transfer full) a contiguous device copy of host tensor @t (a new reference to @t when it
 * already is a device tensor). Up to WB_CUDA_UPLOAD_BY_MEMSET_BYTES it is written by memsets and may be
 * called during a capture; a larger one during a capture fails with WB_CUDA_ERROR_CAPTURE. */
WbTensor *wb_cuda_upload (WbCudaRuntime *rt, WbTensor *t, GError **error);
/* wb_cuda_download: (transfer full) a contiguous host copy of device tensor @t (waits for the stream). */
WbTensor *wb_cuda_download (WbCudaRuntime *rt, WbTensor *t, GError **error);
/* wb_cuda_copy_into: element-wise @dst = @src converted to dst's dtype, any strides (both on the device,
 * same shape; @src may broadcast with stride 0). */
gboolean wb_cuda_copy_into (WbCudaRuntime *rt, WbTensor *dst, const WbTensor *src, GError **error);
/* wb_cuda_contiguous: @t itself (a new reference) when contiguous, else a contiguous device copy. */
WbTensor *wb_cuda_contiguous (WbCudaRuntime *rt, WbTensor *t, GError **error);
/* wb_cuda_copy_source: (transfer full) the CUDA source (entry "wb_copy") that wb_cuda_copy_into compiles to
 * copy a @src_dtype tensor laid out with element @src_strides (0 where it broadcasts) into a @dst_dtype one
 * with @dst_strides (NULL: dense), both of @shape (@rank dims): what wb_cuda_executors_precompile compiles
 * ahead for copy_ and for views that a library call or a download takes dense. */
char *wb_cuda_copy_source (WbDtype dst_dtype, const gint64 *dst_strides, WbDtype src_dtype, const gint64 *src_strides, guint rank, const gint64 *shape);

/* The static memory plan's arena (wb-cuda-arena.c; the plan: executors/wb-memory-plan.h). One block of the
 * pool, allocated when the program is built (before any capture); while a call runs, the places its outputs
 * were planned at (wb_cuda_runtime_expect) serve its device allocations of exactly their byte counts, each
 * taken only when no tensor still holds any of its bytes (a lifetime the plan did not foresee, a view kept,
 * side work not yet joined, a graph that reads it), else the allocation takes the pool's path. A tensor in
 * the arena is never freed: its range becomes free again when it is dropped. */
/* wb_cuda_runtime_set_arena: allocates an arena of @nbytes (0: none), giving back the previous one. Not while
 * capturing. FALSE with WB_CUDA_ERROR_CALL (cuMemAllocAsync: out of memory). */
gboolean wb_cuda_runtime_set_arena (WbCudaRuntime *rt, gint64 nbytes, GError **error);
/* wb_cuda_runtime_expect: the places (@offsets and @nbytes, @n of them; byte offsets into the arena) the next
 * allocations may take, until the next call; @n = 0 clears them. */
void wb_cuda_runtime_expect (WbCudaRuntime *rt, const gint64 *offsets, const gint64 *nbytes, guint n);
/* wb_cuda_tensor_in_arena: TRUE when device tensor @t's storage is a range of the arena */
gboolean wb_cuda_tensor_in_arena (const WbTensor *t);

/* Modules and plans. */
/* wb_cuda_runtime_get_function: the kernel @entry of @source compiled for the device (NVRTC disk cache,
 * module cache). (transfer none) or NULL with WB_CUDA_ERROR_COMPILE / _CALL. */
CUfunction wb_cuda_runtime_get_function (WbCudaRuntime *rt, const char *source, const char *entry, GError **error);
/* wb_cuda_runtime_get_static_function: the same for a @source that stays alive and unchanged at its address
 * for the process's life (static text, or a string built once and never freed): found again by the
 * address and @entry, without hashing the text (the flash kernels' text is about 60 KB; hashing and
 * comparing it cost tens of µs per launch). (transfer none) or NULL with the errors above. */
CUfunction wb_cuda_runtime_get_static_function (WbCudaRuntime *rt, const char *source, const char *entry, GError **error);
/* wb_cuda_runtime_launch: launches @fn with @grid blocks of WB_CUDA_BLOCK threads on the stream
 * (wb_cuda_runtime_launch_ex with grid (@grid, 1, 1), no dynamic shared memory). */
gboolean wb_cuda_runtime_launch (WbCudaRuntime *rt, CUfunction fn, guint grid, void **args, const char *what, GError **error);
/* wb_cuda_runtime_launch_ex: launches @fn with @grid[0] x @grid[1] x @grid[2] blocks of @block threads (a
 * one-dimensional block, 1 to 1024) and @smem_bytes bytes of dynamic shared memory (extern __shared__) on the
 * stream; @args as cuLaunchKernel's kernelParams, @what describes the launch (hook, error prefix). Above 48
 * KiB, the function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES is raised to @smem_bytes first (once
 * per function; the device's opt-in limit is 227 KiB on sm_90). A grid with a zero dimension launches nothing
 * and succeeds. Like every launch it goes through the launch hook and, with wb_cuda_runtime_set_sync,
 * synchronises after it. FALSE with WB_CUDA_ERROR_CALL (a bad block size; cuLaunchKernel or
 * cuFuncSetAttribute refused: "CUDA_ERROR_INVALID_VALUE" for more shared memory than the device has, or
 * more registers times threads than a multiprocessor holds), WB_CUDA_ERROR_LIBRARY (the driver lacks
 * cuFuncSetAttribute), WB_CUDA_ERROR_FAULT (an earlier fault lost the context, or this kernel faulted,
 * seen when synchronising), and when synchronising WB_EXECUTOR_ERROR_BAD_ARGUMENT ("index I is out of range
 * for a dim of size N (@what: K index values out of range, clamped on the GPU)"; the context stays usable). */
gboolean wb_cuda_runtime_launch_ex (WbCudaRuntime *rt, CUfunction fn, const guint grid[3], guint block, gsize smem_bytes, void **args, const char *what, GError **error);
/* wb_cuda_runtime_take_index_errors: the indices every loaded kernel found out of range and clamped since the
 * records were last read (launches that were not synchronised one by one: warm-up and timed runs, graph and
 * launch-list replays), read and cleared after synchronising: *@count of them, the first record's *@index and
 * *@dim (0 when none). FALSE with WB_CUDA_ERROR_CALL or WB_CUDA_ERROR_FAULT. */
gboolean wb_cuda_runtime_take_index_errors (WbCudaRuntime *rt, guint64 *count, gint64 *index, gint64 *dim, GError **error);
/* wb_cuda_plan_launch: runs @plan on @inputs (one per input slot: a device tensor, or NULL for a non-tensor)
 * and returns its outputs (transfer full, device tensors) in @outputs[plan->n_outputs]. The first launch
 * caches the kernels' CUfunctions in @plan (from one thread: the runner's) and checks, before launching any,
 * that the device holds the blocks each kernel with a WbCudaKernel.resident needs at once (occupancy x SMs;
 * WB_CUDA_RESIDENT_BLOCKS caps that figure, for tests): FALSE with WB_CUDA_ERROR_RESIDENT, nothing launched,
 * where it does not (build the plan again with WB_CUDA_CODEGEN_NO_WAIT); and that each kernel's dynamic shared
 * memory fits the device's opt-in limit (WbCudaDeviceInfo.smem_optin; WB_CUDA_SHARED_OPTIN_BYTES caps it): FALSE
 * with WB_CUDA_ERROR_SHARED_MEMORY, nothing launched, where it does not (WB_CUDA_CODEGEN_NO_TABLE). Else the errors of
 * wb_cuda_runtime_get_function and wb_cuda_runtime_launch_ex. */
gboolean wb_cuda_plan_launch (WbCudaRuntime *rt, WbCudaPlan *plan, WbTensor *const *inputs, WbTensor **outputs, GError **error);

/* Launch observation (the profiler in the runner). @hook sees every kernel launch on the stream twice:
 * before it is enqueued (@after FALSE) and right after (@after TRUE), with a name (the generated kernel's
 * entry, "wb_copy", or "cublasLt matmul" for a cuBLASLt call), a description (nullable) and the launch's
 * grid and block (zeros when a library chooses them). NULL removes the hook. */
typedef void (*WbCudaLaunchHook) (gboolean after, const char *name, const char *what, const guint grid[3], const guint block[3], gpointer data);
void wb_cuda_runtime_set_launch_hook (WbCudaRuntime *rt, WbCudaLaunchHook hook, gpointer data);
/* wb_cuda_runtime_notify_launch: calls the hook (if any) for a launch made outside the runtime (cuBLASLt). */
void wb_cuda_runtime_notify_launch (WbCudaRuntime *rt, gboolean after, const char *name, const char *what, const guint grid[3], const guint block[3]);

/* Two streams (wb-cuda-streams.c). Work goes to the current stream (wb_cuda_runtime_get_stream): the run's
 * stream, or, between wb_cuda_runtime_begin_side and wb_cuda_runtime_end_side, a second stream that first
 * waits for everything queued on the run's stream so far (a fork: an event recorded there, cuStreamWaitEvent).
 * Side work so overlaps what the run's stream queues after it. The run's stream waits for it (a join) only
 * when it must: before a call reads a tensor side work touched (wb_cuda_runtime_join_for), in
 * wb_cuda_runtime_synchronize, wb_cuda_download and at the end of a capture (a captured fork becomes a
 * branch of the graph). A device tensor that side work touched and the run's stream has not joined is freed
 * on the side stream after that stream waits for the run's stream as it is at the free, so the memory is
 * reused only after both streams' uses, and the run's stream never waits for it. cuBLASLt keeps a workspace
 * per stream (wb-cublaslt.c); nothing else may run on the side stream (the nvrtc plans' counters and
 * lookup tables are one per plan). WB_CUDA_STREAMS=1 keeps everything on the run's stream. */
/* wb_cuda_runtime_get_streams: 2 when side work is allowed, 1 with WB_CUDA_STREAMS=1 (read when the runtime
 * is made). */
guint wb_cuda_runtime_get_streams (WbCudaRuntime *rt);
/* wb_cuda_runtime_begin_side: makes the side stream current after a fork (the stream and its events are
 * created on first use). FALSE with WB_CUDA_ERROR_CALL (cuStreamCreate, cuEventRecord, cuStreamWaitEvent).
 * Not nested; only with wb_cuda_runtime_get_streams () == 2 and outside the checked run's synchronised mode. */
gboolean wb_cuda_runtime_begin_side (WbCudaRuntime *rt, GError **error);
/* wb_cuda_runtime_end_side: makes the run's stream current again; @touched (transfer none, @n of them,
 * NULL entries and host tensors skipped): the device tensors the side work read or wrote, whose next reader
 * or free on the run's stream must be ordered after it. Counts a side call (WbCudaRuntimeStats.side_calls). */
void     wb_cuda_runtime_end_side (WbCudaRuntime *rt, WbTensor *const *touched, guint n);
gboolean wb_cuda_runtime_in_side (WbCudaRuntime *rt);
/* wb_cuda_runtime_side_pending: the side stream holds work the run's stream has not joined */
gboolean wb_cuda_runtime_side_pending (WbCudaRuntime *rt);
/* wb_cuda_runtime_mark_side: while the side stream is current, marks device tensor @t as touched by side
 * work (what wb_cuda_runtime_end_side does for its list): for copies a side call makes of host arguments,
 * which the executors keep for the rest of the run. No-op otherwise. */
void wb_cuda_runtime_mark_side (WbCudaRuntime *rt, const WbTensor *t);
/* wb_cuda_runtime_join_for: when the run's stream is current and side work it has not waited for touched
 * @t, joins (wb_cuda_runtime_join_side). FALSE with WB_CUDA_ERROR_CALL. */
gboolean wb_cuda_runtime_join_for (WbCudaRuntime *rt, const WbTensor *t, GError **error);
/* wb_cuda_runtime_join_side: the run's stream waits for everything queued on the side stream (no-op when
 * nothing is pending). FALSE with WB_CUDA_ERROR_CALL. */
gboolean wb_cuda_runtime_join_side (WbCudaRuntime *rt, GError **error);

/* Stream capture (CUDA graphs: wb-cuda-graph.h). Between begin and end every launch, copy, event record
 * and stream-ordered allocation on the run's stream becomes a node of a graph instead of running; the
 * memory cuMemAllocAsync hands out inside becomes graph memory (fixed addresses, allocated at every replay).
 * Work a graph cannot hold is refused while capturing with WB_CUDA_ERROR_CAPTURE: a synchronisation, a
 * download (a host read of device memory: cpu fallbacks), an upload from host memory. A block allocated
 * before the capture and released during it is freed only when the graph is freed (its replays read it). */
typedef struct _WbCudaGraph WbCudaGraph;
/* wb_cuda_runtime_begin_capture: starts capturing the stream (relaxed mode). The stream should be idle. */
gboolean wb_cuda_runtime_begin_capture (WbCudaRuntime *rt, GError **error);
/* wb_cuda_runtime_end_capture: ends the capture and instantiates the graph (wb_cuda_graph_new). (transfer
 * full) or NULL with the error (cuStreamEndCapture: CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, ...): the
 * capture's memory is then never allocated, and freeing its blocks is a no-op. */
WbCudaGraph *wb_cuda_runtime_end_capture (WbCudaRuntime *rt, GError **error);
/* wb_cuda_runtime_abort_capture: ends a capture that failed and throws its graph away (no-op when not capturing). */
void wb_cuda_runtime_abort_capture (WbCudaRuntime *rt);
/* wb_cuda_runtime_is_capturing: a graph is being captured or a launch list recorded (below): the work is
 * recorded to be repeated, so what a replay cannot repeat must be refused (wb_cuda_runtime_check_capturable) */
gboolean wb_cuda_runtime_is_capturing (WbCudaRuntime *rt);
/* wb_cuda_runtime_check_capturable: TRUE when not capturing; while capturing (or recording a launch list),
 * remembers @what (the first refusal: a verb phrase such as "runs ltorch.topk on the cpu fallback") and fails
 * with WB_CUDA_ERROR_CAPTURE. */
gboolean wb_cuda_runtime_check_capturable (WbCudaRuntime *rt, const char *what, GError **error);
/* wb_cuda_runtime_get_capture_refusal: (transfer none) (nullable) the current or last capture's first refusal. */
const char *wb_cuda_runtime_get_capture_refusal (WbCudaRuntime *rt);
/* wb_cuda_runtime_record_event: records @event on the stream; while capturing, as an event-record node
 * (CU_EVENT_RECORD_EXTERNAL) that records it at every replay. */
CUresult wb_cuda_runtime_record_event (WbCudaRuntime *rt, CUevent event);
/* wb_cuda_runtime_wait_event: makes the current stream wait for @event's last record (cuStreamWaitEvent; a launch
 * list repeats the wait, so @event must live as long as the list). FALSE with WB_CUDA_ERROR_CALL. */
gboolean wb_cuda_runtime_wait_event (WbCudaRuntime *rt, CUevent event, GError **error);
/* Launch lists (wb-cuda-graph.h, wb_cuda_graph_record_list): while one is recorded, every kernel launch,
 * memset, event record and stream wait of the runtime is appended to it, and the libraries' callers append
 * their calls as closures with wb_cuda_runtime_record_call. WbCudaListCall: repeats one such call on @stream
 * (its device addresses are the recorded run's, which every replay keeps); FALSE with @error. */
typedef gboolean (*WbCudaListCall) (gpointer data, CUstream stream, GError **error);
/* wb_cuda_runtime_is_listing: a launch list is being sized or recorded */
gboolean wb_cuda_runtime_is_listing (WbCudaRuntime *rt);
/* wb_cuda_runtime_record_call: appends @fn (@data, freed with @destroy, nullable; transfer full) to the list
 * being recorded, run on the current stream at each replay; frees @data at once when none is. Call it
 * after the call itself succeeded, with the same arguments. */
void wb_cuda_runtime_record_call (WbCudaRuntime *rt, WbCudaListCall fn, gpointer data, GDestroyNotify destroy);
/* wb_cuda_runtime_memset: sets @n bytes at @dst to @value on the current stream (cuMemsetD8Async; a launch
 * list repeats it). FALSE with WB_CUDA_ERROR_CALL. */
gboolean wb_cuda_runtime_memset (WbCudaRuntime *rt, CUdeviceptr dst, guint8 value, gsize n, GError **error);

/* wb_cuda_runtime_release_blocks: frees (stream-ordered) and unrefs @blocks (element-type CUdeviceptr, nullable). */
void wb_cuda_runtime_release_blocks (WbCudaRuntime *rt, GArray *blocks);

/* wb_cuda_probe: a description of the CUDA stack ("device ..., driver ..., NVRTC ..., cuBLASLt ...") or
 * NULL with the reason CUDA cannot be used (transfer full). */
char *wb_cuda_probe (GError **error);

G_END_DECLS
