/* wb-trace.c — WbTrace lifetime and queries
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-trace-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-trace-error-quark, wb_trace_error)
/* clang-format on */

WbTrace *
wb_trace_ref (WbTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_atomic_int_inc (&trace->ref_count);
  return trace;
}

void
wb_trace_unref (WbTrace *trace)
{
  if (trace == NULL)
    return;
  if (g_atomic_int_dec_and_test (&trace->ref_count))
    {
      wb_arena_free (trace->arena);
      g_clear_pointer (&trace->deps, g_ptr_array_unref);
      g_clear_pointer (&trace->lines, g_hash_table_unref);
      g_clear_pointer (&trace->region_keys, g_hash_table_unref);
      g_clear_pointer (&trace->unfused_from, g_hash_table_unref);
      g_free (trace);
    }
}

WbArena *
_wb_trace_get_arena (const WbTrace *trace)
{
  return trace->arena;
}

guint
wb_trace_get_bsym_line (const WbTrace *trace, const WbBsym *bsym)
{
  g_return_val_if_fail (trace != NULL && bsym != NULL, 0);
  if (trace->lines != NULL)
    return GPOINTER_TO_UINT (g_hash_table_lookup (trace->lines, bsym));
  return bsym->line;
}

guint
_wb_bsym_run_lines (const WbBsym *bsym)
{
  const char *text = NULL;
  guint       n = 1;

  if (bsym->kind == WB_BSYM_BLANK)
    text = bsym->trailing;
  else if (bsym->kind == WB_BSYM_COMMENT)
    text = bsym->comment;
  for (; text != NULL && (text = strchr (text, '\n')) != NULL; text++)
    n++;
  return n;
}

guint
wb_trace_count_header_lines (const WbTrace *trace)
{
  guint n = 0;

  g_return_val_if_fail (trace != NULL, 0);
  for (guint i = 0; i < trace->n_header; i++)
    {
      n++;
      for (const char *p = trace->header[i].text; p != NULL && (p = strchr (p, '\n')) != NULL; p++)
        n++;
    }
  return n;
}

guint
wb_trace_count_bsyms (const WbTrace *trace)
{
  guint n = 0;
  g_return_val_if_fail (trace != NULL, 0);
  for (guint i = 0; i < trace->n_body; i++)
    {
      WbBsymKind k = trace->body[i]->kind;
      if (k == WB_BSYM_CALL || k == WB_BSYM_ASSIGN || k == WB_BSYM_UNPACK)
        n++;
    }
  return n;
}

static void
foreach_name (const WbValue *v, void (*func) (const WbValue *, gpointer), gpointer data)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    {
      if (strcmp (v->text, "_") != 0)
        func (v, data);
    }
  else if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    for (guint i = 0; i < v->n_items; i++)
      foreach_name (v->items[i], func, data);
}

void
wb_bsym_foreach_output (const WbBsym *bsym, void (*func) (const WbValue *name, gpointer data), gpointer data)
{
  g_return_if_fail (bsym != NULL);
  foreach_name (bsym->outputs, func, data);
}

static void
append_name (const WbValue *name, gpointer names)
{
  g_ptr_array_add (names, (gpointer) name->text);
}

void
wb_bsym_get_output_names (const WbBsym *bsym, GPtrArray *names)
{
  g_return_if_fail (bsym != NULL && names != NULL);
  foreach_name (bsym->outputs, append_name, names);
}

gboolean
wb_bsym_is_fusion (const WbBsym *bsym)
{
  return bsym != NULL && bsym->kind == WB_BSYM_CALL && wb_symbol_is_fusion (bsym->symbol);
}
