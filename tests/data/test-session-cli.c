/* test-session-cli.c — the session commands of the built thunder-wb: import, sessions, compare; exit codes
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb-test-common.h"
#include "wb-test-runs.h"

typedef struct
{
  int   status;
  char *out;
  char *err;
} CliResult;

static void
cli_result_clear (CliResult *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliResult, cli_result_clear)

static const char *
binary (void)
{
  static char *path;

  if (path == NULL)
    {
      const char *root = g_getenv ("WB_BUILD_ROOT");

      path = g_build_filename (root ? root : ".", "app", "thunder-wb", NULL);
    }
  return path;
}

/* A command (NULL-terminated) that run_cli() puts before thunder-wb, or NULL. */
static const char *const *cli_prefix;

/* run_cli: thunder-wb --headless ARGS... (NULL-terminated). */
static void
run_cli (CliResult *r,
         ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);
  int         wait_status = 0;
  const char *arg;
  va_list     args;

  for (const char *const *p = cli_prefix; p != NULL && *p != NULL; p++)
    g_ptr_array_add (argv, (char *) *p);
  g_ptr_array_add (argv, (char *) binary ());
  g_ptr_array_add (argv, (char *) "--headless");
  va_start (args, r);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, &r->out, &r->err, &wait_status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

typedef struct
{
  char *dir;
  char *session; /* a session with the mlp_small traces and 3 runs */
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autoptr (GPtrArray) regions = NULL;
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);

  if (!g_file_test (binary (), G_FILE_TEST_IS_EXECUTABLE))
    return;
  f->dir = g_dir_make_tmp ("wb-session-cli-XXXXXX", &error);
  g_assert_no_error (error);
  f->session = g_build_filename (f->dir, "runs.wbsession", NULL);
  session = wb_session_open (f->session, WB_SESSION_OPEN_CREATE, &error);
  g_assert_no_error (error);
  regions = wb_test_regions_load (mlp);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (WbRun) run = wb_test_make_run (regions, i * 3, 20, 30);

      g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, i + 1);
    }
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  if (f->dir != NULL)
    {
      g_autoptr (GDir) d = g_dir_open (f->dir, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *p = g_build_filename (f->dir, name, NULL);

          g_unlink (p);
        }
      g_rmdir (f->dir);
    }
  g_free (f->dir);
  g_free (f->session);
}

static gboolean
skip_without_binary (void)
{
  if (g_file_test (binary (), G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  g_test_skip ("thunder-wb is not built");
  return TRUE;
}

static void
test_import (Fixture      *f,
             gconstpointer data)
{
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *fresh = NULL;

  if (skip_without_binary ())
    return;
  fresh = g_build_filename (f->dir, "fresh.wbsession", NULL);
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "import", mlp, "--session", fresh, NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_contains (r.out, "imported mlp_small into");
    assert_contains (r.out, "new texts");
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "import", mlp, "--session", fresh, NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_contains (r.out, "nothing new: mlp_small is already in");
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "import", "/nonexistent/traces", "--session", fresh, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_contains (r.err, "/nonexistent/traces");
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "import", mlp, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_contains (r.err, "--session");
  }
}

static void
test_sessions (Fixture      *f,
               gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;

  if (skip_without_binary ())
    return;
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "sessions", f->session, NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_contains (r.out, "runs: 3");
    assert_contains (r.out, "NVIDIA H100 80GB HBM3");
    assert_contains (r.out, "median ms");
    assert_contains (r.out, "assignments:");
    assert_contains (r.out, "seq 6");
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "sessions", f->session, "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    json_parser_load_from_data (parser, r.out, -1, &error);
    g_assert_no_error (error);
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "thunder-wb/sessions");
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "runs")), ==, 3);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "assignments")), >=, 1);
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "sessions", f->session, "extra", NULL);
    g_assert_cmpint (r.status, ==, 2);
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "sessions", "--check", f->session, NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_contains (r.out, "integrity: ok");
  }
}

