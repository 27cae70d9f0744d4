/* wb-case-private.h — WbCase's insides, shared by wb-case.c (loading, stages) and wb-case-inputs.c
 * (the inputs drawn by seed and the index bounds they respect)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-interpreter-private.h"

G_BEGIN_DECLS

typedef struct
{
  WbCaseInput pub;
  int         arg_index;          /* x = args[i]: i, else -1 */
  char       *kwarg;              /* x = kwargs['k']: k, else NULL */
  char       *where;              /* "FILE:LINE:COL" of the line that defines or annotates it, for messages */
  WbType      dtensor;            /* WB_TYPE_DTENSOR: the input is a DTensor of this (global) type, and pub.type is the
                                     rank's local tensor (what the run passes); else WB_TYPE_UNKNOWN */
  gint64 coord[WB_MAX_MESH_RANK]; /* the rank's coordinates in dtensor's mesh */
} CaseInput;

struct _WbCase
{
  char          *path;
  char          *name;
  WbTraceSet    *set;
  GPtrArray     *inputs; /* (element-type CaseInput) in the computation's parameter order */
  GPtrArray     *stages; /* (element-type WbCaseStage) */
  WbSafetensors *reference;
  gboolean       reference_loaded;
  gboolean       from_set; /* wb_case_new_for_set: no folder behind it */
};

/* _wb_case_compute_index_bounds: every input that flows into an index gets the size it indexes as
 * index_bound (wb-case-inputs.c). */
void _wb_case_compute_index_bounds (WbCase *c);

G_END_DECLS
