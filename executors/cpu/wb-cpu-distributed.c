/* wb-cpu-distributed.c — the distributed prims on the cpu, for a world size of 1
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * thunder/distributed/prims.py and the torch executor's implementations (thunder/executors/torchex.py,
 * printed torch_<name>_prim_impl). The cpu executor is one process, so it runs the collectives of a
 * one-rank program: all_reduce of one rank is its tensor (whatever the op: SUM, AVG, PRODUCT, MIN, MAX,
 * BAND, BOR, BXOR), all_gather and reduce_scatter a copy, broadcast from rank 0 a copy, synchronize
 * the tensor. The cpu is synchronous, so a FUTURE tensor (do_async) is the tensor itself and wait()
 * returns it. A program recorded with more ranks (WbRunState.world_size > 1, or a call whose annotated
 * output shows a larger group) is refused, naming the op: it runs on the GPU, one process per rank.
 * The bucketing ops of DDP and FSDP (pack, unpack, update_bucket_view, pack_for_fsdp,
 * unpack_for_fsdp) are local data movement and run exactly as torchex.py does them for any world size:
 * pack keeps its buffer for the run under its bucket_key (WbRunState.buckets; a second pack of the key
 * returns that buffer, as torchex's cache does), unpack copies the views of that bucket into its tensors
 * in place and returns them, update_bucket_view copies a tensor into its view of the bucket. */
#include "config.h"

#include <string.h>

#include "wb-cpu-private.h"

/* Refuses a collective of a program recorded with more than one rank. */
static gboolean
check_one_rank (WbKernelCall *call, const WbTensor *a, GError **error)
{
  int ws = call->state != NULL ? call->state->world_size : 1;

  /* an annotated output of another size than the input: all_gather / reduce_scatter over a larger group */
  if (ws <= 1 && a != NULL && call->bsym->has_type && call->bsym->type.rank == a->rank)
    for (guint d = 0; d < a->rank; d++)
      if (call->bsym->type.shape[d] != a->shape[d])
        {
          ws = 0;
          break;
        }
  if (ws == 1)
    return TRUE;
  if (ws > 1)
    g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                 "a collective over %d ranks cannot run on the cpu executor, which runs one process: run it on the GPU "
                 "with one process per rank (thunder-wb run --device cuda)",
                 ws);
  else
    g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                 "a collective whose annotated output differs from its input in shape (a process group of more than "
                 "one rank) cannot run on the cpu executor: run it on the GPU with one process per rank "
                 "(thunder-wb run --device cuda)");
  return FALSE;
}

/* A contiguous copy of @a (transfer full). */
static WbTensor *
copy_of (WbTensor *a, GError **error)
{
  WbTensor *out = wb_tensor_new_like (a, error);
  if (out != NULL && !wb_tensor_copy_into (out, a, error))
    g_clear_pointer (&out, wb_tensor_unref);
  return out;
}

/* The name a global argument was printed as (`_DistributedReduceOps_SUM_3`), or NULL. */
static const char *
opaque_arg (WbKernelCall *call, guint pos, const char *name)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);
  return v != NULL && v->kind == WB_RT_OPAQUE ? v->s : NULL;
}

/* all_gather (a, group, do_async, dim), reduce_scatter (a, op, group, do_async, dim), broadcast (a,
 * root, group, do_async), all_reduce (a, op, group, do_async, skip_clone): one rank's result. */
static gboolean
collective (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;
  gboolean  alias = FALSE;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !check_one_rank (call, a, error))
    return FALSE;
  if (op == WB_DIST_OP_ALL_REDUCE || op == WB_DIST_OP_REDUCE_SCATTER)
    {
      const char *name = opaque_arg (call, 1, "op");
      if (wb_dist_reduce_op_from_name (name) == WB_DIST_REDUCE_UNKNOWN)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "argument 1 (op): expected a DistributedReduceOps global such as _DistributedReduceOps_SUM_0, got %s",
                       name ? name : "something else");
          return FALSE;
        }
    }
  if (op == WB_DIST_OP_ALL_REDUCE && !_wb_cpu_arg_bool (call, 4, "skip_clone", TRUE, FALSE, &alias, error))
    return FALSE;
  if (op == WB_DIST_OP_BROADCAST)
    {
      gint64 root;
      if (!_wb_cpu_arg_int (call, 1, "root", FALSE, 0, &root, error))
        return FALSE;
      if (root != 0)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "broadcast from rank %" G_GINT64_FORMAT " in a program of one rank", root);
          return FALSE;
        }
    }
  if (alias)
    return _wb_cpu_set_result (call, wb_tensor_ref (a));
  {
    WbTensor *out = copy_of (a, error);
    return out != NULL && _wb_cpu_set_result (call, out);
  }
}

