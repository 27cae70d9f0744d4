/* wb-pass-cleanup.c — dead code elimination, common subexpression elimination, delete-last-used, unwrap
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Modelled on thunder/core/transform_common.py (dce, cse) and thunder/executors/passes.py
 * (del_last_used), thunder/core/transform_common.py (unwrap_return_value). */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

/* A collective, wait or bucketing op (symbols/distributed.def, their torch_*_prim_impl aliases, ltorch's
 * collectives): communication with the other ranks, which must all make the same calls in the same
 * order, so it is kept even when nothing reads it and never merged with another. */
static gboolean
is_communication (const WbBsym *b)
{
  return b->symbol != NULL && wb_symbol_get_category (b->symbol) == WB_SYMBOL_CATEGORY_DISTRIBUTED;
}

/* Bound symbols that must stay even when nothing reads their outputs. */
static gboolean
has_side_effects (const WbBsym *b)
{
  if (b->kind != WB_BSYM_CALL)
    return FALSE;
  if (b->outputs == NULL || is_communication (b))
    return TRUE;
  /* an in-place op writes its first argument, and an unknown symbol may write its inputs: kept,
   * whatever reads their outputs */
  if (b->symbol != NULL && (wb_symbol_is_opaque (b->symbol) || wb_symbol_is_inplace (b->symbol)))
    return TRUE;
  return b->name != NULL && (strstr (b->name, "copy_") != NULL || strstr (b->name, "update_aliases") != NULL);
}

WbTrace *
_wb_pass_dce (WbPassContext *ctx, GError **error)
{
  WbTrace *in = ctx->in;
  g_autoptr (GHashTable) needed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gboolean *keep = g_new0 (gboolean, in->n_body + 1);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (WbTraceBuilder) b = wb_trace_builder_new (in);

  for (guint i = in->n_body; i > 0; i--)
    {
      const WbBsym *bsym = in->body[i - 1];
      gboolean      k = FALSE;
      switch (bsym->kind)
        {
        case WB_BSYM_RETURN:
        case WB_BSYM_ANNOTATION:
          k = TRUE;
          break;
        case WB_BSYM_CALL:
        case WB_BSYM_ASSIGN:
        case WB_BSYM_UNPACK:
          g_ptr_array_set_size (names, 0);
          _wb_bsym_add_outputs (bsym, names);
          k = has_side_effects (bsym) || bsym->kind == WB_BSYM_UNPACK;
          for (guint j = 0; j < names->len && !k; j++)
            k = g_hash_table_contains (needed, names->pdata[j]);
          break;
        default: /* blank lines, comments and old dels are recomputed or dropped */
          k = FALSE;
          break;
        }
      if (k)
        {
          g_ptr_array_set_size (names, 0);
          _wb_bsym_add_inputs (bsym, names);
          for (guint j = 0; j < names->len; j++)
            g_hash_table_add (needed, names->pdata[j]);
        }
      keep[i - 1] = k;
    }
  for (guint i = 0; i < in->n_body; i++)
    if (keep[i])
      wb_trace_builder_append (b, in->body[i]);
  return wb_trace_builder_end (g_steal_pointer (&b));
}

/* ---- CSE --------------------------------------------------------------------------------------- */

