/* test-runtime.c — the runtime: tensor views, bf16/f16 rounding, Philox, safetensors, comparison
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "wb-test-common.h"
#include "wb-test-executors.h"

static void
test_views (void)
{
  double v[24];
  g_autoptr (WbTensor) t = NULL;
  g_autoptr (WbTensor) p = NULL;
  g_autoptr (WbTensor) r = NULL;
  g_autoptr (WbTensor) r2 = NULL;
  g_autoptr (WbTensor) b = NULL;
  g_autoptr (WbTensor) s = NULL;
  g_autoptr (WbTensor) c = NULL;
  g_autoptr (GError) error = NULL;

  for (int i = 0; i < 24; i++)
    v[i] = i;
  t = wb_test_tensor (WB_DTYPE_FLOAT32, 3, (gint64[]){ 2, 3, 4 }, v);
  g_assert_true (wb_tensor_is_contiguous (t));

  /* permute (2, 0, 1): a view; element [k, i, j] = t[i, j, k] */
  p = wb_tensor_permute (t, (gint64[]){ 2, 0, 1 }, &error);
  g_assert_no_error (error);
  g_assert_true (wb_tensor_shares_storage (p, t));
  g_assert_false (wb_tensor_is_contiguous (p));
  g_assert_cmpint (p->shape[0], ==, 4);
  g_assert_cmpfloat (wb_tensor_get_f64 (p, 1 * 6 + 1 * 3 + 2), ==, v[1 * 12 + 2 * 4 + 1]);

  /* reshape of a contiguous tensor is a view; of the permuted one a copy */
  r = wb_tensor_reshape (t, 2, (gint64[]){ 6, 4 }, &error);
  g_assert_no_error (error);
  g_assert_true (wb_tensor_shares_storage (r, t));
  {
    /* [4, 2, 3] with strides (1, 12, 4): the last two dims merge into a view, the first two cannot */
    g_autoptr (WbTensor) merged = wb_tensor_reshape (p, 2, (gint64[]){ 4, 6 }, &error);
    g_assert_no_error (error);
    g_assert_true (wb_tensor_shares_storage (merged, t));
    g_assert_cmpfloat (wb_tensor_get_f64 (merged, 7), ==, wb_tensor_get_f64 (p, 7));
  }
  r2 = wb_tensor_reshape (p, 2, (gint64[]){ 8, 3 }, &error);
  g_assert_no_error (error);
  g_assert_false (wb_tensor_shares_storage (r2, t));
  for (gint64 i = 0; i < 24; i++)
    g_assert_cmpfloat (wb_tensor_get_f64 (r2, i), ==, wb_tensor_get_f64 (p, i));
  g_assert_null (wb_tensor_reshape (t, 2, (gint64[]){ 5, 5 }, &error));
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);

  /* broadcast [4] -> [3, 4]: stride 0 */
  {
    g_autoptr (WbTensor) row = wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 4 }, v);
    b = wb_tensor_broadcast_in_dim (row, 2, (gint64[]){ 3, 4 }, (gint64[]){ 1 }, &error);
    g_assert_no_error (error);
    g_assert_cmpint (b->strides[0], ==, 0);
    g_assert_cmpfloat (wb_tensor_get_f64 (b, 2 * 4 + 3), ==, 3);
  }

  /* slice [0:2, 1:3, 0:4:2] */
  s = wb_tensor_slice (t, (gint64[]){ 0, 1, 0 }, (gint64[]){ 2, 3, 4 }, (gint64[]){ 1, 1, 2 }, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->shape[2], ==, 2);
  g_assert_cmpfloat (wb_tensor_get_f64 (s, 1 * 4 + 1 * 2 + 1), ==, v[1 * 12 + 2 * 4 + 2]);
  g_assert_null (wb_tensor_slice (t, (gint64[]){ 0, 0, 0 }, (gint64[]){ 3, 3, 4 }, NULL, &error));
  g_clear_error (&error);

  /* contiguous copy with conversion to bf16 */
  c = wb_tensor_to_dtype (p, WB_DTYPE_BFLOAT16, &error);
  g_assert_no_error (error);
  g_assert_true (wb_tensor_is_contiguous (c));
  for (gint64 i = 0; i < 24; i++)
    g_assert_cmpfloat (wb_tensor_get_f64 (c, i), ==, wb_tensor_get_f64 (p, i));
}

