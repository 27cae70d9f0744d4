/* test-run-keys.c — a run's rows keep their keys across an unfuse (issue 45): the app's profiling job
 * without a GPU. The pipeline's program with and without "KEY=unfuse" of its first region
 * (tests/gpu/test-app-job.c does the same on the GPU), its rows as the GPU runner's run builds them
 * (wb_profile_build_run: the same rows as the cpu's wb_profile_run), matched by key as the app's Δ column
 * and `compare` match them (wb_compare_match), also after a round trip through a session file.
 *
 * What is checked, from the traces themselves: every row's key is unique in its run and a region's is
 * the pipeline's (WbRegion.key, taken in the fusion pass); every row of the first run but the unfused
 * region's is found by key in the second; a region is "changed contents" exactly when the set of output
 * names of its body's bound symbols differs between the two runs; the unfused region's own row is
 * "unfused in B", and its calls (the top-level calls of its body that are not utility) are rows of the
 * second run "unfused from" it; nothing else is new or missing. The GPU runner gets the assignment by
 * region name.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-data.h"
#include "wb-profiler.h"
#include "wb-test-common.h"

typedef struct
{
  WbPipeline *pipeline;
  WbProgram  *program;
  WbProfile  *profile;
  WbRun      *run;
} Job;

static void
job_clear (Job *j)
{
  g_clear_pointer (&j->run, wb_run_free);
  g_clear_pointer (&j->profile, wb_profile_free);
  g_clear_pointer (&j->program, wb_program_unref);
  g_clear_pointer (&j->pipeline, wb_pipeline_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Job, job_clear)

/* The app's job (views/wb-document-jobs.c, tests/gpu/test-app-job.c) up to the run: the run built from
 * device times as the GPU runner's is (one iteration of 1 µs per row). */
static void
job_run (Job *j, WbCase *wcase, const char *spec)
{
  const WbTraceEntry *input = wb_pipeline_find_input (wb_case_get_trace_set (wcase));
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) plan = spec ? wb_assignment_parse (spec, &error) : NULL;
  WbPipelineOptions    opts = { NULL, WB_FUSION_DATAFLOW, plan };
  WbProfileOptions     options;
  WbProfileDeviceTimes times = { 0 };
  g_autofree gint64   *entry_ns = NULL;
  gint64               iteration = 0;

  g_assert_no_error (error);
  g_assert_nonnull (input);
  j->pipeline = wb_pipeline_run (input->trace, &opts, &error);
  g_assert_no_error (error);
  j->program = wb_program_new_for_pipeline (j->pipeline, &error);
  g_assert_no_error (error);
  j->profile = wb_profile_new (j->program, "workbench");
  wb_profile_options_init (&options);
  entry_ns = g_new0 (gint64, wb_profile_get_n_entries (j->profile));
  for (guint i = 0; i < wb_profile_get_n_entries (j->profile); i++)
    iteration += entry_ns[i] = 1000;
  times.device_name = "cuda:0";
  times.iteration_ns = &iteration;
  times.n_iters = 1;
  times.entry_ns = entry_ns;
  j->run = wb_profile_build_run (j->profile, &options, &times);
}

static const WbRegion *
find_region (const WbPipeline *p, const char *name)
{
  GPtrArray *regions = wb_pipeline_get_regions (p);

  for (guint i = 0; i < regions->len; i++)
    if (strcmp (((const WbRegion *) regions->pdata[i])->name, name) == 0)
      return regions->pdata[i];
  return NULL;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The sorted output names of @region's body (its bound symbols' identity, independent of wb_call_contents). */
static char *
body_names (const WbBsym *region)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < region->n_subsymbols; i++)
    wb_bsym_get_output_names (region->subsymbols[i], names);
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (s, "%s ", (const char *) names->pdata[i]);
  return g_strdup (s->str);
}

static void
assert_unique_keys (const WbRun *run)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = run->regions->pdata[i];

      g_assert_nonnull (r->key);
      if (g_hash_table_contains (seen, r->key))
        g_error ("%s and %s have one key %s", (const char *) g_hash_table_lookup (seen, r->key), r->name, r->key);
      g_hash_table_insert (seen, r->key, r->name);
    }
}

/* Every region row has the pipeline's key for that region. */
static void
assert_pipeline_keys (const Job *j)
{
  for (guint i = 0; i < j->run->regions->len; i++)
    {
      const WbRegionStats *r = j->run->regions->pdata[i];
      const WbRegion      *region = find_region (j->pipeline, r->name);

      if (region != NULL)
        g_assert_cmpstr (r->key, ==, region->key);
    }
}

