/* wb-cuda-codegen.c — CUDA C generation for fusion regions and single ops (WbCudaPlan)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Values are emitted lazily: emit (value, index) appends the statements that compute @value at the
 * multi-index @index to the kernel being built and returns a C expression (a variable or a literal). An
 * index is one C expression per dim, plus the row-major linear index when it is known to be exactly
 * that (so reshape and squeeze of a contiguous walk cost nothing). Emitted values are memoised per
 * (value, index) in a stack of scopes that follows the C blocks (loops of reductions, branches of pad and
 * cat), which is the common-subexpression elimination inside a kernel. */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen.h"
#include "wb-cuda-prelude.h"

G_DEFINE_QUARK (wb - cuda - codegen - error - quark, wb_cuda_codegen_error)

#define MAX_NODE_ARGS 8

typedef enum
{
  CLS_F = 1, /* float: f32, bf16, f16 */
  CLS_D,     /* double: f64 */
  CLS_I,     /* long long: integers and b8 */
} Cls;

typedef struct _Node Node;

typedef struct
{
  const char *name;
  gboolean    is_tensor;
  WbDtype     dtype;
  guint       rank;
  gint64      shape[WB_MAX_RANK];
  /* numbers */
  gboolean is_float;
  double   f;
  gint64   i;
  /* definition: an input slot, or output @def_out of @def */
  int    input;
  gint64 strides[WB_MAX_RANK]; /* inputs */
  Node  *def;
  guint  def_out;
  /* planning */
  int      buffer; /* >= 0: written to buffer k by its kernel (reductions) */
  gboolean needed;
  guint    id;
} Val;

struct _Node
{
  const WbBsym  *b;
  const char    *op;                 /* prim name without "prims." */
  const WbValue *arg[MAX_NODE_ARGS]; /* bound by the symbol's signature; NULL when absent */
  guint          n_arg;
  Val           *out[2];
  guint          n_out;
  gboolean       is_reduction;
  gboolean       done; /* reduction kernel emitted */
};

typedef struct
{
  guint       rank;
  const char *e[WB_MAX_RANK];
  const char *lin; /* row-major linear index of the shape the index belongs to, or NULL */
} Idx;

typedef struct
{
  GPtrArray    *nodes; /* Node* */
  GHashTable   *env;   /* name -> Val* */
  GPtrArray    *vals;  /* every Val (owned) */
  GStringChunk *strings;
  GArray       *buffers; /* WbCudaBuffer */
  GArray       *kernels; /* WbCudaKernel */
  GString      *source;
  guint         n_inputs;
  guint         n_ops;
  guint         n_literal;
} Gen;

typedef struct
{
  Gen        *g;
  GString    *body;
  int         indent;
  GPtrArray  *memo; /* stack of GHashTable* (key -> expression) */
  guint       next_var;
  GArray     *params; /* guint slots, in parameter order */
  const char *ity;    /* index type: "int" or "long long" */
} Kern;

/* -- small helpers -------------------------------------------------------------------------- */

static gboolean
fail (GError **error, int code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError **error, int code, const char *format, ...)
{
  va_list ap;
  char   *msg;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, WB_CUDA_CODEGEN_ERROR, code, msg);
  g_free (msg);
  return FALSE;
}

static const char *
gstr (Gen *g, const char *format, ...) G_GNUC_PRINTF (2, 3);

static const char *
gstr (Gen *g, const char *format, ...)
{
  va_list     ap;
  char       *s;
  const char *r;

  va_start (ap, format);
  s = g_strdup_vprintf (format, ap);
  va_end (ap);
  r = g_string_chunk_insert (g->strings, s);
  g_free (s);
  return r;
}

static gint64
numel_of (guint rank, const gint64 *shape)
{
  gint64 n = 1;

  for (guint d = 0; d < rank; d++)
    n *= shape[d];
  return n;
}

static void
contiguous_strides (guint rank, const gint64 *shape, gint64 *strides)
{
  gint64 s = 1;

  for (int d = (int) rank - 1; d >= 0; d--)
    {
      strides[d] = s;
      s *= MAX (shape[d], 1);
    }
}

static Cls
dtype_cls (WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_FLOAT32:
    case WB_DTYPE_BFLOAT16:
    case WB_DTYPE_FLOAT16:
      return CLS_F;
    case WB_DTYPE_FLOAT64:
      return CLS_D;
    default:
      return CLS_I;
    }
}

static gboolean
dtype_supported (WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_FLOAT64:
    case WB_DTYPE_FLOAT32:
    case WB_DTYPE_BFLOAT16:
    case WB_DTYPE_FLOAT16:
    case WB_DTYPE_INT64:
    case WB_DTYPE_INT32:
    case WB_DTYPE_INT16:
    case WB_DTYPE_INT8:
    case WB_DTYPE_UINT8:
    case WB_DTYPE_BOOL8:
      return TRUE;
    default:
      return FALSE;
    }
}

static const char *
cls_ctype (Cls c)
{
  return c == CLS_F ? "float" : c == CLS_D ? "double"
                                           : "long long";
}

/* storage C type of a dtype in kernel parameters */
const char *
wb_cuda_storage_ctype (WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_FLOAT64:
      return "double";
    case WB_DTYPE_FLOAT32:
      return "float";
    case WB_DTYPE_BFLOAT16:
    case WB_DTYPE_FLOAT16:
      return "unsigned short";
    case WB_DTYPE_INT64:
      return "long long";
    case WB_DTYPE_INT32:
      return "int";
    case WB_DTYPE_INT16:
      return "short";
    case WB_DTYPE_INT8:
      return "signed char";
    case WB_DTYPE_UINT8:
    case WB_DTYPE_BOOL8:
      return "unsigned char";
    default:
      return NULL;
    }
}

/* The expression converting @x (class @from) to class @to, without rounding to a dtype. */
static const char *
cast_cls (Gen *g, const char *x, Cls from, Cls to)
{
  if (from == to)
    return x;
  if (to == CLS_I)
    return gstr (g, "wb_f_to_i (%s)", x);
  return gstr (g, "(%s) (%s)", cls_ctype (to), x);
}

/* @x (of class dtype_cls (dt)) rounded or wrapped to what dtype @dt can hold. */
static const char *
normalize (Gen *g, const char *x, WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_BFLOAT16:
      return gstr (g, "wb_round_bf16 (%s)", x);
    case WB_DTYPE_FLOAT16:
      return gstr (g, "wb_round_f16 (%s)", x);
    case WB_DTYPE_INT32:
      return gstr (g, "(long long) (int) (%s)", x);
    case WB_DTYPE_INT16:
      return gstr (g, "(long long) (short) (%s)", x);
    case WB_DTYPE_INT8:
      return gstr (g, "(long long) (signed char) (%s)", x);
    case WB_DTYPE_UINT8:
      return gstr (g, "(long long) (unsigned char) (%s)", x);
    case WB_DTYPE_BOOL8:
      return gstr (g, "(long long) ((%s) != 0)", x);
    default:
      return x;
    }
}

/* Converts @x of dtype @from (a value of its class) to dtype @to as convert_element_type does. */
static const char *
convert (Gen *g, const char *x, WbDtype from, WbDtype to)
{
  Cls cf = dtype_cls (from), ct = dtype_cls (to);

  if (to == WB_DTYPE_BOOL8)
    return gstr (g, "(long long) ((%s) != 0)", x);
  if ((to == WB_DTYPE_BFLOAT16 || to == WB_DTYPE_FLOAT16) && cf != CLS_F)
    x = gstr (g, "(float) (%s)", x), cf = CLS_F; /* wider sources go through f32 (wb-half.h) */
  return normalize (g, cast_cls (g, x, cf, ct), to);
}

/* Loads element @off of parameter @p (dtype @dt) as a value of its class. */
static const char *
load_expr (Gen *g, const char *p, const char *off, WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_BFLOAT16:
      return gstr (g, "wb_bf16_to_f (%s[%s])", p, off);
    case WB_DTYPE_FLOAT16:
      return gstr (g, "wb_f16_to_f (%s[%s])", p, off);
    case WB_DTYPE_FLOAT32:
    case WB_DTYPE_FLOAT64:
      return gstr (g, "%s[%s]", p, off);
    default:
      return gstr (g, "(long long) %s[%s]", p, off);
    }
}

/* The statement storing @x (class of @dt, already normalized) at @p[@off]. */
static const char *
store_stmt (Gen *g, const char *p, const char *off, const char *x, WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_BFLOAT16:
      return gstr (g, "%s[%s] = wb_f_to_bf16 (%s);", p, off, x);
    case WB_DTYPE_FLOAT16:
      return gstr (g, "%s[%s] = wb_f_to_f16 (%s);", p, off, x);
    default:
      return gstr (g, "%s[%s] = (%s) (%s);", p, off, wb_cuda_storage_ctype (dt), x);
    }
}

static const char *
literal (Gen *g, const Val *v, Cls cls)
{
  if (cls == CLS_I)
    {
      gint64 x = v->is_float ? (isnan (v->f) ? 0 : (gint64) v->f) : v->i;
      if (x == G_MININT64)
        return "WB_I64_MIN";
      return gstr (g, "%" G_GINT64_FORMAT "LL", x);
    }
  else
    {
      double x = v->is_float ? v->f : (double) v->i;
      char   buf[G_ASCII_DTOSTR_BUF_SIZE];
      if (isnan (x))
        return cls == CLS_F ? "WB_NAN_F" : "WB_NAN_D";
      if (isinf (x))
        return x > 0 ? (cls == CLS_F ? "WB_INF_F" : "WB_INF_D") : (cls == CLS_F ? "(-WB_INF_F)" : "(-WB_INF_D)");
      g_ascii_formatd (buf, sizeof buf, "%.17g", x);
      if (!strpbrk (buf, ".eE"))
        strcat (buf, ".0");
      return cls == CLS_F ? gstr (g, "((float) %s)", buf) : gstr (g, "(%s)", buf);
    }
}

/* -- the elementwise table (semantics of executors/cpu/wb-cpu-elementwise.def) ------------- */

typedef struct
{
  const char *name;
  guint       arity;
  gboolean    res_bool;
  const char *f; /* float expression of $0 $1 $2; NULL: not for this class */
  const char *d;
  const char *i;
} EwOp;

