/* wb-gate.c — the regression gate: a new run against a baseline, per region and for the iteration
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-data.h"

#define GATE_MIN_IQR_ITERATIONS 4

const char *
wb_gate_get_rule (void)
{
  return "fails when median(new) > median(baseline) * (1 + PCT/100) + max(noise(baseline), noise(new)), "
         "noise = interquartile range of a run's per-iteration times (their range with fewer than 4 iterations); "
         "checked for the whole iteration and every region of the baseline that the new run has";
}

static gint64
noise_ns (const GArray *times)
{
  const gint64 *t = (const gint64 *) times->data;
  gint64        lo, hi;

  if (times->len < 2)
    return 0;
  if (times->len >= GATE_MIN_IQR_ITERATIONS)
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

static void
row_free (gpointer data)
{
  WbGateRow *row = data;

  if (row == NULL)
    return;
  g_free (row->name);
  g_free (row);
}

static WbGateRow *
make_row (const char *name, gint64 base, const GArray *base_times, gint64 now, const GArray *now_times, double pct)
{
  WbGateRow *row = g_new0 (WbGateRow, 1);

  row->name = g_strdup (name);
  row->baseline_ns = base;
  row->new_ns = now;
  row->noise_ns = MAX (noise_ns (base_times), noise_ns (now_times));
  row->limit_ns = (gint64) ((double) base * (1.0 + pct / 100.0) + 0.5) + row->noise_ns;
  row->diff_pct = base > 0 ? 100.0 * (double) (now - base) / (double) base : 0;
  row->failed = now > row->limit_ns;
  return row;
}

WbGate *
wb_gate_new (const WbRun *baseline,
             const WbRun *run,
             double       fail_above_pct)
{
  WbGate *gate;

  g_return_val_if_fail (baseline != NULL && run != NULL, NULL);
  gate = g_new0 (WbGate, 1);
  gate->fail_above_pct = MAX (fail_above_pct, 0);
  gate->baseline_run_id = baseline->id;
  gate->regions = g_ptr_array_new_with_free_func (row_free);
  gate->notes = g_ptr_array_new_with_free_func (g_free);

  gate->iteration = make_row (NULL, wb_run_get_iteration_median_ns (baseline), baseline->iteration_ns,
                              wb_run_get_iteration_median_ns (run), run->iteration_ns, gate->fail_above_pct);
  gate->failed = gate->iteration->failed;
  for (guint i = 0; i < baseline->regions->len; i++)
    {
      const WbRegionStats *b = baseline->regions->pdata[i];
      const WbRegionStats *n = wb_run_find_region (run, b->name);
      WbGateRow           *row;

      if (n == NULL)
        {
          g_ptr_array_add (gate->notes, g_strdup_printf ("%s: in the baseline only (not checked)", b->name));
          continue;
        }
      row = make_row (b->name, b->median_ns, b->times_ns, n->median_ns, n->times_ns, gate->fail_above_pct);
      gate->failed |= row->failed;
      g_ptr_array_add (gate->regions, row);
    }
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *n = run->regions->pdata[i];

      if (wb_run_find_region (baseline, n->name) == NULL)
        g_ptr_array_add (gate->notes, g_strdup_printf ("%s: not in the baseline (not checked)", n->name));
    }
  if (g_strcmp0 (baseline->device_model, run->device_model) != 0 || g_strcmp0 (baseline->device_name, run->device_name) != 0)
    g_ptr_array_add (gate->notes, g_strdup_printf ("the baseline ran on %s (%s), this run on %s (%s)",
                                                   baseline->device_name ? baseline->device_name : "?",
                                                   baseline->device_model ? baseline->device_model : "?",
                                                   run->device_name ? run->device_name : "?",
                                                   run->device_model ? run->device_model : "?"));
  if (g_strcmp0 (baseline->stage, run->stage) != 0)
    g_ptr_array_add (gate->notes, g_strdup_printf ("the baseline ran stage %s, this run %s",
                                                   baseline->stage ? baseline->stage : "?", run->stage ? run->stage : "?"));
  return gate;
}

void
wb_gate_free (WbGate *gate)
{
  if (gate == NULL)
    return;
  row_free (gate->iteration);
  g_ptr_array_unref (gate->regions);
  g_ptr_array_unref (gate->notes);
  g_free (gate->baseline_label);
  g_free (gate);
}

static void
append_failure (GString *s, const WbGateRow *row, double pct)
{
  if (s->len > 0)
    g_string_append_c (s, '\n');
  g_string_append_printf (s, "%s: %.3f ms vs baseline %.3f ms (%+.1f%%; limit %.3f ms = +%g%% + noise %.3f ms)",
                          row->name ? row->name : "the whole iteration", row->new_ns / 1e6, row->baseline_ns / 1e6,
                          row->diff_pct, row->limit_ns / 1e6, pct, row->noise_ns / 1e6);
}

char *
wb_gate_dup_failures (const WbGate *gate)
{
  GString *s;

  g_return_val_if_fail (gate != NULL, NULL);
  if (!gate->failed)
    return NULL;
  s = g_string_new (NULL);
  for (guint i = 0; i < gate->regions->len; i++)
    {
      const WbGateRow *row = gate->regions->pdata[i];

      if (row->failed)
        append_failure (s, row, gate->fail_above_pct);
    }
  if (gate->iteration->failed)
    append_failure (s, gate->iteration, gate->fail_above_pct);
  return g_string_free (s, FALSE);
}