/* The tensors of list argument @pos (transfer none, in order); FALSE when not a non-empty list of tensors
 * of one dtype. */
static gboolean
tensor_list (WbKernelCall *call, guint pos, const char *name, GPtrArray *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v == NULL || !wb_rt_value_is_sequence (v) || v->items->len == 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "argument %u (%s): expected a non-empty list of tensors", pos, name);
      return FALSE;
    }
  for (guint i = 0; i < v->items->len; i++)
    {
      WbRtValue *t = v->items->pdata[i];
      if (t->kind != WB_RT_TENSOR || t->tensor->dtype != ((WbRtValue *) v->items->pdata[0])->tensor->dtype)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "argument %u (%s): item %u is not a tensor of the first one's dtype", pos,
                       name, i);
          return FALSE;
        }
      g_ptr_array_add (out, t->tensor);
    }
  return TRUE;
}

/* Copies @n elements of @src (contiguous) starting at element @from into @dst's data at element @at. */
static void
copy_elements (WbTensor *dst, gint64 at, const WbTensor *src, gint64 from, gint64 n)
{
  gsize es = (gsize) (wb_tensor_numel (src) > 0 ? wb_tensor_nbytes (src) / wb_tensor_numel (src) : 0);
  if (n > 0 && es > 0)
    memcpy ((char *) wb_tensor_get_data (dst) + at * es, (const char *) wb_tensor_get_data (src) + from * es, (gsize) n * es);
}

/* The bucket packed under the string argument @pos (bucket_key) in this run, or NULL. */
static WbRtValue *
find_bucket (WbKernelCall *call, guint pos)
{
  WbRtValue *key = wb_kernel_call_get_arg (call, pos, "bucket_key");
  if (key == NULL || key->kind != WB_RT_STRING || call->state == NULL || call->state->buckets == NULL)
    return NULL;
  return g_hash_table_lookup (call->state->buckets, key->s);
}

/* Keeps @buffer for the run under pack's bucket_key, with the sizes of its views (those of @ts). */
static void
keep_bucket (WbKernelCall *call, WbTensor *buffer, GPtrArray *ts)
{
  WbRtValue *key = wb_kernel_call_get_arg (call, 1, "bucket_key");
  WbRtValue *bucket;

  if (key == NULL || key->kind != WB_RT_STRING || call->state == NULL || call->state->buckets == NULL)
    return;
  bucket = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (bucket, wb_rt_value_take_tensor (wb_tensor_ref (buffer)));
  for (guint i = 0; i < ts->len; i++)
    wb_rt_value_append (bucket, wb_rt_value_new_int (wb_tensor_numel (ts->pdata[i])));
  g_hash_table_replace (call->state->buckets, g_strdup (key->s), bucket);
}

/* pack (tensors, bucket_key), pack_for_fsdp (tensors, world_size, mode): the 1-d buffer.
 * 'gather' and pack: the tensors flattened one after another (torch._utils._flatten_dense_tensors);
 * 'scatter': chunk c of every tensor (torch.chunk of its flat view in world_size parts), for each c in
 * turn, as many chunks as the tensor with the fewest has (zip). */
