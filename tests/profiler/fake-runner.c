/* fake-runner.c — a stand-in for thunder-wb-runner on machines without a GPU: HELLO, PROBE and RUN, so
 * that the device choice of WbProfileJob and the app's whole GPU path (request, progress, result, cancel)
 * run in CI
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * FAKE_RUNNER_DEVICE=TEXT: the probe reports that device ("NVIDIA Fake 80GB, sm_90"), model
 * "NVIDIA Fake 80GB"; unset: the probe answers that CUDA is unusable ("no NVIDIA driver (fake)").
 * FAKE_RUNNER_LOG=FILE: each start appends a line "start" to FILE (how many runners a command started).
 * FAKE_RUNNER_PIDFILE=FILE: each start writes its process id to FILE.
 * FAKE_RUNNER_ITER_MS=N: each iteration of every phase takes N ms (default 1), so that a test can cancel a
 * long run. FAKE_RUNNER_CUPTI=0: a profiled run has no traced phase (as without CUPTI).
 * FAKE_RUNNER_REQUEST_LOG=FILE: each RUN appends "allow_cpu_fallback=0|1" (what the caller asked for), and
 * "allow_tf32=1" when the request allows TF32.
 * FAKE_RUNNER_PLAN_LOG=FILE: each RUN appends "memory_plan=0|1|absent" (the request's memory_plan).
 * FAKE_RUNNER_SETUP=1: the RESULT's stats have the real runner's "setup_ms" (start 300, parse 1, prepare 20,
 * checked 40, capture 5, runs 10 ms) and "checked_calls": the program's entries grouped by name, 1.5 ms a call,
 * the five with most calls (ties by name), as wb-runner-stats.c reports the checked run's host time.
 * Shared memory (wb-runner-shm.h): with the caller's socket the fake lists the memfd capability in HELLO (not
 * with FAKE_RUNNER_NO_CAPS=1: an older runner), decodes every RUN's args and cotangents as the real runner
 * does (a bad memfd is an ERROR message) and answers through a memfd too. FAKE_RUNNER_VALUES_LOG=FILE: each RUN
 * appends "request mapped=N inline=M" and "result mapped=N inline=M" (tensors through the memfd and inline).
 * FAKE_RUNNER_ECHO=1: the RESULT's outputs are the args it decoded and its grads the cotangents.
 * NCCL_ID (rank 0 of a multi-GPU run): a made-up id (128 bytes of 0x5a), NCCL "0.0.0-fake"; a RUN of a rank
 * then runs as any other (its collectives are not run), so that a multi-GPU profile's whole path runs in CI.
 * FAKE_RUNNER_TIME_SCALE=S: every entry's time (and so each iteration's) times S (a slower run for a gate).
 * FAKE_RUNNER_REPLAY_NOTE=TEXT: the RESULT carries TEXT as the runner's note on how the timed iterations were
 * repeated (cuda_graphs_note), with cuda_graphs_used when the request asked for graphs and TEXT starts
 * "CUDA graphs:", launch_list_used when it starts "launch list" (as the real runner's notes do).
 * FAKE_RUNNER_EXECUTE=1: RUN runs the program on the cpu executor and answers its results (outputs, grads),
 * as the real runner answers the GPU's; FAKE_RUNNER_BREAK=NAME makes that "GPU" wrong for calls printed
 * NAME (at any depth: a region's ops run on its executor): their float outputs come back 1% too large
 * (FAKE_RUNNER_BREAK_SCALE=S: each element S up or down),
 * unless the request's "calls" put the top-level call holding them on the cpu or on cuda (one kernel per
 * op: right), so that `bisect` has a wrong call to find (test-bisect-cli).
 * FAKE_RUNNER_CRASH=TEXT: a RUN whose forward trace's file name contains TEXT announces its first call and dies
 * (SIGKILL, as a kernel fault ends the real runner); FAKE_RUNNER_FAIL=TEXT: such a RUN answers an ERROR
 * (exit 2) and the runner lives on. A model's sub-programs sharing one runner (profile CASE) use them.
 * RUN: parses the request's traces as the real runner does and takes the program's entries from
 * WbProfile (so the names are the caller's); sends a PROGRESS for each call of the checked run and runs the
 * real runner's phases (warm-up, and with `profile` unprofiled, timed and traced iterations), their
 * PROGRESS messages written and rate-limited by the protocol's own code (wb_runner_send_iteration);
 * answers a RESULT whose profile gives every entry 1 µs times its position and each iteration the sum.
 * FAKE_RUNNER_KERNELS=1 (a profiled run with its traced phase): the profile also has CUPTI's records as the
 * real runner sends them: in each traced iteration one kernel per entry ("fake_kernel_ENTRY", stream 7,
 * inside the entry's time: from 100 ns after its start to 100 ns before its end, attributed by correlation)
 * and the host's calls: a cuLaunchKernel before each kernel (10 to 60 ns after the entry's start, the
 * kernel's correlation id; ids count from 1 over the run) and a cuStreamSynchronize over the iteration's
 * last 200 ns (its own id, no kernel), on thread 4242.
 * Any other message ends it. */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wb-profiler.h"

