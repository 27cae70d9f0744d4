/* wb-profile-job-private.h — what the files of the profile and of the profiling job share
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-profiler.h"

/* wb-profile.c, wb-profile-run.c: a profile's entries and the profile (wb-profile.c builds them, wb-profile-run.c
 * runs and times them) */
typedef struct
{
  char          *name;      /* entry name: "TorchCompile0", "sdpafx_...#2" */
  char          *call_name; /* the printed call name (what --executors and kernel records use) */
  const WbTrace *trace;     /* forward or backward */
  const WbBsym  *bsym;
  char          *key;          /* wb_trace_get_call_key: through the pipeline's provenance when it made the trace */
  const char    *unfused_from; /* (nullable) wb_trace_get_unfused_from (owned by the trace) */
  guint32        stage_line;
  gboolean       is_region;
  guint64        bytes;
  guint64        flops;
} WbProfileEntry;

struct _WbProfile
{
  WbProgram    *program;
  char         *stage_name;
  GPtrArray    *entries;    /* (element-type WbProfileEntry) in execution order */
  GHashTable   *by_bsym;    /* const WbBsym* -> GUINT_TO_POINTER (index + 1) */
  GHashTable   *call_names; /* printed names of the top-level calls (utility ones included) */
  WbAssignment *assignment; /* (nullable) as given to wb_profile_set_assignment */
  GHashTable   *by_name;    /* printed call name -> executor name (both owned): the assignment resolved */
  guint32       backward_offset;
  gboolean      cuda;             /* runs in the GPU runner (wb_profile_set_device_cuda) */
  char         *default_executor; /* cuda: the executor of unassigned entries */
};

/* wb-profile-job-gpu.c: runs @program in @runner (a multi-GPU run's @group rank, world_size 0 otherwise) and
 * builds its WbRun from the runner's profile; the checked run's results in *@checked (transfer full); NULL with
 * @error and *@exit_code (1, 2 or 3) */
WbRun *_wb_profile_job_run_in_runner (WbRunner *runner, const WbProfileGroupRank *group, WbProfile *profile, WbProgram *program, GPtrArray *args, GPtrArray *cotangents, const WbProfileOptions *options, gboolean measure_ceilings, WbDeviceCeilings **ceilings, GPtrArray *notes, GPtrArray *warnings, const char *default_executor, WbProfileJobLogFunc log, gpointer log_data, WbRunResult **checked, int *exit_code, GError **error);
