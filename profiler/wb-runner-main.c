/* wb-runner-main.c — thunder-wb-runner: the process that runs programs on the GPU
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Started by the app and the headless commands (wb-runner.h); speaks wb-runner-protocol.h on stdin and the
 * original stdout, which it keeps for the protocol alone (file descriptor 1 is pointed at stderr so
 * nothing printed by a library can corrupt a message). A run: parse the program's traces, assign the
 * runner's executors (executors/cuda/wb-cuda-executors.h), upload the arguments once, run it once checked
 * (synchronising after every kernel and announcing every top-level call, so a fault names its region),
 * then warm-up and timed runs (each synchronised at its end; every phase's iterations reported with a
 * rate-limited PROGRESS, wb_runner_send_iteration), and return the checked run's outputs,
 * gradients and cotangents with the timings and what ran where. A kernel fault loses the CUDA context for
 * good: the runner reports it (fatal) and exits with status 3; the caller starts a fresh runner.
 * Exit: 0 after QUIT or end of input, 3 after a fault, 2 on a protocol error. */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <nvtx3/nvToolsExt.h>
#include <string.h>
#include <unistd.h>

#include "wb-cuda-toolkit.h"
#include "wb-profiler.h"
#include "wb-runner-host-trace.h"
#include "wb-runner-main-private.h"
#include "wb-runner-prof.h"

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
  Runner *r = data;
  guint   line;

  r->call = bsym->name;
  _wb_runner_memory_call (&r->mem, bsym); /* where the memory plan put its outputs */
  /* first: a call placed on the second stream has its events recorded there (wb-cuda-executors.h). A fork
   * that fails leaves it on the run's stream; the failure shows in the call itself */
  if (!wb_cuda_executors_call_starting (trace, bsym, NULL))
    g_debug ("thunder-wb-runner: %s stays on the run's stream", bsym->name);
  /* every top-level call is an NVTX range named after it, for Nsight Systems and other NVTX tools (a no-op
   * without one); cuBLASLt calls nest their own (wb-cublaslt.c) */
  nvtxRangePushA (bsym->name);
  wb_host_trace_mark (r->host_trace, bsym->name, FALSE);
  if (r->prof)
    wb_runner_prof_call_started (r->prof, bsym);
  if (!r->announce)
    return;
  _wb_runner_calls_started ();
  line = wb_trace_get_bsym_line (trace, bsym);
  g_free (r->last_region);
  r->last_region = line ? g_strdup_printf ("%s:%u: %s", trace->filename ? trace->filename : "<trace>", line, bsym->name)
                        : g_strdup (bsym->name);
  wb_runner_send_call (r->out, bsym->name, line, trace->filename ? trace->filename : "<trace>", NULL);
}

