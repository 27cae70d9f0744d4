// bench-hand-probes.cu — hand-written kernels beside the generated ones of llama_layer nvrtcFusion13 (rotary backward)
// and nvrtcFusion10 (RMS-norm backward), and the bare access pattern of gpt2_block nvrtcFusion9 (layer-norm
// backward): what each access pattern and kernel shape reaches against cudaMemcpy.
// SPDX-License-Identifier: GPL-3.0-or-later
// Built by bench-hand-probes.sh (nvcc, with the generated kernels exported next to it); not part of the meson build
// (and not clang-formatted: it splits the <<< >>> of kernel launches).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
typedef unsigned short us;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf ("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString (e_)); exit (1); } } while (0)

extern "C" void launch_gen13 (const us *p0, const us *p3, const us *p1, const us *p2, const us *p4, us *p5);
extern "C" void launch_gen10n (const us *a, const us *b, const us *w, const us *c, const us *d, const float *rstd, float *rowsum, float *rowout, us *o0, float *o1,
                               float *colsum, us *colbf, float *ws, int *cnt);
extern "C" void launch_gen10 (const us *p0, const us *p1, const us *p3, const us *p5, const us *p4, const float *p2, float *p7, float *p11, us *p12, float *p13,
                              float *p6, us *p10, float *p8, int *p9);

__device__ __forceinline__ float bf (us h) { return __uint_as_float ((unsigned) h << 16); }
__device__ __forceinline__ float rb (float f)
{
  unsigned u;
  asm ("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(f), "f"(0.0f));
  return __uint_as_float (u);
}
__device__ __forceinline__ us tobf (float f) { return (us) (__float_as_uint (rb (f)) >> 16); }
template <int V> struct alignas (2 * V) vh { us x[V]; };

// ---------------------------------------------------------------- rotary backward
#define RN 25165824
template <int V>
__global__ void __launch_bounds__ (256) rope_hand (const us *cs, const us *q, const us *sn, const us *k, const us *v, us *out)
{
  for (int B = ((int) blockIdx.x * 256 + (int) threadIdx.x) * V; B < RN; B += (int) gridDim.x * 256 * V)
    {
      const int row = B / 12288, c = B % 12288, h = c / 384, s = (c / 128) % 3, d = c % 128;
      const us *src = s == 0 ? q : s == 1 ? k : v;
      const int base = h * 262144 + row * 128;
      const vh<V> g = *(const vh<V> *) (src + base + d);
      vh<V> o;
      if (s == 2)
        o = g;
      else
        {
          const int pd = d ^ 64;
          const vh<V> gp = *(const vh<V> *) (src + base + pd);
          const vh<V> cv = *(const vh<V> *) (cs + row * 128 + d);
          const vh<V> sv = *(const vh<V> *) (sn + row * 128 + pd);
#pragma unroll
          for (int l = 0; l < V; l++)
            {
              float t1 = rb (bf (g.x[l]) * bf (cv.x[l]));
              float p = rb (bf (gp.x[l]) * bf (sv.x[l]));
              float r = d >= 64 ? rb (rb (t1 + rb (-p)) + 0.0f) : rb (rb (t1 + 0.0f) + p);
              o.x[l] = tobf (r);
            }
        }
      *(vh<V> *) (out + B) = o;
    }
}
// cat branches merged by a pointer select, the pads still branches (loads in their rounds)
__global__ void __launch_bounds__ (256) rope_sel_padbr (const us *cs, const us *q, const us *sn, const us *k, const us *v, us *out)
{
  for (int B = ((int) blockIdx.x * 256 + (int) threadIdx.x) * 8; B < RN; B += (int) gridDim.x * 2048)
    {
      const int row = B / 12288, c = B % 12288, h = c / 384, s = (c / 128) % 3, d = c % 128;
      const int base = h * 262144 + row * 128;
      vh<8> o;
      if (s < 2)
        {
          const us *src = s == 0 ? q : k;
          const vh<8> g = *(const vh<8> *) (src + base + d);
          const vh<8> cv = *(const vh<8> *) (cs + row * 128 + d);
          float t1[8], p1[8], p2[8];
#pragma unroll
          for (int l = 0; l < 8; l++)
            t1[l] = rb (bf (g.x[l]) * bf (cv.x[l])), p1[l] = 0.0f, p2[l] = 0.0f;
          if (d >= 64)
            {
              const vh<8> gp = *(const vh<8> *) (src + base + d - 64);
              const vh<8> sv = *(const vh<8> *) (sn + row * 128 + d - 64);
#pragma unroll
              for (int l = 0; l < 8; l++)
                p1[l] = rb (-rb (bf (gp.x[l]) * bf (sv.x[l])));
            }
          if (d < 64)
            {
              const vh<8> gp = *(const vh<8> *) (src + base + d + 64);
              const vh<8> sv = *(const vh<8> *) (sn + row * 128 + d + 64);
#pragma unroll
              for (int l = 0; l < 8; l++)
                p2[l] = rb (bf (gp.x[l]) * bf (sv.x[l]));
            }
#pragma unroll
          for (int l = 0; l < 8; l++)
            o.x[l] = tobf (rb (rb (t1[l] + p1[l]) + p2[l]));
        }
      else
        o = *(const vh<8> *) (v + base + d);
      *(vh<8> *) (out + B) = o;
    }
}
// the access pattern alone: out row = the three gradients' heads side by side
__global__ void __launch_bounds__ (256) rope_gather (const us *q, const us *k, const us *v, us *out)
{
  for (int B = ((int) blockIdx.x * 256 + (int) threadIdx.x) * 8; B < RN; B += (int) gridDim.x * 2048)
    {
      const int row = B / 12288, c = B % 12288, h = c / 384, s = (c / 128) % 3, d = c % 128;
      const us *src = s == 0 ? q : s == 1 ? k : v;
      *(vh<8> *) (out + B) = *(const vh<8> *) (src + h * 262144 + row * 128 + d);
    }
}
// a block: rows 16 * (bid / 96) .. + 16 of head part bid % 96 (= h * 3 + s): 4 KB read in one piece
__global__ void __launch_bounds__ (256) rope_gather_tiled (const us *q, const us *k, const us *v, us *out)
{
  const int hs = blockIdx.x % 96, h = hs / 3, s = hs % 3, row = (blockIdx.x / 96) * 16 + threadIdx.x / 16, d = (threadIdx.x % 16) * 8;
  const us *src = s == 0 ? q : s == 1 ? k : v;
  *(vh<8> *) (out + row * 12288 + hs * 128 + d) = *(const vh<8> *) (src + h * 262144 + row * 128 + d);
}
__global__ void __launch_bounds__ (256) rope_tiled (const us *cs, const us *q, const us *sn, const us *k, const us *v, us *out)
{
  const int hs = blockIdx.x % 96, h = hs / 3, s = hs % 3, row = (blockIdx.x / 96) * 16 + threadIdx.x / 16, d = (threadIdx.x % 16) * 8;
  const us *src = s == 0 ? q : s == 1 ? k : v;
  const int base = h * 262144 + row * 128;
  const vh<8> g = *(const vh<8> *) (src + base + d);
  vh<8> o;
  if (s == 2)
    o = g;
  else
    {
      const int pd = d ^ 64;
      const vh<8> gp = *(const vh<8> *) (src + base + pd);
      const vh<8> cv = *(const vh<8> *) (cs + row * 128 + d);
      const vh<8> sv = *(const vh<8> *) (sn + row * 128 + pd);
#pragma unroll
      for (int l = 0; l < 8; l++)
        {
          float t1 = rb (bf (g.x[l]) * bf (cv.x[l]));
          float p = rb (bf (gp.x[l]) * bf (sv.x[l]));
          float r = d >= 64 ? rb (rb (t1 + rb (-p)) + 0.0f) : rb (rb (t1 + 0.0f) + p);
          o.x[l] = tobf (r);
        }
    }
  *(vh<8> *) (out + row * 12288 + hs * 128 + d) = o;
}
// the generated kernel's walk (warps of 4 rows x 8 vectors) by hand, every load first (one partner load, d ^ 64),
// the arithmetic in f32 as the trace's (BF2 false) or in bf16x2 (BF2 true: mul.rn / add.rn .bf16x2, sm_90; for
// bf16 operands one rounding of the exact product or sum, what the f32 op and its conversion to bf16 compute)
struct alignas (16) w4 { unsigned w[4]; };
__device__ __forceinline__ float wlo (unsigned w) { return __uint_as_float (w << 16); }
__device__ __forceinline__ float whi (unsigned w) { return __uint_as_float (w & 0xffff0000u); }
__device__ __forceinline__ unsigned pack2 (float a, float b) { unsigned u; asm ("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(b), "f"(a)); return u; }
__device__ __forceinline__ unsigned mul2 (unsigned a, unsigned b) { unsigned d; asm ("mul.rn.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned add2 (unsigned a, unsigned b) { unsigned d; asm ("add.rn.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned canon2 (unsigned w) /* NaN halves -> 0x7FC0, the cpu executor's store */
{
  unsigned l = w & 0xffffu, h = w >> 16;
  l = (l & 0x7fffu) > 0x7f80u ? 0x7fc0u : l;
  h = (h & 0x7fffu) > 0x7f80u ? 0x7fc0u : h;
  return l | (h << 16);
}
template <bool BF2>
__global__ void __launch_bounds__ (256) rope_rows (const us *cs, const us *q, const us *sn, const us *k, const us *v, us *out)
{
  for (int Q = (int) blockIdx.x * 256 + (int) threadIdx.x; Q < RN / 8; Q += (int) gridDim.x * 256)
    {
      const int B = ((Q / 6144) * 6144 + ((Q % 32) / 8) * 1536 + ((Q / 32) % 192) * 8 + (Q % 8)) * 8;
      const int row = B / 12288, c = B % 12288, h = c / 384, s = (c / 128) % 3, d = c % 128;
      w4 o;
      if (s < 2)
        {
          const us *src = s == 0 ? q : k;
          const int base = h * 262144 + row * 128, pd = d ^ 64;
          const w4 g = *(const w4 *) (src + base + d), cv = *(const w4 *) (cs + row * 128 + d);
          const w4 gp = *(const w4 *) (src + base + pd), sv = *(const w4 *) (sn + row * 128 + pd);
#pragma unroll
          for (int l = 0; l < 4; l++)
            if (BF2)
              {
                const unsigned t = mul2 (g.w[l], cv.w[l]), p = mul2 (gp.w[l], sv.w[l]);
                o.w[l] = canon2 (d >= 64 ? add2 (add2 (t, p ^ 0x80008000u), 0u) : add2 (add2 (t, 0u), p));
              }
            else
              {
                float r[2];
#pragma unroll
                for (int e = 0; e < 2; e++)
                  {
                    const float t = rb ((e ? whi (g.w[l]) : wlo (g.w[l])) * (e ? whi (cv.w[l]) : wlo (cv.w[l])));
                    const float p = rb ((e ? whi (gp.w[l]) : wlo (gp.w[l])) * (e ? whi (sv.w[l]) : wlo (sv.w[l])));
                    r[e] = d >= 64 ? rb (rb (t + (-p)) + 0.0f) : rb (rb (t + 0.0f) + p);
                  }
                o.w[l] = canon2 (pack2 (r[0], r[1]));
              }
        }
      else
        {
          const w4 g = *(const w4 *) (v + h * 262144 + row * 128 + d);
#pragma unroll
          for (int l = 0; l < 4; l++)
            o.w[l] = canon2 (g.w[l]);
        }
      *(w4 *) (out + B) = o;
    }
}
__global__ void __launch_bounds__ (256) copy16 (const uint4 *a, uint4 *b, int n)
{
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    b[i] = a[i];
}

// ---------------------------------------------------------------- RMS-norm backward, one pass
// a thread owns columns st * 2048 + t * 8 + l; the rows walked by a persistent grid; row sums kept per warp in
// shared memory and added after the walk (no barrier a row); column partials [G, 4096], added by rms_combine
template <int BPS>
__global__ void __launch_bounds__ (256, BPS) rms_mix (const us *p0, const us *p1, const us *p3, const us *p5, const us *p4, const float *p2, float *p7, float *p11, us *p12,
                                                       float *p13, float *part)
{
  __shared__ float rp[16][8];
  const int t = threadIdx.x, warp = t / 32;
  float cacc[16];
#pragma unroll
  for (int i = 0; i < 16; i++)
    cacc[i] = 0.0f;
  const vh<8> w0 = *(const vh<8> *) (p3 + t * 8), w1 = *(const vh<8> *) (p3 + 2048 + t * 8);
  int it = 0;
  for (int row = blockIdx.x; row < 2048; row += gridDim.x, it++)
    {
      const float rstd = p2[row];
      float racc = 0.0f;
      vh<8> A[2], Bv[2], C[2], D[2];
#pragma unroll
      for (int st = 0; st < 2; st++)
        {
          const int E = row * 4096 + st * 2048 + t * 8;
          A[st] = *(const vh<8> *) (p0 + E);
          Bv[st] = *(const vh<8> *) (p1 + E);
          C[st] = *(const vh<8> *) (p5 + E);
          D[st] = *(const vh<8> *) (p4 + E);
        }
#pragma unroll
      for (int st = 0; st < 2; st++)
        {
          const int E = row * 4096 + st * 2048 + t * 8;
          const vh<8> &w = st == 0 ? w0 : w1;
          vh<8> o0;
          float o1[8];
#pragma unroll
          for (int l = 0; l < 8; l++)
            {
              const float x = rb (bf (A[st].x[l]) + bf (Bv[st].x[l]));
              const float gy = rb (bf (C[st].x[l]) + bf (D[st].x[l]));
              const float wl = bf (w.x[l]);
              o0.x[l] = tobf ((x * rstd) * wl);
              const float wg = wl * gy;
              o1[l] = rstd * wg;
              racc = racc + x * wg;
              cacc[st * 8 + l] = cacc[st * 8 + l] + (x * rstd) * gy;
            }
          *(vh<8> *) (p12 + E) = o0;
          *(float4 *) (p13 + E) = make_float4 (o1[0], o1[1], o1[2], o1[3]);
          *(float4 *) (p13 + E + 4) = make_float4 (o1[4], o1[5], o1[6], o1[7]);
        }
#pragma unroll
      for (int m = 16; m > 0; m /= 2)
        racc += __shfl_xor_sync (0xffffffffu, racc, m);
      if ((t & 31) == 0)
        rp[it][warp] = racc;
    }
  __syncthreads ();
  if (t < it)
    {
      float s = 0.0f;
      for (int w = 0; w < 8; w++)
        s += rp[t][w];
      const int row = blockIdx.x + t * gridDim.x;
      p7[row] = s;
      p11[row] = -0.5f * s;
    }
#pragma unroll
  for (int st = 0; st < 2; st++)
    {
      float4 *dst = (float4 *) (part + (size_t) blockIdx.x * 4096 + st * 2048 + t * 8);
      dst[0] = make_float4 (cacc[st * 8], cacc[st * 8 + 1], cacc[st * 8 + 2], cacc[st * 8 + 3]);
      dst[1] = make_float4 (cacc[st * 8 + 4], cacc[st * 8 + 5], cacc[st * 8 + 6], cacc[st * 8 + 7]);
    }
}
// a block per 32 columns: 8 groups of rows interleaved, then the groups in order (the generator's combine tile)
__global__ void __launch_bounds__ (256) rms_combine2 (const float *part, int G, float *p6, us *p10)
{
  __shared__ float sm[256];
  const int x = threadIdx.x % 32, qq = threadIdx.x / 32, col = blockIdx.x * 32 + x;
  float s = 0.0f;
#pragma unroll 8
  for (int i = qq; i < G; i += 8)
    s += __ldcg (&part[(size_t) i * 4096 + col]);
  sm[threadIdx.x] = s;
  __syncthreads ();
  if (qq == 0)
    {
      for (int g = 1; g < 8; g++)
        s += sm[x + 32 * g];
      p6[col] = s;
      p10[col] = tobf (s);
    }
}
__global__ void __launch_bounds__ (256) rms_combine (const float *part, int G, float *p6, us *p10)
{
  const int col = blockIdx.x * 256 + threadIdx.x;
  float s = 0.0f;
  for (int i = 0; i < G; i++)
    s += __ldcg (&part[(size_t) i * 4096 + col]);
  p6[col] = s;
  p10[col] = tobf (s);
}

// ---------------------------------------------------------------- gpt2_block nvrtcFusion9's access pattern
// What the layer-norm backward's bytes alone allow: read 4 bf16 [8192, 768], write 2 bf16 and 1 f32 of that shape
// (the region's traffic before the backward rematerialization rule, 100.8 MB), a few adds and no reduction: as its
// row walk (8 rows a block of 256 threads, a warp a row, 3 steps of 8 columns) and as a flat grid-stride loop.
#define PN (8192 * 768)
__device__ __forceinline__ void pat_one (const us *a, const us *b, const us *c, const us *d, us *o0, us *o1, float *o2, int e)
{
  vh<8> A = *(const vh<8> *) (a + e), B = *(const vh<8> *) (b + e), C = *(const vh<8> *) (c + e), D = *(const vh<8> *) (d + e), O0, O1;
  float4 F0, F1;
  float *f0 = &F0.x, *f1 = &F1.x;
  for (int l = 0; l < 8; l++)
    {
      float x = bf (A.x[l]) + bf (B.x[l]);
      O0.x[l] = tobf (x * bf (C.x[l]));
      O1.x[l] = tobf (x + bf (D.x[l]));
      (l < 4 ? f0 : f1)[l % 4] = x;
    }
  *(vh<8> *) (o0 + e) = O0;
  *(vh<8> *) (o1 + e) = O1;
  *(float4 *) (o2 + e) = F0;
  *(float4 *) (o2 + e + 4) = F1;
}
template <int BPS>
__global__ void __launch_bounds__ (256, BPS) pat_walk (const us *a, const us *b, const us *c, const us *d, us *o0, us *o1, float *o2)
{
  const int lane = threadIdx.x % 32;
  for (int ob = blockIdx.x * 8; ob < 8192; ob += gridDim.x * 8)
    {
      const int o = ob + threadIdx.x / 32;
#pragma unroll
      for (int st = 0; st < 3; st++)
        pat_one (a, b, c, d, o0, o1, o2, o * 768 + st * 256 + lane * 8);
    }
}
__global__ void __launch_bounds__ (256) pat_flat (const us *a, const us *b, const us *c, const us *d, us *o0, us *o1, float *o2)
{
  for (int e = (blockIdx.x * 256 + threadIdx.x) * 8; e < PN; e += gridDim.x * 256 * 8)
    pat_one (a, b, c, d, o0, o1, o2, e);
}

// ---------------------------------------------------------------- harness
static std::vector<us> rand_bf16 (size_t n, unsigned seed)
{
  std::vector<us> v (n);
  srand (seed);
  for (size_t i = 0; i < n; i++)
    {
      float f = (float) rand () / RAND_MAX * 2.0f - 1.0f;
      unsigned u;
      memcpy (&u, &f, 4);
      v[i] = (us) (u >> 16);
    }
  return v;
}
template <class T> static T *up (const std::vector<T> &h)
{
  T *d;
  CK (cudaMalloc (&d, h.size () * sizeof (T)));
  CK (cudaMemcpy (d, h.data (), h.size () * sizeof (T), cudaMemcpyHostToDevice));
  return d;
}
template <class F> static double time_ms (F f, int iters = 60)
{
  cudaEvent_t a, b;
  cudaEventCreate (&a);
  cudaEventCreate (&b);
  for (int i = 0; i < 5; i++)
    f ();
  std::vector<float> ts;
  for (int i = 0; i < iters; i++)
    {
      cudaEventRecord (a);
      f ();
      cudaEventRecord (b);
      cudaEventSynchronize (b);
      float ms;
      cudaEventElapsedTime (&ms, a, b);
      ts.push_back (ms);
    }
  CK (cudaGetLastError ());
  std::sort (ts.begin (), ts.end ());
  return ts[ts.size () / 2];
}
static double copy_gbs;
static void row (const char *name, double ms, double mb)
{
  double gbs = mb / 1e3 / (ms / 1e3);
  printf ("%-44s %8.4f ms %8.1f GB/s %5.0f%% of copy\n", name, ms, gbs, 100 * gbs / copy_gbs);
}
template <class T> static size_t diff (const T *a, const T *b, size_t n, double tol)
{
  std::vector<T> x (n), y (n);
  cudaMemcpy (x.data (), a, n * sizeof (T), cudaMemcpyDeviceToHost);
  cudaMemcpy (y.data (), b, n * sizeof (T), cudaMemcpyDeviceToHost);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    {
      double u, v;
      if (sizeof (T) == 2)
        {
          unsigned ua = (unsigned) *(const us *) &x[i] << 16, ub = (unsigned) *(const us *) &y[i] << 16;
          float fa, fb;
          memcpy (&fa, &ua, 4);
          memcpy (&fb, &ub, 4);
          u = fa, v = fb;
        }
      else
        u = (double) *(const float *) &x[i], v = (double) *(const float *) &y[i];
      if (fabs (u - v) > tol * (1 + fabs (v)))
        bad++;
    }
  return bad;
}

int main ()
{
  cudaDeviceProp p;
  CK (cudaGetDeviceProperties (&p, 0));
  const int sms = p.multiProcessorCount;
  printf ("%s, %d SMs\n", p.name, sms);
  // copy reference: 64 MB read + 64 MB written, as a kernel and as cudaMemcpy
  {
    size_t n = 256u << 20;
    void *a, *b;
    CK (cudaMalloc (&a, n));
    CK (cudaMalloc (&b, n));
    cudaMemset (a, 1, n);
    double mk = time_ms ([&] { copy16<<<sms * 8, 256>>> ((const uint4 *) a, (uint4 *) b, (int) (n / 16)); });
    double mm = time_ms ([&] { cudaMemcpyAsync (b, a, n, cudaMemcpyDeviceToDevice); });
    copy_gbs = 2.0 * n / 1e9 / (mm / 1e3);
    printf ("copy: memcpy %.1f GB/s, kernel %.1f GB/s (read + written)\n", copy_gbs, 2.0 * n / 1e9 / (mk / 1e3));
    cudaFree (a);
    cudaFree (b);
  }
  // rotary backward
  {
    auto hc = rand_bf16 (2048 * 128, 1), hs = rand_bf16 (2048 * 128, 2), hq = rand_bf16 (32 * 2048 * 128, 3), hk = rand_bf16 (32 * 2048 * 128, 4),
         hv = rand_bf16 (32 * 2048 * 128, 5);
    us *c = up (hc), *s = up (hs), *q = up (hq), *k = up (hk), *v = up (hv), *o1, *o2;
    CK (cudaMalloc (&o1, RN * 2));
    CK (cudaMalloc (&o2, RN * 2));
    double mb = (3.0 * 32 * 2048 * 128 * 2 + 2 * 2048 * 128 * 2 + RN * 2.0) / 1e6;
    printf ("== llama_layer nvrtcFusion13 (rotary backward), %.1f MB\n", mb);
    row ("generated (V=8, branches)", time_ms ([&] { launch_gen13 (c, q, s, k, v, o1); }), mb);
    for (int gm : { 4224, sms * 8, sms * 16 })
      {
        char nm[64];
        snprintf (nm, sizeof nm, "hand V=8 select, grid %d", gm);
        row (nm, time_ms ([&] { rope_hand<8><<<gm, 256>>> (c, q, s, k, v, o2); }), mb);
      }
    printf ("  hand V=8 vs generated: %zu of %d differ\n", diff (o1, o2, RN, 0), RN);
    row ("hand V=4 select, grid 8448", time_ms ([&] { rope_hand<4><<<8448, 256>>> (c, q, s, k, v, o2); }), mb);
    printf ("  hand V=4 vs generated: %zu of %d differ\n", diff (o1, o2, RN, 0), RN);
    row ("hand V=8 select, pads as branches", time_ms ([&] { rope_sel_padbr<<<4224, 256>>> (c, q, s, k, v, o2); }), mb);
    printf ("  vs generated: %zu of %d differ\n", diff (o1, o2, RN, 0), RN);
    row ("gather only (no rotation), grid 4224", time_ms ([&] { rope_gather<<<4224, 256>>> (q, k, v, o2); }), mb);
    row ("contiguous copy, 50 MB read + written", time_ms ([&] { copy16<<<4224, 256>>> ((const uint4 *) o1, (uint4 *) o2, RN / 8); }), 4.0 * RN / 1e6);
    row ("tiled gather: 16 rows x one head a block", time_ms ([&] { rope_gather_tiled<<<(2048 / 16) * 96, 256>>> (q, k, v, o2); }), mb);
    row ("tiled hand V=8: 16 rows x one head a block", time_ms ([&] { rope_tiled<<<(2048 / 16) * 96, 256>>> (c, q, s, k, v, o2); }), mb);
    printf ("  tiled hand vs generated: %zu of %d differ\n", diff (o1, o2, RN, 0), RN);
    row ("hand, the generated walk, loads first, f32", time_ms ([&] { rope_rows<false><<<4224, 256>>> (c, q, s, k, v, o2); }), mb);
    printf ("  vs generated: %zu of %d differ\n", diff (o1, o2, RN, 0), RN);
    row ("hand, the generated walk, loads first, bf16x2", time_ms ([&] { rope_rows<true><<<4224, 256>>> (c, q, s, k, v, o2); }), mb);
    printf ("  vs generated: %zu of %d differ\n", diff (o1, o2, RN, 0), RN);
    cudaFree (c), cudaFree (s), cudaFree (q), cudaFree (k), cudaFree (v), cudaFree (o1), cudaFree (o2);
  }
  // RMS-norm backward
  {
    const size_t N = 2048 * 4096;
    auto ha = rand_bf16 (N, 11), hb = rand_bf16 (N, 12), hc = rand_bf16 (N, 13), hd = rand_bf16 (N, 14), hw = rand_bf16 (4096, 15);
    std::vector<float> hr (2048);
    for (int i = 0; i < 2048; i++)
      hr[i] = 0.5f + (float) i / 4096;
    us *a = up (ha), *b = up (hb), *c = up (hc), *d = up (hd), *w = up (hw);
    float *r = up (hr);
    float *p7[2], *p11[2], *p13[2], *p6[2], *ws;
    us *p12[2], *p10[2];
    int *cnt;
    for (int i = 0; i < 2; i++)
      {
        CK (cudaMalloc (&p7[i], 2048 * 4));
        CK (cudaMalloc (&p11[i], 2048 * 4));
        CK (cudaMalloc (&p13[i], N * 4));
        CK (cudaMalloc (&p6[i], 4096 * 4));
        CK (cudaMalloc (&p12[i], N * 2));
        CK (cudaMalloc (&p10[i], 4096 * 2));
      }
    CK (cudaMalloc (&ws, 64u << 20));
    CK (cudaMalloc (&cnt, 4096 * 4));
    cudaMemset (cnt, 0, 4096 * 4);
    double mb = (4.0 * N * 2 + N * 2 + N * 4 + 4096 * 2 + 2048 * 4 * 3 + 4096 * 4) / 1e6;
    printf ("== llama_layer nvrtcFusion10 (RMS-norm backward), %.1f MB\n", mb);
    row ("generated: column kernel + row kernel", time_ms ([&] { launch_gen10 (a, b, w, c, d, r, p7[0], p11[0], p12[0], p13[0], p6[0], p10[0], ws, cnt); }), mb);
    row ("generated one pass (deferred row sums)", time_ms ([&] { launch_gen10n (a, b, w, c, d, r, p7[1], p11[1], p12[1], p13[1], p6[1], p10[1], ws, cnt); }), mb);
    printf ("  vs generated two kernels: bf16 %zu, f32 %zu, rows %zu (exact), rows out %zu, columns %zu (rel 1e-4), grad_w bf16 %zu (exact)\n", diff (p12[0], p12[1], N, 0), diff (p13[0], p13[1], N, 0),
            diff (p7[0], p7[1], 2048, 0), diff (p11[0], p11[1], 2048, 0), diff (p6[0], p6[1], 4096, 1e-4), diff (p10[0], p10[1], 4096, 0));
    cudaMemset (p13[1], 0, N * 4);
    launch_gen10n (a, b, w, c, d, r, p7[1], p11[1], p12[1], p13[1], p6[1], p10[1], ws, cnt);
    cudaDeviceSynchronize ();
    printf ("  again after clearing: f32 %zu differ\n", diff (p13[0], p13[1], N, 0));
    auto mix = [&] (int bps, const char *nm) {
      int G = sms * bps;
      auto g = [&] { /* the walk */
        if (bps == 2)
          rms_mix<2><<<G, 256>>> (a, b, w, c, d, r, p7[1], p11[1], p12[1], p13[1], ws);
        else if (bps == 3)
          rms_mix<3><<<G, 256>>> (a, b, w, c, d, r, p7[1], p11[1], p12[1], p13[1], ws);
        else
          rms_mix<4><<<G, 256>>> (a, b, w, c, d, r, p7[1], p11[1], p12[1], p13[1], ws);
      };
      auto f = [&] {
        g ();
        if (getenv ("COMBINE1")) /* the first combine: a thread a column, 16 blocks */
          rms_combine<<<16, 256>>> (ws, G, p6[1], p10[1]);
        else
          rms_combine2<<<128, 256>>> (ws, G, p6[1], p10[1]);
      };
      row (nm, time_ms (f), mb);
      printf ("  vs generated: bf16 %zu, f32 %zu, rows %zu, columns %zu differ (rel 1e-4)\n", diff (p12[0], p12[1], N, 0), diff (p13[0], p13[1], N, 0),
              diff (p7[0], p7[1], 2048, 1e-4), diff (p6[0], p6[1], 4096, 1e-4));
      row ("   (its walk alone, no combine)", time_ms (g), mb);
    };
    mix (2, "hand one pass, 2 blocks per SM");
    mix (3, "hand one pass, 3 blocks per SM");
    mix (4, "hand one pass, 4 blocks per SM");
  }
  // gpt2_block nvrtcFusion9's access pattern
  {
    auto h = rand_bf16 (PN, 11);
    us *a = up (h), *b = up (h), *c = up (h), *d = up (h), *o0, *o1;
    float *o2;
    const double mb = PN * 16.0 / 1e6;
    char nm[64];
    CK (cudaMalloc (&o0, PN * 2));
    CK (cudaMalloc (&o1, PN * 2));
    CK (cudaMalloc (&o2, PN * 4));
    printf ("== gpt2_block nvrtcFusion9's access pattern alone (4 bf16 in, 2 bf16 + 1 f32 out), %.1f MB\n", mb);
    snprintf (nm, sizeof nm, "row walk, %d blocks (2 per SM)", 2 * sms);
    row (nm, time_ms ([&] { pat_walk<2><<<2 * sms, 256>>> (a, b, c, d, o0, o1, o2); }), mb);
    snprintf (nm, sizeof nm, "row walk, %d blocks (4 per SM)", 4 * sms);
    row (nm, time_ms ([&] { pat_walk<4><<<4 * sms, 256>>> (a, b, c, d, o0, o1, o2); }), mb);
    snprintf (nm, sizeof nm, "row walk, %d blocks (8 per SM)", 8 * sms);
    row (nm, time_ms ([&] { pat_walk<8><<<8 * sms, 256>>> (a, b, c, d, o0, o1, o2); }), mb);
    row ("flat, 3072 blocks", time_ms ([&] { pat_flat<<<3072, 256>>> (a, b, c, d, o0, o1, o2); }), mb);
    row ("flat, 1024 blocks", time_ms ([&] { pat_flat<<<1024, 256>>> (a, b, c, d, o0, o1, o2); }), mb);
    cudaFree (a), cudaFree (b), cudaFree (c), cudaFree (d), cudaFree (o0), cudaFree (o1), cudaFree (o2);
  }
  return 0;
}
