/* test-hostile-input.c — the parser and the input reader on hostile files: special files, files over
 * the size limit, and files of only blank or comment lines (memory bounded by the text)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 46: a body of 4 MB of empty lines peaked at 1.1 GB (a bound symbol of ~270 bytes per line),
 * `check /dev/zero` read until memory ran out, and a FIFO hung the reader. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

/* Peak resident memory of this process so far, in KiB. */
static glong
peak_rss_kib (void)
{
  struct rusage u;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &u), ==, 0);
  return u.ru_maxrss;
}

/* A trace whose body is @n copies of @line between an annotation and the return. */
static GString *
body_of (const char *line,
         guint       n)
{
  GString *s = g_string_new ("def f(x):\n  # x: \"cpu f32[2]\"\n");

  for (guint i = 0; i < n; i++)
    g_string_append (s, line);
  g_string_append (s, "  return x\n");
  return s;
}

/* Parses @text: one trace of at most @max_body top-level bsyms whose return is on @return_line, printed
 * back byte for byte; and the parse raised the peak memory by less than @max_kib. */
static void
assert_cheap_parse (const GString *text,
                    guint          max_body,
                    guint          return_line,
                    glong          max_kib)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;
  g_autoptr (GString) printed = g_string_new (NULL);
  glong before = peak_rss_kib ();

  trace = wb_trace_parse (text->str, (gssize) text->len, "hostile.py", &error);
  g_assert_no_error (error);
  g_test_message ("%" G_GSIZE_FORMAT " bytes: %u top-level bsyms, peak memory +%ld KiB", text->len, trace->n_body,
                  peak_rss_kib () - before);
  g_assert_cmpuint (trace->n_body, <=, max_body);
  g_assert_cmpint (trace->body[trace->n_body - 1]->kind, ==, WB_BSYM_RETURN);
  g_assert_cmpuint (wb_trace_get_bsym_line (trace, trace->body[trace->n_body - 1]), ==, return_line);
  g_assert_cmpuint (trace->last_line, ==, return_line);
  wb_trace_print (trace, printed);
  g_assert_true (printed->len == text->len && memcmp (printed->str, text->str, text->len) == 0);
  g_assert_cmpint (peak_rss_kib () - before, <, max_kib);
}

/* Before: one bsym per empty line (~270 bytes each, 1.1 GB for 4 MB). Now a run is one bsym. */
static void
test_blank_lines (void)
{
  const guint n = 4 * 1024 * 1024;
  g_autoptr (GString) empty = body_of ("\n", n);
  g_autoptr (GString) spaces = body_of ("   \t\n", n / 5);

  /* 4 MiB of text, a few copies of it at most */
  assert_cheap_parse (empty, 3, n + 3, 64 * 1024);
  assert_cheap_parse (spaces, 3, n / 5 + 3, 64 * 1024);
}

