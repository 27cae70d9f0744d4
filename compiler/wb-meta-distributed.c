/* wb-meta-distributed.c — meta functions of Thunder's distributed prims (thunder/distributed/prims.py)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collectives (all_gather, all_reduce, broadcast, reduce_scatter), wait, synchronize, the bucketing
 * ops of DDP and FSDP (pack, unpack, update_bucket_view, pack_for_fsdp, unpack_for_fsdp,
 * stash_grad_for_fsdp) and tensor parallelism's synchronize_tensor_parallel_output/input; the torch
 * executor's torch_<name>_prim_impl share them (symbols/executor-ops.def).
 *
 * The process group's size. all_gather and reduce_scatter change a dim by it, and a trace prints the
 * group only as an opaque global (`_torch_distributed_distributed_c10d_ProcessGroup_3`). A meta sees
 * the trace only through its type lookup, so the size comes the same way: the type environment types a
 * process-group global as an int holding its size (wb_dist_group_size_note / _wb_type_env_add infer it
 * from the trace's own annotated all_gather, reduce_scatter and synchronize calls; a trace set's
 * meta.json "distributed" world size is the fallback for groups none of them types). When the size is
 * unknown, these metas fail with WB_SYMBOL_ERROR_UNKNOWN, so the verifier takes the annotation on trust
 * instead of reporting a false mismatch. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

/* The printed names of Thunder's enum and group globals: `_DistributedReduceOps_SUM_3`,
 * `_DistParallelType_FULLY_SHARDED_4`, `_TensorParallelLayerType_ROW_PARALLEL_LINEAR_2`. */
static const char *const reduce_ops[] = { "SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR", NULL };

/* Reads "<prefix><MEMBER>_<digits>" into @member (at most @size bytes); FALSE when @name is not one. */
static gboolean
enum_member (const char *name, const char *prefix, char *member, gsize size)
{
  const char *s, *end;
  gsize       n = strlen (prefix);

  if (name == NULL || strncmp (name, prefix, n) != 0)
    return FALSE;
  s = name + n;
  end = strrchr (s, '_');
  if (end == NULL || end == s || end[1] == '\0' || (gsize) (end - s) >= size)
    return FALSE;
  for (const char *d = end + 1; *d; d++)
    if (!g_ascii_isdigit (*d))
      return FALSE;
  memcpy (member, s, end - s);
  member[end - s] = '\0';
  return TRUE;
}

WbDistReduceOp
wb_dist_reduce_op_from_name (const char *name)
{
  char member[16];

  if (!enum_member (name, "_DistributedReduceOps_", member, sizeof member))
    return WB_DIST_REDUCE_UNKNOWN;
  for (guint i = 0; reduce_ops[i] != NULL; i++)
    if (strcmp (member, reduce_ops[i]) == 0)
      return (WbDistReduceOp) (i + 1);
  return WB_DIST_REDUCE_UNKNOWN;
}

const char *
wb_dist_reduce_op_to_string (WbDistReduceOp op)
{
  return op >= WB_DIST_REDUCE_SUM && op <= WB_DIST_REDUCE_BXOR ? reduce_ops[op - 1] : "unknown";
}

gboolean
wb_dist_is_process_group (const char *name)
{
  return name != NULL && g_str_has_prefix (name, "_") && strstr (name, "ProcessGroup_") != NULL;
}

/* The name printed for parameter @i when it is a global (a NAME), else NULL. */
static const char *
arg_name (const WbMetaCall *call, guint i)
{
  const WbValue *v = i < WB_META_MAX_PARAMS ? call->params[i] : NULL;
  return v != NULL && v->kind == WB_VALUE_NAME ? v->text : NULL;
}

