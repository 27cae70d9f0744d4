/* wb-stage-view.c — two stage panes side by side: line diff, paired bound symbols, per-line times
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "wb-views.h"

struct _WbStageView
{
  GtkWidget parent_instance;

  WbDocument    *document;
  WbStagePair   *pair;  /* borrowed from @pairs */
  GHashTable    *pairs; /* right entry + 1 -> WbStagePair: the pairs already computed (stepping back and forth) */
  guint          prefetch_id;
  int            left_entry;
  int            right_entry;
  gboolean       updating;
  gboolean       syncing;  /* sync_scroll is moving the other pane */
  gboolean       in_frame; /* between the frame clock's before-paint and after-paint */
  gboolean       disposed;
  guint          sync_tick;   /* the tick callback that moves the other pane (0: none due) */
  gboolean       sync_from;   /* the pane it follows: TRUE the right one */
  GdkFrameClock *clock;       /* (nullable) while realized */
  guint          mirror_tick; /* the tick callback that copies the panes' adjustments to the scrollbars */
  gboolean       mirroring;   /* it is copying them */
  /* per pane [side][0 horizontal, 1 vertical]: what its scrollbars show, and the scrollbars */
  GtkAdjustment *shown[2][2];
  GtkWidget     *bars[2][2];

  /* template children */
  GtkPaned          *paned;
  GtkLabel          *left_title;
  GtkLabel          *right_title;
  GtkScrolledWindow *left_scroll;
  GtkScrolledWindow *right_scroll;
  GtkGrid           *left_grid;
  GtkGrid           *right_grid;
  GtkSourceView     *left;
  GtkSourceView     *right;

  GtkSourceGutterRenderer *times;
  GtkSourceGutterRenderer *numbers[2];

  /* the aligned layout of the pair shown: per side, trace line (0-based) -> buffer line, and buffer
   * line -> trace line (G_MAXUINT on a filler row) */
  GArray *to_buffer[2];
  GArray *to_trace[2];
};

G_DEFINE_FINAL_TYPE (WbStageView, wb_stage_view, GTK_TYPE_WIDGET)

static GtkAdjustment *pane_adjustment (WbStageView *self, int side, int vertical);

/* WbWidthGutter: a text column as wide as its widest possible text. GtkSourceGutterRendererText measures
 * whatever text it holds at that moment (the last line's, often ""), and a size request does not reach
 * the gutter's layout, so the column was as narrow as its last text and the times were drawn over the
 * line numbers: measure @widest instead, plus @extra pixels. Used for the times and the line numbers. */
#define WB_TYPE_WIDTH_GUTTER (wb_width_gutter_get_type ())
G_DECLARE_FINAL_TYPE (WbWidthGutter, wb_width_gutter, WB, WIDTH_GUTTER, GtkSourceGutterRendererText)

struct _WbWidthGutter
{
  GtkSourceGutterRendererText parent_instance;
  const char                 *widest; /* static or translated text */
  int                         extra;
};

G_DEFINE_FINAL_TYPE (WbWidthGutter, wb_width_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER_TEXT)

static void
wb_width_gutter_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  WbWidthGutter *self = WB_WIDTH_GUTTER (widget);

  GTK_WIDGET_CLASS (wb_width_gutter_parent_class)->measure (widget, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int w = 0, h = 0;

      gtk_source_gutter_renderer_text_measure (GTK_SOURCE_GUTTER_RENDERER_TEXT (widget), self->widest, &w, &h);
      *minimum = *natural = MAX (*natural, w + 2 * gtk_source_gutter_renderer_get_xpad (GTK_SOURCE_GUTTER_RENDERER (widget)) + self->extra);
    }
}

static void
wb_width_gutter_class_init (WbWidthGutterClass *klass)
{
  GTK_WIDGET_CLASS (klass)->measure = wb_width_gutter_measure;
}

static void
wb_width_gutter_init (WbWidthGutter *self)
{
  gtk_source_gutter_renderer_set_xpad (GTK_SOURCE_GUTTER_RENDERER (self), 4);
}

/* (transfer floating) a right-aligned, dimmed column measured on @widest plus @extra pixels */
static GtkSourceGutterRenderer *
wb_width_gutter_new (const char *widest, int extra)
{
  WbWidthGutter *self = g_object_new (WB_TYPE_WIDTH_GUTTER, NULL);

  self->widest = widest;
  self->extra = extra;
  gtk_source_gutter_renderer_set_xalign (GTK_SOURCE_GUTTER_RENDERER (self), 1.0);
  gtk_widget_add_css_class (GTK_WIDGET (self), "dim-label");
  return GTK_SOURCE_GUTTER_RENDERER (self);
}

/* 0-based buffer line of 0-based trace line @line, and back (G_MAXUINT: a filler row, or out of range). */
static guint
buffer_line (WbStageView *self, gboolean right, guint line)
{
  GArray *map = self->to_buffer[right ? 1 : 0];
  return map != NULL && line < map->len ? g_array_index (map, guint, line) : line;
}

