/* wb-cli.h — the command line: global options, the --headless commands, exit codes
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "wb-compiler.h"

G_BEGIN_DECLS

/* Exit codes of thunder-wb (DESIGN.md, "Command line"). Scripts and tests rely on them. */
typedef enum
{
  WB_EXIT_OK = 0,
  WB_EXIT_CHECK_FAILED = 1, /* the check or a gate failed */
  WB_EXIT_BAD_INPUT = 2,    /* bad input or usage: the message names file:line:col or the option */
  WB_EXIT_ENVIRONMENT = 3,  /* no GUI built, no display, no GPU, a missing library: the message says which */
} WbExitCode;

/* wb_cli_run: parses @argv (global options, then a --headless command or a PATH for the GUI),
 * runs it and returns its WbExitCode. @argv is not modified. */
int wb_cli_run (int    argc,
                char **argv);

/* Commands of `thunder-wb --headless` (wb-cli-commands.c). Each gets its arguments after the command
 * name, with @argv[0] set to the program name, and returns a WbExitCode. */
int wb_cli_command_stages (int    argc,
                           char **argv);
int wb_cli_command_print (int    argc,
                          char **argv);
int wb_cli_command_check (int    argc,
                          char **argv);
/* wb_cli_command_export: `export PATH --stage K --as python|torch|dot|svg [-o FILE]` (wb-cli-export.c). */
int wb_cli_command_export (int    argc,
                           char **argv);
/* Session commands (wb-cli-sessions.c, wb-cli-compare.c): `sessions SESSION [--format text|json]`,
 * `import PATH --session F`, `compare SESSION [RUN_A RUN_B] [--format md|json]`. */
int wb_cli_command_sessions (int    argc,
                             char **argv);
int wb_cli_command_import (int    argc,
                           char **argv);
int wb_cli_command_compare (int    argc,
                            char **argv);
/* wb_cli_command_profile: `profile PATH [--device] [--executors] [--iters] [--warmup] [--session] [--report]
 * [--chrome-trace] [--baseline SESSION[:RUN] --fail-above PCT] [--stage] [--seed] [--inputs]` (wb-cli-profile.c). */
int wb_cli_command_profile (int    argc,
                            char **argv);
/* wb_cli_report_session_error: prints @error's message (it names the session file) and returns its exit
 * code: WB_EXIT_BAD_INPUT for a bad, untrusted, newer or missing session file or run, WB_EXIT_ENVIRONMENT
 * for a lock held too long or another SQLite failure; other domains as wb_cli_report_error(). */
int wb_cli_report_session_error (const GError *error);
/* wb_cli_check_runnable_executor: WB_EXIT_OK when @name (nullable) is an executor of the registry that
 * runs here or in the GPU runner; otherwise prints "thunder-wb: @option: ..." with the names and returns
 * the usage error's exit code (wb-cli-executors.c). */
int wb_cli_check_runnable_executor (const char *option,
                                    const char *name);
/* wb_cli_parse_session_command: parses the options of command @name (@parameters and @summary for
 * --help) and returns its positional arguments in *@positional (transfer full); FALSE with *@exit_code
 * set after printing the problem. */
gboolean wb_cli_parse_session_command (const char         *name,
                                       const char         *parameters,
                                       const char         *summary,
                                       const GOptionEntry *entries,
                                       int                 argc,
                                       char              **argv,
                                       char             ***positional,
                                       int                *exit_code);

/* wb_cli_command_run: `run PATH [--stage K] [--inputs F] [--compare F] ...` (wb-cli-run.c). */
int wb_cli_command_run (int    argc,
                        char **argv);
/* wb_cli_command_record: `record [--session F | --out DIR] [--save-inputs] [--profile] -- COMMAND...`
 * (wb-cli-record.c); also runs without --headless, as DESIGN.md writes it. */
int wb_cli_command_record (int    argc,
                           char **argv);
/* wb_cli_command_bisect: `bisect PATH [--stage K] [--inputs F] [--seed N] [--default-executor EXEC]`
 * (wb-cli-bisect.c). */
int wb_cli_command_bisect (int    argc,
                           char **argv);
/* wb_cli_command_coverage: `coverage PATH... [--levels LIST] [--format md|json] [--jobs N] [--timeout S]
 * [--cpu-budget-gflop G] [-o FILE]` (wb-cli-coverage.c, wb-cli-coverage-case.c, wb-cli-coverage-report.c). */
int wb_cli_command_coverage (int    argc,
                             char **argv);
/* wb_cli_command_executors: `executors [--format text|json]` (wb-cli-executors.c). */
int wb_cli_command_executors (int    argc,
                              char **argv);

/* wb_cli_usage_error: prints "thunder-wb: MESSAGE" and a hint to run --help to stderr and returns
 * WB_EXIT_BAD_INPUT. */
int wb_cli_usage_error (const char *format,
                        ...) G_GNUC_PRINTF (1, 2);
/* wb_cli_option_once: an option that may be given once, parsed as G_OPTION_ARG_*_ARRAY into @values
 * (nullable): sets *@value (transfer full, freed first) to its value, or NULL when absent, and returns
 * WB_EXIT_OK; given more than once, a usage error naming @option and both values (WB_EXIT_BAD_INPUT)
 * instead of the last one silently winning. */
int wb_cli_option_once (const char *option,
                        char      **values,
                        char      **value);
