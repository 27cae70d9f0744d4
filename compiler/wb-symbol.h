/* wb-symbol.h — the symbol table: every prim, ltorch/torch symbol and executor op a trace can call
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

/* The table is generated from the X-macro files in compiler/symbols/, one per category:
 *   prims-elementwise.def, prims-shape.def, prims-indexing.def, prims-reduction.def, prims-nn.def,
 *   prims-creation.def, prims-utility.def      every prim of thunder/core/prims.py (171), printed prims.<name>
 *   distributed.def                            thunder/distributed/prims.py, printed thunder.distributed.prims.<name>
 *   ltorch.def                                 thunder.torch symbols, printed ltorch.<name>
 *   torch.def                                  the torch executor's symbols (torch.add, Tensor.to, ...): aliases
 *   executor-ops.def                           bare-name executor ops (check_len, torch_div_prim_impl, sdpafx_...)
 *   fusions.def                                fusion regions, matched by prefix + number (TorchCompile0)
 * Each row gives the printed name, a category, the Python signature Thunder binds arguments with, and the
 * meta function that computes output types. An alias (torch.add is the torch executor's ltorch.add)
 * shares its target's signature and meta. */

#define WB_SYMBOL_ERROR (wb_symbol_error_quark ())
GQuark wb_symbol_error_quark (void);

/* Errors of WB_SYMBOL_ERROR, from binding arguments and from meta functions. */
typedef enum
{
  WB_SYMBOL_ERROR_BAD_ARGS = 1, /* arguments do not bind to the signature (count, unknown keyword) */
  WB_SYMBOL_ERROR_BAD_TYPE,     /* an argument has the wrong kind (a number where a tensor is expected) */
  WB_SYMBOL_ERROR_BAD_SHAPE,    /* shapes, dims or dtypes are inconsistent (what Thunder's meta rejects) */
  WB_SYMBOL_ERROR_UNKNOWN,      /* an input's type is unknown, so nothing can be derived */
  WB_SYMBOL_ERROR_NO_META,      /* the symbol has no meta function */
  WB_SYMBOL_ERROR_UNSUPPORTED,  /* the workbench's decomposition of the symbol does not implement an option the call uses */
} WbSymbolError;

/* Symbol ids: WB_SYMBOL_PRIMS_ADD, WB_SYMBOL_LTORCH_ADD, WB_SYMBOL_TORCH_ADD, WB_SYMBOL_EXEC_CHECK_LEN,
 * WB_SYMBOL_FUSION_TORCHCOMPILE, ... one per row of the .def files. */
typedef enum
{
#define WB_PRIM(id, name, cat, sig, meta, arg) WB_SYMBOL_PRIMS_##id,
#define WB_DIST_PRIM(id, name, sig, meta, arg) WB_SYMBOL_DIST_##id,
#define WB_DTENSOR_PRIM(id, name, cat, sig, meta, arg) WB_SYMBOL_DTENSOR_##id,
#define WB_LTORCH(id, name, cat, sig, meta, arg) WB_SYMBOL_LTORCH_##id,
#define WB_TORCH(id, name, target) WB_SYMBOL_TORCH_##id,
#define WB_EXECUTOR_OP(id, name, exec, cat, sig, meta, arg) WB_SYMBOL_EXEC_##id,
#define WB_EXECUTOR_ALIAS(id, name, exec, target) WB_SYMBOL_EXEC_##id,
#define WB_FUSION(id, prefix, exec) WB_SYMBOL_FUSION_##id,
#include "symbols/wb-symbols-all.def"
#undef WB_PRIM
#undef WB_DIST_PRIM
#undef WB_DTENSOR_PRIM
#undef WB_LTORCH
#undef WB_TORCH
#undef WB_EXECUTOR_OP
#undef WB_EXECUTOR_ALIAS
#undef WB_FUSION
  WB_N_SYMBOLS
} WbSymbolId;

/* The module Thunder's DTensor prims are printed in (WB_SYMBOL_MODULE_DTENSOR). */
#define WB_DTENSOR_PREFIX "thunder.torch.experimental.dtensor_torch_and_prims."

/* Where a symbol's printed name comes from. */
typedef enum
{
  WB_SYMBOL_MODULE_PRIMS = 1,   /* prims.<name> */
  WB_SYMBOL_MODULE_LTORCH,      /* ltorch.<name> */
  WB_SYMBOL_MODULE_TORCH,       /* the torch executor: torch.x, torch.nn.functional.x, Tensor.x */
  WB_SYMBOL_MODULE_EXECUTOR,    /* a bare name from an executor's call context (check_len, shallow_copy) */
  WB_SYMBOL_MODULE_FUSION,      /* TorchCompileN, nvFusionN, CUDAGraphN */
  WB_SYMBOL_MODULE_DISTRIBUTED, /* thunder.distributed.prims.<name> (compiler/symbols/distributed.def) */
  WB_SYMBOL_MODULE_DTENSOR,     /* thunder.torch.experimental.dtensor_torch_and_prims.<name> (distributed.def) */
} WbSymbolModule;

