/* wb-memory-plan-kinds.c — what a call's outputs are to the static memory plan: new tensors, views and
 * aliases of an argument, conversions that may be their argument, values from outside the step
 * (wb-memory-plan-private.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-interpreter-private.h"
#include "wb-memory-plan-private.h"

/* Calls whose outputs are views or aliases of their first argument (by the printed name's last part) */
static const char *const view_names[] = {
  "reshape",
  "torch_prims_reshape_impl",
  "view",
  "view_as",
  "_unsafe_view",
  "transpose",
  "permute",
  "expand",
  "expand_as",
  "broadcast_in_dim",
  "squeeze",
  "unsqueeze",
  "slice",
  "slice_prim",
  "narrow",
  "flatten",
  "unflatten",
  "movedim",
  "t",
  "T",
  "mT",
  "split",
  "chunk",
  "tensor_split",
  "unbind",
  "diagonal",
  "detach",
  "alias",
  "shallow_copy",
  "unfold",
  "as_strided",
  "select",
  "getitem",
  "real",
  "view_as_real",
  "view_as_complex",
  "unpack_trivial",
};

/* Conversions whose output the executors may return as their argument itself (a CUDA region's output that is
 * a same-dtype convert, clone or stride order of an input is a view of it: wb-cuda-codegen-outputs.c) */
static const char *const maybe_names[] = {
  "to",
  "type_as",
  "type",
  "torch_type",
  "convert_element_type",
  "clone",
  "contiguous",
  "float",
  "half",
  "bfloat16",
  "double",
  "long",
  "int",
  "cuda", /* ltorch.cuda: the tensor itself when it is there already */
};

/* conversions of the list above that copy when the layout is not theirs */
static const char *const copy_names[] = { "clone", "contiguous" };

/* Reductions the CUDA generator makes a squeeze (a view) when every reduced dim has extent 1 and the dtype
 * stays (wb-cuda-codegen-graph.c squeeze_unit_reduction): llama's backward sums a broadcast [2, 2, 1, 32, 16]
 * over its dim of extent 1 */
static const char *const unit_reduction_names[] = { "sum", "prod", "amax", "amin" };

/* indexing: a view when the key is ints and slices, a gather (a new tensor) when it holds a tensor */
static const char *const getitem_names[] = { "getitem", "__getitem__" };

static const char *
base_name (const char *printed)
{
  const char *dot = printed ? strrchr (printed, '.') : NULL;

  return dot ? dot + 1 : printed ? printed
                                 : "";
}

/* @b's printed name's last part, and the one of the symbol it stands for (torch_slice_prim_impl ->
 * slice_prim, torch.reshape -> reshape) */
static gboolean
name_in (const WbBsym *b, const char *const *list, guint n)
{
  const WbSymbol *like = b->symbol ? wb_symbol_get_like (b->symbol) : NULL;
  const char     *bases[2] = { base_name (b->name), like ? base_name (wb_symbol_get_name (like)) : NULL };

  for (guint k = 0; k < 2; k++)
    for (guint i = 0; bases[k] != NULL && i < n; i++)
      if (strcmp (bases[k], list[i]) == 0)
        return TRUE;
  return FALSE;
}

/* tensor @name's type per @types, or NULL */
static const WbType *
tensor_type (GHashTable *types, const char *name)
{
  const WbType *t = name ? g_hash_table_lookup (types, name) : NULL;

  return t && t->kind == WB_TYPE_TENSOR ? t : NULL;
}

/* the dtype of tensor @name per @types, or -1 */
static gint
dtype_of (GHashTable *types, const char *name)
{
  const WbType *t = name ? g_hash_table_lookup (types, name) : NULL;

  return t && t->kind == WB_TYPE_TENSOR ? (gint) t->dtype : -1;
}

/* TRUE when @b asks for a copy (copy=True) */
static gboolean
copy_true (const WbBsym *b)
{
  for (guint i = 0; i < b->n_kwargs; i++)
    if (g_strcmp0 (b->kwargs[i].name, "copy") == 0)
      return b->kwargs[i].value == NULL || b->kwargs[i].value->kind != WB_VALUE_BOOL || b->kwargs[i].value->v.b;
  return FALSE;
}

