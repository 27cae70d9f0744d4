/* wb-cuda-attention-unfused.c — attention's unfused path: the NVRTC row kernels (softmax, the backward's P
 * and dS) and the passes that put them between cuBLASLt strided-batch GEMMs, in chunks of heads
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The equations are in wb-cuda-attention.h; wb-cuda-attention.c chooses this path (f32, other head dims,
 * WB_CUDA_ATTN=unfused) and calls it through wb-cuda-exec-private.h. Every GEMM is row-major C[M, N] =
 * alpha op(A) op(B) over a strided batch of (batch x head) matrices; cuBLASLt is column-major, so it computes
 * C^T = op(B)^T op(A)^T (as wb-cublaslt.c does): its first operand is our B, its second our A, D is C^T
 * (N x M). */
#include "config.h"

#include <string.h>

#include "wb-cuda-attention.h"
#include "wb-cuda-exec-private.h"

/* scratch per chunk of heads: S (f32), P or dS (input dtype) and, backward, dP (f32) */
#define SCRATCH_BYTES (G_GINT64_CONSTANT (2) << 30)

static char *sources[3]; /* f32, bf16, f16 */

typedef WbCudaAttnDims Dims;

/* -- the row kernels ---------------------------------------------------------------------------- */

static const char kernels_text[] =
    "// a block-wide max (is_max) or sum of v; every thread gets the result\n"
    "static __device__ __forceinline__ float wb_attn_reduce (float v, bool is_max, float *sh)\n"
    "{\n"
    "  for (int o = 16; o > 0; o >>= 1)\n"
    "    {\n"
    "      float x = __shfl_xor_sync (0xffffffffu, v, o);\n"
    "      v = is_max ? fmaxf (v, x) : v + x;\n"
    "    }\n"
    "  __syncthreads ();\n"
    "  if ((threadIdx.x & 31) == 0)\n"
    "    sh[threadIdx.x >> 5] = v;\n"
    "  __syncthreads ();\n"
    "  v = (threadIdx.x & 31) < (WB_ATTN_THREADS / 32) ? sh[threadIdx.x & 31] : (is_max ? -WB_INF_F : 0.0f);\n"
    "  for (int o = 16; o > 0; o >>= 1)\n"
    "    {\n"
    "      float x = __shfl_xor_sync (0xffffffffu, v, o);\n"
    "      v = is_max ? fmaxf (v, x) : v + x;\n"
    "    }\n"
    "  return v;\n"
    "}\n"
    "\n"
    "// one block per row (bh, i) of lse [BH, lse_len]: P[bh, i, :] = softmax(S[bh, i, :]) with keys j > i masked\n"
    "// when causal, lse = max + log(sum); rows i >= tq are the padding (lse 0). p may alias s (f32).\n"
    "extern \"C\" __global__ void __launch_bounds__ (WB_ATTN_THREADS)\n"
    "wb_attn_softmax (const float *s, WB_ATTN_T *p, float *lse, long long tq, long long tk, long long lse_len, int causal)\n"
    "{\n"
    "  __shared__ float sh[32];\n"
    "  long long row = blockIdx.x, bh = row / lse_len, i = row % lse_len;\n"
    "  if (i >= tq)\n"
    "    {\n"
    "      if (threadIdx.x == 0)\n"
    "        lse[row] = 0.0f;\n"
    "      return;\n"
    "    }\n"
    "  const float *srow = s + (bh * tq + i) * tk;\n"
    "  WB_ATTN_T *prow = p + (bh * tq + i) * tk;\n"
    "  long long kend = causal ? (i + 1 < tk ? i + 1 : tk) : tk;\n"
    "  float m = -WB_INF_F, sum = 0.0f;\n"
    "  for (long long j = threadIdx.x; j < kend; j += WB_ATTN_THREADS)\n"
    "    m = fmaxf (m, srow[j]);\n"
    "  m = wb_attn_reduce (m, true, sh);\n"
    "  if (m != -WB_INF_F)\n"
    "    for (long long j = threadIdx.x; j < kend; j += WB_ATTN_THREADS)\n"
    "      sum += expf (srow[j] - m);\n"
    "  sum = wb_attn_reduce (sum, false, sh);\n"
    "  for (long long j = threadIdx.x; j < tk; j += WB_ATTN_THREADS)\n"
    "    prow[j] = WB_ATTN_STORE (j < kend && m != -WB_INF_F ? expf (srow[j] - m) / sum : 0.0f);\n"
    "  if (threadIdx.x == 0)\n"
    "    lse[row] = m == -WB_INF_F ? -WB_INF_F : m + logf (sum);\n"
    "}\n"
    "\n"
    "// backward, one block per row (bh, i): S -> P = exp(S - lse) in place (f32) and in p (the input dtype;\n"
    "// may alias s), dsum = rowsum(dO * O)\n"
    "extern \"C\" __global__ void __launch_bounds__ (WB_ATTN_THREADS)\n"
    "wb_attn_bwd_p (float *s, WB_ATTN_T *p, const float *lse, const WB_ATTN_T *dout, const WB_ATTN_T *out, float *dsum,\n"
    "               long long tq, long long tk, long long lse_len, long long ev, int causal)\n"
    "{\n"
    "  __shared__ float sh[32];\n"
    "  long long row = blockIdx.x, bh = row / tq, i = row % tq;\n"
    "  float l = lse[bh * lse_len + i], d = 0.0f;\n"
    "  long long kend = causal ? (i + 1 < tk ? i + 1 : tk) : tk;\n"
    "  float *srow = s + row * tk;\n"
    "  WB_ATTN_T *prow = p + row * tk;\n"
    "  for (long long j = threadIdx.x; j < tk; j += WB_ATTN_THREADS)\n"
    "    {\n"
    "      float x = j < kend && l != -WB_INF_F ? expf (srow[j] - l) : 0.0f;\n"
    "      srow[j] = x;\n"
    "      prow[j] = WB_ATTN_STORE (x);\n"
    "    }\n"
    "  for (long long e = threadIdx.x; e < ev; e += WB_ATTN_THREADS)\n"
    "    d += WB_ATTN_LOAD (dout[row * ev + e]) * WB_ATTN_LOAD (out[row * ev + e]);\n"
    "  d = wb_attn_reduce (d, false, sh);\n"
    "  if (threadIdx.x == 0)\n"
    "    dsum[row] = d;\n"
    "}\n"
    "\n"
    "// backward, one block per row: dS = P (dP - dsum) in the input dtype (ds may alias dp for f32)\n"
    "extern \"C\" __global__ void __launch_bounds__ (WB_ATTN_THREADS)\n"
    "wb_attn_bwd_ds (const float *p, const float *dp, WB_ATTN_T *ds, const float *dsum, long long tk)\n"
    "{\n"
    "  long long row = blockIdx.x;\n"
    "  float d = dsum[row];\n"
    "  for (long long j = threadIdx.x; j < tk; j += WB_ATTN_THREADS)\n"
    "    ds[row * tk + j] = WB_ATTN_STORE (p[row * tk + j] * (dp[row * tk + j] - d));\n"
    "}\n";

