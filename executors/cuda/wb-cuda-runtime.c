/* wb-cuda-runtime.c — device, context, stream, pool, device tensors, modules, launches
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cuda-codegen.h"
#include "wb-cuda-graph.h"
#include "wb-cuda-runtime-private.h"
#include "wb-executors-private.h"

static WbCudaRuntime *the_runtime;
static GError        *the_error;

gboolean
_wb_cuda_runtime_check (WbCudaRuntime *rt, CUresult rc, const char *what, GError **error)
{
  if (rc == CUDA_SUCCESS)
    return TRUE;
  if (wb_cuda_result_is_sticky (rc) && rt != NULL)
    rt->broken = TRUE;
  return wb_cuda_check (rc, what, error);
}

static WbCudaRuntime *
runtime_new (GError **error)
{
  const WbCuApi *cu = wb_cuda_load_driver (error);
  WbCudaRuntime *rt;
  CUresult       rc;
  int            n = 0, device = 0;
  size_t         total = 0;
  cuuint64_t     threshold = G_MAXUINT64;

  if (cu == NULL)
    return NULL;
  rc = cu->cuInit (0);
  if (rc == CUDA_ERROR_NO_DEVICE)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NO_DEVICE, "the NVIDIA driver sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE; CUDA_VISIBLE_DEVICES=%s)",
                   g_getenv ("CUDA_VISIBLE_DEVICES") ? g_getenv ("CUDA_VISIBLE_DEVICES") : "(unset)");
      return NULL;
    }
  if (rc != CUDA_SUCCESS)
    {
      g_autoptr (GError) local = NULL;
      wb_cuda_check (rc, "cuInit", &local);
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NO_DRIVER, "the NVIDIA driver cannot be initialised: %s", local->message);
      return NULL;
    }
  if (!wb_cuda_check (cu->cuDeviceGetCount (&n), "cuDeviceGetCount", error))
    return NULL;
  if (n == 0)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NO_DEVICE, "the NVIDIA driver sees no GPU");
      return NULL;
    }
  rt = g_new0 (WbCudaRuntime, 1);
  rt->cu = cu;
  cu->cuDriverGetVersion (&rt->info.driver_version);
  if (rt->info.driver_version < CUDA_VERSION)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_DRIVER_TOO_OLD, "the driver supports CUDA %d.%d; this build needs %d.%d or newer",
                   rt->info.driver_version / 1000, rt->info.driver_version % 1000 / 10, CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
      g_free (rt);
      return NULL;
    }
  /* WB_CUDA_DEVICE: the GPU of this process (a multi-GPU run starts one runner per rank, rank r on GPU r) */
  {
    const char *dev_env = g_getenv ("WB_CUDA_DEVICE");
    device = dev_env != NULL && dev_env[0] != '\0' ? atoi (dev_env) : 0;
    if (device < 0 || device >= n)
      {
        g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NO_DEVICE, "WB_CUDA_DEVICE=%s: the driver sees %d GPUs (0 to %d)", dev_env, n, n - 1);
        g_free (rt);
        return NULL;
      }
  }
  if (!wb_cuda_check (cu->cuDeviceGet (&rt->dev, device), "cuDeviceGet", error) ||
      !wb_cuda_check (cu->cuDeviceGetName (rt->info.name, sizeof rt->info.name, rt->dev), "cuDeviceGetName", error) ||
      !wb_cuda_check (cu->cuDeviceGetAttribute (&rt->info.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, rt->dev), "cuDeviceGetAttribute", error) ||
      !wb_cuda_check (cu->cuDeviceGetAttribute (&rt->info.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, rt->dev), "cuDeviceGetAttribute", error) ||
      !wb_cuda_check (cu->cuDeviceGetAttribute (&rt->info.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, rt->dev), "cuDeviceGetAttribute", error) ||
      !wb_cuda_check (cu->cuDeviceGetAttribute (&rt->info.smem_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, rt->dev), "cuDeviceGetAttribute",
                      error) ||
      !wb_cuda_check (cu->cuDeviceTotalMem (&total, rt->dev), "cuDeviceTotalMem", error))
    {
      g_free (rt);
      return NULL;
    }
  rt->info.total_bytes = (gint64) total;
  if (wb_cuda_load_nvrtc (error) == NULL)
    {
      g_free (rt);
      return NULL;
    }
  if (wb_nvrtc_supports_arch (rt->info.cc_major, rt->info.cc_minor))
    g_snprintf (rt->info.arch, sizeof rt->info.arch, "sm_%d%d", rt->info.cc_major, rt->info.cc_minor);
  else
    g_snprintf (rt->info.arch, sizeof rt->info.arch, "compute_%d%d", MIN (rt->info.cc_major, 12), rt->info.cc_minor);
  /* plans built from now on size their grids for this device's SMs (WB_CUDA_GRID_SMS: for another count, to
   * run the plans another device would get) */
  {
    const char *grid_sms = g_getenv ("WB_CUDA_GRID_SMS");
    wb_cuda_codegen_set_sm_count (grid_sms != NULL && atoi (grid_sms) > 0 ? (guint) atoi (grid_sms) : (guint) rt->info.sm_count);
  }
  if (!wb_cuda_check (cu->cuDevicePrimaryCtxRetain (&rt->ctx, rt->dev), "cuDevicePrimaryCtxRetain", error) ||
      !wb_cuda_check (cu->cuCtxSetCurrent (rt->ctx), "cuCtxSetCurrent", error) ||
      !wb_cuda_check (cu->cuStreamCreate (&rt->main, CU_STREAM_NON_BLOCKING), "cuStreamCreate", error) ||
      !wb_cuda_check (cu->cuDeviceGetDefaultMemPool (&rt->pool, rt->dev), "cuDeviceGetDefaultMemPool", error) ||
      !wb_cuda_check (cu->cuMemPoolSetAttribute (rt->pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold),
                      "cuMemPoolSetAttribute", error))
    {
      g_free (rt);
      return NULL;
    }
  rt->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  rt->functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  rt->fn_names = g_hash_table_new (NULL, NULL);
  rt->fn_smem = g_hash_table_new (NULL, NULL);
  rt->sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  rt->static_fns = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  rt->index_errors = g_hash_table_new (NULL, NULL);
  rt->sync = g_strcmp0 (g_getenv ("WB_CUDA_SYNC"), "1") == 0;
  rt->stream = rt->main;
  rt->side_epoch = 1;
  rt->side_off = g_strcmp0 (g_getenv ("WB_CUDA_STREAMS"), "1") == 0;
  rt->aborted_captures = g_hash_table_new (NULL, NULL);
  rt->func_get_param_info = (WbCuFuncGetParamInfo) wb_cuda_driver_symbol ("cuFuncGetParamInfo");
  return rt;
}

