/* wb-window.c — the main window: sidebar of stages and runs; stage panes, regions, graph and timeline
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-window.h"

#include <glib/gi18n.h>

#include "wb-application.h"
#include "wb-record-dialog.h"
#include "wb-views.h"

struct _WbWindow
{
  AdwApplicationWindow parent_instance;

  GCancellable *cancellable; /* of the load in flight */
  WbDocument   *document;
  gboolean      loading;

  /* template children */
  AdwToastOverlay      *toasts;
  AdwViewSwitcherTitle *window_title;
  GtkStack             *stack;
  AdwStatusPage        *status;
  GtkSpinner           *spinner;
  AdwViewStack         *views;
  WbSidebar            *sidebar;
  WbStageView          *stage_view;
  WbRegionTable        *region_table;
  WbGraphView          *graph_view;
  WbTimeline           *timeline;
  WbSymbolView         *symbol_view;
  WbKernelTable        *kernel_table;
  WbCompareView        *compare_view;
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GtkToggleButton      *search_button;
  GMenu                *primary_menu;
  GtkWidget            *recent_title; /* the welcome page's recent files */
  GtkBox               *recent_box;

  GMenu     *recent_menu; /* the recent trace sets (GtkRecentManager) */
  GSettings *settings;    /* (nullable) the application's */
  char      *thunder_wb;  /* (nullable) the program that records (`thunder-wb record`) */
};

#define MAX_RECENT 8

G_DEFINE_FINAL_TYPE (WbWindow, wb_window, ADW_TYPE_APPLICATION_WINDOW)

static void
show_error (WbWindow *self, const GError *error)
{
  g_autofree char *escaped = g_markup_escape_text (error->message, -1);

  adw_status_page_set_icon_name (self->status, "dialog-error-symbolic");
  adw_status_page_set_title (self->status, _ ("Could Not Open the Traces"));
  adw_status_page_set_description (self->status, escaped);
  gtk_stack_set_visible_child_name (self->stack, "status");
}

static void
load_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  WbWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  gboolean ok = wb_document_load_finish (WB_DOCUMENT (object), result, &error);

  self->loading = FALSE;
  gtk_spinner_stop (self->spinner);
  if (!ok)
    show_error (self, error);
  else
    {
      const char *note = wb_document_get_pipeline_error (self->document);

      gtk_stack_set_visible_child_name (self->stack, "stages");
      if (note != NULL)
        {
          g_autofree char *text = g_strdup_printf (_ ("No workbench stages: %s"), note);

          adw_toast_overlay_add_toast (self->toasts, adw_toast_new (text));
        }
      {
        GtkRecentManager *recent = gtk_recent_manager_get_default ();
        g_autoptr (GFile) file = g_file_new_for_path (wb_document_get_path (self->document));
        g_autofree char *uri = g_file_get_uri (file);

        gtk_recent_manager_add_item (recent, uri);
      }
    }
  g_object_unref (self);
}

void
wb_window_open (WbWindow *self, const char *path)
{
  g_autofree char *basename = NULL;

  g_return_if_fail (WB_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  basename = g_path_get_basename (path);
  adw_view_switcher_title_set_subtitle (self->window_title, basename);
  {
    /* the open trace set, then the application's name as translated */
    g_autofree char *title = g_strdup_printf ("%s — %s", basename, _ ("Thunder Workbench"));
    gtk_window_set_title (GTK_WINDOW (self), title);
  }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title), path);
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  self->loading = TRUE;
  wb_document_load_async (self->document, path, self->cancellable, load_done, g_object_ref (self));
}

gboolean
wb_window_is_loading (WbWindow *self)
{
  return self->loading;
}

static void
chooser_response_cb (GtkNativeDialog *dialog, int response, WbWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        wb_window_open (self, path);
      else
        adw_toast_overlay_add_toast (self->toasts, adw_toast_new (_ ("Only local files can be opened")));
    }
  g_object_unref (dialog);
}

