/* wb-cli-record-capture.c — `record`: reading what the recorder captured: record.json and env-*.json, and a
 * case's profile.json (schema thunder-wb/record-profile) turned into a run for the session
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-cli-record.h"

#define RECORD_PROFILE_SCHEMA "thunder-wb/record-profile"

JsonNode *
wb_cli_record_load_json (const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  return json_node_copy (json_parser_get_root (parser));
}

const char *
wb_cli_record_obj_string (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING ? json_node_get_string (n) : NULL;
}

gint64
wb_cli_record_obj_int (JsonObject *o, const char *name, gint64 fallback)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return fallback;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return json_node_get_int (n);
  if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    return (gint64) json_node_get_double (n);
  return fallback;
}

JsonArray *
wb_cli_record_obj_array (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

JsonObject *
wb_cli_record_obj_object (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static gint64
array_int (JsonArray *a, guint i)
{
  JsonNode *n = json_array_get_element (a, i);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return 0;
  if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    return (gint64) json_node_get_double (n);
  return json_node_get_value_type (n) == G_TYPE_INT64 ? json_node_get_int (n) : 0;
}

/* A case folder name from the manifest is untrusted: one plain path component. */
gboolean
wb_cli_record_safe_component (const char *name)
{
  return name != NULL && name[0] != '\0' && name[0] != '.' && strchr (name, '/') == NULL && strchr (name, '\\') == NULL;
}

/* The workbench's entry names of the case's default stage (what `profile` reports), or NULL. */
static GHashTable *
workbench_entries (const char *case_dir, char **stage_label)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = wb_case_load (case_dir, &error);
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbProfile) profile = NULL;
  const WbCaseStage *stage;
  GHashTable        *names;

  if (c == NULL || (stage = wb_case_get_default_stage (c)) == NULL ||
      (program = wb_case_make_program (c, stage, &error)) == NULL)
    return NULL;
  profile = wb_profile_new (program, stage->label);
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < wb_profile_get_n_entries (profile); i++)
    g_hash_table_add (names, g_strdup (wb_profile_get_entry_name (profile, i)));
  *stage_label = g_strdup (stage->label);
  return names;
}

/* Turns profile.json into a run (transfer full). Entries the workbench does not time (utility calls) are
 * left out, so `compare` pairs Thunder's regions with the workbench's by name. */
