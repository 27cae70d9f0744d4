/* test-executor-names.c — no executor name is written outside the executor registry's rows
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 42: executor names come from compiler/wb-executor-info.def and nowhere else. This reads every
 * source file under compiler/ executors/ profiler/ views/ app/ data/ (C, C++, .def, .cuh, .ui, .xml,
 * .in; comments removed from C-like files; data/samples, recorded traces, and the exported script's
 * Python runtime are data) and fails on a string literal that is exactly an executor's name, unless
 * tests/compiler/executor-names-allowed.txt lists it as something else (a device, a Python module, a
 * library) with a part of its line. */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

typedef struct
{
  char *path, *name, *context;
} Allowed;

static void
allowed_free (gpointer p)
{
  Allowed *a = p;

  g_free (a->path);
  g_free (a->name);
  g_free (a->context);
  g_free (a);
}

static GPtrArray *
load_allowed (const char *root)
{
  g_autofree char *path = g_build_filename (root, "tests", "compiler", "executor-names-allowed.txt", NULL);
  g_autofree char *text = wb_test_read_file (path, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *list = g_ptr_array_new_with_free_func (allowed_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;
      Allowed *a;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], " | ", 4);
      g_assert_cmpuint (g_strv_length (f), ==, 4);
      a = g_new0 (Allowed, 1);
      a->path = g_strdup (f[0]);
      a->name = g_strdup (f[1]);
      a->context = g_strdup (f[2]);
      g_ptr_array_add (list, a);
    }
  return list;
}

