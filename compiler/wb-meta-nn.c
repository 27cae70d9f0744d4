/* wb-meta-nn.c — meta functions of matmul-like ops, embedding, norms, losses and attention
 * (ltorch.scaled_dot_product_attention and the sdpa executor's forward/backward ops); convolutions are
 * in wb-meta-spatial.c
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: thunder/core/prims.py (linear_meta, matmul_meta, embedding_meta),
 * thunder/torch/__init__.py (backward_adaptor: the vjp of an automatically registered torch function),
 * thunder/executors/sdpaex.py. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

static gboolean
same_dtype (WbMetaCall *call, const WbType *a, const WbType *b, const char *what, GError **error)
{
  if (a->dtype != b->dtype)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%s dtypes differ: %s and %s", what,
                          wb_dtype_shortname (a->dtype), wb_dtype_shortname (b->dtype));
  if (!wb_device_equal (&a->device, &b->device))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%s devices differ", what);
  return TRUE;
}

/* ---- linear and matmul -------------------------------------------------------------------------- */

static gboolean
linear_common (WbMetaCall *call, gboolean allow_1d_weight, GError **error)
{
  WbType a, w, bias;
  gint64 shape[MAXD];
  gint64 out_len;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &w, error))
    return FALSE;
  if (!same_dtype (call, &a, &w, "input and weight", error))
    return FALSE;
  if (a.rank < 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input must have rank 1 or more");
  if (w.rank != 2 && !(allow_1d_weight && w.rank == 1))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "weight must be a matrix, got rank %u", w.rank);
  if (w.shape[w.rank - 1] != a.shape[a.rank - 1])
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                          "weight's inner length %" G_GINT64_FORMAT " differs from the input's %" G_GINT64_FORMAT,
                          w.shape[w.rank - 1], a.shape[a.rank - 1]);
  out_len = w.rank == 2 ? w.shape[0] : -1;
  if (_wb_meta_arg_present (call, 2))
    {
      if (!_wb_meta_arg_tensor (call, 2, &bias, error) || !same_dtype (call, &a, &bias, "input and bias", error))
        return FALSE;
      if (out_len >= 0 && (bias.rank != 1 || bias.shape[0] != out_len))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "bias must have shape [%" G_GINT64_FORMAT "]", out_len);
    }
  memcpy (shape, a.shape, sizeof (gint64) * (a.rank - 1));
  if (out_len < 0)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank - 1, error);
  shape[a.rank - 1] = out_len;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

gboolean
_wb_meta_prim_linear (WbMetaCall *call, GError **error)
{
  return linear_common (call, FALSE, error);
}

gboolean
_wb_meta_linear (WbMetaCall *call, GError **error)
{
  return linear_common (call, TRUE, error);
}

/* matmul: prims require equal batch dims; ltorch (torch.matmul) broadcasts them. */
static gboolean
matmul_common (WbMetaCall *call, gboolean broadcast, GError **error)
{
  WbType a, b;
  gint64 shape[MAXD];
  guint  r = 0;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  if (a.rank < 1 || b.rank < 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "both operands need rank 1 or more");
  if (!same_dtype (call, &a, &b, "operand", error))
    return FALSE;
  if (a.rank == 1 && b.rank == 1)
    {
      if (a.shape[0] != b.shape[0])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "vector lengths differ");
      return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, 0, error);
    }
  {
    gint64 k_a = a.shape[a.rank - 1];
    gint64 k_b = b.rank == 1 ? b.shape[0] : b.shape[b.rank - 2];
    guint  ba = a.rank >= 2 ? a.rank - 2 : 0, bb = b.rank >= 2 ? b.rank - 2 : 0, nb = MAX (ba, bb);
    if (k_a != k_b)
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                            "inner lengths differ: %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT, k_a, k_b);
    if (!broadcast && a.rank >= 2 && b.rank >= 2 && (ba != bb || memcmp (a.shape, b.shape, sizeof (gint64) * ba) != 0))
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "batch dims differ (prims.matmul does not broadcast)");
    for (guint i = 0; i < nb; i++)
      {
        gint64 x = i + ba >= nb ? a.shape[i + ba - nb] : 1;
        gint64 y = i + bb >= nb ? b.shape[i + bb - nb] : 1;
        if (x != y && x != 1 && y != 1)
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "batch dims do not broadcast");
        shape[r++] = x == 1 ? y : x;
      }
    if (a.rank >= 2)
      shape[r++] = a.shape[a.rank - 2];
    if (b.rank >= 2)
      shape[r++] = b.shape[b.rank - 1];
  }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
}