/* The top-level calls of @region's body that the profile times (not utility): the rows unfusing gives. */
static guint
timed_members (const WbBsym *region)
{
  guint n = 0;

  for (guint i = 0; i < region->n_subsymbols; i++)
    n += region->subsymbols[i]->kind == WB_BSYM_CALL && !wb_executor_info_is_utility (region->subsymbols[i]);
  return n;
}

/* The comparison of @a and @b as `compare` and the app's Δ column see it (one rule). */
static void
check_comparison (const WbRun *a, const WbRun *b, const WbRegion *first, guint n_unfused)
{
  g_autoptr (WbComparison) c = wb_comparison_new (a, b);
  g_autofree char *md = wb_comparison_to_markdown (c, NULL);
  g_autofree char *from = g_strdup_printf ("unfused from %s", first->name);
  guint            unfused_in_b = 0, unfused_from = 0;

  for (guint i = 0; i < c->regions->len; i++)
    {
      const WbCompareRow *row = c->regions->pdata[i];

      if (row->fusion == WB_COMPARE_FUSION_UNFUSED_IN_B)
        {
          g_assert_cmpstr (row->name, ==, first->name);
          g_assert_cmpint (row->verdict, ==, WB_COMPARE_ONLY_A);
          unfused_in_b++;
        }
      else if (row->fusion == WB_COMPARE_FUSION_UNFUSED_FROM_A)
        {
          g_assert_cmpstr (row->region, ==, first->name);
          g_assert_cmpint (row->verdict, ==, WB_COMPARE_ONLY_B);
          unfused_from++;
        }
      else
        {
          g_assert_cmpint (row->fusion, ==, WB_COMPARE_FUSION_SAME);
          g_assert_cmpint (row->verdict, !=, WB_COMPARE_ONLY_A); /* nothing missing */
          g_assert_cmpint (row->verdict, !=, WB_COMPARE_ONLY_B); /* nothing new */
        }
    }
  g_assert_cmpuint (unfused_in_b, ==, 1);
  g_assert_cmpuint (unfused_from, ==, n_unfused);
  g_assert_nonnull (strstr (md, "| unfused in B |"));
  g_assert_nonnull (strstr (md, from));
}

static void
check_case (gconstpointer data)
{
  const char *dir = data;
  g_autoptr (WbCase) wcase = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Job) j0 = { 0 };
  g_auto (Job) j1 = { 0 };
  g_autofree char     *spec = NULL;
  const WbRegion      *first;
  const WbRegionStats *first_row;
  guint                n_unfused = 0, n_changed = 0;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("case not found");
      return;
    }
  wcase = wb_case_load (dir, &error);
  g_assert_no_error (error);
  job_run (&j0, wcase, NULL);
  assert_unique_keys (j0.run);
  assert_pipeline_keys (&j0);

  /* unfuse the first region by key, as the Regions table does */
  first = wb_pipeline_get_regions (j0.pipeline)->pdata[0];
  first_row = wb_run_find_region (j0.run, first->name);
  g_assert_nonnull (first_row);
  spec = g_strdup_printf ("%s=unfuse", first->key);
  job_run (&j1, wcase, spec);
  assert_unique_keys (j1.run);
  assert_pipeline_keys (&j1);
  for (guint i = 0; i < wb_pipeline_get_regions (j1.pipeline)->len; i++)
    g_assert_cmpstr (((const WbRegion *) wb_pipeline_get_regions (j1.pipeline)->pdata[i])->key, !=, first->key);

  /* the second run's rows: a call unfused out of the first region, or a row of the first run */
  for (guint i = 0; i < j1.run->regions->len; i++)
    {
      const WbRegionStats *r = j1.run->regions->pdata[i];

      if (r->unfused_from != NULL)
        {
          g_assert_cmpstr (r->unfused_from, ==, first->key);
          g_assert_null (wb_compare_match (r, j0.run, j1.run));
          g_assert_true (wb_compare_unfused_from (r, j0.run) == first_row);
          n_unfused++;
        }
      else if (wb_compare_match (r, j0.run, j1.run) == NULL)
        g_error ("%s (%s) of the second run is not in the first", r->name, r->key);
    }
  g_assert_cmpuint (n_unfused, ==, timed_members (first->bsym));

  /* the first run's rows: every one found by key but the unfused region's; "changed contents" exactly
   * where the region's body changed */
  for (guint i = 0; i < j0.run->regions->len; i++)
    {
      const WbRegionStats *r = j0.run->regions->pdata[i];
      const WbRegionStats *m = wb_compare_match (r, j1.run, j0.run);
      const WbRegion      *ra = find_region (j0.pipeline, r->name);
      gboolean             changed;

      if (r == first_row)
        {
          g_assert_null (m);
          g_assert_true (wb_compare_unfused_in (r, j1.run));
          continue;
        }
      if (m == NULL)
        g_error ("%s (%s) of the first run is not found by key after %s", r->name, r->key, spec);
      g_assert_false (wb_compare_unfused_in (r, j1.run));
      changed = strcmp (r->contents, m->contents) != 0;
      if (ra != NULL)
        {
          const WbRegion  *rb = find_region (j1.pipeline, m->name);
          g_autofree char *na = body_names (ra->bsym);
          g_autofree char *nb = NULL;

          g_assert_nonnull (rb);
          nb = body_names (rb->bsym);
          g_assert_cmpint (changed, ==, strcmp (na, nb) != 0);
          if (changed)
            g_test_message ("%s (%s): changed contents (%s is %s after %s)", r->name, r->key, r->name, m->name, spec);
          n_changed += changed;
        }
      else
        g_assert_false (changed); /* a call outside regions computes what it did */
    }
  g_test_message ("%s: after %s, %u of %u rows found by key, %u regions with changed contents, %u calls unfused", dir, spec,
                  j0.run->regions->len - 1, j0.run->regions->len, n_changed, n_unfused);

  check_comparison (j0.run, j1.run, first, n_unfused);

  /* the same through a session file, as `thunder-wb --headless compare` reads them */
  {
    g_autofree char *tmp = g_dir_make_tmp ("wb-keys-XXXXXX", &error);
    g_autofree char *path = g_build_filename (tmp, "keys.wbsession", NULL);
    g_autoptr (WbSession) session = NULL;
    g_autoptr (WbRun) a = NULL;
    g_autoptr (WbRun) b = NULL;
    gint64 ida, idb;

    g_assert_no_error (error);
    session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);
    g_assert_no_error (error);
    ida = wb_session_store_run (session, j0.run, 0, &error);
    g_assert_no_error (error);
    idb = wb_session_store_run (session, j1.run, 0, &error);
    g_assert_no_error (error);
    a = wb_session_get_run (session, ida, WB_SESSION_READ_SUMMARY, &error);
    g_assert_no_error (error);
    b = wb_session_get_run (session, idb, WB_SESSION_READ_SUMMARY, &error);
    g_assert_no_error (error);
    check_comparison (a, b, first, n_unfused);
    g_clear_pointer (&session, wb_session_close);
    wb_test_remove_tree (tmp);
  }
}

