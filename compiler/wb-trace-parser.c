/* wb-trace-parser.c — reads Thunder's printed traces (current and older print formats)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grammar is the one Thunder's printer produces (thunder/core/trace.py TraceCtx.python and
 * thunder/core/symbol.py BoundSymbol.python; summarised in docs/ARCHITECTURE.md): a provenance
 * comment, imports, decorators, `def name(params):`, then a body indented by two spaces where every
 * subsymbol is a "# " comment two spaces deeper than its parent.
 *
 * The parser is line based and hand written (no regular expressions, no recursion on lines) so that
 * it runs at well over 50 MB/s; values are parsed by recursive descent with a nesting limit, and all
 * memory goes to the trace's arena. Atoms (names and literals) are interned per trace.
 *
 * This file reads the text line by line (header lines, the signature, the body's indentation and
 * continuation lines) and builds the subsymbol tree; scanning is in wb-trace-lexer.c, values in
 * wb-trace-parser-expr.c, statements in wb-trace-parser-stmt.c (wb-trace-parser-private.h). */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "wb-trace-parser-private.h"

/* Ends the run of empty header lines being read: the run's header line holds a newline for each line
 * after its first, so that it prints as many lines. */
static void
end_blank_headers (Parser *p)
{
  if (p->blank_headers > 1)
    {
      char *text = wb_arena_alloc (p->arena, p->blank_headers);

      memset (text, '\n', p->blank_headers - 1);
      text[p->blank_headers - 1] = '\0';
      g_array_index (p->headers, WbHeaderLine, p->headers->len - 1).text = text;
    }
  p->blank_headers = 0;
}

static void
add_header (Parser *p, WbHeaderKind kind, const char *s, gsize n, guint32 line)
{
  WbHeaderLine h = { kind, line, NULL };

  /* consecutive empty lines are one header line (a file of empty lines costs its bytes) */
  if (kind == WB_HEADER_BLANK && n == 0 && p->blank_headers > 0)
    {
      p->blank_headers++;
      return;
    }
  end_blank_headers (p);
  h.text = wb_arena_strndup (p->arena, s, n);
  g_array_append_val (p->headers, h);
  if (kind == WB_HEADER_BLANK && n == 0)
    p->blank_headers = 1;
}

static gboolean
validate_import (Parser *p, const char *s, gsize n, guint32 line)
{
  /* import a.b [as c][, ...] | from a.b import c [as d][, ...] */
  for (gsize i = 0; i < n; i++)
    {
      char c = s[i];
      if (!(_wb_tp_is_ident_char (c) || c == '.' || c == ' ' || c == ','))
        {
          _wb_tp_set_single_segment (p, line, 1);
          _wb_tp_fail_at (p, i, WB_TRACE_ERROR_SYNTAX, "unexpected character in an import");
          return FALSE;
        }
    }
  if (s[n - 1] == ' ' || s[n - 1] == '.' || s[n - 1] == ',' || (s[0] == 'f' && g_strstr_len (s, n, " import ") == NULL))
    {
      _wb_tp_set_single_segment (p, line, 1);
      _wb_tp_fail_at (p, n, WB_TRACE_ERROR_SYNTAX, "incomplete import");
      return FALSE;
    }
  return TRUE;
}

/* The header's last line when it is a provenance line without '#', else NULL. */
static const WbHeaderLine *
bare_provenance (Parser *p)
{
  const WbHeaderLine *h = NULL;
  for (guint i = 0; i < p->headers->len; i++)
    if (g_array_index (p->headers, WbHeaderLine, i).kind != WB_HEADER_BLANK)
      h = &g_array_index (p->headers, WbHeaderLine, i);
  return h != NULL && h->kind == WB_HEADER_PROVENANCE && h->text[0] != '#' ? h : NULL;
}

/* The text Thunder writes for a stage it skipped: `None` (and white space). */
static gboolean
is_none_text (const char *text, gsize len)
{
  gsize a = 0, b = len;
  while (a < b && g_ascii_isspace (text[a]))
    a++;
  while (b > a && g_ascii_isspace (text[b - 1]))
    b--;
  return b - a == 4 && memcmp (text + a, "None", 4) == 0;
}

