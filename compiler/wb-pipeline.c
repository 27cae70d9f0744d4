/* wb-pipeline.c — runs the passes as data and records every stage with its provenance
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The order is Thunder's transform_for_execution (thunder/executors/passes.py) on the joint trace, then
 * the split and del_last_used of thunder/__init__.py: DCE, claim (operator executors by priority, fusion
 * executors mark what they can fuse, unclaimed composites are flattened), DCE, fusion, rematerialization,
 * CSE, then split forward/backward (training) and delete-last-used on each (inference: delete-last-used
 * and unwrap the return value). Each pass output is a stage named like Thunder's provenance lines. */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-pipeline-error-quark, wb_pipeline_error)
/* clang-format on */

struct _WbPipeline
{
  GPtrArray   *stages; /* WbStage */
  WbPassShared shared;
  GPtrArray   *regions; /* WbRegion */
  double       total_ms;
};

typedef struct
{
  const char *name; /* the provenance line's text */
  WbPassFunc  func;
} PassInfo;

/* The passes that map one trace to one trace, in order. */
static const PassInfo pre_split_passes[] = {
  { "Dead Code Elimination", _wb_pass_dce },
  { "Transform for operator executor execution", _wb_pass_claim },
  { "Dead Code Elimination", _wb_pass_dce },
  { "Fusion", _wb_pass_fusion },
  { "Rematerialization", _wb_pass_rematerialize },
  { "Common Subexpression Elimination", _wb_pass_cse },
};

static void
stage_free (WbStage *s)
{
  wb_trace_unref (s->trace);
  g_free (s->pass);
  g_hash_table_unref (s->sources);
  g_clear_pointer (&s->members, g_hash_table_unref);
  g_free (s);
}

static void
remark_free (WbRemark *r)
{
  g_free (r->executor);
  g_free (r->symbol);
  g_free (r->reason);
  g_free (r);
}

static void
region_free (WbRegion *r)
{
  g_free (r->name);
  g_free (r->executor);
  g_free (r->key);
  g_free (r);
}

const char *
wb_stage_list_to_string (WbStageList list)
{
  switch (list)
    {
    case WB_STAGE_JOINT:
      return "joint";
    case WB_STAGE_COMPUTATION:
      return "computation";
    case WB_STAGE_FORWARD:
      return "forward";
    case WB_STAGE_BACKWARD:
      return "backward";
    default:
      return "?";
    }
}

static GHashTable *
new_sources (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
}

static WbStage *
add_stage (WbPipeline *p, WbTrace *trace, const char *pass, WbStageList list, double ms, int previous, GHashTable *sources)
{
  WbStage *s = g_new0 (WbStage, 1);
  s->trace = trace;
  s->pass = g_strdup (pass);
  s->list = list;
  s->ms = ms;
  s->previous = previous;
  s->sources = sources ? g_hash_table_ref (sources) : new_sources ();
  g_ptr_array_add (p->stages, s);
  return s;
}

/* Runs @info on stage @prev and appends the result. */
static int
run_pass (WbPipeline *p, int prev, const char *name, WbPassFunc func, GError **error)
{
  WbStage      *in = p->stages->pdata[prev];
  WbPassContext ctx = { &p->shared, in->trace, _wb_type_env_new (in->trace), new_sources () };
  gint64        t0 = g_get_monotonic_time ();
  WbTrace      *out = func (&ctx, error);
  double        ms = (g_get_monotonic_time () - t0) / 1000.0;
  int           idx = -1;
  if (out != NULL)
    {
      /* the provenance line carries the pass's time, as Thunder prints it */
      _wb_trace_set_provenance (out, name, ms);
      {
        g_autofree char *fname = g_strdup_printf ("<stage %u: %s>", p->stages->len, name);
        _wb_trace_set_filename (out, fname);
      }
      add_stage (p, out, name, in->list, ms, prev, ctx.sources);
      idx = p->stages->len - 1;
      p->total_ms += ms;
    }
  g_hash_table_unref (ctx.types);
  g_hash_table_unref (ctx.sources);
  return idx;
}

