/* wb-runner-main.c — thunder-wb-runner: the process that runs programs on the GPU
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Started by the app and the headless commands (wb-runner.h); speaks wb-runner-protocol.h on stdin and the
 * original stdout, which it keeps for the protocol alone (file descriptor 1 is pointed at stderr so
 * nothing printed by a library can corrupt a message). A run: parse the program's traces, assign the
 * runner's executors (executors/cuda/wb-cuda-executors.h), upload the arguments once, run it once checked
 * (synchronising after every kernel and announcing every top-level call, so a fault names its region),
 * then warm-up and timed runs (each synchronised at its end), and return the checked run's outputs,
 * gradients and cotangents with the timings and what ran where. A kernel fault loses the CUDA context for
 * good: the runner reports it (fatal) and exits with status 3; the caller starts a fresh runner.
 * Exit: 0 after QUIT or end of input, 3 after a fault, 2 on a protocol error. */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <string.h>
#include <unistd.h>

#include "wb-cuda-executors.h"
#include "wb-cuda-graph.h"
#include "wb-profiler.h"
#include "wb-runner-protocol.h"

/* -- profiling (RUN with `profile`): CUPTI activity records, CUDA events ---------------------------
 * In a profiled timed iteration CUDA events are recorded on the run's stream at the iteration's start and
 * end and before and after every top-level call that is a profile entry (wb-profile.h's rules, on the
 * runner's own copy of the program); after the iteration's synchronisation they are read relative to the
 * iteration's start event and reused. Kernels come from CUPTI (wb-cupti.h) when it can trace: an external
 * correlation id (iteration, entry) is pushed around each entry's call, and after each timed iteration's
 * synchronisation the buffers are flushed and every kernel, memcpy and memset record is attributed by
 * correlation, else by the entries' time ranges (CUPTI's clock is CLOCK_MONOTONIC; an entry's range is its
 * events' offsets from the iteration's start event added to the host time the start event was recorded at,
 * the stream being idle then). Without CUPTI (WB_PROFILE_CUPTI=0, libcupti missing, tracing refused) a
 * pair of events around every kernel launch gives the kernel records instead (the runtime's launch hook;
 * cuBLASLt calls count as one "cublasLt matmul"), and the profile says why. */

typedef struct
{
  const char *name; /* interned */
  int         entry;
  guint       grid[3], block[3];
  guint       ev_start, ev_end; /* indexes into the event pool */
} Launch;

typedef struct
{
  WbCudaRuntime *rt;
  const WbCuApi *cu;
  WbProfile     *profile; /* entries of the runner's program */
  gboolean       on;      /* recording this iteration */
  GArray        *events;  /* (element-type CUevent) the pool */
  guint          used;
  guint          ev_iter_start, ev_iter_end;
  int            entry;     /* the entry running now, or -1 */
  guint          entry_ev;  /* its start event */
  GArray        *entry_evs; /* (element-type guint) pairs: entry, start, end ... as triples */
  GArray        *launches;  /* (element-type Launch) this iteration (events mode) */
  gboolean       failed;
  char          *fail_msg; /* (nullable) why, when not a CUDA event call */
  /* CUPTI (NULL: events mode, for the reason in cupti_reason) */
  WbCupti       *cupti;
  char          *cupti_reason;
  gint64         iter_host_ns; /* CLOCK_MONOTONIC when the iteration's start event was recorded */
  GArray        *acts;         /* (element-type WbCuptiActivity) this iteration's records */
  GHashTable    *corr;         /* correlation id -> external id, this iteration */
  WbCuptiSummary summary;      /* over the timed iterations */
  guint64        dropped;
  /* results over the timed iterations */
  GArray         *iter_ns;    /* gint64 */
  GArray         *iter_start; /* gint64: iteration start relative to the first one's (host clock) */
  GArray         *entry_ns;   /* gint64 [iters * n_entries] */
  GVariantBuilder kernels;    /* a(siuuuuuuxxuuuuty), see prof_variant */
  gint64          origin_us;
} Prof;

#define PROF_KERNELS_TYPE "a(siuuuuuuxxuuuuty)"

static void
prof_fail (Prof *p, GError *error)
{
  p->failed = TRUE;
  if (p->fail_msg == NULL && error != NULL)
    p->fail_msg = g_strdup (error->message);
  g_clear_error (&error);
}

static guint
prof_record (Prof *p)
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
  Prof  *p = data;
  Launch l = { 0 };

  if (!p->on)
    return;
  if (!after)
    {
      l.name = g_intern_string (name);
      l.entry = p->entry;
      memcpy (l.grid, grid, sizeof l.grid);
      memcpy (l.block, block, sizeof l.block);
      l.ev_start = prof_record (p);
      g_array_append_val (p->launches, l);
    }
  else if (p->launches->len > 0)
    g_array_index (p->launches, Launch, p->launches->len - 1).ev_end = prof_record (p);
}

static void
prof_begin_iteration (Prof *p)
{
  GError *error = NULL;

  p->used = 0;
  g_array_set_size (p->launches, 0);
  g_array_set_size (p->entry_evs, 0);
  p->entry = -1;
  if (p->iter_ns->len == 0)
    {
      p->origin_us = g_get_monotonic_time ();
      /* drop what the checked and warm-up runs left (the previous run ended synchronised) */
      if (p->cupti && !wb_cupti_flush (p->cupti, &error))
        prof_fail (p, error);
      if (p->cupti)
        wb_cupti_collect (p->cupti, NULL, NULL);
    }
  {
    gint64 start = (g_get_monotonic_time () - p->origin_us) * 1000;
    g_array_append_val (p->iter_start, start);
  }
  p->on = TRUE;
  p->iter_host_ns = wb_cupti_now_ns ();
  p->ev_iter_start = prof_record (p);
}