WbRun *
wb_cli_record_run_from_profile (const char *path, const char *case_dir, const char *label, GPtrArray *notes, GError **error)
{
  g_autoptr (JsonNode) root = wb_cli_record_load_json (path, error);
  g_autoptr (WbRun) run = NULL;
  g_autoptr (GHashTable) keep = NULL;
  g_autoptr (GHashTable) regions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *wb_stage = NULL;
  JsonObject      *o;
  JsonObject      *versions;
  JsonArray       *a;
  gint64           iteration_median;
  guint            dropped = 0;

  if (root == NULL)
    return NULL;
  o = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (g_strcmp0 (wb_cli_record_obj_string (o, "schema"), RECORD_PROFILE_SCHEMA) != 0 || wb_cli_record_obj_int (o, "version", 0) != 1)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a %s version 1 file", path, RECORD_PROFILE_SCHEMA);
      return NULL;
    }

  run = wb_run_new ();
  run->label = g_strdup (label);
  run->device_name = g_strdup (wb_cli_record_obj_string (o, "device") ? wb_cli_record_obj_string (o, "device") : "cpu");
  run->device_model = g_strdup (wb_cli_record_obj_string (o, "device_model"));
  run->driver_version = g_strdup (wb_cli_record_obj_string (o, "driver_version"));
  run->iters = (guint32) wb_cli_record_obj_int (o, "iters", 0);
  run->warmup = (guint32) wb_cli_record_obj_int (o, "warmup", 0);
  run->assignment = g_strdup ("thunder");
  run->stage = g_strdup (wb_cli_record_obj_string (o, "stage"));
  run->start_time_us = wb_cli_record_obj_int (o, "start_time_us", run->start_time_us);
  if ((versions = wb_cli_record_obj_object (o, "versions")) != NULL)
    {
      g_autoptr (GList) members = json_object_get_members (versions);

      for (GList *l = members; l != NULL; l = l->next)
        if (wb_cli_record_obj_string (versions, l->data) != NULL)
          wb_run_add_executor_version (run, l->data, wb_cli_record_obj_string (versions, l->data));
    }
  if ((a = wb_cli_record_obj_array (o, "iteration_ns")) != NULL)
    for (guint i = 0; i < json_array_get_length (a); i++)
      wb_run_add_iteration (run, array_int (a, i));
  iteration_median = wb_run_get_iteration_median_ns (run);

  keep = workbench_entries (case_dir, &wb_stage);
  if (keep == NULL)
    g_ptr_array_add (notes, g_strdup ("the workbench cannot build this case's program: every timed call is kept"));
  else if (run->stage != NULL && g_strcmp0 (wb_stage, run->stage) != 0)
    g_ptr_array_add (notes, g_strdup_printf ("Thunder ran %s, the workbench's default stage is %s", run->stage, wb_stage));

  if ((a = wb_cli_record_obj_array (o, "entries")) != NULL)
    for (guint i = 0; i < json_array_get_length (a); i++)
      {
        JsonObject    *e = json_array_get_object_element (a, i);
        const char    *name = wb_cli_record_obj_string (e, "name");
        JsonArray     *times = wb_cli_record_obj_array (e, "times_ns");
        WbRegionStats *stats;

        if (name == NULL || g_hash_table_contains (regions, name))
          continue;
        if (keep != NULL && !g_hash_table_contains (keep, name))
          {
            dropped++;
            continue;
          }
        stats = wb_region_stats_new (name, wb_cli_record_obj_string (e, "executor"));
        for (guint k = 0; times != NULL && k < json_array_get_length (times); k++)
          wb_region_stats_add_time (stats, array_int (times, k));
        wb_region_stats_update (stats);
        stats->kernel_count = (guint32) wb_cli_record_obj_int (e, "kernel_count", 0);
        stats->share = iteration_median > 0 ? (double) stats->median_ns / (double) iteration_median : 0;
        g_hash_table_add (regions, stats->name);
        wb_run_add_region (run, stats);
      }
  if (dropped > 0)
    g_ptr_array_add (notes, g_strdup_printf ("%u utility calls left out (the workbench does not time them either)", dropped));

  if ((a = wb_cli_record_obj_array (o, "kernels")) != NULL)
    for (guint i = 0; i < json_array_get_length (a); i++)
      {
        JsonObject     *k = json_array_get_object_element (a, i);
        const char     *region = wb_cli_record_obj_string (k, "region");
        WbKernelRecord *r;
        JsonArray      *dims;

        if (k == NULL || wb_cli_record_obj_string (k, "name") == NULL)
          continue;
        r = wb_kernel_record_new (wb_cli_record_obj_string (k, "name"), region && g_hash_table_contains (regions, region) ? region : NULL);
        r->stream = (guint32) wb_cli_record_obj_int (k, "stream", 0);
        r->start_ns = wb_cli_record_obj_int (k, "start_ns", 0);
        r->end_ns = MAX (r->start_ns, wb_cli_record_obj_int (k, "end_ns", 0));
        r->iteration = (guint32) wb_cli_record_obj_int (k, "iteration", 0);
        r->registers = (guint32) wb_cli_record_obj_int (k, "registers", 0);
        r->shared_bytes = (guint32) wb_cli_record_obj_int (k, "shared_bytes", 0);
        r->correlation_id = (guint64) wb_cli_record_obj_int (k, "correlation_id", 0);
        if ((dims = wb_cli_record_obj_array (k, "grid")) != NULL)
          for (guint d = 0; d < 3 && d < json_array_get_length (dims); d++)
            r->grid[d] = (guint32) array_int (dims, d);
        if ((dims = wb_cli_record_obj_array (k, "block")) != NULL)
          for (guint d = 0; d < 3 && d < json_array_get_length (dims); d++)
            r->block[d] = (guint32) array_int (dims, d);
        wb_run_add_kernel (run, r);
      }
  if ((a = wb_cli_record_obj_array (o, "notes")) != NULL)
    for (guint i = 0; i < json_array_get_length (a); i++)
      {
        JsonNode *n = json_array_get_element (a, i);

        if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
          g_ptr_array_add (notes, g_strdup (json_node_get_string (n)));
      }
  if (run->iteration_ns->len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no timed iteration", path);
      return NULL;
    }
  return g_steal_pointer (&run);
}

/* Why nothing was captured, from the env-<pid>.json files the package writes (transfer full), or NULL. */
char *
wb_cli_record_environment_problem (const char *capture)
{
  g_autoptr (GDir) dir = g_dir_open (capture, 0, NULL);
  GString    *why = NULL;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr (JsonNode) root = NULL;
      JsonObject *o;
      JsonArray  *missing;
      JsonObject *failed;

      if (!g_str_has_prefix (name, "env-") || !g_str_has_suffix (name, ".json"))
        continue;
      path = g_build_filename (capture, name, NULL);
      if ((root = wb_cli_record_load_json (path, NULL)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        continue;
      o = json_node_get_object (root);
      missing = wb_cli_record_obj_array (o, "missing");
      failed = wb_cli_record_obj_object (o, "failed");
      for (guint i = 0; missing != NULL && i < json_array_get_length (missing); i++)
        {
          const char *m = json_array_get_string_element (missing, i);

          if (m == NULL)
            continue;
          if (why == NULL)
            why = g_string_new (NULL);
          else if (strstr (why->str, m) != NULL)
            continue;
          g_string_append_printf (why, "%s%s (not found by %s)", why->len ? "; " : "", m,
                                  wb_cli_record_obj_string (o, "python") ? wb_cli_record_obj_string (o, "python") : "python");
        }
      if (failed != NULL && wb_cli_record_obj_string (failed, "thunder") != NULL)
        {
          if (why == NULL)
            why = g_string_new (NULL);
          g_string_append_printf (why, "%sthunder (%s)", why->len ? "; " : "", wb_cli_record_obj_string (failed, "thunder"));
        }
    }
  return why ? g_string_free (why, FALSE) : NULL;
}
