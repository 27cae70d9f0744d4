/* test-profile.c — WbProfile on the cpu (entries, timing invariants, kernel records, the test-only slow-down
 * knob, --executors checks), the ceilings cache, the regression gate and the report writers, in process
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-data.h"
#include "wb-executors.h"
#include "wb-test-common.h"

typedef struct
{
  WbCase            *c;
  WbProgram         *program;
  WbProfile         *profile;
  GPtrArray         *args;
  GHashTable        *inputs;
  const WbCaseStage *stage;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);

  f->c = wb_case_load (path, &error);
  g_assert_no_error (error);
  f->stage = wb_case_get_default_stage (f->c);
  g_assert_nonnull (f->stage);
  g_assert_cmpstr (f->stage->label, ==, "forward_06+backward_00");
  f->program = wb_case_make_program (f->c, f->stage, &error);
  g_assert_no_error (error);
  f->profile = wb_profile_new (f->program, f->stage->label);
  f->inputs = wb_case_make_inputs (f->c, NULL, 0, &error);
  g_assert_no_error (error);
  f->args = wb_case_make_args (f->c, f->program, f->inputs, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_ptr_array_unref (f->args);
  g_hash_table_unref (f->inputs);
  wb_profile_free (f->profile);
  wb_program_unref (f->program);
  wb_case_free (f->c);
}

static WbRun *
profile (Fixture *f, guint iters, guint warmup)
{
  g_autoptr (GError) error = NULL;
  WbProfileOptions options;
  WbRun           *run;

  wb_profile_options_init (&options);
  options.iters = iters;
  options.warmup = warmup;
  run = wb_profile_run (f->profile, f->args, NULL, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

static void
test_entries (Fixture *f, gconstpointer data)
{
  g_autofree char *text = wb_profile_dup_stage_text (f->profile);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (WbRun) run = NULL;

  g_assert_cmpuint (wb_profile_get_n_entries (f->profile), ==, 2);
  g_assert_cmpstr (wb_profile_get_entry_name (f->profile, 0), ==, "TorchCompile0");
  g_assert_cmpstr (wb_profile_get_entry_name (f->profile, 1), ==, "TorchCompile1");
  g_assert_true (wb_profile_get_entry_is_region (f->profile, 0));
  g_assert_true (wb_profile_get_entry_is_region (f->profile, 1));

  run = profile (f, 2, 0);
  /* each region's stage line is the line of its call in the stage text (forward, then backward) */
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *s = run->regions->pdata[i];
      g_autofree char     *call = g_strdup_printf ("= %s(", s->name);

      g_assert_cmpuint (s->stage_line, >, 0);
      g_assert_cmpuint (s->stage_line, <=, g_strv_length (lines));
      g_assert_nonnull (strstr (lines[s->stage_line - 1], call));
    }
  /* TorchCompile1 is in the backward, after the forward's lines */
  g_assert_cmpuint (((WbRegionStats *) run->regions->pdata[1])->stage_line, >, 32);
}

