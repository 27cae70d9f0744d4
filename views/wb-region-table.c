/* wb-region-table.c — the regions with their executor choice and run figures, and the selected region's page
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "wb-data.h"
#include "wb-region-table-private.h"

G_DEFINE_FINAL_TYPE (WbRegionTable, wb_region_table, GTK_TYPE_WIDGET)

const char *const *
wb_region_table_get_choices (void)
{
  static char **choices;

  if (g_once_init_enter (&choices))
    {
      const char *first = wb_executor_info_get_name (wb_executor_info_get_default (TRUE));
      g_auto (GStrv) runnable = wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE);
      GPtrArray *list = g_ptr_array_new ();

      g_ptr_array_add (list, g_strdup (first));
      g_ptr_array_add (list, g_strdup (WB_REGION_TABLE_UNFUSE));
      for (guint i = 0; runnable[i] != NULL; i++)
        if (strcmp (runnable[i], first) != 0)
          g_ptr_array_add (list, g_strdup (runnable[i]));
      g_ptr_array_add (list, NULL);
      g_once_init_leave (&choices, (char **) g_ptr_array_free (list, FALSE));
    }
  return (const char *const *) choices;
}

enum
{
  COL_REGION,
  COL_EXECUTOR,
  COL_OPS,
  COL_BYTES,
  COL_TIME,
  COL_DELTA,
  COL_SHARE,
  COL_GBPS,
  COL_TFLOPS,
  COL_KIND, /* fusion, collective or another call */
  N_COLS
};

/* -- data by name --------------------------------------------------------------------------------- */

/* The row @name's figures in the latest run; with @previous, the same region's in the run before: matched
 * by key (the region keeps it when re-fusion renumbers regions), by name only for runs without keys. */
const WbRegionStats *
_wb_region_table_stats_of (WbRegionTable *self, const char *name, gboolean previous)
{
  const WbRun         *run = wb_document_get_run (self->document);
  const WbRun         *prev = wb_document_get_previous_run (self->document);
  const WbRegionStats *s = run ? wb_run_find_region (run, name) : NULL;

  if (!previous)
    return s;
  if (prev == NULL)
    return NULL;
  return s != NULL ? wb_compare_match (s, prev, run) : wb_run_find_region (prev, name);
}

/* "Δ previous": the change of the median with the noise verdict, or why there is none */
static char *
delta_text (const WbRegionStats *s, const WbRegionStats *p, const WbRun *prev, gboolean have_previous)
{
  double      pct;
  const char *verdict;

  if (s == NULL || !have_previous)
    return g_strdup ("");
  if (p == NULL && prev != NULL && wb_compare_unfused_from (s, prev) != NULL)
    /* TRANSLATORS: Δ previous: the call ran inside a fusion region in the run before; the assignment unfused it */
    return g_strdup (_ ("unfused"));
  if (p == NULL && prev != NULL && wb_compare_unfused_in (s, prev))
    /* TRANSLATORS: Δ previous: the region's calls ran one by one in the run before; now fused again */
    return g_strdup (_ ("fused"));
  if (p == NULL)
    /* TRANSLATORS: Δ previous: the region is not in the run before */
    return g_strdup (_ ("new"));
  if (s->contents != NULL && p->contents != NULL && strcmp (s->contents, p->contents) != 0)
    /* TRANSLATORS: Δ previous: the same region (by key) computes other bound symbols now: times not comparable */
    return g_strdup (_ ("changed contents"));
  if (p->median_ns == 0)
    return g_strdup ("");
  pct = 100.0 * (s->median_ns - p->median_ns) / p->median_ns;
  switch (wb_compare_verdict (p->times_ns, s->times_ns, NULL))
    {
    case WB_COMPARE_SLOWER:
      /* TRANSLATORS: Δ previous: +12.0% slower, beyond the noise */
      verdict = _ ("slower");
      break;
    case WB_COMPARE_FASTER:
      verdict = _ ("faster");
      break;
    case WB_COMPARE_WITHIN_NOISE:
      verdict = _ ("within noise");
      break;
    default:
      /* TRANSLATORS: Δ previous: fewer than 5 iterations in a run: no verdict */
      verdict = _ ("too few iterations");
      break;
    }
  return g_strdup_printf ("%+.1f%% %s", pct, verdict);
}

