/* wb-dtensor.c — DTensor traces: mesh and placement globals from annotations, redistribute's steps
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The steps follow redistribute_local_tensor in torch/distributed/tensor/_redistribute.py (torch 2.11):
 * per mesh dim, current == target or a mesh dim of one rank keeps the local tensor; target Replicate:
 * Partial -> all_reduce (Partial._reduce_value), Shard -> all_gather (Shard._to_replicate_tensor);
 * target Shard: Partial -> reduce_scatter (Partial._reduce_shard_value), Replicate -> the rank's chunk
 * (Shard._replicate_to_shard), Shard(a) -> Shard(b) all_to_all (Shard._to_new_shard_dim). A target
 * Partial that differs from the current placement is refused by DTensor.redistribute itself
 * (torch/distributed/tensor/_api.py: "redistributing to Partial is for internal use only"), which is
 * what Thunder's dtensor_redistribute calls. tests/compiler/dtensor-redistribute.tsv holds what torch
 * does for every pair (tests/compiler/dtensor-redistribute-torch.py). */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"

static const WbSymbol *
base_of (const WbSymbol *sym)
{
  for (int i = 0; i < 4 && sym != NULL && wb_symbol_get_like (sym) != NULL; i++)
    sym = wb_symbol_get_like (sym);
  return sym;
}

/* The value printed for parameter @name at position @pos, positional or keyword; NULL when absent. */
static const WbValue *
call_arg (const WbBsym *b, guint pos, const char *name)
{
  if (pos < b->n_args)
    return b->args[pos];
  for (guint i = 0; i < b->n_kwargs; i++)
    if (strcmp (b->kwargs[i].name, name) == 0)
      return b->kwargs[i].value;
  return NULL;
}

static void
note (GHashTable *globals, const char *name, const WbType *type)
{
  if (!g_hash_table_contains (globals, name))
    g_hash_table_insert (globals, (gpointer) name, g_memdup2 (type, sizeof *type));
}

static void
collect (GHashTable *globals, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym   *b = body[i];
      const WbSymbol *base = b->kind == WB_BSYM_CALL ? base_of (b->symbol) : NULL;
      WbSymbolId      id = base != NULL && !wb_symbol_is_opaque (base) ? wb_symbol_get_id (base) : WB_SYMBOL_OPAQUE;

      if ((id == WB_SYMBOL_DTENSOR_FROM_LOCAL || id == WB_SYMBOL_DTENSOR_REDISTRIBUTE) && b->has_type && b->type.kind == WB_TYPE_DTENSOR)
        {
          const WbValue *mesh = call_arg (b, 1, id == WB_SYMBOL_DTENSOR_FROM_LOCAL ? "mesh" : "device_mesh");
          const WbValue *pl = call_arg (b, 2, "placements");

          if (mesh != NULL && mesh->kind == WB_VALUE_NAME)
            note (globals, mesh->text, &b->type);
          if (pl != NULL && (pl->kind == WB_VALUE_TUPLE || pl->kind == WB_VALUE_LIST))
            for (guint k = 0; k < pl->n_items && k < b->type.dtensor.mesh_rank; k++)
              if (pl->items[k]->kind == WB_VALUE_NAME)
                {
                  WbType t = b->type;
                  t.dtensor.placements[0] = b->type.dtensor.placements[k];
                  note (globals, pl->items[k]->text, &t);
                }
        }
      collect (globals, b->subsymbols, b->n_subsymbols);
    }
}

GHashTable *
wb_dtensor_globals_new (const WbTrace *trace)
{
  GHashTable *globals = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_return_val_if_fail (trace != NULL, globals);
  collect (globals, trace->body, trace->n_body);
  return globals;
}

/* ---- redistribute ------------------------------------------------------------------------------- */

static gboolean
refuse (GError **error, const WbPlacement *from, const WbPlacement *to, guint mesh_dim, const char *why)
{
  g_autoptr (GString) a = g_string_new (NULL);
  g_autoptr (GString) b = g_string_new (NULL);

  wb_placement_append (from, a);
  wb_placement_append (to, b);
  g_set_error (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_ARGS, "redistribute from %s to %s on mesh dim %u: %s", a->str, b->str,
               mesh_dim, why);
  return FALSE;
}

