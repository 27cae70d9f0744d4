/* wb-cublaslt.c — prims.matmul and prims.linear through cuBLASLt (docs/gpu-apis.md §3)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cuBLASLt is column-major; a row-major matrix X[R, C] is the column-major matrix X^T. So the row-major
 * Y[M, N] = A[M, K] B[K, N] is computed as Y^T = B^T A^T: cuBLASLt's first operand is B^T (N x K) and its
 * second A^T (K x M), D is Y^T (N x M, ld N). An operand whose memory is row-major is passed as is (op N);
 * one whose memory is column-major (a transposed view) is passed with op T, so transposes from the trace
 * cost no copy. Anything else is made contiguous first. Leading dims of A fold into M when A's memory
 * allows (prims.linear on [B, T, K]); equal batch dims on both sides run as a strided batch. The bias of
 * linear is the BIAS epilogue (length N = rows of D). f32 uses CUBLAS_COMPUTE_32F (no TF32), bf16 and
 * f16 accumulate in f32. The algorithm of each (shapes, layouts, alignments) is chosen once. */
#include "config.h"

#include <nvtx3/nvToolsExt.h>
#include <string.h>

#include "wb-cuda-executors.h"
#include "wb-executors-private.h"

#define WORKSPACE_BYTES (32u << 20)

static cublasLtHandle_t lt_handle;
static WbTensor        *workspaces[2]; /* the run's stream's, the side stream's (wb-cuda-runtime.h: "Two streams") */
static GHashTable      *algo_cache;    /* key -> cublasLtMatmulAlgo_t* */

