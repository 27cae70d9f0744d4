/* wb-cli-coverage-report.c — `coverage`'s results and report: levels, per-level results and their JSON,
 * the per-level summary, Markdown and JSON reports
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The summary counts, per level asked, the cases that passed among those that tried it (status ok or
 * fail), the trace files that passed among the files of those cases (load, check and roundtrip), and the
 * cases not run, grouped by reason. A case not run never counts as passed. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-cli-coverage.h"

/* Longest error shown on one line of the Markdown report, in bytes. */
#define ERROR_SHOWN_MAX 300
/* Longest error kept in a result, in bytes. */
#define ERROR_KEPT_MAX 600

static const char *const level_names[WB_CLI_COVERAGE_N_LEVELS] = {
  "load",
  "check",
  "roundtrip",
  "recompile",
  "run-cpu",
  "run-gpu",
};

const char *
wb_cli_coverage_level_to_string (WbCliCoverageLevel level)
{
  g_return_val_if_fail (level < WB_CLI_COVERAGE_N_LEVELS, "?");
  return level_names[level];
}

gboolean
wb_cli_coverage_parse_levels (const char *list, guint *mask, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (list != NULL ? list : "", ",", -1);

  *mask = 0;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *name = g_strstrip (parts[i]);
      guint       l;

      for (l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
        if (strcmp (name, level_names[l]) == 0)
          break;
      if (l == WB_CLI_COVERAGE_N_LEVELS)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("unknown level “%s” in --levels (known: load, check, roundtrip, recompile, run-cpu, run-gpu)"), name);
          return FALSE;
        }
      *mask |= 1u << l;
    }
  if (*mask == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("--levels names no level"));
      return FALSE;
    }
  return TRUE;
}

const char *
wb_cli_coverage_status_to_string (WbCliCoverageStatus status)
{
  switch (status)
    {
    case WB_CLI_COVERAGE_OK:
      return "ok";
    case WB_CLI_COVERAGE_FAIL:
      return "fail";
    case WB_CLI_COVERAGE_NOT_RUN:
      return "not-run";
    case WB_CLI_COVERAGE_NOT_ASKED:
    default:
      return "not-asked";
    }
}

/* The first line of @text cut to at most @max bytes at a character boundary, "…" added when cut
 * (transfer full). */
static char *
one_line (const char *text, gsize max)
{
  gsize       len = strcspn (text, "\r\n");
  const char *end;

  if (len <= max)
    return g_strndup (text, len);
  end = g_utf8_find_prev_char (text, text + max);
  return g_strdup_printf ("%.*s…", (int) (end != NULL ? end - text : 0), text);
}

void
wb_cli_coverage_result_clear (WbCliCoverageResult *r)
{
  g_clear_pointer (&r->error, g_free);
  g_clear_pointer (&r->reason, g_free);
  g_clear_pointer (&r->detail, g_free);
  g_clear_pointer (&r->failed_files, g_ptr_array_unref);
  memset (r, 0, sizeof *r);
}

void
wb_cli_coverage_result_set_fail (WbCliCoverageResult *r, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  r->status = WB_CLI_COVERAGE_FAIL;
  g_free (r->error);
  r->error = one_line (message, ERROR_KEPT_MAX);
}

void
wb_cli_coverage_result_set_not_run (WbCliCoverageResult *r, const char *reason, const char *detail)
{
  r->status = WB_CLI_COVERAGE_NOT_RUN;
  g_free (r->reason);
  g_free (r->detail);
  r->reason = g_strdup (reason);
  r->detail = detail != NULL ? one_line (detail, ERROR_KEPT_MAX) : NULL;
}

static void
add_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* A percentage of @part in @whole with one decimal, or null when @whole is 0. */
static void
add_percent (JsonBuilder *b, const char *name, guint part, guint whole)
{
  json_builder_set_member_name (b, name);
  if (whole > 0)
    json_builder_add_double_value (b, (double) (gint64) (1000.0 * part / whole + 0.5) / 10.0);
  else
    json_builder_add_null_value (b);
}

