/* wb-pass-claim.c — claiming by executor priority, flattening unclaimed composites to their subsymbols
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Modelled on _transform_for_operator_executor_execution in thunder/executors/passes.py: for every
 * top-level bound symbol, the first executor in priority order that takes it claims it (an operator
 * executor runs it as one op; a fusion executor keeps it for its fusion pass); when none does, a
 * composite is replaced by its subsymbols, which are claimed in turn; a prim nobody takes is an error. A
 * composite Thunder printed without subsymbols that the workbench can decompose is first given that
 * decomposition (wb-decomposition.h) and then claimed the same way.
 * Every decision is recorded as a remark with its reason. */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

typedef struct
{
  WbPassContext  *ctx;
  WbTraceBuilder *builder;
  GHashTable     *defined; /* names defined so far at the top level */
  GHashTable     *taken;   /* every name of the input, for the workbench's decompositions; made when needed */
  GError        **error;
} Claim;

static gboolean claim_bsym (Claim *c, const WbBsym *bsym, const WbBsym *top, guint line);

static void
define_outputs (Claim *c, const WbBsym *bsym)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  _wb_bsym_add_outputs (bsym, outs);
  for (guint i = 0; i < outs->len; i++)
    g_hash_table_add (c->defined, outs->pdata[i]);
}

static gboolean
flatten (Claim *c, const WbBsym *bsym, const WbBsym *top, guint line)
{
  /* The subsymbols define the parent's outputs; their intermediates must not clash with names already
   * defined at the top level (Thunder names proxies uniquely per trace, so they do not). */
  g_autoptr (GPtrArray) parent_outs = g_ptr_array_new ();
  _wb_bsym_add_outputs (bsym, parent_outs);
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    {
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      _wb_bsym_add_outputs (bsym->subsymbols[i], outs);
      for (guint k = 0; k < outs->len; k++)
        {
          gboolean is_parent = FALSE;
          for (guint j = 0; j < parent_outs->len; j++)
            is_parent |= strcmp (parent_outs->pdata[j], outs->pdata[k]) == 0;
          if (!is_parent && g_hash_table_contains (c->defined, outs->pdata[k]))
            {
              g_set_error (c->error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_TRACE,
                           "%s:%u: flattening %s would define '%s' twice", c->ctx->in->filename, line, bsym->name,
                           (const char *) outs->pdata[k]);
              return FALSE;
            }
        }
    }
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    if (!claim_bsym (c, bsym->subsymbols[i], top, line))
      return FALSE;
  return TRUE;
}

/* @bsym, a composite Thunder printed without subsymbols, with the workbench's decomposition as its
 * subsymbols (wb-decomposition.h); NULL, with a remark saying why, when the decomposition refuses it */
static const WbBsym *
decompose (Claim *c, const WbBsym *bsym, guint line)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *why = NULL;
  const WbBsym    *out;

  if (c->taken == NULL)
    {
      c->taken = g_hash_table_new (g_str_hash, g_str_equal);
      wb_decomposition_add_names (c->ctx->in, c->taken);
    }
  out = wb_decomposition_build (c->builder, bsym, _wb_type_env_lookup, c->ctx->types, c->taken, &local);
  if (out == NULL)
    {
      why = g_strdup_printf ("printed without subsymbols, and the workbench's decomposition refuses it: %s", local->message);
      _wb_remark_add (c->ctx->shared, "-", bsym, line, FALSE, why);
    }
  return out;
}

static gboolean
claim_bsym (Claim *c, const WbBsym *bsym, const WbBsym *top, guint line)
{
  WbPassShared *sh = c->ctx->shared;
  g_autoptr (GString) reasons = g_string_new (NULL);
  const WbBsym *decomposed;

  if (wb_decomposition_needed (bsym) && (decomposed = decompose (c, bsym, line)) != NULL)
    bsym = decomposed; /* claimed like a composite Thunder printed with its subsymbols */

  if (wb_executor_info_is_utility (bsym) || _wb_bsym_is_get_grad (bsym) || wb_symbol_is_fusion (bsym->symbol))
    {
      /* the python executor keeps it; existing regions stay as they are */
      wb_trace_builder_append (c->builder, bsym);
      if (bsym != top)
        _wb_sources_add (c->ctx->sources, bsym, top);
      define_outputs (c, bsym);
      return TRUE;
    }
  for (guint i = 0; i < sh->n_executors; i++)
    {
      const WbExecutorInfo *ex = sh->executors[i];
      g_autofree char      *why = NULL;
      gboolean              ok = wb_executor_info_can_take (ex, bsym, _wb_type_env_lookup, c->ctx->types, &why);
      _wb_remark_add (sh, wb_executor_info_get_name (ex), bsym, line, ok,
                      ok ? (wb_executor_info_get_kind (ex) == WB_EXECUTOR_KIND_FUSION ? "fusible" : "claimed") : why);
      if (ok)
        {
          g_hash_table_insert (sh->claims, (gpointer) bsym, (gpointer) ex);
          wb_trace_builder_append (c->builder, bsym);
          if (bsym != top)
            _wb_sources_add (c->ctx->sources, bsym, top);
          define_outputs (c, bsym);
          return TRUE;
        }
      if (why != NULL)
        g_string_append_printf (reasons, "%s%s", reasons->len ? "; " : "", why);
    }
  if (bsym->n_subsymbols > 0)
    {
      _wb_remark_add (sh, "-", bsym, line, FALSE, "no executor takes it whole: decomposed into its subsymbols");
      return flatten (c, bsym, top, line);
    }
  if (wb_symbol_is_opaque (bsym->symbol))
    {
      /* kept unclaimed: the stages still compute; running it fails, naming it */
      _wb_remark_add (sh, "-", bsym, line, FALSE,
                      "unknown symbol with no subsymbols and no executor that declares it: kept unclaimed, it cannot run");
      wb_trace_builder_append (c->builder, bsym);
      if (bsym != top)
        _wb_sources_add (c->ctx->sources, bsym, top);
      define_outputs (c, bsym);
      return TRUE;
    }
  g_set_error (c->error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_UNCLAIMED, "%s:%u: no executor takes %s: %s",
               c->ctx->in->filename, line, bsym->name ? bsym->name : "?", reasons->len ? reasons->str : "no executors");
  return FALSE;
}

WbTrace *
_wb_pass_claim (WbPassContext *ctx, GError **error)
{
  Claim    c = { ctx, wb_trace_builder_new (ctx->in), g_hash_table_new (g_str_hash, g_str_equal), NULL, error };
  WbTrace *out = NULL;
  gboolean ok = TRUE;
  for (guint i = 0; i < ctx->in->n_body && ok; i++)
    {
      const WbBsym *bsym = ctx->in->body[i];
      if (bsym->kind == WB_BSYM_ANNOTATION || bsym->kind == WB_BSYM_UNPACK || bsym->kind == WB_BSYM_ASSIGN)
        {
          wb_trace_builder_append (c.builder, bsym);
          define_outputs (&c, bsym);
          continue;
        }
      ok = claim_bsym (&c, bsym, bsym, wb_trace_get_bsym_line (ctx->in, bsym));
    }
  if (ok)
    out = wb_trace_builder_end (g_steal_pointer (&c.builder));
  g_clear_pointer (&c.builder, wb_trace_builder_free);
  g_hash_table_unref (c.defined);
  g_clear_pointer (&c.taken, g_hash_table_unref);
  return out;
}
