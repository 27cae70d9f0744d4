/* wb-runner-prof.c — profiling inside thunder-wb-runner: events, CUPTI records, attribution, ceilings
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-runner-prof.h"

#include <string.h>

#define PROF_KERNELS_TYPE "a(siuuuuuuxxuuuuty)"
#define PROF_HOST_CALLS_TYPE "a(sxxuut)"

static void
wb_runner_prof_fail (WbRunnerProf *p, GError *error)
{
  p->failed = TRUE;
  if (p->fail_msg == NULL && error != NULL)
    p->fail_msg = g_strdup (error->message);
  g_clear_error (&error);
}

guint
wb_runner_prof_record (WbRunnerProf *p)
{
  CUevent ev;

  if (p->used == p->events->len)
    {
      if (p->cu->cuEventCreate (&ev, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
        {
          p->failed = TRUE;
          return 0;
        }
      g_array_append_val (p->events, ev);
    }
  ev = g_array_index (p->events, CUevent, p->used);
  if (wb_cuda_runtime_record_event (p->rt, ev) != CUDA_SUCCESS) /* an event-record node while capturing a graph */
    p->failed = TRUE;
  return p->used++;
}

static void
prof_launch_hook (gboolean after, const char *name, const char *what, const guint grid[3], const guint block[3], gpointer data)
{
  WbRunnerProf *p = data;
  Launch        l = { 0 };

  if (!p->on || p->plain)
    return;
  if (!after)
    {
      l.name = g_intern_string (name);
      l.entry = p->entry;
      memcpy (l.grid, grid, sizeof l.grid);
      memcpy (l.block, block, sizeof l.block);
      l.ev_start = wb_runner_prof_record (p);
      g_array_append_val (p->launches, l);
    }
  else if (p->launches->len > 0)
    g_array_index (p->launches, Launch, p->launches->len - 1).ev_end = wb_runner_prof_record (p);
}

void
wb_runner_prof_note_start (WbRunnerProf *p)
{
  gint64 start;

  if (p->plain)
    return;
  if (!p->tracing && p->iter_ns->len == 0)
    p->origin_us = g_get_monotonic_time ();
  start = (g_get_monotonic_time () - p->origin_us) * 1000;
  g_array_append_val (p->tracing ? p->traced_iter_start : p->iter_start, start);
}

void
wb_runner_prof_end_plain_phase (WbRunnerProf *p)
{
  p->plain = FALSE;
}

gboolean
wb_runner_prof_wants_traced_phase (WbRunnerProf *p)
{
  return p->cupti != NULL;
}

gboolean
wb_runner_prof_begin_traced_phase (WbRunnerProf *p, GError **error)
{
  if (p->cupti == NULL)
    return TRUE;
  /* drop what the checked and warm-up runs left (the previous run ended synchronised) */
  if (!wb_cupti_set_paused (p->cupti, FALSE, error) || !wb_cupti_flush (p->cupti, error))
    return FALSE;
  wb_cupti_collect (p->cupti, NULL, NULL);
  wb_cupti_collect_api (p->cupti, NULL);
  p->tracing = TRUE;
  return TRUE;
}

void
wb_runner_prof_begin_iteration (WbRunnerProf *p)
{
  p->used = 0;
  g_array_set_size (p->launches, 0);
  g_array_set_size (p->entry_evs, 0);
  p->entry = -1;
  p->it = p->tracing ? p->n_traced : p->iter_ns->len;
  wb_runner_prof_note_start (p);
  p->on = TRUE;
  p->iter_host_ns = p->iter_begin_host_ns = wb_cupti_now_ns ();
  p->ev_iter_start = wb_runner_prof_record (p);
}

gint64
wb_runner_prof_elapsed_ns (WbRunnerProf *p, guint a, guint b)
{
  float ms = 0;

  if (p->cu->cuEventElapsedTime (&ms, g_array_index (p->events, CUevent, a), g_array_index (p->events, CUevent, b)) != CUDA_SUCCESS)
    p->failed = TRUE;
  return (gint64) ((double) ms * 1e6 + 0.5);
}