/* @text with its C and C++ comments replaced by spaces (newlines kept), string and character literals kept */
static char *
strip_comments (const char *text)
{
  GString *out = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0';)
    {
      if (*p == '"' || *p == '\'')
        {
          char q = *p;

          g_string_append_c (out, *p++);
          while (*p != '\0' && *p != q && *p != '\n')
            {
              if (*p == '\\' && p[1] != '\0')
                g_string_append_c (out, *p++);
              g_string_append_c (out, *p++);
            }
          if (*p == q)
            g_string_append_c (out, *p++);
        }
      else if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");

          end = end ? end + 2 : p + strlen (p);
          for (; p < end; p++)
            g_string_append_c (out, *p == '\n' ? '\n' : ' ');
        }
      else if (p[0] == '/' && p[1] == '/')
        while (*p != '\0' && *p != '\n')
          p++;
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_allowed (GPtrArray *allowed, const char *path, const char *name, const char *line)
{
  for (guint i = 0; i < allowed->len; i++)
    {
      const Allowed *a = allowed->pdata[i];

      if (strcmp (a->path, path) == 0 && strcmp (a->name, name) == 0 && strstr (line, a->context) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
scan_file (const char *root, const char *rel, char **names, GPtrArray *allowed, GString *found, guint *n_files)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autofree char *raw = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean c_like = g_str_has_suffix (rel, ".c") || g_str_has_suffix (rel, ".h") || g_str_has_suffix (rel, ".cc") ||
                    g_str_has_suffix (rel, ".def") || g_str_has_suffix (rel, ".cuh");

  if (!c_like && !g_str_has_suffix (rel, ".ui") && !g_str_has_suffix (rel, ".xml") && !g_str_has_suffix (rel, ".in"))
    return;
  if (strcmp (rel, "compiler/wb-executor-info.def") == 0) /* the registry's rows */
    return;
  if (!g_file_get_contents (path, &raw, NULL, NULL))
    return;
  (*n_files)++;
  text = c_like ? strip_comments (raw) : g_strdup (raw);
  lines = g_strsplit (text, "\n", -1);
  for (guint l = 0; lines[l] != NULL; l++)
    for (guint e = 0; names[e] != NULL; e++)
      {
        g_autofree char *quoted = g_strdup_printf ("\"%s\"", names[e]);

        if (strstr (lines[l], quoted) != NULL && !is_allowed (allowed, rel, names[e], lines[l]))
          g_string_append_printf (found, "%s:%u: %s: %s\n", rel, l + 1, quoted, g_strstrip (lines[l]));
      }
}

static void
scan_dir (const char *root, const char *rel, char **names, GPtrArray *allowed, GString *found, guint *n_files)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (rel, name, NULL);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (strcmp (child, "data/samples") == 0)
        continue; /* recorded traces: data */
      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        scan_dir (root, child, names, allowed, found, n_files);
      else
        scan_file (root, child, names, allowed, found, n_files);
    }
}

static void
test_no_names_outside_rows (void)
{
  const char              *root = g_getenv ("WB_SOURCE_ROOT");
  static const char *const dirs[] = { "compiler", "executors", "profiler", "views", "app", "data" };
  g_auto (GStrv) names = wb_executor_info_dup_names (WB_EXECUTOR_SET_ALL);
  g_autoptr (GPtrArray) allowed = NULL;
  g_autoptr (GString) found = g_string_new (NULL);
  guint n_files = 0;

  if (root == NULL)
    {
      g_test_skip ("WB_SOURCE_ROOT is not set");
      return;
    }
  allowed = load_allowed (root);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    scan_dir (root, dirs[i], names, allowed, found, &n_files);
  g_test_message ("%u files read, %u names, %u allowed literals", n_files, g_strv_length (names), allowed->len);
  g_assert_cmpuint (n_files, >, 200);
  if (found->len > 0)
    g_error ("executor names written outside compiler/wb-executor-info.def (take them from the registry, or list "
             "what is not an executor in tests/compiler/executor-names-allowed.txt):\n%s",
             found->str);
}

/* The registry's own promises: names unique, ids dense, defaults runnable, every region prefix claims. */
static void
test_rows (void)
{
  g_auto (GStrv) all = wb_executor_info_dup_names (WB_EXECUTOR_SET_ALL);
  g_auto (GStrv) cuda = wb_executor_info_dup_priority (TRUE);
  g_auto (GStrv) cpu = wb_executor_info_dup_priority (FALSE);

  g_assert_cmpuint (g_strv_length (all), ==, WB_N_EXECUTOR_IDS - 1);
  for (guint i = 0; all[i] != NULL; i++)
    {
      const WbExecutorInfo *info = wb_executor_info_lookup (all[i]);

      g_assert_nonnull (info);
      g_assert_true (wb_executor_info_get (wb_executor_info_get_id (info)) == info);
      g_assert_cmpstr (wb_executor_info_get_name (info), ==, all[i]);
      if (wb_executor_info_get_region_prefix (info) != NULL)
        {
          g_autofree char      *region = g_strdup_printf ("%s0", wb_executor_info_get_region_prefix (info));
          const WbExecutorInfo *owner = wb_executor_info_for_region (region);

          g_assert_nonnull (owner);
          g_assert_cmpstr (wb_executor_info_get_region_prefix (owner), ==, wb_executor_info_get_region_prefix (info));
        }
    }
  g_assert_cmpuint (g_strv_length (cuda), >, 0);
  g_assert_cmpuint (g_strv_length (cpu), >, 0);
  for (guint i = 0; cuda[i] != NULL; i++)
    g_assert_false (wb_executor_info_is_thunder (wb_executor_info_lookup (cuda[i])));
  for (guint i = 0; cpu[i] != NULL; i++)
    g_assert_false (wb_executor_info_is_thunder (wb_executor_info_lookup (cpu[i])));
  g_assert_false (wb_executor_info_is_thunder (wb_executor_info_get_default (TRUE)));
  g_assert_false (wb_executor_info_is_thunder (wb_executor_info_get_default (FALSE)));
  g_assert_cmpint (wb_executor_info_get_kind (wb_executor_info_get_default (TRUE)), ==, WB_EXECUTOR_KIND_FUSION);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/executor-registry/rows", test_rows);
  g_test_add_func ("/compiler/executor-registry/no-names-outside-rows", test_no_names_outside_rows);
  return g_test_run ();
}
