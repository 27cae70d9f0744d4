/* wb-cuda-codegen-emit.c — the code generator's expressions: literals, conversion ops, emission of a value at an index
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-emit-private.h"
#include "wb-cuda-codegen-private.h"
#include "wb-half.h"

/* Converts @x of dtype @from (a value of its class) to dtype @to as convert_element_type does. */
static const char *
convert (Gen *g, const char *x, WbDtype from, WbDtype to)
{
  Cls cf = _wb_cg_dtype_cls (from), ct = _wb_cg_dtype_cls (to);

  if (to == WB_DTYPE_BOOL8)
    return _wb_cg_gstr (g, "(long long) ((%s) != 0)", x);
  if ((to == WB_DTYPE_BFLOAT16 || to == WB_DTYPE_FLOAT16) && cf != CLS_F)
    x = _wb_cg_gstr (g, "(float) (%s)", x), cf = CLS_F; /* wider sources go through f32 (wb-half.h) */
  return _wb_cg_normalize (g, _wb_cg_cast_cls (g, x, cf, ct), to);
}

const char *
_wb_cg_literal (Gen *g, const Val *v, Cls cls)
{
  if (cls == CLS_I)
    {
      gint64 x = v->is_float ? (isnan (v->f) ? 0 : (gint64) v->f) : v->i;
      if (x == G_MININT64)
        return "WB_I64_MIN";
      return _wb_cg_gstr (g, "%" G_GINT64_FORMAT "LL", x);
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
      return cls == CLS_F ? _wb_cg_gstr (g, "((float) %s)", buf) : _wb_cg_gstr (g, "(%s)", buf);
    }
}

/* The literal of number @v as a value of dtype @dt: what _wb_cg_normalize (_wb_cg_literal (v)) computes, with
 * bf16 and f16 rounded here (NVRTC cannot fold the rounding's inline asm, which ran per element). */
const char *
_wb_cg_literal_of_dtype (Gen *g, const Val *v, WbDtype dt)
{
  Cls cls = _wb_cg_dtype_cls (dt);

  if ((dt == WB_DTYPE_BFLOAT16 || dt == WB_DTYPE_FLOAT16) && cls == CLS_F)
    {
      Val   r = *v;
      float f = v->is_float ? (float) v->f : (float) v->i;
      r.is_float = TRUE;
      r.f = dt == WB_DTYPE_BFLOAT16 ? wb_bf16_to_f32 (wb_f32_to_bf16 (f)) : wb_f16_to_f32 (wb_f32_to_f16 (f));
      return _wb_cg_literal (g, &r, cls);
    }
  return _wb_cg_normalize (g, _wb_cg_literal (g, v, cls), dt);
}

/* -- emission ------------------------------------------------------------------------------- */

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
const char *
_wb_cg_operand_expr (Kern *k, Val *v, const Idx *ix, Cls cls, GError **error)
{
  const char *x;

  if (!v->is_tensor)
    return _wb_cg_literal (k->g, v, cls);
  x = _wb_cg_emit (k, v, ix, error);
  return x ? _wb_cg_cast_cls (k->g, x, _wb_cg_dtype_cls (v->dtype), cls) : NULL;
}

static const char *
emit_load (Kern *k, Val *v, const Idx *ix)
{
  guint       slot = v->input >= 0 ? (guint) v->input : k->g->n_inputs + (guint) v->buffer;
  gint64      st[WB_MAX_RANK];
  gboolean    contiguous = _wb_cg_val_contiguous (v);
  const char *p = _wb_cg_input_ptr (k, slot);
  const char *off;
  guint       bytes = (guint) wb_dtype_size (v->dtype);

  if (k->table_bits != NULL && v->input == (int) k->table_slot)
    return _wb_cg_new_var (k, "float", _wb_cg_gstr (k->g, "%s ((unsigned short) (%s))", v->dtype == WB_DTYPE_BFLOAT16 ? "wb_bf16_to_f" : "wb_f16_to_f", k->table_bits));
  if (k->min_bytes == 0 || bytes < k->min_bytes)
    k->min_bytes = bytes;
  if (v->input >= 0)
    memcpy (st, v->strides, sizeof st);
  else
    _wb_cg_contiguous_strides (v->rank, v->shape, st);
  if (k->vec > 1 && (off = _wb_cg_vec_load (k, v, ix, slot, st, contiguous)) != NULL)
    return off;
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
  return _wb_cg_new_var (k, _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype)), _wb_cg_load_expr (k->g, p, off, v->dtype));
}

Val *
_wb_cg_arg_val (Kern *k, Node *n, guint i, GError **error)
{
  Val *v = _wb_cg_operand (k->g, n->arg[i]);

  if (v == NULL)
    _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "prims.%s: argument %u is not a known value", n->op, i);
  return v;
}

