/* test-open-world.c — real traces the closed symbol table refused load, check with warnings, print back
 * byte for byte and recompile (issue 41)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The files in data/open-world/ are byte-exact copies of zoo traces (see its README): unknown symbols
 * with and without a torch.ops.aten prefix, a provenance line without '#', proxy names with '-', and a
 * `None` file. A folder with one corrupted file loads the others. */
#include <glib/gstdio.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

static const char *const trace_files[] = {
  "bart_g0_forward_00.py",
  "bart_g2_backward_00.py",
  "bart_g3_prologue_01.py",
  "regnet_y_400mf_prologue_00.py",
  "no_grad_teacher_backward_00.py",
};

static const char none_file[] = "vgg11_bn_infer_09_split_backward.py";

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "compiler", "data", "open-world", name, NULL);
}

static WbTrace *
load_one (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = wb_trace_parse_file (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (traces->len, ==, 1);
  return wb_trace_ref (traces->pdata[0]);
}

/* The first diagnostic of @severity whose text holds @fragment, as "FILE:LINE:COL: ..." (transfer full). */
static char *
find_diagnostic (GPtrArray *diagnostics, WbDiagnosticSeverity severity, const char *fragment)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const WbDiagnostic *d = diagnostics->pdata[i];
      g_autofree char    *text = wb_diagnostic_to_string (d);
      if (d->severity == severity && strstr (text, fragment) != NULL)
        return g_steal_pointer (&text);
    }
  return NULL;
}

/* Every file loads and prints back byte for byte. */
static void
test_roundtrip (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (trace_files); i++)
    {
      g_autofree char *path = data_path (trace_files[i]);
      gsize            len = 0;
      g_autofree char *text = wb_test_read_file (path, &len);
      g_autoptr (WbTrace) trace = load_one (trace_files[i]);
      g_autoptr (GString) out = g_string_new (NULL);

      wb_trace_print (trace, out);
      g_assert_cmpmem (out->str, out->len, text, len);
    }
}

/* Unknown symbols are warnings at FILE:LINE:COL, not errors; their outputs are typed from their
 * annotations. Thunder generates NAME_vjp for every torch function it registers automatically: the table
 * has the zoo's kl_div_vjp (typed by its meta, no warning); any other (here the same line renamed
 * my_op_vjp) is an unknown symbol without subsymbols. Symbols Thunder defines (ltorch.setitem_,
 * embedding_backward) have metas. */
