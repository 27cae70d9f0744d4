/* wb-runner-main-private.h — what the GPU runner's main (wb-runner-main.c) shares with its CUDA-graphs phase
 * (wb-runner-graphs.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-cuda-toolkit.h"
#include "wb-profiler.h"
#include "wb-runner-host-trace.h"
#include "wb-runner-prof.h"

G_BEGIN_DECLS

/* The static memory plan of a run and what each run of the program allocated (wb-runner-memory.c). The plan
 * is on unless the request's `memory_plan` is false or WB_MEMORY_PLAN=0. It is made before the checked run
 * and its arena allocated after it (_wb_runner_memory_arm): the checked run takes every tensor from the
 * pool, so its results, which the runner keeps to compare with the later runs' and graph replays' and to
 * send back, never hold a place of the arena that a later run or a replay writes. */
typedef struct
{
  WbCudaRuntime *rt;
  WbMemoryPlan  *plan; /* (nullable) off, or nothing to place */
  char          *note; /* (nullable) why the plan is off */
  /* a run between _wb_runner_memory_begin and _end */
  WbCudaRuntimeStats at_start;
  /* the checked (first) run's and the most of any later run's: peak bytes above the run's start (the pool's
   * path; the arena's bytes added when sent), cuMemAllocAsync calls, tensors placed in the arena, misses */
  gint64   first_peak, peak, first_arena;
  guint    first_allocs, allocs, arena_allocs, arena_misses, arena_unplaced;
  gboolean later; /* a run after the checked one was measured */
} WbRunnerMemory;

void _wb_runner_memory_prepare (WbRunnerMemory *m, WbCudaRuntime *rt, WbProgram *program, gboolean want);
/* _wb_runner_memory_arm: after the checked run, the plan's arena (a failure leaves the plan off, noted) */
void _wb_runner_memory_arm (WbRunnerMemory *m);
void _wb_runner_memory_clear (WbRunnerMemory *m);
/* around a top-level call (the runner's call hooks): its planned places, then none */
void _wb_runner_memory_call (WbRunnerMemory *m, const WbBsym *call);
void _wb_runner_memory_call_done (WbRunnerMemory *m);
/* around one run of the program (checked, warm-up, capture or timed; a graph replay allocates nothing) */
void _wb_runner_memory_begin (WbRunnerMemory *m);
void _wb_runner_memory_end (WbRunnerMemory *m, gboolean checked);
/* the RESULT's memory keys (wb-runner.h, WbRunnerResult) */
void _wb_runner_memory_add_result (WbRunnerMemory *m, GVariantBuilder *b);

/* Where a run's wall time went before its RESULT, in ms: the RESULT's stats key "setup_ms" a{sd}
 * (wb-runner-stats.c). "start" (the runner's main to its probe's reply: the CUDA context, the libraries) is
 * in the first run of a runner only; a runner that serves several runs pays it once. */
typedef enum
{
  WB_RUNNER_SETUP_PARSE,   /* the request's memfd, the traces parsed, the program built */
  WB_RUNNER_SETUP_PREPARE, /* executors assigned, arguments uploaded, the regions' kernels ready (compiled or cached) */
  WB_RUNNER_SETUP_CHECKED, /* the checked first run */
  WB_RUNNER_SETUP_CAPTURE, /* the CUDA graph's capture and instantiation */
  WB_RUNNER_SETUP_RUNS,    /* warm-up, unprofiled, timed and traced runs */
  WB_RUNNER_N_SETUP_PHASES
} WbRunnerSetupPhase;

typedef struct
{
  gint64   start_ns, ready_ns, mark_ns; /* g_get_monotonic_time () * 1000 */
  gboolean start_reported;
  double   ms[WB_RUNNER_N_SETUP_PHASES];
} WbRunnerPhases;

/* _wb_runner_phases_begin: a RUN begins now (the phases' times cleared). _wb_runner_phases_mark: the time since
 * the last mark goes to @phase; always TRUE (chained between the run's steps). _wb_runner_phases_variant: the
 * "setup_ms" value (floating a{sd}: start, when not yet reported, and one key per phase). */
