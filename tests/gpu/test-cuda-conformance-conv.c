/* test-cuda-conformance-conv.c — convolution on the GPU (cuDNN, wb-cuda-conv.h) against the cpu executor on
 * random inputs (suite gpu), with the geometries real models use (the zoo's ResNet, DenseNet, RegNet,
 * MobileNet, ConvNeXt, EfficientNet and R3D traces: 1x1 and 3x3, strided, depthwise and grouped, dilated, 1-d and
 * 3-d, with and without bias, transposed, and the argument forms Thunder's backward prints); and, without a
 * GPU (the compile-only run, suite executors), that the dispatch sends every convolution of those zoo cases
 * to cuDNN and that the bias kernels compile.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"
#include "wb-test-conformance.h"

static WbConfInput
input (const char *name, WbDtype dtype, guint rank, const gint64 *shape, WbConfDomain dom)
{
  WbConfInput in = { name, dtype, rank, { 0 }, dom, 0 };

  memcpy (in.shape, shape, rank * sizeof (gint64));
  return in;
}

/* one case: x of @xs, weight of @ws (rank @rank), an optional bias [@bias], @args after "x, w, bias" */
static void
add_conv (const char *what, WbDtype d, guint rank, const gint64 *xs, const gint64 *ws, gint64 bias, const char *args)
{
  WbConfInput      in[3] = { input ("x", d, rank, xs, WB_CONF_DOM_ANY), input ("w", d, rank, ws, WB_CONF_DOM_UNIT),
                             input ("bias", d, 1, &bias, WB_CONF_DOM_ANY) };
  g_autofree char *body = g_strdup_printf ("t0 = prims.convolution(x, w, %s, %s)", bias ? "bias" : "None", args);
  g_autofree char *label = g_strdup_printf ("prims.convolution(%s)", what);
  WbConfCase      *c = wb_conf_case_new ("cudnn", label, d, in, bias ? 3 : 2, body, "t0");

  /* f32 runs without TF32 (wb-cudnn-conv.h): the dtype's tolerance applies as it is */
  wb_conf_append (c);
}

static void
conv_cases (void)
{
  static const WbDtype dtypes[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16 };

  for (guint k = 0; k < G_N_ELEMENTS (dtypes); k++)
    {
      WbDtype d = dtypes[k];
      /* 2-d: ResNet's 3x3 with bias, 1x1 strided (downsample), a 7x7 stem with stride 2 and padding 3 */
      add_conv ("3x3 bias", d, 4, (gint64[]){ 2, 8, 12, 12 }, (gint64[]){ 16, 8, 3, 3 }, 16, "(1, 1), (1, 1), (1, 1), False, (0, 0), 1");
      add_conv ("1x1 stride 2", d, 4, (gint64[]){ 2, 8, 12, 12 }, (gint64[]){ 16, 8, 1, 1 }, 0, "(2, 2), (0, 0), (1, 1), False, (0, 0), 1");
      add_conv ("7x7 stem", d, 4, (gint64[]){ 2, 3, 20, 20 }, (gint64[]){ 8, 3, 7, 7 }, 0, "(2, 2), (3, 3), (1, 1), False, (0, 0), 1");
      /* depthwise (MobileNet, ConvNeXt's 7x7), grouped with dilation (RegNet-like) */
      add_conv ("depthwise", d, 4, (gint64[]){ 2, 8, 12, 12 }, (gint64[]){ 8, 1, 3, 3 }, 8, "(1, 1), (1, 1), (1, 1), False, (0, 0), 8");
      add_conv ("grouped dilated", d, 4, (gint64[]){ 2, 8, 12, 12 }, (gint64[]){ 16, 4, 3, 3 }, 0, "(1, 1), (2, 2), (2, 2), False, (0, 0), 2");
      /* the forms Thunder's backward prints: a one-entry stride, padding as a list, a stride in the dilation */
      add_conv ("backward form", d, 4, (gint64[]){ 2, 8, 12, 12 }, (gint64[]){ 16, 8, 3, 3 }, 0, "(1,), [1, 1], (1, 1), False, (0, 0), 1");
      add_conv ("dilation 2 weight grad", d, 4, (gint64[]){ 8, 2, 9, 9 }, (gint64[]){ 16, 2, 4, 4 }, 0, "(1,), [0, 0], (2, 2), False, (0, 0), 1");
      /* 1-d (Whisper's audio stem) and 3-d (R3D) */
      add_conv ("1-d", d, 3, (gint64[]){ 2, 8, 20 }, (gint64[]){ 16, 8, 3 }, 16, "(2,), (1,), (1,), False, (0,), 1");
      add_conv ("3-d", d, 5, (gint64[]){ 1, 4, 6, 8, 8 }, (gint64[]){ 8, 4, 3, 3, 3 }, 0, "(2, 2, 2), (1, 1, 1), (1, 1, 1), False, (0, 0, 0), 1");
      /* transposed, with an output padding (weight [C_in, C_out / groups, R, S]) */
      add_conv ("transposed", d, 4, (gint64[]){ 2, 8, 6, 6 }, (gint64[]){ 8, 4, 3, 3 }, 4, "(2, 2), (1, 1), (1, 1), True, (1, 1), 1");
    }
}

