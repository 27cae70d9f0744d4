/* wb-cuda-exec-precompile.c — the program's generated kernels compiled ahead, in parallel
 * (wb_cuda_executors_precompile, wb-cuda-executors.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The checked run builds each call's plan when the call first runs and compiles it with NVRTC there, one
 * unit after another on the runner's thread: a program of thousands of single ops (a ResNet's trace without
 * fusion regions) or of many distinct layers waits for hundreds of compiles in a row. The plans a run
 * builds for contiguous inputs are the ones generated from the trace's annotations, so they are generated
 * here first, for every kind of call the executors run as generated code (whole regions, single calls, the
 * fused runs of split regions, the subsymbols of decomposed calls), and compiled on every core into the disk
 * cache the run then reads (wb-nvrtc.h: keyed by source and architecture). */
#include "config.h"

#include <string.h>

#include "wb-cuda-codegen-private.h"
#include "wb-cuda-conv.h"
#include "wb-cuda-exec-private.h"
#include "wb-cuda-kernels.h"

typedef struct
{
  const char *arch;
  gint        compiled; /* atomic */
} Work;

typedef struct
{
  WbProgram  *program;
  GHashTable *types;   /* name -> WbType of the trace walked (annotated or derived) */
  GHashTable *layouts; /* name -> WbCudaArg: the strides of a value a plan outputs as a view */
  GHashTable *seen;    /* sources added */
  GPtrArray  *sources; /* (element-type char*) to compile */
  GPtrArray  *plans;   /* (element-type WbCudaPlan) the trace's, kept while its names are walked */
  guint       failed;  /* plans that could not be generated from the annotations */
  char       *why;     /* the first one's reason */
} Collect;

static void
compile_one (gpointer data, gpointer user_data)
{
  char *source = data;
  Work *w = user_data;
  g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (source, w->arch, NULL, NULL);

  if (img != NULL && !img->cache_hit)
    g_atomic_int_inc (&w->compiled);
  g_free (source);
}

static void
add_source (Collect *c, const char *source)
{
  if (source != NULL && source[0] != '\0' && !g_hash_table_contains (c->seen, source))
    {
      g_hash_table_add (c->seen, g_strdup (source));
      g_ptr_array_add (c->sources, g_strdup (source));
    }
}

static void
left_to_run (Collect *c, const WbBsym *b, const char *why)
{
  c->failed++;
  if (c->why == NULL)
    c->why = g_strdup_printf ("%s: %s", b->name, why);
}

/* (transfer none) @plan, its source added; NULL (@error set) is a plan of @b left to the run */
static const WbCudaPlan *
add_plan (Collect *c, const WbBsym *b, WbCudaPlan *plan, GError *error)
{
  if (plan == NULL)
    {
      left_to_run (c, b, error ? error->message : "no plan");
      return NULL;
    }
  add_source (c, plan->source);
  g_ptr_array_add (c->plans, plan);
  return plan;
}

/* With autotuning on, the sources of @plan's variants too (the run times them at its first launch). */
static void
add_variants (Collect *c, WbCudaPlanBuildFunc build, gconstpointer data, const WbCudaArg *args, const WbCudaPlan *plan)
{
  g_autoptr (GPtrArray) sources = NULL;

  if (plan == NULL || !wb_cuda_executors_get_autotune ())
    return;
  sources = g_ptr_array_new_with_free_func (g_free);
  _wb_cuda_autotune_variant_sources (build, data, args, plan, sources);
  for (guint i = 0; i < sources->len; i++)
    add_source (c, sources->pdata[i]);
}

/* The plan @build (a builder of wb-cuda-exec-fusion.c's sites) makes of @data for @args under the default
 * options, as the run's first launch builds it (plan_for there: variant 0); added with add_plan, and with
 * autotuning on its variants' sources too. (transfer none) or NULL (a plan of @b left to the run). */
static const WbCudaPlan *
build_plan (Collect *c, const WbBsym *b, WbCudaPlanBuildFunc build, gconstpointer data, const WbCudaArg *args)
{
  g_autoptr (GError) error = NULL;
  WbCudaCodegenOptions o;
  const WbCudaPlan    *plan;

  _wb_cuda_autotune_options (0, WB_CUDA_CODEGEN_DEFAULT, &o);
  plan = add_plan (c, b, build (data, args, &o, &error), error);
  add_variants (c, build, data, args, plan);
  return plan;
}

/* @arg as the run describes the value of @v: the layout a plan gave it as a view, else dense of its
 * annotated type; size-1 dimensions with stride 0 (arg_describe, wb-cuda-exec-fusion.c). A name nothing
 * types (a module constant such as a memory format) is a value the run passes as it is. */
