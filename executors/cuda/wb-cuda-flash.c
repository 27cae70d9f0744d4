/* wb-cuda-flash.c — FlashAttention-2 forward and backward kernels for bf16/f16 and head dims 64 and 128
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tri Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning" (2023),
 * Algorithms 1 (forward) and 2 (backward: dQ's share of each tile added into an f32 sum with atomic adds; with
 * WbCudaFlashDims.deterministic, dQ from its own kernel per query tile instead).
 * The kernel text is wb-cuda-flash-kernels.c (helpers, forward) followed by wb-cuda-flash-backward.c.
 * Launches go through wb_cuda_runtime_launch_ex with dynamic shared memory (up to 160 KiB a block) and
 * blocks of 4 or 8 warps; each warp takes two tiles of 16 rows where its registers allow, so that every
 * fragment read from shared memory feeds two MMAs. Tiles (bf16/f16):
 *   forward       one block per (batch*head, 128 query rows), 4 warps of 32 rows; key/value tiles of 64
 *                 (E=64, Q fragments in registers) or 32 (E=128, Q read from shared memory) rows,
 *                 double-buffered
 *   dQ            as the forward, with Q and dO in shared memory; key tiles of 64 (E=64) or 32 (E=128)
 *   dK, dV        one block per (batch*head, 128 keys): 4 warps of 32 keys (E=64) or 8 warps of 16 keys
 *                 (E=128); K and V stay in shared memory; query/dO tiles of 32 rows, double-buffered; with
 *                 dQ, dS goes through a shared [32, 128] tile and each warp adds 16 rows by 32 columns of
 *                 dS K into the f32 sum with red.global.add.v2.f32 (zeroed by the D kernel)
 *   dK, dV, dQ    (E=128) FlashAttention-2's tiles: one block of 8 warps per (batch*head, 128 keys), query
 *                 tiles of 64; S and dP by warps of 32 x 32, P and dS through shared memory, dK and dV by
 *                 warps of 32 keys x 64 columns, dQ's share by warps of 32 queries x 32 columns; 160 KiB
 *   D             one warp per query row: D = rowsum(dO * O), with lse * log2(e) beside it
 * H200, against torch SDPA (flash) at the same shapes (an earlier form of tests/bench/bench-flash.py):
 * gpt2_block's 8x12x1024x64 causal: forward 0.105 -> 0.101 ms (SDPA 0.060), backward 0.306 -> 0.248 ms
 * (SDPA ~0.214); llama_layer's 1x32x2048x128 causal: forward 0.205 -> 0.178 ms (SDPA 0.097), backward
 * 0.723 -> 0.536 ms (SDPA ~0.33-0.38). dQ by atomic adds instead of its own kernel (tests/bench/bench-flash.py,
 * same call, H200): gpt2 backward 0.268 -> 0.242 ms; llama 0.552 -> 0.516 ms with the dK/dV tiles,
 * 0.454 ms with FlashAttention-2's (torch's efficient-attention backward, which Thunder's traces call: ~0.425;
 * those tiles made gpt2's slower, 0.281 ms).
 * Loads are cp.async of 16-byte chunks (zero-filled past the end of a sequence); each row's chunks are
 * XOR-swizzled with the row index so that ldmatrix reads no bank twice. Causal blocks skip the key tiles
 * above the diagonal (forward, dQ) and the query tiles before it (dK, dV); the blocks with the most work
 * are started first. */
#include "config.h"

#include "wb-cuda-flash.h"

#define FLASH_BR 128    /* query rows per forward/dQ block (FL_BR); the backward's row data is padded to it */
#define FLASH_K2_BN 128 /* wb_flash_bwd_kvq: keys per block (K2_BN) */
#define FLASH_K2_BM 64  /* and queries per tile (K2_BM) */

/* The tiles of each head dim (the kernels' FW_*, DQ_*, KV_* macros, wb-cuda-flash-kernels.c), chosen on an H200
 * among variants timed with an earlier form of tests/bench/bench-flash.py (which mirrors these numbers). Up to
 * 255 registers a thread (E=128's dQ spills 56 bytes and is still the fastest of them); shared memory per block: forward 48 / 64 KiB, dQ 64 / 96 KiB, dK/dV
 * 48 / 96 KiB, dK/dV with dQ's sum 56 / 104 KiB (E = 64 / 128). */
