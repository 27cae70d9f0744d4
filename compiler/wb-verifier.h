/* wb-verifier.h — re-derives every annotated type of a trace and checks names and fusion regions
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

typedef enum
{
  WB_DIAGNOSTIC_ERROR = 1,
  WB_DIAGNOSTIC_WARNING,
  WB_DIAGNOSTIC_NOTE,
} WbDiagnosticSeverity;

/* WbDiagnostic: one finding of the verifier, located at filename:line:col. */
typedef struct
{
  WbDiagnosticSeverity severity;
  char                *filename;
  guint                line;
  guint                col;
  char                *message;
} WbDiagnostic;

void   wb_diagnostic_free      (WbDiagnostic *diagnostic);
/* wb_diagnostic_to_string: "FILE:LINE:COL: error: MESSAGE" (transfer full). */
char  *wb_diagnostic_to_string (const WbDiagnostic *diagnostic);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbDiagnostic, wb_diagnostic_free)

typedef enum
{
  WB_VERIFY_DEFAULT = 0,
  WB_VERIFY_NO_TYPES = 1 << 0,   /* skip re-deriving types (names and regions only) */
} WbVerifyFlags;

/* wb_trace_verify: checks @trace: every annotated type (top level and every subsymbol) against the type
 * re-derived from the symbol table's meta functions, names defined before use and defined once, each
 * fusion region's inputs and outputs consistent with its body, no two regions with the same name.
 * Returns (transfer full) (element-type WbDiagnostic) the findings in line order; no ERROR among them
 * means the trace is valid. Never fails: problems are diagnostics. */
GPtrArray *wb_trace_verify     (const WbTrace *trace, WbVerifyFlags flags);
/* wb_diagnostics_count_errors: number of WB_DIAGNOSTIC_ERROR entries of @diagnostics. */
guint      wb_diagnostics_count_errors (GPtrArray *diagnostics);

G_END_DECLS
