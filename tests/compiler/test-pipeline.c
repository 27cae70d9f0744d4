/* test-pipeline.c — the recomputed stages of every real case: structure, validity, regions, remarks
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

static const char *const thunder_executors[] = { "sdpa", "torchcompile", "torch", "python", NULL };

typedef struct
{
  const char *name;
  gboolean    training;
} Case;

static const Case cases[] = {
  { "mlp_small", TRUE },
  { "gpt2_block", TRUE },
  { "llama_layer", TRUE },
  { "ce_loss/fallback", TRUE },
  { "ce_loss", TRUE },
  { "elementwise_chain_small", FALSE },
  { "misc_ops", FALSE },
};

static char *
case_dir (const char *name)
{
  const char *dir = wb_test_traces_dir ();
  if (dir == NULL)
    {
      if (strcmp (name, "mlp_small") != 0)
        return NULL;
      return g_build_filename (wb_test_samples_dir (), name, NULL);
    }
  return g_build_filename (dir, name, NULL);
}

static WbPipeline *
run_case (const char *name, const char *const *executors, const char *assignment, WbTraceSet **set_out, GError **error)
{
  g_autofree char *dir = case_dir (name);
  g_autoptr (WbTraceSet) set = NULL;
  const WbTraceEntry *input;
  g_autoptr (WbAssignment) parsed = wb_assignment_parse (assignment, error);
  WbPipelineOptions opts = { executors, WB_FUSION_DATAFLOW, parsed };
  WbPipeline       *p;
  g_assert_no_error (*error);
  if (dir == NULL)
    return NULL;
  set = wb_trace_set_load (dir, error);
  g_assert_no_error (*error);
  input = wb_pipeline_find_input (set);
  g_assert_nonnull (input);
  p = wb_pipeline_run (input->trace, &opts, error);
  if (set_out)
    *set_out = g_steal_pointer (&set);
  return p;
}

/* The last stage of list @list. */
static const WbStage *
last_stage (WbPipeline *p, WbStageList list)
{
  const WbStage *found = NULL;
  for (guint i = 0; i < wb_pipeline_get_n_stages (p); i++)
    if (wb_stage_get_list (wb_pipeline_get_stage (p, i)) == list)
      found = wb_pipeline_get_stage (p, i);
  return found;
}

static const WbBsym *
return_of (const WbTrace *t)
{
  for (guint i = t->n_body; i > 0; i--)
    if (t->body[i - 1]->kind == WB_BSYM_RETURN)
      return t->body[i - 1];
  return NULL;
}

static const WbTrace *
thunder_trace (WbTraceSet *set, WbTraceKind kind, gboolean last)
{
  const WbTrace *found = NULL;
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      if (*e->subset == '\0' && e->kind == kind)
        {
          found = e->trace;
          if (!last)
            break;
        }
    }
  return found;
}

/* Every stage prints as text our parser reads back to the same text; python3 parses it (checked in bulk). */
static void
check_stage_text (const WbStage *s, GPtrArray *texts)
{
  g_autofree char *text = wb_trace_to_string (wb_stage_get_trace (s));
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) again = wb_trace_parse_many (text, -1, wb_stage_get_pass (s), &error);
  g_autoptr (GString) back = g_string_new (NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (again->len, ==, 1);
  wb_trace_print (again->pdata[0], back);
  g_assert_cmpstr (back->str, ==, text);
  g_ptr_array_add (texts, g_steal_pointer (&text));
}

static void
check_python_ast (GPtrArray *texts)
{
  g_autofree char *tmp = g_dir_make_tmp ("wb-pipeline-XXXXXX", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autofree char *python = g_find_program_in_path ("python3");
  if (python == NULL)
    {
      g_test_message ("python3 not found: the ast check is skipped");
      return;
    }
  g_ptr_array_add (argv, g_strdup ("python3"));
  g_ptr_array_add (argv, g_strdup ("-c"));
  g_ptr_array_add (argv, g_strdup ("import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f).read(), f)\n"));
  for (guint i = 0; i < texts->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/stage-%04u.py", tmp, i);
      g_assert_true (g_file_set_contents (path, texts->pdata[i], -1, NULL));
      g_ptr_array_add (argv, g_steal_pointer (&path));
    }
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char *const *) argv->pdata, G_SUBPROCESS_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 2; i + 1 < argv->len; i++)
    g_unlink (argv->pdata[i + 1]);
  g_rmdir (tmp);
}

