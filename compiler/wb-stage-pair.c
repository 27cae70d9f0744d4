/* wb-stage-pair.c — two stages side by side: the pairing of their bound symbols, renaming, aligned rows
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK-free (the model of WbStageView, tested in suite compiler): bound symbols are paired by provenance
 * or by structure within one sub-program (forward with forward), the right side's names are renamed to
 * the left's, the lines diffed (wb-line-diff.c) and laid out as aligned rows; inside a row's two lines
 * the changed tokens are spans. */
#include "config.h"

#include "wb-stage-pair.h"

#include <string.h>

#include "wb-pipeline-private.h"

/* -- structural keys ----------------------------------------------------------------------------- */

static void
append_value_shape (GString *s, const WbValue *value, GHashTable *types)
{
  const WbType *type;

  if (value == NULL)
    {
      g_string_append (s, "None");
      return;
    }
  switch (value->kind)
    {
    case WB_VALUE_NAME:
      if (types != NULL && (type = g_hash_table_lookup (types, value->text)) != NULL)
        {
          g_string_append_c (s, '<');
          wb_type_append (type, s);
          g_string_append_c (s, '>');
        }
      else
        g_string_append (s, "<?>");
      break;
    case WB_VALUE_TUPLE:
    case WB_VALUE_LIST:
      g_string_append_c (s, value->kind == WB_VALUE_LIST ? '[' : '(');
      for (guint i = 0; i < value->n_items; i++)
        {
          append_value_shape (s, value->items[i], types);
          g_string_append_c (s, ',');
        }
      g_string_append_c (s, value->kind == WB_VALUE_LIST ? ']' : ')');
      break;
    default:
      wb_value_append (value, s);
      break;
    }
}

static void
add_output_type (const WbValue *name, gpointer data)
{
  GString *s = data;

  g_string_append_c (s, ' ');
  g_string_append (s, name->text[0] == '_' ? "_" : "o");
}

char *
wb_bsym_structural_key (const WbBsym *bsym, GHashTable *types)
{
  GString        *s = g_string_new (NULL);
  const WbSymbol *symbol;

  g_return_val_if_fail (bsym != NULL, NULL);

  switch (bsym->kind)
    {
    case WB_BSYM_CALL:
      symbol = bsym->symbol;
      if (symbol != NULL && wb_symbol_get_like (symbol) != NULL)
        symbol = wb_symbol_get_like (symbol);
      g_string_append (s, symbol != NULL ? wb_symbol_get_name (symbol) : bsym->name);
      g_string_append_c (s, '(');
      for (guint i = 0; i < bsym->n_args; i++)
        {
          append_value_shape (s, bsym->args[i], types);
          g_string_append_c (s, ',');
        }
      for (guint i = 0; i < bsym->n_kwargs; i++)
        {
          g_string_append_printf (s, "%s=", bsym->kwargs[i].name);
          append_value_shape (s, bsym->kwargs[i].value, types);
          g_string_append_c (s, ',');
        }
      g_string_append_c (s, ')');
      if (bsym->has_type)
        {
          g_string_append (s, "->");
          wb_type_append (&bsym->type, s);
        }
      wb_bsym_foreach_output (bsym, add_output_type, s);
      break;
    case WB_BSYM_RETURN:
      g_string_append (s, "return ");
      append_value_shape (s, bsym->value, types);
      break;
    case WB_BSYM_DEL:
      g_string_append_printf (s, "del %u", bsym->n_args);
      break;
    default:
      {
        g_autofree char *text = NULL;
        GString         *line = g_string_new (NULL);

        wb_bsym_print (bsym, 0, line);
        text = g_string_free (line, FALSE);
        g_string_append_printf (s, "%d:%s", bsym->kind, text);
      }
      break;
    }
  return g_string_free (s, FALSE);
}

/* -- the pair ------------------------------------------------------------------------------------ */

typedef struct
{
  WbTrace    *trace;
  char       *text;
  char      **lines;
  guint       n_lines;
  guint8     *mark;    /* WbLineMark per 0-based line */
  GArray     *starts;  /* (element-type guint) 1-based first line of each top-level bsym, in order */
  GPtrArray  *bsyms;   /* parallel to starts */
  GHashTable *line_of; /* bsym -> line */
  GHashTable *other;   /* bsym -> GPtrArray of counterparts */
  guint      *row_of;  /* the aligned row of each 0-based line */
} Side;

