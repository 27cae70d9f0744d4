/* wb-assignment.h — an assignment: region key -> executor id, parsed once and carried unchanged (WbAssignment)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An assignment is an ordered list of choices KEY=EXECUTOR. KEY names what is assigned:
 *  - a region key, "@" followed by the first output name of the region's first bound symbol
 *    ("@t12"; wb_region_key()). It is stable across re-fusion: unfusing or re-assigning one region
 *    renumbers the regions after it (nvrtcFusion3 becomes nvrtcFusion2) but leaves their contents, and so
 *    their keys, as they were;
 *  - a region's printed name ("nvrtcFusion0", "TorchCompile0"), as the command line has always taken;
 *  - for the profiler, the printed name of other top-level calls ("prims.linear").
 * EXECUTOR is an executor's name, or "unfuse" for the pipeline. Neither contains ',' or '=' and both are
 * valid UTF-8 without leading or trailing blanks. Text that gives one KEY twice is refused (DUPLICATE),
 * as session files always refused it; wb_assignment_set() replaces a choice in place.
 *
 * The text form is the command line's "KEY=EXECUTOR,KEY=EXECUTOR" (blanks around items are ignored,
 * empty items skipped); wb_assignment_to_string() prints it back, so it round-trips. The runner's
 * protocol carries it as a GVariant "a{ss}" in choice order (wb_assignment_to_variant()).
 *
 * Threads: build an assignment on one thread; once shared (wb_assignment_ref) it is read-only and may
 * be read from any thread. */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

#define WB_ASSIGNMENT_ERROR (wb_assignment_error_quark ())
GQuark wb_assignment_error_quark (void);

/* Errors of WB_ASSIGNMENT_ERROR. */
typedef enum
{
  WB_ASSIGNMENT_ERROR_SYNTAX = 1, /* an item is not KEY=EXECUTOR (names the item) */
  WB_ASSIGNMENT_ERROR_DUPLICATE,  /* the text gives one key twice (names the key) */
} WbAssignmentError;

/* WbAssignmentChoice: one choice; both strings belong to the assignment. */
typedef struct
{
  const char *key;      /* "@t12", "nvrtcFusion0" or "prims.linear" */
  const char *executor; /* "cpu", "nvrtc", "unfuse", ... */
} WbAssignmentChoice;

typedef struct _WbAssignment WbAssignment;

/* wb_assignment_new: (transfer full) an empty assignment. */
WbAssignment *wb_assignment_new (void);
/* wb_assignment_parse: (transfer full) the choices of @spec ("R=E,..."; NULL or "" gives an empty
 * assignment), or NULL with WB_ASSIGNMENT_ERROR_SYNTAX naming the first bad item or _DUPLICATE. */
WbAssignment *wb_assignment_parse (const char *spec, GError **error);
/* wb_assignment_new_from_variant: (transfer full) from the protocol's "a{ss}" (@variant: transfer none),
 * or NULL with WB_ASSIGNMENT_ERROR_SYNTAX when a key or executor is not valid, _DUPLICATE likewise. */
WbAssignment *wb_assignment_new_from_variant (GVariant *variant, GError **error);
WbAssignment *wb_assignment_ref (WbAssignment *assignment);
void          wb_assignment_unref (WbAssignment *assignment);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbAssignment, wb_assignment_unref)

/* wb_assignment_set: adds KEY=EXECUTOR, replacing an earlier choice of @key in place. FALSE with
 * WB_ASSIGNMENT_ERROR_SYNTAX when either is not valid. Only before the assignment is shared. */
gboolean wb_assignment_set (WbAssignment *assignment, const char *key, const char *executor, GError **error);
/* wb_assignment_copy_with: (transfer full) a copy of @assignment (nullable: empty) with KEY=EXECUTOR set;
 * NULL with WB_ASSIGNMENT_ERROR_SYNTAX as wb_assignment_set(). */
