/* wb-cli-run.h — what `run` shares with `coverage` (wb-cli-run.c): comparing results with reference tensors
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-cli.h"
#include "wb-executors.h"

G_BEGIN_DECLS

/* wb_cli_pick_stage: (transfer none) (nullable) the stage @stage names (nullable: the default stage):
 * entry K of `stages PATH` or a stage label, as `run --stage` takes it. */
const WbCaseStage *wb_cli_pick_stage (WbCase *c, const char *stage);

/* wb_cli_ambiguous_default: (transfer full) (nullable) for a case of several sub-programs (wb_case_list_subprograms), the usage
 * message saying that @option (a file of one program's tensors, "--inputs") cannot take it and naming the
 * sub-programs' folders to give instead; NULL when the case is one program. */
char *wb_cli_ambiguous_default (WbCase *c, const char *path, const char *option);

/* wb_cli_subprogram_file: (transfer full) (nullable) sub-program @name's file of option value @file (nullable:
 * NULL): DIR(@file)/@name/BASENAME(@file); with @make_dir its folder is made (FALSE: NULL with G_FILE_ERROR). */
char *wb_cli_subprogram_file (const char *file, const char *name, gboolean make_dir, GError **error);

/* wb_cli_case_failure: (transfer none) (nullable) the message ("FILE:LINE:COL: ...") of the first of @c's
 * forward, backward, prologue or epilogue files that did not parse (not one holding only `None`, nor a
 * stages/ file): the case's default stage then falls back to an earlier file, which a run of several
 * sub-programs must not do silently. NULL when they all loaded. */
const char *wb_cli_case_failure (WbCase *c);

/* wb_cli_compare_tensor: compares @got with @ref as `run --compare` does: with @have_tol, @rtol and @atol;
 * otherwise the dtype's defaults (wb_dtype_default_tolerance), the f16/bf16 atol scaled by max |ref| when
 * that exceeds 1 and elements mismatch. Fills @r and (nullable) the tolerances used; FALSE with
 * WB_EXECUTOR_ERROR_BAD_ARGUMENT when the shapes differ. */
gboolean wb_cli_compare_tensor (const WbTensor  *got,
                                const WbTensor  *ref,
                                gboolean         have_tol,
                                double           rtol,
                                double           atol,
                                WbCompareResult *r,
                                double          *rtol_used,
                                double          *atol_used,
                                GError         **error);

/* wb_cli_find_reference: (transfer none) (nullable) the tensor of @ref (nullable) named @name, else
 * "NAME.head" (a partial sample of a large tensor). */
WbTensor *wb_cli_find_reference (WbSafetensors *ref,
                                 const char    *name);

G_END_DECLS