static void
choose (WbWindow *self, GtkFileChooserAction action, const char *title)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, _ ("_Open"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_folder_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  choose (WB_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("Open a Trace Folder"));
}

/* The bundled sample (data/samples/mlp_small): installed with the app, or in the source tree when the
 * app runs from its build directory. NULL when neither is there (transfer full). */
char *
wb_window_find_sample (void)
{
  const char *const dirs[] = { PKGDATADIR "/samples", SOURCE_SAMPLESDIR };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "mlp_small", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&path);
    }
  return NULL;
}

static void
open_sample_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbWindow        *self = WB_WINDOW (widget);
  g_autofree char *path = wb_window_find_sample ();

  if (path == NULL)
    {
      adw_toast_overlay_add_toast (self->toasts, adw_toast_new (_ ("The sample is not installed")));
      return;
    }
  wb_window_open (self, path);
}

static void
open_file_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  choose (WB_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN, _ ("Open a Trace File or a Session"));
}

static void
compare_runs_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  adw_view_stack_set_visible_child_name (WB_WINDOW (widget)->views, "compare");
}

/* -- recording: `thunder-wb record --session F -- COMMAND` in a WbRecordDialog ------------------- */

/* the thunder-wb that records: $WB_THUNDER_WB, this program when it is thunder-wb, or one on PATH */
static char *
find_thunder_wb (void)
{
  const char      *env = g_getenv ("WB_THUNDER_WB");
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *base = self_exe ? g_path_get_basename (self_exe) : NULL;

  if (env != NULL && g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (env);
  if (base != NULL && g_strcmp0 (base, "thunder-wb") == 0)
    return g_steal_pointer (&self_exe);
  return g_find_program_in_path ("thunder-wb");
}

/* a recording succeeded: open the session it went to */
static void
recorded_cb (WbWindow *self, const char *session)
{
  wb_window_open (self, session);
}

static void
record_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbWindow       *self = WB_WINDOW (widget);
  WbRecordDialog *dialog = wb_record_dialog_new (GTK_WINDOW (self), self->thunder_wb, wb_document_get_session_path (self->document));

  g_signal_connect_object (dialog, "recorded", G_CALLBACK (recorded_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The recent menu: what this application opened (GtkRecentManager), newest first, still there. */
static int
recent_newer (gconstpointer a, gconstpointer b)
{
  GDateTime *x = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *y = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return g_date_time_compare (y, x);
}

static void
update_recent (WbWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) mine = g_ptr_array_new ();
  const char *app = g_get_application_name ();

  GtkWidget *child;

  g_menu_remove_all (self->recent_menu);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_box))) != NULL)
    gtk_box_remove (self->recent_box, child);
  for (GList *l = items; l != NULL; l = l->next)
    if (app == NULL || gtk_recent_info_has_application (l->data, app))
      g_ptr_array_add (mine, l->data);
  g_ptr_array_sort (mine, recent_newer);
  for (guint i = 0, n = 0; i < mine->len && n < MAX_RECENT; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (mine->pdata[i]));
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *label = NULL;
      g_autoptr (GMenuItem) item = NULL;

      if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      label = g_path_get_basename (path);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", path);
      g_menu_append_item (self->recent_menu, item);
      /* and on the welcome page: a flat button each, the full path as its tooltip */
      child = gtk_button_new_with_label (label);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (child), "win.open-recent");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (child), "s", path);
      gtk_widget_set_tooltip_text (child, path);
      gtk_widget_add_css_class (child, "flat");
      gtk_box_append (self->recent_box, child);
      n++;
    }
  gtk_widget_set_visible (self->recent_title, gtk_widget_get_first_child (GTK_WIDGET (self->recent_box)) != NULL);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

