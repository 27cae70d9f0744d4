/* test-aggregate.c — summaries by symbol (WbAggregateRow) and by time range (WbRangeStats) on the
 * bundled sample's real traces, with kernel records placed on their real lines
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-data.h"

static WbTrace *
load_trace (const char *name)
{
  const char      *source = g_getenv ("WB_SOURCE_ROOT");
  g_autofree char *path = g_build_filename (source ? source : ".", "data", "samples", "mlp_small", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  WbTrace *trace;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  trace = wb_trace_parse (text, -1, path, &error);
  g_assert_no_error (error);
  return trace;
}

static const WbBsym *
find_call (WbTrace *trace, const char *name)
{
  for (guint i = 0; i < trace->n_body; i++)
    if (g_strcmp0 (trace->body[i]->name, name) == 0)
      return trace->body[i];
  g_assert_not_reached ();
  return NULL;
}

static WbKernelRecord *
kernel (const char *name, const char *region, guint line, gint64 start, gint64 end, guint iteration)
{
  WbKernelRecord *k = wb_kernel_record_new (name, region);

  k->trace_line = line;
  k->start_ns = start;
  k->end_ns = end;
  k->iteration = iteration;
  return k;
}

static guint
link_calls (GPtrArray *links, const char *key)
{
  for (guint i = 0; links != NULL && i < links->len; i++)
    if (g_strcmp0 (((WbAggregateRow *) links->pdata[i])->key, key) == 0)
      return ((WbAggregateRow *) links->pdata[i])->calls;
  return 0;
}

/* forward_05: one region, TorchCompile0, whose body holds 6 ltorch.mul, 2 ltorch.add, 2 prims.linear and
 * a prims.tanh (the printed comments of the file) */
static void
test_by_symbol (void)
{
  g_autoptr (WbTrace) trace = load_trace ("forward_05.py");
  const WbBsym *region = find_call (trace, "TorchCompile0");
  guint         line = wb_trace_get_bsym_line (trace, region);
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (GPtrArray) rows = NULL;
  const WbAggregateRow *r, *mul;

  g_assert_true (wb_bsym_is_fusion (region));
  g_assert_cmpuint (line, ==, 13);
  /* three iterations of two kernels on the region's line, 1 and 3 µs; one kernel on no line */
  for (guint it = 0; it < 3; it++)
    {
      g_ptr_array_add (run->kernels, kernel ("k_a", "TorchCompile0", line, it * 10000, it * 10000 + 1000, it));
      g_ptr_array_add (run->kernels, kernel ("k_b", "TorchCompile0", line, it * 10000 + 2000, it * 10000 + 5000, it));
    }
  g_ptr_array_add (run->kernels, kernel ("memcpy", NULL, 0, 40000, 41000, 2));
  rows = wb_aggregate_by_symbol (trace, run);

  r = wb_aggregate_find (rows, "TorchCompile0");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->calls, ==, 1);
  g_assert_cmpuint (r->kernels, ==, 2);
  g_assert_cmpint (r->time_ns, ==, 4000); /* per iteration */
  g_assert_cmpuint (r->bytes, >, 0);
  g_assert_cmpuint (link_calls (r->callees, "ltorch.mul"), ==, 6);
  g_assert_cmpuint (link_calls (r->callees, "ltorch.add"), ==, 2);
  g_assert_cmpuint (link_calls (r->callees, "prims.linear"), ==, 2);
  g_assert_cmpuint (link_calls (r->callees, "prims.tanh"), ==, 1);
  /* the slowest first */
  g_assert_true (rows->pdata[0] == r);

  mul = wb_aggregate_find (rows, "ltorch.mul");
  g_assert_nonnull (mul);
  g_assert_cmpuint (mul->calls, ==, 0);
  g_assert_cmpuint (mul->calls_in_regions, ==, 6);
  g_assert_cmpuint (link_calls (mul->callers, "TorchCompile0"), ==, 6);
  /* f32[32, 512] elementwise: each mul reads one or two such tensors and writes one (128 KiB each) */
  g_assert_cmpuint (mul->bytes, >=, 6 * 2 * 32 * 512 * 4);
  g_assert_cmpuint (mul->bytes, <=, 6 * 3 * 32 * 512 * 4);
  g_assert_cmpint (mul->time_ns, ==, 0);
  g_assert_null (wb_aggregate_find (rows, "prims.mul")); /* two levels down: not counted */
}

