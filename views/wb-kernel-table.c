/* wb-kernel-table.c — the latest run's kernel records in a table sortable by every column
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "wb-views.h"

/* WbKernelItem: one row; owns a copy of its record (runs are replaced when a case is reopened). */
#define WB_TYPE_KERNEL_ITEM (wb_kernel_item_get_type ())
G_DECLARE_FINAL_TYPE (WbKernelItem, wb_kernel_item, WB, KERNEL_ITEM, GObject)

struct _WbKernelItem
{
  GObject         parent_instance;
  WbKernelRecord *record;
  gboolean        communication; /* an NCCL kernel, or one of a collective call (wb_kernel_record_is_communication) */
};

G_DEFINE_FINAL_TYPE (WbKernelItem, wb_kernel_item, G_TYPE_OBJECT)

static void
wb_kernel_item_finalize (GObject *object)
{
  g_clear_pointer (&WB_KERNEL_ITEM (object)->record, wb_kernel_record_free);
  G_OBJECT_CLASS (wb_kernel_item_parent_class)->finalize (object);
}

static void
wb_kernel_item_class_init (WbKernelItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = wb_kernel_item_finalize;
}

static void
wb_kernel_item_init (WbKernelItem *self)
{
}

struct _WbKernelTable
{
  GtkWidget parent_instance;

  WbDocument          *document;
  GListStore          *store;
  GtkSortListModel    *sorted;
  GtkSingleSelection  *selection;
  GtkColumnView       *view;
  GtkColumnViewColumn *columns[WB_KERNEL_N_COLUMNS];
  gboolean             updating;
};

G_DEFINE_FINAL_TYPE (WbKernelTable, wb_kernel_table, GTK_TYPE_WIDGET)

static const char *column_titles[WB_KERNEL_N_COLUMNS] = {
  N_ ("Kernel"),
  N_ ("Region"),
  N_ ("Line"),
  N_ ("Stream"),
  N_ ("Grid"),
  N_ ("Block"),
  N_ ("Registers"),
  N_ ("Shared Memory"),
  N_ ("Duration"),
  /* TRANSLATORS: column of the kernel table: "collective" (communication) or "compute" */
  N_ ("Kind"),
};

static guint64
volume (const guint32 *v)
{
  return (guint64) v[0] * v[1] * v[2];
}

static int
cmp_u64 (guint64 a, guint64 b)
{
  return a < b ? -1 : a > b;
}

static int
compare (gconstpointer a, gconstpointer b, gpointer data)
{
  const WbKernelRecord *x = WB_KERNEL_ITEM ((gpointer) a)->record, *y = WB_KERNEL_ITEM ((gpointer) b)->record;

  switch ((WbKernelColumn) GPOINTER_TO_INT (data))
    {
    case WB_KERNEL_COLUMN_NAME:
      return g_strcmp0 (x->name, y->name);
    case WB_KERNEL_COLUMN_REGION:
      return g_strcmp0 (x->region, y->region);
    case WB_KERNEL_COLUMN_LINE:
      return cmp_u64 (x->trace_line, y->trace_line);
    case WB_KERNEL_COLUMN_STREAM:
      return cmp_u64 (x->stream, y->stream);
    case WB_KERNEL_COLUMN_GRID:
      return cmp_u64 (volume (x->grid), volume (y->grid));
    case WB_KERNEL_COLUMN_BLOCK:
      return cmp_u64 (volume (x->block), volume (y->block));
    case WB_KERNEL_COLUMN_REGISTERS:
      return cmp_u64 (x->registers, y->registers);
    case WB_KERNEL_COLUMN_SHARED:
      return cmp_u64 (x->shared_bytes, y->shared_bytes);
    case WB_KERNEL_COLUMN_DURATION:
      return cmp_u64 (x->end_ns - x->start_ns, y->end_ns - y->start_ns);
    case WB_KERNEL_COLUMN_KIND:
      return cmp_u64 (WB_KERNEL_ITEM ((gpointer) a)->communication, WB_KERNEL_ITEM ((gpointer) b)->communication);
    default:
      return 0;
    }
}

