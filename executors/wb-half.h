/* wb-half.h — bf16 and f16 conversions to and from f32, rounding to nearest even as PyTorch does
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bf16 is the top half of an IEEE f32; f16 is IEEE binary16. f32 -> bf16/f16 rounds to nearest, ties
 * to even (c10::BFloat16 round_to_nearest_even, c10::Half fp16_ieee_from_fp32_value); NaN stays NaN
 * (bf16: 0x7FC0, f16: 0x7E00), overflow gives infinity, f16 keeps subnormals. Wider sources (f64,
 * int64) are converted to f32 first, as PyTorch does. Header-only: every function is static inline. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef union
{
  guint32 u;
  float   f;
} WbF32Bits;

/* wb_bf16_to_f32: exact. */
static inline float
wb_bf16_to_f32 (guint16 h)
{
  WbF32Bits v;

  v.u = (guint32) h << 16;
  return v.f;
}

/* wb_f32_to_bf16: round to nearest even; NaN -> 0x7FC0. */
static inline guint16
wb_f32_to_bf16 (float f)
{
  WbF32Bits v;

  v.f = f;
  if ((v.u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  return (guint16) ((v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16);
}

/* wb_f16_to_f32: exact (subnormals included). */
static inline float
wb_f16_to_f32 (guint16 h)
{
  guint32   sign = ((guint32) h & 0x8000u) << 16;
  guint32   exp = ((guint32) h >> 10) & 0x1fu;
  guint32   mant = (guint32) h & 0x3ffu;
  WbF32Bits v;

  if (exp == 0x1f)
    v.u = sign | 0x7f800000u | (mant << 13);
  else if (exp != 0)
    v.u = sign | ((exp + 112u) << 23) | (mant << 13);
  else if (mant == 0)
    v.u = sign;
  else
    {
      /* subnormal: mant * 2^-24 is exact in f32 */
      v.f = (float) mant * 5.9604644775390625e-08f;
      v.u |= sign;
    }
  return v.f;
}

/* wb_f32_to_f16: round to nearest even (F. Giesen's float_to_half_fast3_rtne); NaN -> 0x7E00. */
static inline guint16
wb_f32_to_f16 (float f)
{
  WbF32Bits v, magic;
  guint32   sign;
  guint32   o;

  v.f = f;
  sign = v.u & 0x80000000u;
  v.u ^= sign;
  if (v.u >= 0x47800000u) /* >= 65536: inf or NaN */
    o = v.u > 0x7f800000u ? 0x7e00u : 0x7c00u;
  else if (v.u < 0x38800000u) /* < 2^-14: subnormal or zero */
    {
      magic.u = 126u << 23; /* ((127 - 15) + (23 - 10) + 1) << 23 */
      v.f += magic.f;
      o = v.u - magic.u;
    }
  else
    {
      guint32 mant_odd = (v.u >> 13) & 1u;

      v.u += 0xc8000fffu; /* ((15 - 127) << 23) + 0xfff, modulo 2^32 */
      v.u += mant_odd;
      o = v.u >> 13;
    }
  return (guint16) (o | (sign >> 16));
}

G_END_DECLS
