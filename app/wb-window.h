/* wb-window.h — the main window: a header bar and the stage view of one trace set
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WB_TYPE_WINDOW (wb_window_get_type ())
G_DECLARE_FINAL_TYPE (WbWindow, wb_window, WB, WINDOW, AdwApplicationWindow)

/* wb_window_new: (transfer none) a new window of @application (the application holds it). */
WbWindow *wb_window_new (GtkApplication *application);
/* wb_window_open: loads @path (a trace file, a directory of them, or a .wbsession: its latest trace set and runs) on a worker thread and shows it;
 * a load error is shown in the window with its file:line:col. */
void wb_window_open (WbWindow   *self,
                     const char *path);

/* For tests and benchmarks: (transfer none) the window's parts. */
struct _WbDocument *wb_window_get_document (WbWindow *self);
GtkWidget          *wb_window_get_stage_view (WbWindow *self);
GtkWidget          *wb_window_get_sidebar (WbWindow *self);
GtkWidget          *wb_window_get_region_table (WbWindow *self);
GtkWidget          *wb_window_get_graph_view (WbWindow *self);
/* wb_window_get_recent_menu: (transfer none) the "Open Recent" submenu (GtkRecentManager's items). */
GMenuModel *wb_window_get_recent_menu (WbWindow *self);
GtkWidget  *wb_window_get_timeline (WbWindow *self);
GtkWidget  *wb_window_get_kernel_table (WbWindow *self);
GtkWidget  *wb_window_get_compare_view (WbWindow *self);
/* wb_window_can_record: whether a thunder-wb that records was found (else the Record action is hidden). */
gboolean wb_window_can_record (WbWindow *self);
/* wb_window_show_view: "stages", "regions", "graph", "compare", "symbols", "timeline". */
void wb_window_show_view (WbWindow *self, const char *name);
/* wb_window_is_loading: TRUE while a load is in flight. */
gboolean wb_window_is_loading (WbWindow *self);
/* wb_window_find_sample: (transfer full) (nullable) the bundled sample's folder (data/samples/mlp_small),
 * installed under PKGDATADIR or, from a build directory, in the source tree; the welcome page's
 * "Open the Sample" (win.open-sample) opens it. */
char *wb_window_find_sample (void);

/* wb_window_get_welcome_recent: (transfer none) the welcome page's box of recent files, a button each. */
GtkWidget *wb_window_get_welcome_recent (WbWindow *self);
/* wb_window_get_symbol_view: (transfer none) the Symbols page (WbSymbolView). */
GtkWidget *wb_window_get_symbol_view (WbWindow *self);

G_END_DECLS
