/* test-cuda-codegen.c — NVRTC code generation for the regions of real traces, compiled to sm_90 without a
 * GPU, and the disk cache (suite executors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For mlp_small, gpt2_block and llama_layer (../shared/traces, else the bundled samples), the compiler's
 * pipeline plans nvrtc regions; each region's CUDA C is generated from the trace's annotations and
 * compiled by NVRTC to an sm_90 CUBIN (NVRTC needs no driver). A second compile of the same source is a
 * disk-cache hit. The vector variant of pointwise kernels (wb-cuda-codegen-pointwise.c) is chosen where
 * the innermost extent allows it and not otherwise, loads what it can as vectors, and compiles, as does
 * the scalar plan of WB_CUDA_NO_VECTOR=1, whose loop the vector plan holds unchanged; row reductions take
 * vectors too, and an output that is a view of another is no second kernel. Run with --print to see the
 * code of every region. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "wb-cuda-toolkit.h"
#include "wb-interpreter-private.h"
#include "wb-test-common.h"
#include "wb-test-mixed-body.h"

static gboolean print_code;
static char    *cache_dir;

typedef struct
{
  const WbTrace *trace;
  const WbBsym  *region;
  char          *name;
} Found;

/* Every fusion region of the pipeline's final stages of @case_name, with the trace holding it. */
static GPtrArray *
regions_of (const char *case_name)
{
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  const WbTraceEntry *input;
  WbPipeline         *pipeline;
  GPtrArray          *out = g_ptr_array_new ();
  GPtrArray          *regions;

  if (dir == NULL)
    return out;
  path = g_build_filename (dir, case_name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return out;
  set = wb_trace_set_load (path, &error);
  g_assert_no_error (error);
  input = wb_pipeline_find_input (set);
  g_assert_nonnull (input);
  pipeline = wb_pipeline_run (input->trace, NULL, &error);
  g_assert_no_error (error);
  regions = wb_pipeline_get_regions (pipeline);
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion *r = regions->pdata[i];
      Found          *f;
      if (g_strcmp0 (r->executor, "nvrtc") != 0)
        continue;
      f = g_new0 (Found, 1);
      for (guint s = wb_pipeline_get_n_stages (pipeline); s > 0 && f->trace == NULL; s--)
        {
          WbTrace *t = wb_stage_get_trace (wb_pipeline_get_stage (pipeline, s - 1));
          for (guint b = 0; b < t->n_body; b++)
            if (t->body[b] == r->bsym)
              f->trace = wb_trace_ref (t);
        }
      g_assert_nonnull (f->trace);
      f->region = r->bsym;
      f->name = g_strdup_printf ("%s/%s", case_name, r->name);
      g_ptr_array_add (out, f);
    }
  wb_pipeline_free (pipeline);
  return out;
}

static void
test_case (gconstpointer data)
{
  const char *case_name = data;
  g_autoptr (GPtrArray) found = regions_of (case_name);
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
      Found *f = found->pdata[i];
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
      img = wb_nvrtc_compile (plan->source, "sm_90", cache_dir, &error);
      if (img == NULL)
        g_error ("%s: %s\n%s", f->name, error->message, plan->source);
      g_assert_true (img->is_cubin);
      g_assert_cmpuint (g_bytes_get_size (img->image), >, 4);
      g_assert_cmpint (memcmp (g_bytes_get_data (img->image, NULL), "\177ELF", 4), ==, 0);
      again = wb_nvrtc_compile (plan->source, "sm_90", cache_dir, &error);
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
  g_autofree char *dir = g_build_filename (cache_dir, "cache-test", NULL);
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

/* Where every call of a case's default program and of the workbench's final stages would run: nothing of
 * mlp_small and elementwise_chain_small may need the cpu. */
/* the pipeline's last stage of trace list @list, or NULL */
static const WbStage *
last_stage (const WbPipeline *pipeline, int list)
{
  for (guint s = wb_pipeline_get_n_stages (pipeline); s > 0; s--)
    if ((int) wb_stage_get_list (wb_pipeline_get_stage (pipeline, s - 1)) == list)
      return wb_pipeline_get_stage (pipeline, s - 1);
  return NULL;
}

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
  img = wb_nvrtc_compile (strstr (out, "// sum") ? strstr (out, "// sum") : strstr (out, "// pointwise"), "sm_90", cache_dir, &error);
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

/* -- the vector variant of pointwise kernels ------------------------------------------------------ */

static guint
count_of (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
compile_or_fail (const char *what, const WbCudaPlan *plan)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (plan->source, "sm_90", cache_dir, &error);

  if (img == NULL)
    g_error ("%s: %s\n%s", what, error->message, plan->source);
  g_assert_true (img->is_cubin);
}

/* The plan of a one-region trace under @flags: @inputs "name dtype[shape]" lines, the region's @body (prims, one a
 * line). */
static WbCudaPlan *
plan_of_body_flags (const char *inputs, const char *body, const char *outputs, WbCudaCodegenFlags flags)
{
  g_autoptr (GString) text = g_string_new ("@torch.no_grad()\ndef computation(");
  g_auto (GStrv) ins = g_strsplit (inputs, "\n", -1);
  g_auto (GStrv) lines = g_strsplit (body, "\n", -1);
  g_autoptr (GString) names = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;
  WbCudaPlan *plan;

  for (guint i = 0; ins[i]; i++)
    g_string_append_printf (names, "%s%.*s", i ? ", " : "", (int) strcspn (ins[i], " "), ins[i]);
  g_string_append_printf (text, "%s):\n", names->str);
  for (guint i = 0; ins[i]; i++)
    {
      const char *sp = strchr (ins[i], ' ');
      g_string_append_printf (text, "  # %.*s: \"cuda:0 %s\"\n", (int) (sp - ins[i]), ins[i], sp + 1);
    }
  g_string_append_printf (text, "  [%s] = nvrtcFusion0(%s)\n", outputs, names->str);
  for (guint i = 0; lines[i]; i++)
    g_string_append_printf (text, "    # %s\n", lines[i]);
  g_string_append_printf (text, "  return (%s,)\n", outputs);
  trace = wb_trace_parse (text->str, -1, "vector-test", &error);
  g_assert_no_error (error);
  plan = wb_cuda_plan_new_annotated (trace, trace->body[trace->n_body - 2], flags, &error);
  if (plan == NULL)
    g_error ("%s\n%s", error->message, text->str);
  return plan;
}

static WbCudaPlan *
plan_of_body (const char *inputs, const char *body, const char *outputs)
{
  return plan_of_body_flags (inputs, body, outputs, WB_CUDA_CODEGEN_DEFAULT);
}

/* The vector loop of @source (between the alignment test and the scalar loop; over vectors Q where warps take
 * several rows). */
static char *
vector_loop (const char *source)
{
  const char *a = strstr (source, "for (int B = ") ? strstr (source, "for (int B = ") : strstr (source, "for (int Q = ");
  const char *b = a ? strstr (a, "for (int L = ") : NULL;

  g_assert_nonnull (b);
  return g_strndup (a, b - a);
}

/* The plan of @f's region (the test fails on an error). */
static WbCudaPlan *
plan_of (const Found *f)
{
  g_autoptr (GError) error = NULL;
  WbCudaPlan *plan = wb_cuda_plan_new_annotated (f->trace, f->region, WB_CUDA_CODEGEN_DEFAULT, &error);

  g_assert_no_error (error);
  return plan;
}

/* The plan of the first region of gpt2_block whose plan has @n_kernels kernels, the first's description
 * starting with @what, and that region in @f (kept by @found); NULL when the test is skipped (no traces or
 * no NVRTC). Fails the test when no region matches. */
static WbCudaPlan *
gpt2_block_plan (guint n_kernels, const char *what, GPtrArray **found, Found **f)
{
  *found = regions_of ("gpt2_block");
  if ((*found)->len == 0 || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs gpt2_block (WB_TRACES_DIR) and NVRTC");
      return NULL;
    }
  for (guint i = 0; i < (*found)->len; i++)
    {
      g_autoptr (WbCudaPlan) plan = NULL;
      *f = (*found)->pdata[i];
      plan = plan_of (*f);
      if (plan->n_kernels == n_kernels && g_str_has_prefix (plan->kernels[0].what, what))
        {
          g_test_message ("%s: %s", (*f)->name, plan->kernels[0].what);
          return g_steal_pointer (&plan);
        }
    }
  g_test_message ("no region of gpt2_block has a plan of %u kernels whose first is \"%s...\"", n_kernels, what);
  g_assert_not_reached ();
}

/* The plan of @f's region built with environment variable @var set to "1" (a switch of the generator). */
static WbCudaPlan *
plan_with (const Found *f, const char *var)
{
  WbCudaPlan *plan;

  g_setenv (var, "1", TRUE);
  plan = plan_of (f);
  g_unsetenv (var);
  return plan;
}

/* A real region: gpt2_block's GELU over bf16[8, 1024, 3072] (contiguous, 3072 = 384 x 8) takes 16-byte
 * vectors; the scalar plan of WB_CUDA_NO_VECTOR=1 has none, and its loop is the vector plan's fallback. */
static void
test_vector_chosen (void)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (WbCudaPlan) scalar = NULL;
  Found      *f = NULL;
  const char *loop;
  g_autoptr (WbCudaPlan) plan = NULL;

  g_setenv ("WB_CUDA_NO_TABLE", "1", TRUE); /* the computed kernel, not the lookup table (test_table_chosen) */
  plan = gpt2_block_plan (1, "pointwise over [8, 1024, 3072]: 1 output", &found, &f);
  if (plan == NULL)
    {
      g_unsetenv ("WB_CUDA_NO_TABLE");
      return;
    }
  g_assert_nonnull (strstr (plan->kernels[0].what, "vector: 8 per thread"));
  g_assert_nonnull (strstr (plan->source, "struct alignas (16) wb_v8h"));
  g_assert_nonnull (strstr (plan->source, "((unsigned long long) p0 | (unsigned long long) p1) & 15u) == 0"));
  g_assert_cmpuint (count_of (plan->source, "= *(const wb_v8h *) (p0 + B);"), ==, 1);
  g_assert_cmpuint (count_of (plan->source, "*(wb_v8h *) (p1 + B) = "), ==, 1);
  /* 25165824 / 8 elements in 256-thread blocks: capped at 132 SMs x 8 blocks x 4 waves */
  g_assert_cmpuint (plan->kernels[0].grid, ==, 132 * 8 * 4);
  compile_or_fail (f->name, plan);
  scalar = plan_with (f, "WB_CUDA_NO_VECTOR");
  g_assert_null (strstr (scalar->kernels[0].what, "vector"));
  g_assert_null (strstr (scalar->source, "alignas"));
  loop = strstr (scalar->source, "  for (int L = ");
  g_assert_nonnull (loop);
  g_assert_nonnull (strstr (plan->source, loop)); /* the same scalar loop, to the end of the kernel */
  compile_or_fail (f->name, scalar);
  g_unsetenv ("WB_CUDA_NO_TABLE");
}

