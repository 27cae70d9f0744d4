/* wb-cuda-exec-precompile.c — the program's generated kernels compiled ahead, in parallel
 * (wb_cuda_executors_precompile, wb-cuda-executors.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The checked run builds each region's plan when the region first runs and compiles it with NVRTC there,
 * one unit after another on the runner's thread; a model of many distinct layers (DenseNet's growing channel
 * counts, a ResNet's stages) waits for tens of compiles in a row. The plans a run builds for contiguous inputs
 * are the ones generated from the trace's annotations, so they can be generated first and compiled on every
 * core into the disk cache the run then reads (wb-nvrtc.h: keyed by source and architecture). */
#include "config.h"

#include <string.h>

#include "wb-cuda-exec-private.h"

typedef struct
{
  const char *arch;
  gint        compiled; /* atomic */
} Work;

static void
compile_one (gpointer data, gpointer user_data)
{
  char *source = data;
  Work *w = user_data;
  g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (source, w->arch, NULL, NULL);

  if (img != NULL && !img->cache_hit)
    g_atomic_int_inc (&w->compiled);
  g_free (source);
}

/* the sources of @trace's regions that @program's executors run as one plan, added to @sources once each */
static void
collect (WbProgram *program, const WbTrace *trace, GHashTable *seen, GPtrArray *sources)
{
  for (guint i = 0; trace != NULL && i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      g_autoptr (WbCudaPlan) plan = NULL;

      if (b->kind != WB_BSYM_CALL || !wb_bsym_is_fusion (b) || !_wb_cuda_exec_runs_as_plan (wb_program_get_executor_for (program, b), b))
        continue;
      if ((plan = wb_cuda_plan_new_annotated (trace, b, WB_CUDA_CODEGEN_DEFAULT, NULL)) == NULL)
        continue;
      if (g_hash_table_contains (seen, plan->source))
        continue;
      g_hash_table_add (seen, g_strdup (plan->source));
      g_ptr_array_add (sources, g_strdup (plan->source));
    }
}

double
wb_cuda_executors_precompile (WbCudaRuntime *rt, WbProgram *program, guint threads, guint *n_sources, guint *n_compiled)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) sources = g_ptr_array_new ();
  gint64       t0 = g_get_monotonic_time ();
  Work         w = { wb_cuda_runtime_get_info (rt)->arch, 0 };
  GThreadPool *pool;

  collect (program, wb_program_get_forward (program), seen, sources);
  collect (program, wb_program_get_backward (program), seen, sources);
  if (n_sources != NULL)
    *n_sources = sources->len;
  if (sources->len > 0 && (pool = g_thread_pool_new (compile_one, &w, threads > 0 ? (gint) threads : (gint) g_get_num_processors (), FALSE, NULL)) != NULL)
    {
      /* the library is opened once here, not by the first threads at the same time */
      g_free (wb_nvrtc_version ());
      for (guint i = 0; i < sources->len; i++)
        g_thread_pool_push (pool, sources->pdata[i], NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  else
    for (guint i = 0; i < sources->len; i++)
      g_free (sources->pdata[i]);
  if (n_compiled != NULL)
    *n_compiled = (guint) g_atomic_int_get (&w.compiled);
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}
