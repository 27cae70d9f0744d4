// wb-cuda-kernels-index.cuh — index updates, scans and kl_div of the per-op cuda executor (launched by
// wb-cuda-kernels-index.c): index_add, scatter_add, embedding and its backward, cumsum, kl_div and its vjp
// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled as one unit after wb-cuda-prelude.cuh and wb-cuda-kernels-common.cuh (no #include). Semantics are
// the cpu executor's (executors/cpu/wb-cpu-indexing.c, wb-cpu-reduction.c, wb-cpu-nn.c):
//   index_add, scatter_add  out = a + the values whose index names each element, added in ascending source
//            order in the class V (float for f32, bf16 and f16, double for f64, int64 wrapping for integers)
//            and rounded once. Deterministic: the index is sorted first (stable, by the sort kernels of
//            wb-cuda-kernels.cuh), each output element finds its run of equal keys by binary search and
//            gathers it; no atomic adds. An index out of range is recorded (wb_index_bad) and clamped.
//   embedding  a gather of whole rows; its backward is index_add's gather into zeros, without the padding
//            row, each value scaled by 1 / its row's count with scale_grad_by_freq.
//   cumsum   running sums in A (double for floats, as the cpu; int64 for integers), rounded once per
//            element: a thread per row for short rows or many strided rows, else a block per row (a scan
//            of 8 elements a thread, then of the warps' totals, carried across tiles of 2048).
//   kl_div   elementwise in double; 'sum', 'mean', 'batchmean': partial sums of fixed blocks in double,
//            then one block adds them in order (the same result every run). kl_div_vjp: both gradients at
//            each element in one pass, in double.

// -- index_add, scatter_add

// keys[e] = idx[e] wrapped for a dim of @size (negative from the end; out of range recorded and clamped)
extern "C" __global__ void __launch_bounds__ (256) wb_index_prepare (const long long *idx, long long *keys, long long n, long long size)
{
  WB_GRID_STRIDE (e, n)
  keys[e] = wb_index_wrap (idx[e], size);
}

