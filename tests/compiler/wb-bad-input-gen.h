/* wb-bad-input-gen.h — deterministic broken variants of real Thunder traces (bad-input tests)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only (static functions) so that tests/compiler/test-bad-input.c (the parser in process) and
 * tests/app/test-bad-input-cli.c (the thunder-wb binary) generate exactly the same variants.
 * Every variant is made from one real trace file by one mutation of a category below; a seeded GRand
 * per category makes the list the same on every run and machine (WB_BAD_INPUT_SEED overrides the seed). */
#pragma once

#include <glib.h>
#include <stdarg.h>
#include <string.h>

typedef enum
{
  WB_BAD_TRUNCATED = 0, /* cut at any byte (may stay valid: then it must round-trip) */
  WB_BAD_BRACKET,       /* one bracket of a statement, the signature or a type annotation deleted */
  WB_BAD_DTYPE,         /* a type annotation's dtype replaced by one that does not exist */
  WB_BAD_SYMBOL,        /* a called symbol renamed to one the table does not have */
  WB_BAD_INDENT,        /* a body line indented by an odd count, a tab, 2 more, or not at all */
  WB_BAD_RANDOM_FILE,   /* a file of random bytes */
  WB_BAD_RANDOM_SPLICE, /* random bytes (one of them 0xff, never valid UTF-8) written over part of a trace */
  WB_BAD_LONG_LINE,     /* a 10 MB line (unclosed call, long name, long shape, deep brackets, raw bytes) */
  WB_BAD_EMPTY,         /* an empty file and its neighbours (blank lines only, a header without def) */
  WB_BAD_N_CATEGORIES
} WbBadCategory;

static const char *const wb_bad_category_names[WB_BAD_N_CATEGORIES] = { "truncated", "bracket", "dtype", "symbol", "indent", "random-file", "random-splice", "long-line", "empty" };

/* How many variants the in-process test makes of each category (sum: 600). */
static const guint wb_bad_category_counts[WB_BAD_N_CATEGORIES] = { 220, 80, 60, 60, 80, 40, 40, 7, 13 };

#define WB_BAD_DEFAULT_SEED 20250521u
#define WB_BAD_LONG_LINE_BYTES (10u * 1024u * 1024u)

/* One real trace file the variants are made from. */
typedef struct
{
  char *path;
  char *text;
  gsize len;
} WbBadBase;

/* One broken text. */
typedef struct
{
  WbBadCategory category;
  char         *name;   /* "<category>-<NNN>.py": the filename given to the parser */
  char         *origin; /* the real file it was made from and how ("llama_layer/forward_04.py: ...") */
  char         *text;
  gsize         len;
  guint         target_line;     /* the line that was broken, when the error must be reported there; else 0 */
  guint         target_line_alt; /* a second acceptable line (0: none) */
  gboolean      may_parse;       /* a truncation that may still be a valid trace (it must round-trip then) */
} WbBadVariant;

static void
wb_bad_base_free (WbBadBase *b)
{
  g_free (b->path);
  g_free (b->text);
  g_free (b);
}

static void
wb_bad_variant_free (WbBadVariant *v)
{
  g_free (v->name);
  g_free (v->origin);
  g_free (v->text);
  g_free (v);
}

static guint32
wb_bad_seed (void)
{
  const char *env = g_getenv ("WB_BAD_INPUT_SEED");
  if (env != NULL && *env != '\0')
    return (guint32) g_ascii_strtoull (env, NULL, 0);
  return WB_BAD_DEFAULT_SEED;
}

