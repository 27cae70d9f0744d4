/* wb-philox.c — Philox 4x32-10 and the draws built on it (see wb-philox.h for the counter layout)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "wb-executors-private.h"
#include "wb-executors.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static inline void
philox_round (guint32 c[4], const guint32 k[2])
{
  guint64 p0 = (guint64) PHILOX_M0 * c[0];
  guint64 p1 = (guint64) PHILOX_M1 * c[2];
  guint32 hi0 = (guint32) (p0 >> 32), lo0 = (guint32) p0;
  guint32 hi1 = (guint32) (p1 >> 32), lo1 = (guint32) p1;
  guint32 n0 = hi1 ^ c[1] ^ k[0];
  guint32 n2 = hi0 ^ c[3] ^ k[1];

  c[0] = n0;
  c[1] = lo1;
  c[2] = n2;
  c[3] = lo0;
}

void
wb_philox4x32_10 (const guint32 counter[4],
                  const guint32 key[2],
                  guint32       out[4])
{
  guint32 c[4] = { counter[0], counter[1], counter[2], counter[3] };
  guint32 k[2] = { key[0], key[1] };

  for (int r = 0; r < 10; r++)
    {
      if (r > 0)
        {
          k[0] += PHILOX_W0;
          k[1] += PHILOX_W1;
        }
      philox_round (c, k);
    }
  out[0] = c[0];
  out[1] = c[1];
  out[2] = c[2];
  out[3] = c[3];
}

static inline void
philox_block (guint64 seed, guint64 stream, guint64 block, guint32 out[4])
{
  guint32 ctr[4] = { (guint32) block, (guint32) (block >> 32), (guint32) stream, (guint32) (stream >> 32) };
  guint32 key[2] = { (guint32) seed, (guint32) (seed >> 32) };

  wb_philox4x32_10 (ctr, key, out);
}

void
wb_philox_fill_u32 (guint64  seed,
                    guint64  stream,
                    guint64  offset,
                    guint32 *out,
                    gsize    n)
{
  guint32 w[4];

  for (gsize i = 0; i < n; i += 4)
    {
      philox_block (seed, stream, offset + i / 4, w);
      for (gsize j = 0; j < 4 && i + j < n; j++)
        out[i + j] = w[j];
    }
}

void
wb_philox_uniform_f32 (guint64 seed,
                       guint64 stream,
                       guint64 offset,
                       float  *out,
                       gsize   n)
{
  guint32 w[4];

  for (gsize i = 0; i < n; i += 4)
    {
      philox_block (seed, stream, offset + i / 4, w);
      for (gsize j = 0; j < 4 && i + j < n; j++)
        out[i + j] = (float) (w[j] >> 8) * (1.0f / 16777216.0f);
    }
}

static void
uniform_f64 (guint64 seed, guint64 stream, guint64 offset, double *out, gsize n)
{
  guint32 w[4];

  for (gsize i = 0; i < n; i += 2)
    {
      philox_block (seed, stream, offset + i / 2, w);
      for (gsize j = 0; j < 2 && i + j < n; j++)
        {
          guint64 bits = ((guint64) w[2 * j] << 32 | w[2 * j + 1]) >> 11;

          out[i + j] = (double) bits * (1.0 / 9007199254740992.0);
        }
    }
}

static void
normal_f64 (guint64 seed, guint64 stream, guint64 offset, double *out, gsize n)
{
  double u[2];

  for (gsize i = 0; i < n; i += 2)
    {
      double r, theta;

      uniform_f64 (seed, stream, offset + i / 2, u, 2);
      r = sqrt (-2.0 * log (1.0 - u[0])); /* 1 - u is in (0, 1] */
      theta = 2.0 * G_PI * u[1];
      out[i] = r * cos (theta);
      if (i + 1 < n)
        out[i + 1] = r * sin (theta);
    }
}

/* The f64 draws over threads (_wb_parallel_for): element pair p takes block offset + p whichever thread draws
 * it, so the values do not depend on the split. On the 2-core build machine a normal draw takes ~33 ns an
 * element alone (release build); the inputs of a profile run are hundreds of millions of elements. */
#define DRAW_GRAIN_PAIRS 65536

typedef struct
{
  guint64  seed, stream, offset;
  double  *out;
  gsize    n;
  gboolean normal;
} Draw;

static void
draw_pairs (gint64 begin, gint64 end, gpointer data)
{
  const Draw *d = data;
  gsize       i0 = 2 * (gsize) begin, i1 = MIN (2 * (gsize) end, d->n);

  (d->normal ? normal_f64 : uniform_f64) (d->seed, d->stream, d->offset + (guint64) begin, d->out + i0, i1 - i0);
}

static void
draw (guint64 seed, guint64 stream, guint64 offset, double *out, gsize n, gboolean normal)
{
  Draw d = { seed, stream, offset, out, n, normal };

  _wb_parallel_for ((gint64) ((n + 1) / 2), DRAW_GRAIN_PAIRS, draw_pairs, &d);
}

void
wb_philox_uniform_f64 (guint64 seed,
                       guint64 stream,
                       guint64 offset,
                       double *out,
                       gsize   n)
{
  draw (seed, stream, offset, out, n, FALSE);
}

void
wb_philox_normal_f64 (guint64 seed,
                      guint64 stream,
                      guint64 offset,
                      double *out,
                      gsize   n)
{
  draw (seed, stream, offset, out, n, TRUE);
}

guint64
wb_philox_blocks_for (gsize n)
{
  return (n + 3) / 4;
}

guint64
wb_philox_stream_from_name (const char *name)
{
  guint64 h = 0xcbf29ce484222325ull;

  for (const char *p = name; p && *p; p++)
    {
      h ^= (guint8) *p;
      h *= 0x100000001b3ull;
    }
  return h;
}