static gboolean
lt_check (const WbLtApi *lt, cublasStatus_t st, const char *what, GError **error)
{
  if (st == CUBLAS_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: %s (%d)", what, lt->cublasLtGetStatusString (st), (int) st);
  return FALSE;
}

/* The column-major description of X^T for a logical row-major X[R, C] with strides (sr, sc). */
static gboolean
as_transposed (gint64 R, gint64 C, gint64 sr, gint64 sc, cublasOperation_t *op, guint64 *rows, guint64 *cols, gint64 *ld)
{
  if ((sc == 1 || C == 1) && (R == 1 || sr >= MAX (C, 1)))
    {
      *op = CUBLAS_OP_N;
      *rows = (guint64) C, *cols = (guint64) R;
      *ld = R == 1 ? MAX (C, 1) : sr;
      return TRUE;
    }
  if ((sr == 1 || R == 1) && (C == 1 || sc >= MAX (R, 1)))
    {
      *op = CUBLAS_OP_T;
      *rows = (guint64) R, *cols = (guint64) C;
      *ld = C == 1 ? MAX (R, 1) : sc;
      return TRUE;
    }
  return FALSE;
}

static cudaDataType_t
data_type (WbDtype dt)
{
  return dt == WB_DTYPE_BFLOAT16 ? CUDA_R_16BF : dt == WB_DTYPE_FLOAT16 ? CUDA_R_16F
                                                                        : CUDA_R_32F;
}

static guint32
alignment_of (CUdeviceptr p)
{
  guint32 a = 256;

  while (a > 1 && (p % a) != 0)
    a /= 2;
  return a;
}

/* The process's cuBLASLt handle and workspaces, created on first use: one per stream, since matmuls on the
 * two streams run at once. Both are made at the first call (the checked run, outside any capture, whose
 * memory would belong to the graph) unless the run keeps to one stream. */
static gboolean
lt_ready (WbCudaRuntime *rt, const WbLtApi *lt, GError **error)
{
  guint need = wb_cuda_runtime_get_streams (rt);

  if (lt_handle == NULL && !lt_check (lt, lt->cublasLtCreate (&lt_handle), "cublasLtCreate", error))
    return FALSE;
  for (guint i = 0; i < need; i++)
    if (workspaces[i] == NULL &&
        (!wb_cuda_runtime_check_capturable (rt, "allocates a cuBLASLt workspace (first matmul on a stream)", error) ||
         (workspaces[i] = wb_cuda_tensor_new (rt, WB_DTYPE_UINT8, 1, (gint64[]){ WORKSPACE_BYTES }, error)) == NULL))
      return FALSE;
    else
      wb_cuda_tensor_untrack (workspaces[i]); /* the library's, not the program's memory */
  return TRUE;
}

/* The algorithm cuBLASLt's heuristic picks for (@desc, @la, @lb, @ld) and the operands' alignments @al
 * (A, B, C, D), chosen once per @key (transfer full: taken). NULL with @error set, or NULL with *@none set
 * when no algorithm fits (the caller says why). */
static const cublasLtMatmulAlgo_t *
find_algo (const WbLtApi *lt, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t la, cublasLtMatrixLayout_t lb, cublasLtMatrixLayout_t ld, char *key, const guint32 al[4], gboolean *none, GError **error)
{
  const cublasLtMatmulAlgo_t     *algo;
  cublasLtMatmulPreference_t      pref = NULL;
  cublasLtMatmulHeuristicResult_t heur;
  int                             found = 0;
  guint64                         ws = WORKSPACE_BYTES;

  *none = FALSE;
  if (algo_cache == NULL)
    algo_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if ((algo = g_hash_table_lookup (algo_cache, key)) != NULL)
    {
      g_free (key);
      return algo;
    }
  if (!lt_check (lt, lt->cublasLtMatmulPreferenceCreate (&pref), "cublasLtMatmulPreferenceCreate", error) ||
      !lt_check (lt, lt->cublasLtMatmulPreferenceSetAttribute (pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws), "workspace", error) ||
      !lt_check (lt, lt->cublasLtMatmulPreferenceSetAttribute (pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &al[0], sizeof al[0]), "align", error) ||
      !lt_check (lt, lt->cublasLtMatmulPreferenceSetAttribute (pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &al[1], sizeof al[1]), "align", error) ||
      !lt_check (lt, lt->cublasLtMatmulPreferenceSetAttribute (pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &al[2], sizeof al[2]), "align", error) ||
      !lt_check (lt, lt->cublasLtMatmulPreferenceSetAttribute (pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &al[3], sizeof al[3]), "align", error) ||
      !lt_check (lt, lt->cublasLtMatmulAlgoGetHeuristic (lt_handle, desc, la, lb, ld, ld, pref, 1, &heur, &found), "cublasLtMatmulAlgoGetHeuristic", error))
    algo = NULL;
  else if (found == 0)
    *none = TRUE;
  else
    {
      algo = g_memdup2 (&heur.algo, sizeof heur.algo);
      g_hash_table_insert (algo_cache, g_steal_pointer (&key), (gpointer) algo);
    }
  if (pref)
    lt->cublasLtMatmulPreferenceDestroy (pref);
  g_free (key);
  return algo;
}

/* One matmul as a launch list repeats it (wb_cuda_runtime_record_call): it owns the descriptors */
typedef struct
{
  const WbLtApi         *lt;
  cublasLtMatmulDesc_t   desc;
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatmulAlgo_t   algo;
  float                  alpha;
  CUdeviceptr            pa, pb, pd, workspace;
} LtReplay;

static gboolean
lt_replay (gpointer data, CUstream stream, GError **error)
{
  LtReplay      *r = data;
  float          beta = 0.0f;
  cublasStatus_t st;

  st = r->lt->cublasLtMatmul (lt_handle, r->desc, &r->alpha, (const void *) (guintptr) r->pa, r->la, (const void *) (guintptr) r->pb, r->lb, &beta,
                              (const void *) (guintptr) r->pd, r->ld, (void *) (guintptr) r->pd, r->ld, &r->algo, (void *) (guintptr) r->workspace,
                              WORKSPACE_BYTES, (cudaStream_t) stream);
  return lt_check (r->lt, st, "cublasLtMatmul", error);
}

static void
lt_replay_free (gpointer data)
{
  LtReplay *r = data;

  r->lt->cublasLtMatrixLayoutDestroy (r->la);
  r->lt->cublasLtMatrixLayoutDestroy (r->lb);
  r->lt->cublasLtMatrixLayoutDestroy (r->ld);
  r->lt->cublasLtMatmulDescDestroy (r->desc);
  g_free (r);
}

/* D = alpha A B (in place of C, beta 0) on the run's stream with @algo, announced to the launch hook as one
 * "cublasLt matmul" described by @what (nullable), inside an NVTX range of that name (a no-op unless a tool
 * such as Nsight Systems injected itself: NVTX3 is header-only). While a launch list is recorded the call is
 * appended to it, which takes the descriptors (*@desc, *@la, *@lb, *@ld set to NULL). */
static gboolean
lt_matmul (WbCudaRuntime *rt, const WbLtApi *lt, cublasLtMatmulDesc_t *desc, const cublasLtMatmulAlgo_t *algo, float alpha, CUdeviceptr pa, cublasLtMatrixLayout_t *la, CUdeviceptr pb, cublasLtMatrixLayout_t *lb, CUdeviceptr pd, cublasLtMatrixLayout_t *ld, const char *what, GError **error)
{
  const guint zero[3] = { 0, 0, 0 };
  LtReplay    r = { lt, *desc, *la, *lb, *ld, *algo, alpha, pa, pb, pd, wb_cuda_tensor_ptr (workspaces[wb_cuda_runtime_in_side (rt) ? 1 : 0]) };
  gboolean    ok;

  wb_cuda_runtime_notify_launch (rt, FALSE, "cublasLt matmul", what, zero, zero);
  nvtxRangePushA (what ? what : "cublasLt matmul");
  ok = lt_replay (&r, wb_cuda_runtime_get_stream (rt), error);
  nvtxRangePop ();
  wb_cuda_runtime_notify_launch (rt, TRUE, "cublasLt matmul", what, zero, zero);
  if (ok && wb_cuda_runtime_is_listing (rt))
    {
      wb_cuda_runtime_record_call (rt, lt_replay, g_memdup2 (&r, sizeof r), lt_replay_free);
      *desc = NULL, *la = NULL, *lb = NULL, *ld = NULL;
    }
  return ok;
}

/* A 3-D view [batch, R, C] of @t (rank >= 2) folding its leading dims, or NULL. */
static WbTensor *
batch_view (WbTensor *t)
{
  gint64 shape[3];
  gint64 batch = 1;

  for (guint d = 0; d + 2 < t->rank; d++)
    batch *= t->shape[d];
  shape[0] = batch;
  shape[1] = t->shape[t->rank - 2];
  shape[2] = t->shape[t->rank - 1];
  if (t->rank == 3)
    return wb_tensor_ref (t);
  return wb_tensor_try_view (t, 3, shape);
}

/* The operands of a matmul as cuBLASLt takes them: a as [M, K] or [batch, M, K] and b as [K, N] or
 * [batch, K, N] (views of the inputs, or of contiguous copies where no view has the shape), their strides,
 * and the output's shape. */
typedef struct
{
  WbTensor *a, *b; /* owned */
  gint64    M, N, K, batch, a_bstride, b_bstride;
  gint64    b_sr, b_sc, a_sr, a_sc;
  gint64    out_shape[WB_MAX_RANK];
  guint     out_rank;
} LtOperands;

static void lt_operands_clear (LtOperands *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (LtOperands, lt_operands_clear)

static void
lt_operands_clear (LtOperands *o)
{
  g_clear_pointer (&o->a, wb_tensor_unref);
  g_clear_pointer (&o->b, wb_tensor_unref);
}

static gboolean
lt_operands (WbCudaRuntime *rt, WbTensor *a_in, WbTensor *b_in, gboolean linear, LtOperands *o, GError **error)
{
  o->batch = 1;
  o->K = a_in->shape[a_in->rank - 1];
  o->N = linear ? b_in->shape[0] : b_in->shape[b_in->rank - 1];
  if ((linear ? b_in->shape[1] : b_in->shape[b_in->rank - 2]) != o->K)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: inner dims %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT " differ", o->K,
                   linear ? b_in->shape[1] : b_in->shape[b_in->rank - 2]);
      return FALSE;
    }
  o->out_rank = a_in->rank;
  memcpy (o->out_shape, a_in->shape, sizeof (gint64) * a_in->rank);
  o->out_shape[o->out_rank - 1] = o->N;

  if (b_in->rank == 2)
    {
      /* fold every leading dim of a into M */
      gint64 rows = 1;
      for (guint d = 0; d + 1 < a_in->rank; d++)
        rows *= a_in->shape[d];
      o->a = wb_tensor_try_view (a_in, 2, (gint64[]){ rows, o->K });
      if (o->a == NULL)
        {
          g_autoptr (WbTensor) c = wb_cuda_contiguous (rt, a_in, error);
          if (c == NULL)
            return FALSE;
          o->a = wb_tensor_try_view (c, 2, (gint64[]){ rows, o->K });
        }
      o->M = rows;
      o->b = wb_tensor_ref (b_in);
      if (linear)
        o->b_sr = o->b->strides[1], o->b_sc = o->b->strides[0]; /* B = W^T: B[k, n] = W[n, k] */
      else
        o->b_sr = o->b->strides[0], o->b_sc = o->b->strides[1];
      o->a_sr = o->a->strides[0], o->a_sc = o->a->strides[1];
    }
  else
    {
      if (a_in->rank != b_in->rank || memcmp (a_in->shape, b_in->shape, sizeof (gint64) * (a_in->rank - 2)) != 0)
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: batch dims that broadcast are not handled");
          return FALSE;
        }
      o->a = batch_view (a_in);
      if (o->a == NULL)
        {
          g_autoptr (WbTensor) c = wb_cuda_contiguous (rt, a_in, error);
          if (c == NULL || (o->a = batch_view (c)) == NULL)
            return FALSE;
        }
      o->b = batch_view (b_in);
      if (o->b == NULL)
        {
          g_autoptr (WbTensor) c = wb_cuda_contiguous (rt, b_in, error);
          if (c == NULL || (o->b = batch_view (c)) == NULL)
            return FALSE;
        }
      o->batch = o->a->shape[0];
      o->M = o->a->shape[1];
      o->a_bstride = o->a->shape[0] > 1 ? o->a->strides[0] : 0;
      o->b_bstride = o->b->shape[0] > 1 ? o->b->strides[0] : 0;
      o->a_sr = o->a->strides[1], o->a_sc = o->a->strides[2];
      o->b_sr = o->b->strides[1], o->b_sc = o->b->strides[2];
    }
  return TRUE;
}

