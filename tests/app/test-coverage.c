/* test-coverage.c — runs the built thunder-wb's `coverage` on real traces: the JSON report against the
 * folders and its own per-case statuses, a corrupted trace file, timeouts, the cpu budget, bad usage
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-test-common.h"

static const char *const levels[] = { "load", "check", "roundtrip", "recompile", "run-cpu", "run-gpu" };

/* RUN: thunder-wb with the arguments, in the C locale (wb_test_run_thunder_wb). */
#define RUN(run, ...) wb_test_run_thunder_wb ((run), NULL, (const char *const[]){ __VA_ARGS__, NULL })

/* The report's root object, or a test failure naming what did not parse (transfer full). */
static JsonParser *
parse_report (const char *text, gsize len)
{
  JsonParser *parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;

  if (!json_parser_load_from_data (parser, text, (gssize) len, &error))
    g_error ("the report is not JSON (%s):\n%.2000s", error->message, text);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "thunder-wb/coverage");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  return parser;
}

static JsonObject *
report_root (JsonParser *parser)
{
  return json_node_get_object (json_parser_get_root (parser));
}

/* The case named @name in @root, or NULL. */
static JsonObject *
find_case (JsonObject *root, const char *name)
{
  JsonArray *cases = json_object_get_array_member (root, "cases");

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);

      if (strcmp (json_object_get_string_member (c, "name"), name) == 0)
        return c;
    }
  return NULL;
}

static JsonObject *
case_level (JsonObject *kase, const char *level)
{
  return json_object_get_object_member (json_object_get_object_member (kase, "levels"), level);
}

static const char *
level_status (JsonObject *kase, const char *level)
{
  return json_object_get_string_member (case_level (kase, level), "status");
}

/* -- what the folders hold, found here independently of the program -------------------------------- */

static gboolean
is_trace_file_name (const char *name)
{
  return g_regex_match_simple ("^(prologue|forward|backward|epilogue)_[0-9]+\\.py$", name, 0, 0);
}

static guint
count_py (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint       n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      n += g_str_has_suffix (name, ".py") && g_file_test (path, G_FILE_TEST_IS_REGULAR);
    }
  return n;
}

/* Every folder at or below @dir holding a trace file (stages/ excluded): name (relative) -> its number
 * of trace files (its own and its stages/'s). */
static void
expected_cases (const char *dir, const char *name, GHashTable *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;
  gboolean    is_case = FALSE;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, entry, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && strcmp (entry, "stages") != 0 && entry[0] != '.')
        {
          g_autofree char *child = *name ? g_strconcat (name, "/", entry, NULL) : g_strdup (entry);

          expected_cases (path, child, out);
        }
      else if (is_trace_file_name (entry))
        is_case = TRUE;
    }
  if (is_case)
    {
      g_autofree char *stages = g_build_filename (dir, "stages", NULL);

      g_hash_table_insert (out, g_strdup (name), GUINT_TO_POINTER (count_py (dir) + count_py (stages)));
    }
}