static void
prof_add_kernel (WbRunnerProf *p, const WbCuptiActivity *a, gint64 s, gint64 e)
{
  g_variant_builder_add (&p->kernels, "(siuuuuuuxxuuuuty)", a->name, (gint32) a->entry, a->grid[0], a->grid[1], a->grid[2],
                         a->block[0], a->block[1], a->block[2], s, MAX (e, s), (guint32) a->iteration, a->registers,
                         a->shared_bytes, a->stream, (guint64) a->correlation_id, (guchar) a->by);
}

/* CUPTI: iteration @it's host calls (those that started inside it), ns after its start, up to the cap */
static void
prof_collect_host_calls (WbRunnerProf *p, guint it)
{
  g_array_set_size (p->api_calls, 0);
  p->host_calls_over_cap += wb_cupti_collect_api (p->cupti, p->api_calls);
  for (guint i = 0; i < p->api_calls->len; i++)
    {
      const WbCuptiApiCall *c = &g_array_index (p->api_calls, WbCuptiApiCall, i);

      if (c->start_ns < p->iter_begin_host_ns || c->start_ns > p->iter_end_host_ns)
        continue; /* the profiler's own calls between iterations */
      if (p->n_host_calls >= WB_RUNNER_MAX_HOST_CALLS)
        {
          p->host_calls_over_cap++;
          continue;
        }
      g_variant_builder_add (&p->host_calls, "(sxxuut)", c->name, c->start_ns - p->iter_host_ns, c->end_ns - p->iter_host_ns,
                             (guint32) it, c->thread, (guint64) c->correlation_id);
      p->n_host_calls++;
    }
}

/* CUPTI: this iteration's records, attributed by correlation, else by the entries' event ranges. */
static void
prof_collect_cupti (WbRunnerProf *p, guint it)
{
  GError *error = NULL;
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (WbCuptiRange));

  if (!wb_cupti_flush (p->cupti, &error))
    {
      wb_runner_prof_fail (p, error);
      g_array_unref (ranges);
      return;
    }
  g_array_set_size (p->acts, 0);
  g_hash_table_remove_all (p->corr);
  p->dropped += wb_cupti_collect (p->cupti, p->acts, p->corr);
  prof_collect_host_calls (p, it);
  for (guint k = 0; k + 2 < p->entry_evs->len; k += 3)
    {
      WbCuptiRange r;
      r.entry = (gint32) g_array_index (p->entry_evs, guint, k);
      r.iteration = it;
      r.start_ns = p->iter_host_ns + wb_runner_prof_elapsed_ns (p, p->ev_iter_start, g_array_index (p->entry_evs, guint, k + 1));
      r.end_ns = p->iter_host_ns + wb_runner_prof_elapsed_ns (p, p->ev_iter_start, g_array_index (p->entry_evs, guint, k + 2));
      g_array_append_val (ranges, r);
    }
  for (guint i = 0; i < p->acts->len; i++)
    g_array_index (p->acts, WbCuptiActivity, i).iteration = it;
  /* a graph replay's kernels join no launch: its ranges are moved onto them first (at most 200 us) */
  wb_cupti_align_ranges ((const WbCuptiActivity *) p->acts->data, p->acts->len, p->corr, (WbCuptiRange *) ranges->data, ranges->len,
                         200000);
  wb_cupti_attribute ((WbCuptiActivity *) p->acts->data, p->acts->len, p->corr, (const WbCuptiRange *) ranges->data, ranges->len,
                      &p->summary);
  for (guint i = 0; i < p->acts->len; i++)
    {
      const WbCuptiActivity *a = &g_array_index (p->acts, WbCuptiActivity, i);
      if (a->kind == WB_CUPTI_KERNEL && a->start_ns > 0)
        prof_add_kernel (p, a, a->start_ns - p->iter_host_ns, a->end_ns - p->iter_host_ns);
    }
  g_array_unref (ranges);
}

