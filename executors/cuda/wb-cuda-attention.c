/* wb-cuda-attention.c — scaled dot-product attention on the GPU: the ops' symbols and arguments, the choice of
 * path (cuDNN, the fused FlashAttention-2 kernels, the unfused path) and the call's results
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See wb-cuda-attention.h for the equations. cuDNN's fused attention takes the call first where it can
 * (wb-cudnn-sdpa.h); bf16/f16 calls with head dim 64 or 128 take the fused FlashAttention-2 kernels
 * (wb-cuda-flash.h), which read q, k, v, dO and O through their strides; everything else, or every call with
 * WB_CUDA_ATTN=unfused, takes the unfused path of wb-cuda-attention-unfused.c (cuBLASLt GEMMs and NVRTC row
 * kernels over q, k and v in place when their (batch, head) dims fold into one batch stride with unit inner
 * stride, copied to contiguous memory otherwise: the transposed views Thunder's regions return). The reason
 * a call is not fused is kept for wb_cuda_attention_get_stats. */
#include "config.h"

#include "wb-cuda-attention.h"

#include <math.h>
#include <string.h>

#include "wb-cuda-exec-private.h"
#include "wb-cuda-flash.h"
#if WB_HAVE_CUDNN
#include "wb-cudnn-sdpa.h"
#else
typedef struct _WbCudnnSdpaPlan WbCudnnSdpaPlan;
#endif

static WbCudaAttentionStats stats;

typedef WbCudaAttnDims Dims;

/* -- symbols -------------------------------------------------------------------------------------- */

WbCudaAttentionOp
wb_cuda_attention_op (const WbBsym *b)
{
  static const struct
  {
    const char       *name;
    WbCudaAttentionOp op;
  } table[] = {
    { "sdpafx_grad_forward_scaled_dot_product_efficient_attention", WB_CUDA_ATTENTION_FLASH_FWD },
    { "sdpafx_scaled_dot_product_efficient_attention_backward", WB_CUDA_ATTENTION_FLASH_BWD },
    { "sdpaex_grad_forward_scaled_dot_product_efficient_attention", WB_CUDA_ATTENTION_EFFICIENT_FWD },
    { "sdpaex_scaled_dot_product_efficient_attention_backward", WB_CUDA_ATTENTION_EFFICIENT_BWD },
    { "ltorch.scaled_dot_product_attention", WB_CUDA_ATTENTION_SDPA },
  };
  const WbSymbol *s;

  if (b == NULL || b->kind != WB_BSYM_CALL || (s = b->symbol) == NULL)
    return WB_CUDA_ATTENTION_NONE;
  if (wb_symbol_get_like (s) != NULL)
    s = wb_symbol_get_like (s);
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (strcmp (wb_symbol_get_name (s), table[i].name) == 0)
      return table[i].op;
  return WB_CUDA_ATTENTION_NONE;
}

/* Positions of the arguments as Thunder prints them (-1: none). */
typedef struct
{
  int go, q, out, lse, mask, dropout, causal, scale;
} Positions;

static Positions
positions_of (WbCudaAttentionOp op)
{
  switch (op)
    {
    case WB_CUDA_ATTENTION_FLASH_FWD:
      return (Positions){ -1, 0, -1, -1, -1, 3, 4, 5 };
    case WB_CUDA_ATTENTION_FLASH_BWD:
      return (Positions){ 0, 1, 4, 5, -1, 10, 11, 14 };
    case WB_CUDA_ATTENTION_EFFICIENT_BWD:
      return (Positions){ 0, 1, 5, 6, 4, 9, 10, 11 };
    default: /* sdpaex forward, ltorch */
      return (Positions){ -1, 0, -1, -1, 3, 4, 5, 6 };
    }
}

static const WbValue *
bsym_arg (const WbBsym *b, int pos, const char *name)
{
  if (pos < 0)
    return NULL;
  if ((guint) pos < b->n_args)
    return b->args[pos];
  for (guint i = 0; i < b->n_kwargs; i++)
    if (strcmp (b->kwargs[i].name, name) == 0)
      return b->kwargs[i].value;
  return NULL;
}

