/* test-compare.c — WbComparison: the noise rule, matching regions, Markdown and JSON
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "wb-test-common.h"
#include "wb-test-runs.h"

/* run_with: a run whose region @name (on @executor) took @times[i] ns in iteration i, and whose
 * iterations took 10x that. */
static WbRun *
run_with (gint64        id,
          const char   *name,
          const char   *executor,
          const gint64 *times,
          guint         n)
{
  WbRun         *run = wb_run_new ();
  WbRegionStats *r = wb_region_stats_new (name, executor);

  run->id = id;
  run->device_name = g_strdup ("cuda:0");
  run->device_model = g_strdup ("NVIDIA H100 80GB HBM3");
  for (guint i = 0; i < n; i++)
    {
      wb_region_stats_add_time (r, times[i]);
      wb_run_add_iteration (run, times[i] * 10);
    }
  wb_region_stats_update (r);
  wb_run_add_region (run, r);
  return run;
}

static const WbCompareRow *
row (const WbComparison *c,
     guint               i)
{
  return g_ptr_array_index (c->regions, i);
}

static void
test_statistics (void)
{
  const gint64 odd[] = { 5, 1, 3, 2, 4 };
  const gint64 even[] = { 10, 40, 20, 30 };
  gint64       q1, q3;

  g_assert_cmpint (wb_times_median_ns (odd, 5), ==, 3);
  g_assert_cmpint (wb_times_median_ns (even, 4), ==, 25);
  g_assert_cmpint (wb_times_median_ns (NULL, 0), ==, 0);
  /* numpy.percentile([1,2,3,4,5], [25,75]) = 2, 4; ([10,20,30,40]) = 17.5, 32.5 */
  wb_times_quartiles_ns (odd, 5, &q1, &q3);
  g_assert_cmpint (q1, ==, 2);
  g_assert_cmpint (q3, ==, 4);
  wb_times_quartiles_ns (even, 4, &q1, &q3);
  g_assert_cmpint (q1, ==, 18);
  g_assert_cmpint (q3, ==, 33);
}

static void
test_noise_rule (void)
{
  /* A: 1.00 ms, IQR 5 µs; B: 1.10 ms, IQR 5 µs: slower, by 100 µs. */
  const gint64 a_times[] = { 990000, 1000000, 1010000, 1000000, 980000, 1020000, 1000000, 1000000 };
  const gint64 b_times[] = { 1090000, 1100000, 1110000, 1100000, 1080000, 1120000, 1100000, 1100000 };
  /* C: A's times shifted by 3 µs: within the noise. */
  const gint64 c_times[] = { 993000, 1003000, 1013000, 1003000, 983000, 1023000, 1003000, 1003000 };
  g_autoptr (WbRun) a = run_with (1, "TorchCompile0", "torchcompile", a_times, 8);
  g_autoptr (WbRun) b = run_with (2, "TorchCompile0", "nvfuser", b_times, 8);
  g_autoptr (WbRun) c = run_with (3, "TorchCompile0", "torchcompile", c_times, 8);
  g_autoptr (WbComparison) ab = wb_comparison_new (a, b);
  g_autoptr (WbComparison) ba = wb_comparison_new (b, a);
  g_autoptr (WbComparison) ac = wb_comparison_new (a, c);

  g_assert_cmpuint (ab->regions->len, ==, 1);
  g_assert_cmpint (row (ab, 0)->verdict, ==, WB_COMPARE_SLOWER);
  g_assert_cmpint (row (ab, 0)->diff_ns, ==, 100000);
  g_assert_cmpfloat_with_epsilon (row (ab, 0)->diff_pct, 10.0, 1e-9);
  g_assert_cmpint (row (ab, 0)->noise_a_ns, ==, 5000);
  g_assert_cmpint (row (ab, 0)->threshold_ns, ==, 5000);
  g_assert_cmpstr (row (ab, 0)->executor_a, ==, "torchcompile");
  g_assert_cmpstr (row (ab, 0)->executor_b, ==, "nvfuser");
  g_assert_cmpint (ab->iteration->verdict, ==, WB_COMPARE_SLOWER);
  g_assert_null (ab->iteration->name);

  g_assert_cmpint (row (ba, 0)->verdict, ==, WB_COMPARE_FASTER);
  g_assert_cmpint (ba->iteration->verdict, ==, WB_COMPARE_FASTER);

  g_assert_cmpint (row (ac, 0)->diff_ns, ==, 3000);
  g_assert_cmpint (row (ac, 0)->verdict, ==, WB_COMPARE_WITHIN_NOISE);
  g_assert_cmpuint (ab->notes->len, ==, 0);
}