/* the kernels' block reduction needs whole warps; wb_cuda_runtime_launch starts WB_CUDA_BLOCK threads */
G_STATIC_ASSERT (WB_CUDA_BLOCK % 32 == 0 && WB_CUDA_BLOCK <= 1024);

int
_wb_cuda_attn_dtype_slot (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT32:
      return 0;
    case WB_DTYPE_BFLOAT16:
      return 1;
    case WB_DTYPE_FLOAT16:
      return 2;
    default:
      return -1;
    }
}

char *
wb_cuda_attention_source (WbDtype dtype)
{
  static const char *const types[] = { "float", "unsigned short", "unsigned short" };
  static const char *const loads[] = { "(x)", "wb_bf16_to_f (x)", "wb_f16_to_f (x)" };
  static const char *const stores[] = { "(x)", "wb_f_to_bf16 (x)", "wb_f_to_f16 (x)" };
  int                      k = _wb_cuda_attn_dtype_slot (dtype);

  if (k < 0)
    return NULL;
  return g_strdup_printf ("// attention row kernels for %s (wb-cuda-attention.c)\n#define WB_ATTN_THREADS %d\n#define WB_ATTN_T %s\n"
                          "#define WB_ATTN_LOAD(x) %s\n#define WB_ATTN_STORE(x) %s\n%s",
                          wb_dtype_shortname (dtype), WB_CUDA_BLOCK, types[k], loads[k], stores[k], kernels_text);
}

static const char *
source_for (WbDtype dtype)
{
  int k = _wb_cuda_attn_dtype_slot (dtype);

  if (k < 0)
    return NULL;
  if (sources[k] == NULL)
    sources[k] = wb_cuda_attention_source (dtype);
  return sources[k];
}

/* -- cuBLASLt ------------------------------------------------------------------------------------- */

typedef WbCudaGemmOperand Mat;

static Mat
mat_of (WbTensor *t3, gboolean trans)
{
  Mat m = { wb_cuda_tensor_ptr (t3), t3->dtype, t3->shape[1] > 1 ? t3->strides[1] : MAX (t3->shape[2], 1),
            t3->shape[0] > 1 ? t3->strides[0] : 0, trans };
  return m;
}