/* The phases after the checked run, as the real runner runs them (wb-runner-main.c's run_timed): @warm
 * warm-ups, then, profiling, as many unprofiled iterations as timed ones, the timed ones, and (with CUPTI)
 * as many traced ones; each iteration sleeps @sleep_us and sends its PROGRESS through the protocol's own
 * rate limit, as the real runner does. */
static void
run_phases (GOutputStream *out, guint warm, guint iters, gboolean profile, gboolean traced, gulong sleep_us)
{
  const struct
  {
    WbRunnerPhase phase;
    guint         n;
  } phases[] = {
    { WB_RUNNER_PHASE_WARMUP, warm },
    { WB_RUNNER_PHASE_UNPROFILED, profile ? iters : 0 },
    { WB_RUNNER_PHASE_TIMED, iters },
    { WB_RUNNER_PHASE_TRACED, profile && traced ? iters : 0 },
  };
  WbRunnerProgressLimit limit;

  wb_runner_progress_limit_init (&limit);
  for (guint k = 0; k < G_N_ELEMENTS (phases); k++)
    for (guint it = 0; it < phases[k].n; it++)
      {
        gint64 t0 = g_get_monotonic_time ();

        if (sleep_us > 0)
          g_usleep (sleep_us);
        wb_runner_send_iteration (out, &limit, phases[k].phase, it + 1, phases[k].n, (g_get_monotonic_time () - t0) * 1000, NULL);
      }
}

/* FAKE_RUNNER_KERNELS=1: kernels2 and host_calls of @iters traced iterations of @n entries (see above) */
static void
add_cupti_records (GVariantBuilder *p, WbProfile *profile, guint iters)
{
  guint           n = wb_profile_get_n_entries (profile);
  guint64         corr = 0;
  gint64          sum = 0;
  GVariantBuilder k, h;

  for (guint i = 0; i < n; i++)
    sum += 1000 * (i + 1);
  g_variant_builder_init (&k, G_VARIANT_TYPE ("a(siuuuuuuxxuuuuty)"));
  g_variant_builder_init (&h, G_VARIANT_TYPE ("a(sxxuut)"));
  for (guint it = 0; it < iters; it++)
    {
      gint64 at = 0;

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *name = g_strdup_printf ("fake_kernel_%s", wb_profile_get_entry_name (profile, i));
          gint64           len = 1000 * (i + 1);

          corr++;
          g_variant_builder_add (&h, "(sxxuut)", "cuLaunchKernel", at + 10, at + 60, it, (guint32) 4242, corr);
          g_variant_builder_add (&k, "(siuuuuuuxxuuuuty)", name, (gint32) i, 1u, 1u, 1u, 128u, 1u, 1u, at + 100, at + len - 100, it, 32u, 0u, 7u, corr,
                                 (guchar) WB_CUPTI_BY_CORRELATION);
          at += len;
        }
      g_variant_builder_add (&h, "(sxxuut)", "cuStreamSynchronize", sum - 200, sum, it, (guint32) 4242, ++corr);
    }
  g_variant_builder_add (p, "{sv}", "kernels2", g_variant_builder_end (&k));
  g_variant_builder_add (p, "{sv}", "host_calls", g_variant_builder_end (&h));
  g_variant_builder_add (p, "{sv}", "host_calls_over_cap", g_variant_new_uint64 (0));
  g_variant_builder_add (p, "{sv}", "kernel_source", g_variant_new_string ("cupti"));
}

static WbTrace *
parse_member (GVariant *payload, const char *key, const char *name_key)
{
  const char *text = NULL, *name = "<trace>";

  if (!g_variant_lookup (payload, key, "&s", &text))
    return NULL;
  g_variant_lookup (payload, name_key, "&s", &name);
  return wb_trace_parse (text, -1, name, NULL);
}

