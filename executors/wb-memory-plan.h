/* wb-memory-plan.h — a static memory plan: every intermediate of a program at an offset in one arena,
 * computed from the traces before the program runs (WbMemoryPlan)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Steps are the program's top-level bound symbols as the interpreter runs them: the forward trace's body,
 * then (TRAINING) the backward's, numbered 0, 1, ... A name lives from the step of the call that defines
 * it to the last step that holds it, both included (a call's inputs and outputs never share bytes): the
 * interpreter's last use (wb-interpreter.c compute_last_uses) over both traces (a tensor saved for the
 * backward lives until its last use there); a name bound and never read after in its trace (an unused
 * output, a saved tensor the backward unpacks and does not read) until that trace's end, where the
 * interpreter drops it; a name the program returns (the forward's outputs and loss, the gradients) until
 * the last step: the caller holds it after that.
 *
 * Buffers: every tensor a top-level call produces, outputs included, except
 *   - outputs that alias an argument: views and aliases (reshape, transpose, permute, expand, slices,
 *     squeeze, shallow_copy, update_aliases, ... by the printed name or the symbol it stands for:
 *     torch_slice_prim_impl is prims.slice_prim) and in-place calls (copy_ writes into its destination,
 *     add_ into its first argument): they join the argument's buffer, whose lifetime grows to cover them;
 *   - what was never allocated by the step: the program's inputs, cotangents, prims.get_grad's values,
 *     collectives' results, and any buffer aliased with one of them (the runtime keeps its ordinary path
 *     for these);
 *   - names without a known tensor type (numbers, collections).
 * A same-dtype conversion (to, type_as, float, ...; not copy=True) is an alias of its argument, and so is a
 * call that is the identity for its shapes (a flip over dims of extent 1, a pad of zero widths, a cat of one
 * tensor: wb_bsym_get_identity_source, the rule by which the cpu executor and the CUDA generator return the
 * argument itself). A clone or
 * contiguous and a sum, prod, amax or amin over dims of extent 1, which an executor may answer with its
 * argument itself or a view of it, have a buffer of their own and keep their argument's buffer alive as long
 * as their own. A region's output that its subsymbols make a view or conversion of an argument or of another
 * of its outputs is that one's alias (or maybe-alias). Outputs of one call with the same size live as long as
 * the longest of them (the runtime matches places by size). Indexing by a tensor is a new tensor.
 *
 * Offsets: the greedy-by-size offset assignment of Pisarchyk & Lee, "Efficient Memory Management for Deep
 * Neural Net Inference" (2020, arXiv:2001.03288), section 4.3, the rule TensorFlow Lite's arena planner
 * (simple_memory_arena.cc) uses: buffers in decreasing size, each at the lowest-waste gap (the smallest that
 * fits) between the buffers already placed whose lifetimes overlap its own, else above the highest of them.
 * Sizes are rounded up to WB_MEMORY_PLAN_ALIGN bytes (what PyTorch's caching allocator rounds to, so the
 * sum of sizes compares with torch.cuda.max_memory_allocated).
 *
 * Pure: no device, no allocation of tensors; the CUDA runtime serves a call's output allocations from the
 * arena (wb_memory_plan_get_outputs of that call), checking that the bytes are free at that moment (a
 * tensor the caller still holds, such as an earlier run's result, keeps its bytes: the allocation then
 * takes the pool's path). */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-program.h"

G_BEGIN_DECLS

#define WB_MEMORY_PLAN_ALIGN 512

typedef struct
{
  const char   *name;   /* the name that defines it (a string of the trace) */
  const WbBsym *def;    /* the top-level call that produces it */
  guint         trace;  /* 0: forward, 1: backward */
  guint         output; /* which of @def's output names (0-based, "_" skipped) */
  guint         first;  /* the step of @def */
  guint         last;   /* the last step that reads it or an alias of it (>= first) */
  gint64        nbytes; /* its type's bytes */
  gint64        size;   /* nbytes rounded up to WB_MEMORY_PLAN_ALIGN */
  gint64        offset; /* in the arena, a multiple of WB_MEMORY_PLAN_ALIGN */
} WbMemoryBuffer;

typedef struct _WbMemoryPlan WbMemoryPlan;

/* wb_memory_plan_new: the plan of @forward and (nullable) @backward run as one program, the backward
 * reading what the forward returned for it. The traces must outlive the plan (names and bound symbols are
 * theirs). Never fails: an empty plan (no buffer, arena 0) where nothing can be placed. (transfer full) */
WbMemoryPlan *wb_memory_plan_new (const WbTrace *forward, const WbTrace *backward);
/* wb_memory_plan_new_for_program: the same for @program's traces (they outlive the program's plan while
 * the program is alive). */
WbMemoryPlan *wb_memory_plan_new_for_program (const WbProgram *program);
void          wb_memory_plan_free (WbMemoryPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbMemoryPlan, wb_memory_plan_free)

/* wb_memory_plan_place: offsets for @buffers (element-type WbMemoryBuffer; only size, first and last are read,
 * sizes multiples of WB_MEMORY_PLAN_ALIGN, steps below @n_steps), written to their offset fields by the rule
 * above (the smallest arena of the three orders). Returns the arena's bytes; *@live_peak_bytes (nullable) the
 * most bytes live at one step. The CUDA runtime's launch list places the allocations of a recorded run so. */
gint64 wb_memory_plan_place (GArray *buffers, guint n_steps, gint64 *live_peak_bytes);

/* bytes of the arena: the highest offset + size */
gint64 wb_memory_plan_get_arena_bytes (const WbMemoryPlan *plan);
/* bytes of every buffer added up (sizes, rounded): what one allocation per tensor, never freed, takes */
gint64 wb_memory_plan_get_sum_bytes (const WbMemoryPlan *plan);
/* the most bytes (sizes, rounded) of buffers live at one step: no placement needs less than this */
gint64 wb_memory_plan_get_live_peak_bytes (const WbMemoryPlan *plan);
guint  wb_memory_plan_get_n_steps (const WbMemoryPlan *plan);
guint  wb_memory_plan_get_n_buffers (const WbMemoryPlan *plan);
/* (transfer none) buffer @i, in the order their calls run */
const WbMemoryBuffer *wb_memory_plan_get_buffer (const WbMemoryPlan *plan, guint i);
/* pairs of one call's outputs of the same size whose lifetimes were made the longer of the two (the runtime
 * matches a call's allocations to its places by size) */
guint wb_memory_plan_get_n_widened (const WbMemoryPlan *plan);
/* outputs that joined another buffer (views, aliases, in-place writes) */
guint wb_memory_plan_get_n_aliases (const WbMemoryPlan *plan);
/* wb_memory_plan_get_outputs: (transfer none) the buffers top-level call @call produces, @n_out of them
 * (in output order), or NULL with 0 when it produces none. */
const WbMemoryBuffer *const *wb_memory_plan_get_outputs (const WbMemoryPlan *plan, const WbBsym *call, guint *n_out);

G_END_DECLS
