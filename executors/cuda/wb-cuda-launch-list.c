/* wb-cuda-launch-list.c — a run recorded once as a flat list of launches and library calls and replayed
 * without the interpreter (wb-cuda-graph.h, wb_cuda_graph_record_list)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recording runs the body twice. The first run (sizing) takes its memory from the pool as usual and notes
 * every allocation's size and when it was made and freed (a counter of allocations and frees); those
 * lifetimes are placed in one arena by the memory plan's rule (wb_memory_plan_place). The second run
 * (recording) serves its k-th allocation from the arena at the k-th offset, frees nothing, and appends every
 * kernel launch (its function, grid, block, shared memory and a copy of its argument bytes, read with
 * cuFuncGetParamInfo), memset, event record, stream wait and library call (a closure the library's caller
 * records: cuBLASLt, cuDNN, NCCL's collectives) to the list, while running them as usual. Each replay then walks
 * the list: the same launches on the same addresses, no interpreter, no lookup, no allocation. What a replay
 * cannot repeat (an upload, a download, a synchronisation, a cpu fallback) is refused as a capture refuses it
 * (wb_cuda_runtime_check_capturable), and so is a run that allocates differently the second time. */
#include "config.h"

#include <string.h>

#include "wb-cuda-runtime-private.h"
#include "wb-executors-private.h"

typedef enum
{
  OP_KERNEL,
  OP_MEMSET,
  OP_EVENT,
  OP_WAIT,
  OP_CALL
} OpKind;

typedef struct
{
  OpKind   kind;
  CUstream stream;
  union
  {
    struct
    {
      CUfunction fn;
      guint      grid[3], block, smem;
      void     **argv; /* into the list's blobs */
    } k;
    struct
    {
      CUdeviceptr dst;
      guint8      value;
      gsize       n; /* bytes */
    } set;
    CUevent ev;
    struct
    {
      WbCudaListCall fn;
      gpointer       data;
      GDestroyNotify destroy;
    } call;
  } u;
} ListOp;

struct _WbCudaLaunchList
{
  WbCudaRuntime *rt;
  GArray        *ops;     /* ListOp */
  GPtrArray     *blobs;   /* each kernel's argument bytes with its argument pointers after them */
  GArray        *buffers; /* WbMemoryBuffer: the sizing run's allocations, in order */
  GPtrArray     *kept;    /* device tensors the replays read as recorded (uploaded numbers) */
  guint          serial;  /* of the current pass (rt->list_serial) */
  guint          clock;   /* allocations and frees so far in the sizing pass */
  guint          next;    /* the recording pass's next allocation */
  gboolean       sizing;
  CUdeviceptr    arena;
  gint64         arena_bytes, live_peak;
  guint          n_kernels, n_calls, n_memsets, n_events, n_waits;
  char          *refusal; /* the first thing the pass could not record */
};

#define LIFETIME_OPEN G_MAXUINT

static GHashTable *param_layouts; /* CUfunction -> GArray of gsize (offset, size) pairs; the runner's thread only */

/* (transfer none) @fn's parameters' offsets and sizes, asked of the driver once: the index past the last one
 * answers CUDA_ERROR_INVALID_VALUE; any other answer leaves the layout unknown (NULL) */
static GArray *
param_layout (WbCudaRuntime *rt, CUfunction fn)
{
  GArray  *layout;
  CUresult rc;

  if (param_layouts == NULL)
    param_layouts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  if (g_hash_table_lookup_extended (param_layouts, fn, NULL, (gpointer *) &layout))
    return layout;
  layout = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (size_t i = 0;; i++)
    {
      size_t off = 0, size = 0;
      gsize  pair[2];
      if ((rc = rt->func_get_param_info (fn, i, &off, &size)) != CUDA_SUCCESS)
        break;
      pair[0] = off, pair[1] = size;
      g_array_append_vals (layout, pair, 2);
    }
  if (rc != CUDA_ERROR_INVALID_VALUE)
    g_clear_pointer (&layout, g_array_unref);
  g_hash_table_insert (param_layouts, fn, layout);
  return layout;
}

static void
list_refuse (WbCudaLaunchList *l, const char *what)
{
  if (l->refusal == NULL)
    l->refusal = g_strdup (what);
}

