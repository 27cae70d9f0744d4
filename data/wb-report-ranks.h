/* wb-report-ranks.h — the report of a multi-GPU run: the runs of its ranks side by side
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A multi-GPU run is one WbRun per rank (WbRun.rank, world_size, clock_origin_ns, group). This report puts
 * them side by side, per rank: the step time (the unprofiled median when the run has one, else the
 * iteration median), the compute busy time, the communication time, their overlap, the exposed
 * communication per step and its share of the step, the collectives (calls and bytes per iteration), and
 * which rank is the slowest. Communication figures are wb_run_get_comm_stats's (profiler/wb-run-comm.h):
 * medians over the timed iterations. Formats: Markdown, JSON (schema "thunder-wb/ranks-report", keys in
 * docs/report-schema.md), HTML (self-contained) and Chrome trace (one process per rank, its streams as
 * threads, aligned on clock_origin_ns; collectives in category "collective"). Separate from WbReport, the
 * report of one run: a caller writes both (one WbReport per rank when it wants each rank's detail).
 * Units: ms in the documents, ns in the runs. */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include <glib.h>

#include "wb-profiler.h"
#include "wb-report.h"

G_BEGIN_DECLS

/* The ranks report's JSON "schema" and "schema_version". */
#define WB_RANKS_REPORT_SCHEMA "thunder-wb/ranks-report"
#define WB_RANKS_REPORT_SCHEMA_VERSION 1

/* wb_report_ranks_check: TRUE when @runs (element-type WbRun) make one multi-GPU report: at least one run,
 * no NULL, no rank twice, every run of the same group (NULL counts as a group of its own), every rank
 * below its world size when that is above 1. FALSE with WB_REPORT_ERROR_RANKS and a message naming the
 * problem ("two runs are rank 1"). The writers below accept any array (they show what they are given);
 * wb_report_write_ranks checks first. */
gboolean wb_report_ranks_check (const GPtrArray *runs,
                                GError         **error);

/* Writers: (transfer full) the whole document, over @runs (element-type WbRun) (transfer none) shown in
 * rank order; @title (nullable) names the case. NULL only for a NULL @runs. */
char *wb_report_ranks_to_markdown (const GPtrArray *runs,
                                   const char      *title);
char *wb_report_ranks_to_json (const GPtrArray *runs,
                               const char      *title);
char *wb_report_ranks_to_html (const GPtrArray *runs,
                               const char      *title);
char *wb_report_ranks_to_chrome_trace (const GPtrArray *runs,
                                       const char      *title);

/* wb_report_write_ranks: checks @runs (wb_report_ranks_check) and writes their report as @format to @path
 * through wb_output_write() (atomically, or in place for a FIFO or terminal). FALSE with
 * WB_REPORT_ERROR_RANKS, WB_REPORT_ERROR_FORMAT, or G_FILE_ERROR naming @path. */
gboolean wb_report_write_ranks (const GPtrArray *runs,
                                const char      *title,
                                WbReportFormat   format,
                                const char      *path,
                                GError         **error);

G_END_DECLS
