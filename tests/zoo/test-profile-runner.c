/* test-profile-runner.c — `profile CASE` of a model of several sub-programs starts one GPU runner for all of them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The zoo's llama (ThunderFX's subgraphs, one folder each) profiled on "cuda" through the stand-in runner
 * (tests/profiler/fake-runner.c, which appends "start" to FAKE_RUNNER_LOG each time it starts): one runner serves
 * every sub-program, and each sub-program's summary row is the one WB_RUNNER_PER_PROGRAM=1 (a runner each, as
 * before) gives. A runner killed during one sub-program (FAKE_RUNNER_CRASH), or alive but with a failed run
 * (FAKE_RUNNER_FAIL), fails only that row: the next sub-program starts a fresh runner and the rest still run.
 * --device cpu starts none. */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

typedef struct
{
  char      *folder; /* the unpacked zoo case */
  GPtrArray *names;  /* (element-type utf8) its thunderfx_* sub-program folders, sorted */
  char      *tmp;
  char      *log; /* FAKE_RUNNER_LOG */
} Fixture;

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *fake = g_build_filename (build ? build : ".", "tests", "profiler", "fake-runner", NULL);
  g_autoptr (GDir) dir = NULL;
  const char *name;

  f->folder = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", (const char *) data, NULL);
  f->names = g_ptr_array_new_with_free_func (g_free);
  f->tmp = g_dir_make_tmp ("wb-profile-runner-XXXXXX", NULL);
  f->log = g_build_filename (f->tmp, "starts.log", NULL);
  g_assert_true (g_file_test (fake, G_FILE_TEST_IS_EXECUTABLE));
  dir = g_dir_open (f->folder, 0, NULL);
  g_assert_nonnull (dir); /* the zoo is unpacked by the test's dependency (tests/zoo/zoo.stamp) */
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "thunderfx_"))
      g_ptr_array_add (f->names, g_strdup (name));
  g_ptr_array_sort (f->names, compare_names);
  g_setenv ("WB_RUNNER", fake, TRUE);
  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_LOG", f->log, TRUE);
  g_unsetenv ("WB_RUNNER_PER_PROGRAM");
  g_unsetenv ("FAKE_RUNNER_CRASH");
  g_unsetenv ("FAKE_RUNNER_FAIL");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  wb_test_remove_tree (f->tmp);
  g_free (f->folder);
  g_ptr_array_unref (f->names);
  g_free (f->tmp);
  g_free (f->log);
}

/* Runners started since the last call (lines of FAKE_RUNNER_LOG), the log emptied */
static guint
take_starts (Fixture *f)
{
  g_autofree char *text = NULL;
  guint            n = 0;

  if (!g_file_get_contents (f->log, &text, NULL, NULL))
    return 0;
  for (const char *p = text; (p = strstr (p, "start\n")) != NULL; p++)
    n++;
  g_assert_cmpint (g_remove (f->log), ==, 0);
  return n;
}

/* profile of the case on @device (2 timed iterations, 1 warm-up), its summary as JSON into @report; the exit status */
static int
profile (Fixture *f, const char *device, const char *report)
{
  g_auto (WbTestRun) run = { 0 };

  wb_test_run_thunder_wb (&run, NULL, (const char *const[]){ "--headless", "profile", f->folder, "--device", device, "--iters", "2", "--warmup", "1", "--report", report, NULL });
  if (run.status != 0)
    g_test_message ("profile exit %d; stderr:\n%s", run.status, run.err);
  return run.status;
}

static JsonObject *
load_summary (JsonParser *parser, const char *path, Fixture *f)
{
  g_autoptr (GError) error = NULL;
  JsonObject *summary;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  summary = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (summary, "schema"), ==, "thunder-wb/programs-report");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (summary, "programs")), ==, f->names->len);
  return summary;
}

/* Row @i of the summary, which must be sub-program @i's */
static JsonObject *
row (JsonObject *summary, Fixture *f, guint i)
{
  JsonObject *r = json_array_get_object_element (json_object_get_array_member (summary, "programs"), i);

  g_assert_cmpstr (json_object_get_string_member (r, "name"), ==, f->names->pdata[i]);
  return r;
}

static void
assert_ran (JsonObject *r)
{
  g_assert_cmpstr (json_object_get_string_member (r, "status"), ==, "ok");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (r, "device"), "cuda"));
  g_assert_cmpfloat (json_object_get_double_member (r, "median_ms"), >, 0);
}

