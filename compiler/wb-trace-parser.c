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

static void
add_header (Parser *p, WbHeaderKind kind, const char *s, gsize n, guint32 line)
{
  WbHeaderLine h = { kind, line, wb_arena_strndup (p->arena, s, n) };
  g_array_append_val (p->headers, h);
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

static WbTrace *
finish_trace (Parser *p, WbTrace *t, guint32 last_line, gboolean had_newline)
{
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

GPtrArray *
wb_trace_parse_many (const char *text, gssize len, const char *filename, GError **error)
{
  Parser     P = { 0 }, *p = &P;
  Lines      L;
  GPtrArray *traces = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_trace_unref);
  WbTrace   *t = NULL;
  enum
  {
    HEADER,
    BODY
  } state = HEADER;
  const char *s;
  gsize       n;
  guint32     line, last_line = 0;
  gboolean    had_newline = FALSE, last_had_newline = FALSE, is_def = FALSE;
  /* header lines seen before a trace object exists (blank lines between traces) */
  GArray *pending = g_array_new (FALSE, FALSE, sizeof (gsize) * 2);

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  if (len < 0)
    len = strlen (text);
  if (filename == NULL)
    filename = "<string>";
  if (is_none_text (text, len))
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_NOT_A_TRACE, "%s:1:1: not a trace (Thunder skipped this stage)", filename);
      g_ptr_array_unref (traces);
      g_array_free (pending, TRUE);
      return NULL;
    }

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

  while (!p->failed && _wb_tp_next_line (&L, &s, &n, &line, &had_newline))
    {
      gsize    indent = _wb_tp_count_indent (s, n), content_end = _wb_tp_trailing_ws_start (s, n);
      gboolean blank = content_end == 0 || (content_end == indent);

      if (state == BODY && !blank && indent == 0)
        {
          /* the next trace begins: trailing blank lines go to its header */
          guint nb = 0;
          while (p->flat->len > 0 && ((WbBsym *) p->flat->pdata[p->flat->len - 1])->kind == WB_BSYM_BLANK)
            {
              g_ptr_array_set_size (p->flat, p->flat->len - 1);
              nb++;
            }
          g_ptr_array_add (traces, finish_trace (p, t, last_line - nb, TRUE));
          t = trace_new (p, filename, line - nb);
          for (guint i = 0; i < nb; i++)
            add_header (p, WB_HEADER_BLANK, "", 0, line - nb + i);
          state = HEADER;
        }

      if (state == HEADER)
        {
          if (t == NULL)
            t = trace_new (p, filename, line);
          if (!_wb_tp_check_text (p, s, n, line))
            break;
          if (!header_line (p, t, s, n, line, indent, blank, &is_def))
            break;
          if (is_def)
            state = BODY;
          last_line = line;
          last_had_newline = had_newline;
          continue;
        }

      /* BODY */
      if (blank)
        {
          WbBsym *b = _wb_tp_new_bsym (p, WB_BSYM_BLANK, line, 1, 0);
          if (n > 0)
            {
              if (!_wb_tp_check_text (p, s, n, line))
                break;
              b->trailing = wb_arena_strndup (p->arena, s, n);
            }
          g_ptr_array_add (p->flat, b);
        }
      else if (indent < 2 || (indent & 1))
        {
          _wb_tp_set_single_segment (p, line, 1);
          _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "bad indentation: %" G_GSIZE_FORMAT " spaces (the body is indented by 2, subsymbols by 2 more each)", indent);
          break;
        }
      else if (s[indent] == '\t')
        {
          _wb_tp_set_single_segment (p, line, 1);
          _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "tab in indentation");
          break;
        }
      else
        {
          guint       depth = (guint) (indent - 2) / 2;
          const char *c = s + indent;
          gsize       cn = content_end - indent;
          WbBsym     *b;
          if (depth > 0)
            {
              WbBsym *prev = p->flat->len ? p->flat->pdata[p->flat->len - 1] : NULL;
              guint   prev_depth = prev ? prev->depth : 0;
              if (cn < 2 || c[0] != '#' || c[1] != ' ')
                {
                  _wb_tp_set_single_segment (p, line, 1);
                  _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "bad indentation: only subsymbol comments ('# ...') are indented deeper than the body");
                  break;
                }
              if (prev == NULL || depth > prev_depth + 1 || (depth == prev_depth + 1 && prev->kind != WB_BSYM_CALL && prev->kind != WB_BSYM_ASSIGN && prev->kind != WB_BSYM_UNPACK))
                {
                  _wb_tp_set_single_segment (p, line, 1);
                  _wb_tp_fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "subsymbol without a parent statement on the line above");
                  break;
                }
              b = _wb_tp_new_bsym (p, WB_BSYM_CALL, line, indent + 3, depth);
              _wb_tp_set_single_segment (p, line, indent + 3);
              p->s = c + 2;
              p->n = cn - 2;
              if (!_wb_tp_parse_statement (p, b))
                break;
            }
          else if (c[0] == '#')
            {
              b = _wb_tp_new_bsym (p, WB_BSYM_COMMENT, line, indent + 1, 0);
              if (!_wb_tp_parse_body_comment (p, c, cn, line, indent + 1, b))
                break;
            }
          else
            {
              b = _wb_tp_new_bsym (p, WB_BSYM_CALL, line, indent + 1, 0);
              if (cn > 0 && c[cn - 1] == '\\')
                {
                  /* continuation lines: join "a, \" + "b, = c" */
                  Segment seg = { 0, line, (guint32) indent + 1 };
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
                          break;
                        }
                      g_string_append_len (p->joined, c, cn - 1);
                      b_off = p->joined->len - 1;
                      g_array_append_val (p->boundaries, b_off);
                      if (!_wb_tp_next_line (&L, &ns, &nn, &nline, &nl))
                        {
                          _wb_tp_fail_at (p, b_off + 1, WB_TRACE_ERROR_SYNTAX, "line continued past the end of the text");
                          break;
                        }
                      had_newline = nl;
                      line = nline;
                      nind = _wb_tp_count_indent (ns, nn);
                      nend = _wb_tp_trailing_ws_start (ns, nn);
                      if (nind != indent || nend <= nind)
                        {
                          Segment s2 = { p->joined->len, nline, 1 };
                          g_array_append_val (p->segments, s2);
                          _wb_tp_fail_at (p, p->joined->len + MIN (nind, nn), WB_TRACE_ERROR_SYNTAX, "a continued line must keep the statement's indentation");
                          break;
                        }
                      seg.offset = p->joined->len;
                      seg.line = nline;
                      seg.col = (guint32) nind + 1;
                      g_array_append_val (p->segments, seg);
                      if (nend < nn)
                        {
                          s = ns;
                          n = nn;
                          content_end = nend;
                        }
                      else
                        {
                          s = ns;
                          n = nn;
                          content_end = nend;
                        }
                      c = ns + nind;
                      cn = nend - nind;
                    }
                  if (p->failed)
                    break;
                  g_string_append_len (p->joined, c, cn);
                  p->s = p->joined->str;
                  p->n = p->joined->len;
                }
              else
                {
                  _wb_tp_set_single_segment (p, line, indent + 1);
                  p->s = c;
                  p->n = cn;
                }
              if (!_wb_tp_parse_statement (p, b))
                break;
              if (b->kind == WB_BSYM_UNPACK && b->outputs->breaks == NULL && p->boundaries->len > 0)
                {
                  _wb_tp_fail_at (p, g_array_index (p->boundaries, gsize, 0), WB_TRACE_ERROR_SYNTAX, "a line may only be continued after a ',' of the unpacked names");
                  break;
                }
              if (p->boundaries->len > 0 && b->kind != WB_BSYM_UNPACK)
                {
                  _wb_tp_fail_at (p, g_array_index (p->boundaries, gsize, 0), WB_TRACE_ERROR_SYNTAX, "only unpacking statements may be continued with ' \\'");
                  break;
                }
            }
          if (content_end < n)
            {
              if (!_wb_tp_check_text (p, s + content_end, n - content_end, line))
                break;
              b->trailing = wb_arena_strndup (p->arena, s + content_end, n - content_end);
            }
          g_ptr_array_add (p->flat, b);
        }
      last_line = line;
      last_had_newline = had_newline;
    }

  if (!p->failed)
    {
      if (t != NULL && state == BODY)
        g_ptr_array_add (traces, finish_trace (p, t, last_line, last_had_newline)), t = NULL;
      else if (t != NULL && state == HEADER)
        {
          gboolean only_blank = TRUE;
          for (guint i = 0; i < p->headers->len; i++)
            if (g_array_index (p->headers, WbHeaderLine, i).kind != WB_HEADER_BLANK)
              only_blank = FALSE;
          _wb_tp_set_single_segment (p, last_line ? last_line : 1, 1);
          if (only_blank && traces->len > 0)
            {
              /* blank lines after the last trace: keep them with it */
              WbTrace *prev = traces->pdata[traces->len - 1];
              (void) prev;
              _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "blank lines after the last trace's body must be indented or removed");
            }
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
      else if (t == NULL && traces->len == 0)
        {
          _wb_tp_set_single_segment (p, 1, 1);
          _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_EMPTY, "no trace found: the text is empty");
        }
    }

  if (t != NULL)
    wb_trace_unref (t);
  g_hash_table_unref (p->atoms);
  g_ptr_array_free (p->flat, TRUE);
  g_array_free (p->headers, TRUE);
  g_string_free (p->joined, TRUE);
  g_array_free (p->segments, TRUE);
  g_array_free (p->boundaries, TRUE);
  g_array_free (pending, TRUE);
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

GPtrArray *
wb_trace_parse_file (const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  gsize            len = 0;
  g_autoptr (GError) local = NULL;
  GStatBuf st;

  /* a FIFO would block the read and a device (/dev/zero) never end it: only regular files are read */
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: not a regular file (%s)", path,
                   S_ISDIR (st.st_mode) ? "a directory" : S_ISFIFO (st.st_mode)                      ? "a FIFO"
                                                      : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? "a device"
                                                                                                     : "a special file");
      return NULL;
    }
  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: %s", path, local->message);
      return NULL;
    }
  return wb_trace_parse_many (contents, len, path, error);
}
