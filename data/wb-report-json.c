/* wb-report-json.c — the profile report as JSON, schema "thunder-wb/profile-report" (docs/report-schema.md)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>

#include "wb-report-private.h"

static void
add_times (JsonBuilder *b, const char *name, const GArray *times)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; times != NULL && i < times->len; i++)
    json_builder_add_double_value (b, _wb_report_ms (g_array_index (times, gint64, i)));
  json_builder_end_array (b);
}

static void
add_run (JsonBuilder *b, const WbReport *r)
{
  const WbRun *run = r->run;

  json_builder_set_member_name (b, "run");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  if (run->id > 0)
    json_builder_add_int_value (b, run->id);
  else
    json_builder_add_null_value (b);
  _wb_json_add_string (b, "label", run->label);
  _wb_json_add_string (b, "stage", run->stage);
  _wb_json_add_string (b, "status", wb_run_status_to_string (run->status));
  _wb_json_add_string (b, "error", run->error);
  _wb_json_add_int (b, "started_at_us", run->start_time_us);
  _wb_json_add_int (b, "iters", run->iters);
  _wb_json_add_int (b, "warmup", run->warmup);
  json_builder_set_member_name (b, "cuda_graphs");
  json_builder_add_boolean_value (b, run->cuda_graphs);
  json_builder_set_member_name (b, "launch_list");
  json_builder_add_boolean_value (b, run->launch_list);
  if (run->device_step_peak_bytes > 0)
    {
      _wb_json_add_int (b, "device_step_peak_bytes", run->device_step_peak_bytes);
      json_builder_set_member_name (b, "memory");
      json_builder_begin_object (b);
      _wb_json_add_int (b, "first_run_peak_bytes", run->memory.first_run_peak_bytes);
      _wb_json_add_int (b, "allocs_per_iteration", run->memory.allocs_per_iteration);
      json_builder_set_member_name (b, "plan_used");
      json_builder_add_boolean_value (b, run->memory.plan_used);
      _wb_json_add_int (b, "plan_arena_bytes", run->memory.plan_arena_bytes);
      _wb_json_add_int (b, "plan_sum_bytes", run->memory.plan_sum_bytes);
      _wb_json_add_int (b, "plan_live_peak_bytes", run->memory.plan_live_peak_bytes);
      _wb_json_add_int (b, "plan_buffers", run->memory.plan_buffers);
      _wb_json_add_int (b, "arena_allocs_per_iteration", run->memory.arena_allocs);
      _wb_json_add_int (b, "arena_misses_per_iteration", run->memory.arena_misses);
      _wb_json_add_int (b, "arena_unplaced_per_iteration", run->memory.arena_unplaced);
      if (run->memory.torch_eager_peak_bytes > 0)
        _wb_json_add_int (b, "torch_eager_peak_bytes", run->memory.torch_eager_peak_bytes);
      if (run->memory.torch_compile_peak_bytes > 0)
        _wb_json_add_int (b, "torch_compile_peak_bytes", run->memory.torch_compile_peak_bytes);
      json_builder_end_object (b);
    }
  _wb_json_add_string (b, "executors", run->executors);
  _wb_json_add_string (b, "assignment", run->assignment);
  json_builder_set_member_name (b, "executor_versions");
  json_builder_begin_array (b);
  for (guint i = 0; run->executor_versions && i < run->executor_versions->len; i++)
    json_builder_add_string_value (b, run->executor_versions->pdata[i]);
  json_builder_end_array (b);
  _wb_json_add_int (b, "dropped_records", (gint64) run->dropped_records);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  _wb_json_add_string (b, "name", run->device_name);
  _wb_json_add_string (b, "model", run->device_model);
  _wb_json_add_string (b, "driver", run->driver_version);
  json_builder_end_object (b);
}

static void
add_ceilings (JsonBuilder *b, const WbReport *r)
{
  json_builder_set_member_name (b, "ceilings");
  if (r->ceilings == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  _wb_json_add_string (b, "device_model", r->ceilings->device_model);
  _wb_json_add_double (b, "copy_gbps", r->ceilings->copy_gbps);
  _wb_json_add_double (b, "matmul_tflops", r->ceilings->bf16_tflops);
  _wb_json_add_string (b, "matmul_kind", _wb_report_matmul_label (r));
  _wb_json_add_int (b, "measured_at_us", r->ceilings->measured_at_us);
  json_builder_end_object (b);
}

static void
add_iteration (JsonBuilder *b, const WbReport *r)
{
  json_builder_set_member_name (b, "iteration");
  json_builder_begin_object (b);
  _wb_json_add_int (b, "count", r->n_iters);
  _wb_json_add_ms (b, "median_ms", r->iter_median_ns);
  _wb_json_add_ms (b, "min_ms", r->iter_min_ns);
  _wb_json_add_ms (b, "max_ms", r->iter_max_ns);
  if (r->run->unprofiled_median_ns > 0)
    _wb_json_add_ms (b, "unprofiled_median_ms", r->run->unprofiled_median_ns);
  add_times (b, "times_ms", r->run->iteration_ns);
  _wb_json_add_ms (b, "regions_sum_ms", r->sum_median_ns);
  _wb_json_add_ms (b, "gap_ms", r->gap_median_ns);
  _wb_json_add_ms (b, "gap_min_ms", r->gap_min_ns);
  _wb_json_add_ms (b, "gap_max_ms", r->gap_max_ns);
  add_times (b, "gap_times_ms", r->gap_ns);
  json_builder_end_object (b);
}

static void
add_regions (JsonBuilder *b, const WbReport *r)
{
  json_builder_set_member_name (b, "regions");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->regions->len; i++)
    {
      const WbReportRegion *x = &g_array_index (r->regions, WbReportRegion, i);
      const WbRegionStats  *s = x->stats;

      json_builder_begin_object (b);
      _wb_json_add_string (b, "name", s->name);
      _wb_json_add_string (b, "kind", wb_run_region_is_collective (x->stats) ? "collective" : x->is_region ? "region"
                                                                                                           : "op");
      _wb_json_add_string (b, "executor", s->executor);
      json_builder_set_member_name (b, "line");
      if (s->stage_line > 0)
        json_builder_add_int_value (b, s->stage_line);
      else
        json_builder_add_null_value (b);
      _wb_json_add_ms (b, "median_ms", s->median_ns);
      _wb_json_add_ms (b, "min_ms", s->min_ns);
      _wb_json_add_ms (b, "max_ms", s->max_ns);
      add_times (b, "times_ms", s->times_ns);
      _wb_json_add_double (b, "share", s->share);
      _wb_json_add_int (b, "kernel_count", s->kernel_count);
      _wb_json_add_int (b, "bytes", (gint64) s->bytes_moved);
      _wb_json_add_int (b, "flops", (gint64) s->flops);
      _wb_json_add_double (b, "gbps", x->gbps);
      _wb_json_add_double (b, "tflops", x->tflops);
      _wb_json_add_optional (b, "pct_of_copy", x->pct_of_copy);
      _wb_json_add_optional (b, "pct_of_matmul", x->pct_of_matmul);
      _wb_json_add_optional (b, "pct_of_ceiling", x->pct_of_ceiling);
      _wb_json_add_string (b, "bound", x->bound);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_dim3 (JsonBuilder *b, const char *name, const guint32 v[3])
{
  json_builder_set_member_name (b, name);
  if (v[0] == 0)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_array (b);
  for (int d = 0; d < 3; d++)
    json_builder_add_int_value (b, v[d]);
  json_builder_end_array (b);
}

static void
add_memops (JsonBuilder *b, const char *name, guint32 count, guint64 bytes, gint64 ns)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  _wb_json_add_int (b, "count", count);
  _wb_json_add_int (b, "bytes", (gint64) bytes);
  _wb_json_add_ms (b, "ms", ns);
  json_builder_end_object (b);
}

/* where the kernel records came from and how they were attributed (GPU runs measured now; else null) */
static void
add_attribution (JsonBuilder *b, const WbReport *r)
{
  const WbKernelAttribution *a = &r->run->attribution;

  json_builder_set_member_name (b, "attribution");
  if (a->kernel_source == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  _wb_json_add_string (b, "kernel_source", a->kernel_source);
  _wb_json_add_ms (b, "kernel_ms_total", a->kernel_ns_total);
  _wb_json_add_ms (b, "kernel_ms_attributed", a->kernel_ns_attributed);
  _wb_json_add_ms (b, "kernel_ms_by_correlation", a->kernel_ns_attributed - a->kernel_ns_by_time_range);
  _wb_json_add_ms (b, "kernel_ms_by_time_range", a->kernel_ns_by_time_range);
  _wb_json_add_double (b, "unattributed_pct", a->kernel_ns_total > 0 ? 100.0 * (double) (a->kernel_ns_total - a->kernel_ns_attributed) / (double) a->kernel_ns_total : 0.0);
  _wb_json_add_int (b, "kernels_by_correlation", a->kernels_by_correlation);
  _wb_json_add_int (b, "kernels_by_time_range", a->kernels_by_time_range);
  _wb_json_add_int (b, "kernels_unattributed", a->kernels_unattributed);
  add_memops (b, "memcpy", a->memcpy_count, a->memcpy_bytes, a->memcpy_ns);
  add_memops (b, "memset", a->memset_count, a->memset_bytes, a->memset_ns);
  _wb_json_add_int (b, "memops_attributed", a->memops_attributed);
  _wb_json_add_int (b, "dropped_records", (gint64) r->run->dropped_records);
  json_builder_end_object (b);
}

static void
add_kernels (JsonBuilder *b, const WbReport *r)
{
  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->kernels->len; i++)
    {
      const WbReportKernel *k = r->kernels->pdata[i];

      json_builder_begin_object (b);
      _wb_json_add_string (b, "name", k->name);
      _wb_json_add_string (b, "name_mangled", k->mangled);
      _wb_json_add_string (b, "region", k->region);
      json_builder_set_member_name (b, "line");
      if (k->line > 0)
        json_builder_add_int_value (b, k->line);
      else
        json_builder_add_null_value (b);
      _wb_json_add_int (b, "stream", k->stream);
      _wb_json_add_double (b, "calls_per_iteration", k->calls);
      _wb_json_add_ms (b, "median_ms", k->median_ns);
      _wb_json_add_ms (b, "min_ms", k->min_ns);
      _wb_json_add_ms (b, "max_ms", k->max_ns);
      add_dim3 (b, "grid", k->grid);
      add_dim3 (b, "block", k->block);
      _wb_json_add_int (b, "registers", k->registers);
      _wb_json_add_int (b, "shared_bytes", k->shared_bytes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "lines");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->lines->len; i++)
    {
      const WbReportLine *l = &g_array_index (r->lines, WbReportLine, i);

      json_builder_begin_object (b);
      _wb_json_add_int (b, "line", l->line);
      _wb_json_add_ms (b, "median_ms", l->median_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  _wb_report_json_add_estimates (b, r);
}

static void
add_gate_row (JsonBuilder *b, const WbGateRow *row)
{
  json_builder_begin_object (b);
  _wb_json_add_string (b, "name", row->name);
  _wb_json_add_ms (b, "baseline_ms", row->baseline_ns);
  _wb_json_add_ms (b, "median_ms", row->new_ns);
  _wb_json_add_double (b, "diff_pct", row->diff_pct);
  _wb_json_add_ms (b, "noise_ms", row->noise_ns);
  _wb_json_add_ms (b, "limit_ms", row->limit_ns);
  json_builder_set_member_name (b, "failed");
  json_builder_add_boolean_value (b, row->failed);
  json_builder_end_object (b);
}

static void
add_gate (JsonBuilder *b, const WbReport *r)
{
  const WbGate *g = r->gate;

  json_builder_set_member_name (b, "gate");
  if (g == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  _wb_json_add_string (b, "baseline", g->baseline_label);
  json_builder_set_member_name (b, "baseline_run_id");
  if (g->baseline_run_id > 0)
    json_builder_add_int_value (b, g->baseline_run_id);
  else
    json_builder_add_null_value (b);
  _wb_json_add_double (b, "fail_above_pct", g->fail_above_pct);
  _wb_json_add_string (b, "rule", wb_gate_get_rule ());
  json_builder_set_member_name (b, "failed");
  json_builder_add_boolean_value (b, g->failed);
  json_builder_set_member_name (b, "iteration");
  add_gate_row (b, g->iteration);
  json_builder_set_member_name (b, "regions");
  json_builder_begin_array (b);
  for (guint i = 0; i < g->regions->len; i++)
    add_gate_row (b, g->regions->pdata[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < g->notes->len; i++)
    json_builder_add_string_value (b, g->notes->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

char *
wb_report_to_json (const WbReport *report)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autofree char *figures = NULL;

  g_return_val_if_fail (report != NULL, NULL);
  figures = _wb_report_figures_line (report);
  json_builder_begin_object (b);
  _wb_json_add_string (b, "schema", WB_REPORT_SCHEMA);
  _wb_json_add_int (b, "schema_version", WB_REPORT_SCHEMA_VERSION);
  _wb_json_add_string (b, "generator", "thunder-wb " PACKAGE_VERSION);
  _wb_json_add_string (b, "title", report->title);
  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < report->warnings->len; i++)
    json_builder_add_string_value (b, report->warnings->pdata[i]);
  json_builder_end_array (b);
  _wb_json_add_string (b, "figures", figures);
  add_run (b, report);
  add_ceilings (b, report);
  add_iteration (b, report);
  add_regions (b, report);
  add_kernels (b, report);
  add_attribution (b, report);
  add_gate (b, report);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < report->notes->len; i++)
    json_builder_add_string_value (b, report->notes->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);

  return _wb_json_finish (b, TRUE);
}
