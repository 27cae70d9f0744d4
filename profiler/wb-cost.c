/* wb-cost.c — static cost of a bound symbol: bytes moved and FLOPs from the trace's types
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"

struct _WbCostModel
{
  WbTrace    *trace;
  GHashTable *types; /* name (borrowed from the trace) -> WbType* (owned copy) */
};

typedef struct
{
  const char *name;
  WbCostRule  rule;
} CostRow;

static const CostRow cost_rows[] = {
#define WB_COST(name, rule) { name, WB_COST_RULE_##rule },
#include "wb-cost.def"
#undef WB_COST
};

static const char *const rule_names[] = {
  "default",
  "none",
  "elementwise",
  "reduction",
  "matmul",
  "linear",
  "convolution",
  "attention",
  "attention_backward",
};
G_STATIC_ASSERT (G_N_ELEMENTS (rule_names) == WB_COST_RULE_ATTENTION_BACKWARD + 1);

const char *
wb_cost_rule_to_string (WbCostRule rule)
{
  if ((guint) rule < G_N_ELEMENTS (rule_names))
    return rule_names[rule];
  return "?";
}

static GHashTable *
cost_table (void)
{
  static gsize       once = 0;
  static GHashTable *table = NULL;

  if (g_once_init_enter (&once))
    {
      GHashTable *t = g_hash_table_new (g_direct_hash, g_direct_equal);

      for (guint i = 0; i < G_N_ELEMENTS (cost_rows); i++)
        {
          const WbSymbol *s = wb_symbol_lookup (cost_rows[i].name, strlen (cost_rows[i].name));

          /* every row names a symbol of the table (tests/profiler/test-cost.c checks it) */
          if (s != NULL)
            g_hash_table_insert (t, (gpointer) s, GINT_TO_POINTER (cost_rows[i].rule));
        }
      table = t;
      g_once_init_leave (&once, 1);
    }
  return table;
}

WbCostRule
wb_cost_rule_for_symbol (const WbSymbol *symbol)
{
  GHashTable *table = cost_table ();

  /* an alias follows its target: torch.matmul -> ltorch.matmul */
  for (guint depth = 0; symbol != NULL && depth < 8; depth++)
    {
      gpointer rule;

      if (g_hash_table_lookup_extended (table, symbol, NULL, &rule))
        return (WbCostRule) GPOINTER_TO_INT (rule);
      symbol = wb_symbol_get_like (symbol);
    }
  return WB_COST_RULE_DEFAULT;
}

/* -- the name -> type map ------------------------------------------------------------------------ */

static void
set_type (WbCostModel *m, const char *name, const WbType *type)
{
  if (name == NULL || strcmp (name, "_") == 0 || type->kind == WB_TYPE_UNKNOWN)
    return;
  if (!g_hash_table_contains (m->types, name))
    g_hash_table_insert (m->types, (gpointer) name, g_memdup2 (type, sizeof *type));
}

/* The output names of @b flattened one level, "_" kept (as wb_symbol_infer lists its outputs). */
static void
flat_outputs (const WbBsym *b, GPtrArray *out)
{
  const WbValue *o = b->outputs;

  if (o == NULL)
    return;
  if (o->kind == WB_VALUE_NAME)
    g_ptr_array_add (out, (gpointer) o->text);
  else if (o->kind == WB_VALUE_TUPLE || o->kind == WB_VALUE_LIST)
    for (guint i = 0; i < o->n_items; i++)
      g_ptr_array_add (out, o->items[i]->kind == WB_VALUE_NAME ? (gpointer) o->items[i]->text : NULL);
}

static void
index_annotations (WbCostModel *m, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];

      switch (b->kind)
        {
        case WB_BSYM_ANNOTATION:
        case WB_BSYM_ASSIGN:
          if (b->has_type)
            set_type (m, b->name, &b->type);
          break;
        case WB_BSYM_CALL:
          if (b->has_type)
            {
              if (b->type_name != NULL)
                set_type (m, b->type_name, &b->type);
              else if (b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
                set_type (m, b->outputs->text, &b->type);
            }
          break;
        default:
          break;
        }
      if (b->n_subsymbols > 0)
        index_annotations (m, b->subsymbols, b->n_subsymbols);
    }
}

static gboolean
lookup_cb (const char *name, WbType *out, gpointer user_data)
{
  return wb_cost_model_lookup_type (user_data, name, out);
}