typedef enum
{
  WB_SYMBOL_CATEGORY_ELEMENTWISE = 1, /* unary, binary, ternary elementwise ops */
  WB_SYMBOL_CATEGORY_SHAPE,           /* reshape, broadcast, slice, cat, pad, permute, split ... */
  WB_SYMBOL_CATEGORY_INDEXING,        /* take, gather, getitem, scatter, topk, sort ... */
  WB_SYMBOL_CATEGORY_REDUCTION,       /* sum, amax, var_mean, softmax-like reductions */
  WB_SYMBOL_CATEGORY_NN,              /* matmul, linear, convolution, attention, norms, losses */
  WB_SYMBOL_CATEGORY_CREATION,        /* full, iota, empty, random ops */
  WB_SYMBOL_CATEGORY_CONVERSION,      /* dtype/device conversion, copies and aliases */
  WB_SYMBOL_CATEGORY_PROLOGUE,        /* input checks, unpacking and packing */
  WB_SYMBOL_CATEGORY_UTILITY,         /* del, return, comment, grad markers, collection handling */
  WB_SYMBOL_CATEGORY_FUSION,          /* a fusion region */
  WB_SYMBOL_CATEGORY_OPAQUE,          /* a symbol the table lacks (wb_symbol_get_opaque) */
  WB_SYMBOL_CATEGORY_DISTRIBUTED,     /* collectives and their bucketing: all_reduce, all_gather, wait, pack ... */
} WbSymbolCategory;

/* The id every opaque symbol answers: beyond the table's rows, so arrays indexed by id must check
 * wb_symbol_is_opaque() first. */
#define WB_SYMBOL_OPAQUE ((WbSymbolId) WB_N_SYMBOLS)

/* How a parameter of a symbol's Python signature is passed. */
typedef enum
{
  WB_PARAM_POSITIONAL_ONLY = 1,   /* before "/" */
  WB_PARAM_POSITIONAL_OR_KEYWORD, /* printed positionally by Thunder */
  WB_PARAM_VAR_POSITIONAL,        /* *args */
  WB_PARAM_KEYWORD_ONLY,          /* after "*": printed k=v */
  WB_PARAM_VAR_KEYWORD,           /* **kwargs */
} WbParamKind;

typedef struct
{
  const char    *name;
  WbParamKind    kind;
  const WbValue *default_value; /* NULL when the parameter has no default */
} WbParam;

/* wb_symbol_lookup: the symbol printed as the first @len bytes of @name ("ltorch.add", "prims.add",
 * "torch.nn.functional.linear", "TorchCompile0"); NULL when the table has none (transfer none).
 * Thread-safe; the table is built on first use. Cost: one hash lookup. */
const WbSymbol *wb_symbol_lookup (const char *name, gsize len);
/* wb_symbol_get_opaque: the opaque symbol printed as the first @len bytes of @name: a call of a symbol
 * the table lacks (a new ltorch/prims op, torch.ops.aten.*, a custom operator, an executor's own
 * symbol). It keeps the printed name, binds any arguments ("*args, **kwargs"), has no meta function
 * (wb_symbol_infer fails with WB_SYMBOL_ERROR_NO_META: types come from the trace's annotations) and
 * category WB_SYMBOL_CATEGORY_OPAQUE; its module follows the prefix (prims., ltorch., torch. or
 * Tensor., else a bare executor name). One symbol per distinct name for the whole process
 * (transfer none). Thread-safe. Use wb_symbol_lookup() first: a name the table has is never opaque. */
const WbSymbol *wb_symbol_get_opaque (const char *name, gsize len);
/* wb_symbol_is_opaque: TRUE for a symbol of wb_symbol_get_opaque(). */
gboolean wb_symbol_is_opaque (const WbSymbol *symbol);
/* wb_symbol_is_inplace: TRUE when calls of @symbol write into an argument: PyTorch's naming rule, a
 * name ending in one '_' (ltorch.add_, Tensor.mul_, prims.copy_, setitem_), known or not. Passes keep
 * such calls even when nothing reads their outputs, and never merge them. */
gboolean wb_symbol_is_inplace (const WbSymbol *symbol);
/* wb_symbol_get_name: the canonical printed name (transfer none); for a fusion family the prefix
 * ("TorchCompile"). */
