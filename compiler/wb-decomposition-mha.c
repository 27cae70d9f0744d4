/* wb-decomposition-mha.c — ltorch.multi_head_attention_forward: its meta function and its decomposition
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * torch.nn.functional.multi_head_attention_forward (PyTorch 2.11), which Thunder registers automatically
 * and prints without subsymbols. Inputs are sequence-first, [L, N, E] (or unbatched [L, E]): nn.MultiheadAttention
 * with batch_first transposes before the call. The decomposition, in prims:
 *   in-projection   one linear of in_proj_weight when query, key and value are the same proxy (then three
 *                   slices of its [L, N, 3E] result), else three linears of its row slices, or of
 *                   q/k/v_proj_weight with use_separate_proj_weight; in_proj_bias sliced alike;
 *   bias_k, bias_v  broadcast to [1, N, E] and concatenated after the keys and values (one more key);
 *   heads           [L, N, E] -> [L, N, H, hd] -> [N, H, L, hd] (reshape, transpose);
 *   add_zero_attn   one more key and value of zeros (pad);
 *   scores          (q * sqrt(1 / hd)) @ k^T, [N, H, L, S]; attn_mask ([L, S] or [N*H, L, S]) and
 *                   key_padding_mask ([N, S], [S] unbatched), both padded with "not masked" for the keys
 *                   added above: a bool mask fills -inf where True, a float mask is added;
 *   softmax         over the keys (amax, sub, exp, sum, div); bf16/f16 scale q and compute the scores'
 *                   masks and softmax in f32 (prims' elementwise ops take no 16-bit floats), rounding
 *                   q * scale and the probabilities back before the matmuls, as PyTorch rounds them;
 *   output          P @ v, [N, H, L, hd] -> [L, N, E] -> linear(out_proj_weight, out_proj_bias);
 *   weights         with need_weights: P averaged over the heads (average_attn_weights) or per head.
 * Not implemented (WB_SYMBOL_ERROR_UNSUPPORTED, naming the argument): static_k, static_v, and dropout_p > 0
 * with training (random). is_causal is PyTorch's hint that attn_mask is causal: attn_mask is applied as
 * given (PyTorch requires it with is_causal). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-decomposition-private.h"

enum
{
  P_QUERY,
  P_KEY,
  P_VALUE,
  P_EMBED_DIM,
  P_NUM_HEADS,
  P_IN_PROJ_WEIGHT,
  P_IN_PROJ_BIAS,
  P_BIAS_K,
  P_BIAS_V,
  P_ADD_ZERO_ATTN,
  P_DROPOUT_P,
  P_OUT_PROJ_WEIGHT,
  P_OUT_PROJ_BIAS,
  P_TRAINING,
  P_KEY_PADDING_MASK,
  P_NEED_WEIGHTS,
  P_ATTN_MASK,
  P_USE_SEPARATE,
  P_Q_PROJ_WEIGHT,
  P_K_PROJ_WEIGHT,
  P_V_PROJ_WEIGHT,
  P_STATIC_K,
  P_STATIC_V,
  P_AVERAGE,
  P_IS_CAUSAL,
};

/* The call's arguments, checked as PyTorch checks them. */
typedef struct
{
  WbType   q, k, v, wo;
  gboolean batched;
  gint64   L, N, E, H, hd, Sk; /* Sk: keys before bias_k and add_zero_attn */
  gint64   S;                  /* keys attended to */
  gint64   Eout;
  gboolean separate, bias_kv, zero_attn, need_weights, average, training, is_causal;
  double   dropout_p;
} Mha;

static gboolean
fail_shape (WbMetaCall *call, GError **error, const char *what, const WbType *t)
{
  g_autofree char *s = wb_type_to_string (t);
  return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%s: unexpected shape %s", what, s);
}

/* @t is [r0, r1] (r1 < 0: any) */
static gboolean
is_matrix (const WbType *t, gint64 r0, gint64 r1)
{
  return t->rank == 2 && t->shape[0] == r0 && (r1 < 0 || t->shape[1] == r1);
}

