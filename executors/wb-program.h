/* wb-program.h — a program: a stage (forward trace, and backward trace for training) plus an assignment
 * of executors, and running it (WbProgram, WbRunOptions, WbRunResult)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Running walks the trace's bound symbols with an environment name -> WbRtValue. UNPACK, ASSIGN, DEL,
 * RETURN and the `# name: "type"` annotations are handled by the runtime; every CALL goes to the
 * executor assigned to it (a top-level call by its printed name, e.g. a region "TorchCompile0"; its
 * subsymbols inherit it; default "cpu"). A call the executor has no kernel for runs its subsymbols (that
 * is how ltorch.*, torch.* and fusion regions run); one with neither is WB_EXECUTOR_ERROR_UNSUPPORTED
 * naming the symbol and FILE:LINE. Names are released after their last use in each body.
 *
 * Checks: every tensor bound by a parameter annotation (`# x: "cuda:0 f32[2, 8]"`, before the body
 * runs) or an unpack annotation is checked against it; with check_shapes every annotated output of
 * every executed bound symbol is too. Dtype and shape must match; the device is reported but a trace
 * recorded on cuda:N runs on the cpu (every device maps to the run's). A mismatch is
 * WB_EXECUTOR_ERROR_TYPE_MISMATCH: "FILE:LINE: NAME: annotated T1, computed T2".
 *
 * Kinds of traces and what a run returns:
 *   INFERENCE  computation returning (outs) or {'output': (outs), 'flat_args': [...]}: outputs
 *   JOINT      the "Grad transform pass" trace: {'output': grads, 'flat_args', 'fw_flat_out': outs};
 *              prims.get_grad(t) yields the cotangent of forward output t: outputs and grads
 *   TRAINING   final forward returning ({'output', 'flat_args', 'flat_output'}, (C0, C1)) followed by
 *              backward_fn(saved_for_backward, cotangents): outputs, then grads (one per flat arg)
 *   BACKWARD   backward_fn alone: runs only as the second half of TRAINING
 *   PROLOGUE   prologue(*args, **kwargs): returns ((computation args), (epilogue args)); outputs are the
 *              computation args
 *   EPILOGUE   epilogue(outputs...): outputs
 *   REGION     to_be_compiled(region inputs): a fusion region's own trace: outputs */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include <gio/gio.h>

#include "wb-executor.h"

G_BEGIN_DECLS

typedef enum
{
  WB_PROGRAM_INFERENCE = 1,
  WB_PROGRAM_JOINT,
  WB_PROGRAM_TRAINING,
  WB_PROGRAM_BACKWARD,
  WB_PROGRAM_PROLOGUE,
  WB_PROGRAM_EPILOGUE,
  WB_PROGRAM_REGION,
} WbProgramKind;

/* wb_program_kind_to_string: "inference", "joint", "training", ... (transfer none). */
const char *wb_program_kind_to_string (WbProgramKind kind);
/* wb_program_classify_trace: what kind of program @trace is by itself (a final forward is TRAINING). */
WbProgramKind wb_program_classify_trace (const WbTrace *trace);

typedef struct _WbProgram WbProgram;

/* wb_program_new: a program of @forward and, for TRAINING, @backward (else NULL). Takes references.
 * A call of a composite Thunder printed without subsymbols that the workbench can decompose
 * (wb_trace_decompose) runs through that decomposition: the program runs a copy of the trace that has it,
 * with the same lines.
 * Fails with WB_EXECUTOR_ERROR_BAD_ARGUMENT when a final forward comes without a backward or the kinds
 * do not pair, and with WB_SYMBOL_ERROR ("FILE:LINE: ltorch.NAME: ...") when such a call cannot be
 * decomposed (WB_SYMBOL_ERROR_UNSUPPORTED: an option the decomposition does not implement). (transfer full) */
WbProgram *wb_program_new (WbTrace *forward, WbTrace *backward, GError **error);
WbProgram *wb_program_ref (WbProgram *program);
void       wb_program_unref (WbProgram *program);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbProgram, wb_program_unref)

