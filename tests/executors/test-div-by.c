/* test-div-by.c — wb_div_by (executors/cuda/wb-cuda-prelude.cuh), the generated kernels' x / c for a
 * number c, against IEEE division (suite executors; no GPU: the arithmetic is IEEE float multiply and fma,
 * the same on the host as on the device)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The device function is text that NVRTC compiles; this file holds the same arithmetic in C and first
 * checks that the prelude still contains it, statement for statement. Then, for 15 constants c and
 * every x of a stride through all 2^32 float bit patterns (every pattern with --all, about two minutes
 * per constant), wb_div_by (x, c, rc) must be bit-identical to x / c wherever the quotient is a normal
 * float, and may differ only in the last place where it is subnormal. rc is the float nearest 1 / c,
 * found here independently of the code generator (by the error of c r in long double). */
#include "config.h"

#include <float.h>
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wb-cuda.h"

static gboolean all_patterns;

/* the prelude's statements, in its order (what wb_div_by computes) */
static const char *const device_statements[] = {
  "const bool  tiny = fabsf (x) < 0x1p-100f;",
  "const float xs = tiny ? x * 0x1p+64f : x;",
  "const float q = xs * rc;",
  "const float q1 = fmaf (fmaf (-q, c, xs), rc, q);",
  "return fabsf (q) <= 3.402823466e38f ? (tiny ? q1 * 0x1p-64f : q1) : q;",
};

static float
div_by (float x, float c, float rc)
{
  const gboolean tiny = fabsf (x) < 0x1p-100f;
  const float    xs = tiny ? x * 0x1p+64f : x;
  const float    q = xs * rc;
  const float    q1 = fmaf (fmaf (-q, c, xs), rc, q);
  return fabsf (q) <= 3.402823466e38f ? (tiny ? q1 * 0x1p-64f : q1) : q;
}

/* the float nearest 1 / c, by the exact error of each candidate */
static float
nearest_reciprocal (float c)
{
  float       r = 1.0f / c, best = r;
  long double err = fabsl (1.0L - (long double) c * r);

  for (int step = -2; step <= 2; step++)
    {
      float cand = r;
      for (int i = 0; i < abs (step); i++)
        cand = nextafterf (cand, step < 0 ? -INFINITY : INFINITY);
      if (isfinite (cand) && fabsl (1.0L - (long double) c * cand) < err)
        best = cand, err = fabsl (1.0L - (long double) c * cand);
    }
  return best;
}

static void
test_prelude_has_the_statements (void)
{
  const char *prelude = wb_cuda_codegen_prelude ();
  const char *fn = strstr (prelude, "wb_div_by (float x, float c, float rc)");
  const char *at;

  g_assert_nonnull (fn);
  at = fn;
  for (guint i = 0; i < G_N_ELEMENTS (device_statements); i++)
    {
      const char *next = strstr (at, device_statements[i]);
      if (next == NULL)
        g_error ("wb-cuda-prelude.cuh's wb_div_by no longer has \"%s\" after the previous statement: update %s", device_statements[i],
                 __FILE__);
      at = next + strlen (device_statements[i]);
    }
}

static void
test_bit_identical (gconstpointer data)
{
  const float c = *(const float *) data;
  const float rc = nearest_reciprocal (c);
  guint64     stride = all_patterns ? 1 : 1021, checked = 0, subnormal_diffs = 0;

  for (guint64 u = 0; u < (G_GUINT64_CONSTANT (1) << 32); u += stride)
    {
      guint32 bits = (guint32) u;
      float   x, want, got;
      memcpy (&x, &bits, sizeof x);
      if (isnan (x))
        continue;
      want = x / c;
      got = div_by (x, c, rc);
      checked++;
      if (memcmp (&want, &got, sizeof want) == 0)
        continue;
      if (fabsf (want) < FLT_MIN && fabsf (got) <= FLT_MIN && fabsf (want - got) <= 0x1p-149f)
        {
          subnormal_diffs++;
          continue;
        }
      if (isinf (got) && fabsf (want) > 0x1.fffffcp+127f)
        continue; /* within rounding of FLT_MAX: x rc overflowed */
      g_error ("c = %a (rc = %a): x = %a gives %a, x / c = %a", (double) c, (double) rc, (double) x, (double) got, (double) want);
    }
  g_test_message ("c = %a: %" G_GUINT64_FORMAT " values bit-identical but %" G_GUINT64_FORMAT " subnormal quotients (last place)",
                  (double) c, checked, subnormal_diffs);
  g_assert_cmpuint (checked, >, 4000000);
}

int
main (int argc, char **argv)
{
  static const float constants[] = { 1.4142135623730951f, 0.7071067811865476f, 0.35355339f, 5.656854f, 123.456f, 3.0f, 0.1f, 7.0f,
                                     1e-3f, 8.0f, 11008.0f, 1.1283791670955126f, 768.0f, 1e30f, 3e-30f };

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--all") == 0)
      all_patterns = TRUE;
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/div-by/prelude-has-the-statements", test_prelude_has_the_statements);
  for (guint i = 0; i < G_N_ELEMENTS (constants); i++)
    {
      g_autofree char *path = g_strdup_printf ("/div-by/bit-identical/%a", (double) constants[i]);
      g_test_add_data_func (path, &constants[i], test_bit_identical);
    }
  return g_test_run ();
}
