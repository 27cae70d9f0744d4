/* wb-cuda-nccl-dtensor.c — Thunder's DTensor prims on the GPU: from_local / to_local, and redistribute as
 * the collective its placements ask for
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A DTensor's value is its local tensor, so dtensor_from_local and dtensor_to_local return their argument.
 * dtensor_redistribute runs the steps wb_dtensor_redistribute_plan takes from the annotated source
 * (WbKernelCall.in_dtensor) and target types, as torch's redistribute_local_tensor
 * (torch/distributed/tensor/_redistribute.py) does, through the communicator of the runner
 * (wb-cuda-nccl.c), which holds every rank of the run: so the mesh must be 1-D over all of them.
 *   all_reduce(op)           Partial(op) -> Replicate: ncclAllReduce
 *   all_gather(dim d)        Shard(d) -> Replicate: ncclAllGather into [W, local...], then the W chunks
 *                            placed along d (one strided copy)
 *   reduce_scatter(op, d)    Partial(op) -> Shard(d): the W chunks of d made contiguous as [W, chunk...]
 *                            (one strided copy), then ncclReduceScatter
 *   split(d)                 Replicate -> Shard(d): this rank's chunk of d (a copy; no communication)
 * Shard(a) -> Shard(b) (torch's all_to_all) and a dim that does not split evenly over the ranks fail with
 * WB_CUDA_ERROR_CALL saying so. */
#include "config.h"

#include <string.h>

#include "wb-cuda-exec-private.h"
#include "wb-cuda-nccl.h"

/* Contiguous strides of @shape (@rank dims) into @strides. */
static void
contiguous_strides (const gint64 *shape, guint rank, gint64 *strides)
{
  gint64 s = 1;
  for (int i = (int) rank - 1; i >= 0; i--)
    {
      strides[i] = s;
      s *= shape[i];
    }
}

/* A view of contiguous @t (shape [..., W * c, ...] along @dim) as [W, ..., c, ...]: chunk w of dim @dim
 * first. */
static WbTensor *
chunks_view (WbTensor *t, guint dim, gint64 w, GError **error)
{
  gint64 shape[WB_MAX_RANK], strides[WB_MAX_RANK], ts[WB_MAX_RANK] = { 0 };

  if (t->rank + 1 > WB_MAX_RANK || dim >= t->rank)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "a %u-d tensor has no room for the ranks' dim (at most %d dims)", t->rank,
                   WB_MAX_RANK);
      return NULL;
    }
  contiguous_strides (t->shape, t->rank, ts);
  shape[0] = w;
  strides[0] = (t->shape[dim] / w) * ts[dim];
  for (guint i = 0; i < t->rank; i++)
    {
      shape[i + 1] = i == dim ? t->shape[dim] / w : t->shape[i];
      strides[i + 1] = ts[i];
    }
  return wb_tensor_new_view (t, t->dtype, t->rank + 1, shape, strides, t->offset);
}

static gboolean
check_even (const WbTensor *t, guint dim, gint64 w, gboolean gathered, GError **error)
{
  if (dim >= t->rank)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "Shard(dim=%u) of a %u-d local tensor", dim, t->rank);
      return FALSE;
    }
  if (!gathered && t->shape[dim] % w != 0)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL,
                   "dim %u of size %" G_GINT64_FORMAT " does not split evenly over %" G_GINT64_FORMAT " ranks (uneven shards are not run)", dim,
                   t->shape[dim], w);
      return FALSE;
    }
  return TRUE;
}