/* (nullable) the latest run when the rows are its own regions, not the pipeline's */
const WbRun *
_wb_region_table_own_run (WbRegionTable *self)
{
  return self->run_regions ? wb_document_get_run (self->document) : NULL;
}

/* the executor shown for @name: the pipeline's choice, or what ran it in a run of another stage */
static const char *
executor_of (WbRegionTable *self, const char *name)
{
  const WbRegion      *region = wb_document_lookup_region (self->document, name);
  const WbRegionStats *s;

  if (_wb_region_table_own_run (self) != NULL || region == NULL)
    return (s = _wb_region_table_stats_of (self, name, FALSE)) != NULL ? s->executor : NULL;
  return region->executor;
}

/* ops of @name: the pipeline region's, or those of the call that ran it in the run's stage; -1 unknown */
static int
ops_of (WbRegionTable *self, const char *name)
{
  const WbRun    *run = _wb_region_table_own_run (self);
  const WbRegion *region;
  const WbBsym   *call;
  int             n = 0;

  if (run == NULL)
    return (region = wb_document_lookup_region (self->document, name)) != NULL ? (int) region->n_ops : -1;
  if ((call = wb_document_find_run_call (self->document, run, name, NULL)) == NULL)
    return -1;
  for (guint i = 0; i < call->n_subsymbols; i++)
    n += call->subsymbols[i]->kind == WB_BSYM_CALL;
  return n;
}

void
_wb_region_table_collect (GHashTable *types, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];

      if (b->has_type && b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
        g_hash_table_insert (types, (gpointer) b->outputs->text, (gpointer) &b->type);
      _wb_region_table_collect (types, b->subsymbols, b->n_subsymbols);
    }
}

gboolean
_wb_region_table_can_take (WbRegionTable *self, const WbRegion *region, const char *executor, char **why_not)
{
  return wb_document_can_run (self->document, region, executor, why_not);
}

gboolean
wb_region_table_can_run (const WbPipeline *pipeline, const WbRegion *region, const char *executor, char **why_not)
{
  const WbExecutorInfo *info;
  g_autoptr (GHashTable) types = wb_executor_info_types_new (NULL);

  g_return_val_if_fail (pipeline != NULL && region != NULL && executor != NULL, FALSE);
  if (why_not != NULL)
    *why_not = NULL;
  if (strcmp (executor, WB_REGION_TABLE_UNFUSE) == 0)
    return TRUE;
  if ((info = wb_executor_info_lookup (executor)) == NULL)
    {
      if (why_not != NULL)
        *why_not = g_strdup_printf (_ ("%s: no such executor"), executor);
      return FALSE;
    }
  for (guint i = 0; i < wb_pipeline_get_n_stages (pipeline); i++)
    {
      WbTrace *t = wb_stage_get_trace (wb_pipeline_get_stage (pipeline, i));

      if (wb_trace_get_bsym_line (t, region->bsym) != 0)
        wb_executor_info_types_add (types, t);
    }
  return wb_executor_info_can_run (info, region->bsym, wb_executor_info_types_lookup, types, why_not);
}

static char *
format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* The row of what the run's calls do not cover (the interpreter's or the launches' own time between
 * them): the iteration's median less the calls' medians, so that the Share column adds up to 100%. */
static gboolean
other_row (WbRegionTable *self, double *share, gint64 *ns)
{
  const WbRun *run = wb_document_get_run (self->document);
  double       covered = 0;
  gint64       sum = 0, iteration;

  if (run == NULL)
    return FALSE;
  for (guint i = 0; i < run->regions->len; i++)
    {
      const WbRegionStats *r = run->regions->pdata[i];

      covered += r->share;
      sum += r->median_ns;
    }
  iteration = wb_run_get_iteration_median_ns (run);
  *share = MAX (0.0, 1.0 - covered);
  *ns = MAX (0, iteration - sum);
  return TRUE;
}

