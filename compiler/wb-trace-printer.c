/* wb-trace-printer.c — prints traces as Thunder does (repr form: subsymbols as comments)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mirrors TraceCtx.python(print_depth=-1) and BoundSymbol._get_lines (thunder/core/trace.py,
 * thunder/core/symbol.py): two spaces per level, one "# " before a subsymbol, type comments as
 * `  # name: "type"`. Spellings of literals and the lenient details of older formats (trailing
 * whitespace, line continuations) are kept from the parse, so a parsed trace prints back byte for byte. */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"

static void
indent (GString *out, guint depth)
{
  for (guint i = 0; i < 2 + 2 * depth; i++)
    g_string_append_c (out, ' ');
  if (depth > 0)
    g_string_append (out, "# ");
}

static void
append_call (const WbBsym *b, GString *out)
{
  g_string_append (out, b->name);
  g_string_append_c (out, '(');
  for (guint i = 0; i < b->n_args; i++)
    {
      if (i)
        g_string_append (out, ", ");
      wb_value_append (b->args[i], out);
    }
  for (guint i = 0; i < b->n_kwargs; i++)
    {
      if (i || b->n_args)
        g_string_append (out, ", ");
      g_string_append (out, b->kwargs[i].name);
      g_string_append_c (out, '=');
      wb_value_append (b->kwargs[i].value, out);
    }
  g_string_append_c (out, ')');
}

static void
append_type_comment (const WbBsym *b, GString *out)
{
  if (b->has_type)
    {
      g_string_append (out, "  # ");
      g_string_append (out, b->type_name);
      g_string_append (out, ": \"");
      wb_type_append (&b->type, out);
      g_string_append_c (out, '"');
    }
  else if (b->comment != NULL)
    g_string_append (out, b->comment);
}

static void
append_unpack_targets (const WbValue *t, guint depth, GString *out)
{
  for (guint i = 0; i < t->n_items; i++)
    {
      gboolean brk = t->breaks != NULL && t->breaks[i];
      wb_value_append (t->items[i], out);
      if (i + 1 < t->n_items || (t->flags & WB_VALUE_FLAG_TRAILING_COMMA))
        g_string_append_c (out, ',');
      if (brk)
        {
          g_string_append (out, " \\\n");
          indent (out, depth);
        }
      else
        g_string_append_c (out, ' ');
    }
  g_string_append (out, "= ");
}

void
wb_bsym_print (const WbBsym *b, guint depth, GString *out)
{
  g_return_if_fail (b != NULL);
  if (b->kind != WB_BSYM_BLANK)
    indent (out, depth);
  switch (b->kind)
    {
    case WB_BSYM_CALL:
      if (b->outputs != NULL)
        {
          wb_value_append (b->outputs, out);
          g_string_append (out, " = ");
        }
      append_call (b, out);
      append_type_comment (b, out);
      break;
    case WB_BSYM_ASSIGN:
      wb_value_append (b->outputs, out);
      if (b->has_type && b->type_name == NULL)
        {
          g_string_append (out, ": \"");
          wb_type_append (&b->type, out);
          g_string_append (out, "\" = ");
          wb_value_append (b->value, out);
          if (b->comment)
            g_string_append (out, b->comment);
        }
      else
        {
          g_string_append (out, " = ");
          wb_value_append (b->value, out);
          append_type_comment (b, out);
        }
      break;
    case WB_BSYM_UNPACK:
      append_unpack_targets (b->outputs, depth, out);
      wb_value_append (b->value, out);
      if (b->comment)
        g_string_append (out, b->comment);
      break;
    case WB_BSYM_DEL:
      g_string_append (out, "del ");
      for (guint i = 0; i < b->n_args; i++)
        {
          if (i)
            g_string_append (out, ", ");
          wb_value_append (b->args[i], out);
        }
      if (b->comment)
        g_string_append (out, b->comment);
      break;
    case WB_BSYM_RETURN:
      g_string_append (out, "return");
      if (b->value != NULL)
        {
          g_string_append_c (out, ' ');
          wb_value_append (b->value, out);
        }
      if (b->comment)
        g_string_append (out, b->comment);
      break;
    case WB_BSYM_ANNOTATION:
      g_string_append (out, "# ");
      g_string_append (out, b->name);
      g_string_append (out, ": \"");
      wb_type_append (&b->type, out);
      g_string_append_c (out, '"');
      break;
    case WB_BSYM_COMMENT:
      g_string_append_c (out, '#');
      g_string_append (out, b->comment);
      break;
    case WB_BSYM_BLANK:
      break;
    }
  if (b->trailing)
    g_string_append (out, b->trailing);
  g_string_append_c (out, '\n');
  for (guint i = 0; i < b->n_subsymbols; i++)
    wb_bsym_print (b->subsymbols[i], depth + 1, out);
}

void
wb_trace_print (const WbTrace *trace, GString *out)
{
  g_return_if_fail (trace != NULL);
  g_return_if_fail (out != NULL);
  for (guint i = 0; i < trace->n_header; i++)
    {
      g_string_append (out, trace->header[i].text);
      g_string_append_c (out, '\n');
    }
  if (trace->function_name != NULL)
    {
      g_string_append (out, "def ");
      g_string_append (out, trace->function_name);
      g_string_append_c (out, '(');
      for (guint i = 0; i < trace->n_params; i++)
        {
          if (i)
            g_string_append (out, ", ");
          wb_value_append (trace->params[i], out);
        }
      g_string_append (out, "):\n");
    }
  for (guint i = 0; i < trace->n_body; i++)
    wb_bsym_print (trace->body[i], 0, out);
  if (!trace->ends_with_newline && out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
}

char *
wb_trace_to_string (const WbTrace *trace)
{
  GString *s = g_string_sized_new (4096);
  wb_trace_print (trace, s);
  return g_string_free (s, FALSE);
}
