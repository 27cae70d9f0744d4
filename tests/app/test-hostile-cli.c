/* test-hostile-cli.c — the built thunder-wb on hostile inputs (issue 46): special files, files over the
 * size limit, names and text with terminal escape sequences or bytes that are not UTF-8, and the one
 * exit-code rule (2: the input or the options, with the file; 3: only the environment)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every command runs under `timeout`: a FIFO that blocks a read fails the test (exit 124) instead of
 * hanging it. */
#define _GNU_SOURCE /* posix_openpt, ptsname, cfmakeraw */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "wb-test-common.h"

#define TIMEOUT_S "30"

typedef struct
{
  int   status;
  char *out;
  char *err;
} Result;

static void
result_clear (Result *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static char *tmpdir;

/* thunder-wb --headless ARGS... (NULL-terminated) under timeout, in the C locale. */
static void
run_cli (Result *r, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);
  int         wait_status = 0;
  const char *arg;
  va_list     args;

  env = g_environ_unsetenv (env, "LANGUAGE");
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) TIMEOUT_S);
  g_ptr_array_add (argv, (char *) wb_test_binary ());
  g_ptr_array_add (argv, (char *) "--headless");
  va_start (args, r);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &r->out, &r->err, &wait_status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
  if (r->status == 124)
    g_error ("thunder-wb --headless %s ... hung (killed after " TIMEOUT_S " s)", (char *) argv->pdata[4]);
}

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

/* No control character but newline and tab, and valid UTF-8. */
static void
assert_terminal_safe (const char *what, const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if (((guchar) *p < 0x20 && *p != '\n' && *p != '\t') || (guchar) *p == 0x7f)
      g_error ("%s holds control character 0x%02x:\n%s", what, (guchar) *p, text);
  if (!g_utf8_validate (text, -1, NULL))
    g_error ("%s is not UTF-8:\n%s", what, text);
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static char *
sample (const char *name)
{
  return g_build_filename (wb_test_samples_dir (), "mlp_small", name, NULL);
}

/* -- special files ------------------------------------------------------------------------------- */

/* A FIFO as a trace, in a folder, as a case's meta.json and as --inputs; /dev/zero: refused at once. */
static void
test_special_inputs (void)
{
  g_autofree char *fifo = tmp_path ("lone.py");
  g_autofree char *dir = tmp_path ("case-with-fifo");
  g_autofree char *dir_fifo = g_build_filename (dir, "forward_99.py", NULL);
  g_autofree char *meta_dir = tmp_path ("case-meta-fifo");
  g_autofree char *meta = g_build_filename (meta_dir, "meta.json", NULL);
  g_autofree char *inputs = tmp_path ("inputs.safetensors");
  g_autofree char *forward = sample ("forward_00.py");
  g_autofree char *text = wb_test_read_file (forward, NULL);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (meta_dir, 0700), ==, 0);
  g_assert_cmpint (mkfifo (dir_fifo, 0600), ==, 0);
  g_assert_cmpint (mkfifo (meta, 0600), ==, 0);
  g_assert_cmpint (mkfifo (inputs, 0600), ==, 0);
  {
    g_autofree char *good = g_build_filename (dir, "forward_00.py", NULL);
    g_autofree char *good2 = g_build_filename (meta_dir, "forward_00.py", NULL);

    g_assert_true (g_file_set_contents (good, text, -1, NULL));
    g_assert_true (g_file_set_contents (good2, text, -1, NULL));
  }

  for (const char *const *c = (const char *const[]){ "check", "print", "stages", NULL }; *c != NULL; c++)
    {
      g_auto (Result) lone = { 0 };
      g_auto (Result) folder = { 0 };
      g_auto (Result) zero = { 0 };

      run_cli (&lone, *c, fifo, NULL);
      g_assert_cmpint (lone.status, ==, 2);
      assert_contains (lone.err, "lone.py:1:1: cannot read: not a regular file (a FIFO)");
      run_cli (&folder, *c, dir, NULL);
      g_assert_cmpint (folder.status, !=, 124);
      assert_contains (folder.err, "forward_99.py:1:1: error: cannot read: not a regular file (a FIFO)");
      run_cli (&zero, *c, "/dev/zero", NULL);
      g_assert_cmpint (zero.status, ==, 2);
      assert_contains (zero.err, "/dev/zero:1:1: cannot read: not a regular file (a device)");
    }
  {
    /* before: g_mapped_file_new() and json_parser_load_from_file() opened these FIFOs and waited */
    g_auto (Result) run = { 0 };
    g_auto (Result) meta_run = { 0 };

    run_cli (&run, "run", forward, "--device", "cpu", "--inputs", inputs, NULL);
    g_assert_cmpint (run.status, ==, 2);
    assert_contains (run.err, "inputs.safetensors:1:1: cannot read: not a regular file (a FIFO)");
    run_cli (&meta_run, "run", meta_dir, "--device", "cpu", NULL);
    g_assert_cmpint (meta_run.status, ==, 2);
    assert_contains (meta_run.err, "meta.json:1:1: cannot read: not a regular file (a FIFO)");
  }
  g_unlink (fifo), g_unlink (dir_fifo), g_unlink (meta), g_unlink (inputs);
}