static const EwOp ew_ops[] = {
  { "py_abs", 1, FALSE, "fabsf ($0)", "fabs ($0)", "($0 < 0 ? wb_neg_i ($0) : $0)" },
  { "abs", 1, FALSE, "fabsf ($0)", "fabs ($0)", "($0 < 0 ? wb_neg_i ($0) : $0)" },
  { "acos", 1, FALSE, "acosf ($0)", "acos ($0)", NULL },
  { "acosh", 1, FALSE, "acoshf ($0)", "acosh ($0)", NULL },
  { "asin", 1, FALSE, "asinf ($0)", "asin ($0)", NULL },
  { "asinh", 1, FALSE, "asinhf ($0)", "asinh ($0)", NULL },
  { "atan", 1, FALSE, "atanf ($0)", "atan ($0)", NULL },
  { "atanh", 1, FALSE, "atanhf ($0)", "atanh ($0)", NULL },
  { "bitwise_not", 1, FALSE, NULL, NULL, "(~$0)" },
  { "ceil", 1, FALSE, "ceilf ($0)", "ceil ($0)", "$0" },
  { "cos", 1, FALSE, "cosf ($0)", "cos ($0)", NULL },
  { "cosh", 1, FALSE, "coshf ($0)", "cosh ($0)", NULL },
  { "erf", 1, FALSE, "erff ($0)", "erf ($0)", NULL },
  { "erfc", 1, FALSE, "erfcf ($0)", "erfc ($0)", NULL },
  { "erfinv", 1, FALSE, "erfinvf ($0)", "erfinv ($0)", NULL },
  { "erfcinv", 1, FALSE, "erfcinvf ($0)", "erfcinv ($0)", NULL },
  { "exp", 1, FALSE, "expf ($0)", "exp ($0)", NULL },
  { "exp2", 1, FALSE, "exp2f ($0)", "exp2 ($0)", NULL },
  { "expm1", 1, FALSE, "expm1f ($0)", "expm1 ($0)", NULL },
  { "floor", 1, FALSE, "floorf ($0)", "floor ($0)", "$0" },
  { "isfinite", 1, TRUE, "(long long) isfinite ($0)", "(long long) isfinite ($0)", "1LL" },
  { "lgamma", 1, FALSE, "lgammaf ($0)", "lgamma ($0)", NULL },
  { "log", 1, FALSE, "logf ($0)", "log ($0)", NULL },
  { "log10", 1, FALSE, "log10f ($0)", "log10 ($0)", NULL },
  { "log1p", 1, FALSE, "log1pf ($0)", "log1p ($0)", NULL },
  { "log2", 1, FALSE, "log2f ($0)", "log2 ($0)", NULL },
  { "ndtri", 1, FALSE, "normcdfinvf ($0)", "normcdfinv ($0)", NULL },
  { "neg", 1, FALSE, "(-$0)", "(-$0)", "wb_neg_i ($0)" },
  { "reciprocal", 1, FALSE, "(1.0f / $0)", "(1.0 / $0)", NULL },
  { "round", 1, FALSE, "rintf ($0)", "rint ($0)", "$0" },
  { "rsqrt", 1, FALSE, "(1.0f / sqrtf ($0))", "(1.0 / sqrt ($0))", NULL },
  { "sign", 1, FALSE, "wb_sign_f ($0)", "wb_sign_d ($0)", "(long long) (($0 > 0) - ($0 < 0))" },
  { "signbit", 1, TRUE, "(long long) (signbit ($0) != 0)", "(long long) (signbit ($0) != 0)", "(long long) ($0 < 0)" },
  { "sin", 1, FALSE, "sinf ($0)", "sin ($0)", NULL },
  { "sinh", 1, FALSE, "sinhf ($0)", "sinh ($0)", NULL },
  { "sqrt", 1, FALSE, "sqrtf ($0)", "sqrt ($0)", NULL },
  { "tan", 1, FALSE, "tanf ($0)", "tan ($0)", NULL },
  { "tanh", 1, FALSE, "tanhf ($0)", "tanh ($0)", NULL },
  { "trunc", 1, FALSE, "truncf ($0)", "trunc ($0)", "$0" },
  { "real", 1, FALSE, "$0", "$0", "$0" },
  { "add", 2, FALSE, "($0 + $1)", "($0 + $1)", "(long long) ((unsigned long long) $0 + (unsigned long long) $1)" },
  { "atan2", 2, FALSE, "atan2f ($0, $1)", "atan2 ($0, $1)", NULL },
  { "bitwise_and", 2, FALSE, NULL, NULL, "($0 & $1)" },
  { "bitwise_or", 2, FALSE, NULL, NULL, "($0 | $1)" },
  { "bitwise_xor", 2, FALSE, NULL, NULL, "($0 ^ $1)" },
  { "bitwise_left_shift", 2, FALSE, NULL, NULL, "wb_shl_i ($0, $1)" },
  { "bitwise_right_shift", 2, FALSE, NULL, NULL, "wb_shr_i ($0, $1)" },
  { "div", 2, FALSE, "($0 / $1)", "($0 / $1)", "wb_div_i ($0, $1)" },
  { "py_floordiv", 2, FALSE, "floorf ($0 / $1)", "floor ($0 / $1)", "wb_floordiv_i ($0, $1)" },
  { "eq", 2, TRUE, "(long long) ($0 == $1)", "(long long) ($0 == $1)", "(long long) ($0 == $1)" },
  { "ne", 2, TRUE, "(long long) ($0 != $1)", "(long long) ($0 != $1)", "(long long) ($0 != $1)" },
  { "ge", 2, TRUE, "(long long) ($0 >= $1)", "(long long) ($0 >= $1)", "(long long) ($0 >= $1)" },
  { "gt", 2, TRUE, "(long long) ($0 > $1)", "(long long) ($0 > $1)", "(long long) ($0 > $1)" },
  { "le", 2, TRUE, "(long long) ($0 <= $1)", "(long long) ($0 <= $1)", "(long long) ($0 <= $1)" },
  { "lt", 2, TRUE, "(long long) ($0 < $1)", "(long long) ($0 < $1)", "(long long) ($0 < $1)" },
  { "fmod", 2, FALSE, "fmodf ($0, $1)", "fmod ($0, $1)", "wb_fmod_i ($0, $1)" },
  { "maximum", 2, FALSE, "wb_max_f ($0, $1)", "wb_max_d ($0, $1)", "wb_max_i ($0, $1)" },
  { "minimum", 2, FALSE, "wb_min_f ($0, $1)", "wb_min_d ($0, $1)", "wb_min_i ($0, $1)" },
  { "mul", 2, FALSE, "($0 * $1)", "($0 * $1)", "(long long) ((unsigned long long) $0 * (unsigned long long) $1)" },
  { "nextafter", 2, FALSE, "nextafterf ($0, $1)", "nextafter ($0, $1)", NULL },
  { "pow", 2, FALSE, "powf ($0, $1)", "pow ($0, $1)", "wb_pow_i ($0, $1)" },
  { "remainder", 2, FALSE, "(float) wb_rem_d ($0, $1)", "wb_rem_d ($0, $1)", "wb_rem_i ($0, $1)" },
  { "sub", 2, FALSE, "($0 - $1)", "($0 - $1)", "(long long) ((unsigned long long) $0 - (unsigned long long) $1)" },
  { "where", 3, FALSE, "($0 != 0 ? $1 : $2)", "($0 != 0 ? $1 : $2)", "($0 != 0 ? $1 : $2)" },
  { "lerp", 3, FALSE, "wb_lerp_f ($0, $1, $2)", "wb_lerp_d ($0, $1, $2)", NULL },
};

static const EwOp *
ew_lookup (const char *op)
{
  for (guint k = 0; k < G_N_ELEMENTS (ew_ops); k++)
    if (strcmp (ew_ops[k].name, op) == 0)
      return &ew_ops[k];
  return NULL;
}

static const char *
ew_expand (Gen *g, const char *tmpl, const char *const *ops)
{
  GString    *s = g_string_new (NULL);
  const char *r;

  for (const char *p = tmpl; *p; p++)
    {
      if (p[0] == '$' && p[1] >= '0' && p[1] <= '2')
        {
          g_string_append (s, ops[p[1] - '0']);
          p++;
        }
      else
        g_string_append_c (s, *p);
    }
  r = g_string_chunk_insert (g->strings, s->str);
  g_string_free (s, TRUE);
  return r;
}

/* Ops the generator folds into indexing or handles specially, besides ew_ops. */
static const char *const view_ops[] = { "broadcast_in_dim", "reshape", "view", "transpose", "squeeze", "slice_prim", "flip",
                                        "shallow_copy", "stride_order", "clone", "convert_element_type", NULL };
static const char *const index_ops[] = { "take", "take_along_axis", "gather", "pad", "cat", "iota", "full", NULL };
static const char *const reduction_ops[] = { "sum", "prod", "amax", "amin", "var", "std", "var_mean", NULL };

