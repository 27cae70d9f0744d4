/* wb-cpu-matmul.c — prims.matmul and prims.linear through OpenBLAS
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * matmul(a, b) follows torch.matmul: 1-D operands get a unit dim that is dropped again, batch dims
 * broadcast, and every batch runs one GEMM (a loop; a batched a with a 2-D b folds into one GEMM when
 * a's rows are evenly strided). linear(a, w[N, K], bias[N]) is a @ w^T + bias with a's leading dims
 * folded into M. f32 operands are used in place when their last two dims have a unit stride (either
 * one: the other becomes a transposed GEMM operand); bf16/f16 operands are converted to f32 once, the
 * GEMM accumulates in f32 and the result is rounded to nearest even on store, as cuBLAS does with f32
 * accumulation. f64 uses dgemm. OpenBLAS's thread count is the executor's (wb-cpu-executor.h). */
#include "config.h"

#include <cblas.h>
#include <string.h>

#include "wb-cpu-private.h"

void
_wb_cpu_sgemm (gboolean trans_a, gboolean trans_b, gint64 m, gint64 n, gint64 k, float alpha, const float *a, gint64 lda, const float *b, gint64 ldb, float beta, float *c, gint64 ldc)
{
  if (m == 0 || n == 0)
    return;
  if (k == 0)
    {
      for (gint64 i = 0; i < m; i++)
        for (gint64 j = 0; j < n; j++)
          c[i * ldc + j] = beta == 0 ? 0 : beta * c[i * ldc + j];
      return;
    }
  cblas_sgemm (CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
               (blasint) m, (blasint) n, (blasint) k, alpha, a, (blasint) lda, b, (blasint) ldb, beta, c, (blasint) ldc);
}

void
_wb_cpu_dgemm (gboolean trans_a, gboolean trans_b, gint64 m, gint64 n, gint64 k, double alpha, const double *a, gint64 lda, const double *b, gint64 ldb, double beta, double *c, gint64 ldc)
{
  if (m == 0 || n == 0)
    return;
  if (k == 0)
    {
      for (gint64 i = 0; i < m; i++)
        for (gint64 j = 0; j < n; j++)
          c[i * ldc + j] = beta == 0 ? 0 : beta * c[i * ldc + j];
      return;
    }
  cblas_dgemm (CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
               (blasint) m, (blasint) n, (blasint) k, alpha, a, (blasint) lda, b, (blasint) ldb, beta, c, (blasint) ldc);
}

void
_wb_cpu_blas_set_threads (guint n)
{
  openblas_set_num_threads ((int) MAX (n, 1u));
}

const char *
_wb_cpu_blas_config (void)
{
  return openblas_get_config ();
}

/* A GEMM operand: the matrix (last two dims) of a tensor in the compute dtype. */
typedef struct
{
  WbTensor *t; /* (owned) f32 or f64 tensor, possibly a strided view */
  gboolean  trans;
  gint64    ld;
} GemmOperand;

/* Prepares @t (already in the compute dtype) so that its last two dims form a BLAS matrix. */
static gboolean
gemm_operand (WbTensor *t0, WbDtype cdt, GemmOperand *op, GError **error)
{
  g_autoptr (WbTensor) t = t0->dtype == cdt ? wb_tensor_ref (t0) : _wb_tensor_convert_dense (t0, cdt, error);
  guint  r = t0->rank;
  gint64 rows = t0->shape[r - 2], cols = t0->shape[r - 1];
  gint64 sr, sc;

  if (t == NULL)
    return FALSE;
  sr = t->strides[r - 2], sc = t->strides[r - 1];

  if (t->dtype == cdt && (sc == 1 || cols == 1) && sr >= MAX (cols, 1))
    {
      op->t = wb_tensor_ref (t);
      op->trans = FALSE;
      op->ld = rows == 1 ? MAX (cols, 1) : sr;
      return TRUE;
    }
  if (t->dtype == cdt && (sr == 1 || rows == 1) && sc >= MAX (rows, 1))
    {
      op->t = wb_tensor_ref (t);
      op->trans = TRUE;
      op->ld = cols == 1 ? MAX (rows, 1) : sc;
      return TRUE;
    }
  op->t = wb_tensor_to_dtype (t, cdt, error);
  if (op->t == NULL)
    return FALSE;
  op->trans = FALSE;
  op->ld = MAX (cols, 1);
  return TRUE;
}