/* The size of the process group passed as parameter @i, through the type lookup (see the header). */
static gboolean
group_size (const WbMetaCall *call, guint i, gint64 *size, GError **error)
{
  const char *group = arg_name (call, i);
  WbType      t;

  if (group == NULL || !wb_dist_is_process_group (group))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a process group, not %s",
                          call->params[i] ? call->params[i]->text : "nothing");
  if (!call->lookup (group, &t, call->lookup_data) || t.kind != WB_TYPE_INT || !t.has_value || t.int_value < 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call,
                          "the size of process group %s is unknown (no annotated all_gather or reduce_scatter "
                          "and no \"distributed\" world size in meta.json)",
                          group);
  *size = t.int_value;
  return TRUE;
}

/* A tensor like @t, a FUTURE tensor when @future: Thunder prints a future's device as its repr. */
static void
out_maybe_future (WbMetaCall *call, const WbType *t, gboolean future)
{
  WbType o = *t;

  o.text = NULL;
  o.kind = future ? WB_TYPE_FUTURE_TENSOR : WB_TYPE_TENSOR;
  o.device.form = future ? WB_DEVICE_FORM_REPR : WB_DEVICE_FORM_SHORT;
  _wb_meta_out (call, &o);
}

/* all_gather / reduce_scatter (a, /, [op,] group, do_async, dim=None), and ltorch's (a, [op,] group=None,
 * async_op=False, dim=None): dim (0 when None) multiplied (all_gather) or divided (reduce_scatter, which must
 * divide evenly) by the group's size. ltorch's group None is the default (world) group, whose size the
 * environment answers under the name "None" only when known. */
static gboolean
resize_by_group (WbMetaCall *call, gboolean gather, gboolean ltorch, GError **error)
{
  int      pg = _wb_meta_param_index (call, "group"), pa = _wb_meta_param_index (call, ltorch ? "async_op" : "do_async");
  int      pd = _wb_meta_param_index (call, "dim");
  WbType   a;
  gint64   size, dim = 0;
  gboolean async = FALSE;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (pa >= 0 && !_wb_meta_arg_bool (call, (guint) pa, FALSE, &async, error))
    return FALSE;
  if (pd >= 0 && _wb_meta_arg_present (call, (guint) pd) && !_wb_meta_arg_int (call, (guint) pd, &dim, error))
    return FALSE;
  if (a.rank == 0 || dim < 0 || dim >= (gint64) a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "dim must satisfy 0 <= dim=%" G_GINT64_FORMAT " < %u",
                          dim, a.rank);
  if (ltorch && (pg < 0 || !_wb_meta_arg_present (call, (guint) pg)))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "the size of the default process group is unknown");
  if (!group_size (call, (guint) pg, &size, error))
    return FALSE;
  if (gather)
    a.shape[dim] *= size;
  else if (a.shape[dim] % size != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call,
                          "dim %" G_GINT64_FORMAT " of size %" G_GINT64_FORMAT " is not divisible by the group's size %" G_GINT64_FORMAT,
                          dim, a.shape[dim], size);
  else
    a.shape[dim] /= size;
  out_maybe_future (call, &a, async);
  return TRUE;
}

gboolean
_wb_meta_dist_all_gather (WbMetaCall *call, GError **error)
{
  return resize_by_group (call, TRUE, FALSE, error);
}

gboolean
_wb_meta_dist_reduce_scatter (WbMetaCall *call, GError **error)
{
  return resize_by_group (call, FALSE, FALSE, error);
}

/* ltorch.all_gather (meta_arg 1) / reduce_scatter (0) */
gboolean
_wb_meta_dist_ltorch_resize (WbMetaCall *call, GError **error)
{
  return resize_by_group (call, call->arg > 0, TRUE, error);
}

/* all_reduce (a, /, op, group, do_async, skip_clone=False), broadcast (a, /, root, group, do_async):
 * like a; a FUTURE tensor when do_async. The reduce op must be one of DistributedReduceOps. */