struct _WbStagePair
{
  Side        side[2];
  guint       n_changes, n_renamed;
  gboolean    exact;
  GArray     *rows;   /* (element-type guint) pairs of 0-based lines (left, right); G_MAXUINT for a filler */
  GHashTable *rename; /* (nullable) right name -> left name */
};

static void
side_init (Side *side, WbTrace *trace)
{
  side->trace = trace ? wb_trace_ref (trace) : NULL;
  side->text = trace ? wb_trace_to_string (trace) : g_strdup ("");
  side->lines = g_strsplit (side->text, "\n", -1);
  side->n_lines = g_strv_length (side->lines);
  if (side->n_lines > 0 && side->lines[side->n_lines - 1][0] == '\0')
    side->n_lines--; /* the text ends in a newline */
  side->mark = g_new0 (guint8, side->n_lines + 1);
  side->row_of = g_new0 (guint, side->n_lines + 1);
  side->starts = g_array_new (FALSE, FALSE, sizeof (guint));
  side->bsyms = g_ptr_array_new ();
  side->line_of = g_hash_table_new (NULL, NULL);
  side->other = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  if (trace == NULL)
    return;
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      guint         line = wb_trace_get_bsym_line (trace, b);

      if (line == 0)
        continue;
      if (side->starts->len > 0 && line <= g_array_index (side->starts, guint, side->starts->len - 1))
        continue;
      g_array_append_val (side->starts, line);
      g_ptr_array_add (side->bsyms, (gpointer) b);
      g_hash_table_insert (side->line_of, (gpointer) b, GUINT_TO_POINTER (line));
    }
}

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->trace, wb_trace_unref);
  g_free (side->text);
  g_strfreev (side->lines);
  g_free (side->mark);
  g_free (side->row_of);
  g_array_unref (side->starts);
  g_ptr_array_unref (side->bsyms);
  g_hash_table_unref (side->line_of);
  g_hash_table_unref (side->other);
}

static void
link_bsyms (WbStagePair *pair, const WbBsym *l, const WbBsym *r)
{
  GPtrArray *a;

  if ((a = g_hash_table_lookup (pair->side[0].other, l)) == NULL)
    g_hash_table_insert (pair->side[0].other, (gpointer) l, (a = g_ptr_array_new ()));
  g_ptr_array_add (a, (gpointer) r);
  if ((a = g_hash_table_lookup (pair->side[1].other, r)) == NULL)
    g_hash_table_insert (pair->side[1].other, (gpointer) r, (a = g_ptr_array_new ()));
  g_ptr_array_add (a, (gpointer) l);
}

/* name -> type of every annotated single output of @trace */
static GHashTable *
collect_types (const WbTrace *trace)
{
  GHashTable *types = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];

      if (b->has_type && b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
        g_hash_table_insert (types, (gpointer) b->outputs->text, (gpointer) &b->type);
      else if (b->kind == WB_BSYM_ANNOTATION && b->has_type && b->name != NULL)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
    }
  for (guint i = 0; i < trace->n_params; i++)
    (void) 0;
  return types;
}

/* The top-level bound symbols of @trace that belong to a backward sub-program: all of a backward_fn,
 * the backward part of a joint trace (what its forward outputs do not need), none otherwise. (transfer
 * full) a set, or NULL for "all" (a backward_fn). */
static GHashTable *
backward_part (const WbTrace *trace)
{
  if (g_strcmp0 (trace->function_name, "backward_fn") == 0)
    return NULL;
  return _wb_trace_find_backward (trace);
}

static char *
part_key (const WbBsym *bsym, GHashTable *types, GHashTable *backward)
{
  g_autofree char *key = wb_bsym_structural_key (bsym, types);
  gboolean         back = backward == NULL || g_hash_table_contains (backward, bsym);

  return g_strconcat (back ? "B|" : "F|", key, NULL);
}

