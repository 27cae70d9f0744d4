// wb-cuda-kernels.cuh — the hand-written kernels of the per-op cuda executor (launched by wb-cuda-kernels.c):
// random draws, sorting, argmax, nll_loss_backward
// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled as one unit after wb-cuda-prelude.cuh and wb-cuda-kernels-common.cuh (the dtypes; no #include).
// Every entry is extern "C" <kernel>_<dtype> and runs with 256 threads per block (wb_cuda_runtime_launch).
// Semantics are the cpu executor's:
//   random   executors/wb-philox.c, executors/cpu/wb-cpu-creation.c: Philox 4x32-10, key = seed, counter =
//            (block, stream 0); element i of a 32-bit draw uses word i % 4 of block offset + i / 4; f64 uses
//            the two 64-bit halves of block offset + i / 2. Arithmetic in double with explicit _rn intrinsics
//            (no FMA contraction), so values are bit-identical to the cpu's.
//   sort     executors/cpu/wb-cpu-sort.c: NaN above every number, ties keep the lower index first (the
//            stable order): bitonic sorts with the index as the last key give exactly that order.
//   argmax   executors/cpu/wb-cpu-reduction.c: the first NaN, else the first maximum (minimum).
//   nll_loss_backward executors/cpu/wb-cpu-nn.c: computed in double, one rounding to the output dtype.

