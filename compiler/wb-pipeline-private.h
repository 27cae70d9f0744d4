/* wb-pipeline-private.h — shared by the passes of the pipeline (compiler/ only)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-compiler.h"
#include "wb-trace-private.h"

G_BEGIN_DECLS

struct _WbStage
{
  WbTrace    *trace;
  char       *pass;
  WbStageList list;
  double      ms;
  int         previous;
  GHashTable *sources; /* WbBsym* -> GPtrArray* of WbBsym* (only for changed bound symbols) */
  GHashTable *members; /* set of top-level WbBsym* (for identity provenance) */
};

/* Everything the passes share. */
typedef struct
{
  const WbExecutorInfo **executors; /* priority order */
  guint                  n_executors;
  WbFusionType           fusion_type;
  GHashTable            *claims;      /* WbBsym* -> const WbExecutorInfo* (operator claims and fusion marks) */
  GHashTable            *backward;    /* set of WbBsym*: bound symbols of the backward part of a joint trace */
  GHashTable            *region_exec; /* region name (owned) -> const WbExecutorInfo* */
  GHashTable            *overrides;   /* region name or key -> executor name or "unfuse" (owned strings; from
                                         WbPipelineOptions.assignment, each removed when a region takes it) */
  GHashTable *region_keys;            /* region name (owned) -> its key "@t12" (owned), set by the fusion pass */
  GHashTable *unfused_from;           /* a call's key (owned) -> the key (owned) of the region the assignment
                                         unfused it from, set by the fusion pass */
  GPtrArray  *remarks;                /* WbRemark */
  GHashTable *counters;               /* region prefix -> next number */
} WbPassShared;

/* The environment of one pass: the stage it reads and the sources of what it writes. */
typedef struct
{
  WbPassShared *shared;
  WbTrace      *in;
  GHashTable   *types;   /* name -> WbType* (owned) for @in */
  GHashTable   *sources; /* new WbBsym* -> GPtrArray* of @in's WbBsym* */
} WbPassContext;

typedef WbTrace *(*WbPassFunc) (WbPassContext *ctx, GError **error);

/* Analysis helpers (wb-pass-util.c). */
/* _wb_region_key_of_members: (transfer full) (nullable) the key of a region whose body is @members
 * (wb_region_key's rule; wb-assignment.c). */
char *_wb_region_key_of_members (const WbBsym *const *members, guint n);

/* _wb_bsym_add_inputs: appends the proxy names @bsym reads (args, kwargs, assigned/returned value) to
 * @names (element-type utf8, transfer none), in order, duplicates included. DEL reads nothing. */
void _wb_bsym_add_inputs (const WbBsym *bsym, GPtrArray *names);
/* _wb_bsym_add_outputs: appends the names @bsym defines ("_" skipped). */
void _wb_bsym_add_outputs (const WbBsym *bsym, GPtrArray *names);
/* _wb_type_env_new: name -> WbType* of every proxy of @trace: annotations, type comments, and derived
 * types (wb_symbol_infer) for outputs without one. (transfer full) */
GHashTable *_wb_type_env_new (const WbTrace *trace);
void        _wb_type_env_add (GHashTable *env, const WbTrace *trace);
gboolean    _wb_type_env_lookup (const char *name, WbType *out, gpointer env);
/* _wb_sources_add: records that @out came from @in (appends). */
void _wb_sources_add (GHashTable *sources, const WbBsym *out, const WbBsym *in);
/* _wb_bsym_is_get_grad: prims.get_grad (the joint trace's cotangent marker). */
gboolean _wb_bsym_is_get_grad (const WbBsym *bsym);
/* _wb_bsym_rename: a copy of @bsym (from @b's arena) with names replaced through @renames
 * (old -> WbValue* NAME), recursively in args, kwargs and subsymbols; @bsym itself when nothing changes. */
const WbBsym *_wb_bsym_rename (WbTraceBuilder *b, const WbBsym *bsym, GHashTable *renames);
/* _wb_trace_return: the RETURN bound symbol of @trace, or NULL. */
const WbBsym *_wb_trace_return (const WbTrace *trace);
/* _wb_dict_get: the value of key @key in a DICT value, or NULL. */
const WbValue *_wb_dict_get (const WbValue *dict, const char *key);
/* _wb_remark_add: records a claim decision. */
void _wb_remark_add (WbPassShared *shared, const char *executor, const WbBsym *bsym, guint line, gboolean accepted, const char *reason);

/* _wb_trace_find_backward: the set of top-level bound symbols of a joint trace that belong to the
 * backward: those the forward outputs ('fw_flat_out' of the return dict) do not need. Empty for a
 * computation trace. (transfer full) */
GHashTable *_wb_trace_find_backward (const WbTrace *trace);
/* _wb_trace_is_joint: the trace returns {'output', 'flat_args', 'fw_flat_out'} (a Grad transform pass trace). */
gboolean _wb_trace_is_joint (const WbTrace *trace);

/* The passes (wb-pass-*.c). */
WbTrace *_wb_pass_dce (WbPassContext *ctx, GError **error);
WbTrace *_wb_pass_claim (WbPassContext *ctx, GError **error);
WbTrace *_wb_pass_fusion (WbPassContext *ctx, GError **error);
WbTrace *_wb_pass_rematerialize (WbPassContext *ctx, GError **error);
WbTrace *_wb_pass_cse (WbPassContext *ctx, GError **error);
/* _wb_pass_split: the forward (return value) and backward (*backward) of a joint trace. */
WbTrace *_wb_pass_split (WbPassContext *ctx, WbTrace **backward, GError **error);
WbTrace *_wb_pass_delete_last_used (WbPassContext *ctx, GError **error);
WbTrace *_wb_pass_unwrap_return (WbPassContext *ctx, GError **error);

G_END_DECLS
