/* test-report-ranks.c — the report of a multi-GPU run (wb-report-ranks.h): the figures per rank in
 * Markdown, JSON, HTML and the Chrome trace, the slowest rank, the alignment of the ranks' clocks, and the
 * check of the runs given
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No multi-GPU run has been recorded yet: the two ranks are built by hand, with NCCL-named kernels on a
 * stream of their own and collective regions named as Thunder's traces name them. */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-data.h"
#include "wb-test-common.h"

static void
add_kernel (WbRun      *run,
            const char *name,
            const char *region,
            guint32     stream,
            guint32     iteration,
            gint64      start_ns,
            gint64      end_ns)
{
  WbKernelRecord *k = wb_kernel_record_new (name, region);

  k->stream = stream;
  k->iteration = iteration;
  k->start_ns = start_ns;
  k->end_ns = end_ns;
  wb_run_add_kernel (run, k);
}

/* Rank @rank of 2: two iterations of 1 ms. Per iteration (times in µs from its start at it * 1000):
 * compute [0,400) on stream 7, an all-reduce [300,600) on stream 20 (attributed to the collective region)
 * -> compute 400, comm 300, overlap 100, exposed 200 µs. Rank 1 adds @extra_ns of exposed communication
 * ([600, 600 + extra)) and its step is longer by as much. */
static WbRun *
make_rank (guint32 rank,
           gint64  origin_ns,
           gint64  extra_ns)
{
  WbRun         *run = wb_run_new ();
  WbRegionStats *fusion = wb_region_stats_new ("nvFusion0", "nvfuser");
  WbRegionStats *ar = wb_region_stats_new ("torch_all_reduce_prim_impl", "nccl");
  WbRegionStats *wait = wb_region_stats_new ("torch_wait_prim_impl", "torch");

  run->rank = rank;
  run->world_size = 2;
  run->clock_origin_ns = origin_ns;
  run->group = g_strdup ("9e2d-group");
  run->device_name = g_strdup_printf ("cuda:%u", rank);
  run->device_model = g_strdup ("NVIDIA H200");
  run->stage = g_strdup ("forward_00+backward_00");
  ar->bytes_moved = 1 << 20;
  ar->median_ns = 300000;
  wait->median_ns = 1000;
  wb_run_add_region (run, fusion);
  wb_run_add_region (run, ar);
  wb_run_add_region (run, wait);
  for (guint32 it = 0; it < 2; it++)
    {
      gint64 t0 = (gint64) it * 2000000;

      wb_run_add_iteration (run, 1000000 + extra_ns);
      add_kernel (run, "nvfusion_kernel", "nvFusion0", 7, it, t0, t0 + 400000);
      add_kernel (run, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl", 20, it, t0 + 300000,
                  t0 + 600000);
      if (extra_ns > 0)
        add_kernel (run, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl", 20, it,
                    t0 + 600000, t0 + 600000 + extra_ns);
    }
  return run;
}

/* The runs, rank 1 first: the report orders them by rank. */
static GPtrArray *
make_ranks (gint64 origin0,
            gint64 origin1)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);

  g_ptr_array_add (runs, make_rank (1, origin1, 100000));
  g_ptr_array_add (runs, make_rank (0, origin0, 0));
  return runs;
}

