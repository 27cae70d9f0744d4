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

/* Runs @call as one plan: a fusion region (@whole: its args are its inputs) or one op / composite. */
gboolean
_wb_cuda_exec_run_plan (WbCudaRuntime *rt, WbKernelCall *call, gboolean whole, GError **error)
{
  const WbBsym *b = call->bsym;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) values = g_ptr_array_new ();
  g_autoptr (GPtrArray) dev = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autofree WbCudaArg *args = NULL;
  g_autofree WbTensor **inputs = NULL;
  g_autofree WbTensor **results = NULL;
  GString              *key = g_string_new (NULL);
  WbCudaDispatchStats  *stats = _wb_cuda_exec_stats ();
  WbCudaPlan           *plan;

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
  g_string_append (key, _wb_cuda_exec_text_of (b));
  for (guint i = 0; i < values->len; i++)
    {
      WbRtValue *v = _wb_cuda_exec_to_device (rt, values->pdata[i], error);
      if (v == NULL)
        {
          g_string_free (key, TRUE);
          return FALSE;
        }
      g_ptr_array_add (dev, v);
      arg_describe (&args[i], v);
      inputs[i] = v->kind == WB_RT_TENSOR ? v->tensor : NULL;
      key_append_arg (key, &args[i]);
    }
  plan = _wb_cuda_exec_lookup_plan (key->str);
  if (plan == NULL)
    {
      wb_bsym_foreach_output (b, _wb_cuda_exec_collect_outputs, outs);
      if (whole && wb_bsym_is_fusion (b))
        plan = wb_cuda_plan_new_region (b, args, values->len, error);
      else
        plan = wb_cuda_plan_new (&b, 1, (const char *const *) names->pdata, args, names->len, (const char *const *) outs->pdata,
                                 outs->len, error);
      if (plan == NULL)
        {
          g_string_free (key, TRUE);
          return FALSE;
        }
      _wb_cuda_exec_insert_plan (g_string_free (key, FALSE), plan);
    }
  else
    g_string_free (key, TRUE);
  results = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));
  if (!wb_cuda_plan_launch (rt, plan, inputs, results, error))
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

/* The matmul or linear prim a unit of a region stands for (itself, or the single leaf of ltorch.matmul /
 * ltorch.linear), or NULL. */
static const WbBsym *
matmul_leaf (const WbBsym *u)
{
  while (u != NULL && u->kind == WB_BSYM_CALL)
    {
      if (_wb_cuda_exec_is_matmul (u) && u->n_subsymbols == 0)
        return u;
      if (u->n_subsymbols != 1)
        return NULL;
      u = u->subsymbols[0];
    }
  return NULL;
}

static void
add_name_set (const WbValue *name, gpointer set)
{
  g_hash_table_add (set, (gpointer) name->text);
}

static void
collect_uses (const WbValue *v, GHashTable *set)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (set, (gpointer) v->text);
  for (guint i = 0; i < v->n_items; i++)
    collect_uses (v->items[i], set);
  if (v->base)
    collect_uses (v->base, set);
}

static void
unit_uses (const WbBsym *u, GHashTable *set)
{
  for (guint i = 0; i < u->n_args; i++)
    collect_uses (u->args[i], set);
  for (guint i = 0; i < u->n_kwargs; i++)
    collect_uses (u->kwargs[i].value, set);
}

/* Whether @b (a fusion region the generator cannot take whole) splits into fusible runs and cuBLASLt
 * calls whose operands are names (or None). */
gboolean
_wb_cuda_exec_can_split (const WbBsym *b)
{
  guint n_lib = 0;

  if (!wb_bsym_is_fusion (b) || !_wb_cuda_exec_outputs_named (b))
    return FALSE;
  for (guint i = 0; i < b->n_subsymbols; i++)
    {
      const WbBsym *u = b->subsymbols[i], *leaf;
      if (u->kind != WB_BSYM_CALL)
        continue;
      if (wb_cuda_codegen_can_fuse (u, NULL) && _wb_cuda_exec_outputs_named (u))
        continue;
      if ((leaf = matmul_leaf (u)) == NULL || leaf->outputs == NULL || leaf->outputs->kind != WB_VALUE_NAME)
        return FALSE;
      for (guint k = 0; k < leaf->n_args; k++)
        if (leaf->args[k]->kind != WB_VALUE_NAME && leaf->args[k]->kind != WB_VALUE_NONE)
          return FALSE;
      if (leaf->n_kwargs > 0)
        return FALSE;
      n_lib++;
    }
  return n_lib > 0;
}