static gboolean
check_projections (WbMetaCall *call, Mha *m, GError **error)
{
  WbType w, b;

  if (_wb_meta_arg_present (call, P_IN_PROJ_BIAS))
    {
      if (!_wb_meta_arg_tensor (call, P_IN_PROJ_BIAS, &b, error))
        return FALSE;
      if (b.rank != 1 || b.shape[0] != 3 * m->E)
        return fail_shape (call, error, "in_proj_bias", &b);
    }
  if (!m->separate)
    {
      if (!_wb_meta_arg_tensor (call, P_IN_PROJ_WEIGHT, &w, error))
        return FALSE;
      if (!is_matrix (&w, 3 * m->E, m->E) || m->k.shape[m->k.rank - 1] != m->E || !wb_type_equal (&m->k, &m->v))
        return fail_shape (call, error, "in_proj_weight (key and value must be like the query)", &w);
      return TRUE;
    }
  for (guint i = 0; i < 3; i++)
    {
      const WbType *in = i == 0 ? &m->q : i == 1 ? &m->k
                                                 : &m->v;
      if (!_wb_meta_arg_tensor (call, P_Q_PROJ_WEIGHT + i, &w, error))
        return FALSE;
      if (!is_matrix (&w, m->E, in->shape[in->rank - 1]))
        return fail_shape (call, error, i == 0 ? "q_proj_weight" : i == 1 ? "k_proj_weight"
                                                                          : "v_proj_weight",
                           &w);
    }
  return TRUE;
}

static gboolean
check_masks (WbMetaCall *call, Mha *m, GError **error)
{
  WbType t;

  if (_wb_meta_arg_present (call, P_ATTN_MASK))
    {
      if (!_wb_meta_arg_tensor (call, P_ATTN_MASK, &t, error))
        return FALSE;
      if (!((t.rank == 2 && t.shape[0] == m->L && t.shape[1] == m->Sk) ||
            (t.rank == 3 && t.shape[0] == m->N * m->H && t.shape[1] == m->L && t.shape[2] == m->Sk)) ||
          (t.dtype != WB_DTYPE_BOOL8 && !wb_dtype_is_float (t.dtype)))
        return fail_shape (call, error, "attn_mask ([L, S] or [N * num_heads, L, S], bool or float)", &t);
    }
  else if (m->is_causal)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "is_causal needs attn_mask (PyTorch raises)");
  if (_wb_meta_arg_present (call, P_KEY_PADDING_MASK))
    {
      if (!_wb_meta_arg_tensor (call, P_KEY_PADDING_MASK, &t, error))
        return FALSE;
      if (!(m->batched ? t.rank == 2 && t.shape[0] == m->N && t.shape[1] == m->Sk : t.rank == 1 && t.shape[0] == m->Sk) ||
          (t.dtype != WB_DTYPE_BOOL8 && !wb_dtype_is_float (t.dtype)))
        return fail_shape (call, error, "key_padding_mask ([N, S], [S] unbatched, bool or float)", &t);
    }
  return TRUE;
}

static gboolean
read_flags (WbMetaCall *call, Mha *m, GError **error)
{
  gint64 e;

  if (!_wb_meta_arg_int (call, P_EMBED_DIM, &e, error) || !_wb_meta_arg_int (call, P_NUM_HEADS, &m->H, error))
    return FALSE;
  if (e != m->E)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "embed_dim_to_check is %" G_GINT64_FORMAT " but the query's is %" G_GINT64_FORMAT, e, m->E);
  if (m->H <= 0 || m->E % m->H != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "embed_dim %" G_GINT64_FORMAT " is not divisible by num_heads %" G_GINT64_FORMAT, m->E, m->H);
  m->hd = m->E / m->H;
  if (!_wb_meta_arg_bool (call, P_ADD_ZERO_ATTN, FALSE, &m->zero_attn, error) || !_wb_meta_arg_bool (call, P_TRAINING, TRUE, &m->training, error) ||
      !_wb_meta_arg_bool (call, P_NEED_WEIGHTS, TRUE, &m->need_weights, error) || !_wb_meta_arg_bool (call, P_USE_SEPARATE, FALSE, &m->separate, error) ||
      !_wb_meta_arg_bool (call, P_AVERAGE, TRUE, &m->average, error) || !_wb_meta_arg_bool (call, P_IS_CAUSAL, FALSE, &m->is_causal, error))
    return FALSE;
  m->dropout_p = 0;
  if (_wb_meta_arg_present (call, P_DROPOUT_P) && !_wb_meta_arg_number (call, P_DROPOUT_P, &m->dropout_p))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a number for 'dropout_p'");
  return TRUE;
}

