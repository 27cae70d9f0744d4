/* test-cli.c — runs the built thunder-wb binary: exit codes, print round trips, stages, check
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb-test-common.h"

static const char *
sample_dir (void)
{
  static char *dir;

  if (dir == NULL)
    dir = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  return dir;
}

/* RUN: thunder-wb with the arguments, in the C locale (wb_test_run_thunder_wb). */
#define RUN(run, ...) wb_test_run_thunder_wb ((run), NULL, (const char *const[]){ __VA_ARGS__, NULL })

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
test_version (void)
{
  g_auto (WbTestRun) run = { 0 };

  RUN (&run, "--version");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "thunder-wb " PACKAGE_VERSION));
}

static void
test_help (void)
{
  g_auto (WbTestRun) run = { 0 };
  g_auto (WbTestRun) stages = { 0 };

  RUN (&run, "--help");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "--headless"));
  g_assert_nonnull (strstr (run.out, "check"));

  RUN (&stages, "--headless", "stages", "--help");
  g_assert_cmpint (stages.status, ==, 0);
  g_assert_nonnull (strstr (stages.out, "--show"));
  g_assert_nonnull (strstr (stages.out, "--format"));
}

static void
test_usage_errors (void)
{
  const char *const cases[][5] = {
    { "--bogus" },
    { "--headless" },
    { "--headless", "frobnicate", "x" },
    { "--headless", "stages" },
    { "--headless", "stages", "--bogus", "PATH" },
    { "--headless", "stages", "--format", "xml", "PATH" },
    { "--headless", "stages", "--show", "9999", "PATH" },
    { "--headless", "stages", "--show", "x", "PATH" },
    { "--headless", "print", "PATH", "PATH" },
    { "--headless", "check", "/nonexistent/thunder-wb-test" },
    { "check", "PATH" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (WbTestRun) run = { 0 };
      const char *args[6] = { NULL };

      for (guint j = 0; j < 5 && cases[i][j] != NULL; j++)
        args[j] = strcmp (cases[i][j], "PATH") == 0 ? sample_dir () : cases[i][j];
      wb_test_run_thunder_wb (&run, NULL, args);
      if (run.status != 2)
        g_error ("thunder-wb %s %s %s: exit %d, expected 2; stderr:\n%s",
                 args[0], args[1] ? args[1] : "", args[2] ? args[2] : "", run.status, run.err);
      /* a usage error names the program; a missing PATH names the path */
      g_assert_true (g_str_has_prefix (run.err, "thunder-wb: ") || g_str_has_prefix (run.err, "/nonexistent/thunder-wb-test: "));
    }
}

/* Repeated or conflicting options and numbers out of range are usage errors (exit 2) naming the
 * option, not the last one silently winning; they are refused before anything runs. */
static void
test_conflicting_options (void)
{
  g_autofree char  *dir = g_dir_make_tmp ("wb-cli-options-XXXXXX", NULL);
  g_autofree char  *md = g_build_filename (dir, "r.json", NULL);
  g_autofree char  *md2 = g_build_filename (dir, ".", "r.json", NULL);
  g_autofree char  *st = g_build_filename (dir, "t.safetensors", NULL);
  const char *const cases[][10] = {
    { "profile", "PATH", "--device", "cpu", "--device", "cuda", NULL, NULL, NULL, "--device given more than once" },
    { "run", "PATH", "--device", "cpu", "--device", "cpu", NULL, NULL, NULL, "--device given more than once" },
    { "run", "PATH", "--stage", "1", "--stage", "2", NULL, NULL, NULL, "--stage given more than once" },
    { "profile", "PATH", "--report", md, "--chrome-trace", md, NULL, NULL, NULL, "name the same file" },
    { "profile", "PATH", "--report", md, "--report", md2, NULL, NULL, NULL, "name the same file" },
    { "profile", "PATH", "--baseline", "x.wbsession", "--fail-above", "inf", NULL, NULL, NULL, "finite percentage" },
    { "profile", "PATH", "--baseline", "x.wbsession", "--fail-above", "nan", NULL, NULL, NULL, "finite percentage" },
    { "profile", "PATH", "--baseline", "x.wbsession", "--fail-above", "-5", NULL, NULL, NULL, "finite percentage" },
    { "profile", "PATH", "--baseline", "x.wbsession", "--fail-above", "5", "--fail-above", "6", NULL, "--fail-above given more than once" },
    { "profile", "PATH", "--iters", "0", NULL, NULL, NULL, NULL, NULL, "--iters takes a whole number from 1 to" },
    { "profile", "PATH", "--iters", "99999999999", NULL, NULL, NULL, NULL, NULL, "--iters takes a whole number from 1 to" },
    { "profile", "PATH", "--iters", "5", "--iters", "6", NULL, NULL, NULL, "--iters given more than once" },
    { "profile", "PATH", "--warmup", "-1", NULL, NULL, NULL, NULL, NULL, "--warmup takes a whole number from 0 to" },
    { "profile", "PATH", "--warmup", "1e9", NULL, NULL, NULL, NULL, NULL, "--warmup takes a whole number from 0 to" },
    { "run", "PATH", "--inputs", st, "--save-outputs", st, NULL, NULL, NULL, "would overwrite" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (WbTestRun) run = { 0 };
      const char *args[12] = { "--headless", NULL };
      guint       n = 1;

      for (guint j = 0; j < 9 && cases[i][j] != NULL; j++)
        args[n++] = strcmp (cases[i][j], "PATH") == 0 ? sample_dir () : cases[i][j];
      wb_test_run_thunder_wb (&run, NULL, args);
      if (run.status != 2 || !g_str_has_prefix (run.err, "thunder-wb: ") || strstr (run.err, cases[i][9]) == NULL)
        g_error ("case %u (%s %s %s): exit %d, expected 2 and \"%s\"; stderr:\n%s", i, args[1], args[3], args[4], run.status,
                 cases[i][9], run.err);
      g_assert_false (g_file_test (md, G_FILE_TEST_EXISTS));
    }
  g_rmdir (dir);
}

static gpointer
drain_fd (gpointer data)
{
  int      fd = GPOINTER_TO_INT (data);
  GString *text = g_string_new (NULL);
  char     buf[4096];
  gssize   n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (text, buf, n);
  close (fd);
  return g_string_free (text, FALSE);
}

/* `export -o PATH` where PATH is a FIFO or a symbolic link: the FIFO is written in place (a reader
 * gets the text, and it stays a FIFO), the link is followed (it stays a link, its file gets the text),
 * a device that is not a terminal is refused naming it. The test holds a write end of the FIFO so
 * that its reader sees EOF only once it lets go, whatever thunder-wb did. */
static void
test_special_outputs (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-cli-outputs-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "out.py", NULL);
  g_autofree char *target = g_build_filename (dir, "target.py", NULL);
  g_autofree char *link = g_build_filename (dir, "link.py", NULL);
  g_autofree char *got = NULL;
  g_auto (WbTestRun) expected = { 0 };
  g_auto (WbTestRun) to_fifo = { 0 };
  g_auto (WbTestRun) to_link = { 0 };
  g_auto (WbTestRun) to_null = { 0 };
  g_auto (WbTestRun) to_stdout = { 0 };
  GThread *reader;
  GStatBuf st;
  int      rfd, wfd;

  RUN (&expected, "--headless", "export", sample_dir (), "--as", "python");
  g_assert_cmpint (expected.status, ==, 0);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  rfd = g_open (fifo, O_RDONLY | O_NONBLOCK, 0);
  g_assert_cmpint (rfd, >=, 0);
  wfd = g_open (fifo, O_WRONLY, 0);
  g_assert_cmpint (wfd, >=, 0);
  g_assert_cmpint (fcntl (rfd, F_SETFL, 0), ==, 0);
  reader = g_thread_new ("fifo-reader", drain_fd, GINT_TO_POINTER (rfd));
  RUN (&to_fifo, "--headless", "export", sample_dir (), "--as", "python", "-o", fifo);
  close (wfd);
  got = g_thread_join (reader);
  g_assert_cmpint (to_fifo.status, ==, 0);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_cmpstr (got, ==, expected.out);
  g_clear_pointer (&got, g_free);

  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.py", link), ==, 0);
  RUN (&to_link, "--headless", "export", sample_dir (), "--as", "python", "-o", link);
  g_assert_cmpint (to_link.status, ==, 0);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (target, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, expected.out);

  /* /dev/stdout is a link to the pipe the test reads: written in place, not refused as dangling */
  RUN (&to_stdout, "--headless", "export", sample_dir (), "--as", "python", "-o", "/dev/stdout");
  g_assert_cmpint (to_stdout.status, ==, 0);
  g_assert_cmpstr (to_stdout.out, ==, expected.out);

  RUN (&to_null, "--headless", "export", sample_dir (), "--as", "python", "-o", "/dev/null");
  g_assert_cmpint (to_null.status, ==, 2); /* the option names a path that cannot take the output */
  g_assert_nonnull (strstr (to_null.err, "/dev/null: not written"));

  g_remove (fifo), g_remove (link), g_remove (target);
  g_rmdir (dir);
}

/* No control character read from a session file reaches the terminal: a trace set named after a
 * folder "ev<ESC>[1m" and run labels with ESC and BEL are printed by `sessions` and `compare` as
 * \x1b and \x07. */
static void
test_escaped_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-cli-escape-XXXXXX", NULL);
  g_autofree char *link = g_build_filename (dir, "ev\x1b[1m", NULL);
  g_autofree char *session = g_build_filename (dir, "s.wbsession", NULL);
  g_autofree char *sample = g_canonicalize_filename (sample_dir (), NULL);
  const char      *labels[] = { "red\x1b[31m", "bell\x07"
                                                    "clear\x1b[2J" };
  g_auto (WbTestRun) sessions = { 0 };
  g_auto (WbTestRun) compare = { 0 };

  g_assert_cmpint (symlink (sample, link), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_auto (WbTestRun) profile = { 0 };
      RUN (&profile, "--headless", "profile", link, "--device", "cpu", "--iters", "1", "--warmup", "0", "--session", session, "--label",
           labels[i], "-q");
      if (profile.status != 0)
        g_error ("profile exited %d:\n%s", profile.status, profile.err);
    }
  RUN (&sessions, "--headless", "sessions", session);
  RUN (&compare, "--headless", "compare", session);
  g_assert_cmpint (sessions.status, ==, 0);
  g_assert_cmpint (compare.status, ==, 0);
  for (const char *p = sessions.out; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\n')
      g_error ("sessions printed control character 0x%02x:\n%s", (guchar) *p, sessions.out);
  for (const char *p = compare.out; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\n')
      g_error ("compare printed control character 0x%02x:\n%s", (guchar) *p, compare.out);
  g_assert_nonnull (strstr (sessions.out, "ev\\x1b[1m"));
  g_assert_nonnull (strstr (sessions.out, "red\\x1b[31m"));
  g_assert_nonnull (strstr (sessions.out, "bell\\x07clear\\x1b[2J"));
  /* compare writes Markdown: "[" is backslashed there too */
  g_assert_nonnull (strstr (compare.out, "red\\x1b\\[31m"));
  g_assert_nonnull (strstr (compare.out, "bell\\x07clear\\x1b\\[2J"));
  for (const char *const *f = (const char *const[]){ "", "-wal", "-shm", NULL }; *f != NULL; f++)
    {
      g_autofree char *file = g_strconcat (session, *f, NULL);
      g_remove (file);
    }
  g_remove (link);
  g_rmdir (dir);
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

/* Without --headless: 3 when there is no GUI (-Dgui=false) or no display to show it on. */
static void
test_gui_unavailable (void)
{
  const char *const unset[] = { "DISPLAY", "WAYLAND_DISPLAY", "GDK_BACKEND", "BROADWAY_DISPLAY", NULL };
  g_auto (WbTestRun) run = { 0 };

  wb_test_run_thunder_wb (&run, unset, (const char *const[]){ sample_dir (), NULL });
  g_assert_cmpint (run.status, ==, 3);
#if HAVE_GUI
  g_assert_nonnull (strstr (run.err, "display"));
#else
  g_assert_nonnull (strstr (run.err, "-Dgui=false"));
#endif
}

/* A folder of ThunderFX's subgraphs (each a sub-program with its own inputs, none of its own): profile
 * --baseline, which compares one program's run, names how many there are and one's folder to give instead,
 * and the folder it names runs. */
static void
test_subgraph_folder (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *folder = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "gpt2_thunderfx", NULL);
  g_autofree char *first = NULL;
  g_autofree char *want = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;
  guint       n = 0;
  g_auto (WbTestRun) run = { 0 };

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  /* the subgraphs, counted from the folder itself: one directory each */
  dir = g_dir_open (folder, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sub = g_build_filename (folder, name, NULL);
      if (g_file_test (sub, G_FILE_TEST_IS_DIR) && g_str_has_prefix (name, "thunderfx_"))
        {
          n++;
          if (first == NULL || strcmp (name, first) < 0)
            g_free (first), first = g_strdup (name);
        }
    }
  g_assert_cmpuint (n, >, 1);
  want = g_strdup_printf ("holds %u sub-programs", n);
  /* a baseline is one program's run: profile each sub-program's folder against its own (test-cli-programs
   * checks that profile and run without it take every sub-program in turn) */
  RUN (&run, "--headless", "profile", folder, "--device", "cpu", "--iters", "1", "--baseline", "none.wbsession", "--fail-above", "5");
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, want));
  g_assert_nonnull (strstr (run.err, first));
  wb_test_run_clear (&run);
  {
    g_autofree char *entry = g_build_filename (folder, first, NULL);
    RUN (&run, "--headless", "run", entry);
    g_assert_cmpint (run.status, ==, 0);
  }
}

