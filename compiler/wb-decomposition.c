/* wb-decomposition.c — the workbench's own decompositions of composites Thunder printed without one
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A decomposition writes its steps as printed trace lines (wb-decomposition-private.h); they are parsed
 * here, typed step by step with their symbols' meta functions (so every step's annotation is what the
 * verifier derives) and attached as the subsymbols of a copy of the call. wb_trace_decompose does this for
 * every such call of a trace, keeping the trace's lines, for the programs that run it (wb_program_new);
 * the claim pass calls wb_decomposition_build for the calls it meets. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "wb-arena.h"
#include "wb-decomposition-private.h"
#include "wb-trace-private.h"

typedef struct
{
  WbSymbolId      id;
  WbDecomposeFunc func;
} Entry;

static const Entry table[] = {
  { WB_SYMBOL_LTORCH_MULTI_HEAD_ATTENTION_FORWARD, _wb_decompose_mha },
};

struct _WbDecomposer
{
  WbTraceBuilder *builder;
  const WbBsym   *bsym;
  GHashTable     *taken;
  GString        *text;
  const char     *prefix;
  guint           next;
};

static WbDecomposeFunc
find (const WbSymbol *symbol)
{
  const WbSymbol *target;

  if (symbol == NULL || wb_symbol_is_opaque (symbol))
    return NULL;
  target = wb_symbol_get_like (symbol) != NULL ? wb_symbol_get_like (symbol) : symbol;
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (wb_symbol_get_id (target) == table[i].id)
      return table[i].func;
  return NULL;
}

gboolean
wb_decomposition_exists (const WbSymbol *symbol)
{
  return find (symbol) != NULL;
}

gboolean
wb_decomposition_needed (const WbBsym *bsym)
{
  return bsym != NULL && bsym->kind == WB_BSYM_CALL && bsym->n_subsymbols == 0 && find (bsym->symbol) != NULL;
}

/* -- what a decomposition writes with ------------------------------------------------------------- */

static const char *
new_name (WbDecomposer *d)
{
  for (;;)
    {
      g_autofree char *name = g_strdup_printf ("%s_d%u", d->prefix, d->next++);
      if (!g_hash_table_contains (d->taken, name))
        {
          const char *kept = wb_trace_builder_strdup (d->builder, name);
          g_hash_table_add (d->taken, (gpointer) kept);
          return kept;
        }
    }
}

static void
emit_line (WbDecomposer *d, const char *name, const char *format, va_list ap)
{
  g_string_append_printf (d->text, "  %s = ", name);
  g_string_append_vprintf (d->text, format, ap);
  g_string_append_c (d->text, '\n');
}

const char *
_wb_decomp_emit (WbDecomposer *d, const char *format, ...)
{
  const char *name = new_name (d);
  va_list     ap;

  va_start (ap, format);
  emit_line (d, name, format, ap);
  va_end (ap);
  return name;
}

const char *
_wb_decomp_emit_as (WbDecomposer *d, const char *name, const char *format, ...)
{
  va_list ap;

  if (name == NULL)
    name = new_name (d);
  va_start (ap, format);
  emit_line (d, name, format, ap);
  va_end (ap);
  return name;
}

const char *
_wb_decomp_output (WbDecomposer *d, guint i)
{
  const WbValue *o = d->bsym->outputs;

  if (o == NULL)
    return NULL;
  if (o->kind == WB_VALUE_TUPLE || o->kind == WB_VALUE_LIST)
    o = i < o->n_items ? o->items[i] : NULL;
  else if (i > 0)
    o = NULL;
  if (o == NULL || o->kind != WB_VALUE_NAME || strcmp (o->text, "_") == 0)
    return NULL;
  return o->text;
}

const char *
_wb_decomp_arg_name (const WbMetaCall *call, guint i)
{
  const WbValue *v = i < WB_META_MAX_PARAMS ? call->params[i] : NULL;

  return v != NULL && v->kind == WB_VALUE_NAME ? v->text : NULL;
}

const char *
_wb_decomp_strdup (WbDecomposer *d, const char *s)
{
  return wb_trace_builder_strdup (d->builder, s);
}

const char *
_wb_decomp_ints (WbDecomposer *d, const gint64 *v, guint n)
{
  g_autoptr (GString) s = g_string_new ("[");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", v[i]);
  g_string_append_c (s, ']');
  return wb_trace_builder_strdup (d->builder, s->str);
}

/* -- parsing and typing the steps ----------------------------------------------------------------- */

typedef struct
{
  GHashTable      *local; /* name -> WbType* of the steps so far */
  WbTypeLookupFunc lookup;
  gpointer         data;
} Chain;

static gboolean
chain_lookup (const char *name, WbType *out, gpointer user_data)
{
  Chain  *c = user_data;
  WbType *t = g_hash_table_lookup (c->local, name);

  if (t != NULL)
    {
      *out = *t;
      return TRUE;
    }
  return c->lookup != NULL && c->lookup (name, out, c->data);
}