/* The float nearest 1 / @c (a finite nonzero float): of the double quotient rounded to float and its two
 * neighbours, the one with the least |1 - c r| (exact in double: c r has at most 48 significant bits). */
static float
reciprocal_rn (float c)
{
  float  r = (float) (1.0 / (double) c), cand[2] = { nextafterf (r, INFINITY), nextafterf (r, -INFINITY) };
  double err = fabs (1.0 - (double) c * r);

  for (guint i = 0; i < 2; i++)
    if (isfinite (cand[i]) && fabs (1.0 - (double) c * cand[i]) < err)
      r = cand[i], err = fabs (1.0 - (double) c * cand[i]);
  return r;
}

/* Whether, for every value z of @narrow (bf16 or f16: all 65536 bit patterns), z / @c rounded to @narrow
 * (the division correctly rounded to f32 first, as the cpu executor computes it) equals z * @rc rounded to
 * @narrow. Then a division by a number that Thunder prints between two conversions (bf16 -> f32, div, -> bf16:
 * the exact GELU's x / sqrt 2) can be one multiply: wb_div_by costs ten instructions an element, and that
 * kernel is bound by its arithmetic. Checked here, for the one constant, rather than argued: a quotient
 * within an f32 unit of a @narrow rounding boundary would break it (host IEEE f32 arithmetic, no
 * contraction). */
static gboolean
narrow_div_is_mul (WbDtype narrow, float c, float rc)
{
  for (guint32 h = 0; h < 65536; h++)
    {
      volatile float z = narrow == WB_DTYPE_BFLOAT16 ? wb_bf16_to_f32 ((guint16) h) : wb_f16_to_f32 ((guint16) h);
      volatile float q = z / c, m = z * rc;
      if (narrow == WB_DTYPE_BFLOAT16 ? wb_f32_to_bf16 (q) != wb_f32_to_bf16 (m) : wb_f32_to_f16 (q) != wb_f32_to_f16 (m))
        return FALSE;
    }
  return TRUE;
}

/* Whether every value of float dtype @narrow is exactly a value of float dtype @wide. */
static gboolean
exact_widening (WbDtype narrow, WbDtype wide)
{
  if (wide == WB_DTYPE_FLOAT64)
    return narrow == WB_DTYPE_FLOAT32 || narrow == WB_DTYPE_BFLOAT16 || narrow == WB_DTYPE_FLOAT16;
  if (wide == WB_DTYPE_FLOAT32)
    return narrow == WB_DTYPE_BFLOAT16 || narrow == WB_DTYPE_FLOAT16;
  return FALSE;
}

/* Whether every value tensor @a can take is exactly a value of float dtype @narrow: @a is of that dtype (a value
 * of a dtype's class holds one of that dtype: _wb_cg_normalize), an exact widening of such a value, or the
 * negation or absolute value (EwOp.exact) of one. Thunder's bf16 programs negate in f32 between two
 * conversions (rotate_half's backward: bf16 -> f32, neg, -> bf16); the rounding after such a negation changes
 * nothing but a NaN's payload, which the store makes canonical. */