// the first of the @n keys at @k, @stride apart (ascending), that is not below (@upper: above) @r
static __device__ __forceinline__ long long wb_bound (const long long *k, long long n, long long stride, long long r, bool upper)
{
  long long lo = 0, hi = n;
  while (lo < hi)
    {
      long long mid = (lo + hi) / 2, v = k[mid * stride];
      if (upper ? v <= r : v < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

// index_add: out [outer, R, inner] = a + value[outer, j, inner] summed over the j (ascending) whose index
// is r; keys / pos: the index sorted (values and their positions, int64 [J])
template <typename T>
static __device__ void wb_index_add (const typename T::S *a, const typename T::S *value, const long long *keys, const long long *pos,
                                     typename T::S *out, long long outer, long long R, long long inner, long long J)
{
  typedef typename T::V V;
  WB_GRID_STRIDE (e, outer * R * inner)
  {
    long long in = e % inner, r = (e / inner) % R, o = e / (inner * R);
    long long s = wb_bound (keys, J, 1, r, false), end = wb_bound (keys, J, 1, r, true);
    V acc = T::ld (a, e);
    for (; s < end; s++)
      acc += T::ld (value, (o * J + pos[s]) * inner + in);
    T::st (out, e, acc);
  }
}

// scatter_add's shapes: a (and out) @shape, index @ishape (no larger than a but along @dim), src contiguous
// with strides @sstride (no smaller than index)
struct WbScatterGeom
{
  int rank, dim;
  long long shape[8], ishape[8], sstride[8];
};

// scatter_add: out[m] = a[m] + src[m with dim := j] summed over the j (ascending) where index[m with
// dim := j] == m[dim]; keys / pos: the index sorted along dim (values and their positions, int64, index's shape)
template <typename T>
static __device__ void wb_scatter_add (const typename T::S *a, const typename T::S *src, const long long *keys, const long long *pos,
                                       typename T::S *out, long long n, WbScatterGeom g)
{
  typedef typename T::V V;
  WB_GRID_STRIDE (e, n)
  {
    long long m[8], rest = e, line = 0, istride = 1, inner = 1, soff = 0;
    bool hit = true;
    V acc = T::ld (a, e);
    for (int d = g.rank - 1; d >= 0; d--)
      {
        m[d] = rest % g.shape[d];
        rest /= g.shape[d];
      }
    // the index's line through m: its offset with m[dim] := 0, and its stride along dim (@inner)
    for (int d = g.rank - 1; d >= 0; d--)
      {
        if (d != g.dim)
          {
            hit = hit && m[d] < g.ishape[d];
            line += m[d] * istride;
            soff += m[d] * g.sstride[d];
          }
        else
          inner = istride;
        istride *= g.ishape[d];
      }
    if (hit)
      {
        long long J = g.ishape[g.dim];
        long long s = wb_bound (keys + line, J, inner, m[g.dim], false), end = wb_bound (keys + line, J, inner, m[g.dim], true);
        for (; s < end; s++)
          acc += T::ld (src, soff + pos[line + s * inner] * g.sstride[g.dim]);
      }
    T::st (out, e, acc);
  }
}

// -- embedding, embedding_backward

// embedding: out[i, :] = weight[index[i], :], the rows copied as stored (weight [num, d], index int64 [n])
template <typename T>
static __device__ void wb_embedding (const typename T::S *weight, const long long *idx, typename T::S *out, long long n, long long d, long long num)
{
  WB_GRID_STRIDE (e, n * d)
  out[e] = weight[wb_index_wrap (idx[e / d], num) * d + e % d];
}

// embedding_backward: out[row, :] (num x d) = the sum of grad[i, :] over the i (ascending) whose index is row,
// each times 1 / their count with @scale; 0 for the row @padding. keys / pos: the index sorted (int64 [n])
template <typename T>
static __device__ void wb_embedding_backward (const typename T::S *g, const long long *keys, const long long *pos, typename T::S *out, long long num,
                                              long long d, long long n, long long padding, int scale)
{
  typedef typename T::V V;
  WB_GRID_STRIDE (e, num * d)
  {
    long long row = e / d, j = e % d;
    V acc = (V) 0;
    if (row != padding)
      {
        long long s = wb_bound (keys, n, 1, row, false), end = wb_bound (keys, n, 1, row, true);
        V f = scale ? (V) 1 / (V) (end - s) : (V) 1;
        for (; s < end; s++)
          acc += T::ld (g, pos[s] * d + j) * f;
      }
    T::st (out, e, acc);
  }
}

// -- cumsum over the middle dim of a contiguous [outer, len, inner]

// a thread per row
template <typename T>
static __device__ void wb_cumsum_rows (const typename T::S *a, typename T::S *out, long long outer, long long len, long long inner)
{
  typedef typename T::A A;
  WB_GRID_STRIDE (row, outer * inner)
  {
    long long base = (row / inner) * len * inner + row % inner;
    A run = 0;
    for (long long k = 0; k < len; k++)
      {
        run += (A) T::ld (a, base + k * inner);
        T::st (out, base + k * inner, (typename T::V) run);
      }
  }
}

#define WB_SCAN_ITEMS 8

// a block per row: each thread scans 8 consecutive elements, the warps scan the threads' totals with
// shuffles, warp 0 the warps' totals; the row's running total carries from tile to tile
template <typename T>
static __device__ void wb_cumsum_block (const typename T::S *a, typename T::S *out, long long outer, long long len, long long inner)
{
  typedef typename T::A A;
  __shared__ A warp_total[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, n_warps = blockDim.x >> 5;
  for (long long row = blockIdx.x; row < outer * inner; row += gridDim.x)
    {
      long long base = (row / inner) * len * inner + row % inner;
      A carry = 0;
      for (long long t0 = 0; t0 < len; t0 += (long long) blockDim.x * WB_SCAN_ITEMS)
        {
          long long k0 = t0 + (long long) threadIdx.x * WB_SCAN_ITEMS;
          A v[WB_SCAN_ITEMS], mine = 0, s;
          for (int j = 0; j < WB_SCAN_ITEMS; j++)
            {
              if (k0 + j < len)
                mine += (A) T::ld (a, base + (k0 + j) * inner);
              v[j] = mine;
            }
          A excl;
          s = mine;
          for (int d = 1; d < 32; d <<= 1)
            {
              A y = __shfl_up_sync (0xffffffffu, s, d);
              if (lane >= d)
                s += y;
            }
          excl = __shfl_up_sync (0xffffffffu, s, 1);
          if (lane == 0)
            excl = 0;
          if (lane == 31)
            warp_total[warp] = s;
          __syncthreads ();
          if (warp == 0)
            {
              A w = lane < n_warps ? warp_total[lane] : (A) 0;
              for (int d = 1; d < 32; d <<= 1)
                {
                  A y = __shfl_up_sync (0xffffffffu, w, d);
                  if (lane >= d)
                    w += y;
                }
              if (lane < n_warps)
                warp_total[lane] = w;
            }
          __syncthreads ();
          {
            A before = carry + (warp > 0 ? warp_total[warp - 1] : (A) 0) + excl;
            for (int j = 0; j < WB_SCAN_ITEMS; j++)
              if (k0 + j < len)
                T::st (out, base + (k0 + j) * inner, (typename T::V) (before + v[j]));
          }
          carry += warp_total[n_warps - 1];
          __syncthreads ();
        }
    }
}

// -- kl_div: pointwise target * (log target - input) (0 where target is 0, NaN below), or with log_target
// exp(target) * (target - input)
static __device__ __forceinline__ double wb_kl (double x, double t, int log_target)
{
  if (log_target)
    return exp (t) * (t - x);
  return t > 0 ? t * (log (t) - x) : (t == 0 ? 0.0 : WB_NAN_D);
}

template <typename T>
static __device__ void wb_kl_div (const typename T::S *x, const typename T::S *t, typename T::S *out, long long n, int log_target)
{
  WB_GRID_STRIDE (e, n)
  T::st (out, e, wb_from_d<T> (wb_kl ((double) T::ld (x, e), (double) T::ld (t, e), log_target)));
}

// each block's sum (a fixed grid: the same partials every run) into partial[blockIdx.x]
template <typename T>
static __device__ void wb_kl_div_partial (const typename T::S *x, const typename T::S *t, double *partial, long long n, int log_target)
{
  __shared__ double sum[256];
  double mine = 0.0;
  WB_GRID_STRIDE (e, n)
  mine += wb_kl ((double) T::ld (x, e), (double) T::ld (t, e), log_target);
  sum[threadIdx.x] = mine;
  __syncthreads ();
  for (int m = blockDim.x / 2; m > 0; m >>= 1)
    {
      if (threadIdx.x < m)
        sum[threadIdx.x] += sum[threadIdx.x + m];
      __syncthreads ();
    }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sum[0];
}

// out[0] = the @n partials added in order of block, divided by @divisor
template <typename T>
static __device__ void wb_kl_div_finish (const double *partial, typename T::S *out, long long n, double divisor)
{
  __shared__ double sum[256];
  double mine = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x)
    mine += partial[i];
  sum[threadIdx.x] = mine;
  __syncthreads ();
  for (int m = blockDim.x / 2; m > 0; m >>= 1)
    {
      if (threadIdx.x < m)
        sum[threadIdx.x] += sum[threadIdx.x + m];
      __syncthreads ();
    }
  if (threadIdx.x == 0 && blockIdx.x == 0)
    T::st (out, 0, wb_from_d<T> (sum[0] / divisor));
}

// -- kl_div_vjp: both gradients of kl_div in one pass, in double as the cpu's op_kl_div_vjp. With h = g / divisor
// (g elementwise when g_step is 1, else its one element): grad_input = -target * h, grad_target =
// (log target + 1 - input) * h, NaN where target is 0 (PyTorch's autograd: xlogy's target / target); with
// log_target -exp(target) * h and exp(target) * (target - input + 1) * h
template <typename T>
static __device__ void wb_kl_div_vjp (const typename T::S *x, const typename T::S *t, const typename T::S *g, typename T::S *gi,
                                      typename T::S *gt, long long n, long long g_step, double divisor, int log_target)
{
  WB_GRID_STRIDE (e, n)
  {
    double xi = (double) T::ld (x, e), ti = (double) T::ld (t, e), h = (double) T::ld (g, e * g_step) / divisor, a, b;
    if (log_target)
      {
        double ex = exp (ti);
        a = -ex * h;
        b = ex * (ti - xi + 1.0) * h;
      }
    else
      {
        a = -ti * h;
        b = ti == 0.0 ? WB_NAN_D : (log (ti) + 1.0 - xi) * h;
      }
    T::st (gi, e, wb_from_d<T> (a));
    T::st (gt, e, wb_from_d<T> (b));
  }
}

// -- the entries
#define WB_INDEX_ENTRIES(N, T)                                                                                                       \
  extern "C" __global__ void __launch_bounds__ (256) wb_index_add_##N (const T::S *a, const T::S *value, const long long *keys,     \
                                                                      const long long *pos, T::S *out, long long outer, long long R, \
                                                                      long long inner, long long J)                                 \
  { wb_index_add<T> (a, value, keys, pos, out, outer, R, inner, J); }                                                              \
  extern "C" __global__ void __launch_bounds__ (256) wb_scatter_add_##N (const T::S *a, const T::S *src, const long long *keys,     \
                                                                        const long long *pos, T::S *out, long long n,               \
                                                                        WbScatterGeom g)                                            \
  { wb_scatter_add<T> (a, src, keys, pos, out, n, g); }                                                                            \
  extern "C" __global__ void __launch_bounds__ (256) wb_embedding_##N (const T::S *weight, const long long *idx, T::S *out, long long n, \
                                                                      long long d, long long num)                                   \
  { wb_embedding<T> (weight, idx, out, n, d, num); }                                                                               \
  extern "C" __global__ void __launch_bounds__ (256) wb_cumsum_rows_##N (const T::S *a, T::S *out, long long outer, long long len,  \
                                                                        long long inner)                                            \
  { wb_cumsum_rows<T> (a, out, outer, len, inner); }                                                                               \
  extern "C" __global__ void __launch_bounds__ (256) wb_cumsum_block_##N (const T::S *a, T::S *out, long long outer, long long len, \
                                                                         long long inner)                                           \
  { wb_cumsum_block<T> (a, out, outer, len, inner); }