static Mat
mat_at (Mat m, gint64 batch0)
{
  m.ptr += (CUdeviceptr) (batch0 * m.bstride * (gint64) wb_dtype_size (m.dtype));
  return m;
}

/* -- the passes ----------------------------------------------------------------------------------- */

WbTensor *
_wb_cuda_attn_flat_heads (WbCudaRuntime *rt, WbTensor *t, GError **error)
{
  gint64 shape[3] = { t->shape[0] * t->shape[1], t->shape[2], t->shape[3] };
  g_autoptr (WbTensor) v = wb_tensor_try_view (t, 3, shape);
  g_autoptr (WbTensor) c = NULL;

  if (v != NULL && (v->strides[2] == 1 || shape[2] == 1) && (shape[1] == 1 || v->strides[1] >= MAX (shape[2], 1)) &&
      (shape[0] == 1 || v->strides[0] > 0))
    return g_steal_pointer (&v);
  if ((c = wb_cuda_contiguous (rt, t, error)) == NULL)
    return NULL;
  return wb_tensor_try_view (c, 3, shape);
}

/* the row kernels' chunk: how many (batch, head) matrices one pass takes */
static gint64
chunk_of (const Dims *d, gint64 f32_buffers)
{
  gint64 per = d->tq * d->tk * (4 * f32_buffers + (d->dtype == WB_DTYPE_FLOAT32 ? 0 : (gint64) wb_dtype_size (d->dtype)));

  return CLAMP (SCRATCH_BYTES / MAX (per, 1), 1, d->bh);
}

static gboolean
launch (WbCudaRuntime *rt, WbDtype dtype, const char *entry, gint64 grid, void **args, const char *what, GError **error)
{
  CUfunction fn = wb_cuda_runtime_get_static_function (rt, source_for (dtype), entry, error);

  if (fn == NULL)
    return FALSE;
  if (grid > G_MAXINT32)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "attention: %" G_GINT64_FORMAT " rows are too many for one launch", grid);
      return FALSE;
    }
  return wb_cuda_runtime_launch (rt, fn, (guint) grid, args, what, error);
}

gboolean
_wb_cuda_attn_unfused_forward (WbCudaRuntime *rt, Dims *d, WbTensor *q, WbTensor *k, WbTensor *v, WbTensor *o, WbTensor *lse, GError **error)
{
  gint64 chunk = chunk_of (d, 1), n_s = chunk * d->tq * d->tk;
  g_autoptr (WbTensor) s = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_s, error);
  g_autoptr (WbTensor) p = NULL;
  Mat mq = mat_of (q, FALSE), mk = mat_of (k, TRUE), mv = mat_of (v, FALSE), mo = mat_of (o, FALSE);
  int causal = d->causal;

  if (s == NULL)
    return FALSE;
  p = d->dtype == WB_DTYPE_FLOAT32 ? wb_tensor_ref (s) : wb_cuda_tensor_new (rt, d->dtype, 1, &n_s, error);
  if (p == NULL)
    return FALSE;
  for (gint64 c0 = 0; c0 < d->bh; c0 += chunk)
    {
      gint64      n = MIN (chunk, d->bh - c0);
      Mat         ms = { wb_cuda_tensor_ptr (s), WB_DTYPE_FLOAT32, d->tk, d->tq * d->tk, FALSE };
      Mat         mp = { wb_cuda_tensor_ptr (p), d->dtype, d->tk, d->tq * d->tk, FALSE };
      Mat         a = mat_at (mq, c0), b = mat_at (mk, c0), pv = mat_at (mv, c0), out = mat_at (mo, c0);
      CUdeviceptr ps = ms.ptr, pp = mp.ptr, pl = wb_cuda_tensor_ptr (lse) + (CUdeviceptr) (c0 * d->lse_len * 4);
      long long   tq = d->tq, tk = d->tk, lse_len = d->lse_len;
      void       *args[] = { &ps, &pp, &pl, &tq, &tk, &lse_len, &causal };
      if (!wb_cuda_gemm (rt, "attention S = scale Q K^T", n, d->tq, d->tk, d->e, d->scale, &a, &b, &ms, error) ||
          !launch (rt, d->dtype, "wb_attn_softmax", n * d->lse_len, args, "attention softmax", error) ||
          !wb_cuda_gemm (rt, "attention O = P V", n, d->tq, d->ev, d->tk, 1.0f, &mp, &pv, &out, error))
        return FALSE;
      d->gemms += 2;
    }
  return TRUE;
}