static gboolean
pack (WbKernelCall *call, int op, GError **error)
{
  g_autoptr (GPtrArray) ts = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  g_autoptr (GPtrArray) in = g_ptr_array_new ();
  g_autoptr (WbTensor) out = NULL;
  gint64      total = 0, ws = 1, at = 0, n_chunks = G_MAXINT64;
  const char *mode = "gather";
  WbRtValue  *bucket;

  if (!tensor_list (call, 0, "tensors", in, error))
    return FALSE;
  if (op == WB_DIST_OP_PACK && (bucket = find_bucket (call, 1)) != NULL)
    return _wb_cpu_set_result (call, wb_tensor_ref (((WbRtValue *) bucket->items->pdata[0])->tensor));
  if (op == WB_DIST_OP_PACK_FOR_FSDP)
    {
      WbRtValue *m = wb_kernel_call_get_arg (call, 2, "mode");
      if (!_wb_cpu_arg_int (call, 1, "world_size", FALSE, 0, &ws, error))
        return FALSE;
      mode = m != NULL && m->kind == WB_RT_STRING ? m->s : "";
      if ((strcmp (mode, "gather") != 0 && strcmp (mode, "scatter") != 0) || ws < 1)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "Invalid mode=%s or world_size=%" G_GINT64_FORMAT " (gather, scatter)",
                       mode, ws);
          return FALSE;
        }
    }
  for (guint i = 0; i < in->len; i++)
    {
      WbTensor *c = wb_tensor_contiguous (in->pdata[i], error);
      gint64    n = wb_tensor_numel (c != NULL ? c : in->pdata[i]), cs = (n + ws - 1) / ws;
      if (c == NULL)
        return FALSE;
      g_ptr_array_add (ts, c);
      n_chunks = MIN (n_chunks, cs > 0 ? (n + cs - 1) / cs : 0);
    }
  for (guint i = 0; i < ts->len; i++)
    {
      gint64 n = wb_tensor_numel (ts->pdata[i]), cs = (n + ws - 1) / ws;
      total += strcmp (mode, "scatter") == 0 ? MIN (n, n_chunks * cs) : n;
    }
  if ((out = wb_tensor_new (((WbTensor *) ts->pdata[0])->dtype, 1, &total, error)) == NULL)
    return FALSE;
  if (strcmp (mode, "scatter") != 0)
    for (guint i = 0; i < ts->len; i++)
      {
        copy_elements (out, at, ts->pdata[i], 0, wb_tensor_numel (ts->pdata[i]));
        at += wb_tensor_numel (ts->pdata[i]);
      }
  else
    for (gint64 c = 0; c < n_chunks; c++)
      for (guint i = 0; i < ts->len; i++)
        {
          gint64 n = wb_tensor_numel (ts->pdata[i]), cs = (n + ws - 1) / ws, from = c * cs, len = MIN (cs, n - from);
          copy_elements (out, at, ts->pdata[i], from, len);
          at += len;
        }
  if (op == WB_DIST_OP_PACK)
    keep_bucket (call, out, ts);
  return _wb_cpu_set_result (call, g_steal_pointer (&out));
}

/* A tuple of one tensor per item of @like: consecutive pieces of @buffer (contiguous), piece k of
 * numel(like[k]) * @mul / @div elements with like[k]'s shape, dim 0 times @mul over @div. */
static gboolean
unpack_pieces (WbKernelCall *call, WbTensor *buffer, GPtrArray *like, gint64 mul, gint64 div, GError **error)
{
  g_autoptr (WbRtValue) tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  gint64 at = 0;

  for (guint k = 0; k < like->len; k++)
    {
      const WbTensor *t = like->pdata[k];
      gint64          shape[WB_MAX_RANK], n;
      WbTensor       *piece;

      memcpy (shape, t->shape, sizeof (gint64) * t->rank);
      if (t->rank == 0 || (shape[0] * mul) % div != 0)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "tensor %u of shape %s cannot be split %" G_GINT64_FORMAT " ways", k,
                       wb_tensor_shape_to_string (t), div);
          return FALSE;
        }
      shape[0] = shape[0] * mul / div;
      n = _wb_cpu_numel (t->rank, shape);
      if (at + n > wb_tensor_numel (buffer))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "the buffer holds %" G_GINT64_FORMAT " elements, fewer than its tensors need", wb_tensor_numel (buffer));
          return FALSE;
        }
      if ((piece = wb_tensor_new (buffer->dtype, t->rank, shape, error)) == NULL)
        return FALSE;
      copy_elements (piece, 0, buffer, at, n);
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (piece));
      at += n;
    }
  call->result = g_steal_pointer (&tuple);
  return TRUE;
}

/* unpack_for_fsdp 'gather' (buffer, tensors, world_size): the buffer viewed as [world_size, -1]; output k
 * is columns [off_k, off_k + numel_k) of every row, dim 0 times world_size. */