/* every call of a real stage counted once: the rows' calls add up to the stage's calls */
static void
test_counts_add_up (void)
{
  g_autoptr (WbTrace) trace = load_trace ("backward_00.py");
  g_autoptr (GPtrArray) rows = wb_aggregate_by_symbol (trace, NULL);
  guint top = 0, inner = 0, sum_top = 0, sum_inner = 0;

  for (guint i = 0; i < trace->n_body; i++)
    if (trace->body[i]->kind == WB_BSYM_CALL && trace->body[i]->name != NULL)
      {
        top++;
        for (guint k = 0; wb_bsym_is_fusion (trace->body[i]) && k < trace->body[i]->n_subsymbols; k++)
          inner += trace->body[i]->subsymbols[k]->kind == WB_BSYM_CALL && trace->body[i]->subsymbols[k]->name != NULL;
      }
  for (guint i = 0; i < rows->len; i++)
    {
      sum_top += ((WbAggregateRow *) rows->pdata[i])->calls;
      sum_inner += ((WbAggregateRow *) rows->pdata[i])->calls_in_regions;
    }
  g_assert_cmpuint (top, >, 0);
  g_assert_cmpuint (inner, >, 0);
  g_assert_cmpuint (sum_top, ==, top);
  g_assert_cmpuint (sum_inner, ==, inner);
}

/* kernels at 1000 + [0, 100), [50, 150) of TorchCompile0, [200, 300) unattributed, [300, 300) empty */
static void
test_range (void)
{
  g_autoptr (WbTrace) trace = load_trace ("forward_05.py");
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (WbRangeStats) a = NULL;
  g_autoptr (WbRangeStats) b = NULL;
  g_autoptr (WbRangeStats) all = NULL;
  const WbAggregateRow *row;

  g_ptr_array_add (run->kernels, kernel ("k_a", "TorchCompile0", 13, 1000, 1100, 0));
  g_ptr_array_add (run->kernels, kernel ("k_b", "TorchCompile0", 13, 1050, 1150, 0));
  g_ptr_array_add (run->kernels, kernel ("memcpy", NULL, 0, 1200, 1300, 0));
  g_ptr_array_add (run->kernels, kernel ("marker", NULL, 0, 1300, 1300, 0));
  g_assert_cmpint (wb_run_get_kernel_origin (run), ==, 1000);

  a = wb_range_stats_new (run, trace, 250, 60); /* either order */
  g_assert_cmpint (a->from_ns, ==, 60);
  g_assert_cmpuint (a->kernels, ==, 3);
  g_assert_cmpint (a->kernel_ns, ==, 40 + 90 + 50);
  g_assert_cmpint (a->busy_ns, ==, 90 + 50);
  g_assert_cmpuint (a->by_region->len, ==, 2);
  row = a->by_region->pdata[0];
  g_assert_cmpstr (row->key, ==, "TorchCompile0");
  g_assert_cmpint (row->time_ns, ==, 130);
  g_assert_cmpuint (row->kernels, ==, 2);
  g_assert_cmpstr (((WbAggregateRow *) a->by_region->pdata[1])->key, ==, "—");
  /* by symbol: the call on line 13, and the unattributed kernel by its own name */
  g_assert_nonnull (wb_aggregate_find (a->by_symbol, "TorchCompile0"));
  g_assert_cmpint (wb_aggregate_find (a->by_symbol, "memcpy")->time_ns, ==, 50);

  b = wb_range_stats_new (run, trace, 300, 400);
  g_assert_cmpuint (b->kernels, ==, 1); /* the empty one at 300; memcpy ends there */
  g_assert_cmpint (b->kernel_ns, ==, 0);
  g_assert_cmpstr (((WbAggregateRow *) b->by_symbol->pdata[0])->key, ==, "marker");

  all = wb_range_stats_new (run, NULL, 0, 300);
  g_assert_cmpuint (all->kernels, ==, 3);
  g_assert_cmpint (all->busy_ns, ==, 150 + 100);
  g_assert_nonnull (wb_aggregate_find (all->by_symbol, "TorchCompile0")); /* no trace: the region */
}

