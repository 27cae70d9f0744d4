/* wb-cuda-exec-fusion.c — the nvrtc paths: a call or fusion region as one plan, regions split around matmul/linear
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plan (wb-cuda-codegen.h) is generated for the printed call and the layouts of its actual arguments
 * (dtype, shape, strides, literal numbers), cached under that text for the rest of the process, and
 * launched on the device tensors (wb_cuda_plan_launch). */
#include "config.h"

#include <string.h>

#include "wb-cuda-exec-private.h"

static void
arg_describe (WbCudaArg *a, WbRtValue *v)
{
  memset (a, 0, sizeof *a);
  if (v != NULL && v->kind == WB_RT_TENSOR)
    {
      a->kind = WB_CUDA_ARG_TENSOR;
      a->dtype = v->tensor->dtype;
      a->rank = v->tensor->rank;
      memcpy (a->shape, v->tensor->shape, sizeof a->shape);
      memcpy (a->strides, v->tensor->strides, sizeof a->strides);
      for (guint d = 0; d < a->rank; d++)
        if (a->shape[d] == 1)
          a->strides[d] = 0;
    }
  else if (v != NULL && (v->kind == WB_RT_INT || v->kind == WB_RT_BOOL || v->kind == WB_RT_FLOAT))
    {
      a->kind = WB_CUDA_ARG_NUMBER;
      a->dtype = v->kind == WB_RT_FLOAT ? WB_DTYPE_FLOAT64 : v->kind == WB_RT_BOOL ? WB_DTYPE_BOOL8
                                                                                   : WB_DTYPE_INT64;
      a->f = v->kind == WB_RT_FLOAT ? v->f : (double) v->i;
      a->i = v->kind == WB_RT_BOOL ? v->b : v->i;
      if (v->kind == WB_RT_BOOL)
        a->f = v->b;
    }
  else
    a->kind = WB_CUDA_ARG_OTHER;
}