/* The step for one mesh dim (@n ranks > 1, @cur != @tgt), as _redistribute.py chooses it. */
static gboolean
plan_one (const WbPlacement *cur, const WbPlacement *tgt, guint mesh_dim, gint64 n, WbDtensorStep *step, GError **error)
{
  memset (step, 0, sizeof *step);
  step->mesh_dim = mesh_dim;
  step->group_size = n;
  switch (tgt->kind)
    {
    case WB_PLACEMENT_REPLICATE:
      if (cur->kind == WB_PLACEMENT_PARTIAL)
        step->kind = WB_DTENSOR_STEP_ALL_REDUCE, step->op = cur->op;
      else
        step->kind = WB_DTENSOR_STEP_ALL_GATHER, step->dim = cur->dim;
      return TRUE;
    case WB_PLACEMENT_SHARD:
      step->dim = tgt->dim;
      if (cur->kind == WB_PLACEMENT_PARTIAL)
        step->kind = WB_DTENSOR_STEP_REDUCE_SCATTER, step->op = cur->op;
      else if (cur->kind == WB_PLACEMENT_REPLICATE)
        step->kind = WB_DTENSOR_STEP_SPLIT;
      else
        step->kind = WB_DTENSOR_STEP_ALL_TO_ALL, step->src_dim = cur->dim;
      return TRUE;
    case WB_PLACEMENT_PARTIAL:
      return refuse (error, cur, tgt, mesh_dim, "redistributing to Partial is for internal use only (DTensor.redistribute refuses it)");
    default:
      return refuse (error, cur, tgt, mesh_dim, "unknown placement");
    }
}

gboolean
wb_dtensor_redistribute_plan (const WbType *src, const WbType *dst, WbDtensorStep *steps, guint *n_steps, GError **error)
{
  guint n = 0;

  g_return_val_if_fail (src != NULL && dst != NULL && steps != NULL && n_steps != NULL, FALSE);
  *n_steps = 0;
  if (src->kind != WB_TYPE_DTENSOR || dst->kind != WB_TYPE_DTENSOR)
    {
      g_set_error_literal (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_TYPE, "redistribute takes a DTensor to a DTensor");
      return FALSE;
    }
  if (src->dtensor.mesh_rank != dst->dtensor.mesh_rank ||
      memcmp (src->dtensor.mesh_shape, dst->dtensor.mesh_shape, sizeof (gint32) * src->dtensor.mesh_rank) != 0)
    {
      g_set_error_literal (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_BAD_ARGS,
                           "redistribute to another device mesh is not supported (torch: cross device mesh comm)");
      return FALSE;
    }
  for (guint i = 0; i < src->dtensor.mesh_rank; i++)
    {
      const WbPlacement *cur = &src->dtensor.placements[i], *tgt = &dst->dtensor.placements[i];
      gint64             size = src->dtensor.mesh_shape[i];

      if (wb_placement_equal (cur, tgt) || size == 1)
        continue;
      if (!plan_one (cur, tgt, i, size, &steps[n], error))
        return FALSE;
      n++;
    }
  *n_steps = n;
  return TRUE;
}

const char *
wb_dtensor_step_kind_to_string (WbDtensorStepKind kind)
{
  static const char *const names[] = { "?", "all_reduce", "all_gather", "reduce_scatter", "split", "all_to_all" };
  return kind >= WB_DTENSOR_STEP_ALL_REDUCE && kind <= WB_DTENSOR_STEP_ALL_TO_ALL ? names[kind] : names[0];
}

char *
wb_dtensor_step_to_string (const WbDtensorStep *step)
{
  const char *k = wb_dtensor_step_kind_to_string (step->kind);

  switch (step->kind)
    {
    case WB_DTENSOR_STEP_ALL_REDUCE:
      return g_strdup_printf ("%s(%s)", k, wb_partial_op_to_string (step->op));
    case WB_DTENSOR_STEP_REDUCE_SCATTER:
      return g_strdup_printf ("%s(%s, dim=%u)", k, wb_partial_op_to_string (step->op), step->dim);
    case WB_DTENSOR_STEP_ALL_TO_ALL:
      return g_strdup_printf ("%s(%u->%u)", k, step->src_dim, step->dim);
    default:
      return g_strdup_printf ("%s(dim=%u)", k, step->dim);
    }
}
