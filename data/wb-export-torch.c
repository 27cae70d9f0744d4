/* wb-export-torch.c — a stage as a standalone PyTorch script: every symbol lowered to torch calls via prims
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a top-level bound symbol becomes PyTorch:
 *   prim                          -> the PyTorch call in prim_rows[] (prims.add -> a + b, prims.linear -> F.linear)
 *   fusion region (TorchCompileN) -> a Python function of its own holding its body, called as Thunder calls it
 *   executor op without a body    -> exec_rows[] (sdpa attention forward/backward, clear_mutable_collection)
 *   anything else with subsymbols -> its subsymbols, recursively (ltorch.gelu -> prims ... -> torch)
 *   an alias of a prim            -> that prim (torch_div_prim_impl -> prims.div, shallow_copy)
 *   torch/ltorch without a body   -> the torch function itself (torch.x, Tensor.x), the last resort
 *   nothing applies               -> raise NotImplementedError(...) at its place, and a warning
 * The lowering of a symbol's subsymbols is tried first and rolled back when one of them cannot be lowered
 * (or names something undefined), so a better-mapped parent can take over. Names of subsymbol outputs that
 * collide with top-level names of the function are renamed (Thunder keeps names unique, so this is a guard).
 * The fixed runner (wb-export-torch-runtime.py) builds inputs, runs, compares and times. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-export-torch-private.h"

/* -- state --------------------------------------------------------------------------------------------------- */

/* One Python function being written: which names exist in it. */
typedef struct
{
  GHashTable *defined;   /* names bound so far */
  GHashTable *reserved;  /* names bound by the function's own top-level statements and parameters */
  GHashTable *renames;   /* subsymbol name -> name used (collisions with reserved names) */
  GPtrArray  *journal;   /* names defined since the start of the current attempt (owned strings) */
} Scope;

typedef struct
{
  const WbTrace *trace;        /* the trace being written (main or companion) */
  GHashTable    *types;        /* name -> const WbType * of the trace being written */
  GHashTable    *free_names;   /* names used and never defined (emitted as globals) */
  GHashTable    *fn_names;     /* every Python function name written */
  GPtrArray     *regions;      /* (owned) names of the functions written for fusion regions */
  GString       *functions;    /* region functions, written before the stage's functions */
  GPtrArray     *warnings;     /* (nullable) */
  Scope         *scope;
  GHashTable    *top_outputs;  /* outputs of the top-level statement being lowered */
  guint          counter;
  guint          n_unsupported;
} Ctx;

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

static const char *
resolve_name (Ctx        *c,
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
  return resolve_name (c, name);
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

/* -- Python text ----------------------------------------------------------------------------------------------- */

void
_wb_export_py_string (GString    *s,
                  const char *text)
{
  g_string_append_c (s, '\'');
  for (const char *p = text; *p; p++)
    {
      switch (*p)
        {
        case '\\': g_string_append (s, "\\\\"); break;
        case '\'': g_string_append (s, "\\'"); break;
        case '\n': g_string_append (s, "\\n"); break;
        case '\r': g_string_append (s, "\\r"); break;
        case '\t': g_string_append (s, "\\t"); break;
        default:
          if ((guchar) *p < 0x20)
            g_string_append_printf (s, "\\x%02x", (guchar) *p);
          else
            g_string_append_c (s, *p);
        }
    }
  g_string_append_c (s, '\'');
}

/* append_comment: "# TEXT" with every line of TEXT commented. */
static void
append_comment (GString    *s,
                const char *indent,
                const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (s, "%s# %s\n", indent, lines[i]);
}

static void
append_device (GString        *s,
               const WbDevice *d)
{
  if (d->type == WB_DEVICE_CUDA)
    g_string_append (s, "_wb_DEVICE");
  else if (d->type == WB_DEVICE_META)
    g_string_append (s, "torch.device('meta')");
  else
    g_string_append (s, "_wb_CPU");
}

static void emit_value (Ctx *c, const WbValue *v, GString *s);

static void
emit_items (Ctx           *c,
            WbValue *const *items,
            guint          n,
            GString       *s)
{
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append (s, ", ");
      emit_value (c, items[i], s);
    }
}

