/* wb-line-diff.c — Myers' diff of two sequences of lines, and of the tokens of two lines (GTK-free)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The alignment beneath the stage diff (wb-stage-pair.c): lines first, then, inside a pair of lines shown
 * side by side, their tokens, so the view can highlight what changed within a line. */
#include "config.h"

#include "wb-line-diff.h"

#include <string.h>

/* -- Myers' diff ---------------------------------------------------------------------------------- */

/* The most edits Myers' walk may find before the anchored diff takes over: its saved frontiers hold D^2
 * ints (4096: 64 MiB), which two unrelated halves of a large stage would otherwise grow to gigabytes. */
#define MAX_EDITS 4096

/* Myers' walk over @a[0..n) and @b[0..m) (nothing common at either end); G_MAXUINT past MAX_EDITS edits,
 * with nothing written. */
static guint
myers (const char *const *a, guint n, const char *const *b, guint m, guint8 *a_changed, guint8 *b_changed, guint *a_to_b)
{
  g_autofree guint *ha = g_new (guint, n);
  g_autofree guint *hb = g_new (guint, m);
  g_autofree int   *v = NULL;
  g_autoptr (GArray) trace = g_array_new (FALSE, FALSE, sizeof (int)); /* for each d: v[-d..d] */
  int   max = (int) (n + m), off = max + 1, d, k, x, y;
  guint edits = 0;

  /* hashes first: most comparisons are then one integer compare */
  for (guint i = 0; i < n; i++)
    ha[i] = g_str_hash (a[i]);
  for (guint j = 0; j < m; j++)
    hb[j] = g_str_hash (b[j]);
#define EQ(i, j) (ha[i] == hb[j] && strcmp (a[i], b[j]) == 0)
  v = g_new0 (int, 2 * max + 3);
  for (d = 0; d <= max; d++)
    {
      gboolean done = FALSE;

      if (d > MAX_EDITS)
        return G_MAXUINT;
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
#undef EQ

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
          a_to_b[x] = y;
        }
      if (insert)
        b_changed[--y] = 1;
      else
        a_changed[--x] = 1;
      edits++;
    }
  while (x > 0 && y > 0)
    {
      x--, y--;
      a_to_b[x] = y;
    }
  return edits;
}

typedef struct
{
  guint n_a, n_b, i, j;
} Count;

/* Patience's anchors: the lines that occur once in each side, the longest run of them in the same order
 * on both sides (patience sorting); (i, j) pairs appended to @anchors. */
static void
unique_anchors (const char *const *a, guint n, const char *const *b, guint m, GArray *anchors)
{
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GArray) js = g_array_new (FALSE, FALSE, sizeof (guint)); /* unique pairs by i: their j */
  g_autoptr (GArray) is = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *tails = NULL, *prev = NULL;
  guint             len = 0, at;

  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < (s ? m : n); i++)
      {
        const char *line = s ? b[i] : a[i];
        Count      *c = g_hash_table_lookup (counts, line);

        if (c == NULL)
          g_hash_table_insert (counts, (gpointer) line, (c = g_new0 (Count, 1)));
        if (s)
          c->n_b++, c->j = i;
        else
          c->n_a++, c->i = i;
      }
  for (guint i = 0; i < n; i++)
    {
      Count *c = g_hash_table_lookup (counts, a[i]);

      if (c->n_a == 1 && c->n_b == 1)
        g_array_append_val (is, i), g_array_append_val (js, c->j);
    }
  /* the longest increasing run of j (O(k log k)) */
  tails = g_new (guint, js->len + 1);
  prev = g_new (guint, js->len + 1);
  for (guint t = 0; t < js->len; t++)
    {
      guint lo = 0, hi = len, j = g_array_index (js, guint, t);

      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;

          if (g_array_index (js, guint, tails[mid]) < j)
            lo = mid + 1;
          else
            hi = mid;
        }
      prev[t] = lo > 0 ? tails[lo - 1] : G_MAXUINT;
      tails[lo] = t;
      len = MAX (len, lo + 1);
    }
  g_array_set_size (anchors, 2 * len);
  for (at = len > 0 ? tails[len - 1] : G_MAXUINT; len > 0; at = prev[at])
    {
      len--;
      g_array_index (anchors, guint, 2 * len) = g_array_index (is, guint, at);
      g_array_index (anchors, guint, 2 * len + 1) = g_array_index (js, guint, at);
    }
}

/* Past MAX_EDITS: lines unique to each side anchor the alignment, and each stretch between two anchors is
 * diffed again (Myers' again where it is small; all changed where nothing anchors it). */
static guint
anchored (const char *const *a, guint n, const char *const *b, guint m, guint8 *a_changed, guint8 *b_changed, guint *a_to_b)
{
  g_autoptr (GArray) anchors = g_array_new (FALSE, FALSE, sizeof (guint));
  guint i0 = 0, j0 = 0, edits = 0;

  unique_anchors (a, n, b, m, anchors);
  if (anchors->len == 0)
    {
      memset (a_changed, 1, n);
      memset (b_changed, 1, m);
      return n + m;
    }
  for (guint t = 0; t <= anchors->len / 2; t++)
    {
      guint             i1 = t < anchors->len / 2 ? g_array_index (anchors, guint, 2 * t) : n;
      guint             j1 = t < anchors->len / 2 ? g_array_index (anchors, guint, 2 * t + 1) : m;
      g_autofree guint *map = g_new (guint, i1 - i0 + 1);

      edits += wb_line_diff (a + i0, i1 - i0, b + j0, j1 - j0, a_changed + i0, b_changed + j0, map);
      for (guint i = i0; i < i1; i++)
        a_to_b[i] = map[i - i0] == G_MAXUINT ? G_MAXUINT : j0 + map[i - i0];
      if (t < anchors->len / 2)
        a_to_b[i1] = j1;
      i0 = i1 + 1;
      j0 = j1 + 1;
    }
  return edits;
}

guint
wb_line_diff (const char *const *a, guint n_a, const char *const *b, guint n_b, guint8 *a_changed, guint8 *b_changed, guint *a_to_b)
{
  guint             pre = 0, suf = 0, n, m, edits;
  g_autofree guint *own = a_to_b == NULL ? g_new (guint, n_a + 1) : NULL;

  if (a_to_b == NULL)
    a_to_b = own;
  memset (a_changed, 0, n_a);
  memset (b_changed, 0, n_b);
  for (guint i = 0; i < n_a; i++)
    a_to_b[i] = G_MAXUINT;
  while (pre < n_a && pre < n_b && strcmp (a[pre], b[pre]) == 0)
    {
      a_to_b[pre] = pre;
      pre++;
    }
  while (suf < n_a - pre && suf < n_b - pre && strcmp (a[n_a - 1 - suf], b[n_b - 1 - suf]) == 0)
    {
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
  edits = myers (a + pre, n, b + pre, m, a_changed + pre, b_changed + pre, a_to_b + pre);
  if (edits == G_MAXUINT)
    edits = anchored (a + pre, n, b + pre, m, a_changed + pre, b_changed + pre, a_to_b + pre);
  /* the inner walks number @b from their start */
  for (guint i = pre; i < pre + n; i++)
    if (a_to_b[i] != G_MAXUINT)
      a_to_b[i] += pre;
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
