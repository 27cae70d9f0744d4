/* wb-cuda-codegen-options.c — what a plan is built under: WbCudaCodegenOptions, read from the environment at the
 * edge, and the SM count the grids are sized for
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The generator's files read no environment: a plan takes its options (Gen.opt). The constructors of
 * wb-cuda-codegen.h that take WbCudaCodegenFlags read them here, once per plan, for callers that keep none. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

#define DEFAULT_SMS 132
static guint codegen_sms = DEFAULT_SMS;

void
wb_cuda_codegen_set_sm_count (guint n_sms)
{
  g_atomic_int_set (&codegen_sms, n_sms > 0 ? n_sms : DEFAULT_SMS);
}

guint
wb_cuda_codegen_get_sm_count (void)
{
  return (guint) g_atomic_int_get (&codegen_sms);
}

void
wb_cuda_codegen_options_init (WbCudaCodegenOptions *options, WbCudaCodegenFlags flags)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->flags = flags;
}

/* A switch that is on when set to anything but "" or "0". */
static gboolean
env_on (const char *name)
{
  const char *e = g_getenv (name);
  return e != NULL && *e != '\0' && strcmp (e, "0") != 0;
}

/* A positive count, or 0 (unset, or not a positive number). */
static guint
env_count (const char *name)
{
  const char *e = g_getenv (name);
  return e != NULL && atoi (e) > 0 ? (guint) atoi (e) : 0;
}

void
wb_cuda_codegen_options_init_from_env (WbCudaCodegenOptions *o, WbCudaCodegenFlags flags)
{
  const char *rows = g_getenv ("WB_CUDA_COLUMN_ROWS");

  wb_cuda_codegen_options_init (o, flags);
  o->no_bf16x2 = env_on ("WB_CUDA_NO_BF16X2");
  o->no_cat_select = env_on ("WB_CUDA_NO_CAT_SELECT");
  o->no_vector = env_on ("WB_CUDA_NO_VECTOR");
  /* the other switches are on when set at all */
  o->no_column_split = g_getenv ("WB_CUDA_NO_COLUMN_SPLIT") != NULL;
  o->no_cse = g_getenv ("WB_CUDA_NO_CSE") != NULL;
  o->no_epilogue = g_getenv ("WB_CUDA_NO_EPILOGUE") != NULL;
  o->no_hoist = g_getenv ("WB_CUDA_NO_HOIST") != NULL;
  o->no_mix = g_getenv ("WB_CUDA_NO_MIX") != NULL;
  o->no_mix_defer = g_getenv ("WB_CUDA_NO_MIX_DEFER") != NULL;
  o->no_partial_table = g_getenv ("WB_CUDA_NO_PARTIAL_TABLE") != NULL;
  o->no_prefetch = g_getenv ("WB_CUDA_NO_PREFETCH") != NULL;
  o->no_reschedule = g_getenv ("WB_CUDA_NO_RESCHEDULE") != NULL;
  o->no_siblings = g_getenv ("WB_CUDA_NO_SIBLINGS") != NULL;
  o->no_table = g_getenv ("WB_CUDA_NO_TABLE") != NULL;
  o->no_warp_rows = g_getenv ("WB_CUDA_NO_WARP_ROWS") != NULL;
  o->mix_defer_always = g_getenv ("WB_CUDA_MIX_DEFER_ALWAYS") != NULL;
  o->mix_scalar_combine = g_getenv ("WB_CUDA_MIX_SCALAR_COMBINE") != NULL;
  o->reshape_linear = g_getenv ("WB_CUDA_RESHAPE_LINEAR") != NULL;
  o->table_always = g_strcmp0 (g_getenv ("WB_CUDA_TABLE"), "always") == 0;
  o->table_cached = g_getenv ("WB_CUDA_TABLE_CACHED") != NULL;
  o->column_blocks_per_sm = env_count ("WB_CUDA_COLUMN_BLOCKS_PER_SM");
  o->column_rows = rows != NULL ? (guint) CLAMP (atoi (rows), 1, 8) : 0;
  o->mix_blocks_per_sm = env_count ("WB_CUDA_MIX_BLOCKS_PER_SM");
  o->pointwise_block = env_count ("WB_CUDA_POINTWISE_BLOCK");
  o->pointwise_blocks_per_sm = env_count ("WB_CUDA_POINTWISE_BLOCKS_PER_SM");
  o->row_threads = env_count ("WB_CUDA_ROW_THREADS");
  o->no_row_warp = g_getenv ("WB_CUDA_NO_ROW_WARP") != NULL;
}