/* Checks the choices of @assignment (parsed by the caller) and copies them into sh->overrides. */
static gboolean
take_assignment (WbPassShared *sh, const WbAssignment *assignment, GError **error)
{
  if (wb_assignment_is_empty (assignment))
    return TRUE;
  sh->overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < wb_assignment_get_n_choices (assignment); i++)
    {
      const WbAssignmentChoice *c = wb_assignment_get_choice (assignment, i);

      if (strcmp (c->executor, "unfuse") != 0 && wb_executor_info_lookup (c->executor) == NULL)
        {
          g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_UNKNOWN_EXECUTOR, "%s=%s: no executor is called '%s'", c->key, c->executor, c->executor);
          return FALSE;
        }
      g_hash_table_insert (sh->overrides, g_strdup (c->key), g_strdup (c->executor));
    }
  return TRUE;
}

static gboolean
trace_on_cuda (const WbTrace *t)
{
  for (guint i = 0; i < t->n_body; i++)
    if (t->body[i]->kind == WB_BSYM_ANNOTATION && t->body[i]->type.kind == WB_TYPE_TENSOR)
      return t->body[i]->type.device.type == WB_DEVICE_CUDA;
  return TRUE;
}

/* Gives every stage the pipeline computed the fusion pass's keys (wb_trace_get_call_key): a region keeps
 * the key it was formed with through remat, CSE, the split and the deletions, which renumber nothing but
 * put recomputed values before its first member. */
static void
publish_keys (WbPipeline *p, const WbTrace *input)
{
  for (guint i = 0; i < p->stages->len; i++)
    {
      WbStage *s = p->stages->pdata[i];

      if (s->trace != input)
        _wb_trace_set_keys (s->trace, p->shared.region_keys, p->shared.unfused_from);
    }
}

static void
collect_regions (WbPipeline *p, const WbStage *s)
{
  for (guint i = 0; i < s->trace->n_body; i++)
    {
      const WbBsym         *b = s->trace->body[i];
      WbRegion             *r;
      const WbExecutorInfo *ex;
      if (!wb_bsym_is_fusion (b))
        continue;
      ex = g_hash_table_lookup (p->shared.region_exec, b->name);
      if (ex == NULL)
        ex = wb_executor_info_for_region (b->name);
      r = g_new0 (WbRegion, 1);
      r->name = g_strdup (b->name);
      r->executor = g_strdup (ex ? wb_executor_info_get_name (ex) : "?");
      r->key = g_strdup (g_hash_table_lookup (p->shared.region_keys, b->name));
      if (r->key == NULL)
        r->key = wb_region_key (b);
      r->list = s->list;
      r->bsym = b;
      r->n_ops = b->n_subsymbols;
      g_ptr_array_add (p->regions, r);
    }
}

