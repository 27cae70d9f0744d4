/* wb-runner-stats.c — the GPU runner's RESULT "stats" (what ran where, compiles, autotuning, the call checks)
 * and the call checks of `bisect` (request "check_call") and coverage (request "check_all")
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from wb-runner-main.c: the statistics are read from the executors after the checked run; the checks
 * run inside it (the interpreter's check_done hook) and keep their figures here until then. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-cuda-toolkit.h"
#include "wb-profiler.h"
#include "wb-runner-main-private.h"

/* the last run's compiles ahead of the checked run (wb_cuda_executors_precompile) */
static struct
{
  guint  units, compiled;
  double ms;
} precompiled;

/* `bisect`'s check of one call (request "check_call", WbRunOptions.check_call): its outputs on its GPU
 * executor against the runner's cpu executor on the same inputs, a(ssdddd): name, dtype, max abs error, max |cpu|,
 * RMS error, RMS of the cpu's; NULL when no call was checked in this run */
static GVariant *checked_call;

/* (transfer full) @values (device or host) as host values, NULL where not a tensor or not downloaded */
static GPtrArray *
host_values (GPtrArray *values)
{
  GPtrArray     *out = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  WbCudaRuntime *rt = wb_cuda_runtime_get (NULL);

  for (guint i = 0; i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      g_autoptr (WbTensor) t = NULL;

      if (v != NULL && v->kind == WB_RT_TENSOR)
        t = v->tensor->device.type != WB_DEVICE_CUDA ? wb_tensor_ref (v->tensor) : rt != NULL ? wb_cuda_download (rt, v->tensor, NULL)
                                                                                              : NULL;
      g_ptr_array_add (out, t != NULL ? wb_rt_value_new_tensor (t) : NULL);
    }
  return out;
}

static void
on_check_done (const WbBsym *bsym, GPtrArray *names, GPtrArray *checked, GPtrArray *got, gpointer data)
{
  g_autoptr (GPtrArray) hc = host_values (checked);
  g_autoptr (GPtrArray) hg = host_values (got);

  g_clear_pointer (&checked_call, g_variant_unref);
  checked_call = g_variant_ref_sink (wb_runner_check_outputs (names, hc, hg));
}

/* Request "check_all" (coverage's call-by-call judge): every call's outputs on its GPU executor against the
 * runner's cpu executor on the same inputs (wb-runner-check.h), stats "check_all" */
static gboolean      check_all_on;
static WbRunnerCheck check_all;

static void
on_check_all_done (const WbBsym *bsym, GPtrArray *names, GPtrArray *checked, GPtrArray *got, gpointer data)
{
  Runner *r = data;
  g_autoptr (GPtrArray) hc = host_values (checked);
  g_autoptr (GPtrArray) hg = host_values (got);

  wb_runner_check_add (&check_all, r->last_region ? r->last_region : bsym->name, names, hc, hg);
}

/* -- the checked run's host time per call ---------------------------------------------------------- */

typedef struct
{
  double ms, max_ms;
  guint  n;
} CallTime;

static struct
{
  GHashTable *by_symbol; /* const char * (the trace's name, or "fusion regions") -> CallTime */
  gint64      start_ns;
} calls;

void
_wb_runner_calls_reset (void)
{
  if (calls.by_symbol == NULL)
    calls.by_symbol = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_remove_all (calls.by_symbol);
}

void
_wb_runner_calls_started (void)
{
  calls.start_ns = g_get_monotonic_time () * 1000;
}

void
_wb_runner_calls_done (const WbBsym *bsym)
{
  const char *key = wb_bsym_is_fusion (bsym) ? "fusion regions" : bsym->name;
  double      ms = (double) (g_get_monotonic_time () * 1000 - calls.start_ns) / 1e6;
  CallTime   *t;

  if (calls.by_symbol == NULL || key == NULL)
    return;
  if ((t = g_hash_table_lookup (calls.by_symbol, key)) == NULL)
    g_hash_table_insert (calls.by_symbol, g_strdup (key), (t = g_new0 (CallTime, 1)));
  t->ms += ms, t->n++;
  t->max_ms = MAX (t->max_ms, ms);
}