static gboolean
in_list (const char *name, const char *const *list)
{
  for (guint i = 0; list[i]; i++)
    if (strcmp (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
op_supported (const char *op)
{
  return ew_lookup (op) || in_list (op, view_ops) || in_list (op, index_ops) || in_list (op, reduction_ops);
}

/* -- building the graph ------------------------------------------------------------------- */

static Val *
val_new (Gen *g, const char *name)
{
  Val *v = g_new0 (Val, 1);

  v->name = name;
  v->input = -1;
  v->buffer = -1;
  v->id = g->vals->len;
  g_ptr_array_add (g->vals, v);
  return v;
}

static gboolean
lookup_type (const char *name, WbType *out, gpointer data)
{
  Gen     *g = data;
  Val     *v = g_hash_table_lookup (g->env, name);
  WbDevice dev = { WB_DEVICE_CUDA, 0 };

  if (v == NULL)
    return FALSE;
  memset (out, 0, sizeof *out);
  if (v->is_tensor)
    {
      wb_type_init_tensor (out, v->dtype, &dev, v->rank, v->shape);
      return TRUE;
    }
  out->has_value = TRUE;
  if (v->dtype == WB_DTYPE_BOOL8)
    out->kind = WB_TYPE_BOOL, out->int_value = v->i != 0;
  else if (v->is_float)
    out->kind = WB_TYPE_FLOAT, out->float_value = v->f;
  else
    out->kind = WB_TYPE_INT, out->int_value = v->i;
  return TRUE;
}

/* Binds @b's printed arguments to its symbol's parameters: node->arg[p] for parameter p. */
static gboolean
bind_args (Node *n, GError **error)
{
  guint          n_params = 0;
  const WbParam *params = wb_symbol_get_params (n->b->symbol, &n_params);
  guint          pos = 0;

  n->n_arg = MIN (n_params, MAX_NODE_ARGS);
  for (guint i = 0; i < n->b->n_args; i++)
    {
      while (pos < n->n_arg && params[pos].kind == WB_PARAM_KEYWORD_ONLY)
        pos++;
      if (pos >= n->n_arg)
        return fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: too many arguments", n->b->name);
      n->arg[pos++] = n->b->args[i];
    }
  for (guint i = 0; i < n->b->n_kwargs; i++)
    {
      gboolean found = FALSE;
      for (guint p = 0; p < n->n_arg && !found; p++)
        if (strcmp (params[p].name, n->b->kwargs[i].name) == 0)
          n->arg[p] = n->b->kwargs[i].value, found = TRUE;
      if (!found)
        return fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: unknown keyword %s", n->b->name, n->b->kwargs[i].name);
    }
  return TRUE;
}

/* A number operand: a literal, a negated literal or name, or a name bound to a number. */
static Val *
number_of (Gen *g, const WbValue *v)
{
  Val *x;

  if (v == NULL)
    return NULL;
  switch (v->kind)
    {
    case WB_VALUE_INT:
    case WB_VALUE_BOOL:
    case WB_VALUE_FLOAT:
      x = val_new (g, gstr (g, "_lit%u", g->n_literal++));
      x->is_float = v->kind == WB_VALUE_FLOAT;
      x->dtype = v->kind == WB_VALUE_FLOAT ? WB_DTYPE_FLOAT64 : v->kind == WB_VALUE_BOOL ? WB_DTYPE_BOOL8
                                                                                         : WB_DTYPE_INT64;
      if (v->kind == WB_VALUE_FLOAT)
        x->f = v->v.f;
      else
        x->i = v->kind == WB_VALUE_BOOL ? v->v.b : v->v.i;
      return x;
    case WB_VALUE_NEG:
      {
        Val *base = number_of (g, v->base);
        if (base == NULL)
          return NULL;
        x = val_new (g, gstr (g, "_lit%u", g->n_literal++));
        *x = *base;
        x->id = g->vals->len - 1;
        x->f = -base->f;
        x->i = -base->i;
        return x;
      }
    case WB_VALUE_NAME:
      x = g_hash_table_lookup (g->env, v->text);
      return x && !x->is_tensor ? x : NULL;
    default:
      return NULL;
    }
}

/* The operand value of printed @v: a tensor or number Val. */
static Val *
operand (Gen *g, const WbValue *v)
{
  if (v == NULL)
    return NULL;
  if (v->kind == WB_VALUE_NAME)
    return g_hash_table_lookup (g->env, v->text);
  return number_of (g, v);
}

static gboolean
get_ints (const WbValue *v, gint64 *out, guint max, guint *n)
{
  return v != NULL && wb_value_get_int_sequence (v, out, max, n, TRUE);
}

/* Evaluates an elementwise op whose operands are all numbers (Python semantics, as the cpu executor). */
static gboolean
fold_numbers (Gen *g, Node *n, const EwOp *op, Val **ops, Val *out, GError **error)
{
  gboolean all_int = TRUE;
  double   a[3] = { 0 };

  for (guint k = 0; k < op->arity; k++)
    {
      all_int &= !ops[k]->is_float || (strcmp (op->name, "where") == 0 && k == 0);
      a[k] = ops[k]->is_float ? ops[k]->f : (double) ops[k]->i;
    }
  out->is_tensor = FALSE;
  if (all_int && strcmp (op->name, "div") != 0)
    {
      gint64 x = (gint64) a[0], y = (gint64) a[1], r;
      if (strcmp (op->name, "add") == 0)
        r = x + y;
      else if (strcmp (op->name, "sub") == 0)
        r = x - y;
      else if (strcmp (op->name, "mul") == 0)
        r = x * y;
      else if (strcmp (op->name, "neg") == 0)
        r = -x;
      else if (strcmp (op->name, "abs") == 0 || strcmp (op->name, "py_abs") == 0)
        r = x < 0 ? -x : x;
      else if (strcmp (op->name, "eq") == 0)
        r = x == y;
      else if (strcmp (op->name, "ne") == 0)
        r = x != y;
      else if (strcmp (op->name, "lt") == 0)
        r = x < y;
      else if (strcmp (op->name, "le") == 0)
        r = x <= y;
      else if (strcmp (op->name, "gt") == 0)
        r = x > y;
      else if (strcmp (op->name, "ge") == 0)
        r = x >= y;
      else
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of numbers only is not generated", op->name);
      out->i = r;
      out->dtype = op->res_bool ? WB_DTYPE_BOOL8 : WB_DTYPE_INT64;
      return TRUE;
    }
  else
    {
      double x = a[0], y = a[1], r;
      if (strcmp (op->name, "add") == 0)
        r = x + y;
      else if (strcmp (op->name, "sub") == 0)
        r = x - y;
      else if (strcmp (op->name, "mul") == 0)
        r = x * y;
      else if (strcmp (op->name, "div") == 0)
        r = x / y;
      else if (strcmp (op->name, "neg") == 0)
        r = -x;
      else if (strcmp (op->name, "sqrt") == 0)
        r = sqrt (x);
      else if (strcmp (op->name, "pow") == 0)
        r = pow (x, y);
      else if (strcmp (op->name, "reciprocal") == 0)
        r = 1.0 / x;
      else
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of numbers only is not generated", op->name);
      (void) n;
      out->is_float = TRUE;
      out->f = r;
      out->dtype = WB_DTYPE_FLOAT64;
      return TRUE;
    }
}

static gboolean add_body (Gen *g, const WbBsym *const *body, guint n_body, int depth, GError **error);

static void
collect_outputs (const WbValue *name, gpointer data)
{
  g_ptr_array_add (data, (gpointer) name->text);
}

static gboolean
add_node (Gen *g, const WbBsym *b, const char *op, GError **error)
{
  const char *full = b->name;
  Node       *n;
  g_autoptr (GArray) types = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (GError) local = NULL;

  n = g_new0 (Node, 1);
  n->b = b;
  n->op = op;
  g_ptr_array_add (g->nodes, n);
  g->n_ops++;
  if (!bind_args (n, error))
    return FALSE;
  n->is_reduction = in_list (n->op, reduction_ops);

  outs = g_ptr_array_new ();
  wb_bsym_foreach_output (b, collect_outputs, outs);
  types = g_array_new (FALSE, TRUE, sizeof (WbType));
  if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, lookup_type, g, types, &local))
    return fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: %s", full, local->message);
  if (outs->len > 2 || types->len < outs->len)
    return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: %u outputs", full, outs->len);

  /* all-number elementwise ops fold now */
  {
    const EwOp *ew = ew_lookup (n->op);
    if (ew != NULL && outs->len == 1 && g_array_index (types, WbType, 0).kind != WB_TYPE_TENSOR)
      {
        Val *ops[3] = { NULL };
        Val *out = val_new (g, outs->pdata[0]);
        for (guint k = 0; k < ew->arity; k++)
          if ((ops[k] = number_of (g, n->arg[k])) == NULL)
            return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: operand %u is not a number", full, k);
        if (!fold_numbers (g, n, ew, ops, out, error))
          return FALSE;
        g_hash_table_replace (g->env, (gpointer) out->name, out);
        return TRUE;
      }
  }
  if (strcmp (n->op, "convert_element_type") == 0 && outs->len == 1 && g_array_index (types, WbType, 0).kind != WB_TYPE_TENSOR)
    {
      Val     *x = number_of (g, n->arg[0]), *out;
      WbDtype  dt;
      gboolean weak;
      if (x == NULL || !wb_value_get_dtype (n->arg[1], &dt, &weak))
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s of a number", full);
      out = val_new (g, outs->pdata[0]);
      out->dtype = wb_dtype_is_float (dt) ? WB_DTYPE_FLOAT64 : dt == WB_DTYPE_BOOL8 ? WB_DTYPE_BOOL8
                                                                                    : WB_DTYPE_INT64;
      out->is_float = wb_dtype_is_float (dt);
      out->f = x->is_float ? x->f : (double) x->i;
      out->i = x->is_float ? (gint64) x->f : x->i;
      if (dt == WB_DTYPE_BOOL8)
        out->i = out->f != 0;
      g_hash_table_replace (g->env, (gpointer) out->name, out);
      return TRUE;
    }

  for (guint k = 0; k < outs->len; k++)
    {
      const WbType *t = &g_array_index (types, WbType, k);
      Val          *v;
      if (t->kind != WB_TYPE_TENSOR)
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: output %u is not a tensor", full, k);
      if (!dtype_supported (t->dtype))
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: dtype %s is not supported", full, wb_dtype_shortname (t->dtype));
      v = val_new (g, outs->pdata[k]);
      v->is_tensor = TRUE;
      v->dtype = t->dtype;
      v->rank = t->rank;
      memcpy (v->shape, t->shape, sizeof (gint64) * t->rank);
      v->def = n;
      v->def_out = k;
      n->out[n->n_out++] = v;
      g_hash_table_replace (g->env, (gpointer) v->name, v);
    }
  if (n->n_out == 0)
    return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: no output", full);
  return TRUE;
}

static gboolean
add_body (Gen *g, const WbBsym *const *body, guint n_body, int depth, GError **error)
{
  if (depth > 16)
    return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "decomposition too deep");
  for (guint i = 0; i < n_body; i++)
    {
      const WbBsym *b = body[i];
      if (b->kind != WB_BSYM_CALL)
        continue;
      if (b->symbol == NULL)
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: unknown symbol", b->name);
      if (wb_symbol_get_module (b->symbol) == WB_SYMBOL_MODULE_PRIMS && wb_symbol_get_like (b->symbol) == NULL)
        {
          if (!op_supported (b->name + strlen ("prims.")))
            return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "no generator for %s", b->name);
          if (!add_node (g, b, b->name + strlen ("prims."), error))
            return FALSE;
        }
      else if (b->n_subsymbols > 0)
        {
          if (!add_body (g, (const WbBsym *const *) b->subsymbols, b->n_subsymbols, depth + 1, error))
            return FALSE;
        }
      else if (wb_symbol_get_like (b->symbol) != NULL && wb_symbol_get_module (wb_symbol_get_like (b->symbol)) == WB_SYMBOL_MODULE_PRIMS)
        {
          /* an executor's alias of a prim (torch_div_prim_impl -> prims.div): same signature and meta */
          const char *like = wb_symbol_get_name (wb_symbol_get_like (b->symbol));
          if (!op_supported (like + strlen ("prims.")))
            return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "no generator for %s (%s)", b->name, like);
          if (!add_node (g, b, like + strlen ("prims."), error))
            return FALSE;
        }
      else
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s has no decomposition to generate from", b->name);
    }
  return TRUE;
}

/* -- kernels: lines, memo scopes, parameters ------------------------------------------------ */

static Kern *
kern_new (Gen *g, const char *ity)
{
  Kern *k = g_new0 (Kern, 1);

  k->g = g;
  k->body = g_string_new (NULL);
  k->indent = 1;
  k->memo = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_ptr_array_add (k->memo, g_hash_table_new (g_str_hash, g_str_equal));
  k->params = g_array_new (FALSE, FALSE, sizeof (guint));
  k->ity = ity;
  return k;
}

static void
kern_free (Kern *k)
{
  g_string_free (k->body, TRUE);
  g_ptr_array_unref (k->memo);
  g_array_unref (k->params);
  g_free (k);
}