static int
cmp_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
run_segment (WbCudaRuntime *rt, const WbBsym *const *units, guint n, GHashTable *env, GHashTable *later, GError **error)
{
  g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) in_names = g_ptr_array_new ();
  g_autoptr (GPtrArray) out_names = g_ptr_array_new ();
  g_autofree WbCudaArg *args = NULL;
  g_autofree WbTensor **inputs = NULL;
  g_autofree WbTensor **results = NULL;
  GString              *key = g_string_new ("segment\n");
  WbCudaPlan           *plan;
  GHashTableIter        it;
  gpointer              k;

  for (guint i = 0; i < n; i++)
    {
      unit_uses (units[i], used);
      wb_bsym_foreach_output (units[i], add_name_set, defined);
      g_string_append (key, _wb_cuda_exec_text_of (units[i]));
    }
  g_hash_table_iter_init (&it, used);
  while (g_hash_table_iter_next (&it, &k, NULL))
    if (!g_hash_table_contains (defined, k) && g_hash_table_contains (env, k))
      g_ptr_array_add (in_names, k);
  g_ptr_array_sort (in_names, cmp_names);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      wb_bsym_foreach_output (units[i], _wb_cuda_exec_collect_outputs, outs);
      for (guint j = 0; j < outs->len; j++)
        if (g_hash_table_contains (later, outs->pdata[j]))
          g_ptr_array_add (out_names, outs->pdata[j]);
    }
  args = g_new0 (WbCudaArg, MAX (in_names->len, 1));
  inputs = g_new0 (WbTensor *, MAX (in_names->len, 1));
  for (guint i = 0; i < in_names->len; i++)
    {
      WbRtValue *v = g_hash_table_lookup (env, in_names->pdata[i]);
      arg_describe (&args[i], v);
      inputs[i] = v->kind == WB_RT_TENSOR ? v->tensor : NULL;
      g_string_append_printf (key, "|%s", (const char *) in_names->pdata[i]);
      key_append_arg (key, &args[i]);
    }
  for (guint i = 0; i < out_names->len; i++)
    g_string_append_printf (key, ">%s", (const char *) out_names->pdata[i]);
  plan = _wb_cuda_exec_lookup_plan (key->str);
  if (plan == NULL)
    {
      plan = wb_cuda_plan_new (units, n, (const char *const *) in_names->pdata, args, in_names->len,
                               (const char *const *) out_names->pdata, out_names->len, error);
      if (plan == NULL)
        {
          g_string_free (key, TRUE);
          return FALSE;
        }
      _wb_cuda_exec_insert_plan (g_string_free (key, FALSE), plan);
    }
  else
    g_string_free (key, TRUE);
  results = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));
  if (!wb_cuda_plan_launch (rt, plan, inputs, results, error))
    return FALSE;
  _wb_cuda_exec_stats ()->plan_kernels += plan->n_kernels;
  for (guint i = 0; i < plan->n_outputs; i++)
    g_hash_table_replace (env, out_names->pdata[i], wb_rt_value_take_tensor (results[i]));
  return TRUE;
}

/* Runs fusion region @call->bsym as fusible runs of its subsymbols (one plan each) between its matmul and
 * linear calls (cuBLASLt). */
gboolean
_wb_cuda_exec_run_split (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  const WbBsym *b = call->bsym;
  g_autoptr (GHashTable) env = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) units = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autofree WbTensor **results = NULL;
  guint                 start;

  for (guint i = 0; i < b->n_args && i < call->n_args; i++)
    if (b->args[i]->kind == WB_VALUE_NAME)
      {
        WbRtValue *v = _wb_cuda_exec_to_device (rt, call->args[i], error);
        if (v == NULL)
          return FALSE;
        g_hash_table_replace (env, (gpointer) b->args[i]->text, v);
      }
  for (guint i = 0; i < b->n_subsymbols; i++)
    if (b->subsymbols[i]->kind == WB_BSYM_CALL)
      g_ptr_array_add (units, b->subsymbols[i]);
  wb_bsym_foreach_output (b, _wb_cuda_exec_collect_outputs, outs);
  start = 0;
  for (guint i = 0; i <= units->len; i++)
    {
      const WbBsym *u = i < units->len ? units->pdata[i] : NULL;
      const WbBsym *leaf = u && !(wb_cuda_codegen_can_fuse (u, NULL) && _wb_cuda_exec_outputs_named (u)) ? matmul_leaf (u) : NULL;
      if (u != NULL && leaf == NULL)
        continue;
      if (i > start)
        {
          /* names the run defines that later units or the region's outputs read */
          g_autoptr (GHashTable) later = g_hash_table_new (g_str_hash, g_str_equal);
          for (guint j = i; j < units->len; j++)
            unit_uses (units->pdata[j], later);
          for (guint j = 0; j < outs->len; j++)
            g_hash_table_add (later, outs->pdata[j]);
          if (!run_segment (rt, (const WbBsym *const *) units->pdata + start, i - start, env, later, error))
            return FALSE;
        }
      if (leaf != NULL)
        {
          WbKernelCall mc = { 0 };
          GPtrArray   *margs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
          gboolean     ok;
          for (guint k = 0; k < leaf->n_args; k++)
            {
              WbRtValue *v = leaf->args[k]->kind == WB_VALUE_NAME ? g_hash_table_lookup (env, leaf->args[k]->text) : NULL;
              g_ptr_array_add (margs, v ? wb_rt_value_ref (v) : wb_rt_value_new_none ());
            }
          mc.bsym = leaf;
          mc.args = (WbRtValue **) margs->pdata;
          mc.n_args = margs->len;
          mc.state = call->state;
          ok = _wb_cuda_exec_run_matmul (rt, &mc, error);
          g_ptr_array_unref (margs);
          if (!ok)
            return FALSE;
          g_hash_table_replace (env, (gpointer) leaf->outputs->text, mc.result);
        }
      start = i + 1;
    }
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
