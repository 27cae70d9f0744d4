/* wb-cuda-graph.c — capture, instantiate and replay a run as a CUDA graph; compare two runs' results
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cuda-graph.h"

#include <string.h>

#include "wb-compare.h"
#include "wb-cuda-runtime-private.h"
#include "wb-executors-private.h"

struct _WbCudaGraph
{
  WbCudaRuntime    *rt;
  const WbCuApi    *cu;
  CUgraph           graph;
  CUgraphExec       exec;
  WbCudaLaunchList *list; /* instead of a graph: wb_cuda_graph_record_list */
  GArray           *held; /* (element-type CUdeviceptr) memory from before the capture that the graph reads */
  CUevent           start, end;
  guint             n_nodes;
  gboolean          launched;
};

WbCudaGraph *
wb_cuda_graph_new (WbCudaRuntime *rt, CUgraph graph, GArray *held, GError **error)
{
  const WbCuApi *cu = wb_cuda_runtime_get_api (rt);
  WbCudaGraph   *g = g_new0 (WbCudaGraph, 1);
  size_t         n = 0;

  g->rt = rt;
  g->cu = cu;
  g->graph = graph;
  g->held = held;
  if (cu->cuGraphGetNodes (graph, NULL, &n) == CUDA_SUCCESS)
    g->n_nodes = (guint) n;
  if (!wb_cuda_check (cu->cuGraphInstantiateWithFlags (&g->exec, graph, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH),
                      "cuGraphInstantiateWithFlags", error) ||
      !wb_cuda_check (cu->cuEventCreate (&g->start, CU_EVENT_DEFAULT), "cuEventCreate", error) ||
      !wb_cuda_check (cu->cuEventCreate (&g->end, CU_EVENT_DEFAULT), "cuEventCreate", error))
    {
      wb_cuda_graph_free (g);
      return NULL;
    }
  return g;
}

void
wb_cuda_graph_free (WbCudaGraph *g)
{
  if (g == NULL)
    return;
  g_clear_pointer (&g->list, _wb_cuda_launch_list_free);
  if (g->exec != NULL)
    g->cu->cuGraphExecDestroy (g->exec);
  if (g->graph != NULL)
    g->cu->cuGraphDestroy (g->graph);
  if (g->start != NULL)
    g->cu->cuEventDestroy (g->start);
  if (g->end != NULL)
    g->cu->cuEventDestroy (g->end);
  /* the graph never read them if it never ran, but they were released by the program either way */
  wb_cuda_runtime_release_blocks (g->rt, g_steal_pointer (&g->held));
  g_free (g);
}

CUevent
wb_cuda_graph_get_start_event (WbCudaGraph *g)
{
  return g->start;
}

guint
wb_cuda_graph_get_n_nodes (const WbCudaGraph *g)
{
  return g->list != NULL ? _wb_cuda_launch_list_get_n_ops (g->list) : g->n_nodes;
}

gboolean
wb_cuda_graph_is_list (const WbCudaGraph *g)
{
  return g->list != NULL;
}

char *
wb_cuda_graph_describe_list (const WbCudaGraph *g)
{
  return g->list != NULL ? _wb_cuda_launch_list_describe (g->list) : NULL;
}

WbCudaGraph *
wb_cuda_graph_record_list (WbCudaRuntime *rt, WbCudaGraphBody body, gpointer data, GError **error)
{
  const WbCuApi    *cu = wb_cuda_runtime_get_api (rt);
  WbCudaLaunchList *list = _wb_cuda_launch_list_record (rt, body, data, error);
  WbCudaGraph      *g;

  if (list == NULL)
    return NULL;
  g = g_new0 (WbCudaGraph, 1);
  g->rt = rt;
  g->cu = cu;
  g->list = list;
  if (!wb_cuda_check (cu->cuEventCreate (&g->start, CU_EVENT_DEFAULT), "cuEventCreate", error) ||
      !wb_cuda_check (cu->cuEventCreate (&g->end, CU_EVENT_DEFAULT), "cuEventCreate", error))
    {
      wb_cuda_graph_free (g);
      return NULL;
    }
  return g;
}

gboolean
wb_cuda_graph_launch (WbCudaGraph *g, GError **error)
{
  CUstream st = wb_cuda_runtime_get_stream (g->rt);

  if (!wb_cuda_check (g->cu->cuEventRecord (g->start, st), "cuEventRecord", error) ||
      (g->list != NULL ? !_wb_cuda_launch_list_replay (g->list, error) : !wb_cuda_check (g->cu->cuGraphLaunch (g->exec, st), "cuGraphLaunch", error)) ||
      !wb_cuda_check (g->cu->cuEventRecord (g->end, st), "cuEventRecord", error))
    return FALSE;
  g->launched = TRUE;
  return TRUE;
}

