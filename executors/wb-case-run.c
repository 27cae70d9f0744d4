/* wb-case-run.c — WbCaseRun: a stage of a case run with canonical result names
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <time.h>

#include "wb-interpreter-private.h"

void
wb_case_run_free (WbCaseRun *run)
{
  if (run == NULL)
    return;
  g_clear_pointer (&run->result, wb_run_result_free);
  g_clear_pointer (&run->names, g_ptr_array_unref);
  g_clear_pointer (&run->values, g_ptr_array_unref);
  g_clear_pointer (&run->reference, g_ptr_array_unref);
  g_free (run->note);
  g_free (run);
}

WbRtValue *
wb_case_run_lookup (const WbCaseRun *run, const char *name)
{
  for (guint i = 0; i < run->names->len; i++)
    if (strcmp (run->names->pdata[i], name) == 0)
      return run->values->pdata[i];
  return NULL;
}

static WbCaseRun *
run_new (const WbCaseStage *stage)
{
  WbCaseRun *run = g_new0 (WbCaseRun, 1);

  run->stage = stage;
  run->names = g_ptr_array_new_with_free_func (g_free);
  run->values = wb_rt_value_array_new ();
  return run;
}

static void
name_results (WbCase *c, WbCaseRun *run)
{
  WbRunResult *r = run->result;

  for (guint i = 0; i < r->outputs->len; i++)
    {
      g_ptr_array_add (run->names, g_strdup_printf ("output.%u", i));
      g_ptr_array_add (run->values, wb_rt_value_ref (r->outputs->pdata[i]));
    }
  for (guint i = 0; i < r->grads->len; i++)
    {
      const char *arg = i < r->flat_args->len ? r->flat_args->pdata[i] : NULL;
      g_ptr_array_add (run->names, arg ? wb_case_grad_name (c, arg) : g_strdup_printf ("grad.%u", i));
      g_ptr_array_add (run->values, wb_rt_value_ref (r->grads->pdata[i]));
    }
}

/* -- regions: find a host stage and capture the region's inputs from it ---------------------------- */

typedef struct
{
  const WbBsym *target; /* the fusion call whose args are the region's inputs, or NULL */
  GPtrArray    *want;   /* names to capture (NULL-free) when there is no target */
  GPtrArray    *args;   /* captured */
  WbRtValue    *result;
  GHashTable   *named;     /* name -> value (capture by name) */
  GPtrArray    *all;       /* (element-type WbRtValue) every top-level tensor bound, for matching by value */
  GPtrArray    *all_names; /* (element-type utf8) (not owned: the host trace's names) */
  gint64        budget;    /* bytes still allowed in @all */
} Capture;

static void
capture_all (Capture *cap, const char *name, WbRtValue *v)
{
  gint64 bytes;

  if (cap->all == NULL || v == NULL || v->kind != WB_RT_TENSOR)
    return;
  bytes = wb_tensor_nbytes (v->tensor);
  if (bytes > cap->budget)
    {
      cap->budget = -1;
      return;
    }
  cap->budget -= bytes;
  g_ptr_array_add (cap->all, wb_rt_value_ref (v));
  g_ptr_array_add (cap->all_names, (gpointer) name);
}

static void
capture_observer (const WbTrace *trace, const WbBsym *b, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer data)
{
  Capture *cap = data;

  if (cap->target != NULL)
    {
      if (b == cap->target && cap->args == NULL)
        {
          cap->args = wb_rt_value_array_new ();
          for (guint i = 0; i < n_args; i++)
            g_ptr_array_add (cap->args, wb_rt_value_ref (args[i]));
          cap->result = wb_rt_value_ref (result);
        }
      return;
    }
  /* by name: the outputs bound by this call (a NAME, or a LIST/TUPLE of NAMEs matching result items) */
  if (b->outputs == NULL || result == NULL)
    return;
  if (b->outputs->kind == WB_VALUE_NAME)
    {
      WbRtValue *v = wb_rt_value_is_sequence (result) && b->n_subsymbols && result->items->len == 1
                         ? result->items->pdata[0]
                         : result;
      for (guint i = 0; i < cap->want->len; i++)
        if (strcmp (cap->want->pdata[i], b->outputs->text) == 0 && !g_hash_table_contains (cap->named, b->outputs->text))
          g_hash_table_insert (cap->named, (gpointer) b->outputs->text, wb_rt_value_ref (v));
      capture_all (cap, b->outputs->text, v);
    }
  else if (wb_rt_value_is_sequence (result) && result->items->len == b->outputs->n_items)
    for (guint k = 0; k < b->outputs->n_items; k++)
      {
        const WbValue *o = b->outputs->items[k];
        for (guint i = 0; o->kind == WB_VALUE_NAME && i < cap->want->len; i++)
          if (strcmp (cap->want->pdata[i], o->text) == 0 && !g_hash_table_contains (cap->named, o->text))
            g_hash_table_insert (cap->named, (gpointer) o->text, wb_rt_value_ref (result->items->pdata[k]));
        if (o->kind == WB_VALUE_NAME)
          capture_all (cap, o->text, result->items->pdata[k]);
      }
}

