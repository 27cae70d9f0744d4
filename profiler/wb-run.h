/* wb-run.h — a profiling run as plain data: WbRun, WbRegionStats, WbKernelRecord, WbDeviceCeilings
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The profiler fills these; data/ stores them in a session file and reads them back unchanged.
 * Units: every time is in nanoseconds (ns) unless the name says otherwise; sizes in bytes; bandwidth in
 * GB/s (10^9 bytes per second); compute in TFLOP/s. Wall-clock dates are Unix time in microseconds
 * (what g_get_real_time() returns). Strings are UTF-8 and owned by the struct that holds them. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/* Whether a run finished. A failed run keeps what was measured before the failure and says why. */
typedef enum
{
  WB_RUN_STATUS_OK = 1,
  WB_RUN_STATUS_FAILED,
} WbRunStatus;

/* wb_run_status_to_string: "ok" or "failed" (transfer none). */
const char *wb_run_status_to_string (WbRunStatus status);
/* wb_run_status_from_string: parses "ok"/"failed"; FALSE for anything else. */
gboolean wb_run_status_from_string (const char  *text,
                                    WbRunStatus *status);

/* WbKernelRecord: one kernel launch seen on the device (CUPTI activity record), or one timed op on cpu. */
typedef struct
{
  char   *name;           /* kernel name as CUPTI reports it (C++ names stay mangled), or the launch's name */
  char   *region;         /* region it is attributed to, or NULL when it could not be attributed */
  guint32 trace_line;     /* 1-based line of the stage the kernel belongs to; 0 when unknown */
  guint32 stream;         /* CUDA stream id (0 on cpu) */
  guint32 grid[3];        /* grid x, y, z (blocks) */
  guint32 block[3];       /* block x, y, z (threads) */
  guint32 registers;      /* registers per thread */
  guint32 shared_bytes;   /* shared memory per block, static + dynamic, bytes */
  gint64  start_ns;       /* start on the run's monotonic clock, ns */
  gint64  end_ns;         /* end on the same clock, ns (>= start_ns) */
  guint32 iteration;      /* 0-based timed iteration the kernel ran in */
  guint64 correlation_id; /* CUPTI correlation id (0 when none) */
} WbKernelRecord;

/* wb_kernel_record_new: (transfer full) a zeroed record with a copy of @name and @region (nullable). */
WbKernelRecord *wb_kernel_record_new (const char *name,
                                      const char *region);
/* wb_kernel_record_copy: (transfer full) a deep copy. */
WbKernelRecord *wb_kernel_record_copy (const WbKernelRecord *record);
void            wb_kernel_record_free (WbKernelRecord *record);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbKernelRecord, wb_kernel_record_free)

/* WbHostCall: one CUDA driver or runtime API call the host made in a traced iteration of a GPU run (CUPTI's
 * DRIVER / RUNTIME API records): the timeline's "CUDA API" track and the trace export's host thread. */
typedef struct
{
  char   *name;           /* the API function ("cuLaunchKernel", "cudaMemcpyAsync", "driver API call 307") */
  gint64  start_ns;       /* on the run's clock, as WbKernelRecord's start_ns */
  gint64  end_ns;         /* >= start_ns */
  guint32 thread;         /* the host thread id CUPTI reports */
  guint32 iteration;      /* 0-based iteration, as its kernels' */
  guint64 correlation_id; /* CUPTI correlation id: the kernels it launched carry the same (0: none) */
  /* set by wb_run_link_host_calls (not stored: derived from the kernels) */
  gint32  kernel;    /* index in the run's kernels of the first (in start order) it launched, or -1 */
  guint32 n_kernels; /* kernels it launched (a graph launch: every node's; a copy or a sync: 0) */
} WbHostCall;

/* wb_host_call_new: (transfer full) a zeroed call (kernel -1) named @name. */
WbHostCall *wb_host_call_new (const char *name);
/* wb_host_call_copy: (transfer full) a deep copy. */
WbHostCall *wb_host_call_copy (const WbHostCall *call);
void        wb_host_call_free (WbHostCall *call);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbHostCall, wb_host_call_free)

