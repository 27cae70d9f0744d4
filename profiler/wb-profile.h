/* wb-profile.h — profiling a program: warm-up, timed iterations, per-region times and kernel records (WbProfile)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is timed (cpu). Every top-level CALL of the program's traces runs between two marks on
 * CLOCK_MONOTONIC: the executors' call_started hook (WbRunOptions, before its arguments are evaluated)
 * and the run observer (after it ran and bound its outputs). Builds whose executors lack the hook
 * (WB_RUN_OPTIONS_HAS_CALL_STARTED undefined) start each call at the end of the previous top-level call
 * instead, which moves the interpreter's bookkeeping between calls from the gap into the next call.
 *
 * Entries (the rows of a report, WbRegionStats of the run): every fusion region call (wb_bsym_is_fusion)
 * under its printed name ("TorchCompile0"), and every other top-level CALL that is not utility
 * (wb_executor_info_is_utility: unpacking, collections, del, return) under its printed name, with "#2",
 * "#3", ... for later calls of the same name in the program (forward first, then backward). Utility calls
 * are not entries: their time is part of the gap.
 *
 * Per timed iteration: each entry's time; the whole iteration, which is the wall time of one
 * wb_program_run (forward and backward); gap = iteration - the sum of the entries' times in it (the
 * interpreter between calls, utility calls, releasing tensors, the hooks themselves). The entries' times
 * are disjoint intervals inside the iteration, so the gap is never negative.
 *
 * Kernel records (cpu): one per execution of an entry in a timed iteration: name = the printed call name,
 * region = the entry, trace_line = its stage line, stream 0, start/end in ns since the first timed
 * iteration began, iteration = 0-based timed iteration.
 *
 * Stage lines: the stage is the forward trace as printed followed by the backward trace (training); a line
 * of the backward counts on from the forward's last line. wb_profile_dup_stage_text() is that text.
 *
 * Static figures per entry (WbRegionStats.bytes_moved, flops): wb-cost.h on the entry's call.
 *
 * Cotangents (training): drawn from the seed by the first run (warm-up, or the first timed iteration
 * when --warmup is 0) unless given, then reused, so later iterations do not time drawing them.
 *
 * Test-only knob: the environment variable WB_TEST_SLOW_REGION=NAME:MS makes every execution of entry NAME
 * take MS milliseconds longer (a sleep inside its timed interval). The regression-gate tests use it to
 * force one region slower; it is not for anything else.
 *
 * Threads: a WbProfile is used from one thread. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-executors.h"
#include "wb-run.h"

G_BEGIN_DECLS

#define WB_PROFILE_ERROR (wb_profile_error_quark ())
GQuark wb_profile_error_quark (void);

/* Errors of WB_PROFILE_ERROR. */
typedef enum
{
  WB_PROFILE_ERROR_UNKNOWN_REGION = 1, /* --executors names no region or top-level call of the program */
  WB_PROFILE_ERROR_UNKNOWN_EXECUTOR,   /* an executor name that does not exist, or one of Thunder's */
  WB_PROFILE_ERROR_UNAVAILABLE,        /* an executor or device this build or machine cannot run (CUDA) */
  WB_PROFILE_ERROR_BAD_OPTION,         /* an option that does not parse or is out of range */
} WbProfileError;

/* The environment variable of the test-only slow-down knob (see above). */
#define WB_TEST_SLOW_REGION_ENV "WB_TEST_SLOW_REGION"

/* The phases of a profile, in the order they run. The cpu runs WARMUP and TIMED; the GPU runner all of them
 * (UNPROFILED and TRACED when it profiles, TRACED only when CUPTI traces). */
typedef enum
{
  WB_PROFILE_PHASE_CHECKED = 1, /* the GPU's checked run: @done of @total is its top-level calls */
  WB_PROFILE_PHASE_WARMUP,      /* untimed warm-up iterations */
  WB_PROFILE_PHASE_UNPROFILED,  /* the GPU's plain iterations (no event inside them): the program's own time */
  WB_PROFILE_PHASE_TIMED,       /* the timed iterations: the run's statistics */
  WB_PROFILE_PHASE_TRACED,      /* the GPU's iterations under CUPTI: the kernel records */
} WbProfilePhase;

/* wb_profile_phase_to_string: (transfer none) the phase's name for a terminal, untranslated: "checked run",
 * "warm-up", "unprofiled", "iteration" (timed), "traced". */
const char *wb_profile_phase_to_string (WbProfilePhase phase);

/* WbProfileProgressFunc: @done of @total in @phase (iterations; the checked run's calls), @iteration_ns the
 * last iteration's time (0: unknown). On the cpu after every iteration; from the GPU runner at most every
 * WB_RUNNER_PROGRESS_INTERVAL_US and after the last iteration of each phase, so @done may skip. Called on
 * the thread that runs the profile. */