/* The output of @plan of dtype bf16 and @shape (rank 2 or 3), or -1. */
static int
output_of_shape (const WbCudaPlan *plan, guint rank, const gint64 *shape)
{
  for (guint i = 0; i < plan->n_outputs; i++)
    if (plan->outputs[i].dtype == WB_DTYPE_BFLOAT16 && plan->outputs[i].rank == rank && memcmp (plan->outputs[i].shape, shape, rank * sizeof (gint64)) == 0)
      return (int) i;
  return -1;
}

/* gpt2_block's recomputed backward converts one f32 value to bf16 twice (in its second layer norm's gradient
 * region), returning one as [8, 1024, 768] and reshaping the other to [8192, 768] for a matmul:
 * the generator binds the repeat to the first conversion, so the reshape is a view of the same buffer and the
 * column kernel stores one output per element, not two; WB_CUDA_NO_CSE=1 keeps two buffers. */
static void
test_cse (void)
{
  g_autoptr (GPtrArray) found = regions_of ("gpt2_block");
  const gint64 tokens[3] = { 8, 1024, 768 }, rows[2] = { 8192, 768 };
  guint        shared = 0, apart = 0;

  if (found->len == 0 || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs gpt2_block (WB_TRACES_DIR) and NVRTC");
      return;
    }
  for (int cse = 1; cse >= 0; cse--)
    {
      if (!cse)
        g_setenv ("WB_CUDA_NO_CSE", "1", TRUE);
      for (guint i = 0; i < found->len; i++)
        {
          Found *f = found->pdata[i];
          g_autoptr (WbCudaPlan) plan = plan_of (f);
          int a, b;
          if ((a = output_of_shape (plan, 3, tokens)) < 0 || (b = output_of_shape (plan, 2, rows)) < 0 || plan->n_kernels != 1 ||
              !g_str_has_prefix (plan->kernels[0].what, "sum over 2 of 3 dims"))
            continue;
          g_test_message ("%s%s: %s", f->name, cse ? "" : " (WB_CUDA_NO_CSE)", plan->kernels[0].what);
          if (cse)
            {
              g_assert_cmpuint (plan->outputs[a].slot, ==, plan->outputs[b].slot);
              g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per element"));
              compile_or_fail (f->name, plan);
              shared++;
            }
          else
            apart += plan->outputs[a].slot != plan->outputs[b].slot;
        }
    }
  g_unsetenv ("WB_CUDA_NO_CSE");
  /* the second layer norm's backward; the MLP output gradient's region did it too until its reader took over the
   * other conversion (wb-pass-remat.c's backward rule: WB_NO_BACKWARD_REMAT=1 gives 2) */
  g_assert_cmpuint (shared, ==, 1);
  g_assert_cmpuint (apart, ==, 1);
}

#define GELU_BODY                                                                                                    \
  "t1 = prims.convert_element_type(a, dtypes.float32)\nt4 = prims.mul(t1, 0.7071067811865476)\nt5 = prims.erf(t4)\n" \
  "t6 = prims.add(1.0, t5)\nt7 = prims.mul(t1, t6)\nt8 = prims.mul(0.5, t7)"

/* gpt2_block's exact GELU (bf16[8, 1024, 3072], one input, erf): a lookup table (wb-cuda-codegen-table.c), its
 * builder run once per plan and the lookup kernel of one 1024-thread block per SM with the table in 128 KiB of
 * dynamic shared memory. Groups of a cheap op, of two inputs, of an f32 output or of few elements are computed. */
static void
test_table_chosen (void)
{
  g_autoptr (GPtrArray) found = NULL;
  Found *f = NULL;
  g_autoptr (WbCudaPlan) plan = gpt2_block_plan (2, "lookup table", &found, &f);
  const char *lookup;

  if (plan == NULL)
    return;
  g_assert_true (plan->kernels[0].once);
  g_assert_cmpuint (plan->kernels[0].grid, ==, 256);
  g_assert_false (plan->kernels[1].once);
  g_assert_cmpuint (plan->kernels[1].block, ==, 1024);
  g_assert_cmpuint (plan->kernels[1].smem_bytes, ==, 131072);
  g_assert_cmpuint (plan->kernels[1].grid, ==, 132);
  g_assert_nonnull (strstr (plan->kernels[1].what, "pointwise over 25165824 elements by lookup"));
  g_assert_cmpuint (plan->n_buffers, ==, 2);
  g_assert_true (plan->buffers[0].table);
  g_assert_cmpint (plan->buffers[0].numel, ==, 65536);
  g_assert_false (plan->buffers[1].table);
  g_assert_cmpint (plan->buffers[1].numel, ==, 25165824);
  g_assert_cmpuint (plan->n_outputs, ==, 1);
  g_assert_cmpuint (plan->outputs[0].slot, ==, plan->n_inputs + 1);
  /* the builder evaluates the expression at the bit pattern L; the lookup kernel has no erf */
  lookup = strstr (plan->source, "__launch_bounds__ (1024, 1)");
  g_assert_nonnull (lookup);
  g_assert_nonnull (strstr (plan->source, "wb_bf16_to_f ((unsigned short) (L))"));
  g_assert_nonnull (g_strstr_len (plan->source, lookup - plan->source, "erff ("));
  g_assert_null (strstr (lookup, "erff ("));
  g_assert_nonnull (strstr (lookup, "extern __shared__ wb_u4 wb_table4[];"));
  g_assert_cmpuint (count_of (lookup, "wb_table[ca."), ==, 8);
  g_assert_cmpuint (count_of (lookup, "wb_table[cb."), ==, 8);
  g_assert_cmpuint (count_of (lookup, "ld.global.cs.v4.u32"), ==, 4); /* the elements are streamed */
  g_assert_cmpuint (count_of (lookup, "st.global.cs.v4.u32"), ==, 2);
  compile_or_fail (f->name, plan);
  {
    g_autoptr (WbCudaPlan) big = plan_of_body ("a bf16[2048, 2048]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9");
    g_autoptr (WbCudaPlan) small = plan_of_body ("a bf16[2048, 2047]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9");
    g_autoptr (WbCudaPlan) wide = plan_of_body ("a bf16[2048, 2048]", GELU_BODY, "t8");
    g_autoptr (WbCudaPlan) two = plan_of_body ("a bf16[2048, 2048]\nb bf16[2048, 2048]",
                                               GELU_BODY "\nt10 = prims.convert_element_type(b, dtypes.float32)\nt11 = prims.mul(t8, t10)\n"
                                                         "t9 = prims.convert_element_type(t11, dtypes.bfloat16)",
                                               "t9");
    g_autoptr (WbCudaPlan) cheap = plan_of_body ("a bf16[2048, 2048]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, 3.0)\nt2 = prims.add(t1, t0)\n"
                                                                       "t3 = prims.convert_element_type(t2, dtypes.bfloat16)",
                                                 "t3");
    g_assert_cmpuint (big->n_kernels, ==, 2); /* 2^22 elements */
    g_assert_true (big->kernels[0].once);
    g_assert_cmpuint (small->n_kernels, ==, 1);
    g_assert_cmpuint (wide->n_kernels, ==, 1); /* an f32 output */
    g_assert_cmpuint (two->n_kernels, ==, 1);
    g_assert_cmpuint (cheap->n_kernels, ==, 1);
    g_setenv ("WB_CUDA_TABLE", "always", TRUE);
    {
      g_autoptr (WbCudaPlan) forced = plan_of_body ("a bf16[2048, 2048]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, 3.0)\n"
                                                                          "t3 = prims.convert_element_type(t1, dtypes.bfloat16)",
                                                    "t3");
      g_assert_cmpuint (forced->n_kernels, ==, 2);
    }
    g_unsetenv ("WB_CUDA_TABLE");
    g_setenv ("WB_CUDA_NO_TABLE", "1", TRUE);
    {
      g_autoptr (WbCudaPlan) off = plan_of_body ("a bf16[2048, 2048]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9");
      g_assert_cmpuint (off->n_kernels, ==, 1);
    }
    g_unsetenv ("WB_CUDA_NO_TABLE");
  }
  {
    /* for a device that gives a block less than the table's 128 KiB (WB_CUDA_CODEGEN_NO_TABLE): the computed kernel,
     * no dynamic shared memory, even where WB_CUDA_TABLE=always would force a table */
    g_autoptr (WbCudaPlan) small_smem = NULL;
    g_setenv ("WB_CUDA_TABLE", "always", TRUE);
    small_smem = plan_of_body_flags ("a bf16[2048, 2048]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9",
                                     WB_CUDA_CODEGEN_NO_TABLE);
    g_unsetenv ("WB_CUDA_TABLE");
    g_assert_cmpuint (small_smem->n_kernels, ==, 1);
    g_assert_cmpuint (small_smem->kernels[0].smem_bytes, ==, 0);
    g_assert_null (strstr (small_smem->source, "wb_table"));
    compile_or_fail ("GELU without a table", small_smem);
  }
}

/* llama_layer's SiLU forward and backward (bf16[2048, 11008], two inputs): the sigmoid s = 1 / (1 + exp (-x)),
 * every op rounded to bf16, is a value of the gate x alone. It is looked up in a table of its 65536 values (a
 * builder run once per plan) inside the pointwise kernel, which runs one 1024-thread block per SM with the table
 * in 128 KiB of shared memory and computes the rest; the builder holds the exp and the division, the pointwise
 * kernel neither. One region of gpt2_block has one: the GELU backward, which recomputes the forward's
 * 0.5 * (1 + erf (x / sqrt (2))) of the bf16 [8, 1024, 3072] input (wb-pass-remat.c's backward rule) and writes
 * two outputs: the erf is in the builder, not in the pointwise kernel (measured on an H200: 0.0579 -> 0.0558 ms).
 * Its GELU forward has none (it moves 12 bytes an element for one erf: the halved occupancy costs more than the
 * erf, measured); WB_CUDA_NO_PARTIAL_TABLE=1 computes s (and the erf) again. */
