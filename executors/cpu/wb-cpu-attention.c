/* wb-cpu-attention.c — the sdpa executor's scaled dot-product attention ops, forward and backward
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * q [B, H, Tq, E], k [B, H, Tk, E], v [B, H, Tk, Ev] (any strides; copied to f32 once). Per (batch, head):
 *   S = scale * Q K^T (+ attn_mask: additive float, or bool where False -> -inf) (causal: -inf above the
 *   diagonal, top-left aligned as torch's is_causal), P = softmax(S) row-wise in f32 with the row max
 *   subtracted, lse = max + log(sum), O = P V.
 * Backward recomputes P from the saved lse: dV = P^T dO, dP = dO V^T, D = rowsum(dO * O),
 * dS = P * (dP - D), dQ = scale dS K, dK = scale dS^T Q (and d_attn_mask = dS summed to the mask's
 * shape). GEMMs go through OpenBLAS; scale defaults to 1/sqrt(E). Outputs round to q's dtype.
 * Signatures (thunder/executors/sdpaex.py):
 *   sdpafx_grad_forward_...(q, k, v, dropout_p, is_causal, *, scale) ->
 *       (out, lse[B, H, ceil16(Tq)], cum_seq_q, cum_seq_k, max_q, max_k, philox_seed, philox_offset, debug_mask)
 *   sdpafx_..._backward(grad_out, q, k, v, out, lse, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal,
 *       philox_seed, philox_offset, *, scale) -> (dq, dk, dv)
 *   sdpaex_grad_forward_...(q, k, v, attn_mask, dropout_p, is_causal, scale) ->
 *       (out, lse[B, H, ceil32(Tq)], philox_seed, philox_offset)
 *   sdpaex_..._backward(grad_out, q, k, v, attn_mask, out, lse, philox_seed, philox_offset, dropout_p,
 *       is_causal, *, scale) -> (dq, dk, dv, d_attn_mask or None)
 * The random numbers of dropout are not reproduced: dropout_p must be 0 (UNSUPPORTED otherwise). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

typedef struct
{
  gint64    b, h, tq, tk, e, ev;
  float     scale;
  gboolean  causal;
  WbTensor *mask;   /* (nullable) f32 [Bm, Hm, Tq, Tk] broadcastable, contiguous */
  gint64    mb, mh; /* mask batch/head sizes (1 or b/h) */
} AttnDims;

/* S[i, j] for rows [i0, i1) of one (batch, head) against keys [0, kend), with mask and causal -inf;
 * @s is (i1 - i0) x kend. */
static void
scores (const AttnDims *d, gint64 bi, gint64 hi, const float *q, const float *k, gint64 i0, gint64 i1, gint64 kend, float *s)
{
  gint64 rows = i1 - i0;

  _wb_cpu_sgemm (FALSE, TRUE, rows, kend, d->e, d->scale, q + i0 * d->e, d->e, k, d->e, 0.0f, s, kend);
  if (d->mask)
    {
      const float *m = (const float *) wb_tensor_get_data (d->mask) +
                       ((d->mb > 1 ? bi : 0) * d->mh + (d->mh > 1 ? hi : 0)) * d->tq * d->tk;
      for (gint64 i = 0; i < rows; i++)
        for (gint64 j = 0; j < kend; j++)
          s[i * kend + j] += m[(i0 + i) * d->tk + j];
    }
  if (d->causal)
    for (gint64 i = 0; i < rows; i++)
      for (gint64 j = i0 + i + 1; j < kend; j++)
        s[i * kend + j] = -INFINITY;
}

/* Rows of queries per block: with is_causal a block only needs the keys up to its last row, which halves
 * the work; blocks also bound the scratch memory to ATTN_BLOCK x Tk. */
#define ATTN_BLOCK 256

static gint64
block_keys (const AttnDims *d, gint64 i1)
{
  return d->causal ? MIN (i1, d->tk) : d->tk;
}

typedef struct
{
  float       *s;
  gint64       tk;
  const float *lse_in;  /* backward: P = exp(S - lse) */
  float       *lse_out; /* forward */
} SoftmaxJob;

