/* bench-graph.c — the graph view's layouts on a real case: first picture and expand, per stage
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson compile -C build-gui bench-graph && build-gui/tests/bench/bench-graph [PATH] [--top N] [--full] [--by-top]
 *
 * Loads PATH (default: the zoo's llama_32layer, unpacked in the build tree) as the window does (the case's
 * entries plus the workbench's stages when the pipeline finds its input), takes the N stages (default 8)
 * with the most nodes drawn when every region is expanded (--by-top: at the top level), and lays each out as WbGraphView does,
 * on this thread and without a display: the first picture (the default expansion, nothing cached), then
 * expanding the region with the largest body (its body laid out once and cached, the top level again),
 * and with --full everything expanded at once (what the view did before regions were collapsed by
 * default). Prints a table and the peak RSS. Timings are not tests: nothing is asserted. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "wb-graph-view-private.h"

typedef struct
{
  guint    entry;
  guint    all_nodes, top_nodes, key;
  WbTrace *trace;
} Row;

static int
by_key (gconstpointer a, gconstpointer b)
{
  const Row *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? 1 : -1;
  return (x->entry > y->entry) - (x->entry < y->entry);
}

static WbTraceSet *
load (const char *path, GError **error)
{
  g_autoptr (WbTraceSet) base = wb_trace_set_load (path, error);
  const WbTraceEntry *input;
  WbPipelineOptions   options = { NULL, WB_FUSION_DATAFLOW, NULL };
  WbPipeline         *pipeline;

  if (base == NULL)
    return NULL;
  input = wb_pipeline_find_input (base);
  if (input == NULL || (pipeline = wb_pipeline_run (input->trace, &options, NULL)) == NULL)
    return g_steal_pointer (&base);
  wb_pipeline_append_stages (pipeline, base);
  wb_pipeline_free (pipeline);
  return g_steal_pointer (&base);
}

/* a job as the view starts one: @expand's regions, @cache's bodies */
static Job *
job_new (WbTrace *trace, GPtrArray *chunks, GHashTable *expand, GHashTable *cache)
{
  Job           *job = g_new0 (Job, 1);
  GHashTableIter it;
  gpointer       key;

  job->trace = wb_trace_ref (trace);
  job->expand = g_ptr_array_new ();
  job->inner = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) _wb_graph_layout_unref);
  job->computed = g_ptr_array_new ();
  job->cw = 7;
  job->lh = 13;
  job->chunks = chunks ? g_ptr_array_ref (chunks) : NULL;
  g_hash_table_iter_init (&it, expand);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      Layout *cached = cache ? g_hash_table_lookup (cache, key) : NULL;

      g_ptr_array_add (job->expand, key);
      if (cached != NULL)
        g_hash_table_insert (job->inner, key, _wb_graph_layout_ref (cached));
    }
  return job;
}

static guint
shown_nodes (Layout *l)
{
  guint n = 0;

  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode *node = &g_array_index (l->nodes, VNode, i);

      n += node->inner ? shown_nodes (node->inner) : 1;
    }
  return n;
}

/* what to expand: the region with the largest body, else the largest chunk; its size in *@size */
static gpointer
largest_group (WbTrace *trace, GPtrArray *chunks, guint *size)
{
  gpointer best = NULL;

  *size = 0;
  for (guint i = 0; i < trace->n_body; i++)
    if (_wb_graph_is_group (trace->body[i]) && _wb_graph_group_size (trace->body[i]) > *size)
      best = trace->body[i], *size = _wb_graph_group_size (trace->body[i]);
  for (guint i = 0; best == NULL && chunks != NULL && i < chunks->len; i++)
    if (((WbGraphChunk *) chunks->pdata[i])->n_drawn > *size)
      best = chunks->pdata[i], *size = ((WbGraphChunk *) chunks->pdata[i])->n_drawn;
  return best;
}

static long
peak_rss_kb (void)
{
  g_autofree char *status = NULL;
  const char      *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (p = strstr (status, "VmHWM:")) == NULL)
    return -1;
  return strtol (p + 6, NULL, 10);
}