static void
pair_structurally (WbStagePair *pair)
{
  Side *l = &pair->side[0], *r = &pair->side[1];
  g_autoptr (GHashTable) lt = collect_types (l->trace);
  g_autoptr (GHashTable) rt = collect_types (r->trace);
  g_autoptr (GPtrArray) lkeys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) rkeys = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint8 *lc = g_new0 (guint8, l->bsyms->len + 1);
  g_autofree guint8 *rc = g_new0 (guint8, r->bsyms->len + 1);
  g_autofree guint  *map = g_new (guint, l->bsyms->len + 1);
  g_autoptr (GHashTable) unmatched = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_queue_free);

  g_autoptr (GHashTable) lback = backward_part (l->trace);
  g_autoptr (GHashTable) rback = backward_part (r->trace);

  /* a key names its sub-program: a forward `add` never pairs with a backward `add` */
  for (guint i = 0; i < l->bsyms->len; i++)
    g_ptr_array_add (lkeys, part_key (l->bsyms->pdata[i], lt, lback));
  for (guint j = 0; j < r->bsyms->len; j++)
    g_ptr_array_add (rkeys, part_key (r->bsyms->pdata[j], rt, rback));

  /* order-preserving matches first (an LCS of the keys), then equal keys anywhere (moved lines) */
  wb_line_diff ((const char *const *) lkeys->pdata, lkeys->len, (const char *const *) rkeys->pdata, rkeys->len, lc, rc, map);
  for (guint i = 0; i < l->bsyms->len; i++)
    if (map[i] != G_MAXUINT)
      link_bsyms (pair, l->bsyms->pdata[i], r->bsyms->pdata[map[i]]);
  for (guint j = 0; j < r->bsyms->len; j++)
    if (rc[j])
      {
        GQueue *q = g_hash_table_lookup (unmatched, rkeys->pdata[j]);

        if (q == NULL)
          g_hash_table_insert (unmatched, rkeys->pdata[j], (q = g_queue_new ()));
        g_queue_push_tail (q, r->bsyms->pdata[j]);
      }
  for (guint i = 0; i < l->bsyms->len; i++)
    if (lc[i])
      {
        GQueue *q = g_hash_table_lookup (unmatched, lkeys->pdata[i]);

        if (q != NULL && !g_queue_is_empty (q))
          link_bsyms (pair, l->bsyms->pdata[i], g_queue_pop_head (q));
      }
}

static void
pair_by_provenance (WbStagePair *pair, const WbStage *stage)
{
  Side *r = &pair->side[1];

  for (guint j = 0; j < r->bsyms->len; j++)
    {
      GPtrArray *sources = wb_stage_get_sources (stage, r->bsyms->pdata[j]);

      for (guint k = 0; sources != NULL && k < sources->len; k++)
        if (g_hash_table_contains (pair->side[0].line_of, sources->pdata[k]))
          link_bsyms (pair, sources->pdata[k], r->bsyms->pdata[j]);
    }
}

/* -- renaming and alignment ---------------------------------------------------------------------- */

/* Maps the names @r binds to those @l binds, output by output, and recursively through their printed
 * subsymbols when both have as many. */
static void
map_outputs (GHashTable *rename, const WbBsym *l, const WbBsym *r)
{
  g_autoptr (GPtrArray) ln = g_ptr_array_new ();
  g_autoptr (GPtrArray) rn = g_ptr_array_new ();

  wb_bsym_get_output_names (l, ln);
  wb_bsym_get_output_names (r, rn);
  if (ln->len == rn->len)
    for (guint i = 0; i < ln->len; i++)
      if (strcmp (ln->pdata[i], rn->pdata[i]) != 0)
        g_hash_table_insert (rename, rn->pdata[i], ln->pdata[i]);
  if (l->n_subsymbols == r->n_subsymbols)
    for (guint i = 0; i < l->n_subsymbols; i++)
      map_outputs (rename, l->subsymbols[i], r->subsymbols[i]);
}

/* right name -> left name: parameters by position, then the outputs of bound symbols paired one to one. */
static GHashTable *
rename_map (const WbStagePair *pair)
{
  const WbTrace *lt = pair->side[0].trace, *rt = pair->side[1].trace;
  GHashTable    *rename = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer       key, value;

  if (lt->n_params == rt->n_params)
    for (guint i = 0; i < lt->n_params; i++)
      if (lt->params[i]->kind == WB_VALUE_NAME && rt->params[i]->kind == WB_VALUE_NAME && strcmp (lt->params[i]->text, rt->params[i]->text) != 0)
        g_hash_table_insert (rename, (gpointer) rt->params[i]->text, (gpointer) lt->params[i]->text);
  g_hash_table_iter_init (&it, pair->side[1].other);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      GPtrArray *others = value;
      if (others->len == 1)
        map_outputs (rename, others->pdata[0], key);
    }
  return rename;
}