static void
test_timing (Fixture *f, gconstpointer data)
{
  g_autoptr (WbRun) run = profile (f, 6, 1);
  gint64 prev_end = -1;

  g_assert_cmpstr (run->device_name, ==, "cpu");
  g_assert_nonnull (run->device_model);
  g_assert_cmpstr (run->stage, ==, "forward_06+backward_00");
  g_assert_cmpuint (run->iters, ==, 6);
  g_assert_cmpuint (run->warmup, ==, 1);
  g_assert_cmpuint (run->iteration_ns->len, ==, 6);
  g_assert_cmpuint (run->regions->len, ==, 2);
  g_assert_true (run->status == WB_RUN_STATUS_OK);

  /* per iteration: the regions' times are disjoint intervals inside the iteration */
  for (guint i = 0; i < 6; i++)
    {
      gint64 sum = 0;

      for (guint r = 0; r < run->regions->len; r++)
        {
          const WbRegionStats *s = run->regions->pdata[r];

          g_assert_cmpuint (s->times_ns->len, ==, 6);
          g_assert_cmpint (g_array_index (s->times_ns, gint64, i), >, 0);
          sum += g_array_index (s->times_ns, gint64, i);
        }
      g_assert_cmpint (sum, <=, g_array_index (run->iteration_ns, gint64, i));
    }
  for (guint r = 0; r < run->regions->len; r++)
    {
      const WbRegionStats *s = run->regions->pdata[r];

      g_assert_cmpint (s->min_ns, <=, s->median_ns);
      g_assert_cmpint (s->median_ns, <=, s->max_ns);
      g_assert_cmpfloat (s->share, >, 0);
      g_assert_cmpfloat (s->share, <=, 1.0);
      g_assert_cmpstr (s->executor, ==, "cpu");
      g_assert_cmpuint (s->kernel_count, ==, 1);
      g_assert_cmpuint (s->bytes_moved, >, 0);
      g_assert_cmpuint (s->flops, >, 0);
    }
  /* one kernel record per region and iteration, in start order, on stream 0 */
  g_assert_cmpuint (run->kernels->len, ==, 12);
  for (guint k = 0; k < run->kernels->len; k++)
    {
      const WbKernelRecord *kr = run->kernels->pdata[k];
      const WbRegionStats  *s = wb_run_find_region (run, kr->region);

      g_assert_nonnull (s);
      g_assert_cmpstr (kr->name, ==, kr->region);
      g_assert_cmpuint (kr->trace_line, ==, s->stage_line);
      g_assert_cmpuint (kr->stream, ==, 0);
      g_assert_cmpuint (kr->iteration, ==, k / 2);
      g_assert_cmpint (kr->start_ns, >=, prev_end);
      g_assert_cmpint (kr->end_ns, >=, kr->start_ns);
      g_assert_cmpint (kr->end_ns - kr->start_ns, ==, g_array_index (s->times_ns, gint64, kr->iteration));
      prev_end = kr->end_ns;
    }
}

static void
test_slow_knob (Fixture *f, gconstpointer data)
{
  g_autoptr (WbRun) run = NULL;
  const WbRegionStats *slow;

  g_setenv (WB_TEST_SLOW_REGION_ENV, "TorchCompile1:30", TRUE);
  run = profile (f, 3, 0);
  g_unsetenv (WB_TEST_SLOW_REGION_ENV);
  slow = wb_run_find_region (run, "TorchCompile1");
  g_assert_cmpint (slow->min_ns, >=, 30 * 1000000);
  g_assert_cmpint (wb_run_find_region (run, "TorchCompile0")->median_ns, <, slow->median_ns);
}

static void
test_executors (Fixture *f, gconstpointer data)
{
  struct
  {
    const char *spec;
    int         code;
    const char *named;
  } bad[] = {
    { "Nope=cpu", WB_PROFILE_ERROR_UNKNOWN_REGION, "Nope" },
    { "TorchCompile0=nope", WB_PROFILE_ERROR_UNKNOWN_EXECUTOR, "nope" },
    { "TorchCompile0=torchcompile", WB_PROFILE_ERROR_UNKNOWN_EXECUTOR, "torchcompile" },
    { "TorchCompile0=nvrtc", WB_PROFILE_ERROR_UNAVAILABLE, "nvrtc" },
    { "TorchCompile0", WB_PROFILE_ERROR_BAD_OPTION, "TorchCompile0" },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) run = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (wb_profile_set_executors (f->profile, bad[i].spec, &error));
      g_assert_error (error, WB_PROFILE_ERROR, bad[i].code);
      g_assert_nonnull (strstr (error->message, bad[i].named));
      g_clear_error (&error);
    }
  g_assert_true (wb_profile_set_executors (f->profile, "TorchCompile0=cpu, TorchCompile1=cpu", &error));
  g_assert_no_error (error);
  run = profile (f, 1, 0);
  g_assert_cmpstr (run->executors, ==, "TorchCompile0=cpu,TorchCompile1=cpu"); /* parsed once, printed back */
}