/* Recounts the summary of level @level from the cases and compares. */
static void
assert_summary_level (JsonObject *root, const char *level, gboolean file_level)
{
  JsonArray  *cases = json_object_get_array_member (root, "cases");
  JsonObject *s = json_object_get_object_member (json_object_get_object_member (json_object_get_object_member (root, "summary"), "levels"), level);
  JsonArray  *groups = json_object_get_array_member (s, "not_run");
  gint64      ok = 0, failed = 0, not_run = 0, files_ok = 0, files = 0, grouped = 0;

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *r = case_level (json_array_get_object_element (cases, i), level);
      const char *status = json_object_get_string_member (r, "status");

      if (strcmp (status, "not-run") == 0)
        {
          not_run++;
          g_assert_nonnull (json_object_get_string_member (r, "reason"));
          continue;
        }
      if (strcmp (status, "ok") == 0)
        ok++;
      else
        {
          g_assert_cmpstr (status, ==, "fail");
          failed++;
          g_assert_nonnull (json_object_get_string_member (r, "error"));
        }
      if (file_level)
        {
          files_ok += json_object_get_int_member (r, "files_ok");
          files += json_object_get_int_member (r, "files");
        }
    }
  g_assert_cmpint (json_object_get_int_member (s, "cases_ok"), ==, ok);
  g_assert_cmpint (json_object_get_int_member (s, "cases_failed"), ==, failed);
  g_assert_cmpint (json_object_get_int_member (s, "cases_tried"), ==, ok + failed);
  g_assert_cmpint (json_object_get_int_member (s, "cases_not_run"), ==, not_run);
  for (guint i = 0; i < json_array_get_length (groups); i++)
    grouped += json_object_get_int_member (json_array_get_object_element (groups, i), "cases");
  g_assert_cmpint (grouped, ==, not_run);
  if (ok + failed > 0)
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (s, "cases_percent"), 100.0 * ok / (ok + failed), 0.051);
  if (file_level)
    {
      g_assert_cmpint (json_object_get_int_member (s, "files_ok"), ==, files_ok);
      g_assert_cmpint (json_object_get_int_member (s, "files"), ==, files);
    }
}

/* A failed file level's error names its first failed file with a line and column. */
static void
assert_error_located (JsonObject *kase, const char *level)
{
  JsonObject      *r = case_level (kase, level);
  JsonArray       *failed = json_object_get_array_member (r, "failed_files");
  g_autofree char *first = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *pattern = NULL;

  g_assert_cmpuint (json_array_get_length (failed), >, 0);
  first = g_build_filename (json_object_get_string_member (kase, "path"), json_array_get_string_element (failed, 0), NULL);
  escaped = g_regex_escape_string (first, -1);
  pattern = g_strdup_printf ("^%s:[0-9]+:[0-9]+: ", escaped);
  if (!g_regex_match_simple (pattern, json_object_get_string_member (r, "error"), 0, 0))
    g_error ("%s at %s: the error does not name %s:LINE:COL: %s", json_object_get_string_member (kase, "name"), level, first,
             json_object_get_string_member (r, "error"));
}

/* coverage of ../shared/traces: every case folder listed, with its files; the summary is the cases'. */
static void
test_shared_traces (void)
{
  g_auto (WbTestRun) run = { 0 };
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonObject *root, *summary;
  JsonArray  *cases;
  const char *dir = wb_test_traces_dir ();
  gboolean    all_ok = TRUE;

  if (dir == NULL)
    {
      g_test_skip ("no real traces (WB_TRACES_DIR)");
      return;
    }
  RUN (&run, "--headless", "coverage", dir, "--levels", "load,check,roundtrip", "--format", "json");
  g_assert_cmpint (run.status, !=, 2);
  parser = parse_report (run.out, strlen (run.out));
  root = report_root (parser);
  cases = json_object_get_array_member (root, "cases");

  expected_cases (dir, "", expected);
  g_assert_cmpuint (g_hash_table_size (expected), >=, 7);
  g_assert_cmpuint (json_array_get_length (cases), ==, g_hash_table_size (expected));
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *k = json_array_get_object_element (cases, i);
      const char *name = json_object_get_string_member (k, "name");
      gpointer    n_files;

      if (!g_hash_table_lookup_extended (expected, name, NULL, &n_files))
        g_error ("case %s is not a folder with trace files under %s", name, dir);
      if (i > 0)
        g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (cases, i - 1), "name"), <, name);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (k, "files")), ==, GPOINTER_TO_UINT (n_files));
      g_assert_false (json_object_has_member (json_object_get_object_member (k, "levels"), "recompile"));
      for (guint l = 0; l < 3; l++)
        {
          const char *status = level_status (k, levels[l]);

          all_ok &= strcmp (status, "ok") == 0;
          if (strcmp (status, "not-run") != 0)
            g_assert_cmpint (json_object_get_int_member (case_level (k, levels[l]), "files"), ==, GPOINTER_TO_UINT (n_files));
          if (strcmp (status, "fail") == 0)
            assert_error_located (k, levels[l]);
          /* a level after a failed one is not run */
          if (strcmp (status, "fail") == 0)
            for (guint m = l + 1; m < 3; m++)
              g_assert_cmpstr (json_object_get_string_member (case_level (k, levels[m]), "reason"), ==, "an earlier level failed");
        }
    }
  for (guint l = 0; l < 3; l++)
    assert_summary_level (root, levels[l], TRUE);
  summary = json_object_get_object_member (root, "summary");
  g_assert_cmpint (json_object_get_int_member (summary, "cases"), ==, json_array_get_length (cases));
  g_assert_cmpint (json_object_get_boolean_member (summary, "passed"), ==, all_ok);
  g_assert_cmpint (run.status, ==, all_ok ? 0 : 1);
  /* every file of every case loads (DESIGN.md: every trace Thunder prints loads) */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_object_get_object_member (summary, "levels"), "load"), "files_ok"), ==,
                   json_object_get_int_member (json_object_get_object_member (json_object_get_object_member (summary, "levels"), "load"), "files"));
}

