/* test-session-attribution.c — a run's kernel attribution (WbKernelAttribution) in session files: stored
 * with the run in one transaction, read back by every run reader, covered by the run's checksum, absent
 * (NULL and zeros) for runs of schema version 2 files, which still open and migrate; and shown by `compare`
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>

#include "wb-session-private.h"
#include "wb-test-common.h"
#include "wb-test-runs.h"
#include "wb-test-session.h"

typedef struct
{
  char *dir;
  char *path; /* dir/test.wbsession */
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("wb-attribution-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "test.wbsession", NULL);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  wb_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static GPtrArray *
test_regions (void)
{
  static GPtrArray *regions;

  if (regions == NULL)
    regions = wb_test_regions_from_string ("TorchCompile0:torchcompile:18;"
                                           "sdpafx_grad_forward_scaled_dot_product_efficient_attention:sdpa:98;"
                                           "TorchCompile1:torchcompile:120;"
                                           "cublas_linear:cublas:131");
  return regions;
}

static void
raw_exec (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static gint64
raw_int (const char *path,
         const char *sql)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64        value = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static void
raw_update (const char *path,
            const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  raw_exec (db, sql);
  sqlite3_close (db);
}

/* full_run: a GPU run whose attribution has a distinct value in every field, the largest ones included. */
static WbRun *
full_run (guint64 seq)
{
  WbRun               *run = wb_test_make_run (test_regions (), seq, 12, 40);
  WbKernelAttribution *a = &run->attribution;

  wb_kernel_attribution_clear (a);
  a->kernel_source = g_strdup ("CUDA events (CUPTI unavailable: cuptiActivityEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES “quoted”)");
  a->kernel_ns_total = G_GINT64_CONSTANT (9000000000001);
  a->kernel_ns_attributed = G_GINT64_CONSTANT (8000000000002);
  a->kernel_ns_by_time_range = 3;
  a->kernels_by_correlation = G_MAXUINT32;
  a->kernels_by_time_range = 5;
  a->kernels_unattributed = 6;
  a->memcpy_count = 7;
  a->memcpy_bytes = G_MAXUINT64; /* stored as a negative int64, read back as it was */
  a->memcpy_ns = 9;
  a->memset_count = 10;
  a->memset_bytes = G_GUINT64_CONSTANT (1) << 40;
  a->memset_ns = 12;
  a->memops_attributed = 13;
  run->dropped_records = 14;
  return run;
}

static void
assert_attribution_equal (const WbKernelAttribution *a,
                          const WbKernelAttribution *b)
{
  g_assert_cmpstr (a->kernel_source, ==, b->kernel_source);
  g_assert_cmpint (a->kernel_ns_total, ==, b->kernel_ns_total);
  g_assert_cmpint (a->kernel_ns_attributed, ==, b->kernel_ns_attributed);
  g_assert_cmpint (a->kernel_ns_by_time_range, ==, b->kernel_ns_by_time_range);
  g_assert_cmpuint (a->kernels_by_correlation, ==, b->kernels_by_correlation);
  g_assert_cmpuint (a->kernels_by_time_range, ==, b->kernels_by_time_range);
  g_assert_cmpuint (a->kernels_unattributed, ==, b->kernels_unattributed);
  g_assert_cmpuint (a->memcpy_count, ==, b->memcpy_count);
  g_assert_cmpuint (a->memcpy_bytes, ==, b->memcpy_bytes);
  g_assert_cmpint (a->memcpy_ns, ==, b->memcpy_ns);
  g_assert_cmpuint (a->memset_count, ==, b->memset_count);
  g_assert_cmpuint (a->memset_bytes, ==, b->memset_bytes);
  g_assert_cmpint (a->memset_ns, ==, b->memset_ns);
  g_assert_cmpuint (a->memops_attributed, ==, b->memops_attributed);
}

/* -- round trip ---------------------------------------------------------------------------------- */

static void
test_round_trip (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) full = full_run (1);
  g_autoptr (WbRun) cupti = wb_test_make_run (test_regions (), 4, 12, 40);
  g_autoptr (WbRun) none = wb_test_make_run (test_regions (), 5, 12, 40);
  WbRun *stored[] = { full, cupti, none };

  g_assert_cmpstr (cupti->attribution.kernel_source, ==, "cupti");
  g_assert_true (wb_kernel_attribution_is_empty (&none->attribution));
  g_assert_false (wb_kernel_attribution_is_empty (&full->attribution));
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (stored); i++)
      {
        g_assert_cmpint (wb_session_store_run (session, stored[i], 0, &error), ==, i + 1);
        g_assert_no_error (error);
      }
  }
  /* One row per run with figures; none for the run without. */
  g_assert_cmpint (raw_int (f->path, "SELECT count(*) FROM run_attribution"), ==, 2);
  g_assert_cmpint (raw_int (f->path, "SELECT count(*) FROM run_attribution WHERE run_id = 3"), ==, 0);

  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);
    g_autoptr (GPtrArray) listed = NULL;
    g_autoptr (WbRun) a = NULL;
    g_autoptr (WbRun) b = NULL;

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (stored); i++)
      {
        g_autoptr (WbRun) back = wb_session_get_run (session, i + 1, WB_SESSION_READ_KERNELS, &error);
        g_autoptr (WbRun) summary = wb_session_get_run (session, i + 1, WB_SESSION_READ_SUMMARY, &error);

        g_assert_no_error (error);
        assert_attribution_equal (&back->attribution, &stored[i]->attribution);
        assert_attribution_equal (&summary->attribution, &stored[i]->attribution);
        g_assert_cmpuint (back->dropped_records, ==, stored[i]->dropped_records);
        g_assert_true (wb_run_equal (back, stored[i]));
      }
    listed = wb_session_list_runs (session, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (listed->len, ==, 3);
    for (guint i = 0; i < listed->len; i++)
      assert_attribution_equal (&((WbRun *) listed->pdata[i])->attribution, &stored[i]->attribution);
    g_assert_true (wb_session_get_run_pair (session, 0, 0, &a, &b, &error));
    g_assert_no_error (error);
    assert_attribution_equal (&a->attribution, &cupti->attribution);
    g_assert_true (wb_kernel_attribution_is_empty (&b->attribution));
  }
}

