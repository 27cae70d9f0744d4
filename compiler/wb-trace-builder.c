/* wb-trace-builder.c — builds new traces (stages) from parts of existing ones
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stage shares every node it does not change with the stage before it (traces are immutable), and
 * keeps that stage alive through trace->deps. New nodes come from the new trace's arena. */
#include "config.h"

#include <string.h>

#include "wb-arena.h"
#include "wb-compiler.h"
#include "wb-trace-private.h"

struct _WbTraceBuilder
{
  WbTrace    *trace;
  WbArena    *arena;
  GPtrArray  *body;
  GHashTable *names; /* name -> WbValue* */
};

WbTraceBuilder *
wb_trace_builder_new (WbTrace *base)
{
  WbTraceBuilder *b = g_new0 (WbTraceBuilder, 1);
  WbTrace        *t = g_new0 (WbTrace, 1);
  g_return_val_if_fail (base != NULL, NULL);
  t->ref_count = 1;
  b->arena = wb_arena_new ();
  t->arena = b->arena;
  t->deps = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_trace_unref);
  g_ptr_array_add (t->deps, wb_trace_ref (base));
  t->filename = wb_arena_strdup (b->arena, "<computed>");
  t->first_line = 1;
  t->provenance_ms = -1;
  t->function_name = base->function_name;
  t->params = base->params;
  t->n_params = base->n_params;
  t->ends_with_newline = FALSE;
  /* imports and decorators of the base, without its provenance line */
  t->header = wb_arena_newv (b->arena, WbHeaderLine, base->n_header + 1);
  t->header[0].kind = WB_HEADER_PROVENANCE;
  t->header[0].text = NULL;
  t->n_header = 1;
  for (guint i = 0; i < base->n_header; i++)
    if (base->header[i].kind != WB_HEADER_PROVENANCE)
      t->header[t->n_header++] = base->header[i];
  b->trace = t;
  b->body = g_ptr_array_new ();
  b->names = g_hash_table_new (g_str_hash, g_str_equal);
  return b;
}

void
wb_trace_builder_free (WbTraceBuilder *builder)
{
  if (builder == NULL)
    return;
  g_clear_pointer (&builder->trace, wb_trace_unref);
  g_ptr_array_free (builder->body, TRUE);
  g_hash_table_unref (builder->names);
  g_free (builder);
}

void
wb_trace_builder_add_dependency (WbTraceBuilder *b, WbTrace *other)
{
  g_return_if_fail (b != NULL && other != NULL);
  g_ptr_array_add (b->trace->deps, wb_trace_ref (other));
}

void
wb_trace_builder_set_provenance (WbTraceBuilder *b, const char *provenance, double ms)
{
  WbTrace *t = b->trace;
  t->provenance = wb_arena_strdup (b->arena, provenance);
  t->provenance_ms = ms;
  if (ms >= 0)
    {
      g_autofree char *line = g_strdup_printf ("# Constructed by %s (took %.0f milliseconds)", provenance, ms);
      t->header[0].text = wb_arena_strdup (b->arena, line);
    }
  else
    {
      g_autofree char *line = g_strdup_printf ("# Constructed by %s", provenance);
      t->header[0].text = wb_arena_strdup (b->arena, line);
    }
}

void
wb_trace_builder_set_signature (WbTraceBuilder *b, const char *name, const char *const *params, guint n)
{
  WbTrace *t = b->trace;
  t->function_name = wb_arena_strdup (b->arena, name);
  t->params = wb_arena_newv (b->arena, WbValue *, n ? n : 1);
  t->n_params = n;
  for (guint i = 0; i < n; i++)
    {
      const char *p = params[i];
      if (p[0] == '*')
        {
          WbValue *v = wb_arena_new0 (b->arena, WbValue);
          gboolean two = p[1] == '*';
          v->kind = two ? WB_VALUE_STARSTAR : WB_VALUE_STAR;
          v->base = wb_trace_builder_name (b, p + (two ? 2 : 1));
          t->params[i] = v;
        }
      else
        t->params[i] = wb_trace_builder_name (b, p);
    }
}

void
wb_trace_builder_set_filename (WbTraceBuilder *b, const char *filename)
{
  b->trace->filename = wb_arena_strdup (b->arena, filename);
}

WbValue *
wb_trace_builder_name (WbTraceBuilder *b, const char *name)
{
  WbValue *v = g_hash_table_lookup (b->names, name);
  if (v != NULL)
    return v;
  v = wb_arena_new0 (b->arena, WbValue);
  v->kind = WB_VALUE_NAME;
  v->text = wb_arena_strdup (b->arena, name);
  g_hash_table_insert (b->names, (gpointer) v->text, v);
  return v;
}

WbValue *
wb_trace_builder_int (WbTraceBuilder *b, gint64 value)
{
  char     buf[32];
  WbValue *v = wb_arena_new0 (b->arena, WbValue);
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, value);
  v->kind = WB_VALUE_INT;
  v->v.i = value;
  v->text = wb_arena_strdup (b->arena, buf);
  return v;
}

WbValue *
wb_trace_builder_none (WbTraceBuilder *b)
{
  WbValue *v = wb_arena_new0 (b->arena, WbValue);
  v->kind = WB_VALUE_NONE;
  v->text = "None";
  return v;
}

WbValue *
wb_trace_builder_string (WbTraceBuilder *b, const char *value)
{
  WbValue *v = wb_arena_new0 (b->arena, WbValue);
  GString *q = g_string_new ("'");
  for (const char *c = value; *c; c++)
    {
      if (*c == '\'' || *c == '\\')
        g_string_append_c (q, '\\');
      g_string_append_c (q, *c);
    }
  g_string_append_c (q, '\'');
  v->kind = WB_VALUE_STRING;
  v->v.s = wb_arena_strdup (b->arena, value);
  v->text = wb_arena_strndup (b->arena, q->str, q->len);
  g_string_free (q, TRUE);
  return v;
}

