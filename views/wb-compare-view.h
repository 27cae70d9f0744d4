/* wb-compare-view.h — two runs of the document side by side: per region the executors, times, difference
 * and whether it exceeds the noise (data/wb-compare.h's rule)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_COMPARE_VIEW (wb_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (WbCompareView, wb_compare_view, WB, COMPARE_VIEW, GtkWidget)

GtkWidget *wb_compare_view_new (void);
/* wb_compare_view_set_document: follows @document's runs; when they change, A is the one before the
 * latest and B the latest (the new run appears beside the old). */
void wb_compare_view_set_document (WbCompareView *self, WbDocument *document);
/* wb_compare_view_set_runs: compares run @b against run @a (indices of wb_document_get_runs()). */
void wb_compare_view_set_runs (WbCompareView *self, guint a, guint b);
/* wb_compare_view_get_runs: the indices shown; FALSE when fewer than two runs. */
gboolean wb_compare_view_get_runs (WbCompareView *self, guint *a, guint *b);
/* wb_compare_view_get_text: (transfer full) what the table shows, one line per row, cells tab-separated
 * (header first), or NULL when nothing is compared. */
char *wb_compare_view_get_text (WbCompareView *self);

G_END_DECLS