static void
softmax_rows (gint64 begin, gint64 end, gpointer data)
{
  SoftmaxJob *job = data;

  for (gint64 i = begin; i < end; i++)
    {
      float *row = job->s + i * job->tk;
      float  m = -INFINITY, l;
      double sum = 0;
      if (job->lse_in)
        {
          float lse = job->lse_in[i];
          for (gint64 j = 0; j < job->tk; j++)
            row[j] = isinf (lse) && lse < 0 ? 0.0f : expf (row[j] - lse);
          continue;
        }
      for (gint64 j = 0; j < job->tk; j++)
        m = MAX (m, row[j]);
      if (isinf (m) && m < 0)
        {
          memset (row, 0, (gsize) job->tk * sizeof (float));
          job->lse_out[i] = -INFINITY;
          continue;
        }
      for (gint64 j = 0; j < job->tk; j++)
        {
          row[j] = expf (row[j] - m);
          sum += row[j];
        }
      l = (float) sum;
      for (gint64 j = 0; j < job->tk; j++)
        row[j] /= l;
      job->lse_out[i] = m + logf (l);
    }
}

static gboolean
check_qkv (WbTensor *q, WbTensor *k, WbTensor *v, AttnDims *d, GError **error)
{
  if (q->rank != 4 || k->rank != 4 || v->rank != 4 || q->shape[0] != k->shape[0] || q->shape[1] != k->shape[1] ||
      v->shape[0] != q->shape[0] || v->shape[1] != q->shape[1] || k->shape[3] != q->shape[3] || v->shape[2] != k->shape[2])
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "attention needs q [B, H, Tq, E], k [B, H, Tk, E], v [B, H, Tk, Ev]");
      return FALSE;
    }
  d->b = q->shape[0], d->h = q->shape[1], d->tq = q->shape[2], d->tk = k->shape[2];
  d->e = q->shape[3], d->ev = v->shape[3];
  return TRUE;
}

static gboolean
common_args (WbKernelCall *call, guint p_dropout, guint p_causal, guint p_scale, AttnDims *d, GError **error)
{
  double dropout, scale;

  if (!_wb_cpu_arg_number (call, p_dropout, "dropout_p", TRUE, 0.0, &dropout, error) ||
      !_wb_cpu_arg_bool (call, p_causal, "is_causal", TRUE, FALSE, &d->causal, error) ||
      !_wb_cpu_arg_number (call, p_scale, "scale", TRUE, 1.0 / sqrt ((double) d->e), &scale, error))
    return FALSE;
  if (dropout != 0.0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "attention with dropout_p = %g: the cpu executor runs dropout 0 only", dropout);
      return FALSE;
    }
  d->scale = (float) scale;
  return TRUE;
}

/* the mask as f32 [Bm, Hm, Tq, Tk] contiguous (bool: 0 / -inf) */
static gboolean
prepare_mask (WbTensor *mask, AttnDims *d, GError **error)
{
  gint64 shape[4];

  if (mask == NULL)
    return TRUE;
  if (mask->rank > 4)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "attn_mask has rank %u", mask->rank);
      return FALSE;
    }
  for (guint i = 0; i < 4; i++)
    {
      int sd = (int) i - (int) (4 - mask->rank);
      shape[i] = sd >= 0 ? mask->shape[sd] : 1;
    }
  d->mb = shape[0] == 1 ? 1 : d->b;
  d->mh = shape[1] == 1 ? 1 : d->h;
  d->mask = wb_tensor_new (WB_DTYPE_FLOAT32, 4, (gint64[]){ d->mb, d->mh, d->tq, d->tk }, error);
  if (d->mask == NULL || !wb_tensor_copy_into (d->mask, mask, error))
    return FALSE;
  if (mask->dtype == WB_DTYPE_BOOL8)
    {
      float *m = wb_tensor_get_data (d->mask);
      for (gint64 i = 0; i < wb_tensor_numel (d->mask); i++)
        m[i] = m[i] != 0 ? 0.0f : -INFINITY;
    }
  return TRUE;
}

static WbTensor *
scalar_i64 (void)
{
  return wb_tensor_new_scalar (WB_DTYPE_INT64, 0);
}

/* Runs @func (bh) for every (batch, head): in parallel with single-threaded GEMMs when there are at
 * least as many heads as threads, else one head after another with OpenBLAS's threads. */
typedef void (*HeadFunc) (gint64 bh, gboolean inner_parallel, gpointer data);

