/* test-export.c — exports of a stage: python, torch (a standalone PyTorch script), dot and svg
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every stage of every case (data/samples/mlp_small always, $WB_TRACES_DIR when present) exports to torch
 * and python with no unmapped symbol, and every file parses with python3's ast; the DOT of every stage
 * parses with Graphviz and has one cluster per fusion region; mlp_small's final forward lays out as SVG;
 * the export command's exit codes; and, when PyTorch is installed, mlp_small's exported final forward
 * (with its backward) reproduces tensors.safetensors on the CPU. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<graphviz/cgraph.h>)
#include <graphviz/cgraph.h>
#define HAVE_CGRAPH 1
#endif
#endif

#include "wb-compiler.h"
#include "wb-export-private.h"
#include "wb-test-common.h"

/* -- helpers ------------------------------------------------------------------------------------------------ */

static char *
mlp_small_dir (void)
{
  return g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
}

/* The case folders to export: data/samples/mlp_small and every folder of $WB_TRACES_DIR with traces. */
static GPtrArray *
case_dirs (void)
{
  GPtrArray  *dirs = g_ptr_array_new_with_free_func (g_free);
  const char *traces = wb_test_traces_dir ();

  g_ptr_array_add (dirs, mlp_small_dir ());
  if (traces != NULL)
    {
      g_autoptr (GDir) d = g_dir_open (traces, 0, NULL);
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (traces, name, NULL);
          g_autofree char *probe = g_build_filename (path, "forward_00.py", NULL);

          if (g_file_test (probe, G_FILE_TEST_EXISTS))
            g_ptr_array_add (names, g_steal_pointer (&path));
        }
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (dirs, g_strdup (g_ptr_array_index (names, i)));
    }
  return dirs;
}

static char *
find_python (void)
{
  return g_find_program_in_path ("python3");
}

/* run_argv: runs @argv; returns the exit status (or -1 if it could not start), output in *@out (may be NULL). */
static int
run_argv (const char *const *argv,
          char             **out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE,
                                                 &error);
  g_autofree char *text = NULL;

  if (p == NULL)
    {
      g_test_message ("cannot run %s: %s", argv[0], error->message);
      return -1;
    }
  if (!g_subprocess_communicate_utf8 (p, NULL, NULL, &text, NULL, &error))
    {
      g_test_message ("%s: %s", argv[0], error->message);
      return -1;
    }
  if (out != NULL)
    *out = g_steal_pointer (&text);
  return g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : -1;
}

/* A Python program that parses every file named on its command line with ast and reports the failures. */
static const char parse_all_py[] =
    "import ast, sys\n"
    "bad = 0\n"
    "for f in sys.argv[1:]:\n"
    "    try:\n"
    "        ast.parse(open(f, encoding='utf-8').read(), f)\n"
    "    except SyntaxError as e:\n"
    "        bad += 1\n"
    "        print('%s: %s' % (f, e))\n"
    "print('%d files parsed, %d failed' % (len(sys.argv) - 1, bad))\n"
    "sys.exit(1 if bad else 0)\n";

static void
assert_contains (const char *text,
                 const char *needle)
{
  if (strstr (text, needle) == NULL)
    {
      g_test_message ("--- text ---\n%s\n--- expected to contain ---\n%s", text, needle);
      g_test_fail ();
    }
}

/* -- units ------------------------------------------------------------------------------------------------- */

static void
test_formats (void)
{
  WbExportFormat f;

  g_assert_true (wb_export_format_from_string ("torch", &f));
  g_assert_cmpint (f, ==, WB_EXPORT_FORMAT_TORCH);
  g_assert_true (wb_export_format_from_string ("svg", &f));
  g_assert_cmpstr (wb_export_format_to_string (f), ==, "svg");
  g_assert_false (wb_export_format_from_string ("png", &f));
  g_assert_false (wb_export_format_from_string (NULL, &f));
}

