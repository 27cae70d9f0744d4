/* wb-sidebar.c — a trace set's lists and stages (Thunder's and the workbench's, with ms) and the runs
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-views.h"

struct _WbSidebar
{
  GtkWidget parent_instance;

  WbDocument *document;
  guint8     *unchanged; /* per entry: same text as the stage before */
  gboolean    hide_unchanged;
  gboolean    syncing;

  GtkWidget   *box;
  GtkWidget   *hide_check;
  GtkListBox  *list;
  GtkListBox  *failures; /* the folder's files that did not load (the rest of the set works) */
  GtkWidget   *failures_title;
  GtkListBox  *runs;
  GtkWidget   *rank_box; /* the rank selector and its label: shown for a multi-GPU run */
  GtkDropDown *ranks;    /* "rank 0 of 2", ...: the rank every view shows */
  GArray      *rank_ids; /* guint32: the rank of each item of @ranks */
};

G_DEFINE_FINAL_TYPE (WbSidebar, wb_sidebar, GTK_TYPE_WIDGET)

static GtkWidget *
make_label (const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
make_row (WbDocument *document, guint i)
{
  const WbTraceEntry *e = wb_trace_set_get_entry (wb_document_get_trace_set (document), i);
  const WbStage      *stage = wb_document_get_stage (document, i);
  const WbTrace      *t = e->trace;
  GtkWidget          *row = gtk_list_box_row_new ();
  GtkWidget          *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget          *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_autofree char    *title = NULL;
  g_autofree char    *details = NULL;
  const char         *what;
  double              ms = stage ? wb_stage_get_ms (stage) : t->provenance_ms;

  if (stage != NULL)
    title = g_strdup_printf ("%s %d", wb_stage_list_to_string (wb_stage_get_list (stage)), e->index);
  else if (e->index >= 0)
    title = g_strdup_printf ("%s %d", wb_trace_kind_to_string (e->kind), e->index);
  else
    title = g_strdup (wb_trace_kind_to_string (e->kind));
  what = e->label ? e->label : t->provenance ? t->provenance
                                             : _ ("No provenance line");
  if (ms >= 0)
    /* TRANSLATORS: a stage in the sidebar: number of bound symbols, milliseconds the pass took */
    details = g_strdup_printf (_ ("%u bound symbols · %.1f ms"), wb_trace_count_bsyms (t), ms);
  else
    details = g_strdup_printf (_ ("%u bound symbols"), wb_trace_count_bsyms (t));

  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_box_append (GTK_BOX (top), make_label (title, "heading"));
  if (stage != NULL)
    {
      /* TRANSLATORS: marks a stage the workbench computed (not loaded from Thunder) */
      GtkWidget *mark = make_label (_ ("computed"), "caption");

      gtk_widget_add_css_class (mark, "accent");
      gtk_box_append (GTK_BOX (top), mark);
    }
  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), make_label (what, NULL));
  gtk_box_append (GTK_BOX (box), make_label (details, "dim-label"));
  gtk_widget_set_tooltip_text (row, e->path);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
update_header (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  WbSidebar          *self = user_data;
  const WbTraceSet   *set = wb_document_get_trace_set (self->document);
  const WbTraceEntry *e = wb_trace_set_get_entry (set, gtk_list_box_row_get_index (row));
  const WbTraceEntry *prev = before ? wb_trace_set_get_entry (set, gtk_list_box_row_get_index (before)) : NULL;
  GtkWidget          *header;
  const char         *name;

  if (prev != NULL && g_strcmp0 (prev->subset, e->subset) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  if (g_strcmp0 (e->subset, "workbench") == 0)
    name = _ ("Workbench stages");
  else if (e->subset == NULL || e->subset[0] == '\0')
    name = _ ("Thunder's traces");
  else
    name = e->subset;
  header = make_label (name, "heading");
  gtk_widget_add_css_class (header, "dim-label");
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_top (header, 12);
  gtk_widget_set_margin_bottom (header, 4);
  gtk_list_box_row_set_header (row, header);
}

static gboolean
filter_row (GtkListBoxRow *row, gpointer user_data)
{
  WbSidebar *self = user_data;
  int        i = gtk_list_box_row_get_index (row);

  return !self->hide_unchanged || self->unchanged == NULL || !self->unchanged[i];
}

static void
row_selected_cb (GtkListBox *list, GtkListBoxRow *row, WbSidebar *self)
{
  if (row != NULL && !self->syncing)
    wb_document_set_entry (self->document, gtk_list_box_row_get_index (row));
}

static void
selection_changed_cb (WbSidebar *self)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, wb_document_get_entry (self->document));

  if (row != NULL && row != gtk_list_box_get_selected_row (self->list))
    {
      self->syncing = TRUE;
      gtk_list_box_select_row (self->list, row);
      self->syncing = FALSE;
    }
}

