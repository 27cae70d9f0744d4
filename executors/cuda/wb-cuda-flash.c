/* wb-cuda-flash.c — FlashAttention-2 forward and backward kernels for bf16/f16 and head dims 64 and 128
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tri Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning" (2023),
 * Algorithms 1 (forward) and 2 (backward), with the backward split in two kernels (dK/dV per key tile, dQ
 * per query tile) instead of dQ's atomic adds, so that results are deterministic.
 * The launches go through wb_cuda_runtime_launch, so every kernel runs 256 threads (WB_CUDA_BLOCK) on a
 * one-dimensional grid with static shared memory (48 KiB at most). Tiles (rows x head dim, bf16/f16):
 *   forward, dQ   one block per (batch*head, 128 query rows), 8 warps of 16 rows; Q (and dO) fragments
 *                 in registers; key/value tiles of 64 (E=64) or 32 (E=128) rows, double-buffered (32 KiB)
 *   dK, dV        one block per (batch*head, 128 keys (E=64) or 64 keys (E=128)); K and V stay in shared
 *                 memory; query/dO tiles of 32 rows (double-buffered for E=64); for E=128 two warps share
 *                 16 keys, each taking 16 of the 32 queries, and add their partial dK, dV at the end
 *   D             one warp per query row: D = rowsum(dO * O), with lse * log2(e) beside it
 * Loads are cp.async of 16-byte chunks (zero-filled past the end of a sequence); each row's chunks are
 * XOR-swizzled with the row index so that ldmatrix reads no bank twice. Causal blocks skip the key tiles
 * above the diagonal (forward, dQ) and the query tiles before it (dK, dV); the blocks with the most work
 * are started first. */
#include "config.h"

#include "wb-cuda-flash.h"

#define FLASH_BR 128 /* query rows per forward/dQ block (FL_BR) */

G_STATIC_ASSERT (WB_CUDA_BLOCK == 256); /* the kernels' FL_THREADS */

/* -- the kernels (CUDA C compiled by NVRTC after the prelude; FL_D and FL_F16 are defined before it) ---- */