static void
test_tables (void)
{
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  guint n_prims = 0;

  _wb_export_torch_check_tables (problems);
  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s", (const char *) g_ptr_array_index (problems, i));
  g_assert_cmpuint (problems->len, ==, 0);

  /* Every prim of the symbol table has a PyTorch mapping. */
  for (guint id = 0; id < WB_N_SYMBOLS; id++)
    {
      const WbSymbol *sym = wb_symbol_get_by_id ((WbSymbolId) id);

      if (sym == NULL || wb_symbol_get_module (sym) != WB_SYMBOL_MODULE_PRIMS)
        continue;
      n_prims++;
      if (!_wb_export_torch_has_mapping (sym))
        {
          g_test_message ("%s has no PyTorch mapping", wb_symbol_get_name (sym));
          g_test_fail ();
        }
    }
  g_assert_cmpuint (n_prims, >, 150);
}

static const char notebook_trace[] =
    "# Constructed by Unwrap the actual return value\n"
    "import torch\n"
    "from thunder.executors.torchex import no_autocast\n"
    "\n"
    "@torch.no_grad()\n"
    "@no_autocast\n"
    "def computation(x, y):\n"
    "  # x: \"cpu f32[3, 3]\"\n"
    "  # y: \"cpu f32[3, 3, 3]\"\n"
    "  t1 = torch.add(x, y, alpha=1)  # t1: \"cpu f32[3, 3, 3]\"\n"
    "    # t1 = ltorch.add(x, y, alpha=1)  # t1: \"cpu f32[3, 3, 3]\"\n"
    "      # t4 = prims.broadcast_in_dim(x, (3, 3, 3), (1, 2))  # t4: \"cpu f32[3, 3, 3]\"\n"
    "      # t1 = prims.add(t4, y)  # t1: \"cpu f32[3, 3, 3]\"\n"
    "  t2 = prims.convert_element_type(t1, dtypes.bfloat16)  # t2: \"cpu bf16[3, 3, 3]\"\n"
    "  t3 = prims.slice_prim(t2, [0, 0, 1], [3, 3, 3], [1, 1, 2])  # t3: \"cpu bf16[3, 3, 1]\"\n"
    "  t5 = prims.div(t3, 2.0)  # t5: \"cpu bf16[3, 3, 1]\"\n"
    "  t6 = prims.full((2,), 1.0, device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)  # t6: \"cuda:0 f32[2]\"\n"
    "  t7 = prims.sum(t6, ())  # t7: \"cuda:0 f32[2]\"\n"
    "  t8 = prims.pow(-1.0, t7)  # t8: \"cuda:0 f32[2]\"\n"
    "  return (t5, t8)";

static void
test_torch_lowering (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (notebook_trace, -1, "notebook.py", &error);
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *script = NULL;

  g_assert_no_error (error);
  script = wb_export_torch (trace, NULL, warnings);
  g_assert_cmpuint (warnings->len, ==, 0);
  /* a torch-executor call is lowered through ltorch to prims, with its line as a comment */
  assert_contains (script, "    # t1 = torch.add(x, y, alpha=1)  # t1: \"cpu f32[3, 3, 3]\"\n");
  assert_contains (script, "    t4 = _wb_broadcast_in_dim(x, (3, 3, 3), (1, 2))  # t4: \"cpu f32[3, 3, 3]\"\n");
  assert_contains (script, "    t1 = t4 + y  # t1: \"cpu f32[3, 3, 3]\"\n");
  /* dtypes and devices */
  assert_contains (script, "    t2 = t1.to(torch.bfloat16)");
  assert_contains (script, "torch.full((2,), 1.0, device=_wb_DEVICE, dtype=torch.float32)");
  /* a literal slice, a true division, an empty reduction, a parenthesised negative operand */
  assert_contains (script, "    t3 = t2[0:3, 0:3, 1:3:2]");
  assert_contains (script, "    t5 = t3 / 2.0");
  assert_contains (script, "    t7 = t6.clone()");
  assert_contains (script, "    t8 = (-1.0) ** t7");
  assert_contains (script, "    return (t5, t8)\n");
  /* the runner's tables */
  assert_contains (script, "_WB_MODE = 'forward'\n");
  assert_contains (script, "    ('x', 'tensor', (3, 3), torch.float32, None),\n");
  assert_contains (script, "import torch\n");
  g_assert_null (strstr (script, "import thunder"));
}

