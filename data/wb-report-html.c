/* wb-report-html.c — the profile report as one self-contained HTML file: summary, region table, a timeline
 * and a bar chart as inline SVG, top kernels, and the stage text with per-line time
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No scripts, no external resources: the file renders the same offline, in a mail client or in CI artifacts. */
#include "config.h"

#include <string.h>

#include "wb-report-private.h"

#define BAR_MAX_REGIONS 40
#define CHART_WIDTH 960

static void
append_escaped (GString *s, const char *text)
{
  /* control characters and bytes that are not UTF-8 as \xNN first: markup escaping needs UTF-8 */
  g_autofree char *safe = wb_output_escape_text (text ? text : "", -1, WB_ESCAPE_KEEP_LAYOUT);
  g_autofree char *e = g_markup_escape_text (safe, -1);

  g_string_append (s, e);
}

/* A stable colour per name. */
static void
append_color (GString *s, const char *name)
{
  /* names differ in their last digit (TorchCompile0, TorchCompile1): spread neighbouring hashes apart */
  guint hue = (g_str_hash (name ? name : "") % 360) * 137 % 360;

  g_string_append_printf (s, "hsl(%u,55%%,55%%)", hue);
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}"
    "h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f5f5f5}"
    ".summary td:first-child{color:#666}.note{color:#555;font-size:13px}.fail{color:#b00;font-weight:bold}"
    ".ok{color:#080}svg text{font:11px system-ui,sans-serif;fill:#333}"
    "pre.stage{font:12px/1.35 ui-monospace,monospace;background:#fafafa;border:1px solid #eee;padding:8px;overflow:auto}"
    "pre.stage span.l{display:block;white-space:pre}pre.stage span.ln{color:#999;display:inline-block;width:4em;text-align:right;margin-right:8px}"
    "pre.stage span.t{display:inline-block;width:9em;text-align:right;margin-right:12px;color:#a40}"
    "pre.stage span.est{color:#777;font-style:italic}";

static void
append_summary (GString *s, const WbReport *r)
{
  const WbRun     *run = r->run;
  g_autofree char *figures = _wb_report_figures_line (r);

  g_string_append (s, "<h1>thunder-wb profile: ");
  append_escaped (s, r->title ? r->title : (run->stage ? run->stage : "run"));
  g_string_append (s, "</h1>\n");
  for (guint i = 0; i < r->warnings->len; i++)
    {
      g_string_append (s, "<p class=\"fail\">Warning: ");
      append_escaped (s, r->warnings->pdata[i]);
      g_string_append (s, "</p>\n");
    }
  g_string_append (s, "<table class=\"summary\">\n");
#define ROW(label, value)                                \
  do                                                     \
    {                                                    \
      g_string_append (s, "<tr><td>" label "</td><td>"); \
      append_escaped (s, value);                         \
      g_string_append (s, "</td></tr>\n");               \
    }                                                    \
  while (0)
  ROW ("stage", run->stage ? run->stage : "-");
  {
    g_autofree char *device = g_strdup_printf ("%s — %s", run->device_name ? run->device_name : "?",
                                               run->device_model ? run->device_model : "?");
    ROW ("device", device);
  }
  ROW ("executors", run->executors ? run->executors : g_strcmp0 (run->device_name, "cpu") == 0 ? "default (every region on cpu)"
                                                                                               : "default (the GPU runner's: nvrtc)");
  ROW ("figures", figures);
  if (g_strcmp0 (run->device_name, "cpu") != 0)
    ROW ("CUDA graph", _wb_report_replay_text (run));
  {
    g_autofree char *iteration = g_strdup_printf ("%.3f ms (min %.3f, max %.3f); regions %.3f ms; gap %.3f ms",
                                                  _wb_report_ms (r->iter_median_ns), _wb_report_ms (r->iter_min_ns),
                                                  _wb_report_ms (r->iter_max_ns), _wb_report_ms (r->sum_median_ns),
                                                  _wb_report_ms (r->gap_median_ns));
    ROW ("iteration", iteration);
  }
  if (r->ceilings != NULL)
    {
      g_autofree char *ceil = g_strdup_printf ("copy %.1f GB/s, %s %.3f TFLOP/s", r->ceilings->copy_gbps,
                                               _wb_report_matmul_label (r), r->ceilings->bf16_tflops);
      ROW ("ceilings", ceil);
    }
  if (run->attribution.kernel_source != NULL)
    {
      const WbKernelAttribution *a = &run->attribution;
      double                     total = (double) a->kernel_ns_total;
      double                     pct = total > 0 ? 100.0 * (double) a->kernel_ns_attributed / total : 0.0;
      double                     pct_range = total > 0 ? 100.0 * (double) a->kernel_ns_by_time_range / total : 0.0;
      g_autofree char           *attr = NULL;

      attr = g_strdup_printf ("%s; %.1f%% of %.3f ms kernel time attributed (%.1f%% by time range); %" G_GUINT64_FORMAT
                              " dropped records; memcpy %u, memset %u (totals over the timed iterations)",
                              a->kernel_source, pct, _wb_report_ms (a->kernel_ns_total), pct_range, run->dropped_records,
                              a->memcpy_count, a->memset_count);
      ROW ("kernel records", attr);
    }
  if (run->status != WB_RUN_STATUS_OK)
    ROW ("status", run->error ? run->error : wb_run_status_to_string (run->status));
#undef ROW
  g_string_append (s, "</table>\n");
}

