/* wb-application.h — the GTK application (AdwApplication): windows, app actions, shortcuts
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WB_TYPE_APPLICATION (wb_application_get_type ())
G_DECLARE_FINAL_TYPE (WbApplication, wb_application, WB, APPLICATION, AdwApplication)

/* wb_application_new: (transfer full) the application; it opens @path (nullable) in its first window. */
WbApplication *wb_application_new (const char *path);

/* wb_application_get_settings: (transfer none) (nullable) the preferences; NULL when the schema
 * dev.thunderwb.Workbench is not installed (an uninstalled build without GSETTINGS_SCHEMA_DIR). */
GSettings *wb_application_get_settings (WbApplication *self);

/* wb_application_run: runs the GUI on @path (nullable) and returns a WbExitCode: 3 when no display
 * can be opened. */
int wb_application_run (const char *path);

G_END_DECLS
