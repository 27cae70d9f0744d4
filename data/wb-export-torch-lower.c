/* wb-export-torch-lower.c — the torch exporter's statements: names in scope (renamed on collisions, rolled
 * back when an attempt fails), a call lowered by its row, its subsymbols, its like-prim or the torch function
 * itself, prologue assignments, fusion regions as functions of their own, and the stage's functions
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-export-torch-private.h"

/* -- state --------------------------------------------------------------------------------------------------- */

static Scope *
scope_new (void)
{
  Scope *s = g_new0 (Scope, 1);

  s->defined = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->reserved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->journal = g_ptr_array_new_with_free_func (g_free);
  return s;
}

static void
scope_free (Scope *s)
{
  g_hash_table_unref (s->defined);
  g_hash_table_unref (s->reserved);
  g_hash_table_unref (s->renames);
  g_ptr_array_unref (s->journal);
  g_free (s);
}

const char *
_wb_export_torch_resolve_name (Ctx        *c,
                               const char *name)
{
  const char *r = g_hash_table_lookup (c->scope->renames, name);

  return r != NULL ? r : name;
}

/* define_name: binds @name in the scope at @level (0: the scope's top level); returns the name to write. */
static const char *
define_name (Ctx        *c,
             const char *name,
             guint       level)
{
  Scope *s = c->scope;

  if (strcmp (name, "_") == 0)
    return name;
  if (level > 0 && g_hash_table_contains (s->reserved, name) &&
      (c->top_outputs == NULL || !g_hash_table_contains (c->top_outputs, name)) &&
      !g_hash_table_contains (s->renames, name))
    {
      char *fresh = g_strdup_printf ("%s__%u", name, ++c->counter);

      g_hash_table_insert (s->renames, g_strdup (name), fresh);
    }
  if (!g_hash_table_contains (s->defined, name))
    {
      g_hash_table_add (s->defined, g_strdup (name));
      g_ptr_array_add (s->journal, g_strdup (name));
    }
  return _wb_export_torch_resolve_name (c, name);
}

static void
rollback (Ctx  *c,
          guint mark)
{
  Scope *s = c->scope;

  while (s->journal->len > mark)
    {
      const char *name = g_ptr_array_index (s->journal, s->journal->len - 1);

      g_hash_table_remove (s->defined, name);
      g_hash_table_remove (s->renames, name);
      g_ptr_array_remove_index (s->journal, s->journal->len - 1);
    }
}

static gboolean
name_available (Ctx        *c,
                const char *name)
{
  return g_hash_table_contains (c->scope->defined, name) || g_hash_table_contains (c->free_names, name);
}

/* -- statements ------------------------------------------------------------------------------------------------ */

/* args_available: every name @b reads is bound in the scope or is a global of the script. */
static gboolean
args_available (Ctx          *c,
                const WbBsym *b)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  _wb_export_bsym_arg_names (b, names);
  for (guint i = 0; i < names->len; i++)
    if (!name_available (c, g_ptr_array_index (names, i)))
      return FALSE;
  return TRUE;
}

static void
emit_targets (Ctx           *c,
              const WbValue *v,
              guint          level,
              GString       *s)
{
  switch (v->kind)
    {
    case WB_VALUE_NAME:
      g_string_append (s, define_name (c, v->text, level));
      break;
    case WB_VALUE_LIST:
    case WB_VALUE_TUPLE:
      g_string_append_c (s, v->kind == WB_VALUE_LIST ? '[' : '(');
      for (guint i = 0; i < v->n_items; i++)
        {
          if (i)
            g_string_append (s, ", ");
          emit_targets (c, v->items[i], level, s);
        }
      if (v->kind == WB_VALUE_TUPLE && v->n_items == 1)
        g_string_append_c (s, ',');
      g_string_append_c (s, v->kind == WB_VALUE_LIST ? ']' : ')');
      break;
    default:
      _wb_export_torch_emit_value (c, v, s);
      break;
    }
}

/* emit_statement: "[targets = ]expr[  # type]" for @b whose right-hand side is @expr. */
static void
emit_statement (Ctx          *c,
                const WbBsym *b,
                const char   *expr,
                guint         level,
                GString      *out)
{
  g_string_append (out, INDENT);
  if (b->outputs != NULL)
    {
      emit_targets (c, b->outputs, level, out);
      g_string_append (out, " = ");
    }
  g_string_append (out, expr);
  if (b->has_type && b->type_name != NULL)
    {
      g_string_append_printf (out, "  # %s: \"", b->type_name);
      wb_type_append (&b->type, out);
      g_string_append_c (out, '"');
    }
  g_string_append_c (out, '\n');
}

