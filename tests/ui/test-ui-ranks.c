/* test-ui-ranks.c — a multi-GPU run in the window: the rank selector switches the run every view shows,
 * collectives are their own region kind (Regions table, kernel table), and the timeline draws a group of
 * tracks per rank on one clock with compute / communication / overlap per rank for a range; a collective's
 * node in the graph has the collectives' colour
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No multi-GPU run has been recorded yet (issue 47's runs wait for the multi-GPU machine): the session
 * holds one real cpu run of the bundled sample, made by `thunder-wb --headless profile`, and two
 * synthetic ranks built from it: its regions and kernels, plus a collective region
 * (torch_all_reduce_prim_impl, executor nccl) and NCCL-named kernels on a stream of their own, each rank's
 * clock 50 µs apart. */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "wb-data.h"
#include "wb-ui-common.h"

#define GROUP "ui-ranks-4f2a"
#define NCCL_KERNEL "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
#define NCCL_STREAM 20
#define ORIGIN0 G_GINT64_CONSTANT (7000000000)
#define SKEW_NS 50000

static WbWindow *window;
static char     *session;

/* rank @rank of 2 from @base: per iteration one NCCL kernel from the middle of its first kernel to past
 * its end, attributed to the collective region */
static WbRun *
make_rank (const WbRun *base, guint32 rank)
{
  WbRun         *run = wb_run_copy (base);
  WbRegionStats *ar = wb_region_stats_new ("torch_all_reduce_prim_impl", "nccl");
  guint          n = base->kernels->len;

  run->id = 0;
  run->rank = rank;
  run->world_size = 2;
  run->clock_origin_ns = ORIGIN0 + rank * SKEW_NS;
  run->group = g_strdup (GROUP);
  g_free (run->device_name);
  run->device_name = g_strdup_printf ("cuda:%u", rank);
  ar->bytes_moved = 4 << 20;
  ar->median_ns = 20000;
  wb_region_stats_add_time (ar, 20000);
  wb_run_add_region (run, ar);
  for (guint i = 0; i < n; i++)
    {
      const WbKernelRecord *k = base->kernels->pdata[i];
      WbKernelRecord       *nccl;

      if (i > 0 && ((const WbKernelRecord *) base->kernels->pdata[i - 1])->iteration == k->iteration)
        continue; /* the first kernel of each iteration */
      nccl = wb_kernel_record_new (NCCL_KERNEL, "torch_all_reduce_prim_impl");
      nccl->stream = NCCL_STREAM;
      nccl->iteration = k->iteration;
      nccl->start_ns = (k->start_ns + k->end_ns) / 2;
      nccl->end_ns = k->end_ns + 10000 * (rank + 1);
      wb_run_add_kernel (run, nccl);
    }
  return run;
}