typedef struct
{
  HeadFunc func;
  gpointer data;
} HeadsJob;

static void
heads_range (gint64 begin, gint64 end, gpointer data)
{
  HeadsJob *job = data;

  for (gint64 bh = begin; bh < end; bh++)
    job->func (bh, FALSE, job->data);
}

static void
run_heads (const AttnDims *d, HeadFunc func, gpointer data)
{
  guint    nt = _wb_get_num_threads ();
  gint64   n = d->b * d->h;
  HeadsJob job = { func, data };

  if (nt > 1 && n >= nt)
    {
      _wb_cpu_blas_set_threads (1);
      _wb_parallel_for (n, 1, heads_range, &job);
      _wb_cpu_blas_set_threads (nt);
    }
  else
    for (gint64 bh = 0; bh < n; bh++)
      func (bh, TRUE, data);
}

typedef struct
{
  const AttnDims *d;
  WbTensor       *qf, *kf, *vf, *of, *lse;
  gint64          lse_len;
} FwdJob;

static void
fwd_head (gint64 bh, gboolean inner_parallel, gpointer data)
{
  FwdJob         *job = data;
  const AttnDims *d = job->d;
  gint64          bi = bh / d->h, hi = bh % d->h;
  const float    *qh = (const float *) wb_tensor_get_data (job->qf) + bh * d->tq * d->e;
  const float    *kh = (const float *) wb_tensor_get_data (job->kf) + bh * d->tk * d->e;
  const float    *vh = (const float *) wb_tensor_get_data (job->vf) + bh * d->tk * d->ev;
  float          *oh = (float *) wb_tensor_get_data (job->of) + bh * d->tq * d->ev;
  float          *lh = (float *) wb_tensor_get_data (job->lse) + bh * job->lse_len;
  float          *s = g_new (float, MAX (ATTN_BLOCK * d->tk, 1));

  for (gint64 i0 = 0; i0 < d->tq; i0 += ATTN_BLOCK)
    {
      gint64     i1 = MIN (i0 + ATTN_BLOCK, d->tq), kend = block_keys (d, i1);
      SoftmaxJob sj = { s, kend, NULL, lh + i0 };
      if (kend == 0)
        {
          memset (oh + i0 * d->ev, 0, (gsize) ((i1 - i0) * d->ev) * sizeof (float));
          for (gint64 i = i0; i < i1; i++)
            lh[i] = -INFINITY;
          continue;
        }
      scores (d, bi, hi, qh, kh, i0, i1, kend, s);
      if (inner_parallel)
        _wb_parallel_for (i1 - i0, 32, softmax_rows, &sj);
      else
        softmax_rows (0, i1 - i0, &sj);
      _wb_cpu_sgemm (FALSE, FALSE, i1 - i0, d->ev, kend, 1.0f, s, kend, vh, d->ev, 0.0f, oh + i0 * d->ev, d->ev);
    }
  g_free (s);
}

