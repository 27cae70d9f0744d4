/* wb-tensor.c — WbTensor: strided views of refcounted, 64-byte aligned host storage
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wb-executors-private.h"

struct _WbStorage
{
  gint           ref_count;
  gsize          nbytes;   /* bytes in use */
  gsize          capacity; /* bytes allocated */
  guint8        *data;
  GDestroyNotify destroy; /* external storage (wb_tensor_new_external): frees data; NULL for host memory */
  gpointer       destroy_data;
};

/* Large buffers (>= 1 MiB) are 2 MiB aligned with transparent huge pages requested, and freed ones are
 * kept in a small cache for reuse: a trace allocates many tensors of the same sizes, and first-touch
 * page faults of fresh 4 KiB pages (very slow under virtualisation) otherwise dominate elementwise ops. */
#define LARGE_BLOCK (1u << 20)
#define HUGE_PAGE (2u << 20)

static const WbTensorStorageHooks *storage_hooks; /* (nullable) wb_tensor_set_storage_hooks */
static gpointer                    storage_hooks_data;

static GMutex     cache_lock;
static GPtrArray *cache_blocks; /* (element-type WbStorage) free large blocks */
static gsize      cache_bytes;

static gsize
cache_limit (void)
{
  static gsize limit = 0;

  if (limit == 0)
    {
      const char *env = g_getenv ("WB_TENSOR_CACHE_MB");
      gint64      pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
      gsize       phys = pages > 0 && page > 0 ? (gsize) pages * (gsize) page : (gsize) 8 << 30;
      limit = env ? (gsize) g_ascii_strtoull (env, NULL, 10) << 20 : MIN (phys / 4, (gsize) 4 << 30);
      limit = MAX (limit, 1);
    }
  return limit;
}

static WbStorage *
cache_take (gsize alloc)
{
  WbStorage *best = NULL;
  guint      best_i = 0;

  g_mutex_lock (&cache_lock);
  for (guint i = 0; cache_blocks && i < cache_blocks->len; i++)
    {
      WbStorage *s = cache_blocks->pdata[i];
      if (s->capacity >= alloc && s->capacity <= 2 * alloc && (best == NULL || s->capacity < best->capacity))
        best = s, best_i = i;
    }
  if (best != NULL)
    {
      g_ptr_array_remove_index_fast (cache_blocks, best_i);
      cache_bytes -= best->capacity;
    }
  g_mutex_unlock (&cache_lock);
  return best;
}

static WbStorage *
storage_new_block (gsize nbytes, gboolean zero, GError **error)
{
  WbStorage *s = NULL;
  void      *p = NULL;
  gsize      alloc = MAX ((nbytes + 63) & ~(gsize) 63, 64);

  if (alloc >= LARGE_BLOCK)
    {
      alloc = (alloc + HUGE_PAGE - 1) & ~(gsize) (HUGE_PAGE - 1);
      s = cache_take (alloc);
      if (s != NULL)
        {
          s->ref_count = 1;
          s->nbytes = nbytes;
          if (zero)
            memset (s->data, 0, nbytes);
          return s;
        }
    }
  if (posix_memalign (&p, alloc >= LARGE_BLOCK ? HUGE_PAGE : 64, alloc) != 0 || p == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_OUT_OF_MEMORY,
                   "cannot allocate %" G_GSIZE_FORMAT " bytes for a tensor", nbytes);
      return NULL;
    }
#ifdef MADV_HUGEPAGE
  if (alloc >= LARGE_BLOCK)
    madvise (p, alloc, MADV_HUGEPAGE);
#endif
  if (zero)
    memset (p, 0, alloc);
  s = g_new0 (WbStorage, 1);
  s->ref_count = 1;
  s->nbytes = nbytes;
  s->capacity = alloc;
  s->data = p;
  return s;
}

/* a new storage of @nbytes, told to the hooks */
static WbStorage *
storage_new (gsize nbytes, gboolean zero, GError **error)
{
  WbStorage *s = storage_new_block (nbytes, zero, error);

  if (s != NULL && storage_hooks != NULL)
    storage_hooks->allocated (s, nbytes, storage_hooks_data);
  return s;
}