static void
line (Kern *k, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
line (Kern *k, const char *format, ...)
{
  va_list ap;

  for (int i = 0; i < k->indent; i++)
    g_string_append (k->body, "  ");
  va_start (ap, format);
  g_string_append_vprintf (k->body, format, ap);
  va_end (ap);
  g_string_append_c (k->body, '\n');
}

static void
open_block (Kern *k)
{
  k->indent++;
  g_ptr_array_add (k->memo, g_hash_table_new (g_str_hash, g_str_equal));
}

static void
close_block (Kern *k)
{
  k->indent--;
  g_ptr_array_remove_index (k->memo, k->memo->len - 1);
}

static const char *
memo_get (Kern *k, const char *key)
{
  for (guint i = k->memo->len; i > 0; i--)
    {
      const char *x = g_hash_table_lookup (k->memo->pdata[i - 1], key);
      if (x != NULL)
        return x;
    }
  return NULL;
}

static void
memo_put (Kern *k, const char *key, const char *expr)
{
  g_hash_table_insert (k->memo->pdata[k->memo->len - 1], (gpointer) key, (gpointer) expr);
}

static const char *
new_var (Kern *k, const char *ctype, const char *expr)
{
  const char *name = gstr (k->g, "v%u", k->next_var++);

  line (k, "const %s %s = %s;", ctype, name, expr);
  return name;
}

static const char *
param (Kern *k, guint slot)
{
  for (guint i = 0; i < k->params->len; i++)
    if (g_array_index (k->params, guint, i) == slot)
      return gstr (k->g, "p%u", slot);
  g_array_append_val (k->params, slot);
  return gstr (k->g, "p%u", slot);
}

static const char *
idx_key (Gen *g, guint id, const Idx *ix)
{
  GString    *s = g_string_new (NULL);
  const char *r;

  g_string_append_printf (s, "%u@", id);
  for (guint d = 0; d < ix->rank; d++)
    g_string_append_printf (s, "%s,", ix->e[d]);
  r = g_string_chunk_insert (g->strings, s->str);
  g_string_free (s, TRUE);
  return r;
}

/* An index over @shape from linear index @lin (declares the per-dim variables). */
static void
idx_unravel (Kern *k, const char *lin, guint rank, const gint64 *shape, Idx *out)
{
  gint64   cs[WB_MAX_RANK];
  gboolean outer = TRUE;

  contiguous_strides (rank, shape, cs);
  out->rank = rank;
  out->lin = lin;
  for (guint d = 0; d < rank; d++)
    {
      const char *e;
      if (shape[d] == 1)
        {
          out->e[d] = "0";
          continue;
        }
      if (cs[d] == 1)
        e = outer ? lin : gstr (k->g, "%s %% %" G_GINT64_FORMAT, lin, shape[d]);
      else
        e = outer ? gstr (k->g, "%s / %" G_GINT64_FORMAT, lin, cs[d])
                  : gstr (k->g, "(%s / %" G_GINT64_FORMAT ") %% %" G_GINT64_FORMAT, lin, cs[d], shape[d]);
      outer = FALSE;
      out->e[d] = gstr (k->g, "i%u", k->next_var++);
      line (k, "const %s %s = %s;", k->ity, out->e[d], e);
    }
}

/* The row-major linear index of @ix over @shape (an expression). */
static const char *
idx_linear (Kern *k, const Idx *ix, guint rank, const gint64 *shape)
{
  gint64      cs[WB_MAX_RANK];
  GString    *s;
  const char *r;

  if (ix->lin)
    return ix->lin;
  contiguous_strides (rank, shape, cs);
  s = g_string_new (NULL);
  for (guint d = 0; d < rank; d++)
    {
      if (strcmp (ix->e[d], "0") == 0)
        continue;
      if (s->len)
        g_string_append (s, " + ");
      if (cs[d] == 1)
        g_string_append_printf (s, "%s", ix->e[d]);
      else
        g_string_append_printf (s, "%s * %" G_GINT64_FORMAT, ix->e[d], cs[d]);
    }
  if (s->len == 0)
    g_string_append (s, "0");
  r = new_var (k, k->ity, s->str);
  g_string_free (s, TRUE);
  return r;
}

/* -- emission ------------------------------------------------------------------------------- */

static const char *emit (Kern *k, Val *v, const Idx *ix, GError **error);

static Cls
number_cls (const Val *v)
{
  return v->is_float ? CLS_F : CLS_I;
}

static Cls
max_cls (Cls a, Cls b)
{
  if (a == CLS_D || b == CLS_D)
    return CLS_D;
  if (a == CLS_F || b == CLS_F)
    return CLS_F;
  return CLS_I;
}

/* Operand @v at @ix in class @cls. */
static const char *
operand_expr (Kern *k, Val *v, const Idx *ix, Cls cls, GError **error)
{
  const char *x;

  if (!v->is_tensor)
    return literal (k->g, v, cls);
  x = emit (k, v, ix, error);
  return x ? cast_cls (k->g, x, dtype_cls (v->dtype), cls) : NULL;
}

static const char *
emit_load (Kern *k, Val *v, const Idx *ix)
{
  guint       slot = v->input >= 0 ? (guint) v->input : k->g->n_inputs + (guint) v->buffer;
  gint64      st[WB_MAX_RANK];
  gboolean    contiguous = TRUE;
  gint64      cs[WB_MAX_RANK];
  const char *p = param (k, slot);
  const char *off;

  if (v->input >= 0)
    memcpy (st, v->strides, sizeof st);
  else
    contiguous_strides (v->rank, v->shape, st);
  contiguous_strides (v->rank, v->shape, cs);
  for (guint d = 0; d < v->rank; d++)
    if (v->shape[d] != 1 && st[d] != cs[d])
      contiguous = FALSE;
  if (contiguous && ix->lin)
    off = ix->lin;
  else
    {
      GString *s = g_string_new (NULL);
      for (guint d = 0; d < v->rank; d++)
        {
          if (v->shape[d] == 1 || st[d] == 0 || strcmp (ix->e[d], "0") == 0)
            continue;
          if (s->len)
            g_string_append (s, " + ");
          if (st[d] == 1)
            g_string_append (s, ix->e[d]);
          else
            g_string_append_printf (s, "(%s) %s * %" G_GINT64_FORMAT, k->ity, ix->e[d], st[d]);
        }
      if (s->len == 0)
        g_string_append (s, "0");
      off = g_string_chunk_insert (k->g->strings, s->str);
      g_string_free (s, TRUE);
    }
  return new_var (k, cls_ctype (dtype_cls (v->dtype)), load_expr (k->g, p, off, v->dtype));
}

static Val *
arg_val (Kern *k, Node *n, guint i, GError **error)
{
  Val *v = operand (k->g, n->arg[i]);

  if (v == NULL)
    fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "prims.%s: argument %u is not a known value", n->op, i);
  return v;
}

static const char *
emit_elementwise (Kern *k, Val *v, Node *n, const EwOp *op, const Idx *ix, GError **error)
{
  Val        *ops[3] = { NULL };
  const char *ex[3] = { NULL };
  WbDtype     value_dtype = WB_DTYPE_UNKNOWN;
  Cls         cls = CLS_I;
  const char *tmpl;
  const char *r;
  gboolean    is_where = strcmp (op->name, "where") == 0;

  for (guint i = 0; i < op->arity; i++)
    if ((ops[i] = arg_val (k, n, i, error)) == NULL)
      return NULL;
  for (guint i = 0; i < op->arity; i++)
    if (ops[i]->is_tensor)
      {
        cls = max_cls (cls, dtype_cls (ops[i]->dtype));
        if (!(is_where && i == 0))
          value_dtype = value_dtype == WB_DTYPE_UNKNOWN ? ops[i]->dtype : wb_dtype_promote (value_dtype, ops[i]->dtype);
      }
  if (value_dtype == WB_DTYPE_UNKNOWN)
    for (guint i = is_where ? 1 : 0; i < op->arity; i++)
      {
        WbDtype nd = ops[i]->is_float ? WB_DTYPE_FLOAT32 : ops[i]->dtype == WB_DTYPE_BOOL8 ? WB_DTYPE_BOOL8
                                                                                           : WB_DTYPE_INT64;
        value_dtype = value_dtype == WB_DTYPE_UNKNOWN ? nd : wb_dtype_promote (value_dtype, nd);
      }
  if (op->res_bool)
    {
      for (guint i = 0; i < op->arity; i++)
        if (!ops[i]->is_tensor)
          cls = max_cls (cls, number_cls (ops[i]));
    }
  else
    cls = dtype_cls (value_dtype);
  tmpl = cls == CLS_F ? op->f : cls == CLS_D ? op->d
                                             : op->i;
  if (tmpl == NULL)
    {
      fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of %s is not supported", op->name, wb_dtype_shortname (value_dtype));
      return NULL;
    }
  for (guint i = 0; i < op->arity; i++)
    if ((ex[i] = operand_expr (k, ops[i], ix, cls, error)) == NULL)
      return NULL;
  r = ew_expand (k->g, tmpl, ex);
  if (op->res_bool)
    return new_var (k, "long long", r);
  r = cast_cls (k->g, r, cls, dtype_cls (v->dtype));
  return new_var (k, cls_ctype (dtype_cls (v->dtype)), normalize (k->g, r, v->dtype));
}

/* @x (an int64 index value) wrapped for a dim of @size: negative counts from the end, out of range traps. */
static const char *
checked_index (Kern *k, const char *x, gint64 size)
{
  const char *t = gstr (k->g, "i%u", k->next_var++);

  line (k, "long long %s = %s;", t, x);
  line (k, "if (%s < 0) %s += %" G_GINT64_FORMAT ";", t, t, size);
  line (k, "if ((unsigned long long) %s >= %" G_GINT64_FORMAT "ULL) __trap ();", t, size);
  return new_var (k, k->ity, gstr (k->g, "(%s) %s", k->ity, t));
}

