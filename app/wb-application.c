/* wb-application.c — the GTK application (AdwApplication): windows, app actions, shortcuts
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-application.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "wb-cli.h"
#include "wb-preferences.h"
#include "wb-window.h"

struct _WbApplication
{
  AdwApplication parent_instance;

  char      *path;     /* opened in the first window, then cleared */
  GSettings *settings; /* (nullable) NULL when the schema is not installed: defaults then */
};

G_DEFINE_FINAL_TYPE (WbApplication, wb_application, ADW_TYPE_APPLICATION)

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *application = GTK_APPLICATION (user_data);
  GtkWidget      *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (application),
                        "application-name", _ ("Thunder Workbench"),
                        "application-icon", APPLICATION_ID,
                        "version", PACKAGE_VERSION,
                        "comments", _ ("Look inside Lightning Thunder's traces: every stage, region and executor"),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  WbApplication *self = WB_APPLICATION (user_data);
  GtkWindow     *window;

  if (self->settings == NULL)
    return;
  window = wb_preferences_new (self->settings, gtk_application_get_active_window (GTK_APPLICATION (self)));
  gtk_window_present (window);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "preferences", preferences_action },
};

/* the "style" setting -> AdwStyleManager */
static void
style_changed_cb (GSettings *settings, const char *key, gpointer user_data)
{
  g_autofree char *style = g_settings_get_string (settings, "style");
  AdwColorScheme   scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_str_equal (style, "light"))
    scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (style, "dark"))
    scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), scheme);
}

GSettings *
wb_application_get_settings (WbApplication *self)
{
  g_return_val_if_fail (WB_IS_APPLICATION (self), NULL);

  return self->settings;
}

static void
wb_application_startup (GApplication *application)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  WbApplication     *self = WB_APPLICATION (application);
  GSettingsSchema   *schema;

  G_APPLICATION_CLASS (wb_application_parent_class)->startup (application);

  gtk_source_init ();
  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions, G_N_ELEMENTS (app_actions), application);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.preferences", preferences_accels);

  /* a build that is run uninstalled has no schema: no preferences then, rather than an abort */
  schema = g_settings_schema_source_lookup (g_settings_schema_source_get_default (), "dev.thunderwb.Workbench", TRUE);
  if (schema != NULL)
    {
      self->settings = g_settings_new_full (schema, NULL, NULL);
      g_settings_schema_unref (schema);
      g_signal_connect (self->settings, "changed::style", G_CALLBACK (style_changed_cb), self);
      style_changed_cb (self->settings, "style", self);
    }
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (application), "preferences")),
                               self->settings != NULL);
}

static void
wb_application_activate (GApplication *application)
{
  WbApplication *self = WB_APPLICATION (application);
  GtkWindow     *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (wb_window_new (GTK_APPLICATION (self)));
  if (self->path != NULL)
    {
      wb_window_open (WB_WINDOW (window), self->path);
      g_clear_pointer (&self->path, g_free);
    }
  gtk_window_present (window);
}

static void
wb_application_finalize (GObject *object)
{
  WbApplication *self = WB_APPLICATION (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (wb_application_parent_class)->finalize (object);
}

static void
wb_application_class_init (WbApplicationClass *klass)
{
  GObjectClass      *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = wb_application_finalize;
  application_class->startup = wb_application_startup;
  application_class->activate = wb_application_activate;
}

static void
wb_application_init (WbApplication *self)
{
}

WbApplication *
wb_application_new (const char *path)
{
  WbApplication *self;

  /* NON_UNIQUE: every `thunder-wb PATH` is its own process with its own window; the command line
   * was parsed by wb-cli.c, so GApplication sees none of it. */
  self = g_object_new (WB_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", "/dev/thunderwb/Workbench",
                       NULL);
  self->path = g_strdup (path);
  return self;
}

int
wb_application_run (const char *path)
{
  g_autoptr (WbApplication) application = NULL;
  char *args[] = { (char *) "thunder-wb", NULL };

  /* GtkApplication exits with status 1 when it cannot open a display; check first and say why. */
  if (!gtk_init_check ())
    {
      g_printerr ("thunder-wb: %s\n",
                  _ ("cannot open a display for the GUI (is DISPLAY or WAYLAND_DISPLAY set?); "
                     "the --headless commands need none"));
      return WB_EXIT_ENVIRONMENT;
    }

  application = wb_application_new (path);
  return g_application_run (G_APPLICATION (application), 1, args);
}