typedef void (*WbProfileProgressFunc) (WbProfilePhase phase,
                                       guint          done,
                                       guint          total,
                                       gint64         iteration_ns,
                                       gpointer       user_data);

typedef struct
{
  guint                 iters;        /* timed iterations (>= 1; default 20) */
  guint                 warmup;       /* untimed iterations before them (default 3) */
  guint64               seed;         /* Philox seed of the run (random ops, drawn cotangents) */
  gboolean              check_shapes; /* check every annotated output (slower; off by default) */
  WbParameterLookup     parameters;   /* (nullable) for prologue programs */
  gpointer              parameters_data;
  WbProfileProgressFunc progress; /* (nullable) */
  gpointer              progress_data;
  gboolean              cuda_graphs; /* GPU runner only: replay the timed iterations as one CUDA graph (default; --no-cuda-graphs) */
  gboolean              memory_plan; /* GPU runner only: the static memory plan's arena (--memory-plan; off by default) */
  /* GPU runner only: let calls no GPU path takes run on the cpu (--allow-cpu-fallback); without it such a call
   * fails the run naming the op (WB_EXECUTOR_ERROR_CPU_FALLBACK) */
  gboolean allow_cpu_fallback;
  /* GPU runner only: f32 convolutions may use TF32 tensor cores, as PyTorch's default (--allow-tf32) */
  gboolean allow_tf32;
  /* GPU runner only: each generated plan's variants timed on the device at its first launch, the fastest kept
   * and stored beside the kernel cache (--autotune; wb_cuda_executors_set_autotune) */
  gboolean autotune;
  /* (nullable) the cpu run stops before the next top-level call once it is cancelled (G_IO_ERROR_CANCELLED);
   * the job passes its own (wb_profile_job_set_cancellable) */
  GCancellable *cancellable;
} WbProfileOptions;

/* wb_profile_options_init: 20 timed iterations, 3 warm-up, seed 0, no checks, no callbacks; on the GPU the
 * timed iterations are replays of a CUDA graph (cuda_graphs TRUE: ignored on the cpu) and the runs after the
 * checked one place their tensors by the static memory plan (memory_plan TRUE). */
void wb_profile_options_init (WbProfileOptions *options);

/* wb_cuda_is_available: whether `--device cuda` may run here: this build has the GPU runner
 * (thunder-wb-runner, wb-runner.h) and the machine has an NVIDIA driver node (/dev/nvidiactl); FALSE with
 * the reason in *@why (transfer full, nullable). Whether CUDA really works is the runner's probe. */
gboolean wb_cuda_is_available (char **why);

typedef struct _WbProfile WbProfile;

/* wb_profile_new: (transfer full) a profiler of @program (referenced), whose stage is called @stage_name
 * ("forward_06+backward_00"; nullable). Finds the entries and counts their static figures. */
WbProfile *wb_profile_new (WbProgram  *program,
                           const char *stage_name);
void       wb_profile_free (WbProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbProfile, wb_profile_free)

/* wb_profile_set_assignment: applies @assignment (referenced, kept unchanged; see wb-assignment.h): a
 * key is a region's key ("@t12"), a region's name or the printed name of top-level calls
 * ("TorchCompile0", "prims.linear"). Checked whole before anything is applied; replaces an earlier
 * assignment. Errors: UNKNOWN_REGION, UNKNOWN_EXECUTOR, UNAVAILABLE (a CUDA executor); each names the
 * offending word. */
gboolean wb_profile_set_assignment (WbProfile          *profile,
                                    const WbAssignment *assignment,
                                    GError            **error);
/* wb_profile_set_executors: wb_profile_set_assignment of "KEY=EXECUTOR,..." (the --executors option) as
 * parsed by wb_assignment_parse; BAD_OPTION when it does not parse. */
gboolean wb_profile_set_executors (WbProfile  *profile,
                                   const char *spec,
                                   GError    **error);

/* wb_profile_set_device_cuda: the program runs in the GPU runner, not here: --executors accepts the
 * registry's runnable executors and only records them (wb_profile_get_assignment), and a region without
 * an assignment runs on @default_executor (NULL: the registry's default on CUDA,
 * wb_executor_info_get_default). Call before set_executors. */
void wb_profile_set_device_cuda (WbProfile  *profile,
                                 const char *default_executor);
/* wb_profile_get_default_executor: (transfer none) (nullable) the executor of unassigned regions in the
 * GPU runner; NULL unless wb_profile_set_device_cuda was called. */
