/* wb-runner.h — the caller's side of the GPU runner process: start it, probe, run a program (WbRunner)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CUDA work never happens in the app or headless commands: they start `thunder-wb-runner` with
 * GSubprocess and talk to it over its stdin/stdout (wb-runner-protocol.h); its stderr passes through. The
 * tensors of a request and of its result travel through sealed memfds passed over a socket pair made at
 * spawn, when the runner lists the capability (wb-runner-shm.h; WB_RUNNER_NO_MEMFD=1: inline).
 * The runner is found at $WB_RUNNER, beside the running program, in the build tree
 * (../profiler/thunder-wb-runner from app/) or in the installed libexecdir. A runner that dies (a kernel
 * fault ends it on purpose: the CUDA context is lost for good) makes the call fail with
 * WB_RUNNER_ERROR_CRASHED naming the region that was running; the WbRunner is then dead and the next
 * wb_runner_new starts a fresh process.
 * Threads: a WbRunner is used from one thread; calls block until the runner answers. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-cupti.h"
#include "wb-executors.h"
#include "wb-run.h"
#include "wb-runner-protocol.h"

G_BEGIN_DECLS

#define WB_RUNNER_ERROR (wb_runner_error_quark ())
GQuark wb_runner_error_quark (void);

typedef enum
{
  WB_RUNNER_ERROR_NOT_FOUND = 1, /* no runner program (a build without CUDA): exit 3 */
  WB_RUNNER_ERROR_NO_GPU,        /* the runner started but CUDA is unusable (no driver, no GPU, no NVRTC): exit 3 */
  WB_RUNNER_ERROR_CRASHED,       /* the runner died or lost its CUDA context; the message names the region: exit 3 */
  WB_RUNNER_ERROR_PROTOCOL,      /* an unexpected or malformed message */
  WB_RUNNER_ERROR_FAILED,        /* the runner reported an error (remote_domain/remote_code in the result) */
} WbRunnerError;

typedef struct _WbRunner WbRunner;

/* wb_runner_find_program: (transfer full) the runner's path, or NULL when none is installed or built. */
char *wb_runner_find_program (void);
/* wb_runner_new: starts a runner and reads its greeting. (transfer full) or NULL with WB_RUNNER_ERROR. */
WbRunner *wb_runner_new (GError **error);
/* wb_runner_new_for_program: (transfer full) wb_runner_new starting the runner at @path (tests start a
 * fake one), or NULL with the error. */
WbRunner *wb_runner_new_for_program (const char *path, GError **error);
/* wb_runner_new_full: (transfer full) wb_runner_new_for_program with the runner on GPU @cuda_device (its
 * WB_CUDA_DEVICE; -1: the first GPU), or NULL with the error. A multi-GPU run starts rank r on GPU r. */
WbRunner *wb_runner_new_full (const char *path, int cuda_device, GError **error);
void      wb_runner_free (WbRunner *runner);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRunner, wb_runner_free)

/* wb_runner_probe: whether CUDA works in the runner. TRUE with a description of the device in @device
 * (transfer full), or FALSE with WB_RUNNER_ERROR_NO_GPU and the reason. */
gboolean wb_runner_probe (WbRunner *runner, char **device, GError **error);
/* wb_runner_get_model: (transfer none) (nullable) the GPU's name from the last successful probe. */
const char *wb_runner_get_model (WbRunner *runner);