static char *
other_text (WbRegionTable *self, int column)
{
  double share;
  gint64 ns;

  if (!other_row (self, &share, &ns))
    return g_strdup ("");
  switch (column)
    {
    case COL_REGION:
      /* TRANSLATORS: a row of the Regions table: the iteration's time outside every timed call */
      return g_strdup (_ ("(between calls)"));
    case COL_TIME:
      return g_strdup_printf ("%.3f", ns / 1e6);
    case COL_SHARE:
      return g_strdup_printf ("%.1f%%", 100.0 * share);
    default:
      return g_strdup ("");
    }
}

/* what @name is: a collective (its own region kind, coloured so in every view), a fusion region, or
 * another timed call (transfer none) */
static const char *
kind_of (WbRegionTable *self, const char *name)
{
  const WbRegionStats *s = _wb_region_table_stats_of (self, name, FALSE);
  const char          *hash = strchr (name, '#');
  const WbSymbol      *symbol;

  if (wb_document_is_collective (self->document, name) || wb_run_region_is_collective (s))
    /* TRANSLATORS: the Kind of a row of the Regions table: a communication call (all_reduce, ...) */
    return _ ("collective");
  symbol = wb_symbol_lookup (name, hash ? (gsize) (hash - name) : strlen (name));
  if ((symbol != NULL && wb_symbol_is_fusion (symbol)) ||
      (_wb_region_table_own_run (self) == NULL && wb_document_lookup_region (self->document, name) != NULL))
    /* TRANSLATORS: the Kind of a row of the Regions table: a fusion region */
    return _ ("fusion");
  /* TRANSLATORS: the Kind of a row of the Regions table: another timed call (an op of an executor) */
  return _ ("call");
}

static char *
cell_text (WbRegionTable *self, const char *name, int column)
{
  int                  ops = column == COL_OPS ? ops_of (self, name) : -1;
  const WbRegionStats *s = _wb_region_table_stats_of (self, name, FALSE);
  const WbRegionStats *p = _wb_region_table_stats_of (self, name, TRUE);

  if (strcmp (name, WB_REGION_TABLE_OTHER) == 0)
    return other_text (self, column);
  switch (column)
    {
    case COL_REGION:
      return g_strdup (name);
    case COL_EXECUTOR:
      return g_strdup (executor_of (self, name) ? executor_of (self, name) : "");
    case COL_OPS:
      return ops >= 0 ? g_strdup_printf ("%d", ops) : g_strdup ("");
    case COL_BYTES:
      return s ? format_bytes (s->bytes_moved) : g_strdup ("–");
    case COL_TIME:
      return s ? g_strdup_printf ("%.3f", s->median_ns / 1e6) : g_strdup ("–");
    case COL_DELTA:
      return delta_text (s, p, wb_document_get_previous_run (self->document), wb_document_get_previous_run (self->document) != NULL);
    case COL_SHARE:
      return s ? g_strdup_printf ("%.1f%%", 100.0 * s->share) : g_strdup ("–");
    case COL_GBPS:
      return s && s->median_ns > 0 ? g_strdup_printf ("%.3g", s->bytes_moved / (double) s->median_ns) : g_strdup ("–");
    case COL_TFLOPS:
      return s && s->median_ns > 0 ? g_strdup_printf ("%.3g", s->flops / (double) s->median_ns / 1e3) : g_strdup ("–");
    case COL_KIND:
      return g_strdup (kind_of (self, name));
    default:
      return g_strdup ("");
    }
}