/* emit_row: @b as a call of @sym written by @row. */
static gboolean
emit_row (Ctx                   *c,
          const WbSymbol        *sym,
          const WbExportEmitRow *row,
          const WbBsym          *b,
          guint                  level,
          GString               *out)
{
  WbExportBound bd;
  g_autoptr (GString) expr = g_string_new (NULL);

  if (!_wb_export_torch_bind (sym, b, &bd) || !args_available (c, b))
    return FALSE;
  if (row->kind == E_COMMENT)
    {
      const WbValue *text = _wb_export_torch_bound_get (&bd, "s");

      _wb_export_torch_append_comment (out, INDENT, text != NULL && text->kind == WB_VALUE_STRING ? text->v.s : "");
      return TRUE;
    }
  if (!_wb_export_torch_rhs (c, row, &bd, expr))
    return FALSE;
  if (b->outputs == NULL && strcmp (expr->str, "None") == 0)
    {
      /* a check or marker with nothing to do in PyTorch */
      return TRUE;
    }
  emit_statement (c, b, expr->str, level, out);
  return TRUE;
}

/* emit_direct: the torch function a torch-executor or ltorch symbol stands for, called as printed. */
static gboolean
emit_direct (Ctx          *c,
             const WbBsym *b,
             guint         level,
             GString      *out)
{
  const WbSymbol *sym = b->symbol;
  const char     *name = NULL;
  g_autoptr (GString) expr = g_string_new (NULL);

  switch (wb_symbol_get_module (sym))
    {
    case WB_SYMBOL_MODULE_TORCH:
      name = b->name;
      break;
    case WB_SYMBOL_MODULE_LTORCH:
      name = wb_symbol_is_opaque (sym) ? NULL : _wb_export_torch_tables ()->torch_alias[wb_symbol_get_id (sym)];
      if (name == NULL)
        {
          /* No torch-executor alias: the PyTorch function of the same name, resolved when the script runs. */
          g_string_append (expr, "_wb_ltorch.");
          name = wb_symbol_get_name (sym) + strlen ("ltorch.");
        }
      break;
    default:
      break;
    }
  if (name == NULL || !args_available (c, b))
    return FALSE;
  if (g_str_has_prefix (name, "Tensor."))
    g_string_append (expr, "torch.");
  g_string_append (expr, name);
  g_string_append_c (expr, '(');
  _wb_export_torch_emit_items (c, b->args, b->n_args, expr);
  for (guint i = 0; i < b->n_kwargs; i++)
    {
      if (i || b->n_args)
        g_string_append (expr, ", ");
      g_string_append_printf (expr, "%s=", b->kwargs[i].name);
      _wb_export_torch_emit_param (c, b->kwargs[i].name, b->kwargs[i].value, expr);
    }
  g_string_append_c (expr, ')');
  emit_statement (c, b, expr->str, level, out);
  return TRUE;
}

static gboolean lower_call (Ctx *c, const WbBsym *b, guint level, GString *out);

static void
add_output_name (const WbValue *name,
                 gpointer       data)
{
  g_hash_table_add (data, (gpointer) name->text);
}

static void
check_output_defined (const WbValue *name,
                      gpointer       data)
{
  gpointer *pair = data;
  Ctx      *c = pair[0];

  if (!g_hash_table_contains (c->scope->defined, name->text))
    pair[1] = GINT_TO_POINTER (FALSE);
}

/* lower_subsymbols: @b through its subsymbols; rolled back (FALSE) when one cannot be lowered or the body
 * does not bind @b's outputs. */
static gboolean
lower_subsymbols (Ctx          *c,
                  const WbBsym *b,
                  guint         level,
                  GString      *out)
{
  guint    mark = c->scope->journal->len;
  gsize    len = out->len;
  gboolean ok = TRUE;
  gpointer pair[2] = { c, GINT_TO_POINTER (TRUE) };

  for (guint i = 0; i < b->n_subsymbols && ok; i++)
    {
      const WbBsym *sub = b->subsymbols[i];

      if (sub->kind == WB_BSYM_CALL)
        ok = lower_call (c, sub, level + 1, out);
      else if (sub->kind == WB_BSYM_COMMENT)
        _wb_export_torch_append_comment (out, INDENT, sub->comment ? sub->comment : "");
    }
  if (ok)
    {
      wb_bsym_foreach_output (b, check_output_defined, pair);
      ok = GPOINTER_TO_INT (pair[1]);
    }
  if (!ok)
    {
      rollback (c, mark);
      g_string_truncate (out, len);
    }
  return ok;
}