gboolean
_wb_meta_prim_matmul (WbMetaCall *call, GError **error)
{
  return matmul_common (call, FALSE, error);
}

gboolean
_wb_meta_matmul (WbMetaCall *call, GError **error)
{
  return matmul_common (call, TRUE, error);
}

gboolean
_wb_meta_bmm (WbMetaCall *call, GError **error)
{
  WbType a, b;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  if (a.rank != 3 || b.rank != 3 || a.shape[0] != b.shape[0] || a.shape[2] != b.shape[1])
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects [b, n, m] @ [b, m, p]");
  if (!same_dtype (call, &a, &b, "operand", error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ a.shape[0], a.shape[1], b.shape[2] }, 3, error);
}

gboolean
_wb_meta_baddbmm (WbMetaCall *call, GError **error)
{
  WbType a, b1, b2;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b1, error) || !_wb_meta_arg_tensor (call, 2, &b2, error))
    return FALSE;
  if (b1.rank != 3 || b2.rank != 3 || b1.shape[0] != b2.shape[0] || b1.shape[2] != b2.shape[1])
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects [b, n, m] @ [b, m, p]");
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ b1.shape[0], b1.shape[1], b2.shape[2] }, 3, error);
}

gboolean
_wb_meta_outer (WbMetaCall *call, GError **error)
{
  WbType a, b;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  if (a.rank != 1 || b.rank != 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects two vectors");
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ a.shape[0], b.shape[0] }, 2, error);
}

gboolean
_wb_meta_prim_grouped_mm (WbMetaCall *call, GError **error)
{
  WbType a, b, offsets;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error) || !_wb_meta_arg_tensor (call, 2, &offsets, error))
    return FALSE;
  if (!same_dtype (call, &a, &b, "operand", error))
    return FALSE;
  if (a.rank == 2 && b.rank == 2 && offsets.rank >= 1)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ offsets.shape[0], a.shape[0], b.shape[1] }, 3, error);
  if (a.rank == 3 && b.rank == 2)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ a.shape[1], b.shape[1] }, 2, error);
  if (a.rank == 2 && b.rank == 3)
    return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, (gint64[]){ a.shape[0], b.shape[2] }, 2, error);
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "unsupported ranks %u and %u", a.rank, b.rank);
}

/* ---- embedding ------------------------------------------------------------------------------- */

static gboolean
embedding_common (WbMetaCall *call, gboolean need_i64, GError **error)
{
  WbType a, w;
  gint64 shape[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &w, error))
    return FALSE;
  if (need_i64 ? a.dtype != WB_DTYPE_INT64 : !wb_dtype_is_integer (a.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "indices must be %s, not %s", need_i64 ? "i64" : "integers",
                          wb_dtype_shortname (a.dtype));
  if (w.rank != 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "weight must be a matrix");
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  shape[a.rank] = w.shape[1];
  return _wb_meta_out_shape (call, &w, WB_DTYPE_UNKNOWN, shape, a.rank + 1, error);
}

gboolean
_wb_meta_prim_embedding (WbMetaCall *call, GError **error)
{
  return embedding_common (call, TRUE, error);
}

gboolean
_wb_meta_embedding (WbMetaCall *call, GError **error)
{
  return embedding_common (call, FALSE, error);
}

gboolean
_wb_meta_prim_embedding_backward (WbMetaCall *call, GError **error)
{
  WbType g;
  gint64 num;

  if (!_wb_meta_arg_tensor (call, 0, &g, error) || !_wb_meta_arg_int (call, 2, &num, error))
    return FALSE;
  if (g.rank < 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "grad needs rank 1 or more");
  return _wb_meta_out_shape (call, &g, WB_DTYPE_UNKNOWN, (gint64[]){ num, g.shape[g.rank - 1] }, 2, error);
}

/* ---- norms and losses --------------------------------------------------------------------------- */

static gboolean
check_normalized_shape (WbMetaCall *call, const WbType *a, GError **error)
{
  gint64 ns[MAXD];
  guint  n;

  if (!_wb_meta_arg_ints (call, 1, ns, MAXD, &n, TRUE, error))
    return FALSE;
  if (n > a->rank || memcmp (ns, a->shape + (a->rank - n), sizeof (gint64) * n) != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "normalized_shape does not match the input's trailing dims");
  return TRUE;
}