static guint
count_outputs (const WbBsym *b)
{
  if (b->outputs == NULL)
    return 0;
  if (b->outputs->kind == WB_VALUE_LIST || b->outputs->kind == WB_VALUE_TUPLE)
    return b->outputs->n_items;
  return 1;
}

static const WbBsym *
find_fusion (const WbTrace *t, GPtrArray *params, guint n_out, gboolean exact)
{
  for (guint i = 0; t && i < t->n_body; i++)
    {
      const WbBsym *b = t->body[i];
      gboolean      ok;
      if (b->kind != WB_BSYM_CALL || !wb_bsym_is_fusion (b) || b->n_args != params->len)
        continue;
      ok = !exact || count_outputs (b) == n_out;
      for (guint k = 0; ok && k < b->n_args; k++)
        ok = b->args[k]->kind == WB_VALUE_NAME && strcmp (b->args[k]->text, params->pdata[k]) == 0;
      if (ok)
        return b;
    }
  return NULL;
}

static gboolean
defines_all (const WbTrace *t, GPtrArray *names)
{
  g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < t->n_params; i++)
    g_hash_table_add (defined, (gpointer) _wb_param_name (t->params[i]));
  for (guint i = 0; i < t->n_body; i++)
    {
      const WbBsym *b = t->body[i];
      if (b->kind != WB_BSYM_CALL || b->outputs == NULL)
        continue;
      if (b->outputs->kind == WB_VALUE_NAME)
        g_hash_table_add (defined, (gpointer) b->outputs->text);
      else
        for (guint k = 0; k < b->outputs->n_items; k++)
          if (b->outputs->items[k]->kind == WB_VALUE_NAME)
            g_hash_table_add (defined, (gpointer) b->outputs->items[k]->text);
    }
  for (guint i = 0; i < names->len; i++)
    if (!g_hash_table_contains (defined, names->pdata[i]))
      return FALSE;
  return TRUE;
}

/* Pairs each region output with the host value closest to it (same dtype and shape, relative error
 * within the dtype's tolerance); when all pair, they become the reference. */
static void
match_by_value (WbCaseRun *run, Capture *cap, const char *host_label)
{
  GPtrArray *outs = run->result->outputs;
  g_autoptr (GPtrArray) ref = wb_rt_value_array_new ();
  g_autoptr (GString) names = g_string_new (NULL);
  guint matched = 0;
  char *note;

  for (guint k = 0; k < outs->len; k++)
    {
      WbRtValue  *o = outs->pdata[k];
      WbRtValue  *best = NULL;
      const char *best_name = NULL;
      double      best_rel = G_MAXDOUBLE;
      for (guint i = 0; o->kind == WB_RT_TENSOR && i < cap->all->len; i++)
        {
          WbRtValue      *v = cap->all->pdata[i];
          WbCompareResult r;
          double          rtol, atol;
          if (v->tensor->dtype != o->tensor->dtype || v->tensor->rank != o->tensor->rank ||
              memcmp (v->tensor->shape, o->tensor->shape, o->tensor->rank * sizeof (gint64)) != 0)
            continue;
          if (!wb_tensor_compare (o->tensor, v->tensor, 0, 0, FALSE, &r, NULL))
            continue;
          wb_dtype_default_tolerance (o->tensor->dtype, &rtol, &atol);
          if (r.rel <= MAX (rtol, 1e-6) && r.rel < best_rel)
            best = v, best_rel = r.rel, best_name = cap->all_names->pdata[i];
        }
      if (best != NULL)
        {
          matched++;
          g_ptr_array_add (ref, wb_rt_value_ref (best));
          g_string_append_printf (names, "%s%s", names->len ? ", " : "", best_name);
        }
    }
  if (cap->budget < 0)
    note = g_strdup_printf ("inputs captured by name from %s; too large to match outputs by value", host_label);
  else if (matched == outs->len && outs->len > 0)
    {
      note = g_strdup_printf ("inputs from %s; outputs matched by value to its %s", host_label, names->str);
      run->reference = g_steal_pointer (&ref);
    }
  else
    note = g_strdup_printf ("inputs captured by name from %s; %u of %u outputs found among its values", host_label,
                            matched, outs->len);
  g_free (run->note);
  run->note = note;
}

