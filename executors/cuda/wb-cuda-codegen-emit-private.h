/* wb-cuda-codegen-emit-private.h — what the emitters of op families share (wb-cuda-codegen-emit*.c); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * _wb_cg_emit_node (wb-cuda-codegen-emit.c) emits a value by its defining node: an elementwise op through
 * the elementwise table, any other op through the row of its symbol id in one family's table:
 * wb-cuda-codegen-emit.c         conversion (convert_element_type) and the dispatch
 * wb-cuda-codegen-emit-view.c    views (broadcast_in_dim, reshape, squeeze, transpose, slice, flip, copies)
 * wb-cuda-codegen-emit-index.c   creation (empty, full, iota) and indexing (cat, pad, take, gather)
 * It includes wb-cuda-codegen-private.h. */
#pragma once

#include "wb-cuda-codegen-private.h"

G_BEGIN_DECLS

/* WbCgEmitFn: the value @v (output of @n) at index @ix, an expression or a variable of kernel @k; NULL with
 * @error (or with Kern.pair_refused set, in pair mode). @a is the node's first operand, a tensor, for rows
 * with @operand (else NULL). */
typedef const char *(*WbCgEmitFn) (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error);

typedef struct
{
  WbSymbolId id;      /* the prim (Node.id) */
  gboolean   operand; /* its first argument must be a tensor value: checked, and passed as @a */
  WbCgEmitFn emit;
} WbCgEmitRow;

typedef struct
{
  const char        *name;
  const WbCgEmitRow *rows;
  guint              n_rows;
} WbCgEmitFamily;

extern const WbCgEmitFamily _wb_cg_emit_conversion; /* wb-cuda-codegen-emit.c */
extern const WbCgEmitFamily _wb_cg_emit_views;      /* wb-cuda-codegen-emit-view.c */
extern const WbCgEmitFamily _wb_cg_emit_creation;   /* wb-cuda-codegen-emit-index.c */
extern const WbCgEmitFamily _wb_cg_emit_indexing;   /* wb-cuda-codegen-emit-index.c */

/* What the emitter (_wb_cg_emit, _wb_cg_emit_node: wb-cuda-codegen-emit.c) reaches in the files above it,
 * which call it for their operands: the op families it dispatches to by symbol id, a value's word of two bf16
 * lanes (-pair.c) and a partial table's lookup (-table.c). It reaches them only through this table, which
 * wb-cuda-codegen.c fills once (Gen.emit), so that no two of those files call each other
 * (tools/cuda-graph.py). */
struct _WbCgEmitOps
{
  const WbCgEmitFamily *const *families; /* every family but the elementwise table's, searched in order */
  guint                        n_families;
  /* with Kern.pair: the word of @v at @ix (_wb_cg_emit_pair) */
  const char *(*pair) (Kern *k, Val *v, const Idx *ix, GError **error);
  /* @v is Kern.ptable: its value at @ix looked up in the partial table (_wb_cg_emit_partial_lookup) */
  const char *(*partial_lookup) (Kern *k, Val *v, const Idx *ix, GError **error);
};

/* helpers of wb-cuda-codegen-emit.c the families use */
/* the bad-arguments error of @n; NULL */
const char *_wb_cg_bad_args (const Node *n, GError **error);
/* the value bound to argument @i of @n, or NULL with @error */
Val *_wb_cg_arg_val (Kern *k, Node *n, guint i, GError **error);
/* operand @v at @ix in class @cls (a number: its literal) */
const char *_wb_cg_operand_expr (Kern *k, Val *v, const Idx *ix, Cls cls, GError **error);
/* number @v as a literal of class @cls, or of dtype @dt (rounded to it) */
const char *_wb_cg_literal (Gen *g, const Val *v, Cls cls);
const char *_wb_cg_literal_of_dtype (Gen *g, const Val *v, WbDtype dt);
/* dim @d of @ax: int64 index value @x wrapped for a dim of @size (negative from the end, out of range recorded and clamped) */
void _wb_cg_checked_index (Kern *k, const char *x, gint64 size, Idx *ax, guint d, gboolean same);
/* in pair mode, a value the caller computes lane by lane: sets Kern.pair_refused; NULL */
const char *_wb_cg_refuse_pair (Kern *k);

G_END_DECLS