static void
make_session (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  const char      *source = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *exe = g_build_filename (build ? build : ".", "app", "thunder-wb", NULL);
  g_autofree char *sample = g_build_filename (source ? source : ".", "data", "samples", "mlp_small", NULL);
  g_autofree char *dir = g_dir_make_tmp ("wb-ui-ranks-XXXXXX", NULL);
  const char      *argv[] = { exe, "--headless", "profile", NULL, "--session", NULL, "--iters", "3", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) s = NULL;
  g_autoptr (GPtrArray) sets = NULL;
  g_autoptr (WbRun) base = NULL;
  int status = 0;

  g_assert_nonnull (dir);
  session = g_build_filename (dir, "ranks.wbsession", NULL);
  argv[3] = sample;
  argv[5] = session;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  if (!g_spawn_check_wait_status (status, NULL))
    g_test_message ("profile: %s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  s = wb_session_open (session, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  sets = wb_session_list_trace_sets (s, &error);
  g_assert_no_error (error);
  base = wb_session_get_run (s, 1, WB_SESSION_READ_KERNELS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (base->kernels->len, >, 0);
  for (guint32 rank = 0; rank < 2; rank++)
    {
      g_autoptr (WbRun) run = make_rank (base, rank);

      g_assert_cmpint (wb_session_store_run (s, run, ((WbSessionTraceSet *) sets->pdata[sets->len - 1])->id, &error), >, 0);
      g_assert_no_error (error);
    }
}

static WbDocument *
doc (void)
{
  return wb_window_get_document (window);
}

static void
test_open (void)
{
  g_autoptr (GPtrArray) ranks = NULL;

  make_session ();
  window = wb_ui_open (session);
  g_assert_cmpuint (wb_document_get_runs (doc ())->len, ==, 3);
  g_assert_cmpstr (wb_document_get_group (doc ()), ==, GROUP);
  ranks = wb_document_get_group_runs (doc (), GROUP);
  g_assert_cmpuint (ranks->len, ==, 2);
  /* every rank of the latest run is read with its kernels, and rank 0 is shown */
  for (guint i = 0; i < ranks->len; i++)
    {
      g_assert_cmpuint (((WbRun *) ranks->pdata[i])->rank, ==, i);
      g_assert_cmpuint (((WbRun *) ranks->pdata[i])->kernels->len, >, 0);
    }
  g_assert_cmpuint (wb_document_get_rank (doc ()), ==, 0);
  g_assert_true (wb_document_get_run (doc ()) == ranks->pdata[0]);
  /* the run before the group is the real run */
  g_assert_true (wb_document_get_previous_run (doc ()) == wb_document_get_runs (doc ())->pdata[0]);
  {
    g_autofree char *label = wb_document_dup_run_label (doc (), 2);

    g_assert_nonnull (strstr (label, "rank 1 of 2"));
  }
}

/* The selector says "rank N of 2"; choosing rank 1 shows rank 1's run in the kernel table. */
static void
test_rank_selector (void)
{
  GtkDropDown     *ranks = wb_sidebar_get_rank_selector (WB_SIDEBAR (wb_window_get_sidebar (window)));
  WbKernelTable   *kernels = WB_KERNEL_TABLE (wb_window_get_kernel_table (window));
  GListModel      *items;
  const WbRun     *shown;
  guint            nccl_rows = 0;
  g_autofree char *first = NULL;

  g_assert_nonnull (ranks);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (ranks)));
  items = gtk_drop_down_get_model (ranks);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==, "rank 0 of 2");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==, "rank 1 of 2");
  g_assert_cmpuint (gtk_drop_down_get_selected (ranks), ==, 0);

  gtk_drop_down_set_selected (ranks, 1);
  wb_ui_spin (0.2);
  g_assert_cmpuint (wb_document_get_rank (doc ()), ==, 1);
  shown = wb_document_get_run (doc ());
  g_assert_cmpuint (shown->rank, ==, 1);
  g_assert_cmpstr (shown->device_name, ==, "cuda:1");
  /* the selector keeps the choice after the views rebuilt */
  g_assert_cmpuint (gtk_drop_down_get_selected (wb_sidebar_get_rank_selector (WB_SIDEBAR (wb_window_get_sidebar (window)))), ==, 1);
  g_assert_cmpuint (wb_kernel_table_get_n_rows (kernels), ==, shown->kernels->len);
  for (guint i = 0; i < wb_kernel_table_get_n_rows (kernels); i++)
    {
      const WbKernelRecord *k = wb_kernel_table_get_row (kernels, i);
      g_autofree char      *kind = wb_kernel_table_dup_cell (kernels, i, WB_KERNEL_COLUMN_KIND);

      g_assert_cmpstr (kind, ==, g_str_has_prefix (k->name, "nccl") ? "collective" : "compute");
      nccl_rows += g_str_has_prefix (k->name, "nccl");
      /* rank 1's NCCL kernels end 20 µs after their iteration's first kernel */
      if (g_str_has_prefix (k->name, "nccl"))
        g_assert_cmpuint (k->stream, ==, NCCL_STREAM);
    }
  g_assert_cmpuint (nccl_rows, >, 0);
  wb_window_show_view (window, "timeline");
  first = wb_ui_screenshot (GTK_WIDGET (window), "60-ranks-kernels-rank1");
}

