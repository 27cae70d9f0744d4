/* wb-report-private.h — WbReport's derived figures, shared by the four writers
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "wb-data.h"

G_BEGIN_DECLS

/* One region (WbRegionStats) with its derived figures. */
typedef struct
{
  const WbRegionStats *stats;          /* (borrowed from report->run) */
  gboolean             is_region;      /* fusion region; FALSE: another top-level call */
  double               gbps;           /* bytes_moved / median, GB/s; 0 when unknown */
  double               tflops;         /* flops / median, TFLOP/s */
  double               pct_of_copy;    /* 100 * gbps / copy ceiling; < 0 without ceilings */
  double               pct_of_matmul;  /* 100 * tflops / matmul ceiling; < 0 without ceilings */
  double               pct_of_ceiling; /* the roofline figure of wb-report.h; < 0 without ceilings or counts */
  const char          *bound;          /* "memory", "compute", or NULL */
} WbReportRegion;

/* Kernel records of one (name, region, line), per iteration. */
typedef struct
{
  char   *name;    /* demangled for display (wb_report_demangle) */
  char   *mangled; /* the name as recorded (CUPTI reports C++ kernels mangled); equal to name otherwise */
  char   *region;
  guint32 line;
  guint32 stream;
  double  calls;     /* per iteration */
  gint64  median_ns; /* median over iterations of the kernel's total time in the iteration */
  gint64  min_ns;
  gint64  max_ns;
  guint32 grid[3], block[3]; /* of the group's first record (0: unknown, e.g. cpu) */
  guint32 registers;         /* registers per thread (0: unknown) */
  guint32 shared_bytes;      /* static + dynamic shared memory per block, bytes */
} WbReportKernel;

/* Per-line time: the median over iterations of the kernel time on that stage line. */
typedef struct
{
  guint32 line;
  gint64  median_ns;
} WbReportLine;

struct _WbReport
{
  WbRun            *run;      /* (owned copy) */
  WbDeviceCeilings *ceilings; /* (owned copy) (nullable) */
  char             *title;
  char             *stage_text;
  GHashTable       *kinds;     /* region name -> GINT_TO_POINTER (1 region, 2 other call) */
  GPtrArray        *notes;     /* (element-type utf8) */
  GPtrArray        *warnings;  /* (element-type utf8): shown first, before the figures */
  const WbGate     *gate;      /* (borrowed) (nullable) */
  GPtrArray        *estimates; /* (nullable) (element-type WbOpEstimate) (owned ref): wb_report_set_op_estimates */

  /* derived (wb_report_derive) */
  guint       n_iters;
  gint64      iter_median_ns, iter_min_ns, iter_max_ns;
  gint64      sum_median_ns; /* median over iterations of the sum of the regions' times */
  gint64      gap_median_ns, gap_min_ns, gap_max_ns;
  GArray     *gap_ns;           /* (element-type gint64) per iteration */
  GArray     *regions;          /* (element-type WbReportRegion) in run order */
  GPtrArray  *by_time;          /* (element-type WbReportRegion*) pointers into @regions, slowest first */
  GPtrArray  *kernels;          /* (element-type WbReportKernel) slowest first */
  GArray     *lines;            /* (element-type WbReportLine) by line */
  GHashTable *display_names;    /* kernel name as recorded -> demangled (both owned) */
  GHashTable *region_rows;      /* region name -> (its first index in regions) + 1; names owned by run */
  GArray     *region_next;      /* guint per region row: the next row of the same name + 1, or 0 */
  guint       median_iteration; /* the timed iteration whose time is closest to the median */
};

/* _wb_report_derive: (re)computes the derived figures. */
void _wb_report_derive (WbReport *report);
/* _wb_report_kernel_name: (transfer none) how the reports show kernel @name of the run: demangled. */
const char *_wb_report_kernel_name (const WbReport *report,
                                    const char     *name);
/* _wb_report_matmul_label: "f32 sgemm (OpenBLAS)" on cpu, "bf16 matmul" elsewhere (transfer none). */
const char *_wb_report_matmul_label (const WbReport *report);
/* _wb_report_format_rate: 3 significant digits without an exponent, "-" for values <= 0 (transfer full). */
char *_wb_report_format_rate (double value);
/* _wb_report_replay_text: how a GPU run repeated its timed iterations, for the report's "CUDA graph" row: a graph
 * (WbRun.cuda_graphs), a flat launch list (WbRun.launch_list) or the interpreter (transfer none). */
static inline const char *
_wb_report_replay_text (const WbRun *run)
{
  if (run->cuda_graphs)
    return "yes, the timed iterations are replays of one graph";
  if (run->launch_list)
    return "no, the timed iterations replayed a flat launch list (each kernel launched from the host, without the interpreter)";
  return "no, the timed iterations ran call by call through the interpreter";
}
/* _wb_report_ms: ns -> ms. */
static inline double
_wb_report_ms (gint64 ns)
{
  return (double) ns / 1e6;
}
/* wb-report-json-build.c: a member @name of the object being built: a string (null for NULL; invalid UTF-8 made
 * valid), an int, a double, ns as ms, a figure that may be unknown (null when < 0); and the finished text with a
 * newline (transfer full). */
void  _wb_json_add_string (JsonBuilder *b, const char *name, const char *value);
void  _wb_json_add_int (JsonBuilder *b, const char *name, gint64 value);
void  _wb_json_add_double (JsonBuilder *b, const char *name, double value);
void  _wb_json_add_ms (JsonBuilder *b, const char *name, gint64 ns);
void  _wb_json_add_optional (JsonBuilder *b, const char *name, double value);
char *_wb_json_finish (JsonBuilder *b, gboolean pretty);
/* wb-report-estimates.c: what the estimates are (one paragraph, transfer none); the estimated ns of the ops on
 * stage line @line (-1: none); the JSON members "estimated_lines_note" and "estimated_lines"; the Markdown
 * section with at most @top ops per region. */
const char *_wb_report_estimate_note (void);
gint64      _wb_report_estimated_line_ns (const WbReport *report, guint32 line);
void        _wb_report_json_add_estimates (JsonBuilder *b, const WbReport *r);
void        _wb_report_markdown_append_estimates (GString *s, const WbReport *r, guint top);
/* _wb_report_figures_line: "median over N timed iterations after W warm-up" (transfer full). */
char *_wb_report_figures_line (const WbReport *report);

G_END_DECLS