/* Outputs nobody annotated (multi-output calls such as the sdpa ops): the symbol's meta function. */
static void
infer_missing (WbCostModel *m, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];

      if (b->n_subsymbols > 0)
        infer_missing (m, b->subsymbols, b->n_subsymbols);
      if (b->kind != WB_BSYM_CALL || b->symbol == NULL || !wb_symbol_has_meta (b->symbol))
        continue;
      {
        g_autoptr (GPtrArray) names = g_ptr_array_new ();
        g_autoptr (GArray) types = NULL;
        gboolean missing = FALSE;

        flat_outputs (b, names);
        for (guint k = 0; k < names->len; k++)
          if (names->pdata[k] != NULL && strcmp (names->pdata[k], "_") != 0 &&
              !g_hash_table_contains (m->types, names->pdata[k]))
            missing = TRUE;
        if (!missing)
          continue;
        types = g_array_new (FALSE, TRUE, sizeof (WbType));
        if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, lookup_cb, m, types, NULL))
          continue;
        for (guint k = 0; k < names->len && k < types->len; k++)
          set_type (m, names->pdata[k], &g_array_index (types, WbType, k));
      }
    }
}

WbCostModel *
wb_cost_model_new (WbTrace *trace)
{
  WbCostModel *m;

  g_return_val_if_fail (trace != NULL, NULL);
  m = g_new0 (WbCostModel, 1);
  m->trace = wb_trace_ref (trace);
  m->types = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  index_annotations (m, trace->body, trace->n_body);
  infer_missing (m, trace->body, trace->n_body);
  return m;
}

void
wb_cost_model_free (WbCostModel *model)
{
  if (model == NULL)
    return;
  g_hash_table_unref (model->types);
  wb_trace_unref (model->trace);
  g_free (model);
}

gboolean
wb_cost_model_lookup_type (const WbCostModel *model,
                           const char        *name,
                           WbType            *out)
{
  const WbType *t;

  g_return_val_if_fail (model != NULL, FALSE);
  if (name == NULL || (t = g_hash_table_lookup (model->types, name)) == NULL)
    return FALSE;
  if (out != NULL)
    *out = *t;
  return TRUE;
}

/* -- counting ------------------------------------------------------------------------------------ */

static gboolean
is_tensor (const WbType *t)
{
  return t != NULL && (t->kind == WB_TYPE_TENSOR || t->kind == WB_TYPE_FUTURE_TENSOR);
}

static const WbType *
tensor_type (const WbCostModel *m, const WbValue *v)
{
  const WbType *t;

  if (v == NULL || v->kind != WB_VALUE_NAME)
    return NULL;
  t = g_hash_table_lookup (m->types, v->text);
  return is_tensor (t) ? t : NULL;
}

/* Every NAME inside @v (tuples, lists, dicts, subscripts) into @seen. */
static void
collect_names (const WbValue *v, GHashTable *seen)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    {
      g_hash_table_add (seen, (gpointer) v->text);
      return;
    }
  for (guint i = 0; i < v->n_items; i++)
    collect_names (v->items[i], seen);
  for (guint i = 0; i < v->n_kwargs; i++)
    collect_names (v->kwargs[i].value, seen);
  if (v->kind == WB_VALUE_SUBSCRIPT || v->kind == WB_VALUE_NEG)
    collect_names (v->base, seen);
}

/* The bytes of @name (0 when its type is unknown or not a tensor). */
static guint64
name_bytes (const WbCostModel *m, const char *name)
{
  const WbType *t = g_hash_table_lookup (m->types, name);

  return is_tensor (t) ? (guint64) wb_type_nbytes (t) : 0;
}

static guint64
bytes_of_names (const WbCostModel *m, GHashTable *names)
{
  GHashTableIter iter;
  gpointer       key;
  guint64        total = 0;

  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    total += name_bytes (m, key);
  return total;
}

/* Whether subsymbol @s is a view: its output (or each of its outputs, for a split) aliases its first argument,
 * no memory written. Slices, splits and broadcasts are views as in PyTorch (Tensor.narrow, torch.split,
 * Tensor.expand): gpt2_block's qkv split is ltorch.split of one [8, 1024, 2304] tensor into three, each
 * reshaped and transposed, which nvFuser and the nvrtc executor return as views. */
