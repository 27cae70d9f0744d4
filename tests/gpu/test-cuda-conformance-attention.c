/* test-cuda-conformance-attention.c — the attention ops of the CUDA executors against the cpu executor on
 * random inputs (suite gpu): forward and backward of the sdpa ops and ltorch.scaled_dot_product_attention,
 * on the fused kernels and the unfused path; and where the attention calls of real cases would run (the
 * other ops are in test-cuda-conformance.c, the runner in wb-test-conformance.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"
#include "wb-test-conformance.h"

/* -- attention ---------------------------------------------------------------------------------- */

static void
add_attention (const char *executor, const char *what, WbDtype d, const WbConfInput *in, guint n_in, const char *body, const char *outputs, const char *scale, double tol_mult)
{
  WbConfCase *c = wb_conf_case_new (executor, what, d, in, n_in, body, outputs);

  c->attention = d;
  c->attention_scale = strcmp (scale, "None") == 0 ? 1.0 / sqrt ((double) in[0].shape[3]) : g_ascii_strtod (scale, NULL);
  c->tol_mult = tol_mult;
  wb_conf_append (c);
}

static WbConfInput
input4 (const char *name, WbDtype dtype, gint64 b, gint64 h, gint64 t, gint64 e)
{
  WbConfInput i = { name, dtype, 4, { b, h, t, e }, WB_CONF_DOM_ANY, 0 };
  return i;
}

/* ltorch.scaled_dot_product_attention with the decomposition Thunder prints (gpt2_block/forward_00.py):
 * q and k^T scaled by sqrt(scale) and rounded to the dtype, S = their matmul in the dtype, the causal mask
 * by iota/ge/where, softmax in f32 rounded to the dtype, O = P V. */
static char *
sdpa_decomposition (WbDtype d, gint64 b, gint64 h, gint64 t, gint64 e, gboolean causal)
{
  const char *dn = d == WB_DTYPE_BFLOAT16 ? "bfloat16" : d == WB_DTYPE_FLOAT16 ? "float16"
                                                                               : "float32";
  double      s4 = sqrt (1.0 / sqrt ((double) e));
  GString    *s = g_string_new (NULL);
  const char *scores = causal ? "a15" : "a7";

  g_string_append_printf (s, "y = ltorch.scaled_dot_product_attention(q, k, v, None, 0.0, %s, scale=None)\n", causal ? "True" : "False");
  g_string_append_printf (s, "  # a0 = prims.convert_element_type(q, dtypes.float32)\n  # a1 = prims.mul(a0, %.17g)\n"
                             "  # a2 = prims.convert_element_type(a1, dtypes.%s)\n  # a3 = prims.transpose(k, (0, 1, 3, 2))\n"
                             "  # a4 = prims.convert_element_type(a3, dtypes.float32)\n  # a5 = prims.mul(a4, %.17g)\n"
                             "  # a6 = prims.convert_element_type(a5, dtypes.%s)\n  # a7 = prims.matmul(a2, a6)\n",
                          s4, dn, s4, dn);
  if (causal)
    g_string_append_printf (s,
                            "  # a8 = prims.iota(%" G_GINT64_FORMAT ", start=0, step=1, device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)\n"
                            "  # a9 = prims.broadcast_in_dim(a8, [%" G_GINT64_FORMAT ", 1], [0])\n"
                            "  # a10 = prims.broadcast_in_dim(a8, [1, %" G_GINT64_FORMAT "], [1])\n"
                            "  # a11 = prims.broadcast_in_dim(a9, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1))\n"
                            "  # a12 = prims.broadcast_in_dim(a10, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1))\n"
                            "  # a13 = prims.ge(a11, a12)\n"
                            "  # a14 = prims.broadcast_in_dim(a13, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (2, 3))\n"
                            "  # a15 = prims.where(a14, a7, -float('inf'))\n",
                            t, t, t, t, t, t, t, b, h, t, t);
  g_string_append_printf (s,
                          "  # a16 = prims.convert_element_type(%s, dtypes.float32)\n  # a17 = prims.amax(a16, (3,))\n"
                          "  # a18 = prims.broadcast_in_dim(a17, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1, 2))\n"
                          "  # a19 = prims.sub(a16, a18)\n  # a20 = prims.exp(a19)\n  # a21 = prims.sum(a20, (3,))\n"
                          "  # a22 = prims.broadcast_in_dim(a21, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1, 2))\n"
                          "  # a23 = prims.div(a20, a22)\n  # a24 = prims.convert_element_type(a23, dtypes.%s)\n  # y = prims.matmul(a24, v)",
                          scores, b, h, t, t, b, h, t, t, dn);
  return g_string_free (s, FALSE);
}