/* The checksum: an empty attribution leaves a run's summary checksum as it was before attribution existed;
 * any figure changes it. */
static void
test_checksum (void)
{
  g_autoptr (WbRun) run = wb_test_make_run (test_regions (), 3, 5, 5);
  g_autoptr (WbRun) copy = NULL;
  g_autofree char *before = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  g_autofree char *kernels_before = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_KERNELS);
  g_autofree char *after = NULL;
  g_autofree char *kernels_after = NULL;

  g_assert_true (wb_kernel_attribution_is_empty (&run->attribution));
  run->attribution.memset_ns = 1;
  after = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  kernels_after = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_KERNELS);
  g_assert_cmpstr (before, !=, after);
  g_assert_cmpstr (kernels_before, ==, kernels_after);
  copy = wb_run_copy (run);
  g_assert_true (wb_run_equal (run, copy));
  copy->attribution.kernel_source = g_strdup ("cupti");
  g_assert_false (wb_run_equal (run, copy));
  wb_kernel_attribution_clear (&run->attribution);
  g_free (after);
  after = wb_run_compute_checksum (run, WB_RUN_CHECKSUM_SUMMARY);
  g_assert_cmpstr (before, ==, after);
}

/* A changed, removed or added attribution row makes the run fail its checksum. */
static void
test_tampered (Fixture      *f,
               gconstpointer data)
{
  static const char *const changes[] = {
    "UPDATE run_attribution SET kernels_by_time_range = kernels_by_time_range + 1 WHERE run_id = 1",
    "UPDATE run_attribution SET kernel_source = 'cupti' WHERE run_id = 1",
    "DELETE FROM run_attribution WHERE run_id = 1",
    "INSERT INTO run_attribution VALUES (2, 'cupti', 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)",
  };

  for (guint c = 0; c < G_N_ELEMENTS (changes); c++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbSession) session = NULL;
      g_autoptr (WbRun) back = NULL;
      gint64 run_id = c == 3 ? 2 : 1;

      g_unlink (f->path);
      {
        g_autoptr (WbSession) writer = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
        g_autoptr (WbRun) with = full_run (1);
        g_autoptr (WbRun) without = wb_test_make_run (test_regions (), 5, 4, 4);

        g_assert_no_error (error);
        g_assert_cmpint (wb_session_store_run (writer, with, 0, &error), ==, 1);
        g_assert_cmpint (wb_session_store_run (writer, without, 0, &error), ==, 2);
      }
      raw_update (f->path, changes[c]);
      session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
      g_assert_no_error (error);
      back = wb_session_get_run (session, run_id, WB_SESSION_READ_SUMMARY, &error);
      g_assert_null (back);
      g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
      g_test_message ("%s: %s", changes[c], error->message);
    }
}