static void emit_region (Ctx *c, const WbBsym *b, GString *out);

/* lower_call: writes @b (a CALL) as PyTorch; FALSE (nothing written) when no way is found. */
static gboolean
lower_call (Ctx          *c,
            const WbBsym *b,
            guint         level,
            GString      *out)
{
  const WbSymbol            *sym = b->symbol;
  const WbSymbol            *like;
  const WbExportTorchTables *tables = _wb_export_torch_tables ();
  const WbExportEmitRow     *row;

  if (sym == NULL)
    return FALSE;
  if (wb_symbol_is_fusion (sym))
    {
      if (level > 0)
        return lower_subsymbols (c, b, level, out);
      emit_region (c, b, out);
      return TRUE;
    }

  row = wb_symbol_is_opaque (sym) ? NULL : tables->rows[wb_symbol_get_id (sym)]; /* opaque: no row, id beyond the table */
  if (wb_symbol_get_module (sym) == WB_SYMBOL_MODULE_PRIMS)
    return row != NULL && emit_row (c, sym, row, b, level, out);
  if (row != NULL && emit_row (c, sym, row, b, level, out))
    return TRUE;
  if (b->n_subsymbols > 0 && lower_subsymbols (c, b, level, out))
    return TRUE;

  like = wb_symbol_get_like (sym);
  if (like != NULL)
    {
      row = tables->rows[wb_symbol_get_id (like)];
      if (row != NULL && emit_row (c, like, row, b, level, out))
        return TRUE;
    }
  return emit_direct (c, b, level, out);
}

/* emit_unsupported: a raise at the place of @b, and a warning. */
static void
emit_unsupported (Ctx          *c,
                  const WbBsym *b,
                  GString      *out)
{
  g_autofree char *message = g_strdup_printf ("thunder-wb: no PyTorch mapping for %s (%s:%u)",
                                              b->name ? b->name : "?", c->trace->filename ? c->trace->filename : "?",
                                              b->line);

  g_string_append (out, INDENT "raise NotImplementedError(");
  _wb_export_py_string (out, message);
  g_string_append (out, ")\n");
  c->n_unsupported++;
  if (c->warnings != NULL)
    g_ptr_array_add (c->warnings,
                     g_strdup_printf ("%s:%u: warning: no PyTorch mapping for %s (nor for its subsymbols): "
                                      "the script raises NotImplementedError there",
                                      c->trace->filename ? c->trace->filename : "?", b->line,
                                      b->name ? b->name : "?"));
}

/* emit_top_call: a top-level CALL of the function being written. */
static void
emit_top_call (Ctx          *c,
               const WbBsym *b,
               guint         level,
               GString      *out)
{
  g_autoptr (GHashTable) outputs = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *saved = c->top_outputs;

  wb_bsym_foreach_output (b, add_output_name, outputs);
  c->top_outputs = outputs;
  if (b->symbol != NULL && wb_symbol_get_module (b->symbol) != WB_SYMBOL_MODULE_PRIMS && !wb_bsym_is_fusion (b))
    {
      g_autofree char *line = _wb_export_bsym_line (b);

      _wb_export_torch_append_comment (out, INDENT, line);
    }
  if (!lower_call (c, b, level, out))
    emit_unsupported (c, b, out);
  c->top_outputs = saved;
}

