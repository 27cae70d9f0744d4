/* test-cupti.c — attribution of GPU activity records to profile entries (wb_cupti_attribute), the runner
 * protocol's kernel records, host calls and attribution figures (wb_runner_profile_get_kernels,
 * _get_host_calls, _get_attribution), and how the reports show them. No GPU: the records are built by hand the way CUPTI delivers them.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-data.h"
#include "wb-profiler.h"

static WbCuptiActivity
kernel (const char *name, guint32 corr, gint64 start, gint64 end)
{
  WbCuptiActivity a = { 0 };

  a.kind = WB_CUPTI_KERNEL;
  a.name = g_intern_string (name);
  a.correlation_id = corr;
  a.start_ns = start;
  a.end_ns = end;
  a.entry = -1;
  a.grid[0] = a.grid[1] = a.grid[2] = 1;
  a.block[0] = a.block[1] = a.block[2] = 1;
  return a;
}

static void
test_ext_id (void)
{
  guint it = 99, entry = 99;

  for (guint i = 0; i < 3; i++)
    for (guint e = 0; e < 70000; e += 9999)
      {
        guint64 id = wb_cupti_ext_id (i, e);
        g_assert_cmpuint (id, !=, 0);
        g_assert_true (wb_cupti_ext_id_decode (id, &it, &entry));
        g_assert_cmpuint (it, ==, i);
        g_assert_cmpuint (entry, ==, e);
      }
  /* ids another tool could have pushed: no iteration part */
  g_assert_false (wb_cupti_ext_id_decode (0, &it, &entry));
  g_assert_false (wb_cupti_ext_id_decode (42, &it, &entry));
  g_assert_true (wb_cupti_ext_id_decode (G_GUINT64_CONSTANT (1) << 32, &it, &entry));
  g_assert_cmpuint (it, ==, 0);
  g_assert_cmpuint (entry, ==, 0);
}

/* Two entries in iteration 1: entry 0 (our nvrtc kernel, corr 10) over [1000, 5000], entry 1 (a cuBLASLt
 * call: its internal launch has corr 11 and a second kernel of it corr 12) over [6000, 20000]. Plus a kernel
 * whose API record had no external id, inside entry 1; one straddling both (more inside entry 1); one
 * outside every entry; a zero-length one on entry 0's boundary; a kernel with another tool's ext id. */