/* copy_tree: copies the folder @from to @to (created), files byte for byte. */
static void
copy_tree (const char *from, const char *to)
{
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *src = g_build_filename (from, name, NULL);
      g_autofree char *dst = g_build_filename (to, name, NULL);

      if (g_file_test (src, G_FILE_TEST_IS_DIR))
        copy_tree (src, dst);
      else
        {
          g_autoptr (GError) error = NULL;
          gsize            len = 0;
          g_autofree char *data = wb_test_read_file (src, &len);

          g_file_set_contents (dst, data, (gssize) len, &error);
          g_assert_no_error (error);
        }
    }
}

/* Truncates @path in the middle of a call line about halfway down: right after its "(". Returns that
 * line's number. */
static guint
truncate_mid_line (const char *path)
{
  g_autofree char *text = wb_test_read_file (path, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  for (guint i = n / 2; i < n; i++)
    {
      const char *paren = strchr (lines[i], '(');

      if (lines[i][0] == ' ' && strstr (lines[i], " = ") != NULL && paren != NULL && lines[i][strspn (lines[i], " ")] != '#')
        {
          for (guint j = 0; j < i; j++)
            g_string_append_printf (out, "%s\n", lines[j]);
          g_string_append_len (out, lines[i], paren + 1 - lines[i]);
          g_file_set_contents (path, out->str, (gssize) out->len, &error);
          g_assert_no_error (error);
          return i + 1;
        }
    }
  g_error ("%s: no call line in its second half", path);
  return 0;
}

/* A copy of a real case with one file cut in the middle of a line: that case fails at load naming the
 * file and a line; its sub-set still passes; exit 1; -o writes the report and the summary is printed. */
static void
test_corrupted_file (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("thunder-wb-coverage-XXXXXX", NULL);
  g_autofree char *source = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *copy = g_build_filename (tmp, "mlp_small", NULL);
  g_autofree char *broken = g_build_filename (copy, "forward_03.py", NULL);
  g_autofree char *report = g_build_filename (tmp, "report.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *pattern = NULL;
  g_autofree char *escaped = NULL;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GRegex) regex = NULL;
  g_autofree char *number = NULL;
  g_auto (WbTestRun) run = { 0 };
  JsonObject *root, *bad, *good, *load;
  guint       cut_line, line;
  gsize       len = 0;

  g_assert_nonnull (tmp);
  copy_tree (source, copy);
  cut_line = truncate_mid_line (broken);

  RUN (&run, "--headless", "coverage", tmp, "--levels", "load,check,roundtrip", "-o", report);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "## SUMMARY"));
  g_assert_null (strstr (run.out, "| mlp_small |")); /* the cases' table went to the file only */
  text = wb_test_read_file (report, &len);
  parser = parse_report (text, len);
  root = report_root (parser);

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "cases")), ==, 2);
  bad = find_case (root, "mlp_small");
  good = find_case (root, "mlp_small/default_execs");
  g_assert_nonnull (bad);
  g_assert_nonnull (good);
  load = case_level (bad, "load");
  g_assert_cmpstr (json_object_get_string_member (load, "status"), ==, "fail");
  g_assert_cmpint (json_object_get_int_member (load, "files_ok"), ==, json_object_get_int_member (load, "files") - 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (load, "failed_files")), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (load, "failed_files"), 0), ==, "forward_03.py");
  escaped = g_regex_escape_string (broken, -1);
  pattern = g_strdup_printf ("^%s:([0-9]+):[0-9]+: ", escaped);
  regex = g_regex_new (pattern, 0, 0, NULL);
  if (!g_regex_match (regex, json_object_get_string_member (load, "error"), 0, &match))
    g_error ("the load error does not name %s:LINE:COL: %s", broken, json_object_get_string_member (load, "error"));
  number = g_match_info_fetch (match, 1);
  line = (guint) g_ascii_strtoull (number, NULL, 10);
  g_assert_cmpuint (line, >=, cut_line);
  g_assert_cmpuint (line, <=, cut_line + 1);
  g_assert_cmpstr (level_status (bad, "check"), ==, "not-run");
  g_assert_cmpstr (json_object_get_string_member (case_level (bad, "roundtrip"), "reason"), ==, "an earlier level failed");
  for (guint l = 0; l < 3; l++)
    g_assert_cmpstr (level_status (good, levels[l]), ==, "ok");
  for (guint l = 0; l < 3; l++)
    assert_summary_level (root, levels[l], TRUE);
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (root, "summary"), "passed"));

  /* the same folder without the broken file passes: exit 0 */
  g_assert_cmpint (g_unlink (broken), ==, 0);
  wb_test_run_clear (&run);
  RUN (&run, "--headless", "coverage", tmp, "--levels", "load,check,roundtrip");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "| mlp_small | ok | ok | ok |"));

  /* a broken file of the sub-set is the sub-set's failure only: the case above recompiles without it */
  {
    g_autofree char *sub = g_build_filename (copy, "default_execs", "forward_02.py", NULL);
    g_autoptr (JsonParser) again = NULL;

    truncate_mid_line (sub);
    wb_test_run_clear (&run);
    RUN (&run, "--headless", "coverage", tmp, "--levels", "load,recompile", "--format", "json");
    g_assert_cmpint (run.status, ==, 1);
    again = parse_report (run.out, strlen (run.out));
    root = report_root (again);
    g_assert_cmpstr (level_status (find_case (root, "mlp_small"), "load"), ==, "ok");
    g_assert_cmpstr (level_status (find_case (root, "mlp_small"), "recompile"), ==, "ok");
    g_assert_cmpstr (level_status (find_case (root, "mlp_small/default_execs"), "load"), ==, "fail");
    g_assert_cmpstr (level_status (find_case (root, "mlp_small/default_execs"), "recompile"), ==, "not-run");
  }
  wb_test_remove_tree (tmp);
}