gboolean
wb_cuda_matmul (WbCudaRuntime *rt, WbTensor *a_in, WbTensor *b_in, WbTensor *bias_in, gboolean linear, WbTensor **out, GError **error)
{
  const WbLtApi *lt = wb_cuda_load_cublaslt (error);
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) b = NULL;
  g_autoptr (WbTensor) bias = NULL;
  g_autoptr (WbTensor) y = NULL;
  g_auto (LtOperands) o = { 0 };
  gint64                      M, N, K, batch, a_bstride, b_bstride;
  gint64                      b_sr, b_sc, a_sr, a_sc;
  WbDtype                     dt = a_in->dtype;
  cublasOperation_t           opa, opb;
  guint64                     ar, ac, br, bc;
  gint64                      lda, ldb;
  cublasLtMatmulDesc_t        desc = NULL;
  cublasLtMatrixLayout_t      la = NULL, lb = NULL, ld = NULL;
  cublasComputeType_t         compute = CUBLAS_COMPUTE_32F;
  cudaDataType_t              scale_type = CUDA_R_32F, cdt = data_type (dt);
  cublasLtEpilogue_t          epi = CUBLASLT_EPILOGUE_DEFAULT;
  float                       alpha = 1.0f;
  gboolean                    ok = FALSE;
  const cublasLtMatmulAlgo_t *algo;
  CUdeviceptr                 pa, pb, pd, pbias = 0;

  if (lt == NULL)
    return FALSE;
  if ((dt != WB_DTYPE_FLOAT32 && dt != WB_DTYPE_BFLOAT16 && dt != WB_DTYPE_FLOAT16) || b_in->dtype != dt ||
      (bias_in != NULL && bias_in->dtype != dt))
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: dtypes %s, %s are not handled (f32, bf16, f16, all equal)",
                   wb_dtype_shortname (a_in->dtype), wb_dtype_shortname (b_in->dtype));
      return FALSE;
    }
  if (a_in->rank < 2 || b_in->rank < 2 || (linear && b_in->rank != 2))
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: ranks %u and %u are not handled", a_in->rank, b_in->rank);
      return FALSE;
    }
  if (!lt_ready (rt, lt, error))
    return FALSE;

  if (!lt_operands (rt, a_in, b_in, linear, &o, error))
    return FALSE;
  M = o.M, N = o.N, K = o.K, batch = o.batch, a_bstride = o.a_bstride, b_bstride = o.b_bstride;
  b_sr = o.b_sr, b_sc = o.b_sc, a_sr = o.a_sr, a_sc = o.a_sc;
  a = g_steal_pointer (&o.a);
  b = g_steal_pointer (&o.b);
  /* operands cuBLASLt cannot describe are copied to row-major */
  if (!as_transposed (K, N, b_sr, b_sc, &opa, &ar, &ac, &lda))
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: operand b has strides (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", b_sr, b_sc);
      return FALSE;
    }
  if (!as_transposed (M, K, a_sr, a_sc, &opb, &br, &bc, &ldb))
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: operand a has strides (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", a_sr, a_sc);
      return FALSE;
    }
  if ((y = wb_cuda_tensor_new (rt, dt, o.out_rank, o.out_shape, error)) == NULL)
    return FALSE;
  if (M == 0 || N == 0)
    {
      *out = g_steal_pointer (&y);
      return TRUE;
    }
  if (K == 0)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: K = 0 is not handled");
      return FALSE;
    }
  if (bias_in != NULL)
    {
      if (bias_in->rank != 1 || bias_in->shape[0] != N || (bias = wb_cuda_contiguous (rt, bias_in, error)) == NULL)
        {
          if (error && *error == NULL)
            g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: bias of shape other than [N]");
          return FALSE;
        }
      epi = CUBLASLT_EPILOGUE_BIAS;
      pbias = wb_cuda_tensor_ptr (bias);
    }
  pa = wb_cuda_tensor_ptr (b); /* cuBLASLt's A is our B^T */
  pb = wb_cuda_tensor_ptr (a);
  pd = wb_cuda_tensor_ptr (y);

  if (!lt_check (lt, lt->cublasLtMatmulDescCreate (&desc, compute, scale_type), "cublasLtMatmulDescCreate", error) ||
      !lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa), "TRANSA", error) ||
      !lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb), "TRANSB", error) ||
      !lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi), "EPILOGUE", error))
    goto out;
  if (pbias && (!lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &pbias, sizeof pbias), "BIAS_POINTER", error) ||
                !lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &cdt, sizeof cdt), "BIAS_DATA_TYPE", error)))
    goto out;
  if (!lt_check (lt, lt->cublasLtMatrixLayoutCreate (&la, cdt, ar, ac, lda), "layout A", error) ||
      !lt_check (lt, lt->cublasLtMatrixLayoutCreate (&lb, cdt, br, bc, ldb), "layout B", error) ||
      !lt_check (lt, lt->cublasLtMatrixLayoutCreate (&ld, cdt, (guint64) N, (guint64) M, N), "layout D", error))
    goto out;
  if (batch > 1)
    {
      gint32 bc32 = (gint32) batch;
      gint64 sa = b_bstride, sb = a_bstride, sd = M * N;
      if (!lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (la, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc32, sizeof bc32), "batch A", error) ||
          !lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (la, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sa, sizeof sa), "batch A", error) ||
          !lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (lb, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc32, sizeof bc32), "batch B", error) ||
          !lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (lb, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sb, sizeof sb), "batch B", error) ||
          !lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (ld, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc32, sizeof bc32), "batch D", error) ||
          !lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (ld, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sd, sizeof sd), "batch D", error))
        goto out;
    }

  {
    const guint32 al[4] = { alignment_of (pa), alignment_of (pb), alignment_of (pd), alignment_of (pd) };
    gboolean      none;
    char         *key = g_strdup_printf ("matmul %d %d %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                         " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u %u %u %u %d",
                                         (int) cdt, (int) opa, (int) opb, M, N, K, batch, lda, ldb, a_bstride, b_bstride, al[0], al[1], al[2],
                                 pbias ? alignment_of (pbias) : 0, (int) epi);
    if ((algo = find_algo (lt, desc, la, lb, ld, key, al, &none, error)) == NULL)
      {
        if (none)
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: no algorithm for M=%" G_GINT64_FORMAT " N=%" G_GINT64_FORMAT " K=%" G_GINT64_FORMAT,
                       M, N, K);
        goto out;
      }
  }
  if (!lt_matmul (rt, lt, &desc, algo, alpha, pa, &la, pb, &lb, pd, &ld, NULL, error))
    goto out;
  *out = g_steal_pointer (&y);
  ok = TRUE;
