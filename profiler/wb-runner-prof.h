/* wb-runner-prof.h — profiling inside thunder-wb-runner (private to the runner executable)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner's side of `profile --device cuda`: CUDA events around iterations and entries, CUPTI's records
 * (wb-cupti.h) attributed to entries, the result's profile dictionary; and the device ceilings. Everything
 * here runs on the runner's one thread; times are ns. */
#pragma once

#include "wb-cuda-toolkit.h"
#include "wb-profiler.h"

/* -- profiling (RUN with `profile`): CUPTI activity records, CUDA events ---------------------------
 * In a profiled timed iteration CUDA events are recorded on the run's stream at the iteration's start and
 * end and before and after every top-level call that is a profile entry (wb-profile.h's rules, on the
 * runner's own copy of the program); after the iteration's synchronisation they are read relative to the
 * iteration's start event and reused. Kernels come from CUPTI (wb-cupti.h) when it can trace: an external
 * correlation id (iteration, entry) is pushed around each entry's call, and after each timed iteration's
 * synchronisation the buffers are flushed and every kernel, memcpy and memset record is attributed by
 * correlation, else by the entries' time ranges (CUPTI's clock is CLOCK_MONOTONIC; an entry's range is its
 * events' offsets from the iteration's start event added to the host time the start event was recorded at,
 * the stream being idle then). Without CUPTI (WB_PROFILE_CUPTI=0, libcupti missing, tracing refused) a
 * pair of events around every kernel launch gives the kernel records instead (the runtime's launch hook;
 * cuBLASLt calls count as one "cublasLt matmul"), and the profile says why. Before the timed iterations a
 * plain phase runs as many with events only at the iteration's start and end: the entry events cost every
 * iteration some time (host calls; in a CUDA graph a node and a dependency each, 2-9% of a 1 ms iteration on
 * an H200), and the plain iterations' times (unprofiled_iter_ns) say how much. */

typedef struct
{
  const char *name; /* interned */
  int         entry;
  guint       grid[3], block[3];
  guint       ev_start, ev_end; /* indexes into the event pool */
} Launch;

typedef struct
{
  WbCudaRuntime *rt;
  const WbCuApi *cu;
  WbProfile     *profile; /* entries of the runner's program */
  gboolean       on;      /* recording this iteration */
  GArray        *events;  /* (element-type CUevent) the pool */
  guint          used;
  guint          ev_iter_start, ev_iter_end;
  int            entry;     /* the entry running now, or -1 */
  guint          entry_ev;  /* its start event */
  GArray        *entry_evs; /* (element-type guint) pairs: entry, start, end ... as triples */
  GArray        *launches;  /* (element-type Launch) this iteration (events mode) */
  gboolean       failed;
  char          *fail_msg; /* (nullable) why, when not a CUDA event call */
  /* CUPTI (NULL: events mode, for the reason in cupti_reason) */
  WbCupti       *cupti;
  char          *cupti_reason;
  gint64         iter_host_ns; /* CLOCK_MONOTONIC when the iteration's start event was recorded */
  GArray        *acts;         /* (element-type WbCuptiActivity) this iteration's records */
  GHashTable    *corr;         /* correlation id -> external id, this iteration */
  WbCuptiSummary summary;      /* over the timed iterations */
  guint64        dropped;
  /* two phases (CUPTI only): the timed iterations run with CUPTI paused (their times are the statistics),
   * then as many traced iterations with CUPTI on give the kernel records */
  gboolean tracing;           /* the traced phase has begun */
  guint    it;                /* this iteration's index in its phase */
  guint    n_traced;          /* traced iterations done */
  GArray  *traced_iter_ns;    /* gint64: GPU time of each traced iteration */
  GArray  *traced_iter_start; /* gint64: each traced iteration's start, host clock after the first timed one's */
  /* the plain phase (first, `plain` TRUE): as many iterations as the timed ones, with no event but the
   * iteration's start and end (no entry events, no launch events), so their times are the program's without
   * the profiler's per-entry events (in a CUDA graph: event-record nodes, a dependency each) */
  gboolean plain;
  GArray  *unprofiled_iter_ns; /* gint64: GPU time of each plain iteration */
  /* results over the timed iterations */
  GArray         *iter_ns;    /* gint64 */
  GArray         *iter_start; /* gint64: iteration start relative to the first one's (host clock) */
  GArray         *entry_ns;   /* gint64 [iters * n_entries] */
  GVariantBuilder kernels;    /* a(siuuuuuuxxuuuuty), see wb_runner_prof_variant */
  /* the host's CUDA API calls of the traced iterations (CUPTI's API records; RECORDS and FINE_GRAINED
   * correlation only): those that started inside an iteration, from its start event's host time to the end
   * of its synchronisation; at most WB_RUNNER_MAX_HOST_CALLS, the rest counted */
  GArray *api_calls;                   /* (element-type WbCuptiApiCall) scratch */
  gint64  iter_end_host_ns;            /* CLOCK_MONOTONIC when the iteration's synchronisation returned */
  gint64  iter_begin_host_ns;          /* CLOCK_MONOTONIC when the iteration's host work began: before a graph
                                          replay's cuGraphLaunch, which iter_host_ns (the graph's first node) is
                                          after; host calls from here to iter_end_host_ns are the iteration's */
  GVariantBuilder host_calls;          /* a(sxxuut), see wb_runner_prof_variant */
  guint           n_host_calls;        /* in host_calls */
  guint64         host_calls_over_cap; /* beyond the cap (ours and wb-cupti's) */
  gint64          origin_us;
} WbRunnerProf;

