/* test-verifier.c — wb_trace_verify: re-derived types, names, fusion regions; mutations of real traces
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

#define HEAD "import torch\nimport thunder.core.prims as prims\nimport thunder.torch as ltorch\n" \
             "from thunder.executors.torchex import no_autocast\n\n@torch.no_grad()\n@no_autocast\n"
#define HEAD_LINES 7

static GPtrArray *
verify_text (const char *text, WbVerifyFlags flags, WbVerifyStats *stats)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (text, -1, "v.py", &error);

  g_assert_no_error (error);
  return wb_trace_verify_with_stats (trace, flags, stats);
}

/* Asserts that @diags hold exactly one error, at @line, whose message contains @fragment. */
static void
assert_one_error (GPtrArray *diags, guint line, const char *fragment)
{
  const WbDiagnostic *found = NULL;

  for (guint i = 0; i < diags->len; i++)
    {
      const WbDiagnostic *d = g_ptr_array_index (diags, i);
      if (d->severity != WB_DIAGNOSTIC_ERROR)
        continue;
      if (found != NULL)
        {
          g_autofree char *a = wb_diagnostic_to_string (found), *b = wb_diagnostic_to_string (d);
          g_error ("expected one error, got:\n  %s\n  %s", a, b);
        }
      found = d;
    }
  if (found == NULL)
    g_error ("expected an error at line %u with '%s', got none", line, fragment);
  if (found->line != line || strstr (found->message, fragment) == NULL)
    {
      g_autofree char *s = wb_diagnostic_to_string (found);
      g_error ("expected the error at line %u with '%s', got: %s", line, fragment, s);
    }
}

static void
assert_clean (GPtrArray *diags)
{
  for (guint i = 0; i < diags->len; i++)
    {
      g_autofree char *s = wb_diagnostic_to_string (g_ptr_array_index (diags, i));
      g_error ("unexpected diagnostic: %s", s);
    }
}

/* ---- synthetic traces --------------------------------------------------------------------------- */

static void
test_valid (void)
{
  WbVerifyStats stats = { 0 };
  g_autoptr (GPtrArray) diags = verify_text (
      HEAD "def computation(x, y):\n"                                      /* 8 */
           "  # x: \"cpu f32[3, 3]\"\n"                                    /* 9 */
           "  # y: \"cpu f32[3, 3, 3]\"\n"                                 /* 10 */
           "  t1 = torch.add(x, y, alpha=1)  # t1: \"cpu f32[3, 3, 3]\"\n" /* 11 */
           "    # t1 = ltorch.add(x, y, alpha=1)  # t1: \"cpu f32[3, 3, 3]\"\n"
           "      # t4 = prims.broadcast_in_dim(x, (3, 3, 3), (1, 2))  # t4: \"cpu f32[3, 3, 3]\"\n"
           "      # t1 = prims.add(t4, y)  # t1: \"cpu f32[3, 3, 3]\"\n"
           "  (v, i) = ltorch.topk(t1, 2, -1, True, True)\n"
           "  t2 = ltorch.mul(v, 2.0)  # t2: \"cpu f32[3, 3, 2]\"\n"
           "  del x\n"
           "  return (t2, i)\n",
      WB_VERIFY_DEFAULT, &stats);

  assert_clean (diags);
  g_assert_cmpuint (stats.n_calls, ==, 6);
  g_assert_cmpuint (stats.n_derived, ==, 6);
  g_assert_cmpuint (stats.n_compared, ==, 5);
  g_assert_cmpuint (stats.n_trusted, ==, 0);
}

