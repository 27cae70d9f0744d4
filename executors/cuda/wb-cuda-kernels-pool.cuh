// wb-cuda-kernels-pool.cuh — pooling kernels of the per-op cuda executor (launched by wb-cuda-kernels-pool.c):
// max pooling with indices and its backward, adaptive average pooling and its backward
// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled as one unit after wb-cuda-prelude.cuh and wb-cuda-kernels-common.cuh (no #include). Semantics are
// the cpu executor's (executors/cpu/wb-cpu-pool.c), with sums in the dtype's class V (float for f32, bf16 and
// f16; double for f64) instead of double:
//   layout   the input is contiguous [planes, in0, in1, in2]: 1 to 3 trailing spatial dims, padded to 3 with
//            leading dims of 1; every plane (batch and channel) is independent. Outputs [planes, out0..2].
//   max      windows padded with -inf; the first maximum wins, a NaN wins and ends the window; the index is
//            the flat position in the input plane, stored in the input's dtype as Thunder types it.
//   adaptive output o of a dim averages input [floor(o * in / out), ceil((o + 1) * in / out)).
//   backward deterministic: one thread per input element gathers, in ascending output order, from the
//            outputs whose windows hold it (max: those whose index names it), never an atomic add.

struct WbPoolGeom
{
  long long planes, in[3], out[3], k[3], stride[3], pad[3], dil[3];
};

static __device__ __forceinline__ long long wb_floor_div (long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// the flat position of (d, h, w) in a plane of @n
static __device__ __forceinline__ long long wb_flat3 (const long long n[3], long long d, long long h, long long w) { return (d * n[1] + h) * n[2] + w; }

// the outputs of one dim whose windows may hold input @x: [*lo, *hi]
static __device__ __forceinline__ void wb_max_range (const WbPoolGeom &g, int i, long long x, long long *lo, long long *hi)
{
  long long first = x + g.pad[i] - (g.k[i] - 1) * g.dil[i];
  *lo = first <= 0 ? 0 : (first + g.stride[i] - 1) / g.stride[i];
  *hi = wb_floor_div (x + g.pad[i], g.stride[i]);
  if (*hi > g.out[i] - 1)
    *hi = g.out[i] - 1;
}

// whether the window of output @o of dim @i holds input @x (on its dilation lattice)
static __device__ __forceinline__ bool wb_max_holds (const WbPoolGeom &g, int i, long long o, long long x)
{
  long long r = x + g.pad[i] - o * g.stride[i];
  return x >= 0 && x < g.in[i] && r >= 0 && r % g.dil[i] == 0 && r / g.dil[i] < g.k[i];
}

template <typename T>
static __device__ void wb_max_pool (const typename T::S *a, typename T::S *out, typename T::S *idx, WbPoolGeom g)
{
  typedef typename T::V V;
  const long long plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  WB_GRID_STRIDE (e, g.planes * plane_out)
  {
    long long p = e / plane_out, o = e % plane_out;
    long long od = o / (g.out[1] * g.out[2]), oh = (o / g.out[2]) % g.out[1], ow = o % g.out[2];
    V best = (V) -WB_INF_D;
    long long at = -1;
    bool nan = false;
    for (long long kd = 0; kd < g.k[0] && !nan; kd++)
      for (long long kh = 0; kh < g.k[1] && !nan; kh++)
        for (long long kw = 0; kw < g.k[2] && !nan; kw++)
          {
            long long d = od * g.stride[0] - g.pad[0] + kd * g.dil[0], h = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
            long long w = ow * g.stride[2] - g.pad[2] + kw * g.dil[2];
            if (d < 0 || d >= g.in[0] || h < 0 || h >= g.in[1] || w < 0 || w >= g.in[2])
              continue;
            long long flat = wb_flat3 (g.in, d, h, w);
            V v = T::ld (a, p * plane_in + flat);
            if (at < 0 || v > best || v != v)
              best = v, at = flat, nan = v != v;
          }
    T::st (out, e, best);
    T::st (idx, e, (V) at);
  }
}

// gin[p, x] = the sum of g[p, o] over the outputs o, ascending, whose window holds x and whose index is x
template <typename T>
static __device__ void wb_max_pool_backward (const typename T::S *go, const long long *idx, typename T::S *gin, WbPoolGeom g)
{
  typedef typename T::V V;
  const long long plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  WB_GRID_STRIDE (e, g.planes * plane_in)
  {
    long long p = e / plane_in, x = e % plane_in;
    long long xs[3] = { x / (g.in[1] * g.in[2]), (x / g.in[2]) % g.in[1], x % g.in[2] }, lo[3], hi[3];
    V acc = (V) 0;
    for (int i = 0; i < 3; i++)
      wb_max_range (g, i, xs[i], &lo[i], &hi[i]);
    for (long long od = lo[0]; od <= hi[0]; od++)
      for (long long oh = lo[1]; oh <= hi[1]; oh++)
        for (long long ow = lo[2]; ow <= hi[2]; ow++)
          {
            long long o = p * plane_out + wb_flat3 (g.out, od, oh, ow);
            if (idx[o] == x)
              acc += T::ld (go, o);
          }
    T::st (gin, e, acc);
  }
}

// the checked run's test of the saved indices: each inside the plane and its output's window (what the
// gather above assumes; the cpu would scatter anywhere in the plane), else recorded (wb_index_bad)
extern "C" __global__ void __launch_bounds__ (256) wb_max_pool_check (const long long *idx, WbPoolGeom g)
{
  const long long plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  WB_GRID_STRIDE (e, g.planes * plane_out)
  {
    long long o = e % plane_out, at = idx[e];
    long long os[3] = { o / (g.out[1] * g.out[2]), (o / g.out[2]) % g.out[1], o % g.out[2] };
    bool ok = at >= 0 && at < plane_in;
    if (ok)
      {
        long long xs[3] = { at / (g.in[1] * g.in[2]), (at / g.in[2]) % g.in[1], at % g.in[2] };
        for (int i = 0; i < 3; i++)
          ok = ok && wb_max_holds (g, i, os[i], xs[i]);
      }
    if (!ok)
      wb_index_bad (at, plane_in);
  }
}

// the input window [lo, hi) of output @o of dim @i
static __device__ __forceinline__ void wb_adaptive_window (const WbPoolGeom &g, int i, long long o, long long *lo, long long *hi)
{
  *lo = o * g.in[i] / g.out[i];
  *hi = ((o + 1) * g.in[i] + g.out[i] - 1) / g.out[i];
}

template <typename T>
static __device__ void wb_adaptive_avg (const typename T::S *a, typename T::S *out, WbPoolGeom g)
{
  typedef typename T::V V;
  const long long plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  WB_GRID_STRIDE (e, g.planes * plane_out)
  {
    long long p = e / plane_out, o = e % plane_out;
    long long os[3] = { o / (g.out[1] * g.out[2]), (o / g.out[2]) % g.out[1], o % g.out[2] }, lo[3], hi[3];
    V sum = (V) 0;
    for (int i = 0; i < 3; i++)
      wb_adaptive_window (g, i, os[i], &lo[i], &hi[i]);
    for (long long d = lo[0]; d < hi[0]; d++)
      for (long long h = lo[1]; h < hi[1]; h++)
        for (long long w = lo[2]; w < hi[2]; w++)
          sum += T::ld (a, p * plane_in + wb_flat3 (g.in, d, h, w));
    T::st (out, e, sum / (V) ((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])));
  }
}

