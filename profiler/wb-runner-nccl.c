/* wb-runner-nccl.c — the runner's part of a multi-GPU run: NCCL's unique id, joining the group, statistics
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A multi-GPU run is one runner per rank (wb-profile-group.h). The workbench asks rank 0's runner for NCCL's
 * unique id (NCCL_ID; that runner hosts NCCL's bootstrap), then sends every runner a RUN request with
 * world_size, rank and nccl_id; each joins the communicator on its GPU (WB_CUDA_DEVICE, set by the workbench
 * when it starts the runner) before the checked run. The collectives themselves are
 * executors/cuda/wb-cuda-nccl.c. */
#include "config.h"

#include "wb-runner-main-private.h"

static guint calls_before; /* collectives run before the current request's checked run */

void
_wb_runner_handle_nccl_id (GOutputStream *out)
{
  guint8 id[WB_CUDA_NCCL_ID_BYTES];
  g_autoptr (GError) error = NULL;
  GVariantBuilder b;
  gboolean        ok = wb_cuda_nccl_get_unique_id (id, &error);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "ok", g_variant_new_boolean (ok));
  if (ok)
    g_variant_builder_add (&b, "{sv}", "id", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, id, sizeof id, 1));
  else
    g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (error->message));
  if (wb_cuda_nccl_get_version () != NULL)
    g_variant_builder_add (&b, "{sv}", "nccl_version", g_variant_new_string (wb_cuda_nccl_get_version ()));
  wb_runner_write_message (out, WB_RUNNER_MSG_NCCL_ID_REPLY, g_variant_builder_end (&b), NULL);
}

gboolean
_wb_runner_join_group (WbCudaRuntime *rt, GVariant *req, GError **error)
{
  guint32 world_size = 0, rank = 0;
  g_autoptr (GVariant) idv = NULL;
  gsize         n = 0;
  const guint8 *id;

  calls_before = wb_cuda_nccl_get_calls ();

  if (!g_variant_lookup (req, "world_size", "u", &world_size) || world_size == 0)
    return TRUE; /* no group: collectives run on one rank */
  g_variant_lookup (req, "rank", "u", &rank);
  idv = g_variant_lookup_value (req, "nccl_id", G_VARIANT_TYPE_BYTESTRING);
  id = idv ? g_variant_get_fixed_array (idv, &n, 1) : NULL;
  if (id == NULL || n != WB_CUDA_NCCL_ID_BYTES)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "rank %u of %u: the request has no NCCL unique id", rank, world_size);
      return FALSE;
    }
  if (!wb_cuda_nccl_init (rt, world_size, rank, id, error))
    {
      g_prefix_error (error, "rank %u of %u: ", rank, world_size);
      return FALSE;
    }
  return TRUE;
}

/* "collectives" (the checked run's), "world_size", "nccl_version" */
void
_wb_runner_nccl_stats (GVariantBuilder *b)
{
  g_variant_builder_add (b, "{sv}", "collectives", g_variant_new_uint32 (wb_cuda_nccl_get_calls () - calls_before));
  g_variant_builder_add (b, "{sv}", "world_size", g_variant_new_uint32 (wb_cuda_nccl_get_world_size ()));
  if (wb_cuda_nccl_get_version () != NULL)
    g_variant_builder_add (b, "{sv}", "nccl_version", g_variant_new_string (wb_cuda_nccl_get_version ()));
}
