/* wb-program.c — WbProgram: a stage plus an assignment; running forward, then backward
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <time.h>

#include "wb-interpreter-private.h"

struct _WbProgram
{
  gint          ref_count;
  WbTrace      *forward; /* what runs: the traces given, with the workbench's decompositions */
  WbTrace      *backward;
  WbTrace      *source_forward; /* the traces as given */
  WbTrace      *source_backward;
  WbProgramKind kind;
  GHashTable   *assignment; /* name (owned) -> WbExecutor* */
  GHashTable   *by_call;    /* const WbBsym* (a top-level call of forward or backward) -> WbExecutor* */
  WbExecutor   *default_executor;
  GPtrArray    *param_names;
  WbLastUses   *last_uses;  /* the interpreter's per-body memo, kept across runs */
  int           group_size; /* the largest process group its traces size; 0 until computed */
};

const char *
wb_program_kind_to_string (WbProgramKind kind)
{
  switch (kind)
    {
    case WB_PROGRAM_INFERENCE:
      return "inference";
    case WB_PROGRAM_JOINT:
      return "joint";
    case WB_PROGRAM_TRAINING:
      return "training";
    case WB_PROGRAM_BACKWARD:
      return "backward";
    case WB_PROGRAM_PROLOGUE:
      return "prologue";
    case WB_PROGRAM_EPILOGUE:
      return "epilogue";
    case WB_PROGRAM_REGION:
      return "region";
    default:
      return "?";
    }
}

WbProgramKind
wb_program_classify_trace (const WbTrace *trace)
{
  const WbBsym *ret;

  if (g_strcmp0 (trace->function_name, "prologue") == 0)
    return WB_PROGRAM_PROLOGUE;
  if (g_strcmp0 (trace->function_name, "epilogue") == 0)
    return WB_PROGRAM_EPILOGUE;
  if (g_strcmp0 (trace->function_name, "backward_fn") == 0)
    return WB_PROGRAM_BACKWARD;
  if (g_strcmp0 (trace->function_name, "to_be_compiled") == 0)
    return WB_PROGRAM_REGION;
  ret = _wb_find_return (trace);
  if (ret != NULL && ret->value != NULL)
    {
      const WbValue *v = ret->value;
      if (v->kind == WB_VALUE_TUPLE && v->n_items == 2 && v->items[0]->kind == WB_VALUE_DICT)
        return WB_PROGRAM_TRAINING;
      if (v->kind == WB_VALUE_DICT && _wb_value_dict_get (v, "fw_flat_out") != NULL)
        return WB_PROGRAM_JOINT;
    }
  return WB_PROGRAM_INFERENCE;
}

WbProgram *
wb_program_new (WbTrace *forward, WbTrace *backward, GError **error)
{
  g_autoptr (WbTrace) run_fw = NULL;
  g_autoptr (WbTrace) run_bw = NULL;
  WbProgram    *p;
  WbProgramKind kind;

  g_return_val_if_fail (forward != NULL, NULL);
  kind = wb_program_classify_trace (forward);
  if (kind == WB_PROGRAM_TRAINING && backward == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s:%u: this forward trace returns saved-for-backward values: it runs with its backward_fn trace",
                   forward->filename ? forward->filename : "<trace>", forward->first_line);
      return NULL;
    }
  if (backward != NULL && (kind != WB_PROGRAM_TRAINING || wb_program_classify_trace (backward) != WB_PROGRAM_BACKWARD))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s: a backward trace pairs only with a forward trace that returns saved-for-backward values",
                   backward->filename ? backward->filename : "<trace>");
      return NULL;
    }
  if (kind == WB_PROGRAM_BACKWARD)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s: backward_fn runs only after its forward trace (pass the final forward and this backward)",
                   forward->filename ? forward->filename : "<trace>");
      return NULL;
    }
  /* composites Thunder printed without a decomposition that the workbench can decompose */
  if ((run_fw = wb_trace_decompose (forward, error)) == NULL ||
      (backward != NULL && (run_bw = wb_trace_decompose (backward, error)) == NULL))
    return NULL;
  p = g_new0 (WbProgram, 1);
  p->ref_count = 1;
  p->forward = g_steal_pointer (&run_fw);
  p->backward = g_steal_pointer (&run_bw);
  p->source_forward = wb_trace_ref (forward);
  p->source_backward = backward ? wb_trace_ref (backward) : NULL;
  p->kind = kind;
  p->assignment = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->by_call = g_hash_table_new (NULL, NULL);
  p->default_executor = wb_cpu_executor_get ();
  p->param_names = g_ptr_array_new ();
  p->last_uses = _wb_last_uses_new ();
  for (guint i = 0; i < forward->n_params; i++)
    g_ptr_array_add (p->param_names, (gpointer) _wb_param_name (forward->params[i]));
  return p;
}