#define WB_FLOAT_INDEX_ENTRIES(N, T)                                                                                                          \
  extern "C" __global__ void __launch_bounds__ (256) wb_kl_div_##N (const T::S *x, const T::S *t, T::S *out, long long n,           \
                                                                   int log_target)                                                  \
  { wb_kl_div<T> (x, t, out, n, log_target); }                                                                                     \
  extern "C" __global__ void __launch_bounds__ (256) wb_kl_div_partial_##N (const T::S *x, const T::S *t, double *partial,         \
                                                                           long long n, int log_target)                             \
  { wb_kl_div_partial<T> (x, t, partial, n, log_target); }                                                                         \
  extern "C" __global__ void __launch_bounds__ (256) wb_kl_div_finish_##N (const double *partial, T::S *out, long long n,          \
                                                                          double divisor)                                           \
  { wb_kl_div_finish<T> (partial, out, n, divisor); }                                                                              \
  extern "C" __global__ void __launch_bounds__ (256) wb_kl_div_vjp_##N (const T::S *x, const T::S *t, const T::S *g, T::S *gi,       \
                                                                       T::S *gt, long long n, long long g_step, double divisor,     \
                                                                       int log_target)                                              \
  { wb_kl_div_vjp<T> (x, t, g, gi, gt, n, g_step, divisor, log_target); }                                                          \
  extern "C" __global__ void __launch_bounds__ (256) wb_embedding_backward_##N (const T::S *g, const long long *keys,                \
                                                                               const long long *pos, T::S *out, long long num,      \
                                                                               long long d, long long n, long long padding,         \
                                                                               int scale)                                           \
  { wb_embedding_backward<T> (g, keys, pos, out, num, d, n, padding, scale); }

WB_INDEX_ENTRIES (f64, WbF64)
WB_INDEX_ENTRIES (f32, WbF32)
WB_INDEX_ENTRIES (bf16, WbBF16)
WB_INDEX_ENTRIES (f16, WbF16)
WB_INDEX_ENTRIES (i64, WbI64)
WB_INDEX_ENTRIES (i32, WbI32)
WB_INDEX_ENTRIES (i16, WbI16)
WB_INDEX_ENTRIES (i8, WbI8)
WB_INDEX_ENTRIES (u8, WbU8)
WB_FLOAT_INDEX_ENTRIES (f64, WbF64)
WB_FLOAT_INDEX_ENTRIES (f32, WbF32)
WB_FLOAT_INDEX_ENTRIES (bf16, WbBF16)
WB_FLOAT_INDEX_ENTRIES (f16, WbF16)