static void
storage_unref (WbStorage *s)
{
  if (!g_atomic_int_dec_and_test (&s->ref_count))
    return;
  if (storage_hooks != NULL)
    storage_hooks->freed (s, storage_hooks_data);
  if (s->destroy != NULL)
    {
      s->destroy (s->destroy_data);
      g_free (s);
      return;
    }
  if (s->capacity >= LARGE_BLOCK)
    {
      g_mutex_lock (&cache_lock);
      if (cache_bytes + s->capacity <= cache_limit ())
        {
          if (cache_blocks == NULL)
            cache_blocks = g_ptr_array_new ();
          g_ptr_array_add (cache_blocks, s);
          cache_bytes += s->capacity;
          s = NULL;
        }
      g_mutex_unlock (&cache_lock);
      if (s == NULL)
        return;
    }
  free (s->data);
  g_free (s);
}

void
wb_tensor_set_storage_hooks (const WbTensorStorageHooks *hooks, gpointer data)
{
  storage_hooks_data = data;
  storage_hooks = hooks;
}

gconstpointer
wb_tensor_get_storage_id (const WbTensor *t)
{
  g_return_val_if_fail (t != NULL, NULL);
  return t->storage;
}

guint8 *
_wb_storage_base (const WbTensor *t)
{
  return t->storage->data;
}

static WbTensor *
tensor_alloc (WbDtype dtype, guint rank, const gint64 *shape, gboolean zero, GError **error)
{
  WbTensor *t;
  gint64    numel = 1;
  gsize     es = wb_dtype_size (dtype);

  g_return_val_if_fail (rank <= WB_MAX_RANK, NULL);
  g_return_val_if_fail (es > 0, NULL);
  for (guint d = 0; d < rank; d++)
    {
      if (shape[d] < 0 || (shape[d] > 0 && numel > G_MAXINT64 / 16 / shape[d]))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_OUT_OF_MEMORY,
                       "tensor shape dim %u = %" G_GINT64_FORMAT " is negative or too large", d, shape[d]);
          return NULL;
        }
      numel *= shape[d];
    }
  t = g_new0 (WbTensor, 1);
  t->ref_count = 1;
  t->storage = storage_new ((gsize) numel * es, zero, error);
  if (t->storage == NULL)
    {
      g_free (t);
      return NULL;
    }
  t->dtype = dtype;
  t->device.type = WB_DEVICE_CPU;
  t->device.index = -1;
  t->rank = rank;
  if (rank > 0)
    memcpy (t->shape, shape, rank * sizeof (gint64));
  _wb_contiguous_strides (rank, shape, t->strides);
  t->offset = 0;
  return t;
}

WbTensor *
wb_tensor_new (WbDtype dtype, guint rank, const gint64 *shape, GError **error)
{
  return tensor_alloc (dtype, rank, shape, FALSE, error);
}

WbTensor *
wb_tensor_new_zeros (WbDtype dtype, guint rank, const gint64 *shape, GError **error)
{
  return tensor_alloc (dtype, rank, shape, TRUE, error);
}

WbTensor *
wb_tensor_new_like (const WbTensor *src, GError **error)
{
  return tensor_alloc (src->dtype, src->rank, src->shape, FALSE, error);
}

WbTensor *
wb_tensor_new_scalar (WbDtype dtype, double value)
{
  WbTensor *t = tensor_alloc (dtype, 0, NULL, TRUE, NULL);

  g_assert (t != NULL);
  wb_tensor_set_f64 (t, 0, value);
  return t;
}

gpointer
wb_tensor_get_external_data (const WbTensor *t)
{
  g_return_val_if_fail (t != NULL, NULL);
  return t->storage != NULL && t->storage->destroy != NULL ? t->storage->destroy_data : NULL;
}

WbTensor *
wb_tensor_new_external (WbDtype dtype, const WbDevice *device, guint rank, const gint64 *shape, gpointer data, gsize nbytes, GDestroyNotify destroy, gpointer destroy_data)
{
  WbTensor *t;

  g_return_val_if_fail (rank <= WB_MAX_RANK && device != NULL && destroy != NULL, NULL);
  t = g_new0 (WbTensor, 1);
  t->ref_count = 1;
  t->storage = g_new0 (WbStorage, 1);
  t->storage->ref_count = 1;
  t->storage->nbytes = nbytes;
  t->storage->capacity = nbytes;
  t->storage->data = data;
  t->storage->destroy = destroy;
  t->storage->destroy_data = destroy_data;
  if (storage_hooks != NULL)
    storage_hooks->allocated (t->storage, nbytes, storage_hooks_data);
  t->dtype = dtype;
  t->device = *device;
  t->rank = rank;
  if (rank > 0)
    memcpy (t->shape, shape, rank * sizeof (gint64));
  _wb_contiguous_strides (rank, shape, t->strides);
  return t;
}

