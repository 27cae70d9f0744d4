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

/* What one run of the built thunder-wb gave back: its exit status and its output (transfer full). */
typedef struct
{
  int   status;
  char *out;
  char *err;
} WbTestRun;

void wb_test_run_clear (WbTestRun *run);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WbTestRun, wb_test_run_clear)

/* wb_test_binary: $WB_BUILD_ROOT/app/thunder-wb; a test error when it is not built (transfer none). */
const char *wb_test_binary (void);
/* wb_test_run_thunder_wb: runs thunder-wb with the NULL-terminated @args in the C locale (LANGUAGE
 * unset), the variables of @unset (NULL-terminated, nullable) removed from its environment; fills @run.
 * A run that dies of a signal is a test error naming it, with its stderr. */
void wb_test_run_thunder_wb (WbTestRun *run, const char *const *unset, const char *const *args);

G_END_DECLS