gboolean
wb_cuda_attention_check (const WbBsym *b, char **why_not)
{
  WbCudaAttentionOp op = wb_cuda_attention_op (b);
  Positions         at = positions_of (op);
  const WbValue    *mask = bsym_arg (b, at.mask, "attn_mask");
  const WbValue    *dropout = bsym_arg (b, at.dropout, "dropout_p");
  double            p = 0;

  if (op == WB_CUDA_ATTENTION_NONE)
    {
      if (why_not)
        *why_not = g_strdup ("not an attention op");
      return FALSE;
    }
  if (mask != NULL && mask->kind != WB_VALUE_NONE)
    {
      if (why_not)
        *why_not = g_strdup ("attention: an attn_mask is not handled on the GPU");
      return FALSE;
    }
  if (dropout != NULL && wb_value_get_number (dropout, &p) && p != 0.0)
    {
      if (why_not)
        *why_not = g_strdup_printf ("attention: dropout_p = %g is not handled on the GPU (0 only)", p);
      return FALSE;
    }
  return TRUE;
}

/* -- arguments ------------------------------------------------------------------------------------ */

static WbRtValue *
call_arg (WbKernelCall *call, int pos, const char *name)
{
  return pos < 0 ? NULL : wb_kernel_call_get_arg (call, (guint) pos, name);
}

static gboolean
refuse (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
refuse (GError **error, const char *format, ...)
{
  va_list          ap;
  g_autofree char *msg = NULL;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "attention: %s", msg);
  return FALSE;
}

static gboolean
tensor_arg (WbKernelCall *call, int pos, const char *name, WbTensor **out, GError **error)
{
  WbRtValue *v = call_arg (call, pos, name);

  if (v == NULL || v->kind != WB_RT_TENSOR || !wb_cuda_tensor_is_device (v->tensor))
    return refuse (error, "%s (argument %d) is not a device tensor", name, pos);
  *out = v->tensor;
  return TRUE;
}

/* A number argument: None or absent -> @def. */
static gboolean
number_arg (WbKernelCall *call, int pos, const char *name, double def, double *out, GError **error)
{
  WbRtValue *v = call_arg (call, pos, name);

  if (v == NULL || v->kind == WB_RT_NONE)
    {
      *out = def;
      return TRUE;
    }
  if (!wb_rt_value_get_number (v, out))
    return refuse (error, "%s (argument %d) is not a number", name, pos);
  return TRUE;
}

/* -- the choice of path ------------------------------------------------------------------------------ */

void
wb_cuda_attention_get_stats (WbCudaAttentionStats *out)
{
  *out = stats;
}

void
wb_cuda_attention_reset_stats (void)
{
  memset (&stats, 0, sizeof stats);
}

/* whether @d takes the fused kernels on @rt's device; records the choice (and the reason when not) */
static gboolean
choose_fused (WbCudaRuntime *rt, const Dims *d, gint64 b, gint64 h, WbCudaFlashDims *fd)
{
  g_autofree char        *why = NULL;
  const char             *mode = g_getenv ("WB_CUDA_ATTN");
  const WbCudaDeviceInfo *dev = wb_cuda_runtime_get_info (rt);

  if (g_strcmp0 (mode, "unfused") == 0)
    why = g_strdup ("WB_CUDA_ATTN=unfused");
  else if (!wb_cuda_flash_supported (d->dtype, d->e, d->ev, &why))
    ;
  else if (!wb_cuda_flash_arch_ok (dev->cc_major, dev->cc_minor, &why))
    ;
  else if (b * h > G_MAXINT32 / 2 || d->tq > G_MAXINT32 / 2 || d->tk > G_MAXINT32 / 2)
    why = g_strdup ("sequences too long for the fused kernels' int indexing");
  if (why != NULL)
    {
      stats.unfused++;
      g_snprintf (stats.why_unfused, sizeof stats.why_unfused, "%s", why);
      return FALSE;
    }
  stats.fused++;
  *fd = (WbCudaFlashDims){ d->dtype, b, h, d->tq, d->tk, d->e, d->scale, d->causal, g_strcmp0 (mode, "deterministic") == 0 };
  return TRUE;
}

