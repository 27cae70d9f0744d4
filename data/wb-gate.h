/* wb-gate.h — the regression gate of `profile --baseline SESSION[:RUN] --fail-above PCT` (WbGate)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rule (also in the reports as "rule"): for the whole iteration and for every region of the baseline
 * that the new run also has (matched by name),
 *
 *   noise(run) = the interquartile range (Q3 - Q1) of the run's per-iteration times when it has at least
 *                4 iterations, else their range (max - min): the noise rule of `compare` (wb-compare.h);
 *   limit      = median(baseline) * (1 + PCT / 100) + max(noise(baseline), noise(new));
 *   the gate fails when median(new) > limit.
 *
 * So a slow-down fails only when it is larger than PCT percent *and* larger than what the iterations of
 * either run scatter by. Regions in one run only are listed as notes and never fail the gate. */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include <glib.h>

#include "wb-profiler.h"

G_BEGIN_DECLS

/* One checked line: a region, or the whole iteration (name NULL). */
typedef struct
{
  char    *name;        /* region name, NULL for the whole iteration */
  gint64   baseline_ns; /* median of the baseline, ns */
  gint64   new_ns;      /* median of the new run, ns */
  gint64   noise_ns;    /* max(noise(baseline), noise(new)), ns */
  gint64   limit_ns;    /* baseline * (1 + PCT/100) + noise, ns */
  double   diff_pct;    /* 100 * (new - baseline) / baseline (0 when the baseline is 0) */
  gboolean failed;      /* new_ns > limit_ns */
} WbGateRow;

typedef struct
{
  double     fail_above_pct;  /* PCT */
  gint64     baseline_run_id; /* the baseline run's id in its session (0 when unknown) */
  char      *baseline_label;  /* "SESSION:RUN" as given or resolved, or NULL */
  WbGateRow *iteration;       /* (owned) */
  GPtrArray *regions;         /* (element-type WbGateRow) (owned) the baseline's regions found in the new run */
  GPtrArray *notes;           /* (element-type utf8) regions in one run only, different devices, ... */
  gboolean   failed;          /* any row failed */
} WbGate;

/* The rule in one sentence, for reports. (transfer none) */
const char *wb_gate_get_rule (void);

/* wb_gate_new: checks @run against @baseline with threshold @fail_above_pct (>= 0). (transfer full) */
WbGate *wb_gate_new (const WbRun *baseline,
                     const WbRun *run,
                     double       fail_above_pct);
void    wb_gate_free (WbGate *gate);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbGate, wb_gate_free)

/* wb_gate_dup_failures: (transfer full) one line per failed row, "NAME: 0.512 ms vs baseline 0.455 ms
 * (+12.5%; limit 0.511 ms = +10% + noise 0.010 ms)" ("the whole iteration" for the iteration), joined by
 * newlines; NULL when the gate passed. */
char *wb_gate_dup_failures (const WbGate *gate);

G_END_DECLS
