// wb-cuda-kernels-common.cuh — what every unit of hand-written kernels starts with (wb-cuda-kernels*.c)
// SPDX-License-Identifier: GPL-3.0-or-later
// Each unit is this file followed by one family's file (wb-cuda-kernels.cuh, -pool.cuh, -index.cuh), joined
// when the texts are embedded (executors/cuda/meson.build) and compiled by NVRTC after wb-cuda-prelude.cuh
// (no #include). Entries are extern "C" <kernel>_<dtype> and run with 256 threads per block.

// -- dtypes: S is the storage type, V the class values compute in (the code generator's classes), A the
// class long sums accumulate in (double for floats, as the cpu executor accumulates; int64 for integers)
struct WbF64 { typedef double S; typedef double V; typedef double A;
  static __device__ V ld (const S *p, long long i) { return p[i]; }
  static __device__ void st (S *p, long long i, V v) { p[i] = v; } };
struct WbF32 { typedef float S; typedef float V; typedef double A;
  static __device__ V ld (const S *p, long long i) { return p[i]; }
  static __device__ void st (S *p, long long i, V v) { p[i] = v; } };
struct WbBF16 { typedef unsigned short S; typedef float V; typedef double A;
  static __device__ V ld (const S *p, long long i) { return wb_bf16_to_f (p[i]); }
  static __device__ void st (S *p, long long i, V v) { p[i] = wb_f_to_bf16 (v); } };
struct WbF16 { typedef unsigned short S; typedef float V; typedef double A;
  static __device__ V ld (const S *p, long long i) { return wb_f16_to_f (p[i]); }
  static __device__ void st (S *p, long long i, V v) { p[i] = wb_f_to_f16 (v); } };
template <typename T> struct WbInt { typedef T S; typedef long long V; typedef long long A;
  static __device__ V ld (const S *p, long long i) { return (long long) p[i]; }
  static __device__ void st (S *p, long long i, V v) { p[i] = (T) v; } };
typedef WbInt<long long> WbI64;
typedef WbInt<int> WbI32;
typedef WbInt<short> WbI16;
typedef WbInt<signed char> WbI8;
typedef WbInt<unsigned char> WbU8;
struct WbB8 { typedef unsigned char S; typedef long long V; typedef long long A;
  static __device__ V ld (const S *p, long long i) { return p[i] != 0; }
  static __device__ void st (S *p, long long i, V v) { p[i] = v != 0; } };

// double -> the class of T, rounded once (f64 -> f32 -> bf16/f16 as wb-half.h does; integers truncate)
template <typename T> static __device__ __forceinline__ typename T::V wb_from_d (double x) { return (typename T::V) x; }

#define WB_GRID_STRIDE(i, n) for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long) gridDim.x * blockDim.x)