/* TRUE when @v is, or holds, a NAME of a tensor per @types */
static gboolean
has_tensor (GHashTable *types, const WbValue *v)
{
  if (v == NULL)
    return FALSE;
  if (v->kind == WB_VALUE_NAME)
    return tensor_type (types, v->text) != NULL;
  for (guint i = 0; i < v->n_items; i++)
    if (has_tensor (types, v->items[i]))
      return TRUE;
  return FALSE;
}

/* What call @b's outputs are; for WB_MEMORY_KIND_ALIAS and WB_MEMORY_KIND_MAYBE, @src: the argument value whose storage they
 * (may) share */
WbMemoryCallKind
_wb_memory_plan_classify (const WbBsym *b, GHashTable *types, const WbValue **src)
{
  const char      *base = base_name (b->name);
  WbSymbolCategory cat = b->symbol ? wb_symbol_get_category (b->symbol) : WB_SYMBOL_CATEGORY_OPAQUE;

  *src = NULL;
  if (g_strcmp0 (b->name, "prims.get_grad") == 0 || cat == WB_SYMBOL_CATEGORY_UTILITY || cat == WB_SYMBOL_CATEGORY_PROLOGUE ||
      cat == WB_SYMBOL_CATEGORY_DISTRIBUTED)
    return strcmp (base, "unpack_trivial") == 0 && b->n_args > 0 ? (*src = b->args[0], WB_MEMORY_KIND_ALIAS) : WB_MEMORY_KIND_EXTERNAL;
  if (strcmp (base, "copy_") == 0)
    {
      *src = b->n_args > 1 ? b->args[1] : NULL; /* copy_(from, to): writes `to` and returns it */
      for (guint i = 0; *src == NULL && i < b->n_kwargs; i++)
        if (g_strcmp0 (b->kwargs[i].name, "copy_to") == 0)
          *src = b->kwargs[i].value;
      return *src ? WB_MEMORY_KIND_ALIAS : WB_MEMORY_KIND_EXTERNAL;
    }
  if (strcmp (base, "update_aliases") == 0)
    return b->n_args > 0 ? (*src = b->args[0], WB_MEMORY_KIND_ALIAS) : WB_MEMORY_KIND_EXTERNAL;
  if ((b->symbol && wb_symbol_is_inplace (b->symbol)) || (g_str_has_suffix (base, "_") && !g_str_has_suffix (base, "__")))
    return b->n_args > 0 ? (*src = b->args[0], WB_MEMORY_KIND_ALIAS) : WB_MEMORY_KIND_EXTERNAL;
  if (name_in (b, getitem_names, G_N_ELEMENTS (getitem_names)) && b->n_args > 1 && has_tensor (types, b->args[1]))
    return WB_MEMORY_KIND_FRESH; /* indexing by a tensor gathers: a new tensor */
  if (name_in (b, view_names, G_N_ELEMENTS (view_names)))
    return b->n_args > 0 ? (*src = b->args[0], WB_MEMORY_KIND_ALIAS) : WB_MEMORY_KIND_EXTERNAL;
  /* a flip over dims of extent 1, a pad of zero widths, a cat of one tensor: every executor returns the
   * argument itself, by the same rule (wb-identity.h) */
  if ((*src = wb_bsym_get_identity_source (b, wb_executor_info_types_lookup, types)) != NULL)
    return WB_MEMORY_KIND_ALIAS;
  if (b->n_args > 0 && b->args[0]->kind == WB_VALUE_NAME && name_in (b, maybe_names, G_N_ELEMENTS (maybe_names)))
    {
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      gint from = dtype_of (types, b->args[0]->text), to;
      wb_bsym_get_output_names (b, outs);
      to = outs->len == 1 ? dtype_of (types, outs->pdata[0]) : -1;
      /* a change of dtype always makes a new tensor; a conversion to the same dtype (not clone or contiguous,
       * which copy a layout they do not keep, nor copy=True: a new tensor) is its argument itself (the cpu executor) or a view
       * of it (a CUDA region's output): an alias. Were an executor to copy it, the copy takes the pool's path */
      if (from >= 0 && from == to && !name_in (b, copy_names, G_N_ELEMENTS (copy_names)) && !copy_true (b))
        return *src = b->args[0], WB_MEMORY_KIND_ALIAS;
      if ((from < 0 || to < 0 || from == to) && !copy_true (b))
        return *src = b->args[0], WB_MEMORY_KIND_MAYBE;
    }
  if (b->n_args > 0 && b->args[0]->kind == WB_VALUE_NAME && name_in (b, unit_reduction_names, G_N_ELEMENTS (unit_reduction_names)))
    {
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      const WbType *in = tensor_type (types, b->args[0]->text), *out;
      wb_bsym_get_output_names (b, outs);
      out = outs->len == 1 ? tensor_type (types, outs->pdata[0]) : NULL;
      /* as many elements in as out: every reduced dim has extent 1 */
      if (in != NULL && out != NULL && in->dtype == out->dtype && wb_type_nbytes (in) == wb_type_nbytes (out))
        return *src = b->args[0], WB_MEMORY_KIND_MAYBE;
    }
  return WB_MEMORY_KIND_FRESH;
}

