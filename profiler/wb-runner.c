/* wb-runner.c — starting and talking to thunder-wb-runner
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-runner.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* clang-format off */
G_DEFINE_QUARK (wb-runner-error-quark, wb_runner_error)
/* clang-format on */

#ifndef WB_LIBEXECDIR
#define WB_LIBEXECDIR "/usr/local/libexec"
#endif

struct _WbRunner
{
  GSubprocess         *proc;
  GOutputStream       *to;
  GInputStream        *from;
  char                *last_region;
  char                *model;
  char                *program;     /* the path it was started from */
  int                  cuda_device; /* its WB_CUDA_DEVICE, -1: the first GPU */
  gboolean             dead;
  WbRunnerProgressFunc progress;
  gpointer             progress_data;
  /* tensor bytes through memfds (wb-runner-shm.h): sock -1 when WB_RUNNER_NO_MEMFD is set, the socket pair
   * could not be made or the runner did not list the capability */
  WbRunnerShmChannel shm;
};

char *
wb_runner_find_program (void)
{
  const char      *env = g_getenv ("WB_RUNNER");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  char            *candidates[4] = { NULL };
  char            *found = NULL;

  if (env != NULL && env[0] != '\0')
    return g_file_test (env, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (env) : NULL;
  if (dir != NULL)
    {
      candidates[0] = g_build_filename (dir, "thunder-wb-runner", NULL);
      candidates[1] = g_build_filename (dir, "..", "profiler", "thunder-wb-runner", NULL);
      candidates[2] = g_build_filename (dir, "..", "..", "profiler", "thunder-wb-runner", NULL);
    }
  candidates[3] = g_build_filename (WB_LIBEXECDIR, "thunder-wb-runner", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      if (found == NULL && candidates[i] && g_file_test (candidates[i], G_FILE_TEST_IS_EXECUTABLE))
        found = g_strdup (candidates[i]);
      g_free (candidates[i]);
    }
  return found;
}

/* wb_runner_write_message without SIGPIPE: a runner that ended while idle (a runner now serves several jobs)
 * makes the write fail with EPIPE instead of ending this process. SIGPIPE is blocked in this thread for the
 * write, and the one the failed write raised is taken back before it is unblocked. */
static gboolean
write_message (WbRunner *r, WbRunnerMsgType type, GVariant *payload, GError **error)
{
  sigset_t pipe_set, old;
  gboolean ok;

  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_set, &old);
  ok = wb_runner_write_message (r->to, type, payload, error);
  if (!ok && !sigismember (&old, SIGPIPE))
    {
      const struct timespec now = { 0 };

      sigtimedwait (&pipe_set, NULL, &now);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return ok;
}

void
wb_runner_free (WbRunner *runner)
{
  if (runner == NULL)
    return;
  if (!runner->dead && runner->to)
    {
      write_message (runner, WB_RUNNER_MSG_QUIT, NULL, NULL);
      g_output_stream_close (runner->to, NULL, NULL);
      g_subprocess_wait (runner->proc, NULL, NULL);
    }
  g_clear_object (&runner->proc);
  wb_runner_shm_channel_clear (&runner->shm);
  g_free (runner->last_region);
  g_free (runner->model);
  g_free (runner->program);
  g_free (runner);
}

gboolean
wb_runner_is_alive (WbRunner *runner)
{
  /* GSubprocess forgets the pid once GLib's worker thread reaped the child: a runner that ended while idle */
  return !runner->dead && g_subprocess_get_identifier (runner->proc) != NULL;
}

const char *
wb_runner_get_program (WbRunner *runner)
{
  return runner->program;
}

int
wb_runner_get_cuda_device (WbRunner *runner)
{
  return runner->cuda_device;
}

const char *
wb_runner_get_last_region (WbRunner *runner)
{
  return runner->last_region;
}

/* The runner ended: how, and what it was running. */
static void
set_crashed (WbRunner *r, const GError *io, GError **error)
{
  g_autofree char *how = NULL;

  r->dead = TRUE;
  g_subprocess_wait (r->proc, NULL, NULL);
  if (g_subprocess_get_if_signaled (r->proc))
    how = g_strdup_printf ("was killed by signal %d (%s)", g_subprocess_get_term_sig (r->proc), g_strsignal (g_subprocess_get_term_sig (r->proc)));
  else if (g_subprocess_get_if_exited (r->proc))
    how = g_strdup_printf ("exited with status %d", g_subprocess_get_exit_status (r->proc));
  else
    how = g_strdup_printf ("stopped answering (%s)", io ? io->message : "?");
  g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_CRASHED, "the GPU runner %s while running %s; the next run starts a fresh runner",
               how, r->last_region ? r->last_region : "(no region yet)");
}