static void fused_attention_cases (void);

static void
attention_cases (void)
{
  /* (B, H, Tq, Tk, E, causal, scale): an odd length, head dims 64 and 128, cross attention, an arbitrary scale */
  static const struct
  {
    gint64      b, h, tq, tk, e;
    gboolean    causal;
    const char *scale;
  } shapes[] = {
    { 2, 3, 77, 77, 64, TRUE, "None" },
    { 2, 3, 77, 77, 64, FALSE, "0.3" },
    { 1, 2, 128, 128, 128, TRUE, "0.08838834764831843" },
    { 2, 2, 40, 77, 64, FALSE, "None" },
    { 1, 2, 40, 77, 128, TRUE, "0.125" },
  };
  static const WbDtype dtypes[] = { WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT32 };

  for (guint k = 0; k < G_N_ELEMENTS (dtypes); k++)
    for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
      {
        WbDtype          d = dtypes[k];
        gboolean         flash = d != WB_DTYPE_FLOAT32; /* sdpafx takes bf16/f16 only (Thunder's meta) */
        double           bwd_tol = flash ? 8 : 0;       /* see below */
        const char      *c = shapes[i].causal ? "True" : "False";
        WbConfInput      in[4] = { input4 ("q", d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e),
                                   input4 ("k", d, shapes[i].b, shapes[i].h, shapes[i].tk, shapes[i].e),
                                   input4 ("v", d, shapes[i].b, shapes[i].h, shapes[i].tk, shapes[i].e),
                                   input4 ("g", d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e) };
        g_autofree char *what = g_strdup_printf ("%s %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "%s",
                                                 flash ? "sdpafx" : "sdpaex", shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].tk, shapes[i].e,
                                                 shapes[i].causal ? " causal" : "");
        g_autofree char *fwd = NULL;
        g_autofree char *bwd = NULL;
        g_autofree char *fwd_label = g_strdup_printf ("%s forward", what);
        g_autofree char *bwd_label = g_strdup_printf ("%s backward", what);
        if (flash)
          {
            fwd = g_strdup_printf ("(o, lse, cq, ck, mq, mk, seed, off, dbg) = sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, %s, scale=%s)", c,
                                   shapes[i].scale);
            bwd = g_strdup_printf ("%s\n(dq, dk, dv) = sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, lse, cq, ck, %" G_GINT64_FORMAT
                                   ", %" G_GINT64_FORMAT ", 0.0, %s, seed, off, scale=%s)",
                                   fwd, shapes[i].tq, shapes[i].tk, c, shapes[i].scale);
          }
        else
          {
            fwd = g_strdup_printf ("(o, lse, seed, off) = sdpaex_grad_forward_scaled_dot_product_efficient_attention(q, k, v, None, 0.0, %s, %s)", c, shapes[i].scale);
            bwd = g_strdup_printf ("%s\n(dq, dk, dv, dm) = sdpaex_scaled_dot_product_efficient_attention_backward(g, q, k, v, None, o, lse, seed, off, 0.0, %s, scale=%s)",
                                   fwd, c, shapes[i].scale);
          }
        /* the backward rounds dS = P (dP - D) to the input dtype before the dQ and dK GEMMs, as FlashAttention-2
         * does before its tensor-core MMAs; the cpu keeps dS in f32. Seen on the H200: up to 1.3% of the elements
         * of dQ/dK beyond the default half tolerance (norm-wise error <= 9e-3 bf16, 1.4e-3 f16), up to 0.005 off
         * where dQ cancels to near 0 in f16 (0.0070 vs 0.0021); 8x the default covers it */
        add_attention ("cuda", fwd_label, d, in, 3, fwd, flash ? "o, lse, cq, seed" : "o, lse, seed", shapes[i].scale, 0);
        add_attention ("cuda", bwd_label, d, in, 4, bwd, "dq, dk, dv", shapes[i].scale, bwd_tol);
        if (i == 0)
          {
            /* the nvrtc executor takes the same path; ltorch's composite runs whole (the cpu runs its decomposition) */
            g_autofree char *sdpa = sdpa_decomposition (d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e, TRUE);
            g_autofree char *sdpa_nc = sdpa_decomposition (d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e, FALSE);
            add_attention ("nvrtc", bwd_label, d, in, 4, bwd, "dq, dk, dv", shapes[i].scale, bwd_tol);
            /* the reference rounds S to the dtype before the softmax (Thunder's decomposition): looser for halves */
            add_attention ("nvrtc", "ltorch.scaled_dot_product_attention 2x3x77x64 causal", d, in, 3, sdpa, "y", "None", flash ? 3 : 1);
            add_attention ("cuda", "ltorch.scaled_dot_product_attention 2x3x77x64", d, in, 3, sdpa_nc, "y", "None", flash ? 3 : 1);
          }
      }
  fused_attention_cases ();
}

