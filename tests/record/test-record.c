/* test-record.c — `thunder-wb record` without PyTorch: the clear message and exit 3 when torch is missing
 * (a shadowing torch package that raises ModuleNotFoundError makes this hold on any machine, and the
 * machine's own python3 is tried as well when it lacks torch), usage errors (exit 2), and the whole
 * capture -> import -> summary path with the stand-in torch and thunder of tests/record/fake on the
 * bundled sample traces (data/samples/mlp_small): the session, the case folder, tensors.safetensors read
 * back by the C reader, a failing command (exit 1, still imported), and a command that captures nothing.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-data.h"
#include "wb-executors.h"
#include "wb-test-common.h"

typedef struct
{
  int   status;
  char *out;
  char *err;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static char *
thunder_wb (void)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");

  g_assert_nonnull (build);
  return g_build_filename (build, "app", "thunder-wb", NULL);
}

static char *
fake_program_path (void)
{
  const char *src = g_getenv ("WB_SOURCE_ROOT");

  g_assert_nonnull (src);
  return g_build_filename (src, "tests", "record", "fake_program.py", NULL);
}

/* Runs thunder-wb with @args (NULL-terminated) in @cwd with @extra_env ("NAME=VALUE", NULL-terminated). */
static void
run_wb (Result *r, const char *cwd, const char *const *extra_env, const char *const *args)
{
  g_autofree char *exe = thunder_wb ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (argv, exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  for (guint i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
    {
      g_auto (GStrv) kv = g_strsplit (extra_env[i], "=", 2);

      env = g_environ_setenv (env, kv[0], kv[1], TRUE);
    }
  if (!g_spawn_sync (cwd, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, &r->out, &r->err, &r->status, &error))
    g_error ("cannot run %s: %s", exe, error->message);
  r->status = WIFEXITED (r->status) ? WEXITSTATUS (r->status) : -1;
}

static char *
make_tmpdir (void)
{
  g_autoptr (GError) error = NULL;
  char *d = g_dir_make_tmp ("wb-test-record-XXXXXX", &error);

  g_assert_no_error (error);
  return d;
}

static gboolean
python3_has_torch (void)
{
  const char *argv[] = { "python3", "-c", "import torch", NULL };
  int         status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static gboolean
have_python3 (void)
{
  g_autofree char *p = g_find_program_in_path ("python3");

  return p != NULL;
}

static void
assert_needs_thunder (const Result *r)
{
  g_assert_cmpint (r->status, ==, 3);
  g_assert_nonnull (strstr (r->err, "record needs PyTorch and Lightning Thunder"));
  g_assert_nonnull (strstr (r->err, "torch ("));
  g_assert_nonnull (strstr (r->err, "pip install torch lightning-thunder"));
}

/* torch shadowed by a package that cannot be imported: exit 3, nothing run, no session written */
static void
test_no_torch (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *shadow = g_build_filename (dir, "torch", NULL);
  g_autofree char *init = g_build_filename (shadow, "__init__.py", NULL);
  g_autofree char *session = g_build_filename (dir, "s.wbsession", NULL);
  g_autofree char *pp = g_strdup_printf ("PYTHONPATH=%s", dir);
  g_autofree char *marker = g_build_filename (dir, "ran", NULL);
  g_autofree char *touch = g_strdup_printf ("open(%s, 'w').close()", "'ran'");
  const char      *env[] = { pp, NULL };
  g_auto (Result) r = { 0 };

  if (!have_python3 ())
    {
      g_test_skip ("no python3");
      return;
    }
  g_assert_cmpint (g_mkdir (shadow, 0755), ==, 0);
  g_assert_true (g_file_set_contents (init, "raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n", -1, NULL));
  {
    const char *args[] = { "record", "--session", session, "--", "python3", "-c", touch, NULL };

    run_wb (&r, dir, env, args);
  }
  assert_needs_thunder (&r);
  g_assert_nonnull (strstr (r.err, "No module named 'torch'"));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS)); /* the command did not run */
  g_assert_false (g_file_test (session, G_FILE_TEST_EXISTS));
  wb_test_remove_tree (dir);
}

/* this machine's own python3, when it has no torch (as on CI without PyTorch) */
static void
test_no_torch_here (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *session = g_build_filename (dir, "s.wbsession", NULL);
  g_auto (Result) r = { 0 };
  const char *args[] = { "record", "--session", session, "--", "python3", "train.py", NULL };

  if (!have_python3 () || python3_has_torch ())
    {
      g_test_skip ("python3 has PyTorch here (or there is no python3)");
      wb_test_remove_tree (dir);
      return;
    }
  run_wb (&r, dir, NULL, args);
  assert_needs_thunder (&r);
  /* without --headless too, as DESIGN.md writes it; the same with --headless */
  {
    g_auto (Result) r2 = { 0 };
    const char *args2[] = { "--headless", "record", "--", "python3", "-c", "pass", NULL };

    run_wb (&r2, dir, NULL, args2);
    assert_needs_thunder (&r2);
  }
  /* a program that is not python: python3 is checked */
  {
    g_auto (Result) r3 = { 0 };
    const char *args3[] = { "record", "--out", "cap", "--", "sh", "-c", "true", NULL };

    run_wb (&r3, dir, NULL, args3);
    assert_needs_thunder (&r3);
    g_assert_nonnull (strstr (r3.err, "(python3)"));
  }
  wb_test_remove_tree (dir);
}

static void
test_usage (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  g_autofree char *inside = g_build_filename (full, "x", NULL);

  {
    g_auto (Result) r = { 0 };
    const char *args[] = { "record", "--session", "s.wbsession", NULL };

    run_wb (&r, dir, NULL, args);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "needs a COMMAND"));
  }
  {
    g_auto (Result) r = { 0 };
    const char *args[] = { "record", "--iters", "0", "--", "python3", "x.py", NULL };

    run_wb (&r, dir, NULL, args);
    g_assert_cmpint (r.status, ==, 2);
  }
  {
    g_auto (Result) r = { 0 };
    const char *args[] = { "record", "--out", full, "--", "python3", "x.py", NULL };
    const char *env[] = { "PYTHONPATH=", NULL };

    g_assert_cmpint (g_mkdir (full, 0755), ==, 0);
    g_assert_true (g_file_set_contents (inside, "", 0, NULL));
    /* a non-empty --out is refused before anything runs, PyTorch or not */
    run_wb (&r, dir, env, args);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "must not exist yet or be empty"));
  }
  {
    g_auto (Result) r = { 0 };
    const char *args[] = { "--help", NULL };

    run_wb (&r, dir, NULL, args);
    g_assert_nonnull (strstr (r.out, "record [--session F | --out DIR]"));
    g_assert_null (strstr (r.out, "Planned: record"));
  }
  wb_test_remove_tree (dir);
}

