/* wb-value.c — printing and reading printed Python values
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Spelling follows Thunder's codeutils.prettyprint: ", " between items, "(a,)" for one-tuples,
 * "k=v" keyword arguments, and slices as "slice(a,b,c)" without spaces. Literals keep the spelling
 * they were parsed with. */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"

static void
append_items (const WbValue *value, GString *out)
{
  for (guint i = 0; i < value->n_items; i++)
    {
      if (i)
        g_string_append (out, ", ");
      wb_value_append (value->items[i], out);
    }
}

void
wb_value_append (const WbValue *value, GString *out)
{
  if (value == NULL)
    return;
  switch (value->kind)
    {
    case WB_VALUE_NONE:
      g_string_append (out, "None");
      break;
    case WB_VALUE_BOOL:
      g_string_append (out, value->v.b ? "True" : "False");
      break;
    case WB_VALUE_ELLIPSIS:
      g_string_append (out, "...");
      break;
    case WB_VALUE_INT:
    case WB_VALUE_FLOAT:
    case WB_VALUE_COMPLEX:
    case WB_VALUE_STRING:
    case WB_VALUE_NAME:
      g_string_append (out, value->text);
      break;
    case WB_VALUE_TUPLE:
      if (value->flags & WB_VALUE_FLAG_BARE)
        {
          append_items (value, out);
          if (value->flags & WB_VALUE_FLAG_TRAILING_COMMA)
            g_string_append_c (out, ',');
          break;
        }
      g_string_append_c (out, '(');
      append_items (value, out);
      if (value->n_items == 1 || (value->flags & WB_VALUE_FLAG_TRAILING_COMMA))
        g_string_append_c (out, ',');
      g_string_append_c (out, ')');
      break;
    case WB_VALUE_LIST:
      g_string_append_c (out, '[');
      append_items (value, out);
      if (value->flags & WB_VALUE_FLAG_TRAILING_COMMA)
        g_string_append_c (out, ',');
      g_string_append_c (out, ']');
      break;
    case WB_VALUE_DICT:
      g_string_append_c (out, '{');
      for (guint i = 0; i + 1 < value->n_items; i += 2)
        {
          if (i)
            g_string_append (out, ", ");
          wb_value_append (value->items[i], out);
          g_string_append (out, ": ");
          wb_value_append (value->items[i + 1], out);
        }
      g_string_append_c (out, '}');
      break;
    case WB_VALUE_ATTRIBUTE:
      wb_value_append (value->base, out);
      g_string_append_c (out, '.');
      g_string_append (out, value->text);
      break;
    case WB_VALUE_SUBSCRIPT:
      wb_value_append (value->base, out);
      g_string_append_c (out, '[');
      if (value->n_items == 1)
        wb_value_append (value->items[0], out);
      g_string_append_c (out, ']');
      break;
    case WB_VALUE_CALL:
      wb_value_append (value->base, out);
      g_string_append_c (out, '(');
      append_items (value, out);
      for (guint i = 0; i < value->n_kwargs; i++)
        {
          if (i || value->n_items)
            g_string_append (out, ", ");
          g_string_append (out, value->kwargs[i].name);
          g_string_append_c (out, '=');
          wb_value_append (value->kwargs[i].value, out);
        }
      g_string_append_c (out, ')');
      break;
    case WB_VALUE_SLICE:
      g_string_append (out, "slice(");
      for (guint i = 0; i < value->n_items; i++)
        {
          if (i)
            g_string_append_c (out, ',');
          wb_value_append (value->items[i], out);
        }
      g_string_append_c (out, ')');
      break;
    case WB_VALUE_NEG:
      g_string_append_c (out, '-');
      wb_value_append (value->base, out);
      break;
    case WB_VALUE_STAR:
      g_string_append_c (out, '*');
      wb_value_append (value->base, out);
      break;
    case WB_VALUE_STARSTAR:
      g_string_append (out, "**");
      wb_value_append (value->base, out);
      break;
    default:
      g_string_append (out, "<?>");
      break;
    }
}