/* sdpafx forward and backward of (B, H, Tq, Tk, E) on @executor; with @transposed, q, k, v and the gradient
 * are [B, T, H, E] inputs that prims.transpose turns into [B, H, T, E] views (Thunder's layout: the fused
 * kernels read them through their strides). */
static void
add_sdpafx (const char *executor, WbDtype d, gint64 b, gint64 h, gint64 tq, gint64 tk, gint64 e, gboolean causal, const char *scale, gboolean transposed)
{
  const char      *c = causal ? "True" : "False";
  WbConfInput      in[4] = { input4 ("q", d, b, h, tq, e), input4 ("k", d, b, h, tk, e), input4 ("v", d, b, h, tk, e), input4 ("g", d, b, h, tq, e) };
  g_autofree char *what = g_strdup_printf ("sdpafx %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "%s%s%s%s",
                                           b, h, tq, tk, e, causal ? " causal" : "", strcmp (scale, "None") ? " scale " : "",
                                           strcmp (scale, "None") ? scale : "", transposed ? " transposed" : "");
  g_autofree char *pre = transposed ? g_strdup ("q = prims.transpose(q0, (0, 2, 1, 3))\nk = prims.transpose(k0, (0, 2, 1, 3))\n"
                                                "v = prims.transpose(v0, (0, 2, 1, 3))\n")
                                    : g_strdup ("");
  g_autofree char *fwd = g_strdup_printf ("%s(o, lse, cq, ck, mq, mk, seed, off, dbg) = sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, %s, scale=%s)",
                                          pre, c, scale);
  g_autofree char *bwd = g_strdup_printf ("%s\n%s(dq, dk, dv) = sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, lse, cq, ck, %" G_GINT64_FORMAT
                                          ", %" G_GINT64_FORMAT ", 0.0, %s, seed, off, scale=%s)",
                                          fwd, transposed ? "g = prims.transpose(g0, (0, 2, 1, 3))\n" : "", tq, tk, c, scale);
  g_autofree char *fwd_label = g_strdup_printf ("%s forward", what);
  g_autofree char *bwd_label = g_strdup_printf ("%s backward", what);

  if (transposed)
    {
      static const char *const names[] = { "q0", "k0", "v0", "g0" };
      for (guint i = 0; i < 4; i++)
        {
          gint64 t = in[i].shape[2];
          in[i].name = names[i];
          in[i].shape[1] = t, in[i].shape[2] = h;
        }
    }
  /* the backward's tolerance: see attention_cases */
  add_attention (executor, fwd_label, d, in, 3, fwd, "o, lse, cq, seed", scale, 0);
  add_attention (executor, bwd_label, d, in, 4, bwd, "dq, dk, dv", scale, 8);
}

/* Shapes that exercise the fused kernels' tiles (128 query rows, key tiles of 64/32, dK/dV blocks of
 * 128/64 keys, query tiles of 32): gpt2_block's attention scaled down (200 is not a multiple of any tile),
 * llama_layer's head dim 128 with its scale, cross attention in both directions (causal too: top-left
 * aligned, so keys past Tq get zero gradients), Thunder's transposed views, and head dim 32 (unfused). */
static void
fused_attention_cases (void)
{
  add_sdpafx ("nvrtc", WB_DTYPE_BFLOAT16, 2, 3, 200, 200, 64, TRUE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 2, 3, 200, 200, 64, TRUE, "None", FALSE);
  add_sdpafx ("nvrtc", WB_DTYPE_FLOAT16, 1, 2, 200, 200, 128, TRUE, "0.08838834764831843", FALSE);
  add_sdpafx ("nvrtc", WB_DTYPE_BFLOAT16, 1, 2, 200, 200, 128, TRUE, "0.08838834764831843", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 2, 2, 150, 333, 64, FALSE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 1, 3, 333, 150, 128, FALSE, "0.2", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 1, 2, 300, 130, 64, TRUE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 1, 2, 130, 300, 128, TRUE, "-0.1", FALSE);
  add_sdpafx ("nvrtc", WB_DTYPE_BFLOAT16, 2, 3, 200, 200, 64, TRUE, "None", TRUE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 1, 4, 160, 97, 128, FALSE, "None", TRUE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 1, 2, 530, 530, 64, TRUE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 2, 2, 90, 90, 32, TRUE, "None", FALSE);
}

