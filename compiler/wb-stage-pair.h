/* wb-stage-pair.h — two stages side by side: paired bound symbols, renaming, aligned rows (GTK-free)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-line-diff.h"
#include "wb-pipeline.h"
#include "wb-trace.h"

G_BEGIN_DECLS

/* wb_bsym_structural_key: (transfer full) what identifies @bsym across Thunder's stages when names change:
 * the operation (an alias stands for its target), the structure of its arguments with each proxy's type
 * (looked up in @types: name -> WbType*), literals as printed, and the output types. */
char *wb_bsym_structural_key (const WbBsym *bsym, GHashTable *types);

typedef struct _WbStagePair WbStagePair;

/* How a line of one side compares with the other side (wb_stage_pair_get_line_mark). */
typedef enum
{
  WB_LINE_SAME = 0,
  WB_LINE_CHANGED = 1, /* deleted on the left, inserted on the right */
  WB_LINE_RENAMED = 2, /* matched, but only up to a consistent renaming of proxy names (t2 -> t361) */
} WbLineMark;

/* wb_stage_pair_new: pairs @left and @right (either may be NULL). With @stage (the workbench stage that
 * @right is, computed from @left) the pairing is the pipeline's exact provenance; otherwise structural
 * (longest common subsequence of structural keys, then equal keys anywhere). The line diff then compares
 * the right side with the names of paired bound symbols' outputs (and of parameters, by position)
 * renamed to the left side's, so that a line whose only change is proxy names is RENAMED, not CHANGED,
 * and lays the lines out as aligned rows (Compiler Explorer's and Meld's side-by-side layout: matched
 * lines on one row, a run of changed lines next to the other side's run, filler rows where one run is
 * shorter). Structural pairing stays within one sub-program: the forward and backward parts of a joint
 * trace, a backward_fn, a forward. (transfer full) */
WbStagePair *wb_stage_pair_new (WbTrace *left, WbTrace *right, const WbStage *stage);
void         wb_stage_pair_free (WbStagePair *pair);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbStagePair, wb_stage_pair_free)

/* The printed texts (transfer none) and their diff marks (one per line, 0-based). line_changed: the mark
 * is CHANGED. n_changes: CHANGED lines of both sides; n_renamed: matched pairs of RENAMED lines. */
const char *wb_stage_pair_get_text (const WbStagePair *pair, gboolean right);
guint       wb_stage_pair_get_n_lines (const WbStagePair *pair, gboolean right);
gboolean    wb_stage_pair_line_changed (const WbStagePair *pair, gboolean right, guint line);
WbLineMark  wb_stage_pair_get_line_mark (const WbStagePair *pair, gboolean right, guint line);
guint       wb_stage_pair_get_n_changes (const WbStagePair *pair);
guint       wb_stage_pair_get_n_renamed (const WbStagePair *pair);
/* The aligned layout: row @row shows 0-based line *@left of the left side beside *@right of the right
 * side; G_MAXUINT on a side is a filler (that side has no line on this row). Every line of each side
 * appears once, in order. */
guint    wb_stage_pair_get_n_rows (const WbStagePair *pair);
void     wb_stage_pair_get_row (const WbStagePair *pair, guint row, guint *left, guint *right);
gboolean wb_stage_pair_is_exact (const WbStagePair *pair);
/* wb_stage_pair_get_bsym_at_line: (transfer none) the top-level bound symbol printed on 1-based @line
 * (subsymbol comment lines belong to their top-level bound symbol); NULL for header lines. */
const WbBsym *wb_stage_pair_get_bsym_at_line (const WbStagePair *pair, gboolean right, guint line);
/* wb_stage_pair_get_line: 1-based line of @bsym in the left or right trace; 0 if absent. */
guint wb_stage_pair_get_line (const WbStagePair *pair, gboolean right, const WbBsym *bsym);
/* wb_stage_pair_get_counterparts: (transfer none) (element-type WbBsym) (nullable) the bound symbols on
 * the other side that @bsym (on side @right) pairs with. */
GPtrArray *wb_stage_pair_get_counterparts (const WbStagePair *pair, gboolean right, const WbBsym *bsym);
/* wb_stage_pair_get_row_of_line: the aligned row of 0-based @line; G_MAXUINT when out of range. */
guint wb_stage_pair_get_row_of_line (const WbStagePair *pair, gboolean right, guint line);
/* wb_stage_pair_get_spans: what to highlight inside 0-based @line, as (start, end) byte pairs appended
 * to @spans (element-type guint): beside a RENAMED line, the names that differ as printed; beside a
 * CHANGED line, the tokens that differ once the right side is renamed. Returns how many spans were
 * appended to @spans; 0 for a SAME line, or a line beside a filler (the whole line is the change). */
guint wb_stage_pair_get_spans (const WbStagePair *pair, gboolean right, guint line, GArray *spans);
/* wb_stage_pair_can_pair: whether @a and @b are stages of one sub-program (the same function name and
 * parameters: a forward with a forward, one torch.compile subgraph with itself), so that diffing them
 * means something. Consecutive stage files of different sub-programs are not diffed. */
gboolean wb_stage_pair_can_pair (const WbTrace *a, const WbTrace *b);

G_END_DECLS