static int
by_total_desc (gconstpointer a, gconstpointer b)
{
  const CallTime *x = g_hash_table_lookup (calls.by_symbol, *(const char *const *) a);
  const CallTime *y = g_hash_table_lookup (calls.by_symbol, *(const char *const *) b);
  return x->ms < y->ms ? 1 : x->ms > y->ms ? -1
                                           : 0;
}

/* "checked_calls" a(sdud): the five symbols the checked run spent most host time in */
static GVariant *
calls_variant (void)
{
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (calls.by_symbol, NULL);
  guint                n = g_hash_table_size (calls.by_symbol);
  GVariantBuilder      b;

  qsort (keys, n, sizeof *keys, by_total_desc);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(sdud)"));
  for (guint i = 0; i < n && i < 5; i++)
    {
      const CallTime *t = g_hash_table_lookup (calls.by_symbol, keys[i]);
      g_variant_builder_add (&b, "(sdud)", (const char *) keys[i], t->ms, t->n, t->max_ms);
    }
  return g_variant_builder_end (&b);
}

GVariant *
_wb_runner_stats_variant (guint retries)
{
  const WbCudaDispatchStats *s = wb_cuda_executors_get_stats ();
  WbNvrtcStats               ns;
  GVariantBuilder            b, fb, rb;
  GHashTableIter             it;
  gpointer                   k, v;
  g_autofree char           *attention = NULL, *convolution = NULL;

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
  g_variant_builder_add (&b, "{sv}", "device_rebuilds", g_variant_new_uint32 (s->device_rebuilds));
  if (s->device_rebuild_reason != NULL)
    g_variant_builder_add (&b, "{sv}", "device_rebuild_reason", g_variant_new_string (s->device_rebuild_reason));
  if (wb_cuda_executors_get_autotune ())
    {
      GVariantBuilder cb;
      g_variant_builder_init (&cb, G_VARIANT_TYPE ("as"));
      for (guint i = 0; i < s->autotune_choices->len; i++)
        g_variant_builder_add (&cb, "s", (const char *) s->autotune_choices->pdata[i]);
      g_variant_builder_add (&b, "{sv}", "autotune_tuned", g_variant_new_uint32 (s->autotune_tuned));
      g_variant_builder_add (&b, "{sv}", "autotune_cached", g_variant_new_uint32 (s->autotune_cached));
      g_variant_builder_add (&b, "{sv}", "autotune_changed", g_variant_new_uint32 (s->autotune_changed));
      g_variant_builder_add (&b, "{sv}", "autotune_refused", g_variant_new_uint32 (s->autotune_refused));
      if (s->autotune_refusal != NULL)
        g_variant_builder_add (&b, "{sv}", "autotune_refusal", g_variant_new_string (s->autotune_refusal));
      g_variant_builder_add (&b, "{sv}", "autotune_choices", g_variant_builder_end (&cb));
    }
  g_variant_builder_add (&b, "{sv}", "nvrtc_compiles", g_variant_new_uint32 (ns.compiles));
  g_variant_builder_add (&b, "{sv}", "nvrtc_hits", g_variant_new_uint32 (ns.hits));
  g_variant_builder_add (&b, "{sv}", "compile_ms", g_variant_new_double (ns.compile_ms));
  g_variant_builder_add (&b, "{sv}", "retries", g_variant_new_uint32 (retries));
  g_variant_builder_add (&b, "{sv}", "precompile_units", g_variant_new_uint32 (precompiled.units));
  g_variant_builder_add (&b, "{sv}", "precompile_compiled", g_variant_new_uint32 (precompiled.compiled));
  g_variant_builder_add (&b, "{sv}", "precompile_ms", g_variant_new_double (precompiled.ms));
  if ((attention = wb_cuda_attention_describe_paths ()) != NULL)
    g_variant_builder_add (&b, "{sv}", "attention", g_variant_new_string (attention));
  if ((convolution = wb_cuda_conv_describe ()) != NULL)
    g_variant_builder_add (&b, "{sv}", "convolution", g_variant_new_string (convolution));
  if (checked_call != NULL)
    g_variant_builder_add (&b, "{sv}", "check_call", checked_call);
  if (check_all_on)
    g_variant_builder_add (&b, "{sv}", "check_all", wb_runner_check_to_variant (&check_all));
  if (calls.by_symbol != NULL && g_hash_table_size (calls.by_symbol) > 0)
    g_variant_builder_add (&b, "{sv}", "checked_calls", calls_variant ());
  _wb_runner_nccl_stats (&b);
  return g_variant_builder_end (&b);
}

