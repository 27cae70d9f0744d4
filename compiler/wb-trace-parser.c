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
 * memory goes to the trace's arena. Atoms (names and literals) are interned per trace. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wb-arena.h"
#include "wb-compiler.h"
#include "wb-trace-private.h"

#define MAX_NESTING 64

typedef struct
{
  gsize   offset; /* offset in the logical line */
  guint32 line;
  guint32 col;    /* column of that offset */
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

  /* current logical line */
  const char *s;
  gsize       n;
  gsize       pos;
  int         nesting;
  GError    **error;
  gboolean    failed;
} Parser;

static void
fail_at (Parser *p, gsize offset, WbTraceError code, const char *fmt, ...) G_GNUC_PRINTF (4, 5);

static void
fail_at (Parser *p, gsize offset, WbTraceError code, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;
  guint32 line = 1, col = 1;
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

#define FAIL(p, off, code, ...) (fail_at ((p), (off), (code), __VA_ARGS__), NULL)

static inline gboolean
is_ident_start (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline gboolean
is_ident_char (char c)
{
  return is_ident_start (c) || (c >= '0' && c <= '9');
}

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static inline void
skip_spaces (Parser *p)
{
  while (p->pos < p->n && p->s[p->pos] == ' ')
    p->pos++;
}

static inline char
peek (Parser *p)
{
  return p->pos < p->n ? p->s[p->pos] : '\0';
}

static const char *
describe_char (Parser *p, char *buf)
{
  char c = peek (p);
  if (p->pos >= p->n)
    return "end of line";
  if (c >= 0x20 && c < 0x7f)
    g_snprintf (buf, 16, "'%c'", c);
  else
    g_snprintf (buf, 16, "byte 0x%02x", (guint8) c);
  return buf;
}

static gboolean
expect_char (Parser *p, char c, const char *what)
{
  char buf[16];
  if (peek (p) == c && p->pos < p->n)
    {
      p->pos++;
      return TRUE;
    }
  fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected %s, found %s", what, describe_char (p, buf));
  return FALSE;
}

/* Interned atoms: one WbValue per distinct spelling in a trace. */
static WbValue *
intern (Parser *p, WbValueKind kind, const char *s, gsize len, gboolean *is_new)
{
  WbValue *v;
  char *key;
  char *tmp = len < sizeof p->scratch ? p->scratch : g_malloc (len + 1);
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

static WbValue *
new_value (Parser *p, WbValueKind kind)
{
  WbValue *v = wb_arena_new0 (p->arena, WbValue);
  v->kind = kind;
  v->col = (guint32) p->pos;
  return v;
}

static WbValue *parse_expr (Parser *p);
static WbValue *parse_expr_list (Parser *p, gboolean allow_bare);

static WbValue *
parse_number (Parser *p)
{
  gsize start = p->pos;
  gboolean is_float = FALSE, is_complex = FALSE, is_new;
  WbValue *v;
  while (p->pos < p->n && (is_digit (p->s[p->pos]) || p->s[p->pos] == '_'))
    p->pos++;
  if (peek (p) == '.')
    {
      is_float = TRUE;
      p->pos++;
      while (p->pos < p->n && is_digit (p->s[p->pos]))
        p->pos++;
    }
  if (peek (p) == 'e' || peek (p) == 'E')
    {
      gsize e = p->pos++;
      is_float = TRUE;
      if (peek (p) == '+' || peek (p) == '-')
        p->pos++;
      if (!is_digit (peek (p)))
        return FAIL (p, e, WB_TRACE_ERROR_SYNTAX, "malformed number exponent");
      while (p->pos < p->n && is_digit (p->s[p->pos]))
        p->pos++;
    }
  if (peek (p) == 'j' || peek (p) == 'J')
    {
      is_complex = TRUE;
      p->pos++;
    }
  if (p->pos < p->n && is_ident_char (p->s[p->pos]))
    return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "malformed number");
  if (p->pos - start > 64)
    return FAIL (p, start, WB_TRACE_ERROR_UNSUPPORTED, "number literal longer than 64 characters");
  v = intern (p, is_complex ? WB_VALUE_COMPLEX : is_float ? WB_VALUE_FLOAT : WB_VALUE_INT, p->s + start, p->pos - start, &is_new);
  if (is_new)
    {
      char buf[80], *end;
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

static WbValue *
parse_string (Parser *p)
{
  char q = p->s[p->pos];
  gsize start = p->pos++;
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
  v = intern (p, WB_VALUE_STRING, p->s + start, p->pos - start, &is_new);
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
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '0': c = '\0'; break;
            default: c = e; break;
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

/* Items of a bracketed sequence up to @close; sets TRAILING_COMMA. Handles "k=v" when @kwargs. */
static gboolean
parse_items (Parser *p, char close, WbValue *into, gboolean call)
{
  GPtrArray *items = NULL;
  GArray *kwargs = NULL;
  gboolean ok = FALSE;
  WbValue *stack_items[16];
  guint n_stack = 0;

  skip_spaces (p);
  while (peek (p) != close || p->pos >= p->n)
    {
      WbValue *item;
      if (p->pos >= p->n)
        {
          char buf[16];
          fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected '%c', found %s", close, describe_char (p, buf));
          goto out;
        }
      if (call && is_ident_start (peek (p)))
        {
          /* keyword argument? */
          gsize q = p->pos;
          while (q < p->n && is_ident_char (p->s[q]))
            q++;
          if (q < p->n && p->s[q] == '=' && (q + 1 >= p->n || p->s[q + 1] != '='))
            {
              WbKwarg kw;
              kw.name = wb_arena_strndup (p->arena, p->s + p->pos, q - p->pos);
              p->pos = q + 1;
              kw.value = parse_expr (p);
              if (kw.value == NULL)
                goto out;
              if (kwargs == NULL)
                kwargs = g_array_new (FALSE, FALSE, sizeof (WbKwarg));
              g_array_append_val (kwargs, kw);
              goto next;
            }
        }
      if (kwargs != NULL && call && peek (p) != '*')
        {
          fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "positional argument after a keyword argument");
          goto out;
        }
      if (call && peek (p) == '*')
        {
          WbValue *star = new_value (p, WB_VALUE_STAR);
          p->pos++;
          if (peek (p) == '*')
            {
              star->kind = WB_VALUE_STARSTAR;
              p->pos++;
            }
          star->base = parse_expr (p);
          if (star->base == NULL)
            goto out;
          item = star;
        }
      else if (close == '}')
        {
          WbValue *key = parse_expr (p);
          if (key == NULL)
            goto out;
          skip_spaces (p);
          if (!expect_char (p, ':', "':' in a dict"))
            goto out;
          item = parse_expr (p);
          if (item == NULL)
            goto out;
          if (n_stack < G_N_ELEMENTS (stack_items) && items == NULL)
            stack_items[n_stack++] = key;
          else
            {
              if (items == NULL)
                {
                  items = g_ptr_array_new ();
                  for (guint i = 0; i < n_stack; i++)
                    g_ptr_array_add (items, stack_items[i]);
                }
              g_ptr_array_add (items, key);
            }
        }
      else
        {
          item = parse_expr (p);
          if (item == NULL)
            goto out;
        }
      if (n_stack < G_N_ELEMENTS (stack_items) && items == NULL)
        stack_items[n_stack++] = item;
      else
        {
          if (items == NULL)
            {
              items = g_ptr_array_new ();
              for (guint i = 0; i < n_stack; i++)
                g_ptr_array_add (items, stack_items[i]);
            }
          g_ptr_array_add (items, item);
        }
    next:
      skip_spaces (p);
      if (peek (p) == ',' && p->pos < p->n)
        {
          p->pos++;
          skip_spaces (p);
          if (peek (p) == close && p->pos < p->n)
            {
              into->flags |= WB_VALUE_FLAG_TRAILING_COMMA;
              break;
            }
          continue;
        }
      if (peek (p) != close || p->pos >= p->n)
        {
          char buf[16];
          fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected ',' or '%c', found %s", close, describe_char (p, buf));
          goto out;
        }
    }
  p->pos++; /* close */
  if (items != NULL)
    {
      into->n_items = items->len;
      into->items = wb_arena_memdup (p->arena, items->pdata, sizeof (gpointer) * items->len);
    }
  else if (n_stack > 0)
    {
      into->n_items = n_stack;
      into->items = wb_arena_memdup (p->arena, stack_items, sizeof (gpointer) * n_stack);
    }
  if (kwargs != NULL)
    {
      into->n_kwargs = kwargs->len;
      into->kwargs = wb_arena_memdup (p->arena, kwargs->data, sizeof (WbKwarg) * kwargs->len);
    }
  ok = TRUE;
out:
  if (items)
    g_ptr_array_free (items, TRUE);
  if (kwargs)
    g_array_free (kwargs, TRUE);
  return ok;
}

static WbValue *
parse_atom (Parser *p)
{
  char c = peek (p), buf[16];
  gsize start = p->pos;
  gboolean is_new;
  if (p->pos >= p->n)
    return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected a value, found end of line");
  if (is_ident_start (c))
    {
      static const char *const keywords[] = { "and", "as", "assert", "async", "await", "break", "class", "continue",
                                              "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
                                              "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
                                              "raise", "return", "try", "while", "with", "yield", NULL };
      WbValue *v;
      while (p->pos < p->n && is_ident_char (p->s[p->pos]))
        p->pos++;
      for (guint k = 0; keywords[k]; k++)
        if (strlen (keywords[k]) == p->pos - start && memcmp (keywords[k], p->s + start, p->pos - start) == 0)
          return FAIL (p, start, WB_TRACE_ERROR_SYNTAX, "unexpected keyword '%s'", keywords[k]);
      v = intern (p, WB_VALUE_NAME, p->s + start, p->pos - start, &is_new);
      if (is_new)
        {
          if (strcmp (v->text, "None") == 0)
            v->kind = WB_VALUE_NONE;
          else if (strcmp (v->text, "True") == 0)
            v->kind = WB_VALUE_BOOL, v->v.b = TRUE;
          else if (strcmp (v->text, "False") == 0)
            v->kind = WB_VALUE_BOOL, v->v.b = FALSE;
        }
      return v;
    }
  if (is_digit (c) || (c == '.' && p->pos + 1 < p->n && is_digit (p->s[p->pos + 1])))
    return parse_number (p);
  if (c == '.' && p->pos + 2 < p->n && p->s[p->pos + 1] == '.' && p->s[p->pos + 2] == '.')
    {
      p->pos += 3;
      return intern (p, WB_VALUE_ELLIPSIS, "...", 3, &is_new);
    }
  if (c == '\'' || c == '"')
    return parse_string (p);
  if (c == '(' || c == '[' || c == '{')
    {
      WbValue *v = new_value (p, c == '(' ? WB_VALUE_TUPLE : c == '[' ? WB_VALUE_LIST : WB_VALUE_DICT);
      if (++p->nesting > MAX_NESTING)
        return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "brackets nested deeper than %d", MAX_NESTING);
      p->pos++;
      if (!parse_items (p, c == '(' ? ')' : c == '[' ? ']' : '}', v, FALSE))
        return NULL;
      p->nesting--;
      if (c == '{')
        {
          /* items were collected as key, value pairs */
        }
      if (c == '(' && v->n_items == 1 && !(v->flags & WB_VALUE_FLAG_TRAILING_COMMA))
        return v->items[0]; /* parenthesised expression */
      v->flags &= ~WB_VALUE_FLAG_TRAILING_COMMA;
      if (c == '(' && v->n_items == 1)
        v->flags = 0; /* "(a,)" is the canonical one-tuple */
      return v;
    }
  return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected a value, found %s", describe_char (p, buf));
}

/* float('inf'), float('-inf'), float('nan') and friends become FLOAT literals. */
static WbValue *
maybe_float_special (Parser *p, WbValue *call, gsize start)
{
  const char *arg;
  double f;
  WbValue *v;
  gboolean is_new;
  if (!wb_value_is_name (call->base, "float") || call->n_items != 1 || call->n_kwargs != 0
      || call->items[0]->kind != WB_VALUE_STRING)
    return call;
  arg = call->items[0]->v.s;
  if (g_ascii_strcasecmp (arg, "inf") == 0 || g_ascii_strcasecmp (arg, "infinity") == 0 || g_ascii_strcasecmp (arg, "+inf") == 0)
    f = INFINITY;
  else if (g_ascii_strcasecmp (arg, "-inf") == 0 || g_ascii_strcasecmp (arg, "-infinity") == 0)
    f = -INFINITY;
  else if (g_ascii_strcasecmp (arg, "nan") == 0)
    f = NAN;
  else
    return call;
  v = intern (p, WB_VALUE_FLOAT, p->s + start, p->pos - start, &is_new);
  v->v.f = f;
  return v;
}

static WbValue *
parse_postfix (Parser *p)
{
  gsize start = p->pos;
  WbValue *v = parse_atom (p);
  while (v != NULL && p->pos < p->n)
    {
      char c = p->s[p->pos];
      if (c == '.')
        {
          WbValue *a;
          gsize s0;
          p->pos++;
          s0 = p->pos;
          if (!is_ident_start (peek (p)) || p->pos >= p->n)
            return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected an attribute name after '.'");
          while (p->pos < p->n && is_ident_char (p->s[p->pos]))
            p->pos++;
          a = new_value (p, WB_VALUE_ATTRIBUTE);
          a->base = v;
          {
            gboolean is_new;
            a->text = intern (p, WB_VALUE_NAME, p->s + s0, p->pos - s0, &is_new)->text;
          }
          v = a;
        }
      else if (c == '(')
        {
          WbValue *call = new_value (p, WB_VALUE_CALL);
          call->base = v;
          if (++p->nesting > MAX_NESTING)
            return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "brackets nested deeper than %d", MAX_NESTING);
          p->pos++;
          if (!parse_items (p, ')', call, TRUE))
            return NULL;
          p->nesting--;
          if (call->flags & WB_VALUE_FLAG_TRAILING_COMMA)
            return FAIL (p, p->pos - 1, WB_TRACE_ERROR_SYNTAX, "trailing ',' in a call");
          if (wb_value_is_name (v, "slice") && call->n_kwargs == 0 && call->n_items == 3)
            call->kind = WB_VALUE_SLICE, call->base = NULL;
          v = maybe_float_special (p, call, start);
        }
      else if (c == '[')
        {
          WbValue *sub = new_value (p, WB_VALUE_SUBSCRIPT), *idx;
          sub->base = v;
          if (++p->nesting > MAX_NESTING)
            return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "brackets nested deeper than %d", MAX_NESTING);
          p->pos++;
          skip_spaces (p);
          idx = parse_expr_list (p, TRUE);
          if (idx == NULL)
            return NULL;
          skip_spaces (p);
          if (!expect_char (p, ']', "']'"))
            return NULL;
          p->nesting--;
          sub->items = wb_arena_newv (p->arena, WbValue *, 1);
          sub->items[0] = idx;
          sub->n_items = 1;
          v = sub;
        }
      else
        break;
    }
  return v;
}

static WbValue *
parse_expr (Parser *p)
{
  skip_spaces (p);
  if (peek (p) == '-' && p->pos < p->n)
    {
      gsize start = p->pos;
      WbValue *operand, *v;
      gboolean is_new;
      p->pos++;
      if (++p->nesting > MAX_NESTING)
        return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "expression nested deeper than %d", MAX_NESTING);
      operand = parse_postfix (p);
      p->nesting--;
      if (operand == NULL)
        return NULL;
      if (operand->kind == WB_VALUE_INT || operand->kind == WB_VALUE_FLOAT)
        {
          WbValueKind kind = operand->kind;
          gint64 i = operand->v.i;
          double f = operand->v.f;
          v = intern (p, kind, p->s + start, p->pos - start, &is_new);
          if (kind == WB_VALUE_INT)
            v->v.i = -i;
          else
            v->v.f = -f;
          return v;
        }
      v = new_value (p, WB_VALUE_NEG);
      v->base = operand;
      return v;
    }
  return parse_postfix (p);
}