static void
test_partial_table (void)
{
  g_autoptr (GPtrArray) llama = regions_of ("llama_layer");
  g_autoptr (GPtrArray) gpt2 = regions_of ("gpt2_block");
  guint with = 0, gpt2_with = 0;

  if (llama->len == 0 || gpt2->len == 0 || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs llama_layer and gpt2_block (WB_TRACES_DIR) and NVRTC");
      return;
    }
  for (guint i = 0; i < llama->len; i++)
    {
      Found *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) plan = plan_of (f);
      g_autoptr (WbCudaPlan) off = NULL;
      const char *main_kernel;
      guint       tables = 0;

      if (plan->n_kernels != 2 || strstr (plan->kernels[1].what, "looks up a value of in") == NULL)
        continue;
      g_test_message ("%s: %s", f->name, plan->kernels[1].what);
      with++;
      g_assert_nonnull (strstr (plan->kernels[1].what, "pointwise over [")); /* of [1, 2048, 11008] or [2048, 11008] */
      g_assert_nonnull (strstr (plan->kernels[1].what, "2048, 11008]"));
      g_assert_true (plan->kernels[0].once);
      g_assert_cmpuint (plan->kernels[0].grid, ==, 256);
      g_assert_false (plan->kernels[1].once);
      g_assert_cmpuint (plan->kernels[1].block, ==, 1024);
      g_assert_cmpuint (plan->kernels[1].smem_bytes, ==, 131072);
      g_assert_cmpuint (plan->kernels[1].grid, ==, 132);
      for (guint b = 0; b < plan->n_buffers; b++)
        if (plan->buffers[b].table)
          {
            g_assert_cmpint (plan->buffers[b].numel, ==, 65536);
            tables++;
          }
      g_assert_cmpuint (tables, ==, 1);
      main_kernel = strstr (plan->source, "__launch_bounds__ (1024, 1)");
      g_assert_nonnull (main_kernel);
      g_assert_nonnull (g_strstr_len (plan->source, main_kernel - plan->source, "expf ("));
      g_assert_nonnull (g_strstr_len (plan->source, main_kernel - plan->source, " / v")); /* 1 / (1 + exp (-x)) */
      g_assert_null (strstr (main_kernel, "expf ("));
      g_assert_null (strstr (main_kernel, " / v"));
      /* one lookup an element: 8 in the vector loop, 1 in the scalar one */
      g_assert_cmpuint (count_of (main_kernel, "wb_table[(__float_as_uint ("), ==, 9);
      g_assert_nonnull (strstr (main_kernel, "__syncthreads ();"));
      compile_or_fail (f->name, plan);
      off = plan_with (f, "WB_CUDA_NO_PARTIAL_TABLE");
      g_assert_cmpuint (off->n_kernels, ==, 1);
      g_assert_nonnull (strstr (off->source, "expf ("));
      {
        /* WB_CUDA_CODEGEN_NO_TABLE (a device with less shared memory a block) computes it too */
        g_autoptr (GError) error = NULL;
        g_autoptr (WbCudaPlan) small_smem = wb_cuda_plan_new_annotated (f->trace, f->region, WB_CUDA_CODEGEN_NO_TABLE, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (small_smem->n_kernels, ==, 1);
        g_assert_cmpuint (small_smem->kernels[0].smem_bytes, ==, 0);
        g_assert_cmpstr (small_smem->source, ==, off->source);
      }
      g_assert_null (strstr (off->source, "wb_table"));
    }
  g_assert_cmpuint (with, ==, 2);
  for (guint i = 0; i < gpt2->len; i++)
    {
      Found *f = gpt2->pdata[i];
      g_autoptr (WbCudaPlan) plan = plan_of (f);
      g_autoptr (WbCudaPlan) off = NULL;
      const char *main_kernel;

      guint lookups = 0;

      for (guint k = 0; k < plan->n_kernels; k++)
        if (strstr (plan->kernels[k].what, "looks up a value") != NULL)
          {
            g_assert_cmpuint (plan->n_kernels, ==, 2); /* the builder, then the kernel that looks up */
            g_assert_cmpuint (k, ==, 1);
            lookups++;
          }
      if (lookups == 0)
        continue;
      g_test_message ("%s: %s", f->name, plan->kernels[1].what);
      gpt2_with++;
      g_assert_true (g_str_has_prefix (plan->kernels[1].what, "pointwise over [8, 1024, 3072]: 2 outputs"));
      g_assert_cmpuint (plan->kernels[1].smem_bytes, ==, 131072);
      main_kernel = strstr (plan->source, "__launch_bounds__ (1024, 1)");
      g_assert_nonnull (main_kernel);
      g_assert_nonnull (g_strstr_len (plan->source, main_kernel - plan->source, "erff ("));
      g_assert_null (strstr (main_kernel, "erff ("));
      compile_or_fail (f->name, plan);
      off = plan_with (f, "WB_CUDA_NO_PARTIAL_TABLE");
      g_assert_cmpuint (off->n_kernels, ==, 1);
      g_assert_nonnull (strstr (off->source, "erff ("));
    }
  g_assert_cmpuint (gpt2_with, ==, 1);
}

/* gpt2_block's MLP backward (the recomputed program's region of the GELU gradient and the fc bias gradient):
 * the column sum over the 8192 tokens, the pointwise gradient it sums and the bias gradient's conversion to
 * bf16 (of the kept shape [3072], after the last block's combine) are one kernel, vector loads of 8 bf16 and 8
 * adjacent sums per thread, a grid that is resident at once; without epilogues, three kernels. */
static void
test_column_fused (void)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (WbCudaPlan) apart = NULL;
  Found *f = NULL;
  g_autoptr (WbCudaPlan) plan = gpt2_block_plan (1, "sum over 2 of 3 dims of f32[25165824 elements]: 3072 outputs", &found, &f);

  if (plan == NULL)
    return;
  g_assert_nonnull (strstr (plan->kernels[0].what, "vector: 8 outputs per thread"));
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per element; 1 pointwise output of the kept shape after the combine"));
  g_assert_cmpuint (plan->kernels[0].grid, <=, 132 * 4);
  /* the kept-shape output: threads x < 64 of the tile's last block, at tb + x, after the combine */
  g_assert_nonnull (strstr (plan->source, "if (threadIdx.x < 64 && tb + x < 3072)"));
  compile_or_fail (f->name, plan);
  apart = plan_with (f, "WB_CUDA_NO_EPILOGUE");
  g_assert_cmpuint (apart->n_kernels, ==, 3);
  g_assert_null (strstr (apart->kernels[0].what, "pointwise output"));
  g_assert_true (g_str_has_prefix (apart->kernels[1].what, "pointwise over [8192, 3072]"));
  g_assert_true (g_str_has_prefix (apart->kernels[2].what, "pointwise over [3072]"));
}

/* gpt2_block's qkv gradient: a cat of three [8, 12, 1024, 64] gradients, transposed and reshaped, summed over
 * the 8192 tokens (the qkv bias gradient) and stored as [8192, 2304]. The stored value's index, a (row,
 * column) pair, reaches the cat through dim groups (8192 = 8 x 1024; 2304 = 3 x 768 = 3 x 12 x 64): the same
 * expressions as the sum's operand, so each row's cat branch is emitted once and read by both. With
 * WB_CUDA_RESHAPE_LINEAR=1 (the linear index unravelled) the store builds the cat a second time from E. The
 * walk takes 2 rows an iteration, their loads before their stores (WB_CUDA_COLUMN_ROWS). */
static void
test_column_cat_once (void)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (WbCudaPlan) linear = NULL;
  Found *f = NULL;
  g_autoptr (WbCudaPlan) plan = gpt2_block_plan (1, "sum over 2 of 3 dims of f32[18874368 elements]: 2304 outputs", &found, &f);
  guint grouped_cats, linear_cats;

  if (plan == NULL)
    return;
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per element"));
  g_assert_nonnull (strstr (plan->source, "for (; r + 32 < r1; r += 64)"));
  g_assert_nonnull (strstr (plan->source, "const int E_1 = r_1 * 2304 + o;"));
  g_assert_null (strstr (plan->source, "E / 2359296"));
  compile_or_fail (f->name, plan);
  linear = plan_with (f, "WB_CUDA_RESHAPE_LINEAR");
  grouped_cats = count_of (plan->source, " < 768)");
  linear_cats = count_of (linear->source, " < 768)");
  g_test_message ("cat branches: %u grouped, %u linear", grouped_cats, linear_cats);
  g_assert_cmpuint (grouped_cats, >, 0);
  g_assert_cmpuint (linear_cats, ==, 2 * grouped_cats);
  g_assert_nonnull (strstr (linear->source, "E / 2359296"));
}

/* The first rounded op of a vector loop: a rounding in f32 or an op on bf16x2 words */
static const char *
first_arithmetic (const char *loop)
{
  const char *f = strstr (loop, "wb_round_bf16 ("), *w = strstr (loop, "wb_bf16x2_mul (");

  g_assert_true (f != NULL || w != NULL);
  return f == NULL ? w : w == NULL ? f
                                   : MIN (f, w);
}

/* Cat pieces the same up to their inputs are one branch in the vector loop, their inputs read through a pointer
 * chosen per thread (wb-cuda-codegen-select.c): llama_layer's rotary backward (q and k the same expression of
 * two gradients, v a copy); a piece that reads an input also read by a value both pieces share is not taken
 * over. */