static void
arg_of (Collect *c, const WbValue *v, WbCudaArg *arg)
{
  const WbType    *t = v->kind == WB_VALUE_NAME ? g_hash_table_lookup (c->types, v->text) : NULL;
  const WbCudaArg *view = v->kind == WB_VALUE_NAME ? g_hash_table_lookup (c->layouts, v->text) : NULL;

  memset (arg, 0, sizeof *arg);
  if (t == NULL)
    {
      arg->kind = WB_CUDA_ARG_OTHER;
      return;
    }
  wb_cuda_arg_init_contiguous (arg, t);
  if (view != NULL && arg->kind == WB_CUDA_ARG_TENSOR && view->rank == arg->rank &&
      memcmp (view->shape, arg->shape, sizeof (gint64) * arg->rank) == 0)
    memcpy (arg->strides, view->strides, sizeof arg->strides);
  for (guint d = 0; arg->kind == WB_CUDA_ARG_TENSOR && d < arg->rank; d++)
    if (arg->shape[d] == 1)
      arg->strides[d] = 0;
}

/* whether @a is laid out dense: wb_tensor_is_contiguous's rule, on its shape and strides */
static gboolean
arg_is_dense (const WbCudaArg *a)
{
  WbTensor t = { .rank = a->rank };

  memcpy (t.shape, a->shape, sizeof t.shape);
  memcpy (t.strides, a->strides, sizeof t.strides);
  return wb_tensor_is_contiguous (&t);
}

/* @name's value is output @o of a plan: remembered when it is not dense (a view of an input, a permuted
 * buffer), so that the calls reading it are generated for its strides as the run will be */
static void
note_output (Collect *c, const char *name, const WbCudaOutput *o)
{
  WbCudaArg *a;

  if (name == NULL || o->rank > WB_MAX_RANK)
    return;
  a = g_new0 (WbCudaArg, 1);
  a->kind = WB_CUDA_ARG_TENSOR;
  a->dtype = o->dtype;
  a->rank = o->rank;
  memcpy (a->shape, o->shape, sizeof (gint64) * o->rank);
  memcpy (a->strides, o->strides, sizeof (gint64) * o->rank);
  if (arg_is_dense (a))
    {
      g_hash_table_remove (c->layouts, name);
      g_free (a);
      return;
    }
  g_hash_table_replace (c->layouts, (gpointer) name, a);
}

static void
note_outputs (Collect *c, const WbCudaPlan *plan, const char *const *names, guint n_names)
{
  for (guint k = 0; plan != NULL && k < plan->n_outputs && k < n_names; k++)
    note_output (c, names[k], &plan->outputs[k]);
}

/* the names a single call reads, once each, tuples and lists flattened (collect_named, wb-cuda-exec-fusion.c) */
static void
call_names (const WbValue *v, GPtrArray *names)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    {
      for (guint i = 0; i < names->len; i++)
        if (strcmp (names->pdata[i], v->text) == 0)
          return;
      g_ptr_array_add (names, (gpointer) v->text);
    }
  else if (wb_value_is_sequence (v))
    for (guint i = 0; i < v->n_items; i++)
      call_names (v->items[i], names);
}

static void
region_plan (Collect *c, const WbBsym *b)
{
  g_autofree WbCudaArg *args = g_new0 (WbCudaArg, MAX (b->n_args, 1));
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  WbCudaCallSite    cs = { b, TRUE, names };
  const WbCudaPlan *plan;

  for (guint i = 0; i < b->n_args; i++)
    {
      g_ptr_array_add (names, b->args[i]->kind == WB_VALUE_NAME ? (gpointer) b->args[i]->text : NULL);
      arg_of (c, b->args[i], &args[i]);
    }
  wb_bsym_get_output_names (b, outs);
  plan = build_plan (c, b, _wb_cuda_exec_call_build, &cs, args);
  note_outputs (c, plan, (const char *const *) outs->pdata, outs->len);
}

/* the names @b reads, once each, and (transfer full) their descriptions in @args */
static void
call_args (Collect *c, const WbBsym *b, GPtrArray *names, WbCudaArg **args)
{
  WbValue v = { .kind = WB_VALUE_NAME };

  for (guint i = 0; i < b->n_args; i++)
    call_names (b->args[i], names);
  for (guint i = 0; i < b->n_kwargs; i++)
    call_names (b->kwargs[i].value, names);
  *args = g_new0 (WbCudaArg, MAX (names->len, 1));
  for (guint i = 0; i < names->len; i++)
    {
      v.text = names->pdata[i];
      arg_of (c, &v, &(*args)[i]);
    }
}

