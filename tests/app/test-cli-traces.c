/* test-cli-traces.c — runs the built thunder-wb binary on traces: print round trips, stages, check, broken
 * input, the open world
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "test-cli.h"

/* stderr has a line "FILE:LINE:COL: ..." naming @file. */
static gboolean
has_location (const char *err,
              const char *file)
{
  g_autofree char *escaped = g_regex_escape_string (file, -1);
  g_autofree char *pattern = g_strdup_printf ("^%s:\\d+:\\d+: ", escaped);

  return g_regex_match_simple (pattern, err, G_REGEX_MULTILINE, 0);
}

/* Fails naming @what and the first differing line when @got is not @expected byte for byte. */
static void
assert_same_text (const char *what,
                  const char *got,
                  const char *expected)
{
  guint line = 1;

  if (strcmp (got, expected) == 0)
    return;
  for (gsize i = 0; got[i] != '\0' && got[i] == expected[i]; i++)
    if (got[i] == '\n')
      line++;
  g_error ("%s: not byte-identical; the first difference is on line %u (got %zu bytes, expected %zu)",
           what, line, strlen (got), strlen (expected));
}

static void
assert_print_roundtrip (const char *path)
{
  g_auto (WbTestRun) run = { 0 };
  g_autofree char *expected = wb_test_read_file (path, NULL);

  RUN (&run, "--headless", "print", path);
  if (run.status != 0)
    g_error ("print %s exited %d:\n%s", path, run.status, run.err);
  assert_same_text (path, run.out, expected);
}

static void
test_print_sample_files (void)
{
  g_autoptr (GPtrArray) files = wb_test_list_trace_files (sample_dir ());

  g_assert_cmpuint (files->len, >, 40);
  for (guint i = 0; i < files->len; i++)
    assert_print_roundtrip (g_ptr_array_index (files, i));
}

static void
test_print_real_files (void)
{
  g_autoptr (GPtrArray) files = NULL;

  if (wb_test_traces_dir () == NULL)
    {
      g_test_skip ("no real traces (WB_TRACES_DIR)");
      return;
    }
  files = wb_test_list_trace_files (wb_test_traces_dir ());
  g_assert_cmpuint (files->len, >, 300);
  for (guint i = 0; i < files->len; i++)
    assert_print_roundtrip (g_ptr_array_index (files, i));
}

/* print DIR: every file's text after its "### FILE" line, each file exactly once. */
static void
test_print_directory (void)
{
  g_auto (WbTestRun) run = { 0 };
  g_autoptr (GPtrArray) files = wb_test_list_trace_files (sample_dir ());
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) parts = NULL;

  RUN (&run, "--headless", "print", sample_dir ());
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "### "));

  parts = g_regex_split_simple ("^### (.*)\\n", run.out, G_REGEX_MULTILINE, 0);
  /* parts: "", path0, text0, path1, text1, ... */
  g_assert_cmpuint (g_strv_length (parts) % 2, ==, 1);
  for (guint i = 1; parts[i] != NULL; i += 2)
    {
      g_autofree char *expected = wb_test_read_file (parts[i], NULL);
      g_autofree char *canonical = g_canonicalize_filename (parts[i], NULL);
      const char      *text = parts[i + 1];
      gsize            len = strlen (text);

      /* A file without a final newline gets one before the next separator (and at the very end). */
      if (!g_str_has_suffix (expected, "\n") && len > 0 && text[len - 1] == '\n' && parts[i + 2] != NULL)
        len--;
      if (len != strlen (expected) || memcmp (text, expected, len) != 0)
        g_error ("print DIR: the text after “### %s” is not that file", parts[i]);
      g_assert_false (g_hash_table_contains (seen, canonical));
      g_hash_table_add (seen, g_steal_pointer (&canonical));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, files->len);
}