static void
test_few_iterations (void)
{
  const gint64 one[] = { 1000000 };
  const gint64 three_a[] = { 1000000, 1050000, 1100000 };
  const gint64 three_b[] = { 1200000, 1210000, 1220000 };
  const gint64 three_c[] = { 1090000, 1100000, 1110000 };
  g_autoptr (WbRun) a1 = run_with (1, "R", "x", one, 1);
  g_autoptr (WbRun) b1 = run_with (2, "R", "x", one, 1);
  g_autoptr (WbRun) a3 = run_with (3, "R", "x", three_a, 3);
  g_autoptr (WbRun) b3 = run_with (4, "R", "x", three_b, 3);
  g_autoptr (WbRun) c3 = run_with (5, "R", "x", three_c, 3);
  g_autoptr (WbComparison) c11 = wb_comparison_new (a1, b1);
  g_autoptr (WbComparison) c33 = wb_comparison_new (a3, b3);
  g_autoptr (WbComparison) c35 = wb_comparison_new (a3, c3);

  g_assert_cmpint (row (c11, 0)->verdict, ==, WB_COMPARE_UNKNOWN);
  /* Three iterations: the range stands in for the IQR (A: 100 µs). */
  g_assert_cmpint (row (c33, 0)->noise_a_ns, ==, 100000);
  g_assert_cmpint (row (c33, 0)->noise_b_ns, ==, 20000);
  /* ... but three iterations are too few for any verdict (issue 45: "faster, beyond noise" on 3) */
  g_assert_cmpint (row (c33, 0)->verdict, ==, WB_COMPARE_UNKNOWN); /* 150 µs > 100 µs, yet unknown */
  g_assert_cmpint (row (c35, 0)->verdict, ==, WB_COMPARE_UNKNOWN);
  {
    const gint64 five_a[] = { 1000000, 1050000, 1100000, 1020000, 1080000 };
    const gint64 five_b[] = { 1200000, 1210000, 1220000, 1205000, 1215000 };
    g_autoptr (WbRun) a5 = run_with (6, "R", "x", five_a, 5);
    g_autoptr (WbRun) b5 = run_with (7, "R", "x", five_b, 5);
    g_autoptr (WbComparison) c55 = wb_comparison_new (a5, b5);

    /* five: the IQR (A: 60 µs) against a 155 µs difference */
    g_assert_cmpint (row (c55, 0)->verdict, ==, WB_COMPARE_SLOWER);
  }
}

static void
test_regions_only_in_one (void)
{
  const gint64 t[] = { 100, 110, 120, 130 };
  g_autoptr (WbRun) a = run_with (1, "TorchCompile0", "torchcompile", t, 4);
  g_autoptr (WbRun) b = run_with (2, "nvFusion0", "nvfuser", t, 4);
  g_autoptr (WbComparison) c = NULL;

  g_free (b->device_model);
  b->device_model = g_strdup ("NVIDIA H200");
  b->status = WB_RUN_STATUS_FAILED;
  b->error = g_strdup ("boom");
  c = wb_comparison_new (a, b);
  g_assert_cmpuint (c->regions->len, ==, 2);
  g_assert_cmpint (row (c, 0)->verdict, ==, WB_COMPARE_ONLY_A);
  g_assert_cmpstr (row (c, 0)->name, ==, "TorchCompile0");
  g_assert_cmpint (row (c, 1)->verdict, ==, WB_COMPARE_ONLY_B);
  g_assert_cmpstr (row (c, 1)->executor_b, ==, "nvfuser");
  g_assert_cmpuint (c->notes->len, ==, 2); /* different devices; B failed */
}

static void
test_outputs (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) regions = g_ptr_array_new ();
  g_autoptr (GPtrArray) real = wb_test_regions_from_string ("TorchCompile0:torchcompile:18;"
                                                            "sdpafx_grad_forward_scaled_dot_product_efficient_attention:sdpa:98;"
                                                            "Torch|Pipe:torchcompile:100");
  g_autoptr (WbRun) a = wb_test_make_run (real, 0, 30, 10);
  g_autoptr (WbRun) b = wb_test_make_run (real, 3, 30, 10);
  g_autoptr (WbComparison) c = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *md = NULL;
  g_autofree char *json = NULL;
  JsonObject      *root;
  JsonArray       *rows;

  a->id = 4;
  b->id = 9;
  c = wb_comparison_new (a, b);
  md = wb_comparison_to_markdown (c, "runs.wbsession");
  g_test_message ("%s", md);
  g_assert_true (strstr (md, "# Comparing run 4 (A) with run 9 (B)") != NULL);
  g_assert_true (strstr (md, "| region | executor A | executor B | A ms | B ms | Δ ms | Δ % | noise ms | verdict |") != NULL);
  g_assert_true (strstr (md, "| TorchCompile0 | nvfuser | torchcompile |") != NULL);
  g_assert_true (strstr (md, "Torch\\|Pipe") != NULL);
  g_assert_true (strstr (md, "**whole iteration**") != NULL);
  g_assert_true (strstr (md, "interquartile range") != NULL);

  json = wb_comparison_to_json (c, "runs.wbsession");
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "thunder-wb/compare");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "run_a"), "id"), ==, 4);
  rows = json_object_get_array_member (root, "regions");
  g_assert_cmpuint (json_array_get_length (rows), ==, 3);
  {
    JsonObject         *r0 = json_array_get_object_element (rows, 0);
    const WbCompareRow *expected = row (c, 0);

    g_assert_cmpstr (json_object_get_string_member (r0, "name"), ==, "TorchCompile0");
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "median_a_ms"),
                                    (double) expected->median_a_ns / 1e6, 1e-12);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "diff_ms"),
                                    (double) expected->diff_ns / 1e6, 1e-12);
    g_assert_cmpstr (json_object_get_string_member (r0, "verdict"), ==,
                     wb_compare_verdict_to_string (expected->verdict));
    g_assert_true (json_object_get_boolean_member (r0, "exceeds_noise") ==
                   (expected->verdict == WB_COMPARE_SLOWER || expected->verdict == WB_COMPARE_FASTER));
  }
  g_assert_true (json_object_has_member (json_object_get_object_member (root, "iteration"), "noise_ms"));
}

