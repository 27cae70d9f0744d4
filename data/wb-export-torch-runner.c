/* wb-export-torch-runner.c — the tables the torch script's runner reads: inputs, saved-for-backward, cotangents
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * _WB_PARAMS describes each input (shape, dtype, and for integer tensors the size they index, found from
 * prims.take, gather, embedding and the losses' targets and propagated back through reshapes and adds),
 * _WB_SAVED/_WB_COTANGENTS what a backward unpacks, _WB_PROLOGUE_* where a prologue reads args, kwargs and
 * module parameters. */
#include "config.h"

#include <string.h>

#include "wb-export-torch-private.h"

static gint64
dim_size (GHashTable    *types,
          const WbValue *v,
          gint64         dim)
{
  const WbType *t = v && v->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, v->text) : NULL;

  if (t == NULL || t->kind != WB_TYPE_TENSOR || t->rank == 0)
    return 0;
  if (dim < 0)
    dim += t->rank;
  if (dim < 0 || dim >= (gint64) t->rank)
    return 0;
  return t->shape[dim];
}

static void
set_bound (GHashTable    *bounds,
           const WbValue *index,
           gint64         size)
{
  gint64 old;

  if (index == NULL || index->kind != WB_VALUE_NAME || size <= 0)
    return;
  old = GPOINTER_TO_SIZE (g_hash_table_lookup (bounds, index->text));
  if (old == 0 || size < old)
    g_hash_table_insert (bounds, (gpointer) index->text, GSIZE_TO_POINTER ((gsize) size));
}

/* collect_bounds: sizes that integer tensors index into (prims.take, gather, embedding, losses' targets...). */
static void
collect_bounds (GHashTable   *types,
                const WbBsym *b,
                GHashTable   *bounds)
{
  const WbSymbol *sym = b->symbol;
  WbExportBound   bd;
  gint64          dim = 0;

  for (guint i = 0; i < b->n_subsymbols; i++)
    collect_bounds (types, b->subsymbols[i], bounds);
  if (b->kind != WB_BSYM_CALL || sym == NULL)
    return;
  if (wb_symbol_get_like (sym) != NULL)
    sym = wb_symbol_get_like (sym);
  if (!_wb_export_torch_bind (sym, b, &bd))
    return;
  switch (wb_symbol_get_id (sym))
    {
    case WB_SYMBOL_PRIMS_TAKE:
    case WB_SYMBOL_PRIMS_TAKE_ALONG_AXIS:
    case WB_SYMBOL_PRIMS_GATHER:
    case WB_SYMBOL_PRIMS_INDEX_ADD:
    case WB_SYMBOL_PRIMS_INDEX_COPY:
    case WB_SYMBOL_PRIMS_SCATTER_ADD:
    case WB_SYMBOL_PRIMS_SCATTER:
      if (wb_value_get_int (_wb_export_torch_bound_get (&bd, "dim"), &dim))
        set_bound (bounds, _wb_export_torch_bound_get (&bd, "index"), dim_size (types, _wb_export_torch_bound_get (&bd, "a"), dim));
      break;
    case WB_SYMBOL_PRIMS_INDEX_PUT:
      {
        const WbValue *indices = _wb_export_torch_bound_get (&bd, "indices");

        for (guint i = 0; indices != NULL && wb_value_is_sequence (indices) && i < indices->n_items; i++)
          set_bound (bounds, indices->items[i], dim_size (types, _wb_export_torch_bound_get (&bd, "a"), i));
        break;
      }
    case WB_SYMBOL_PRIMS_EMBEDDING:
    case WB_SYMBOL_LTORCH_EMBEDDING:
      set_bound (bounds, _wb_export_torch_bound_get (&bd, "a"), dim_size (types, _wb_export_torch_bound_get (&bd, "weight"), 0));
      break;
    case WB_SYMBOL_LTORCH_CROSS_ENTROPY:
    case WB_SYMBOL_LTORCH_NLL_LOSS:
    case WB_SYMBOL_LTORCH_NLL_LOSS_BACKWARD:
      {
        const WbValue *a = _wb_export_torch_bound_get (&bd, "a");
        const WbType  *t = a != NULL && a->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, a->text) : NULL;

        if (t != NULL && t->kind == WB_TYPE_TENSOR && t->rank > 0)
          set_bound (bounds, _wb_export_torch_bound_get (&bd, "target"), t->rank >= 2 ? t->shape[1] : t->shape[0]);
        break;
      }
    default:
      break;
    }
}

/* propagate_bounds: an integer tensor that flows into a bounded index (through reshapes, conversions, adds)
 * gets its bound too. One pass; returns TRUE if anything changed. */