gboolean
wb_cuda_graph_get_last_ns (WbCudaGraph *g, gint64 *ns, GError **error)
{
  float ms = 0;

  if (!g->launched)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "the CUDA graph was not launched yet");
      return FALSE;
    }
  if (!wb_cuda_check (g->cu->cuEventElapsedTime (&ms, g->start, g->end), "cuEventElapsedTime", error))
    return FALSE;
  *ns = (gint64) ((double) ms * 1e6 + 0.5);
  return TRUE;
}

WbCudaGraph *
wb_cuda_graph_capture (WbCudaRuntime *rt, WbCudaGraphBody body, gpointer data, GError **error)
{
  g_autoptr (GError) local = NULL;
  WbCudaGraph *g;

  if (!wb_cuda_runtime_synchronize (rt, error) || !wb_cuda_runtime_begin_capture (rt, error))
    return NULL;
  if (!body (data, &local))
    {
      const char *refusal = wb_cuda_runtime_get_capture_refusal (rt);

      wb_cuda_runtime_abort_capture (rt);
      if (refusal != NULL && !(local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_FAULT))
        g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE, "%s", refusal);
      else
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if ((g = wb_cuda_runtime_end_capture (rt, error)) == NULL)
    return NULL;
  /* the first replay would pay for moving the graph to the device: do it now, outside any timing (an
   * optimisation only: a failure shows again at the first launch) */
  g->cu->cuGraphUpload (g->exec, wb_cuda_runtime_get_stream (rt));
  return g;
}

/* -- comparing results -------------------------------------------------------------------------------- */

static gboolean
compare_tensors (WbCudaRuntime *rt, WbTensor *a, WbTensor *b, guint *n_differ, double *max_abs, GError **error)
{
  g_autoptr (WbTensor) ha = NULL;
  g_autoptr (WbTensor) hb = NULL;
  WbCompareResult r = { 0 };

  if (a->dtype != b->dtype || a->rank != b->rank || memcmp (a->shape, b->shape, sizeof (gint64) * a->rank) != 0)
    {
      g_autofree char *ta = wb_tensor_type_to_string (a);
      g_autofree char *tb = wb_tensor_type_to_string (b);
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "a %s result against a %s one", ta, tb);
      return FALSE;
    }
  if ((ha = wb_cuda_download (rt, a, error)) == NULL || (hb = wb_cuda_download (rt, b, error)) == NULL)
    return FALSE;
  if (memcmp (wb_tensor_get_data (ha), wb_tensor_get_data (hb), (size_t) wb_tensor_nbytes (ha)) == 0)
    return TRUE;
  (*n_differ)++;
  if (!wb_tensor_compare (ha, hb, 0, 0, FALSE, &r, error))
    return FALSE;
  *max_abs = MAX (*max_abs, r.max_abs);
  return TRUE;
}

static gboolean
compare_value (WbCudaRuntime *rt, WbRtValue *a, WbRtValue *b, guint *n_differ, double *max_abs, GError **error)
{
  if (a->kind != b->kind)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "a %s result against a %s one", wb_rt_value_kind_to_string (a->kind),
                   wb_rt_value_kind_to_string (b->kind));
      return FALSE;
    }
  if (a->kind == WB_RT_TENSOR)
    return compare_tensors (rt, a->tensor, b->tensor, n_differ, max_abs, error);
  if (wb_rt_value_is_sequence (a))
    {
      if (wb_rt_value_get_n_items (a) != wb_rt_value_get_n_items (b))
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%u results against %u", wb_rt_value_get_n_items (a),
                       wb_rt_value_get_n_items (b));
          return FALSE;
        }
      for (guint i = 0; i < wb_rt_value_get_n_items (a); i++)
        if (!compare_value (rt, wb_rt_value_get_item (a, i), wb_rt_value_get_item (b, i), n_differ, max_abs, error))
          return FALSE;
    }
  return TRUE;
}

gboolean
wb_cuda_values_compare (WbCudaRuntime *rt, GPtrArray *a, GPtrArray *b, guint *n_differ, double *max_abs, GError **error)
{
  double local_max = 0;
  guint  na = a ? a->len : 0, nb = b ? b->len : 0;

  *n_differ = 0;
  if (na != nb)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%u results against %u", na, nb);
      return FALSE;
    }
  for (guint i = 0; i < na; i++)
    if (!compare_value (rt, a->pdata[i], b->pdata[i], n_differ, &local_max, error))
      return FALSE;
  if (max_abs != NULL)
    *max_abs = local_max;
  return TRUE;
}
