/* wb-cli-compare.c — `compare SESSION [RUN_A RUN_B] [--format md|json]`: two runs side by side
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-cli.h"
#include "wb-data.h"

static gboolean
parse_run_id (const char *text,
              gint64     *id)
{
  guint64 value = 0;

  /* "12" or "#12" */
  if (text[0] == '#')
    text++;
  if (!g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT64, &value, NULL))
    return FALSE;
  *id = (gint64) value;
  return TRUE;
}

int
wb_cli_command_compare (int    argc,
                        char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autoptr (WbRun) a = NULL;
  g_autoptr (WbRun) b = NULL;
  g_autoptr (WbComparison) comparison = NULL;
  g_auto (GStrv) positional = NULL;
  g_autofree char   *format = NULL;
  g_autofree char   *text = NULL;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_ ("Output format: md (Markdown, default) or json"), "md|json" },
    { NULL }
  };
  gint64 a_id = 0;
  gint64 b_id = 0;
  guint  n;
  int    exit_code = WB_EXIT_OK;

  if (!wb_cli_parse_session_command ("compare", "SESSION [RUN_A RUN_B]",
                                     _ ("Compare two runs of a session, region by region and for the whole\n"
                                        "iteration: executors, median times (ms), the difference and whether it\n"
                                        "exceeds the noise seen across iterations. Without runs named: the latest two."),
                                     entries, argc, argv, &positional, &exit_code))
    return exit_code;

  n = g_strv_length (positional);
  if (n != 1 && n != 3)
    return wb_cli_usage_error (_ ("“compare” takes SESSION and either no run or two runs (RUN_A RUN_B)"));
  if (format != NULL && strcmp (format, "md") != 0 && strcmp (format, "markdown") != 0 && strcmp (format, "json") != 0)
    return wb_cli_usage_error (_ ("--format must be md or json, not “%s”"), format);
  if (n == 3)
    {
      if (!parse_run_id (positional[1], &a_id))
        return wb_cli_usage_error (_ ("“%s” is not a run id (a positive number, as “sessions” lists)"), positional[1]);
      if (!parse_run_id (positional[2], &b_id))
        return wb_cli_usage_error (_ ("“%s” is not a run id (a positive number, as “sessions” lists)"), positional[2]);
    }

  session = wb_session_open (positional[0], WB_SESSION_OPEN_DEFAULT, &error);
  if (session == NULL)
    return wb_cli_report_session_error (error);
  if (!wb_session_get_run_pair (session, a_id, b_id, &a, &b, &error))
    return wb_cli_report_session_error (error);

  comparison = wb_comparison_new (a, b);
  if (format != NULL && strcmp (format, "json") == 0)
    text = wb_comparison_to_json (comparison, positional[0]);
  else
    {
      /* labels, device, region and executor names come from the file: no control character reaches
         the terminal (JSON escapes them itself) */
      g_autofree char *md = wb_comparison_to_markdown (comparison, positional[0]);
      text = wb_cli_escape_controls (md, TRUE);
    }
  wb_cli_write (text, strlen (text));
  if (text[0] != '\0' && text[strlen (text) - 1] != '\n')
    wb_cli_write ("\n", 1);
  return WB_EXIT_OK;
}
