/* wb-cuda-executors.c — the runner's executors: nvrtc regions, cuBLASLt matmul, one-op kernels, cpu fallback
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cuda-executors.h"

#include <string.h>

#include "wb-cuda-attention.h"
#include "wb-cuda-kernels.h"
#include "wb-executors-private.h"

typedef enum
{
  FLAVOR_NVRTC = 1,
  FLAVOR_CUDA,
  FLAVOR_CUBLAS,
  FLAVOR_CPU,
} Flavor;

typedef struct
{
  WbExecutor  base;
  Flavor      flavor;
  const char *name;
} CudaExec;

typedef struct
{
  WbCudaPlan *plan;
} PlanEntry;

static GHashTable         *uploaded;  /* host WbTensor* -> device WbTensor* (a run's uploads) */
static GHashTable         *plans;     /* printed call + argument layouts -> WbCudaPlan* (content keys: always valid) */
static GHashTable         *texts;     /* WbBsym* -> its printed text, for the current program only */
static GHashTable         *unfusable; /* printed calls whose plan failed: decomposed from now on */
static WbCudaDispatchStats stats;

static void
ensure_tables (void)
{
  if (plans == NULL)
    {
      plans = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_cuda_plan_free);
      texts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      unfusable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      stats.fallback_symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      stats.fallback_reasons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    }
}

/* The printed form of @b (with its subsymbols): what a plan is cached under. Bound symbols are only
 * valid while their trace lives, so the text, not the pointer, is the key; the pointer -> text memo is
 * cleared with every run (wb_cuda_executors_begin_run). */
static const char *
text_of (const WbBsym *b)
{
  char *t = g_hash_table_lookup (texts, b);

  if (t == NULL)
    {
      GString *s = g_string_new (NULL);
      wb_bsym_print (b, 0, s);
      t = g_string_free (s, FALSE);
      g_hash_table_insert (texts, (gpointer) b, t);
    }
  return t;
}

void
wb_cuda_executors_forget_program (void)
{
  ensure_tables ();
  g_hash_table_remove_all (texts);
}

void
wb_cuda_executors_begin_run (void)
{
  ensure_tables ();
  g_hash_table_remove_all (texts);
  g_clear_pointer (&uploaded, g_hash_table_unref);
  uploaded = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) wb_tensor_unref, (GDestroyNotify) wb_tensor_unref);
  stats.regions_fused = stats.plan_kernels = stats.ops_generated = stats.matmuls = stats.fallbacks = 0;
  g_hash_table_remove_all (stats.fallback_symbols);
  g_hash_table_remove_all (stats.fallback_reasons);
}

void
wb_cuda_executors_end_run (void)
{
  g_clear_pointer (&uploaded, g_hash_table_unref);
  if (texts)
    g_hash_table_remove_all (texts);
}

const WbCudaDispatchStats *
wb_cuda_executors_get_stats (void)
{
  ensure_tables ();
  return &stats;
}

/* -- values between host and device ------------------------------------------------------------ */

static WbRtValue *
to_device (WbCudaRuntime *rt, WbRtValue *v, GError **error)
{
  if (v->kind == WB_RT_TENSOR)
    {
      WbTensor *d;
      if (wb_cuda_tensor_is_device (v->tensor))
        return wb_rt_value_ref (v);
      d = uploaded ? g_hash_table_lookup (uploaded, v->tensor) : NULL;
      if (d == NULL)
        {
          if ((d = wb_cuda_upload (rt, v->tensor, error)) == NULL)
            return NULL;
          if (uploaded)
            g_hash_table_insert (uploaded, wb_tensor_ref (v->tensor), d);
          else
            return wb_rt_value_take_tensor (d);
        }
      return wb_rt_value_new_tensor (d);
    }
  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
    {
      WbRtValue *seq = wb_rt_value_new_sequence (v->kind);
      for (guint i = 0; i < v->items->len; i++)
        {
          WbRtValue *x = to_device (rt, v->items->pdata[i], error);
          if (x == NULL)
            {
              wb_rt_value_unref (seq);
              return NULL;
            }
          wb_rt_value_append (seq, x);
        }
      return seq;
    }
  return wb_rt_value_ref (v);
}