/* @t as an operand of the fused kernels and cuDNN: in place, or a contiguous copy kept in @hold; nothing
 * to do when @m is already set (ptr != 0) */
static gboolean
flash_mat (WbCudaRuntime *rt, WbTensor *t, WbTensor **hold, WbCudaFlashMat *m, GError **error)
{
  if (m->ptr != 0 || wb_cuda_flash_mat (t, m))
    return TRUE;
  if ((*hold = wb_cuda_tensor_new (rt, t->dtype, t->rank, t->shape, error)) == NULL || !wb_cuda_copy_into (rt, *hold, t, error))
    return FALSE;
  return wb_cuda_flash_mat (*hold, m);
}

/* -- cuDNN (wb-cudnn-sdpa.h) ---------------------------------------------------------------------- */

/* FALSE, handing @why (transfer full) to @why_not when it is not NULL */
static gboolean
reject_why (char **why_not, char *why)
{
  if (why_not != NULL)
    *why_not = why;
  else
    g_free (why);
  return FALSE;
}

char *
wb_cuda_attention_describe_paths (void)
{
  GString *s = g_string_new (NULL);

  if (stats.cudnn > 0)
    {
#if WB_HAVE_CUDNN
      gsize            v = 0;
      WbCudnnSdpaStats cs;
      wb_cudnn_sdpa_get_stats (&cs);
      if (wb_cudnn_load (&v, NULL))
        g_string_append_printf (s, "cuDNN %u.%u.%u %u calls (%u graphs built in %.1f ms)", (guint) (v / 10000), (guint) (v / 100 % 100),
                                (guint) (v % 100), stats.cudnn, cs.built, cs.build_ms);
#endif
    }
  if (stats.fused > 0)
    g_string_append_printf (s, "%sFlashAttention-2 kernels %u calls", s->len ? "; " : "", stats.fused);
  if (stats.unfused > 0)
    g_string_append_printf (s, "%sunfused %u calls (%s)", s->len ? "; " : "", stats.unfused, stats.why_unfused);
  if (stats.fused + stats.unfused > 0 && stats.why_not_cudnn[0] != '\0')
    g_string_append_printf (s, "; not cuDNN: %s", stats.why_not_cudnn);
  if (s->len == 0)
    return g_string_free (s, TRUE);
  return g_string_free (s, FALSE);
}

gboolean
wb_cuda_attention_cudnn_takes (WbDtype dtype, gint64 e, gint64 ev, double scale, char **why_not)
{
  g_autoptr (GError) local = NULL;
  const char *mode = g_getenv ("WB_CUDA_ATTN");

  if (mode != NULL && mode[0] != '\0' && strcmp (mode, "cudnn") != 0)
    return reject_why (why_not, g_strdup_printf ("WB_CUDA_ATTN=%s", mode));
  if (dtype != WB_DTYPE_BFLOAT16 && dtype != WB_DTYPE_FLOAT16)
    return reject_why (why_not, g_strdup_printf ("%s inputs (cuDNN's fused attention takes bf16 and f16)", wb_dtype_shortname (dtype)));
  if (e != ev || e % 8 != 0 || e > 128)
    return reject_why (why_not, g_strdup_printf ("head dims %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT
                                                 " (cuDNN's fused attention takes equal ones, multiples of 8 up to 128)",
                                                 e, ev));
  if (!(scale > 0))
    return reject_why (why_not, g_strdup_printf ("scale %g (cuDNN's fused attention is used for positive scales only: it gave NaN for -0.1)", scale));
#if WB_HAVE_CUDNN
  if (!wb_cudnn_load (NULL, &local))
    return reject_why (why_not, g_strdup (local->message));
  return TRUE;
#else
  return reject_why (why_not, g_strdup ("this build has no cuDNN support (cudnn-frontend was not found at build time)"));
#endif
}