static void
assert_contains (const char *text,
                 const char *needle)
{
  if (strstr (text, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, text);
}

static void
test_markdown (void)
{
  g_autoptr (GPtrArray) runs = make_ranks (5000000000, 5000250000);
  g_autofree char *md = wb_report_ranks_to_markdown (runs, "gpt2 DDP");

  g_test_message ("%s", md);
  assert_contains (md, "# Multi-GPU profile: gpt2 DDP");
  assert_contains (md, "slowest rank: 1 (step 1.100 ms; 0.100 ms over the fastest, rank 0)");
  /* rank 0: step 1 ms, compute 0.4, comm 0.3, overlap 0.1, exposed 0.2 = 20% of the step, 1 collective
   * with bytes (the wait is a collective too: 2 calls) */
  assert_contains (md, "| 0 | cuda:0 | ok | 1.000 | 1.000 | 0.400 | 0.300 | - | 0.100 | 0.200 | 20.0% | 2 | 1048576 (1.0 MB) |");
  /* rank 1: comm 0.4, exposed 0.3 of 1.1 ms */
  assert_contains (md, "| 1 (slowest) | cuda:1 | ok | 1.100 | 1.100 | 0.400 | 0.400 | - | 0.100 | 0.300 | 27.3% |");
  g_assert_true (strstr (md, "| 0 |") < strstr (md, "| 1 (slowest) |"));
  assert_contains (md, "aligned");
}

static void
test_json (void)
{
  g_autoptr (GPtrArray) runs = make_ranks (5000000000, 5000250000);
  g_autofree char *text = wb_report_ranks_to_json (runs, "gpt2 DDP");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root, *r0, *r1;
  JsonArray  *ranks, *collectives;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, WB_RANKS_REPORT_SCHEMA);
  g_assert_cmpint (json_object_get_int_member (root, "schema_version"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (root, "group"), ==, "9e2d-group");
  g_assert_cmpint (json_object_get_int_member (root, "world_size"), ==, 2);
  g_assert_true (json_object_get_boolean_member (root, "aligned"));
  g_assert_cmpint (json_object_get_int_member (root, "slowest_rank"), ==, 1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (root, "step_spread_ms"), 0.1, 1e-9);
  ranks = json_object_get_array_member (root, "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 2);
  r0 = json_array_get_object_element (ranks, 0);
  r1 = json_array_get_object_element (ranks, 1);
  g_assert_cmpint (json_object_get_int_member (r0, "rank"), ==, 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "step_ms"), 1.0, 1e-9);
  g_assert_true (json_node_is_null (json_object_get_member (r0, "unprofiled_median_ms")));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "compute_ms"), 0.4, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "comm_ms"), 0.3, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "overlap_ms"), 0.1, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "exposed_comm_ms"), 0.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r0, "exposed_comm_share"), 0.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (
      json_object_get_double_member (json_object_get_object_member (r0, "totals"), "exposed_comm_ms"), 0.4, 1e-9);
  g_assert_cmpint (json_object_get_int_member (r0, "collectives"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (r0, "collective_bytes"), ==, 1 << 20);
  g_assert_cmpint (json_object_get_int_member (r0, "comm_kernels"), ==, 2);
  g_assert_false (json_object_get_boolean_member (r0, "slowest"));
  g_assert_true (json_object_get_boolean_member (r1, "slowest"));
  g_assert_cmpint (json_object_get_int_member (r1, "clock_origin_ns"), ==, 5000250000);
  collectives = json_object_get_array_member (r1, "collective_regions");
  g_assert_cmpuint (json_array_get_length (collectives), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (collectives, 0), "name"), ==,
                   "torch_all_reduce_prim_impl");

  /* the unprofiled median is the step when the run has one */
  ((WbRun *) g_ptr_array_index (runs, 1))->unprofiled_median_ns = 800000;
  {
    g_autofree char *again = wb_report_ranks_to_json (runs, NULL);
    g_autoptr (JsonParser) p2 = json_parser_new ();
    JsonObject *rank0;

    g_assert_true (json_parser_load_from_data (p2, again, -1, NULL));
    rank0 = json_array_get_object_element (
        json_object_get_array_member (json_node_get_object (json_parser_get_root (p2)), "ranks"), 0);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rank0, "step_ms"), 0.8, 1e-9);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rank0, "iteration_median_ms"), 1.0, 1e-9);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rank0, "exposed_comm_share"), 0.25, 1e-9);
  }
}

static void
test_html (void)
{
  g_autoptr (GPtrArray) runs = make_ranks (5000000000, 5000250000);
  g_autofree char *html = NULL;

  g_free (((WbRun *) g_ptr_array_index (runs, 0))->device_name);
  ((WbRun *) g_ptr_array_index (runs, 0))->device_name = g_strdup ("<script>cuda:1</script>");
  html = wb_report_ranks_to_html (runs, "a <b> & c");
  assert_contains (html, "<title>thunder-wb multi-GPU profile: a &lt;b&gt; &amp; c</title>");
  assert_contains (html, "Slowest rank: <b>1</b>");
  assert_contains (html, "&lt;script&gt;cuda:1&lt;/script&gt;");
  g_assert_null (strstr (html, "<script>"));
  assert_contains (html, "<td class=\"n\">20.0%</td>");
  assert_contains (html, "exposed communication 0.300 ms");
}