static WbRtValue *
to_host (WbCudaRuntime *rt, WbRtValue *v, GError **error)
{
  if (v->kind == WB_RT_TENSOR)
    {
      WbTensor *h = wb_cuda_download (rt, v->tensor, error);
      return h ? wb_rt_value_take_tensor (h) : NULL;
    }
  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
    {
      WbRtValue *seq = wb_rt_value_new_sequence (v->kind);
      for (guint i = 0; i < v->items->len; i++)
        {
          WbRtValue *x = to_host (rt, v->items->pdata[i], error);
          if (x == NULL)
            {
              wb_rt_value_unref (seq);
              return NULL;
            }
          wb_rt_value_append (seq, x);
        }
      return seq;
    }
  return wb_rt_value_ref (v);
}

/* -- symbols -------------------------------------------------------------------------------------- */

/* The prim @b stands for: its own name, or the prim an executor alias names; NULL for other symbols. */
static const char *
prim_name (const WbBsym *b)
{
  const WbSymbol *s = b->symbol, *like;

  if (s == NULL)
    return NULL;
  like = wb_symbol_get_like (s);
  if (like != NULL)
    s = like;
  if (wb_symbol_get_module (s) != WB_SYMBOL_MODULE_PRIMS)
    return NULL;
  return wb_symbol_get_name (s);
}

static gboolean
is_matmul (const WbBsym *b)
{
  const char *p = prim_name (b);

  return p && (strcmp (p, "prims.matmul") == 0 || strcmp (p, "prims.linear") == 0);
}

static gboolean
is_copy_ (const WbBsym *b)
{
  const char *p = prim_name (b);

  return p && strcmp (p, "prims.copy_") == 0;
}

static gboolean
outputs_named (const WbBsym *b)
{
  const WbValue *o = b->outputs;

  if (o == NULL)
    return FALSE;
  if (o->kind == WB_VALUE_NAME)
    return strcmp (o->text, "_") != 0;
  for (guint i = 0; i < o->n_items; i++)
    if (o->items[i]->kind != WB_VALUE_NAME || strcmp (o->items[i]->text, "_") == 0)
      return FALSE;
  return o->n_items > 0;
}

/* A single prim the code generator takes (structurally). */
static gboolean
is_generated_op (const WbBsym *b)
{
  const char *p = prim_name (b);

  return p != NULL && b->n_subsymbols == 0 && outputs_named (b) && wb_cuda_codegen_can_fuse (b, NULL);
}

static gboolean
is_fusible_group (const WbBsym *b)
{
  return b->n_subsymbols > 0 && outputs_named (b) && !g_hash_table_contains (unfusable, text_of (b)) && wb_cuda_codegen_can_fuse (b, NULL);
}

/* -- results -------------------------------------------------------------------------------------- */

static WbRtValue *
make_result (const WbBsym *b, WbTensor **outs, guint n)
{
  WbRtValue *seq;

  if (b->outputs == NULL)
    return wb_rt_value_new_none ();
  if (b->outputs->kind == WB_VALUE_NAME)
    return wb_rt_value_take_tensor (outs[0]);
  seq = wb_rt_value_new_sequence (WB_RT_TUPLE);
  for (guint i = 0; i < n; i++)
    wb_rt_value_append (seq, wb_rt_value_take_tensor (outs[i]));
  return seq;
}

/* -- the paths ------------------------------------------------------------------------------------ */

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

static void
collect_outputs (const WbValue *name, gpointer data)
{
  g_ptr_array_add (data, (gpointer) name->text);
}

