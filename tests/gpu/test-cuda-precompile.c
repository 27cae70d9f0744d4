/* test-cuda-precompile.c — the kernels compiled ahead of a run, over the zoo (no GPU)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb_cuda_executors_precompile_sources on the program the runner builds for every case of the zoo
 * (build/tests/zoo/zoo: the final forward and backward traces, the default GPU executors): every plan the
 * executors generate must come from the trace's annotations (none left to the run), and the distinct sources
 * must cover the calls run as generated code. A case of single ops (ResNet-50's trace has no fusion regions)
 * must get its per-op kernels, a case of regions its regions'. With --compile, each case's sources are also
 * compiled with NVRTC for sm_90 (the GPU machine's check of what CI only generates). */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"

typedef struct
{
  guint cases;
  guint sources;
  guint failed; /* plans left to the run in entries whose every call is known */
  guint opaque; /* ... in entries calling an unknown symbol */
} Counts;

static WbTrace *
parse (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  WbTrace         *t;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  t = wb_trace_parse (text, -1, path, &error);
  g_assert_no_error (error);
  return t;
}

/* the case's program as the runner builds it: the last forward_NN.py and backward_00.py */
static WbProgram *
case_program (const char *dir, WbTrace **fw, WbTrace **bw)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *bpath = g_build_filename (dir, "backward_00.py", NULL);
  g_autofree char *fpath = NULL;
  WbProgram       *program;

  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *name = g_strdup_printf ("forward_%02u.py", i);
      g_autofree char *p = g_build_filename (dir, name, NULL);
      if (!g_file_test (p, G_FILE_TEST_EXISTS))
        break;
      g_free (fpath);
      fpath = g_steal_pointer (&p);
    }
  if (fpath == NULL)
    return NULL;
  *fw = parse (fpath);
  *bw = g_file_test (bpath, G_FILE_TEST_EXISTS) ? parse (bpath) : NULL;
  program = wb_program_new (*fw, *bw, &error);
  g_assert_no_error (error);
  return program;
}

/* whether @body calls a symbol the workbench does not know and Thunder printed without a decomposition (the
 * run refuses such a call: what reads its outputs cannot be planned ahead either) */
static gboolean
calls_opaque (WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    if (body[i]->kind == WB_BSYM_CALL &&
        ((body[i]->symbol != NULL && wb_symbol_is_opaque (body[i]->symbol) && body[i]->n_subsymbols == 0) ||
         calls_opaque (body[i]->subsymbols, body[i]->n_subsymbols)))
      return TRUE;
  return FALSE;
}

static guint
check_case (const char *dir, const char *name, Counts *n)
{
  g_autoptr (WbTrace) fw = NULL;
  g_autoptr (WbTrace) bw = NULL;
  g_autoptr (WbProgram) program = case_program (dir, &fw, &bw);
  g_autoptr (GPtrArray) sources = NULL;
  g_autofree char *why = NULL;
  WbExecutor      *def;
  guint            failed = 0;

  if (program == NULL)
    return 0;
  wb_cuda_executors_set_program (wb_program_get_forward (program), wb_program_get_backward (program));
  def = wb_cuda_executor_peek (wb_executor_info_get_name (wb_executor_info_get_default (TRUE)));
  g_assert_nonnull (def);
  wb_program_assign (program, NULL, def);
  sources = wb_cuda_executors_precompile_sources (program, &failed, &why);
  g_test_message ("%s: %u sources, %u plans left to the run%s%s", name, sources->len, failed, why ? ", the first: " : "", why ? why : "");
  n->cases++;
  n->sources += sources->len;
  if (calls_opaque (fw->body, fw->n_body) || (bw != NULL && calls_opaque (bw->body, bw->n_body)))
    n->opaque += failed;
  else
    n->failed += failed;
  for (guint i = 0; i < sources->len; i++)
    g_assert_nonnull (strstr (sources->pdata[i], "__global__"));
  wb_cuda_executors_forget_program ();
  return sources->len;
}