/* emit_value: @v as a Python expression of the script: names renamed, Thunder dtypes as torch dtypes, devices
 * as the script's device. */
static void
emit_value (Ctx           *c,
            const WbValue *v,
            GString       *s)
{
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (v == NULL)
    {
      g_string_append (s, "None");
      return;
    }
  switch (v->kind)
    {
    case WB_VALUE_NAME:
      g_string_append (s, resolve_name (c, v->text));
      break;
    case WB_VALUE_ATTRIBUTE:
      if (v->base != NULL && v->base->kind == WB_VALUE_NAME &&
          (strcmp (v->base->text, "dtypes") == 0 || strcmp (v->base->text, "torch") == 0) &&
          wb_value_get_dtype (v, &dtype, &weak))
        g_string_append_printf (s, "torch.%s", wb_dtype_torch_name (dtype));
      else if (v->base != NULL && v->base->kind == WB_VALUE_NAME && strcmp (v->base->text, "devices") == 0 &&
               wb_value_get_device (v, &device))
        append_device (s, &device);
      else
        {
          emit_value (c, v->base, s);
          g_string_append_c (s, '.');
          g_string_append (s, v->text);
        }
      break;
    case WB_VALUE_CALL:
      if ((v->base != NULL && v->base->kind == WB_VALUE_ATTRIBUTE &&
           (g_strcmp0 (v->base->text, "Device") == 0 || g_strcmp0 (v->base->text, "device") == 0)) &&
          wb_value_get_device (v, &device))
        {
          append_device (s, &device);
          break;
        }
      emit_value (c, v->base, s);
      g_string_append_c (s, '(');
      emit_items (c, v->items, v->n_items, s);
      for (guint i = 0; i < v->n_kwargs; i++)
        {
          if (i || v->n_items)
            g_string_append (s, ", ");
          g_string_append_printf (s, "%s=", v->kwargs[i].name);
          emit_value (c, v->kwargs[i].value, s);
        }
      g_string_append_c (s, ')');
      break;
    case WB_VALUE_TUPLE:
      g_string_append_c (s, '(');
      emit_items (c, v->items, v->n_items, s);
      if (v->n_items == 1)
        g_string_append_c (s, ',');
      g_string_append_c (s, ')');
      break;
    case WB_VALUE_LIST:
      g_string_append_c (s, '[');
      emit_items (c, v->items, v->n_items, s);
      g_string_append_c (s, ']');
      break;
    case WB_VALUE_DICT:
      g_string_append_c (s, '{');
      for (guint i = 0; i + 1 < v->n_items; i += 2)
        {
          if (i)
            g_string_append (s, ", ");
          emit_value (c, v->items[i], s);
          g_string_append (s, ": ");
          emit_value (c, v->items[i + 1], s);
        }
      g_string_append_c (s, '}');
      break;
    case WB_VALUE_SUBSCRIPT:
      emit_value (c, v->base, s);
      g_string_append_c (s, '[');
      emit_items (c, v->items, v->n_items, s);
      g_string_append_c (s, ']');
      break;
    case WB_VALUE_SLICE:
      g_string_append (s, "slice(");
      emit_items (c, v->items, v->n_items, s);
      g_string_append_c (s, ')');
      break;
    case WB_VALUE_NEG:
      g_string_append_c (s, '-');
      emit_value (c, v->base, s);
      break;
    case WB_VALUE_STAR:
      g_string_append_c (s, '*');
      emit_value (c, v->base, s);
      break;
    case WB_VALUE_STARSTAR:
      g_string_append (s, "**");
      emit_value (c, v->base, s);
      break;
    case WB_VALUE_FLOAT:
      if (isinf (v->v.f) || isnan (v->v.f))
        {
          wb_value_append (v, s);
          break;
        }
      G_GNUC_FALLTHROUGH;
    default:
      wb_value_append (v, s);
      break;
    }
}