gboolean
_wb_cuda_attn_unfused_backward (WbCudaRuntime *rt, Dims *d, WbTensor *go, WbTensor *q, WbTensor *k, WbTensor *v, WbTensor *o, WbTensor *lse, WbTensor *dq, WbTensor *dk, WbTensor *dv, GError **error)
{
  gint64 chunk = chunk_of (d, 2), n_s = chunk * d->tq * d->tk, n_rows = chunk * d->tq;
  g_autoptr (WbTensor) s = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_s, error);
  g_autoptr (WbTensor) dp = s ? wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_s, error) : NULL;
  g_autoptr (WbTensor) dsum = dp ? wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n_rows, error) : NULL;
  g_autoptr (WbTensor) pt = NULL;
  gboolean f32 = d->dtype == WB_DTYPE_FLOAT32;
  Mat      mq = mat_of (q, FALSE), mk = mat_of (k, FALSE), mkt = mat_of (k, TRUE), mv = mat_of (v, TRUE), mgo = mat_of (go, FALSE);
  Mat      mdq = mat_of (dq, FALSE), mdk = mat_of (dk, FALSE), mdv = mat_of (dv, FALSE);
  int      causal = d->causal;

  if (dsum == NULL)
    return FALSE;
  /* P in the input dtype, later dS: its own buffer, or (f32) P lives in s and dS in dp */
  pt = f32 ? wb_tensor_ref (s) : wb_cuda_tensor_new (rt, d->dtype, 1, &n_s, error);
  if (pt == NULL)
    return FALSE;
  for (gint64 c0 = 0; c0 < d->bh; c0 += chunk)
    {
      gint64      n = MIN (chunk, d->bh - c0), st = d->tq * d->tk;
      Mat         ms = { wb_cuda_tensor_ptr (s), WB_DTYPE_FLOAT32, d->tk, st, FALSE };
      Mat         mdp = { wb_cuda_tensor_ptr (dp), WB_DTYPE_FLOAT32, d->tk, st, FALSE };
      Mat         mp_t = { wb_cuda_tensor_ptr (pt), d->dtype, d->tk, st, TRUE };
      Mat         mds = { f32 ? mdp.ptr : wb_cuda_tensor_ptr (pt), d->dtype, d->tk, st, FALSE };
      Mat         mds_t = mds;
      Mat         a_q = mat_at (mq, c0), a_k = mat_at (mk, c0), a_kt = mat_at (mkt, c0), a_vt = mat_at (mv, c0), a_go = mat_at (mgo, c0);
      Mat         a_dq = mat_at (mdq, c0), a_dk = mat_at (mdk, c0), a_dv = mat_at (mdv, c0);
      CUdeviceptr ps = ms.ptr, ppt = mp_t.ptr, pl = wb_cuda_tensor_ptr (lse) + (CUdeviceptr) (c0 * d->lse_len * 4);
      CUdeviceptr pgo = a_go.ptr, po = wb_cuda_tensor_ptr (o) + (CUdeviceptr) (c0 * d->tq * d->ev * (gint64) wb_dtype_size (d->dtype));
      CUdeviceptr pdsum = wb_cuda_tensor_ptr (dsum), pdp = mdp.ptr, pds = mds.ptr;
      long long   tq = d->tq, tk = d->tk, lse_len = d->lse_len, ev = d->ev;
      void       *pargs[] = { &ps, &ppt, &pl, &pgo, &po, &pdsum, &tq, &tk, &lse_len, &ev, &causal };
      void       *dsargs[] = { &ps, &pdp, &pds, &pdsum, &tk };
      mds_t.trans = TRUE;
      if (!wb_cuda_gemm (rt, "attention backward S = scale Q K^T", n, d->tq, d->tk, d->e, d->scale, &a_q, &a_kt, &ms, error) ||
          !launch (rt, d->dtype, "wb_attn_bwd_p", n * d->tq, pargs, "attention backward P, D", error) ||
          !wb_cuda_gemm (rt, "attention dV = P^T dO", n, d->tk, d->ev, d->tq, 1.0f, &mp_t, &a_go, &a_dv, error) ||
          !wb_cuda_gemm (rt, "attention dP = dO V^T", n, d->tq, d->tk, d->ev, 1.0f, &a_go, &a_vt, &mdp, error) ||
          !launch (rt, d->dtype, "wb_attn_bwd_ds", n * d->tq, dsargs, "attention backward dS", error) ||
          !wb_cuda_gemm (rt, "attention dQ = scale dS K", n, d->tq, d->e, d->tk, d->scale, &mds, &a_k, &a_dq, error) ||
          !wb_cuda_gemm (rt, "attention dK = scale dS^T Q", n, d->tk, d->e, d->tq, d->scale, &mds_t, &a_q, &a_dk, error))
        return FALSE;
      d->gemms += 5;
    }
  return TRUE;
}
