/* test-cli-programs.c — `profile` and `run` of a folder of several sub-programs (ThunderFX's subgraphs) on the cpu
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real zoo cases of two subgraphs (custom_op, graph_break_thunderfx). The sub-programs are counted from the folder
 * itself (its thunderfx_* directories); the summary's total is checked against the medians read back from each
 * sub-program's own JSON report; a copy with one line of one subgraph's final forward trace broken must fail
 * that row with the file and line, and only that row. */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

#define RUN(run, ...) wb_test_run_thunder_wb ((run), NULL, (const char *const[]){ __VA_ARGS__, NULL })

static char *
zoo_case (const char *name)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");

  return g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The folder's sub-programs: its thunderfx_* directories, sorted (element-type utf8) */
static GPtrArray *
list_subgraphs (const char *folder)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sub = g_build_filename (folder, name, NULL);

      if (g_str_has_prefix (name, "thunderfx_") && g_file_test (sub, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* Copies the tree @from to @to (regular files and folders) */
static void
copy_tree (const char *from, const char *to)
{
  g_autoptr (GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *src = g_build_filename (from, name, NULL), *dst = g_build_filename (to, name, NULL);
      g_autofree char *data = NULL;
      gsize            len = 0;

      if (g_file_test (src, G_FILE_TEST_IS_DIR))
        {
          copy_tree (src, dst);
          continue;
        }
      g_assert_true (g_file_get_contents (src, &data, &len, NULL));
      g_assert_true (g_file_set_contents (dst, data, (gssize) len, NULL));
    }
}

static guint
count_substrings (const char *text, const char *needle)
{
  guint n = 0;

  for (const char *p = text; (p = strstr (p, needle)) != NULL; p += strlen (needle))
    n++;
  return n;
}

static JsonObject *
load_json (JsonParser *parser, const char *path)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

/* The summary's row of @name (JSON "programs"[]) */
static JsonObject *
find_row (JsonObject *summary, const char *name)
{
  JsonArray *rows = json_object_get_array_member (summary, "programs");

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (g_strcmp0 (json_object_get_string_member (row, "name"), name) == 0)
        return row;
    }
  g_assert_not_reached ();
}

/* A sub-program's own report's time, as the summary counts it: its unprofiled median when there is one, else the
 * iteration's median */
static double
report_median_ms (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *report = load_json (parser, path);
  JsonObject *iteration = json_object_get_object_member (report, "iteration");

  g_assert_cmpstr (json_object_get_string_member (report, "schema"), ==, "thunder-wb/profile-report");
  if (json_object_has_member (iteration, "unprofiled_median_ms"))
    return json_object_get_double_member (iteration, "unprofiled_median_ms");
  return json_object_get_double_member (iteration, "median_ms");
}

static void
check_profile (const char *case_name)
{
  g_autofree char *folder = zoo_case (case_name);
  g_autofree char *out = NULL, *json = NULL, *md = NULL, *text = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (WbTestRun) run = { 0 };
  JsonObject *summary;
  double      sum = 0;

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  names = list_subgraphs (folder);
  g_assert_cmpuint (names->len, >=, 2);
  out = g_dir_make_tmp ("wb-programs-XXXXXX", NULL);
  json = g_build_filename (out, "summary.json", NULL);
  md = g_build_filename (out, "summary.md", NULL);
  RUN (&run, "--headless", "profile", folder, "--device", "cpu", "--iters", "3", "--warmup", "1", "--report", json, "--report", md);
  g_assert_cmpint (run.status, ==, 0);
  summary = load_json (parser, json);
  g_assert_cmpstr (json_object_get_string_member (summary, "schema"), ==, "thunder-wb/programs-report");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (summary, "programs")), ==, names->len);
  g_assert_cmpint (json_object_get_int_member (summary, "failed"), ==, 0);
  g_assert_true (g_file_get_contents (md, &text, NULL, NULL));
  for (guint i = 0; i < names->len; i++)
    {
      const char      *name = names->pdata[i];
      g_autofree char *own = g_build_filename (out, name, "summary.json", NULL);
      g_autofree char *own_md = g_build_filename (out, name, "summary.md", NULL);
      g_autofree char *escaped = wb_output_escape_text (name, -1, WB_ESCAPE_MARKDOWN);
      JsonObject      *row = find_row (summary, name);
      double           median = report_median_ms (own);

      g_assert_true (g_file_test (own_md, G_FILE_TEST_IS_REGULAR));
      g_assert_cmpstr (json_object_get_string_member (row, "status"), ==, "ok");
      g_assert_cmpstr (json_object_get_string_member (row, "device"), ==, "cpu");
      g_assert_true (g_str_has_prefix (json_object_get_string_member (row, "stage_file"), name));
      g_assert_cmpfloat (median, >, 0);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (row, "median_ms"), median, 1e-9);
      g_assert_nonnull (strstr (text, escaped)); /* the Markdown summary lists it too */
      sum += median;
    }
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (summary, "total_ms"), sum, 1e-9);
  g_assert_nonnull (strstr (json_object_get_string_member (summary, "total_is"), "not timed"));
  wb_test_remove_tree (out);
}