WbAssignment *wb_assignment_copy_with (const WbAssignment *assignment, const char *key, const char *executor, GError **error);

guint wb_assignment_get_n_choices (const WbAssignment *assignment);
/* wb_assignment_get_choice: (transfer none) choice @i, in the order given. */
const WbAssignmentChoice *wb_assignment_get_choice (const WbAssignment *assignment, guint i);
gboolean                  wb_assignment_is_empty (const WbAssignment *assignment); /* NULL is empty */
/* wb_assignment_lookup: (transfer none) (nullable) the executor chosen for @key exactly. */
const char *wb_assignment_lookup (const WbAssignment *assignment, const char *key);
/* wb_assignment_lookup_region: (transfer none) (nullable) the executor chosen for the region called
 * @name whose key is @key (nullable): a choice by key wins over one by name. */
const char *wb_assignment_lookup_region (const WbAssignment *assignment, const char *name, const char *key);

/* wb_assignment_to_string: (transfer full) "KEY=EXECUTOR,..." in choice order; "" when empty. */
char *wb_assignment_to_string (const WbAssignment *assignment);
/* wb_assignment_to_variant: (transfer floating) "a{ss}" in choice order (@assignment nullable: empty). */
GVariant *wb_assignment_to_variant (const WbAssignment *assignment);
/* wb_assignment_equal: the same choices in the same order. */
gboolean wb_assignment_equal (const WbAssignment *a, const WbAssignment *b);

/* wb_region_key: (transfer full) (nullable) the stable key of @region (a top-level CALL with
 * subsymbols: a fusion region): "@" + the first output name of its first subsymbol that defines one;
 * NULL when none does. */
char *wb_region_key (const WbBsym *region);
/* wb_call_key: (transfer full) (nullable) the stable key of any top-level call a run times: a region's
 * wb_region_key, else "@" and the call's first output name ("@t40" for `t40 = prims.matmul(...)`): the
 * same call keeps it when regions around it are re-fused, unfused or renumbered. */
char *wb_call_key (const WbBsym *call);
/* wb_trace_get_call_key: (transfer full) (nullable) the key of @call, a top-level call of @trace, through
 * provenance: in a stage a pipeline made (wb-pipeline.h), a region has the key the fusion pass gave it
 * when it formed the region (WbRegion.key), whatever remat and CSE added to its body since (recomputed
 * values come first in a backward region, so its body's first output is another region's); in any other
 * trace, and for any other call, wb_call_key. A call unfused out of a region keeps its own key. */
char *wb_trace_get_call_key (const WbTrace *trace, const WbBsym *call);
/* wb_trace_get_unfused_from: (transfer none) (nullable) in a stage a pipeline made, the key of the region
 * the pipeline's assignment unfused @call (a top-level call of @trace) out of ("@t12=unfuse", or an
 * operator executor chosen for a region); NULL for any other call or trace. */
const char *wb_trace_get_unfused_from (const WbTrace *trace, const WbBsym *call);
/* wb_call_contents: (transfer full) a digest (16 hex digits) of what @call computes: a region's body as a
 * set of "symbol(outputs)", or the call itself. Two runs' calls with one key and another digest are the
 * same region with changed contents (a member unfused out of it, a recomputed value added). */
char *wb_call_contents (const WbBsym *call);
/* wb_trace_find_region: (transfer none) (nullable) the top-level fusion region of @trace whose printed
 * name or key (wb_trace_get_call_key) is @key_or_name. */
const WbBsym *wb_trace_find_region (const WbTrace *trace, const char *key_or_name);

/* wb_assignment_resolve_key: (transfer none) (nullable) the printed name a choice's @key stands for in a
 * program of @n_traces traces (NULL entries skipped): a key "@..." gives the name of the fusion region
 * with that key (NULL when none has it); any other key is itself. */
const char *wb_assignment_resolve_key (const char *key, const WbTrace *const *traces, guint n_traces);

G_END_DECLS