// -- Philox 4x32-10 (executors/wb-philox.c)
static __device__ __forceinline__ void wb_philox (unsigned long long seed, unsigned long long block, unsigned int w[4])
{
  unsigned int c0 = (unsigned int) block, c1 = (unsigned int) (block >> 32), c2 = 0u, c3 = 0u;
  unsigned int k0 = (unsigned int) seed, k1 = (unsigned int) (seed >> 32);
  for (int r = 0; r < 10; r++)
    {
      if (r > 0)
        {
          k0 += 0x9E3779B9u;
          k1 += 0xBB67AE85u;
        }
      unsigned int hi0 = __umulhi (0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
      unsigned int hi1 = __umulhi (0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
      unsigned int n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
      c0 = n0;
      c1 = lo1;
      c2 = n2;
      c3 = lo0;
    }
  w[0] = c0;
  w[1] = c1;
  w[2] = c2;
  w[3] = c3;
}

// the two uniform doubles of one block (wb_philox_uniform_f64)
static __device__ __forceinline__ void wb_philox_u64x2 (unsigned long long seed, unsigned long long block, double u[2])
{
  unsigned int w[4];
  wb_philox (seed, block, w);
  for (int j = 0; j < 2; j++)
    u[j] = (double) ((((unsigned long long) w[2 * j] << 32) | w[2 * j + 1]) >> 11) * (1.0 / 9007199254740992.0);
}

// uniform, uniform_philox: f32, bf16, f16 (24-bit u, (float) (lo + (hi - lo) * u))
template <typename T>
static __device__ void wb_uniform (typename T::S *out, long long n, unsigned long long seed, unsigned long long offset, double lo, double hi)
{
  WB_GRID_STRIDE (b, (n + 3) / 4)
  {
    unsigned int w[4];
    wb_philox (seed, offset + (unsigned long long) b, w);
    for (int j = 0; j < 4 && 4 * b + j < n; j++)
      {
        float u = (float) (w[j] >> 8) * (1.0f / 16777216.0f);
        T::st (out, 4 * b + j, __double2float_rn (__dadd_rn (lo, __dmul_rn (__dsub_rn (hi, lo), (double) u))));
      }
  }
}

// f64: 53-bit u, lo + (hi - lo) * u
extern "C" __global__ void __launch_bounds__ (256)
wb_uniform_f64 (double *out, long long n, unsigned long long seed, unsigned long long offset, double lo, double hi)
{
  WB_GRID_STRIDE (b, (n + 1) / 2)
  {
    double u[2];
    wb_philox_u64x2 (seed, offset + (unsigned long long) b, u);
    for (int j = 0; j < 2 && 2 * b + j < n; j++)
      out[2 * b + j] = __dadd_rn (lo, __dmul_rn (__dsub_rn (hi, lo), u[j]));
  }
}

// randn: Box-Muller on the pair of uniform doubles of block offset + i / 2 (wb_philox_normal_f64); the
// double results round to the dtype. log/sqrt/sin/cos are CUDA's (within 1 ulp of glibc's in double).
template <typename T>
static __device__ void wb_randn (typename T::S *out, long long n, unsigned long long seed, unsigned long long offset)
{
  WB_GRID_STRIDE (b, (n + 1) / 2)
  {
    double u[2];
    wb_philox_u64x2 (seed, offset + (unsigned long long) b, u);
    double r = sqrt (__dmul_rn (-2.0, log (__dsub_rn (1.0, u[0]))));
    double theta = __dmul_rn (__dmul_rn (2.0, 3.1415926535897931), u[1]);
    T::st (out, 2 * b, wb_from_d<T> (__dmul_rn (r, cos (theta))));
    if (2 * b + 1 < n)
      T::st (out, 2 * b + 1, wb_from_d<T> (__dmul_rn (r, sin (theta))));
  }
}

// randint: element i = low + (64 bits from words 2i, 2i + 1) % (high - low)
template <typename T>
static __device__ void wb_randint (typename T::S *out, long long n, unsigned long long seed, unsigned long long offset, long long low, unsigned long long range)
{
  WB_GRID_STRIDE (b, (n + 1) / 2)
  {
    unsigned int w[4];
    wb_philox (seed, offset + (unsigned long long) b, w);
    for (int j = 0; j < 2 && 2 * b + j < n; j++)
      T::st (out, 2 * b + j, (long long) ((unsigned long long) low + ((((unsigned long long) w[2 * j] << 32) | w[2 * j + 1]) % range)));
  }
}

// -- sorting: (key, index) pairs; index < 0 pads a row to a power of two and sorts last
template <typename V>
static __device__ __forceinline__ bool wb_nan (V x) { return x != x; }

template <typename V>
static __device__ __forceinline__ bool wb_before (V ka, int ia, V kb, int ib, bool desc)
{
  if (ia < 0 || ib < 0)
    return ib < 0 && ia >= 0;
  bool na = wb_nan (ka), nb = wb_nan (kb);
  if (na != nb)
    return desc ? na : nb;
  if (!na && ka != kb)
    return desc ? ka > kb : ka < kb;
  return ia < ib;
}

#define WB_SORT_SMALL 2048

// rows of up to WB_SORT_SMALL elements: one block per row, a bitonic sort in shared memory; writes the
// first kk of each row. The input is contiguous [outer, n, inner]; the outputs [outer, kk, inner].
template <typename T>
static __device__ void wb_sort_small (const typename T::S *a, typename T::S *vals, long long *inds, long long outer, int n, long long inner, int kk, int P, int desc)
{
  typedef typename T::V V;
  __shared__ V sk[WB_SORT_SMALL];
  __shared__ int si[WB_SORT_SMALL];
  for (long long row = blockIdx.x; row < outer * inner; row += gridDim.x)
    {
      long long o = row / inner, in = row % inner;
      for (int j = threadIdx.x; j < P; j += blockDim.x)
        {
          si[j] = j < n ? j : -1;
          sk[j] = j < n ? T::ld (a, (o * n + j) * inner + in) : (V) 0;
        }
      __syncthreads ();
      for (int k = 2; k <= P; k <<= 1)
        for (int s = k >> 1; s > 0; s >>= 1)
          {
            for (int i = threadIdx.x; i < P; i += blockDim.x)
              {
                int l = i ^ s;
                if (l > i)
                  {
                    bool up = (i & k) == 0;
                    bool sw = up ? wb_before (sk[l], si[l], sk[i], si[i], desc != 0) : wb_before (sk[i], si[i], sk[l], si[l], desc != 0);
                    if (sw)
                      {
                        V tk = sk[i];
                        int ti = si[i];
                        sk[i] = sk[l], si[i] = si[l];
                        sk[l] = tk, si[l] = ti;
                      }
                  }
              }
            __syncthreads ();
          }
      for (int j = threadIdx.x; j < kk; j += blockDim.x)
        {
          T::st (vals, (o * kk + j) * inner + in, sk[j]);
          inds[(o * kk + j) * inner + in] = si[j];
        }
      __syncthreads ();
    }
}

// longer rows: the pairs in global memory (rows x P), one launch per bitonic step
template <typename T>
static __device__ void wb_sort_init (const typename T::S *a, typename T::V *keys, int *idx, long long outer, int n, long long inner, int P)
{
  WB_GRID_STRIDE (e, outer * inner * P)
  {
    long long row = e / P, o = row / inner, in = row % inner;
    int j = (int) (e % P);
    idx[e] = j < n ? j : -1;
    keys[e] = j < n ? T::ld (a, (o * n + j) * inner + in) : (typename T::V) 0;
  }
}

template <typename V>
static __device__ void wb_sort_step (V *keys, int *idx, long long rows, int P, int k, int s, int desc)
{
  WB_GRID_STRIDE (e, rows * P)
  {
    long long base = e - e % P;
    int i = (int) (e % P), l = i ^ s;
    if (l > i)
      {
        V *K = keys + base;
        int *I = idx + base;
        bool up = (i & k) == 0;
        bool sw = up ? wb_before (K[l], I[l], K[i], I[i], desc != 0) : wb_before (K[i], I[i], K[l], I[l], desc != 0);
        if (sw)
          {
            V tk = K[i];
            int ti = I[i];
            K[i] = K[l], I[i] = I[l];
            K[l] = tk, I[l] = ti;
          }
      }
  }
}

template <typename T>
static __device__ void wb_sort_write (const typename T::V *keys, const int *idx, typename T::S *vals, long long *inds, long long outer, long long inner, int kk, int P)
{
  WB_GRID_STRIDE (e, outer * inner * kk)
  {
    long long in = e % inner, j = (e / inner) % kk, o = e / (inner * kk);
    long long src = (o * inner + in) * P + j;
    T::st (vals, e, keys[src]);
    inds[e] = idx[src];
  }
}

// -- argmax / argmin over the middle dim of a contiguous [outer, n, inner]: one block per output
template <typename T>
static __device__ void wb_argbest (const typename T::S *a, long long *out, long long outer, long long n, long long inner, int is_max)
{
  typedef typename T::V V;
  __shared__ V sv[256];
  __shared__ long long si[256];
  for (long long row = blockIdx.x; row < outer * inner; row += gridDim.x)
    {
      long long o = row / inner, in = row % inner;
      V best = (V) 0;
      long long bi = -1;
      for (long long j = threadIdx.x; j < n; j += blockDim.x)
        {
          V v = T::ld (a, (o * n + j) * inner + in);
          if (bi >= 0 && wb_nan (best))
            break;
          if (bi < 0 || wb_nan (v) || (is_max ? v > best : v < best))
            best = v, bi = j;
        }
      sv[threadIdx.x] = best;
      si[threadIdx.x] = bi;
      __syncthreads ();
      for (int m = blockDim.x / 2; m > 0; m >>= 1)
        {
          if (threadIdx.x < m)
            {
              V va = sv[threadIdx.x], vb = sv[threadIdx.x + m];
              long long ia = si[threadIdx.x], ib = si[threadIdx.x + m];
              bool take_b;
              if (ib < 0)
                take_b = false;
              else if (ia < 0)
                take_b = true;
              else if (wb_nan (va) || wb_nan (vb))
                take_b = wb_nan (vb) && (!wb_nan (va) || ib < ia);
              else if (va != vb)
                take_b = is_max ? vb > va : vb < va;
              else
                take_b = ib < ia;
              if (take_b)
                sv[threadIdx.x] = vb, si[threadIdx.x] = ib;
            }
          __syncthreads ();
        }
      if (threadIdx.x == 0)
        out[row] = si[0] < 0 ? 0 : si[0];
      __syncthreads ();
    }
}

// -- nll_loss_backward: out[b, c, r] = -weight[t] * g / (total for 'mean') where t = target[b, r] == c
// (t != ignore_index), else 0. g: f64 [nb * nr] ('none') or [1]; target i64; weight f64 [nc] or NULL;
// total f64 [1]. reduction: 0 none, 1 mean, 2 sum. An out-of-range target is recorded (wb_index_bad: the
// call fails, as on the cpu) and contributes nothing.
template <typename T>
static __device__ void wb_nll_loss_backward (typename T::S *out, const double *g, const long long *target, const double *weight, const double *total,
                                             long long nb, long long nc, long long nr, int reduction, long long ignore)
{
  WB_GRID_STRIDE (e, nb * nc * nr)
  {
    long long r = e % nr, c = (e / nr) % nc, b = e / (nr * nc);
    long long t = target[b * nr + r];
    double x = 0.0;
    if (t != ignore)
      {
        if (t < 0 || t >= nc)
          {
            if (c == 0)
              wb_index_bad (t, nc);
          }
        else if (t == c)
          {
            double gv = reduction == 0 ? g[b * nr + r] : g[0];
            if (reduction == 1)
              gv = __ddiv_rn (gv, total[0]);
            x = __dmul_rn (-(weight ? weight[t] : 1.0), gv);
          }
      }
    T::st (out, e, wb_from_d<T> (x));
  }
}

// -- the entries: one per kernel and dtype
#define WB_UNIFORM_ENTRY(N, T)                                                                                                                   \
  extern "C" __global__ void __launch_bounds__ (256) wb_uniform_##N (T::S *out, long long n, unsigned long long seed, unsigned long long offset, \
                                                                     double lo, double hi)                                                     \
  { wb_uniform<T> (out, n, seed, offset, lo, hi); }
#define WB_FLOAT_ENTRIES(N, T)                                                                                                                   \
  extern "C" __global__ void __launch_bounds__ (256) wb_nll_loss_backward_##N (T::S *out, const double *g, const long long *target,          \
                                                                               const double *weight, const double *total, long long nb,      \
                                                                               long long nc, long long nr, int reduction, long long ignore)  \
  { wb_nll_loss_backward<T> (out, g, target, weight, total, nb, nc, nr, reduction, ignore); }                                                  \
  extern "C" __global__ void __launch_bounds__ (256) wb_randn_##N (T::S *out, long long n, unsigned long long seed, unsigned long long offset)   \
  { wb_randn<T> (out, n, seed, offset); }