static void
bench_row (const WbTraceSet *set, Row *row, gboolean full)
{
  const WbTraceEntry *e = wb_trace_set_get_entry (set, row->entry);
  g_autoptr (GHashTable) expand = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) cache = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) _wb_graph_layout_unref);
  Job     *first, *more;
  gpointer region;
  guint    size;
  g_autoptr (GPtrArray) chunks = _wb_graph_chunks_new (row->trace);
  char             expand_text[64] = "-", full_text[64] = "-";
  g_autofree char *subset = g_strdup (e->subset && e->subset[0] ? e->subset : "");
  g_autofree char *name = NULL;

  if (g_str_has_prefix (subset, "thunderfx_g0_GraphModule"))
    {
      char *shorter = g_strconcat ("GM", subset + strlen ("thunderfx_g0_GraphModule"), NULL);

      g_free (subset);
      subset = shorter;
    }
  name = g_strdup_printf ("%s%s%s_%02d", subset, subset[0] ? "/" : "", wb_trace_kind_to_string (e->kind), e->index);

  _wb_graph_default_expanded (row->trace, expand);
  first = job_new (row->trace, chunks, expand, NULL);
  _wb_graph_job_run (first, NULL);
  for (guint i = 0; i < first->computed->len; i++)
    g_hash_table_insert (cache, first->computed->pdata[i], _wb_graph_layout_ref (g_hash_table_lookup (first->inner, first->computed->pdata[i])));
  region = largest_group (row->trace, chunks, &size);
  if (region != NULL && !g_hash_table_contains (expand, region))
    {
      WbGraphChunk *chunk = _wb_graph_is_chunk (chunks, region) ? NULL : _wb_graph_chunk_of (chunks, row->trace, region);

      /* a region inside a chunk is drawn once its chunk is expanded */
      if (chunk != NULL)
        g_hash_table_add (expand, chunk);
      g_hash_table_add (expand, (gpointer) region);
      more = job_new (row->trace, chunks, expand, cache);
      _wb_graph_job_run (more, NULL);
      g_snprintf (expand_text, sizeof expand_text, "%u%s: %.0f", size, _wb_graph_is_chunk (chunks, region) ? " (chunk)" : "", more->ms);
      _wb_graph_job_free (more);
    }
  if (full)
    {
      g_autoptr (GHashTable) all = g_hash_table_new (NULL, NULL);
      Job *job;

      for (guint i = 0; i < row->trace->n_body; i++)
        if (_wb_graph_is_group (row->trace->body[i]))
          g_hash_table_add (all, row->trace->body[i]);
      for (guint i = 0; chunks != NULL && i < chunks->len; i++)
        g_hash_table_add (all, chunks->pdata[i]);
      job = job_new (row->trace, chunks, all, NULL);
      _wb_graph_job_run (job, NULL);
      g_snprintf (full_text, sizeof full_text, "%u: %.0f", shown_nodes (job->top), job->ms);
      _wb_graph_job_free (job);
    }
  printf ("%5u  %-24.24s %6u %6u %6u %6u %10.0f  %-22s %s\n", row->entry, name, row->top_nodes, row->all_nodes,
          chunks ? chunks->len : 0, shown_nodes (first->top), first->ms, expand_text, full_text);
  fflush (stdout);
  _wb_graph_job_free (first);
}

int
main (int argc, char **argv)
{
  g_autofree char *path = NULL;
  int              top = 8;
  gboolean         full = FALSE, by_top = FALSE;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (Row));
  gint64 t0;

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--top") && i + 1 < argc)
      top = atoi (argv[++i]);
    else if (g_str_equal (argv[i], "--full"))
      full = TRUE;
    else if (g_str_equal (argv[i], "--by-top"))
      by_top = TRUE;
    else
      path = g_strdup (argv[i]);
  if (path == NULL)
    path = g_strdup (WB_BENCH_ZOO "/llama_32layer");
  t0 = g_get_monotonic_time ();
  if ((set = load (path, &error)) == NULL)
    {
      fprintf (stderr, "bench-graph: %s\n", error->message);
      return 1;
    }
  printf ("%s: %u entries, loaded (with the workbench's stages) in %.0f ms\n", path, wb_trace_set_get_n_entries (set),
          (g_get_monotonic_time () - t0) / 1e3);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      Row r = { .entry = i, .trace = wb_trace_set_get_entry (set, i)->trace };

      if (r.trace == NULL)
        continue;
      r.all_nodes = _wb_graph_count_bsyms (r.trace) + r.trace->n_params;
      for (guint k = 0; k < r.trace->n_body; k++)
        r.top_nodes += _wb_graph_is_group (r.trace->body[k]) || r.trace->body[k]->kind == WB_BSYM_CALL || r.trace->body[k]->kind == WB_BSYM_ASSIGN || r.trace->body[k]->kind == WB_BSYM_UNPACK || r.trace->body[k]->kind == WB_BSYM_RETURN;
      r.top_nodes += r.trace->n_params;
      r.key = by_top ? r.top_nodes : r.all_nodes;
      g_array_append_val (rows, r);
    }
  g_array_sort (rows, by_key);
  printf ("%5s  %-24s %6s %6s %6s %6s %10s  %-22s %s\n", "entry", "stage", "top", "all", "chunks", "shown", "first ms",
          "expand largest ms", full ? "all expanded: nodes, ms" : "");
  for (guint i = 0; i < rows->len && (int) i < top; i++)
    bench_row (set, &g_array_index (rows, Row, i), full);
  printf ("peak RSS %.0f MB\n", peak_rss_kb () / 1024.0);
  return 0;
}