static void
test_unprofiled (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  WbProfileOptions options;

  wb_profile_options_init (&options);
  options.iters = 4;
  options.warmup = 1;
  g_assert_true (wb_profile_time_unprofiled (f->profile, f->args, NULL, &options, times, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (times->len, ==, 4);
  for (guint i = 0; i < times->len; i++)
    g_assert_cmpint (g_array_index (times, gint64, i), >, 0);
}

/* the report writers on a real run: the JSON's regions and iteration add up; the Chrome trace parses */
static void
test_reports (Fixture *f, gconstpointer data)
{
  g_autoptr (WbRun) run = profile (f, 4, 0);
  g_autoptr (WbDeviceCeilings) ceilings = wb_device_ceilings_new (run->device_model, 10.0, 0.1);
  g_autofree char *text = wb_profile_dup_stage_text (f->profile);
  g_autoptr (WbReport) report = wb_report_new (run, ceilings, "mlp_small", text);
  g_autofree char *md = (wb_report_add_warning (report, "2 calls ran on the cpu fallback"), wb_report_to_markdown (report));
  g_autofree char *json = wb_report_to_json (report);
  g_autofree char *html = wb_report_to_html (report);
  g_autofree char *chrome = wb_report_to_chrome_trace (report);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;

  g_assert_nonnull (strstr (md, "| TorchCompile0 | region | cpu |"));
  /* a warning comes first, right under the title */
  g_assert_nonnull (strstr (md, "# thunder-wb profile: mlp_small\n\n> **Warning:** 2 calls ran on the cpu fallback\n"));
  g_assert_nonnull (strstr (html, "</h1>\n<p class=\"fail\">Warning: 2 calls ran on the cpu fallback</p>"));
  g_assert_nonnull (strstr (md, "median over 4 timed iterations"));
  g_assert_nonnull (strstr (html, "<svg id=\"timeline\""));
  g_assert_nonnull (strstr (html, "<svg id=\"bars\""));
  g_assert_true (g_str_has_suffix (html, "</html>\n"));
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "schema_version"), ==, WB_REPORT_SCHEMA_VERSION);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "regions")), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (root, "warnings"), 0), ==, "2 calls ran on the cpu fallback");
  json_parser_load_from_data (parser, chrome, -1, &error);
  g_assert_no_error (error);
}

/* -- the gate and the ceilings cache, on synthetic runs ---------------------------------------------- */

static WbRun *
synthetic_run (const double *region_ms, const double *spread, guint n_iters)
{
  WbRun      *run = wb_run_new ();
  const char *names[] = { "TorchCompile0", "TorchCompile1" };

  run->device_name = g_strdup ("cpu");
  run->device_model = g_strdup ("test cpu");
  for (guint r = 0; r < 2; r++)
    {
      WbRegionStats *s = wb_region_stats_new (names[r], "cpu");

      for (guint i = 0; i < n_iters; i++)
        wb_region_stats_add_time (s, (gint64) ((region_ms[r] + spread[r] * ((double) i / MAX (n_iters - 1, 1) - 0.5)) * 1e6));
      wb_region_stats_update (s);
      wb_run_add_region (run, s);
    }
  for (guint i = 0; i < n_iters; i++)
    wb_run_add_iteration (run, (gint64) ((region_ms[0] + region_ms[1] + 0.1) * 1e6));
  return run;
}