WbTensor *
wb_tensor_new_view (const WbTensor *base, WbDtype dtype, guint rank, const gint64 *shape, const gint64 *strides, gint64 offset)
{
  WbTensor *t;

  g_return_val_if_fail (base != NULL && rank <= WB_MAX_RANK, NULL);
  g_return_val_if_fail (wb_dtype_size (dtype) == wb_dtype_size (base->dtype), NULL);
  t = g_new0 (WbTensor, 1);
  t->ref_count = 1;
  t->storage = base->storage;
  g_atomic_int_inc (&t->storage->ref_count);
  t->dtype = dtype;
  t->device = base->device;
  t->rank = rank;
  if (rank > 0)
    {
      memcpy (t->shape, shape, rank * sizeof (gint64));
      memcpy (t->strides, strides, rank * sizeof (gint64));
    }
  t->offset = offset;
  return t;
}

WbTensor *
wb_tensor_ref (WbTensor *tensor)
{
  g_return_val_if_fail (tensor != NULL, NULL);
  g_atomic_int_inc (&tensor->ref_count);
  return tensor;
}

void
wb_tensor_unref (WbTensor *tensor)
{
  if (tensor == NULL)
    return;
  if (g_atomic_int_dec_and_test (&tensor->ref_count))
    {
      storage_unref (tensor->storage);
      g_free (tensor);
    }
}

gint64
wb_tensor_numel (const WbTensor *tensor)
{
  gint64 n = 1;

  for (guint d = 0; d < tensor->rank; d++)
    n *= tensor->shape[d];
  return n;
}

gint64
wb_tensor_nbytes (const WbTensor *tensor)
{
  return wb_tensor_numel (tensor) * (gint64) wb_dtype_size (tensor->dtype);
}

gpointer
wb_tensor_get_data (const WbTensor *tensor)
{
  return _wb_elem_ptr (tensor, tensor->offset);
}

gboolean
wb_tensor_is_contiguous (const WbTensor *tensor)
{
  gint64 expected = 1;

  for (int d = (int) tensor->rank - 1; d >= 0; d--)
    {
      if (tensor->shape[d] == 1)
        continue;
      if (tensor->shape[d] == 0)
        return TRUE;
      if (tensor->strides[d] != expected)
        return FALSE;
      expected *= tensor->shape[d];
    }
  return TRUE;
}

gboolean
wb_tensor_shares_storage (const WbTensor *a, const WbTensor *b)
{
  return a->storage == b->storage;
}

void
wb_tensor_get_type (const WbTensor *tensor, WbType *out)
{
  wb_type_init_tensor (out, tensor->dtype, &tensor->device, tensor->rank, tensor->shape);
}

char *
wb_tensor_shape_to_string (const WbTensor *tensor)
{
  GString *s = g_string_new ("[");

  for (guint d = 0; d < tensor->rank; d++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", tensor->shape[d]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

char *
wb_tensor_type_to_string (const WbTensor *tensor)
{
  WbType type;

  wb_tensor_get_type (tensor, &type);
  return wb_type_to_string (&type);
}

/* -- views ------------------------------------------------------------------------------------ */

WbTensor *
wb_tensor_permute (WbTensor *tensor, const gint64 *perm, GError **error)
{
  gint64   shape[WB_MAX_RANK], strides[WB_MAX_RANK];
  gboolean seen[WB_MAX_RANK] = { FALSE };

  for (guint d = 0; d < tensor->rank; d++)
    {
      gint64 p = perm[d];
      if (p < 0 || p >= tensor->rank || seen[p])
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "permutation entry %u = %" G_GINT64_FORMAT " is not a permutation of %u dims",
                       d, p, tensor->rank);
          return NULL;
        }
      seen[p] = TRUE;
      shape[d] = tensor->shape[p];
      strides[d] = tensor->strides[p];
    }
  return wb_tensor_new_view (tensor, tensor->dtype, tensor->rank, shape, strides, tensor->offset);
}