static void
test_attribute (void)
{
  g_autoptr (GHashTable) corr = wb_cupti_correlations_new ();
  WbCuptiRange    ranges[] = { { 0, 1, 1000, 5000 }, { 1, 1, 6000, 20000 } };
  WbCuptiActivity acts[] = {
    kernel ("wb_k0", 10, 1500, 4500),                            /* 0: correlation -> entry 0 */
    kernel ("sm90_xmma_gemm_bf16bf16_bf16f32", 11, 7000, 15000), /* 1: correlation -> entry 1 */
    kernel ("sm90_xmma_gemm_splitk_reduce", 12, 15500, 16500),   /* 2: correlation -> entry 1 */
    kernel ("unjoined_inside", 13, 17000, 18000),                /* 3: time range -> entry 1 */
    kernel ("straddling", 0, 4000, 9000),                        /* 4: 1000 ns in 0, 3000 in 1 -> 1 */
    kernel ("outside", 0, 30000, 31000),                         /* 5: unattributed */
    kernel ("instant", 0, 5000, 5000),                           /* 6: zero length at 0's end -> 0 */
    kernel ("foreign_ext", 14, 19000, 19500),                    /* 7: ext id 42 is not ours -> time range */
  };
  WbCuptiActivity memset_rec = { 0 }, memcpy_rec = { 0 };
  WbCuptiSummary  sum = { 0 };
  GArray         *all = g_array_new (FALSE, FALSE, sizeof (WbCuptiActivity));

  wb_cupti_correlations_insert (corr, 10, wb_cupti_ext_id (1, 0));
  wb_cupti_correlations_insert (corr, 11, wb_cupti_ext_id (1, 1));
  wb_cupti_correlations_insert (corr, 12, wb_cupti_ext_id (1, 1));
  wb_cupti_correlations_insert (corr, 14, 42);
  memset_rec.kind = WB_CUPTI_MEMSET;
  memset_rec.correlation_id = 11;
  memset_rec.start_ns = 6500, memset_rec.end_ns = 6600;
  memset_rec.bytes = 4096;
  memcpy_rec.kind = WB_CUPTI_MEMCPY;
  memcpy_rec.start_ns = 40000, memcpy_rec.end_ns = 41000;
  memcpy_rec.bytes = 1 << 20;
  g_array_append_vals (all, acts, G_N_ELEMENTS (acts));
  g_array_append_val (all, memset_rec);
  g_array_append_val (all, memcpy_rec);
  for (guint i = 0; i < all->len; i++)
    g_array_index (all, WbCuptiActivity, i).iteration = 1;

  wb_cupti_attribute ((WbCuptiActivity *) all->data, all->len, corr, ranges, G_N_ELEMENTS (ranges), &sum);

  {
    const WbCuptiActivity *r = (const WbCuptiActivity *) all->data;
    const gint32           want_entry[] = { 0, 1, 1, 1, 1, -1, 0, 1, 1, -1 };
    const int              want_by[] = { WB_CUPTI_BY_CORRELATION, WB_CUPTI_BY_CORRELATION, WB_CUPTI_BY_CORRELATION,
                                         WB_CUPTI_BY_TIME_RANGE, WB_CUPTI_BY_TIME_RANGE, WB_CUPTI_BY_NONE,
                                         WB_CUPTI_BY_TIME_RANGE, WB_CUPTI_BY_TIME_RANGE, WB_CUPTI_BY_CORRELATION,
                                         WB_CUPTI_BY_NONE };
    for (guint i = 0; i < all->len; i++)
      {
        g_test_message ("record %u (%s): entry %d by %d", i, r[i].name ? r[i].name : "memop", r[i].entry, r[i].by);
        g_assert_cmpint (r[i].entry, ==, want_entry[i]);
        g_assert_cmpint (r[i].by, ==, want_by[i]);
        g_assert_cmpuint (r[i].iteration, ==, 1);
      }
  }
  g_assert_cmpuint (sum.kernels, ==, 8);
  g_assert_cmpuint (sum.kernels_by_correlation, ==, 3);
  g_assert_cmpuint (sum.kernels_by_time_range, ==, 4);
  g_assert_cmpuint (sum.kernels_unattributed, ==, 1);
  g_assert_cmpint (sum.kernel_ns_total, ==, 3000 + 8000 + 1000 + 1000 + 5000 + 1000 + 0 + 500);
  g_assert_cmpint (sum.kernel_ns_by_correlation, ==, 3000 + 8000 + 1000);
  g_assert_cmpint (sum.kernel_ns_by_time_range, ==, 1000 + 5000 + 0 + 500);
  g_assert_cmpuint (sum.memset_count, ==, 1);
  g_assert_cmpuint (sum.memset_bytes, ==, 4096);
  g_assert_cmpint (sum.memset_ns, ==, 100);
  g_assert_cmpuint (sum.memcpy_count, ==, 1);
  g_assert_cmpuint (sum.memcpy_bytes, ==, 1 << 20);
  g_assert_cmpint (sum.memcpy_ns, ==, 1000);
  g_assert_cmpuint (sum.memops_attributed, ==, 1);
  g_array_unref (all);
}

/* A CUDA graph's replay: its kernels join no launch, and the ranges (event times placed on CUPTI's clock by
 * the host's guess of the replay's start) lie 5 us late. Entry 1's kernel (4.8 us) then overlaps entry 0's
 * range more than its own, as seen on an H200; aligned, every kernel lies in its own range. Entry 3 is a
 * region of views that launches nothing. */
