/* wb-export-torch-expr.c — the torch exporter's Python expressions: values with names renamed and Thunder
 * dtypes and devices as torch's, operands, and the right-hand side of a call written by its emit row
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-export-torch-private.h"

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
        case '\\':
          g_string_append (s, "\\\\");
          break;
        case '\'':
          g_string_append (s, "\\'");
          break;
        case '\n':
          g_string_append (s, "\\n");
          break;
        case '\r':
          g_string_append (s, "\\r");
          break;
        case '\t':
          g_string_append (s, "\\t");
          break;
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
void
_wb_export_torch_append_comment (GString    *s,
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

void
_wb_export_torch_emit_items (Ctx            *c,
                             WbValue *const *items,
                             guint           n,
                             GString        *s)
{
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append (s, ", ");
      _wb_export_torch_emit_value (c, items[i], s);
    }
}

/* emit_value: @v as a Python expression of the script: names renamed, Thunder dtypes as torch dtypes, devices
 * as the script's device. */
void
_wb_export_torch_emit_value (Ctx           *c,
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
      g_string_append (s, _wb_export_torch_resolve_name (c, v->text));
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
          _wb_export_torch_emit_value (c, v->base, s);
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
      _wb_export_torch_emit_value (c, v->base, s);
      g_string_append_c (s, '(');
      _wb_export_torch_emit_items (c, v->items, v->n_items, s);
      for (guint i = 0; i < v->n_kwargs; i++)
        {
          if (i || v->n_items)
            g_string_append (s, ", ");
          g_string_append_printf (s, "%s=", v->kwargs[i].name);
          _wb_export_torch_emit_value (c, v->kwargs[i].value, s);
        }
      g_string_append_c (s, ')');
      break;
    case WB_VALUE_TUPLE:
      g_string_append_c (s, '(');
      _wb_export_torch_emit_items (c, v->items, v->n_items, s);
      if (v->n_items == 1)
        g_string_append_c (s, ',');
      g_string_append_c (s, ')');
      break;
    case WB_VALUE_LIST:
      g_string_append_c (s, '[');
      _wb_export_torch_emit_items (c, v->items, v->n_items, s);
      g_string_append_c (s, ']');
      break;
    case WB_VALUE_DICT:
      g_string_append_c (s, '{');
      for (guint i = 0; i + 1 < v->n_items; i += 2)
        {
          if (i)
            g_string_append (s, ", ");
          _wb_export_torch_emit_value (c, v->items[i], s);
          g_string_append (s, ": ");
          _wb_export_torch_emit_value (c, v->items[i + 1], s);
        }
      g_string_append_c (s, '}');
      break;
    case WB_VALUE_SUBSCRIPT:
      _wb_export_torch_emit_value (c, v->base, s);
      g_string_append_c (s, '[');
      _wb_export_torch_emit_items (c, v->items, v->n_items, s);
      g_string_append_c (s, ']');
      break;
    case WB_VALUE_SLICE:
      g_string_append (s, "slice(");
      _wb_export_torch_emit_items (c, v->items, v->n_items, s);
      g_string_append_c (s, ')');
      break;
    case WB_VALUE_NEG:
      g_string_append_c (s, '-');
      _wb_export_torch_emit_value (c, v->base, s);
      break;
    case WB_VALUE_STAR:
      g_string_append_c (s, '*');
      _wb_export_torch_emit_value (c, v->base, s);
      break;
    case WB_VALUE_STARSTAR:
      g_string_append (s, "**");
      _wb_export_torch_emit_value (c, v->base, s);
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
void
_wb_export_torch_emit_param (Ctx           *c,
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
    _wb_export_torch_emit_value (c, v, s);
}

/* expand: @tmpl with {param} replaced by the bound values ({*}: the extra positional arguments). */
static gboolean
expand (Ctx                 *c,
        const char          *tmpl,
        const WbExportBound *bd,
        GString             *s)
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
        _wb_export_torch_emit_items (c, bd->var_args, bd->n_var_args, s);
      else if ((i = _wb_export_torch_param_index (bd, p + 1, end - p - 1)) >= 0)
        _wb_export_torch_emit_param (c, bd->params[i].name, bd->values[i], s);
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

  _wb_export_torch_emit_value (c, v, t);
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
gboolean
_wb_export_torch_rhs (Ctx                   *c,
                      const WbExportEmitRow *row,
                      const WbExportBound   *bd,
                      GString               *s)
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
      _wb_export_torch_emit_value (c, a, s);
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
          _wb_export_torch_emit_value (c, a, s);
          g_string_append (s, ", ");
          _wb_export_torch_emit_value (c, b, s);
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
              _wb_export_torch_emit_value (c, x, s);
              g_string_append (s, ", ");
              _wb_export_torch_emit_value (c, other, s);
              g_string_append_c (s, ')');
            }
          else
            _wb_export_torch_emit_value (c, x, s);
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
          _wb_export_torch_emit_value (c, a, s);
          g_string_append (s, ", ");
          _wb_export_torch_emit_value (c, b, s);
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
        _wb_export_torch_emit_value (c, a, s);
        g_string_append (s, ", ");
        _wb_export_torch_emit_value (c, dims, s);
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
      _wb_export_torch_emit_value (c, a, s);
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
          _wb_export_torch_emit_param (c, p->name, bd->values[i], s);
        }
      g_string_append_c (s, ')');
      return TRUE;
    case E_COMMENT:
    default:
      return FALSE;
    }
}

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