WbCudaRuntime *
wb_cuda_runtime_get (GError **error)
{
  if (the_runtime == NULL && the_error == NULL)
    {
      GError *local = NULL;
      the_runtime = runtime_new (&local);
      if (the_runtime == NULL)
        the_error = local;
    }
  if (the_runtime == NULL)
    {
      g_propagate_error (error, g_error_copy (the_error));
      return NULL;
    }
  return the_runtime;
}

const WbCudaDeviceInfo *
wb_cuda_runtime_get_info (WbCudaRuntime *rt)
{
  return &rt->info;
}

CUstream
wb_cuda_runtime_get_stream (WbCudaRuntime *rt)
{
  return rt->stream;
}

const WbCuApi *
wb_cuda_runtime_get_api (WbCudaRuntime *rt)
{
  return rt->cu;
}

void
wb_cuda_runtime_get_stats (WbCudaRuntime *rt, WbCudaRuntimeStats *out)
{
  *out = rt->stats;
}

void
wb_cuda_runtime_set_sync (WbCudaRuntime *rt, gboolean sync)
{
  rt->sync = sync;
}

gboolean
wb_cuda_runtime_get_sync (WbCudaRuntime *rt)
{
  return rt->sync;
}

gboolean
wb_cuda_runtime_synchronize (WbCudaRuntime *rt, GError **error)
{
  if (rt->broken)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_FAULT, "the CUDA context was lost by an earlier fault");
      return FALSE;
    }
  if (!wb_cuda_runtime_check_capturable (rt, "synchronises the stream", error))
    return FALSE;
  /* on the run's stream, after the side stream's work: it may hold what the caller waits for */
  if (rt->stream == rt->main && !wb_cuda_runtime_join_side (rt, error))
    return FALSE;
  return _wb_cuda_runtime_check (rt, rt->cu->cuStreamSynchronize (rt->stream), "cuStreamSynchronize", error);
}

/* -- device tensors ---------------------------------------------------------------------------- */

static void
device_block_free (gpointer data)
{
  WbCudaBlock   *b = data;
  WbCudaRuntime *rt = b->rt;

  rt->stats.bytes_live -= (gint64) b->nbytes; /* dropped: what the program holds, whenever the pool reuses it */
  if (rt->list != NULL)
    _wb_cuda_list_free (rt, b); /* a launch list's sizing pass notes when its allocations end */
  if (b->in_list)
    ; /* a place in a launch list's arena: nothing to free */
  else if (b->arena_off >= 0)
    _wb_cuda_arena_release (rt, b); /* nothing to free: its range of the arena is free again */
  else if (b->ptr == 0 || rt->broken)
    ;
  else if (rt->capturing && b->capture != rt->capture_serial)
    /* a graph cannot free memory it did not allocate, and its replays still read it: later */
    g_array_append_val (rt->deferred, b->ptr);
  else if (!rt->capturing && b->capture != 0 && g_hash_table_contains (rt->aborted_captures, GUINT_TO_POINTER (b->capture)))
    ; /* allocated by a capture that never became a graph: there is nothing to free */
  else
    {
      gint64 t0 = g_get_monotonic_time ();
      _wb_cuda_block_free_ordered (rt, b);
      rt->stats.frees++;
      rt->stats.free_ns += (g_get_monotonic_time () - t0) * 1000;
    }
  g_free (b);
}