void      _wb_runner_phases_begin (WbRunnerPhases *p);
gboolean  _wb_runner_phases_mark (WbRunnerPhases *p, WbRunnerSetupPhase phase);
GVariant *_wb_runner_phases_variant (WbRunnerPhases *p);

typedef struct
{
  GOutputStream *out;
  WbRunnerMemory mem;
  WbRunnerPhases phases;
  gboolean       announce;
  char          *last_region;
  WbRunnerProf  *prof;       /* (nullable) a profiled run */
  const char    *call;       /* (nullable) the top-level call running now: a failed graph capture names it */
  WbHostTrace   *host_trace; /* (nullable) WB_CUDA_HOST_TRACE=1 (wb-runner-host-trace.h) */
  /* the rate limit of the iterations' PROGRESS messages, every phase of a run (wb-runner-protocol.h) */
  WbRunnerProgressLimit limit;
  /* tensor bytes through memfds, both ways, when the caller handed a socket (wb-runner-shm.h) */
  WbRunnerShmChannel shm;
} Runner;

/* The request's executor choices (wb-runner-inputs.c): _wb_runner_assign_choices applies "assign" a{ss} (a region
 * key "@t12" or a printed name -> executor), _wb_runner_assign_calls "calls" a{us} (call ordinal -> executor, `bisect`),
 * which beat the choices by name. FALSE with WB_EXECUTOR_ERROR (UNSUPPORTED: no region has the key; BAD_ARGUMENT:
 * no such call) or the executor lookup's error. */
gboolean _wb_runner_assign_choices (WbProgram *program, GVariant *assign, GError **error);
gboolean _wb_runner_assign_calls (WbProgram *program, GVariant *calls, GError **error);

/* The checked run's host time per top-level call (wb-runner-stats.c): from call_started to call_done, every kernel
 * synchronised, so what a call does once (a module's first load, cuDNN's graph, cuBLASLt's heuristic, a
 * workspace) shows. _wb_runner_calls_reset before the checked run, _wb_runner_calls_started and _done around each
 * call (not nested: top-level calls only); the RESULT's stats key "checked_calls" a(sdud): the five slowest
 * symbols (a fusion region counts as "fusion regions") with their total ms, calls and the slowest call's ms. */
void _wb_runner_calls_reset (void);
void _wb_runner_calls_started (void);
void _wb_runner_calls_done (const WbBsym *bsym);

/* The RESULT's "stats" and the call checks (wb-runner-stats.c). _wb_runner_stats_reset: forgets the last run's
 * checked call. _wb_runner_stats_precompile: the program's generated kernels compiled on every core before the
 * checked run (wb_cuda_executors_precompile), its figures kept for the stats. _wb_runner_checks_setup: @options'
 * call checks as the request asks (check_call u: `bisect`'s one call; check_all b: coverage's every call),
 * against the runner's cpu executor; the check_done hook reads observer_data as the Runner. _wb_runner_stats_variant:
 * (transfer floating) the a{sv} of what ran where after the checked run (@retries: runs retried after a fault).
 * _wb_runner_stats_with_streams: (transfer floating) @stats with the second stream's use ("side_calls",
 * "side_joins", "side_note") in the last run that was not a graph replay, and @setup_ms (floating, nullable: the
 * phases' "setup_ms"). */
void      _wb_runner_stats_reset (void);
void      _wb_runner_stats_precompile (WbCudaRuntime *rt, WbProgram *program);
void      _wb_runner_checks_setup (GVariant *req, WbProgram *program, WbRunOptions *options);
GVariant *_wb_runner_stats_variant (guint retries);
GVariant *_wb_runner_stats_with_streams (GVariant *stats, guint side_calls, guint side_joins, const char *side_note, GVariant *setup_ms);

