/* test-kernels.c — cpu kernels against hand-computed values, through small traces
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-test-executors.h"

#define RUN(params, body, args, outputs)                           \
  do                                                               \
    {                                                              \
      g_autoptr (GError) run_error = NULL;                         \
      outputs = wb_test_run_text (params, body, args, &run_error); \
      g_assert_no_error (run_error);                               \
    }                                                              \
  while (0)

static void
test_elementwise (void)
{
  double av[6] = { 1, -2, 3, -4, 5, 6 }, bv[3] = { 10, 20, 30 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 3 }, av),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 3 }, bv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("a, b",
       "  # a: \"cpu f32[2, 3]\"\n"
       "  # b: \"cpu f32[3]\"\n"
       "  t0 = prims.broadcast_in_dim(b, (2, 3), (1,))  # t0: \"cpu f32[2, 3]\"\n"
       "  t1 = prims.add(a, t0)  # t1: \"cpu f32[2, 3]\"\n"
       "  t2 = prims.mul(2.0, t1)  # t2: \"cpu f32[2, 3]\"\n"
       "  t3 = prims.lt(a, 0)  # t3: \"cpu b8[2, 3]\"\n"
       "  t4 = prims.where(t3, -1.0, a)  # t4: \"cpu f32[2, 3]\"\n"
       "  t5 = prims.maximum(a, t0)  # t5: \"cpu f32[2, 3]\"\n"
       "  t6 = prims.abs(a)  # t6: \"cpu f32[2, 3]\"\n"
       "  t7 = prims.exp(a)  # t7: \"cpu f32[2, 3]\"\n"
       "  t8 = prims.remainder(a, 4.0)  # t8: \"cpu f32[2, 3]\"\n"
       "  return (t2, t4, t5, t6, t7, t8)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 22, 36, 66, 12, 50, 72 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 1, -1, 3, -1, 5, 6 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 10, 20, 30, 10, 20, 30 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 1, 2, 3, 4, 5, 6 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ exp (1), exp (-2), exp (3), exp (-4), exp (5), exp (6) }, 6, 1e-4);
  /* Python's remainder takes the divisor's sign */
  wb_test_assert_values (wb_test_output (out, 5), (double[]){ 1, 2, 3, 0, 1, 2 }, 6, 0);
  g_assert_cmpint (wb_test_output (out, 0)->dtype, ==, WB_DTYPE_FLOAT32);
}

static void
test_integers (void)
{
  double xv[4] = { 5, -7, 1, -1 }, sv[4] = { 1, 2, 31, 40 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_INT32, 1, (gint64[]){ 4 }, xv),
                                             wb_test_tensor (WB_DTYPE_INT32, 1, (gint64[]){ 4 }, sv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("x, s",
       "  # x: \"cpu i32[4]\"\n"
       "  # s: \"cpu i32[4]\"\n"
       "  t0 = prims.bitwise_left_shift(x, s)  # t0: \"cpu i32[4]\"\n"
       "  t1 = prims.bitwise_right_shift(x, s)  # t1: \"cpu i32[4]\"\n"
       "  t2 = prims.div(x, 2)  # t2: \"cpu i32[4]\"\n"
       "  t3 = prims.py_floordiv(x, 2)  # t3: \"cpu i32[4]\"\n"
       "  t4 = prims.bitwise_xor(x, s)  # t4: \"cpu i32[4]\"\n"
       "  t5 = prims.mul(x, 1073741824)  # t5: \"cpu i32[4]\"\n"
       "  return (t0, t1, t2, t3, t4, t5)\n",
       args, out);
  /* i32 wraps: 1 << 31 = INT32_MIN; shifts by >= 32 give 0 (left) or the sign (right) */
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 10, -28, -2147483648.0, 0 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 2, -2, 0, -1 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 2, -3, 0, 0 }, 4, 0);  /* truncation */
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 2, -4, 0, -1 }, 4, 0); /* floor */
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ 4, -5, 30, -41 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 5), (double[]){ 1073741824.0, 1073741824.0, 1073741824.0, -1073741824.0 }, 4, 0);
}

static void
test_bf16 (void)
{
  /* 1 + 2^-8 is a bf16 tie: computing in f32 and rounding on store gives 1; 1 + 3 * 2^-8 rounds to 1 + 2^-6 */
  double av[2] = { 1.0, 1.0 }, bv[2] = { 1.0 / 256, 3.0 / 256 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 2 }, av),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 2 }, bv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("a, b",
       "  # a: \"cpu f32[2]\"\n"
       "  # b: \"cpu f32[2]\"\n"
       "  t0 = prims.add(a, b)  # t0: \"cpu f32[2]\"\n"
       "  t1 = prims.convert_element_type(t0, dtypes.bfloat16)  # t1: \"cpu bf16[2]\"\n"
       "  t2 = prims.convert_element_type(t0, dtypes.float16)  # t2: \"cpu f16[2]\"\n"
       "  t3 = prims.convert_element_type(t1, dtypes.float32)  # t3: \"cpu f32[2]\"\n"
       "  t4 = prims.mul(t1, t1)  # t4: \"cpu bf16[2]\"\n"
       "  return (t3, t2, t4)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 1.0, 1.0 + 1.0 / 64 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 1.0 + 1.0 / 256, 1.0 + 3.0 / 256 }, 2, 0);
  /* (1 + 2^-6)^2 = 1 + 2^-5 + 2^-12 -> bf16 1 + 2^-5 */
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 1.0, 1.0 + 1.0 / 32 }, 2, 0);
}

