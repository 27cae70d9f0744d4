/* wb-cuda-nccl.c — collectives through NCCL (wb-cuda-nccl.h): the library, the communicator, the calls
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cuda-nccl.h"

#include <dlfcn.h>
#include <string.h>

#include "wb-cuda-exec-private.h"

#if WB_HAVE_NCCL
#include <nccl.h>

/* The entry points used, resolved from libnccl.so.2 (the header's prototypes give their types). */
#define WB_NCCL_API(X)      \
  X (ncclGetVersion)        \
  X (ncclGetUniqueId)       \
  X (ncclCommInitRank)      \
  X (ncclCommDestroy)       \
  X (ncclGetErrorString)    \
  X (ncclCommGetAsyncError) \
  X (ncclAllReduce)         \
  X (ncclAllGather)         \
  X (ncclReduceScatter)     \
  X (ncclBroadcast)

typedef struct
{
#define X(name) __typeof__ (name) *name;
  WB_NCCL_API (X)
#undef X
} NcclApi;
#endif

/* One collective's launch: its device addresses and two events of its own (@ready: the run's stream reached
 * the call; @done: the collective ended). A reference-counted box (g_rc_box): a launch list keeps one
 * reference to repeat the call (wb_cuda_runtime_record_call), a pending wait another. */
typedef struct
{
  WbCudaNcclOp op;
  const void  *src;
  void        *dst;
  size_t       count;         /* elements NCCL is given: the input's, or reduce_scatter's output's */
  int          dt, red, root; /* ncclDataType_t, ncclRedOp_t, broadcast's root */
  gboolean     is_async;
  CUevent      ready, done;
} Launch;

/* One collective not yet waited for: the run's stream joins @l->done before it reads the result. */
typedef struct
{
  Launch    *l;
  GPtrArray *keep; /* (element-type WbTensor) inputs and output, alive until the join */
} Pending;

static struct
{
#if WB_HAVE_NCCL
  const NcclApi *api;
  ncclComm_t     comm;
#endif
  guint8      id[WB_CUDA_NCCL_ID_BYTES];
  guint       world_size;
  guint       rank;
  CUstream    stream;  /* the communication stream */
  GHashTable *pending; /* WbTensor* (the result) -> Pending* */
  guint       calls;
  char        version[32];
} nccl = { .world_size = 1 };

/* The driver's table (loaded by the runtime before any collective runs). */
static const WbCuApi *
cu_api (void)
{
  return wb_cuda_load_driver (NULL);
}

WbCudaNcclOp
wb_cuda_nccl_op (const WbBsym *bsym)
{
  const WbSymbol *like;

  if (bsym == NULL || bsym->kind != WB_BSYM_CALL || bsym->symbol == NULL)
    return WB_CUDA_NCCL_NONE;
  /* the symbol table's rows: thunder.distributed.prims.<op>, the torch executor's torch_<op>_prim_impl (an alias
   * of it) and ltorch's */
  like = wb_symbol_get_like (bsym->symbol);
  switch (wb_symbol_get_id (like != NULL ? like : bsym->symbol))
    {
    case WB_SYMBOL_DIST_ALL_REDUCE:
    case WB_SYMBOL_LTORCH_ALL_REDUCE:
    case WB_SYMBOL_LTORCH_ALL_REDUCE_:
      return WB_CUDA_NCCL_ALL_REDUCE;
    case WB_SYMBOL_DIST_ALL_GATHER:
    case WB_SYMBOL_LTORCH_ALL_GATHER:
      return WB_CUDA_NCCL_ALL_GATHER;
    case WB_SYMBOL_DIST_REDUCE_SCATTER:
    case WB_SYMBOL_LTORCH_REDUCE_SCATTER:
      return WB_CUDA_NCCL_REDUCE_SCATTER;
    case WB_SYMBOL_DIST_BROADCAST:
    case WB_SYMBOL_LTORCH_BROADCAST:
      return WB_CUDA_NCCL_BROADCAST;
    case WB_SYMBOL_DIST_WAIT:
    case WB_SYMBOL_LTORCH_WAIT:
      return WB_CUDA_NCCL_WAIT;
    case WB_SYMBOL_DTENSOR_FROM_LOCAL:
    case WB_SYMBOL_DTENSOR_TO_LOCAL:
      return WB_CUDA_NCCL_DTENSOR_LOCAL;
    case WB_SYMBOL_DTENSOR_REDISTRIBUTE:
      return WB_CUDA_NCCL_REDISTRIBUTE;
    default:
      return WB_CUDA_NCCL_NONE;
    }
}