static ListOp *
list_append (WbCudaLaunchList *l, OpKind kind, CUstream stream)
{
  ListOp op = { .kind = kind, .stream = stream };

  g_array_append_val (l->ops, op);
  return &g_array_index (l->ops, ListOp, l->ops->len - 1);
}

/* the list being recorded (the second pass), or NULL */
static WbCudaLaunchList *
recording (WbCudaRuntime *rt)
{
  return rt->list != NULL && !rt->list->sizing && rt->list->refusal == NULL ? rt->list : NULL;
}

void
_wb_cuda_list_refuse (WbCudaRuntime *rt, const char *what)
{
  list_refuse (rt->list, what);
}

void
_wb_cuda_list_kernel (WbCudaRuntime *rt, CUfunction fn, const guint grid[3], guint block, gsize smem, void **args)
{
  WbCudaLaunchList *l = recording (rt);
  GArray           *layout;
  guint             n;
  gsize             bytes = 0, head;
  guint8           *blob;
  ListOp           *op;

  if (l == NULL)
    return;
  if ((layout = param_layout (rt, fn)) == NULL)
    {
      list_refuse (l, "launches a kernel whose parameters the driver does not describe (cuFuncGetParamInfo)");
      return;
    }
  n = layout->len / 2;
  for (guint i = 0; i < n; i++)
    bytes = MAX (bytes, g_array_index (layout, gsize, 2 * i) + g_array_index (layout, gsize, 2 * i + 1));
  head = (bytes + 15) & ~(gsize) 15;
  blob = g_malloc0 (head + n * sizeof (void *) + 1);
  for (guint i = 0; i < n; i++)
    {
      gsize off = g_array_index (layout, gsize, 2 * i);
      memcpy (blob + off, args[i], g_array_index (layout, gsize, 2 * i + 1));
      ((void **) (gpointer) (blob + head))[i] = blob + off;
    }
  g_ptr_array_add (l->blobs, blob);
  op = list_append (l, OP_KERNEL, rt->stream);
  op->u.k.fn = fn;
  memcpy (op->u.k.grid, grid, sizeof op->u.k.grid);
  op->u.k.block = block;
  op->u.k.smem = (guint) smem;
  op->u.k.argv = n > 0 ? (void **) (gpointer) (blob + head) : NULL;
  l->n_kernels++;
}

void
_wb_cuda_list_memset (WbCudaRuntime *rt, CUdeviceptr dst, guint8 value, gsize n)
{
  WbCudaLaunchList *l = recording (rt);
  ListOp           *op;

  if (l == NULL)
    return;
  op = list_append (l, OP_MEMSET, rt->stream);
  op->u.set.dst = dst, op->u.set.value = value, op->u.set.n = n;
  l->n_memsets++;
}

void
_wb_cuda_list_keep (WbCudaRuntime *rt, WbTensor *t)
{
  WbCudaLaunchList *l = recording (rt);

  if (l != NULL)
    g_ptr_array_add (l->kept, wb_tensor_ref (t));
}

void
_wb_cuda_list_event (WbCudaRuntime *rt, CUstream stream, CUevent ev, gboolean wait)
{
  WbCudaLaunchList *l = recording (rt);

  if (l == NULL)
    return;
  list_append (l, wait ? OP_WAIT : OP_EVENT, stream)->u.ev = ev;
  if (wait)
    l->n_waits++;
  else
    l->n_events++;
}

gboolean
wb_cuda_runtime_is_listing (WbCudaRuntime *rt)
{
  return rt->list != NULL;
}

void
wb_cuda_runtime_record_call (WbCudaRuntime *rt, WbCudaListCall fn, gpointer data, GDestroyNotify destroy)
{
  WbCudaLaunchList *l = recording (rt);
  ListOp           *op;

  if (l == NULL)
    {
      if (destroy != NULL)
        destroy (data);
      return;
    }
  op = list_append (l, OP_CALL, rt->stream);
  op->u.call.fn = fn, op->u.call.data = data, op->u.call.destroy = destroy;
  l->n_calls++;
}

/* -- allocations ------------------------------------------------------------------------------------ */

