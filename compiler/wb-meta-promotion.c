/* wb-meta-promotion.c — Thunder's elementwise type promotion: the exact and inexact lattices with weak
 * dtypes and Python numbers, and the promotion kinds (DEFAULT, INT_TO_FLOAT, ALWAYS_BOOL, ...)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Source: thunder/core/utils.py (_elementwise_exact_promotion_table, _elementwise_inexact_promotion_table,
 * elementwise_type_promotion). A tensor's "true dtype" is weak when it was made with a weak dtype or is 0-d
 * (thunder/core/proxies.py); Python numbers rank below weak dtypes. */
#include "config.h"

#include "wb-meta-private.h"

/* Thunder's promotion lattices (thunder/core/utils.py): exact and inexact tables, indexed by lattice
 * element. Strength 0 = Python number, 1 = weak dtype, 2 = strong dtype. */
typedef struct
{
  WbDtype dtype;
  guint8  strength;
} LatticeElem;

static const LatticeElem exact_elems[14] = {
  { WB_DTYPE_BOOL8, 0 },
  { WB_DTYPE_BOOL8, 1 },
  { WB_DTYPE_BOOL8, 2 },
  { WB_DTYPE_INT64, 0 },
  { WB_DTYPE_UINT8, 1 },
  { WB_DTYPE_UINT8, 2 },
  { WB_DTYPE_INT8, 1 },
  { WB_DTYPE_INT16, 1 },
  { WB_DTYPE_INT32, 1 },
  { WB_DTYPE_INT64, 1 },
  { WB_DTYPE_INT8, 2 },
  { WB_DTYPE_INT16, 2 },
  { WB_DTYPE_INT32, 2 },
  { WB_DTYPE_INT64, 2 },
};

static const guint8 exact_table[14][14] = {
  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 },           /* b */
  { 1, 1, 2, 6, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 },           /* b8_ */
  { 2, 2, 2, 6, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 },           /* b8 */
  { 3, 6, 6, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 },           /* i */
  { 4, 4, 4, 4, 4, 5, 11, 11, 11, 11, 11, 11, 12, 13 },       /* u8_ */
  { 5, 5, 5, 5, 5, 5, 11, 11, 11, 11, 11, 11, 12, 13 },       /* u8 */
  { 6, 6, 6, 6, 11, 11, 6, 7, 8, 9, 10, 11, 12, 13 },         /* i8_ */
  { 7, 7, 7, 7, 11, 11, 7, 7, 8, 9, 10, 11, 12, 13 },         /* i16_ */
  { 8, 8, 8, 8, 11, 11, 8, 8, 8, 9, 10, 11, 12, 13 },         /* i32_ */
  { 9, 9, 9, 9, 11, 11, 9, 9, 9, 9, 10, 11, 12, 13 },         /* i64_ */
  { 10, 10, 10, 10, 11, 11, 10, 10, 10, 10, 10, 11, 12, 13 }, /* i8 */
  { 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 13 }, /* i16 */
  { 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13 }, /* i32 */
  { 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13 }, /* i64 */
};

static const LatticeElem inexact_elems[16] = {
  { WB_DTYPE_FLOAT32, 0 },
  { WB_DTYPE_BFLOAT16, 1 },
  { WB_DTYPE_FLOAT16, 1 },
  { WB_DTYPE_FLOAT32, 1 },
  { WB_DTYPE_FLOAT64, 1 },
  { WB_DTYPE_BFLOAT16, 2 },
  { WB_DTYPE_FLOAT16, 2 },
  { WB_DTYPE_FLOAT32, 2 },
  { WB_DTYPE_FLOAT64, 2 },
  { WB_DTYPE_COMPLEX64, 0 },
  { WB_DTYPE_COMPLEX32, 1 },
  { WB_DTYPE_COMPLEX64, 1 },
  { WB_DTYPE_COMPLEX128, 1 },
  { WB_DTYPE_COMPLEX32, 2 },
  { WB_DTYPE_COMPLEX64, 2 },
  { WB_DTYPE_COMPLEX128, 2 },
};

static const guint8 inexact_table[16][16] = {
  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },           /* f */
  { 1, 1, 3, 3, 4, 5, 6, 7, 8, 11, 10, 11, 12, 13, 14, 15 },          /* bf_ */
  { 2, 3, 2, 3, 4, 5, 6, 7, 8, 10, 10, 11, 12, 13, 14, 15 },          /* f16_ */
  { 3, 3, 3, 3, 4, 5, 6, 7, 8, 11, 10, 11, 12, 13, 14, 15 },          /* f32_ */
  { 4, 4, 4, 4, 4, 5, 6, 7, 8, 12, 10, 11, 12, 13, 14, 15 },          /* f64_ */
  { 5, 5, 5, 5, 5, 5, 7, 7, 8, 14, 14, 14, 14, 14, 14, 15 },          /* bf */
  { 6, 6, 6, 6, 6, 7, 6, 7, 8, 13, 13, 13, 13, 13, 14, 15 },          /* f16 */
  { 7, 7, 7, 7, 7, 7, 7, 7, 8, 14, 14, 14, 14, 14, 14, 15 },          /* f32 */
  { 8, 8, 8, 8, 8, 8, 8, 8, 8, 15, 15, 15, 15, 15, 15, 15 },          /* f64 */
  { 9, 11, 10, 11, 12, 14, 13, 14, 15, 9, 10, 11, 12, 13, 14, 15 },   /* complex */
  { 10, 11, 10, 11, 12, 14, 13, 14, 15, 10, 10, 11, 12, 13, 14, 15 }, /* c32_ */
  { 11, 11, 11, 11, 12, 14, 13, 14, 15, 11, 11, 11, 12, 13, 14, 15 }, /* c64_ */
  { 12, 12, 12, 12, 12, 14, 13, 14, 15, 12, 12, 12, 12, 13, 14, 15 }, /* c128_ */
  { 13, 13, 13, 13, 13, 14, 13, 14, 15, 13, 13, 13, 13, 13, 14, 15 }, /* c32 */
  { 14, 14, 14, 14, 14, 14, 14, 14, 15, 14, 14, 14, 14, 14, 14, 15 }, /* c64 */
  { 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15 }, /* c128 */
};

