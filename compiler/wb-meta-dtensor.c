/* wb-meta-dtensor.c — meta functions of Thunder's DTensor prims (thunder/torch/experimental/
 * dtensor_torch_and_prims.py): dtensor_from_local, dtensor_to_local, dtensor_redistribute
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's own metas run torch's DTensor methods on fake tensors; these follow torch 2.11:
 *   from_local (DTensor.from_local, shape=None): the global shape is the local one with each Shard(d)
 *     dim times its mesh dim's size (the local tensors are assumed evenly sharded); shape= gives it;
 *   to_local: the local shape, the rank's chunk of every Shard(d) dim (compute_local_shape_and_global_
 *     offset); a dim that does not split evenly has a size that depends on the rank: unknown here;
 *   redistribute: the same global shape with the new placements, refused where torch refuses
 *     (wb_dtensor_redistribute_plan; placements=None: "placements is needed for redistribute!").
 * The mesh and the placements are printed as opaque globals, typed through the type lookup from the
 * trace's annotated calls (wb_dtensor_globals_new); when one is not, the meta fails UNKNOWN and the
 * verifier takes the annotation on trust. */
#include "config.h"

#include <string.h>

#include "wb-meta-private.h"

/* The DTensor type the environment gives global @v (a mesh or a placement), or FALSE with an error. */
static gboolean
global_type (const WbMetaCall *call, const WbValue *v, const char *what, WbType *out, GError **error)
{
  if (v == NULL || v->kind != WB_VALUE_NAME)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expected a %s global, not %s", what, v != NULL && v->text ? v->text : "nothing");
  if (call->lookup == NULL || !call->lookup (v->text, out, call->lookup_data) || out->kind != WB_TYPE_DTENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call, "%s %s is typed by no annotated dtensor call", what, v->text);
  return TRUE;
}

/* The placements argument @i into @spec (a tuple or list of placement globals, one per mesh dim), or
 * every mesh dim's current one kept when None (@keep) or Replicate (from_local's default). */
static gboolean
read_placements (const WbMetaCall *call, guint i, gboolean keep, WbDtensorSpec *spec, GError **error)
{
  WbValue *const *items;
  guint           n;

  if (!_wb_meta_arg_present (call, i))
    {
      if (!keep)
        for (guint k = 0; k < spec->mesh_rank; k++)
          spec->placements[k] = (WbPlacement){ .kind = WB_PLACEMENT_REPLICATE };
      return TRUE;
    }
  if (!_wb_meta_arg_items (call, i, &items, &n, error))
    return FALSE;
  if (n != spec->mesh_rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "%u placements for a mesh of %u dims", n, spec->mesh_rank);
  for (guint k = 0; k < n; k++)
    {
      WbType t;
      if (!global_type (call, items[k], "placement", &t, error))
        return FALSE;
      spec->placements[k] = t.dtensor.placements[0];
    }
  return TRUE;
}

static gboolean
check_shard_dims (const WbMetaCall *call, const WbType *t, GError **error)
{
  for (guint k = 0; k < t->dtensor.mesh_rank; k++)
    if (t->dtensor.placements[k].kind == WB_PLACEMENT_SHARD && t->dtensor.placements[k].dim >= t->rank)
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "Shard(dim=%u) of a %u-d tensor", t->dtensor.placements[k].dim, t->rank);
  return TRUE;
}

/* dtensor_from_local (x, mesh, placements, *, run_check=False, shape=None, stride=None) */
gboolean
_wb_meta_dtensor_from_local (WbMetaCall *call, GError **error)
{
  int    ps = _wb_meta_param_index (call, "shape");
  WbType x, out;

  if (!_wb_meta_arg_tensor (call, 0, &x, error) || !global_type (call, call->params[1], "mesh", &out, error))
    return FALSE;
  out.kind = WB_TYPE_DTENSOR;
  out.dtype = x.dtype;
  out.weak = FALSE;
  out.device = x.device;
  out.rank = x.rank;
  memcpy (out.shape, x.shape, sizeof x.shape);
  if (!read_placements (call, 2, FALSE, &out.dtensor, error) || !check_shard_dims (call, &out, error))
    return FALSE;
  if (ps >= 0 && _wb_meta_arg_present (call, (guint) ps))
    {
      guint n = 0;
      if (!_wb_meta_arg_ints (call, (guint) ps, out.shape, WB_MAX_RANK, &n, FALSE, error))
        return FALSE;
      if (n != x.rank)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "shape has %u dims, the local tensor %u", n, x.rank);
    }
  else
    for (guint k = 0; k < out.dtensor.mesh_rank; k++)
      if (out.dtensor.placements[k].kind == WB_PLACEMENT_SHARD)
        out.shape[out.dtensor.placements[k].dim] *= out.dtensor.mesh_shape[k];
  _wb_meta_out (call, &out);
  return TRUE;
}

/* dtensor_to_local (dtensor, *, grad_placements=None): the local tensor (the same on every rank when
 * every Shard dim splits evenly). */
gboolean
_wb_meta_dtensor_to_local (WbMetaCall *call, GError **error)
{
  WbType a, out;
  gint64 shape[WB_MAX_RANK];

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (a.kind != WB_TYPE_DTENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a DTensor");
  memcpy (shape, a.shape, sizeof shape);
  for (guint k = 0; k < a.dtensor.mesh_rank; k++)
    if (a.dtensor.placements[k].kind == WB_PLACEMENT_SHARD && a.dtensor.placements[k].dim < a.rank)
      {
        guint d = a.dtensor.placements[k].dim;
        if (shape[d] % a.dtensor.mesh_shape[k] != 0)
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_UNKNOWN, call,
                                "dim %u of size %" G_GINT64_FORMAT " does not split evenly over %d ranks: its local size depends on the rank", d,
                                shape[d], a.dtensor.mesh_shape[k]);
        shape[d] /= a.dtensor.mesh_shape[k];
      }
  wb_type_dtensor_local (&a, NULL, &out);
  memcpy (out.shape, shape, sizeof shape);
  _wb_meta_out (call, &out);
  return TRUE;
}

/* dtensor_redistribute (dtensor, device_mesh=None, placements=None, *, async_op=False) */
gboolean
_wb_meta_dtensor_redistribute (WbMetaCall *call, GError **error)
{
  g_autoptr (GError) local = NULL;
  WbDtensorStep steps[WB_MAX_MESH_RANK];
  guint         n;
  WbType        a, out;

  if (!_wb_meta_arg_type (call, 0, &a, error))
    return FALSE;
  if (a.kind != WB_TYPE_DTENSOR)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "expects a DTensor");
  out = a;
  if (_wb_meta_arg_present (call, 1))
    {
      WbType mesh;
      if (!global_type (call, call->params[1], "mesh", &mesh, error))
        return FALSE;
      out.dtensor.mesh_rank = mesh.dtensor.mesh_rank;
      memcpy (out.dtensor.mesh_shape, mesh.dtensor.mesh_shape, sizeof mesh.dtensor.mesh_shape);
      out.text = mesh.text;
      out.dtensor.mesh_offset = mesh.dtensor.mesh_offset;
      out.dtensor.mesh_len = mesh.dtensor.mesh_len;
    }
  if (!_wb_meta_arg_present (call, 2))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "placements is needed for redistribute (torch raises too)");
  if (!read_placements (call, 2, TRUE, &out.dtensor, error) || !check_shard_dims (call, &out, error))
    return FALSE;
  if (!wb_dtensor_redistribute_plan (&a, &out, steps, &n, &local))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "%s", local->message);
  _wb_meta_out (call, &out);
  return TRUE;
}
