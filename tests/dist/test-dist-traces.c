/* test-dist-traces.c — distributed traces Thunder printed (DDP, FSDP ZeRO-2/3; world size 1 and 2, gloo)
 * load, check, round-trip and recompile (suite compiler)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cases are the archives of tests/dist/cases, unpacked into BUILD/tests/dist/cases (tests/dist/README.md). */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "wb-compiler.h"

static const char *const cases[] = { "ddp_ws1", "ddp_ws2", "zero2_ws1", "zero2_ws2", "zero3_ws1", "zero3_ws2", NULL };

static char *
case_dir (const char *name)
{
  const char *root = g_getenv ("WB_BUILD_ROOT");
  char       *dir;

  if (root == NULL)
    return NULL;
  dir = g_build_filename (root, "tests", "dist", "cases", name, NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&dir, g_free);
  return dir;
}

/* The rank folders of case @name, or NULL (the test is skipped). */
static char **
case_ranks (const char *name)
{
  g_autofree char *dir = case_dir (name);
  g_autoptr (GError) error = NULL;
  char **ranks;

  if (dir == NULL)
    {
      g_test_skip ("tests/dist/cases are not unpacked (WB_BUILD_ROOT/tests/dist/cases)");
      return NULL;
    }
  ranks = wb_case_dir_list_ranks (dir, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ranks);
  g_assert_cmpuint (g_strv_length (ranks), ==, strstr (name, "ws2") ? 2 : 1);
  return ranks;
}

static void
test_check (gconstpointer data)
{
  const char *name = data;
  g_auto (GStrv) ranks = case_ranks (name);

  for (guint r = 0; ranks != NULL && ranks[r] != NULL; r++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbTraceSet) set = wb_trace_set_load (ranks[r], &error);
      g_autoptr (GHashTable) sharded = g_hash_table_new (g_str_hash, g_str_equal);
      int ws;

      g_assert_no_error (error);
      ws = wb_trace_set_get_world_size (set);
      g_assert_cmpint (ws, ==, strstr (name, "ws2") ? 2 : 1);
      g_assert_cmpint (wb_trace_set_get_rank (set), ==, (int) r);
      g_assert_cmpuint (wb_trace_set_get_n_failures (set), ==, 0);
      /* Thunder's FSDP transform changes the parameters' proxies in place, so the traces it printed
       * before its "fsdp pass" annotate this rank's shards while their ops were traced with the whole
       * parameters: with the set's sharded parameters they check too */
      for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
        wb_dist_sharded_params_add (sharded, wb_trace_set_get_entry (set, i)->trace);
      g_assert_cmpuint (g_hash_table_size (sharded), ==, strstr (name, "zero") ? 4 : 0);
      for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
        {
          const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
          g_autoptr (GPtrArray) diags = wb_trace_verify_full (e->trace, WB_VERIFY_DEFAULT, sharded, NULL);

          for (guint k = 0; k < diags->len; k++)
            {
              const WbDiagnostic *d = diags->pdata[k];
              g_autofree char    *text = wb_diagnostic_to_string (d);

              if (d->severity == WB_DIAGNOSTIC_WARNING || d->severity == WB_DIAGNOSTIC_ERROR)
                g_error ("%s", text);
            }
        }
    }
}

static void
test_roundtrip (gconstpointer data)
{
  const char *name = data;
  g_auto (GStrv) ranks = case_ranks (name);

  for (guint r = 0; ranks != NULL && ranks[r] != NULL; r++)
    {
      g_autoptr (WbTraceSet) set = wb_trace_set_load (ranks[r], NULL);

      g_assert_nonnull (set);
      for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
        {
          const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
          g_autoptr (GString) out = g_string_new (NULL);
          g_autofree char *text = NULL;

          g_assert_true (g_file_get_contents (e->path, &text, NULL, NULL));
          wb_trace_print (e->trace, out);
          if (strcmp (out->str, text) != 0)
            g_error ("%s does not print back byte for byte", e->path);
        }
    }
}