static void
test_cat_select (void)
{
  g_autoptr (GPtrArray) llama = regions_of ("llama_layer");
  guint rotary = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    /* t2 = -a is read by both pieces: a may not be read through a select */
    g_autoptr (WbCudaPlan) p = plan_of_body ("a bf16[4, 1, 16]\nb bf16[4, 1, 16]",
                                             "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                                             "t2 = prims.neg(t0)\nt3 = prims.add(t0, t2)\nt4 = prims.add(t1, t2)\nt5 = prims.cat([t3, t4], 1)",
                                             "t5");
    g_autoptr (WbCudaPlan) alike = plan_of_body ("a bf16[4, 1, 16]\nb bf16[4, 1, 16]",
                                                 "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                                                 "t2 = prims.neg(t0)\nt3 = prims.add(t0, t2)\nt4 = prims.neg(t1)\nt6 = prims.add(t1, t4)\nt5 = prims.cat([t3, t6], 1)",
                                                 "t5");
    g_autofree char *loop = vector_loop (p->source);
    g_autofree char *alike_loop = vector_loop (alike->source);
    g_assert_null (strstr (loop, "__restrict__ s"));
    g_assert_cmpuint (count_of (loop, "if ("), ==, 1);
    g_assert_nonnull (strstr (alike_loop, " == 0 ? p0 : p1;"));
    g_assert_cmpuint (count_of (alike_loop, "if ("), ==, 0);
    compile_or_fail ("shared", p);
    compile_or_fail ("alike", alike);
  }
  for (guint i = 0; i < llama->len; i++)
    {
      Found *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) plan = plan_of (f);
      g_autoptr (WbCudaPlan) old = NULL;
      g_autofree char *loop = NULL, *old_loop = NULL;
      if (plan->n_kernels != 1 || !g_str_has_prefix (plan->kernels[0].what, "pointwise over [2048, 12288]"))
        continue;
      loop = vector_loop (plan->source);
      if (count_of (loop, "__restrict__ s") == 0)
        continue;
      g_test_message ("%s: %s", f->name, plan->kernels[0].what);
      rotary++;
      /* q and k one branch with its two pads, v the other: the pads of k no longer emitted */
      g_assert_cmpuint (count_of (loop, "__restrict__ s"), ==, 1);
      g_assert_cmpuint (count_of (loop, "if ("), ==, 1 + 2);
      /* the pads meet at column 64 of each piece of 128: warps of 4 rows x 8 vectors of 8, each inside one pad */
      g_assert_nonnull (strstr (plan->kernels[0].what, ", warps of 4 rows x 8 vectors"));
      g_assert_nonnull (strstr (loop, "for (int Q = (int) blockIdx.x * 256 + (int) threadIdx.x; Q < 3145728; Q += (int) gridDim.x * 256)"));
      g_assert_nonnull (strstr (loop, "const int B = ((Q / 6144) * 6144 + ((Q % 32) / 8) * 1536 + ((Q / 32) % 192) * 8 + (Q % 8)) * 8;"));
      {
        g_autoptr (WbCudaPlan) flat = plan_with (f, "WB_CUDA_NO_WARP_ROWS");
        g_assert_null (strstr (flat->source, "for (int Q = "));
        g_assert_nonnull (strstr (flat->source, "for (int B = ((int) blockIdx.x * 256 + (int) threadIdx.x) * 8; B < 25165824; B += (int) gridDim.x * 2048)"));
      }
      /* the pads' vector loads, their indices clamped into the source, issued at the top of the q/k branch with the
       * branch's own loads, before the arithmetic that waits for those (4 of its 6 loads, in 2 uniform pad branches) */
      {
        g_autoptr (WbCudaPlan) late = plan_with (f, "WB_CUDA_NO_HOIST");
        g_autofree char *late_loop = vector_loop (late->source);
        g_autofree char *head = g_strndup (loop, first_arithmetic (loop) - loop);
        g_autofree char *late_head = g_strndup (late_loop, first_arithmetic (late_loop) - late_loop);
        g_assert_cmpuint (count_of (head, "= *(const wb_v8h *) ("), ==, 6);
        g_assert_cmpuint (count_of (head, " = min (max ("), ==, 2);
        g_assert_cmpuint (count_of (late_head, "= *(const wb_v8h *) ("), ==, 2);
        g_assert_null (strstr (late_loop, " = min (max ("));
        g_assert_cmpuint (count_of (loop, "= *(const wb_v8h *) ("), ==, count_of (late_loop, "= *(const wb_v8h *) ("));
      }
      old = plan_with (f, "WB_CUDA_NO_CAT_SELECT");
      old_loop = vector_loop (old->source);
      g_assert_null (strstr (old_loop, "__restrict__ s"));
      g_assert_cmpuint (count_of (old_loop, "if ("), ==, 2 + 4);
      compile_or_fail (f->name, plan);
    }
  if (llama->len == 0)
    g_test_message ("llama_layer not found (WB_TRACES_DIR): its rotary backward not checked");
  else
    g_assert_cmpuint (rotary, ==, 1);
}

/* The kernel of @plan's source (after the prelude, which defines the rounding helpers). */
static const char *
kernel_text (const WbCudaPlan *plan)
{
  const char *k = strstr (plan->source, "extern \"C\" __global__");

  g_assert_nonnull (k);
  return k;
}

/* A negation (or absolute value) in f32 of a value converted from bf16, converted back to bf16, is a bf16 value:
 * no rounding after it (wb-cuda-codegen-emit.c, exactly_in). Of an f16 or f32 value it must round. llama_layer's
 * rotary backward negates so between its conversions: no negation of its kernel is rounded. */
static void
test_exact_neg (void)
{
  g_autoptr (GPtrArray) llama = regions_of ("llama_layer");
  guint rotary = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) bf = plan_of_body ("a bf16[64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.neg(t0)\nt2 = prims.abs(t1)\nt3 = prims.convert_element_type(t2, dtypes.bfloat16)", "t3");
    g_autoptr (WbCudaPlan) half = plan_of_body ("a f16[64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.neg(t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2");
    g_autoptr (WbCudaPlan) f32 = plan_of_body ("a f32[64]", "t1 = prims.neg(a)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2");
    g_autoptr (WbCudaPlan) mul = plan_of_body ("a bf16[64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2");
    g_assert_null (strstr (kernel_text (bf), "wb_round_bf16"));
    g_assert_nonnull (strstr (kernel_text (half), "wb_round_bf16"));
    g_assert_nonnull (strstr (kernel_text (f32), "wb_round_bf16"));
    g_assert_nonnull (strstr (kernel_text (mul), "wb_round_bf16"));
    compile_or_fail ("bf16 neg abs", bf);
    compile_or_fail ("f16 neg", half);
  }
  for (guint i = 0; i < llama->len; i++)
    {
      Found *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) plan = plan_with (f, "WB_CUDA_NO_BF16X2"); /* its vector loop in f32 (else bf16x2 words) */
      const char *k = kernel_text (plan);
      guint       negs = 0;
      if (plan->n_kernels != 1 || !g_str_has_prefix (plan->kernels[0].what, "pointwise over [2048, 12288]") || count_of (k, "__restrict__ s") == 0)
        continue;
      rotary++;
      for (const char *p = strstr (k, " = (-v"); p != NULL; p = strstr (p + 1, " = (-v"))
        {
          const char      *name = p;
          g_autofree char *use = NULL;
          while (name > k && name[-1] != ' ')
            name--;
          use = g_strdup_printf ("wb_round_bf16 (%.*s)", (int) (p - name), name);
          g_assert_null (strstr (k, use));
          negs++;
        }
      g_test_message ("%s: %u negations, none rounded", f->name, negs);
      g_assert_cmpuint (negs, >=, 8); /* one a lane of the vector loop's pad at column 64 */
    }
  if (llama->len > 0)
    g_assert_cmpuint (rotary, ==, 1);
}

/* bf16 ops two lanes to a word in the vector loop (wb-cuda-codegen-pair.c): add, sub and mul of bf16 values
 * rounded to bf16 (by a number exactly a bf16 too), negations as a sign flip, through pads and cat; the scalar
 * loop stays in f32. Not for f16, a number that is no bf16, a division, or an f32 result. llama_layer's rotary
 * backward: every op of its vector loop in words, its scalar loop as in f32. (Their results bit for bit:
 * test-cuda-vector on the GPU, every bf16 bit pattern.) */
static void
test_bf16x2 (void)
{
  const char *in = "a bf16[4, 64]\nb bf16[4, 64]";
  const char *body = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\nt2 = prims.mul(t0, t1)\n"
                     "t3 = prims.convert_element_type(t2, dtypes.bfloat16)\nt4 = prims.convert_element_type(t3, dtypes.float32)\nt5 = prims.sub(t4, t0)\n"
                     "t6 = prims.convert_element_type(t5, dtypes.bfloat16)\nt7 = prims.convert_element_type(t6, dtypes.float32)\nt8 = prims.mul(t7, 0.5)\n"
                     "t9 = prims.convert_element_type(t8, dtypes.bfloat16)\nt10 = prims.convert_element_type(t9, dtypes.float32)\nt11 = prims.neg(t10)\n"
                     "t12 = prims.convert_element_type(t11, dtypes.bfloat16)";
  const char *no[][3] = {
    { "a bf16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, 0.1)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2" },
    { "a f16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.convert_element_type(t1, dtypes.float16)", "t2" },
    { "a bf16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.div(t0, t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2" },
    { "a bf16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)", "t1" },
  };
  g_autoptr (GPtrArray) llama = regions_of ("llama_layer");
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (WbCudaPlan) f32 = NULL;
  g_autofree char *loop = NULL;
  guint            rotary = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = plan_of_body (in, body, "t12");
  g_setenv ("WB_CUDA_NO_BF16X2", "1", TRUE);
  f32 = plan_of_body (in, body, "t12");
  g_unsetenv ("WB_CUDA_NO_BF16X2");
  loop = vector_loop (plan->source);
  g_assert_cmpuint (count_of (loop, "wb_bf16x2_mul ("), ==, 2 * 4);
  g_assert_cmpuint (count_of (loop, "wb_bf16x2_sub ("), ==, 4);
  g_assert_cmpuint (count_of (loop, ", 0x3f003f00u)"), ==, 4); /* 0.5 */
  g_assert_cmpuint (count_of (loop, " ^ 0x80008000u;"), ==, 4);
  g_assert_cmpuint (count_of (loop, "wb_bf16x2_store ("), ==, 4);
  g_assert_null (strstr (loop, "wb_round_bf16 ("));
  g_assert_nonnull (strstr (strstr (plan->source, "for (int L = "), "wb_round_bf16 ("));
  g_assert_null (strstr (kernel_text (f32), "wb_bf16x2_"));
  g_assert_cmpstr (strstr (plan->source, "for (int L = "), ==, strstr (f32->source, "for (int L = "));
  compile_or_fail ("bf16x2", plan);
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    {
      g_autoptr (WbCudaPlan) p = plan_of_body (no[i][0], no[i][1], no[i][2]);
      g_assert_nonnull (strstr (p->source, "for (int B = "));
      g_assert_null (strstr (kernel_text (p), "wb_bf16x2_"));
    }
  for (guint i = 0; i < llama->len; i++)
    {
      Found *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) words = plan_of (f);
      g_autoptr (WbCudaPlan) floats = NULL;
      g_autofree char *wloop = NULL;
      if (words->n_kernels != 1 || !g_str_has_prefix (words->kernels[0].what, "pointwise over [2048, 12288]") ||
          count_of (kernel_text (words), "__restrict__ s") == 0)
        continue;
      rotary++;
      floats = plan_with (f, "WB_CUDA_NO_BF16X2");
      wloop = vector_loop (words->source);
      g_test_message ("%s: %u muls, %u adds in words", f->name, count_of (wloop, "wb_bf16x2_mul ("), count_of (wloop, "wb_bf16x2_add ("));
      /* per pair of lanes: the gradient times cos, the two pads' products, two sums; one pad negates */
      g_assert_cmpuint (count_of (wloop, "wb_bf16x2_mul ("), ==, 3 * 4);
      g_assert_cmpuint (count_of (wloop, "wb_bf16x2_add ("), ==, 2 * 4);
      g_assert_cmpuint (count_of (wloop, " ^ 0x80008000u;"), ==, 4);
      g_assert_cmpuint (count_of (wloop, "wb_bf16x2_store ("), ==, 4);
      g_assert_null (strstr (wloop, "wb_round_bf16 ("));
      g_assert_cmpstr (strstr (words->source, "for (int L = "), ==, strstr (floats->source, "for (int L = "));
      compile_or_fail (f->name, words);
    }
  if (llama->len > 0)
    g_assert_cmpuint (rotary, ==, 1);
}