WbProgram *
wb_program_ref (WbProgram *program)
{
  program->ref_count++;
  return program;
}

void
wb_program_unref (WbProgram *program)
{
  if (program == NULL || --program->ref_count > 0)
    return;
  wb_trace_unref (program->forward);
  if (program->backward)
    wb_trace_unref (program->backward);
  wb_trace_unref (program->source_forward);
  if (program->source_backward)
    wb_trace_unref (program->source_backward);
  g_hash_table_unref (program->assignment);
  g_hash_table_unref (program->by_call);
  g_ptr_array_unref (program->param_names);
  _wb_last_uses_free (program->last_uses);
  g_free (program);
}

WbProgramKind
wb_program_get_kind (const WbProgram *program)
{
  return program->kind;
}

WbTrace *
wb_program_get_forward (const WbProgram *program)
{
  return program->forward;
}

WbTrace *
wb_program_get_backward (const WbProgram *program)
{
  return program->backward;
}

WbTrace *
wb_program_get_source (const WbProgram *program, gboolean backward)
{
  return backward ? program->source_backward : program->source_forward;
}

void
wb_program_assign (WbProgram *program, const char *name, WbExecutor *executor)
{
  g_return_if_fail (executor != NULL);
  if (name == NULL)
    program->default_executor = executor;
  else
    g_hash_table_replace (program->assignment, g_strdup (name), executor);
}

GPtrArray *
wb_program_get_param_names (const WbProgram *program)
{
  return program->param_names;
}

guint
wb_program_get_n_calls (const WbProgram *program)
{
  return program->forward->n_body + (program->backward != NULL ? program->backward->n_body : 0);
}

const WbBsym *
wb_program_get_call (const WbProgram *program, guint ordinal, gboolean *backward)
{
  gboolean bw = ordinal >= program->forward->n_body;

  g_return_val_if_fail (ordinal < wb_program_get_n_calls (program), NULL);
  if (backward != NULL)
    *backward = bw;
  return bw ? program->backward->body[ordinal - program->forward->n_body] : program->forward->body[ordinal];
}

gboolean
wb_program_assign_call (WbProgram *program, guint ordinal, WbExecutor *executor)
{
  g_return_val_if_fail (executor != NULL, FALSE);
  if (ordinal >= wb_program_get_n_calls (program))
    return FALSE;
  g_hash_table_replace (program->by_call, (gpointer) wb_program_get_call (program, ordinal, NULL), executor);
  return TRUE;
}

WbExecutor *
wb_program_get_executor_for (const WbProgram *program, const WbBsym *b)
{
  WbExecutor *e;

  g_return_val_if_fail (program != NULL && b != NULL, NULL);
  if ((e = g_hash_table_lookup (program->by_call, b)) != NULL)
    return e;
  e = b->name != NULL ? g_hash_table_lookup (program->assignment, b->name) : NULL;
  return e != NULL ? e : program->default_executor;
}

void
wb_run_options_init (WbRunOptions *options)
{
  memset (options, 0, sizeof *options);
}