static const char flash_text[] =
    "// FlashAttention-2 kernels (Dao, \"FlashAttention-2: Faster Attention with Better Parallelism and Work\n"
    "// Partitioning\", 2023) for one dtype (FL_F16: f16, else bf16) and one head dim FL_D (64 or 128).\n"
    "// 256 threads (8 warps) per block, static shared memory <= 48 KiB, one-dimensional grids. Tensor cores\n"
    "// through mma.sync m16n8k16 (f32 accumulation), fragments loaded from shared memory with ldmatrix, tiles\n"
    "// staged with cp.async (zero-filled past the end), 16-byte chunks of each row XOR-swizzled by (row & 7) so\n"
    "// that ldmatrix reads are free of bank conflicts. Scores are kept in log2 units: x = s * scale * log2(e).\n"
    "// q, k, v, dO and O are [B, H, T, FL_D] with unit inner stride read through (batch, head, row) strides in\n"
    "// elements; O, lse, dQ, dK and dV are written contiguous.\n"
    "#define FL_THREADS 256\n"
    "#define FL_BR 128                        // query rows per block (forward, dQ): 16 per warp\n"
    "#define FL_BC (FL_D == 64 ? 64 : 32)     // keys per tile (forward, dQ), double-buffered\n"
    "#define FL_KG (FL_D == 64 ? 8 : 4)       // dK/dV: warps along the keys (16 keys each)\n"
    "#define FL_QS (8 / FL_KG)                // dK/dV: warps along the queries of a tile (partial sums)\n"
    "#define FL_BKV (16 * FL_KG)              // dK/dV: keys per block\n"
    "#define FL_BQ 32                         // dK/dV: queries per tile\n"
    "#define FL_NQ (FL_BQ / FL_QS)            // dK/dV: queries per warp and tile\n"
    "#define FL_NBUF (FL_D == 64 ? 2 : 1)     // dK/dV: query tile buffers\n"
    "#define FL_SMEM_ROWS (FL_BR > 4 * FL_BC ? FL_BR : 4 * FL_BC)\n"
    "// blocks per multiprocessor asked of ptxas: two (<= 128 registers, a few bytes spilled) for E = 64 ran the\n"
    "// forward 15% and each backward kernel 3-6% faster on an H200 (gpt2_block's shape); E = 128 spills too much\n"
    "#ifndef FL_MINB_FWD\n"
    "#define FL_MINB_FWD (FL_D == 64 ? 2 : 1)\n"
    "#endif\n"
    "#ifndef FL_MINB_DQ\n"
    "#define FL_MINB_DQ (FL_D == 64 ? 2 : 1)\n"
    "#endif\n"
    "#ifndef FL_MINB_DKDV\n"
    "#define FL_MINB_DKDV (FL_D == 64 ? 2 : 1)\n"
    "#endif\n"
    "#define FL_LOG2E 1.4426950408889634f\n"
    "#define FL_LN2 0.6931471805599453f\n"
    "\n"
    "typedef unsigned short fl_h;\n"
    "\n"
    "static __device__ __forceinline__ unsigned\n"
    "fl_smem (const void *p)\n"
    "{\n"
    "  return (unsigned) __cvta_generic_to_shared (p);\n"
    "}\n"
    "\n"
    "// the element offset of 16-byte chunk c of row r in a swizzled tile of FL_D columns\n"
    "static __device__ __forceinline__ int\n"
    "fl_at (int r, int c)\n"
    "{\n"
    "  return r * FL_D + ((c ^ (r & 7)) << 3);\n"
    "}\n"
    "\n"
    "static __device__ __forceinline__ void\n"
    "fl_cp16 (unsigned dst, const void *src, bool ok)\n"
    "{\n"
    "  asm volatile (\"cp.async.cg.shared.global [%0], [%1], 16, %2;\\n\" ::\"r\"(dst), \"l\"(src), \"r\"(ok ? 16 : 0));\n"
    "}\n"
    "\n"
    "static __device__ __forceinline__ void\n"
    "fl_commit ()\n"
    "{\n"
    "  asm volatile (\"cp.async.commit_group;\\n\" ::);\n"
    "}\n"
    "\n"
    "template <int N>\n"
    "static __device__ __forceinline__ void\n"
    "fl_wait ()\n"
    "{\n"
    "  asm volatile (\"cp.async.wait_group %0;\\n\" ::\"n\"(N));\n"
    "}\n"
    "\n"
    "// rows [row0, row0 + R) of a [rows, FL_D] matrix (row stride ss) into the swizzled tile s; rows >= nrows are zeros\n"
    "template <int R>\n"
    "static __device__ __forceinline__ void\n"
    "fl_load (fl_h *s, const fl_h *g, long long ss, int row0, int nrows)\n"
    "{\n"
    "  const int CH = FL_D / 8;\n"
    "  static_assert (R * CH % FL_THREADS == 0, \"whole rounds of 16-byte copies\");\n"
    "#pragma unroll\n"
    "  for (int n = 0; n < R * CH / FL_THREADS; n++)\n"
    "    {\n"
    "      int  x = threadIdx.x + n * FL_THREADS, r = x / CH, c = x % CH;\n"
    "      bool ok = row0 + r < nrows;\n"
    "      fl_cp16 (fl_smem (s + fl_at (r, c)), g + (ok ? (long long) (row0 + r) * ss + c * 8 : 0), ok);\n"
    "    }\n"
    "}\n"
    "\n"
    "static __device__ __forceinline__ void\n"
    "fl_ldm (unsigned *r, const fl_h *p)\n"
    "{\n"
    "  asm volatile (\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\\n\"\n"
    "                : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3])\n"
    "                : \"r\"(fl_smem (p)));\n"
    "}\n"
    "\n"
    "static __device__ __forceinline__ void\n"
    "fl_ldmt (unsigned *r, const fl_h *p)\n"
    "{\n"
    "  asm volatile (\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\\n\"\n"
    "                : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3])\n"
    "                : \"r\"(fl_smem (p)));\n"
    "}\n"
    "\n"
    "// c[16x8] += a[16x16] b[16x8]\n"
    "static __device__ __forceinline__ void\n"
    "fl_mma (float *c, const unsigned *a, unsigned b0, unsigned b1)\n"
    "{\n"
    "#if FL_F16\n"
    "  asm (\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\\n\"\n"
    "#else\n"
    "  asm (\"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\\n\"\n"
    "#endif\n"
    "       : \"+f\"(c[0]), \"+f\"(c[1]), \"+f\"(c[2]), \"+f\"(c[3])\n"
    "       : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b0), \"r\"(b1));\n"
    "}\n"
    "\n"
    "// two floats rounded to the dtype, lo in the low half\n"
    "static __device__ __forceinline__ unsigned\n"
    "fl_pack (float lo, float hi)\n"
    "{\n"
    "  unsigned r;\n"
    "#if FL_F16\n"
    "  asm (\"cvt.rn.f16x2.f32 %0, %1, %2;\\n\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo));\n"
    "#else\n"
    "  asm (\"cvt.rn.bf16x2.f32 %0, %1, %2;\\n\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo));\n"
    "#endif\n"
    "  return r;\n"
    "}\n"
    "\n"
    "static __device__ __forceinline__ float\n"
    "fl_exp2 (float x)\n"
    "{\n"
    "  float y;\n"
    "  asm (\"ex2.approx.ftz.f32 %0, %1;\\n\" : \"=f\"(y) : \"f\"(x));\n"
    "  return y;\n"
    "}\n"
    "\n"
    "static __device__ __forceinline__ float\n"
    "fl_load1 (fl_h x)\n"
    "{\n"
    "#if FL_F16\n"
    "  return wb_f16_to_f (x);\n"
    "#else\n"
    "  return wb_bf16_to_f (x);\n"
    "#endif\n"
    "}\n"
    "\n"
    "// the A operand (16 rows x 16 columns from row r0, chunk c0) and the B operand read transposed (16 rows of\n"
    "// k from r0, two n-tiles of 8 from chunk c0: b = {r[0], r[1]} and {r[2], r[3]})\n"
    "static __device__ __forceinline__ const fl_h *\n"
    "fl_a_at (const fl_h *s, int r0, int c0)\n"
    "{\n"
    "  int lane = threadIdx.x & 31;\n"
    "  return s + fl_at (r0 + (lane & 15), c0 + (lane >> 4));\n"
    "}\n"
    "\n"
    "// the B operand from rows of n (16 rows from r0: two n-tiles) with k contiguous (chunk c0: 16 of k)\n"
    "static __device__ __forceinline__ const fl_h *\n"
    "fl_b_at (const fl_h *s, int r0, int c0)\n"
    "{\n"
    "  int lane = threadIdx.x & 31;\n"
    "  return s + fl_at (r0 + (lane & 7) + ((lane >> 4) << 3), c0 + ((lane >> 3) & 1));\n"
    "}\n"
    "\n"
    "// acc[16 x 8n] += a (A fragments of 16 x 16k) times the tile at s: S = Q K^T style (rows of s are n)\n"
    "template <int NK, int NN>\n"
    "static __device__ __forceinline__ void\n"
    "fl_gemm_nt (float (*acc)[4], const unsigned (*a)[4], const fl_h *s, int r0)\n"
    "{\n"
    "#pragma unroll\n"
    "  for (int kk = 0; kk < NK; kk++)\n"
    "#pragma unroll\n"
    "    for (int nn = 0; nn < NN / 2; nn++)\n"
    "      {\n"
    "        unsigned b[4];\n"
    "        fl_ldm (b, fl_b_at (s, r0 + nn * 16, kk * 2));\n"
    "        fl_mma (acc[2 * nn], a[kk], b[0], b[1]);\n"
    "        fl_mma (acc[2 * nn + 1], a[kk], b[2], b[3]);\n"
    "      }\n"
    "}\n"
    "\n"
    "// acc[16 x FL_D] += p (a 16 x 16*NK block of C fragments, rounded to the dtype) times the tile at s from\n"
    "// row r0 (rows of s are k): O += P V style\n"
    "template <int NK>\n"
    "static __device__ __forceinline__ void\n"
    "fl_gemm_pv (float (*acc)[4], const float (*p)[4], const fl_h *s, int r0)\n"
    "{\n"
    "#pragma unroll\n"
    "  for (int kk = 0; kk < NK; kk++)\n"
    "    {\n"
    "      unsigned a[4] = { fl_pack (p[2 * kk][0], p[2 * kk][1]), fl_pack (p[2 * kk][2], p[2 * kk][3]),\n"
    "                        fl_pack (p[2 * kk + 1][0], p[2 * kk + 1][1]), fl_pack (p[2 * kk + 1][2], p[2 * kk + 1][3]) };\n"
    "#pragma unroll\n"
    "      for (int dn = 0; dn < FL_D / 16; dn++)\n"
    "        {\n"
    "          unsigned b[4];\n"
    "          fl_ldmt (b, fl_a_at (s, r0 + kk * 16, dn * 2));\n"
    "          fl_mma (acc[2 * dn], a, b[0], b[1]);\n"
    "          fl_mma (acc[2 * dn + 1], a, b[2], b[3]);\n"
    "        }\n"
    "    }\n"
    "}\n"
    "\n"
    "// rows [r0, r0 + 16) of a staged tile as A fragments\n"
    "static __device__ __forceinline__ void\n"
    "fl_frags (unsigned (*a)[4], const fl_h *s, int r0)\n"
    "{\n"
    "#pragma unroll\n"
    "  for (int kk = 0; kk < FL_D / 16; kk++)\n"
    "    fl_ldm (a[kk], fl_a_at (s, r0, kk * 2));\n"
    "}\n"
    "\n"
    "// stores rows r0 (+8) of a 16 x FL_D accumulator times mul[r] into the contiguous [*, FL_D] matrix at out\n"
    "static __device__ __forceinline__ void\n"
    "fl_store (fl_h *out, const float (*acc)[4], long long r0, int nrows, const float *mul)\n"
    "{\n"
    "  int lane = threadIdx.x & 31;\n"
    "#pragma unroll\n"
    "  for (int r = 0; r < 2; r++)\n"
    "    if (r0 + (lane >> 2) + 8 * r < nrows)\n"
    "      {\n"
    "        fl_h *row = out + (r0 + (lane >> 2) + 8 * r) * FL_D + (lane & 3) * 2;\n"
    "#pragma unroll\n"
    "        for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "          *(unsigned *) (row + dn * 8) = fl_pack (acc[dn][2 * r] * mul[r], acc[dn][2 * r + 1] * mul[r]);\n"
    "      }\n"
    "}\n"
    "\n"
    "// the number of key tiles of BC keys a block of query rows [q0, q0 + FL_BR) reads\n"
    "static __device__ __forceinline__ int\n"
    "fl_key_tiles (int q0, int tq, int tk, int causal)\n"
    "{\n"
    "  int kend = tk;\n"
    "  if (causal)\n"
    "    kend = min (kend, min (q0 + FL_BR, tq));\n"
    "  return (kend + FL_BC - 1) / FL_BC;\n"
    "}\n"
    "\n"
    "// Forward: one block per (batch * head, 128 query rows), the last query tiles first (they read the most\n"
    "// keys when causal). O = softmax(scale Q K^T) V with the running max and sum of FlashAttention-2 (the\n"
    "// rescaling of O deferred to the end), lse = ln(sum exp(scale s)) in the padded [B*H, lse_len] layout\n"
    "// (0 for the rows tq <= i < lse_len).\n"
    "extern \"C\" __global__ void __launch_bounds__ (FL_THREADS, FL_MINB_FWD)\n"
    "wb_flash_fwd (const fl_h *q, long long q_sb, long long q_sh, long long q_ss,\n"
    "              const fl_h *k, long long k_sb, long long k_sh, long long k_ss,\n"
    "              const fl_h *v, long long v_sb, long long v_sh, long long v_ss,\n"
    "              fl_h *o, float *lse, int heads, int n_bh, int tq, int tk, int lse_len, float scale_log2, int causal)\n"
    "{\n"
    "  __shared__ __align__ (128) fl_h sm[FL_SMEM_ROWS * FL_D];\n"
    "  const int n_qt = (tq + FL_BR - 1) / FL_BR;\n"
    "  const int bh = blockIdx.x % n_bh, q0 = (n_qt - 1 - (int) (blockIdx.x / n_bh)) * FL_BR;\n"
    "  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, t4 = lane & 3;\n"
    "  const int row = q0 + warp * 16 + (lane >> 2); // this thread's rows: row, row + 8\n"
    "  const int n_kt = fl_key_tiles (q0, tq, tk, causal);\n"
    "  unsigned  qf[FL_D / 16][4];\n"
    "  float     acc[FL_D / 8][4], m[2] = { -WB_INF_F, -WB_INF_F }, l[2] = { 0.0f, 0.0f };\n"
    "\n"
    "  q += (bh / heads) * q_sb + (bh % heads) * q_sh;\n"
    "  k += (bh / heads) * k_sb + (bh % heads) * k_sh;\n"
    "  v += (bh / heads) * v_sb + (bh % heads) * v_sh;\n"
    "  fl_load<FL_BR> (sm, q, q_ss, q0, tq);\n"
    "  fl_commit ();\n"
    "  fl_wait<0> ();\n"
    "  __syncthreads ();\n"
    "  fl_frags (qf, sm, warp * 16);\n"
    "  __syncthreads ();\n"
    "  fl_load<FL_BC> (sm, k, k_ss, 0, tk);\n"
    "  fl_load<FL_BC> (sm + FL_BC * FL_D, v, v_ss, 0, tk);\n"
    "  fl_commit ();\n"
    "#pragma unroll\n"
    "  for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "    acc[dn][0] = acc[dn][1] = acc[dn][2] = acc[dn][3] = 0.0f;\n"
    "  for (int jt = 0; jt < n_kt; jt++)\n"
    "    {\n"
    "      const fl_h *ks = sm + (jt & 1) * 2 * FL_BC * FL_D, *vs = ks + FL_BC * FL_D;\n"
    "      const int   j0 = jt * FL_BC;\n"
    "      float       s[FL_BC / 8][4], mx[2], mu[2], alpha[2];\n"
    "      if (jt + 1 < n_kt)\n"
    "        {\n"
    "          fl_h *kn = sm + ((jt + 1) & 1) * 2 * FL_BC * FL_D;\n"
    "          fl_load<FL_BC> (kn, k, k_ss, j0 + FL_BC, tk);\n"
    "          fl_load<FL_BC> (kn + FL_BC * FL_D, v, v_ss, j0 + FL_BC, tk);\n"
    "        }\n"
    "      fl_commit ();\n"
    "      fl_wait<1> ();\n"
    "      __syncthreads ();\n"
    "#pragma unroll\n"
    "      for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "        s[nt][0] = s[nt][1] = s[nt][2] = s[nt][3] = 0.0f;\n"
    "      fl_gemm_nt<FL_D / 16, FL_BC / 8> (s, qf, ks, 0);\n"
    "      if (j0 + FL_BC > tk || (causal && j0 + FL_BC - 1 > q0 + warp * 16))\n"
    "        {\n"
    "#pragma unroll\n"
    "          for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "#pragma unroll\n"
    "            for (int e = 0; e < 4; e++)\n"
    "              {\n"
    "                int j = j0 + nt * 8 + t4 * 2 + (e & 1);\n"
    "                s[nt][e] = j >= tk || (causal && j > row + (e >> 1) * 8) ? -WB_INF_F : s[nt][e] * scale_log2;\n"
    "              }\n"
    "        }\n"
    "      else\n"
    "        {\n"
    "#pragma unroll\n"
    "          for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "#pragma unroll\n"
    "            for (int e = 0; e < 4; e++)\n"
    "              s[nt][e] *= scale_log2;\n"
    "        }\n"
    "      mx[0] = m[0], mx[1] = m[1];\n"
    "#pragma unroll\n"
    "      for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "        {\n"
    "          mx[0] = fmaxf (mx[0], fmaxf (s[nt][0], s[nt][1]));\n"
    "          mx[1] = fmaxf (mx[1], fmaxf (s[nt][2], s[nt][3]));\n"
    "        }\n"
    "#pragma unroll\n"
    "      for (int r = 0; r < 2; r++)\n"
    "        {\n"
    "          mx[r] = fmaxf (mx[r], __shfl_xor_sync (0xffffffffu, mx[r], 1));\n"
    "          mx[r] = fmaxf (mx[r], __shfl_xor_sync (0xffffffffu, mx[r], 2));\n"
    "          mu[r] = mx[r] == -WB_INF_F ? 0.0f : mx[r];\n"
    "          alpha[r] = fl_exp2 (m[r] - mu[r]);\n"
    "          m[r] = mx[r];\n"
    "          l[r] *= alpha[r];\n"
    "        }\n"
    "#pragma unroll\n"
    "      for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "#pragma unroll\n"
    "        for (int e = 0; e < 4; e++)\n"
    "          {\n"
    "            s[nt][e] = fl_exp2 (s[nt][e] - mu[e >> 1]);\n"
    "            l[e >> 1] += s[nt][e];\n"
    "          }\n"
    "#pragma unroll\n"
    "      for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "#pragma unroll\n"
    "        for (int e = 0; e < 4; e++)\n"
    "          acc[dn][e] *= alpha[e >> 1];\n"
    "      fl_gemm_pv<FL_BC / 16> (acc, s, vs, 0);\n"
    "      __syncthreads ();\n"
    "    }\n"
    "#pragma unroll\n"
    "  for (int r = 0; r < 2; r++)\n"
    "    {\n"
    "      int i = row + 8 * r;\n"
    "      l[r] += __shfl_xor_sync (0xffffffffu, l[r], 1);\n"
    "      l[r] += __shfl_xor_sync (0xffffffffu, l[r], 2);\n"
    "      if (t4 == 0 && i < lse_len)\n"
    "        lse[(long long) bh * lse_len + i] = i >= tq ? 0.0f : l[r] > 0.0f ? (m[r] + log2f (l[r])) * FL_LN2 : -WB_INF_F;\n"
    "      l[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;\n"
    "    }\n"
    "  fl_store (o + (long long) bh * tq * FL_D, acc, row - (lane >> 2), tq, l);\n"
    "}\n"
    "\n"
    "// Backward, step 1: per query row i (padded to a multiple of FL_BR), ld[i] = (lse_i log2(e), D_i) with\n"
    "// D_i = sum_d dO[i, d] O[i, d]; the padding rows get (+inf, 0) so that their P is 0, and so does a row\n"
    "// whose lse is -inf.\n"
    "extern \"C\" __global__ void __launch_bounds__ (FL_THREADS)\n"
    "wb_flash_bwd_dot (const fl_h *go, long long go_sb, long long go_sh, long long go_ss,\n"
    "                  const fl_h *o, long long o_sb, long long o_sh, long long o_ss,\n"
    "                  const float *lse, float2 *ld, int heads, int n_bh, int tq, int tq_pad, int lse_len)\n"
    "{\n"
    "  const long long x = (long long) blockIdx.x * (FL_THREADS / 32) + (threadIdx.x >> 5);\n"
    "  const int       lane = threadIdx.x & 31;\n"
    "  const int       bh = (int) (x / tq_pad), i = (int) (x % tq_pad);\n"
    "  float           d = 0.0f, l;\n"
    "\n"
    "  if (bh >= n_bh)\n"
    "    return;\n"
    "  if (i < tq)\n"
    "    {\n"
    "      const fl_h *a = go + (bh / heads) * go_sb + (bh % heads) * go_sh + i * go_ss;\n"
    "      const fl_h *b = o + (bh / heads) * o_sb + (bh % heads) * o_sh + i * o_ss;\n"
    "#pragma unroll\n"
    "      for (int e = lane * 2; e < FL_D; e += 64)\n"
    "        {\n"
    "          unsigned ua = *(const unsigned *) (a + e), ub = *(const unsigned *) (b + e);\n"
    "          d += fl_load1 ((fl_h) (ua & 0xffff)) * fl_load1 ((fl_h) (ub & 0xffff)) + fl_load1 ((fl_h) (ua >> 16)) * fl_load1 ((fl_h) (ub >> 16));\n"
    "        }\n"
    "    }\n"
    "#pragma unroll\n"
    "  for (int s = 16; s > 0; s >>= 1)\n"
    "    d += __shfl_xor_sync (0xffffffffu, d, s);\n"
    "  if (lane != 0)\n"
    "    return;\n"
    "  l = i < tq ? lse[(long long) bh * lse_len + i] : -WB_INF_F;\n"
    "  ld[x] = make_float2 (l == -WB_INF_F ? WB_INF_F : l * FL_LOG2E, i < tq ? d : 0.0f);\n"
    "}\n"
    "\n"
    "// Backward, dQ: one block per (batch * head, 128 query rows), looping over the key tiles: S = Q K^T,\n"
    "// P = exp2(S scale log2(e) - lse log2(e)), dP = dO V^T, dS = P (dP - D), dQ += dS K; dQ = scale dQ.\n"
    "extern \"C\" __global__ void __launch_bounds__ (FL_THREADS, FL_MINB_DQ)\n"
    "wb_flash_bwd_dq (const fl_h *q, long long q_sb, long long q_sh, long long q_ss,\n"
    "                 const fl_h *k, long long k_sb, long long k_sh, long long k_ss,\n"
    "                 const fl_h *v, long long v_sb, long long v_sh, long long v_ss,\n"
    "                 const fl_h *go, long long go_sb, long long go_sh, long long go_ss,\n"
    "                 const float2 *ld, fl_h *dq, int heads, int n_bh, int tq, int tk, int tq_pad, float scale_log2,\n"
    "                 float scale, int causal)\n"
    "{\n"
    "  __shared__ __align__ (128) fl_h sm[FL_SMEM_ROWS * FL_D];\n"
    "  const int n_qt = (tq + FL_BR - 1) / FL_BR;\n"
    "  const int bh = blockIdx.x % n_bh, q0 = (n_qt - 1 - (int) (blockIdx.x / n_bh)) * FL_BR;\n"
    "  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, t4 = lane & 3;\n"
    "  const int row = q0 + warp * 16 + (lane >> 2);\n"
    "  const int n_kt = fl_key_tiles (q0, tq, tk, causal);\n"
    "  unsigned  qf[FL_D / 16][4], of[FL_D / 16][4];\n"
    "  float     acc[FL_D / 8][4], lse2[2], dd[2];\n"
    "\n"
    "  q += (bh / heads) * q_sb + (bh % heads) * q_sh;\n"
    "  k += (bh / heads) * k_sb + (bh % heads) * k_sh;\n"
    "  v += (bh / heads) * v_sb + (bh % heads) * v_sh;\n"
    "  go += (bh / heads) * go_sb + (bh % heads) * go_sh;\n"
    "#pragma unroll\n"
    "  for (int r = 0; r < 2; r++)\n"
    "    {\n"
    "      float2 x = ld[(long long) bh * tq_pad + row + 8 * r];\n"
    "      lse2[r] = x.x;\n"
    "      dd[r] = x.y;\n"
    "    }\n"
    "  fl_load<FL_BR> (sm, q, q_ss, q0, tq);\n"
    "  fl_commit ();\n"
    "  fl_wait<0> ();\n"
    "  __syncthreads ();\n"
    "  fl_frags (qf, sm, warp * 16);\n"
    "  __syncthreads ();\n"
    "  fl_load<FL_BR> (sm, go, go_ss, q0, tq);\n"
    "  fl_commit ();\n"
    "  fl_wait<0> ();\n"
    "  __syncthreads ();\n"
    "  fl_frags (of, sm, warp * 16);\n"
    "  __syncthreads ();\n"
    "  fl_load<FL_BC> (sm, k, k_ss, 0, tk);\n"
    "  fl_load<FL_BC> (sm + FL_BC * FL_D, v, v_ss, 0, tk);\n"
    "  fl_commit ();\n"
    "#pragma unroll\n"
    "  for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "    acc[dn][0] = acc[dn][1] = acc[dn][2] = acc[dn][3] = 0.0f;\n"
    "  for (int jt = 0; jt < n_kt; jt++)\n"
    "    {\n"
    "      const fl_h *ks = sm + (jt & 1) * 2 * FL_BC * FL_D, *vs = ks + FL_BC * FL_D;\n"
    "      const int   j0 = jt * FL_BC;\n"
    "      float       s[FL_BC / 8][4], dp[FL_BC / 8][4];\n"
    "      if (jt + 1 < n_kt)\n"
    "        {\n"
    "          fl_h *kn = sm + ((jt + 1) & 1) * 2 * FL_BC * FL_D;\n"
    "          fl_load<FL_BC> (kn, k, k_ss, j0 + FL_BC, tk);\n"
    "          fl_load<FL_BC> (kn + FL_BC * FL_D, v, v_ss, j0 + FL_BC, tk);\n"
    "        }\n"
    "      fl_commit ();\n"
    "      fl_wait<1> ();\n"
    "      __syncthreads ();\n"
    "#pragma unroll\n"
    "      for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "#pragma unroll\n"
    "        for (int e = 0; e < 4; e++)\n"
    "          s[nt][e] = dp[nt][e] = 0.0f;\n"
    "      fl_gemm_nt<FL_D / 16, FL_BC / 8> (s, qf, ks, 0);\n"
    "      fl_gemm_nt<FL_D / 16, FL_BC / 8> (dp, of, vs, 0);\n"
    "      {\n"
    "        const bool mask = j0 + FL_BC > tk || (causal && j0 + FL_BC - 1 > q0 + warp * 16);\n"
    "#pragma unroll\n"
    "        for (int nt = 0; nt < FL_BC / 8; nt++)\n"
    "#pragma unroll\n"
    "          for (int e = 0; e < 4; e++)\n"
    "            {\n"
    "              int   j = j0 + nt * 8 + t4 * 2 + (e & 1);\n"
    "              float p = fl_exp2 (s[nt][e] * scale_log2 - lse2[e >> 1]);\n"
    "              if (mask && (j >= tk || (causal && j > row + (e >> 1) * 8)))\n"
    "                p = 0.0f;\n"
    "              s[nt][e] = p * (dp[nt][e] - dd[e >> 1]);\n"
    "            }\n"
    "      }\n"
    "      fl_gemm_pv<FL_BC / 16> (acc, s, ks, 0);\n"
    "      __syncthreads ();\n"
    "    }\n"
    "  {\n"
    "    float mul[2] = { scale, scale };\n"
    "    fl_store (dq + (long long) bh * tq * FL_D, acc, row - (lane >> 2), tq, mul);\n"
    "  }\n"
    "}\n"
    "\n"
    "// warps qs = 0 and 1 of key group kg: x (of qs 0) += x of qs 1, through red[FL_KG][FL_D / 2][32]\n"
    "static __device__ __forceinline__ void\n"
    "fl_reduce (float (*x)[4], float *red, int kg, int qs)\n"
    "{\n"
    "  int lane = threadIdx.x & 31;\n"
    "  if (qs == 1)\n"
    "#pragma unroll\n"
    "    for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "#pragma unroll\n"
    "      for (int e = 0; e < 4; e++)\n"
    "        red[((kg * (FL_D / 8) + dn) * 4 + e) * 32 + lane] = x[dn][e];\n"
    "  __syncthreads ();\n"
    "  if (qs == 0)\n"
    "#pragma unroll\n"
    "    for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "#pragma unroll\n"
    "      for (int e = 0; e < 4; e++)\n"
    "        x[dn][e] += red[((kg * (FL_D / 8) + dn) * 4 + e) * 32 + lane];\n"
    "  __syncthreads ();\n"
    "}\n"
    "\n"
    "// Backward, dK and dV: one block per (batch * head, FL_BKV keys), looping over the query tiles that see\n"
    "// them (from the diagonal when causal): S^T = K Q^T, P^T, dV += P^T dO, dP^T = V dO^T, dS^T = P^T (dP^T - D),\n"
    "// dK += dS^T Q; dK = scale dK. With FL_QS = 2 two warps share 16 keys, each taking half of the queries of a\n"
    "// tile, and their partial sums are added in shared memory at the end (always in the same order).\n"
    "extern \"C\" __global__ void __launch_bounds__ (FL_THREADS, FL_MINB_DKDV)\n"
    "wb_flash_bwd_dkdv (const fl_h *q, long long q_sb, long long q_sh, long long q_ss,\n"
    "                   const fl_h *k, long long k_sb, long long k_sh, long long k_ss,\n"
    "                   const fl_h *v, long long v_sb, long long v_sh, long long v_ss,\n"
    "                   const fl_h *go, long long go_sb, long long go_sh, long long go_ss,\n"
    "                   const float2 *ld, fl_h *dk, fl_h *dv, int heads, int n_bh, int tq, int tk, int tq_pad,\n"
    "                   float scale_log2, float scale, int causal)\n"
    "{\n"
    "  __shared__ __align__ (128) fl_h sm[(2 * FL_BKV + 2 * FL_NBUF * FL_BQ) * FL_D];\n"
    "  fl_h     *ks = sm, *vs = sm + FL_BKV * FL_D, *qb = sm + 2 * FL_BKV * FL_D;\n"
    "  const int bh = blockIdx.x % n_bh, j0 = (int) (blockIdx.x / n_bh) * FL_BKV;\n"
    "  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, t4 = lane & 3;\n"
    "  const int kg = warp % FL_KG, qs = warp / FL_KG;\n"
    "  const int jw = j0 + kg * 16, key = jw + (lane >> 2); // this thread's keys: key, key + 8\n"
    "  const int it0 = causal ? j0 / FL_BQ : 0, n_it = (tq + FL_BQ - 1) / FL_BQ;\n"
    "  float     dka[FL_D / 8][4], dva[FL_D / 8][4];\n"
    "\n"
    "  q += (bh / heads) * q_sb + (bh % heads) * q_sh;\n"
    "  k += (bh / heads) * k_sb + (bh % heads) * k_sh;\n"
    "  v += (bh / heads) * v_sb + (bh % heads) * v_sh;\n"
    "  go += (bh / heads) * go_sb + (bh % heads) * go_sh;\n"
    "  ld += (long long) bh * tq_pad;\n"
    "  fl_load<FL_BKV> (ks, k, k_ss, j0, tk);\n"
    "  fl_load<FL_BKV> (vs, v, v_ss, j0, tk);\n"
    "  fl_commit ();\n"
    "  if (it0 < n_it)\n"
    "    {\n"
    "      fl_load<FL_BQ> (qb, q, q_ss, it0 * FL_BQ, tq);\n"
    "      fl_load<FL_BQ> (qb + FL_BQ * FL_D, go, go_ss, it0 * FL_BQ, tq);\n"
    "    }\n"
    "  fl_commit ();\n"
    "#pragma unroll\n"
    "  for (int dn = 0; dn < FL_D / 8; dn++)\n"
    "#pragma unroll\n"
    "    for (int e = 0; e < 4; e++)\n"
    "      dka[dn][e] = dva[dn][e] = 0.0f;\n"
    "  for (int it = it0; it < n_it; it++)\n"
    "    {\n"
    "      const fl_h *qt = qb + (FL_NBUF == 2 ? ((it - it0) & 1) : 0) * 2 * FL_BQ * FL_D, *ot = qt + FL_BQ * FL_D;\n"
    "      const int   i0 = it * FL_BQ + qs * FL_NQ; // the warp's first query\n"
    "      float       st[FL_NQ / 8][4], dpt[FL_NQ / 8][4];\n"
    "      unsigned    a[4];\n"
    "      if (FL_NBUF == 2)\n"
    "        {\n"
    "          if (it + 1 < n_it)\n"
    "            {\n"
    "              fl_h *qn = qb + ((it + 1 - it0) & 1) * 2 * FL_BQ * FL_D;\n"
    "              fl_load<FL_BQ> (qn, q, q_ss, (it + 1) * FL_BQ, tq);\n"
    "              fl_load<FL_BQ> (qn + FL_BQ * FL_D, go, go_ss, (it + 1) * FL_BQ, tq);\n"
    "            }\n"
    "          fl_commit ();\n"
    "          fl_wait<1> ();\n"
    "        }\n"
    "      else\n"
    "        fl_wait<0> ();\n"
    "      __syncthreads ();\n"
    "#pragma unroll\n"
    "      for (int nt = 0; nt < FL_NQ / 8; nt++)\n"
    "#pragma unroll\n"
    "        for (int e = 0; e < 4; e++)\n"
    "          st[nt][e] = dpt[nt][e] = 0.0f;\n"
    "#pragma unroll\n"
    "      for (int kk = 0; kk < FL_D / 16; kk++)\n"
    "        {\n"
    "          fl_ldm (a, fl_a_at (ks, kg * 16, kk * 2));\n"
    "#pragma unroll\n"
    "          for (int nn = 0; nn < FL_NQ / 16; nn++)\n"
    "            {\n"
    "              unsigned b[4];\n"
    "              fl_ldm (b, fl_b_at (qt, qs * FL_NQ + nn * 16, kk * 2));\n"
    "              fl_mma (st[2 * nn], a, b[0], b[1]);\n"
    "              fl_mma (st[2 * nn + 1], a, b[2], b[3]);\n"
    "            }\n"
    "          fl_ldm (a, fl_a_at (vs, kg * 16, kk * 2));\n"
    "#pragma unroll\n"
    "          for (int nn = 0; nn < FL_NQ / 16; nn++)\n"
    "            {\n"
    "              unsigned b[4];\n"
    "              fl_ldm (b, fl_b_at (ot, qs * FL_NQ + nn * 16, kk * 2));\n"
    "              fl_mma (dpt[2 * nn], a, b[0], b[1]);\n"
    "              fl_mma (dpt[2 * nn + 1], a, b[2], b[3]);\n"
    "            }\n"
    "        }\n"
    "      {\n"
    "        const bool mask = causal && jw + 15 > i0;\n"
    "#pragma unroll\n"
    "        for (int nt = 0; nt < FL_NQ / 8; nt++)\n"
    "          {\n"
    "            const float4 x = *(const float4 *) (ld + i0 + nt * 8 + t4 * 2); // (lse2, D) of queries i, i + 1\n"
    "#pragma unroll\n"
    "            for (int e = 0; e < 4; e++)\n"
    "              {\n"
    "                int   i = i0 + nt * 8 + t4 * 2 + (e & 1);\n"
    "                float p = fl_exp2 (st[nt][e] * scale_log2 - ((e & 1) ? x.z : x.x));\n"
    "                if (mask && key + (e >> 1) * 8 > i)\n"
    "                  p = 0.0f;\n"
    "                st[nt][e] = p;\n"
    "                dpt[nt][e] = p * (dpt[nt][e] - ((e & 1) ? x.w : x.y));\n"
    "              }\n"
    "          }\n"
    "      }\n"
    "      fl_gemm_pv<FL_NQ / 16> (dva, st, ot, qs * FL_NQ);\n"
    "      fl_gemm_pv<FL_NQ / 16> (dka, dpt, qt, qs * FL_NQ);\n"
    "      __syncthreads ();\n"
    "      if (FL_NBUF == 1 && it + 1 < n_it)\n"
    "        {\n"
    "          fl_load<FL_BQ> (qb, q, q_ss, (it + 1) * FL_BQ, tq);\n"
    "          fl_load<FL_BQ> (qb + FL_BQ * FL_D, go, go_ss, (it + 1) * FL_BQ, tq);\n"
    "          fl_commit ();\n"
    "        }\n"
    "    }\n"
    "  fl_wait<0> ();\n"
    "  if (FL_QS == 2)\n"
    "    {\n"
    "      __syncthreads ();\n"
    "      fl_reduce (dka, (float *) sm, kg, qs);\n"
    "      fl_reduce (dva, (float *) sm, kg, qs);\n"
    "    }\n"
    "  if (qs == 0)\n"
    "    {\n"
    "      float one[2] = { 1.0f, 1.0f }, mul[2] = { scale, scale };\n"
    "      fl_store (dk + (long long) bh * tk * FL_D, dka, jw, tk, mul);\n"
    "      fl_store (dv + (long long) bh * tk * FL_D, dva, jw, tk, one);\n"
    "    }\n"
    "}\n";

/* -- the launches ------------------------------------------------------------------------------- */

static char *sources[2][2]; /* [f16][e == 128] */

gboolean
wb_cuda_flash_supported (WbDtype dtype, gint64 e, gint64 ev, char **why_not)
{
  char *why = NULL;

  if (dtype != WB_DTYPE_BFLOAT16 && dtype != WB_DTYPE_FLOAT16)
    why = g_strdup_printf ("%s inputs (the fused kernels take bf16 and f16)", wb_dtype_shortname (dtype));
  else if (e != ev)
    why = g_strdup_printf ("head dims %" G_GINT64_FORMAT " (q, k) and %" G_GINT64_FORMAT " (v) differ", e, ev);
  else if (e != 64 && e != 128)
    why = g_strdup_printf ("head dim %" G_GINT64_FORMAT " (the fused kernels take 64 and 128)", e);
  if (why == NULL)
    return TRUE;
  if (why_not)
    *why_not = why;
  else
    g_free (why);
  return FALSE;
}

gboolean
wb_cuda_flash_mat (const WbTensor *t, WbCudaFlashMat *out)
{
  gint64 s[3];

  if (t->rank != 4 || (t->strides[3] != 1 && t->shape[3] > 1) || wb_dtype_size (t->dtype) != 2)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    {
      s[i] = t->shape[i] > 1 ? t->strides[i] : 0;
      if (s[i] % 8 != 0)
        return FALSE;
    }
  out->ptr = wb_cuda_tensor_ptr (t);
  out->sb = s[0], out->sh = s[1], out->ss = s[2];
  return out->ptr % 16 == 0;
}

char *
wb_cuda_flash_source (WbDtype dtype, gint64 head_dim)
{
  if (!wb_cuda_flash_supported (dtype, head_dim, head_dim, NULL))
    return NULL;
  return g_strdup_printf ("// FlashAttention-2 kernels for %s, head dim %d (wb-cuda-flash.c)\n#define FL_D %d\n#define FL_F16 %d\n%s",
                          wb_dtype_shortname (dtype), (int) head_dim, (int) head_dim, dtype == WB_DTYPE_FLOAT16, flash_text);
}

static const char *
source_for (WbDtype dtype, gint64 e)
{
  char **slot = &sources[dtype == WB_DTYPE_FLOAT16][e == 128];

  if (*slot == NULL)
    *slot = wb_cuda_flash_source (dtype, e);
  return *slot;
}

static gboolean
launch (WbCudaRuntime *rt, const WbCudaFlashDims *d, const char *entry, gint64 grid, void **args, const char *what, GError **error)
{
  CUfunction fn;

  if (grid > G_MAXINT32)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "attention: %" G_GINT64_FORMAT " blocks are too many for one launch", grid);
      return FALSE;
    }
  if ((fn = wb_cuda_runtime_get_function (rt, source_for (d->dtype, d->e), entry, error)) == NULL)
    return FALSE;
  return wb_cuda_runtime_launch (rt, fn, (guint) grid, args, what, error);
}

