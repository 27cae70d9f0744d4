/* wb-case-inputs.c — a case's inputs: drawn by seed (scaled as the model initialises its state, index
 * inputs below the sizes they index) or taken from a tensors file
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-case-private.h"

/* -- index bounds ----------------------------------------------------------------------------------- */

typedef struct
{
  const char *name;
  int         index_pos, src_pos, dim_pos, fixed_dim; /* dim_pos < 0: fixed_dim */
} IndexUse;

static const IndexUse index_uses[] = {
  { "prims.take", 1, 0, 2, 0 },
  { "prims.take_along_axis", 1, 0, 2, 0 },
  { "prims.gather", 1, 0, 2, 0 },
  { "prims.index_add", 1, 0, 3, 0 },
  { "prims.index_copy", 1, 0, 3, 0 },
  { "prims.scatter", 1, 0, 3, 0 },
  { "prims.scatter_add", 1, 0, 3, 0 },
  { "prims.embedding", 0, 1, -1, 0 },
  { "ltorch.embedding", 0, 1, -1, 0 },
  { "torch.nn.functional.embedding", 0, 1, -1, 0 },
  { "ltorch.getitem", 1, 0, -1, 0 },
  { "Tensor.__getitem__", 1, 0, -1, 0 },
  { "ltorch.cross_entropy", 1, 0, -1, 1 },
  { "torch.nn.functional.cross_entropy", 1, 0, -1, 1 },
  { "ltorch.nll_loss", 1, 0, -1, 1 },
  { "torch.nn.functional.nll_loss", 1, 0, -1, 1 },
  { "ltorch.take_along_dim", 1, 0, 2, 0 },
  { "torch.take_along_dim", 1, 0, 2, 0 },
  { "ltorch.index_select", 2, 0, 1, 0 },
  { "ltorch.gather", 2, 0, 1, 0 },
};