#if WB_HAVE_CUDNN
/* the key's strides of a fused-kernel operand [B, H, T, E] (whose strides of extent-1 dims are 0) */
static void
cudnn_strides (const WbCudaFlashMat *m, gint64 h, gint64 t, gint64 e, gint64 *out)
{
  out[3] = 1;
  out[2] = m->ss ? m->ss : e;
  out[1] = m->sh ? m->sh : t * out[2];
  out[0] = m->sb ? m->sb : h * out[1];
}

/* cuDNN's graph for the call (transfer none), with the operands it reads set in @m (q, k, v and, backward,
 * go and o: in place or copies held in @hold); NULL with the reason in stats.why_not_cudnn when cuDNN is not
 * used (mode, dtype, head dim, no cuDNN, no engine). FALSE only for a failed copy. */
static gboolean
cudnn_plan (WbCudaRuntime *rt, const Dims *d, gint64 b, gint64 h, gboolean fwd, WbTensor *const *t, WbTensor **const *hold, WbCudaFlashMat *m, WbCudnnSdpaPlan **plan, gint64 *workspace, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *why = NULL;
  WbCudnnSdpaKey   key;

  *plan = NULL;
  if (!wb_cuda_attention_cudnn_takes (d->dtype, d->e, d->ev, d->scale, &why))
    {
      g_snprintf (stats.why_not_cudnn, sizeof stats.why_not_cudnn, "%s", why);
      return TRUE;
    }
  for (guint i = 0; i < (fwd ? 3u : 5u); i++)
    if (!flash_mat (rt, t[i], hold[i], &m[i], error))
      return FALSE;
  memset (&key, 0, sizeof key);
  key.dtype = d->dtype;
  key.backward = !fwd;
  key.causal = d->causal;
  key.scale = d->scale;
  key.b = b, key.h = h, key.tq = d->tq, key.tk = d->tk, key.e = d->e;
  /* the backward's statistics are packed first (cuDNN before 9.26 takes no other layout) */
  key.lse_len = fwd ? d->lse_len : d->tq;
  cudnn_strides (&m[0], h, d->tq, d->e, key.q_strides);
  cudnn_strides (&m[1], h, d->tk, d->e, key.k_strides);
  cudnn_strides (&m[2], h, d->tk, d->e, key.v_strides);
  if (fwd)
    cudnn_strides (&(WbCudaFlashMat){ 0 }, h, d->tq, d->e, key.o_strides);
  else
    {
      cudnn_strides (&m[3], h, d->tq, d->e, key.do_strides);
      cudnn_strides (&m[4], h, d->tq, d->e, key.o_strides);
    }
  if ((*plan = wb_cudnn_sdpa_plan (&key, workspace, &local)) == NULL)
    g_snprintf (stats.why_not_cudnn, sizeof stats.why_not_cudnn, "%s", local->message);
  return TRUE;
}

/* one cuDNN attention call as a launch list repeats it (wb_cuda_runtime_record_call) */
typedef struct
{
  WbCudnnSdpaPlan *plan; /* the process's, never freed */
  CUdeviceptr      ptrs[9], workspace;
} SdpaReplay;

static gboolean
sdpa_replay (gpointer data, CUstream stream, GError **error)
{
  SdpaReplay *r = data;

  return wb_cudnn_sdpa_execute (r->plan, stream, r->ptrs, r->workspace, error);
}

/* runs @plan with @ptrs (@n_ptrs of them) on the runtime's stream, its workspace from the pool */
static gboolean
cudnn_run (WbCudaRuntime *rt, WbCudnnSdpaPlan *plan, gint64 workspace, const CUdeviceptr *ptrs, guint n_ptrs, GError **error)
{
  g_autoptr (WbTensor) ws = NULL;

  if (workspace > 0 && (ws = wb_cuda_tensor_new (rt, WB_DTYPE_UINT8, 1, &workspace, error)) == NULL)
    return FALSE;
  if (!wb_cudnn_sdpa_execute (plan, wb_cuda_runtime_get_stream (rt), ptrs, ws ? wb_cuda_tensor_ptr (ws) : 0, error))
    return FALSE;
  if (wb_cuda_runtime_is_listing (rt))
    {
      SdpaReplay *r = g_new0 (SdpaReplay, 1);
      r->plan = plan;
      memcpy (r->ptrs, ptrs, MIN (n_ptrs, G_N_ELEMENTS (r->ptrs)) * sizeof (CUdeviceptr));
      r->workspace = ws ? wb_cuda_tensor_ptr (ws) : 0;
      wb_cuda_runtime_record_call (rt, sdpa_replay, r, g_free);
    }
  return TRUE;
}
#endif