static void
test_stages_table (void)
{
  g_auto (WbTestRun) run = { 0 };
  g_auto (GStrv) lines = NULL;
  guint n_forward = 0;

  RUN (&run, "--headless", "stages", sample_dir ());
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_true (g_regex_match_simple ("^\\s*#\\s+kind\\s+index\\s+subset\\s+bsyms\\s+ms\\s+provenance$", lines[0], 0, 0));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) cols = g_regex_split_simple ("\\s+", g_strstrip (lines[i]), 0, 0);

      g_assert_cmpuint (g_strv_length (cols), >=, 7);
      g_assert_cmpint (atoi (cols[0]), ==, i - 1);
      if (strcmp (cols[1], "forward") == 0 && strcmp (cols[3], "-") == 0)
        {
          g_assert_cmpint (atoi (cols[2]), ==, n_forward);
          n_forward++;
        }
    }
  g_assert_cmpuint (n_forward, ==, 7);
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_stages_json (void)
{
  g_auto (WbTestRun) run = { 0 };
  g_autoptr (JsonNode) root = NULL;
  JsonArray *entries;
  guint      n_forward = 0;
  gboolean   found_grad = FALSE;

  RUN (&run, "--headless", "stages", "--format", "json", sample_dir ());
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  entries = json_object_get_array_member (json_node_get_object (root), "entries");
  g_assert_nonnull (entries);
  g_assert_cmpuint (json_array_get_length (entries), >, 40);

  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *e = json_array_get_object_element (entries, i);

      g_assert_cmpint (json_object_get_int_member (e, "number"), ==, i);
      g_assert_cmpint (json_object_get_int_member (e, "bsyms"), >=, 0);
      g_assert_true (g_file_test (json_object_get_string_member (e, "path"), G_FILE_TEST_IS_REGULAR));
      if (strcmp (json_object_get_string_member (e, "kind"), "forward") != 0 ||
          strcmp (json_object_get_string_member (e, "subset"), "") != 0)
        continue;
      n_forward++;
      /* forward_04.py: "# Constructed by Grad transform pass (took 20 milliseconds)" */
      if (json_object_get_int_member (e, "index") == 4)
        {
          found_grad = TRUE;
          g_assert_cmpstr (json_object_get_string_member (e, "provenance"), ==, "Grad transform pass");
          g_assert_cmpfloat (json_object_get_double_member (e, "milliseconds"), ==, 20.0);
          g_assert_cmpint (json_object_get_int_member (e, "bsyms"), >, 10);
        }
      /* forward_00.py is the interpreter's trace: no provenance line */
      if (json_object_get_int_member (e, "index") == 0)
        {
          g_assert_true (json_object_get_null_member (e, "provenance"));
          g_assert_true (json_object_get_null_member (e, "milliseconds"));
        }
    }
  g_assert_cmpuint (n_forward, ==, 7);
  g_assert_true (found_grad);
}

/* --show K prints entry K's text: the file it came from, byte for byte (one trace per file). */
static void
test_stages_show (void)
{
  g_auto (WbTestRun) list = { 0 };
  g_autoptr (JsonNode) root = NULL;
  JsonArray *entries;

  RUN (&list, "--headless", "stages", "--format=json", sample_dir ());
  g_assert_cmpint (list.status, ==, 0);
  root = parse_json (list.out);
  entries = json_object_get_array_member (json_node_get_object (root), "entries");

  for (guint i = 0; i < json_array_get_length (entries); i += 5)
    {
      JsonObject      *e = json_array_get_object_element (entries, i);
      g_autofree char *expected = wb_test_read_file (json_object_get_string_member (e, "path"), NULL);
      g_autofree char *k = g_strdup_printf ("%u", i);
      g_auto (WbTestRun) text = { 0 };
      g_auto (WbTestRun) json = { 0 };
      g_autoptr (JsonNode) shown = NULL;

      RUN (&text, "--headless", "stages", "--show", k, sample_dir ());
      g_assert_cmpint (text.status, ==, 0);
      assert_same_text ("stages --show", text.out, expected);

      RUN (&json, "--headless", "stages", sample_dir (), "--show", k, "--format", "json");
      g_assert_cmpint (json.status, ==, 0);
      shown = parse_json (json.out);
      assert_same_text ("stages --show --format json",
                        json_object_get_string_member (json_node_get_object (shown), "text"), expected);
    }
}

static void
test_check_sample (void)
{
  g_auto (WbTestRun) run = { 0 };

  RUN (&run, "--headless", "check", sample_dir ());
  if (run.status != 0)
    g_error ("check %s exited %d:\n%s", sample_dir (), run.status, run.err);
  g_assert_nonnull (strstr (run.out, " 0 errors"));
}

static void
test_check_ce_loss (void)
{
  g_auto (WbTestRun) run = { 0 };
  g_auto (WbTestRun) fallback = { 0 };
  g_autofree char *dir = NULL;
  g_autofree char *fallback_dir = NULL;

  if (wb_test_traces_dir () == NULL)
    {
      g_test_skip ("no real traces (WB_TRACES_DIR)");
      return;
    }
  dir = g_build_filename (wb_test_traces_dir (), "ce_loss", NULL);
  fallback_dir = g_build_filename (dir, "fallback", NULL);

  /* The top-level ce_loss traces hold two different regions named TorchCompile0. */
  RUN (&run, "--headless", "check", dir);
  if (run.status != 1)
    g_error ("check %s exited %d, expected 1:\n%s", dir, run.status, run.err);
  g_assert_true (g_regex_match_simple ("^\\S+:\\d+:\\d+: error: .*TorchCompile0", run.err, G_REGEX_MULTILINE, 0));

  /* fallback/ is the working configuration. */
  RUN (&fallback, "--headless", "check", fallback_dir);
  if (fallback.status != 0)
    g_error ("check %s exited %d, expected 0:\n%s", fallback_dir, fallback.status, fallback.err);
}

