/* test-stage-pair.c — the stage diff on real Thunder stages: lines that differ only by proxy names are
 * "renamed", not changed; the aligned rows hold every line of each side once, in order, with fillers
 * where a side has none; changes inside a line are token spans; pairs stay within one sub-program (issue
 * 45, item 3). No display is needed: WbStagePair (compiler/) is the model of the view.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

/* Every line of each side once, in order; a row shows at least one line; a filler's row shows a line
 * the other side lacks (changed), and a row with both lines is matched or both are changed. */
static void
assert_rows (const WbStagePair *pair)
{
  guint next[2] = { 0, 0 };

  for (guint row = 0; row < wb_stage_pair_get_n_rows (pair); row++)
    {
      guint line[2];

      wb_stage_pair_get_row (pair, row, &line[0], &line[1]);
      g_assert_true (line[0] != G_MAXUINT || line[1] != G_MAXUINT);
      for (int side = 0; side < 2; side++)
        if (line[side] != G_MAXUINT)
          {
            g_assert_cmpuint (line[side], ==, next[side]);
            next[side]++;
            if (line[!side] == G_MAXUINT)
              g_assert_cmpint (wb_stage_pair_get_line_mark (pair, side, line[side]), ==, WB_LINE_CHANGED);
          }
      if (line[0] != G_MAXUINT && line[1] != G_MAXUINT)
        g_assert_true ((wb_stage_pair_get_line_mark (pair, FALSE, line[0]) == WB_LINE_CHANGED) ==
                       (wb_stage_pair_get_line_mark (pair, TRUE, line[1]) == WB_LINE_CHANGED));
    }
  g_assert_cmpuint (next[0], ==, wb_stage_pair_get_n_lines (pair, FALSE));
  g_assert_cmpuint (next[1], ==, wb_stage_pair_get_n_lines (pair, TRUE));
}

/* The spans of a string (start, end pairs) as "text|text|..." */
static char *
spans_text (const char *line, GArray *spans)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k + 1 < spans->len; k += 2)
    g_string_append_printf (s, "%s%.*s", k ? "|" : "", (int) (g_array_index (spans, guint, k + 1) - g_array_index (spans, guint, k)),
                            line + g_array_index (spans, guint, k));
  return g_string_free (s, FALSE);
}

/* On every renamed row, the spans are names (they start with a letter or '_') that differ between the
 * sides, and the rest of the two lines is equal. */
static void
assert_renamed_spans (const WbStagePair *pair, char **a, char **b)
{
  guint checked = 0;

  for (guint row = 0; row < wb_stage_pair_get_n_rows (pair); row++)
    {
      guint l, r;
      g_autoptr (GArray) ls = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (GArray) rs = g_array_new (FALSE, FALSE, sizeof (guint));
      GString *lrest = g_string_new (NULL), *rrest = g_string_new (NULL);
      guint    at = 0;

      wb_stage_pair_get_row (pair, row, &l, &r);
      if (l == G_MAXUINT || wb_stage_pair_get_line_mark (pair, FALSE, l) != WB_LINE_RENAMED)
        {
          g_string_free (lrest, TRUE), g_string_free (rrest, TRUE);
          continue;
        }
      g_assert_cmpuint (wb_stage_pair_get_row_of_line (pair, FALSE, l), ==, row);
      g_assert_cmpuint (wb_stage_pair_get_row_of_line (pair, TRUE, r), ==, row);
      g_assert_cmpuint (wb_stage_pair_get_spans (pair, FALSE, l, ls), >, 0);
      g_assert_cmpuint (wb_stage_pair_get_spans (pair, TRUE, r, rs), >, 0);
      for (guint k = 0; k + 1 < ls->len; k += 2)
        {
          char c = a[l][g_array_index (ls, guint, k)];

          g_assert_true (g_ascii_isalpha (c) || c == '_');
          g_string_append_len (lrest, a[l] + at, g_array_index (ls, guint, k) - at);
          at = g_array_index (ls, guint, k + 1);
        }
      g_string_append (lrest, a[l] + at);
      at = 0;
      for (guint k = 0; k + 1 < rs->len; k += 2)
        {
          g_string_append_len (rrest, b[r] + at, g_array_index (rs, guint, k) - at);
          at = g_array_index (rs, guint, k + 1);
        }
      g_string_append (rrest, b[r] + at);
      g_assert_cmpstr (lrest->str, ==, rrest->str);
      if (checked++ == 0)
        {
          g_autofree char *lt = spans_text (a[l], ls);
          g_autofree char *rt = spans_text (b[r], rs);

          g_test_message ("renamed: %s -> %s in \"%s\"", lt, rt, b[r]);
        }
      g_string_free (lrest, TRUE), g_string_free (rrest, TRUE);
    }
  g_assert_cmpuint (checked, >, 0);
}