static gint64
prof_elapsed_ns (Prof *p, guint a, guint b)
{
  float ms = 0;

  if (p->cu->cuEventElapsedTime (&ms, g_array_index (p->events, CUevent, a), g_array_index (p->events, CUevent, b)) != CUDA_SUCCESS)
    p->failed = TRUE;
  return (gint64) ((double) ms * 1e6 + 0.5);
}

static void
prof_add_kernel (Prof *p, const WbCuptiActivity *a, gint64 s, gint64 e)
{
  g_variant_builder_add (&p->kernels, "(siuuuuuuxxuuuuty)", a->name, (gint32) a->entry, a->grid[0], a->grid[1], a->grid[2],
                         a->block[0], a->block[1], a->block[2], s, MAX (e, s), (guint32) a->iteration, a->registers,
                         a->shared_bytes, a->stream, (guint64) a->correlation_id, (guchar) a->by);
}

/* CUPTI: this iteration's records, attributed by correlation, else by the entries' event ranges. */
static void
prof_collect_cupti (Prof *p, guint it)
{
  GError *error = NULL;
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (WbCuptiRange));

  if (!wb_cupti_flush (p->cupti, &error))
    {
      prof_fail (p, error);
      g_array_unref (ranges);
      return;
    }
  g_array_set_size (p->acts, 0);
  g_hash_table_remove_all (p->corr);
  p->dropped += wb_cupti_collect (p->cupti, p->acts, p->corr);
  for (guint k = 0; k + 2 < p->entry_evs->len; k += 3)
    {
      WbCuptiRange r;
      r.entry = (gint32) g_array_index (p->entry_evs, guint, k);
      r.iteration = it;
      r.start_ns = p->iter_host_ns + prof_elapsed_ns (p, p->ev_iter_start, g_array_index (p->entry_evs, guint, k + 1));
      r.end_ns = p->iter_host_ns + prof_elapsed_ns (p, p->ev_iter_start, g_array_index (p->entry_evs, guint, k + 2));
      g_array_append_val (ranges, r);
    }
  for (guint i = 0; i < p->acts->len; i++)
    g_array_index (p->acts, WbCuptiActivity, i).iteration = it;
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
static void
prof_end_iteration (Prof *p)
{
  guint  n = wb_profile_get_n_entries (p->profile);
  guint  it = p->iter_ns->len;
  gint64 total;

  p->on = FALSE;
  total = prof_elapsed_ns (p, p->ev_iter_start, p->ev_iter_end);
  g_array_append_val (p->iter_ns, total);
  g_array_set_size (p->entry_ns, (gsize) (it + 1) * n);
  for (guint k = 0; k + 2 < p->entry_evs->len; k += 3)
    {
      guint e = g_array_index (p->entry_evs, guint, k);
      g_array_index (p->entry_ns, gint64, (gsize) it * n + e) +=
        prof_elapsed_ns (p, g_array_index (p->entry_evs, guint, k + 1), g_array_index (p->entry_evs, guint, k + 2));
    }
  if (p->cupti)
    {
      prof_collect_cupti (p, it);
      return;
    }
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
      a.start_ns = prof_elapsed_ns (p, p->ev_iter_start, l->ev_start);
      a.end_ns = l->ev_end ? prof_elapsed_ns (p, p->ev_iter_start, l->ev_end) : a.start_ns;
      wb_cupti_attribute (&a, 1, NULL, NULL, 0, &p->summary);
      prof_add_kernel (p, &a, a.start_ns, a.end_ns);
    }
}

static void
prof_call_started (Prof *p, const WbBsym *bsym)
{
  GError *error = NULL;
  int     e;

  if (!p->on)
    return;
  e = wb_profile_find_entry (p->profile, bsym);
  if (e < 0)
    return;
  p->entry = e;
  p->entry_ev = prof_record (p);
  if (p->cupti && !wb_cupti_push (p->cupti, wb_cupti_ext_id (p->iter_ns->len, (guint) e), &error))
    prof_fail (p, error);
}

static void
prof_call_done (Prof *p, const WbBsym *bsym)
{
  GError *error = NULL;
  guint   triple[3];

  if (!p->on || p->entry < 0 || wb_profile_find_entry (p->profile, bsym) != p->entry)
    return;
  if (p->cupti && !wb_cupti_pop (p->cupti, &error))
    prof_fail (p, error);
  triple[0] = (guint) p->entry;
  triple[1] = p->entry_ev;
  triple[2] = prof_record (p);
  g_array_append_vals (p->entry_evs, triple, 3);
  p->entry = -1;
}

