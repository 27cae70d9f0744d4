/* wb-export.h — exports of one stage: Thunder's Python, a standalone PyTorch script, Graphviz DOT and SVG
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: turning a WbTrace (a stage) into text for other tools. `python` is the stage as Thunder prints it;
 * `torch` is a script that imports only torch and runs the stage (every bound symbol lowered to PyTorch calls
 * through Thunder's prims, executor operators and fusion regions included), with seeded or loaded inputs,
 * checksums, a comparison with a reference safetensors file and eager / torch.compile timings; `dot` is the
 * dataflow graph with one cluster per fusion region; `svg` is that graph laid out by Graphviz (libgvc).
 * Depends on: compiler (the IR), GLib, Graphviz's libgvc/libcgraph (optional: without them `svg` fails with
 * WB_EXPORT_ERROR_UNSUPPORTED).
 * Threads: every function is reentrant except wb_export_dot_to_svg() (and wb_export_entry() for SVG):
 * Graphviz keeps global state, so call it from one thread at a time. */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include "wb-compiler.h"

G_BEGIN_DECLS

#define WB_EXPORT_ERROR (wb_export_error_quark ())
GQuark wb_export_error_quark (void);

/* Errors of WB_EXPORT_ERROR. */
typedef enum
{
  WB_EXPORT_ERROR_BAD_ENTRY = 1, /* the entry number is out of range */
  WB_EXPORT_ERROR_UNSUPPORTED,   /* this build cannot produce the format (SVG without Graphviz) */
  WB_EXPORT_ERROR_LAYOUT,        /* Graphviz rejected the DOT text or failed to lay it out */
} WbExportError;

typedef enum
{
  WB_EXPORT_FORMAT_PYTHON = 1, /* the stage as Thunder prints it (repr: subsymbols as comments) */
  WB_EXPORT_FORMAT_TORCH,      /* a standalone PyTorch script (see wb_export_torch) */
  WB_EXPORT_FORMAT_DOT,        /* Graphviz DOT text (see wb_export_dot) */
  WB_EXPORT_FORMAT_SVG,        /* the DOT graph laid out with Graphviz's dot layout */
} WbExportFormat;

/* wb_export_format_from_string: "python", "torch", "dot" or "svg"; FALSE for anything else. */
gboolean wb_export_format_from_string (const char *name, WbExportFormat *format);
/* wb_export_format_to_string: the name of @format (transfer none). */
const char *wb_export_format_to_string (WbExportFormat format);

/* What a trace does when it runs, from its kind, signature and return statement. */
typedef enum
{
  WB_EXPORT_ROLE_FORWARD = 1,   /* computation(...) returning its outputs (inference; early training stages) */
  WB_EXPORT_ROLE_FINAL_FORWARD, /* returns ({'output', 'flat_args', 'flat_output'}, (saved tensors, others)) */
  WB_EXPORT_ROLE_JOINT,         /* joint forward+backward: returns {'output': grads, 'flat_args', 'fw_flat_out'} */
  WB_EXPORT_ROLE_BACKWARD,      /* backward_fn(saved_for_backward, cotangents) */
  WB_EXPORT_ROLE_PROLOGUE,      /* prologue(*args, **kwargs) */
  WB_EXPORT_ROLE_EPILOGUE,      /* epilogue(...) */
} WbExportRole;

/* wb_export_trace_role: the role of @trace; @kind is its kind in its set (WB_TRACE_KIND_UNKNOWN if none). */
WbExportRole wb_export_trace_role (const WbTrace *trace, WbTraceKind kind);
/* wb_export_role_to_string: "forward", "final_forward", "joint", "backward", "prologue", "epilogue". */
const char *wb_export_role_to_string (WbExportRole role);

/* wb_export_find_companion: the entry the torch export of entry @k runs with it, or -1: for a final forward
 * the backward of the same sub-set (the last backward_NN, or the split_backward stage for a split_forward
 * stage), for a backward the final forward that produces its saved-for-backward. */
int wb_export_find_companion (const WbTraceSet *set, guint k);

typedef struct
{
  WbTraceKind    kind;      /* @trace's kind in its set (WB_TRACE_KIND_UNKNOWN if none) */
  const WbTrace *companion; /* see wb_export_find_companion(); NULL to export @trace alone */
  WbTraceKind    companion_kind;
  const char    *source; /* named in the script's header and output ("mlp_small entry 9"); may be NULL */
} WbExportTorchOptions;

/* wb_export_torch: a Python script that imports only torch (and the standard library) and runs @trace:
 * each top-level bound symbol that is a prim becomes the equivalent PyTorch call; any other symbol is
 * lowered through the subsymbols Thunder printed for it, down to prims; fusion regions (TorchCompileN,
 * nvFusionN) become functions of their own; executor operators Thunder prints without a decomposition
 * (the sdpa executor's attention forward/backward, clear_mutable_collection, *_impl aliases of prims) have
 * explicit mappings. Inputs have the annotated shapes and dtypes (seeded; integer tensors used as indices
 * stay in range) or come from a safetensors file. With a companion the script runs forward then backward.
 * Anything that cannot be mapped becomes a `raise NotImplementedError(...)` at its place, and a message
 * "FILE:LINE: ..." is appended to @warnings (element-type char*, may be NULL).
 * Returns (transfer full) the script. */
char *wb_export_torch (const WbTrace              *trace,
                       const WbExportTorchOptions *options,
                       GPtrArray                  *warnings);

/* wb_export_python: (transfer full) @trace as Thunder prints it (wb_trace_print). */
char *wb_export_python (const WbTrace *trace);

/* wb_export_dot: (transfer full) a Graphviz digraph of @trace: one node per top-level bound symbol (and per
 * input), labelled with the operation and the output names and types; edges along the dataflow; a fusion
 * region is a cluster "cluster_<region>" holding one node per bound symbol of its body. @title may be NULL. */
char *wb_export_dot (const WbTrace *trace, const char *title);

/* wb_export_dot_to_svg: lays out @dot with Graphviz's "dot" layout and renders SVG into *@svg (transfer
 * full, NUL-terminated; *@len its length, may be NULL). FALSE with WB_EXPORT_ERROR set on failure. */
gboolean wb_export_dot_to_svg (const char *dot, char **svg, gsize *len, GError **error);

/* wb_export_entry: exports entry @k of @set in @format (the torch export runs with the companion of
 * wb_export_find_companion() unless @with_companion is FALSE). @source names the set in headers.
 * Returns (transfer full) the text (SVG: the document) or NULL with WB_EXPORT_ERROR set. */
char *wb_export_entry (const WbTraceSet *set,
                       guint             k,
                       WbExportFormat    format,
                       gboolean          with_companion,
                       const char       *source,
                       GPtrArray        *warnings,
                       GError          **error);

G_END_DECLS
