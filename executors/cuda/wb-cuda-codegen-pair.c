/* wb-cuda-codegen-pair.c — bf16 arithmetic two lanes at a time (bf16x2) in the vector variants
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder prints every op of a bf16 program as bf16 -> f32, the op in f32, -> bf16. The scalar path computes
 * just that: per element two conversions in, the f32 op, a rounding, a conversion out. For add, sub and mul
 * of two bf16 values the f32 result rounded to bf16 is the exact result rounded once (double rounding is
 * innocuous when the wider format has at least 2p + 2 bits, p that of the narrower: Figueroa 1995; bf16 has
 * 8, f32 24; also checked on the CPU for all 4,261,478,400 pairs of finite bf16 values, tests/bench/README.md),
 * which is what one fma.rn.bf16x2 computes for two lanes at once (wb-cuda-prelude.cuh: wb_bf16x2_*). A vector
 * kernel whose bf16 output is built from such ops (llama_layer's rotary backward: products of the gradient and
 * cos or sin, negated, padded, summed, concatenated) then keeps lanes j and j + 1 of each value in one 32-bit
 * word: its loads are the words of its vector loads, its ops one instruction for two elements, its store a
 * word of the output vector. The results are bit for bit those of the scalar path (a NaN stored as 0x7FC0,
 * as wb_f_to_bf16 stores it).
 *
 * The pair mode (Kern.pair) is entered by _wb_cg_vec_store_outputs for an output worth it (_wb_cg_pair_worth:
 * one such op at least, reached through conversions that change no value, negations, views, cat and pad). In
 * it _wb_cg_emit answers, for the lane being emitted (even), the word of that lane and the next (through
 * Gen.emit: the emitter does not call this file by name, WbCgEmitOps). What it
 * cannot compute as a word (any other op, a load) it computes lane by lane as floats, as the scalar path
 * does, and packs: a float that holds a bf16 value has its low half 0, so packing is a register move. A view
 * whose operand's index loses its lane form (base + j, or the same in every lane) cannot name the next lane's
 * index there: the view itself is then computed lane by lane (Kern.pair_refused). A word computed here also
 * answers the lanes' float values (its halves), so scalar consumers share it. WB_CUDA_NO_BF16X2=1 (read
 * when a kernel is generated) keeps every lane in f32. */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "executors/wb-half.h"
#include "wb-cuda-codegen-private.h"

#define MAX_DEPTH 64

static gboolean
op_is (const Val *v, const char *op)
{
  return v->def != NULL && strcmp (v->def->op, op) == 0;
}

/* Whether @v is a value whose every element is a bf16 value: a bf16 tensor, or an f32 one that is exactly one */
static gboolean
pair_valid (Gen *g, Val *v)
{
  return v != NULL && v->is_tensor && (v->dtype == WB_DTYPE_BFLOAT16 || (v->dtype == WB_DTYPE_FLOAT32 && _wb_cg_exactly_in (g, v, WB_DTYPE_BFLOAT16, 0)));
}

/* The bf16 bits of number @v as both halves of a word ("0x3f803f80u"), when its f32 value (the literal the
 * scalar path computes with) is exactly a bf16 value; NULL otherwise */
static const char *
number_word (Gen *g, const Val *v)
{
  float   f = v->is_float ? (float) v->f : (float) v->i;
  guint16 h = wb_f32_to_bf16 (f);

  if (f != f || wb_bf16_to_f32 (h) != f)
    return NULL;
  return _wb_cg_gstr (g, "0x%04x%04xu", h, h);
}

/* A packed op: @v = (bf16) (x OP y) with x OP y in f32, OP add, sub or mul, and x and y bf16 values (tensors, or
 * numbers whose f32 value is one); *@name the wb_bf16x2_ function */
static gboolean
packed_op (Gen *g, Val *v, Val **x, Val **y, const char **name)
{
  Val *a;

  if (v->dtype != WB_DTYPE_BFLOAT16 || !op_is (v, "convert_element_type") || (a = _wb_cg_operand (g, v->def->arg[0])) == NULL || !a->is_tensor ||
      a->dtype != WB_DTYPE_FLOAT32 || a->def == NULL || a->def->n_arg < 2)
    return FALSE;
  if (op_is (a, "add"))
    *name = "wb_bf16x2_add";
  else if (op_is (a, "sub"))
    *name = "wb_bf16x2_sub";
  else if (op_is (a, "mul"))
    *name = "wb_bf16x2_mul";
  else
    return FALSE;
  *x = _wb_cg_operand (g, a->def->arg[0]);
  *y = _wb_cg_operand (g, a->def->arg[1]);
  for (guint i = 0; i < 2; i++)
    {
      Val *o = i ? *y : *x;
      if (o == NULL || (o->is_tensor ? !pair_valid (g, o) : number_word (g, o) == NULL))
        return FALSE;
    }
  return (*x)->is_tensor || (*y)->is_tensor;
}

