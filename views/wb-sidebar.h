/* wb-sidebar.h — a trace set's lists and stages (Thunder's and the workbench's, with ms) and the runs
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_SIDEBAR (wb_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (WbSidebar, wb_sidebar, WB, SIDEBAR, GtkWidget)

GtkWidget *wb_sidebar_new (void);
void       wb_sidebar_set_document (WbSidebar *self, WbDocument *document);
/* wb_sidebar_step: selects the next (@delta > 0) or previous visible stage; FALSE at either end. */
gboolean wb_sidebar_step (WbSidebar *self, int delta);
void     wb_sidebar_set_hide_unchanged (WbSidebar *self, gboolean hide);
/* wb_sidebar_get_n_visible: stages listed (hidden ones excluded). */
guint wb_sidebar_get_n_visible (WbSidebar *self);
/* wb_sidebar_get_failure_list: (transfer none) the list of the folder's files that did not load: one row
 * a file, in path order, whose tooltip is the parser's "FILE:LINE:COL: message"; hidden when empty. */
GtkListBox *wb_sidebar_get_failure_list (WbSidebar *self);
/* wb_sidebar_get_rank_selector: (transfer none) (nullable) the drop-down of the ranks of the latest
 * multi-GPU run ("rank 0 of 2", ...: choosing one shows that rank's run in every view); NULL (hidden) when
 * the latest run has no group. */
GtkDropDown *wb_sidebar_get_rank_selector (WbSidebar *self);

G_END_DECLS
