/* wb-case-empty.c — why a case folder holds no trace: what its meta.json or zoo.json recorded
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>

#include "wb-executors.h"

/* @path's JSON object (transfer full), or NULL when it cannot be read or is not an object */
static JsonParser *
load_object (const char *path, JsonObject **object)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  g_autofree char *finite = NULL;
  gsize            len = 0;
  JsonNode        *root;

  if (!wb_input_read_file (path, wb_input_get_max_trace_bytes (), &text, &len, NULL) ||
      !json_parser_load_from_data (parser, (finite = wb_input_json_finite (text, len, &len)), (gssize) len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (root = json_parser_get_root (parser)))
    return NULL;
  *object = json_node_get_object (root);
  return g_steal_pointer (&parser);
}

/* the first element of @o's "errors" array when it is an object */
static JsonObject *
first_error (JsonObject *o)
{
  JsonArray *errors = json_object_has_member (o, "errors") ? json_object_get_array_member (o, "errors") : NULL;

  if (errors != NULL && json_array_get_length (errors) > 0 && JSON_NODE_HOLDS_OBJECT (json_array_get_element (errors, 0)))
    return json_array_get_object_element (errors, 0);
  return NULL;
}

/* a recorder's meta.json without traces: the recording's error (the last line of its exception) */
static char *
explain_meta (const char *meta)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o = NULL, *e;

  if ((parser = load_object (meta, &o)) == NULL)
    return g_strdup ("meta.json unreadable");
  if ((e = first_error (o)) != NULL)
    {
      const char      *exc = json_object_get_string_member_with_default (e, "exception", NULL);
      g_autofree char *text = g_strstrip (g_strdup (exc != NULL ? exc : ""));
      g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
      guint n = g_strv_length (lines);

      if (n > 0)
        return g_strdup_printf ("meta.json records the recording's error: %s", lines[n - 1]);
    }
  return g_strdup ("meta.json only");
}

/* a zoo case (tools/zoo/README.md) with only zoo.json: Thunder failed before it produced a trace, or the
 * recording itself failed; its status and first error */
static char *
explain_zoo (const char *zoo)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o = NULL, *e;
  const char *status;

  if ((parser = load_object (zoo, &o)) == NULL)
    return g_strdup ("zoo.json unreadable");
  status = json_object_get_string_member_with_default (o, "status", "?");
  if ((e = first_error (o)) != NULL)
    {
      g_auto (GStrv) lines = g_strsplit (json_object_get_string_member_with_default (e, "error", ""), "\n", 2);

      return g_strdup_printf ("zoo.json: %s (%s: %s)", status, json_object_get_string_member_with_default (e, "stage", "?"),
                              lines[0] ? lines[0] : "");
    }
  return g_strdup_printf ("zoo.json: %s", status);
}

char *
wb_case_dir_explain_empty (const char *dir)
{
  g_autofree char *meta = g_build_filename (dir, "meta.json", NULL);
  g_autofree char *zoo = g_build_filename (dir, "zoo.json", NULL);

  if (g_file_test (meta, G_FILE_TEST_IS_REGULAR))
    return explain_meta (meta);
  if (g_file_test (zoo, G_FILE_TEST_IS_REGULAR))
    return explain_zoo (zoo);
  return NULL;
}
