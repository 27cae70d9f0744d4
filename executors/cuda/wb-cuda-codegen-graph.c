/* wb-cuda-codegen-graph.c — the code generator's dataflow graph: values, nodes, the elementwise table, number folding
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

/* -- small helpers -------------------------------------------------------------------------- */

gboolean
_wb_cg_fail (GError **error, int code, const char *format, ...)
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

const char *
_wb_cg_gstr (Gen *g, const char *format, ...)
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

gint64
_wb_cg_numel_of (guint rank, const gint64 *shape)
{
  gint64 n = 1;

  for (guint d = 0; d < rank; d++)
    n *= shape[d];
  return n;
}

/* Whether tensors @a and @b have the same rank and shape. */
gboolean
_wb_cg_same_shape (const Val *a, const Val *b)
{
  return a->rank == b->rank && memcmp (a->shape, b->shape, sizeof (gint64) * a->rank) == 0;
}

/* Whether tensors @a and @b have the same dims of extent other than 1, in order ([2048, 4096] and
 * [1, 2048, 4096]): the same elements in the same order, which a kernel over one indexes for the other. */
gboolean
_wb_cg_same_shape_squeezed (const Val *a, const Val *b)
{
  guint i = 0, j = 0;

  for (;;)
    {
      while (i < a->rank && a->shape[i] == 1)
        i++;
      while (j < b->rank && b->shape[j] == 1)
        j++;
      if (i == a->rank || j == b->rank)
        return i == a->rank && j == b->rank;
      if (a->shape[i++] != b->shape[j++])
        return FALSE;
    }
}

void
_wb_cg_contiguous_strides (guint rank, const gint64 *shape, gint64 *strides)
{
  gint64 s = 1;

  for (int d = (int) rank - 1; d >= 0; d--)
    {
      strides[d] = s;
      s *= MAX (shape[d], 1);
    }
}

gboolean
_wb_cg_val_contiguous (const Val *v)
{
  gint64 cs[WB_MAX_RANK] = { 0 }; /* all rank of them set below; GCC -O3 cannot tell */

  if (v->input < 0)
    return TRUE; /* buffers are contiguous */
  _wb_cg_contiguous_strides (v->rank, v->shape, cs);
  for (guint d = 0; d < v->rank; d++)
    if (v->shape[d] != 1 && v->strides[d] != cs[d])
      return FALSE;
  return TRUE;
}

Cls
_wb_cg_dtype_cls (WbDtype dt)
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

gboolean
_wb_cg_dtype_supported (WbDtype dt)
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

const char *
_wb_cg_cls_ctype (Cls c)
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

/* -- the elementwise table (executors/cpu/wb-cpu-elementwise.def, the cpu and CUDA columns) --- */

/* The rows of the one elementwise table (executors/cpu/wb-cpu-elementwise.def): the cpu columns give the name, the
 * arity and whether the result is b8; WB_EW_CUDA gives the generator's templates. */
#define WB_CG_RES_BOOL_WB_EW_RES_SAME FALSE
#define WB_CG_RES_BOOL_WB_EW_RES_BOOL TRUE
#define WB_EW_UNARY(id, name, res, dt, f32, f64, i64)   { name, 1, WB_CG_RES_BOOL_##res,
#define WB_EW_BINARY(id, name, res, dt, f32, f64, i64)  { name, 2, WB_CG_RES_BOOL_##res,
#define WB_EW_TERNARY(id, name, res, dt, f32, f64, i64) { name, 3, WB_CG_RES_BOOL_##res,
#define WB_EW_CUDA(f, d, i, exact)                      f, d, i, exact },
static const EwOp ew_ops[] = {
#include "cpu/wb-cpu-elementwise.def"
};
#undef WB_EW_UNARY
#undef WB_EW_BINARY
#undef WB_EW_TERNARY
#undef WB_EW_CUDA

const EwOp *
_wb_cg_ew_lookup (const char *op)
{
  for (guint k = 0; k < G_N_ELEMENTS (ew_ops); k++)
    if (strcmp (ew_ops[k].name, op) == 0)
      return ew_ops[k].f || ew_ops[k].d || ew_ops[k].i ? &ew_ops[k] : NULL; /* no CUDA column: not generated */
  return NULL;
}

const char *
_wb_cg_ew_expand (Gen *g, const char *tmpl, const char *const *ops)
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
static const char *const index_ops[] = { "take", "take_along_axis", "gather", "pad", "cat", "iota", "full", "empty", NULL };
static const char *const reduction_ops[] = { "sum", "prod", "amax", "amin", "var", "std", "var_mean", NULL };