static guint
trace_line (WbStageView *self, gboolean right, guint line)
{
  GArray *map = self->to_trace[right ? 1 : 0];
  return map != NULL ? (line < map->len ? g_array_index (map, guint, line) : G_MAXUINT) : line;
}

static GtkTextBuffer *
pane_buffer (WbStageView *self, gboolean right)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (right ? self->right : self->left));
}

static WbTrace *
pane_trace (WbStageView *self, gboolean right)
{
  int entry = right ? self->right_entry : self->left_entry;

  if (entry < 0 || self->document == NULL)
    return NULL;
  return wb_trace_set_get_entry (wb_document_get_trace_set (self->document), entry)->trace;
}

/* "forward 4 · Grad transform pass", "workbench 5 · Fusion (computed)" */
static char *
entry_title (WbDocument *document, int entry)
{
  const WbTraceEntry *e;
  const char         *what;

  if (entry < 0)
    return g_strdup (_ ("No earlier stage"));
  e = wb_trace_set_get_entry (wb_document_get_trace_set (document), entry);
  what = e->label ? e->label : e->trace->provenance ? e->trace->provenance
                                                    : "";
  if (wb_document_get_stage (document, entry) != NULL)
    /* TRANSLATORS: a stage the workbench computed: its number and pass */
    return g_strdup_printf (_ ("Workbench stage %d · %s"), e->index, what);
  return g_strdup_printf ("%s%s%s %d · %s", e->subset && e->subset[0] ? e->subset : "", e->subset && e->subset[0] ? "/" : "",
                          wb_trace_kind_to_string (e->kind), e->index, what);
}

/* @tag over rows [@first, @last] (whole lines, their newlines included): a run of rows one tag covers is one
 * range, so a stage that changes a whole block costs one tag toggle, not one a row */
static void
apply_line_tag (GtkTextBuffer *buffer, const char *tag, guint first, guint last)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_iter_at_line (buffer, &start, (int) first);
  gtk_text_buffer_get_iter_at_line (buffer, &end, (int) last);
  gtk_text_iter_forward_line (&end);
  gtk_text_buffer_apply_tag_by_name (buffer, tag, &start, &end);
}

/* Highlights inside 0-based trace @line, shown on buffer @row, what differs from the line beside it. */
static void
apply_span_tags (WbStageView *self, gboolean right, guint line, guint row, const char *tag)
{
  GtkTextBuffer *buffer = pane_buffer (self, right);
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (guint));

  GtkTextIter row_start;

  wb_stage_pair_get_spans (self->pair, right, line, spans);
  if (spans->len < 2)
    return;
  /* one walk down the buffer's tree for the row, then moves within it */
  gtk_text_buffer_get_iter_at_line (buffer, &row_start, (int) row);
  for (guint k = 0; k + 1 < spans->len; k += 2)
    {
      GtkTextIter start = row_start, end = row_start;

      gtk_text_iter_set_line_index (&start, (int) g_array_index (spans, guint, k));
      gtk_text_iter_set_line_index (&end, (int) g_array_index (spans, guint, k + 1));
      gtk_text_buffer_apply_tag_by_name (buffer, tag, &start, &end);
    }
}

/* Fills both panes with the pair's aligned rows: filler rows (empty, shaded) where one side has no line,
 * changed lines in red or green, lines that differ only by proxy names in a quieter colour. */
static void
fill_panes (WbStageView *self)
{
  guint n_rows = wb_stage_pair_get_n_rows (self->pair);

  for (int side = 0; side < 2; side++)
    {
      GtkTextBuffer *buffer = pane_buffer (self, side);
      g_auto (GStrv) lines = g_strsplit (wb_stage_pair_get_text (self->pair, side), "\n", -1);
      guint    n_lines = wb_stage_pair_get_n_lines (self->pair, side);
      GString *text = g_string_new (NULL);

      g_clear_pointer (&self->to_buffer[side], g_array_unref);
      g_clear_pointer (&self->to_trace[side], g_array_unref);
      self->to_buffer[side] = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_lines);
      self->to_trace[side] = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_rows);
      for (guint row = 0; row < n_rows; row++)
        {
          guint l, r, line;
          wb_stage_pair_get_row (self->pair, row, &l, &r);
          line = side ? r : l;
          if (line != G_MAXUINT && line < n_lines)
            {
              g_string_append (text, lines[line]);
              g_array_append_val (self->to_buffer[side], row);
            }
          else
            line = G_MAXUINT;
          g_array_append_val (self->to_trace[side], line);
          if (row + 1 < n_rows)
            g_string_append_c (text, '\n');
        }
      gtk_text_buffer_set_text (buffer, text->str, (int) text->len);
      g_string_free (text, TRUE);
      {
        const char *run_tag = NULL; /* the line tag of rows [run_first, row) */
        guint       run_first = 0;

        for (guint row = 0; row <= n_rows; row++)
          {
            guint       line = row < n_rows ? g_array_index (self->to_trace[side], guint, row) : G_MAXUINT;
            WbLineMark  mark = line != G_MAXUINT ? wb_stage_pair_get_line_mark (self->pair, side, line) : WB_LINE_SAME;
            const char *tag = row == n_rows             ? NULL
                              : line == G_MAXUINT       ? "filler"
                              : mark == WB_LINE_CHANGED ? (side ? "added" : "removed")
                              : mark == WB_LINE_RENAMED ? "renamed"
                                                        : NULL;

            if (g_strcmp0 (tag, run_tag) != 0)
              {
                if (run_tag != NULL)
                  apply_line_tag (buffer, run_tag, run_first, row - 1);
                run_tag = tag, run_first = row;
              }
            if (mark == WB_LINE_CHANGED && line != G_MAXUINT)
              apply_span_tags (self, side, line, row, "changed-text");
            else if (mark == WB_LINE_RENAMED && line != G_MAXUINT)
              apply_span_tags (self, side, line, row, "renamed-text");
          }
      }
    }
}

