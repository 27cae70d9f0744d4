/* wb-report.h — a profile report: one run with its derived figures (WbReport), and its four writers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figures (DESIGN.md, "Numbers that matter"): times in ms, kernel records in ns, sizes in bytes, bandwidth
 * in GB/s (10^9 bytes/s), compute in TFLOP/s. Every time is the median over the run's timed iterations
 * (min and max beside it) unless it says otherwise; a kernel's time is its total per iteration.
 *   gap             per iteration: the iteration minus the sum of its regions' times; reported as the
 *                   median (and min, max) of those per-iteration gaps. Below zero when regions ran at once
 *                   (the GPU runner's second stream: executors/cuda/wb-cuda-exec-streams.c)
 *   GB/s, TFLOP/s   the region's static bytes moved and FLOPs (wb-cost.h) over its median time
 *   % of ceiling    the roofline: the time the region would take at the device's ceilings — its bytes at
 *                   the copy bandwidth or its FLOPs at the matmul rate, whichever is longer — as a share of
 *                   its median time (100% = at the ceiling)
 * Writers: Markdown (wb-report-markdown.c, for terminals), JSON (wb-report-json.c; schema in
 * docs/report-schema.md, "schema_version" WB_REPORT_SCHEMA_VERSION), HTML (wb-report-html.c, one
 * self-contained file with inline SVG), Chrome trace JSON for Perfetto (wb-report-chrome.c). */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include <glib.h>

#include "wb-gate.h"
#include "wb-profiler.h"

G_BEGIN_DECLS

/* The JSON report's "schema" and "schema_version" (docs/report-schema.md). */
#define WB_REPORT_SCHEMA "thunder-wb/profile-report"
#define WB_REPORT_SCHEMA_VERSION 1

#define WB_REPORT_ERROR (wb_report_error_quark ())
GQuark wb_report_error_quark (void);

typedef enum
{
  WB_REPORT_ERROR_FORMAT = 1, /* a file name whose extension names no report format */
  WB_REPORT_ERROR_IO,         /* no longer raised: wb_report_write() sets wb_output_write()'s G_FILE_ERROR */
  WB_REPORT_ERROR_RANKS,      /* the runs of a multi-GPU report do not go together (wb-report-ranks.h) */
} WbReportError;

typedef enum
{
  WB_REPORT_FORMAT_MARKDOWN = 1, /* .md */
  WB_REPORT_FORMAT_JSON,         /* .json */
  WB_REPORT_FORMAT_HTML,         /* .html, .htm */
  WB_REPORT_FORMAT_CHROME_TRACE, /* Chrome trace event JSON (--chrome-trace) */
} WbReportFormat;

/* wb_report_format_from_path: the format a --report file name asks for (.md, .json, .html); FALSE for
 * anything else (the Chrome trace is never guessed from a name: it is --chrome-trace). */
gboolean wb_report_format_from_path (const char     *path,
                                     WbReportFormat *format);

typedef struct _WbReport WbReport;

/* wb_report_new: (transfer full) a report of @run (copied). @ceilings (nullable, copied) gives the GB/s
 * and TFLOP/s ceilings; @title (nullable) names the case; @stage_text (nullable) is the stage as printed
 * (forward then backward, wb_profile_dup_stage_text()), shown with per-line times in the HTML report. */
WbReport *wb_report_new (const WbRun            *run,
                         const WbDeviceCeilings *ceilings,
                         const char             *title,
                         const char             *stage_text);
void      wb_report_free (WbReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbReport, wb_report_free)

/* wb_report_set_region_kind: marks region @name a fusion region (TRUE) or another call (FALSE). Without
 * it a name is a region when the symbol table calls it a fusion (TorchCompileN, nvFusionN). */
void wb_report_set_region_kind (WbReport   *report,
                                const char *name,
                                gboolean    is_region);
/* wb_report_add_note: a line for the report's notes ("no CUDA in this build: profiled on cpu"). */
void wb_report_add_note (WbReport   *report,
                         const char *note);
/* wb_report_add_warning: a line shown at the top of the report, before its figures, for what makes them
 * misleading ("12 calls ran on the cpu fallback (--allow-cpu-fallback): ..."). */
void wb_report_add_warning (WbReport   *report,
                            const char *warning);
/* wb_report_set_gate: the regression gate's outcome (nullable; borrowed: keep it alive while writing). */
void wb_report_set_gate (WbReport     *report,
                         const WbGate *gate);

/* wb_report_set_op_estimates: the estimated time of the ops inside the run's fusion regions
 * (wb_op_estimates_compute of the stage the run timed; element-type WbOpEstimate, referenced; nullable to drop
 * them): the JSON's "estimated_lines", a Markdown section and the HTML stage's "est." times, each labelled an
 * estimate. Their bsym pointers are not read. */
void wb_report_set_op_estimates (WbReport  *report,
                                 GPtrArray *estimates);

/* Writers: (transfer full) the whole document. */
char *wb_report_to_markdown (const WbReport *report);
char *wb_report_to_json (const WbReport *report);
char *wb_report_to_html (const WbReport *report);
char *wb_report_to_chrome_trace (const WbReport *report);

/* wb_report_demangle: (transfer full) @name (a kernel name as CUPTI reports it) for people: a mangled C++
 * name (Itanium ABI, "_Z…", as cuBLASLt's and CUTLASS's kernels are) demangled by the C++ runtime
 * (abi::__cxa_demangle): "_Z18sgemm_largek_lds64ILb1E…" -> "void sgemm_largek_lds64<true, …>(float*, …)".
 * Anything else (a C name, a name that does not demangle, a build without libstdc++) is copied unchanged.
 * The reports show this name; the JSON report keeps the recorded one as "name_mangled". */
char *wb_report_demangle (const char *name);

/* wb_report_write: writes @report as @format to @path through wb_output_write() (atomically, or in
 * place for a FIFO or terminal). FALSE with WB_REPORT_ERROR_FORMAT, or G_FILE_ERROR naming @path. */
gboolean wb_report_write (const WbReport *report,
                          WbReportFormat  format,
                          const char     *path,
                          GError        **error);

G_END_DECLS