/* The communication calls of @t (top level), in order. */
static GPtrArray *
communication (const WbTrace *t)
{
  GPtrArray *calls = g_ptr_array_new ();
  for (guint i = 0; i < t->n_body; i++)
    if (t->body[i]->kind == WB_BSYM_CALL && t->body[i]->symbol != NULL &&
        wb_symbol_get_category (t->body[i]->symbol) == WB_SYMBOL_CATEGORY_DISTRIBUTED)
      g_ptr_array_add (calls, t->body[i]);
  return calls;
}

/* Every collective of the input survives the pipeline (none dropped, none merged), every wait follows
 * the collective whose future it reads, and the cpu claims them all. */
static void
test_recompile (gconstpointer data)
{
  const char *name = data;
  g_auto (GStrv) ranks = case_ranks (name);

  for (guint r = 0; ranks != NULL && ranks[r] != NULL; r++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbTraceSet) set = wb_trace_set_load (ranks[r], NULL);
      const WbTraceEntry *input = wb_pipeline_find_input (set);
      WbPipelineOptions   opts = { NULL, WB_FUSION_DATAFLOW, NULL };
      g_autoptr (WbPipeline) p = NULL;
      g_autoptr (GPtrArray) in_calls = NULL;
      guint n_out = 0, n_stages;

      g_assert_nonnull (input);
      p = wb_pipeline_run (input->trace, &opts, &error);
      g_assert_no_error (error);
      in_calls = communication (input->trace);
      g_assert_cmpuint (in_calls->len, >, 0);
      n_stages = wb_pipeline_get_n_stages (p);
      for (guint s = 0; s < n_stages; s++)
        {
          const WbStage *stage = wb_pipeline_get_stage (p, s);
          g_autoptr (GPtrArray) calls = NULL;
          g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);

          if (strcmp (wb_stage_get_pass (stage), "Delete Last Used") != 0)
            continue;
          calls = communication (wb_stage_get_trace (stage));
          n_out += calls->len;
          /* a del of a global (the process group, the reduce op) would make it a local of the function */
          for (guint k = 0; k < wb_stage_get_trace (stage)->n_body; k++)
            {
              const WbBsym *d = wb_stage_get_trace (stage)->body[k];
              for (guint a = 0; d->kind == WB_BSYM_DEL && a < d->n_args; a++)
                g_assert_true (d->args[a]->kind != WB_VALUE_NAME || d->args[a]->text[0] != '_');
            }
          for (guint k = 0; k < calls->len; k++)
            {
              const WbBsym *b = calls->pdata[k];
              if (b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
                g_hash_table_add (defined, (gpointer) b->outputs->text);
              if (strstr (b->name, "wait") != NULL && b->n_args == 1 && b->args[0]->kind == WB_VALUE_NAME)
                g_assert_true (g_hash_table_contains (defined, b->args[0]->text));
            }
        }
      g_assert_cmpuint (n_out, ==, in_calls->len);
      for (guint i = 0; i < wb_pipeline_get_remarks (p)->len; i++)
        {
          const WbRemark *rm = g_ptr_array_index (wb_pipeline_get_remarks (p), i);
          if (rm->bsym != NULL && rm->bsym->symbol != NULL && wb_symbol_get_category (rm->bsym->symbol) == WB_SYMBOL_CATEGORY_DISTRIBUTED)
            g_assert_true (rm->accepted);
        }
    }
}

/* The registry: nccl takes a collective on CUDA, cuda and the fusion executors refuse it, cpu takes it
 * on the host (the traces are the DDP backward's torch_all_reduce_prim_impl and its wait). */