typedef struct
{
  WbTrace            *forward;    /* the program's traces (printed and parsed again in the runner) */
  WbTrace            *backward;   /* (nullable) */
  const WbAssignment *assignment; /* (nullable) (transfer none) sent as it is ("a{ss}", wb_assignment_to_variant):
                                     the runner resolves region keys in the traces it parses
                                     (wb_region_key's rule: a job sends names, wb_profile_dup_assignment_by_name) */
  const char *default_executor;   /* NULL: wb_executor_info_get_default (TRUE) */
  /* (nullable) (transfer none) executor names by call ordinal (wb_program_get_call), @n_call_executors of
   * them, NULL where the call keeps its choice: sent as "calls" a{us}; they win over @assignment */
  const char *const *call_executors;
  guint              n_call_executors;
  /* with @check: run call @check_call (an ordinal) twice in the checked run, on the runner's cpu executor and
   * on its own, and report how far apart their outputs are (the result's stats "check_call" a(ssdddd): name, dtype,
   * max abs error, max |cpu|, RMS error, RMS of the cpu's); `bisect` */
  gboolean check;
  guint    check_call;
  /* run every call that runs kernels twice in the checked run, as @check does one, and report how many are
   * outside the dtype's tolerance of the cpu's (stats "check_all" (uussddd): calls, outside, the worst call
   * "FILE:LINE: name" and output, its max abs error, max |cpu|, error over allowance); coverage's judge */
  gboolean   check_all;
  GPtrArray *args;       /* (element-type WbRtValue) host values, one per forward parameter */
  GPtrArray *cotangents; /* (nullable) (element-type WbRtValue) */
  guint64    seed;
  guint      warmup; /* runs before the timed ones (the first one is checked and returns the results) */
  guint      iters;  /* timed runs */
  gboolean   check_shapes;
  gboolean   profile;  /* time every entry and kernel of the timed runs with CUDA events (result's profile) */
  gboolean   ceilings; /* measure the device's copy bandwidth and bf16 matmul rate first */
  /* capture the program once as a CUDA graph after the warm-up and replay it for the timed runs (result's
   * cuda_graphs_used, cuda_graphs_note); without it the runner records a flat launch list and replays that
   * (launch_list_used, cuda_graphs_note; WB_LAUNCH_LIST=0 in its environment: call by call) */
  gboolean cuda_graphs;
  /* without the static memory plan (sent as memory_plan false): every tensor from the pool. The plan is the
   * runner's default (a zeroed request keeps it); WB_MEMORY_PLAN=0 in its environment turns it off too */
  gboolean no_memory_plan;
  /* let a call no GPU path takes run on the cpu (wb_cuda_executors_set_cpu_fallback); otherwise the run fails
   * with WB_RUNNER_ERROR_FAILED, remote code WB_EXECUTOR_ERROR_CPU_FALLBACK, naming the op (--allow-cpu-fallback) */
  gboolean allow_cpu_fallback;
  /* f32 convolutions may use TF32 tensor cores (wb_cuda_executors_set_tf32; --allow-tf32) */
  gboolean allow_tf32;
  /* time the code generator's variants of each plan and keep the fastest (wb_cuda_executors_set_autotune;
   * --autotune) */
  gboolean autotune;
  /* a multi-GPU run (wb-profile-group.h): @world_size ranks (0: none), this runner's @rank, and NCCL's unique id
   * (128 bytes, wb_runner_get_nccl_id from rank 0's runner; transfer none) that every rank joins before the
   * checked run */
  guint   world_size;
  guint   rank;
  GBytes *nccl_id;
} WbRunnerRequest;

