/* wb-region-table-private.h — what the files of WbRegionTable share (wb-region-table.h); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-region-table.c       the widget: the table (data by name, columns, the executor drop-downs), selection,
 *                         profiling with an assignment, the public API
 * wb-region-table-page.c  the selected region's page: its bound symbols, every executor's claim, what runs it
 * Every name here is private to libwbviews (hidden visibility). */
#pragma once

#include "wb-views.h"

G_BEGIN_DECLS

struct _WbRegionTable
{
  GtkWidget parent_instance;

  WbDocument   *document;
  GCancellable *cancellable;
  guint         iters, warmup;
  gboolean      binding;
  gboolean      run_regions; /* the rows are the latest run's own regions (a run of another stage) */

  GtkWidget          *box;
  GtkWidget          *progress_box;
  GtkProgressBar     *progress;
  GtkLabel           *status;
  GtkColumnView      *view;
  GtkStringList      *names;
  GtkSingleSelection *selection;
  GtkLabel           *page;
};

/* the choice that unfuses a region (not an executor) */
#define WB_REGION_TABLE_UNFUSE "unfuse"

/* wb-region-table.c */
const WbRegionStats *_wb_region_table_stats_of (WbRegionTable *self, const char *name, gboolean previous);
const WbRun         *_wb_region_table_own_run (WbRegionTable *self);
void                 _wb_region_table_collect (GHashTable *types, WbBsym *const *body, guint n);
gboolean             _wb_region_table_can_take (WbRegionTable *self, const WbRegion *region, const char *executor, char **why_not);

/* wb-region-table-page.c */
void _wb_region_table_update_page (WbRegionTable *self);

G_END_DECLS
