/* wb-tensor.h — a strided view of reference-counted storage: dtype, shape, strides, offset (WbTensor)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: element (i0, ..., i{r-1}) lives at data + (offset + sum_k i_k * strides[k]) * elsize, with
 * strides and offset in elements (not bytes), strides >= 0 (0 for broadcast dims). Storage is owned by
 * a refcounted buffer shared by every view of it, so reshape/transpose/broadcast/slice views cost no
 * copy; writing through one view (copy_) is seen by all of them, as in PyTorch. Storage is 64-byte
 * aligned, host memory. Element types: every WbDtype of 8, 16, 32 or 64 bits; kernels handle f64 f32
 * bf16 f16 i64 i32 i16 i8 ui8 b8 (b8 is one byte, 0 or 1).
 * Threads: a tensor may be read from several threads; refcounting is atomic. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-compiler.h"

G_BEGIN_DECLS

typedef struct _WbStorage WbStorage;
typedef struct _WbTensor  WbTensor;

/* WbTensor: fields are read-only for users; kernels fill new tensors' data through wb_tensor_get_data. */
struct _WbTensor
{
  /*< private >*/
  gint       ref_count;
  WbStorage *storage;
  /*< public >*/
  WbDtype  dtype;
  WbDevice device; /* where the data lives: always cpu for now */
  guint    rank;   /* 0 for a 0-d tensor (one element) */
  gint64   shape[WB_MAX_RANK];
  gint64   strides[WB_MAX_RANK]; /* elements */
  gint64   offset;               /* elements from the storage start */
};

/* wb_tensor_new: (transfer full) a contiguous tensor of @dtype and @shape, contents uninitialised.
 * Returns NULL (and sets @error, WB_EXECUTOR_ERROR_OUT_OF_MEMORY) when the buffer cannot be allocated
 * or the size overflows. */
WbTensor *wb_tensor_new (WbDtype       dtype,
                         guint         rank,
                         const gint64 *shape,
                         GError      **error);
/* wb_tensor_new_zeros: as wb_tensor_new, filled with zeros. */
WbTensor *wb_tensor_new_zeros (WbDtype       dtype,
                               guint         rank,
                               const gint64 *shape,
                               GError      **error);
/* wb_tensor_new_like: (transfer full) a contiguous, uninitialised tensor of @src's dtype and shape. */
WbTensor *wb_tensor_new_like (const WbTensor *src,
                              GError        **error);
/* wb_tensor_new_scalar: (transfer full) a 0-d tensor of @dtype holding @value (converted as a cast). */
WbTensor *wb_tensor_new_scalar (WbDtype dtype,
                                double  value);
/* wb_tensor_new_external: (transfer full) a contiguous tensor over memory the caller allocated, such as
 * device memory of the CUDA runtime (executors/cuda/): @data is the storage's first byte (for a device
 * tensor an address that must never be dereferenced on the host), @destroy (@destroy_data) runs once when
 * the last view is gone. Views (wb_tensor_new_view, permute, slice, ...) work on it as on host tensors. */
WbTensor *wb_tensor_new_external (WbDtype         dtype,
                                  const WbDevice *device,
                                  guint           rank,
                                  const gint64   *shape,
                                  gpointer        data,
                                  gsize           nbytes,
                                  GDestroyNotify  destroy,
                                  gpointer        destroy_data);
/* wb_tensor_get_external_data: (transfer none) (nullable) the @destroy_data of the external storage under @t
 * and every view of it (wb_tensor_new_external), or NULL for a tensor over memory of its own. */
gpointer wb_tensor_get_external_data (const WbTensor *t);
/* wb_tensor_new_view: (transfer full) a view of @base's storage with the given layout; no check that
 * it stays inside the storage beyond g_return_val_if_fail (kernels compute valid layouts). */
WbTensor *wb_tensor_new_view (const WbTensor *base,
                              WbDtype         dtype,
                              guint           rank,
                              const gint64   *shape,
                              const gint64   *strides,
                              gint64          offset);
WbTensor *wb_tensor_ref (WbTensor *tensor);
void      wb_tensor_unref (WbTensor *tensor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbTensor, wb_tensor_unref)

/* WbTensorStorageHooks: a diagnostic view of storage lifetimes (host and external alike): @allocated when a
 * storage of @nbytes is made (before any tensor shows it), @freed when its last view is gone (before its
 * memory is freed or cached). @storage is the identity wb_tensor_get_storage_id gives its views; an identity
 * may come again after its @freed. Called on the thread that makes or drops the storage, with @data. */
typedef struct
{
  void (*allocated) (gconstpointer storage, gsize nbytes, gpointer data);
  void (*freed) (gconstpointer storage, gpointer data);
} WbTensorStorageHooks;
/* wb_tensor_set_storage_hooks: (nullable) @hooks (transfer none: kept until replaced) for every storage made
 * or dropped from now on, process-wide; NULL turns them off. Not to be changed while another thread makes or
 * drops tensors (tests and tools that watch one run: tests/executors/test-memory-plan-run.c). */
