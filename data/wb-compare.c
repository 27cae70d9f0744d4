/* wb-compare.c — two runs side by side: per region and for the whole iteration, with a noise verdict
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "wb-data.h"

#define NOISE_RULE                                                                                      \
  "noise = interquartile range (Q3 - Q1) of a run's per-iteration times (their range, max - min, with " \
  "fewer than 4 iterations); a difference counts when |median B - median A| > max(noise A, noise B); "  \
  "fewer than 5 iterations in either run: unknown (too few to tell a difference from noise)"

const char *
wb_compare_verdict_to_string (WbCompareVerdict verdict)
{
  switch (verdict)
    {
    case WB_COMPARE_WITHIN_NOISE:
      return "within noise";
    case WB_COMPARE_SLOWER:
      return "slower";
    case WB_COMPARE_FASTER:
      return "faster";
    case WB_COMPARE_ONLY_A:
      return "only in A";
    case WB_COMPARE_ONLY_B:
      return "only in B";
    case WB_COMPARE_UNKNOWN:
    default:
      return "unknown";
    }
}

static void
compare_row_free (WbCompareRow *row)
{
  if (row == NULL)
    return;
  g_free (row->name);
  g_free (row->executor_a);
  g_free (row->executor_b);
  g_free (row->name_b);
  g_free (row->region);
  g_free (row);
}

static gint64
noise_ns (const GArray *times)
{
  const gint64 *t = (const gint64 *) times->data;
  gint64        lo = 0;
  gint64        hi = 0;

  if (times->len < 2)
    return 0;
  if (times->len >= WB_COMPARE_MIN_IQR_ITERATIONS)
    {
      wb_times_quartiles_ns (t, times->len, &lo, &hi);
      return hi - lo;
    }
  lo = hi = t[0];
  for (guint i = 1; i < times->len; i++)
    {
      lo = MIN (lo, t[i]);
      hi = MAX (hi, t[i]);
    }
  return hi - lo;
}

/* make_row: @times_a/@times_b nullable (the region is absent from that run). */
static WbCompareRow *
make_row (const char   *name,
          const char   *executor_a,
          const char   *executor_b,
          gint64        median_a,
          gint64        median_b,
          const GArray *times_a,
          const GArray *times_b)
{
  WbCompareRow *row = g_new0 (WbCompareRow, 1);

  row->name = g_strdup (name);
  row->executor_a = g_strdup (executor_a);
  row->executor_b = g_strdup (executor_b);
  row->diff_pct = NAN;

  if (times_a == NULL || times_b == NULL)
    {
      row->median_a_ns = times_a ? median_a : 0;
      row->median_b_ns = times_b ? median_b : 0;
      row->n_a = times_a ? times_a->len : 0;
      row->n_b = times_b ? times_b->len : 0;
      row->verdict = times_a ? WB_COMPARE_ONLY_A : WB_COMPARE_ONLY_B;
      return row;
    }

  row->median_a_ns = median_a;
  row->median_b_ns = median_b;
  row->n_a = times_a->len;
  row->n_b = times_b->len;
  row->noise_a_ns = noise_ns (times_a);
  row->noise_b_ns = noise_ns (times_b);
  row->threshold_ns = MAX (row->noise_a_ns, row->noise_b_ns);
  row->diff_ns = median_b - median_a;
  if (median_a != 0)
    row->diff_pct = 100.0 * (double) row->diff_ns / (double) median_a;

  row->verdict = wb_compare_verdict (times_a, times_b, NULL);
  return row;
}

WbCompareVerdict
wb_compare_verdict (const GArray *times_a, const GArray *times_b, gint64 *threshold_ns)
{
  gint64 threshold, diff;

  g_return_val_if_fail (times_a != NULL && times_b != NULL, WB_COMPARE_UNKNOWN);
  threshold = MAX (noise_ns (times_a), noise_ns (times_b));
  if (threshold_ns != NULL)
    *threshold_ns = threshold;
  if (times_a->len < WB_COMPARE_MIN_ITERATIONS || times_b->len < WB_COMPARE_MIN_ITERATIONS)
    return WB_COMPARE_UNKNOWN;
  diff = wb_times_median_ns ((const gint64 *) times_b->data, times_b->len) - wb_times_median_ns ((const gint64 *) times_a->data, times_a->len);
  if (ABS (diff) <= threshold)
    return WB_COMPARE_WITHIN_NOISE;
  return diff > 0 ? WB_COMPARE_SLOWER : WB_COMPARE_FASTER;
}

