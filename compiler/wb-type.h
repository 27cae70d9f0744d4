/* wb-type.h — the type of a proxy, as in a type comment ("cuda:0 f32[2, 8]", "int 4", "Collection")
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-dtype.h"

G_BEGIN_DECLS

/* Highest tensor rank the IR represents; a higher rank is a parse error (WB_TRACE_ERROR_UNSUPPORTED). */
#define WB_MAX_RANK 8

typedef enum
{
  WB_TYPE_UNKNOWN = 0,   /* no annotation (older print format, list outputs) */
  WB_TYPE_TENSOR,        /* "cuda:0 f32[2, 8]" */
  WB_TYPE_FUTURE_TENSOR, /* "FUTURE cuda:0 f32[2, 8]" */
  WB_TYPE_INT,           /* "int 4", "int ?" */
  WB_TYPE_BOOL,          /* "bool True" */
  WB_TYPE_FLOAT,         /* "float 1e-05" */
  WB_TYPE_COMPLEX,       /* "complex (1+2j)" */
  WB_TYPE_STR,           /* "str" */
  WB_TYPE_COLLECTION,    /* "Collection" */
  WB_TYPE_TUPLE,         /* "tuple" */
  WB_TYPE_LIST,          /* "list" */
  WB_TYPE_DICT,          /* "dict" */
  WB_TYPE_ANY,           /* "Any" */
  WB_TYPE_OTHER,         /* anything else, kept verbatim ("<class 'torch.dtype'>") */
} WbTypeKind;

/* WbType: a value type. Plain data, copied by value. @text points into the owning trace's arena
 * (or static storage) and is the number's spelling ("4", "?", "True", "1e-05") or, for WB_TYPE_OTHER,
 * the whole comment text. */
typedef struct
{
  WbTypeKind  kind;
  WbDtype     dtype;  /* tensors */
  gboolean    weak;   /* weak dtype (not printed in type comments) */
  WbDevice    device; /* tensors */
  guint       rank;   /* tensors: number of dims, 0 for a 0-d tensor */
  gint64      shape[WB_MAX_RANK];
  gboolean    has_value;   /* numbers: FALSE for "int ?" */
  gint64      int_value;   /* WB_TYPE_INT, WB_TYPE_BOOL (0/1) */
  double      float_value; /* WB_TYPE_FLOAT */
  const char *text;
  gboolean    uninterpreted; /* WB_TYPE_OTHER: an annotation the workbench cannot read, kept verbatim in
                                @text (set by the trace parser, never by wb_type_parse) */
} WbType;

/* wb_type_parse: parses a type-comment string without its quotes, exactly @len bytes of @s.
 * @text_out_storage: where to copy the number spelling; may be NULL, then @text points into @s.
 * Returns FALSE and sets *error_offset (byte offset into @s) when it is not a valid type string;
 * an unknown dtype shortname or device is such an error. Source: thunder/core/proxies.py type_string. */
gboolean wb_type_parse (const char *s, gsize len, WbType *out, gsize *error_offset);
/* wb_type_to_string: appends the type-comment form (no quotes) to @out. */
void wb_type_append (const WbType *type, GString *out);
/* wb_type_to_string: newly allocated type-comment form (transfer full). */
char *wb_type_to_string (const WbType *type);
/* wb_type_equal: same kind, dtype (ignoring weakness), device, shape and, for numbers with values on
 * both sides, the same value. */
gboolean wb_type_equal (const WbType *a, const WbType *b);
/* wb_type_numel: number of elements of a tensor type (1 for 0-d); G_MAXINT64 when that overflows and
 * 0 for a negative dimension (see wb_type_check_shape()). */
gint64 wb_type_numel (const WbType *type);
/* wb_type_nbytes: bytes of a tensor type's elements (numel * dtype size), 0 for non-tensors;
 * G_MAXINT64 when that overflows. */
gint64 wb_type_nbytes (const WbType *type);
/* wb_pool_output_size: the size of one pooled spatial dim (max or average pooling, and their backward): ATen's
 * pooling_output_shape (aten/src/ATen/native/Pool.h), floor (or with @ceil_mode ceil) division, a last window
 * having to start inside the input or its left padding. Sizes and @stride, @dilation >= 1 in elements; may be
 * <= 0 when the window does not fit (the caller refuses that). */
gint64 wb_pool_output_size (gint64 in, gint64 kernel, gint64 padding, gint64 stride, gint64 dilation, gboolean ceil_mode);

/* wb_type_check_shape: the one rule for shapes that cannot exist: FALSE when a tensor type has a
 * negative dimension or its element count or byte size overflows 64 bits, with *@why (transfer full,
 * may be NULL) saying which. Any other type is TRUE. The verifier reports such an annotation. */
gboolean wb_type_check_shape (const WbType *type, char **why);
/* wb_type_init_tensor: fills @out as a tensor of @dtype on @device with @rank dims of @shape. */
void wb_type_init_tensor (WbType *out, WbDtype dtype, const WbDevice *device, guint rank, const gint64 *shape);

G_END_DECLS