/* The Regions table names the collective's kind, and the fusions'. */
static void
test_regions_kind (void)
{
  WbRegionTable   *table = WB_REGION_TABLE (wb_window_get_region_table (window));
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean collective = FALSE, fusion = FALSE;

  wb_window_show_view (window, "regions");
  wb_ui_spin (0.2);
  text = wb_region_table_dup_text (table);
  g_test_message ("regions table:\n%s", text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_suffix (lines[0], "\tKind"));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) cells = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (cells), ==, 10);
      if (strcmp (cells[0], "torch_all_reduce_prim_impl") == 0)
        {
          g_assert_cmpstr (cells[9], ==, "collective");
          g_assert_cmpstr (cells[1], ==, "nccl");
          collective = TRUE;
        }
      if (g_str_has_prefix (cells[0], "TorchCompile"))
        {
          g_assert_cmpstr (cells[9], ==, "fusion");
          fusion = TRUE;
        }
    }
  g_assert_true (collective && fusion);
  g_assert_true (wb_document_is_collective (doc (), "torch_all_reduce_prim_impl"));
  g_assert_true (wb_document_is_collective (doc (), "ltorch.all_reduce"));
  g_assert_false (wb_document_is_collective (doc (), "TorchCompile0"));
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "61-ranks-regions"));
}

/* One group of tracks per rank, on one clock; a range's figures per rank are those of the runs. */
static void
test_timeline (void)
{
  WbTimeline *timeline = WB_TIMELINE (wb_window_get_timeline (window));
  g_autoptr (GPtrArray) ranks = wb_document_get_group_runs (doc (), GROUP);
  const WbRun *r0 = ranks->pdata[0], *r1 = ranks->pdata[1];
  gint64       first_nccl[2] = { -1, -1 }, first_kernel[2] = { -1, -1 };
  gint64       compute = -1, comm = -1, overlap = -1, t_end = 0;
  guint        n_comm = 0, n_streams_one = 0;

  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.3);
  g_assert_cmpuint (wb_timeline_get_n_ranks (timeline), ==, 2);
  g_assert_cmpuint (wb_timeline_get_n_kernels (timeline), ==, r0->kernels->len + r1->kernels->len);
  /* each rank: a regions track and its streams (the cpu run's stream 0 and the NCCL stream) */
  for (guint i = 0; i < r0->kernels->len; i++)
    if (((WbKernelRecord *) r0->kernels->pdata[i])->stream != NCCL_STREAM)
      n_streams_one = 1;
  g_assert_cmpuint (wb_timeline_get_n_streams (timeline), ==, 2 * (n_streams_one + 1));
  g_assert_cmpuint (wb_timeline_get_n_tracks (timeline), ==, 2 + wb_timeline_get_n_streams (timeline));
  for (guint i = 0; i < wb_timeline_get_n_kernels (timeline); i++)
    {
      const WbKernelRecord *k = wb_timeline_get_kernel (timeline, i);
      guint32               rank = wb_timeline_get_kernel_rank (timeline, i);

      g_assert_cmpint (wb_timeline_kernel_is_communication (timeline, i), ==, g_str_has_prefix (k->name, "nccl"));
      n_comm += wb_timeline_kernel_is_communication (timeline, i);
      if (g_str_has_prefix (k->name, "nccl") && first_nccl[rank] < 0)
        first_nccl[rank] = k->start_ns;
      if (first_kernel[rank] < 0)
        first_kernel[rank] = k->start_ns;
      t_end = MAX (t_end, k->end_ns);
    }
  g_assert_cmpuint (n_comm, >, 0);
  /* the same kernels of both ranks, rank 1's clock 50 µs later: drawn 50 µs apart */
  g_assert_cmpint (first_kernel[1] - first_kernel[0], ==, SKEW_NS);
  g_assert_cmpint (first_nccl[1] - first_nccl[0], ==, SKEW_NS);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "62-ranks-timeline"));

  /* the whole timeline as the range: each rank's figures are wb_run_measure_comm_range's over its run */
  wb_timeline_select_range (timeline, 0, t_end - first_kernel[0]);
  for (guint32 rank = 0; rank < 2; rank++)
    {
      const WbRun *run = ranks->pdata[rank];
      gint64       want_comm, want_compute, want_overlap;

      g_assert_true (wb_timeline_get_rank_stats (timeline, rank, &compute, &comm, &overlap));
      wb_run_measure_comm_range (run, G_MININT64 / 2, G_MAXINT64 / 2, &want_comm, &want_compute, &want_overlap);
      g_assert_cmpint (comm, ==, want_comm);
      g_assert_cmpint (compute, ==, want_compute);
      g_assert_cmpint (overlap, ==, want_overlap);
      g_assert_cmpint (comm, >, 0);
      g_assert_cmpint (overlap, >, 0); /* each NCCL kernel starts in the middle of a compute kernel */
    }
  g_assert_nonnull (strstr (wb_timeline_get_stats_text (timeline), "By rank"));
  g_test_message ("range statistics:\n%s", wb_timeline_get_stats_text (timeline));
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "63-ranks-timeline-range"));
}

