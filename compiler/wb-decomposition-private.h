/* wb-decomposition-private.h — what a decomposition (wb-decomposition-*.c) writes its steps with
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A decomposition reads the call's bound arguments with the _wb_meta_arg_* helpers and writes its steps as
 * printed trace lines, `NAME = prims.OP(ARGS)`, one per step; wb-decomposition.c parses them, types each
 * step with its symbol's meta function and makes them the call's subsymbols. The last steps define the
 * call's outputs by their printed names (_wb_decomp_output). */
#pragma once

#include "wb-meta-private.h"

G_BEGIN_DECLS

typedef struct _WbDecomposer WbDecomposer;

/* A decomposition: writes @call's steps into @d; FALSE with WB_SYMBOL_ERROR set (WB_SYMBOL_ERROR_UNSUPPORTED
 * for an option it does not implement, naming the option). */
typedef gboolean (*WbDecomposeFunc) (WbMetaCall *call, WbDecomposer *d, GError **error);

/* _wb_decomp_emit: writes the step `NEW = CALL` (@format and its arguments print CALL) and returns NEW, a
 * name unused in the trace (transfer none: it lives as long as @d). */
const char *_wb_decomp_emit (WbDecomposer *d, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* _wb_decomp_emit_as: writes the step `@name = CALL` (an output of the call being decomposed) and returns
 * @name; a NULL @name is _wb_decomp_emit's new one. */
const char *_wb_decomp_emit_as (WbDecomposer *d, const char *name, const char *format, ...) G_GNUC_PRINTF (3, 4);
/* _wb_decomp_output: the printed name of the call's output @i, or NULL when it prints as "_" or there is
 * no such output (nothing reads it: the decomposition need not compute it). */
const char *_wb_decomp_output (WbDecomposer *d, guint i);
/* _wb_decomp_arg_name: the proxy name argument @i of @call prints as, or NULL when it is absent, None or
 * not a name. */
const char *_wb_decomp_arg_name (const WbMetaCall *call, guint i);
/* _wb_decomp_strdup: a copy of @s that lives as long as @d. */
const char *_wb_decomp_strdup (WbDecomposer *d, const char *s);
/* _wb_decomp_ints: "[a, b, c]" for @n ints (transfer none: lives as long as @d). */
const char *_wb_decomp_ints (WbDecomposer *d, const gint64 *v, guint n);

/* The decompositions, one per symbol (wb-decomposition.c's table names them). */
gboolean _wb_decompose_mha (WbMetaCall *call, WbDecomposer *d, GError **error);

G_END_DECLS