static void
on_call_done (const WbTrace *trace, const WbBsym *bsym, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer data)
{
  Runner *r = data;

  nvtxRangePop ();
  wb_host_trace_mark (r->host_trace, bsym->name, TRUE);
  if (r->prof)
    wb_runner_prof_call_done (r->prof, bsym);
  wb_cuda_executors_call_finished (bsym, args, n_args, result); /* last: after the entry's end event */
  _wb_runner_memory_call_done (&r->mem);
  if (r->announce)
    _wb_runner_calls_done (bsym);
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

static gboolean
events_record (WbCudaRuntime *rt, CUevent ev[2], int which, GError **error)
{
  const WbCuApi *cu = wb_cuda_runtime_get_api (rt);

  if (ev[which] == NULL && !wb_cuda_check (cu->cuEventCreate (&ev[which], CU_EVENT_DEFAULT), "cuEventCreate", error))
    return FALSE;
  return wb_cuda_check (wb_cuda_runtime_record_event (rt, ev[which]), "cuEventRecord", error);
}

static void
events_free (WbCudaRuntime *rt, CUevent ev[2])
{
  for (int i = 0; i < 2; i++)
    if (ev[i] != NULL)
      wb_cuda_runtime_get_api (rt)->cuEventDestroy (ev[i]);
}

/* -- RUN ----------------------------------------------------------------------------------------------
 * handle_run answers one RUN request in protocol steps: read the request (run_init), parse its traces
 * (run_parse), assign the executors and upload the arguments (run_prepare), the checked run (run_checked),
 * the warm-up, timed and traced iterations (run_timed), then the RESULT message (send_result) or the
 * ERROR one (run_failed). */

typedef struct
{
  /* the request's fields (borrowed from it) */
  const char *text, *fname, *btext, *bname, *def;
  guint64     seed;
  guint32     warmup, iters;
  gboolean    check_shapes, profile, ceilings, cuda_graphs, allow_cpu_fallback;
  gboolean    launch_list; /* without CUDA graphs: replay a flat launch list (wb-runner-main-private.h) */
  gboolean    memory_plan; /* the static memory plan (wb-runner-memory.c); default on */

  WbCudaRuntime  *rt;
  WbTrace        *fw, *bw;
  WbProgram      *program;
  GPtrArray      *args, *cots; /* on the device, uploaded once for every run */
  GPtrArray      *host_args;   /* as the request sent them */
  WbRunnerShmMap *shm_in;      /* (nullable) the request's memfd, under its large tensors (host_args' too) */
  WbWrittenInputs written;     /* those the checked run wrote into, restored before every later run */
  WbRunOptions    options;
  WbRunResult    *result; /* the checked run's */
  GVariant       *stats;  /* what ran where, counted in the checked run */
  double          copy_gbps, bf16_tflops;
  /* the runs after it */
  Graphs       graphs;
  GArray      *iter_ms, *iter_gpu_ms; /* double: each timed iteration's host and GPU time */
  CUevent      gpu_ev[2];             /* around each unprofiled timed run */
  guint        side_calls, side_joins;
  WbRunResult *last_side; /* the last run, when it used the second stream, compared with the checked run's */
  char        *side_note;
} Run;

static void
run_init (Run *run, GVariant *req)
{
  gboolean allow_tf32 = FALSE, autotune = FALSE;

  run->fname = run->bname = "<trace>";
  run->warmup = 1;
  run->memory_plan = TRUE;
  run->iter_ms = g_array_new (FALSE, FALSE, sizeof (double));
  run->iter_gpu_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_variant_lookup (req, "forward", "&s", &run->text);
  g_variant_lookup (req, "filename", "&s", &run->fname);
  g_variant_lookup (req, "backward", "&s", &run->btext);
  g_variant_lookup (req, "backward_filename", "&s", &run->bname);
  g_variant_lookup (req, "default", "&s", &run->def);
  g_variant_lookup (req, "seed", "t", &run->seed);
  g_variant_lookup (req, "warmup", "u", &run->warmup);
  g_variant_lookup (req, "iters", "u", &run->iters);
  g_variant_lookup (req, "check_shapes", "b", &run->check_shapes);
  g_variant_lookup (req, "profile", "b", &run->profile);
  g_variant_lookup (req, "ceilings", "b", &run->ceilings);
  g_variant_lookup (req, "cuda_graphs", "b", &run->cuda_graphs);
  run->launch_list = !run->cuda_graphs && g_strcmp0 (g_getenv ("WB_LAUNCH_LIST"), "0") != 0;
  g_variant_lookup (req, "allow_cpu_fallback", "b", &run->allow_cpu_fallback);
  g_variant_lookup (req, "memory_plan", "b", &run->memory_plan);
  wb_cuda_executors_set_cpu_fallback (run->allow_cpu_fallback);
  g_variant_lookup (req, "allow_tf32", "b", &allow_tf32);
  wb_cuda_executors_set_tf32 (allow_tf32);
  g_variant_lookup (req, "autotune", "b", &autotune);
  wb_cuda_executors_set_autotune (autotune);
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->iter_ms, g_array_unref);
  g_clear_pointer (&run->side_note, g_free);
  g_clear_pointer (&run->last_side, wb_run_result_free);
  g_clear_pointer (&run->stats, g_variant_unref);
  g_clear_pointer (&run->iter_gpu_ms, g_array_unref);
  g_clear_pointer (&run->result, wb_run_result_free);
  g_clear_pointer (&run->cots, g_ptr_array_unref);
  g_clear_pointer (&run->args, g_ptr_array_unref);
  g_clear_pointer (&run->host_args, g_ptr_array_unref);
  g_clear_pointer (&run->shm_in, wb_runner_shm_map_unref);
  _wb_runner_written_inputs_clear (&run->written);
  g_clear_pointer (&run->program, wb_program_unref);
  g_clear_pointer (&run->bw, wb_trace_unref);
  g_clear_pointer (&run->fw, wb_trace_unref);
}

