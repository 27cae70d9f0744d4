/* wb-cli-profile-private.h — what `profile`'s files share: its options, the loaded case, the job's set-up
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib/gi18n.h>

#include "wb-cli.h"
#include "wb-data.h"

typedef struct
{
  char    *device;
  char    *executors;
  char    *default_executor;
  int      iters;
  int      warmup;
  gboolean cuda_graphs;    /* asked for explicitly (the default on cuda) */
  gboolean no_cuda_graphs; /* --no-cuda-graphs */
  gboolean memory_plan;    /* --memory-plan */
  gboolean no_memory_plan; /* --no-memory-plan */
  gboolean allow_cpu_fallback;
  gboolean allow_tf32;
  gboolean autotune; /* --autotune */
  char    *session;
  char   **reports;
  char    *chrome_trace;
  char    *baseline;
  double   fail_above;
  gboolean fail_above_set;
  gboolean iters_set;
  gboolean warmup_set;
  char    *stage;
  gint64   seed;
  char    *inputs;
  char    *label;
  gboolean check_shapes;
  gboolean recompile;
  gboolean quiet;
  char    *save_outputs;
} ProfileOptions;

typedef struct
{
  gint64   start_us;
  gint64   last_us;
  gboolean quiet;
} Progress;

typedef struct
{
  WbCase            *c;
  WbSession         *source_session; /* PATH is a session file */
  WbSession         *session;        /* where the run is stored (--session, or PATH's) */
  WbSafetensors     *tensors;
  WbProgram         *program;
  const WbCaseStage *stage;
  char              *set_name;
  gint64             trace_set_id;
  const char        *path;
  const char        *label;
  GError            *store_error;
  GPtrArray         *subprograms; /* (element-type utf8) (nullable) PATH holds these sub-programs and no program */
} Profiling;

/* wb-cli-profile.c: loads PATH and picks the stage (-1, or an exit code); the job's device, assignment, options
 * and ceilings (-1 or an exit code); the report of one run (an exit code); the exit code of an executor error */
int _wb_cli_profile_load_case (ProfileOptions *o, Profiling *p);
int _wb_cli_profile_configure_job (ProfileOptions *o, Profiling *p, WbProfileJob *job, Progress *progress);
/* _wb_cli_profile_load_baseline: --baseline SESSION[:RUN] (the latest run without RUN): (transfer full) the run,
 * *@label "SESSION:ID"; with @group, the runs of its multi-GPU group by rank (empty: not a multi-GPU run). NULL with
 * WB_SESSION_ERROR_IO (no file), WB_SESSION_ERROR_NOT_FOUND (no runs, no such run) or the session's errors. */
WbRun *_wb_cli_profile_load_baseline (const char *spec, char **label, GPtrArray **group, GError **error);
int    _wb_cli_profile_report_run (ProfileOptions *o, Profiling *p, WbProfileJob *job, WbRun *run, WbRun *baseline, const char *baseline_label);
int    _wb_cli_profile_executor_exit (const GError *error);
void   _wb_cli_profile_clear (Profiling *p);
/* the GPU's ceilings the runner measured: into the cache and (nullable) @session */
void _wb_cli_profile_store_gpu_ceilings (WbSession *session, const WbDeviceCeilings *c);
/* wb-cli-profile-ranks.c: profiling a multi-GPU case from its rank folders (wb_case_dir_list_ranks; an exit code);
 * --save-outputs of a GPU job */
int      _wb_cli_profile_ranks (ProfileOptions *o, const char *const *dirs);
gboolean _wb_cli_profile_save_outputs (WbProfileJob *job, const char *save_path, GError **error);
/* wb-cli-profile-programs.c: profiling each sub-program of a folder of several (ThunderFX's subgraphs, @names:
 * PATH/<name>) in turn, their summary and each one's report in its own folder; an exit code. @runner (transfer
 * full, nullable): a GPU runner started ahead for the first sub-program (wb-cli-profile.c); @parent: the case of
 * @path, whose traces each sub-program's case shares (wb_case_load_subset) */
int _wb_cli_profile_programs (ProfileOptions *o, WbCase *parent, const char *path, GPtrArray *names, WbRunner *runner);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Profiling, _wb_cli_profile_clear)
