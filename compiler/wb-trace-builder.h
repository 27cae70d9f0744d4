/* wb-trace-builder.h — builds new traces (stages) from parts of existing ones
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

typedef struct _WbTraceBuilder WbTraceBuilder;

/* wb_trace_builder_new: starts a trace with @base's imports, decorators and signature. Nodes of @base
 * (and of the traces @base shares nodes with) may be appended unchanged: the new trace keeps @base
 * alive, so passes share every bound symbol they do not change. (transfer full) */
WbTraceBuilder *wb_trace_builder_new (WbTrace *base);
void            wb_trace_builder_free (WbTraceBuilder *builder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbTraceBuilder, wb_trace_builder_free)

/* wb_trace_builder_add_dependency: keeps @other alive too (its nodes are appended). */
void wb_trace_builder_add_dependency (WbTraceBuilder *builder, WbTrace *other);
/* wb_trace_builder_set_provenance: the "# Constructed by PROVENANCE (took MS milliseconds)" line;
 * @ms < 0 omits the "(took ...)" part. */
void wb_trace_builder_set_provenance (WbTraceBuilder *builder, const char *provenance, double ms);
/* wb_trace_builder_set_signature: `def NAME(PARAMS):`; @params are names ("*args" allowed). */
void wb_trace_builder_set_signature (WbTraceBuilder *builder, const char *name, const char *const *params, guint n_params);
/* wb_trace_builder_set_filename: the name diagnostics use for the new trace ("<stage 3: Fusion>"). */
void wb_trace_builder_set_filename (WbTraceBuilder *builder, const char *filename);

/* Values owned by the new trace. (transfer none: they live as long as the trace) */
WbValue *wb_trace_builder_name (WbTraceBuilder *builder, const char *name);
WbValue *wb_trace_builder_int (WbTraceBuilder *builder, gint64 value);
WbValue *wb_trace_builder_none (WbTraceBuilder *builder);
WbValue *wb_trace_builder_string (WbTraceBuilder *builder, const char *value);
/* wb_trace_builder_sequence: a TUPLE or LIST of @items (copied array); @flags as WbValue.flags. */
WbValue *wb_trace_builder_sequence (WbTraceBuilder *builder, WbValueKind kind, WbValue *const *items, guint n_items, guint flags);
/* wb_trace_builder_dict: {keys[i]: values[i]} with string keys. */
WbValue *wb_trace_builder_dict (WbTraceBuilder *builder, const char *const *keys, WbValue *const *values, guint n);
/* wb_trace_builder_strdup: a string that lives as long as the trace. */
const char *wb_trace_builder_strdup (WbTraceBuilder *builder, const char *s);
/* wb_trace_builder_array: @n zeroed pointers owned by the trace. */
gpointer *wb_trace_builder_array (WbTraceBuilder *builder, guint n);

/* wb_trace_builder_new_bsym: a zeroed bound symbol owned by the new trace; fill its fields (they may
 * point at values of any trace the new one keeps alive). (transfer none) */
WbBsym *wb_trace_builder_new_bsym (WbTraceBuilder *builder, WbBsymKind kind);
/* wb_trace_builder_copy_bsym: a shallow copy of @bsym to modify. (transfer none) */
WbBsym *wb_trace_builder_copy_bsym (WbTraceBuilder *builder, const WbBsym *bsym);
/* wb_trace_builder_set_subsymbols: gives @bsym (owned by this builder) a copy of @subsymbols. */
void wb_trace_builder_set_subsymbols (WbTraceBuilder *builder, WbBsym *bsym, WbBsym *const *subsymbols, guint n);
/* wb_trace_builder_append: adds @bsym at the top level of the body. */
void  wb_trace_builder_append (WbTraceBuilder *builder, const WbBsym *bsym);
guint wb_trace_builder_get_n_body (WbTraceBuilder *builder);

/* wb_trace_builder_end: the finished trace (line numbers of its printed text are computed); the
 * builder is freed. (transfer full) */
WbTrace *wb_trace_builder_end (WbTraceBuilder *builder);

G_END_DECLS