gboolean
_wb_meta_dist_like (WbMetaCall *call, GError **error)
{
  int      pa = _wb_meta_param_index (call, "do_async"), po = _wb_meta_param_index (call, "op");
  WbType   a;
  gboolean async = FALSE;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (pa >= 0 && !_wb_meta_arg_bool (call, (guint) pa, FALSE, &async, error))
    return FALSE;
  if (po >= 0 && wb_dist_reduce_op_from_name (arg_name (call, (guint) po)) == WB_DIST_REDUCE_UNKNOWN)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "op is not a DistributedReduceOps global (%s)",
                          call->params[po] ? call->params[po]->text : "absent");
  out_maybe_future (call, &a, async);
  return TRUE;
}

/* wait (a, /): the tensor the FUTURE tensor @a stands for. */
gboolean
_wb_meta_dist_wait (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (a.kind != WB_TYPE_FUTURE_TENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a FUTURE tensor");
  out_maybe_future (call, &a, FALSE);
  return TRUE;
}

/* synchronize (a, /, group, distparallel_type): REPLICATED: like a; FULLY_SHARDED: dim 0 times the
 * group's size (the unsharded parameter). */
gboolean
_wb_meta_dist_synchronize (WbMetaCall *call, GError **error)
{
  char   member[32];
  WbType a;
  gint64 size;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (!enum_member (arg_name (call, 2), "_DistParallelType_", member, sizeof member))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "distparallel_type is not a DistParallelType global");
  if (strcmp (member, "REPLICATED") == 0)
    {
      out_maybe_future (call, &a, FALSE);
      return TRUE;
    }
  if (strcmp (member, "FULLY_SHARDED") != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "unexpected distparallel_type %s", member);
  if (a.rank == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "a fully sharded tensor has at least one dim");
  if (!group_size (call, 1, &size, error))
    return FALSE;
  a.shape[0] *= size;
  out_maybe_future (call, &a, FALSE);
  return TRUE;
}

/* The tensors of the list argument @i, same dtype and device; FALSE when empty. */
static gboolean
tensor_items (const WbMetaCall *call, guint i, GArray *out, GError **error)
{
  WbValue *const *items;
  guint           n;

  if (!_wb_meta_arg_items (call, i, &items, &n, error))
    return FALSE;
  if (n == 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "Empty list is not expected");
  for (guint k = 0; k < n; k++)
    {
      WbType t;
      if (!_wb_meta_value_tensor (call, items[k], "tensors", &t, error))
        return FALSE;
      if (k > 0 && (t.dtype != g_array_index (out, WbType, 0).dtype || !wb_device_equal (&t.device, &g_array_index (out, WbType, 0).device)))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "tensors differ in dtype or device");
      g_array_append_val (out, t);
    }
  return TRUE;
}

/* pack (tensors, bucket_key), pack_for_fsdp (tensors, world_size, mode): a 1-d buffer of every
 * tensor's elements, their dtype and device. */
gboolean
_wb_meta_dist_pack (WbMetaCall *call, GError **error)
{
  g_autoptr (GArray) ts = g_array_new (FALSE, FALSE, sizeof (WbType));
  gint64 n = 0;
  WbType first;

  if (!tensor_items (call, 0, ts, error))
    return FALSE;
  if (call->arg == 1)
    {
      const char *mode = _wb_meta_arg_string (call, 2);
      if (mode == NULL || (strcmp (mode, "gather") != 0 && strcmp (mode, "scatter") != 0))
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "mode must be 'gather' or 'scatter'");
    }
  for (guint k = 0; k < ts->len; k++)
    n += wb_type_numel (&g_array_index (ts, WbType, k));
  first = g_array_index (ts, WbType, 0);
  return _wb_meta_out_shape (call, &first, WB_DTYPE_UNKNOWN, &n, 1, error);
}

