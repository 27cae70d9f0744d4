/* wb-compare-view.c — two runs of the document side by side, with the noise verdict of data/wb-compare.h
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "wb-data.h"
#include "wb-views.h"

struct _WbCompareView
{
  GtkWidget parent_instance;

  WbDocument   *document;
  WbComparison *comparison; /* (nullable) */
  gboolean      syncing;

  GtkWidget     *box;
  GtkDropDown   *run_a;
  GtkDropDown   *run_b;
  GtkStringList *labels;
  GtkLabel      *summary;
  GtkGrid       *grid;
  GtkLabel      *notes;
  GtkWidget     *empty;
  GtkWidget     *scroll;
};

G_DEFINE_FINAL_TYPE (WbCompareView, wb_compare_view, GTK_TYPE_WIDGET)

enum
{
  C_REGION,
  C_EXEC_A,
  C_EXEC_B,
  C_A,
  C_B,
  C_DIFF,
  C_PCT,
  C_NOISE,
  C_VERDICT,
  N_C
};

static const char *
verdict_text (WbCompareVerdict v)
{
  switch (v)
    {
    case WB_COMPARE_WITHIN_NOISE:
      return _ ("within noise");
    case WB_COMPARE_SLOWER:
      /* TRANSLATORS: run B is slower than run A by more than the noise */
      return _ ("slower");
    case WB_COMPARE_FASTER:
      return _ ("faster");
    case WB_COMPARE_ONLY_A:
      return _ ("only in A");
    case WB_COMPARE_ONLY_B:
      return _ ("only in B");
    case WB_COMPARE_UNKNOWN:
    default:
      /* TRANSLATORS: the runs have too few iterations to tell a difference from noise */
      return _ ("too few iterations");
    }
}

static char *
row_cell (const WbCompareRow *r, int c)
{
  gboolean a = r->verdict != WB_COMPARE_ONLY_B, b = r->verdict != WB_COMPARE_ONLY_A;

  switch (c)
    {
    case C_REGION:
      if (r->name_b != NULL)
        /* TRANSLATORS: a region matched by its key under another name in run B: "nvrtcFusion3 (B: nvrtcFusion2)" */
        return g_strdup_printf (_ ("%s (B: %s)"), r->name, r->name_b);
      return g_strdup (r->name ? r->name : _ ("Whole iteration"));
    case C_EXEC_A:
      return g_strdup (r->executor_a ? r->executor_a : "–");
    case C_EXEC_B:
      return g_strdup (r->executor_b ? r->executor_b : "–");
    case C_A:
      return a ? g_strdup_printf ("%.3f", r->median_a_ns / 1e6) : g_strdup ("–");
    case C_B:
      return b ? g_strdup_printf ("%.3f", r->median_b_ns / 1e6) : g_strdup ("–");
    case C_DIFF:
      return a && b ? g_strdup_printf ("%+.3f", r->diff_ns / 1e6) : g_strdup ("–");
    case C_PCT:
      return a && b && !isnan (r->diff_pct) ? g_strdup_printf ("%+.1f%%", r->diff_pct) : g_strdup ("–");
    case C_NOISE:
      return a && b ? g_strdup_printf ("±%.3f", r->threshold_ns / 1e6) : g_strdup ("–");
    case C_VERDICT:
      switch (r->fusion)
        {
        case WB_COMPARE_FUSION_UNFUSED_IN_B:
          /* TRANSLATORS: the verdict of a region of run A whose calls run one by one in run B */
          return g_strdup (_ ("unfused in B"));
        case WB_COMPARE_FUSION_UNFUSED_FROM_A:
          /* TRANSLATORS: the verdict of a call of run B; %s is the region of run A it was unfused from */
          return g_strdup_printf (_ ("unfused from %s"), r->region);
        case WB_COMPARE_FUSION_FUSED_IN_B:
          /* TRANSLATORS: the verdict of a region of run B whose calls ran one by one in run A */
          return g_strdup (_ ("fused in B"));
        case WB_COMPARE_FUSION_FUSED_INTO_B:
          /* TRANSLATORS: the verdict of a call of run A; %s is the region of run B that runs it */
          return g_strdup_printf (_ ("fused into %s in B"), r->region);
        default:
          break;
        }
      if (r->contents_changed)
        /* TRANSLATORS: the verdict, then: the region computes other bound symbols in run B */
        return g_strdup_printf (_ ("%s, changed contents"), verdict_text (r->verdict));
      return g_strdup (verdict_text (r->verdict));
    default:
      return g_strdup ("");
    }
}

