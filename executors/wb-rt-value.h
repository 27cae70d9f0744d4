/* wb-rt-value.h — a value while a trace runs: tensor, number, string, None, tuple/list/dict, dtype, device
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The interpreter's environment maps proxy names to WbRtValues. Values are reference-counted and, except
 * lists and dicts, immutable; a list is mutable because clear_mutable_collection empties Thunder's
 * saved-for-backward collections. An OPAQUE value stands for a Python object the workbench does not
 * model (a module, `torch.strided`, a memory format): it can be passed around and compared by name only.
 * Threads: not thread-safe; one run uses its values from one thread. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-tensor.h"

G_BEGIN_DECLS

typedef enum
{
  WB_RT_NONE = 1,
  WB_RT_BOOL,   /* b */
  WB_RT_INT,    /* i */
  WB_RT_FLOAT,  /* f */
  WB_RT_STRING, /* s (owned) */
  WB_RT_TENSOR, /* tensor (owned reference) */
  WB_RT_TUPLE,  /* items */
  WB_RT_LIST,   /* items (mutable) */
  WB_RT_DICT,   /* items: key0, value0, key1, value1, ... */
  WB_RT_DTYPE,  /* dtype (weak in b) */
  WB_RT_DEVICE, /* device */
  WB_RT_SLICE,  /* items: start, stop, step (NONE or INT) */
  WB_RT_ELLIPSIS,
  WB_RT_OPAQUE, /* s: a description ("module", "torch.strided") */
} WbRtKind;

typedef struct _WbRtValue WbRtValue;

struct _WbRtValue
{
  /*< private >*/
  gint ref_count;
  /*< public >*/
  WbRtKind   kind;
  gboolean   b;
  gint64     i;
  double     f;
  char      *s;
  WbTensor  *tensor;
  GPtrArray *items; /* (element-type WbRtValue) (owned) */
  WbDtype    dtype;
  WbDevice   device;
};

WbRtValue *wb_rt_value_ref (WbRtValue *value);
void       wb_rt_value_unref (WbRtValue *value);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRtValue, wb_rt_value_unref)

/* Constructors: (transfer full). wb_rt_value_new_tensor takes a new reference to @tensor. */
WbRtValue *wb_rt_value_new_none (void);
WbRtValue *wb_rt_value_new_bool (gboolean value);
WbRtValue *wb_rt_value_new_int (gint64 value);
WbRtValue *wb_rt_value_new_float (double value);
WbRtValue *wb_rt_value_new_string (const char *value);
WbRtValue *wb_rt_value_new_tensor (WbTensor *tensor);
/* wb_rt_value_take_tensor: wraps @tensor, taking ownership of the caller's reference. */
WbRtValue *wb_rt_value_take_tensor (WbTensor *tensor);
WbRtValue *wb_rt_value_new_dtype (WbDtype dtype, gboolean weak);
WbRtValue *wb_rt_value_new_device (const WbDevice *device);
WbRtValue *wb_rt_value_new_opaque (const char *description);
WbRtValue *wb_rt_value_new_ellipsis (void);
/* wb_rt_value_new_sequence: an empty TUPLE, LIST, DICT or SLICE; append with wb_rt_value_append. */
WbRtValue *wb_rt_value_new_sequence (WbRtKind kind);
/* wb_rt_value_append: appends @item (transfer full) to a sequence. */
void wb_rt_value_append (WbRtValue *seq, WbRtValue *item);

/* wb_rt_value_is_sequence: TUPLE or LIST. */
gboolean wb_rt_value_is_sequence (const WbRtValue *value);
/* wb_rt_value_is_number: BOOL, INT or FLOAT. */
gboolean wb_rt_value_is_number (const WbRtValue *value);
/* wb_rt_value_get_number: a number as a double (BOOL as 0/1); FALSE for anything else. */
gboolean wb_rt_value_get_number (const WbRtValue *value, double *out);
/* wb_rt_value_get_int: INT or BOOL; FALSE for anything else (a FLOAT with an integral value too). */
gboolean wb_rt_value_get_int (const WbRtValue *value, gint64 *out);
/* wb_rt_value_get_n_items / get_item: sequence length and (transfer none) element @i. */
guint      wb_rt_value_get_n_items (const WbRtValue *value);
WbRtValue *wb_rt_value_get_item (const WbRtValue *value, guint i);
/* wb_rt_value_dict_lookup: (transfer none) the value of STRING key @key in a DICT, or NULL. */
WbRtValue *wb_rt_value_dict_lookup (const WbRtValue *dict, const char *key);
/* wb_rt_value_kind_to_string: "tensor", "int", "tuple", ... (transfer none). */
const char *wb_rt_value_kind_to_string (WbRtKind kind);
/* wb_rt_value_describe: a short description for messages: "cpu f32[2, 3]", "int 4", "tuple of 3"
 * (transfer full). */
char *wb_rt_value_describe (const WbRtValue *value);

/* wb_rt_value_array_new: an empty array that owns its values (element-type WbRtValue) (transfer full). */
GPtrArray *wb_rt_value_array_new (void);

/* wb_rt_value_count_nan: the number of NaN elements in the floating host tensors of @value (a tensor, or
 * sequences of them, recursively); device tensors, non-float tensors and numbers count 0. Reads every
 * element (the --detect-nan check of a run), converting bf16/f16 to f32 on the fly. */
gint64 wb_rt_value_count_nan (const WbRtValue *value);

/* wb_tensor_basic_index_view: (transfer full) the view of @tensor (host or device) that basic indexing by @key
 * selects, sharing its storage: @key an int, a slice, an Ellipsis or a tuple/list of them (ints may be negative,
 * slices are clamped as Python's slice.indices() and need positive steps). NULL with WB_EXECUTOR_ERROR_BAD_ARGUMENT
 * (an int out of range, more indices than dims) or _UNSUPPORTED (a tensor or None in the key, a step <= 0). */
WbTensor *wb_tensor_basic_index_view (WbTensor        *tensor,
                                      const WbRtValue *key,
                                      GError         **error);

G_END_DECLS
