/* wb-cli-record-ranks.c — `record`: the captures of a distributed program, one manifest per rank
 * (record-rank<R>.json, written by python/thunder_wb_record/layout.py), merged into record.json
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rank R of a program started by torchrun (or one that initialised torch.distributed) writes its cases as
 * CAPTURE/<case>/rank<R>/ and lists them in CAPTURE/record-rank<R>.json, whose case records carry "dir":
 * "<case>/rank<R>", "case" and "rank", and whose "distributed" says {"world_size", "rank", "local_rank",
 * "backend", "launcher"}. wb_cli_record_merge_ranks() writes CAPTURE/record.json with every rank's cases
 * (rank by rank, in each rank's order), "distributed": {"world_size", "ranks": [R...]} and "ranks": one
 * record per rank manifest ({"rank", "manifest", "cases", "local_rank", "backend"}); the cases a process
 * that was not a rank wrote to record.json itself are kept first. */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb-cli-record.h"

#define RECORD_SCHEMA "thunder-wb/record"

/* The rank of a file name record-rank<R>.json, or -1. */
static gint64
rank_of_manifest_name (const char *name)
{
  const char *digits;
  char       *end = NULL;
  gint64      rank;

  if (!g_str_has_prefix (name, "record-rank") || !g_str_has_suffix (name, ".json"))
    return -1;
  digits = name + strlen ("record-rank");
  if (!g_ascii_isdigit (digits[0]))
    return -1;
  errno = 0;
  rank = g_ascii_strtoll (digits, &end, 10);
  if (errno != 0 || end == NULL || strcmp (end, ".json") != 0 || rank < 0 || rank > G_MAXINT32)
    return -1;
  return rank;
}

static gint
compare_rank (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

gboolean
wb_cli_record_safe_relative_path (const char *path)
{
  g_auto (GStrv) parts = NULL;

  if (path == NULL || path[0] == '\0' || path[0] == '/' || strchr (path, '\\') != NULL)
    return FALSE;
  parts = g_strsplit (path, "/", -1);
  if (g_strv_length (parts) > 2)
    return FALSE;
  for (guint i = 0; parts[i] != NULL; i++)
    if (!wb_cli_record_safe_component (parts[i]))
      return FALSE;
  return TRUE;
}

GArray *
wb_cli_record_list_ranks (const char *capture)
{
  g_autoptr (GDir) dir = g_dir_open (capture, 0, NULL);
  GArray     *ranks = g_array_new (FALSE, FALSE, sizeof (gint64));
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      gint64 rank = rank_of_manifest_name (name);

      if (rank >= 0)
        g_array_append_val (ranks, rank);
    }
  g_array_sort (ranks, compare_rank);
  return ranks;
}

/* Appends @from's case records that are objects with a safe "dir" to @cases; returns how many. */
static guint
append_cases (JsonArray *cases, JsonObject *from, gint64 rank)
{
  JsonArray *a = wb_cli_record_obj_array (from, "cases");
  guint      n = 0;

  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      JsonNode   *c = json_array_get_element (a, i);
      JsonObject *o = c && JSON_NODE_HOLDS_OBJECT (c) ? json_node_get_object (c) : NULL;

      if (o == NULL || !wb_cli_record_safe_relative_path (wb_cli_record_obj_string (o, "dir")))
        continue;
      /* a rank's record says which rank wrote it, whatever the file said */
      if (rank >= 0 && wb_cli_record_obj_int (o, "rank", -1) != rank)
        continue;
      json_array_add_element (cases, json_node_copy (c));
      n++;
    }
  return n;
}

/* The record of rank @rank's manifest @m for "ranks". (transfer full) */
static JsonNode *
rank_record (JsonObject *m, gint64 rank, const char *file, guint n_cases)
{
  JsonObject *r = json_object_new ();
  JsonObject *d = wb_cli_record_obj_object (m, "distributed");
  JsonNode   *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (r, "rank", rank);
  json_object_set_string_member (r, "manifest", file);
  json_object_set_int_member (r, "cases", n_cases);
  json_object_set_int_member (r, "local_rank", wb_cli_record_obj_int (d, "local_rank", rank));
  if (wb_cli_record_obj_string (d, "backend") != NULL)
    json_object_set_string_member (r, "backend", wb_cli_record_obj_string (d, "backend"));
  json_node_take_object (node, r);
  return node;
}