const char *wb_profile_get_default_executor (const WbProfile *profile);
/* wb_profile_get_assignment: (transfer none) (nullable) the assignment applied, as it was given. */
const WbAssignment *wb_profile_get_assignment (const WbProfile *profile);
/* wb_profile_dup_assignment_by_name: (transfer full) (nullable) the assignment applied with each key
 * replaced by the printed name it resolved to in the profile's program, in the same order; NULL without
 * one. The GPU runner gets it: it parses the traces again, and the keys a pipeline gave its regions
 * (wb_trace_get_call_key) do not travel with their text. */
WbAssignment *wb_profile_dup_assignment_by_name (const WbProfile *profile);
/* wb_profile_find_entry: the index of the entry @bsym (a top-level call of the profile's program) is, or -1. */
int wb_profile_find_entry (const WbProfile *profile,
                           const WbBsym    *bsym);

/* WbProfileDeviceTimes: what the GPU runner measured (CUDA events) for wb_profile_build_run. */
typedef struct
{
  const char   *device_name;    /* "cuda:0" */
  const char   *device_model;   /* "NVIDIA H100 80GB HBM3" */
  const char   *driver_version; /* (nullable) "13.0" */
  gboolean      cuda_graphs;
  gboolean      launch_list;  /* no graph: a flat launch list replayed the timed iterations */
  const gint64 *iteration_ns; /* [n_iters] */
  guint         n_iters;
  const gint64 *entry_ns;        /* [n_iters * n_entries], one row per iteration, entries in profile order */
  GPtrArray    *kernels;         /* (element-type WbKernelRecord) (transfer none, copied): region = entry name */
  guint64       dropped_records; /* activity records lost (CUPTI), 0 without */
  GPtrArray    *host_calls;      /* (nullable) (element-type WbHostCall) (transfer none, copied): on the kernels' clock */
} WbProfileDeviceTimes;

/* wb_profile_build_run: (transfer full) the WbRun the cpu profiler would build from these times: one
 * WbRegionStats per entry (kernel_count = the entry's kernels per iteration), the kernels, the iterations;
 * and the host calls, joined to the kernels (wb_run_link_host_calls). */
WbRun *wb_profile_build_run (WbProfile                  *profile,
                             const WbProfileOptions     *options,
                             const WbProfileDeviceTimes *times);

/* The entries, in execution order. (transfer none) */
guint       wb_profile_get_n_entries (const WbProfile *profile);
const char *wb_profile_get_entry_name (const WbProfile *profile,
                                       guint            i);
/* wb_profile_get_entry_is_region: TRUE for a fusion region, FALSE for any other call. */
gboolean wb_profile_get_entry_is_region (const WbProfile *profile,
                                         guint            i);
/* wb_profile_get_stage_name: (transfer none) (nullable) */
const char *wb_profile_get_stage_name (const WbProfile *profile);
/* wb_profile_dup_stage_text: (transfer full) the forward trace printed, then the backward (see above). */
char *wb_profile_dup_stage_text (const WbProfile *profile);

/* wb_profile_estimate_ops: (transfer full) (element-type WbOpEstimate) wb_op_estimates_compute over the profile's
 * forward and backward traces (stage lines as above) for @run, a run of this profile, with @ceilings (nullable). */
GPtrArray *wb_profile_estimate_ops (const WbProfile        *profile,
                                    const WbRun            *run,
                                    const WbDeviceCeilings *ceilings);

/* wb_profile_run: runs @args (element-type WbRtValue; wb_case_make_args) @options->warmup times untimed
 * and @options->iters times timed, on the cpu. @cotangents (nullable) as for wb_program_run().
 * Returns (transfer full) the run: device, options, per-iteration times, one WbRegionStats per entry and
 * the kernel records. When an iteration fails, returns NULL with the executor's error (WB_EXECUTOR_ERROR,
 * naming FILE:LINE) set and, when @failed_run is not NULL, stores there (transfer full) a run with status
 * FAILED holding what was measured before and the message. */
WbRun *wb_profile_run (WbProfile              *profile,
                       GPtrArray              *args,
                       GPtrArray              *cotangents,
                       const WbProfileOptions *options,
                       WbRun                 **failed_run,
                       GError                **error);

/* wb_profile_time_unprofiled: the same warm-up and iterations with no hook, observer or record: appends
 * each timed iteration's wall time (ns) to @iteration_ns (element-type gint64). For the overhead benchmark. */
gboolean wb_profile_time_unprofiled (WbProfile              *profile,
                                     GPtrArray              *args,
                                     GPtrArray              *cotangents,
                                     const WbProfileOptions *options,
                                     GArray                 *iteration_ns,
                                     GError                **error);

G_END_DECLS