static GVariant *
int64s (const gint64 *v, gsize n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, v, n, sizeof (gint64));
}

static gboolean
send_failure (GOutputStream *out, const char *message)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (message));
  g_variant_builder_add (&b, "{sv}", "exit", g_variant_new_int32 (2));
  return wb_runner_write_message (out, WB_RUNNER_MSG_ERROR, g_variant_builder_end (&b), NULL);
}

static guint
count_mapped (GPtrArray *values)
{
  guint n = 0;

  for (guint i = 0; values && i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      n += v->kind == WB_RT_TENSOR && wb_tensor_get_external_data (v->tensor) != NULL;
    }
  return n;
}

static void
log_values (const char *what, guint mapped, guint inline_)
{
  FILE *f = g_getenv ("FAKE_RUNNER_VALUES_LOG") ? fopen (g_getenv ("FAKE_RUNNER_VALUES_LOG"), "a") : NULL;

  if (f != NULL)
    {
      fprintf (f, "%s mapped=%u inline=%u\n", what, mapped, inline_);
      fclose (f);
    }
}

/* -- FAKE_RUNNER_EXECUTE: the "GPU" is the cpu executor, wrong for calls named FAKE_RUNNER_BREAK -- */

static WbExecutor *
cpu (void)
{
  return wb_cpu_executor_get ();
}

static const char *
gpu_get_name (WbExecutor *self)
{
  return self->priv != NULL ? "cuda" : "nvrtc";
}

static WbExecutorKind
gpu_get_kind (WbExecutor *self)
{
  return wb_executor_get_kind (cpu ());
}

static gboolean
gpu_can_execute (WbExecutor *self, const WbBsym *bsym, char **why_not)
{
  return wb_executor_can_execute (cpu (), bsym, why_not);
}

/* 1% more, or with FAKE_RUNNER_BREAK_SCALE=S off by S up or down by a hash of the element's index (a uniform
 * scale a batch norm after it would undo): a float tensor's copy */
static WbRtValue *
spoil (WbRtValue *v)
{
  const char *env = g_getenv ("FAKE_RUNNER_BREAK_SCALE");
  double      scale = env != NULL ? g_ascii_strtod (env, NULL) : 0.01;
  g_autoptr (WbTensor) t = NULL;

  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
    {
      for (guint i = 0; v->items != NULL && i < v->items->len; i++)
        v->items->pdata[i] = spoil (v->items->pdata[i]);
      return v;
    }
  if (v->kind != WB_RT_TENSOR || v->tensor->dtype != WB_DTYPE_FLOAT32 || (t = wb_tensor_to_dtype (v->tensor, WB_DTYPE_FLOAT32, NULL)) == NULL)
    return v;
  for (gint64 i = 0; i < wb_tensor_numel (t); i++)
    ((float *) wb_tensor_get_data (t))[i] *= (float) (1.0 + (env == NULL || ((i * 2654435761u) >> 7 & 1) ? scale : -scale));
  wb_rt_value_unref (v);
  return wb_rt_value_new_tensor (t);
}

static gboolean
gpu_run (WbExecutor *self, WbKernelCall *call, GError **error)
{
  const char *broken = g_getenv ("FAKE_RUNNER_BREAK");

  if (!wb_executor_run (cpu (), call, error))
    return FALSE;
  if (self->priv == NULL && g_strcmp0 (call->bsym->name, broken) == 0)
    call->result = spoil (call->result);
  return TRUE;
}

static const WbExecutorVTable gpu_vtable = {
  .abi_version = WB_EXECUTOR_ABI_VERSION,
  .get_name = gpu_get_name,
  .get_kind = gpu_get_kind,
  .can_execute = gpu_can_execute,
  .run = gpu_run,
};

/* request "check_call": the call's outputs on the fake GPU against the cpu, as the real runner reports them */
static GVariant *checked_call;

static void
on_check_done (const WbBsym *bsym, GPtrArray *names, GPtrArray *checked, GPtrArray *got, gpointer data)
{
  g_clear_pointer (&checked_call, g_variant_unref);
  checked_call = g_variant_ref_sink (wb_runner_check_outputs (names, checked, got));
}

/* request "check_all": every call, as the real runner sums them up (wb-runner-check.h) */
static WbRunnerCheck check_all;