static gboolean
is_nondeterministic (const WbBsym *b)
{
  static const char *const words[] = { "uniform", "rand", "empty", "multinomial", "dropout", "exogenous", "get_grad", "bernoulli", "exponential", "philox", NULL };
  if (b->name == NULL || b->symbol == NULL || wb_symbol_is_opaque (b->symbol) || wb_symbol_is_inplace (b->symbol))
    return TRUE; /* an unknown symbol may be random or write its inputs, an in-place op does: never merged */
  if (is_communication (b))
    return TRUE; /* two all_reduces of one tensor are two calls every rank makes */
  for (guint i = 0; words[i]; i++)
    if (strstr (b->name, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

static char *
cse_key (const WbBsym *b)
{
  GString *s = g_string_new (b->name);
  g_string_append_c (s, '(');
  for (guint i = 0; i < b->n_args; i++)
    {
      wb_value_append (b->args[i], s);
      g_string_append_c (s, ',');
    }
  for (guint i = 0; i < b->n_kwargs; i++)
    {
      g_string_append (s, b->kwargs[i].name);
      g_string_append_c (s, '=');
      wb_value_append (b->kwargs[i].value, s);
      g_string_append_c (s, ',');
    }
  g_string_append_c (s, ')');
  if (b->outputs != NULL)
    g_string_append_printf (s, "->%d/%u", b->outputs->kind, b->outputs->kind == WB_VALUE_NAME ? 1 : b->outputs->n_items);
  return g_string_free (s, FALSE);
}

WbTrace *
_wb_pass_cse (WbPassContext *ctx, GError **error)
{
  WbTrace *in = ctx->in;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) renames = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (WbTraceBuilder) b = wb_trace_builder_new (in);

  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *orig = in->body[i];
      const WbBsym *bsym = _wb_bsym_rename (b, orig, renames);
      const WbBsym *prev;
      char         *key;
      if (bsym != orig)
        _wb_sources_add (ctx->sources, bsym, orig);
      if (bsym->kind != WB_BSYM_CALL || bsym->outputs == NULL || bsym->symbol == NULL || wb_symbol_is_fusion (bsym->symbol) || is_nondeterministic (bsym))
        {
          wb_trace_builder_append (b, bsym);
          continue;
        }
      key = cse_key (bsym);
      prev = g_hash_table_lookup (seen, key);
      if (prev != NULL)
        {
          /* reuse prev's outputs: later readers are renamed */
          g_autoptr (GPtrArray) a = g_ptr_array_new (), p = g_ptr_array_new ();
          _wb_bsym_add_outputs (bsym, a);
          _wb_bsym_add_outputs (prev, p);
          if (a->len == p->len)
            {
              for (guint k = 0; k < a->len; k++)
                g_hash_table_insert (renames, a->pdata[k], wb_trace_builder_name (b, p->pdata[k]));
              _wb_sources_add (ctx->sources, prev, orig);
              g_free (key);
              continue;
            }
        }
      if (prev == NULL)
        g_hash_table_insert (seen, key, (gpointer) bsym);
      else
        g_free (key);
      wb_trace_builder_append (b, bsym);
    }
  return wb_trace_builder_end (g_steal_pointer (&b));
}

/* ---- delete last used -------------------------------------------------------------------------- */

static gboolean
is_collection (GHashTable *types, const char *name)
{
  WbType *t = g_hash_table_lookup (types, name);
  return t != NULL && t->kind == WB_TYPE_COLLECTION;
}

/* The names @trace defines: its parameters and every statement's outputs. Anything else a statement
 * reads is a global (`_torch_distributed_distributed_c10d_ProcessGroup_4`, `_torch_memory_format_0`):
 * deleting one inside the function would make it a local of the function, unbound where it is read. */
static GHashTable *
defined_names (const WbTrace *trace)
{
  GHashTable *defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      if (p != NULL && (p->kind == WB_VALUE_STAR || p->kind == WB_VALUE_STARSTAR))
        p = p->base;
      if (p != NULL && p->kind == WB_VALUE_NAME)
        g_hash_table_add (defined, (gpointer) p->text);
    }
  for (guint i = 0; i < trace->n_body; i++)
    _wb_bsym_add_outputs (trace->body[i], outs);
  for (guint i = 0; i < outs->len; i++)
    g_hash_table_add (defined, outs->pdata[i]);
  return defined;
}