/* -- types of arguments -------------------------------------------------------------------------------------- */

static const WbType *
type_of (Ctx           *c,
         const WbValue *v)
{
  if (v == NULL || v->kind != WB_VALUE_NAME)
    return NULL;
  return g_hash_table_lookup (c->types, v->text);
}

static gboolean
is_number (Ctx           *c,
           const WbValue *v)
{
  const WbType *t;

  if (v == NULL)
    return FALSE;
  if (v->kind == WB_VALUE_INT || v->kind == WB_VALUE_FLOAT || v->kind == WB_VALUE_BOOL ||
      v->kind == WB_VALUE_COMPLEX)
    return TRUE;
  if (v->kind == WB_VALUE_NEG)
    return is_number (c, v->base);
  t = type_of (c, v);
  return t != NULL && (t->kind == WB_TYPE_INT || t->kind == WB_TYPE_FLOAT || t->kind == WB_TYPE_BOOL ||
                       t->kind == WB_TYPE_COMPLEX);
}

/* is_inexact: a float or complex literal, number or tensor (so prims.div divides truly). */
static gboolean
is_inexact (Ctx           *c,
            const WbValue *v)
{
  const WbType *t;

  if (v == NULL)
    return FALSE;
  if (v->kind == WB_VALUE_FLOAT || v->kind == WB_VALUE_COMPLEX)
    return TRUE;
  if (v->kind == WB_VALUE_NEG)
    return is_inexact (c, v->base);
  t = type_of (c, v);
  if (t == NULL)
    return FALSE;
  if (t->kind == WB_TYPE_FLOAT || t->kind == WB_TYPE_COMPLEX)
    return TRUE;
  return (t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR) &&
         (wb_dtype_is_float (t->dtype) || wb_dtype_is_complex (t->dtype));
}

/* emit_param: a bound parameter's value; "dtype" and "device" parameters are mapped even when spelled as
 * Python types or strings. */
static void
emit_param (Ctx           *c,
            const char    *name,
            const WbValue *v,
            GString       *s)
{
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  if (v != NULL && strcmp (name, "dtype") == 0 && wb_value_get_dtype (v, &dtype, &weak))
    g_string_append_printf (s, "torch.%s", wb_dtype_torch_name (dtype));
  else if (v != NULL && strcmp (name, "device") == 0 && v->kind != WB_VALUE_NONE && wb_value_get_device (v, &device))
    append_device (s, &device);
  else
    emit_value (c, v, s);
}

/* expand: @tmpl with {param} replaced by the bound values ({*}: the extra positional arguments). */
static gboolean
expand (Ctx         *c,
        const char  *tmpl,
        const WbExportBound *bd,
        GString     *s)
{
  for (const char *p = tmpl; *p; p++)
    {
      const char *end;
      int         i;

      if (*p != '{')
        {
          g_string_append_c (s, *p);
          continue;
        }
      end = strchr (p, '}');
      if (end == NULL)
        return FALSE;
      if (end - p == 2 && p[1] == '*')
        emit_items (c, bd->var_args, bd->n_var_args, s);
      else if ((i = _wb_export_torch_param_index (bd, p + 1, end - p - 1)) >= 0)
        emit_param (c, bd->params[i].name, bd->values[i], s);
      else
        return FALSE;
      p = end;
    }
  return TRUE;
}

/* operand: an operand of a Python operator, parenthesised when it starts with a minus sign. */
static void
operand (Ctx           *c,
         const WbValue *v,
         GString       *s)
{
  g_autoptr (GString) t = g_string_new (NULL);

  emit_value (c, v, t);
  if (t->str[0] == '-')
    g_string_append_printf (s, "(%s)", t->str);
  else
    g_string_append (s, t->str);
}