/* Grids follow the SM count plans are built for (wb_cuda_codegen_set_sm_count; the runtime sets its device's):
 * the mixed RMS-norm backward's persistent grid is 2 blocks an SM and its partials as many, a column reduction's
 * slices fill the SMs; the default is 132 (H100 SXM, H200). An H100 PCIe's 114 SMs get one wave of 228 blocks,
 * not 264 (a second, partial wave). */
static void
test_sm_count (void)
{
  const char *in = "a bf16[2048, 4096]\nb bf16[2048, 4096]\nc bf16[2048, 4096]\nd bf16[2048, 4096]";
  const char *body = WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7");
  const char *column = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (0,))";
  g_autoptr (WbCudaPlan) h200 = NULL;
  g_autoptr (WbCudaPlan) pcie = NULL;
  g_autoptr (WbCudaPlan) again = NULL;
  g_autoptr (WbCudaPlan) col_h200 = NULL;
  g_autoptr (WbCudaPlan) col_pcie = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  g_assert_cmpuint (wb_cuda_codegen_get_sm_count (), ==, 132);
  h200 = plan_of_body (in, body, "t8, t6, t5, t4");
  col_h200 = plan_of_body ("a bf16[1048576, 64]", column, "t1");
  wb_cuda_codegen_set_sm_count (114);
  pcie = plan_of_body (in, body, "t8, t6, t5, t4");
  col_pcie = plan_of_body ("a bf16[1048576, 64]", column, "t1");
  wb_cuda_codegen_set_sm_count (0);
  g_assert_cmpuint (wb_cuda_codegen_get_sm_count (), ==, 132);
  again = plan_of_body (in, body, "t8, t6, t5, t4");

  g_assert_cmpuint (h200->n_kernels, ==, 1);
  g_assert_cmpuint (pcie->n_kernels, ==, 1);
  g_assert_cmpuint (h200->kernels[0].grid, ==, 264);
  g_assert_cmpuint (pcie->kernels[0].grid, ==, 228);
  g_assert_nonnull (strstr (h200->kernels[0].what, "partials of 264 blocks"));
  g_assert_nonnull (strstr (pcie->kernels[0].what, "partials of 228 blocks"));
  g_assert_cmpstr (again->source, ==, h200->source);
  g_assert_cmpuint (again->kernels[0].grid, ==, 264);
  /* the column kernel: its slices fill the SMs, so fewer SMs take fewer blocks */
  g_test_message ("column: %s, %u blocks / %s, %u blocks", col_h200->kernels[0].what, col_h200->kernels[0].grid, col_pcie->kernels[0].what, col_pcie->kernels[0].grid);
  g_assert_cmpuint (col_h200->kernels[0].grid % 132, ==, 0);
  g_assert_cmpuint (col_pcie->kernels[0].grid, ==, 114 * (col_h200->kernels[0].grid / 132));
  compile_or_fail ("mixed, 114 SMs", pcie);
  compile_or_fail ("column, 114 SMs", col_pcie);
}

/* Values of a column kernel's kept shape that read its sums at their own index are computed by the last block
 * of each tile after its combine: one kernel where there were two. One that reads a sum at another index (a
 * flip of it) must wait for every tile, and stays a kernel of its own. */
static void
test_column_tail (void)
{
  const char      *body = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.sum(t1, (0, 1))\n"
                          "t3 = prims.sum(t0, (0, 1))\nt4 = prims.mul(t2, t3)\nt5 = prims.convert_element_type(t4, dtypes.bfloat16)\n"
                          "t6 = prims.broadcast_in_dim(t3, (1, 96), (1,))\nt7 = prims.add(t6, 1.0)";
  g_autofree char *flipped = g_strconcat (body, "\nt8 = prims.flip(t2, (0,))", NULL);

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) plan = plan_of_body ("a bf16[4, 512, 96]", body, "t5, t7");
    g_autoptr (WbCudaPlan) apart = NULL;
    g_assert_cmpuint (plan->n_kernels, ==, 1);
    g_assert_nonnull (strstr (plan->kernels[0].what, "sum and 1 sibling over 2 of 3 dims"));
    g_assert_nonnull (strstr (plan->kernels[0].what, "2 pointwise outputs of the kept shape after the combine"));
    compile_or_fail ("column tail", plan);
    g_setenv ("WB_CUDA_NO_EPILOGUE", "1", TRUE);
    apart = plan_of_body ("a bf16[4, 512, 96]", body, "t5, t7");
    g_unsetenv ("WB_CUDA_NO_EPILOGUE");
    g_assert_cmpuint (apart->n_kernels, ==, 3); /* the sums, then one pointwise kernel per shape ([96], [1, 96]) */
  }
  {
    g_autoptr (WbCudaPlan) plan = plan_of_body ("a bf16[4, 512, 96]", flipped, "t5, t7, t8");
    g_assert_cmpuint (plan->n_kernels, ==, 2);
    g_assert_nonnull (strstr (plan->kernels[0].what, "1 pointwise output of the kept shape after the combine"));
    g_assert_true (g_str_has_prefix (plan->kernels[1].what, "pointwise over [96]"));
    compile_or_fail ("column tail, flipped", plan);
  }
}

/* A layer-norm backward's shape: column sums (the weight and bias gradients, one converted to bf16 after the
 * combine) over the same [rows, 512] elements as a row sum whose pointwise output follows. Rows of 512 bf16 are
 * one warp each (2 steps of 32 x 8), so the row kernel also computes the column sums (wb-cuda-codegen-mix.c): one
 * kernel, each thread 2 x 8 columns of each sum, partials of its block, combined by the last blocks to arrive;
 * WB_CUDA_NO_MIX gives the column kernel and the row kernel. Rows of 4096 take 256 threads: not mixed while the
 * element output reads the row sums (test_column_mixed_deferred for one that does not). */