static double
cell_number (WbRegionTable *self, const char *name, int column)
{
  const WbRegionStats *s = _wb_region_table_stats_of (self, name, FALSE);
  double               share;
  gint64               ns;

  if (strcmp (name, WB_REGION_TABLE_OTHER) == 0 && other_row (self, &share, &ns))
    return column == COL_SHARE ? share : column == COL_TIME ? (double) ns
                                                            : 0;

  switch (column)
    {
    case COL_OPS:
      return MAX (ops_of (self, name), 0);
    case COL_BYTES:
      return s ? s->bytes_moved : 0;
    case COL_TIME:
    case COL_DELTA:
      return s ? s->median_ns : 0;
    case COL_SHARE:
      return s ? s->share : 0;
    case COL_GBPS:
      return s && s->median_ns ? s->bytes_moved / (double) s->median_ns : 0;
    case COL_TFLOPS:
      return s && s->median_ns ? s->flops / (double) s->median_ns : 0;
    default:
      return 0;
    }
}

/* -- columns -------------------------------------------------------------------------------------- */

static void
setup_label (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == COL_REGION || GPOINTER_TO_INT (data) == COL_KIND ? 0.0 : 1.0);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  WbRegionTable   *self = g_object_get_data (G_OBJECT (factory), "table");
  const char      *name = gtk_string_object_get_string (gtk_list_item_get_item (item));
  g_autofree char *text = cell_text (self, name, GPOINTER_TO_INT (data));
  gboolean         collective = (GPOINTER_TO_INT (data) == COL_KIND || GPOINTER_TO_INT (data) == COL_REGION) &&
                        strcmp (name, WB_REGION_TABLE_OTHER) != 0 && strcmp (kind_of (self, name), _ ("collective")) == 0;

  if (collective)
    {
      /* collectives in their own colour, as in the graph and the timeline */
      g_autofree char *markup = g_markup_printf_escaped ("<span foreground=\"%s\">%s</span>", WB_COLLECTIVE_COLOR, text);

      gtk_label_set_markup (GTK_LABEL (gtk_list_item_get_child (item)), markup);
    }
  else
    gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void executor_selected_cb (GtkDropDown *drop, GParamSpec *pspec, WbRegionTable *self);

/* the cell: a drop-down of the choices for the pipeline's regions; a label (what ran it, not a choice)
 * for the regions of a run of another stage */
static void
setup_executor (GtkSignalListItemFactory *factory, GtkListItem *item, WbRegionTable *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *drop = gtk_drop_down_new_from_strings (wb_region_table_get_choices ());
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_add_css_class (drop, "flat");
  g_signal_connect (drop, "notify::selected", G_CALLBACK (executor_selected_cb), self);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_visible (label, FALSE);
  gtk_box_append (GTK_BOX (box), drop);
  gtk_box_append (GTK_BOX (box), label);
  g_object_set_data (G_OBJECT (box), "drop", drop);
  g_object_set_data (G_OBJECT (box), "label", label);
  gtk_list_item_set_child (item, box);
}