/* Without a GPU: the bias kernels compile for sm_90. */
static void
test_bias_compiles (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *cache = g_build_filename (g_get_tmp_dir (), "wb-test-conv-cache", NULL);
  g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (wb_cuda_conv_bias_source (), "sm_90", g_getenv ("WB_KERNEL_CACHE_DIR") ? g_getenv ("WB_KERNEL_CACHE_DIR") : cache, &error);

  if (img == NULL && error->domain == WB_CUDA_ERROR && error->code == WB_CUDA_ERROR_LIBRARY)
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (img->image), >, 0);
}

/* Without a GPU: every convolution call of a zoo case goes to cuDNN, none to the cpu fallback. */
static void
test_dispatch (gconstpointer data)
{
  const char      *name = data;
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  guint convs = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  c = wb_case_load (path, &error);
  g_assert_no_error (error);
  program = wb_case_make_program (c, wb_case_get_default_stage (c), &error);
  g_assert_no_error (error);
  wb_cuda_executors_explain (wb_program_get_forward (program), "nvrtc", out);
  if (wb_program_get_backward (program) != NULL)
    wb_cuda_executors_explain (wb_program_get_backward (program), "nvrtc", out);
  {
    g_auto (GStrv) lines = g_strsplit (out->str, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      if (strstr (lines[i], "conv") != NULL && strchr (lines[i], ':') != NULL && strstr (lines[i], "conv") < strchr (lines[i], ':'))
        {
          if (strstr (lines[i], "cudnn (convolution)") == NULL)
            g_error ("%s: %s", name, lines[i]);
          convs++;
        }
  }
  g_test_message ("%s: %u convolution calls, all on cuDNN", name, convs);
  g_assert_cmpuint (convs, >, 0);
}

int
main (int argc, char **argv)
{
  gboolean compile_only = FALSE;

  for (int i = 1; i < argc; i++)
    compile_only |= strcmp (argv[i], "--compile-only") == 0;
  wb_conf_init (&argc, &argv);
  if (compile_only)
    {
      static const char *const cases[] = { "resnet50", "densenet121", "regnet_y_400mf", "convnext_tiny", "r3d_18_infer", "efficientnet_b0" };
      g_test_add_func ("/cuda/conv/bias-compiles", test_bias_compiles);
#if WB_HAVE_CUDNN
      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        {
          g_autofree char *p = g_strdup_printf ("/cuda/conv/dispatch/%s", cases[i]);
          g_test_add_data_func (p, cases[i], test_dispatch);
        }
#else
      (void) cases;
#endif
    }
  conv_cases ();
  wb_conf_add_tests ();
  return g_test_run ();
}