/* On the GPU the runner parses the traces again: it gets every choice by the region's name. */
static void
check_runner_assignment (gconstpointer data)
{
  const char *dir = data;
  g_autoptr (WbCase) wcase = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) plan = wb_assignment_new ();
  g_autoptr (WbAssignment) by_name = NULL;
  g_auto (Job) j = { 0 };
  GPtrArray *regions;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("case not found");
      return;
    }
  wcase = wb_case_load (dir, &error);
  g_assert_no_error (error);
  job_run (&j, wcase, NULL);
  regions = wb_pipeline_get_regions (j.pipeline);
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion *r = regions->pdata[i];

      g_assert_true (wb_assignment_set (plan, r->key, r->executor, &error));
    }
  wb_profile_set_device_cuda (j.profile, NULL);
  g_assert_true (wb_profile_set_assignment (j.profile, plan, &error));
  g_assert_no_error (error);
  by_name = wb_profile_dup_assignment_by_name (j.profile);
  g_assert_cmpuint (wb_assignment_get_n_choices (by_name), ==, regions->len);
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion *r = regions->pdata[i];

      g_assert_cmpstr (wb_assignment_get_choice (by_name, i)->key, ==, r->name);
      g_assert_cmpstr (wb_assignment_get_choice (by_name, i)->executor, ==, r->executor);
    }
}

/* A folder of several sub-programs (ThunderFX's subgraphs), as the app profiles it (views/wb-document-jobs.c): the
 * sub-program chosen for an entry is the entry's own (its folder, the subset the case loaded it in), and for an
 * entry of none (the workbench's stages, past the case's entries) the one asked for, else the first; the
 * pipeline starts from that sub-program's input, and its program runs on the cpu through the profiling job with
 * the sub-program's own case (its inputs), its rows keyed. A single subgraph's folder is one program: no choice. */