static void
append_bar_chart (GString *s, const WbReport *r)
{
  guint  n = MIN (r->by_time->len, BAR_MAX_REGIONS);
  double max_ms = 0;
  int    label_w = 260, row_h = 20, bar_w = CHART_WIDTH - label_w - 90;

  g_string_append (s, "<h2>Time per region</h2>\n");
  if (n == 0)
    {
      g_string_append (s, "<p class=\"note\">No regions.</p>\n");
      return;
    }
  for (guint i = 0; i < n; i++)
    max_ms = MAX (max_ms, _wb_report_ms (((const WbReportRegion *) r->by_time->pdata[i])->stats->median_ns));
  g_string_append_printf (s, "<svg id=\"bars\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
                          CHART_WIDTH, n * row_h + 10, CHART_WIDTH, n * row_h + 10);
  for (guint i = 0; i < n; i++)
    {
      const WbReportRegion *x = r->by_time->pdata[i];
      double                ms = _wb_report_ms (x->stats->median_ns);
      double                w = max_ms > 0 ? ms / max_ms * bar_w : 0;
      int                   y = 5 + i * row_h;

      g_string_append_printf (s, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 6, y + 14);
      append_escaped (s, x->stats->name);
      g_string_append_printf (s, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"", label_w, y + 2,
                              MAX (w, 1.0), row_h - 4);
      append_color (s, x->stats->name);
      g_string_append (s, "\"><title>");
      append_escaped (s, x->stats->name);
      g_string_append_printf (s, ": %.3f ms (%.1f%%)</title></rect>", ms, 100.0 * x->stats->share);
      g_string_append_printf (s, "<text x=\"%.1f\" y=\"%d\">%.3f ms</text>\n", label_w + MAX (w, 1.0) + 4, y + 14, ms);
    }
  g_string_append (s, "</svg>\n");
}

