/* wb-meta-private.h — meta functions of the symbol table and the helpers they share (private to compiler/)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A meta function reads a call's bound arguments through the _wb_meta_arg_* helpers and appends output
 * types with _wb_meta_out_* helpers. It never crashes on bad input: a wrong argument count, a number where a
 * tensor is expected or an inconsistent shape returns FALSE with WB_SYMBOL_ERROR set. */
#pragma once

#include "wb-compiler.h"

G_BEGIN_DECLS

#define WB_META_MAX_PARAMS 32

typedef struct _WbMetaCall WbMetaCall;
typedef gboolean (*WbMetaFunc) (WbMetaCall *call, GError **error);

struct _WbSymbol
{
  WbSymbolId       id;
  const char      *name; /* printed name; for fusions the prefix */
  WbSymbolModule   module;
  WbSymbolCategory category;
  const char      *executor;  /* NULL for prims and ltorch */
  const char      *signature; /* the Python parameter list */
  WbMetaFunc       meta;      /* NULL: no meta (fusions) */
  int              meta_arg;  /* a per-row parameter for shared meta functions */
  const WbSymbol  *like;      /* alias target, or NULL */
  WbParam         *params;
  guint            n_params;
  gboolean         opaque; /* not in the table: wb_symbol_get_opaque() */
};

/* One call being typed: the bound arguments and the outputs. */
struct _WbMetaCall
{
  const WbSymbol  *symbol;                     /* the symbol whose meta runs (the alias target for aliases) */
  const char      *name;                       /* the printed name, for messages */
  int              arg;                        /* symbol->meta_arg */
  const WbValue   *params[WB_META_MAX_PARAMS]; /* bound value per parameter; NULL when absent */
  gboolean         given[WB_META_MAX_PARAMS];  /* TRUE when the call printed it (not a default) */
  WbValue *const  *varargs;                    /* the values bound to *args */
  guint            n_varargs;
  WbTypeLookupFunc lookup;
  gpointer         lookup_data;
  GArray          *outputs; /* WbType */
};

/* ---- elementwise rules (meta_arg values) ---------------------------------------------------------- */

/* Thunder's ELEMENTWISE_TYPE_PROMOTION_KIND (thunder/core/utils.py). */
typedef enum
{
  WB_PROMOTE_DEFAULT = 0,
  WB_PROMOTE_PRESERVE,
  WB_PROMOTE_INT_TO_FLOAT,
  WB_PROMOTE_ALWAYS_BOOL,
  WB_PROMOTE_COMPLEX_TO_FLOAT,
  WB_PROMOTE_BOOL_TO_LONG,
  WB_PROMOTE_NUMBER_TO_INT,
} WbPromoteKind;

/* Prims' ELEMENTWISE_PRIM_OUTPUT_DTYPE_KIND, low byte of meta_arg. */
enum
{
  WB_EW_SAME = 0,
  WB_EW_ALWAYS_BOOL = 1,
  WB_EW_INT_FOR_NUMBER = 2,
  WB_EW_COMPLEX_TO_FLOAT = 3,
};

/* Prims' supported input dtypes, second byte of meta_arg (thunder/core/prims.py). */
enum
{
  WB_EW_IN_ALL = 0 << 8,        /* dtypes.all_dtypes_and_numbertypes */
  WB_EW_IN_MATH = 1 << 8,       /* math_dtypes: all but low-precision (bf16, f16, f8, c32) */
  WB_EW_IN_FP_MATH = 2 << 8,    /* fp_math_dtypes: math_dtypes that are inexact */
  WB_EW_IN_EXACT = 3 << 8,      /* bool and integers */
  WB_EW_IN_COMPARISON = 4 << 8, /* all but complex */
  WB_EW_IN_INEXACT = 5 << 8,    /* floats and complex */
  WB_EW_IN_CEIL_FLOOR = 6 << 8, /* floats, and bool/int/float numbers */
  WB_EW_NUMBERS_ONLY = 1 << 16, /* py_abs, py_floordiv */
};

