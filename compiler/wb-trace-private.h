/* wb-trace-private.h — internals of WbTrace shared inside compiler/ (builders for passes)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-arena.h"
#include "wb-trace.h"

G_BEGIN_DECLS

/* _wb_trace_get_arena: the arena that owns @trace's nodes (transfer none). */
WbArena *_wb_trace_get_arena (const WbTrace *trace);

/* _wb_trace_set_provenance: sets a computed trace's provenance and its "# Constructed by" line (only
 * while the trace is private to the pipeline that made it). */
void _wb_trace_set_provenance (WbTrace *trace, const char *provenance, double ms);

/* _wb_trace_set_keys: the keys of a pipeline's stage (only while the trace is private to the pipeline that
 * made it): @region_keys maps a region's name to the key the fusion pass gave it, @unfused_from a call's
 * key (wb_call_key) to the key of the region the assignment unfused it from (both referenced, nullable;
 * see wb_trace_get_call_key). */
void _wb_trace_set_keys (WbTrace *trace, GHashTable *region_keys, GHashTable *unfused_from);

/* _wb_trace_set_filename: the name a computed trace's diagnostics use ("<stage 4: Fusion>"). */
void _wb_trace_set_filename (WbTrace *trace, const char *filename);

/* _wb_bsym_run_lines: the number of lines @bsym's own text takes: more than 1 for a parsed run of
 * blank lines or of comment lines (one bsym each), else 1 (continuation lines and subsymbols not
 * counted). */
guint _wb_bsym_run_lines (const WbBsym *bsym);

/* _wb_dist_read_meta (wb-distributed.c): "distributed": {"world_size": W, "rank": R} of DIR/meta.json
 * into *world_size and *rank when present and sane (W >= 1, 0 <= R < W); both untouched otherwise (no
 * file, unreadable, no such key). Never blocks on a FIFO (wb_input_read_file). */
void _wb_dist_read_meta (const char *dir, int *world_size, int *rank);

G_END_DECLS