static void
test_reductions (void)
{
  double av[6] = { 1, 2, 3, 4, 5, 9 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 3 }, av), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("a",
       "  # a: \"cpu f32[2, 3]\"\n"
       "  t0 = prims.sum(a, (0,))  # t0: \"cpu f32[3]\"\n"
       "  t1 = prims.sum(a, (1,))  # t1: \"cpu f32[2]\"\n"
       "  t2 = prims.amax(a, (0, 1))  # t2: \"cpu f32[]\"\n"
       "  (t3, t4) = prims.var_mean(a, (1,), correction=1)\n"
       "  t5 = prims.prod(a, (1,))  # t5: \"cpu f32[2]\"\n"
       "  t6 = prims.argmax(a, 1)  # t6: \"cpu i64[2]\"\n"
       "  t7 = prims.transpose(a, (1, 0))  # t7: \"cpu f32[3, 2]\"\n"
       "  t8 = prims.sum(t7, (0,))  # t8: \"cpu f32[2]\"\n"
       "  t9 = prims.amin(t7, (1,))  # t9: \"cpu f32[3]\"\n"
       "  return (t0, t1, t2, t3, t4, t5, t6, t8, t9)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 5, 7, 12 }, 3, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 6, 18 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 9 }, 1, 0);
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 1, 7 }, 2, 1e-6);
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ 2, 6 }, 2, 1e-6);
  wb_test_assert_values (wb_test_output (out, 5), (double[]){ 6, 180 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 6), (double[]){ 2, 2 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 7), (double[]){ 6, 18 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 8), (double[]){ 1, 2, 3 }, 3, 0);
}

static void
test_shapes (void)
{
  double av[6] = { 1, 2, 3, 4, 5, 6 }, bv[2] = { 7, 8 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 3 }, av),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 1 }, bv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("a, b",
       "  # a: \"cpu f32[2, 3]\"\n"
       "  # b: \"cpu f32[2, 1]\"\n"
       "  t0 = prims.cat([a, b], 1)  # t0: \"cpu f32[2, 4]\"\n"
       "  t1 = prims.pad(a, 0.0, ((0, 0, 0), (1, -1, 1)))  # t1: \"cpu f32[2, 5]\"\n"
       "  t2 = prims.slice_prim(a, [0, 1], [2, 3], [1, 1])  # t2: \"cpu f32[2, 2]\"\n"
       "  t3 = prims.reshape(t2, (4,))  # t3: \"cpu f32[4]\"\n"
       "  t4 = prims.flip(a, (1,))  # t4: \"cpu f32[2, 3]\"\n"
       "  t5 = prims.squeeze(b, (1,))  # t5: \"cpu f32[2]\"\n"
       "  return (t0, t1, t3, t4, t5)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 1, 2, 3, 7, 4, 5, 6, 8 }, 8, 0);
  /* lo 1, hi -1, interior 1: [0, 1, 0, 2, 0, 3] cropped by one at the end */
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 0, 1, 0, 2, 0, 0, 4, 0, 5, 0 }, 10, 0);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 2, 3, 5, 6 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 3, 2, 1, 6, 5, 4 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ 7, 8 }, 2, 0);
}

static void
test_indexing (void)
{
  double av[6] = { 10, 11, 12, 20, 21, 22 }, iv[3] = { 1, 0, 1 }, jv[2] = { 2, 0 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 3 }, av),
                                             wb_test_tensor (WB_DTYPE_INT64, 1, (gint64[]){ 3 }, iv),
                                             wb_test_tensor (WB_DTYPE_INT64, 2, (gint64[]){ 2, 1 }, jv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("a, i, j",
       "  # a: \"cpu f32[2, 3]\"\n"
       "  # i: \"cpu i64[3]\"\n"
       "  # j: \"cpu i64[2, 1]\"\n"
       "  t0 = prims.take(a, i, 0)  # t0: \"cpu f32[3, 3]\"\n"
       "  t1 = prims.take_along_axis(a, j, 1)  # t1: \"cpu f32[2, 1]\"\n"
       "  t2 = prims.scatter_add(a, j, 1.0, 1)  # t2: \"cpu f32[2, 3]\"\n"
       "  t3 = prims.index_add(a, i, t0, 0)  # t3: \"cpu f32[2, 3]\"\n"
       "  (t4, t5) = prims.topk(a, 2, 1, True, True)\n"
       "  (t6, t7) = prims.sort(a, 0, True, True)\n"
       "  return (t0, t1, t2, t3, t4, t5, t6, t7)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 20, 21, 22, 10, 11, 12, 20, 21, 22 }, 9, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 12, 20 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 10, 11, 13, 21, 21, 22 }, 6, 0);
  /* rows 1, 0, 1 of a added at rows 1, 0, 1: row 0 += a[0]; row 1 += 2 a[1] */
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 20, 22, 24, 60, 63, 66 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ 12, 11, 22, 21 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 5), (double[]){ 2, 1, 2, 1 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 6), (double[]){ 20, 21, 22, 10, 11, 12 }, 6, 0);
  g_assert_cmpint (wb_test_output (out, 7)->dtype, ==, WB_DTYPE_INT64);
}