static Prof *
prof_new (WbCudaRuntime *rt, WbProgram *program)
{
  Prof       *p = g_new0 (Prof, 1);
  const char *env = g_getenv ("WB_PROFILE_CUPTI");

  p->rt = rt;
  p->cu = wb_cuda_runtime_get_api (rt);
  p->profile = wb_profile_new (program, NULL);
  p->events = g_array_new (FALSE, FALSE, sizeof (CUevent));
  p->entry_evs = g_array_new (FALSE, FALSE, sizeof (guint));
  p->launches = g_array_new (FALSE, FALSE, sizeof (Launch));
  p->iter_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->iter_start = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->entry_ns = g_array_new (FALSE, TRUE, sizeof (gint64));
  p->acts = g_array_new (FALSE, FALSE, sizeof (WbCuptiActivity));
  p->corr = wb_cupti_correlations_new ();
  p->entry = -1;
  g_variant_builder_init (&p->kernels, G_VARIANT_TYPE (PROF_KERNELS_TYPE));
  if (env != NULL && strcmp (env, "0") == 0)
    p->cupti_reason = g_strdup ("disabled by WB_PROFILE_CUPTI=0");
  else
    {
      GError *error = NULL;
      if ((p->cupti = wb_cupti_start (&error)) == NULL)
        {
          p->cupti_reason = g_strdup (error->message);
          g_printerr ("thunder-wb-runner: kernel records from CUDA events: %s\n", error->message);
          g_clear_error (&error);
        }
    }
  if (p->cupti == NULL)
    wb_cuda_runtime_set_launch_hook (rt, prof_launch_hook, p);
  return p;
}

static void
prof_free (Prof *p)
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
  g_array_unref (p->entry_ns);
  g_array_unref (p->acts);
  g_hash_table_unref (p->corr);
  g_variant_builder_clear (&p->kernels);
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

/* profile a{sv} (wb-runner.h): entries as, iter_ns ax, iter_start_ns ax, entry_ns ax, kernels2
 * a(siuuuuuuxxuuuuty) (name, entry or -1, grid xyz, block xyz, start, end, iteration, registers, shared
 * bytes, stream, correlation id, attributed by: WbCuptiAttributedBy), kernel_source s ("cupti" or
 * "events"), kernel_source_reason s (why not CUPTI; "" with CUPTI), cupti_version u, kernel_ns_total x,
 * kernel_ns_attributed x, kernel_ns_by_time_range x, kernels_by_correlation u, kernels_by_time_range u,
 * kernels_unattributed u, memcpy (utx) and memset (utx) (count, bytes, ns), memops_attributed u,
 * dropped_records t */
static GVariant *
prof_variant (Prof *p)
{
  GVariantBuilder       b, names;
  const WbCuptiSummary *s = &p->summary;

  g_variant_builder_init (&names, G_VARIANT_TYPE ("as"));
  for (guint i = 0; i < wb_profile_get_n_entries (p->profile); i++)
    g_variant_builder_add (&names, "s", wb_profile_get_entry_name (p->profile, i));
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "entries", g_variant_builder_end (&names));
  g_variant_builder_add (&b, "{sv}", "iter_ns", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->iter_ns->data, p->iter_ns->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "iter_start_ns", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->iter_start->data, p->iter_start->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "entry_ns", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->entry_ns->data, p->entry_ns->len, sizeof (gint64)));
  g_variant_builder_add (&b, "{sv}", "kernels2", g_variant_builder_end (&p->kernels));
  g_variant_builder_init (&p->kernels, G_VARIANT_TYPE (PROF_KERNELS_TYPE));
  g_variant_builder_add (&b, "{sv}", "kernel_source", g_variant_new_string (p->cupti ? "cupti" : "events"));
  g_variant_builder_add (&b, "{sv}", "kernel_source_reason", g_variant_new_string (p->cupti_reason ? p->cupti_reason : ""));
  g_variant_builder_add (&b, "{sv}", "cupti_version", g_variant_new_uint32 (p->cupti ? wb_cupti_get_version (p->cupti) : 0));
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

static gboolean
measure_ceilings (WbCudaRuntime *rt, double *copy_gbps, double *tflops, GError **error)
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

typedef struct
{
  GOutputStream *out;
  gboolean       announce;
  char          *last_region;
  Prof          *prof; /* (nullable) a profiled run */
  const char    *call; /* (nullable) the top-level call running now: a failed graph capture names it */
} Runner;

static gint64
now_ns (void)
{
  return g_get_monotonic_time () * 1000;
}

static void
send_error (Runner *r, const GError *error, int exit_code, gboolean fatal)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (error->message));
  g_variant_builder_add (&b, "{sv}", "domain", g_variant_new_string (g_quark_to_string (error->domain)));
  g_variant_builder_add (&b, "{sv}", "code", g_variant_new_int32 (error->code));
  g_variant_builder_add (&b, "{sv}", "exit", g_variant_new_int32 (exit_code));
  g_variant_builder_add (&b, "{sv}", "fatal", g_variant_new_boolean (fatal));
  if (r->last_region)
    g_variant_builder_add (&b, "{sv}", "region", g_variant_new_string (r->last_region));
  wb_runner_write_message (r->out, WB_RUNNER_MSG_ERROR, g_variant_builder_end (&b), NULL);
}

static void
send_no_gpu (Runner *r, const GError *error)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (error->message));
  g_variant_builder_add (&b, "{sv}", "domain", g_variant_new_string ("no-gpu"));
  g_variant_builder_add (&b, "{sv}", "code", g_variant_new_int32 (error->code));
  g_variant_builder_add (&b, "{sv}", "exit", g_variant_new_int32 (3));
  wb_runner_write_message (r->out, WB_RUNNER_MSG_ERROR, g_variant_builder_end (&b), NULL);
}