gboolean
_wb_cg_exactly_in (Gen *g, Val *a, WbDtype narrow, guint depth)
{
  const EwOp *op;
  Val        *b;

  if (a == NULL || !a->is_tensor || depth > 8)
    return FALSE;
  if (a->dtype == narrow)
    return TRUE;
  if (a->def == NULL || (b = _wb_cg_operand (g, a->def->arg[0])) == NULL)
    return FALSE;
  if (strcmp (a->def->op, "convert_element_type") == 0)
    return exact_widening (b->dtype, a->dtype) && _wb_cg_exactly_in (g, b, narrow, depth + 1);
  op = _wb_cg_ew_lookup (a->def->op);
  return op != NULL && op->exact && b->dtype == a->dtype && _wb_cg_exactly_in (g, b, narrow, depth + 1);
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
    if ((ops[i] = _wb_cg_arg_val (k, n, i, error)) == NULL)
      return NULL;
  for (guint i = 0; i < op->arity; i++)
    if (ops[i]->is_tensor)
      {
        cls = max_cls (cls, _wb_cg_dtype_cls (ops[i]->dtype));
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
    cls = _wb_cg_dtype_cls (value_dtype);
  tmpl = cls == CLS_F ? op->f : cls == CLS_D ? op->d
                                             : op->i;
  if (tmpl == NULL)
    {
      _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of %s is not supported", op->name, wb_dtype_shortname (value_dtype));
      return NULL;
    }
  /* x ** 2 as x * x: the correctly rounded square (what PyTorch's pow kernels compute for exponent 2) at
   * the cost of one multiply instead of powf */
  if (strcmp (op->name, "pow") == 0 && cls != CLS_I && !ops[1]->is_tensor && (ops[1]->is_float ? ops[1]->f : (double) ops[1]->i) == 2.0)
    tmpl = "($0 * $0)";
  /* x / c for a number c: a multiply by 1/c and one correction (wb_div_by) instead of the division
   * routine, whose range check and slow path cost as much as the rest of an exact-GELU kernel's
   * arithmetic */
  if (strcmp (op->name, "div") == 0 && cls == CLS_F && ops[0]->is_tensor && !ops[1]->is_tensor)
    {
      float c = ops[1]->is_float ? (float) ops[1]->f : (float) ops[1]->i;
      if (isfinite (c) && c != 0.0f)
        tmpl = _wb_cg_gstr (k->g, "wb_div_by ($0, %af, %af)", (double) c, (double) reciprocal_rn (c));
    }
  for (guint i = 0; i < op->arity; i++)
    if ((ex[i] = _wb_cg_operand_expr (k, ops[i], ix, cls, error)) == NULL)
      return NULL;
  r = _wb_cg_ew_expand (k->g, tmpl, ex);
  if (op->res_bool)
    return _wb_cg_new_var (k, "long long", r);
  r = _wb_cg_cast_cls (k->g, r, cls, _wb_cg_dtype_cls (v->dtype));
  /* the negation or absolute value of a bf16 / f16 tensor is one already: no rounding */
  if (op->exact && ops[0]->is_tensor && ops[0]->dtype == v->dtype && cls == CLS_F)
    return _wb_cg_new_var (k, "float", r);
  return _wb_cg_new_var (k, _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype)), _wb_cg_normalize (k->g, r, v->dtype));
}

/* @x (an int64 index value) wrapped for a dim of @size: negative counts from the end; out of range is recorded
 * and clamped (wb_index_bad of the prelude: the runtime fails the call after a checked launch).
 * Sets dim @d of @ax to it; @same: @x is the same in every lane of a vector kernel (then so is the result,
 * emitted once). */
void
_wb_cg_checked_index (Kern *k, const char *x, gint64 size, Idx *ax, guint d, gboolean same)
{
  const char *t = _wb_cg_gstr (k->g, "i%u", k->next_var++);
  const char *key = k->vec && same ? _wb_cg_gstr (k->g, "chk|%s|%" G_GINT64_FORMAT, x, size) : NULL;
  const char *r = key ? _wb_cg_memo_get (k, key) : NULL;

  if (r == NULL)
    {
      _wb_cg_line (k, "long long %s = %s;", t, x);
      _wb_cg_line (k, "if (%s < 0) %s += %" G_GINT64_FORMAT ";", t, t, size);
      _wb_cg_line (k, "if ((unsigned long long) %s >= %" G_GINT64_FORMAT "ULL) %s = wb_index_bad (%s, %" G_GINT64_FORMAT "LL);", t, size, t, t, size);
      r = _wb_cg_new_var (k, k->ity, _wb_cg_gstr (k->g, "(%s) %s", k->ity, t));
      if (key)
        _wb_cg_memo_put (k, key, r);
    }
  ax->e[d] = r;
  ax->lane[d] = same ? LANE_SAME : LANE_ANY;
}

/* In pair mode (wb-cuda-codegen-pair.c), where a cat or pad cannot compute its lanes in words: the caller
 * computes the value lane by lane */
const char *
_wb_cg_refuse_pair (Kern *k)
{
  k->pair_refused = TRUE;
  return NULL;
}