/* Reduction output rules for ltorch reductions (meta_arg). */
enum
{
  WB_REDUCE_SUM = 1, /* exact dtypes promote to int64 unless dtype= */
  WB_REDUCE_PROD,
  WB_REDUCE_MEAN, /* float/complex only */
  WB_REDUCE_SAME, /* amax, amin */
  WB_REDUCE_ARG,  /* argmax, argmin: int64 */
  WB_REDUCE_VAR,  /* var, std: real dtype */
  WB_REDUCE_VAR_MEAN,
  WB_REDUCE_LOGSUMEXP,
  WB_REDUCE_BOOL, /* all, any: bool */
};

/* ---- argument helpers (wb-meta-common.c) --------------------------------------------------------- */

/* _wb_meta_bind (wb-symbol-table.c): binds @args/@kwargs as printed to @symbol's signature (an alias
 * binds to its target's) into @call, for a meta function or a decomposition (wb-decomposition.c) to read
 * with the helpers below; @call->outputs is left NULL. FALSE with WB_SYMBOL_ERROR_BAD_ARGS when they do
 * not bind. */
gboolean _wb_meta_bind (WbMetaCall      *call,
                        const WbSymbol  *symbol,
                        WbValue *const  *args,
                        guint            n_args,
                        const WbKwarg   *kwargs,
                        guint            n_kwargs,
                        WbTypeLookupFunc lookup,
                        gpointer         user_data,
                        GError         **error);

gboolean _wb_meta_fail (GError **error, int code, const WbMetaCall *call, const char *format, ...) G_GNUC_PRINTF (4, 5);
/* _wb_meta_param_index: the index of the parameter called @name in the call's signature, or -1. */
int _wb_meta_param_index (const WbMetaCall *call, const char *name);
/* _wb_meta_arg_present: the parameter has a value other than None. */
gboolean _wb_meta_arg_present (const WbMetaCall *call, guint i);
/* _wb_meta_arg_type: the type of argument @i: a proxy's type, or a number type for number literals
 * (INT/BOOL/FLOAT/COMPLEX with values). FALSE (and an error) when absent, None, unknown or not a value. */
gboolean _wb_meta_value_type (const WbMetaCall *call, const WbValue *v, WbType *out, GError **error);
gboolean _wb_meta_arg_type (const WbMetaCall *call, guint i, WbType *out, GError **error);
/* _wb_meta_arg_tensor: argument @i must be a tensor (or future tensor). */
gboolean _wb_meta_arg_tensor (const WbMetaCall *call, guint i, WbType *out, GError **error);
gboolean _wb_meta_value_tensor (const WbMetaCall *call, const WbValue *v, const char *what, WbType *out, GError **error);
/* _wb_meta_arg_int: an int literal, a bool, or an int number proxy with a known value. */
gboolean _wb_meta_arg_int (const WbMetaCall *call, guint i, gint64 *out, GError **error);
gboolean _wb_meta_value_int (const WbMetaCall *call, const WbValue *v, gint64 *out);
/* _wb_meta_arg_bool: True/False literal or a bool proxy with a value; @fallback when None/absent. */
gboolean _wb_meta_arg_bool (const WbMetaCall *call, guint i, gboolean fallback, gboolean *out, GError **error);
/* _wb_meta_arg_number: a number literal or number proxy as a double; FALSE if not a number. */
gboolean _wb_meta_arg_number (const WbMetaCall *call, guint i, double *out);
/* _wb_meta_arg_ints: a tuple/list of ints (or one int when @allow_scalar) into @out (at most @max). */
gboolean _wb_meta_arg_ints (const WbMetaCall *call, guint i, gint64 *out, guint max, guint *n, gboolean allow_scalar, GError **error);
gboolean _wb_meta_value_ints (const WbMetaCall *call, const WbValue *v, gint64 *out, guint max, guint *n, gboolean allow_scalar);
/* _wb_meta_varargs_ints: a shape given as *args: either ints or one sequence of ints. */
gboolean _wb_meta_varargs_ints (const WbMetaCall *call, gint64 *out, guint max, guint *n, GError **error);
/* _wb_meta_arg_dtype: dtypes.x / dtypes.x_ / torch.x / Python type; FALSE (no error) when None/absent. */
gboolean _wb_meta_arg_dtype (const WbMetaCall *call, guint i, WbDtype *dtype, gboolean *weak, GError **error);
/* _wb_meta_arg_device: devices.Device("…"), torch.device("…"), "cuda:0"; FALSE (no error) when None/absent. */
gboolean _wb_meta_arg_device (const WbMetaCall *call, guint i, WbDevice *device, GError **error);
/* _wb_meta_arg_string: a string literal's contents, or NULL. */
const char *_wb_meta_arg_string (const WbMetaCall *call, guint i);
/* _wb_meta_arg_items: the items of a tuple/list argument. */
gboolean _wb_meta_arg_items (const WbMetaCall *call, guint i, WbValue *const **items, guint *n, GError **error);
/* _wb_meta_canonical_dim: wraps a negative @dim for @rank (rank 0 accepts -1 and 0). */
gboolean _wb_meta_canonical_dim (const WbMetaCall *call, gint64 dim, guint rank, guint *out, GError **error);

