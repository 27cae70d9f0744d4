/* test-potfiles.c — po/POTFILES.in is sorted, its files exist, and every translatable source is in it
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "wb-test-common.h"

static const char *
source_root (void)
{
  const char *root = g_getenv ("WB_SOURCE_ROOT");

  return root ? root : ".";
}

/* The entries of POTFILES.in (comments and blank lines skipped), in file order (transfer full). */
static GPtrArray *
read_potfiles (void)
{
  g_autofree char *path = g_build_filename (source_root (), "po", "POTFILES.in", NULL);
  g_autofree char *text = wb_test_read_file (path, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (line[0] != '\0' && line[0] != '#')
        g_ptr_array_add (out, g_strdup (line));
    }
  return out;
}

/* A C file that calls _() or N_(), or a .ui file with a translatable property. */
static gboolean
is_translatable (const char *path)
{
  g_autofree char *text = wb_test_read_file (path, NULL);

  if (g_str_has_suffix (path, ".ui"))
    return strstr (text, "translatable=\"yes\"") != NULL;
  return g_regex_match_simple ("(^|[^A-Za-z0-9_])N?_\\s*\\(", text, G_REGEX_MULTILINE, 0);
}

static void
collect_sources (const char *root,
                 const char *rel,
                 GPtrArray  *out)
{
  g_autofree char *dir = g_build_filename (root, rel, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (rel, name, NULL);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        collect_sources (root, child, out);
      else if (g_str_has_suffix (name, ".c") || g_str_has_suffix (name, ".ui"))
        g_ptr_array_add (out, g_steal_pointer (&child));
    }
}

static void
test_listed_files_exist (void)
{
  g_autoptr (GPtrArray) listed = read_potfiles ();

  g_assert_cmpuint (listed->len, >, 0);
  for (guint i = 0; i < listed->len; i++)
    {
      g_autofree char *path = g_build_filename (source_root (), g_ptr_array_index (listed, i), NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_error ("po/POTFILES.in lists %s, which does not exist", (char *) g_ptr_array_index (listed, i));
      if (i > 0 && strcmp (g_ptr_array_index (listed, i - 1), g_ptr_array_index (listed, i)) >= 0)
        g_error ("po/POTFILES.in is not sorted: %s before %s",
                 (char *) g_ptr_array_index (listed, i - 1), (char *) g_ptr_array_index (listed, i));
    }
}

static void
test_translatable_files_listed (void)
{
  g_autoptr (GPtrArray) listed = read_potfiles ();
  g_autoptr (GPtrArray) sources = g_ptr_array_new_with_free_func (g_free);
  const char *const folders[] = { "app", "views", "data" };
  guint             n_translatable = 0;

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    collect_sources (source_root (), folders[i], sources);
  g_assert_cmpuint (sources->len, >, 0);

  for (guint i = 0; i < sources->len; i++)
    {
      const char      *rel = g_ptr_array_index (sources, i);
      g_autofree char *full = g_build_filename (source_root (), rel, NULL);

      if (!is_translatable (full))
        continue;
      n_translatable++;
      if (!g_ptr_array_find_with_equal_func (listed, rel, g_str_equal, NULL))
        g_error ("%s uses _() or translatable=\"yes\" but is not in po/POTFILES.in", rel);
    }
  g_assert_cmpuint (n_translatable, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/potfiles/listed-files-exist", test_listed_files_exist);
  g_test_add_func ("/app/potfiles/translatable-files-listed", test_translatable_files_listed);

  return g_test_run ();
}