WbPipeline *
wb_pipeline_run (WbTrace *input, const WbPipelineOptions *options, GError **error)
{
  g_auto (GStrv) priority = NULL;
  WbPipelineOptions defaults = { 0 };
  g_autoptr (WbPipeline) p = g_new0 (WbPipeline, 1);
  const char *const *names;
  guint              n = 0;
  int                cur = 0;
  gboolean           joint;

  g_return_val_if_fail (input != NULL, NULL);
  if (options == NULL)
    options = &defaults;
  if (options->executors == NULL)
    priority = wb_executor_info_dup_priority (trace_on_cuda (input));
  names = options->executors ? options->executors : (const char *const *) priority;
  p->stages = g_ptr_array_new_with_free_func ((GDestroyNotify) stage_free);
  p->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) region_free);
  p->shared.claims = g_hash_table_new (g_direct_hash, g_direct_equal);
  p->shared.region_exec = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->shared.region_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  p->shared.unfused_from = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  p->shared.remarks = g_ptr_array_new_with_free_func ((GDestroyNotify) remark_free);
  p->shared.counters = g_hash_table_new (g_str_hash, g_str_equal);
  p->shared.fusion_type = options->fusion_type;
  while (names[n])
    n++;
  p->shared.executors = g_new0 (const WbExecutorInfo *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      const WbExecutorInfo *ex = wb_executor_info_lookup (names[i]);
      if (ex == NULL)
        {
          g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_UNKNOWN_EXECUTOR, "no executor is called '%s'", names[i]);
          return NULL;
        }
      p->shared.executors[p->shared.n_executors++] = ex;
    }
  if (!take_assignment (&p->shared, options->assignment, error))
    return NULL;

  joint = _wb_trace_is_joint (input);
  add_stage (p, wb_trace_ref (input), input->provenance ? input->provenance : "input", joint ? WB_STAGE_JOINT : WB_STAGE_COMPUTATION, 0, -1, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (pre_split_passes); i++)
    if ((cur = run_pass (p, cur, pre_split_passes[i].name, pre_split_passes[i].func, error)) < 0)
      return NULL;

  if (joint)
    {
      WbStage      *in = p->stages->pdata[cur];
      WbPassContext ctx = { &p->shared, in->trace, _wb_type_env_new (in->trace), new_sources () };
      WbTrace      *bw = NULL, *fw;
      gint64        t0 = g_get_monotonic_time ();
      int           fw_idx, bw_idx;
      double        ms;
      fw = _wb_pass_split (&ctx, &bw, error);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_hash_table_unref (ctx.types);
      if (fw == NULL)
        {
          g_hash_table_unref (ctx.sources);
          return NULL;
        }
      p->total_ms += ms;
      _wb_trace_set_provenance (fw, "Split forward", ms);
      _wb_trace_set_provenance (bw, "Split backward", -1);
      {
        g_autofree char *f1 = g_strdup_printf ("<stage %u: Split forward>", p->stages->len);
        g_autofree char *f2 = g_strdup_printf ("<stage %u: Split backward>", p->stages->len + 1);
        _wb_trace_set_filename (fw, f1);
        _wb_trace_set_filename (bw, f2);
      }
      add_stage (p, fw, "Split forward", WB_STAGE_FORWARD, ms, cur, ctx.sources);
      fw_idx = p->stages->len - 1;
      add_stage (p, bw, "Split backward", WB_STAGE_BACKWARD, 0, cur, ctx.sources);
      bw_idx = p->stages->len - 1;
      g_hash_table_unref (ctx.sources);
      if ((fw_idx = run_pass (p, fw_idx, "Delete Last Used", _wb_pass_delete_last_used, error)) < 0)
        return NULL;
      if ((bw_idx = run_pass (p, bw_idx, "Delete Last Used", _wb_pass_delete_last_used, error)) < 0)
        return NULL;
      collect_regions (p, p->stages->pdata[fw_idx]);
      collect_regions (p, p->stages->pdata[bw_idx]);
    }
  else
    {
      if ((cur = run_pass (p, cur, "Delete Last Used", _wb_pass_delete_last_used, error)) < 0)
        return NULL;
      if ((cur = run_pass (p, cur, "Unwrap the actual return value", _wb_pass_unwrap_return, error)) < 0)
        return NULL;
      collect_regions (p, p->stages->pdata[cur]);
    }
  publish_keys (p, input);
  return g_steal_pointer (&p);
}

void
wb_pipeline_free (WbPipeline *p)
{
  if (p == NULL)
    return;
  g_clear_pointer (&p->stages, g_ptr_array_unref);
  g_clear_pointer (&p->regions, g_ptr_array_unref);
  g_clear_pointer (&p->shared.claims, g_hash_table_unref);
  g_clear_pointer (&p->shared.region_exec, g_hash_table_unref);
  g_clear_pointer (&p->shared.region_keys, g_hash_table_unref);
  g_clear_pointer (&p->shared.unfused_from, g_hash_table_unref);
  g_clear_pointer (&p->shared.remarks, g_ptr_array_unref);
  g_clear_pointer (&p->shared.counters, g_hash_table_unref);
  g_clear_pointer (&p->shared.overrides, g_hash_table_unref);
  g_free (p->shared.executors);
  g_free (p);
}

/* the one sub-set holding forward traces ("workbench" aside), or NULL when there are none or several; *@n_out
 * how many */
