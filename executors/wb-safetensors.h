/* wb-safetensors.h — a safetensors file: named tensors plus string metadata (WbSafetensors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Format (huggingface/safetensors): an 8-byte little-endian header length N, N bytes of JSON
 * {"__metadata__": {"k": "v"}, "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}},
 * then the raw little-endian, row-major data; offsets are relative to the end of the header. dtypes:
 * F64 F32 BF16 F16 I64 I32 I16 I8 U8 BOOL. Reading checks every offset and size against the file and
 * the shape. Writing puts tensors in insertion order, contiguous, with the header padded by spaces to a
 * multiple of 8 bytes. Assumes a little-endian host (x86-64, aarch64). */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-tensor.h"

G_BEGIN_DECLS

typedef struct _WbSafetensors WbSafetensors;

/* wb_safetensors_new: (transfer full) an empty set. */
WbSafetensors *wb_safetensors_new (void);
/* wb_safetensors_load: (transfer full) the tensors of @path, or NULL with WB_EXECUTOR_ERROR_IO
 * ("PATH: ...") when the file cannot be read or is malformed, WB_EXECUTOR_ERROR_UNSUPPORTED for a dtype
 * the runtime does not store. */
WbSafetensors *wb_safetensors_load (const char *path, GError **error);
/* wb_safetensors_save: writes @st to @path (atomically: a temporary file then rename). */
gboolean wb_safetensors_save (const WbSafetensors *st, const char *path, GError **error);
void     wb_safetensors_free (WbSafetensors *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbSafetensors, wb_safetensors_free)

/* wb_safetensors_add: adds or replaces @name with a reference to @tensor. */
void wb_safetensors_add (WbSafetensors *st, const char *name, WbTensor *tensor);
/* wb_safetensors_lookup: (transfer none) the tensor @name, or NULL. */
WbTensor *wb_safetensors_lookup (const WbSafetensors *st, const char *name);
guint     wb_safetensors_get_n (const WbSafetensors *st);
/* wb_safetensors_get_name / get_tensor: entry @i in file (or insertion) order (transfer none). */
const char *wb_safetensors_get_name (const WbSafetensors *st, guint i);
WbTensor   *wb_safetensors_get_tensor (const WbSafetensors *st, guint i);
/* __metadata__ entries: (transfer none) value or NULL; set copies both strings. */
const char *wb_safetensors_get_metadata (const WbSafetensors *st, const char *key);
void        wb_safetensors_set_metadata (WbSafetensors *st, const char *key, const char *value);

/* wb_safetensors_dtype_name: "F32" for f32 ... (transfer none); NULL for a dtype the format lacks here. */
const char *wb_safetensors_dtype_name (WbDtype dtype);

G_END_DECLS