static void
test_column_mixed (void)
{
  const char      *body = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                          "t2 = prims.mul(t0, t1)\nt3 = prims.sum(t2, (0,))\nt4 = prims.sum(t1, (0,))\n"
                          "t5 = prims.convert_element_type(t3, dtypes.bfloat16)\nt6 = prims.sum(t2, (1,))\n"
                          "t7 = prims.broadcast_in_dim(t6, (1024, 512), (0,))\nt8 = prims.sub(t1, t7)\n"
                          "t9 = prims.convert_element_type(t8, dtypes.bfloat16)";
  g_autofree char *wide = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) plan = plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]", body, "t9, t6, t5, t4");
    g_autoptr (WbCudaPlan) apart = NULL;
    g_assert_cmpuint (plan->n_kernels, ==, 1);
    g_assert_nonnull (strstr (plan->kernels[0].what, "sum over 1 of 2 dims of f32[524288 elements]: 1024 outputs, 32 threads each"));
    g_assert_nonnull (strstr (plan->kernels[0].what, "and the column sum and 1 sibling over its 1024 rows: 512 outputs, 16 columns a thread, "
                                                     "partials of 128 blocks combined by the last 16; 1 pointwise output of the kept shape"));
    g_assert_cmpuint (plan->kernels[0].grid, ==, 128); /* 1024 rows, 8 a block */
    g_assert_cmpuint (plan->kernels[0].resident, ==, 16);
    g_assert_nonnull (strstr (plan->source, "for (int st = 0; st < 2; st++)"));
    g_assert_nonnull (strstr (plan->source, "wb_c1[st * 8 + 7] = wb_c1[st * 8 + 7] + "));
    /* its grid resident at once (2 blocks an SM); the row walk unrolled in the reduction too (its loads all in
     * flight), and the epilogue reads the row's sum from the register the group reduced it into */
    g_assert_nonnull (strstr (plan->source, "__launch_bounds__ (256, 2)"));
    g_assert_nonnull (strstr (strstr (plan->source, "for (int st = 0; st < 2; st++)") + 1, "for (int st = 0; st < 2; st++)"));
    g_assert_nonnull (strstr (plan->source, " = acc;\n"));
    g_assert_null (strstr (plan->source, "prefetch")); /* the epilogue reads only what the sums read */
    g_assert_nonnull (strstr (plan->source, "if (wb_ticket >= 112u)"));
    /* 512 columns: 16 tiles of 32, one a combiner, loaded 4 bytes at a time; both sums' partials in one loop (their
     * loads in flight together), then one barrier before the groups of each are added */
    g_assert_null (strstr (plan->source, "float4"));
    {
      const char *tile = strstr (plan->source, "for (int tile = (int) wb_ticket - 112; tile < 16; tile += 16)");
      const char *loop, *end;
      g_assert_nonnull (tile);
      loop = strstr (tile, "for (int i = q; i < 128; i += 8)");
      g_assert_nonnull (loop);
      end = strstr (loop, "__syncthreads ();");
      g_assert_nonnull (end);
      {
        g_autofree char *body_of_loop = g_strndup (loop, (gsize) (end - loop));
        g_assert_cmpuint (count_of (body_of_loop, "__ldcg ("), ==, 2);
        g_assert_nonnull (strstr (body_of_loop, "y0[0] = y0[0] + __ldcg (&p"));
        g_assert_nonnull (strstr (body_of_loop, "y1[0] = y1[0] + __ldcg (&p"));
      }
      {
        const char      *done = strstr (end, "atomicAdd ((unsigned int *) &p");
        g_autofree char *rest = NULL;
        g_assert_nonnull (done);
        rest = g_strndup (end, (gsize) (done - end));
        g_assert_nonnull (strstr (rest, "z = wb_msm[(256 + x) * 1 + l];"));
        g_assert_null (strstr (rest, "__ldcg (")); /* no partial loaded after the barrier */
        g_assert_cmpuint (count_of (rest, "__syncthreads ();"), ==, 2);
      }
    }
    compile_or_fail ("mixed", plan);
    g_setenv ("WB_CUDA_NO_MIX", "1", TRUE);
    apart = plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]", body, "t9, t6, t5, t4");
    g_unsetenv ("WB_CUDA_NO_MIX");
    g_assert_cmpuint (apart->n_kernels, ==, 2);
    g_assert_nonnull (strstr (apart->kernels[0].what, "combined by the last block of each tile"));
    g_assert_null (strstr (apart->kernels[1].what, "column"));
  }
  {
    /* an input only the epilogue reads (c) is prefetched to L1 by the row walk, at the row's elements; the
     * inputs the sums read are not (they are loaded there) */
    g_autoptr (GString) b = g_string_new (body);
    g_autoptr (WbCudaPlan) plan = NULL;
    g_autoptr (WbCudaPlan) plain = NULL;
    g_string_replace (b, "t8 = prims.sub(t1, t7)", "t10 = prims.convert_element_type(c, dtypes.float32)\nt8 = prims.sub(t10, t7)", 0);
    plan = plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]\nc bf16[1024, 512]", b->str, "t9, t6, t5, t4");
    g_assert_cmpuint (plan->n_kernels, ==, 1);
    g_assert_cmpuint (count_of (plan->source, "prefetch.global.L1"), ==, 2); /* vector and scalar variants */
    g_assert_nonnull (strstr (plan->source, "prefetch.global.L1 [%0];\" ::\"l\"(p2 + (o * 512 + r0))"));
    compile_or_fail ("mixed, prefetching", plan);
    g_setenv ("WB_CUDA_NO_PREFETCH", "1", TRUE);
    plain = plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]\nc bf16[1024, 512]", b->str, "t9, t6, t5, t4");
    g_unsetenv ("WB_CUDA_NO_PREFETCH");
    g_assert_null (strstr (plain->source, "prefetch"));
  }
  {
    g_autoptr (GString) b = g_string_new (body);
    g_string_replace (b, "(1024, 512)", "(1024, 4096)", 0);
    wide = g_string_free (g_steal_pointer (&b), FALSE);
  }
  {
    g_autoptr (WbCudaPlan) plan = plan_of_body ("a bf16[1024, 4096]\nb bf16[1024, 4096]", wide, "t9, t6, t5, t4");
    g_assert_cmpuint (plan->n_kernels, ==, 2);
    g_assert_nonnull (strstr (plan->kernels[0].what, "combined by the last block of each tile"));
    g_assert_nonnull (strstr (plan->kernels[1].what, "256 threads each"));
  }
}

/* An RMS-norm backward's shape (llama_layer's nvrtcFusion10): rows of 4096 take 256 threads, and the element
 * outputs read none of the row sums, so the block walks its rows with no barrier: the row sums are taken in the
 * element walk beside the column sums, each warp's part parked in shared memory and added after the walk, with the
 * kept-shape output of each row (wb-cuda-codegen-mix.c, WbCgMix.defer). WB_CUDA_NO_MIX_DEFER=1: two kernels. The
 * column sums read 8 bytes an element of 8M: 67 MB, mixed (defer_ok: more than 40 MB); 4 bytes an element of the
 * same shape (34 MB), or 8 of half the rows, two kernels; 4 of four times the rows (134 MB), mixed. */
static void
test_column_mixed_deferred (void)
{
  const char *in = "a bf16[2048, 4096]\nb bf16[2048, 4096]\nc bf16[2048, 4096]\nd bf16[2048, 4096]";
  const char *body = WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7");
  /* the column sums of a * b alone: 4 bytes an element */
  const char *body2 = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                      "t2 = prims.mul(t0, t1)\nt3 = prims.sum(t2, (0,))\nt4 = prims.convert_element_type(t3, dtypes.bfloat16)\n"
                      "t5 = prims.sum(t2, (1,))\nt6 = prims.mul(t5, -0.5)\nt7 = prims.add(t0, t1)\nt8 = prims.convert_element_type(t7, dtypes.bfloat16)";
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (WbCudaPlan) apart = NULL;
  const char *walk, *after;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = plan_of_body (in, body, "t8, t6, t5, t4");
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_nonnull (strstr (plan->kernels[0].what, "2048 outputs, 256 threads each"));
  g_assert_nonnull (strstr (plan->kernels[0].what, "and the column sum over its 2048 rows: 4096 outputs, 16 columns a thread, partials of 264 blocks "
                                                   "combined by the last 64; the row sums taken in the element walk and added after it"));
  g_assert_cmpuint (plan->kernels[0].grid, ==, 264);
  /* its last 64 blocks wait for all 264: the launcher checks that the device holds 64 at once */
  g_assert_cmpuint (plan->kernels[0].resident, ==, 64);
  {
    /* where it does not, the plan built without waiting kernels: a column kernel and a row kernel */
    g_autoptr (WbCudaPlan) no_wait = plan_of_body_flags (in, body, "t8, t6, t5, t4", WB_CUDA_CODEGEN_NO_WAIT);
    g_assert_cmpuint (no_wait->n_kernels, ==, 2);
    g_assert_null (strstr (no_wait->source, "wb_ticket"));
    for (guint k = 0; k < no_wait->n_kernels; k++)
      g_assert_cmpuint (no_wait->kernels[k].resident, ==, 0);
    compile_or_fail ("mixed, deferred row sums, built without waiting", no_wait);
  }
  /* 2048 rows over 264 blocks: 8 turns a block, 8 warps a row */
  g_assert_nonnull (strstr (plan->source, "__shared__ float wb_mrow[64];"));
  /* in the walk: no barrier; the sums' parts parked; after it, one barrier and the rows finished */
  walk = strstr (plan->source, "for (int ob = ");
  after = strstr (plan->source, "for (int wb_i = (int) threadIdx.x; wb_i < 8; wb_i += 256)");
  g_assert_nonnull (walk);
  g_assert_nonnull (after);
  g_assert_true (walk < after);
  {
    g_autofree char *w = g_strndup (walk, (gsize) (after - walk));
    g_assert_cmpuint (count_of (w, "__syncthreads"), ==, 1); /* the one before the rows are finished */
    g_assert_nonnull (strstr (w, "wb_mrow[(0 * 8 + wb_it) * 8 + threadIdx.x / 32] = acc;"));
    g_assert_nonnull (strstr (w, "acc = acc + "));
    g_assert_nonnull (strstr (w, "wb_c0[st * 8 + 7] = wb_c0[st * 8 + 7] + "));
  }
  g_assert_nonnull (strstr (after, "acc = acc + wb_mrow[(0 * 8 + wb_i) * 8 + w];"));
  g_assert_nonnull (strstr (after, " * ((float) -0.5));")); /* the kept-shape output of each row */
  /* 4096 columns: 128 tiles of 32 for at most 64 combiners, so 64 tiles of 2 x 32, loaded 8 bytes at a time */
  g_assert_nonnull (strstr (after, "const float2 t0 = __ldcg ((const float2 *) &p"));
  g_assert_nonnull (strstr (after, "for (int tile = (int) wb_ticket - 200; tile < 64; tile += 64)"));
  g_assert_null (strstr (after, "float4"));
  compile_or_fail ("mixed, deferred row sums", plan);
  {
    /* 8192 columns (1024 rows: the column sums read 67 MB, one pass): 256 tiles of 32, so 64 of 4 x 32, 16 bytes a
     * load */
    g_autoptr (WbCudaPlan) wide = plan_of_body ("a bf16[1024, 8192]\nb bf16[1024, 8192]\nc bf16[1024, 8192]\nd bf16[1024, 8192]", body,
                                                "t8, t6, t5, t4");
    g_assert_cmpuint (wide->n_kernels, ==, 1);
    g_assert_nonnull (strstr (wide->kernels[0].what, "8192 outputs, 32 columns a thread, partials of 264 blocks combined by the last 64"));
    g_assert_nonnull (strstr (wide->source, "const float4 t0 = __ldcg ((const float4 *) &p"));
    g_assert_nonnull (strstr (wide->source, "for (int tile = (int) wb_ticket - 200; tile < 64; tile += 64)"));
    compile_or_fail ("mixed, deferred row sums, 8192 columns", wide);
  }
  {
    /* the column sums read 4 bytes an element (34 MB), the row kernel moves 6 (llama_layer's nvrtcFusion14), or 10
     * with an f32 output of every element as well (the same region without backward rematerialization): the mixed
     * walk would lose, two kernels */
    g_autofree char *more = g_strconcat (body2, "\nt9 = prims.sub(t0, t1)", NULL);
    g_autoptr (WbCudaPlan) two = plan_of_body (in, body2, "t8, t6, t5, t4");
    g_autoptr (WbCudaPlan) two_more = plan_of_body (in, more, "t8, t9, t6, t5, t4");
    g_assert_cmpuint (two->n_kernels, ==, 2);
    g_assert_null (strstr (two->source, "wb_mrow"));
    for (guint k = 0; k < two->n_kernels; k++) /* the column kernel's last block of a tile waits for none */
      g_assert_cmpuint (two->kernels[k].resident, ==, 0);
    g_assert_cmpuint (two_more->n_kernels, ==, 2);
    g_assert_null (strstr (two_more->source, "wb_mrow"));
  }
  {
    /* the rule goes by the column kernel's bytes, not bytes an element: 8 bytes of [1024, 4096] (34 MB), two
     * kernels; 4 bytes of [8192, 4096] (134 MB), one pass (0.87x of two kernels on an H200; the rule before chose
     * two) */
    const char *half = "a bf16[1024, 4096]\nb bf16[1024, 4096]\nc bf16[1024, 4096]\nd bf16[1024, 4096]";
    g_autoptr (WbCudaPlan) small = plan_of_body (half, body, "t8, t6, t5, t4");
    g_autoptr (WbCudaPlan) big = plan_of_body ("a bf16[8192, 4096]\nb bf16[8192, 4096]", body2, "t8, t6, t5, t4");
    g_assert_cmpuint (small->n_kernels, ==, 2);
    g_assert_null (strstr (small->source, "wb_mrow"));
    g_assert_cmpuint (big->n_kernels, ==, 1);
    g_assert_nonnull (strstr (big->kernels[0].what, "the row sums taken in the element walk and added after it"));
    compile_or_fail ("mixed, 4 bytes of 32M elements", big);
  }
  g_setenv ("WB_CUDA_NO_MIX_DEFER", "1", TRUE);
  apart = plan_of_body (in, body, "t8, t6, t5, t4");
  g_unsetenv ("WB_CUDA_NO_MIX_DEFER");
  g_assert_cmpuint (apart->n_kernels, ==, 2);
  g_assert_null (strstr (apart->source, "wb_mrow"));
}