/* Marks the selected bound symbol's lines (and its counterparts' on the other side); scrolls to them. */
static void
show_selection (WbStageView *self)
{
  const WbBsym *bsym = wb_document_get_bsym (self->document);
  WbTrace      *trace = wb_document_get_bsym_trace (self->document);

  for (int side = 0; side < 2; side++)
    {
      GtkTextBuffer *buffer = pane_buffer (self, side);
      GtkTextIter    start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      gtk_text_buffer_remove_tag_by_name (buffer, "selected", &start, &end);
    }
  if (bsym == NULL || self->pair == NULL)
    return;
  for (int side = 0; side < 2; side++)
    {
      gboolean   own = trace == pane_trace (self, side) || (trace != pane_trace (self, !side) && wb_stage_pair_get_line (self->pair, side, bsym) != 0);
      GPtrArray *others;
      guint      line;

      if (!own)
        continue;
      if ((line = wb_stage_pair_get_line (self->pair, side, bsym)) != 0)
        {
          GtkTextIter iter;

          apply_line_tag (pane_buffer (self, side), "selected", buffer_line (self, side, line - 1), buffer_line (self, side, line - 1));
          gtk_text_buffer_get_iter_at_line (pane_buffer (self, side), &iter, (int) buffer_line (self, side, line - 1));
          gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (side ? self->right : self->left), &iter, 0.1, FALSE, 0, 0);
        }
      others = wb_stage_pair_get_counterparts (self->pair, side, bsym);
      for (guint i = 0; others != NULL && i < others->len; i++)
        if ((line = wb_stage_pair_get_line (self->pair, !side, others->pdata[i])) != 0)
          {
            GtkTextIter iter;

            apply_line_tag (pane_buffer (self, !side), "selected", buffer_line (self, !side, line - 1), buffer_line (self, !side, line - 1));
            if (i == 0)
              {
                gtk_text_buffer_get_iter_at_line (pane_buffer (self, !side), &iter, (int) buffer_line (self, !side, line - 1));
                gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (!side ? self->right : self->left), &iter, 0.1, FALSE, 0, 0);
              }
          }
      break;
    }
}

static WbStagePair *
get_pair (WbStageView *self, guint entry)
{
  WbStagePair      *pair = g_hash_table_lookup (self->pairs, GUINT_TO_POINTER (entry + 1));
  int               prev = wb_document_get_previous (self->document, entry);
  const WbStage    *stage = wb_document_get_stage (self->document, entry);
  const WbTraceSet *set = wb_document_get_trace_set (self->document);

  if (pair != NULL)
    return pair;
  pair = wb_stage_pair_new (prev >= 0 ? wb_trace_set_get_entry (set, prev)->trace : NULL,
                            wb_trace_set_get_entry (set, entry)->trace,
                            prev >= 0 && stage != NULL && wb_stage_get_previous (stage) >= 0 ? stage : NULL);
  g_hash_table_insert (self->pairs, GUINT_TO_POINTER (entry + 1), pair);
  return pair;
}

/* While idle, pair the stages next to the one shown, so that stepping finds them ready. */
static gboolean
prefetch_idle (gpointer data)
{
  WbStageView      *self = data;
  const WbTraceSet *set = self->document ? wb_document_get_trace_set (self->document) : NULL;
  guint             n = set ? wb_trace_set_get_n_entries (set) : 0;

  for (int d = 1; set != NULL && d <= 2; d++)
    for (int sign = 1; sign >= -1; sign -= 2)
      {
        int e = self->right_entry + sign * d;

        if (e >= 0 && e < (int) n && !g_hash_table_contains (self->pairs, GUINT_TO_POINTER (e + 1)))
          {
            get_pair (self, e);
            return G_SOURCE_CONTINUE;
          }
      }
  self->prefetch_id = 0;
  return G_SOURCE_REMOVE;
}