static gboolean
literal_int_list (const WbValue *v,
                  gint64        *out,
                  guint          max,
                  guint         *n)
{
  return v != NULL && wb_value_is_sequence (v) && wb_value_get_int_sequence (v, out, max, n, FALSE);
}

/* rhs: the expression for a call of @row's symbol bound as @bd, into @s. */
static gboolean
rhs (Ctx           *c,
     const WbExportEmitRow *row,
     const WbExportBound   *bd,
     GString       *s)
{
  const WbValue *a = _wb_export_torch_bound_get (bd, "a");
  const WbValue *b = _wb_export_torch_bound_get (bd, "b");

  switch (row->kind)
    {
    case E_FN:
      return expand (c, row->tmpl, bd, s);
    case E_UNARY:
      if (is_number (c, a))
        g_string_append_printf (s, "_wb_scalar(%s, ", row->tmpl);
      else
        g_string_append_printf (s, "%s(", row->tmpl);
      emit_value (c, a, s);
      g_string_append_c (s, ')');
      return TRUE;
    case E_BINOP:
      operand (c, a, s);
      g_string_append_printf (s, " %s ", row->tmpl);
      operand (c, b, s);
      return TRUE;
    case E_BINFN:
      if (is_number (c, a) && is_number (c, b))
        {
          g_string_append_printf (s, "_wb_scalar(%s, ", row->tmpl);
          emit_value (c, a, s);
          g_string_append (s, ", ");
          emit_value (c, b, s);
          g_string_append_c (s, ')');
          return TRUE;
        }
      g_string_append_printf (s, "%s(", row->tmpl);
      for (guint k = 0; k < 2; k++)
        {
          const WbValue *x = k == 0 ? a : b;
          const WbValue *other = k == 0 ? b : a;

          if (k)
            g_string_append (s, ", ");
          if (is_number (c, x))
            {
              g_string_append (s, "_wb_st(");
              emit_value (c, x, s);
              g_string_append (s, ", ");
              emit_value (c, other, s);
              g_string_append_c (s, ')');
            }
          else
            emit_value (c, x, s);
        }
      g_string_append_c (s, ')');
      return TRUE;
    case E_DIV:
      if (is_inexact (c, a) || is_inexact (c, b))
        {
          operand (c, a, s);
          g_string_append (s, " / ");
          operand (c, b, s);
        }
      else
        {
          g_string_append (s, "_wb_div(");
          emit_value (c, a, s);
          g_string_append (s, ", ");
          emit_value (c, b, s);
          g_string_append_c (s, ')');
        }
      return TRUE;
    case E_CONVERT:
      if (is_number (c, a))
        return expand (c, "_wb_convert({a}, {dtype})", bd, s);
      return expand (c, "{a}.to({dtype})", bd, s);
    case E_WHERE:
      if (is_number (c, _wb_export_torch_bound_get (bd, "pred")))
        return expand (c, "({a} if {pred} else {b})", bd, s);
      return expand (c, "torch.where({pred}, {a}, {b})", bd, s);
    case E_REDUCE:
      {
        const WbValue *dims = _wb_export_torch_bound_get (bd, "dims");

        if (dims != NULL && wb_value_is_sequence (dims) && dims->n_items == 0)
          return expand (c, "{a}.clone()", bd, s);
        g_string_append_printf (s, "%s(", row->tmpl);
        emit_value (c, a, s);
        g_string_append (s, ", ");
        emit_value (c, dims, s);
        g_string_append_c (s, ')');
        return TRUE;
      }
    case E_SLICE:
      {
        gint64         start[WB_MAX_RANK], stop[WB_MAX_RANK], step[WB_MAX_RANK];
        guint          n_start = 0, n_stop = 0, n_step = 0;
        const WbValue *strides = _wb_export_torch_bound_get (bd, "strides");
        gboolean       no_strides = strides == NULL || strides->kind == WB_VALUE_NONE;

        if (literal_int_list (_wb_export_torch_bound_get (bd, "start_indices"), start, WB_MAX_RANK, &n_start) &&
            literal_int_list (_wb_export_torch_bound_get (bd, "end_indices"), stop, WB_MAX_RANK, &n_stop) && n_start == n_stop &&
            (no_strides || (literal_int_list (strides, step, WB_MAX_RANK, &n_step) && n_step == n_start)))
          {
            operand (c, a, s);
            g_string_append_c (s, '[');
            if (n_start == 0)
              g_string_append (s, "()");
            for (guint i = 0; i < n_start; i++)
              {
                if (i)
                  g_string_append (s, ", ");
                g_string_append_printf (s, "%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, start[i], stop[i]);
                if (!no_strides && step[i] != 1)
                  g_string_append_printf (s, ":%" G_GINT64_FORMAT, step[i]);
              }
            g_string_append_c (s, ']');
            return TRUE;
          }
        return expand (c, "_wb_slice({a}, {start_indices}, {end_indices}, {strides})", bd, s);
      }
    case E_ALIAS:
      emit_value (c, a, s);
      return TRUE;
    case E_KWCALL:
      g_string_append_printf (s, "%s(", row->tmpl);
      for (guint i = 0, n = 0; i < bd->n_params; i++)
        {
          const WbParam *p = &bd->params[i];

          if (p->kind == WB_PARAM_VAR_POSITIONAL || p->kind == WB_PARAM_VAR_KEYWORD)
            continue;
          if (n++)
            g_string_append (s, ", ");
          if (p->kind != WB_PARAM_POSITIONAL_ONLY)
            g_string_append_printf (s, "%s=", p->name);
          emit_param (c, p->name, bd->values[i], s);
        }
      g_string_append_c (s, ')');
      return TRUE;
    case E_COMMENT:
    default:
      return FALSE;
    }
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
      emit_value (c, v, s);
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
emit_row (Ctx            *c,
          const WbSymbol *sym,
          const WbExportEmitRow  *row,
          const WbBsym   *b,
          guint           level,
          GString        *out)
{
  WbExportBound bd;
  g_autoptr (GString) expr = g_string_new (NULL);

  if (!_wb_export_torch_bind (sym, b, &bd) || !args_available (c, b))
    return FALSE;
  if (row->kind == E_COMMENT)
    {
      const WbValue *text = _wb_export_torch_bound_get (&bd, "s");

      append_comment (out, INDENT, text != NULL && text->kind == WB_VALUE_STRING ? text->v.s : "");
      return TRUE;
    }
  if (!rhs (c, row, &bd, expr))
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
      name = _wb_export_torch_tables ()->torch_alias[wb_symbol_get_id (sym)];
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
  emit_items (c, b->args, b->n_args, expr);
  for (guint i = 0; i < b->n_kwargs; i++)
    {
      if (i || b->n_args)
        g_string_append (expr, ", ");
      g_string_append_printf (expr, "%s=", b->kwargs[i].name);
      emit_param (c, b->kwargs[i].name, b->kwargs[i].value, expr);
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
        append_comment (out, INDENT, sub->comment ? sub->comment : "");
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
  const WbSymbol *sym = b->symbol;
  const WbSymbol *like;
  const WbExportTorchTables   *tables = _wb_export_torch_tables ();
  const WbExportEmitRow  *row;

  if (sym == NULL)
    return FALSE;
  if (wb_symbol_is_fusion (sym))
    {
      if (level > 0)
        return lower_subsymbols (c, b, level, out);
      emit_region (c, b, out);
      return TRUE;
    }

  row = tables->rows[wb_symbol_get_id (sym)];
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

      append_comment (out, INDENT, line);
    }
  if (!lower_call (c, b, level, out))
    emit_unsupported (c, b, out);
  c->top_outputs = saved;
}

/* -- prologue assignments ------------------------------------------------------------------------------------ */

gboolean
_wb_export_is_call_of (const WbValue *v,
            const char    *attribute)
{
  return v != NULL && v->kind == WB_VALUE_CALL && v->base != NULL && v->base->kind == WB_VALUE_ATTRIBUTE &&
         g_strcmp0 (v->base->text, attribute) == 0;
}

void
_wb_export_py_type_value (GString      *s,
                   const WbType *t)
{
  if (t->kind == WB_TYPE_BOOL)
    g_string_append (s, t->int_value ? "True" : "False");
  else if (t->kind == WB_TYPE_INT)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, t->int_value);
  else if (isinf (t->float_value))
    g_string_append (s, t->float_value > 0 ? "float('inf')" : "-float('inf')");
  else if (isnan (t->float_value))
    g_string_append (s, "float('nan')");
  else
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (buf, sizeof buf, "%.17g", t->float_value);
      g_string_append (s, buf);
      if (strpbrk (buf, ".eE") == NULL)
        g_string_append (s, ".0");
    }
}

