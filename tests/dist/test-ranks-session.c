/* test-ranks-session.c — a real multi-GPU run, read back from the session it was stored in (suite data)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/dist/cases/gpu-session.tar.xz holds the session that `thunder-wb --headless profile
 * ZOO/ddp_llama_w2 --session F` wrote on two H200s (the zoo's DDP Llama, two ranks through NCCL; 20 timed
 * iterations with CUPTI): both ranks' runs with their kernel records. Without a GPU this checks on real
 * records what the report of the ranks derives from them: the group reads back as two ranks of one world,
 * aligned, each with NCCL kernels (CUPTI's mangled names) and collective calls; the ranks' NCCL kernels
 * pair up and the waits for the last rank are measured (at most the communication time); the report's
 * formats hold both ranks. The file is schema version 5: a copy of it is migrated on opening. */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-data.h"
#include "wb-test-common.h"

static char *
session_path (void)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");

  return g_build_filename (build ? build : ".", "tests", "dist", "cases", "gpu-session", "ddp_llama_w2.wbsession", NULL);
}

static GPtrArray *
read_group (void)
{
  g_autofree char *src = session_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) s = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  g_autoptr (WbRun) first = NULL;
  g_autofree char *text = NULL, *dir = NULL, *path = NULL;
  gsize            len = 0;

  if (!g_file_get_contents (src, &text, &len, NULL))
    return NULL;
  /* written by schema version 5: a read-only open would refuse the migration, so a copy is migrated */
  dir = g_dir_make_tmp ("wb-ranks-session-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "ddp_llama_w2.wbsession", NULL);
  g_assert_true (g_file_set_contents (path, text, (gssize) len, &error));
  s = wb_session_open (path, WB_SESSION_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wb_session_get_opened_version (s), ==, 5);
  first = wb_session_get_run (s, 1, WB_SESSION_READ_KERNELS, &error);
  g_assert_no_error (error);
  g_assert_nonnull (first->group);
  runs = wb_session_list_group_runs (s, first->group, WB_SESSION_READ_KERNELS, &error);
  g_assert_no_error (error);
  g_clear_pointer (&s, wb_session_close);
  wb_test_remove_tree (dir);
  return g_steal_pointer (&runs);
}

static void
test_group (void)
{
  g_autoptr (GPtrArray) runs = read_group ();
  gint64 wait[2] = { -1, -1 };

  if (runs == NULL)
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  g_assert_cmpuint (runs->len, ==, 2);
  for (guint r = 0; r < 2; r++)
    {
      const WbRun *run = runs->pdata[r];
      WbCommStats  c = wb_run_get_comm_stats (run);
      guint        nccl = 0;

      g_assert_cmpuint (run->world_size, ==, 2);
      g_assert_cmpint (run->clock_origin_ns, >, 0);
      for (guint k = 0; k < run->kernels->len; k++)
        nccl += wb_kernel_name_is_nccl (((WbKernelRecord *) run->kernels->pdata[k])->name);
      g_test_message ("rank %u: %u NCCL kernel records, comm %.3f ms, exposed %.3f ms, %u collectives", run->rank, nccl,
                      c.comm_ns / 1e6, c.exposed_comm_ns / 1e6, c.collective_calls);
      g_assert_cmpuint (nccl, >, 0);
      g_assert_cmpint (c.comm_ns, >, 0);
      g_assert_cmpuint (c.collective_calls, >, 0);
      g_assert_cmpint (c.exposed_comm_ns, <=, c.comm_ns);
    }
  g_assert_cmpuint (((WbRun *) runs->pdata[0])->rank + ((WbRun *) runs->pdata[1])->rank, ==, 1);
  g_assert_true (wb_run_group_measure_peer_wait (runs, wait));
  for (guint r = 0; r < 2; r++)
    {
      WbCommStats c = wb_run_get_comm_stats (runs->pdata[r]);

      g_test_message ("rank %u waited %.3f ms a step for the other", ((WbRun *) runs->pdata[r])->rank, wait[r] / 1e6);
      g_assert_cmpint (wait[r], >=, 0);
      g_assert_cmpint (wait[r], <=, c.comm_ns);
    }
}

static void
test_report (void)
{
  g_autoptr (GPtrArray) runs = read_group ();
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *md = NULL, *json = NULL;
  JsonArray       *ranks;

  if (runs == NULL)
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  g_assert_true (wb_report_ranks_check (runs, &error));
  md = wb_report_ranks_to_markdown (runs, "ddp_llama_w2");
  g_assert_nonnull (strstr (md, "| 0 "));
  g_assert_nonnull (strstr (md, "| 1 "));
  json = wb_report_ranks_to_json (runs, "ddp_llama_w2");
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  ranks = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 2);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (json_parser_get_root (parser)), "aligned"));
  for (guint i = 0; i < 2; i++)
    g_assert_false (json_object_get_null_member (json_array_get_object_element (ranks, i), "peer_wait_ms"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/ranks-session/group", test_group);
  g_test_add_func ("/data/ranks-session/report", test_report);
  return g_test_run ();
}
