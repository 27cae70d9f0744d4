/* wb-report-ranks-private.h — the derived figures of a multi-GPU report, shared by its writers
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-data.h"

G_BEGIN_DECLS

/* One rank's row. */
typedef struct
{
  const WbRun *run;           /* (borrowed) */
  gint64       step_ns;       /* unprofiled_median_ns when set, else the iteration median; ns */
  gint64       iteration_ns;  /* the iteration median, ns */
  WbCommStats  comm;          /* wb_run_get_comm_stats */
  double       exposed_share; /* comm.exposed_comm_ns / step_ns (0..1); < 0 when the step is unknown */
  gint64       peer_wait_ns;  /* of comm.comm_ns, NCCL kernels waiting for the last rank (wb_run_group_measure_peer_wait),
                                 median per iteration, ns; < 0 when unknown (clocks not aligned, kernels not paired) */
} WbRankRow;

typedef struct
{
  GArray     *rows;       /* (element-type WbRankRow) by rank (stable: the given order within a rank) */
  int         slowest;    /* index into rows of the largest step_ns; -1 when no row has a step */
  int         fastest;    /* index of the smallest step_ns; -1 likewise */
  gboolean    aligned;    /* every run has a clock_origin_ns: the ranks' clocks line up */
  gint64      origin_ns;  /* the smallest clock_origin_ns (aligned) or 0 */
  guint32     world_size; /* the largest world_size of the runs (at least the number of runs) */
  const char *group;      /* (borrowed) the first run's group, or NULL */
  const char *stage;      /* (borrowed) the first run's stage, or NULL */
} WbRanksFigures;

/* _wb_ranks_figures_init: derives @f from @runs (element-type WbRun; borrowed for @f's lifetime). */
void _wb_ranks_figures_init (WbRanksFigures  *f,
                             const GPtrArray *runs);
void _wb_ranks_figures_clear (WbRanksFigures *f);
/* _wb_ranks_row: (transfer none) row @i. */
static inline const WbRankRow *
_wb_ranks_row (const WbRanksFigures *f,
               guint                 i)
{
  return &g_array_index (f->rows, WbRankRow, i);
}
/* _wb_ranks_offset_ns: what to add to run @run's clock (kernel start_ns) to put it on the report's common
 * clock: clock_origin_ns - origin_ns when aligned, else 0. */
gint64 _wb_ranks_offset_ns (const WbRanksFigures *f,
                            const WbRun          *run);

G_END_DECLS