/* No header line but blank ones yet: where a provenance line may stand. */
static gboolean
only_blank_headers (Parser *p)
{
  for (guint i = 0; i < p->headers->len; i++)
    if (g_array_index (p->headers, WbHeaderLine, i).kind != WB_HEADER_BLANK)
      return FALSE;
  return TRUE;
}

static void
parse_provenance (Parser *p, WbTrace *t, const char *s, gsize n)
{
  const char *prov = s + strlen ("# Constructed by ");
  gsize       plen = n - strlen ("# Constructed by ");
  const char *took = g_strstr_len (prov, plen, " (took ");
  t->provenance_ms = -1;
  if (took != NULL && plen >= 2 && g_str_has_suffix (wb_arena_strndup (p->arena, prov, plen), " milliseconds)"))
    {
      char  buf[32];
      gsize k = 0;
      for (const char *q = took + 7; q < prov + plen && *q != ' ' && k + 1 < sizeof buf; q++)
        buf[k++] = *q;
      buf[k] = '\0';
      t->provenance_ms = g_ascii_strtod (buf, NULL);
      plen = took - prov;
    }
  t->provenance = wb_arena_strndup (p->arena, prov, plen);
}

/* Builds the subsymbol tree from the flat list. */
static void
build_tree (Parser *p, WbTrace *t)
{
  guint    n = p->flat->len, top = 0;
  WbBsym **stack = g_new (WbBsym *, 1 + n);
  guint   *counts = g_new0 (guint, n);
  guint    sp = 0;
  /* pass 1: count children */
  for (guint i = 0; i < n; i++)
    {
      WbBsym *b = p->flat->pdata[i];
      while (sp > b->depth)
        sp--;
      if (b->depth == 0)
        top++;
      else
        counts[GPOINTER_TO_UINT (stack[sp - 1]->subsymbols)]++;
      b->subsymbols = GUINT_TO_POINTER (i); /* temporary: own index */
      stack[sp++] = b;
    }
  t->body = wb_arena_newv (p->arena, WbBsym *, top);
  for (guint i = 0; i < n; i++)
    {
      WbBsym *b = p->flat->pdata[i];
      guint   idx = GPOINTER_TO_UINT (b->subsymbols);
      b->subsymbols = counts[idx] ? wb_arena_newv (p->arena, WbBsym *, counts[idx]) : NULL;
      b->n_subsymbols = 0;
    }
  sp = 0;
  for (guint i = 0; i < n; i++)
    {
      WbBsym *b = p->flat->pdata[i];
      while (sp > b->depth)
        sp--;
      if (b->depth == 0)
        t->body[t->n_body++] = b;
      else
        {
          WbBsym *parent = stack[sp - 1];
          parent->subsymbols[parent->n_subsymbols++] = b;
        }
      stack[sp++] = b;
    }
  g_free (stack);
  g_free (counts);
}

/* Ends the run of blank or comment lines being read, if any: its span becomes its text. */
static void
end_run (Parser *p)
{
  WbBsym *b = p->run;

  if (b == NULL)
    return;
  if (b->kind == WB_BSYM_BLANK)
    b->trailing = p->run_end > p->run_start ? wb_arena_strndup (p->arena, p->run_start, p->run_end - p->run_start) : NULL;
  else
    {
      b->comment = wb_arena_strndup (p->arena, p->run_start, p->run_end - p->run_start);
      b->trailing = p->run_line_end > p->run_end ? wb_arena_strndup (p->arena, p->run_end, p->run_line_end - p->run_end) : NULL;
    }
  p->run = NULL;
}

static WbTrace *
finish_trace (Parser *p, WbTrace *t, guint32 last_line, gboolean had_newline)
{
  end_run (p);
  end_blank_headers (p);
  t->n_header = p->headers->len;
  t->header = wb_arena_memdup (p->arena, p->headers->data, sizeof (WbHeaderLine) * p->headers->len);
  build_tree (p, t);
  t->last_line = last_line;
  t->ends_with_newline = had_newline;
  return t;
}

static WbTrace *
trace_new (Parser *p, const char *filename, guint32 first_line)
{
  WbTrace *t = g_new0 (WbTrace, 1);
  t->ref_count = 1;
  p->arena = wb_arena_new ();
  t->arena = p->arena;
  t->filename = wb_arena_strdup (p->arena, filename);
  t->first_line = first_line;
  t->provenance_ms = -1;
  g_hash_table_remove_all (p->atoms);
  g_ptr_array_set_size (p->flat, 0);
  g_array_set_size (p->headers, 0);
  p->blank_headers = 0;
  return t;
}