/* -- the call ------------------------------------------------------------------------------------- */

static WbTensor *
device_zeros (WbCudaRuntime *rt, guint rank, const gint64 *shape, GError **error)
{
  WbTensor *t = wb_cuda_tensor_new (rt, WB_DTYPE_INT64, rank, shape, error);

  if (t != NULL && wb_tensor_nbytes (t) > 0 &&
      !wb_cuda_runtime_memset (rt, wb_cuda_tensor_ptr (t), 0, (gsize) wb_tensor_nbytes (t), error))
    g_clear_pointer (&t, wb_tensor_unref);
  return t;
}

static gboolean
append_zeros (WbCudaRuntime *rt, WbRtValue *tuple, guint rank, const gint64 *shape, GError **error)
{
  WbTensor *t = device_zeros (rt, rank, shape, error);

  if (t == NULL)
    return FALSE;
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (t));
  return TRUE;
}

static gboolean
same_dims (const WbTensor *t, gint64 d0, gint64 d1, gint64 d2, gint64 d3)
{
  return t->rank == 4 && t->shape[0] == d0 && t->shape[1] == d1 && t->shape[2] == d2 && t->shape[3] == d3;
}

/* The call's tensors (borrowed): q, k, v [B, H, T, E], and backward grad_out, out and logsumexp */
typedef struct
{
  WbTensor *q, *k, *v, *go, *o, *lse;
  gint64    b, h;
} Operands;

/* Reads and checks @op's arguments: the tensors into @a, their sizes, the scale and causality into @d;
 * FALSE with the reason what the GPU paths do not take (refuse) */