/* Whether @x and @y, rows with one key, are a region and the call unfused out of it that gave it its key. */
static gboolean
region_and_its_call (const WbRegionStats *x, const WbRegionStats *y)
{
  return (g_strcmp0 (x->unfused_from, x->key) == 0) != (g_strcmp0 (y->unfused_from, y->key) == 0);
}

const WbRegionStats *
wb_compare_match (const WbRegionStats *ra, const WbRun *b, const WbRun *a)
{
  g_return_val_if_fail (ra != NULL && b != NULL, NULL);
  /* names are numbers handed out in order: once regions are re-fused they say nothing about contents */
  if (ra->key != NULL && wb_run_has_keys (b))
    {
      for (guint i = 0; i < b->regions->len; i++)
        {
          const WbRegionStats *rb = b->regions->pdata[i];

          if (g_strcmp0 (rb->key, ra->key) == 0 && !region_and_its_call (ra, rb))
            return rb;
        }
      return NULL;
    }
  return wb_run_find_region (b, ra->name);
}

const WbRegionStats *
wb_compare_unfused_from (const WbRegionStats *r, const WbRun *other)
{
  g_return_val_if_fail (r != NULL && other != NULL, NULL);
  for (guint i = 0; r->unfused_from != NULL && i < other->regions->len; i++)
    {
      const WbRegionStats *o = other->regions->pdata[i];

      if (o->unfused_from == NULL && g_strcmp0 (o->key, r->unfused_from) == 0)
        return o;
    }
  return NULL;
}

gboolean
wb_compare_unfused_in (const WbRegionStats *r, const WbRun *other)
{
  g_return_val_if_fail (r != NULL && other != NULL, FALSE);
  for (guint i = 0; r->unfused_from == NULL && r->key != NULL && i < other->regions->len; i++)
    if (g_strcmp0 (((const WbRegionStats *) other->regions->pdata[i])->unfused_from, r->key) == 0)
      return TRUE;
  return FALSE;
}

char *
wb_compare_row_verdict (const WbCompareRow *row)
{
  g_return_val_if_fail (row != NULL, NULL);
  switch (row->fusion)
    {
    case WB_COMPARE_FUSION_UNFUSED_IN_B:
      return g_strdup ("unfused in B");
    case WB_COMPARE_FUSION_UNFUSED_FROM_A:
      return g_strdup_printf ("unfused from %s", row->region);
    case WB_COMPARE_FUSION_FUSED_IN_B:
      return g_strdup ("fused in B");
    case WB_COMPARE_FUSION_FUSED_INTO_B:
      return g_strdup_printf ("fused into %s in B", row->region);
    case WB_COMPARE_FUSION_SAME:
    default:
      break;
    }
  return g_strdup_printf ("%s%s", wb_compare_verdict_to_string (row->verdict), row->contents_changed ? ", changed contents" : "");
}