/* Parses the signature line "def name(params):" (p->s set). */
static gboolean
parse_def (Parser *p, WbTrace *t, const char *s, gsize n, guint32 line)
{
  WbValue *call;
  _wb_tp_set_single_segment (p, line, 5);
  p->s = s + 4;
  p->n = n - 4;
  p->pos = 0;
  p->nesting = 0;
  call = _wb_tp_parse_postfix (p);
  if (call == NULL)
    return FALSE;
  if (call->kind != WB_VALUE_CALL || call->base->kind != WB_VALUE_NAME || call->n_kwargs != 0)
    return _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected 'def name(parameters):'"), FALSE;
  for (guint i = 0; i < call->n_items; i++)
    {
      WbValue *a = call->items[i];
      if (a->kind == WB_VALUE_STAR || a->kind == WB_VALUE_STARSTAR)
        a = a->base;
      if (a->kind != WB_VALUE_NAME)
        return _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "parameters must be names"), FALSE;
    }
  if (!_wb_tp_expect_char (p, ':', "':' after the parameters"))
    return FALSE;
  if (p->pos != p->n)
    return _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after ':'"), FALSE;
  t->function_name = call->base->text;
  t->params = call->items;
  t->n_params = call->n_items;
  return TRUE;
}

/* One line before 'def' (@t's header), or the signature itself (*is_def set). FALSE on an error. */
static gboolean
header_line (Parser *p, WbTrace *t, const char *s, gsize n, guint32 line, gsize indent, gboolean blank, gboolean *is_def)
{
  *is_def = FALSE;
  if (blank)
    {
      if (n > 0)
        {
          _wb_tp_set_single_segment (p, line, 1);
          _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "whitespace on a blank line before 'def'");
          return FALSE;
        }
      add_header (p, WB_HEADER_BLANK, s, n, line);
    }
  else if (indent > 0)
    {
      const WbHeaderLine *bare = bare_provenance (p);
      if (bare != NULL)
        {
          /* a body line that lost its indentation, not a provenance line */
          _wb_tp_set_single_segment (p, bare->line, 1);
          _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected a comment, 'import', a decorator or 'def'");
          return FALSE;
        }
      _wb_tp_set_single_segment (p, line, 1);
      _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "unexpected indentation before 'def'");
      return FALSE;
    }
  else if (n >= 17 && memcmp (s, "# Constructed by ", 17) == 0)
    {
      add_header (p, WB_HEADER_PROVENANCE, s, n, line);
      parse_provenance (p, t, s, n);
    }
  else if (s[0] == '#')
    {
      add_header (p, WB_HEADER_COMMENT, s, n, line);
      if (n == 25 && memcmp (s, "# No signature available", 24) == 0)
        t->no_signature = TRUE;
    }
  else if ((n > 7 && memcmp (s, "import ", 7) == 0) || (n > 5 && memcmp (s, "from ", 5) == 0))
    {
      if (!validate_import (p, s, n, line))
        return FALSE;
      add_header (p, WB_HEADER_IMPORT, s, n, line);
    }
  else if (s[0] == '@')
    {
      _wb_tp_set_single_segment (p, line, 2);
      p->s = s + 1;
      p->n = n - 1;
      p->pos = 0;
      p->nesting = 0;
      if (_wb_tp_parse_postfix (p) == NULL)
        return FALSE;
      if (p->pos != p->n)
        {
          _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after the decorator");
          return FALSE;
        }
      add_header (p, WB_HEADER_DECORATOR, s, n, line);
    }
  else if (n > 4 && memcmp (s, "def ", 4) == 0)
    {
      if (!parse_def (p, t, s, n, line))
        return FALSE;
      *is_def = TRUE;
    }
  else if (t->provenance == NULL && only_blank_headers (p) && g_utf8_validate_len (s, n, NULL))
    {
      /* Thunder may print a provenance line without '#' ("Extraction only prologue pass") */
      add_header (p, WB_HEADER_PROVENANCE, s, n, line);
      t->provenance = wb_arena_strndup (p->arena, s, n);
    }
  else
    {
      _wb_tp_set_single_segment (p, line, 1);
      _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected a comment, 'import', a decorator or 'def'");
      return FALSE;
    }
  return TRUE;
}