static const char *
emit_node (Kern *k, Val *v, const Idx *ix, GError **error)
{
  Gen        *g = k->g;
  Node       *n = v->def;
  const char *op = n->op;
  const EwOp *ew = ew_lookup (op);
  Val        *a;
  Idx         ax = { 0 };
  gint64      ints[WB_MAX_RANK], ints3[WB_MAX_RANK];
  guint       ni = 0, ni3 = 0;

  if (ew != NULL)
    return emit_elementwise (k, v, n, ew, ix, error);
  if (n->is_reduction)
    {
      fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "internal: prims.%s read before its kernel", op);
      return NULL;
    }

  if (strcmp (op, "full") == 0)
    {
      Val *fill = number_of (g, n->arg[1]);
      if (fill == NULL)
        {
          fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.full: fill value is not a number");
          return NULL;
        }
      return normalize (g, literal (g, fill, dtype_cls (v->dtype)), v->dtype);
    }
  if (strcmp (op, "iota") == 0)
    {
      Val *start = number_of (g, n->arg[1]), *step = number_of (g, n->arg[2]);
      Cls  c = dtype_cls (v->dtype);
      if (start == NULL || step == NULL)
        {
          fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.iota: start and step must be numbers");
          return NULL;
        }
      return new_var (k, cls_ctype (c), normalize (g, gstr (g, "%s + (%s) %s * %s", literal (g, start, c), cls_ctype (c), ix->e[0], literal (g, step, c)), v->dtype));
    }

  if (strcmp (op, "cat") == 0)
    {
      const WbValue *list = n->arg[0];
      gint64         dim, off = 0;
      const char    *r = gstr (g, "v%u", k->next_var++);
      if (list == NULL || !wb_value_is_sequence (list) || list->n_items == 0 || !wb_value_get_int (n->arg[1], &dim))
        goto bad_args;
      if (dim < 0)
        dim += v->rank;
      if (dim < 0 || dim >= v->rank)
        goto bad_args;
      line (k, "%s %s;", cls_ctype (dtype_cls (v->dtype)), r);
      for (guint i = 0; i < list->n_items; i++)
        {
          Val        *t = operand (g, list->items[i]);
          const char *x;
          if (t == NULL || !t->is_tensor || t->rank != v->rank)
            goto bad_args;
          if (i + 1 < list->n_items)
            line (k, "%sif (%s < %" G_GINT64_FORMAT ")", i ? "else " : "", ix->e[dim], off + t->shape[dim]);
          else if (i > 0)
            line (k, "else");
          line (k, "{");
          open_block (k);
          ax = *ix;
          ax.lin = NULL;
          for (guint d = 0; d < t->rank; d++)
            if (t->shape[d] == 1)
              ax.e[d] = "0";
          if (t->shape[dim] != 1)
            ax.e[dim] = off ? new_var (k, k->ity, gstr (g, "%s - %" G_GINT64_FORMAT, ix->e[dim], off)) : ix->e[dim];
          x = emit (k, t, &ax, error);
          if (x == NULL)
            return NULL;
          line (k, "%s = %s;", r, normalize (g, cast_cls (g, x, dtype_cls (t->dtype), dtype_cls (v->dtype)), v->dtype));
          close_block (k);
          line (k, "}");
          off += t->shape[dim];
        }
      return r;
    }
  if ((a = arg_val (k, n, 0, error)) == NULL)
    return NULL;
  if (!a->is_tensor)
    {
      fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of a number", op);
      return NULL;
    }

  if (strcmp (op, "convert_element_type") == 0)
    {
      const char *x = emit (k, a, ix, error);
      if (x == NULL)
        return NULL;
      if (a->dtype == v->dtype)
        return x;
      return new_var (k, cls_ctype (dtype_cls (v->dtype)), convert (g, x, a->dtype, v->dtype));
    }
  if (strcmp (op, "shallow_copy") == 0 || strcmp (op, "stride_order") == 0 || strcmp (op, "clone") == 0)
    return emit (k, a, ix, error);
  if (strcmp (op, "broadcast_in_dim") == 0)
    {
      if (!get_ints (n->arg[2], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        goto bad_args;
      ax.rank = a->rank;
      for (guint d = 0; d < a->rank; d++)
        ax.e[d] = a->shape[d] == 1 ? "0" : ix->e[ints[d]];
      ax.lin = (a->rank == v->rank && memcmp (a->shape, v->shape, sizeof (gint64) * a->rank) == 0) ? ix->lin : NULL;
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "reshape") == 0 || strcmp (op, "view") == 0)
    {
      if (a->rank == v->rank && memcmp (a->shape, v->shape, sizeof (gint64) * a->rank) == 0)
        return emit (k, a, ix, error);
      idx_unravel (k, idx_linear (k, ix, v->rank, v->shape), a->rank, a->shape, &ax);
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "squeeze") == 0)
    {
      guint    o = 0;
      gboolean sq[WB_MAX_RANK] = { FALSE };
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni))
        goto bad_args;
      for (guint i = 0; i < ni; i++)
        if (ints[i] >= 0 && ints[i] < a->rank)
          sq[ints[i]] = TRUE;
      ax.rank = a->rank;
      for (guint d = 0; d < a->rank; d++)
        ax.e[d] = sq[d] ? "0" : ix->e[o++];
      ax.lin = ix->lin;
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "transpose") == 0)
    {
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        goto bad_args;
      ax.rank = a->rank;
      for (guint d = 0; d < v->rank; d++)
        ax.e[ints[d]] = ix->e[d];
      ax.lin = NULL;
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "slice_prim") == 0)
    {
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        goto bad_args;
      for (guint d = 0; d < a->rank; d++)
        ints3[d] = 1;
      if (n->arg[3] != NULL && n->arg[3]->kind != WB_VALUE_NONE && (!get_ints (n->arg[3], ints3, WB_MAX_RANK, &ni3) || ni3 != a->rank))
        goto bad_args;
      ax.rank = a->rank;
      ax.lin = NULL;
      for (guint d = 0; d < a->rank; d++)
        {
          if (a->shape[d] == 1 || v->shape[d] == 1)
            ax.e[d] = a->shape[d] == 1 ? "0" : gstr (g, "%" G_GINT64_FORMAT, ints[d]);
          else if (ints[d] == 0 && ints3[d] == 1)
            ax.e[d] = ix->e[d];
          else
            ax.e[d] = gstr (g, "(%" G_GINT64_FORMAT " + %s * %" G_GINT64_FORMAT ")", ints[d], ix->e[d], ints3[d]);
        }
      if (v->rank == a->rank && memcmp (a->shape, v->shape, sizeof (gint64) * a->rank) == 0)
        ax.lin = ix->lin;
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "flip") == 0)
    {
      gboolean fl[WB_MAX_RANK] = { FALSE };
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni))
        goto bad_args;
      for (guint i = 0; i < ni; i++)
        fl[(ints[i] + a->rank) % MAX (a->rank, 1)] = TRUE;
      ax.rank = a->rank;
      ax.lin = NULL;
      for (guint d = 0; d < a->rank; d++)
        ax.e[d] = fl[d] && a->shape[d] > 1 ? gstr (g, "(%" G_GINT64_FORMAT " - %s)", a->shape[d] - 1, ix->e[d]) : ix->e[d];
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "take") == 0)
    {
      Val        *index = arg_val (k, n, 1, error);
      gint64      dim;
      Idx         jx = { 0 };
      const char *iv;
      if (index == NULL || !wb_value_get_int (n->arg[2], &dim))
        goto bad_args;
      if (dim < 0)
        dim += a->rank;
      if (dim < 0 || dim >= a->rank || !index->is_tensor || index->rank > 1)
        goto bad_args;
      jx.rank = index->rank;
      jx.e[0] = ix->e[dim];
      if ((iv = operand_expr (k, index, &jx, CLS_I, error)) == NULL)
        return NULL;
      ax = *ix;
      ax.lin = NULL;
      ax.e[dim] = checked_index (k, iv, a->shape[dim]);
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "take_along_axis") == 0 || strcmp (op, "gather") == 0)
    {
      Val        *index = arg_val (k, n, 1, error);
      gint64      dim;
      const char *iv;
      if (index == NULL || !wb_value_get_int (n->arg[2], &dim))
        goto bad_args;
      if (dim < 0)
        dim += a->rank;
      if (dim < 0 || dim >= a->rank || !index->is_tensor)
        goto bad_args;
      if ((iv = operand_expr (k, index, ix, CLS_I, error)) == NULL)
        return NULL;
      ax = *ix;
      ax.lin = NULL;
      for (guint d = 0; d < a->rank; d++)
        if (a->shape[d] == 1)
          ax.e[d] = "0";
      ax.e[dim] = checked_index (k, iv, a->shape[dim]);
      return emit (k, a, &ax, error);
    }
  if (strcmp (op, "pad") == 0)
    {
      Val           *padv = number_of (g, n->arg[1]);
      const WbValue *cfg = n->arg[2];
      GString       *cond = g_string_new (NULL);
      const char    *r = gstr (g, "v%u", k->next_var++);
      const char    *ctype = cls_ctype (dtype_cls (v->dtype));
      const char    *x;
      if (padv == NULL || cfg == NULL || !wb_value_is_sequence (cfg) || cfg->n_items != a->rank)
        {
          g_string_free (cond, TRUE);
          goto bad_args;
        }
      ax.rank = a->rank;
      ax.lin = NULL;
      for (guint d = 0; d < a->rank; d++)
        {
          gint64 c[3];
          guint  nc = 0;
          if (!get_ints (cfg->items[d], c, 3, &nc) || nc != 3 || c[2] < 0)
            {
              g_string_free (cond, TRUE);
              goto bad_args;
            }
          if (c[0] == 0 && c[2] == 0 && v->shape[d] == a->shape[d])
            {
              ax.e[d] = ix->e[d];
              continue;
            }
          {
            const char *t = new_var (k, k->ity, gstr (g, "%s - (%" G_GINT64_FORMAT ")", ix->e[d], c[0]));
            if (cond->len)
              g_string_append (cond, " && ");
            if (c[2] == 0)
              {
                g_string_append_printf (cond, "%s >= 0 && %s < %" G_GINT64_FORMAT, t, t, a->shape[d]);
                ax.e[d] = t;
              }
            else
              {
                g_string_append_printf (cond, "%s >= 0 && %s %% %" G_GINT64_FORMAT " == 0 && %s / %" G_GINT64_FORMAT " < %" G_GINT64_FORMAT,
                                        t, t, c[2] + 1, t, c[2] + 1, a->shape[d]);
                ax.e[d] = gstr (g, "(%s / %" G_GINT64_FORMAT ")", t, c[2] + 1);
              }
          }
        }
      line (k, "%s %s;", ctype, r);
      line (k, "if (%s)", cond->len ? cond->str : "true");
      line (k, "{");
      open_block (k);
      x = emit (k, a, &ax, error);
      if (x != NULL)
        line (k, "%s = %s;", r, cast_cls (g, x, dtype_cls (a->dtype), dtype_cls (v->dtype)));
      close_block (k);
      line (k, "}");
      line (k, "else");
      line (k, "  %s = %s;", r, normalize (g, literal (g, padv, dtype_cls (v->dtype)), v->dtype));
      g_string_free (cond, TRUE);
      return x ? r : NULL;
    }
  fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "no generator for prims.%s", op);
  return NULL;

bad_args:
  fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: arguments of a form the generator does not handle", op);
  return NULL;
}

static const char *
emit (Kern *k, Val *v, const Idx *ix, GError **error)
{
  const char *key = idx_key (k->g, v->id, ix);
  const char *x = memo_get (k, key);

  if (x != NULL)
    return x;
  if (!v->is_tensor)
    x = literal (k->g, v, number_cls (v));
  else if (v->input >= 0 || v->buffer >= 0)
    x = emit_load (k, v, ix);
  else
    x = emit_node (k, v, ix, error);
  if (x != NULL)
    memo_put (k, key, x);
  return x;
}

/* -- kernel assembly ------------------------------------------------------------------------ */

static guint
grid_for (gint64 items, gint64 per_block)
{
  gint64 b = (items + per_block - 1) / per_block;

  return (guint) CLAMP (b, 0, 65536);
}

/* Appends kernel @k to the plan as wb_k<i>; @writes: slots it writes. */
static void
finish_kernel (Gen *g, Kern *k, const char *what, guint grid, gint64 elements, const guint *writes, guint n_writes, const char *prologue)
{
  WbCudaKernel kr = { 0 };
  guint        idx = g->kernels->len;

  kr.entry = g_strdup_printf ("wb_k%u", idx);
  kr.what = g_strdup (what);
  kr.grid = grid;
  kr.elements = elements;
  for (guint i = 0; i < n_writes; i++)
    (void) param (k, writes[i]);
  kr.n_params = k->params->len;
  kr.params = g_memdup2 (k->params->data, sizeof (guint) * k->params->len);
  g_string_append_printf (g->source, "// %s\nextern \"C\" __global__ void __launch_bounds__ (%d)\n%s (", what, WB_CUDA_BLOCK, kr.entry);
  for (guint i = 0; i < k->params->len; i++)
    {
      guint    slot = g_array_index (k->params, guint, i);
      gboolean w = FALSE;
      WbDtype  dt;
      for (guint j = 0; j < n_writes; j++)
        w |= writes[j] == slot;
      if (slot < g->n_inputs)
        {
          Val *in = NULL;
          for (guint j = 0; j < g->vals->len && in == NULL; j++)
            {
              Val *x = g->vals->pdata[j];
              if (x && x->input == (int) slot)
                in = x;
            }
          dt = in->dtype;
        }
      else
        dt = g_array_index (g->buffers, WbCudaBuffer, slot - g->n_inputs).dtype;
      g_string_append_printf (g->source, "%s%s%s *__restrict__ p%u", i ? ", " : "", w ? "" : "const ", wb_cuda_storage_ctype (dt), slot);
    }
  g_string_append (g->source, ")\n{\n");
  if (prologue)
    g_string_append (g->source, prologue);
  g_string_append (g->source, k->body->str);
  g_string_append (g->source, "}\n\n");
  g_array_append_val (g->kernels, kr);
}

static int
add_buffer (Gen *g, Val *v)
{
  WbCudaBuffer b = { 0 };

  b.dtype = v->dtype;
  b.rank = v->rank;
  memcpy (b.shape, v->shape, sizeof (gint64) * v->rank);
  b.numel = numel_of (v->rank, v->shape);
  g_array_append_val (g->buffers, b);
  return (int) g->buffers->len - 1;
}