static void
on_call_started (const WbTrace *trace, const WbBsym *bsym, gpointer data)
{
  Runner         *r = data;
  GVariantBuilder b;
  guint           line;

  r->call = bsym->name;
  if (r->prof)
    prof_call_started (r->prof, bsym);
  if (!r->announce)
    return;
  line = wb_trace_get_bsym_line (trace, bsym);
  g_free (r->last_region);
  r->last_region = line ? g_strdup_printf ("%s:%u: %s", trace->filename ? trace->filename : "<trace>", line, bsym->name)
                        : g_strdup (bsym->name);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "region", g_variant_new_string (bsym->name));
  g_variant_builder_add (&b, "{sv}", "line", g_variant_new_uint32 (line));
  g_variant_builder_add (&b, "{sv}", "trace", g_variant_new_string (trace->filename ? trace->filename : "<trace>"));
  wb_runner_write_message (r->out, WB_RUNNER_MSG_PROGRESS, g_variant_builder_end (&b), NULL);
}

static void
on_call_done (const WbTrace *trace, const WbBsym *bsym, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer data)
{
  Runner *r = data;

  if (r->prof)
    prof_call_done (r->prof, bsym);
}

static int
exit_code_for (const GError *error)
{
  if (error->domain == WB_EXECUTOR_ERROR)
    switch (error->code)
      {
      case WB_EXECUTOR_ERROR_TYPE_MISMATCH:
      case WB_EXECUTOR_ERROR_CHECK_FAILED:
        return 1;
      case WB_EXECUTOR_ERROR_BAD_ARGUMENT:
      case WB_EXECUTOR_ERROR_UNDEFINED_NAME:
      case WB_EXECUTOR_ERROR_IO:
        return 2;
      default:
        return 3;
      }
  if (error->domain == WB_TRACE_ERROR)
    return 2;
  return 3;
}

/* Device copies of @values (uploaded once for every run). */
static GPtrArray *
upload_all (WbCudaRuntime *rt, GPtrArray *values, GError **error)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  for (guint i = 0; values && i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      if (v->kind == WB_RT_TENSOR)
        {
          WbTensor *d = wb_cuda_upload (rt, v->tensor, error);
          if (d == NULL)
            {
              g_ptr_array_unref (out);
              return NULL;
            }
          g_ptr_array_add (out, wb_rt_value_take_tensor (d));
        }
      else
        g_ptr_array_add (out, wb_rt_value_ref (v));
    }
  return out;
}

static GVariant *
download_all (WbCudaRuntime *rt, GPtrArray *values, GError **error)
{
  g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  for (guint i = 0; values && i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      if (v->kind == WB_RT_TENSOR)
        {
          WbTensor *h = wb_cuda_download (rt, v->tensor, error);
          if (h == NULL)
            return NULL;
          g_ptr_array_add (host, wb_rt_value_take_tensor (h));
        }
      else
        g_ptr_array_add (host, wb_rt_value_ref (v));
    }
  return wb_runner_values_to_variant (host);
}

static GVariant *
stats_variant (guint retries)
{
  const WbCudaDispatchStats *s = wb_cuda_executors_get_stats ();
  WbNvrtcStats               ns;
  GVariantBuilder            b, fb, rb;
  GHashTableIter             it;
  gpointer                   k, v;

  wb_nvrtc_get_stats (&ns);
  g_variant_builder_init (&fb, G_VARIANT_TYPE ("a{su}"));
  g_hash_table_iter_init (&it, s->fallback_symbols);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_variant_builder_add (&fb, "{su}", (const char *) k, GPOINTER_TO_UINT (v));
  g_variant_builder_init (&rb, G_VARIANT_TYPE ("a{ss}"));
  g_hash_table_iter_init (&it, s->fallback_reasons);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_variant_builder_add (&rb, "{ss}", (const char *) k, (const char *) v);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "regions_fused", g_variant_new_uint32 (s->regions_fused));
  g_variant_builder_add (&b, "{sv}", "plan_kernels", g_variant_new_uint32 (s->plan_kernels));
  g_variant_builder_add (&b, "{sv}", "ops_generated", g_variant_new_uint32 (s->ops_generated));
  g_variant_builder_add (&b, "{sv}", "matmuls", g_variant_new_uint32 (s->matmuls));
  g_variant_builder_add (&b, "{sv}", "fallbacks", g_variant_new_uint32 (s->fallbacks));
  g_variant_builder_add (&b, "{sv}", "fallback_symbols", g_variant_builder_end (&fb));
  g_variant_builder_add (&b, "{sv}", "fallback_reasons", g_variant_builder_end (&rb));
  g_variant_builder_add (&b, "{sv}", "nvrtc_compiles", g_variant_new_uint32 (ns.compiles));
  g_variant_builder_add (&b, "{sv}", "nvrtc_hits", g_variant_new_uint32 (ns.hits));
  g_variant_builder_add (&b, "{sv}", "compile_ms", g_variant_new_double (ns.compile_ms));
  g_variant_builder_add (&b, "{sv}", "retries", g_variant_new_uint32 (retries));
  return g_variant_builder_end (&b);
}