/* The request's traces and their program */
static gboolean
run_parse (Run *run, GError **error)
{
  if (run->text == NULL || (run->fw = wb_trace_parse (run->text, -1, run->fname, error)) == NULL ||
      (run->btext != NULL && (run->bw = wb_trace_parse (run->btext, -1, run->bname, error)) == NULL) ||
      (run->program = wb_program_new (run->fw, run->bw, error)) == NULL)
    {
      if (*error == NULL)
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "the request has no forward trace");
      return FALSE;
    }
  return TRUE;
}

/* The executors of the program's calls, its arguments and cotangents on the device, the run's options,
 * the ceilings and the profiler when the request asks for them */
static gboolean
run_prepare (Runner *r, Run *run, GVariant *req, GError **error)
{
  g_autoptr (GPtrArray) host_args = NULL;
  g_autoptr (GPtrArray) host_cots = NULL;
  g_autoptr (GVariant) assign = NULL;
  g_autoptr (GVariant) calls = NULL;
  g_autoptr (GVariant) av = NULL;
  g_autoptr (GVariant) cv = NULL;
  const char *def = run->def;
  WbExecutor *def_exec;

  wb_cuda_executors_set_program (wb_program_get_forward (run->program), wb_program_get_backward (run->program));
  if (def == NULL)
    def = wb_executor_info_get_name (wb_executor_info_get_default (TRUE));
  if ((def_exec = wb_cuda_executor_get (def, error)) == NULL)
    return FALSE;
  wb_program_assign (run->program, NULL, def_exec);
  assign = g_variant_lookup_value (req, "assign", G_VARIANT_TYPE ("a{ss}"));
  if (assign && !_wb_runner_assign_choices (run->program, assign, error))
    return FALSE;
  calls = g_variant_lookup_value (req, "calls", G_VARIANT_TYPE ("a{us}"));
  if (calls && !_wb_runner_assign_calls (run->program, calls, error))
    return FALSE;
  _wb_runner_stats_reset ();
  if (!_wb_runner_join_group (run->rt, req, error))
    return FALSE;
  /* the regions' kernels compiled on every core now, not one after another as the checked run meets them */
  _wb_runner_stats_precompile (run->rt, run->program);
  av = g_variant_lookup_value (req, "args", G_VARIANT_TYPE ("av"));
  if ((host_args = wb_runner_values_from_variant_shm (av, run->shm_in, error)) == NULL)
    return FALSE;
  cv = g_variant_lookup_value (req, "cotangents", G_VARIANT_TYPE ("av"));
  if (cv && (host_cots = wb_runner_values_from_variant_shm (cv, run->shm_in, error)) == NULL)
    return FALSE;
  if ((run->args = _wb_runner_upload_all (run->rt, host_args, error)) == NULL ||
      (host_cots && (run->cots = _wb_runner_upload_all (run->rt, host_cots, error)) == NULL))
    return FALSE;
  run->host_args = g_steal_pointer (&host_args);
  /* the plan (its arena comes after the checked run: _wb_runner_memory_arm) */
  _wb_runner_memory_prepare (&r->mem, run->rt, run->program, run->memory_plan);

  wb_run_options_init (&run->options);
  /* bisect's check of one call, or coverage's of every call: against the runner's cpu executor */
  _wb_runner_checks_setup (req, run->program, &run->options);
  run->options.seed = run->seed;
  run->options.world_size = wb_cuda_nccl_get_world_size (); /* the communicator's: the group's, or 1 */
  run->options.check_shapes = run->check_shapes;
  run->options.call_started = on_call_started;
  run->options.observer = on_call_done;
  run->options.observer_data = r;
  if (run->ceilings && !wb_runner_measure_ceilings (run->rt, &run->copy_gbps, &run->bf16_tflops, error))
    return FALSE;
  if (run->profile)
    r->prof = wb_runner_prof_new (run->rt, run->program);
  return TRUE;
}

/* Before the checked run: index records an earlier program's unchecked runs left set (the runner serves several
 * programs) would be read as this run's; they were that run's to report (note_index_errors). */
static gboolean
clear_index_errors (Run *run, GError **error)
{
  guint64 n;
  gint64  index, dim;

  return wb_cuda_runtime_take_index_errors (run->rt, &n, &index, &dim, error);
}

/* After the runs that follow the checked one: indices they found out of range and clamped (the checked run
 * fails on the first such call), added to the note: those runs' values are not the checked run's. */
