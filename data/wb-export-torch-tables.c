/* wb-export-torch-tables.c — how each prim and executor operator is written in PyTorch; binding calls
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * prim_rows[]: one row per prim of the symbol table (a test checks that every prim has one and that every
 * template names parameters of its signature). exec_rows[]: executor operators and ltorch symbols that
 * Thunder prints without a decomposition. */
#include "config.h"

#include <string.h>

#include "wb-export-torch-private.h"

/* -- how each prim and executor op is written ------------------------------------------------------------ */

#define P(id) WB_SYMBOL_PRIMS_##id
static const WbExportEmitRow prim_rows[] = {
  /* unary */
  { P (PY_ABS), E_FN, "abs({a})" },
  { P (ABS), E_UNARY, "torch.abs" },
  { P (ACOS), E_UNARY, "torch.acos" },
  { P (ACOSH), E_UNARY, "torch.acosh" },
  { P (ASIN), E_UNARY, "torch.asin" },
  { P (ASINH), E_UNARY, "torch.asinh" },
  { P (ATAN), E_UNARY, "torch.atan" },
  { P (ATANH), E_UNARY, "torch.atanh" },
  { P (BITWISE_NOT), E_UNARY, "torch.bitwise_not" },
  { P (CEIL), E_UNARY, "torch.ceil" },
  { P (COS), E_UNARY, "torch.cos" },
  { P (COSH), E_UNARY, "torch.cosh" },
  { P (DIGAMMA), E_UNARY, "torch.digamma" },
  { P (ERF), E_UNARY, "torch.erf" },
  { P (ERFC), E_UNARY, "torch.erfc" },
  { P (ERFCINV), E_FN, "torch.erfinv(1 - {a})" },
  { P (ERFINV), E_UNARY, "torch.erfinv" },
  { P (EXP), E_UNARY, "torch.exp" },
  { P (EXP2), E_UNARY, "torch.exp2" },
  { P (EXPM1), E_UNARY, "torch.expm1" },
  { P (FLOOR), E_UNARY, "torch.floor" },
  { P (ISFINITE), E_UNARY, "torch.isfinite" },
  { P (LGAMMA), E_UNARY, "torch.lgamma" },
  { P (LOG), E_UNARY, "torch.log" },
  { P (LOG10), E_UNARY, "torch.log10" },
  { P (LOG1P), E_UNARY, "torch.log1p" },
  { P (LOG2), E_UNARY, "torch.log2" },
  { P (NDTRI), E_UNARY, "torch.special.ndtri" },
  { P (NEG), E_UNARY, "torch.neg" },
  { P (RECIPROCAL), E_UNARY, "torch.reciprocal" },
  { P (ROUND), E_UNARY, "torch.round" },
  { P (RSQRT), E_UNARY, "torch.rsqrt" },
  { P (SIGN), E_UNARY, "torch.sign" },
  { P (SIGNBIT), E_UNARY, "torch.signbit" },
  { P (SIN), E_UNARY, "torch.sin" },
  { P (SINH), E_UNARY, "torch.sinh" },
  { P (SQRT), E_UNARY, "torch.sqrt" },
  { P (TAN), E_UNARY, "torch.tan" },
  { P (TANH), E_UNARY, "torch.tanh" },
  { P (TRUNC), E_UNARY, "torch.trunc" },
  { P (FREXP), E_FN, "torch.frexp({a})" },
  { P (REAL), E_UNARY, "torch.real" },
  { P (IMAG), E_UNARY, "torch.imag" },
  /* binary */
  { P (ADD), E_BINOP, "+" },
  { P (SUB), E_BINOP, "-" },
  { P (MUL), E_BINOP, "*" },
  { P (DIV), E_DIV, NULL },
  { P (PY_FLOORDIV), E_BINOP, "//" },
  { P (POW), E_BINOP, "**" },
  { P (REMAINDER), E_BINOP, "%" },
  { P (EQ), E_BINOP, "==" },
  { P (NE), E_BINOP, "!=" },
  { P (GE), E_BINOP, ">=" },
  { P (GT), E_BINOP, ">" },
  { P (LE), E_BINOP, "<=" },
  { P (LT), E_BINOP, "<" },
  { P (BITWISE_AND), E_BINOP, "&" },
  { P (BITWISE_OR), E_BINOP, "|" },
  { P (BITWISE_XOR), E_BINOP, "^" },
  { P (BITWISE_LEFT_SHIFT), E_BINOP, "<<" },
  { P (BITWISE_RIGHT_SHIFT), E_BINOP, ">>" },
  { P (ATAN2), E_BINFN, "torch.atan2" },
  { P (FMOD), E_BINFN, "torch.fmod" },
  { P (MAXIMUM), E_BINFN, "torch.maximum" },
  { P (MINIMUM), E_BINFN, "torch.minimum" },
  { P (NEXTAFTER), E_BINFN, "torch.nextafter" },
  { P (ZETA), E_BINFN, "torch.special.zeta" },
  /* ternary */
  { P (WHERE), E_WHERE, NULL },
  { P (LERP), E_FN, "torch.lerp({start}, {end}, {weight})" },
  /* shape */
  { P (BROADCAST_IN_DIM), E_FN, "_wb_broadcast_in_dim({a}, {shape}, {broadcast_dimensions})" },
  { P (CAT), E_FN, "torch.cat({tensors}, {dim})" },
  { P (FLIP), E_FN, "torch.flip({a}, {dims})" },
  { P (PAD), E_FN, "_wb_pad({a}, {padding_value}, {padding_config})" },
  { P (RESHAPE), E_FN, "{a}.reshape({shape})" },
  { P (SLICE), E_SLICE, NULL },
  { P (SQUEEZE), E_FN, "_wb_squeeze({a}, {dims})" },
  { P (TRANSPOSE), E_FN, "{a}.permute({permutation})" },
  { P (VIEW), E_FN, "{a}.view({shape})" },
  { P (UNFOLD), E_FN, "{a}.unfold({dim}, {size}, {step})" },
  { P (STRIDE_ORDER), E_FN, "_wb_stride_order({a}, {order})" },
  /* indexing */
  { P (TAKE), E_FN, "torch.index_select({a}, {dim}, {index})" },
  { P (TAKE_ALONG_AXIS), E_FN, "torch.take_along_dim({a}, {index}, {dim})" },
  { P (GATHER), E_FN, "torch.gather({a}, {dim}, {index})" },
  { P (INDEX_ADD), E_FN, "torch.index_add({a}, {dim}, {index}, {value})" },
  { P (INDEX_COPY), E_FN, "torch.index_copy({a}, {dim}, {index}, {value})" },
  { P (INDEX_PUT), E_FN, "torch.index_put({a}, tuple({indices}), {values}, {accumulate})" },
  { P (COPY_WITH_SETITEM), E_FN, "_wb_copy_with_setitem({a}, {index}, {value})" },
  { P (SCATTER_ADD), E_FN, "torch.scatter_add({a}, {dim}, {index}, {value})" },
  { P (SCATTER), E_FN, "_wb_scatter({a}, {index}, {src}, {dim})" },
  { P (TOPK), E_FN, "torch.topk({a}, {k}, {dim}, {largest}, {sorted})" },
  { P (SORT), E_FN, "torch.sort({a}, dim={dim}, descending={descending}, stable={sorted})" },
  /* reductions */
  { P (AMAX), E_REDUCE, "torch.amax" },
  { P (AMIN), E_REDUCE, "torch.amin" },
  { P (SUM), E_REDUCE, "torch.sum" },
  { P (PROD), E_FN, "_wb_prod({a}, {dims})" },
  { P (ARGMAX), E_FN, "torch.argmax({a}, {dim})" },
  { P (ARGMIN), E_FN, "torch.argmin({a}, {dim})" },
  { P (VAR), E_FN, "torch.var({a}, {dims}, correction={correction})" },
  { P (STD), E_FN, "torch.std({a}, {dims}, correction={correction})" },
  { P (VAR_MEAN), E_FN, "torch.var_mean({a}, {dims}, correction={correction})" },
  /* matmul and networks */
  { P (LINEAR), E_FN, "torch.nn.functional.linear({a}, {w}, {bias})" },
  { P (MATMUL), E_FN, "torch.matmul({a}, {b})" },
  { P (_GROUPED_MM), E_FN, "torch._grouped_mm({a}, {b}, {offsets})" },
  { P (CONVOLUTION), E_FN, "torch.convolution({a}, {weight}, {bias}, {stride}, {padding}, {dilation}, {transposed}, {output_padding}, {groups})" },
  { P (EMBEDDING), E_KWCALL, "_wb_embedding" },
  { P (EMBEDDING_BACKWARD), E_FN, "torch.ops.aten.embedding_backward({grad}, {indices}, {num_weights}, {padding_idx}, {scale_grad_by_freq}, {sparse})" },
  /* creation and random */
  { P (FULL), E_FN, "torch.full({shape}, {fill_value}, device={device}, dtype={dtype})" },
  { P (IOTA), E_FN, "torch.arange({start}, {start} + {length} * {step}, {step}, device={device}, dtype={dtype})" },
  { P (EMPTY), E_FN, "torch.empty({shape}, device={device}, dtype={dtype})" },
  { P (UNIFORM), E_FN, "_wb_uniform({shape}, {minval}, {maxval}, {device}, {dtype})" },
  { P (UNIFORM_PHILOX), E_FN, "_wb_uniform_philox({shape}, {minval}, {maxval}, {device}, {dtype}, {seed}, {offset})" },
  { P (RANDN), E_FN, "torch.randn({shape}, device={device}, dtype={dtype})" },
  { P (RANDINT), E_FN, "torch.randint({low}, {high}, {shape}, device={device}, dtype={dtype})" },
  { P (TENSOR_FROM_SEQUENCE), E_FN, "torch.tensor({seq}, dtype={dtype}, device={device})" },
  { P (EXOGENOUS_LIKE), E_FN, "tuple(torch.zeros_like(x) for x in {likes})" },
  { P (MULTINOMIAL), E_FN, "torch.multinomial({input}, {num_samples}, {replacement})" },
  { P (GET_AND_UPDATE_RNG_STATE), E_FN, "_wb_rng_state({seed}, {offset}, {device})" },
  /* conversion and memory */
  { P (CONVERT_ELEMENT_TYPE), E_CONVERT, NULL },
  { P (DEVICE_PUT), E_FN, "{a}.to({device})" },
  { P (NUMPY_ARRAY_TO_TORCH_TENSOR), E_FN, "torch.as_tensor({a})" },
  { P (BITCAST), E_FN, "{src}.view({dtype})" },
  { P (COPY_), E_FN, "{copy_to}.copy_({copy_from})" },
  { P (ITEM), E_FN, "{a}.item()" },
  { P (UPDATE_ALIASES), E_FN, "_wb_update_aliases({aliases})" },
  { P (SHALLOW_COPY), E_ALIAS, NULL },
  { P (CLONE), E_FN, "{a}.clone()" },
  /* prologue checks and unpacking */
  { P (ASSERT_TENSOR_METADATA), E_FN, "_wb_check_tensor({t}, {shape}, {device}, {dtype}, {requires_grad})" },
  { P (CHECK_TENSOR_SHAPE_AND_METADATA), E_FN, "_wb_check_tensor({t}, {shape}, {device}, {dtype}, {requires_grad})" },
  { P (ASSERT_COMPARE), E_FN, "None" },
  { P (CHECK_NONE), E_FN, "_wb_check_none({p})" },
  { P (CHECK_EMPTY), E_FN, "_wb_check_empty({seq})" },
  { P (CHECK_LEN), E_FN, "_wb_check_len({seq}, {length})" },
  { P (CHECK_LITERAL_LIKE), E_FN, "_wb_check_value({p}, {v})" },
  { P (CHECK_TYPE), E_FN, "None" },
  { P (CHECK_INSTANCE), E_FN, "None" },
  { P (CHECK_NUMBER_TYPE_AND_VALUE), E_FN, "_wb_check_value({n}, {value})" },
  { P (CHECK_BOOL_CONVERSION), E_FN, "None" },
  { P (CHECK_STRING_VALUE), E_FN, "_wb_check_value({s}, {value})" },
  { P (CHECK_SLICE_VALUE), E_FN, "None" },
  { P (UNPACK_TRIVIAL), E_FN, "_WB_UNKNOWN" },
  { P (UNPACK_FUNCTION_OBJ), E_FN, "_wb_function_obj" },
  { P (UNPACK_THUNDER_MODULE), E_FN, "{x}" },
  { P (UNPACK_CACHE_INFO), E_FN, "_WB_UNKNOWN" },
  { P (UNPACK_SEQUENCE), E_FN, "list({x})" },
  { P (UNPACK_TUPLE), E_FN, "tuple({tup})" },
  { P (UNPACK_LIST), E_FN, "list({lst})" },
  { P (CONSTRUCT_TUPLE), E_FN, "tuple({tup})" },
  { P (UNPACK_ATTR), E_FN, "getattr({o}, {key})" },
  { P (UNPACK_PARAMETER), E_FN, "{o}.get_parameter({key})" },
  { P (UNPACK_SUBMODULE), E_FN, "{o}.get_submodule({key})" },
  { P (UNPACK_BUFFER), E_FN, "{o}.get_buffer({key})" },
  { P (UNPACK_GETITEM), E_FN, "{o}[{key}]" },
  { P (UNPACK_ITER), E_FN, "iter({o})" },
  { P (UNPACK_NEXT), E_FN, "next({o})" },
  { P (UNPACK_KEY), E_FN, "{d}[{key}]" },
  { P (UNPACK_DICT_KEY), E_FN, "{d}[{key}]" },
  { P (UNPACK_EMPTY_DICT), E_FN, "_wb_check_empty({d})" },
  { P (PACK_LIST), E_FN, "[{*}]" },
  { P (PACK_BUFFER), E_FN, "None" },
  { P (PACK_ATTR), E_FN, "setattr({o}, {key}, {value})" },
  { P (PACK_SETITEM), E_FN, "{o}.__setitem__({key}, {value})" },
  { P (DATACLASS_NEW), E_FN, "_WB_UNKNOWN" },
  { P (SHAPE), E_FN, "tuple({t}.shape)" },
  /* utility */
  { P (PYTHON_VARS), E_FN, "_WB_UNKNOWN" },
  { P (PRINT), E_FN, "print({x})" },
  { P (COMMENT), E_COMMENT, NULL },
  { P (DEL), E_FN, "None" },
  { P (RETURN), E_FN, "None" },
  { P (GET_GRAD), E_FN, "_wb_get_grad({a})" },
  { P (PUT_GRAD), E_FN, "_wb_put_grad({grad_for}, {grad})" },
  { P (SINK), E_FN, "None" },
};
#undef P

