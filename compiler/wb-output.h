/* wb-output.h — writing an output file that the user named: atomically, or in place for a FIFO or terminal
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/* wb_output_write: writes @len bytes of @data (@len < 0: a NUL-terminated string) to @path, by what
 * @path is now:
 *  - absent or a regular file: a temporary file beside it, renamed over it (g_file_set_contents());
 *    on error the temporary file is removed and the old file is left as it was;
 *  - a FIFO, or a character device that is a terminal: opened and written in place, never replaced;
 *  - a symbolic link: followed. To a regular file, that file is replaced as above and the link kept
 *    (under /dev/ or /proc/, as /dev/stdout redirected to a file, it is appended to instead); to a
 *    FIFO or terminal, written in place; a dangling link is refused;
 *  - anything else (a directory, a device that is not a terminal such as /dev/null, a socket) is
 *    refused and left alone.
 * Returns FALSE with G_FILE_ERROR set, its message starting with "@path: ". */
gboolean wb_output_write (const char *path, const char *data, gssize len, GError **error);

/* How wb_output_escape_text() writes text. */
typedef enum
{
  WB_ESCAPE_DEFAULT = 0,          /* every control character escaped, newlines and tabs too */
  WB_ESCAPE_KEEP_LAYOUT = 1 << 0, /* newlines and tabs kept as they are */
  WB_ESCAPE_MARKDOWN = 1 << 1,    /* also a backslash before Markdown's (and HTML's) special characters */
} WbEscapeFlags;

/* wb_output_escape_text: @len bytes of @text (-1: NUL-terminated) made safe for a terminal or a report:
 * every control character (C0, DEL, C1) and every byte that is not UTF-8 is written as "\xNN" (so a
 * string from a file cannot move the cursor, recolour or clear a terminal, and is valid UTF-8); with
 * WB_ESCAPE_MARKDOWN the characters \ ` * _ [ ] < > | & ! # ~ get a backslash, so that a name from a file
 * is shown as text in Markdown and never becomes markup or HTML. (transfer full); NULL for NULL. */
char *wb_output_escape_text (const char *text, gssize len, WbEscapeFlags flags);

G_END_DECLS
