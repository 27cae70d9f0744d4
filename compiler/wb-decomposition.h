/* wb-decomposition.h — the workbench's own decompositions of composite symbols Thunder printed without one
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-symbol.h"
#include "wb-trace-builder.h"

G_BEGIN_DECLS

/* Thunder prints a composite (ltorch) symbol with its decomposition as subsymbols, except the torch
 * functions it registers automatically (thunder/torch/default_torch_ops.py), which its torch executor runs
 * whole: `(attn_output, _) = ltorch.multi_head_attention_forward(...)` has no subsymbols, so no executor
 * of the workbench could run it. For such symbols the workbench writes the decomposition itself, in
 * symbols the executors run (prims: linear, matmul, reshape, transpose, amax, exp, ...), as subsymbols of
 * a copy of the call; everything downstream (claiming, the interpreter, the CUDA executors' dispatch and
 * precompilation) then treats the call like any composite Thunder printed with its subsymbols.
 *
 * Symbols with a decomposition: ltorch.multi_head_attention_forward (wb-decomposition-mha.c) and its
 * torch executor alias. */

/* wb_decomposition_exists: whether the workbench can decompose calls of @symbol (an alias answers for its
 * target). */
gboolean wb_decomposition_exists (const WbSymbol *symbol);

/* wb_decomposition_needed: @bsym is a call of such a symbol printed without subsymbols. */
gboolean wb_decomposition_needed (const WbBsym *bsym);

/* wb_decomposition_build: a copy of @bsym (a call for which wb_decomposition_needed() holds) owned by
 * @builder, with the workbench's decomposition as subsymbols, each annotated with the type its meta
 * function derives. Argument types come from @lookup. Intermediate names are new: none is in @taken (the
 * names in use in the trace, name -> anything; the new ones are added, as strings that live as long as
 * the trace @builder builds). The copy keeps @bsym's line; its subsymbols are one level deeper.
 * Returns (transfer none) the copy, or NULL with WB_SYMBOL_ERROR set: WB_SYMBOL_ERROR_UNSUPPORTED names
 * an option the decomposition does not implement ("ltorch.multi_head_attention_forward: static_k is not
 * supported"), other codes an argument it cannot read or types it cannot derive. */
WbBsym *wb_decomposition_build (WbTraceBuilder  *builder,
                                const WbBsym    *bsym,
                                WbTypeLookupFunc lookup,
                                gpointer         user_data,
                                GHashTable      *taken,
                                GError         **error);

/* wb_decomposition_add_names: adds every name @trace defines or reads (parameters, outputs, arguments, at
 * any depth) to @taken (const char * -> itself; the strings belong to @trace). */
void wb_decomposition_add_names (const WbTrace *trace, GHashTable *taken);

/* wb_trace_decompose: @trace with every call for which wb_decomposition_needed() holds, at any depth,
 * replaced by wb_decomposition_build()'s copy; argument types are @trace's (annotations and metas). The
 * result prints as @trace plus the subsymbols written, but keeps @trace's file name, header and line
 * numbers (wb_trace_get_bsym_line of an unchanged node is its line in @trace, a copy's that of the call it
 * copies, a written subsymbol's that of its call), so messages point into the file the user has.
 * Returns (transfer full) a new reference to @trace itself when nothing needs a decomposition, else the
 * new trace; NULL with WB_SYMBOL_ERROR set, prefixed by "FILE:LINE: ", when a call cannot be decomposed. */
WbTrace *wb_trace_decompose (WbTrace *trace, GError **error);

G_END_DECLS