static void
call_plan (Collect *c, const WbBsym *b)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autofree WbCudaArg *args = NULL;
  WbCudaCallSite        cs = { b, FALSE, names };
  const WbCudaPlan     *plan;

  call_args (c, b, names, &args);
  wb_bsym_get_output_names (b, outs);
  plan = build_plan (c, b, _wb_cuda_exec_call_build, &cs, args);
  note_outputs (c, plan, (const char *const *) outs->pdata, outs->len);
}

static void
split_plans (Collect *c, const WbBsym *b)
{
  const WbCudaSplit *split = _wb_cuda_exec_split_of (b);
  WbValue            v = { .kind = WB_VALUE_NAME };

  for (guint s = 0; split != NULL && s < split->n_steps; s++)
    {
      const WbCudaStep     *st = &split->steps[s];
      g_autofree WbCudaArg *args = NULL;
      const WbCudaPlan     *plan;

      if (st->kind != WB_CUDA_STEP_FUSED)
        continue;
      args = g_new0 (WbCudaArg, MAX (st->n_inputs, 1));
      for (guint i = 0; i < st->n_inputs; i++)
        {
          v.text = st->inputs[i];
          arg_of (c, &v, &args[i]);
        }
      plan = build_plan (c, b, _wb_cuda_exec_step_build, st, args);
      note_outputs (c, plan, st->outputs, st->n_outputs);
    }
}

/* a library call or hand-written kernel takes its inputs dense: the copy of each input that is a view */
static void
library_call (Collect *c, const WbBsym *b)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autofree WbCudaArg *args = NULL;

  call_args (c, b, names, &args);
  for (guint i = 0; i < names->len; i++)
    if (args[i].kind == WB_CUDA_ARG_TENSOR && g_hash_table_contains (c->layouts, names->pdata[i]) && !arg_is_dense (&args[i]))
      {
        g_autofree char *source = wb_cuda_copy_source (args[i].dtype, NULL, args[i].dtype, args[i].strides, args[i].rank, args[i].shape);
        add_source (c, source);
      }
  wb_bsym_get_output_names (b, outs);
  for (guint k = 0; k < outs->len; k++)
    g_hash_table_remove (c->layouts, outs->pdata[k]);
}

/* copy_ (from, to) writes from, broadcast to to's shape, into to's storage as it is laid out; its output
 * is to */
static void
copy_call (Collect *c, const WbBsym *b)
{
  WbCudaArg from, to;
  gint64    src[WB_MAX_RANK] = { 0 };
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  if (b->n_args < 2)
    return;
  arg_of (c, b->args[0], &from);
  arg_of (c, b->args[1], &to);
  if (from.kind != WB_CUDA_ARG_TENSOR || to.kind != WB_CUDA_ARG_TENSOR || from.rank > to.rank)
    return;
  for (guint d = 0; d < from.rank; d++)
    {
      guint e = to.rank - from.rank + d;
      src[e] = from.shape[d] == to.shape[e] ? from.strides[d] : 0;
    }
  {
    g_autofree char *source = wb_cuda_copy_source (to.dtype, to.strides, from.dtype, src, to.rank, to.shape);
    add_source (c, source);
  }
  wb_bsym_get_output_names (b, outs);
  if (outs->len == 1 && b->args[1]->kind == WB_VALUE_NAME && g_hash_table_contains (c->layouts, b->args[1]->text))
    g_hash_table_replace (c->layouts, outs->pdata[0], g_memdup2 (g_hash_table_lookup (c->layouts, b->args[1]->text), sizeof (WbCudaArg)));
  else if (outs->len == 1)
    g_hash_table_remove (c->layouts, outs->pdata[0]);
}

/* the values a trace returns are downloaded dense (wb_cuda_download): the copy of each that is a view */
static void
return_views (Collect *c, const WbValue *v)
{
  WbCudaArg a;

  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME && g_hash_table_contains (c->layouts, v->text) && (arg_of (c, v, &a), a.kind == WB_CUDA_ARG_TENSOR) &&
      !arg_is_dense (&a))
    {
      g_autofree char *source = wb_cuda_copy_source (a.dtype, NULL, a.dtype, a.strides, a.rank, a.shape);
      add_source (c, source);
    }
  else if (wb_value_is_sequence (v))
    for (guint i = 0; i < v->n_items; i++)
      return_views (c, v->items[i]);
}

/* a utility op passes its values through as they are (aliases, shallow copies): the outputs keep the layouts
 * of the inputs in the same places */