/* Records the next pool event on the run's stream (an event-record node while capturing a graph); returns its
 * index in @p->events. On a CUDA error sets @p->failed and returns 0. */
guint wb_runner_prof_record (WbRunnerProf *p);

/* Starts a timed iteration: its start event and host time (CLOCK_MONOTONIC ns); the first one also drops the
 * records the checked and warm-up runs left in CUPTI's buffers. */
void wb_runner_prof_begin_iteration (WbRunnerProf *p);

/* ns between pool events @a and @b (both completed); sets @p->failed on a CUDA error. */
gint64 wb_runner_prof_elapsed_ns (WbRunnerProf *p, guint a, guint b);

/* After the stream was synchronised: the iteration's and its entries' times (ns, CUDA events) and its kernel
 * records (CUPTI's, attributed; or the launch events'). */
void wb_runner_prof_end_iteration (WbRunnerProf *p);

/* The interpreter's call_started hook: an entry (wb-profile.h) starts: its start event and external id. */
void wb_runner_prof_call_started (WbRunnerProf *p, const WbBsym *bsym);

/* The interpreter's observer: the entry that started ends: its end event; the external id is popped. */
void wb_runner_prof_call_done (WbRunnerProf *p, const WbBsym *bsym);

/* A profiler for @program's timed iterations on @rt: CUPTI when it can trace (else CUDA events around every
 * launch, the reason kept for the report). Never fails. (transfer full): free with wb_runner_prof_free(). */
WbRunnerProf *wb_runner_prof_new (WbCudaRuntime *rt, WbProgram *program);

/* Stops CUPTI, destroys the events. NULL is allowed. */
void wb_runner_prof_free (WbRunnerProf *p);

/* Ends the plain phase: the next iterations are the timed ones, with events around every entry. */
void wb_runner_prof_end_plain_phase (WbRunnerProf *p);

/* Notes the host time an iteration starts at (timed: iter_start, traced: traced_iter_start; nothing for a
 * plain one), ns after the first timed iteration's start. */
void wb_runner_prof_note_start (WbRunnerProf *p);
/* TRUE when kernel records need a traced phase after the timed iterations (CUPTI traces; in CUDA-event mode
 * the timed iterations record their launches themselves). */
gboolean wb_runner_prof_wants_traced_phase (WbRunnerProf *p);
/* Before the first traced iteration: CUPTI on again, what it held dropped. Errors: WB_CUPTI_ERROR. */
gboolean wb_runner_prof_begin_traced_phase (WbRunnerProf *p,
                                            GError      **error);

/* The profile a{sv} of the result message (wb-runner.h documents it). (transfer floating) */
GVariant *wb_runner_prof_variant (WbRunnerProf *p);

/* The device's ceilings: device-to-device copy bandwidth (@copy_gbps, bytes read + written per s / 1e9, best
 * of 20 copies of 1 GiB) and the bf16 cuBLASLt matmul rate (@tflops, 8192^3, best of 10). Errors: WB_CUDA_ERROR. */
gboolean wb_runner_measure_ceilings (WbCudaRuntime *rt, double *copy_gbps, double *tflops, GError **error);
