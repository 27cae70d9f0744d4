/* wb-trace-lexer.c — scanning a printed trace: errors at FILE:LINE:COL, characters, atoms, literals, lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Atoms (names and literals) are interned per trace: one WbValue per distinct spelling, in the trace's
 * arena. Columns of a logical line built from continuation lines map back to their physical lines
 * through the parser's segments. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "wb-trace-parser-private.h"

void
_wb_tp_fail_at (Parser *p, gsize offset, WbTraceError code, const char *fmt, ...)
{
  va_list          ap;
  g_autofree char *msg = NULL;
  guint32          line = 1, col = 1;
  if (p->failed)
    return;
  p->failed = TRUE;
  for (guint i = 0; i < p->segments->len; i++)
    {
      Segment *seg = &g_array_index (p->segments, Segment, i);
      if (seg->offset <= offset || i == 0)
        {
          line = seg->line;
          col = seg->col + (guint32) (offset - MIN (offset, seg->offset));
        }
    }
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (p->error, WB_TRACE_ERROR, code, "%s:%u:%u: %s", p->filename, line, col, msg);
}

const char *
_wb_tp_describe_char (Parser *p, char *buf)
{
  char c = _wb_tp_peek (p);
  if (p->pos >= p->n)
    return "end of line";
  if (c >= 0x20 && c < 0x7f)
    g_snprintf (buf, 16, "'%c'", c);
  else
    g_snprintf (buf, 16, "byte 0x%02x", (guint8) c);
  return buf;
}

gboolean
_wb_tp_expect_char (Parser *p, char c, const char *what)
{
  char buf[16];
  if (_wb_tp_peek (p) == c && p->pos < p->n)
    {
      p->pos++;
      return TRUE;
    }
  _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected %s, found %s", what, _wb_tp_describe_char (p, buf));
  return FALSE;
}

WbValue *
_wb_tp_intern (Parser *p, WbValueKind kind, const char *s, gsize len, gboolean *is_new)
{
  WbValue *v;
  char    *key;
  char    *tmp = len < sizeof p->scratch ? p->scratch : g_malloc (len + 1);
  memcpy (tmp, s, len);
  tmp[len] = '\0';
  v = g_hash_table_lookup (p->atoms, tmp);
  if (tmp != p->scratch)
    g_free (tmp);
  if (v != NULL)
    {
      *is_new = FALSE;
      return v;
    }
  key = wb_arena_strndup (p->arena, s, len);
  v = wb_arena_new0 (p->arena, WbValue);
  v->kind = kind;
  v->text = key;
  g_hash_table_insert (p->atoms, key, v);
  *is_new = TRUE;
  return v;
}

WbValue *
_wb_tp_new_value (Parser *p, WbValueKind kind)
{
  WbValue *v = wb_arena_new0 (p->arena, WbValue);
  v->kind = kind;
  v->col = (guint32) p->pos;
  return v;
}

WbValue *
_wb_tp_parse_number (Parser *p)
{
  gsize    start = p->pos;
  gboolean is_float = FALSE, is_complex = FALSE, is_new;
  WbValue *v;
  while (p->pos < p->n && (_wb_tp_is_digit (p->s[p->pos]) || p->s[p->pos] == '_'))
    p->pos++;
  if (_wb_tp_peek (p) == '.')
    {
      is_float = TRUE;
      p->pos++;
      while (p->pos < p->n && _wb_tp_is_digit (p->s[p->pos]))
        p->pos++;
    }
  if (_wb_tp_peek (p) == 'e' || _wb_tp_peek (p) == 'E')
    {
      gsize e = p->pos++;
      is_float = TRUE;
      if (_wb_tp_peek (p) == '+' || _wb_tp_peek (p) == '-')
        p->pos++;
      if (!_wb_tp_is_digit (_wb_tp_peek (p)))
        return FAIL (p, e, WB_TRACE_ERROR_SYNTAX, "malformed number exponent");
      while (p->pos < p->n && _wb_tp_is_digit (p->s[p->pos]))
        p->pos++;
    }
  if (_wb_tp_peek (p) == 'j' || _wb_tp_peek (p) == 'J')
    {
      is_complex = TRUE;
      p->pos++;
    }
  if (p->pos < p->n && _wb_tp_is_ident_char (p->s[p->pos]))
    return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "malformed number");
  if (p->pos - start > 64)
    return FAIL (p, start, WB_TRACE_ERROR_UNSUPPORTED, "number literal longer than 64 characters");
  v = _wb_tp_intern (p, is_complex ? WB_VALUE_COMPLEX : is_float ? WB_VALUE_FLOAT
                                                                 : WB_VALUE_INT,
                     p->s + start, p->pos - start, &is_new);
  if (is_new)
    {
      char  buf[80], *end;
      gsize k = 0;
      for (gsize i = start; i < p->pos; i++)
        if (p->s[i] != '_')
          buf[k++] = p->s[i];
      buf[k] = '\0';
      errno = 0;
      if (v->kind == WB_VALUE_INT)
        {
          v->v.i = g_ascii_strtoll (buf, &end, 10);
          if (errno == ERANGE)
            return FAIL (p, start, WB_TRACE_ERROR_UNSUPPORTED, "integer literal out of the 64-bit range");
        }
      else if (v->kind == WB_VALUE_FLOAT)
        v->v.f = g_ascii_strtod (buf, &end);
    }
  return v;
}

WbValue *
_wb_tp_parse_string (Parser *p)
{
  char     q = p->s[p->pos];
  gsize    start = p->pos++;
  GString *dec;
  gboolean is_new;
  WbValue *v;
  while (p->pos < p->n && p->s[p->pos] != q)
    {
      if (p->s[p->pos] == '\\')
        p->pos++;
      p->pos++;
    }
  if (p->pos >= p->n)
    return FAIL (p, start, WB_TRACE_ERROR_SYNTAX, "unterminated string");
  p->pos++;
  v = _wb_tp_intern (p, WB_VALUE_STRING, p->s + start, p->pos - start, &is_new);
  if (!is_new)
    return v;
  dec = g_string_sized_new (p->pos - start);
  for (gsize i = start + 1; i < p->pos - 1; i++)
    {
      char c = p->s[i];
      if (c == '\0')
        {
          g_string_free (dec, TRUE);
          return FAIL (p, i, WB_TRACE_ERROR_SYNTAX, "NUL byte in a string");
        }
      if (c == '\\' && i + 1 < p->pos - 1)
        {
          char e = p->s[++i];
          switch (e)
            {
            case 'n':
              c = '\n';
              break;
            case 't':
              c = '\t';
              break;
            case 'r':
              c = '\r';
              break;
            case '0':
              c = '\0';
              break;
            default:
              c = e;
              break;
            }
          if (c == '\0')
            {
              g_string_free (dec, TRUE);
              return FAIL (p, i, WB_TRACE_ERROR_UNSUPPORTED, "NUL character in a string");
            }
        }
      g_string_append_c (dec, c);
    }
  if (!g_utf8_validate (dec->str, dec->len, NULL))
    {
      g_string_free (dec, TRUE);
      return FAIL (p, start, WB_TRACE_ERROR_SYNTAX, "string is not valid UTF-8");
    }
  v->v.s = wb_arena_strndup (p->arena, dec->str, dec->len);
  g_string_free (dec, TRUE);
  return v;
}

gboolean
_wb_tp_next_line (Lines *l, const char **s, gsize *n, guint32 *line, gboolean *had_newline)
{
  const char *nl;
  if (l->pos >= l->len)
    return FALSE;
  *s = l->text + l->pos;
  nl = memchr (*s, '\n', l->len - l->pos);
  *n = nl ? (gsize) (nl - *s) : l->len - l->pos;
  *line = l->line++;
  *had_newline = nl != NULL;
  l->pos += *n + (nl ? 1 : 0);
  return TRUE;
}

void
_wb_tp_set_single_segment (Parser *p, guint32 line, guint32 col)
{
  Segment seg = { 0, line, col };
  g_array_set_size (p->segments, 0);
  g_array_set_size (p->boundaries, 0);
  g_array_append_val (p->segments, seg);
}

gsize
_wb_tp_count_indent (const char *s, gsize n)
{
  gsize i = 0;
  while (i < n && s[i] == ' ')
    i++;
  return i;
}

gsize
_wb_tp_trailing_ws_start (const char *s, gsize n)
{
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    n--;
  return n;
}

gboolean
_wb_tp_check_text (Parser *p, const char *s, gsize n, guint32 line)
{
  const char *end;
  if (memchr (s, '\0', n) != NULL)
    {
      _wb_tp_set_single_segment (p, line, 1);
      _wb_tp_fail_at (p, (const char *) memchr (s, '\0', n) - s, WB_TRACE_ERROR_SYNTAX, "NUL byte");
      return FALSE;
    }
  if (!g_utf8_validate_len (s, n, &end))
    {
      _wb_tp_set_single_segment (p, line, 1);
      _wb_tp_fail_at (p, end - s, WB_TRACE_ERROR_SYNTAX, "invalid UTF-8");
      return FALSE;
    }
  return TRUE;
}