gboolean
_wb_meta_layer_norm (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !check_normalized_shape (call, &a, error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_rms_norm (WbMetaCall *call, GError **error)
{
  return _wb_meta_layer_norm (call, error);
}

/* cross_entropy, nll_loss (input [N, C, d...] or [C], target [N, d...]), mse_loss and kl_div; reduction= 'none'
 * keeps the target's (or broadcast) shape, 'mean', 'sum' and 'batchmean' a 0-d tensor of the input's dtype. */
gboolean
_wb_meta_loss (WbMetaCall *call, GError **error)
{
  WbType      a, target;
  int         red_p = _wb_meta_param_index (call, "reduction");
  const char *reduction = red_p >= 0 ? _wb_meta_arg_string (call, red_p) : "mean";
  /* mse_loss and kl_div are elementwise between input and target (no class dim) */
  gboolean mse = call->symbol->id == WB_SYMBOL_LTORCH_MSE_LOSS || call->symbol->id == WB_SYMBOL_LTORCH_KL_DIV;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &target, error))
    return FALSE;
  if (reduction == NULL)
    reduction = "mean";
  if (!mse)
    {
      if (a.rank == 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input needs a class dim");
      if (wb_dtype_is_integer (target.dtype))
        {
          gboolean ok = a.rank == 1 ? target.rank == 0 : target.rank == a.rank - 1 && target.shape[0] == a.shape[0];
          for (guint i = 2; ok && i < a.rank; i++)
            ok = target.shape[i - 1] == a.shape[i];
          if (!ok)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "target shape does not match the input");
        }
    }
  if (strcmp (reduction, "none") == 0)
    {
      if (mse)
        {
          WbType ops[2] = { a, target }, out;
          if (!_wb_meta_broadcast (call, ops, 2, &out, error))
            return FALSE;
          out.dtype = a.dtype;
          _wb_meta_out (call, &out);
          return TRUE;
        }
      if (wb_dtype_is_integer (target.dtype))
        return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, target.shape, target.rank, error);
      {
        /* class probabilities: the input's shape without its class dim */
        gint64 shape[MAXD];
        guint  r = 0;
        for (guint i = 0; i < a.rank; i++)
          if (i != (a.rank == 1 ? 0u : 1u))
            shape[r++] = a.shape[i];
        return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, r, error);
      }
    }
  if (strcmp (reduction, "mean") != 0 && strcmp (reduction, "sum") != 0 && strcmp (reduction, "batchmean") != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unknown reduction '%s'", reduction);
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, NULL, 0, error);
}

/* The keyword arguments of kl_div as a vjp saved them ({'reduction': 'batchmean', 'log_target': False}):
 * reduction 'none', 'mean', 'sum' or 'batchmean' (default 'mean'), log_target a bool (default False). */
static gboolean
kl_div_kwargs (WbMetaCall *call, const WbValue *kwargs, const char **reduction, GError **error)
{
  *reduction = "mean";
  for (guint i = 0; i + 1 < kwargs->n_items; i += 2)
    {
      const WbValue *k = kwargs->items[i], *v = kwargs->items[i + 1];
      if (k->kind != WB_VALUE_STRING)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "keyword names must be strings");
      if (strcmp (k->v.s, "reduction") == 0)
        {
          if (v->kind != WB_VALUE_STRING)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "reduction must be a string");
          *reduction = v->v.s;
        }
      else if (strcmp (k->v.s, "log_target") == 0)
        {
          if (v->kind != WB_VALUE_BOOL)
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "log_target must be True or False");
        }
      else
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unsupported keyword argument '%s' of kl_div (reduction and log_target only)",
                              k->v.s);
    }
  if (strcmp (*reduction, "none") != 0 && strcmp (*reduction, "mean") != 0 && strcmp (*reduction, "sum") != 0 &&
      strcmp (*reduction, "batchmean") != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unknown reduction '%s'", *reduction);
  return TRUE;
}

/* kl_div_vjp (((input, target), {kwargs}), g): the torch executor's vjp of kl_div. The cotangent g has the
 * loss's shape: input and target broadcast for 'none', else 0-d. Outputs: grad_input like input and
 * grad_target like target (floats). */