/* Thunder's forward stages of llama_layer, each against the one before: the layout holds, and where
 * Thunder renumbered proxies the lines are renamed and fewer lines are changed than a plain diff says. */
static void
test_thunder_stages (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *dir = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbTrace) prev = NULL;
  guint renamed = 0, pairs = 0;

  if (traces == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR");
      return;
    }
  dir = g_build_filename (traces, "llama_layer", NULL);
  set = wb_trace_set_load (dir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autoptr (WbStagePair) pair = NULL;

      if (e->kind != WB_TRACE_KIND_FORWARD || (e->subset != NULL && e->subset[0] != '\0'))
        continue;
      if (prev != NULL)
        {
          pair = wb_stage_pair_new (prev, e->trace, NULL);
          assert_rows (pair);
          pairs++;
          if (wb_stage_pair_get_n_renamed (pair) > 0)
            {
              g_auto (GStrv) a = g_strsplit (wb_stage_pair_get_text (pair, FALSE), "\n", -1);
              g_auto (GStrv) b = g_strsplit (wb_stage_pair_get_text (pair, TRUE), "\n", -1);
              g_autofree guint8 *ac = g_new0 (guint8, g_strv_length (a) + 1);
              g_autofree guint8 *bc = g_new0 (guint8, g_strv_length (b) + 1);
              guint              plain;

              renamed++;
              /* a renamed pair of lines differs as printed */
              for (guint row = 0; row < wb_stage_pair_get_n_rows (pair); row++)
                {
                  guint l, r;
                  wb_stage_pair_get_row (pair, row, &l, &r);
                  if (l != G_MAXUINT && wb_stage_pair_get_line_mark (pair, FALSE, l) == WB_LINE_RENAMED)
                    {
                      g_assert_cmpuint (r, !=, G_MAXUINT);
                      g_assert_cmpstr (a[l], !=, b[r]);
                      break;
                    }
                }
              assert_renamed_spans (pair, a, b);
              /* the plain line diff of the same texts counts every renamed line as changed */
              plain = wb_line_diff ((const char *const *) a, g_strv_length (a), (const char *const *) b, g_strv_length (b), ac, bc, NULL);
              g_assert_cmpuint (wb_stage_pair_get_n_changes (pair), <, plain);
              g_test_message ("forward %d: %u changed lines, %u renamed pairs (a plain diff: %u changed)", e->index,
                              wb_stage_pair_get_n_changes (pair), wb_stage_pair_get_n_renamed (pair), plain);
            }
        }
      g_clear_pointer (&prev, wb_trace_unref);
      prev = wb_trace_ref (e->trace);
    }
  g_assert_cmpuint (pairs, >=, 3);
  g_assert_cmpuint (renamed, >=, 1);
}

/* Inside a line: tokens, with and without the renaming. */
static void
test_spans (void)
{
  g_autoptr (GHashTable) rename = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (guint));
  const char      *l = "  t2 = prims.add(t0, t1)  # t2: \"cpu f32[2]\"";
  const char      *r = "  t361 = prims.add(t0, t1)  # t361: \"cpu f32[2]\"";
  g_autofree char *lt = NULL;
  g_autofree char *rt = NULL;

  g_assert_cmpuint (wb_line_diff_spans (l, r, NULL, a, b), ==, 4);
  lt = spans_text (l, a);
  rt = spans_text (r, b);
  g_assert_cmpstr (lt, ==, "t2|t2");
  g_assert_cmpstr (rt, ==, "t361|t361");
  g_hash_table_insert (rename, "t361", "t2");
  g_array_set_size (a, 0), g_array_set_size (b, 0);
  g_assert_cmpuint (wb_line_diff_spans (l, r, rename, a, b), ==, 0);
  g_assert_cmpuint (wb_line_diff_spans (l, "  t361 = prims.mul(t0, t1)  # t361: \"cpu f32[2]\"", rename, a, b), ==, 2);
  g_clear_pointer (&lt, g_free);
  g_clear_pointer (&rt, g_free);
  lt = spans_text (l, a);
  rt = spans_text ("  t361 = prims.mul(t0, t1)  # t361: \"cpu f32[2]\"", b);
  g_assert_cmpstr (lt, ==, "add");
  g_assert_cmpstr (rt, ==, "mul");
}

