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
  E_FN = 1,  /* tmpl is an expression with {param} placeholders */
  E_UNARY,   /* tmpl is a torch function of one tensor: fn({a}); numbers go through _wb_scalar */
  E_BINOP,   /* tmpl is a Python operator: {a} OP {b} (works for tensors and numbers alike) */
  E_BINFN,   /* tmpl is a torch function of two operands; a number operand becomes a 0-d tensor */
  E_DIV,     /* prims.div: true division, or truncation for exact operands */
  E_CONVERT, /* prims.convert_element_type: .to(dtype), or a Python conversion of a number */
  E_WHERE,   /* prims.where */
  E_REDUCE,  /* tmpl({a}, {dims}); no dims: a copy */
  E_SLICE,   /* prims.slice_prim: a[s:e:st, ...] when the bounds are literals */
  E_ALIAS,   /* the value itself (shallow_copy) */
  E_COMMENT, /* prims.comment: a comment line */
  E_KWCALL,  /* tmpl is a helper taking the symbol's parameters by name */
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
  const WbExportEmitRow *rows[WB_N_SYMBOLS];
  const char            *torch_alias[WB_N_SYMBOLS]; /* ltorch id -> printed name of its torch executor alias */
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
gboolean _wb_export_torch_bind (const WbSymbol *sym, const WbBsym *b, WbExportBound *bd);
/* _wb_export_torch_param_index: the index of the parameter named by @len bytes of @name, or -1. */
int _wb_export_torch_param_index (const WbExportBound *bd, const char *name, gsize len);
/* _wb_export_torch_bound_get: the value bound to parameter @name, or NULL. */
const WbValue *_wb_export_torch_bound_get (const WbExportBound *bd, const char *name);

/* _wb_export_py_string: @text as a single-quoted Python string literal. */
void _wb_export_py_string (GString *s, const char *text);
/* _wb_export_py_type_value: the Python literal of a number type's value ("True", "4", "1e-05"). */
void _wb_export_py_type_value (GString *s, const WbType *t);
/* _wb_export_is_call_of: @v is a call of an attribute named @attribute (module.get_parameter(...)). */
gboolean _wb_export_is_call_of (const WbValue *v, const char *attribute);

/* -- the writer's state (wb-export-torch*.c) -- */

/* One Python function being written: which names exist in it. */
typedef struct
{
  GHashTable *defined;  /* names bound so far */
  GHashTable *reserved; /* names bound by the function's own top-level statements and parameters */
  GHashTable *renames;  /* subsymbol name -> name used (collisions with reserved names) */
  GPtrArray  *journal;  /* names defined since the start of the current attempt (owned strings) */
} Scope;

typedef struct
{
  const WbTrace *trace;      /* the trace being written (main or companion) */
  GHashTable    *types;      /* name -> const WbType * of the trace being written */
  GHashTable    *free_names; /* names used and never defined (emitted as globals) */
  GHashTable    *fn_names;   /* every Python function name written */
  GPtrArray     *regions;    /* (owned) names of the functions written for fusion regions */
  GString       *functions;  /* region functions, written before the stage's functions */
  GPtrArray     *warnings;   /* (nullable) */
  Scope         *scope;
  GHashTable    *top_outputs; /* outputs of the top-level statement being lowered */
  guint          counter;
  guint          n_unsupported;
} Ctx;

/* Python expressions (wb-export-torch-expr.c). */

/* _wb_export_torch_emit_value: @v (nullable: None) as a Python expression of the script: names renamed,
 * Thunder dtypes as torch dtypes, devices as the script's device. */
void _wb_export_torch_emit_value (Ctx *c, const WbValue *v, GString *s);
/* _wb_export_torch_emit_items: @n values separated by ", ". */
void _wb_export_torch_emit_items (Ctx *c, WbValue *const *items, guint n, GString *s);
/* _wb_export_torch_emit_param: a bound parameter's value; "dtype" and "device" are mapped even when spelled
 * as Python types or strings. */
void _wb_export_torch_emit_param (Ctx *c, const char *name, const WbValue *v, GString *s);
/* _wb_export_torch_append_comment: "INDENT# TEXT" with every line of @text commented. */
void _wb_export_torch_append_comment (GString *s, const char *indent, const char *text);
/* _wb_export_torch_rhs: the expression for a call of @row's symbol bound as @bd, into @s; FALSE when @row
 * cannot write it (a comment row, a template naming a parameter the symbol lacks). */
gboolean _wb_export_torch_rhs (Ctx *c, const WbExportEmitRow *row, const WbExportBound *bd, GString *s);

/* Statements and functions (wb-export-torch-lower.c). */

/* _wb_export_torch_resolve_name: (transfer none) the name @name is written as in the current scope. */
const char *_wb_export_torch_resolve_name (Ctx *c, const char *name);
/* _wb_export_torch_emit_function: writes @trace's function into @out (its fusion regions into
 * c->functions); returns its Python name (transfer full). */
char *_wb_export_torch_emit_function (Ctx *c, const WbTrace *trace, GString *out);

/* _wb_export_torch_append_tables: the _WB_* tables the runner reads (wb-export-torch-runner.c). */
void _wb_export_torch_append_tables (GString *tables, const char *mode, const char *source, const char *fw_name, const char *bw_name, GPtrArray *regions, WbExportRole role, const WbTrace *forward, const WbTrace *backward, GHashTable *types);

G_END_DECLS