/* Runs @call as one plan: a fusion region (@whole: its args are its inputs) or one op / composite. */
static gboolean
run_plan (WbCudaRuntime *rt, WbKernelCall *call, gboolean whole, GError **error)
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
  g_string_append (key, text_of (b));
  for (guint i = 0; i < values->len; i++)
    {
      WbRtValue *v = to_device (rt, values->pdata[i], error);
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
  plan = g_hash_table_lookup (plans, key->str);
  if (plan == NULL)
    {
      wb_bsym_foreach_output (b, collect_outputs, outs);
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
      g_hash_table_insert (plans, g_string_free (key, FALSE), plan);
    }
  else
    g_string_free (key, TRUE);
  results = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));
  if (!wb_cuda_plan_launch (rt, plan, inputs, results, error))
    return FALSE;
  if (whole || b->n_subsymbols > 0)
    stats.regions_fused++;
  else
    stats.ops_generated++;
  stats.plan_kernels += plan->n_kernels;
  call->result = make_result (b, results, plan->n_outputs);
  return TRUE;
}

static WbTensor *
arg_tensor (WbKernelCall *call, guint i, const char *kw)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, i, kw);

  return v && v->kind == WB_RT_TENSOR ? v->tensor : NULL;
}

static gboolean
run_matmul (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  gboolean  linear = strcmp (prim_name (call->bsym), "prims.linear") == 0;
  WbTensor *a = arg_tensor (call, 0, "a"), *b = arg_tensor (call, 1, linear ? "w" : "b");
  WbTensor *bias = linear ? arg_tensor (call, 2, "bias") : NULL;
  g_autoptr (WbRtValue) da = NULL;
  g_autoptr (WbRtValue) db = NULL;
  g_autoptr (WbRtValue) dbias = NULL;
  WbTensor *out = NULL;

  if (a == NULL || b == NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cublas: operands are not tensors");
      return FALSE;
    }
  {
    g_autoptr (WbRtValue) va = wb_rt_value_new_tensor (a);
    g_autoptr (WbRtValue) vb = wb_rt_value_new_tensor (b);
    g_autoptr (WbRtValue) vbias = bias ? wb_rt_value_new_tensor (bias) : NULL;
    if ((da = to_device (rt, va, error)) == NULL || (db = to_device (rt, vb, error)) == NULL)
      return FALSE;
    if (vbias && (dbias = to_device (rt, vbias, error)) == NULL)
      return FALSE;
  }
  if (!wb_cuda_matmul (rt, da->tensor, db->tensor, dbias ? dbias->tensor : NULL, linear, &out, error))
    return FALSE;
  stats.matmuls++;
  call->result = wb_rt_value_take_tensor (out);
  return TRUE;
}

static gboolean
run_copy_ (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbTensor *from = arg_tensor (call, 0, "copy_from"), *to = arg_tensor (call, 1, "copy_to");
  g_autoptr (WbRtValue) dfrom = NULL;
  g_autoptr (WbTensor) src = NULL;

  if (from == NULL || to == NULL || !wb_cuda_tensor_is_device (to) || from->rank > to->rank)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "copy_: the destination is not a device tensor");
      return FALSE;
    }
  if ((dfrom = to_device (rt, call->args[0], error)) == NULL)
    return FALSE;
  {
    gint64 bdims[WB_MAX_RANK];
    for (guint d = 0; d < dfrom->tensor->rank; d++)
      bdims[d] = to->rank - dfrom->tensor->rank + d;
    if ((src = wb_tensor_broadcast_in_dim (dfrom->tensor, to->rank, to->shape, bdims, error)) == NULL)
      return FALSE;
  }
  if (!wb_cuda_copy_into (rt, to, src, error))
    return FALSE;
  stats.ops_generated++;
  call->result = wb_rt_value_new_tensor (to);
  return TRUE;
}