/* The steps of @text as typed subsymbols of a copy of @bsym. */
static WbBsym *
attach (WbTraceBuilder *builder, const WbBsym *bsym, const char *text, WbTypeLookupFunc lookup, gpointer data, GError **error)
{
  g_autofree char *filename = g_strdup_printf ("<the workbench's decomposition of %s>", bsym->name);
  g_autoptr (GHashTable) local = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GPtrArray) subs = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autoptr (WbTrace) steps = NULL;
  g_autoptr (GError) local_error = NULL;
  Chain   chain = { local, lookup, data };
  WbBsym *copy;

  if ((steps = wb_trace_parse (text, -1, filename, &local_error)) == NULL)
    {
      g_set_error (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_ARGS, "%s: the workbench wrote a decomposition it cannot read: %s",
                   bsym->name, local_error->message);
      return NULL;
    }
  for (guint i = 0; i < steps->n_body; i++)
    {
      const WbBsym *b = steps->body[i];
      g_autoptr (GArray) types = g_array_new (FALSE, TRUE, sizeof (WbType));
      WbBsym *step;

      if (b->kind != WB_BSYM_CALL)
        continue;
      if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, chain_lookup, &chain, types, &local_error))
        {
          g_set_error (error, WB_SYMBOL_ERROR, local_error->code, "%s: step %u of the workbench's decomposition (%s): %s", bsym->name,
                       subs->len + 1, b->name, local_error->message);
          return NULL;
        }
      step = wb_trace_builder_copy_bsym (builder, b);
      step->depth = bsym->depth + 1;
      step->line = bsym->line;
      if (b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME && types->len == 1)
        {
          step->has_type = TRUE;
          step->type = g_array_index (types, WbType, 0);
          step->type_name = b->outputs->text;
          g_hash_table_insert (local, (gpointer) b->outputs->text, g_memdup2 (&step->type, sizeof (WbType)));
        }
      g_ptr_array_add (subs, step);
    }
  /* what the call's outputs are named must be defined by the steps */
  wb_bsym_get_output_names (bsym, outs);
  for (guint i = 0; i < outs->len; i++)
    if (!g_hash_table_contains (local, outs->pdata[i]))
      {
        g_set_error (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_ARGS, "%s: the workbench's decomposition does not compute the output '%s'",
                     bsym->name, (const char *) outs->pdata[i]);
        return NULL;
      }
  copy = wb_trace_builder_copy_bsym (builder, bsym);
  wb_trace_builder_set_subsymbols (builder, copy, (WbBsym *const *) subs->pdata, subs->len);
  wb_trace_builder_add_dependency (builder, steps);
  return copy;
}

WbBsym *
wb_decomposition_build (WbTraceBuilder *builder, const WbBsym *bsym, WbTypeLookupFunc lookup, gpointer user_data, GHashTable *taken, GError **error)
{
  WbDecomposeFunc func;
  WbMetaCall      call;
  WbDecomposer    d = { builder, bsym, taken, NULL, NULL, 0 };
  const char     *first;
  WbBsym         *out = NULL;

  g_return_val_if_fail (builder != NULL && bsym != NULL && taken != NULL, NULL);
  if (!wb_decomposition_needed (bsym) || (func = find (bsym->symbol)) == NULL)
    {
      g_set_error (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_NO_META, "%s: the workbench has no decomposition to give it",
                   bsym->name ? bsym->name : "?");
      return NULL;
    }
  if (!_wb_meta_bind (&call, bsym->symbol, bsym->args, bsym->n_args, bsym->kwargs, bsym->n_kwargs, lookup, user_data, error))
    return NULL;
  first = _wb_decomp_output (&d, 0);
  d.prefix = first != NULL ? first : "t_wb";
  d.text = g_string_new ("def decomposition():\n");
  if (func (&call, &d, error))
    out = attach (builder, bsym, d.text->str, lookup, user_data, error);
  g_string_free (d.text, TRUE);
  return out;
}

/* -- names in use --------------------------------------------------------------------------------- */

static void
add_value_names (const WbValue *v, GHashTable *taken)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (taken, (gpointer) v->text);
  add_value_names (v->base, taken);
  for (guint i = 0; i < v->n_items; i++)
    add_value_names (v->items[i], taken);
  for (guint i = 0; i < v->n_kwargs; i++)
    add_value_names (v->kwargs[i].value, taken);
}

static void
add_bsym_names (const WbBsym *b, GHashTable *taken)
{
  add_value_names (b->outputs, taken);
  add_value_names (b->value, taken);
  for (guint i = 0; i < b->n_args; i++)
    add_value_names (b->args[i], taken);
  for (guint i = 0; i < b->n_kwargs; i++)
    add_value_names (b->kwargs[i].value, taken);
  if (b->kind == WB_BSYM_ANNOTATION && b->name != NULL)
    g_hash_table_add (taken, (gpointer) b->name);
  for (guint i = 0; i < b->n_subsymbols; i++)
    add_bsym_names (b->subsymbols[i], taken);
}