guint
wb_cuda_nccl_get_world_size (void)
{
  return nccl.world_size;
}

const char *
wb_cuda_nccl_get_version (void)
{
  return nccl.version[0] != '\0' ? nccl.version : NULL;
}

guint
wb_cuda_nccl_get_calls (void)
{
  return nccl.calls;
}

guint
_wb_cuda_nccl_get_rank (void)
{
  return nccl.rank;
}

#if WB_HAVE_NCCL
static const NcclApi *
load (GError **error)
{
  static NcclApi api;
  static char   *failure;
  static gsize   once;

  if (g_once_init_enter (&once))
    {
      const char *env = g_getenv ("WB_NCCL_LIBRARY");
      const char *names[] = { env != NULL && env[0] != '\0' ? env : "libnccl.so.2", "libnccl.so" };
      void       *h = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (names) && h == NULL; i++)
        h = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
      if (h == NULL)
        failure = g_strdup_printf ("libnccl.so.2 cannot be opened (%s): install NCCL (PyTorch's wheels ship it in "
                                   "site-packages/nvidia/nccl/lib: put that folder on LD_LIBRARY_PATH, or set WB_NCCL_LIBRARY)",
                                   dlerror ());
#define X(name)                                                                       \
  if (failure == NULL && (api.name = (__typeof__ (name) *) dlsym (h, #name)) == NULL) \
    failure = g_strdup_printf ("libnccl.so.2 lacks %s: NCCL 2.10 or newer is needed", #name);
      WB_NCCL_API (X)
#undef X
      if (failure == NULL)
        {
          int v = 0;
          api.ncclGetVersion (&v);
          /* NCCL_VERSION(X,Y,Z): X*10000 + Y*100 + Z from 2.9 on */
          g_snprintf (nccl.version, sizeof nccl.version, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
        }
      g_once_init_leave (&once, 1);
    }
  if (failure != NULL)
    {
      g_set_error_literal (error, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY, failure);
      return NULL;
    }
  return &api;
}

static gboolean
check (ncclResult_t rc, const char *what, GError **error)
{
  if (rc == ncclSuccess)
    return TRUE;
  g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: %s (ncclResult %d)", what,
               nccl.api != NULL ? nccl.api->ncclGetErrorString (rc) : "NCCL failed", (int) rc);
  return FALSE;
}
#endif

gboolean
wb_cuda_nccl_get_unique_id (guint8 *id, GError **error)
{
#if WB_HAVE_NCCL
  ncclUniqueId uid;

  G_STATIC_ASSERT (sizeof uid.internal == WB_CUDA_NCCL_ID_BYTES);
  if ((nccl.api = load (error)) == NULL || !check (nccl.api->ncclGetUniqueId (&uid), "ncclGetUniqueId", error))
    return FALSE;
  memcpy (id, uid.internal, WB_CUDA_NCCL_ID_BYTES);
  return TRUE;
#else
  (void) id;
  g_set_error_literal (error, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY,
                       "this build has no NCCL (its header was missing at build time: tools/setup.sh fetches it)");
  return FALSE;
#endif
}

static void
launch_clear (gpointer data)
{
  Launch *l = data;

  if (l->ready != NULL)
    cu_api ()->cuEventDestroy (l->ready);
  if (l->done != NULL)
    cu_api ()->cuEventDestroy (l->done);
}

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_rc_box_release_full (p->l, launch_clear);
  g_ptr_array_unref (p->keep);
  g_free (p);
}

gboolean
wb_cuda_nccl_init (WbCudaRuntime *rt, guint world_size, guint rank, const guint8 *id, GError **error)
{
#if WB_HAVE_NCCL
  ncclUniqueId uid;
  ncclComm_t   comm = NULL;

  if (nccl.comm != NULL && nccl.world_size == world_size && nccl.rank == rank && memcmp (nccl.id, id, sizeof nccl.id) == 0)
    return TRUE;
  if ((nccl.api = load (error)) == NULL)
    return FALSE;
  if (rank >= world_size)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "rank %u is not below the world size %u", rank, world_size);
      return FALSE;
    }
  if (!wb_cuda_nccl_join_all (rt, error))
    return FALSE;
  memcpy (uid.internal, id, WB_CUDA_NCCL_ID_BYTES);
  if (!check (nccl.api->ncclCommInitRank (&comm, (int) world_size, uid, (int) rank), "ncclCommInitRank", error))
    return FALSE;
  if (nccl.comm != NULL)
    nccl.api->ncclCommDestroy (nccl.comm);
  nccl.comm = comm;
  nccl.world_size = world_size;
  nccl.rank = rank;
  memcpy (nccl.id, id, sizeof nccl.id);
  if (nccl.stream == NULL && !wb_cuda_check (cu_api ()->cuStreamCreate (&nccl.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate", error))
    return FALSE;
  return TRUE;
#else
  (void) rt;
  (void) world_size;
  (void) rank;
  (void) id;
  return wb_cuda_nccl_get_unique_id (NULL, error);
#endif
}

gboolean
wb_cuda_nccl_join_all (WbCudaRuntime *rt, GError **error)
{
  GHashTableIter it;
  gpointer       value;

  if (nccl.pending == NULL)
    return TRUE;
  g_hash_table_iter_init (&it, nccl.pending);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (!wb_cuda_runtime_wait_event (rt, ((Pending *) value)->l->done, error))
      return FALSE;
  g_hash_table_remove_all (nccl.pending);
  return TRUE;
}

void
wb_cuda_nccl_shutdown (WbCudaRuntime *rt)
{
  if (rt != NULL)
    wb_cuda_nccl_join_all (rt, NULL);
  g_clear_pointer (&nccl.pending, g_hash_table_unref);
#if WB_HAVE_NCCL
  if (nccl.comm != NULL)
    nccl.api->ncclCommDestroy (nccl.comm);
  nccl.comm = NULL;
#endif
  nccl.world_size = 1;
}

/* ---- the calls ------------------------------------------------------------------------------------------ */

static gboolean
flag_of (const WbRtValue *v)
{
  if (v == NULL)
    return FALSE;
  switch (v->kind)
    {
    case WB_RT_BOOL:
      return v->b;
    case WB_RT_INT:
      return v->i != 0;
    case WB_RT_FLOAT:
      return v->f != 0.0;
    default:
      return FALSE;
    }
}

#if WB_HAVE_NCCL
static gboolean
nccl_dtype (WbDtype dtype, ncclDataType_t *out)
{
  switch (dtype)
    {
    case WB_DTYPE_BOOL8:
    case WB_DTYPE_UINT8:
      *out = ncclUint8;
      return TRUE;
    case WB_DTYPE_INT8:
      *out = ncclInt8;
      return TRUE;
    case WB_DTYPE_INT32:
      *out = ncclInt32;
      return TRUE;
    case WB_DTYPE_UINT32:
      *out = ncclUint32;
      return TRUE;
    case WB_DTYPE_INT64:
      *out = ncclInt64;
      return TRUE;
    case WB_DTYPE_UINT64:
      *out = ncclUint64;
      return TRUE;
    case WB_DTYPE_FLOAT16:
      *out = ncclFloat16;
      return TRUE;
    case WB_DTYPE_BFLOAT16:
      *out = ncclBfloat16;
      return TRUE;
    case WB_DTYPE_FLOAT32:
      *out = ncclFloat32;
      return TRUE;
    case WB_DTYPE_FLOAT64:
      *out = ncclFloat64;
      return TRUE;
    default:
      return FALSE;
    }
}

/* The reduction a printed op names: Thunder's DistributedReduceOps global (_DistributedReduceOps_SUM_0, read by
 * the compiler's wb_dist_reduce_op_from_name, as the cpu executor reads it); SUM when absent (ltorch's default). */
static gboolean
reduce_op_of (const WbRtValue *v, ncclRedOp_t *out, GError **error)
{
  WbDistReduceOp op;

  *out = ncclSum;
  if (v == NULL || v->kind == WB_RT_NONE)
    return TRUE;
  op = wb_dist_reduce_op_from_name ((v->kind == WB_RT_STRING || v->kind == WB_RT_OPAQUE) ? v->s : NULL);
  switch (op)
    {
    case WB_DIST_REDUCE_SUM:
      return TRUE;
    case WB_DIST_REDUCE_AVG:
      *out = ncclAvg;
      return TRUE;
    case WB_DIST_REDUCE_PRODUCT:
      *out = ncclProd;
      return TRUE;
    case WB_DIST_REDUCE_MIN:
      *out = ncclMin;
      return TRUE;
    case WB_DIST_REDUCE_MAX:
      *out = ncclMax;
      return TRUE;
    case WB_DIST_REDUCE_UNKNOWN:
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "the reduction %s is not a DistributedReduceOps global",
                   (v->kind == WB_RT_STRING || v->kind == WB_RT_OPAQUE) && v->s ? v->s : "given");
      return FALSE;
    default:
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "NCCL has no %s reduction (it has SUM, AVG, PRODUCT, MIN, MAX)",
                   wb_dist_reduce_op_to_string (op));
      return FALSE;
    }
}

/* A communicator of one rank when the run has no group (a 1-rank program runs its collectives through NCCL
 * too, as PyTorch's ProcessGroupNCCL does with a world size of 1). */
static gboolean
ensure_comm (WbCudaRuntime *rt, GError **error)
{
  guint8 id[WB_CUDA_NCCL_ID_BYTES];

  if (nccl.comm != NULL)
    return TRUE;
  /* never inside a capture: the checked run, which comes first, made it */
  if (!wb_cuda_runtime_check_capturable (rt, "creates an NCCL communicator (its first collective)", error))
    return FALSE;
  return wb_cuda_nccl_get_unique_id (id, error) && wb_cuda_nccl_init (rt, 1, 0, id, error);
}

static gboolean
launch (const Launch *l, GError **error)
{
  cudaStream_t s = (cudaStream_t) nccl.stream;

  switch (l->op)
    {
    case WB_CUDA_NCCL_ALL_REDUCE:
      return check (nccl.api->ncclAllReduce (l->src, l->dst, l->count, l->dt, l->red, nccl.comm, s), "ncclAllReduce", error);
    case WB_CUDA_NCCL_ALL_GATHER:
      return check (nccl.api->ncclAllGather (l->src, l->dst, l->count, l->dt, nccl.comm, s), "ncclAllGather", error);
    case WB_CUDA_NCCL_REDUCE_SCATTER:
      return check (nccl.api->ncclReduceScatter (l->src, l->dst, l->count, l->dt, l->red, nccl.comm, s), "ncclReduceScatter", error);
    case WB_CUDA_NCCL_BROADCAST:
      return check (nccl.api->ncclBroadcast (l->src, l->dst, l->count, l->dt, l->root, nccl.comm, s), "ncclBroadcast", error);
    default:
      g_set_error_literal (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "not a collective");
      return FALSE;
    }
}

static void
launch_release (gpointer data)
{
  g_rc_box_release_full (data, launch_clear);
}

/* Runs @data (a Launch) on the communication stream once @stream has reached this point; a synchronous
 * call makes @stream wait for it at once, an asynchronous one leaves that to its wait(). The call as it runs
 * and as a launch list repeats it (WbCudaListCall); inside a CUDA graph capture the communication stream
 * joins the capture through @ready, and the collective becomes a node of the graph (NCCL 2.9 and later). */
static gboolean
launch_run (gpointer data, CUstream stream, GError **error)
{
  Launch        *l = data;
  const WbCuApi *cu = cu_api ();

  return wb_cuda_check (cu->cuEventRecord (l->ready, stream), "cuEventRecord", error) &&
         wb_cuda_check (cu->cuStreamWaitEvent (nccl.stream, l->ready, 0), "cuStreamWaitEvent", error) && launch (l, error) &&
         wb_cuda_check (cu->cuEventRecord (l->done, nccl.stream), "cuEventRecord", error) &&
         (l->is_async || wb_cuda_check (cu->cuStreamWaitEvent (stream, l->done, 0), "cuStreamWaitEvent", error));
}
#endif

#if WB_HAVE_NCCL
/* Launches @op on the communication stream once the run's stream reached this point (launch_run); a launch
 * list being recorded keeps the call to repeat it. An asynchronous call returns its launch in *@out_l (the
 * caller waits on its @done later; transfer full). */
static gboolean
enqueue (WbCudaRuntime *rt, WbCudaNcclOp op, WbTensor *in, WbTensor *out, ncclDataType_t dt, ncclRedOp_t red, int root, gboolean is_async, Launch **out_l, GError **error)
{
  const WbCuApi *cu = cu_api ();
  Launch        *l = g_rc_box_new0 (Launch);

  l->op = op;
  l->src = (const void *) (uintptr_t) wb_cuda_tensor_ptr (in);
  l->dst = (void *) (uintptr_t) wb_cuda_tensor_ptr (out);
  l->count = (size_t) wb_tensor_numel (op == WB_CUDA_NCCL_REDUCE_SCATTER ? out : in);
  l->dt = dt, l->red = red, l->root = root, l->is_async = is_async;
  if (!wb_cuda_check (cu->cuEventCreate (&l->ready, CU_EVENT_DISABLE_TIMING), "cuEventCreate", error) ||
      !wb_cuda_check (cu->cuEventCreate (&l->done, CU_EVENT_DISABLE_TIMING), "cuEventCreate", error) ||
      !launch_run (l, wb_cuda_runtime_get_stream (rt), error))
    {
      g_rc_box_release_full (l, launch_clear);
      return FALSE;
    }
  if (wb_cuda_runtime_is_listing (rt))
    wb_cuda_runtime_record_call (rt, launch_run, g_rc_box_acquire (l), launch_release);
  if (is_async)
    *out_l = l;
  else
    g_rc_box_release_full (l, launch_clear);
  return TRUE;
}
#endif

gboolean
_wb_cuda_nccl_collective (WbCudaRuntime *rt, WbCudaNcclOp op, WbTensor *in, WbTensor *out, int red, GError **error)
{
  nccl.calls++;
#if WB_HAVE_NCCL
  {
    ncclDataType_t dt;
    ncclRedOp_t    r;

    switch (red)
      {
      case WB_PARTIAL_AVG:
        r = ncclAvg;
        break;
      case WB_PARTIAL_MAX:
        r = ncclMax;
        break;
      case WB_PARTIAL_MIN:
        r = ncclMin;
        break;
      case WB_PARTIAL_PRODUCT:
        r = ncclProd;
        break;
      default:
        r = ncclSum;
        break;
      }
    if (!nccl_dtype (in->dtype, &dt))
      {
        g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "NCCL has no %s", wb_dtype_shortname (in->dtype));
        return FALSE;
      }
    return ensure_comm (rt, error) && enqueue (rt, op, in, out, dt, r, 0, FALSE, NULL, error);
  }
#else
  (void) op;
  (void) red;
  if (nccl.world_size > 1)
    return wb_cuda_nccl_get_unique_id (NULL, error);
  return wb_cuda_copy_into (rt, out, in, error);
#endif
}

