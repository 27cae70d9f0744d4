/* wb-runner-graphs.c — the GPU runner's CUDA-graphs phase: capture, replay, the note (wb-runner-main-private.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-runner-main-private.h"

/* How @run's outputs and gradients compare, bit for bit, with the checked run's (one stream, every kernel
 * synchronised): a phrase for a note about @subject ("the last replay"), @checked_how saying what the checked run
 * was, or NULL. A graph's replays and the runs on the second stream are so checked. */
char *
_wb_runner_same_as_checked (WbCudaRuntime *rt, WbRunResult *run, WbRunResult *checked, const char *subject, const char *checked_how)
{
  g_autoptr (GError) local = NULL;
  g_autofree char     *paren = checked_how ? g_strdup_printf (" (%s)", checked_how) : g_strdup ("");
  g_autofree char     *lead = checked_how ? g_strdup_printf ("%s; ", checked_how) : g_strdup ("");
  guint                n_out = 0, n_grad = 0;
  double               d_out = 0, d_grad = 0;
  WbCudaAttentionStats as;

  if (!wb_cuda_values_compare (rt, run->outputs, checked->outputs, &n_out, &d_out, &local) ||
      !wb_cuda_values_compare (rt, run->grads, checked->grads, &n_grad, &d_grad, &local))
    return g_strdup_printf ("%s's results could not be compared with the checked run's: %s", subject, local->message);
  if (n_out + n_grad == 0)
    return g_strdup_printf ("%s's outputs and gradients are bit-identical to the checked run's%s", subject, paren);
  wb_cuda_attention_get_stats (&as);
  return g_strdup_printf ("%u outputs and %u gradients of %s differ from the checked run's (%smax |diff| %.3g)%s", n_out, n_grad, subject, lead,
                          MAX (d_out, d_grad),
                          n_grad > 0 && as.atomic_dq + as.cudnn > 0 ? " (the attention backward sums dQ with atomic adds, in an order that varies; "
                                                                      "WB_CUDA_ATTN=deterministic gives the same bits every run)"
                                                                    : "");
}

static gboolean
graphs_body (gpointer data, GError **error)
{
  Graphs *g = data;

  g->r->call = NULL;
  g_clear_pointer (&g->result, wb_run_result_free); /* a launch list runs the body twice */
  /* a launch list's passes run for real: each on the inputs every run sees (a capture runs nothing) */
  if (g->list && !_wb_runner_restore_inputs (g->rt, g->written, error))
    return FALSE;
  if (g->r->prof)
    wb_runner_prof_begin_iteration (g->r->prof);
  g->result = wb_program_run (g->program, g->options, g->args, g->cots, error);
  /* a collective never waited on joins the run's stream here, as after every run (a capture must end joined) */
  if (g->result != NULL && !wb_cuda_nccl_join_all (g->rt, error))
    g_clear_pointer (&g->result, wb_run_result_free);
  if (g->result != NULL && g->r->prof)
    g->r->prof->ev_iter_end = wb_runner_prof_record (g->r->prof);
  return g->result != NULL;
}

static void
graphs_forget_iteration (WbRunnerProf *p)
{
  if (p == NULL)
    return;
  if (p->entry >= 0 && p->cupti)
    wb_cupti_pop (p->cupti, NULL);
  p->entry = -1;
  p->on = FALSE;
  p->failed = FALSE;
  g_clear_pointer (&p->fail_msg, g_free);
  g_array_set_size (p->iter_start, p->iter_ns->len);
  if (p->cupti && wb_cupti_flush (p->cupti, NULL))
    wb_cupti_collect (p->cupti, NULL, NULL); /* the untimed replay's records */
}

/* Captures and replays once. FALSE only for a fault (the context is lost); otherwise g->graph or g->note. */
gboolean
_wb_runner_graphs_capture (Graphs *g, WbCudaRuntime *rt, guint iters, GError **error)
{
  g_autoptr (GError) local = NULL;
  WbRunnerProf *p = g->r->prof;

  g->rt = rt;
  g->graph = g->list ? wb_cuda_graph_record_list (rt, graphs_body, g, &local) : wb_cuda_graph_capture (rt, graphs_body, g, &local);
  if (p != NULL)
    {
      p->on = FALSE;
      g_array_set_size (p->iter_start, p->iter_ns->len);
    }
  /* the untimed first replay, on the inputs every run sees (the program may write into them: T5's position buckets) */
  if (g->graph != NULL && (!_wb_runner_restore_inputs (rt, g->written, &local) || !wb_cuda_graph_launch (g->graph, &local) ||
                           !wb_cuda_runtime_synchronize (rt, &local)))
    {
      g_clear_pointer (&g->result, wb_run_result_free);
      g_clear_pointer (&g->graph, wb_cuda_graph_free);
      g_prefix_error (&local, "replaying it: ");
    }
  if (g->graph == NULL)
    {
      if (local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_FAULT)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      graphs_forget_iteration (p);
      g_clear_pointer (&g->result, wb_run_result_free);
      if (local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_CAPTURE)
        g->note = g_strdup_printf ("cannot %s: %s %s; the %u timed iterations ran %s", g->list ? "record a launch list" : "capture a CUDA graph",
                                   g->r->call ? g->r->call : "the program", local->message, iters,
                                   g->list ? "call by call through the interpreter" : "without one");
      else
        g->note = g_strdup_printf ("cannot %s: %s; the %u timed iterations ran %s", g->list ? "record a launch list" : "capture a CUDA graph", local->message,
                                   iters, g->list ? "call by call through the interpreter" : "without one");
      g_printerr ("thunder-wb-runner: %s\n", g->note);
      return TRUE;
    }
  if (p != NULL)
    {
      wb_runner_prof_elapsed_ns (p, p->ev_iter_start, p->ev_iter_end);
      g->regions = !p->failed;
      graphs_forget_iteration (p);
    }
  return TRUE;
}