static void
test_index_out_of_range (void)
{
  double av[3] = { 1, 2, 3 }, iv[1] = { 3 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 3 }, av),
                                             wb_test_tensor (WB_DTYPE_INT64, 1, (gint64[]){ 1 }, iv), NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) out = wb_test_run_text ("a, i",
                                                "  # a: \"cpu f32[3]\"\n"
                                                "  # i: \"cpu i64[1]\"\n"
                                                "  t0 = prims.take(a, i, 0)  # t0: \"cpu f32[1]\"\n"
                                                "  return (t0,)\n",
                                                args, &error);
  g_assert_null (out);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "test.py:10: prims.take: index 3"));
}

static void
test_matmul (void)
{
  double av[6] = { 1, 2, 3, 4, 5, 6 }, wv[6] = { 1, 0, 1, 0, 1, 0 }, bv[2] = { 10, 20 }, xv[12];
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) out = NULL;

  for (int i = 0; i < 12; i++)
    xv[i] = i + 1;
  args = wb_test_args (wb_test_tensor (WB_DTYPE_BFLOAT16, 2, (gint64[]){ 2, 3 }, av),
                       wb_test_tensor (WB_DTYPE_BFLOAT16, 2, (gint64[]){ 2, 3 }, wv),
                       wb_test_tensor (WB_DTYPE_BFLOAT16, 1, (gint64[]){ 2 }, bv),
                       wb_test_tensor (WB_DTYPE_FLOAT32, 3, (gint64[]){ 2, 2, 3 }, xv), NULL);
  RUN ("a, w, b, x",
       "  # a: \"cpu bf16[2, 3]\"\n"
       "  # w: \"cpu bf16[2, 3]\"\n"
       "  # b: \"cpu bf16[2]\"\n"
       "  # x: \"cpu f32[2, 2, 3]\"\n"
       "  t0 = prims.linear(a, w, b)  # t0: \"cpu bf16[2, 2]\"\n"
       "  t1 = prims.transpose(x, (0, 2, 1))  # t1: \"cpu f32[2, 3, 2]\"\n"
       "  t2 = prims.matmul(x, t1)  # t2: \"cpu f32[2, 2, 2]\"\n"
       "  t3 = prims.convert_element_type(a, dtypes.float32)  # t3: \"cpu f32[2, 3]\"\n"
       "  t4 = prims.transpose(t3, (1, 0))  # t4: \"cpu f32[3, 2]\"\n"
       "  t5 = prims.matmul(x, t4)  # t5: \"cpu f32[2, 2, 2]\"\n"
       "  t6 = prims.slice_prim(t3, [0, 0], [1, 3], [1, 1])  # t6: \"cpu f32[1, 3]\"\n"
       "  t7 = prims.reshape(t6, (3,))  # t7: \"cpu f32[3]\"\n"
       "  t8 = prims.matmul(t7, t7)  # t8: \"cpu f32[]\"\n"
       "  return (t0, t2, t5, t8)\n",
       args, out);
  /* a @ w^T + b: rows (1+3, 2) + (10, 20), (4+6, 5) + (10, 20) */
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 14, 22, 20, 25 }, 4, 0);
  /* x x^T per batch: [[14, 32], [32, 77]] and [[194, 266], [266, 365]] */
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 14, 32, 32, 77, 194, 266, 266, 365 }, 8, 1e-4);
  /* x @ a^T (2-D b broadcast over the batch, folded into one GEMM) */
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 14, 32, 32, 77, 50, 122, 68, 167 }, 8, 1e-4);
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 14 }, 1, 1e-5);
}

static void
test_convolution (void)
{
  double xv[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, wv[4] = { 1, 0, 0, -1 }, bv[1] = { 0.5 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 3, 3 }, xv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 2, 2 }, wv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 1 }, bv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("x, w, b",
       "  # x: \"cpu f32[1, 1, 3, 3]\"\n"
       "  # w: \"cpu f32[1, 1, 2, 2]\"\n"
       "  # b: \"cpu f32[1]\"\n"
       "  t0 = prims.convolution(x, w, b, (1, 1), (0, 0), (1, 1), False, (0, 0), 1)  # t0: \"cpu f32[1, 1, 2, 2]\"\n"
       "  t1 = prims.convolution(x, w, None, (2, 2), (1, 1), (1, 1), False, (0, 0), 1)  # t1: \"cpu f32[1, 1, 2, 2]\"\n"
       "  t2 = prims.convolution(t0, w, None, (1, 1), (0, 0), (1, 1), True, (0, 0), 1)  # t2: \"cpu f32[1, 1, 3, 3]\"\n"
       "  return (t0, t1, t2)\n",
       args, out);
  /* x[i, j] - x[i + 1, j + 1] + 0.5 = -4 + 0.5 */
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ -3.5, -3.5, -3.5, -3.5 }, 4, 1e-6);
  /* stride 2, padding 1: windows at (-1, -1), (-1, 1), (1, -1), (1, 1) */
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ -1, -3, -7, 5 - 9 }, 4, 1e-6);
  /* the transpose scatters each input v to (i, j) with +v and (i + 1, j + 1) with -v */
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ -3.5, -3.5, 0, -3.5, 0, 3.5, 0, 3.5, 3.5 }, 9, 1e-6);
}