WbProgramKind wb_program_get_kind (const WbProgram *program);
/* (transfer none) the traces that run (with the workbench's decompositions); backward may be NULL. */
WbTrace *wb_program_get_forward (const WbProgram *program);
WbTrace *wb_program_get_backward (const WbProgram *program);
/* wb_program_get_source: (transfer none) the forward or, with @backward, the backward trace as given to
 * wb_program_new (NULL when none): what a request to the GPU runner prints, so that the runner, which makes
 * its own program of it, reads the lines of the user's file. */
WbTrace *wb_program_get_source (const WbProgram *program, gboolean backward);
/* wb_program_assign: runs top-level calls printed @name (a region such as "TorchCompile0", or a symbol
 * such as "prims.linear") on @executor. NULL @name sets the default (initially cpu). */
void wb_program_assign (WbProgram *program, const char *name, WbExecutor *executor);
/* wb_program_get_n_calls: the number of top-level calls of the program that runs: the forward's body, then
 * the backward's. A call's ordinal (0-based, in that order) names it across processes: the GPU runner
 * parses the same source text into the same program (`bisect` sends ordinals, wb-cli-bisect.c). */
guint wb_program_get_n_calls (const WbProgram *program);
/* wb_program_get_call: (transfer none) top-level call @ordinal (< wb_program_get_n_calls); *@backward
 * (nullable) says whose body it is in. */
const WbBsym *wb_program_get_call (const WbProgram *program, guint ordinal, gboolean *backward);
/* wb_program_assign_call: runs top-level call @ordinal (and that call alone) on @executor (transfer none;
 * executors live as long as the process); it wins over wb_program_assign's choices by name. FALSE when
 * @ordinal is not a call of the program. */
gboolean wb_program_assign_call (WbProgram *program, guint ordinal, WbExecutor *executor);
/* wb_program_get_param_names: (transfer none) the forward's parameter names in order (STAR/STARSTAR
 * parameters by their base name). */
GPtrArray *wb_program_get_param_names (const WbProgram *program);
/* wb_program_get_executor_for: (transfer none) (nullable) the executor that runs top-level call @b: the one
 * assigned to it (wb_program_assign_call), else to its name (wb_program_assign), else the default; NULL
 * before any assignment. */
WbExecutor *wb_program_get_executor_for (const WbProgram *program, const WbBsym *b);

/* WbRunObserver: called after every top-level CALL with its evaluated arguments and result (for a
 * composite or region: a TUPLE of its outputs in printed order). */
typedef void (*WbRunObserver) (const WbTrace *trace, const WbBsym *bsym, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer user_data);
/* WbCallHook: called before every top-level CALL runs (before its arguments are evaluated), with the
 * options' observer_data; the profiler's start mark (profiler/wb-profile.c). */
typedef void (*WbCallHook) (const WbTrace *trace, const WbBsym *bsym, gpointer user_data);
#define WB_RUN_OPTIONS_HAS_CALL_STARTED 1
/* WbParameterLookup: a module parameter by its dotted name ("0.weight") for prologue runs, or NULL. */
typedef WbRtValue *(*WbParameterLookup) (const char *name, gpointer user_data);