WbTensor *
wb_tensor_broadcast_in_dim (WbTensor *tensor, guint rank, const gint64 *shape, const gint64 *bdims, GError **error)
{
  gint64 strides[WB_MAX_RANK] = { 0 };

  if (rank > WB_MAX_RANK || rank < tensor->rank)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "broadcast_in_dim to rank %u from rank %u", rank, tensor->rank);
      return NULL;
    }
  for (guint i = 0; i < tensor->rank; i++)
    {
      gint64 d = bdims[i];
      if (d < 0 || d >= rank || (i > 0 && d <= bdims[i - 1]))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "broadcast_dimensions[%u] = %" G_GINT64_FORMAT " is out of order or range", i, d);
          return NULL;
        }
      if (tensor->shape[i] == shape[d])
        strides[d] = tensor->strides[i];
      else if (tensor->shape[i] == 1)
        strides[d] = 0;
      else
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "broadcast_in_dim: source dim %u of size %" G_GINT64_FORMAT " cannot become %" G_GINT64_FORMAT,
                       i, tensor->shape[i], shape[d]);
          return NULL;
        }
    }
  return wb_tensor_new_view (tensor, tensor->dtype, rank, shape, strides, tensor->offset);
}

WbTensor *
wb_tensor_slice (WbTensor *tensor, const gint64 *starts, const gint64 *ends, const gint64 *steps, GError **error)
{
  gint64 shape[WB_MAX_RANK], strides[WB_MAX_RANK];
  gint64 offset = tensor->offset;

  for (guint d = 0; d < tensor->rank; d++)
    {
      gint64 step = steps ? steps[d] : 1;
      if (step < 1 || starts[d] < 0 || ends[d] > tensor->shape[d] || starts[d] > ends[d])
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "slice of dim %u (size %" G_GINT64_FORMAT ") from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
                       " step %" G_GINT64_FORMAT " is out of range",
                       d, tensor->shape[d], starts[d], ends[d], step);
          return NULL;
        }
      shape[d] = (ends[d] - starts[d] + step - 1) / step;
      strides[d] = tensor->strides[d] * step;
      offset += starts[d] * tensor->strides[d];
    }
  return wb_tensor_new_view (tensor, tensor->dtype, tensor->rank, shape, strides, offset);
}

/* Computes strides for @shape over @tensor's memory when possible (PyTorch's computeStride). */
static gboolean
view_strides (const WbTensor *tensor, guint rank, const gint64 *shape, gint64 *out)
{
  gint64 numel = wb_tensor_numel (tensor);
  int    view_d = (int) rank - 1;
  gint64 chunk_base_stride;
  gint64 tensor_numel = 1, view_numel = 1;

  if (numel == 0)
    {
      _wb_contiguous_strides (rank, shape, out);
      return TRUE;
    }
  if (tensor->rank == 0)
    {
      for (guint d = 0; d < rank; d++)
        out[d] = 1;
      return TRUE;
    }
  chunk_base_stride = tensor->strides[tensor->rank - 1];
  for (int td = (int) tensor->rank - 1; td >= 0; td--)
    {
      tensor_numel *= tensor->shape[td];
      if (td == 0 || (tensor->shape[td - 1] != 1 &&
                      tensor->strides[td - 1] != tensor_numel * chunk_base_stride))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1))
            {
              out[view_d] = view_numel * chunk_base_stride;
              view_numel *= shape[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (td > 0)
            {
              chunk_base_stride = tensor->strides[td - 1];
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

WbTensor *
wb_tensor_try_view (WbTensor *tensor, guint rank, const gint64 *shape)
{
  gint64 strides[WB_MAX_RANK];
  gint64 numel = 1;

  g_return_val_if_fail (rank <= WB_MAX_RANK, NULL);
  for (guint d = 0; d < rank; d++)
    numel *= shape[d];
  g_return_val_if_fail (numel == wb_tensor_numel (tensor), NULL);
  if (!view_strides (tensor, rank, shape, strides))
    return NULL;
  return wb_tensor_new_view (tensor, tensor->dtype, rank, shape, strides, tensor->offset);
}

WbTensor *
wb_tensor_reshape (WbTensor *tensor, guint rank, const gint64 *shape, GError **error)
{
  gint64    numel = 1;
  WbTensor *view;
  g_autoptr (WbTensor) copy = NULL;

  if (rank > WB_MAX_RANK)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "reshape to rank %u", rank);
      return NULL;
    }
  for (guint d = 0; d < rank; d++)
    {
      if (shape[d] < 0)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "reshape: dim %u is %" G_GINT64_FORMAT, d, shape[d]);
          return NULL;
        }
      numel *= shape[d];
    }
  if (numel != wb_tensor_numel (tensor))
    {
      g_autofree char *from = wb_tensor_shape_to_string (tensor);
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "reshape of %s (%" G_GINT64_FORMAT " elements) to %" G_GINT64_FORMAT " elements",
                   from, wb_tensor_numel (tensor), numel);
      return NULL;
    }
  view = wb_tensor_try_view (tensor, rank, shape);
  if (view != NULL)
    return view;
  copy = wb_tensor_contiguous (tensor, error);
  if (copy == NULL)
    return NULL;
  return wb_tensor_try_view (copy, rank, shape);
}