static void
test_gate (void)
{
  const double base_ms[] = { 1.0, 2.0 }, flat[] = { 0, 0 }, noisy[] = { 0.8, 0 };
  const double slow_ms[] = { 1.2, 2.0 };
  g_autoptr (WbRun) base = synthetic_run (base_ms, flat, 10);
  g_autoptr (WbRun) slow = synthetic_run (slow_ms, flat, 10);
  g_autoptr (WbRun) same = synthetic_run (base_ms, flat, 10);
  g_autoptr (WbRun) noisy_base = synthetic_run (base_ms, noisy, 10);
  g_autoptr (WbGate) g1 = wb_gate_new (base, slow, 10);
  g_autoptr (WbGate) g2 = wb_gate_new (base, slow, 25);
  g_autoptr (WbGate) g3 = wb_gate_new (base, same, 0);
  g_autoptr (WbGate) g4 = wb_gate_new (noisy_base, slow, 10);
  g_autofree char *failures = wb_gate_dup_failures (g1);

  /* +20% on TorchCompile0 fails at 10%, and names it (the iteration is +6.5%: passes) */
  g_assert_true (g1->failed);
  g_assert_nonnull (failures);
  g_assert_nonnull (strstr (failures, "TorchCompile0"));
  g_assert_null (strstr (failures, "TorchCompile1"));
  g_assert_false (g1->iteration->failed);
  /* ... passes at 25%, an unchanged run passes at 0%, and noise of IQR 0.4 ms covers the 0.2 ms */
  g_assert_false (g2->failed);
  g_assert_false (g3->failed);
  g_assert_null (wb_gate_dup_failures (g3));
  g_assert_false (g4->failed);
  g_assert_cmpint (((WbGateRow *) g4->regions->pdata[0])->noise_ns, >, 200000);
}

static void
test_ceilings_cache (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbDeviceCeilings) a = wb_device_ceilings_new ("test model A", 12.5, 0.25);
  g_autoptr (WbDeviceCeilings) b = wb_device_ceilings_new ("test model B", 100, 1.5);
  g_autoptr (WbDeviceCeilings) found = NULL;

  /* XDG_CACHE_HOME points into the build folder (tests/profiler/meson.build) */
  g_assert_true (wb_ceilings_cache_store (a, &error));
  g_assert_no_error (error);
  g_assert_true (wb_ceilings_cache_store (b, &error));
  found = wb_ceilings_cache_lookup ("test model A");
  g_assert_nonnull (found);
  g_assert_cmpfloat_with_epsilon (found->copy_gbps, 12.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (found->bf16_tflops, 0.25, 1e-9);
  g_clear_pointer (&found, wb_device_ceilings_free);
  g_assert_null (wb_ceilings_cache_lookup ("no such model"));
  {
    g_autofree char *model = wb_cpu_device_model ();

    g_assert_nonnull (strstr (model, "thread"));
  }
}

/* Kinds set after the report is made reach every row of that name (two rows may share one) and no other
 * row; the kind of a name the symbol table knows is the table's until set. */
static void
test_region_kinds (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (WbReport) report = NULL;
  g_autofree char *json = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  const char *names[] = { "nvFusion0", "ltorch.add", "TorchCompile0", "nvFusion0" };
  const char *want[] = { "op", "op", "region", "op" };
  JsonArray  *regions;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      WbRegionStats *s = wb_region_stats_new (names[i], "nvfuser");
      wb_region_stats_add_time (s, 1000 * (i + 1));
      wb_region_stats_update (s);
      wb_run_add_region (run, s);
    }
  report = wb_report_new (run, NULL, "kinds", NULL);
  wb_report_set_region_kind (report, "nvFusion0", FALSE);
  wb_report_set_region_kind (report, "not-a-row", TRUE);
  json = wb_report_to_json (report);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  regions = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *o = json_array_get_object_element (regions, i);
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        if (g_str_equal (json_object_get_string_member (o, "name"), names[k]))
          g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, want[k]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add ("/profiler/profile/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("entries", test_entries);
  ADD ("timing", test_timing);
  ADD ("slow-knob", test_slow_knob);
  ADD ("executors", test_executors);
  ADD ("unprofiled", test_unprofiled);
  ADD ("reports", test_reports);
#undef ADD
  g_test_add_func ("/profiler/report/region-kinds", test_region_kinds);
  g_test_add_func ("/profiler/gate/rule", test_gate);
  g_test_add_func ("/profiler/ceilings/cache", test_ceilings_cache);
  return g_test_run ();
}