static void
test_type_mismatch (void)
{
  g_autoptr (GPtrArray) d1 = NULL, d2 = NULL, d3 = NULL, d4 = NULL, d5 = NULL;
  g_autofree char *s = NULL;

  /* a wrong shape on a call's type comment, reported with both types */
  d1 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2, 3]\"\n"
                         "  t0 = ltorch.sum(x, 1, False, dtype=None)  # t0: \"cuda:0 f32[3]\"\n  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d1, 10, "annotated \"cuda:0 f32[3]\" but its inputs derive \"cuda:0 f32[2]\"");
  s = wb_diagnostic_to_string (g_ptr_array_index (d1, 0));
  g_assert_true (g_str_has_prefix (s, "v.py:10:3: error: type of 't0' is annotated"));

  /* types flow from tuple outputs, which carry no annotation */
  d2 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[512, 256]\"\n"
                         "  (v, i) = ltorch.topk(x, 8, -1, True, True)\n"
                         "  t0 = ltorch.mul(v, 2.0)  # t0: \"cuda:0 f32[512, 9]\"\n  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d2, 11, "derive \"cuda:0 f32[512, 8]\"");

  /* a dtype error in a subsymbol is reported at the subsymbol's line */
  d3 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 bf16[4]\"\n"
                         "  t0 = ltorch.neg(x)  # t0: \"cuda:0 bf16[4]\"\n"
                         "    # t1 = prims.convert_element_type(x, dtypes.float32)  # t1: \"cuda:0 f32[4]\"\n"
                         "    # t2 = prims.neg(t1)  # t2: \"cuda:0 f32[4]\"\n"
                         "    # t0 = prims.convert_element_type(t2, dtypes.bfloat16)  # t0: \"cuda:0 f16[4]\"\n"
                         "  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d3, 13, "type of 't0' is annotated \"cuda:0 f16[4]\"");

  /* the meta function rejects inconsistent inputs: prims never broadcast */
  d4 = verify_text (HEAD "def f(a, b):\n  # a: \"cuda:0 f32[2, 3]\"\n  # b: \"cuda:0 f32[3]\"\n"
                         "  t0 = prims.add(a, b)  # t0: \"cuda:0 f32[2, 3]\"\n  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d4, 11, "prims.add: shapes differ");

  /* names only: the same wrong annotation passes */
  d5 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2, 3]\"\n"
                         "  t0 = ltorch.sum(x, 1, False, dtype=None)  # t0: \"cuda:0 f32[3]\"\n  return t0\n",
                    WB_VERIFY_NO_TYPES, NULL);
  assert_clean (d5);
}

static void
test_subsymbols_agree (void)
{
  /* the parent says var_mean over dim 1, its prim over dim 0: the tuple outputs disagree */
  g_autoptr (GPtrArray) d = verify_text (
      HEAD "def f(x):\n  # x: \"cuda:0 f32[4, 5]\"\n"
           "  (v, m) = ltorch.var_mean(x, (1,), keepdim=False, correction=0)\n"
           "    # (v, m) = prims.var_mean(x, (0,), correction=0)\n"
           "  return v\n",
      WB_VERIFY_DEFAULT, NULL);
  guint n = 0;

  for (guint i = 0; i < d->len; i++)
    {
      const WbDiagnostic *x = g_ptr_array_index (d, i);
      g_assert_cmpint (x->severity, ==, WB_DIAGNOSTIC_ERROR);
      g_assert_cmpuint (x->line, ==, 10);
      g_assert_nonnull (strstr (x->message, "the subsymbols give"));
      n++;
    }
  g_assert_cmpuint (n, ==, 2);
}