WbValue *
wb_trace_builder_sequence (WbTraceBuilder *b, WbValueKind kind, WbValue *const *items, guint n, guint flags)
{
  WbValue *v = wb_arena_new0 (b->arena, WbValue);
  g_return_val_if_fail (kind == WB_VALUE_TUPLE || kind == WB_VALUE_LIST, NULL);
  v->kind = kind;
  v->flags = flags;
  v->n_items = n;
  v->items = n ? wb_arena_memdup (b->arena, items, sizeof (WbValue *) * n) : NULL;
  return v;
}

WbValue *
wb_trace_builder_dict (WbTraceBuilder *b, const char *const *keys, WbValue *const *values, guint n)
{
  WbValue *v = wb_arena_new0 (b->arena, WbValue);
  v->kind = WB_VALUE_DICT;
  v->n_items = 2 * n;
  v->items = wb_arena_newv (b->arena, WbValue *, 2 * n + 1);
  for (guint i = 0; i < n; i++)
    {
      v->items[2 * i] = wb_trace_builder_string (b, keys[i]);
      v->items[2 * i + 1] = values[i];
    }
  return v;
}

const char *
wb_trace_builder_strdup (WbTraceBuilder *b, const char *s)
{
  return wb_arena_strdup (b->arena, s);
}

gpointer *
wb_trace_builder_array (WbTraceBuilder *b, guint n)
{
  return wb_arena_newv (b->arena, gpointer, n ? n : 1);
}

WbBsym *
wb_trace_builder_new_bsym (WbTraceBuilder *b, WbBsymKind kind)
{
  WbBsym *bsym = wb_arena_new0 (b->arena, WbBsym);
  bsym->kind = kind;
  return bsym;
}

WbBsym *
wb_trace_builder_copy_bsym (WbTraceBuilder *b, const WbBsym *bsym)
{
  return wb_arena_memdup (b->arena, bsym, sizeof *bsym);
}

void
wb_trace_builder_set_subsymbols (WbTraceBuilder *b, WbBsym *bsym, WbBsym *const *subsymbols, guint n)
{
  bsym->n_subsymbols = n;
  bsym->subsymbols = n ? wb_arena_memdup (b->arena, subsymbols, sizeof (WbBsym *) * n) : NULL;
}

void
wb_trace_builder_append (WbTraceBuilder *b, const WbBsym *bsym)
{
  g_return_if_fail (bsym != NULL);
  g_ptr_array_add (b->body, (gpointer) bsym);
}

guint
wb_trace_builder_get_n_body (WbTraceBuilder *b)
{
  return b->body->len;
}

/* Lines as wb_trace_print lays them out: header, def, then each bsym, its continuation lines and its
 * subsymbols. */
static guint
assign_lines (GHashTable *lines, const WbBsym *bsym, guint line)
{
  if (!g_hash_table_contains (lines, bsym))
    g_hash_table_insert (lines, (gpointer) bsym, GUINT_TO_POINTER (line));
  if (bsym->kind == WB_BSYM_UNPACK && bsym->outputs && bsym->outputs->breaks)
    for (guint i = 0; i < bsym->outputs->n_items; i++)
      line += bsym->outputs->breaks[i] ? 1 : 0;
  /* a parsed run of blank or comment lines is one bsym over several lines */
  line += _wb_bsym_run_lines (bsym);
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    line = assign_lines (lines, bsym->subsymbols[i], line);
  return line;
}

WbTrace *
wb_trace_builder_end (WbTraceBuilder *b)
{
  WbTrace *t = b->trace;
  guint    line;
  b->trace = NULL;
  if (t->header[0].text == NULL)
    t->header[0].text = "# Constructed by <computed>";
  t->n_body = b->body->len;
  t->body = (WbBsym **) wb_arena_memdup (b->arena, b->body->pdata, sizeof (gpointer) * (b->body->len ? b->body->len : 1));
  t->lines = g_hash_table_new (g_direct_hash, g_direct_equal);
  line = wb_trace_count_header_lines (t) + (t->function_name ? 2 : 1);
  for (guint i = 0; i < t->n_body; i++)
    line = assign_lines (t->lines, t->body[i], line);
  t->last_line = line - 1;
  wb_trace_builder_free (b);
  return t;
}

void
_wb_trace_set_provenance (WbTrace *trace, const char *provenance, double ms)
{
  WbArena         *arena = trace->arena;
  g_autofree char *line = ms >= 0 ? g_strdup_printf ("# Constructed by %s (took %.0f milliseconds)", provenance, ms)
                                  : g_strdup_printf ("# Constructed by %s", provenance);
  trace->provenance = wb_arena_strdup (arena, provenance);
  trace->provenance_ms = ms;
  for (guint i = 0; i < trace->n_header; i++)
    if (trace->header[i].kind == WB_HEADER_PROVENANCE)
      {
        trace->header[i].text = wb_arena_strdup (arena, line);
        return;
      }
}

void
_wb_trace_set_keys (WbTrace *trace, GHashTable *region_keys, GHashTable *unfused_from)
{
  g_clear_pointer (&trace->region_keys, g_hash_table_unref);
  g_clear_pointer (&trace->unfused_from, g_hash_table_unref);
  trace->region_keys = region_keys ? g_hash_table_ref (region_keys) : NULL;
  trace->unfused_from = unfused_from ? g_hash_table_ref (unfused_from) : NULL;
}

void
_wb_trace_set_filename (WbTrace *trace, const char *filename)
{
  trace->filename = wb_arena_strdup (trace->arena, filename);
}