// gin[p, x] = the sum of g[p, o] / |window of o| over the outputs o, ascending, whose window holds x
template <typename T>
static __device__ void wb_adaptive_avg_backward (const typename T::S *go, typename T::S *gin, WbPoolGeom g)
{
  typedef typename T::V V;
  const long long plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  WB_GRID_STRIDE (e, g.planes * plane_in)
  {
    long long p = e / plane_in, x = e % plane_in;
    long long xs[3] = { x / (g.in[1] * g.in[2]), (x / g.in[2]) % g.in[1], x % g.in[2] }, olo[3], ohi[3];
    V acc = (V) 0;
    // the outputs whose windows hold x lie in [x * out / in, ((x + 1) * out - 1) / in + 1): one more on each
    // side, each tested against its own window
    for (int i = 0; i < 3; i++)
      {
        olo[i] = xs[i] * g.out[i] / g.in[i] - 1;
        ohi[i] = ((xs[i] + 1) * g.out[i] + g.in[i] - 1) / g.in[i] + 1;
        olo[i] = olo[i] < 0 ? 0 : olo[i];
        ohi[i] = ohi[i] > g.out[i] ? g.out[i] : ohi[i];
      }
    for (long long od = olo[0]; od < ohi[0]; od++)
      for (long long oh = olo[1]; oh < ohi[1]; oh++)
        for (long long ow = olo[2]; ow < ohi[2]; ow++)
          {
            const long long os[3] = { od, oh, ow };
            long long lo, hi, size = 1;
            bool in = true;
            for (int i = 0; i < 3; i++)
              {
                wb_adaptive_window (g, i, os[i], &lo, &hi);
                in = in && xs[i] >= lo && xs[i] < hi;
                size *= hi - lo;
              }
            if (in)
              acc += T::ld (go, p * plane_out + wb_flat3 (g.out, od, oh, ow)) / (V) size;
          }
    T::st (gin, e, acc);
  }
}

// -- the entries: one per kernel and float dtype
#define WB_POOL_ENTRIES(N, T)                                                                                                    \
  extern "C" __global__ void __launch_bounds__ (256) wb_max_pool_##N (const T::S *a, T::S *out, T::S *idx, WbPoolGeom g)       \
  { wb_max_pool<T> (a, out, idx, g); }                                                                                          \
  extern "C" __global__ void __launch_bounds__ (256) wb_max_pool_backward_##N (const T::S *go, const long long *idx, T::S *gin, \
                                                                              WbPoolGeom g)                                     \
  { wb_max_pool_backward<T> (go, idx, gin, g); }                                                                                \
  extern "C" __global__ void __launch_bounds__ (256) wb_adaptive_avg_##N (const T::S *a, T::S *out, WbPoolGeom g)               \
  { wb_adaptive_avg<T> (a, out, g); }                                                                                           \
  extern "C" __global__ void __launch_bounds__ (256) wb_adaptive_avg_backward_##N (const T::S *go, T::S *gin, WbPoolGeom g)     \
  { wb_adaptive_avg_backward<T> (go, gin, g); }

WB_POOL_ENTRIES (f64, WbF64)
WB_POOL_ENTRIES (f32, WbF32)
WB_POOL_ENTRIES (bf16, WbBF16)
WB_POOL_ENTRIES (f16, WbF16)
