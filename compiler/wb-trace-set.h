/* wb-trace-set.h — the traces of one case: a file, several printed traces, or a directory like traces/<case>/
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-trace.h"

G_BEGIN_DECLS

/* Which list of Thunder's a trace belongs to (last_prologue_traces, last_traces, last_backward_traces...). */
typedef enum
{
  WB_TRACE_KIND_UNKNOWN = 0,
  WB_TRACE_KIND_PROLOGUE,
  WB_TRACE_KIND_FORWARD, /* last_traces: computation (and the joint trace of a training run) */
  WB_TRACE_KIND_BACKWARD,
  WB_TRACE_KIND_EPILOGUE,
  WB_TRACE_KIND_STAGE, /* stages/NN_<label>.py: hidden intermediate traces */
} WbTraceKind;

/* wb_trace_kind_to_string: "prologue", "forward", "backward", "epilogue", "stage", "trace" (transfer none). */
const char *wb_trace_kind_to_string (WbTraceKind kind);

/* One trace of a set: where it came from. */
typedef struct
{
  WbTrace    *trace; /* (owned by the set) */
  WbTraceKind kind;
  int         index;  /* NN of forward_NN.py; position in a multi-trace file; -1 if none */
  const char *subset; /* "" for the top level, else the sub-set folder ("default_execs", "fallback") */
  const char *label;  /* stage label from stages/NN_<label>.py, else NULL */
  const char *path;   /* file it was read from */
} WbTraceEntry;

/* A file of a directory that did not load: the set holds the directory's other files. */
typedef struct
{
  const char *path;        /* the file */
  const char *message;     /* the parser's error, "FILE:LINE:COL: ..." */
  int         code;        /* its WbTraceError code */
  gboolean    not_a_trace; /* Thunder wrote `None` for a stage it skipped (WB_TRACE_ERROR_NOT_A_TRACE) */
} WbTraceFailure;

typedef struct _WbTraceSet WbTraceSet;

/* wb_trace_set_load: loads @path: a directory laid out like traces/<case>/ (prologue_NN.py, forward_NN.py,
 * backward_NN.py, epilogue_NN.py, stages/NN_label.py, and the sub-sets default_execs/ and fallback/ with
 * their own stages/), or one file holding one or several traces (kind guessed from the function name).
 * Entries are ordered: subset, kind (prologue, forward, backward, epilogue, stage), index.
 * A directory loads file by file: a file that fails to parse, or holds only `None`, is a failure of the
 * set (wb_trace_set_get_failure) and the other files load. Returns (transfer full) the set, or NULL with
 * WB_TRACE_ERROR set: a single file that fails, an unreadable directory, or a directory where no file
 * loaded (the first file's error; WB_TRACE_ERROR_EMPTY when every file is `None` or there is none). */
WbTraceSet *wb_trace_set_load (const char *path, GError **error);

/* How wb_trace_set_load_full reads a directory. */
typedef enum
{
  WB_TRACE_SET_LOAD_DEFAULT = 0,
  WB_TRACE_SET_LOAD_NO_SUBSETS = 1 << 0, /* the directory's own files and stages/ only: no default_execs/, fallback/ */
  WB_TRACE_SET_LOAD_F32_AS_F64 = 1 << 1, /* every file read as WB_TRACE_PARSE_F32_AS_F64 (an f64 reference) */
} WbTraceSetLoadFlags;

/* wb_trace_set_load_full: wb_trace_set_load() with @flags. (transfer full) or NULL with WB_TRACE_ERROR. */
WbTraceSet *wb_trace_set_load_full (const char *path, WbTraceSetLoadFlags flags, GError **error);
/* wb_trace_set_new_from_traces: a set over already parsed traces (transfer none: each is ref'ed). */
WbTraceSet *wb_trace_set_new (void);
void        wb_trace_set_add (WbTraceSet *set, WbTrace *trace, WbTraceKind kind, int index, const char *subset, const char *label, const char *path);
guint       wb_trace_set_get_n_entries (const WbTraceSet *set);
/* wb_trace_set_get_entry: (transfer none) entry @i. */
const WbTraceEntry *wb_trace_set_get_entry (const WbTraceSet *set, guint i);
/* wb_trace_set_get_n_failures: number of files of the directory that did not load, in path order. */
guint wb_trace_set_get_n_failures (const WbTraceSet *set);
/* wb_trace_set_get_failure: (transfer none) failure @i. */
const WbTraceFailure *wb_trace_set_get_failure (const WbTraceSet *set, guint i);
/* wb_trace_set_new_subset: (transfer full) sub-set @subset of @set (loaded from a folder with its sub-sets) as the
 * set wb_trace_set_load_full (@dir, @flags) of that sub-set's folder @dir would give: the same traces (shared,
 * not parsed again), with subset "", in the same order, and the failures of files under @dir. NULL with
 * WB_TRACE_ERROR as wb_trace_set_load for a folder where no file loaded, or WB_TRACE_ERROR_IO when @dir holds a
 * folder other than stages/ (whose traces the parent did not load as a sub-set of @subset: load @dir instead). */
WbTraceSet *wb_trace_set_new_subset (const WbTraceSet *set, const char *subset, const char *dir, GError **error);
/* wb_trace_set_copy_failures: appends @from's failures to @set (their texts copied), for a set built
 * from another's entries (the app's document) that must still say which files did not load; it also takes
 * @from's world size and rank (read from meta.json, not from the traces: without them a rank's
 * all_gather and reduce_scatter would be typed for a world of one). */
void wb_trace_set_copy_failures (WbTraceSet *set, const WbTraceSet *from);
/* wb_trace_set_get_world_size: the number of ranks of the distributed run the set was recorded in: the
 * "distributed": {"world_size": W} of the loaded folder's meta.json, else the size of the first
 * process group an annotated all_gather / reduce_scatter / synchronize sizes, else 1 (not
 * distributed). Thread-safe; the inference runs on first use and is cached. */
int wb_trace_set_get_world_size (const WbTraceSet *set);
/* wb_trace_set_get_rank: this set's rank ("distributed": {"rank": R} of meta.json), else 0. */
int  wb_trace_set_get_rank (const WbTraceSet *set);
void wb_trace_set_free (WbTraceSet *set);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbTraceSet, wb_trace_set_free)

G_END_DECLS