static void
test_attention (void)
{
  /* the sdpa executor's op against the decomposition written out: B = H = 1, T = 3, E = 2, causal */
  double qv[6] = { 0.1, 0.2, -0.3, 0.4, 0.5, -0.6 }, kv[6] = { 0.3, -0.1, 0.2, 0.2, -0.4, 0.1 }, vv[6] = { 1, 2, 3, 4, 5, 6 };
  double gv[6] = { 0.5, -1, 0.25, 1, -0.5, 2 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 3, 2 }, qv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 3, 2 }, kv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 3, 2 }, vv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 3, 2 }, gv), NULL);
  g_autoptr (GPtrArray) out = NULL;
  double s = 1 / sqrt (2.0), p[3][3] = { { 0 } }, o[3][2] = { { 0 } }, dq[3][2] = { { 0 } };

  RUN ("q, k, v, g",
       "  # q: \"cpu f32[1, 1, 3, 2]\"\n"
       "  # k: \"cpu f32[1, 1, 3, 2]\"\n"
       "  # v: \"cpu f32[1, 1, 3, 2]\"\n"
       "  # g: \"cpu f32[1, 1, 3, 2]\"\n"
       "  (o, lse, cq, ck, _, _, seed, off, _) = sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, True, scale=None)\n"
       "  (dq, dk, dv) = sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, lse, cq, ck, 3, 3, 0.0, True, seed, off, scale=None)\n"
       "  return (o, dq, dk, dv)\n",
       args, out);
  /* reference in double */
  for (int i = 0; i < 3; i++)
    {
      double m = -INFINITY, sum = 0;
      for (int j = 0; j <= i; j++)
        p[i][j] = s * (qv[2 * i] * kv[2 * j] + qv[2 * i + 1] * kv[2 * j + 1]), m = MAX (m, p[i][j]);
      for (int j = 0; j <= i; j++)
        p[i][j] = exp (p[i][j] - m), sum += p[i][j];
      for (int j = 0; j <= i; j++)
        {
          p[i][j] /= sum;
          o[i][0] += p[i][j] * vv[2 * j];
          o[i][1] += p[i][j] * vv[2 * j + 1];
        }
    }
  for (int i = 0; i < 3; i++)
    {
      double dp[3], d = gv[2 * i] * o[i][0] + gv[2 * i + 1] * o[i][1];
      for (int j = 0; j <= i; j++)
        {
          dp[j] = gv[2 * i] * vv[2 * j] + gv[2 * i + 1] * vv[2 * j + 1];
          dq[i][0] += p[i][j] * (dp[j] - d) * s * kv[2 * j];
          dq[i][1] += p[i][j] * (dp[j] - d) * s * kv[2 * j + 1];
        }
    }
  wb_test_assert_values (wb_test_output (out, 0), &o[0][0], 6, 1e-6);
  wb_test_assert_values (wb_test_output (out, 1), &dq[0][0], 6, 1e-6);
  /* dv = P^T g: last row of dv only sees the last query */
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ p[0][0] * gv[0] + p[1][0] * gv[2] + p[2][0] * gv[4], p[0][0] * gv[1] + p[1][0] * gv[3] + p[2][0] * gv[5], p[1][1] * gv[2] + p[2][1] * gv[4], p[1][1] * gv[3] + p[2][1] * gv[5], p[2][2] * gv[4], p[2][2] * gv[5] }, 6, 1e-6);
}

/* The sdpa ops at a size that takes several query blocks, heads in parallel, causal and not, against a
 * double-precision reference computed here. */
static void
attention_case (gboolean causal)
{
  enum
  {
    H = 3,
    T = 300,
    E = 16
  };
  gint64             shape[4] = { 1, H, T, E };
  g_autofree double *q = g_new (double, H *T *E), *k = g_new (double, H *T *E), *v = g_new (double, H *T *E);
  g_autofree double *g = g_new (double, H *T *E), *o = g_new0 (double, H *T *E), *dq = g_new0 (double, H *T *E);
  g_autofree double *dk = g_new0 (double, H *T *E), *dv = g_new0 (double, H *T *E), *p = g_new (double, T);
  g_autofree char   *body = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) out = NULL;
  double s = 1 / sqrt ((double) E);

  wb_philox_normal_f64 (3, 1, 0, q, H * T * E);
  wb_philox_normal_f64 (3, 2, 0, k, H * T * E);
  wb_philox_normal_f64 (3, 3, 0, v, H * T * E);
  wb_philox_normal_f64 (3, 4, 0, g, H * T * E);
  for (int h = 0; h < H; h++)
    for (int i = 0; i < T; i++)
      {
        const double *qi = q + (h * T + i) * E, *gi = g + (h * T + i) * E;
        double        m = -INFINITY, sum = 0, dd = 0, *oi = o + (h * T + i) * E;
        int           n = causal ? i + 1 : T;
        for (int j = 0; j < n; j++)
          {
            double x = 0;
            for (int e = 0; e < E; e++)
              x += qi[e] * k[(h * T + j) * E + e];
            p[j] = s * x;
            m = MAX (m, p[j]);
          }
        for (int j = 0; j < n; j++)
          p[j] = exp (p[j] - m), sum += p[j];
        for (int j = 0; j < n; j++)
          {
            p[j] /= sum;
            for (int e = 0; e < E; e++)
              oi[e] += p[j] * v[(h * T + j) * E + e];
          }
        for (int e = 0; e < E; e++)
          dd += gi[e] * oi[e];
        for (int j = 0; j < n; j++)
          {
            double dp = 0, dsj;
            for (int e = 0; e < E; e++)
              dp += gi[e] * v[(h * T + j) * E + e];
            dsj = p[j] * (dp - dd);
            for (int e = 0; e < E; e++)
              {
                dq[(h * T + i) * E + e] += s * dsj * k[(h * T + j) * E + e];
                dk[(h * T + j) * E + e] += s * dsj * qi[e];
                dv[(h * T + j) * E + e] += p[j] * gi[e];
              }
          }
      }
  args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 4, shape, q), wb_test_tensor (WB_DTYPE_FLOAT32, 4, shape, k),
                       wb_test_tensor (WB_DTYPE_FLOAT32, 4, shape, v), wb_test_tensor (WB_DTYPE_FLOAT32, 4, shape, g), NULL);
  body = g_strdup_printf ("  (o, lse, seed, off) = sdpaex_grad_forward_scaled_dot_product_efficient_attention(q, k, v, None, 0.0, %s, None)\n"
                          "  (dq, dk, dv, _) = sdpaex_scaled_dot_product_efficient_attention_backward(g, q, k, v, None, o, lse, seed, off, 0.0, %s, scale=None)\n"
                          "  return (o, dq, dk, dv)\n",
                          causal ? "True" : "False", causal ? "True" : "False");
  RUN ("q, k, v, g", body, args, out);
  wb_test_assert_values (wb_test_output (out, 0), o, H * T * E, 1e-4);
  wb_test_assert_values (wb_test_output (out, 1), dq, H * T * E, 1e-4);
  wb_test_assert_values (wb_test_output (out, 2), dk, H * T * E, 1e-4);
  wb_test_assert_values (wb_test_output (out, 3), dv, H * T * E, 1e-4);
}