/* Where the attention calls of a real case would run (Thunder's final stages and the workbench's, from the
 * structure alone: no GPU needed): on the attention path, none on the cpu. */
static void
test_attention_dispatch (gconstpointer data)
{
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  guint taken = 0;

  if (dir == NULL || !g_file_test ((path = g_build_filename (dir, (const char *) data, NULL)), G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no traces of this case (WB_TRACES_DIR)");
      return;
    }
  c = wb_case_load (path, &error);
  g_assert_no_error (error);
  program = wb_case_make_program (c, wb_case_get_default_stage (c), &error);
  g_assert_no_error (error);
  for (guint e = 0; e < 2; e++)
    {
      const char *exec = e == 0 ? "nvrtc" : "cuda";
      wb_cuda_executors_explain (wb_program_get_forward (program), exec, out);
      if (wb_program_get_backward (program))
        wb_cuda_executors_explain (wb_program_get_backward (program), exec, out);
    }
  g_test_message ("%s", out->str);
  lines = g_strsplit (out->str, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], "scaled_dot_product") != NULL)
      {
        g_assert_nonnull (strstr (lines[i], ": attention (cudnn, nvrtc flash or cublasLt)"));
        taken++;
      }
  /* forward and backward, on both executors */
  g_assert_cmpuint (taken, ==, 4);
}

/* The fused kernels are chosen only on sm_90 and newer: stmatrix, which they store tiles with, is not in PTX for
 * sm_86, so NVRTC refuses them for it (checked when NVRTC is installed); elsewhere attention runs on cuDNN or the
 * unfused kernels, which compile for sm_86, as do the per-op kernels. */
static void
test_flash_arch (void)
{
  g_autofree char *why = NULL;
  g_autofree char *src = wb_cuda_flash_source (WB_DTYPE_BFLOAT16, 128);
  g_autoptr (GError) error = NULL;
  g_autofree char *cache = NULL;

  g_assert_true (wb_cuda_flash_arch_ok (9, 0, NULL));
  g_assert_true (wb_cuda_flash_arch_ok (10, 0, NULL));
  g_assert_false (wb_cuda_flash_arch_ok (8, 6, &why));
  g_assert_cmpstr (why, ==, "sm_86: the fused kernels need sm_90 or newer (stmatrix)");
  if (wb_cuda_load_nvrtc (NULL) == NULL || !wb_nvrtc_supports_arch (8, 6))
    {
      g_test_skip ("NVRTC is not installed or lacks sm_86");
      return;
    }
  cache = g_dir_make_tmp ("wb-flash-arch-XXXXXX", NULL);
  {
    g_autoptr (WbNvrtcImage) old = wb_nvrtc_compile (src, "sm_86", cache, &error);
    g_assert_null (old);
    g_assert_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_COMPILE);
    g_assert_nonnull (strstr (error->message, "stmatrix"));
  }
  g_clear_error (&error);
  {
    g_autoptr (WbNvrtcImage) hopper = wb_nvrtc_compile (src, "sm_90", cache, &error);
    g_assert_no_error (error);
    g_assert_nonnull (hopper);
  }
  /* what such a device runs instead compiles for it: the unfused attention kernels, and the per-op kernels */
  for (guint i = 0; i == 0 || wb_cuda_kernels_source (i - 1) != NULL; i++)
    {
      g_autofree char *other = i == 0 ? wb_cuda_attention_source (WB_DTYPE_BFLOAT16) : g_strdup (wb_cuda_kernels_source (i - 1));
      g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (other, "sm_86", cache, &error);
      g_assert_no_error (error);
      g_assert_nonnull (img);
    }
  wb_test_remove_tree (cache);
}

int
main (int argc, char **argv)
{
  gboolean compile_only = FALSE;

  for (int i = 1; i < argc; i++)
    compile_only |= strcmp (argv[i], "--compile-only") == 0;
  wb_conf_init (&argc, &argv);
  /* needs no GPU: with the compile-only run (suite executors), so that the gpu suite still skips without one */
  if (compile_only)
    g_test_add_func ("/cuda/attention/flash-arch", test_flash_arch);
  attention_cases ();
  wb_conf_add_tests ();
  /* the dispatch does not depend on WB_CUDA_ATTN: run once, not again in the deterministic run (which, without a
   * GPU, then has no test and skips) */
  if (g_getenv ("WB_CUDA_ATTN") == NULL)
    {
      g_test_add_data_func ("/cuda/attention/dispatch/gpt2_block", "gpt2_block", test_attention_dispatch);
      g_test_add_data_func ("/cuda/attention/dispatch/llama_layer", "llama_layer", test_attention_dispatch);
    }
  return g_test_run ();
}