/* The output's shape: dim 0 times (all_gather) or divided by (reduce_scatter) the world size. */
static gboolean
out_shape (WbCudaNcclOp op, const WbTensor *in, const WbRtValue *dim, gint64 *shape, GError **error)
{
  guint w = nccl.world_size;

  memcpy (shape, in->shape, sizeof in->shape);
  if (op != WB_CUDA_NCCL_ALL_GATHER && op != WB_CUDA_NCCL_REDUCE_SCATTER)
    return TRUE;
  if (dim != NULL && dim->kind == WB_RT_INT && dim->i != 0)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "dim=%" G_GINT64_FORMAT ": only dim 0 (Thunder's FSDP) is gathered or scattered on the GPU", dim->i);
      return FALSE;
    }
  if (in->rank == 0)
    {
      g_set_error_literal (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "a 0-d tensor cannot be gathered or scattered");
      return FALSE;
    }
  if (op == WB_CUDA_NCCL_ALL_GATHER)
    shape[0] *= w;
  else if (shape[0] % w != 0)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "dim 0 (%" G_GINT64_FORMAT ") is not a multiple of the world size %u", shape[0], w);
      return FALSE;
    }
  else
    shape[0] /= w;
  return TRUE;
}

static gboolean
run_wait (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, 0, "slf");
  Pending   *p;

  if (v == NULL || v->kind != WB_RT_TENSOR)
    {
      g_set_error_literal (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "wait: the argument is not the future of a collective");
      return FALSE;
    }
  if (nccl.pending != NULL && (p = g_hash_table_lookup (nccl.pending, v->tensor)) != NULL)
    {
      if (!wb_cuda_runtime_wait_event (rt, p->l->done, error))
        return FALSE;
      g_hash_table_remove (nccl.pending, v->tensor);
    }
  call->result = wb_rt_value_new_tensor (v->tensor);
  return TRUE;
}

