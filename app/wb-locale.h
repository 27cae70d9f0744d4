/* wb-locale.h — where the translations are: installed, or the build tree's when running uninstalled
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program of this build that runs from the build tree (thunder-wb, the ui tests) takes the catalogues
 * that the build compiled (BUILD_ROOT/po/LANG/LC_MESSAGES/thunder-wb.mo); an installed one the
 * installed ones (LOCALEDIR). Header only: main.c and the ui tests share it. */
#pragma once

#include <glib.h>
#include <glib/gi18n.h>
#include <locale.h>

/* wb_locale_dir: (transfer none) the folder bindtextdomain() is given. */
static inline const char *
wb_locale_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *po = g_build_filename (BUILD_ROOT, "po", NULL);

      dir = exe != NULL && g_str_has_prefix (exe, BUILD_ROOT "/") && g_file_test (po, G_FILE_TEST_IS_DIR) ? g_steal_pointer (&po)
                                                                                                          : g_strdup (LOCALEDIR);
    }
  return dir;
}

/* wb_locale_init: the locale from the environment and the catalogue of thunder-wb, in UTF-8. */
static inline void
wb_locale_init (void)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, wb_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
