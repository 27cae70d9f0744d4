/* wb-symbol-view.c — the shown stage by symbol: all calls of one symbol together, with callers and callees
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As Sysprof's callers and callees view does for functions: a table of the stage's symbols (calls at the
 * top level and in regions' bodies, the latest run's kernel time on its calls when the run timed this
 * stage, bytes from the static cost model), sortable by every column; below it, for the selected symbol,
 * the regions that hold its calls (callers) and what its calls decompose into (callees). The sums are
 * WbAggregateRow's (data/wb-aggregate.c, tested without a display). */
#include "config.h"

#include <glib/gi18n.h>

#include "wb-data.h"
#include "wb-views.h"

enum
{
  COL_NAME,
  COL_CALLS,
  COL_IN_REGIONS,
  COL_KERNELS,
  COL_MS,
  COL_BYTES,
  N_COLS
};

struct _WbSymbolView
{
  GtkWidget parent_instance;

  WbDocument   *document;
  WbTrace      *trace; /* the stage summed (a reference) */
  GPtrArray    *rows;  /* WbAggregateRow */
  GtkListStore *store, *callers, *callees;
  GtkTreeView  *view, *callers_view, *callees_view;
  GtkLabel     *info;
  char         *selected;
};

G_DEFINE_FINAL_TYPE (WbSymbolView, wb_symbol_view, GTK_TYPE_WIDGET)

static void
fill_links (GtkListStore *store, GPtrArray *links)
{
  gtk_list_store_clear (store);
  for (guint i = 0; links != NULL && i < links->len; i++)
    {
      const WbAggregateRow *link = links->pdata[i];

      gtk_list_store_insert_with_values (store, NULL, -1, 0, link->key, 1, link->calls, -1);
    }
}

void
wb_symbol_view_select (WbSymbolView *self, const char *key)
{
  const WbAggregateRow *row;

  g_return_if_fail (WB_IS_SYMBOL_VIEW (self));

  row = wb_aggregate_find (self->rows, key);
  g_free (self->selected);
  self->selected = row ? g_strdup (key) : NULL;
  fill_links (self->callers, row ? row->callers : NULL);
  fill_links (self->callees, row ? row->callees : NULL);
}

static void
selection_cb (GtkTreeSelection *selection, WbSymbolView *self)
{
  GtkTreeModel    *model;
  GtkTreeIter      iter;
  g_autofree char *key = NULL;

  if (!gtk_tree_selection_get_selected (selection, &model, &iter))
    return;
  gtk_tree_model_get (model, &iter, COL_NAME, &key, -1);
  wb_symbol_view_select (self, key);
}

/* the run's times count only on the stage it ran: its kernel lines are that stage's */
static const WbRun *
run_of_stage (WbSymbolView *self)
{
  guint entry = wb_document_get_entry (self->document);

  return (int) entry == wb_document_get_run_entry (self->document) ? wb_document_get_run (self->document) : NULL;
}

static void
rebuild (WbSymbolView *self)
{
  const WbTraceSet *set = self->document ? wb_document_get_trace_set (self->document) : NULL;
  guint             entry = self->document ? wb_document_get_entry (self->document) : 0;
  WbTrace          *trace = set && entry < wb_trace_set_get_n_entries (set) ? wb_trace_set_get_entry (set, entry)->trace : NULL;
  const WbRun      *run = trace ? run_of_stage (self) : NULL;
  g_autofree char  *text = NULL;

  g_clear_pointer (&self->trace, wb_trace_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  gtk_list_store_clear (self->store);
  if (trace != NULL)
    {
      self->trace = wb_trace_ref (trace);
      self->rows = wb_aggregate_by_symbol (trace, run);
      for (guint i = 0; i < self->rows->len; i++)
        {
          const WbAggregateRow *r = self->rows->pdata[i];

          gtk_list_store_insert_with_values (self->store, NULL, -1, COL_NAME, r->key, COL_CALLS, r->calls, COL_IN_REGIONS,
                                             r->calls_in_regions, COL_KERNELS, r->kernels, COL_MS, run ? r->time_ns / 1e6 : -1.0,
                                             COL_BYTES, (guint64) r->bytes, -1);
        }
      /* TRANSLATORS: the symbol view's status: symbols, and whether the latest run's times are shown */
      text = g_strdup_printf (_ ("%u symbols · %s"), self->rows->len,
                              run ? _ ("times of the latest run, per iteration") : _ ("no run of this stage: counts and bytes only"));
    }
  gtk_label_set_text (self->info, text ? text : "");
  wb_symbol_view_select (self, self->selected);
}

static void
ms_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter, gpointer data)
{
  double ms;
  char   text[32] = "";

  gtk_tree_model_get (model, iter, COL_MS, &ms, -1);
  if (ms >= 0)
    g_snprintf (text, sizeof text, "%.4f", ms);
  g_object_set (cell, "text", text, NULL);
}

static void
bytes_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter, gpointer data)
{
  guint64          bytes;
  g_autofree char *text = NULL;

  gtk_tree_model_get (model, iter, COL_BYTES, &bytes, -1);
  text = g_format_size (bytes);
  g_object_set (cell, "text", text, NULL);
}