static gboolean
attention_forward (WbKernelCall *call, gboolean flash, GError **error)
{
  WbTensor *q, *k, *v, *mask = NULL;
  AttnDims  d = { 0 };
  gint64    lse_len;
  g_autoptr (WbTensor) qf = NULL;
  g_autoptr (WbTensor) kf = NULL;
  g_autoptr (WbTensor) vf = NULL;
  g_autoptr (WbTensor) of = NULL;
  g_autoptr (WbTensor) lse = NULL;
  WbTensor  *out;
  WbRtValue *tuple;

  if (!_wb_cpu_arg_tensor (call, 0, "query", &q, error) || !_wb_cpu_arg_tensor (call, 1, "key", &k, error) ||
      !_wb_cpu_arg_tensor (call, 2, "value", &v, error) || !check_qkv (q, k, v, &d, error) ||
      !_wb_cpu_check_dtype (call, q->dtype, WB_DT (FLOAT32) | WB_DT (BFLOAT16) | WB_DT (FLOAT16), error))
    return FALSE;
  if (flash ? !common_args (call, 3, 4, 5, &d, error)
            : (!_wb_cpu_arg_tensor_opt (call, 3, "attn_mask", &mask, error) || !common_args (call, 4, 5, 6, &d, error)))
    return FALSE;
  if (!prepare_mask (mask, &d, error))
    goto fail;
  lse_len = flash ? (d.tq + 15) / 16 * 16 : (d.tq + 31) / 32 * 32;
  if ((qf = _wb_cpu_to_f32 (q, error)) == NULL || (kf = _wb_cpu_to_f32 (k, error)) == NULL ||
      (vf = _wb_cpu_to_f32 (v, error)) == NULL ||
      (of = wb_tensor_new (WB_DTYPE_FLOAT32, 4, (gint64[]){ d.b, d.h, d.tq, d.ev }, error)) == NULL ||
      (lse = wb_tensor_new_zeros (WB_DTYPE_FLOAT32, 3, (gint64[]){ d.b, d.h, lse_len }, error)) == NULL)
    goto fail;
  {
    FwdJob job = { &d, qf, kf, vf, of, lse, lse_len };
    run_heads (&d, fwd_head, &job);
  }
  g_clear_pointer (&d.mask, wb_tensor_unref);
  out = wb_tensor_to_dtype (of, q->dtype, error);
  if (out == NULL)
    return FALSE;
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (out));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&lse)));
  if (flash)
    {
      gint64 nb = d.b + 1;
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (wb_tensor_new_zeros (WB_DTYPE_INT64, 1, &nb, NULL)));
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (wb_tensor_new_zeros (WB_DTYPE_INT64, 1, &nb, NULL)));
      wb_rt_value_append (tuple, wb_rt_value_new_int (d.tq));
      wb_rt_value_append (tuple, wb_rt_value_new_int (d.tk));
    }
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (scalar_i64 ()));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (scalar_i64 ()));
  if (flash)
    wb_rt_value_append (tuple, wb_rt_value_take_tensor (scalar_i64 ()));
  call->result = tuple;
  return TRUE;

fail:
  g_clear_pointer (&d.mask, wb_tensor_unref);
  return FALSE;
}

typedef struct
{
  float       *ds; /* in: dP, out: dS */
  const float *p;
  const float *dout;
  const float *o;
  gint64       tk, ev;
} DsJob;

static void
ds_rows (gint64 begin, gint64 end, gpointer data)
{
  DsJob *job = data;

  for (gint64 i = begin; i < end; i++)
    {
      double dsum = 0;
      for (gint64 e = 0; e < job->ev; e++)
        dsum += (double) job->dout[i * job->ev + e] * job->o[i * job->ev + e];
      for (gint64 j = 0; j < job->tk; j++)
        job->ds[i * job->tk + j] = job->p[i * job->tk + j] * (job->ds[i * job->tk + j] - (float) dsum);
    }
}

typedef struct
{
  const AttnDims *d;
  WbTensor       *gof, *qf, *kf, *vf, *of, *lsef;
  gint64          lse_len;
  WbTensor       *dq, *dk, *dv, *dmask;
  gpointer        unused;
  GMutex          mask_lock;
} BwdJob;

