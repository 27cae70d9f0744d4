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

void wb_diagnostic_free (WbDiagnostic *diagnostic);
/* wb_diagnostic_to_string: "FILE:LINE:COL: error: MESSAGE" (transfer full). */
char *wb_diagnostic_to_string (const WbDiagnostic *diagnostic);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbDiagnostic, wb_diagnostic_free)

typedef enum
{
  WB_VERIFY_DEFAULT = 0,
  WB_VERIFY_NO_TYPES = 1 << 0, /* skip re-deriving types (names and regions only) */
} WbVerifyFlags;

/* wb_trace_verify: checks @trace: every annotated type (top level and every subsymbol) against the type
 * re-derived from the symbol table's meta functions, names defined before use and defined once, each
 * fusion region's inputs and outputs consistent with its body, no two regions with the same name.
 * Returns (transfer full) (element-type WbDiagnostic) the findings in line order; no ERROR among them
 * means the trace is valid. Never fails: problems are diagnostics. */
GPtrArray *wb_trace_verify (const WbTrace *trace, WbVerifyFlags flags);
/* wb_diagnostics_count_errors: number of WB_DIAGNOSTIC_ERROR entries of @diagnostics. */
guint wb_diagnostics_count_errors (GPtrArray *diagnostics);

/* WbVerifyStats: what a verification covered. */
typedef struct
{
  guint       n_calls;         /* CALL bound symbols seen, at every depth */
  guint       n_derived;       /* calls whose output types came from a meta function or a region body */
  guint       n_compared;      /* type annotations compared with a derived type */
  guint       n_trusted;       /* calls typed from their annotation: no meta, or an input type unknown */
  guint       n_no_meta;       /* of those, calls of symbols that have no meta function */
  GHashTable *no_meta_symbols; /* (nullable) printed name -> count, for calls of symbols without meta */
} WbVerifyStats;

/* wb_trace_verify_with_stats: wb_trace_verify() that also fills @stats (may be NULL). When
 * stats->no_meta_symbols is a GHashTable (g_str_hash; keys and values owned by the caller's table: create
 * it with g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL)), names of symbols without meta are
 * counted in it (GUINT_TO_POINTER counts). Counters are added to, so one stats can cover many traces. */
GPtrArray *wb_trace_verify_with_stats (const WbTrace *trace, WbVerifyFlags flags, WbVerifyStats *stats);
/* wb_trace_verify_full: wb_trace_verify_with_stats() for a trace of a distributed set. @sharded
 * (nullable; name -> GINT_TO_POINTER (process-group size), wb_dist_sharded_params_add) names the
 * parameters FSDP shards: in a trace where no collective reads such a parameter (Thunder printed it
 * before its "fsdp pass", with the shard's annotation but ops traced on the whole parameter), its
 * type is the annotation with dim 0 times the group's size. (transfer full) as wb_trace_verify(). */
GPtrArray *wb_trace_verify_full (const WbTrace *trace, WbVerifyFlags flags, GHashTable *sharded, WbVerifyStats *stats);

G_END_DECLS