static void
check_case (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (WbPipeline) p = NULL;
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  const char *const *lists[] = { NULL, thunder_executors };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      g_clear_pointer (&set, wb_trace_set_free);
      g_clear_pointer (&p, wb_pipeline_free);
      p = run_case (c->name, lists[l], NULL, &set, &error);
      if (p == NULL && error == NULL)
        {
          g_test_skip ("../shared/traces is not present");
          return;
        }
      g_assert_no_error (error);
      for (guint i = 1; i < wb_pipeline_get_n_stages (p); i++)
        {
          const WbStage *s = wb_pipeline_get_stage (p, i);
          g_autoptr (GPtrArray) diags = wb_trace_verify (wb_stage_get_trace (s), WB_VERIFY_DEFAULT);
          if (wb_diagnostics_count_errors (diags) > 0)
            {
              for (guint d = 0; d < diags->len; d++)
                {
                  g_autofree char *msg = wb_diagnostic_to_string (diags->pdata[d]);
                  g_test_message ("%s stage %u (%s): %s", c->name, i, wb_stage_get_pass (s), msg);
                }
              g_test_fail ();
            }
          check_stage_text (s, texts);
        }
      if (c->training)
        {
          const WbStage *fw = last_stage (p, WB_STAGE_FORWARD), *bw = last_stage (p, WB_STAGE_BACKWARD);
          const WbTrace *tfw = thunder_trace (set, WB_TRACE_KIND_FORWARD, TRUE), *tbw = thunder_trace (set, WB_TRACE_KIND_BACKWARD, TRUE);
          const WbTrace *ofw = wb_stage_get_trace (fw), *obw = wb_stage_get_trace (bw);
          const WbBsym  *r = return_of (ofw), *tr = return_of (tfw), *br = return_of (obw), *tbr = return_of (tbw);
          const WbValue *saved;
          g_assert_nonnull (fw);
          g_assert_nonnull (bw);
          /* signatures */
          g_assert_cmpstr (ofw->function_name, ==, tfw->function_name);
          g_assert_cmpuint (ofw->n_params, ==, tfw->n_params);
          for (guint i = 0; i < ofw->n_params; i++)
            g_assert_cmpstr (ofw->params[i]->text, ==, tfw->params[i]->text);
          g_assert_cmpstr (obw->function_name, ==, "backward_fn");
          g_assert_cmpuint (obw->n_params, ==, 2);
          g_assert_cmpstr (obw->params[0]->text, ==, "saved_for_backward");
          g_assert_cmpstr (obw->params[1]->text, ==, "cotangents");
          /* forward returns {'output', 'flat_args', 'flat_output'}, (C0, C1) like Thunder's */
          g_assert_cmpint (r->value->kind, ==, WB_VALUE_TUPLE);
          g_assert_cmpuint (r->value->n_items, ==, 2);
          g_assert_cmpint (tr->value->kind, ==, WB_VALUE_TUPLE);
          g_assert_cmpint (r->value->items[0]->kind, ==, WB_VALUE_DICT);
          g_assert_cmpuint (r->value->items[0]->n_items, ==, tr->value->items[0]->n_items);
          for (guint k = 0; k < r->value->items[0]->n_items; k += 2)
            g_assert_cmpstr (r->value->items[0]->items[k]->text, ==, tr->value->items[0]->items[k]->text);
          saved = r->value->items[1];
          g_assert_cmpuint (saved->n_items, ==, 2);
          /* C0 holds tensors only, C1 the rest */
          for (guint k = 0; k < saved->items[0]->n_items; k++)
            {
              const char *name = saved->items[0]->items[k]->text;
              gboolean    is_tensor = FALSE;
              for (guint b = 0; b < obw->n_body; b++)
                if (obw->body[b]->kind == WB_BSYM_ANNOTATION && strcmp (obw->body[b]->name, name) == 0)
                  is_tensor = obw->body[b]->type.kind == WB_TYPE_TENSOR;
              if (!is_tensor)
                g_error ("%s: saved C0 entry %s is not a tensor", c->name, name);
            }
          /* backward returns one gradient (or None) per flat argument, as Thunder's does */
          g_assert_cmpint (br->value->kind, ==, WB_VALUE_TUPLE);
          g_assert_cmpuint (br->value->n_items, ==, tbr->value->n_items);
          g_test_message ("%s (%s): saved C0 %u tensors (Thunder %u), C1 %u (Thunder %u)", c->name, lists[l] ? "thunder executors" : "default",
                          saved->items[0]->n_items, tr->value->items[1]->items[0]->n_items, saved->items[1]->n_items,
                          tr->value->items[1]->items[1]->n_items);
        }
    }
  check_python_ast (texts);
}