/* run-cpu: a case above --cpu-budget-gflop is not run; one that runs past --timeout is not run either,
 * and the command returns soon after the timeout (its child killed); never counted as passed. */
static void
test_run_cpu_not_run (void)
{
  g_autofree char *llama = NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (JsonParser) parser = NULL;
  g_auto (WbTestRun) run = { 0 };
  JsonObject *r, *mlp_case;
  gint64      start;

  /* the sample runs and compares with its tensors.safetensors */
  RUN (&run, "--headless", "coverage", mlp, "--levels", "run-cpu", "--format", "json");
  parser = parse_report (run.out, strlen (run.out));
  mlp_case = find_case (report_root (parser), "mlp_small");
  g_assert_nonnull (mlp_case);
  g_assert_cmpstr (level_status (mlp_case, "run-cpu"), ==, "ok");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (case_level (mlp_case, "run-cpu"), "detail"), "6 of 6 results compared"));
  g_clear_object (&parser);
  wb_test_run_clear (&run);

  if (wb_test_traces_dir () == NULL)
    {
      g_test_skip ("no real traces (WB_TRACES_DIR): llama_layer is needed");
      return;
    }
  llama = g_build_filename (wb_test_traces_dir (), "llama_layer", "forward_06.py", NULL);
  RUN (&run, "--headless", "coverage", llama, "--levels", "run-cpu", "--format", "json");
  g_assert_cmpint (run.status, ==, 1);
  parser = parse_report (run.out, strlen (run.out));
  r = case_level (find_case (report_root (parser), "forward_06.py"), "run-cpu");
  g_assert_cmpstr (json_object_get_string_member (r, "status"), ==, "not-run");
  g_assert_cmpstr (json_object_get_string_member (r, "reason"), ==, "too costly for the cpu");
  g_assert_nonnull (strstr (json_object_get_string_member (r, "detail"), "GFLOP"));
  g_clear_object (&parser);
  wb_test_run_clear (&run);

  start = g_get_monotonic_time ();
  RUN (&run, "--headless", "coverage", llama, "--levels", "run-cpu", "--cpu-budget-gflop", "1e9", "--timeout", "1", "--format", "json");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
  g_assert_cmpint (run.status, ==, 1);
  parser = parse_report (run.out, strlen (run.out));
  r = case_level (find_case (report_root (parser), "forward_06.py"), "run-cpu");
  g_assert_cmpstr (json_object_get_string_member (r, "status"), ==, "not-run");
  g_assert_cmpstr (json_object_get_string_member (r, "reason"), ==, "timed out");
}