gboolean
wb_cuda_nccl_run (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbCudaNcclOp op = wb_cuda_nccl_op (call->bsym);
  gboolean     is_async, in_place = FALSE;
  WbRtValue   *a = wb_kernel_call_get_arg (call, 0, "a");
  g_autoptr (WbRtValue) da = NULL;
  g_autoptr (WbTensor) in = NULL;
  g_autoptr (WbTensor) out = NULL;
  gint64 shape[WB_MAX_RANK];

  if (op == WB_CUDA_NCCL_WAIT)
    return run_wait (rt, call, error);
  if (op == WB_CUDA_NCCL_DTENSOR_LOCAL || op == WB_CUDA_NCCL_REDISTRIBUTE)
    return _wb_cuda_nccl_run_dtensor (rt, call, error);
  if (op == WB_CUDA_NCCL_NONE || a == NULL || a->kind != WB_RT_TENSOR)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: not a collective on a tensor", call->bsym->name);
      return FALSE;
    }
  /* do_async (async_op for ltorch) follows the group: position 2 of all_gather (a, group, do_async, dim), 3 of
   * the others (a, op or root, group, do_async, ...) */
  is_async = flag_of (wb_kernel_call_get_arg (call, op == WB_CUDA_NCCL_ALL_GATHER ? 2 : 3,
                                              g_str_has_prefix (call->bsym->name, "ltorch.") ? "async_op" : "do_async"));
  if ((da = _wb_cuda_exec_to_device (rt, a, error)) == NULL || (in = wb_cuda_contiguous (rt, da->tensor, error)) == NULL)
    return FALSE;
  if (!out_shape (op, in, wb_kernel_call_get_arg (call, op == WB_CUDA_NCCL_ALL_GATHER ? 3 : 4, "dim"), shape, error))
    return FALSE;
  /* all_reduce(..., skip_clone=True) reduces its argument in place, as torch.distributed.all_reduce */
  in_place = op == WB_CUDA_NCCL_ALL_REDUCE && flag_of (wb_kernel_call_get_arg (call, 4, "skip_clone")) && in == da->tensor;
  if (in_place)
    out = wb_tensor_ref (in);
  else if ((out = wb_cuda_tensor_new (rt, in->dtype, in->rank, shape, error)) == NULL)
    return FALSE;
  nccl.calls++;