/* Reads and checks every argument; the types the call's outputs have follow. */
static gboolean
mha_read (WbMetaCall *call, Mha *m, GError **error)
{
  WbType bk, bv;

  memset (m, 0, sizeof *m);
  if (!_wb_meta_arg_tensor (call, P_QUERY, &m->q, error) || !_wb_meta_arg_tensor (call, P_KEY, &m->k, error) ||
      !_wb_meta_arg_tensor (call, P_VALUE, &m->v, error) || !_wb_meta_arg_tensor (call, P_OUT_PROJ_WEIGHT, &m->wo, error))
    return FALSE;
  m->batched = m->q.rank == 3;
  if ((m->q.rank != 3 && m->q.rank != 2) || m->k.rank != m->q.rank || m->v.rank != m->q.rank ||
      (m->batched && (m->k.shape[1] != m->q.shape[1] || m->v.shape[1] != m->q.shape[1])) || m->k.shape[0] != m->v.shape[0])
    return fail_shape (call, error, "query, key and value ([L, N, E] and [S, N, E], or unbatched [L, E] and [S, E])", &m->q);
  m->L = m->q.shape[0];
  m->N = m->batched ? m->q.shape[1] : 1;
  m->E = m->q.shape[m->q.rank - 1];
  m->Sk = m->k.shape[0];
  if (!read_flags (call, m, error) || !check_projections (call, m, error))
    return FALSE;
  if (m->wo.rank != 2 || m->wo.shape[1] != m->E)
    return fail_shape (call, error, "out_proj_weight", &m->wo);
  m->Eout = m->wo.shape[0];
  m->bias_kv = _wb_meta_arg_present (call, P_BIAS_K);
  if (m->bias_kv != _wb_meta_arg_present (call, P_BIAS_V))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "bias_k and bias_v are given together or not at all");
  if (m->bias_kv)
    {
      if (!_wb_meta_arg_tensor (call, P_BIAS_K, &bk, error) || !_wb_meta_arg_tensor (call, P_BIAS_V, &bv, error))
        return FALSE;
      if (bk.rank != 3 || bk.shape[0] != 1 || bk.shape[1] != 1 || bk.shape[2] != m->E || !wb_type_equal (&bk, &bv))
        return fail_shape (call, error, "bias_k and bias_v ([1, 1, E])", &bk);
    }
  if (!check_masks (call, m, error))
    return FALSE;
  m->S = m->Sk + (m->bias_kv ? 1 : 0) + (m->zero_attn ? 1 : 0);
  if (_wb_meta_arg_present (call, P_STATIC_K))
    {
      WbType sk;
      if (!_wb_meta_arg_tensor (call, P_STATIC_K, &sk, error))
        return FALSE;
      if (sk.rank != 3 || sk.shape[0] != m->N * m->H || sk.shape[2] != m->hd)
        return fail_shape (call, error, "static_k ([N * num_heads, S, head_dim])", &sk);
      m->S = sk.shape[1] + (m->zero_attn ? 1 : 0);
    }
  return TRUE;
}

/* (attn_output [L, N, E_out] or [L, E_out], weights [N, L, S] averaged or [N, H, L, S], without N unbatched,
 * or None without need_weights) */
