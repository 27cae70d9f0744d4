/* test-decomposition.c — the workbench's decompositions of composites Thunder prints without one, on cpu
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ltorch.multi_head_attention_forward (wb-decomposition-mha.c) against PyTorch 2.11's
 * F.multi_head_attention_forward, shapes from the zoo's vit_tiny (L 17, N 2, E 64, 4 heads): its own call,
 * cross-attention with a bool key_padding_mask and averaged weights, bias_k/bias_v with add_zero_attn and
 * a float attn_mask and per-head weights, an unbatched call with separate projection weights (kdim 32,
 * vdim 48) and a bool 3-d mask, and the zoo's call in bf16; then the options it refuses, by name.
 * Inputs are sin(0.37 i + seed / 2) * amp over the flat index (bool masks: (7 i + seed) % 5 == 0); each
 * output is checked by its sum, sum of |x|, dot with cos(0.11 i) and four elements. Expected values printed
 * by (torch 2.11, cpu):
 *   import math, torch, torch.nn.functional as F
 *   def T(shape, seed, amp=1.0, dt=torch.float32):
 *       n = math.prod(shape)
 *       return (torch.sin(torch.arange(n, dtype=torch.float64) * 0.37 + 0.5 * seed) * amp).to(dt).reshape(shape)
 *   def B(shape, seed):
 *       return ((torch.arange(math.prod(shape)) * 7 + seed) % 5 == 0).reshape(shape)
 *   def show(name, t):
 *       v = t.double().flatten(); n = v.numel(); c = torch.cos(torch.arange(n, dtype=torch.float64) * 0.11)
 *       idx = [0, n // 3, n // 2, n - 1]
 *       print(name, n, v.sum().item(), v.abs().sum().item(), (v * c).sum().item(), [v[i].item() for i in idx])
 *   E, H = 64, 4
 *   x = T((17, 2, E), 1); w_in = T((3 * E, E), 2, 0.05); b_in = T((3 * E,), 3, 0.1)
 *   w_out = T((E, E), 4, 0.2); b_out = T((E,), 5, 0.1)
 *   mha = F.multi_head_attention_forward
 *   o, _ = mha(x, x, x, E, H, w_in, b_in, None, None, False, 0.0, w_out, b_out, training=True,
 *              key_padding_mask=None, need_weights=False, attn_mask=None, average_attn_weights=True, is_causal=False)
 *   show("A out", o)
 *   kv = T((9, 2, E), 6); kpm = B((2, 9), 1)
 *   o, w = mha(x, kv, kv, E, H, w_in, b_in, None, None, False, 0.1, w_out, b_out, training=False,
 *              key_padding_mask=kpm, need_weights=True, attn_mask=None, average_attn_weights=True, is_causal=False)
 *   show("B out", o); show("B weights", w)
 *   bk = T((1, 1, E), 7, 0.5); bv = T((1, 1, E), 8, 0.5); am = T((17, 17), 9, 0.5)
 *   o, w = mha(x, x, x, E, H, w_in, None, bk, bv, True, 0.0, w_out, None, training=True,
 *              key_padding_mask=None, need_weights=True, attn_mask=am, average_attn_weights=False, is_causal=False)
 *   show("C out", o); show("C weights", w)
 *   q1 = T((17, E), 10); k1 = T((9, 32), 11); v1 = T((9, 48), 12)
 *   wq = T((E, E), 13, 0.05); wk = T((E, 32), 14, 0.05); wv = T((E, 48), 15, 0.2); am3 = B((H, 17, 9), 2)
 *   o, w = mha(q1, k1, v1, E, H, None, b_in, None, None, False, 0.0, w_out, b_out, training=True,
 *              key_padding_mask=None, need_weights=True, attn_mask=am3, use_separate_proj_weight=True,
 *              q_proj_weight=wq, k_proj_weight=wk, v_proj_weight=wv, average_attn_weights=True, is_causal=False)
 *   show("D out", o); show("D weights", w)
 *   bf = lambda t: t.bfloat16()
 *   o, _ = mha(bf(x), bf(x), bf(x), E, H, bf(w_in), bf(b_in), None, None, False, 0.0, bf(w_out), bf(b_out), training=True,
 *              key_padding_mask=None, need_weights=False, attn_mask=None, average_attn_weights=True, is_causal=False)
 *   show("E out", o) */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "wb-test-executors.h"

#define E 64
#define H 4

typedef struct
{
  gint64 n;
  double sum, abs, dot, at[4];
} Expected;