/* An element output of the operand's shape up to dims of extent 1 ([2048, 4096] beside an operand of [1, 2048, 4096])
 * is the row set's like one of its exact shape, so the one-pass kernel above still applies; until then it went to
 * the column kernel and the region was two kernels. llama_layer's RMS-norm backward nvrtcFusion10 in the recomputed
 * program (since the backward rematerialization rule its one element output is a bf16 [2048, 4096] of an f32
 * [1, 2048, 4096] operand) is that one kernel; nvrtcFusion14, the same shape with 4 bytes an element to its column
 * sums, stays two (defer_ok). */
static void
test_column_mixed_unit_dims (void)
{
  const char *in = "a bf16[1, 2048, 4096]\nb bf16[1, 2048, 4096]\nc bf16[1, 2048, 4096]\nd bf16[1, 2048, 4096]";
  const char *body = WB_TEST_MIXED_BODY ("(0, 1)", "(2,)", "t9 = prims.reshape(t7, (2048, 4096))\n", "t9");
  g_autoptr (GPtrArray) llama = regions_of ("llama_layer");
  g_autoptr (WbCudaPlan) plan = NULL;
  guint one_pass = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = plan_of_body (in, body, "t8, t6, t5, t4");
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per row and 1 per element; and the column sum over its 2048 rows"));
  /* the [2048, 4096] output stored at the operand's linear index, 8 bf16 at a time */
  g_assert_nonnull (strstr (plan->source, "*(wb_v8h *) (p"));
  compile_or_fail ("mixed, unit dims", plan);
  for (guint i = 0; i < llama->len; i++)
    {
      Found *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) p = plan_of (f);
      if (p->n_kernels != 1 || strstr (p->kernels[0].what, "and the column sum over its 2048 rows") == NULL)
        continue;
      g_test_message ("%s: %s", f->name, p->kernels[0].what);
      g_assert_cmpstr (f->name, ==, "llama_layer/nvrtcFusion10");
      g_assert_nonnull (strstr (p->kernels[0].what, " and 1 per element;"));
      g_assert_cmpuint (p->n_outputs, ==, 3);
      compile_or_fail (f->name, p);
      one_pass++;
    }
  if (llama->len == 0)
    g_test_message ("llama_layer not found (WB_TRACES_DIR): its RMS-norm backward not checked");
  else
    g_assert_cmpuint (one_pass, ==, 1);
}

/* Square rows ([4096, 4096]): the column sums and the row sums are both [4096], so a kept-shape output of the column
 * sums (t4) looked like one of the row kernel's to its epilogue, which took it; the column set then read nothing the
 * row set's kernel could give it at that point and the region was two kernels. Values reading a column reduction's
 * results are now left to the column kernel's epilogue (split_for_column), and the square region is one pass, as
 * [2048, 4096] is (0.72x of two kernels on an H200, bench-mix-defer.py). */
static void
test_column_mixed_square (void)
{
  const char *in = "a bf16[4096, 4096]\nb bf16[4096, 4096]\nc bf16[4096, 4096]\nd bf16[4096, 4096]";
  g_autoptr (WbCudaPlan) plan = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = plan_of_body (in, WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7"), "t8, t6, t5, t4");
  g_test_message ("%u kernels: %s", plan->n_kernels, plan->kernels[0].what);
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per row and 1 per element; and the column sum over its 4096 rows"));
  g_assert_nonnull (strstr (plan->kernels[0].what, "1 pointwise output of the kept shape after the combine"));
  compile_or_fail ("mixed, square", plan);
}

/* An output that a row reduction reads, of the operand's shape up to dims of extent 1 (a bf16 [600, 4096] gradient
 * whose reshape to [1, 600, 4096] is summed over its rows), is computed by the row kernel at each element, as one of
 * the operand's exact shape is (_wb_cg_read_by_reduction): one kernel that reads the inputs once, not a pointwise
 * kernel first whose output the row kernel loads again. */
static void
test_reduction_reads_unit_dims_output (void)
{
  const char *in = "a bf16[1, 600, 4096]\nb bf16[1, 600, 4096]";
  const char *body = WB_TEST_ROW_READS_OUTPUT_BODY ("600", "4096");
  const char *exact = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                      "t2 = prims.mul(t0, t1)\nt4 = prims.convert_element_type(t2, dtypes.bfloat16)\n"
                      "t6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.sum(t6, (2,))";

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) same = plan_of_body (in, exact, "t4, t7");
    g_autoptr (WbCudaPlan) unit = plan_of_body (in, body, "t4, t7");
    g_test_message ("exact: %u kernels: %s", same->n_kernels, same->kernels[0].what);
    g_test_message ("unit: %u kernels: %s", unit->n_kernels, unit->kernels[0].what);
    g_assert_cmpuint (same->n_kernels, ==, 1);
    g_assert_cmpuint (unit->n_kernels, ==, 1);
    g_assert_nonnull (strstr (unit->kernels[0].what, "1 per element"));
    compile_or_fail ("reduction reads a unit-dims output", unit);
  }
}

/* V = 16 bytes of the narrowest element, halved until it divides the innermost extent (none when odd);
 * what each operand form becomes in the vector loop. */