static int
lattice_index (const LatticeElem *elems, guint n, LatticeElem e)
{
  for (guint i = 0; i < n; i++)
    if (elems[i].dtype == e.dtype && elems[i].strength == e.strength)
      return (int) i;
  return -1;
}

static gboolean
is_inexact (WbDtype d)
{
  WbDtypeKind k = wb_dtype_kind (d);
  return k == WB_DTYPE_KIND_FLOAT || k == WB_DTYPE_KIND_COMPLEX;
}

static LatticeElem
promote2 (LatticeElem a, LatticeElem b)
{
  gboolean ia = is_inexact (a.dtype), ib = is_inexact (b.dtype);
  int      x, y;

  if (ia && !ib)
    return a;
  if (!ia && ib)
    return b;
  if (ia)
    {
      x = lattice_index (inexact_elems, 16, a);
      y = lattice_index (inexact_elems, 16, b);
      if (x >= 0 && y >= 0)
        return inexact_elems[inexact_table[x][y]];
    }
  else
    {
      x = lattice_index (exact_elems, 14, a);
      y = lattice_index (exact_elems, 14, b);
      if (x >= 0 && y >= 0)
        return exact_elems[exact_table[x][y]];
    }
  /* dtypes outside Thunder's tables (fp8, uint16/32/64): the stronger one, then the wider */
  if (a.dtype == b.dtype)
    return a.strength >= b.strength ? a : b;
  if (a.strength != b.strength)
    return a.strength > b.strength ? a : b;
  return (LatticeElem){ wb_dtype_promote (a.dtype, b.dtype), a.strength };
}

static gboolean
lattice_elem_of (const WbType *t, LatticeElem *e)
{
  switch (t->kind)
    {
    case WB_TYPE_TENSOR:
    case WB_TYPE_FUTURE_TENSOR:
      e->dtype = t->dtype;
      e->strength = _wb_meta_is_weak (t) ? 1 : 2;
      return t->dtype != WB_DTYPE_UNKNOWN;
    case WB_TYPE_BOOL:
    case WB_TYPE_INT:
    case WB_TYPE_FLOAT:
    case WB_TYPE_COMPLEX:
      e->dtype = _wb_meta_number_dtype (t->kind);
      e->strength = 0;
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
wb_symbol_promote_types (const WbType *types, guint n, WbDtype *dtype, gboolean *weak)
{
  LatticeElem acc = { WB_DTYPE_BOOL8, 0 };

  g_return_val_if_fail (types != NULL || n == 0, FALSE);
  for (guint i = 0; i < n; i++)
    {
      LatticeElem e;
      if (!lattice_elem_of (&types[i], &e))
        return FALSE;
      acc = promote2 (acc, e);
    }
  *dtype = acc.dtype;
  if (weak != NULL)
    *weak = acc.strength < 2;
  return n > 0;
}

gboolean
_wb_meta_promote (const WbMetaCall *call, const WbType *types, guint n, WbPromoteKind kind, WbDtype *dtype, gboolean *weak, GError **error)
{
  WbDtype  d;
  gboolean w, all_numbers = TRUE;

  if (!wb_symbol_promote_types (types, n, &d, &w))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "type promotion needs tensors or numbers");
  for (guint i = 0; i < n; i++)
    if (types[i].kind == WB_TYPE_TENSOR || types[i].kind == WB_TYPE_FUTURE_TENSOR)
      all_numbers = FALSE;
  switch (kind)
    {
    case WB_PROMOTE_ALWAYS_BOOL:
      d = WB_DTYPE_BOOL8;
      break;
    case WB_PROMOTE_INT_TO_FLOAT:
      if (wb_dtype_kind (d) == WB_DTYPE_KIND_BOOL || wb_dtype_is_integer (d))
        {
          /* Python float: a weak float32 */
          d = WB_DTYPE_FLOAT32;
          w = TRUE;
        }
      break;
    case WB_PROMOTE_COMPLEX_TO_FLOAT:
      d = _wb_meta_real_dtype (d);
      break;
    case WB_PROMOTE_BOOL_TO_LONG:
      if (wb_dtype_kind (d) == WB_DTYPE_KIND_BOOL)
        {
          d = WB_DTYPE_INT64;
          w = TRUE;
        }
      break;
    case WB_PROMOTE_NUMBER_TO_INT:
      if (all_numbers && wb_dtype_kind (d) == WB_DTYPE_KIND_FLOAT)
        d = WB_DTYPE_INT64;
      break;
    case WB_PROMOTE_DEFAULT:
    case WB_PROMOTE_PRESERVE:
    default:
      break;
    }
  *dtype = d;
  if (weak != NULL)
    *weak = w;
  return TRUE;
}