/* A conversion, negation or absolute value of a bf16 value whose result is one: the operand (*@bits the op on
 * the word: NULL, "^ 0x80008000u" or "& 0x7fff7fffu") */
static Val *
exact_op (Gen *g, Val *v, const char **bits)
{
  Val *a;

  if (v->def == NULL || v->def->n_arg < 1 || (a = _wb_cg_operand (g, v->def->arg[0])) == NULL || !pair_valid (g, a) ||
      !(v->dtype == WB_DTYPE_BFLOAT16 || v->dtype == WB_DTYPE_FLOAT32))
    return NULL;
  *bits = NULL;
  if (op_is (v, "convert_element_type"))
    return a;
  if (a->dtype != v->dtype)
    return NULL;
  if (op_is (v, "neg"))
    *bits = "^ 0x80008000u";
  else if (op_is (v, "abs"))
    *bits = "& 0x7fff7fffu";
  else
    return NULL;
  return a;
}

/* Views whose operand's index the generator derives from the value's (emit_node): the operand, else NULL */
static Val *
view_of (Gen *g, Val *v)
{
  static const char *const views[] = { "broadcast_in_dim", "reshape", "view", "squeeze", "transpose", "slice_prim", "shallow_copy", "stride_order", "clone" };
  Val                     *a;

  if (v->def == NULL || v->def->n_arg < 1 || (a = _wb_cg_operand (g, v->def->arg[0])) == NULL || !a->is_tensor || a->dtype != v->dtype)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (op_is (v, views[i]))
      return a;
  return NULL;
}

/* The packed ops @v is computed from through exact ops, views, cat and pad */
static guint
gain (Gen *g, Val *v, GHashTable *seen, guint depth)
{
  Val        *x, *y, *a;
  const char *name, *bits;
  gpointer    got;
  guint       n = 0;

  if (v == NULL || !v->is_tensor || v->def == NULL || v->input >= 0 || v->buffer >= 0 || depth > MAX_DEPTH)
    return 0;
  if (g_hash_table_lookup_extended (seen, v, NULL, &got))
    return GPOINTER_TO_UINT (got);
  if (packed_op (g, v, &x, &y, &name))
    n = 1 + gain (g, x, seen, depth + 1) + gain (g, y, seen, depth + 1);
  else if ((a = exact_op (g, v, &bits)) != NULL || (a = view_of (g, v)) != NULL)
    n = gain (g, a, seen, depth + 1);
  else if (op_is (v, "pad") && v->dtype == WB_DTYPE_BFLOAT16)
    n = gain (g, _wb_cg_operand (g, v->def->arg[0]), seen, depth + 1);
  else if (op_is (v, "cat") && v->dtype == WB_DTYPE_BFLOAT16 && v->def->arg[0] != NULL && wb_value_is_sequence (v->def->arg[0]))
    for (guint i = 0; i < v->def->arg[0]->n_items; i++)
      n += gain (g, _wb_cg_operand (g, v->def->arg[0]->items[i]), seen, depth + 1);
  g_hash_table_insert (seen, v, GUINT_TO_POINTER (n));
  return n;
}

gboolean
_wb_cg_pair_worth (Kern *k, Val *v)
{
  g_autoptr (GHashTable) seen = NULL;

  if (k->g->opt.no_bf16x2 || k->vec < 2 || k->vec % 2 != 0 || v->dtype != WB_DTYPE_BFLOAT16 || k->table_bits != NULL ||
      k->ptable != NULL || k->resident != NULL)
    return FALSE;
  seen = g_hash_table_new (NULL, NULL);
  return gain (k->g, v, seen, 0) > 0;
}

static const char *
pair_key (Gen *g, guint id, const Idx *ix)
{
  return _wb_cg_gstr (g, "w|%s", _wb_cg_idx_key (g, id, ix));
}

/* Whether every dim of @ix is the same in every lane or base + j: another lane's index follows from it */
static gboolean
idx_canonical (const Idx *ix)
{
  for (guint d = 0; d < ix->rank; d++)
    if (ix->lane[d] == LANE_ANY && strcmp (ix->e[d], "0") != 0)
      return FALSE;
  return TRUE;
}

/* Word @w holds lanes @lane and @lane + 1 of @v at @ix (lane @lane's index): the memo answers both, as a word and
 * as each lane's float */