static void
test_names (void)
{
  g_autoptr (GPtrArray) d1 = NULL, d2 = NULL, d3 = NULL, d4 = NULL, d5 = NULL, d6 = NULL, d7 = NULL;

  d1 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2]\"\n  t0 = ltorch.neg(t9)  # t0: \"cuda:0 f32[2]\"\n  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d1, 10, "'t9' is used but never defined");

  d2 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2]\"\n"
                         "  t0 = ltorch.neg(x)  # t0: \"cuda:0 f32[2]\"\n"
                         "  t0 = ltorch.neg(x)  # t0: \"cuda:0 f32[2]\"\n  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d2, 11, "'t0' is defined twice (first at line 10)");

  d3 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2]\"\n"
                         "  t0 = ltorch.neg(x)  # t0: \"cuda:0 f32[2]\"\n  del x\n"
                         "  t1 = ltorch.neg(x)  # t1: \"cuda:0 f32[2]\"\n  return t1\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d3, 12, "'x' is used after `del` at line 11");

  d4 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2]\"\n  del x\n  del x\n  return None\n", WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d4, 11, "deleted twice");

  d5 = verify_text (HEAD "def f(x):\n  # y: \"cuda:0 f32[2]\"\n  return x\n", WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d5, 9, "'y' is annotated but not defined");

  d6 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[2]\"\n  t0 = ltorch.neg(x)  # t1: \"cuda:0 f32[2]\"\n  return t0\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d6, 10, "the type comment names 't1' but the output is 't0'");

  d7 = verify_text (HEAD "def f(x):\n  # x: \"cuda:0 f32[4, 5]\"\n  (a, b, c) = ltorch.topk(x, 2, -1, True, True)\n  return a\n",
                    WB_VERIFY_DEFAULT, NULL);
  assert_one_error (d7, 10, "3 outputs are printed but ltorch.topk gives 2");
}

static void
test_unknown_inputs_trusted (void)
{
  WbVerifyStats stats = { 0 };
  /* t1 comes out of an unpacked collection with no element annotation: its type is unknown, so the call on it
   * is typed from its own annotation (trusted), and the next call is derived from that */
  g_autoptr (GPtrArray) d = verify_text (HEAD "def f(c):\n  # c: \"Collection\"\n  t1, = c\n"
                                              "  t2 = ltorch.neg(t1)  # t2: \"cuda:0 f32[2]\"\n"
                                              "  t3 = ltorch.neg(t2)  # t3: \"cuda:0 f32[3]\"\n  return t3\n",
                                         WB_VERIFY_DEFAULT, &stats);

  assert_one_error (d, 12, "derive \"cuda:0 f32[2]\"");
  g_assert_cmpuint (stats.n_trusted, ==, 1);
  g_assert_cmpuint (stats.n_no_meta, ==, 0);
  g_assert_cmpuint (stats.n_derived, ==, 1);
}

