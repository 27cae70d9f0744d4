/* wb-profile-job-private.h — what the profiling job's files share
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-profiler.h"

/* wb-profile-job-gpu.c: runs @program in @runner (a multi-GPU run's @group rank, world_size 0 otherwise) and
 * builds its WbRun from the runner's profile; the checked run's results in *@checked (transfer full); NULL with
 * @error and *@exit_code (1, 2 or 3) */
WbRun *_wb_profile_job_run_in_runner (WbRunner *runner, const WbProfileGroupRank *group, WbProfile *profile, WbProgram *program, GPtrArray *args, GPtrArray *cotangents, const WbProfileOptions *options, gboolean measure_ceilings, WbDeviceCeilings **ceilings, GPtrArray *notes, GPtrArray *warnings, const char *default_executor, WbProfileJobLogFunc log, gpointer log_data, WbRunResult **checked, int *exit_code, GError **error);
