/* wb-cupti.h — CUPTI activity tracing in the GPU runner (WbCupti) and joining its records to profile entries
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two parts.
 *
 * 1. Attribution (pure, no CUDA; tested in CI): wb_cupti_attribute() gives every activity record (a kernel,
 *    a memcpy, a memset) the profile entry (region) it belongs to. First by correlation: the runner pushes
 *    an external correlation id (wb_cupti_ext_id: the timed iteration and the entry) around each entry's
 *    call; CUPTI writes an EXTERNAL_CORRELATION record (ext id -> correlationId) in front of every API
 *    record made meanwhile (our launches and cuBLASLt's own), and the kernel's record carries the same
 *    correlationId. A record that cannot be joined so is attributed by time range: the entry whose
 *    [start, end] overlaps it most (counted separately); otherwise it stays unattributed (entry -1).
 *
 * 2. The collector (thunder-wb-runner only; needs the toolkit's cupti.h at build time, WB_HAVE_CUPTI):
 *    libcupti is opened with dlopen (never linked): "libcupti.so.<major>", "libcupti.so", then
 *    $CUDA_HOME/lib64, the configured toolkit's lib64 and extras/CUPTI/lib64, /usr/local/cuda/lib64, and
 *    the directory of the loaded libcuda.so.1. wb_cupti_start() registers a CLOCK_MONOTONIC ns timestamp
 *    callback (wb_cupti_now_ns) and the buffer callbacks, and enables CONCURRENT_KERNEL, MEMCPY, MEMSET,
 *    EXTERNAL_CORRELATION and fine-grained API records for the driver's and the runtime's kernel launch,
 *    memcpy, memset and graph launch calls (KIND_DRIVER / KIND_RUNTIME when this CUPTI lacks the
 *    fine-grained switches or refuses cuLaunchKernel / cudaLaunchKernel; other refused ids are skipped). wb_cupti_flush() (after the caller synchronised the device) delivers every
 *    buffer (cuptiActivityFlushAll FORCED). Records are copied out of CUPTI's buffers under a lock (the
 *    buffer callback may run on CUPTI's worker thread); kernel names are interned. The API records (DRIVER,
 *    RUNTIME), which the correlation needs anyway, are kept too as the host's calls (wb_cupti_collect_api).
 *    Errors: WB_CUPTI_ERROR_UNAVAILABLE (this build has no CUPTI support, or libcupti cannot be opened or
 *    lacks a symbol: the message lists what was tried) and WB_CUPTI_ERROR_CALL (a CUPTI call failed:
 *    "cuptiActivityEnable (CONCURRENT_KERNEL): CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): <CUPTI's text>").
 *    Only one WbCupti exists at a time (CUPTI allows one subscriber per process).
 *
 * Units: ns on CLOCK_MONOTONIC (the clock of g_get_monotonic_time, in ns) for every start/end; bytes.
 * Threads: a WbCupti is used from one thread (the runner's); its buffer callbacks may run on another. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

#define WB_CUPTI_ERROR (wb_cupti_error_quark ())
GQuark wb_cupti_error_quark (void);

typedef enum
{
  WB_CUPTI_ERROR_UNAVAILABLE = 1, /* no CUPTI in this build, or libcupti cannot be opened or lacks a symbol */
  WB_CUPTI_ERROR_CALL,            /* a CUPTI call failed (the message keeps CUPTI's name and text) */
} WbCuptiError;

typedef enum
{
  WB_CUPTI_KERNEL = 1,
  WB_CUPTI_MEMCPY,
  WB_CUPTI_MEMSET,
} WbCuptiActivityKind;

/* How a record found its entry. The numbers are part of the runner protocol (kernels2's last field). */
typedef enum
{
  WB_CUPTI_BY_NONE = 0,        /* unattributed */
  WB_CUPTI_BY_CORRELATION = 1, /* ext id -> API correlationId -> the record's correlationId */
  WB_CUPTI_BY_TIME_RANGE = 2,  /* inside (overlapping most) an entry's [start, end] */
  WB_CUPTI_BY_LAUNCH = 3,      /* CUDA-event mode: the launch hook saw it inside the entry's call */
} WbCuptiAttributedBy;