void
wb_cuda_tensor_untrack (WbTensor *t)
{
  WbCudaBlock   *b = wb_cuda_tensor_is_device (t) ? wb_tensor_get_external_data (t) : NULL;
  WbCudaRuntime *rt = b ? b->rt : NULL;

  if (b == NULL || b->nbytes == 0)
    return;
  /* the peak this allocation just set is not the program's */
  if (rt->stats.bytes_peak == rt->stats.bytes_live)
    rt->stats.bytes_peak -= (gint64) b->nbytes;
  rt->stats.bytes_live -= (gint64) b->nbytes;
  rt->stats.bytes_peak = MAX (rt->stats.bytes_peak, rt->stats.bytes_live);
  b->nbytes = 0;
}

void
wb_cuda_runtime_reset_peak (WbCudaRuntime *rt)
{
  rt->stats.bytes_peak = rt->stats.bytes_live;
}

gboolean
wb_cuda_tensor_is_device (const WbTensor *t)
{
  return t != NULL && t->device.type == WB_DEVICE_CUDA;
}

CUdeviceptr
wb_cuda_tensor_ptr (const WbTensor *t)
{
  return (CUdeviceptr) (guintptr) wb_tensor_get_data (t);
}

WbTensor *
wb_cuda_tensor_new (WbCudaRuntime *rt, WbDtype dtype, guint rank, const gint64 *shape, GError **error)
{
  gint64       numel = 1;
  gsize        nbytes;
  WbCudaBlock *b;
  WbDevice     dev = { WB_DEVICE_CUDA, 0 };

  for (guint d = 0; d < rank; d++)
    numel *= shape[d];
  nbytes = (gsize) numel * wb_dtype_size (dtype);
  if (rt->broken)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_FAULT, "the CUDA context was lost by an earlier fault");
      return NULL;
    }
  b = g_new0 (WbCudaBlock, 1);
  b->rt = rt;
  b->capture = rt->capturing ? rt->capture_serial : 0;
  b->arena_off = -1;
  if (nbytes > 0 && rt->list != NULL && !rt->list_bypass && (b->ptr = _wb_cuda_list_alloc (rt, b, nbytes)) != 0)
    {
      /* a place in the launch list's arena: counted as the program's, never freed */
      b->nbytes = nbytes;
      rt->stats.bytes_live += (gint64) nbytes;
      rt->stats.bytes_peak = MAX (rt->stats.bytes_peak, rt->stats.bytes_live);
    }
  else if (nbytes > 0 && rt->list == NULL && (b->ptr = _wb_cuda_arena_take (rt, b, nbytes)) != 0)
    ; /* a planned place of the memory plan's arena: not counted in allocs or bytes_live */
  else if (nbytes > 0)
    {
      gint64   t0 = g_get_monotonic_time ();
      CUresult rc = rt->cu->cuMemAllocAsync (&b->ptr, nbytes, rt->stream);
      rt->stats.allocs++;
      rt->stats.alloc_ns += (g_get_monotonic_time () - t0) * 1000;
      if (!_wb_cuda_runtime_check (rt, rc, "cuMemAllocAsync", error))
        {
          g_free (b);
          return NULL;
        }
      b->nbytes = nbytes;
      rt->stats.bytes_live += (gint64) nbytes;
      rt->stats.bytes_peak = MAX (rt->stats.bytes_peak, rt->stats.bytes_live);
    }
  return wb_tensor_new_external (dtype, &dev, rank, shape, (gpointer) (guintptr) b->ptr, nbytes, device_block_free, b);
}

/* -- modules and launches ---------------------------------------------------------------------- */