void
wb_cli_coverage_result_to_json (const WbCliCoverageResult *r, JsonBuilder *b)
{
  json_builder_begin_object (b);
  add_string (b, "status", wb_cli_coverage_status_to_string (r->status));
  add_string (b, "error", r->error);
  add_string (b, "reason", r->reason);
  add_string (b, "detail", r->detail);
  if (r->has_files)
    {
      add_int (b, "files_ok", r->files_ok);
      add_int (b, "files", r->files);
      json_builder_set_member_name (b, "failed_files");
      json_builder_begin_array (b);
      for (guint i = 0; r->failed_files != NULL && i < r->failed_files->len; i++)
        json_builder_add_string_value (b, r->failed_files->pdata[i]);
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "seconds");
  json_builder_add_double_value (b, (double) (gint64) (r->seconds * 1000 + 0.5) / 1000);
  json_builder_end_object (b);
}

static char *
dup_member (JsonObject *o, const char *name)
{
  return g_strdup (json_object_get_string_member_with_default (o, name, NULL));
}

gboolean
wb_cli_coverage_result_from_json (WbCliCoverageResult *r, JsonObject *o)
{
  const char *status = json_object_get_string_member_with_default (o, "status", "");
  JsonArray  *failed;

  wb_cli_coverage_result_clear (r);
  if (strcmp (status, "ok") == 0)
    r->status = WB_CLI_COVERAGE_OK;
  else if (strcmp (status, "fail") == 0)
    r->status = WB_CLI_COVERAGE_FAIL;
  else if (strcmp (status, "not-run") == 0)
    r->status = WB_CLI_COVERAGE_NOT_RUN;
  else
    return FALSE;
  r->error = dup_member (o, "error");
  r->reason = dup_member (o, "reason");
  r->detail = dup_member (o, "detail");
  r->seconds = json_object_get_double_member_with_default (o, "seconds", 0);
  if (json_object_has_member (o, "files"))
    {
      r->has_files = TRUE;
      r->files = (guint) json_object_get_int_member_with_default (o, "files", 0);
      r->files_ok = (guint) json_object_get_int_member_with_default (o, "files_ok", 0);
    }
  failed = json_object_has_member (o, "failed_files") ? json_object_get_array_member (o, "failed_files") : NULL;
  for (guint i = 0; failed != NULL && i < json_array_get_length (failed); i++)
    {
      if (r->failed_files == NULL)
        r->failed_files = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (r->failed_files, g_strdup (json_array_get_string_element (failed, i)));
    }
  return TRUE;
}

void
wb_cli_coverage_case_free (WbCliCoverageCase *kase)
{
  if (kase == NULL)
    return;
  g_free (kase->name);
  g_free (kase->path);
  g_clear_pointer (&kase->files, g_ptr_array_unref);
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    wb_cli_coverage_result_clear (&kase->levels[l]);
  g_free (kase);
}

void
wb_cli_coverage_skipped_free (WbCliCoverageSkipped *skipped)
{
  if (skipped == NULL)
    return;
  g_free (skipped->name);
  g_free (skipped->path);
  g_free (skipped->reason);
  g_free (skipped);
}

/* -- summary -------------------------------------------------------------------------------------- */

/* The cases not run at one level for one reason. */
typedef struct
{
  const char *reason;
  guint       n;
  GString    *names;
} ReasonGroup;

#define REASON_NAMES_SHOWN 6

static void
reason_group_free (ReasonGroup *g)
{
  g_string_free (g->names, TRUE);
  g_free (g);
}

typedef struct
{
  guint      ok, failed, not_run;
  guint      files_ok, files;
  gboolean   has_files;
  GPtrArray *reasons; /* (element-type ReasonGroup) in order of first appearance */
} LevelSummary;