static void
test_torch_final_forward (void)
{
  g_autofree char *dir = mlp_small_dir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = wb_trace_set_load (dir, &error);
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *script = NULL;
  int              k = -1, companion;

  g_assert_no_error (error);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

      if (e->kind == WB_TRACE_KIND_FORWARD && e->index == 6 && (e->subset == NULL || e->subset[0] == '\0'))
        k = i;
    }
  g_assert_cmpint (k, >=, 0);
  g_assert_cmpint (wb_export_trace_role (wb_trace_set_get_entry (set, k)->trace, WB_TRACE_KIND_FORWARD), ==,
                   WB_EXPORT_ROLE_FINAL_FORWARD);
  companion = wb_export_find_companion (set, k);
  g_assert_cmpint (companion, >=, 0);
  g_assert_cmpint (wb_trace_set_get_entry (set, companion)->kind, ==, WB_TRACE_KIND_BACKWARD);
  g_assert_cmpint (wb_export_find_companion (set, companion), ==, k);

  script = wb_export_entry (set, k, WB_EXPORT_FORMAT_TORCH, TRUE, "mlp_small", warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  assert_contains (script, "\ndef TorchCompile0(input, t_0_weight, t_0_bias, t_2_weight, t_2_bias):\n");
  assert_contains (script, "\ndef TorchCompile1(t18, t64, t_2_weight, input, t_0_weight):\n");
  assert_contains (script, "    [t18, t63] = TorchCompile0(input, t_0_weight, t_0_bias, t_2_weight, t_2_bias)\n");
  assert_contains (script, "    t52 = torch.tanh(t48)");
  assert_contains (script, "def backward_fn(saved_for_backward, cotangents):\n");
  assert_contains (script, "    _wb_clear(C0)\n");
  assert_contains (script, "_WB_MODE = 'final_forward'\n_WB_FUNCTION = 'computation'\n_WB_BACKWARD = 'backward_fn'\n");
  assert_contains (script, "_WB_REGIONS = ['TorchCompile0', 'TorchCompile1']\n");
  assert_contains (script, "_WB_FLAT_ARGS = ['input', 't_0_bias', 't_0_weight', 't_2_bias', 't_2_weight']\n");
  assert_contains (script, "    ('t64', 'tensor', (32, 128), torch.float32, None),\n");
}

/* -- every stage of every case ------------------------------------------------------------------------------ */

static void
test_all_stages_parse (void)
{
  g_autoptr (GPtrArray) dirs = case_dirs ();
  g_autofree char *python = find_python ();
  g_autofree char *tmp = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  guint            n_warnings = 0;
  int              status;

  if (wb_test_traces_dir () == NULL)
    g_test_message ("WB_TRACES_DIR absent: only data/samples/mlp_small");
  tmp = g_dir_make_tmp ("wb-export-XXXXXX", &error);
  g_assert_no_error (error);

  for (guint d = 0; d < dirs->len; d++)
    {
      const char      *dir = g_ptr_array_index (dirs, d);
      g_autofree char *base = g_path_get_basename (dir);
      g_autoptr (WbTraceSet) set = wb_trace_set_load (dir, &error);

      g_assert_no_error (error);
      for (guint k = 0; k < wb_trace_set_get_n_entries (set); k++)
        for (guint f = 0; f < 2; f++)
          {
            WbExportFormat format = f == 0 ? WB_EXPORT_FORMAT_TORCH : WB_EXPORT_FORMAT_PYTHON;
            g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
            g_autofree char *text = wb_export_entry (set, k, format, TRUE, base, warnings, &error);
            g_autofree char *name = g_strdup_printf ("%s-%03u-%s.py", base, k, wb_export_format_to_string (format));
            char            *path = g_build_filename (tmp, name, NULL);

            g_assert_no_error (error);
            g_assert_nonnull (text);
            for (guint w = 0; w < warnings->len; w++)
              g_test_message ("%s", (const char *) g_ptr_array_index (warnings, w));
            n_warnings += warnings->len;
            g_assert_true (g_file_set_contents (path, text, -1, NULL));
            g_ptr_array_add (files, path);
          }
    }
  g_test_message ("%u files exported", files->len);
  g_assert_cmpuint (n_warnings, ==, 0);

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed: the exports were not parsed");
    }
  else
    {
      g_ptr_array_add (argv, python);
      g_ptr_array_add (argv, (gpointer) "-c");
      g_ptr_array_add (argv, (gpointer) parse_all_py);
      for (guint i = 0; i < files->len; i++)
        g_ptr_array_add (argv, g_ptr_array_index (files, i));
      g_ptr_array_add (argv, NULL);
      status = run_argv ((const char *const *) argv->pdata, &out);
      g_test_message ("%s", out ? out : "");
      g_assert_cmpint (status, ==, 0);
    }

  for (guint i = 0; i < files->len; i++)
    g_unlink (g_ptr_array_index (files, i));
  g_rmdir (tmp);
}

