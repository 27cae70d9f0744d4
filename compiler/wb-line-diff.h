/* wb-line-diff.h — Myers' diff of two sequences of lines, and of the tokens of two lines (GTK-free)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/* wb_line_diff: the shortest edit script between the lines @a and @b (Myers' O(ND) algorithm, with the
 * common prefix and suffix trimmed first); past 4096 edits (whose frontiers would take D^2 memory) the
 * lines unique to each side anchor the alignment (patience) and the stretches between anchors are
 * diffed again, so two large, very different stages still align in bounded memory. Sets @a_changed[i] when line i of @a is deleted and
 * @b_changed[j] when line j of @b is inserted; @a_to_b[i] (nullable) gets the line of @b an unchanged
 * line i of @a matches, or G_MAXUINT. Returns the number of edits (deleted + inserted lines). */
guint wb_line_diff (const char *const *a, guint n_a, const char *const *b, guint n_b, guint8 *a_changed, guint8 *b_changed, guint *a_to_b);

/* wb_line_diff_spans: what differs inside a line. Both lines are cut into tokens (a name or number: a
 * run of letters, digits, '_' and non-ASCII bytes; a run of spaces; any other single character), the
 * tokens are diffed with wb_line_diff, and each run of deleted tokens of @a (inserted tokens of @b)
 * is appended to @a_spans (@b_spans) as two guints: its byte offset and its end. A name token of @b is
 * compared as @rename maps it (nullable: name -> name), so that with the pair's renaming only real
 * changes are spans. Returns the number of spans appended to both. */
guint wb_line_diff_spans (const char *a, const char *b, GHashTable *rename, GArray *a_spans, GArray *b_spans);

/* wb_line_rename: (transfer full) @line with every name that @rename maps replaced; @word is scratch
 * space, shared across calls. Digits glued to a name's front ("2t") are copied as they are. */
char *wb_line_rename (const char *line, GHashTable *rename, GString *word);

G_END_DECLS