static void
test_profile_custom_op (void)
{
  check_profile ("custom_op");
}

static void
test_profile_graph_break (void)
{
  check_profile ("graph_break_thunderfx");
}

/* Breaks line @line of @path: its first "(" doubled, so that the call's arguments never close. */
static void
break_line (const char *path, guint line)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *joined = NULL;
  g_autoptr (GError) error = NULL;
  char *paren;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, line);
  paren = strchr (lines[line - 1], '(');
  g_assert_nonnull (paren);
  {
    g_autofree char *broken = g_strdup_printf ("%.*s((%s", (int) (paren - lines[line - 1]), lines[line - 1], paren + 1);

    g_free (lines[line - 1]);
    lines[line - 1] = g_steal_pointer (&broken);
  }
  joined = g_strjoinv ("\n", lines);
  g_file_set_contents (path, joined, -1, &error);
  g_assert_no_error (error);
}

/* The first line of @path's body that calls something (after the def line, not a comment): its number */
static guint
first_call_line (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean in_body = FALSE;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i] + strspn (lines[i], " ");

      if (g_str_has_prefix (lines[i], "def "))
        in_body = TRUE;
      else if (in_body && *l != '#' && *l != '\0' && strstr (l, " = ") != NULL && strchr (l, '(') != NULL)
        return i + 1;
    }
  g_assert_not_reached ();
}

/* The last forward_NN.py of @dir: the file of its default stage */
static char *
last_forward (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *best = NULL;
  const char      *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "forward_") && g_str_has_suffix (name, ".py") && (best == NULL || strcmp (name, best) > 0))
      g_free (best), best = g_strdup (name);
  g_assert_nonnull (best);
  return g_build_filename (dir, best, NULL);
}

/* A copy of custom_op with one line of its second subgraph's final forward broken: profile and run still run the
 * first, fail the second naming FILE:LINE, and exit 2 */
static void
test_broken_subprogram (void)
{
  g_autofree char *folder = zoo_case ("custom_op");
  g_autofree char *tmp = NULL, *copy = NULL, *json = NULL, *broken_dir = NULL, *file = NULL, *where = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (WbTestRun) run = { 0 };
  JsonObject *summary, *ok_row, *bad_row;
  guint       line;

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  tmp = g_dir_make_tmp ("wb-programs-broken-XXXXXX", NULL);
  copy = g_build_filename (tmp, "custom_op", NULL);
  copy_tree (folder, copy);
  names = list_subgraphs (copy);
  g_assert_cmpuint (names->len, ==, 2);
  broken_dir = g_build_filename (copy, (const char *) names->pdata[1], NULL);
  file = last_forward (broken_dir);
  line = first_call_line (file);
  break_line (file, line);
  where = g_strdup_printf ("%s:%u:", file, line);

  json = g_build_filename (tmp, "out", "summary.json", NULL);
  RUN (&run, "--headless", "profile", copy, "--device", "cpu", "--iters", "2", "--warmup", "1", "--report", json);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, where));
  summary = load_json (parser, json);
  g_assert_cmpint (json_object_get_int_member (summary, "failed"), ==, 1);
  ok_row = find_row (summary, names->pdata[0]);
  bad_row = find_row (summary, names->pdata[1]);
  g_assert_cmpstr (json_object_get_string_member (ok_row, "status"), ==, "ok");
  g_assert_cmpfloat (json_object_get_double_member (ok_row, "median_ms"), >, 0);
  g_assert_cmpstr (json_object_get_string_member (bad_row, "status"), ==, "failed");
  g_assert_nonnull (strstr (json_object_get_string_member (bad_row, "error"), where));
  g_assert_true (json_node_is_null (json_object_get_member (bad_row, "median_ms")));
  /* the total is the rows that ran */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (summary, "total_ms"),
                                  json_object_get_double_member (ok_row, "median_ms"), 1e-9);
  wb_test_run_clear (&run);

  RUN (&run, "--headless", "run", copy);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, where));
  g_assert_nonnull (strstr (run.out, "== sub-program 2 of 2"));
  wb_test_remove_tree (tmp);
}

