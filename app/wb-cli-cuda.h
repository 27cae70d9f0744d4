/* wb-cli-cuda.h — the CUDA parts of the headless commands (wb-cli-cuda.c): run --device cuda, export --as cuda
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-cli.h"
#include "wb-executors.h"
#include "wb-profiler.h"

G_BEGIN_DECLS

/* wb_cli_run_stage_on_cuda: runs @stage of @c in the GPU runner (as wb_case_run_stage does on the cpu:
 * the same inputs, cotangents and result names), printing the device and what ran where. @iters timed
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
                                     int                *exit_code,
                                     GError            **error);

/* WbCliCudaProfile: a GPU runner started and probed for `profile --device cuda` (wb_cli_cuda_profile_open). */
typedef struct _WbCliCudaProfile WbCliCudaProfile;

/* wb_cli_cuda_profile_open: starts the GPU runner and probes CUDA. (transfer full) or NULL with the
 * reason (WB_RUNNER_ERROR_NOT_FOUND / NO_GPU: exit 3). */
WbCliCudaProfile *wb_cli_cuda_profile_open (GError **error);
void              wb_cli_cuda_profile_free (WbCliCudaProfile *cp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCliCudaProfile, wb_cli_cuda_profile_free)
/* wb_cli_cuda_profile_get_model: (transfer none) the GPU's name ("NVIDIA H100 80GB HBM3"). */
const char *wb_cli_cuda_profile_get_model (WbCliCudaProfile *cp);

/* wb_cli_cuda_profile_get_graphs_note: (transfer none) (nullable) after a run with options->cuda_graphs: what
 * the runner captured as a CUDA graph, or why it could not ("cannot capture a CUDA graph: TorchCompile2 runs
 * ltorch.topk on the cpu fallback; ..."). The run's cuda_graphs is TRUE only when the graph was replayed. */
const char *wb_cli_cuda_profile_get_graphs_note (WbCliCudaProfile *cp);

/* wb_cli_cuda_profile_get_overhead_note: (transfer none) (nullable) after a run: the iteration's median GPU
 * time (ms) in the runner's unprofiled iterations (run before the timed ones, with no events around the
 * entries) beside the profiled median, and their ratio ("without the profiler's events around each region an
 * iteration took 1.070 ms (median of 30 run before the timed ones); the timed iterations' 1.173 ms is 1.10x
 * that"); NULL when the runner sent none. */
const char *wb_cli_cuda_profile_get_overhead_note (WbCliCudaProfile *cp);

/* wb_cli_cuda_profile_run: runs @profile's program (@program, after wb_profile_set_device_cuda and
 * set_executors) in the runner: the checked run, warm-up and @options->iters timed iterations timed with
 * CUDA events; builds the WbRun as the cpu profiler does (wb_profile_build_run). With @measure_ceilings,
 * the runner first measures the device's ceilings, returned in *@ceilings (transfer full). (transfer full)
 * or NULL with @error and the command's exit code in *@exit_code. */
WbRun *wb_cli_cuda_profile_run (WbCliCudaProfile       *cp,
                                WbProfile              *profile,
                                WbProgram              *program,
                                GPtrArray              *args,
                                GPtrArray              *cotangents,
                                const WbProfileOptions *options,
                                gboolean                measure_ceilings,
                                WbDeviceCeilings      **ceilings,
                                int                    *exit_code,
                                GError                **error);

/* wb_cli_export_cuda: `export PATH [--stage K] --region R --as cuda [-o FILE]`: the CUDA C the nvrtc
 * executor generates for region R (the workbench's regions of PATH, else a fusion region of its traces;
 * with --stage K, of that entry), with a description of its kernels. Returns the exit code. */
int wb_cli_export_cuda (const char *path,
                        int         stage,
                        const char *region,
                        const char *output);

G_END_DECLS