static WbCaseRun *
run_region (WbCase *c, const WbCaseStage *stage, GHashTable *inputs, WbSafetensors *tensors, const WbRunOptions *options, GError **error)
{
  WbTraceSet   *set = wb_case_get_trace_set (c);
  WbTrace      *region = wb_trace_set_get_entry (set, (guint) stage->entry)->trace;
  const WbBsym *ret = _wb_find_return (region);
  guint         n_out = ret && ret->value && ret->value->n_items ? ret->value->n_items : 1;
  g_autoptr (GPtrArray) params = g_ptr_array_new ();
  GPtrArray         *stages = wb_case_get_stages (c);
  const WbCaseStage *host = NULL;
  const WbBsym      *target = NULL;
  guint              self_index = 0;
  Capture            cap = { 0 };
  WbRunOptions       o = *options;
  g_autoptr (WbCaseRun) host_run = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbCaseRun) run = NULL;
  gint64 t0;

  for (guint i = 0; i < region->n_params; i++)
    g_ptr_array_add (params, (gpointer) _wb_param_name (region->params[i]));
  /* the host: a stage with a fusion call of exactly these arguments and outputs; else one that defines
   * all the arguments at top level (its values then serve to match the outputs); else a fusion call with
   * these arguments but other outputs */
  for (guint i = 0; i < stages->len; i++)
    if (stages->pdata[i] == stage)
      self_index = i;
  for (int pass = 0; pass < 3 && host == NULL; pass++)
    for (guint j = 0; j < stages->len && host == NULL; j++)
      {
        /* the nearest stage before the region first (the trace its fusion pass worked on), then after */
        guint              i = j <= self_index ? self_index - j : j;
        const WbCaseStage *h = stages->pdata[i];
        WbTrace           *fw, *bw;
        if (g_strcmp0 (h->subset, stage->subset) != 0 ||
            (h->kind != WB_PROGRAM_INFERENCE && h->kind != WB_PROGRAM_JOINT && h->kind != WB_PROGRAM_TRAINING))
          continue;
        fw = wb_trace_set_get_entry (set, (guint) h->entry)->trace;
        bw = h->backward_entry >= 0 ? wb_trace_set_get_entry (set, (guint) h->backward_entry)->trace : NULL;
        if (pass != 1)
          {
            target = find_fusion (fw, params, n_out, pass == 0);
            if (target == NULL)
              target = find_fusion (bw, params, n_out, pass == 0);
            if (target != NULL)
              host = h;
          }
        else if (defines_all (fw, params))
          host = h;
      }
  if (host == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "%s: no stage of the case calls a fusion with this region's arguments or defines them",
                   region->filename ? region->filename : stage->label);
      return NULL;
    }
  cap.target = target;
  cap.want = params;
  if (target == NULL)
    {
      const char *env = g_getenv ("WB_REGION_MATCH_MB");
      cap.all = wb_rt_value_array_new ();
      cap.all_names = g_ptr_array_new ();
      cap.budget = (env ? g_ascii_strtoll (env, NULL, 10) : 1024) << 20;
    }
  cap.named = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) wb_rt_value_unref);
  o.observer = capture_observer;
  o.observer_data = &cap;
  o.check_shapes = FALSE;
  host_run = wb_case_run_stage (c, host, inputs, tensors, &o, error);
  if (host_run == NULL)
    goto fail;
  run = run_new (stage);
  if (cap.args == NULL)
    {
      /* by name: from the captured outputs, or the case's inputs for the host's parameters */
      cap.args = wb_rt_value_array_new ();
      for (guint i = 0; i < params->len; i++)
        {
          WbRtValue         *v = g_hash_table_lookup (cap.named, params->pdata[i]);
          const WbCaseInput *in = wb_case_find_input (c, params->pdata[i]);
          if (v == NULL && in != NULL && g_hash_table_lookup (inputs, in->name))
            v = wb_rt_value_new_tensor (g_hash_table_lookup (inputs, in->name));
          else if (v != NULL)
            wb_rt_value_ref (v);
          if (v == NULL)
            {
              g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                           "region input '%s' was not captured from %s", (char *) params->pdata[i], host->label);
              goto fail;
            }
          g_ptr_array_add (cap.args, v);
        }
      run->note = g_strdup_printf ("inputs captured by name from %s; no fusion there has these outputs", host->label);
    }
  else
    {
      run->note = g_strdup_printf ("inputs and reference from %s:%u (%s)", host->label, target->line, target->name);
      if (wb_rt_value_get_n_items (cap.result) == n_out)
        {
          run->reference = wb_rt_value_array_new ();
          for (guint i = 0; i < n_out; i++)
            g_ptr_array_add (run->reference, wb_rt_value_ref (cap.result->items->pdata[i]));
        }
      else
        {
          char *n = g_strdup_printf ("%s; the fusion there has %u outputs, this region %u: outputs not compared",
                                     run->note, wb_rt_value_get_n_items (cap.result), n_out);
          g_free (run->note);
          run->note = n;
        }
    }
  program = wb_program_new (region, NULL, error);
  if (program == NULL)
    goto fail;
  o = *options;
  t0 = wb_run_clock_ns ();
  run->result = wb_program_run (program, &o, cap.args, NULL, error);
  run->ns = wb_run_clock_ns () - t0;
  if (run->result == NULL)
    goto fail;
  name_results (c, run);
  if (cap.all != NULL)
    match_by_value (run, &cap, host->label);
  g_clear_pointer (&cap.args, g_ptr_array_unref);
  g_clear_pointer (&cap.result, wb_rt_value_unref);
  g_clear_pointer (&cap.all, g_ptr_array_unref);
  g_clear_pointer (&cap.all_names, g_ptr_array_unref);
  g_hash_table_unref (cap.named);
  return g_steal_pointer (&run);