static void
update_pair (WbStageView *self)
{
  guint            entry = wb_document_get_entry (self->document);
  int              prev = wb_document_get_previous (self->document, entry);
  const WbStage   *stage = wb_document_get_stage (self->document, entry);
  g_autofree char *lt = NULL;
  g_autofree char *rt = NULL;

  if (wb_document_get_trace_set (self->document) == NULL)
    return;
  if (self->pair != NULL && self->right_entry == (int) entry && self->left_entry == prev)
    return;
  self->left_entry = prev;
  self->right_entry = (int) entry;
  (void) stage;
  self->pair = get_pair (self, entry);
  if (self->prefetch_id == 0)
    self->prefetch_id = g_idle_add_full (G_PRIORITY_LOW, prefetch_idle, self, NULL);
  self->updating = TRUE;
  fill_panes (self);
  self->updating = FALSE;

  lt = entry_title (self->document, prev);
  rt = entry_title (self->document, (int) entry);
  gtk_label_set_text (self->left_title, lt);
  gtk_label_set_text (self->right_title, rt);
  gtk_widget_queue_draw (GTK_WIDGET (self->times));
}

static void
selection_changed_cb (WbStageView *self)
{
  update_pair (self);
  self->updating = TRUE;
  show_selection (self);
  self->updating = FALSE;
}

static void
document_changed_cb (WbStageView *self)
{
  self->pair = NULL;
  g_hash_table_remove_all (self->pairs);
  self->left_entry = self->right_entry = -1;
  selection_changed_cb (self);
}

void
wb_stage_view_select_line (WbStageView *self, gboolean right, guint line)
{
  const WbBsym *bsym;

  g_return_if_fail (WB_IS_STAGE_VIEW (self));

  if (self->pair == NULL || self->document == NULL)
    return;
  bsym = wb_stage_pair_get_bsym_at_line (self->pair, right, line);
  wb_document_select_bsym (self->document, pane_trace (self, right), bsym);
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, WbStageView *self)
{
  GtkWidget  *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkTextIter iter;
  int         bx, by;

  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET, (int) x, (int) y, &bx, &by);
  gtk_text_view_get_iter_at_location (GTK_TEXT_VIEW (view), &iter, bx, by);
  {
    gboolean right = view == GTK_WIDGET (self->right);
    guint    line = trace_line (self, right, (guint) gtk_text_iter_get_line (&iter));
    if (line != G_MAXUINT)
      wb_stage_view_select_line (self, right, line + 1);
  }
}

GArray *
wb_stage_view_get_selected_lines (WbStageView *self, gboolean right)
{
  GArray        *lines = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkTextBuffer *buffer = pane_buffer (self, right);
  GtkTextTag    *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "selected");
  GtkTextIter    iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  do
    {
      if (gtk_text_iter_has_tag (&iter, tag))
        {
          guint line = trace_line (self, right, (guint) gtk_text_iter_get_line (&iter));

          if (line != G_MAXUINT)
            {
              line++;
              g_array_append_val (lines, line);
            }
        }
    }
  while (gtk_text_iter_forward_line (&iter));
  return lines;
}

void
wb_stage_view_get_top_rows (WbStageView *self, guint *left, guint *right)
{
  for (int side = 0; side < 2; side++)
    {
      GtkTextView *view = GTK_TEXT_VIEW (side ? self->right : self->left);
      GtkTextIter  iter;
      int          top;
      double       y = gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (side ? self->right_scroll : self->left_scroll));

      /* the row at the top edge */
      gtk_text_view_get_line_at_y (view, &iter, (int) y + 2, &top);
      *(side ? right : left) = (guint) gtk_text_iter_get_line (&iter);
    }
}

void
wb_stage_view_scroll_to_row (WbStageView *self, guint row)
{
  GtkTextIter iter;
  int         y, height;

  g_return_if_fail (WB_IS_STAGE_VIEW (self));
  if (!gtk_text_buffer_get_iter_at_line (pane_buffer (self, FALSE), &iter, (int) row))
    return;
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->left), &iter, &y, &height);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->left_scroll), y);
}

guint
wb_stage_view_get_n_changes (WbStageView *self)
{
  return self->pair ? wb_stage_pair_get_n_changes (self->pair) : 0;
}

gboolean
wb_stage_view_search (WbStageView *self, const char *text)
{
  GtkTextBuffer *buffer = pane_buffer (self, TRUE);
  GtkTextIter    start, match, end, cursor;
  guint          line;

  if (text == NULL || text[0] == '\0')
    return FALSE;
  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  start = cursor;
  gtk_text_iter_forward_line (&start);
  if (!gtk_text_iter_forward_search (&start, text, GTK_TEXT_SEARCH_CASE_INSENSITIVE, &match, &end, NULL))
    {
      gtk_text_buffer_get_start_iter (buffer, &start);
      if (!gtk_text_iter_forward_search (&start, text, GTK_TEXT_SEARCH_CASE_INSENSITIVE, &match, &end, NULL))
        return FALSE;
    }
  gtk_text_buffer_place_cursor (buffer, &match);
  line = trace_line (self, TRUE, (guint) gtk_text_iter_get_line (&match));
  if (line != G_MAXUINT)
    wb_stage_view_select_line (self, TRUE, line + 1);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->right), &match, 0.1, FALSE, 0, 0);
  return TRUE;
}