static void
test_align_ranges (void)
{
  const gint64    late = 5000;
  WbCuptiRange    ranges[] = { { 0, 0, 0, 30000 }, { 1, 0, 31000, 38000 }, { 2, 0, 39000, 80000 }, { 3, 0, 81000, 83000 }, { 4, 0, 84000, 100000 } };
  WbCuptiActivity acts[] = { kernel ("a", 0, 1200, 29000), kernel ("b", 0, 32200, 37000), kernel ("c", 0, 40200, 79000), kernel ("d", 0, 85200, 99000) };
  const gint32    want[] = { 0, 1, 2, 4 };
  WbCuptiRange    measured[G_N_ELEMENTS (ranges)];
  gint64          shift;

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      measured[r] = ranges[r];
      measured[r].start_ns += late;
      measured[r].end_ns += late;
    }
  /* unaligned: kernel b lands in entry 0 (the fault this guards against) */
  {
    WbCuptiActivity copy[G_N_ELEMENTS (acts)];
    memcpy (copy, acts, sizeof acts);
    wb_cupti_attribute (copy, G_N_ELEMENTS (copy), NULL, measured, G_N_ELEMENTS (measured), NULL);
    g_assert_cmpint (copy[1].entry, ==, 0);
  }
  shift = wb_cupti_align_ranges (acts, G_N_ELEMENTS (acts), NULL, measured, G_N_ELEMENTS (measured), 200000);
  /* every shift in [-6000, -3800] puts all four inside; the midpoint is taken */
  g_assert_cmpint (shift, ==, -4900);
  g_assert_cmpint (measured[0].start_ns, ==, 100);
  wb_cupti_attribute (acts, G_N_ELEMENTS (acts), NULL, measured, G_N_ELEMENTS (measured), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (acts); i++)
    {
      g_assert_cmpint (acts[i].entry, ==, want[i]);
      g_assert_cmpint (acts[i].by, ==, WB_CUPTI_BY_TIME_RANGE);
    }

  /* already in place: no shift. Joined by correlation, or beyond the largest shift: nothing moves */
  {
    WbCuptiActivity k[] = { kernel ("a", 0, 1200, 29000), kernel ("b", 0, 32200, 37000) };
    g_autoptr (GHashTable) corr = wb_cupti_correlations_new ();
    WbCuptiRange r2[G_N_ELEMENTS (ranges)];

    memcpy (r2, ranges, sizeof ranges);
    g_assert_cmpint (wb_cupti_align_ranges (k, 2, NULL, r2, G_N_ELEMENTS (r2), 200000), ==, 0);
    memcpy (r2, measured, sizeof measured);
    for (guint r = 0; r < G_N_ELEMENTS (r2); r++)
      r2[r].start_ns += 500000, r2[r].end_ns += 500000;
    g_assert_cmpint (wb_cupti_align_ranges (k, 2, NULL, r2, G_N_ELEMENTS (r2), 200000), ==, 0);
    g_assert_cmpint (r2[0].start_ns, ==, measured[0].start_ns + 500000);
    k[0].correlation_id = 7, k[1].correlation_id = 8;
    wb_cupti_correlations_insert (corr, 7, wb_cupti_ext_id (0, 0));
    wb_cupti_correlations_insert (corr, 8, wb_cupti_ext_id (0, 1));
    memcpy (r2, ranges, sizeof ranges);
    for (guint r = 0; r < G_N_ELEMENTS (r2); r++)
      r2[r].start_ns += late, r2[r].end_ns += late;
    g_assert_cmpint (wb_cupti_align_ranges (k, 2, corr, r2, G_N_ELEMENTS (r2), 200000), ==, 0);
  }
}

/* A correlation names the iteration it ran in, even when the caller guessed another; records without
 * a time (start 0) are never attributed by time; events mode (BY_LAUNCH) keeps its entry. */
static void
test_attribute_edges (void)
{
  g_autoptr (GHashTable) corr = wb_cupti_correlations_new ();
  WbCuptiRange    range = { 3, 0, 0, 100000 };
  WbCuptiActivity a[3] = { kernel ("k", 5, 10, 20), kernel ("untimed", 0, 0, 0), kernel ("launched", 0, 500, 700) };
  WbCuptiSummary  sum = { 0 };

  wb_cupti_correlations_insert (corr, 5, wb_cupti_ext_id (7, 2));
  a[2].entry = 4;
  a[2].by = WB_CUPTI_BY_LAUNCH;
  wb_cupti_attribute (a, 3, corr, &range, 1, &sum);
  g_assert_cmpint (a[0].entry, ==, 2);
  g_assert_cmpuint (a[0].iteration, ==, 7);
  g_assert_cmpint (a[1].entry, ==, -1);
  g_assert_cmpint (a[1].by, ==, WB_CUPTI_BY_NONE);
  g_assert_cmpint (a[2].entry, ==, 4);
  g_assert_cmpint (a[2].by, ==, WB_CUPTI_BY_LAUNCH);
  g_assert_cmpuint (sum.kernels_by_correlation, ==, 2);
  g_assert_cmpuint (sum.kernels_unattributed, ==, 1);
  g_assert_cmpint (sum.kernel_ns_by_correlation, ==, 10 + 200);
}

