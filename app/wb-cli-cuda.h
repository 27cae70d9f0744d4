/* wb-cli-cuda.h — the CUDA parts of the headless commands (wb-cli-cuda.c): run --device cuda, export --as cuda
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-cli.h"
#include "wb-executors.h"
#include "wb-profiler.h"

G_BEGIN_DECLS

/* wb_cli_run_stage_on_cuda: runs @stage of @c in the GPU runner (as wb_case_run_stage does on the cpu:
 * the same inputs, cotangents and result names), printing the device and what ran where, on @runner
 * (transfer none; nullable: a runner is started and probed). @iters timed
 * runs after the checked one (0: none); what has no assignment runs on @default_executor (NULL: the
 * registry's default on CUDA). (transfer full) or NULL with @error and the command's exit code
 * in *@exit_code (3 without a runner, a GPU or a driver, or when the runner died: the message names the
 * region; 1/2 for the runner's check and input errors). */
WbCaseRun *wb_cli_run_stage_on_cuda (WbCase             *c,
                                     const WbCaseStage  *stage,
                                     GHashTable         *inputs,
                                     WbSafetensors      *tensors,
                                     const WbRunOptions *options,
                                     guint               iters,
                                     const char         *default_executor,
                                     WbRunner           *runner,
                                     int                *exit_code,
                                     GError            **error);

/* WbCliCudaCalls: what wb_cli_run_stage_on_cuda_with adds to a run: executors by call ordinal
 * (WbRunnerRequest.call_executors: @n_call_executors names, NULL where the call keeps its choice; transfer
 * none), @quiet (print nothing about the run) and a call to check against the cpu executor (-1: none). */
typedef struct
{
  const char *const *call_executors;
  guint              n_call_executors;
  gboolean           quiet;
  int                check_call;       /* >= 0: WbRunnerRequest.check_call */
  GVariant          *check_result;     /* out (transfer full) (nullable): the runner's stats "check_call" */
  gboolean           check_all;        /* WbRunnerRequest.check_all */
  GVariant          *check_all_result; /* out (transfer full) (nullable): the runner's stats "check_all" */
} WbCliCudaCalls;

/* wb_cli_run_stage_on_cuda_with: wb_cli_run_stage_on_cuda with @calls (nullable: as it). */
WbCaseRun *wb_cli_run_stage_on_cuda_with (WbCase             *c,
                                          const WbCaseStage  *stage,
                                          GHashTable         *inputs,
                                          WbSafetensors      *tensors,
                                          const WbRunOptions *options,
                                          guint               iters,
                                          const char         *default_executor,
                                          WbCliCudaCalls     *calls,
                                          WbRunner           *runner,
                                          int                *exit_code,
                                          GError            **error);

/* WbCliCudaProfile: a GPU runner started and probed for `profile --device cuda` (wb_cli_cuda_profile_open). */
int wb_cli_export_cuda (const char *path,
                        int         stage,
                        const char *region,
                        const char *output);

G_END_DECLS
