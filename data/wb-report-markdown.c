/* wb-report-markdown.c — the profile report as Markdown, readable in a terminal
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-report-private.h"

#define TOP_KERNELS 10

/* Text from a file (names, labels, devices, messages) as Markdown text: control characters and bytes
 * that are not UTF-8 as \xNN, Markdown's and HTML's special characters ("|" included) backslashed. A
 * table cell therefore holds no "|" and no newline ("\x0a"). */
static void
append_cell (GString *s, const char *text)
{
  g_autofree char *safe = wb_output_escape_text (text ? text : "-", -1, WB_ESCAPE_MARKDOWN);

  g_string_append (s, safe);
}

/* The same, as a printf argument (transfer full). */
static char *
md (const char *text)
{
  return wb_output_escape_text (text ? text : "", -1, WB_ESCAPE_MARKDOWN);
}

static void
append_pct (GString *s, double pct)
{
  if (pct < 0)
    g_string_append (s, "-");
  else
    g_string_append_printf (s, "%.1f%%", pct);
}

static double
pct_of (gint64 part, gint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

/* GPU runs: where the kernel records came from and how much of their time was attributed to regions. */
static void
append_attribution (GString *s, const WbReport *r)
{
  const WbKernelAttribution *a = &r->run->attribution;
  guint                      n = MAX (r->n_iters, 1);

  if (a->kernel_source == NULL)
    return;
  g_string_append_printf (s, "- kernel records: %s\n", a->kernel_source);
  g_string_append_printf (s, "- Attribution: kernel time %.3f ms per iteration (mean over %u), %u kernel records; attributed %.1f%% "
                             "(by correlation %.1f%%, by time range %.1f%%), unattributed %.1f%%; dropped records %" G_GUINT64_FORMAT,
                          _wb_report_ms (a->kernel_ns_total) / n, n, a->kernels_by_correlation + a->kernels_by_time_range + a->kernels_unattributed,
                          pct_of (a->kernel_ns_attributed, a->kernel_ns_total),
                          pct_of (a->kernel_ns_attributed - a->kernel_ns_by_time_range, a->kernel_ns_total),
                          pct_of (a->kernel_ns_by_time_range, a->kernel_ns_total),
                          a->kernel_ns_total > 0 ? 100.0 - pct_of (a->kernel_ns_attributed, a->kernel_ns_total) : 0.0, r->run->dropped_records);
  if (a->kernel_source != NULL && g_str_has_prefix (a->kernel_source, "cupti"))
    g_string_append_printf (s, "; memcpy %u (%" G_GUINT64_FORMAT " bytes, %.3f ms), memset %u (%" G_GUINT64_FORMAT " bytes, %.3f ms), %u of them attributed",
                            a->memcpy_count, a->memcpy_bytes, _wb_report_ms (a->memcpy_ns), a->memset_count, a->memset_bytes,
                            _wb_report_ms (a->memset_ns), a->memops_attributed);
  g_string_append (s, " (totals over the iterations that recorded kernels)\n");
}

static void
append_summary (GString *s, const WbReport *r)
{
  const WbRun     *run = r->run;
  g_autofree char *figures = _wb_report_figures_line (r);
  g_autofree char *title = md (r->title ? r->title : (run->stage ? run->stage : "run"));
  g_autofree char *stage = md (run->stage);
  g_autofree char *device = md (run->device_name ? run->device_name : "?");
  g_autofree char *model = md (run->device_model ? run->device_model : "?");
  g_autofree char *driver = md (run->driver_version);
  g_autofree char *executors = md (run->executors);

  g_string_append_printf (s, "# thunder-wb profile: %s\n\n", title);
  for (guint i = 0; i < r->warnings->len; i++)
    {
      g_autofree char *warning = md (r->warnings->pdata[i]);

      g_string_append_printf (s, "> **Warning:** %s\n%s", warning, i + 1 == r->warnings->len ? "\n" : ">\n");
    }
  if (run->stage != NULL)
    g_string_append_printf (s, "- stage: %s\n", stage);
  g_string_append_printf (s, "- device: %s — %s\n", device, model);
  if (run->driver_version != NULL)
    g_string_append_printf (s, "- driver: %s\n", driver);
  g_string_append_printf (s, "- executors: %s\n", run->executors ? executors : g_strcmp0 (run->device_name, "cpu") == 0 ? "default (every region on cpu)"
                                                                                                                        : "default (the GPU runner's: nvrtc)");
  for (guint i = 0; run->executor_versions != NULL && i < run->executor_versions->len; i++)
    {
      g_autofree char *v = md (run->executor_versions->pdata[i]);
      const char      *eq = strchr (v, '=');
      if (eq != NULL)
        g_string_append_printf (s, "- %.*s: %s\n", (int) (eq - v), v, eq + 1);
    }
  g_string_append_printf (s, "- figures: %s; kernel times are totals per iteration\n", figures);
  if (g_strcmp0 (run->device_name, "cpu") != 0)
    g_string_append_printf (s, "- CUDA graph: %s\n", _wb_report_replay_text (run));
  if (run->device_step_peak_bytes > 0)
    g_string_append_printf (s, "- Device memory: the step's peak %.1f MiB above its inputs (the first, checked run's %.1f MiB); %u allocations per iteration\n",
                            run->device_step_peak_bytes / 1048576.0, run->memory.first_run_peak_bytes / 1048576.0, run->memory.allocs_per_iteration);
  if (run->memory.plan_arena_bytes > 0)
    g_string_append_printf (s,
                            "- Memory plan: %s; arena %.1f MiB for %u tensors (sum of their sizes %.1f MiB, %.3f of it; most live at one step %.1f MiB); "
                            "%u placed in it per iteration, %u places still in use, %u allocations of planned calls without a place\n",
                            run->memory.plan_used ? "on" : "computed, not used", run->memory.plan_arena_bytes / 1048576.0, run->memory.plan_buffers,
                            run->memory.plan_sum_bytes / 1048576.0, (double) run->memory.plan_arena_bytes / (double) MAX (run->memory.plan_sum_bytes, 1),
                            run->memory.plan_live_peak_bytes / 1048576.0, run->memory.arena_allocs, run->memory.arena_misses, run->memory.arena_unplaced);
  if (run->memory.torch_eager_peak_bytes > 0 || run->memory.torch_compile_peak_bytes > 0)
    g_string_append_printf (s, "- PyTorch's step peak above its inputs (meta.json): eager %.1f MiB, torch.compile %.1f MiB\n",
                            run->memory.torch_eager_peak_bytes / 1048576.0, run->memory.torch_compile_peak_bytes / 1048576.0);
  if (r->ceilings != NULL)
    g_string_append_printf (s, "- ceilings: copy %.1f GB/s, %s %.3f TFLOP/s\n", r->ceilings->copy_gbps,
                            _wb_report_matmul_label (r), r->ceilings->bf16_tflops);
  else
    g_string_append (s, "- ceilings: not measured (no GB/s or TFLOP/s percentages)\n");
  if (run->id > 0)
    g_string_append_printf (s, "- run: #%" G_GINT64_FORMAT " in the session\n", run->id);
  if (run->status != WB_RUN_STATUS_OK)
    {
      g_autofree char *message = md (run->error);

      g_string_append_printf (s, "- status: %s: %s\n", wb_run_status_to_string (run->status), message);
    }
  if (run->dropped_records > 0)
    g_string_append_printf (s, "- dropped kernel records: %" G_GUINT64_FORMAT "\n", run->dropped_records);
  append_attribution (s, r);
  g_string_append_c (s, '\n');
}

static void
append_iteration (GString *s, const WbReport *r)
{
  g_string_append (s, "## Iteration\n\n");
  g_string_append (s, "| | median ms | min ms | max ms |\n|---|---:|---:|---:|\n");
  g_string_append_printf (s, "| iteration | %.3f | %.3f | %.3f |\n", _wb_report_ms (r->iter_median_ns),
                          _wb_report_ms (r->iter_min_ns), _wb_report_ms (r->iter_max_ns));
  g_string_append_printf (s, "| regions (sum) | %.3f | | |\n", _wb_report_ms (r->sum_median_ns));
  g_string_append_printf (s, "| gap | %.3f | %.3f | %.3f |\n\n", _wb_report_ms (r->gap_median_ns),
                          _wb_report_ms (r->gap_min_ns), _wb_report_ms (r->gap_max_ns));
  g_string_append (s, "Gap: the iteration minus the sum of its regions' times (the interpreter between calls, "
                      "utility calls, releasing tensors), per iteration.\n\n");
}

static void
append_regions (GString *s, const WbReport *r)
{
  g_string_append (s, "## Regions (by time)\n\n");
  g_string_append (s, "| region | kind | executor | line | time ms | min ms | max ms | share | GB/s | TFLOP/s | % of ceiling |\n"
                      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint i = 0; i < r->by_time->len; i++)
    {
      const WbReportRegion *x = r->by_time->pdata[i];
      const WbRegionStats  *st = x->stats;
      g_autofree char      *gbps = _wb_report_format_rate (x->gbps);
      g_autofree char      *tflops = _wb_report_format_rate (x->tflops);

      g_string_append (s, "| ");
      append_cell (s, st->name);
      g_string_append_printf (s, " | %s | ", x->is_region ? "region" : "op");
      append_cell (s, st->executor);
      g_string_append (s, " | ");
      if (st->stage_line > 0)
        g_string_append_printf (s, "%u", st->stage_line);
      else
        g_string_append (s, "-");
      g_string_append_printf (s, " | %.3f | %.3f | %.3f | %.1f%% | %s | %s | ", _wb_report_ms (st->median_ns),
                              _wb_report_ms (st->min_ns), _wb_report_ms (st->max_ns), 100.0 * st->share, gbps, tflops);
      append_pct (s, x->pct_of_ceiling);
      if (x->bound != NULL && x->pct_of_ceiling >= 0)
        g_string_append_printf (s, " (%s)", x->bound);
      g_string_append (s, " |\n");
    }
  if (r->by_time->len == 0)
    g_string_append (s, "| (none) | | | | | | | | | | |\n");
  g_string_append (s, "\nGB/s and TFLOP/s: bytes moved (inputs read + outputs written) and FLOPs counted from the "
                      "region's ops and shapes, over its median time. % of ceiling: the time at the device's "
                      "ceilings (bytes at the copy bandwidth or FLOPs at the matmul rate, whichever is longer) "
                      "as a share of the median time; the copy ceiling is main-memory bandwidth, so data that stays in "
                      "the CPU caches can exceed 100%.\n\n");
}

static void
append_kernels (GString *s, const WbReport *r)
{
  guint    n = MIN (r->kernels->len, TOP_KERNELS);
  gboolean gpu = r->run->device_name != NULL && g_str_has_prefix (r->run->device_name, "cuda");

  g_string_append_printf (s, "## Top kernels (%u of %u)\n\n", n, r->kernels->len);
  if (gpu)
    g_string_append (s, "grid and block: of the launch; regs: registers per thread; smem B: static + dynamic shared memory per block, bytes.\n\n");
  if (g_strcmp0 (r->run->device_name, "cpu") == 0)
    g_string_append (s, "On cpu a kernel is one executed top-level call.\n\n");
  if (gpu)
    g_string_append (s, "| kernel | region | line | stream | grid | block | regs | smem B | calls/iter | time ms | min ms | max ms | share |\n"
                        "|---|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  else
    g_string_append (s, "| kernel | region | line | stream | calls/iter | time ms | min ms | max ms | share |\n"
                        "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint i = 0; i < n; i++)
    {
      const WbReportKernel *k = r->kernels->pdata[i];

      g_string_append (s, "| ");
      append_cell (s, k->name);
      g_string_append (s, " | ");
      append_cell (s, k->region ? k->region : "(unattributed)");
      g_string_append_printf (s, " | %u | %u", k->line, k->stream);
      if (gpu && k->grid[0] > 0)
        g_string_append_printf (s, " | %u×%u×%u | %u×%u×%u | %u | %u", k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                                k->block[2], k->registers, k->shared_bytes);
      else if (gpu)
        g_string_append (s, " | - | - | - | -");
      g_string_append_printf (s, " | %g | %.3f | %.3f | %.3f | %.1f%% |\n", k->calls, _wb_report_ms (k->median_ns),
                              _wb_report_ms (k->min_ns), _wb_report_ms (k->max_ns),
                              r->iter_median_ns > 0 ? 100.0 * (double) k->median_ns / (double) r->iter_median_ns : 0);
    }
  g_string_append_c (s, '\n');
}

static void
append_gate (GString *s, const WbReport *r)
{
  const WbGate *g = r->gate;

  if (g == NULL)
    return;
  g_string_append_printf (s, "## Baseline gate: %s\n\n", g->failed ? "FAILED" : "passed");
  if (g->baseline_label != NULL)
    {
      g_autofree char *label = md (g->baseline_label);

      g_string_append_printf (s, "Baseline: %s. ", label);
    }
  g_string_append_printf (s, "Threshold: +%g%%. Rule: %s.\n\n", g->fail_above_pct, wb_gate_get_rule ());
  g_string_append (s, "| region | baseline ms | ms | Δ % | noise ms | limit ms | verdict |\n|---|---:|---:|---:|---:|---:|---|\n");
  for (guint i = 0; i <= g->regions->len; i++)
    {
      const WbGateRow *row = i < g->regions->len ? g->regions->pdata[i] : g->iteration;

      g_string_append (s, "| ");
      append_cell (s, row->name ? row->name : "(iteration)");
      g_string_append_printf (s, " | %.3f | %.3f | %+.1f%% | %.3f | %.3f | %s |\n", _wb_report_ms (row->baseline_ns),
                              _wb_report_ms (row->new_ns), row->diff_pct, _wb_report_ms (row->noise_ns),
                              _wb_report_ms (row->limit_ns), row->failed ? "**slower**" : "ok");
    }
  for (guint i = 0; i < g->notes->len; i++)
    {
      g_autofree char *note = md (g->notes->pdata[i]);

      g_string_append_printf (s, "%s- %s\n", i == 0 ? "\n" : "", note);
    }
  g_string_append_c (s, '\n');
}

char *
wb_report_to_markdown (const WbReport *report)
{
  GString *s;

  g_return_val_if_fail (report != NULL, NULL);
  s = g_string_new (NULL);
  append_summary (s, report);
  append_iteration (s, report);
  append_regions (s, report);
  append_kernels (s, report);
  _wb_report_markdown_append_estimates (s, report, 8);
  append_gate (s, report);
  if (report->notes->len > 0)
    {
      g_string_append (s, "## Notes\n\n");
      for (guint i = 0; i < report->notes->len; i++)
        {
          g_autofree char *note = md (report->notes->pdata[i]);

          g_string_append_printf (s, "- %s\n", note);
        }
    }
  /* one trailing newline */
  while (s->len > 1 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}