#define JOINT                                                                                    \
  "import torch\n\ndef computation(x, y):\n  # x: \"cpu f32[2]\"\n  # y: \"cpu f32[2]\"\n"       \
  "  t2 = prims.add(x, y)  # t2: \"cpu f32[2]\"\n  t0 = prims.add(x, y)  # t0: \"cpu f32[2]\"\n" \
  "  t1 = prims.mul(t0, t0)  # t1: \"cpu f32[2]\"\n  return {'output': t2, 'flat_args': [x, y], 'fw_flat_out': t1}\n"
#define FORWARD                                                                            \
  "import torch\n\ndef computation(x, y):\n  # x: \"cpu f32[2]\"\n  # y: \"cpu f32[2]\"\n" \
  "  t7 = prims.add(x, y)  # t7: \"cpu f32[2]\"\n  t8 = prims.mul(t7, t7)  # t8: \"cpu f32[2]\"\n  return t8\n"

/* A joint trace whose backward `add` comes first beside a forward: the forward's `add` pairs with the
 * joint's forward `add` (t0), never with the backward one (t2), though their structure is the same. */
static void
test_subprograms (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) joint = wb_trace_parse (JOINT, -1, "joint.py", &error);
  g_autoptr (WbTrace) forward = NULL;
  g_autoptr (WbStagePair) pair = NULL;
  GPtrArray *others;

  g_assert_no_error (error);
  forward = wb_trace_parse (FORWARD, -1, "forward.py", &error);
  g_assert_no_error (error);
  pair = wb_stage_pair_new (joint, forward, NULL);
  others = wb_stage_pair_get_counterparts (pair, TRUE, forward->body[2]);
  g_assert_nonnull (others);
  g_assert_cmpuint (others->len, ==, 1);
  g_assert_cmpstr (((const WbBsym *) others->pdata[0])->outputs->text, ==, "t0");
  g_assert_null (wb_stage_pair_get_counterparts (pair, FALSE, joint->body[2]));
}

/* Thunder's stage files of one case interleave sub-programs: only files of the same one are paired. */
static void
test_can_pair (void)
{
  const char      *traces = wb_test_traces_dir ();
  g_autofree char *dir = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  WbTrace *st[27] = { NULL };

  if (traces == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR");
      return;
    }
  dir = g_build_filename (traces, "llama_layer", NULL);
  set = wb_trace_set_load (dir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      const char         *base = e->path ? strrchr (e->path, '/') : NULL;

      if (e->kind == WB_TRACE_KIND_STAGE && (e->subset == NULL || e->subset[0] == '\0') && base != NULL && e->index <= 26)
        st[e->index] = e->trace;
    }
  for (int i = 0; i <= 26; i++)
    g_assert_nonnull (st[i]);
  g_assert_true (wb_stage_pair_can_pair (st[6], st[7]));    /* one torch.compile subgraph, two stages */
  g_assert_false (wb_stage_pair_can_pair (st[7], st[8]));   /* two subgraphs */
  g_assert_false (wb_stage_pair_can_pair (st[2], st[3]));   /* prologue, computation */
  g_assert_false (wb_stage_pair_can_pair (st[25], st[26])); /* split forward, split backward */
  g_assert_true (wb_stage_pair_can_pair (st[5], st[22]));   /* the computation before and after */
}

/* The zoo's 32-layer Llama: every stage of the graph module holding its largest stage file, each against
 * the nearest earlier stage of its sub-program (as the app pairs them); the largest is timed. */