static void
check_subprogram_choice (gconstpointer data)
{
  const char *path = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) wcase = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) dir = NULL;
  WbTraceSet *set;
  guint       n;
  const char *name;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (ninja builds tests/zoo/zoo)");
      return;
    }
  /* the sub-programs, from the folder itself: its directories that hold a forward_00.py */
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *fwd = g_build_filename (path, name, "forward_00.py", NULL);

      if (g_file_test (fwd, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (dirs, g_strdup (name));
    }
  g_assert_cmpuint (dirs->len, >=, 2);
  wcase = wb_case_load (path, &error);
  g_assert_no_error (error);
  set = wb_case_get_trace_set (wcase);
  n = wb_trace_set_get_n_entries (set);
  names = wb_case_list_subprograms (wcase);
  g_assert_nonnull (names);
  g_assert_cmpuint (names->len, ==, dirs->len);
  for (guint i = 0; i < dirs->len; i++)
    g_assert_true (g_ptr_array_find_with_equal_func (names, dirs->pdata[i], g_str_equal, NULL));
  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autofree char    *folder = g_path_get_dirname (e->path);
      g_autofree char    *own = NULL;

      /* the entry's folder: PATH/<sub-program> or PATH/<sub-program>/stages */
      if (g_str_has_suffix (folder, "/stages"))
        folder[strlen (folder) - strlen ("/stages")] = '\0';
      own = g_path_get_basename (folder);
      g_assert_cmpstr (wb_case_choose_subprogram (wcase, set, i, NULL), ==, own);
    }
  g_assert_cmpstr (wb_case_choose_subprogram (wcase, set, n, NULL), ==, names->pdata[0]);
  g_assert_cmpstr (wb_case_choose_subprogram (wcase, set, n, names->pdata[1]), ==, names->pdata[1]);
  g_assert_cmpstr (wb_case_choose_subprogram (wcase, set, n, "no-such-sub-program"), ==, names->pdata[0]);
  g_assert_null (wb_pipeline_find_input (set)); /* the folder has no program of its own */
  for (guint k = 0; k < names->len; k++)
    {
      const char         *sub = names->pdata[k];
      const WbTraceEntry *input = wb_pipeline_find_input_in (set, sub);
      g_autofree char    *sub_dir = g_build_filename (path, sub, NULL);
      g_autoptr (WbCase) sub_case = wb_case_load (sub_dir, &error);
      g_autoptr (WbPipeline) pipeline = NULL;
      g_autoptr (WbProgram) program = NULL;
      g_autoptr (WbProfileJob) job = NULL;
      g_autoptr (WbRun) run = NULL;
      WbProfileOptions options;

      g_assert_no_error (error);
      g_assert_nonnull (input);
      g_assert_cmpstr (input->subset, ==, sub);
      g_assert_null (wb_case_choose_subprogram (sub_case, wb_case_get_trace_set (sub_case), 0, NULL));
      pipeline = wb_pipeline_run (input->trace, NULL, &error);
      g_assert_no_error (error);
      program = wb_program_new_for_pipeline (pipeline, &error);
      g_assert_no_error (error);
      job = wb_profile_job_new (sub_case, program, "workbench");
      wb_profile_job_set_device (job, WB_PROFILE_DEVICE_CPU);
      wb_profile_options_init (&options);
      options.iters = 1;
      options.warmup = 0;
      wb_profile_job_set_options (job, &options);
      wb_profile_job_set_inputs (job, wb_case_get_reference (sub_case, NULL));
      g_assert_true (wb_profile_job_choose_device (job, &error));
      g_assert_no_error (error);
      run = wb_profile_job_run (job, &error);
      g_assert_no_error (error);
      g_assert_nonnull (run);
      g_assert_cmpint (run->status, ==, WB_RUN_STATUS_OK);
      g_assert_cmpuint (run->regions->len, >, 0);
      g_assert_true (wb_run_has_keys (run));
    }
}

int
main (int argc, char **argv)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *layer = wb_test_traces_dir () ? g_build_filename (wb_test_traces_dir (), "llama_layer", NULL) : NULL;
  g_autofree char *zoo = build ? g_build_filename (build, "tests", "zoo", "zoo", "llama", "thunderfx_g0_GraphModule_3", NULL) : NULL;

  g_autofree char *custom_op = build ? g_build_filename (build, "tests", "zoo", "zoo", "custom_op", NULL) : NULL;
  g_autofree char *graph_break = build ? g_build_filename (build, "tests", "zoo", "zoo", "graph_break_thunderfx", NULL) : NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/profiler/region-keys/subprogram/custom_op", custom_op, check_subprogram_choice);
  g_test_add_data_func ("/profiler/region-keys/subprogram/graph_break_thunderfx", graph_break, check_subprogram_choice);
  g_test_add_data_func ("/profiler/region-keys/unfuse/llama_layer", layer, check_case);
  g_test_add_data_func ("/profiler/region-keys/unfuse/zoo-llama", zoo, check_case);
  g_test_add_data_func ("/profiler/region-keys/runner-assignment/llama_layer", layer, check_runner_assignment);
  return g_test_run ();
}