static void
bwd_head (gint64 bh, gboolean inner_parallel, gpointer data)
{
  BwdJob         *job = data;
  const AttnDims *d = job->d;
  gint64          bi = bh / d->h, hi = bh % d->h;
  const float    *qh = (const float *) wb_tensor_get_data (job->qf) + bh * d->tq * d->e;
  const float    *kh = (const float *) wb_tensor_get_data (job->kf) + bh * d->tk * d->e;
  const float    *vh = (const float *) wb_tensor_get_data (job->vf) + bh * d->tk * d->ev;
  const float    *goh = (const float *) wb_tensor_get_data (job->gof) + bh * d->tq * d->ev;
  const float    *oh = (const float *) wb_tensor_get_data (job->of) + bh * d->tq * d->ev;
  const float    *lh = (const float *) wb_tensor_get_data (job->lsef) + bh * job->lse_len;
  float          *dqh = (float *) wb_tensor_get_data (job->dq) + bh * d->tq * d->e;
  float          *dkh = (float *) wb_tensor_get_data (job->dk) + bh * d->tk * d->e;
  float          *dvh = (float *) wb_tensor_get_data (job->dv) + bh * d->tk * d->ev;
  float          *p = g_new (float, MAX (ATTN_BLOCK * d->tk, 1));
  float          *ds = g_new (float, MAX (ATTN_BLOCK * d->tk, 1));

  memset (dkh, 0, (gsize) (d->tk * d->e) * sizeof (float));
  memset (dvh, 0, (gsize) (d->tk * d->ev) * sizeof (float));
  for (gint64 i0 = 0; i0 < d->tq; i0 += ATTN_BLOCK)
    {
      gint64     i1 = MIN (i0 + ATTN_BLOCK, d->tq), rows = i1 - i0, kend = block_keys (d, i1);
      SoftmaxJob sj = { p, kend, lh + i0, NULL };
      DsJob      dj = { ds, p, goh + i0 * d->ev, oh + i0 * d->ev, kend, d->ev };
      if (kend == 0)
        {
          memset (dqh + i0 * d->e, 0, (gsize) (rows * d->e) * sizeof (float));
          continue;
        }
      scores (d, bi, hi, qh, kh, i0, i1, kend, p);
      if (inner_parallel)
        _wb_parallel_for (rows, 32, softmax_rows, &sj);
      else
        softmax_rows (0, rows, &sj);
      /* dV[:kend] += P^T dO */
      _wb_cpu_sgemm (TRUE, FALSE, kend, d->ev, rows, 1.0f, p, kend, goh + i0 * d->ev, d->ev, 1.0f, dvh, d->ev);
      /* dP = dO V^T, then dS = P * (dP - D) */
      _wb_cpu_sgemm (FALSE, TRUE, rows, kend, d->ev, 1.0f, goh + i0 * d->ev, d->ev, vh, d->ev, 0.0f, ds, kend);
      if (inner_parallel)
        _wb_parallel_for (rows, 32, ds_rows, &dj);
      else
        ds_rows (0, rows, &dj);
      /* dQ = scale dS K, dK[:kend] += scale dS^T Q */
      _wb_cpu_sgemm (FALSE, FALSE, rows, d->e, kend, d->scale, ds, kend, kh, d->e, 0.0f, dqh + i0 * d->e, d->e);
      _wb_cpu_sgemm (TRUE, FALSE, kend, d->e, rows, d->scale, ds, kend, qh + i0 * d->e, d->e, 1.0f, dkh, d->e);
      if (job->dmask)
        {
          float *dm = (float *) wb_tensor_get_data (job->dmask) +
                      ((d->mb > 1 ? bi : 0) * d->mh + (d->mh > 1 ? hi : 0)) * d->tq * d->tk;
          g_mutex_lock (&job->mask_lock);
          for (gint64 i = 0; i < rows; i++)
            for (gint64 j = 0; j < kend; j++)
              dm[(i0 + i) * d->tk + j] += ds[i * kend + j];
          g_mutex_unlock (&job->mask_lock);
        }
    }
  g_free (p);
  g_free (ds);
}