/* wb_cli_parse_int_option: parses @value as a decimal integer in [@min, @max] into *@out, or FALSE with
 * G_OPTION_ERROR_BAD_VALUE naming @option and the range (for G_OPTION_ARG_CALLBACK options). */
gboolean wb_cli_parse_int_option (const char *option,
                                  const char *value,
                                  gint64      min,
                                  gint64      max,
                                  gint64     *out,
                                  GError    **error);
/* wb_cli_escape_controls: @text (nullable) for a terminal: every control character (C0, DEL, C1; the
 * newline and tab too unless @keep_newlines) and every byte that is not UTF-8 becomes "\xNN" per byte,
 * so that a name read from a file cannot move the cursor, recolour or clear the screen
 * (wb_output_escape_text). Returns (transfer full) the copy, or NULL for NULL. wb_cli_run() also installs
 * print handlers that pass everything g_print() and g_printerr() write through the same escaping. */
char *wb_cli_escape_controls (const char *text,
                              gboolean    keep_newlines);
/* wb_cli_same_file: TRUE when paths @a and @b name the same file: the same path once made absolute and
 * canonical, or the same device and inode (a hard link, a symbolic link to it). */
gboolean wb_cli_same_file (const char *a,
                           const char *b);
/* wb_cli_exit_code: the one rule of exit codes for a failure (docs/ARCHITECTURE.md, "Errors and exit
 * codes"): WB_EXIT_BAD_INPUT (2) for anything wrong in the inputs or the options (a trace, a session
 * file, a tensors file, an output path that cannot be written such as /dev/null, a symbol or dtype
 * the trace needs that no executor runs), WB_EXIT_CHECK_FAILED (1) for a value that differs from its
 * annotation or a failed prologue check, and WB_EXIT_ENVIRONMENT (3) only for the machine: no GPU or
 * driver, a missing library or build feature, the runner, a full disk, no memory, a busy file. */
int wb_cli_exit_code (const GError *error);
/* wb_cli_report_error: prints @error's message to stderr (it already starts with "FILE:LINE:COL: "
 * for parse errors) and returns wb_cli_exit_code (@error). */
int wb_cli_report_error (const GError *error);
/* wb_cli_check_path: TRUE if @path exists; otherwise FALSE with WB_TRACE_ERROR_IO "PATH: No such file
 * or directory" set. */
gboolean wb_cli_check_path (const char *path,
                            GError    **error);
/* wb_cli_load: loads the trace set at @path (a file, a directory or a session file). Returns (transfer full) the set
 * or NULL with @error set; a path that does not exist is WB_TRACE_ERROR_IO naming the path. */
WbTraceSet *wb_cli_load (const char *path,
                         GError    **error);
/* wb_cli_report_failures: lists on stderr the files of @set's directory that did not load: a parse failure
 * as "FILE:LINE:COL: error: MESSAGE", a `None` file as "FILE:1:1: note: not a trace (Thunder skipped this
 * stage)". Returns the number of errors. */
guint wb_cli_report_failures (const WbTraceSet *set);
/* wb_cli_load_session: when @path is a session file (*@is_session set TRUE), its latest trace set
 * (transfer full; a file of an older schema that may be written is migrated first), or NULL with @error
 * set (WB_TRACE_ERROR_IO naming the file); otherwise NULL with *@is_session FALSE and no error
 * (wb-cli-record.c). */
WbTraceSet *wb_cli_load_session (const char *path,
                                 gboolean   *is_session,
                                 GError    **error);
/* wb_cli_write: writes @len bytes of @data to stdout: unchanged to a file or a pipe (no newline
 * translation), with control characters and non-UTF-8 bytes escaped to a terminal. */
void wb_cli_write (const char *data,
                   gsize       len);
/* wb_cli_remove_tree: removes the directory @path (nullable) and everything under it, without following
 * symbolic links (they are unlinked); errors are ignored (a command's temporary directory). */
void wb_cli_remove_tree (const char *path);

/* Options shared by the commands that recompute stages (wb-cli-pipeline.c). */
typedef struct
{
  gboolean recompile;  /* --recompile */
  char    *assignment; /* --executors REGION=EXECUTOR,... (REGION=unfuse) */
  char    *plan_with;  /* --plan-with EXECUTOR,... (priority order) */
  char    *fusion;     /* --fusion dataflow|consecutive */
  gboolean remarks;    /* --remarks */
} WbCliPipelineOptions;

/* wb_cli_pipeline_entries: GOptionEntry rows for @options (transfer full; free with g_free). */
GOptionEntry *wb_cli_pipeline_entries (WbCliPipelineOptions *options);
/* wb_cli_pipeline_run: runs the pipeline from @set's joint or computation trace with @options and adds
 * the computed stages to @set (sub-set "workbench"). Returns (transfer full) the pipeline, or NULL with
 * @error set (WB_PIPELINE_ERROR). */
WbPipeline *wb_cli_pipeline_run (WbTraceSet *set, const WbCliPipelineOptions *options, GError **error);
/* wb_cli_pipeline_print_regions: the region table (and the claim remarks with @remarks) to stdout. */
void wb_cli_pipeline_print_regions (const WbPipeline *pipeline, gboolean remarks);
void wb_cli_pipeline_options_clear (WbCliPipelineOptions *options);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WbCliPipelineOptions, wb_cli_pipeline_options_clear)

G_END_DECLS