static void
on_check_all_done (const WbBsym *bsym, GPtrArray *names, GPtrArray *checked, GPtrArray *got, gpointer data)
{
  wb_runner_check_add (&check_all, bsym->name, names, checked, got);
}

static gboolean
execute (GOutputStream *out, WbRunnerShmChannel *chan, GVariant *payload, WbProgram *program, GPtrArray *args, GPtrArray *cots)
{
  static WbExecutor nvrtc = { &gpu_vtable, NULL }, cuda = { &gpu_vtable, (gpointer) "cuda" };
  g_autoptr (GVariant) calls = g_variant_lookup_value (payload, "calls", G_VARIANT_TYPE ("a{us}"));
  g_autoptr (GError) error = NULL;
  const char *const keys[] = { "outputs", "grads", "cotangents" };
  WbRunResult      *result;
  WbRunOptions      options;
  GVariantBuilder   b;
  GVariantIter      it;
  guint32           ordinal;
  const char       *name;

  wb_program_assign (program, NULL, &nvrtc);
  if (calls != NULL)
    {
      g_variant_iter_init (&it, calls);
      while (g_variant_iter_next (&it, "{u&s}", &ordinal, &name))
        wb_program_assign_call (program, ordinal, g_strcmp0 (name, "cpu") == 0 ? cpu () : &cuda);
    }
  wb_run_options_init (&options);
  g_variant_lookup (payload, "seed", "t", &options.seed);
  if (g_variant_lookup (payload, "check_call", "u", &ordinal) && ordinal < wb_program_get_n_calls (program))
    {
      options.check_call = wb_program_get_call (program, ordinal, NULL);
      options.check_executor = cpu ();
      options.check_done = on_check_done;
    }
  g_clear_pointer (&checked_call, g_variant_unref);
  wb_runner_check_clear (&check_all);
  if (g_variant_lookup (payload, "check_all", "b", &options.check_all) && options.check_all)
    {
      options.check_executor = cpu ();
      options.check_done = on_check_all_done;
    }
  if ((result = wb_program_run (program, &options, args, cots, &error)) == NULL)
    return send_failure (out, error->message);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "kind", g_variant_new_int32 ((gint32) result->kind));
  wb_runner_shm_add_values (&b, chan, keys, (GPtrArray *const[]){ result->outputs, result->grads, result->cotangents }, G_N_ELEMENTS (keys));
  g_variant_builder_add (&b, "{sv}", "flat_args", g_variant_new_strv ((const char *const *) result->flat_args->pdata, result->flat_args->len));
  g_variant_builder_add (&b, "{sv}", "device", g_variant_new_string ("NVIDIA Fake 80GB, sm_90"));
  g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string ("NVIDIA Fake 80GB"));
  if (checked_call != NULL || options.check_all)
    {
      GVariantBuilder stats;

      g_variant_builder_init (&stats, G_VARIANT_TYPE ("a{sv}"));
      if (checked_call != NULL)
        g_variant_builder_add (&stats, "{sv}", "check_call", checked_call);
      if (options.check_all)
        g_variant_builder_add (&stats, "{sv}", "check_all", wb_runner_check_to_variant (&check_all));
      g_variant_builder_add (&b, "{sv}", "stats", g_variant_builder_end (&stats));
    }
  wb_run_result_free (result);
  return wb_runner_write_message (out, WB_RUNNER_MSG_RESULT, g_variant_builder_end (&b), NULL);
}

/* The request's values as the real runner reads them (@args, @cots: transfer full), or FALSE with @error */
static gboolean
read_values (GVariant *payload, WbRunnerShmChannel *chan, GPtrArray **args, GPtrArray **cots, GError **error)
{
  g_autoptr (WbRunnerShmMap) map = wb_runner_shm_receive_for (payload, chan, error);
  g_autoptr (GVariant) av = g_variant_lookup_value (payload, "args", G_VARIANT_TYPE ("av"));
  g_autoptr (GVariant) cv = g_variant_lookup_value (payload, "cotangents", G_VARIANT_TYPE ("av"));
  guint n = 0;

  if (error != NULL && *error != NULL)
    return FALSE;
  *args = av ? wb_runner_values_from_variant_shm (av, map, error) : g_ptr_array_new ();
  if (*args == NULL)
    return FALSE;
  *cots = cv ? wb_runner_values_from_variant_shm (cv, map, error) : NULL;
  if (cv != NULL && *cots == NULL)
    return FALSE;
  for (guint i = 0; i < (*args)->len; i++)
    n += ((WbRtValue *) (*args)->pdata[i])->kind == WB_RT_TENSOR;
  for (guint i = 0; *cots && i < (*cots)->len; i++)
    n += ((WbRtValue *) (*cots)->pdata[i])->kind == WB_RT_TENSOR;
  log_values ("request", count_mapped (*args) + count_mapped (*cots), n - count_mapped (*args) - count_mapped (*cots));
  return TRUE;
}