/* -- copies ----------------------------------------------------------------------------------- */

/* Rows are cut into chunks of COPY_CHUNK elements so that one long row (a contiguous tensor coalesces
 * into a single row) still spreads over the threads. */
#define COPY_CHUNK 32768

typedef struct
{
  WbStridedIter   it;
  WbTensor       *dst;
  const WbTensor *src;
  gint64          chunks_per_row;
} CopyJob;

static void
copy_rows (gint64 begin, gint64 end, gpointer data)
{
  CopyJob *job = data;
  gint64   off[2];
  gint64   ds = job->it.strides[0][job->it.rank - 1], ss = job->it.strides[1][job->it.rank - 1];

  for (gint64 item = begin; item < end; item++)
    {
      gint64 r = item / job->chunks_per_row, start = (item % job->chunks_per_row) * COPY_CHUNK;
      gint64 n = MIN (COPY_CHUNK, job->it.row_len - start);
      _wb_strided_iter_offsets (&job->it, r, off);
      _wb_convert_row (_wb_elem_ptr (job->dst, job->dst->offset + off[0] + start * ds), job->dst->dtype, ds,
                       _wb_elem_ptr (job->src, job->src->offset + off[1] + start * ss), job->src->dtype, ss, (gsize) n);
    }
}

gboolean
wb_tensor_copy_into (WbTensor *dst, const WbTensor *src, GError **error)
{
  CopyJob       job;
  const gint64 *strides[2];
  gint64        sstrides[WB_MAX_RANK];

  if (src->rank > dst->rank)
    goto mismatch;
  /* align src to the right, broadcasting size-1 / missing dims with stride 0 */
  for (guint d = 0; d < dst->rank; d++)
    {
      int sd = (int) d - (int) (dst->rank - src->rank);
      if (sd < 0)
        sstrides[d] = 0;
      else if (src->shape[sd] == dst->shape[d])
        sstrides[d] = src->strides[sd];
      else if (src->shape[sd] == 1)
        sstrides[d] = 0;
      else
        goto mismatch;
    }
  if (!_wb_dtype_is_supported (dst->dtype) || !_wb_dtype_is_supported (src->dtype))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "copy between %s and %s is not supported",
                   wb_dtype_shortname (src->dtype), wb_dtype_shortname (dst->dtype));
      return FALSE;
    }
  strides[0] = dst->strides;
  strides[1] = sstrides;
  _wb_strided_iter_init (&job.it, dst->rank, dst->shape, 2, strides);
  job.dst = dst;
  job.src = src;
  job.chunks_per_row = MAX (1, (job.it.row_len + COPY_CHUNK - 1) / COPY_CHUNK);
  _wb_parallel_for (job.it.n_rows * job.chunks_per_row, MAX (1, 65536 / MAX (MIN (job.it.row_len, COPY_CHUNK), 1)),
                    copy_rows, &job);
  return TRUE;

mismatch:
  {
    g_autofree char *a = wb_tensor_type_to_string (src);
    g_autofree char *b = wb_tensor_type_to_string (dst);
    g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                 "cannot copy %s into %s: shapes differ", a, b);
    return FALSE;
  }
}