static guint32
f32_bits (float f)
{
  guint32 u;

  memcpy (&u, &f, 4);
  return u;
}

static float
bits_f32 (guint32 u)
{
  float f;

  memcpy (&f, &u, 4);
  return f;
}

static void
test_half (void)
{
  /* bf16: round to nearest, ties to even (c10::BFloat16) */
  g_assert_cmphex (wb_f32_to_bf16 (1.0f), ==, 0x3f80);
  g_assert_cmphex (wb_f32_to_bf16 (bits_f32 (0x3f808000)), ==, 0x3f80); /* tie, even stays */
  g_assert_cmphex (wb_f32_to_bf16 (bits_f32 (0x3f818000)), ==, 0x3f82); /* tie, odd rounds up */
  g_assert_cmphex (wb_f32_to_bf16 (bits_f32 (0x3f808001)), ==, 0x3f81); /* above the tie */
  g_assert_cmphex (wb_f32_to_bf16 (-2.0f), ==, 0xc000);
  g_assert_cmphex (wb_f32_to_bf16 (bits_f32 (0x7f7fffff)), ==, 0x7f80); /* FLT_MAX rounds to inf */
  g_assert_cmphex (wb_f32_to_bf16 (NAN), ==, 0x7fc0);
  g_assert_cmphex (wb_f32_to_bf16 (INFINITY), ==, 0x7f80);
  g_assert_cmphex (f32_bits (wb_bf16_to_f32 (0x3f81)), ==, 0x3f810000);

  /* f16: IEEE binary16, ties to even, subnormals kept */
  g_assert_cmphex (wb_f32_to_f16 (1.0f), ==, 0x3c00);
  g_assert_cmphex (wb_f32_to_f16 (65504.0f), ==, 0x7bff);
  g_assert_cmphex (wb_f32_to_f16 (65519.0f), ==, 0x7bff);
  g_assert_cmphex (wb_f32_to_f16 (65520.0f), ==, 0x7c00);               /* tie at the top: to even = inf */
  g_assert_cmphex (wb_f32_to_f16 (ldexpf (1, -24)), ==, 0x0001);        /* smallest subnormal */
  g_assert_cmphex (wb_f32_to_f16 (ldexpf (1, -25)), ==, 0x0000);        /* tie: to even 0 */
  g_assert_cmphex (wb_f32_to_f16 (ldexpf (3, -25)), ==, 0x0002);        /* 1.5 ulp: to even 2 */
  g_assert_cmphex (wb_f32_to_f16 (1.0f + ldexpf (1, -11)), ==, 0x3c00); /* tie, even */
  g_assert_cmphex (wb_f32_to_f16 (1.0f + ldexpf (3, -11)), ==, 0x3c02); /* tie, odd up */
  g_assert_cmphex (wb_f32_to_f16 (-0.0f), ==, 0x8000);
  g_assert_cmphex (wb_f32_to_f16 (NAN), ==, 0x7e00);
  g_assert_cmpfloat (wb_f16_to_f32 (0x0001), ==, ldexpf (1, -24));
  g_assert_cmpfloat (wb_f16_to_f32 (0x7bff), ==, 65504.0f);
  g_assert_cmpfloat (wb_f16_to_f32 (0xc000), ==, -2.0f);
  g_assert_true (isinf (wb_f16_to_f32 (0x7c00)));

  /* every bf16 and f16 value converts to f32 and back unchanged (NaNs to the canonical NaN) */
  for (guint32 h = 0; h < 0x10000; h++)
    {
      float b = wb_bf16_to_f32 ((guint16) h), f = wb_f16_to_f32 ((guint16) h);
      if (!isnan (b))
        g_assert_cmphex (wb_f32_to_bf16 (b), ==, h);
      if (!isnan (f))
        g_assert_cmphex (wb_f32_to_f16 (f), ==, h);
    }
}