/* A comma-separated expression list without brackets; more than one item (or a trailing comma) makes a
 * bare tuple. Records " \" line breaks (p->boundaries) after commas. */
static WbValue *
parse_expr_list (Parser *p, gboolean allow_bare)
{
  WbValue *first = parse_expr (p), *tuple;
  GPtrArray *items;
  GByteArray *breaks = NULL;
  gsize after_first;
  if (first == NULL)
    return NULL;
  after_first = p->pos;
  skip_spaces (p);
  if (!allow_bare || peek (p) != ',' || p->pos >= p->n)
    {
      p->pos = after_first;
      return first;
    }
  tuple = new_value (p, WB_VALUE_TUPLE);
  tuple->flags = WB_VALUE_FLAG_BARE;
  items = g_ptr_array_new ();
  g_ptr_array_add (items, first);
  while (peek (p) == ',' && p->pos < p->n)
    {
      gsize comma = p->pos++;
      gboolean brk = FALSE;
      WbValue *item;
      for (guint i = 0; i < p->boundaries->len; i++)
        if (g_array_index (p->boundaries, gsize, i) == comma + 1)
          brk = TRUE;
      if (brk && breaks == NULL)
        {
          breaks = g_byte_array_new ();
          for (guint i = 0; i < items->len; i++)
            {
              guint8 z = 0;
              g_byte_array_append (breaks, &z, 1);
            }
        }
      if (breaks != NULL)
        {
          guint8 b = brk;
          g_byte_array_set_size (breaks, items->len - 1);
          g_byte_array_append (breaks, &b, 1);
        }
      skip_spaces (p);
      if (p->pos >= p->n || peek (p) == '=' || peek (p) == ']' || peek (p) == ')' || peek (p) == ':')
        {
          tuple->flags |= WB_VALUE_FLAG_TRAILING_COMMA;
          break;
        }
      item = parse_expr (p);
      if (item == NULL)
        {
          g_ptr_array_free (items, TRUE);
          if (breaks)
            g_byte_array_free (breaks, TRUE);
          return NULL;
        }
      g_ptr_array_add (items, item);
      after_first = p->pos;
      skip_spaces (p);
      if (peek (p) != ',' || p->pos >= p->n)
        p->pos = after_first;
    }
  tuple->n_items = items->len;
  tuple->items = wb_arena_memdup (p->arena, items->pdata, sizeof (gpointer) * items->len);
  if (breaks != NULL)
    {
      g_byte_array_set_size (breaks, items->len);
      tuple->breaks = wb_arena_memdup (p->arena, breaks->data, items->len);
      g_byte_array_free (breaks, TRUE);
    }
  g_ptr_array_free (items, TRUE);
  return tuple;
}