static gboolean
in_list (const char *name, const char *const *list)
{
  for (guint i = 0; list[i]; i++)
    if (strcmp (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
_wb_cg_op_supported (const char *op)
{
  return _wb_cg_ew_lookup (op) || in_list (op, view_ops) || in_list (op, index_ops) || in_list (op, reduction_ops);
}

/* -- building the graph ------------------------------------------------------------------- */

Val *
_wb_cg_val_new (Gen *g, const char *name)
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
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: too many arguments", n->b->name);
      n->arg[pos++] = n->b->args[i];
    }
  for (guint i = 0; i < n->b->n_kwargs; i++)
    {
      gboolean found = FALSE;
      for (guint p = 0; p < n->n_arg && !found; p++)
        if (strcmp (params[p].name, n->b->kwargs[i].name) == 0)
          n->arg[p] = n->b->kwargs[i].value, found = TRUE;
      if (!found)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: unknown keyword %s", n->b->name, n->b->kwargs[i].name);
    }
  return TRUE;
}

/* A number operand: a literal, a negated literal or name, or a name bound to a number. */
Val *
_wb_cg_number_of (Gen *g, const WbValue *v)
{
  Val *x;

  if (v == NULL)
    return NULL;
  switch (v->kind)
    {
    case WB_VALUE_INT:
    case WB_VALUE_BOOL:
    case WB_VALUE_FLOAT:
      x = _wb_cg_val_new (g, _wb_cg_gstr (g, "_lit%u", g->n_literal++));
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
        Val *base = _wb_cg_number_of (g, v->base);
        if (base == NULL)
          return NULL;
        x = _wb_cg_val_new (g, _wb_cg_gstr (g, "_lit%u", g->n_literal++));
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
Val *
_wb_cg_operand (Gen *g, const WbValue *v)
{
  if (v == NULL)
    return NULL;
  if (v->kind == WB_VALUE_NAME)
    return g_hash_table_lookup (g->env, v->text);
  return _wb_cg_number_of (g, v);
}

gboolean
_wb_cg_get_ints (const WbValue *v, gint64 *out, guint max, guint *n)
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
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of numbers only is not generated", op->name);
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
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of numbers only is not generated", op->name);
      (void) n;
      out->is_float = TRUE;
      out->f = r;
      out->dtype = WB_DTYPE_FLOAT64;
      return TRUE;
    }
}

/* A sum, prod, amax or amin over dims of extent 1 only (layer norm's backward sums a [8, 1024, 1] gradient
 * over its last dim) takes each output from one element: it is that operand squeezed, a view with no kernel
 * of its own (prims.squeeze has the same arguments: a, dims). The one difference from a reduction that
 * starts at 0: a -0.0 stays -0.0 instead of becoming +0.0. */
static void
squeeze_unit_reduction (Gen *g, Node *n)
{
  static const char *const unit_ops[] = { "sum", "prod", "amax", "amin", NULL };
  Val                     *a = n->arg[0] && n->arg[0]->kind == WB_VALUE_NAME ? g_hash_table_lookup (g->env, n->arg[0]->text) : NULL;
  gint64                   dims[WB_MAX_RANK];
  guint                    nd = 0;

  if (!n->is_reduction || !in_list (n->op, unit_ops) || a == NULL || !a->is_tensor || n->n_out != 1 || n->out[0]->dtype != a->dtype ||
      !_wb_cg_get_ints (n->arg[1], dims, WB_MAX_RANK, &nd) || nd == 0)
    return;
  for (guint i = 0; i < nd; i++)
    if (dims[i] < 0 || dims[i] >= a->rank || a->shape[dims[i]] != 1)
      return;
  n->is_reduction = FALSE;
  n->op = "squeeze";
  n->id = WB_SYMBOL_PRIMS_SQUEEZE;
}

/* A flip over dims of extent 1, a pad of zero widths or a cat of one tensor returns its operand unchanged
 * (wb_bsym_get_identity_source: the rule the cpu executor and the static memory plan follow): it becomes a
 * shallow_copy of that operand, which a plan's output returns as a view of it without a kernel
 * (densenet121's backward flips 61 [C, K, 1, 1] weights, each a copy held until its convolution). */
static void
identity_view (Gen *g, Node *n)
{
  const WbValue *src;

  if (n->n_out != 1 || wb_identity_op_of (n->b->symbol) == WB_IDENTITY_NONE || (src = wb_bsym_get_identity_source (n->b, lookup_type, g)) == NULL)
    return;
  n->op = "shallow_copy";
  n->id = WB_SYMBOL_PRIMS_SHALLOW_COPY;
  memset (n->arg, 0, sizeof n->arg);
  n->arg[0] = src;
  n->n_arg = 1;
}

/* The key of node @n for common subexpressions: its op and each bound argument (a name as the Val it is bound
 * to, anything else as its Python spelling), or NULL when @n is not a pure single-output op of the kinds
 * Thunder's traces repeat (an elementwise op, a conversion or a view: gpt2_block's recomputed backward converts
 * one value to bf16 twice, once for an output and once for its reshape, which then needed two buffers). */
static char *
cse_key (Gen *g, Node *n)
{
  static const char *const pure[] = { "convert_element_type", "broadcast_in_dim", "reshape", "transpose", "squeeze", "shallow_copy", NULL };
  GString                 *s;

  if (_wb_cg_ew_lookup (n->op) == NULL && !g_strv_contains (pure, n->op))
    return NULL;
  s = g_string_new (n->op);
  for (guint i = 0; i < n->n_arg; i++)
    {
      const WbValue *a = n->arg[i];
      Val           *v = a != NULL && a->kind == WB_VALUE_NAME ? g_hash_table_lookup (g->env, a->text) : NULL;
      if (a == NULL)
        g_string_append (s, "|-");
      else if (v != NULL)
        g_string_append_printf (s, "|#%u", v->id);
      else
        {
          g_autofree char *text = wb_value_to_string (a);
          g_string_append_printf (s, "|%s", text);
        }
    }
  return g_string_free (s, FALSE);
}

static gboolean
add_node (Gen *g, const WbBsym *b, const char *op, const WbSymbol *prim, GError **error)
{
  const char *full = b->name;
  Node       *n;
  g_autoptr (GArray) types = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *key = NULL;
  Val             *same;

  n = g_new0 (Node, 1);
  n->b = b;
  n->op = op;
  n->id = wb_symbol_get_id (prim);
  g_ptr_array_add (g->nodes, n);
  g->n_ops++;
  if (!bind_args (n, error))
    return FALSE;
  n->is_reduction = in_list (n->op, reduction_ops);

  outs = g_ptr_array_new ();
  wb_bsym_get_output_names (b, outs);
  types = g_array_new (FALSE, TRUE, sizeof (WbType));
  if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, lookup_type, g, types, &local))
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: %s", full, local->message);
  if (outs->len > 2 || types->len < outs->len)
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: %u outputs", full, outs->len);

  /* all-number elementwise ops fold now */
  {
    const EwOp *ew = _wb_cg_ew_lookup (n->op);
    if (ew != NULL && outs->len == 1 && g_array_index (types, WbType, 0).kind != WB_TYPE_TENSOR)
      {
        Val *ops[3] = { NULL };
        Val *out = _wb_cg_val_new (g, outs->pdata[0]);
        for (guint k = 0; k < ew->arity; k++)
          if ((ops[k] = _wb_cg_number_of (g, n->arg[k])) == NULL)
            return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: operand %u is not a number", full, k);
        if (!fold_numbers (g, n, ew, ops, out, error))
          return FALSE;
        g_hash_table_replace (g->env, (gpointer) out->name, out);
        return TRUE;
      }
  }
  if (strcmp (n->op, "convert_element_type") == 0 && outs->len == 1 && g_array_index (types, WbType, 0).kind != WB_TYPE_TENSOR)
    {
      Val     *x = _wb_cg_number_of (g, n->arg[0]), *out;
      WbDtype  dt;
      gboolean weak;
      if (x == NULL || !wb_value_get_dtype (n->arg[1], &dt, &weak))
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s of a number", full);
      out = _wb_cg_val_new (g, outs->pdata[0]);
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

  /* a repeat of an earlier pure op on the same operands is that op's value */
  key = outs->len == 1 && !g->opt.no_cse ? cse_key (g, n) : NULL;
  if (key != NULL && (same = g_hash_table_lookup (g->cse, key)) != NULL && same->dtype == g_array_index (types, WbType, 0).dtype)
    {
      g_hash_table_replace (g->env, outs->pdata[0], same);
      g_ptr_array_remove_index (g->nodes, g->nodes->len - 1); /* n */
      return TRUE;
    }
  for (guint k = 0; k < outs->len; k++)
    {
      const WbType *t = &g_array_index (types, WbType, k);
      Val          *v;
      if (t->kind != WB_TYPE_TENSOR)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: output %u is not a tensor", full, k);
      if (!_wb_cg_dtype_supported (t->dtype))
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: dtype %s is not supported", full, wb_dtype_shortname (t->dtype));
      v = _wb_cg_val_new (g, outs->pdata[k]);
      v->is_tensor = TRUE;
      v->dtype = t->dtype;
      v->rank = t->rank;
      memcpy (v->shape, t->shape, sizeof (gint64) * t->rank);
      v->def = n;
      v->def_out = k;
      n->out[n->n_out++] = v;
      g_hash_table_replace (g->env, (gpointer) v->name, v);
    }
  if (key != NULL && n->n_out == 1)
    g_hash_table_insert (g->cse, g_steal_pointer (&key), n->out[0]);
  if (n->n_out == 0)
    {
      /* every output discarded (`_ = prims.convert_element_type(0, float)` inside a decomposition): a pure op
       * whose value nothing reads is left out */
      g_ptr_array_remove_index (g->nodes, g->nodes->len - 1); /* n */
      return TRUE;
    }
  squeeze_unit_reduction (g, n);
  identity_view (g, n);
  return TRUE;
}