fail:
  g_clear_pointer (&cap.args, g_ptr_array_unref);
  g_clear_pointer (&cap.result, wb_rt_value_unref);
  g_clear_pointer (&cap.all, g_ptr_array_unref);
  g_clear_pointer (&cap.all_names, g_ptr_array_unref);
  g_hash_table_unref (cap.named);
  return NULL;
}

WbCaseRun *
wb_case_run_stage (WbCase *c, const WbCaseStage *stage, GHashTable *inputs, WbSafetensors *tensors, const WbRunOptions *options, GError **error)
{
  g_autoptr (WbCaseRun) run = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  WbRunOptions o = *options;
  gint64       t0;

  o.parameters = wb_case_parameter_lookup;
  o.parameters_data = inputs;
  if (o.world_size <= 0 && wb_case_get_trace_set (c) != NULL)
    o.world_size = wb_trace_set_get_world_size (wb_case_get_trace_set (c)); /* meta.json "distributed", else the annotations */
  switch (stage->kind)
    {
    case WB_PROGRAM_REGION:
      return run_region (c, stage, inputs, tensors, options, error);

    case WB_PROGRAM_BACKWARD:
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "%s: a backward_fn without a forward trace returning saved-for-backward values cannot run", stage->label);
      return NULL;

    case WB_PROGRAM_EPILOGUE:
      {
        const WbCaseStage *def = wb_case_get_default_stage (c);
        g_autoptr (WbCaseRun) fw = NULL;
        WbRunOptions fo = *options;
        if (def == NULL)
          {
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s: no computation to feed the epilogue", stage->label);
            return NULL;
          }
        fo.observer = NULL;
        fw = wb_case_run_stage (c, def, inputs, tensors, &fo, error);
        if (fw == NULL)
          return NULL;
        program = wb_case_make_program (c, stage, error);
        if (program == NULL)
          return NULL;
        args = wb_rt_value_array_new ();
        for (guint i = 0; i < fw->result->outputs->len; i++)
          g_ptr_array_add (args, wb_rt_value_ref (fw->result->outputs->pdata[i]));
        run = run_new (stage);
        run->reference = g_ptr_array_ref (args);
        run->note = g_strdup_printf ("inputs: the outputs of %s", def->label);
        break;
      }

    default:
      program = wb_case_make_program (c, stage, error);
      if (program == NULL)
        return NULL;
      args = wb_case_make_args (c, program, inputs, error);
      if (args == NULL)
        return NULL;
      run = run_new (stage);
      if (stage->kind == WB_PROGRAM_PROLOGUE)
        {
          run->reference = wb_rt_value_array_new ();
          for (guint i = 0; i < wb_case_get_n_inputs (c); i++)
            g_ptr_array_add (run->reference, wb_rt_value_new_tensor (g_hash_table_lookup (inputs, wb_case_get_input (c, i)->name)));
        }
      if (stage->kind == WB_PROGRAM_JOINT || stage->kind == WB_PROGRAM_TRAINING)
        cots = wb_case_make_cotangents (c, tensors, 1);
      break;
    }
  t0 = wb_run_clock_ns ();
  run->result = wb_program_run (program, &o, args, cots, error);
  run->ns = wb_run_clock_ns () - t0;
  if (run->result == NULL)
    return NULL;
  /* more than one output: look up grad_output.<i> now that their number is known */
  if (cots != NULL && run->result->outputs->len > 1 && tensors != NULL)
    {
      g_autoptr (GPtrArray) more = wb_case_make_cotangents (c, tensors, run->result->outputs->len);
      gboolean any = FALSE;
      for (guint i = 0; i < more->len; i++)
        any |= ((WbRtValue *) more->pdata[i])->kind != WB_RT_NONE;
      if (any)
        {
          g_clear_pointer (&run->result, wb_run_result_free);
          t0 = wb_run_clock_ns ();
          run->result = wb_program_run (program, &o, args, more, error);
          run->ns = wb_run_clock_ns () - t0;
          if (run->result == NULL)
            return NULL;
        }
    }
  name_results (c, run);
  return g_steal_pointer (&run);
}