static gboolean
read_args (WbKernelCall *call, WbCudaAttentionOp op, gboolean fwd, Operands *a, Dims *d, GError **error)
{
  Positions  at = positions_of (op);
  WbRtValue *mask = call_arg (call, at.mask, "attn_mask");
  double     dropout, causal, scale;
  WbTensor  *q, *k, *v, *go, *o, *lse;
  gint64     b, h;

  if (!tensor_arg (call, at.q, "query", &a->q, error) || !tensor_arg (call, at.q + 1, "key", &a->k, error) ||
      !tensor_arg (call, at.q + 2, "value", &a->v, error))
    return FALSE;
  if (!fwd && (!tensor_arg (call, at.go, "grad_out", &a->go, error) || !tensor_arg (call, at.out, "out", &a->o, error) ||
               !tensor_arg (call, at.lse, "logsumexp", &a->lse, error)))
    return FALSE;
  q = a->q, k = a->k, v = a->v, go = a->go, o = a->o, lse = a->lse;
  if (mask != NULL && mask->kind != WB_RT_NONE)
    return refuse (error, "an attn_mask is not handled on the GPU");
  if (!number_arg (call, at.dropout, "dropout_p", 0.0, &dropout, error) || !number_arg (call, at.causal, "is_causal", 0.0, &causal, error))
    return FALSE;
  if (dropout != 0.0)
    return refuse (error, "dropout_p = %g is not handled on the GPU (0 only)", dropout);
  d->dtype = q->dtype;
  if (_wb_cuda_attn_dtype_slot (d->dtype) < 0 || k->dtype != d->dtype || v->dtype != d->dtype || (go && go->dtype != d->dtype) || (o && o->dtype != d->dtype))
    return refuse (error, "dtypes %s, %s, %s are not handled (f32, bf16 or f16, all equal)", wb_dtype_shortname (q->dtype),
                   wb_dtype_shortname (k->dtype), wb_dtype_shortname (v->dtype));
  if (q->rank != 4 || k->rank != 4 || v->rank != 4)
    return refuse (error, "q, k, v of ranks %u, %u, %u (4 only: [B, H, T, E])", q->rank, k->rank, v->rank);
  b = a->b = q->shape[0], h = a->h = q->shape[1];
  d->tq = q->shape[2], d->tk = k->shape[2], d->e = q->shape[3], d->ev = v->shape[3];
  if (!same_dims (k, b, h, d->tk, d->e) || !same_dims (v, b, h, d->tk, d->ev))
    return refuse (error, "q [B, H, Tq, E], k [B, H, Tk, E], v [B, H, Tk, Ev] do not match");
  if (b * h == 0 || d->tq == 0 || d->tk == 0 || d->e == 0 || d->ev == 0)
    return refuse (error, "empty dimensions are not handled");
  if (!number_arg (call, at.scale, "scale", 1.0 / sqrt ((double) d->e), &scale, error))
    return FALSE;
  d->bh = b * h;
  d->scale = (float) scale;
  d->causal = causal != 0.0;
  if (!fwd)
    {
      if (!same_dims (go, b, h, d->tq, d->ev) || !same_dims (o, b, h, d->tq, d->ev) || lse->rank != 3 || lse->shape[0] != b ||
          lse->shape[1] != h || lse->shape[2] < d->tq || lse->dtype != WB_DTYPE_FLOAT32)
        return refuse (error, "grad_out, out or logsumexp do not match q [B, H, Tq, E]");
      d->lse_len = lse->shape[2];
    }
  else
    d->lse_len = op == WB_CUDA_ATTENTION_FLASH_FWD ? (d->tq + 15) / 16 * 16 : (d->tq + 31) / 32 * 32;
  return TRUE;
}

/* The forward's result: sdpa's output alone, or the tuple of the aten op (@out, @lse_out, and zeros and
 * sizes where the op returns sequence offsets and Philox state); (transfer full) out and lse_out */
static gboolean
forward_result (WbCudaRuntime *rt, WbCudaAttentionOp op, const Dims *d, gint64 b, WbTensor *out, WbTensor *lse_out, WbKernelCall *call, GError **error)
{
  WbRtValue *tuple;
  gint64     nb = b + 1;

  if (op == WB_CUDA_ATTENTION_SDPA)
    {
      wb_tensor_unref (lse_out);
      call->result = wb_rt_value_take_tensor (out);
      return TRUE;
    }
  tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (out));
  wb_rt_value_append (tuple, wb_rt_value_take_tensor (lse_out));
  if (op == WB_CUDA_ATTENTION_FLASH_FWD)
    {
      /* cum_seq_q, cum_seq_k, max_q, max_k */
      if (!append_zeros (rt, tuple, 1, &nb, error) || !append_zeros (rt, tuple, 1, &nb, error))
        goto fail;
      wb_rt_value_append (tuple, wb_rt_value_new_int (d->tq));
      wb_rt_value_append (tuple, wb_rt_value_new_int (d->tk));
    }
  /* philox_seed, philox_offset (and the flash op's debug_attn_mask) */
  for (guint i = 0; i < (op == WB_CUDA_ATTENTION_FLASH_FWD ? 3u : 2u); i++)
    if (!append_zeros (rt, tuple, 0, &nb, error))
      goto fail;
  call->result = tuple;
  return TRUE;

fail:
  wb_rt_value_unref (tuple);
  return FALSE;
}