gboolean
_wb_cg_add_body (Gen *g, const WbBsym *const *body, guint n_body, int depth, GError **error)
{
  if (depth > 16)
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "decomposition too deep");
  for (guint i = 0; i < n_body; i++)
    {
      const WbBsym *b = body[i];
      if (b->kind != WB_BSYM_CALL)
        continue;
      if (b->symbol == NULL)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: unknown symbol", b->name);
      if (wb_symbol_get_module (b->symbol) == WB_SYMBOL_MODULE_PRIMS && wb_symbol_get_like (b->symbol) == NULL)
        {
          if (!_wb_cg_op_supported (b->name + strlen ("prims.")))
            return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "no generator for %s", b->name);
          if (!add_node (g, b, b->name + strlen ("prims."), b->symbol, error))
            return FALSE;
        }
      else if (b->n_subsymbols > 0)
        {
          if (!_wb_cg_add_body (g, (const WbBsym *const *) b->subsymbols, b->n_subsymbols, depth + 1, error))
            return FALSE;
        }
      else if (wb_symbol_get_like (b->symbol) != NULL && wb_symbol_get_module (wb_symbol_get_like (b->symbol)) == WB_SYMBOL_MODULE_PRIMS)
        {
          /* an executor's alias of a prim (torch_div_prim_impl -> prims.div): same signature and meta */
          const char *like = wb_symbol_get_name (wb_symbol_get_like (b->symbol));
          if (!_wb_cg_op_supported (like + strlen ("prims.")))
            return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "no generator for %s (%s)", b->name, like);
          if (!add_node (g, b, like + strlen ("prims."), wb_symbol_get_like (b->symbol), error))
            return FALSE;
        }
      else
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s has no decomposition to generate from", b->name);
    }
  return TRUE;
}