static int
by_calls (gconstpointer a, gconstpointer b, gpointer counts)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  guint       nx = GPOINTER_TO_UINT (g_hash_table_lookup (counts, x)), ny = GPOINTER_TO_UINT (g_hash_table_lookup (counts, y));

  return nx != ny ? (nx < ny ? 1 : -1) : strcmp (x, y);
}

/* FAKE_RUNNER_SETUP=1: the stats of a run's setup phases and of its checked run's calls (the header's numbers) */
static GVariant *
setup_stats (WbProfile *profile)
{
  static const char *const phases[] = { "start", "parse", "prepare", "checked", "capture", "runs" };
  static const double      ms[] = { 300, 1, 20, 40, 5, 10 };
  g_autoptr (GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gpointer *names = NULL;
  GVariantBuilder      b, sb, cb;
  guint                n;

  for (guint i = 0; i < wb_profile_get_n_entries (profile); i++)
    {
      const char *name = wb_profile_get_entry_name (profile, i);
      g_hash_table_insert (counts, (gpointer) name, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1));
    }
  names = g_hash_table_get_keys_as_array (counts, &n);
  g_qsort_with_data (names, (gint) n, sizeof *names, by_calls, counts);
  g_variant_builder_init (&sb, G_VARIANT_TYPE ("a{sd}"));
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    g_variant_builder_add (&sb, "{sd}", phases[i], ms[i]);
  g_variant_builder_init (&cb, G_VARIANT_TYPE ("a(sdud)"));
  for (guint i = 0; i < n && i < 5; i++)
    {
      guint calls = GPOINTER_TO_UINT (g_hash_table_lookup (counts, names[i]));
      g_variant_builder_add (&cb, "(sdud)", (const char *) names[i], 1.5 * calls, calls, 1.5);
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "setup_ms", g_variant_builder_end (&sb));
  g_variant_builder_add (&b, "{sv}", "checked_calls", g_variant_builder_end (&cb));
  return g_variant_builder_end (&b);
}

/* NCCL_ID: an id of the right size, as the real runner's rank 0 makes one */
static gboolean
nccl_id (GOutputStream *out)
{
  guint8          id[128];
  GVariantBuilder b;

  memset (id, 0x5a, sizeof id);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "ok", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&b, "{sv}", "id", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, id, sizeof id, 1));
  g_variant_builder_add (&b, "{sv}", "nccl_version", g_variant_new_string ("0.0.0-fake"));
  return wb_runner_write_message (out, WB_RUNNER_MSG_NCCL_ID_REPLY, g_variant_builder_end (&b), NULL);
}

/* RUN: progress, then a RESULT (or an ERROR when the traces do not parse or the values do not decode) */
/* whether the request's forward file name contains $@variable (set and not empty) */
static gboolean
file_matches (GVariant *payload, const char *variable)
{
  const char *text = g_getenv (variable), *name = NULL;

  return text != NULL && *text != '\0' && g_variant_lookup (payload, "filename", "&s", &name) && strstr (name, text) != NULL;
}

