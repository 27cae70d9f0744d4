/* test-profile-job.c — WbProfileJob: the device choice (runner absent, no GPU, a GPU reported by a fake
 * runner), a cpu run of a case built from a loaded trace set (no folder) with a region-key assignment, and
 * the GPU runner's per-iteration progress of every phase (through the fake runner, which sends it with the
 * protocol's own code) with its rate limit, and a GPU run's host calls (the fake runner's CUPTI records)
 * joined to its kernels and kept by a session; a runner handed from job to job (wb_profile_job_set_runner)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "wb-data.h"
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

/* Runners started since the last call (FAKE_RUNNER_LOG @log's lines, the log emptied) */
static guint
take_starts (const char *log)
{
  g_autofree char *text = NULL;
  guint            n = 0;

  if (g_file_get_contents (log, &text, NULL, NULL))
    for (const char *p = text; (p = strstr (p, "start\n")) != NULL; p++)
      n++;
  g_remove (log);
  return n;
}

/* A GPU job on @runner_program given @runner (nullable): runs when @device is cuda; (transfer full) the runner it
 * hands on; its process id in @pid (nullable) */
static WbRunner *
hand_on (Fixture *f, WbProfileDevice device, const char *runner_program, WbRunner *runner, char **pid)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = new_job (f, device, runner_program);
  g_autoptr (WbRun) run = NULL;
  WbRunner *next;

  wb_profile_job_set_runner (job, runner);
  if (device == WB_PROFILE_DEVICE_CUDA)
    {
      run = wb_profile_job_run (job, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (wb_profile_job_get_device_reason (job), ==, "the GPU runner reports NVIDIA Fake 80GB, sm_90");
    }
  else
    g_assert_true (wb_profile_job_choose_device (job, &error));
  next = wb_profile_job_steal_runner (job);
  g_assert_nonnull (next);
  if (pid != NULL)
    *pid = g_strdup (wb_runner_get_pid (next));
  return next;
}

/* A runner handed from job to job (wb_profile_job_set_runner, _steal_runner) serves them all, a cpu job gives it
 * back unused; one of another program, or one that ended, is not used: a fresh one starts */