/* Executor operators and ltorch symbols Thunder prints without a decomposition. */
static const WbExportEmitRow exec_rows[] = {
  { WB_SYMBOL_EXEC_SDPAEX_GRAD_FORWARD, E_KWCALL, "_wb_sdpa_efficient_forward" },
  { WB_SYMBOL_EXEC_SDPAFX_GRAD_FORWARD, E_KWCALL, "_wb_sdpa_flash_forward" },
  { WB_SYMBOL_EXEC_SDPAEX_BACKWARD, E_KWCALL, "_wb_sdpa_efficient_backward" },
  { WB_SYMBOL_EXEC_SDPAFX_BACKWARD, E_KWCALL, "_wb_sdpa_flash_backward" },
  { WB_SYMBOL_EXEC_CLEAR_MUTABLE_COLLECTION, E_FN, "_wb_clear({coll})" },
  { WB_SYMBOL_EXEC_CLEAR_COLLECTION, E_FN, "_wb_clear({coll})" },
  { WB_SYMBOL_EXEC_NVTX_RANGE_PUSH, E_FN, "_wb_nvtx_push({msg})" },
  { WB_SYMBOL_EXEC_NVTX_RANGE_POP, E_FN, "_wb_nvtx_pop()" },
  { WB_SYMBOL_LTORCH_NLL_LOSS_BACKWARD, E_KWCALL, "_wb_nll_loss_backward" },
};