#define WB_ANY_ENTRIES(N, T)                                                                                                                     \
  extern "C" __global__ void __launch_bounds__ (256) wb_randint_##N (T::S *out, long long n, unsigned long long seed, unsigned long long offset, \
                                                                     long long low, unsigned long long range)                                  \
  { wb_randint<T> (out, n, seed, offset, low, range); }                                                                                        \
  extern "C" __global__ void __launch_bounds__ (256) wb_sort_small_##N (const T::S *a, T::S *vals, long long *inds, long long outer, int n,     \
                                                                        long long inner, int kk, int P, int desc)                              \
  { wb_sort_small<T> (a, vals, inds, outer, n, inner, kk, P, desc); }                                                                          \
  extern "C" __global__ void __launch_bounds__ (256) wb_sort_init_##N (const T::S *a, T::V *keys, int *idx, long long outer, int n,            \
                                                                       long long inner, int P)                                                 \
  { wb_sort_init<T> (a, keys, idx, outer, n, inner, P); }                                                                                      \
  extern "C" __global__ void __launch_bounds__ (256) wb_sort_write_##N (const T::V *keys, const int *idx, T::S *vals, long long *inds,          \
                                                                        long long outer, long long inner, int kk, int P)                       \
  { wb_sort_write<T> (keys, idx, vals, inds, outer, inner, kk, P); }                                                                           \
  extern "C" __global__ void __launch_bounds__ (256) wb_argbest_##N (const T::S *a, long long *out, long long outer, long long n,               \
                                                                     long long inner, int is_max)                                              \
  { wb_argbest<T> (a, out, outer, n, inner, is_max); }