gboolean
_wb_meta_mha (WbMetaCall *call, GError **error)
{
  Mha    m;
  WbType none;

  if (!mha_read (call, &m, error))
    return FALSE;
  if (m.batched ? !_wb_meta_out_shape (call, &m.q, WB_DTYPE_UNKNOWN, (gint64[]){ m.L, m.N, m.Eout }, 3, error)
                : !_wb_meta_out_shape (call, &m.q, WB_DTYPE_UNKNOWN, (gint64[]){ m.L, m.Eout }, 2, error))
    return FALSE;
  if (m.need_weights)
    {
      gint64 shape[4] = { m.N, m.H, m.L, m.S }, out[4];
      guint  n = 0;

      /* N only when batched, H only per head */
      for (guint i = 0; i < 4; i++)
        if (!((i == 0 && !m.batched) || (i == 1 && m.average)))
          out[n++] = shape[i];
      return _wb_meta_out_shape (call, &m.q, WB_DTYPE_UNKNOWN, out, n, error);
    }
  memset (&none, 0, sizeof none);
  none.kind = WB_TYPE_OTHER;
  none.text = "None";
  _wb_meta_out (call, &none);
  return TRUE;
}

/* -- the decomposition ---------------------------------------------------------------------------- */

typedef struct
{
  WbDecomposer *d;
  const Mha    *m;
  WbMetaCall   *call;
} Gen;

static const char *
arg_or_none (WbMetaCall *call, guint i)
{
  const char *name = _wb_decomp_arg_name (call, i);
  return name != NULL ? name : "None";
}

/* the dtype of the scores and probabilities: prims' elementwise ops take no 16-bit floats, which (as
 * PyTorch's softmax does inside) compute in f32 */
static WbDtype
compute_dtype (const Mha *m)
{
  return m->q.dtype == WB_DTYPE_BFLOAT16 || m->q.dtype == WB_DTYPE_FLOAT16 ? WB_DTYPE_FLOAT32 : m->q.dtype;
}

/* rows [@from, @to) of the [3E, ...] @w (a matrix or a vector) */
static const char *
rows (Gen *g, const char *w, gboolean matrix, gint64 from, gint64 to)
{
  if (w == NULL)
    return "None";
  if (matrix)
    return _wb_decomp_emit (g->d, "prims.slice_prim(%s, [%" G_GINT64_FORMAT ", 0], [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "], [1, 1])", w, from, to, g->m->E);
  return _wb_decomp_emit (g->d, "prims.slice_prim(%s, [%" G_GINT64_FORMAT "], [%" G_GINT64_FORMAT "], [1])", w, from, to);
}

/* q, k, v: [L, N, E] and [Sk, N, E] from the (batched) inputs @in */
static void
in_projection (Gen *g, const char *const in[3], const char *out[3])
{
  const Mha  *m = g->m;
  const char *w = _wb_decomp_arg_name (g->call, P_IN_PROJ_WEIGHT);
  const char *b = _wb_decomp_arg_name (g->call, P_IN_PROJ_BIAS);
  gint64      E = m->E;

  if (!m->separate && strcmp (in[0], in[1]) == 0 && strcmp (in[1], in[2]) == 0)
    {
      /* self-attention: one linear, then its three thirds */
      const char *qkv = _wb_decomp_emit (g->d, "prims.linear(%s, %s, %s)", in[0], w, b ? b : "None");
      for (guint i = 0; i < 3; i++)
        out[i] = _wb_decomp_emit (g->d, "prims.slice_prim(%s, [0, 0, %" G_GINT64_FORMAT "], [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "], [1, 1, 1])",
                                  qkv, i * E, i == 0 ? m->L : m->Sk, m->N, (i + 1) * E);
      return;
    }
  for (guint i = 0; i < 3; i++)
    {
      const char *wi = m->separate ? _wb_decomp_arg_name (g->call, P_Q_PROJ_WEIGHT + i) : rows (g, w, TRUE, i * E, (i + 1) * E);
      const char *bi = rows (g, b, FALSE, i * E, (i + 1) * E);
      out[i] = _wb_decomp_emit (g->d, "prims.linear(%s, %s, %s)", in[i], wi, bi);
    }
}