char *
wb_value_to_string (const WbValue *value)
{
  GString *s = g_string_new (NULL);
  wb_value_append (value, s);
  return g_string_free (s, FALSE);
}

gboolean
wb_value_is_name (const WbValue *value, const char *name)
{
  return value != NULL && value->kind == WB_VALUE_NAME && (name == NULL || strcmp (value->text, name) == 0);
}

gboolean
wb_value_get_dtype (const WbValue *value, WbDtype *dtype, gboolean *weak)
{
  WbDtype  d = WB_DTYPE_UNKNOWN;
  gboolean w = FALSE;
  if (value == NULL)
    return FALSE;
  if (value->kind == WB_VALUE_ATTRIBUTE && value->base->kind == WB_VALUE_NAME)
    {
      if (strcmp (value->base->text, "dtypes") == 0)
        d = wb_dtype_from_thunder_name (value->text, &w);
      else if (strcmp (value->base->text, "torch") == 0)
        d = wb_dtype_from_torch_name (value->text);
    }
  else if (value->kind == WB_VALUE_NAME)
    {
      w = TRUE;
      if (strcmp (value->text, "float") == 0)
        d = WB_DTYPE_FLOAT32;
      else if (strcmp (value->text, "int") == 0)
        d = WB_DTYPE_INT64;
      else if (strcmp (value->text, "bool") == 0)
        d = WB_DTYPE_BOOL8;
      else if (strcmp (value->text, "complex") == 0)
        d = WB_DTYPE_COMPLEX64;
    }
  if (d == WB_DTYPE_UNKNOWN)
    return FALSE;
  if (dtype)
    *dtype = d;
  if (weak)
    *weak = w;
  return TRUE;
}

gboolean
wb_value_get_device (const WbValue *value, WbDevice *device)
{
  if (value == NULL)
    return FALSE;
  if (value->kind == WB_VALUE_STRING)
    return wb_device_parse (value->v.s, -1, device);
  if (value->kind == WB_VALUE_CALL && value->n_items == 1 && value->items[0]->kind == WB_VALUE_STRING && value->base->kind == WB_VALUE_ATTRIBUTE && value->base->base->kind == WB_VALUE_NAME)
    {
      const char *mod = value->base->base->text, *attr = value->base->text;
      if ((strcmp (mod, "devices") == 0 && strcmp (attr, "Device") == 0) || (strcmp (mod, "torch") == 0 && strcmp (attr, "device") == 0))
        return wb_device_parse (value->items[0]->v.s, -1, device);
    }
  return FALSE;
}

gboolean
wb_value_get_int (const WbValue *value, gint64 *out)
{
  if (value == NULL)
    return FALSE;
  if (value->kind == WB_VALUE_INT)
    *out = value->v.i;
  else if (value->kind == WB_VALUE_BOOL)
    *out = value->v.b ? 1 : 0;
  else
    return FALSE;
  return TRUE;
}

gboolean
wb_value_get_number (const WbValue *value, double *out)
{
  if (value == NULL)
    return FALSE;
  switch (value->kind)
    {
    case WB_VALUE_INT:
      *out = (double) value->v.i;
      return TRUE;
    case WB_VALUE_BOOL:
      *out = value->v.b ? 1.0 : 0.0;
      return TRUE;
    case WB_VALUE_FLOAT:
      *out = value->v.f;
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
wb_value_get_int_sequence (const WbValue *value, gint64 *out, guint max, guint *n_out, gboolean allow_scalar)
{
  if (value == NULL)
    return FALSE;
  if (allow_scalar && value->kind == WB_VALUE_INT)
    {
      if (max < 1)
        return FALSE;
      out[0] = value->v.i;
      *n_out = 1;
      return TRUE;
    }
  if (!wb_value_is_sequence (value) || value->n_items > max)
    return FALSE;
  for (guint i = 0; i < value->n_items; i++)
    if (!wb_value_get_int (value->items[i], &out[i]))
      return FALSE;
  *n_out = value->n_items;
  return TRUE;
}

gboolean
wb_value_is_sequence (const WbValue *value)
{
  return value != NULL && (value->kind == WB_VALUE_TUPLE || value->kind == WB_VALUE_LIST);
}