static gboolean
unpack_gather (WbKernelCall *call, WbTensor *buffer, GPtrArray *like, gint64 ws, GError **error)
{
  g_autoptr (WbRtValue) tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  gint64 row = ws > 0 ? wb_tensor_numel (buffer) / ws : 0, off = 0;

  if (ws < 1 || row * ws != wb_tensor_numel (buffer))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "a buffer of %" G_GINT64_FORMAT " elements is not world_size=%" G_GINT64_FORMAT " rows",
                   wb_tensor_numel (buffer), ws);
      return FALSE;
    }
  for (guint k = 0; k < like->len; k++)
    {
      const WbTensor *t = like->pdata[k];
      gint64          shape[WB_MAX_RANK], n = wb_tensor_numel (t);
      WbTensor       *piece;

      if (t->rank == 0 || off + n > row)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "tensor %u does not fit the buffer's rows", k);
          return FALSE;
        }
      memcpy (shape, t->shape, sizeof (gint64) * t->rank);
      shape[0] *= ws;
      if ((piece = wb_tensor_new (buffer->dtype, t->rank, shape, error)) == NULL)
        return FALSE;
      for (gint64 r = 0; r < ws; r++)
        copy_elements (piece, r * n, buffer, r * row + off, n);
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (piece));
      off += n;
    }
  call->result = g_steal_pointer (&tuple);
  return TRUE;
}

/* unpack (buffer, tensors, bucket_key): the views of the bucket packed under bucket_key (else of
 * @buffer) copied into @like in place (torch._foreach_copy_); the result is @like. */
static gboolean
unpack_bucket (WbKernelCall *call, WbTensor *buffer, GPtrArray *like, GError **error)
{
  WbRtValue *bucket = find_bucket (call, 2);
  g_autoptr (WbRtValue) tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  WbTensor *src = bucket != NULL ? ((WbRtValue *) bucket->items->pdata[0])->tensor : buffer;
  gint64    at = 0;

  for (guint k = 0; k < like->len; k++)
    {
      WbTensor *t = like->pdata[k];
      gint64    n = wb_tensor_numel (t);
      g_autoptr (WbTensor) piece = NULL;

      if (at + n > wb_tensor_numel (src) || !wb_tensor_is_contiguous (src) || (piece = wb_tensor_new (src->dtype, t->rank, t->shape, error)) == NULL)
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "the bucket holds %" G_GINT64_FORMAT " elements, fewer than its tensors need",
                         wb_tensor_numel (src));
          return FALSE;
        }
      copy_elements (piece, 0, src, at, n);
      if (!wb_tensor_copy_into (t, piece, error))
        return FALSE;
      wb_rt_value_append (tuple, wb_rt_value_take_tensor (wb_tensor_ref (t)));
      at += n;
    }
  call->result = g_steal_pointer (&tuple);
  return TRUE;
}

/* update_bucket_view (tensor, index_of_dst_view, bucket_key): @tensor copied into view k of the bucket
 * (when one was packed under the key); the result is @tensor. */
static gboolean
update_bucket_view (WbKernelCall *call, GError **error)
{
  WbRtValue *bucket = find_bucket (call, 2);
  WbTensor  *a, *buffer;
  gint64     k, at = 0;

  if (!_wb_cpu_arg_tensor (call, 0, "tensor", &a, error) || !_wb_cpu_arg_int (call, 1, "index_of_dst_view", FALSE, 0, &k, error))
    return FALSE;
  if (bucket != NULL)
    {
      g_autoptr (WbTensor) c = wb_tensor_contiguous (a, error);
      if (c == NULL)
        return FALSE;
      buffer = ((WbRtValue *) bucket->items->pdata[0])->tensor;
      if (k < 0 || k + 1 >= (gint64) bucket->items->len || ((WbRtValue *) bucket->items->pdata[k + 1])->i != wb_tensor_numel (c))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index_of_dst_view=%" G_GINT64_FORMAT " is not a view of %s's size", k,
                       wb_tensor_shape_to_string (a));
          return FALSE;
        }
      for (gint64 v = 0; v < k; v++)
        at += ((WbRtValue *) bucket->items->pdata[v + 1])->i;
      copy_elements (buffer, at, c, 0, wb_tensor_numel (c));
    }
  return _wb_cpu_set_result (call, wb_tensor_ref (a));
}

