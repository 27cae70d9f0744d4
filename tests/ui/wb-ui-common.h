/* wb-ui-common.h — helpers of the ui tests: start the app on a display, wait, take screenshots
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-application.h"
#include "wb-views.h"
#include "wb-window.h"

/* wb_ui_init: gtk/adw/sourceview init and translations from the build tree; FALSE when no display. */
gboolean wb_ui_init (int *argc, char ***argv);
/* wb_ui_new_window: a window of a registered application (1500x900), shown with nothing open. */
WbWindow *wb_ui_new_window (void);
/* wb_ui_open: a window of a registered application showing @path, waited for. */
WbWindow *wb_ui_open (const char *path);
/* wb_ui_wait: iterates the main loop until @done (@data) or @timeout_s; FALSE on timeout. */
gboolean wb_ui_wait (gboolean (*done) (gpointer), gpointer data, double timeout_s);
void     wb_ui_spin (double seconds);
/* wb_ui_screenshot: saves @widget as BUILD/tests/ui/screenshots/@name.png; returns the path. */
char *wb_ui_screenshot (GtkWidget *widget, const char *name);
/* wb_ui_case_path: $WB_TRACES_DIR/@name when it exists, else data/samples/mlp_small. */
char *wb_ui_case_path (const char *name);
/* wb_ui_count_kernels_in_range: the kernels of @run overlapping [@from, @to) (ns after its first kernel's start)
 * and, in *@ns, their time inside it: counted here on their own, to check what the timeline's range says. */
guint wb_ui_count_kernels_in_range (const WbRun *run, gint64 from, gint64 to, gint64 *ns);
