/* wb-runner-check.h — one call's outputs against the cpu executor's on the same inputs, summed over a run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner's request "check_all" (WbRunnerRequest.check_all, WbRunOptions.check_all) runs every call that
 * runs kernels twice in the checked run, first on its cpu executor, then on its own, and sums up here how
 * far apart each call's outputs are: coverage's call-by-call judge of a program that amplifies round-off
 * (app/wb-cli-coverage-case.c). Used by thunder-wb-runner and the tests' stand-in runner. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-executors.h"

G_BEGIN_DECLS

typedef struct
{
  guint  calls;        /* calls compared */
  guint  outside;      /* calls with an output outside the dtype's tolerance of the cpu's */
  char  *worst_call;   /* (nullable) the call whose output is furthest past its allowance: "FILE:LINE: name" */
  char  *worst_output; /* (nullable) that output's name */
  double max_abs;      /* its max abs error */
  double max_ref;      /* its max |cpu| */
  double ratio;        /* max abs error over the allowance max (atol, rtol * max |cpu|) (> 1: outside) */
} WbRunnerCheck;

void wb_runner_check_clear (WbRunnerCheck *check);
/* wb_runner_check_add: one call (@call: "FILE:LINE: name", copied) whose outputs @names (element-type utf8)
 * were @checked on the cpu and @got on the call's executor (element-type WbRtValue, host tensors; NULL or
 * non-tensor entries are skipped): each within wb_dtype_default_tolerance's rtol of the cpu's, atol at least
 * rtol * max |cpu| (coverage's rule); a NaN or Inf where the cpu has none is outside. */
void wb_runner_check_add (WbRunnerCheck *check, const char *call, GPtrArray *names, GPtrArray *checked, GPtrArray *got);
/* wb_runner_check_outputs: (transfer floating) one call's outputs, as wb_runner_check_add takes them, each as
 * "(ssdddd)": name, dtype ("f32"), max abs error, max |cpu|, RMS error, RMS of the cpu's (request "check_call":
 * `bisect`'s check of the call it found). */
GVariant *wb_runner_check_outputs (GPtrArray *names, GPtrArray *checked, GPtrArray *got);
/* wb_runner_check_to_variant: (transfer floating) "(uussddd)": calls, outside, worst call, worst output, max abs
 * error, max |cpu|, ratio (G_MAXDOUBLE for infinite). */
GVariant *wb_runner_check_to_variant (const WbRunnerCheck *check);

G_END_DECLS