static const char *
header (int c)
{
  switch (c)
    {
    case C_REGION:
      return _ ("Region");
    case C_EXEC_A:
      return _ ("Executor A");
    case C_EXEC_B:
      return _ ("Executor B");
    case C_A:
      return _ ("A (ms)");
    case C_B:
      return _ ("B (ms)");
    case C_DIFF:
      /* TRANSLATORS: column: B's median minus A's, ms */
      return _ ("Δ (ms)");
    case C_PCT:
      return _ ("Δ %");
    case C_NOISE:
      /* TRANSLATORS: column: the larger noise of the two runs, ms */
      return _ ("Noise (ms)");
    default:
      return _ ("Verdict");
    }
}

static void
add_row (WbCompareView *self, int y, const WbCompareRow *r)
{
  for (int c = 0; c < N_C; c++)
    {
      g_autofree char *text = r ? row_cell (r, c) : g_strdup (header (c));
      GtkWidget       *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), c <= C_EXEC_B || c == C_VERDICT ? 0.0 : 1.0);
      gtk_widget_add_css_class (label, r ? "numeric" : "heading");
      if (r != NULL && (c == C_VERDICT || c == C_DIFF || c == C_PCT))
        {
          if (r->verdict == WB_COMPARE_SLOWER)
            gtk_widget_add_css_class (label, "error");
          else if (r->verdict == WB_COMPARE_FASTER)
            gtk_widget_add_css_class (label, "success");
          else if (r->verdict != WB_COMPARE_ONLY_A && r->verdict != WB_COMPARE_ONLY_B)
            gtk_widget_add_css_class (label, "dim-label");
        }
      if (r != NULL && r->name == NULL)
        gtk_widget_add_css_class (label, "heading");
      if (r != NULL && c == C_EXEC_B && g_strcmp0 (r->executor_a, r->executor_b) != 0)
        gtk_widget_add_css_class (label, "accent");
      gtk_grid_attach (self->grid, label, c, y, 1, 1);
    }
}

static void
rebuild (WbCompareView *self)
{
  GPtrArray *runs = self->document ? wb_document_get_runs (self->document) : NULL;
  guint      a = gtk_drop_down_get_selected (self->run_a), b = gtk_drop_down_get_selected (self->run_b);
  GtkWidget *child;
  g_autoptr (GString) notes = g_string_new (NULL);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))) != NULL)
    gtk_grid_remove (self->grid, child);
  g_clear_pointer (&self->comparison, wb_comparison_free);
  if (runs == NULL || runs->len < 2 || a >= runs->len || b >= runs->len)
    {
      gtk_widget_set_visible (self->empty, TRUE);
      gtk_widget_set_visible (self->scroll, FALSE);
      gtk_label_set_text (self->summary, "");
      return;
    }
  gtk_widget_set_visible (self->empty, FALSE);
  gtk_widget_set_visible (self->scroll, TRUE);
  self->comparison = wb_comparison_new (runs->pdata[a], runs->pdata[b]);
  add_row (self, 0, NULL);
  add_row (self, 1, self->comparison->iteration);
  for (guint i = 0; i < self->comparison->regions->len; i++)
    add_row (self, (int) i + 2, self->comparison->regions->pdata[i]);
  {
    const WbCompareRow *it = self->comparison->iteration;
    guint               slower = 0, faster = 0;
    g_autofree char    *la = wb_document_dup_run_label (self->document, a);
    g_autofree char    *lb = wb_document_dup_run_label (self->document, b);
    g_autofree char    *text = NULL;

    for (guint i = 0; i < self->comparison->regions->len; i++)
      {
        const WbCompareRow *r = self->comparison->regions->pdata[i];

        slower += r->verdict == WB_COMPARE_SLOWER;
        faster += r->verdict == WB_COMPARE_FASTER;
      }
    /* TRANSLATORS: B: run label; A: run label; the iteration's change; its verdict; region counts */
    text = g_strdup_printf (_ ("B = %s against A = %s: the iteration %+.3f ms (%s); %u region(s) slower and %u faster beyond the noise"),
                            lb, la, it->diff_ns / 1e6, verdict_text (it->verdict), slower, faster);
    gtk_label_set_text (self->summary, text);
  }
  for (guint i = 0; i < self->comparison->notes->len; i++)
    g_string_append_printf (notes, "%s\n", (const char *) self->comparison->notes->pdata[i]);
  g_string_append (notes, _ ("Noise: the interquartile range of a run's iteration times (the range under 4 iterations); "
                             "B differs from A when the medians differ by more than the larger noise of the two."));
  gtk_label_set_text (self->notes, notes->str);
}

static void
runs_changed_cb (WbCompareView *self)
{
  GPtrArray *runs = wb_document_get_runs (self->document);
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < runs->len; i++)
    g_ptr_array_add (labels, wb_document_dup_run_label (self->document, i));
  g_ptr_array_add (labels, NULL);
  self->syncing = TRUE;
  gtk_string_list_splice (self->labels, 0, g_list_model_get_n_items (G_LIST_MODEL (self->labels)), (const char *const *) labels->pdata);
  if (runs->len >= 2)
    {
      gtk_drop_down_set_selected (self->run_a, runs->len - 2);
      gtk_drop_down_set_selected (self->run_b, runs->len - 1);
    }
  self->syncing = FALSE;
  rebuild (self);
}