/* -- with the stand-in thunder ------------------------------------------------------------------ */

static char **
fake_env (const char *extra)
{
  const char      *src = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *fake = g_build_filename (src, "tests", "record", "fake", NULL);
  g_autofree char *traces = g_build_filename (src, "data", "samples", "mlp_small", NULL);
  GPtrArray       *env = g_ptr_array_new ();

  g_ptr_array_add (env, g_strdup_printf ("PYTHONPATH=%s", fake));
  g_ptr_array_add (env, g_strdup_printf ("WB_FAKE_TRACES=%s", traces));
  if (extra != NULL)
    g_ptr_array_add (env, g_strdup (extra));
  g_ptr_array_add (env, NULL);
  return (char **) g_ptr_array_free (env, FALSE);
}

static void
test_fake_capture (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *session = g_build_filename (dir, "rec.wbsession", NULL);
  g_autofree char *out = g_build_filename (dir, "cap", NULL);
  g_autofree char *program = fake_program_path ();
  g_autofree char *case_dir = g_build_filename (out, "scale", NULL);
  g_autofree char *tensors_path = g_build_filename (case_dir, "tensors.safetensors", NULL);
  g_autofree char *stage = g_build_filename (case_dir, "stages", "00_operator_executor_execution_sdpa_torchcompile_torch_python_.py", NULL);
  g_auto (GStrv) env = fake_env (NULL);
  g_auto (Result) r = { 0 };
  g_autoptr (GError) error = NULL;

  if (!have_python3 ())
    {
      g_test_skip ("no python3");
      return;
    }
  {
    const char *args[] = { "record", "--session", session, "--out", out, "--save-inputs", "--", "python3", program, NULL };

    run_wb (&r, dir, (const char *const *) env, args);
  }
  if (r.status != 0)
    g_printerr ("stdout:\n%s\nstderr:\n%s\n", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "fake program done"));
  g_assert_nonnull (strstr (r.out, "scale (thunder.jit of scale): prologue 2, forward 7, backward 1, epilogue 1, stages 2"));
  g_assert_nonnull (strstr (r.out, "trace set 1 in"));
  g_assert_nonnull (strstr (r.out, "record: captured 1 compiled entry"));
  g_assert_nonnull (strstr (r.err, "thunder-wb record: captured scale"));

  /* the folder is laid out like ../shared/traces/<case>/ and loads */
  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *name = g_strdup_printf ("forward_%02u.py", i);
      g_autofree char *path = g_build_filename (case_dir, name, NULL);

      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
  g_assert_true (g_file_test (stage, G_FILE_TEST_IS_REGULAR));
  {
    g_autoptr (WbTraceSet) set = wb_trace_set_load (case_dir, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (wb_trace_set_get_n_entries (set), ==, 13);
  }
  /* the inputs, written by the Python writer, read by the C reader */
  {
    g_autoptr (WbSafetensors) st = wb_safetensors_load (tensors_path, &error);

    g_assert_no_error (error);
    g_assert_nonnull (st);
  }
  /* the session holds the set; `stages` and `check` read it as PATH */
  {
    g_autoptr (WbSession) s = wb_session_open (session, WB_SESSION_OPEN_READ_ONLY, &error);
    g_autoptr (GPtrArray) sets = NULL;

    g_assert_no_error (error);
    sets = wb_session_list_trace_sets (s, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sets->len, ==, 1);
    g_assert_cmpstr (((WbSessionTraceSet *) sets->pdata[0])->name, ==, "scale");
    g_assert_cmpuint (((WbSessionTraceSet *) sets->pdata[0])->n_entries, ==, 13);
  }
  {
    g_auto (Result) c = { 0 };
    const char *args[] = { "--headless", "check", session, NULL };

    run_wb (&c, dir, NULL, args);
    g_assert_cmpint (c.status, ==, 0);
    g_assert_nonnull (strstr (c.out, "13 traces checked, 0 errors"));
  }
  wb_test_remove_tree (dir);
}

