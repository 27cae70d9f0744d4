/* test-cuda-codegen.c — NVRTC code generation for the regions of real traces, compiled to sm_90 without a
 * GPU; the disk cache; where each call of a case would run; `export --as cuda`; the second stream's calls
 * (suite executors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For mlp_small, gpt2_block and llama_layer (../shared/traces, else the bundled samples), the compiler's
 * pipeline plans nvrtc regions; each region's CUDA C is generated from the trace's annotations and
 * compiled by NVRTC to an sm_90 CUBIN (NVRTC needs no driver). A second compile of the same source is a
 * disk-cache hit. What the generator emits for pointwise kernels is test-cuda-codegen-pointwise.c's, for
 * reductions test-cuda-codegen-reduce.c's (helpers shared in wb-test-codegen.c). Run with --print to see the
 * code of every region. */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "wb-interpreter-private.h"
#include "wb-test-codegen.h"

static gboolean print_code;

static void
test_case (gconstpointer data)
{
  const char *case_name = data;
  g_autoptr (GPtrArray) found = wb_test_cg_regions_of (case_name);
  guint kernels = 0;

  if (found->len == 0)
    {
      g_test_skip ("no traces of this case (WB_TRACES_DIR)");
      return;
    }
  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  for (guint i = 0; i < found->len; i++)
    {
      WbTestCgFound *f = found->pdata[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (WbCudaPlan) plan = wb_cuda_plan_new_annotated (f->trace, f->region, WB_CUDA_CODEGEN_DEFAULT, &error);
      g_autoptr (WbNvrtcImage) img = NULL;
      g_autoptr (WbNvrtcImage) again = NULL;

      if (plan == NULL)
        g_error ("%s: %s", f->name, error->message);
      if (print_code)
        {
          g_autofree char *d = wb_cuda_plan_describe (plan);
          g_print ("// ===== %s\n%s%s\n", f->name, d, plan->source);
        }
      g_assert_cmpuint (plan->n_outputs, >, 0);
      img = wb_nvrtc_compile (plan->source, "sm_90", wb_test_cg_cache_dir, &error);
      if (img == NULL)
        g_error ("%s: %s\n%s", f->name, error->message, plan->source);
      g_assert_true (img->is_cubin);
      g_assert_cmpuint (g_bytes_get_size (img->image), >, 4);
      g_assert_cmpint (memcmp (g_bytes_get_data (img->image, NULL), "\177ELF", 4), ==, 0);
      again = wb_nvrtc_compile (plan->source, "sm_90", wb_test_cg_cache_dir, &error);
      g_assert_no_error (error);
      g_assert_true (again->cache_hit);
      g_assert_cmpstr (again->key, ==, img->key);
      g_assert_true (g_bytes_equal (again->image, img->image));
      kernels += plan->n_kernels;
      g_test_message ("%s: %u prims, %u kernels, %zu bytes of cubin%s", f->name, plan->n_ops, plan->n_kernels,
                      g_bytes_get_size (img->image), img->cache_hit ? " (cached)" : "");
    }
  g_test_message ("%s: %u regions, %u kernels", case_name, found->len, kernels);
}

/* The same source compiled twice: the second is a hit and compiles nothing; a changed arch misses. */
static void
test_cache (void)
{
  g_autoptr (GError) error = NULL;
  const char *src = "extern \"C\" __global__ void wb_k0 (float *p) { p[threadIdx.x] = 1.0f; }\n";
  g_autoptr (WbNvrtcImage) a = NULL;
  g_autoptr (WbNvrtcImage) b = NULL;
  g_autoptr (WbNvrtcImage) c = NULL;
  g_autofree char *dir = g_build_filename (wb_test_cg_cache_dir, "cache-test", NULL);
  WbNvrtcStats     s0, s1;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  wb_nvrtc_get_stats (&s0);
  a = wb_nvrtc_compile (src, "sm_90", dir, &error);
  g_assert_no_error (error);
  g_assert_false (a->cache_hit);
  b = wb_nvrtc_compile (src, "sm_90", dir, &error);
  g_assert_no_error (error);
  g_assert_true (b->cache_hit);
  c = wb_nvrtc_compile (src, "compute_90", dir, &error);
  g_assert_no_error (error);
  g_assert_false (c->cache_hit);
  g_assert_false (c->is_cubin);
  wb_nvrtc_get_stats (&s1);
  g_assert_cmpuint (s1.compiles - s0.compiles, ==, 2);
  g_assert_cmpuint (s1.hits - s0.hits, ==, 1);
  /* a corrupt entry is compiled again */
  {
    g_autofree char *p = g_strdup_printf ("%s/%s.cubin", dir, a->key);
    g_autoptr (WbNvrtcImage) d = NULL;
    g_assert_true (g_file_set_contents (p, "junk", 4, NULL));
    d = wb_nvrtc_compile (src, "sm_90", dir, &error);
    g_assert_no_error (error);
    g_assert_false (d->cache_hit);
  }
}

/* A compile error comes back with NVRTC's log. */
static void
test_compile_error (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbNvrtcImage) img = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  img = wb_nvrtc_compile ("extern \"C\" __global__ void f () { undefined_thing (); }\n", "sm_90", "", &error);
  g_assert_null (img);
  g_assert_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_COMPILE);
  g_assert_nonnull (strstr (error->message, "undefined_thing"));
}