/* Events of pid @pid and category @cat: their number, and the smallest ts (µs). */
static guint
count_events (JsonArray  *events,
              gint64      pid,
              const char *cat,
              const char *name,
              double     *first_ts)
{
  guint n = 0;

  *first_ts = G_MAXDOUBLE;
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (json_object_get_int_member (e, "pid") != pid || g_strcmp0 (json_object_get_string_member (e, "ph"), "X") != 0)
        continue;
      if (g_strcmp0 (json_object_get_string_member_with_default (e, "cat", ""), cat) != 0)
        continue;
      if (name != NULL && g_strcmp0 (json_object_get_string_member (e, "name"), name) != 0)
        continue;
      n++;
      *first_ts = MIN (*first_ts, json_object_get_double_member (e, "ts"));
    }
  return n;
}

static void
test_chrome_trace (void)
{
  g_autoptr (GPtrArray) runs = make_ranks (5000000000, 5000250000);
  g_autofree char *text = wb_report_ranks_to_chrome_trace (runs, "gpt2 DDP");
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray  *events;
  double      ts;
  gboolean    named[3] = { FALSE, FALSE, FALSE };

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  events = json_object_get_array_member (root, "traceEvents");
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (root, "otherData"), "aligned"));
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member (e, "name"), "process_name") == 0)
        {
          const char *name = json_object_get_string_member (json_object_get_object_member (e, "args"), "name");
          gint64      pid = json_object_get_int_member (e, "pid");

          g_assert_cmpint (pid, >=, 1);
          g_assert_cmpint (pid, <=, 2);
          g_assert_true (g_str_has_prefix (name, pid == 1 ? "rank 0" : "rank 1"));
          named[pid] = TRUE;
        }
    }
  g_assert_true (named[1] && named[2]);
  /* rank 0 (pid 1): two NCCL kernels (collective), two compute kernels; its clock is the earliest: its first
   * kernel at 0. Rank 1's clock starts 250 µs later: its first kernel at 250 µs. */
  g_assert_cmpuint (count_events (events, 1, "collective", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", &ts), ==, 2);
  g_assert_cmpfloat_with_epsilon (ts, 300.0, 1e-6);
  g_assert_cmpuint (count_events (events, 1, "kernel", NULL, &ts), ==, 2);
  g_assert_cmpfloat_with_epsilon (ts, 0.0, 1e-6);
  g_assert_cmpuint (count_events (events, 2, "kernel", NULL, &ts), ==, 2);
  g_assert_cmpfloat_with_epsilon (ts, 250.0, 1e-6);
  g_assert_cmpuint (count_events (events, 2, "collective", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", &ts), ==, 4);
  /* region spans: the collective's in category collective, the fusion's in region */
  g_assert_cmpuint (count_events (events, 2, "collective", "torch_all_reduce_prim_impl", &ts), ==, 2);
  g_assert_cmpfloat_with_epsilon (ts, 550.0, 1e-6);
  g_assert_cmpuint (count_events (events, 1, "region", "nvFusion0", &ts), ==, 2);

  /* a rank without a clock origin: each rank on its own clock */
  ((WbRun *) g_ptr_array_index (runs, 0))->clock_origin_ns = 0;
  {
    g_autofree char *again = wb_report_ranks_to_chrome_trace (runs, NULL);
    g_autoptr (JsonParser) p2 = json_parser_new ();
    JsonObject *r2;

    g_assert_true (json_parser_load_from_data (p2, again, -1, NULL));
    r2 = json_node_get_object (json_parser_get_root (p2));
    g_assert_false (json_object_get_boolean_member (json_object_get_object_member (r2, "otherData"), "aligned"));
    g_assert_cmpuint (count_events (json_object_get_array_member (r2, "traceEvents"), 2, "kernel", NULL, &ts), ==, 2);
    g_assert_cmpfloat_with_epsilon (ts, 0.0, 1e-6);
  }
}

static void
test_check_and_write (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) runs = make_ranks (1, 2);
  g_autoptr (GPtrArray) empty = g_ptr_array_new ();
  g_autofree char *dir = g_dir_make_tmp ("wb-ranks-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "ranks.json", NULL);
  g_autofree char *written = NULL;
  WbRun           *r1 = g_ptr_array_index (runs, 0);

  g_assert_true (wb_report_ranks_check (runs, &error));
  g_assert_no_error (error);
  g_assert_false (wb_report_ranks_check (empty, &error));
  g_assert_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS);
  g_clear_error (&error);

  g_assert_true (wb_report_write_ranks (runs, "t", WB_REPORT_FORMAT_JSON, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  assert_contains (written, "\"schema\" : \"thunder-wb/ranks-report\"");

  r1->rank = 0;
  g_assert_false (wb_report_write_ranks (runs, "t", WB_REPORT_FORMAT_MARKDOWN, path, &error));
  g_assert_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS);
  assert_contains (error->message, "two runs are rank 0");
  g_clear_error (&error);
  r1->rank = 1;
  g_free (r1->group);
  r1->group = g_strdup ("another");
  g_assert_false (wb_report_ranks_check (runs, &error));
  g_assert_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS);
  assert_contains (error->message, "group “another”");
  g_clear_error (&error);
  g_free (r1->group);
  r1->group = g_strdup ("9e2d-group");
  r1->rank = 5;
  g_assert_false (wb_report_ranks_check (runs, &error));
  assert_contains (error->message, "rank 5 is not below its world size 2");
  g_clear_error (&error);
  r1->rank = 1;
  g_assert_false (wb_report_write_ranks (runs, "t", WB_REPORT_FORMAT_HTML, "/nonexistent-dir/x.html", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&error);
  /* the file written before is still whole */
  g_clear_pointer (&written, g_free);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  assert_contains (written, "\"ranks\"");
  wb_test_remove_tree (dir);
}

/* Runs with no kernels and no iterations (a rank that failed at once): every writer still writes. */
static void
test_empty_runs (void)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  WbRun           *failed = wb_run_new ();
  g_autofree char *md = NULL, *json = NULL, *html = NULL, *trace = NULL;

  failed->status = WB_RUN_STATUS_FAILED;
  failed->error = g_strdup ("NCCL error: unhandled system error");
  failed->world_size = 2;
  failed->rank = 1;
  g_ptr_array_add (runs, failed);
  md = wb_report_ranks_to_markdown (runs, NULL);
  json = wb_report_ranks_to_json (runs, NULL);
  html = wb_report_ranks_to_html (runs, NULL);
  trace = wb_report_ranks_to_chrome_trace (runs, NULL);
  assert_contains (md, "rank 1 failed: NCCL error: unhandled system error");
  assert_contains (json, "\"slowest_rank\" : null");
  assert_contains (html, "failed");
  {
    g_autoptr (JsonNode) node = json_from_string (trace, NULL);

    g_assert_nonnull (node);
  }
}

/* The report of one rank's run names its collective calls' kind. */
static void
test_single_run_kind (void)
{
  g_autoptr (WbRun) run = make_rank (0, 1, 0);
  g_autoptr (WbReport) report = wb_report_new (run, NULL, "rank 0", NULL);
  g_autofree char *json = wb_report_to_json (report);
  g_autofree char *trace = wb_report_to_chrome_trace (report);

  assert_contains (json, "\"name\" : \"torch_all_reduce_prim_impl\"");
  assert_contains (json, "\"kind\" : \"collective\"");
  assert_contains (trace, "\"kind\":\"collective\"");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/report-ranks/markdown", test_markdown);
  g_test_add_func ("/data/report-ranks/json", test_json);
  g_test_add_func ("/data/report-ranks/html", test_html);
  g_test_add_func ("/data/report-ranks/chrome-trace", test_chrome_trace);
  g_test_add_func ("/data/report-ranks/check-and-write", test_check_and_write);
  g_test_add_func ("/data/report-ranks/empty-runs", test_empty_runs);
  g_test_add_func ("/data/report-ranks/single-run-kind", test_single_run_kind);
  return g_test_run ();
}