/* -- CUDA graphs (RUN with `cuda_graphs`) ------------------------------------------------------------
 * After the warm-up runs (plans compiled, cuBLASLt's workspace allocated) the program, forward and
 * backward, is captured once as a CUDA graph (wb-cuda-graph.h), replayed once untimed, and replayed for
 * each timed iteration. With `profile` the capture is a profiled iteration: its CUDA events become
 * event-record nodes, every replay records them again and is read like any timed iteration (entry times;
 * CUPTI's kernels, whose correlation ids are the graph launch's, are attributed by the entries' time
 * ranges). If those events give no times the iterations are timed as a whole by events around each launch.
 * Work the graph cannot hold (a cpu fallback, a synchronisation, a host read) fails the capture; the timed
 * iterations then run without a graph. Either way the result's cuda_graphs_note says what happened. */

typedef struct
{
  Runner       *r;
  WbProgram    *program;
  WbRunOptions *options;
  GPtrArray    *args, *cots;
  WbRunResult  *result;  /* the captured run's values: graph memory that holds each replay's results */
  WbCudaGraph  *graph;   /* NULL when not captured */
  gboolean      regions; /* the entries' events work inside the graph */
  gboolean      used;    /* the timed iterations were replays */
  char         *note;
} Graphs;

static gboolean
graphs_body (gpointer data, GError **error)
{
  Graphs *g = data;

  g->r->call = NULL;
  if (g->r->prof)
    prof_begin_iteration (g->r->prof);
  g->result = wb_program_run (g->program, g->options, g->args, g->cots, error);
  if (g->result != NULL && g->r->prof)
    g->r->prof->ev_iter_end = prof_record (g->r->prof);
  return g->result != NULL;
}

static void
graphs_forget_iteration (Prof *p)
{
  if (p == NULL)
    return;
  if (p->entry >= 0 && p->cupti)
    wb_cupti_pop (p->cupti, NULL);
  p->entry = -1;
  p->on = FALSE;
  p->failed = FALSE;
  g_clear_pointer (&p->fail_msg, g_free);
  g_array_set_size (p->iter_start, p->iter_ns->len);
  if (p->cupti && wb_cupti_flush (p->cupti, NULL))
    wb_cupti_collect (p->cupti, NULL, NULL); /* the untimed replay's records */
}

/* Captures and replays once. FALSE only for a fault (the context is lost); otherwise g->graph or g->note. */
static gboolean
graphs_capture (Graphs *g, WbCudaRuntime *rt, guint iters, GError **error)
{
  g_autoptr (GError) local = NULL;
  Prof *p = g->r->prof;

  g->graph = wb_cuda_graph_capture (rt, graphs_body, g, &local);
  if (p != NULL)
    {
      p->on = FALSE;
      g_array_set_size (p->iter_start, p->iter_ns->len);
    }
  if (g->graph != NULL && (!wb_cuda_graph_launch (g->graph, &local) || !wb_cuda_runtime_synchronize (rt, &local)))
    {
      g_clear_pointer (&g->result, wb_run_result_free);
      g_clear_pointer (&g->graph, wb_cuda_graph_free);
      g_prefix_error (&local, "replaying it: ");
    }
  if (g->graph == NULL)
    {
      if (local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_FAULT)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      graphs_forget_iteration (p);
      g_clear_pointer (&g->result, wb_run_result_free);
      if (local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_CAPTURE)
        g->note = g_strdup_printf ("cannot capture a CUDA graph: %s %s; the %u timed iterations ran without one", g->r->call ? g->r->call : "the program",
                                   local->message, iters);
      else
        g->note = g_strdup_printf ("cannot capture a CUDA graph: %s; the %u timed iterations ran without one", local->message, iters);
      g_printerr ("thunder-wb-runner: %s\n", g->note);
      return TRUE;
    }
  if (p != NULL)
    {
      prof_elapsed_ns (p, p->ev_iter_start, p->ev_iter_end);
      g->regions = !p->failed;
      graphs_forget_iteration (p);
    }
  return TRUE;
}

/* One timed replay: like a timed iteration of the program, its events read after the synchronisation. */
static gboolean
graphs_replay (Graphs *g, WbCudaRuntime *rt, GError **error)
{
  Prof  *p = g->r->prof;
  gint64 ns = 0, start;

  if (p != NULL)
    {
      if (p->iter_ns->len == 0)
        p->origin_us = g_get_monotonic_time ();
      start = (g_get_monotonic_time () - p->origin_us) * 1000;
      g_array_append_val (p->iter_start, start);
      p->iter_host_ns = wb_cupti_now_ns ();
    }
  if (!wb_cuda_graph_launch (g->graph, error) || !wb_cuda_runtime_synchronize (rt, error))
    return FALSE;
  if (p == NULL)
    return TRUE;
  if (g->regions)
    {
      float ms = 0;
      /* CUPTI's records are placed by the host time of the iteration's start event: here the graph's first
       * node, which runs the launch latency after the (idle) stream reached the launch */
      if (p->cu->cuEventElapsedTime (&ms, wb_cuda_graph_get_start_event (g->graph), g_array_index (p->events, CUevent, p->ev_iter_start)) == CUDA_SUCCESS)
        p->iter_host_ns += (gint64) ((double) ms * 1e6);
      prof_end_iteration (p);
      if (p->failed)
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "profiling a CUDA graph replay: %s", p->fail_msg ? p->fail_msg : "a CUDA event call failed");
          return FALSE;
        }
      return TRUE;
    }
  if (!wb_cuda_graph_get_last_ns (g->graph, &ns, error))
    return FALSE;
  g_array_append_val (p->iter_ns, ns);
  g_array_set_size (p->entry_ns, (gsize) p->iter_ns->len * wb_profile_get_n_entries (p->profile));
  return TRUE;
}