static void
test_attention_blocks (void)
{
  attention_case (TRUE);
  attention_case (FALSE);
}

static void
test_creation (void)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) out = NULL;
  g_autoptr (GPtrArray) again = NULL;

  RUN ("",
       "  t0 = prims.iota(4, start=2, step=3, device=devices.Device(\"cpu\"), dtype=dtypes.int64)  # t0: \"cpu i64[4]\"\n"
       "  t1 = prims.full((2,), 1.5, device=devices.Device(\"cpu\"), dtype=dtypes.bfloat16)  # t1: \"cpu bf16[2]\"\n"
       "  t2 = prims.uniform((1000,), -1.0, 1.0, device=devices.Device(\"cpu\"), dtype=dtypes.float32)  # t2: \"cpu f32[1000]\"\n"
       "  t3 = prims.uniform((1000,), -1.0, 1.0, device=devices.Device(\"cpu\"), dtype=dtypes.float32)  # t3: \"cpu f32[1000]\"\n"
       "  t4 = prims.empty((3,), device=devices.Device(\"cpu\"), dtype=dtypes.float32)  # t4: \"cpu f32[3]\"\n"
       "  return (t0, t1, t2, t3, t4)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 2, 5, 8, 11 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 1.5, 1.5 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ 0, 0, 0 }, 3, 0);
  /* two draws differ (the offset advances), stay in range, and replay identically */
  {
    WbTensor *a = wb_test_output (out, 2), *b = wb_test_output (out, 3);
    double    mean = 0;
    g_assert_cmpfloat (wb_tensor_get_f64 (a, 0), !=, wb_tensor_get_f64 (b, 0));
    for (int i = 0; i < 1000; i++)
      {
        g_assert_cmpfloat (fabs (wb_tensor_get_f64 (a, i)), <=, 1.0);
        mean += wb_tensor_get_f64 (a, i) / 1000;
      }
    g_assert_cmpfloat (fabs (mean), <, 0.1);
  }
  RUN ("",
       "  t2 = prims.uniform((1000,), -1.0, 1.0, device=devices.Device(\"cpu\"), dtype=dtypes.float32)  # t2: \"cpu f32[1000]\"\n"
       "  return (t2,)\n",
       args, again);
  for (int i = 0; i < 1000; i++)
    g_assert_cmpfloat (wb_tensor_get_f64 (wb_test_output (again, 0), i), ==, wb_tensor_get_f64 (wb_test_output (out, 2), i));
}

static void
test_nll_loss_backward (void)
{
  double xv[6] = { 0 }, tv[2] = { 2, -100 }, gv[1] = { 3 }, wv[1] = { 1 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 3 }, xv),
                                             wb_test_tensor (WB_DTYPE_INT64, 1, (gint64[]){ 2 }, tv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 0, NULL, gv),
                                             wb_test_tensor (WB_DTYPE_INT64, 0, NULL, wv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("x, t, g, n",
       "  # x: \"cpu f32[2, 3]\"\n"
       "  # t: \"cpu i64[2]\"\n"
       "  # g: \"cpu f32[]\"\n"
       "  # n: \"cpu i64[]\"\n"
       "  t0 = torch_nll_loss_backward_impl(g, x, t, None, 'mean', -100, n)  # t0: \"cpu f32[2, 3]\"\n"
       "  return (t0,)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 0, 0, -3, 0, 0, 0 }, 6, 0);
}

static void
test_composite_and_region (void)
{
  /* ltorch.add runs through its subsymbols; a region (TorchCompile0) too; aliasing of copy_ */
  double av[2] = { 1, 2 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 2 }, av), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("a",
       "  # a: \"cpu f32[2]\"\n"
       "  [t2] = TorchCompile0(a)\n"
       "    # t1 = ltorch.add(a, 1.0, alpha=1)  # t1: \"cpu f32[2]\"\n"
       "      # t1 = prims.add(a, 1.0)  # t1: \"cpu f32[2]\"\n"
       "    # t2 = ltorch.mul(t1, t1)  # t2: \"cpu f32[2]\"\n"
       "      # t2 = prims.mul(t1, t1)  # t2: \"cpu f32[2]\"\n"
       "  t3 = prims.empty((2,), device=devices.Device(\"cpu\"), dtype=dtypes.float32)  # t3: \"cpu f32[2]\"\n"
       "  (t4,) = prims.update_aliases((t3,))\n"
       "  t5 = prims.copy_(t2, t4, grad_enabled=False)  # t5: \"cpu f32[2]\"\n"
       "  return (t2, t3, t5)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 4, 9 }, 2, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 4, 9 }, 2, 0); /* written through the alias */
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 4, 9 }, 2, 0);
}