static gboolean
is_param (const WbTrace *trace,
          const char    *name)
{
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      const char    *n = p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text : NULL;

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
    emit_value (c, v->items[0], expr);
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
    emit_value (c, v, expr);

  if (!verbatim)
    append_comment (out, INDENT, line);
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
      emit_value (c, b->value, out);
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
              g_string_append (names, resolve_name (c, b->args[i]->text));
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
          emit_value (c, b->value, out);
        }
      g_string_append_c (out, '\n');
      break;
    case WB_BSYM_ANNOTATION:
      g_string_append_printf (out, INDENT "# %s: \"", b->name);
      wb_type_append (&b->type, out);
      g_string_append (out, "\"\n");
      break;
    case WB_BSYM_COMMENT:
      append_comment (out, INDENT, b->comment ? b->comment : "");
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
      const WbValue *a = b->args[i];
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
  emit_value (c, b->outputs, body);
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
  emit_items (c, b->args, b->n_args, out);
  g_string_append (out, ")\n");
}

/* emit_function: the trace's function (the program of the stage) into @out; returns its Python name. */
static char *
emit_function (Ctx           *c,
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
      g_string_append (out, p->kind == WB_VALUE_STAR ? "*" : p->kind == WB_VALUE_STARSTAR ? "**" : "");
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
    gboolean has_statement = FALSE;
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

/* -- free names ---------------------------------------------------------------------------------------------- */

static void
add_defined (const WbBsym *b,
             GHashTable   *defined)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (b->outputs != NULL)
    _wb_export_value_names (b->outputs, names);
  if ((b->kind == WB_BSYM_ASSIGN || b->kind == WB_BSYM_ANNOTATION) && b->name != NULL)
    g_ptr_array_add (names, (gpointer) b->name);
  for (guint i = 0; i < names->len; i++)
    g_hash_table_add (defined, g_ptr_array_index (names, i));
  for (guint i = 0; i < b->n_subsymbols; i++)
    add_defined (b->subsymbols[i], defined);
}