static void
add_column (GtkTreeView *view, const char *title, int col, GtkTreeCellDataFunc func)
{
  GtkCellRenderer   *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column = gtk_tree_view_column_new ();

  gtk_tree_view_column_set_title (column, title);
  gtk_tree_view_column_pack_start (column, cell, TRUE);
  if (func != NULL)
    gtk_tree_view_column_set_cell_data_func (column, cell, func, NULL, NULL);
  else
    gtk_tree_view_column_add_attribute (column, cell, "text", col);
  if (col != COL_NAME)
    g_object_set (cell, "xalign", 1.0, NULL);
  gtk_tree_view_column_set_sort_column_id (column, col);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_expand (column, col == COL_NAME);
  gtk_tree_view_append_column (view, column);
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *s = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (s), child);
  gtk_widget_set_vexpand (s, TRUE);
  gtk_widget_set_hexpand (s, TRUE);
  return s;
}

/* a table of names and call counts: the callers or the callees */
static GtkTreeView *
link_view (GtkListStore *store, const char *title)
{
  GtkTreeView *view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (store)));

  add_column (view, title, COL_NAME, NULL);
  add_column (view, _ ("Calls"), 1, NULL);
  return view;
}

/* another stage shown: sum it (a new bound symbol selected in the same stage changes nothing here) */
static void
selection_changed_cb (WbSymbolView *self)
{
  const WbTraceSet *set = wb_document_get_trace_set (self->document);
  guint             entry = wb_document_get_entry (self->document);

  if (set != NULL && entry < wb_trace_set_get_n_entries (set) && wb_trace_set_get_entry (set, entry)->trace == self->trace)
    return;
  rebuild (self);
}

/* -- public --------------------------------------------------------------------------------------- */

guint
wb_symbol_view_get_n_rows (WbSymbolView *self)
{
  return self->rows ? self->rows->len : 0;
}

const WbAggregateRow *
wb_symbol_view_get_row (WbSymbolView *self, const char *key)
{
  return wb_aggregate_find (self->rows, key);
}

guint
wb_symbol_view_get_n_callers (WbSymbolView *self)
{
  return gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->callers), NULL);
}

guint
wb_symbol_view_get_n_callees (WbSymbolView *self)
{
  return gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->callees), NULL);
}

void
wb_symbol_view_set_document (WbSymbolView *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_SYMBOL_VIEW (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_signal_connect_swapped (document, "changed", G_CALLBACK (rebuild), self);
  g_signal_connect_swapped (document, "runs-changed", G_CALLBACK (rebuild), self);
  g_signal_connect_swapped (document, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  rebuild (self);
}

GtkWidget *
wb_symbol_view_new (void)
{
  return g_object_new (WB_TYPE_SYMBOL_VIEW, NULL);
}

static void
wb_symbol_view_dispose (GObject *object)
{
  WbSymbolView *self = WB_SYMBOL_VIEW (object);
  GtkWidget    *child;

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->trace, wb_trace_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_object (&self->store);
  g_clear_object (&self->callers);
  g_clear_object (&self->callees);
  g_clear_pointer (&self->selected, g_free);

  G_OBJECT_CLASS (wb_symbol_view_parent_class)->dispose (object);
}

static void
wb_symbol_view_class_init (WbSymbolViewClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = wb_symbol_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
wb_symbol_view_init (WbSymbolView *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *links = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_UINT64);
  self->callers = gtk_list_store_new (2, G_TYPE_STRING, G_TYPE_UINT);
  self->callees = gtk_list_store_new (2, G_TYPE_STRING, G_TYPE_UINT);

  self->info = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->info, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->info), "dim-label");
  gtk_widget_set_margin_start (GTK_WIDGET (self->info), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->info), 3);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->info), 3);
  gtk_widget_set_parent (GTK_WIDGET (self->info), GTK_WIDGET (self));

  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  add_column (self->view, _ ("Symbol"), COL_NAME, NULL);
  add_column (self->view, _ ("Calls"), COL_CALLS, NULL);
  add_column (self->view, _ ("In Regions"), COL_IN_REGIONS, NULL);
  add_column (self->view, _ ("Kernels"), COL_KERNELS, NULL);
  add_column (self->view, _ ("Time (ms)"), COL_MS, ms_cell);
  add_column (self->view, _ ("Bytes"), COL_BYTES, bytes_cell);
  g_signal_connect (gtk_tree_view_get_selection (self->view), "changed", G_CALLBACK (selection_cb), self);
  self->callers_view = link_view (self->callers, _ ("Callers (regions holding it)"));
  self->callees_view = link_view (self->callees, _ ("Callees (what it decomposes into)"));

  gtk_paned_set_start_child (GTK_PANED (links), scrolled (GTK_WIDGET (self->callers_view)));
  gtk_paned_set_end_child (GTK_PANED (links), scrolled (GTK_WIDGET (self->callees_view)));
  gtk_paned_set_start_child (GTK_PANED (paned), scrolled (GTK_WIDGET (self->view)));
  gtk_paned_set_end_child (GTK_PANED (paned), links);
  gtk_paned_set_position (GTK_PANED (paned), 380);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_widget_set_parent (paned, GTK_WIDGET (self));
}
