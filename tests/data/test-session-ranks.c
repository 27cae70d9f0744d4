/* test-session-ranks.c — the ranks of multi-GPU runs in session files (schema version 5): rank,
 * world_size, clock_origin_ns and group stored with the run, read back equal by every reader, covered by
 * the checksum, listed by group; files of version 4 open, migrate, and their runs read back unchanged
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No multi-GPU run has been recorded yet: the ranks are synthetic runs (wb-test-runs.h) given the fields. */
#include "config.h"

#include <glib/gstdio.h>
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

  f->dir = g_dir_make_tmp ("wb-ranks-XXXXXX", &error);
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
                                           "torch_all_reduce_prim_impl:nccl:40;"
                                           "TorchCompile1:torchcompile:120;"
                                           "torch_wait_prim_impl:torch:131");
  return regions;
}

/* rank_run: run @seq as rank @rank of @world_size in @group (nullable), its clock @origin ns. */
static WbRun *
rank_run (guint64     seq,
          guint32     rank,
          guint32     world_size,
          gint64      origin,
          const char *group)
{
  WbRun *run = wb_test_make_run (test_regions (), seq, 6, 24);

  run->rank = rank;
  run->world_size = world_size;
  run->clock_origin_ns = origin;
  run->group = g_strdup (group);
  return run;
}

static void
raw_exec (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
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

/* Stored, read back equal (one run, the list, the group), listed by group in rank order. */
static void
test_round_trip (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
  /* stored out of rank order, with another group and a plain run between */
  g_autoptr (WbRun) r1 = rank_run (2, 1, 2, G_GINT64_CONSTANT (5000000123), "5b7e-uuid");
  g_autoptr (WbRun) plain = rank_run (3, 0, 0, 0, NULL);
  g_autoptr (WbRun) other = rank_run (4, 0, 1, 77, "other");
  g_autoptr (WbRun) r0 = rank_run (5, 0, 2, G_GINT64_CONSTANT (5000000000), "5b7e-uuid");
  g_autoptr (GPtrArray) group = NULL;
  g_autoptr (GPtrArray) none = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  WbRun *stored[] = { r1, plain, other, r0 };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (stored); i++)
    g_assert_cmpint (wb_session_store_run (session, stored[i], 0, &error), ==, i + 1);
  for (guint i = 0; i < G_N_ELEMENTS (stored); i++)
    {
      g_autoptr (WbRun) back = wb_session_get_run (session, i + 1, WB_SESSION_READ_KERNELS, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (back->rank, ==, stored[i]->rank);
      g_assert_cmpuint (back->world_size, ==, stored[i]->world_size);
      g_assert_cmpint (back->clock_origin_ns, ==, stored[i]->clock_origin_ns);
      g_assert_cmpstr (back->group, ==, stored[i]->group);
      g_assert_true (wb_run_equal (back, stored[i]));
    }

  group = wb_session_list_group_runs (session, "5b7e-uuid", WB_SESSION_READ_KERNELS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (group->len, ==, 2);
  g_assert_true (wb_run_equal (g_ptr_array_index (group, 0), r0));
  g_assert_true (wb_run_equal (g_ptr_array_index (group, 1), r1));
  g_assert_cmpuint (((WbRun *) g_ptr_array_index (group, 1))->kernels->len, ==, r1->kernels->len);
  none = wb_session_list_group_runs (session, "no-such-group", WB_SESSION_READ_SUMMARY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);

  listed = wb_session_list_runs (session, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 4);
  g_assert_cmpuint (((WbRun *) g_ptr_array_index (listed, 0))->rank, ==, 1);
  g_assert_cmpstr (((WbRun *) g_ptr_array_index (listed, 0))->group, ==, "5b7e-uuid");
  g_assert_null (((WbRun *) g_ptr_array_index (listed, 1))->group);
  g_assert_cmpint (((WbRun *) g_ptr_array_index (listed, 2))->clock_origin_ns, ==, 77);

  /* a plain run has no row */
  g_assert_cmpint (wb_test_sqlite_int (session->db, "SELECT count(*) FROM run_ranks"), ==, 3);
  g_assert_true (wb_session_check_integrity (session, &error));
  g_assert_no_error (error);
}

/* A changed rank row fails the run's checksum; so does a removed one, or one added to a plain run. */
static void
test_tampered (Fixture      *f,
               gconstpointer data)
{
  const char *edits[] = {
    "UPDATE run_ranks SET rank = 0 WHERE run_id = 1",
    "UPDATE run_ranks SET clock_origin_ns = clock_origin_ns + 1 WHERE run_id = 1",
    "UPDATE run_ranks SET run_group = 'x' WHERE run_id = 1",
    "DELETE FROM run_ranks WHERE run_id = 1",
    "INSERT INTO run_ranks VALUES (2, 1, 2, 0, 'g')",
  };

  for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbRun) back = NULL;
      g_autoptr (GPtrArray) group = NULL;
      gint64 victim = g_str_has_prefix (edits[e], "INSERT") ? 2 : 1;

      g_remove (f->path);
      {
        g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
        g_autoptr (WbRun) r1 = rank_run (2, 1, 2, 1000, "g");
        g_autoptr (WbRun) plain = rank_run (3, 0, 0, 0, NULL);

        g_assert_no_error (error);
        g_assert_cmpint (wb_session_store_run (session, r1, 0, &error), ==, 1);
        g_assert_cmpint (wb_session_store_run (session, plain, 0, &error), ==, 2);
      }
      raw_update (f->path, edits[e]);
      {
        g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);

        g_assert_no_error (error);
        back = wb_session_get_run (session, victim, WB_SESSION_READ_SUMMARY, &error);
        g_assert_null (back);
        g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
        g_test_message ("%s: %s", edits[e], error->message);
        g_clear_error (&error);
        g_assert_false (wb_session_check_integrity (session, &error));
        g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
        g_clear_error (&error);
        if (victim == 1 && !g_str_has_prefix (edits[e], "UPDATE run_ranks SET run_group") &&
            !g_str_has_prefix (edits[e], "DELETE"))
          {
            group = wb_session_list_group_runs (session, "g", WB_SESSION_READ_SUMMARY, &error);
            g_assert_null (group);
            g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_CORRUPT);
          }
      }
    }
}