static char *
cell_text (const WbKernelItem *item, WbKernelColumn column)
{
  const WbKernelRecord *k = item->record;

  switch (column)
    {
    case WB_KERNEL_COLUMN_KIND:
      /* TRANSLATORS: the Kind of a kernel: communication (NCCL) or computation */
      return g_strdup (item->communication ? _ ("collective") : _ ("compute"));
    case WB_KERNEL_COLUMN_NAME:
      return g_strdup (k->name);
    case WB_KERNEL_COLUMN_REGION:
      return g_strdup (k->region ? k->region : "—");
    case WB_KERNEL_COLUMN_LINE:
      return k->trace_line ? g_strdup_printf ("%u", k->trace_line) : g_strdup ("—");
    case WB_KERNEL_COLUMN_STREAM:
      return g_strdup_printf ("%u", k->stream);
    case WB_KERNEL_COLUMN_GRID:
      return g_strdup_printf ("%u×%u×%u", k->grid[0], k->grid[1], k->grid[2]);
    case WB_KERNEL_COLUMN_BLOCK:
      return g_strdup_printf ("%u×%u×%u", k->block[0], k->block[1], k->block[2]);
    case WB_KERNEL_COLUMN_REGISTERS:
      return g_strdup_printf ("%u", k->registers);
    case WB_KERNEL_COLUMN_SHARED:
      return g_strdup_printf ("%u B", k->shared_bytes);
    /* TRANSLATORS: a kernel's duration, milliseconds */
    case WB_KERNEL_COLUMN_DURATION:
      return g_strdup_printf (_ ("%.4f ms"), (k->end_ns - k->start_ns) / 1e6);
    default:
      return g_strdup ("");
    }
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  int        column = GPOINTER_TO_INT (data);

  gtk_label_set_xalign (GTK_LABEL (label), column <= WB_KERNEL_COLUMN_REGION || column == WB_KERNEL_COLUMN_KIND ? 0 : 1);
  if (column == WB_KERNEL_COLUMN_NAME || column == WB_KERNEL_COLUMN_REGION)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  WbKernelItem    *row = gtk_list_item_get_item (item);
  g_autofree char *text = cell_text (row, GPOINTER_TO_INT (data));
  int              column = GPOINTER_TO_INT (data);

  if (row->communication && (column == WB_KERNEL_COLUMN_KIND || column == WB_KERNEL_COLUMN_NAME))
    {
      /* communication kernels in the collectives' colour, as in the timeline */
      g_autofree char *markup = g_markup_printf_escaped ("<span foreground=\"%s\">%s</span>", WB_COLLECTIVE_COLOR, text);

      gtk_label_set_markup (GTK_LABEL (gtk_list_item_get_child (item)), markup);
    }
  else
    gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
rebuild (WbKernelTable *self)
{
  const WbRun *run = self->document ? wb_document_get_run (self->document) : NULL;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree gboolean *comm = run != NULL && run->kernels != NULL ? wb_run_dup_communication_flags (run) : NULL;

  for (guint i = 0; comm != NULL && i < run->kernels->len; i++)
    {
      WbKernelItem *item = g_object_new (WB_TYPE_KERNEL_ITEM, NULL);

      item->record = wb_kernel_record_copy (run->kernels->pdata[i]);
      item->communication = comm[i];
      g_ptr_array_add (items, item);
    }
  self->updating = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), items->pdata, items->len);
  self->updating = FALSE;
}

static void
selected_cb (WbKernelTable *self)
{
  WbKernelItem *item = gtk_single_selection_get_selected_item (self->selection);

  if (self->updating || item == NULL || self->document == NULL)
    return;
  wb_document_select_kernel (self->document, item->record);
}

guint
wb_kernel_table_get_n_rows (WbKernelTable *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

const WbKernelRecord *
wb_kernel_table_get_row (WbKernelTable *self, guint row)
{
  g_autoptr (WbKernelItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);

  return item ? item->record : NULL;
}

char *
wb_kernel_table_dup_cell (WbKernelTable *self, guint row, WbKernelColumn column)
{
  g_autoptr (WbKernelItem) item = NULL;

  g_return_val_if_fail (WB_IS_KERNEL_TABLE (self), NULL);
  g_return_val_if_fail (column < WB_KERNEL_N_COLUMNS, NULL);
  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);
  return item != NULL ? cell_text (item, column) : NULL;
}

void
wb_kernel_table_sort (WbKernelTable *self, WbKernelColumn column, gboolean descending)
{
  g_return_if_fail (column < WB_KERNEL_N_COLUMNS);

  gtk_column_view_sort_by_column (self->view, self->columns[column],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

void
wb_kernel_table_set_document (WbKernelTable *self, WbDocument *document)
{
  g_return_if_fail (WB_IS_KERNEL_TABLE (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_signal_connect_swapped (document, "runs-changed", G_CALLBACK (rebuild), self);
  rebuild (self);
}

GtkWidget *
wb_kernel_table_new (void)
{
  return g_object_new (WB_TYPE_KERNEL_TABLE, NULL);
}

static void
wb_kernel_table_dispose (GObject *object)
{
  WbKernelTable *self = WB_KERNEL_TABLE (object);
  GtkWidget     *child;

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);

  G_OBJECT_CLASS (wb_kernel_table_parent_class)->dispose (object);
}

static void
wb_kernel_table_class_init (WbKernelTableClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = wb_kernel_table_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
wb_kernel_table_init (WbKernelTable *self)
{
  GtkWidget *scroll = gtk_scrolled_window_new ();

  self->store = g_list_store_new (WB_TYPE_KERNEL_ITEM);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  for (int c = 0; c < WB_KERNEL_N_COLUMNS; c++)
    {
      GtkListItemFactory  *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_ (column_titles[c]), factory);
      gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_custom_sorter_new (compare, GINT_TO_POINTER (c), NULL)));
      gtk_column_view_column_set_resizable (column, TRUE);
      if (c == WB_KERNEL_COLUMN_NAME)
        gtk_column_view_column_set_expand (column, TRUE);
      if (c <= WB_KERNEL_COLUMN_REGION)
        gtk_column_view_column_set_fixed_width (column, 260);
      gtk_column_view_append_column (self->view, column);
      self->columns[c] = column;
      g_object_unref (column);
    }
  /* the store (owned by the sort model), sorted by the view's sorter */
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->store), g_object_ref (gtk_column_view_get_sorter (self->view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selected_cb), self);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_widget_set_parent (scroll, GTK_WIDGET (self));
}