static void
open_recent_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  wb_window_open (WB_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

GtkWidget *
wb_window_get_symbol_view (WbWindow *self)
{
  return GTK_WIDGET (self->symbol_view);
}

GtkWidget *
wb_window_get_welcome_recent (WbWindow *self)
{
  return GTK_WIDGET (self->recent_box);
}

GMenuModel *
wb_window_get_recent_menu (WbWindow *self)
{
  return G_MENU_MODEL (self->recent_menu);
}

/* the run defaults of the preferences */
static void
settings_changed_cb (WbWindow *self)
{
  g_autofree char *device = g_settings_get_string (self->settings, "device");
  WbProfileDevice  d = WB_PROFILE_DEVICE_AUTO;

  wb_region_table_set_iterations (self->region_table, g_settings_get_uint (self->settings, "iterations"),
                                  g_settings_get_uint (self->settings, "warmup"));
  wb_region_table_set_device (self->region_table, wb_profile_device_parse (device, &d) ? d : WB_PROFILE_DEVICE_AUTO);
  wb_document_set_allow_cpu_fallback (self->document, g_settings_get_boolean (self->settings, "allow-cpu-fallback"));
}

static void
application_cb (WbWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  GSettings      *settings = WB_IS_APPLICATION (application) ? wb_application_get_settings (WB_APPLICATION (application)) : NULL;

  if (settings == self->settings)
    return;
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_set_object (&self->settings, settings);
  if (settings != NULL)
    {
      g_signal_connect_swapped (settings, "changed::iterations", G_CALLBACK (settings_changed_cb), self);
      g_signal_connect_swapped (settings, "changed::warmup", G_CALLBACK (settings_changed_cb), self);
      g_signal_connect_swapped (settings, "changed::device", G_CALLBACK (settings_changed_cb), self);
      g_signal_connect_swapped (settings, "changed::allow-cpu-fallback", G_CALLBACK (settings_changed_cb), self);
      settings_changed_cb (self);
    }
}

static void
profile_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbWindow *self = WB_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->views, "regions");
  wb_region_table_profile (self->region_table, NULL);
}

static void
step_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbWindow *self = WB_WINDOW (widget);

  wb_sidebar_step (self->sidebar, g_str_equal (action_name, "win.next-stage") ? 1 : -1);
}

static void
search_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbWindow *self = WB_WINDOW (widget);

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Search: a region name selects the region, anything else the next matching line of the right pane. */
static void
search_activate_cb (WbWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (text == NULL || text[0] == '\0')
    return;
  if (wb_document_lookup_region (self->document, text) != NULL)
    {
      wb_document_select_region (self->document, text);
      return;
    }
  if (!wb_stage_view_search (self->stage_view, text))
    gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
}

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, WbWindow *self)
{
  GSList          *files = g_value_get_boxed (value);
  g_autofree char *path = files ? g_file_get_path (files->data) : NULL;

  if (path == NULL)
    return FALSE;
  wb_window_open (self, path);
  return TRUE;
}

WbDocument *
wb_window_get_document (WbWindow *self)
{
  return self->document;
}

GtkWidget *
wb_window_get_stage_view (WbWindow *self)
{
  return GTK_WIDGET (self->stage_view);
}

GtkWidget *
wb_window_get_sidebar (WbWindow *self)
{
  return GTK_WIDGET (self->sidebar);
}

GtkWidget *
wb_window_get_region_table (WbWindow *self)
{
  return GTK_WIDGET (self->region_table);
}

GtkWidget *
wb_window_get_graph_view (WbWindow *self)
{
  return GTK_WIDGET (self->graph_view);
}

GtkWidget *
wb_window_get_timeline (WbWindow *self)
{
  return GTK_WIDGET (self->timeline);
}

GtkWidget *
wb_window_get_compare_view (WbWindow *self)
{
  return GTK_WIDGET (self->compare_view);
}

gboolean
wb_window_can_record (WbWindow *self)
{
  return self->thunder_wb != NULL;
}