static gboolean
is_view (const WbBsym *s)
{
  static const char *const views[] = { "prims.transpose", "prims.reshape", "prims.squeeze", "prims.slice_prim",
                                       "prims.broadcast_in_dim", "ltorch.reshape", "ltorch.transpose", "ltorch.permute",
                                       "ltorch.squeeze", "ltorch.view", "ltorch.expand", "ltorch.unsqueeze" };
  static const char *const splits[] = { "ltorch.split", "ltorch.chunk", "ltorch.tensor_split", "ltorch.unbind" };

  if (s->kind != WB_BSYM_CALL || s->name == NULL || s->outputs == NULL || s->n_args == 0 || s->args[0]->kind != WB_VALUE_NAME)
    return FALSE;
  for (guint i = 0; s->outputs->kind == WB_VALUE_NAME && i < G_N_ELEMENTS (views); i++)
    if (strcmp (s->name, views[i]) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (splits); i++)
    if (strcmp (s->name, splits[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
wb_cost_bsym_is_view (const WbBsym *bsym)
{
  g_return_val_if_fail (bsym != NULL, FALSE);
  return is_view (bsym);
}

/* Every NAME among @b's arguments and keyword arguments into @seen. */
static void
collect_arg_names (const WbBsym *b, GHashTable *seen)
{
  for (guint i = 0; i < b->n_args; i++)
    collect_names (b->args[i], seen);
  for (guint i = 0; i < b->n_kwargs; i++)
    collect_names (b->kwargs[i].value, seen);
}

/* Every output name of subsymbol @s into a new set. */
static GHashTable *
output_names (const WbBsym *s)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);

  collect_names (s->outputs, names);
  return names;
}

/* The names @b's subsymbols read: every argument of an op that is not a view, and the source of a view one of
 * whose outputs is read (definitions come before uses: walking back, a view's source is read when its result
 * is). A view whose results nothing reads (it is returned: its memory is the output's) reads nothing. */
static GHashTable *
read_names (const WbBsym *b)
{
  GHashTable *read = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = b->n_subsymbols; i-- > 0;)
    {
      const WbBsym *s = b->subsymbols[i];
      if (is_view (s))
        {
          g_autoptr (GHashTable) outs = output_names (s);
          GHashTableIter it;
          gpointer       name;
          g_hash_table_iter_init (&it, outs);
          while (g_hash_table_iter_next (&it, &name, NULL))
            if (g_hash_table_contains (read, name))
              g_hash_table_add (read, (gpointer) s->args[0]->text);
          continue;
        }
      collect_arg_names (s, read);
    }
  return read;
}

/* The bytes @b reads of @name: all of it, unless every subsymbol that takes it is a view of it (a slice, a
 * split, a reshape...); then the bytes of those views' outputs that are read (each counted so, recursively),
 * at most @name's own. llama_layer's rotary region takes qkv [2048, 12288] and splits it: q and k are read, v
 * is returned as a view, so two thirds of it are read. A view output of unknown type counts all of @name. */
static guint64
read_bytes (const WbCostModel *m, const WbBsym *b, GHashTable *read, const char *name, guint depth)
{
  guint64 full = name_bytes (m, name), part = 0;

  if (depth > 16)
    return full;
  for (guint i = 0; i < b->n_subsymbols; i++)
    {
      const WbBsym *s = b->subsymbols[i];
      g_autoptr (GHashTable) args = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr (GHashTable) outs = NULL;
      GHashTableIter it;
      gpointer       out;

      collect_arg_names (s, args);
      if (!g_hash_table_contains (args, name))
        continue;
      if (!is_view (s) || strcmp (s->args[0]->text, name) != 0 || g_hash_table_size (args) != 1)
        return full;
      outs = output_names (s);
      g_hash_table_iter_init (&it, outs);
      while (g_hash_table_iter_next (&it, &out, NULL))
        {
          if (!g_hash_table_contains (read, out))
            continue;
          if (name_bytes (m, out) == 0)
            return full;
          part += read_bytes (m, b, read, out, depth + 1);
        }
    }
  return MIN (part, full);
}

/* The bytes a call reads and writes, each tensor once:
 *   read     its tensor arguments that its subsymbols read (read_names), each in full or, when only views of it
 *            are read, those views' bytes (read_bytes); an argument only returned as a view is not read
 *   written  its outputs that are not views; outputs its subsymbols make as views (reshape, transpose, permute,
 *            squeeze, slice, split, broadcast) of an argument or of another output are nothing more, and views
 *            of an intermediate add up to at most that tensor: nvFuser returns such outputs as aliases, and so do
 *            the workbench's executors (gpt2_block's qkv gradient [8192, 2304] and its transpose are one buffer;
 *            gpt2_block's q, k and v are the three thirds of one [8, 1024, 2304] projection).
 * A call without subsymbols reads every argument. */
static guint64
count_bytes (const WbCostModel *m, const WbBsym *b)
{
  g_autoptr (GHashTable) in = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) out = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) view_of = g_hash_table_new (g_str_hash, g_str_equal); /* view name -> its source */
  g_autoptr (GHashTable) viewed = g_hash_table_new (g_str_hash, g_str_equal);  /* viewed intermediate -> its view outputs' bytes */
  g_autoptr (GHashTable) read = NULL;
  GHashTableIter iter;
  gpointer       key, value;
  guint64        total = 0;

  collect_arg_names (b, in);
  collect_names (b->outputs, out);
  g_hash_table_remove (out, "_");
  for (guint i = 0; i < b->n_subsymbols; i++)
    if (is_view (b->subsymbols[i]))
      {
        g_autoptr (GHashTable) outs = output_names (b->subsymbols[i]);
        g_hash_table_iter_init (&iter, outs);
        while (g_hash_table_iter_next (&iter, &key, NULL))
          g_hash_table_insert (view_of, key, (gpointer) b->subsymbols[i]->args[0]->text);
      }
  /* written: outputs that are not views, then the view outputs of each other tensor (an intermediate): their
   * bytes added up, at most that tensor's (the pieces of a split do not overlap; a transpose is all of it) */
  g_hash_table_iter_init (&iter, out);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (view_of, key))
      total += name_bytes (m, key);
  g_hash_table_iter_init (&iter, out);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *base = key, *src;
      if (!g_hash_table_contains (view_of, key))
        continue;
      for (guint hops = 0; hops < 64 && (src = g_hash_table_lookup (view_of, base)) != NULL; hops++)
        base = src;
      /* the root is no view: an argument, an output that owns its memory (counted above), or an intermediate */
      if (!g_hash_table_contains (in, base) && !g_hash_table_contains (out, base))
        g_hash_table_insert (viewed, (gpointer) base,
                             GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (viewed, base)) + name_bytes (m, key)));
    }
  g_hash_table_iter_init (&iter, viewed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 whole = name_bytes (m, key), views = GPOINTER_TO_SIZE (value);
      total += whole > 0 ? MIN (whole, views) : views;
    }
  if (b->n_subsymbols == 0)
    return total + bytes_of_names (m, in);
  read = read_names (b);
  g_hash_table_iter_init (&iter, in);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (g_hash_table_contains (read, key))
      total += read_bytes (m, b, read, key, 0);
  return total;
}