/* unpack (buffer, tensors, bucket_key): one tensor like each of tensors. */
gboolean
_wb_meta_dist_unpack (WbMetaCall *call, GError **error)
{
  g_autoptr (GArray) ts = g_array_new (FALSE, FALSE, sizeof (WbType));
  WbType buffer;

  if (!_wb_meta_arg_tensor (call, 0, &buffer, error) || !tensor_items (call, 1, ts, error))
    return FALSE;
  for (guint k = 0; k < ts->len; k++)
    _wb_meta_out_like (call, &g_array_index (ts, WbType, k), WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* unpack_for_fsdp (buffer, tensors, world_size, mode): one tensor per tensors item, dim 0 times
 * world_size ("gather") or divided by it ("scatter"); the buffer's elements must match. */
gboolean
_wb_meta_dist_unpack_for_fsdp (WbMetaCall *call, GError **error)
{
  g_autoptr (GArray) ts = g_array_new (FALSE, FALSE, sizeof (WbType));
  WbType      buffer;
  gint64      ws, total = 0;
  const char *mode;
  gboolean    gather;

  if (!_wb_meta_arg_tensor (call, 0, &buffer, error) || !tensor_items (call, 1, ts, error) || !_wb_meta_arg_int (call, 2, &ws, error))
    return FALSE;
  mode = _wb_meta_arg_string (call, 3);
  if (mode == NULL || (strcmp (mode, "gather") != 0 && strcmp (mode, "scatter") != 0))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "Invalid mode, `gather` and `scatter` are supported");
  if (ws < 1)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "world_size=%" G_GINT64_FORMAT " must be positive", ws);
  gather = strcmp (mode, "gather") == 0;
  for (guint k = 0; k < ts->len; k++)
    total += wb_type_numel (&g_array_index (ts, WbType, k));
  if (wb_type_numel (&buffer) != (gather ? total * ws : total / ws))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "buffer has %" G_GINT64_FORMAT " elements, expected %" G_GINT64_FORMAT,
                          wb_type_numel (&buffer), gather ? total * ws : total / ws);
  for (guint k = 0; k < ts->len; k++)
    {
      WbType t = g_array_index (ts, WbType, k);
      if (t.rank == 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "tensors must have at least one dim");
      t.shape[0] = gather ? t.shape[0] * ws : t.shape[0] / ws;
      _wb_meta_out_like (call, &t, WB_DTYPE_UNKNOWN);
    }
  return TRUE;
}

/* update_bucket_view (tensor, index_of_dst_view, bucket_key), stash_grad_for_fsdp (grad, param_fqn,
 * compile_data): like the first argument. */
gboolean
_wb_meta_dist_first_like (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  out_maybe_future (call, &a, FALSE);
  return TRUE;
}

/* synchronize_tensor_parallel_output (meta_arg 1) / _input (0) (t, group, layer_type): the last dim
 * times the group's size for an output of COLUMN_PARALLEL_LINEAR or ROW_PARALLEL_EMBED, divided by it for
 * an input of ROW_PARALLEL_LINEAR; else like t. */
gboolean
_wb_meta_dist_tensor_parallel (WbMetaCall *call, GError **error)
{
  char   layer[48];
  WbType t;
  gint64 size;
  int    change = 0; /* +1 multiply, -1 divide */

  if (!_wb_meta_arg_tensor (call, 0, &t, error))
    return FALSE;
  if (!enum_member (arg_name (call, 2), "_TensorParallelLayerType_", layer, sizeof layer))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "layer_type is not a TensorParallelLayerType global");
  if (call->arg == 1 && (strcmp (layer, "COLUMN_PARALLEL_LINEAR") == 0 || strcmp (layer, "ROW_PARALLEL_EMBED") == 0))
    change = 1;
  else if (call->arg == 0 && strcmp (layer, "ROW_PARALLEL_LINEAR") == 0)
    change = -1;
  if (change != 0)
    {
      if (t.rank == 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "t must have at least one dim");
      if (!group_size (call, 1, &size, error))
        return FALSE;
      t.shape[t.rank - 1] = change > 0 ? t.shape[t.rank - 1] * size : t.shape[t.rank - 1] / size;
    }
  out_maybe_future (call, &t, FALSE);
  return TRUE;
}