WB_UNIFORM_ENTRY (f32, WbF32)
WB_UNIFORM_ENTRY (bf16, WbBF16)
WB_UNIFORM_ENTRY (f16, WbF16)
WB_FLOAT_ENTRIES (f32, WbF32)
WB_FLOAT_ENTRIES (bf16, WbBF16)
WB_FLOAT_ENTRIES (f16, WbF16)
WB_FLOAT_ENTRIES (f64, WbF64)
WB_ANY_ENTRIES (f64, WbF64)
WB_ANY_ENTRIES (f32, WbF32)
WB_ANY_ENTRIES (bf16, WbBF16)
WB_ANY_ENTRIES (f16, WbF16)
WB_ANY_ENTRIES (i64, WbI64)
WB_ANY_ENTRIES (i32, WbI32)
WB_ANY_ENTRIES (i16, WbI16)
WB_ANY_ENTRIES (i8, WbI8)
WB_ANY_ENTRIES (u8, WbU8)
WB_ANY_ENTRIES (b8, WbB8)

// the sort steps depend on the key class only
extern "C" __global__ void __launch_bounds__ (256) wb_sort_step_f (float *keys, int *idx, long long rows, int P, int k, int s, int desc)
{ wb_sort_step<float> (keys, idx, rows, P, k, s, desc); }
extern "C" __global__ void __launch_bounds__ (256) wb_sort_step_d (double *keys, int *idx, long long rows, int P, int k, int s, int desc)
{ wb_sort_step<double> (keys, idx, rows, P, k, s, desc); }
extern "C" __global__ void __launch_bounds__ (256) wb_sort_step_i (long long *keys, int *idx, long long rows, int P, int k, int s, int desc)
{ wb_sort_step<long long> (keys, idx, rows, P, k, s, desc); }