static void
test_compare (Fixture      *f,
              gconstpointer data)
{
  if (skip_without_binary ())
    return;
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", f->session, NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_contains (r.out, "# Comparing run 2 (A) with run 3 (B)");
    assert_contains (r.out, "| region | executor A | executor B | A ms | B ms | Δ ms | Δ % | noise ms | verdict |");
    assert_contains (r.out, "**whole iteration**");
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", f->session, "1", "3", NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_contains (r.out, "# Comparing run 1 (A) with run 3 (B)");
  }
  {
    g_auto (CliResult) r = { 0 };
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (GError) error = NULL;
    JsonObject *root;

    run_cli (&r, "compare", f->session, "3", "1", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    json_parser_load_from_data (parser, r.out, -1, &error);
    g_assert_no_error (error);
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "run_a"), "id"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "run_b"), "id"), ==, 1);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "regions")), >, 0);
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", f->session, "1", "42", NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_contains (r.err, "no run 42");
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", f->session, "1", NULL);
    g_assert_cmpint (r.status, ==, 2);
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", f->session, "one", "two", NULL);
    g_assert_cmpint (r.status, ==, 2);
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", f->session, "--format", "html", NULL);
    g_assert_cmpint (r.status, ==, 2);
  }
}

static void
test_bad_files (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *random_path = NULL;
  g_autofree char *trigger_path = NULL;
  g_autofree char *newer_path = NULL;
  g_autofree char *one_path = NULL;
  const char      *commands[] = { "sessions", "compare" };
  sqlite3         *db = NULL;

  if (skip_without_binary ())
    return;
  random_path = g_build_filename (f->dir, "random.wbsession", NULL);
  g_file_set_contents (random_path, "\x13\x37 not a database at all \xff\xfe", 27, NULL);

  /* A copy of the session with a trigger added, and one claiming a newer schema. */
  trigger_path = g_build_filename (f->dir, "trigger.wbsession", NULL);
  newer_path = g_build_filename (f->dir, "newer.wbsession", NULL);
  {
    g_autofree char *bytes = NULL;
    gsize            len = 0;

    /* The fixture's session is closed: its WAL was checkpointed into the file. */
    g_assert_true (g_file_get_contents (f->session, &bytes, &len, NULL));
    g_file_set_contents (trigger_path, bytes, len, NULL);
    g_file_set_contents (newer_path, bytes, len, NULL);
  }
  g_assert_cmpint (sqlite3_open (trigger_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM runs; END;", NULL, NULL,
                                 NULL),
                   ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_cmpint (sqlite3_open (newer_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 12", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      struct
      {
        const char *path;
        const char *needle;
      } cases[] = {
        { random_path, "not an SQLite database" },
        { trigger_path, "unexpected trigger" },
        { newer_path, "newer thunder-wb" },
        { "/nonexistent.wbsession", "No such file" },
      };

      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        {
          g_auto (CliResult) r = { 0 };

          run_cli (&r, commands[c], cases[i].path, NULL);
          g_assert_cmpint (r.status, ==, 2);
          assert_contains (r.err, cases[i].path);
          assert_contains (r.err, cases[i].needle);
          g_assert_cmpstr (r.out, ==, "");
        }
    }
  /* import into an untrusted session: refused, nothing written. */
  {
    g_auto (CliResult) r = { 0 };
    g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);

    run_cli (&r, "import", mlp, "--session", trigger_path, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_contains (r.err, "unexpected trigger");
  }

  /* A session with one run: compare needs two. */
  one_path = g_build_filename (f->dir, "one.wbsession", NULL);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WbSession) session = wb_session_open (one_path, WB_SESSION_OPEN_CREATE, &error);
    g_autoptr (WbRun) run = wb_run_new ();

    g_assert_no_error (error);
    wb_run_add_iteration (run, 1000000);
    g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 1);
  }
  {
    g_auto (CliResult) r = { 0 };

    run_cli (&r, "compare", one_path, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_contains (r.err, "holds 1 run");
  }
}

