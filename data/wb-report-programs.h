/* wb-report-programs.h — the summary of a model captured as several sub-programs: one row per sub-program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ThunderFX (and torch.compile) split a model into subgraphs, each a program of its own with its own traces
 * and inputs (CASE/<subgraph>/). `profile CASE` profiles them one after another; this summary puts them side by
 * side: per sub-program its stage file, device, median time (the unprofiled median where the GPU run measured
 * one, else the iteration's median), kernels per iteration and share of the total, or the error that stopped it.
 * The total is the sum of the sub-programs' medians: the eager PyTorch code that runs between the subgraphs
 * (Dynamo's glue) is not timed, so a step of the model takes longer. Each sub-program's own report (WbReport) is
 * written beside it by the caller. Formats: Markdown, JSON (schema "thunder-wb/programs-report", keys in
 * docs/report-schema.md) and HTML; no Chrome trace (each sub-program's own has one). Units: ns in the rows,
 * ms in the documents. */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include <glib.h>

#include "wb-profiler.h"
#include "wb-report.h"

G_BEGIN_DECLS

/* The programs report's JSON "schema" and "schema_version". */
#define WB_PROGRAMS_REPORT_SCHEMA "thunder-wb/programs-report"
#define WB_PROGRAMS_REPORT_SCHEMA_VERSION 1

/* WbProgramRow: one sub-program of the summary. Every string owned (nullable unless said). */
typedef struct
{
  char  *name;                 /* the sub-program: its folder's name ("thunderfx_g0_GraphModule"); not NULL */
  char  *stage;                /* the stage profiled ("forward_07+backward_00"), NULL when none was chosen */
  char  *stage_file;           /* its files, relative to the case ("thunderfx_g0_GraphModule/forward_07.py + backward_00.py") */
  char  *device;               /* "cpu", "cuda:0"; NULL when it did not run */
  gint64 iteration_median_ns;  /* median of the timed iterations, ns; 0 unknown */
  gint64 unprofiled_median_ns; /* GPU runs: the median iteration with no profiler event in it, ns; 0 unknown */
  double kernels;              /* kernels launched per timed iteration (cpu: executed top-level calls) */
  char  *report_dir;           /* the folder of its own report, relative to the summary's ("thunderfx_g0_GraphModule") */
  char  *error;                /* why it failed (FILE:LINE where the error names one); NULL when it ran */
} WbProgramRow;

/* wb_program_row_new: (transfer full) a row for sub-program @name, nothing measured. */
WbProgramRow *wb_program_row_new (const char *name);
void          wb_program_row_free (WbProgramRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbProgramRow, wb_program_row_free)

/* wb_program_row_set_run: the device, medians and kernels per iteration of @run (transfer none); a failed
 * run's error too. */
void wb_program_row_set_run (WbProgramRow *row,
                             const WbRun  *run);
/* wb_program_row_get_median_ns: the row's time: the unprofiled median when known, else the iteration's median;
 * 0 for a row with an error. */
gint64 wb_program_row_get_median_ns (const WbProgramRow *row);
/* wb_report_programs_get_total_ns: the sum of @rows' (element-type WbProgramRow) medians, ns. */
gint64 wb_report_programs_get_total_ns (const GPtrArray *rows);

/* Writers: (transfer full) the whole document over @rows (element-type WbProgramRow) (transfer none), in their
 * order; @title (nullable) names the case. */
char *wb_report_programs_to_markdown (const GPtrArray *rows,
                                      const char      *title);
char *wb_report_programs_to_json (const GPtrArray *rows,
                                  const char      *title);
char *wb_report_programs_to_html (const GPtrArray *rows,
                                  const char      *title);

/* wb_report_write_programs: writes the summary as @format (Markdown, JSON or HTML) to @path through
 * wb_output_write(). FALSE with WB_REPORT_ERROR_FORMAT (the Chrome trace, or no format), or G_FILE_ERROR
 * naming @path. */
gboolean wb_report_write_programs (const GPtrArray *rows,
                                   const char      *title,
                                   WbReportFormat   format,
                                   const char      *path,
                                   GError         **error);

G_END_DECLS