/* One timed replay (or a plain or traced one): like an iteration of the program, its events read after the
 * synchronisation (wb_runner_prof_end_iteration files them by phase). */
gboolean
_wb_runner_graphs_replay (Graphs *g, WbCudaRuntime *rt, GError **error)
{
  WbRunnerProf *p = g->r->prof;
  gint64        ns = 0;

  if (p != NULL)
    {
      wb_runner_prof_note_start (p);
      p->it = p->tracing ? p->n_traced : p->iter_ns->len;
      p->iter_host_ns = p->iter_begin_host_ns = wb_cupti_now_ns ();
    }
  if (!wb_cuda_graph_launch (g->graph, error) || !wb_cuda_runtime_synchronize (rt, error))
    return FALSE;
  if (p == NULL)
    return TRUE;
  if (g->regions)
    {
      float ms = 0;
      /* CUPTI's records are placed by the host time of the iteration's start event: here the graph's first
       * node, which runs the launch latency after the (idle) stream reached the launch */
      if (p->cu->cuEventElapsedTime (&ms, wb_cuda_graph_get_start_event (g->graph), g_array_index (p->events, CUevent, p->ev_iter_start)) == CUDA_SUCCESS)
        p->iter_host_ns += (gint64) ((double) ms * 1e6);
      wb_runner_prof_end_iteration (p);
      if (p->failed)
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "profiling a CUDA graph replay: %s", p->fail_msg ? p->fail_msg : "a CUDA event call failed");
          return FALSE;
        }
      return TRUE;
    }
  if (!wb_cuda_graph_get_last_ns (g->graph, &ns, error))
    return FALSE;
  if (p->plain)
    {
      g_array_append_val (p->unprofiled_iter_ns, ns);
      return TRUE;
    }
  if (p->tracing)
    {
      g_array_append_val (p->traced_iter_ns, ns);
      p->n_traced++;
      return TRUE;
    }
  g_array_append_val (p->iter_ns, ns);
  g_array_set_size (p->entry_ns, (gsize) p->iter_ns->len * wb_profile_get_n_entries (p->profile));
  return TRUE;
}

/* After the plain phase (profiling): its graph, captured without the entries' events, is freed; the timed
 * iterations capture the program again with them. */
void
_wb_runner_graphs_drop_plain (Graphs *g)
{
  if (g->graph == NULL)
    return;
  g->plain_nodes = wb_cuda_graph_get_n_nodes (g->graph);
  g_clear_pointer (&g->result, wb_run_result_free);
  g_clear_pointer (&g->graph, wb_cuda_graph_free);
}

/* After the last replay: its results against the checked run's, the note; frees the graph. */
void
_wb_runner_graphs_finish (Graphs *g, WbCudaRuntime *rt, WbRunResult *checked, guint iters)
{
  g_autofree char *same = NULL;
  g_autofree char *plain = NULL;

  if (g->graph == NULL)
    return;
  plain = g->plain_nodes > 0 ? g_strdup_printf (" (before them, for the unprofiled times, as a graph of %u nodes without the profiler's "
                                                "events around each region)",
                                                g->plain_nodes)
                             : g_strdup ("");
  same = _wb_runner_same_as_checked (rt, g->result, checked, "the last replay", NULL);
  if (wb_cuda_graph_is_list (g->graph))
    {
      g_autofree char *desc = wb_cuda_graph_describe_list (g->graph);
      g->note = g_strdup_printf ("launch list (no CUDA graph): %s recorded once as a flat list of %s and replayed for the %u timed iterations, "
                                 "without the interpreter; %s; %s",
                                 checked->grads != NULL && checked->grads->len > 0 ? "forward and backward were" : "the program was", desc, iters, same,
                                 g->r->prof == NULL ? "timed as a whole"
                                 : g->regions       ? "region times come from the CUDA events the list records around each region"
                                                    : "the events recorded in the list gave no times, so only whole iterations are timed");
      g->used = TRUE;
      g_clear_pointer (&g->result, wb_run_result_free);
      g_clear_pointer (&g->graph, wb_cuda_graph_free);
      return;
    }
  g->note = g_strdup_printf ("CUDA graphs: %s captured once as a graph of %u nodes and replayed for the %u timed iterations%s; %s; %s",
                             checked->grads != NULL && checked->grads->len > 0 ? "forward and backward were" : "the program was",
                             wb_cuda_graph_get_n_nodes (g->graph), iters, plain, same,
                             g->r->prof == NULL ? "timed as a whole"
                             : g->regions       ? "region times come from CUDA events recorded by the graph's event-record nodes"
                                                : "the events recorded inside the graph gave no times, so only whole iterations are timed "
                                                  "(events around each launch) and the regions show no time");
  g->used = TRUE;
  /* the last replay's memory, then the graph */
  g_clear_pointer (&g->result, wb_run_result_free);
  g_clear_pointer (&g->graph, wb_cuda_graph_free);
}

/* The unprofiled timed runs' GPU time: a pair of events, created on first use. */