static gboolean
propagate_bounds (GHashTable   *types,
                  const WbBsym *b,
                  GHashTable   *bounds)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < b->n_subsymbols; i++)
    changed |= propagate_bounds (types, b->subsymbols[i], bounds);
  if (b->kind == WB_BSYM_CALL && b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME && !wb_bsym_is_fusion (b))
    {
      gint64 bound = GPOINTER_TO_SIZE (g_hash_table_lookup (bounds, b->outputs->text));

      if (bound > 0)
        {
          g_autoptr (GPtrArray) names = g_ptr_array_new ();

          _wb_export_bsym_arg_names (b, names);
          for (guint i = 0; i < names->len; i++)
            {
              const char   *n = g_ptr_array_index (names, i);
              const WbType *t = g_hash_table_lookup (types, n);
              gint64        old = GPOINTER_TO_SIZE (g_hash_table_lookup (bounds, n));

              if (t != NULL && t->kind == WB_TYPE_TENSOR && wb_dtype_is_integer (t->dtype) &&
                  (old == 0 || bound < old))
                {
                  g_hash_table_insert (bounds, (gpointer) n, GSIZE_TO_POINTER ((gsize) bound));
                  changed = TRUE;
                }
            }
        }
    }
  return changed;
}

static GHashTable *
index_bounds (GHashTable    *types,
              const WbTrace *trace,
              const WbTrace *companion)
{
  GHashTable *bounds = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint k = 0; k < 2; k++)
    {
      const WbTrace *t = k == 0 ? trace : companion;

      for (guint i = 0; t != NULL && i < t->n_body; i++)
        collect_bounds (types, t->body[i], bounds);
    }
  for (guint round = 0; round < 16; round++)
    {
      gboolean changed = FALSE;

      for (guint k = 0; k < 2; k++)
        {
          const WbTrace *t = k == 0 ? trace : companion;

          for (guint i = 0; t != NULL && i < t->n_body; i++)
            changed |= propagate_bounds (types, t->body[i], bounds);
        }
      if (!changed)
        break;
    }
  return bounds;
}

/* append_spec: the runner's description of input @name: ('x', 'tensor', shape, dtype, bound) and so on. */
static void
append_spec (GString      *s,
             const char   *name,
             const WbType *t,
             GHashTable   *bounds)
{
  g_string_append (s, "(");
  _wb_export_py_string (s, name);
  if (t != NULL && (t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR) && t->dtype != WB_DTYPE_UNKNOWN)
    {
      gint64 bound = bounds ? GPOINTER_TO_SIZE (g_hash_table_lookup (bounds, name)) : 0;

      g_string_append (s, ", 'tensor', (");
      for (guint i = 0; i < t->rank; i++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", t->shape[i]);
      if (t->rank == 1)
        g_string_append_c (s, ',');
      g_string_append_printf (s, "), torch.%s, ", wb_dtype_torch_name (t->dtype));
      if (bound > 0)
        g_string_append_printf (s, "%" G_GINT64_FORMAT ")", bound);
      else
        g_string_append (s, "None)");
    }
  else if (t != NULL && t->has_value && (t->kind == WB_TYPE_INT || t->kind == WB_TYPE_BOOL || t->kind == WB_TYPE_FLOAT))
    {
      g_string_append (s, ", 'number', ");
      _wb_export_py_type_value (s, t);
      g_string_append (s, ")");
    }
  else
    g_string_append (s, ", 'unknown')");
}

static void
append_specs (GString    *s,
              const char *constant,
              GPtrArray  *names,
              GHashTable *types,
              GHashTable *bounds)
{
  g_string_append_printf (s, "%s = [\n", constant);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = g_ptr_array_index (names, i);

      g_string_append (s, INDENT);
      append_spec (s, n, g_hash_table_lookup (types, n), bounds);
      g_string_append (s, ",\n");
    }
  g_string_append (s, "]\n");
}

static const WbBsym *
find_unpack_of (const WbTrace *trace,
                const char    *name)
{
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];

      if (b->kind == WB_BSYM_UNPACK && b->value != NULL && wb_value_is_name (b->value, name))
        return b;
    }
  return NULL;
}

static void
unpack_names (const WbBsym *b,
              GPtrArray    *names)
{
  if (b != NULL && b->outputs != NULL)
    _wb_export_value_names (b->outputs, names);
}

static const char *
param_name (const WbTrace *trace,
            guint          i)
{
  const WbValue *p;

  if (i >= trace->n_params)
    return NULL;
  p = trace->params[i];
  return p->kind == WB_VALUE_NAME ? p->text : NULL;
}

/* The cotangent names of a backward (t64, = cotangents). */
static void
backward_cotangents (const WbTrace *bw,
                     GPtrArray     *names)
{
  const char *param = param_name (bw, 1);

  if (param != NULL)
    unpack_names (find_unpack_of (bw, param), names);
}