/* After the last replay: its results against the checked run's, the note; frees the graph. */
static void
graphs_finish (Graphs *g, WbCudaRuntime *rt, WbRunResult *checked, guint iters)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *same = NULL;
  guint            n_out = 0, n_grad = 0;
  double           d_out = 0, d_grad = 0;

  if (g->graph == NULL)
    return;
  if (!wb_cuda_values_compare (rt, g->result->outputs, checked->outputs, &n_out, &d_out, &local) ||
      !wb_cuda_values_compare (rt, g->result->grads, checked->grads, &n_grad, &d_grad, &local))
    same = g_strdup_printf ("its results could not be compared with the checked run's: %s", local->message);
  else if (n_out + n_grad == 0)
    same = g_strdup ("the last replay's outputs and gradients are bit-identical to the checked run's");
  else
    same = g_strdup_printf ("%u outputs and %u gradients of the last replay differ from the checked run's (max |diff| %.3g)", n_out, n_grad,
                            MAX (d_out, d_grad));
  g->note = g_strdup_printf ("CUDA graphs: %s captured once as a graph of %u nodes and replayed for the %u timed iterations; %s; %s",
                             checked->grads != NULL && checked->grads->len > 0 ? "forward and backward were" : "the program was",
                             wb_cuda_graph_get_n_nodes (g->graph), iters, same,
                             g->r->prof == NULL ? "timed as a whole"
                             : g->regions       ? "region times come from CUDA events recorded by the graph's event-record nodes"
                                                : "the events recorded inside the graph gave no times, so only whole iterations are timed "
                                                  "(events around each launch) and the regions show no time");
  g->used = TRUE;
  /* the last replay's memory, then the graph */
  g_clear_pointer (&g->result, wb_run_result_free);
  g_clear_pointer (&g->graph, wb_cuda_graph_free);
}