static void
bind_executor (GtkSignalListItemFactory *factory, GtkListItem *item, WbRegionTable *self)
{
  GtkWidget         *box = gtk_list_item_get_child (item);
  GtkWidget         *drop = g_object_get_data (G_OBJECT (box), "drop");
  GtkWidget         *label = g_object_get_data (G_OBJECT (box), "label");
  const char        *name = gtk_string_object_get_string (gtk_list_item_get_item (item));
  const WbRegion    *region = wb_document_lookup_region (self->document, name);
  const char *const *choices = wb_region_table_get_choices ();
  g_autoptr (GString) tip = g_string_new (NULL);

  gboolean fixed = _wb_region_table_own_run (self) != NULL || region == NULL;

  gtk_widget_set_visible (drop, !fixed);
  gtk_widget_set_visible (label, fixed);
  if (fixed)
    {
      const char *executor = executor_of (self, name);

      gtk_label_set_text (GTK_LABEL (label), executor ? executor : "");
      gtk_widget_set_tooltip_text (label, region == NULL && _wb_region_table_own_run (self) == NULL
                                              ? _ ("A call outside the fusion regions: what ran it")
                                              : _ ("What ran it in this run of another stage; choose executors in a run of the workbench's stage"));
      g_object_set_data (G_OBJECT (drop), "region", NULL);
      return;
    }
  self->binding = TRUE;
  g_object_set_data_full (G_OBJECT (drop), "region", g_strdup (name), g_free);
  if (region != NULL && wb_executor_info_lookup (region->executor) != NULL &&
      wb_executor_info_is_thunder (wb_executor_info_lookup (region->executor)))
    /* TRANSLATORS: %s is one of Thunder's executors, e.g. torchcompile */
    g_string_append_printf (tip, _ ("%s: Thunder's executor, read-only here; choose one that runs here"), region->executor);
  for (guint i = 0; choices[i] != NULL; i++)
    {
      g_autofree char *why = NULL;

      if (region != NULL && strcmp (choices[i], region->executor) == 0)
        gtk_drop_down_set_selected (GTK_DROP_DOWN (drop), i);
      if (region != NULL && !_wb_region_table_can_take (self, region, choices[i], &why) && why != NULL)
        g_string_append_printf (tip, "%s%s", tip->len ? "\n" : "", why);
    }
  gtk_widget_set_tooltip_text (drop, tip->len ? tip->str : NULL);
  self->binding = FALSE;
}

void
_wb_region_table_show_message (WbRegionTable *self, const char *message, gboolean is_error)
{
  gtk_label_set_text (self->status, message);
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->status), message != NULL);
}

static void
executor_selected_cb (GtkDropDown *drop, GParamSpec *pspec, WbRegionTable *self)
{
  const char        *region = g_object_get_data (G_OBJECT (drop), "region");
  const char *const *choices = wb_region_table_get_choices ();
  g_autofree char   *why = NULL;
  guint              i = gtk_drop_down_get_selected (drop);

  if (self->binding || region == NULL || i >= g_strv_length ((char **) choices))
    return;
  if (!wb_region_table_set_executor (self, region, choices[i], &why))
    {
      const WbRegion *r = wb_document_lookup_region (self->document, region);

      _wb_region_table_show_message (self, why, TRUE);
      self->binding = TRUE;
      for (guint k = 0; r != NULL && choices[k] != NULL; k++)
        if (strcmp (choices[k], r->executor) == 0)
          gtk_drop_down_set_selected (drop, k);
      self->binding = FALSE;
    }
}

static int
compare_cb (gconstpointer a, gconstpointer b, gpointer data)
{
  GtkColumnViewColumn *column = data;
  WbRegionTable       *self = g_object_get_data (G_OBJECT (column), "table");
  int                  col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "col"));
  const char          *na = gtk_string_object_get_string ((GtkStringObject *) a);
  const char          *nb = gtk_string_object_get_string ((GtkStringObject *) b);
  double               x, y;

  if (col == COL_REGION)
    return g_utf8_collate (na, nb);
  if (col == COL_EXECUTOR)
    return g_strcmp0 (executor_of (self, na), executor_of (self, nb));
  if (col == COL_KIND)
    return g_strcmp0 (kind_of (self, na), kind_of (self, nb));
  x = cell_number (self, na, col);
  y = cell_number (self, nb, col);
  return x < y ? GTK_ORDERING_SMALLER : x > y ? GTK_ORDERING_LARGER
                                              : GTK_ORDERING_EQUAL;
}

static void
add_column (WbRegionTable *self, const char *title, int col)
{
  GtkListItemFactory  *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;
  GtkSorter           *sorter;

  g_object_set_data (G_OBJECT (factory), "table", self);
  if (col == COL_EXECUTOR)
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_executor), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_executor), self);
    }
  else
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (col));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label), GINT_TO_POINTER (col));
    }
  column = gtk_column_view_column_new (title, factory);
  g_object_set_data (G_OBJECT (column), "table", self);
  g_object_set_data (G_OBJECT (column), "col", GINT_TO_POINTER (col));
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_cb, column, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_expand (column, col == COL_REGION);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (self->view, column);
  g_object_unref (column);
}