CUfunction
wb_cuda_runtime_get_function (WbCudaRuntime *rt, const char *source, const char *entry, GError **error)
{
  const char      *key = g_hash_table_lookup (rt->sources, source);
  g_autofree char *fkey = NULL;
  CUfunction       fn;
  CUmodule         mod;

  if (key == NULL)
    {
      g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (source, rt->info.arch, NULL, error);
      char         jit_log[4096] = "";
      CUjit_option jo[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
      void        *jv[] = { jit_log, (void *) (guintptr) sizeof jit_log };
      CUresult     rc;

      if (img == NULL)
        return NULL;
      if (!g_hash_table_contains (rt->modules, img->key))
        {
          rc = rt->cu->cuModuleLoadDataEx (&mod, g_bytes_get_data (img->image, NULL), 2, jo, jv);
          if (rc != CUDA_SUCCESS)
            {
              g_autoptr (GError) local = NULL;
              _wb_cuda_runtime_check (rt, rc, "cuModuleLoadDataEx", &local);
              g_set_error (error, WB_CUDA_ERROR, local->code, "%s %s", local->message, jit_log);
              return NULL;
            }
          g_hash_table_insert (rt->modules, g_strdup (img->key), mod);
          rt->stats.modules_loaded++;
        }
      g_hash_table_insert (rt->sources, g_strdup (source), g_strdup (img->key));
      key = g_hash_table_lookup (rt->sources, source);
    }
  fkey = g_strdup_printf ("%s/%s", key, entry);
  fn = g_hash_table_lookup (rt->functions, fkey);
  if (fn != NULL)
    return fn;
  mod = g_hash_table_lookup (rt->modules, key);
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuModuleGetFunction (&fn, mod, entry), entry, error))
    return NULL;
  g_hash_table_insert (rt->functions, g_steal_pointer (&fkey), fn);
  g_hash_table_insert (rt->fn_names, fn, (gpointer) g_intern_string (entry));
  /* a source that checks indices (wb_index_bad of the prelude): its launches are checked in a checked run */
  if (strstr (source, "wb_index_") != NULL)
    {
      CUdeviceptr record = 0;
      size_t      bytes = 0;
      if (rt->cu->cuModuleGetGlobal (&record, &bytes, mod, "wb_index_error") == CUDA_SUCCESS && bytes >= 3 * sizeof (guint64))
        g_hash_table_insert (rt->index_errors, fn, GSIZE_TO_POINTER ((gsize) record));
    }
  return fn;
}

CUfunction
wb_cuda_runtime_get_static_function (WbCudaRuntime *rt, const char *source, const char *entry, GError **error)
{
  GHashTable *fns = g_hash_table_lookup (rt->static_fns, source);
  CUfunction  fn;

  if (fns != NULL && (fn = g_hash_table_lookup (fns, entry)) != NULL)
    return fn;
  if ((fn = wb_cuda_runtime_get_function (rt, source, entry, error)) == NULL)
    return NULL;
  if (fns == NULL)
    {
      fns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_insert (rt->static_fns, (gpointer) source, fns);
    }
  g_hash_table_insert (fns, g_strdup (entry), fn);
  return fn;
}

/* raises @fn's limit of dynamic shared memory to @smem_bytes (once per function and size) */
static gboolean
allow_smem (WbCudaRuntime *rt, CUfunction fn, gsize smem_bytes, GError **error)
{
  gsize done = GPOINTER_TO_SIZE (g_hash_table_lookup (rt->fn_smem, fn));

  if (smem_bytes <= 48 * 1024 || smem_bytes <= done)
    return TRUE;
  if (smem_bytes > G_MAXINT)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cuFuncSetAttribute: %" G_GSIZE_FORMAT " bytes of shared memory", smem_bytes);
      return FALSE;
    }
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuFuncSetAttribute (fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int) smem_bytes), "cuFuncSetAttribute (MAX_DYNAMIC_SHARED_SIZE_BYTES)", error))
    return FALSE;
  g_hash_table_insert (rt->fn_smem, fn, GSIZE_TO_POINTER (smem_bytes));
  return TRUE;
}

/* After a synchronised launch of @fn: the indices its kernel found out of range and clamped (wb_index_bad of
 * the prelude), as the call's error (WB_EXECUTOR_ERROR_BAD_ARGUMENT, as the cpu executor reports them); the
 * record is cleared for the next launch. */
static gboolean
check_index_error (WbCudaRuntime *rt, CUfunction fn, const char *what, GError **error)
{
  CUdeviceptr record = (CUdeviceptr) GPOINTER_TO_SIZE (g_hash_table_lookup (rt->index_errors, fn));
  guint64     e[3] = { 0, 0, 0 };

  if (record == 0)
    return TRUE;
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuMemcpyDtoHAsync (e, record, sizeof e, rt->stream), "cuMemcpyDtoHAsync", error) ||
      !wb_cuda_runtime_synchronize (rt, error))
    return FALSE;
  if (e[0] == 0)
    return TRUE;
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuMemsetD8Async (record, 0, sizeof e, rt->stream), "cuMemsetD8Async", error))
    return FALSE;
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
               "index %" G_GINT64_FORMAT " is out of range for a dim of size %" G_GINT64_FORMAT " (%s: %" G_GUINT64_FORMAT
               " index values out of range, clamped on the GPU)",
               (gint64) e[1], (gint64) e[2], what, e[0]);
  return FALSE;
}