WbTensor *
wb_tensor_contiguous (WbTensor *tensor, GError **error)
{
  g_autoptr (WbTensor) out = NULL;

  if (wb_tensor_is_contiguous (tensor))
    return wb_tensor_ref (tensor);
  out = wb_tensor_new_like (tensor, error);
  if (out == NULL || !wb_tensor_copy_into (out, tensor, error))
    return NULL;
  return g_steal_pointer (&out);
}

WbTensor *
wb_tensor_to_dtype (WbTensor *tensor, WbDtype dtype, GError **error)
{
  g_autoptr (WbTensor) out = wb_tensor_new (dtype, tensor->rank, tensor->shape, error);

  if (out == NULL || !wb_tensor_copy_into (out, tensor, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* -- element access --------------------------------------------------------------------------- */

gint64
wb_tensor_offset_of (const WbTensor *tensor, gint64 i)
{
  gint64 off = tensor->offset;

  for (int d = (int) tensor->rank - 1; d >= 0; d--)
    {
      gint64 n = tensor->shape[d];
      off += (i % n) * tensor->strides[d];
      i /= n;
    }
  return off;
}

double
wb_tensor_get_f64 (const WbTensor *tensor, gint64 i)
{
  double v;

  _wb_load_f64 (&v, _wb_elem_ptr (tensor, wb_tensor_offset_of (tensor, i)), tensor->dtype, 1, 1);
  return v;
}

gint64
wb_tensor_get_i64 (const WbTensor *tensor, gint64 i)
{
  gint64 v;

  _wb_load_i64 (&v, _wb_elem_ptr (tensor, wb_tensor_offset_of (tensor, i)), tensor->dtype, 1, 1);
  return v;
}

void
wb_tensor_set_f64 (WbTensor *tensor, gint64 i, double value)
{
  void *p = _wb_elem_ptr (tensor, wb_tensor_offset_of (tensor, i));

  if (_wb_dtype_class (tensor->dtype) == WB_CLASS_I64 && tensor->dtype != WB_DTYPE_BOOL8)
    {
      gint64 v = (gint64) value;
      _wb_store_i64 (p, tensor->dtype, 1, &v, 1);
    }
  else
    _wb_store_f64 (p, tensor->dtype, 1, &value, 1);
}

/* -- dense conversion ------------------------------------------------------------------------ */

typedef struct
{
  const WbTensor *src;
  WbTensor       *dst;
  gint64          span;
} DenseJob;

static void
dense_chunks (gint64 begin, gint64 end, gpointer data)
{
  DenseJob *job = data;
  gint64    chunk = 1 << 16;

  for (gint64 c = begin; c < end; c++)
    {
      gint64 start = c * chunk, n = MIN (chunk, job->span - start);
      _wb_convert_row (_wb_elem_ptr (job->dst, start), job->dst->dtype, 1,
                       _wb_elem_ptr (job->src, job->src->offset + start), job->src->dtype, 1, (gsize) n);
    }
}

WbTensor *
_wb_tensor_convert_dense (WbTensor *t, WbDtype dtype, GError **error)
{
  guint     order[WB_MAX_RANK], n = 0;
  gint64    expect = 1, numel = wb_tensor_numel (t);
  gboolean  dense = TRUE;
  DenseJob  job;
  WbTensor *out;

  for (guint d = 0; d < t->rank; d++)
    if (t->shape[d] != 1)
      order[n++] = d;
  /* innermost first: sort the non-trivial dims by stride, ascending */
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && t->strides[order[j]] < t->strides[order[j - 1]]; j--)
      {
        guint tmp = order[j];
        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
  for (guint i = 0; i < n && dense; i++)
    {
      if (t->strides[order[i]] != expect)
        dense = FALSE;
      expect *= t->shape[order[i]];
    }
  if (!dense || numel == 0 || wb_tensor_is_contiguous (t))
    return wb_tensor_to_dtype (t, dtype, error);
  out = wb_tensor_new (dtype, 1, &numel, error);
  if (out == NULL)
    return NULL;
  job.src = t;
  job.dst = out;
  job.span = numel;
  _wb_parallel_for ((numel + (1 << 16) - 1) >> 16, 1, dense_chunks, &job);
  {
    WbTensor *view = wb_tensor_new_view (out, dtype, t->rank, t->shape, t->strides, 0);
    wb_tensor_unref (out);
    return view;
  }
}
