/* wb-cost.h — static cost of a bound symbol: bytes moved and floating-point operations (WbCostModel)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Counted from the types the trace annotates (and, where a call's outputs are not annotated, from the
 * symbol table's meta functions), never from a run:
 *   bytes  the bytes of every distinct tensor argument (read) plus every tensor output (written): what a
 *          region that keeps its intermediates on chip must move at least. Views count as aliases (wb-cost.c's
 *          count_bytes): an output that is a view (reshape, transpose, slice, split...) of an argument or of
 *          another output writes nothing, views of one intermediate write at most that tensor, an argument
 *          that is only returned as a view is not read, and one read only through slices or splits is read
 *          as far as those pieces are (llama_layer's rotary region reads two thirds of its qkv argument)
 *   FLOPs  wb-cost.def's rule for the symbol, else the sum over its subsymbols, else by category
 *          (elementwise: 1 per output element; reduction: 1 per input element; others: 0)
 * Names of a trace are unique, so one name -> type map per trace serves the top level and every
 * subsymbol. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-compiler.h"

G_BEGIN_DECLS

/* The rules of wb-cost.def. */
typedef enum
{
  WB_COST_RULE_DEFAULT = 0,        /* not in the table: subsymbols, else the category */
  WB_COST_RULE_NONE,               /* 0 FLOPs */
  WB_COST_RULE_ELEMENTWISE,        /* 1 per output element */
  WB_COST_RULE_REDUCTION,          /* 1 per element of the first tensor input */
  WB_COST_RULE_MATMUL,             /* 2 * output elements * K (K: the first input's last dim) */
  WB_COST_RULE_LINEAR,             /* 2 * output elements * K + output elements with a bias */
  WB_COST_RULE_CONVOLUTION,        /* 2 * output elements * weight elements / output channels */
  WB_COST_RULE_ATTENTION,          /* 4 * B * H * L * S * E, x 0.5 when is_causal=True */
  WB_COST_RULE_ATTENTION_BACKWARD, /* 2.5 x ATTENTION */
} WbCostRule;

/* wb_cost_rule_to_string: "default", "none", "elementwise", ... (transfer none). */
const char *wb_cost_rule_to_string (WbCostRule rule);
/* wb_cost_rule_for_symbol: the rule that counts @symbol (its alias target's when it is an alias). */
WbCostRule wb_cost_rule_for_symbol (const WbSymbol *symbol);

typedef struct _WbCostModel WbCostModel;

/* wb_cost_model_new: (transfer full) the cost model of @trace (referenced): indexes the type of every
 * annotated name, top level and subsymbols, and derives the rest with the symbols' meta functions. */
WbCostModel *wb_cost_model_new (WbTrace *trace);
void         wb_cost_model_free (WbCostModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCostModel, wb_cost_model_free)

/* wb_cost_model_lookup_type: the type of proxy @name in the trace; FALSE when it is unknown. */
gboolean wb_cost_model_lookup_type (const WbCostModel *model,
                                    const char        *name,
                                    WbType            *out);
/* wb_cost_model_count: bytes moved and FLOPs of one execution of @bsym (a CALL of the model's trace, at
 * any depth); both 0 for anything else. Either out argument may be NULL. */
void wb_cost_model_count (const WbCostModel *model,
                          const WbBsym      *bsym,
                          guint64           *bytes,
                          guint64           *flops);

/* wb_cost_bsym_is_view: whether @bsym is a view the cost model counts as an alias (reshape, transpose,
 * squeeze, slice, broadcast, permute, expand, unsqueeze; split, chunk, tensor_split, unbind): it moves no
 * memory of its own. */
gboolean wb_cost_bsym_is_view (const WbBsym *bsym);

G_END_DECLS
