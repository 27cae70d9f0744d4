/* wb-trace-parser-stmt.c — statements of a trace's body and the type annotations in them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A statement is a call of a known symbol (with its outputs), an assignment, an unpacking, `del` or
 * `return`, followed by nothing, a type annotation ("  # t0: \"cuda:0 f32[2]\"") or a comment kept
 * verbatim. Top-level comments of the body are annotations or comments. */
#include "config.h"

#include <string.h>

#include "wb-trace-parser-private.h"

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

/* Parses `"TYPE"` at p->pos into @type. */
static gboolean
parse_type_string (Parser *p, WbType *type)
{
  gsize start, end, err = 0;
  if (!_wb_tp_expect_char (p, '"', "'\"' opening a type annotation"))
    return FALSE;
  start = p->pos;
  while (p->pos < p->n && p->s[p->pos] != '"')
    p->pos += p->s[p->pos] == '\\' && p->pos + 1 < p->n ? 2 : 1; /* "a \"quoted\" word" */
  if (p->pos >= p->n)
    {
      _wb_tp_fail_at (p, start - 1, WB_TRACE_ERROR_BAD_TYPE, "unterminated type annotation");
      return FALSE;
    }
  end = p->pos++;
  for (gsize i = start; i < end; i++)
    if ((guchar) p->s[i] < 0x20 || (guchar) p->s[i] == 0x7f)
      {
        _wb_tp_fail_at (p, i, WB_TRACE_ERROR_BAD_TYPE, "control character in a type annotation");
        return FALSE;
      }
  if (!g_utf8_validate_len (p->s + start, end - start, NULL))
    {
      _wb_tp_fail_at (p, start, WB_TRACE_ERROR_BAD_TYPE, "type annotation is not valid UTF-8");
      return FALSE;
    }
  if (!wb_type_parse (p->s + start, end - start, type, &err))
    {
      /* what the workbench cannot read (a new dtype or device, "int POSITIONAL_OR_KEYWORD") is kept as
         text: the verifier warns and checks it no further */
      memset (type, 0, sizeof *type);
      type->kind = WB_TYPE_OTHER;
      type->uninterpreted = TRUE;
      type->text = p->s + start;
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
  char  buf[16];
  _wb_tp_skip_spaces (p);
  if (p->pos >= p->n)
    {
      if (p->pos != stmt_end)
        return _wb_tp_fail_at (p, stmt_end, WB_TRACE_ERROR_SYNTAX, "trailing spaces"), FALSE;
      return TRUE;
    }
  if (_wb_tp_peek (p) != '#')
    {
      _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected end of statement or '#', found %s", _wb_tp_describe_char (p, buf));
      return FALSE;
    }
  q = p->pos;
  if (allow_type && q == stmt_end + 2 && q + 2 < p->n && p->s[q + 1] == ' ' && _wb_tp_is_ident_start (p->s[q + 2]))
    {
      gsize n0 = q + 2, n1 = _wb_tp_name_end (p->s, p->n, n0);
      if (n1 + 2 < p->n && p->s[n1] == ':' && p->s[n1 + 1] == ' ' && p->s[n1 + 2] == '"')
        {
          gboolean is_new;
          bsym->type_name = _wb_tp_intern (p, WB_VALUE_NAME, p->s + n0, n1 - n0, &is_new)->text;
          p->pos = n1 + 2;
          if (!parse_type_string (p, &bsym->type))
            return FALSE;
          bsym->has_type = TRUE;
          if (p->pos != p->n)
            {
              _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after the type annotation");
              return FALSE;
            }
          return TRUE;
        }
    }
  if (!g_utf8_validate_len (p->s + stmt_end, p->n - stmt_end, NULL) || memchr (p->s + stmt_end, 0, p->n - stmt_end))
    {
      _wb_tp_fail_at (p, stmt_end, WB_TRACE_ERROR_SYNTAX, "comment is not valid UTF-8 text");
      return FALSE;
    }
  bsym->comment = wb_arena_strndup (p->arena, p->s + stmt_end, p->n - stmt_end);
  p->pos = p->n;
  return TRUE;
}

gboolean
_wb_tp_parse_statement (Parser *p, WbBsym *bsym)
{
  WbValue *lhs, *rhs;
  char     buf[16];
  p->pos = 0;
  p->nesting = 0;

  if (p->n >= 4 && memcmp (p->s, "del ", 4) == 0)
    {
      WbValue *names;
      bsym->kind = WB_BSYM_DEL;
      p->pos = 4;
      names = _wb_tp_parse_expr_list (p, TRUE);
      if (names == NULL)
        return FALSE;
      if (names->kind == WB_VALUE_TUPLE && (names->flags & WB_VALUE_FLAG_BARE))
        {
          if (names->flags & WB_VALUE_FLAG_TRAILING_COMMA)
            return _wb_tp_fail_at (p, p->pos - 1, WB_TRACE_ERROR_SYNTAX, "trailing ',' after del"), FALSE;
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
          return _wb_tp_fail_at (p, 4, WB_TRACE_ERROR_SYNTAX, "del takes names only"), FALSE;
      return parse_trailer (p, bsym, FALSE);
    }
  if (p->n >= 6 && memcmp (p->s, "return", 6) == 0 && (p->n == 6 || p->s[6] == ' '))
    {
      bsym->kind = WB_BSYM_RETURN;
      p->pos = 6;
      if (p->n > 6)
        {
          p->pos = 7;
          bsym->value = _wb_tp_parse_expr_list (p, TRUE);
          if (bsym->value == NULL)
            return FALSE;
        }
      return parse_trailer (p, bsym, FALSE);
    }

  lhs = _wb_tp_parse_expr_list (p, TRUE);
  if (lhs == NULL)
    return FALSE;
  _wb_tp_skip_spaces (p);
  if (_wb_tp_peek (p) == ':' && p->pos < p->n)
    {
      /* prologue form: name: "type" = expression */
      if (lhs->kind != WB_VALUE_NAME)
        return _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "only a name can be annotated"), FALSE;
      p->pos++;
      _wb_tp_skip_spaces (p);
      if (!parse_type_string (p, &bsym->type))
        return FALSE;
      bsym->has_type = TRUE;
      _wb_tp_skip_spaces (p);
      if (!_wb_tp_expect_char (p, '=', "'=' after the annotation"))
        return FALSE;
      bsym->kind = WB_BSYM_ASSIGN;
      bsym->name = lhs->text;
      bsym->outputs = lhs;
      bsym->value = _wb_tp_parse_expr_list (p, TRUE);
      if (bsym->value == NULL)
        return FALSE;
      return parse_trailer (p, bsym, FALSE);
    }
  if (_wb_tp_peek (p) == '=' && p->pos < p->n)
    {
      gsize eq = p->pos++;
      if (!is_name_pattern (lhs))
        return _wb_tp_fail_at (p, 0, WB_TRACE_ERROR_SYNTAX, "cannot assign to this expression"), FALSE;
      _wb_tp_skip_spaces (p);
      if (p->pos >= p->n)
        return _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected a value after '='"), FALSE;
      rhs = _wb_tp_parse_expr_list (p, TRUE);
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
      GString        *name = g_string_sized_new (64);
      const WbSymbol *sym;
      if (!callee_span (lhs->base, p, name))
        {
          g_string_free (name, TRUE);
          return _wb_tp_fail_at (p, lhs->col, WB_TRACE_ERROR_SYNTAX, "expected a symbol name before '('"), FALSE;
        }
      /* a name the table lacks is an opaque symbol: its annotations type it, the verifier warns */
      sym = wb_symbol_lookup (name->str, name->len);
      if (sym == NULL)
        sym = wb_symbol_get_opaque (name->str, name->len);
      bsym->kind = WB_BSYM_CALL;
      bsym->symbol = sym;
      {
        gboolean is_new;
        bsym->name = _wb_tp_intern (p, WB_VALUE_NAME, name->str, name->len, &is_new)->text;
      }
      g_string_free (name, TRUE);
      bsym->args = lhs->items;
      bsym->n_args = lhs->n_items;
      bsym->kwargs = lhs->kwargs;
      bsym->n_kwargs = lhs->n_kwargs;
      return parse_trailer (p, bsym, TRUE);
    }
  _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "expected '=', ':' or a call, found %s", _wb_tp_describe_char (p, buf));
  return FALSE;
}

