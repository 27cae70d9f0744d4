/* wb-report-programs.c — the summary of a model's sub-programs: its rows, Markdown, JSON, HTML, writing a file
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-report-programs.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-report-private.h"

#define TOTAL_IS                                                                                              \
  "the sum of the sub-programs' medians, each profiled on its own; the eager PyTorch code that runs between " \
  "them (Dynamo's glue) is not timed or counted, so a step of the model takes longer"
#define MEDIAN_IS "the unprofiled median where the GPU run measured one, else the median iteration"

/* -- rows ------------------------------------------------------------------------------------------ */

WbProgramRow *
wb_program_row_new (const char *name)
{
  WbProgramRow *row = g_new0 (WbProgramRow, 1);

  row->name = g_strdup (name ? name : "");
  return row;
}

void
wb_program_row_free (WbProgramRow *row)
{
  if (row == NULL)
    return;
  g_free (row->name);
  g_free (row->stage);
  g_free (row->stage_file);
  g_free (row->device);
  g_free (row->report_dir);
  g_free (row->error);
  g_free (row);
}

void
wb_program_row_set_run (WbProgramRow *row, const WbRun *run)
{
  guint iterations;

  g_return_if_fail (row != NULL && run != NULL);
  g_free (row->device);
  row->device = g_strdup (run->device_name);
  row->iteration_median_ns = wb_run_get_iteration_median_ns (run);
  row->unprofiled_median_ns = run->unprofiled_median_ns;
  iterations = run->iteration_ns != NULL ? run->iteration_ns->len : 0;
  row->kernels = iterations > 0 && run->kernels != NULL ? (double) run->kernels->len / iterations : 0;
  if (run->status == WB_RUN_STATUS_FAILED && row->error == NULL)
    row->error = g_strdup (run->error ? run->error : "the run failed");
}

gint64
wb_program_row_get_median_ns (const WbProgramRow *row)
{
  g_return_val_if_fail (row != NULL, 0);
  if (row->error != NULL)
    return 0;
  return row->unprofiled_median_ns > 0 ? row->unprofiled_median_ns : row->iteration_median_ns;
}

gint64
wb_report_programs_get_total_ns (const GPtrArray *rows)
{
  gint64 total = 0;

  g_return_val_if_fail (rows != NULL, 0);
  for (guint i = 0; i < rows->len; i++)
    total += wb_program_row_get_median_ns (rows->pdata[i]);
  return total;
}

static guint
count_failed (const GPtrArray *rows)
{
  guint n = 0;

  for (guint i = 0; i < rows->len; i++)
    n += ((const WbProgramRow *) rows->pdata[i])->error != NULL;
  return n;
}

static double
share_of (const WbProgramRow *row, gint64 total)
{
  return row->error == NULL && total > 0 ? (double) wb_program_row_get_median_ns (row) / (double) total : -1.0;
}

/* -- Markdown ------------------------------------------------------------------------------------- */

static char *
md (const char *text)
{
  return wb_output_escape_text (text ? text : "-", -1, WB_ESCAPE_MARKDOWN);
}

char *
wb_report_programs_to_markdown (const GPtrArray *rows, const char *title)
{
  gint64           total;
  guint            failed;
  double           kernels = 0;
  GString         *s;
  g_autofree char *t = NULL;

  g_return_val_if_fail (rows != NULL, NULL);
  total = wb_report_programs_get_total_ns (rows);
  failed = count_failed (rows);
  t = md (title ? title : "model");
  s = g_string_new (NULL);
  g_string_append_printf (s, "# thunder-wb profile: %s (%u sub-programs)\n\n", t, rows->len);
  g_string_append_printf (s, "- total: %.3f ms, %s\n", _wb_report_ms (total), TOTAL_IS);
  if (failed > 0)
    g_string_append_printf (s, "- failed: %u of %u sub-programs (their rows say why; the total leaves them out)\n", failed,
                            rows->len);
  g_string_append (s, "- median ms: " MEDIAN_IS "\n\n");
  g_string_append (s, "| sub-program | stage file | device | median ms | kernels/iter | share |\n"
                      "|---|---|---|---:|---:|---:|\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const WbProgramRow *r = rows->pdata[i];
      g_autofree char    *name = md (r->name), *file = md (r->stage_file), *device = md (r->device);

      if (r->error != NULL)
        {
          g_autofree char *error = md (r->error);

          g_string_append_printf (s, "| %s | %s | %s | error: %s | | |\n", name, file, device, error);
          continue;
        }
      kernels += r->kernels;
      g_string_append_printf (s, "| %s | %s | %s | %.3f | %.4g | %.1f%% |\n", name, file, device,
                              _wb_report_ms (wb_program_row_get_median_ns (r)), r->kernels, 100.0 * share_of (r, total));
    }
  g_string_append_printf (s, "| **total** | | | **%.3f** | %.4g | |\n", _wb_report_ms (total), kernels);
  for (guint i = 0; i < rows->len; i++)
    if (((const WbProgramRow *) rows->pdata[i])->report_dir != NULL)
      {
        g_string_append (s, "\nEach sub-program's own report is in its folder beside this file (its name as the "
                            "sub-program's), under this file's name.\n");
        break;
      }
  return g_string_free (s, FALSE);
}

/* -- JSON ------------------------------------------------------------------------------------------ */

