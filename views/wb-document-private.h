/* wb-document-private.h — what the files of WbDocument share (wb-document.h); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-document.c          the object: its signals, accessors, the selection, the runs
 * wb-document-jobs.c     the worker threads: loading a trace set or a session, re-running the pipeline
 *                        and profiling; installing what they produce
 * wb-document-regions.c  regions across the pipeline's stages (provenance), and the calls a run timed
 * wb-document-ranks.c    the run shown, and the ranks of a multi-GPU run (WbRun.group) among the runs
 * wb-document-profile.c  the profile's words of progress, and the profile of a case recorded per rank
 * Every name here is private to libwbviews (hidden visibility). */
#pragma once

#include "wb-data.h"
#include "wb-views.h"

G_BEGIN_DECLS

struct _WbDocument
{
  GObject parent_instance;

  char         *path;
  WbCase       *wcase;    /* NULL when the path is not a runnable case */
  WbTraceSet   *set;      /* the case's entries, then the workbench's stages */
  WbPipeline   *pipeline; /* nullable */
  char         *pipeline_error;
  WbAssignment *assignment;
  char         *device_reason; /* why the last profile ran on its device (WbProfileJob) */
  GPtrArray    *run_notes;     /* (element-type utf8) (nullable) the last profile's notes (WbProfileJob) */
  int          *previous;      /* per entry */
  GPtrArray    *runs;          /* (element-type WbRun) */
  guint         rank;          /* the rank shown of the latest multi-GPU run (wb_document_set_rank) */
  guint         case_ranks;    /* the opened case's rank folders (CASE/rank<N>/: rank 0's traces shown); 0: none */
  gboolean      busy;
  gboolean      allow_cpu_fallback; /* for the next profiles (wb_document_set_allow_cpu_fallback) */
  double        last_seconds;       /* how long the last successful profile took, pipeline included */
  guint         last_iterations;    /* its warm-up and timed iterations; 0 before any */
  char         *session_path;       /* (nullable) the .wbsession this came from: new runs are stored there */
  gint64        trace_set_id;       /* the session's trace set shown */
  char         *subprogram;         /* (nullable) a folder of several sub-programs: the one the pipeline is of */
  WbRunner     *runner;             /* (nullable) the GPU runner the last profile left, for the next one */

  guint         entry;
  WbTrace      *bsym_trace;
  const WbBsym *bsym;
  char         *region;

  GHashTable     *region_map; /* (nullable) WbBsym* -> const WbRegion*, built on first use per pipeline */
  WbRegionClaims *claims;     /* (nullable) the executors' answers per region, built on first use per pipeline */
  /* (nullable) WbTrace* (referenced) -> its ops' estimates for @estimates_run (wb_document_get_op_estimate) */
  GHashTable  *estimates;
  const WbRun *estimates_run;
};

typedef enum
{
  CHANGED,
  SELECTION_CHANGED,
  RUNS_CHANGED,
  N_SIGNALS
} WbDocumentSignal;

/* _wb_document_phase_text: the words of @phase's progress, @done of @total on @device ("the GPU") (transfer
 * full; wb-document-profile.c) */
char *_wb_document_phase_text (WbProfilePhase phase, guint done, guint total, const char *device);

/* What the profile of a case recorded per rank needs (wb-document-profile.c) */
typedef struct
{
  const char           *path;            /* the case folder holding rank0 ... rank<N-1> */
  WbCase               *case0;           /* rank 0's case (transfer none): the document's */
  const WbPipeline     *pipeline0;       /* (nullable) rank 0's pipeline with @assignment, run for the window already */
  const char           *pipeline0_error; /* why there is none */
  const WbAssignment   *assignment;      /* (nullable) the document's, for every rank's pipeline */
  WbProfileDevice       device;          /* cpu is refused: the ranks run on the GPUs */
  guint                 iters, warmup;
  gboolean              allow_cpu_fallback;
  GCancellable         *cancellable;
  WbProfileProgressFunc progress; /* (nullable) rank 0's, on the worker thread */
  gpointer              progress_data;
} WbDocumentRanksRequest;

/* _wb_document_profile_ranks: runs @req's ranks at once (wb_profile_group_run), each rank's workbench program
 * on GPU r; (transfer full) *@runs_out their runs in rank order (one group), *@notes_out their jobs' notes, each
 * "rank R: NOTE". FALSE with the first failure (G_IO_ERROR_NOT_SUPPORTED for the cpu; a rank's error prefixed
 * "rank R of N: "; WB_PROFILE_ERROR_UNAVAILABLE when there are fewer GPUs than ranks). Worker thread. */
gboolean _wb_document_profile_ranks (const WbDocumentRanksRequest *req, GPtrArray **runs_out, GPtrArray **notes_out, GError **error);

/* wb-document.c */
void _wb_document_emit (WbDocument *self, WbDocumentSignal which);
/* wb-document-jobs.c: ends the document's GPU runner, if any, without waiting for it */
void _wb_document_drop_runner (WbDocument *self);

G_END_DECLS