/* after the stream was synchronised */
void
wb_runner_prof_end_iteration (WbRunnerProf *p)
{
  guint  n = wb_profile_get_n_entries (p->profile);
  guint  it = p->it;
  gint64 total;

  p->on = FALSE;
  p->iter_end_host_ns = wb_cupti_now_ns ();
  total = wb_runner_prof_elapsed_ns (p, p->ev_iter_start, p->ev_iter_end);
  if (p->plain)
    {
      g_array_append_val (p->unprofiled_iter_ns, total);
      return;
    }
  if (p->tracing)
    {
      g_array_append_val (p->traced_iter_ns, total);
      p->n_traced++;
      if (p->cupti)
        prof_collect_cupti (p, it);
      return;
    }
  g_array_append_val (p->iter_ns, total);
  g_array_set_size (p->entry_ns, (gsize) (it + 1) * n);
  for (guint k = 0; k + 2 < p->entry_evs->len; k += 3)
    {
      guint e = g_array_index (p->entry_evs, guint, k);
      g_array_index (p->entry_ns, gint64, (gsize) it * n + e) +=
          wb_runner_prof_elapsed_ns (p, g_array_index (p->entry_evs, guint, k + 1), g_array_index (p->entry_evs, guint, k + 2));
    }
  if (p->cupti)
    return; /* paused: the traced phase gives the kernels */
  for (guint k = 0; k < p->launches->len; k++)
    {
      const Launch   *l = &g_array_index (p->launches, Launch, k);
      WbCuptiActivity a = { 0 };

      a.kind = WB_CUPTI_KERNEL;
      a.name = l->name;
      a.entry = l->entry;
      a.iteration = it;
      a.by = l->entry >= 0 ? WB_CUPTI_BY_LAUNCH : WB_CUPTI_BY_NONE;
      memcpy (a.grid, l->grid, sizeof a.grid);
      memcpy (a.block, l->block, sizeof a.block);
      a.start_ns = wb_runner_prof_elapsed_ns (p, p->ev_iter_start, l->ev_start);
      a.end_ns = l->ev_end ? wb_runner_prof_elapsed_ns (p, p->ev_iter_start, l->ev_end) : a.start_ns;
      wb_cupti_attribute (&a, 1, NULL, NULL, 0, &p->summary);
      prof_add_kernel (p, &a, a.start_ns, a.end_ns);
    }
}

void
wb_runner_prof_call_started (WbRunnerProf *p, const WbBsym *bsym)
{
  GError *error = NULL;
  int     e;

  if (!p->on || p->plain)
    return;
  e = wb_profile_find_entry (p->profile, bsym);
  if (e < 0)
    return;
  p->entry = e;
  p->entry_ev = wb_runner_prof_record (p);
  if (p->cupti && p->tracing && !wb_cupti_push (p->cupti, wb_cupti_ext_id (p->it, (guint) e), &error))
    wb_runner_prof_fail (p, error);
}

void
wb_runner_prof_call_done (WbRunnerProf *p, const WbBsym *bsym)
{
  GError *error = NULL;
  guint   triple[3];

  if (!p->on || p->plain || p->entry < 0 || wb_profile_find_entry (p->profile, bsym) != p->entry)
    return;
  if (p->cupti && p->tracing && !wb_cupti_pop (p->cupti, &error))
    wb_runner_prof_fail (p, error);
  triple[0] = (guint) p->entry;
  triple[1] = p->entry_ev;
  triple[2] = wb_runner_prof_record (p);
  g_array_append_vals (p->entry_evs, triple, 3);
  p->entry = -1;
}

WbRunnerProf *
wb_runner_prof_new (WbCudaRuntime *rt, WbProgram *program)
{
  WbRunnerProf *p = g_new0 (WbRunnerProf, 1);
  const char   *env = g_getenv ("WB_PROFILE_CUPTI");

  p->rt = rt;
  p->cu = wb_cuda_runtime_get_api (rt);
  p->profile = wb_profile_new (program, NULL);
  p->events = g_array_new (FALSE, FALSE, sizeof (CUevent));
  p->entry_evs = g_array_new (FALSE, FALSE, sizeof (guint));
  p->launches = g_array_new (FALSE, FALSE, sizeof (Launch));
  p->iter_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->iter_start = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->traced_iter_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->traced_iter_start = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->entry_ns = g_array_new (FALSE, TRUE, sizeof (gint64));
  p->acts = g_array_new (FALSE, FALSE, sizeof (WbCuptiActivity));
  p->corr = wb_cupti_correlations_new ();
  p->entry = -1;
  p->plain = TRUE;
  p->unprofiled_iter_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_variant_builder_init (&p->kernels, G_VARIANT_TYPE (PROF_KERNELS_TYPE));
  p->api_calls = g_array_new (FALSE, FALSE, sizeof (WbCuptiApiCall));
  g_variant_builder_init (&p->host_calls, G_VARIANT_TYPE (PROF_HOST_CALLS_TYPE));
  if (env != NULL && strcmp (env, "0") == 0)
    p->cupti_reason = g_strdup ("disabled by WB_PROFILE_CUPTI=0");
  else
    {
      GError *error = NULL;
      if ((p->cupti = wb_cupti_start (&error)) == NULL || !wb_cupti_set_paused (p->cupti, TRUE, &error))
        {
          g_clear_pointer (&p->cupti, wb_cupti_stop);
          p->cupti_reason = g_strdup (error->message);
          g_printerr ("thunder-wb-runner: kernel records from CUDA events: %s\n", error->message);
          g_clear_error (&error);
        }
    }
  /* WB_PROFILE_KERNELS=0 (with WB_PROFILE_CUPTI=0): no kernel records at all, only the events around
   * iterations and entries — the floor of profiling's cost, measured by hand (tests/bench/README.md) */
  if (p->cupti == NULL && g_strcmp0 (g_getenv ("WB_PROFILE_KERNELS"), "0") != 0)
    wb_cuda_runtime_set_launch_hook (rt, prof_launch_hook, p);
  return p;
}