/* ---- outputs -------------------------------------------------------------------------------------- */

void _wb_meta_out (WbMetaCall *call, const WbType *type);
/* _wb_meta_out_shape: appends a tensor output like @like (device, dtype) with @rank dims of @shape and,
 * unless WB_DTYPE_UNKNOWN, @dtype (strong); fails on a rank above WB_MAX_RANK or a negative dim. */
gboolean _wb_meta_out_shape (WbMetaCall *call, const WbType *like, WbDtype dtype, const gint64 *shape, guint rank, GError **error);
void     _wb_meta_out_tensor (WbMetaCall *call, WbDtype dtype, gboolean weak, const WbDevice *device, guint rank, const gint64 *shape);
void     _wb_meta_out_like (WbMetaCall *call, const WbType *like, WbDtype dtype);
void     _wb_meta_out_kind (WbMetaCall *call, WbTypeKind kind);
void     _wb_meta_out_int (WbMetaCall *call, gboolean has_value, gint64 value);

/* ---- dtype rules ---------------------------------------------------------------------------------- */

/* _wb_meta_is_weak: a tensor whose true dtype is weak (weak flag, or 0-d), or a number. */
gboolean _wb_meta_is_weak (const WbType *t);
/* _wb_meta_number_dtype: the dtype a Python number kind maps to (int -> i64, float -> f32, ...). */
WbDtype _wb_meta_number_dtype (WbTypeKind kind);
/* _wb_meta_computation_dtype: bf16/f16 -> f32, c32 -> c64, else unchanged. */
WbDtype  _wb_meta_computation_dtype (WbDtype dtype);
WbDtype  _wb_meta_real_dtype (WbDtype dtype);
gboolean _wb_meta_is_low_precision (WbDtype dtype);
/* _wb_meta_promote: result dtype of elementwise type promotion with @kind over @n operands. */
gboolean _wb_meta_promote (const WbMetaCall *call, const WbType *types, guint n, WbPromoteKind kind, WbDtype *dtype, gboolean *weak, GError **error);
/* _wb_meta_broadcast: broadcast tensor shapes of @types; device of the first non-CPU-scalar tensor. */
gboolean _wb_meta_broadcast (const WbMetaCall *call, const WbType *types, guint n, WbType *out, GError **error);
/* _wb_meta_reduce_shape: @in with @dims removed (keepdim: set to 1). */
void _wb_meta_reduce_shape (const WbType *in, const gboolean *reduced, gboolean keepdim, WbType *out);
/* _wb_meta_reduction_dims: dims argument @i (None, int, or sequence; empty = all) as a mask over @rank. */
gboolean _wb_meta_reduction_dims (const WbMetaCall *call, guint i, guint rank, gboolean *mask, GError **error);