WbComparison *
wb_comparison_new (const WbRun *a,
                   const WbRun *b)
{
  WbComparison *c;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  c = g_new0 (WbComparison, 1);
  c->a = wb_run_copy (a);
  c->b = wb_run_copy (b);
  c->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) compare_row_free);
  c->notes = g_ptr_array_new_with_free_func (g_free);

  c->iteration = make_row (NULL, NULL, NULL, wb_run_get_iteration_median_ns (a),
                           wb_run_get_iteration_median_ns (b), a->iteration_ns, b->iteration_ns);

  for (guint i = 0; i < a->regions->len; i++)
    {
      const WbRegionStats *ra = g_ptr_array_index (a->regions, i);
      const WbRegionStats *rb = wb_compare_match (ra, b, a);
      WbCompareRow        *row = make_row (ra->name, ra->executor, rb ? rb->executor : NULL, ra->median_ns, rb ? rb->median_ns : 0,
                                           ra->times_ns, rb ? rb->times_ns : NULL);

      if (rb != NULL && g_strcmp0 (rb->name, ra->name) != 0)
        row->name_b = g_strdup (rb->name);
      row->contents_changed = rb != NULL && ra->contents != NULL && rb->contents != NULL && strcmp (ra->contents, rb->contents) != 0;
      if (rb == NULL)
        {
          const WbRegionStats *region = wb_compare_unfused_from (ra, b);

          if (wb_compare_unfused_in (ra, b))
            row->fusion = WB_COMPARE_FUSION_UNFUSED_IN_B;
          else if (region != NULL)
            row->fusion = WB_COMPARE_FUSION_FUSED_INTO_B, row->region = g_strdup (region->name);
        }
      g_ptr_array_add (c->regions, row);
    }
  for (guint i = 0; i < b->regions->len; i++)
    {
      const WbRegionStats *rb = g_ptr_array_index (b->regions, i);
      const WbRegionStats *region;
      WbCompareRow        *row;

      if (wb_compare_match (rb, a, b) != NULL)
        continue;
      row = make_row (rb->name, NULL, rb->executor, 0, rb->median_ns, NULL, rb->times_ns);
      if ((region = wb_compare_unfused_from (rb, a)) != NULL)
        row->fusion = WB_COMPARE_FUSION_UNFUSED_FROM_A, row->region = g_strdup (region->name);
      else if (wb_compare_unfused_in (rb, a))
        row->fusion = WB_COMPARE_FUSION_FUSED_IN_B;
      g_ptr_array_add (c->regions, row);
    }

  if (g_strcmp0 (a->device_model, b->device_model) != 0 || g_strcmp0 (a->device_name, b->device_name) != 0)
    g_ptr_array_add (c->notes, g_strdup_printf ("the runs are on different devices (%s %s, %s %s): compare "
                                                "timings only within one machine",
                                                a->device_name ? a->device_name : "?",
                                                a->device_model ? a->device_model : "",
                                                b->device_name ? b->device_name : "?",
                                                b->device_model ? b->device_model : ""));
  if (a->status != WB_RUN_STATUS_OK)
    g_ptr_array_add (c->notes, g_strdup_printf ("run A failed: %s", a->error ? a->error : "no message"));
  if (b->status != WB_RUN_STATUS_OK)
    g_ptr_array_add (c->notes, g_strdup_printf ("run B failed: %s", b->error ? b->error : "no message"));
  if (g_strcmp0 (a->stage, b->stage) != 0)
    g_ptr_array_add (c->notes, g_strdup_printf ("the runs ran different stages (%s, %s)",
                                                a->stage ? a->stage : "-", b->stage ? b->stage : "-"));
  return c;
}

void
wb_comparison_free (WbComparison *comparison)
{
  if (comparison == NULL)
    return;
  wb_run_free (comparison->a);
  wb_run_free (comparison->b);
  compare_row_free (comparison->iteration);
  g_ptr_array_unref (comparison->regions);
  g_ptr_array_unref (comparison->notes);
  g_free (comparison);
}

/* -- output -------------------------------------------------------------------------------------- */

static double
ms (gint64 ns)
{
  return (double) ns / 1e6;
}

static char *
format_time_us (gint64 us)
{
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);

  return t ? g_date_time_format (t, "%Y-%m-%d %H:%M:%S") : g_strdup ("?");
}

/* md_cell: @text escaped for a Markdown table cell (no "|", no newline); "-" for NULL or empty. */
static void
md_cell (GString    *out,
         const char *text)
{
  g_string_append (out, " ");
  if (text == NULL || *text == '\0')
    g_string_append (out, "-");
  else
    {
      /* control characters as \xNN, Markdown's and HTML's special characters ("|" too) backslashed */
      g_autofree char *safe = wb_output_escape_text (text, -1, WB_ESCAPE_MARKDOWN);

      g_string_append (out, safe);
    }
  g_string_append (out, " |");
}

static void
md_number (GString    *out,
           const char *format,
           double      value,
           gboolean    present)
{
  if (!present || isnan (value))
    g_string_append (out, " - |");
  else
    {
      g_string_append_c (out, ' ');
      g_string_append_printf (out, format, value);
      g_string_append (out, " |");
    }
}

static void
md_row (GString            *out,
        const WbCompareRow *row)
{
  gboolean         both = row->verdict != WB_COMPARE_ONLY_A && row->verdict != WB_COMPARE_ONLY_B;
  g_autofree char *verdict = wb_compare_row_verdict (row);
  g_autofree char *name = row->name_b ? g_strdup_printf ("%s (B: %s)", row->name, row->name_b) : NULL;

  g_string_append (out, "|");
  if (row->name == NULL)
    g_string_append (out, " **whole iteration** |");
  else
    md_cell (out, name ? name : row->name);
  md_cell (out, row->executor_a);
  md_cell (out, row->executor_b);
  md_number (out, "%.4f", ms (row->median_a_ns), row->verdict != WB_COMPARE_ONLY_B);
  md_number (out, "%.4f", ms (row->median_b_ns), row->verdict != WB_COMPARE_ONLY_A);
  md_number (out, "%+.4f", ms (row->diff_ns), both);
  md_number (out, "%+.1f%%", row->diff_pct, both);
  md_number (out, "%.4f", ms (row->threshold_ns), both && row->verdict != WB_COMPARE_UNKNOWN);
  if (row->verdict == WB_COMPARE_SLOWER || row->verdict == WB_COMPARE_FASTER)
    g_string_append_printf (out, " **%s** |\n", verdict);
  else
    g_string_append_printf (out, " %s |\n", verdict);
}

