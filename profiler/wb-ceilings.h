/* wb-ceilings.h — what the device can do at best: measuring the cpu's ceilings and caching them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On cpu (WbDeviceCeilings of wb-run.h):
 *   copy_gbps    a 128 MiB memcpy split over the cpu executor's threads; bytes read + bytes written
 *                (2 x 128 MiB) over the fastest copy, GB/s (10^9). Counted like a region's bytes moved
 *                (inputs read + outputs written), so a region's achieved GB/s compares with it directly.
 *                This is main-memory bandwidth: a region whose data stays in the CPU's caches can exceed it.
 *   bf16_tflops  on cpu: the f32 rate of one 2048 x 2048 x 2048 cblas_sgemm through OpenBLAS (the path the
 *                cpu executor's matmul and linear take; bf16 is computed in f32 there), the fastest call,
 *                TFLOP/s. The field keeps its name because on cuda it holds the large bf16 matmul rate.
 * Each is repeated at least 3 times and for at least 0.3 s (at most 20 times) and the best kept: on a
 * busy machine the best is the closest to what the hardware can do.
 * Both depend on the CPU model and the thread count, so the device model is "MODEL (N threads)".
 * On cuda the GPU runner measures them (thunder-wb-runner, RUN with `ceilings`): copy_gbps from a 1 GiB
 * cuMemcpyDtoDAsync (bytes read + written, fastest of 20), bf16_tflops from an 8192^3 bf16 cuBLASLt matmul
 * (fastest of 10); the device model is the GPU's name. The same cache keeps both kinds.
 *
 * Cache: measured once per device model and kept in the session when there is one (data/), else in
 * $XDG_CACHE_HOME/thunder-wb/ceilings.json: {"version": 1, "ceilings": [{"device_model", "copy_gbps",
 * "bf16_tflops", "measured_at_us"}]}. Threads: call from one thread at a time. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-run.h"

G_BEGIN_DECLS

/* wb_cpu_get_model_name: (transfer full) /proc/cpuinfo's "model name" (or the processor's name from
 * another field; "unknown CPU" when none). */
char *wb_cpu_get_model_name (void);
/* wb_cpu_device_model: (transfer full) "MODEL (N threads)" with the cpu executor's thread count. */
char *wb_cpu_device_model (void);
/* wb_ceilings_measure_cpu: (transfer full) the ceilings of this machine's cpu as described above (takes
 * about a second; needs 256 MiB). NULL with G_IO_ERROR_NO_SPACE when the buffers cannot be allocated. */
WbDeviceCeilings *wb_ceilings_measure_cpu (GError **error);
/* wb_ceilings_cache_path: (transfer full) $XDG_CACHE_HOME/thunder-wb/ceilings.json. */
char *wb_ceilings_cache_path (void);
/* wb_ceilings_cache_lookup: (transfer full) the cached ceilings of @device_model, or NULL when there are
 * none (a missing or unreadable cache file counts as none). */
WbDeviceCeilings *wb_ceilings_cache_lookup (const char *device_model);
/* wb_ceilings_cache_store: adds or replaces @ceilings in the cache file (written atomically). */
gboolean wb_ceilings_cache_store (const WbDeviceCeilings *ceilings,
                                  GError                **error);

G_END_DECLS