/* Diffs the two texts with the right side's names renamed to the left's: matched lines that differ as
 * printed are renamed, unmatched ones changed; then lays them out as rows, unmatched runs side by side. */
static void
diff_and_align (WbStagePair *pair, GHashTable *rename)
{
  Side *l = &pair->side[0], *r = &pair->side[1];
  g_auto (GStrv) renamed = g_new0 (char *, r->n_lines + 1);
  g_autofree guint *a_to_b = g_new (guint, l->n_lines + 1);
  g_autofree guint *b_to_a = g_new (guint, r->n_lines + 1);
  g_autoptr (GString) word = g_string_new (NULL);
  guint i = 0, j = 0;

  for (guint k = 0; k < r->n_lines; k++)
    renamed[k] = rename != NULL && g_hash_table_size (rename) > 0 ? wb_line_rename (r->lines[k], rename, word) : g_strdup (r->lines[k]);
  pair->n_changes = wb_line_diff ((const char *const *) l->lines, l->n_lines, (const char *const *) renamed, r->n_lines, l->mark, r->mark, a_to_b);
  for (guint k = 0; k < r->n_lines; k++)
    b_to_a[k] = G_MAXUINT;
  for (guint k = 0; k < l->n_lines; k++)
    if (a_to_b[k] != G_MAXUINT)
      {
        b_to_a[a_to_b[k]] = k;
        if (strcmp (l->lines[k], r->lines[a_to_b[k]]) != 0)
          {
            l->mark[k] = r->mark[a_to_b[k]] = WB_LINE_RENAMED;
            pair->n_renamed++;
          }
      }
  while (i < l->n_lines || j < r->n_lines)
    {
      guint li = i, rj = j, rows;
      if (i < l->n_lines && j < r->n_lines && a_to_b[i] == j)
        {
          l->row_of[i] = r->row_of[j] = pair->rows->len / 2;
          g_array_append_vals (pair->rows, (guint[]){ i++, j++ }, 2);
          continue;
        }
      while (li < l->n_lines && a_to_b[li] == G_MAXUINT)
        li++;
      while (rj < r->n_lines && b_to_a[rj] == G_MAXUINT)
        rj++;
      rows = MAX (li - i, rj - j);
      for (guint k = 0; k < rows; k++)
        {
          if (i + k < li)
            l->row_of[i + k] = pair->rows->len / 2;
          if (j + k < rj)
            r->row_of[j + k] = pair->rows->len / 2;
          g_array_append_vals (pair->rows, (guint[]){ i + k < li ? i + k : G_MAXUINT, j + k < rj ? j + k : G_MAXUINT }, 2);
        }
      i = li, j = rj;
    }
}

WbStagePair *
wb_stage_pair_new (WbTrace *left, WbTrace *right, const WbStage *stage)
{
  WbStagePair *pair = g_new0 (WbStagePair, 1);

  side_init (&pair->side[0], left);
  side_init (&pair->side[1], right);
  pair->rows = g_array_new (FALSE, FALSE, sizeof (guint));
  if (left != NULL && right != NULL)
    {
      pair->exact = stage != NULL;
      if (stage != NULL)
        pair_by_provenance (pair, stage);
      else
        pair_structurally (pair);
      pair->rename = rename_map (pair);
    }
  diff_and_align (pair, pair->rename);
  return pair;
}

void
wb_stage_pair_free (WbStagePair *pair)
{
  if (pair == NULL)
    return;
  side_clear (&pair->side[0]);
  side_clear (&pair->side[1]);
  g_array_unref (pair->rows);
  g_clear_pointer (&pair->rename, g_hash_table_unref);
  g_free (pair);
}

const char *
wb_stage_pair_get_text (const WbStagePair *pair, gboolean right)
{
  return pair->side[right ? 1 : 0].text;
}