/* every entry under @dir: a folder with forward traces, else its subfolders (ThunderFX modules, ranks) */
static guint
check_tree (const char *dir, const char *name, Counts *n)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) subs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *first = g_build_filename (dir, "forward_00.py", NULL);
  const char      *e;
  guint            sources = 0;

  if (g_file_test (first, G_FILE_TEST_EXISTS))
    return check_case (dir, name, n);
  while (d != NULL && (e = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (subs, g_strdup (e));
  g_ptr_array_sort (subs, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < subs->len; i++)
    {
      g_autofree char *sub = g_build_filename (dir, subs->pdata[i], NULL);
      g_autofree char *label = g_strdup_printf ("%s/%s", name, (char *) subs->pdata[i]);
      if (g_file_test (sub, G_FILE_TEST_IS_DIR) && strcmp (subs->pdata[i], "stages") != 0)
        sources += check_tree (sub, label, n);
    }
  return sources;
}

static void
test_zoo (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *zoo = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", NULL);
  g_autofree char *resnet = g_build_filename (zoo, "resnet50", NULL);
  g_autofree char *llama = g_build_filename (zoo, "llama", NULL);
  g_autoptr (GDir) d = NULL;
  Counts      n = { 0 };
  const char *e;

  if (!g_file_test (zoo, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  /* ResNet-50's single ops: hundreds of distinct kernels (the H200 compiled 334 of them during the run
   * before the calls were precompiled; 335 sources, 286 since its zero-width pads and flips of 1x1 kernels
   * are views of their argument, wb-identity.h) */
  g_assert_cmpuint (check_tree (resnet, "resnet50", &n), >, 250);
  /* a ThunderFX case: its modules' fusion regions */
  g_assert_cmpuint (check_tree (llama, "llama", &n), >, 5);
  d = g_dir_open (zoo, 0, NULL);
  while (d != NULL && (e = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *dir = g_build_filename (zoo, e, NULL);
      if (strcmp (e, "resnet50") != 0 && strcmp (e, "llama") != 0 && g_file_test (dir, G_FILE_TEST_IS_DIR))
        check_tree (dir, e, &n);
    }
  g_test_message ("zoo: %u entries, %u sources, %u plans left to the run (and %u beside unknown symbols)", n.cases, n.sources, n.failed,
                  n.opaque);
  g_assert_cmpuint (n.failed, ==, 0);
}

/* vit_tiny under thunder.jit: Thunder printed ltorch.multi_head_attention_forward without subsymbols; the
 * program runs the workbench's decomposition (wb-decomposition-mha.c). Every call of it goes to a GPU
 * path (no cpu fallback), its plans come from the annotations, and each compiles with NVRTC for sm_90. */
static void
test_decomposition (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *dir = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "vit_tiny", "thunder_jit_failed", NULL);
  const char      *cache = g_getenv ("WB_KERNEL_CACHE_DIR");
  g_autoptr (WbTrace) fw = NULL;
  g_autoptr (WbTrace) bw = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) sources = NULL;
  g_autoptr (GString) where = g_string_new (NULL);
  g_autofree char *why = NULL;
  guint            failed = 0, decomposed = 0;
  WbTrace         *run;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  program = case_program (dir, &fw, &bw);
  run = wb_program_get_forward (program);
  for (guint i = 0; i < run->n_body; i++)
    if (run->body[i]->symbol != NULL && strcmp (run->body[i]->name, "ltorch.multi_head_attention_forward") == 0)
      {
        g_assert_cmpuint (run->body[i]->n_subsymbols, >, 20);
        /* the lines stay the file's */
        g_assert_cmpuint (wb_trace_get_bsym_line (run, run->body[i]), ==, wb_trace_get_bsym_line (fw, fw->body[i]));
        decomposed++;
      }
  g_assert_cmpuint (decomposed, ==, 2);
  wb_cuda_executors_set_program (run, NULL);
  wb_cuda_executors_explain (run, "nvrtc", where);
  g_test_message ("%s", where->str);
  {
    /* the decomposed calls and each of their subsymbols on a GPU path (a build without cuDNN leaves the
     * patch embedding's convolution to the cpu: not this test's business) */
    g_auto (GStrv) lines = g_strsplit (where->str, "\n", -1);
    gboolean inside = FALSE;
    guint    seen = 0;
    for (guint i = 0; lines[i] != NULL; i++)
      {
        if (lines[i][0] != ' ')
          inside = g_str_has_prefix (lines[i], "ltorch.multi_head_attention_forward:");
        if (inside && strstr (lines[i], "cpu") != NULL)
          g_error ("not on the GPU: %s", lines[i]);
        seen += inside;
      }
    g_assert_cmpuint (seen, >, 40);
  }
  wb_program_assign (program, NULL, wb_cuda_executor_peek ("nvrtc"));
  sources = wb_cuda_executors_precompile_sources (program, &failed, &why);
  g_assert_cmpuint (failed, ==, 0);
  g_assert_cmpuint (sources->len, >, 0);
  for (guint i = 0; i < sources->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (sources->pdata[i], "sm_90", cache, &error);
      if (img == NULL)
        g_error ("%s\n%s", error->message, (const char *) sources->pdata[i]);
    }
  g_test_message ("%u sources compiled", sources->len);
  wb_cuda_executors_forget_program ();
}

/* the sources of @dir's program with autotuning off and on, and every source added compiled for sm_90 */
static void
check_variants (const char *dir, guint *off_n, guint *on_n, GString *added)
{
  g_autoptr (WbTrace) fw = NULL;
  g_autoptr (WbTrace) bw = NULL;
  g_autoptr (WbProgram) program = case_program (dir, &fw, &bw);
  g_autoptr (GPtrArray) off = NULL;
  g_autoptr (GPtrArray) on = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *cache = g_getenv ("WB_KERNEL_CACHE_DIR");
  guint       failed = 0;

  g_assert_nonnull (program);
  wb_cuda_executors_set_program (wb_program_get_forward (program), wb_program_get_backward (program));
  wb_program_assign (program, NULL, wb_cuda_executor_peek ("nvrtc"));
  off = wb_cuda_executors_precompile_sources (program, &failed, NULL);
  wb_cuda_executors_set_autotune (TRUE);
  on = wb_cuda_executors_precompile_sources (program, &failed, NULL);
  wb_cuda_executors_set_autotune (FALSE);
  g_assert_cmpuint (failed, ==, 0);
  for (guint i = 0; i < on->len; i++)
    g_hash_table_add (seen, on->pdata[i]);
  for (guint i = 0; i < off->len; i++)
    g_assert_true (g_hash_table_contains (seen, off->pdata[i]));
  g_hash_table_remove_all (seen);
  for (guint i = 0; i < off->len; i++)
    g_hash_table_add (seen, off->pdata[i]);
  for (guint i = 0; i < on->len; i++)
    if (!g_hash_table_contains (seen, on->pdata[i]))
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (on->pdata[i], "sm_90", cache, &error);
        if (img == NULL)
          g_error ("%s: a variant does not compile: %s\n%s", dir, error->message, (const char *) on->pdata[i]);
        g_string_append (added, on->pdata[i]);
      }
  *off_n = off->len;
  *on_n = on->len;
  wb_cuda_executors_forget_program ();
}

/* Autotuning (wb-cuda-autotune.c) on real programs: with it on, the kernels compiled ahead are the default
 * ones plus the code generator's variants, each of which NVRTC compiles; among them pointwise kernels of
 * other block sizes and row kernels of other threads per row (the variants the launch-shape options make).
 * llama's decoder subgraph (bf16, RMS norms, rotary embeddings) and gpt2's block subgraph (layer norms, GELU). */
static void
test_autotune_variants (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *zoo = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", NULL);
  const char      *entries[] = { "llama/thunderfx_g0_GraphModule_3", "gpt2/thunderfx_g0_GraphModule_2" };
  g_autoptr (GString) added = g_string_new (NULL);
  guint off_total = 0, on_total = 0;

  if (!g_file_test (zoo, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autofree char *dir = g_build_filename (zoo, entries[i], NULL);
      guint            off_n = 0, on_n = 0;
      check_variants (dir, &off_n, &on_n, added);
      g_test_message ("%s: %u sources, %u with autotuning's variants", entries[i], off_n, on_n);
      g_assert_cmpuint (on_n, >, off_n);
      off_total += off_n;
      on_total += on_n;
    }
  g_assert_nonnull (strstr (added->str, "__launch_bounds__ (512"));
  g_assert_nonnull (strstr (added->str, "__launch_bounds__ (1024"));
  g_assert_nonnull (strstr (added->str, "__launch_bounds__ (128"));
  g_test_message ("%u variant sources compiled beside %u default ones", on_total - off_total, off_total);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/executors/precompile/zoo", test_zoo);
  g_test_add_func ("/executors/precompile/decomposition", test_decomposition);
  g_test_add_func ("/executors/precompile/autotune-variants", test_autotune_variants);
  return g_test_run ();
}