static gboolean
read_msg (WbRunner *r, WbRunnerMsgType *type, GVariant **payload, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (r->dead)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_CRASHED, "the GPU runner is no longer running");
      return FALSE;
    }
  if (!wb_runner_read_message (r->from, type, payload, &local))
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
        {
          g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "%s", local->message);
          return FALSE;
        }
      set_crashed (r, local, error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_msg (WbRunner *r, WbRunnerMsgType type, GVariant *payload, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (r->dead)
    {
      if (payload)
        g_variant_unref (g_variant_ref_sink (payload));
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_CRASHED, "the GPU runner is no longer running");
      return FALSE;
    }
  if (!write_message (r, type, payload, &local))
    {
      set_crashed (r, local, error);
      return FALSE;
    }
  return TRUE;
}

WbRunner *
wb_runner_new (GError **error)
{
  g_autofree char *path = wb_runner_find_program ();

  return wb_runner_new_for_program (path, error);
}

WbRunner *
wb_runner_new_for_program (const char *path, GError **error)
{
  return wb_runner_new_full (path, -1, error);
}

/* The caller's end of a socket pair whose other end the runner gets as WB_RUNNER_SHM_FD (named in
 * WB_RUNNER_SHM_SOCKET), for the memfds of tensor bytes; -1 when WB_RUNNER_NO_MEMFD is set or no pair */
static int
offer_shm_socket (GSubprocessLauncher *launcher)
{
  int              sv[2];
  g_autofree char *num = g_strdup_printf ("%d", WB_RUNNER_SHM_FD);

  if (wb_runner_shm_disabled ())
    return -1;
  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    {
      g_debug ("runner: no socket pair for shared memory (%s): values inline", g_strerror (errno));
      return -1;
    }
  g_subprocess_launcher_take_fd (launcher, sv[1], WB_RUNNER_SHM_FD);
  g_subprocess_launcher_setenv (launcher, WB_RUNNER_SHM_SOCKET_ENV, num, TRUE);
  return sv[0];
}

/* whether HELLO's caps (as) list @cap */
static gboolean
has_cap (GVariant *hello, const char *cap)
{
  g_autofree const char **caps = NULL;

  if (!g_variant_lookup (hello, "caps", "^a&s", &caps))
    return FALSE;
  return g_strv_contains (caps, cap);
}

WbRunner *
wb_runner_new_full (const char *path, int cuda_device, GError **error)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GVariant) hello = NULL;
  WbRunner       *r;
  WbRunnerMsgType type;
  gint32          version = 0;

  if (path == NULL)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NOT_FOUND,
                   "this build has no GPU runner (thunder-wb-runner): configure with -Dcuda=enabled and a CUDA toolkit");
      return NULL;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  if (cuda_device >= 0)
    {
      g_autofree char *dev = g_strdup_printf ("%d", cuda_device);
      g_subprocess_launcher_setenv (launcher, "WB_CUDA_DEVICE", dev, TRUE);
    }
  r = g_new0 (WbRunner, 1);
  r->program = g_strdup (path);
  r->cuda_device = cuda_device >= 0 ? cuda_device : -1;
  wb_runner_shm_channel_init (&r->shm, offer_shm_socket (launcher));
  r->proc = g_subprocess_launcher_spawn (launcher, error, path, NULL);
  if (r->proc == NULL)
    {
      g_prefix_error (error, "cannot start %s: ", path);
      wb_runner_shm_channel_clear (&r->shm);
      g_free (r->program);
      g_free (r);
      return NULL;
    }
  r->to = g_subprocess_get_stdin_pipe (r->proc);
  r->from = g_subprocess_get_stdout_pipe (r->proc);
  if (!read_msg (r, &type, &hello, error))
    {
      g_prefix_error (error, "%s: ", path);
      wb_runner_free (r);
      return NULL;
    }
  g_variant_lookup (hello, "version", "i", &version);
  if (type != WB_RUNNER_MSG_HELLO || version != WB_RUNNER_PROTOCOL_VERSION)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "%s speaks protocol %d, not %d", path, version, WB_RUNNER_PROTOCOL_VERSION);
      wb_runner_free (r);
      return NULL;
    }
  if (!has_cap (hello, WB_RUNNER_CAP_MEMFD))
    {
      /* an older runner, or one that cannot map: everything inline */
      wb_runner_shm_channel_clear (&r->shm);
      wb_runner_shm_channel_init (&r->shm, -1);
    }
  return r;
}