/* The line-number gutters: the trace's line numbers, none on filler rows. */
static void
numbers_query_data_cb (GtkSourceGutterRendererText *renderer, GObject *lines, guint line, WbStageView *self)
{
  gboolean right = GTK_SOURCE_GUTTER_RENDERER (renderer) == self->numbers[1];
  guint    t = trace_line (self, right, line);
  char     text[16];

  if (t == G_MAXUINT)
    {
      gtk_source_gutter_renderer_text_set_text (renderer, "", -1);
      return;
    }
  g_snprintf (text, sizeof text, "%u", t + 1);
  gtk_source_gutter_renderer_text_set_text (renderer, text, -1);
}

/* The estimated ms of the op of fusion region @region printed on 1-based @line of the right pane, or -1. */
static double
op_estimate_ms (WbStageView *self, const WbBsym *region, guint line)
{
  WbTrace *trace = pane_trace (self, TRUE);

  if (trace == NULL || !wb_bsym_is_fusion (region))
    return -1;
  for (guint i = 0; i < region->n_subsymbols; i++)
    if (wb_trace_get_bsym_line (trace, region->subsymbols[i]) == line)
      return wb_document_get_op_estimate_ms (self->document, trace, region->subsymbols[i]);
  return -1;
}

/* The gutter: each line's median time in the latest run; a line inside a fusion region, its op's estimated share
 * of the region's time, marked "est." (profiler/wb-op-estimate.h). */
static void
times_query_data_cb (GtkSourceGutterRendererText *renderer, GObject *lines, guint line, WbStageView *self)
{
  const WbBsym    *bsym;
  double           ms;
  g_autofree char *text = NULL;

  line = trace_line (self, TRUE, line);
  if (line != G_MAXUINT && self->pair != NULL && wb_document_get_run (self->document) != NULL &&
      (bsym = wb_stage_pair_get_bsym_at_line (self->pair, TRUE, line + 1)) != NULL && wb_stage_pair_get_line (self->pair, TRUE, bsym) < line + 1 &&
      (ms = op_estimate_ms (self, bsym, line + 1)) >= 0)
    {
      /* TRANSLATORS: an op's estimated time in the gutter (a share of its fusion region's measured time), ms */
      text = g_strdup_printf (_ ("est. %.2f ms"), ms);
      gtk_source_gutter_renderer_text_set_text (renderer, text, -1);
      return;
    }
  if (line == G_MAXUINT || self->pair == NULL || wb_document_get_run (self->document) == NULL || (bsym = wb_stage_pair_get_bsym_at_line (self->pair, TRUE, line + 1)) == NULL || wb_stage_pair_get_line (self->pair, TRUE, bsym) != line + 1 || (ms = wb_document_get_bsym_ms (self->document, bsym)) < 0)
    {
      gtk_source_gutter_renderer_text_set_text (renderer, "", -1);
      return;
    }
  /* TRANSLATORS: a line's time in the gutter, milliseconds */
  text = g_strdup_printf (_ ("%.1f ms"), ms);
  gtk_source_gutter_renderer_text_set_text (renderer, text, -1);
}

static void
update_style_scheme (WbStageView *self)
{
  AdwStyleManager      *manager = adw_style_manager_get_default ();
  GtkSourceStyleScheme *scheme;
  gboolean              dark = adw_style_manager_get_dark (manager);

  scheme = gtk_source_style_scheme_manager_get_scheme (gtk_source_style_scheme_manager_get_default (), dark ? "Adwaita-dark" : "Adwaita");
  for (int side = 0; side < 2; side++)
    {
      GtkTextBuffer   *buffer = pane_buffer (self, side);
      GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
      GdkRGBA          added, removed, selected, renamed, filler, changed_text;

      gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (buffer), scheme);
      gdk_rgba_parse (&added, dark ? "rgba(38,162,105,0.30)" : "rgba(46,194,126,0.22)");
      gdk_rgba_parse (&removed, dark ? "rgba(224,27,36,0.30)" : "rgba(237,51,59,0.18)");
      gdk_rgba_parse (&selected, dark ? "rgba(53,132,228,0.45)" : "rgba(53,132,228,0.30)");
      gdk_rgba_parse (&renamed, dark ? "rgba(229,165,10,0.16)" : "rgba(229,165,10,0.12)");
      gdk_rgba_parse (&filler, dark ? "rgba(255,255,255,0.05)" : "rgba(0,0,0,0.05)");
      g_object_set (gtk_text_tag_table_lookup (table, "added"), "paragraph-background-rgba", &added, NULL);
      g_object_set (gtk_text_tag_table_lookup (table, "removed"), "paragraph-background-rgba", &removed, NULL);
      g_object_set (gtk_text_tag_table_lookup (table, "selected"), "paragraph-background-rgba", &selected, NULL);
      g_object_set (gtk_text_tag_table_lookup (table, "renamed"), "paragraph-background-rgba", &renamed, NULL);
      g_object_set (gtk_text_tag_table_lookup (table, "filler"), "paragraph-background-rgba", &filler, NULL);
      gdk_rgba_parse (&changed_text, side ? (dark ? "rgba(38,162,105,0.55)" : "rgba(46,194,126,0.45)")
                                          : (dark ? "rgba(224,27,36,0.55)" : "rgba(237,51,59,0.40)"));
      g_object_set (gtk_text_tag_table_lookup (table, "changed-text"), "background-rgba", &changed_text, NULL);
    }
}

