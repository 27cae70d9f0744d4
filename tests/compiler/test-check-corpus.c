/* test-check-corpus.c — the verifier over every real Thunder trace: no errors but the known ce_loss bug
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

/* The top-level ce_loss traces (not fallback/ or default_execs/) hold a real Thunder bug: two different
 * regions named TorchCompile0 in the forward and two named TorchCompile1 in the backward. */
static gboolean
is_ce_loss_buggy_run (const char *path, const char *root)
{
  g_autofree char *prefix = g_build_filename (root, "ce_loss", NULL);
  const char      *rest;

  if (!g_str_has_prefix (path, prefix))
    return FALSE;
  rest = path + strlen (prefix);
  return !g_str_has_prefix (rest, "/fallback/") && !g_str_has_prefix (rest, "/default_execs/");
}

/* Top-level fusion calls that share a name with an earlier one whose body differs, found from the parsed
 * trace without the verifier: (first line, second line) pairs. */
static void
find_duplicate_regions (const WbTrace *trace, GArray *pairs)
{
  g_autoptr (GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) bodies = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      GString      *body;
      const WbBsym *prev;
      if (!wb_bsym_is_fusion (b))
        continue;
      body = g_string_new (NULL);
      for (guint k = 0; k < b->n_subsymbols; k++)
        wb_bsym_print (b->subsymbols[k], 1, body);
      prev = g_hash_table_lookup (first, b->name);
      if (prev == NULL)
        {
          g_hash_table_insert (first, (gpointer) b->name, (gpointer) b);
          g_hash_table_insert (bodies, (gpointer) b->name, g_string_free (body, FALSE));
          continue;
        }
      if (strcmp (g_hash_table_lookup (bodies, b->name), body->str) != 0)
        {
          guint pair[2] = { prev->line, b->line };
          g_array_append_vals (pairs, pair, 2);
        }
      g_string_free (body, TRUE);
    }
}

static void
test_corpus_verifies (void)
{
  const char *root = wb_test_traces_dir ();
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GHashTable) no_meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  WbVerifyStats stats = { 0 };
  guint         n_traces = 0, n_duplicates = 0, n_buggy_files = 0;
  g_autoptr (GString) unexpected = g_string_new (NULL);

  if (root == NULL)
    {
      g_test_skip ("the real traces (../shared/traces or $WB_TRACES_DIR) are not available");
      return;
    }
  stats.no_meta_symbols = no_meta;
  files = wb_test_list_trace_files (root);
  g_assert_cmpuint (files->len, >, 300);
  for (guint f = 0; f < files->len; f++)
    {
      const char *path = g_ptr_array_index (files, f);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) traces = wb_trace_parse_file (path, &error);
      gboolean buggy = is_ce_loss_buggy_run (path, root);
      gboolean file_has_duplicates = FALSE;

      g_assert_no_error (error);
      for (guint t = 0; t < traces->len; t++)
        {
          const WbTrace *trace = g_ptr_array_index (traces, t);
          g_autoptr (GPtrArray) diags = wb_trace_verify_with_stats (trace, WB_VERIFY_DEFAULT, &stats);
          g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint));
          guint n_dup_errors = 0;

          n_traces++;
          find_duplicate_regions (trace, pairs);
          for (guint i = 0; i < diags->len; i++)
            {
              const WbDiagnostic *d = g_ptr_array_index (diags, i);
              g_autofree char    *s = wb_diagnostic_to_string (d);
              gboolean            is_dup = d->severity == WB_DIAGNOSTIC_ERROR && strstr (d->message, "two different fusion regions") != NULL;

              if (is_dup)
                {
                  n_dup_errors++;
                  continue;
                }
              if (d->severity == WB_DIAGNOSTIC_NOTE && strstr (d->message, "first region named") != NULL)
                continue;
              g_string_append_printf (unexpected, "%s\n", s);
            }

          /* every pair of same-named different regions is reported once, naming both lines, at the second */
          g_assert_cmpuint (n_dup_errors, ==, pairs->len / 2);
          for (guint p = 0; p < pairs->len; p += 2)
            {
              guint            l1 = g_array_index (pairs, guint, p), l2 = g_array_index (pairs, guint, p + 1);
              g_autofree char *both = g_strdup_printf ("(lines %u and %u)", l1, l2);
              gboolean         found = FALSE;
              for (guint i = 0; i < diags->len; i++)
                {
                  const WbDiagnostic *d = g_ptr_array_index (diags, i);
                  if (d->severity == WB_DIAGNOSTIC_ERROR && d->line == l2 && strstr (d->message, both) != NULL && strcmp (d->filename, path) == 0)
                    found = TRUE;
                }
              g_assert_true (found);
            }
          if (pairs->len > 0)
            file_has_duplicates = TRUE;
          n_duplicates += pairs->len / 2;
        }
      /* the bug lives exactly in the failing configuration's final and split traces */
      if (file_has_duplicates)
        {
          g_assert_true (buggy);
          n_buggy_files++;
        }
    }

  g_test_message ("%u traces: %u calls, %u derived, %u annotations compared, %u trusted, %u without meta",
                  n_traces, stats.n_calls, stats.n_derived, stats.n_compared, stats.n_trusted, stats.n_no_meta);
  if (unexpected->len > 0)
    g_test_message ("unexpected diagnostics:\n%s", unexpected->str);
  g_assert_cmpstr (unexpected->str, ==, "");

  /* ce_loss/forward_05, forward_06, backward_00 and the fused/split stages */
  g_assert_cmpuint (n_buggy_files, >=, 3);
  g_assert_cmpuint (n_duplicates, >=, 4);

  /* every symbol in the real traces has a meta function, and almost every call is derived */
  if (g_hash_table_size (no_meta) > 0)
    {
      GHashTableIter it;
      gpointer       key;
      g_hash_table_iter_init (&it, no_meta);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_test_message ("no meta: %s", (const char *) key);
    }
  g_assert_cmpuint (stats.n_no_meta, ==, 0);
  g_assert_cmpuint (stats.n_trusted, ==, 0);
  g_assert_cmpuint (stats.n_compared, >, 30000);
}