gboolean
wb_runner_probe (WbRunner *r, char **device, GError **error)
{
  g_autoptr (GVariant) reply = NULL;
  WbRunnerMsgType type;
  gboolean        ok = FALSE;
  const char     *msg = "";

  if (!write_msg (r, WB_RUNNER_MSG_PROBE, NULL, error) || !read_msg (r, &type, &reply, error))
    return FALSE;
  if (type != WB_RUNNER_MSG_PROBE_REPLY)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "unexpected message %d to a probe", type);
      return FALSE;
    }
  g_variant_lookup (reply, "ok", "b", &ok);
  g_variant_lookup (reply, "message", "&s", &msg);
  if (!ok)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NO_GPU, "CUDA is not available: %s", msg);
      return FALSE;
    }
  if (device)
    *device = g_strdup (msg);
  {
    const char *model = NULL;
    if (g_variant_lookup (reply, "model", "&s", &model))
      {
        g_free (r->model);
        r->model = g_strdup (model);
      }
  }
  return TRUE;
}

const char *
wb_runner_get_model (WbRunner *r)
{
  return r->model;
}

void
wb_runner_result_free (WbRunnerResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->result, wb_run_result_free);
  g_clear_pointer (&result->iter_ms, g_array_unref);
  g_clear_pointer (&result->iter_gpu_ms, g_array_unref);
  g_clear_pointer (&result->stats, g_variant_unref);
  g_free (result->device);
  g_free (result->model);
  g_free (result->driver);
  g_free (result->cuda_graphs_note);
  g_clear_pointer (&result->profile, g_variant_unref);
  g_free (result);
}

static int
cmp_kernel_start (gconstpointer a, gconstpointer b)
{
  const WbKernelRecord *x = *(WbKernelRecord *const *) a, *y = *(WbKernelRecord *const *) b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

GPtrArray *
wb_runner_profile_get_kernels (GVariant *profile, const char *const *entries, guint n_entries, const gint64 *iter_start_ns, guint n_iters)
{
  GPtrArray   *kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_kernel_record_free);
  GVariant    *v2 = profile ? g_variant_lookup_value (profile, "kernels2", G_VARIANT_TYPE ("a(siuuuuuuxxuuuuty)")) : NULL;
  GVariant    *v1 = profile && v2 == NULL ? g_variant_lookup_value (profile, "kernels", G_VARIANT_TYPE ("a(siuuuuuuxxu)")) : NULL;
  GVariantIter it;
  const char  *name;
  gint32       entry;
  guint32      g[3], bl[3], iter, regs = 0, shared = 0, stream = 0;
  guint64      corr = 0;
  guchar       by = 0;
  gint64       s, e;

  if (v2 == NULL && v1 == NULL)
    return kernels;
  g_variant_iter_init (&it, v2 ? v2 : v1);
  for (;;)
    {
      WbKernelRecord *kr;
      gboolean        more = v2 ? g_variant_iter_next (&it, "(&siuuuuuuxxuuuuty)", &name, &entry, &g[0], &g[1], &g[2], &bl[0], &bl[1], &bl[2], &s, &e, &iter, &regs, &shared, &stream, &corr, &by)
                                : g_variant_iter_next (&it, "(&siuuuuuuxxu)", &name, &entry, &g[0], &g[1], &g[2], &bl[0], &bl[1], &bl[2], &s, &e, &iter);
      if (!more)
        break;
      if (iter >= n_iters)
        continue;
      kr = wb_kernel_record_new (name, entry >= 0 && (guint) entry < n_entries ? entries[entry] : NULL);
      memcpy (kr->grid, g, sizeof g);
      memcpy (kr->block, bl, sizeof bl);
      kr->start_ns = (iter_start_ns ? iter_start_ns[iter] : 0) + s;
      kr->end_ns = (iter_start_ns ? iter_start_ns[iter] : 0) + MAX (e, s);
      kr->iteration = iter;
      kr->registers = regs;
      kr->shared_bytes = shared;
      kr->stream = stream;
      kr->correlation_id = corr;
      g_ptr_array_add (kernels, kr);
    }
  g_clear_pointer (&v2, g_variant_unref);
  g_clear_pointer (&v1, g_variant_unref);
  g_ptr_array_sort (kernels, cmp_kernel_start); /* CUPTI's buffers need not be in start order */
  return kernels;
}