/* WbRegionStats: one region's figures over the timed iterations of a run. */
typedef struct
{
  char   *name;         /* region name as in the stage ("TorchCompile0", "nvFusion1") */
  char   *executor;     /* executor that ran it in this run ("torchcompile", "cublas", "cpu") */
  guint32 stage_line;   /* 1-based line of the region's call in the stage; 0 when unknown */
  gint64  median_ns;    /* median over iterations, ns */
  gint64  min_ns;       /* fastest iteration, ns */
  gint64  max_ns;       /* slowest iteration, ns */
  GArray *times_ns;     /* (element-type gint64) the region's time in each timed iteration, ns */
  guint32 kernel_count; /* kernels launched per iteration */
  guint64 bytes_moved;  /* bytes read + written per iteration, counted statically from the ops */
  guint64 flops;        /* floating-point operations per iteration, counted statically */
  double  share;        /* median_ns / the run's iteration median (0..1; 0 when unknown) */
  char   *key;          /* (nullable) wb_call_key: the call's identity across re-fusion ("@t12") */
  char   *contents;     /* (nullable) wb_call_contents: what it computes, to tell a changed region */
  /* (nullable) wb_trace_get_unfused_from: the key of the region this call was a member of before the
   * assignment unfused that region ("@t12=unfuse"); NULL for regions and for calls that were never fused */
  char *unfused_from;
} WbRegionStats;

/* wb_region_stats_new: (transfer full) stats for @name on @executor (nullable) with no times yet. */
WbRegionStats *wb_region_stats_new (const char *name,
                                    const char *executor);
/* wb_region_stats_copy: (transfer full) a deep copy. */
WbRegionStats *wb_region_stats_copy (const WbRegionStats *stats);
void           wb_region_stats_free (WbRegionStats *stats);
/* wb_region_stats_add_time: appends one iteration's time (ns). */
void wb_region_stats_add_time (WbRegionStats *stats,
                               gint64         time_ns);
/* wb_region_stats_update: sets median_ns, min_ns and max_ns from times_ns (all 0 when empty). */
void wb_region_stats_update (WbRegionStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRegionStats, wb_region_stats_free)

/* WbKernelAttribution: where a run's kernel records came from and how they were joined to its regions
 * (CUPTI: by external correlation id, else by the regions' time ranges; wb-cupti.h). Times in ns, summed
 * over the timed iterations. GPU runs measured now fill it (wb_runner_profile_get_attribution); cpu runs
 * leave it empty (kernel_source NULL and zeros). Session files store it with the run (schema version 3
 * on); a run stored by an older version reads back empty. The run's CUPTI lost records are
 * WbRun.dropped_records. */
typedef struct
{
  char   *kernel_source;           /* "cupti", "CUDA events (CUPTI unavailable: REASON)", or NULL when unknown */
  gint64  kernel_ns_total;         /* every kernel's (end - start) in the timed iterations, ns */
  gint64  kernel_ns_attributed;    /* of it, attributed to a region (by correlation or by time range) */
  gint64  kernel_ns_by_time_range; /* of that, attributed by time range */
  guint32 kernels_by_correlation;  /* kernel records joined by correlation (events: seen inside the region's call) */
  guint32 kernels_by_time_range;
  guint32 kernels_unattributed;
  guint32 memcpy_count; /* memcpy records (CUPTI only) */
  guint64 memcpy_bytes;
  gint64  memcpy_ns;
  guint32 memset_count; /* memset records (CUPTI only) */
  guint64 memset_bytes;
  gint64  memset_ns;
  guint32 memops_attributed; /* memcpy + memset records attributed to a region */
} WbKernelAttribution;

/* WbRunMemory: a GPU run's device memory (the runner's static memory plan, executors/wb-memory-plan.h, and
 * its own counts) and PyTorch's for the same step where the case recorded it (meta.json "timings"). Bytes;
 * 0 unknown. Reports show it; sessions do not keep it. */
typedef struct
{
  gint64   first_run_peak_bytes;   /* the checked (first) run's peak above its start, arena included */
  guint32  allocs_per_iteration;   /* cuMemAllocAsync calls of one run after the checked one (a captured graph's) */
  gboolean plan_used;              /* the plan's arena served the run */
  gint64   plan_arena_bytes;       /* the plan's arena */
  gint64   plan_sum_bytes;         /* its buffers' sizes added up */
  gint64   plan_live_peak_bytes;   /* the most bytes of buffers live at one step (the arena's lower bound) */
  guint32  plan_buffers;           /* tensors the plan placed */
  guint32  arena_allocs;           /* tensors one run placed in the arena */
  guint32  arena_misses;           /* planned places one run could not take (bytes still in use), the most of any run */
  guint32  arena_unplaced;         /* allocations of a planned call that took no place (a miss, no place of their size) */
  gint64   torch_eager_peak_bytes; /* PyTorch eager's step peak above what was allocated before it */
  gint64   torch_compile_peak_bytes;
} WbRunMemory;