/* CUDA graphs (RUN with `cuda_graphs`, wb-runner-graphs.c).
 * After the warm-up runs (plans compiled, cuBLASLt's workspace allocated) the program, forward and
 * backward, is captured once as a CUDA graph (wb-cuda-graph.h), replayed once untimed, and replayed for
 * each timed iteration. With `profile` the plain phase (wb-runner-prof.h) replays a first capture made
 * without the entries' events, which is then freed; the timed iterations' capture is a profiled iteration:
 * its CUDA events become event-record nodes, every replay records them again and is read like any timed
 * iteration (entry times; CUPTI's kernels, whose correlation ids are the graph launch's, are attributed by
 * the entries' time ranges). If those events give no times the iterations are timed as a whole by events
 * around each launch.
 * Work the graph cannot hold (a cpu fallback, a synchronisation, a host read) fails the capture; the timed
 * iterations then run without a graph. Either way the result's cuda_graphs_note says what happened.
 * Without CUDA graphs (the request's cuda_graphs false) the same phase records a flat launch list instead
 * (wb_cuda_graph_record_list: the program runs twice, to size and then to record), replayed the same way, so
 * that the timed iterations do no interpreter work either; WB_LAUNCH_LIST=0, a multi-GPU run (its collectives
 * are not recorded) or a refusal leave them to the interpreter, and the note says which. */

/* Inputs the program writes in place, found after the checked run and copied back before every later run
 * (wb-runner-inputs.c) */
typedef struct
{
  GPtrArray *dst, *src; /* (element-type WbTensor) the arguments written, their pristine device copies */
  gint64     bytes;     /* copied back before each run */
} WbWrittenInputs;

typedef struct
{
  Runner                *r;
  WbCudaRuntime         *rt;
  WbProgram             *program;
  WbRunOptions          *options;
  GPtrArray             *args, *cots;
  const WbWrittenInputs *written;     /* copied back before each run of the body that executes (a launch list's) and the first replay */
  WbRunResult           *result;      /* the captured run's values: graph memory that holds each replay's results */
  WbCudaGraph           *graph;       /* NULL when not captured */
  gboolean               regions;     /* the entries' events work inside the graph */
  guint                  plain_nodes; /* nodes of the profiled program's first graph, without the entries' events (0: none) */
  gboolean               used;        /* the timed iterations were replays */
  gboolean               list;        /* record a flat launch list instead of capturing a graph (CUDA graphs off) */
  char                  *note;
} Graphs;

/* the capture of the program's run once the warm-up runs are done, its replay, the plain phase's first graph
 * dropped, and the result's note (wb-runner-graphs.c) */
gboolean _wb_runner_graphs_capture (Graphs *g, WbCudaRuntime *rt, guint iters, GError **error);
gboolean _wb_runner_graphs_replay (Graphs *g, WbCudaRuntime *rt, GError **error);
void     _wb_runner_graphs_drop_plain (Graphs *g);
void     _wb_runner_graphs_finish (Graphs *g, WbCudaRuntime *rt, WbRunResult *checked, guint iters);

gboolean _wb_runner_find_written_inputs (WbCudaRuntime *rt, GPtrArray *args, GPtrArray *host_args, WbWrittenInputs *w, GError **error);
gboolean _wb_runner_restore_inputs (WbCudaRuntime *rt, const WbWrittenInputs *w, GError **error);
void     _wb_runner_written_inputs_clear (WbWrittenInputs *w);

/* _wb_runner_same_as_checked: (transfer full) how @run's outputs and gradients compare, bit for bit, with the
 * checked run's: a phrase for a note about @subject, @checked_how (nullable) saying what the checked run was */
char *_wb_runner_same_as_checked (WbCudaRuntime *rt, WbRunResult *run, WbRunResult *checked, const char *subject, const char *checked_how);

G_END_DECLS

/* wb-runner-nccl.c: a multi-GPU run's part (NCCL_ID, joining the group from a RUN request, statistics) */
void     _wb_runner_handle_nccl_id (GOutputStream *out);
gboolean _wb_runner_join_group (WbCudaRuntime *rt, GVariant *req, GError **error);
void     _wb_runner_nccl_stats (GVariantBuilder *b);
/* wb-runner-inputs.c: device copies of @values, host copies of them (transfer full); NULL with the error */
GPtrArray *_wb_runner_upload_all (WbCudaRuntime *rt, GPtrArray *values, GError **error);
GPtrArray *_wb_runner_download_all (WbCudaRuntime *rt, GPtrArray *values, GError **error);
