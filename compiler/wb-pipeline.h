/* wb-pipeline.h — recomputes Thunder's hidden stages: claim, flatten, DCE, fusion, remat, CSE, split, del
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-assignment.h"
#include "wb-executor-info.h"
#include "wb-trace-set.h"

G_BEGIN_DECLS

#define WB_PIPELINE_ERROR (wb_pipeline_error_quark ())
GQuark wb_pipeline_error_quark (void);

/* Errors of WB_PIPELINE_ERROR. */
typedef enum
{
  WB_PIPELINE_ERROR_NO_INPUT = 1,     /* no joint ("Grad transform pass") or computation trace to start from */
  WB_PIPELINE_ERROR_UNCLAIMED,        /* a prim no executor of the list takes: names the line, op and reasons */
  WB_PIPELINE_ERROR_BAD_ASSIGNMENT,   /* an --executors choice that is impossible: which region, op, executor, why */
  WB_PIPELINE_ERROR_UNKNOWN_EXECUTOR, /* an executor name that does not exist */
  WB_PIPELINE_ERROR_BAD_TRACE,        /* the input breaks an assumption of a pass (names the line) */
} WbPipelineError;

typedef enum
{
  WB_FUSION_DATAFLOW = 0, /* merge producers and consumers where no cycle forms (Thunder's default) */
  WB_FUSION_CONSECUTIVE,  /* maximal runs of consecutive fusible bound symbols */
} WbFusionType;

/* WbPipelineOptions: what to plan with. */
typedef struct
{
  /* executor names in priority order (NULL-terminated); NULL = the default list for the trace's device:
   * cuda: cudnn, cublas, nvrtc, cuda, nccl; cpu: cpu */
  const char *const *executors;
  WbFusionType       fusion_type;
  /* (nullable) (transfer none) REGION=EXECUTOR or REGION=unfuse choices; a REGION is a region's name
   * in the fusion stage or its key ("@t12", wb_region_key: a key wins over a name) */
  const WbAssignment *assignment;
} WbPipelineOptions;

/* The trace list a stage belongs to. */
typedef enum
{
  WB_STAGE_JOINT = 1,   /* the joint forward+backward trace (training) */
  WB_STAGE_COMPUTATION, /* the computation trace (inference) */
  WB_STAGE_FORWARD,     /* the forward after the split */
  WB_STAGE_BACKWARD,    /* backward_fn after the split */
} WbStageList;

/* WbRemark: one claim decision: which executor took (or refused) which bound symbol, and why. */
typedef struct
{
  char         *executor;
  char         *symbol; /* printed call name */
  guint         line;   /* line in the stage the claim pass read */
  gboolean      accepted;
  char         *reason; /* "cublas: dtype i64 is not supported (f32, bf16, f16 only)", or "claimed" */
  const WbBsym *bsym;   /* the bound symbol decided on (a node of the stage the claim pass read, or of a
                           composite it flattened); (transfer none) owned by the pipeline's traces */
} WbRemark;

/* WbRegion: a fusion region of the final stages. */
typedef struct
{
  char         *name;     /* "nvrtcFusion0" */
  char         *executor; /* "nvrtc" */
  char         *key;      /* "@t12": stable across re-fusion (wb-assignment.h), taken in the fusion pass */
  WbStageList   list;     /* forward or backward (or computation) */
  const WbBsym *bsym;     /* the region's call in the final stage */
  guint         n_ops;    /* bound symbols in its body (top level of the region) */
} WbRegion;

typedef struct _WbStage    WbStage;
typedef struct _WbPipeline WbPipeline;

/* wb_pipeline_run: runs the pipeline on @input (a joint trace: "Grad transform pass", or a computation
 * trace) and returns every stage. Returns (transfer full) the pipeline, or NULL with WB_PIPELINE_ERROR set. */
WbPipeline *wb_pipeline_run (WbTrace *input, const WbPipelineOptions *options, GError **error);
/* wb_pipeline_find_input: the entry of @set the pipeline starts from: the top-level "Grad transform pass"
 * trace for training, else the last forward trace before "Delete Last Used"; where the top level has none
 * and one sub-set holds forward traces (a folder of one ThunderFX subgraph), that sub-set's; NULL if none
 * (or several sub-programs: wb_pipeline_find_input_in picks one). (transfer none) */
const WbTraceEntry *wb_pipeline_find_input (const WbTraceSet *set);
/* wb_pipeline_count_subprograms: the sub-sets of @set that hold forward traces ("workbench" aside): a folder
 * of N ThunderFX subgraphs, or of N ranks, gives N */
guint wb_pipeline_count_subprograms (const WbTraceSet *set);
/* wb_pipeline_find_input_in: wb_pipeline_find_input among the entries of sub-set @subset ("" the top level; a
 * sub-program's folder of a model of several, "thunderfx_g0_GraphModule_1"). (transfer none) (nullable) */
const WbTraceEntry *wb_pipeline_find_input_in (const WbTraceSet *set, const char *subset);
void                wb_pipeline_free (WbPipeline *pipeline);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbPipeline, wb_pipeline_free)

guint wb_pipeline_get_n_stages (const WbPipeline *pipeline);
/* wb_pipeline_get_stage: (transfer none) stage @i; stage 0 is the input. */
const WbStage *wb_pipeline_get_stage (const WbPipeline *pipeline, guint i);
/* wb_pipeline_get_remarks: (transfer none) (element-type WbRemark) every claim decision. */
GPtrArray *wb_pipeline_get_remarks (const WbPipeline *pipeline);
/* wb_pipeline_get_regions: (transfer none) (element-type WbRegion) the regions of the final stages. */
GPtrArray *wb_pipeline_get_regions (const WbPipeline *pipeline);
/* wb_pipeline_get_total_ms: wall time of all passes, in milliseconds. */
double wb_pipeline_get_total_ms (const WbPipeline *pipeline);

/* WbStage accessors. */
WbTrace    *wb_stage_get_trace (const WbStage *stage); /* (transfer none) */
const char *wb_stage_get_pass (const WbStage *stage);  /* "Fusion" */
WbStageList wb_stage_get_list (const WbStage *stage);
double      wb_stage_get_ms (const WbStage *stage); /* milliseconds the pass took */
/* wb_stage_get_previous: index of the stage this one was computed from (-1 for the input). */
int wb_stage_get_previous (const WbStage *stage);
/* wb_stage_get_sources: the bound symbols of the previous stage that @bsym (top level of this stage)
 * came from; an unchanged bound symbol is its own source. (transfer none) (element-type WbBsym); NULL
 * when @bsym is not in this stage. */
GPtrArray *wb_stage_get_sources (const WbStage *stage, const WbBsym *bsym);

/* wb_pipeline_append_stages: adds every computed stage (not the input) to @set as entries of the
 * sub-set "workbench": kind forward (joint, computation and forward stages) or backward, index = the
 * stage number, label = the pass. The set keeps references to the traces. */
void wb_pipeline_append_stages (const WbPipeline *pipeline, WbTraceSet *set);

/* wb_stage_list_to_string: "joint", "computation", "forward", "backward". */
const char *wb_stage_list_to_string (WbStageList list);

G_END_DECLS