typedef struct
{
  guint64  seed;         /* Philox seed of random ops and generated cotangents */
  gboolean check_shapes; /* check every annotated output of every executed bsym */
  /* stop at the first call (subsymbols included) whose output holds a NaN, naming it and whether its
   * inputs were NaN-free (as torch.autograd.detect_anomaly); host tensors only */
  gboolean          detect_nan;
  gboolean          collect_stats; /* time every kernel (WbRunResult.stats) */
  WbRunObserver     observer;      /* (nullable) */
  gpointer          observer_data;
  WbParameterLookup parameters; /* (nullable) prologue: module.get_parameter */
  gpointer          parameters_data;
  WbCallHook        call_started; /* (nullable) before every top-level CALL, with observer_data */
  /* on a GPU (the runner's executors): let calls no GPU path takes run on the cpu (--allow-cpu-fallback);
   * the cpu interpreter ignores it */
  gboolean allow_cpu_fallback;
  /* (nullable) checked before every top-level CALL: a cancelled run stops there with G_IO_ERROR_CANCELLED */
  GCancellable *cancellable;
  /* ranks of the distributed run the trace was recorded in (meta.json "distributed", set by
   * wb_case_run_stage); 0: the size of the trace's own process groups, else 1 */
  int world_size;
  /* how the cpu executor accumulates reductions of f32/bf16/f16 (WbAccumulate; WB_ACCUMULATE_F64 by default):
   * WB_ACCUMULATE_F32 gives the error of a plain f32 implementation (run --accumulate f32) */
  WbAccumulate accumulate;
  /* the cpu executor's random ops (uniform, uniform_philox, randn, randint's floats, multinomial's uniforms)
   * asked for f64 draw exactly the values an f32 draw of the same call gives, widened, and advance the
   * generator as it would: a program read with every float32 as float64 (WB_TRACE_PARSE_F32_AS_F64) then
   * draws the f32 program's random numbers */
  gboolean draw_f64_as_f32;
  /* (nullable) a top-level call to run twice, first on @check_executor (no hooks, the random generator put
   * back), then on its own; @check_done gets both calls' outputs (names: element-type utf8; values: element-type
   * WbRtValue, NULL where unbound; all transfer none) with observer_data. `bisect` compares a GPU call with
   * the runner's cpu executor on the same inputs this way (wb-runner-main.c) */
  const WbBsym *check_call;
  gboolean      check_all; /* every top-level call that runs kernels (not del, unpacking, return) */
  WbExecutor   *check_executor;
  void (*check_done) (const WbBsym *bsym, GPtrArray *names, GPtrArray *checked, GPtrArray *got, gpointer user_data);
} WbRunOptions;

/* wb_run_options_init: seed 0, no checks, no stats, no hooks, f64 accumulation, f64 draws as f64. */
void wb_run_options_init (WbRunOptions *options);

/* WbKernelStat: time spent in one kernel name over a run. */
typedef struct
{
  guint  count;
  gint64 ns;
} WbKernelStat;

typedef struct
{
  WbProgramKind kind;
  GPtrArray    *outputs;    /* (element-type WbRtValue) forward outputs, flattened one level */
  GPtrArray    *grads;      /* (element-type WbRtValue) one per flat arg (NONE where no grad); empty if none */
  GPtrArray    *flat_args;  /* (element-type utf8) names of the flat args (the params when not printed) */
  GPtrArray    *cotangents; /* (element-type WbRtValue) the cotangents used (JOINT, TRAINING) */
  WbRtValue    *value;      /* the forward trace's return value as is (TRAINING: its saved-for-backward part emptied, so
                               saved tensors are freed during the backward) */
  GHashTable *stats;        /* (element-type utf8 WbKernelStat) per kernel name when collect_stats */
  gint64      forward_ns;   /* wall time of the forward trace, ns */
  gint64      backward_ns;  /* wall time of backward_fn (TRAINING), ns */
} WbRunResult;

void wb_run_result_free (WbRunResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRunResult, wb_run_result_free)

/* wb_program_run: runs @program on @args (element-type WbRtValue, one per forward parameter; a
 * prologue takes the args tuple and the kwargs dict). @cotangents (nullable, element-type WbRtValue)
 * gives the cotangent of each forward output for JOINT and TRAINING; missing or NONE entries are drawn
 * from the seed (N(0, 1) in the output's dtype, 1 for a 0-d output; Philox stream "cotangent.<i>").
 * Returns (transfer full) the result, or NULL with WB_EXECUTOR_ERROR set (messages name FILE:LINE). */
WbRunResult *wb_program_run (WbProgram          *program,
                             const WbRunOptions *options,
                             GPtrArray          *args,
                             GPtrArray          *cotangents,
                             GError            **error);

/* wb_run_clock_ns: the monotonic clock (CLOCK_MONOTONIC) runs and profiles are timed with, in ns. */
gint64 wb_run_clock_ns (void);

G_END_DECLS