/* WbCuptiActivity: one GPU activity record, copied out of CUPTI's buffer. */
typedef struct
{
  WbCuptiActivityKind kind;
  const char         *name;           /* (kernels) interned kernel name as CUPTI reports it (mangled if C++); NULL otherwise */
  gint64              start_ns;       /* CLOCK_MONOTONIC ns (0 when CUPTI could not time it) */
  gint64              end_ns;         /* >= start_ns */
  guint32             correlation_id; /* CUPTI correlation id of the API call that issued it (0: none) */
  guint32             stream;         /* CUPTI stream id */
  guint32             grid[3];        /* (kernels) blocks */
  guint32             block[3];       /* (kernels) threads */
  guint32             registers;      /* (kernels) registers per thread */
  guint32             shared_bytes;   /* (kernels) static + dynamic shared memory per block, bytes */
  guint64             bytes;          /* (memcpy, memset) bytes */
  guint32             copy_kind;      /* (memcpy) CUpti_ActivityMemcpyKind (1 HtoD, 2 DtoH, 8 DtoD, ...) */
  /* filled by wb_cupti_attribute */
  gint32              entry;     /* profile entry, or -1 */
  guint32             iteration; /* timed iteration (0-based) */
  WbCuptiAttributedBy by;
} WbCuptiActivity;

/* Which API a host call belongs to (CUPTI_ACTIVITY_KIND_DRIVER or _RUNTIME). */
typedef enum
{
  WB_CUPTI_API_DRIVER = 1,
  WB_CUPTI_API_RUNTIME,
} WbCuptiApiDomain;

/* WbCuptiApiCall: one driver or runtime API call of the host (a CUpti_ActivityAPI record), copied out. */
typedef struct
{
  WbCuptiApiDomain domain;
  const char      *name;  /* interned function name ("cuLaunchKernel"; cuptiGetCallbackName's, else
                             our own table's, else "driver API call 307" / "runtime API call 211") */
  guint32 cbid;           /* CUPTI's callback id in @domain */
  gint64  start_ns;       /* CLOCK_MONOTONIC ns, as WbCuptiActivity's (0 when CUPTI could not time it) */
  gint64  end_ns;         /* >= start_ns */
  guint32 thread;         /* the calling thread's id as CUPTI reports it */
  guint32 correlation_id; /* the kernel, copy or memset it issued carries the same id */
} WbCuptiApiCall;

/* The most host calls a WbCupti keeps between two wb_cupti_collect_api (the rest are counted, not kept). */
#define WB_CUPTI_MAX_API_CALLS (1u << 20)

/* wb_cupti_api_call_from_record: @record is a CUpti_ActivityAPI (a CUpti_Activity of kind DRIVER or RUNTIME,
 * as cuptiActivityGetNextRecord hands it); fills @out (times as CUPTI wrote them). FALSE for any other kind,
 * and always in a build without CUPTI. Names resolve through cuptiGetCallbackName once libcupti is loaded,
 * else through the runner's table of launch, copy, memset and graph calls. Pure: no lock, no state. */
gboolean wb_cupti_api_call_from_record (const void     *record,
                                        WbCuptiApiCall *out);

/* WbCuptiRange: one entry's call in one timed iteration, on the activities' clock (ns). */
typedef struct
{
  gint32  entry;
  guint32 iteration;
  gint64  start_ns;
  gint64  end_ns;
} WbCuptiRange;