/* run --save-outputs keeps the inputs the run started from, although the program writes BatchNorm's running
 * statistics into them (copy_): a second run from that file reproduces the first byte for byte. --f64 runs
 * the same program in float64 (every f32 of the text and of the file widened, the cotangent included). */
static void
test_run_saved_inputs (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *entry = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", "regnet_y_400mf", "thunderfx_g0_GraphModule", NULL);
  g_autofree char *dir = NULL, *a = NULL, *b = NULL, *c = NULL, *ta = NULL, *tb = NULL;
  g_auto (WbTestRun) run = { 0 };
  gsize la = 0, lb = 0;

  if (!g_file_test (entry, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  dir = g_dir_make_tmp ("wb-cli-saved-XXXXXX", NULL);
  a = g_build_filename (dir, "a.safetensors", NULL);
  b = g_build_filename (dir, "b.safetensors", NULL);
  c = g_build_filename (dir, "c.safetensors", NULL);
  RUN (&run, "--headless", "run", entry, "--save-outputs", a);
  g_assert_cmpint (run.status, ==, 0);
  wb_test_run_clear (&run);
  RUN (&run, "--headless", "run", entry, "--inputs", a, "--save-outputs", b);
  g_assert_cmpint (run.status, ==, 0);
  wb_test_run_clear (&run);
  ta = wb_test_read_file (a, &la);
  tb = wb_test_read_file (b, &lb);
  g_assert_cmpuint (la, >, 1000000);
  g_assert_cmpuint (la, ==, lb);
  g_assert_true (memcmp (ta, tb, la) == 0);

  RUN (&run, "--headless", "run", entry, "--f64", "--inputs", a, "--save-outputs", c);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, " f64 "));
  g_assert_null (strstr (run.out, " f32 "));
  wb_test_run_clear (&run);
  RUN (&run, "--headless", "run", entry, "--f64", "--device", "cuda");
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--f64 runs on the cpu only"));
  wb_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/cli/version", test_version);
  g_test_add_func ("/app/cli/help", test_help);
  g_test_add_func ("/app/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/app/cli/conflicting-options", test_conflicting_options);
  g_test_add_func ("/app/cli/special-outputs", test_special_outputs);
  g_test_add_func ("/app/cli/escaped-names", test_escaped_names);
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
  g_test_add_func ("/app/cli/gui-unavailable", test_gui_unavailable);
  g_test_add_func ("/app/cli/run/saved-inputs", test_run_saved_inputs);
  g_test_add_func ("/app/cli/run/subgraph-folder", test_subgraph_folder);

  return g_test_run ();
}