static void
collect_types (const WbBsym *b, GHashTable *types)
{
  if (b->has_type && b->type.kind == WB_TYPE_TENSOR)
    {
      const char *n = b->kind == WB_BSYM_CALL ? b->type_name : b->name;
      if (n)
        g_hash_table_insert (types, (gpointer) n, (gpointer) &b->type);
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    collect_types (b->subsymbols[i], types);
}

/* The last component of a printed name: "add" for prims.add, torch.add and Tensor.add. */
static const char *
short_name (const char *name)
{
  const char *dot = strrchr (name, '.');
  return dot != NULL ? dot + 1 : name;
}

static gboolean
name_in (const char *name, const char *const *list)
{
  for (guint i = 0; list[i] != NULL; i++)
    if (strcmp (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Gives every case input that flows into an index of a dim of @bound elements that bound. The value
 * @name is followed back through the ops that keep its values (views, copies, conversions, selections
 * such as gather and cat, the branches
 * of where) and through sums, products and running sums (bound_terms, cumsum) so that the result stays
 * in range: T5's relative position buckets are an input plus where() of two others, RoBERTa's position
 * ids cumsum(mask) * mask + 1. */
static void bound_terms (WbCase *c, GHashTable *producers, const WbBsym *p, gboolean mul, gint64 bound, guint depth);

static void
bound_value (WbCase *c, GHashTable *producers, const char *name, gint64 bound, guint depth)
{
  static const char *const keep[] = { "reshape", "view", "expand", "broadcast_in_dim", "permute", "transpose", "squeeze", "unsqueeze",
                                      "convert_element_type", "to", "type_as", "long", "clone", "contiguous", "flatten", "shallow_copy",
                                      "copy_", "update_aliases", "torch_prims_reshape_impl",
                                      /* selections: their values are some of their first argument's */
                                      "gather", "take_along_axis", "take_along_dim", "index_select", "take", "getitem", "slice",
                                      "narrow", "select", "repeat", "tile", "flip", "roll", "cat", "stack", "split", "chunk", NULL };
  const WbBsym            *p;
  const char              *op;

  for (guint k = 0; k < c->inputs->len; k++)
    {
      CaseInput *in = c->inputs->pdata[k];
      if (strcmp (in->pub.trace_name, name) == 0 && (in->pub.index_bound == 0 || bound < in->pub.index_bound))
        in->pub.index_bound = bound;
    }
  if (depth > 32 || (p = g_hash_table_lookup (producers, name)) == NULL || p->n_args == 0)
    return;
  op = short_name (p->name);
  if (strcmp (op, "where") == 0 && p->n_args >= 3)
    {
      for (guint i = 1; i < 3; i++)
        if (p->args[i]->kind == WB_VALUE_NAME)
          bound_value (c, producers, p->args[i]->text, bound, depth + 1);
    }
  else if ((strcmp (op, "add") == 0 || strcmp (op, "mul") == 0) && p->n_args >= 2)
    bound_terms (c, producers, p, strcmp (op, "mul") == 0, bound, depth);
  else if (strcmp (op, "cumsum") == 0 && p->n_args >= 2 && p->args[0]->kind == WB_VALUE_NAME)
    {
      /* a running sum along a dim of L elements stays below bound when each term is below bound / L */
      gint64 dim = 0, len = 1;
      if (wb_value_get_int (p->args[1], &dim) && p->has_type && p->type.rank > 0)
        len = p->type.shape[dim < 0 ? dim + p->type.rank : dim];
      bound_value (c, producers, p->args[0]->text, MAX (bound / MAX (len, 1), 1), depth + 1);
    }
  else if (name_in (op, keep))
    {
      /* copy_ (src, dst) keeps both; update_aliases ((a, b)) its items */
      for (guint i = 0; i < MIN (p->n_args, 2u); i++)
        {
          const WbValue *a = p->args[i];
          if (a->kind == WB_VALUE_NAME && (i == 0 || strcmp (op, "copy_") == 0))
            bound_value (c, producers, a->text, bound, depth + 1);
          else if (i == 0 && (a->kind == WB_VALUE_TUPLE || a->kind == WB_VALUE_LIST))
            for (guint k = 0; k < a->n_items; k++)
              if (a->items[k]->kind == WB_VALUE_NAME)
                bound_value (c, producers, a->items[k]->text, bound, depth + 1);
        }
    }
}

/* add (@mul FALSE) or mul of two terms whose result must stay below @bound: two names share it (half each
 * for a sum, the square root each for a product); a name plus a non-negative constant c gets bound - c. */
static void
bound_terms (WbCase *c, GHashTable *producers, const WbBsym *p, gboolean mul, gint64 bound, guint depth)
{
  double konst = 0;
  int    named = -1, consts = 0;

  for (guint i = 0; i < 2; i++)
    if (p->args[i]->kind == WB_VALUE_NAME)
      named = named < 0 ? (int) i : 2;
    else if (wb_value_get_number (p->args[i], &konst) && konst >= 0)
      consts++;
  if (named == 2)
    for (guint i = 0; i < 2; i++)
      bound_value (c, producers, p->args[i]->text, MAX (mul ? (gint64) sqrt ((double) bound) : bound / 2, 1), depth + 1);
  else if (named >= 0 && consts == 1 && !mul)
    bound_value (c, producers, p->args[named]->text, MAX (bound - (gint64) konst, 1), depth + 1);
  /* a product with a constant is not followed: it is how a multi-index is linearised (b * 32 + q, with
   * b's own bound from the key it came from), where splitting the sum's bound would leave b only 0 */
}

/* Maps every name a call binds (top level and subsymbols) to that call. */
static void
collect_producers (const WbBsym *b, GHashTable *producers)
{
  if (b->kind == WB_BSYM_CALL && b->outputs != NULL)
    {
      const WbValue *o = b->outputs;
      if (o->kind == WB_VALUE_NAME)
        g_hash_table_insert (producers, (gpointer) o->text, (gpointer) b);
      else if (o->kind == WB_VALUE_TUPLE || o->kind == WB_VALUE_LIST)
        for (guint i = 0; i < o->n_items; i++)
          if (o->items[i]->kind == WB_VALUE_NAME)
            g_hash_table_insert (producers, (gpointer) o->items[i]->text, (gpointer) b);
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    collect_producers (b->subsymbols[i], producers);
}

static void
find_index_uses (WbCase *c, const WbBsym *b, GHashTable *types, GHashTable *producers)
{
  if (b->kind == WB_BSYM_CALL && b->name)
    for (guint u = 0; u < G_N_ELEMENTS (index_uses); u++)
      {
        const IndexUse *iu = &index_uses[u];
        const WbValue  *ix, *src;
        const WbType   *st;
        gint64          dim = iu->fixed_dim;
        if (strcmp (b->name, iu->name) != 0 || (guint) MAX (iu->index_pos, iu->src_pos) >= b->n_args)
          continue;
        ix = b->args[iu->index_pos];
        src = b->args[iu->src_pos];
        if (src->kind != WB_VALUE_NAME || (st = g_hash_table_lookup (types, src->text)) == NULL)
          continue;
        if (ix->kind == WB_VALUE_TUPLE && iu->dim_pos < 0 && iu->fixed_dim == 0)
          {
            /* a getitem key of several items: a tensor item indexes the dim it stands at (slices and ints
             * take one dim each, None none, ... the dims the items after it leave) */
            guint d = 0;
            for (guint k = 0; k < ix->n_items && d < st->rank; k++)
              {
                const WbValue *item = ix->items[k];
                if (item->kind == WB_VALUE_ELLIPSIS)
                  d = st->rank > ix->n_items - k - 1 ? st->rank - (ix->n_items - k - 1) : d;
                else if (item->kind == WB_VALUE_NONE)
                  continue;
                else
                  {
                    if (item->kind == WB_VALUE_NAME && st->shape[d] > 0)
                      bound_value (c, producers, item->text, st->shape[d], 0);
                    d++;
                  }
              }
            continue;
          }
        if (ix->kind != WB_VALUE_NAME)
          continue;
        if (iu->dim_pos >= 0 && ((guint) iu->dim_pos >= b->n_args || !wb_value_get_int (b->args[iu->dim_pos], &dim)))
          continue;
        if (iu->fixed_dim == 1 && st->rank == 1)
          dim = 0;
        if (dim < 0)
          dim += st->rank;
        if (dim < 0 || dim >= st->rank)
          continue;
        if (st->shape[dim] > 0)
          bound_value (c, producers, ix->text, st->shape[dim], 0);
      }
  for (guint i = 0; i < b->n_subsymbols; i++)
    find_index_uses (c, b->subsymbols[i], types, producers);
}

void
_wb_case_compute_index_bounds (WbCase *c)
{
  for (guint i = 0; i < wb_trace_set_get_n_entries (c->set); i++)
    {
      const WbTrace *t = wb_trace_set_get_entry (c->set, i)->trace;
      g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr (GHashTable) producers = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint k = 0; k < t->n_body; k++)
        {
          collect_types (t->body[k], types);
          collect_producers (t->body[k], producers);
        }
      for (guint k = 0; k < t->n_body; k++)
        find_index_uses (c, t->body[k], types, producers);
    }
}

/* -- inputs ---------------------------------------------------------------------------------------- */

/* the conversion of a drawn input into its dtype, over threads (elements [begin, end)): params scaled from
 * [0, 1) into [lo, hi), integers from [0, 1) into [0, range) */
typedef struct
{
  WbDtype  dtype;
  guint8  *dst;
  double  *v;
  gboolean scale;
  double   lo, hi;
  gint64   range; /* > 0: an integer dtype */
} Store;

static void
store_part (gint64 begin, gint64 end, gpointer data)
{
  const Store *st = data;
  gsize        size = wb_dtype_size (st->dtype), n = (gsize) (end - begin);
  double      *v = st->v + begin;

  if (st->range > 0)
    {
      g_autofree gint64 *iv = g_new (gint64, MAX (n, 1));
      for (gsize i = 0; i < n; i++)
        iv[i] = MIN ((gint64) (v[i] * (double) st->range), st->range - 1);
      _wb_store_i64 (st->dst + (gsize) begin * size, st->dtype, 1, iv, n);
      return;
    }
  if (st->scale)
    for (gsize i = 0; i < n; i++)
      v[i] = st->lo + (st->hi - st->lo) * v[i];
  _wb_store_f64 (st->dst + (gsize) begin * size, st->dtype, 1, v, n);
}

typedef enum
{
  DRAW_ACTIVATION, /* N(0, 1) */
  DRAW_WEIGHT,     /* a parameter of rank >= 2 */
  DRAW_SCALE,      /* a rank-1 "weight" (norms) or a running variance */
  DRAW_SHIFT,      /* any other rank-1 parameter or buffer (biases, running means) */
} DrawRole;

/* How a drawn input is scaled so that a deep program stays in range as the real model does: module state
 * is known by the prologue (param.*) or by the names torch.fx/dynamo give lifted module state
 * (l_self_modules_..._parameters_weight_, ..._buffers_running_var_), which ThunderFX traces keep. */
static DrawRole
draw_role (const CaseInput *in)
{
  const char      *name = in->pub.trace_name ? in->pub.trace_name : in->pub.name;
  gboolean         buffer = strstr (name, "_buffers_") != NULL;
  gboolean         param = in->pub.is_param || strstr (name, "_parameters_") != NULL;
  g_autofree char *leaf = g_strdup (name);

  g_strchomp (g_strdelimit (leaf, "_", ' ')); /* trailing "_" of dynamo's names */
  if (g_str_has_suffix (leaf, "running var"))
    return DRAW_SCALE;
  if (buffer || g_str_has_suffix (leaf, "running mean"))
    return DRAW_SHIFT;
  if (!param)
    return DRAW_ACTIVATION;
  if (in->pub.type.rank >= 2)
    return DRAW_WEIGHT;
  return g_str_has_suffix (leaf, "weight") ? DRAW_SCALE : DRAW_SHIFT;
}

static WbTensor *
generate (const CaseInput *in, guint64 seed, GError **error)
{
  const WbType      *t = &in->pub.type;
  guint64            stream = wb_philox_stream_from_name (in->pub.name);
  WbTensor          *out;
  gint64             n;
  g_autofree double *v = NULL;
  Store              st = { 0 };

  if (t->kind != WB_TYPE_TENSOR)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s: input %s (%s) has no tensor annotation: cannot draw it", in->where ? in->where : "?",
                   in->pub.name, in->pub.trace_name);
      return NULL;
    }
  if (!_wb_dtype_is_supported (t->dtype))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "input %s: dtype %s is not supported",
                   in->pub.name, wb_dtype_shortname (t->dtype));
      return NULL;
    }
  out = wb_tensor_new (t->dtype, t->rank, t->shape, error);
  if (out == NULL)
    return NULL;
  n = wb_tensor_numel (out);
  v = g_new (double, MAX (n, 1));
  st.dtype = t->dtype;
  st.dst = wb_tensor_get_data (out);
  st.v = v;
  if (wb_dtype_is_float (t->dtype))
    {
      double   bound = 1.0 / sqrt ((double) MAX (n / MAX (t->rank ? t->shape[0] : 1, 1), 1));
      DrawRole role = draw_role (in);
      switch (role)
        {
        case DRAW_ACTIVATION:
          wb_philox_normal_f64 (seed, stream, 0, v, (gsize) n);
          break;
        case DRAW_WEIGHT: /* PyTorch's default Linear/Conv init scale: U(-1/sqrt(fan_in), 1/sqrt(fan_in)) */
          st.lo = -bound, st.hi = bound;
          break;
        case DRAW_SCALE: /* norm weights, running variances: around 1, positive */
          st.lo = 0.5, st.hi = 1.5;
          break;
        case DRAW_SHIFT: /* biases, running means */
          st.lo = -0.1, st.hi = 0.1;
          break;
        }
      if (role != DRAW_ACTIVATION)
        {
          wb_philox_uniform_f64 (seed, stream, 0, v, (gsize) n);
          st.scale = TRUE;
        }
    }
  else
    {
      st.range = t->dtype == WB_DTYPE_BOOL8 ? 2 : (in->pub.index_bound > 0 ? in->pub.index_bound : 16);
      wb_philox_uniform_f64 (seed, stream, 0, v, (gsize) n);
    }
  _wb_parallel_for (n, 1 << 17, store_part, &st);
  return out;
}