static void
test_check_shapes (void)
{
  double av[2] = { 1, 2 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 1, (gint64[]){ 2 }, av), NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) out = NULL;

  /* a wrong annotation on an output is a TYPE_MISMATCH naming the line and both types */
  out = wb_test_run_text ("a",
                          "  # a: \"cpu f32[2]\"\n"
                          "  t0 = prims.add(a, a)  # t0: \"cpu f32[3]\"\n"
                          "  return (t0,)\n",
                          args, &error);
  g_assert_null (out);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_TYPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "test.py:9: t0: annotated cpu f32[3], computed cpu f32[2]"));
  g_clear_error (&error);
  /* an input that differs from its parameter annotation fails before anything runs */
  out = wb_test_run_text ("a",
                          "  # a: \"cuda:0 bf16[2]\"\n"
                          "  t0 = prims.add(a, a)  # t0: \"cuda:0 bf16[2]\"\n"
                          "  return (t0,)\n",
                          args, &error);
  g_assert_null (out);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_TYPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "test.py:8: a: annotated cuda:0 bf16[2], computed cpu f32[2]"));
}

/* Pooling, cumsum and copy_with_setitem as Thunder prints them without a decomposition (hand-computed,
 * checked against PyTorch 2.11). */
static void
test_pooling (void)
{
  double xv[16], gv[4] = { 1, 1, 1, 1 }, hv[6] = { 1, 1, 1, 1, 1, 1 }, iv[6] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) out = NULL;

  for (guint i = 0; i < 16; i++)
    xv[i] = i + 1;
  args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 4, 4 }, xv), wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 2, 2 }, gv),
                       wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 2, 3 }, hv), wb_test_tensor (WB_DTYPE_INT64, 2, (gint64[]){ 2, 3 }, iv), NULL);
  RUN ("x, g, h, n",
       "  # x: \"cpu f32[1, 1, 4, 4]\"\n"
       "  # g: \"cpu f32[1, 1, 2, 2]\"\n"
       "  # h: \"cpu f32[1, 1, 2, 3]\"\n"
       "  # n: \"cpu i64[2, 3]\"\n"
       "  t0 = ltorch.adaptive_avg_pool2d(x, (2, 3))  # t0: \"cpu f32[1, 1, 2, 3]\"\n"
       "  (t1, t2) = max_pool2d_with_indices(x, 2, 2, 0, 1, False)\n"
       "  t3 = max_pool2d_with_indices_backward(g, x, 2, 2, 0, 1, False, t2)  # t3: \"cpu f32[1, 1, 4, 4]\"\n"
       "  t4 = torch.torch.ops.aten._adaptive_avg_pool2d_backward(h, x)  # t4: \"cpu f32[1, 1, 4, 4]\"\n"
       "  t5 = torch.cumsum(n, -1)  # t5: \"cpu i64[2, 3]\"\n"
       "  t6 = copy_with_setitem_impl(n, (slice(None,None,None), 0), 7)  # t6: \"cpu i64[2, 3]\"\n"
       "  t7 = copy_with_setitem_impl(n, (slice(None,None,None), slice(1,None,None)), 0)  # t7: \"cpu i64[2, 3]\"\n"
       "  return (t0, t1, t2, t3, t4, t5, t6, t7)\n",
       args, out);
  /* windows [0, 2) x {[0, 2), [1, 3), [2, 4)} and [2, 4) x the same */
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 3.5, 4.5, 5.5, 11.5, 12.5, 13.5 }, 6, 1e-6);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 6, 8, 14, 16 }, 4, 0);
  /* flat indices in the 4x4 plane, typed like the input as Thunder types them */
  g_assert_cmpint (wb_test_output (out, 2)->dtype, ==, WB_DTYPE_FLOAT32);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 5, 7, 13, 15 }, 4, 0);
  wb_test_assert_values (wb_test_output (out, 3), (double[]){ 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1 }, 16, 0);
  wb_test_assert_values (wb_test_output (out, 4), (double[]){ .25, .5, .5, .25, .25, .5, .5, .25, .25, .5, .5, .25, .25, .5, .5, .25 }, 16, 1e-7);
  wb_test_assert_values (wb_test_output (out, 5), (double[]){ 1, 3, 6, 4, 9, 15 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 6), (double[]){ 7, 2, 3, 7, 5, 6 }, 6, 0);
  wb_test_assert_values (wb_test_output (out, 7), (double[]){ 1, 0, 0, 4, 0, 0 }, 6, 0);
  /* the input is not written */
  wb_test_assert_values (g_ptr_array_index (args, 3) ? ((WbRtValue *) g_ptr_array_index (args, 3))->tensor : NULL, iv, 6, 0);
}