CUdeviceptr
_wb_cuda_list_alloc (WbCudaRuntime *rt, WbCudaBlock *b, gsize nbytes)
{
  WbCudaLaunchList *l = rt->list;
  WbMemoryBuffer   *m;
  guint             k;

  if (l->sizing)
    {
      WbMemoryBuffer nb = { 0 };
      nb.nbytes = (gint64) nbytes;
      nb.size = ((gint64) nbytes + WB_MEMORY_PLAN_ALIGN - 1) / WB_MEMORY_PLAN_ALIGN * WB_MEMORY_PLAN_ALIGN;
      nb.first = l->clock++;
      nb.last = LIFETIME_OPEN;
      g_array_append_val (l->buffers, nb);
      b->list_serial = l->serial;
      b->list_index = l->buffers->len - 1;
      return 0; /* from the pool */
    }
  if (l->refusal != NULL)
    return 0;
  k = l->next++;
  m = k < l->buffers->len ? &g_array_index (l->buffers, WbMemoryBuffer, k) : NULL;
  if (m == NULL || m->nbytes != (gint64) nbytes)
    {
      g_autofree char *what = g_strdup_printf ("allocates differently from the run before it (allocation %u: %" G_GSIZE_FORMAT " bytes, %" G_GINT64_FORMAT " then)",
                                               k + 1, nbytes, m ? m->nbytes : 0);
      list_refuse (l, what);
      return 0;
    }
  b->in_list = TRUE;
  return l->arena + (CUdeviceptr) m->offset;
}

void
_wb_cuda_list_free (WbCudaRuntime *rt, WbCudaBlock *b)
{
  WbCudaLaunchList *l = rt->list;

  if (l == NULL || !l->sizing || b->list_serial != l->serial || b->list_index >= l->buffers->len)
    return;
  /* a block side work still reads stays busy to the end: the next join is not known here */
  if (!_wb_cuda_block_touched_unjoined (rt, b))
    g_array_index (l->buffers, WbMemoryBuffer, b->list_index).last = l->clock++;
}

/* the sizing pass's lifetimes closed and placed, and the arena allocated */
static gboolean
list_place (WbCudaLaunchList *l, GError **error)
{
  WbCudaRuntime *rt = l->rt;
  guint          end = l->clock;

  for (guint i = 0; i < l->buffers->len; i++)
    {
      WbMemoryBuffer *m = &g_array_index (l->buffers, WbMemoryBuffer, i);
      if (m->last == LIFETIME_OPEN)
        m->last = end;
    }
  l->arena_bytes = wb_memory_plan_place (l->buffers, end + 1, &l->live_peak);
  return l->arena_bytes == 0 ||
         _wb_cuda_runtime_check (rt, rt->cu->cuMemAllocAsync (&l->arena, (size_t) l->arena_bytes, rt->main), "cuMemAllocAsync (the launch list's arena)", error);
}

/* -- the list ---------------------------------------------------------------------------------------- */

void
_wb_cuda_launch_list_free (WbCudaLaunchList *l)
{
  if (l == NULL)
    return;
  for (guint i = 0; i < l->ops->len; i++)
    {
      ListOp *op = &g_array_index (l->ops, ListOp, i);
      if (op->kind == OP_CALL && op->u.call.destroy != NULL)
        op->u.call.destroy (op->u.call.data);
    }
  if (l->arena != 0 && !l->rt->broken)
    {
      /* after the replays already queued, and after side work a failed recording left unjoined */
      (void) wb_cuda_runtime_join_side (l->rt, NULL);
      l->rt->cu->cuMemFreeAsync (l->arena, l->rt->main);
    }
  g_array_unref (l->ops);
  g_ptr_array_unref (l->blobs);
  g_ptr_array_unref (l->kept);
  g_array_unref (l->buffers);
  g_free (l->refusal);
  g_free (l);
}

/* One pass of @body with @l current: the side stream joined before it ends. FALSE with @error (the list's
 * refusal as WB_CUDA_ERROR_CAPTURE where the body failed on one, a fault as it is). */
static gboolean
list_pass (WbCudaLaunchList *l, WbCudaGraphBody body, gpointer data, GError **error)
{
  WbCudaRuntime *rt = l->rt;
  g_autoptr (GError) local = NULL;
  gboolean ok;

  l->serial = ++rt->list_serial;
  rt->list = l;
  ok = body (data, &local) && wb_cuda_runtime_join_side (rt, &local);
  rt->list = NULL;
  if (ok && l->refusal == NULL)
    return wb_cuda_runtime_synchronize (rt, error);
  if (l->refusal != NULL && (local == NULL || !(local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_FAULT)))
    g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "%s", l->refusal);
  else
    g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