static void
test_large (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *zoo = build ? g_build_filename (build, "tests", "zoo", "zoo", "llama_32layer", NULL) : NULL;
  g_autoptr (GDir) d = NULL;
  g_autofree char *best = NULL;
  goffset          best_size = 0;
  const char      *name;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  double total_ms = 0, worst_ms = 0;
  guint  pairs = 0, worst_lines = 0;

  if (zoo == NULL || (d = g_dir_open (zoo, 0, NULL)) == NULL)
    {
      g_test_skip ("the zoo is not unpacked (tests/zoo)");
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *stages = g_build_filename (zoo, name, "stages", NULL);
      g_autoptr (GDir) sd = g_dir_open (stages, 0, NULL);
      const char *f;

      while (sd != NULL && (f = g_dir_read_name (sd)) != NULL)
        {
          g_autofree char *path = g_build_filename (stages, f, NULL);
          GStatBuf         st;

          if (g_stat (path, &st) == 0 && st.st_size > best_size)
            {
              best_size = st.st_size;
              g_free (best);
              best = g_build_filename (zoo, name, NULL);
            }
        }
    }
  g_assert_nonnull (best);
  set = wb_trace_set_load (best, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

      for (guint k = i; k > 0; k--)
        {
          const WbTraceEntry *p = wb_trace_set_get_entry (set, k - 1);

          if (g_strcmp0 (p->subset, e->subset) == 0 && p->kind == e->kind && wb_stage_pair_can_pair (p->trace, e->trace))
            {
              gint64 t0 = g_get_monotonic_time ();
              g_autoptr (WbStagePair) pair = wb_stage_pair_new (p->trace, e->trace, NULL);
              double ms = (g_get_monotonic_time () - t0) / 1e3;

              assert_rows (pair);
              pairs++;
              total_ms += ms;
              if (ms > worst_ms)
                worst_ms = ms, worst_lines = wb_stage_pair_get_n_lines (pair, FALSE) + wb_stage_pair_get_n_lines (pair, TRUE);
              break;
            }
        }
    }
  g_test_message ("%s (largest stage file %" G_GOFFSET_FORMAT " bytes): %u pairs aligned in %.0f ms, the slowest (%u lines) in %.0f ms", best,
                  best_size, pairs, total_ms, worst_lines, worst_ms);
  g_assert_cmpuint (pairs, >, 5);
  g_assert_cmpfloat (worst_ms, <, 5000);
}

/* Past 4096 edits the anchored diff takes over: 30,000 lines with every third one different, aligned in
 * bounded time, every pair equal and in order, every other line changed. */
static void
test_many_edits (void)
{
  const guint n = 30000;
  g_autoptr (GPtrArray) a = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) b = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint8 *ac = g_new0 (guint8, n);
  g_autofree guint8 *bc = g_new0 (guint8, n);
  g_autofree guint  *map = g_new (guint, n);
  guint              edits, matched = 0, last = 0;
  gint64             t0;

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (a, g_strdup_printf ("  t%u = prims.add(t%u, t%u)", i, i / 2, i / 3));
      g_ptr_array_add (b, i % 3 == 1 ? g_strdup_printf ("  u%u = prims.mul(u%u)", i, i) : g_strdup (a->pdata[i]));
    }
  t0 = g_get_monotonic_time ();
  edits = wb_line_diff ((const char *const *) a->pdata, n, (const char *const *) b->pdata, n, ac, bc, map);
  g_test_message ("%u lines, every third changed: %u edits in %.0f ms", n, edits, (g_get_monotonic_time () - t0) / 1e3);
  g_assert_cmpfloat ((g_get_monotonic_time () - t0) / 1e6, <, 10.0);
  g_assert_cmpuint (edits, ==, 2 * (n / 3));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (ac[i], ==, i % 3 == 1);
      if (map[i] == G_MAXUINT)
        continue;
      g_assert_cmpstr (a->pdata[i], ==, b->pdata[map[i]]);
      g_assert_true (matched == 0 || map[i] > last);
      last = map[i];
      matched++;
    }
  g_assert_cmpuint (matched, ==, n - n / 3);
}

/* One side empty: all rows are the other side's lines, changed, with fillers. */
static void
test_one_side (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) t = wb_trace_parse ("import torch\n\ndef f(x):\n  # x: \"cpu f32[2]\"\n  t0 = prims.neg(x)  # t0: \"cpu f32[2]\"\n  return t0\n", -1,
                                          "one.py", &error);
  g_autoptr (WbStagePair) pair = NULL;

  g_assert_no_error (error);
  pair = wb_stage_pair_new (NULL, t, NULL);
  assert_rows (pair);
  g_assert_cmpuint (wb_stage_pair_get_n_rows (pair), ==, wb_stage_pair_get_n_lines (pair, TRUE));
  g_assert_cmpuint (wb_stage_pair_get_n_renamed (pair), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/stage-pair/thunder-stages", test_thunder_stages);
  g_test_add_func ("/compiler/stage-pair/one-side", test_one_side);
  g_test_add_func ("/compiler/stage-pair/spans", test_spans);
  g_test_add_func ("/compiler/stage-pair/subprograms", test_subprograms);
  g_test_add_func ("/compiler/stage-pair/can-pair", test_can_pair);
  g_test_add_func ("/compiler/stage-pair/large", test_large);
  g_test_add_func ("/compiler/stage-pair/many-edits", test_many_edits);
  return g_test_run ();
}
