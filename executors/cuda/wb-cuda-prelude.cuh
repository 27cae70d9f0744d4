// wb-cuda-prelude.cuh — device helpers every generated source starts with (embedded by wb-cuda-codegen.c)
// SPDX-License-Identifier: GPL-3.0-or-later
// No #include: NVRTC needs no header path. bf16 and f16 are stored as unsigned short and converted with
// the rounding of executors/wb-half.h (nearest even; NaN -> 0x7FC0 / 0x7E00; f64 goes through f32).
#define WB_INF_F (__int_as_float (0x7f800000))
#define WB_NAN_F (__int_as_float (0x7fc00000))
#define WB_INF_D (__longlong_as_double (0x7ff0000000000000LL))
#define WB_NAN_D (__longlong_as_double (0x7ff8000000000000LL))
#define WB_I64_MIN (-9223372036854775807LL - 1LL)
#define WB_I64_MAX 9223372036854775807LL

static __device__ __forceinline__ float wb_bf16_to_f (unsigned short h) { return __uint_as_float ((unsigned int) h << 16); }
// On sm_80 and later the conversions use the packed forms cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32 (F2FP
// in SASS) rather than cvt.rn.bf16.f32 / cvt.rn.f16.f32 (F2F, which the CUDA C Programming Guide's
// throughput table gives 16 results per clock per SM on 8.x and 9.0): a kernel of Thunder's exact GELU
// rounds ~10 times per element and was bound by F2F. The other half of each pair is 0.
static __device__ __forceinline__ unsigned short wb_f_to_bf16 (float f)
{
#if __CUDA_ARCH__ >= 800
  unsigned int u;
  asm ("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(0.0f), "f"(f));
  return f != f ? (unsigned short) 0x7fc0 : (unsigned short) u;
#else
  unsigned int u = __float_as_uint (f);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  return (unsigned short) ((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#endif
}
static __device__ __forceinline__ float wb_f16_to_f (unsigned short h)
{
  float f;
  asm ("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
static __device__ __forceinline__ unsigned short wb_f_to_f16 (float f)
{
  if (f != f)
    return 0x7e00;
#if __CUDA_ARCH__ >= 800
  unsigned int u;
  asm ("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(0.0f), "f"(f));
  return (unsigned short) u;
#else
  unsigned short h;
  asm ("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
#endif
}
// round a float to the nearest bf16 / f16 value, kept as float. A NaN stays a NaN whose payload may
// differ from 0x7FC0 / 0x7E00: only stores (wb_f_to_bf16, wb_f_to_f16) make bits visible, and they
// canonicalise it.
static __device__ __forceinline__ float wb_round_bf16 (float f)
{
#if __CUDA_ARCH__ >= 800
  unsigned int u; // high half: f rounded to bf16; low half: 0. As float bits, that is the rounded value.
  asm ("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(f), "f"(0.0f));
  return __uint_as_float (u);
#else
  return wb_bf16_to_f (wb_f_to_bf16 (f));
#endif
}
static __device__ __forceinline__ float wb_round_f16 (float f) { return wb_f16_to_f (wb_f_to_f16 (f)); }

// bf16x2: two bf16 values in one 32-bit word (lane j in the low half, lane j + 1 in the high half), as the vector
// kernels keep adjacent lanes whose ops Thunder prints as bf16 -> f32, op, -> bf16 (wb-cuda-codegen-pair.c). For
// add, sub and mul of two bf16 values the f32 result rounded to bf16 is the exact result rounded once (f32's 24
// bits are at least twice bf16's 8 plus 2: Figueroa, "When is double rounding innocuous?", SIGNUM 1995; checked
// here for every pair of finite bf16 values), which is what one fma.rn.bf16x2 computes: a * b + (-0), a * 1 + b, b * -1 + a.
// A float holding a bf16 value has its low half 0, so packing and unpacking are register moves.
static __device__ __forceinline__ unsigned int wb_bf16x2_pack (float lo, float hi) { return (__float_as_uint (lo) >> 16) | (__float_as_uint (hi) & 0xffff0000u); }
static __device__ __forceinline__ float wb_bf16x2_lo (unsigned int x) { return __uint_as_float (x << 16); }
static __device__ __forceinline__ float wb_bf16x2_hi (unsigned int x) { return __uint_as_float (x & 0xffff0000u); }
static __device__ __forceinline__ unsigned int wb_bf16x2_fma (unsigned int a, unsigned int b, unsigned int c)
{
#if __CUDA_ARCH__ >= 800
  unsigned int d;
  asm ("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
#else
  // before sm_80: in f32, the product rounded first (exact for the forms used here: one of b, c is 1 or -0)
  return wb_bf16x2_pack (wb_round_bf16 (wb_round_bf16 (wb_bf16x2_lo (a) * wb_bf16x2_lo (b)) + wb_bf16x2_lo (c)),
                         wb_round_bf16 (wb_round_bf16 (wb_bf16x2_hi (a) * wb_bf16x2_hi (b)) + wb_bf16x2_hi (c)));
#endif
}
static __device__ __forceinline__ unsigned int wb_bf16x2_mul (unsigned int a, unsigned int b) { return wb_bf16x2_fma (a, b, 0x80008000u); }
static __device__ __forceinline__ unsigned int wb_bf16x2_add (unsigned int a, unsigned int b) { return wb_bf16x2_fma (a, 0x3f803f80u, b); }
static __device__ __forceinline__ unsigned int wb_bf16x2_sub (unsigned int a, unsigned int b) { return wb_bf16x2_fma (b, 0xbf80bf80u, a); }
// stored: a NaN half becomes 0x7FC0, as wb_f_to_bf16 stores it
static __device__ __forceinline__ void wb_bf16x2_store (unsigned short *at, unsigned int x)
{
  unsigned int m;
#if __CUDA_ARCH__ >= 900
  asm ("set.nan.u32.bf16x2 %0, %1, %1;" : "=r"(m) : "r"(x));
#else
  m = ((((x & 0x7fff7fffu) + 0x007f007fu) & 0x80008000u) >> 15) * 0xffffu;
#endif
  *(unsigned int *) at = (x & ~m) | (0x7fc07fc0u & m);
}
// An index out of range (a gather's, take's, index_add's, scatter_add's, a max pool's saved index) must not
// fault the context: the kernel calls wb_index_bad, which records it in its module's wb_index_error ([0] how
// many, [1] the first value seen, [2] the size of its dim) and returns an index inside the dim, so nothing is
// read or written out of bounds. The runtime reads the record after every launch of a checked run and fails
// the call, naming it (wb-cuda-runtime.c). One record per module: NVRTC compiles without -rdc.
extern "C" { __device__ unsigned long long wb_index_error[3]; }
static __device__ __noinline__ long long wb_index_bad (long long i, long long size)
{
  if (atomicAdd (&wb_index_error[0], 1ULL) == 0ULL)
    {
      wb_index_error[1] = (unsigned long long) i;
      wb_index_error[2] = (unsigned long long) size;
    }
  return i < 0 || size <= 0 ? 0 : size - 1;
}
// @i wrapped for a dim of @size (negative counts from the end), out of range recorded and clamped
static __device__ __forceinline__ long long wb_index_wrap (long long i, long long size)
{
  if (i < 0)
    i += size;
  return (unsigned long long) i < (unsigned long long) size ? i : wb_index_bad (i, size);
}

// float -> int64 truncating toward zero, NaN -> 0 (the cpu executor's rule)
static __device__ __forceinline__ long long wb_f_to_i (double x) { return x != x ? 0LL : (long long) x; }

// NaN-propagating max/min (torch.maximum, amax)
static __device__ __forceinline__ float wb_max_f (float a, float b) { return (a != a || b != b) ? WB_NAN_F : (a > b ? a : b); }
static __device__ __forceinline__ float wb_min_f (float a, float b) { return (a != a || b != b) ? WB_NAN_F : (a < b ? a : b); }
static __device__ __forceinline__ double wb_max_d (double a, double b) { return (a != a || b != b) ? WB_NAN_D : (a > b ? a : b); }
static __device__ __forceinline__ double wb_min_d (double a, double b) { return (a != a || b != b) ? WB_NAN_D : (a < b ? a : b); }
static __device__ __forceinline__ long long wb_max_i (long long a, long long b) { return a > b ? a : b; }
static __device__ __forceinline__ long long wb_min_i (long long a, long long b) { return a < b ? a : b; }

// integer helpers with the cpu executor's semantics (x / 0 == 0, wrap-around, shifts past the width)
static __device__ __forceinline__ long long wb_neg_i (long long x) { return (long long) (0ULL - (unsigned long long) x); }
static __device__ __forceinline__ long long wb_div_i (long long x, long long y) { return y == 0 ? 0 : (y == -1 ? wb_neg_i (x) : x / y); }
static __device__ __forceinline__ long long wb_floordiv_i (long long x, long long y)
{
  if (y == 0) return 0;
  if (y == -1) return wb_neg_i (x);
  long long q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) q--;
  return q;
}
static __device__ __forceinline__ long long wb_fmod_i (long long x, long long y) { return (y == 0 || y == -1) ? 0 : x % y; }
static __device__ __forceinline__ long long wb_rem_i (long long x, long long y)
{
  if (y == 0 || y == -1) return 0;
  long long r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}
static __device__ __forceinline__ double wb_rem_d (double x, double y)
{
  double r = fmod (x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}
static __device__ __forceinline__ long long wb_shl_i (long long x, long long y) { return (y < 0 || y >= 64) ? 0 : (long long) ((unsigned long long) x << y); }
static __device__ __forceinline__ long long wb_shr_i (long long x, long long y) { return (y < 0 || y >= 64) ? (x < 0 ? -1 : 0) : x >> y; }
static __device__ __forceinline__ long long wb_pow_i (long long x, long long y)
{
  unsigned long long r = 1, b = (unsigned long long) x;
  if (y < 0) return x == 1 ? 1 : (x == -1 ? ((y & 1) ? -1 : 1) : 0);
  while (y > 0) { if (y & 1) r *= b; b *= b; y >>= 1; }
  return (long long) r;
}
// x / c for a constant c, given rc = the float nearest 1 / c: q = x rc corrected once by the exact
// remainder x - q c (P. Markstein, "Computation of elementary functions on the IBM RISC System/6000
// processor", IBM J. Res. Dev. 34(1), 1990), with x scaled by 2^64 where it is tiny so that the remainder
// keeps its bits. No branch (the division routine's range check and slow path cost as much as the rest
// of an exact-GELU kernel). Bit-identical to x / c wherever the quotient is a normal float: checked for
// all 2^32 x with 15 constants c (1/sqrt 2, sqrt 2, 0.1, 1e-3, 3, 7, 768, 11008, 3e-30, 1e30, ...) by
// tests/executors/test-div-by.c --all (CI runs a stride). A subnormal quotient may differ in its last
// place (rounded twice); x infinite or NaN gives x rc.
static __device__ __forceinline__ float wb_div_by (float x, float c, float rc)
{
  const bool  tiny = fabsf (x) < 0x1p-100f;
  const float xs = tiny ? x * 0x1p+64f : x;
  const float q = xs * rc;
  const float q1 = fmaf (fmaf (-q, c, xs), rc, q);
  return fabsf (q) <= 3.402823466e38f ? (tiny ? q1 * 0x1p-64f : q1) : q;
}
static __device__ __forceinline__ float wb_lerp_f (float x, float y, float z) { return fabsf (z) < 0.5f ? x + z * (y - x) : y - (y - x) * (1.0f - z); }
static __device__ __forceinline__ double wb_lerp_d (double x, double y, double z) { return fabs (z) < 0.5 ? x + z * (y - x) : y - (y - x) * (1.0 - z); }
static __device__ __forceinline__ float wb_sign_f (float x) { return (float) ((x > 0) - (x < 0)); }
static __device__ __forceinline__ double wb_sign_d (double x) { return (double) ((x > 0) - (x < 0)); }
