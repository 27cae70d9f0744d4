/* wb-symbol-view.h — the shown stage by symbol: all calls of one symbol together, with callers and callees
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "wb-data.h"
#include "wb-document.h"

G_BEGIN_DECLS

#define WB_TYPE_SYMBOL_VIEW (wb_symbol_view_get_type ())
G_DECLARE_FINAL_TYPE (WbSymbolView, wb_symbol_view, WB, SYMBOL_VIEW, GtkWidget)

GtkWidget *wb_symbol_view_new (void);
void       wb_symbol_view_set_document (WbSymbolView *self, WbDocument *document);
/* wb_symbol_view_get_n_rows: symbols of the shown stage. */
guint wb_symbol_view_get_n_rows (WbSymbolView *self);
/* wb_symbol_view_get_row: (transfer none) (nullable) the sums of symbol @key. */
const WbAggregateRow *wb_symbol_view_get_row (WbSymbolView *self, const char *key);
/* wb_symbol_view_select: shows @key's callers and callees (what selecting its row does). */
void  wb_symbol_view_select (WbSymbolView *self, const char *key);
guint wb_symbol_view_get_n_callers (WbSymbolView *self);
guint wb_symbol_view_get_n_callees (WbSymbolView *self);

G_END_DECLS
