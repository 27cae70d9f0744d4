/* test-bad-input-cli.c — `thunder-wb --headless check|print FILE` on broken traces: exit 2, FILE:LINE:COL
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The same generator as tests/compiler/test-bad-input.c (tests/compiler/wb-bad-input-gen.h): about 60 of
 * its variants, a few of every category (two of the 10 MB lines), written to a temporary folder; the
 * binary must exit with 2 (bad input, DESIGN.md) and print a line "FILE:LINE:COL: ..." on stderr, and
 * never die of a signal. A variant the parser accepts (a truncation at a line end) is left out. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "../compiler/wb-bad-input-gen.h"
#include "wb-compiler.h"
#include "wb-test-common.h"

#define PER_CATEGORY 7

static char *tmpdir;

static const char *
binary (void)
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

/* Runs thunder-wb --headless @command @file; returns the exit status, fails if it died of a signal. */
static int
run_cli (const char *command, const char *file, char **err_out)
{
  const char *argv[] = { binary (), "--headless", command, file, NULL };
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *out = NULL;
  int              wait_status = 0;

  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  env = g_environ_unsetenv (env, "LANGUAGE");
  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, err_out, &wait_status, &error);
  g_assert_no_error (error);
  if (!WIFEXITED (wait_status))
    g_error ("thunder-wb --headless %s %s died (wait status %d); stderr:\n%.2000s", command, file, wait_status,
             *err_out);
  return WEXITSTATUS (wait_status);
}

/* stderr has a line that starts "FILE:LINE:COL: " with LINE and COL inside the text. */
static gboolean
has_location (const char *err, const char *file, const WbBadVariant *v)
{
  const char *line = err;
  while (line != NULL && *line != '\0')
    {
      guint64 l, c;
      if (wb_bad_parse_location (line, file, &l, &c) && wb_bad_location_in_bounds (v->text, v->len, l, c))
        return TRUE;
      line = strchr (line, '\n');
      if (line != NULL)
        line++;
    }
  return FALSE;
}

static gboolean
symbol_table_rejects_unknown (void)
{
  static const char bogus[] = "prims.no_such_symbol_wb";
  return wb_symbol_lookup (bogus, sizeof bogus - 1) == NULL;
}

static void
test_category (gconstpointer data)
{
  WbBadCategory cat = GPOINTER_TO_UINT (data);
  g_autoptr (GPtrArray) bases = NULL;
  g_autoptr (GPtrArray) variants = NULL;
  const char *dir = wb_test_traces_dir ();
  guint       n = MIN (wb_bad_category_counts[cat], PER_CATEGORY), tried = 0, failures = 0, step;

  if (cat == WB_BAD_SYMBOL && !symbol_table_rejects_unknown ())
    {
      g_test_skip ("the symbol table accepts unknown names (still the stub)");
      return;
    }
  bases = wb_bad_load_bases (dir ? dir : wb_test_samples_dir ());
  g_assert_cmpuint (bases->len, >, 0);
  /* the same variants as test-bad-input (same seed and count), every step-th of them */
  variants = wb_bad_generate (cat, wb_bad_category_counts[cat], wb_bad_seed (), bases);
  step = MAX (1, variants->len / n);
  if (cat == WB_BAD_LONG_LINE)
    step = 6; /* kinds 0 (unclosed call after a real trace's lines) and 6 (10 MB of raw bytes) */
  for (guint i = 0; i < variants->len && tried < n; i += step)
    {
      const WbBadVariant *v = variants->pdata[i];
      g_autofree char    *path = g_build_filename (tmpdir, v->name, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) parsed = wb_trace_parse_many (v->text, (gssize) v->len, v->name, &error);
      const char *commands[] = { "check", "print" };
      guint       failures_before = failures;

      if (parsed != NULL)
        continue; /* a valid truncation: not bad input */
      g_assert_true (g_file_set_contents (path, v->text, (gssize) v->len, NULL));
      tried++;
      for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
        {
          g_autofree char *err = NULL;
          int              status;
          if (c == 1 && i % 3 != 0)
            continue; /* print on every third only */
          status = run_cli (commands[c], path, &err);
          if (status != 2)
            {
              g_test_message ("FAIL %s (%s): thunder-wb --headless %s exited %d, not 2; stderr:\n%.2000s", v->name,
                              v->origin, commands[c], status, err);
              failures++;
            }
          else if (!has_location (err, path, v))
            {
              g_autofree char *escaped = g_strescape (err, "\n");
              g_test_message ("FAIL %s (%s): thunder-wb --headless %s: no '%s:LINE:COL: ' line inside the text on "
                              "stderr:\n%.2000s",
                              v->name, v->origin, commands[c], path, escaped);
              failures++;
            }
        }
      if (failures == failures_before)
        g_remove (path); /* a failing file stays in the temporary folder for a look */
    }
  g_test_message ("%s: %u files through the CLI, %u failures", wb_bad_category_names[cat], tried, failures);
  g_assert_cmpuint (tried, >, 0);
  if (failures > 0)
    g_test_fail_printf ("%s: %u runs of thunder-wb failed", wb_bad_category_names[cat], failures);
}

int
main (int argc, char **argv)
{
  int rc;

  /* every category runs even when one fails (GLib stops at the first failed test otherwise) */
  static char **args; /* static: still reachable for the leak checker at exit */
  args = g_new0 (char *, argc + 2);
  memcpy (args, argv, sizeof (char *) * (gsize) argc);
  args[argc++] = (char *) "--keep-going";
  argv = args;
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("wb-bad-input-cli-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  for (guint c = 0; c < WB_BAD_N_CATEGORIES; c++)
    {
      g_autofree char *path = NULL;
      if (c == WB_BAD_DTYPE || c == WB_BAD_SYMBOL)
        continue; /* open world (issue 41): unknown dtypes and symbols load, they are no bad input */
      path = g_strdup_printf ("/app/bad-input-cli/%s", wb_bad_category_names[c]);
      g_test_add_data_func (path, GUINT_TO_POINTER (c), test_category);
    }
  rc = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
