/* wb-report-estimates.c — the reports' estimated time per op inside fusion regions (profiler/wb-op-estimate.h):
 * the JSON "estimated_lines", the Markdown section and the HTML stage's "est." times
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-report-private.h"

/* How the reports say what the estimates are. */
#define ESTIMATE_NOTE                                                                                                  \
  "Estimates, not measurements: a fusion region's measured time split over its ops by their roofline time, "           \
  "max(bytes / copy bandwidth, FLOPs / matmul rate); on the GPU first by the measured time of the kernels each group " \
  "of ops ran as (a region split at its matmuls), then within a kernel. In a fused kernel an intermediate kept in "    \
  "registers moves nothing, so its op gets its FLOPs' share only."

void
wb_report_set_op_estimates (WbReport  *report,
                            GPtrArray *estimates)
{
  g_return_if_fail (report != NULL);
  g_clear_pointer (&report->estimates, g_ptr_array_unref);
  if (estimates != NULL)
    report->estimates = g_ptr_array_ref (estimates);
}

const char *
_wb_report_estimate_note (void)
{
  return ESTIMATE_NOTE;
}

gint64
_wb_report_estimated_line_ns (const WbReport *report,
                              guint32         line)
{
  gint64   total = 0;
  gboolean any = FALSE;

  for (guint i = 0; report->estimates != NULL && i < report->estimates->len; i++)
    {
      const WbOpEstimate *e = report->estimates->pdata[i];

      if (e->line == line)
        total += e->estimated_ns, any = TRUE;
    }
  return any ? total : -1;
}

void
_wb_report_json_add_estimates (JsonBuilder    *b,
                               const WbReport *r)
{
  _wb_json_add_string (b, "estimated_lines_note", ESTIMATE_NOTE);
  json_builder_set_member_name (b, "estimated_lines");
  json_builder_begin_array (b);
  for (guint i = 0; r->estimates != NULL && i < r->estimates->len; i++)
    {
      const WbOpEstimate *e = r->estimates->pdata[i];

      json_builder_begin_object (b);
      _wb_json_add_int (b, "line", e->line);
      _wb_json_add_string (b, "region", e->region);
      _wb_json_add_int (b, "region_line", e->region_line);
      _wb_json_add_int (b, "index", e->index);
      _wb_json_add_string (b, "symbol", e->symbol);
      _wb_json_add_string (b, "output", e->output);
      _wb_json_add_ms (b, "estimated_ms", e->estimated_ns);
      _wb_json_add_double (b, "estimated_share_of_region", e->share);
      _wb_json_add_string (b, "estimate_basis", wb_op_estimate_basis_to_string (e->basis));
      _wb_json_add_int (b, "estimate_group", e->group);
      json_builder_set_member_name (b, "estimate_fused");
      json_builder_add_boolean_value (b, e->fused);
      _wb_json_add_int (b, "roofline_bytes", (gint64) e->bytes);
      _wb_json_add_int (b, "roofline_flops", (gint64) e->flops);
      _wb_json_add_double (b, "roofline_ms", e->roofline_ns / 1e6);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The Markdown section: per region, its costliest ops (at most @top each). */
void
_wb_report_markdown_append_estimates (GString        *s,
                                      const WbReport *r,
                                      guint           top)
{
  const char *region = NULL;

  if (r->estimates == NULL || r->estimates->len == 0)
    return;
  g_string_append (s, "## Estimated time per op inside regions (est.)\n\n" ESTIMATE_NOTE "\n\n");
  g_string_append (s, "| region | line | op | output | est. ms | est. share of region | basis |\n|---|---:|---|---|---:|---:|---|\n");
  for (guint i = 0; i < r->estimates->len;)
    {
      g_autoptr (GPtrArray) ops = g_ptr_array_new ();
      guint shown;

      region = ((const WbOpEstimate *) r->estimates->pdata[i])->region;
      for (; i < r->estimates->len && g_strcmp0 (((const WbOpEstimate *) r->estimates->pdata[i])->region, region) == 0; i++)
        g_ptr_array_add (ops, r->estimates->pdata[i]);
      g_ptr_array_sort (ops, wb_op_estimate_compare_costliest);
      shown = MIN (ops->len, top);
      for (guint k = 0; k < shown; k++)
        {
          const WbOpEstimate *e = ops->pdata[k];

          g_string_append_printf (s, "| %s | %u | %s | %s | %.3f | %.1f%% | %s |\n", e->region, e->line, e->symbol ? e->symbol : "?",
                                  e->output ? e->output : "-", _wb_report_ms (e->estimated_ns), 100.0 * e->share,
                                  wb_op_estimate_basis_to_string (e->basis));
        }
      if (ops->len > shown)
        g_string_append_printf (s, "| %s | | (%u more ops) | | | | |\n", region, ops->len - shown);
    }
  g_string_append_c (s, '\n');
}