gboolean
wb_cuda_runtime_take_index_errors (WbCudaRuntime *rt, guint64 *count, gint64 *index, gint64 *dim, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer       value;

  *count = 0;
  *index = *dim = 0;
  if (!wb_cuda_runtime_synchronize (rt, error))
    return FALSE;
  g_hash_table_iter_init (&it, rt->index_errors);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      CUdeviceptr record = (CUdeviceptr) GPOINTER_TO_SIZE (value);
      guint64     e[3] = { 0, 0, 0 };

      if (!g_hash_table_add (seen, value)) /* a module's record, shared by its functions */
        continue;
      if (!_wb_cuda_runtime_check (rt, rt->cu->cuMemcpyDtoHAsync (e, record, sizeof e, rt->stream), "cuMemcpyDtoHAsync", error) ||
          !wb_cuda_runtime_synchronize (rt, error))
        return FALSE;
      if (e[0] == 0)
        continue;
      if (*count == 0)
        *index = (gint64) e[1], *dim = (gint64) e[2];
      *count += e[0];
      if (!_wb_cuda_runtime_check (rt, rt->cu->cuMemsetD8Async (record, 0, sizeof e, rt->stream), "cuMemsetD8Async", error))
        return FALSE;
    }
  return wb_cuda_runtime_synchronize (rt, error);
}

gboolean
wb_cuda_runtime_launch_ex (WbCudaRuntime *rt, CUfunction fn, const guint grid[3], guint block, gsize smem_bytes, void **args, const char *what, GError **error)
{
  const guint b[3] = { block, 1, 1 };
  CUresult    rc;

  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return TRUE;
  if (rt->broken)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_FAULT, "the CUDA context was lost by an earlier fault");
      return FALSE;
    }
  if (block == 0 || block > 1024)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: blocks of %u threads", what, block);
      return FALSE;
    }
  if (!allow_smem (rt, fn, smem_bytes, error))
    {
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  rt->stats.launches++;
  if (rt->hook)
    {
      const char *name = rt->entry ? rt->entry : g_hash_table_lookup (rt->fn_names, fn);

      if (name == NULL)
        name = "wb_kernel";
      rt->hook (FALSE, name, what, grid, b, rt->hook_data);
      rc = rt->cu->cuLaunchKernel (fn, grid[0], grid[1], grid[2], block, 1, 1, (unsigned) smem_bytes, rt->stream, args, NULL);
      rt->hook (TRUE, name, what, grid, b, rt->hook_data);
    }
  else
    rc = rt->cu->cuLaunchKernel (fn, grid[0], grid[1], grid[2], block, 1, 1, (unsigned) smem_bytes, rt->stream, args, NULL);
  if (!_wb_cuda_runtime_check (rt, rc, "cuLaunchKernel", error))
    return FALSE;
  if (rt->list != NULL)
    _wb_cuda_list_kernel (rt, fn, grid, block, smem_bytes, args);
  if (rt->sync && !wb_cuda_runtime_synchronize (rt, error))
    {
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  return !rt->sync || check_index_error (rt, fn, what, error);
}

gboolean
wb_cuda_runtime_launch (WbCudaRuntime *rt, CUfunction fn, guint grid, void **args, const char *what, GError **error)
{
  const guint g[3] = { grid, 1, 1 };

  return wb_cuda_runtime_launch_ex (rt, fn, g, WB_CUDA_BLOCK, 0, args, what, error);
}

/* The plan's kept buffers, allocated once per plan: counters (WbCudaBuffer.counters) zeroed in stream order,
 * which its kernels leave at zero, and lookup tables (WbCudaBuffer.table) that its @once kernels fill at this
 * launch; later launches and graph replays find them ready. Not while capturing: the memory would belong to
 * the graph (the checked run and the warm-up come first). */
static gboolean
plan_make_scratch (WbCudaRuntime *rt, WbCudaPlan *plan, GError **error)
{
  g_autoptr (GPtrArray) scratch = g_ptr_array_new_full (plan->n_buffers, (GDestroyNotify) wb_tensor_unref);
  gboolean any = FALSE;

  for (guint i = 0; i < plan->n_buffers; i++)
    any |= plan->buffers[i].counters || plan->buffers[i].table;
  if (any && !wb_cuda_runtime_check_capturable (rt, "allocates a plan's reduction counters or lookup tables (first launch)", error))
    return FALSE;
  for (guint i = 0; i < plan->n_buffers; i++)
    {
      const WbCudaBuffer *b = &plan->buffers[i];
      WbTensor           *t = NULL;
      if (b->counters || b->table)
        {
          if ((t = wb_cuda_tensor_new (rt, b->dtype, b->rank, b->shape, error)) == NULL)
            return FALSE;
          g_ptr_array_add (scratch, t);
          if (b->counters && !_wb_cuda_runtime_check (rt, rt->cu->cuMemsetD8Async (wb_cuda_tensor_ptr (t), 0, (size_t) wb_tensor_nbytes (t), rt->stream), "cuMemsetD8Async", error))
            return FALSE;
        }
      else
        g_ptr_array_add (scratch, NULL);
    }
  g_clear_pointer (&plan->scratch, g_ptr_array_unref);
  plan->scratch = g_steal_pointer (&scratch);
  plan->scratch_owner = rt;
  return TRUE;
}

/* The device's @figure, or the positive number environment variable @var gives where that is smaller: a small
 * device's figure, for the tests on a large one. *@set: whether @var is set. */
static gint64
capped_by_env (const char *var, gint64 figure, gboolean *set)
{
  const char *env = g_getenv (var);
  gint64      cap = env != NULL ? g_ascii_strtoll (env, NULL, 10) : 0;

  *set = env != NULL;
  return cap > 0 ? MIN (figure, cap) : figure;
}

/* Whether the device holds @kr->resident blocks of @kr (function @fn) at once: its occupancy (blocks per SM at
 * its block size, registers and shared memory) times the SMs, or fewer where WB_CUDA_RESIDENT_BLOCKS says so.
 * FALSE with WB_CUDA_ERROR_RESIDENT, naming the kernel. */
static gboolean
holds_resident (WbCudaRuntime *rt, CUfunction fn, const WbCudaKernel *kr, GError **error)
{
  int      per_sm = 0;
  gint64   holds;
  gboolean capped;

  if (!wb_cuda_check (rt->cu->cuOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, fn, (int) (kr->block ? kr->block : WB_CUDA_BLOCK), kr->smem_bytes),
                      "cuOccupancyMaxActiveBlocksPerMultiprocessor", error))
    return FALSE;
  holds = capped_by_env ("WB_CUDA_RESIDENT_BLOCKS", (gint64) per_sm * rt->info.sm_count, &capped);
  if (holds >= kr->resident)
    return TRUE;
  g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_RESIDENT,
               "%s (%s): its blocks wait for one another, so %u of them must be resident at once; %s holds %" G_GINT64_FORMAT
               " (%d SMs x %d blocks%s)",
               kr->entry, kr->what, kr->resident, rt->info.name, holds, rt->info.sm_count, per_sm, capped ? ", capped by WB_CUDA_RESIDENT_BLOCKS" : "");
  return FALSE;
}