GtkWidget *
wb_window_get_kernel_table (WbWindow *self)
{
  return GTK_WIDGET (self->kernel_table);
}

void
wb_window_show_view (WbWindow *self, const char *name)
{
  adw_view_stack_set_visible_child_name (self->views, name);
}

WbWindow *
wb_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (WB_TYPE_WINDOW, "application", application, NULL);
}

static void
wb_window_dispose (GObject *object)
{
  WbWindow *self = WB_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->thunder_wb, g_free);
  g_signal_handlers_disconnect_by_data (gtk_recent_manager_get_default (), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), WB_TYPE_WINDOW);
  g_clear_object (&self->document);
  g_clear_object (&self->recent_menu);

  G_OBJECT_CLASS (wb_window_parent_class)->dispose (object);
}

static void
wb_window_class_init (WbWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = wb_window_dispose;

  g_type_ensure (WB_TYPE_STAGE_VIEW);
  g_type_ensure (WB_TYPE_SIDEBAR);
  g_type_ensure (WB_TYPE_REGION_TABLE);
  g_type_ensure (WB_TYPE_GRAPH_VIEW);
  g_type_ensure (WB_TYPE_TIMELINE);
  g_type_ensure (WB_TYPE_KERNEL_TABLE);
  g_type_ensure (WB_TYPE_COMPARE_VIEW);
  g_type_ensure (WB_TYPE_SYMBOL_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/dev/thunderwb/Workbench/ui/wb-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WbWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, status);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, views);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, stage_view);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, region_table);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, graph_view);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, symbol_view);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, recent_title);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, kernel_table);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, compare_view);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, WbWindow, primary_menu);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);

  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-file", NULL, open_file_action);
  gtk_widget_class_install_action (widget_class, "win.open-sample", NULL, open_sample_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.profile", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.compare-runs", NULL, compare_runs_action);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
  gtk_widget_class_install_action (widget_class, "win.previous-stage", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "win.next-stage", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.open-file", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.profile", NULL);
}

/* Alt+Left / Alt+Right step the stages wherever the focus is: taken in the capture phase, before the
 * focused widget, since the stage view's source views bind them too (GtkSourceView's move-words) and
 * would otherwise swallow them where the user reads the stages */
static void
add_stage_keys (WbWindow *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Left, GDK_ALT_MASK),
                                                          gtk_named_action_new ("win.previous-stage")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Right, GDK_ALT_MASK),
                                                          gtk_named_action_new ("win.next-stage")));
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

static void
wb_window_init (WbWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->document = wb_document_new ();
  wb_sidebar_set_document (self->sidebar, self->document);
  wb_stage_view_set_document (self->stage_view, self->document);
  wb_region_table_set_document (self->region_table, self->document);
  wb_graph_view_set_document (self->graph_view, self->document);
  wb_timeline_set_document (self->timeline, self->document);
  wb_kernel_table_set_document (self->kernel_table, self->document);
  wb_symbol_view_set_document (self->symbol_view, self->document);
  wb_compare_view_set_document (self->compare_view, self->document);
  self->thunder_wb = find_thunder_wb ();
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.record", self->thunder_wb != NULL);
  g_object_bind_property (self->search_button, "active", self->search_bar, "search-mode-enabled", G_BINDING_BIDIRECTIONAL);
  gtk_search_bar_set_key_capture_widget (self->search_bar, NULL);

  self->recent_menu = g_menu_new ();
  {
    GMenuModel *files = g_menu_model_get_item_link (G_MENU_MODEL (self->primary_menu), 0, G_MENU_LINK_SECTION);

    g_menu_append_submenu (G_MENU (files), _ ("Open _Recent"), G_MENU_MODEL (self->recent_menu));
    g_object_unref (files);
  }
  update_recent (self);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (update_recent), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::application", G_CALLBACK (application_cb), NULL);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  add_stage_keys (self);
}