static void
key_append_arg (GString *key, const WbCudaArg *a)
{
  g_string_append_printf (key, "|%d:%d:%u", a->kind, a->dtype, a->rank);
  for (guint d = 0; d < a->rank; d++)
    g_string_append_printf (key, ",%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, a->shape[d], a->strides[d]);
  if (a->kind == WB_CUDA_ARG_NUMBER)
    g_string_append_printf (key, "=%.17g/%" G_GINT64_FORMAT, a->f, a->i);
}

/* Collects NAME -> value pairs of a single call's arguments (tuples and lists of names included). */
static void
collect_named (const WbValue *pv, WbRtValue *v, GPtrArray *names, GPtrArray *values)
{
  if (pv == NULL || v == NULL)
    return;
  if (pv->kind == WB_VALUE_NAME)
    {
      for (guint i = 0; i < names->len; i++)
        if (strcmp (names->pdata[i], pv->text) == 0)
          return;
      g_ptr_array_add (names, (gpointer) pv->text);
      g_ptr_array_add (values, v);
      return;
    }
  if (wb_value_is_sequence (pv) && wb_rt_value_is_sequence (v) && v->items->len == pv->n_items)
    for (guint i = 0; i < pv->n_items; i++)
      collect_named (pv->items[i], v->items->pdata[i], names, values);
}

/* How a call site's plan is keyed and built: @key appends the site's text (its layouts come after it), @build
 * generates its plan under the options given. */
typedef struct
{
  GString *(*key) (gconstpointer data);
  WbCudaPlanBuildFunc build;
  gconstpointer       data;
  const char         *where; /* the region, for messages */
} PlanSite;

/* The plan of @ps for @args under @flags and the autotuner's variant @variant (0: the default): from the plan
 * cache, or built and kept there; remembered for call site @site. (transfer none: the cache owns it) or NULL
 * with WB_CUDA_CODEGEN_ERROR. */
static WbCudaPlan *
plan_for (const PlanSite *ps, gconstpointer site, const WbCudaArg *args, guint n_args, WbCudaCodegenFlags flags, guint variant, GError **error)
{
  GString    *key = ps->key (ps->data);
  WbCudaPlan *plan;

  for (guint i = 0; i < n_args; i++)
    key_append_arg (key, &args[i]);
  if (flags != WB_CUDA_CODEGEN_DEFAULT)
    g_string_append_printf (key, "\nflags %u", (guint) flags);
  if (variant > 0)
    g_string_append_printf (key, "\nvariant %s", _wb_cuda_autotune_variant_name (variant));
  if ((plan = _wb_cuda_exec_lookup_plan (key->str)) == NULL)
    {
      WbCudaCodegenOptions o;
      _wb_cuda_autotune_options (variant, flags, &o);
      plan = ps->build (ps->data, args, &o, error);
    }
  if (!_wb_cuda_exec_keep_plan (key, plan))
    return NULL;
  _wb_cuda_exec_remember_site (site, args, n_args, plan);
  return plan;
}

/* Launches the plan of call site @site (the one it ran last when @args are the same, else plan_for) on
 * @inputs; (transfer full) its results in @results (plan->n_outputs). Where the device cannot run a kernel of it
 * (nothing was launched), the plan is built again without such kernels, remembered for the site and counted in
 * the stats: WB_CUDA_ERROR_RESIDENT (a mixed norm backward waits for more blocks than a small GPU holds at once)
 * -> WB_CUDA_CODEGEN_NO_WAIT; WB_CUDA_ERROR_SHARED_MEMORY (a lookup table's 128 KiB of shared memory, more than
 * sm_86 and sm_89 give a block) -> WB_CUDA_CODEGEN_NO_TABLE; both where both apply. */
static WbCudaPlan *
launch_site (WbCudaRuntime *rt, const PlanSite *ps, gconstpointer site, const WbCudaArg *args, guint n_args, WbTensor *const *inputs, WbTensor ***results, GError **error)
{
  WbCudaDispatchStats *stats = _wb_cuda_exec_stats ();
  WbCudaPlan          *plan = _wb_cuda_exec_site_plan (site, args, n_args);
  WbCudaCodegenFlags   flags = WB_CUDA_CODEGEN_DEFAULT;

  if (plan == NULL)
    {
      int variant;
      if ((plan = plan_for (ps, site, args, n_args, flags, 0, error)) == NULL ||
          (variant = _wb_cuda_autotune_choose (rt, ps->build, ps->data, ps->where, args, inputs, plan, error)) < 0)
        return NULL;
      if (variant > 0 && (plan = plan_for (ps, site, args, n_args, flags, (guint) variant, error)) == NULL)
        return NULL;
    }
  *results = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));
  for (guint tries = 0;; tries++)
    {
      g_autoptr (GError) local = NULL;
      gboolean resident, shared;
      if (wb_cuda_plan_launch (rt, plan, inputs, *results, &local))
        return plan;
      resident = g_error_matches (local, WB_CUDA_ERROR, WB_CUDA_ERROR_RESIDENT);
      shared = g_error_matches (local, WB_CUDA_ERROR, WB_CUDA_ERROR_SHARED_MEMORY);
      if (tries == 2 || !(resident || shared))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (tries == 0)
        stats->device_rebuilds++;
      if (stats->device_rebuild_reason == NULL)
        stats->device_rebuild_reason = g_strdup_printf ("%s: %s", ps->where, local->message);
      flags |= resident ? WB_CUDA_CODEGEN_NO_WAIT : WB_CUDA_CODEGEN_NO_TABLE;
      if ((plan = plan_for (ps, site, args, n_args, flags, 0, error)) == NULL)
        return NULL;
    }
}

static GString *
call_key (gconstpointer data)
{
  return g_string_new (_wb_cuda_exec_text_of (((const WbCudaCallSite *) data)->b));
}

WbCudaPlan *
_wb_cuda_exec_call_build (gconstpointer data, const WbCudaArg *args, const WbCudaCodegenOptions *o, GError **error)
{
  const WbCudaCallSite *cs = data;
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  if (cs->whole && wb_bsym_is_fusion (cs->b))
    return wb_cuda_plan_new_region_with_options (cs->b, args, cs->names->len, o, error);
  wb_bsym_get_output_names (cs->b, outs);
  return wb_cuda_plan_new_with_options (&cs->b, 1, (const char *const *) cs->names->pdata, args, cs->names->len, (const char *const *) outs->pdata,
                                        outs->len, o, error);
}