void
wb_run_result_free (WbRunResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->outputs, g_ptr_array_unref);
  g_clear_pointer (&result->grads, g_ptr_array_unref);
  g_clear_pointer (&result->flat_args, g_ptr_array_unref);
  g_clear_pointer (&result->cotangents, g_ptr_array_unref);
  g_clear_pointer (&result->value, wb_rt_value_unref);
  g_clear_pointer (&result->stats, g_hash_table_unref);
  g_free (result);
}

gint64
wb_run_clock_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Appends the items of a TUPLE/LIST (or the value itself) to @out. */
static void
flatten_into (GPtrArray *out, WbRtValue *v)
{
  if (v == NULL)
    return;
  if (wb_rt_value_is_sequence (v))
    for (guint i = 0; i < v->items->len; i++)
      g_ptr_array_add (out, wb_rt_value_ref (v->items->pdata[i]));
  else
    g_ptr_array_add (out, wb_rt_value_ref (v));
}

static void
names_of (const WbValue *v, GPtrArray *out)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_ptr_array_add (out, g_strdup (v->text));
  else if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    for (guint i = 0; i < v->n_items; i++)
      {
        const WbValue *x = v->items[i];
        g_ptr_array_add (out, g_strdup (x->kind == WB_VALUE_NAME ? x->text : "?"));
      }
}

/* The cotangent for forward output @index: given, or drawn. */
typedef struct
{
  const WbRunOptions *options;
  GPtrArray          *given; /* (nullable) */
  GPtrArray          *used;  /* what was handed out, by index (NULL slots allowed) */
} CotangentSource;

static WbRtValue *
make_cotangent (guint index, WbRtValue *output, gpointer data, GError **error)
{
  CotangentSource *src = data;
  WbRtValue       *v = NULL;

  if (src->given && index < src->given->len && src->given->pdata[index] &&
      ((WbRtValue *) src->given->pdata[index])->kind != WB_RT_NONE)
    v = wb_rt_value_ref (src->given->pdata[index]);
  else if (output == NULL || output->kind != WB_RT_TENSOR)
    v = wb_rt_value_new_none ();
  else
    {
      const WbTensor  *like = output->tensor;
      WbTensor        *t = wb_tensor_new (like->dtype, like->rank, like->shape, error);
      gint64           n;
      g_autofree char *stream = g_strdup_printf ("cotangent.%u", index);
      if (t == NULL)
        return NULL;
      n = wb_tensor_numel (t);
      if (like->rank == 0)
        wb_tensor_set_f64 (t, 0, 1.0);
      else
        {
          g_autofree double *x = g_new (double, MAX (n, 1));
          wb_philox_normal_f64 (src->options->seed, wb_philox_stream_from_name (stream), 0, x, (gsize) n);
          /* an f64 reading of an f32 program draws the f32 program's cotangents (WbRunOptions.draw_f64_as_f32) */
          if (t->dtype == WB_DTYPE_FLOAT64 && src->options->draw_f64_as_f32)
            for (gint64 i = 0; i < n; i++)
              x[i] = (float) x[i];
          _wb_store_f64 (wb_tensor_get_data (t), t->dtype, 1, x, (gsize) n);
        }
      v = wb_rt_value_take_tensor (t);
    }
  while (src->used->len <= index)
    g_ptr_array_add (src->used, NULL);
  if (src->used->pdata[index] == NULL)
    src->used->pdata[index] = wb_rt_value_ref (v);
  return v;
}

/* The largest process group the program's collectives size (their annotations), or 1. */
static int
program_group_size (WbProgram *p)
{
  int most = 1;
  if (g_atomic_int_get (&p->group_size) > 0)
    return g_atomic_int_get (&p->group_size);
  for (guint k = 0; k < 2; k++)
    {
      WbTrace *t = k == 0 ? p->forward : p->backward;
      g_autoptr (GHashTable) sizes = t != NULL ? wb_dist_group_sizes_new (t) : NULL;
      GHashTableIter it;
      gpointer       size;
      if (sizes == NULL)
        continue;
      g_hash_table_iter_init (&it, sizes);
      while (g_hash_table_iter_next (&it, NULL, &size))
        most = MAX (most, GPOINTER_TO_INT (size));
    }
  g_atomic_int_set (&p->group_size, most);
  return most;
}