static gboolean
note_index_errors (Run *run, GError **error)
{
  guint64          n;
  gint64           index, dim;
  g_autofree char *was = NULL;

  if (!wb_cuda_runtime_take_index_errors (run->rt, &n, &index, &dim, error))
    return FALSE;
  if (n == 0)
    return TRUE;
  was = g_steal_pointer (&run->graphs.note);
  run->graphs.note = g_strdup_printf ("%s%sthe runs after the checked one found %" G_GUINT64_FORMAT " index values out of range (index %" G_GINT64_FORMAT
                                      " for a dim of size %" G_GINT64_FORMAT "), clamped on the GPU: their values are not the checked run's",
                                      was ? was : "", was ? "; " : "", n, index, dim);
  g_printerr ("thunder-wb-runner: %s\n", run->graphs.note);
  return TRUE;
}

/* The checked run: every kernel synchronised, every top-level call announced; a region the executors
 * split on the way is run again (at most 16 times). Then what ran where (the timed runs repeat it). */
static gboolean
run_checked (Runner *r, Run *run, GError **error)
{
  guint retries = 0;

  wb_cuda_executors_begin_run ();
  if (!clear_index_errors (run, error))
    return FALSE;
  wb_nvrtc_reset_stats ();
  wb_cuda_attention_reset_stats ();
  wb_cuda_conv_reset_stats ();
  _wb_runner_calls_reset ();
  wb_cuda_runtime_set_sync (run->rt, TRUE);
  _wb_runner_memory_begin (&r->mem); /* inputs and cotangents are on the device: the run's peak is above them */
  r->announce = TRUE;
  for (;;)
    {
      g_clear_error (error);
      run->result = wb_program_run (run->program, &run->options, run->args, run->cots, error);
      if (run->result != NULL || retries >= 16 || *error == NULL || strstr ((*error)->message, "(retry: it will be split)") == NULL)
        break;
      retries++;
      wb_cuda_executors_begin_run ();
    }
  r->announce = FALSE;
  run->options.check_call = NULL; /* checked once: the runs after it are timed */
  run->options.check_all = FALSE;
  if (run->result == NULL || !wb_cuda_nccl_join_all (run->rt, error) || !wb_cuda_runtime_synchronize (run->rt, error))
    return FALSE;
  _wb_runner_memory_end (&r->mem, TRUE);
  if (run->warmup > 1 || run->iters > 0) /* later runs (the checked run is the first warm-up) */
    _wb_runner_memory_arm (&r->mem);     /* its results are the pool's: no later run or replay writes them */
  g_variant_ref_sink ((run->stats = _wb_runner_stats_variant (retries)));
  if ((run->warmup > 0 || run->iters > 0) && !_wb_runner_find_written_inputs (run->rt, run->args, run->host_args, &run->written, error))
    return FALSE;
  wb_cuda_runtime_set_sync (run->rt, g_strcmp0 (g_getenv ("WB_CUDA_SYNC"), "1") == 0);
  return TRUE;
}

/* One graph replay after the warm-up (timed: its host time, and its GPU time when not profiling) */
static gboolean
run_replay (Runner *r, Run *run, gboolean timed, GError **error)
{
  gint64 t0 = now_ns ();
  double ms;
  gint64 gns = 0;

  if (!_wb_runner_restore_inputs (run->rt, &run->written, error) || !_wb_runner_graphs_replay (&run->graphs, run->rt, error))
    return FALSE;
  ms = (now_ns () - t0) / 1e6;
  if (timed && r->prof == NULL && wb_cuda_graph_get_last_ns (run->graphs.graph, &gns, NULL))
    {
      double gms = gns / 1e6;
      g_array_append_val (run->iter_gpu_ms, gms);
    }
  if (timed)
    g_array_append_val (run->iter_ms, ms);
  return TRUE;
}

/* One run of the program after the checked one, on @cots: a warm-up, or (@profiled) a plain, timed or
 * traced iteration of the profiler, or an unprofiled @timed one between a pair of events. */