static void
test_regions_vs_thunder (void)
{
  /* With {sdpa, torchcompile}, our regions against Thunder's own torch.compile regions (stages/ folder) */
  static const char *const training[] = { "mlp_small", "gpt2_block", "llama_layer", "ce_loss/fallback" };
  if (wb_test_traces_dir () == NULL)
    {
      g_test_skip ("../shared/traces is not present");
      return;
    }
  for (guint c = 0; c < G_N_ELEMENTS (training); c++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbTraceSet) set = NULL;
      g_autoptr (WbPipeline) p = run_case (training[c], thunder_executors, NULL, &set, &error);
      GPtrArray     *regions;
      const WbTrace *fusion = NULL;
      guint          n_thunder = 0;
      g_assert_no_error (error);
      for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
        {
          const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
          if (*e->subset == '\0' && e->kind == WB_TRACE_KIND_STAGE && e->label && strcmp (e->label, "fusion_pass_torchcompile_") == 0)
            fusion = e->trace;
        }
      g_assert_nonnull (fusion);
      regions = wb_pipeline_get_regions (p);
      g_test_message ("%s: region | ours: list, ops, inputs, outputs | Thunder: ops, inputs, outputs", training[c]);
      for (guint i = 0; i < fusion->n_body; i++)
        if (wb_bsym_is_fusion (fusion->body[i]))
          {
            const WbBsym   *t = fusion->body[i];
            const WbRegion *ours = NULL;
            for (guint k = 0; k < regions->len; k++)
              if (strcmp (((WbRegion *) regions->pdata[k])->name, t->name) == 0)
                ours = regions->pdata[k];
            n_thunder++;
            g_assert_nonnull (ours);
            g_test_message ("  %-14s | %-8s %4u %3u %3u | %4u %3u %3u", t->name, wb_stage_list_to_string (ours->list), ours->n_ops,
                            ours->bsym->n_args, ours->bsym->outputs->n_items, t->n_subsymbols, t->n_args, t->outputs->n_items);
            /* forward regions come out as Thunder's: the same ops and the same inputs (the backward ones
             * differ by what rematerialization recomputes) */
            if (ours->list == WB_STAGE_FORWARD)
              {
                g_assert_cmpuint (ours->n_ops, ==, t->n_subsymbols);
                g_assert_cmpuint (ours->bsym->n_args, ==, t->n_args);
              }
          }
      /* same number of regions, forward and backward alike */
      g_assert_cmpuint (regions->len, ==, n_thunder);
    }
}

static void
test_remarks (void)
{
  g_autoptr (GError) error = NULL;
  static const char *const execs[] = { "cublas", "cudnn", "nvrtc", "cuda", NULL };
  g_autoptr (WbPipeline) p = run_case ("misc_ops", execs, NULL, NULL, &error);
  GPtrArray *remarks;
  gboolean   seen_int = FALSE, seen_topk = FALSE;
  if (p == NULL && error == NULL)
    {
      g_test_skip ("../shared/traces is not present");
      return;
    }
  g_assert_no_error (error);
  remarks = wb_pipeline_get_remarks (p);
  for (guint i = 0; i < remarks->len; i++)
    {
      const WbRemark *r = remarks->pdata[i];
      g_assert_nonnull (r->reason);
      g_assert_cmpuint (strlen (r->reason), >, 0);
      if (strcmp (r->executor, "cublas") == 0 && strcmp (r->symbol, "ltorch.bitwise_left_shift") == 0)
        {
          g_assert_false (r->accepted);
          g_assert_cmpstr (r->reason, ==, "cublas: takes matmul and linear only, not ltorch.bitwise_left_shift");
          seen_int = TRUE;
        }
      if (strcmp (r->executor, "nvrtc") == 0 && strcmp (r->symbol, "prims.topk") == 0)
        {
          g_assert_false (r->accepted);
          g_assert_cmpstr (r->reason, ==, "nvrtc: generates no code for prims.topk");
          seen_topk = TRUE;
        }
    }
  g_assert_true (seen_int);
  g_assert_true (seen_topk);
}