/* The fixture's session with mlp_small imported, copied to @name in its folder (transfer full). */
static char *
imported_copy (Fixture    *f,
               const char *name)
{
  g_auto (CliResult) r = { 0 };
  g_autofree char *mlp = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *bytes = NULL;
  gsize            len = 0;

  run_cli (&r, "import", mlp, "--session", f->session, NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* closed: its WAL was checkpointed into the file */
  g_assert_true (g_file_get_contents (f->session, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));
  return g_steal_pointer (&path);
}

static void
sql (const char *path,
     const char *statement)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, statement, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* `sessions --check` applies compare's rule to every run and the loaders' rule to every text (issue 46:
 * it passed a run whose checksum failed, and a text whose stored hash no longer matched). */
static void
test_check_verifies_hashes (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char *run_path = NULL;
  g_autofree char *text_path = NULL;

  if (skip_without_binary ())
    return;
  run_path = imported_copy (f, "run.wbsession");
  text_path = imported_copy (f, "text.wbsession");
  sql (run_path, "UPDATE runs SET label = 'edited' WHERE id = 2");
  sql (text_path, "UPDATE texts SET text = text || ' ' WHERE id = (SELECT text_id FROM source_texts "
                  "WHERE trace_set_id = 1 ORDER BY position LIMIT 1)");
  {
    g_auto (CliResult) plain = { 0 };
    g_auto (CliResult) check = { 0 };
    g_auto (CliResult) compare = { 0 };

    run_cli (&plain, "sessions", run_path, NULL);
    g_assert_cmpint (plain.status, ==, 0);
    run_cli (&compare, "compare", run_path, "1", "2", NULL);
    g_assert_cmpint (compare.status, ==, 2);
    assert_contains (compare.err, "run 2: its content does not match the checksum");
    run_cli (&check, "sessions", "--check", run_path, NULL);
    g_assert_cmpint (check.status, ==, 2);
    assert_contains (check.err, run_path);
    assert_contains (check.err, "run 2: its content does not match the checksum");
  }
  {
    g_auto (CliResult) check = { 0 };
    g_auto (CliResult) load = { 0 };

    run_cli (&check, "sessions", "--check", text_path, NULL);
    g_assert_cmpint (check.status, ==, 2);
    assert_contains (check.err, "does not match the hash stored with it");
    run_cli (&load, "check", text_path, NULL);
    g_assert_cmpint (load.status, ==, 2);
    assert_contains (load.err, "does not match the hash stored with it");
  }
  {
    g_auto (CliResult) clean = { 0 };

    run_cli (&clean, "sessions", "--check", f->session, NULL);
    g_assert_cmpint (clean.status, ==, 0);
  }
}

/* The commands that only read, on @path: each exits 0; `print` prints the traces. */
static void
run_read_only_commands (const char *path)
{
  const char *commands[] = { "sessions", "compare", "check", "print", "stages" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto (CliResult) r = { 0 };

      run_cli (&r, commands[i], path, NULL);
      if (r.status != 0)
        g_error ("%s %s exited %d:\n%s", commands[i], path, r.status, r.err);
      if (strcmp (commands[i], "print") == 0)
        {
          g_assert_true (g_str_has_prefix (r.out, "### prologue_00.py\n"));
          assert_contains (r.out, "\n### forward_00.py\n");
          assert_contains (r.out, "def computation(");
        }
    }
}

/* A session in a folder this user may not write: every command that only reads works (issue 46: each
 * failed with "attempt to write a readonly database"); `print` prints its traces. As root, permissions
 * do not bind: the commands then run as nobody through setpriv. */
static void
test_read_only_folder (Fixture      *f,
                       gconstpointer data)
{
  g_autofree char *copy = NULL;
  g_autofree char *ro_dir = NULL;
  g_autofree char *ro_path = NULL;
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");

  if (skip_without_binary ())
    return;
  if (geteuid () == 0 && setpriv == NULL)
    {
      g_test_skip ("running as root without setpriv: a read-only folder cannot be tested");
      return;
    }
  copy = imported_copy (f, "copy.wbsession");
  ro_dir = g_build_filename (f->dir, "ro", NULL);
  ro_path = g_build_filename (ro_dir, "s.wbsession", NULL);
  g_assert_cmpint (g_mkdir (ro_dir, 0755), ==, 0);
  g_assert_cmpint (g_rename (copy, ro_path), ==, 0);
  g_assert_cmpint (g_chmod (ro_path, 0444), ==, 0);
  g_assert_cmpint (g_chmod (ro_dir, 0555), ==, 0);
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0);
  {
    const char *const as_nobody[] = { setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", NULL };

    cli_prefix = geteuid () == 0 ? as_nobody : NULL;
    run_read_only_commands (ro_path);
    cli_prefix = NULL;
  }
  /* nothing was created beside it */
  {
    g_autoptr (GDir) d = g_dir_open (ro_dir, 0, NULL);

    g_assert_cmpstr (g_dir_read_name (d), ==, "s.wbsession");
    g_assert_null (g_dir_read_name (d));
  }
  g_chmod (ro_dir, 0755);
  g_unlink (ro_path);
  g_rmdir (ro_dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add ("/data/cli/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("import", test_import);
  ADD ("sessions", test_sessions);
  ADD ("compare", test_compare);
  ADD ("bad-files", test_bad_files);
  ADD ("check-verifies-hashes", test_check_verifies_hashes);
  ADD ("read-only-folder", test_read_only_folder);
#undef ADD
  return g_test_run ();
}