/* The type of @b's first output (its annotation, or the map's), or NULL. */
static const WbType *
output_type (const WbCostModel *m, const WbBsym *b)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (b->has_type && is_tensor (&b->type))
    return &b->type;
  flat_outputs (b, names);
  for (guint i = 0; i < names->len; i++)
    {
      const WbType *t = names->pdata[i] ? g_hash_table_lookup (m->types, names->pdata[i]) : NULL;

      if (is_tensor (t))
        return t;
    }
  return NULL;
}

static const WbType *
first_tensor_arg (const WbCostModel *m, const WbBsym *b, guint skip)
{
  for (guint i = 0; i < b->n_args; i++)
    {
      const WbType *t = tensor_type (m, b->args[i]);

      if (t != NULL && skip-- == 0)
        return t;
    }
  return NULL;
}

/* The value bound to parameter @param of @b's signature (by keyword, else by position), or NULL. */
static const WbValue *
bound_arg (const WbBsym *b, const char *param)
{
  guint          n_params = 0;
  const WbParam *params = b->symbol ? wb_symbol_get_params (b->symbol, &n_params) : NULL;

  for (guint i = 0; i < b->n_kwargs; i++)
    if (g_strcmp0 (b->kwargs[i].name, param) == 0)
      return b->kwargs[i].value;
  for (guint i = 0; params != NULL && i < n_params; i++)
    if (g_strcmp0 (params[i].name, param) == 0)
      return i < b->n_args ? b->args[i] : params[i].default_value;
  return NULL;
}

