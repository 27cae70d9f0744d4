/* wb-cli-coverage.h — what the files of `coverage` share: levels, per-level results, cases, the report
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `thunder-wb --headless coverage PATH...` (wb-cli-coverage.c) finds the cases under the paths and runs
 * each in a child process of the same binary (`--one-case DIR`, wb-cli-coverage-case.c), which reports
 * one JSON object a line: {"files":[...]} first, then {"start":"LEVEL"} before and {"level":"LEVEL",
 * "result":{...}} after each level. A child that crashes or hangs leaves the level it had started
 * without a result: the parent makes that the case's error. The report (wb-cli-coverage-report.c) is
 * Markdown or JSON (schema "thunder-wb/coverage", version 1). */
#pragma once

#include <json-glib/json-glib.h>

#include "wb-cli.h"
#include "wb-executors.h"

G_BEGIN_DECLS

/* The levels, in the order a case runs them. */
typedef enum
{
  WB_CLI_COVERAGE_LOAD = 0,  /* every trace file parses */
  WB_CLI_COVERAGE_CHECK,     /* the verifier finds no error in any trace */
  WB_CLI_COVERAGE_ROUNDTRIP, /* printing every file's traces gives its bytes back */
  WB_CLI_COVERAGE_RECOMPILE, /* the pipeline from the joint or computation trace (stages --recompile) */
  WB_CLI_COVERAGE_RUN_CPU,   /* run (and compare with tensors.safetensors) on the cpu executor */
  WB_CLI_COVERAGE_RUN_GPU,   /* the same in the GPU runner */
  WB_CLI_COVERAGE_N_LEVELS
} WbCliCoverageLevel;

#define WB_CLI_COVERAGE_ALL_LEVELS ((1u << WB_CLI_COVERAGE_N_LEVELS) - 1)

typedef enum
{
  WB_CLI_COVERAGE_NOT_ASKED = 0,
  WB_CLI_COVERAGE_OK,
  WB_CLI_COVERAGE_FAIL,
  WB_CLI_COVERAGE_NOT_RUN, /* never counted as passed */
} WbCliCoverageStatus;

/* Reasons of NOT_RUN, the groups of the summary; the result's detail says more. */
#define WB_CLI_COVERAGE_REASON_EARLIER "an earlier level failed"
#define WB_CLI_COVERAGE_REASON_BUDGET "too costly for the cpu"
#define WB_CLI_COVERAGE_REASON_TIMEOUT "timed out"
#define WB_CLI_COVERAGE_REASON_NO_CUDA "CUDA unavailable"
#define WB_CLI_COVERAGE_REASON_RANKS "a rank of a larger world (one process runs one rank)"

/* One level of one case. */
typedef struct
{
  WbCliCoverageStatus status;
  char               *error;     /* FAIL: the first error, "FILE:LINE:COL: message" where it has a place */
  char               *reason;    /* NOT_RUN: one of WB_CLI_COVERAGE_REASON_* */
  char               *detail;    /* NOT_RUN: the particulars; OK: a note ("not compared: no reference tensors") */
  gboolean            has_files; /* load, check, roundtrip: files_ok and files count trace files */
  guint               files_ok;
  guint               files;
  GPtrArray          *failed_files; /* (element-type utf8) (nullable) relative to the case folder */
  double              seconds;
} WbCliCoverageResult;

/* One case: a folder holding trace files, or one trace file. */
typedef struct
{
  char               *name;  /* relative to the PATH given ("gpt2_block/default_execs") */
  char               *path;  /* the folder or file */
  GPtrArray          *files; /* (element-type utf8) its trace files, relative to the folder, sorted */
  WbCliCoverageResult levels[WB_CLI_COVERAGE_N_LEVELS];
} WbCliCoverageCase;

/* A folder under a PATH that looked like a case but holds no trace file (a recording that failed). */
typedef struct
{
  char *name;
  char *path;
  char *reason;
} WbCliCoverageSkipped;