/* One line of the text as the parser reads it */
typedef struct
{
  const char *s;
  gsize       n;
  gsize       indent;      /* leading spaces */
  gsize       content_end; /* where the trailing whitespace starts */
  gboolean    blank;
  guint32     line;
  gboolean    had_newline;
} Line;

/* The next trace begins at @line (a line at column 0 after @t's body): @t ends without its trailing
 * blank lines, which go to the new trace's header. Returns the new trace. */
static WbTrace *
next_trace (Parser *p, WbTrace *t, GPtrArray *traces, const char *filename, guint32 last_line, guint32 line)
{
  guint nb = 0;

  end_run (p);
  while (p->flat->len > 0 && ((WbBsym *) p->flat->pdata[p->flat->len - 1])->kind == WB_BSYM_BLANK)
    {
      nb += _wb_bsym_run_lines (p->flat->pdata[p->flat->len - 1]);
      g_ptr_array_set_size (p->flat, p->flat->len - 1);
    }
  g_ptr_array_add (traces, finish_trace (p, t, last_line - nb, TRUE));
  t = trace_new (p, filename, line - nb);
  for (guint i = 0; i < nb; i++)
    add_header (p, WB_HEADER_BLANK, "", 0, line - nb + i);
  return t;
}

/* A statement whose line ends in " \": joins it and its continuation lines (each at the statement's
 * indentation) into p->joined, with a segment per line for error locations and the offset of each break
 * in p->boundaries, and sets the logical line to it. @ln ends as the last line read. */
static gboolean
join_continued (Parser *p, Lines *L, Line *ln)
{
  gsize       indent = ln->indent;
  const char *c = ln->s + indent;
  gsize       cn = ln->content_end - indent;
  Segment     seg = { 0, ln->line, (guint32) indent + 1 };

  g_string_truncate (p->joined, 0);
  g_array_set_size (p->segments, 0);
  g_array_set_size (p->boundaries, 0);
  g_array_append_val (p->segments, seg);
  while (cn > 0 && c[cn - 1] == '\\')
    {
      gsize       b_off;
      const char *ns;
      gsize       nn, nind, nend;
      guint32     nline;
      gboolean    nl;
      if (cn < 2 || c[cn - 2] != ' ')
        {
          _wb_tp_fail_at (p, p->joined->len + cn - 1, WB_TRACE_ERROR_SYNTAX, "expected ' \\' at the end of a continued line");
          return FALSE;
        }
      g_string_append_len (p->joined, c, cn - 1);
      b_off = p->joined->len - 1;
      g_array_append_val (p->boundaries, b_off);
      if (!_wb_tp_next_line (L, &ns, &nn, &nline, &nl))
        {
          _wb_tp_fail_at (p, b_off + 1, WB_TRACE_ERROR_SYNTAX, "line continued past the end of the text");
          return FALSE;
        }
      ln->had_newline = nl;
      ln->line = nline;
      nind = _wb_tp_count_indent (ns, nn);
      nend = _wb_tp_trailing_ws_start (ns, nn);
      if (nind != indent || nend <= nind)
        {
          Segment s2 = { p->joined->len, nline, 1 };
          g_array_append_val (p->segments, s2);
          _wb_tp_fail_at (p, p->joined->len + MIN (nind, nn), WB_TRACE_ERROR_SYNTAX, "a continued line must keep the statement's indentation");
          return FALSE;
        }
      seg.offset = p->joined->len;
      seg.line = nline;
      seg.col = (guint32) nind + 1;
      g_array_append_val (p->segments, seg);
      ln->s = ns;
      ln->n = nn;
      ln->content_end = nend;
      c = ns + nind;
      cn = nend - nind;
    }
  g_string_append_len (p->joined, c, cn);
  p->s = p->joined->str;
  p->n = p->joined->len;
  return TRUE;
}

/* A statement of the body (depth 0, not a comment) into @b, with its continuation lines: only unpacking
 * statements may be continued, and only after a ',' of the names. */
