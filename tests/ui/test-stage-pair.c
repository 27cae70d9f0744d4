/* test-stage-pair.c — the stage diff on real Thunder stages: lines that differ only by proxy names are
 * "renamed", not changed; the aligned rows hold every line of each side once, in order, with fillers
 * where a side has none (issue 45, item 3). No display is needed: WbStagePair is the model of the view.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-test-common.h"
#include "wb-views.h"

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
  g_test_add_func ("/views/stage-pair/thunder-stages", test_thunder_stages);
  g_test_add_func ("/views/stage-pair/one-side", test_one_side);
  return g_test_run ();
}
