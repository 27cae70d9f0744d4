/* wb-report.c — WbReport: a run and its derived figures (gap, rates, roofline, kernels, lines); writing
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-report-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-report-error-quark, wb_report_error)
/* clang-format on */

#if WB_HAVE_CXA_DEMANGLE
/* The C++ runtime's demangler (libstdc++'s abi::__cxa_demangle from <cxxabi.h>, a C symbol): returns a
 * malloc'ed string and status 0, or NULL and a negative status. */
char *__cxa_demangle (const char *mangled_name,
                      char       *output_buffer,
                      size_t     *length,
                      int        *status);
#endif

char *
wb_report_demangle (const char *name)
{
#if WB_HAVE_CXA_DEMANGLE
  int   status = -1;
  char *demangled;
  char *copy;

  g_return_val_if_fail (name != NULL, NULL);
  /* Only mangled function names: __cxa_demangle also reads type names ("f" -> "float"). */
  if (!g_str_has_prefix (name, "_Z"))
    return g_strdup (name);
  demangled = __cxa_demangle (name, NULL, NULL, &status);
  if (demangled == NULL || status != 0)
    {
      free (demangled);
      return g_strdup (name);
    }
  copy = g_strdup (demangled);
  free (demangled);
  return copy;
#else
  g_return_val_if_fail (name != NULL, NULL);
  return g_strdup (name);
#endif
}

const char *
_wb_report_kernel_name (const WbReport *report,
                        const char     *name)
{
  const char *shown;

  if (name == NULL)
    return NULL;
  shown = report->display_names ? g_hash_table_lookup (report->display_names, name) : NULL;
  return shown ? shown : name;
}

gboolean
wb_report_format_from_path (const char     *path,
                            WbReportFormat *format)
{
  const char *dot;

  g_return_val_if_fail (path != NULL && format != NULL, FALSE);
  dot = strrchr (path, '.');
  if (dot == NULL || strchr (dot, '/') != NULL)
    return FALSE;
  if (g_ascii_strcasecmp (dot, ".md") == 0 || g_ascii_strcasecmp (dot, ".markdown") == 0)
    *format = WB_REPORT_FORMAT_MARKDOWN;
  else if (g_ascii_strcasecmp (dot, ".json") == 0)
    *format = WB_REPORT_FORMAT_JSON;
  else if (g_ascii_strcasecmp (dot, ".html") == 0 || g_ascii_strcasecmp (dot, ".htm") == 0)
    *format = WB_REPORT_FORMAT_HTML;
  else
    return FALSE;
  return TRUE;
}

static void
kernel_clear (gpointer data)
{
  WbReportKernel *k = data;

  g_free (k->name);
  g_free (k->mangled);
  g_free (k->region);
  g_free (k);
}

WbReport *
wb_report_new (const WbRun            *run,
               const WbDeviceCeilings *ceilings,
               const char             *title,
               const char             *stage_text)
{
  WbReport *r;

  g_return_val_if_fail (run != NULL, NULL);
  r = g_new0 (WbReport, 1);
  r->run = wb_run_copy (run);
  r->ceilings = ceilings ? wb_device_ceilings_copy (ceilings) : NULL;
  r->title = g_strdup (title);
  r->stage_text = g_strdup (stage_text);
  r->kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->notes = g_ptr_array_new_with_free_func (g_free);
  r->warnings = g_ptr_array_new_with_free_func (g_free);
  _wb_report_derive (r);
  return r;
}

static void
clear_derived (WbReport *r)
{
  g_clear_pointer (&r->gap_ns, g_array_unref);
  g_clear_pointer (&r->by_time, g_ptr_array_unref);
  g_clear_pointer (&r->regions, g_array_unref);
  g_clear_pointer (&r->kernels, g_ptr_array_unref);
  g_clear_pointer (&r->lines, g_array_unref);
  g_clear_pointer (&r->display_names, g_hash_table_unref);
  g_clear_pointer (&r->region_rows, g_hash_table_unref);
  g_clear_pointer (&r->region_next, g_array_unref);
}

void
wb_report_free (WbReport *report)
{
  if (report == NULL)
    return;
  clear_derived (report);
  wb_run_free (report->run);
  g_clear_pointer (&report->ceilings, wb_device_ceilings_free);
  g_hash_table_unref (report->kinds);
  g_ptr_array_unref (report->notes);
  g_ptr_array_unref (report->warnings);
  g_clear_pointer (&report->estimates, g_ptr_array_unref);
  g_free (report->title);
  g_free (report->stage_text);
  g_free (report);
}

