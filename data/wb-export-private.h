/* wb-export-private.h — helpers shared by the exporters (wb-export*.c); not installed, not public
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-data.h"

G_BEGIN_DECLS

/* _wb_export_collect_types: name -> (const WbType *) for every annotated name of @trace at any depth
 * (type comments of calls, "# name: type" annotations, annotated assignments). Types point into the trace.
 * Later annotations of a name do not replace the first. (transfer full) */
GHashTable *_wb_export_collect_types (const WbTrace *trace);
/* _wb_export_add_types: the same, added to an existing table. */
void _wb_export_add_types (GHashTable *types, const WbTrace *trace);

/* _wb_export_value_names: appends every bare NAME inside @value (tuples, lists, dicts, call arguments,
 * subscripts; not the bases of attributes or calls) to @names (element-type const char *, borrowed). */
void _wb_export_value_names (const WbValue *value, GPtrArray *names);
/* _wb_export_bsym_arg_names: the same for every argument and keyword argument of @bsym. */
void _wb_export_bsym_arg_names (const WbBsym *bsym, GPtrArray *names);

/* _wb_export_find_return: the value of the trace's top-level return statement, or NULL. */
const WbValue *_wb_export_find_return (const WbTrace *trace);
/* _wb_export_dict_get: the value of string key @key in DICT @dict, or NULL. */
const WbValue *_wb_export_dict_get (const WbValue *dict, const char *key);

/* _wb_export_bsym_line: @bsym's own line as Thunder prints it, without indentation, subsymbols or a final
 * newline (transfer full). */
char *_wb_export_bsym_line (const WbBsym *bsym);

/* _wb_export_torch_has_mapping: @symbol has an explicit PyTorch mapping (every prim should). */
gboolean _wb_export_torch_has_mapping (const WbSymbol *symbol);
/* _wb_export_torch_check_tables: appends a message (owned char *) to @problems for every mapping whose
 * template names a parameter its symbol's signature lacks. */
void _wb_export_torch_check_tables (GPtrArray *problems);

/* The fixed Python text of every torch export (data/wb-export-torch-runtime.py, embedded at build time). */
extern const char  _wb_export_torch_runtime[];
extern const gsize _wb_export_torch_runtime_len;

G_END_DECLS