static void
test_regions (void)
{
  g_autoptr (GPtrArray) d1 = NULL, d2 = NULL, d3 = NULL, d4 = NULL, d5 = NULL, d6 = NULL;
  const char *sig = HEAD "def f(a, b):\n  # a: \"cuda:0 f32[2, 2]\"\n  # b: \"cuda:0 f32[2, 2]\"\n"; /* lines 8-10 */

  /* a region whose body uses a name it does not take */
  {
    g_autofree char *t = g_strconcat (sig, "  [t2] = TorchCompile0(a)\n"
                                           "    # c = ltorch.add(a, b, alpha=1)  # c: \"cuda:0 f32[2, 2]\"\n"
                                           "      # c = prims.add(a, b)  # c: \"cuda:0 f32[2, 2]\"\n"
                                           "    # t2 = ltorch.mul(c, a)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "      # t2 = prims.mul(c, a)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "  return (t2,)\n",
                                      NULL);
    d1 = verify_text (t, WB_VERIFY_DEFAULT, NULL);
    assert_one_error (d1, 11, "region TorchCompile0 uses 'b' (line 12) but does not take it as an input");
  }
  /* a listed output the body does not produce, and an input it does not use (a warning) */
  {
    g_autofree char *t = g_strconcat (sig, "  [t2, t3] = TorchCompile0(a, b)\n"
                                           "    # t2 = ltorch.neg(a)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "      # t2 = prims.neg(a)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "  return (t2, t3)\n",
                                      NULL);
    gboolean         warned = FALSE;
    d2 = verify_text (t, WB_VERIFY_DEFAULT, NULL);
    assert_one_error (d2, 11, "lists output 't3', which its body does not produce");
    for (guint i = 0; i < d2->len; i++)
      {
        const WbDiagnostic *x = g_ptr_array_index (d2, i);
        if (x->severity == WB_DIAGNOSTIC_WARNING && strstr (x->message, "takes 'b' but its body does not use it"))
          warned = TRUE;
      }
    g_assert_true (warned);
  }
  /* outputs take their types from the body */
  {
    g_autofree char *t = g_strconcat (sig, "  [t2] = TorchCompile0(a)\n"
                                           "    # t2 = ltorch.sum(a, 1, False, dtype=None)  # t2: \"cuda:0 f32[2]\"\n"
                                           "  t3 = ltorch.neg(t2)  # t3: \"cuda:0 f32[2, 2]\"\n"
                                           "  return (t3,)\n",
                                      NULL);
    d3 = verify_text (t, WB_VERIFY_DEFAULT, NULL);
    assert_one_error (d3, 13, "derive \"cuda:0 f32[2]\"");
  }
  /* the same name twice: one body is fine, two different bodies are an error naming both lines */
  {
    g_autofree char *t = g_strconcat (sig, "  [t2] = nvFusion0(a)\n"
                                           "    # t2 = prims.neg(a)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "  [t3] = nvFusion0(b)\n"
                                           "    # t3 = prims.neg(b)  # t3: \"cuda:0 f32[2, 2]\"\n"
                                           "  return (t2, t3)\n",
                                      NULL);
    d4 = verify_text (t, WB_VERIFY_DEFAULT, NULL);
    assert_one_error (d4, 13, "two different fusion regions are named nvFusion0 (lines 11 and 13)");
  }
  {
    g_autofree char *t = g_strconcat (sig, "  [t2] = nvFusion0(a)\n"
                                           "    # t2 = prims.neg(a)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "  [t3] = nvFusion1(t2)\n"
                                           "    # t3 = prims.neg(t2)  # t3: \"cuda:0 f32[2, 2]\"\n"
                                           "  return (b, t3)\n",
                                      NULL);
    d5 = verify_text (t, WB_VERIFY_DEFAULT, NULL);
    assert_clean (d5);
  }
  /* a region's internal names do not leak into the trace */
  {
    g_autofree char *t = g_strconcat (sig, "  [t2] = TorchCompile3(a)\n"
                                           "    # t9 = prims.neg(a)  # t9: \"cuda:0 f32[2, 2]\"\n"
                                           "    # t2 = prims.neg(t9)  # t2: \"cuda:0 f32[2, 2]\"\n"
                                           "  t4 = ltorch.add(t9, b, alpha=1)  # t4: \"cuda:0 f32[2, 2]\"\n"
                                           "  return (t2, t4)\n",
                                      NULL);
    d6 = verify_text (t, WB_VERIFY_DEFAULT, NULL);
    assert_one_error (d6, 14, "'t9' is used but never defined");
  }
}

/* ---- mutations of real traces ------------------------------------------------------------------- */

/* Bumps the first dim of the type comment on a call line of a real trace, parses the edited text and checks
 * that the verifier reports exactly that line, with the annotated (edited) and the derived (original) type. */