static gboolean
run_iteration (Runner *r, Run *run, GPtrArray *cots, gboolean timed, gboolean profiled, GError **error)
{
  g_autoptr (WbRunResult) again = NULL;
  WbCudaRuntime     *rt = run->rt;
  WbCudaRuntimeStats before, after;
  gint64             t0 = now_ns ();

  if (profiled)
    wb_runner_prof_begin_iteration (r->prof);
  else if (timed && !events_record (rt, run->gpu_ev, 0, error))
    return FALSE;
  if (timed)
    wb_host_trace_begin (r->host_trace);
  /* the previous run's values, kept for the comparison below, would hold its places of the arena */
  g_clear_pointer (&run->last_side, wb_run_result_free);
  wb_cuda_runtime_get_stats (rt, &before);
  if (!_wb_runner_restore_inputs (rt, &run->written, error))
    return FALSE;
  _wb_runner_memory_begin (&r->mem);
  again = wb_program_run (run->program, &run->options, run->args, cots, error);
  wb_host_trace_end (r->host_trace);
  /* the iteration ends when the side stream's calls have (weight gradients only the return reads), and its
   * collectives */
  if (again != NULL && (!wb_cuda_runtime_join_side (rt, error) || !wb_cuda_nccl_join_all (rt, error)))
    g_clear_pointer (&again, wb_run_result_free);
  wb_cuda_runtime_get_stats (rt, &after);
  run->side_calls = after.side_calls - before.side_calls; /* per run: the last one's */
  run->side_joins = after.side_joins - before.side_joins;
  if (profiled && again != NULL)
    r->prof->ev_iter_end = wb_runner_prof_record (r->prof);
  else if (timed && again != NULL && !events_record (rt, run->gpu_ev, 1, error))
    return FALSE;
  if (again == NULL || !wb_cuda_runtime_synchronize (rt, error))
    return FALSE;
  _wb_runner_memory_end (&r->mem, FALSE); /* with its results: PyTorch's step peak holds the gradients too */
  if (run->side_calls > 0)
    {
      g_clear_pointer (&run->last_side, wb_run_result_free);
      run->last_side = g_steal_pointer (&again); /* its values, compared with the checked run's below */
    }
  if (timed && r->prof == NULL)
    {
      float  ms = 0;
      double gms;
      if (!wb_cuda_check (wb_cuda_runtime_get_api (rt)->cuEventElapsedTime (&ms, run->gpu_ev[0], run->gpu_ev[1]), "cuEventElapsedTime", error))
        return FALSE;
      gms = ms;
      g_array_append_val (run->iter_gpu_ms, gms);
    }
  if (profiled)
    {
      wb_runner_prof_end_iteration (r->prof);
      if (r->prof->failed)
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "profiling: %s", r->prof->fail_msg ? r->prof->fail_msg : "a CUDA event call failed");
          return FALSE;
        }
    }
  if (timed)
    {
      double ms = (now_ns () - t0) / 1e6;
      g_array_append_val (run->iter_ms, ms);
    }
  return TRUE;
}

/* The last run that used the second stream, compared with the checked run's (the note), then dropped */
static void
note_side (Run *run)
{
  if (run->last_side == NULL)
    return;
  g_free (run->side_note);
  run->side_note = _wb_runner_same_as_checked (run->rt, run->last_side, run->result, "the last run", "one stream");
  g_clear_pointer (&run->last_side, wb_run_result_free);
}

/* Iteration @i of run_timed's loop (@warm warm-ups, @n_plain plain, @iters timed, then traced ones) ended
 * after @ns: its PROGRESS, as its phase counts it, rate-limited (wb_runner_send_iteration). A graph's
 * capture and untimed replay count in the first iteration of their phase. */
static void
iteration_done (Runner *r, guint i, guint warm, guint n_plain, guint iters, gint64 ns)
{
  WbRunnerPhase phase;
  guint         first, n;

  if (i < warm)
    phase = WB_RUNNER_PHASE_WARMUP, first = 0, n = warm;
  else if (i < warm + n_plain)
    phase = WB_RUNNER_PHASE_UNPROFILED, first = warm, n = n_plain;
  else if (i < warm + n_plain + iters)
    phase = WB_RUNNER_PHASE_TIMED, first = warm + n_plain, n = iters;
  else
    phase = WB_RUNNER_PHASE_TRACED, first = warm + n_plain + iters, n = iters;
  wb_runner_send_iteration (r->out, &r->limit, phase, i - first + 1, n, ns, NULL);
}

/* Untimed runs right before the first measured one, until WB_SETTLE_MS (default 50 ms; 0: none) of wall
 * time have passed, at most 1,000: a program of tens of microseconds is done with its counted warm-up
 * before the GPU's clocks and caches have settled, and the first measured iterations of one invocation
 * then differ from another's (as Triton's do_bench warms up by time, 25 ms, not by count). Replays when
 * the program was captured, else plain runs. Not in a multi-GPU run (a count that differs between ranks
 * would leave a collective without its peer), nor with --warmup 0. */