static gboolean
same_items (GListModel *a, GListModel *b)
{
  if (a == NULL || g_list_model_get_n_items (a) != g_list_model_get_n_items (b))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (a); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (a), i), gtk_string_list_get_string (GTK_STRING_LIST (b), i)) != 0)
      return FALSE;
  return TRUE;
}

/* The rank selector: one item per rank of the latest run's group, the shown rank selected */
static void
update_ranks (WbSidebar *self)
{
  const char *group = wb_document_get_group (self->document);
  g_autoptr (GPtrArray) ranks = wb_document_get_group_runs (self->document, group);
  g_autoptr (GtkStringList) items = gtk_string_list_new (NULL);
  guint selected = 0;

  g_array_set_size (self->rank_ids, 0);
  for (guint i = 0; i < ranks->len; i++)
    {
      const WbRun *run = ranks->pdata[i];
      /* TRANSLATORS: the rank selector of a multi-GPU run: this rank, the number of ranks */
      g_autofree char *label = g_strdup_printf (_ ("rank %u of %u"), run->rank, MAX (run->world_size, ranks->len));

      if (self->rank_ids->len > 0 && g_array_index (self->rank_ids, guint32, self->rank_ids->len - 1) == run->rank)
        continue; /* a rank twice: one item */
      if (run->rank == wb_document_get_rank (self->document))
        selected = self->rank_ids->len;
      gtk_string_list_append (items, label);
      g_array_append_val (self->rank_ids, run->rank);
    }
  self->syncing = TRUE;
  /* the same ranks (another rank chosen): keep the model, which the drop-down may be using right now */
  if (!same_items (gtk_drop_down_get_model (self->ranks), G_LIST_MODEL (items)))
    gtk_drop_down_set_model (self->ranks, G_LIST_MODEL (items));
  if (self->rank_ids->len > 0)
    gtk_drop_down_set_selected (self->ranks, selected);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->rank_box, self->rank_ids->len > 0);
}

static void
rank_selected_cb (WbSidebar *self)
{
  guint i = gtk_drop_down_get_selected (self->ranks);

  if (self->syncing || self->document == NULL || i >= self->rank_ids->len)
    return;
  wb_document_set_rank (self->document, g_array_index (self->rank_ids, guint32, i));
}

GtkDropDown *
wb_sidebar_get_rank_selector (WbSidebar *self)
{
  g_return_val_if_fail (WB_IS_SIDEBAR (self), NULL);
  return gtk_widget_get_visible (self->rank_box) ? self->ranks : NULL;
}

static void
runs_changed_cb (WbSidebar *self)
{
  GPtrArray *runs = wb_document_get_runs (self->document);
  GtkWidget *child;

  update_ranks (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->runs))) != NULL)
    gtk_list_box_remove (self->runs, child);
  for (guint i = 0; i < runs->len; i++)
    {
      const WbRun     *run = runs->pdata[i];
      GtkWidget       *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_autofree char *title = wb_document_dup_run_label (self->document, i);
      g_autofree char *details = g_strdup_printf (_ ("%.1f ms per iteration · %s"), wb_run_get_iteration_median_ns (run) / 1e6,
                                                  run->assignment ? run->assignment : _ ("default executors"));

      gtk_widget_set_margin_top (box, 4);
      gtk_widget_set_margin_bottom (box, 4);
      gtk_box_append (GTK_BOX (box), make_label (title, "heading"));
      gtk_box_append (GTK_BOX (box), make_label (details, "dim-label"));
      gtk_list_box_append (self->runs, box);
    }
}

