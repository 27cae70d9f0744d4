/* wb-export.c — exports of one stage: formats, roles, companions, the python export and the dispatcher
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-export-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-export-error-quark, wb_export_error)
/* clang-format on */

static const char *const format_names[] = {
  [WB_EXPORT_FORMAT_PYTHON] = "python",
  [WB_EXPORT_FORMAT_TORCH] = "torch",
  [WB_EXPORT_FORMAT_DOT] = "dot",
  [WB_EXPORT_FORMAT_SVG] = "svg",
};

gboolean
wb_export_format_from_string (const char     *name,
                              WbExportFormat *format)
{
  g_return_val_if_fail (format != NULL, FALSE);

  for (guint i = WB_EXPORT_FORMAT_PYTHON; i <= WB_EXPORT_FORMAT_SVG; i++)
    if (g_strcmp0 (name, format_names[i]) == 0)
      {
        *format = (WbExportFormat) i;
        return TRUE;
      }
  return FALSE;
}

const char *
wb_export_format_to_string (WbExportFormat format)
{
  g_return_val_if_fail (format >= WB_EXPORT_FORMAT_PYTHON && format <= WB_EXPORT_FORMAT_SVG, NULL);
  return format_names[format];
}

const char *
wb_export_role_to_string (WbExportRole role)
{
  switch (role)
    {
    case WB_EXPORT_ROLE_FORWARD:
      return "forward";
    case WB_EXPORT_ROLE_FINAL_FORWARD:
      return "final_forward";
    case WB_EXPORT_ROLE_JOINT:
      return "joint";
    case WB_EXPORT_ROLE_BACKWARD:
      return "backward";
    case WB_EXPORT_ROLE_PROLOGUE:
      return "prologue";
    case WB_EXPORT_ROLE_EPILOGUE:
      return "epilogue";
    default:
      return "forward";
    }
}

/* -- helpers shared with the exporters ------------------------------------------------------------------------ */

static void
add_bsym_types (GHashTable   *types,
                const WbBsym *b)
{
  const char *name = NULL;

  if (b->has_type)
    {
      if (b->kind == WB_BSYM_CALL)
        name = b->type_name;
      else if (b->kind == WB_BSYM_ANNOTATION)
        name = b->name;
      else if (b->kind == WB_BSYM_ASSIGN)
        name = b->type_name != NULL                                        ? b->type_name
               : (b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME) ? b->outputs->text
                                                                           : b->name;
    }
  if (name != NULL && !g_hash_table_contains (types, name))
    g_hash_table_insert (types, (gpointer) name, (gpointer) &b->type);
  for (guint i = 0; i < b->n_subsymbols; i++)
    add_bsym_types (types, b->subsymbols[i]);
}

void
_wb_export_add_types (GHashTable    *types,
                      const WbTrace *trace)
{
  for (guint i = 0; i < trace->n_body; i++)
    add_bsym_types (types, trace->body[i]);
}

GHashTable *
_wb_export_collect_types (const WbTrace *trace)
{
  GHashTable *types = g_hash_table_new (g_str_hash, g_str_equal);

  _wb_export_add_types (types, trace);
  return types;
}

void
_wb_export_value_names (const WbValue *v,
                        GPtrArray     *names)
{
  if (v == NULL)
    return;
  switch (v->kind)
    {
    case WB_VALUE_NAME:
      g_ptr_array_add (names, (gpointer) v->text);
      break;
    case WB_VALUE_TUPLE:
    case WB_VALUE_LIST:
    case WB_VALUE_DICT:
    case WB_VALUE_SLICE:
      for (guint i = 0; i < v->n_items; i++)
        _wb_export_value_names (v->items[i], names);
      break;
    case WB_VALUE_CALL:
      for (guint i = 0; i < v->n_items; i++)
        _wb_export_value_names (v->items[i], names);
      for (guint i = 0; i < v->n_kwargs; i++)
        _wb_export_value_names (v->kwargs[i].value, names);
      if (v->base != NULL && v->base->kind != WB_VALUE_NAME && v->base->kind != WB_VALUE_ATTRIBUTE)
        _wb_export_value_names (v->base, names);
      break;
    case WB_VALUE_SUBSCRIPT:
      _wb_export_value_names (v->base, names);
      for (guint i = 0; i < v->n_items; i++)
        _wb_export_value_names (v->items[i], names);
      break;
    case WB_VALUE_NEG:
    case WB_VALUE_STAR:
    case WB_VALUE_STARSTAR:
      _wb_export_value_names (v->base, names);
      break;
    default:
      break;
    }
}

