/* wb-document.h — what one window shows: a case's trace set, the workbench's stages, runs and the selection
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gio/gio.h>

#include "wb-profiler.h"
#include "wb-region-claims.h"

G_BEGIN_DECLS

#define WB_TYPE_DOCUMENT (wb_document_get_type ())
G_DECLARE_FINAL_TYPE (WbDocument, wb_document, WB, DOCUMENT, GObject)

/* Signals: "changed" (a new set, pipeline or assignment), "selection-changed" (stage, bound symbol or
 * region), "runs-changed". Traces are immutable; everything here is touched on the main thread only. */

WbDocument *wb_document_new (void);
/* wb_document_load_async: loads @path (directory, file) on a worker thread, runs the pipeline. */
void        wb_document_load_async (WbDocument *self, const char *path, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean    wb_document_load_finish (WbDocument *self, GAsyncResult *result, GError **error);
const char *wb_document_get_path (WbDocument *self);
/* wb_document_is_session_file: whether @path is a .wbsession (by name or SQLite header); such a path
 * loads the session's latest trace set and its runs, and the runs made later are stored in it. */
gboolean wb_document_is_session_file (const char *path);
/* wb_document_get_session_path: (nullable) the session the document was loaded from. */
const char *wb_document_get_session_path (WbDocument *self);
/* wb_document_get_pipeline_error: (nullable) why the workbench's stages could not be computed. */
const char *wb_document_get_pipeline_error (WbDocument *self);

const WbTraceSet *wb_document_get_trace_set (WbDocument *self);
const WbPipeline *wb_document_get_pipeline (WbDocument *self);
/* wb_document_get_stage: (nullable) the workbench stage that entry @entry is. */
const WbStage *wb_document_get_stage (WbDocument *self, guint entry);
/* wb_document_get_previous: the entry that @entry was computed from (what the left pane shows), or -1. */
int wb_document_get_previous (WbDocument *self, guint entry);
/* wb_document_get_assignment: (transfer none) (nullable) the choices of the current pipeline. */
const WbAssignment *wb_document_get_assignment (WbDocument *self);
/* wb_document_get_device_reason: (transfer none) (nullable) why the last profile ran where it did
 * ("the GPU runner reports ...", "no device asked for and ..."): the profiling job's device choice. */
const char *wb_document_get_device_reason (WbDocument *self);
/* wb_document_get_run_notes: (transfer none) (nullable) (element-type utf8) what the last profile's job said about
 * its run, as the report's notes: how the timed iterations were repeated (a CUDA graph, a launch list, or why
 * neither), the device's choice, profiling's cost; NULL before the first profile. */
GPtrArray *wb_document_get_run_notes (WbDocument *self);

/* Selection. The entry is the stage shown on the right; the bound symbol belongs to that stage's trace
 * (or to the left one when picked there); the region is a name of the pipeline's regions. */
guint         wb_document_get_entry (WbDocument *self);
void          wb_document_set_entry (WbDocument *self, guint entry);
const WbBsym *wb_document_get_bsym (WbDocument *self);
void          wb_document_select_bsym (WbDocument *self, WbTrace *trace, const WbBsym *bsym);
WbTrace      *wb_document_get_bsym_trace (WbDocument *self);
const char   *wb_document_get_region (WbDocument *self);
void          wb_document_select_region (WbDocument *self, const char *region);
/* wb_document_find_region: (nullable) the region @bsym of @trace ends up in (the workbench's provenance). */
const WbRegion *wb_document_find_region (WbDocument *self, WbTrace *trace, const WbBsym *bsym);
const WbRegion *wb_document_lookup_region (WbDocument *self, const char *name);
/* wb_document_can_run: wb_region_table_can_run for @region of the document's pipeline, answered from a
 * cache (WbRegionClaims) that lives as long as the pipeline; FALSE with the reason in *why_not (transfer
 * full; may be NULL); FALSE without a reason when there is no pipeline. */
gboolean wb_document_can_run (WbDocument *self, const WbRegion *region, const char *executor, char **why_not);
/* wb_document_find_region_bsym: (nullable) a bound symbol of entry @entry's trace that is part of @region. */
const WbBsym *wb_document_find_region_bsym (WbDocument *self, guint entry, const char *region);

/* Runs: (element-type WbRun) (transfer none) in the order they were made. */
GPtrArray   *wb_document_get_runs (WbDocument *self);
const WbRun *wb_document_get_run (WbDocument *self);          /* the latest, or NULL */
const WbRun *wb_document_get_previous_run (WbDocument *self); /* the one before, or NULL */
/* Multi-GPU runs: one WbRun per rank, sharing WbRun.group. The latest run's group (when it has one) is
 * shown one rank at a time: wb_document_get_run gives the run of the rank selected (wb_document_set_rank;
 * the group's first rank when it has none of that rank), and wb_document_get_previous_run the run before
 * the group. */
/* wb_document_get_group: (transfer none) (nullable) the latest run's group id. */
const char *wb_document_get_group (WbDocument *self);
/* wb_document_get_group_runs: (transfer container) (element-type WbRun) the runs of @group (nullable: an
 * empty array) by rank. */
GPtrArray *wb_document_get_group_runs (WbDocument *self, const char *group);
/* wb_document_get_case_ranks: the rank folders of the case folder opened (CASE/rank<N>/, recorded per rank: rank
 * 0's traces are shown); 0 for any other case. Profiling such a case of more than one rank from the document
 * fails with G_IO_ERROR_NOT_SUPPORTED saying how to run every rank (the command line's multi-GPU profile). */
guint wb_document_get_case_ranks (WbDocument *self);
/* wb_document_get_subprogram: (transfer none) (nullable) for a folder of several sub-programs (ThunderFX's
 * subgraphs, wb_case_list_subprograms), the one a profile runs: that of the entry on screen, else (an entry of
 * the workbench's stages) the one whose pipeline they are; *@n_subprograms (nullable) how many there are.
 * NULL (and 0) for a case of one program. */
const char *wb_document_get_subprogram (WbDocument *self, guint *n_subprograms);
/* wb_document_get_rank / _set_rank: the rank shown (0 first); setting another emits "runs-changed" so
 * that every view shows that rank's run. */
guint wb_document_get_rank (WbDocument *self);
void  wb_document_set_rank (WbDocument *self, guint rank);
/* wb_document_add_run: appends @run (transfer full) and emits "runs-changed". It is not stored anywhere. */
void wb_document_add_run (WbDocument *self, WbRun *run);
/* wb_document_add_run_group: appends copies of @runs (element-type WbRun) (transfer none), the ranks of one
 * multi-GPU run, shows rank 0 and emits "runs-changed" once. FALSE with WB_REPORT_ERROR_RANKS when they do
 * not go together (wb_report_ranks_check) or have no group id; nothing is added then. */
gboolean wb_document_add_run_group (WbDocument *self, const GPtrArray *runs, GError **error);
/* wb_document_is_collective: whether @name is a collective call: a known collective symbol, or a region of
 * the shown run that wb_run_region_is_collective says is one. */
gboolean wb_document_is_collective (WbDocument *self, const char *name);
/* The colour the views give collectives and communication kernels (regions track, graph, kernel table):
 * sRGB components 0..1, and as a CSS/Pango colour. */
#define WB_COLLECTIVE_RGB 0.56, 0.42, 0.75
#define WB_COLLECTIVE_COLOR "#8f6bbf"
/* wb_document_dup_run_label: (transfer full) "Run 2 (#7) · cpu" for run @i ("Run 2 · cuda:1 · rank 1 of 2"
 * for a rank of a multi-GPU run), or NULL. */
char *wb_document_dup_run_label (WbDocument *self, guint i);
/* wb_document_get_run_entry: the entry of the stage runs time (the workbench's final forward), or -1 */
int wb_document_get_run_entry (WbDocument *self);

/* wb_document_run_is_planned: whether @run timed the workbench's own stage (stage "workbench", or none
 * recorded), whose regions are the pipeline's; FALSE for a run of another stage (Thunder's final stage
 * from `profile`, "forward_06+backward_00"), whose regions (TorchCompile0, …) are its own. */
gboolean wb_document_run_is_planned (WbDocument *self, const WbRun *run);
/* wb_document_find_run_call: (nullable) the call of region @name (WbRegionStats.name) in the document's
 * trace of the stage @run ran (found by the run's stage label among the trace set's entries); its
 * trace in @trace (nullable). NULL when the document has no such trace. */
const WbBsym *wb_document_find_run_call (WbDocument *self, const WbRun *run, const char *name, WbTrace **trace);

/* wb_document_profile_async: with @assignment (nullable; referenced) re-runs the pipeline, then profiles
 * its final forward and backward with a WbProfileJob on a worker thread: on @device (AUTO: the GPU when
 * the runner reports one, else the cpu), @iters timed and @warmup untimed iterations. @progress (nullable)
 * is called on the main thread with a fraction 0..1 and what is running ("Iteration 3 of 20 on the cpu").
 * Cancelling @cancellable stops the run before its next call (cpu) or ends the GPU runner at once; the
 * finish then fails with G_IO_ERROR_CANCELLED, nothing is stored and what the run held is freed. On
 * success the new pipeline replaces the old one and the run is appended. */
void wb_document_profile_async (WbDocument *self, const WbAssignment *assignment, WbProfileDevice device, guint iters, guint warmup, GCancellable *cancellable, void (*progress) (double, const char *, gpointer), gpointer progress_data, GAsyncReadyCallback callback, gpointer user_data);
/* wb_document_estimate_seconds: what a run of @iters + @warmup iterations should take, scaled from the
 * last run this document made (*@last_seconds: its time, pipeline included), else from the iterations of
 * the latest run it holds (a session's); FALSE without any run. */
gboolean wb_document_estimate_seconds (WbDocument *self, guint iters, guint warmup, double *last_seconds, double *estimate);
gboolean wb_document_profile_finish (WbDocument *self, GAsyncResult *result, GError **error);
/* wb_document_end_runner: a profile on the GPU leaves its runner (wb_profile_job_steal_runner) to the document's
 * next profile, which then makes no new CUDA context; it goes when another case opens, with the document, or
 * when it died or its run failed. This ends it now (not waiting for the process), so that the next profile
 * starts a fresh one (tests that change the stand-in runner's environment); nothing while a profile holds it. */
void wb_document_end_runner (WbDocument *self);
/* wb_document_set_allow_cpu_fallback: whether later profiles on the GPU may run calls that have no GPU path
 * on the cpu (WbProfileOptions.allow_cpu_fallback; the report then warns); FALSE (the default): such a
 * profile fails naming the call. */
void     wb_document_set_allow_cpu_fallback (WbDocument *self, gboolean allow);
gboolean wb_document_is_busy (WbDocument *self);

/* wb_document_get_line_ms: median ms of the run's entry called on line @bsym, or -1. */
double wb_document_get_bsym_ms (WbDocument *self, const WbBsym *bsym);

/* wb_document_get_op_estimate: (nullable) (transfer none) the estimated time of op @op, a subsymbol of a fusion
 * region of @trace, in the latest run (profiler/wb-op-estimate.h, with the cached ceilings of the run's device
 * model when there are, else the defaults): NULL when the run did not time its region. Computed once per trace
 * and run; valid until the runs change. */
const WbOpEstimate *wb_document_get_op_estimate (WbDocument *self, WbTrace *trace, const WbBsym *op);
/* wb_document_get_op_estimate_ms: the estimate of @op in ms, or -1 (as wb_document_get_op_estimate). */
double wb_document_get_op_estimate_ms (WbDocument *self, WbTrace *trace, const WbBsym *op);

/* wb_document_region_of: (nullable) the region that @bsym (top level or a region's body, of any stage of
 * the pipeline) ends up in; one cached map over the pipeline's provenance, rebuilt when it changes. */
const WbRegion *wb_document_region_of (WbDocument *self, const WbBsym *bsym);
/* wb_document_get_region_share: 0..1 of the latest run's iteration spent in @region, or -1. */
double wb_document_get_region_share (WbDocument *self, const char *region);

/* wb_document_select_kernel: selects the run's stage, the bound symbol on @kernel's line and its region. */
void wb_document_select_kernel (WbDocument *self, const WbKernelRecord *kernel);

G_END_DECLS
