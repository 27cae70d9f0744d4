/* test-case-subset.c — a sub-program's case from its parent's traces equals the case loaded from its folder
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `profile CASE` of a model of several sub-programs (ThunderFX's subgraphs, one folder each) loads CASE once,
 * every sub-folder with it, and builds each sub-program's case from those traces (wb_case_load_subset) instead of
 * parsing its folder again. For every sub-program of the zoo's llama, gpt2 and llama_32layer, that case must be
 * the one wb_case_load of the sub-folder gives: the same entries (kind, index, label, path, printed text), the
 * same inputs (names, types, index bounds), stages and default stage; and for a copy of llama with one trace
 * file broken, the same failure (the parser's FILE:LINE:COL). */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-executors.h"
#include "wb-test-common.h"

static char *
zoo_case (const char *name)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");
  return g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
}

static void
assert_same_case (const WbCase *a, const WbCase *b)
{
  WbTraceSet *sa = wb_case_get_trace_set (a), *sb = wb_case_get_trace_set (b);

  g_assert_cmpstr (wb_case_get_path (a), ==, wb_case_get_path (b));
  g_assert_cmpuint (wb_trace_set_get_n_entries (sa), ==, wb_trace_set_get_n_entries (sb));
  for (guint i = 0; i < wb_trace_set_get_n_entries (sa); i++)
    {
      const WbTraceEntry *x = wb_trace_set_get_entry (sa, i), *y = wb_trace_set_get_entry (sb, i);
      g_autofree char    *tx = wb_trace_to_string (x->trace);
      g_autofree char    *ty = wb_trace_to_string (y->trace);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->index, ==, y->index);
      g_assert_cmpstr (x->subset, ==, y->subset);
      g_assert_cmpstr (x->label, ==, y->label);
      g_assert_cmpstr (x->path, ==, y->path);
      g_assert_cmpstr (tx, ==, ty);
    }
  g_assert_cmpuint (wb_trace_set_get_n_failures (sa), ==, wb_trace_set_get_n_failures (sb));
  for (guint i = 0; i < wb_trace_set_get_n_failures (sa); i++)
    {
      g_assert_cmpstr (wb_trace_set_get_failure (sa, i)->path, ==, wb_trace_set_get_failure (sb, i)->path);
      g_assert_cmpstr (wb_trace_set_get_failure (sa, i)->message, ==, wb_trace_set_get_failure (sb, i)->message);
    }
  g_assert_cmpint (wb_trace_set_get_world_size (sa), ==, wb_trace_set_get_world_size (sb));
  g_assert_cmpuint (wb_case_get_n_inputs (a), ==, wb_case_get_n_inputs (b));
  for (guint i = 0; i < wb_case_get_n_inputs (a); i++)
    {
      const WbCaseInput *x = wb_case_get_input (a, i), *y = wb_case_get_input (b, i);
      g_autofree char   *ta = wb_type_to_string (&x->type);
      g_autofree char   *tb = wb_type_to_string (&y->type);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->trace_name, ==, y->trace_name);
      g_assert_cmpstr (ta, ==, tb);
      g_assert_cmpint (x->index_bound, ==, y->index_bound);
    }
  g_assert_cmpuint (wb_case_get_stages (a)->len, ==, wb_case_get_stages (b)->len);
  for (guint i = 0; i < wb_case_get_stages (a)->len; i++)
    g_assert_cmpstr (((WbCaseStage *) wb_case_get_stages (a)->pdata[i])->label, ==, ((WbCaseStage *) wb_case_get_stages (b)->pdata[i])->label);
  g_assert_true ((wb_case_get_default_stage (a) == NULL) == (wb_case_get_default_stage (b) == NULL));
  if (wb_case_get_default_stage (a) != NULL)
    g_assert_cmpstr (wb_case_get_default_stage (a)->label, ==, wb_case_get_default_stage (b)->label);
}

/* Every sub-program of @folder: from the parent's traces and from disk */
static guint
check_folder (const char *folder)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) parent = wb_case_load (folder, &error);
  g_autoptr (GPtrArray) names = NULL;

  g_assert_no_error (error);
  names = wb_case_list_subprograms (parent);
  g_assert_nonnull (names);
  g_assert_cmpuint (names->len, >, 1);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *dir = g_build_filename (folder, (const char *) names->pdata[i], NULL);
      g_autoptr (WbCase) shared = wb_case_load_subset (parent, names->pdata[i], &error);
      g_autoptr (WbCase) read = NULL;
      g_assert_no_error (error);
      read = wb_case_load (dir, &error);
      g_assert_no_error (error);
      assert_same_case (shared, read);
      /* shared, not parsed again: the same WbTrace as the parent's */
      g_assert_true (wb_trace_set_get_entry (wb_case_get_trace_set (shared), 0)->trace !=
                     wb_trace_set_get_entry (wb_case_get_trace_set (read), 0)->trace);
    }
  return names->len;
}

static void
test_zoo (gconstpointer data)
{
  g_autofree char *folder = zoo_case (data);

  g_assert_cmpuint (check_folder (folder), >, 1);
}

static void
copy_tree (const char *from, const char *to)
{
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);
      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        copy_tree (a, b);
      else
        {
          g_autofree char *text = NULL;
          gsize            len;
          g_assert_true (g_file_get_contents (a, &text, &len, NULL));
          g_assert_true (g_file_set_contents (b, text, (gssize) len, NULL));
        }
    }
}

/* A sub-program with a trace file that does not parse: the same failure both ways; its folder's other files load */
static void
test_broken_file (void)
{
  g_autofree char *from = zoo_case ("llama");
  g_autofree char *tmp = g_dir_make_tmp ("wb-case-subset-XXXXXX", NULL);
  g_autofree char *to = g_build_filename (tmp, "llama", NULL);
  g_autofree char *broken = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) parent = NULL;
  g_autofree char *name = NULL;

  copy_tree (from, to);
  {
    g_autoptr (WbCase) probe = wb_case_load (to, &error);
    g_autoptr (GPtrArray) names = NULL;
    g_assert_no_error (error);
    names = wb_case_list_subprograms (probe); /* its names are the case's */
    g_assert_nonnull (names);
    name = g_strdup (names->pdata[1]);
  }
  broken = g_build_filename (to, name, "forward_00.py", NULL);
  g_assert_true (g_file_test (broken, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_set_contents (broken, "def computation(x:\n  return x\n", -1, NULL));
  parent = wb_case_load (to, &error);
  g_assert_no_error (error);
  {
    g_autofree char *dir = g_build_filename (to, name, NULL);
    g_autoptr (WbCase) shared = wb_case_load_subset (parent, name, &error);
    g_autoptr (WbCase) read = NULL;
    g_assert_no_error (error);
    read = wb_case_load (dir, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (wb_trace_set_get_n_failures (wb_case_get_trace_set (shared)), ==, 1);
    assert_same_case (shared, read);
  }
  wb_test_remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/zoo/case-subset/llama", "llama", test_zoo);
  g_test_add_data_func ("/zoo/case-subset/gpt2", "gpt2", test_zoo);
  g_test_add_data_func ("/zoo/case-subset/llama_32layer", "llama_32layer", test_zoo);
  g_test_add_func ("/zoo/case-subset/broken-file", test_broken_file);
  return g_test_run ();
}