/* [T, N, E] -> [N, H, T, hd] */
static const char *
split_heads (Gen *g, const char *x, gint64 T)
{
  const Mha  *m = g->m;
  const char *r = _wb_decomp_emit (g->d, "prims.reshape(%s, %s)", x, _wb_decomp_ints (g->d, (gint64[]){ T, m->N, m->H, m->hd }, 4));
  return _wb_decomp_emit (g->d, "prims.transpose(%s, (1, 2, 0, 3))", r);
}

/* the padding spec of prims.pad that adds @after entries at the end of the last of @rank dims */
static const char *
pad_last (Gen *g, guint rank, gint64 after)
{
  g_autoptr (GString) s = g_string_new ("[");

  for (guint i = 0; i < rank; i++)
    g_string_append_printf (s, "%s(0, %" G_GINT64_FORMAT ", 0)", i ? ", " : "", i + 1 == rank ? after : 0);
  g_string_append_c (s, ']');
  return _wb_decomp_strdup (g->d, s->str);
}

/* @mask ([N, H, L, S] after @pad extra keys and the broadcast or reshape to that shape) applied to the
 * scores @s: -inf where a bool mask is True, added when it is a float mask */
static const char *
apply_mask (Gen *g, const char *s, guint param, gint64 extra)
{
  const Mha  *m = g->m;
  const char *mask = _wb_decomp_arg_name (g->call, param);
  const char *full = _wb_decomp_ints (g->d, (gint64[]){ m->N, m->H, m->L, m->S }, 4);
  WbType      t;

  if (!_wb_meta_arg_tensor (g->call, param, &t, NULL))
    return s;
  if (param == P_KEY_PADDING_MASK && !m->batched)
    mask = _wb_decomp_emit (g->d, "prims.reshape(%s, [1, %" G_GINT64_FORMAT "])", mask, m->Sk), t.rank = 2;
  if (extra > 0)
    mask = _wb_decomp_emit (g->d, "prims.pad(%s, %s, %s)", mask, t.dtype == WB_DTYPE_BOOL8 ? "False" : "0.0", pad_last (g, t.rank, extra));
  if (param == P_KEY_PADDING_MASK)
    mask = _wb_decomp_emit (g->d, "prims.broadcast_in_dim(%s, %s, [0, 3])", mask, full);
  else if (t.rank == 2)
    mask = _wb_decomp_emit (g->d, "prims.broadcast_in_dim(%s, %s, [2, 3])", mask, full);
  else
    mask = _wb_decomp_emit (g->d, "prims.reshape(%s, %s)", mask, full);
  if (t.dtype == WB_DTYPE_BOOL8)
    return _wb_decomp_emit (g->d, "prims.where(%s, -float('inf'), %s)", mask, s);
  if (t.dtype != compute_dtype (m))
    mask = _wb_decomp_emit (g->d, "prims.convert_element_type(%s, dtypes.%s)", mask, wb_dtype_thunder_name (compute_dtype (m)));
  return _wb_decomp_emit (g->d, "prims.add(%s, %s)", s, mask);
}

/* softmax over the last dim of the [N, H, L, S] scores (f32 for 16-bit inputs) */
static const char *
softmax (Gen *g, const char *s)
{
  const Mha  *m = g->m;
  const char *full = _wb_decomp_ints (g->d, (gint64[]){ m->N, m->H, m->L, m->S }, 4);
  const char *mx, *e, *z;

  mx = _wb_decomp_emit (g->d, "prims.amax(%s, (3,))", s);
  mx = _wb_decomp_emit (g->d, "prims.broadcast_in_dim(%s, %s, [0, 1, 2])", mx, full);
  e = _wb_decomp_emit (g->d, "prims.exp(%s)", _wb_decomp_emit (g->d, "prims.sub(%s, %s)", s, mx));
  z = _wb_decomp_emit (g->d, "prims.sum(%s, (3,))", e);
  z = _wb_decomp_emit (g->d, "prims.broadcast_in_dim(%s, %s, [0, 1, 2])", z, full);
  return _wb_decomp_emit (g->d, "prims.div(%s, %s)", e, z);
}