static gboolean
run (GOutputStream *out, WbRunnerShmChannel *chan, GVariant *payload)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autoptr (WbTrace) fw = parse_member (payload, "forward", "filename");
  g_autoptr (WbTrace) bw = parse_member (payload, "backward", "backward_filename");
  g_autoptr (WbProgram) program = fw ? wb_program_new (fw, bw, NULL) : NULL;
  g_autoptr (WbProfile) profile = program ? wb_profile_new (program, NULL) : NULL;
  guint32            iters = 1, warmup = 1, n;
  gboolean           profiled = FALSE;
  const char        *ms = g_getenv ("FAKE_RUNNER_ITER_MS");
  gulong             sleep_us = ms ? (gulong) g_ascii_strtoull (ms, NULL, 10) * 1000 : 1000;
  GVariantBuilder    b, p, names;
  g_autofree gint64 *iter_ns = NULL, *start_ns = NULL, *entry_ns = NULL;
  gint64             sum = 0, unit = 1000; /* ns per entry position (FAKE_RUNNER_TIME_SCALE) */

  if (!read_values (payload, chan, &args, &cots, &error))
    return send_failure (out, error->message);
  if (profile == NULL)
    return send_failure (out, "fake runner: the traces do not parse");
  if (g_strcmp0 (g_getenv ("FAKE_RUNNER_EXECUTE"), "1") == 0)
    return execute (out, chan, payload, program, args, cots);
  g_variant_lookup (payload, "iters", "u", &iters);
  g_variant_lookup (payload, "warmup", "u", &warmup);
  g_variant_lookup (payload, "profile", "b", &profiled);
  if (g_getenv ("FAKE_RUNNER_REQUEST_LOG") != NULL)
    {
      gboolean allow = FALSE, tf32 = FALSE;
      FILE    *f = fopen (g_getenv ("FAKE_RUNNER_REQUEST_LOG"), "a");

      g_variant_lookup (payload, "allow_cpu_fallback", "b", &allow);
      g_variant_lookup (payload, "allow_tf32", "b", &tf32);
      if (f != NULL)
        {
          fprintf (f, "allow_cpu_fallback=%d\n", allow ? 1 : 0);
          if (tf32)
            fprintf (f, "allow_tf32=1\n");
          fclose (f);
        }
    }
  if (g_getenv ("FAKE_RUNNER_PLAN_LOG") != NULL)
    {
      gboolean plan = FALSE;
      gboolean has = g_variant_lookup (payload, "memory_plan", "b", &plan);
      FILE    *f = fopen (g_getenv ("FAKE_RUNNER_PLAN_LOG"), "a");

      if (f != NULL)
        {
          fprintf (f, "memory_plan=%s\n", !has ? "absent" : plan ? "1"
                                                                 : "0");
          fclose (f);
        }
    }
  n = wb_profile_get_n_entries (profile);
  if (g_getenv ("FAKE_RUNNER_TIME_SCALE") != NULL)
    unit = (gint64) (1000 * g_ascii_strtod (g_getenv ("FAKE_RUNNER_TIME_SCALE"), NULL));
  if (file_matches (payload, "FAKE_RUNNER_FAIL"))
    return send_failure (out, "fake runner: FAKE_RUNNER_FAIL names this program");
  if (file_matches (payload, "FAKE_RUNNER_CRASH"))
    {
      wb_runner_send_call (out, n > 0 ? wb_profile_get_entry_name (profile, 0) : "(none)", 0, NULL, NULL);
      raise (SIGKILL);
    }
  g_variant_builder_init (&names, G_VARIANT_TYPE ("as"));
  for (guint i = 0; i < n; i++)
    {
      wb_runner_send_call (out, wb_profile_get_entry_name (profile, i), 0, NULL, NULL);
      g_variant_builder_add (&names, "s", wb_profile_get_entry_name (profile, i));
      sum += unit * (i + 1);
    }
  iter_ns = g_new0 (gint64, iters + 1);
  start_ns = g_new0 (gint64, iters + 1);
  entry_ns = g_new0 (gint64, (gsize) iters * n + 1);
  run_phases (out, warmup > 0 ? warmup - 1 : 0, iters, profiled, g_strcmp0 (g_getenv ("FAKE_RUNNER_CUPTI"), "0") != 0, sleep_us);
  for (guint it = 0; it < iters; it++)
    {
      iter_ns[it] = sum;
      start_ns[it] = (gint64) it * (sum + 1000);
      for (guint i = 0; i < n; i++)
        entry_ns[(gsize) it * n + i] = unit * (i + 1);
    }
  g_variant_builder_init (&p, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&p, "{sv}", "entries", g_variant_builder_end (&names));
  g_variant_builder_add (&p, "{sv}", "iter_ns", int64s (iter_ns, iters));
  g_variant_builder_add (&p, "{sv}", "iter_start_ns", int64s (start_ns, iters));
  g_variant_builder_add (&p, "{sv}", "entry_ns", int64s (entry_ns, (gsize) iters * n));
  if (profiled && g_strcmp0 (g_getenv ("FAKE_RUNNER_KERNELS"), "1") == 0 && g_strcmp0 (g_getenv ("FAKE_RUNNER_CUPTI"), "0") != 0)
    add_cupti_records (&p, profile, iters);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "kind", g_variant_new_int32 ((gint32) wb_program_get_kind (program)));
  g_variant_builder_add (&b, "{sv}", "device", g_variant_new_string ("NVIDIA Fake 80GB, sm_90"));
  g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string ("NVIDIA Fake 80GB"));
  g_variant_builder_add (&b, "{sv}", "profile", g_variant_builder_end (&p));
  if (g_strcmp0 (g_getenv ("FAKE_RUNNER_SETUP"), "1") == 0)
    g_variant_builder_add (&b, "{sv}", "stats", setup_stats (profile));
  if (g_getenv ("FAKE_RUNNER_REPLAY_NOTE") != NULL)
    {
      const char *note = g_getenv ("FAKE_RUNNER_REPLAY_NOTE");
      gboolean    graphs = FALSE;

      g_variant_lookup (payload, "cuda_graphs", "b", &graphs);
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_note", g_variant_new_string (note));
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_used", g_variant_new_boolean (graphs && g_str_has_prefix (note, "CUDA graphs:")));
      g_variant_builder_add (&b, "{sv}", "launch_list_used", g_variant_new_boolean (g_str_has_prefix (note, "launch list")));
    }
  if (g_strcmp0 (g_getenv ("FAKE_RUNNER_ECHO"), "1") == 0)
    {
      const char *const keys[] = { "outputs", "grads" };

      wb_runner_shm_add_values (&b, chan, keys, (GPtrArray *const[]){ args, cots }, G_N_ELEMENTS (keys));
      log_values ("result", chan->last_mapped, chan->last_inline);
    }
  return wb_runner_write_message (out, WB_RUNNER_MSG_RESULT, g_variant_builder_end (&b), NULL);
}