static void
test_vector_forms (void)
{
  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    /* odd innermost extent: scalar only; 12 = 3 x 4: 4 bf16 per thread (8-byte vectors) */
    g_autoptr (WbCudaPlan) odd = plan_of_body ("a bf16[7, 37]", "t0 = prims.neg(a)", "t0");
    g_autoptr (WbCudaPlan) four = plan_of_body ("a bf16[5, 12]", "t0 = prims.neg(a)", "t0");
    g_autoptr (WbCudaPlan) ones = plan_of_body ("a f32[16, 24, 1]", "t0 = prims.neg(a)", "t0");
    g_assert_null (strstr (odd->kernels[0].what, "vector"));
    g_assert_null (strstr (odd->source, "alignas"));
    g_assert_nonnull (strstr (four->kernels[0].what, "vector: 4 per thread"));
    g_assert_nonnull (strstr (four->source, "struct alignas (8) wb_v4h"));
    g_assert_nonnull (strstr (ones->kernels[0].what, "vector: 4 per thread")); /* the innermost dim of extent > 1 */
    compile_or_fail ("odd", odd);
    compile_or_fail ("four", four);
    compile_or_fail ("ones", ones);
  }
  {
    /* a cat of two branches of 16 bf16 (2 vectors): warps of 16 rows x 2 vectors, each row's lanes a 32-byte sector; of
     * pieces of 8 (1 vector) the flat walk, which keeps sectors whole */
    g_autoptr (WbCudaPlan) two = plan_of_body ("a bf16[64, 16]\nb bf16[64, 16]", "t0 = prims.neg(b)\nt1 = prims.cat([a, t0], 1)", "t1");
    g_autoptr (WbCudaPlan) one = plan_of_body ("a bf16[64, 8]\nb bf16[64, 8]", "t0 = prims.neg(b)\nt1 = prims.cat([a, t0], 1)", "t1");
    g_autoptr (WbCudaPlan) few = plan_of_body ("a bf16[8, 16]\nb bf16[8, 16]", "t0 = prims.neg(b)\nt1 = prims.cat([a, t0], 1)", "t1");
    /* pieces alike (one branch through a pointer select): rows of 4 vectors that no boundary splits, the flat walk */
    g_autoptr (WbCudaPlan) alike = plan_of_body ("a bf16[64, 16]\nb bf16[64, 16]", "t0 = prims.cat([a, b], 1)\nt1 = prims.neg(t0)", "t1");
    g_assert_nonnull (strstr (two->kernels[0].what, "vector: 8 per thread when aligned, warps of 16 rows x 2 vectors"));
    g_assert_nonnull (strstr (two->source, "const int B = ((Q / 64) * 64 + ((Q % 32) / 2) * 4 + ((Q / 32) % 2) * 2 + (Q % 2)) * 8;"));
    g_assert_null (strstr (one->kernels[0].what, "warps of"));
    g_assert_nonnull (strstr (one->kernels[0].what, "vector: 8 per thread"));
    g_assert_null (strstr (few->kernels[0].what, "warps of")); /* 8 rows: fewer than a warp's 16 */
    g_assert_null (strstr (alike->kernels[0].what, "warps of"));
    compile_or_fail ("warps of 16 rows", two);
  }
  {
    /* mixed widths: 8 lanes (16 bytes of bf16), the f32 output in two 16-byte stores; the row bias is one
     * vector load, the per-row scalar one load for all lanes */
    g_autoptr (WbCudaPlan) p = plan_of_body ("a bf16[32, 64]\nbias bf16[64]\nscale f32[32, 1]",
                                             "t0 = prims.broadcast_in_dim(bias, (32, 64), (1,))\n"
                                             "t1 = prims.broadcast_in_dim(scale, (32, 64), (0, 1))\n"
                                             "t2 = prims.convert_element_type(a, dtypes.float32)\n"
                                             "t3 = prims.convert_element_type(t0, dtypes.float32)\n"
                                             "t4 = prims.add(t2, t3)\nt5 = prims.mul(t4, t1)",
                                             "t5");
    g_autofree char *loop = vector_loop (p->source);
    g_assert_nonnull (strstr (p->kernels[0].what, "vector: 8 per thread"));
    g_assert_cmpuint (count_of (loop, "*(const wb_v8h *)"), ==, 2);
    g_assert_cmpuint (count_of (loop, "p2["), ==, 1);
    g_assert_cmpuint (count_of (loop, "*(wb_v4f *) (p3 + B"), ==, 2);
    g_assert_nonnull (strstr (loop, "*(wb_v4f *) (p3 + B + 4)"));
    compile_or_fail ("mixed", p);
  }
  {
    /* a transposed operand and a slice starting off the vector boundary are read lane by lane; an
     * aligned slice and a reshape are vectors */
    g_autoptr (WbCudaPlan) tr = plan_of_body ("a bf16[16, 24]", "t0 = prims.transpose(a, (1, 0))\nt1 = prims.neg(t0)", "t1");
    g_autoptr (WbCudaPlan) sl = plan_of_body ("a bf16[12, 48]", "t0 = prims.slice_prim(a, [2, 3], [10, 35], [1, 1])\nt1 = prims.neg(t0)", "t1");
    g_autoptr (WbCudaPlan) al = plan_of_body ("a bf16[12, 48]", "t0 = prims.slice_prim(a, [2, 8], [10, 40], [1, 1])\nt1 = prims.neg(t0)", "t1");
    g_autoptr (WbCudaPlan) rs = plan_of_body ("a bf16[4, 6, 16]", "t0 = prims.reshape(a, (24, 16))\nt1 = prims.abs(t0)", "t1");
    g_autofree char *ltr = vector_loop (tr->source);
    g_autofree char *lsl = vector_loop (sl->source);
    g_autofree char *lal = vector_loop (al->source);
    g_autofree char *lrs = vector_loop (rs->source);
    g_assert_cmpuint (count_of (ltr, "*(const wb_v8h *)"), ==, 0);
    g_assert_cmpuint (count_of (ltr, "wb_bf16_to_f (p0["), ==, 8);
    g_assert_cmpuint (count_of (lsl, "*(const wb_v8h *)"), ==, 0);
    g_assert_cmpuint (count_of (lsl, "wb_bf16_to_f (p0["), ==, 8);
    g_assert_cmpuint (count_of (lal, "*(const wb_v8h *)"), ==, 1);
    g_assert_cmpuint (count_of (lrs, "*(const wb_v8h *) (p0 + B)"), ==, 1);
    compile_or_fail ("transpose", tr);
    compile_or_fail ("slice", sl);
    compile_or_fail ("aligned slice", al);
    compile_or_fail ("reshape", rs);
  }
  {
    /* rotate_half (RoPE): cat of two halves whose bounds are multiples of 8: one branch for all lanes,
     * each half one vector load */
    g_autoptr (WbCudaPlan) p = plan_of_body ("x bf16[2, 4, 32]\nc bf16[4, 32]",
                                             "t0 = prims.slice_prim(x, [0, 0, 0], [2, 4, 16], [1, 1, 1])\n"
                                             "t1 = prims.slice_prim(x, [0, 0, 16], [2, 4, 32], [1, 1, 1])\n"
                                             "t2 = prims.neg(t1)\nt3 = prims.cat([t2, t0], -1)\n"
                                             "t4 = prims.broadcast_in_dim(c, (2, 4, 32), (1, 2))\n"
                                             "t5 = prims.convert_element_type(t3, dtypes.float32)\n"
                                             "t6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.mul(t5, t6)\n"
                                             "t8 = prims.convert_element_type(x, dtypes.float32)\nt9 = prims.add(t7, t8)",
                                             "t9");
    g_autofree char *loop = vector_loop (p->source);
    g_assert_cmpuint (count_of (loop, "if ("), ==, 1);
    g_assert_cmpuint (count_of (loop, "*(const wb_v8h *) (p0 + "), ==, 3);
    g_assert_cmpuint (count_of (loop, "*(const wb_v8h *) (p1 + "), ==, 1);
    g_assert_cmpuint (count_of (loop, "p0["), ==, 0);
    compile_or_fail ("rope", p);
  }
  {
    /* a row sum of bf16: 8 elements per thread and step, one warp for rows of 1000 (4 steps of 32 x 8: shuffles,
     * no barrier), one vector load per step; the misaligned fallback takes the same elements in the same
     * order. Rows of 4096 (16 warp steps) keep 256 threads. */
    g_autoptr (WbCudaPlan) p = plan_of_body ("a bf16[5, 1000]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (1,))", "t1");
    g_autoptr (WbCudaPlan) wide = plan_of_body ("a bf16[3, 4096]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (1,))", "t1");
    g_autofree char *loop = NULL;
    const char      *vec = strstr (p->source, "for (int r0 = (int) lane * 8; r0 < 1000; r0 += 256)");
    g_assert_nonnull (strstr (p->kernels[0].what, "32 threads each; vector: 8 per thread"));
    g_assert_null (strstr (p->source, "__syncthreads"));
    g_assert_nonnull (strstr (wide->kernels[0].what, "256 threads each; vector: 8 per thread"));
    g_assert_nonnull (vec);
    g_assert_nonnull (strstr (vec + 1, "for (int r0 = (int) lane * 8; r0 < 1000; r0 += 256)"));
    loop = g_strndup (vec, strstr (vec + 1, "for (int r0") - vec);
    g_assert_cmpuint (count_of (loop, "*(const wb_v8h *) (p0 + "), ==, 1);
    g_assert_cmpuint (count_of (loop, "acc = acc + v"), ==, 8); /* one per lane; then the group's shuffles */
    g_assert_cmpuint (count_of (loop, "acc = acc + __shfl_xor_sync (0xffffffffu, acc, m)"), ==, 1);
    compile_or_fail ("row sum", p);
  }
  {
    /* outputs that are views of another output (its reshape, its transpose) are views of its buffer */
    g_autoptr (WbCudaPlan) p = plan_of_body ("a bf16[4, 6, 16]", "t0 = prims.neg(a)\nt1 = prims.reshape(t0, (24, 16))\nt2 = prims.transpose(t1, (1, 0))",
                                             "t0, t1, t2");
    g_assert_cmpuint (p->n_kernels, ==, 1);
    g_assert_cmpuint (p->n_outputs, ==, 3);
    g_assert_cmpuint (p->outputs[1].slot, ==, p->outputs[0].slot);
    g_assert_cmpuint (p->outputs[2].slot, ==, p->outputs[0].slot);
    g_assert_cmpint (p->outputs[1].strides[0], ==, 16);
    g_assert_cmpint (p->outputs[2].strides[0], ==, 1);
    g_assert_cmpint (p->outputs[2].strides[1], ==, 16);
  }
  {
    /* an embedding lookup: the index once per thread, the row as vectors */
    g_autoptr (WbCudaPlan) p = plan_of_body ("w bf16[50, 32]\ni i64[24]", "t0 = prims.take(w, i, 0)", "t0");
    g_autofree char *loop = vector_loop (p->source);
    g_assert_cmpuint (count_of (loop, "p1["), ==, 1);
    g_assert_cmpuint (count_of (loop, "wb_index_bad ("), ==, 1);
    g_assert_cmpuint (count_of (loop, "*(const wb_v8h *) (p0 + "), ==, 1);
    compile_or_fail ("take", p);
  }
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

int
main (int argc, char **argv)
{
  int rc;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--print") == 0)
      print_code = TRUE;
  g_test_init (&argc, &argv, NULL);
  cache_dir = g_dir_make_tmp ("wb-codegen-XXXXXX", NULL);
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
  g_test_add_func ("/cuda/nvrtc/compile-error", test_compile_error);
  g_test_add_func ("/cuda/codegen/vector/chosen", test_vector_chosen);
  g_test_add_func ("/cuda/codegen/vector/forms", test_vector_forms);
  g_test_add_func ("/cuda/codegen/table", test_table_chosen);
  g_test_add_func ("/cuda/codegen/partial-table", test_partial_table);
  g_test_add_func ("/cuda/codegen/cse", test_cse);
  g_test_add_func ("/cuda/codegen/exact-neg", test_exact_neg);
  g_test_add_func ("/cuda/codegen/bf16x2", test_bf16x2);
  g_test_add_func ("/cuda/codegen/sm-count", test_sm_count);
  g_test_add_func ("/cuda/codegen/vector/cat-select", test_cat_select);
  g_test_add_func ("/cuda/codegen/column/fused", test_column_fused);
  g_test_add_func ("/cuda/codegen/column/tail", test_column_tail);
  g_test_add_func ("/cuda/codegen/column/cat-once", test_column_cat_once);
  g_test_add_func ("/cuda/codegen/column/mixed", test_column_mixed);
  g_test_add_func ("/cuda/codegen/column/mixed-deferred", test_column_mixed_deferred);
  g_test_add_func ("/cuda/codegen/column/mixed-unit-dims", test_column_mixed_unit_dims);
  g_test_add_func ("/cuda/codegen/column/mixed-square", test_column_mixed_square);
  g_test_add_func ("/cuda/codegen/row/reduction-reads-unit-dims", test_reduction_reads_unit_dims_output);
  rc = g_test_run ();
  wb_test_remove_tree (cache_dir);
  g_free (cache_dir);
  return rc;
}