static void
collect_get_grad_outputs (const WbBsym *b,
                          GPtrArray    *names)
{
  if (b->kind == WB_BSYM_CALL && b->symbol != NULL && wb_symbol_get_id (b->symbol) == WB_SYMBOL_PRIMS_GET_GRAD &&
      b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
    {
      g_ptr_array_add (names, (gpointer) b->outputs->text);
      return;
    }
  if (b->kind == WB_BSYM_CALL && b->symbol != NULL && wb_symbol_get_module (b->symbol) != WB_SYMBOL_MODULE_PRIMS)
    for (guint i = 0; i < b->n_subsymbols; i++)
      collect_get_grad_outputs (b->subsymbols[i], names);
}

static void
append_name_list (GString       *s,
                  const char    *constant,
                  const WbValue *list)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  g_string_append_printf (s, "%s = ", constant);
  if (list == NULL)
    {
      g_string_append (s, "None\n");
      return;
    }
  g_string_append_c (s, '[');
  for (guint i = 0; i < list->n_items; i++)
    {
      if (i)
        g_string_append (s, ", ");
      if (list->items[i]->kind == WB_VALUE_NAME)
        _wb_export_py_string (s, list->items[i]->text);
      else
        g_string_append (s, "None");
    }
  g_string_append (s, "]\n");
}

/* Prologue inputs: args[i], kwargs['k'] and module parameters/buffers. */
static void
append_prologue_tables (GString       *s,
                        const WbTrace *trace,
                        GHashTable    *types,
                        GHashTable    *bounds)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) args = g_string_new (NULL);
  g_autoptr (GString) kwargs = g_string_new (NULL);
  g_autoptr (GString) module = g_string_new (NULL);
  const char *args_name = NULL, *kwargs_name = NULL;
  gint64      n_args = -1, max_index = -1;

  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];

      if (p->kind == WB_VALUE_STAR && p->base)
        args_name = p->base->text;
      else if (p->kind == WB_VALUE_STARSTAR && p->base)
        kwargs_name = p->base->text;
    }
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym  *b = trace->body[i];
      const WbValue *v = b->value;
      const char    *target;

      if (b->kind == WB_BSYM_CALL && b->symbol != NULL && n_args < 0 && b->n_args == 2 && args_name != NULL &&
          wb_value_is_name (b->args[0], args_name) && b->symbol != NULL &&
          (wb_symbol_get_id (b->symbol) == WB_SYMBOL_PRIMS_CHECK_LEN ||
           wb_symbol_get_id (b->symbol) == WB_SYMBOL_EXEC_CHECK_LEN))
        wb_value_get_int (b->args[1], &n_args);
      if (b->kind != WB_BSYM_ASSIGN || v == NULL)
        continue;
      target = b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME ? b->outputs->text : b->name;
      if (target == NULL)
        continue;
      if (v->kind == WB_VALUE_SUBSCRIPT && v->base != NULL && v->n_items == 1)
        {
          gint64 index;

          if (args_name != NULL && wb_value_is_name (v->base, args_name) && wb_value_get_int (v->items[0], &index))
            {
              g_string_append_printf (args, "(%" G_GINT64_FORMAT ", ", index);
              _wb_export_py_string (args, target);
              g_string_append (args, "), ");
              max_index = MAX (max_index, index);
              g_ptr_array_add (names, (gpointer) target);
            }
          else if (kwargs_name != NULL && wb_value_is_name (v->base, kwargs_name) &&
                   v->items[0]->kind == WB_VALUE_STRING)
            {
              g_string_append_printf (kwargs, "(%s, ", v->items[0]->text);
              _wb_export_py_string (kwargs, target);
              g_string_append (kwargs, "), ");
              g_ptr_array_add (names, (gpointer) target);
            }
        }
      else if ((_wb_export_is_call_of (v, "get_parameter") || _wb_export_is_call_of (v, "get_buffer")) && v->n_items == 1 &&
               v->items[0]->kind == WB_VALUE_STRING)
        {
          g_string_append_printf (module, "(%s, ", v->items[0]->text);
          _wb_export_py_string (module, target);
          g_string_append (module, "), ");
          g_ptr_array_add (names, (gpointer) target);
        }
    }
  append_specs (s, "_WB_PARAMS", names, types, bounds);
  g_string_append_printf (s, "_WB_PROLOGUE_ARGS = (%" G_GINT64_FORMAT ", [%s])\n", MAX (n_args, max_index + 1),
                          args->str);
  g_string_append_printf (s, "_WB_PROLOGUE_KWARGS = [%s]\n", kwargs->str);
  g_string_append_printf (s, "_WB_PROLOGUE_MODULE = [%s]\n", module->str);
}