typedef struct
{
  WbRunResult *result;  /* outputs, grads, flat_args, cotangents (host tensors) of the checked run */
  GArray      *iter_ms; /* (element-type double) wall time of each timed run, synchronised */
  /* (element-type double) GPU time of each timed run, ms: CUDA events recorded on the run's stream at its start
   * and end (a graph replay: the graph's own first and last event nodes; a profiled run: the profile's iter_ns).
   * Empty when the runner sent none. This, not iter_ms, compares profiled and unprofiled runs alike. */
  GArray   *iter_gpu_ms;
  char     *device;      /* "NVIDIA H100 80GB HBM3, sm_90" */
  GVariant *stats;       /* a{sv}: regions_fused, plan_kernels, ops_generated, matmuls, fallbacks,
                            fallback_symbols a{su}, nvrtc_compiles, nvrtc_hits, compile_ms, retries */
  char     *model;       /* "NVIDIA H100 80GB HBM3" */
  char     *driver;      /* CUDA driver version "13.0" */
  double    copy_gbps;   /* with request.ceilings: device-to-device copy, bytes read + written, GB/s */
  double    bf16_tflops; /* with request.ceilings: 8192^3 bf16 cuBLASLt matmul, TFLOP/s */
  GVariant *profile;     /* (nullable) with request.profile, a{sv}: entries as (wb-profile.h's entries of the
                            runner's program, in order), iter_ns ax (CUDA events around each timed run),
                            unprofiled_iter_ns ax (as many runs before them, with events only at each run's
                            start and end: the program's time without the profiler's events around every
                            entry; absent from older runners), iter_start_ns ax (each run's start after the
                            first, host clock), entry_ns ax
                            (iters x entries, events around each entry's call), kernels a(siuuuuuuxxu) (name,
                            entry index or -1, grid xyz, block xyz, start and end ns after the iteration's
                            start event, iteration) or, from this version on, kernels2 and the attribution
                            keys (wb_runner_profile_get_kernels, _get_attribution; wb-runner-main.c's
                            prof_variant), dropped_records t (CUPTI's lost records), host_calls
                            and host_calls_over_cap (wb_runner_profile_get_host_calls) */
  /* with request.cuda_graphs: whether the timed runs were replays of a CUDA graph, and what was captured
   * or why nothing was (nullable) */
  gboolean cuda_graphs_used;
  gboolean launch_list_used; /* without CUDA graphs: the timed iterations replayed a flat launch list */
  char    *cuda_graphs_note; /* the graph's or the launch list's note */
  /* device bytes the step allocated above its inputs and cotangents, the most over the run (the runtime's
   * live tensors: pool reserve and library workspaces not counted); 0 from older runners */
  gint64 device_step_peak_bytes;
  /* the run's memory plan and allocation counts (wb-run.h; the torch_* fields left 0) */
  WbRunMemory memory;
} WbRunnerResult;

/* wb_runner_profile_get_kernels: (transfer full) (element-type WbKernelRecord) the kernel records of a
 * result's @profile: "kernels2" a(siuuuuuuxxuuuuty) (name, entry or -1, grid xyz, block xyz, start and end
 * ns after the iteration's start, iteration, registers per thread, shared bytes per block, stream,
 * correlation id, attributed by: 0 none, 1 correlation, 2 time range, 3 launch hook), or the older
 * "kernels" a(siuuuuuuxxu). region = @entries[entry] (NULL for -1 or out of range); start/end moved onto
 * the run's clock by @iter_start_ns[iteration]; records of an iteration >= @n_iters are dropped; sorted by
 * start. trace_line is left 0 (the caller knows the entries' lines). */
GPtrArray *wb_runner_profile_get_kernels (GVariant          *profile,
                                          const char *const *entries,
                                          guint              n_entries,
                                          const gint64      *iter_start_ns,
                                          guint              n_iters);
/* The most host calls (CUDA API records) a profile's result holds; 20 traced iterations of a 1000-kernel
 * program with a launch and an event record or two per kernel fit. */
#define WB_RUNNER_MAX_HOST_CALLS 200000

/* wb_runner_profile_get_host_calls: (transfer full) (element-type WbHostCall) the host's CUDA API calls of a
 * result's @profile: "host_calls" a(sxxuut) (function name, start and end ns after the iteration's start,
 * iteration, thread id, correlation id), moved onto the run's clock by @iter_start_ns[iteration] as
 * wb_runner_profile_get_kernels moves kernels; calls of an iteration >= @n_iters dropped; sorted by start;
 * kernel -1 (wb_run_link_host_calls joins them). Empty from runners that send none. @over_cap (nullable):
 * "host_calls_over_cap", the calls the runner did not send (0 without). */
GPtrArray *wb_runner_profile_get_host_calls (GVariant     *profile,
                                             const gint64 *iter_start_ns,
                                             guint         n_iters,
                                             guint64      *over_cap);