static void
test_comment_lines (void)
{
  const guint n = 1024 * 1024;
  g_autoptr (GString) comments = body_of ("  #\n", n);
  g_autoptr (GString) mixed = g_string_new ("def f(x):\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;

  assert_cheap_parse (comments, 3, n + 3, 64 * 1024);

  /* runs end where another kind of line starts; annotations stay bsyms of their own */
  g_string_append (mixed, "  # a\n  # b   \n\n \n  # x: \"cpu f32[2]\"\n  # c\n  return x\n");
  trace = wb_trace_parse (mixed->str, -1, "mixed.py", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (trace->n_body, ==, 5);
  g_assert_cmpint (trace->body[0]->kind, ==, WB_BSYM_COMMENT);
  g_assert_cmpstr (trace->body[0]->comment, ==, " a\n  # b");
  g_assert_cmpstr (trace->body[0]->trailing, ==, "   ");
  g_assert_cmpint (trace->body[1]->kind, ==, WB_BSYM_BLANK);
  g_assert_cmpstr (trace->body[1]->trailing, ==, "\n ");
  g_assert_cmpint (trace->body[2]->kind, ==, WB_BSYM_ANNOTATION);
  g_assert_cmpuint (trace->body[2]->line, ==, 6);
  g_assert_cmpint (trace->body[3]->kind, ==, WB_BSYM_COMMENT);
  g_assert_cmpuint (trace->body[4]->line, ==, 8);
  {
    g_autofree char *printed = wb_trace_to_string (trace);

    g_assert_cmpstr (printed, ==, mixed->str);
  }
}

/* Blank lines between two traces of one file go to the second trace's header, as one line each. */
static void
test_blank_lines_between_traces (void)
{
  const char *text = "def f(x):\n  return x\n\n\n\ndef g(y):\n  return y\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = wb_trace_parse_many (text, -1, "two.py", &error);
  g_autoptr (GString) printed = g_string_new (NULL);
  const WbTrace *second;

  g_assert_no_error (error);
  g_assert_cmpuint (traces->len, ==, 2);
  second = traces->pdata[1];
  g_assert_cmpuint (((const WbTrace *) traces->pdata[0])->last_line, ==, 2);
  g_assert_cmpuint (second->first_line, ==, 3);
  /* one header line for the run of three */
  g_assert_cmpuint (second->n_header, ==, 1);
  g_assert_cmpstr (second->header[0].text, ==, "\n\n");
  g_assert_cmpuint (wb_trace_count_header_lines (second), ==, 3);
  for (guint i = 0; i < traces->len; i++)
    wb_trace_print (traces->pdata[i], printed);
  g_assert_cmpstr (printed->str, ==, text);
}

/* Empty lines before `def`, and a file of nothing else: one header line per run (before: 24 bytes and a
 * WbHeaderLine per line, 112 MB for 4 MiB of empty lines). */
static void
test_blank_header_lines (void)
{
  const guint n = 4 * 1024 * 1024;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) none = NULL;
  glong before;

  for (guint i = 0; i < n; i++)
    g_string_append_c (text, '\n');
  before = peak_rss_kib ();
  none = wb_trace_parse_many (text->str, (gssize) text->len, "blank.py", &error);
  g_assert_null (none);
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_EMPTY);
  g_clear_error (&error);
  g_string_append (text, "# c\n\n\ndef f(x):\n  return x\n");
  {
    g_autoptr (WbTrace) trace = wb_trace_parse (text->str, (gssize) text->len, "blank.py", &error);
    g_autofree char *printed = NULL;

    g_assert_no_error (error);
    g_assert_cmpuint (trace->n_header, ==, 3);
    g_assert_cmpuint (wb_trace_count_header_lines (trace), ==, n + 3);
    g_assert_cmpuint (trace->body[0]->line, ==, n + 5);
    printed = wb_trace_to_string (trace);
    g_assert_cmpstr (printed, ==, text->str);
  }
  g_test_message ("peak memory +%ld KiB", peak_rss_kib () - before);
  g_assert_cmpint (peak_rss_kib () - before, <, 64 * 1024);
}

/* A FIFO, a device, a directory: refused at once by what the opened descriptor is. */
static void
test_special_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-hostile-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "forward_00.py", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize            len = 0;
  gint64           start;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  start = g_get_monotonic_time ();
  /* a plain open() of a FIFO with no writer waits forever */
  g_assert_false (wb_input_read_file (fifo, 1024, &contents, &len, &error));
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, fifo));
  g_assert_nonnull (strstr (error->message, ":1:1: cannot read: not a regular file (a FIFO)"));
  g_clear_error (&error);
  g_assert_null (wb_trace_parse_file (fifo, &error));
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO);
  g_clear_error (&error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  if (g_file_test ("/dev/zero", G_FILE_TEST_EXISTS))
    {
      g_assert_null (wb_trace_parse_file ("/dev/zero", &error));
      g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO);
      g_assert_nonnull (strstr (error->message, "(a device)"));
      g_clear_error (&error);
    }
  g_assert_cmpint (wb_input_open (dir, NULL, &error), ==, -1);
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "a directory"));
  g_clear_error (&error);

  g_remove (fifo);
  g_rmdir (dir);
}