static void
utility_call (Collect *c, const WbBsym *b)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  for (guint i = 0; i < b->n_args; i++)
    call_names (b->args[i], names);
  wb_bsym_get_output_names (b, outs);
  for (guint k = 0; k < outs->len; k++)
    {
      const char      *from = outs->len == names->len ? names->pdata[k] : names->len > 0 ? names->pdata[0]
                                                                                         : NULL;
      const WbCudaArg *view = from ? g_hash_table_lookup (c->layouts, from) : NULL;

      if (view != NULL)
        g_hash_table_replace (c->layouts, outs->pdata[k], g_memdup2 (view, sizeof *view));
      else
        g_hash_table_remove (c->layouts, outs->pdata[k]);
    }
}

/* the plans of @b run by @e, and of its subsymbols where @e decomposes it */
static void
collect_call (Collect *c, WbExecutor *e, const WbBsym *b, guint depth)
{
  if (b->kind != WB_BSYM_CALL || depth > 16)
    return;
  switch (_wb_cuda_exec_plan_path (e, b))
    {
    case WB_CUDA_PLAN_REGION:
      region_plan (c, b);
      break;
    case WB_CUDA_PLAN_CALL:
      call_plan (c, b);
      break;
    case WB_CUDA_PLAN_SPLIT:
      split_plans (c, b);
      break;
    case WB_CUDA_PLAN_DECOMPOSED:
      for (guint i = 0; i < b->n_subsymbols; i++)
        collect_call (c, e, b->subsymbols[i], depth + 1);
      break;
    case WB_CUDA_PLAN_KERNEL:
      /* the hand-written kernels' units: static text, compiled once whichever kernel of them runs */
      for (guint u = 0; wb_cuda_kernels_source (u) != NULL; u++)
        add_source (c, wb_cuda_kernels_source (u));
      library_call (c, b);
      break;
    case WB_CUDA_PLAN_CONV:
      add_source (c, wb_cuda_conv_bias_source ());
      library_call (c, b);
      break;
    case WB_CUDA_PLAN_LIBRARY:
      library_call (c, b);
      break;
    case WB_CUDA_PLAN_UTILITY:
      utility_call (c, b);
      break;
    case WB_CUDA_PLAN_COPY:
      copy_call (c, b);
      break;
    case WB_CUDA_PLAN_NONE:
    default:
      break;
    }
}

/* the plans of @trace's calls; @c->layouts carries on from the trace before (the backward reads the
 * forward's saved values as they were) */
static void
collect_trace (Collect *c, const WbTrace *trace)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);

  if (trace == NULL)
    return;
  _wb_cg_collect_types ((const WbBsym *const *) trace->body, trace->n_body, types, owned);
  c->types = types;
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];

      if (b->kind == WB_BSYM_RETURN)
        for (guint k = 0; k < b->n_args; k++)
          return_views (c, b->args[k]);
      else
        collect_call (c, wb_program_get_executor_for (c->program, b), b, 0);
    }
  c->types = NULL;
}

GPtrArray *
wb_cuda_executors_precompile_sources (WbProgram *program, guint *n_failed, char **first_failure)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) layouts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GPtrArray) plans = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_cuda_plan_free);
  Collect c = { .program = program, .layouts = layouts, .seen = seen, .sources = g_ptr_array_new_with_free_func (g_free), .plans = plans };

  g_return_val_if_fail (program != NULL, NULL);
  collect_trace (&c, wb_program_get_forward (program));
  collect_trace (&c, wb_program_get_backward (program));
  if (n_failed != NULL)
    *n_failed = c.failed;
  if (first_failure != NULL)
    *first_failure = g_steal_pointer (&c.why);
  g_free (c.why);
  return c.sources;
}

double
wb_cuda_executors_precompile (const char *arch, WbProgram *program, guint threads, guint *n_sources, guint *n_compiled)
{
  g_autoptr (GPtrArray) sources = NULL;
  gint64       t0 = g_get_monotonic_time ();
  Work         w = { arch, 0 };
  GThreadPool *pool;

  g_return_val_if_fail (arch != NULL && program != NULL, 0);
  sources = wb_cuda_executors_precompile_sources (program, NULL, NULL);
  /* the pool frees each source it compiles */
  g_ptr_array_set_free_func (sources, NULL);
  if (n_sources != NULL)
    *n_sources = sources->len;
  if (sources->len > 0 && (pool = g_thread_pool_new (compile_one, &w, threads > 0 ? (gint) threads : (gint) g_get_num_processors (), FALSE, NULL)) != NULL)
    {
      /* the library is opened once here, not by the first threads at the same time */
      g_free (wb_nvrtc_version ());
      for (guint i = 0; i < sources->len; i++)
        g_thread_pool_push (pool, sources->pdata[i], NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  else
    for (guint i = 0; i < sources->len; i++)
      g_free (sources->pdata[i]);
  if (n_compiled != NULL)
    *n_compiled = (guint) g_atomic_int_get (&w.compiled);
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}
