/* test-old-session-cli.c — the built thunder-wb on a session of an older schema (version 5): `profile
 * --baseline` compares with its run, `profile --session` and `record --session` add to it, and `sessions`,
 * `compare`, `stages` read it, each migrating the file first and keeping its run; a broken file of that
 * schema (truncated, or a page of garbage) gives each of them a clear error and is left byte-identical
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schema-5 file is what this build writes (`profile --session` on data/samples/mlp_small) taken back
 * three migration steps with SQLite: step 8 added runs.launch_list, so the column is dropped (a cpu run has no
 * launch list), step 7 the host_calls table, so it is dropped (a cpu run has no host calls), and step 6
 * region_stats.unfused_from, so the column is dropped (the run's regions hold none);
 * user_version set to 5. SQLite rewrites the table's SQL to exactly the text steps
 * 1..5 produce, which wb_session_open verifies row by row before it migrates (test-session-migrate.c builds
 * version 1 files by hand instead). */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "wb-test-common.h"

#define RUN(run, ...) wb_test_run_thunder_wb ((run), NULL, (const char *const[]){ __VA_ARGS__, NULL })

/* the schema-5 session made once (in main), copied by every test */
static char *old_session;

static const char *
sample (void)
{
  static char *dir;

  if (dir == NULL)
    dir = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  return dir;
}

static sqlite3 *
open_db (const char *path)
{
  sqlite3 *db = NULL;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    g_error ("%s: %s", path, sqlite3_errmsg (db));
  return db;
}

static void
exec_sql (sqlite3 *db, const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

/* the first column of the first row of @sql, as text (transfer full; NULL for SQL NULL) */
static char *
query (const char *path, const char *sql)
{
  sqlite3      *db = open_db (path);
  sqlite3_stmt *stmt = NULL;
  char         *out = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_text (stmt, 0) != NULL)
    out = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return out;
}

/* what identifies the old session's run 1 and its contents: its row's checksums, label and median, the count
 * of its regions and kernel records */
static char *
run_one (const char *path)
{
  return query (path, "SELECT label || ' ' || checksum || ' ' || kernels_checksum || ' ' || iteration_median_ns || ' ' || "
                      "(SELECT count(*) FROM region_stats WHERE run_id = 1) || ' ' || (SELECT count(*) FROM kernels WHERE run_id = 1) "
                      "FROM runs WHERE id = 1");
}

static char *
user_version (const char *path)
{
  return query (path, "PRAGMA user_version");
}