static void
test_remark_dtype (void)
{
  /* in priority order cuDNN is asked first about mlp_small's f32 linear and must refuse it with its
   * reason; cuBLAS, next, must take it */
  g_autoptr (GError) error = NULL;
  static const char *const execs[] = { "cudnn", "cublas", "nvrtc", "cuda", NULL };
  g_autoptr (WbPipeline) p = run_case ("mlp_small", execs, NULL, NULL, &error);
  GPtrArray *remarks;
  gboolean   cublas_linear = FALSE, cudnn_linear = FALSE;
  g_assert_no_error (error);
  remarks = wb_pipeline_get_remarks (p);
  for (guint i = 0; i < remarks->len; i++)
    {
      const WbRemark *r = remarks->pdata[i];
      if (strcmp (r->symbol, "prims.linear") == 0 && strcmp (r->executor, "cublas") == 0)
        cublas_linear = r->accepted;
      if (strcmp (r->symbol, "prims.linear") == 0 && strcmp (r->executor, "cudnn") == 0)
        {
          g_assert_false (r->accepted);
          g_assert_cmpstr (r->reason, ==, "cudnn: takes convolution and scaled dot-product attention only, not prims.linear");
          cudnn_linear = TRUE;
        }
    }
  g_assert_true (cublas_linear);
  g_assert_true (cudnn_linear);
}

static void
test_reassignment (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbPipeline) base = run_case ("mlp_small", NULL, NULL, NULL, &error);
  g_autoptr (WbPipeline) unfused = NULL, bad = NULL, unknown = NULL, missing = NULL;
  GPtrArray *regions;
  guint      n_base;
  g_assert_no_error (error);
  n_base = wb_pipeline_get_regions (base)->len;
  g_assert_cmpuint (n_base, >=, 2);

  unfused = run_case ("mlp_small", NULL, "nvrtcFusion0=unfuse", NULL, &error);
  g_assert_no_error (error);
  regions = wb_pipeline_get_regions (unfused);
  g_assert_cmpuint (regions->len, ==, n_base - 1);
  for (guint i = 0; i < regions->len; i++)
    g_assert_cmpint (((WbRegion *) regions->pdata[i])->list, ==, WB_STAGE_BACKWARD);

  bad = run_case ("mlp_small", NULL, "nvrtcFusion0=cublas", NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT);
  g_assert_nonnull (strstr (error->message, "nvrtcFusion0=cublas is impossible"));
  g_assert_nonnull (strstr (error->message, "cublas: takes matmul and linear only"));
  g_clear_error (&error);

  unknown = run_case ("mlp_small", NULL, "nvrtcFusion0=tensorrt", NULL, &error);
  g_assert_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_UNKNOWN_EXECUTOR);
  g_clear_error (&error);

  missing = run_case ("mlp_small", NULL, "nvrtcFusion9=unfuse", NULL, &error);
  g_assert_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT);
  g_assert_nonnull (strstr (error->message, "nvrtcFusion9"));
}

/* The region with @name in @p, or NULL. */
static const WbRegion *
find_region (WbPipeline *p, const char *name)
{
  GPtrArray *regions = wb_pipeline_get_regions (p);

  for (guint i = 0; i < regions->len; i++)
    if (strcmp (((WbRegion *) regions->pdata[i])->name, name) == 0)
      return regions->pdata[i];
  return NULL;
}

/* Region keys survive re-fusion: after unfusing the first region every other region keeps its key
 * (mlp_small: @t65, @t67, @t74, @t22), also where remat changed its contents; a choice by key reaches
 * the region with that key, and a key wins over a name. */