void
wb_report_set_region_kind (WbReport   *report,
                           const char *name,
                           gboolean    is_region)
{
  g_return_if_fail (report != NULL && name != NULL);
  g_hash_table_replace (report->kinds, g_strdup (name), GINT_TO_POINTER (is_region ? 1 : 2));
  /* the one row of that name changes: re-deriving everything per call was quadratic in the regions (a
   * ResNet-50 stage marks 5,776 of them) */
  for (guint row = GPOINTER_TO_UINT (g_hash_table_lookup (report->region_rows, name)); row != 0;
       row = g_array_index (report->region_next, guint, row - 1))
    g_array_index (report->regions, WbReportRegion, row - 1).is_region = is_region;
}

void
wb_report_add_note (WbReport   *report,
                    const char *note)
{
  g_return_if_fail (report != NULL && note != NULL);
  g_ptr_array_add (report->notes, g_strdup (note));
}

void
wb_report_add_warning (WbReport *report, const char *warning)
{
  g_return_if_fail (report != NULL && warning != NULL);
  g_ptr_array_add (report->warnings, g_strdup (warning));
}

void
wb_report_set_gate (WbReport     *report,
                    const WbGate *gate)
{
  g_return_if_fail (report != NULL);
  report->gate = gate;
}

const char *
_wb_report_matmul_label (const WbReport *report)
{
  if (g_strcmp0 (report->run->device_name, "cpu") == 0)
    return "f32 sgemm (OpenBLAS)";
  return "bf16 matmul";
}

char *
_wb_report_format_rate (double value)
{
  if (!(value > 0))
    return g_strdup ("-");
  if (value >= 100)
    return g_strdup_printf ("%.0f", value);
  if (value >= 10)
    return g_strdup_printf ("%.1f", value);
  if (value >= 1)
    return g_strdup_printf ("%.2f", value);
  if (value >= 0.1)
    return g_strdup_printf ("%.3f", value);
  if (value >= 0.01)
    return g_strdup_printf ("%.4f", value);
  return g_strdup_printf ("%.5f", value);
}

char *
_wb_report_figures_line (const WbReport *report)
{
  return g_strdup_printf ("median over %u timed iteration%s after %u warm-up (min and max beside it)",
                          report->n_iters, report->n_iters == 1 ? "" : "s", report->run->warmup);
}

/* -- derived figures ----------------------------------------------------------------------------- */

static gboolean
name_is_region (const WbReport *r, const char *name)
{
  gpointer        kind = g_hash_table_lookup (r->kinds, name);
  const char     *hash;
  const WbSymbol *symbol;

  if (kind != NULL)
    return GPOINTER_TO_INT (kind) == 1;
  hash = strchr (name, '#');
  symbol = wb_symbol_lookup (name, hash ? (gsize) (hash - name) : strlen (name));
  return symbol != NULL && wb_symbol_is_fusion (symbol);
}

static int
cmp_region_time (gconstpointer a, gconstpointer b)
{
  const WbReportRegion *x = *(WbReportRegion *const *) a;
  const WbReportRegion *y = *(WbReportRegion *const *) b;

  if (x->stats->median_ns != y->stats->median_ns)
    return x->stats->median_ns > y->stats->median_ns ? -1 : 1;
  return g_strcmp0 (x->stats->name, y->stats->name);
}

