/* wb-preferences.h — the preferences window (style, default iterations, warm-up and device) over GSettings
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* wb_preferences_new: (transfer full) a preferences window bound to @settings, transient for @parent. */
GtkWindow *wb_preferences_new (GSettings *settings, GtkWindow *parent);

G_END_DECLS