static gboolean
run_on_cpu (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbExecutor  *cpu = wb_executor_lookup ("cpu");
  WbKernelCall hc = *call;
  g_autoptr (GPtrArray) hargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) hkwargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  gpointer count;

  if (wb_cuda_runtime_is_capturing (rt))
    {
      /* download, host work, upload: nothing a CUDA graph can replay (wb-cuda-graph.h) */
      g_autofree char *what = g_strdup_printf ("runs %s on the cpu fallback", call->bsym->name);
      return wb_cuda_runtime_check_capturable (rt, what, error);
    }
  for (guint i = 0; i < call->n_args; i++)
    {
      WbRtValue *h = to_host (rt, call->args[i], error);
      if (h == NULL)
        return FALSE;
      g_ptr_array_add (hargs, h);
    }
  for (guint i = 0; i < call->n_kwargs; i++)
    {
      WbRtValue *h = to_host (rt, call->kwargs[i], error);
      if (h == NULL)
        return FALSE;
      g_ptr_array_add (hkwargs, h);
    }
  hc.args = (WbRtValue **) hargs->pdata;
  hc.kwargs = (WbRtValue **) hkwargs->pdata;
  hc.result = NULL;
  if (!wb_executor_run (cpu, &hc, error))
    return FALSE;
  call->result = to_device (rt, hc.result, error);
  wb_rt_value_unref (hc.result);
  if (call->result == NULL)
    return FALSE;
  stats.fallbacks++;
  count = g_hash_table_lookup (stats.fallback_symbols, call->bsym->name);
  g_hash_table_insert (stats.fallback_symbols, g_strdup (call->bsym->name), GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
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
      if (is_matmul (u) && u->n_subsymbols == 0)
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
static gboolean
can_split (const WbBsym *b)
{
  guint n_lib = 0;

  if (!wb_bsym_is_fusion (b) || !outputs_named (b))
    return FALSE;
  for (guint i = 0; i < b->n_subsymbols; i++)
    {
      const WbBsym *u = b->subsymbols[i], *leaf;
      if (u->kind != WB_BSYM_CALL)
        continue;
      if (wb_cuda_codegen_can_fuse (u, NULL) && outputs_named (u))
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
      g_string_append (key, text_of (units[i]));
    }
  g_hash_table_iter_init (&it, used);
  while (g_hash_table_iter_next (&it, &k, NULL))
    if (!g_hash_table_contains (defined, k) && g_hash_table_contains (env, k))
      g_ptr_array_add (in_names, k);
  g_ptr_array_sort (in_names, cmp_names);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      wb_bsym_foreach_output (units[i], collect_outputs, outs);
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
  plan = g_hash_table_lookup (plans, key->str);
  if (plan == NULL)
    {
      plan = wb_cuda_plan_new (units, n, (const char *const *) in_names->pdata, args, in_names->len,
                               (const char *const *) out_names->pdata, out_names->len, error);
      if (plan == NULL)
        {
          g_string_free (key, TRUE);
          return FALSE;
        }
      g_hash_table_insert (plans, g_string_free (key, FALSE), plan);
    }
  else
    g_string_free (key, TRUE);
  results = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));
  if (!wb_cuda_plan_launch (rt, plan, inputs, results, error))
    return FALSE;
  stats.plan_kernels += plan->n_kernels;
  for (guint i = 0; i < plan->n_outputs; i++)
    g_hash_table_replace (env, out_names->pdata[i], wb_rt_value_take_tensor (results[i]));
  return TRUE;
}

/* Runs fusion region @call->bsym as fusible runs of its subsymbols (one plan each) between its matmul and
 * linear calls (cuBLASLt). */
static gboolean
run_split (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
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
        WbRtValue *v = to_device (rt, call->args[i], error);
        if (v == NULL)
          return FALSE;
        g_hash_table_replace (env, (gpointer) b->args[i]->text, v);
      }
  for (guint i = 0; i < b->n_subsymbols; i++)
    if (b->subsymbols[i]->kind == WB_BSYM_CALL)
      g_ptr_array_add (units, b->subsymbols[i]);
  wb_bsym_foreach_output (b, collect_outputs, outs);
  start = 0;
  for (guint i = 0; i <= units->len; i++)
    {
      const WbBsym *u = i < units->len ? units->pdata[i] : NULL;
      const WbBsym *leaf = u && !(wb_cuda_codegen_can_fuse (u, NULL) && outputs_named (u)) ? matmul_leaf (u) : NULL;
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
          ok = run_matmul (rt, &mc, error);
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
  stats.regions_fused++;
  call->result = make_result (b, results, outs->len);
  return TRUE;
}