/* WbCuptiSummary: totals over attributed records; wb_cupti_attribute adds to it (zero it first). */
typedef struct
{
  guint32 kernels;                  /* kernel records seen */
  guint32 kernels_by_correlation;   /* joined through the external correlation id */
  guint32 kernels_by_time_range;    /* attributed by time range */
  guint32 kernels_unattributed;     /* neither */
  gint64  kernel_ns_total;          /* sum of (end - start) of every kernel record, ns */
  gint64  kernel_ns_by_correlation; /* of those joined by correlation */
  gint64  kernel_ns_by_time_range;  /* of those attributed by time range */
  guint32 memcpy_count, memset_count;
  guint64 memcpy_bytes, memset_bytes;
  gint64  memcpy_ns, memset_ns;
  guint32 memops_attributed; /* memcpy + memset records with an entry */
} WbCuptiSummary;

/* wb_cupti_ext_id: the external correlation id of @entry in timed @iteration (never 0). */
static inline guint64
wb_cupti_ext_id (guint iteration,
                 guint entry)
{
  return ((guint64) iteration + 1) << 32 | (guint64) entry;
}
/* wb_cupti_ext_id_decode: the inverse; FALSE for an id wb_cupti_ext_id cannot have made (0, another tool's). */
gboolean wb_cupti_ext_id_decode (guint64 ext_id,
                                 guint  *iteration,
                                 guint  *entry);

/* wb_cupti_correlations_new: (transfer full) an empty map CUPTI correlation id -> external id, for
 * wb_cupti_collect and wb_cupti_attribute; wb_cupti_correlations_insert adds one pair (a later pair for the
 * same correlation id replaces it). */
GHashTable *wb_cupti_correlations_new (void);
void        wb_cupti_correlations_insert (GHashTable *correlations,
                                          guint32     correlation_id,
                                          guint64     ext_id);

/* wb_cupti_attribute: sets entry, iteration and by of each of @acts (@n records): by correlation through
 * @correlations (from wb_cupti_correlations_new; nullable) when the external id decodes, else by time range
 * over @ranges (the range overlapping the record most; a zero-length record must lie inside), else entry -1
 * with the iteration left as the caller set it. Adds every record to @summary (nullable). */
void wb_cupti_attribute (WbCuptiActivity    *acts,
                         guint               n,
                         GHashTable         *correlations,
                         const WbCuptiRange *ranges,
                         guint               n_ranges,
                         WbCuptiSummary     *summary);

/* wb_cupti_align_ranges: shifts @ranges (all by one amount, ns, at most @max_shift_ns either way) so that the
 * most of @acts' kernel records that nothing joins (by NONE, with a time, and no external id through
 * @correlations) lie wholly inside one of them; of several such shifts, the one nearest 0 (0 itself when it is
 * one). Returns the shift, 0 when no record could lie inside any range. For a CUDA graph's replay: its
 * kernels have no correlation to the captured launches, and the ranges' host-side anchor (the iteration's
 * start on CUPTI's clock) is off by the replay's launch latency, which moved kernels near a range's edge into
 * the next range. The sweep over the shifts' feasible intervals is O(P log P) for P (kernel, range) pairs. */
gint64 wb_cupti_align_ranges (const WbCuptiActivity *acts,
                              guint                  n,
                              GHashTable            *correlations,
                              WbCuptiRange          *ranges,
                              guint                  n_ranges,
                              gint64                 max_shift_ns);

/* wb_cupti_now_ns: CLOCK_MONOTONIC in ns (CUPTI's timestamps once a WbCupti started). */
gint64 wb_cupti_now_ns (void);

typedef struct _WbCupti WbCupti;

/* How kernel records are joined to the external ids (WB_CUPTI_CORRELATION=records|callbacks|fine-grained|none).
 * Measured on the H200 (CUPTI 13.0, tests/bench/bench-gpu-overhead.sh): records cost the GPU iteration least
 * (gpt2_block 1.10x, llama_layer 1.03x of untraced); callbacks and none cost more (1.18x, 1.06x), as if CUPTI
 * took a slower kernel-timestamp path without API records. */