/* Makes the schema-5 session in @dir (transfer full: its path). */
static char *
make_old_session (const char *dir)
{
  char *path = g_build_filename (dir, "old.wbsession", NULL);
  g_auto (WbTestRun) run = { 0 };
  g_autofree char *unfused = NULL;
  sqlite3         *db;

  RUN (&run, "--headless", "profile", sample (), "--device", "cpu", "--iters", "3", "--warmup", "0", "--session", path, "--label",
       "old", "-q");
  if (run.status != 0)
    g_error ("profile --session exited %d:\n%s", run.status, run.err);
  unfused = query (path, "SELECT count(*) FROM region_stats WHERE unfused_from IS NOT NULL");
  g_assert_cmpstr (unfused, ==, "0"); /* nothing that step 6 holds is lost */
  g_free (unfused);
  unfused = query (path, "SELECT count(*) FROM host_calls");
  g_assert_cmpstr (unfused, ==, "0"); /* nor what step 7 holds */
  g_free (unfused);
  unfused = query (path, "SELECT count(*) FROM runs WHERE launch_list != 0");
  g_assert_cmpstr (unfused, ==, "0"); /* nor step 8's (a cpu run replays no launch list) */
  db = open_db (path);
  exec_sql (db, "ALTER TABLE runs DROP COLUMN launch_list");
  exec_sql (db, "DROP TABLE host_calls");
  exec_sql (db, "ALTER TABLE region_stats DROP COLUMN unfused_from");
  exec_sql (db, "PRAGMA user_version = 5");
  exec_sql (db, "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close (db);
  return path;
}

typedef struct
{
  char *dir;
  char *path; /* a copy of the schema-5 session */
  char *run;  /* run_one () of it */
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *bytes = NULL;
  gsize            len = 0;
  g_autofree char *version = NULL;

  f->dir = g_dir_make_tmp ("wb-old-session-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "s.wbsession", NULL);
  g_assert_true (g_file_get_contents (old_session, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (f->path, bytes, (gssize) len, NULL));
  version = user_version (f->path);
  g_assert_cmpstr (version, ==, "5");
  f->run = run_one (f->path);
  g_assert_nonnull (f->run);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  wb_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->run);
}

/* @f's file is at the current schema (8), marked as migrated from 5, and its run 1 is what it was */
static void
assert_migrated (Fixture *f)
{
  g_autofree char *version = user_version (f->path);
  g_autofree char *migrated = query (f->path, "SELECT count(*) FROM meta WHERE key = 'migrated_from_5'");
  g_autofree char *run = run_one (f->path);

  g_assert_cmpstr (version, ==, "8");
  g_assert_cmpstr (migrated, ==, "1");
  g_assert_cmpstr (run, ==, f->run);
}

/* `profile --baseline OLD:1` compares with the old run: the gate's table names its regions */
static void
test_baseline (Fixture *f, gconstpointer data)
{
  g_auto (WbTestRun) run = { 0 };
  g_autofree char *spec = g_strconcat (f->path, ":1", NULL);
  g_autofree char *named = g_strdup_printf ("Baseline: %s:1.", f->path);

  RUN (&run, "--headless", "profile", sample (), "--device", "cpu", "--iters", "3", "--warmup", "0", "--baseline", spec,
       "--fail-above", "100000", "-q");
  if (run.status != 0)
    g_error ("profile --baseline exited %d:\n%s", run.status, run.err);
  g_assert_nonnull (strstr (run.out, "## Baseline gate: passed"));
  g_assert_nonnull (strstr (run.out, named));
  g_assert_nonnull (strstr (run.out, "| TorchCompile0 | "));
  g_assert_nonnull (strstr (run.out, "| (iteration) | "));
  assert_migrated (f);
  /* SESSION without :RUN takes its latest run, the same one */
  {
    g_auto (WbTestRun) again = { 0 };

    RUN (&again, "--headless", "profile", sample (), "--device", "cpu", "--iters", "1", "--warmup", "0", "--baseline", f->path,
         "--fail-above", "100000", "-q");
    g_assert_cmpint (again.status, ==, 0);
    g_assert_nonnull (strstr (again.out, named));
  }
}

/* `profile --session OLD` stores run 2 beside the old one; `compare` then compares the two */
static void
test_profile_session (Fixture *f, gconstpointer data)
{
  g_auto (WbTestRun) run = { 0 };
  g_auto (WbTestRun) compare = { 0 };
  g_autofree char *runs = NULL;

  RUN (&run, "--headless", "profile", sample (), "--device", "cpu", "--iters", "2", "--warmup", "0", "--session", f->path, "--label",
       "new", "-q");
  if (run.status != 0)
    g_error ("profile --session exited %d:\n%s", run.status, run.err);
  g_assert_nonnull (strstr (run.out, "stored as run #2 in "));
  assert_migrated (f);
  runs = query (f->path, "SELECT group_concat(id || '=' || label, ',') FROM runs");
  g_assert_cmpstr (runs, ==, "1=old,2=new");
  RUN (&compare, "--headless", "compare", f->path);
  if (compare.status != 0)
    g_error ("compare exited %d:\n%s", compare.status, compare.err);
  g_assert_nonnull (strstr (compare.out, "TorchCompile0"));
}

/* the stand-in torch and thunder of tests/record/fake, for `record` (TRUE when python3 is there) */
static gboolean
set_fake_python (void)
{
  const char      *src = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *fake = g_build_filename (src, "tests", "record", "fake", NULL);

  g_assert_nonnull (src);
  if (python == NULL)
    return FALSE;
  g_setenv ("PYTHONPATH", fake, TRUE);
  g_setenv ("WB_FAKE_TRACES", sample (), TRUE);
  return TRUE;
}

static char *
fake_program (void)
{
  return g_build_filename (g_getenv ("WB_SOURCE_ROOT"), "tests", "record", "fake_program.py", NULL);
}

/* `record --session OLD` imports the recording as a second trace set beside the old run */
static void
test_record (Fixture *f, gconstpointer data)
{
  g_auto (WbTestRun) run = { 0 };
  g_autofree char *program = fake_program ();
  g_autofree char *out = g_build_filename (f->dir, "cap", NULL);
  g_autofree char *sets = NULL;

  if (!set_fake_python ())
    {
      g_test_skip ("no python3");
      return;
    }
  RUN (&run, "record", "--session", f->path, "--out", out, "--", "python3", program);
  if (run.status != 0)
    g_error ("record exited %d:\nstdout:\n%s\nstderr:\n%s", run.status, run.out, run.err);
  g_assert_nonnull (strstr (run.out, "trace set 2 in"));
  assert_migrated (f);
  sets = query (f->path, "SELECT group_concat(id || '=' || name, ',') FROM trace_sets");
  g_assert_cmpstr (sets, ==, "1=mlp_small,2=scale");
}

/* `sessions`, `stages` and `check` read it (each on a fresh copy) */
static void
test_read_commands (Fixture *f, gconstpointer data)
{
  const char *commands[] = { "sessions", "stages", "check" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto (WbTestRun) run = { 0 };

      if (i > 0)
        {
          fixture_tear_down (f, data);
          fixture_set_up (f, data);
        }
      RUN (&run, "--headless", commands[i], f->path);
      if (run.status != 0)
        g_error ("%s exited %d:\n%s", commands[i], run.status, run.err);
      assert_migrated (f);
    }
}

/* A file this process may not write cannot be migrated: the reading commands say why and leave it at 5 */
static void
test_read_only_file (Fixture *f, gconstpointer data)
{
  g_auto (WbTestRun) run = { 0 };
  g_autofree char *version = NULL;

  if (getuid () == 0)
    {
      g_test_skip ("root writes any file");
      return;
    }
  g_assert_cmpint (g_chmod (f->path, 0444), ==, 0);
  RUN (&run, "--headless", "profile", sample (), "--device", "cpu", "--iters", "1", "--warmup", "0", "--baseline", f->path,
       "--fail-above", "100000", "-q");
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "schema version 5 needs migrating to version 8, but the file is read-only"));
  version = user_version (f->path);
  g_assert_cmpstr (version, ==, "5");
}