/* convert_element_type: rounded to the output dtype, with the shortcuts where no rounding is needed */
static const char *
emit_convert (Kern *k, Val *v, Node *n, Val *a, const Idx *ix, GError **error)
{
  Gen *g = k->g;

  const char *x;
  /* narrow z -> f32, / c, -> narrow: z * (1 / c) when narrow_div_is_mul says it rounds the same */
  if ((v->dtype == WB_DTYPE_BFLOAT16 || v->dtype == WB_DTYPE_FLOAT16) && a->dtype == WB_DTYPE_FLOAT32 && a->def != NULL &&
      strcmp (a->def->op, "div") == 0)
    {
      Val  *num = _wb_cg_operand (g, a->def->arg[0]), *den = _wb_cg_operand (g, a->def->arg[1]);
      Val  *z = num != NULL && num->is_tensor && num->def != NULL && strcmp (num->def->op, "convert_element_type") == 0
                    ? _wb_cg_operand (g, num->def->arg[0])
                    : NULL;
      float c = den != NULL && !den->is_tensor ? (den->is_float ? (float) den->f : (float) den->i) : 0.0f;
      if (z != NULL && z->is_tensor && z->dtype == v->dtype && num->dtype == WB_DTYPE_FLOAT32 && isfinite (c) && c != 0.0f &&
          narrow_div_is_mul (v->dtype, c, reciprocal_rn (c)))
        {
          if ((x = _wb_cg_emit (k, num, ix, error)) == NULL)
            return NULL;
          return _wb_cg_new_var (k, "float", _wb_cg_normalize (g, _wb_cg_gstr (g, "%s * %af", x, (double) reciprocal_rn (c)), v->dtype));
        }
    }
  if ((x = _wb_cg_emit (k, a, ix, error)) == NULL)
    return NULL;
  if (a->dtype == v->dtype)
    return x;
  /* bf16 -> f32 -> bf16 (Thunder prints such round trips between ops): the value of the first is the
   * answer, no rounding needed. Holds for any float widening, which is exact. */
  if (a->def != NULL && strcmp (a->def->op, "convert_element_type") == 0 && exact_widening (v->dtype, a->dtype))
    {
      Val *b = _wb_cg_arg_val (k, a->def, 0, error);
      if (b == NULL)
        return NULL;
      if (b->is_tensor && b->dtype == v->dtype)
        return _wb_cg_emit (k, b, ix, error);
    }
  /* f32 -> bf16 / f16 of a value that is one already (exactly_in): no rounding */
  if ((v->dtype == WB_DTYPE_BFLOAT16 || v->dtype == WB_DTYPE_FLOAT16) && a->dtype == WB_DTYPE_FLOAT32 && _wb_cg_exactly_in (g, a, v->dtype, 0))
    return x;
  return _wb_cg_new_var (k, _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype)), convert (g, x, a->dtype, v->dtype));
}

static const WbCgEmitRow conversion_rows[] = {
  { WB_SYMBOL_PRIMS_CONVERT_ELEMENT_TYPE, TRUE, emit_convert },
};

const WbCgEmitFamily _wb_cg_emit_conversion = { "conversion", conversion_rows, G_N_ELEMENTS (conversion_rows) };

/* The row of symbol @id in the families of @ops (every family but the elementwise table's: emit_elementwise,
 * by name in the table of -graph.c) */
static const WbCgEmitRow *
find_row (const WbCgEmitOps *ops, WbSymbolId id)
{
  for (guint f = 0; f < ops->n_families; f++)
    for (guint i = 0; i < ops->families[f]->n_rows; i++)
      if (ops->families[f]->rows[i].id == id)
        return &ops->families[f]->rows[i];
  return NULL;
}

const char *
_wb_cg_bad_args (const Node *n, GError **error)
{
  _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: arguments of a form the generator does not handle", n->op);
  return NULL;
}

const char *
_wb_cg_emit_node (Kern *k, Val *v, const Idx *ix, GError **error)
{
  Node              *n = v->def;
  const EwOp        *ew = _wb_cg_ew_lookup (n->op);
  const WbCgEmitRow *row;
  Val               *a = NULL;

  if (ew != NULL)
    return emit_elementwise (k, v, n, ew, ix, error);
  if (n->is_reduction)
    {
      _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "internal: prims.%s read before its kernel", n->op);
      return NULL;
    }
  row = find_row (k->g->emit, n->id);
  if (row == NULL || row->operand)
    {
      if ((a = _wb_cg_arg_val (k, n, 0, error)) == NULL)
        return NULL;
      if (!a->is_tensor)
        {
          _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of a number", n->op);
          return NULL;
        }
    }
  if (row == NULL)
    {
      _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "no generator for prims.%s", n->op);
      return NULL;
    }
  return row->emit (k, v, n, a, ix, error);
}

const char *
_wb_cg_emit (Kern *k, Val *v, const Idx *ix, GError **error)
{
  const char *key, *x;

  if (k->pair)
    return k->g->emit->pair (k, v, ix, error);
  key = _wb_cg_idx_key (k->g, v->id, ix);
  if ((x = _wb_cg_memo_get (k, key)) != NULL)
    return x;
  if (!v->is_tensor)
    x = _wb_cg_literal (k->g, v, number_cls (v));
  else if (k->resident != NULL && (x = g_hash_table_lookup (k->resident, v)) != NULL)
    ; /* a row result read at its own row (the epilogue's rule) */
  else if (v->input >= 0 || v->buffer >= 0)
    x = emit_load (k, v, ix);
  else if (v == k->ptable)
    x = k->g->emit->partial_lookup (k, v, ix, error);
  else
    x = _wb_cg_emit_node (k, v, ix, error);
  if (x != NULL)
    _wb_cg_memo_put (k, key, x);
  return x;
}