/* the weights output @name from the probabilities @p ([N, H, L, S], f32 for 16-bit inputs) */
static void
weights (Gen *g, const char *p, const char *name)
{
  const Mha  *m = g->m;
  gboolean    half = m->q.dtype == WB_DTYPE_BFLOAT16 || m->q.dtype == WB_DTYPE_FLOAT16;
  gint64      shape[3] = { m->N, m->L, m->S };
  const char *w = p;

  if (m->average)
    {
      g_autofree char *h = g_strdup_printf ("%" G_GINT64_FORMAT ".0", m->H);
      w = _wb_decomp_emit (g->d, "prims.div(%s, %s)", _wb_decomp_emit (g->d, "prims.sum(%s, (1,))", w), h);
    }
  if (half)
    w = _wb_decomp_emit (g->d, "prims.convert_element_type(%s, dtypes.%s)", w, wb_dtype_thunder_name (m->q.dtype));
  if (!m->batched)
    {
      /* [1, (H,) L, S] -> [(H,) L, S] */
      const char *dims = m->average ? _wb_decomp_ints (g->d, shape + 1, 2) : _wb_decomp_ints (g->d, (gint64[]){ m->H, m->L, m->S }, 3);
      _wb_decomp_emit_as (g->d, name, "prims.reshape(%s, %s)", w, dims);
    }
  else
    _wb_decomp_emit_as (g->d, name, "prims.shallow_copy(%s)", w);
}

/* The inputs as [T, N, E]: unbatched ones get N = 1 */
static void
batched_inputs (Gen *g, const char *in[3])
{
  const Mha *m = g->m;

  for (guint i = 0; i < 3; i++)
    {
      in[i] = _wb_decomp_arg_name (g->call, P_QUERY + i);
      if (!m->batched)
        {
          const WbType *t = i == 0 ? &m->q : i == 1 ? &m->k
                                                    : &m->v;
          /* the same proxy stays one name, so that self-attention keeps its one linear */
          if (i > 0 && strcmp (_wb_decomp_arg_name (g->call, P_QUERY + i), _wb_decomp_arg_name (g->call, P_QUERY + i - 1)) == 0)
            in[i] = in[i - 1];
          else
            in[i] = _wb_decomp_emit (g->d, "prims.reshape(%s, [%" G_GINT64_FORMAT ", 1, %" G_GINT64_FORMAT "])", in[i], t->shape[0], t->shape[1]);
        }
    }
}

static gboolean
check_supported (WbMetaCall *call, const Mha *m, GError **error)
{
  static const char *const needs_name[] = { "query", "key", "value", "out_proj_weight" };
  static const guint       needs_param[] = { P_QUERY, P_KEY, P_VALUE, P_OUT_PROJ_WEIGHT };

  if (_wb_meta_arg_present (call, P_STATIC_K) || _wb_meta_arg_present (call, P_STATIC_V))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNSUPPORTED, call, "%s is not supported by the workbench's decomposition",
                          _wb_meta_arg_present (call, P_STATIC_K) ? "static_k" : "static_v");
  if (m->training && m->dropout_p > 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNSUPPORTED, call,
                          "dropout_p=%g with training=True is not supported by the workbench's decomposition (random)", m->dropout_p);
  for (guint i = 0; i < G_N_ELEMENTS (needs_param); i++)
    if (_wb_decomp_arg_name (call, needs_param[i]) == NULL)
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "%s is not a proxy", needs_name[i]);
  return TRUE;
}

