/* wb-case-run.h — running one stage of a case with named results (WbCaseRun)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Results carry the case's canonical names: "output.<i>" for outputs, "grad.<input>" for gradients
 * (wb-case.h). Every kind of stage runs:
 *   INFERENCE, JOINT, TRAINING  on the case's inputs (and cotangents)
 *   PROLOGUE   on (args, kwargs) and the module parameters; its outputs are the computation arguments it
 *              returns, which must be the inputs themselves (reference = the inputs)
 *   EPILOGUE   on the outputs of the case's default stage (reference = those outputs)
 *   REGION     a fusion region's own trace (to_be_compiled): its inputs are captured from a host stage
 *              that calls a fusion with exactly these argument names (its outputs become the reference
 *              when the counts agree), or that defines all of them at top level (then no reference)
 *   BACKWARD   never alone: WB_EXECUTOR_ERROR_UNSUPPORTED */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-case.h"

G_BEGIN_DECLS

typedef struct
{
  const WbCaseStage *stage;
  WbRunResult       *result;    /* (owned) the program's run */
  GPtrArray         *names;     /* (element-type utf8) result names in order: outputs, then gradients */
  GPtrArray         *values;    /* (element-type WbRtValue) the values, parallel to names */
  GPtrArray         *reference; /* (element-type WbRtValue) (nullable) what the outputs must equal for
                                   PROLOGUE, EPILOGUE and REGION stages, parallel to the outputs */
  char  *note;                  /* (nullable) where a region's inputs came from, and the like */
  gint64 ns;                    /* wall time of the stage, host runs excluded, ns */
} WbCaseRun;

void wb_case_run_free (WbCaseRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCaseRun, wb_case_run_free)

/* wb_case_run_stage: runs @stage of @c on @inputs (wb_case_make_inputs) with @options (its parameters
 * hook is set here). @tensors (nullable) supplies cotangents (grad_output). (transfer full) or NULL with
 * WB_EXECUTOR_ERROR set. */
WbCaseRun *wb_case_run_stage (WbCase             *c,
                              const WbCaseStage  *stage,
                              GHashTable         *inputs,
                              WbSafetensors      *tensors,
                              const WbRunOptions *options,
                              GError            **error);
/* wb_case_run_lookup: (transfer none) the value named @name, or NULL. */
WbRtValue *wb_case_run_lookup (const WbCaseRun *run, const char *name);

G_END_DECLS