/* -- the rows and the selection ------------------------------------------------------------------- */

char *
wb_region_table_dup_text (WbRegionTable *self)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  GListModel *columns = gtk_column_view_get_columns (self->view);
  GString    *s = g_string_new (NULL);

  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      g_string_append_printf (s, "%s%s", c ? "\t" : "", gtk_column_view_column_get_title (column));
    }
  g_string_append_c (s, '\n');
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkStringObject) item = g_list_model_get_item (model, i);

      for (int c = 0; c < N_COLS; c++)
        {
          g_autofree char *text = cell_text (self, gtk_string_object_get_string (item), c);

          g_string_append_printf (s, "%s%s", c ? "\t" : "", text);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
selection_changed_cb (WbRegionTable *self)
{
  const char *name = wb_document_get_region (self->document);

  _wb_region_table_update_page (self);
  for (guint i = 0; name != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->selection)); i++)
    {
      g_autoptr (GtkStringObject) item = g_list_model_get_item (G_LIST_MODEL (self->selection), i);

      if (strcmp (gtk_string_object_get_string (item), name) == 0)
        {
          if (gtk_single_selection_get_selected (self->selection) != i)
            gtk_single_selection_set_selected (self->selection, i);
          break;
        }
    }
}

static void
row_selected_cb (WbRegionTable *self)
{
  GtkStringObject *item = gtk_single_selection_get_selected_item (self->selection);

  if (item != NULL && !self->binding)
    wb_document_select_region (self->document, gtk_string_object_get_string (item));
}

static void
reload (WbRegionTable *self)
{
  const WbPipeline *pipeline = wb_document_get_pipeline (self->document);
  GPtrArray        *regions = pipeline ? wb_pipeline_get_regions (pipeline) : NULL;
  const WbRun      *run = wb_document_get_run (self->document);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  /* a run of another stage (Thunder's final stage, from `profile`) timed its own regions: list those */
  self->run_regions = run != NULL && !wb_document_run_is_planned (self->document, run);
  if (self->run_regions)
    for (guint i = 0; i < run->regions->len; i++)
      g_ptr_array_add (names, ((WbRegionStats *) run->regions->pdata[i])->name);
  /* a run of the workbench's stage: every call it timed is a row (unfused ops too, so shares add up) */
  for (guint i = 0; !self->run_regions && run != NULL && i < run->regions->len; i++)
    g_ptr_array_add (names, ((WbRegionStats *) run->regions->pdata[i])->name);
  if (!self->run_regions && run != NULL)
    g_ptr_array_add (names, (gpointer) WB_REGION_TABLE_OTHER);
  /* and the pipeline's regions it did not time (none when it ran this plan) */
  for (guint i = 0; !self->run_regions && regions != NULL && i < regions->len; i++)
    if (run == NULL || wb_run_find_region (run, ((WbRegion *) regions->pdata[i])->name) == NULL)
      g_ptr_array_add (names, ((WbRegion *) regions->pdata[i])->name);
  g_ptr_array_add (names, NULL);
  self->binding = TRUE;
  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)), (const char *const *) names->pdata);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->binding = FALSE;
  selection_changed_cb (self);
}

gboolean
wb_region_table_set_executor (WbRegionTable *self, const char *name, const char *executor, char **why_not)
{
  const WbRegion *region = wb_document_lookup_region (self->document, name);
  g_autoptr (WbAssignment) assignment = NULL;

  if (region == NULL)
    {
      if (why_not != NULL)
        *why_not = g_strdup_printf (_ ("%s: no such region"), name);
      return FALSE;
    }
  if (strcmp (executor, region->executor) == 0)
    return TRUE;
  if (!_wb_region_table_can_take (self, region, executor, why_not))
    return FALSE;
  /* by key: the choice stays with this region when re-fusion renumbers the regions */
  assignment = wb_assignment_copy_with (wb_document_get_assignment (self->document), region->key ? region->key : name, executor, NULL);
  wb_region_table_profile (self, assignment);
  return TRUE;
}

