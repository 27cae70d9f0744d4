/* wb-cli-export.c — `thunder-wb --headless export PATH --stage K --as python|torch|dot|svg [-o FILE]`
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "wb-cli-cuda.h"
#include "wb-cli.h"
#include "wb-data.h"

/* default_stage: the entry a bare `export PATH` takes: the final forward of the top-level sub-set (the
 * program Thunder runs), else the last forward, else entry 0. */
static guint
default_stage (const WbTraceSet *set)
{
  guint n = wb_trace_set_get_n_entries (set);
  int   last_forward = -1;

  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

      if ((e->subset != NULL && e->subset[0] != '\0') || e->kind != WB_TRACE_KIND_FORWARD)
        continue;
      if (last_forward < 0 || e->index >= wb_trace_set_get_entry (set, last_forward)->index)
        last_forward = i;
    }
  return last_forward >= 0 ? (guint) last_forward : 0;
}

int
wb_cli_command_export (int    argc,
                       char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  g_autofree char   *as = NULL;
  g_autofree char   *output = NULL;
  g_autofree char   *region = NULL;
  g_autofree char   *text = NULL;
  g_autofree char   *source = NULL;
  int                stage = -1;
  gboolean           no_backward = FALSE;
  WbExportFormat     format;
  const char        *path;
  guint              n;
  const GOptionEntry entries[] = {
    { "stage", 0, 0, G_OPTION_ARG_INT, &stage,
      N_ ("Entry K of `stages PATH` (default: the final forward)"), "K" },
    { "as", 0, 0, G_OPTION_ARG_STRING, &as, N_ ("Format: python, torch, dot or svg"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Write to FILE instead of standard output"), "FILE" },
    { "region", 0, 0, G_OPTION_ARG_STRING, &region, N_ ("cuda: the fusion region whose generated CUDA C to print"), "R" },
    { "no-backward", 0, 0, G_OPTION_ARG_NONE, &no_backward,
      N_ ("torch: export the stage alone, without its matching forward or backward"), NULL },
    { NULL }
  };

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_set_prgname ("thunder-wb --headless export");
  context = g_option_context_new ("PATH");
  g_option_context_set_summary (context,
                                _ ("Exports entry K of PATH: “python” prints it as Thunder does; “torch” writes a\n"
                                   "standalone PyTorch script that runs it (with the matching backward for a\n"
                                   "training case's final forward), checks it against a safetensors file and\n"
                                   "times it eager and under torch.compile; “dot” writes its dataflow graph with\n"
                                   "one cluster per fusion region; “svg” lays that graph out with Graphviz."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      return wb_cli_usage_error ("%s", error->message);
    }
  g_set_prgname ("thunder-wb");

  if (g_strv_length (args) != 2)
    return wb_cli_usage_error (_ ("“%s” takes one PATH"), "export");
  path = args[1];
  if (as == NULL)
    return wb_cli_usage_error (_ ("export needs --as python, torch, dot or svg"));
  if (g_strcmp0 (as, "cuda") == 0) /* the nvrtc executor's code for --region R (wb-cli-cuda.c) */
    return wb_cli_export_cuda (path, stage, region, output);
  if (!wb_export_format_from_string (as, &format))
    return wb_cli_usage_error (_ ("unknown --as “%s” (python, torch, dot or svg)"), as);

  if (!(set = wb_cli_load (path, &error)))
    return wb_cli_report_error (error);
  n = wb_trace_set_get_n_entries (set);
  if (stage == -1)
    stage = (int) default_stage (set);
  if (stage < 0 || (guint) stage >= n)
    return wb_cli_usage_error (_ ("--stage %d: %s has %u entries, numbered from 0"), stage, path, n);

  {
    g_autofree char *base = g_path_get_basename (path);

    source = g_strdup (base);
  }
  text = wb_export_entry (set, (guint) stage, format, !no_backward, source, warnings, &error);
  if (text == NULL)
    {
      g_printerr ("thunder-wb: export: %s\n", error->message);
      return wb_cli_exit_code (error);
    }
  for (guint i = 0; i < warnings->len; i++)
    g_printerr ("%s\n", (const char *) g_ptr_array_index (warnings, i));

  if (output != NULL && strcmp (output, "-") != 0)
    {
      if (!wb_output_write (output, text, -1, &error))
        {
          g_printerr ("thunder-wb: %s\n", error->message);
          return wb_cli_exit_code (error); /* -o /dev/null, a directory: the option's fault */
        }
      if (format == WB_EXPORT_FORMAT_TORCH && g_file_test (output, G_FILE_TEST_IS_REGULAR) && !g_file_test (output, G_FILE_TEST_IS_SYMLINK))
        g_chmod (output, 0755); /* never a FIFO, a terminal, or what a link points to */
    }
  else
    wb_cli_write (text, strlen (text));
  return WB_EXIT_OK;
}