static gboolean
statement_line (Parser *p, Lines *L, Line *ln, WbBsym *b)
{
  const char *c = ln->s + ln->indent;
  gsize       cn = ln->content_end - ln->indent;

  if (cn > 0 && c[cn - 1] == '\\')
    {
      if (!join_continued (p, L, ln))
        return FALSE;
    }
  else
    {
      _wb_tp_set_single_segment (p, ln->line, ln->indent + 1);
      p->s = c;
      p->n = cn;
    }
  if (!_wb_tp_parse_statement (p, b))
    return FALSE;
  if (b->kind == WB_BSYM_UNPACK && b->outputs->breaks == NULL && p->boundaries->len > 0)
    {
      _wb_tp_fail_at (p, g_array_index (p->boundaries, gsize, 0), WB_TRACE_ERROR_SYNTAX, "a line may only be continued after a ',' of the unpacked names");
      return FALSE;
    }
  if (p->boundaries->len > 0 && b->kind != WB_BSYM_UNPACK)
    {
      _wb_tp_fail_at (p, g_array_index (p->boundaries, gsize, 0), WB_TRACE_ERROR_SYNTAX, "only unpacking statements may be continued with ' \\'");
      return FALSE;
    }
  return TRUE;
}

/* A subsymbol comment ("# ..." @depth levels below the body) into a new bsym (*@b): its parent is the
 * statement on the line above, one level up. */
static gboolean
subsymbol_line (Parser *p, const Line *ln, guint depth, WbBsym **b)
{
  const char *c = ln->s + ln->indent;
  gsize       cn = ln->content_end - ln->indent;
  WbBsym     *prev = p->flat->len ? p->flat->pdata[p->flat->len - 1] : NULL;
  guint       prev_depth = prev ? prev->depth : 0;

  if (cn < 2 || c[0] != '#' || c[1] != ' ')
    {
      _wb_tp_set_single_segment (p, ln->line, 1);
      _wb_tp_fail_at (p, ln->indent, WB_TRACE_ERROR_SYNTAX, "bad indentation: only subsymbol comments ('# ...') are indented deeper than the body");
      return FALSE;
    }
  if (prev == NULL || depth > prev_depth + 1 || (depth == prev_depth + 1 && prev->kind != WB_BSYM_CALL && prev->kind != WB_BSYM_ASSIGN && prev->kind != WB_BSYM_UNPACK))
    {
      _wb_tp_set_single_segment (p, ln->line, 1);
      _wb_tp_fail_at (p, ln->indent, WB_TRACE_ERROR_SYNTAX, "subsymbol without a parent statement on the line above");
      return FALSE;
    }
  *b = _wb_tp_new_bsym (p, WB_BSYM_CALL, ln->line, ln->indent + 3, depth);
  _wb_tp_set_single_segment (p, ln->line, ln->indent + 3);
  p->s = c + 2;
  p->n = cn - 2;
  return _wb_tp_parse_statement (p, *b);
}

/* A plain comment line of the body (not an annotation): starts a run of comment lines or extends the
 * one the line above began. */
static gboolean
comment_line (Parser *p, Line *ln)
{
  const char *c = ln->s + ln->indent;

  if (!_wb_tp_check_text (p, c, ln->n - ln->indent, ln->line))
    return FALSE;
  if (p->run == NULL || p->run->kind != WB_BSYM_COMMENT)
    {
      end_run (p);
      p->run = _wb_tp_new_bsym (p, WB_BSYM_COMMENT, ln->line, ln->indent + 1, 0);
      p->run_start = c + 1;
      g_ptr_array_add (p->flat, p->run);
    }
  p->run_end = ln->s + ln->content_end;
  p->run_line_end = ln->s + ln->n;
  return TRUE;
}

/* One line of a body (indented by 2, subsymbols by 2 more each): a blank line, a subsymbol, a comment or
 * a statement, appended to p->flat with its trailing whitespace. FALSE on an error. */