/* The top-level ce_loss final forward: the duplicate TorchCompile0 is named with both of its lines. */
static void
test_ce_loss_duplicate_regions (void)
{
  const char      *root = wb_test_traces_dir ();
  g_autofree char *fw = NULL, *bw = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) fw_traces = NULL, bw_traces = NULL;
  g_autoptr (GPtrArray) fw_diags = NULL, bw_diags = NULL;
  guint errors = 0;

  if (root == NULL)
    {
      g_test_skip ("the real traces are not available");
      return;
    }
  fw = g_build_filename (root, "ce_loss", "forward_06.py", NULL);
  bw = g_build_filename (root, "ce_loss", "backward_00.py", NULL);
  fw_traces = wb_trace_parse_file (fw, &error);
  g_assert_no_error (error);
  bw_traces = wb_trace_parse_file (bw, &error);
  g_assert_no_error (error);

  fw_diags = wb_trace_verify (g_ptr_array_index (fw_traces, 0), WB_VERIFY_DEFAULT);
  for (guint i = 0; i < fw_diags->len; i++)
    {
      const WbDiagnostic *d = g_ptr_array_index (fw_diags, i);
      if (d->severity != WB_DIAGNOSTIC_ERROR)
        continue;
      errors++;
      g_assert_cmpuint (d->line, ==, 13);
      g_assert_nonnull (strstr (d->message, "TorchCompile0"));
      g_assert_nonnull (strstr (d->message, "lines 11 and 13"));
    }
  g_assert_cmpuint (errors, ==, 1);

  /* the names-only check (no types) finds it too */
  bw_diags = wb_trace_verify (g_ptr_array_index (bw_traces, 0), WB_VERIFY_NO_TYPES);
  g_assert_cmpuint (wb_diagnostics_count_errors (bw_diags), ==, 1);
  for (guint i = 0; i < bw_diags->len; i++)
    {
      const WbDiagnostic *d = g_ptr_array_index (bw_diags, i);
      if (d->severity == WB_DIAGNOSTIC_ERROR)
        g_assert_nonnull (strstr (d->message, "TorchCompile1 (lines 28 and 58)"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbVerifier/corpus", test_corpus_verifies);
  g_test_add_func ("/compiler/WbVerifier/ce-loss-duplicate-regions", test_ce_loss_duplicate_regions);
  return g_test_run ();
}