out:
  if (la)
    lt->cublasLtMatrixLayoutDestroy (la);
  if (lb)
    lt->cublasLtMatrixLayoutDestroy (lb);
  if (ld)
    lt->cublasLtMatrixLayoutDestroy (ld);
  if (desc)
    lt->cublasLtMatmulDescDestroy (desc);
  return ok;
}

/* One operand's column-major layout (cuBLASLt) for @rows x @cols, strided over @batch matrices. */
static gboolean
gemm_layout (const WbLtApi *lt, cublasLtMatrixLayout_t *l, const WbCudaGemmOperand *m, guint64 rows, guint64 cols, gint64 batch, GError **error)
{
  gint32 bc = (gint32) batch;
  gint64 stride = m->bstride;

  if (!lt_check (lt, lt->cublasLtMatrixLayoutCreate (l, data_type (m->dtype), rows, cols, m->ld), "cublasLtMatrixLayoutCreate", error))
    return FALSE;
  if (batch > 1 && (!lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof bc), "BATCH_COUNT", error) ||
                    !lt_check (lt, lt->cublasLtMatrixLayoutSetAttribute (*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
                               "STRIDED_BATCH_OFFSET", error)))
    return FALSE;
  return TRUE;
}

gboolean
wb_cuda_gemm (WbCudaRuntime *rt, const char *what, gint64 batch, gint64 M, gint64 N, gint64 K, float alpha, const WbCudaGemmOperand *a, const WbCudaGemmOperand *b, const WbCudaGemmOperand *c, GError **error)
{
  const WbLtApi              *lt = wb_cuda_load_cublaslt (error);
  cublasLtMatmulDesc_t        desc = NULL;
  cublasLtMatrixLayout_t      la = NULL, lb = NULL, lc = NULL;
  cublasOperation_t           opa = b->trans ? CUBLAS_OP_T : CUBLAS_OP_N, opb = a->trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasLtMatmulAlgo_t *algo;
  gboolean                    ok = FALSE;

  if (lt == NULL || !lt_ready (rt, lt, error))
    return FALSE;
  if (!lt_check (lt, lt->cublasLtMatmulDescCreate (&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate", error) ||
      !lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa), "TRANSA", error) ||
      !lt_check (lt, lt->cublasLtMatmulDescSetAttribute (desc, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb), "TRANSB", error))
    goto out;
  /* cuBLASLt's A is our B (N x K after its op), its B our A (K x M), D is C^T (N x M) */
  if (!gemm_layout (lt, &la, b, (guint64) (b->trans ? K : N), (guint64) (b->trans ? N : K), batch, error) ||
      !gemm_layout (lt, &lb, a, (guint64) (a->trans ? M : K), (guint64) (a->trans ? K : M), batch, error) ||
      !gemm_layout (lt, &lc, c, (guint64) N, (guint64) M, batch, error))
    goto out;
  {
    const guint32 al[4] = { alignment_of (b->ptr), alignment_of (a->ptr), alignment_of (c->ptr), alignment_of (c->ptr) };
    gboolean      none;
    char         *key = g_strdup_printf ("gemm %d %d %d %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                         " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                         " %" G_GINT64_FORMAT " %u %u %u",
                                         (int) a->dtype, (int) c->dtype, (int) opa, (int) opb, batch, M, N, K, a->ld, b->ld, c->ld, a->bstride,
                                         b->bstride, c->bstride, al[1], al[0], al[2]);
    if ((algo = find_algo (lt, desc, la, lb, lc, key, al, &none, error)) == NULL)
      {
        if (none)
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL,
                       "%s: no cuBLASLt algorithm for M=%" G_GINT64_FORMAT " N=%" G_GINT64_FORMAT " K=%" G_GINT64_FORMAT " (%s)", what, M, N, K,
                       wb_dtype_shortname (a->dtype));
        goto out;
      }
  }
  ok = lt_matmul (rt, lt, &desc, algo, alpha, b->ptr, &la, a->ptr, &lb, c->ptr, &lc, what, error);
out:
  if (la)
    lt->cublasLtMatrixLayoutDestroy (la);
  if (lb)
    lt->cublasLtMatrixLayoutDestroy (lb);
  if (lc)
    lt->cublasLtMatrixLayoutDestroy (lc);
  if (desc)
    lt->cublasLtMatmulDescDestroy (desc);
  return ok;
}