/* What the report is made of. */
typedef struct
{
  GStrv      paths;            /* the PATHs given */
  guint      levels;           /* mask of 1 << WbCliCoverageLevel asked */
  GPtrArray *cases;            /* (element-type WbCliCoverageCase) sorted by name */
  GPtrArray *skipped;          /* (element-type WbCliCoverageSkipped) */
  double     cpu_budget_gflop; /* --cpu-budget-gflop */
  guint      timeout_s;        /* --timeout */
  guint      jobs;             /* --jobs */
} WbCliCoverageReport;

/* What the child (`--one-case`) is asked to do. */
typedef struct
{
  guint       levels;           /* mask of 1 << WbCliCoverageLevel */
  double      cpu_budget_gflop; /* run-cpu is not run above this estimate */
  guint       threads;          /* the cpu executor's threads (0: its default) */
  const char *no_cuda;          /* (nullable) why CUDA is unavailable: run-gpu is not run */
} WbCliCoverageCaseOptions;

/* wb_cli_coverage_level_to_string: "load", "check", "roundtrip", "recompile", "run-cpu", "run-gpu". */
const char *wb_cli_coverage_level_to_string (WbCliCoverageLevel level);
/* wb_cli_coverage_parse_levels: the mask of a comma-separated list of level names; FALSE with
 * G_OPTION_ERROR_BAD_VALUE naming an unknown one (or an empty list). */
gboolean wb_cli_coverage_parse_levels (const char *list,
                                       guint      *mask,
                                       GError    **error);
/* wb_cli_coverage_status_to_string: "ok", "fail", "not-run" ("not-asked" for NOT_ASKED). */
const char *wb_cli_coverage_status_to_string (WbCliCoverageStatus status);

void wb_cli_coverage_result_clear (WbCliCoverageResult *result);
/* wb_cli_coverage_result_set_fail: status FAIL with the first line of the formatted message as its
 * error (truncated to about 400 bytes). */
void wb_cli_coverage_result_set_fail (WbCliCoverageResult *result,
                                      const char          *format,
                                      ...) G_GNUC_PRINTF (2, 3);
/* wb_cli_coverage_result_set_not_run: status NOT_RUN with @reason (WB_CLI_COVERAGE_REASON_*) and
 * @detail (nullable). */
void wb_cli_coverage_result_set_not_run (WbCliCoverageResult *result,
                                         const char          *reason,
                                         const char          *detail);
/* wb_cli_coverage_result_to_json: adds @result as one object to @builder. */
void wb_cli_coverage_result_to_json (const WbCliCoverageResult *result,
                                     JsonBuilder               *builder);
/* wb_cli_coverage_result_from_json: fills @result (cleared first) from an object written by
 * wb_cli_coverage_result_to_json; FALSE when it is not one. */
gboolean wb_cli_coverage_result_from_json (WbCliCoverageResult *result,
                                           JsonObject          *object);
void     wb_cli_coverage_case_free (WbCliCoverageCase *kase);
void     wb_cli_coverage_skipped_free (WbCliCoverageSkipped *skipped);

/* wb_cli_coverage_list_files: (transfer full) (element-type utf8) the trace files of the case at @path
 * relative to it, sorted: a folder's Python files and those of its stages/ folder (not its sub-sets), or a file's own name. */
GPtrArray *wb_cli_coverage_list_files (const char *path);

/* wb_cli_coverage_run_case: the child's work: runs the levels of @options on the case at @path in order
 * and writes its lines to @fd (see above). Returns WB_EXIT_OK once every level asked has a result. */
int wb_cli_coverage_run_case (const char                     *path,
                              const WbCliCoverageCaseOptions *options,
                              int                             fd);

/* wb_cli_coverage_report_passed: TRUE when every level asked is OK for every case. */
gboolean wb_cli_coverage_report_passed (const WbCliCoverageReport *report);
/* wb_cli_coverage_report_to_markdown: (transfer full) the table of cases, their first errors, what was
 * not run and why, then the SUMMARY; with @summary_only, the SUMMARY alone. */