static gboolean
body_line (Parser *p, Lines *L, Line *ln)
{
  gsize       indent = ln->indent;
  guint       depth;
  const char *c;
  gsize       cn;
  WbBsym     *b = NULL;

  if (ln->blank)
    {
      if (ln->n > 0 && !_wb_tp_check_text (p, ln->s, ln->n, ln->line))
        return FALSE;
      if (p->run == NULL || p->run->kind != WB_BSYM_BLANK)
        {
          end_run (p);
          p->run = _wb_tp_new_bsym (p, WB_BSYM_BLANK, ln->line, 1, 0);
          p->run_start = ln->s;
          g_ptr_array_add (p->flat, p->run);
        }
      p->run_end = ln->s + ln->n;
      return TRUE;
    }
  if (indent == 2 && ln->s[indent] == '#' && _wb_tp_is_plain_comment (ln->s + indent, ln->content_end - indent))
    return comment_line (p, ln);
  end_run (p);
  if (indent < 2 || (indent & 1))
    {
      _wb_tp_set_single_segment (p, ln->line, 1);
      _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "bad indentation: %" G_GSIZE_FORMAT " spaces (the body is indented by 2, subsymbols by 2 more each)", indent);
      return FALSE;
    }
  if (ln->s[indent] == '\t')
    {
      _wb_tp_set_single_segment (p, ln->line, 1);
      _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "tab in indentation");
      return FALSE;
    }
  depth = (guint) (indent - 2) / 2;
  c = ln->s + indent;
  cn = ln->content_end - indent;
  if (depth > 0)
    {
      if (!subsymbol_line (p, ln, depth, &b))
        return FALSE;
    }
  else if (c[0] == '#')
    {
      b = _wb_tp_new_bsym (p, WB_BSYM_COMMENT, ln->line, indent + 1, 0);
      if (!_wb_tp_parse_body_comment (p, c, cn, ln->line, indent + 1, b))
        return FALSE;
    }
  else
    {
      b = _wb_tp_new_bsym (p, WB_BSYM_CALL, ln->line, indent + 1, 0);
      if (!statement_line (p, L, ln, b))
        return FALSE;
    }
  if (ln->content_end < ln->n)
    {
      if (!_wb_tp_check_text (p, ln->s + ln->content_end, ln->n - ln->content_end, ln->line))
        return FALSE;
      b->trailing = wb_arena_strndup (p->arena, ln->s + ln->content_end, ln->n - ln->content_end);
    }
  g_ptr_array_add (p->flat, b);
  return TRUE;
}

/* The end of the text: the last trace (*@t) ends if its body began (*@t is then NULL); a header without
 * 'def', blank lines after the last body or no trace at all are errors. */
static void
end_of_text (Parser *p, WbTrace **t, gboolean in_body, GPtrArray *traces, guint32 last_line, gboolean last_had_newline)
{
  if (*t != NULL && in_body)
    {
      g_ptr_array_add (traces, finish_trace (p, *t, last_line, last_had_newline));
      *t = NULL;
    }
  else if (*t != NULL)
    {
      gboolean only_blank = TRUE;
      for (guint i = 0; i < p->headers->len; i++)
        if (g_array_index (p->headers, WbHeaderLine, i).kind != WB_HEADER_BLANK)
          only_blank = FALSE;
      _wb_tp_set_single_segment (p, last_line ? last_line : 1, 1);
      if (only_blank && traces->len > 0)
        _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "blank lines after the last trace's body must be indented or removed");
      else if (only_blank)
        _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_EMPTY, "no trace found (expected 'def ...')");
      else
        {
          Segment seg = { 0, last_line, 1 };
          g_array_set_size (p->segments, 0);
          g_array_append_val (p->segments, seg);
          _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected 'def' after the header, found the end of the text");
        }
    }
  else if (traces->len == 0)
    {
      _wb_tp_set_single_segment (p, 1, 1);
      _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_EMPTY, "no trace found: the text is empty");
    }
}

