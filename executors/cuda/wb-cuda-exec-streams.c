/* wb-cuda-exec-streams.c — which calls run on the runtime's second stream, and the joins before calls
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A top-level cuBLASLt call (prims.matmul, prims.linear, their ltorch forms) whose outputs the next
 * WB_CUDA_SIDE_GAP calls of its trace do not read (or only the return reads, after one call at least) goes to
 * the side stream (wb-cuda-runtime.h, "Two
 * streams"): a backward's weight gradients, which only the return or a much later call reads, then overlap
 * the chain of input gradients that follows them. Only cuBLASLt calls: they share nothing between calls but
 * their workspace (one per stream), where an nvrtc plan's counters and lookup tables are the plan's, and one
 * plan serves every call site of the same region. A call is placed from the second run of a program on: the
 * checked run (synchronised after every kernel) learns which calls take cuBLASLt. The placement happens in
 * wb_cuda_executors_call_starting, before the profiler records the call's entry event, so that both of the
 * entry's events are on the stream the call runs on. */
#include "config.h"

#include "wb-cuda-exec-private.h"

/* calls of the trace between a side call and the first reader of its outputs, at least */
#define WB_CUDA_SIDE_GAP 2

static GHashTable   *late_by_trace; /* WbTrace* -> (set of WbBsym*) its late calls, for the current program only */
static GHashTable   *cublas_calls;  /* set of WbBsym*: calls the checked run ran through cuBLASLt */
static const WbBsym *side_call;     /* the call placed on the side stream now, or NULL */

static gboolean
is_call (const WbBsym *b)
{
  return b->kind == WB_BSYM_CALL;
}

static GHashTable *
compute_late (const WbTrace *trace)
{
  GHashTable *late = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      g_autoptr (GPtrArray) outs = NULL;
      guint    between = 0;
      gboolean read = FALSE;

      if (!is_call (b))
        continue;
      outs = g_ptr_array_new ();
      wb_bsym_get_output_names (b, outs);
      if (outs->len == 0)
        continue;
      for (guint j = i + 1; j < trace->n_body && !read && between < WB_CUDA_SIDE_GAP; j++)
        {
          const WbBsym *c = trace->body[j];
          g_autoptr (GHashTable) uses = NULL;
          if (c->kind == WB_BSYM_DEL)
            continue;
          uses = g_hash_table_new (g_str_hash, g_str_equal);
          _wb_bsym_collect_uses (c, uses);
          for (guint k = 0; k < outs->len && !read; k++)
            read = g_hash_table_contains (uses, outs->pdata[k]);
          /* read by the return only: late once one call can run beside it (the last weight gradient) */
          if (read && c->kind == WB_BSYM_RETURN && between > 0)
            between = WB_CUDA_SIDE_GAP, read = FALSE;
          if (!read && is_call (c))
            between++;
        }
      if (!read)
        g_hash_table_add (late, (gpointer) b);
    }
  return late;
}

static GHashTable *
late_of (const WbTrace *trace)
{
  GHashTable *late;

  if (late_by_trace == NULL)
    late_by_trace = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  late = g_hash_table_lookup (late_by_trace, trace);
  if (late == NULL)
    g_hash_table_insert (late_by_trace, (gpointer) trace, (late = compute_late (trace)));
  return late;
}

GPtrArray *
wb_cuda_executors_late_calls (const WbTrace *trace)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < trace->n_body; i++)
    if (g_hash_table_contains (late_of (trace), trace->body[i]))
      g_ptr_array_add (out, trace->body[i]);
  return out;
}

void
_wb_cuda_exec_streams_forget (void)
{
  g_clear_pointer (&late_by_trace, g_hash_table_unref);
  g_clear_pointer (&cublas_calls, g_hash_table_unref);
}

void
_wb_cuda_exec_note_cublas_call (const WbBsym *b)
{
  if (cublas_calls == NULL)
    cublas_calls = g_hash_table_new (NULL, NULL);
  g_hash_table_add (cublas_calls, (gpointer) b);
}

/* @b ran through cuBLASLt in the checked run, itself or as the one subsymbol of a chain (ltorch.matmul's
 * prims.matmul, when the interpreter decomposed it) */
static gboolean
ran_cublas (const WbBsym *b)
{
  for (; b != NULL; b = b->n_subsymbols == 1 ? b->subsymbols[0] : NULL)
    if (g_hash_table_contains (cublas_calls, b))
      return TRUE;
  return FALSE;
}

gboolean
wb_cuda_executors_call_starting (const WbTrace *trace, const WbBsym *b, GError **error)
{
  WbCudaRuntime *rt = wb_cuda_runtime_get (NULL);

  if (rt == NULL || side_call != NULL || b->depth != 0 || wb_cuda_runtime_get_streams (rt) < 2 || wb_cuda_runtime_get_sync (rt) ||
      cublas_calls == NULL || !ran_cublas (b) || !g_hash_table_contains (late_of (trace), b))
    return TRUE;
  if (!wb_cuda_runtime_begin_side (rt, error))
    return FALSE;
  side_call = b;
  return TRUE;
}

static void
collect_tensors (const WbRtValue *v, GPtrArray *out)
{
  if (v == NULL)
    return;
  if (v->kind == WB_RT_TENSOR)
    g_ptr_array_add (out, v->tensor);
  else if (v->items != NULL)
    for (guint i = 0; i < v->items->len; i++)
      collect_tensors (v->items->pdata[i], out);
}

void
wb_cuda_executors_call_finished (const WbBsym *b, WbRtValue *const *args, guint n_args, WbRtValue *result)
{
  WbCudaRuntime *rt;
  g_autoptr (GPtrArray) touched = NULL;

  if (side_call == NULL || (b != NULL && b != side_call) || (rt = wb_cuda_runtime_get (NULL)) == NULL || !wb_cuda_runtime_in_side (rt))
    return;
  touched = g_ptr_array_new ();
  for (guint i = 0; i < n_args; i++)
    collect_tensors (args[i], touched);
  collect_tensors (result, touched);
  wb_cuda_runtime_end_side (rt, (WbTensor *const *) touched->pdata, touched->len);
  side_call = NULL;
}

gboolean
_wb_cuda_exec_join_for_call (WbCudaRuntime *rt, const WbKernelCall *call, GError **error)
{
  g_autoptr (GPtrArray) read = NULL;

  /* every call asks: nothing to look at unless side work is pending. The side call itself: its fork
   * ordered it after the run's stream */
  if (!wb_cuda_runtime_side_pending (rt) || wb_cuda_runtime_in_side (rt))
    return TRUE;
  read = g_ptr_array_new ();
  for (guint i = 0; i < call->n_args; i++)
    collect_tensors (call->args[i], read);
  for (guint i = 0; i < call->n_kwargs; i++)
    collect_tensors (call->kwargs[i], read);
  for (guint i = 0; i < read->len; i++)
    if (!wb_cuda_runtime_join_for (rt, read->pdata[i], error))
      return FALSE;
  return TRUE;
}