/* unpack (buffer, tensors, bucket_key) and unpack_for_fsdp (buffer, tensors, world_size, mode). */
static gboolean
unpack (WbKernelCall *call, int op, GError **error)
{
  g_autoptr (GPtrArray) like = g_ptr_array_new ();
  g_autoptr (WbTensor) buffer = NULL;
  WbTensor  *b;
  gint64     ws = 1;
  WbRtValue *m;

  if (!_wb_cpu_arg_tensor (call, 0, "buffer", &b, error) || !tensor_list (call, 1, "tensors", like, error))
    return FALSE;
  if ((buffer = wb_tensor_contiguous (b, error)) == NULL)
    return FALSE;
  if (op == WB_DIST_OP_UNPACK)
    return unpack_bucket (call, buffer, like, error);
  if (!_wb_cpu_arg_int (call, 2, "world_size", FALSE, 0, &ws, error))
    return FALSE;
  m = wb_kernel_call_get_arg (call, 3, "mode");
  if (m != NULL && m->kind == WB_RT_STRING && strcmp (m->s, "gather") == 0)
    return unpack_gather (call, buffer, like, ws, error);
  if (m != NULL && m->kind == WB_RT_STRING && strcmp (m->s, "scatter") == 0 && ws >= 1)
    return unpack_pieces (call, buffer, like, 1, ws, error);
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "Invalid mode, `gather` and `scatter` are supported");
  return FALSE;
}

/* dtensor_redistribute (dtensor, device_mesh=None, placements=None, *, async_op=False): from the annotated
 * source DTensor (WbKernelCall.in_dtensor) to the annotated output; only a plan without steps runs here. */
static gboolean
redistribute (WbKernelCall *call, GError **error)
{
  g_autoptr (GError) local = NULL;
  WbDtensorStep steps[WB_MAX_MESH_RANK];
  guint         n = 0;
  WbTensor     *a;

  if (!_wb_cpu_arg_tensor (call, 0, "dtensor", &a, error))
    return FALSE;
  if (call->in_dtensor == NULL || !call->bsym->has_type || call->bsym->type.kind != WB_TYPE_DTENSOR)
    {
      g_set_error_literal (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                           "the placements before and after are not both annotated DTensor types");
      return FALSE;
    }
  if (!wb_dtensor_redistribute_plan (call->in_dtensor, &call->bsym->type, steps, &n, &local))
    {
      g_set_error_literal (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, local->message);
      return FALSE;
    }
  if (n > 0)
    {
      g_autofree char *step = wb_dtensor_step_to_string (&steps[0]);
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "this redistribute is %s over %" G_GINT64_FORMAT " ranks, which the cpu executor (one process) cannot run: run it "
                   "on the GPU with one process per rank (thunder-wb --headless profile CASE)",
                   step, steps[0].group_size);
      return FALSE;
    }
  return _wb_cpu_set_result (call, wb_tensor_ref (a));
}

gboolean
_wb_cpu_distributed (WbKernelCall *call, int op, GError **error)
{
  WbTensor *a;

  switch (op)
    {
    case WB_DIST_OP_ALL_GATHER:
    case WB_DIST_OP_ALL_REDUCE:
    case WB_DIST_OP_BROADCAST:
    case WB_DIST_OP_REDUCE_SCATTER:
      return collective (call, op, error);
    case WB_DIST_OP_SYNCHRONIZE:
    case WB_DIST_OP_TENSOR_PARALLEL:
      /* the same tensor on every rank of one */
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !check_one_rank (call, a, error))
        return FALSE;
      return _wb_cpu_set_result (call, wb_tensor_ref (a));
    case WB_DIST_OP_UPDATE_BUCKET_VIEW:
      return update_bucket_view (call, error);
    case WB_DIST_OP_WAIT:
    case WB_DIST_OP_PASS:
      /* wait: the cpu ran the collective at once, the future is its tensor; stash_grad_for_fsdp returns
       * its gradient (the module it stashes it on is not modelled) */
      if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error))
        return FALSE;
      return _wb_cpu_set_result (call, wb_tensor_ref (a));
    case WB_DIST_OP_PACK:
    case WB_DIST_OP_PACK_FOR_FSDP:
      return pack (call, op, error);
    case WB_DIST_OP_UNPACK:
    case WB_DIST_OP_UNPACK_FOR_FSDP:
      return unpack (call, op, error);
    case WB_DIST_OP_DTENSOR_LOCAL:
      /* a DTensor's value is its local tensor: from_local and to_local are that tensor */
      if (!_wb_cpu_arg_tensor (call, 0, g_str_has_suffix (call->bsym->name, "from_local") ? "x" : "dtensor", &a, error))
        return FALSE;
      return _wb_cpu_set_result (call, wb_tensor_ref (a));
    case WB_DIST_OP_REDISTRIBUTE:
      return redistribute (call, error);
    default:
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "unknown distributed op %d", op);
      return FALSE;
    }
}