static void
gemm (WbDtype cdt, const GemmOperand *a, gint64 aoff, const GemmOperand *b, gint64 boff, gint64 m, gint64 n, gint64 k, gpointer c, gint64 ldc, gboolean accumulate)
{
  if (cdt == WB_DTYPE_FLOAT64)
    _wb_cpu_dgemm (a->trans, b->trans, m, n, k, 1.0, (const double *) _wb_elem_ptr (a->t, aoff), a->ld,
                   (const double *) _wb_elem_ptr (b->t, boff), b->ld, accumulate ? 1.0 : 0.0, c, ldc);
  else
    _wb_cpu_sgemm (a->trans, b->trans, m, n, k, 1.0f, (const float *) _wb_elem_ptr (a->t, aoff), a->ld,
                   (const float *) _wb_elem_ptr (b->t, boff), b->ld, accumulate ? 1.0f : 0.0f, c, ldc);
}

/* A bf16/f16 result: GEMM panels of rows into an f32 scratch that stays in cache, each rounded into
 * the output right away (no full-size f32 product goes through memory). @bias: f32 [n] or NULL. */
#define PANEL_ELEMENTS (2 << 20)

typedef struct
{
  const float *src;
  guint8      *dst;
  WbDtype      dtype;
  gint64       n;
} StoreJob;

static void
store_chunks (gint64 begin, gint64 end, gpointer data)
{
  StoreJob *job = data;
  gint64    es = (gint64) wb_dtype_size (job->dtype);

  for (gint64 c = begin; c < end; c++)
    {
      gint64 start = c * 16384, n = MIN (16384, job->n - start);
      _wb_store_f32 (job->dst + start * es, job->dtype, 1, job->src + start, (gsize) n);
    }
}

static WbTensor *
gemm_rounded (const GemmOperand *a, const GemmOperand *b, gint64 m, gint64 n, gint64 k, const float *bias, WbDtype dtype, GError **error)
{
  gint64    panel = MAX (64, PANEL_ELEMENTS / MAX (n, 1));
  WbTensor *out = wb_tensor_new (dtype, 2, (gint64[]){ m, n }, error);
  float    *scratch;

  if (out == NULL)
    return NULL;
  panel = MIN (panel, MAX (m, 1));
  scratch = g_new (float, MAX (panel * n, 1));
  for (gint64 r0 = 0; r0 < m; r0 += panel)
    {
      gint64       rows = MIN (panel, m - r0);
      const float *ap = (const float *) _wb_elem_ptr (a->t, a->t->offset) + (a->trans ? r0 : r0 * a->ld);
      StoreJob     job = { scratch, (guint8 *) wb_tensor_get_data (out) + r0 * n * (gint64) wb_dtype_size (dtype), dtype, rows * n };
      if (bias != NULL)
        for (gint64 r = 0; r < rows; r++)
          memcpy (scratch + r * n, bias, (gsize) n * sizeof (float));
      _wb_cpu_sgemm (a->trans, b->trans, rows, n, k, 1.0f, ap, a->ld, (const float *) _wb_elem_ptr (b->t, b->t->offset),
                     b->ld, bias ? 1.0f : 0.0f, scratch, n);
      _wb_parallel_for ((job.n + 16383) / 16384, 4, store_chunks, &job);
    }
  g_free (scratch);
  return out;
}

/* Makes the result tensor from the compute-dtype buffer @acc (transfer full) in @dtype. */
static gboolean
finish (WbKernelCall *call, WbTensor *acc, WbDtype dtype, guint rank, const gint64 *shape, GError **error)
{
  g_autoptr (WbTensor) view = wb_tensor_try_view (acc, rank, shape);
  WbTensor *out;

  wb_tensor_unref (acc);
  g_assert (view != NULL);
  if (view->dtype == dtype)
    return _wb_cpu_set_result (call, g_steal_pointer (&view));
  out = wb_tensor_to_dtype (view, dtype, error);
  if (out == NULL)
    return FALSE;
  return _wb_cpu_set_result (call, out);
}