static WbHostCall *
host_call (const char *name, gint64 start, gint64 end, guint64 correlation)
{
  WbHostCall *c = wb_host_call_new (name);

  c->start_ns = start;
  c->end_ns = end;
  c->thread = 7;
  c->correlation_id = correlation;
  return c;
}

/* Host calls in a range: counted as the kernels (overlap; one of no length when it starts inside), the
 * launches those joined to a kernel, their time clipped to the range; times from the first kernel, so a
 * launch before it is at a negative time. Also a long call found by the culling search. */
static void
test_range_host_calls (void)
{
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (WbRangeStats) a = NULL;
  g_autoptr (WbRangeStats) b = NULL;
  g_autoptr (WbRangeStats) c = NULL;
  WbKernelRecord *k0 = kernel ("k_a", "TorchCompile0", 13, 1000, 1100, 0), *k1 = kernel ("k_b", "TorchCompile0", 13, 1300, 1400, 0);

  k0->correlation_id = 5;
  k1->correlation_id = 6;
  wb_run_add_kernel (run, k0);
  wb_run_add_kernel (run, k1);
  wb_run_add_host_call (run, host_call ("cuLaunchKernel", 900, 960, 5));       /* -100 .. -40 */
  wb_run_add_host_call (run, host_call ("cuStreamSynchronize", 970, 2000, 9)); /* -30 .. 1000: the longest */
  wb_run_add_host_call (run, host_call ("cuLaunchKernel", 1200, 1260, 6));     /* 200 .. 260 */
  wb_run_add_host_call (run, host_call ("cuEventQuery", 1280, 1280, 0));       /* 280, no length */
  wb_run_link_host_calls (run);
  g_assert_cmpint (((WbHostCall *) run->host_calls->pdata[0])->kernel, ==, 0);
  g_assert_cmpint (((WbHostCall *) run->host_calls->pdata[2])->kernel, ==, 1);
  g_assert_cmpint (((WbHostCall *) run->host_calls->pdata[1])->kernel, ==, -1);
  g_assert_cmpint (wb_run_get_host_call_max_ns (run), ==, 1030);

  a = wb_range_stats_new (run, NULL, -50, 250);
  g_assert_cmpuint (a->host_calls, ==, 3); /* the first launch, the sync, the second launch */
  g_assert_cmpuint (a->host_launches, ==, 2);
  g_assert_cmpint (a->host_call_ns, ==, 10 + 280 + 50);

  b = wb_range_stats_new (run, NULL, 270, 290);
  g_assert_cmpuint (b->host_calls, ==, 2); /* the sync (found despite starting long before) and the query */
  g_assert_cmpuint (b->host_launches, ==, 0);
  g_assert_cmpint (b->host_call_ns, ==, 20);

  c = wb_range_stats_new (run, NULL, 1000, 1100);
  g_assert_cmpuint (c->host_calls, ==, 0); /* the sync ends at 1000 */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/aggregate/by-symbol", test_by_symbol);
  g_test_add_func ("/data/aggregate/counts-add-up", test_counts_add_up);
  g_test_add_func ("/data/aggregate/range", test_range);
  g_test_add_func ("/data/aggregate/range-host-calls", test_range_host_calls);
  return g_test_run ();
}
