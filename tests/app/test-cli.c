/* test-cli.c — runs the built thunder-wb binary: exit codes, usage errors, outputs, names, the GUI's
 * absence, run (the commands on traces: test-cli-traces.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "test-cli.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
  g_test_add_func ("/app/cli/gui-unavailable", test_gui_unavailable);
  g_test_add_func ("/app/cli/run/saved-inputs", test_run_saved_inputs);
  g_test_add_func ("/app/cli/run/subgraph-folder", test_subgraph_folder);

  return g_test_run ();
}