WbCudaLaunchList *
_wb_cuda_launch_list_record (WbCudaRuntime *rt, WbCudaGraphBody body, gpointer data, GError **error)
{
  WbCudaLaunchList *l;

  if (rt->func_get_param_info == NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "the driver has no cuFuncGetParamInfo (CUDA 12.4 or newer)");
      return NULL;
    }
  if (rt->hook != NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "every kernel launch is timed by its own CUDA events (no CUPTI)");
      return NULL;
    }
  g_return_val_if_fail (rt->list == NULL && !rt->capturing && rt->stream == rt->main, NULL);
  if (!wb_cuda_runtime_synchronize (rt, error))
    return NULL;
  l = g_new0 (WbCudaLaunchList, 1);
  l->rt = rt;
  l->ops = g_array_new (FALSE, FALSE, sizeof (ListOp));
  l->blobs = g_ptr_array_new_with_free_func (g_free);
  l->buffers = g_array_new (FALSE, TRUE, sizeof (WbMemoryBuffer));
  l->kept = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  l->sizing = TRUE;
  if (!list_pass (l, body, data, error) || !list_place (l, error))
    goto fail;
  l->sizing = FALSE;
  if (!list_pass (l, body, data, error))
    goto fail;
  if (l->next != l->buffers->len)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "allocates differently from the run before it (%u allocations, %u then)", l->next, l->buffers->len);
      goto fail;
    }
  return l;
fail:
  _wb_cuda_launch_list_free (l);
  return NULL;
}

gboolean
_wb_cuda_launch_list_replay (WbCudaLaunchList *l, GError **error)
{
  const WbCuApi *cu = l->rt->cu;

  for (guint i = 0; i < l->ops->len; i++)
    {
      const ListOp *op = &g_array_index (l->ops, ListOp, i);
      CUresult      rc = CUDA_SUCCESS;
      const char   *what = NULL;

      switch (op->kind)
        {
        case OP_KERNEL:
          rc = cu->cuLaunchKernel (op->u.k.fn, op->u.k.grid[0], op->u.k.grid[1], op->u.k.grid[2], op->u.k.block, 1, 1, op->u.k.smem, op->stream, op->u.k.argv, NULL);
          what = "cuLaunchKernel";
          break;
        case OP_MEMSET:
          rc = cu->cuMemsetD8Async (op->u.set.dst, op->u.set.value, op->u.set.n, op->stream);
          what = "cuMemsetD8Async";
          break;
        case OP_EVENT:
          rc = cu->cuEventRecord (op->u.ev, op->stream);
          what = "cuEventRecord";
          break;
        case OP_WAIT:
          rc = cu->cuStreamWaitEvent (op->stream, op->u.ev, 0);
          what = "cuStreamWaitEvent";
          break;
        case OP_CALL:
          if (!op->u.call.fn (op->u.call.data, op->stream, error))
            {
              g_prefix_error (error, "the launch list's step %u: ", i + 1);
              return FALSE;
            }
          break;
        }
      if (what != NULL && rc != CUDA_SUCCESS)
        {
          g_autofree char *step = g_strdup_printf ("the launch list's step %u: %s", i + 1, what);
          return _wb_cuda_runtime_check (l->rt, rc, step, error);
        }
    }
  return TRUE;
}

guint
_wb_cuda_launch_list_get_n_ops (const WbCudaLaunchList *l)
{
  return l->ops->len;
}

char *
_wb_cuda_launch_list_describe (const WbCudaLaunchList *l)
{
  return g_strdup_printf ("%u steps (%u kernel launches, %u library calls, %u memsets, %u event records, %u stream waits), %u allocations placed "
                          "in an arena of %.1f MiB (their live peak %.1f MiB), %u numbers kept on the device",
                          l->ops->len, l->n_kernels, l->n_calls, l->n_memsets, l->n_events, l->n_waits, l->buffers->len, l->arena_bytes / 1048576.0,
                          l->live_peak / 1048576.0, l->kept->len);
}