/* -- the vtable ----------------------------------------------------------------------------------- */

/* Runs an attention op on the GPU (wb-cuda-attention.h) with its tensor arguments uploaded. */
static gboolean
run_attention (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  WbKernelCall dc = *call;
  g_autoptr (GPtrArray) dargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) dkwargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  guint gemms = 0;

  for (guint i = 0; i < call->n_args + call->n_kwargs; i++)
    {
      WbRtValue *v = to_device (rt, i < call->n_args ? call->args[i] : call->kwargs[i - call->n_args], error);
      if (v == NULL)
        return FALSE;
      g_ptr_array_add (i < call->n_args ? dargs : dkwargs, v);
    }
  dc.args = (WbRtValue **) dargs->pdata;
  dc.kwargs = (WbRtValue **) dkwargs->pdata;
  dc.result = NULL;
  if (!wb_cuda_attention_run (rt, wb_cuda_attention_op (call->bsym), &dc, &gemms, error))
    return FALSE;
  stats.matmuls += gemms;
  call->result = dc.result;
  return TRUE;
}

typedef enum
{
  PATH_NONE = 0, /* decompose (the interpreter runs the subsymbols) */
  PATH_FUSE,     /* one plan for the whole call */
  PATH_OP,       /* one plan for one prim */
  PATH_MATMUL,
  PATH_COPY,
  PATH_CPU,
  PATH_DIRECT,    /* a utility op (checks, unpacking, collections): the cpu executor on the values as they are */
  PATH_SPLIT,     /* a fusion region around matmul/linear: fusible runs as plans, the rest through cuBLASLt */
  PATH_ATTENTION, /* scaled dot-product attention: cuBLASLt GEMMs and NVRTC row kernels (wb-cuda-attention.h) */
  PATH_KERNEL,    /* a hand-written kernel (random draws, topk/sort, argmax, nll_loss_backward: wb-cuda-kernels.h) */
} Path;

static Path
choose_path (CudaExec *self, const WbBsym *b, char **why_not)
{
  WbExecutor *cpu = wb_executor_lookup ("cpu");

  if (b->kind != WB_BSYM_CALL || b->symbol == NULL)
    return PATH_NONE;
  if (wb_executor_info_is_utility (b) && b->n_subsymbols == 0)
    return wb_executor_can_execute (cpu, b, why_not) ? PATH_DIRECT : PATH_NONE;
  if (self->flavor == FLAVOR_CPU)
    return wb_executor_can_execute (cpu, b, why_not) ? PATH_CPU : PATH_NONE;
  if (wb_cuda_attention_op (b) != WB_CUDA_ATTENTION_NONE && !g_hash_table_contains (unfusable, text_of (b)) &&
      wb_cuda_attention_check (b, NULL))
    return PATH_ATTENTION;
  if (is_matmul (b) && b->n_subsymbols == 0)
    return PATH_MATMUL;
  if (is_copy_ (b))
    return PATH_COPY;
  if (wb_cuda_kernels_takes (b))
    return PATH_KERNEL;
  if (self->flavor != FLAVOR_CUDA && is_fusible_group (b))
    return PATH_FUSE;
  if (self->flavor != FLAVOR_CUDA && !g_hash_table_contains (unfusable, text_of (b)) && can_split (b))
    return PATH_SPLIT;
  if (is_generated_op (b) && !g_hash_table_contains (unfusable, text_of (b)))
    return PATH_OP;
  if (b->n_subsymbols > 0)
    return PATH_NONE;
  if (wb_executor_can_execute (cpu, b, why_not))
    return PATH_CPU;
  return PATH_NONE;
}

static const char *
exec_get_name (WbExecutor *e)
{
  return ((CudaExec *) e)->name;
}

static WbExecutorKind
exec_get_kind (WbExecutor *e)
{
  return ((CudaExec *) e)->flavor == FLAVOR_NVRTC ? WB_EXECUTOR_KIND_FUSION : WB_EXECUTOR_KIND_OPERATOR;
}