static void
add_used (const WbBsym *b,
          GPtrArray    *used)
{
  if (b->kind == WB_BSYM_CALL)
    _wb_export_bsym_arg_names (b, used);
  else if (b->kind == WB_BSYM_ASSIGN || b->kind == WB_BSYM_UNPACK || b->kind == WB_BSYM_RETURN)
    _wb_export_value_names (b->value, used);
  for (guint i = 0; i < b->n_subsymbols; i++)
    add_used (b->subsymbols[i], used);
}

static const char *const python_names[] = {
  "None", "True", "False", "float", "int", "bool", "complex", "str", "slice", "tuple", "list", "dict",
  "torch", "math", "len", "range", "globals", "_",
};

static void
find_free_names (Ctx           *c,
                 const WbTrace *trace,
                 const WbTrace *companion,
                 GString       *out)
{
  g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) used = g_ptr_array_new ();
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();

  for (guint k = 0; k < 2; k++)
    {
      const WbTrace *t = k == 0 ? trace : companion;

      for (guint i = 0; t != NULL && i < t->n_params; i++)
        {
          const WbValue *p = t->params[i];

          g_hash_table_add (defined, (gpointer) (p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text : "_"));
        }
      for (guint i = 0; t != NULL && i < t->n_body; i++)
        {
          add_defined (t->body[i], defined);
          add_used (t->body[i], used);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (python_names); i++)
    g_hash_table_add (defined, (gpointer) python_names[i]);
  for (guint i = 0; i < used->len; i++)
    {
      const char *n = g_ptr_array_index (used, i);

      if (!g_hash_table_contains (defined, n) && !g_hash_table_contains (c->free_names, n))
        {
          g_hash_table_add (c->free_names, g_strdup (n));
          g_ptr_array_add (sorted, (gpointer) n);
        }
    }
  if (sorted->len == 0)
    return;
  g_string_append (out, "\n\n# Objects the trace names but Thunder could not print.\n");
  for (guint i = 0; i < sorted->len; i++)
    {
      const char *n = g_ptr_array_index (sorted, i);

      if (g_str_has_prefix (n, "_torch_memory_format"))
        g_string_append_printf (out, "%s = torch.preserve_format\n", n);
      else
        g_string_append_printf (out, "%s = None\n", n);
    }
}