/* Whether the device gives @kr the dynamic shared memory it asks for (its opt-in limit a block, or less where
 * WB_CUDA_SHARED_OPTIN_BYTES says so). FALSE with WB_CUDA_ERROR_SHARED_MEMORY, naming the kernel. */
static gboolean
fits_shared (WbCudaRuntime *rt, const WbCudaKernel *kr, GError **error)
{
  gboolean capped;
  gint64   limit = capped_by_env ("WB_CUDA_SHARED_OPTIN_BYTES", rt->info.smem_optin, &capped);

  if ((gint64) kr->smem_bytes <= limit)
    return TRUE;
  g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_SHARED_MEMORY, "%s (%s): asks for %u bytes of shared memory a block; %s gives at most %" G_GINT64_FORMAT "%s",
               kr->entry, kr->what, kr->smem_bytes, rt->info.name, limit, capped ? " (capped by WB_CUDA_SHARED_OPTIN_BYTES)" : "");
  return FALSE;
}

/* Looks @plan's kernels up in @rt (once per plan and runtime: the runtime's own lookup hashes the whole source,
 * 8x longer when vectorised; measured 0.28 ms per iteration of gpt2_block's 14-kernel region) and checks the
 * shared memory each asks for and the blocks that waiting kernels need, before any of them is launched. */
static gboolean
plan_resolve (WbCudaRuntime *rt, WbCudaPlan *plan, GError **error)
{
  g_autofree gpointer *fns = NULL;

  if (plan->functions_owner == rt)
    return TRUE;
  fns = g_new0 (gpointer, MAX (plan->n_kernels, 1));
  for (guint k = 0; k < plan->n_kernels; k++)
    if (!fits_shared (rt, &plan->kernels[k], error) || (fns[k] = wb_cuda_runtime_get_function (rt, plan->source, plan->kernels[k].entry, error)) == NULL ||
        (plan->kernels[k].resident > 0 && !holds_resident (rt, fns[k], &plan->kernels[k], error)))
      return FALSE;
  g_free (plan->functions);
  plan->functions = g_steal_pointer (&fns);
  plan->functions_owner = rt;
  return TRUE;
}