/* max_pool3d_with_indices_backward of an unbatched [C, D, H, W] input: the index counts the 3-d plane (the
 * spatial dims come from the symbol, not from the rank). */
static void
test_pool3d_unbatched (void)
{
  double xv[8] = { 1, 2, 3, 4, 5, 6, 8, 7 }, gv[1] = { 1 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 2, 2, 2 }, xv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 4, (gint64[]){ 1, 1, 1, 1 }, gv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("x, g",
       "  # x: \"cpu f32[1, 2, 2, 2]\"\n"
       "  # g: \"cpu f32[1, 1, 1, 1]\"\n"
       "  (t0, t1) = max_pool3d_with_indices(x, 2, 2, 0, 1, False)\n"
       "  t2 = max_pool3d_with_indices_backward(g, x, 2, 2, 0, 1, False, t1)  # t2: \"cpu f32[1, 2, 2, 2]\"\n"
       "  return (t0, t1, t2)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 8 }, 1, 0);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ 6 }, 1, 0);
  wb_test_assert_values (wb_test_output (out, 2), (double[]){ 0, 0, 0, 0, 0, 0, 1, 0 }, 8, 0);
}

/* kl_div as the torch executor prints it (values from PyTorch 2.11). */
static void
test_kl_div (void)
{
  double xv[4] = { -1, -2, -0.5, -3 }, tv[4] = { 0.2, 0.8, 0, 1 };
  g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 2 }, xv),
                                             wb_test_tensor (WB_DTYPE_FLOAT32, 2, (gint64[]){ 2, 2 }, tv), NULL);
  g_autoptr (GPtrArray) out = NULL;

  RUN ("x, t",
       "  # x: \"cpu f32[2, 2]\"\n"
       "  # t: \"cpu f32[2, 2]\"\n"
       "  t0 = torch.nn.functional.kl_div(x, t, reduction='batchmean')  # t0: \"cpu f32[]\"\n"
       "  t1 = ltorch.kl_div(x, t, reduction='none')  # t1: \"cpu f32[2, 2]\"\n"
       "  return (t0, t1)\n",
       args, out);
  wb_test_assert_values (wb_test_output (out, 0), (double[]){ 2.14979887 }, 1, 1e-6);
  wb_test_assert_values (wb_test_output (out, 1), (double[]){ -0.12188758, 1.42148519, 0, 3 }, 4, 1e-6);
}

/* kl_div_vjp, the vjp Thunder registers with kl_div (no_grad_teacher's backward): both gradients against
 * PyTorch 2.11's autograd, reductions batchmean, mean and sum in f32 with a target of 0 (its grad_target
 * is NaN in PyTorch: xlogy's derivative target / target), 'none' with log_target and batchmean in f64.
 * Expected values printed by (torch 2.11, cpu):
 *   import torch, torch.nn.functional as F
 *   def vjp(x, t, g, **kw):
 *       x = x.clone().requires_grad_(); t = t.clone().requires_grad_()
 *       return torch.autograd.grad(F.kl_div(x, t, **kw), (x, t), g)
 *   x = [[-1.0, -2.0, -0.5], [-3.0, -0.25, -1.5]]
 *   t = [[0.2, 0.0, 0.8], [1.0, 0.5, 0.3]]
 *   lt = [[-1.5, -0.2, -2.0], [0.1, -0.7, -1.1]]
 *   gn = [[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]]
 *   for dt, kw, tt, g in ((torch.float32, dict(reduction="batchmean"), t, 1.5),
 *                         (torch.float32, dict(reduction="mean"), t, 1.5),
 *                         (torch.float32, dict(reduction="sum", log_target=False), t, 1.5),
 *                         (torch.float64, dict(reduction="none", log_target=True), lt, gn),
 *                         (torch.float64, dict(reduction="batchmean"), t, 1.5)):
 *       T = lambda v: torch.tensor(v, dtype=dt)
 *       for r in vjp(T(x), T(tt), T(g), **kw):
 *           print(", ".join(f"{v:.10g}" for v in r.flatten().tolist())) */