/* Change one shape in one annotation of a real trace: check must fail naming that line. */
static void
test_check_changed_type (void)
{
  g_autofree char *source = g_build_filename (sample_dir (), "forward_00.py", NULL);
  g_autofree char *text = wb_test_read_file (source, NULL);
  g_autofree char *tmpdir = g_dir_make_tmp ("thunder-wb-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmpdir, "forward_00.py", NULL);
  g_autofree char *location = NULL;
  g_autofree char *escaped = NULL;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *changed = NULL;
  g_auto (WbTestRun) run = { 0 };
  guint line = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "  t") && strstr (lines[i], "= ltorch.linear(") && strstr (lines[i], "f32[32, 512]"))
      {
        char *at = strstr (lines[i], "f32[32, 512]");

        at[strlen ("f32[32, 51")] = '1';
        line = i + 1;
        break;
      }
  g_assert_cmpuint (line, >, 0);
  changed = g_strjoinv ("\n", lines);
  g_assert_true (g_file_set_contents (path, changed, -1, NULL));

  RUN (&run, "--headless", "check", path);
  g_assert_cmpint (run.status, ==, 1);
  escaped = g_regex_escape_string (path, -1);
  location = g_strdup_printf ("^%s:%u:\\d+: error: ", escaped, line);
  if (!g_regex_match_simple (location, run.err, G_REGEX_MULTILINE, 0))
    g_error ("no error at %s:%u; stderr:\n%s", path, line, run.err);

  g_unlink (path);
  g_rmdir (tmpdir);
}

/* Broken input ends with exit 2 and a file:line:col message, for print and for check; an unknown dtype
 * is not broken input. */
static void
test_broken_input (void)
{
  g_autofree char *source = g_build_filename (sample_dir (), "forward_04.py", NULL);
  g_autofree char *text = wb_test_read_file (source, NULL);
  g_autofree char *tmpdir = g_dir_make_tmp ("thunder-wb-XXXXXX", NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GString) no_paren = g_string_new (NULL);
  g_autoptr (GString) truncated = g_string_new (NULL);
  g_autofree char *bad_dtype = g_strdup (text);
  char            *f32 = strstr (bad_dtype, "f32[");
  guint            call;

  /* The first top-level call "  tN = op(...)": its first ')' is deleted, or the text ends after its '('. */
  for (call = 0; lines[call] != NULL; call++)
    if (g_str_has_prefix (lines[call], "  t") && strstr (lines[call], " = ") && strchr (lines[call], ')'))
      break;
  g_assert_nonnull (lines[call]);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *paren = strchr (lines[i], ')');

      if (i > 0)
        g_string_append_c (no_paren, '\n');
      if (i == call)
        {
          g_string_append_len (no_paren, lines[i], paren - lines[i]);
          g_string_append (no_paren, paren + 1);
          g_string_append_len (truncated, lines[i], strchr (lines[i], '(') + 1 - lines[i]);
        }
      else
        g_string_append (no_paren, lines[i]);
      if (i < call)
        g_string_append_printf (truncated, "%s\n", lines[i]);
    }
  /* An unknown dtype in the first type comment. */
  g_assert_nonnull (f32);
  f32[0] = 'q';

  {
    const struct
    {
      const char *name;
      const char *text;
    } cases[] = {
      { "no_paren.py", no_paren->str },
      { "truncated.py", truncated->str },
      { "empty.py", "" },
      { "bytes.py", "\x01\x02\xff\xfe garbage (((\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *path = g_build_filename (tmpdir, cases[i].name, NULL);

        g_assert_true (g_file_set_contents (path, cases[i].text, -1, NULL));
        for (guint c = 0; c < 2; c++)
          {
            g_auto (WbTestRun) run = { 0 };

            RUN (&run, "--headless", c == 0 ? "check" : "print", path);
            if (run.status != 2 || !has_location (run.err, path))
              g_error ("%s %s: exit %d, expected 2 with %s:LINE:COL; stderr:\n%s",
                       c == 0 ? "check" : "print", cases[i].name, run.status, path, run.err);
          }
        g_unlink (path);
      }
  }
  /* An unknown dtype is no broken input (open world): kept as text, check warns and exits 0. */
  {
    g_autofree char *path = g_build_filename (tmpdir, "unknown_dtype.py", NULL);
    g_auto (WbTestRun) run = { 0 };

    g_assert_true (g_file_set_contents (path, bad_dtype, -1, NULL));
    RUN (&run, "--headless", "check", path);
    if (run.status != 0 || !has_location (run.err, path) || strstr (run.err, "warning: annotation") == NULL)
      g_error ("check unknown_dtype.py: exit %d, expected 0 and a warning at %s:LINE:COL; stderr:\n%s", run.status, path, run.err);
    g_unlink (path);
  }
  g_rmdir (tmpdir);
}