void
wb_stage_view_set_document (WbStageView *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_STAGE_VIEW (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect_swapped (document, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (document, "runs-changed", G_CALLBACK (gtk_widget_queue_draw), self->times);
}

GtkWidget *
wb_stage_view_new (void)
{
  return g_object_new (WB_TYPE_STAGE_VIEW, NULL);
}

static void
wb_stage_view_dispose (GObject *object)
{
  WbStageView *self = WB_STAGE_VIEW (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  if (self->document != NULL && self->times != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self->times);
  g_clear_object (&self->document);
  /* a tick callback still due finds the view disposed (GTK drops it with the widget) */
  self->disposed = TRUE;
  for (int side = 0; side < 2 && self->left_scroll != NULL; side++)
    for (int v = 0; v < 2; v++)
      g_signal_handlers_disconnect_by_data (pane_adjustment (self, side, v), self);
  for (int side = 0; side < 2; side++)
    for (int v = 0; v < 2; v++)
      if (self->shown[side][v] != NULL)
        {
          g_signal_handlers_disconnect_by_data (self->shown[side][v], self);
          g_clear_object (&self->shown[side][v]);
        }
  gtk_widget_dispose_template (GTK_WIDGET (self), WB_TYPE_STAGE_VIEW);
  g_clear_handle_id (&self->prefetch_id, g_source_remove);
  self->pair = NULL;
  g_clear_pointer (&self->pairs, g_hash_table_unref);
  for (int side = 0; side < 2; side++)
    {
      g_clear_pointer (&self->to_buffer[side], g_array_unref);
      g_clear_pointer (&self->to_trace[side], g_array_unref);
    }

  G_OBJECT_CLASS (wb_stage_view_parent_class)->dispose (object);
}

static void
size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  WbStageView *self = WB_STAGE_VIEW (widget);

  gtk_widget_allocate (GTK_WIDGET (self->paned), width, height, baseline, NULL);
  if (gtk_paned_get_position (self->paned) <= 0 && width > 0)
    gtk_paned_set_position (self->paned, width / 2);
}

/* Scrolls the pane opposite @from so that the row at @from's top is at its top, at the same fraction. */
static void
sync_scroll (WbStageView *self, gboolean from)
{
  GtkTextView   *a = GTK_TEXT_VIEW (from ? self->right : self->left), *b = GTK_TEXT_VIEW (from ? self->left : self->right);
  GtkAdjustment *aa = gtk_scrolled_window_get_vadjustment (from ? self->right_scroll : self->left_scroll);
  GtkAdjustment *ba = gtk_scrolled_window_get_vadjustment (from ? self->left_scroll : self->right_scroll);
  GtkTextIter    iter;
  int            y, top, height, line_top, line_height, row;

  if (self->syncing)
    return;
  y = (int) gtk_adjustment_get_value (aa);
  gtk_text_view_get_line_at_y (a, &iter, y, &top);
  gtk_text_view_get_line_yrange (a, &iter, &top, &height);
  row = gtk_text_iter_get_line (&iter);
  if (!gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (b), &iter, row))
    return;
  gtk_text_view_get_line_yrange (b, &iter, &line_top, &line_height);
  self->syncing = TRUE;
  gtk_adjustment_set_value (ba, line_top + (height > 0 ? (double) (y - top) * line_height / height : 0));
  self->syncing = FALSE;
}

/* -- the scrollbars ----------------------------------------------------------------------------------
 * A GtkTextView sets its adjustments while it is drawn too: GtkSourceView highlights the lines it is
 * about to draw in its snapshot, and GtkTextView lays out lines changed within the frame in its paint,
 * both after the scrolled window allocated its scrollbars; the scrollbars, drawn after the text, then had
 * no allocation (GTK 4.8: "Trying to snapshot GtkGizmo ... without a current allocation", seen after a
 * wheel scroll showed them). So the panes' scrolled windows have no scrollbars of their own (policy
 * EXTERNAL) and each pane's grid has two that show copies of its adjustments, made in the frame clock's
 * update phase, before any layout; a scrollbar dragged moves the pane at once (an event, before the frame). */

static void
copy_adjustment (GtkAdjustment *to, GtkAdjustment *from)
{
  gtk_adjustment_configure (to, gtk_adjustment_get_value (from), gtk_adjustment_get_lower (from), gtk_adjustment_get_upper (from),
                            gtk_adjustment_get_step_increment (from), gtk_adjustment_get_page_increment (from),
                            gtk_adjustment_get_page_size (from));
}

static GtkAdjustment *
pane_adjustment (WbStageView *self, int side, int vertical)
{
  GtkScrolledWindow *scroll = side ? self->right_scroll : self->left_scroll;

  return vertical ? gtk_scrolled_window_get_vadjustment (scroll) : gtk_scrolled_window_get_hadjustment (scroll);
}

static gboolean
mirror_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  WbStageView *self = WB_STAGE_VIEW (widget);

  self->mirror_tick = 0;
  if (self->disposed)
    return G_SOURCE_REMOVE;
  self->mirroring = TRUE;
  for (int side = 0; side < 2; side++)
    for (int v = 0; v < 2; v++)
      {
        GtkAdjustment *from = pane_adjustment (self, side, v);

        copy_adjustment (self->shown[side][v], from);
        /* shown only when there is something to scroll to */
        gtk_widget_set_visible (self->bars[side][v], gtk_adjustment_get_upper (from) - gtk_adjustment_get_lower (from) >
                                                         gtk_adjustment_get_page_size (from) + 0.5);
      }
  self->mirroring = FALSE;
  return G_SOURCE_REMOVE;
}

