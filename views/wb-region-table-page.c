/* wb-region-table-page.c — WbRegionTable's region page: bound symbols, every executor's claim, what runs it
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-cuda.h"
#include "wb-region-table-private.h"

/* -- the page ------------------------------------------------------------------------------------- */

/* whether @b (a node of any stage: the claim pass's input, or a composite it flattened) ends up in @region */
static gboolean
in_region (WbRegionTable *self, const WbRegion *region, const WbBsym *b, guint depth)
{
  const WbRegion *r;

  if (b == NULL || depth > 8)
    return FALSE;
  for (guint k = 0; k < region->bsym->n_subsymbols; k++)
    if (region->bsym->subsymbols[k] == b)
      return TRUE;
  if ((r = wb_document_region_of (self->document, b)) != NULL)
    return r == region || g_strcmp0 (r->name, region->name) == 0;
  /* a composite the claim pass flattened: its parts are in the stages */
  for (guint i = 0; i < b->n_subsymbols; i++)
    if (in_region (self, region, b->subsymbols[i], depth + 1))
      return TRUE;
  return FALSE;
}

/* The claim remarks of the region's own bound symbols: what every executor said of each. */
static void
append_remarks (WbRegionTable *self, const WbRegion *region, GString *s)
{
  GPtrArray *remarks = wb_pipeline_get_remarks (wb_document_get_pipeline (self->document));
  guint      shown = 0, more = 0;

  g_string_append (s, _ ("\nClaim remarks of its bound symbols (the claim pass's input line)\n"));
  for (guint i = 0; i < remarks->len; i++)
    {
      const WbRemark *r = remarks->pdata[i];

      if (!in_region (self, region, r->bsym, 0))
        continue;
      if (shown >= 40)
        {
          more++;
          continue;
        }
      g_string_append_printf (s, "  %s %s %s (line %u): %s\n", r->accepted ? "✓" : "✗", r->executor, r->symbol, r->line, r->reason);
      shown++;
    }
  if (more > 0)
    g_string_append_printf (s, _ ("  … and %u more\n"), more);
  if (shown == 0)
    g_string_append (s, _ ("  none (its bound symbols were not claimed one by one)\n"));
}

static const WbType *
type_of (GHashTable *types, const WbValue *v)
{
  return v != NULL && v->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, v->text) : NULL;
}

static void
append_type (GString *s, const char *what, const WbType *t)
{
  g_autofree char *text = t ? wb_type_to_string (t) : NULL;

  g_string_append_printf (s, "    %-8s %s\n", what, text ? text : "?");
}

static gint64
dim (const WbType *t, int i)
{
  if (t == NULL || t->kind != WB_TYPE_TENSOR || t->rank == 0)
    return -1;
  if (i < 0)
    i += (int) t->rank;
  return i >= 0 && (guint) i < t->rank ? t->shape[i] : -1;
}

static const char *
cuda_type (const WbType *t)
{
  if (t == NULL || t->kind != WB_TYPE_TENSOR)
    return "?";
  switch (t->dtype)
    {
    case WB_DTYPE_FLOAT32:
      return "CUDA_R_32F";
    case WB_DTYPE_BFLOAT16:
      return "CUDA_R_16BF";
    case WB_DTYPE_FLOAT16:
      return "CUDA_R_16F";
    default:
      return "?";
    }
}

/* the trace of the last stage that holds the region's call */
static WbTrace *
region_trace (WbRegionTable *self, const WbRegion *region)
{
  const WbPipeline *pipeline = wb_document_get_pipeline (self->document);
  WbTrace          *found = NULL;

  for (guint i = 0; i < wb_pipeline_get_n_stages (pipeline); i++)
    {
      WbTrace *t = wb_stage_get_trace (wb_pipeline_get_stage (pipeline, i));

      if (wb_trace_get_bsym_line (t, region->bsym) != 0)
        found = t;
    }
  return found;
}

/* the registry's id of the executor @region is assigned to; WB_EXECUTOR_ID_NONE when unknown */
static WbExecutorId
executor_id (const WbRegion *region)
{
  const WbExecutorInfo *info = wb_executor_info_lookup (region->executor);

  return info ? wb_executor_info_get_id (info) : WB_EXECUTOR_ID_NONE;
}

