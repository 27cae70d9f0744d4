/* wb-preferences.c — the preferences window (style, default iterations, warm-up, device, cpu fallback) over GSettings
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every row is bound with g_settings_bind, so the window holds no state of its own: the application
 * applies the style (AdwStyleManager) and windows read the run defaults from the same settings. */
#include "config.h"

#include "wb-preferences.h"

#include <glib/gi18n.h>

static const char *styles[] = { "system", "light", "dark", NULL };
static const char *devices[] = { "auto", "cpu", "cuda", NULL };

/* a string setting <-> a combo row's selected position */
static gboolean
get_choice (GValue *value, GVariant *variant, gpointer choices)
{
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; ((const char **) choices)[i]; i++)
    if (g_str_equal (((const char **) choices)[i], s))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
set_choice (const GValue *value, const GVariantType *type, gpointer choices)
{
  guint i = g_value_get_uint (value);

  if (i >= g_strv_length ((char **) choices))
    return NULL;
  return g_variant_new_string (((const char **) choices)[i]);
}

static GtkWidget *
combo_row (GSettings *settings, const char *key, const char *title, const char *const *labels, const char **choices)
{
  GtkWidget *row = adw_combo_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (gtk_string_list_new (labels)));
  g_settings_bind_with_mapping (settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT, get_choice, set_choice,
                                choices, NULL);
  return row;
}

static GtkWidget *
spin_row (GSettings *settings, const char *key, const char *title, const char *subtitle, double lo, double hi)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (lo, hi, 1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  g_settings_bind (settings, key, spin, "value", G_SETTINGS_BIND_DEFAULT);
  return row;
}

static GtkWidget *
switch_row (GSettings *settings, const char *key, const char *title, const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *sw = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), sw);
  g_settings_bind (settings, key, sw, "active", G_SETTINGS_BIND_DEFAULT);
  return row;
}

GtkWindow *
wb_preferences_new (GSettings *settings, GtkWindow *parent)
{
  GtkWidget  *window = adw_preferences_window_new ();
  GtkWidget  *page = adw_preferences_page_new ();
  GtkWidget  *look = adw_preferences_group_new ();
  GtkWidget  *runs = adw_preferences_group_new ();
  const char *style_labels[] = { _ ("Follow the System"), _ ("Light"), _ ("Dark"), NULL };
  const char *device_labels[] = { _ ("Automatic (the GPU when there is one)"), _ ("CPU"), _ ("CUDA (GPU runner)"), NULL };

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_title (GTK_WINDOW (window), _ ("Preferences"));
  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (page), _ ("General"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (page), "preferences-system-symbolic");
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (look), _ ("Appearance"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (look), combo_row (settings, "style", _ ("Style"), style_labels, styles));
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (runs), _ ("Profiling"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (runs), _ ("What a new profile runs unless you change it"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (runs),
                             spin_row (settings, "iterations", _ ("Timed Iterations"), _ ("Region times are their medians"), 1, 10000));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (runs),
                             spin_row (settings, "warmup", _ ("Warm-up Iterations"), _ ("Run untimed before the timed ones"), 0, 1000));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (runs), combo_row (settings, "device", _ ("Device"), device_labels, devices));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (runs),
                             switch_row (settings, "allow-cpu-fallback", _ ("Allow the CPU Fallback"),
                                         _ ("On the GPU, run operations without a GPU path on the CPU (the run then warns)")));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (look));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (runs));
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (window), ADW_PREFERENCES_PAGE (page));
  return GTK_WINDOW (window);
}