static void
md_run_line (GString    *out,
             const char *what,
             const char *a,
             const char *b)
{
  g_string_append_printf (out, "| %s |", what);
  md_cell (out, a);
  md_cell (out, b);
  g_string_append_c (out, '\n');
}

static double
pct_of (gint64 part,
        gint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

/* describe_attribution: "1.234 ms kernel time per iteration, 98.0% attributed (by correlation 95.0%, by
 * time range 3.0%); kernel records: 120 by correlation, 5 by time range, 2 unattributed; 0 dropped", or
 * NULL for a run without attribution (transfer full). */
static char *
describe_attribution (const WbRun *run)
{
  const WbKernelAttribution *a = &run->attribution;
  guint                      n = MAX (run->iteration_ns->len, 1);

  if (wb_kernel_attribution_is_empty (a))
    return NULL;
  return g_strdup_printf ("%.3f ms kernel time per iteration, %.1f%% attributed (by correlation %.1f%%, by time "
                          "range %.1f%%); kernel records: %u by correlation, %u by time range, %u unattributed; "
                          "%" G_GUINT64_FORMAT " dropped",
                          ms (a->kernel_ns_total) / n, pct_of (a->kernel_ns_attributed, a->kernel_ns_total),
                          pct_of (a->kernel_ns_attributed - a->kernel_ns_by_time_range, a->kernel_ns_total),
                          pct_of (a->kernel_ns_by_time_range, a->kernel_ns_total), a->kernels_by_correlation,
                          a->kernels_by_time_range, a->kernels_unattributed, run->dropped_records);
}

/* describe_memops: "memcpy 3 (4096 bytes, 0.012 ms), memset 1 (...), 4 attributed" (totals over the timed
 * iterations), or NULL for a run without attribution (transfer full). */
static char *
describe_memops (const WbRun *run)
{
  const WbKernelAttribution *a = &run->attribution;

  if (wb_kernel_attribution_is_empty (a))
    return NULL;
  return g_strdup_printf ("memcpy %u (%" G_GUINT64_FORMAT " bytes, %.3f ms), memset %u (%" G_GUINT64_FORMAT
                          " bytes, %.3f ms), %u attributed",
                          a->memcpy_count, a->memcpy_bytes, ms (a->memcpy_ns), a->memset_count, a->memset_bytes,
                          ms (a->memset_ns), a->memops_attributed);
}

char *
wb_comparison_to_markdown (const WbComparison *c,
                           const char         *title)
{
  GString         *out = g_string_new (NULL);
  g_autofree char *ida = NULL, *idb = NULL, *deva = NULL, *devb = NULL, *ta = NULL, *tb = NULL;
  g_autofree char *na = NULL, *nb = NULL, *sa = NULL, *sb = NULL;

  g_return_val_if_fail (c != NULL, NULL);

  ida = g_strdup_printf ("run %" G_GINT64_FORMAT, c->a->id);
  idb = g_strdup_printf ("run %" G_GINT64_FORMAT, c->b->id);
  g_string_append_printf (out, "# Comparing %s (A) with %s (B)\n\n", ida, idb);
  if (title != NULL)
    {
      g_autofree char *safe = wb_output_escape_text (title, -1, WB_ESCAPE_MARKDOWN);

      g_string_append_printf (out, "Session: %s\n\n", safe);
    }

  deva = g_strdup_printf ("%s%s%s", c->a->device_name ? c->a->device_name : "?",
                          c->a->device_model ? " " : "", c->a->device_model ? c->a->device_model : "");
  devb = g_strdup_printf ("%s%s%s", c->b->device_name ? c->b->device_name : "?",
                          c->b->device_model ? " " : "", c->b->device_model ? c->b->device_model : "");
  ta = format_time_us (c->a->start_time_us);
  tb = format_time_us (c->b->start_time_us);
  na = g_strdup_printf ("%u (warm-up %u)", c->a->iteration_ns->len, c->a->warmup);
  nb = g_strdup_printf ("%u (warm-up %u)", c->b->iteration_ns->len, c->b->warmup);
  sa = g_strdup_printf ("%s%s%s", wb_run_status_to_string (c->a->status), c->a->error ? ": " : "",
                        c->a->error ? c->a->error : "");
  sb = g_strdup_printf ("%s%s%s", wb_run_status_to_string (c->b->status), c->b->error ? ": " : "",
                        c->b->error ? c->b->error : "");

  g_string_append_printf (out, "| | A: %s | B: %s |\n|---|---|---|\n", ida, idb);
  md_run_line (out, "label", c->a->label, c->b->label);
  md_run_line (out, "device", deva, devb);
  md_run_line (out, "started (UTC)", ta, tb);
  md_run_line (out, "status", sa, sb);
  md_run_line (out, "timed iterations", na, nb);
  md_run_line (out, "assignment", c->a->assignment, c->b->assignment);
  md_run_line (out, "stage", c->a->stage, c->b->stage);
  if (!wb_kernel_attribution_is_empty (&c->a->attribution) || !wb_kernel_attribution_is_empty (&c->b->attribution))
    {
      g_autofree char *ka = describe_attribution (c->a), *kb = describe_attribution (c->b);
      g_autofree char *ma = describe_memops (c->a), *mb = describe_memops (c->b);

      md_run_line (out, "kernel records", c->a->attribution.kernel_source, c->b->attribution.kernel_source);
      md_run_line (out, "kernel attribution", ka, kb);
      md_run_line (out, "memcpy, memset", ma, mb);
    }
  g_string_append_c (out, '\n');

  g_string_append (out, "| region | executor A | executor B | A ms | B ms | Δ ms | Δ % | noise ms | verdict |\n"
                        "|---|---|---|---:|---:|---:|---:|---:|---|\n");
  for (guint i = 0; i < c->regions->len; i++)
    md_row (out, g_ptr_array_index (c->regions, i));
  md_row (out, c->iteration);
  g_string_append_c (out, '\n');

  g_string_append_printf (out, "Times are medians over the timed iterations (A: %u, B: %u), in ms; "
                               "Δ = B − A. Rule: %s.\n",
                          c->a->iteration_ns->len, c->b->iteration_ns->len, NOISE_RULE);
  for (guint i = 0; i < c->notes->len; i++)
    {
      g_autofree char *note = wb_output_escape_text (g_ptr_array_index (c->notes, i), -1, WB_ESCAPE_MARKDOWN);

      g_string_append_printf (out, "\nNote: %s.\n", note);
    }
  return g_string_free (out, FALSE);
}

static void
json_add_string (JsonBuilder *b,
                 const char  *name,
                 const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
json_add_ms (JsonBuilder *b,
             const char  *name,
             gint64       ns,
             gboolean     present)
{
  json_builder_set_member_name (b, name);
  if (present)
    json_builder_add_double_value (b, ms (ns));
  else
    json_builder_add_null_value (b);
}

static void
json_add_int (JsonBuilder *b,
              const char  *name,
              gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
json_add_memops (JsonBuilder *b,
                 const char  *name,
                 guint32      count,
                 guint64      bytes,
                 gint64       ns)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_add_int (b, "count", count);
  json_add_int (b, "bytes", (gint64) bytes);
  json_add_ms (b, "ms", ns, TRUE);
  json_builder_end_object (b);
}

/* json_attribution: "attribution": the run's kernel attribution with the profile report's keys (totals
 * over the timed iterations, in ms), or null for a run without one. */
static void
json_attribution (JsonBuilder *b,
                  const WbRun *run)
{
  const WbKernelAttribution *a = &run->attribution;

  json_builder_set_member_name (b, "attribution");
  if (wb_kernel_attribution_is_empty (a))
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_add_string (b, "kernel_source", a->kernel_source);
  json_add_ms (b, "kernel_ms_total", a->kernel_ns_total, TRUE);
  json_add_ms (b, "kernel_ms_attributed", a->kernel_ns_attributed, TRUE);
  json_add_ms (b, "kernel_ms_by_correlation", a->kernel_ns_attributed - a->kernel_ns_by_time_range, TRUE);
  json_add_ms (b, "kernel_ms_by_time_range", a->kernel_ns_by_time_range, TRUE);
  json_builder_set_member_name (b, "unattributed_pct");
  json_builder_add_double_value (b, a->kernel_ns_total > 0 ? 100.0 - pct_of (a->kernel_ns_attributed, a->kernel_ns_total) : 0.0);
  json_add_int (b, "kernels_by_correlation", a->kernels_by_correlation);
  json_add_int (b, "kernels_by_time_range", a->kernels_by_time_range);
  json_add_int (b, "kernels_unattributed", a->kernels_unattributed);
  json_add_memops (b, "memcpy", a->memcpy_count, a->memcpy_bytes, a->memcpy_ns);
  json_add_memops (b, "memset", a->memset_count, a->memset_bytes, a->memset_ns);
  json_add_int (b, "memops_attributed", a->memops_attributed);
  json_add_int (b, "dropped_records", (gint64) run->dropped_records);
  json_builder_end_object (b);
}

static void
json_run (JsonBuilder *b,
          const char  *name,
          const WbRun *run)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, run->id);
  json_add_string (b, "label", run->label);
  json_add_string (b, "device_name", run->device_name);
  json_add_string (b, "device_model", run->device_model);
  json_builder_set_member_name (b, "started_at_us");
  json_builder_add_int_value (b, run->start_time_us);
  json_add_string (b, "status", wb_run_status_to_string (run->status));
  json_add_string (b, "error", run->error);
  json_add_string (b, "assignment", run->assignment);
  json_add_string (b, "stage", run->stage);
  json_builder_set_member_name (b, "iterations");
  json_builder_add_int_value (b, run->iteration_ns->len);
  json_attribution (b, run);
  json_builder_end_object (b);
}