/* A kernel source that is not UTF-8 is refused when storing, and reported as corruption when read. */
static void
test_invalid_source (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
  g_autoptr (WbRun) run = full_run (1);
  g_autoptr (WbRun) back = NULL;

  g_assert_no_error (error);
  g_free (run->attribution.kernel_source);
  run->attribution.kernel_source = g_strdup ("cupti \xff");
  g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_count_runs (session, &error), ==, 0);

  g_free (run->attribution.kernel_source);
  run->attribution.kernel_source = g_strdup ("cupti");
  g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 1);
  g_clear_pointer (&session, wb_session_close);
  raw_update (f->path, "UPDATE run_attribution SET kernel_source = CAST(X'6375707469FF' AS TEXT)");
  session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  back = wb_session_get_run (session, 1, WB_SESSION_READ_SUMMARY, &error);
  g_assert_null (back);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
}

/* -- schema version 2 files ---------------------------------------------------------------------- */

/* The tables of schema version 2, which version 3 keeps unchanged. */
static const char *const v2_tables[] = {
  "meta",
  "texts",
  "trace_sets",
  "source_texts",
  "stages",
  "regions",
  "assignments",
  "assignment_choices",
  "runs",
  "region_stats",
  "kernel_names",
  "kernels",
  "device_ceilings",
};

/* make_v2_file: a session of schema version 2 at @path: the schema made by running only migration steps 1
 * and 2, holding the rows of @source (a session of this version whose runs have no attribution). */
static void
make_v2_file (const char *path,
              const char *source)
{
  sqlite3         *db = NULL;
  g_autofree char *attach = g_strdup_printf ("ATTACH DATABASE '%s' AS src", source);

  g_assert_null (strchr (source, '\''));
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  raw_exec (db, attach);
  raw_exec (db, "BEGIN");
  raw_exec (db, _wb_session_migration_sql (1));
  raw_exec (db, _wb_session_migration_sql (2));
  raw_exec (db, "PRAGMA main.user_version = 2");
  for (guint i = 0; i < G_N_ELEMENTS (v2_tables); i++)
    {
      /* later versions added columns (region_stats' key and contents, runs' launch_list): a version-2 row is
       * the columns version 2 has */
      g_autofree char *columns = wb_test_sqlite_columns (db, v2_tables[i]);
      g_autofree char *copy = g_strdup_printf ("INSERT INTO main.%s SELECT %s FROM src.%s", v2_tables[i], columns, v2_tables[i]);

      raw_exec (db, copy);
    }
  raw_exec (db, "COMMIT");
  raw_exec (db, "DETACH DATABASE src");
  sqlite3_close (db);
}

static void
test_migrate_v2 (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *source = g_build_filename (f->dir, "source.wbsession", NULL);
  const guint64    old_seqs[] = { 1, 3, 5 };

  /* Runs without attribution, as version 2 wrote every run. */
  {
    g_autoptr (WbSession) session = wb_session_open (source, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (old_seqs); i++)
      {
        g_autoptr (WbRun) run = wb_test_make_run (test_regions (), old_seqs[i], 10, 30);

        g_assert_true (wb_kernel_attribution_is_empty (&run->attribution));
        g_assert_cmpint (wb_session_store_run (session, run, 0, &error), >, 0);
      }
  }
  make_v2_file (f->path, source);
  g_assert_cmpint (raw_int (f->path, "PRAGMA user_version"), ==, 2);
  g_assert_cmpint (raw_int (f->path, "SELECT count(*) FROM sqlite_master WHERE name = 'run_attribution'"), ==, 0);

  /* Read-only, it cannot be migrated. */
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);

    g_assert_null (session);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
    g_clear_error (&error);
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
    g_autofree char *migrated = NULL;
    g_autoptr (WbRun) with = full_run (2);
    g_autoptr (WbRun) with_back = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, 2);
    migrated = wb_session_dup_meta (session, "migrated_from_2", &error);
    g_assert_no_error (error);
    g_assert_nonnull (migrated);
    for (guint i = 0; i < G_N_ELEMENTS (old_seqs); i++)
      {
        g_autoptr (WbRun) expected = wb_test_make_run (test_regions (), old_seqs[i], 10, 30);
        g_autoptr (WbRun) back = wb_session_get_run (session, i + 1, WB_SESSION_READ_KERNELS, &error);

        g_assert_no_error (error);
        g_assert_true (wb_kernel_attribution_is_empty (&back->attribution));
        g_assert_true (wb_run_equal (expected, back));
      }
    /* The new table works in the migrated file. */
    g_assert_cmpint (wb_session_store_run (session, with, 0, &error), ==, 4);
    with_back = wb_session_get_run (session, 4, WB_SESSION_READ_KERNELS, &error);
    g_assert_no_error (error);
    assert_attribution_equal (&with_back->attribution, &with->attribution);
    g_assert_true (wb_run_equal (with, with_back));
    g_assert_true (wb_session_check_integrity (session, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, WB_SESSION_SCHEMA_VERSION);
  }
  g_assert_cmpint (raw_int (f->path, "PRAGMA user_version"), ==, WB_SESSION_SCHEMA_VERSION);
}