void
wb_runner_prof_free (WbRunnerProf *p)
{
  if (p == NULL)
    return;
  wb_cuda_runtime_set_launch_hook (p->rt, NULL, NULL);
  g_clear_pointer (&p->cupti, wb_cupti_stop);
  for (guint i = 0; i < p->events->len; i++)
    p->cu->cuEventDestroy (g_array_index (p->events, CUevent, i));
  g_array_unref (p->events);
  g_array_unref (p->entry_evs);
  g_array_unref (p->launches);
  g_array_unref (p->iter_ns);
  g_array_unref (p->iter_start);
  g_array_unref (p->traced_iter_ns);
  g_array_unref (p->unprofiled_iter_ns);
  g_array_unref (p->traced_iter_start);
  g_array_unref (p->entry_ns);
  g_array_unref (p->acts);
  g_hash_table_unref (p->corr);
  g_variant_builder_clear (&p->kernels);
  g_variant_builder_clear (&p->host_calls);
  g_array_unref (p->api_calls);
  wb_profile_free (p->profile);
  g_free (p->fail_msg);
  g_free (p->cupti_reason);
  g_free (p);
}

static GVariant *
prof_memops (guint32 count, guint64 bytes, gint64 ns)
{
  return g_variant_new ("(utx)", count, bytes, ns);
}

/* profile a{sv} (wb-runner.h): entries as, iter_ns ax, unprofiled_iter_ns ax (the plain phase's iterations,
 * before the timed ones), traced_iter_ns ax (the traced phase's iterations, whose
 * kernels are in kernels2: their iteration field counts those), traced_iter_start_ns ax (their starts, on
 * iter_start_ns's clock: after the timed ones), iter_start_ns ax, entry_ns ax, kernels2
 * a(siuuuuuuxxuuuuty) (name, entry or -1, grid xyz, block xyz, start, end, iteration, registers, shared
 * bytes, stream, correlation id, attributed by: WbCuptiAttributedBy), kernel_source s ("cupti" or
 * "events"), kernel_source_reason s (why not CUPTI; "" with CUPTI), cupti_version u, kernel_ns_total x,
 * kernel_ns_attributed x, kernel_ns_by_time_range x, kernels_by_correlation u, kernels_by_time_range u,
 * kernels_unattributed u, memcpy (utx) and memset (utx) (count, bytes, ns), memops_attributed u,
 * dropped_records t, clock_origin_ns x (host CLOCK_MONOTONIC ns of iter_start_ns's 0), host_calls a(sxxuut)
 * (the traced iterations' CUDA API calls: function name, start, end (ns after the iteration's start, as
 * kernels2's), iteration, thread id, correlation id) and host_calls_over_cap t (calls not sent: beyond
 * WB_RUNNER_MAX_HOST_CALLS or wb-cupti's own cap) */