static gboolean
settle (Runner *r, Run *run, GPtrArray *cots, GError **error)
{
  const char *env = g_getenv ("WB_SETTLE_MS");
  gint64      budget = (env != NULL ? g_ascii_strtoll (env, NULL, 10) : 50) * 1000000;
  gint64      t0 = now_ns ();

  /* ranks must run as many iterations as each other: their collectives pair up; --warmup 0 asks for no
   * untimed run (the first result as soon as it can be had: a folder of 32 sub-programs paid 1.6 s here) */
  if (wb_cuda_nccl_get_world_size () > 1 || run->warmup == 0)
    return TRUE;
  for (guint n = 0; n < 1000 && now_ns () - t0 < budget; n++)
    if (run->graphs.graph != NULL ? !run_replay (r, run, FALSE, error) : !run_iteration (r, run, cots, FALSE, FALSE, error))
      return FALSE;
  return TRUE;
}

/* Warm-up and timed runs, which reuse the checked run's cotangents (already on the device): warm-up,
 * timed iterations, then (profiling with CUPTI) as many traced ones: CUPTI's per-kernel cost stays out of
 * the times the profile reports, and the kernels come from the traced iterations. With `cuda_graphs` the
 * program is captured after the warm-up and replayed. */
static gboolean
run_timed (Runner *r, Run *run, GError **error)
{
  WbRunResult *result = run->result;
  g_autoptr (GPtrArray) fixed = result->cotangents && result->cotangents->len ? _wb_runner_upload_all (run->rt, result->cotangents, error) : NULL;
  guint iters = run->iters;
  guint warm = run->warmup > 0 ? run->warmup - 1 : 0;
  guint n_plain = r->prof ? iters : 0; /* profiling: first without the entries' events (wb-runner-prof.h) */
  guint n_traced = r->prof && wb_runner_prof_wants_traced_phase (r->prof) ? iters : 0;
  guint total = warm + n_plain + iters + n_traced;

  gboolean replays = run->cuda_graphs || run->launch_list; /* a graph or a launch list after the warm-up */

  run->graphs.list = run->launch_list;
  r->host_trace = r->prof == NULL && !replays ? wb_host_trace_new (run->rt) : NULL;
  wb_runner_progress_limit_init (&r->limit);
  for (guint i = 0; i < total; i++)
    {
      gboolean plain = i >= warm && i < warm + n_plain;
      gboolean timed = i >= warm + n_plain && i < warm + n_plain + iters;
      gboolean traced = i >= warm + n_plain + iters;
      gint64   t0 = now_ns ();
      if (timed && n_plain > 0 && i == warm + n_plain)
        {
          wb_runner_prof_end_plain_phase (r->prof);
          _wb_runner_graphs_drop_plain (&run->graphs);
        }
      if (traced && i == warm + n_plain + iters && !wb_runner_prof_begin_traced_phase (r->prof, error))
        return FALSE;
      if (replays && (plain || timed || traced) && run->graphs.graph == NULL && run->graphs.note == NULL)
        {
          /* after the warm-up: capture once, then replay (the CUDA graphs section above) */
          Graphs *g = &run->graphs;
          g->r = r, g->program = run->program, g->options = &run->options, g->args = run->args, g->cots = fixed ? fixed : run->cots;
          g->written = &run->written;
          /* the last warm-up's values, kept for the comparison, would hold their places of the arena through the
           * capture (its gradients and outputs cover most of it: every place under them missed) */
          note_side (run);
          _wb_runner_memory_begin (&r->mem);
          _wb_runner_phases_mark (&r->phases, WB_RUNNER_SETUP_RUNS);
          if (!_wb_runner_graphs_capture (g, run->rt, iters, error))
            return FALSE;
          _wb_runner_phases_mark (&r->phases, WB_RUNNER_SETUP_CAPTURE);
          if (g->graph != NULL)
            _wb_runner_memory_end (&r->mem, FALSE); /* the captured run's tensors: what every replay holds */
        }
      if (i == warm && (plain || timed || traced) && !settle (r, run, fixed ? fixed : run->cots, error))
        return FALSE;
      if ((plain || timed || traced) && run->graphs.graph != NULL)
        {
          if (!run_replay (r, run, timed, error))
            return FALSE;
        }
      else if (!run_iteration (r, run, fixed ? fixed : run->cots, timed, (plain || timed || traced) && r->prof, error))
        return FALSE;
      iteration_done (r, i, warm, n_plain, iters, now_ns () - t0);
    }
  wb_host_trace_free (g_steal_pointer (&r->host_trace), run->iter_gpu_ms->len ? g_array_index (run->iter_gpu_ms, double, run->iter_gpu_ms->len - 1) : 0);
  if (run->cuda_graphs && run->graphs.graph == NULL && run->graphs.note == NULL)
    run->graphs.note = g_strdup ("--cuda-graphs: no timed iterations, nothing was captured");
  _wb_runner_graphs_finish (&run->graphs, run->rt, result, iters);
  note_side (run);
  if (!note_index_errors (run, error))
    return FALSE;
  return TRUE;
}