static WbTensor *
sine (WbDtype dtype, guint rank, const gint64 *shape, int seed, double amp)
{
  gint64             n = 1;
  g_autofree double *v = NULL;

  for (guint i = 0; i < rank; i++)
    n *= shape[i];
  v = g_new (double, n);
  for (gint64 i = 0; i < n; i++)
    v[i] = sin (0.37 * (double) i + 0.5 * seed) * amp;
  return wb_test_tensor (dtype, rank, shape, v);
}

static WbTensor *
mask (guint rank, const gint64 *shape, int seed)
{
  gint64             n = 1;
  g_autofree double *v = NULL;

  for (guint i = 0; i < rank; i++)
    n *= shape[i];
  v = g_new (double, n);
  for (gint64 i = 0; i < n; i++)
    v[i] = (i * 7 + seed) % 5 == 0;
  return wb_test_tensor (WB_DTYPE_BOOL8, rank, shape, v);
}

/* @t against @e: the sums within @tol relative to the sum of |x|, the elements within @tol */
static void
check (const char *what, const WbTensor *t, const Expected *e, double tol)
{
  gint64 n = wb_tensor_numel (t), idx[4] = { 0, n / 3, n / 2, n - 1 };
  double sum = 0, abs = 0, dot = 0;

  g_assert_cmpint (n, ==, e->n);
  for (gint64 i = 0; i < n; i++)
    {
      double v = wb_tensor_get_f64 (t, i);
      sum += v, abs += fabs (v), dot += v * cos (0.11 * (double) i);
    }
  g_test_message ("%s: sum %.9g (%.9g), abs %.9g (%.9g), dot %.9g (%.9g)", what, sum, e->sum, abs, e->abs, dot, e->dot);
  g_assert_cmpfloat_with_epsilon (sum, e->sum, tol * e->abs);
  g_assert_cmpfloat_with_epsilon (abs, e->abs, tol * e->abs);
  g_assert_cmpfloat_with_epsilon (dot, e->dot, tol * e->abs);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat_with_epsilon (wb_tensor_get_f64 (t, idx[i]), e->at[i], tol * MAX (1.0, fabs (e->at[i])));
}

static GPtrArray *
run (const char *params, const char *body, GPtrArray *args)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *out = wb_test_run_text (params, body, args, &error);

  g_assert_no_error (error);
  return out;
}

/* the projections of the zoo's layer: x [17, 2, 64], in_proj [192, 64] + [192], out_proj [64, 64] + [64] */
static GPtrArray *
zoo_args (WbDtype dtype, WbTensor *extra, ...)
{
  GPtrArray *args = wb_test_args (sine (dtype, 3, (gint64[]){ 17, 2, E }, 1, 1.0), sine (dtype, 2, (gint64[]){ 3 * E, E }, 2, 0.05),
                                  sine (dtype, 1, (gint64[]){ 3 * E }, 3, 0.1), sine (dtype, 2, (gint64[]){ E, E }, 4, 0.2),
                                  sine (dtype, 1, (gint64[]){ E }, 5, 0.1), NULL);
  va_list    ap;

  va_start (ap, extra);
  for (WbTensor *t = extra; t != NULL; t = va_arg (ap, WbTensor *))
    g_ptr_array_add (args, wb_rt_value_take_tensor (t));
  va_end (ap);
  return args;
}

#define ZOO_PARAMS "x, w_in, b_in, w_out, b_out"
#define ZOO_TYPES(dt)                                                                                                        \
  "  # x: \"cpu " dt "[17, 2, 64]\"\n  # w_in: \"cpu " dt "[192, 64]\"\n  # b_in: \"cpu " dt "[192]\"\n  # w_out: \"cpu " dt \
  "[64, 64]\"\n  # b_out: \"cpu " dt "[64]\"\n"

