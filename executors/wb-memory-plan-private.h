/* wb-memory-plan-private.h — what a call's outputs are to the static memory plan (wb-memory-plan-kinds.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-memory-plan.h"

G_BEGIN_DECLS

typedef enum
{
  WB_MEMORY_KIND_FRESH = 0, /* outputs are new tensors */
  WB_MEMORY_KIND_ALIAS,     /* outputs share argument @src's storage */
  WB_MEMORY_KIND_MAYBE,     /* a new tensor, or a view of argument @src (same-dtype conversions, reductions over dims of extent 1) */
  WB_MEMORY_KIND_EXTERNAL,  /* outputs come from outside the step (cotangents, collectives, collections) */
} WbMemoryCallKind;

/* _wb_memory_plan_classify: what call @b's outputs are (@types: name -> WbType of the program's traces); for
 * WB_MEMORY_KIND_ALIAS and WB_MEMORY_KIND_MAYBE, @src: the argument value whose storage they (may) share
 * (a tuple for update_aliases: item by item) */
WbMemoryCallKind _wb_memory_plan_classify (const WbBsym *b, GHashTable *types, const WbValue **src);
/* _wb_memory_plan_classify_output: what output @name of a call @b with subsymbols (a fusion region) is,
 * by the subsymbols that define it: a view (WB_MEMORY_KIND_ALIAS) or a same-dtype conversion
 * (WB_MEMORY_KIND_MAYBE) of one of the call's arguments or of another of its outputs, through a chain of
 * such subsymbols, sets @src to that name (a string of the trace); else WB_MEMORY_KIND_FRESH. An executor
 * answers such an output with a view of the argument or of its own output (wb-cuda-codegen-outputs.c). */
WbMemoryCallKind _wb_memory_plan_classify_output (const WbBsym *b, const char *name, GHashTable *types, const char **src);
/* _wb_memory_plan_add_region_types: the annotated types of the first-level subsymbols of @trace's calls into
 * @types (name -> WbType, owned copies), where the trace's own have none of that name */
void _wb_memory_plan_add_region_types (GHashTable *types, const WbTrace *trace);

G_END_DECLS