void
wb_decomposition_add_names (const WbTrace *trace, GHashTable *taken)
{
  for (guint i = 0; i < trace->n_params; i++)
    add_value_names (trace->params[i], taken);
  for (guint i = 0; i < trace->n_body; i++)
    add_bsym_names (trace->body[i], taken);
}

/* -- a whole trace -------------------------------------------------------------------------------- */

typedef struct
{
  WbTrace        *in;
  WbTraceBuilder *builder;
  GHashTable     *types;
  GHashTable     *taken;
  GHashTable     *line_of; /* new node -> the line it keeps */
  guint           n;       /* calls decomposed */
} Walk;

static gboolean
needs_work (const WbBsym *b)
{
  if (wb_decomposition_needed (b))
    return TRUE;
  for (guint i = 0; i < b->n_subsymbols; i++)
    if (needs_work (b->subsymbols[i]))
      return TRUE;
  return FALSE;
}

/* @b, or a copy of it with the decompositions it needs (the copy's line is @line) */
static const WbBsym *
walk_bsym (Walk *w, const WbBsym *b, guint line, GError **error)
{
  if (!needs_work (b))
    return b;
  if (wb_decomposition_needed (b))
    {
      g_autoptr (GError) local = NULL;
      WbBsym *copy = wb_decomposition_build (w->builder, b, wb_executor_info_types_lookup, w->types, w->taken, &local);

      if (copy == NULL)
        {
          g_set_error (error, WB_SYMBOL_ERROR, local->code, "%s:%u: %s", w->in->filename ? w->in->filename : "<trace>", line,
                       local->message);
          return NULL;
        }
      g_hash_table_insert (w->line_of, copy, GUINT_TO_POINTER (line));
      for (guint i = 0; i < copy->n_subsymbols; i++)
        g_hash_table_insert (w->line_of, copy->subsymbols[i], GUINT_TO_POINTER (line));
      w->n++;
      return copy;
    }
  {
    WbBsym  *copy = wb_trace_builder_copy_bsym (w->builder, b);
    WbBsym **subs = g_new (WbBsym *, b->n_subsymbols);

    for (guint i = 0; i < b->n_subsymbols; i++)
      {
        guint sub_line = wb_trace_get_bsym_line (w->in, b->subsymbols[i]);
        subs[i] = (WbBsym *) walk_bsym (w, b->subsymbols[i], sub_line ? sub_line : line, error);
        if (subs[i] == NULL)
          {
            g_free (subs);
            return NULL;
          }
      }
    wb_trace_builder_set_subsymbols (w->builder, copy, subs, b->n_subsymbols);
    g_free (subs);
    g_hash_table_insert (w->line_of, copy, GUINT_TO_POINTER (line));
    return copy;
  }
}

/* every node of @out answers the line it has in @in (or the line of what it copies) */
static void
keep_lines (Walk *w, WbTrace *out, const WbBsym *b)
{
  gpointer line;

  if (g_hash_table_lookup_extended (w->line_of, b, NULL, &line))
    g_hash_table_replace (out->lines, (gpointer) b, line);
  else
    g_hash_table_replace (out->lines, (gpointer) b, GUINT_TO_POINTER (wb_trace_get_bsym_line (w->in, b)));
  for (guint i = 0; i < b->n_subsymbols; i++)
    keep_lines (w, out, b->subsymbols[i]);
}

WbTrace *
wb_trace_decompose (WbTrace *trace, GError **error)
{
  g_autoptr (GHashTable) types = NULL;
  g_autoptr (GHashTable) taken = NULL;
  g_autoptr (GHashTable) line_of = NULL;
  Walk     w;
  WbTrace *out;
  gboolean any = FALSE;

  g_return_val_if_fail (trace != NULL, NULL);
  for (guint i = 0; i < trace->n_body && !any; i++)
    any = needs_work (trace->body[i]);
  if (!any)
    return wb_trace_ref (trace);
  types = wb_executor_info_types_new (trace);
  taken = g_hash_table_new (g_str_hash, g_str_equal);
  line_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  wb_decomposition_add_names (trace, taken);
  w = (Walk){ trace, wb_trace_builder_new (trace), types, taken, line_of, 0 };
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = walk_bsym (&w, trace->body[i], wb_trace_get_bsym_line (trace, trace->body[i]), error);
      if (b == NULL)
        {
          wb_trace_builder_free (w.builder);
          return NULL;
        }
      wb_trace_builder_append (w.builder, b);
    }
  out = wb_trace_builder_end (w.builder);
  /* the same file, header and lines as @trace: only the subsymbols written are new */
  out->filename = trace->filename ? wb_arena_strdup (out->arena, trace->filename) : NULL;
  out->first_line = trace->first_line;
  out->last_line = trace->last_line;
  out->header = trace->header;
  out->n_header = trace->n_header;
  out->provenance = trace->provenance;
  out->provenance_ms = trace->provenance_ms;
  out->no_signature = trace->no_signature;
  out->param_breaks = trace->param_breaks;
  out->ends_with_newline = trace->ends_with_newline;
  for (guint i = 0; i < out->n_body; i++)
    keep_lines (&w, out, out->body[i]);
  return out;
}