static void
test_fake_failing_command (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *session = g_build_filename (dir, "rec.wbsession", NULL);
  g_autofree char *program = fake_program_path ();
  g_auto (GStrv) env = fake_env ("FAKE_EXIT=5");
  g_auto (Result) r = { 0 };
  const char *args[] = { "record", "--session", session, "--", "python3", program, NULL };
  GDir       *tmp;

  if (!have_python3 ())
    {
      g_test_skip ("no python3");
      return;
    }
  run_wb (&r, dir, (const char *const *) env, args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "failed"));
  g_assert_nonnull (strstr (r.out, "record: captured 1 compiled entry")); /* what it captured is kept */
  g_assert_true (g_file_test (session, G_FILE_TEST_IS_REGULAR));
  /* no thunder-wb-record-* folder is left in the current directory (the capture was temporary) */
  tmp = g_dir_open (dir, 0, NULL);
  for (const char *n; (n = g_dir_read_name (tmp)) != NULL;)
    g_assert_false (g_str_has_prefix (n, "thunder-wb-record-"));
  g_dir_close (tmp);
  wb_test_remove_tree (dir);
}

static void
test_fake_nothing_captured (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_auto (GStrv) env = fake_env (NULL);
  g_auto (Result) r = { 0 };
  const char *args[] = { "record", "--out", "cap", "--", "python3", "-c", "import thunder", NULL };

  if (!have_python3 ())
    {
      g_test_skip ("no python3");
      return;
    }
  run_wb (&r, dir, (const char *const *) env, args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "nothing was captured"));
  wb_test_remove_tree (dir);
}

/* -- a distributed program's ranks, with the stand-in thunder ---------------------------------------- */

/* Two ranks (RANK/WORLD_SIZE as torchrun sets them) of the fake program, at once: each writes
 * scale/rank<R>/ and record-rank<R>.json; record merges them into record.json and imports both. */