static const char *
combine_expr (Gen *g, const char *op, Cls c, const char *a, const char *b)
{
  const char *sfx = c == CLS_F ? "f" : c == CLS_D ? "d"
                                                  : "i";

  if (strcmp (op, "amax") == 0)
    return gstr (g, "wb_max_%s (%s, %s)", sfx, a, b);
  if (strcmp (op, "amin") == 0)
    return gstr (g, "wb_min_%s (%s, %s)", sfx, a, b);
  if (strcmp (op, "prod") == 0)
    return c == CLS_I ? gstr (g, "(long long) ((unsigned long long) %s * (unsigned long long) %s)", a, b) : gstr (g, "%s * %s", a, b);
  return c == CLS_I ? gstr (g, "(long long) ((unsigned long long) %s + (unsigned long long) %s)", a, b) : gstr (g, "%s + %s", a, b);
}

static const char *
init_expr (const char *op, Cls c)
{
  if (strcmp (op, "amax") == 0)
    return c == CLS_F ? "(-WB_INF_F)" : c == CLS_D ? "(-WB_INF_D)"
                                                   : "WB_I64_MIN";
  if (strcmp (op, "amin") == 0)
    return c == CLS_F ? "WB_INF_F" : c == CLS_D ? "WB_INF_D"
                                                : "WB_I64_MAX";
  if (strcmp (op, "prod") == 0)
    return c == CLS_F ? "1.0f" : c == CLS_D ? "1.0"
                                            : "1LL";
  return c == CLS_F ? "0.0f" : c == CLS_D ? "0.0"
                                          : "0LL";
}

/* Reduces @acc across the T threads of an output group (every thread of the block calls this). */
static void
group_reduce (Kern *k, const char *acc, const char *ctype, const char *combine_op, Cls c, int T)
{
  if (T == 1)
    return;
  if (T <= 32)
    {
      line (k, "for (int m = %d; m > 0; m >>= 1)", T / 2);
      line (k, "  %s = %s;", acc, combine_expr (k->g, combine_op, c, acc, gstr (k->g, "__shfl_xor_sync (0xffffffffu, %s, m)", acc)));
      return;
    }
  line (k, "wb_sm[threadIdx.x] = %s;", acc);
  line (k, "__syncthreads ();");
  line (k, "for (int m = %d; m > 0; m >>= 1)", T / 2);
  line (k, "{");
  line (k, "  if (lane < m)");
  line (k, "    wb_sm[threadIdx.x] = %s;", combine_expr (k->g, combine_op, c, "wb_sm[threadIdx.x]", "wb_sm[threadIdx.x + m]"));
  line (k, "  __syncthreads ();");
  line (k, "}");
  line (k, "%s = wb_sm[threadIdx.x - lane];", acc);
  line (k, "__syncthreads ();");
  (void) ctype;
}

/* One loop over the reduced index space accumulating f(x) into @acc; @sq_mean: accumulate (x - mean)^2. */
static gboolean
reduction_loop (Kern *k, Val *a, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, int T, const char *acc, const char *op, Cls c, const char *sq_mean, GError **error)
{
  Idx         kx = { 0 }, rx = { 0 }, ax = { 0 };
  const char *x;
  guint       ki = 0, ri = 0;

  line (k, "if (ok)");
  line (k, "{");
  open_block (k);
  idx_unravel (k, "o", n_kept, kept_shape, &kx);
  line (k, "for (%s r = %s; r < %" G_GINT64_FORMAT "; r += %d)", k->ity, T == 1 ? "0" : "lane", numel_of (n_red, red_shape), T);
  line (k, "{");
  open_block (k);
  idx_unravel (k, "r", n_red, red_shape, &rx);
  ax.rank = a->rank;
  for (guint d = 0; d < a->rank; d++)
    ax.e[d] = red[d] ? rx.e[ri++] : kx.e[ki++];
  ax.lin = NULL;
  if (n_kept == 0 || numel_of (n_kept, kept_shape) == 1)
    ax.lin = rx.lin; /* everything reduced: r walks a in order */
  x = emit (k, a, &ax, error);
  if (x == NULL)
    return FALSE;
  x = cast_cls (k->g, x, dtype_cls (a->dtype), c);
  if (sq_mean)
    {
      const char *dlt = new_var (k, cls_ctype (c), gstr (k->g, "%s - %s", x, sq_mean));
      line (k, "%s += %s * %s;", acc, dlt, dlt);
    }
  else
    line (k, "%s = %s;", acc, combine_expr (k->g, op, c, acc, x));
  close_block (k);
  line (k, "}");
  close_block (k);
  line (k, "}");
  return TRUE;
}

static gboolean
emit_reduction (Gen *g, Node *n, const char *ity, GError **error)
{
  Val             *a = operand (g, n->arg[0]);
  gint64           dims[WB_MAX_RANK];
  guint            nd = 0;
  gboolean         red[WB_MAX_RANK] = { FALSE };
  gint64           kept_shape[WB_MAX_RANK], red_shape[WB_MAX_RANK];
  guint            n_kept = 0, n_red = 0;
  gint64           NO, K;
  int              T = 1;
  Cls              c;
  const char      *ctype;
  Kern            *k;
  gboolean         is_var = strcmp (n->op, "var") == 0 || strcmp (n->op, "var_mean") == 0 || strcmp (n->op, "std") == 0;
  double           correction = 0;
  guint            writes[2];
  g_autofree char *what = NULL;
  g_autofree char *prologue = NULL;
  const char      *combine_op = is_var ? "sum" : n->op;

  if (a == NULL || !a->is_tensor || !get_ints (n->arg[1], dims, WB_MAX_RANK, &nd))
    return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: arguments of a form the generator does not handle", n->op);
  if (is_var)
    {
      Val *cv = n->n_arg > 2 ? number_of (g, n->arg[2]) : NULL;
      if (cv == NULL)
        return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: correction is not a number", n->op);
      correction = cv->is_float ? cv->f : (double) cv->i;
    }
  for (guint i = 0; i < nd; i++)
    {
      gint64 d = dims[i] < 0 ? dims[i] + a->rank : dims[i];
      if (d < 0 || d >= a->rank)
        return fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "prims.%s: dim %" G_GINT64_FORMAT " out of range", n->op, dims[i]);
      red[d] = TRUE;
    }
  for (guint d = 0; d < a->rank; d++)
    {
      if (red[d])
        red_shape[n_red++] = a->shape[d];
      else
        kept_shape[n_kept++] = a->shape[d];
    }
  NO = numel_of (n_kept, kept_shape);
  K = numel_of (n_red, red_shape);
  c = dtype_cls (a->dtype);
  if (is_var && c == CLS_I)
    return fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of integers", n->op);
  ctype = cls_ctype (c);
  /* the innermost dim reduced: a group of T threads cooperates on one output; otherwise one thread
   * per output walks the reduced dims (adjacent threads read adjacent elements) */
  if (a->rank > 0 && red[a->rank - 1])
    while (T < WB_CUDA_BLOCK && T < K)
      T *= 2;

  k = kern_new (g, ity);
  for (guint i = 0; i < n->n_out; i++)
    {
      n->out[i]->buffer = add_buffer (g, n->out[i]);
      writes[i] = g->n_inputs + (guint) n->out[i]->buffer;
    }
  line (k, "const int T = %d, OPB = %d;", T, WB_CUDA_BLOCK / T);
  line (k, "const int lane = threadIdx.x %% T;");
  line (k, "(void) lane;");
  line (k, "for (%s ob = (%s) blockIdx.x * OPB; ob < %" G_GINT64_FORMAT "; ob += (%s) gridDim.x * OPB)", ity, ity, NO, ity);
  line (k, "{");
  open_block (k);
  line (k, "const %s o = ob + (%s) (threadIdx.x / T);", ity, ity);
  line (k, "const bool ok = o < %" G_GINT64_FORMAT ";", NO);
  line (k, "%s acc = %s;", ctype, is_var ? init_expr ("sum", c) : init_expr (n->op, c));
  if (!reduction_loop (k, a, red, kept_shape, n_kept, red_shape, n_red, T, "acc", combine_op, c, NULL, error))
    goto fail;
  group_reduce (k, "acc", ctype, combine_op, c, T);
  if (is_var)
    {
      line (k, "const %s mean = acc / (%s) %" G_GINT64_FORMAT ";", ctype, ctype, K);
      line (k, "%s m2 = %s;", ctype, init_expr ("sum", c));
      if (!reduction_loop (k, a, red, kept_shape, n_kept, red_shape, n_red, T, "m2", "sum", c, "mean", error))
        goto fail;
      group_reduce (k, "m2", ctype, "sum", c, T);
      {
        double den = MAX ((double) K - correction, 0.0);
        char   buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd (buf, sizeof buf, "%.17g", den);
        line (k, "%s var = m2 / (%s) %s;", ctype, ctype, buf);
      }
      if (strcmp (n->op, "std") == 0)
        line (k, "var = %s (var);", c == CLS_F ? "sqrtf" : "sqrt");
    }
  line (k, "if (ok && lane == 0)");
  line (k, "{");
  for (guint i = 0; i < n->n_out; i++)
    {
      Val        *out = n->out[i];
      const char *src = is_var ? (i == 0 ? "var" : "mean") : "acc";
      const char *x = normalize (g, cast_cls (g, src, c, dtype_cls (out->dtype)), out->dtype);
      line (k, "  %s", store_stmt (g, gstr (g, "p%u", g->n_inputs + (guint) out->buffer), "o", x, out->dtype));
    }
  line (k, "}");
  close_block (k);
  line (k, "}");
  what = g_strdup_printf ("%s over %u of %u dims of %s[%" G_GINT64_FORMAT " elements]: %" G_GINT64_FORMAT " outputs, %d threads each",
                          n->op, n_red, a->rank, wb_dtype_shortname (a->dtype), numel_of (a->rank, a->shape), NO, T);
  if (T > 32)
    prologue = g_strdup_printf ("  __shared__ %s wb_sm[%d];\n", ctype, WB_CUDA_BLOCK);
  finish_kernel (g, k, what, grid_for (NO, WB_CUDA_BLOCK / T), numel_of (a->rank, a->shape), writes, n->n_out, prologue);
  kern_free (k);
  n->done = TRUE;
  return TRUE;

fail:
  kern_free (k);
  return FALSE;
}

/* One pointwise kernel computing @outs (Val*, all of one shape) into their buffers. */
static gboolean
emit_pointwise (Gen *g, GPtrArray *outs, const char *ity, GError **error)
{
  Val     *first = outs->pdata[0];
  gint64   N = numel_of (first->rank, first->shape);
  Kern    *k = kern_new (g, ity);
  Idx      ix = { 0 };
  guint   *writes = g_new (guint, outs->len);
  GString *what = g_string_new (NULL);
  char    *shape = NULL;

  for (guint i = 0; i < outs->len; i++)
    {
      Val *v = outs->pdata[i];
      v->buffer = add_buffer (g, v);
      writes[i] = g->n_inputs + (guint) v->buffer;
    }
  line (k, "for (%s L = (%s) blockIdx.x * %d + threadIdx.x; L < %" G_GINT64_FORMAT "; L += (%s) gridDim.x * %d)", ity, ity,
        WB_CUDA_BLOCK, N, ity, WB_CUDA_BLOCK);
  line (k, "{");
  open_block (k);
  idx_unravel (k, "L", first->rank, first->shape, &ix);
  /* the group's own outputs are computed, never loaded: another thread may not have written them yet */
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = -1;
  for (guint i = 0; i < outs->len; i++)
    {
      Val        *v = outs->pdata[i];
      const char *x = emit (k, v, &ix, error);
      if (x == NULL)
        {
          kern_free (k);
          g_free (writes);
          g_string_free (what, TRUE);
          return FALSE;
        }
      line (k, "%s", store_stmt (g, gstr (g, "p%u", writes[i]), "L", x, v->dtype));
    }
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = (int) (writes[i] - g->n_inputs);
  close_block (k);
  line (k, "}");
  {
    GString *s = g_string_new ("[");
    for (guint d = 0; d < first->rank; d++)
      g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", first->shape[d]);
    g_string_append_c (s, ']');
    shape = g_string_free (s, FALSE);
  }
  g_string_printf (what, "pointwise over %s: %u output%s", shape, outs->len, outs->len == 1 ? "" : "s");
  finish_kernel (g, k, what->str, grid_for (N, WB_CUDA_BLOCK), N * outs->len, writes, outs->len, NULL);
  kern_free (k);
  g_free (writes);
  g_free (shape);
  g_string_free (what, TRUE);
  return TRUE;
}