static double
attention_flops (const WbCostModel *m, const WbBsym *b)
{
  const WbType  *q = tensor_type (m, bound_arg (b, "query"));
  const WbType  *k = tensor_type (m, bound_arg (b, "key"));
  const WbType  *v = tensor_type (m, bound_arg (b, "value"));
  const WbValue *causal = bound_arg (b, "is_causal");
  double         bh, l, s, e, ev, flops;

  if (q == NULL || k == NULL || v == NULL || q->rank < 2 || k->rank < 2 || v->rank < 1)
    return 0;
  l = (double) q->shape[q->rank - 2];
  e = (double) q->shape[q->rank - 1];
  s = (double) k->shape[k->rank - 2];
  ev = (double) v->shape[v->rank - 1];
  bh = l * e > 0 ? (double) wb_type_numel (q) / (l * e) : 0;
  flops = 2.0 * bh * l * s * e + 2.0 * bh * l * s * ev;
  if (causal != NULL && causal->kind == WB_VALUE_BOOL && causal->v.b)
    flops *= 0.5;
  return flops;
}

static double
count_flops (const WbCostModel *m, const WbBsym *b, guint depth)
{
  WbCostRule    rule;
  const WbType *out;
  const WbType *a;

  if (b->kind != WB_BSYM_CALL || b->symbol == NULL || depth > 32)
    return 0;
  rule = wb_cost_rule_for_symbol (b->symbol);
  out = output_type (m, b);
  a = first_tensor_arg (m, b, 0);

  switch (rule)
    {
    case WB_COST_RULE_NONE:
      return 0;
    case WB_COST_RULE_ELEMENTWISE:
      return out ? (double) wb_type_numel (out) : 0;
    case WB_COST_RULE_REDUCTION:
      return a ? (double) wb_type_numel (a) : 0;
    case WB_COST_RULE_MATMUL:
      if (out == NULL || a == NULL || a->rank == 0)
        return 0;
      return 2.0 * (double) wb_type_numel (out) * (double) a->shape[a->rank - 1];
    case WB_COST_RULE_LINEAR:
      {
        double f;
        if (out == NULL || a == NULL || a->rank == 0)
          return 0;
        f = 2.0 * (double) wb_type_numel (out) * (double) a->shape[a->rank - 1];
        if (first_tensor_arg (m, b, 2) != NULL)
          f += (double) wb_type_numel (out);
        return f;
      }
    case WB_COST_RULE_CONVOLUTION:
      {
        const WbType *w = first_tensor_arg (m, b, 1);
        if (out == NULL || w == NULL || w->rank == 0 || w->shape[0] == 0)
          return 0;
        return 2.0 * (double) wb_type_numel (out) * ((double) wb_type_numel (w) / (double) w->shape[0]);
      }
    case WB_COST_RULE_ATTENTION:
      return attention_flops (m, b);
    case WB_COST_RULE_ATTENTION_BACKWARD:
      return 2.5 * attention_flops (m, b);
    case WB_COST_RULE_DEFAULT:
    default:
      break;
    }

  if (b->n_subsymbols > 0)
    {
      double total = 0;
      for (guint i = 0; i < b->n_subsymbols; i++)
        total += count_flops (m, b->subsymbols[i], depth + 1);
      return total;
    }
  switch (wb_symbol_get_category (b->symbol))
    {
    case WB_SYMBOL_CATEGORY_ELEMENTWISE:
      return out ? (double) wb_type_numel (out) : 0;
    case WB_SYMBOL_CATEGORY_REDUCTION:
      return a ? (double) wb_type_numel (a) : 0;
    default:
      return 0;
    }
}

void
wb_cost_model_count (const WbCostModel *model,
                     const WbBsym      *bsym,
                     guint64           *bytes,
                     guint64           *flops)
{
  g_return_if_fail (model != NULL && bsym != NULL);
  if (bytes != NULL)
    *bytes = bsym->kind == WB_BSYM_CALL ? count_bytes (model, bsym) : 0;
  if (flops != NULL)
    *flops = (guint64) (count_flops (model, bsym, 0) + 0.5);
}