static void
summarize (const WbCliCoverageReport *report, WbCliCoverageLevel level, LevelSummary *s)
{
  memset (s, 0, sizeof *s);
  s->has_files = level <= WB_CLI_COVERAGE_ROUNDTRIP;
  s->reasons = g_ptr_array_new_with_free_func ((GDestroyNotify) reason_group_free);
  for (guint i = 0; i < report->cases->len; i++)
    {
      const WbCliCoverageCase   *k = report->cases->pdata[i];
      const WbCliCoverageResult *r = &k->levels[level];
      ReasonGroup               *g = NULL;

      if (r->status == WB_CLI_COVERAGE_OK || r->status == WB_CLI_COVERAGE_FAIL)
        {
          s->ok += r->status == WB_CLI_COVERAGE_OK;
          s->failed += r->status == WB_CLI_COVERAGE_FAIL;
          s->files_ok += r->files_ok;
          s->files += r->files;
          continue;
        }
      if (r->status != WB_CLI_COVERAGE_NOT_RUN)
        continue;
      s->not_run++;
      for (guint j = 0; j < s->reasons->len && g == NULL; j++)
        if (g_strcmp0 (((ReasonGroup *) s->reasons->pdata[j])->reason, r->reason) == 0)
          g = s->reasons->pdata[j];
      if (g == NULL)
        {
          g = g_new0 (ReasonGroup, 1);
          g->reason = r->reason != NULL ? r->reason : "?";
          g->names = g_string_new (NULL);
          g_ptr_array_add (s->reasons, g);
        }
      /* a few names say which; the JSON report lists every case's own reason */
      if (g->n < REASON_NAMES_SHOWN)
        g_string_append_printf (g->names, "%s%s", g->n > 0 ? ", " : "", k->name);
      g->n++;
    }
}

static void
level_summary_clear (LevelSummary *s)
{
  g_clear_pointer (&s->reasons, g_ptr_array_unref);
}

gboolean
wb_cli_coverage_report_passed (const WbCliCoverageReport *report)
{
  for (guint i = 0; i < report->cases->len; i++)
    for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
      {
        const WbCliCoverageCase *k = report->cases->pdata[i];

        if ((report->levels & (1u << l)) && k->levels[l].status != WB_CLI_COVERAGE_OK)
          return FALSE;
      }
  return TRUE;
}

/* -- Markdown ------------------------------------------------------------------------------------- */

static void
append_percent (GString *s, guint part, guint whole)
{
  if (whole > 0)
    g_string_append_printf (s, " %.1f |", 100.0 * part / whole);
  else
    g_string_append (s, " - |");
}

static void
append_summary (GString *s, const WbCliCoverageReport *report)
{
  g_autoptr (GString) reasons = g_string_new (NULL);

  g_string_append_printf (s, "## SUMMARY\n\n%u cases under %s", report->cases->len, report->paths[0]);
  for (guint i = 1; report->paths[i] != NULL; i++)
    g_string_append_printf (s, ", %s", report->paths[i]);
  g_string_append (s, "\n\n| level | cases ok | cases tried | % | files ok | files | % | not run |\n"
                      "|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    {
      LevelSummary s_l;

      if (!(report->levels & (1u << l)))
        continue;
      summarize (report, l, &s_l);
      g_string_append_printf (s, "| %s | %u | %u |", level_names[l], s_l.ok, s_l.ok + s_l.failed);
      append_percent (s, s_l.ok, s_l.ok + s_l.failed);
      if (s_l.has_files)
        {
          g_string_append_printf (s, " %u | %u |", s_l.files_ok, s_l.files);
          append_percent (s, s_l.files_ok, s_l.files);
        }
      else
        g_string_append (s, " - | - | - |");
      g_string_append_printf (s, " %u |\n", s_l.not_run);
      for (guint j = 0; j < s_l.reasons->len; j++)
        {
          const ReasonGroup *g = s_l.reasons->pdata[j];

          g_string_append_printf (reasons, "- %s: %u %s (%s", level_names[l], g->n, g->reason, g->names->str);
          if (g->n > REASON_NAMES_SHOWN)
            g_string_append_printf (reasons, " and %u more", g->n - REASON_NAMES_SHOWN);
          g_string_append (reasons, ")\n");
        }
      level_summary_clear (&s_l);
    }
  if (reasons->len > 0)
    g_string_append_printf (s, "\nNot run:\n%s", reasons->str);
  g_string_append_printf (s, "\nResult: %s\n",
                          wb_cli_coverage_report_passed (report) ? "PASS (every level asked passed for every case)"
                                                                 : "FAIL (a level failed or was not run)");
}

