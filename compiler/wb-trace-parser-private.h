/* wb-trace-parser-private.h — what the trace parser's files share (wb-trace-parser*.c, wb-trace-lexer.c); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-trace-lexer.c        scanning: errors at FILE:LINE:COL, characters, atoms (names and literals interned
 *                         per trace), number and string literals, physical lines
 * wb-trace-parser-expr.c  values by recursive descent: brackets, calls, attributes, subscripts, expression lists
 * wb-trace-parser-stmt.c  statements of the body: calls, assignments, unpacking, del, return, type annotations,
 *                         trailing comments
 * wb-trace-parser.c       the public API (wb_trace_parse*): the text line by line, header lines, the signature,
 *                         continuation lines, indentation, the subsymbol tree
 * Every name here is private to libwbcompiler (hidden visibility). */
#pragma once

#include "wb-arena.h"
#include "wb-compiler.h"
#include "wb-trace-private.h"

G_BEGIN_DECLS

#define MAX_NESTING 64

typedef struct
{
  gsize   offset; /* offset in the logical line */
  guint32 line;
  guint32 col; /* column of that offset */
} Segment;

typedef struct
{
  const char *filename;
  WbArena    *arena;
  GHashTable *atoms;      /* spelling -> WbValue* (names and literals) */
  GPtrArray  *flat;       /* WbBsym* of the body in order, depth set */
  GArray     *headers;    /* WbHeaderLine */
  GString    *joined;     /* logical line built from continuation lines */
  GArray     *segments;   /* Segment of the current logical line */
  GArray     *boundaries; /* gsize offsets of " \"-breaks in the current logical line */
  char        scratch[256];

  /* A run of consecutive blank lines, or of plain comment lines, in a body is one bsym whose text is
   * the run's span, copied once when the run ends (end_run): a file of empty lines or comments
   * costs its bytes, not a bound symbol per line. */
  WbBsym     *run;           /* the run's BLANK or COMMENT bsym, or NULL */
  guint       blank_headers; /* empty header lines in the run the last header line began, or 0 */
  const char *run_start;     /* BLANK: the first line's start; COMMENT: just after its '#' */
  const char *run_end;       /* BLANK: the last line's end; COMMENT: where its trailing whitespace starts */
  const char *run_line_end;  /* COMMENT: the last line's end */

  /* current logical line */
  const char *s;
  gsize       n;
  gsize       pos;
  int         nesting;
  GError    **error;
  gboolean    failed;
} Parser;

typedef struct
{
  const char *text;
  gsize       len;
  gsize       pos;  /* start of the next line */
  guint32     line; /* number of the next line */
} Lines;

#define FAIL(p, off, code, ...) (_wb_tp_fail_at ((p), (off), (code), __VA_ARGS__), NULL)

/* characters of the current logical line */
static inline gboolean
_wb_tp_is_ident_start (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline gboolean
_wb_tp_is_ident_char (char c)
{
  return _wb_tp_is_ident_start (c) || (c >= '0' && c <= '9');
}

/* _wb_tp_name_end: the end of the name starting at @pos of @s (@n bytes). Thunder prints proxy names made
 * from module paths, which need not be Python identifiers: a '-' between two name characters
 * ("t_block1-0_weight") belongs to the name (traces print no subtraction). */
static inline gsize
_wb_tp_name_end (const char *s, gsize n, gsize pos)
{
  while (pos < n && (_wb_tp_is_ident_char (s[pos]) || (s[pos] == '-' && pos > 0 && _wb_tp_is_ident_char (s[pos - 1]) && pos + 1 < n && _wb_tp_is_ident_char (s[pos + 1]))))
    pos++;
  return pos;
}

static inline gboolean
_wb_tp_is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static inline void
_wb_tp_skip_spaces (Parser *p)
{
  while (p->pos < p->n && p->s[p->pos] == ' ')
    p->pos++;
}

static inline char
_wb_tp_peek (Parser *p)
{
  return p->pos < p->n ? p->s[p->pos] : '\0';
}

/* wb-trace-lexer.c */
/* _wb_tp_fail_at: sets the parser's error "FILE:LINE:COL: MESSAGE" for @offset in the logical line (the
 * first failure only). FAIL() does the same and gives NULL. */
void        _wb_tp_fail_at (Parser *p, gsize offset, WbTraceError code, const char *fmt, ...) G_GNUC_PRINTF (4, 5);
const char *_wb_tp_describe_char (Parser *p, char *buf);
gboolean    _wb_tp_expect_char (Parser *p, char c, const char *what);
/* Interned atoms: one WbValue per distinct spelling in a trace. */
WbValue *_wb_tp_intern (Parser *p, WbValueKind kind, const char *s, gsize len, gboolean *is_new);
WbValue *_wb_tp_new_value (Parser *p, WbValueKind kind);
WbValue *_wb_tp_parse_number (Parser *p);
WbValue *_wb_tp_parse_string (Parser *p);
/* Next physical line (without its newline). Returns FALSE at the end. */
gboolean _wb_tp_next_line (Lines *l, const char **s, gsize *n, guint32 *line, gboolean *had_newline);
void     _wb_tp_set_single_segment (Parser *p, guint32 line, guint32 col);
gsize    _wb_tp_count_indent (const char *s, gsize n);
gsize    _wb_tp_trailing_ws_start (const char *s, gsize n);
gboolean _wb_tp_check_text (Parser *p, const char *s, gsize n, guint32 line);

/* wb-trace-parser-expr.c */
WbValue *_wb_tp_parse_postfix (Parser *p);
/* A comma-separated expression list without brackets; more than one item (or a trailing comma) makes a
 * bare tuple. Records " \" line breaks (p->boundaries) after commas. */
WbValue *_wb_tp_parse_expr_list (Parser *p, gboolean allow_bare);

/* wb-trace-parser-stmt.c */
/* One statement on the logical line p->s (indentation and any "# " prefix removed). */
gboolean _wb_tp_parse_statement (Parser *p, WbBsym *bsym);
WbBsym  *_wb_tp_new_bsym (Parser *p, WbBsymKind kind, guint32 line, guint32 col, guint depth);
/* A top-level comment: "# name: \"type\"" is an annotation; anything else a comment. */
/* _wb_tp_is_plain_comment: whether the comment @s ("#...", @n bytes) is not an annotation
 * ("# name: \"type\""), so that _wb_tp_parse_body_comment makes it a WB_BSYM_COMMENT. */
gboolean _wb_tp_is_plain_comment (const char *s, gsize n);
gboolean _wb_tp_parse_body_comment (Parser *p, const char *s, gsize n, guint32 line, guint32 col, WbBsym *b);

G_END_DECLS