/* Keys through a session file: run A's nvrtcFusion1 (@t40) is run B's nvrtcFusion0 after re-fusion
 * renumbered it, and @t7 is a region in A and an unfused op in B. Stored and read back (schema version 4
 * keeps keys and contents, and the checksums still hold), the comparison matches them by key. */
static void
test_keys_in_session (void)
{
  const gint64 ta[] = { 100, 101, 102, 103, 104 };
  const gint64 tb[] = { 200, 201, 202, 203, 204 };
  g_autoptr (WbRun) a = run_with (0, "nvrtcFusion1", "nvrtc", ta, 5);
  g_autoptr (WbRun) b = run_with (0, "nvrtcFusion0", "nvrtc", tb, 5);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("wb-compare-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "keys.wbsession", NULL);
  g_autoptr (WbSession) session = NULL;
  g_autoptr (WbRun) ra = NULL;
  g_autoptr (WbRun) rb = NULL;
  g_autoptr (WbComparison) c = NULL;
  WbRegionStats *extra;
  gint64         ida, idb;

  ((WbRegionStats *) a->regions->pdata[0])->key = g_strdup ("@t40");
  ((WbRegionStats *) a->regions->pdata[0])->contents = g_strdup ("0123456789abcdef");
  ((WbRegionStats *) b->regions->pdata[0])->key = g_strdup ("@t40");
  ((WbRegionStats *) b->regions->pdata[0])->contents = g_strdup ("0123456789abcdef");
  extra = wb_region_stats_new ("nvrtcFusion0", "nvrtc");
  extra->key = g_strdup ("@t7");
  extra->contents = g_strdup ("aaaaaaaaaaaaaaaa");
  wb_run_add_region (a, extra);
  extra = wb_region_stats_new ("prims.exp", "cpu");
  extra->key = g_strdup ("@t7");
  extra->contents = g_strdup ("bbbbbbbbbbbbbbbb");
  wb_run_add_region (b, extra);

  session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);
  g_assert_no_error (error);
  ida = wb_session_store_run (session, a, 0, &error);
  g_assert_no_error (error);
  idb = wb_session_store_run (session, b, 0, &error);
  g_assert_no_error (error);
  ra = wb_session_get_run (session, ida, WB_SESSION_READ_SUMMARY, &error);
  g_assert_no_error (error);
  rb = wb_session_get_run (session, idb, WB_SESSION_READ_SUMMARY, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((WbRegionStats *) rb->regions->pdata[0])->key, ==, "@t40");
  g_assert_cmpstr (((WbRegionStats *) rb->regions->pdata[1])->contents, ==, "bbbbbbbbbbbbbbbb");

  c = wb_comparison_new (ra, rb);
  /* A's nvrtcFusion1 is B's nvrtcFusion0 (not B's nvrtcFusion0 by name), slower beyond the noise */
  g_assert_cmpstr (row (c, 0)->name, ==, "nvrtcFusion1");
  g_assert_cmpstr (row (c, 0)->name_b, ==, "nvrtcFusion0");
  g_assert_cmpint (row (c, 0)->verdict, ==, WB_COMPARE_SLOWER);
  g_assert_false (row (c, 0)->contents_changed);
  /* A's nvrtcFusion0 (@t7) is B's prims.exp: the same key, other contents */
  g_assert_cmpstr (row (c, 1)->name, ==, "nvrtcFusion0");
  g_assert_cmpstr (row (c, 1)->name_b, ==, "prims.exp");
  g_assert_true (row (c, 1)->contents_changed);
  g_assert_cmpuint (c->regions->len, ==, 2);
  g_clear_pointer (&session, wb_session_close);
  wb_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/WbComparison/statistics", test_statistics);
  g_test_add_func ("/data/WbComparison/noise-rule", test_noise_rule);
  g_test_add_func ("/data/WbComparison/few-iterations", test_few_iterations);
  g_test_add_func ("/data/WbComparison/regions-only-in-one", test_regions_only_in_one);
  g_test_add_func ("/data/WbComparison/outputs", test_outputs);
  g_test_add_func ("/data/WbComparison/keys-in-session", test_keys_in_session);
  return g_test_run ();
}
