/* wb-test-common.c — helpers shared by the tests
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "wb-test-common.h"

#include <glib/gstdio.h>
#include <string.h>

const char *
wb_test_traces_dir (void)
{
  static char *dir;
  if (dir == NULL)
    {
      const char *env = g_getenv ("WB_TRACES_DIR");
      if (env != NULL && g_file_test (env, G_FILE_TEST_IS_DIR))
        dir = g_canonicalize_filename (env, NULL);
    }
  return dir;
}

const char *
wb_test_samples_dir (void)
{
  static char *dir;
  if (dir == NULL)
    {
      const char *root = g_getenv ("WB_SOURCE_ROOT");
      dir = g_build_filename (root ? root : ".", "data", "samples", NULL);
    }
  return dir;
}

static void
collect (const char *dir, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect (path, out);
      else if (g_str_has_suffix (name, ".py"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

static int
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

GPtrArray *
wb_test_list_trace_files (const char *dir)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  collect (dir, out);
  g_ptr_array_sort (out, cmp_str);
  return out;
}

char *
wb_test_read_file (const char *path, gsize *len)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  g_file_get_contents (path, &contents, len, &error);
  g_assert_no_error (error);
  return contents;
}

void
wb_test_remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          wb_test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}
