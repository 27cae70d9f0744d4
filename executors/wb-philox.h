/* wb-philox.h — Philox 4x32-10, the counter-based random generator of Random123, cuRAND and PyTorch
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11) maps a 128-bit
 * counter and a 64-bit key to 128 random bits with 10 rounds of multiply-hi/lo and key bumps. It has no
 * state: the i-th number of a stream is a pure function of (key, counter), so any element can be drawn
 * independently and in parallel, and a run that replays the same (seed, offset) gets the same bits.
 *
 * How the workbench uses it (documented so that runs are reproducible; not bit-compatible with CUDA):
 *   key     = the 64-bit seed (k0 = low word, k1 = high word)
 *   counter = (c0, c1) = the 64-bit block number, (c2, c3) = the 64-bit stream (subsequence) number
 *   element i of a draw uses block (offset + i / 4) and word i % 4 of that block's output.
 * Thunder's prims.uniform_philox(shape, minval, maxval, *, device, dtype, seed, offset) is given exactly
 * these semantics: offset counts 128-bit blocks, and a draw of n elements consumes ceil(n / 4) blocks.
 * prims.uniform without a seed draws from the run's generator state (seed, offset), which then
 * advances by ceil(n / 4), as Thunder's get_and_update_rng_state does. PyTorch's CUDA kernels map
 * threads to counters differently, so values are not bit-identical to a GPU run of the same seed;
 * they have the same distribution and are identical between runs and between stages of the workbench. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/* wb_philox4x32_10: the 128 output bits for @counter (4 words) under @key (2 words), into @out. */
void wb_philox4x32_10 (const guint32 counter[4],
                       const guint32 key[2],
                       guint32       out[4]);

/* wb_philox_fill_u32: @n words of stream @stream under @seed, starting at block @offset (element i takes
 * word i % 4 of block offset + i / 4). */
void wb_philox_fill_u32 (guint64  seed,
                         guint64  stream,
                         guint64  offset,
                         guint32 *out,
                         gsize    n);

/* wb_philox_uniform_f32: @n floats in [0, 1) from the top 24 bits of each word (same layout as
 * wb_philox_fill_u32). */
void wb_philox_uniform_f32 (guint64 seed,
                            guint64 stream,
                            guint64 offset,
                            float  *out,
                            gsize   n);
/* wb_philox_uniform_f64: @n doubles in [0, 1) with 53 random bits each; element i uses words 2i and
 * 2i+1 (so it consumes ceil(n / 2) blocks). Large draws are split over the cpu executor's threads
 * (wb_cpu_executor_set_num_threads); the values do not depend on the split. */
void wb_philox_uniform_f64 (guint64 seed,
                            guint64 stream,
                            guint64 offset,
                            double *out,
                            gsize   n);
/* wb_philox_normal_f64: @n standard normal doubles by Box-Muller on pairs of uniform doubles
 * (consumes ceil(n / 2) * 2 uniform doubles, i.e. n rounded up to even, from block @offset). Split over
 * threads as wb_philox_uniform_f64, with the same values for any split. */
void wb_philox_normal_f64 (guint64 seed,
                           guint64 stream,
                           guint64 offset,
                           double *out,
                           gsize   n);
/* wb_philox_blocks_for: blocks consumed by a draw of @n 32-bit elements: ceil(n / 4). */
guint64 wb_philox_blocks_for (gsize n);
/* wb_philox_stream_from_name: a 64-bit stream number from a name (FNV-1a), so that named inputs draw
 * independent streams regardless of their order. */
guint64 wb_philox_stream_from_name (const char *name);

G_END_DECLS