GVariant *
_wb_runner_stats_with_streams (GVariant *stats, guint side_calls, guint side_joins, const char *side_note, GVariant *setup_ms)
{
  GVariantBuilder b;
  GVariantIter    it;
  const char     *key;
  GVariant       *value;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_iter_init (&it, stats);
  while (g_variant_iter_next (&it, "{&sv}", &key, &value))
    {
      g_variant_builder_add (&b, "{sv}", key, value);
      g_variant_unref (value);
    }
  g_variant_builder_add (&b, "{sv}", "side_calls", g_variant_new_uint32 (side_calls));
  g_variant_builder_add (&b, "{sv}", "side_joins", g_variant_new_uint32 (side_joins));
  if (side_note != NULL)
    g_variant_builder_add (&b, "{sv}", "side_note", g_variant_new_string (side_note));
  if (setup_ms != NULL)
    g_variant_builder_add (&b, "{sv}", "setup_ms", setup_ms);
  return g_variant_builder_end (&b);
}

/* -- where a run's time went ------------------------------------------------------------------------ */

static gint64
phases_now_ns (void)
{
  return g_get_monotonic_time () * 1000;
}

void
_wb_runner_phases_begin (WbRunnerPhases *p)
{
  memset (p->ms, 0, sizeof p->ms);
  p->mark_ns = phases_now_ns ();
}

gboolean
_wb_runner_phases_mark (WbRunnerPhases *p, WbRunnerSetupPhase phase)
{
  gint64 now = phases_now_ns ();

  p->ms[phase] += (double) (now - p->mark_ns) / 1e6;
  p->mark_ns = now;
  return TRUE;
}

GVariant *
_wb_runner_phases_variant (WbRunnerPhases *p)
{
  static const char *const names[WB_RUNNER_N_SETUP_PHASES] = { "parse", "prepare", "checked", "capture", "runs" };
  GVariantBuilder          b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sd}"));
  if (!p->start_reported && p->ready_ns > p->start_ns)
    g_variant_builder_add (&b, "{sd}", "start", (double) (p->ready_ns - p->start_ns) / 1e6);
  p->start_reported = TRUE;
  for (int i = 0; i < WB_RUNNER_N_SETUP_PHASES; i++)
    g_variant_builder_add (&b, "{sd}", names[i], p->ms[i]);
  return g_variant_builder_end (&b);
}

void
_wb_runner_stats_reset (void)
{
  g_clear_pointer (&checked_call, g_variant_unref);
}

void
_wb_runner_stats_precompile (WbCudaRuntime *rt, WbProgram *program)
{
  precompiled.ms = wb_cuda_executors_precompile (wb_cuda_runtime_get_info (rt)->arch, program, 0, &precompiled.units, &precompiled.compiled);
}

void
_wb_runner_checks_setup (GVariant *req, WbProgram *program, WbRunOptions *options)
{
  guint32 check = 0;

  wb_runner_check_clear (&check_all);
  check_all_on = g_variant_lookup (req, "check_all", "b", &options->check_all) && options->check_all;
  if (!check_all_on && g_variant_lookup (req, "check_call", "u", &check) && check < wb_program_get_n_calls (program))
    options->check_call = wb_program_get_call (program, check, NULL);
  if (check_all_on || options->check_call != NULL)
    {
      options->check_executor = wb_cuda_executor_get (wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_CPU)), NULL);
      options->check_done = check_all_on ? on_check_all_done : on_check_done;
    }
}
