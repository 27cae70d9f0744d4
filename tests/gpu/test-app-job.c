/* test-app-job.c — the app's profiling job on the GPU, driven as views/wb-document-jobs.c drives it (issue
 * 45, part 1): the pipeline re-run with an executor choice by key, the program of its final stages, the
 * device chosen with the plan (wb-profile-job-plan.c), progress, the run's rows matched by key after an
 * unfuse (as the app's Δ column and `compare` match them: tests/profiler/test-run-keys.c on the cpu), and a
 * long run cancelled from another thread within a second, the runner's process gone. Suite gpu: skips
 * without a GPU (the runner's probe decides).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "wb-data.h"
#include "wb-profiler.h"
#include "wb-test-common.h"

typedef struct
{
  guint         timed;  /* timed iterations reported */
  guint         warmup; /* calls of the checked run and warm-up iterations reported */
  GCancellable *cancel; /* (nullable) cancelled at the first progress of the checked run */
  gint64        cancelled_at;
  /* per-iteration progress (issue 45): messages per phase, the last @done, its @total, whether @done always
   * rose within its phase, and whether a phase came after a later one */
  guint          per_phase[WB_PROFILE_PHASE_TRACED + 1];
  guint          last_done[WB_PROFILE_PHASE_TRACED + 1];
  guint          total[WB_PROFILE_PHASE_TRACED + 1];
  gboolean       rising;
  gboolean       out_of_order;
  WbProfilePhase phase;
} Progress;

static void
on_progress (WbProfilePhase phase, guint done, guint total, gint64 ns, gpointer data)
{
  Progress *p = data;

  if (phase == WB_PROFILE_PHASE_TIMED)
    p->timed++;
  else if (phase == WB_PROFILE_PHASE_CHECKED || phase == WB_PROFILE_PHASE_WARMUP)
    p->warmup++;
  if (phase <= WB_PROFILE_PHASE_TRACED)
    {
      p->out_of_order |= phase < p->phase;
      if (phase != WB_PROFILE_PHASE_CHECKED && p->per_phase[phase] > 0 && done <= p->last_done[phase])
        p->rising = FALSE;
      p->per_phase[phase]++;
      p->last_done[phase] = done;
      p->total[phase] = total;
      p->phase = phase;
    }
  if (p->cancel != NULL && p->cancelled_at == 0 && p->warmup > 0)
    {
      p->cancelled_at = g_get_monotonic_time ();
      g_cancellable_cancel (p->cancel);
    }
}

static char *
case_dir (void)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");
  char       *zoo = build ? g_build_filename (build, "tests", "zoo", "zoo", "llama", "thunderfx_g0_GraphModule_3", NULL) : NULL;

  if (zoo != NULL && g_file_test (zoo, G_FILE_TEST_IS_DIR))
    return zoo;
  g_free (zoo);
  return wb_test_traces_dir () ? g_build_filename (wb_test_traces_dir (), "llama_layer", NULL) : NULL;
}

/* the app's job: the pipeline with @plan, its final program, a WbProfileJob on the device the plan allows */
static WbProfileJob *
app_job (WbCase *wcase, const char *spec, guint iters, Progress *progress, WbPipeline **pipeline, WbProgram **program)
{
  const WbTraceEntry *input = wb_pipeline_find_input (wb_case_get_trace_set (wcase));
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) plan = spec ? wb_assignment_parse (spec, &error) : NULL;
  WbPipelineOptions opts = { NULL, WB_FUSION_DATAFLOW, plan };
  WbProfileOptions  options;
  WbProfileJob     *job;

  g_assert_no_error (error);
  *pipeline = wb_pipeline_run (input->trace, &opts, &error);
  g_assert_no_error (error);
  *program = wb_program_new_for_pipeline (*pipeline, &error);
  g_assert_no_error (error);
  job = wb_profile_job_new (wcase, *program, "workbench");
  wb_profile_options_init (&options);
  options.iters = iters;
  options.warmup = 3;
  options.progress = on_progress;
  options.progress_data = progress;
  wb_profile_job_set_options (job, &options);
  wb_profile_job_set_inputs (job, wb_case_get_reference (wcase, NULL));
  g_assert_true (wb_profile_job_choose_device_for_plan (job, *program, plan, &error));
  g_assert_no_error (error);
  return job;
}