#if WB_HAVE_NCCL
  {
    ncclDataType_t dt;
    ncclRedOp_t    red = ncclSum;
    Launch        *launched = NULL;
    WbRtValue     *root = wb_kernel_call_get_arg (call, 1, op == WB_CUDA_NCCL_BROADCAST && g_str_has_prefix (call->bsym->name, "ltorch.") ? "src" : "root");

    if (!nccl_dtype (in->dtype, &dt))
      {
        g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "NCCL has no %s", wb_dtype_shortname (in->dtype));
        return FALSE;
      }
    if ((op == WB_CUDA_NCCL_ALL_REDUCE || op == WB_CUDA_NCCL_REDUCE_SCATTER) && !reduce_op_of (wb_kernel_call_get_arg (call, 1, "op"), &red, error))
      return FALSE;
    if (!ensure_comm (rt, error))
      return FALSE;
    if (!enqueue (rt, op, in, out, dt, red, op == WB_CUDA_NCCL_BROADCAST && root != NULL && root->kind == WB_RT_INT ? (int) root->i : 0, is_async, &launched, error))
      return FALSE;
    if (is_async)
      {
        Pending *p = g_new0 (Pending, 1);

        p->l = launched;
        p->keep = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
        g_ptr_array_add (p->keep, wb_tensor_ref (in));
        g_ptr_array_add (p->keep, wb_tensor_ref (out));
        if (nccl.pending == NULL)
          nccl.pending = g_hash_table_new_full (NULL, NULL, NULL, pending_free);
        g_hash_table_replace (nccl.pending, out, p);
      }
  }
#else
  /* no NCCL in this build: one rank's collective is its argument (a copy unless in place) */
  (void) is_async;
  if (nccl.world_size > 1)
    return wb_cuda_nccl_get_unique_id (NULL, error);
  if (!in_place && !wb_cuda_copy_into (rt, out, in, error))
    return FALSE;
#endif
  call->result = wb_rt_value_take_tensor (g_steal_pointer (&out));
  return TRUE;
}