/* The dotted name of a call's callee ("ltorch.add", "torch.nn.functional.linear"), or NULL. */
static gboolean
callee_span (WbValue *callee, Parser *p, GString *out)
{
  if (callee->kind == WB_VALUE_NAME)
    {
      g_string_append (out, callee->text);
      return TRUE;
    }
  if (callee->kind == WB_VALUE_ATTRIBUTE)
    {
      if (!callee_span (callee->base, p, out))
        return FALSE;
      g_string_append_c (out, '.');
      g_string_append (out, callee->text);
      return TRUE;
    }
  return FALSE;
}

static gboolean
is_name_pattern (const WbValue *v)
{
  if (v->kind == WB_VALUE_NAME)
    return TRUE;
  if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    {
      for (guint i = 0; i < v->n_items; i++)
        if (v->items[i]->kind != WB_VALUE_NAME)
          return FALSE;
      return TRUE;
    }
  return FALSE;
}

/* A piece of the source for a message: at most 80 bytes, anything but printable ASCII as \xNN, so
 * messages stay valid UTF-8 whatever the input holds. (transfer full) */
static char *
quote_snippet (const char *s, gsize n)
{
  GString *out = g_string_new (NULL);
  for (gsize i = 0; i < n && i < 80; i++)
    {
      guchar c = (guchar) s[i];
      if (c >= 0x20 && c < 0x7f)
        g_string_append_c (out, (char) c);
      else
        g_string_append_printf (out, "\\x%02x", c);
    }
  if (n > 80)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

/* Parses `"TYPE"` at p->pos into @type. */
static gboolean
parse_type_string (Parser *p, WbType *type)
{
  gsize start, end, err = 0;
  if (!expect_char (p, '"', "'\"' opening a type annotation"))
    return FALSE;
  start = p->pos;
  while (p->pos < p->n && p->s[p->pos] != '"')
    p->pos++;
  if (p->pos >= p->n)
    {
      fail_at (p, start - 1, WB_TRACE_ERROR_BAD_TYPE, "unterminated type annotation");
      return FALSE;
    }
  end = p->pos++;
  for (gsize i = start; i < end; i++)
    if ((guchar) p->s[i] < 0x20 || (guchar) p->s[i] == 0x7f)
      {
        fail_at (p, i, WB_TRACE_ERROR_BAD_TYPE, "control character in a type annotation");
        return FALSE;
      }
  if (!g_utf8_validate_len (p->s + start, end - start, NULL))
    {
      fail_at (p, start, WB_TRACE_ERROR_BAD_TYPE, "type annotation is not valid UTF-8");
      return FALSE;
    }
  if (!wb_type_parse (p->s + start, end - start, type, &err))
    {
      g_autofree char *quoted = quote_snippet (p->s + start, end - start);
      if (type->kind == WB_TYPE_TENSOR && type->dtype == WB_DTYPE_UNKNOWN && err > 0)
        {
          fail_at (p, start + err, WB_TRACE_ERROR_UNKNOWN_DTYPE, "unknown dtype in type annotation \"%s\"", quoted);
          return FALSE;
        }
      fail_at (p, start + err, WB_TRACE_ERROR_BAD_TYPE, "malformed type annotation \"%s\"", quoted);
      return FALSE;
    }
  if (type->text != NULL)
    type->text = wb_arena_strndup (p->arena, type->text, (p->s + end) - type->text);
  return TRUE;
}

/* After a statement: nothing, or "  # name: \"type\"", or another trailing comment (kept verbatim). */
static gboolean
parse_trailer (Parser *p, WbBsym *bsym, gboolean allow_type)
{
  gsize stmt_end = p->pos, q;
  char buf[16];
  skip_spaces (p);
  if (p->pos >= p->n)
    {
      if (p->pos != stmt_end)
        return fail_at (p, stmt_end, WB_TRACE_ERROR_SYNTAX, "trailing spaces"), FALSE;
      return TRUE;
    }
  if (peek (p) != '#')
    {
      fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected end of statement or '#', found %s", describe_char (p, buf));
      return FALSE;
    }
  q = p->pos;
  if (allow_type && q == stmt_end + 2 && q + 2 < p->n && p->s[q + 1] == ' ' && is_ident_start (p->s[q + 2]))
    {
      gsize n0 = q + 2, n1 = n0;
      while (n1 < p->n && is_ident_char (p->s[n1]))
        n1++;
      if (n1 + 2 < p->n && p->s[n1] == ':' && p->s[n1 + 1] == ' ' && p->s[n1 + 2] == '"')
        {
          gboolean is_new;
          bsym->type_name = intern (p, WB_VALUE_NAME, p->s + n0, n1 - n0, &is_new)->text;
          p->pos = n1 + 2;
          if (!parse_type_string (p, &bsym->type))
            return FALSE;
          bsym->has_type = TRUE;
          if (p->pos != p->n)
            {
              fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after the type annotation");
              return FALSE;
            }
          return TRUE;
        }
    }
  if (!g_utf8_validate_len (p->s + stmt_end, p->n - stmt_end, NULL) || memchr (p->s + stmt_end, 0, p->n - stmt_end))
    {
      fail_at (p, stmt_end, WB_TRACE_ERROR_SYNTAX, "comment is not valid UTF-8 text");
      return FALSE;
    }
  bsym->comment = wb_arena_strndup (p->arena, p->s + stmt_end, p->n - stmt_end);
  p->pos = p->n;
  return TRUE;
}

/* One statement on the logical line p->s (indentation and any "# " prefix removed). */
static gboolean
parse_statement (Parser *p, WbBsym *bsym)
{
  WbValue *lhs, *rhs;
  char buf[16];
  p->pos = 0;
  p->nesting = 0;

  if (p->n >= 4 && memcmp (p->s, "del ", 4) == 0)
    {
      WbValue *names;
      bsym->kind = WB_BSYM_DEL;
      p->pos = 4;
      names = parse_expr_list (p, TRUE);
      if (names == NULL)
        return FALSE;
      if (names->kind == WB_VALUE_TUPLE && (names->flags & WB_VALUE_FLAG_BARE))
        {
          if (names->flags & WB_VALUE_FLAG_TRAILING_COMMA)
            return fail_at (p, p->pos - 1, WB_TRACE_ERROR_SYNTAX, "trailing ',' after del"), FALSE;
          bsym->args = names->items;
          bsym->n_args = names->n_items;
        }
      else
        {
          bsym->args = wb_arena_newv (p->arena, WbValue *, 1);
          bsym->args[0] = names;
          bsym->n_args = 1;
        }
      for (guint i = 0; i < bsym->n_args; i++)
        if (bsym->args[i]->kind != WB_VALUE_NAME)
          return fail_at (p, 4, WB_TRACE_ERROR_SYNTAX, "del takes names only"), FALSE;
      return parse_trailer (p, bsym, FALSE);
    }
  if (p->n >= 6 && memcmp (p->s, "return", 6) == 0 && (p->n == 6 || p->s[6] == ' '))
    {
      bsym->kind = WB_BSYM_RETURN;
      p->pos = 6;
      if (p->n > 6)
        {
          p->pos = 7;
          bsym->value = parse_expr_list (p, TRUE);
          if (bsym->value == NULL)
            return FALSE;
        }
      return parse_trailer (p, bsym, FALSE);
    }

  lhs = parse_expr_list (p, TRUE);
  if (lhs == NULL)
    return FALSE;
  skip_spaces (p);
  if (peek (p) == ':' && p->pos < p->n)
    {
      /* prologue form: name: "type" = expression */
      if (lhs->kind != WB_VALUE_NAME)
        return fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "only a name can be annotated"), FALSE;
      p->pos++;
      skip_spaces (p);
      if (!parse_type_string (p, &bsym->type))
        return FALSE;
      bsym->has_type = TRUE;
      skip_spaces (p);
      if (!expect_char (p, '=', "'=' after the annotation"))
        return FALSE;
      bsym->kind = WB_BSYM_ASSIGN;
      bsym->name = lhs->text;
      bsym->outputs = lhs;
      bsym->value = parse_expr_list (p, TRUE);
      if (bsym->value == NULL)
        return FALSE;
      return parse_trailer (p, bsym, FALSE);
    }
  if (peek (p) == '=' && p->pos < p->n)
    {
      gsize eq = p->pos++;
      if (!is_name_pattern (lhs))
        return fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "cannot assign to this expression"), FALSE;
      skip_spaces (p);
      if (p->pos >= p->n)
        return fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected a value after '='"), FALSE;
      rhs = parse_expr_list (p, TRUE);
      if (rhs == NULL)
        return FALSE;
      bsym->outputs = lhs;
      if (rhs->kind == WB_VALUE_CALL && (lhs->kind != WB_VALUE_TUPLE || !(lhs->flags & WB_VALUE_FLAG_BARE)))
        {
          lhs = rhs; /* fall through to the call case with outputs set */
        }
      else if (lhs->kind == WB_VALUE_TUPLE && (lhs->flags & WB_VALUE_FLAG_BARE))
        {
          bsym->kind = WB_BSYM_UNPACK;
          bsym->value = rhs;
          return parse_trailer (p, bsym, FALSE);
        }
      else
        {
          (void) eq;
          bsym->kind = WB_BSYM_ASSIGN;
          bsym->value = rhs;
          if (lhs->kind == WB_VALUE_NAME)
            bsym->name = lhs->text;
          return parse_trailer (p, bsym, TRUE);
        }
    }
  if (lhs->kind == WB_VALUE_CALL)
    {
      GString *name = g_string_sized_new (64);
      const WbSymbol *sym;
      if (!callee_span (lhs->base, p, name))
        {
          g_string_free (name, TRUE);
          return fail_at (p, lhs->col, WB_TRACE_ERROR_SYNTAX, "expected a symbol name before '('"), FALSE;
        }
      sym = wb_symbol_lookup (name->str, name->len);
      if (sym == NULL)
        {
          gsize col = 0;
          const char *at = bsym->outputs ? g_strstr_len (p->s, p->n, " = ") : NULL;
          col = at ? (gsize) (at - p->s) + 3 : 0;
          fail_at (p, col, WB_TRACE_ERROR_UNKNOWN_SYMBOL, "unknown symbol '%s'", name->str);
          g_string_free (name, TRUE);
          return FALSE;
        }
      bsym->kind = WB_BSYM_CALL;
      bsym->symbol = sym;
      {
        gboolean is_new;
        bsym->name = intern (p, WB_VALUE_NAME, name->str, name->len, &is_new)->text;
      }
      g_string_free (name, TRUE);
      bsym->args = lhs->items;
      bsym->n_args = lhs->n_items;
      bsym->kwargs = lhs->kwargs;
      bsym->n_kwargs = lhs->n_kwargs;
      return parse_trailer (p, bsym, TRUE);
    }
  fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected '=', ':' or a call, found %s", describe_char (p, buf));
  return FALSE;
}