/* the kernels index rows and (batch*head) with int */
static gboolean
check_dims (const WbCudaFlashDims *d, gint64 lse_len, GError **error)
{
  gint64 limit = G_MAXINT32 / 2;

  if (!wb_cuda_flash_supported (d->dtype, d->e, d->e, NULL) || d->b < 1 || d->h < 1 || d->tq < 1 || d->tk < 1 || lse_len < d->tq)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "attention: the fused kernels do not take these dimensions");
      return FALSE;
    }
  if (d->b * d->h > limit || d->tq > limit || d->tk > limit || lse_len > limit)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "attention: sequences of %" G_GINT64_FORMAT " x %" G_GINT64_FORMAT " are too long for the fused kernels",
                   d->tq, d->tk);
      return FALSE;
    }
  return TRUE;
}

gboolean
wb_cuda_flash_forward (WbCudaRuntime *rt, const WbCudaFlashDims *d, const WbCudaFlashMat *q, const WbCudaFlashMat *k, const WbCudaFlashMat *v, CUdeviceptr o, CUdeviceptr lse, gint64 lse_len, GError **error)
{
  WbCudaFlashMat mq = *q, mk = *k, mv = *v;
  int            heads, n_bh, tq, tk, len, causal = d->causal;
  float          scale_log2 = (float) (d->scale * 1.4426950408889634);

  if (!check_dims (d, lse_len, error))
    return FALSE;
  heads = (int) d->h, n_bh = (int) (d->b * d->h), tq = (int) d->tq, tk = (int) d->tk, len = (int) lse_len;
  {
    void *args[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                     &o, &lse, &heads, &n_bh, &tq, &tk, &len, &scale_log2, &causal };
    return launch (rt, d, "wb_flash_fwd", (d->tq + FLASH_BR - 1) / FLASH_BR * n_bh, args, "attention (fused forward)", error);
  }
}