/* One step on local tensor @in (contiguous, on the device); *@out gets the new local tensor. */
static gboolean
run_step (WbCudaRuntime *rt, const WbDtensorStep *step, WbTensor *in, WbTensor **out, GError **error)
{
  gint64 w = step->group_size, shape[WB_MAX_RANK];
  g_autoptr (WbTensor) tmp = NULL;
  g_autoptr (WbTensor) view = NULL;
  g_autoptr (WbTensor) res = NULL;

  memcpy (shape, in->shape, sizeof shape);
  switch (step->kind)
    {
    case WB_DTENSOR_STEP_ALL_REDUCE:
      if ((res = wb_cuda_tensor_new (rt, in->dtype, in->rank, in->shape, error)) == NULL ||
          !_wb_cuda_nccl_collective (rt, WB_CUDA_NCCL_ALL_REDUCE, in, res, step->op, error))
        return FALSE;
      break;
    case WB_DTENSOR_STEP_ALL_GATHER:
      if (!check_even (in, step->dim, w, TRUE, error))
        return FALSE;
      shape[step->dim] *= w;
      if ((tmp = wb_cuda_tensor_new (rt, in->dtype, in->rank, shape, error)) == NULL ||
          !_wb_cuda_nccl_collective (rt, WB_CUDA_NCCL_ALL_GATHER, in, tmp, 0, error))
        return FALSE;
      /* tmp holds rank 0's local tensor, then rank 1's ...: as [W, local...] it is @res's chunks of dim d */
      if ((res = wb_cuda_tensor_new (rt, in->dtype, in->rank, shape, error)) == NULL || (view = chunks_view (res, step->dim, w, error)) == NULL)
        return FALSE;
      {
        gint64 gshape[WB_MAX_RANK], gstrides[WB_MAX_RANK];
        g_autoptr (WbTensor) g = NULL;
        gshape[0] = w;
        memcpy (gshape + 1, in->shape, sizeof (gint64) * in->rank);
        contiguous_strides (gshape, in->rank + 1, gstrides);
        g = wb_tensor_new_view (tmp, in->dtype, in->rank + 1, gshape, gstrides, tmp->offset);
        if (!wb_cuda_copy_into (rt, view, g, error))
          return FALSE;
      }
      break;
    case WB_DTENSOR_STEP_REDUCE_SCATTER:
      if (!check_even (in, step->dim, w, FALSE, error) || (view = chunks_view (in, step->dim, w, error)) == NULL)
        return FALSE;
      /* chunk w of dim d first, contiguous: reduce-scattering it leaves rank r its chunk r, reduced */
      if ((tmp = wb_cuda_tensor_new (rt, in->dtype, view->rank, view->shape, error)) == NULL || !wb_cuda_copy_into (rt, tmp, view, error))
        return FALSE;
      shape[step->dim] /= w;
      if ((res = wb_cuda_tensor_new (rt, in->dtype, in->rank, shape, error)) == NULL ||
          !_wb_cuda_nccl_collective (rt, WB_CUDA_NCCL_REDUCE_SCATTER, tmp, res, step->op, error))
        return FALSE;
      break;
    case WB_DTENSOR_STEP_SPLIT:
      if (!check_even (in, step->dim, w, FALSE, error) || (view = chunks_view (in, step->dim, w, error)) == NULL)
        return FALSE;
      {
        gint64 r = _wb_cuda_nccl_get_rank () % w;
        g_autoptr (WbTensor) mine = wb_tensor_new_view (in, in->dtype, in->rank, view->shape + 1, view->strides + 1, in->offset + r * view->strides[0]);
        if ((res = wb_cuda_tensor_new (rt, in->dtype, in->rank, mine->shape, error)) == NULL || !wb_cuda_copy_into (rt, res, mine, error))
          return FALSE;
      }
      break;
    case WB_DTENSOR_STEP_ALL_TO_ALL:
    default:
      {
        g_autofree char *what = wb_dtensor_step_to_string (step);
        g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s (Shard(%u) -> Shard(%u)) is not implemented on the GPU", what, step->src_dim,
                     step->dim);
        return FALSE;
      }
    }
  *out = g_steal_pointer (&res);
  return TRUE;
}

static gboolean
redistribute (WbCudaRuntime *rt, WbKernelCall *call, WbTensor *local, GError **error)
{
  g_autoptr (GError) why = NULL;
  g_autoptr (WbTensor) cur = wb_tensor_ref (local);
  WbDtensorStep steps[WB_MAX_MESH_RANK];
  guint         n = 0;

  if (call->in_dtensor == NULL || !call->bsym->has_type || call->bsym->type.kind != WB_TYPE_DTENSOR)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: the placements before and after are not both annotated DTensor types",
                   call->bsym->name);
      return FALSE;
    }
  if (!wb_dtensor_redistribute_plan (call->in_dtensor, &call->bsym->type, steps, &n, &why))
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: %s", call->bsym->name, why->message);
      return FALSE;
    }
  if (n > 0 && (call->in_dtensor->dtensor.mesh_rank != 1 || (guint) call->in_dtensor->dtensor.mesh_shape[0] != wb_cuda_nccl_get_world_size ()))
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL,
                   "%s: only a 1-D mesh over every rank of the run (%u) is redistributed on the GPU", call->bsym->name, wb_cuda_nccl_get_world_size ());
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      WbTensor *next = NULL;
      if (!run_step (rt, &steps[i], cur, &next, error))
        {
          g_prefix_error (error, "%s: ", call->bsym->name);
          return FALSE;
        }
      g_clear_pointer (&cur, wb_tensor_unref);
      cur = next;
    }
  call->result = wb_rt_value_take_tensor (g_steal_pointer (&cur));
  return TRUE;
}

gboolean
_wb_cuda_nccl_run_dtensor (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbRtValue *a = wb_kernel_call_get_arg (call, 0, g_str_has_suffix (call->bsym->name, "from_local") ? "x" : "dtensor");
  g_autoptr (WbRtValue) da = NULL;
  g_autoptr (WbTensor) in = NULL;

  if (a == NULL || a->kind != WB_RT_TENSOR)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: the argument is not a (local) tensor", call->bsym->name);
      return FALSE;
    }
  if ((da = _wb_cuda_exec_to_device (rt, a, error)) == NULL)
    return FALSE;
  if (wb_cuda_nccl_op (call->bsym) == WB_CUDA_NCCL_DTENSOR_LOCAL)
    {
      call->result = wb_rt_value_new_tensor (da->tensor);
      return TRUE;
    }
  if ((in = wb_cuda_contiguous (rt, da->tensor, error)) == NULL)
    return FALSE;
  return redistribute (rt, call, in, error);
}
