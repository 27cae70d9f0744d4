/* test-ui-zoo.h — what the files of test-ui-zoo share: the window, its real input, the case on screen
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-ui-zoo.c        the cases, open through the chooser, the log writer, main
 * test-ui-zoo-steps.c  every stage stepped with Alt+Right, each pane checked against the files; the
 *                      graph's first picture; a cpu profile's rows */
#pragma once

#include <string.h>

#include "wb-ui-common.h"
#include "wb-ui-input.h"

extern WbWindow  *zoo_window; /* one window, every case opened in it in turn (as a user does) */
extern WbUiInput *zoo_input;  /* real input to it */

double zoo_ms_since (gint64 t0);
/* zoo_set_context: what the log writer names with any warning: "CASE" or "CASE entry N (what)" */
void        zoo_set_context (const char *format, ...) G_GNUC_PRINTF (1, 2);
const char *context_text (void);
/* zoo_click_view: a click on the view switcher's button of view @title ("Stages", "Graph", ...) */
void zoo_click_view (const char *title);

/* test-ui-zoo-steps.c; @what names the case in messages */
void zoo_step_stages (const char *what);
void zoo_graph (const char *what);
void zoo_profile (const char *what);