static void
handle_run (Runner *r, GVariant *req)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) fw = NULL;
  g_autoptr (WbTrace) bw = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) host_args = NULL;
  g_autoptr (GPtrArray) host_cots = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autoptr (GVariant) assign = NULL;
  g_autoptr (GVariant) av = NULL;
  g_autoptr (WbRunResult) result = NULL;
  const char     *text = NULL, *fname = "<trace>", *btext = NULL, *bname = "<trace>", *def = "nvrtc";
  guint64         seed = 0;
  guint32         warmup = 1, iters = 0;
  gboolean        check_shapes = FALSE, profile = FALSE, ceilings = FALSE, cuda_graphs = FALSE;
  double          copy_gbps = 0, bf16_tflops = 0;
  Graphs          graphs = { 0 };
  WbCudaRuntime  *rt;
  WbExecutor     *def_exec;
  WbRunOptions    options;
  guint           retries = 0;
  GArray         *iter_ms = g_array_new (FALSE, FALSE, sizeof (double));
  GVariantBuilder b;
  GVariant       *outs, *grads, *cotv;
  g_autoptr (GVariant) stats = NULL;

  g_variant_lookup (req, "forward", "&s", &text);
  g_variant_lookup (req, "filename", "&s", &fname);
  g_variant_lookup (req, "backward", "&s", &btext);
  g_variant_lookup (req, "backward_filename", "&s", &bname);
  g_variant_lookup (req, "default", "&s", &def);
  g_variant_lookup (req, "seed", "t", &seed);
  g_variant_lookup (req, "warmup", "u", &warmup);
  g_variant_lookup (req, "iters", "u", &iters);
  g_variant_lookup (req, "check_shapes", "b", &check_shapes);
  g_variant_lookup (req, "profile", "b", &profile);
  g_variant_lookup (req, "ceilings", "b", &ceilings);
  g_variant_lookup (req, "cuda_graphs", "b", &cuda_graphs);
  g_clear_pointer (&r->last_region, g_free);

  if ((rt = wb_cuda_runtime_get (&error)) == NULL)
    {
      send_no_gpu (r, error);
      g_array_unref (iter_ms);
      return;
    }
  if (text == NULL || (fw = wb_trace_parse (text, -1, fname, &error)) == NULL ||
      (btext != NULL && (bw = wb_trace_parse (btext, -1, bname, &error)) == NULL) ||
      (program = wb_program_new (fw, bw, &error)) == NULL)
    {
      if (error == NULL)
        g_set_error (&error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "the request has no forward trace");
      send_error (r, error, 2, FALSE);
      g_array_unref (iter_ms);
      return;
    }
  if ((def_exec = wb_cuda_executor_get (def, &error)) == NULL)
    goto fail;
  wb_program_assign (program, NULL, def_exec);
  assign = g_variant_lookup_value (req, "assign", G_VARIANT_TYPE ("a{ss}"));
  if (assign)
    {
      GVariantIter it;
      const char  *name, *exec;
      g_variant_iter_init (&it, assign);
      while (g_variant_iter_next (&it, "{&s&s}", &name, &exec))
        {
          WbExecutor *e = wb_cuda_executor_get (exec, &error);
          if (e == NULL)
            goto fail;
          wb_program_assign (program, name, e);
        }
    }
  av = g_variant_lookup_value (req, "args", G_VARIANT_TYPE ("av"));
  if ((host_args = wb_runner_values_from_variant (av, &error)) == NULL)
    goto fail;
  g_clear_pointer (&av, g_variant_unref);
  av = g_variant_lookup_value (req, "cotangents", G_VARIANT_TYPE ("av"));
  if (av && (host_cots = wb_runner_values_from_variant (av, &error)) == NULL)
    goto fail;
  if ((args = upload_all (rt, host_args, &error)) == NULL || (host_cots && (cots = upload_all (rt, host_cots, &error)) == NULL))
    goto fail;
  g_clear_pointer (&host_args, g_ptr_array_unref);

  wb_run_options_init (&options);
  options.seed = seed;
  options.check_shapes = check_shapes;
  options.call_started = on_call_started;
  options.observer = on_call_done;
  options.observer_data = r;
  if (ceilings && !measure_ceilings (rt, &copy_gbps, &bf16_tflops, &error))
    goto fail;
  if (profile)
    r->prof = prof_new (rt, program);

  /* the checked run: every kernel synchronised, every top-level call announced */
  wb_cuda_executors_begin_run ();
  wb_nvrtc_reset_stats ();
  wb_cuda_runtime_set_sync (rt, TRUE);
  r->announce = TRUE;
  for (;;)
    {
      g_clear_error (&error);
      result = wb_program_run (program, &options, args, cots, &error);
      if (result != NULL || retries >= 16 || error == NULL || strstr (error->message, "(retry: it will be split)") == NULL)
        break;
      retries++;
      wb_cuda_executors_begin_run ();
    }
  r->announce = FALSE;
  if (result == NULL || !wb_cuda_runtime_synchronize (rt, &error))
    goto fail;
  /* what ran where: the checked run's counts (the timed runs repeat them) */
  g_variant_ref_sink ((stats = stats_variant (retries)));
  wb_cuda_runtime_set_sync (rt, g_strcmp0 (g_getenv ("WB_CUDA_SYNC"), "1") == 0);

  /* warm-up and timed runs reuse the checked run's cotangents (already on the device) */
  {
    g_autoptr (GPtrArray) fixed = result->cotangents && result->cotangents->len ? upload_all (rt, result->cotangents, &error) : NULL;
    guint total = (warmup > 0 ? warmup - 1 : 0) + iters;
    for (guint i = 0; i < total; i++)
      {
        g_autoptr (WbRunResult) again = NULL;
        gboolean timed = i + iters >= total;
        gint64   t0;
        if (cuda_graphs && timed && graphs.graph == NULL && graphs.note == NULL)
          {
            /* after the warm-up: capture once, then replay (above handle_run) */
            graphs.r = r, graphs.program = program, graphs.options = &options, graphs.args = args, graphs.cots = fixed ? fixed : cots;
            if (!graphs_capture (&graphs, rt, iters, &error))
              goto fail;
          }
        t0 = now_ns ();
        if (timed && graphs.graph != NULL)
          {
            double ms;
            if (!graphs_replay (&graphs, rt, &error))
              goto fail;
            ms = (now_ns () - t0) / 1e6;
            g_array_append_val (iter_ms, ms);
            continue;
          }
        if (timed && r->prof)
          prof_begin_iteration (r->prof);
        again = wb_program_run (program, &options, args, fixed ? fixed : cots, &error);
        if (timed && r->prof && again != NULL)
          r->prof->ev_iter_end = prof_record (r->prof);
        if (again == NULL || !wb_cuda_runtime_synchronize (rt, &error))
          goto fail;
        if (timed && r->prof)
          {
            prof_end_iteration (r->prof);
            if (r->prof->failed)
              {
                g_set_error (&error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "profiling: %s", r->prof->fail_msg ? r->prof->fail_msg : "a CUDA event call failed");
                goto fail;
              }
          }
        if (timed)
          {
            double ms = (now_ns () - t0) / 1e6;
            g_array_append_val (iter_ms, ms);
          }
      }
    if (cuda_graphs && graphs.graph == NULL && graphs.note == NULL)
      graphs.note = g_strdup ("--cuda-graphs: no timed iterations, nothing was captured");
    graphs_finish (&graphs, rt, result, iters);
  }

  if ((outs = download_all (rt, result->outputs, &error)) == NULL)
    goto fail;
  g_variant_ref_sink (outs);
  if ((grads = download_all (rt, result->grads, &error)) == NULL)
    {
      g_variant_unref (outs);
      goto fail;
    }
  g_variant_ref_sink (grads);
  if ((cotv = download_all (rt, result->cotangents, &error)) == NULL)
    {
      g_variant_unref (outs);
      g_variant_unref (grads);
      goto fail;
    }
  g_variant_ref_sink (cotv);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "kind", g_variant_new_int32 (result->kind));
  g_variant_builder_add (&b, "{sv}", "outputs", outs);
  g_variant_builder_add (&b, "{sv}", "grads", grads);
  g_variant_builder_add (&b, "{sv}", "cotangents", cotv);
  g_variant_builder_add (&b, "{sv}", "flat_args", g_variant_new_strv ((const char *const *) result->flat_args->pdata, result->flat_args->len));
  g_variant_builder_add (&b, "{sv}", "forward_ns", g_variant_new_int64 (result->forward_ns));
  g_variant_builder_add (&b, "{sv}", "backward_ns", g_variant_new_int64 (result->backward_ns));
  g_variant_builder_add (&b, "{sv}", "iter_ms", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, iter_ms->data, iter_ms->len, sizeof (double)));
  {
    const WbCudaDeviceInfo *info = wb_cuda_runtime_get_info (rt);
    g_autofree char        *dev = g_strdup_printf ("%s, %s", info->name, info->arch);
    g_variant_builder_add (&b, "{sv}", "device", g_variant_new_string (dev));
  }
  g_variant_builder_add (&b, "{sv}", "stats", stats);
  {
    const WbCudaDeviceInfo *info = wb_cuda_runtime_get_info (rt);
    g_autofree char        *drv = g_strdup_printf ("%d.%d", info->driver_version / 1000, info->driver_version % 1000 / 10);
    g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string (info->name));
    g_variant_builder_add (&b, "{sv}", "driver", g_variant_new_string (drv));
  }
  if (cuda_graphs)
    {
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_used", g_variant_new_boolean (graphs.used));
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_note", g_variant_new_string (graphs.note));
      g_clear_pointer (&graphs.note, g_free);
    }
  if (ceilings)
    {
      g_variant_builder_add (&b, "{sv}", "copy_gbps", g_variant_new_double (copy_gbps));
      g_variant_builder_add (&b, "{sv}", "bf16_tflops", g_variant_new_double (bf16_tflops));
    }
  if (r->prof)
    {
      g_variant_builder_add (&b, "{sv}", "profile", prof_variant (r->prof));
      g_clear_pointer (&r->prof, prof_free);
    }
  g_variant_unref (outs);
  g_variant_unref (grads);
  g_variant_unref (cotv);
  wb_runner_write_message (r->out, WB_RUNNER_MSG_RESULT, g_variant_builder_end (&b), NULL);
  wb_cuda_executors_end_run ();
  g_array_unref (iter_ms);
  return;