static void
test_kl_div_vjp (void)
{
  const double xv[6] = { -1.0, -2.0, -0.5, -3.0, -0.25, -1.5 }, tv[6] = { 0.2, 0.0, 0.8, 1.0, 0.5, 0.3 };
  const double ltv[6] = { -1.5, -0.2, -2.0, 0.1, -0.7, -1.1 }, gnv[6] = { 1.0, -2.0, 0.5, 0.25, 3.0, -1.0 }, g0v[1] = { 1.5 };
  const gint64 shape[2] = { 2, 3 };

  {
    g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT32, 2, shape, xv), wb_test_tensor (WB_DTYPE_FLOAT32, 2, shape, tv),
                                               wb_test_tensor (WB_DTYPE_FLOAT32, 0, shape, g0v), NULL);
    g_autoptr (GPtrArray) out = NULL;
    RUN ("x, t, g",
         "  # x: \"cpu f32[2, 3]\"\n"
         "  # t: \"cpu f32[2, 3]\"\n"
         "  # g: \"cpu f32[]\"\n"
         "  (t0, t1) = kl_div_vjp(((x, t), {'reduction': \"batchmean\"}), g)\n"
         "  (t2, t3) = kl_div_vjp(((x, t), {'reduction': 'mean'}), g)\n"
         "  (t4, t5) = kl_div_vjp(((x, t), {'reduction': 'sum', 'log_target': False}), g)\n"
         "  return (t0, t1, t2, t3, t4, t5)\n",
         args, out);
    wb_test_assert_values (wb_test_output (out, 0), (double[]){ -0.150000006, -0, -0.6000000238, -0.75, -0.375, -0.2250000089 }, 6, 1e-6);
    wb_test_assert_values (wb_test_output (out, 1), (double[]){ 0.2929215431, NAN, 0.9576423168, 3, 0.4176396132, 0.9720203876 }, 6, 1e-6);
    wb_test_assert_values (wb_test_output (out, 2), (double[]){ -0.05000000075, -0, -0.200000003, -0.25, -0.125, -0.07500000298 }, 6, 1e-6);
    wb_test_assert_values (wb_test_output (out, 3), (double[]){ 0.09764051437, NAN, 0.3192141056, 1, 0.1392132044, 0.3240067959 }, 6, 1e-6);
    wb_test_assert_values (wb_test_output (out, 4), (double[]){ -0.3000000119, -0, -1.200000048, -1.5, -0.75, -0.4500000179 }, 6, 1e-6);
    wb_test_assert_values (wb_test_output (out, 5), (double[]){ 0.5858430862, NAN, 1.915284634, 6, 0.8352792263, 1.944040775 }, 6, 1e-6);
  }
  {
    g_autoptr (GPtrArray) args = wb_test_args (wb_test_tensor (WB_DTYPE_FLOAT64, 2, shape, xv), wb_test_tensor (WB_DTYPE_FLOAT64, 2, shape, ltv),
                                               wb_test_tensor (WB_DTYPE_FLOAT64, 2, shape, gnv), wb_test_tensor (WB_DTYPE_FLOAT64, 2, shape, tv),
                                               wb_test_tensor (WB_DTYPE_FLOAT64, 0, shape, g0v), NULL);
    g_autoptr (GPtrArray) out = NULL;
    RUN ("x, lt, gn, t, g",
         "  # x: \"cpu f64[2, 3]\"\n"
         "  # lt: \"cpu f64[2, 3]\"\n"
         "  # gn: \"cpu f64[2, 3]\"\n"
         "  # t: \"cpu f64[2, 3]\"\n"
         "  # g: \"cpu f64[]\"\n"
         "  (t0, t1) = kl_div_vjp(((x, lt), {'reduction': 'none', 'log_target': True}), gn)\n"
         "  (t2, t3) = kl_div_vjp(((x, t), {'reduction': 'batchmean'}), g)\n"
         "  return (t0, t1, t2, t3)\n",
         args, out);
    wb_test_assert_values (wb_test_output (out, 0),
                           (double[]){ -0.2231301601, 1.637461506, -0.06766764162, -0.2762927295, -1.489755911, 0.3328710837 }, 6, 2e-9);
    wb_test_assert_values (wb_test_output (out, 1),
                           (double[]){ 0.1115650801, -4.584892217, -0.03383382081, 1.132800191, 0.8193657513, -0.4660195172 }, 6, 2e-9);
    wb_test_assert_values (wb_test_output (out, 2), (double[]){ -0.15, -0, -0.6, -0.75, -0.375, -0.225 }, 6, 2e-9);
    wb_test_assert_values (wb_test_output (out, 3), (double[]){ 0.2929215657, NAN, 0.9576423365, 3, 0.4176396146, 0.9720203968 }, 6, 2e-9);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/executors/cpu/elementwise", test_elementwise);
  g_test_add_func ("/executors/cpu/integers", test_integers);
  g_test_add_func ("/executors/cpu/bf16-f16", test_bf16);
  g_test_add_func ("/executors/cpu/reductions", test_reductions);
  g_test_add_func ("/executors/cpu/shapes", test_shapes);
  g_test_add_func ("/executors/cpu/indexing", test_indexing);
  g_test_add_func ("/executors/cpu/index-out-of-range", test_index_out_of_range);
  g_test_add_func ("/executors/cpu/matmul-linear", test_matmul);
  g_test_add_func ("/executors/cpu/convolution", test_convolution);
  g_test_add_func ("/executors/cpu/attention", test_attention);
  g_test_add_func ("/executors/cpu/attention-blocks", test_attention_blocks);
  g_test_add_func ("/executors/cpu/creation", test_creation);
  g_test_add_func ("/executors/cpu/nll-loss-backward", test_nll_loss_backward);
  g_test_add_func ("/executors/cpu/composite-region-alias", test_composite_and_region);
  g_test_add_func ("/executors/cpu/check-shapes", test_check_shapes);
  g_test_add_func ("/executors/cpu/pooling-cumsum-setitem", test_pooling);
  g_test_add_func ("/executors/cpu/pool3d-unbatched", test_pool3d_unbatched);
  g_test_add_func ("/executors/cpu/kl-div", test_kl_div);
  g_test_add_func ("/executors/cpu/kl-div-vjp", test_kl_div_vjp);
  return g_test_run ();
}