gboolean
_wb_meta_kl_div_vjp (WbMetaCall *call, GError **error)
{
  const WbValue *saved = call->params[0], *args, *kwargs;
  const char    *reduction;
  WbType         a, target, g, loss;

  if (saved == NULL || saved->kind != WB_VALUE_TUPLE || saved->n_items != 2 || saved->items[0]->kind != WB_VALUE_TUPLE ||
      saved->items[1]->kind != WB_VALUE_DICT)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "saved_for_backward must be ((input, target), {keyword arguments})");
  args = saved->items[0], kwargs = saved->items[1];
  if (args->n_items != 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call,
                          "kl_div's positional arguments must be (input, target), got %u (reduction and log_target by keyword)", args->n_items);
  if (!_wb_meta_value_tensor (call, args->items[0], "input", &a, error) || !_wb_meta_value_tensor (call, args->items[1], "target", &target, error) ||
      !kl_div_kwargs (call, kwargs, &reduction, error))
    return FALSE;
  if (!wb_dtype_is_float (a.dtype) || !wb_dtype_is_float (target.dtype))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input and target must be floating point");
  if (call->n_varargs != 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "takes one cotangent, got %u", call->n_varargs);
  if (!_wb_meta_value_tensor (call, call->varargs[0], "grad_output", &g, error))
    return FALSE;
  {
    WbType ops[2] = { a, target };
    if (!_wb_meta_broadcast (call, ops, 2, &loss, error))
      return FALSE;
  }
  if (strcmp (reduction, "none") != 0)
    loss.rank = 0;
  if (g.rank != loss.rank || memcmp (g.shape, loss.shape, sizeof (gint64) * g.rank) != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "the cotangent's shape is not the loss's (reduction '%s')", reduction);
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  _wb_meta_out_like (call, &target, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_nll_loss_backward (WbMetaCall *call, GError **error)
{
  WbType g, a;

  if (!_wb_meta_arg_tensor (call, 0, &g, error) || !_wb_meta_arg_tensor (call, 1, &a, error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

gboolean
_wb_meta_log_softmax_backward (WbMetaCall *call, GError **error)
{
  WbType  g, out;
  WbDtype dtype;
  gint64  dim;
  guint   d;
  GError *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &g, error) || !_wb_meta_arg_tensor (call, 1, &out, error) || !_wb_meta_arg_int (call, 2, &dim, error) || !_wb_meta_canonical_dim (call, dim, g.rank, &d, error))
    return FALSE;
  if (!_wb_meta_arg_dtype (call, 3, &dtype, NULL, &local))
    {
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "dtype is required");
    }
  if (g.rank != out.rank || memcmp (g.shape, out.shape, sizeof (gint64) * g.rank) != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "grad and output shapes differ");
  _wb_meta_out_like (call, &g, dtype);
  return TRUE;
}

/* ---- attention ---------------------------------------------------------------------------------- */

/* q [..., L, E], k [..., S, E], v [..., S, Ev] */
static gboolean
qkv (WbMetaCall *call, WbType *q, WbType *k, WbType *v, guint min_rank, GError **error)
{
  if (!_wb_meta_arg_tensor (call, 0, q, error) || !_wb_meta_arg_tensor (call, 1, k, error) || !_wb_meta_arg_tensor (call, 2, v, error))
    return FALSE;
  if (q->rank < min_rank || k->rank != q->rank || v->rank != q->rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "query, key and value need the same rank (at least %u)", min_rank);
  if (!same_dtype (call, q, k, "query and key", error) || !same_dtype (call, q, v, "query and value", error))
    return FALSE;
  if (q->shape[q->rank - 1] != k->shape[k->rank - 1] || k->shape[k->rank - 2] != v->shape[v->rank - 2])
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "query/key head dims or key/value lengths differ");
  return TRUE;
}

gboolean
_wb_meta_sdpa (WbMetaCall *call, GError **error)
{
  WbType q, k, v;
  gint64 shape[MAXD];

  if (!qkv (call, &q, &k, &v, 2, error))
    return FALSE;
  memcpy (shape, q.shape, sizeof (gint64) * q.rank);
  shape[q.rank - 1] = v.shape[v.rank - 1];
  return _wb_meta_out_shape (call, &q, WB_DTYPE_UNKNOWN, shape, q.rank, error);
}