/* Adding a group in the window (not from a session), and refusing one that does not go together. */
static void
test_add_group (void)
{
  g_autoptr (GPtrArray) ranks = wb_document_get_group_runs (doc (), GROUP);
  g_autoptr (GPtrArray) copies = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
  g_autoptr (GError) error = NULL;
  guint before = wb_document_get_runs (doc ())->len;

  for (guint i = 0; i < ranks->len; i++)
    {
      WbRun *copy = wb_run_copy (ranks->pdata[i]);

      g_free (copy->group);
      copy->group = g_strdup ("second-group");
      g_ptr_array_add (copies, copy);
    }
  ((WbRun *) copies->pdata[1])->rank = 0;
  g_assert_false (wb_document_add_run_group (doc (), copies, &error));
  g_assert_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS);
  g_clear_error (&error);
  g_assert_cmpuint (wb_document_get_runs (doc ())->len, ==, before);
  ((WbRun *) copies->pdata[1])->rank = 1;
  g_assert_true (wb_document_add_run_group (doc (), copies, &error));
  g_assert_no_error (error);
  wb_ui_spin (0.2);
  g_assert_cmpuint (wb_document_get_runs (doc ())->len, ==, before + 2);
  g_assert_cmpstr (wb_document_get_group (doc ()), ==, "second-group");
  g_assert_cmpuint (wb_document_get_rank (doc ()), ==, 0);
  g_assert_cmpstr (wb_document_get_run (doc ())->group, ==, "second-group");
  /* the previous run is the first group's shown rank */
  g_assert_cmpstr (wb_document_get_previous_run (doc ())->group, ==, GROUP);
}

static gboolean
graph_ready (gpointer data)
{
  return !wb_graph_view_is_busy (data);
}

/* A trace with a collective (ltorch.all_reduce, the symbol table's distributed category): its node has the
 * collectives' colour in the graph, the matmul's does not. */
static const char collective_trace[] = "# Constructed by Delete Last Used (took 0 milliseconds)\n"
                                       "import torch\n"
                                       "from thunder.executors.torchex import no_autocast\n"
                                       "\n"
                                       "@torch.no_grad()\n"
                                       "@no_autocast\n"
                                       "def computation(x, w):\n"
                                       "  # x: \"cuda:0 f32[8, 16]\"\n"
                                       "  # w: \"cuda:0 f32[16, 16]\"\n"
                                       "  t0 = ltorch.linear(x, w, None)  # t0: \"cuda:0 f32[8, 16]\"\n"
                                       "  t1 = ltorch.all_reduce(t0)  # t1: \"cuda:0 f32[8, 16]\"\n"
                                       "  return t1\n";