/* -- the script ----------------------------------------------------------------------------------------------- */

static void
append_runtime (GString *out)
{
  const char *p = _wb_export_torch_runtime;
  const char *end = p + _wb_export_torch_runtime_len;

  /* Drop the file's own header comment: the script has its own. */
  while (p < end && *p == '#')
    {
      const char *eol = memchr (p, '\n', end - p);

      p = eol ? eol + 1 : end;
    }
  while (p < end && *p == '\n')
    p++;
  g_string_append_len (out, p, end - p);
}

static const char *
describe_role (WbExportRole role)
{
  switch (role)
    {
    case WB_EXPORT_ROLE_FINAL_FORWARD: return "the final forward";
    case WB_EXPORT_ROLE_JOINT: return "the joint forward+backward trace";
    case WB_EXPORT_ROLE_BACKWARD: return "a backward";
    case WB_EXPORT_ROLE_PROLOGUE: return "a prologue";
    case WB_EXPORT_ROLE_EPILOGUE: return "an epilogue";
    case WB_EXPORT_ROLE_FORWARD:
    default: return "a forward";
    }
}

char *
wb_export_torch (const WbTrace              *trace,
                 const WbExportTorchOptions *options,
                 GPtrArray                  *warnings)
{
  WbExportTorchOptions defaults = { 0 };
  Ctx                  ctx = { 0 };
  Ctx                 *c = &ctx;
  WbExportRole         role, companion_role = 0;
  const WbTrace       *forward, *backward = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) program = g_string_new (NULL);
  g_autoptr (GString) tables = g_string_new (NULL);
  g_autofree char *source = NULL;
  g_autofree char *fw_name = NULL;
  g_autofree char *bw_name = NULL;
  const char      *mode;

  g_return_val_if_fail (trace != NULL, NULL);
  if (options == NULL)
    options = &defaults;

  role = wb_export_trace_role (trace, options->kind);
  if (options->companion != NULL)
    companion_role = wb_export_trace_role (options->companion, options->companion_kind);
  forward = trace;
  if (role == WB_EXPORT_ROLE_FINAL_FORWARD && companion_role == WB_EXPORT_ROLE_BACKWARD)
    backward = options->companion;
  else if (role == WB_EXPORT_ROLE_BACKWARD && companion_role == WB_EXPORT_ROLE_FINAL_FORWARD)
    {
      forward = options->companion;
      backward = trace;
    }
  source = g_strdup (options->source ? options->source
                                     : (trace->filename ? trace->filename : "trace"));

  c->types = _wb_export_collect_types (forward);
  if (backward != NULL && backward != forward)
    _wb_export_add_types (c->types, backward);
  c->free_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->fn_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->regions = g_ptr_array_new_with_free_func (g_free);
  c->functions = g_string_new (NULL);
  c->warnings = warnings;
  /* The runner's own globals are taken. */
  g_hash_table_add (c->fn_names, g_strdup ("main"));

  find_free_names (c, forward, backward, program);
  fw_name = emit_function (c, forward, program);
  if (backward != NULL && backward != forward)
    bw_name = emit_function (c, backward, program);

  /* header */
  g_string_append (out, "#!/usr/bin/env python3\n");
  g_string_append_printf (out, "# %s: %s (`%s`), exported by thunder-wb %s as a standalone PyTorch script.\n",
                          source, describe_role (role), trace->function_name ? trace->function_name : "?",
                          PACKAGE_VERSION);
  if (backward != NULL && role == WB_EXPORT_ROLE_FINAL_FORWARD)
    g_string_append (out, "# It runs the forward, then the matching backward (backward_fn) on its saved-for-backward\n"
                          "# and a cotangent of ones (or grad_output from --inputs).\n");
  else if (backward != NULL)
    g_string_append (out, "# It runs the final forward that produces this backward's saved-for-backward, then the\n"
                          "# backward on a cotangent of ones (or grad_output from --inputs).\n");
  g_string_append (out,
                   "# Every bound symbol is lowered to PyTorch calls through Thunder's prims; each fusion region is a\n"
                   "# function of its own (--time also runs them under torch.compile one by one, as Thunder does).\n"
                   "# It imports only torch and the Python standard library.\n"
                   "#\n"
                   "#   python3 SCRIPT [--device cuda|cpu] [--seed N] [--inputs F.safetensors] [--compare F.safetensors]\n"
                   "#                  [--save F.safetensors] [--time [--iters N] [--warmup N] [--no-compile]]\n"
                   "#\n"
                   "# Random inputs are seeded; float tensors of rank >= 2 are N(0, 1/last dim) like initialised weights,\n"
                   "# integer tensors used as indices stay below the size they index.\n"
                   "# --inputs reads input.NAME, param.NAME or NAME (Thunder's t_a_b_weight is param a.b.weight) and\n"
                   "# grad_output; --compare checks output.I and grad.<input key> (the layout of tensors.safetensors).\n");
  if (c->n_unsupported > 0)
    g_string_append_printf (out, "# NOTE: %u bound symbols have no PyTorch mapping yet: they raise NotImplementedError.\n",
                            c->n_unsupported);
  append_runtime (out);

  g_string_append (out, c->functions->str);
  g_string_append (out, program->str);

  /* tables for the runner */
  if (backward != NULL)
    mode = "final_forward";
  else
    switch (role)
      {
      case WB_EXPORT_ROLE_FINAL_FORWARD: mode = "final_forward"; break;
      case WB_EXPORT_ROLE_JOINT: mode = "joint"; break;
      case WB_EXPORT_ROLE_BACKWARD: mode = "backward"; break;
      case WB_EXPORT_ROLE_PROLOGUE: mode = "prologue"; break;
      default: mode = "forward"; break;
      }

  _wb_export_torch_append_tables (tables, mode, source, fw_name, bw_name, c->regions, role, forward, backward,
                                  c->types);
  g_string_append (out, tables->str);
  g_string_append (out, "\n\nif __name__ == \"__main__\":\n" INDENT "sys.exit(_wb_main())\n");

  g_hash_table_unref (c->types);
  g_hash_table_unref (c->free_names);
  g_hash_table_unref (c->fn_names);
  g_ptr_array_unref (c->regions);
  g_string_free (c->functions, TRUE);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