void
_wb_export_bsym_arg_names (const WbBsym *b,
                           GPtrArray    *names)
{
  for (guint i = 0; i < b->n_args; i++)
    _wb_export_value_names (b->args[i], names);
  for (guint i = 0; i < b->n_kwargs; i++)
    _wb_export_value_names (b->kwargs[i].value, names);
}

const WbValue *
_wb_export_find_return (const WbTrace *trace)
{
  for (guint i = trace->n_body; i > 0; i--)
    if (trace->body[i - 1]->kind == WB_BSYM_RETURN)
      return trace->body[i - 1]->value;
  return NULL;
}

const WbValue *
_wb_export_dict_get (const WbValue *dict,
                     const char    *key)
{
  if (dict == NULL || dict->kind != WB_VALUE_DICT)
    return NULL;
  for (guint i = 0; i + 1 < dict->n_items; i += 2)
    if (dict->items[i]->kind == WB_VALUE_STRING && g_strcmp0 (dict->items[i]->v.s, key) == 0)
      return dict->items[i + 1];
  return NULL;
}

char *
_wb_export_bsym_line (const WbBsym *bsym)
{
  WbBsym   copy = *bsym;
  GString *s = g_string_new (NULL);
  char    *p;

  copy.n_subsymbols = 0;
  copy.subsymbols = NULL;
  wb_bsym_print (&copy, 0, s);
  /* A wrapped unpack continues on the next line: keep it on one. */
  while ((p = strstr (s->str, " \\\n")) != NULL)
    {
      gsize at = p - s->str;
      gsize end = at + 3;

      while (end < s->len && s->str[end] == ' ')
        end++;
      g_string_erase (s, at, end - at);
      g_string_insert_c (s, at, ' ');
    }
  while (s->len > 0 && (s->str[s->len - 1] == '\n' || s->str[s->len - 1] == ' '))
    g_string_truncate (s, s->len - 1);
  p = s->str;
  while (*p == ' ')
    p++;
  p = g_strdup (p);
  g_string_free (s, TRUE);
  return p;
}

/* -- roles and companions ------------------------------------------------------------------------------------ */

WbExportRole
wb_export_trace_role (const WbTrace *trace,
                      WbTraceKind    kind)
{
  const WbValue *ret;

  g_return_val_if_fail (trace != NULL, WB_EXPORT_ROLE_FORWARD);

  if (kind == WB_TRACE_KIND_PROLOGUE || g_strcmp0 (trace->function_name, "prologue") == 0)
    return WB_EXPORT_ROLE_PROLOGUE;
  if (kind == WB_TRACE_KIND_EPILOGUE || g_strcmp0 (trace->function_name, "epilogue") == 0)
    return WB_EXPORT_ROLE_EPILOGUE;
  if (kind == WB_TRACE_KIND_BACKWARD || g_strcmp0 (trace->function_name, "backward_fn") == 0)
    return WB_EXPORT_ROLE_BACKWARD;

  ret = _wb_export_find_return (trace);
  if (ret != NULL && ret->kind == WB_VALUE_TUPLE && ret->n_items == 2 && ret->items[0]->kind == WB_VALUE_DICT &&
      _wb_export_dict_get (ret->items[0], "output") != NULL && ret->items[1]->kind == WB_VALUE_TUPLE)
    return WB_EXPORT_ROLE_FINAL_FORWARD;
  if (ret != NULL && _wb_export_dict_get (ret, "fw_flat_out") != NULL)
    return WB_EXPORT_ROLE_JOINT;
  return WB_EXPORT_ROLE_FORWARD;
}

static gboolean
same_subset (const WbTraceEntry *a,
             const WbTraceEntry *b)
{
  return g_strcmp0 (a->subset ? a->subset : "", b->subset ? b->subset : "") == 0;
}

static gboolean
label_has (const WbTraceEntry *e,
           const char         *what)
{
  return e->label != NULL && strstr (e->label, what) != NULL;
}

