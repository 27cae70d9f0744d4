/* wb-region-table-private.h — what the files of WbRegionTable share (wb-region-table.h); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-region-table.c       the widget: the table (data by name, columns, the executor drop-downs), selection,
 *                         profiling with an assignment, the public API
 * wb-region-table-page.c  the selected region's page: its bound symbols, every executor's claim, what runs it
 * wb-region-table-profile.c  profiling: the dialog that asks first, progress, cancel
 * Every name here is private to libwbviews (hidden visibility). */
#pragma once

#include "wb-views.h"

G_BEGIN_DECLS

struct _WbRegionTable
{
  GtkWidget parent_instance;

  WbDocument     *document;
  GCancellable   *cancellable;
  guint           iters, warmup;
  WbProfileDevice device;
  gboolean        confirm;        /* ask before profiling (the dialog) */
  GtkWidget      *confirm_dialog; /* (nullable) the dialog shown */
  WbAssignment   *pending;        /* (nullable) what the dialog would run */
  gint64          cancelled_us;   /* when Cancel was pressed; 0 when not */
  gboolean        binding;
  gboolean        run_regions; /* the rows are the latest run's own regions (a run of another stage) */

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
/* the row of the iteration's time between the timed calls (shown translated) */
#define WB_REGION_TABLE_OTHER "(between calls)"

/* wb-region-table.c */
const WbRegionStats *_wb_region_table_stats_of (WbRegionTable *self, const char *name, gboolean previous);
const WbRun         *_wb_region_table_own_run (WbRegionTable *self);
void                 _wb_region_table_collect (GHashTable *types, WbBsym *const *body, guint n);
gboolean             _wb_region_table_can_take (WbRegionTable *self, const WbRegion *region, const char *executor, char **why_not);

void _wb_region_table_show_message (WbRegionTable *self, const char *message, gboolean is_error);

/* wb-region-table-page.c */
void _wb_region_table_update_page (WbRegionTable *self);

G_END_DECLS