GPtrArray *
wb_trace_parse_many (const char *text, gssize len, const char *filename, GError **error)
{
  Parser     P = { 0 }, *p = &P;
  Lines      L;
  Line       ln;
  GPtrArray *traces;
  WbTrace   *t = NULL;
  gboolean   in_body = FALSE, is_def = FALSE, last_had_newline = FALSE;
  guint32    last_line = 0;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  if (len < 0)
    len = strlen (text);
  if (filename == NULL)
    filename = "<string>";
  if (is_none_text (text, len))
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_NOT_A_TRACE, "%s:1:1: not a trace (Thunder skipped this stage)", filename);
      return NULL;
    }

  traces = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_trace_unref);
  p->filename = filename;
  p->error = error;
  p->atoms = g_hash_table_new (g_str_hash, g_str_equal);
  p->flat = g_ptr_array_new ();
  p->headers = g_array_new (FALSE, FALSE, sizeof (WbHeaderLine));
  p->joined = g_string_new (NULL);
  p->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  p->boundaries = g_array_new (FALSE, FALSE, sizeof (gsize));
  L.text = text;
  L.len = len;
  L.pos = 0;
  L.line = 1;

  while (!p->failed && _wb_tp_next_line (&L, &ln.s, &ln.n, &ln.line, &ln.had_newline))
    {
      ln.indent = _wb_tp_count_indent (ln.s, ln.n);
      ln.content_end = _wb_tp_trailing_ws_start (ln.s, ln.n);
      ln.blank = ln.content_end == 0 || (ln.content_end == ln.indent);
      if (in_body && !ln.blank && ln.indent == 0)
        {
          t = next_trace (p, t, traces, filename, last_line, ln.line);
          in_body = FALSE;
        }
      if (!in_body)
        {
          /* the header: comments, imports and decorators, then 'def' */
          if (t == NULL)
            t = trace_new (p, filename, ln.line);
          if (!_wb_tp_check_text (p, ln.s, ln.n, ln.line))
            break;
          if (!header_line (p, t, ln.s, ln.n, ln.line, ln.indent, ln.blank, &is_def))
            break;
          in_body = is_def;
        }
      else if (!body_line (p, &L, &ln))
        break;
      last_line = ln.line;
      last_had_newline = ln.had_newline;
    }
  if (!p->failed)
    end_of_text (p, &t, in_body, traces, last_line, last_had_newline);

  if (t != NULL)
    wb_trace_unref (t);
  g_hash_table_unref (p->atoms);
  g_ptr_array_free (p->flat, TRUE);
  g_array_free (p->headers, TRUE);
  g_string_free (p->joined, TRUE);
  g_array_free (p->segments, TRUE);
  g_array_free (p->boundaries, TRUE);
  if (p->failed)
    {
      g_ptr_array_free (traces, TRUE);
      return NULL;
    }
  return traces;
}

WbTrace *
wb_trace_parse (const char *text, gssize len, const char *filename, GError **error)
{
  g_autoptr (GPtrArray) traces = wb_trace_parse_many (text, len, filename, error);
  if (traces == NULL)
    return NULL;
  if (traces->len != 1)
    {
      WbTrace *second = traces->pdata[1];
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_SYNTAX, "%s:%u:1: expected one trace, found %u (use wb_trace_parse_many)",
                   filename ? filename : "<string>", second->first_line, traces->len);
      return NULL;
    }
  return wb_trace_ref (traces->pdata[0]);
}

/* f32 -> f64 in place, same length: "f32[" not inside a name, and float32 after "dtypes." or "torch." */
static void
promote_f32_text (char *text, gsize len)
{
  for (gsize i = 0; i + 4 <= len; i++)
    {
      if (memcmp (text + i, "f32[", 4) == 0 && (i == 0 || !(g_ascii_isalnum (text[i - 1]) || text[i - 1] == '_')))
        text[i + 2] = '4', text[i + 1] = '6';
      else if (i + 7 <= len && memcmp (text + i, "float32", 7) == 0 && i >= 6 &&
               (memcmp (text + i - 6, "torch.", 6) == 0 || (i >= 7 && memcmp (text + i - 7, "dtypes.", 7) == 0)))
        text[i + 5] = '6', text[i + 6] = '4';
    }
}

GPtrArray *
wb_trace_parse_file (const char *path, GError **error)
{
  return wb_trace_parse_file_full (path, WB_TRACE_PARSE_DEFAULT, error);
}

GPtrArray *
wb_trace_parse_file_full (const char *path, WbTraceParseFlags flags, GError **error)
{
  g_autofree char *contents = NULL;
  gsize            len = 0;

  /* a FIFO would block the read and a device (/dev/zero) never end it: only regular files are read */
  if (!wb_input_read_file (path, wb_input_get_max_trace_bytes (), &contents, &len, error))
    return NULL;
  if (flags & WB_TRACE_PARSE_F32_AS_F64)
    promote_f32_text (contents, len);
  return wb_trace_parse_many (contents, len, path, error);
}