/* One row per file of the folder that did not load: its name, and the parser's message with its
 * FILE:LINE:COL (whole in the tooltip); a file holding only `None` says Thunder skipped the stage. */
static void
update_failures (WbSidebar *self, const WbTraceSet *set)
{
  guint      n = set ? wb_trace_set_get_n_failures (set) : 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->failures))) != NULL)
    gtk_list_box_remove (self->failures, child);
  for (guint i = 0; i < n; i++)
    {
      const WbTraceFailure *f = wb_trace_set_get_failure (set, i);
      GtkWidget            *row = gtk_list_box_row_new ();
      GtkWidget            *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_autofree char      *name = g_path_get_basename (f->path);
      GtkWidget            *message;
      const char           *shown = f->message;

      gtk_widget_set_margin_top (box, 4);
      gtk_widget_set_margin_bottom (box, 4);
      gtk_box_append (GTK_BOX (box), make_label (name, "heading"));
      /* the heading names the file: the message shows LINE:COL: what, wrapped (the tooltip has it whole) */
      if (g_str_has_prefix (f->message, f->path) && f->message[strlen (f->path)] == ':')
        shown = f->message + strlen (f->path) + 1;
      /* TRANSLATORS: a file of the folder that holds `None` instead of a trace */
      message = make_label (f->not_a_trace ? _ ("Not a trace: Thunder skipped this stage") : shown,
                            f->not_a_trace ? "dim-label" : "error");
      gtk_label_set_ellipsize (GTK_LABEL (message), PANGO_ELLIPSIZE_NONE);
      gtk_label_set_wrap (GTK_LABEL (message), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (message), 30);
      gtk_box_append (GTK_BOX (box), message);
      gtk_widget_set_tooltip_text (row, f->message);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (self->failures, row);
    }
  gtk_widget_set_visible (self->failures_title, n > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->failures), n > 0);
}

static void
document_changed_cb (WbSidebar *self)
{
  const WbTraceSet *set = wb_document_get_trace_set (self->document);
  GtkWidget        *child;
  guint             n = set ? wb_trace_set_get_n_entries (set) : 0;

  self->syncing = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_free (self->unchanged);
  self->unchanged = g_new0 (guint8, n + 1);
  for (guint i = 0; i < n; i++)
    {
      int prev = wb_document_get_previous (self->document, i);

      if (prev >= 0)
        {
          g_autofree char *a = wb_trace_to_string (wb_trace_set_get_entry (set, prev)->trace);
          g_autofree char *b = wb_trace_to_string (wb_trace_set_get_entry (set, i)->trace);

          self->unchanged[i] = g_strcmp0 (a, b) == 0;
        }
      gtk_list_box_append (self->list, make_row (self->document, i));
    }
  self->syncing = FALSE;
  update_failures (self, set);
  selection_changed_cb (self);
}

gboolean
wb_sidebar_step (WbSidebar *self, int delta)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list);
  int            i = row ? gtk_list_box_row_get_index (row) : -1;

  g_return_val_if_fail (WB_IS_SIDEBAR (self), FALSE);

  for (i += delta; (row = gtk_list_box_get_row_at_index (self->list, i)) != NULL; i += delta)
    if (gtk_widget_get_child_visible (GTK_WIDGET (row)) && filter_row (row, self))
      {
        gtk_list_box_select_row (self->list, row);
        return TRUE;
      }
  return FALSE;
}

void
wb_sidebar_set_hide_unchanged (WbSidebar *self, gboolean hide)
{
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->hide_check), hide);
}

guint
wb_sidebar_get_n_visible (WbSidebar *self)
{
  guint          n = 0;
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->list, i)) != NULL; i++)
    n += filter_row (row, self);
  return n;
}

static void
hide_toggled_cb (GtkCheckButton *check, WbSidebar *self)
{
  self->hide_unchanged = gtk_check_button_get_active (check);
  gtk_list_box_invalidate_filter (self->list);
}