/* the pipeline's last stage of trace list @list, or NULL */
static const WbStage *
last_stage (const WbPipeline *pipeline, int list)
{
  for (guint s = wb_pipeline_get_n_stages (pipeline); s > 0; s--)
    if ((int) wb_stage_get_list (wb_pipeline_get_stage (pipeline, s - 1)) == list)
      return wb_pipeline_get_stage (pipeline, s - 1);
  return NULL;
}

/* Where every call of a case's default program and of the workbench's final stages would run: nothing of
 * mlp_small and elementwise_chain_small may need the cpu. */
static void
test_dispatch (gconstpointer data)
{
  const char      *case_name = data;
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbPipeline) pipeline = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  guint fallbacks = 0;

  if (dir == NULL || !g_file_test ((path = g_build_filename (dir, case_name, NULL)), G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no traces of this case (WB_TRACES_DIR)");
      return;
    }
  c = wb_case_load (path, &error);
  g_assert_no_error (error);
  program = wb_case_make_program (c, wb_case_get_default_stage (c), &error);
  g_assert_no_error (error);
  g_string_append (out, "== Thunder's final stage\n");
  fallbacks += wb_cuda_executors_explain (wb_program_get_forward (program), "nvrtc", out);
  if (wb_program_get_backward (program))
    fallbacks += wb_cuda_executors_explain (wb_program_get_backward (program), "nvrtc", out);
  set = wb_trace_set_load (path, &error);
  g_assert_no_error (error);
  pipeline = wb_pipeline_run (wb_pipeline_find_input (set)->trace, NULL, &error);
  g_assert_no_error (error);
  for (int list = WB_STAGE_COMPUTATION; list <= WB_STAGE_BACKWARD; list++)
    {
      const WbStage *st = last_stage (pipeline, list);
      if (st == NULL)
        continue;
      g_string_append_printf (out, "== workbench %s: %s\n", wb_stage_list_to_string (list), wb_stage_get_pass (st));
      fallbacks += wb_cuda_executors_explain (wb_stage_get_trace (st), "nvrtc", out);
    }
  g_test_message ("%s", out->str);
  if (print_code)
    g_print ("%s", out->str);
  g_assert_cmpuint (fallbacks, ==, 0);
}

/* `export PATH --region R --as cuda` prints a compile unit NVRTC accepts as is. */
static void
test_export (void)
{
  const char      *root = g_getenv ("WB_BUILD_ROOT");
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *exe = g_build_filename (root ? root : ".", "app", "thunder-wb", NULL);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbNvrtcImage) img = NULL;

  if (dir == NULL || !g_file_test ((path = g_build_filename (dir, "mlp_small", NULL)), G_FILE_TEST_IS_DIR) ||
      !g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE) || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs mlp_small, the built thunder-wb (WB_BUILD_ROOT) and NVRTC");
      return;
    }
  /* the first region with a kernel (some regions are views only) */
  for (int r = 0; r < 8 && (out == NULL || strstr (out, "__global__") == NULL); r++)
    {
      g_autofree char *name = g_strdup_printf ("nvrtcFusion%d", r);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_clear_object (&p);
      p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error, exe, "--headless", "export", path,
                            "--region", name, "--as", "cuda", NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (p, NULL, NULL, &out, &err, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
      g_assert_nonnull (strstr (out, name));
    }
  g_assert_nonnull (strstr (out, "extern \"C\" __global__"));
  /* the printed kernels (after the prelude, which wb_nvrtc_compile adds itself) compile */
  img = wb_nvrtc_compile (strstr (out, "// sum") ? strstr (out, "// sum") : strstr (out, "// pointwise"), "sm_90", wb_test_cg_cache_dir, &error);
  g_assert_no_error (error);
  g_assert_nonnull (img);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_clear_object (&p);
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error, exe, "--headless", "export", path,
                        "--region", "noSuchRegion7", "--as", "cuda", NULL);
  g_subprocess_communicate_utf8 (p, NULL, NULL, &out, &err, &error);
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 2);
}

/* The calls the second stream takes (wb-cuda-exec-streams.c) in gpt2_block's backward, the workbench's last stage:
 * cuBLASLt calls whose outputs the next two calls do not read. */