static void
append_timeline (GString *s, const WbReport *r)
{
  const WbRun *run = r->run;
  g_autoptr (GHashTable) rows = g_hash_table_new (g_direct_hash, g_direct_equal);
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  int    left = 90, width = CHART_WIDTH - left - 40, row_h = 24;
  guint  n_rows = 1;
  guint  it = r->median_iteration;

  g_string_append_printf (s, "<h2>Timeline (iteration %u, the one closest to the median)</h2>\n", it);
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];

      if (k->iteration != it)
        continue;
      lo = MIN (lo, k->start_ns);
      hi = MAX (hi, k->end_ns);
      if (!g_hash_table_contains (rows, GUINT_TO_POINTER (k->stream + 1)))
        g_hash_table_insert (rows, GUINT_TO_POINTER (k->stream + 1), GUINT_TO_POINTER (n_rows++));
    }
  if (lo > hi)
    {
      g_string_append (s, "<p class=\"note\">No kernel records.</p>\n");
      return;
    }
  {
    double span = (double) MAX (hi - lo, 1);
    int    height = (int) (n_rows + 1) * row_h + 24;

    g_string_append_printf (s, "<svg id=\"timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
                            CHART_WIDTH, height, CHART_WIDTH, height);
    /* axis: 5 ticks in ms since the iteration's first kernel */
    for (int t = 0; t <= 5; t++)
      {
        double x = left + width * t / 5.0;

        g_string_append_printf (s, "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.3f ms</text>\n",
                                x, x, height - 20, x, height - 6, _wb_report_ms ((gint64) (span * t / 5.0)));
      }
    g_string_append_printf (s, "<text x=\"4\" y=\"%d\">regions</text>\n", 4 + row_h / 2 + 4);
    {
      GHashTableIter iter;
      gpointer       key, value;

      g_hash_table_iter_init (&iter, rows);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_string_append_printf (s, "<text x=\"4\" y=\"%d\">stream %u</text>\n",
                                4 + GPOINTER_TO_UINT (value) * row_h + row_h / 2 + 4, GPOINTER_TO_UINT (key) - 1);
    }
    for (guint i = 0; i < run->kernels->len; i++)
      {
        const WbKernelRecord *k = run->kernels->pdata[i];
        double                x, w;
        guint                 row;

        if (k->iteration != it)
          continue;
        x = left + (double) (k->start_ns - lo) / span * width;
        w = MAX ((double) (k->end_ns - k->start_ns) / span * width, 0.5);
        row = GPOINTER_TO_UINT (g_hash_table_lookup (rows, GUINT_TO_POINTER (k->stream + 1)));
        /* the region row, then the kernel's stream row */
        for (guint pass = 0; pass < 2; pass++)
          {
            g_string_append_printf (s, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"", x,
                                    4 + (pass ? row : 0) * row_h + 2, w, row_h - 4);
            append_color (s, k->region ? k->region : k->name);
            g_string_append (s, "\"><title>");
            append_escaped (s, pass ? _wb_report_kernel_name (r, k->name) : (k->region ? k->region : "(unattributed)"));
            g_string_append_printf (s, ", line %u: %.3f ms</title></rect>\n", k->trace_line,
                                    _wb_report_ms (k->end_ns - k->start_ns));
          }
      }
    g_string_append (s, "</svg>\n");
  }
}

static void
append_pct_cell (GString *s, double pct, const char *bound)
{
  if (pct < 0)
    g_string_append (s, "<td class=\"n\">-</td>");
  else
    g_string_append_printf (s, "<td class=\"n\">%.1f%%%s%s</td>", pct, bound ? " " : "", bound ? bound : "");
}

static void
append_region_table (GString *s, const WbReport *r)
{
  g_string_append (s, "<h2>Regions (by time)</h2>\n<table id=\"regions\"><tr><th>region</th><th>kind</th><th>executor</th>"
                      "<th class=\"n\">line</th><th class=\"n\">time ms</th><th class=\"n\">min ms</th><th class=\"n\">max ms</th>"
                      "<th class=\"n\">share</th><th class=\"n\">GB/s</th><th class=\"n\">TFLOP/s</th><th class=\"n\">% of ceiling</th></tr>\n");
  for (guint i = 0; i < r->by_time->len; i++)
    {
      const WbReportRegion *x = r->by_time->pdata[i];
      const WbRegionStats  *st = x->stats;
      g_autofree char      *gbps = _wb_report_format_rate (x->gbps);
      g_autofree char      *tflops = _wb_report_format_rate (x->tflops);

      g_string_append (s, "<tr><td>");
      append_escaped (s, st->name);
      g_string_append_printf (s, "</td><td>%s</td><td>", x->is_region ? "region" : "op");
      append_escaped (s, st->executor);
      g_string_append_printf (s, "</td><td class=\"n\"><a href=\"#L%u\">%u</a></td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td>"
                                 "<td class=\"n\">%.3f</td><td class=\"n\">%.1f%%</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
                              st->stage_line, st->stage_line, _wb_report_ms (st->median_ns), _wb_report_ms (st->min_ns),
                              _wb_report_ms (st->max_ns), 100.0 * st->share, gbps, tflops);
      append_pct_cell (s, x->pct_of_ceiling, x->bound);
      g_string_append (s, "</tr>\n");
    }
  g_string_append (s, "</table>\n<p class=\"note\">GB/s and TFLOP/s: bytes moved (inputs read + outputs written) and FLOPs "
                      "counted from the region's ops and shapes, over its median time. % of ceiling: the time at the "
                      "device's ceilings (bytes at the copy bandwidth or FLOPs at the matmul rate, whichever is longer) "
                      "as a share of the median time; the copy ceiling is main-memory bandwidth, so data that stays in "
                      "the CPU caches can exceed 100%.</p>\n");
}

