/* wb-report-ranks.c — the report of a multi-GPU run: its figures per rank, the check, Markdown, HTML, and
 * writing a file (JSON and Chrome trace: wb-report-ranks-json.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-report-ranks-private.h"

/* -- figures -------------------------------------------------------------------------------------- */

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const WbRankRow *x = a, *y = b;

  return (x->run->rank > y->run->rank) - (x->run->rank < y->run->rank);
}

void
_wb_ranks_figures_init (WbRanksFigures  *f,
                        const GPtrArray *runs)
{
  memset (f, 0, sizeof *f);
  f->rows = g_array_new (FALSE, TRUE, sizeof (WbRankRow));
  f->slowest = f->fastest = -1;
  f->aligned = runs->len > 0;
  f->world_size = runs->len;
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun *run = g_ptr_array_index (runs, i);
      WbRankRow    row = { 0 };

      if (run == NULL)
        continue;
      row.run = run;
      row.iteration_ns = wb_run_get_iteration_median_ns (run);
      row.step_ns = run->unprofiled_median_ns > 0 ? run->unprofiled_median_ns : row.iteration_ns;
      row.comm = wb_run_get_comm_stats (run);
      row.exposed_share = row.step_ns > 0 ? (double) row.comm.exposed_comm_ns / (double) row.step_ns : -1.0;
      g_array_append_val (f->rows, row);
      f->world_size = MAX (f->world_size, run->world_size);
      if (run->clock_origin_ns == 0)
        f->aligned = FALSE;
      if (f->group == NULL)
        f->group = run->group;
      if (f->stage == NULL)
        f->stage = run->stage;
    }
  /* by rank, an insertion sort: stable (g_array_sort is not), so one rank's runs keep the given order */
  for (guint i = 1; i < f->rows->len; i++)
    for (guint j = i; j > 0 && compare_rows (&g_array_index (f->rows, WbRankRow, j - 1),
                                             &g_array_index (f->rows, WbRankRow, j)) > 0;
         j--)
      {
        WbRankRow t = g_array_index (f->rows, WbRankRow, j);

        g_array_index (f->rows, WbRankRow, j) = g_array_index (f->rows, WbRankRow, j - 1);
        g_array_index (f->rows, WbRankRow, j - 1) = t;
      }
  f->aligned = f->aligned && f->rows->len > 0;
  {
    /* the waits for the last rank, paired by the ranks' NCCL kernels (rows are in rank order now) */
    g_autoptr (GPtrArray) ordered = g_ptr_array_new ();
    g_autofree gint64 *wait = g_new0 (gint64, MAX (f->rows->len, 1));
    gboolean           known;

    for (guint i = 0; i < f->rows->len; i++)
      g_ptr_array_add (ordered, (gpointer) _wb_ranks_row (f, i)->run);
    known = f->aligned && wb_run_group_measure_peer_wait (ordered, wait);
    for (guint i = 0; i < f->rows->len; i++)
      g_array_index (f->rows, WbRankRow, i).peer_wait_ns = known ? wait[i] : -1;
  }
  for (guint i = 0; i < f->rows->len; i++)
    {
      const WbRankRow *row = _wb_ranks_row (f, i);

      if (f->aligned && (i == 0 || row->run->clock_origin_ns < f->origin_ns))
        f->origin_ns = row->run->clock_origin_ns;
      if (row->step_ns <= 0)
        continue;
      if (f->slowest < 0 || row->step_ns > _wb_ranks_row (f, f->slowest)->step_ns)
        f->slowest = (int) i;
      if (f->fastest < 0 || row->step_ns < _wb_ranks_row (f, f->fastest)->step_ns)
        f->fastest = (int) i;
    }
}

void
_wb_ranks_figures_clear (WbRanksFigures *f)
{
  g_clear_pointer (&f->rows, g_array_unref);
}

