/* wb-report-json-build.c — the members every JSON report writes: strings, numbers, ms, unknowns, the text
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the profile report (wb-report-json.c), its Chrome trace (wb-report-chrome.c) and the ranks'
 * report (wb-report-ranks-json.c), so that they write a value the same way. */
#include "config.h"

#include "wb-report-private.h"

void
_wb_json_add_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value == NULL)
    json_builder_add_null_value (b);
  else if (g_utf8_validate (value, -1, NULL))
    json_builder_add_string_value (b, value);
  else
    {
      /* a name read from a file (a run's label, a kernel's name) is not always UTF-8; JSON must be */
      g_autofree char *valid = g_utf8_make_valid (value, -1);

      json_builder_add_string_value (b, valid);
    }
}

void
_wb_json_add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

void
_wb_json_add_double (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

void
_wb_json_add_ms (JsonBuilder *b, const char *name, gint64 ns)
{
  _wb_json_add_double (b, name, _wb_report_ms (ns));
}

void
_wb_json_add_optional (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  if (value >= 0)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

char *
_wb_json_finish (JsonBuilder *b, gboolean pretty)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);
  text = json_generator_to_data (gen, NULL);
  return g_strconcat (text, "\n", NULL);
}
