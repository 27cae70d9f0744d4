/* wb-executor-info.h — what each executor claims, for planning before any executor runs
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-symbol.h"

G_BEGIN_DECLS

typedef enum
{
  WB_EXECUTOR_KIND_OPERATOR = 1, /* claims one bound symbol and runs it as one op */
  WB_EXECUTOR_KIND_FUSION,       /* absorbs runs of fusible bound symbols into regions */
} WbExecutorKind;

typedef enum
{
  WB_EXECUTOR_ID_NONE = 0,
#define WB_EXECUTOR_INFO(id, name, kind, thunder, prefix, desc) WB_EXECUTOR_ID_##id,
#include "wb-executor-info.def"
#undef WB_EXECUTOR_INFO
  WB_N_EXECUTOR_IDS
} WbExecutorId;

typedef struct _WbExecutorInfo WbExecutorInfo;

/* wb_executor_info_lookup: the executor called @name ("nvrtc", "torchcompile"); NULL if none. (transfer none) */
const WbExecutorInfo *wb_executor_info_lookup (const char *name);
/* wb_executor_info_get: (transfer none) the executor @id. */
const WbExecutorInfo *wb_executor_info_get (WbExecutorId id);
WbExecutorId          wb_executor_info_get_id (const WbExecutorInfo *info);
const char           *wb_executor_info_get_name (const WbExecutorInfo *info);
const char           *wb_executor_info_get_description (const WbExecutorInfo *info);
WbExecutorKind        wb_executor_info_get_kind (const WbExecutorInfo *info);
/* wb_executor_info_is_thunder: one of Thunder's executors (planned with and displayed, never run here). */
gboolean wb_executor_info_is_thunder (const WbExecutorInfo *info);
/* wb_executor_info_get_region_prefix: "nvrtcFusion", "TorchCompile"; NULL for operator executors. */
const char *wb_executor_info_get_region_prefix (const WbExecutorInfo *info);
/* wb_executor_info_for_region: the fusion executor whose regions are named like @region_name
 * ("TorchCompile3" -> torchcompile); NULL if none. */
const WbExecutorInfo *wb_executor_info_for_region (const char *region_name);

/* wb_executor_info_can_take: whether @info takes @bsym: an operator executor claims it as one op; a
 * fusion executor can fuse it (a composite is fusible when each of its subsymbols is, recursively;
 * regions are never fused again). Conditions on dtype, device and shape read the input and output types
 * through @lookup. Returns TRUE, or FALSE with a reason in *why_not such as
 * "cublas: dtype i64 is not supported (f32, bf16, f16 only)" (transfer full; may be NULL). */
gboolean wb_executor_info_can_take (const WbExecutorInfo *info,
                                    const WbBsym         *bsym,
                                    WbTypeLookupFunc      lookup,
                                    gpointer              user_data,
                                    char                **why_not);
/* wb_executor_info_is_utility: bound symbols no executor needs to claim (del, return, unpacking, comments,
 * get_grad, collection handling): the python executor keeps them. */
gboolean wb_executor_info_is_utility (const WbBsym *bsym);

G_END_DECLS