static void
test_check_warns (void)
{
  g_autofree char *path = data_path ("no_grad_teacher_backward_00.py");
  g_autoptr (WbTrace) trace = load_one ("no_grad_teacher_backward_00.py");
  g_autoptr (GPtrArray) diagnostics = wb_trace_verify (trace, WB_VERIFY_DEFAULT);
  gsize            len = 0;
  g_autofree char *text = wb_test_read_file (path, &len);
  g_auto (GStrv) pieces = g_strsplit (text, "kl_div_vjp(", -1);
  g_autofree char *renamed = g_strjoinv ("my_op_vjp(", pieces);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) unknown = wb_trace_parse (renamed, -1, "renamed.py", &error);
  g_autoptr (GPtrArray) unknown_diagnostics = NULL;
  g_autofree char *vjp = NULL;
  guint            seen = 0;

  g_assert_cmpuint (wb_diagnostics_count_errors (diagnostics), ==, 0);
  g_assert_null (find_diagnostic (diagnostics, WB_DIAGNOSTIC_WARNING, "unknown symbol"));
  g_assert_nonnull (wb_symbol_lookup ("kl_div_vjp", strlen ("kl_div_vjp")));
  g_assert_no_error (error);
  unknown_diagnostics = wb_trace_verify (unknown, WB_VERIFY_DEFAULT);
  vjp = find_diagnostic (unknown_diagnostics, WB_DIAGNOSTIC_WARNING, "'my_op_vjp'");
  g_assert_cmpuint (wb_diagnostics_count_errors (unknown_diagnostics), ==, 0);
  g_assert_cmpstr (vjp, ==, "renamed.py:29:3: warning: unknown symbol 'my_op_vjp': no meta, types taken from the annotations");
  g_assert_null (wb_symbol_lookup ("my_op_vjp", strlen ("my_op_vjp")));
  /* the parsed call keeps its name, arguments and outputs, known or not */
  for (guint k = 0; k < 2; k++)
    {
      const WbTrace *t = k == 0 ? trace : unknown;
      for (guint i = 0; i < t->n_body; i++)
        {
          const WbBsym *b = t->body[i];
          if (b->kind != WB_BSYM_CALL || strcmp (b->name, k == 0 ? "kl_div_vjp" : "my_op_vjp") != 0)
            continue;
          g_assert_cmpint (wb_symbol_is_opaque (b->symbol), ==, k == 1);
          g_assert_cmpuint (b->n_args, ==, 2);
          g_assert_cmpint (b->outputs->kind, ==, WB_VALUE_TUPLE);
          g_assert_cmpuint (b->outputs->n_items, ==, 2);
          seen++;
        }
    }
  g_assert_cmpuint (seen, ==, 2);

  /* in-place setitem_ and the aten embedding_backward: known, typed by their metas, no warning */
  {
    g_autoptr (WbTrace) fw = load_one ("bart_g0_forward_00.py");
    g_autoptr (WbTrace) bw = load_one ("bart_g2_backward_00.py");
    g_autoptr (GPtrArray) d1 = wb_trace_verify (fw, WB_VERIFY_DEFAULT);
    g_autoptr (GPtrArray) d2 = wb_trace_verify (bw, WB_VERIFY_DEFAULT);
    g_assert_nonnull (wb_symbol_lookup ("ltorch.setitem_", strlen ("ltorch.setitem_")));
    g_assert_cmpuint (wb_diagnostics_count_errors (d1), ==, 0);
    g_assert_cmpuint (wb_diagnostics_count_errors (d2), ==, 0);
    g_assert_null (find_diagnostic (d1, WB_DIAGNOSTIC_WARNING, "unknown symbol"));
    g_assert_null (find_diagnostic (d2, WB_DIAGNOSTIC_WARNING, "unknown symbol"));
  }
}

/* A provenance line without '#', names with '-': loaded and checked without errors. */
static void
test_header_and_names (void)
{
  g_autoptr (WbTrace) prologue = load_one ("bart_g3_prologue_01.py");
  g_autoptr (WbTrace) regnet = load_one ("regnet_y_400mf_prologue_00.py");
  g_autoptr (GPtrArray) d1 = wb_trace_verify (prologue, WB_VERIFY_DEFAULT);
  g_autoptr (GPtrArray) d2 = wb_trace_verify (regnet, WB_VERIFY_DEFAULT);
  gboolean dashed = FALSE;

  g_assert_cmpstr (prologue->provenance, ==, "Extraction only prologue pass");
  g_assert_cmpint (prologue->header[0].kind, ==, WB_HEADER_PROVENANCE);
  g_assert_cmpuint (wb_diagnostics_count_errors (d1), ==, 0);
  g_assert_cmpuint (wb_diagnostics_count_errors (d2), ==, 0);
  for (guint i = 0; i < regnet->n_body && !dashed; i++)
    dashed = regnet->body[i]->kind == WB_BSYM_ASSIGN && strcmp (regnet->body[i]->name, "t_model_trunk_output_block1_block1-0_f_a_0_weight") == 0;
  g_assert_true (dashed);
}

/* What the verifier cannot read is kept as text with a warning; a body line that lost its indentation is
 * still an error at its own line. */