static void
selected_cb (WbCompareView *self)
{
  if (!self->syncing)
    rebuild (self);
}

static void
swap_cb (WbCompareView *self)
{
  guint a = gtk_drop_down_get_selected (self->run_a), b = gtk_drop_down_get_selected (self->run_b);

  wb_compare_view_set_runs (self, b, a);
}

void
wb_compare_view_set_runs (WbCompareView *self, guint a, guint b)
{
  g_return_if_fail (WB_IS_COMPARE_VIEW (self));

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->run_a, a);
  gtk_drop_down_set_selected (self->run_b, b);
  self->syncing = FALSE;
  rebuild (self);
}

gboolean
wb_compare_view_get_runs (WbCompareView *self, guint *a, guint *b)
{
  if (self->comparison == NULL)
    return FALSE;
  *a = gtk_drop_down_get_selected (self->run_a);
  *b = gtk_drop_down_get_selected (self->run_b);
  return TRUE;
}

char *
wb_compare_view_get_text (WbCompareView *self)
{
  GString *s;
  int      rows;

  if (self->comparison == NULL)
    return NULL;
  s = g_string_new (NULL);
  rows = (int) self->comparison->regions->len + 2;
  for (int y = 0; y < rows; y++)
    for (int c = 0; c < N_C; c++)
      {
        GtkWidget *label = gtk_grid_get_child_at (self->grid, c, y);

        g_string_append_printf (s, "%s%c", label ? gtk_label_get_text (GTK_LABEL (label)) : "", c + 1 < N_C ? '\t' : '\n');
      }
  return g_string_free (s, FALSE);
}

void
wb_compare_view_set_document (WbCompareView *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_COMPARE_VIEW (self));

  g_set_object (&self->document, document);
  g_signal_connect_object (document, "runs-changed", G_CALLBACK (runs_changed_cb), self, G_CONNECT_SWAPPED);
  runs_changed_cb (self);
}

GtkWidget *
wb_compare_view_new (void)
{
  return g_object_new (WB_TYPE_COMPARE_VIEW, NULL);
}

static void
wb_compare_view_dispose (GObject *object)
{
  WbCompareView *self = WB_COMPARE_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->comparison, wb_comparison_free);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (wb_compare_view_parent_class)->dispose (object);
}

static void
wb_compare_view_class_init (WbCompareViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = wb_compare_view_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
wb_compare_view_init (WbCompareView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *swap = gtk_button_new_from_icon_name ("object-flip-horizontal-symbolic");

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 8);
  gtk_widget_set_margin_bottom (self->box, 8);

  self->labels = gtk_string_list_new (NULL);
  self->run_a = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->labels)), NULL));
  self->run_b = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->labels)), NULL));
  g_object_unref (self->labels);
  g_signal_connect_swapped (self->run_a, "notify::selected", G_CALLBACK (selected_cb), self);
  g_signal_connect_swapped (self->run_b, "notify::selected", G_CALLBACK (selected_cb), self);
  gtk_widget_set_tooltip_text (swap, _ ("Swap A and B"));
  g_signal_connect_swapped (swap, "clicked", G_CALLBACK (swap_cb), self);
  /* TRANSLATORS: the run compared against (the baseline) */
  gtk_box_append (GTK_BOX (bar), gtk_label_new (_ ("Run A")));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->run_a));
  gtk_box_append (GTK_BOX (bar), swap);
  gtk_box_append (GTK_BOX (bar), gtk_label_new (_ ("Run B")));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->run_b));
  gtk_box_append (GTK_BOX (self->box), bar);

  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_selectable (self->summary, TRUE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->summary));

  self->empty = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->empty), "view-dual-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->empty), _ ("No Two Runs to Compare"));
  adw_status_page_set_description (ADW_STATUS_PAGE (self->empty),
                                   _ ("Profile twice (or change a region's executor), or open a session with two runs or more."));
  gtk_widget_set_vexpand (self->empty, TRUE);
  gtk_box_append (GTK_BOX (self->box), self->empty);

  self->grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->grid, 18);
  gtk_grid_set_row_spacing (self->grid, 4);
  self->scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroll), GTK_WIDGET (self->grid));
  gtk_widget_set_vexpand (self->scroll, TRUE);
  gtk_widget_set_visible (self->scroll, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->scroll);

  self->notes = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->notes, 0);
  gtk_label_set_wrap (self->notes, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->notes), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->notes), "caption");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->notes));
}