static void
queue_mirror (WbStageView *self)
{
  if (self->mirror_tick == 0 && !self->disposed)
    self->mirror_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), mirror_tick_cb, NULL, NULL);
}

/* a scrollbar moved by the user: the pane follows */
static void
shown_value_cb (GtkAdjustment *shown, WbStageView *self)
{
  if (self->mirroring)
    return;
  for (int side = 0; side < 2; side++)
    for (int v = 0; v < 2; v++)
      if (self->shown[side][v] == shown)
        gtk_adjustment_set_value (pane_adjustment (self, side, v), gtk_adjustment_get_value (shown));
}

static gboolean
sync_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  WbStageView *self = WB_STAGE_VIEW (widget);

  self->sync_tick = 0;
  if (!self->disposed)
    sync_scroll (self, self->sync_from);
  return G_SOURCE_REMOVE;
}

/* A pane scrolled (@from: the right one): the other pane follows at once when the user scrolled (an
 * event, before the frame); when the frame itself moved it (GtkTextView keeps its top line in place as it
 * lays out lines in its paint), in the next frame's update phase: moved while the frame is drawn, the other
 * pane would lay out its lines and resize its box after the box was allocated ("Trying to snapshot
 * GtkBox ... without a current allocation"). The scrollbars follow in the update phase (mirror_tick_cb). */
static void
scrolled (WbStageView *self, gboolean from)
{
  queue_mirror (self);
  if (self->syncing)
    return;
  if (!self->in_frame)
    {
      sync_scroll (self, from);
      return;
    }
  self->sync_from = from;
  if (self->sync_tick == 0)
    self->sync_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), sync_tick_cb, NULL, NULL);
}

static void
frame_begin_cb (GdkFrameClock *clock, WbStageView *self)
{
  self->in_frame = TRUE;
}

static void
frame_end_cb (GdkFrameClock *clock, WbStageView *self)
{
  self->in_frame = FALSE;
}

static void
wb_stage_view_realize (GtkWidget *widget)
{
  WbStageView *self = WB_STAGE_VIEW (widget);

  GTK_WIDGET_CLASS (wb_stage_view_parent_class)->realize (widget);
  self->clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  g_signal_connect (self->clock, "before-paint", G_CALLBACK (frame_begin_cb), self);
  g_signal_connect (self->clock, "after-paint", G_CALLBACK (frame_end_cb), self);
}

static void
wb_stage_view_unrealize (GtkWidget *widget)
{
  WbStageView *self = WB_STAGE_VIEW (widget);

  /* by function: GTK's own tick handler on the clock has the widget as its data too */
  if (self->clock != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->clock, frame_begin_cb, self);
      g_signal_handlers_disconnect_by_func (self->clock, frame_end_cb, self);
    }
  g_clear_object (&self->clock);
  self->in_frame = FALSE;
  GTK_WIDGET_CLASS (wb_stage_view_parent_class)->unrealize (widget);
}

static void
left_scrolled_cb (WbStageView *self)
{
  scrolled (self, FALSE);
}

static void
right_scrolled_cb (WbStageView *self)
{
  scrolled (self, TRUE);
}

static void
wb_stage_view_class_init (WbStageViewClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = wb_stage_view_dispose;
  widget_class->realize = wb_stage_view_realize;
  widget_class->unrealize = wb_stage_view_unrealize;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/dev/thunderwb/Workbench/views/wb-stage-view.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, paned);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, left_title);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, right_title);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, left_scroll);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, right_scroll);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, left_grid);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, right_grid);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, left);
  gtk_widget_class_bind_template_child (widget_class, WbStageView, right);
  (void) size_allocate;
}