/* Breaks @path: KIND "truncated" keeps the first half of the file; "garbage" overwrites the root page of
 * its runs table, which the schema check does not read */
static void
break_file (const char *path, const char *kind)
{
  g_autofree char *bytes = NULL;
  gsize            len = 0;

  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  if (strcmp (kind, "truncated") == 0)
    len /= 2;
  else
    {
      g_autofree char *root = query (path, "SELECT rootpage FROM sqlite_master WHERE name = 'runs'");
      g_autofree char *page_size = query (path, "PRAGMA page_size");
      gsize            size = (gsize) g_ascii_strtoull (page_size, NULL, 10);
      gsize            at = ((gsize) g_ascii_strtoull (root, NULL, 10) - 1) * size;

      g_assert_cmpuint (at, >, 0);
      g_assert_cmpuint (at + size, <=, len);
      for (gsize i = 0; i < size; i++)
        bytes[at + i] = (char) ((i * 37 + 11) & 0xff);
    }
  g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
}

/* Each command on the broken file: exit 2 with a message naming it and what is wrong; the file unchanged */
static void
test_broken (Fixture *f, gconstpointer data)
{
  const char      *kind = data;
  const char      *expected = strcmp (kind, "truncated") == 0 ? "truncated session file" : "corrupt session file";
  g_autofree char *before = NULL;
  gsize            before_len = 0;
  g_autofree char *program = fake_program ();
  gboolean         python = set_fake_python ();
  const char      *commands[][14] = {
         { "--headless", "profile", sample (), "--device", "cpu", "--iters", "1", "--warmup", "0", "--baseline", f->path, "--fail-above", "10", NULL },
         { "--headless", "profile", sample (), "--device", "cpu", "--iters", "1", "--warmup", "0", "--session", f->path, "-q", NULL },
         { "record", "--session", f->path, "--", "python3", program, NULL },
         { "--headless", "sessions", f->path, NULL },
         { "--headless", "compare", f->path, NULL },
         { "--headless", "stages", f->path, NULL },
  };

  break_file (f->path, kind);
  g_assert_true (g_file_get_contents (f->path, &before, &before_len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto (WbTestRun) run = { 0 };
      g_autofree char *after = NULL;
      g_autofree char *prefix = g_strconcat (f->path, ": ", expected, NULL);
      gsize            after_len = 0;

      if (strcmp (commands[i][0], "record") == 0 && !python)
        continue;
      wb_test_run_thunder_wb (&run, NULL, commands[i]);
      g_test_message ("%s: exit %d: %s", commands[i][1], run.status, run.err);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, prefix));
      g_assert_null (strstr (run.out, "fake program done")); /* record refused before running the command */
      g_assert_true (g_file_get_contents (f->path, &after, &after_len, NULL));
      g_assert_cmpuint (after_len, ==, before_len);
      g_assert_true (memcmp (after, before, before_len) == 0);
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  int              rc;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("wb-old-session-XXXXXX", NULL);
  old_session = make_old_session (dir);
  g_test_add ("/app/old-session/baseline", Fixture, NULL, fixture_set_up, test_baseline, fixture_tear_down);
  g_test_add ("/app/old-session/profile-session", Fixture, NULL, fixture_set_up, test_profile_session, fixture_tear_down);
  g_test_add ("/app/old-session/record", Fixture, NULL, fixture_set_up, test_record, fixture_tear_down);
  g_test_add ("/app/old-session/read-commands", Fixture, NULL, fixture_set_up, test_read_commands, fixture_tear_down);
  g_test_add ("/app/old-session/read-only-file", Fixture, NULL, fixture_set_up, test_read_only_file, fixture_tear_down);
  g_test_add ("/app/old-session/broken/truncated", Fixture, "truncated", fixture_set_up, test_broken, fixture_tear_down);
  g_test_add ("/app/old-session/broken/garbage-page", Fixture, "garbage", fixture_set_up, test_broken, fixture_tear_down);
  rc = g_test_run ();
  wb_test_remove_tree (dir);
  g_free (old_session);
  return rc;
}