static gboolean
attention_backward (WbKernelCall *call, gboolean flash, GError **error)
{
  WbTensor *go, *q, *k, *v, *o, *lse, *mask = NULL;
  AttnDims  d = { 0 };
  gint64    lse_len;
  g_autoptr (WbTensor) gof = NULL;
  g_autoptr (WbTensor) qf = NULL;
  g_autoptr (WbTensor) kf = NULL;
  g_autoptr (WbTensor) vf = NULL;
  g_autoptr (WbTensor) of = NULL;
  g_autoptr (WbTensor) lsef = NULL;
  g_autoptr (WbTensor) dq = NULL;
  g_autoptr (WbTensor) dk = NULL;
  g_autoptr (WbTensor) dv = NULL;
  g_autoptr (WbTensor) dmask = NULL;
  WbRtValue *tuple;
  WbTensor  *outs[3];

  if (!_wb_cpu_arg_tensor (call, 0, "grad_out", &go, error) || !_wb_cpu_arg_tensor (call, 1, "query", &q, error) ||
      !_wb_cpu_arg_tensor (call, 2, "key", &k, error) || !_wb_cpu_arg_tensor (call, 3, "value", &v, error) ||
      !check_qkv (q, k, v, &d, error) ||
      !_wb_cpu_check_dtype (call, q->dtype, WB_DT (FLOAT32) | WB_DT (BFLOAT16) | WB_DT (FLOAT16), error))
    return FALSE;
  if (flash)
    {
      if (!_wb_cpu_arg_tensor (call, 4, "out", &o, error) || !_wb_cpu_arg_tensor (call, 5, "logsumexp", &lse, error) ||
          !common_args (call, 10, 11, 14, &d, error))
        return FALSE;
    }
  else if (!_wb_cpu_arg_tensor_opt (call, 4, "attn_mask", &mask, error) || !_wb_cpu_arg_tensor (call, 5, "out", &o, error) ||
           !_wb_cpu_arg_tensor (call, 6, "logsumexp", &lse, error) || !common_args (call, 9, 10, 11, &d, error))
    return FALSE;
  lse_len = lse->rank == 3 ? lse->shape[2] : 0;
  if (lse->rank != 3 || lse_len < d.tq || go->rank != 4 || o->rank != 4)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "attention backward: bad logsumexp, out or grad_out");
      return FALSE;
    }
  if (!prepare_mask (mask, &d, error))
    goto fail;
  if ((gof = _wb_cpu_to_f32 (go, error)) == NULL || (qf = _wb_cpu_to_f32 (q, error)) == NULL ||
      (kf = _wb_cpu_to_f32 (k, error)) == NULL || (vf = _wb_cpu_to_f32 (v, error)) == NULL ||
      (of = _wb_cpu_to_f32 (o, error)) == NULL || (lsef = _wb_cpu_to_f32 (lse, error)) == NULL ||
      (dq = wb_tensor_new (WB_DTYPE_FLOAT32, 4, q->shape, error)) == NULL ||
      (dk = wb_tensor_new (WB_DTYPE_FLOAT32, 4, k->shape, error)) == NULL ||
      (dv = wb_tensor_new (WB_DTYPE_FLOAT32, 4, v->shape, error)) == NULL ||
      (mask && (dmask = wb_tensor_new_zeros (WB_DTYPE_FLOAT32, 4, d.mask->shape, error)) == NULL))
    goto fail;
  {
    BwdJob job = { &d, gof, qf, kf, vf, of, lsef, lse_len, dq, dk, dv, dmask, NULL };
    if (dmask)
      g_mutex_init (&job.mask_lock);
    run_heads (&d, bwd_head, &job);
    if (dmask)
      g_mutex_clear (&job.mask_lock);
  }
  outs[0] = wb_tensor_to_dtype (dq, q->dtype, error);
  outs[1] = outs[0] ? wb_tensor_to_dtype (dk, k->dtype, error) : NULL;
  outs[2] = outs[1] ? wb_tensor_to_dtype (dv, v->dtype, error) : NULL;
  if (outs[2] == NULL)
    {
      g_clear_pointer (&outs[0], wb_tensor_unref);
      g_clear_pointer (&outs[1], wb_tensor_unref);
      goto fail;
    }
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  for (guint i = 0; i < 3; i++)
    wb_rt_value_append (tuple, wb_rt_value_take_tensor (outs[i]));
  if (!flash)
    {
      if (dmask != NULL)
        {
          /* back to the mask's own shape and dtype (sum over broadcast leading dims is already done) */
          WbTensor *m = wb_tensor_to_dtype (dmask, mask->dtype == WB_DTYPE_BOOL8 ? q->dtype : mask->dtype, error);
          g_autoptr (WbTensor) mv = m ? wb_tensor_reshape (m, mask->rank, mask->shape, error) : NULL;
          g_clear_pointer (&m, wb_tensor_unref);
          if (mv == NULL)
            {
              wb_rt_value_unref (tuple);
              goto fail;
            }
          wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&mv)));
        }
      else
        wb_rt_value_append (tuple, wb_rt_value_new_none ());
    }
  g_clear_pointer (&d.mask, wb_tensor_unref);
  call->result = tuple;
  return TRUE;

fail:
  g_clear_pointer (&d.mask, wb_tensor_unref);
  return FALSE;
}

gboolean
_wb_cpu_attention (WbKernelCall *call, int op, GError **error)
{
  switch (op)
    {
    case WB_ATTN_FLASH_FWD:
      return attention_forward (call, TRUE, error);
    case WB_ATTN_EFFICIENT_FWD:
      return attention_forward (call, FALSE, error);
    case WB_ATTN_FLASH_BWD:
      return attention_backward (call, TRUE, error);
    case WB_ATTN_EFFICIENT_BWD:
      return attention_backward (call, FALSE, error);
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}