gint64
_wb_ranks_offset_ns (const WbRanksFigures *f,
                     const WbRun          *run)
{
  return f->aligned ? run->clock_origin_ns - f->origin_ns : 0;
}

gboolean
wb_report_ranks_check (const GPtrArray *runs,
                       GError         **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  const WbRun *first = NULL;

  if (runs == NULL || runs->len == 0)
    {
      g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS, "a multi-GPU report needs the run of at least one rank");
      return FALSE;
    }
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun *run = g_ptr_array_index (runs, i);

      if (run == NULL)
        {
          g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS, "run %u of the multi-GPU report is missing", i);
          return FALSE;
        }
      if (first == NULL)
        first = run;
      if (g_strcmp0 (run->group, first->group) != 0)
        {
          g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS,
                       "rank %u belongs to group “%s”, rank %u to group “%s”: one report shows one multi-GPU run",
                       first->rank, first->group ? first->group : "(none)", run->rank,
                       run->group ? run->group : "(none)");
          return FALSE;
        }
      if (run->world_size > 1 && run->rank >= run->world_size)
        {
          g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS, "rank %u is not below its world size %u",
                       run->rank, run->world_size);
          return FALSE;
        }
      if (!g_hash_table_add (seen, GUINT_TO_POINTER (run->rank + 1)))
        {
          g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_RANKS, "two runs are rank %u", run->rank);
          return FALSE;
        }
    }
  return TRUE;
}

/* -- Markdown ------------------------------------------------------------------------------------- */

static char *
md (const char *text)
{
  return wb_output_escape_text (text ? text : "-", -1, WB_ESCAPE_MARKDOWN);
}

/* "1.0 MB" with a plain space (g_format_size puts a no-break space, which some terminals garble) */
static char *
format_bytes (guint64 bytes)
{
  g_autofree char *text = g_format_size (bytes);
  g_auto (GStrv) parts = g_strsplit (text, "\u00a0", -1);

  return g_strjoinv (" ", parts);
}

static double
ms (gint64 ns)
{
  return (double) ns / 1e6;
}

/* What the figures are, in words, for both Markdown and HTML (transfer full). */
static char *
figures_line (const WbRanksFigures *f)
{
  guint iters = f->rows->len > 0 ? _wb_ranks_row (f, 0)->comm.iterations : 0;

  return g_strdup_printf ("per rank: medians over %u timed iteration%s; step = the unprofiled median when "
                          "measured, else the iteration median; communication = NCCL kernels and kernels of "
                          "collective calls (union of their intervals), of it waiting for peers = NCCL kernels "
                          "running before the last rank launched the same collective (the ranks' skew; the rest "
                          "is the transfer), compute = the other kernels, exposed = communication not overlapped "
                          "by compute",
                          iters, iters == 1 ? "" : "s");
}

static void
markdown_summary (GString              *s,
                  const WbRanksFigures *f,
                  const char           *title)
{
  g_autofree char *t = md (title ? title : (f->stage ? f->stage : "multi-GPU run"));
  g_autofree char *group = md (f->group);
  g_autofree char *figures = figures_line (f);

  g_string_append_printf (s, "# Multi-GPU profile: %s\n\n", t);
  g_string_append_printf (s, "- ranks: %u shown of world size %u (group %s)\n", f->rows->len, f->world_size, group);
  g_string_append_printf (s, "- clocks: %s\n",
                          f->aligned ? "aligned on each rank's CLOCK_MONOTONIC origin"
                                     : "not aligned (a rank has no clock origin): each rank on its own clock");
  if (f->slowest >= 0)
    {
      const WbRankRow *slow = _wb_ranks_row (f, f->slowest), *fast = _wb_ranks_row (f, f->fastest);

      g_string_append_printf (s, "- slowest rank: %u (step %.3f ms; %.3f ms over the fastest, rank %u)\n",
                              slow->run->rank, ms (slow->step_ns), ms (slow->step_ns - fast->step_ns), fast->run->rank);
    }
  g_string_append_printf (s, "- %s\n\n", figures);
}