static void
append_cases_table (GString *s, const WbCliCoverageReport *report)
{
  g_string_append (s, "| case |");
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if (report->levels & (1u << l))
      g_string_append_printf (s, " %s |", level_names[l]);
  g_string_append (s, "\n|---|");
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if (report->levels & (1u << l))
      g_string_append (s, "---|");
  g_string_append_c (s, '\n');
  for (guint i = 0; i < report->cases->len; i++)
    {
      const WbCliCoverageCase *k = report->cases->pdata[i];

      g_string_append_printf (s, "| %s |", k->name);
      for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
        if (report->levels & (1u << l))
          g_string_append_printf (s, " %s |", k->levels[l].status == WB_CLI_COVERAGE_OK ? "ok" : k->levels[l].status == WB_CLI_COVERAGE_FAIL ? "FAIL"
                                                                                                                                             : "-");
      g_string_append_c (s, '\n');
    }
}

/* "- CASE, LEVEL: TEXT" for each case's first failure (@failures) or each level not run for a reason of
 * its own (not an earlier failure). */
static void
append_case_lines (GString *s, const WbCliCoverageReport *report, gboolean failures)
{
  for (guint i = 0; i < report->cases->len; i++)
    {
      const WbCliCoverageCase *k = report->cases->pdata[i];

      for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
        {
          const WbCliCoverageResult *r = &k->levels[l];
          g_autofree char           *text = NULL;

          if (failures && r->status == WB_CLI_COVERAGE_FAIL)
            text = one_line (r->error != NULL ? r->error : "?", ERROR_SHOWN_MAX);
          else if (!failures && r->status == WB_CLI_COVERAGE_NOT_RUN && g_strcmp0 (r->reason, WB_CLI_COVERAGE_REASON_EARLIER) != 0)
            {
              g_autofree char *full = g_strdup_printf ("%s%s%s", r->reason, r->detail ? ": " : "", r->detail ? r->detail : "");

              text = one_line (full, ERROR_SHOWN_MAX);
            }
          if (text == NULL)
            continue;
          g_string_append_printf (s, "- %s, %s: %s\n", k->name, level_names[l], text);
          if (failures)
            break; /* the first error only: the levels after it were not run */
        }
    }
}

char *
wb_cli_coverage_report_to_markdown (const WbCliCoverageReport *report, gboolean summary_only)
{
  GString *s = g_string_new (NULL);
  gsize    mark;

  g_return_val_if_fail (report != NULL, NULL);
  if (summary_only)
    {
      append_summary (s, report);
      return g_string_free (s, FALSE);
    }
  g_string_append (s, "# thunder-wb coverage\n\n");
  append_cases_table (s, report);
  mark = s->len;
  g_string_append (s, "\n## First errors\n\n");
  append_case_lines (s, report, TRUE);
  if (s->len == mark + strlen ("\n## First errors\n\n"))
    g_string_truncate (s, mark);
  mark = s->len;
  g_string_append (s, "\n## Not run\n\n");
  append_case_lines (s, report, FALSE);
  if (s->len == mark + strlen ("\n## Not run\n\n"))
    g_string_truncate (s, mark);
  if (report->skipped->len > 0)
    {
      g_string_append (s, "\n## Folders without traces (not cases)\n\n");
      for (guint i = 0; i < report->skipped->len; i++)
        {
          const WbCliCoverageSkipped *k = report->skipped->pdata[i];
          g_autofree char            *reason = one_line (k->reason, ERROR_SHOWN_MAX);

          g_string_append_printf (s, "- %s: %s\n", k->name, reason);
        }
    }
  g_string_append_c (s, '\n');
  append_summary (s, report);
  return g_string_free (s, FALSE);
}

