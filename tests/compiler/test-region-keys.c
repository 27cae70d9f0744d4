/* test-region-keys.c — the identity of a timed call across re-fusion, unfusing and the names Thunder gives
 * (issue 45, part 2): wb_call_key and wb_call_contents on real traces (../shared/traces/llama_layer and the
 * zoo's llama), through the pipeline the app re-runs on every executor change.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

/* key -> contents of every top-level call of the pipeline's final stages (what a profile times) */
static GHashTable *
final_calls (const WbPipeline *p)
{
  GHashTable *calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < wb_pipeline_get_n_stages (p); i++)
    {
      const WbStage *s = wb_pipeline_get_stage (p, i);
      WbTrace       *t = wb_stage_get_trace (s);
      gboolean       last = TRUE;

      /* the last stage of its list (forward, backward or computation) */
      for (guint k = i + 1; k < wb_pipeline_get_n_stages (p); k++)
        if (wb_stage_get_list (wb_pipeline_get_stage (p, k)) == wb_stage_get_list (s))
          last = FALSE;
      if (!last || wb_stage_get_list (s) == WB_STAGE_JOINT)
        continue;
      for (guint b = 0; b < t->n_body; b++)
        if (t->body[b]->kind == WB_BSYM_CALL)
          {
            char *key = NULL;

            /* a region is known by the fusion pass's key (the app's runs take it so): in the final
             * stage, remat may have put recomputed values before its first bound symbol */
            for (guint r = 0; r < wb_pipeline_get_regions (p)->len && key == NULL; r++)
              if (((const WbRegion *) wb_pipeline_get_regions (p)->pdata[r])->bsym == t->body[b])
                key = g_strdup (((const WbRegion *) wb_pipeline_get_regions (p)->pdata[r])->key);
            if (key == NULL)
              key = wb_call_key (t->body[b]);

            if (key != NULL)
              g_hash_table_replace (calls, key, wb_call_contents (t->body[b]));
          }
    }
  return calls;
}

static WbPipeline *
run_pipeline (const WbTraceSet *set, const char *spec)
{
  const WbTraceEntry *input = wb_pipeline_find_input (set);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) assignment = spec ? wb_assignment_parse (spec, &error) : NULL;
  WbPipelineOptions opts = { NULL, WB_FUSION_DATAFLOW, assignment };
  WbPipeline       *p;

  g_assert_no_error (error);
  g_assert_nonnull (input);
  p = wb_pipeline_run (input->trace, &opts, &error);
  g_assert_no_error (error);
  return p;
}

static WbTraceSet *
load (const char *dir)
{
  g_autoptr (GError) error = NULL;
  WbTraceSet *set = wb_trace_set_load (dir, &error);

  g_assert_no_error (error);
  return set;
}

/* Unfusing one region: every other region keeps its key and its contents; the unfused region's key now
 * names a call of its own (its first op) whose contents differ: "changed contents", not a stranger. */
static void
check_unfuse (const char *dir)
{
  g_autoptr (WbTraceSet) set = load (dir);
  g_autoptr (WbPipeline) before = run_pipeline (set, NULL);
  GPtrArray *regions = wb_pipeline_get_regions (before);
  g_autoptr (GHashTable) a = final_calls (before);
  g_autoptr (GHashTable) b = NULL;
  g_autoptr (WbPipeline) after = NULL;
  g_autofree char *spec = NULL;
  const WbRegion  *victim;
  guint            same = 0, remat = 0;

  g_assert_cmpuint (regions->len, >=, 2);
  victim = regions->pdata[0];
  spec = g_strdup_printf ("%s=unfuse", victim->key);
  after = run_pipeline (set, spec);
  b = final_calls (after);
  for (guint i = 1; i < regions->len; i++)
    {
      const WbRegion  *r = regions->pdata[i];
      g_autofree char *final_key = wb_call_key (r->bsym);
      const char      *ca = g_hash_table_lookup (a, r->key);
      const char      *cb = g_hash_table_lookup (b, r->key);

      g_assert_nonnull (ca);
      g_assert_nonnull (cb);
      if (g_strcmp0 (ca, cb) != 0)
        {
          /* only a backward region that remat recomputes forward values in may change: what it recomputes
           * depends on the forward's regions */
          g_test_message ("%s %s: contents changed (recomputed values: final key %s)", r->name, r->key, final_key);
          g_assert_cmpstr (final_key, !=, r->key);
          remat++;
        }
      else
        same++;
    }
  g_assert_nonnull (g_hash_table_lookup (b, victim->key));
  g_assert_cmpstr (g_hash_table_lookup (a, victim->key), !=, g_hash_table_lookup (b, victim->key));
  g_test_message ("%s: unfusing %s (%s): %u other regions keep key and contents, %u keep the key with other recomputed values", dir,
                  victim->name, victim->key, same, remat);
  g_assert_cmpuint (same, >, remat);
}