static void
wb_stage_view_init (WbStageView *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage        *python = gtk_source_language_manager_get_language (languages, "python3");
  GtkSourceGutter          *gutter;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->left_entry = self->right_entry = -1;
  self->pairs = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) wb_stage_pair_free);

  for (int side = 0; side < 2; side++)
    {
      GtkSourceView   *view = side ? self->right : self->left;
      GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
      GtkGesture      *click = gtk_gesture_click_new ();

      gtk_source_buffer_set_language (buffer, python);
      gtk_source_buffer_set_highlight_syntax (buffer, TRUE);
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "added", NULL);
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "removed", NULL);
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "renamed", NULL);
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "filler", NULL);
      /* inside a line: the tokens that changed, the names that were renamed */
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "changed-text", NULL);
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "renamed-text", "underline", PANGO_UNDERLINE_SINGLE, NULL);
      /* no bold: a bold line is taller in some fonts, and the panes must keep equal row heights */
      gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), "selected", NULL);
      /* the trace's own line numbers (file:line), blank on filler rows */
      self->numbers[side] = wb_width_gutter_new ("00000", 0);
      g_signal_connect (self->numbers[side], "query-data", G_CALLBACK (numbers_query_data_cb), self);
      gtk_source_gutter_insert (gtk_source_view_get_gutter (view, GTK_TEXT_WINDOW_LEFT), self->numbers[side], -20);
      gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
      g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
      gtk_widget_add_controller (GTK_WIDGET (view), GTK_EVENT_CONTROLLER (click));
    }

  /* scrolling kept in step by row: both panes show the same aligned rows (fillers included), but lines
   * may differ in height (bold selection, fonts), so the other pane is scrolled to the same row */
  for (int side = 0; side < 2; side++)
    g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (side ? self->right_scroll : self->left_scroll), "value-changed",
                              G_CALLBACK (side ? right_scrolled_cb : left_scrolled_cb), self);
  /* each pane's scrollbars, showing copies of its adjustments (mirror_tick_cb) */
  for (int side = 0; side < 2; side++)
    for (int v = 0; v < 2; v++)
      {
        GtkAdjustment *adj = pane_adjustment (self, side, v);

        self->shown[side][v] = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
        self->bars[side][v] = gtk_scrollbar_new (v ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, self->shown[side][v]);
        gtk_widget_set_visible (self->bars[side][v], FALSE);
        gtk_grid_attach (side ? self->right_grid : self->left_grid, self->bars[side][v], v ? 1 : 0, v ? 0 : 1, 1, 1);
        g_signal_connect (self->shown[side][v], "value-changed", G_CALLBACK (shown_value_cb), self);
        g_signal_connect_swapped (adj, "changed", G_CALLBACK (queue_mirror), self);
        if (!v)
          g_signal_connect_swapped (adj, "value-changed", G_CALLBACK (queue_mirror), self);
      }

  /* TRANSLATORS: the widest text of the time gutter (keep the width of "est. %.2f ms") */
  self->times = wb_width_gutter_new (_ ("est. 000.00 ms"), 6);
  g_signal_connect (self->times, "query-data", G_CALLBACK (times_query_data_cb), self);
  gutter = gtk_source_view_get_gutter (self->right, GTK_TEXT_WINDOW_LEFT);
  gtk_source_gutter_insert (gutter, self->times, -10);

  update_style_scheme (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (update_style_scheme), self, G_CONNECT_SWAPPED);
}

GArray *
wb_stage_view_get_highlights (WbStageView *self, gboolean right, guint row, const char *tag_name)
{
  GtkTextBuffer *buffer;
  GtkTextTag    *tag;
  GtkTextIter    iter, end;
  GArray        *spans = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (WB_IS_STAGE_VIEW (self), spans);
  buffer = pane_buffer (self, right);
  tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag_name);
  if (tag == NULL || row >= (guint) gtk_text_buffer_get_line_count (buffer))
    return spans;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) row);
  end = iter;
  gtk_text_iter_forward_to_line_end (&end);
  while (gtk_text_iter_compare (&iter, &end) < 0)
    {
      if (gtk_text_iter_has_tag (&iter, tag))
        {
          GtkTextIter stop = iter;
          guint       from = (guint) gtk_text_iter_get_line_index (&iter);

          gtk_text_iter_forward_to_tag_toggle (&stop, tag);
          if (gtk_text_iter_compare (&stop, &end) > 0)
            stop = end;
          g_array_append_vals (spans, (guint[]){ from, (guint) gtk_text_iter_get_line_index (&stop) }, 2);
          iter = stop;
        }
      else if (!gtk_text_iter_forward_to_tag_toggle (&iter, tag))
        break;
    }
  return spans;
}

char *
wb_stage_view_dup_row_text (WbStageView *self, gboolean right, guint row)
{
  GtkTextBuffer *buffer;
  GtkTextIter    start, end;

  g_return_val_if_fail (WB_IS_STAGE_VIEW (self), NULL);
  buffer = pane_buffer (self, right);
  if (row >= (guint) gtk_text_buffer_get_line_count (buffer))
    return NULL;
  gtk_text_buffer_get_iter_at_line (buffer, &start, (int) row);
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  if (gtk_text_iter_get_line (&end) != (int) row)
    end = start; /* an empty last line */
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

const WbStagePair *
wb_stage_view_get_pair (WbStageView *self)
{
  g_return_val_if_fail (WB_IS_STAGE_VIEW (self), NULL);
  return self->pair;
}