int
wb_export_find_companion (const WbTraceSet *set,
                          guint             k)
{
  const WbTraceEntry *e;
  WbExportRole        role;
  guint               n;
  int                 best = -1;

  g_return_val_if_fail (set != NULL, -1);
  n = wb_trace_set_get_n_entries (set);
  if (k >= n)
    return -1;
  e = wb_trace_set_get_entry (set, k);
  role = wb_export_trace_role (e->trace, e->kind);

  if (role == WB_EXPORT_ROLE_FINAL_FORWARD)
    {
      for (guint i = 0; i < n; i++)
        {
          const WbTraceEntry *o = wb_trace_set_get_entry (set, i);

          if (i == k || !same_subset (e, o) ||
              wb_export_trace_role (o->trace, o->kind) != WB_EXPORT_ROLE_BACKWARD)
            continue;
          if (e->kind == WB_TRACE_KIND_STAGE)
            {
              /* stages/NN_split_forward.py goes with stages/NN_split_backward.py */
              if (o->kind == WB_TRACE_KIND_STAGE && label_has (e, "split_forward") && label_has (o, "split_backward"))
                best = i;
            }
          else if (o->kind == WB_TRACE_KIND_BACKWARD &&
                   (best < 0 || o->index >= wb_trace_set_get_entry (set, best)->index))
            best = i;
        }
      return best;
    }

  if (role == WB_EXPORT_ROLE_BACKWARD)
    {
      for (guint i = 0; i < n; i++)
        {
          const WbTraceEntry *o = wb_trace_set_get_entry (set, i);

          if (i == k || !same_subset (e, o) ||
              wb_export_trace_role (o->trace, o->kind) != WB_EXPORT_ROLE_FINAL_FORWARD)
            continue;
          if (e->kind == WB_TRACE_KIND_STAGE)
            {
              if (o->kind == WB_TRACE_KIND_STAGE && label_has (e, "split_backward") && label_has (o, "split_forward"))
                best = i;
            }
          else if (o->kind == WB_TRACE_KIND_FORWARD &&
                   (best < 0 || o->index >= wb_trace_set_get_entry (set, best)->index))
            best = i;
        }
      return best;
    }
  return -1;
}

/* -- python ---------------------------------------------------------------------------------------------------- */

char *
wb_export_python (const WbTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return wb_trace_to_string (trace);
}

/* -- dispatcher ------------------------------------------------------------------------------------------------ */

char *
wb_export_entry (const WbTraceSet *set,
                 guint             k,
                 WbExportFormat    format,
                 gboolean          with_companion,
                 const char       *source,
                 GPtrArray        *warnings,
                 GError          **error)
{
  const WbTraceEntry *e;
  g_autofree char    *title = NULL;
  guint               n;

  g_return_val_if_fail (set != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = wb_trace_set_get_n_entries (set);
  if (k >= n)
    {
      g_set_error (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_BAD_ENTRY,
                   "entry %u does not exist: %s has %u entries, numbered from 0", k, source ? source : "the set", n);
      return NULL;
    }
  e = wb_trace_set_get_entry (set, k);
  if (e->label != NULL)
    title = g_strdup_printf ("%s entry %u (%s%s%s)", source ? source : "trace", k,
                             e->subset && e->subset[0] ? e->subset : "", e->subset && e->subset[0] ? "/" : "",
                             e->label);
  else
    title = g_strdup_printf ("%s entry %u (%s%s%s_%02d)", source ? source : "trace", k,
                             e->subset && e->subset[0] ? e->subset : "", e->subset && e->subset[0] ? "/" : "",
                             wb_trace_kind_to_string (e->kind), MAX (e->index, 0));

  switch (format)
    {
    case WB_EXPORT_FORMAT_PYTHON:
      return wb_export_python (e->trace);
    case WB_EXPORT_FORMAT_TORCH:
      {
        WbExportTorchOptions options = { 0 };
        int                  c = with_companion ? wb_export_find_companion (set, k) : -1;

        options.kind = e->kind;
        options.source = title;
        if (c >= 0)
          {
            options.companion = wb_trace_set_get_entry (set, c)->trace;
            options.companion_kind = wb_trace_set_get_entry (set, c)->kind;
          }
        return wb_export_torch (e->trace, &options, warnings);
      }
    case WB_EXPORT_FORMAT_DOT:
      return wb_export_dot (e->trace, title);
    case WB_EXPORT_FORMAT_SVG:
      {
        g_autofree char *dot = wb_export_dot (e->trace, title);
        char            *svg = NULL;

        if (!wb_export_dot_to_svg (dot, &svg, NULL, error))
          return NULL;
        return svg;
      }
    default:
      g_set_error (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_UNSUPPORTED, "unknown export format %d", (int) format);
      return NULL;
    }
}