static void
test_claims (void)
{
  g_auto (GStrv) ranks = case_ranks ("ddp_ws1");
  g_autoptr (WbTraceSet) set = NULL;
  static const WbDevice gpu = { WB_DEVICE_CUDA, 0, WB_DEVICE_FORM_SHORT };
  const WbExecutorInfo *nccl = wb_executor_info_lookup ("nccl");
  guint                 seen = 0;

  if (ranks == NULL)
    return;
  g_assert_nonnull (nccl);
  set = wb_trace_set_load (ranks[0], NULL);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autoptr (GHashTable) types = NULL;
      g_autoptr (GPtrArray) calls = NULL;

      if (e->kind != WB_TRACE_KIND_BACKWARD)
        continue;
      types = wb_executor_info_types_new (e->trace);
      calls = communication (e->trace);
      for (guint k = 0; k < calls->len; k++)
        {
          const WbBsym    *b = calls->pdata[k];
          g_autofree char *why = NULL;

          g_assert_true (wb_executor_info_can_run_on (nccl, b, &gpu, wb_executor_info_types_lookup, types, NULL));
          g_assert_false (wb_executor_info_can_run_on (wb_executor_info_get (WB_EXECUTOR_ID_CUDA), b, &gpu, wb_executor_info_types_lookup, types, &why));
          g_assert_nonnull (strstr (why, "collective"));
          g_assert_false (wb_executor_info_can_take (wb_executor_info_get (WB_EXECUTOR_ID_NVRTC), b, wb_executor_info_types_lookup, types, NULL));
          g_assert_false (wb_executor_info_can_take (nccl, b, wb_executor_info_types_lookup, types, NULL)); /* host tensors */
          g_assert_true (wb_executor_info_can_take (wb_executor_info_get (WB_EXECUTOR_ID_CPU), b, wb_executor_info_types_lookup, types, NULL));
          seen++;
        }
    }
  g_assert_cmpuint (seen, ==, 8); /* 4 all_reduce + 4 wait: one per gradient */
}

/* Names and devices as Thunder prints them. */
static void
test_names (void)
{
  static const char *const reprs[] = { "FUTURE thunder.devices.Device(type='cpu') f32[8, 32]",
                                       "FUTURE thunder.devices.Device(type='cuda', index=0) bf16[4]", "FUTURE cuda:1 f32[2, 8]" };
  g_auto (GStrv) ranks = case_ranks ("zero3_ws2");

  g_assert_cmpint (wb_dist_reduce_op_from_name ("_DistributedReduceOps_SUM_3"), ==, WB_DIST_REDUCE_SUM);
  g_assert_cmpint (wb_dist_reduce_op_from_name ("_DistributedReduceOps_AVG_0"), ==, WB_DIST_REDUCE_AVG);
  g_assert_cmpint (wb_dist_reduce_op_from_name ("_DistributedReduceOps_BXOR_12"), ==, WB_DIST_REDUCE_BXOR);
  g_assert_cmpint (wb_dist_reduce_op_from_name ("_DistributedReduceOps_SUM"), ==, WB_DIST_REDUCE_UNKNOWN);
  g_assert_cmpint (wb_dist_reduce_op_from_name ("_torch_distributed_distributed_c10d_ProcessGroup_4"), ==, WB_DIST_REDUCE_UNKNOWN);
  g_assert_cmpint (wb_dist_reduce_op_from_name (NULL), ==, WB_DIST_REDUCE_UNKNOWN);
  g_assert_cmpstr (wb_dist_reduce_op_to_string (WB_DIST_REDUCE_MAX), ==, "MAX");
  g_assert_true (wb_dist_is_process_group ("_torch_distributed_distributed_c10d_ProcessGroup_4"));
  for (guint i = 0; i < G_N_ELEMENTS (reprs); i++)
    {
      WbType t;
      gsize  err = 0;
      g_autoptr (GString) out = g_string_new (NULL);

      g_assert_true (wb_type_parse (reprs[i], strlen (reprs[i]), &t, &err));
      g_assert_cmpint (t.kind, ==, WB_TYPE_FUTURE_TENSOR);
      wb_type_append (&t, out);
      g_assert_cmpstr (out->str, ==, reprs[i]);
    }
  /* the sizes of the process groups, from the ZeRO-3 forward's annotated all_gathers */
  if (ranks != NULL)
    {
      g_autoptr (WbTraceSet) set = wb_trace_set_load (ranks[1], NULL);
      guint sized = 0;
      for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
        {
          g_autoptr (GHashTable) sizes = wb_dist_group_sizes_new (wb_trace_set_get_entry (set, i)->trace);
          GHashTableIter it;
          gpointer       size;
          g_hash_table_iter_init (&it, sizes);
          while (g_hash_table_iter_next (&it, NULL, &size))
            {
              g_assert_cmpint (GPOINTER_TO_INT (size), ==, 2);
              sized++;
            }
        }
      g_assert_cmpuint (sized, >, 0);
    }
}