/* The shapes of matmul(a, b): 1-D operands with their unit dim, the GEMM's m, n, k, and the batch dims
 * broadcast. */
typedef struct
{
  guint  ar, br, batch_rank;
  gint64 ashape[WB_MAX_RANK], astr[WB_MAX_RANK], bshape[WB_MAX_RANK], bstr[WB_MAX_RANK];
  gint64 batch[WB_MAX_RANK]; /* the broadcast batch dims */
  gint64 m, n, k, nbatch;
} MatmulShape;

static gboolean
matmul_shape (WbTensor *a0, WbTensor *b0, MatmulShape *s, GError **error)
{
  s->ar = a0->rank, s->br = b0->rank, s->nbatch = 1;
  /* 1-D operands get a unit dim */
  if (s->ar == 1)
    {
      s->ashape[0] = 1, s->astr[0] = a0->shape[0] * a0->strides[0];
      s->ashape[1] = a0->shape[0], s->astr[1] = a0->strides[0];
      s->ar = 2;
    }
  else
    memcpy (s->ashape, a0->shape, s->ar * sizeof (gint64)), memcpy (s->astr, a0->strides, s->ar * sizeof (gint64));
  if (s->br == 1)
    {
      s->bshape[0] = b0->shape[0], s->bstr[0] = b0->strides[0];
      s->bshape[1] = 1, s->bstr[1] = 1;
      s->br = 2;
    }
  else
    memcpy (s->bshape, b0->shape, s->br * sizeof (gint64)), memcpy (s->bstr, b0->strides, s->br * sizeof (gint64));
  s->m = s->ashape[s->ar - 2], s->k = s->ashape[s->ar - 1], s->n = s->bshape[s->br - 1];
  if (s->bshape[s->br - 2] != s->k)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "matmul: inner dims differ (%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT ")", s->k, s->bshape[s->br - 2]);
      return FALSE;
    }
  /* broadcast batch dims */
  s->batch_rank = MAX (s->ar, s->br) - 2;
  for (guint d = 0; d < s->batch_rank; d++)
    {
      int    da = (int) d - (int) (s->batch_rank - (s->ar - 2)), db = (int) d - (int) (s->batch_rank - (s->br - 2));
      gint64 sa = da >= 0 ? s->ashape[da] : 1, sb = db >= 0 ? s->bshape[db] : 1;
      if (sa != sb && sa != 1 && sb != 1)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "matmul: batch dims do not broadcast (%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT ")", sa, sb);
          return FALSE;
        }
      s->batch[d] = MAX (sa, sb);
      s->nbatch *= s->batch[d];
    }
  return TRUE;
}

/* The operands as views in the compute dtype @cdt with the broadcast batch dims (stride 0): @a [batch, m,
 * k] and @b [batch, k, n] (transfer full). bf16/f16 operands are converted once. */