/* The library call of an operator region (cublas, cudnn) and its parameters, from the bound symbol. */
static void
append_library_call (WbRegionTable *self, const WbRegion *region, GString *s)
{
  WbExecutorId id = executor_id (region);
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  WbTrace *trace = region_trace (self, region);

  if (trace != NULL)
    _wb_region_table_collect (types, trace->body, trace->n_body);
  _wb_region_table_collect (types, region->bsym->subsymbols, region->bsym->n_subsymbols);
  for (guint i = 0; i < region->bsym->n_subsymbols; i++)
    {
      const WbBsym *b = region->bsym->subsymbols[i];
      const char   *name = b->symbol ? wb_symbol_get_name (b->symbol) : b->name;
      const WbType *out = b->has_type ? &b->type : NULL;

      if (b->kind != WB_BSYM_CALL || wb_executor_info_is_utility (b))
        continue;
      if (id == WB_EXECUTOR_ID_CUBLAS && name != NULL && (strstr (name, "linear") || strstr (name, "matmul")))
        {
          gboolean      linear = strstr (name, "linear") != NULL;
          const WbType *a = b->n_args > 0 ? type_of (types, b->args[0]) : NULL;
          const WbType *w = b->n_args > 1 ? type_of (types, b->args[1]) : NULL;
          const WbType *bias = linear && b->n_args > 2 ? type_of (types, b->args[2]) : NULL;
          gint64        k = dim (a, -1), n = linear ? dim (w, 0) : dim (w, -1), m = 1;

          for (guint d = 0; a != NULL && a->kind == WB_TYPE_TENSOR && d + 1 < a->rank; d++)
            m *= a->shape[d];
          g_string_append_printf (s, _ ("  cublasLtMatmul for %s (row-major Y[M, N] = A[M, K]·B[K, N], run column-major as Yᵀ = Bᵀ·Aᵀ)\n"), b->name);
          append_type (s, "A", a);
          append_type (s, linear ? "W" : "B", w);
          if (bias != NULL)
            append_type (s, "bias", bias);
          append_type (s, "Y", out);
          g_string_append_printf (s, "    M = %" G_GINT64_FORMAT ", N = %" G_GINT64_FORMAT ", K = %" G_GINT64_FORMAT "\n", m, n, k);
          /* linear: B = Wᵀ, so cuBLASLt's first operand Bᵀ = W[N, K] row-major: op T; matmul: B[K, N] row-major: op N */
          g_string_append_printf (s, "    transa = %s, transb = CUBLAS_OP_N, lda = %" G_GINT64_FORMAT ", ldb = %" G_GINT64_FORMAT ", ldd = %" G_GINT64_FORMAT "\n",
                                  linear ? "CUBLAS_OP_T" : "CUBLAS_OP_N", linear ? k : n, k, n);
          g_string_append_printf (s, "    Atype = Btype = Dtype = %s, computeType = CUBLAS_COMPUTE_32F, epilogue = %s\n", cuda_type (a),
                                  bias ? "CUBLASLT_EPILOGUE_BIAS" : "CUBLASLT_EPILOGUE_DEFAULT");
        }
      else if (id == WB_EXECUTOR_ID_CUDNN)
        {
          g_string_append_printf (s, _ ("  cuDNN graph for %s: %s\n"), b->name,
                                  name && strstr (name, "conv") ? "convolution_fwd" : name && strstr (name, "attention") ? "sdpa_fwd / sdpa_bwd"
                                                                                                                         : name);
          for (guint k = 0; k < b->n_args; k++)
            {
              g_autofree char *what = g_strdup_printf ("arg %u", k);
              const WbType    *t = type_of (types, b->args[k]);

              if (t != NULL)
                append_type (s, what, t);
            }
          for (guint k = 0; k < b->n_kwargs; k++)
            {
              g_autoptr (GString) v = g_string_new (NULL);

              wb_value_append (b->kwargs[k].value, v);
              g_string_append_printf (s, "    %-8s %s\n", b->kwargs[k].name, v->str);
            }
          append_type (s, "out", out);
        }
      else
        {
          GString *line = g_string_new ("  ");

          wb_bsym_print (b, 0, line);
          g_string_append (s, line->str);
          g_string_free (line, TRUE);
        }
    }
}