/* Runs @call as one plan: a fusion region (@whole: its args are its inputs) or one op / composite. */
gboolean
_wb_cuda_exec_run_plan (WbCudaRuntime *rt, WbKernelCall *call, gboolean whole, GError **error)
{
  const WbBsym *b = call->bsym;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) values = g_ptr_array_new ();
  g_autoptr (GPtrArray) dev = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autofree WbCudaArg *args = NULL;
  g_autofree WbTensor **inputs = NULL;
  g_autofree WbTensor **results = NULL;
  WbCudaDispatchStats  *stats = _wb_cuda_exec_stats ();
  WbCudaPlan           *plan;
  WbCudaCallSite        cs = { b, whole, names };
  PlanSite              ps = { call_key, _wb_cuda_exec_call_build, &cs, b->name };

  if (whole)
    {
      for (guint i = 0; i < b->n_args && i < call->n_args; i++)
        {
          g_ptr_array_add (names, b->args[i]->kind == WB_VALUE_NAME ? (gpointer) b->args[i]->text : NULL);
          g_ptr_array_add (values, call->args[i]);
        }
    }
  else
    {
      for (guint i = 0; i < b->n_args && i < call->n_args; i++)
        collect_named (b->args[i], call->args[i], names, values);
      for (guint i = 0; i < b->n_kwargs && i < call->n_kwargs; i++)
        collect_named (b->kwargs[i].value, call->kwargs[i], names, values);
    }
  args = g_new0 (WbCudaArg, MAX (values->len, 1));
  inputs = g_new0 (WbTensor *, MAX (values->len, 1));
  for (guint i = 0; i < values->len; i++)
    {
      WbRtValue *v = _wb_cuda_exec_to_device (rt, values->pdata[i], error);
      if (v == NULL)
        return FALSE;
      g_ptr_array_add (dev, v);
      arg_describe (&args[i], v);
      inputs[i] = v->kind == WB_RT_TENSOR ? v->tensor : NULL;
    }
  if ((plan = launch_site (rt, &ps, b, args, values->len, inputs, &results, error)) == NULL)
    return FALSE;
  if (whole || b->n_subsymbols > 0)
    stats->regions_fused++;
  else
    stats->ops_generated++;
  stats->plan_kernels += plan->n_kernels;
  call->result = _wb_cuda_exec_make_result (b, results, plan->n_outputs);
  return TRUE;
}

/* -- fusion regions split around library calls -------------------------------------------------- */

/* Whether @b (a fusion region the generator cannot take whole) splits into fusible runs and cuBLASLt
 * calls whose operands are names (or None): wb_cuda_split_new. */
gboolean
_wb_cuda_exec_can_split (const WbBsym *b)
{
  return wb_bsym_is_fusion (b) && _wb_cuda_exec_split_of (b) != NULL;
}

static GString *
step_key (gconstpointer data)
{
  const WbCudaStep *st = data;
  GString          *key = g_string_new ("segment\n");

  for (guint i = 0; i < st->n_units; i++)
    g_string_append (key, _wb_cuda_exec_text_of (st->units[i]));
  for (guint i = 0; i < st->n_inputs; i++)
    g_string_append_printf (key, "|%s", st->inputs[i]);
  for (guint i = 0; i < st->n_outputs; i++)
    g_string_append_printf (key, ">%s", st->outputs[i]);
  return key;
}

WbCudaPlan *
_wb_cuda_exec_step_build (gconstpointer data, const WbCudaArg *args, const WbCudaCodegenOptions *o, GError **error)
{
  const WbCudaStep *st = data;

  return wb_cuda_plan_new_with_options (st->units, st->n_units, st->inputs, args, st->n_inputs, st->outputs, st->n_outputs, o, error);
}