static void
test_app_job (void)
{
  g_autofree char *dir = case_dir ();
  g_autoptr (WbCase) wcase = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbPipeline) p0 = NULL;
  g_autoptr (WbProgram) prog0 = NULL;
  g_autoptr (WbProfileJob) job = NULL;
  g_autoptr (WbRun) run = NULL;
  g_autofree char *spec = NULL;
  Progress         progress = { .rising = TRUE };
  const WbRegion  *first;
  gint64           t0;

  if (dir == NULL || (wcase = wb_case_load (dir, &error)) == NULL)
    {
      g_test_skip ("no case");
      return;
    }
  job = app_job (wcase, NULL, 20, &progress, &p0, &prog0);
  if (wb_profile_job_get_device (job) != WB_PROFILE_DEVICE_CUDA)
    {
      g_test_skip (wb_profile_job_get_device_reason (job));
      return;
    }
  g_test_message ("%s: %s", dir, wb_profile_job_get_device_reason (job));
  t0 = g_get_monotonic_time ();
  run = wb_profile_job_run (job, &error);
  g_assert_no_error (error);
  g_test_message ("bench: first GPU run (20 timed iterations, compile included): %.1f s; iteration %.3f ms; %u checked calls, %u timed reported",
                  (g_get_monotonic_time () - t0) / 1e6, wb_run_get_iteration_median_ns (run) / 1e6, progress.warmup, progress.timed);
  g_assert_cmpstr (run->device_name, ==, "cuda:0");
  g_assert_cmpuint (run->iteration_ns->len, ==, 20);
  g_assert_cmpuint (progress.warmup, >, 0);
  g_assert_true (wb_run_has_keys (run));
  /* the runner reports every phase per iteration (rate-limited, always the last of each): the timed phase's
   * messages rose to its 20th iteration, after the unprofiled phase's and before the traced one's */
  g_test_message ("progress messages: %u checked calls, %u warm-up, %u unprofiled, %u timed, %u traced", progress.per_phase[WB_PROFILE_PHASE_CHECKED],
                  progress.per_phase[WB_PROFILE_PHASE_WARMUP], progress.per_phase[WB_PROFILE_PHASE_UNPROFILED],
                  progress.per_phase[WB_PROFILE_PHASE_TIMED], progress.per_phase[WB_PROFILE_PHASE_TRACED]);
  g_assert_cmpuint (progress.per_phase[WB_PROFILE_PHASE_TIMED], >=, 1);
  g_assert_cmpuint (progress.per_phase[WB_PROFILE_PHASE_TIMED], <=, 20);
  g_assert_cmpuint (progress.last_done[WB_PROFILE_PHASE_TIMED], ==, 20);
  g_assert_cmpuint (progress.total[WB_PROFILE_PHASE_TIMED], ==, 20);
  g_assert_cmpuint (progress.last_done[WB_PROFILE_PHASE_WARMUP], ==, 2); /* 3 warm-up: the checked run and 2 more */
  g_assert_cmpuint (progress.last_done[WB_PROFILE_PHASE_UNPROFILED], ==, 20);
  g_assert_true (progress.rising);
  g_assert_false (progress.out_of_order);

  /* unfuse the first region by key, as the Regions table does: every other row of the first run is found by
   * key; the unfused region's is not, its calls (the timed calls of its body) are rows unfused from it, and
   * nothing else is new */
  first = wb_pipeline_get_regions (p0)->pdata[0];
  spec = g_strdup_printf ("%s=unfuse", first->key);
  {
    g_autoptr (WbPipeline) p1 = NULL;
    g_autoptr (WbProgram) prog1 = NULL;
    g_autoptr (WbProfileJob) job1 = NULL;
    g_autoptr (WbRun) run1 = NULL;
    Progress pr1 = { .rising = TRUE };
    guint    matched = 0, unfused = 0, members = 0;

    job1 = app_job (wcase, spec, 20, &pr1, &p1, &prog1);
    run1 = wb_profile_job_run (job1, &error);
    g_assert_no_error (error);
    g_assert_true (wb_run_has_keys (run1));
    for (guint i = 0; i < run->regions->len; i++)
      {
        const WbRegionStats *r = run->regions->pdata[i];
        const WbRegionStats *m = wb_compare_match (r, run1, run);

        if (strcmp (r->key, first->key) == 0)
          {
            g_assert_null (m);
            g_assert_true (wb_compare_unfused_in (r, run1));
          }
        else if (m == NULL)
          g_error ("%s (%s) of the first run is not found by key after %s", r->name, r->key, spec);
        matched += m != NULL;
      }
    for (guint i = 0; i < run1->regions->len; i++)
      {
        const WbRegionStats *r = run1->regions->pdata[i];

        if (r->unfused_from != NULL)
          {
            g_assert_cmpstr (r->unfused_from, ==, first->key);
            unfused++;
          }
        else if (wb_compare_match (r, run, run1) == NULL)
          g_error ("%s (%s) of the second run is not in the first", r->name, r->key);
      }
    for (guint i = 0; i < first->bsym->n_subsymbols; i++)
      members += first->bsym->subsymbols[i]->kind == WB_BSYM_CALL && !wb_executor_info_is_utility (first->bsym->subsymbols[i]);
    g_test_message ("after %s: %u of %u rows of the first run found by key, %u calls unfused from %s; iteration %.3f ms", spec, matched,
                    run->regions->len, unfused, first->name, wb_run_get_iteration_median_ns (run1) / 1e6);
    g_assert_cmpuint (matched, ==, run->regions->len - 1);
    g_assert_cmpuint (unfused, ==, members);
  }

  /* a long run cancelled during its checked run: it stops at once, the runner is gone */
  {
    g_autoptr (WbPipeline) p2 = NULL;
    g_autoptr (WbProgram) prog2 = NULL;
    g_autoptr (WbProfileJob) job2 = NULL;
    g_autoptr (GCancellable) cancel = g_cancellable_new ();
    g_autoptr (WbRun) run2 = NULL;
    g_autoptr (GError) cancelled = NULL;
    Progress pr2 = { .cancel = cancel, .rising = TRUE };

    job2 = app_job (wcase, NULL, 100000, &pr2, &p2, &prog2);
    wb_profile_job_set_cancellable (job2, cancel);
    run2 = wb_profile_job_run (job2, &cancelled);
    g_assert_null (run2);
    g_assert_error (cancelled, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_cmpint (pr2.cancelled_at, >, 0);
    g_test_message ("bench: GPU run of 100000 iterations cancelled, returned %.0f ms after the cancel",
                    (g_get_monotonic_time () - pr2.cancelled_at) / 1e3);
    g_assert_cmpint (g_get_monotonic_time () - pr2.cancelled_at, <, G_USEC_PER_SEC);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu/app-job", test_app_job);
  return g_test_run ();
}