void wb_tensor_set_storage_hooks (const WbTensorStorageHooks *hooks,
                                  gpointer                    data);
/* wb_tensor_get_storage_id: (transfer none) the identity of @tensor's storage, shared by all its views */
gconstpointer wb_tensor_get_storage_id (const WbTensor *tensor);

/* wb_tensor_numel: number of elements (1 for 0-d, 0 when a dim is 0). */
gint64 wb_tensor_numel (const WbTensor *tensor);
/* wb_tensor_nbytes: numel * element size. */
gint64 wb_tensor_nbytes (const WbTensor *tensor);
/* wb_tensor_get_data: (transfer none) address of element (0, ..., 0). */
gpointer wb_tensor_get_data (const WbTensor *tensor);
/* wb_tensor_is_contiguous: row-major with no gaps (size-1 dims may have any stride). */
gboolean wb_tensor_is_contiguous (const WbTensor *tensor);
/* wb_tensor_shares_storage: TRUE when @a and @b are views of the same buffer. */
gboolean wb_tensor_shares_storage (const WbTensor *a,
                                   const WbTensor *b);
/* wb_tensor_get_type: the tensor's type as a WbType (device as given, weak FALSE) into @out. */
void wb_tensor_get_type (const WbTensor *tensor,
                         WbType         *out);
/* wb_tensor_shape_to_string: "[2, 3]" (transfer full). wb_tensor_type_to_string: "cpu f32[2, 3]". */
char *wb_tensor_shape_to_string (const WbTensor *tensor);
char *wb_tensor_type_to_string (const WbTensor *tensor);

/* Views (transfer full; they share storage; NULL with @error on bad arguments). */
/* wb_tensor_permute: dims reordered: result dim i is source dim @perm[i]. */
WbTensor *wb_tensor_permute (WbTensor     *tensor,
                             const gint64 *perm,
                             GError      **error);
/* wb_tensor_broadcast_in_dim: result of @rank dims @shape; source dim i becomes result dim @bdims[i]
 * (size equal, or 1 -> stride 0); other result dims get stride 0. */
WbTensor *wb_tensor_broadcast_in_dim (WbTensor     *tensor,
                                      guint         rank,
                                      const gint64 *shape,
                                      const gint64 *bdims,
                                      GError      **error);
/* wb_tensor_slice: per dim [start, end) with step (>= 1); bounds are clamped as Python does not: a
 * start or end outside [0, size] is an error. @steps may be NULL (all 1). */
WbTensor *wb_tensor_slice (WbTensor     *tensor,
                           const gint64 *starts,
                           const gint64 *ends,
                           const gint64 *steps,
                           GError      **error);
/* wb_tensor_view_as: a view with @shape when the strides allow it (a contiguous tensor always does),
 * else NULL without error. @shape must have the same numel. */
WbTensor *wb_tensor_try_view (WbTensor     *tensor,
                              guint         rank,
                              const gint64 *shape);
/* wb_tensor_reshape: a view when possible, otherwise a contiguous copy. -1 is not accepted. */
WbTensor *wb_tensor_reshape (WbTensor     *tensor,
                             guint         rank,
                             const gint64 *shape,
                             GError      **error);

/* Copies. */
/* wb_tensor_contiguous: @tensor itself (a new reference) when contiguous, else a contiguous copy. */
WbTensor *wb_tensor_contiguous (WbTensor *tensor,
                                GError  **error);
/* wb_tensor_to_dtype: a contiguous copy converted to @dtype (bf16/f16 rounded to nearest even, floats to
 * ints truncated toward zero, anything to b8 as != 0). */
WbTensor *wb_tensor_to_dtype (WbTensor *tensor,
                              WbDtype   dtype,
                              GError  **error);
/* wb_tensor_copy_into: element-wise @dst = @src converted to dst's dtype; shapes must be equal (@src
 * may broadcast with stride 0). @dst may be non-contiguous. */
gboolean wb_tensor_copy_into (WbTensor       *dst,
                              const WbTensor *src,
                              GError        **error);

/* Element access for tests, comparisons and small loops (slow: one element at a time). */
/* wb_tensor_get_f64: element with row-major linear index @i as a double. */
double wb_tensor_get_f64 (const WbTensor *tensor,
                          gint64          i);
/* wb_tensor_get_i64: element @i as an int64 (floats truncated). */
gint64 wb_tensor_get_i64 (const WbTensor *tensor,
                          gint64          i);
/* wb_tensor_set_f64: stores @value into element @i (converted, rounded for bf16/f16). */
void wb_tensor_set_f64 (WbTensor *tensor,
                        gint64    i,
                        double    value);
/* wb_tensor_offset_of: storage offset (elements) of row-major linear index @i. */
gint64 wb_tensor_offset_of (const WbTensor *tensor,
                            gint64          i);

G_END_DECLS
