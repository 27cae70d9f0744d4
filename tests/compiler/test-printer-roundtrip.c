/* test-printer-roundtrip.c — every real Thunder trace prints back byte for byte
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

static guint
first_diff_line (const char *a, gsize alen, const char *b, gsize blen, gsize *offset)
{
  guint line = 1;
  gsize i;
  for (i = 0; i < alen && i < blen && a[i] == b[i]; i++)
    if (a[i] == '\n')
      line++;
  *offset = i;
  return line;
}

static guint
roundtrip_dir (const char *dir)
{
  g_autoptr (GPtrArray) files = wb_test_list_trace_files (dir);
  guint failures = 0, traces = 0;
  g_assert_cmpuint (files->len, >, 0);
  for (guint f = 0; f < files->len; f++)
    {
      const char      *path = files->pdata[f];
      gsize            len;
      g_autofree char *text = wb_test_read_file (path, &len);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) parsed = wb_trace_parse_many (text, len, path, &error);
      g_autoptr (GString) out = g_string_sized_new (len);
      if (parsed == NULL)
        {
          g_test_message ("parse failed: %s", error->message);
          failures++;
          continue;
        }
      for (guint i = 0; i < parsed->len; i++)
        wb_trace_print (parsed->pdata[i], out);
      traces += parsed->len;
      if (out->len != len || memcmp (out->str, text, len) != 0)
        {
          gsize off;
          guint line = first_diff_line (text, len, out->str, out->len, &off);
          gsize ls = off, le = off;
          while (ls > 0 && text[ls - 1] != '\n')
            ls--;
          while (le < len && text[le] != '\n')
            le++;
          g_test_message ("%s:%u: printed text differs (lengths %" G_GSIZE_FORMAT " vs %" G_GSIZE_FORMAT ")\n  want: %.*s\n  got:  %.*s",
                          path, line, len, out->len, (int) (le - ls), text + ls,
                          (int) MIN (le - ls + 20, out->len - MIN (ls, out->len)), out->str + MIN (ls, out->len));
          failures++;
        }
    }
  g_test_message ("%u files, %u traces, %u failures", files->len, traces, failures);
  return failures;
}

static void
test_roundtrip_real_traces (void)
{
  const char *dir = wb_test_traces_dir ();
  if (dir == NULL)
    {
      g_test_skip ("../shared/traces is not present");
      return;
    }
  g_assert_cmpuint (roundtrip_dir (dir), ==, 0);
}

static void
test_roundtrip_samples (void)
{
  g_assert_cmpuint (roundtrip_dir (wb_test_samples_dir ()), ==, 0);
}

static void
test_roundtrip_concatenated (void)
{
  /* Several traces printed one after another in one text parse as several and print back. */
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *a = NULL, *b = NULL, *both = NULL, *base = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) parsed = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  gsize alen, blen;
  base = g_build_filename (dir ? dir : wb_test_samples_dir (), "mlp_small", NULL);
  {
    g_autofree char *pa = g_build_filename (base, "forward_00.py", NULL);
    g_autofree char *pb = g_build_filename (base, "backward_00.py", NULL);
    a = wb_test_read_file (pa, &alen);
    b = wb_test_read_file (pb, &blen);
  }
  both = g_strconcat (a, "\n\n", b, "\n", NULL);
  parsed = wb_trace_parse_many (both, -1, "both.py", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parsed->len, ==, 2);
  g_assert_cmpstr (((WbTrace *) parsed->pdata[0])->function_name, ==, "computation");
  g_assert_cmpstr (((WbTrace *) parsed->pdata[1])->function_name, ==, "backward_fn");
  g_assert_cmpuint (((WbTrace *) parsed->pdata[1])->first_line, >, 2);
  for (guint i = 0; i < parsed->len; i++)
    wb_trace_print (parsed->pdata[i], out);
  g_assert_cmpstr (out->str, ==, both);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbTrace/roundtrip/real-traces", test_roundtrip_real_traces);
  g_test_add_func ("/compiler/WbTrace/roundtrip/samples", test_roundtrip_samples);
  g_test_add_func ("/compiler/WbTrace/roundtrip/concatenated", test_roundtrip_concatenated);
  return g_test_run ();
}
