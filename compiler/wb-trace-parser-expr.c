/* wb-trace-parser-expr.c — values of a printed trace by recursive descent, with a nesting limit
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Atoms, bracketed sequences (tuples, lists, dicts, call arguments with keywords and stars), attributes,
 * calls, subscripts, unary minus and bare expression lists. slice(a, b, c) becomes a SLICE value and
 * float('inf') and friends become FLOAT literals. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-trace-parser-private.h"

static WbValue *parse_expr (Parser *p);

/* Items of a bracketed sequence up to @close; sets TRAILING_COMMA. Handles "k=v" when @kwargs. */
static gboolean
parse_items (Parser *p, char close, WbValue *into, gboolean call)
{
  GPtrArray *items = NULL;
  GArray    *kwargs = NULL;
  gboolean   ok = FALSE;
  WbValue   *stack_items[16];
  guint      n_stack = 0;

  _wb_tp_skip_spaces (p);
  while (_wb_tp_peek (p) != close || p->pos >= p->n)
    {
      WbValue *item;
      if (p->pos >= p->n)
        {
          char buf[16];
          _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected '%c', found %s", close, _wb_tp_describe_char (p, buf));
          goto out;
        }
      if (call && _wb_tp_is_ident_start (_wb_tp_peek (p)))
        {
          /* keyword argument? */
          gsize q = _wb_tp_name_end (p->s, p->n, p->pos);
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
      if (kwargs != NULL && call && _wb_tp_peek (p) != '*')
        {
          _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "positional argument after a keyword argument");
          goto out;
        }
      if (call && _wb_tp_peek (p) == '*')
        {
          WbValue *star = _wb_tp_new_value (p, WB_VALUE_STAR);
          p->pos++;
          if (_wb_tp_peek (p) == '*')
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
          _wb_tp_skip_spaces (p);
          if (!_wb_tp_expect_char (p, ':', "':' in a dict"))
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
      _wb_tp_skip_spaces (p);
      if (_wb_tp_peek (p) == ',' && p->pos < p->n)
        {
          p->pos++;
          _wb_tp_skip_spaces (p);
          if (_wb_tp_peek (p) == close && p->pos < p->n)
            {
              into->flags |= WB_VALUE_FLAG_TRAILING_COMMA;
              break;
            }
          continue;
        }
      if (_wb_tp_peek (p) != close || p->pos >= p->n)
        {
          char buf[16];
          _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected ',' or '%c', found %s", close, _wb_tp_describe_char (p, buf));
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
  char     c = _wb_tp_peek (p), buf[16];
  gsize    start = p->pos;
  gboolean is_new;
  if (p->pos >= p->n)
    return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected a value, found end of line");
  if (_wb_tp_is_ident_start (c))
    {
      static const char *const keywords[] = { "and", "as", "assert", "async", "await", "break", "class", "continue",
                                              "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
                                              "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
                                              "raise", "return", "try", "while", "with", "yield", NULL };
      WbValue                 *v;
      p->pos = _wb_tp_name_end (p->s, p->n, p->pos);
      for (guint k = 0; keywords[k]; k++)
        if (strlen (keywords[k]) == p->pos - start && memcmp (keywords[k], p->s + start, p->pos - start) == 0)
          return FAIL (p, start, WB_TRACE_ERROR_SYNTAX, "unexpected keyword '%s'", keywords[k]);
      v = _wb_tp_intern (p, WB_VALUE_NAME, p->s + start, p->pos - start, &is_new);
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
  if (_wb_tp_is_digit (c) || (c == '.' && p->pos + 1 < p->n && _wb_tp_is_digit (p->s[p->pos + 1])))
    return _wb_tp_parse_number (p);
  if (c == '.' && p->pos + 2 < p->n && p->s[p->pos + 1] == '.' && p->s[p->pos + 2] == '.')
    {
      p->pos += 3;
      return _wb_tp_intern (p, WB_VALUE_ELLIPSIS, "...", 3, &is_new);
    }
  if (c == '\'' || c == '"')
    return _wb_tp_parse_string (p);
  if (c == '(' || c == '[' || c == '{')
    {
      WbValue *v = _wb_tp_new_value (p, c == '(' ? WB_VALUE_TUPLE : c == '[' ? WB_VALUE_LIST
                                                                             : WB_VALUE_DICT);
      if (++p->nesting > MAX_NESTING)
        return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "brackets nested deeper than %d", MAX_NESTING);
      p->pos++;
      if (!parse_items (p, c == '(' ? ')' : c == '[' ? ']'
                                                     : '}',
                        v, FALSE))
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
  return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected a value, found %s", _wb_tp_describe_char (p, buf));
}

/* float('inf'), float('-inf'), float('nan') and friends become FLOAT literals. */
static WbValue *
maybe_float_special (Parser *p, WbValue *call, gsize start)
{
  const char *arg;
  double      f;
  WbValue    *v;
  gboolean    is_new;
  if (!wb_value_is_name (call->base, "float") || call->n_items != 1 || call->n_kwargs != 0 || call->items[0]->kind != WB_VALUE_STRING)
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
  v = _wb_tp_intern (p, WB_VALUE_FLOAT, p->s + start, p->pos - start, &is_new);
  v->v.f = f;
  return v;
}

WbValue *
_wb_tp_parse_postfix (Parser *p)
{
  gsize    start = p->pos;
  WbValue *v = parse_atom (p);
  while (v != NULL && p->pos < p->n)
    {
      char c = p->s[p->pos];
      if (c == '.')
        {
          WbValue *a;
          gsize    s0;
          p->pos++;
          s0 = p->pos;
          if (!_wb_tp_is_ident_start (_wb_tp_peek (p)) || p->pos >= p->n)
            return FAIL (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected an attribute name after '.'");
          while (p->pos < p->n && _wb_tp_is_ident_char (p->s[p->pos]))
            p->pos++;
          a = _wb_tp_new_value (p, WB_VALUE_ATTRIBUTE);
          a->base = v;
          {
            gboolean is_new;
            a->text = _wb_tp_intern (p, WB_VALUE_NAME, p->s + s0, p->pos - s0, &is_new)->text;
          }
          v = a;
        }
      else if (c == '(')
        {
          WbValue *call = _wb_tp_new_value (p, WB_VALUE_CALL);
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
          WbValue *sub = _wb_tp_new_value (p, WB_VALUE_SUBSCRIPT), *idx;
          sub->base = v;
          if (++p->nesting > MAX_NESTING)
            return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "brackets nested deeper than %d", MAX_NESTING);
          p->pos++;
          _wb_tp_skip_spaces (p);
          idx = _wb_tp_parse_expr_list (p, TRUE);
          if (idx == NULL)
            return NULL;
          _wb_tp_skip_spaces (p);
          if (!_wb_tp_expect_char (p, ']', "']'"))
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
  _wb_tp_skip_spaces (p);
  if (_wb_tp_peek (p) == '-' && p->pos < p->n)
    {
      gsize    start = p->pos;
      WbValue *operand, *v;
      gboolean is_new;
      p->pos++;
      if (++p->nesting > MAX_NESTING)
        return FAIL (p, p->pos, WB_TRACE_ERROR_UNSUPPORTED, "expression nested deeper than %d", MAX_NESTING);
      operand = _wb_tp_parse_postfix (p);
      p->nesting--;
      if (operand == NULL)
        return NULL;
      if (operand->kind == WB_VALUE_INT || operand->kind == WB_VALUE_FLOAT)
        {
          WbValueKind kind = operand->kind;
          gint64      i = operand->v.i;
          double      f = operand->v.f;
          v = _wb_tp_intern (p, kind, p->s + start, p->pos - start, &is_new);
          if (kind == WB_VALUE_INT)
            v->v.i = -i;
          else
            v->v.f = -f;
          return v;
        }
      v = _wb_tp_new_value (p, WB_VALUE_NEG);
      v->base = operand;
      return v;
    }
  return _wb_tp_parse_postfix (p);
}

WbValue *
_wb_tp_parse_expr_list (Parser *p, gboolean allow_bare)
{
  WbValue    *first = parse_expr (p), *tuple;
  GPtrArray  *items;
  GByteArray *breaks = NULL;
  gsize       after_first;
  if (first == NULL)
    return NULL;
  after_first = p->pos;
  _wb_tp_skip_spaces (p);
  if (!allow_bare || _wb_tp_peek (p) != ',' || p->pos >= p->n)
    {
      p->pos = after_first;
      return first;
    }
  tuple = _wb_tp_new_value (p, WB_VALUE_TUPLE);
  tuple->flags = WB_VALUE_FLAG_BARE;
  items = g_ptr_array_new ();
  g_ptr_array_add (items, first);
  while (_wb_tp_peek (p) == ',' && p->pos < p->n)
    {
      gsize    comma = p->pos++;
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
      _wb_tp_skip_spaces (p);
      if (p->pos >= p->n || _wb_tp_peek (p) == '=' || _wb_tp_peek (p) == ']' || _wb_tp_peek (p) == ')' || _wb_tp_peek (p) == ':')
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
      _wb_tp_skip_spaces (p);
      if (_wb_tp_peek (p) != ',' || p->pos >= p->n)
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