static void
test_region_keys (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbPipeline) base = run_case ("mlp_small", NULL, NULL, NULL, &error);
  g_autoptr (WbPipeline) unfused = NULL, by_key = NULL, both = NULL;
  g_autofree char *spec = NULL;
  GPtrArray       *regions = wb_pipeline_get_regions (base);
  const WbRegion  *first, *target;

  g_assert_no_error (error);
  first = find_region (base, "nvrtcFusion0");
  target = find_region (base, "nvrtcFusion2");
  g_assert_nonnull (first);
  g_assert_nonnull (target);
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion  *r = regions->pdata[i];
      g_autofree char *key = wb_region_key (r->bsym);

      g_assert_nonnull (r->key);
      g_assert_true (r->key[0] == '@');
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (r->key, !=, ((WbRegion *) regions->pdata[j])->key);
      if (r->list == WB_STAGE_FORWARD)
        g_assert_cmpstr (key, ==, r->key); /* remat adds nothing to forward regions */
    }

  unfused = run_case ("mlp_small", NULL, "nvrtcFusion0=unfuse", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_pipeline_get_regions (unfused)->len, ==, regions->len - 1);
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion *r = regions->pdata[i], *again = find_region (unfused, r->name);

      if (r == first)
        continue;
      g_assert_nonnull (again);
      g_assert_cmpstr (again->key, ==, r->key);
    }

  /* by key: the region with that key is unfused, and only that one */
  spec = g_strdup_printf ("%s=unfuse", target->key);
  by_key = run_case ("mlp_small", NULL, spec, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_pipeline_get_regions (by_key)->len, ==, regions->len - 1);
  g_assert_null (find_region (by_key, "nvrtcFusion2"));
  g_assert_cmpstr (find_region (by_key, "nvrtcFusion0")->key, ==, first->key);

  /* a name and a key in one assignment; the key of the same region wins over its name */
  g_clear_pointer (&spec, g_free);
  spec = g_strdup_printf ("nvrtcFusion0=unfuse,%s=unfuse,nvrtcFusion2=cublas", target->key);
  both = run_case ("mlp_small", NULL, spec, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wb_pipeline_get_regions (both)->len, ==, regions->len - 2);
}

static void
test_provenance (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbPipeline) p = run_case ("mlp_small", NULL, NULL, NULL, &error);
  const WbStage *fusion = NULL;
  g_assert_no_error (error);
  for (guint i = 0; i < wb_pipeline_get_n_stages (p); i++)
    if (strcmp (wb_stage_get_pass (wb_pipeline_get_stage (p, i)), "Fusion") == 0)
      fusion = wb_pipeline_get_stage (p, i);
  g_assert_nonnull (fusion);
  for (guint i = 0; i < wb_stage_get_trace (fusion)->n_body; i++)
    {
      const WbBsym *b = wb_stage_get_trace (fusion)->body[i];
      GPtrArray    *src = wb_stage_get_sources (fusion, b);
      g_assert_nonnull (src);
      if (wb_bsym_is_fusion (b))
        {
          /* a region comes from exactly the bound symbols of its body */
          g_assert_cmpuint (src->len, ==, b->n_subsymbols);
          for (guint k = 0; k < src->len; k++)
            g_assert_true (src->pdata[k] == b->subsymbols[k]);
        }
      else
        g_assert_true (src->len == 1 && src->pdata[0] == b);
      g_assert_cmpuint (wb_trace_get_bsym_line (wb_stage_get_trace (fusion), b), >, 0);
    }
}

/* The types of every output of the backward's fusion regions, "f32[8, 1024]" form, in region order. */
static GPtrArray *
backward_region_outputs (const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbPipeline) p = run_case (name, NULL, NULL, NULL, &error);
  GPtrArray     *types = g_ptr_array_new_with_free_func (g_free);
  const WbTrace *bw;

  g_assert_no_error (error);
  bw = wb_stage_get_trace (last_stage (p, WB_STAGE_BACKWARD));
  for (guint i = 0; i < bw->n_body; i++)
    {
      const WbBsym *b = bw->body[i];
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      if (!wb_bsym_is_fusion (b))
        continue;
      wb_bsym_get_output_names (b, names);
      for (guint k = 0; k < names->len; k++)
        for (guint s = 0; s < b->n_subsymbols; s++)
          if (b->subsymbols[s]->has_type && g_strcmp0 (b->subsymbols[s]->type_name, names->pdata[k]) == 0)
            {
              g_autofree char *text = wb_type_to_string (&b->subsymbols[s]->type);
              const char      *dtype = strchr (text, ' ');
              g_ptr_array_add (types, g_strdup (dtype != NULL ? dtype + 1 : text));
              break;
            }
    }
  return types;
}