const WbExportTorchTables *
_wb_export_torch_tables (void)
{
  static gsize                once = 0;
  static WbExportTorchTables *tables;

  if (g_once_init_enter (&once))
    {
      WbExportTorchTables *t = g_new0 (WbExportTorchTables, 1);

      for (guint i = 0; i < G_N_ELEMENTS (prim_rows); i++)
        t->rows[prim_rows[i].id] = &prim_rows[i];
      for (guint i = 0; i < G_N_ELEMENTS (exec_rows); i++)
        t->rows[exec_rows[i].id] = &exec_rows[i];
      for (guint id = 0; id < WB_N_SYMBOLS; id++)
        {
          const WbSymbol *sym = wb_symbol_get_by_id ((WbSymbolId) id);
          const WbSymbol *like;

          if (sym == NULL || wb_symbol_get_module (sym) != WB_SYMBOL_MODULE_TORCH)
            continue;
          like = wb_symbol_get_like (sym);
          if (like != NULL && t->torch_alias[wb_symbol_get_id (like)] == NULL)
            t->torch_alias[wb_symbol_get_id (like)] = wb_symbol_get_name (sym);
        }
      tables = t;
      g_once_init_leave (&once, 1);
    }
  return tables;
}

/* -- binding a call to its symbol's signature ---------------------------------------------------------------- */