WbBsym *
_wb_tp_new_bsym (Parser *p, WbBsymKind kind, guint32 line, guint32 col, guint depth)
{
  WbBsym *b = wb_arena_new0 (p->arena, WbBsym);
  b->kind = kind;
  b->line = line;
  b->col = col;
  b->depth = depth;
  return b;
}

gboolean
_wb_tp_is_plain_comment (const char *s, gsize n)
{
  gsize q;

  if (!(n > 2 && s[1] == ' ' && _wb_tp_is_ident_start (s[2])))
    return TRUE;
  q = _wb_tp_name_end (s, n, 2);
  return !(q + 2 < n && s[q] == ':' && s[q + 1] == ' ' && s[q + 2] == '"');
}

gboolean
_wb_tp_parse_body_comment (Parser *p, const char *s, gsize n, guint32 line, guint32 col, WbBsym *b)
{
  gsize q = 2, n0;
  _wb_tp_set_single_segment (p, line, col);
  p->s = s;
  p->n = n;
  if (!_wb_tp_is_plain_comment (s, n))
    {
      n0 = q;
      q = _wb_tp_name_end (s, n, q);
      if (q + 2 < n && s[q] == ':' && s[q + 1] == ' ' && s[q + 2] == '"')
        {
          gboolean is_new;
          b->kind = WB_BSYM_ANNOTATION;
          b->name = _wb_tp_intern (p, WB_VALUE_NAME, s + n0, q - n0, &is_new)->text;
          p->pos = q + 2;
          if (!parse_type_string (p, &b->type))
            return FALSE;
          if (p->pos != n)
            return _wb_tp_fail_at (p, p->pos, WB_TRACE_ERROR_SYNTAX, "unexpected text after the type annotation"), FALSE;
          b->has_type = TRUE;
          return TRUE;
        }
    }
  if (!_wb_tp_check_text (p, s, n, line))
    return FALSE;
  b->kind = WB_BSYM_COMMENT;
  b->comment = wb_arena_strndup (p->arena, s + 1, n - 1);
  return TRUE;
}