static GVariant *
profile_variant (gboolean with_v2)
{
  GVariantBuilder b, k;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  if (with_v2)
    {
      g_variant_builder_init (&k, G_VARIANT_TYPE ("a(siuuuuuuxxuuuuty)"));
      /* out of start order, as CUPTI's buffers may be */
      g_variant_builder_add (&k, "(siuuuuuuxxuuuuty)", "sm90_gemm", 1, 64, 2, 1, 128, 1, 1, (gint64) 900, (gint64) 1900, 0, 168, 49152, 7,
                             (guint64) 31, (guchar) WB_CUPTI_BY_CORRELATION);
      g_variant_builder_add (&k, "(siuuuuuuxxuuuuty)", "wb_k0", 0, 16, 1, 1, 256, 1, 1, (gint64) 100, (gint64) 400, 0, 18, 0, 7,
                             (guint64) 30, (guchar) WB_CUPTI_BY_CORRELATION);
      g_variant_builder_add (&k, "(siuuuuuuxxuuuuty)", "lost", -1, 1, 1, 1, 32, 1, 1, (gint64) 50, (gint64) 60, 1, 8, 0, 7,
                             (guint64) 0, (guchar) WB_CUPTI_BY_NONE);
      g_variant_builder_add (&k, "(siuuuuuuxxuuuuty)", "late", 0, 1, 1, 1, 32, 1, 1, (gint64) 50, (gint64) 60, 5, 8, 0, 7,
                             (guint64) 0, (guchar) WB_CUPTI_BY_NONE);
      g_variant_builder_add (&b, "{sv}", "kernels2", g_variant_builder_end (&k));
      g_variant_builder_add (&b, "{sv}", "kernel_source", g_variant_new_string ("cupti"));
      g_variant_builder_add (&b, "{sv}", "kernel_source_reason", g_variant_new_string (""));
      g_variant_builder_add (&b, "{sv}", "kernel_ns_total", g_variant_new_int64 (1310));
      g_variant_builder_add (&b, "{sv}", "kernel_ns_attributed", g_variant_new_int64 (1300));
      g_variant_builder_add (&b, "{sv}", "kernel_ns_by_time_range", g_variant_new_int64 (0));
      g_variant_builder_add (&b, "{sv}", "kernels_by_correlation", g_variant_new_uint32 (2));
      g_variant_builder_add (&b, "{sv}", "kernels_by_time_range", g_variant_new_uint32 (0));
      g_variant_builder_add (&b, "{sv}", "kernels_unattributed", g_variant_new_uint32 (1));
      g_variant_builder_add (&b, "{sv}", "memcpy", g_variant_new ("(utx)", 0, (guint64) 0, (gint64) 0));
      g_variant_builder_add (&b, "{sv}", "memset", g_variant_new ("(utx)", 2, (guint64) 8192, (gint64) 3000));
      g_variant_builder_add (&b, "{sv}", "memops_attributed", g_variant_new_uint32 (2));
      /* the host's calls: the launches of wb_k0 (corr 30) and of cuBLASLt's sm90_gemm (corr 31, through the
       * runtime), a sync with no kernel, one of an iteration past the run's; out of start order */
      g_variant_builder_init (&k, G_VARIANT_TYPE ("a(sxxuut)"));
      g_variant_builder_add (&k, "(sxxuut)", "cudaLaunchKernel", (gint64) 700, (gint64) 850, 0, 77, (guint64) 31);
      g_variant_builder_add (&k, "(sxxuut)", "cuLaunchKernel", (gint64) 20, (gint64) 90, 0, 77, (guint64) 30);
      g_variant_builder_add (&k, "(sxxuut)", "cuStreamSynchronize", (gint64) 10, (gint64) 70, 1, 77, (guint64) 33);
      g_variant_builder_add (&k, "(sxxuut)", "cuLaunchKernel", (gint64) 20, (gint64) 40, 5, 77, (guint64) 34);
      g_variant_builder_add (&b, "{sv}", "host_calls", g_variant_builder_end (&k));
      g_variant_builder_add (&b, "{sv}", "host_calls_over_cap", g_variant_new_uint64 (12));
    }
  else
    {
      g_variant_builder_init (&k, G_VARIANT_TYPE ("a(siuuuuuuxxu)"));
      g_variant_builder_add (&k, "(siuuuuuuxxu)", "cublasLt matmul", 1, 0, 0, 0, 0, 0, 0, (gint64) 10, (gint64) 5, 1);
      g_variant_builder_add (&b, "{sv}", "kernels", g_variant_builder_end (&k));
    }
  g_variant_builder_add (&b, "{sv}", "dropped_records", g_variant_new_uint64 (0));
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

static void
test_protocol_decode (void)
{
  const char *entries[] = { "nvrtcFusion0", "prims.linear" };
  gint64      starts[] = { 1000000, 2000000 };
  g_autoptr (GVariant) v2 = profile_variant (TRUE);
  g_autoptr (GVariant) v1 = profile_variant (FALSE);
  g_autoptr (GPtrArray) k2 = wb_runner_profile_get_kernels (v2, entries, 2, starts, 2);
  g_autoptr (GPtrArray) k1 = wb_runner_profile_get_kernels (v1, entries, 2, starts, 2);
  WbKernelAttribution   a = { 0 };
  const WbKernelRecord *r;

  /* the record of iteration 5 is dropped; the rest sorted by start on the run's clock */
  g_assert_cmpuint (k2->len, ==, 3);
  r = k2->pdata[0];
  g_assert_cmpstr (r->name, ==, "wb_k0");
  g_assert_cmpstr (r->region, ==, "nvrtcFusion0");
  g_assert_cmpint (r->start_ns, ==, 1000100);
  g_assert_cmpint (r->end_ns, ==, 1000400);
  g_assert_cmpuint (r->registers, ==, 18);
  g_assert_cmpuint (r->grid[0], ==, 16);
  g_assert_cmpuint (r->block[0], ==, 256);
  g_assert_cmpuint (r->correlation_id, ==, 30);
  r = k2->pdata[1];
  g_assert_cmpstr (r->name, ==, "sm90_gemm");
  g_assert_cmpstr (r->region, ==, "prims.linear");
  g_assert_cmpuint (r->shared_bytes, ==, 49152);
  g_assert_cmpuint (r->stream, ==, 7);
  g_assert_cmpuint (r->grid[1], ==, 2);
  r = k2->pdata[2];
  g_assert_cmpstr (r->name, ==, "lost");
  g_assert_null (r->region);
  g_assert_cmpuint (r->iteration, ==, 1);
  g_assert_cmpint (r->start_ns, ==, 2000050);

  /* the host calls: on the run's clock, sorted, iteration 5 dropped, the cap's count */
  {
    guint64 over = 99;
    g_autoptr (GPtrArray) h1 = wb_runner_profile_get_host_calls (v1, starts, 2, &over);
    g_autoptr (GPtrArray) h2 = NULL;
    const WbHostCall *c;

    g_assert_cmpuint (h1->len, ==, 0); /* an older runner sends none */
    g_assert_cmpuint (over, ==, 0);
    h2 = wb_runner_profile_get_host_calls (v2, starts, 2, &over);
    g_assert_cmpuint (over, ==, 12);
    g_assert_cmpuint (h2->len, ==, 3);
    c = h2->pdata[0];
    g_assert_cmpstr (c->name, ==, "cuLaunchKernel");
    g_assert_cmpint (c->start_ns, ==, 1000020);
    g_assert_cmpint (c->end_ns, ==, 1000090);
    g_assert_cmpuint (c->correlation_id, ==, 30);
    g_assert_cmpuint (c->thread, ==, 77);
    g_assert_cmpint (c->kernel, ==, -1); /* not joined yet */
    c = h2->pdata[1];
    g_assert_cmpstr (c->name, ==, "cudaLaunchKernel");
    g_assert_cmpint (c->start_ns, ==, 1000700);
    c = h2->pdata[2];
    g_assert_cmpstr (c->name, ==, "cuStreamSynchronize");
    g_assert_cmpint (c->start_ns, ==, 2000010);
    g_assert_cmpuint (c->iteration, ==, 1);
  }

  /* an older runner's records */
  g_assert_cmpuint (k1->len, ==, 1);
  r = k1->pdata[0];
  g_assert_cmpstr (r->region, ==, "prims.linear");
  g_assert_cmpint (r->end_ns, ==, r->start_ns);
  g_assert_cmpuint (r->registers, ==, 0);

  wb_runner_profile_get_attribution (v2, &a);
  g_assert_cmpstr (a.kernel_source, ==, "cupti");
  g_assert_cmpint (a.kernel_ns_total, ==, 1310);
  g_assert_cmpint (a.kernel_ns_attributed, ==, 1300);
  g_assert_cmpuint (a.kernels_unattributed, ==, 1);
  g_assert_cmpuint (a.memset_count, ==, 2);
  g_assert_cmpuint (a.memset_bytes, ==, 8192);
  wb_runner_profile_get_attribution (v1, &a);
  g_assert_null (a.kernel_source);
  g_free (a.kernel_source);

  {
    GVariantBuilder b;
    g_autoptr (GVariant) ev = NULL;
    WbKernelAttribution e = { 0 };
    g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
    g_variant_builder_add (&b, "{sv}", "kernel_source", g_variant_new_string ("events"));
    g_variant_builder_add (&b, "{sv}", "kernel_source_reason", g_variant_new_string ("disabled by WB_PROFILE_CUPTI=0"));
    ev = g_variant_ref_sink (g_variant_builder_end (&b));
    wb_runner_profile_get_attribution (ev, &e);
    g_assert_cmpstr (e.kernel_source, ==, "CUDA events (CUPTI unavailable: disabled by WB_PROFILE_CUPTI=0)");
    g_free (e.kernel_source);
  }
}

/* The reports of a GPU run show the attribution and the kernels' launch figures. */
static void
test_reports (void)
{
  const char *entries[] = { "nvrtcFusion0", "prims.linear" };
  gint64      starts[] = { 0, 5000 };
  g_autoptr (GVariant) v2 = profile_variant (TRUE);
  g_autoptr (GPtrArray) ks = wb_runner_profile_get_kernels (v2, entries, 2, starts, 2);
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (WbReport) report = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *md = NULL;
  g_autofree char *json = NULL;
  g_autofree char *html = NULL;
  g_autofree char *chrome = NULL;
  JsonObject      *o, *attr, *k0;

  run->device_name = g_strdup ("cuda:0");
  run->device_model = g_strdup ("NVIDIA H100 80GB HBM3");
  run->iters = 2;
  wb_run_add_iteration (run, 4000);
  wb_run_add_iteration (run, 4000);
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      WbRegionStats *s = wb_region_stats_new (entries[i], "nvrtc");
      wb_region_stats_add_time (s, 1000);
      wb_region_stats_add_time (s, 1000);
      wb_region_stats_update (s);
      wb_run_add_region (run, s);
    }
  for (guint i = 0; i < ks->len; i++)
    wb_run_add_kernel (run, wb_kernel_record_copy (ks->pdata[i]));
  {
    g_autoptr (GPtrArray) hs = wb_runner_profile_get_host_calls (v2, starts, 2, NULL);
    for (guint i = 0; i < hs->len; i++)
      wb_run_add_host_call (run, wb_host_call_copy (hs->pdata[i]));
  }
  wb_run_link_host_calls (run);
  /* kernels by start: wb_k0 (100), sm90_gemm (900), lost; the launches joined to the first two */
  g_assert_cmpint (((WbHostCall *) run->host_calls->pdata[0])->kernel, ==, 0);
  g_assert_cmpint (((WbHostCall *) run->host_calls->pdata[1])->kernel, ==, 1);
  g_assert_cmpuint (((WbHostCall *) run->host_calls->pdata[1])->n_kernels, ==, 1);
  g_assert_cmpint (((WbHostCall *) run->host_calls->pdata[2])->kernel, ==, -1);
  wb_runner_profile_get_attribution (v2, &run->attribution);
  report = wb_report_new (run, NULL, "synthetic", NULL);

  md = wb_report_to_markdown (report);
  g_test_message ("%s", md);
  g_assert_nonnull (strstr (md, "- kernel records: cupti\n"));
  g_assert_nonnull (strstr (md, "- Attribution: kernel time 0.001 ms per iteration (mean over 2), 3 kernel records; attributed 99.2% "
                                "(by correlation 99.2%, by time range 0.0%), unattributed 0.8%; dropped records 0; memcpy 0 (0 bytes, 0.000 ms), "
                                "memset 2 (8192 bytes, 0.003 ms), 2 of them attributed"));
  g_assert_nonnull (strstr (md, "| kernel | region | line | stream | grid | block | regs | smem B |"));
  g_assert_nonnull (strstr (md, "| sm90_gemm | prims.linear | 0 | 7 | 64×2×1 | 128×1×1 | 168 | 49152 |"));

  json = wb_report_to_json (report);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  attr = json_object_get_object_member (o, "attribution");
  g_assert_nonnull (attr);
  g_assert_cmpstr (json_object_get_string_member (attr, "kernel_source"), ==, "cupti");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (attr, "unattributed_pct"), 100.0 * 10 / 1310, 1e-9);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (attr, "memset"), "bytes"), ==, 8192);
  k0 = json_array_get_object_element (json_object_get_array_member (o, "kernels"), 0);
  g_assert_cmpstr (json_object_get_string_member (k0, "name"), ==, "sm90_gemm");
  g_assert_cmpint (json_object_get_int_member (k0, "registers"), ==, 168);
  g_assert_cmpint (json_object_get_int_member (k0, "shared_bytes"), ==, 49152);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (k0, "grid"), 1), ==, 2);

  html = wb_report_to_html (report);
  g_assert_nonnull (strstr (html, "<td>64×2×1</td><td>128×1×1</td><td class=\"n\">168</td><td class=\"n\">49152</td>"));
  chrome = wb_report_to_chrome_trace (report);
  g_assert_nonnull (strstr (chrome, "\"kernel_source\":\"cupti\""));
  g_assert_nonnull (strstr (chrome, "\"registers per thread\":168"));
  /* the host calls: a thread named for the host thread, an event per call naming the kernel it launched */
  {
    g_autoptr (JsonParser) cp = json_parser_new ();
    JsonArray *events;
    guint      n_api = 0, host_tid = 0;

    g_assert_true (json_parser_load_from_data (cp, chrome, -1, &error));
    events = json_object_get_array_member (json_node_get_object (json_parser_get_root (cp)), "traceEvents");
    for (guint i = 0; i < json_array_get_length (events); i++)
      {
        JsonObject *e = json_array_get_object_element (events, i);
        JsonObject *args = json_object_has_member (e, "args") ? json_object_get_object_member (e, "args") : NULL;

        if (args != NULL && g_strcmp0 (json_object_get_string_member (e, "name"), "thread_name") == 0 &&
            g_strcmp0 (json_object_get_string_member (args, "name"), "CUDA API (thread 77)") == 0)
          host_tid = (guint) json_object_get_int_member (e, "tid");
        if (g_strcmp0 (json_object_get_string_member_with_default (e, "cat", ""), "cuda_api") != 0)
          continue;
        n_api++;
        g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, host_tid);
        if (json_object_get_int_member (args, "correlation") == 31)
          {
            g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "cudaLaunchKernel");
            g_assert_cmpstr (json_object_get_string_member (args, "kernel"), ==, "sm90_gemm");
            g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, 0.7); /* µs: 700 ns after iteration 0's start */
            g_assert_cmpfloat (json_object_get_double_member (e, "dur"), ==, 0.15);
          }
        if (json_object_get_int_member (args, "correlation") == 33)
          g_assert_false (json_object_has_member (args, "kernel"));
      }
    g_assert_cmpuint (host_tid, !=, 0);
    g_assert_cmpuint (n_api, ==, 3);
    g_assert_nonnull (strstr (chrome, "\"host_calls\":3"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cupti/ext-id", test_ext_id);
  g_test_add_func ("/cupti/attribute", test_attribute);
  g_test_add_func ("/cupti/attribute-edges", test_attribute_edges);
  g_test_add_func ("/cupti/align-ranges", test_align_ranges);
  g_test_add_func ("/cupti/protocol-decode", test_protocol_decode);
  g_test_add_func ("/cupti/reports", test_reports);
  return g_test_run ();
}