const char *
wb_region_table_get_selected (WbRegionTable *self)
{
  GtkStringObject *item = gtk_single_selection_get_selected_item (self->selection);

  return item ? gtk_string_object_get_string (item) : NULL;
}

static void
cancel_clicked_cb (WbRegionTable *self)
{
  wb_region_table_cancel (self);
}

void
wb_region_table_set_document (WbRegionTable *self, WbDocument *document)
{
  g_set_object (&self->document, document);
  g_signal_connect_object (document, "changed", G_CALLBACK (reload), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "runs-changed", G_CALLBACK (reload), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "selection-changed", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
wb_region_table_new (void)
{
  return g_object_new (WB_TYPE_REGION_TABLE, NULL);
}

static void
wb_region_table_dispose (GObject *object)
{
  WbRegionTable *self = WB_REGION_TABLE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->pending, wb_assignment_unref);
  if (self->confirm_dialog != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->confirm_dialog, self);
      gtk_window_destroy (GTK_WINDOW (self->confirm_dialog));
      self->confirm_dialog = NULL;
    }
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (wb_region_table_parent_class)->dispose (object);
}

static void
wb_region_table_class_init (WbRegionTableClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = wb_region_table_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
wb_region_table_init (WbRegionTable *self)
{
  GtkWidget        *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget        *scroll = gtk_scrolled_window_new ();
  GtkWidget        *page_scroll = gtk_scrolled_window_new ();
  GtkWidget        *cancel = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  GtkSortListModel *sorted;

  /* the command line's defaults until the window applies the preferences */
  self->iters = 20;
  self->warmup = 3;
  self->confirm = TRUE;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->progress_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_text (self->progress, _ ("Re-running the pipeline…"));
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->progress_box), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (self->progress_box), cancel);
  gtk_widget_set_margin_start (self->progress_box, 8);
  gtk_widget_set_margin_end (self->progress_box, 8);
  gtk_widget_set_margin_top (self->progress_box, 4);
  gtk_widget_set_visible (self->progress_box, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->progress_box);

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->status), 8);
  gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->status));

  self->names = gtk_string_list_new (NULL);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->names), g_object_ref (gtk_column_view_get_sorter (self->view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (row_selected_cb), self);
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  add_column (self, _ ("Region"), COL_REGION);
  add_column (self, _ ("Executor"), COL_EXECUTOR);
  add_column (self, _ ("Ops"), COL_OPS);
  add_column (self, _ ("Bytes"), COL_BYTES);
  add_column (self, _ ("Time (ms)"), COL_TIME);
  /* TRANSLATORS: column: change of time against the run before */
  add_column (self, _ ("Δ previous"), COL_DELTA);
  add_column (self, _ ("Share"), COL_SHARE);
  add_column (self, _ ("GB/s"), COL_GBPS);
  add_column (self, _ ("TFLOP/s"), COL_TFLOPS);
  /* TRANSLATORS: column of the Regions table: fusion, collective or call */
  add_column (self, _ ("Kind"), COL_KIND);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroll, TRUE);

  self->page = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_selectable (self->page, TRUE);
  gtk_label_set_xalign (self->page, 0);
  gtk_label_set_yalign (self->page, 0);
  gtk_label_set_wrap (self->page, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->page), "monospace");
  gtk_widget_set_margin_start (GTK_WIDGET (self->page), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->page), 8);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (page_scroll), GTK_WIDGET (self->page));

  gtk_paned_set_start_child (GTK_PANED (paned), scroll);
  gtk_paned_set_end_child (GTK_PANED (paned), page_scroll);
  gtk_paned_set_position (GTK_PANED (paned), 320);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_box_append (GTK_BOX (self->box), paned);
}