/* ---- meta functions (one per rule; rows of the symbols .def files name them without the prefix) --------------- */

/* wb-meta-elementwise.c */
gboolean _wb_meta_prim_unary (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_binary (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_frexp (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_real_imag (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_where (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_lerp (WbMetaCall *call, GError **error);
gboolean _wb_meta_unary (WbMetaCall *call, GError **error);
gboolean _wb_meta_binary (WbMetaCall *call, GError **error);
gboolean _wb_meta_where (WbMetaCall *call, GError **error);
gboolean _wb_meta_lerp (WbMetaCall *call, GError **error);
gboolean _wb_meta_clamp (WbMetaCall *call, GError **error);
gboolean _wb_meta_masked_fill (WbMetaCall *call, GError **error);
gboolean _wb_meta_same (WbMetaCall *call, GError **error);
gboolean _wb_meta_same_float (WbMetaCall *call, GError **error);

/* wb-meta-shape.c */
gboolean _wb_meta_prim_broadcast_in_dim (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_cat (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_flip (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_pad (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_reshape (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_slice (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_squeeze (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_transpose (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_unfold (WbMetaCall *call, GError **error);
gboolean _wb_meta_reshape (WbMetaCall *call, GError **error);
gboolean _wb_meta_expand (WbMetaCall *call, GError **error);
gboolean _wb_meta_expand_as (WbMetaCall *call, GError **error);
gboolean _wb_meta_unsqueeze (WbMetaCall *call, GError **error);
gboolean _wb_meta_squeeze (WbMetaCall *call, GError **error);
gboolean _wb_meta_permute (WbMetaCall *call, GError **error);
gboolean _wb_meta_transpose (WbMetaCall *call, GError **error);
gboolean _wb_meta_movedim (WbMetaCall *call, GError **error);
gboolean _wb_meta_flatten (WbMetaCall *call, GError **error);
gboolean _wb_meta_flip (WbMetaCall *call, GError **error);
gboolean _wb_meta_cat (WbMetaCall *call, GError **error);
gboolean _wb_meta_stack (WbMetaCall *call, GError **error);
gboolean _wb_meta_split (WbMetaCall *call, GError **error);
gboolean _wb_meta_chunk (WbMetaCall *call, GError **error);
gboolean _wb_meta_pad (WbMetaCall *call, GError **error);
gboolean _wb_meta_view_as (WbMetaCall *call, GError **error);

/* wb-meta-indexing.c */
gboolean _wb_meta_prim_take (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_take_along_axis (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_scatter_like (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_topk (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_sort (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_argminmax (WbMetaCall *call, GError **error);
gboolean _wb_meta_getitem (WbMetaCall *call, GError **error);
gboolean _wb_meta_take_along_dim (WbMetaCall *call, GError **error);
gboolean _wb_meta_gather (WbMetaCall *call, GError **error);
gboolean _wb_meta_index_select (WbMetaCall *call, GError **error);
gboolean _wb_meta_topk (WbMetaCall *call, GError **error);
gboolean _wb_meta_repeat_interleave (WbMetaCall *call, GError **error);
gboolean _wb_meta_tril (WbMetaCall *call, GError **error);

/* wb-meta-reduction.c */
gboolean _wb_meta_prim_reduction (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_var (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_var_mean (WbMetaCall *call, GError **error);
gboolean _wb_meta_reduction (WbMetaCall *call, GError **error);
gboolean _wb_meta_softmax (WbMetaCall *call, GError **error);
gboolean _wb_meta_cumsum (WbMetaCall *call, GError **error);

/* wb-meta-nn.c */
gboolean _wb_meta_prim_linear (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_matmul (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_grouped_mm (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_embedding (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_embedding_backward (WbMetaCall *call, GError **error);
gboolean _wb_meta_linear (WbMetaCall *call, GError **error);
gboolean _wb_meta_matmul (WbMetaCall *call, GError **error);
gboolean _wb_meta_bmm (WbMetaCall *call, GError **error);
gboolean _wb_meta_baddbmm (WbMetaCall *call, GError **error);
gboolean _wb_meta_outer (WbMetaCall *call, GError **error);
gboolean _wb_meta_embedding (WbMetaCall *call, GError **error);
gboolean _wb_meta_layer_norm (WbMetaCall *call, GError **error);
gboolean _wb_meta_rms_norm (WbMetaCall *call, GError **error);
gboolean _wb_meta_loss (WbMetaCall *call, GError **error);
gboolean _wb_meta_kl_div_vjp (WbMetaCall *call, GError **error);
gboolean _wb_meta_nll_loss_backward (WbMetaCall *call, GError **error);
gboolean _wb_meta_log_softmax_backward (WbMetaCall *call, GError **error);
gboolean _wb_meta_sdpa (WbMetaCall *call, GError **error);
/* wb-decomposition-mha.c */
gboolean _wb_meta_mha (WbMetaCall *call, GError **error);
gboolean _wb_meta_sdpa_efficient_forward (WbMetaCall *call, GError **error);
gboolean _wb_meta_sdpa_flash_forward (WbMetaCall *call, GError **error);
gboolean _wb_meta_sdpa_efficient_backward (WbMetaCall *call, GError **error);
gboolean _wb_meta_sdpa_flash_backward (WbMetaCall *call, GError **error);

/* wb-meta-creation.c */
gboolean _wb_meta_prim_full (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_iota (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_shape_create (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_randint (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_tensor_from_sequence (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_multinomial (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_rng_state (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_convert_element_type (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_device_put (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_bitcast (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_copy_ (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_item (WbMetaCall *call, GError **error);
gboolean _wb_meta_each_like (WbMetaCall *call, GError **error);
gboolean _wb_meta_to (WbMetaCall *call, GError **error);
gboolean _wb_meta_type_cast (WbMetaCall *call, GError **error);
gboolean _wb_meta_type_as (WbMetaCall *call, GError **error);
gboolean _wb_meta_arange (WbMetaCall *call, GError **error);
gboolean _wb_meta_factory (WbMetaCall *call, GError **error);
gboolean _wb_meta_factory_like (WbMetaCall *call, GError **error);
gboolean _wb_meta_full (WbMetaCall *call, GError **error);
gboolean _wb_meta_full_like (WbMetaCall *call, GError **error);
gboolean _wb_meta_copy_ (WbMetaCall *call, GError **error);
gboolean _wb_meta_dropout (WbMetaCall *call, GError **error);

/* wb-meta-utility.c */
gboolean _wb_meta_none (WbMetaCall *call, GError **error);
gboolean _wb_meta_any (WbMetaCall *call, GError **error);
gboolean _wb_meta_check_tensor (WbMetaCall *call, GError **error);
gboolean _wb_meta_check_number (WbMetaCall *call, GError **error);
gboolean _wb_meta_check_len (WbMetaCall *call, GError **error);
gboolean _wb_meta_unpack_sequence (WbMetaCall *call, GError **error);
gboolean _wb_meta_prim_shape (WbMetaCall *call, GError **error);
gboolean _wb_meta_get_grad (WbMetaCall *call, GError **error);
gboolean _wb_meta_construct_tuple (WbMetaCall *call, GError **error);

/* wb-meta-elementwise.c (ternary and order-first ops) */
gboolean _wb_meta_ternary (WbMetaCall *call, GError **error);
gboolean _wb_meta_polygamma (WbMetaCall *call, GError **error);
gboolean _wb_meta_polar (WbMetaCall *call, GError **error);

/* wb-meta-spatial.c */
gboolean _wb_meta_prim_convolution (WbMetaCall *call, GError **error);
gboolean _wb_meta_conv_nd (WbMetaCall *call, GError **error);
gboolean _wb_meta_max_pool (WbMetaCall *call, GError **error);
gboolean _wb_meta_max_pool_with_indices (WbMetaCall *call, GError **error);
gboolean _wb_meta_avg_pool (WbMetaCall *call, GError **error);
gboolean _wb_meta_adaptive_pool (WbMetaCall *call, GError **error);
gboolean _wb_meta_like_input (WbMetaCall *call, GError **error);
gboolean _wb_meta_channel_norm (WbMetaCall *call, GError **error);
gboolean _wb_meta_group_norm (WbMetaCall *call, GError **error);
gboolean _wb_meta_interpolate (WbMetaCall *call, GError **error);

/* wb-meta-inplace.c */
gboolean _wb_meta_inplace (WbMetaCall *call, GError **error);
gboolean _wb_meta_update (WbMetaCall *call, GError **error);
gboolean _wb_meta_tensor_size (WbMetaCall *call, GError **error);
gboolean _wb_meta_tensor_query (WbMetaCall *call, GError **error);

/* wb-meta-views.c */
gboolean _wb_meta_select (WbMetaCall *call, GError **error);
gboolean _wb_meta_diagonal (WbMetaCall *call, GError **error);
gboolean _wb_meta_t (WbMetaCall *call, GError **error);
gboolean _wb_meta_unbind (WbMetaCall *call, GError **error);
gboolean _wb_meta_tensor_split (WbMetaCall *call, GError **error);
gboolean _wb_meta_unflatten (WbMetaCall *call, GError **error);
gboolean _wb_meta_repeat (WbMetaCall *call, GError **error);
gboolean _wb_meta_atleast (WbMetaCall *call, GError **error);
gboolean _wb_meta_glu (WbMetaCall *call, GError **error);
gboolean _wb_meta_view_complex (WbMetaCall *call, GError **error);
gboolean _wb_meta_sort (WbMetaCall *call, GError **error);
gboolean _wb_meta_torch_max (WbMetaCall *call, GError **error);
gboolean _wb_meta_one_hot (WbMetaCall *call, GError **error);

/* wb-meta-einsum.c */
gboolean _wb_meta_einsum (WbMetaCall *call, GError **error);
gboolean _wb_meta_multi_dot (WbMetaCall *call, GError **error);

/* wb-meta-creation.c (ltorch factories with Python-style arguments) */
gboolean _wb_meta_randint (WbMetaCall *call, GError **error);
gboolean _wb_meta_torch_type (WbMetaCall *call, GError **error);
gboolean _wb_meta_to_cuda (WbMetaCall *call, GError **error);
gboolean _wb_meta_philox_rand (WbMetaCall *call, GError **error);

/* wb-meta-utility.c (collectives) and wb-meta-nn.c (scaled_mm) */
gboolean _wb_meta_collective (WbMetaCall *call, GError **error);
gboolean _wb_meta_wait (WbMetaCall *call, GError **error);
gboolean _wb_meta_scaled_mm (WbMetaCall *call, GError **error);

/* wb-meta-distributed.c (thunder/distributed/prims.py) */
gboolean _wb_meta_dist_all_gather (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_reduce_scatter (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_ltorch_resize (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_like (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_wait (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_synchronize (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_pack (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_unpack (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_unpack_for_fsdp (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_first_like (WbMetaCall *call, GError **error);
gboolean _wb_meta_dist_tensor_parallel (WbMetaCall *call, GError **error);

/* wb-meta-dtensor.c (thunder/torch/experimental/dtensor_torch_and_prims.py) */
gboolean _wb_meta_dtensor_from_local (WbMetaCall *call, GError **error);
gboolean _wb_meta_dtensor_to_local (WbMetaCall *call, GError **error);
gboolean _wb_meta_dtensor_redistribute (WbMetaCall *call, GError **error);

G_END_DECLS
