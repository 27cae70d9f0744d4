/* test-run-comm.c — the communication figures of a multi-GPU run's rank (wb-run-comm.c) and the
 * checksum of the multi-GPU fields of WbRun
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure interval arithmetic: the runs are built by hand (no multi-GPU machine is needed), each case with
 * intervals whose union and intersection are worked out in its comment. */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"

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

static void
test_collective_names (void)
{
  const char *yes[] = { "torch_all_reduce_prim_impl",
                        "torch_reduce_scatter_prim_impl",
                        "torch_all_gather_prim_impl",
                        "torch_wait_prim_impl",
                        "ltorch.all_reduce",
                        "dist_prims.wait",
                        "all_gather",
                        "prims.broadcast",
                        "ltorch.all_reduce_" /* the table's distributed category */ };
  const char *no[] = { "nvFusion0", "TorchCompile1", "torch_matmul_prim_impl", "ltorch.reduce_sum", "waitress",
                       "", "all_reduce_sum" };
  g_autoptr (WbRegionStats) by_exec = wb_region_stats_new ("CustomThing0", "nccl");
  g_autoptr (WbRegionStats) by_name = wb_region_stats_new ("torch_all_reduce_prim_impl", "torch");
  g_autoptr (WbRegionStats) neither = wb_region_stats_new ("nvFusion0", "nvfuser");

  for (gsize i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (wb_collective_symbol_is_known (yes[i]));
  for (gsize i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (wb_collective_symbol_is_known (no[i]));
  g_assert_false (wb_collective_symbol_is_known (NULL));
  g_assert_true (wb_run_region_is_collective (by_exec));
  g_assert_true (wb_run_region_is_collective (by_name));
  g_assert_false (wb_run_region_is_collective (neither));
  g_assert_false (wb_run_region_is_collective (NULL));
}

/* A kernel is communication by its NCCL name, or by the collective region it is attributed to. */
static void
test_kernel_is_communication (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (WbKernelRecord) nccl = wb_kernel_record_new ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", NULL);
  g_autoptr (WbKernelRecord) copy = wb_kernel_record_new ("void at::native::copy_kernel", "torch_wait_prim_impl");
  g_autoptr (WbKernelRecord) gemm = wb_kernel_record_new ("sm90_xmma_gemm", "nvFusion0");
  g_autoptr (WbKernelRecord) orphan = wb_kernel_record_new ("sm90_xmma_gemm", "missing");

  wb_run_add_region (run, wb_region_stats_new ("nvFusion0", "nvfuser"));
  wb_run_add_region (run, wb_region_stats_new ("torch_wait_prim_impl", "torch"));
  g_assert_true (wb_kernel_record_is_communication (NULL, nccl));
  g_assert_true (wb_kernel_record_is_communication (run, copy));
  g_assert_false (wb_kernel_record_is_communication (NULL, copy));
  g_assert_false (wb_kernel_record_is_communication (run, gemm));
  g_assert_false (wb_kernel_record_is_communication (run, orphan));
  g_assert_false (wb_kernel_record_is_communication (run, NULL));

  /* the flags of every kernel at once agree with the one-by-one answer */
  wb_run_add_kernel (run, wb_kernel_record_copy (nccl));
  wb_run_add_kernel (run, wb_kernel_record_copy (copy));
  wb_run_add_kernel (run, wb_kernel_record_copy (gemm));
  wb_run_add_kernel (run, wb_kernel_record_copy (orphan));
  {
    g_autofree gboolean *flags = wb_run_dup_communication_flags (run);
    const gboolean       want[] = { TRUE, TRUE, FALSE, FALSE };

    for (guint i = 0; i < run->kernels->len; i++)
      {
        g_assert_cmpint (flags[i], ==, want[i]);
        g_assert_cmpint (flags[i], ==, wb_kernel_record_is_communication (run, g_ptr_array_index (run->kernels, i)));
      }
  }
}

/* One iteration. Compute on stream 7: [0,100) and [50,150) overlapping -> union [0,150) = 150, and
 * [300,400) disjoint -> compute 250. NCCL on stream 20: [120,200) and, nested inside it, [130,140) -> union
 * [120,200) = 80; [380,500) -> 120; comm = 200. Overlap: [120,150) = 30 and [380,400) = 20 -> 50.
 * Exposed: 150. */
static void
test_one_iteration (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  WbCommStats s;

  wb_run_add_iteration (run, 600);
  add_kernel (run, "gemm", NULL, 7, 0, 0, 100);
  add_kernel (run, "gemm", NULL, 7, 0, 50, 150);
  add_kernel (run, "relu", NULL, 7, 0, 300, 400);
  add_kernel (run, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", NULL, 20, 0, 120, 200);
  add_kernel (run, "ncclKernel_Broadcast", NULL, 20, 0, 130, 140);
  add_kernel (run, "ncclDevKernel_ReduceScatter", NULL, 20, 0, 380, 500);
  s = wb_run_get_comm_stats (run);
  g_assert_cmpuint (s.iterations, ==, 1);
  g_assert_cmpuint (s.comm_kernels, ==, 3);
  g_assert_cmpint (s.compute_ns, ==, 250);
  g_assert_cmpint (s.comm_ns, ==, 200);
  g_assert_cmpint (s.overlap_ns, ==, 50);
  g_assert_cmpint (s.exposed_comm_ns, ==, 150);
  g_assert_cmpint (s.comm_ns_total, ==, 200);
  g_assert_cmpint (s.exposed_comm_ns_total, ==, 150);
}

/* Three streams of compute overlapping each other count once; comm entirely hidden inside compute has no
 * exposed time; comm with no compute at all is all exposed. */
static void
test_streams_and_extremes (void)
{
  g_autoptr (WbRun) hidden = wb_run_new ();
  g_autoptr (WbRun) bare = wb_run_new ();
  g_autoptr (WbRun) none = wb_run_new ();
  WbCommStats s;

  /* compute [0,100) s1, [20,60) s2, [90,130) s3 -> union [0,130) = 130; comm [10,120) inside it */
  add_kernel (hidden, "a", NULL, 1, 0, 0, 100);
  add_kernel (hidden, "b", NULL, 2, 0, 20, 60);
  add_kernel (hidden, "c", NULL, 3, 0, 90, 130);
  add_kernel (hidden, "ncclDevKernel_AllGather", NULL, 4, 0, 10, 120);
  s = wb_run_get_comm_stats (hidden);
  g_assert_cmpint (s.compute_ns, ==, 130);
  g_assert_cmpint (s.comm_ns, ==, 110);
  g_assert_cmpint (s.overlap_ns, ==, 110);
  g_assert_cmpint (s.exposed_comm_ns, ==, 0);

  /* comm only, two streams touching end to start: [0,50) and [50,80) -> 80, all exposed */
  add_kernel (bare, "ncclDevKernel_AllGather", NULL, 4, 0, 0, 50);
  add_kernel (bare, "ncclDevKernel_AllGather", NULL, 5, 0, 50, 80);
  s = wb_run_get_comm_stats (bare);
  g_assert_cmpint (s.comm_ns, ==, 80);
  g_assert_cmpint (s.compute_ns, ==, 0);
  g_assert_cmpint (s.exposed_comm_ns, ==, 80);

  /* no kernels: zeros, and the iterations still counted */
  wb_run_add_iteration (none, 10);
  wb_run_add_iteration (none, 12);
  s = wb_run_get_comm_stats (none);
  g_assert_cmpuint (s.iterations, ==, 2);
  g_assert_cmpint (s.comm_ns, ==, 0);
  g_assert_cmpint (s.comm_ns_total, ==, 0);
}

/* Three iterations with different figures: the medians are per figure, the totals sums. Kernels of one
 * iteration never overlap another's even when their clocks would (each iteration is measured alone).
 *   it 0: compute [0,100), comm [80,130)  -> comm 50, overlap 20, exposed 30
 *   it 1: compute [0,100), comm [0,100)   -> comm 100, overlap 100, exposed 0
 *   it 2: compute [0,100), comm [200,210) -> comm 10, overlap 0, exposed 10
 * medians: comm 50, overlap 20, exposed 10 (not comm - overlap = 30); totals: 160, 120, 40. */
static void
test_iterations (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  WbCommStats s;

  for (guint it = 0; it < 3; it++)
    {
      wb_run_add_iteration (run, 300);
      add_kernel (run, "gemm", "nvFusion0", 7, it, 0, 100);
    }
  add_kernel (run, "ncclDevKernel_AllReduce", NULL, 20, 0, 80, 130);
  add_kernel (run, "ncclDevKernel_AllReduce", NULL, 20, 1, 0, 100);
  add_kernel (run, "ncclDevKernel_AllReduce", NULL, 20, 2, 200, 210);
  s = wb_run_get_comm_stats (run);
  g_assert_cmpuint (s.iterations, ==, 3);
  g_assert_cmpint (s.compute_ns, ==, 100);
  g_assert_cmpint (s.comm_ns, ==, 50);
  g_assert_cmpint (s.overlap_ns, ==, 20);
  g_assert_cmpint (s.exposed_comm_ns, ==, 10);
  g_assert_cmpint (s.compute_ns_total, ==, 300);
  g_assert_cmpint (s.comm_ns_total, ==, 160);
  g_assert_cmpint (s.overlap_ns_total, ==, 120);
  g_assert_cmpint (s.exposed_comm_ns_total, ==, 40);
}

/* Collective regions: counted with their bytes and times; a kernel attributed to one is communication
 * even without an NCCL name (a copy-out of a wait, say). */
static void
test_collective_regions (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  WbRegionStats *ar = wb_region_stats_new ("torch_all_reduce_prim_impl", "nccl");
  WbRegionStats *w = wb_region_stats_new ("torch_wait_prim_impl", "torch");
  WbRegionStats *f = wb_region_stats_new ("nvFusion0", "nvfuser");
  WbCommStats    s;

  ar->bytes_moved = 4096;
  ar->median_ns = 700;
  w->bytes_moved = 0;
  w->median_ns = 300;
  f->bytes_moved = 1 << 20;
  wb_run_add_region (run, ar);
  wb_run_add_region (run, w);
  wb_run_add_region (run, f);
  add_kernel (run, "copy_kernel", "torch_wait_prim_impl", 7, 0, 0, 40);
  add_kernel (run, "fused", "nvFusion0", 7, 0, 30, 90);
  s = wb_run_get_comm_stats (run);
  g_assert_cmpuint (s.collective_calls, ==, 2);
  g_assert_cmpuint (s.collective_bytes, ==, 4096);
  g_assert_cmpint (s.collective_ns, ==, 1000);
  g_assert_cmpuint (s.comm_kernels, ==, 1);
  g_assert_cmpint (s.comm_ns, ==, 40);
  g_assert_cmpint (s.overlap_ns, ==, 10);
  g_assert_cmpint (s.exposed_comm_ns, ==, 30);
}

/* A range clips the kernels: [50,150) of test_one_iteration's run's compute [0,150) and comm [120,200). */
static void
test_range (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  gint64 comm = -1, compute = -1, overlap = -1;

  add_kernel (run, "gemm", NULL, 7, 0, 0, 150);
  add_kernel (run, "ncclDevKernel_AllReduce", NULL, 20, 0, 120, 200);
  add_kernel (run, "gemm", NULL, 7, 1, 1000, 1100);
  wb_run_measure_comm_range (run, 50, 150, &comm, &compute, &overlap);
  g_assert_cmpint (compute, ==, 100);
  g_assert_cmpint (comm, ==, 30);
  g_assert_cmpint (overlap, ==, 30);
  wb_run_measure_comm_range (run, 150, 150, &comm, &compute, &overlap);
  g_assert_cmpint (comm + compute + overlap, ==, 0);
  wb_run_measure_comm_range (run, 0, 2000, NULL, &compute, NULL);
  g_assert_cmpint (compute, ==, 250);
}

/* The multi-GPU fields: a run without them checksums as before; each one set changes the checksum; copies
 * keep them. */
static void
test_fields_checksum (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  g_autofree char *plain = NULL;
  g_autoptr (WbRun) copy = NULL;

  run->start_time_us = 1700000000000000;
  wb_run_add_iteration (run, 1000);
  plain = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  /* pinned: the summary checksum of this run as the version before the multi-GPU fields computed it */
  g_assert_cmpstr (plain, ==, "0736459508bd5a5746e2b5571017a2f1391a0e37a9c361a0225f011eed7033fb");
  run->world_size = 1;
  {
    g_autofree char *one = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);

    g_assert_cmpstr (one, ==, plain);
  }
  run->world_size = 2;
  run->rank = 1;
  run->clock_origin_ns = 123456789;
  run->group = g_strdup ("6f1c0d3e-group");
  copy = wb_run_copy (run);
  g_assert_cmpuint (copy->rank, ==, 1);
  g_assert_cmpuint (copy->world_size, ==, 2);
  g_assert_cmpint (copy->clock_origin_ns, ==, 123456789);
  g_assert_cmpstr (copy->group, ==, "6f1c0d3e-group");
  g_assert_true (wb_run_equal (run, copy));
  {
    g_autofree char *dist = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);

    g_assert_cmpstr (dist, !=, plain);
  }
  copy->rank = 0;
  g_assert_false (wb_run_equal (run, copy));
  copy->rank = 1;
  copy->clock_origin_ns = 1;
  g_assert_false (wb_run_equal (run, copy));
  copy->clock_origin_ns = 123456789;
  g_clear_pointer (&copy->group, g_free);
  g_assert_false (wb_run_equal (run, copy));
}

/* The waits for the last rank: rank 0 launches each iteration's two all-reduces 200 and 50 us before rank 1
 * (its clock origin 1 ms later, so its times are 1 ms less), both end together: rank 0 waited 250 us a
 * step, rank 1 nothing; a third rank with an extra NCCL kernel cannot be paired. Pure interval arithmetic on
 * the aligned clocks. */
static void
test_peer_wait (void)
{
  g_autoptr (WbRun) r0 = wb_run_new ();
  g_autoptr (WbRun) r1 = wb_run_new ();
  g_autoptr (WbRun) r2 = wb_run_new ();
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  gint64 wait[3] = { -1, -1, -1 };

  r0->clock_origin_ns = 10000000;
  r1->clock_origin_ns = 11000000;
  for (guint32 it = 0; it < 3; it++)
    {
      gint64 t = (gint64) it * 5000000 + 2000000; /* on rank 0's clock */

      add_kernel (r0, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl", 20, it, t, t + 400000);
      add_kernel (r1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl", 20, it, t - 1000000 + 200000,
                  t - 1000000 + 400000);
      add_kernel (r0, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl#2", 20, it, t + 500000, t + 600000);
      add_kernel (r1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl#2", 20, it, t - 1000000 + 550000,
                  t - 1000000 + 600000);
      add_kernel (r0, "gemm", "nvFusion0", 7, it, t + 100000, t + 300000); /* not NCCL: not paired */
    }
  g_ptr_array_add (runs, r0);
  g_ptr_array_add (runs, r1);
  g_assert_true (wb_run_group_measure_peer_wait (runs, wait));
  g_assert_cmpint (wait[0], ==, 250000);
  g_assert_cmpint (wait[1], ==, 0);
  /* not pairable: another count of NCCL kernels, or a rank without a clock origin */
  r2->clock_origin_ns = 12000000;
  add_kernel (r2, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "torch_all_reduce_prim_impl", 20, 0, 0, 10);
  g_ptr_array_add (runs, r2);
  g_assert_false (wb_run_group_measure_peer_wait (runs, wait));
  g_ptr_array_set_size (runs, 2);
  r1->clock_origin_ns = 0;
  g_assert_false (wb_run_group_measure_peer_wait (runs, wait));
  g_ptr_array_set_size (runs, 1);
  g_assert_false (wb_run_group_measure_peer_wait (runs, wait));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profiler/comm/collective-names", test_collective_names);
  g_test_add_func ("/profiler/comm/kernel-is-communication", test_kernel_is_communication);
  g_test_add_func ("/profiler/comm/one-iteration", test_one_iteration);
  g_test_add_func ("/profiler/comm/streams-and-extremes", test_streams_and_extremes);
  g_test_add_func ("/profiler/comm/iterations", test_iterations);
  g_test_add_func ("/profiler/comm/collective-regions", test_collective_regions);
  g_test_add_func ("/profiler/comm/range", test_range);
  g_test_add_func ("/profiler/comm/fields-checksum", test_fields_checksum);
  g_test_add_func ("/profiler/comm/peer-wait", test_peer_wait);
  return g_test_run ();
}