static int
cmp_host_call_start (gconstpointer a, gconstpointer b)
{
  const WbHostCall *x = *(WbHostCall *const *) a, *y = *(WbHostCall *const *) b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

GPtrArray *
wb_runner_profile_get_host_calls (GVariant *profile, const gint64 *iter_start_ns, guint n_iters, guint64 *over_cap)
{
  GPtrArray   *calls = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_host_call_free);
  GVariant    *v = profile ? g_variant_lookup_value (profile, "host_calls", G_VARIANT_TYPE ("a(sxxuut)")) : NULL;
  GVariantIter it;
  const char  *name;
  gint64       s, e;
  guint32      iter, thread;
  guint64      corr;

  if (over_cap != NULL)
    {
      *over_cap = 0;
      if (profile != NULL)
        g_variant_lookup (profile, "host_calls_over_cap", "t", over_cap);
    }
  if (v == NULL)
    return calls;
  g_variant_iter_init (&it, v);
  while (g_variant_iter_next (&it, "(&sxxuut)", &name, &s, &e, &iter, &thread, &corr))
    {
      WbHostCall *c;

      if (iter >= n_iters)
        continue;
      c = wb_host_call_new (name);
      c->start_ns = (iter_start_ns ? iter_start_ns[iter] : 0) + s;
      c->end_ns = (iter_start_ns ? iter_start_ns[iter] : 0) + MAX (e, s);
      c->iteration = iter;
      c->thread = thread;
      c->correlation_id = corr;
      g_ptr_array_add (calls, c);
    }
  g_variant_unref (v);
  g_ptr_array_sort (calls, cmp_host_call_start);
  return calls;
}