/* WbRun: one profiling run of one stage under one assignment on one device. */
typedef struct
{
  gint64     id;                /* row id in the session it was read from or stored in; 0 before */
  char      *label;             /* the user's note for the run, or NULL */
  char      *device_name;       /* "cuda:0", "cpu" */
  char      *device_model;      /* "NVIDIA H100 80GB HBM3", or the CPU model */
  char      *driver_version;    /* CUDA driver version ("580.95.05"), or NULL on cpu */
  GPtrArray *executor_versions; /* (element-type utf8) "name=version" strings, e.g. "cublaslt=13.1" */
  guint32    iters;             /* timed iterations asked for (--iters) */
  guint32    warmup;            /* warm-up iterations (--warmup) */
  gboolean   cuda_graphs;       /* the timed iterations replayed one CUDA graph (--cuda-graphs, the default) */
  gboolean   launch_list;       /* without a graph: they replayed a flat launch list (FALSE: call by call) */
  /* GPU runs: device bytes the step allocated above its inputs, at most (WbRunnerResult's); 0 unknown. Reports
   * show it; sessions do not keep it yet */
  gint64      device_step_peak_bytes;
  WbRunMemory memory;
  /* GPU runs: the median iteration with no profiler event inside it (the program's own time, as eager and
   * torch.compile are timed: one event pair per step), ns; 0 unknown. Reports show it; sessions do not keep it */
  gint64      unprofiled_median_ns;
  char       *executors;  /* the --executors option as given ("TorchCompile0=cpu,..."), or NULL */
  char       *assignment; /* name of the assignment (region -> executor set) it ran, or NULL */
  char       *stage;      /* the stage it ran ("forward_06+backward_00", a stage label), or NULL */
  WbRunStatus status;
  char       *error;           /* why it failed (status FAILED), or NULL */
  gint64      start_time_us;   /* when the run started, Unix time in microseconds */
  GArray     *iteration_ns;    /* (element-type gint64) wall time of each timed iteration, ns */
  guint64     dropped_records; /* activity records the profiler lost (buffer overflow), 0 normally */
  GPtrArray  *regions;         /* (element-type WbRegionStats) (owned) in execution order */
  GPtrArray  *kernels;         /* (element-type WbKernelRecord) (owned) in start order */
  /* (element-type WbHostCall) (owned) in start order: the host's CUDA API calls of a GPU run's traced
   * iterations (empty for cpu runs, runs without CUPTI's API records, and runs stored before schema 7) */
  GPtrArray          *host_calls;
  WbKernelAttribution attribution; /* (owned strings) GPU runs; see above */
  /* Multi-GPU runs (DDP, FSDP, DTensor): one WbRun per rank, the ranks of one host in one group. A run that
   * is not distributed leaves all four at 0/NULL (its checksum is then what it was before they existed). */
  guint32 rank;       /* this run's rank in a multi-GPU run (0 otherwise) */
  guint32 world_size; /* ranks in the run; 0 or 1: not distributed */
  /* host CLOCK_MONOTONIC time (ns) of the run's clock 0 (kernel start_ns are on the run's clock); 0 unknown.
   * Ranks of one host share CLOCK_MONOTONIC, so clock_origin_ns + start_ns aligns their kernels */
  gint64 clock_origin_ns;
  char  *group; /* (nullable) id shared by the runs of the ranks of one multi-GPU run (e.g. a uuid) */
} WbRun;

/* wb_kernel_attribution_is_empty: TRUE when @attribution holds nothing: kernel_source NULL and every
 * figure 0 (a cpu run, or a run stored before sessions kept attribution). */
gboolean wb_kernel_attribution_is_empty (const WbKernelAttribution *attribution);
/* wb_kernel_attribution_clear: frees kernel_source and zeroes every field. */
void wb_kernel_attribution_clear (WbKernelAttribution *attribution);

/* wb_run_new: (transfer full) an empty run: status OK, start time now, no iterations. */
WbRun *wb_run_new (void);
/* wb_run_copy: (transfer full) a deep copy (regions and kernels included). */
WbRun *wb_run_copy (const WbRun *run);
void   wb_run_free (WbRun *run);
/* wb_run_add_iteration: appends one timed iteration's wall time (ns). */
void wb_run_add_iteration (WbRun *run,
                           gint64 time_ns);
/* wb_run_add_region: appends @stats (transfer full). */
void wb_run_add_region (WbRun         *run,
                        WbRegionStats *stats);
/* wb_run_add_kernel: appends @record (transfer full). */
void wb_run_add_kernel (WbRun          *run,
                        WbKernelRecord *record);