static void
test_annotations (void)
{
  static const char text[] = "import torch\n"
                             "\n"
                             "def prologue(*args, **kwargs):\n"
                             "  # args: \"Any\"\n"
                             "  a: \"int POSITIONAL_OR_KEYWORD\" = args[0]\n"
                             "  b: \"cuda:0 f8_e3m4[2, 3]\" = args[1]\n"
                             "  c: \"str 'say \\\"hi\\\"'\" = args[2]\n"
                             "  d: \"NoneType\" = args[3]\n"
                             "  e: \"cuda:0 f32[1, 1, 1, 1, 1, 1, 1, 1, 1]\" = args[4]\n"
                             "  f: \"npu:0 f32[2]\" = args[5]\n"
                             "  return (a, b, c, d, e, f)";
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (text, -1, "ann.py", &error);
  g_autoptr (GPtrArray) diagnostics = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  guint n_kept = 0;

  g_assert_no_error (error);
  wb_trace_print (trace, out);
  g_assert_cmpstr (out->str, ==, text);
  diagnostics = wb_trace_verify (trace, WB_VERIFY_DEFAULT);
  g_assert_cmpuint (wb_diagnostics_count_errors (diagnostics), ==, 0);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *s = wb_diagnostic_to_string (diagnostics->pdata[i]);
      if (g_str_has_prefix (s, "ann.py:") && strstr (s, ": warning: annotation \"") && strstr (s, "kept as text"))
        n_kept++;
    }
  g_assert_cmpuint (n_kept, ==, 6);

  {
    static const char lost_indent[] = "import torch\n\ndef f(x):\n  t0 = prims.neg(x)\nt1 = prims.neg(t0)\n  return t1\n";
    g_autoptr (GError) err = NULL;
    g_autoptr (GPtrArray) traces = wb_trace_parse_many (lost_indent, -1, "bad.py", &err);
    g_assert_null (traces);
    g_assert_error (err, WB_TRACE_ERROR, WB_TRACE_ERROR_SYNTAX);
    g_assert_true (g_str_has_prefix (err->message, "bad.py:5:1: "));
  }
}

/* Thunder types a comparison of numbers with an unknown value by the numbers' type, as graph_break's
 * forward prints it; with known values it is a bool. */
static void
test_number_comparison (void)
{
  static const char text[] = "import torch\n"
                             "\n"
                             "def computation(f8):\n"
                             "  # f8: \"float ?\"\n"
                             "  f9 = prims.gt(f8, 0.0)  # f9: \"float ?\"\n"
                             "  b10 = prims.gt(2.0, 1.0)  # b10: \"bool True\"\n"
                             "  return (f9, b10)\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (text, -1, "cmp.py", &error);
  g_autoptr (GPtrArray) diagnostics = NULL;

  g_assert_no_error (error);
  diagnostics = wb_trace_verify (trace, WB_VERIFY_DEFAULT);
  g_assert_cmpuint (diagnostics->len, ==, 0);
}

/* The pipeline accepts what loads: unknown symbols with subsymbols are decomposed, one without any stays
 * unclaimed, nothing is fused blindly, nothing unknown is dropped as dead code. */
static void
test_recompile (void)
{
  static const char opaque[] = "import torch\n"
                               "\n"
                               "def computation(x):\n"
                               "  # x: \"cpu f32[2, 3]\"\n"
                               "  t0 = ltorch.my_custom_op(x, 2.0)  # t0: \"cpu f32[2, 3]\"\n"
                               "  t1 = prims.neg(t0)  # t1: \"cpu f32[2, 3]\"\n"
                               "  t2 = ltorch.my_inplace_(x, 1.0)  # t2: \"cpu f32[2, 3]\"\n"
                               "  return (t1,)\n";
  g_autoptr (WbTrace) bart = load_one ("bart_g0_forward_00.py");
  g_autoptr (GError) error = NULL;
  g_autoptr (WbPipeline) p = wb_pipeline_run (bart, NULL, &error);
  g_autoptr (WbTrace) t = NULL;
  g_autoptr (WbPipeline) q = NULL;
  gboolean unclaimed = FALSE;

  g_assert_no_error (error);
  g_assert_cmpuint (wb_pipeline_get_n_stages (p), >, 3);

  t = wb_trace_parse (opaque, -1, "opaque.py", &error);
  g_assert_no_error (error);
  q = wb_pipeline_run (t, NULL, &error);
  g_assert_no_error (error);
  {
    GPtrArray *remarks = wb_pipeline_get_remarks (q);
    for (guint i = 0; i < remarks->len; i++)
      {
        const WbRemark *r = remarks->pdata[i];
        if (strcmp (r->symbol, "ltorch.my_custom_op") == 0)
          {
            g_assert_false (r->accepted);
            unclaimed |= strstr (r->reason, "kept unclaimed") != NULL;
          }
      }
  }
  g_assert_true (unclaimed);
  {
    /* an unknown call nothing reads may write its inputs: dead code elimination keeps it */
    const WbStage   *last = wb_pipeline_get_stage (q, wb_pipeline_get_n_stages (q) - 1);
    g_autofree char *printed = wb_trace_to_string (wb_stage_get_trace (last));
    g_assert_nonnull (strstr (printed, "ltorch.my_inplace_(x, 1.0)"));
  }
}