static gboolean
probe (GOutputStream *out, const char *device)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "ok", g_variant_new_boolean (device != NULL));
  g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (device ? device : "no NVIDIA driver (fake)"));
  if (device != NULL)
    g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string ("NVIDIA Fake 80GB"));
  return wb_runner_write_message (out, WB_RUNNER_MSG_PROBE_REPLY, g_variant_builder_end (&b), NULL);
}

static gboolean
log_start (void)
{
  const char *log = g_getenv ("FAKE_RUNNER_LOG");
  const char *pidfile = g_getenv ("FAKE_RUNNER_PIDFILE");

  if (log != NULL)
    {
      FILE *f = fopen (log, "a");

      if (f == NULL)
        return FALSE;
      fputs ("start\n", f);
      fclose (f);
    }
  if (pidfile != NULL)
    {
      g_autofree char *pid = g_strdup_printf ("%d\n", (int) getpid ());

      return g_file_set_contents (pidfile, pid, -1, NULL);
    }
  return TRUE;
}

int
main (void)
{
  g_autoptr (GOutputStream) out = g_unix_output_stream_new (1, FALSE);
  g_autoptr (GInputStream) in = g_unix_input_stream_new (0, FALSE);
  const char        *device = g_getenv ("FAKE_RUNNER_DEVICE");
  GVariantBuilder    b;
  WbRunnerMsgType    type;
  WbRunnerShmChannel chan;

  if (!log_start ())
    return 1;
  wb_runner_shm_channel_init (&chan, g_strcmp0 (g_getenv ("FAKE_RUNNER_NO_CAPS"), "1") == 0 ? -1 : wb_runner_shm_socket_from_env ());
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_int32 (WB_RUNNER_PROTOCOL_VERSION));
  g_variant_builder_add (&b, "{sv}", "pid", g_variant_new_int32 ((gint32) getpid ()));
  if (chan.sock >= 0)
    g_variant_builder_add (&b, "{sv}", "caps", g_variant_new_strv ((const char *[]){ WB_RUNNER_CAP_MEMFD }, 1));
  if (!wb_runner_write_message (out, WB_RUNNER_MSG_HELLO, g_variant_builder_end (&b), NULL))
    return 1;
  for (;;)
    {
      g_autoptr (GVariant) payload = NULL;
      gboolean ok;

      if (!wb_runner_read_message (in, &type, &payload, NULL))
        return 0;
      if (type == WB_RUNNER_MSG_PROBE)
        ok = probe (out, device);
      else if (type == WB_RUNNER_MSG_NCCL_ID)
        ok = nccl_id (out);
      else if (type == WB_RUNNER_MSG_RUN)
        ok = run (out, &chan, payload);
      else
        return 0;
      if (!ok)
        return 1;
    }
}