static guint
count_type (GPtrArray *types, const char *type)
{
  guint n = 0;
  for (guint i = 0; i < types->len; i++)
    n += g_strcmp0 (types->pdata[i], type) == 0;
  return n;
}

/* Rematerialization between backward regions (wb-pass-remat.c's second rule). gpt2_block's backward wrote an
 * f32 [8, 1024, 3072] (the GELU's tanh term, 100 MB) that the next region reads, and the layer-norm backwards
 * wrote their mean terms as f32 [8, 1024, 768]: the readers recompute the first, and the mean terms become per-row
 * f32 [8, 1024] outputs. llama_layer's RMS-norm backward wrote an f32 [1, 2048, 4096] that its reader now
 * recomputes. WB_NO_BACKWARD_REMAT=1 gives the regions before the rule. */
static void
test_backward_remat (void)
{
  g_autoptr (GPtrArray) gpt2 = NULL, gpt2_off = NULL, llama = NULL, llama_off = NULL;

  if (wb_test_traces_dir () == NULL)
    {
      g_test_skip ("../shared/traces is not present");
      return;
    }
  gpt2 = backward_region_outputs ("gpt2_block");
  llama = backward_region_outputs ("llama_layer");
  g_setenv ("WB_NO_BACKWARD_REMAT", "1", TRUE);
  gpt2_off = backward_region_outputs ("gpt2_block");
  llama_off = backward_region_outputs ("llama_layer");
  g_unsetenv ("WB_NO_BACKWARD_REMAT");
  g_test_message ("gpt2_block: f32[8, 1024, 3072] %u -> %u, f32[8, 1024, 768] %u -> %u, f32[8, 1024] %u -> %u",
                  count_type (gpt2_off, "f32[8, 1024, 3072]"), count_type (gpt2, "f32[8, 1024, 3072]"),
                  count_type (gpt2_off, "f32[8, 1024, 768]"), count_type (gpt2, "f32[8, 1024, 768]"),
                  count_type (gpt2_off, "f32[8, 1024]"), count_type (gpt2, "f32[8, 1024]"));
  g_test_message ("llama_layer: f32[1, 2048, 4096] %u -> %u", count_type (llama_off, "f32[1, 2048, 4096]"),
                  count_type (llama, "f32[1, 2048, 4096]"));
  g_assert_cmpuint (count_type (gpt2_off, "f32[8, 1024, 3072]"), >, 0);
  g_assert_cmpuint (count_type (gpt2, "f32[8, 1024, 3072]"), ==, 0);
  g_assert_cmpuint (count_type (gpt2, "f32[8, 1024, 768]") + 2, ==, count_type (gpt2_off, "f32[8, 1024, 768]"));
  g_assert_cmpuint (count_type (gpt2, "f32[8, 1024]"), ==, count_type (gpt2_off, "f32[8, 1024]") + 2);
  g_assert_cmpuint (count_type (llama, "f32[1, 2048, 4096]"), <, count_type (llama_off, "f32[1, 2048, 4096]"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compiler/WbPipeline/case/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], check_case);
    }
  g_test_add_func ("/compiler/WbPipeline/regions-vs-thunder", test_regions_vs_thunder);
  g_test_add_func ("/compiler/WbPipeline/remarks", test_remarks);
  g_test_add_func ("/compiler/WbPipeline/remark-executors", test_remark_dtype);
  g_test_add_func ("/compiler/WbPipeline/reassignment", test_reassignment);
  g_test_add_func ("/compiler/WbPipeline/region-keys", test_region_keys);
  g_test_add_func ("/compiler/WbPipeline/provenance", test_provenance);
  g_test_add_func ("/compiler/WbPipeline/backward-remat", test_backward_remat);
  return g_test_run ();
}