gboolean
wb_cuda_flash_backward (WbCudaRuntime *rt, const WbCudaFlashDims *d, const WbCudaFlashMat *q, const WbCudaFlashMat *k, const WbCudaFlashMat *v, const WbCudaFlashMat *go, const WbCudaFlashMat *o, CUdeviceptr lse, gint64 lse_len, CUdeviceptr dq, CUdeviceptr dk, CUdeviceptr dv, GError **error)
{
  WbCudaFlashMat mq = *q, mk = *k, mv = *v, mgo = *go, mo = *o;
  gint64         tq_pad = (d->tq + FLASH_BR - 1) / FLASH_BR * FLASH_BR, n_ld, bkv = d->e == 64 ? 128 : 64;
  int            heads, n_bh, tq, tk, pad, len, causal = d->causal;
  float          scale = d->scale, scale_log2 = (float) (d->scale * 1.4426950408889634);
  g_autoptr (WbTensor) ld = NULL;
  CUdeviceptr pld;

  if (!check_dims (d, lse_len, error))
    return FALSE;
  heads = (int) d->h, n_bh = (int) (d->b * d->h), tq = (int) d->tq, tk = (int) d->tk, pad = (int) tq_pad, len = (int) lse_len;
  n_ld = 2 * n_bh * tq_pad;
  if ((ld = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_ld, error)) == NULL)
    return FALSE;
  pld = wb_cuda_tensor_ptr (ld);
  {
    void *dot[] = { &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &mo.ptr, &mo.sb, &mo.sh, &mo.ss, &lse, &pld, &heads, &n_bh, &tq, &pad, &len };
    void *dqa[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                    &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &pld, &dq, &heads, &n_bh, &tq, &tk, &pad, &scale_log2, &scale, &causal };
    void *dkv[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                    &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &pld, &dk, &dv, &heads, &n_bh, &tq, &tk, &pad, &scale_log2, &scale, &causal };
    return launch (rt, d, "wb_flash_bwd_dot", (n_bh * tq_pad + 7) / 8, dot, "attention (fused backward: D = rowsum(dO O))", error) &&
           launch (rt, d, "wb_flash_bwd_dkdv", (d->tk + bkv - 1) / bkv * n_bh, dkv, "attention (fused backward: dK, dV)", error) &&
           launch (rt, d, "wb_flash_bwd_dq", tq_pad / FLASH_BR * n_bh, dqa, "attention (fused backward: dQ)", error);
  }
}