static gboolean
is_param (const WbTrace *trace,
          const char    *name)
{
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      const char    *n = p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text
                                                                      : NULL;

      if (g_strcmp0 (n, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* emit_assign: an annotated assignment of a prologue (x: "type" = args[0], module.get_parameter('w'), ...). */
static void
emit_assign (Ctx          *c,
             const WbBsym *b,
             GString      *out)
{
  const WbValue *v = b->value;
  g_autoptr (GString) expr = g_string_new (NULL);
  g_autofree char *line = _wb_export_bsym_line (b);
  gboolean         verbatim = FALSE;

  if (v != NULL && v->kind == WB_VALUE_SUBSCRIPT && v->base != NULL && v->base->kind == WB_VALUE_CALL &&
      v->base->base != NULL && wb_value_is_name (v->base->base, "globals"))
    g_string_append (expr, "_wb_function_obj");
  else if (_wb_export_is_call_of (v, "get_thunder_module") && v->n_items == 1)
    _wb_export_torch_emit_value (c, v->items[0], expr);
  else if ((_wb_export_is_call_of (v, "get_parameter") || _wb_export_is_call_of (v, "get_buffer")) && v->base->base != NULL &&
           v->base->base->kind == WB_VALUE_NAME && g_hash_table_contains (c->scope->defined, v->base->base->text))
    verbatim = TRUE;
  else if (v != NULL && v->kind == WB_VALUE_SUBSCRIPT && v->base != NULL && v->base->kind == WB_VALUE_NAME &&
           is_param (c->trace, v->base->text))
    verbatim = TRUE;
  else if (b->has_type && b->type.has_value &&
           (b->type.kind == WB_TYPE_INT || b->type.kind == WB_TYPE_BOOL || b->type.kind == WB_TYPE_FLOAT))
    _wb_export_py_type_value (expr, &b->type);
  else
    g_string_append (expr, "_WB_UNKNOWN");
  if (verbatim)
    _wb_export_torch_emit_value (c, v, expr);

  if (!verbatim)
    _wb_export_torch_append_comment (out, INDENT, line);
  g_string_append (out, INDENT);
  if (b->outputs != NULL)
    emit_targets (c, b->outputs, 0, out);
  else
    g_string_append (out, define_name (c, b->name, 0));
  g_string_append_printf (out, " = %s\n", expr->str);
}

/* -- functions ------------------------------------------------------------------------------------------------ */

static void
reserve_bsym_names (Ctx          *c,
                    const WbBsym *b)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (b->outputs != NULL)
    _wb_export_value_names (b->outputs, names);
  if (b->kind == WB_BSYM_ASSIGN && b->outputs == NULL && b->name != NULL)
    g_ptr_array_add (names, (gpointer) b->name);
  for (guint i = 0; i < names->len; i++)
    g_hash_table_add (c->scope->reserved, g_strdup (g_ptr_array_index (names, i)));
}

/* emit_body_bsym: one statement of a function body (top level of the trace, or of a region). */
static void
emit_body_bsym (Ctx          *c,
                const WbBsym *b,
                GString      *out)
{
  switch (b->kind)
    {
    case WB_BSYM_CALL:
      emit_top_call (c, b, 0, out);
      break;
    case WB_BSYM_ASSIGN:
      emit_assign (c, b, out);
      break;
    case WB_BSYM_UNPACK:
      g_string_append (out, INDENT);
      for (guint i = 0; b->outputs != NULL && i < b->outputs->n_items; i++)
        {
          emit_targets (c, b->outputs->items[i], 0, out);
          g_string_append (out, ", ");
        }
      if (b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
        {
          emit_targets (c, b->outputs, 0, out);
          g_string_append (out, ", ");
        }
      g_string_append (out, "= ");
      _wb_export_torch_emit_value (c, b->value, out);
      g_string_append_c (out, '\n');
      break;
    case WB_BSYM_DEL:
      {
        g_autoptr (GString) names = g_string_new (NULL);

        for (guint i = 0; i < b->n_args; i++)
          if (b->args[i]->kind == WB_VALUE_NAME && g_hash_table_contains (c->scope->defined, b->args[i]->text))
            {
              if (names->len)
                g_string_append (names, ", ");
              g_string_append (names, _wb_export_torch_resolve_name (c, b->args[i]->text));
            }
        if (names->len > 0)
          g_string_append_printf (out, INDENT "del %s\n", names->str);
        break;
      }
    case WB_BSYM_RETURN:
      g_string_append (out, INDENT "return");
      if (b->value != NULL)
        {
          g_string_append_c (out, ' ');
          _wb_export_torch_emit_value (c, b->value, out);
        }
      g_string_append_c (out, '\n');
      break;
    case WB_BSYM_ANNOTATION:
      g_string_append_printf (out, INDENT "# %s: \"", b->name);
      wb_type_append (&b->type, out);
      g_string_append (out, "\"\n");
      break;
    case WB_BSYM_COMMENT:
      _wb_export_torch_append_comment (out, INDENT, b->comment ? b->comment : "");
      break;
    case WB_BSYM_BLANK:
      g_string_append_c (out, '\n');
      break;
    default:
      break;
    }
}

static char *
unique_function_name (Ctx        *c,
                      const char *wanted)
{
  char *name = g_strdup (wanted);

  for (guint i = 2; g_hash_table_contains (c->fn_names, name); i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s__%u", wanted, i);
    }
  g_hash_table_add (c->fn_names, g_strdup (name));
  return name;
}

/* emit_region: a fusion region as its own function (written to c->functions) and its call at @out. */
static void
emit_region (Ctx          *c,
             const WbBsym *b,
             GString      *out)
{
  g_autofree char *fn = unique_function_name (c, b->name);
  g_autoptr (GString) body = g_string_new (NULL);
  g_autoptr (GString) params = g_string_new (NULL);
  g_autoptr (GHashTable) param_set = g_hash_table_new (g_str_hash, g_str_equal);
  Scope      *outer = c->scope;
  GHashTable *outer_top = c->top_outputs;
  const char *executor = wb_symbol_get_executor (b->symbol);

  c->scope = scope_new ();
  c->top_outputs = NULL;
  for (guint i = 0; i < b->n_args; i++)
    {
      const WbValue   *a = b->args[i];
      g_autofree char *param = NULL;

      if (a->kind == WB_VALUE_NAME && !g_hash_table_contains (param_set, a->text))
        param = g_strdup (a->text);
      else
        param = g_strdup_printf ("_wb_in%u", i);
      g_hash_table_add (param_set, (gpointer) (a->kind == WB_VALUE_NAME ? a->text : ""));
      if (params->len)
        g_string_append (params, ", ");
      g_string_append (params, param);
      define_name (c, param, 0);
      g_hash_table_add (c->scope->reserved, g_strdup (param));
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    reserve_bsym_names (c, b->subsymbols[i]);
  if (b->outputs != NULL)
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new ();

      _wb_export_value_names (b->outputs, names);
      for (guint i = 0; i < names->len; i++)
        g_hash_table_add (c->scope->reserved, g_strdup (g_ptr_array_index (names, i)));
    }

  for (guint i = 0; i < b->n_subsymbols; i++)
    emit_body_bsym (c, b->subsymbols[i], body);
  g_string_append (body, INDENT "return ");
  _wb_export_torch_emit_value (c, b->outputs, body);
  g_string_append_c (body, '\n');

  g_string_append_printf (c->functions, "\n\n# fusion region %s%s%s%s (%u bound symbols)\n", b->name,
                          executor ? " of " : "", executor ? executor : "",
                          strcmp (fn, b->name) != 0 ? "; the trace has another region of this name" : "",
                          b->n_subsymbols);
  g_string_append_printf (c->functions, "def %s(%s):\n%s", fn, params->str, body->str);
  g_ptr_array_add (c->regions, g_strdup (fn));

  scope_free (c->scope);
  c->scope = outer;
  c->top_outputs = outer_top;

  g_string_append (out, INDENT);
  if (b->outputs != NULL)
    {
      emit_targets (c, b->outputs, 0, out);
      g_string_append (out, " = ");
    }
  g_string_append_printf (out, "%s(", fn);
  _wb_export_torch_emit_items (c, b->args, b->n_args, out);
  g_string_append (out, ")\n");
}

/* emit_function: the trace's function (the program of the stage) into @out; returns its Python name. */
char *
_wb_export_torch_emit_function (Ctx           *c,
                                const WbTrace *trace,
                                GString       *out)
{
  const char *wanted = trace->function_name ? trace->function_name : "computation";
  char       *fn = unique_function_name (c, wanted);
  gsize       body_start;

  c->trace = trace;
  c->scope = scope_new ();
  g_string_append_printf (out, "\n\n# %s%s%s\n@torch.no_grad()\ndef %s(", wb_export_role_to_string (wb_export_trace_role (trace, WB_TRACE_KIND_UNKNOWN)),
                          trace->provenance ? ": " : "", trace->provenance ? trace->provenance : "", fn);
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      const char    *name = p->kind == WB_VALUE_NAME ? p->text : (p->base ? p->base->text : "_");

      if (i)
        g_string_append (out, ", ");
      g_string_append (out, p->kind == WB_VALUE_STAR ? "*" : p->kind == WB_VALUE_STARSTAR ? "**"
                                                                                          : "");
      g_string_append (out, name);
      define_name (c, name, 0);
      g_hash_table_add (c->scope->reserved, g_strdup (name));
    }
  g_string_append (out, "):\n");
  for (guint i = 0; i < trace->n_body; i++)
    reserve_bsym_names (c, trace->body[i]);

  body_start = out->len;
  for (guint i = 0; i < trace->n_body; i++)
    emit_body_bsym (c, trace->body[i], out);
  /* A body of comments only (or nothing) still needs a statement. */
  {
    gboolean    has_statement = FALSE;
    const char *p = out->str + body_start;

    while (*p && !has_statement)
      {
        const char *eol = strchr (p, '\n');
        const char *q = p;

        while (*q == ' ')
          q++;
        if (*q != '#' && *q != '\n' && *q != '\0')
          has_statement = TRUE;
        p = eol ? eol + 1 : p + strlen (p);
      }
    if (!has_statement)
      g_string_append (out, INDENT "pass\n");
  }
  scope_free (c->scope);
  c->scope = NULL;
  return fn;
}
