/* wb-export-torch-private.h — internals shared by the torch exporter's files (wb-export-torch*.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-export-private.h"

G_BEGIN_DECLS

/* One level of indentation of the generated Python. */
#define INDENT "    "

/* How a row writes its call. */
typedef enum
{
  E_FN = 1,   /* tmpl is an expression with {param} placeholders */
  E_UNARY,    /* tmpl is a torch function of one tensor: fn({a}); numbers go through _wb_scalar */
  E_BINOP,    /* tmpl is a Python operator: {a} OP {b} (works for tensors and numbers alike) */
  E_BINFN,    /* tmpl is a torch function of two operands; a number operand becomes a 0-d tensor */
  E_DIV,      /* prims.div: true division, or truncation for exact operands */
  E_CONVERT,  /* prims.convert_element_type: .to(dtype), or a Python conversion of a number */
  E_WHERE,    /* prims.where */
  E_REDUCE,   /* tmpl({a}, {dims}); no dims: a copy */
  E_SLICE,    /* prims.slice_prim: a[s:e:st, ...] when the bounds are literals */
  E_ALIAS,    /* the value itself (shallow_copy) */
  E_COMMENT,  /* prims.comment: a comment line */
  E_KWCALL,   /* tmpl is a helper taking the symbol's parameters by name */
} EmitKind;

typedef struct
{
  WbSymbolId  id;
  EmitKind    kind;
  const char *tmpl;
} WbExportEmitRow;

/* The rows by symbol id, and the torch executor's alias of each ltorch symbol. */
typedef struct
{
  const WbExportEmitRow  *rows[WB_N_SYMBOLS];
  const char     *torch_alias[WB_N_SYMBOLS]; /* ltorch id -> printed name of its torch executor alias */
} WbExportTorchTables;

/* _wb_export_torch_tables: (transfer none) built once, thread-safe. */
const WbExportTorchTables *_wb_export_torch_tables (void);

#define MAX_PARAMS 32

/* A call bound to its symbol's signature: one value per parameter (given, else the default, else NULL). */
typedef struct
{
  const WbParam  *params;
  guint           n_params;
  const WbValue  *values[MAX_PARAMS];
  WbValue *const *var_args;
  guint           n_var_args;
} WbExportBound;

/* _wb_export_torch_bind: binds @b's arguments to @sym's signature; FALSE when they do not fit. */
gboolean        _wb_export_torch_bind        (const WbSymbol *sym, const WbBsym *b, WbExportBound *bd);
/* _wb_export_torch_param_index: the index of the parameter named by @len bytes of @name, or -1. */
int             _wb_export_torch_param_index (const WbExportBound *bd, const char *name, gsize len);
/* _wb_export_torch_bound_get: the value bound to parameter @name, or NULL. */
const WbValue  *_wb_export_torch_bound_get   (const WbExportBound *bd, const char *name);

/* _wb_export_py_string: @text as a single-quoted Python string literal. */
void            _wb_export_py_string         (GString *s, const char *text);
/* _wb_export_py_type_value: the Python literal of a number type's value ("True", "4", "1e-05"). */
void            _wb_export_py_type_value     (GString *s, const WbType *t);
/* _wb_export_is_call_of: @v is a call of an attribute named @attribute (module.get_parameter(...)). */
gboolean        _wb_export_is_call_of        (const WbValue *v, const char *attribute);

/* _wb_export_torch_append_tables: the _WB_* tables the runner reads (wb-export-torch-runner.c). */
void            _wb_export_torch_append_tables (GString *tables, const char *mode, const char *source,
                                                const char *fw_name, const char *bw_name, GPtrArray *regions,
                                                WbExportRole role, const WbTrace *forward,
                                                const WbTrace *backward, GHashTable *types);

G_END_DECLS
