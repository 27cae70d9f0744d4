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

G_END_DECLS