/* wb_run_add_host_call: appends @call (transfer full). */
void wb_run_add_host_call (WbRun      *run,
                           WbHostCall *call);
/* wb_run_link_host_calls: sets each host call's kernel and n_kernels by correlation id with the run's
 * kernels (call and kernel in the same iteration with the same non-zero id). O(calls + kernels). Call again
 * after the kernels change. */
void wb_run_link_host_calls (WbRun *run);
/* wb_run_find_host_call: an index into host_calls (start order) before which no call ends at or after
 * @from_ns (the first call starting at or after @from_ns - @max_ns), for culling to a visible range;
 * host_calls->len when none. O(log n). @max_ns: the longest call (wb_run_get_host_call_max_ns). */
guint wb_run_find_host_call (const WbRun *run,
                             gint64       from_ns,
                             gint64       max_ns);
/* wb_run_get_host_call_max_ns: the longest host call's duration, ns (0 without any). */
gint64 wb_run_get_host_call_max_ns (const WbRun *run);
/* wb_run_add_executor_version: appends "name=version". */
void wb_run_add_executor_version (WbRun      *run,
                                  const char *name,
                                  const char *version);
/* wb_run_find_region_by_key: (transfer none) the region whose key (WbRegionStats.key) is @key, or NULL. */
WbRegionStats *wb_run_find_region_by_key (const WbRun *run,
                                          const char  *key);
/* wb_run_has_keys: whether @run's regions carry keys (runs read from a session file do not). */
gboolean wb_run_has_keys (const WbRun *run);
/* wb_run_find_region: (transfer none) the region named @name, or NULL. */
WbRegionStats *wb_run_find_region (const WbRun *run,
                                   const char  *name);
/* wb_run_get_iteration_median_ns: median of iteration_ns (ns); 0 when there is none. */
gint64 wb_run_get_iteration_median_ns (const WbRun *run);
/* What a checksum covers: the run with its regions and its attribution (everything but @id and the
 * kernels), or the kernels (and the host calls: nothing added when there are none). An empty attribution
 * (wb_kernel_attribution_is_empty) adds nothing, so the summary checksum of a run without one is what versions before attribution computed; likewise the
 * multi-GPU fields (rank, world_size, clock_origin_ns, group) add nothing when all are 0/NULL. */
typedef enum
{
  WB_RUN_CHECKSUM_SUMMARY = 1,
  WB_RUN_CHECKSUM_KERNELS,
} WbRunChecksumPart;

/* wb_run_compute_checksum: (transfer full) lowercase hex SHA-256 over @part of @run's fields in a fixed
 * order; runs with equal content have equal checksums. The session stores both parts and checks them when
 * it reads the run back (the summary alone when the kernels are not read). */
char *wb_run_compute_checksum (const WbRun      *run,
                               WbRunChecksumPart part);
/* wb_run_equal: TRUE when @a and @b hold the same content (every field but @id, attribution included). */
gboolean wb_run_equal (const WbRun *a,
                       const WbRun *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRun, wb_run_free)

/* WbDeviceCeilings: what one device model can do at best, measured once and cached in the session. */
typedef struct
{
  char  *device_model;   /* "NVIDIA H100 80GB HBM3" */
  double copy_gbps;      /* device-to-device copy bandwidth, GB/s (10^9 bytes/s) */
  double bf16_tflops;    /* large bf16 matmul rate, TFLOP/s */
  gint64 measured_at_us; /* when, Unix time in microseconds */
} WbDeviceCeilings;

/* wb_device_ceilings_new: (transfer full) ceilings of @device_model measured now. */
WbDeviceCeilings *wb_device_ceilings_new (const char *device_model,
                                          double      copy_gbps,
                                          double      bf16_tflops);
WbDeviceCeilings *wb_device_ceilings_copy (const WbDeviceCeilings *ceilings);
void              wb_device_ceilings_free (WbDeviceCeilings *ceilings);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbDeviceCeilings, wb_device_ceilings_free)

/* Order statistics over per-iteration times (ns). @times need not be sorted; they are not modified. */

/* wb_times_median_ns: the median (the mean of the two middle values, rounded down, for an even count);
 * 0 when @n is 0. */
gint64 wb_times_median_ns (const gint64 *times,
                           gsize         n);
/* wb_times_quartiles_ns: first and third quartiles by linear interpolation between closest ranks
 * (numpy's default), ns. Both 0 when @n is 0. */
void wb_times_quartiles_ns (const gint64 *times,
                            gsize         n,
                            gint64       *q1,
                            gint64       *q3);

G_END_DECLS