/* The RESULT message: the checked run's values (downloaded), the times, what ran where, the device */
static gboolean
send_result (Runner *r, Run *run, GError **error)
{
  WbRunResult            *result = run->result;
  const WbCudaDeviceInfo *info = wb_cuda_runtime_get_info (run->rt);
  const char *const       keys[] = { "outputs", "grads", "cotangents" };
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (GPtrArray) grads = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autofree char *dev = NULL;
  g_autofree char *drv = NULL;
  GVariantBuilder  b;

  if ((outs = _wb_runner_download_all (run->rt, result->outputs, error)) == NULL ||
      (grads = _wb_runner_download_all (run->rt, result->grads, error)) == NULL ||
      (cots = _wb_runner_download_all (run->rt, result->cotangents, error)) == NULL)
    return FALSE;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "kind", g_variant_new_int32 (result->kind));
  /* through one memfd when the caller gave a socket, otherwise inline */
  wb_runner_shm_add_values (&b, &r->shm, keys, (GPtrArray *const[]){ outs, grads, cots }, G_N_ELEMENTS (keys));
  g_variant_builder_add (&b, "{sv}", "flat_args", g_variant_new_strv ((const char *const *) result->flat_args->pdata, result->flat_args->len));
  g_variant_builder_add (&b, "{sv}", "forward_ns", g_variant_new_int64 (result->forward_ns));
  g_variant_builder_add (&b, "{sv}", "backward_ns", g_variant_new_int64 (result->backward_ns));
  g_variant_builder_add (&b, "{sv}", "iter_ms", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, run->iter_ms->data, run->iter_ms->len, sizeof (double)));
  if (r->prof)
    for (guint i = 0; i < r->prof->iter_ns->len; i++)
      {
        double gms = g_array_index (r->prof->iter_ns, gint64, i) / 1e6;
        g_array_append_val (run->iter_gpu_ms, gms);
      }
  if (run->iter_gpu_ms->len > 0)
    g_variant_builder_add (&b, "{sv}", "iter_gpu_ms",
                           g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, run->iter_gpu_ms->data, run->iter_gpu_ms->len, sizeof (double)));
  _wb_runner_memory_add_result (&r->mem, &b);
  dev = g_strdup_printf ("%s, %s", info->name, info->arch);
  g_variant_builder_add (&b, "{sv}", "device", g_variant_new_string (dev));
  g_variant_builder_add (&b, "{sv}", "stats", _wb_runner_stats_with_streams (run->stats, run->side_calls, run->side_joins, run->side_note, _wb_runner_phases_variant (&r->phases)));
  drv = g_strdup_printf ("%d.%d", info->driver_version / 1000, info->driver_version % 1000 / 10);
  g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string (info->name));
  g_variant_builder_add (&b, "{sv}", "driver", g_variant_new_string (drv));
  if (run->launch_list && run->graphs.note != NULL)
    {
      g_variant_builder_add (&b, "{sv}", "launch_list_used", g_variant_new_boolean (run->graphs.used));
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_note", g_variant_new_string (run->graphs.note));
      g_clear_pointer (&run->graphs.note, g_free);
    }
  else if (run->cuda_graphs || run->graphs.note != NULL)
    {
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_used", g_variant_new_boolean (run->graphs.used));
      g_variant_builder_add (&b, "{sv}", "cuda_graphs_note", g_variant_new_string (run->graphs.note));
      g_clear_pointer (&run->graphs.note, g_free);
    }
  if (run->ceilings)
    {
      g_variant_builder_add (&b, "{sv}", "copy_gbps", g_variant_new_double (run->copy_gbps));
      g_variant_builder_add (&b, "{sv}", "bf16_tflops", g_variant_new_double (run->bf16_tflops));
    }
  if (r->prof)
    {
      g_variant_builder_add (&b, "{sv}", "profile", wb_runner_prof_variant (r->prof));
      g_clear_pointer (&r->prof, wb_runner_prof_free);
    }
  wb_runner_write_message (r->out, WB_RUNNER_MSG_RESULT, g_variant_builder_end (&b), NULL);
  return TRUE;
}

