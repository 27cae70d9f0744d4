/* wb-cli-record.h — what the `record` command's files share (wb-cli-record.c runs the command,
 * wb-cli-record-capture.c reads what it captured)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "wb-cli.h"
#include "wb-data.h"

G_BEGIN_DECLS

/* wb_cli_record_load_json: (transfer full) the root of JSON file @path, or NULL with @error set. */
JsonNode *wb_cli_record_load_json (const char *path,
                                   GError    **error);

/* Members of an object read without trusting its shape: @o may be NULL, and a member of another type
 * reads as absent. (transfer none) */
const char *wb_cli_record_obj_string (JsonObject *o,
                                      const char *name);
/* wb_cli_record_obj_int: an integer member (a double is truncated), else @fallback. */
gint64      wb_cli_record_obj_int (JsonObject *o,
                                   const char *name,
                                   gint64      fallback);
JsonArray  *wb_cli_record_obj_array (JsonObject *o,
                                     const char *name);
JsonObject *wb_cli_record_obj_object (JsonObject *o,
                                      const char *name);

/* wb_cli_record_safe_component: a case folder name from the manifest (untrusted) that is one plain path
 * component: not empty, no leading dot, no slash or backslash. */
gboolean wb_cli_record_safe_component (const char *name);

/* wb_cli_record_safe_relative_path: a case folder path from a manifest (untrusted): one or two safe
 * components joined by '/' ("<case>" or "<case>/rank<R>"). */
gboolean wb_cli_record_safe_relative_path (const char *path);

/* wb_cli_record_list_ranks: (transfer full) (element-type gint64) the ranks R, ascending, whose manifest
 * record-rank<R>.json is in @capture (wb-cli-record-ranks.c); empty for a capture of one process. */
GArray *wb_cli_record_list_ranks (const char *capture);

/* wb_cli_record_merge_ranks: writes @capture/record.json listing every rank's cases (those of
 * record-rank<R>.json, R ascending, after the cases record.json already listed) with "distributed"
 * ({"world_size", "ranks"}) and "ranks" (one record per rank manifest), and returns it (transfer full).
 * NULL with @error set when a manifest cannot be read (json-glib's JSON_PARSER_ERROR or G_FILE_ERROR), is
 * not a thunder-wb/record manifest (G_FILE_ERROR_INVAL), or record.json cannot be written (G_FILE_ERROR). */
JsonNode *wb_cli_record_merge_ranks (const char *capture,
                                     GError    **error);

/* wb_cli_record_print_ranks: prints to stdout one line per rank of a merged manifest (@manifest, nullable,
 * as wb_cli_record_merge_ranks() returns it; transfer none): its rank, the world size, the backend and the
 * case folders it captured. Prints nothing for a capture of one process. */
void wb_cli_record_print_ranks (JsonNode *manifest);

/* wb_cli_record_run_from_profile: (transfer full) the run of a case's profile.json (@path; schema
 * thunder-wb/record-profile version 1) labelled @label. Entries that the workbench does not time for the
 * case's default stage (in @case_dir) are left out, so `compare` pairs Thunder's regions with the
 * workbench's by name; what was left out and the file's own notes are appended to @notes (element-type
 * utf8). NULL with @error (G_FILE_ERROR_INVAL, or the JSON parser's) for another schema or no timed
 * iteration. */
WbRun *wb_cli_record_run_from_profile (const char *path,
                                       const char *case_dir,
                                       const char *label,
                                       GPtrArray  *notes,
                                       GError    **error);

/* wb_cli_record_environment_problem: (transfer full) why nothing was captured, from the env-<pid>.json
 * files the package writes in @capture ("torch (not found by python3); thunder (...)"), or NULL. */
char *wb_cli_record_environment_problem (const char *capture);

G_END_DECLS
