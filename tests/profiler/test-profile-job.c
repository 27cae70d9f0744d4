/* test-profile-job.c — WbProfileJob: the device choice (runner absent, no GPU, a GPU reported by a fake
 * runner), and a cpu run of a case built from a loaded trace set (no folder) with a region-key assignment
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"
#include "wb-test-common.h"

typedef struct
{
  WbCase    *c;
  WbProgram *program;
  char      *fake_runner;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  WbTraceSet      *set = wb_trace_set_load (dir, &error);

  g_assert_no_error (error);
  /* the case of a set already in memory, as a session gives it: nothing is written anywhere */
  f->c = wb_case_new_for_set (set, "mlp_small");
  f->program = wb_case_make_program (f->c, wb_case_get_default_stage (f->c), &error);
  g_assert_no_error (error);
  {
    /* built beside this test (tests/profiler/) */
    g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
    g_autofree char *here = g_path_get_dirname (exe);

    f->fake_runner = g_build_filename (here, "fake-runner", NULL);
  }
  g_assert_true (g_file_test (f->fake_runner, G_FILE_TEST_IS_EXECUTABLE));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  wb_program_unref (f->program);
  wb_case_free (f->c);
  g_free (f->fake_runner);
}

static WbProfileJob *
new_job (Fixture *f, WbProfileDevice device, const char *runner)
{
  WbProfileJob *job = wb_profile_job_new (f->c, f->program, wb_case_get_default_stage (f->c)->label);

  wb_profile_job_set_device (job, device);
  wb_profile_job_set_runner_program (job, runner);
  return job;
}

/* Asked for cpu: cpu, and the runner is never started (a runner that cannot start changes nothing). */
static void
test_cpu_asked (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = new_job (f, WB_PROFILE_DEVICE_CPU, "/nonexistent/thunder-wb-runner");

  g_assert_true (wb_profile_job_choose_device (job, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wb_profile_job_get_device (job), ==, WB_PROFILE_DEVICE_CPU);
  g_assert_cmpstr (wb_profile_job_get_device_reason (job), ==, "asked for cpu");
  g_assert_cmpuint (wb_profile_job_get_notes (job)->len, ==, 0);
}

/* The runner absent: nothing asked gives cpu with the reason as a note; cuda asked is an error. */
static void
test_runner_absent (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = new_job (f, WB_PROFILE_DEVICE_AUTO, "/nonexistent/thunder-wb-runner");
  g_autoptr (WbProfileJob) cuda = new_job (f, WB_PROFILE_DEVICE_CUDA, "/nonexistent/thunder-wb-runner");

  g_assert_true (wb_profile_job_choose_device (job, &error));
  g_assert_cmpint (wb_profile_job_get_device (job), ==, WB_PROFILE_DEVICE_CPU);
  g_test_message ("reason: %s", wb_profile_job_get_device_reason (job));
  g_assert_nonnull (strstr (wb_profile_job_get_device_reason (job), "cannot start /nonexistent/thunder-wb-runner"));
  g_assert_cmpuint (wb_profile_job_get_notes (job)->len, ==, 1);
  g_assert_true (g_str_has_prefix (wb_profile_job_get_notes (job)->pdata[0], "profiled on cpu: "));

  g_assert_false (wb_profile_job_choose_device (cuda, &error));
  g_assert_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNAVAILABLE);
}

/* A runner whose probe finds no GPU: cpu, with the runner's own reason. */
static void
test_no_gpu (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = NULL;

  g_unsetenv ("FAKE_RUNNER_DEVICE");
  job = new_job (f, WB_PROFILE_DEVICE_AUTO, f->fake_runner);
  g_assert_true (wb_profile_job_choose_device (job, &error));
  g_assert_cmpint (wb_profile_job_get_device (job), ==, WB_PROFILE_DEVICE_CPU);
  g_assert_nonnull (strstr (wb_profile_job_get_device_reason (job), "CUDA is not available: no NVIDIA driver (fake)"));
}

/* A runner that reports a device: the GPU is chosen, and the job says which and why. */
static void
test_gpu_reported (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbProfileJob) asked = NULL;

  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  job = new_job (f, WB_PROFILE_DEVICE_AUTO, f->fake_runner);
  g_assert_true (wb_profile_job_choose_device (job, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wb_profile_job_get_device (job), ==, WB_PROFILE_DEVICE_CUDA);
  g_assert_cmpstr (wb_profile_job_get_device_model (job), ==, "NVIDIA Fake 80GB");
  g_assert_cmpstr (wb_profile_job_get_device_reason (job), ==, "the GPU runner reports NVIDIA Fake 80GB, sm_90");
  asked = new_job (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner);
  g_assert_true (wb_profile_job_choose_device (asked, &error));
  g_assert_cmpint (wb_profile_job_get_device (asked), ==, WB_PROFILE_DEVICE_CUDA);
  g_unsetenv ("FAKE_RUNNER_DEVICE");
}

static gboolean
keep_run (WbRun *run, gpointer data, GError **error)
{
  *(WbRun **) data = wb_run_copy (run);
  return TRUE;
}

/* A cpu run: a region chosen by key, the run handed to the store hook, the assignment as given. */
static void
test_cpu_run (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = new_job (f, WB_PROFILE_DEVICE_CPU, NULL);
  g_autoptr (WbRun) run = NULL;
  g_autoptr (WbRun) stored = NULL;
  g_autoptr (WbAssignment) assignment = NULL;
  g_autofree char *key = NULL;
  g_autofree char *spec = NULL;
  const WbBsym    *region = NULL;
  const WbTrace   *fw = wb_program_get_forward (f->program);
  WbProfileOptions po;

  for (guint i = 0; i < fw->n_body && region == NULL; i++)
    if (wb_bsym_is_fusion (fw->body[i]))
      region = fw->body[i];
  g_assert_nonnull (region);
  key = wb_region_key (region);
  spec = g_strdup_printf ("%s=cpu", key);
  assignment = wb_assignment_parse (spec, &error);
  g_assert_no_error (error);
  wb_profile_job_set_assignment (job, assignment);
  wb_profile_options_init (&po);
  po.iters = 2;
  po.warmup = 0;
  wb_profile_job_set_options (job, &po);
  wb_profile_job_set_store (job, keep_run, &stored);
  run = wb_profile_job_run (job, &error);
  g_assert_no_error (error);
  g_assert_nonnull (run);
  g_assert_cmpstr (run->device_name, ==, "cpu");
  g_assert_cmpuint (run->iters, ==, 2);
  g_assert_cmpstr (run->executors, ==, spec); /* carried unchanged */
  g_assert_nonnull (wb_run_find_region (run, region->name));
  g_assert_cmpstr (wb_run_find_region (run, region->name)->executor, ==, "cpu");
  g_assert_nonnull (stored);
  g_assert_cmpuint (stored->regions->len, ==, run->regions->len);
  g_assert_null (wb_profile_job_get_store_error (job));
  g_assert_true (wb_profile_get_assignment (wb_profile_job_get_profile (job)) == assignment);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/profiler/WbProfileJob/cpu-asked", Fixture, NULL, fixture_set_up, test_cpu_asked, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/runner-absent", Fixture, NULL, fixture_set_up, test_runner_absent, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/no-gpu", Fixture, NULL, fixture_set_up, test_no_gpu, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/gpu-reported", Fixture, NULL, fixture_set_up, test_gpu_reported, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/cpu-run", Fixture, NULL, fixture_set_up, test_cpu_run, fixture_tear_down);
  return g_test_run ();
}