typedef enum
{
  /* the callback API (cuptiSubscribe) on the launch, copy and memset calls of the driver and the
   * runtime; at each call's entry the callback pairs its correlationId with the id on top of our own stack.
   * No API activity records are written. */
  WB_CUPTI_CORRELATION_CALLBACKS = 1,
  /* default: the whole DRIVER and RUNTIME activity kinds and EXTERNAL_CORRELATION records (CUPTI's own stack) */
  WB_CUPTI_CORRELATION_RECORDS,
  /* per-call API records (cuptiActivityEnableDriverApi/RuntimeApi) and EXTERNAL_CORRELATION records: on the
   * H200 (CUPTI 13.0) these switches write no records, so nothing is joined */
  WB_CUPTI_CORRELATION_FINE_GRAINED,
  /* none: kernel, copy and memset records only, attributed by the entries' time ranges */
  WB_CUPTI_CORRELATION_NONE,
} WbCuptiCorrelation;

/* wb_cupti_start: opens libcupti (once) and enables tracing, the correlation as WB_CUPTI_CORRELATION says
 * (default records; callbacks fall back to records when this CUPTI lacks the callback API or refuses
 * cuLaunchKernel's callback).
 * (transfer full) or NULL with WB_CUPTI_ERROR; nothing stays enabled after a failure. */
WbCupti *wb_cupti_start (GError **error);
/* wb_cupti_stop: disables every kind, flushes and drops what is left, frees @cupti (nullable). */
void wb_cupti_stop (WbCupti *cupti);
/* wb_cupti_get_version: CUPTI's API version (cuptiGetVersion, e.g. 130001). */
guint32 wb_cupti_get_version (WbCupti *cupti);
/* wb_cupti_set_paused: disables (@paused) or enables again every activity kind and callback this WbCupti
 * enabled, so that iterations timed without tracing pay nothing for it. Records already written stay.
 * Errors: WB_CUPTI_ERROR_CALL (re-enabling failed; everything stays disabled). */
gboolean wb_cupti_set_paused (WbCupti *cupti,
                              gboolean paused,
                              GError **error);
/* wb_cupti_get_correlation: how records are joined; wb_cupti_correlation_name: "callbacks", "records",
 * "fine-grained" (static). */
WbCuptiCorrelation wb_cupti_get_correlation (WbCupti *cupti);
const char        *wb_cupti_correlation_name (WbCuptiCorrelation correlation);
/* wb_cupti_get_library: (transfer none) the file libcupti was opened from. */
const char *wb_cupti_get_library (WbCupti *cupti);

/* wb_cupti_push / wb_cupti_pop: the calling thread's external correlation id (kind CUSTOM0; with callbacks,
 * a stack of 16 in the WbCupti, used from the runner's one thread). */
gboolean wb_cupti_push (WbCupti *cupti,
                        guint64  ext_id,
                        GError **error);
gboolean wb_cupti_pop (WbCupti *cupti,
                       GError **error);

/* wb_cupti_flush: delivers every buffered record; synchronise the device first. */
gboolean wb_cupti_flush (WbCupti *cupti,
                         GError **error);
/* wb_cupti_collect: moves the records delivered so far into @acts ((element-type WbCuptiActivity), appended,
 * entry -1, iteration 0) and the correlation pairs into @correlations (wb_cupti_correlations_new). Either
 * may be NULL to drop them. Returns the records CUPTI dropped since the last call. */
guint64 wb_cupti_collect (WbCupti    *cupti,
                          GArray     *acts,
                          GHashTable *correlations);

/* wb_cupti_collect_api: moves the host calls delivered so far into @calls ((element-type WbCuptiApiCall),
 * appended; NULL drops them). Returns the calls not kept since the last call (beyond
 * WB_CUPTI_MAX_API_CALLS). Only RECORDS and FINE_GRAINED correlation write API records. */
guint64 wb_cupti_collect_api (WbCupti *cupti,
                              GArray  *calls);

G_END_DECLS