static void
test_philox (void)
{
  /* Random123 kat_vectors, philox4x32 10 rounds */
  static const struct
  {
    guint32 ctr[4], key[2], out[4];
  } kat[] = {
    { { 0, 0, 0, 0 }, { 0, 0 }, { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
    { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, { 0xffffffff, 0xffffffff }, { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
    { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 }, { 0xa4093822, 0x299f31d0 }, { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
  };
  guint32 out[4], a[12], b[8];
  float   u[1000];

  for (guint i = 0; i < G_N_ELEMENTS (kat); i++)
    {
      wb_philox4x32_10 (kat[i].ctr, kat[i].key, out);
      for (int k = 0; k < 4; k++)
        g_assert_cmphex (out[k], ==, kat[i].out[k]);
    }
  /* element i of a draw at block offset o is word i % 4 of block o + i / 4 */
  wb_philox_fill_u32 (42, 7, 100, a, 12);
  wb_philox_fill_u32 (42, 7, 101, b, 8);
  for (int i = 0; i < 8; i++)
    g_assert_cmphex (a[4 + i], ==, b[i]);
  /* uniform floats in [0, 1) with a sane mean */
  wb_philox_uniform_f32 (1, 0, 0, u, 1000);
  {
    double mean = 0;
    for (int i = 0; i < 1000; i++)
      {
        g_assert_cmpfloat (u[i], >=, 0.0f);
        g_assert_cmpfloat (u[i], <, 1.0f);
        mean += u[i] / 1000;
      }
    g_assert_cmpfloat (fabs (mean - 0.5), <, 0.05);
  }
  g_assert_cmpuint (wb_philox_blocks_for (9), ==, 3);
}

/* wb_philox_uniform_f64 / wb_philox_normal_f64 split large draws over threads: element i takes block
 * offset + i / 2 (words 2 (i % 2) and 2 (i % 2) + 1; a normal pair both words of its two uniforms' block), so the
 * values must not depend on the number of threads nor on where a draw starts. The reference is built here from
 * wb_philox_fill_u32's documented layout, one block at a time. */
static double
reference_uniform (guint64 seed, guint64 stream, guint64 offset, gsize i)
{
  guint32 w[4];

  wb_philox_fill_u32 (seed, stream, offset + i / 2, w, 4);
  return (double) ((((guint64) w[2 * (i % 2)] << 32) | w[2 * (i % 2) + 1]) >> 11) * (1.0 / 9007199254740992.0);
}

static void
test_philox_threads (void)
{
  const gsize        n = 300001; /* 150001 pairs: three parts of the parallel loop's grain, the last one odd */
  g_autofree double *u = g_new (double, n), *z = g_new (double, n), *u5 = g_new (double, n - 10);
  guint              saved = wb_cpu_executor_get_num_threads ();

  for (guint threads = 1; threads <= 4; threads += 3)
    {
      wb_cpu_executor_set_num_threads (threads);
      wb_philox_uniform_f64 (9, 4, 0, u, n);
      wb_philox_normal_f64 (9, 4, 0, z, n);
      wb_philox_uniform_f64 (9, 4, 5, u5, n - 10);
      for (gsize i = 0; i < n; i += (i < 1000 || n - i < 1000) ? 1 : 997)
        {
          g_assert_cmpfloat (u[i], ==, reference_uniform (9, 4, 0, i));
          if (i % 2 == 0)
            {
              double r = sqrt (-2.0 * log (1.0 - reference_uniform (9, 4, 0, i)));
              double theta = 2.0 * G_PI * reference_uniform (9, 4, 0, i + 1);
              g_assert_cmpfloat (z[i], ==, r * cos (theta));
              if (i + 1 < n)
                g_assert_cmpfloat (z[i + 1], ==, r * sin (theta));
            }
          if (i >= 10)
            g_assert_cmpfloat (u5[i - 10], ==, u[i]); /* a draw at block 5 is the draw at 0 from element 10 */
        }
    }
  wb_cpu_executor_set_num_threads (saved);
}

static void
test_safetensors_roundtrip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-st-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.safetensors", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.safetensors", NULL);
  g_autoptr (WbSafetensors) st = wb_safetensors_new ();
  g_autoptr (WbSafetensors) back = NULL;
  g_autoptr (GError) error = NULL;
  WbDtype dtypes[] = { WB_DTYPE_FLOAT64, WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_INT64,
                       WB_DTYPE_INT32, WB_DTYPE_INT16, WB_DTYPE_INT8, WB_DTYPE_UINT8, WB_DTYPE_BOOL8 };
  double  v[6] = { 1, -2, 3, 0, 5, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    {
      g_autoptr (WbTensor) t = wb_test_tensor (dtypes[i], 2, (gint64[]){ 2, 3 }, v);
      g_autoptr (WbTensor) tt = wb_tensor_permute (t, (gint64[]){ 1, 0 }, NULL); /* saved contiguous */
      g_autofree char *name = g_strdup_printf ("x.%s", wb_dtype_shortname (dtypes[i]));
      wb_safetensors_add (st, name, tt);
    }
  wb_safetensors_set_metadata (st, "k", "v");
  g_assert_true (wb_safetensors_save (st, path, &error));
  g_assert_no_error (error);
  back = wb_safetensors_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_safetensors_get_n (back), ==, G_N_ELEMENTS (dtypes));
  g_assert_cmpstr (wb_safetensors_get_metadata (back, "k"), ==, "v");
  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    {
      WbTensor *a = wb_safetensors_get_tensor (st, i), *b = wb_safetensors_lookup (back, wb_safetensors_get_name (st, i));
      g_assert_nonnull (b);
      g_assert_cmpint (b->dtype, ==, a->dtype);
      g_assert_cmpint (b->shape[0], ==, 3);
      for (gint64 k = 0; k < 6; k++)
        g_assert_cmpfloat (wb_tensor_get_f64 (b, k), ==, wb_tensor_get_f64 (a, k));
    }
  /* a truncated file is an I/O error naming the file */
  {
    g_autofree char *contents = NULL;
    gsize            len;
    g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
    g_assert_true (g_file_set_contents (bad, contents, (gssize) len - 10, NULL));
    g_assert_null (wb_safetensors_load (bad, &error));
    g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO);
    g_assert_nonnull (strstr (error->message, "bad.safetensors"));
    g_clear_error (&error);
    g_assert_true (g_file_set_contents (bad, "\x10\0\0\0\0\0\0\0{not json}      ", 24, NULL));
    g_assert_null (wb_safetensors_load (bad, &error));
    g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO);
    g_clear_error (&error);
  }
  g_unlink (path);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_safetensors_samples (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (WbSafetensors) st = NULL;
  g_autoptr (GError) error = NULL;

  if (traces == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR");
      return;
    }
  path = g_build_filename (traces, "mlp_small", "tensors.safetensors", NULL);
  st = wb_safetensors_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_safetensors_get_n (st), ==, 12);
  g_assert_cmpint (wb_safetensors_lookup (st, "param.0.weight")->shape[1], ==, 128);
  g_assert_nonnull (wb_safetensors_get_metadata (st, "info"));
}

static void
test_compare (void)
{
  double vc[4] = { 1, 2, 3.001, 4 }, vr[4] = { 1, 2, 3, 4 }, vh[2] = { 1, 2 };
  g_autoptr (WbTensor) c = wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 4 }, vc);
  g_autoptr (WbTensor) r = wb_test_tensor (WB_DTYPE_FLOAT64, 1, (gint64[]){ 4 }, vr);
  g_autoptr (WbTensor) h = wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 2 }, vh);
  g_autoptr (GError) error = NULL;
  WbCompareResult res;

  g_assert_true (wb_tensor_compare (c, r, 0, 1e-4, FALSE, &res, &error));
  g_assert_cmpfloat (fabs (res.max_abs - 0.001), <, 1e-6);
  g_assert_cmpfloat (fabs (res.rel - 0.001 / 4), <, 1e-6);
  g_assert_cmpint (res.mismatches, ==, 1);
  g_assert_cmpint (res.first_mismatch, ==, 2);
  g_assert_true (wb_tensor_compare (c, r, 1e-3, 0, FALSE, &res, &error));
  g_assert_cmpint (res.mismatches, ==, 0);
  /* a shorter reference: leading elements only when allowed */
  g_assert_false (wb_tensor_compare (c, h, 0, 0, FALSE, &res, &error));
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (wb_tensor_compare (c, h, 0, 0, TRUE, &res, &error));
  g_assert_true (res.head);
  g_assert_cmpint (res.n, ==, 2);
  g_assert_cmpint (res.mismatches, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/executors/WbTensor/views", test_views);
  g_test_add_func ("/executors/half/round-to-nearest-even", test_half);
  g_test_add_func ("/executors/philox/known-answers", test_philox);
  g_test_add_func ("/executors/philox/draws-over-threads", test_philox_threads);
  g_test_add_func ("/executors/WbSafetensors/roundtrip", test_safetensors_roundtrip);
  g_test_add_func ("/executors/WbSafetensors/samples", test_safetensors_samples);
  g_test_add_func ("/executors/compare", test_compare);
  return g_test_run ();
}