WbTrace *
_wb_pass_delete_last_used (WbPassContext *ctx, GError **error)
{
  WbTrace *in = ctx->in;
  g_autoptr (GHashTable) last = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) returned = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) defined = defined_names (in);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (WbTraceBuilder) b = wb_trace_builder_new (in);
  const WbSymbol *clear = wb_symbol_lookup ("clear_mutable_collection", strlen ("clear_mutable_collection"));

  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *bsym = in->body[i];
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_inputs (bsym, names);
      for (guint j = 0; j < names->len; j++)
        {
          if (bsym->kind == WB_BSYM_RETURN)
            g_hash_table_add (returned, names->pdata[j]);
          else
            g_hash_table_insert (last, names->pdata[j], GUINT_TO_POINTER (i + 1));
        }
    }
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *bsym = in->body[i];
      g_autoptr (GPtrArray) dying = g_ptr_array_new ();
      guint end = i;
      wb_trace_builder_append (b, bsym);
      if (bsym->kind == WB_BSYM_DEL || bsym->kind == WB_BSYM_RETURN)
        continue;
      /* annotations that describe this statement's outputs stay right after it */
      while (end + 1 < in->n_body && in->body[end + 1]->kind == WB_BSYM_ANNOTATION && bsym->kind == WB_BSYM_UNPACK)
        wb_trace_builder_append (b, in->body[++end]);
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_inputs (bsym, names);
      if (bsym->kind == WB_BSYM_UNPACK)
        {
          /* unpacked names nobody reads (an empty C1) die at once */
          g_autoptr (GPtrArray) outs = g_ptr_array_new ();
          _wb_bsym_add_outputs (bsym, outs);
          for (guint j = 0; j < outs->len; j++)
            if (!g_hash_table_contains (last, outs->pdata[j]) && !g_hash_table_contains (returned, outs->pdata[j]))
              g_ptr_array_add (dying, outs->pdata[j]);
        }
      for (guint j = 0; j < names->len; j++)
        {
          const char *n = names->pdata[j];
          gboolean    dup = FALSE;
          if (GPOINTER_TO_UINT (g_hash_table_lookup (last, n)) != i + 1 || g_hash_table_contains (returned, n) ||
              !g_hash_table_contains (defined, n))
            continue;
          for (guint k = 0; k < dying->len; k++)
            dup |= strcmp (dying->pdata[k], n) == 0;
          if (!dup)
            g_ptr_array_add (dying, (gpointer) n);
        }
      if (dying->len > 0)
        {
          WbBsym *del;
          for (guint k = 0; k < dying->len; k++)
            if (clear != NULL && is_collection (ctx->types, dying->pdata[k]))
              {
                WbBsym *c = wb_trace_builder_new_bsym (b, WB_BSYM_CALL);
                c->symbol = clear;
                c->name = "clear_mutable_collection";
                c->args = (WbValue **) wb_trace_builder_array (b, 1);
                c->args[0] = wb_trace_builder_name (b, dying->pdata[k]);
                c->n_args = 1;
                wb_trace_builder_append (b, c);
              }
          del = wb_trace_builder_new_bsym (b, WB_BSYM_DEL);
          del->args = (WbValue **) wb_trace_builder_array (b, dying->len);
          del->n_args = dying->len;
          for (guint k = 0; k < dying->len; k++)
            del->args[k] = wb_trace_builder_name (b, dying->pdata[k]);
          wb_trace_builder_append (b, del);
        }
      i = end;
    }
  return wb_trace_builder_end (g_steal_pointer (&b));
}

WbTrace *
_wb_pass_unwrap_return (WbPassContext *ctx, GError **error)
{
  WbTrace *in = ctx->in;
  g_autoptr (WbTraceBuilder) b = wb_trace_builder_new (in);
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym  *bsym = in->body[i];
      const WbValue *out;
      if (bsym->kind == WB_BSYM_RETURN && (out = _wb_dict_get (bsym->value, "output")) != NULL)
        {
          WbBsym *r = wb_trace_builder_copy_bsym (b, bsym);
          r->value = (WbValue *) out;
          _wb_sources_add (ctx->sources, r, bsym);
          bsym = r;
        }
      wb_trace_builder_append (b, bsym);
    }
  return wb_trace_builder_end (g_steal_pointer (&b));
}
