/* wb-test-common.c — helpers shared by the tests
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "wb-test-common.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

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

void
wb_test_run_clear (WbTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

const char *
wb_test_binary (void)
{
  static char *path;

  if (path == NULL)
    {
      const char *root = g_getenv ("WB_BUILD_ROOT");

      path = g_build_filename (root ? root : ".", "app", "thunder-wb", NULL);
      if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        g_error ("%s is not built (WB_BUILD_ROOT=%s)", path, root ? root : "(unset)");
    }
  return path;
}

void
wb_test_run_thunder_wb (WbTestRun *run, const char *const *unset, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) env = g_get_environ ();
  int wait_status = 0;

  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  env = g_environ_unsetenv (env, "LANGUAGE");
  for (guint i = 0; unset != NULL && unset[i] != NULL; i++)
    env = g_environ_unsetenv (env, unset[i]);
  g_ptr_array_add (argv, (gpointer) wb_test_binary ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, &run->out, &run->err, &wait_status, &error);
  g_assert_no_error (error);
  if (!WIFEXITED (wait_status))
    g_error ("thunder-wb %s died (wait status %d); stderr:\n%s", args[0], wait_status, run->err);
  run->status = WEXITSTATUS (wait_status);
}