/* Runs fused step @st (one plan) of region @region on the values of @env, adding its outputs to @env. */
static gboolean
run_fused_step (WbCudaRuntime *rt, const WbBsym *region, const WbCudaStep *st, GHashTable *env, GError **error)
{
  g_autofree WbCudaArg *args = g_new0 (WbCudaArg, MAX (st->n_inputs, 1));
  g_autofree WbTensor **inputs = g_new0 (WbTensor *, MAX (st->n_inputs, 1));
  g_autofree WbTensor **results = NULL;
  PlanSite              ps = { step_key, _wb_cuda_exec_step_build, st, region->name };
  WbCudaPlan           *plan;

  for (guint i = 0; i < st->n_inputs; i++)
    {
      WbRtValue *v = g_hash_table_lookup (env, st->inputs[i]);
      arg_describe (&args[i], v);
      inputs[i] = v != NULL && v->kind == WB_RT_TENSOR ? v->tensor : NULL;
    }
  if ((plan = launch_site (rt, &ps, st, args, st->n_inputs, inputs, &results, error)) == NULL)
    return FALSE;
  _wb_cuda_exec_stats ()->plan_kernels += plan->n_kernels;
  for (guint i = 0; i < plan->n_outputs; i++)
    g_hash_table_replace (env, (gpointer) st->outputs[i], wb_rt_value_take_tensor (results[i]));
  return TRUE;
}

/* Runs matmul step @leaf (cuBLASLt) on the values of @env, adding its output to @env. */
static gboolean
run_matmul_step (WbCudaRuntime *rt, const WbBsym *leaf, gpointer state, GHashTable *env, GError **error)
{
  g_autoptr (GPtrArray) margs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  WbKernelCall mc = { 0 };

  for (guint k = 0; k < leaf->n_args; k++)
    {
      WbRtValue *v = leaf->args[k]->kind == WB_VALUE_NAME ? g_hash_table_lookup (env, leaf->args[k]->text) : NULL;
      g_ptr_array_add (margs, v ? wb_rt_value_ref (v) : wb_rt_value_new_none ());
    }
  mc.bsym = leaf;
  mc.args = (WbRtValue **) margs->pdata;
  mc.n_args = margs->len;
  mc.state = state;
  if (!_wb_cuda_exec_run_matmul (rt, &mc, error))
    return FALSE;
  g_hash_table_replace (env, (gpointer) leaf->outputs->text, mc.result);
  return TRUE;
}

/* Runs fusion region @call->bsym as the steps of its split (wb_cuda_split_new): one plan per fused run of
 * its subsymbols, one cuBLASLt call per matmul or linear. */
gboolean
_wb_cuda_exec_run_split (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  const WbBsym      *b = call->bsym;
  const WbCudaSplit *split = _wb_cuda_exec_split_of (b);
  g_autoptr (GHashTable) env = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autofree WbTensor **results = NULL;

  if (split == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s: cannot be split around its matmuls", b->name);
      return FALSE;
    }
  for (guint i = 0; i < b->n_args && i < call->n_args; i++)
    if (b->args[i]->kind == WB_VALUE_NAME)
      {
        WbRtValue *v = _wb_cuda_exec_to_device (rt, call->args[i], error);
        if (v == NULL)
          return FALSE;
        g_hash_table_replace (env, (gpointer) b->args[i]->text, v);
      }
  for (guint s = 0; s < split->n_steps; s++)
    {
      const WbCudaStep *st = &split->steps[s];
      if (st->kind == WB_CUDA_STEP_FUSED ? !run_fused_step (rt, b, st, env, error) : !run_matmul_step (rt, st->matmul, call->state, env, error))
        return FALSE;
    }
  wb_bsym_get_output_names (b, outs);
  results = g_new0 (WbTensor *, MAX (outs->len, 1));
  for (guint i = 0; i < outs->len; i++)
    {
      WbRtValue *v = g_hash_table_lookup (env, outs->pdata[i]);
      if (v == NULL || v->kind != WB_RT_TENSOR)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNDEFINED_NAME, "%s: output %s is not defined", b->name,
                       (const char *) outs->pdata[i]);
          for (guint j = 0; j < i; j++)
            wb_tensor_unref (results[j]);
          return FALSE;
        }
      results[i] = wb_tensor_ref (v->tensor);
    }
  _wb_cuda_exec_stats ()->regions_fused++;
  call->result = _wb_cuda_exec_make_result (b, results, outs->len);
  return TRUE;
}
