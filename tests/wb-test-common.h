/* wb-test-common.h — helpers shared by the tests: where the real traces are, walking them
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* wb_test_traces_dir: the real Thunder traces (../shared/traces, $WB_TRACES_DIR), or NULL if absent
 * (transfer none). */
const char *wb_test_traces_dir (void);
/* wb_test_samples_dir: the traces bundled in data/samples (transfer none). */
const char *wb_test_samples_dir (void);
/* wb_test_list_trace_files: every *.py file under @dir, recursively, sorted (transfer full). */
GPtrArray *wb_test_list_trace_files (const char *dir);
/* wb_test_read_file: the contents of @path or a test failure (transfer full). */
char *wb_test_read_file (const char *path, gsize *len);

/* wb_test_remove_tree: removes @path, a file or a directory with everything under it (symbolic links are
 * removed, never followed); errors are ignored (a test's temporary directory). */
void wb_test_remove_tree (const char *path);

G_END_DECLS