static void
json_row (JsonBuilder        *b,
          const WbCompareRow *row)
{
  gboolean both = row->verdict != WB_COMPARE_ONLY_A && row->verdict != WB_COMPARE_ONLY_B;

  json_builder_begin_object (b);
  json_add_string (b, "name", row->name);
  json_add_string (b, "executor_a", row->executor_a);
  json_add_string (b, "executor_b", row->executor_b);
  json_add_ms (b, "median_a_ms", row->median_a_ns, row->verdict != WB_COMPARE_ONLY_B);
  json_add_ms (b, "median_b_ms", row->median_b_ns, row->verdict != WB_COMPARE_ONLY_A);
  json_add_ms (b, "diff_ms", row->diff_ns, both);
  json_builder_set_member_name (b, "diff_pct");
  if (both && !isnan (row->diff_pct))
    json_builder_add_double_value (b, row->diff_pct);
  else
    json_builder_add_null_value (b);
  json_add_ms (b, "noise_ms", row->threshold_ns, both && row->verdict != WB_COMPARE_UNKNOWN);
  json_builder_set_member_name (b, "n_a");
  json_builder_add_int_value (b, row->n_a);
  json_builder_set_member_name (b, "n_b");
  json_builder_add_int_value (b, row->n_b);
  json_add_string (b, "verdict", wb_compare_verdict_to_string (row->verdict));
  if (row->name != NULL)
    {
      g_autofree char *text = wb_compare_row_verdict (row);

      /* the match by key: B's name when it differs, whether the contents changed, and the unfuse */
      json_add_string (b, "name_b", row->name_b);
      json_builder_set_member_name (b, "contents_changed");
      json_builder_add_boolean_value (b, row->contents_changed);
      json_add_string (b, "verdict_text", text);
    }
  json_builder_set_member_name (b, "exceeds_noise");
  json_builder_add_boolean_value (b, row->verdict == WB_COMPARE_SLOWER || row->verdict == WB_COMPARE_FASTER);
  json_builder_end_object (b);
}

char *
wb_comparison_to_json (const WbComparison *c,
                       const char         *title)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  char *text;

  g_return_val_if_fail (c != NULL, NULL);

  json_builder_begin_object (b);
  json_add_string (b, "schema", "thunder-wb/compare");
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  json_add_string (b, "session", title);
  json_add_string (b, "units", "ms");
  json_run (b, "run_a", c->a);
  json_run (b, "run_b", c->b);
  json_builder_set_member_name (b, "iteration");
  json_row (b, c->iteration);
  json_builder_set_member_name (b, "regions");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->regions->len; i++)
    json_row (b, g_ptr_array_index (c->regions, i));
  json_builder_end_array (b);
  json_add_string (b, "noise_rule", NOISE_RULE);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->notes->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (c->notes, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  return text;
}