static void
test_graph_collective (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-ui-collective-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "forward_00.py", NULL);
  WbWindow        *w;
  WbDocument      *d;
  WbGraphView     *graph;
  WbTrace         *trace;
  const WbBsym    *reduce = NULL, *linear = NULL;
  double           rgb[3];
  const double     collective[3] = { WB_COLLECTIVE_RGB };

  g_assert_true (g_file_set_contents (file, collective_trace, -1, NULL));
  w = wb_ui_open (dir);
  d = wb_window_get_document (w);
  wb_document_set_entry (d, 0);
  trace = wb_trace_set_get_entry (wb_document_get_trace_set (d), 0)->trace;
  for (guint i = 0; i < trace->n_body; i++)
    {
      if (g_strcmp0 (trace->body[i]->name, "ltorch.all_reduce") == 0)
        reduce = trace->body[i];
      if (g_strcmp0 (trace->body[i]->name, "ltorch.linear") == 0)
        linear = trace->body[i];
    }
  g_assert_nonnull (reduce);
  g_assert_nonnull (linear);
  graph = WB_GRAPH_VIEW (wb_window_get_graph_view (w));
  wb_window_show_view (w, "graph");
  g_assert_true (wb_ui_wait (graph_ready, graph, 60));
  wb_ui_spin (0.2);
  g_assert_true (wb_graph_view_get_node_rgb (graph, reduce, rgb));
  /* no run: half-way from white to the collectives' colour; its hue is theirs (blue above green) */
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (fabs (rgb[c] - (1.0 + (collective[c] - 1.0) * 0.5)), <, 1e-9);
  g_assert_true (wb_graph_view_get_node_rgb (graph, linear, rgb));
  g_assert_false (fabs (rgb[0] - (1.0 + (collective[0] - 1.0) * 0.5)) < 1e-9 && fabs (rgb[2] - (1.0 + (collective[2] - 1.0) * 0.5)) < 1e-9);
  g_free (wb_ui_screenshot (GTK_WIDGET (w), "64-ranks-graph-collective"));
  gtk_window_destroy (GTK_WINDOW (w));
  g_unlink (file);
  g_rmdir (dir);
}

typedef struct
{
  gboolean done;
  GError  *error;
} ProfileWait;

static void
on_profiled (GObject *source, GAsyncResult *result, gpointer data)
{
  ProfileWait *w = data;

  wb_document_profile_finish (WB_DOCUMENT (source), result, &w->error);
  w->done = TRUE;
}

static gboolean
profiled (gpointer data)
{
  return ((ProfileWait *) data)->done;
}

/* A case recorded per rank (tests/dist's real 2-rank DDP traces) opens as its rank 0; profiling it on the cpu
 * says that its two ranks run together on two GPUs instead of running one rank alone. */
static void
test_case_ranks (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "dist", "cases", "ddp_ws2", NULL);
  ProfileWait      w = { 0 };
  WbWindow        *win;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  win = wb_ui_open (path);
  g_assert_cmpuint (wb_document_get_case_ranks (wb_window_get_document (win)), ==, 2);
  g_assert_cmpuint (wb_trace_set_get_n_entries (wb_document_get_trace_set (wb_window_get_document (win))), >, 0);
  g_assert_cmpint (wb_trace_set_get_world_size (wb_document_get_trace_set (wb_window_get_document (win))), ==, 2);
  wb_document_profile_async (wb_window_get_document (win), NULL, WB_PROFILE_DEVICE_CPU, 2, 1, NULL, NULL, NULL, on_profiled, &w);
  g_assert_true (wb_ui_wait (profiled, &w, 60));
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (w.error->message, "2 ranks"));
  g_assert_nonnull (strstr (w.error->message, "2 GPUs"));
  g_clear_error (&w.error);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* The same case profiled from the window on the GPU (the stand-in runner: one per rank, a made-up NCCL id, as
 * `profile CASE` runs it): both ranks' runs come back as one group, rank 0 on cuda:0 and rank 1 on cuda:1, the
 * window shows rank 0 with the rank selector, and the device's reason says how the ranks ran. */
static void
test_case_ranks_gpu (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  const char      *runner = g_getenv ("WB_FAKE_RUNNER");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "dist", "cases", "ddp_ws2", NULL);
  ProfileWait      w = { 0 };
  WbWindow        *win;
  WbDocument      *doc;
  g_autoptr (GPtrArray) group = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || runner == NULL)
    {
      g_test_skip (runner == NULL ? "no fake runner" : "tests/dist/cases are not unpacked");
      return;
    }
  g_setenv ("WB_RUNNER", runner, TRUE);
  g_setenv ("FAKE_RUNNER_DEVICE", "NVIDIA Fake 80GB, sm_90", TRUE);
  g_setenv ("FAKE_RUNNER_ITER_MS", "1", TRUE);
  win = wb_ui_open (path);
  doc = wb_window_get_document (win);
  wb_document_profile_async (doc, NULL, WB_PROFILE_DEVICE_AUTO, 3, 1, NULL, NULL, NULL, on_profiled, &w);
  g_assert_true (wb_ui_wait (profiled, &w, 120));
  g_assert_no_error (w.error);
  g_assert_cmpuint (wb_document_get_runs (doc)->len, ==, 2);
  g_assert_nonnull (wb_document_get_group (doc));
  group = wb_document_get_group_runs (doc, wb_document_get_group (doc));
  g_assert_cmpuint (group->len, ==, 2);
  for (guint r = 0; r < 2; r++)
    {
      const WbRun     *run = group->pdata[r];
      g_autofree char *device = g_strdup_printf ("cuda:%u", r);

      g_assert_cmpuint (run->rank, ==, r);
      g_assert_cmpuint (run->world_size, ==, 2);
      g_assert_cmpstr (run->device_name, ==, device);
      g_assert_cmpuint (run->iteration_ns->len, ==, 3);
    }
  g_assert_cmpuint (wb_document_get_rank (doc), ==, 0);
  g_assert_true (wb_document_get_run (doc) == group->pdata[0]);
  g_assert_nonnull (strstr (wb_document_get_device_reason (doc), "2 ranks"));
  g_unsetenv ("WB_RUNNER");
  g_unsetenv ("FAKE_RUNNER_DEVICE");
  gtk_window_destroy (GTK_WINDOW (win));
}

