/* wb-cpu-executor.h — the `cpu` executor: the reference that runs every stage anywhere
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kernels in plain C (one file per category) plus OpenBLAS for matmul, linear, convolution and attention.
 * Which symbols it runs: wb-cpu-elementwise.def and wb-cpu-ops.def; everything else with subsymbols runs
 * through its decomposition. Threads: kernels split work over the configured threads
 * (wb_cpu_executor_set_num_threads, default: $WB_NUM_THREADS or the number of processors), and OpenBLAS
 * uses the same count. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-executor.h"

G_BEGIN_DECLS

/* wb_cpu_executor_get: (transfer none) the process-wide cpu executor. Thread-safe. */
WbExecutor *wb_cpu_executor_get (void);
/* wb_cpu_executor_set_num_threads: threads for kernels and OpenBLAS (>= 1). */
void  wb_cpu_executor_set_num_threads (guint n);
guint wb_cpu_executor_get_num_threads (void);

G_END_DECLS