/* The size limit per trace file: option, environment, default; checked before reading. */
static void
test_size_limit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wb-hostile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "forward_00.py", NULL);
  const char      *text = "def f(x):\n  return x\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = NULL;
  guint64 size = 0;

  g_assert_true (wb_input_parse_size ("1048576", &size) && size == 1048576);
  g_assert_true (wb_input_parse_size (" 64M ", &size) && size == 64 * 1024 * 1024);
  g_assert_true (wb_input_parse_size ("2g", &size) && size == G_GUINT64_CONSTANT (2) << 30);
  g_assert_false (wb_input_parse_size ("0", &size));
  g_assert_false (wb_input_parse_size ("-1", &size));
  g_assert_false (wb_input_parse_size ("1.5M", &size));
  g_assert_false (wb_input_parse_size ("99999999999999999999", &size));
  g_assert_false (wb_input_parse_size ("17179869184G", &size));
  g_assert_false (wb_input_parse_size ("", &size));

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  wb_input_set_max_trace_bytes (strlen (text));
  traces = wb_trace_parse_file (path, &error);
  g_assert_no_error (error);
  g_clear_pointer (&traces, g_ptr_array_unref);

  wb_input_set_max_trace_bytes (strlen (text) - 1);
  g_assert_cmpuint (wb_input_get_max_trace_bytes (), ==, strlen (text) - 1);
  g_assert_null (wb_trace_parse_file (path, &error));
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_TOO_LARGE);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, ":1:1: file too large"));
  g_clear_error (&error);

  /* the environment's limit when no option set one; the default without either */
  wb_input_set_max_trace_bytes (0);
  g_setenv ("WB_MAX_TRACE_BYTES", "8", TRUE);
  g_assert_cmpuint (wb_input_get_max_trace_bytes (), ==, 8);
  g_assert_null (wb_trace_parse_file (path, &error));
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_TOO_LARGE);
  g_clear_error (&error);
  g_unsetenv ("WB_MAX_TRACE_BYTES");
  g_assert_cmpuint (wb_input_get_max_trace_bytes (), ==, WB_INPUT_DEFAULT_MAX_TRACE_BYTES);

  g_remove (path);
  g_rmdir (dir);
}

/* Python's json.dump writes NaN, Infinity and -Infinity (the zoo's meta.json does where a statistic was not
 * finite): null in their place, strings untouched, lengths right */
static void
test_json_finite (void)
{
  static const char text[] = "{\"a\": NaN, \"b\": [Infinity, -Infinity, 1.5], \"s\": \"NaN \\\" Infinity\"}";
  gsize             len = 0;
  g_autofree char  *out = wb_input_json_finite (text, sizeof text - 1, &len);

  g_assert_cmpstr (out, ==, "{\"a\": null, \"b\": [null, null, 1.5], \"s\": \"NaN \\\" Infinity\"}");
  g_assert_cmpuint (len, ==, strlen (out));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the memory tests first, while the process's peak is still low */
  g_test_add_func ("/compiler/hostile/blank-lines", test_blank_lines);
  g_test_add_func ("/compiler/hostile/comment-lines", test_comment_lines);
  g_test_add_func ("/compiler/hostile/blank-header-lines", test_blank_header_lines);
  g_test_add_func ("/compiler/hostile/blank-lines-between-traces", test_blank_lines_between_traces);
  g_test_add_func ("/compiler/hostile/special-files", test_special_files);
  g_test_add_func ("/compiler/hostile/size-limit", test_size_limit);
  g_test_add_func ("/compiler/hostile/json-finite", test_json_finite);
  return g_test_run ();
}