static gboolean
matmul_views (WbTensor *a0, WbTensor *b0, WbDtype cdt, MatmulShape *s, WbTensor **a, WbTensor **b, GError **error)
{
  gint64 s_a[WB_MAX_RANK], s_b[WB_MAX_RANK], sh_a[WB_MAX_RANK], sh_b[WB_MAX_RANK];
  guint  ar = s->ar, br = s->br, batch_rank = s->batch_rank;
  g_autoptr (WbTensor) ca = NULL;
  g_autoptr (WbTensor) cb = NULL;

  if (a0->dtype != cdt)
    {
      if ((ca = _wb_tensor_convert_dense (a0, cdt, error)) == NULL)
        return FALSE;
      for (guint d = 0; d < a0->rank; d++)
        s->astr[ar - a0->rank + d] = ca->strides[d];
      if (a0->rank == 1)
        s->astr[0] = a0->shape[0];
    }
  if (b0->dtype != cdt)
    {
      if ((cb = _wb_tensor_convert_dense (b0, cdt, error)) == NULL)
        return FALSE;
      for (guint d = 0; d < b0->rank; d++)
        s->bstr[d] = cb->strides[d];
      if (b0->rank == 1)
        s->bstr[1] = 1;
    }
  for (guint d = 0; d < batch_rank; d++)
    {
      int da = (int) d - (int) (batch_rank - (ar - 2)), db = (int) d - (int) (batch_rank - (br - 2));
      sh_a[d] = sh_b[d] = s->batch[d];
      s_a[d] = (da >= 0 && s->ashape[da] != 1) ? s->astr[da] : 0;
      s_b[d] = (db >= 0 && s->bshape[db] != 1) ? s->bstr[db] : 0;
    }
  sh_a[batch_rank] = s->m, sh_a[batch_rank + 1] = s->k;
  s_a[batch_rank] = s->astr[ar - 2], s_a[batch_rank + 1] = s->astr[ar - 1];
  sh_b[batch_rank] = s->k, sh_b[batch_rank + 1] = s->n;
  s_b[batch_rank] = s->bstr[br - 2], s_b[batch_rank + 1] = s->bstr[br - 1];
  *a = wb_tensor_new_view (ca ? ca : a0, cdt, batch_rank + 2, sh_a, s_a, (ca ? ca : a0)->offset);
  *b = wb_tensor_new_view (cb ? cb : b0, cdt, batch_rank + 2, sh_b, s_b, (cb ? cb : b0)->offset);
  return TRUE;
}

/* Whether a's batch folds into M: b has no batch and a's rows are evenly strided */
static gboolean
matmul_can_fold (WbTensor *a, WbTensor *b, const MatmulShape *s)
{
  guint  batch_rank = s->batch_rank;
  gint64 expect = a->strides[batch_rank] * s->m;

  for (guint d = 0; d < batch_rank; d++)
    if (b->strides[d] != 0)
      return FALSE;
  if (a->strides[batch_rank + 1] != 1)
    return FALSE;
  for (int d = (int) batch_rank - 1; d >= 0; d--)
    {
      if (a->strides[d] != expect)
        return FALSE;
      expect *= a->shape[d];
    }
  return TRUE;
}

/* One GEMM per batch of the views @a and @b into @acc ([nbatch * m, n]) */
static gboolean
gemm_batches (WbTensor *a, WbTensor *b, WbDtype cdt, const MatmulShape *s, WbTensor *acc, GError **error)
{
  guint  batch_rank = s->batch_rank;
  gint64 m = s->m, n = s->n, k = s->k;
  gint64 sa2[2] = { a->strides[batch_rank], a->strides[batch_rank + 1] };
  gint64 sb2[2] = { b->strides[batch_rank], b->strides[batch_rank + 1] };

  for (gint64 bi = 0; bi < s->nbatch; bi++)
    {
      gint64 ao = a->offset, bo = b->offset, rem = bi;
      for (int d = (int) batch_rank - 1; d >= 0; d--)
        {
          gint64 i = rem % s->batch[d];
          rem /= s->batch[d];
          ao += i * a->strides[d];
          bo += i * b->strides[d];
        }
      {
        g_autoptr (WbTensor) ma = wb_tensor_new_view (a, cdt, 2, (gint64[]){ m, k }, sa2, ao);
        g_autoptr (WbTensor) mb = wb_tensor_new_view (b, cdt, 2, (gint64[]){ k, n }, sb2, bo);
        GemmOperand pa = { 0 }, pb = { 0 };
        gboolean    okb = gemm_operand (ma, cdt, &pa, error) && gemm_operand (mb, cdt, &pb, error);
        if (okb)
          gemm (cdt, &pa, pa.t->offset, &pb, pb.t->offset, m, n, k,
                _wb_elem_ptr (acc, bi * m * n), n, FALSE);
        g_clear_pointer (&pa.t, wb_tensor_unref);
        g_clear_pointer (&pb.t, wb_tensor_unref);
        if (!okb)
          return FALSE;
      }
    }
  return TRUE;
}