/* A version 3 table in a file that says version 2 is not ours. */
static void
test_v2_with_extra_table (Fixture      *f,
                          gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autofree char *source = g_build_filename (f->dir, "source.wbsession", NULL);

  {
    g_autoptr (WbSession) s = wb_session_open (source, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
  }
  make_v2_file (f->path, source);
  raw_update (f->path, _wb_session_migration_sql (3));
  session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_null (session);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_UNTRUSTED);
  g_assert_nonnull (strstr (error->message, "run_attribution"));
}

/* -- compare ------------------------------------------------------------------------------------- */

/* Stored runs compared: the attribution is in the Markdown table and in each run's JSON. */
static void
test_compare (Fixture      *f,
              gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRun) a = NULL;
  g_autoptr (WbRun) b = NULL;
  g_autoptr (WbComparison) c = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *md = NULL;
  g_autofree char *json = NULL;
  JsonObject      *run_a, *attr;

  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
    g_autoptr (WbRun) cupti = wb_test_make_run (test_regions (), 8, 10, 30);
    g_autoptr (WbRun) cpu = wb_test_make_run (test_regions (), 9, 10, 30);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_store_run (session, cupti, 0, &error), ==, 1);
    g_assert_cmpint (wb_session_store_run (session, cpu, 0, &error), ==, 2);
    g_assert_true (wb_session_get_run_pair (session, 1, 2, &a, &b, &error));
    g_assert_no_error (error);
  }
  c = wb_comparison_new (a, b);
  md = wb_comparison_to_markdown (c, f->path);
  g_test_message ("%s", md);
  g_assert_nonnull (strstr (md, "| kernel records | cupti | - |"));
  g_assert_nonnull (strstr (md, "| kernel attribution | "));
  g_assert_nonnull (strstr (md, "by time range"));
  g_assert_nonnull (strstr (md, "| memcpy, memset | memcpy 5 (5000000008 bytes"));

  json = wb_comparison_to_json (c, f->path);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  run_a = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "run_a");
  attr = json_object_get_object_member (run_a, "attribution");
  g_assert_nonnull (attr);
  g_assert_cmpstr (json_object_get_string_member (attr, "kernel_source"), ==, "cupti");
  g_assert_cmpint (json_object_get_int_member (attr, "kernels_by_correlation"), ==, a->attribution.kernels_by_correlation);
  g_assert_cmpint (json_object_get_int_member (attr, "kernels_by_time_range"), ==, a->attribution.kernels_by_time_range);
  g_assert_cmpint (json_object_get_int_member (attr, "kernels_unattributed"), ==, a->attribution.kernels_unattributed);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (attr, "kernel_ms_total"),
                                  (double) a->attribution.kernel_ns_total / 1e6, 1e-9);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (attr, "memcpy"), "bytes"), ==,
                   (gint64) a->attribution.memcpy_bytes);
  g_assert_cmpint (json_object_get_int_member (attr, "dropped_records"), ==, (gint64) a->dropped_records);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (
      json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "run_b"), "attribution")));
}

#define ADD(path, func) \
  g_test_add ("/data/WbSession/attribution/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ADD ("round-trip", test_round_trip);
  g_test_add_func ("/data/WbSession/attribution/checksum", test_checksum);
  ADD ("tampered", test_tampered);
  ADD ("invalid-source", test_invalid_source);
  ADD ("migrate-v2", test_migrate_v2);
  ADD ("v2-with-extra-table", test_v2_with_extra_table);
  ADD ("compare", test_compare);
  return g_test_run ();
}