static int
cmp_kernel_time (gconstpointer a, gconstpointer b)
{
  const WbReportKernel *x = *(WbReportKernel *const *) a;
  const WbReportKernel *y = *(WbReportKernel *const *) b;

  if (x->median_ns != y->median_ns)
    return x->median_ns > y->median_ns ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static int
cmp_line (gconstpointer a, gconstpointer b)
{
  const WbReportLine *x = a;
  const WbReportLine *y = b;

  return x->line < y->line ? -1 : x->line > y->line;
}

static void
min_max (const gint64 *v, guint n, gint64 *lo, gint64 *hi)
{
  *lo = *hi = n > 0 ? v[0] : 0;
  for (guint i = 1; i < n; i++)
    {
      *lo = MIN (*lo, v[i]);
      *hi = MAX (*hi, v[i]);
    }
}

static void
derive_regions (WbReport *r)
{
  const WbRun *run = r->run;

  r->regions = g_array_sized_new (FALSE, TRUE, sizeof (WbReportRegion), run->regions->len);
  g_array_set_size (r->regions, run->regions->len);
  r->by_time = g_ptr_array_new ();
  r->region_rows = g_hash_table_new (g_str_hash, g_str_equal);
  r->region_next = g_array_new (FALSE, TRUE, sizeof (guint));
  g_array_set_size (r->region_next, run->regions->len);
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *s = run->regions->pdata[i];
      WbReportRegion      *x = &g_array_index (r->regions, WbReportRegion, i);
      double               seconds = (double) s->median_ns / 1e9;

      x->stats = s;
      x->is_region = name_is_region (r, s->name);
      if (s->name != NULL)
        {
          /* rows of one name chained in reverse: inserted last, found first */
          g_array_index (r->region_next, guint, i) = GPOINTER_TO_UINT (g_hash_table_lookup (r->region_rows, s->name));
          g_hash_table_insert (r->region_rows, (gpointer) s->name, GUINT_TO_POINTER (i + 1));
        }
      x->gbps = seconds > 0 ? (double) s->bytes_moved / seconds / 1e9 : 0;
      x->tflops = seconds > 0 ? (double) s->flops / seconds / 1e12 : 0;
      x->pct_of_copy = x->pct_of_matmul = x->pct_of_ceiling = -1;
      if (r->ceilings != NULL && r->ceilings->copy_gbps > 0 && r->ceilings->bf16_tflops > 0 && seconds > 0)
        {
          double t_mem = (double) s->bytes_moved / (r->ceilings->copy_gbps * 1e9);
          double t_fp = (double) s->flops / (r->ceilings->bf16_tflops * 1e12);

          x->pct_of_copy = 100.0 * x->gbps / r->ceilings->copy_gbps;
          x->pct_of_matmul = 100.0 * x->tflops / r->ceilings->bf16_tflops;
          if (s->bytes_moved > 0 || s->flops > 0)
            {
              x->pct_of_ceiling = 100.0 * MAX (t_mem, t_fp) / seconds;
              x->bound = t_fp > t_mem ? "compute" : "memory";
            }
        }
    }
  for (guint i = 0; i < r->regions->len; i++)
    g_ptr_array_add (r->by_time, &g_array_index (r->regions, WbReportRegion, i));
  g_ptr_array_sort (r->by_time, cmp_region_time);
}

static void
derive_iteration (WbReport *r)
{
  const WbRun *run = r->run;
  g_autoptr (GArray) sums = g_array_new (FALSE, TRUE, sizeof (gint64));
  const gint64 *iters = (const gint64 *) run->iteration_ns->data;
  gint64        best = G_MAXINT64;

  r->n_iters = run->iteration_ns->len;
  r->iter_median_ns = wb_run_get_iteration_median_ns (run);
  min_max (iters, r->n_iters, &r->iter_min_ns, &r->iter_max_ns);
  r->gap_ns = g_array_new (FALSE, TRUE, sizeof (gint64));
  for (guint i = 0; i < r->n_iters; i++)
    {
      gint64 sum = 0;
      gint64 gap;

      for (guint k = 0; k < run->regions->len; k++)
        {
          const WbRegionStats *s = run->regions->pdata[k];

          if (i < s->times_ns->len)
            sum += g_array_index (s->times_ns, gint64, i);
        }
      gap = iters[i] - sum;
      g_array_append_val (sums, sum);
      g_array_append_val (r->gap_ns, gap);
      if (ABS (iters[i] - r->iter_median_ns) < best)
        {
          best = ABS (iters[i] - r->iter_median_ns);
          r->median_iteration = i;
        }
    }
  r->sum_median_ns = wb_times_median_ns ((const gint64 *) sums->data, sums->len);
  r->gap_median_ns = wb_times_median_ns ((const gint64 *) r->gap_ns->data, r->gap_ns->len);
  min_max ((const gint64 *) r->gap_ns->data, r->gap_ns->len, &r->gap_min_ns, &r->gap_max_ns);
}

