/* wb-pass-util.c — dataflow and typing helpers shared by the passes
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

static void
add_value_names (const WbValue *v, GPtrArray *names)
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
        add_value_names (v->items[i], names);
      break;
    case WB_VALUE_CALL:
      /* devices.Device("cuda:0"), torch.device(...): the callee is not a proxy */
      for (guint i = 0; i < v->n_items; i++)
        add_value_names (v->items[i], names);
      for (guint i = 0; i < v->n_kwargs; i++)
        add_value_names (v->kwargs[i].value, names);
      break;
    case WB_VALUE_SUBSCRIPT:
      add_value_names (v->base, names);
      for (guint i = 0; i < v->n_items; i++)
        add_value_names (v->items[i], names);
      break;
    case WB_VALUE_NEG:
    case WB_VALUE_STAR:
    case WB_VALUE_STARSTAR:
      add_value_names (v->base, names);
      break;
    default:
      break;
    }
}

void
_wb_bsym_add_inputs (const WbBsym *bsym, GPtrArray *names)
{
  switch (bsym->kind)
    {
    case WB_BSYM_CALL:
      for (guint i = 0; i < bsym->n_args; i++)
        add_value_names (bsym->args[i], names);
      for (guint i = 0; i < bsym->n_kwargs; i++)
        add_value_names (bsym->kwargs[i].value, names);
      break;
    case WB_BSYM_ASSIGN:
    case WB_BSYM_UNPACK:
    case WB_BSYM_RETURN:
      add_value_names (bsym->value, names);
      break;
    default:
      break;
    }
}

static void
add_output_names (const WbValue *v, GPtrArray *names)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    {
      if (strcmp (v->text, "_") != 0)
        g_ptr_array_add (names, (gpointer) v->text);
    }
  else if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    for (guint i = 0; i < v->n_items; i++)
      add_output_names (v->items[i], names);
}

void
_wb_bsym_add_outputs (const WbBsym *bsym, GPtrArray *names)
{
  if (bsym->kind == WB_BSYM_ANNOTATION)
    g_ptr_array_add (names, (gpointer) bsym->name);
  else if (bsym->kind == WB_BSYM_CALL || bsym->kind == WB_BSYM_ASSIGN || bsym->kind == WB_BSYM_UNPACK)
    add_output_names (bsym->outputs, names);
}

gboolean
_wb_type_env_lookup (const char *name, WbType *out, gpointer env)
{
  WbType *t = g_hash_table_lookup (env, name);
  if (t == NULL)
    return FALSE;
  *out = *t;
  return TRUE;
}

static void
env_set (GHashTable *env, const char *name, const WbType *type)
{
  if (!g_hash_table_contains (env, name))
    g_hash_table_insert (env, (gpointer) name, g_memdup2 (type, sizeof *type));
}

static void
env_add_bsym (GHashTable *env, const WbBsym *b)
{
  if (b->kind == WB_BSYM_ANNOTATION && b->has_type)
    env_set (env, b->name, &b->type);
  else if ((b->kind == WB_BSYM_CALL || b->kind == WB_BSYM_ASSIGN) && b->has_type && b->outputs && b->outputs->kind == WB_VALUE_NAME)
    env_set (env, b->outputs->text, &b->type);
  else if (b->kind == WB_BSYM_CALL && b->outputs != NULL && b->symbol != NULL && !wb_symbol_is_fusion (b->symbol))
    {
      /* list/tuple outputs carry no type comment: derive them */
      g_autoptr (GArray) types = g_array_new (FALSE, FALSE, sizeof (WbType));
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      _wb_bsym_add_outputs (b, names);
      if (wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, _wb_type_env_lookup, env, types, NULL))
        {
          /* infer lists every output position, "_" included */
          GPtrArray *all = g_ptr_array_new ();
          if (b->outputs->kind == WB_VALUE_NAME)
            g_ptr_array_add (all, (gpointer) b->outputs->text);
          else
            for (guint i = 0; i < b->outputs->n_items; i++)
              g_ptr_array_add (all, b->outputs->items[i]->kind == WB_VALUE_NAME ? (gpointer) b->outputs->items[i]->text : (gpointer) "_");
          for (guint i = 0; i < all->len && i < types->len; i++)
            if (strcmp (all->pdata[i], "_") != 0)
              env_set (env, all->pdata[i], &g_array_index (types, WbType, i));
          g_ptr_array_free (all, TRUE);
        }
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    env_add_bsym (env, b->subsymbols[i]);
}

GHashTable *
_wb_type_env_new (const WbTrace *trace)
{
  GHashTable *env = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  _wb_type_env_add (env, trace);
  return env;
}

/* Process-group globals typed as ints holding the group's size (wb-meta-distributed.c reads them). */
static void
env_add_groups (GHashTable *env, const WbTrace *trace)
{
  g_autoptr (GHashTable) sizes = wb_dist_group_sizes_new (trace);
  GHashTableIter it;
  gpointer       name, size;

  g_hash_table_iter_init (&it, sizes);
  while (g_hash_table_iter_next (&it, &name, &size))
    {
      WbType t = { .kind = WB_TYPE_INT, .has_value = TRUE, .int_value = GPOINTER_TO_INT (size) };
      env_set (env, name, &t);
    }
}

/* DTensor mesh and placement globals typed from the trace's annotated dtensor calls (wb-meta-dtensor.c). */
static void
env_add_dtensor_globals (GHashTable *env, const WbTrace *trace)
{
  g_autoptr (GHashTable) globals = wb_dtensor_globals_new (trace);
  GHashTableIter it;
  gpointer       name, type;

  g_hash_table_iter_init (&it, globals);
  while (g_hash_table_iter_next (&it, &name, &type))
    env_set (env, name, type);
}