static gboolean
sdpa_fused_dtype (WbMetaCall *call, const WbType *q, gboolean allow_f32, GError **error)
{
  if (q->dtype == WB_DTYPE_BFLOAT16 || q->dtype == WB_DTYPE_FLOAT16 || (allow_f32 && q->dtype == WB_DTYPE_FLOAT32))
    return TRUE;
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "unsupported dtype %s", wb_dtype_shortname (q->dtype));
}

/* aten._scaled_dot_product_efficient_attention: (out, logsumexp f32 [B, H, ceil(L/32)*32], seed, offset) */
gboolean
_wb_meta_sdpa_efficient_forward (WbMetaCall *call, GError **error)
{
  WbType q, k, v;
  gint64 B, H, L, Ev;

  if (!qkv (call, &q, &k, &v, 4, error) || !sdpa_fused_dtype (call, &q, TRUE, error))
    return FALSE;
  if (q.rank != 4)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects [batch, heads, length, dim] inputs");
  B = q.shape[0], H = q.shape[1], L = q.shape[2], Ev = v.shape[3];
  return _wb_meta_out_shape (call, &q, WB_DTYPE_UNKNOWN, (gint64[]){ B, H, L, Ev }, 4, error) && _wb_meta_out_shape (call, &q, WB_DTYPE_FLOAT32, (gint64[]){ B, H, (L + 31) / 32 * 32 }, 3, error) && _wb_meta_out_shape (call, &q, WB_DTYPE_INT64, NULL, 0, error) && _wb_meta_out_shape (call, &q, WB_DTYPE_INT64, NULL, 0, error);
}

/* aten._scaled_dot_product_flash_attention: (out, logsumexp f32 [B, H, ceil(L/16)*16], cum_seq_q [B+1],
 * cum_seq_k [B+1], max_q, max_k, philox_seed, philox_offset, debug_attn_mask) */
gboolean
_wb_meta_sdpa_flash_forward (WbMetaCall *call, GError **error)
{
  WbType q, k, v;
  gint64 B, H, L, E;

  if (!qkv (call, &q, &k, &v, 4, error) || !sdpa_fused_dtype (call, &q, FALSE, error))
    return FALSE;
  if (q.rank != 4)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects [batch, heads, length, dim] inputs");
  B = q.shape[0], H = q.shape[1], L = q.shape[2], E = q.shape[3];
  if (!_wb_meta_out_shape (call, &q, WB_DTYPE_UNKNOWN, (gint64[]){ B, H, L, E }, 4, error) || !_wb_meta_out_shape (call, &q, WB_DTYPE_FLOAT32, (gint64[]){ B, H, (L + 15) / 16 * 16 }, 3, error) || !_wb_meta_out_shape (call, &q, WB_DTYPE_INT64, (gint64[]){ B + 1 }, 1, error) || !_wb_meta_out_shape (call, &q, WB_DTYPE_INT64, (gint64[]){ B + 1 }, 1, error))
    return FALSE;
  _wb_meta_out_int (call, TRUE, L);
  _wb_meta_out_int (call, TRUE, k.shape[2]);
  return _wb_meta_out_shape (call, &q, WB_DTYPE_INT64, NULL, 0, error) && _wb_meta_out_shape (call, &q, WB_DTYPE_INT64, NULL, 0, error) && _wb_meta_out_shape (call, &q, WB_DTYPE_INT64, NULL, 0, error);
}

/* The saved forward results a backward takes: grad_out and out [B, H, L, Ev], logsumexp f32
 * [B, H, ceil(L/@align)*@align]. */
static gboolean
check_saved (WbMetaCall *call, const WbType *q, const WbType *v, const WbType *g, const WbType *out, const WbType *lse, gint64 align, GError **error)
{
  gint64 want[4];

  if (q->rank != 4 || v->rank != 4)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects [batch, heads, length, dim] inputs");
  want[0] = q->shape[0], want[1] = q->shape[1], want[2] = q->shape[2], want[3] = v->shape[3];
  if (g->rank != 4 || memcmp (g->shape, want, sizeof want) != 0 || out->rank != 4 || memcmp (out->shape, want, sizeof want) != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "grad_out and out must be [B, H, L, Ev] like the query");
  if (lse->rank != 3 || lse->shape[0] != want[0] || lse->shape[1] != want[1] || lse->shape[2] != (want[2] + align - 1) / align * align || lse->dtype != WB_DTYPE_FLOAT32)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                          "logsumexp must be f32 [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                          want[0], want[1], (want[2] + align - 1) / align * align);
  return TRUE;
}

