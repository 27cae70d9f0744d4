/* wb-timeline.h — the selected run's kernels per stream on a zoomable time axis, region spans above
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_TIMELINE (wb_timeline_get_type ())
G_DECLARE_FINAL_TYPE (WbTimeline, wb_timeline, WB, TIMELINE, GtkWidget)

GtkWidget *wb_timeline_new (void);
void       wb_timeline_set_document (WbTimeline *self, WbDocument *document);
/* wb_timeline_get_n_kernels: kernels of the latest run drawn; wb_timeline_get_n_streams: their rows. */
guint wb_timeline_get_n_kernels (WbTimeline *self);
guint wb_timeline_get_n_streams (WbTimeline *self);
/* wb_timeline_get_kernel: (transfer none) kernel @index in start order. */
const WbKernelRecord *wb_timeline_get_kernel (WbTimeline *self, guint index);
/* wb_timeline_click_kernel: what a click on kernel @index does: selects its region and line. */
void wb_timeline_click_kernel (WbTimeline *self, guint index);
/* wb_timeline_get_tooltip: (transfer full) the hover text of kernel @index. */
char *wb_timeline_get_tooltip (WbTimeline *self, guint index);

G_END_DECLS