fail:
  g_array_unref (iter_ms);
  if (r->prof)
    {
      r->prof->on = FALSE;
      if (!(error->domain == WB_CUDA_ERROR && error->code == WB_CUDA_ERROR_FAULT))
        g_clear_pointer (&r->prof, prof_free);
    }
  if (error->domain == WB_CUDA_ERROR && error->code == WB_CUDA_ERROR_FAULT)
    {
      /* the context is gone: say where and end the process without touching CUDA again */
      send_error (r, error, 3, TRUE);
      g_output_stream_flush (r->out, NULL, NULL);
      _exit (3);
    }
  g_clear_pointer (&graphs.result, wb_run_result_free);
  g_clear_pointer (&graphs.graph, wb_cuda_graph_free);
  g_free (graphs.note);
  send_error (r, error, exit_code_for (error), FALSE);
  wb_cuda_executors_end_run ();
}

int
main (int argc, char **argv)
{
  Runner r = { 0 };
  g_autoptr (GInputStream) in = NULL;
  GVariantBuilder b;
  int             chan;

  /* the protocol owns the original stdout; anything printed goes to stderr */
  chan = dup (STDOUT_FILENO);
  if (chan < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    return 2;
  r.out = g_unix_output_stream_new (chan, TRUE);
  in = g_unix_input_stream_new (STDIN_FILENO, FALSE);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_int32 (WB_RUNNER_PROTOCOL_VERSION));
  g_variant_builder_add (&b, "{sv}", "pid", g_variant_new_int32 ((gint32) getpid ()));
  if (!wb_runner_write_message (r.out, WB_RUNNER_MSG_HELLO, g_variant_builder_end (&b), NULL))
    return 2;

  for (;;)
    {
      g_autoptr (GVariant) msg = NULL;
      g_autoptr (GError) error = NULL;
      WbRunnerMsgType type;

      if (!wb_runner_read_message (in, &type, &msg, &error))
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED))
            break;
          g_printerr ("thunder-wb-runner: %s\n", error->message);
          return 2;
        }
      switch (type)
        {
        case WB_RUNNER_MSG_PROBE:
          {
            g_autoptr (GError) perr = NULL;
            g_autofree char *desc = wb_cuda_probe (&perr);
            g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
            g_variant_builder_add (&b, "{sv}", "ok", g_variant_new_boolean (desc != NULL));
            g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (desc ? desc : perr->message));
            g_variant_builder_add (&b, "{sv}", "code", g_variant_new_int32 (desc ? 0 : perr->code));
            if (desc != NULL)
              {
                WbCudaRuntime *prt = wb_cuda_runtime_get (NULL);
                if (prt != NULL)
                  g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string (wb_cuda_runtime_get_info (prt)->name));
              }
            wb_runner_write_message (r.out, WB_RUNNER_MSG_PROBE_REPLY, g_variant_builder_end (&b), NULL);
            break;
          }
        case WB_RUNNER_MSG_RUN:
          handle_run (&r, msg);
          break;
        case WB_RUNNER_MSG_QUIT:
          g_object_unref (r.out);
          return 0;
        default:
          g_printerr ("thunder-wb-runner: unexpected message %d\n", type);
          return 2;
        }
    }
  g_object_unref (r.out);
  g_free (r.last_region);
  return 0;
}