static void
test_unfuse_llama_layer (void)
{
  g_autofree char *dir = wb_test_traces_dir () ? g_build_filename (wb_test_traces_dir (), "llama_layer", NULL) : NULL;

  if (dir == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR");
      return;
    }
  check_unfuse (dir);
}

static void
test_unfuse_zoo (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *dir = build ? g_build_filename (build, "tests", "zoo", "zoo", "llama", "thunderfx_g0_GraphModule_3", NULL) : NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked (tests/zoo)");
      return;
    }
  check_unfuse (dir);
}

/* Thunder's names against ours: each of llama_layer's TorchCompileN regions (Thunder's final forward and
 * backward) has the key of one of the workbench's nvrtcFusionN regions, though names and groups differ. */
static void
test_thunder_names (void)
{
  g_autofree char *dir = wb_test_traces_dir () ? g_build_filename (wb_test_traces_dir (), "llama_layer", NULL) : NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbPipeline) p = NULL;
  g_autoptr (GHashTable) ours = NULL;
  guint thunder = 0, found = 0;

  if (dir == NULL)
    {
      g_test_skip ("no WB_TRACES_DIR");
      return;
    }
  set = load (dir);
  p = run_pipeline (set, NULL);
  ours = final_calls (p);
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);

      if ((e->subset != NULL && e->subset[0] != '\0') || !((e->kind == WB_TRACE_KIND_FORWARD && e->index == 6) || e->kind == WB_TRACE_KIND_BACKWARD))
        continue;
      for (guint b = 0; b < e->trace->n_body; b++)
        {
          const WbBsym    *call = e->trace->body[b];
          g_autofree char *key = NULL;
          const char      *contents;

          if (call->kind != WB_BSYM_CALL || !wb_bsym_is_fusion (call))
            continue;
          thunder++;
          key = wb_call_key (call);
          contents = g_hash_table_lookup (ours, key);
          g_test_message ("%s %s: %s", call->name, key, contents ? "a workbench region has the key" : "no workbench call has it");
          if (contents != NULL)
            {
              g_autofree char *theirs = wb_call_contents (call);

              found++;
              /* Thunder's regions are larger than ours: the same key, other contents */
              g_assert_cmpstr (theirs, !=, contents);
            }
        }
    }
  g_assert_cmpuint (thunder, >=, 4);
  g_assert_cmpuint (found, ==, thunder);
}

/* Keys and contents of a few calls spelled out. */
static void
test_spelled (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) t = wb_trace_parse ("import torch\n\ndef f(x):\n  # x: \"cpu f32[2]\"\n"
                                          "  t0 = prims.neg(x)  # t0: \"cpu f32[2]\"\n"
                                          "  [t2] = nvFusion0(t0)\n    # t1 = prims.exp(t0)  # t1: \"cpu f32[2]\"\n"
                                          "    # t2 = prims.neg(t1)  # t2: \"cpu f32[2]\"\n"
                                          "  [t4] = nvFusion1(t0)\n    # t3 = prims.neg(t0)  # t3: \"cpu f32[2]\"\n"
                                          "    # t4 = prims.exp(t3)  # t4: \"cpu f32[2]\"\n"
                                          "  return (t2, t4)\n",
                                          -1, "spelled.py", &error);
  g_autofree char *k0 = NULL, *k1 = NULL, *k2 = NULL, *c1 = NULL, *c2 = NULL;

  g_assert_no_error (error);
  k0 = wb_call_key (t->body[1]);
  k1 = wb_call_key (t->body[2]);
  k2 = wb_call_key (t->body[3]);
  g_assert_cmpstr (k0, ==, "@t0");
  g_assert_cmpstr (k1, ==, "@t1");
  g_assert_cmpstr (k2, ==, "@t3");
  c1 = wb_call_contents (t->body[2]);
  c2 = wb_call_contents (t->body[3]);
  g_assert_cmpuint (strlen (c1), ==, 16);
  g_assert_cmpstr (c1, !=, c2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/region-keys/spelled", test_spelled);
  g_test_add_func ("/compiler/region-keys/unfuse-llama-layer", test_unfuse_llama_layer);
  g_test_add_func ("/compiler/region-keys/unfuse-zoo-llama", test_unfuse_zoo);
  g_test_add_func ("/compiler/region-keys/thunder-names", test_thunder_names);
  return g_test_run ();
}