static void
add_row (JsonBuilder *b, const WbProgramRow *r, gint64 total)
{
  json_builder_begin_object (b);
  _wb_json_add_string (b, "name", r->name);
  _wb_json_add_string (b, "stage", r->stage);
  _wb_json_add_string (b, "stage_file", r->stage_file);
  _wb_json_add_string (b, "device", r->device);
  _wb_json_add_string (b, "status", r->error ? "failed" : "ok");
  _wb_json_add_string (b, "error", r->error);
  _wb_json_add_optional (b, "median_ms", r->error ? -1.0 : _wb_report_ms (wb_program_row_get_median_ns (r)));
  _wb_json_add_optional (b, "iteration_median_ms", r->iteration_median_ns > 0 ? _wb_report_ms (r->iteration_median_ns) : -1.0);
  _wb_json_add_optional (b, "unprofiled_median_ms", r->unprofiled_median_ns > 0 ? _wb_report_ms (r->unprofiled_median_ns) : -1.0);
  _wb_json_add_optional (b, "kernels_per_iteration", r->error ? -1.0 : r->kernels);
  _wb_json_add_optional (b, "share", share_of (r, total));
  _wb_json_add_string (b, "report_dir", r->report_dir);
  json_builder_end_object (b);
}

char *
wb_report_programs_to_json (const GPtrArray *rows, const char *title)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  gint64 total;

  g_return_val_if_fail (rows != NULL, NULL);
  total = wb_report_programs_get_total_ns (rows);
  json_builder_begin_object (b);
  _wb_json_add_string (b, "schema", WB_PROGRAMS_REPORT_SCHEMA);
  _wb_json_add_int (b, "schema_version", WB_PROGRAMS_REPORT_SCHEMA_VERSION);
  _wb_json_add_string (b, "generator", "thunder-wb " PACKAGE_VERSION);
  _wb_json_add_string (b, "title", title);
  _wb_json_add_ms (b, "total_ms", total);
  _wb_json_add_string (b, "total_is", TOTAL_IS);
  _wb_json_add_string (b, "median_is", MEDIAN_IS);
  _wb_json_add_int (b, "failed", count_failed (rows));
  json_builder_set_member_name (b, "programs");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    add_row (b, rows->pdata[i], total);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return _wb_json_finish (b, TRUE);
}

/* -- HTML ------------------------------------------------------------------------------------------ */

static void
append_escaped (GString *s, const char *text)
{
  g_autofree char *safe = wb_output_escape_text (text ? text : "-", -1, WB_ESCAPE_KEEP_LAYOUT);
  g_autofree char *e = g_markup_escape_text (safe, -1);

  g_string_append (s, e);
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}h1{font-size:22px;margin:0 0 8px}"
    "table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f5f5f5}"
    ".note{color:#555;font-size:13px}.fail{color:#b00}";

char *
wb_report_programs_to_html (const GPtrArray *rows, const char *title)
{
  gint64   total;
  GString *s;

  g_return_val_if_fail (rows != NULL, NULL);
  total = wb_report_programs_get_total_ns (rows);
  s = g_string_new ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>thunder-wb profile: ");
  append_escaped (s, title ? title : "model");
  g_string_append_printf (s, "</title>\n<meta name=\"generator\" content=\"thunder-wb %s\">\n<style>%s</style>\n</head>\n<body>\n<h1>",
                          PACKAGE_VERSION, css);
  append_escaped (s, title ? title : "model");
  g_string_append_printf (s, " (%u sub-programs)</h1>\n<p>Total: <b>%.3f ms</b>, " TOTAL_IS ".</p>\n<p class=\"note\">median ms: " MEDIAN_IS ".</p>\n<table>\n<tr><th>sub-program</th><th>stage file</th><th>device</th><th class=\"n\">median "
                             "ms</th><th class=\"n\">kernels/iter</th><th class=\"n\">share</th></tr>\n",
                          rows->len, _wb_report_ms (total));
  for (guint i = 0; i < rows->len; i++)
    {
      const WbProgramRow *r = rows->pdata[i];

      g_string_append (s, "<tr><td>");
      append_escaped (s, r->name);
      g_string_append (s, "</td><td>");
      append_escaped (s, r->stage_file);
      g_string_append (s, "</td><td>");
      append_escaped (s, r->device);
      if (r->error != NULL)
        {
          g_string_append (s, "</td><td class=\"fail\" colspan=\"3\">");
          append_escaped (s, r->error);
          g_string_append (s, "</td></tr>\n");
          continue;
        }
      g_string_append_printf (s, "</td><td class=\"n\">%.3f</td><td class=\"n\">%.4g</td><td class=\"n\">%.1f%%</td></tr>\n",
                              _wb_report_ms (wb_program_row_get_median_ns (r)), r->kernels, 100.0 * share_of (r, total));
    }
  g_string_append_printf (s, "<tr><th>total</th><th></th><th></th><th class=\"n\">%.3f</th><th></th><th></th></tr>\n"
                             "</table>\n</body>\n</html>\n",
                          _wb_report_ms (total));
  return g_string_free (s, FALSE);
}

/* -- writing ------------------------------------------------------------------------------------- */

gboolean
wb_report_write_programs (const GPtrArray *rows, const char *title, WbReportFormat format, const char *path, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (rows != NULL && path != NULL, FALSE);
  switch (format)
    {
    case WB_REPORT_FORMAT_MARKDOWN:
      text = wb_report_programs_to_markdown (rows, title);
      break;
    case WB_REPORT_FORMAT_JSON:
      text = wb_report_programs_to_json (rows, title);
      break;
    case WB_REPORT_FORMAT_HTML:
      text = wb_report_programs_to_html (rows, title);
      break;
    default:
      g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_FORMAT, "%s: the sub-programs' summary has no format %d", path,
                   (int) format);
      return FALSE;
    }
  return wb_output_write (path, text, -1, error);
}
