/* wb-cuda-exec-ops.c — the CUDA executors' per-op paths: cuBLASLt matmul, copy_, attention, the cpu fallback
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cuda-attention.h"
#include "wb-cuda-exec-private.h"

static WbTensor *
arg_tensor (WbKernelCall *call, guint i, const char *kw)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, i, kw);

  return v && v->kind == WB_RT_TENSOR ? v->tensor : NULL;
}

gboolean
_wb_cuda_exec_run_matmul (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  gboolean  linear = strcmp (_wb_cuda_exec_prim_name (call->bsym), "prims.linear") == 0;
  WbTensor *a = arg_tensor (call, 0, "a"), *b = arg_tensor (call, 1, linear ? "w" : "b");
  WbTensor *bias = linear ? arg_tensor (call, 2, "bias") : NULL;
  g_autoptr (WbRtValue) da = NULL;
  g_autoptr (WbRtValue) db = NULL;
  g_autoptr (WbRtValue) dbias = NULL;
  WbTensor *out = NULL;

  if (a == NULL || b == NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: operands are not tensors");
      return FALSE;
    }
  {
    g_autoptr (WbRtValue) va = wb_rt_value_new_tensor (a);
    g_autoptr (WbRtValue) vb = wb_rt_value_new_tensor (b);
    g_autoptr (WbRtValue) vbias = bias ? wb_rt_value_new_tensor (bias) : NULL;
    if ((da = _wb_cuda_exec_to_device (rt, va, error)) == NULL || (db = _wb_cuda_exec_to_device (rt, vb, error)) == NULL)
      return FALSE;
    if (vbias && (dbias = _wb_cuda_exec_to_device (rt, vbias, error)) == NULL)
      return FALSE;
  }
  /* on the side stream, copies of host arguments it made are kept for the run: the run's stream reads them
   * after a join */
  wb_cuda_runtime_mark_side (rt, da->tensor);
  wb_cuda_runtime_mark_side (rt, db->tensor);
  if (dbias)
    wb_cuda_runtime_mark_side (rt, dbias->tensor);
  if (!wb_cuda_matmul (rt, da->tensor, db->tensor, dbias ? dbias->tensor : NULL, linear, &out, error))
    return FALSE;
  _wb_cuda_exec_stats ()->matmuls++;
  call->result = wb_rt_value_take_tensor (out);
  return TRUE;
}

gboolean
_wb_cuda_exec_run_copy_ (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbTensor *from = arg_tensor (call, 0, "copy_from"), *to = arg_tensor (call, 1, "copy_to");
  g_autoptr (WbRtValue) dfrom = NULL;
  g_autoptr (WbTensor) src = NULL;

  if (from == NULL || to == NULL || !wb_cuda_tensor_is_device (to) || from->rank > to->rank)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "copy_: the destination is not a device tensor");
      return FALSE;
    }
  if ((dfrom = _wb_cuda_exec_to_device (rt, call->args[0], error)) == NULL)
    return FALSE;
  {
    gint64 bdims[WB_MAX_RANK];
    for (guint d = 0; d < dfrom->tensor->rank; d++)
      bdims[d] = to->rank - dfrom->tensor->rank + d;
    if ((src = wb_tensor_broadcast_in_dim (dfrom->tensor, to->rank, to->shape, bdims, error)) == NULL)
      return FALSE;
  }
  if (!wb_cuda_copy_into (rt, to, src, error))
    return FALSE;
  _wb_cuda_exec_stats ()->ops_generated++;
  call->result = wb_rt_value_new_tensor (to);
  return TRUE;
}

gboolean
_wb_cuda_exec_run_on_cpu (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbExecutor          *cpu = wb_executor_get (WB_EXECUTOR_ID_CPU);
  WbKernelCall         hc = *call;
  WbCudaDispatchStats *stats = _wb_cuda_exec_stats ();
  g_autoptr (GPtrArray) hargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) hkwargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  gpointer count;

  if (wb_cuda_runtime_is_capturing (rt))
    {
      /* download, host work, upload: nothing a CUDA graph can replay (wb-cuda-graph.h) */
      g_autofree char *what = g_strdup_printf ("runs %s on the cpu fallback", call->bsym->name);
      return wb_cuda_runtime_check_capturable (rt, what, error);
    }
  for (guint i = 0; i < call->n_args; i++)
    {
      WbRtValue *h = _wb_cuda_exec_to_host (rt, call->args[i], error);
      if (h == NULL)
        return FALSE;
      g_ptr_array_add (hargs, h);
    }
  for (guint i = 0; i < call->n_kwargs; i++)
    {
      WbRtValue *h = _wb_cuda_exec_to_host (rt, call->kwargs[i], error);
      if (h == NULL)
        return FALSE;
      g_ptr_array_add (hkwargs, h);
    }
  hc.args = (WbRtValue **) hargs->pdata;
  hc.kwargs = (WbRtValue **) hkwargs->pdata;
  hc.result = NULL;
  if (!wb_executor_run (cpu, &hc, error))
    return FALSE;
  call->result = _wb_cuda_exec_to_device (rt, hc.result, error);
  wb_rt_value_unref (hc.result);
  if (call->result == NULL)
    return FALSE;
  stats->fallbacks++;
  count = g_hash_table_lookup (stats->fallback_symbols, call->bsym->name);
  g_hash_table_insert (stats->fallback_symbols, g_strdup (call->bsym->name), GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
  return TRUE;
}

/* Runs an attention op on the GPU (wb-cuda-attention.h) with its tensor arguments uploaded. */
gboolean
_wb_cuda_exec_run_attention (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbKernelCall dc = *call;
  g_autoptr (GPtrArray) dargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) dkwargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  guint gemms = 0;

  for (guint i = 0; i < call->n_args + call->n_kwargs; i++)
    {
      WbRtValue *v = _wb_cuda_exec_to_device (rt, i < call->n_args ? call->args[i] : call->kwargs[i - call->n_args], error);
      if (v == NULL)
        return FALSE;
      g_ptr_array_add (i < call->n_args ? dargs : dkwargs, v);
    }
  dc.args = (WbRtValue **) dargs->pdata;
  dc.kwargs = (WbRtValue **) dkwargs->pdata;
  dc.result = NULL;
  if (!wb_cuda_attention_run (rt, wb_cuda_attention_op (call->bsym), &dc, &gemms, error))
    return FALSE;
  _wb_cuda_exec_stats ()->matmuls += gemms;
  call->result = dc.result;
  return TRUE;
}