GVariant *
wb_runner_prof_variant (WbRunnerProf *p)
{
  GVariantBuilder       b, names;
  const WbCuptiSummary *s = &p->summary;

  g_variant_builder_init (&names, G_VARIANT_TYPE ("as"));
  for (guint i = 0; i < wb_profile_get_n_entries (p->profile); i++)
    g_variant_builder_add (&names, "s", wb_profile_get_entry_name (p->profile, i));
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "entries", g_variant_builder_end (&names));
  g_variant_builder_add (&b, "{sv}", "iter_ns", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->iter_ns->data, p->iter_ns->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "traced_iter_ns",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->traced_iter_ns->data, p->traced_iter_ns->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "traced_iter_start_ns",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->traced_iter_start->data, p->traced_iter_start->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "unprofiled_iter_ns",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->unprofiled_iter_ns->data, p->unprofiled_iter_ns->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "iter_start_ns", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->iter_start->data, p->iter_start->len, sizeof (gint64)));
  /* host CLOCK_MONOTONIC (g_get_monotonic_time) of iter_start_ns's 0, ns: the ranks of one host align on it */
  g_variant_builder_add (&b, "{sv}", "clock_origin_ns", g_variant_new_int64 (p->origin_us * 1000));
  g_variant_builder_add (&b, "{sv}", "entry_ns", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->entry_ns->data, p->entry_ns->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "kernels2", g_variant_builder_end (&p->kernels));
  g_variant_builder_init (&p->kernels, G_VARIANT_TYPE (PROF_KERNELS_TYPE));
  g_variant_builder_add (&b, "{sv}", "host_calls", g_variant_builder_end (&p->host_calls));
  g_variant_builder_init (&p->host_calls, G_VARIANT_TYPE (PROF_HOST_CALLS_TYPE));
  p->n_host_calls = 0;
  g_variant_builder_add (&b, "{sv}", "host_calls_over_cap", g_variant_new_uint64 (p->host_calls_over_cap));
  g_variant_builder_add (&b, "{sv}", "kernel_source", g_variant_new_string (p->cupti ? "cupti" : "events"));
  g_variant_builder_add (&b, "{sv}", "kernel_source_reason", g_variant_new_string (p->cupti_reason ? p->cupti_reason : ""));
  g_variant_builder_add (&b, "{sv}", "cupti_version", g_variant_new_uint32 (p->cupti ? wb_cupti_get_version (p->cupti) : 0));
  g_variant_builder_add (&b, "{sv}", "cupti_correlation",
                         g_variant_new_string (p->cupti ? wb_cupti_correlation_name (wb_cupti_get_correlation (p->cupti)) : ""));
  g_variant_builder_add (&b, "{sv}", "kernel_ns_total", g_variant_new_int64 (s->kernel_ns_total));
  g_variant_builder_add (&b, "{sv}", "kernel_ns_attributed", g_variant_new_int64 (s->kernel_ns_by_correlation + s->kernel_ns_by_time_range));
  g_variant_builder_add (&b, "{sv}", "kernel_ns_by_time_range", g_variant_new_int64 (s->kernel_ns_by_time_range));
  g_variant_builder_add (&b, "{sv}", "kernels_by_correlation", g_variant_new_uint32 (s->kernels_by_correlation));
  g_variant_builder_add (&b, "{sv}", "kernels_by_time_range", g_variant_new_uint32 (s->kernels_by_time_range));
  g_variant_builder_add (&b, "{sv}", "kernels_unattributed", g_variant_new_uint32 (s->kernels_unattributed));
  g_variant_builder_add (&b, "{sv}", "memcpy", prof_memops (s->memcpy_count, s->memcpy_bytes, s->memcpy_ns));
  g_variant_builder_add (&b, "{sv}", "memset", prof_memops (s->memset_count, s->memset_bytes, s->memset_ns));
  g_variant_builder_add (&b, "{sv}", "memops_attributed", g_variant_new_uint32 (s->memops_attributed));
  g_variant_builder_add (&b, "{sv}", "dropped_records", g_variant_new_uint64 (p->dropped));
  return g_variant_builder_end (&b);
}

/* -- the device's ceilings (RUN with `ceilings`) ------------------------------------------------- */

#define CEIL_COPY_BYTES ((size_t) 1 << 30)
#define CEIL_GEMM_N 8192