/* ---- lines ---------------------------------------------------------------------------------- */

typedef struct
{
  const char *text;
  gsize       len;
  gsize       pos;   /* start of the next line */
  guint32     line;  /* number of the next line */
} Lines;

/* Next physical line (without its newline). Returns FALSE at the end. */
static gboolean
next_line (Lines *l, const char **s, gsize *n, guint32 *line, gboolean *had_newline)
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

static void
set_single_segment (Parser *p, guint32 line, guint32 col)
{
  Segment seg = { 0, line, col };
  g_array_set_size (p->segments, 0);
  g_array_set_size (p->boundaries, 0);
  g_array_append_val (p->segments, seg);
}

static gsize
count_indent (const char *s, gsize n)
{
  gsize i = 0;
  while (i < n && s[i] == ' ')
    i++;
  return i;
}

static gsize
trailing_ws_start (const char *s, gsize n)
{
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    n--;
  return n;
}

static gboolean
check_text (Parser *p, const char *s, gsize n, guint32 line)
{
  const char *end;
  if (memchr (s, '\0', n) != NULL)
    {
      set_single_segment (p, line, 1);
      fail_at (p, (const char *) memchr (s, '\0', n) - s, WB_TRACE_ERROR_SYNTAX, "NUL byte");
      return FALSE;
    }
  if (!g_utf8_validate_len (s, n, &end))
    {
      set_single_segment (p, line, 1);
      fail_at (p, end - s, WB_TRACE_ERROR_SYNTAX, "invalid UTF-8");
      return FALSE;
    }
  return TRUE;
}

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
      if (!(is_ident_char (c) || c == '.' || c == ' ' || c == ','))
        {
          set_single_segment (p, line, 1);
          fail_at (p, i, WB_TRACE_ERROR_SYNTAX, "unexpected character in an import");
          return FALSE;
        }
    }
  if (s[n - 1] == ' ' || s[n - 1] == '.' || s[n - 1] == ',' || (s[0] == 'f' && g_strstr_len (s, n, " import ") == NULL))
    {
      set_single_segment (p, line, 1);
      fail_at (p, n, WB_TRACE_ERROR_SYNTAX, "incomplete import");
      return FALSE;
    }
  return TRUE;
}