gboolean
wb_cuda_plan_launch (WbCudaRuntime *rt, WbCudaPlan *plan, WbTensor *const *inputs, WbTensor **outputs, GError **error)
{
  guint                   n_slots = plan->n_inputs + plan->n_buffers;
  g_autofree CUdeviceptr *ptrs = g_new0 (CUdeviceptr, MAX (n_slots, 1));
  g_autofree WbTensor   **buffers = g_new0 (WbTensor *, MAX (plan->n_buffers, 1));
  g_autofree void       **args = NULL; /* a kernel's parameters: one slot pointer each (a fused region may read 77) */
  guint                   most = 1;
  gboolean                ok = FALSE, made = FALSE;

  if (!plan_resolve (rt, plan, error))
    return FALSE;
  for (guint i = 0; i < plan->n_inputs; i++)
    ptrs[i] = inputs[i] ? wb_cuda_tensor_ptr (inputs[i]) : 0;
  if (plan->scratch_owner != rt)
    {
      if (!plan_make_scratch (rt, plan, error))
        return FALSE;
      made = TRUE;
    }
  for (guint i = 0; i < plan->n_buffers; i++)
    {
      const WbCudaBuffer *b = &plan->buffers[i];
      if (b->counters || b->table)
        buffers[i] = wb_tensor_ref (plan->scratch->pdata[i]);
      else if ((buffers[i] = wb_cuda_tensor_new (rt, b->dtype, b->rank, b->shape, error)) == NULL)
        goto out;
      ptrs[plan->n_inputs + i] = wb_cuda_tensor_ptr (buffers[i]);
    }
  for (guint k = 0; k < plan->n_kernels; k++)
    most = MAX (most, plan->kernels[k].n_params);
  args = g_new (void *, most);
  for (guint k = 0; k < plan->n_kernels; k++)
    {
      const WbCudaKernel *kr = &plan->kernels[k];
      const guint         grid[3] = { kr->grid, 1, 1 };
      CUfunction          fn = plan->functions[k];
      if (kr->once && !made)
        continue; /* its table was filled when the plan's kept buffers were made */
      for (guint j = 0; j < kr->n_params; j++)
        args[j] = &ptrs[kr->params[j]];
      rt->entry = kr->entry;
      if (!wb_cuda_runtime_launch_ex (rt, fn, grid, kr->block ? kr->block : WB_CUDA_BLOCK, kr->smem_bytes, args, kr->what, error))
        {
          rt->entry = NULL;
          goto out;
        }
      rt->entry = NULL;
    }
  for (guint i = 0; i < plan->n_outputs; i++)
    {
      const WbCudaOutput *o = &plan->outputs[i];
      WbTensor           *base = o->slot < plan->n_inputs ? inputs[o->slot] : buffers[o->slot - plan->n_inputs];
      outputs[i] = wb_tensor_new_view (base, o->dtype, o->rank, o->shape, o->strides, base->offset + o->offset);
    }
  ok = TRUE;
out:
  for (guint i = 0; i < plan->n_buffers; i++)
    g_clear_pointer (&buffers[i], wb_tensor_unref);
  return ok;
}

void
wb_cuda_runtime_set_launch_hook (WbCudaRuntime *rt, WbCudaLaunchHook hook, gpointer data)
{
  rt->hook = hook;
  rt->hook_data = data;
}

void
wb_cuda_runtime_notify_launch (WbCudaRuntime *rt, gboolean after, const char *name, const char *what, const guint grid[3], const guint block[3])
{
  if (rt->hook)
    rt->hook (after, name, what, grid, block, rt->hook_data);
}

/* -- stream capture ------------------------------------------------------------------------------ */

gboolean
wb_cuda_runtime_is_capturing (WbCudaRuntime *rt)
{
  return rt->capturing || rt->list != NULL;
}

gboolean
wb_cuda_runtime_check_capturable (WbCudaRuntime *rt, const char *what, GError **error)
{
  if (rt->list != NULL)
    {
      _wb_cuda_list_refuse (rt, what);
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "%s", what);
      return FALSE;
    }
  if (!rt->capturing)
    return TRUE;
  if (rt->capture_refusal == NULL)
    rt->capture_refusal = g_strdup (what);
  g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "%s", what);
  return FALSE;
}

const char *
wb_cuda_runtime_get_capture_refusal (WbCudaRuntime *rt)
{
  return rt->capture_refusal;
}

CUresult
wb_cuda_runtime_record_event (WbCudaRuntime *rt, CUevent event)
{
  /* inside a capture a plain record only marks a dependency; EXTERNAL makes it an event-record node that
   * records the event at every replay (and is invalid outside a capture) */
  CUresult rc;

  if (rt->capturing)
    return rt->cu->cuEventRecordWithFlags (event, rt->stream, CU_EVENT_RECORD_EXTERNAL);
  rc = rt->cu->cuEventRecord (event, rt->stream);
  if (rc == CUDA_SUCCESS && rt->list != NULL)
    _wb_cuda_list_event (rt, rt->stream, event, FALSE);
  return rc;
}

gboolean
wb_cuda_runtime_wait_event (WbCudaRuntime *rt, CUevent event, GError **error)
{
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuStreamWaitEvent (rt->stream, event, 0), "cuStreamWaitEvent", error))
    return FALSE;
  if (rt->list != NULL)
    _wb_cuda_list_event (rt, rt->stream, event, TRUE);
  return TRUE;
}

gboolean
wb_cuda_runtime_memset (WbCudaRuntime *rt, CUdeviceptr dst, guint8 value, gsize n, GError **error)
{
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuMemsetD8Async (dst, value, n, rt->stream), "cuMemsetD8Async", error))
    return FALSE;
  if (rt->list != NULL)
    _wb_cuda_list_memset (rt, dst, value, n);
  return TRUE;
}

