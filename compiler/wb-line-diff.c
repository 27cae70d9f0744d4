/* wb-line-diff.c — Myers' diff of two sequences of lines, and of the tokens of two lines (GTK-free)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The alignment beneath the stage diff (wb-stage-pair.c): lines first, then, inside a pair of lines shown
 * side by side, their tokens, so the view can highlight what changed within a line. */
#include "config.h"

#include "wb-line-diff.h"

#include <string.h>

/* -- Myers' diff ---------------------------------------------------------------------------------- */

guint
wb_line_diff (const char *const *a, guint n_a, const char *const *b, guint n_b, guint8 *a_changed, guint8 *b_changed, guint *a_to_b)
{
  guint   pre = 0, suf = 0, n, m, edits = 0;
  int     max, off, d, k, x, y;
  GArray *trace;
  int    *v;
  guint  *ha, *hb;

  memset (a_changed, 0, n_a);
  memset (b_changed, 0, n_b);
  if (a_to_b != NULL)
    for (guint i = 0; i < n_a; i++)
      a_to_b[i] = G_MAXUINT;
  while (pre < n_a && pre < n_b && strcmp (a[pre], b[pre]) == 0)
    {
      if (a_to_b != NULL)
        a_to_b[pre] = pre;
      pre++;
    }
  while (suf < n_a - pre && suf < n_b - pre && strcmp (a[n_a - 1 - suf], b[n_b - 1 - suf]) == 0)
    {
      if (a_to_b != NULL)
        a_to_b[n_a - 1 - suf] = n_b - 1 - suf;
      suf++;
    }
  n = n_a - pre - suf;
  m = n_b - pre - suf;
  if (n == 0 || m == 0)
    {
      memset (a_changed + pre, 1, n);
      memset (b_changed + pre, 1, m);
      return n + m;
    }

  /* hashes first: most comparisons are then one integer compare */
  ha = g_new (guint, n);
  hb = g_new (guint, m);
  for (guint i = 0; i < n; i++)
    ha[i] = g_str_hash (a[pre + i]);
  for (guint j = 0; j < m; j++)
    hb[j] = g_str_hash (b[pre + j]);
#define EQ(i, j) (ha[i] == hb[j] && strcmp (a[pre + (i)], b[pre + (j)]) == 0)

  max = (int) (n + m);
  off = max + 1;
  v = g_new0 (int, 2 * max + 3);
  trace = g_array_new (FALSE, FALSE, sizeof (int)); /* for each d: v[-d..d] */
  for (d = 0; d <= max; d++)
    {
      gboolean done = FALSE;

      for (k = -d; k <= d; k += 2)
        {
          if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
            x = v[off + k + 1];
          else
            x = v[off + k - 1] + 1;
          y = x - k;
          while (x < (int) n && y < (int) m && EQ (x, y))
            x++, y++;
          v[off + k] = x;
          if (x >= (int) n && y >= (int) m)
            done = TRUE;
        }
      g_array_append_vals (trace, v + off - d, 2 * d + 1);
      if (done)
        break;
    }

  /* walk back through the saved frontiers */
  x = (int) n;
  y = (int) m;
  for (; d > 0; d--)
    {
      int     *vp = &g_array_index (trace, int, (gsize) (d - 1) * (d - 1)) + (d - 1); /* frontier d-1 */
      gboolean insert;
      int      pk, mx, my;

      k = x - y;
      insert = k == -d || (k != d && vp[k - 1] < vp[k + 1]);
      pk = insert ? k + 1 : k - 1;
      mx = vp[pk] + (insert ? 0 : 1);
      my = mx - k;
      while (x > mx && y > my)
        {
          x--, y--;
          if (a_to_b != NULL)
            a_to_b[pre + x] = pre + y;
        }
      if (insert)
        b_changed[pre + --y] = 1;
      else
        a_changed[pre + --x] = 1;
      edits++;
    }
  while (x > 0 && y > 0)
    {
      x--, y--;
      if (a_to_b != NULL)
        a_to_b[pre + x] = pre + y;
    }
#undef EQ
  g_array_free (trace, TRUE);
  g_free (v);
  g_free (ha);
  g_free (hb);
  return edits;
}

/* -- tokens --------------------------------------------------------------------------------------- */

static gboolean
is_word_byte (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c >= 0x80;
}

/* Cuts @line into tokens: (start, end) byte pairs appended to @bounds, and each token's text (a name
 * mapped through @rename when it maps it) to @texts. */
static void
tokenize (const char *line, GHashTable *rename, GArray *bounds, GPtrArray *texts)
{
  guint i = 0, n = (guint) strlen (line);

  while (i < n)
    {
      guint       j = i + 1;
      char       *text;
      const char *to;

      if (is_word_byte ((guchar) line[i]))
        while (j < n && is_word_byte ((guchar) line[j]))
          j++;
      else if (line[i] == ' ')
        while (j < n && line[j] == ' ')
          j++;
      text = g_strndup (line + i, j - i);
      if (rename != NULL && (g_ascii_isalpha (text[0]) || text[0] == '_') && (to = g_hash_table_lookup (rename, text)) != NULL)
        {
          g_free (text);
          text = g_strdup (to);
        }
      g_array_append_vals (bounds, (guint[]){ i, j }, 2);
      g_ptr_array_add (texts, text);
      i = j;
    }
}

/* appends the runs of changed tokens as merged (start, end) spans; returns how many */
static guint
append_spans (const guint8 *changed, GArray *bounds, guint n, GArray *spans)
{
  guint count = 0;

  for (guint t = 0; t < n;)
    {
      guint u = t;

      if (!changed[t])
        {
          t++;
          continue;
        }
      while (u + 1 < n && changed[u + 1])
        u++;
      if (spans != NULL)
        g_array_append_vals (spans, (guint[]){ g_array_index (bounds, guint, 2 * t), g_array_index (bounds, guint, 2 * u + 1) }, 2);
      count++;
      t = u + 1;
    }
  return count;
}

guint
wb_line_diff_spans (const char *a, const char *b, GHashTable *rename, GArray *a_spans, GArray *b_spans)
{
  g_autoptr (GArray) ab = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) bb = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) at = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) bt = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint8 *ac = NULL;
  g_autofree guint8 *bc = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, 0);
  tokenize (a, NULL, ab, at);
  tokenize (b, rename, bb, bt);
  ac = g_new0 (guint8, at->len + 1);
  bc = g_new0 (guint8, bt->len + 1);
  wb_line_diff ((const char *const *) at->pdata, at->len, (const char *const *) bt->pdata, bt->len, ac, bc, NULL);
  return append_spans (ac, ab, at->len, a_spans) + append_spans (bc, bb, bt->len, b_spans);
}

/* -- renaming ------------------------------------------------------------------------------------- */

char *
wb_line_rename (const char *line, GHashTable *rename, GString *word)
{
  GString *out = g_string_sized_new (strlen (line));

  for (const char *p = line; *p;)
    {
      if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *q = p, *to;
          while (g_ascii_isalnum (*q) || *q == '_')
            q++;
          g_string_truncate (word, 0);
          g_string_append_len (word, p, q - p);
          to = g_hash_table_lookup (rename, word->str);
          g_string_append (out, to != NULL ? to : word->str);
          p = q;
        }
      else if (g_ascii_isdigit (*p))
        {
          /* a number, or the digits of a name glued to it: copied as they are */
          while (g_ascii_isalnum (*p) || *p == '_' || *p == '.')
            g_string_append_c (out, *p++);
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}
