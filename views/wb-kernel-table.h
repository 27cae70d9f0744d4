/* wb-kernel-table.h — the latest run's kernel records in a table sortable by every column
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_KERNEL_TABLE (wb_kernel_table_get_type ())
G_DECLARE_FINAL_TYPE (WbKernelTable, wb_kernel_table, WB, KERNEL_TABLE, GtkWidget)

/* The columns, in order. */
typedef enum
{
  WB_KERNEL_COLUMN_NAME,
  WB_KERNEL_COLUMN_REGION,
  WB_KERNEL_COLUMN_LINE,
  WB_KERNEL_COLUMN_STREAM,
  WB_KERNEL_COLUMN_GRID,
  WB_KERNEL_COLUMN_BLOCK,
  WB_KERNEL_COLUMN_REGISTERS,
  WB_KERNEL_COLUMN_SHARED,
  WB_KERNEL_COLUMN_DURATION,
  WB_KERNEL_COLUMN_KIND, /* "collective" for communication kernels (wb_kernel_record_is_communication), else "compute" */
  WB_KERNEL_N_COLUMNS
} WbKernelColumn;

GtkWidget *wb_kernel_table_new (void);
void       wb_kernel_table_set_document (WbKernelTable *self, WbDocument *document);
guint      wb_kernel_table_get_n_rows (WbKernelTable *self);
/* wb_kernel_table_get_row: (transfer none) the kernel shown on row @row (in the current sort order). */
const WbKernelRecord *wb_kernel_table_get_row (WbKernelTable *self, guint row);
/* wb_kernel_table_dup_cell: (transfer full) (nullable) the text of @column on row @row, as shown; NULL
 * past the last row. */
char *wb_kernel_table_dup_cell (WbKernelTable *self, guint row, WbKernelColumn column);
/* wb_kernel_table_sort: sorts by @column as a click on its header does. */
void wb_kernel_table_sort (WbKernelTable *self, WbKernelColumn column, gboolean descending);

G_END_DECLS