static gboolean
run_matmul (WbKernelCall *call, WbTensor *a0, WbTensor *b0, GError **error)
{
  WbDtype     dtype = a0->dtype, cdt = dtype == WB_DTYPE_FLOAT64 ? WB_DTYPE_FLOAT64 : WB_DTYPE_FLOAT32;
  MatmulShape s;
  gint64      out_shape[WB_MAX_RANK];
  guint       out_rank = 0, batch_rank;
  gint64      m, n, k, nbatch;
  g_autoptr (WbTensor) a = NULL;
  g_autoptr (WbTensor) b = NULL;
  GemmOperand ga = { 0 }, gb = { 0 };
  WbTensor   *acc;
  WbTensor   *rounded = NULL;
  gboolean    ok = FALSE;
  gboolean    fold;

  if (a0->rank == 0 || b0->rank == 0 || a0->dtype != b0->dtype)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "matmul needs two tensors of rank >= 1 and one dtype, got %s[%u] and %s[%u]",
                   wb_dtype_shortname (a0->dtype), a0->rank, wb_dtype_shortname (b0->dtype), b0->rank);
      return FALSE;
    }
  if (!matmul_shape (a0, b0, &s, error) || !matmul_views (a0, b0, cdt, &s, &a, &b, error))
    return FALSE;
  batch_rank = s.batch_rank, m = s.m, n = s.n, k = s.k, nbatch = s.nbatch;

  fold = matmul_can_fold (a, b, &s);
  acc = wb_tensor_new (cdt, 2, (gint64[]){ fold && dtype != cdt && cdt == WB_DTYPE_FLOAT32 ? 0 : nbatch * m, n }, error);
  if (acc == NULL)
    return FALSE;
  if (fold)
    {
      gint64 fshape[2] = { nbatch * m, k }, fstr[2] = { a->strides[batch_rank], 1 };
      g_autoptr (WbTensor) fa = wb_tensor_new_view (a, cdt, 2, fshape, fstr, a->offset);
      g_autoptr (WbTensor) vb2 = wb_tensor_new_view (b, cdt, 2, (gint64[]){ k, n },
                                                     (gint64[]){ b->strides[batch_rank], b->strides[batch_rank + 1] }, b->offset);
      if (!gemm_operand (fa, cdt, &ga, error) || !gemm_operand (vb2, cdt, &gb, error))
        goto out;
      if (dtype != cdt && cdt == WB_DTYPE_FLOAT32)
        {
          rounded = gemm_rounded (&ga, &gb, nbatch * m, n, k, NULL, dtype, error);
          if (rounded == NULL)
            goto out;
        }
      else
        gemm (cdt, &ga, ga.t->offset, &gb, gb.t->offset, nbatch * m, n, k, wb_tensor_get_data (acc), n, FALSE);
    }
  else if (!gemm_batches (a, b, cdt, &s, acc, error))
    goto out;
  /* output shape */
  for (guint d = 0; d < batch_rank; d++)
    out_shape[out_rank++] = s.batch[d];
  if (a0->rank > 1)
    out_shape[out_rank++] = m;
  if (b0->rank > 1)
    out_shape[out_rank++] = n;
  if (rounded != NULL)
    {
      g_autoptr (WbTensor) v = wb_tensor_try_view (rounded, out_rank, out_shape);
      ok = _wb_cpu_set_result (call, g_steal_pointer (&v));
    }
  else
    ok = finish (call, g_steal_pointer (&acc), dtype, out_rank, out_shape, error);
out:
  g_clear_pointer (&acc, wb_tensor_unref);
  g_clear_pointer (&rounded, wb_tensor_unref);
  g_clear_pointer (&ga.t, wb_tensor_unref);
  g_clear_pointer (&gb.t, wb_tensor_unref);
  return ok;
}

