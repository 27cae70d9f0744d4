/* wb-test-codegen.c — the code generation tests' shared helpers (wb-test-codegen.h): regions of real traces,
 * plans of inline one-region traces, NVRTC compiles into the program's own cache
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-test-codegen.h"

#include <string.h>

char *wb_test_cg_cache_dir;

void
wb_test_cg_init (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  wb_test_cg_cache_dir = g_dir_make_tmp ("wb-codegen-XXXXXX", NULL);
}

int
wb_test_cg_run (void)
{
  int rc = g_test_run ();

  wb_test_remove_tree (wb_test_cg_cache_dir);
  g_clear_pointer (&wb_test_cg_cache_dir, g_free);
  return rc;
}

GPtrArray *
wb_test_cg_regions_of (const char *case_name)
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
      WbTestCgFound  *f;
      if (g_strcmp0 (r->executor, "nvrtc") != 0)
        continue;
      f = g_new0 (WbTestCgFound, 1);
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

guint
wb_test_cg_count (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

void
wb_test_cg_compile (const char *what, const WbCudaPlan *plan)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (plan->source, "sm_90", wb_test_cg_cache_dir, &error);

  if (img == NULL)
    g_error ("%s: %s\n%s", what, error->message, plan->source);
  g_assert_true (img->is_cubin);
}

WbCudaPlan *
wb_test_cg_plan_of_body_flags (const char *inputs, const char *body, const char *outputs, WbCudaCodegenFlags flags)
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

WbCudaPlan *
wb_test_cg_plan_of_body (const char *inputs, const char *body, const char *outputs)
{
  return wb_test_cg_plan_of_body_flags (inputs, body, outputs, WB_CUDA_CODEGEN_DEFAULT);
}

char *
wb_test_cg_vector_loop (const char *source)
{
  const char *a = strstr (source, "for (int B = ") ? strstr (source, "for (int B = ") : strstr (source, "for (int Q = ");
  const char *b = a ? strstr (a, "for (int L = ") : NULL;

  g_assert_nonnull (b);
  return g_strndup (a, b - a);
}

WbCudaPlan *
wb_test_cg_plan_of (const WbTestCgFound *f)
{
  g_autoptr (GError) error = NULL;
  WbCudaPlan *plan = wb_cuda_plan_new_annotated (f->trace, f->region, WB_CUDA_CODEGEN_DEFAULT, &error);

  g_assert_no_error (error);
  return plan;
}

WbCudaPlan *
wb_test_cg_gpt2_block_plan (guint n_kernels, const char *what, GPtrArray **found, WbTestCgFound **f)
{
  *found = wb_test_cg_regions_of ("gpt2_block");
  if ((*found)->len == 0 || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs gpt2_block (WB_TRACES_DIR) and NVRTC");
      return NULL;
    }
  for (guint i = 0; i < (*found)->len; i++)
    {
      g_autoptr (WbCudaPlan) plan = NULL;
      *f = (*found)->pdata[i];
      plan = wb_test_cg_plan_of (*f);
      if (plan->n_kernels == n_kernels && g_str_has_prefix (plan->kernels[0].what, what))
        {
          g_test_message ("%s: %s", (*f)->name, plan->kernels[0].what);
          return g_steal_pointer (&plan);
        }
    }
  g_test_message ("no region of gpt2_block has a plan of %u kernels whose first is \"%s...\"", n_kernels, what);
  g_assert_not_reached ();
}

WbCudaPlan *
wb_test_cg_plan_with (const WbTestCgFound *f, const char *var)
{
  WbCudaPlan *plan;

  g_setenv (var, "1", TRUE);
  plan = wb_test_cg_plan_of (f);
  g_unsetenv (var);
  return plan;
}

const char *
wb_test_cg_kernel_text (const WbCudaPlan *plan)
{
  const char *k = strstr (plan->source, "extern \"C\" __global__");

  g_assert_nonnull (k);
  return k;
}
