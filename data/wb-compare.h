/* wb-compare.h — two runs side by side: per region and for the whole iteration, with a noise verdict
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include <glib.h>

#include "wb-profiler.h"

G_BEGIN_DECLS

/* The noise rule (also printed under the Markdown table and in the JSON as "noise_rule"):
 *
 *   noise(run) = the interquartile range (Q3 - Q1) of the run's per-iteration times when it has at least
 *                WB_COMPARE_MIN_IQR_ITERATIONS iterations, else their range (max - min);
 *   threshold  = max(noise(A), noise(B));
 *   B differs from A when |median(B) - median(A)| > threshold: "slower" or "faster"; else "within noise".
 *
 * With fewer than WB_COMPARE_MIN_ITERATIONS iterations in either run the noise cannot be told from a
 * difference (three iterations' range says little) and the verdict is "unknown" (the app: "too few
 * iterations").
 * Regions are matched by key (WbRegionStats.key: the same region across re-fusion and renumbering) when
 * both runs have keys, else by name; a matched region whose contents digest differs is marked
 * contents_changed; a region in one run only is "only in A" / "only in B". A region one run ran fused and
 * the other unfused (WbRegionStats.unfused_from) is not matched with its first call, which has its key:
 * its row and its calls' rows say so (WbCompareFusion). */
#define WB_COMPARE_MIN_IQR_ITERATIONS 4
#define WB_COMPARE_MIN_ITERATIONS 5

typedef enum
{
  WB_COMPARE_WITHIN_NOISE = 1,
  WB_COMPARE_SLOWER,  /* B is slower than A beyond the noise */
  WB_COMPARE_FASTER,  /* B is faster than A beyond the noise */
  WB_COMPARE_UNKNOWN, /* too few iterations to tell */
  WB_COMPARE_ONLY_A,  /* the region is in run A only */
  WB_COMPARE_ONLY_B,  /* the region is in run B only */
} WbCompareVerdict;

/* How an unfuse relates a row to the other run (WbRegionStats.unfused_from). */
typedef enum
{
  WB_COMPARE_FUSION_SAME = 0,
  WB_COMPARE_FUSION_UNFUSED_IN_B,   /* A's region (ONLY_A): B ran its calls one by one */
  WB_COMPARE_FUSION_UNFUSED_FROM_A, /* B's call (ONLY_B) unfused out of A's region row->region */
  WB_COMPARE_FUSION_FUSED_IN_B,     /* B's region (ONLY_B): A ran its calls one by one */
  WB_COMPARE_FUSION_FUSED_INTO_B,   /* A's call (ONLY_A) that B ran inside its region row->region */
} WbCompareFusion;

/* wb_compare_verdict_to_string: "within noise", "slower", "faster", "unknown", "only in A", "only in B". */
const char *wb_compare_verdict_to_string (WbCompareVerdict verdict);

/* One line of a comparison: a region, or the whole iteration (name NULL). */
typedef struct
{
  char            *name;       /* region name; NULL for the whole iteration */
  char            *executor_a; /* executor in run A (NULL: none or absent) */
  char            *executor_b;
  gint64           median_a_ns; /* medians over the timed iterations, ns (0 when absent) */
  gint64           median_b_ns;
  guint            n_a; /* iterations the medians are of */
  guint            n_b;
  gint64           noise_a_ns; /* noise of each run by the rule above, ns */
  gint64           noise_b_ns;
  gint64           threshold_ns; /* max(noise_a_ns, noise_b_ns) */
  gint64           diff_ns;      /* median_b_ns - median_a_ns */
  double           diff_pct;     /* 100 * diff / median_a (NAN when median_a is 0) */
  WbCompareVerdict verdict;
  char            *name_b;           /* (nullable) the region's name in run B when matched by key under another name */
  gboolean         contents_changed; /* matched by key, but B's region computes other bound symbols */
  WbCompareFusion  fusion;           /* an unfuse between the runs (verdict ONLY_A or ONLY_B) */
  char            *region;           /* (nullable) with _UNFUSED_FROM_A and _FUSED_INTO_B: the region's name */
} WbCompareRow;

/* wb_compare_row_verdict: (transfer full) the verdict as the outputs print it, untranslated: the
 * verdict's name, ", changed contents" after it, or the unfuse ("unfused in B", "unfused from
 * nvrtcFusion0", "fused in B", "fused into nvrtcFusion0 in B"). */
char *wb_compare_row_verdict (const WbCompareRow *row);

typedef struct
{
  WbRun        *a; /* (owned) copies of the two runs, regions included */
  WbRun        *b;
  WbCompareRow *iteration; /* (owned) the whole iteration */
  GPtrArray    *regions;   /* (element-type WbCompareRow) (owned) A's regions in order, then B's extra ones */
  GPtrArray    *notes;     /* (element-type utf8) warnings: different devices, failed runs, … */
} WbComparison;

/* wb_compare_match: (transfer none) (nullable) @b's region that is @a's region @ra: by key when both runs
 * have keys, else by name; never a region with the call unfused out of it (WbRegionStats.unfused_from):
 * they share the key but not what they compute. */
const WbRegionStats *wb_compare_match (const WbRegionStats *ra, const WbRun *b, const WbRun *a);
/* wb_compare_unfused_from: (transfer none) (nullable) the row of @other that is the region @r (a call)
 * was unfused out of: @r ran on its own, @other ran it inside that region. */
const WbRegionStats *wb_compare_unfused_from (const WbRegionStats *r, const WbRun *other);
/* wb_compare_unfused_in: whether @other ran the calls of @r (a region: no unfused_from) one by one. */
gboolean wb_compare_unfused_in (const WbRegionStats *r, const WbRun *other);
/* wb_compare_verdict: the noise rule above for two regions' (or iterations') times. */
WbCompareVerdict wb_compare_verdict (const GArray *times_a, const GArray *times_b, gint64 *threshold_ns);
/* wb_comparison_new: compares @b against @a (transfer full; the runs are copied). */
WbComparison *wb_comparison_new (const WbRun *a,
                                 const WbRun *b);
void          wb_comparison_free (WbComparison *comparison);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbComparison, wb_comparison_free)

/* wb_comparison_to_markdown: (transfer full) a heading, a table of the two runs (with the kernel records'
 * source, attribution and memcpy/memset figures when either run has them), a table of regions (times in
 * ms) and the noise rule. @title (nullable) names the session. */
char *wb_comparison_to_markdown (const WbComparison *comparison,
                                 const char         *title);
/* wb_comparison_to_json: (transfer full) a JSON object, schema "thunder-wb/compare" version 1: run_a,
 * run_b (id, label, device, started_at_us, status, iterations, attribution: null, or the profile report's
 * "attribution" object: kernel_source, kernel_ms_total, kernel_ms_attributed, kernel_ms_by_correlation,
 * kernel_ms_by_time_range, unattributed_pct, kernels_by_correlation, kernels_by_time_range,
 * kernels_unattributed, memcpy and memset {count, bytes, ms}, memops_attributed, dropped_records; totals
 * over the timed iterations), iteration and regions (each: name,
 * executor_a, executor_b, median_a_ms, median_b_ms, diff_ms, diff_pct, noise_ms, n_a, n_b, verdict,
 * exceeds_noise), noise_rule, notes. Times in ms. */
char *wb_comparison_to_json (const WbComparison *comparison,
                             const char         *title);

G_END_DECLS