/* A folder loads file by file: the corrupted file and the `None` file are listed, the rest loads. */
static void
test_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-open-world-XXXXXX", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  guint n_broken = 0, n_none = 0;

  for (guint i = 0; i < G_N_ELEMENTS (trace_files) + 1; i++)
    {
      const char      *name = i < G_N_ELEMENTS (trace_files) ? trace_files[i] : none_file;
      g_autofree char *src = data_path (name);
      g_autofree char *dst = g_build_filename (dir, name, NULL);
      gsize            len = 0;
      g_autofree char *text = wb_test_read_file (src, &len);
      g_assert_true (g_file_set_contents (dst, text, (gssize) len, NULL));
      if (i == 0)
        {
          /* a corrupted copy: cut in the middle of a call */
          g_autofree char *broken = g_build_filename (dir, "forward_09.py", NULL);
          g_assert_true (g_file_set_contents (broken, text, (gssize) (strstr (text, "ltorch.setitem_(") - text + 16), NULL));
        }
    }
  set = wb_trace_set_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_trace_set_get_n_entries (set), ==, G_N_ELEMENTS (trace_files));
  g_assert_cmpuint (wb_trace_set_get_n_failures (set), ==, 2);
  for (guint i = 0; i < wb_trace_set_get_n_failures (set); i++)
    {
      const WbTraceFailure *f = wb_trace_set_get_failure (set, i);
      g_assert_true (g_str_has_prefix (f->message, f->path));
      if (f->not_a_trace)
        {
          n_none++;
          g_assert_true (g_str_has_suffix (f->path, none_file));
          g_assert_nonnull (strstr (f->message, "not a trace (Thunder skipped this stage)"));
        }
      else
        {
          n_broken++;
          g_assert_true (g_str_has_suffix (f->path, "forward_09.py"));
          g_assert_nonnull (strstr (f->message, "forward_09.py:21:"));
        }
    }
  g_assert_cmpuint (n_broken, ==, 1);
  g_assert_cmpuint (n_none, ==, 1);
  /* the rest works: its stages recompute */
  {
    const WbTraceEntry *input = wb_pipeline_find_input (set);
    g_autoptr (WbPipeline) p = NULL;
    g_assert_nonnull (input);
    p = wb_pipeline_run (input->trace, NULL, &error);
    g_assert_no_error (error);
  }
  wb_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/open-world/roundtrip", test_roundtrip);
  g_test_add_func ("/compiler/open-world/check-warns", test_check_warns);
  g_test_add_func ("/compiler/open-world/header-and-names", test_header_and_names);
  g_test_add_func ("/compiler/open-world/annotations", test_annotations);
  g_test_add_func ("/compiler/open-world/number-comparison", test_number_comparison);
  g_test_add_func ("/compiler/open-world/recompile", test_recompile);
  g_test_add_func ("/compiler/open-world/folder", test_folder);
  return g_test_run ();
}