/* Thunder's bucketing prims called directly (record_bucketing.py): a plain case, no rank folders */
static void
test_bucketing (void)
{
  g_autofree char *dir = case_dir ("bucketing");
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_auto (GStrv) ranks = NULL;
  guint seen = 0;

  if (dir == NULL)
    {
      g_test_skip ("tests/dist/cases are not unpacked");
      return;
    }
  ranks = wb_case_dir_list_ranks (dir, &error);
  g_assert_no_error (error);
  g_assert_null (ranks);
  set = wb_trace_set_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wb_trace_set_get_world_size (set), ==, 1);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autoptr (GPtrArray) diags = wb_trace_verify (e->trace, WB_VERIFY_DEFAULT);
      g_autoptr (GPtrArray) calls = communication (e->trace);
      g_autoptr (GString) out = g_string_new (NULL);
      g_autofree char *text = NULL;

      for (guint k = 0; k < diags->len; k++)
        g_error ("%s", wb_diagnostic_to_string (diags->pdata[k]));
      g_assert_true (g_file_get_contents (e->path, &text, NULL, NULL));
      wb_trace_print (e->trace, out);
      g_assert_cmpstr (out->str, ==, text);
      seen += calls->len;
    }
  g_assert_cmpuint (seen, >=, 6); /* pack_for_fsdp x2, unpack_for_fsdp x2, pack, unpack in the last stage */
}

/* rank folders: in rank order (rank10 after rank9), none, and a gap named */
static void
test_rank_folders (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("wb-dist-XXXXXX", NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) ranks = NULL;

  g_assert_null (wb_case_dir_list_ranks (tmp, &error));
  g_assert_no_error (error);
  for (guint r = 0; r <= 10; r++)
    {
      g_autofree char *d = g_strdup_printf ("%s/rank%u", tmp, r);
      g_assert_cmpint (g_mkdir (d, 0700), ==, 0);
    }
  ranks = wb_case_dir_list_ranks (tmp, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (ranks), ==, 11);
  g_assert_true (g_str_has_suffix (ranks[9], "/rank9"));
  g_assert_true (g_str_has_suffix (ranks[10], "/rank10"));
  {
    g_autofree char *d = g_strdup_printf ("%s/rank5", tmp);
    g_assert_cmpint (g_rmdir (d), ==, 0);
  }
  g_assert_null (wb_case_dir_list_ranks (tmp, &error));
  g_assert_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "rank5/ is missing"));
  for (guint r = 0; r <= 10; r++)
    {
      g_autofree char *d = g_strdup_printf ("%s/rank%u", tmp, r);
      g_rmdir (d);
    }
  g_rmdir (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; cases[i] != NULL; i++)
    {
      g_autofree char *check = g_strdup_printf ("/dist/check/%s", cases[i]);
      g_autofree char *rt = g_strdup_printf ("/dist/roundtrip/%s", cases[i]);
      g_autofree char *rc = g_strdup_printf ("/dist/recompile/%s", cases[i]);
      g_test_add_data_func (check, cases[i], test_check);
      g_test_add_data_func (rt, cases[i], test_roundtrip);
      g_test_add_data_func (rc, cases[i], test_recompile);
    }
  g_test_add_func ("/dist/claims", test_claims);
  g_test_add_func ("/dist/bucketing", test_bucketing);
  g_test_add_func ("/dist/names", test_names);
  g_test_add_func ("/dist/rank-folders", test_rank_folders);
  return g_test_run ();
}