static const char *
only_subset (const WbTraceSet *set, guint *n_out)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *only = NULL;

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      if (e->kind != WB_TRACE_KIND_FORWARD || e->subset == NULL || e->subset[0] == '\0' || g_str_equal (e->subset, "workbench"))
        continue;
      if (g_hash_table_add (seen, (gpointer) e->subset) && only == NULL)
        only = e->subset;
    }
  *n_out = g_hash_table_size (seen);
  return *n_out == 1 ? only : NULL;
}

const WbTraceEntry *
wb_pipeline_find_input (const WbTraceSet *set)
{
  const WbTraceEntry *top = wb_pipeline_find_input_in (set, "");
  const char         *only;
  guint               n;

  if (top != NULL)
    return top;
  /* a folder of one ThunderFX subgraph (CASE/thunderfx_g0_GraphModule/, densenet121) has no program at its top:
   * its one sub-program is the program */
  only = only_subset (set, &n);
  return only != NULL ? wb_pipeline_find_input_in (set, only) : NULL;
}

guint
wb_pipeline_count_subprograms (const WbTraceSet *set)
{
  guint n;

  (void) only_subset (set, &n);
  return n;
}

const WbTraceEntry *
wb_pipeline_find_input_in (const WbTraceSet *set, const char *subset)
{
  const WbTraceEntry *best = NULL;
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      const char         *prov = e->trace->provenance;
      if (g_strcmp0 (e->subset, subset) != 0 || e->kind != WB_TRACE_KIND_FORWARD)
        continue;
      if (prov != NULL && g_str_has_prefix (prov, "Grad transform pass"))
        return e;
      if (prov != NULL && g_str_has_prefix (prov, "Delete Last Used"))
        break;
      best = e;
    }
  return best;
}

guint
wb_pipeline_get_n_stages (const WbPipeline *p)
{
  return p->stages->len;
}

const WbStage *
wb_pipeline_get_stage (const WbPipeline *p, guint i)
{
  g_return_val_if_fail (i < p->stages->len, NULL);
  return p->stages->pdata[i];
}

GPtrArray *
wb_pipeline_get_remarks (const WbPipeline *p)
{
  return p->shared.remarks;
}

GPtrArray *
wb_pipeline_get_regions (const WbPipeline *p)
{
  return p->regions;
}

double
wb_pipeline_get_total_ms (const WbPipeline *p)
{
  return p->total_ms;
}

WbTrace *
wb_stage_get_trace (const WbStage *s)
{
  return s->trace;
}

const char *
wb_stage_get_pass (const WbStage *s)
{
  return s->pass;
}

WbStageList
wb_stage_get_list (const WbStage *s)
{
  return s->list;
}

double
wb_stage_get_ms (const WbStage *s)
{
  return s->ms;
}

int
wb_stage_get_previous (const WbStage *s)
{
  return s->previous;
}

GPtrArray *
wb_stage_get_sources (const WbStage *s, const WbBsym *bsym)
{
  GPtrArray *list = g_hash_table_lookup (s->sources, bsym);
  if (list != NULL)
    return list;
  if (s->members == NULL)
    {
      ((WbStage *) s)->members = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
      for (guint i = 0; i < s->trace->n_body; i++)
        {
          GPtrArray *self = g_ptr_array_new ();
          g_ptr_array_add (self, s->trace->body[i]);
          g_hash_table_insert (s->members, s->trace->body[i], self);
        }
    }
  return g_hash_table_lookup (s->members, bsym);
}

void
wb_pipeline_append_stages (const WbPipeline *p, WbTraceSet *set)
{
  g_return_if_fail (p != NULL && set != NULL);
  for (guint i = 1; i < p->stages->len; i++)
    {
      const WbStage *s = p->stages->pdata[i];
      wb_trace_set_add (set, s->trace, s->list == WB_STAGE_BACKWARD ? WB_TRACE_KIND_BACKWARD : WB_TRACE_KIND_FORWARD, (int) i,
                        "workbench", s->pass, s->trace->filename);
    }
}