void
wb_runner_profile_get_attribution (GVariant *profile, WbKernelAttribution *out)
{
  const char *source = NULL, *reason = "";

  g_clear_pointer (&out->kernel_source, g_free);
  if (profile == NULL || !g_variant_lookup (profile, "kernel_source", "&s", &source))
    return;
  g_variant_lookup (profile, "kernel_source_reason", "&s", &reason);
  if (g_strcmp0 (source, "cupti") == 0)
    {
      g_autoptr (GVariant) tv = g_variant_lookup_value (profile, "traced_iter_ns", G_VARIANT_TYPE ("ax"));
      g_autoptr (GVariant) iv = g_variant_lookup_value (profile, "iter_ns", G_VARIANT_TYPE ("ax"));
      const char   *corr = "";
      gsize         nt = 0, ni = 0;
      const gint64 *t = tv ? g_variant_get_fixed_array (tv, &nt, sizeof (gint64)) : NULL;
      const gint64 *i = iv ? g_variant_get_fixed_array (iv, &ni, sizeof (gint64)) : NULL;

      g_variant_lookup (profile, "cupti_correlation", "&s", &corr);
      if (nt > 0 && ni > 0)
        {
          double tm = wb_times_median_ns (t, nt) / 1e6, im = wb_times_median_ns (i, ni) / 1e6;
          /* "cupti" first: readers match the prefix */
          out->kernel_source = g_strdup_printf ("cupti (from %u traced iterations after the timed ones: median %.3f ms, %.2fx the "
                                                "timed; joined by %s)",
                                                (guint) nt, tm, im > 0 ? tm / im : 0.0, corr[0] ? corr : "correlation");
        }
      else
        out->kernel_source = g_strdup ("cupti");
    }
  else
    out->kernel_source = g_strdup_printf ("CUDA events (CUPTI unavailable: %s)", reason[0] ? reason : "unknown reason");
  g_variant_lookup (profile, "kernel_ns_total", "x", &out->kernel_ns_total);
  g_variant_lookup (profile, "kernel_ns_attributed", "x", &out->kernel_ns_attributed);
  g_variant_lookup (profile, "kernel_ns_by_time_range", "x", &out->kernel_ns_by_time_range);
  g_variant_lookup (profile, "kernels_by_correlation", "u", &out->kernels_by_correlation);
  g_variant_lookup (profile, "kernels_by_time_range", "u", &out->kernels_by_time_range);
  g_variant_lookup (profile, "kernels_unattributed", "u", &out->kernels_unattributed);
  g_variant_lookup (profile, "memcpy", "(utx)", &out->memcpy_count, &out->memcpy_bytes, &out->memcpy_ns);
  g_variant_lookup (profile, "memset", "(utx)", &out->memset_count, &out->memset_bytes, &out->memset_ns);
  g_variant_lookup (profile, "memops_attributed", "u", &out->memops_attributed);
}

static GPtrArray *
lookup_values (GVariant *dict, const char *key, WbRunnerShmMap *map, GError **error)
{
  g_autoptr (GVariant) av = g_variant_lookup_value (dict, key, G_VARIANT_TYPE ("av"));

  if (av == NULL)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  return wb_runner_values_from_variant_shm (av, map, error);
}

/* The RUN message of @req (floating): its tensors through a memfd when @shm has a socket */
static GVariant *
request_variant (const WbRunnerRequest *req, WbRunnerShmChannel *shm)
{
  const char *const keys[] = { "args", "cotangents" };
  GPtrArray *const  values[] = { req->args, req->cotangents };
  GVariantBuilder   b;
  g_autofree char  *fw = wb_trace_to_string (req->forward);
  g_autofree char  *bw = req->backward ? wb_trace_to_string (req->backward) : NULL;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "forward", g_variant_new_string (fw));
  g_variant_builder_add (&b, "{sv}", "filename", g_variant_new_string (req->forward->filename ? req->forward->filename : "<trace>"));
  if (bw)
    {
      g_variant_builder_add (&b, "{sv}", "backward", g_variant_new_string (bw));
      g_variant_builder_add (&b, "{sv}", "backward_filename",
                             g_variant_new_string (req->backward->filename ? req->backward->filename : "<trace>"));
    }
  g_variant_builder_add (&b, "{sv}", "assign", wb_assignment_to_variant (req->assignment));
  if (req->n_call_executors > 0)
    {
      GVariantBuilder calls;

      g_variant_builder_init (&calls, G_VARIANT_TYPE ("a{us}"));
      for (guint i = 0; i < req->n_call_executors; i++)
        if (req->call_executors[i] != NULL)
          g_variant_builder_add (&calls, "{us}", i, req->call_executors[i]);
      g_variant_builder_add (&b, "{sv}", "calls", g_variant_builder_end (&calls));
    }
  if (req->check)
    g_variant_builder_add (&b, "{sv}", "check_call", g_variant_new_uint32 (req->check_call));
  if (req->check_all)
    g_variant_builder_add (&b, "{sv}", "check_all", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&b, "{sv}", "default", g_variant_new_string (req->default_executor ? req->default_executor : wb_executor_info_get_name (wb_executor_info_get_default (TRUE))));
  g_variant_builder_add (&b, "{sv}", "seed", g_variant_new_uint64 (req->seed));
  g_variant_builder_add (&b, "{sv}", "warmup", g_variant_new_uint32 (req->warmup));
  g_variant_builder_add (&b, "{sv}", "iters", g_variant_new_uint32 (req->iters));
  g_variant_builder_add (&b, "{sv}", "check_shapes", g_variant_new_boolean (req->check_shapes));
  if (req->profile)
    g_variant_builder_add (&b, "{sv}", "profile", g_variant_new_boolean (TRUE));
  if (req->ceilings)
    g_variant_builder_add (&b, "{sv}", "ceilings", g_variant_new_boolean (TRUE));
  if (req->cuda_graphs)
    g_variant_builder_add (&b, "{sv}", "cuda_graphs", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&b, "{sv}", "memory_plan", g_variant_new_boolean (!req->no_memory_plan));
  if (req->allow_cpu_fallback)
    g_variant_builder_add (&b, "{sv}", "allow_cpu_fallback", g_variant_new_boolean (TRUE));
  if (req->allow_tf32)
    g_variant_builder_add (&b, "{sv}", "allow_tf32", g_variant_new_boolean (TRUE));
  if (req->autotune)
    g_variant_builder_add (&b, "{sv}", "autotune", g_variant_new_boolean (TRUE));
  if (req->world_size > 0 && req->nccl_id != NULL)
    {
      g_variant_builder_add (&b, "{sv}", "world_size", g_variant_new_uint32 (req->world_size));
      g_variant_builder_add (&b, "{sv}", "rank", g_variant_new_uint32 (req->rank));
      g_variant_builder_add (&b, "{sv}", "nccl_id", g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, req->nccl_id, TRUE));
    }
  wb_runner_shm_add_values (&b, shm, keys, values, G_N_ELEMENTS (keys));
  g_debug ("runner: RUN with %u tensors (%" G_GINT64_FORMAT " bytes) in a memfd, %u inline%s%s", shm->last_mapped, shm->last_bytes,
           shm->last_inline, shm->last_fallback ? ": " : "", shm->last_fallback ? shm->last_fallback : "");
  return g_variant_builder_end (&b);
}