gboolean
wb_cuda_runtime_begin_capture (WbCudaRuntime *rt, GError **error)
{
  if (rt->broken)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_FAULT, "the CUDA context was lost by an earlier fault");
      return FALSE;
    }
  g_return_val_if_fail (!rt->capturing && rt->stream == rt->main, FALSE);
  g_clear_pointer (&rt->capture_refusal, g_free);
  if (!wb_cuda_runtime_join_side (rt, error))
    return FALSE;
  /* relaxed: nothing the runner does on other threads must fail because of it; what a graph cannot
   * hold is refused by the runtime itself (wb_cuda_runtime_check_capturable) */
  if (!_wb_cuda_runtime_check (rt, rt->cu->cuStreamBeginCapture (rt->stream, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture", error))
    return FALSE;
  rt->capturing = TRUE;
  rt->capture_serial++;
  rt->deferred = g_array_new (FALSE, FALSE, sizeof (CUdeviceptr));
  return TRUE;
}

/* Frees the blocks whose free was held back during a capture (stream-ordered after what is queued). */
void
wb_cuda_runtime_release_blocks (WbCudaRuntime *rt, GArray *blocks)
{
  for (guint i = 0; blocks != NULL && i < blocks->len && !rt->broken; i++)
    rt->cu->cuMemFreeAsync (g_array_index (blocks, CUdeviceptr, i), rt->stream);
  if (blocks != NULL)
    g_array_unref (blocks);
}

void
wb_cuda_runtime_abort_capture (WbCudaRuntime *rt)
{
  CUgraph graph = NULL;

  if (!rt->capturing)
    return;
  rt->stream = rt->main;
  (void) wb_cuda_runtime_join_side (rt, NULL); /* the side stream leaves the capture with it */
  rt->cu->cuStreamEndCapture (rt->stream, &graph);
  if (graph != NULL)
    rt->cu->cuGraphDestroy (graph);
  rt->capturing = FALSE;
  g_hash_table_add (rt->aborted_captures, GUINT_TO_POINTER (rt->capture_serial));
  wb_cuda_runtime_release_blocks (rt, g_steal_pointer (&rt->deferred));
}

WbCudaGraph *
wb_cuda_runtime_end_capture (WbCudaRuntime *rt, GError **error)
{
  CUgraph      graph = NULL;
  CUresult     rc;
  WbCudaGraph *g;

  g_return_val_if_fail (rt->capturing && rt->stream == rt->main, NULL);
  /* a capture must end where it began with every stream it forked joined again */
  if (!wb_cuda_runtime_join_side (rt, error))
    {
      wb_cuda_runtime_abort_capture (rt);
      return NULL;
    }
  rc = rt->cu->cuStreamEndCapture (rt->stream, &graph);
  rt->capturing = FALSE;
  if (rc != CUDA_SUCCESS)
    {
      if (graph != NULL)
        rt->cu->cuGraphDestroy (graph);
      g_hash_table_add (rt->aborted_captures, GUINT_TO_POINTER (rt->capture_serial));
      wb_cuda_runtime_release_blocks (rt, g_steal_pointer (&rt->deferred));
      _wb_cuda_runtime_check (rt, rc, "cuStreamEndCapture", error);
      return NULL;
    }
  g = wb_cuda_graph_new (rt, graph, g_steal_pointer (&rt->deferred), error);
  if (g == NULL)
    g_hash_table_add (rt->aborted_captures, GUINT_TO_POINTER (rt->capture_serial));
  return g;
}

/* -- probe ------------------------------------------------------------------------------------- */

char *
wb_cuda_probe (GError **error)
{
  WbCudaRuntime   *rt = wb_cuda_runtime_get (error);
  g_autofree char *nvrtc = NULL;
  const WbLtApi   *lt;
  GString         *s;

  if (rt == NULL)
    return NULL;
  nvrtc = wb_nvrtc_version ();
  s = g_string_new (NULL);
  g_string_append_printf (s, "device 0: %s, compute capability %d.%d, %d SMs, %.1f GiB; driver CUDA %d.%d; kernels for %s; NVRTC %s",
                          rt->info.name, rt->info.cc_major, rt->info.cc_minor, rt->info.sm_count, rt->info.total_bytes / 1073741824.0,
                          rt->info.driver_version / 1000, rt->info.driver_version % 1000 / 10, rt->info.arch, nvrtc ? nvrtc : "?");
  lt = wb_cuda_load_cublaslt (NULL);
  if (lt != NULL)
    g_string_append_printf (s, "; cuBLASLt %zu", lt->cublasLtGetVersion ());
  else
    g_string_append (s, "; cuBLASLt not found (matmul falls back to cpu)");
  return g_string_free (s, FALSE);
}