typedef struct
{
  int fw_warps, fw_mt, fw_bc, fw_qreg; /* forward: warps, 16-row tiles per warp, keys per tile, Q in registers */
  int dq_warps, dq_mt, dq_bc;          /* dQ: the same (Q and dO stay in shared memory) */
  int kv_kg, kv_mt, kv_qs, kv_bq;      /* dK/dV: warps along keys, 16-key tiles per warp, warps along queries, queries per tile */
  int kv_nbuf;                         /* dK/dV: query tile buffers */
  int kvq;                             /* dK/dV/dQ: wb_flash_bwd_kvq (64 queries by 128 keys) instead of wb_flash_bwd_dkdvq */
} Tiles;

static const Tiles tiles_64 = { 4, 2, 64, 1, 4, 2, 64, 4, 2, 1, 32, 2, 0 };
static const Tiles tiles_128 = { 4, 2, 32, 0, 4, 2, 32, 8, 1, 1, 32, 2, 1 };

static const Tiles *
tiles_for (gint64 e)
{
  return e == 64 ? &tiles_64 : &tiles_128;
}

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
wb_cuda_flash_arch_ok (int cc_major, int cc_minor, char **why_not)
{
  if (cc_major >= 9)
    return TRUE;
  if (why_not != NULL)
    *why_not = g_strdup_printf ("sm_%d%d: the fused kernels need sm_90 or newer (stmatrix)", cc_major, cc_minor);
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
  const Tiles *x = tiles_for (head_dim);

  if (!wb_cuda_flash_supported (dtype, head_dim, head_dim, NULL))
    return NULL;
  return g_strdup_printf ("// FlashAttention-2 kernels for %s, head dim %d (wb-cuda-flash.c)\n#define FL_D %d\n#define FL_F16 %d\n"
                          "#define FW_WARPS %d\n#define FW_MT %d\n#define FW_BC %d\n#define FW_QREG %d\n"
                          "#define DQ_WARPS %d\n#define DQ_MT %d\n#define DQ_BC %d\n"
                          "#define KV_KG %d\n#define KV_MT %d\n#define KV_QS %d\n#define KV_BQ %d\n#define KV_NBUF %d\n%s%s",
                          wb_dtype_shortname (dtype), (int) head_dim, (int) head_dim, dtype == WB_DTYPE_FLOAT16, x->fw_warps, x->fw_mt,
                          x->fw_bc, x->fw_qreg, x->dq_warps, x->dq_mt, x->dq_bc, x->kv_kg, x->kv_mt, x->kv_qs, x->kv_bq, x->kv_nbuf,
                          wb_cuda_flash_fwd_text, wb_cuda_flash_bwd_text);
}

static const char *
source_for (WbDtype dtype, gint64 e)
{
  char **slot = &sources[dtype == WB_DTYPE_FLOAT16][e == 128];

  if (*slot == NULL)
    *slot = wb_cuda_flash_source (dtype, e);
  return *slot;
}

/* @grid blocks of @warps warps with @smem bytes of dynamic shared memory */
static gboolean
launch (WbCudaRuntime *rt, const WbCudaFlashDims *d, const char *entry, gint64 grid, int warps, gsize smem, void **args, const char *what, GError **error)
{
  CUfunction  fn;
  const guint g[3] = { (guint) grid, 1, 1 };

  if (grid > G_MAXINT32)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "attention: %" G_GINT64_FORMAT " blocks are too many for one launch", grid);
      return FALSE;
    }
  if ((fn = wb_cuda_runtime_get_static_function (rt, source_for (d->dtype, d->e), entry, error)) == NULL)
    return FALSE;
  return wb_cuda_runtime_launch_ex (rt, fn, g, (guint) warps * 32, smem, args, what, error);
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
    void        *args[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                            &o, &lse, &heads, &n_bh, &tq, &tk, &len, &scale_log2, &causal };
    const Tiles *x = tiles_for (d->e);
    gsize        smem = (gsize) (FLASH_BR + 4 * x->fw_bc) * d->e * 2;
    return launch (rt, d, "wb_flash_fwd", (d->tq + FLASH_BR - 1) / FLASH_BR * n_bh, x->fw_warps, smem, args, "attention (fused forward)", error);
  }
}