/* An ERROR message as @error, with the exit status the runner asks for; after a fatal one (a kernel fault)
 * the runner is dead: it is waited for */
static void
error_from_message (WbRunner *r, GVariant *msg, int *exit_code, GError **error)
{
  const char *message = "?", *domain = "", *region = NULL;
  gint32      code = 0, code_exit = 3;
  gboolean    fatal = FALSE;

  g_variant_lookup (msg, "message", "&s", &message);
  g_variant_lookup (msg, "domain", "&s", &domain);
  g_variant_lookup (msg, "code", "i", &code);
  g_variant_lookup (msg, "exit", "i", &code_exit);
  g_variant_lookup (msg, "region", "&s", &region);
  g_variant_lookup (msg, "fatal", "b", &fatal);
  *exit_code = code_exit;
  if (fatal)
    {
      /* the runner lost its context and is exiting: wait for it and say where */
      gboolean named = region && g_str_has_prefix (message, region);
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_CRASHED, "%s%s%s; the GPU runner exited, the next run starts a fresh one",
                   region && !named ? region : "", region && !named ? ": " : "", message);
      r->dead = TRUE;
      g_subprocess_wait (r->proc, NULL, NULL);
    }
  else if (g_strcmp0 (domain, "no-gpu") == 0)
    g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NO_GPU, "CUDA is not available: %s", message);
  else
    g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_FAILED, "%s", message);
}

static GArray *
doubles_of (GVariant *msg, const char *key)
{
  g_autoptr (GVariant) v = g_variant_lookup_value (msg, key, G_VARIANT_TYPE ("ad"));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));

  if (v)
    {
      gsize         n = 0;
      const double *d = g_variant_get_fixed_array (v, &n, sizeof (double));
      g_array_append_vals (out, d, n);
    }
  return out;
}

/* A RESULT message as a result (transfer full), or NULL with @error when its values do not decode; tensors
 * sent through a memfd are received over @shm and stay mapped while any of them lives */
