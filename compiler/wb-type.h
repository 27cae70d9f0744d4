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
/* Highest number of dims of a DTensor's device mesh the IR represents (a larger mesh is kept verbatim). */
#define WB_MAX_MESH_RANK 4

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
  WB_TYPE_DTENSOR,       /* "DTensor cuda:0 f32[4, 16, 256] mesh=DeviceMesh((2,), 'cuda', stride=(1,)),
                            placements=(Shard(dim=2),)": shape is the global one (WbDtensorSpec) */
} WbTypeKind;

/* How a DTensor is laid out over one dim of its mesh (torch/distributed/tensor/placement_types.py). */
typedef enum
{
  WB_PLACEMENT_REPLICATE = 1, /* "Replicate()": every rank holds the whole tensor */
  WB_PLACEMENT_SHARD,         /* "Shard(dim=d)": rank i holds chunk i of dim d (torch.chunk sizes) */
  WB_PLACEMENT_PARTIAL,       /* "Partial(sum)": the tensor is the reduction of the ranks' local tensors */
} WbPlacementKind;

/* The reduction of a Partial placement: Partial.reduce_op, a c10d reduce op's name. */
typedef enum
{
  WB_PARTIAL_SUM = 1,
  WB_PARTIAL_AVG,
  WB_PARTIAL_MAX,
  WB_PARTIAL_MIN,
  WB_PARTIAL_PRODUCT,
} WbPartialOp;

typedef struct
{
  guint8 kind; /* WbPlacementKind */
  guint8 dim;  /* WB_PLACEMENT_SHARD: the tensor dim, 0 .. rank-1 */
  guint8 op;   /* WB_PLACEMENT_PARTIAL: WbPartialOp */
} WbPlacement;

/* WbDtensorSpec: a DTensor's mesh and placements (one per mesh dim). The mesh is printed as its repr,
 * kept verbatim at bytes [mesh_offset, mesh_offset + mesh_len) of the type's @text. */
typedef struct
{
  guint8      mesh_rank;                    /* dims of the mesh = number of placements, 1..WB_MAX_MESH_RANK */
  gint32      mesh_shape[WB_MAX_MESH_RANK]; /* ranks along each mesh dim */
  WbPlacement placements[WB_MAX_MESH_RANK];
  guint16     mesh_offset, mesh_len;
} WbDtensorSpec;

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
  WbDtensorSpec dtensor;     /* WB_TYPE_DTENSOR (with dtype, device, rank and the global shape); @text then
                                holds the mesh's repr (see WbDtensorSpec) */
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

/* wb_type_is_tensor: a tensor or a future tensor (not a DTensor: its value is its local tensor only
 * through dtensor_to_local). */
gboolean wb_type_is_tensor (const WbType *type);

/* wb_placement_parse: reads one placement's repr ("Replicate()", "Shard(dim=2)", "Partial(sum)"; the
 * reductions sum, avg, max, min, product) from exactly @len bytes of @s; FALSE for anything else
 * (_StridedShard, _MaskPartial, ...). */
gboolean wb_placement_parse (const char *s, gsize len, WbPlacement *out);
/* wb_placement_append: appends a placement's repr, as torch prints it. */
void wb_placement_append (const WbPlacement *p, GString *out);
/* wb_placement_equal: same kind and, for Shard, dim, for Partial, reduction. */
gboolean wb_placement_equal (const WbPlacement *a, const WbPlacement *b);
/* wb_partial_op_to_string: "sum", "avg", "max", "min", "product"; "?" (transfer none). */
const char *wb_partial_op_to_string (WbPartialOp op);

/* wb_dtensor_shard_size: the size on mesh coordinate @coord (0 <= coord < @n_ranks) of a dim of @size
 * split as torch.chunk does (Shard._local_shard_size_and_offset): chunks of ceil(size / n_ranks), the
 * last ones smaller or empty; @offset (may be NULL) gets where the chunk starts. */
gint64 wb_dtensor_shard_size (gint64 size, gint64 n_ranks, gint64 coord, gint64 *offset);
/* wb_type_dtensor_local: the local tensor's type of DTensor type @dt on the rank at mesh coordinates
 * @coord (one per mesh dim; NULL: coordinate 0 everywhere): Shard(d) over a mesh dim of n ranks gives
 * dim d's chunk (applied mesh dim by mesh dim, as torch's compute_local_shape_and_global_offset);
 * Replicate and Partial keep the shape. @out is a WB_TYPE_TENSOR. FALSE unless @dt is a DTensor. */
gboolean wb_type_dtensor_local (const WbType *dt, const gint64 *coord, WbType *out);
/* wb_type_dtensor_mesh_coord: the coordinates of global rank @rank in @dt's mesh (row-major, the
 * mesh holding ranks 0 .. numel-1 as init_device_mesh makes it) into @coord (mesh_rank values). */
void wb_type_dtensor_mesh_coord (const WbType *dt, gint64 rank, gint64 *coord);

G_END_DECLS