static void
test_runner_handed_on (Fixture *f, gconstpointer data)
{
  g_autofree char *tmp = g_dir_make_tmp ("wb-job-runner-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (tmp, "starts.log", NULL);
  g_autofree char *other = g_build_filename (tmp, "fake-runner", NULL);
  g_autofree char *pid1 = NULL, *pid2 = NULL, *pid3 = NULL, *pid4 = NULL, *pid5 = NULL;
  WbRunner        *r;
  gint64           deadline;

  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_LOG", log, TRUE);
  g_assert_cmpint (symlink (f->fake_runner, other), ==, 0);
  r = hand_on (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner, NULL, &pid1);
  r = hand_on (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner, r, &pid2);
  r = hand_on (f, WB_PROFILE_DEVICE_CPU, f->fake_runner, r, &pid3);
  g_assert_cmpuint (take_starts (log), ==, 1);
  g_assert_cmpstr (pid1, ==, pid2);
  g_assert_cmpstr (pid1, ==, pid3);
  r = hand_on (f, WB_PROFILE_DEVICE_CUDA, other, r, &pid4); /* another program: the runner given is ended */
  g_assert_cmpuint (take_starts (log), ==, 1);
  g_assert_cmpstr (pid4, !=, pid1);
  wb_runner_kill (r); /* ended while idle, as from outside */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (wb_runner_is_alive (r) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  g_assert_false (wb_runner_is_alive (r));
  r = hand_on (f, WB_PROFILE_DEVICE_CUDA, other, r, &pid5);
  g_assert_cmpuint (take_starts (log), ==, 1);
  g_assert_cmpstr (pid5, !=, pid4);
  wb_runner_free (r);
  g_unsetenv ("FAKE_RUNNER_DEVICE");
  g_unsetenv ("FAKE_RUNNER_LOG");
  wb_test_remove_tree (tmp);
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

/* -- where a GPU run's setup went (issue 44) -------------------------------------------------------- */

/* The value of the run's executor version @name ("NAME=VALUE"), or NULL */
static const char *
version_of (const WbRun *run, const char *name)
{
  gsize len = strlen (name);

  for (guint i = 0; i < run->executor_versions->len; i++)
    {
      const char *v = run->executor_versions->pdata[i];
      if (strncmp (v, name, len) == 0 && v[len] == '=')
        return v + len + 1;
    }
  return NULL;
}

/* The runner's setup phases and the checked run's costliest symbols (stats setup_ms, checked_calls: the fake's
 * numbers, FAKE_RUNNER_SETUP=1) become the run's "runner setup" line, each phase named, with their sum, and its
 * "checked run calls" line, the symbols in the runner's order with their calls; a runner that sends neither (the
 * fake's default) gives neither line. */
static void
test_gpu_setup_lines (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbProfileJob) plain_job = NULL;
  g_autoptr (WbRun) run = NULL;
  g_autoptr (WbRun) plain = NULL;
  g_autoptr (GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *first = NULL;
  WbProfile       *profile;
  const char      *calls;
  guint            most = 0;

  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_SETUP", "1", TRUE);
  job = new_job (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner);
  run = wb_profile_job_run (job, &error);
  g_unsetenv ("FAKE_RUNNER_SETUP");
  g_assert_no_error (error);
  plain_job = new_job (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner);
  plain = wb_profile_job_run (plain_job, &error);
  g_unsetenv ("FAKE_RUNNER_DEVICE");
  g_assert_no_error (error);

  g_assert_cmpstr (version_of (run, "runner setup"), ==,
                   "runner start (CUDA context and libraries) 300.0 ms, traces parsed 1.0 ms, inputs uploaded and kernels ready 20.0 ms, "
                   "checked run 40.0 ms, CUDA graph captured 5.0 ms, warm-up and timed runs 10.0 ms; in all 376.0 ms");
  /* the program's most frequent top-level call leads the line (ties: the first name in C order) */
  profile = wb_profile_job_get_profile (job);
  for (guint i = 0; i < wb_profile_get_n_entries (profile); i++)
    {
      const char *name = wb_profile_get_entry_name (profile, i);
      guint       n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1;
      g_hash_table_insert (counts, (gpointer) name, GUINT_TO_POINTER (n));
    }
  {
    GHashTableIter it;
    gpointer       k, v;
    const char    *best = NULL;
    g_hash_table_iter_init (&it, counts);
    while (g_hash_table_iter_next (&it, &k, &v))
      if (GPOINTER_TO_UINT (v) > most || (GPOINTER_TO_UINT (v) == most && strcmp (k, best) < 0))
        most = GPOINTER_TO_UINT (v), best = k;
    first = g_strdup_printf ("%s %.1f ms (%u calls, the slowest 1.5 ms)", best, 1.5 * most, most);
  }
  calls = version_of (run, "checked run calls");
  g_assert_nonnull (calls);
  g_assert_true (g_str_has_prefix (calls, first));
  {
    g_auto (GStrv) parts = g_strsplit (calls, " ms), ", -1);
    g_assert_cmpuint (g_strv_length (parts), <=, 5);
  }
  g_assert_null (version_of (plain, "runner setup"));
  g_assert_null (version_of (plain, "checked run calls"));
}

/* -- host calls (issue 45 item 5) ------------------------------------------------------------------ */

/* A GPU run (fake runner with CUPTI's records, FAKE_RUNNER_KERNELS=1) of 3 iterations: one kernel per entry
 * and iteration, each after a cuLaunchKernel with its correlation id, and a cuStreamSynchronize per
 * iteration. The run's host calls are those, on the kernels' clock, each launch joined to its kernel; a
 * session keeps them (stored, read back equal, joined again). The expected times are the fake's rule
 * (fake-runner.c) computed here: entry i takes 1000 (i + 1) ns, iteration it starts at it (sum + 1000). */
static void
test_gpu_host_calls (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbRun) run = NULL;
  g_autoptr (WbRun) back = NULL;
  g_autofree char *dir = g_dir_make_tmp ("wb-host-calls-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "s.wbsession", NULL);
  WbProfileOptions po;
  const guint      iters = 3;
  guint            n, launches = 0;
  gint64           sum = 0;

  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_KERNELS", "1", TRUE);
  job = new_job (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner);
  wb_profile_options_init (&po);
  po.iters = iters;
  po.warmup = 1;
  wb_profile_job_set_options (job, &po);
  run = wb_profile_job_run (job, &error);
  g_unsetenv ("FAKE_RUNNER_KERNELS");
  g_unsetenv ("FAKE_RUNNER_DEVICE");
  g_assert_no_error (error);
  n = wb_profile_get_n_entries (wb_profile_job_get_profile (job));
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    sum += 1000 * (i + 1);
  g_assert_cmpuint (run->kernels->len, ==, iters * n);
  g_assert_cmpuint (run->host_calls->len, ==, iters * (n + 1));
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *c = run->host_calls->pdata[i];

      g_assert_cmpuint (c->thread, ==, 4242);
      if (i > 0)
        g_assert_cmpint (c->start_ns, >=, ((WbHostCall *) run->host_calls->pdata[i - 1])->start_ns); /* start order */
      if (g_strcmp0 (c->name, "cuLaunchKernel") == 0)
        {
          const WbKernelRecord *k;
          guint                 entry = launches % n, it = launches / n;
          gint64                at = (gint64) it * (sum + 1000);
          g_autofree char      *kernel_name = g_strdup_printf ("fake_kernel_%s", wb_profile_get_entry_name (wb_profile_job_get_profile (job), entry));

          for (guint e = 0; e < entry; e++)
            at += 1000 * (e + 1);
          g_assert_cmpint (c->start_ns, ==, at + 10);
          g_assert_cmpint (c->end_ns, ==, at + 60);
          g_assert_cmpuint (c->iteration, ==, it);
          /* joined by correlation to the kernel it launched, which starts after it */
          g_assert_cmpint (c->kernel, >=, 0);
          g_assert_cmpuint (c->n_kernels, ==, 1);
          k = run->kernels->pdata[c->kernel];
          g_assert_cmpuint (k->correlation_id, ==, c->correlation_id);
          g_assert_cmpstr (k->name, ==, kernel_name);
          g_assert_cmpstr (k->region, ==, wb_profile_get_entry_name (wb_profile_job_get_profile (job), entry));
          g_assert_cmpint (k->start_ns, ==, at + 100);
          g_assert_cmpint (k->start_ns, >, c->end_ns);
          launches++;
        }
      else
        {
          g_assert_cmpstr (c->name, ==, "cuStreamSynchronize");
          g_assert_cmpint (c->kernel, ==, -1);
          g_assert_cmpuint (c->n_kernels, ==, 0);
          g_assert_cmpint (c->end_ns, ==, (gint64) c->iteration * (sum + 1000) + sum);
        }
    }
  g_assert_cmpuint (launches, ==, iters * n);

  /* a copy is equal; without its host calls it is not (the kernels' checksum covers them) */
  {
    g_autoptr (WbRun) copy = wb_run_copy (run);
    g_assert_true (wb_run_equal (copy, run));
    g_ptr_array_set_size (copy->host_calls, copy->host_calls->len - 1);
    g_assert_false (wb_run_equal (copy, run));
  }

  /* the session keeps them */
  g_assert_no_error (error);
  {
    g_autoptr (WbSession) session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);
    gint64 id;

    g_assert_no_error (error);
    id = wb_session_store_run (session, run, 0, &error);
    g_assert_no_error (error);
    back = wb_session_get_run (session, id, WB_SESSION_READ_KERNELS, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpuint (back->host_calls->len, ==, run->host_calls->len);
  g_assert_true (wb_run_equal (back, run));
  for (guint i = 0; i < run->host_calls->len; i++)
    {
      const WbHostCall *a = run->host_calls->pdata[i], *b = back->host_calls->pdata[i];

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpint (a->start_ns, ==, b->start_ns);
      g_assert_cmpint (a->kernel, ==, b->kernel);
      g_assert_cmpuint (a->n_kernels, ==, b->n_kernels);
    }
  g_assert_cmpint (g_remove (path), ==, 0);
  g_rmdir (dir);
}

/* -- per-iteration progress (issue 45) ------------------------------------------------------------ */

typedef struct
{
  WbProfilePhase phase;
  guint          done, total;
  gint64         ns;
} Step;

static void
record_step (WbProfilePhase phase, guint done, guint total, gint64 ns, gpointer data)
{
  Step step = { phase, done, total, ns };

  if (g_test_verbose ())
    g_test_message ("progress %d %u/%u %" G_GINT64_FORMAT, phase, done, total, ns);

  g_array_append_val ((GArray *) data, step);
}

/* A GPU run (fake runner) of @iters timed iterations of @iter_ms each, 3 warm-up: the steps the job's
 * progress callback saw, and the run's wall time in *@elapsed_us. */
static GArray *
gpu_run_steps (Fixture *f, guint iters, const char *iter_ms, gint64 *elapsed_us)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbRun) run = NULL;
  GArray          *steps = g_array_new (FALSE, FALSE, sizeof (Step));
  WbProfileOptions po;
  gint64           t0;

  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_ITER_MS", iter_ms, TRUE);
  job = new_job (f, WB_PROFILE_DEVICE_CUDA, f->fake_runner);
  wb_profile_options_init (&po);
  po.iters = iters;
  po.warmup = 3;
  po.progress = record_step;
  po.progress_data = steps;
  wb_profile_job_set_options (job, &po);
  t0 = g_get_monotonic_time ();
  run = wb_profile_job_run (job, &error);
  *elapsed_us = g_get_monotonic_time () - t0;
  g_assert_no_error (error);
  g_assert_cmpuint (run->iteration_ns->len, ==, iters);
  g_unsetenv ("FAKE_RUNNER_DEVICE");
  g_unsetenv ("FAKE_RUNNER_ITER_MS");
  return steps;
}

/* Every phase in run order, each with @done rising to its @total, each iteration's time at least @min_ns;
 * returns the iteration steps (not the checked run's calls) and the count per phase in @per_phase. */
static guint
check_phases (GArray *steps, guint iters, gint64 min_ns, guint per_phase[WB_PROFILE_PHASE_TRACED + 1])
{
  const guint expect[] = { 0, 0, 2, iters, iters, iters }; /* checked: the calls; warm-up: 3 - the checked run */
  guint       last_done = 0, n_iter = 0;
  int         phase = 0;

  memset (per_phase, 0, sizeof (guint) * (WB_PROFILE_PHASE_TRACED + 1));
  for (guint i = 0; i < steps->len; i++)
    {
      const Step *s = &g_array_index (steps, Step, i);

      g_assert_cmpint (s->phase, >=, phase); /* phases in run order, none again after it ended */
      if ((int) s->phase != phase)
        {
          if (phase != 0)
            g_assert_cmpuint (last_done, ==, g_array_index (steps, Step, i - 1).total); /* the last of each phase came */
          phase = s->phase;
          last_done = 0;
        }
      if (g_test_verbose ())
        g_test_message ("step %u: phase %d %u/%u after %u", i, s->phase, s->done, s->total, last_done);
      g_assert_cmpuint (s->done, >, last_done); /* per phase: monotonically increasing */
      g_assert_cmpuint (s->done, <=, s->total);
      if (s->phase != WB_PROFILE_PHASE_CHECKED)
        {
          g_assert_cmpuint (s->total, ==, expect[s->phase]);
          g_assert_cmpint (s->ns, >=, min_ns);
          n_iter++;
        }
      last_done = s->done;
      per_phase[s->phase]++;
    }
  g_assert_cmpint (phase, ==, WB_PROFILE_PHASE_TRACED);
  g_assert_cmpuint (last_done, ==, iters);
  for (guint k = WB_PROFILE_PHASE_CHECKED; k <= WB_PROFILE_PHASE_TRACED; k++)
    g_assert_cmpuint (per_phase[k], >, 0);
  return n_iter;
}

/* A multi-phase GPU run of slow iterations: every phase's iterations reach the job's callback, rising. */
static void
test_gpu_progress (Fixture *f, gconstpointer data)
{
  gint64 us;
  g_autoptr (GArray) steps = gpu_run_steps (f, 8, "30", &us);
  guint per[WB_PROFILE_PHASE_TRACED + 1];

  check_phases (steps, 8, 30 * 1000 * 1000, per);
  g_test_message ("30 ms iterations: %u checked calls, %u warm-up, %u unprofiled, %u timed, %u traced steps in %.0f ms", per[1], per[2], per[3],
                  per[4], per[5], us / 1e3);
  /* 240 ms per phase: more than its last iteration, fewer than all of them (one per 50 ms) */
  for (guint k = WB_PROFILE_PHASE_UNPROFILED; k <= WB_PROFILE_PHASE_TRACED; k++)
    {
      g_assert_cmpuint (per[k], >=, 2);
      g_assert_cmpuint (per[k], <, 8);
    }
}

/* Many tiny iterations: the runner sends at most one iteration message per interval, plus each phase's last. */
static void
test_gpu_progress_rate_limit (Fixture *f, gconstpointer data)
{
  const guint iters = 20000;
  gint64      us;
  g_autoptr (GArray) steps = gpu_run_steps (f, iters, "0", &us);
  guint per[WB_PROFILE_PHASE_TRACED + 1];
  guint n = check_phases (steps, iters, 0, per);
  guint bound = 4 + (guint) (us / WB_RUNNER_PROGRESS_INTERVAL_US) + 1;

  g_test_message ("%u iterations in 4 phases: %u progress messages in %.0f ms (at most %u allowed)", 2 + 3 * iters, n, us / 1e3, bound);
  g_assert_cmpuint (n, <=, bound);
  g_assert_cmpuint (n, <, 100);
}

/* The protocol's limit alone: a tight loop sends its first and its last, nothing between. */
static void
test_progress_limit (void)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  WbRunnerProgressLimit limit;
  guint                 sent = 0;
  gint64                t0 = g_get_monotonic_time ();

  wb_runner_progress_limit_init (&limit);
  for (guint i = 1; i <= 1000; i++)
    sent += wb_runner_send_iteration (out, &limit, WB_RUNNER_PHASE_TIMED, i, 1000, 1, NULL);
  if (g_get_monotonic_time () - t0 < WB_RUNNER_PROGRESS_INTERVAL_US)
    g_assert_cmpuint (sent, ==, 2);
  g_assert_cmpuint (limit.sent, ==, sent);
  g_assert_cmpstr (wb_runner_phase_to_string (WB_RUNNER_PHASE_UNPROFILED), ==, "unprofiled");
  g_assert_cmpint (wb_runner_phase_from_string ("traced"), ==, WB_RUNNER_PHASE_TRACED);
  g_assert_cmpint (wb_runner_phase_from_string ("later"), ==, WB_RUNNER_PHASE_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/profiler/WbProfileJob/cpu-asked", Fixture, NULL, fixture_set_up, test_cpu_asked, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/runner-absent", Fixture, NULL, fixture_set_up, test_runner_absent, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/no-gpu", Fixture, NULL, fixture_set_up, test_no_gpu, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/gpu-reported", Fixture, NULL, fixture_set_up, test_gpu_reported, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/runner-handed-on", Fixture, NULL, fixture_set_up, test_runner_handed_on, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/cpu-run", Fixture, NULL, fixture_set_up, test_cpu_run, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/gpu-progress", Fixture, NULL, fixture_set_up, test_gpu_progress, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/gpu-progress-rate-limit", Fixture, NULL, fixture_set_up, test_gpu_progress_rate_limit, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/gpu-setup-lines", Fixture, NULL, fixture_set_up, test_gpu_setup_lines, fixture_tear_down);
  g_test_add ("/profiler/WbProfileJob/gpu-host-calls", Fixture, NULL, fixture_set_up, test_gpu_host_calls, fixture_tear_down);
  g_test_add_func ("/profiler/runner-protocol/progress-limit", test_progress_limit);
  return g_test_run ();
}