guint
wb_stage_pair_get_n_lines (const WbStagePair *pair, gboolean right)
{
  return pair->side[right ? 1 : 0].n_lines;
}

gboolean
wb_stage_pair_line_changed (const WbStagePair *pair, gboolean right, guint line)
{
  return wb_stage_pair_get_line_mark (pair, right, line) == WB_LINE_CHANGED;
}

WbLineMark
wb_stage_pair_get_line_mark (const WbStagePair *pair, gboolean right, guint line)
{
  const Side *s = &pair->side[right ? 1 : 0];

  return line < s->n_lines ? (WbLineMark) s->mark[line] : WB_LINE_SAME;
}

guint
wb_stage_pair_get_n_renamed (const WbStagePair *pair)
{
  return pair->n_renamed;
}

guint
wb_stage_pair_get_n_rows (const WbStagePair *pair)
{
  return pair->rows->len / 2;
}

void
wb_stage_pair_get_row (const WbStagePair *pair, guint row, guint *left, guint *right)
{
  g_return_if_fail (row < pair->rows->len / 2);
  *left = g_array_index (pair->rows, guint, 2 * row);
  *right = g_array_index (pair->rows, guint, 2 * row + 1);
}

guint
wb_stage_pair_get_n_changes (const WbStagePair *pair)
{
  return pair->n_changes;
}

gboolean
wb_stage_pair_is_exact (const WbStagePair *pair)
{
  return pair->exact;
}

const WbBsym *
wb_stage_pair_get_bsym_at_line (const WbStagePair *pair, gboolean right, guint line)
{
  const Side *s = &pair->side[right ? 1 : 0];
  guint       lo = 0, hi = s->starts->len;

  /* the last start <= line */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (s->starts, guint, mid) <= line)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  /* lines after the function's last statement (nothing) and before the first are headers */
  if (lo == s->starts->len && line > s->n_lines)
    return NULL;
  return s->bsyms->pdata[lo - 1];
}

guint
wb_stage_pair_get_line (const WbStagePair *pair, gboolean right, const WbBsym *bsym)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (pair->side[right ? 1 : 0].line_of, bsym));
}

GPtrArray *
wb_stage_pair_get_counterparts (const WbStagePair *pair, gboolean right, const WbBsym *bsym)
{
  return g_hash_table_lookup (pair->side[right ? 1 : 0].other, bsym);
}

guint
wb_stage_pair_get_row_of_line (const WbStagePair *pair, gboolean right, guint line)
{
  const Side *s = &pair->side[right ? 1 : 0];

  return line < s->n_lines ? s->row_of[line] : G_MAXUINT;
}

guint
wb_stage_pair_get_spans (const WbStagePair *pair, gboolean right, guint line, GArray *spans)
{
  const Side *s = &pair->side[right ? 1 : 0];
  guint       row, other[2];
  WbLineMark  mark;

  g_return_val_if_fail (pair != NULL && spans != NULL, 0);
  if (line >= s->n_lines || (mark = (WbLineMark) s->mark[line]) == WB_LINE_SAME)
    return 0;
  row = s->row_of[line];
  wb_stage_pair_get_row (pair, row, &other[0], &other[1]);
  if (other[0] == G_MAXUINT || other[1] == G_MAXUINT || (WbLineMark) pair->side[right ? 0 : 1].mark[other[right ? 0 : 1]] != mark)
    return 0; /* a line beside a filler, or beside a line of another kind: the whole line */
  /* a renamed pair: the names that differ as printed; a changed pair: what differs after renaming */
  return wb_line_diff_spans (pair->side[0].lines[other[0]], pair->side[1].lines[other[1]], mark == WB_LINE_CHANGED ? pair->rename : NULL,
                             right ? NULL : spans, right ? spans : NULL);
}

gboolean
wb_stage_pair_can_pair (const WbTrace *a, const WbTrace *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  if (g_strcmp0 (a->function_name, b->function_name) != 0 || a->n_params != b->n_params)
    return FALSE;
  for (guint i = 0; i < a->n_params; i++)
    {
      const WbValue *p = a->params[i], *q = b->params[i];

      if (p->kind != q->kind || (p->text != NULL && g_strcmp0 (p->text, q->text) != 0))
        return FALSE;
    }
  return TRUE;
}