static void
append_kernel_table (GString *s, const WbReport *r)
{
  guint n = MIN (r->kernels->len, 20u);

  g_string_append_printf (s, "<h2>Top kernels (%u of %u)</h2>\n<table id=\"kernels\"><tr><th>kernel</th><th>region</th>"
                             "<th class=\"n\">line</th><th class=\"n\">stream</th><th>grid</th><th>block</th>"
                             "<th class=\"n\">regs</th><th class=\"n\">smem B</th><th class=\"n\">calls/iter</th>"
                             "<th class=\"n\">time ms</th></tr>\n",
                          n, r->kernels->len);
  for (guint i = 0; i < n; i++)
    {
      const WbReportKernel *k = r->kernels->pdata[i];

      g_string_append (s, "<tr><td>");
      append_escaped (s, k->name);
      g_string_append (s, "</td><td>");
      append_escaped (s, k->region ? k->region : "(unattributed)");
      g_string_append_printf (s, "</td><td class=\"n\">%u</td><td class=\"n\">%u</td>", k->line, k->stream);
      if (k->grid[0] > 0)
        g_string_append_printf (s, "<td>%u×%u×%u</td><td>%u×%u×%u</td><td class=\"n\">%u</td><td class=\"n\">%u</td>", k->grid[0],
                                k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->registers, k->shared_bytes);
      else
        g_string_append (s, "<td>-</td><td>-</td><td class=\"n\">-</td><td class=\"n\">-</td>");
      g_string_append_printf (s, "<td class=\"n\">%g</td><td class=\"n\">%.3f</td></tr>\n", k->calls, _wb_report_ms (k->median_ns));
    }
  g_string_append (s, "</table>\n");
}

static void
append_gate (GString *s, const WbReport *r)
{
  const WbGate *g = r->gate;

  if (g == NULL)
    return;
  g_string_append_printf (s, "<h2>Baseline gate: <span class=\"%s\">%s</span></h2>\n<p class=\"note\">",
                          g->failed ? "fail" : "ok", g->failed ? "FAILED" : "passed");
  append_escaped (s, wb_gate_get_rule ());
  g_string_append_printf (s, " (PCT = %g)</p>\n<table><tr><th>region</th><th class=\"n\">baseline ms</th><th class=\"n\">ms</th>"
                             "<th class=\"n\">Δ %%</th><th class=\"n\">limit ms</th><th>verdict</th></tr>\n",
                          g->fail_above_pct);
  for (guint i = 0; i <= g->regions->len; i++)
    {
      const WbGateRow *row = i < g->regions->len ? g->regions->pdata[i] : g->iteration;

      g_string_append (s, "<tr><td>");
      append_escaped (s, row->name ? row->name : "(iteration)");
      g_string_append_printf (s, "</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td><td class=\"n\">%+.1f%%</td>"
                                 "<td class=\"n\">%.3f</td><td class=\"%s\">%s</td></tr>\n",
                              _wb_report_ms (row->baseline_ns), _wb_report_ms (row->new_ns), row->diff_pct,
                              _wb_report_ms (row->limit_ns), row->failed ? "fail" : "ok", row->failed ? "slower" : "ok");
    }
  g_string_append (s, "</table>\n");
}