const char *wb_symbol_get_name (const WbSymbol *symbol);
/* wb_symbol_is_fusion: a fusion region's call (TorchCompileN, nvFusionN, ...): its body is its subsymbols. */
gboolean wb_symbol_is_fusion (const WbSymbol *symbol);

/* wb_symbol_get_id: the row of the symbol in the table. */
WbSymbolId wb_symbol_get_id (const WbSymbol *symbol);
/* wb_symbol_get_by_id: (transfer none) the symbol of @id (< WB_N_SYMBOLS). */
const WbSymbol  *wb_symbol_get_by_id (WbSymbolId id);
WbSymbolModule   wb_symbol_get_module (const WbSymbol *symbol);
WbSymbolCategory wb_symbol_get_category (const WbSymbol *symbol);
/* wb_symbol_get_executor: the executor that registered the symbol ("torch", "python", "sdpa",
 * "torchcompile"), or NULL for prims and ltorch (transfer none). */
const char *wb_symbol_get_executor (const WbSymbol *symbol);
/* wb_symbol_get_like: the symbol an alias stands for (torch.add -> ltorch.add,
 * torch_div_prim_impl -> prims.div); NULL when @symbol is not an alias (transfer none). */
const WbSymbol *wb_symbol_get_like (const WbSymbol *symbol);
/* wb_symbol_get_signature: the Python parameter list, e.g. "a, /, shape, broadcast_dimensions"
 * (an alias answers its target's) (transfer none). */
const char *wb_symbol_get_signature (const WbSymbol *symbol);
/* wb_symbol_get_params: the parsed signature; *n_params gets its length (transfer none). */
const WbParam *wb_symbol_get_params (const WbSymbol *symbol, guint *n_params);
/* wb_symbol_has_meta: TRUE when output types can be derived for calls of @symbol (fusions derive them
 * from their bodies, so they answer FALSE). */
gboolean wb_symbol_has_meta (const WbSymbol *symbol);

/* wb_symbol_category_to_string: "elementwise", "shape", ... (transfer none). */
const char *wb_symbol_category_to_string (WbSymbolCategory category);

/* WbTypeLookupFunc: the type of proxy @name in the caller's scope; FALSE when the name is unknown (then
 * the argument counts as an opaque object, like `_torch_memory_format_0`). */
typedef gboolean (*WbTypeLookupFunc) (const char *name, WbType *out, gpointer user_data);

/* wb_symbol_infer: binds @args/@kwargs (as printed) to @symbol's signature and runs its meta function:
 * shapes with broadcasting and type promotion (weak dtypes and Python numbers as in
 * thunder/core/utils.py), reductions, reshapes, matmul, attention and so on.
 * Tensor arguments are names resolved through @lookup; literals are read from the values.
 * The outputs are appended to @outputs (element-type WbType) in the order the printed outputs
 * list them, flattened one level (`(t1, _, t2) = ...` has three; a call with no result has none).
 * Returns FALSE with WB_SYMBOL_ERROR set when the arguments do not bind, an input type is unknown, or the
 * meta rejects the inputs; then nothing is appended. Never crashes on malformed input. */
gboolean wb_symbol_infer (const WbSymbol  *symbol,
                          WbValue *const  *args,
                          guint            n_args,
                          const WbKwarg   *kwargs,
                          guint            n_kwargs,
                          WbTypeLookupFunc lookup,
                          gpointer         user_data,
                          GArray          *outputs,
                          GError         **error);

/* wb_symbol_promote_types: Thunder's elementwise type promotion of @n operands (tensor or number types;
 * 0-d tensors and weak dtypes rank below strong ones, Python numbers below both). Stores the promotion
 * dtype in *dtype and whether it is weak in *weak (a pure-number result is weak). FALSE when an operand is
 * neither a tensor nor a number. */
gboolean wb_symbol_promote_types (const WbType *types, guint n, WbDtype *dtype, gboolean *weak);
/* wb_symbol_broadcast_shapes: the broadcast of @n tensor shapes (numbers are skipped) into @out;
 * FALSE (and a message in @error) when two dims differ and neither is 1. */
gboolean wb_symbol_broadcast_shapes (const WbType *types, guint n, WbType *out, GError **error);

/* wb_symbol_table_get_n_names: number of printed names in the table (aliases included, fusions not). */
guint wb_symbol_table_get_n_names (void);
/* wb_symbol_table_get_name: (transfer none) the @i-th printed name, for enumeration in tests. */
const char *wb_symbol_table_get_name (guint i);

G_END_DECLS