/* A failed run: the ERROR message. After a kernel fault the context is gone: say where and end the process
 * without touching CUDA again. */
static void
run_failed (Runner *r, Run *run, const GError *error)
{
  gboolean fault = error->domain == WB_CUDA_ERROR && error->code == WB_CUDA_ERROR_FAULT;

  wb_host_trace_free (g_steal_pointer (&r->host_trace), -1);
  if (!fault)
    events_free (run->rt, run->gpu_ev);
  if (r->prof)
    {
      r->prof->on = FALSE;
      if (!fault)
        g_clear_pointer (&r->prof, wb_runner_prof_free);
    }
  if (fault)
    {
      send_error (r, error, 3, TRUE);
      g_output_stream_flush (r->out, NULL, NULL);
      _exit (3);
    }
  g_clear_pointer (&run->graphs.result, wb_run_result_free);
  g_clear_pointer (&run->graphs.graph, wb_cuda_graph_free);
  g_clear_pointer (&run->graphs.note, g_free);
  send_error (r, error, exit_code_for (error), FALSE);
  wb_cuda_executors_end_run ();
}

static void
handle_run (Runner *r, GVariant *req)
{
  g_autoptr (GError) error = NULL;
  Run run = { 0 };

  run_init (&run, req);
  _wb_runner_phases_begin (&r->phases);
  g_clear_pointer (&r->last_region, g_free);
  /* the request's memfd first, whatever happens next: its descriptor is queued on the socket */
  run.shm_in = wb_runner_shm_receive_for (req, &r->shm, &error);
  if (error != NULL)
    send_error (r, error, 2, FALSE);
  else if ((run.rt = wb_cuda_runtime_get (&error)) == NULL)
    send_no_gpu (r, error);
  else if (!run_parse (&run, &error))
    send_error (r, error, 2, FALSE);
  else if (_wb_runner_phases_mark (&r->phases, WB_RUNNER_SETUP_PARSE) && run_prepare (r, &run, req, &error) &&
           _wb_runner_phases_mark (&r->phases, WB_RUNNER_SETUP_PREPARE) && run_checked (r, &run, &error) &&
           _wb_runner_phases_mark (&r->phases, WB_RUNNER_SETUP_CHECKED) && run_timed (r, &run, &error) &&
           _wb_runner_phases_mark (&r->phases, WB_RUNNER_SETUP_RUNS) && send_result (r, &run, &error))
    {
      wb_cuda_executors_end_run ();
      events_free (run.rt, run.gpu_ev);
    }
  else
    run_failed (r, &run, error);
  run_clear (&run);
  _wb_runner_memory_clear (&r->mem); /* after the results: nothing holds the arena now */
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
  wb_runner_shm_channel_init (&r.shm, wb_runner_shm_socket_from_env ());
  r.phases.start_ns = g_get_monotonic_time () * 1000;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_int32 (WB_RUNNER_PROTOCOL_VERSION));
  g_variant_builder_add (&b, "{sv}", "pid", g_variant_new_int32 ((gint32) getpid ()));
  if (r.shm.sock >= 0)
    g_variant_builder_add (&b, "{sv}", "caps", g_variant_new_strv ((const char *[]){ WB_RUNNER_CAP_MEMFD }, 1));
  if (!wb_runner_write_message (r.out, WB_RUNNER_MSG_HELLO, g_variant_builder_end (&b), NULL))
    return 2;
  /* the CUDA context now, before the first message: a caller that starts the runner ahead (profile) reads its
   * traces and draws its inputs meanwhile; a failure is kept and answered by the probe */
  if (g_strcmp0 (g_getenv ("WB_RUNNER_EARLY"), "0") != 0)
    {
      g_autofree char *ready = wb_cuda_probe (NULL); /* the context, cuBLASLt and NVRTC loaded, as the probe asks */
      if (ready != NULL)
        r.phases.ready_ns = g_get_monotonic_time () * 1000;
    }

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
            if (r.phases.ready_ns == 0)
              r.phases.ready_ns = g_get_monotonic_time () * 1000;
            break;
          }
        case WB_RUNNER_MSG_RUN:
          handle_run (&r, msg);
          break;
        case WB_RUNNER_MSG_NCCL_ID:
          _wb_runner_handle_nccl_id (r.out);
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
  wb_runner_shm_channel_clear (&r.shm);
  return 0;
}