/* A real 2-GPU run (tests/dist/cases/gpu-session: the zoo's DDP Llama on two H200s through NCCL, stored by
 * profile --session): the window opens its group with the rank selector on rank 0, and the timeline draws
 * both ranks, their NCCL kernels (CUPTI's mangled names) as communication. */
static void
test_real_session (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *src = g_build_filename (build ? build : ".", "tests", "dist", "cases", "gpu-session", "ddp_llama_w2.wbsession", NULL);
  g_autofree char *dir = g_dir_make_tmp ("wb-ui-gpu-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "ddp_llama_w2.wbsession", NULL);
  g_autofree char *text = NULL;
  gsize            len = 0;
  WbWindow        *win;
  WbTimeline      *timeline;
  g_autoptr (GPtrArray) ranks = NULL;
  guint n_comm = 0;

  if (!g_file_get_contents (src, &text, &len, NULL))
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  /* a copy: the window may store into the session it opened */
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
  win = wb_ui_open (path);
  ranks = wb_document_get_group_runs (wb_window_get_document (win), wb_document_get_group (wb_window_get_document (win)));
  g_assert_cmpuint (ranks->len, ==, 2);
  g_assert_cmpuint (wb_document_get_rank (wb_window_get_document (win)), ==, 0);
  timeline = WB_TIMELINE (wb_window_get_timeline (win));
  wb_window_show_view (win, "timeline");
  wb_ui_spin (0.3);
  g_assert_cmpuint (wb_timeline_get_n_ranks (timeline), ==, 2);
  for (guint i = 0; i < wb_timeline_get_n_kernels (timeline); i++)
    {
      gboolean comm = wb_timeline_kernel_is_communication (timeline, i);

      n_comm += comm;
      if (wb_kernel_name_is_nccl (wb_timeline_get_kernel (timeline, i)->name))
        g_assert_true (comm);
    }
  g_assert_cmpuint (n_comm, >=, 2 * 400);
  g_free (wb_ui_screenshot (GTK_WIDGET (win), "65-ranks-real-h200-timeline"));
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  int result;

  if (!wb_ui_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 77;
    }
  g_test_add_func ("/ui/ranks/open", test_open);
  g_test_add_func ("/ui/ranks/rank-selector", test_rank_selector);
  g_test_add_func ("/ui/ranks/regions-kind", test_regions_kind);
  g_test_add_func ("/ui/ranks/timeline", test_timeline);
  g_test_add_func ("/ui/ranks/add-group", test_add_group);
  g_test_add_func ("/ui/ranks/graph-collective", test_graph_collective);
  g_test_add_func ("/ui/ranks/case-ranks", test_case_ranks);
  g_test_add_func ("/ui/ranks/case-ranks-gpu", test_case_ranks_gpu);
  g_test_add_func ("/ui/ranks/real-session", test_real_session);
  result = g_test_run ();
  if (session != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (session);
      g_autofree char *wal = g_strconcat (session, "-wal", NULL);
      g_autofree char *shm = g_strconcat (session, "-shm", NULL);

      g_unlink (session);
      g_unlink (wal);
      g_unlink (shm);
      g_rmdir (dir);
    }
  return result;
}