/* wb_runner_profile_get_attribution: fills @out (its kernel_source freed and replaced) from @profile's
 * kernel_source, kernel_source_reason, kernel_ns_*, kernels_by_*, memcpy, memset and memops_attributed;
 * kernel_source becomes "cupti" or "CUDA events (CUPTI unavailable: REASON)" (NULL when the profile has
 * none: an older runner). */
void wb_runner_profile_get_attribution (GVariant            *profile,
                                        WbKernelAttribution *out);

void wb_runner_result_free (WbRunnerResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRunnerResult, wb_runner_result_free)

/* wb_runner_run: runs @request in the runner. (transfer full) or NULL: WB_RUNNER_ERROR_CRASHED when the
 * runner died (the message says which region was running), WB_RUNNER_ERROR_NO_GPU, or the runner's own
 * error (its WB_EXECUTOR_ERROR message with FILE:LINE is kept; domain FAILED) with *@exit_code the exit
 * code the command should use (1, 2 or 3). @on_progress (nullable) sees every progress message. */
WbRunnerResult *wb_runner_run (WbRunner              *runner,
                               const WbRunnerRequest *request,
                               int                   *exit_code,
                               GError               **error);
/* WbRunnerProgress: one PROGRESS message. Either a call of the checked run (@region non-NULL, @phase NONE),
 * or an iteration done: @iteration (1-based) of @iterations in @phase, which took @iteration_ns of host
 * wall time (ns; 0 when the runner did not say). The runner sends an iteration at most every
 * WB_RUNNER_PROGRESS_INTERVAL_US and the last of each phase; a message with iterations but no phase (an
 * older runner) is a timed one. Strings are borrowed for the call. */
typedef struct
{
  const char   *region; /* (nullable) the call about to run in the checked run */
  guint         line;   /* its line in its trace, 0: unknown */
  WbRunnerPhase phase;
  guint         iteration;
  guint         iterations;
  gint64        iteration_ns;
} WbRunnerProgress;
/* WbRunnerProgressFunc: called on the thread that runs wb_runner_run, once per PROGRESS message. */
typedef void (*WbRunnerProgressFunc) (const WbRunnerProgress *progress, gpointer user_data);
/* wb_runner_set_progress: (nullable) @func sees every PROGRESS message of later runs. */
void wb_runner_set_progress (WbRunner *runner, WbRunnerProgressFunc func, gpointer user_data);
/* wb_runner_kill: ends the runner's process now (SIGKILL; the device memory it held goes with it), from
 * any thread: a wb_runner_run in progress then fails with WB_RUNNER_ERROR_CRASHED. */
void wb_runner_kill (WbRunner *runner);
/* wb_runner_get_pid: (transfer none) (nullable) the runner process's id as text, while it runs. */
const char *wb_runner_get_pid (WbRunner *runner);
/* wb_runner_get_last_region: (transfer none) the last region or symbol the runner announced, or NULL. */
const char *wb_runner_get_last_region (WbRunner *runner);
/* wb_runner_get_program: (transfer none) the path the runner was started from; wb_runner_get_cuda_device: its
 * GPU as asked (-1: the first). A job offered a runner (wb_profile_job_set_runner) compares them with its own. */
const char *wb_runner_get_program (WbRunner *runner);
int         wb_runner_get_cuda_device (WbRunner *runner);
/* wb_runner_is_alive: FALSE once the process ended: a call found it gone, or it ended while idle (killed from
 * outside; seen once GLib reaped it, so a process that ended a moment ago may still count as alive). */
gboolean wb_runner_is_alive (WbRunner *runner);

/* wb_runner_get_nccl_id: (transfer full) a new NCCL unique id (128 bytes) made by @runner, which hosts NCCL's
 * bootstrap and so must be rank 0's and live until every rank joined; NULL with WB_RUNNER_ERROR_NO_GPU (no
 * libnccl in the runner: the message says how to get one), _CRASHED or _PROTOCOL. */
GBytes *wb_runner_get_nccl_id (WbRunner *runner, GError **error);

G_END_DECLS