static WbRunnerResult *
result_from_message (GVariant *msg, WbRunnerShmChannel *shm, GError **error)
{
  g_autoptr (GError) map_error = NULL;
  g_autoptr (WbRunnerShmMap) map = wb_runner_shm_receive_for (msg, shm, &map_error);
  g_autoptr (GVariant) flat = g_variant_lookup_value (msg, "flat_args", G_VARIANT_TYPE ("as"));
  const char     *device = "", *model = NULL, *driver = NULL, *note = NULL;
  gint32          kind = 0;
  WbRunnerResult *res;

  if (map_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&map_error));
      return NULL;
    }
  res = g_new0 (WbRunnerResult, 1);
  res->result = g_new0 (WbRunResult, 1);
  if ((res->result->outputs = lookup_values (msg, "outputs", map, error)) == NULL ||
      (res->result->grads = lookup_values (msg, "grads", map, error)) == NULL ||
      (res->result->cotangents = lookup_values (msg, "cotangents", map, error)) == NULL)
    {
      wb_runner_result_free (res);
      return NULL;
    }
  res->result->flat_args = g_ptr_array_new_with_free_func (g_free);
  if (flat)
    {
      gsize                   n = 0;
      g_autofree const char **names = g_variant_get_strv (flat, &n);
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (res->result->flat_args, g_strdup (names[i]));
    }
  g_variant_lookup (msg, "kind", "i", &kind);
  res->result->kind = (WbProgramKind) kind;
  g_variant_lookup (msg, "forward_ns", "x", &res->result->forward_ns);
  g_variant_lookup (msg, "backward_ns", "x", &res->result->backward_ns);
  res->result->value = wb_rt_value_new_none ();
  res->iter_ms = doubles_of (msg, "iter_ms");
  res->iter_gpu_ms = doubles_of (msg, "iter_gpu_ms");
  g_variant_lookup (msg, "device", "&s", &device);
  res->device = g_strdup (device);
  res->stats = g_variant_lookup_value (msg, "stats", G_VARIANT_TYPE ("a{sv}"));
  if (res->stats == NULL)
    res->stats = g_variant_ref_sink (g_variant_new ("a{sv}", NULL));
  if (g_variant_lookup (msg, "model", "&s", &model))
    res->model = g_strdup (model);
  if (g_variant_lookup (msg, "driver", "&s", &driver))
    res->driver = g_strdup (driver);
  g_variant_lookup (msg, "copy_gbps", "d", &res->copy_gbps);
  g_variant_lookup (msg, "bf16_tflops", "d", &res->bf16_tflops);
  g_variant_lookup (msg, "cuda_graphs_used", "b", &res->cuda_graphs_used);
  g_variant_lookup (msg, "launch_list_used", "b", &res->launch_list_used);
  g_variant_lookup (msg, "device_step_peak_bytes", "x", &res->device_step_peak_bytes);
  g_variant_lookup (msg, "device_first_run_peak_bytes", "x", &res->memory.first_run_peak_bytes);
  g_variant_lookup (msg, "allocs_per_iteration", "u", &res->memory.allocs_per_iteration);
  g_variant_lookup (msg, "memory_plan", "b", &res->memory.plan_used);
  g_variant_lookup (msg, "plan_arena_bytes", "x", &res->memory.plan_arena_bytes);
  g_variant_lookup (msg, "plan_sum_bytes", "x", &res->memory.plan_sum_bytes);
  g_variant_lookup (msg, "plan_live_peak_bytes", "x", &res->memory.plan_live_peak_bytes);
  g_variant_lookup (msg, "plan_buffers", "u", &res->memory.plan_buffers);
  g_variant_lookup (msg, "arena_allocs_per_iteration", "u", &res->memory.arena_allocs);
  g_variant_lookup (msg, "arena_misses_per_iteration", "u", &res->memory.arena_misses);
  g_variant_lookup (msg, "arena_unplaced_per_iteration", "u", &res->memory.arena_unplaced);
  if (g_variant_lookup (msg, "cuda_graphs_note", "&s", &note))
    res->cuda_graphs_note = g_strdup (note);
  res->profile = g_variant_lookup_value (msg, "profile", G_VARIANT_TYPE ("a{sv}"));
  return res;
}