static void
wb_bad_collect (const char *dir, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, (char *) names->pdata[i], NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        wb_bad_collect (path, out);
      else if (g_str_has_suffix (path, ".py"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

static int
wb_bad_cmp_path (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* wb_bad_load_bases: every *.py under @dir, sorted by path, with its text (element-type WbBadBase). */
static GPtrArray *
wb_bad_load_bases (const char *dir)
{
  GPtrArray *bases = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_bad_base_free);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  wb_bad_collect (dir, paths);
  g_ptr_array_sort (paths, wb_bad_cmp_path);
  for (guint i = 0; i < paths->len; i++)
    {
      WbBadBase *b = g_new0 (WbBadBase, 1);
      if (!g_file_get_contents (paths->pdata[i], &b->text, &b->len, NULL) || b->len == 0)
        {
          g_free (b->text);
          g_free (b);
          continue;
        }
      b->path = g_strdup (paths->pdata[i]);
      g_ptr_array_add (bases, b);
    }
  return bases;
}

/* ---- line helpers ---------------------------------------------------------------------------- */

typedef struct
{
  gsize start; /* offset of the line's first byte */
  gsize len;   /* without the newline */
} WbBadLine;

static GArray *
wb_bad_split_lines (const char *text, gsize len)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (WbBadLine));
  gsize   start = 0;
  for (gsize i = 0; i <= len; i++)
    if (i == len || text[i] == '\n')
      {
        WbBadLine l = { start, i - start };
        if (i < len || i > start)
          g_array_append_val (lines, l);
        start = i + 1;
      }
  return lines;
}

static gsize
wb_bad_indent (const char *s, gsize n)
{
  gsize i = 0;
  while (i < n && s[i] == ' ')
    i++;
  return i;
}

/* Is the line a statement Thunder printed (top level or a subsymbol), not a plain comment? A subsymbol
 * is "# <statement>" two spaces deeper than its parent; a statement has " = " or is a call. */
static gboolean
wb_bad_is_statement (const char *s, gsize n)
{
  gsize       ind = wb_bad_indent (s, n);
  const char *c = s + ind;
  gsize       m = n - ind;
  if (ind < 2 || m == 0)
    return FALSE;
  if (c[0] == '#')
    {
      /* subsymbols only (depth >= 1): "    # t1 = prims.add(...)" */
      if (ind < 4 || m < 3 || c[1] != ' ')
        return FALSE;
      c += 2;
      m -= 2;
      if (g_strstr_len (c, m, " = ") == NULL)
        return FALSE;
      /* "# x: ..." annotations and "# gen_traces.py:12: ..." source lines have ':' before " = " */
      for (gsize i = 0; i < m && c[i] != '='; i++)
        if (c[i] == ':' || c[i] == '#')
          return FALSE;
      return TRUE;
    }
  return TRUE;
}

/* The byte offsets (in the whole text) of brackets that a deletion surely breaks: outside string
 * literals in statements and the signature, and inside a type annotation string ("f32[2, 3]"). */
static void
wb_bad_find_brackets (const char *text, const WbBadLine *l, guint line_no, GArray *offsets, GArray *lines)
{
  const char *s = text + l->start;
  gsize       n = l->len, i, code_start;
  char        quote = 0;
  gboolean    in_comment = FALSE;
  gboolean    is_def = n > 4 && memcmp (s, "def ", 4) == 0;
  if (!is_def && !wb_bad_is_statement (s, n))
    return;
  code_start = wb_bad_indent (s, n);
  if (s[code_start] == '#')
    code_start += 2;
  for (i = code_start; i < n; i++)
    {
      char c = s[i];
      if (in_comment)
        {
          /* a trailing type annotation: '# name: "type"' — brackets inside the quoted type count */
          if (c == '"')
            quote = quote ? 0 : '"';
          else if (quote && (c == '[' || c == ']'))
            {
              gsize off = l->start + i;
              g_array_append_val (offsets, off);
              g_array_append_val (lines, line_no);
            }
          continue;
        }
      if (quote)
        {
          if (c == '\\')
            i++;
          else if (c == quote)
            quote = 0;
          continue;
        }
      if (c == '\'' || c == '"')
        quote = c;
      else if (c == '#')
        {
          in_comment = TRUE;
          quote = 0;
        }
      else if (strchr ("()[]{}", c) != NULL)
        {
          gsize off = l->start + i;
          g_array_append_val (offsets, off);
          g_array_append_val (lines, line_no);
        }
    }
}

static gboolean
wb_bad_is_dtype_char (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Offsets and lengths of dtypes in tensor type annotations: '"cuda:0 bf16[' -> "bf16". */
static void
wb_bad_find_dtypes (const char *text, const WbBadLine *l, guint line_no, GArray *spans, GArray *lines)
{
  const char *s = text + l->start;
  gsize       n = l->len;
  for (gsize i = 0; i + 1 < n; i++)
    {
      gsize j, k;
      if (s[i] != '"')
        continue;
      /* device: up to a space */
      for (j = i + 1; j < n && s[j] != ' ' && s[j] != '"'; j++)
        ;
      if (j >= n || s[j] != ' ' || j == i + 1)
        continue;
      if (!(g_str_has_prefix (s + i + 1, "cuda") || g_str_has_prefix (s + i + 1, "cpu") ||
            g_str_has_prefix (s + i + 1, "meta")))
        continue;
      for (k = j + 1; k < n && wb_bad_is_dtype_char (s[k]); k++)
        ;
      if (k < n && s[k] == '[' && k > j + 1)
        {
          gsize span[2] = { l->start + j + 1, k - (j + 1) };
          g_array_append_vals (spans, span, 2);
          g_array_append_val (lines, line_no);
        }
    }
}

/* The callee of a top-level call statement: "  t1 = prims.add(" -> "prims.add" (offset, length). */
static gboolean
wb_bad_find_callee (const char *text, const WbBadLine *l, gsize *off, gsize *len)
{
  const char *s = text + l->start;
  gsize       n = l->len, ind = wb_bad_indent (s, n), i, start;
  const char *eq;
  if (ind != 2 || n < 4 || s[2] == '#')
    return FALSE;
  if (n >= 9 && (memcmp (s + 2, "return ", 7) == 0 || memcmp (s + 2, "del ", 4) == 0))
    return FALSE;
  eq = g_strstr_len (s, n, " = ");
  /* an annotated assignment ('m: "Any" = module.get_submodule(...)') evaluates an expression, it binds
   * no symbol */
  if (eq != NULL && (memchr (s, ':', (gsize) (eq - s)) != NULL || memchr (s, '"', (gsize) (eq - s)) != NULL))
    return FALSE;
  start = eq ? (gsize) (eq - s) + 3 : ind;
  for (i = start; i < n && (g_ascii_isalnum (s[i]) || s[i] == '_' || s[i] == '.'); i++)
    ;
  if (i == start || i >= n || s[i] != '(' || !(g_ascii_isalpha (s[start]) || s[start] == '_'))
    return FALSE;
  *off = l->start + start;
  *len = i - start;
  return TRUE;
}

/* ---- generation ------------------------------------------------------------------------------- */

static WbBadVariant *
wb_bad_variant_new (WbBadCategory cat, guint index, GString *text, const char *origin_fmt, ...) G_GNUC_PRINTF (4, 5);

static WbBadVariant *
wb_bad_variant_new (WbBadCategory cat, guint index, GString *text, const char *origin_fmt, ...)
{
  WbBadVariant *v = g_new0 (WbBadVariant, 1);
  va_list       ap;
  v->category = cat;
  v->name = g_strdup_printf ("%s-%03u.py", wb_bad_category_names[cat], index);
  va_start (ap, origin_fmt);
  v->origin = g_strdup_vprintf (origin_fmt, ap);
  va_end (ap);
  v->len = text->len;
  v->text = g_string_free (text, FALSE);
  return v;
}

static const char *
wb_bad_short_path (const WbBadBase *b)
{
  /* "<case>/<file>" relative to the traces folder, for messages */
  const char *p = b->path + strlen (b->path);
  int         slashes = 0;
  while (p > b->path)
    {
      if (p[-1] == '/' && ++slashes == 3)
        break;
      p--;
    }
  return p;
}

static const WbBadBase *
wb_bad_pick_base (GRand *r, GPtrArray *bases)
{
  return bases->pdata[g_rand_int_range (r, 0, (gint32) bases->len)];
}

static const char *const wb_bad_dtypes[] = { "bf17", "f31", "i7", "c129", "f8_e9m9", "q4", "xf32", "f16x", "ui128", "b9", "float32", "f8" };

static const char *const wb_bad_symbol_suffixes[] = { "_no_such_symbol", "_wbx", "Q", "_9z" };

static WbBadVariant *
wb_bad_make_one (WbBadCategory cat, guint index, GRand *r, GPtrArray *bases)
{
  for (guint attempt = 0; attempt < 1000; attempt++)
    {
      const WbBadBase *b = wb_bad_pick_base (r, bases);
      g_autoptr (GArray) lines = wb_bad_split_lines (b->text, b->len);
      GString *t;
      switch (cat)
        {
        case WB_BAD_TRUNCATED:
          {
            gsize         cut;
            WbBadVariant *v;
            if (b->len < 2)
              continue;
            cut = (gsize) g_rand_double_range (r, 1, (double) b->len);
            cut = MIN (MAX (cut, 1), b->len - 1);
            if (index % 4 == 0)
              {
                /* every fourth cut right after a newline: often still a valid (shorter) trace */
                const char *nl = memchr (b->text + cut, '\n', b->len - cut);
                if (nl == NULL || (gsize) (nl - b->text) + 1 >= b->len)
                  continue;
                cut = (gsize) (nl - b->text) + 1;
              }
            t = g_string_new_len (b->text, cut);
            v = wb_bad_variant_new (cat, index, t, "%s: cut at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT,
                                    wb_bad_short_path (b), cut, b->len);
            v->may_parse = TRUE;
            return v;
          }
        case WB_BAD_BRACKET:
          {
            g_autoptr (GArray) offs = g_array_new (FALSE, FALSE, sizeof (gsize));
            g_autoptr (GArray) lns = g_array_new (FALSE, FALSE, sizeof (guint));
            guint         k;
            gsize         off;
            WbBadVariant *v;
            for (guint i = 0; i < lines->len; i++)
              wb_bad_find_brackets (b->text, &g_array_index (lines, WbBadLine, i), i + 1, offs, lns);
            if (offs->len == 0)
              continue;
            k = g_rand_int_range (r, 0, (gint32) offs->len);
            off = g_array_index (offs, gsize, k);
            t = g_string_new_len (b->text, b->len);
            g_string_erase (t, (gssize) off, 1);
            v = wb_bad_variant_new (cat, index, t, "%s:%u: deleted '%c' at byte %" G_GSIZE_FORMAT,
                                    wb_bad_short_path (b), g_array_index (lns, guint, k), b->text[off], off);
            v->target_line = g_array_index (lns, guint, k);
            return v;
          }
        case WB_BAD_DTYPE:
          {
            g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (gsize));
            g_autoptr (GArray) lns = g_array_new (FALSE, FALSE, sizeof (guint));
            const char   *bad = wb_bad_dtypes[g_rand_int_range (r, 0, G_N_ELEMENTS (wb_bad_dtypes))];
            guint         k;
            gsize         off, len;
            WbBadVariant *v;
            for (guint i = 0; i < lines->len; i++)
              wb_bad_find_dtypes (b->text, &g_array_index (lines, WbBadLine, i), i + 1, spans, lns);
            if (lns->len == 0)
              continue;
            k = g_rand_int_range (r, 0, (gint32) lns->len);
            off = g_array_index (spans, gsize, 2 * k);
            len = g_array_index (spans, gsize, 2 * k + 1);
            t = g_string_new_len (b->text, b->len);
            g_string_erase (t, (gssize) off, (gssize) len);
            g_string_insert (t, (gssize) off, bad);
            v = wb_bad_variant_new (cat, index, t, "%s:%u: dtype %.*s -> %s", wb_bad_short_path (b),
                                    g_array_index (lns, guint, k), (int) len, b->text + off, bad);
            v->target_line = g_array_index (lns, guint, k);
            return v;
          }
        case WB_BAD_SYMBOL:
          {
            g_autoptr (GArray) cand = g_array_new (FALSE, FALSE, sizeof (guint));
            const char   *suffix = wb_bad_symbol_suffixes[g_rand_int_range (r, 0, G_N_ELEMENTS (wb_bad_symbol_suffixes))];
            guint         li;
            gsize         off, len;
            WbBadVariant *v;
            for (guint i = 0; i < lines->len; i++)
              if (wb_bad_find_callee (b->text, &g_array_index (lines, WbBadLine, i), &off, &len))
                g_array_append_val (cand, i);
            if (cand->len == 0)
              continue;
            li = g_array_index (cand, guint, g_rand_int_range (r, 0, (gint32) cand->len));
            wb_bad_find_callee (b->text, &g_array_index (lines, WbBadLine, li), &off, &len);
            t = g_string_new_len (b->text, b->len);
            g_string_insert (t, (gssize) (off + len), suffix);
            v = wb_bad_variant_new (cat, index, t, "%s:%u: symbol %.*s -> %.*s%s", wb_bad_short_path (b), li + 1,
                                    (int) len, b->text + off, (int) len, b->text + off, suffix);
            v->target_line = li + 1;
            return v;
          }
        case WB_BAD_INDENT:
          {
            g_autoptr (GArray) cand = g_array_new (FALSE, FALSE, sizeof (guint));
            guint            li, how;
            const WbBadLine *l;
            const char      *s;
            gsize            ind;
            WbBadVariant    *v;
            gboolean         in_body = FALSE;
            for (guint i = 0; i < lines->len; i++)
              {
                const WbBadLine *c = &g_array_index (lines, WbBadLine, i);
                s = b->text + c->start;
                if (c->len > 4 && memcmp (s, "def ", 4) == 0)
                  {
                    in_body = TRUE;
                    continue;
                  }
                if (in_body && c->len > 0 && s[0] != ' ')
                  in_body = FALSE;
                /* a statement line of a body, not a line continued from the one above */
                if (in_body && wb_bad_indent (s, c->len) >= 2 && wb_bad_indent (s, c->len) < c->len &&
                    !(i > 0 && g_array_index (lines, WbBadLine, i - 1).len > 0 &&
                      b->text[g_array_index (lines, WbBadLine, i - 1).start + g_array_index (lines, WbBadLine, i - 1).len - 1] == '\\'))
                  g_array_append_val (cand, i);
              }
            if (cand->len == 0)
              continue;
            li = g_array_index (cand, guint, g_rand_int_range (r, 0, (gint32) cand->len));
            l = &g_array_index (lines, WbBadLine, li);
            s = b->text + l->start;
            ind = wb_bad_indent (s, l->len);
            how = g_rand_int_range (r, 0, 5);
            /* 2 more spaces only breaks a statement (a comment would become a subsymbol) */
            if (how == 2 && (ind != 2 || s[ind] == '#'))
              how = 0;
            /* no indentation only breaks a statement (a comment would start the next trace's header) */
            if (how == 3 && s[ind] == '#')
              how = 1;
            t = g_string_new_len (b->text, l->start);
            switch (how)
              {
              case 0: /* one more space: odd */
                g_string_append_len (t, s, (gssize) ind);
                g_string_append_c (t, ' ');
                break;
              case 1: /* one less space: odd */
                g_string_append_len (t, s, (gssize) ind - 1);
                break;
              case 2:
                g_string_append (t, "    ");
                break;
              case 3:
                break;
              default: /* a tab in place of the last space */
                g_string_append_len (t, s, (gssize) ind - 1);
                g_string_append_c (t, '\t');
                break;
              }
            g_string_append_len (t, s + ind, (gssize) (b->len - l->start - ind));
            v = wb_bad_variant_new (cat, index, t, "%s:%u: indentation %s", wb_bad_short_path (b), li + 1,
                                    (const char *[]){ "+1", "-1", "+2 (statement)", "0 (statement)", "tab" }[how]);
            v->target_line = li + 1;
            return v;
          }
        case WB_BAD_RANDOM_FILE:
          {
            gsize len = (gsize) g_rand_int_range (r, 1, 8192);
            t = g_string_sized_new (len);
            for (gsize i = 0; i < len; i++)
              g_string_append_c (t, (char) g_rand_int_range (r, 0, 256));
            return wb_bad_variant_new (cat, index, t, "%" G_GSIZE_FORMAT " random bytes", len);
          }
        case WB_BAD_RANDOM_SPLICE:
          {
            gsize len = (gsize) g_rand_int_range (r, 1, 65), off, ff;
            if (b->len < len + 1)
              continue;
            off = (gsize) g_rand_double_range (r, 0, (double) (b->len - len));
            ff = (gsize) g_rand_int_range (r, 0, (gint32) len);
            t = g_string_new_len (b->text, b->len);
            for (gsize i = 0; i < len; i++)
              t->str[off + i] = i == ff ? (char) 0xff : (char) g_rand_int_range (r, 0, 256);
            return wb_bad_variant_new (cat, index, t, "%s: %" G_GSIZE_FORMAT " random bytes at byte %" G_GSIZE_FORMAT,
                                       wb_bad_short_path (b), len, off);
          }
        case WB_BAD_LONG_LINE:
          {
            /* insert one line of >= 10 MB before a random top-level statement of the body */
            g_autoptr (GArray) cand = g_array_new (FALSE, FALSE, sizeof (guint));
            const WbBadLine *l;
            guint            li, kind = index % 7;
            const gsize      big = WB_BAD_LONG_LINE_BYTES;
            WbBadVariant    *v;
            const char      *what;
            for (guint i = 0; i < lines->len; i++)
              {
                const WbBadLine *c = &g_array_index (lines, WbBadLine, i);
                gsize            off, len;
                if (wb_bad_find_callee (b->text, c, &off, &len))
                  g_array_append_val (cand, i);
              }
            if (cand->len == 0 && kind < 5)
              continue;
            li = cand->len ? g_array_index (cand, guint, g_rand_int_range (r, 0, (gint32) cand->len)) : 0;
            l = cand->len ? &g_array_index (lines, WbBadLine, li) : NULL;
            t = g_string_sized_new (b->len + big + 64);
            if (kind < 5)
              g_string_append_len (t, b->text, (gssize) l->start);
            switch (kind)
              {
              case 0:
                what = "an unclosed call with 10 MB of arguments";
                g_string_append (t, "  t99999 = prims.cat((");
                while (t->len < l->start + big)
                  g_string_append (t, "t0, t1, t2, ");
                break;
              case 1:
                what = "a 10 MB name";
                g_string_append (t, "  ");
                while (t->len < l->start + big)
                  g_string_append (t, "abcdefghijklmnopqrstuvwxyz_0123456789");
                break;
              case 2:
                what = "a 10 MB shape in an unterminated type annotation";
                g_string_append (t, "  t99999 = prims.neg(t0)  # t99999: \"cuda:0 f32[");
                while (t->len < l->start + big)
                  g_string_append (t, "1, ");
                break;
              case 3:
                what = "10 MB of '('";
                g_string_append (t, "  t99999 = ");
                while (t->len < l->start + big)
                  g_string_append (t, "((((((((((((((((");
                break;
              case 4:
                what = "a 10 MB string literal that is never closed";
                g_string_append (t, "  t99999 = ltorch.full((2,), '");
                while (t->len < l->start + big)
                  g_string_append (t, "0123456789abcdef");
                break;
              case 5:
                what = "a 10 MB header comment, then a broken def";
                g_string_append (t, "# ");
                while (t->len < big)
                  g_string_append (t, "comment ");
                g_string_append (t, "\ndef computation(x:\n  return x\n");
                break;
              default:
                what = "a whole file of 10 MB random bytes without a newline";
                while (t->len < big)
                  {
                    char c = (char) g_rand_int_range (r, 0, 256);
                    g_string_append_c (t, c == '\n' ? ' ' : c);
                  }
                break;
              }
            if (kind < 5)
              {
                g_string_append_c (t, '\n');
                g_string_append_len (t, b->text + l->start, (gssize) (b->len - l->start));
              }
            v = wb_bad_variant_new (cat, index, t, "%s:%u: %s", kind < 5 ? wb_bad_short_path (b) : "-",
                                    kind < 5 ? li + 1 : 1, what);
            v->target_line = kind < 5 ? li + 1 : kind == 5 ? 2
                                                           : 1;
            return v;
          }
        case WB_BAD_EMPTY:
          {
            static const char *const texts[] = {
              "",
              "\n",
              "\n\n\n",
              "   ",
              "  \n",
              "\t\n",
              "# Constructed by Grad transform pass (took 1 milliseconds)\n",
              "import thunder\nimport torch\n",
              "@torch.no_grad()\n",
              "# comment only",
              "\r\n",
              " \n\n",
              "# Constructed by Dead Code Elimination\n\n",
            };
            g_autofree char *escaped = g_strescape (texts[index % G_N_ELEMENTS (texts)], NULL);
            t = g_string_new (texts[index % G_N_ELEMENTS (texts)]);
            return wb_bad_variant_new (cat, index, t, "empty or header only: \"%s\"", escaped);
          }
        default:
          g_assert_not_reached ();
        }
    }
  g_error ("no base trace suits category %s", wb_bad_category_names[cat]);
  return NULL;
}

/* wb_bad_generate: @count variants of @cat (element-type WbBadVariant), the same on every run for a seed.
 * Each category draws from its own GRand so that skipping one does not change the others. */
static GPtrArray *
wb_bad_generate (WbBadCategory cat, guint count, guint32 seed, GPtrArray *bases)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_bad_variant_free);
  g_autoptr (GRand) r = g_rand_new_with_seed (seed * 31u + (guint32) cat);
  g_assert (bases->len > 0);
  for (guint i = 0; i < count; i++)
    g_ptr_array_add (out, wb_bad_make_one (cat, i, r, bases));
  return out;
}