static guint
mutate_and_check (const char *path, guint max_mutations)
{
  g_autofree char *text = wb_test_read_file (path, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GRegex) re = g_regex_new ("^ *(# )?([A-Za-z_]\\w*) = [\\w.]+\\(.*\\)  # \\2: \"([^\"]*\\[)(\\d+)([^\"]*)\"",
                                       0, 0, NULL);
  guint n_lines = g_strv_length (lines), n_candidates = 0, stride, done = 0;

  for (guint i = 0; i < n_lines; i++)
    if (g_regex_match (re, lines[i], 0, NULL))
      n_candidates++;
  g_assert_cmpuint (n_candidates, >, 0);
  stride = MAX (1, n_candidates / max_mutations);

  for (guint i = 0, c = 0; i < n_lines && done < max_mutations; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autofree char *prefix = NULL, *dim = NULL, *suffix = NULL, *original = NULL, *edited = NULL, *line = NULL;
      g_autofree char *joined = NULL;
      g_autoptr (GPtrArray) traces = NULL;
      g_autoptr (GError) error = NULL;
      char    *saved;
      gint     start, end;
      guint    n_errors = 0;
      gboolean found = FALSE;

      if (!g_regex_match (re, lines[i], 0, &m))
        continue;
      if (c++ % stride != 0)
        continue;
      prefix = g_match_info_fetch (m, 3);
      dim = g_match_info_fetch (m, 4);
      suffix = g_match_info_fetch (m, 5);
      original = g_strconcat (prefix, dim, suffix, NULL);
      edited = g_strdup_printf ("%s%" G_GINT64_FORMAT "%s", prefix, g_ascii_strtoll (dim, NULL, 10) + 1, suffix);
      g_match_info_fetch_pos (m, 4, &start, &end);
      line = g_strdup_printf ("%.*s%" G_GINT64_FORMAT "%s", start, lines[i], g_ascii_strtoll (dim, NULL, 10) + 1, lines[i] + end);

      saved = lines[i];
      lines[i] = line;
      joined = g_strjoinv ("\n", lines);
      lines[i] = saved;

      traces = wb_trace_parse_many (joined, -1, path, &error);
      g_assert_no_error (error);
      for (guint t = 0; t < traces->len; t++)
        {
          g_autoptr (GPtrArray) diags = wb_trace_verify (g_ptr_array_index (traces, t), WB_VERIFY_DEFAULT);
          for (guint k = 0; k < diags->len; k++)
            {
              const WbDiagnostic *d = g_ptr_array_index (diags, k);
              g_autofree char    *want_a = g_strdup_printf ("\"%s\"", edited), *want_d = g_strdup_printf ("\"%s\"", original);
              if (d->severity != WB_DIAGNOSTIC_ERROR)
                continue;
              if (strstr (d->message, "two different fusion regions") != NULL)
                continue; /* the ce_loss bug, unrelated to the edit */
              n_errors++;
              if (d->line == i + 1 && strstr (d->message, want_a) != NULL && strstr (d->message, want_d) != NULL)
                found = TRUE;
              else
                {
                  g_autofree char *s = wb_diagnostic_to_string (d);
                  g_test_message ("edit of %s:%u gave: %s", path, i + 1, s);
                }
            }
        }
      if (!found || n_errors != 1)
        g_error ("editing %s:%u (\"%s\" -> \"%s\") gave %u errors%s", path, i + 1, original, edited, n_errors,
                 found ? "" : ", none at that line naming both types");
      done++;
    }
  return done;
}

static void
test_mutations (void)
{
  static const char *const files[] = {
    "gpt2_block/forward_06.py",       /* fusion bodies, sdpa outputs */
    "gpt2_block/forward_04.py",       /* the joint trace: ltorch calls with prims subsymbols */
    "llama_layer/backward_00.py",     /* saved-for-backward inputs, sdpa backward */
    "llama_layer/forward_00.py",      /* RoPE: getitem, cat, pad */
    "ce_loss/fallback/forward_04.py", /* cross entropy decomposition */
    "misc_ops/forward_00.py",         /* topk, shifts, repeat_interleave, rand_like, indexing */
    "mlp_small/default_execs/stages/07_transform_for_execution_0.py",
  };
  const char *root = wb_test_traces_dir ();
  guint       total = 0;

  if (root == NULL)
    {
      g_test_skip ("the real traces are not available");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (root, files[i], NULL);
      total += mutate_and_check (path, 12);
    }
  g_assert_cmpuint (total, >=, 60);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbVerifier/valid", test_valid);
  g_test_add_func ("/compiler/WbVerifier/type-mismatch", test_type_mismatch);
  g_test_add_func ("/compiler/WbVerifier/subsymbols-agree", test_subsymbols_agree);
  g_test_add_func ("/compiler/WbVerifier/names", test_names);
  g_test_add_func ("/compiler/WbVerifier/unknown-inputs-trusted", test_unknown_inputs_trusted);
  g_test_add_func ("/compiler/WbVerifier/regions", test_regions);
  g_test_add_func ("/compiler/WbVerifier/mutations", test_mutations);
  return g_test_run ();
}
