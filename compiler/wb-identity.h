/* wb-identity.h — calls that are the identity for their shapes: the output is the argument, value for
 * value, dtype and shape unchanged, so an executor may answer it with the argument itself (issue 44)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's backward of a convolution flips its weight over the spatial dims ([1024, 512, 1, 1] in
 * densenet121: a flip over dims of extent 1) and pads its gradient by zero widths; such a call made a
 * copy that lived from the start of the backward to its convolution. The one rule here decides, for the
 * cpu executor (wb-cpu-shape.c), the CUDA code generator (wb-cuda-codegen-graph.c) and the static memory
 * plan (wb-memory-plan-kinds.c), which calls return their argument instead.
 *
 * The ops (by the symbol or the one it stands for: torch.flip is ltorch.flip, torch_pad_prim_impl is
 * prims.pad, torch.nn.functional.pad is ltorch.pad):
 *   flip     prims.flip(a, dims), ltorch.flip(a, *dims): every flipped dim has extent 0 or 1 (no dims too)
 *   pad      prims.pad(a, value, ((lo, hi, interior), ...)): lo = hi = 0 in every dim, and interior 0 or
 *            the dim's extent at most 1; ltorch.pad(a, pad, mode='constant', value): every width 0 and
 *            mode 'constant' (the mode of its decomposition to prims.pad)
 *   cat      prims.cat(tensors, dim), ltorch.cat(tensors, dim): one tensor
 * Views that are identities for some arguments (reshape to the same shape, a permute or transpose that
 * moves nothing, expand or broadcast_in_dim to the same shape, a slice of everything with step 1) are
 * views for every argument already: every executor returns them as views and the plan counts them as
 * aliases, so they are not here. A sum, prod, amax or amin over dims of extent 1 is a squeeze, not the
 * identity (wb-memory-plan-kinds.c keeps its own rule: its output is a maybe-alias). */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-symbol.h"

G_BEGIN_DECLS

typedef enum
{
  WB_IDENTITY_NONE = 0, /* not one of the ops below */
  WB_IDENTITY_FLIP,     /* params: the flipped dims (negative ones count from the end) */
  WB_IDENTITY_PAD,      /* params: (lo, hi, interior) per dim, rank * 3 of them, prims.pad's config */
  WB_IDENTITY_PAD_LIST, /* params: ltorch.pad's widths (pairs from the last dim); mode 'constant' */
  WB_IDENTITY_CAT,      /* params: one, the number of tensors */
} WbIdentityOp;

/* wb_identity_op_of: which of the ops above @symbol is, by its id or the symbol it stands for
 * (wb_symbol_get_like); WB_IDENTITY_NONE for others and for NULL. */
WbIdentityOp wb_identity_op_of (const WbSymbol *symbol);

/* wb_identity_holds: the rule. TRUE when @op applied to a tensor of @rank dims of @shape with the integer
 * parameters @params (@n_params of them, as WbIdentityOp says) returns that tensor unchanged; FALSE when it
 * does not or the parameters are malformed (a dim out of range, a config of the wrong length). */
gboolean wb_identity_holds (WbIdentityOp op, guint rank, const gint64 *shape, const gint64 *params, guint n_params);

/* wb_bsym_get_identity_source: (transfer none) the argument of call @b (a NAME of @b's printed arguments,
 * inside the list for cat) whose tensor @b returns unchanged, or NULL when @b is not such a call. Its
 * parameters must be printed literals (a name bound to a tuple is not read: NULL); the argument's type
 * comes from @lookup (a tensor's rank and shape; NULL when unknown). The output is that tensor: same
 * dtype and shape. */
const WbValue *wb_bsym_get_identity_source (const WbBsym *b, WbTypeLookupFunc lookup, gpointer user_data);

G_END_DECLS