/* A safetensors header whose members have the wrong JSON types (found by fuzz-safetensors: json-glib's
 * getters printed CRITICALs): exit 2 naming the file, nothing on stderr but the message. */
static void
test_bad_safetensors (void)
{
  const char *const headers[] = {
    "{\"x\":{\"dtype\":\"F32\",\"shape\":5,\"data_offsets\":[0,4]}}",
    "{\"x\":{\"dtype\":3,\"shape\":[1],\"data_offsets\":[0,4]}}",
    "{\"x\":{\"dtype\":\"F32\",\"shape\":[\"a\"],\"data_offsets\":[0,4]}}",
    "{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4.5]}}",
  };
  g_autofree char *path = tmp_path ("bad.safetensors");
  g_autofree char *forward = sample ("forward_00.py");

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      g_auto (Result) r = { 0 };
      g_autoptr (GByteArray) bytes = g_byte_array_new ();
      guint64 len = strlen (headers[i]);

      for (guint k = 0; k < 8; k++)
        g_byte_array_append (bytes, (const guint8 *) &(guint8){ (guint8) (len >> (8 * k)) }, 1);
      g_byte_array_append (bytes, (const guint8 *) headers[i], (guint) len);
      g_byte_array_append (bytes, (const guint8 *) "\0\0\0\0", 4);
      g_assert_true (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
      run_cli (&r, "run", forward, "--device", "cpu", "--inputs", path, NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_contains (r.err, path);
      g_assert_null (strstr (r.err, "CRITICAL"));
    }
  g_unlink (path);
}

/* The size limit per trace file, by option and by environment; a bad value is a usage error. */
static void
test_size_limit (void)
{
  g_autofree char *forward = sample ("forward_00.py");
  g_auto (Result) small = { 0 };
  g_auto (Result) ok = { 0 };
  g_auto (Result) bad = { 0 };
  g_auto (Result) env_small = { 0 };

  run_cli (&small, "--max-trace-bytes", "1K", "check", forward, NULL);
  g_assert_cmpint (small.status, ==, 2);
  assert_contains (small.err, "forward_00.py:1:1: file too large");
  run_cli (&ok, "--max-trace-bytes", "64M", "check", forward, NULL);
  g_assert_cmpint (ok.status, ==, 0);
  run_cli (&bad, "--max-trace-bytes", "lots", "check", forward, NULL);
  g_assert_cmpint (bad.status, ==, 2);
  assert_contains (bad.err, "--max-trace-bytes");
  g_setenv ("WB_MAX_TRACE_BYTES", "100", TRUE);
  run_cli (&env_small, "print", forward, NULL);
  g_unsetenv ("WB_MAX_TRACE_BYTES");
  g_assert_cmpint (env_small.status, ==, 2);
  assert_contains (env_small.err, "file too large");
}

/* -- terminal safety ----------------------------------------------------------------------------- */

/* Names and text with escape sequences and bytes that are not UTF-8 reach stderr escaped. */
static void
test_escaped_messages (void)
{
  g_autofree char *esc_name = tmp_path ("forward_00\033]0;pwned\007.py");
  g_autofree char *latin1_name = tmp_path ("forward_01\xe9.py");
  g_autofree char *esc_dir = tmp_path ("esc-case\033[2J");
  const char      *bad_text = "def f(x):\n  t0 = foo(\033[31m)\n";
  g_auto (Result) check = { 0 };
  g_auto (Result) latin1 = { 0 };
  g_auto (Result) stages = { 0 };

  g_assert_true (g_file_set_contents (esc_name, bad_text, -1, NULL));
  g_assert_true (g_file_set_contents (latin1_name, bad_text, -1, NULL));
  run_cli (&check, "check", esc_name, NULL);
  g_assert_cmpint (check.status, ==, 2);
  assert_terminal_safe ("check's stderr", check.err);
  assert_contains (check.err, "forward_00\\x1b]0;pwned\\x07.py:2:");
  assert_contains (check.err, "0x1b");
  run_cli (&latin1, "print", latin1_name, NULL);
  g_assert_cmpint (latin1.status, ==, 2);
  assert_terminal_safe ("print's stderr", latin1.err);
  assert_contains (latin1.err, "forward_01\\xe9.py:2:");

  g_assert_cmpint (g_mkdir (esc_dir, 0700), ==, 0);
  {
    g_autofree char *inside = g_build_filename (esc_dir, "forward_00\033[5m.py", NULL);
    g_autofree char *good = sample ("forward_00.py");
    g_autofree char *text = wb_test_read_file (good, NULL);

    g_assert_true (g_file_set_contents (inside, text, -1, NULL));
    run_cli (&stages, "stages", esc_dir, NULL);
    g_assert_cmpint (stages.status, ==, 0);
    assert_terminal_safe ("stages", stages.out);
    g_unlink (inside);
  }
  g_rmdir (esc_dir);
  g_unlink (esc_name), g_unlink (latin1_name);
}

/* Reads what a child writes to the pty @master until it closes. */
static char *
read_pty (int master)
{
  GString *s = g_string_new (NULL);
  char     buf[4096];
  gssize   n;

  while ((n = read (master, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (s, buf, n);
  return g_string_free (s, FALSE);
}

/* `print` keeps every byte for a pipe (its round trip) and escapes control characters for a terminal. */
static void
test_print_to_terminal (void)
{
  g_autofree char *path = tmp_path ("comment-esc.py");
  const char      *text = "def f(x):\n  # clear \033[2J title \033]0;x\007 c1 \xc2\x9b\n  return x\n";
  g_auto (Result) piped = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *tty_out = NULL;
  const char      *argv[] = { wb_test_binary (), "--headless", "print", path, NULL };
  int              master, slave, wait_status = 0;
  GPid             pid;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  run_cli (&piped, "print", path, NULL);
  g_assert_cmpint (piped.status, ==, 0);
  g_assert_cmpstr (piped.out, ==, text);

  master = posix_openpt (O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt (master) != 0 || unlockpt (master) != 0 ||
      (slave = g_open (ptsname (master), O_RDWR | O_NOCTTY, 0)) < 0)
    {
      g_test_skip ("no pseudo-terminal");
      return;
    }
  {
    struct termios raw;

    /* no "\n" -> "\r\n": what arrives is what the program wrote */
    g_assert_cmpint (tcgetattr (slave, &raw), ==, 0);
    cfmakeraw (&raw);
    g_assert_cmpint (tcsetattr (slave, TCSANOW, &raw), ==, 0);
  }
  g_spawn_async_with_fds (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, -1, slave, -1,
                          &error);
  g_assert_no_error (error);
  close (slave);
  tty_out = read_pty (master);
  close (master);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);
  assert_terminal_safe ("print to a terminal", tty_out);
  assert_contains (tty_out, "# clear \\x1b[2J title \\x1b]0;x\\x07 c1 \\xc2\\x9b");
  g_unlink (path);
}

/* -- session files ------------------------------------------------------------------------------- */

static void
sql (const char *path, const char *statement)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, statement, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", statement, sqlite3_errmsg (db));
  sqlite3_close (db);
}

/* A session with a one-trace set and two cpu runs, made by `profile`, copied to @name (transfer full). */
static char *
session_copy (const char *name)
{
  static char     *made;
  g_autofree char *path = tmp_path (name);
  g_autofree char *bytes = NULL;
  gsize            len = 0;

  if (made == NULL)
    {
      g_autofree char *trace = tmp_path ("tiny.py");

      made = tmp_path ("made.wbsession");
      g_assert_true (g_file_set_contents (trace, "def computation(x):\n  # x: \"cpu f32[4]\"\n"
                                                 "  t0 = prims.neg(x)  # t0: \"cpu f32[4]\"\n  return t0\n",
                                          -1, NULL));
      for (guint i = 0; i < 2; i++)
        {
          g_auto (Result) r = { 0 };

          run_cli (&r, "profile", trace, "--device", "cpu", "--iters", "2", "--warmup", "0", "--session", made, NULL);
          g_assert_cmpint (r.status, ==, 0);
        }
    }
  g_assert_true (g_file_get_contents (made, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));
  return g_steal_pointer (&path);
}

/* The schema as a list; --check with compare's rule and the text hashes; print of a session. */
static void
test_session_files (void)
{
  g_autofree char *trigger = session_copy ("trigger.wbsession");
  g_autofree char *text = session_copy ("text.wbsession");
  g_autofree char *good = session_copy ("good.wbsession");

  sql (trigger, "DROP INDEX kernels_region; CREATE TRIGGER kernels_region AFTER INSERT ON runs BEGIN "
                "DELETE FROM runs; END; CREATE INDEX kernels_region ON kernels (region_id);");
  sql (text, "UPDATE texts SET text = text || ' '");
  for (const char *const *c = (const char *const[]){ "sessions", "compare", "print", "check", NULL }; *c != NULL; c++)
    {
      g_auto (Result) r = { 0 };

      run_cli (&r, *c, trigger, NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_contains (r.err, "2 objects named “kernels_region”");
    }
  {
    g_auto (Result) listed = { 0 };
    g_auto (Result) checked = { 0 };
    g_auto (Result) printed = { 0 };

    run_cli (&listed, "sessions", text, NULL);
    g_assert_cmpint (listed.status, ==, 0);
    run_cli (&checked, "sessions", "--check", text, NULL);
    g_assert_cmpint (checked.status, ==, 2);
    assert_contains (checked.err, "does not match the hash stored with it");
    run_cli (&printed, "print", text, NULL);
    g_assert_cmpint (printed.status, ==, 2);
    assert_contains (printed.err, "does not match the hash stored with it");
  }
  {
    g_auto (Result) printed = { 0 };

    run_cli (&printed, "print", good, NULL);
    g_assert_cmpint (printed.status, ==, 0);
    g_assert_true (g_str_has_prefix (printed.out, "### tiny.py\n"));
    assert_contains (printed.out, "  t0 = prims.neg(x)");
  }
}

/* -- exit codes ------------------------------------------------------------------------------------ */

/* One rule: 2 for the inputs and options, with FILE:LINE:COL for text; 3 only for the machine. */
static void
test_exit_codes (void)
{
  g_autofree char *bad = tmp_path ("bad.py");
  g_autofree char *noann = tmp_path ("noann.py");
  g_autofree char *prologue = tmp_path ("only-prologue.py");
  g_autofree char *session = tmp_path ("bad-import.wbsession");
  g_autofree char *missing_dir_out = tmp_path ("no-such-folder/report.md");
  g_autofree char *pro_text = NULL;
  g_autofree char *pro_src = sample ("prologue_00.py");
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *bad_at = NULL;

  g_assert_true (g_file_set_contents (bad, "def f(x):\n  t0 = (\n", -1, NULL));
  g_assert_true (g_file_set_contents (noann, "def computation(x):\n  return x\n", -1, NULL));
  pro_text = wb_test_read_file (pro_src, NULL);
  g_assert_true (g_file_set_contents (prologue, pro_text, -1, NULL));
  bad_at = g_strdup_printf ("%s:2:9: ", bad);

  /* the same bad file, the same code and location from every command that reads it */
  {
    const char *const commands[][4] = {
      { "check" },
      { "print" },
      { "stages" },
      { "run", "--device", "cpu" },
      { "profile", "--device", "cpu" },
      { "export", "--as", "python" },
      { "import", "--session", session },
    };

    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      {
        g_auto (Result) r = { 0 };

        run_cli (&r, commands[i][0], bad, commands[i][1], commands[i][2], NULL);
        if (r.status != 2 || strstr (r.err, bad_at) == NULL)
          g_error ("%s %s: exit %d, expected 2 and “%s”:\n%s", commands[i][0], bad, r.status, bad_at, r.err);
      }
  }
  /* before: no location at all */
  for (const char *const *c = (const char *const[]){ "run", "profile", NULL }; *c != NULL; c++)
    {
      g_auto (Result) r = { 0 };
      g_autofree char *at = g_strdup_printf ("%s:1:1: input input.x (x) has no tensor annotation", noann);

      run_cli (&r, *c, noann, "--device", "cpu", NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_contains (r.err, at);
    }
  {
    g_auto (Result) r = { 0 };
    g_autofree char *at = g_strdup_printf ("%s:1:1: no joint", prologue);

    run_cli (&r, "stages", prologue, "--recompile", NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_contains (r.err, at);
  }
  /* an output path that cannot take the output is the option's fault (before: 3), and the message names
   * the path asked for, never the temporary file beside it */
  {
    g_auto (Result) to_null = { 0 };
    g_auto (Result) to_missing = { 0 };
    g_auto (Result) report = { 0 };
    g_autofree char *cannot = g_strdup_printf ("%s: cannot write", missing_dir_out);

    run_cli (&to_null, "export", mlp, "--as", "python", "-o", "/dev/null", NULL);
    g_assert_cmpint (to_null.status, ==, 2);
    assert_contains (to_null.err, "/dev/null: not written");
    run_cli (&to_missing, "export", mlp, "--as", "python", "-o", missing_dir_out, NULL);
    g_assert_cmpint (to_missing.status, ==, 2);
    assert_contains (to_missing.err, missing_dir_out);
    g_assert_null (strstr (to_missing.err, "report.md."));
    run_cli (&report, "profile", mlp, "--device", "cpu", "--iters", "1", "--warmup", "0", "--report", missing_dir_out,
             NULL);
    g_assert_cmpint (report.status, ==, 2);
    assert_contains (report.err, cannot);
    g_assert_null (strstr (report.err, "report.md."));
  }
  g_unlink (bad), g_unlink (noann), g_unlink (prologue), g_unlink (session);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("wb-hostile-cli-XXXXXX", NULL);
  g_test_add_func ("/app/hostile/special-inputs", test_special_inputs);
  g_test_add_func ("/app/hostile/size-limit", test_size_limit);
  g_test_add_func ("/app/hostile/bad-safetensors", test_bad_safetensors);
  g_test_add_func ("/app/hostile/escaped-messages", test_escaped_messages);
  g_test_add_func ("/app/hostile/print-to-terminal", test_print_to_terminal);
  g_test_add_func ("/app/hostile/session-files", test_session_files);
  g_test_add_func ("/app/hostile/exit-codes", test_exit_codes);
  rc = g_test_run ();
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    if (system (cmd) != 0)
      g_printerr ("could not remove %s\n", tmpdir);
  }
  g_free (tmpdir);
  return rc;
}