gboolean
wb_runner_measure_ceilings (WbCudaRuntime *rt, double *copy_gbps, double *tflops, GError **error)
{
  const WbCuApi *cu = wb_cuda_runtime_get_api (rt);
  CUstream       st = wb_cuda_runtime_get_stream (rt);
  CUevent        e0 = NULL, e1 = NULL;
  CUdeviceptr    src = 0, dst = 0;
  gboolean       ok = FALSE;
  float          best = 0, ms = 0;
  gint64         shape[2] = { CEIL_GEMM_N, CEIL_GEMM_N };
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) b = NULL;

  if (!wb_cuda_check (cu->cuEventCreate (&e0, CU_EVENT_DEFAULT), "cuEventCreate", error) ||
      !wb_cuda_check (cu->cuEventCreate (&e1, CU_EVENT_DEFAULT), "cuEventCreate", error) ||
      !wb_cuda_check (cu->cuMemAllocAsync (&src, CEIL_COPY_BYTES, st), "cuMemAllocAsync", error) ||
      !wb_cuda_check (cu->cuMemAllocAsync (&dst, CEIL_COPY_BYTES, st), "cuMemAllocAsync", error) ||
      !wb_cuda_check (cu->cuMemsetD8Async (src, 1, CEIL_COPY_BYTES, st), "cuMemsetD8Async", error))
    goto out;
  /* copy: bytes read + written over the fastest of 20 copies (after 3 untimed) */
  for (int i = 0; i < 23; i++)
    {
      if (!wb_cuda_check (cu->cuEventRecord (e0, st), "cuEventRecord", error) ||
          !wb_cuda_check (cu->cuMemcpyDtoDAsync (dst, src, CEIL_COPY_BYTES, st), "cuMemcpyDtoDAsync", error) ||
          !wb_cuda_check (cu->cuEventRecord (e1, st), "cuEventRecord", error) ||
          !wb_cuda_check (cu->cuEventSynchronize (e1), "cuEventSynchronize", error) ||
          !wb_cuda_check (cu->cuEventElapsedTime (&ms, e0, e1), "cuEventElapsedTime", error))
        goto out;
      if (i >= 3 && (best == 0 || ms < best))
        best = ms;
    }
  *copy_gbps = 2.0 * (double) CEIL_COPY_BYTES / (best * 1e-3) / 1e9;
  /* bf16 matmul N x N x N through cuBLASLt (the cublas executor's path), fastest of 10 after 3 */
  if ((a = wb_cuda_tensor_new (rt, WB_DTYPE_BFLOAT16, 2, shape, error)) == NULL ||
      (b = wb_cuda_tensor_new (rt, WB_DTYPE_BFLOAT16, 2, shape, error)) == NULL ||
      !wb_cuda_check (cu->cuMemsetD8Async (wb_cuda_tensor_ptr (a), 0x3c, (size_t) CEIL_GEMM_N * CEIL_GEMM_N * 2, st), "cuMemsetD8Async", error) ||
      !wb_cuda_check (cu->cuMemsetD8Async (wb_cuda_tensor_ptr (b), 0x3b, (size_t) CEIL_GEMM_N * CEIL_GEMM_N * 2, st), "cuMemsetD8Async", error))
    goto out;
  best = 0;
  for (int i = 0; i < 13; i++)
    {
      g_autoptr (WbTensor) c = NULL;
      if (!wb_cuda_check (cu->cuEventRecord (e0, st), "cuEventRecord", error) ||
          !wb_cuda_matmul (rt, a, b, NULL, FALSE, &c, error) ||
          !wb_cuda_check (cu->cuEventRecord (e1, st), "cuEventRecord", error) ||
          !wb_cuda_check (cu->cuEventSynchronize (e1), "cuEventSynchronize", error) ||
          !wb_cuda_check (cu->cuEventElapsedTime (&ms, e0, e1), "cuEventElapsedTime", error))
        goto out;
      if (i >= 3 && (best == 0 || ms < best))
        best = ms;
    }
  *tflops = 2.0 * CEIL_GEMM_N * (double) CEIL_GEMM_N * CEIL_GEMM_N / (best * 1e-3) / 1e12;
  ok = TRUE;
out:
  if (src)
    cu->cuMemFreeAsync (src, st);
  if (dst)
    cu->cuMemFreeAsync (dst, st);
  if (e0)
    cu->cuEventDestroy (e0);
  if (e1)
    cu->cuEventDestroy (e1);
  return ok && wb_cuda_runtime_synchronize (rt, error);
}