void
_wb_cg_pair_memo (Kern *k, const Val *v, const Idx *ix, guint lane, const char *w)
{
  Idx next;

  _wb_cg_memo_put (k, pair_key (k->g, v->id, ix), w);
  _wb_cg_memo_put (k, _wb_cg_idx_key (k->g, v->id, ix), _wb_cg_gstr (k->g, "wb_bf16x2_lo (%s)", w));
  _wb_cg_idx_in_lane (k, ix, lane + 1, &next);
  _wb_cg_memo_put (k, _wb_cg_idx_key (k->g, v->id, &next), _wb_cg_gstr (k->g, "wb_bf16x2_hi (%s)", w));
}

/* @v at lanes k->lane and k->lane + 1 as the scalar path computes them, packed */
static const char *
by_lanes (Kern *k, Val *v, const Idx *ix, GError **error)
{
  gboolean    pair = k->pair;
  guint       lane = k->lane;
  const char *x0, *x1 = NULL;
  Idx         next;

  k->pair = FALSE;
  x0 = _wb_cg_emit (k, v, ix, error);
  if (x0 != NULL)
    {
      _wb_cg_idx_in_lane (k, ix, lane + 1, &next);
      if (next.lin_lane == LANE_ANY)
        next.lin = NULL;
      k->lane = lane + 1;
      x1 = _wb_cg_emit (k, v, &next, error);
      k->lane = lane;
    }
  k->pair = pair;
  if (x1 == NULL)
    return NULL;
  return _wb_cg_new_var (k, "unsigned int",
                         _wb_cg_gstr (k->g, "wb_bf16x2_pack (%s, %s)", _wb_cg_cast_cls (k->g, x0, _wb_cg_dtype_cls (v->dtype), CLS_F),
                                      _wb_cg_cast_cls (k->g, x1, _wb_cg_dtype_cls (v->dtype), CLS_F)));
}

/* The word of an operand of a packed op: a number's literal, else the operand's word */
static const char *
operand_word (Kern *k, Val *o, const Idx *ix, GError **error)
{
  return o->is_tensor ? _wb_cg_emit_pair (k, o, ix, error) : number_word (k->g, o);
}

const char *
_wb_cg_emit_pair (Kern *k, Val *v, const Idx *ix, GError **error)
{
  Gen        *g = k->g;
  const char *key = pair_key (g, v->id, ix);
  const char *r = _wb_cg_memo_get (k, key);
  const char *name, *bits;
  Val        *x, *y, *a;

  if (r != NULL)
    return r;
  if (!idx_canonical (ix))
    {
      k->pair_refused = TRUE; /* the caller, a view, computes itself lane by lane */
      return NULL;
    }
  if (!v->is_tensor)
    r = number_word (g, v);
  if (!v->is_tensor || !pair_valid (g, v))
    {
      /* callers ask only for bf16 values (checked before pair mode begins): packing another would truncate */
      if (r == NULL)
        _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "internal: a bf16x2 word asked of a value that is not a bf16 value (%s)",
                     v->name ? v->name : "a number");
    }
  else if (v->def == NULL || v->input >= 0 || v->buffer >= 0)
    r = by_lanes (k, v, ix, error);
  else if (packed_op (g, v, &x, &y, &name))
    {
      const char *wx = operand_word (k, x, ix, error), *wy = wx ? operand_word (k, y, ix, error) : NULL;
      if (wy == NULL)
        return NULL;
      r = _wb_cg_new_var (k, "unsigned int", _wb_cg_gstr (g, "%s (%s, %s)", name, wx, wy));
      _wb_cg_pair_memo (k, v, ix, k->lane, r);
      return r;
    }
  else if ((a = exact_op (g, v, &bits)) != NULL)
    {
      const char *w = _wb_cg_emit_pair (k, a, ix, error);
      if (w == NULL || bits == NULL)
        r = w;
      else
        {
          r = _wb_cg_new_var (k, "unsigned int", _wb_cg_gstr (g, "%s %s", w, bits));
          _wb_cg_pair_memo (k, v, ix, k->lane, r);
          return r;
        }
    }
  else if (view_of (g, v) != NULL || op_is (v, "cat") || op_is (v, "pad"))
    {
      /* a view's operand refuses where its index loses its lane form; emit_node's cat and pad call
       * vec_cat or vec_pad (wb-cuda-codegen-emit-index.c), which compute every lane in words, or refuse */
      k->pair_refused = FALSE;
      r = _wb_cg_emit_node (k, v, ix, error);
      if (r == NULL && k->pair_refused)
        {
          k->pair_refused = FALSE;
          r = by_lanes (k, v, ix, error);
        }
    }
  else
    r = by_lanes (k, v, ix, error);
  if (r != NULL)
    _wb_cg_memo_put (k, key, r);
  return r;
}

/* The word of padding value @padv in a bf16 tensor, when the value is one exactly; else NULL */
const char *
_wb_cg_pair_literal (Gen *g, const Val *padv)
{
  return number_word (g, padv);
}
