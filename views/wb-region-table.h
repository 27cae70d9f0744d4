/* wb-region-table.h — the regions with their executor choice and run figures, and the selected region's page
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_REGION_TABLE (wb_region_table_get_type ())
G_DECLARE_FINAL_TYPE (WbRegionTable, wb_region_table, WB, REGION_TABLE, GtkWidget)

GtkWidget *wb_region_table_new (void);
void       wb_region_table_set_document (WbRegionTable *self, WbDocument *document);
/* wb_region_table_profile: re-runs the pipeline with @assignment (nullable: the current one) and profiles
 * it in the background (wb_document_profile_async: on the device set, the GPU when there is one), with
 * progress by iteration and a cancel button. Unless wb_region_table_set_confirm (FALSE), a dialog first
 * names what will run, on which device, how many iterations and the estimate from the last run. */
void wb_region_table_profile (WbRegionTable *self, const WbAssignment *assignment);
/* wb_region_table_get_confirm_dialog: (transfer none) (nullable) the AdwMessageDialog shown (responses
 * "profile" and "cancel"). */
GtkWidget *wb_region_table_get_confirm_dialog (WbRegionTable *self);
void       wb_region_table_set_confirm (WbRegionTable *self, gboolean confirm);
/* wb_region_table_set_device: where runs go (WB_PROFILE_DEVICE_AUTO by default: the GPU when the runner
 * reports one). */
void wb_region_table_set_device (WbRegionTable *self, WbProfileDevice device);
/* wb_region_table_cancel: the Cancel button: the run stops within a second and what it held is freed. */
void wb_region_table_cancel (WbRegionTable *self);
/* wb_region_table_get_message: (transfer none) (nullable) the message under the table; *@is_error
 * (nullable) whether it shows as an error (a cancel does not). */
const char *wb_region_table_get_message (WbRegionTable *self, gboolean *is_error);
/* wb_region_table_get_progress_text: (transfer none) (nullable) the progress bar's words while a run goes. */
const char *wb_region_table_get_progress_text (WbRegionTable *self);
/* wb_region_table_get_progress_fraction: the progress bar's fraction (0 to 1) while a run goes, else -1. */
double wb_region_table_get_progress_fraction (WbRegionTable *self);
/* wb_region_table_get_choices: (transfer none) what a region's executor drop-down offers, NULL-terminated:
 * the registry's executors that run here or in the GPU runner (the default on CUDA first), then
 * "unfuse"; never Thunder's read-only executors. Any thread. */
const char *const *wb_region_table_get_choices (void);
/* wb_region_table_can_run: whether choice @executor may run @region of @pipeline, as its drop-down shows
 * it: the registry's claim rule (wb_executor_info_can_run) over the types of the stages that hold the
 * region; FALSE with the reason in *why_not (transfer full; may be NULL). Needs no widget. It rebuilds
 * those types at each call: the table asks wb_document_can_run (WbRegionClaims, cached) instead. */
gboolean wb_region_table_can_run (const WbPipeline *pipeline,
                                  const WbRegion   *region,
                                  const char       *executor,
                                  char            **why_not);
/* wb_region_table_set_executor: what choosing @executor ("unfuse" too) in @region's drop-down does;
 * FALSE with the reason in *why_not when the executor cannot take the region. */
gboolean wb_region_table_set_executor (WbRegionTable *self, const char *region, const char *executor, char **why_not);
void     wb_region_table_set_iterations (WbRegionTable *self, guint iters, guint warmup);
/* wb_region_table_get_selected: (nullable) the region selected in the table. */
const char *wb_region_table_get_selected (WbRegionTable *self);
/* wb_region_table_dup_text: (transfer full) the table as shown, tab-separated: the column titles, then
 * one line per row in the view's order (Region, Executor, Ops, Bytes, Time (ms), Δ, Share, GB/s, TFLOP/s,
 * Kind: "fusion", "collective" (a communication call: wb_document_is_collective) or "call"). */
char *wb_region_table_dup_text (WbRegionTable *self);
/* wb_region_table_get_page_text: (transfer full) the region page's text. */
char *wb_region_table_get_page_text (WbRegionTable *self);

G_END_DECLS