JsonNode *
wb_cli_record_merge_ranks (const char *capture, GError **error)
{
  g_autoptr (GArray) ranks = wb_cli_record_list_ranks (capture);
  g_autofree char *path = g_build_filename (capture, "record.json", NULL);
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonGenerator) gen = NULL;
  JsonObject *out = json_object_new ();
  JsonArray  *cases = json_array_new ();
  JsonArray  *rank_list = json_array_new ();
  JsonArray  *rank_ids = json_array_new ();
  JsonObject *dist = json_object_new ();
  gint64      world = 0;

  root = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (root, out);
  json_object_set_string_member (out, "schema", RECORD_SCHEMA);
  json_object_set_int_member (out, "version", 1);
  /* owned by @root from here, so that an early return frees them */
  json_object_set_array_member (dist, "ranks", rank_ids);
  json_object_set_object_member (out, "distributed", dist);
  json_object_set_array_member (out, "ranks", rank_list);
  json_object_set_array_member (out, "cases", cases);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autoptr (JsonNode) single = wb_cli_record_load_json (path, error);

      if (single == NULL)
        return NULL;
      if (JSON_NODE_HOLDS_OBJECT (single))
        append_cases (cases, json_node_get_object (single), -1);
    }
  for (guint i = 0; i < ranks->len; i++)
    {
      gint64           rank = g_array_index (ranks, gint64, i);
      g_autofree char *file = g_strdup_printf ("record-rank%" G_GINT64_FORMAT ".json", rank);
      g_autofree char *rpath = g_build_filename (capture, file, NULL);
      g_autoptr (JsonNode) m = wb_cli_record_load_json (rpath, error);
      JsonObject *mo;
      guint       n;

      if (m == NULL || !JSON_NODE_HOLDS_OBJECT (m))
        {
          if (m != NULL)
            g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a JSON object", rpath);
          return NULL;
        }
      mo = json_node_get_object (m);
      if (g_strcmp0 (wb_cli_record_obj_string (mo, "schema"), RECORD_SCHEMA) != 0)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a %s manifest", rpath, RECORD_SCHEMA);
          return NULL;
        }
      n = append_cases (cases, mo, rank);
      json_array_add_element (rank_list, rank_record (mo, rank, file, n));
      json_array_add_int_element (rank_ids, rank);
      /* a manifest without "distributed" still says that there are more than R ranks */
      world = MAX (world, MAX (rank + 1, wb_cli_record_obj_int (wb_cli_record_obj_object (mo, "distributed"), "world_size", 0)));
      if (!json_object_has_member (out, "python") && wb_cli_record_obj_string (mo, "python") != NULL)
        json_object_set_string_member (out, "python", wb_cli_record_obj_string (mo, "python"));
      if (!json_object_has_member (out, "torch") && wb_cli_record_obj_string (mo, "torch") != NULL)
        json_object_set_string_member (out, "torch", wb_cli_record_obj_string (mo, "torch"));
      if (!json_object_has_member (out, "thunder") && wb_cli_record_obj_string (mo, "thunder") != NULL)
        json_object_set_string_member (out, "thunder", wb_cli_record_obj_string (mo, "thunder"));
    }
  json_object_set_int_member (dist, "world_size", world);

  gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  if (!json_generator_to_file (gen, path, error))
    return NULL;
  return g_steal_pointer (&root);
}

void
wb_cli_record_print_ranks (JsonNode *manifest)
{
  JsonObject *m = manifest && JSON_NODE_HOLDS_OBJECT (manifest) ? json_node_get_object (manifest) : NULL;
  JsonArray  *ranks = wb_cli_record_obj_array (m, "ranks");
  JsonArray  *cases = wb_cli_record_obj_array (m, "cases");
  gint64      world = wb_cli_record_obj_int (wb_cli_record_obj_object (m, "distributed"), "world_size", 0);

  for (guint i = 0; ranks != NULL && i < json_array_get_length (ranks); i++)
    {
      JsonObject *r = json_array_get_object_element (ranks, i);
      gint64      rank = wb_cli_record_obj_int (r, "rank", -1);
      gint64      n = wb_cli_record_obj_int (r, "cases", 0);
      g_autoptr (GString) names = g_string_new (NULL);

      for (guint k = 0; cases != NULL && k < json_array_get_length (cases); k++)
        {
          JsonObject *c = json_array_get_object_element (cases, k);

          if (wb_cli_record_obj_int (c, "rank", -1) == rank && wb_cli_record_obj_string (c, "dir") != NULL)
            g_string_append_printf (names, "%s%s", names->len ? ", " : "", wb_cli_record_obj_string (c, "dir"));
        }
      g_print ("record: rank %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " (%s): captured %" G_GINT64_FORMAT " compiled %s%s%s\n",
               rank, world, wb_cli_record_obj_string (r, "backend") ? wb_cli_record_obj_string (r, "backend") : "no backend",
               n, n == 1 ? "entry" : "entries", names->len ? ": " : "", names->str);
    }
}
