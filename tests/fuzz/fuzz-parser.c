/* fuzz-parser.c — libFuzzer harness for the printed-trace parser, printer and verifier
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For every input: wb_trace_parse_many on the raw bytes. A rejection must be a WB_TRACE_ERROR whose
 * message starts "fuzz.py:LINE:COL: " with LINE and COL inside the input. An acceptance must print, the
 * printed text must parse again, and print identically (print . parse is a fixed point); the verifier
 * runs on every accepted trace (it never fails, it only reports). Anything else aborts, which libFuzzer
 * reports as a crash. Build and run: tests/fuzz/README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb-compiler.h"

#define NAME "fuzz.py"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static void
die (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz-parser: %s\n%s\n", what, detail ? detail : "");
  abort ();
}

/* "NAME:LINE:COL: " with LINE a line of @text (or the empty one after a final newline) and COL at most
 * one past its end. */
static gboolean
location_ok (const char *msg, const char *text, gsize len)
{
  const gsize nl = strlen (NAME);
  guint64     line, col, l = 1;
  gsize       start = 0, line_len;
  const char *p, *eol;
  char       *end;

  if (strncmp (msg, NAME, nl) != 0 || msg[nl] != ':' || !g_ascii_isdigit (msg[nl + 1]))
    return FALSE;
  line = g_ascii_strtoull (msg + nl + 1, &end, 10);
  if (*end != ':' || !g_ascii_isdigit (end[1]))
    return FALSE;
  p = end + 1;
  col = g_ascii_strtoull (p, &end, 10);
  if (end[0] != ':' || end[1] != ' ' || line < 1 || col < 1)
    return FALSE;
  for (gsize i = 0; i < len && l < line; i++)
    if (text[i] == '\n')
      {
        l++;
        start = i + 1;
      }
  if (l != line)
    return FALSE;
  eol = memchr (text + start, '\n', len - start);
  line_len = eol ? (gsize) (eol - (text + start)) : len - start;
  return col <= line_len + 1;
}

static void
print_all (GPtrArray *traces, GString *out)
{
  for (guint i = 0; i < traces->len; i++)
    wb_trace_print (traces->pdata[i], out);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  /* GLib criticals and warnings are bugs here: make them abort */
  static const char warm[] = "def f(x):\n  # x: \"cpu f32[2]\"\n  t0 = prims.neg(x)  # t0: \"cpu f32[2]\"\n  return t0\n";
  GPtrArray        *traces;
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  /* build the symbol table (g_once) here, not inside the first input, so that its one-time allocations
   * are not counted against an input by the leak check */
  traces = wb_trace_parse_many (warm, sizeof warm - 1, NAME, NULL);
  if (traces != NULL)
    g_ptr_array_unref (traces);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = (const char *) data;
  GError     *error = NULL;
  GPtrArray  *traces, *again;
  GString    *first, *second;

  traces = wb_trace_parse_many (text, (gssize) size, NAME, &error);
  if (traces == NULL)
    {
      if (error == NULL)
        die ("NULL without an error", NULL);
      if (error->domain != WB_TRACE_ERROR)
        die ("error of another domain", error->message);
      if (!location_ok (error->message, text, size))
        die ("message without FILE:LINE:COL inside the input", error->message);
      g_error_free (error);
      return 0;
    }
  if (error != NULL)
    die ("traces and an error", error->message);
  if (traces->len == 0)
    die ("an empty trace list instead of WB_TRACE_ERROR_EMPTY", NULL);

  first = g_string_sized_new (size + 64);
  print_all (traces, first);

  /* print . parse is a fixed point */
  again = wb_trace_parse_many (first->str, (gssize) first->len, NAME, &error);
  if (again == NULL)
    die ("the printed text does not parse", error->message);
  if (again->len != traces->len)
    die ("the printed text parses to a different number of traces", first->str);
  second = g_string_sized_new (first->len + 64);
  print_all (again, second);
  if (second->len != first->len || memcmp (second->str, first->str, first->len) != 0)
    die ("printing the re-parsed text gives different text", first->str);

#ifdef WB_HAVE_VERIFIER
  for (guint i = 0; i < traces->len; i++)
    {
      GPtrArray *diagnostics = wb_trace_verify (traces->pdata[i], WB_VERIFY_DEFAULT);
      if (diagnostics == NULL)
        die ("wb_trace_verify returned NULL", NULL);
      for (guint d = 0; d < diagnostics->len; d++)
        {
          char *s = wb_diagnostic_to_string (diagnostics->pdata[d]);
          g_free (s);
        }
      (void) wb_diagnostics_count_errors (diagnostics);
      g_ptr_array_unref (diagnostics);
    }
#endif

  g_string_free (first, TRUE);
  g_string_free (second, TRUE);
  g_ptr_array_unref (again);
  g_ptr_array_unref (traces);
  return 0;
}
