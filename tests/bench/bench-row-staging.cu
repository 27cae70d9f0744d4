// bench-row-staging.cu — llama_layer's RMS-norm backward in one pass (nvrtcFusion10's bytes: four bf16 [2048, 4096]
// read, one written, a row sum and a column sum), as the generated kernel walks it (each thread's row vectors in
// registers) beside rows staged in shared memory by cp.async.bulk (the TMA's bulk copy, sm_90) through an mbarrier
// pipeline of 1-3 stages, and what its bytes alone reach as plain streaming kernels (no reduction) and as a
// cudaMemcpy. Every figure is a % of the 1 GiB cudaMemcpy of the same process, as bench-gpu.py's region table.
// SPDX-License-Identifier: GPL-3.0-or-later
// A probe, not part of the meson build (needs nvcc and an sm_90 GPU; not clang-formatted: it splits <<< >>>):
//   /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 -o bench-row-staging tests/bench/bench-row-staging.cu
//   ./bench-row-staging     (on the GPU machine; results: tests/bench/README.md, twenty-seventh session)
// The staged kernels' outputs are compared bit for bit with the register walk's.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
typedef unsigned short us;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf ("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString (e_)); exit (1); } } while (0)
__device__ __forceinline__ float bf (us h) { return __uint_as_float ((unsigned) h << 16); }
__device__ __forceinline__ float rb (float f) { unsigned u; asm ("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(f), "f"(0.0f)); return __uint_as_float (u); }
__device__ __forceinline__ us tobf (float f) { return (us) (__float_as_uint (rb (f)) >> 16); }
template <int V> struct alignas (2 * V) vh { us x[V]; };
#define R 2048
#define C 4096

__device__ __forceinline__ void elem (const vh<8> &A, const vh<8> &B, const vh<8> &Cc, const vh<8> &D, const vh<8> &w, float rstd, us *out, float &racc, float *cacc)
{
  vh<8> o0;
#pragma unroll
  for (int l = 0; l < 8; l++)
    {
      const float x = rb (bf (A.x[l]) + bf (B.x[l]));
      const float gy = rb (bf (Cc.x[l]) + bf (D.x[l]));
      const float wl = bf (w.x[l]);
      o0.x[l] = tobf ((x * rstd) * wl);
      racc = racc + x * (wl * gy);
      cacc[l] = cacc[l] + (x * rstd) * gy;
    }
  *(vh<8> *) out = o0;
}
__device__ __forceinline__ void finish (float (*rp)[8], int it, float *rows, float *part, const float *cacc)
{
  __syncthreads ();
  const int t = threadIdx.x;
  if (t < it)
    {
      float s = 0.0f;
      for (int w = 0; w < 8; w++)
        s += rp[t][w];
      rows[blockIdx.x + t * gridDim.x] = s;
    }
#pragma unroll
  for (int st = 0; st < 2; st++)
    {
      float4 *dst = (float4 *) (part + (size_t) blockIdx.x * C + st * 2048 + t * 8);
      dst[0] = make_float4 (cacc[st * 8], cacc[st * 8 + 1], cacc[st * 8 + 2], cacc[st * 8 + 3]);
      dst[1] = make_float4 (cacc[st * 8 + 4], cacc[st * 8 + 5], cacc[st * 8 + 6], cacc[st * 8 + 7]);
    }
}
__device__ __forceinline__ void rowsum (float racc, float (*rp)[8], int it)
{
#pragma unroll
  for (int m = 16; m > 0; m /= 2)
    racc += __shfl_xor_sync (0xffffffffu, racc, m);
  if ((threadIdx.x & 31) == 0)
    rp[it][threadIdx.x / 32] = racc;
}
// the generated kernel's walk: a row's 8 vectors a thread loaded to registers, then computed
template <int BPS>
__global__ void __launch_bounds__ (256, BPS) rms_reg (const us *a, const us *b, const us *w, const us *c, const us *d, const float *rstd, float *rows, us *out, float *part)
{
  __shared__ float rp[16][8];
  const int t = threadIdx.x;
  float cacc[16];
#pragma unroll
  for (int i = 0; i < 16; i++) cacc[i] = 0.0f;
  int it = 0;
  for (int row = blockIdx.x; row < R; row += gridDim.x, it++)
    {
      const float rs = rstd[row];
      float racc = 0.0f;
      vh<8> A[2], B[2], Cc[2], D[2];
#pragma unroll
      for (int st = 0; st < 2; st++)
        {
          const int E = row * C + st * 2048 + t * 8;
          A[st] = *(const vh<8> *) (a + E); B[st] = *(const vh<8> *) (b + E); Cc[st] = *(const vh<8> *) (c + E); D[st] = *(const vh<8> *) (d + E);
        }
#pragma unroll
      for (int st = 0; st < 2; st++)
        {
          const int E = row * C + st * 2048 + t * 8;
          const vh<8> wv = *(const vh<8> *) (w + st * 2048 + t * 8);
          elem (A[st], B[st], Cc[st], D[st], wv, rs, out + E, racc, cacc + st * 8);
        }
      rowsum (racc, rp, it);
    }
  finish (rp, it, rows, part, cacc);
}

__device__ __forceinline__ unsigned smaddr (const void *p) { return (unsigned) __cvta_generic_to_shared (p); }
__device__ __forceinline__ void mbar_init (unsigned long long *m, unsigned n) { asm volatile ("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smaddr (m)), "r"(n)); }
__device__ __forceinline__ void mbar_expect (unsigned long long *m, unsigned bytes)
{ asm volatile ("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smaddr (m)), "r"(bytes) : "memory"); }
__device__ __forceinline__ void mbar_wait (unsigned long long *m, unsigned parity)
{
  asm volatile ("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(smaddr (m)), "r"(parity) : "memory");
}
__device__ __forceinline__ void bulk (void *dst, const void *src, unsigned bytes, unsigned long long *m)
{
  asm volatile ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smaddr (dst)), "l"(src), "r"(bytes), "r"(smaddr (m)) : "memory");
}
// rows staged in shared memory: S stages of the 4 element inputs' rows (4 x 8 KB), refilled by thread 0 after a
// barrier; W: the weight kept in registers (else read from global each row)
template <int S, int BPS, bool SPLIT>
__global__ void __launch_bounds__ (256, BPS) rms_tma (const us *a, const us *b, const us *w, const us *c, const us *d, const float *rstd, float *rows, us *out, float *part)
{
  extern __shared__ __align__ (128) unsigned char smem[];
  __shared__ float rp[16][8];
  __shared__ unsigned long long full[S];
  us *st_buf = (us *) smem; // [S][4][C]
  const int t = threadIdx.x;
  float cacc[16];
#pragma unroll
  for (int i = 0; i < 16; i++) cacc[i] = 0.0f;
  const int n = (R - 1 - (int) blockIdx.x) / (int) gridDim.x + 1; // rows of this block
  if (t == 0)
    {
      for (int s = 0; s < S; s++) mbar_init (&full[s], 1);
      asm volatile ("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
  __syncthreads ();
  auto issue = [&] (int i) {
    const int s = i % S, row = blockIdx.x + i * gridDim.x;
    us *dst = st_buf + (size_t) s * 4 * C;
    if (SPLIT)
      {
        // 4 threads each issue one of the copies; thread 0 sets the count first
        if (t == 0) mbar_expect (&full[s], 4 * C * 2);
        __syncwarp ();
        const us *src[4] = { a, b, c, d };
        if (t < 4) bulk (dst + t * C, src[t] + (size_t) row * C, C * 2, &full[s]);
      }
    else if (t == 0)
      {
        mbar_expect (&full[s], 4 * C * 2);
        bulk (dst, a + (size_t) row * C, C * 2, &full[s]);
        bulk (dst + C, b + (size_t) row * C, C * 2, &full[s]);
        bulk (dst + 2 * C, c + (size_t) row * C, C * 2, &full[s]);
        bulk (dst + 3 * C, d + (size_t) row * C, C * 2, &full[s]);
      }
  };
  for (int i = 0; i < S && i < n; i++) issue (i);
  for (int i = 0; i < n; i++)
    {
      const int s = i % S, row = blockIdx.x + i * gridDim.x;
      const float rs = rstd[row];
      float racc = 0.0f;
      mbar_wait (&full[s], (i / S) & 1);
      const us *sb = st_buf + (size_t) s * 4 * C;
#pragma unroll
      for (int st = 0; st < 2; st++)
        {
          const int o = st * 2048 + t * 8;
          const vh<8> A = *(const vh<8> *) (sb + o), B = *(const vh<8> *) (sb + C + o), Cc = *(const vh<8> *) (sb + 2 * C + o), D = *(const vh<8> *) (sb + 3 * C + o);
          const vh<8> wv = *(const vh<8> *) (w + o);
          elem (A, B, Cc, D, wv, rs, out + (size_t) row * C + o, racc, cacc + st * 8);
        }
      rowsum (racc, rp, i);
      __syncthreads (); // every thread has read stage s
      if (i + S < n) issue (i + S);
    }
  finish (rp, n, rows, part, cacc);
}
__global__ void __launch_bounds__ (256) combine (const float *part, int G, float *col, us *colbf)
{
  __shared__ float sm[256];
  const int x = threadIdx.x % 32, qq = threadIdx.x / 32, cl = blockIdx.x * 32 + x;
  float s = 0.0f;
#pragma unroll 8
  for (int i = qq; i < G; i += 8) s += __ldcg (&part[(size_t) i * C + cl]);
  sm[threadIdx.x] = s;
  __syncthreads ();
  if (qq == 0)
    {
      for (int g = 1; g < 8; g++) s += sm[x + 32 * g];
      col[cl] = s;
      colbf[cl] = tobf (s);
    }
}
// the bytes alone: read 4 bf16 rows, write 1, flat grid-stride
__global__ void __launch_bounds__ (256) flat (const us *a, const us *b, const us *c, const us *d, us *out)
{
  for (int e = (blockIdx.x * 256 + threadIdx.x) * 8; e < R * C; e += gridDim.x * 2048)
    {
      vh<8> A = *(const vh<8> *) (a + e), B = *(const vh<8> *) (b + e), Cc = *(const vh<8> *) (c + e), D = *(const vh<8> *) (d + e), O;
      for (int l = 0; l < 8; l++) O.x[l] = tobf (bf (A.x[l]) + bf (B.x[l]) + bf (Cc.x[l]) * bf (D.x[l]));
      *(vh<8> *) (out + e) = O;
    }
}
template <int U, int H>
__global__ void __launch_bounds__ (256) flat2 (const us *a, const us *b, const us *c, const us *d, us *out)
{
  for (int e0 = (blockIdx.x * 256 * U + threadIdx.x) * 8; e0 < R * C; e0 += gridDim.x * 2048 * U)
    {
      uint4 A[U], B[U], Cc[U], D[U];
#pragma unroll
      for (int u = 0; u < U; u++)
        {
          const int e = e0 + u * 2048;
          if (H == 1) { A[u] = __ldcs ((const uint4 *) (a + e)); B[u] = __ldcs ((const uint4 *) (b + e)); Cc[u] = __ldcs ((const uint4 *) (c + e)); D[u] = __ldcs ((const uint4 *) (d + e)); }
          else if (H == 2) { A[u] = __ldg ((const uint4 *) (a + e)); B[u] = __ldg ((const uint4 *) (b + e)); Cc[u] = __ldg ((const uint4 *) (c + e)); D[u] = __ldg ((const uint4 *) (d + e)); }
          else { A[u] = *(const uint4 *) (a + e); B[u] = *(const uint4 *) (b + e); Cc[u] = *(const uint4 *) (c + e); D[u] = *(const uint4 *) (d + e); }
        }
#pragma unroll
      for (int u = 0; u < U; u++)
        {
          uint4 O;
          O.x = A[u].x ^ B[u].x ^ Cc[u].x ^ D[u].x; O.y = A[u].y ^ B[u].y ^ Cc[u].y ^ D[u].y; O.z = A[u].z ^ B[u].z ^ Cc[u].z ^ D[u].z; O.w = A[u].w ^ B[u].w ^ Cc[u].w ^ D[u].w;
          if (H == 1) __stcs ((uint4 *) (out + e0 + u * 2048), O); else *(uint4 *) (out + e0 + u * 2048) = O;
        }
    }
}
// read-only: 4 streams summed, one word a thread written at the end
__global__ void __launch_bounds__ (256) readonly4 (const us *a, const us *b, const us *c, const us *d, unsigned *out)
{
  unsigned x = 0;
  for (int e = (blockIdx.x * 256 + threadIdx.x) * 8; e < R * C; e += gridDim.x * 2048)
    {
      uint4 A = *(const uint4 *) (a + e), B = *(const uint4 *) (b + e), Cc = *(const uint4 *) (c + e), D = *(const uint4 *) (d + e);
      x ^= A.x ^ B.y ^ Cc.z ^ D.w ^ A.w ^ B.z ^ Cc.y ^ D.x;
    }
  if (x == 0x12345678u) out[0] = x;
}
static std::vector<us> rand_bf16 (size_t n, unsigned seed)
{
  std::vector<us> v (n);
  srand (seed);
  for (size_t i = 0; i < n; i++) { float f = (float) rand () / RAND_MAX * 2.0f - 1.0f; unsigned u; memcpy (&u, &f, 4); v[i] = (us) (u >> 16); }
  return v;
}
template <class T> static T *up (const std::vector<T> &h) { T *d; CK (cudaMalloc (&d, h.size () * sizeof (T))); CK (cudaMemcpy (d, h.data (), h.size () * sizeof (T), cudaMemcpyHostToDevice)); return d; }
static void *flushbuf;
template <class F> static double time_ms (F f, bool flush, int iters = 60)
{
  cudaEvent_t a, b;
  cudaEventCreate (&a); cudaEventCreate (&b);
  for (int i = 0; i < 5; i++) f ();
  std::vector<float> ts;
  for (int i = 0; i < iters; i++)
    {
      if (flush) cudaMemsetAsync (flushbuf, i, 128u << 20);
      cudaEventRecord (a); f (); cudaEventRecord (b); cudaEventSynchronize (b);
      float ms; cudaEventElapsedTime (&ms, a, b); ts.push_back (ms);
    }
  CK (cudaGetLastError ());
  std::sort (ts.begin (), ts.end ());
  return ts[ts.size () / 2];
}
static double copy_gbs;
static void row (const char *name, double ms, double mb) { double g = mb / 1e3 / (ms / 1e3); printf ("%-52s %8.4f ms %8.1f GB/s %5.0f%% of copy\n", name, ms, g, 100 * g / copy_gbs); }
template <class T> static size_t diff (const T *x0, const T *y0, size_t n)
{
  std::vector<T> x (n), y (n);
  cudaMemcpy (x.data (), x0, n * sizeof (T), cudaMemcpyDeviceToHost); cudaMemcpy (y.data (), y0, n * sizeof (T), cudaMemcpyDeviceToHost);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += memcmp (&x[i], &y[i], sizeof (T)) != 0;
  return bad;
}
int main ()
{
  cudaDeviceProp p;
  CK (cudaGetDeviceProperties (&p, 0));
  const int sms = p.multiProcessorCount;
  printf ("%s, %d SMs\n", p.name, sms);
  CK (cudaMalloc (&flushbuf, 128u << 20));
  const size_t N = (size_t) R * C;
  const double mb = (4.0 * N * 2 + N * 2 + C * 2 + R * 4 * 2 + C * 2) / 1e6;
  {
    size_t n = 1u << 30; void *x, *y; CK (cudaMalloc (&x, n)); CK (cudaMalloc (&y, n)); cudaMemset (x, 1, n);
    double mm = time_ms ([&] { cudaMemcpyAsync (y, x, n, cudaMemcpyDeviceToDevice); }, false, 20);
    copy_gbs = 2.0 * n / 1e9 / (mm / 1e3);
    printf ("copy 1 GiB: %.1f GB/s\n", copy_gbs);
    size_t m = (size_t) (mb * 1e6 / 2) & ~15ul;
    row ("cudaMemcpy of the same bytes (half read, half written)", time_ms ([&] { cudaMemcpyAsync (y, x, m, cudaMemcpyDeviceToDevice); }, false), mb);
    row ("  the same, L2 flushed before", time_ms ([&] { cudaMemcpyAsync (y, x, m, cudaMemcpyDeviceToDevice); }, true), mb);
    cudaFree (x); cudaFree (y);
  }
  auto ha = rand_bf16 (N, 11), hb = rand_bf16 (N, 12), hc = rand_bf16 (N, 13), hd = rand_bf16 (N, 14), hw = rand_bf16 (C, 15);
  std::vector<float> hr (R);
  for (int i = 0; i < R; i++) hr[i] = 0.5f + (float) i / 4096;
  us *a = up (ha), *b = up (hb), *c = up (hc), *d = up (hd), *w = up (hw);
  float *r = up (hr), *rows[2], *col[2], *part;
  us *out[2], *colbf[2];
  for (int i = 0; i < 2; i++) { CK (cudaMalloc (&rows[i], R * 4)); CK (cudaMalloc (&col[i], C * 4)); CK (cudaMalloc (&out[i], N * 2)); CK (cudaMalloc (&colbf[i], C * 2)); }
  CK (cudaMalloc (&part, (size_t) 8 * sms * C * 4));
  printf ("== RMS-norm backward one pass, [%d, %d], %.1f MB\n", R, C, mb);
  for (bool fl : { false, true })
    {
      printf ("-- L2 %s\n", fl ? "flushed before each launch" : "as the previous launch left it");
      row ("bytes alone: flat read 4 write 1", time_ms ([&] { flat<<<sms * 32, 256>>> (a, b, c, d, out[1]); }, fl), mb * 0.99);
      for (int g : { sms * 8, sms * 16, sms * 32 })
        {
          char nm[80];
          snprintf (nm, sizeof nm, "  flat xor U=1 plain, grid %d", g); row (nm, time_ms ([&] { flat2<1, 0><<<g, 256>>> (a, b, c, d, out[1]); }, fl), mb * 0.99);
          snprintf (nm, sizeof nm, "  flat xor U=2 plain, grid %d", g); row (nm, time_ms ([&] { flat2<2, 0><<<g, 256>>> (a, b, c, d, out[1]); }, fl), mb * 0.99);
          snprintf (nm, sizeof nm, "  flat xor U=2 ldcs/stcs, grid %d", g); row (nm, time_ms ([&] { flat2<2, 1><<<g, 256>>> (a, b, c, d, out[1]); }, fl), mb * 0.99);
          snprintf (nm, sizeof nm, "  flat xor U=2 ldg, grid %d", g); row (nm, time_ms ([&] { flat2<2, 2><<<g, 256>>> (a, b, c, d, out[1]); }, fl), mb * 0.99);
        }
      row ("  read only, 4 streams (67 MB)", time_ms ([&] { readonly4<<<sms * 16, 256>>> (a, b, c, d, (unsigned *) part); }, fl), 4.0 * N * 2 / 1e6);
      auto reg = [&] { rms_reg<2><<<2 * sms, 256>>> (a, b, w, c, d, r, rows[0], out[0], part); combine<<<C / 32, 256>>> (part, 2 * sms, col[0], colbf[0]); };
      row ("registers (generated walk), 2/SM + combine", time_ms (reg, fl), mb);
      row ("  its walk alone", time_ms ([&] { rms_reg<2><<<2 * sms, 256>>> (a, b, w, c, d, r, rows[0], out[0], part); }, fl), mb);
      auto tma = [&] (auto kern, int S, int bps, const char *nm) {
        size_t sh = (size_t) S * 4 * C * 2;
        CK (cudaFuncSetAttribute (kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) sh));
        int G = bps * sms;
        int occ = 0;
        CK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&occ, kern, 256, sh));
        auto f = [&] { kern<<<G, 256, sh>>> (a, b, w, c, d, r, rows[1], out[1], part); combine<<<C / 32, 256>>> (part, G, col[1], colbf[1]); };
        char s2[96]; snprintf (s2, sizeof s2, "%s (occupancy %d/SM)", nm, occ);
        row (s2, time_ms (f, fl), mb);
        if (bps == 2)
          printf ("    vs registers: out %zu, rows %zu, col %zu, colbf %zu differ (bits)\n", diff (out[0], out[1], N), diff (rows[0], rows[1], R), diff (col[0], col[1], C), diff (colbf[0], colbf[1], C));
        else
          printf ("    vs registers: out %zu differ (bits)\n", diff (out[0], out[1], N));
        cudaMemset (out[1], 0, N * 2);
      };
      tma (rms_tma<2, 2, false>, 2, 2, "TMA rows, 2 stages, 2/SM");
      tma (rms_tma<3, 2, false>, 3, 2, "TMA rows, 3 stages, 2/SM");
      tma (rms_tma<3, 2, true>, 3, 2, "TMA rows, 3 stages, 2/SM, copies from 4 threads");
      tma (rms_tma<2, 3, false>, 2, 3, "TMA rows, 2 stages, 3/SM");
      tma (rms_tma<1, 4, false>, 1, 4, "TMA rows, 1 stage, 4/SM");
      tma (rms_tma<1, 6, false>, 1, 6, "TMA rows, 1 stage, 6/SM");
    }
  return 0;
}