void
_wb_export_torch_append_tables (GString       *tables,
                                const char    *mode,
                                const char    *source,
                                const char    *fw_name,
                                const char    *bw_name,
                                GPtrArray     *regions,
                                WbExportRole   role,
                                const WbTrace *forward,
                                const WbTrace *backward,
                                GHashTable    *types)
{
  g_autoptr (GHashTable) bounds = index_bounds (types, forward, backward);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  g_string_append (tables, "\n\n# -- what the runner needs --------------------------------------------------------\n");
  g_string_append (tables, "_WB_SOURCE = ");
  _wb_export_py_string (tables, source);
  g_string_append_printf (tables, "\n_WB_MODE = '%s'\n_WB_FUNCTION = '%s'\n", mode, fw_name);
  if (bw_name != NULL)
    g_string_append_printf (tables, "_WB_BACKWARD = '%s'\n", bw_name);
  else
    g_string_append (tables, "_WB_BACKWARD = None\n");
  g_string_append (tables, "_WB_REGIONS = [");
  for (guint i = 0; i < regions->len; i++)
    {
      if (i)
        g_string_append (tables, ", ");
      _wb_export_py_string (tables, g_ptr_array_index (regions, i));
    }
  g_string_append (tables, "]\n");
  /* Only a whole program's results are the model's outputs (output.I of tensors.safetensors); a region's
   * compiled function (to_be_compiled) or a prologue returns something else. */
  if (strcmp (mode, "prologue") == 0)
    g_string_append (tables, "_WB_OUTPUT_PREFIX = 'prologue'\n");
  else if (g_strcmp0 (forward->function_name, "computation") == 0 ||
           g_strcmp0 (forward->function_name, "augmented_forward_fn") == 0 || strcmp (mode, "backward") == 0)
    g_string_append (tables, "_WB_OUTPUT_PREFIX = 'output'\n");
  else
    g_string_append (tables, "_WB_OUTPUT_PREFIX = 'result'\n");

  if (strcmp (mode, "prologue") == 0)
    append_prologue_tables (tables, forward, types, bounds);
  else if (strcmp (mode, "backward") == 0)
    {
      const char   *saved_param = param_name (forward, 0);
      const WbBsym *unpack = saved_param ? find_unpack_of (forward, saved_param) : NULL;
      g_autoptr (GPtrArray) cot = g_ptr_array_new ();

      append_specs (tables, "_WB_PARAMS", names, types, bounds);
      g_string_append (tables, "_WB_SAVED = [\n");
      for (guint i = 0; unpack != NULL && unpack->outputs != NULL && i < unpack->outputs->n_items; i++)
        {
          const WbValue *group = unpack->outputs->items[i];
          g_autoptr (GPtrArray) elems = g_ptr_array_new ();

          if (group->kind == WB_VALUE_NAME)
            unpack_names (find_unpack_of (forward, group->text), elems);
          g_string_append (tables, INDENT "[");
          for (guint j = 0; j < elems->len; j++)
            {
              const char *n = g_ptr_array_index (elems, j);

              append_spec (tables, n, g_hash_table_lookup (types, n), bounds);
              g_string_append (tables, ", ");
            }
          g_string_append (tables, "],\n");
        }
      g_string_append (tables, "]\n");
      backward_cotangents (forward, cot);
      append_specs (tables, "_WB_COTANGENTS", cot, types, NULL);
    }
  else
    {
      g_autoptr (GPtrArray) cot = g_ptr_array_new ();
      const WbValue *ret = _wb_export_find_return (forward);
      const WbValue *dict = ret != NULL && ret->kind == WB_VALUE_TUPLE && ret->n_items == 2 ? ret->items[0] : ret;

      for (guint i = 0; i < forward->n_params; i++)
        if (forward->params[i]->kind == WB_VALUE_NAME)
          g_ptr_array_add (names, (gpointer) forward->params[i]->text);
      append_specs (tables, "_WB_PARAMS", names, types, bounds);
      append_name_list (tables, "_WB_FLAT_ARGS", _wb_export_dict_get (dict, "flat_args"));
      if (backward != NULL)
        backward_cotangents (backward, cot);
      else if (role == WB_EXPORT_ROLE_JOINT)
        for (guint i = 0; i < forward->n_body; i++)
          collect_get_grad_outputs (forward->body[i], cot);
      append_specs (tables, "_WB_COTANGENTS", cot, types, NULL);
    }
  if (strcmp (mode, "backward") != 0)
    g_string_append (tables, "_WB_SAVED = []\n");
  if (strcmp (mode, "prologue") != 0)
    g_string_append (tables, "_WB_PROLOGUE_ARGS = (0, [])\n_WB_PROLOGUE_KWARGS = []\n_WB_PROLOGUE_MODULE = []\n");
  if (strcmp (mode, "backward") == 0 || strcmp (mode, "prologue") == 0)
    {
      g_string_append (tables, "_WB_FLAT_ARGS = None\n");
      if (strcmp (mode, "prologue") == 0)
        g_string_append (tables, "_WB_COTANGENTS = []\n");
    }
}