/* A DTensor input saved whole (its global shape, not the rank's local one): the rank's shard of every
 * Shard(d) dim, copied (Replicate and Partial keep the tensor). NULL with @error set. */
static WbTensor *
local_shard (const CaseInput *in, WbTensor *t, GError **error)
{
  gint64 offset = t->offset, off;
  g_autoptr (WbTensor) view = NULL;
  WbTensor *out;

  for (guint i = 0; i < in->dtensor.dtensor.mesh_rank; i++)
    if (in->dtensor.dtensor.placements[i].kind == WB_PLACEMENT_SHARD)
      {
        guint d = in->dtensor.dtensor.placements[i].dim;
        wb_dtensor_shard_size (in->dtensor.shape[d], in->dtensor.dtensor.mesh_shape[i], in->coord[i], &off);
        offset += off * t->strides[d];
      }
  view = wb_tensor_new_view (t, t->dtype, in->pub.type.rank, in->pub.type.shape, t->strides, offset);
  out = wb_tensor_new_like (view, error);
  if (out != NULL && !wb_tensor_copy_into (out, view, error))
    g_clear_pointer (&out, wb_tensor_unref);
  return out;
}

static gboolean
same_shape (const WbTensor *t, const WbType *type)
{
  return t->rank == type->rank && memcmp (t->shape, type->shape, sizeof (gint64) * t->rank) == 0;
}