char *wb_cli_coverage_report_to_markdown (const WbCliCoverageReport *report,
                                          gboolean                   summary_only);
/* wb_cli_coverage_report_to_json: (transfer full) the report as JSON (schema "thunder-wb/coverage",
 * version 1), ending in a newline. */
char *wb_cli_coverage_report_to_json (const WbCliCoverageReport *report);

/* wb_cli_coverage_run_f64: (transfer full) the stage labelled @stage_label of the case at @path, run on
 * the cpu executor as an f64 program (WB_TRACE_SET_LOAD_F32_AS_F64; f32 @inputs converted to f64, others
 * as they are; cotangents drawn with seed 0; random ops draw the f32 program's values, widened:
 * WbRunOptions.draw_f64_as_f32), or NULL with the loader's or executor's error set. */
WbCaseRun *wb_cli_coverage_run_f64 (const char *path, const char *stage_label, GHashTable *inputs, GError **error);

/* How a GPU result compares with the f64 reference (wb-cli-coverage-f64.c says the rule and its source). */
typedef enum
{
  WB_CLI_F64_PASS,      /* RMS error against f64 within twice the cpu f32 results' (the larger) + max (atol, 1e-4 RMS) / 10 */
  WB_CLI_F64_FAIL,      /* further from f64 than that */
  WB_CLI_F64_UNTRUSTED, /* the cpu's f32 result is not near a non-zero f64 one (RMS error > half its RMS), or a NaN/Inf */
} WbCliF64Verdict;

/* torch._dynamo's tolerance of its fp64 accuracy check (utils.same, tol=1e-4), relative to a tensor's RMS here */
#define WB_CLI_F64_TOL 1e-4

/* The f64 result counts as zero (an exact cancellation, such as the gradient of a bias that a training
 * BatchNorm's shift invariance removes) when its RMS is below this fraction of the cpu f32 result's: what
 * the f32 programs return there is round-off of the terms that cancel. */
#define WB_CLI_F64_ZERO 1e-3

/* wb_cli_coverage_judge_f64: @got (the GPU's), @cpu (the cpu executor's, reductions accumulated in f64) and
 * @cpu32 (nullable: the cpu executor's with WB_ACCUMULATE_F32, as a plain f32 kernel) against @f64, all of
 * one shape (host tensors, any float dtype); @err_got receives @got's RMS error, @err_cpu the baseline: the
 * larger of @cpu's and @cpu32's. */
WbCliF64Verdict wb_cli_coverage_judge_f64 (const WbTensor *got, const WbTensor *cpu, const WbTensor *cpu32, const WbTensor *f64, double *err_got, double *err_cpu);

/* wb-cli-coverage-compare.c. WbCliCoverageWorst: the result furthest from its reference so far, relative to the
 * reference's largest magnitude (@name: transfer none); start it at { "-", 0, -1 }.
 * wb_cli_coverage_note_worst: keeps @name's comparison @cmp in @w when it is further off.
 * wb_cli_coverage_compare_results: @r (a run level's result) from @run's outputs and gradients compared with
 * @reference (@reference_path names it in messages): OK with a note, or FAIL naming the first mismatch.
 * wb_cli_coverage_estimate_gflop: FLOPs of one run of @stage of @c (its forward and its backward) by the static
 * cost model, GFLOP. */
typedef struct
{
  const char *name;
  double      max_abs;
  double      rel;
} WbCliCoverageWorst;

void   wb_cli_coverage_note_worst (WbCliCoverageWorst *w, const char *name, const WbCompareResult *cmp);
void   wb_cli_coverage_compare_results (WbCliCoverageResult *r, const WbCaseRun *run, WbSafetensors *reference, const char *reference_path);
double wb_cli_coverage_estimate_gflop (WbCase *c, const WbCaseStage *stage);

G_END_DECLS
