/* wb-cli-coverage-case-private.h — what the files of `coverage`'s child process share (not installed)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-cli-coverage-case.c runs a case's levels; wb-cli-coverage-compare.c judges the run levels' results. */
#pragma once

#include "wb-cli-coverage.h"
#include "wb-profiler.h"

G_BEGIN_DECLS

/* The case being worked on. */
typedef struct
{
  const char                     *path;
  const WbCliCoverageCaseOptions *options;
  int                             fd;
  gboolean                        is_dir;
  GPtrArray                      *files;   /* relative names */
  GPtrArray                      *traces;  /* per file: (element-type WbTrace) array, or NULL when it failed */
  GPtrArray                      *errors;  /* per file: its parse error (utf8) or NULL */
  GArray                         *skipped; /* per file: gboolean, TRUE for `None` (Thunder skipped the stage) */
  WbCase                         *c;       /* loaded when a level needs it */
  char                           *c_error; /* why it did not load */
  WbSafetensors                  *tensors; /* tensors.safetensors, NULL when none */
  char                           *tensors_path;
  char                           *tensors_error;
  gboolean                        tensors_tried;
} CaseWork;

/* _wb_cli_coverage_compare_with_cpu: run-gpu without reference tensors: the cpu executor (the reference) runs
 * @stage on the same @inputs, within the cpu budget (@gflop: the stage's FLOPs), and every result of @gpu is
 * compared with its (a mismatch then judged against the f64 program, and call by call where that refuses);
 * sets @r. FALSE (and @r untouched) when the cpu run is over budget or fails. */
gboolean _wb_cli_coverage_compare_with_cpu (CaseWork *w, WbCliCoverageResult *r, const WbCaseStage *stage, GHashTable *inputs, const WbCaseRun *gpu, double gflop);

G_END_DECLS