static void
markdown_table (GString              *s,
                const WbRanksFigures *f)
{
  g_string_append (s, "| rank | device | status | step ms | iteration ms | compute ms | comm ms | waiting for peers ms | "
                      "overlap ms | exposed comm ms | exposed % of step | collectives | collective bytes |\n");
  g_string_append (s, "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint i = 0; i < f->rows->len; i++)
    {
      const WbRankRow *r = _wb_ranks_row (f, i);
      g_autofree char *device = md (r->run->device_name);
      g_autofree char *size = format_bytes (r->comm.collective_bytes);
      g_autofree char *share =
          r->exposed_share >= 0 ? g_strdup_printf ("%.1f%%", 100.0 * r->exposed_share) : g_strdup ("-");

      g_autofree char *wait = r->peer_wait_ns >= 0 ? g_strdup_printf ("%.3f", ms (r->peer_wait_ns)) : g_strdup ("-");

      g_string_append_printf (s, "| %u%s | %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %.3f | %.3f | %s | %u | %" G_GUINT64_FORMAT " (%s) |\n",
                              r->run->rank, (int) i == f->slowest ? " (slowest)" : "", device,
                              wb_run_status_to_string (r->run->status), ms (r->step_ns), ms (r->iteration_ns),
                              ms (r->comm.compute_ns), ms (r->comm.comm_ns), wait, ms (r->comm.overlap_ns),
                              ms (r->comm.exposed_comm_ns), share, r->comm.collective_calls, r->comm.collective_bytes,
                              size);
    }
  g_string_append (s, "\n");
  for (guint i = 0; i < f->rows->len; i++)
    {
      const WbRankRow *r = _wb_ranks_row (f, i);
      g_autofree char *error = md (r->run->error);

      if (r->run->status == WB_RUN_STATUS_FAILED)
        g_string_append_printf (s, "- rank %u failed: %s\n", r->run->rank, error);
      if (r->comm.comm_kernels == 0 && r->comm.collective_calls == 0)
        g_string_append_printf (s, "- rank %u: no NCCL kernel and no collective call recorded\n", r->run->rank);
    }
}

char *
wb_report_ranks_to_markdown (const GPtrArray *runs,
                             const char      *title)
{
  WbRanksFigures f;
  GString       *s;

  g_return_val_if_fail (runs != NULL, NULL);
  _wb_ranks_figures_init (&f, runs);
  s = g_string_new (NULL);
  markdown_summary (s, &f, title);
  markdown_table (s, &f);
  _wb_ranks_figures_clear (&f);
  while (s->len > 1 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

/* -- HTML ------------------------------------------------------------------------------------------ */

#define BAR_WIDTH 720

static void
append_escaped (GString    *s,
                const char *text)
{
  g_autofree char *safe = wb_output_escape_text (text ? text : "", -1, WB_ESCAPE_KEEP_LAYOUT);
  g_autofree char *e = g_markup_escape_text (safe, -1);

  g_string_append (s, e);
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}"
    "h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f5f5f5}"
    ".note{color:#555;font-size:13px}.fail{color:#b00;font-weight:bold}.slow{background:#fff4e5}"
    "svg text{font:11px system-ui,sans-serif;fill:#333}";

/* Per rank a bar of its step: compute alone, compute overlapped by communication, exposed communication,
 * and the rest of the step (host, idle) */
static void
html_bars (GString              *s,
           const WbRanksFigures *f)
{
  gint64 longest = 1;
  guint  height = 24 * f->rows->len + 30;

  for (guint i = 0; i < f->rows->len; i++)
    longest = MAX (longest, MAX (_wb_ranks_row (f, i)->step_ns,
                                 _wb_ranks_row (f, i)->comm.compute_ns + _wb_ranks_row (f, i)->comm.exposed_comm_ns));
  g_string_append_printf (s, "<h2>Step per rank</h2>\n<svg width=\"%d\" height=\"%u\" role=\"img\">\n", BAR_WIDTH + 90,
                          height);
  for (guint i = 0; i < f->rows->len; i++)
    {
      const WbRankRow *r = _wb_ranks_row (f, i);
      const struct
      {
        gint64      ns;
        const char *color;
        const char *what;
      } parts[] = {
        { r->comm.compute_ns - r->comm.overlap_ns, "#4a7fb5", "compute" },
        { r->comm.overlap_ns, "#8e6cc0", "overlap" },
        { r->comm.exposed_comm_ns, "#d9822b", "exposed communication" },
      };
      double x = 80;
      guint  y = 6 + 24 * i;

      g_string_append_printf (s, "<text x=\"0\" y=\"%u\">rank %u</text>\n", y + 14, r->run->rank);
      g_string_append_printf (s, "<rect x=\"80\" y=\"%u\" width=\"%.1f\" height=\"18\" fill=\"#eee\"/>\n", y,
                              (double) BAR_WIDTH * (double) r->step_ns / (double) longest);
      for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
        {
          double w = (double) BAR_WIDTH * (double) MAX (parts[p].ns, 0) / (double) longest;

          g_string_append_printf (s,
                                  "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"18\" fill=\"%s\"><title>%s "
                                  "%.3f ms</title></rect>\n",
                                  x, y, w, parts[p].color, parts[p].what, ms (parts[p].ns));
          x += w;
        }
    }
  g_string_append_printf (s,
                          "<text x=\"80\" y=\"%u\"><tspan fill=\"#4a7fb5\">■</tspan> compute "
                          "<tspan fill=\"#8e6cc0\">■</tspan> overlap <tspan fill=\"#d9822b\">■</tspan> exposed "
                          "communication <tspan fill=\"#bbb\">■</tspan> rest of the step</text>\n</svg>\n",
                          height - 6);
}

static void
html_table (GString              *s,
            const WbRanksFigures *f)
{
  g_string_append (s, "<h2>Ranks</h2>\n<table>\n<tr><th class=\"n\">rank</th><th>device</th><th>status</th>"
                      "<th class=\"n\">step ms</th><th class=\"n\">iteration ms</th><th class=\"n\">compute ms</th>"
                      "<th class=\"n\">comm ms</th><th class=\"n\">waiting for peers ms</th><th class=\"n\">overlap ms</th>"
                      "<th class=\"n\">exposed comm ms</th>"
                      "<th class=\"n\">exposed % of step</th><th class=\"n\">collectives</th>"
                      "<th class=\"n\">collective bytes</th></tr>\n");
  for (guint i = 0; i < f->rows->len; i++)
    {
      const WbRankRow *r = _wb_ranks_row (f, i);
      g_autofree char *size = format_bytes (r->comm.collective_bytes);

      g_string_append_printf (s, "<tr%s><td class=\"n\">%u%s</td><td>", (int) i == f->slowest ? " class=\"slow\"" : "",
                              r->run->rank, (int) i == f->slowest ? " (slowest)" : "");
      append_escaped (s, r->run->device_name ? r->run->device_name : "-");
      g_string_append_printf (s, "</td><td%s>%s", r->run->status == WB_RUN_STATUS_FAILED ? " class=\"fail\"" : "",
                              wb_run_status_to_string (r->run->status));
      if (r->run->error != NULL)
        {
          g_string_append (s, ": ");
          append_escaped (s, r->run->error);
        }
      g_string_append_printf (s,
                              "</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td>"
                              "<td class=\"n\">%.3f</td>",
                              ms (r->step_ns), ms (r->iteration_ns), ms (r->comm.compute_ns), ms (r->comm.comm_ns));
      if (r->peer_wait_ns >= 0)
        g_string_append_printf (s, "<td class=\"n\">%.3f</td>", ms (r->peer_wait_ns));
      else
        g_string_append (s, "<td class=\"n\">-</td>");
      g_string_append_printf (s, "<td class=\"n\">%.3f</td><td class=\"n\">%.3f</td>", ms (r->comm.overlap_ns),
                              ms (r->comm.exposed_comm_ns));
      if (r->exposed_share >= 0)
        g_string_append_printf (s, "<td class=\"n\">%.1f%%</td>", 100.0 * r->exposed_share);
      else
        g_string_append (s, "<td class=\"n\">-</td>");
      g_string_append_printf (s, "<td class=\"n\">%u</td><td class=\"n\">%s</td></tr>\n", r->comm.collective_calls,
                              size);
    }
  g_string_append (s, "</table>\n");
}

char *
wb_report_ranks_to_html (const GPtrArray *runs,
                         const char      *title)
{
  WbRanksFigures   f;
  GString         *s;
  g_autofree char *figures = NULL;

  g_return_val_if_fail (runs != NULL, NULL);
  _wb_ranks_figures_init (&f, runs);
  figures = figures_line (&f);
  s = g_string_new ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>thunder-wb "
                    "multi-GPU profile: ");
  append_escaped (s, title ? title : "run");
  g_string_append_printf (s, "</title>\n<meta name=\"generator\" content=\"thunder-wb %s\">\n<style>%s</style>\n"
                             "</head>\n<body>\n<h1>Multi-GPU profile: ",
                          PACKAGE_VERSION, css);
  append_escaped (s, title ? title : (f.stage ? f.stage : "multi-GPU run"));
  g_string_append_printf (s, "</h1>\n<p>%u rank%s shown of world size %u; group ", f.rows->len,
                          f.rows->len == 1 ? "" : "s", f.world_size);
  append_escaped (s, f.group ? f.group : "(none)");
  g_string_append_printf (s, "; clocks %s.</p>\n", f.aligned ? "aligned" : "not aligned (a rank has no clock origin)");
  if (f.slowest >= 0)
    g_string_append_printf (s, "<p>Slowest rank: <b>%u</b> (step %.3f ms; %.3f ms over the fastest, rank %u).</p>\n",
                            _wb_ranks_row (&f, f.slowest)->run->rank, ms (_wb_ranks_row (&f, f.slowest)->step_ns),
                            ms (_wb_ranks_row (&f, f.slowest)->step_ns - _wb_ranks_row (&f, f.fastest)->step_ns),
                            _wb_ranks_row (&f, f.fastest)->run->rank);
  g_string_append (s, "<p class=\"note\">");
  append_escaped (s, figures);
  g_string_append (s, "</p>\n");
  html_bars (s, &f);
  html_table (s, &f);
  g_string_append (s, "</body>\n</html>\n");
  _wb_ranks_figures_clear (&f);
  return g_string_free (s, FALSE);
}

/* -- writing ------------------------------------------------------------------------------------- */

gboolean
wb_report_write_ranks (const GPtrArray *runs,
                       const char      *title,
                       WbReportFormat   format,
                       const char      *path,
                       GError         **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  if (!wb_report_ranks_check (runs, error))
    return FALSE;
  switch (format)
    {
    case WB_REPORT_FORMAT_MARKDOWN:
      text = wb_report_ranks_to_markdown (runs, title);
      break;
    case WB_REPORT_FORMAT_JSON:
      text = wb_report_ranks_to_json (runs, title);
      break;
    case WB_REPORT_FORMAT_HTML:
      text = wb_report_ranks_to_html (runs, title);
      break;
    case WB_REPORT_FORMAT_CHROME_TRACE:
      text = wb_report_ranks_to_chrome_trace (runs, title);
      break;
    default:
      g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_FORMAT, "%s: unknown report format %d", path, (int) format);
      return FALSE;
    }
  return wb_output_write (path, text, -1, error);
}