static void
append_stage (GString *s, const WbReport *r)
{
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) times = g_hash_table_new (g_direct_hash, g_direct_equal);
  gint64 max_ns = 0;
  guint  n;

  if (r->stage_text == NULL)
    return;
  for (guint i = 0; i < r->lines->len; i++)
    {
      const WbReportLine *l = &g_array_index (r->lines, WbReportLine, i);

      g_hash_table_insert (times, GUINT_TO_POINTER (l->line), (gpointer) l);
      max_ns = MAX (max_ns, l->median_ns);
    }
  g_string_append (s, "<h2>Stage with time per line</h2>\n<p class=\"note\">Median time per iteration of the kernels of each line.");
  if (r->estimates != NULL && r->estimates->len > 0)
    {
      g_string_append (s, " Lines inside a fusion region show an estimated time, marked “est.”: ");
      append_escaped (s, _wb_report_estimate_note ());
    }
  g_string_append (s, "</p>\n<pre class=\"stage\" id=\"stage\">");
  lines = g_strsplit (r->stage_text, "\n", -1);
  n = g_strv_length (lines);
  if (n > 0 && lines[n - 1][0] == '\0')
    n--;
  for (guint i = 0; i < n; i++)
    {
      const WbReportLine *l = g_hash_table_lookup (times, GUINT_TO_POINTER (i + 1));
      gint64              est = l == NULL ? _wb_report_estimated_line_ns (r, i + 1) : -1;

      g_string_append_printf (s, "<span class=\"l\" id=\"L%u\"", i + 1);
      if (l != NULL && max_ns > 0)
        g_string_append_printf (s, " style=\"background:rgba(230,120,30,%.2f)\"", 0.08 + 0.5 * (double) l->median_ns / (double) max_ns);
      else if (est >= 0 && max_ns > 0)
        g_string_append_printf (s, " style=\"background:rgba(230,120,30,%.2f)\"", 0.04 + 0.3 * (double) est / (double) max_ns);
      g_string_append_printf (s, "><span class=\"ln\">%u</span><span class=\"t%s\"%s>", i + 1, est >= 0 ? " est" : "",
                              est >= 0 ? " title=\"estimated: the region's time split by the roofline\"" : "");
      if (l != NULL)
        g_string_append_printf (s, "%.3f ms", _wb_report_ms (l->median_ns));
      else if (est >= 0)
        g_string_append_printf (s, "est. %.3f ms", _wb_report_ms (est));
      g_string_append (s, "</span>");
      append_escaped (s, lines[i]);
      g_string_append (s, "</span>");
    }
  g_string_append (s, "</pre>\n");
}

char *
wb_report_to_html (const WbReport *report)
{
  GString *s;

  g_return_val_if_fail (report != NULL, NULL);
  s = g_string_new ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>thunder-wb profile: ");
  append_escaped (s, report->title ? report->title : "run");
  g_string_append_printf (s, "</title>\n<meta name=\"generator\" content=\"thunder-wb %s\">\n<style>%s</style>\n</head>\n<body>\n",
                          PACKAGE_VERSION, css);
  append_summary (s, report);
  append_bar_chart (s, report);
  append_timeline (s, report);
  append_region_table (s, report);
  append_kernel_table (s, report);
  append_gate (s, report);
  if (report->notes->len > 0)
    {
      g_string_append (s, "<h2>Notes</h2>\n<ul>\n");
      for (guint i = 0; i < report->notes->len; i++)
        {
          g_string_append (s, "<li>");
          append_escaped (s, report->notes->pdata[i]);
          g_string_append (s, "</li>\n");
        }
      g_string_append (s, "</ul>\n");
    }
  append_stage (s, report);
  g_string_append (s, "</body>\n</html>\n");
  return g_string_free (s, FALSE);
}