/* run of the folder runs each sub-program; --inputs CASE/tensors.safetensors is each one's recorded inputs, and
 * --save-outputs then --compare of the same files agree exactly */
static void
test_run_each (void)
{
  g_autofree char *folder = zoo_case ("graph_break_thunderfx");
  g_autofree char *tmp = NULL, *inputs = NULL, *saved = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_auto (WbTestRun) run = { 0 };

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  names = list_subgraphs (folder);
  tmp = g_dir_make_tmp ("wb-programs-run-XXXXXX", NULL);
  inputs = g_build_filename (folder, "tensors.safetensors", NULL);
  saved = g_build_filename (tmp, "out.safetensors", NULL);
  RUN (&run, "--headless", "run", folder, "--inputs", inputs, "--save-outputs", saved);
  g_assert_cmpint (run.status, ==, 0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *own = g_build_filename (tmp, (const char *) names->pdata[i], "out.safetensors", NULL);
      g_autofree char *recorded = g_build_filename (folder, (const char *) names->pdata[i], "tensors.safetensors", NULL);

      g_assert_true (g_file_test (own, G_FILE_TEST_IS_REGULAR));
      g_assert_nonnull (strstr (run.out, recorded)); /* "inputs: N of N from FOLDER/NAME/tensors.safetensors" */
    }
  wb_test_run_clear (&run);
  RUN (&run, "--headless", "run", folder, "--inputs", inputs, "--compare", saved);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpuint (count_substrings (run.out, "all within tolerance"), ==, names->len);
  wb_test_remove_tree (tmp);
}

/* The workbench's rows of a `stages --recompile` table: "#  kind  index  bsyms  label" (the ms column, a
 * measurement, left out) */
static GPtrArray *
workbench_rows (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr (GPtrArray) w = g_ptr_array_new ();

      for (guint k = 0; f[k] != NULL; k++)
        if (f[k][0] != '\0')
          g_ptr_array_add (w, f[k]);
      if (w->len >= 7 && g_str_equal (w->pdata[3], "workbench"))
        g_ptr_array_add (rows, g_strdup_printf ("%s %s %s %s %s", (char *) w->pdata[0], (char *) w->pdata[1], (char *) w->pdata[2],
                                                (char *) w->pdata[4], (char *) w->pdata[6]));
    }
  return rows;
}

/* stages --recompile of a folder of one ThunderFX subgraph (swin_tiny, as densenet121) recomputes that subgraph's
 * program: the same stages as of its own folder; a folder of several says to pick one */
static void
test_stages_recompile (void)
{
  g_autofree char *folder = zoo_case ("swin_tiny");
  g_autofree char *sub = g_build_filename (folder, "thunderfx_g0_GraphModule", NULL);
  g_autofree char *several = zoo_case ("graph_break_thunderfx");
  g_autoptr (GPtrArray) a = NULL;
  g_autoptr (GPtrArray) b = NULL;
  g_auto (WbTestRun) run = { 0 };

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  RUN (&run, "--headless", "stages", folder, "--recompile");
  g_assert_cmpint (run.status, ==, 0);
  a = workbench_rows (run.out);
  wb_test_run_clear (&run);
  RUN (&run, "--headless", "stages", sub, "--recompile");
  g_assert_cmpint (run.status, ==, 0);
  b = workbench_rows (run.out);
  wb_test_run_clear (&run);
  g_assert_cmpuint (a->len, >=, 5);
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (a->pdata[i], ==, b->pdata[i]);
  RUN (&run, "--headless", "stages", several, "--recompile");
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "a folder of 2 programs"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/cli-programs/profile/custom_op", test_profile_custom_op);
  g_test_add_func ("/app/cli-programs/profile/graph_break_thunderfx", test_profile_graph_break);
  g_test_add_func ("/app/cli-programs/broken-subprogram", test_broken_subprogram);
  g_test_add_func ("/app/cli-programs/run-each", test_run_each);
  g_test_add_func ("/app/cli-programs/stages-recompile", test_stages_recompile);
  return g_test_run ();
}