static gboolean
run_linear (WbKernelCall *call, WbTensor *a, WbTensor *w, WbTensor *bias, GError **error)
{
  WbDtype     dtype = a->dtype, cdt = dtype == WB_DTYPE_FLOAT64 ? WB_DTYPE_FLOAT64 : WB_DTYPE_FLOAT32;
  gint64      k, n, m, out_shape[WB_MAX_RANK];
  GemmOperand ga = { 0 }, gb = { 0 };
  WbTensor   *acc = NULL;
  gboolean    ok = FALSE;
  g_autoptr (WbTensor) a2 = NULL;

  if (a->rank < 1 || w->rank != 2 || w->dtype != dtype || (bias && (bias->rank != 1 || bias->dtype != dtype)))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "linear needs a[..., K], w[N, K] and bias[N] (or None) of one dtype");
      return FALSE;
    }
  k = a->shape[a->rank - 1];
  n = w->shape[0];
  if (w->shape[1] != k || (bias && bias->shape[0] != n))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "linear: a has %" G_GINT64_FORMAT " features, w is [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                   k, w->shape[0], w->shape[1]);
      return FALSE;
    }
  m = wb_tensor_numel (a) / MAX (k, 1);
  if (k == 0)
    m = _wb_cpu_numel (a->rank - 1, a->shape);
  a2 = wb_tensor_reshape (a, 2, (gint64[]){ m, k }, error);
  if (a2 == NULL)
    return FALSE;
  {
    g_autoptr (WbTensor) wt = wb_tensor_permute (w, (gint64[]){ 1, 0 }, error); /* [K, N] */
    if (wt == NULL || !gemm_operand (a2, cdt, &ga, error) || !gemm_operand (wt, cdt, &gb, error))
      goto out;
  }
  memcpy (out_shape, a->shape, a->rank * sizeof (gint64));
  out_shape[a->rank - 1] = n;
  if (dtype != cdt && cdt == WB_DTYPE_FLOAT32)
    {
      g_autoptr (WbTensor) b32 = bias ? _wb_cpu_to_f32 (bias, error) : NULL;
      WbTensor *r;
      if (bias != NULL && b32 == NULL)
        goto out;
      r = gemm_rounded (&ga, &gb, m, n, k, b32 ? wb_tensor_get_data (b32) : NULL, dtype, error);
      if (r == NULL)
        goto out;
      {
        g_autoptr (WbTensor) v = wb_tensor_try_view (r, a->rank, out_shape);
        wb_tensor_unref (r);
        ok = _wb_cpu_set_result (call, g_steal_pointer (&v));
      }
      goto out;
    }
  acc = wb_tensor_new (cdt, 2, (gint64[]){ m, n }, error);
  if (acc == NULL)
    goto out;
  if (bias != NULL)
    {
      /* C starts as the bias in every row; the GEMM accumulates onto it */
      g_autoptr (WbTensor) bview = wb_tensor_broadcast_in_dim (bias, 2, (gint64[]){ m, n }, (gint64[]){ 1 }, error);
      if (bview == NULL || !wb_tensor_copy_into (acc, bview, error))
        goto out;
    }
  gemm (cdt, &ga, ga.t->offset, &gb, gb.t->offset, m, n, k, wb_tensor_get_data (acc), n, bias != NULL);
  ok = finish (call, g_steal_pointer (&acc), dtype, a->rank, out_shape, error);
out:
  g_clear_pointer (&acc, wb_tensor_unref);
  g_clear_pointer (&ga.t, wb_tensor_unref);
  g_clear_pointer (&gb.t, wb_tensor_unref);
  return ok;
}

gboolean
_wb_cpu_matmul (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a, *b, *bias = NULL;

  if (op == WB_MM_MATMUL)
    {
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_tensor (call, 1, "b", &b, error) ||
          !_wb_cpu_check_dtype (call, a->dtype, WB_DT_FLOATS, error))
        return FALSE;
      return run_matmul (call, a, b, error);
    }
  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_tensor (call, 1, "w", &b, error) ||
      !_wb_cpu_arg_tensor_opt (call, 2, "bias", &bias, error) ||
      !_wb_cpu_check_dtype (call, a->dtype, WB_DT_FLOATS, error))
    return FALSE;
  return run_linear (call, a, b, bias, error);
}