gboolean
_wb_decompose_mha (WbMetaCall *call, WbDecomposer *d, GError **error)
{
  Mha         m;
  Gen         g = { d, &m, call };
  const char *in[3], *qkv[3], *q, *k, *v, *s, *p, *o;
  const char *out0 = _wb_decomp_output (d, 0), *out1 = _wb_decomp_output (d, 1);
  gint64      extra;
  gboolean    half;
  char        scale[G_ASCII_DTOSTR_BUF_SIZE + 2];

  if (!mha_read (call, &m, error) || !check_supported (call, &m, error))
    return FALSE;
  half = compute_dtype (&m) != m.q.dtype;
  batched_inputs (&g, in);
  in_projection (&g, in, qkv);
  k = qkv[1], v = qkv[2];
  if (m.bias_kv)
    {
      const char *shape = _wb_decomp_ints (d, (gint64[]){ 1, m.N, m.E }, 3);
      k = _wb_decomp_emit (d, "prims.cat([%s, %s], 0)", k, _wb_decomp_emit (d, "prims.broadcast_in_dim(%s, %s, [0, 1, 2])", _wb_decomp_arg_name (call, P_BIAS_K), shape));
      v = _wb_decomp_emit (d, "prims.cat([%s, %s], 0)", v, _wb_decomp_emit (d, "prims.broadcast_in_dim(%s, %s, [0, 1, 2])", _wb_decomp_arg_name (call, P_BIAS_V), shape));
    }
  q = split_heads (&g, qkv[0], m.L);
  k = split_heads (&g, k, m.Sk + (m.bias_kv ? 1 : 0));
  v = split_heads (&g, v, m.Sk + (m.bias_kv ? 1 : 0));
  if (m.zero_attn)
    {
      k = _wb_decomp_emit (d, "prims.pad(%s, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 0), (0, 0, 0)])", k);
      v = _wb_decomp_emit (d, "prims.pad(%s, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 0), (0, 0, 0)])", v);
    }
  /* PyTorch's q * math.sqrt(1.0 / float(head_dim)), printed so that it reads back as the same double */
  g_ascii_dtostr (scale, G_ASCII_DTOSTR_BUF_SIZE, sqrt (1.0 / (double) m.hd));
  if (strpbrk (scale, ".eEn") == NULL)
    strcat (scale, ".0");
  if (half)
    q = _wb_decomp_emit (d, "prims.convert_element_type(%s, dtypes.float32)", q);
  q = _wb_decomp_emit (d, "prims.mul(%s, %s)", q, scale);
  if (half)
    q = _wb_decomp_emit (d, "prims.convert_element_type(%s, dtypes.%s)", q, wb_dtype_thunder_name (m.q.dtype));
  s = _wb_decomp_emit (d, "prims.matmul(%s, %s)", q, _wb_decomp_emit (d, "prims.transpose(%s, (0, 1, 3, 2))", k));
  if (half)
    s = _wb_decomp_emit (d, "prims.convert_element_type(%s, dtypes.float32)", s);
  extra = (m.bias_kv ? 1 : 0) + (m.zero_attn ? 1 : 0);
  s = apply_mask (&g, s, P_ATTN_MASK, extra);
  s = apply_mask (&g, s, P_KEY_PADDING_MASK, extra);
  p = softmax (&g, s);
  if (m.need_weights && out1 != NULL)
    weights (&g, p, out1);
  if (half)
    p = _wb_decomp_emit (d, "prims.convert_element_type(%s, dtypes.%s)", p, wb_dtype_thunder_name (m.q.dtype));
  o = _wb_decomp_emit (d, "prims.matmul(%s, %s)", p, v);
  o = _wb_decomp_emit (d, "prims.transpose(%s, (2, 0, 1, 3))", o);
  o = _wb_decomp_emit (d, "prims.reshape(%s, %s)", o, _wb_decomp_ints (d, (gint64[]){ m.L * m.N, m.E }, 2));
  o = _wb_decomp_emit (d, "prims.linear(%s, %s, %s)", o, _wb_decomp_arg_name (call, P_OUT_PROJ_WEIGHT), arg_or_none (call, P_OUT_PROJ_BIAS));
  if (m.batched)
    _wb_decomp_emit_as (d, out0, "prims.reshape(%s, %s)", o, _wb_decomp_ints (d, (gint64[]){ m.L, m.N, m.Eout }, 3));
  else
    _wb_decomp_emit_as (d, out0, "prims.reshape(%s, %s)", o, _wb_decomp_ints (d, (gint64[]){ m.L, m.Eout }, 2));
  return TRUE;
}