/* wb_bad_parse_location: reads "NAME:LINE:COL: " at the start of @msg. FALSE when it is not there. */
static gboolean
wb_bad_parse_location (const char *msg, const char *name, guint64 *line, guint64 *col)
{
  gsize       nl = strlen (name);
  const char *p;
  char       *end;
  if (strncmp (msg, name, nl) != 0 || msg[nl] != ':')
    return FALSE;
  p = msg + nl + 1;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  *line = g_ascii_strtoull (p, &end, 10);
  if (*end != ':' || !g_ascii_isdigit (end[1]))
    return FALSE;
  p = end + 1;
  *col = g_ascii_strtoull (p, &end, 10);
  return end[0] == ':' && end[1] == ' ' && end[2] != '\0';
}

/* wb_bad_location_in_bounds: LINE and COL (1-based) lie in @text: LINE is one of its lines (or the
 * empty line after a final newline) and COL at most one past that line's end. */
static gboolean
wb_bad_location_in_bounds (const char *text, gsize len, guint64 line, guint64 col)
{
  gsize   start = 0, i;
  guint64 l = 1;
  if (line < 1 || col < 1)
    return FALSE;
  for (i = 0; i < len && l < line; i++)
    if (text[i] == '\n')
      {
        l++;
        start = i + 1;
      }
  if (l != line)
    return FALSE;
  {
    const char *nl = memchr (text + start, '\n', len - start);
    gsize       line_len = nl ? (gsize) (nl - (text + start)) : len - start;
    return col <= line_len + 1;
  }
}