/* Open world (issue 41): a folder with a corrupted file and a `None` file lists both and checks and
 * recomputes the rest; a run of an unknown symbol without subsymbols fails naming it and its line. */
static void
test_open_world (void)
{
  const struct
  {
    const char *src, *dst;
  } files[] = {
    { "bart_g0_forward_00.py", "forward_00.py" },
    { "bart_g3_prologue_01.py", "prologue_00.py" },
    { "vgg11_bn_infer_09_split_backward.py", "backward_00.py" },
    { "no_grad_teacher_backward_00.py", "backward_01.py" },
  };
  g_autofree char *dir = g_dir_make_tmp ("thunder-wb-open-world-XXXXXX", NULL);
  g_autofree char *broken = g_build_filename (dir, "forward_01.py", NULL);
  g_autofree char *opaque = g_build_filename (dir, "opaque.py", NULL);
  g_autofree char *broken_at = g_strdup_printf ("%s:3:", broken);
  g_autofree char *opaque_at = g_strdup_printf ("%s:5:", opaque);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *src = g_test_build_filename (G_TEST_DIST, "compiler", "data", "open-world", files[i].src, NULL);
      g_autofree char *dst = g_build_filename (dir, files[i].dst, NULL);
      gsize            len = 0;
      g_autofree char *text = wb_test_read_file (src, &len);
      g_assert_true (g_file_set_contents (dst, text, (gssize) len, NULL));
    }
  g_assert_true (g_file_set_contents (broken, "import torch\n\ndef computation(x:\n  return x\n", -1, NULL));
  {
    g_auto (WbTestRun) run = { 0 };
    RUN (&run, "--headless", "check", dir);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, broken_at));
    g_assert_nonnull (strstr (run.err, "backward_00.py:1:1: note: not a trace (Thunder skipped this stage)"));
    /* kl_div_vjp, Thunder's vjp of an automatically registered torch function, is in the table (issue 43) */
    g_assert_null (strstr (run.err, "unknown symbol 'kl_div_vjp'"));
    g_assert_null (strstr (run.err, "unknown symbol 'ltorch.setitem_'"));
    g_assert_nonnull (strstr (run.out, "3 traces checked, 1 errors"));
    g_assert_nonnull (strstr (run.out, "2 files not loaded"));
  }
  {
    g_auto (WbTestRun) run = { 0 };
    RUN (&run, "--headless", "stages", dir, "--recompile");
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "workbench"));
  }
  g_unlink (broken);
  g_assert_true (g_file_set_contents (opaque,
                                      "import torch\n\ndef computation(x):\n  # x: \"cpu f32[2, 3]\"\n"
                                      "  t0 = ltorch.my_custom_op(x, 2.0)  # t0: \"cpu f32[2, 3]\"\n  return (t0,)\n",
                                      -1, NULL));
  {
    g_auto (WbTestRun) run = { 0 };
    RUN (&run, "--headless", "run", opaque, "--device", "cpu");
    g_assert_cmpint (run.status, !=, 0);
    g_assert_nonnull (strstr (run.err, opaque_at));
    g_assert_nonnull (strstr (run.err, "ltorch.my_custom_op: unknown symbol with neither a kernel nor subsymbols"));
  }
  wb_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/cli/print/sample-files", test_print_sample_files);
  g_test_add_func ("/app/cli/print/real-files", test_print_real_files);
  g_test_add_func ("/app/cli/print/directory", test_print_directory);
  g_test_add_func ("/app/cli/stages/table", test_stages_table);
  g_test_add_func ("/app/cli/stages/json", test_stages_json);
  g_test_add_func ("/app/cli/stages/show", test_stages_show);
  g_test_add_func ("/app/cli/check/sample", test_check_sample);
  g_test_add_func ("/app/cli/check/ce-loss", test_check_ce_loss);
  g_test_add_func ("/app/cli/check/changed-type", test_check_changed_type);
  g_test_add_func ("/app/cli/check/broken-input", test_broken_input);
  g_test_add_func ("/app/cli/open-world", test_open_world);

  return g_test_run ();
}