/* -- outputs as views ----------------------------------------------------------------------- */

typedef struct
{
  guint  slot;
  guint  rank;
  gint64 shape[WB_MAX_RANK];
  gint64 strides[WB_MAX_RANK];
  gint64 offset;
} Layout;

/* PyTorch's computeStride: strides for viewing (@rank, @shape, @strides) as @nrank/@nshape, or FALSE. */
static gboolean
view_strides (guint rank, const gint64 *shape, const gint64 *strides, guint nrank, const gint64 *nshape, gint64 *out)
{
  gint64 numel = numel_of (rank, shape);
  int    view_d = (int) nrank - 1;
  gint64 chunk_base_stride, tensor_numel = 1, view_numel = 1;

  if (numel == 0)
    return FALSE;
  if (rank == 0)
    {
      for (guint d = 0; d < nrank; d++)
        out[d] = 1;
      return TRUE;
    }
  chunk_base_stride = strides[rank - 1];
  for (int tensor_d = (int) rank - 1; tensor_d >= 0; tensor_d--)
    {
      tensor_numel *= shape[tensor_d];
      if (tensor_d == 0 || (shape[tensor_d - 1] != 1 && strides[tensor_d - 1] != tensor_numel * chunk_base_stride))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || nshape[view_d] == 1))
            {
              out[view_d] = view_numel * chunk_base_stride;
              view_numel *= nshape[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (tensor_d > 0)
            {
              chunk_base_stride = strides[tensor_d - 1];
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

static gboolean
as_view (Gen *g, Val *v, Layout *L, int depth)
{
  Node  *n;
  Val   *a;
  Layout la;
  gint64 ints[WB_MAX_RANK], ints3[WB_MAX_RANK];
  guint  ni = 0, ni3 = 0;

  if (!v->is_tensor || depth > 64)
    return FALSE;
  if (v->input >= 0 || v->buffer >= 0)
    {
      L->slot = v->input >= 0 ? (guint) v->input : g->n_inputs + (guint) v->buffer;
      L->rank = v->rank;
      memcpy (L->shape, v->shape, sizeof L->shape);
      if (v->input >= 0)
        memcpy (L->strides, v->strides, sizeof L->strides);
      else
        contiguous_strides (v->rank, v->shape, L->strides);
      L->offset = 0;
      return TRUE;
    }
  n = v->def;
  if (n == NULL || n->n_out != 1 || n->is_reduction)
    return FALSE;
  a = operand (g, n->arg[0]);
  if (a == NULL || !a->is_tensor)
    return FALSE;
  if (strcmp (n->op, "convert_element_type") == 0 && a->dtype != v->dtype)
    return FALSE;
  if (!(strcmp (n->op, "shallow_copy") == 0 || strcmp (n->op, "stride_order") == 0 || strcmp (n->op, "clone") == 0 ||
        strcmp (n->op, "convert_element_type") == 0 || strcmp (n->op, "broadcast_in_dim") == 0 || strcmp (n->op, "reshape") == 0 ||
        strcmp (n->op, "view") == 0 || strcmp (n->op, "transpose") == 0 || strcmp (n->op, "squeeze") == 0 ||
        strcmp (n->op, "slice_prim") == 0))
    return FALSE;
  if (!as_view (g, a, &la, depth + 1))
    return FALSE;
  *L = la;
  L->rank = v->rank;
  memcpy (L->shape, v->shape, sizeof L->shape);
  if (strcmp (n->op, "broadcast_in_dim") == 0)
    {
      if (!get_ints (n->arg[2], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        return FALSE;
      memset (L->strides, 0, sizeof L->strides);
      for (guint d = 0; d < a->rank; d++)
        L->strides[ints[d]] = a->shape[d] == v->shape[ints[d]] ? la.strides[d] : 0;
    }
  else if (strcmp (n->op, "reshape") == 0 || strcmp (n->op, "view") == 0)
    {
      if (!view_strides (a->rank, a->shape, la.strides, v->rank, v->shape, L->strides))
        return FALSE;
    }
  else if (strcmp (n->op, "transpose") == 0)
    {
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        return FALSE;
      for (guint d = 0; d < v->rank; d++)
        L->strides[d] = la.strides[ints[d]];
    }
  else if (strcmp (n->op, "squeeze") == 0)
    {
      gboolean sq[WB_MAX_RANK] = { FALSE };
      guint    o = 0;
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni))
        return FALSE;
      for (guint i = 0; i < ni; i++)
        if (ints[i] >= 0 && ints[i] < a->rank)
          sq[ints[i]] = TRUE;
      for (guint d = 0; d < a->rank; d++)
        if (!sq[d])
          L->strides[o++] = la.strides[d];
    }
  else if (strcmp (n->op, "slice_prim") == 0)
    {
      if (!get_ints (n->arg[1], ints, WB_MAX_RANK, &ni) || ni != a->rank)
        return FALSE;
      for (guint d = 0; d < a->rank; d++)
        ints3[d] = 1;
      if (n->arg[3] != NULL && n->arg[3]->kind != WB_VALUE_NONE && (!get_ints (n->arg[3], ints3, WB_MAX_RANK, &ni3) || ni3 != a->rank))
        return FALSE;
      for (guint d = 0; d < a->rank; d++)
        {
          L->offset += ints[d] * la.strides[d];
          L->strides[d] = la.strides[d] * ints3[d];
        }
    }
  return TRUE;
}

/* -- the plan ------------------------------------------------------------------------------- */

static void
mark_needed (Gen *g, Val *v)
{
  Node *n;

  if (v == NULL || v->needed)
    return;
  v->needed = TRUE;
  n = v->def;
  if (n == NULL)
    return;
  for (guint i = 0; i < n->n_arg; i++)
    {
      const WbValue *a = n->arg[i];
      if (a == NULL)
        continue;
      if (a->kind == WB_VALUE_NAME)
        mark_needed (g, g_hash_table_lookup (g->env, a->text));
      else if (wb_value_is_sequence (a))
        for (guint j = 0; j < a->n_items; j++)
          if (a->items[j]->kind == WB_VALUE_NAME)
            mark_needed (g, g_hash_table_lookup (g->env, a->items[j]->text));
    }
  for (guint i = 0; i < n->n_out; i++)
    n->out[i]->needed = TRUE;
}

static void
node_free (Node *n)
{
  g_free (n);
}

static void
val_free (Val *v)
{
  g_free (v);
}

void
wb_cuda_plan_free (WbCudaPlan *plan)
{
  if (plan == NULL)
    return;
  for (guint i = 0; i < plan->n_kernels; i++)
    {
      g_free (plan->kernels[i].entry);
      g_free (plan->kernels[i].what);
      g_free (plan->kernels[i].params);
    }
  g_free (plan->kernels);
  g_free (plan->buffers);
  g_free (plan->outputs);
  g_free (plan->source);
  g_free (plan);
}

void
wb_cuda_arg_init_contiguous (WbCudaArg *arg, const WbType *type)
{
  memset (arg, 0, sizeof *arg);
  if (type->kind == WB_TYPE_TENSOR)
    {
      arg->kind = WB_CUDA_ARG_TENSOR;
      arg->dtype = type->dtype;
      arg->rank = type->rank;
      memcpy (arg->shape, type->shape, sizeof arg->shape);
      contiguous_strides (type->rank, type->shape, arg->strides);
    }
  else if ((type->kind == WB_TYPE_INT || type->kind == WB_TYPE_BOOL || type->kind == WB_TYPE_FLOAT) && type->has_value)
    {
      arg->kind = WB_CUDA_ARG_NUMBER;
      arg->dtype = type->kind == WB_TYPE_FLOAT ? WB_DTYPE_FLOAT64 : type->kind == WB_TYPE_BOOL ? WB_DTYPE_BOOL8
                                                                                               : WB_DTYPE_INT64;
      arg->f = type->kind == WB_TYPE_FLOAT ? type->float_value : (double) type->int_value;
      arg->i = type->int_value;
    }
  else
    arg->kind = WB_CUDA_ARG_OTHER;
}

const char *
wb_cuda_codegen_prelude (void)
{
  return wb_cuda_prelude_text;
}

WbCudaPlan *
wb_cuda_plan_new (const WbBsym *const *body, guint n_body, const char *const *input_names, const WbCudaArg *inputs, guint n_inputs, const char *const *output_names, guint n_outputs, GError **error)
{
  Gen         g = { 0 };
  WbCudaPlan *plan = NULL;
  gboolean    ok = FALSE;
  gint64      biggest = 0;
  const char *ity;
  GArray     *outputs = g_array_new (FALSE, TRUE, sizeof (WbCudaOutput));
  GPtrArray  *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  g.nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  g.env = g_hash_table_new (g_str_hash, g_str_equal);
  g.vals = g_ptr_array_new_with_free_func ((GDestroyNotify) val_free);
  g.strings = g_string_chunk_new (4096);
  g.buffers = g_array_new (FALSE, TRUE, sizeof (WbCudaBuffer));
  g.kernels = g_array_new (FALSE, TRUE, sizeof (WbCudaKernel));
  g.source = g_string_new (NULL);
  g.n_inputs = n_inputs;

  for (guint i = 0; i < n_inputs; i++)
    {
      Val *v;
      if (input_names[i] == NULL)
        continue;
      v = val_new (&g, g_string_chunk_insert (g.strings, input_names[i]));
      if (inputs[i].kind == WB_CUDA_ARG_TENSOR)
        {
          if (!dtype_supported (inputs[i].dtype))
            {
              fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "input %s: dtype %s is not supported", input_names[i],
                    wb_dtype_shortname (inputs[i].dtype));
              goto out;
            }
          v->is_tensor = TRUE;
          v->dtype = inputs[i].dtype;
          v->rank = inputs[i].rank;
          memcpy (v->shape, inputs[i].shape, sizeof v->shape);
          memcpy (v->strides, inputs[i].strides, sizeof v->strides);
          v->input = (int) i;
          biggest = MAX (biggest, numel_of (v->rank, v->shape));
          for (guint d = 0; d < v->rank; d++)
            biggest = MAX (biggest, (v->shape[d] - 1) * v->strides[d] + 1);
        }
      else if (inputs[i].kind == WB_CUDA_ARG_NUMBER)
        {
          v->dtype = inputs[i].dtype;
          v->is_float = inputs[i].dtype == WB_DTYPE_FLOAT64;
          v->f = inputs[i].f;
          v->i = inputs[i].i;
        }
      else
        continue;
      g_hash_table_replace (g.env, (gpointer) v->name, v);
    }

  if (!add_body (&g, body, n_body, 0, error))
    goto out;
  for (guint i = 0; i < g.vals->len; i++)
    {
      Val *v = g.vals->pdata[i];
      if (v && v->is_tensor)
        biggest = MAX (biggest, numel_of (v->rank, v->shape));
    }
  ity = biggest < (G_GINT64_CONSTANT (1) << 30) ? "int" : "long long";

  for (guint i = 0; i < n_outputs; i++)
    {
      Val *v = g_hash_table_lookup (g.env, output_names[i]);
      if (v == NULL)
        {
          fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "output %s is not defined by the body", output_names[i]);
          goto out;
        }
      if (!v->is_tensor)
        {
          fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "output %s is a number", output_names[i]);
          goto out;
        }
      mark_needed (&g, v);
    }
  for (guint i = 0; i < g.nodes->len; i++)
    {
      Node *n = g.nodes->pdata[i];
      if (n->is_reduction && n->out[0]->needed && !emit_reduction (&g, n, ity, error))
        goto out;
    }
  for (guint i = 0; i < n_outputs; i++)
    {
      Val         *v = g_hash_table_lookup (g.env, output_names[i]);
      Layout       L;
      WbCudaOutput o = { 0 };
      o.dtype = v->dtype;
      if (as_view (&g, v, &L, 0))
        {
          o.slot = L.slot;
          o.rank = L.rank;
          memcpy (o.shape, L.shape, sizeof o.shape);
          memcpy (o.strides, L.strides, sizeof o.strides);
          o.offset = L.offset;
        }
      else
        {
          GPtrArray *grp = NULL;
          for (guint j = 0; j < groups->len && grp == NULL; j++)
            {
              Val *f = g_ptr_array_index ((GPtrArray *) groups->pdata[j], 0);
              if (f->rank == v->rank && memcmp (f->shape, v->shape, sizeof (gint64) * v->rank) == 0)
                grp = groups->pdata[j];
            }
          if (grp == NULL)
            {
              grp = g_ptr_array_new ();
              g_ptr_array_add (groups, grp);
            }
          if (!g_ptr_array_find (grp, v, NULL))
            g_ptr_array_add (grp, v);
          o.slot = G_MAXUINT; /* filled below */
          o.rank = v->rank;
          memcpy (o.shape, v->shape, sizeof o.shape);
          contiguous_strides (v->rank, v->shape, o.strides);
        }
      g_array_append_val (outputs, o);
    }
  for (guint j = 0; j < groups->len; j++)
    if (!emit_pointwise (&g, groups->pdata[j], ity, error))
      goto out;
  for (guint i = 0; i < n_outputs; i++)
    {
      WbCudaOutput *o = &g_array_index (outputs, WbCudaOutput, i);
      if (o->slot == G_MAXUINT)
        {
          Val *v = g_hash_table_lookup (g.env, output_names[i]);
          o->slot = n_inputs + (guint) v->buffer;
        }
    }
  ok = TRUE;

out:
  if (ok)
    {
      plan = g_new0 (WbCudaPlan, 1);
      plan->source = g_string_free (g.source, FALSE);
      g.source = NULL;
      plan->n_kernels = g.kernels->len;
      plan->kernels = (WbCudaKernel *) g_array_free (g.kernels, FALSE);
      g.kernels = NULL;
      plan->n_buffers = g.buffers->len;
      plan->buffers = (WbCudaBuffer *) g_array_free (g.buffers, FALSE);
      g.buffers = NULL;
      plan->n_outputs = outputs->len;
      plan->outputs = (WbCudaOutput *) g_array_free (outputs, FALSE);
      outputs = NULL;
      plan->n_inputs = n_inputs;
      plan->n_ops = g.n_ops;
    }
  if (g.kernels)
    {
      for (guint i = 0; i < g.kernels->len; i++)
        {
          WbCudaKernel *kr = &g_array_index (g.kernels, WbCudaKernel, i);
          g_free (kr->entry);
          g_free (kr->what);
          g_free (kr->params);
        }
      g_array_unref (g.kernels);
    }
  if (g.buffers)
    g_array_unref (g.buffers);
  if (outputs)
    g_array_unref (outputs);
  if (g.source)
    g_string_free (g.source, TRUE);
  g_ptr_array_unref (groups);
  g_ptr_array_unref (g.nodes);
  g_hash_table_unref (g.env);
  g_ptr_array_unref (g.vals);
  g_string_chunk_free (g.strings);
  return plan;
}