gboolean
_wb_export_torch_bind (const WbSymbol *sym,
                       const WbBsym   *b,
                       WbExportBound  *bd)
{
  guint pos = 0;

  memset (bd, 0, sizeof *bd);
  bd->params = wb_symbol_get_params (sym, &bd->n_params);
  if (bd->n_params > MAX_PARAMS)
    return FALSE;
  for (guint i = 0; i < bd->n_params; i++)
    {
      const WbParam *p = &bd->params[i];

      if (p->kind == WB_PARAM_POSITIONAL_ONLY || p->kind == WB_PARAM_POSITIONAL_OR_KEYWORD)
        {
          if (pos < b->n_args)
            bd->values[i] = b->args[pos++];
        }
      else if (p->kind == WB_PARAM_VAR_POSITIONAL)
        {
          bd->var_args = b->args + pos;
          bd->n_var_args = b->n_args - pos;
          pos = b->n_args;
        }
    }
  if (pos < b->n_args)
    return FALSE;
  for (guint k = 0; k < b->n_kwargs; k++)
    for (guint i = 0; i < bd->n_params; i++)
      if (bd->params[i].kind != WB_PARAM_POSITIONAL_ONLY && strcmp (bd->params[i].name, b->kwargs[k].name) == 0)
        {
          bd->values[i] = b->kwargs[k].value;
          break;
        }
  for (guint i = 0; i < bd->n_params; i++)
    if (bd->values[i] == NULL)
      bd->values[i] = bd->params[i].default_value;
  return TRUE;
}