/* The CUDA C of an nvrtc region (the code generation needs no GPU), shortened for the page. */
static void
append_cuda_source (WbRegionTable *self, const WbRegion *region, GString *s)
{
  WbTrace *trace = region_trace (self, region);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCudaPlan) plan = trace ? wb_cuda_plan_new_annotated (trace, region->bsym, WB_CUDA_CODEGEN_DEFAULT, &error) : NULL;
  g_autofree char *describe = NULL;
  g_auto (GStrv) lines = NULL;
  guint n;

  if (plan == NULL)
    {
      g_string_append_printf (s, _ ("  no CUDA C for this region: %s\n"), error ? error->message : _ ("its stage is not known"));
      return;
    }
  g_string_append_printf (s, _ ("  the generated CUDA C (%u kernel(s), %u ops; NVRTC compiles it at run time)\n"), plan->n_kernels, plan->n_ops);
  describe = wb_cuda_plan_describe (plan);
  g_string_append (s, describe);
  if (s->len > 0 && s->str[s->len - 1] != '\n')
    g_string_append_c (s, '\n');
  lines = g_strsplit (plan->source, "\n", -1);
  n = g_strv_length (lines);
  for (guint i = 0; i < n && i < 160; i++)
    g_string_append_printf (s, "%s\n", lines[i]);
  if (n > 160)
    g_string_append_printf (s, _ ("  … %u more lines (thunder-wb export PATH --region %s --as cuda)\n"), n - 160, region->name);
}

static void
append_runner (WbRegionTable *self, const WbRegion *region, GString *s)
{
  WbExecutorId id = executor_id (region);

  if (id == WB_EXECUTOR_ID_NVRTC)
    append_cuda_source (self, region, s);
  else if (id == WB_EXECUTOR_ID_CUBLAS || id == WB_EXECUTOR_ID_CUDNN)
    append_library_call (self, region, s);
  else if (id == WB_EXECUTOR_ID_CPU)
    g_string_append (s, _ ("  the cpu executor runs its bound symbols one by one (listed above)\n"));
  else
    g_string_append_printf (s, _ ("  %s runs its bound symbols one by one (listed above)\n"), region->executor);
}

/* The ops of @region (a call of @trace) with their estimated share of its time in the latest run, costliest
 * first (wb_document_get_op_estimate); nothing when the run did not time it. */
static void
append_estimates (WbRegionTable *self, WbTrace *trace, const WbBsym *region, GString *s)
{
  g_autoptr (GPtrArray) ops = g_ptr_array_new ();

  for (guint i = 0; trace != NULL && i < region->n_subsymbols; i++)
    {
      const WbOpEstimate *e = wb_document_get_op_estimate (self->document, trace, region->subsymbols[i]);

      if (e != NULL)
        g_ptr_array_add (ops, (gpointer) e);
    }
  if (ops->len == 0)
    return;
  g_ptr_array_sort (ops, wb_op_estimate_compare_costliest);
  g_string_append (s, _ ("\nIts ops, est. (estimated share of its measured time: split by each op's roofline time, on the GPU "
                         "first by the measured time of its kernels; not measured per op)\n"));
  for (guint k = 0; k < ops->len; k++)
    {
      const WbOpEstimate *e = ops->pdata[k];

      /* TRANSLATORS: one op of a region's page: estimated share, estimated ms, line, symbol, output */
      g_string_append_printf (s, _ ("  est. %5.1f%%  %8.3f ms  line %u  %s %s\n"), 100.0 * e->share, e->estimated_ns / 1e6,
                              wb_trace_get_bsym_line (trace, e->bsym), e->symbol ? e->symbol : "?", e->output ? e->output : "");
    }
}

char *
wb_region_table_get_page_text (WbRegionTable *self)
{
  return g_strdup (gtk_label_get_text (self->page));
}

/* The page of a region of a run of another stage: its figures, and its call in that stage when the
 * document has the trace. */