/* -- JSON ----------------------------------------------------------------------------------------- */

static void
add_case_json (JsonBuilder *b, const WbCliCoverageReport *report, const WbCliCoverageCase *k)
{
  json_builder_begin_object (b);
  add_string (b, "name", k->name);
  add_string (b, "path", k->path);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint f = 0; k->files != NULL && f < k->files->len; f++)
    json_builder_add_string_value (b, k->files->pdata[f]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "levels");
  json_builder_begin_object (b);
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if (report->levels & (1u << l))
      {
        json_builder_set_member_name (b, level_names[l]);
        wb_cli_coverage_result_to_json (&k->levels[l], b);
      }
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static void
add_summary_json (JsonBuilder *b, const WbCliCoverageReport *report)
{
  json_builder_begin_object (b);
  add_int (b, "cases", report->cases->len);
  add_int (b, "skipped", report->skipped->len);
  json_builder_set_member_name (b, "passed");
  json_builder_add_boolean_value (b, wb_cli_coverage_report_passed (report));
  json_builder_set_member_name (b, "levels");
  json_builder_begin_object (b);
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    {
      LevelSummary s;

      if (!(report->levels & (1u << l)))
        continue;
      summarize (report, l, &s);
      json_builder_set_member_name (b, level_names[l]);
      json_builder_begin_object (b);
      add_int (b, "cases_ok", s.ok);
      add_int (b, "cases_failed", s.failed);
      add_int (b, "cases_tried", s.ok + s.failed);
      add_percent (b, "cases_percent", s.ok, s.ok + s.failed);
      add_int (b, "cases_not_run", s.not_run);
      if (s.has_files)
        {
          add_int (b, "files_ok", s.files_ok);
          add_int (b, "files", s.files);
          add_percent (b, "files_percent", s.files_ok, s.files);
        }
      json_builder_set_member_name (b, "not_run");
      json_builder_begin_array (b);
      for (guint j = 0; j < s.reasons->len; j++)
        {
          const ReasonGroup *g = s.reasons->pdata[j];

          json_builder_begin_object (b);
          add_string (b, "reason", g->reason);
          add_int (b, "cases", g->n);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      level_summary_clear (&s);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
}

char *
wb_cli_coverage_report_to_json (const WbCliCoverageReport *report)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (report != NULL, NULL);
  json_builder_begin_object (b);
  add_string (b, "schema", "thunder-wb/coverage");
  add_int (b, "version", 1);
  json_builder_set_member_name (b, "paths");
  json_builder_begin_array (b);
  for (guint i = 0; report->paths[i] != NULL; i++)
    json_builder_add_string_value (b, report->paths[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "levels");
  json_builder_begin_array (b);
  for (guint l = 0; l < WB_CLI_COVERAGE_N_LEVELS; l++)
    if (report->levels & (1u << l))
      json_builder_add_string_value (b, level_names[l]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "options");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "cpu_budget_gflop");
  json_builder_add_double_value (b, report->cpu_budget_gflop);
  add_int (b, "timeout_s", report->timeout_s);
  add_int (b, "jobs", report->jobs);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "cases");
  json_builder_begin_array (b);
  for (guint i = 0; i < report->cases->len; i++)
    add_case_json (b, report, report->cases->pdata[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "skipped");
  json_builder_begin_array (b);
  for (guint i = 0; i < report->skipped->len; i++)
    {
      const WbCliCoverageSkipped *k = report->skipped->pdata[i];

      json_builder_begin_object (b);
      add_string (b, "name", k->name);
      add_string (b, "path", k->path);
      add_string (b, "reason", k->reason);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "summary");
  add_summary_json (b, report);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  return g_strconcat (text, "\n", NULL);
}