void
_wb_type_env_add (GHashTable *env, const WbTrace *trace)
{
  env_add_groups (env, trace);
  env_add_dtensor_globals (env, trace);
  for (guint i = 0; i < trace->n_body; i++)
    env_add_bsym (env, trace->body[i]);
}

void
_wb_sources_add (GHashTable *sources, const WbBsym *out, const WbBsym *in)
{
  GPtrArray *list = g_hash_table_lookup (sources, out);
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (sources, (gpointer) out, list);
    }
  for (guint i = 0; i < list->len; i++)
    if (list->pdata[i] == in)
      return;
  g_ptr_array_add (list, (gpointer) in);
}

gboolean
_wb_bsym_is_get_grad (const WbBsym *bsym)
{
  return bsym->kind == WB_BSYM_CALL && bsym->name != NULL && strcmp (bsym->name, "prims.get_grad") == 0;
}

static WbValue *
rename_value (WbTraceBuilder *b, WbValue *v, GHashTable *renames, gboolean *changed)
{
  WbValue  *copy;
  gboolean  any = FALSE;
  WbValue **items;
  if (v == NULL)
    return NULL;
  if (v->kind == WB_VALUE_NAME)
    {
      WbValue *r = g_hash_table_lookup (renames, v->text);
      if (r != NULL)
        {
          *changed = TRUE;
          return r;
        }
      return v;
    }
  if (v->kind != WB_VALUE_TUPLE && v->kind != WB_VALUE_LIST && v->kind != WB_VALUE_DICT)
    return v;
  items = g_newa (WbValue *, v->n_items + 1);
  for (guint i = 0; i < v->n_items; i++)
    items[i] = rename_value (b, v->items[i], renames, &any);
  if (!any)
    return v;
  *changed = TRUE;
  copy = wb_trace_builder_sequence (b, v->kind == WB_VALUE_DICT ? WB_VALUE_TUPLE : v->kind, items, v->n_items, v->flags);
  copy->kind = v->kind;
  return copy;
}

const WbBsym *
_wb_bsym_rename (WbTraceBuilder *b, const WbBsym *bsym, GHashTable *renames)
{
  gboolean       changed = FALSE;
  WbValue      **args = g_newa (WbValue *, bsym->n_args + 1);
  WbKwarg       *kwargs = g_newa (WbKwarg, bsym->n_kwargs + 1);
  const WbBsym **subs = g_newa (const WbBsym *, bsym->n_subsymbols + 1);
  WbValue       *value, *outputs;
  WbBsym        *copy;
  if (g_hash_table_size (renames) == 0)
    return bsym;
  for (guint i = 0; i < bsym->n_args; i++)
    args[i] = rename_value (b, bsym->args[i], renames, &changed);
  for (guint i = 0; i < bsym->n_kwargs; i++)
    {
      kwargs[i].name = bsym->kwargs[i].name;
      kwargs[i].value = rename_value (b, bsym->kwargs[i].value, renames, &changed);
    }
  value = rename_value (b, bsym->value, renames, &changed);
  outputs = rename_value (b, bsym->outputs, renames, &changed);
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    {
      subs[i] = _wb_bsym_rename (b, bsym->subsymbols[i], renames);
      changed |= subs[i] != bsym->subsymbols[i];
    }
  if (!changed)
    return bsym;
  copy = wb_trace_builder_copy_bsym (b, bsym);
  if (bsym->n_args)
    {
      copy->args = (WbValue **) wb_trace_builder_array (b, bsym->n_args);
      memcpy (copy->args, args, sizeof (WbValue *) * bsym->n_args);
    }
  if (bsym->n_kwargs)
    {
      copy->kwargs = (WbKwarg *) wb_trace_builder_array (b, 2 * bsym->n_kwargs);
      memcpy (copy->kwargs, kwargs, sizeof (WbKwarg) * bsym->n_kwargs);
    }
  copy->value = value;
  copy->outputs = outputs;
  if (outputs != bsym->outputs && outputs != NULL && outputs->kind == WB_VALUE_NAME && copy->type_name != NULL)
    copy->type_name = outputs->text;
  if (bsym->n_subsymbols)
    wb_trace_builder_set_subsymbols (b, copy, (WbBsym *const *) subs, bsym->n_subsymbols);
  return copy;
}

const WbBsym *
_wb_trace_return (const WbTrace *trace)
{
  for (guint i = trace->n_body; i > 0; i--)
    if (trace->body[i - 1]->kind == WB_BSYM_RETURN)
      return trace->body[i - 1];
  return NULL;
}

const WbValue *
_wb_dict_get (const WbValue *dict, const char *key)
{
  if (dict == NULL || dict->kind != WB_VALUE_DICT)
    return NULL;
  for (guint i = 0; i + 1 < dict->n_items; i += 2)
    if (dict->items[i]->kind == WB_VALUE_STRING && strcmp (dict->items[i]->v.s, key) == 0)
      return dict->items[i + 1];
  return NULL;
}

void
_wb_remark_add (WbPassShared *shared, const char *executor, const WbBsym *bsym, guint line, gboolean accepted, const char *reason)
{
  WbRemark *r = g_new0 (WbRemark, 1);
  r->executor = g_strdup (executor);
  r->symbol = g_strdup (bsym->name ? bsym->name : "?");
  r->line = line;
  r->bsym = bsym;
  r->accepted = accepted;
  r->reason = g_strdup (reason ? reason : (accepted ? "claimed" : "rejected"));
  g_ptr_array_add (shared->remarks, r);
}