int
_wb_cg_innermost_dim (guint rank, const gint64 *shape)
{
  for (int d = (int) rank - 1; d >= 0; d--)
    if (shape[d] != 1)
      return d;
  return -1;
}

Val *
_wb_cg_input_val (Gen *g, guint slot)
{
  for (guint j = 0; j < g->vals->len; j++)
    {
      Val *x = g->vals->pdata[j];
      if (x != NULL && x->input == (int) slot)
        return x;
    }
  return NULL;
}

gboolean
_wb_cg_node_reads_any (Gen *g, Node *n, gboolean (*fn) (Gen *g, Val *a, gpointer data), gpointer data)
{
  for (guint i = 0; i < n->n_arg; i++)
    {
      const WbValue *a = n->arg[i];
      if (a == NULL)
        continue;
      if (a->kind == WB_VALUE_NAME)
        {
          Val *x = g_hash_table_lookup (g->env, a->text);
          if (x != NULL && fn (g, x, data))
            return TRUE;
        }
      else if (wb_value_is_sequence (a))
        for (guint j = 0; j < a->n_items; j++)
          if (a->items[j]->kind == WB_VALUE_NAME)
            {
              Val *x = g_hash_table_lookup (g->env, a->items[j]->text);
              if (x != NULL && fn (g, x, data))
                return TRUE;
            }
    }
  return FALSE;
}
