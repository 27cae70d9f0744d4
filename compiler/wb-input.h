/* wb-input.h — reading a file the user named: only regular files, never blocking, within a size limit
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/* The size limit of one trace file when neither $WB_MAX_TRACE_BYTES nor
 * wb_input_set_max_trace_bytes() says otherwise: 256 MiB, far above any trace Thunder prints (the
 * zoo's largest is under 1 MiB) and what the parser's memory (a few times the text) can afford. */
#define WB_INPUT_DEFAULT_MAX_TRACE_BYTES ((guint64) 256 * 1024 * 1024)

/* wb_input_get_max_trace_bytes: the size limit of one trace file in bytes: the last value given to
 * wb_input_set_max_trace_bytes(), else $WB_MAX_TRACE_BYTES (a whole number of bytes, with an optional
 * suffix K, M or G for KiB, MiB, GiB) when it is set and valid, else WB_INPUT_DEFAULT_MAX_TRACE_BYTES.
 * Thread-safe. */
guint64 wb_input_get_max_trace_bytes (void);
/* wb_input_set_max_trace_bytes: sets the limit for this process (0: back to the environment's or the
 * default). Thread-safe. */
void wb_input_set_max_trace_bytes (guint64 max_bytes);
/* wb_input_parse_size: parses @text ("1048576", "64M", "2G") as a number of bytes into *@out.
 * FALSE when it is not a whole number from 1 to 2^62 with an optional K, M or G suffix. */
gboolean wb_input_parse_size (const char *text, guint64 *out);

/* wb_input_open: opens @path for reading with O_NONBLOCK (a FIFO never blocks the open) and keeps it
 * only when fstat() on the descriptor says it is a regular file; *@size (nullable) is its size.
 * Returns the descriptor (the caller closes it), or -1 with WB_TRACE_ERROR_IO set, the message
 * starting with "@path:1:1: " and naming what @path is instead ("a FIFO", "a device", ...). */
int wb_input_open (const char *path, guint64 *size, GError **error);
/* wb_input_read_file: reads the whole of @path into *@contents (transfer full, NUL-terminated) and
 * *@length. The file is opened with O_NONBLOCK and checked with fstat() on what was opened, so a FIFO, a
 * device (/dev/zero), a socket or a directory is refused at once, never read; a regular file larger than
 * @max_bytes is refused before any of it is read (and a file that grows past it while being read is
 * refused too). Returns FALSE with WB_TRACE_ERROR set: WB_TRACE_ERROR_IO (cannot open, not a regular
 * file, read error) or WB_TRACE_ERROR_TOO_LARGE; every message starts with "@path:1:1: ". */
gboolean wb_input_read_file (const char *path,
                             guint64     max_bytes,
                             char      **contents,
                             gsize      *length,
                             GError    **error);

/* wb_input_json_finite: (transfer full) the JSON text @text (@length bytes) with Python's non-standard numbers
 * NaN, Infinity and -Infinity (what json.dump writes for float('nan') and float('inf'), and RFC 8259 and
 * json-glib refuse) replaced by null outside strings; *@out_length (nullable) gets its length. Recorders'
 * meta.json and zoo.json files hold them where a timing or a statistic was not finite. */
char *wb_input_json_finite (const char *text, gsize length, gsize *out_length);

G_END_DECLS
