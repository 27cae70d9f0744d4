/* test-ui-loop.h — what the files of test-ui-loop share: the window, its real input, the parts
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-ui-loop.c       open, the cases, main
 * test-ui-loop-view.c  every stage stepped (the aligned diff), a region expanded by a click
 * test-ui-loop-run.c   a profile and a range of the timeline, an executor changed, a run cancelled */
#pragma once

#include <math.h>
#include <string.h>

#include "wb-ui-common.h"
#include "wb-ui-input.h"

extern WbWindow  *window; /* the case's window, open */
extern WbUiInput *input;  /* real input to it (NULL: none; the tests skip) */

/* loop_have_input: FALSE, the test skipped (failed under WB_UI_REQUIRE_XTEST), without real input */
gboolean loop_have_input (void);
double   loop_ms_since (gint64 t0);
char    *loop_zoo_case (const char *name);
/* loop_shot: a PNG of the window, also copied into $WB_UI_SHOTS when set */
void loop_shot (const char *name);
void loop_open (const char *path, guint min_entries, const char *what);
void loop_close (void);

/* test-ui-loop-view.c */
void loop_stages (const char *what, guint max_entries);
void loop_graph_expand (const char *what);

/* test-ui-loop-run.c */
void loop_profile_and_range (const char *what, guint iters);
void loop_change_executor (const char *what);
void loop_cancel (const char *what);