static void
update_run_page (WbRegionTable *self, const WbRun *run, const char *name)
{
  const WbRegionStats *stats = name ? wb_run_find_region (run, name) : NULL;
  const WbBsym        *call;
  g_autoptr (GString) s = g_string_new (NULL);
  WbTrace *trace = NULL;

  if (stats == NULL)
    {
      gtk_label_set_text (self->page, _ ("Select a region to see its figures in the run and its call in the stage it ran."));
      return;
    }
  /* TRANSLATORS: region page of a run of another stage: region, executor, stage label, line */
  g_string_append_printf (s, _ ("Region %s · %s · stage %s, line %u\n\n"), stats->name, stats->executor ? stats->executor : "?",
                          run->stage ? run->stage : "?", stats->stage_line);
  g_string_append_printf (s, _ ("In the latest run: %.3f ms median (%.3f–%.3f), %.1f%% of the iteration, %u kernel(s) per iteration\n"),
                          stats->median_ns / 1e6, stats->min_ns / 1e6, stats->max_ns / 1e6, 100.0 * stats->share, stats->kernel_count);
  g_string_append (s, _ ("These are the regions of the stage the run timed, not the workbench's plan: choose executors in a run of the workbench's stage.\n"));
  if ((call = wb_document_find_run_call (self->document, run, stats->name, &trace)) != NULL)
    {
      g_string_append (s, _ ("\nIts call in the stage\n"));
      g_string_append (s, "  ");
      wb_bsym_print (call, 0, s);
      append_estimates (self, trace, call, s);
    }
  else
    g_string_append (s, _ ("\nThe stage it ran is not among the loaded traces.\n"));
  gtk_label_set_text (self->page, s->str);
}

void
_wb_region_table_update_page (WbRegionTable *self)
{
  const char     *name = wb_document_get_region (self->document);
  const WbRegion *region = wb_document_lookup_region (self->document, name);
  g_autoptr (GString) s = g_string_new (NULL);
  const WbRegionStats *stats;

  /* a region of the run's own stage; a region of the plan (picked in the graph) keeps its page */
  if (_wb_region_table_own_run (self) != NULL && (region == NULL || (name != NULL && wb_run_find_region (_wb_region_table_own_run (self), name) != NULL)))
    {
      update_run_page (self, _wb_region_table_own_run (self), name);
      return;
    }
  if (region == NULL)
    {
      gtk_label_set_text (self->page, _ ("Select a region to see its bound symbols, every executor's claim and what runs it."));
      return;
    }
  g_string_append_printf (s, _ ("Region %s · %s · %s · %u ops\n\n"), region->name, region->executor,
                          wb_stage_list_to_string (region->list), region->n_ops);
  g_string_append (s, _ ("Bound symbols\n"));
  for (guint i = 0; i < region->bsym->n_subsymbols; i++)
    {
      GString *line = g_string_new ("  ");

      wb_bsym_print (region->bsym->subsymbols[i], 0, line);
      g_string_append (s, line->str);
      g_string_free (line, TRUE);
    }
  g_string_append (s, _ ("\nWhat each executor says\n"));
  for (const char *const *c = wb_region_table_get_choices (); *c != NULL; c++)
    {
      g_autofree char *why = NULL;

      if (strcmp (*c, WB_REGION_TABLE_UNFUSE) == 0)
        continue;
      if (_wb_region_table_can_take (self, region, *c, &why))
        g_string_append_printf (s, "  ✓ %s: %s\n", *c, strcmp (*c, region->executor) == 0 ? _ ("claimed") : _ ("can take it"));
      else
        g_string_append_printf (s, "  ✗ %s\n", why ? why : *c);
    }
  append_remarks (self, region, s);
  g_string_append (s, _ ("\nWhat runs it\n"));
  append_runner (self, region, s);
  if ((stats = _wb_region_table_stats_of (self, region->name, FALSE)) != NULL)
    {
      g_string_append_printf (s, _ ("  %s ran it in the latest run: %.3f ms median, %u kernel(s) per iteration\n"),
                              stats->executor, stats->median_ns / 1e6, stats->kernel_count);
      append_estimates (self, region_trace (self, region), region->bsym, s);
    }
  else
    g_string_append (s, _ ("  no run yet\n"));
  gtk_label_set_text (self->page, s->str);
}