/* A PROGRESS message: the call named is where a crash happened; then the progress hook */
static void
on_progress_message (WbRunner *r, GVariant *msg)
{
  WbRunnerProgress p = { 0 };
  const char      *phase = NULL;
  guint32          line = 0, iteration = 0, iterations = 0;

  if (g_variant_lookup (msg, "region", "&s", &p.region))
    {
      g_variant_lookup (msg, "line", "u", &line);
      g_free (r->last_region);
      r->last_region = line ? g_strdup_printf ("%s (line %u)", p.region, line) : g_strdup (p.region);
    }
  g_variant_lookup (msg, "iteration", "u", &iteration);
  g_variant_lookup (msg, "iterations", "u", &iterations);
  g_variant_lookup (msg, "iteration_ns", "x", &p.iteration_ns);
  g_variant_lookup (msg, "phase", "&s", &phase);
  p.line = line;
  p.iteration = iteration;
  p.iterations = iterations;
  p.phase = wb_runner_phase_from_string (phase);
  if (phase == NULL && iterations > 0)
    p.phase = WB_RUNNER_PHASE_TIMED; /* an older runner counted the timed iterations only */
  if (r->progress != NULL)
    r->progress (&p, r->progress_data);
}

WbRunnerResult *
wb_runner_run (WbRunner *r, const WbRunnerRequest *req, int *exit_code, GError **error)
{
  int dummy;

  if (exit_code == NULL)
    exit_code = &dummy;
  *exit_code = 3;
  g_clear_pointer (&r->last_region, g_free);
  if (!write_msg (r, WB_RUNNER_MSG_RUN, request_variant (req, &r->shm), error))
    return NULL;

  /* PROGRESS messages name the region running, then an ERROR or the RESULT */
  for (;;)
    {
      g_autoptr (GVariant) msg = NULL;
      WbRunnerMsgType type;

      if (!read_msg (r, &type, &msg, error))
        return NULL;
      if (type == WB_RUNNER_MSG_PROGRESS)
        {
          on_progress_message (r, msg);
          continue;
        }
      if (type == WB_RUNNER_MSG_ERROR)
        {
          error_from_message (r, msg, exit_code, error);
          return NULL;
        }
      if (type == WB_RUNNER_MSG_RESULT)
        {
          WbRunnerResult *res = result_from_message (msg, &r->shm, error);
          if (res != NULL)
            *exit_code = 0;
          return res;
        }
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "unexpected message %d during a run", type);
      return NULL;
    }
}

void
wb_runner_set_progress (WbRunner *runner, WbRunnerProgressFunc func, gpointer user_data)
{
  g_return_if_fail (runner != NULL);
  runner->progress = func;
  runner->progress_data = user_data;
}

void
wb_runner_kill (WbRunner *runner)
{
  g_return_if_fail (runner != NULL);
  if (runner->proc != NULL)
    g_subprocess_force_exit (runner->proc);
}

const char *
wb_runner_get_pid (WbRunner *runner)
{
  g_return_val_if_fail (runner != NULL, NULL);
  return runner->proc ? g_subprocess_get_identifier (runner->proc) : NULL;
}

GBytes *
wb_runner_get_nccl_id (WbRunner *r, GError **error)
{
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GVariant) id = NULL;
  WbRunnerMsgType type;
  gboolean        ok = FALSE;
  const char     *message = "no reason given";
  gsize           n = 0;
  gconstpointer   data;

  if (!write_msg (r, WB_RUNNER_MSG_NCCL_ID, NULL, error) || !read_msg (r, &type, &reply, error))
    return NULL;
  if (type != WB_RUNNER_MSG_NCCL_ID_REPLY)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_PROTOCOL, "the runner answered NCCL_ID with message %d", type);
      return NULL;
    }
  g_variant_lookup (reply, "ok", "b", &ok);
  g_variant_lookup (reply, "message", "&s", &message);
  id = g_variant_lookup_value (reply, "id", G_VARIANT_TYPE_BYTESTRING);
  if (!ok || id == NULL)
    {
      g_set_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NO_GPU, "NCCL: %s", message);
      return NULL;
    }
  data = g_variant_get_fixed_array (id, &n, 1);
  return g_bytes_new (data, n);
}