static void
test_late_calls (void)
{
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbPipeline) pipeline = NULL;
  g_autoptr (GPtrArray) late = NULL;
  g_autoptr (GHashTable) returned = NULL;
  const WbTrace *bw;
  guint          n_matmuls = 0, n_late = 0;

  if (dir == NULL || !g_file_test ((path = g_build_filename (dir, "gpt2_block", NULL)), G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no traces of this case (WB_TRACES_DIR)");
      return;
    }
  set = wb_trace_set_load (path, &error);
  g_assert_no_error (error);
  pipeline = wb_pipeline_run (wb_pipeline_find_input (set)->trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (last_stage (pipeline, WB_STAGE_BACKWARD));
  bw = wb_stage_get_trace (last_stage (pipeline, WB_STAGE_BACKWARD));
  late = wb_cuda_executors_late_calls (bw);
  returned = g_hash_table_new (g_str_hash, g_str_equal);
  _wb_bsym_collect_uses (_wb_find_return (bw), returned);
  /* its 8 matmuls: the 4 input gradients, read by the region that follows each, stay on the run's stream;
   * the 4 weight gradients ([768, 3072], [3072, 768], [768, 768], [2304, 768]), which only the return
   * reads, go to the side stream, the last one beside nvrtcFusion14 */
  for (guint i = 0; i < bw->n_body; i++)
    {
      const WbBsym *b = bw->body[i];
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      gboolean is_late = g_ptr_array_find (late, b, NULL);
      if (b->kind != WB_BSYM_CALL || strcmp (b->name, "ltorch.matmul") != 0)
        {
          g_assert_false (is_late && strstr (b->name, "matmul") != NULL);
          continue;
        }
      n_matmuls++;
      wb_bsym_get_output_names (b, outs);
      g_assert_cmpuint (outs->len, ==, 1);
      g_test_message ("line %u: %s -> %s%s", wb_trace_get_bsym_line (bw, b), b->name, (char *) outs->pdata[0], is_late ? ": side stream" : "");
      g_assert_cmpint (is_late, ==, g_hash_table_contains (returned, outs->pdata[0]));
      n_late += is_late;
    }
  g_assert_cmpuint (n_matmuls, ==, 8);
  g_assert_cmpuint (n_late, ==, 4);
  wb_cuda_executors_forget_program ();
}

/* A flip over dims of extent 1 (densenet121's backward flips [1024, 512, 1, 1] weights), a pad of zero widths
 * and a cat of one tensor are their operand (wb_bsym_get_identity_source): outputs that are views of the inputs,
 * no kernel; a 3x3 kernel's flip is still computed. */
static void
test_identity_views (void)
{
  const char *in = "w f32[1024, 512, 1, 1]\nx f32[2, 64, 16, 16]\ny f32[2, 64, 16, 16]\nk f32[128, 32, 3, 3]";
  const char *body = "t0 = prims.flip(w, (2, 3))\n"
                     "t1 = prims.pad(x, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])\n"
                     "t2 = prims.cat([y], 1)";
  g_autoptr (WbCudaPlan) views = wb_test_cg_plan_of_body (in, body, "t0, t1, t2");
  g_autoptr (WbCudaPlan) flip3 = wb_test_cg_plan_of_body (in, "t3 = prims.flip(k, (2, 3))", "t3");
  const gint64 w_strides[] = { 512, 1, 1, 1 }, x_strides[] = { 16384, 256, 16, 1 };

  g_assert_cmpuint (views->n_kernels, ==, 0);
  g_assert_cmpuint (views->n_outputs, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const WbCudaOutput *o = &views->outputs[i];
      g_assert_cmpuint (o->slot, ==, i); /* input i itself */
      g_assert_cmpint (o->offset, ==, 0);
      g_assert_cmpuint (o->rank, ==, 4);
      for (guint d = 0; d < 4; d++)
        g_assert_cmpint (o->strides[d], ==, i == 0 ? w_strides[d] : x_strides[d]);
    }
  g_assert_cmpuint (flip3->n_kernels, ==, 1);
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--print") == 0)
      print_code = TRUE;
  wb_test_cg_init (&argc, &argv);
  g_test_add_data_func ("/cuda/codegen/mlp_small", "mlp_small", test_case);
  g_test_add_data_func ("/cuda/codegen/elementwise_chain_small", "elementwise_chain_small", test_case);
  g_test_add_data_func ("/cuda/codegen/gpt2_block", "gpt2_block", test_case);
  g_test_add_data_func ("/cuda/codegen/llama_layer", "llama_layer", test_case);
  g_test_add_data_func ("/cuda/codegen/ce_loss", "ce_loss", test_case);
  g_test_add_data_func ("/cuda/dispatch/mlp_small", "mlp_small", test_dispatch);
  g_test_add_data_func ("/cuda/dispatch/elementwise_chain_small", "elementwise_chain_small", test_dispatch);
  if (g_getenv ("WB_EXPLAIN_CASE"))
    g_test_add_data_func ("/cuda/dispatch/explain", g_getenv ("WB_EXPLAIN_CASE"), test_dispatch);
  g_test_add_func ("/cuda/nvrtc/cache", test_cache);
  g_test_add_func ("/cuda/streams/late-calls", test_late_calls);
  g_test_add_func ("/cuda/export", test_export);
  g_test_add_func ("/cuda/codegen/identity-views", test_identity_views);
  g_test_add_func ("/cuda/nvrtc/compile-error", test_compile_error);
  return wb_test_cg_run ();
}