/* the call among @b's subsymbols (their first level) that binds @name last, or NULL */
static const WbBsym *
sub_def (const WbBsym *b, const char *name)
{
  for (guint i = b->n_subsymbols; i > 0; i--)
    {
      const WbBsym *d = b->subsymbols[i - 1];
      g_autoptr (GPtrArray) outs = NULL;
      if (d->kind != WB_BSYM_CALL || d->outputs == NULL)
        continue;
      outs = g_ptr_array_new ();
      wb_bsym_get_output_names (d, outs);
      for (guint k = 0; k < outs->len; k++)
        if (strcmp (outs->pdata[k], name) == 0)
          return d;
    }
  return NULL;
}

/* TRUE when @name is a NAME of @v */
static gboolean
value_names (const WbValue *v, const char *name)
{
  if (v == NULL)
    return FALSE;
  if (v->kind == WB_VALUE_NAME)
    return strcmp (v->text, name) == 0;
  for (guint i = 0; i < v->n_items; i++)
    if (value_names (v->items[i], name))
      return TRUE;
  return FALSE;
}

WbMemoryCallKind
_wb_memory_plan_classify_output (const WbBsym *b, const char *name, GHashTable *types, const char **src)
{
  WbMemoryCallKind kind = WB_MEMORY_KIND_ALIAS;
  const char      *cur = name;

  *src = NULL;
  /* a chain of views and conversions inside the region, at most this long */
  for (guint depth = 0; depth < 32; depth++)
    {
      const WbBsym    *d = sub_def (b, cur);
      const WbValue   *from = NULL;
      WbMemoryCallKind k;
      gboolean         arg = FALSE;
      if (d == NULL)
        return WB_MEMORY_KIND_FRESH;
      k = _wb_memory_plan_classify (d, types, &from);
      if ((k != WB_MEMORY_KIND_ALIAS && k != WB_MEMORY_KIND_MAYBE) || from == NULL || from->kind != WB_VALUE_NAME)
        return WB_MEMORY_KIND_FRESH;
      if (k == WB_MEMORY_KIND_MAYBE)
        kind = WB_MEMORY_KIND_MAYBE;
      cur = from->text;
      for (guint i = 0; i < b->n_args && !arg; i++)
        arg = value_names (b->args[i], cur);
      if (arg || (strcmp (cur, name) != 0 && value_names (b->outputs, cur)))
        {
          *src = cur;
          return kind;
        }
    }
  return WB_MEMORY_KIND_FRESH;
}

void
_wb_memory_plan_add_region_types (GHashTable *types, const WbTrace *trace)
{
  for (guint i = 0; trace != NULL && i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      for (guint k = 0; b->kind == WB_BSYM_CALL && k < b->n_subsymbols; k++)
        {
          const WbBsym *d = b->subsymbols[k];
          if (d->kind == WB_BSYM_CALL && d->has_type && d->outputs != NULL && d->outputs->kind == WB_VALUE_NAME &&
              !g_hash_table_contains (types, d->outputs->text))
            g_hash_table_insert (types, (gpointer) d->outputs->text, g_memdup2 (&d->type, sizeof d->type));
        }
    }
}