static guint
count_regions (const WbTrace *trace)
{
  guint n = 0;

  for (guint i = 0; i < trace->n_body; i++)
    if (wb_bsym_is_fusion (trace->body[i]))
      n++;
  return n;
}

static void
test_all_stages_dot (void)
{
#ifdef HAVE_CGRAPH
  g_autoptr (GPtrArray) dirs = case_dirs ();
  guint n_graphs = 0, n_clusters = 0;

  for (guint d = 0; d < dirs->len; d++)
    {
      const char *dir = g_ptr_array_index (dirs, d);
      g_autoptr (GError) error = NULL;
      g_autoptr (WbTraceSet) set = wb_trace_set_load (dir, &error);

      g_assert_no_error (error);
      for (guint k = 0; k < wb_trace_set_get_n_entries (set); k++)
        {
          const WbTrace   *trace = wb_trace_set_get_entry (set, k)->trace;
          g_autofree char *dot = wb_export_dot (trace, "test");
          Agraph_t        *g = agmemread (dot);
          guint            clusters = 0;

          if (g == NULL)
            {
              g_test_message ("%s entry %u: Graphviz cannot read the DOT:\n%s", dir, k, dot);
              g_test_fail ();
              continue;
            }
          for (Agraph_t *sub = agfstsubg (g); sub != NULL; sub = agnxtsubg (sub))
            if (g_str_has_prefix (agnameof (sub), "cluster"))
              {
                /* "cluster_<region>_<index of its bound symbol>": exactly the nodes of its body */
                const char   *index = strrchr (agnameof (sub), '_');
                const WbBsym *region = trace->body[g_ascii_strtoull (index + 1, NULL, 10)];
                guint         body = 0;

                for (guint j = 0; j < region->n_subsymbols; j++)
                  body += region->subsymbols[j]->kind == WB_BSYM_CALL;
                g_assert_true (wb_bsym_is_fusion (region));
                g_assert_cmpint (agnnodes (sub), ==, MAX (body, 1));
                clusters++;
              }
          g_assert_cmpuint (clusters, ==, count_regions (trace));
          g_assert_cmpint (agnnodes (g), >, 0);
          n_clusters += clusters;
          n_graphs++;
          agclose (g);
        }
    }
  g_test_message ("%u graphs, %u clusters", n_graphs, n_clusters);
  g_assert_cmpuint (n_clusters, >, 0);
#else
  g_test_skip ("built without Graphviz's cgraph headers");
#endif
}

static void
test_svg (void)
{
  g_autofree char *dir = mlp_small_dir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = wb_trace_set_load (dir, &error);
  g_autofree char *svg = NULL;
  int              k = -1;

  g_assert_no_error (error);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

      if (e->kind == WB_TRACE_KIND_FORWARD && e->index == 6 && (e->subset == NULL || e->subset[0] == '\0'))
        k = i;
    }
  g_assert_cmpint (k, >=, 0);
  svg = wb_export_entry (set, k, WB_EXPORT_FORMAT_SVG, TRUE, "mlp_small", NULL, &error);
  if (g_error_matches (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_UNSUPPORTED))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  assert_contains (svg, "<svg");
  assert_contains (svg, "TorchCompile0");
  assert_contains (svg, "prims.linear");
  assert_contains (svg, "</svg>");
}

/* -- the command ---------------------------------------------------------------------------------------------- */

static char *
thunder_wb (void)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");

  return g_build_filename (build ? build : ".", "app", "thunder-wb", NULL);
}