/* Kernel records grouped by (name, region, line, stream), with one total per iteration. */
static void
derive_kernels (WbReport *r)
{
  const WbRun *run = r->run;
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) totals = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) by_line = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n = MAX (r->n_iters, 1);

  r->kernels = g_ptr_array_new_with_free_func (kernel_clear);
  r->display_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const char *name = ((const WbKernelRecord *) run->kernels->pdata[i])->name;

      if (name != NULL && !g_hash_table_contains (r->display_names, name))
        g_hash_table_insert (r->display_names, g_strdup (name), wb_report_demangle (name));
    }
  for (guint i = 0; i < run->kernels->len; i++)
    {
      const WbKernelRecord *k = run->kernels->pdata[i];
      g_autofree char      *key = g_strdup_printf ("%s\x1f%s\x1f%u\x1f%u", k->name ? k->name : "",
                                              k->region ? k->region : "", k->trace_line, k->stream);
      gpointer              index = g_hash_table_lookup (groups, key);
      GArray               *t;
      WbReportKernel       *x;

      if (index == NULL)
        {
          x = g_new0 (WbReportKernel, 1);
          x->name = g_strdup (_wb_report_kernel_name (r, k->name));
          x->mangled = g_strdup (k->name);
          x->region = g_strdup (k->region);
          x->line = k->trace_line;
          x->stream = k->stream;
          memcpy (x->grid, k->grid, sizeof x->grid);
          memcpy (x->block, k->block, sizeof x->block);
          x->registers = k->registers;
          x->shared_bytes = k->shared_bytes;
          g_ptr_array_add (r->kernels, x);
          t = g_array_new (FALSE, TRUE, sizeof (gint64));
          g_array_set_size (t, n);
          g_ptr_array_add (totals, t);
          index = GUINT_TO_POINTER (r->kernels->len);
          g_hash_table_insert (groups, g_steal_pointer (&key), index);
        }
      x = r->kernels->pdata[GPOINTER_TO_UINT (index) - 1];
      t = totals->pdata[GPOINTER_TO_UINT (index) - 1];
      x->calls += 1.0; /* a count here, per iteration below: one division, so 20 calls over 20 iterations is 1 exactly */
      if (k->iteration < n)
        g_array_index (t, gint64, k->iteration) += k->end_ns - k->start_ns;
    }
  for (guint i = 0; i < r->kernels->len; i++)
    {
      WbReportKernel *x = r->kernels->pdata[i];
      GArray         *t = totals->pdata[i];
      gpointer        old;

      x->calls /= n;
      x->median_ns = wb_times_median_ns ((const gint64 *) t->data, t->len);
      min_max ((const gint64 *) t->data, t->len, &x->min_ns, &x->max_ns);
      if (x->line > 0)
        {
          old = g_hash_table_lookup (by_line, GUINT_TO_POINTER (x->line));
          g_hash_table_insert (by_line, GUINT_TO_POINTER (x->line),
                               GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + (gsize) x->median_ns));
        }
    }
  g_ptr_array_sort (r->kernels, cmp_kernel_time);

  r->lines = g_array_new (FALSE, TRUE, sizeof (WbReportLine));
  {
    GHashTableIter iter;
    gpointer       key, value;

    g_hash_table_iter_init (&iter, by_line);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        WbReportLine l = { GPOINTER_TO_UINT (key), (gint64) GPOINTER_TO_SIZE (value) };

        g_array_append_val (r->lines, l);
      }
  }
  g_array_sort (r->lines, cmp_line);
}

void
_wb_report_derive (WbReport *report)
{
  clear_derived (report);
  derive_iteration (report);
  derive_regions (report);
  derive_kernels (report);
}

gboolean
wb_report_write (const WbReport *report,
                 WbReportFormat  format,
                 const char     *path,
                 GError        **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (report != NULL && path != NULL, FALSE);
  switch (format)
    {
    case WB_REPORT_FORMAT_MARKDOWN:
      text = wb_report_to_markdown (report);
      break;
    case WB_REPORT_FORMAT_JSON:
      text = wb_report_to_json (report);
      break;
    case WB_REPORT_FORMAT_HTML:
      text = wb_report_to_html (report);
      break;
    case WB_REPORT_FORMAT_CHROME_TRACE:
      text = wb_report_to_chrome_trace (report);
      break;
    default:
      g_set_error (error, WB_REPORT_ERROR, WB_REPORT_ERROR_FORMAT, "%s: unknown report format %d", path, (int) format);
      return FALSE;
    }
  /* G_FILE_ERROR as wb_output_write() sets it: the code tells a bad path from a full disk */
  return wb_output_write (path, text, -1, error);
}