/* A and E: the call Thunder printed in vit_tiny's traces, in f32 and bf16 */
static void
test_zoo_call (void)
{
  static const char     body[] = "  (o, _) = ltorch.multi_head_attention_forward(x, x, x, 64, 4, w_in, b_in, None, None, False, 0.0, w_out, b_out, "
                                 "training=True, key_padding_mask=None, need_weights=False, attn_mask=None, average_attn_weights=True, "
                                 "is_causal=False)\n  return (o,)\n";
  static const Expected a = { 2176, -14.2020809, 924.009309, -0.580950299, { -0.443781286, -0.440732896, -0.402445257, 0.661062062 } };
  static const Expected e = { 2176, -14.1497416, 923.50386, -0.550993271, { -0.4453125, -0.439453125, -0.39453125, 0.6640625 } };
  g_autoptr (GPtrArray) args = zoo_args (WB_DTYPE_FLOAT32, NULL);
  g_autoptr (GPtrArray) bargs = zoo_args (WB_DTYPE_BFLOAT16, NULL);
  g_autofree char *fbody = g_strconcat (ZOO_TYPES ("f32"), body, NULL);
  g_autofree char *bbody = g_strconcat (ZOO_TYPES ("bf16"), body, NULL);
  g_autoptr (GPtrArray) out = run (ZOO_PARAMS, fbody, args);
  g_autoptr (GPtrArray) bout = run (ZOO_PARAMS, bbody, bargs);

  check ("A out", wb_test_output (out, 0), &a, 2e-6);
  g_assert_cmpint (wb_test_output (bout, 0)->dtype, ==, WB_DTYPE_BFLOAT16);
  /* bf16 rounds every step: PyTorch's and ours differ by rounding, a few units of its 8 bits */
  check ("E out", wb_test_output (bout, 0), &e, 3e-2);
}

/* B: cross-attention, bool key_padding_mask, weights averaged over the heads, dropout_p ignored in eval */
static void
test_cross_attention (void)
{
  static const Expected o = { 2176, -14.1489585, 937.611557, -0.729096816, { -0.534127891, -0.444149077, -0.40320009, 0.768129706 } };
  static const Expected w = { 306, 33.9999997, 33.9999997, 1.44780869, { 0.094047159, 0.246243969, 0.0359939374, 0 } };
  g_autoptr (GPtrArray) args = zoo_args (WB_DTYPE_FLOAT32, sine (WB_DTYPE_FLOAT32, 3, (gint64[]){ 9, 2, E }, 6, 1.0),
                                         mask (2, (gint64[]){ 2, 9 }, 1), NULL);
  g_autoptr (GPtrArray) out = run (ZOO_PARAMS ", kv, kpm",
                                   ZOO_TYPES ("f32") "  # kv: \"cpu f32[9, 2, 64]\"\n  # kpm: \"cpu b8[2, 9]\"\n"
                                                     "  (o, w) = ltorch.multi_head_attention_forward(x, kv, kv, 64, 4, w_in, b_in, None, None, False, 0.1, "
                                                     "w_out, b_out, training=False, key_padding_mask=kpm, need_weights=True, attn_mask=None, "
                                                     "average_attn_weights=True, is_causal=False)\n  return (o, w)\n",
                                   args);

  check ("B out", wb_test_output (out, 0), &o, 2e-6);
  check ("B weights", wb_test_output (out, 1), &w, 2e-6);
}

/* C: bias_k/bias_v, add_zero_attn, a float [L, S] attn_mask, no projection biases, weights per head */
static void
test_bias_kv_zero_attn (void)
{
  static const Expected o = { 2176, -0.176609705, 248.796942, -0.152270095, { 0.1120601, -0.154661864, 0.132971033, -0.031057138 } };
  static const Expected w = { 2584, 135.999999, 135.999999, 0.662593345, { 0.0040104785, 0.140860721, 0.0080703618, 0.0015714356 } };
  g_autoptr (GPtrArray) args = zoo_args (WB_DTYPE_FLOAT32, sine (WB_DTYPE_FLOAT32, 3, (gint64[]){ 1, 1, E }, 7, 0.5),
                                         sine (WB_DTYPE_FLOAT32, 3, (gint64[]){ 1, 1, E }, 8, 0.5),
                                         sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ 17, 17 }, 9, 0.5), NULL);
  g_autoptr (GPtrArray) out = run (ZOO_PARAMS ", bk, bv, am",
                                   ZOO_TYPES ("f32") "  # bk: \"cpu f32[1, 1, 64]\"\n  # bv: \"cpu f32[1, 1, 64]\"\n  # am: \"cpu f32[17, 17]\"\n"
                                                     "  (o, w) = ltorch.multi_head_attention_forward(x, x, x, 64, 4, w_in, None, bk, bv, True, 0.0, "
                                                     "w_out, None, training=True, key_padding_mask=None, need_weights=True, attn_mask=am, "
                                                     "average_attn_weights=False, is_causal=False)\n  return (o, w)\n",
                                   args);

  check ("C out", wb_test_output (out, 0), &o, 2e-6);
  check ("C weights", wb_test_output (out, 1), &w, 2e-6);
}