static void
test_cli (void)
{
  g_autofree char *exe = thunder_wb ();
  g_autofree char *dir = mlp_small_dir ();
  g_autofree char *tmp = NULL;
  g_autofree char *file = NULL;
  g_autofree char *out = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  if (!g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("thunder-wb is not built");
      return;
    }
  tmp = g_dir_make_tmp ("wb-export-cli-XXXXXX", &error);
  g_assert_no_error (error);
  file = g_build_filename (tmp, "mlp.py", NULL);

  {
    const char *argv[] = { exe, "--headless", "export", dir, "--stage", "8", "--as", "torch", "-o", file, NULL };

    g_assert_cmpint (run_argv (argv, &out), ==, 0);
    g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
    assert_contains (text, "_WB_MODE = 'final_forward'");
    g_clear_pointer (&out, g_free);
  }
  {
    const char *argv[] = { exe, "--headless", "export", dir, "--stage", "8", "--as", "dot", NULL };

    g_assert_cmpint (run_argv (argv, &out), ==, 0);
    assert_contains (out, "subgraph \"cluster_TorchCompile0");
    g_clear_pointer (&out, g_free);
  }
  {
    const char      *argv[] = { exe, "--headless", "export", dir, "--stage", "3", "--as", "python", NULL };
    g_autofree char *expected = NULL;
    g_autofree char *path = g_build_filename (dir, "forward_01.py", NULL);

    g_assert_cmpint (run_argv (argv, &out), ==, 0);
    g_assert_true (g_file_get_contents (path, &expected, NULL, NULL));
    g_assert_cmpstr (out, ==, expected);
    g_clear_pointer (&out, g_free);
  }
  {
    const char *argv[] = { exe, "--headless", "export", dir, "--stage", "8", "--as", "png", NULL };

    g_assert_cmpint (run_argv (argv, &out), ==, 2);
    g_clear_pointer (&out, g_free);
  }
  {
    const char *argv[] = { exe, "--headless", "export", dir, "--stage", "999", "--as", "torch", NULL };

    g_assert_cmpint (run_argv (argv, &out), ==, 2);
    assert_contains (out, "999");
    g_clear_pointer (&out, g_free);
  }
  g_unlink (file);
  g_rmdir (tmp);
}

/* -- running the script under PyTorch ------------------------------------------------------------------------ */

static void
test_torch_run (void)
{
  g_autofree char *python = find_python ();
  g_autofree char *dir = mlp_small_dir ();
  g_autofree char *ref = g_build_filename (dir, "tensors.safetensors", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autofree char *script = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed");
      return;
    }
  {
    const char *argv[] = { python, "-c", "import torch", NULL };

    if (run_argv (argv, NULL) != 0)
      {
        g_test_skip ("PyTorch is not installed: the exported script was not run");
        return;
      }
  }
  set = wb_trace_set_load (dir, &error);
  g_assert_no_error (error);
  script = wb_export_entry (set, 8, WB_EXPORT_FORMAT_TORCH, TRUE, "mlp_small", NULL, &error);
  g_assert_no_error (error);
  tmp = g_dir_make_tmp ("wb-export-run-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (tmp, "mlp_small_final.py", NULL);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  {
    const char *argv[] = { python, path, "--device", "cpu", "--compare", ref, NULL };
    int         status = run_argv (argv, &out);

    g_test_message ("%s", out ? out : "");
    g_assert_cmpint (status, ==, 0);
    assert_contains (out, "grad.param.0.weight");
    g_assert_null (strstr (out, "MISMATCH"));
  }
  g_unlink (path);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/data/export/formats", test_formats);
  g_test_add_func ("/data/export/torch/tables", test_tables);
  g_test_add_func ("/data/export/torch/lowering", test_torch_lowering);
  g_test_add_func ("/data/export/torch/final-forward-with-backward", test_torch_final_forward);
  g_test_add_func ("/data/export/all-stages-parse", test_all_stages_parse);
  g_test_add_func ("/data/export/dot/all-stages", test_all_stages_dot);
  g_test_add_func ("/data/export/svg/mlp-small", test_svg);
  g_test_add_func ("/data/export/cli", test_cli);
  g_test_add_func ("/data/export/torch/run-mlp-small", test_torch_run);
  return g_test_run ();
}