static void
test_one_runner (Fixture *f, gconstpointer data)
{
  g_autofree char *shared = g_build_filename (f->tmp, "shared", "summary.json", NULL);
  g_autofree char *each = g_build_filename (f->tmp, "each", "summary.json", NULL);
  g_autoptr (JsonParser) p1 = json_parser_new ();
  g_autoptr (JsonParser) p2 = json_parser_new ();
  JsonObject *s1, *s2;

  g_assert_cmpuint (f->names->len, >=, 3);
  g_assert_cmpint (profile (f, "cuda", shared), ==, 0);
  g_assert_cmpuint (take_starts (f), ==, 1);
  g_setenv ("WB_RUNNER_PER_PROGRAM", "1", TRUE);
  g_assert_cmpint (profile (f, "cuda", each), ==, 0);
  g_assert_cmpuint (take_starts (f), ==, f->names->len);
  s1 = load_summary (p1, shared, f);
  s2 = load_summary (p2, each, f);
  g_assert_cmpint (json_object_get_int_member (s1, "failed"), ==, 0);
  for (guint i = 0; i < f->names->len; i++)
    {
      JsonObject      *a = row (s1, f, i), *b = row (s2, f, i);
      g_autofree char *own = g_build_filename (f->tmp, "shared", (const char *) f->names->pdata[i], "summary.json", NULL);

      assert_ran (a);
      g_assert_true (g_file_test (own, G_FILE_TEST_IS_REGULAR)); /* its own report */
      /* the stand-in's times are its program's entries: the same run whoever started the runner */
      g_assert_cmpstr (json_object_get_string_member (a, "stage_file"), ==, json_object_get_string_member (b, "stage_file"));
      g_assert_cmpstr (json_object_get_string_member (a, "device"), ==, json_object_get_string_member (b, "device"));
      g_assert_cmpfloat (json_object_get_double_member (a, "median_ms"), ==, json_object_get_double_member (b, "median_ms"));
    }
  g_assert_cmpfloat (json_object_get_double_member (s1, "total_ms"), ==, json_object_get_double_member (s2, "total_ms"));
}

/* FAKE_RUNNER_@variable names sub-program @bad's files: only its row fails, and a second runner serves the rest */
static void
check_bad_runner (Fixture *f, const char *variable, guint bad, int expected_exit, const char *expected_error)
{
  g_autofree char *json = g_build_filename (f->tmp, "out", "summary.json", NULL);
  g_autofree char *match = g_strconcat ((const char *) f->names->pdata[bad], G_DIR_SEPARATOR_S, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *summary;

  g_assert_cmpuint (bad + 1, <, f->names->len);
  g_setenv (variable, match, TRUE);
  g_assert_cmpint (profile (f, "cuda", json), ==, expected_exit);
  g_unsetenv (variable);
  g_assert_cmpuint (take_starts (f), ==, 2);
  summary = load_summary (parser, json, f);
  g_assert_cmpint (json_object_get_int_member (summary, "failed"), ==, 1);
  for (guint i = 0; i < f->names->len; i++)
    if (i != bad)
      assert_ran (row (summary, f, i));
  g_assert_cmpstr (json_object_get_string_member (row (summary, f, bad), "status"), ==, "failed");
  g_assert_nonnull (strstr (json_object_get_string_member (row (summary, f, bad), "error"), expected_error));
}

static void
test_crash (Fixture *f, gconstpointer data)
{
  check_bad_runner (f, "FAKE_RUNNER_CRASH", 2, 3, "killed by signal 9");
}

static void
test_failed_run (Fixture *f, gconstpointer data)
{
  check_bad_runner (f, "FAKE_RUNNER_FAIL", 1, 2, "FAKE_RUNNER_FAIL names this program");
}

static void
test_cpu (Fixture *f, gconstpointer data)
{
  g_autofree char *json = g_build_filename (f->tmp, "cpu", "summary.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *summary;

  g_assert_cmpint (profile (f, "cpu", json), ==, 0);
  g_assert_cmpuint (take_starts (f), ==, 0);
  summary = load_summary (parser, json, f);
  for (guint i = 0; i < f->names->len; i++)
    g_assert_cmpstr (json_object_get_string_member (row (summary, f, i), "device"), ==, "cpu");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/profiler/runner-reuse/llama/one-runner", Fixture, "llama", fixture_setup, test_one_runner, fixture_teardown);
  g_test_add ("/profiler/runner-reuse/llama/crash", Fixture, "llama", fixture_setup, test_crash, fixture_teardown);
  g_test_add ("/profiler/runner-reuse/llama/failed-run", Fixture, "llama", fixture_setup, test_failed_run, fixture_teardown);
  g_test_add ("/profiler/runner-reuse/custom_op/cpu", Fixture, "custom_op", fixture_setup, test_cpu, fixture_teardown);
  return g_test_run ();
}