static void
test_fake_ranks (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *session = g_build_filename (dir, "rec.wbsession", NULL);
  g_autofree char *out = g_build_filename (dir, "cap", NULL);
  g_autofree char *program = fake_program_path ();
  g_autofree char *script = g_strdup_printf ("RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 python3 '%s' & "
                                             "RANK=1 LOCAL_RANK=1 WORLD_SIZE=2 python3 '%s'; wait",
                                             program, program);
  g_autofree char *manifest_path = g_build_filename (out, "record.json", NULL);
  g_autofree char *meta_path = g_build_filename (out, "scale", "rank1", "meta.json", NULL);
  g_auto (GStrv) env = fake_env (NULL);
  g_auto (Result) r = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *m;

  if (!have_python3 ())
    {
      g_test_skip ("no python3");
      return;
    }
  {
    const char *args[] = { "record", "--session", session, "--out", out, "--", "sh", "-c", script, NULL };

    run_wb (&r, dir, (const char *const *) env, args);
  }
  if (r.status != 0)
    g_printerr ("stdout:\n%s\nstderr:\n%s\n", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "record: rank 0 of 2 (no backend): captured 1 compiled entry: scale/rank0"));
  g_assert_nonnull (strstr (r.out, "record: rank 1 of 2 (no backend): captured 1 compiled entry: scale/rank1"));
  g_assert_nonnull (strstr (r.out, "scale/rank1 (thunder.jit of scale, rank 1): prologue 2, forward 7"));
  g_assert_nonnull (strstr (r.out, "record: captured 2 compiled entries"));
  for (guint rank = 0; rank < 2; rank++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u", rank);
      g_autofree char *case_dir = g_build_filename (out, "scale", name, NULL);
      g_autoptr (WbTraceSet) set = wb_trace_set_load (case_dir, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (wb_trace_set_get_n_entries (set), ==, 13);
    }
  /* record.json lists both ranks' cases, rank by rank */
  json_parser_load_from_file (parser, manifest_path, &error);
  g_assert_no_error (error);
  m = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m, "distributed"), "world_size"), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (m, "ranks")), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (m, "cases")), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (m, "cases"), 1), "dir"), ==,
                   "scale/rank1");
  /* each rank's meta.json says which rank it is */
  {
    g_autoptr (JsonParser) mp = json_parser_new ();
    JsonObject *d;

    json_parser_load_from_file (mp, meta_path, &error);
    g_assert_no_error (error);
    d = json_object_get_object_member (json_node_get_object (json_parser_get_root (mp)), "distributed");
    g_assert_nonnull (d);
    g_assert_cmpint (json_object_get_int_member (d, "rank"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (d, "world_size"), ==, 2);
    g_assert_cmpstr (json_object_get_string_member (d, "launcher"), ==, "environment");
  }
  {
    g_autoptr (WbSession) ses = wb_session_open (session, WB_SESSION_OPEN_READ_ONLY, &error);
    g_autoptr (GPtrArray) sets = NULL;

    g_assert_no_error (error);
    sets = wb_session_list_trace_sets (ses, &error);
    g_assert_no_error (error);
    /* the two ranks' traces are the same texts here: the session keeps them once */
    g_assert_cmpuint (sets->len, ==, 1);
    g_assert_nonnull (strstr (r.out, "(already there)"));
  }
  wb_test_remove_tree (dir);
}

/* A rank's manifest that is not JSON: exit 2, the file named, the capture kept; a case folder outside
 * the capture ("../x") or claimed by another rank is not imported. */
static void
test_fake_ranks_bad (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_auto (GStrv) env = fake_env (NULL);
  const char *bad_json = "printf '{not json' > \"$THUNDER_WB_RECORD_DIR/record-rank3.json\"";
  const char *unsafe = "mkdir -p \"$THUNDER_WB_RECORD_DIR/x/rank0\" && printf '{\"schema\": \"thunder-wb/record\", \"cases\": "
                       "[{\"dir\": \"../x\", \"rank\": 0}, {\"dir\": \"x/rank0\", \"rank\": 1}, 7]}' > "
                       "\"$THUNDER_WB_RECORD_DIR/record-rank0.json\"";

  if (!have_python3 ())
    {
      g_test_skip ("no python3");
      return;
    }
  {
    g_auto (Result) r = { 0 };
    const char *args[] = { "record", "--out", "cap1", "--", "sh", "-c", bad_json, NULL };

    run_wb (&r, dir, (const char *const *) env, args);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "record-rank3.json"));
    g_assert_nonnull (strstr (r.err, "the capture is kept in"));
  }
  {
    g_auto (Result) r = { 0 };
    const char *args[] = { "record", "--out", "cap2", "--", "sh", "-c", unsafe, NULL };

    run_wb (&r, dir, (const char *const *) env, args);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.out, "record: rank 0 of 1 (no backend): captured 0 compiled entries"));
    g_assert_nonnull (strstr (r.out, "nothing was captured"));
  }
  wb_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record/no-torch", test_no_torch);
  g_test_add_func ("/record/no-torch-here", test_no_torch_here);
  g_test_add_func ("/record/usage", test_usage);
  g_test_add_func ("/record/fake/capture", test_fake_capture);
  g_test_add_func ("/record/fake/failing-command", test_fake_failing_command);
  g_test_add_func ("/record/fake/nothing-captured", test_fake_nothing_captured);
  g_test_add_func ("/record/fake/ranks", test_fake_ranks);
  g_test_add_func ("/record/fake/ranks-bad", test_fake_ranks_bad);
  return g_test_run ();
}