void
wb_sidebar_set_document (WbSidebar *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_SIDEBAR (self));

  g_set_object (&self->document, document);
  g_signal_connect_object (document, "changed", G_CALLBACK (document_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "selection-changed", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "runs-changed", G_CALLBACK (runs_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkListBox *
wb_sidebar_get_failure_list (WbSidebar *self)
{
  g_return_val_if_fail (WB_IS_SIDEBAR (self), NULL);
  return self->failures;
}

GtkWidget *
wb_sidebar_new (void)
{
  return g_object_new (WB_TYPE_SIDEBAR, NULL);
}

static void
wb_sidebar_dispose (GObject *object)
{
  WbSidebar *self = WB_SIDEBAR (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->document);
  g_clear_pointer (&self->unchanged, g_free);
  g_clear_pointer (&self->rank_ids, g_array_unref);

  G_OBJECT_CLASS (wb_sidebar_parent_class)->dispose (object);
}

static void
wb_sidebar_class_init (WbSidebarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = wb_sidebar_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "wbsidebar");
}

static void
wb_sidebar_init (WbSidebar *self)
{
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *runs_title = make_label (_ ("Runs"), "heading");

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->hide_check = gtk_check_button_new_with_mnemonic (_ ("_Hide stages that changed nothing"));
  gtk_widget_set_margin_start (self->hide_check, 8);
  gtk_widget_set_margin_top (self->hide_check, 4);
  gtk_widget_set_margin_bottom (self->hide_check, 4);
  g_signal_connect (self->hide_check, "toggled", G_CALLBACK (hide_toggled_cb), self);
  gtk_box_append (GTK_BOX (self->box), self->hide_check);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_BROWSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "navigation-sidebar");
  gtk_list_box_set_header_func (self->list, update_header, self, NULL);
  gtk_list_box_set_filter_func (self->list, filter_row, self, NULL);
  g_signal_connect (self->list, "row-selected", G_CALLBACK (row_selected_cb), self);
  self->failures_title = make_label (_ ("Files that did not load"), "heading");
  gtk_widget_add_css_class (self->failures_title, "dim-label");
  gtk_widget_set_margin_start (self->failures_title, 12);
  gtk_widget_set_margin_top (self->failures_title, 12);
  gtk_widget_set_visible (self->failures_title, FALSE);
  self->failures = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->failures, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->failures), "navigation-sidebar");
  gtk_widget_set_visible (GTK_WIDGET (self->failures), FALSE);
  self->runs = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->runs, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->runs), "navigation-sidebar");
  gtk_widget_add_css_class (runs_title, "dim-label");
  gtk_widget_set_margin_start (runs_title, 12);
  gtk_widget_set_margin_top (runs_title, 12);

  /* the files that did not load come first: a user opening a folder must see that it is incomplete */
  gtk_box_append (GTK_BOX (inner), self->failures_title);
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (self->failures));
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (self->list));
  gtk_box_append (GTK_BOX (inner), runs_title);
  /* a multi-GPU run: which rank every view shows, above the lists so that it is always in sight */
  self->rank_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->rank_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (self->rank_box, 12);
  gtk_widget_set_margin_end (self->rank_box, 12);
  gtk_widget_set_margin_top (self->rank_box, 4);
  gtk_widget_set_margin_bottom (self->rank_box, 4);
  /* TRANSLATORS: label of the rank selector of a multi-GPU run */
  gtk_box_append (GTK_BOX (self->rank_box), make_label (_ ("Showing"), "dim-label"));
  self->ranks = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->ranks), TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->ranks), _ ("The rank of the multi-GPU run that every view shows"));
  g_signal_connect_swapped (self->ranks, "notify::selected", G_CALLBACK (rank_selected_cb), self);
  gtk_box_append (GTK_BOX (self->rank_box), GTK_WIDGET (self->ranks));
  gtk_widget_set_visible (self->rank_box, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->rank_box);
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (self->runs));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), inner);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_box_append (GTK_BOX (self->box), scroll);
}