static void
interp_init (WbInterp *in, WbProgram *p, const WbRunOptions *options, GHashTable *stats)
{
  memset (in, 0, sizeof *in);
  in->state.rng_seed = options->seed;
  in->state.rng_offset = 0;
  in->state.device.type = WB_DEVICE_CPU;
  in->state.device.index = -1;
  in->state.world_size = options->world_size > 0 ? options->world_size : program_group_size (p);
  in->state.accumulate = options->accumulate;
  in->state.draw_f64_as_f32 = options->draw_f64_as_f32;
  in->options = options;
  in->assignment = p->assignment;
  in->by_call = g_hash_table_size (p->by_call) > 0 ? p->by_call : NULL;
  in->default_executor = p->default_executor;
  in->stats = stats;
  in->last_uses = p->last_uses;
}

WbRunResult *
wb_program_run (WbProgram *program, const WbRunOptions *options, GPtrArray *args, GPtrArray *cotangents, GError **error)
{
  g_autoptr (WbRunResult) r = g_new0 (WbRunResult, 1);
  g_autoptr (GHashTable) buckets = NULL;
  WbInterp        in;
  CotangentSource cot = { options, cotangents, NULL };
  const WbBsym   *ret = _wb_find_return (program->forward);
  gint64          t0;

  g_return_val_if_fail (program != NULL && options != NULL && args != NULL, NULL);
  /* bucket_key -> TUPLE (buffer, numel of view 0, numel of view 1, ...): wb-cpu-distributed.c */
  buckets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_rt_value_unref);
  r->kind = program->kind;
  r->outputs = wb_rt_value_array_new ();
  r->grads = wb_rt_value_array_new ();
  r->cotangents = wb_rt_value_array_new ();
  r->flat_args = g_ptr_array_new_with_free_func (g_free);
  if (options->collect_stats)
    r->stats = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  cot.used = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  interp_init (&in, program, options, r->stats);
  in.state.buckets = buckets;
  in.cotangent = make_cotangent;
  in.cotangent_data = &cot;

  /* flat args and (JOINT) which names get cotangents */
  {
    const WbValue *dict = NULL;
    if (ret && ret->value)
      dict = ret->value->kind == WB_VALUE_DICT                                  ? ret->value
             : (ret->value->kind == WB_VALUE_TUPLE && ret->value->n_items == 2) ? ret->value->items[0]
                                                                                : NULL;
    if (dict && _wb_value_dict_get (dict, "flat_args"))
      names_of (_wb_value_dict_get (dict, "flat_args"), r->flat_args);
    else
      for (guint i = 0; i < program->param_names->len; i++)
        g_ptr_array_add (r->flat_args, g_strdup (program->param_names->pdata[i]));
    if (program->kind == WB_PROGRAM_JOINT)
      {
        const WbValue *fw = _wb_value_dict_get (dict, "fw_flat_out");
        in.grad_index = g_hash_table_new (g_str_hash, g_str_equal);
        for (guint i = 0; fw && i < fw->n_items; i++)
          if (fw->items[i]->kind == WB_VALUE_NAME)
            g_hash_table_insert (in.grad_index, (gpointer) fw->items[i]->text, GUINT_TO_POINTER (i + 1));
      }
  }

  t0 = wb_run_clock_ns ();
  r->value = _wb_interp_run_trace (&in, program->forward, args, error);
  r->forward_ns = wb_run_clock_ns () - t0;
  g_clear_pointer (&in.grad_index, g_hash_table_unref);
  if (r->value == NULL)
    {
      g_ptr_array_unref (cot.used);
      return NULL;
    }

  switch (program->kind)
    {
    case WB_PROGRAM_INFERENCE:
    case WB_PROGRAM_REGION:
    case WB_PROGRAM_EPILOGUE:
      if (r->value->kind == WB_RT_DICT && wb_rt_value_dict_lookup (r->value, "output"))
        flatten_into (r->outputs, wb_rt_value_dict_lookup (r->value, "output"));
      else
        flatten_into (r->outputs, r->value);
      break;

    case WB_PROGRAM_PROLOGUE:
      if (wb_rt_value_is_sequence (r->value) && r->value->items->len >= 1)
        flatten_into (r->outputs, r->value->items->pdata[0]);
      break;

    case WB_PROGRAM_JOINT:
      flatten_into (r->outputs, wb_rt_value_dict_lookup (r->value, "fw_flat_out"));
      flatten_into (r->grads, wb_rt_value_dict_lookup (r->value, "output"));
      break;

    case WB_PROGRAM_TRAINING:
      {
        WbRtValue *dict = r->value->items->pdata[0];
        WbRtValue *saved = r->value->items->pdata[1];
        WbRtValue *outs = wb_rt_value_dict_lookup (dict, "flat_output");
        g_autoptr (GPtrArray) bargs = wb_rt_value_array_new ();
        g_autoptr (WbRtValue) bret = NULL;
        WbRtValue *saved_list, *cots;
        WbInterp   bin;

        flatten_into (r->outputs, outs ? outs : wb_rt_value_dict_lookup (dict, "output"));
        /* saved_for_backward: mutable lists (clear_mutable_collection empties them) */
        saved_list = wb_rt_value_new_sequence (WB_RT_LIST);
        for (guint i = 0; wb_rt_value_is_sequence (saved) && i < saved->items->len; i++)
          {
            WbRtValue *c = saved->items->pdata[i];
            WbRtValue *l = wb_rt_value_new_sequence (WB_RT_LIST);
            for (guint j = 0; wb_rt_value_is_sequence (c) && j < c->items->len; j++)
              wb_rt_value_append (l, wb_rt_value_ref (c->items->pdata[j]));
            wb_rt_value_append (saved_list, l);
          }
        cots = wb_rt_value_new_sequence (WB_RT_LIST);
        for (guint i = 0; i < r->outputs->len; i++)
          {
            WbRtValue *c = make_cotangent (i, r->outputs->pdata[i], &cot, error);
            if (c == NULL)
              {
                wb_rt_value_unref (saved_list);
                wb_rt_value_unref (cots);
                g_ptr_array_unref (cot.used);
                return NULL;
              }
            wb_rt_value_append (cots, c);
          }
        g_ptr_array_add (bargs, saved_list);
        g_ptr_array_add (bargs, cots);
        /* the saved tensors now live only in saved_list, which the backward empties (clear_mutable_collection):
         * each is freed at its last use there, not with the result */
        {
          WbRtValue *slim = wb_rt_value_new_sequence (WB_RT_TUPLE);
          wb_rt_value_append (slim, wb_rt_value_ref (dict));
          wb_rt_value_append (slim, wb_rt_value_new_sequence (WB_RT_TUPLE));
          wb_rt_value_unref (r->value);
          r->value = slim;
          saved = NULL;
        }
        interp_init (&bin, program, options, r->stats);
        bin.state.buckets = buckets; /* DDP packs and unpacks its buckets in the backward */
        t0 = wb_run_clock_ns ();
        bret = _wb_interp_run_trace (&bin, program->backward, bargs, error);
        r->backward_ns = wb_run_clock_ns () - t0;
        if (bret == NULL)
          {
            g_ptr_array_unref (cot.used);
            return NULL;
          }
        flatten_into (r->grads, bret);
        break;
      }

    default:
      break;
    }
  for (guint i = 0; i < cot.used->len; i++)
    g_ptr_array_add (r->cotangents, cot.used->pdata[i] ? wb_rt_value_ref (cot.used->pdata[i]) : wb_rt_value_new_none ());
  g_ptr_array_unref (cot.used);
  return g_steal_pointer (&r);
}