gboolean
wb_cuda_flash_backward (WbCudaRuntime *rt, const WbCudaFlashDims *d, const WbCudaFlashMat *q, const WbCudaFlashMat *k, const WbCudaFlashMat *v, const WbCudaFlashMat *go, const WbCudaFlashMat *o, CUdeviceptr lse, gint64 lse_len, CUdeviceptr dq, CUdeviceptr dk, CUdeviceptr dv, GError **error)
{
  WbCudaFlashMat mq = *q, mk = *k, mv = *v, mgo = *go, mo = *o;
  const Tiles   *x = tiles_for (d->e);
  gint64         tq_pad = (d->tq + FLASH_BR - 1) / FLASH_BR * FLASH_BR, n_ld, bkv = 16 * x->kv_mt * x->kv_kg;
  gsize          smem_dq = (gsize) (2 * FLASH_BR + 4 * x->dq_bc) * d->e * 2, smem_kv = (gsize) (2 * bkv + 2 * x->kv_nbuf * x->kv_bq) * d->e * 2;
  /* dK, dV and dQ's sum: wb_flash_bwd_kvq's K, V, 2 x (Q, dO), P, dS, or the dK/dV tiles and the dS tile */
  gsize smem_kvq = x->kvq ? (gsize) (2 * FLASH_K2_BN + 4 * FLASH_K2_BM) * d->e * 2 + 2 * FLASH_K2_BM * FLASH_K2_BN * 2
                          : smem_kv + (gsize) x->kv_bq * bkv * 2;
  int   heads, n_bh, tq, tk, pad, len, causal = d->causal;
  float scale = d->scale, scale_log2 = (float) (d->scale * 1.4426950408889634);
  g_autoptr (WbTensor) ld = NULL;
  g_autoptr (WbTensor) acc = NULL;
  CUdeviceptr pld, pacc = 0;
  gint64      n_dq = d->b * d->h * d->tq * d->e;

  if (!check_dims (d, lse_len, error))
    return FALSE;
  heads = (int) d->h, n_bh = (int) (d->b * d->h), tq = (int) d->tq, tk = (int) d->tk, pad = (int) tq_pad, len = (int) lse_len;
  n_ld = 2 * n_bh * tq_pad;
  if ((ld = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_ld, error)) == NULL)
    return FALSE;
  pld = wb_cuda_tensor_ptr (ld);
  if (!d->deterministic)
    {
      gint64 n_acc = n_bh * tq_pad * d->e;
      if ((acc = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_acc, error)) == NULL)
        return FALSE;
      pacc = wb_cuda_tensor_ptr (acc);
    }
  {
    void  *dot[] = { &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &mo.ptr, &mo.sb, &mo.sh, &mo.ss, &lse, &pld, &pacc, &heads, &n_bh, &tq, &pad, &len };
    void  *dqa[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                     &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &pld, &dq, &heads, &n_bh, &tq, &tk, &pad, &scale_log2, &scale, &causal };
    void  *dkv[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                     &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &pld, &dk, &dv, &heads, &n_bh, &tq, &tk, &pad, &scale_log2, &scale, &causal };
    void  *dkvq[] = { &mq.ptr, &mq.sb, &mq.sh, &mq.ss, &mk.ptr, &mk.sb, &mk.sh, &mk.ss, &mv.ptr, &mv.sb, &mv.sh, &mv.ss,
                      &mgo.ptr, &mgo.sb, &mgo.sh, &mgo.ss, &pld, &pacc, &dk, &dv, &heads, &n_bh, &tq, &tk, &pad, &scale_log2, &scale, &causal };
    void  *cvt[] = { &pacc, &dq, &tq, &pad, &n_dq, &scale };
    gint64 kv_grid = (d->tk + bkv - 1) / bkv * n_bh;
    if (!launch (rt, d, "wb_flash_bwd_dot", (n_bh * tq_pad + 7) / 8, 8, 0, dot, "attention (fused backward: D = rowsum(dO O))", error))
      return FALSE;
    if (d->deterministic)
      return launch (rt, d, "wb_flash_bwd_dkdv", kv_grid, x->kv_kg * x->kv_qs, smem_kv, dkv, "attention (fused backward: dK, dV)", error) &&
             launch (rt, d, "wb_flash_bwd_dq", tq_pad / FLASH_BR * n_bh, x->dq_warps, smem_dq, dqa, "attention (fused backward: dQ)", error);
    if (x->kvq) /* FlashAttention-2's tiles: 8 warps per FLASH_K2_BN keys */
      kv_grid = (d->tk + FLASH_K2_BN - 1) / FLASH_K2_BN * n_bh;
    return launch (rt, d, x->kvq ? "wb_flash_bwd_kvq" : "wb_flash_bwd_dkdvq", kv_grid, x->kvq ? 8 : x->kv_kg * x->kv_qs, smem_kvq, dkvq,
                   "attention (fused backward: dK, dV, dQ's sum)", error) &&
           launch (rt, d, "wb_flash_bwd_dq_convert", (n_dq / 8 + 255) / 256, 8, 0, cvt, "attention (fused backward: dQ)", error);
  }
}