/* (grad_query, grad_key, grad_value, grad_attn_mask or None) */
gboolean
_wb_meta_sdpa_efficient_backward (WbMetaCall *call, GError **error)
{
  WbType g, q, k, v, mask, none;

  WbType out, lse;

  if (!_wb_meta_arg_tensor (call, 0, &g, error) || !_wb_meta_arg_tensor (call, 1, &q, error) || !_wb_meta_arg_tensor (call, 2, &k, error) || !_wb_meta_arg_tensor (call, 3, &v, error) || !_wb_meta_arg_tensor (call, 5, &out, error) || !_wb_meta_arg_tensor (call, 6, &lse, error))
    return FALSE;
  if (!check_saved (call, &q, &v, &g, &out, &lse, 32, error))
    return FALSE;
  _wb_meta_out_like (call, &q, WB_DTYPE_UNKNOWN);
  _wb_meta_out_like (call, &k, WB_DTYPE_UNKNOWN);
  _wb_meta_out_like (call, &v, WB_DTYPE_UNKNOWN);
  if (_wb_meta_arg_present (call, 4))
    {
      if (!_wb_meta_arg_tensor (call, 4, &mask, error))
        return FALSE;
      _wb_meta_out_like (call, &mask, WB_DTYPE_UNKNOWN);
    }
  else
    {
      memset (&none, 0, sizeof none);
      none.kind = WB_TYPE_OTHER;
      none.text = "None";
      _wb_meta_out (call, &none);
    }
  return TRUE;
}

/* (grad_query [B, H, max_q, E], grad_key [B, H, max_k, E], grad_value [B, H, max_k, E]) */
gboolean
_wb_meta_sdpa_flash_backward (WbMetaCall *call, GError **error)
{
  WbType g, q, k, v;
  gint64 max_q, max_k, B, H, E;

  WbType out, lse;

  if (!_wb_meta_arg_tensor (call, 0, &g, error) || !_wb_meta_arg_tensor (call, 1, &q, error) || !_wb_meta_arg_tensor (call, 2, &k, error) || !_wb_meta_arg_tensor (call, 3, &v, error) || !_wb_meta_arg_tensor (call, 4, &out, error) || !_wb_meta_arg_tensor (call, 5, &lse, error) || !_wb_meta_arg_int (call, 8, &max_q, error) || !_wb_meta_arg_int (call, 9, &max_k, error))
    return FALSE;
  if (q.rank != 4)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects [batch, heads, length, dim] inputs");
  if (!check_saved (call, &q, &v, &g, &out, &lse, 16, error))
    return FALSE;
  B = q.shape[0], H = q.shape[1], E = q.shape[3];
  return _wb_meta_out_shape (call, &q, WB_DTYPE_UNKNOWN, (gint64[]){ B, H, max_q, E }, 4, error) && _wb_meta_out_shape (call, &k, WB_DTYPE_UNKNOWN, (gint64[]){ B, H, max_k, E }, 4, error) && _wb_meta_out_shape (call, &v, WB_DTYPE_UNKNOWN, (gint64[]){ B, H, max_k, E }, 4, error);
}

/* ltorch.scaled_mm (mat_a [m, k], mat_b [k, n], scales..., output_dtype=bf16, ...): [m, n] of
 * output_dtype (the fp8 GEMM of torch.nn.functional.scaled_mm). */
gboolean
_wb_meta_scaled_mm (WbMetaCall *call, GError **error)
{
  WbType  a, b;
  WbDtype dtype = WB_DTYPE_BFLOAT16;
  int     p = _wb_meta_param_index (call, "output_dtype");
  GError *local = NULL;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &b, error))
    return FALSE;
  if (a.rank != 2 || b.rank != 2 || a.shape[1] != b.shape[0])
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expects matrices [m, k] and [k, n]");
  if (p >= 0 && !_wb_meta_arg_dtype (call, (guint) p, &dtype, NULL, &local) && local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return _wb_meta_out_shape (call, &a, dtype, (gint64[]){ a.shape[0], b.shape[1] }, 2, error);
}