/* run-gpu: ok only where CUDA runs; elsewhere not run with the reason, and exit 1. */
static void
test_run_gpu (void)
{
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (JsonParser) parser = NULL;
  g_auto (WbTestRun) run = { 0 };
  JsonObject *r;

  RUN (&run, "--headless", "coverage", mlp, "--levels", "run-gpu", "--format", "json");
  parser = parse_report (run.out, strlen (run.out));
  r = case_level (find_case (report_root (parser), "mlp_small"), "run-gpu");
  if (strcmp (json_object_get_string_member (r, "status"), "ok") == 0)
    {
      g_assert_cmpint (run.status, ==, 0);
      return;
    }
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (r, "status"), ==, "not-run");
  g_assert_cmpstr (json_object_get_string_member (r, "reason"), ==, "CUDA unavailable");
  g_assert_cmpuint (strlen (json_object_get_string_member (r, "detail")), >, 0);
}

/* A rank folder of a world of 2 (DDP recorded per rank): neither level runs one rank alone, whose collectives
 * would run on a communicator of one, and the reason names the multi-GPU profile; not a failure, never a pass. */
static void
test_ranks_not_run (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *ddp = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "ddp_llama_w2", NULL);
  g_autoptr (JsonParser) parser = NULL;
  g_auto (WbTestRun) run = { 0 };
  const char *ranks[] = { "rank0", "rank1" };

  if (!g_file_test (ddp, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  RUN (&run, "--headless", "coverage", ddp, "--levels", "load,run-cpu,run-gpu", "--format", "json");
  g_assert_cmpint (run.status, ==, 1);
  parser = parse_report (run.out, strlen (run.out));
  for (guint i = 0; i < G_N_ELEMENTS (ranks); i++)
    {
      JsonObject *c = find_case (report_root (parser), ranks[i]);
      g_assert_nonnull (c);
      g_assert_cmpstr (level_status (c, "load"), ==, "ok");
      for (guint l = 0; l < 2; l++)
        {
          JsonObject *r = case_level (c, l == 0 ? "run-cpu" : "run-gpu");
          g_assert_cmpstr (json_object_get_string_member (r, "status"), ==, "not-run");
          g_assert_cmpstr (json_object_get_string_member (r, "reason"), ==, "a rank of a larger world (one process runs one rank)");
          g_assert_nonnull (strstr (json_object_get_string_member (r, "detail"), "world size 2"));
        }
    }
}

static void
test_bad_usage (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("thunder-wb-coverage-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (tmp, "no-such-folder", NULL);
  const char      *sample = wb_test_samples_dir ();
  struct
  {
    const char *args[6];
    const char *message;
  } cases[] = {
    { { "--headless", "coverage", NULL }, "at least one PATH" },
    { { "--headless", "coverage", missing, NULL }, "No such file or directory" },
    { { "--headless", "coverage", tmp, NULL }, "no case" },
    { { "--headless", "coverage", sample, "--levels", "load,compile", NULL }, "unknown level" },
    { { "--headless", "coverage", sample, "--format", "xml", NULL }, "--format" },
    { { "--headless", "coverage", sample, "--timeout", "0", NULL }, "--timeout" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (WbTestRun) run = { 0 };

      wb_test_run_thunder_wb (&run, NULL, cases[i].args);
      if (run.status != 2 || strstr (run.err, cases[i].message) == NULL)
        g_error ("coverage case %u exited %d, expected 2 and “%s”:\n%s", i, run.status, cases[i].message, run.err);
      g_assert_cmpstr (run.out, ==, "");
    }
  wb_test_remove_tree (tmp);
}

/* run-cpu's detail names the result furthest from the reference (max abs error over max |ref|): the same
 * tensor and figures as `run --inputs --compare` prints for each result of the zoo's inplace_ops */
static void
test_worst_error (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *dir = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "inplace_ops", NULL);
  g_autofree char *tensors = g_build_filename (dir, "tensors.safetensors", NULL);
  g_autoptr (JsonParser) parser = NULL;
  g_auto (WbTestRun) run = { 0 };
  g_auto (GStrv) lines = NULL;
  g_autofree char *want = NULL;
  const char      *detail;
  double           worst = -1, worst_abs = 0;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  RUN (&run, "--headless", "run", dir, "--inputs", tensors, "--compare", tensors);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char   name[256];
      double abs_err, rel;
      if (sscanf (lines[i], "%255s f32 %*s %lf %lf ok", name, &abs_err, &rel) == 3 && rel > worst)
        {
          worst = rel;
          worst_abs = abs_err;
          g_free (want);
          want = g_strdup (name);
        }
    }
  g_assert_nonnull (want);
  wb_test_run_clear (&run);
  RUN (&run, "--headless", "coverage", dir, "--levels", "load,run-cpu", "--format", "json");
  g_assert_cmpint (run.status, ==, 0);
  parser = parse_report (run.out, strlen (run.out));
  detail = json_object_get_string_member (case_level (find_case (report_root (parser), "inplace_ops"), "run-cpu"), "detail");
  g_test_message ("%s", detail);
  {
    g_autofree char *expect = g_strdup_printf ("worst %s: max abs error %.3e, %.3e of max |ref|", want, worst_abs, worst);
    g_assert_nonnull (strstr (detail, expect));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/coverage/shared-traces", test_shared_traces);
  g_test_add_func ("/app/coverage/corrupted-file", test_corrupted_file);
  g_test_add_func ("/app/coverage/run-cpu-not-run", test_run_cpu_not_run);
  g_test_add_func ("/app/coverage/run-gpu", test_run_gpu);
  g_test_add_func ("/app/coverage/ranks-not-run", test_ranks_not_run);
  g_test_add_func ("/app/coverage/worst-error", test_worst_error);
  g_test_add_func ("/app/coverage/bad-usage", test_bad_usage);

  return g_test_run ();
}