/* Bad fields are refused before anything is written. */
static void
test_invalid (Fixture      *f,
              gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_CREATE, &error);
  g_autoptr (WbRun) beyond = rank_run (2, 2, 2, 0, "g");
  g_autoptr (WbRun) empty_group = rank_run (3, 0, 2, 0, "");
  g_autoptr (WbRun) bad_utf8 = rank_run (4, 0, 2, 0, "\xff\xfe");

  g_assert_no_error (error);
  g_assert_cmpint (wb_session_store_run (session, beyond, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "rank 2 is not below its world size 2"));
  g_clear_error (&error);
  g_assert_cmpint (wb_session_store_run (session, empty_group, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_store_run (session, bad_utf8, 0, &error), ==, 0);
  g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (wb_session_count_runs (session, &error), ==, 0);
}

/* The tables of schema version 4, every one copied as it is into a version-4 file. */
static const char *const v4_tables[] = {
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
  "run_attribution",
};

/* make_v4_file: a session of schema version 4 at @path (migration steps 1..4 only) holding @source's rows
 * (a session of this version whose runs are not distributed: its run_ranks is empty). */
static void
make_v4_file (const char *path,
              const char *source)
{
  sqlite3         *db = NULL;
  g_autofree char *attach = g_strdup_printf ("ATTACH DATABASE '%s' AS src", source);

  g_assert_null (strchr (source, '\''));
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  raw_exec (db, attach);
  raw_exec (db, "BEGIN");
  for (int v = 1; v <= 4; v++)
    raw_exec (db, _wb_session_migration_sql (v));
  raw_exec (db, "PRAGMA main.user_version = 4");
  raw_exec (db, "PRAGMA main.application_id = 1415004755");
  for (guint i = 0; i < G_N_ELEMENTS (v4_tables); i++)
    {
      g_autofree char *columns = wb_test_sqlite_columns (db, v4_tables[i]);
      g_autofree char *copy = g_strdup_printf ("INSERT INTO main.%s SELECT %s FROM src.%s", v4_tables[i], columns, v4_tables[i]);

      raw_exec (db, copy);
    }
  raw_exec (db, "COMMIT");
  raw_exec (db, "DETACH DATABASE src");
  sqlite3_close (db);
}

static void
test_migrate_v4 (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *source = g_build_filename (f->dir, "source.wbsession", NULL);
  const guint64    seqs[] = { 1, 2, 3 };

  {
    g_autoptr (WbSession) session = wb_session_open (source, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (seqs); i++)
      {
        g_autoptr (WbRun) run = wb_test_make_run (test_regions (), seqs[i], 6, 24);

        g_assert_cmpint (wb_session_store_run (session, run, 0, &error), >, 0);
      }
  }
  make_v4_file (f->path, source);
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);

    g_assert_null (session);
    g_assert_error (error, WB_SESSION_ERROR, WB_SESSION_ERROR_READ_ONLY);
    g_clear_error (&error);
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_DEFAULT, &error);
    g_autoptr (WbRun) rank = rank_run (9, 1, 4, 42, "after-migration");
    g_autoptr (GPtrArray) group = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, 4);
    for (guint i = 0; i < G_N_ELEMENTS (seqs); i++)
      {
        g_autoptr (WbRun) expected = wb_test_make_run (test_regions (), seqs[i], 6, 24);
        g_autoptr (WbRun) back = wb_session_get_run (session, i + 1, WB_SESSION_READ_KERNELS, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (back->world_size, ==, 0);
        g_assert_null (back->group);
        g_assert_true (wb_run_equal (expected, back));
      }
    g_assert_cmpint (wb_session_store_run (session, rank, 0, &error), ==, 4);
    group = wb_session_list_group_runs (session, "after-migration", WB_SESSION_READ_KERNELS, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (group->len, ==, 1);
    g_assert_true (wb_run_equal (g_ptr_array_index (group, 0), rank));
    g_assert_true (wb_session_check_integrity (session, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr (WbSession) session = wb_session_open (f->path, WB_SESSION_OPEN_READ_ONLY, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_get_opened_version (session), ==, WB_SESSION_SCHEMA_VERSION);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/data/WbSession/ranks/round-trip", Fixture, NULL, fixture_set_up, test_round_trip,
              fixture_tear_down);
  g_test_add ("/data/WbSession/ranks/tampered", Fixture, NULL, fixture_set_up, test_tampered, fixture_tear_down);
  g_test_add ("/data/WbSession/ranks/invalid", Fixture, NULL, fixture_set_up, test_invalid, fixture_tear_down);
  g_test_add ("/data/WbSession/ranks/migrate-v4", Fixture, NULL, fixture_set_up, test_migrate_v4,
              fixture_tear_down);
  return g_test_run ();
}