static gboolean
exec_can_execute (WbExecutor *e, const WbBsym *b, char **why_not)
{
  ensure_tables ();
  return choose_path ((CudaExec *) e, b, why_not) != PATH_NONE;
}

static gboolean
exec_run (WbExecutor *e, WbKernelCall *call, GError **error)
{
  CudaExec      *self = (CudaExec *) e;
  WbCudaRuntime *rt = wb_cuda_runtime_get (error);
  g_autoptr (GError) local = NULL;
  Path     path;
  gboolean ok;

  if (rt == NULL)
    return FALSE;
  ensure_tables ();
  path = choose_path (self, call->bsym, NULL);
  switch (path)
    {
    case PATH_FUSE:
    case PATH_OP:
      ok = run_plan (rt, call, path == PATH_FUSE && wb_bsym_is_fusion (call->bsym), &local);
      if (!ok && local->domain == WB_CUDA_CODEGEN_ERROR)
        {
          /* the generator refused this call's arguments: remember it and let the runner run again; the
           * interpreter then decomposes it (or it falls back) */
          g_hash_table_add (unfusable, g_strdup (text_of (call->bsym)));
          if (!g_hash_table_contains (stats.fallback_reasons, call->bsym->name))
            g_hash_table_insert (stats.fallback_reasons, g_strdup (call->bsym->name), g_strdup (local->message));
          if (call->bsym->n_subsymbols == 0 && wb_executor_can_execute (wb_executor_lookup ("cpu"), call->bsym, NULL))
            return run_on_cpu (rt, call, error);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "nvrtc: %s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_MATMUL:
      ok = run_matmul (rt, call, &local);
      if (!ok && local->code != WB_CUDA_ERROR_FAULT)
        {
          if (!g_hash_table_contains (stats.fallback_reasons, call->bsym->name))
            g_hash_table_insert (stats.fallback_reasons, g_strdup (call->bsym->name), g_strdup (local->message));
          return run_on_cpu (rt, call, error);
        }
      break;
    case PATH_COPY:
      ok = run_copy_ (rt, call, &local);
      break;
    case PATH_SPLIT:
      ok = run_split (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_CODEGEN_ERROR)
        {
          g_hash_table_add (unfusable, g_strdup (text_of (call->bsym)));
          if (!g_hash_table_contains (stats.fallback_reasons, call->bsym->name))
            g_hash_table_insert (stats.fallback_reasons, g_strdup (call->bsym->name), g_strdup (local->message));
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "nvrtc: %s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_ATTENTION:
      ok = run_attention (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_ERROR && local->code != WB_CUDA_ERROR_FAULT)
        {
          /* refused (dtype, rank) or a library failure: the cpu runs it, or ltorch's decomposition */
          if (!g_hash_table_contains (stats.fallback_reasons, call->bsym->name))
            g_hash_table_insert (stats.fallback_reasons, g_strdup (call->bsym->name), g_strdup (local->message));
          g_hash_table_add (unfusable, g_strdup (text_of (call->bsym)));
          if (call->bsym->n_subsymbols == 0 && wb_executor_can_execute (wb_executor_lookup ("cpu"), call->bsym, NULL))
            return run_on_cpu (rt, call, error);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_KERNEL:
      ok = wb_cuda_kernels_run (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_CALL)
        {
          /* arguments the kernels do not handle (a dtype, a shape): the cpu runs it */
          if (!g_hash_table_contains (stats.fallback_reasons, call->bsym->name))
            g_hash_table_insert (stats.fallback_reasons, g_strdup (call->bsym->name), g_strdup (local->message));
          return run_on_cpu (rt, call, error);
        }
      if (ok)
        stats.ops_generated++;
      break;
    case PATH_CPU:
      {
        g_autofree char *why = NULL;
        if (wb_cuda_attention_op (call->bsym) != WB_CUDA_ATTENTION_NONE && !wb_cuda_attention_check (call->bsym, &why) &&
            !g_hash_table_contains (stats.fallback_reasons, call->bsym->name))
          g_hash_table_insert (stats.fallback_reasons, g_strdup (call->bsym->name), g_steal_pointer (&why));
      }
      ok = run_on_cpu (rt, call, &local);
      break;
    case PATH_DIRECT:
      ok = wb_executor_run (wb_executor_lookup ("cpu"), call, &local);
      break;
    default:
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s cannot run %s", self->name, call->bsym->name);
      return FALSE;
    }
  if (!ok)
    {
      /* CUDA failures keep their domain (the runner maps a fault to its exit), others become executor errors */
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

static char *
exec_describe (WbExecutor *e)
{
  WbCudaRuntime *rt = wb_cuda_runtime_get (NULL);

  if (rt == NULL)
    return g_strdup ("CUDA unavailable");
  return g_strdup_printf ("%s, kernels for %s", wb_cuda_runtime_get_info (rt)->name, wb_cuda_runtime_get_info (rt)->arch);
}

static const WbExecutorVTable cuda_vtable = {
  .abi_version = WB_EXECUTOR_ABI_VERSION,
  .get_name = exec_get_name,
  .get_kind = exec_get_kind,
  .can_execute = exec_can_execute,
  .run = exec_run,
  .list_support = NULL,
  .describe = exec_describe,
};

static CudaExec executors[] = {
  { { &cuda_vtable, NULL }, FLAVOR_NVRTC, "nvrtc" },
  { { &cuda_vtable, NULL }, FLAVOR_CUDA, "cuda" },
  { { &cuda_vtable, NULL }, FLAVOR_CUBLAS, "cublas" },
  { { &cuda_vtable, NULL }, FLAVOR_CPU, "cpu" },
};

WbExecutor *
wb_cuda_executor_get (const char *name, GError **error)
{
  if (wb_cuda_runtime_get (error) == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (executors); i++)
    if (g_strcmp0 (executors[i].name, name) == 0)
      return &executors[i].base;
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_NO_DEVICE, "no CUDA executor named %s (nvrtc, cuda, cublas, cpu)", name);
  return NULL;
}

static const char *const path_names[] = { "split", "nvrtc", "cuda", "cublas", "cuda (copy_)", "cpu fallback", "cpu (utility)",
                                          "nvrtc runs + cublas", "attention (cublasLt + nvrtc)",
                                          "cuda (kernel)" };

static guint
explain_body (CudaExec *self, const WbBsym *const *body, guint n, guint depth, GString *out)
{
  guint fallbacks = 0;

  for (guint i = 0; i < n; i++)
    {
      const WbBsym    *b = body[i];
      g_autofree char *why = NULL;
      Path             path;
      if (b->kind != WB_BSYM_CALL)
        continue;
      path = choose_path (self, b, &why);
      g_string_append_printf (out, "%*s%s: %s%s%s\n", (int) depth * 2, "", b->name, path_names[path],
                              path == PATH_NONE && b->n_subsymbols == 0 ? " -> error: " : "",
                              path == PATH_NONE && b->n_subsymbols == 0 ? (why ? why : "no kernel") : "");
      if (path == PATH_CPU || (path == PATH_NONE && b->n_subsymbols == 0))
        fallbacks++;
      if (path == PATH_NONE && b->n_subsymbols > 0)
        fallbacks += explain_body (self, (const WbBsym *const *) b->subsymbols, b->n_subsymbols, depth + 1, out);
    }
  return fallbacks;
}

guint
wb_cuda_executors_explain (const WbTrace *trace, const char *executor, GString *out)
{
  CudaExec *self = NULL;

  ensure_tables ();
  g_hash_table_remove_all (texts);
  for (guint i = 0; i < G_N_ELEMENTS (executors); i++)
    if (g_strcmp0 (executors[i].name, executor) == 0)
      self = &executors[i];
  g_return_val_if_fail (self != NULL, 0);
  return explain_body (self, (const WbBsym *const *) trace->body, trace->n_body, 0, out);
}