int
_wb_export_torch_param_index (const WbExportBound *bd,
                              const char          *name,
                              gsize                len)
{
  for (guint i = 0; i < bd->n_params; i++)
    if (strlen (bd->params[i].name) == len && strncmp (bd->params[i].name, name, len) == 0)
      return (int) i;
  return -1;
}

const WbValue *
_wb_export_torch_bound_get (const WbExportBound *bd,
                            const char          *name)
{
  int i = _wb_export_torch_param_index (bd, name, strlen (name));

  return i >= 0 ? bd->values[i] : NULL;
}

/* -- self-checks for the tests ------------------------------------------------------------------------- */

gboolean
_wb_export_torch_has_mapping (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, FALSE);
  return !wb_symbol_is_opaque (symbol) && _wb_export_torch_tables ()->rows[wb_symbol_get_id (symbol)] != NULL;
}

void
_wb_export_torch_check_tables (GPtrArray *problems)
{
  for (guint t = 0; t < 2; t++)
    {
      const WbExportEmitRow *rows = t == 0 ? prim_rows : exec_rows;
      guint                  n = t == 0 ? G_N_ELEMENTS (prim_rows) : G_N_ELEMENTS (exec_rows);

      for (guint i = 0; i < n; i++)
        {
          const WbSymbol *sym = wb_symbol_get_by_id (rows[i].id);
          WbExportBound   bd = { 0 };
          const char     *tmpl = rows[i].tmpl;

          if (sym == NULL)
            {
              g_ptr_array_add (problems, g_strdup_printf ("row %u of table %u: no symbol", i, t));
              continue;
            }
          bd.params = wb_symbol_get_params (sym, &bd.n_params);
          if (rows[i].kind != E_FN || tmpl == NULL)
            continue;
          for (const char *p = strchr (tmpl, '{'); p != NULL; p = strchr (p + 1, '{'))
            {
              const char *end = strchr (p, '}');

              if (end == NULL || (!(end - p == 2 && p[1] == '*') && _wb_export_torch_param_index (&bd, p + 1, end - p - 1) < 0))
                g_ptr_array_add (problems, g_strdup_printf ("%s: template \"%s\" names a parameter that the "
                                                            "signature \"%s\" does not have",
                                                            wb_symbol_get_name (sym), tmpl,
                                                            wb_symbol_get_signature (sym)));
            }
        }
    }
}