static void
parse_provenance (Parser *p, WbTrace *t, const char *s, gsize n)
{
  const char *prov = s + strlen ("# Constructed by ");
  gsize plen = n - strlen ("# Constructed by ");
  const char *took = g_strstr_len (prov, plen, " (took ");
  t->provenance_ms = -1;
  if (took != NULL && plen >= 2 && g_str_has_suffix (wb_arena_strndup (p->arena, prov, plen), " milliseconds)"))
    {
      char buf[32];
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
  guint n = p->flat->len, top = 0;
  WbBsym **stack = g_new (WbBsym *, 1 + n);
  guint *counts = g_new0 (guint, n);
  guint sp = 0;
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
      guint idx = GPOINTER_TO_UINT (b->subsymbols);
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

static WbBsym *
new_bsym (Parser *p, WbBsymKind kind, guint32 line, guint32 col, guint depth)
{
  WbBsym *b = wb_arena_new0 (p->arena, WbBsym);
  b->kind = kind;
  b->line = line;
  b->col = col;
  b->depth = depth;
  return b;
}

/* A top-level comment: "# name: \"type\"" is an annotation; anything else a comment. */
static gboolean
parse_body_comment (Parser *p, const char *s, gsize n, guint32 line, guint32 col, WbBsym *b)
{
  gsize q = 2, n0;
  set_single_segment (p, line, col);
  p->s = s;
  p->n = n;
  if (n > 2 && s[1] == ' ' && is_ident_start (s[2]))
    {
      n0 = q;
      while (q < n && is_ident_char (s[q]))
        q++;
      if (q + 2 < n && s[q] == ':' && s[q + 1] == ' ' && s[q + 2] == '"')
        {
          gboolean is_new;
          b->kind = WB_BSYM_ANNOTATION;
          b->name = intern (p, WB_VALUE_NAME, s + n0, q - n0, &is_new)->text;
          p->pos = q + 2;
          if (!parse_type_string (p, &b->type))
            return FALSE;
          if (p->pos != n)
            return fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after the type annotation"), FALSE;
          b->has_type = TRUE;
          return TRUE;
        }
    }
  if (!check_text (p, s, n, line))
    return FALSE;
  b->kind = WB_BSYM_COMMENT;
  b->comment = wb_arena_strndup (p->arena, s + 1, n - 1);
  return TRUE;
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
  set_single_segment (p, line, 5);
  p->s = s + 4;
  p->n = n - 4;
  p->pos = 0;
  p->nesting = 0;
  call = parse_postfix (p);
  if (call == NULL)
    return FALSE;
  if (call->kind != WB_VALUE_CALL || call->base->kind != WB_VALUE_NAME || call->n_kwargs != 0)
    return fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected 'def name(parameters):'"), FALSE;
  for (guint i = 0; i < call->n_items; i++)
    {
      WbValue *a = call->items[i];
      if (a->kind == WB_VALUE_STAR || a->kind == WB_VALUE_STARSTAR)
        a = a->base;
      if (a->kind != WB_VALUE_NAME)
        return fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "parameters must be names"), FALSE;
    }
  if (!expect_char (p, ':', "':' after the parameters"))
    return FALSE;
  if (p->pos != p->n)
    return fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after ':'"), FALSE;
  t->function_name = call->base->text;
  t->params = call->items;
  t->n_params = call->n_items;
  return TRUE;
}

GPtrArray *
wb_trace_parse_many (const char *text, gssize len, const char *filename, GError **error)
{
  Parser P = { 0 }, *p = &P;
  Lines L;
  GPtrArray *traces = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_trace_unref);
  WbTrace *t = NULL;
  enum { HEADER, BODY } state = HEADER;
  const char *s;
  gsize n;
  guint32 line, last_line = 0;
  gboolean had_newline = FALSE, last_had_newline = FALSE;
  /* header lines seen before a trace object exists (blank lines between traces) */
  GArray *pending = g_array_new (FALSE, FALSE, sizeof (gsize) * 2);

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  if (len < 0)
    len = strlen (text);
  if (filename == NULL)
    filename = "<string>";

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

  while (!p->failed && next_line (&L, &s, &n, &line, &had_newline))
    {
      gsize indent = count_indent (s, n), content_end = trailing_ws_start (s, n);
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
          if (!check_text (p, s, n, line))
            break;
          if (blank)
            {
              if (n > 0)
                {
                  set_single_segment (p, line, 1);
                  fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "whitespace on a blank line before 'def'");
                  break;
                }
              add_header (p, WB_HEADER_BLANK, s, n, line);
            }
          else if (indent > 0)
            {
              set_single_segment (p, line, 1);
              fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "unexpected indentation before 'def'");
              break;
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
                break;
              add_header (p, WB_HEADER_IMPORT, s, n, line);
            }
          else if (s[0] == '@')
            {
              set_single_segment (p, line, 2);
              p->s = s + 1;
              p->n = n - 1;
              p->pos = 0;
              p->nesting = 0;
              if (parse_postfix (p) == NULL)
                break;
              if (p->pos != p->n)
                {
                  fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after the decorator");
                  break;
                }
              add_header (p, WB_HEADER_DECORATOR, s, n, line);
            }
          else if (n > 4 && memcmp (s, "def ", 4) == 0)
            {
              if (!parse_def (p, t, s, n, line))
                break;
              state = BODY;
            }
          else
            {
              set_single_segment (p, line, 1);
              fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected a comment, 'import', a decorator or 'def'");
              break;
            }
          last_line = line;
          last_had_newline = had_newline;
          continue;
        }

      /* BODY */
      if (blank)
        {
          WbBsym *b = new_bsym (p, WB_BSYM_BLANK, line, 1, 0);
          if (n > 0)
            {
              if (!check_text (p, s, n, line))
                break;
              b->trailing = wb_arena_strndup (p->arena, s, n);
            }
          g_ptr_array_add (p->flat, b);
        }
      else if (indent < 2 || (indent & 1))
        {
          set_single_segment (p, line, 1);
          fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "bad indentation: %" G_GSIZE_FORMAT " spaces (the body is indented by 2, subsymbols by 2 more each)", indent);
          break;
        }
      else if (s[indent] == '\t')
        {
          set_single_segment (p, line, 1);
          fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "tab in indentation");
          break;
        }
      else
        {
          guint depth = (guint) (indent - 2) / 2;
          const char *c = s + indent;
          gsize cn = content_end - indent;
          WbBsym *b;
          if (depth > 0)
            {
              WbBsym *prev = p->flat->len ? p->flat->pdata[p->flat->len - 1] : NULL;
              guint prev_depth = prev ? prev->depth : 0;
              if (cn < 2 || c[0] != '#' || c[1] != ' ')
                {
                  set_single_segment (p, line, 1);
                  fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "bad indentation: only subsymbol comments ('# ...') are indented deeper than the body");
                  break;
                }
              if (prev == NULL || depth > prev_depth + 1
                  || (depth == prev_depth + 1 && prev->kind != WB_BSYM_CALL && prev->kind != WB_BSYM_ASSIGN && prev->kind != WB_BSYM_UNPACK))
                {
                  set_single_segment (p, line, 1);
                  fail_at (p, indent, WB_TRACE_ERROR_SYNTAX, "subsymbol without a parent statement on the line above");
                  break;
                }
              b = new_bsym (p, WB_BSYM_CALL, line, indent + 3, depth);
              set_single_segment (p, line, indent + 3);
              p->s = c + 2;
              p->n = cn - 2;
              if (!parse_statement (p, b))
                break;
            }
          else if (c[0] == '#')
            {
              b = new_bsym (p, WB_BSYM_COMMENT, line, indent + 1, 0);
              if (!parse_body_comment (p, c, cn, line, indent + 1, b))
                break;
            }
          else
            {
              b = new_bsym (p, WB_BSYM_CALL, line, indent + 1, 0);
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
                      gsize b_off;
                      const char *ns;
                      gsize nn, nind, nend;
                      guint32 nline;
                      gboolean nl;
                      if (cn < 2 || c[cn - 2] != ' ')
                        {
                          fail_at (p, p->joined->len + cn - 1, WB_TRACE_ERROR_SYNTAX, "expected ' \\' at the end of a continued line");
                          break;
                        }
                      g_string_append_len (p->joined, c, cn - 1);
                      b_off = p->joined->len - 1;
                      g_array_append_val (p->boundaries, b_off);
                      if (!next_line (&L, &ns, &nn, &nline, &nl))
                        {
                          fail_at (p, b_off + 1, WB_TRACE_ERROR_SYNTAX, "line continued past the end of the text");
                          break;
                        }
                      had_newline = nl;
                      line = nline;
                      nind = count_indent (ns, nn);
                      nend = trailing_ws_start (ns, nn);
                      if (nind != indent || nend <= nind)
                        {
                          Segment s2 = { p->joined->len, nline, 1 };
                          g_array_append_val (p->segments, s2);
                          fail_at (p, p->joined->len + MIN (nind, nn), WB_TRACE_ERROR_SYNTAX, "a continued line must keep the statement's indentation");
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
                  set_single_segment (p, line, indent + 1);
                  p->s = c;
                  p->n = cn;
                }
              if (!parse_statement (p, b))
                break;
              if (b->kind == WB_BSYM_UNPACK && b->outputs->breaks == NULL && p->boundaries->len > 0)
                {
                  fail_at (p, g_array_index (p->boundaries, gsize, 0), WB_TRACE_ERROR_SYNTAX, "a line may only be continued after a ',' of the unpacked names");
                  break;
                }
              if (p->boundaries->len > 0 && b->kind != WB_BSYM_UNPACK)
                {
                  fail_at (p, g_array_index (p->boundaries, gsize, 0), WB_TRACE_ERROR_SYNTAX, "only unpacking statements may be continued with ' \\'");
                  break;
                }
            }
          if (content_end < n)
            {
              if (!check_text (p, s + content_end, n - content_end, line))
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
          set_single_segment (p, last_line ? last_line : 1, 1);
          if (only_blank && traces->len > 0)
            {
              /* blank lines after the last trace: keep them with it */
              WbTrace *prev = traces->pdata[traces->len - 1];
              (void) prev;
              fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "blank lines after the last trace's body must be indented or removed");
            }
          else if (only_blank)
            fail_at (p, 0, WB_TRACE_ERROR_EMPTY, "no trace found (expected 'def ...')");
          else
            {
              Segment seg = { 0, last_line, 1 };
              g_array_set_size (p->segments, 0);
              g_array_append_val (p->segments, seg);
              fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "expected 'def' after the header, found the end of the text");
            }
        }
      else if (t == NULL && traces->len == 0)
        {
          set_single_segment (p, 1, 1);
          fail_at (p, 0, WB_TRACE_ERROR_EMPTY, "no trace found: the text is empty");
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
  gsize len = 0;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: %s", path, local->message);
      return NULL;
    }
  return wb_trace_parse_many (contents, len, path, error);
}