GHashTable *
wb_case_make_inputs (const WbCase *c, WbSafetensors *tensors, guint64 seed, GError **error)
{
  g_autoptr (GHashTable) map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_tensor_unref);

  for (guint i = 0; i < c->inputs->len; i++)
    {
      const CaseInput *in = c->inputs->pdata[i];
      WbTensor        *t = tensors ? wb_safetensors_lookup (tensors, in->pub.name) : NULL;
      if (t != NULL && in->dtensor.kind == WB_TYPE_DTENSOR && !same_shape (t, &in->pub.type) && same_shape (t, &in->dtensor))
        {
          if ((t = local_shard (in, t, error)) == NULL)
            return NULL;
        }
      else if (t != NULL)
        t = wb_tensor_ref (t);
      else if ((t = generate (in, seed, error)) == NULL)
        return NULL;
      g_hash_table_insert (map, g_strdup (in->pub.name), t);
    }
  return g_steal_pointer (&map);
}

GHashTable *
wb_case_inputs_copy (GHashTable *inputs, gboolean f32_as_f64, GError **error)
{
  g_autoptr (GHashTable) copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_tensor_unref);
  GHashTableIter it;
  gpointer       key, value;

  g_return_val_if_fail (inputs != NULL, NULL);
  g_hash_table_iter_init (&it, inputs);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      WbTensor *t = value, *d;

      if (t == NULL)
        continue;
      if ((d = wb_tensor_to_dtype (t, f32_as_f64 && t->dtype == WB_DTYPE_FLOAT32 ? WB_DTYPE_FLOAT64 : t->dtype, error)) == NULL)
        return NULL;
      g_hash_table_insert (copy, g_strdup (key), d);
    }
  return g_steal_pointer (&copy);
}