static void
collect_output_strings (const WbValue *name, gpointer data)
{
  g_ptr_array_add (data, (gpointer) name->text);
}

WbCudaPlan *
wb_cuda_plan_new_region (const WbBsym *region, const WbCudaArg *args, guint n_args, GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  g_return_val_if_fail (region != NULL && n_args == region->n_args, NULL);
  for (guint i = 0; i < n_args; i++)
    g_ptr_array_add (names, region->args[i]->kind == WB_VALUE_NAME ? (gpointer) region->args[i]->text : NULL);
  wb_bsym_foreach_output (region, collect_output_strings, outs);
  return wb_cuda_plan_new ((const WbBsym *const *) region->subsymbols, region->n_subsymbols, (const char *const *) names->pdata,
                           args, n_args, (const char *const *) outs->pdata, outs->len, error);
}

static gboolean
can_fuse (const WbBsym *b, char **why_not, int depth)
{
  const WbSymbol *like;

  if (b->kind != WB_BSYM_CALL)
    return TRUE;
  if (b->symbol == NULL)
    {
      if (why_not)
        *why_not = g_strdup_printf ("%s: unknown symbol", b->name);
      return FALSE;
    }
  like = wb_symbol_get_like (b->symbol);
  if (wb_symbol_get_module (b->symbol) == WB_SYMBOL_MODULE_PRIMS && like == NULL)
    {
      if (op_supported (b->name + strlen ("prims.")))
        return TRUE;
      if (why_not)
        *why_not = g_strdup_printf ("no CUDA C generator for %s", b->name);
      return FALSE;
    }
  if (b->n_subsymbols > 0 && depth < 16 && !wb_symbol_is_fusion (b->symbol))
    {
      for (guint i = 0; i < b->n_subsymbols; i++)
        if (!can_fuse (b->subsymbols[i], why_not, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (b->n_subsymbols > 0 && wb_symbol_is_fusion (b->symbol) && depth == 0)
    {
      for (guint i = 0; i < b->n_subsymbols; i++)
        if (!can_fuse (b->subsymbols[i], why_not, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (like != NULL && wb_symbol_get_module (like) == WB_SYMBOL_MODULE_PRIMS && op_supported (wb_symbol_get_name (like) + strlen ("prims.")))
    return TRUE;
  if (why_not)
    *why_not = g_strdup_printf ("%s has no decomposition into prims with a CUDA C generator", b->name);
  return FALSE;
}

gboolean
wb_cuda_codegen_can_fuse (const WbBsym *bsym, char **why_not)
{
  g_return_val_if_fail (bsym != NULL, FALSE);
  if (why_not)
    *why_not = NULL;
  return can_fuse (bsym, why_not, 0);
}

char *
wb_cuda_plan_describe (const WbCudaPlan *plan)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "// %u prims -> %u kernel%s, %u buffer%s; block %d threads\n", plan->n_ops, plan->n_kernels,
                          plan->n_kernels == 1 ? "" : "s", plan->n_buffers, plan->n_buffers == 1 ? "" : "s", WB_CUDA_BLOCK);
  for (guint i = 0; i < plan->n_kernels; i++)
    {
      const WbCudaKernel *k = &plan->kernels[i];
      g_string_append_printf (s, "//   %s<<<%u, %d>>>(", k->entry, k->grid, WB_CUDA_BLOCK);
      for (guint j = 0; j < k->n_params; j++)
        {
          guint slot = k->params[j];
          if (slot < plan->n_inputs)
            g_string_append_printf (s, "%sin%u", j ? ", " : "", slot);
          else
            g_string_append_printf (s, "%sbuf%u", j ? ", " : "", slot - plan->n_inputs);
        }
      g_string_append_printf (s, "): %s\n", k->what);
    }
  for (guint i = 0; i < plan->n_outputs; i++)
    {
      const WbCudaOutput *o = &plan->outputs[i];
      g_string_append_printf (s, "//   output %u: %s %s%u", i, wb_dtype_shortname (o->dtype), o->slot < plan->n_inputs ? "view of in" : "buf",
                              o->slot < plan->n_inputs ? o->slot : o->slot - plan->n_inputs);
      g_string_append (s, " [");
      for (guint d = 0; d < o->rank; d++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", o->shape[d]);
      g_string_append (s, "] strides (");
      for (guint d = 0; d < o->rank; d++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", o->strides[d]);
      g_string_append_printf (s, ") offset %" G_GINT64_FORMAT "\n", o->offset);
    }
  return g_string_free (s, FALSE);
}

static gboolean
annotated_type (const char *name, WbType *out, gpointer data)
{
  const WbType *t = g_hash_table_lookup (data, name);

  if (t == NULL)
    return FALSE;
  *out = *t;
  return TRUE;
}

/* Types of every name of @body: annotations, else what the symbol's meta derives (tuple outputs of
 * library calls carry no annotation). Derived types are stored in @owned. */
static void
collect_types (const WbBsym *const *body, guint n, GHashTable *types, GPtrArray *owned)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->has_type && (b->kind == WB_BSYM_ANNOTATION || b->kind == WB_BSYM_ASSIGN) && b->name)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
      else if (b->has_type && b->kind == WB_BSYM_CALL && b->type_name)
        g_hash_table_insert (types, (gpointer) b->type_name, (gpointer) &b->type);
      collect_types ((const WbBsym *const *) b->subsymbols, b->n_subsymbols, types, owned);
      if (b->kind == WB_BSYM_CALL && b->symbol && b->outputs && !b->has_type && wb_symbol_has_meta (b->symbol))
        {
          g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (WbType));
          const WbValue *o = b->outputs;
          guint          n_names = o->kind == WB_VALUE_NAME ? 1 : o->n_items;
          if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, annotated_type, types, out, NULL))
            continue;
          for (guint k = 0; k < n_names && k < out->len; k++)
            {
              const WbValue *nm = o->kind == WB_VALUE_NAME ? o : o->items[k];
              WbType        *t;
              if (nm->kind != WB_VALUE_NAME || g_hash_table_contains (types, nm->text))
                continue;
              t = g_memdup2 (&g_array_index (out, WbType, k), sizeof (WbType));
              g_ptr_array_add (owned, t);
              g_hash_table_insert (types, (gpointer) nm->text, t);
            }
        }
    }
}

WbCudaPlan *
wb_cuda_plan_new_annotated (const WbTrace *trace, const WbBsym *region, GError **error)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  g_autofree WbCudaArg *args = NULL;

  g_return_val_if_fail (trace != NULL && region != NULL, NULL);
  collect_types ((const WbBsym *const *) trace->body, trace->n_body, types, owned);
  args = g_new0 (WbCudaArg, MAX (region->n_args, 1));
  for (guint i = 0; i < region->n_args; i++)
    {
      const WbValue *a = region->args[i];
      const WbType  *t = a->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, a->text) : NULL;
      if (t != NULL)
        wb_cuda_arg_init_contiguous (&args[i], t);
      else if (a->kind == WB_VALUE_NAME)
        {
          g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_BAD_REGION,
                       "%s: input %s has no type annotation in the trace", region->name, a->text);
          return NULL;
        }
      else
        args[i].kind = WB_CUDA_ARG_OTHER;
    }
  return wb_cuda_plan_new_region (region, args, region->n_args, error);
}
