/* wb-stage-view.h — two stage panes side by side: line diff, paired bound symbols, per-line times
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_STAGE_VIEW (wb_stage_view_get_type ())
G_DECLARE_FINAL_TYPE (WbStageView, wb_stage_view, WB, STAGE_VIEW, GtkWidget)

GtkWidget *wb_stage_view_new (void);
void       wb_stage_view_set_document (WbStageView *self, WbDocument *document);
/* wb_stage_view_select_line: selects the bound symbol on 1-based @line of the right (or left) pane, as a
 * click does. */
void wb_stage_view_select_line (WbStageView *self, gboolean right, guint line);
/* wb_stage_view_get_selected_lines: (transfer full) (element-type guint) the 1-based lines marked
 * selected in a pane (the selected bound symbol or its counterparts). */
GArray *wb_stage_view_get_selected_lines (WbStageView *self, gboolean right);
/* wb_stage_view_get_top_rows: the aligned row (0-based) at the top of the left and of the right pane;
 * equal when the panes are in step (they scroll as one). */
void wb_stage_view_get_top_rows (WbStageView *self, guint *left, guint *right);
/* wb_stage_view_scroll_to_row: scrolls so that aligned row @row (0-based) is at the top of both panes. */
void wb_stage_view_scroll_to_row (WbStageView *self, guint row);
/* wb_stage_view_get_n_changes: lines changed between the two panes. */
guint wb_stage_view_get_n_changes (WbStageView *self);
/* wb_stage_view_get_highlights: (transfer full) (element-type guint) (start, end) byte offsets within
 * buffer row @row of a pane that carry the tag @tag_name ("changed-text": tokens changed inside a line;
 * "renamed-text": names renamed), as shown. */
GArray *wb_stage_view_get_highlights (WbStageView *self, gboolean right, guint row, const char *tag_name);
/* wb_stage_view_dup_row_text: (transfer full) (nullable) the text a pane shows on aligned row @row. */
char *wb_stage_view_dup_row_text (WbStageView *self, gboolean right, guint row);
/* wb_stage_view_get_pair: (transfer none) (nullable) the pair of stages shown. */
const WbStagePair *wb_stage_view_get_pair (WbStageView *self);
/* wb_stage_view_search: selects the next line of the right pane containing @text; FALSE if none. */
gboolean wb_stage_view_search (WbStageView *self, const char *text);

G_END_DECLS