/* D: unbatched, use_separate_proj_weight with kdim 32 and vdim 48, a bool [N * H, L, S] attn_mask */
static void
test_unbatched_separate (void)
{
  static const Expected o = { 1088, -4.97161266, 540.834844, -0.45606173, { -0.58623296, 0.328400433, 0.880244553, 0.739885449 } };
  static const Expected w = { 153, 16.9999998, 16.9999998, -0.790853727, { 0.106440917, 0.0952645019, 0.100934803, 0.130469531 } };
  g_autoptr (GPtrArray) args = wb_test_args (
      sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ 17, E }, 10, 1.0), sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ 9, 32 }, 11, 1.0),
      sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ 9, 48 }, 12, 1.0), sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ E, E }, 13, 0.05),
      sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ E, 32 }, 14, 0.05), sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ E, 48 }, 15, 0.2),
      sine (WB_DTYPE_FLOAT32, 1, (gint64[]){ 3 * E }, 3, 0.1), sine (WB_DTYPE_FLOAT32, 2, (gint64[]){ E, E }, 4, 0.2),
      sine (WB_DTYPE_FLOAT32, 1, (gint64[]){ E }, 5, 0.1), mask (3, (gint64[]){ H, 17, 9 }, 2), NULL);
  g_autoptr (GPtrArray) out = run (
      "q, k, v, wq, wk, wv, b_in, w_out, b_out, am",
      "  # q: \"cpu f32[17, 64]\"\n  # k: \"cpu f32[9, 32]\"\n  # v: \"cpu f32[9, 48]\"\n  # wq: \"cpu f32[64, 64]\"\n"
      "  # wk: \"cpu f32[64, 32]\"\n  # wv: \"cpu f32[64, 48]\"\n  # b_in: \"cpu f32[192]\"\n  # w_out: \"cpu f32[64, 64]\"\n"
      "  # b_out: \"cpu f32[64]\"\n  # am: \"cpu b8[4, 17, 9]\"\n"
      "  (o, w) = ltorch.multi_head_attention_forward(q, k, v, 64, 4, None, b_in, None, None, False, 0.0, w_out, b_out, "
      "training=True, key_padding_mask=None, need_weights=True, attn_mask=am, use_separate_proj_weight=True, q_proj_weight=wq, "
      "k_proj_weight=wk, v_proj_weight=wv, average_attn_weights=True, is_causal=False)\n  return (o, w)\n",
      args);

  check ("D out", wb_test_output (out, 0), &o, 2e-6);
  check ("D weights", wb_test_output (out, 1), &w, 2e-6);
}

/* what the decomposition does not implement fails the program, naming the op and the argument */
static void
test_unsupported (void)
{
  static const struct
  {
    const char *params, *types, *options, *named;
  } cases[] = {
    { ZOO_PARAMS ", sk", "  # sk: \"cpu f32[8, 17, 16]\"\n", "0.0, w_out, b_out, training=True, static_k=sk", "static_k" },
    { ZOO_PARAMS, "", "0.1, w_out, b_out, training=True", "dropout_p=0.1 with training=True" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) args = zoo_args (WB_DTYPE_FLOAT32, i == 0 ? sine (WB_DTYPE_FLOAT32, 3, (gint64[]){ 8, 17, 16 }, 1, 1.0) : NULL, NULL);
      g_autofree char *body = g_strdup_printf ("%s%s  (o, _) = ltorch.multi_head_attention_forward(x, x, x, 64, 4, w_in, b_in, None, None, "
                                               "False, %s, need_weights=False)\n  return (o,)\n",
                                               ZOO_TYPES ("f32"), cases[i].types, cases[i].options);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) out = wb_test_run_text (cases[i].params, body, args, &error);

      g_assert_null (out);
      g_assert_error (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "ltorch.multi_head_attention_forward"));
      g_assert_nonnull (strstr (error->message, cases[i].named));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/executors/decomposition/mha/zoo-call", test_zoo_call);
  g_test_add_func ("/executors/decomposition/mha/cross-attention", test_cross_attention);
  g_test_add_func ("/executors/decomposition/mha/bias-kv-zero-attn", test_bias_kv_zero_attn);
  g_test_add_func ("/executors/decomposition/mha/unbatched-separate", test_unbatched_separate);
  g_test_add_func ("/executors/decomposition/mha/unsupported", test_unsupported);
  return g_test_run ();
}