static gboolean
run (WbCudaRuntime *rt, WbCudaAttentionOp op, WbKernelCall *call, Dims *d, GError **error)
{
  gboolean  fwd = op == WB_CUDA_ATTENTION_FLASH_FWD || op == WB_CUDA_ATTENTION_EFFICIENT_FWD || op == WB_CUDA_ATTENTION_SDPA;
  Operands  a = { 0 };
  WbTensor *q, *k, *v, *go, *o, *lse;
  gint64    b, h;
  g_autoptr (WbTensor) q3 = NULL;
  g_autoptr (WbTensor) k3 = NULL;
  g_autoptr (WbTensor) v3 = NULL;
  /* the operands q, k, v, go, o as the fused kernels and cuDNN read them, and the copies made for them */
  g_autoptr (WbTensor) hq = NULL;
  g_autoptr (WbTensor) hk = NULL;
  g_autoptr (WbTensor) hv = NULL;
  g_autoptr (WbTensor) hgo = NULL;
  g_autoptr (WbTensor) ho = NULL;
  WbTensor            *operands[5];
  WbTensor           **held[5] = { &hq, &hk, &hv, &hgo, &ho };
  WbCudaFlashMat       mats[5] = { { 0 } };
  WbCudnnSdpaPlan     *plan = NULL;
  G_GNUC_UNUSED gint64 workspace = 0; /* read only with cuDNN */
  WbCudaFlashDims      fd;
  gboolean             fused;
  WbRtValue           *tuple;

  if (!read_args (call, op, fwd, &a, d, error))
    return FALSE;
  q = a.q, k = a.k, v = a.v, go = a.go, o = a.o, lse = a.lse, b = a.b, h = a.h;
  operands[0] = q, operands[1] = k, operands[2] = v, operands[3] = go, operands[4] = o;
#if WB_HAVE_CUDNN
  if (!cudnn_plan (rt, d, b, h, fwd, operands, held, mats, &plan, &workspace, error))
    return FALSE;
#endif
  if (plan != NULL)
    {
      fused = FALSE;
      stats.cudnn++;
    }
  else if ((fused = choose_fused (rt, d, b, h, &fd)))
    {
      for (guint i = 0; i < 3; i++)
        if (!flash_mat (rt, operands[i], held[i], &mats[i], error))
          return FALSE;
    }
  else if ((q3 = _wb_cuda_attn_flat_heads (rt, q, error)) == NULL || (k3 = _wb_cuda_attn_flat_heads (rt, k, error)) == NULL || (v3 = _wb_cuda_attn_flat_heads (rt, v, error)) == NULL)
    return FALSE;

  if (fwd)
    {
      g_autoptr (WbTensor) out = wb_cuda_tensor_new (rt, d->dtype, 4, (gint64[]){ b, h, d->tq, d->ev }, error);
      g_autoptr (WbTensor) lse_out = out ? wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 3, (gint64[]){ b, h, d->lse_len }, error) : NULL;
      g_autoptr (WbTensor) o3 = NULL;
      if (lse_out == NULL)
        return FALSE;
      if (plan != NULL)
        {
#if WB_HAVE_CUDNN
          /* cuDNN writes rows 0..Tq-1 of the statistics; the padding is 0, as the cpu executor leaves it */
          if (d->lse_len > d->tq &&
              !wb_cuda_runtime_memset (rt, wb_cuda_tensor_ptr (lse_out), 0, (gsize) wb_tensor_nbytes (lse_out), error))
            return FALSE;
          if (!cudnn_run (rt, plan, workspace,
                          (CUdeviceptr[]){ mats[0].ptr, mats[1].ptr, mats[2].ptr, wb_cuda_tensor_ptr (out), wb_cuda_tensor_ptr (lse_out) }, 5, error))
            return FALSE;
#endif
        }
      else if (fused)
        {
          if (!wb_cuda_flash_forward (rt, &fd, &mats[0], &mats[1], &mats[2], wb_cuda_tensor_ptr (out), wb_cuda_tensor_ptr (lse_out), d->lse_len, error))
            return FALSE;
        }
      else if ((o3 = wb_tensor_try_view (out, 3, (gint64[]){ d->bh, d->tq, d->ev })) == NULL || !_wb_cuda_attn_unfused_forward (rt, d, q3, k3, v3, o3, lse_out, error))
        return FALSE;
      return forward_result (rt, op, d, b, g_steal_pointer (&out), g_steal_pointer (&lse_out), call, error);
    }
  else
    {
      g_autoptr (WbTensor) lse_c = wb_cuda_contiguous (rt, lse, error);
      g_autoptr (WbTensor) dq = lse_c ? wb_cuda_tensor_new (rt, d->dtype, 4, q->shape, error) : NULL;
      g_autoptr (WbTensor) dk = dq ? wb_cuda_tensor_new (rt, d->dtype, 4, k->shape, error) : NULL;
      g_autoptr (WbTensor) dv = dk ? wb_cuda_tensor_new (rt, d->dtype, 4, v->shape, error) : NULL;
      if (dv == NULL)
        return FALSE;
      if (plan != NULL)
        {
#if WB_HAVE_CUDNN
          g_autoptr (WbTensor) rows = NULL;
          g_autoptr (WbTensor) packed = NULL;
          if (d->lse_len != d->tq &&
              ((rows = wb_tensor_slice (lse_c, (gint64[]){ 0, 0, 0 }, (gint64[]){ b, h, d->tq }, NULL, error)) == NULL ||
               (packed = wb_cuda_contiguous (rt, rows, error)) == NULL))
            return FALSE;
          if (!cudnn_run (rt, plan, workspace,
                          (CUdeviceptr[]){ mats[0].ptr, mats[1].ptr, mats[2].ptr, mats[4].ptr, mats[3].ptr, wb_cuda_tensor_ptr (packed ? packed : lse_c),
                                           wb_cuda_tensor_ptr (dq), wb_cuda_tensor_ptr (dk), wb_cuda_tensor_ptr (dv) },
                          9, error))
            return FALSE;
#endif
        }
      else if (fused)
        {
          if (!fd.deterministic)
            stats.atomic_dq++;
          if (!flash_mat (rt, go, &hgo, &mats[3], error) || !flash_mat (rt, o, &ho, &mats[4], error) ||
              !wb_cuda_flash_backward (rt, &fd, &mats[0], &mats[1], &mats[2], &mats[3], &mats[4], wb_cuda_tensor_ptr (lse_c), d->lse_len,
                                       wb_cuda_tensor_ptr (dq), wb_cuda_tensor_ptr (dk), wb_cuda_tensor_ptr (dv), error))
            return FALSE;
        }
      else
        {
          g_autoptr (WbTensor) go3 = _wb_cuda_attn_flat_heads (rt, go, error);
          g_autoptr (WbTensor) go_c = go3 ? wb_cuda_contiguous (rt, go3, error) : NULL;
          g_autoptr (WbTensor) o_c = go_c ? wb_cuda_contiguous (rt, o, error) : NULL;
          g_autoptr (WbTensor) dq3 = wb_tensor_try_view (dq, 3, q3->shape);
          g_autoptr (WbTensor) dk3 = wb_tensor_try_view (dk, 3, k3->shape);
          g_autoptr (WbTensor) dv3 = wb_tensor_try_view (dv, 3, v3->shape);
          if (o_c == NULL || !_wb_cuda_attn_unfused_backward (rt, d, go_c, q3, k3, v3, o_c, lse_c, dq3, dk3, dv3, error))
            return FALSE;
        }
      tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&dq)));
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&dk)));
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (g_steal_pointer (&dv)));
      if (op == WB_CUDA_ATTENTION_EFFICIENT_BWD)
        wb_rt_value_append (tuple, wb_rt_value_new_none ()); /* no attn_mask, no gradient for it */
      call->result = tuple;
      return TRUE;
    }
}

gboolean
wb_cuda_attention_run (WbCudaRuntime *rt, WbCudaAttentionOp op, WbKernelCall *call, guint *n_gemms, GError **error)
{
  Dims     d = { 0 };
  gboolean ok;

  g_return_val_if_fail (op != WB_CUDA_ATTENTION_NONE, FALSE);
  ok = run (rt, op, call, &d, error);
  if (n_gemms)
    *n_gemms = d.gemms;
  if (!ok && error && *error && !g_str_has_prefix ((*error)->message, "attention: "))
    g_prefix_error (error, "attention: ");
  return ok;
}
