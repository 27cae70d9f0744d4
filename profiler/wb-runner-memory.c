/* wb-runner-memory.c — the GPU runner's static memory plan and the memory each run of the program takes
 * (wb-runner-main-private.h, WbRunnerMemory)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan (executors/wb-memory-plan.h) is computed when the program is built, its arena allocated after the
 * checked run (so the checked run's results, which the runner keeps, are the pool's, never the arena's) and
 * before the warm-up and any CUDA-graph capture, and each top-level call told where its outputs go
 * (wb_cuda_runtime_expect). A run's peak is measured from its own start, as PyTorch's step peak is
 * (torch.cuda.max_memory_allocated after the warm-up, minus what was allocated before the step): the
 * weights, inputs and cotangents, the checked run's results the runner keeps, and anything an earlier run
 * left are below it; the arena's bytes are added to it, since the step's tensors live there. */
#include "config.h"

#include <string.h>

#include "wb-runner-main-private.h"

void
_wb_runner_memory_prepare (WbRunnerMemory *m, WbCudaRuntime *rt, WbProgram *program, gboolean want)
{
  _wb_runner_memory_clear (m);
  m->rt = rt;
  if (!want || g_strcmp0 (g_getenv ("WB_MEMORY_PLAN"), "0") == 0)
    {
      m->note = g_strdup ("off (WB_MEMORY_PLAN=0, or the request's memory_plan false): every tensor from the pool");
      return;
    }
  m->plan = wb_memory_plan_new_for_program (program);
  if (wb_memory_plan_get_arena_bytes (m->plan) == 0)
    m->note = g_strdup ("nothing to place: every tensor from the pool");
}

void
_wb_runner_memory_arm (WbRunnerMemory *m)
{
  g_autoptr (GError) local = NULL;

  if (m->rt == NULL || m->plan == NULL || wb_memory_plan_get_arena_bytes (m->plan) == 0)
    return;
  if (!wb_cuda_runtime_set_arena (m->rt, wb_memory_plan_get_arena_bytes (m->plan), &local))
    {
      g_free (m->note);
      m->note = g_strdup_printf ("no arena (%s): every tensor from the pool", local->message);
      g_printerr ("thunder-wb-runner: memory plan: %s\n", m->note);
    }
}

void
_wb_runner_memory_clear (WbRunnerMemory *m)
{
  if (m->rt != NULL)
    wb_cuda_runtime_set_arena (m->rt, 0, NULL);
  g_clear_pointer (&m->plan, wb_memory_plan_free);
  g_clear_pointer (&m->note, g_free);
  memset (m, 0, sizeof *m);
}

void
_wb_runner_memory_call (WbRunnerMemory *m, const WbBsym *call)
{
  const WbMemoryBuffer *const *outs;
  guint                        n = 0;

  if (m->rt == NULL)
    return;
  outs = m->plan ? wb_memory_plan_get_outputs (m->plan, call, &n) : NULL;
  {
    g_autofree gint64 *offsets = g_new (gint64, MAX (n, 1));
    g_autofree gint64 *nbytes = g_new (gint64, MAX (n, 1));
    for (guint i = 0; i < n; i++)
      offsets[i] = outs[i]->offset, nbytes[i] = outs[i]->nbytes;
    wb_cuda_runtime_expect (m->rt, offsets, nbytes, n);
  }
}

void
_wb_runner_memory_call_done (WbRunnerMemory *m)
{
  if (m->rt != NULL)
    wb_cuda_runtime_expect (m->rt, NULL, NULL, 0);
}

void
_wb_runner_memory_begin (WbRunnerMemory *m)
{
  if (m->rt == NULL)
    return;
  wb_cuda_runtime_reset_peak (m->rt);
  wb_cuda_runtime_get_stats (m->rt, &m->at_start);
}

void
_wb_runner_memory_end (WbRunnerMemory *m, gboolean checked)
{
  WbCudaRuntimeStats st;
  gint64             peak;
  guint              allocs;

  if (m->rt == NULL)
    return;
  wb_cuda_runtime_expect (m->rt, NULL, NULL, 0); /* a run that failed in a call leaves its places */
  wb_cuda_runtime_get_stats (m->rt, &st);
  peak = st.bytes_peak - m->at_start.bytes_live;
  allocs = st.allocs - m->at_start.allocs;
  if (checked)
    {
      m->first_peak = peak;
      m->first_arena = st.arena_bytes;
      m->first_allocs = allocs;
      return;
    }
  /* every later run does the same work: the most of them */
  m->peak = m->later ? MAX (m->peak, peak) : peak;
  m->allocs = m->later ? MAX (m->allocs, allocs) : allocs;
  /* the arena's counts: the fewest placed, the most missed, of any later run (a capture's included) */
  m->arena_allocs = m->later ? MIN (m->arena_allocs, st.arena_allocs - m->at_start.arena_allocs) : st.arena_allocs - m->at_start.arena_allocs;
  m->arena_misses = MAX (m->arena_misses, st.arena_misses - m->at_start.arena_misses);
  m->arena_unplaced = MAX (m->arena_unplaced, st.arena_unplaced - m->at_start.arena_unplaced);
  m->later = TRUE;
}

void
_wb_runner_memory_add_result (WbRunnerMemory *m, GVariantBuilder *b)
{
  WbCudaRuntimeStats st;
  gint64             arena;

  if (m->rt == NULL)
    return;
  wb_cuda_runtime_get_stats (m->rt, &st);
  arena = st.arena_bytes;
  /* the step: a run after the checked one where there was one (the checked run's one-time work excluded) */
  g_variant_builder_add (b, "{sv}", "device_step_peak_bytes", g_variant_new_int64 ((m->later ? m->peak : m->first_peak) + arena));
  g_variant_builder_add (b, "{sv}", "device_first_run_peak_bytes", g_variant_new_int64 (m->first_peak + m->first_arena));
  g_variant_builder_add (b, "{sv}", "allocs_per_iteration", g_variant_new_uint32 (m->later ? m->allocs : m->first_allocs));
  g_variant_builder_add (b, "{sv}", "memory_plan", g_variant_new_boolean (arena > 0));
  if (m->note != NULL)
    g_variant_builder_add (b, "{sv}", "memory_plan_note", g_variant_new_string (m->note));
  if (m->plan != NULL)
    {
      g_variant_builder_add (b, "{sv}", "plan_arena_bytes", g_variant_new_int64 (wb_memory_plan_get_arena_bytes (m->plan)));
      g_variant_builder_add (b, "{sv}", "plan_sum_bytes", g_variant_new_int64 (wb_memory_plan_get_sum_bytes (m->plan)));
      g_variant_builder_add (b, "{sv}", "plan_live_peak_bytes", g_variant_new_int64 (wb_memory_plan_get_live_peak_bytes (m->plan)));
      g_variant_builder_add (b, "{sv}", "plan_buffers", g_variant_new_uint32 (wb_memory_plan_get_n_buffers (m->plan)));
      g_variant_builder_add (b, "{sv}", "arena_allocs_per_iteration", g_variant_new_uint32 (m->arena_allocs));
      g_variant_builder_add (b, "{sv}", "arena_misses_per_iteration", g_variant_new_uint32 (m->arena_misses));
      g_variant_builder_add (b, "{sv}", "arena_unplaced_per_iteration", g_variant_new_uint32 (m->arena_unplaced));
    }
}
