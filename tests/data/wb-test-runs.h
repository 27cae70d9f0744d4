/* wb-test-runs.h — synthetic but realistic runs for the data tests and the session benchmark
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The profiler does not exist yet, so tests make runs themselves: region names, executors and lines come
 * from a real trace set (the last forward and backward traces of a case), times and kernels are drawn
 * from a generator seeded with the run's sequence number, so a run can be made again from its label
 * ("seq N") and compared with what a session gives back. */
#pragma once

#include "wb-data.h"

G_BEGIN_DECLS

/* One region of a stage, as the tests use it. */
typedef struct
{
  char   *name;     /* "TorchCompile0", "sdpafx_grad_forward_scaled_dot_product_efficient_attention" */
  char   *executor; /* "torchcompile", "sdpa" */
  guint32 line;     /* line of the call in its file */
} WbTestRegion;

/* wb_test_regions_from_set: the regions of the last forward and the last backward trace of the top-level
 * set: every top-level call of a fusion or of an executor's op. (transfer full) (element-type
 * WbTestRegion). */
GPtrArray *wb_test_regions_from_set (const WbTraceSet *set);
/* wb_test_regions_load: loads @case_dir and returns its regions (g_test fails on a parse error). */
GPtrArray *wb_test_regions_load (const char *case_dir);
/* wb_test_regions_to_string / _from_string: "name:executor:line;..." to pass regions on a command line. */
char      *wb_test_regions_to_string (const GPtrArray *regions);
GPtrArray *wb_test_regions_from_string (const char *text);

/* wb_test_make_run: (transfer full) run number @seq over @regions: label "seq N", @n_iters timed
 * iterations, @n_kernels kernel records spread over the regions, executors varying with @seq (so runs
 * differ in assignment), every figure a function of @seq alone. Even @seq: kernel attribution figures
 * (source "cupti" when @seq % 4 == 0, else CUDA events); odd @seq: none. */
WbRun *wb_test_make_run (const GPtrArray *regions,
                         guint64          seq,
                         guint            n_iters,
                         guint            n_kernels);
/* wb_test_run_seq: the N of a run labelled "seq N"; -1 when the label is not one. */
gint64 wb_test_run_seq (const WbRun *run);

G_END_DECLS

G_BEGIN_DECLS

/* wb_test_spawn_writer: fork + exec of wb-session-writer ($WB_SESSION_WRITER) with these arguments
 * (see wb-session-writer.c); its stdout goes to a pipe whose read end is returned in *@stdout_fd, its
 * stderr to ours. Returns the child's pid (the caller reaps it with waitpid). */
GPid wb_test_spawn_writer (const char *session,
                           const char *regions,
                           guint64     first,
                           guint64     count,
                           guint       kernels,
                           guint       iters,
                           int        *stdout_fd);
/* wb_test_read_fd: (transfer full) everything that can be read from @fd until end of file; closes @fd. */
char *wb_test_read_fd (int fd);

G_END_DECLS
