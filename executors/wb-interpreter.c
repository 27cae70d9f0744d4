/* wb-interpreter.c — the environment and the walk over bound symbols: evaluation of printed values,
 * binding of outputs, decomposition into subsymbols, annotation checks (liveness: wb-liveness.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <time.h>

#include "wb-interpreter-private.h"

typedef struct _Scope Scope;
struct _Scope
{
  GHashTable *vars; /* name -> WbRtValue (owned) */
  Scope      *parent;
};

static void
scope_init (Scope *s, Scope *parent)
{
  s->vars = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) wb_rt_value_unref);
  s->parent = parent;
}

static void
scope_clear (Scope *s)
{
  g_clear_pointer (&s->vars, g_hash_table_unref);
}

static WbRtValue *
scope_lookup (Scope *s, const char *name)
{
  for (; s != NULL; s = s->parent)
    {
      WbRtValue *v = g_hash_table_lookup (s->vars, name);
      if (v != NULL)
        return v;
    }
  return NULL;
}

/* names are arena strings of the trace, alive as long as the run */
static void
scope_set (Scope *s, const char *name, WbRtValue *value)
{
  g_hash_table_replace (s->vars, (gpointer) name, value);
}

/* The line of @b in the trace being run: the parsed line, or for a stage the workbench computed (whose
 * bound symbols are shared with the stage they came from) its line in that stage's printed text. */
static guint
bsym_line (WbInterp *in, const WbBsym *b)
{
  guint line = in->trace ? wb_trace_get_bsym_line (in->trace, b) : 0;

  return line ? line : b->line;
}

static const char *
trace_file (WbInterp *in)
{
  return in->trace && in->trace->filename ? in->trace->filename : "<trace>";
}

static gboolean
fail (WbInterp *in, const WbBsym *b, GError **error, int code, const char *format, ...) G_GNUC_PRINTF (5, 6);

static gboolean
fail (WbInterp *in, const WbBsym *b, GError **error, int code, const char *format, ...)
{
  va_list          args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, WB_EXECUTOR_ERROR, code, "%s:%u: %s", trace_file (in), bsym_line (in, b), msg);
  return FALSE;
}

/* -- evaluation of printed values ----------------------------------------------------------------- */

static WbRtValue *eval (WbInterp *in, Scope *s, const WbBsym *b, const WbValue *v, GError **error);

static WbRtValue *
eval_items (WbInterp *in, Scope *s, const WbBsym *b, const WbValue *v, WbRtKind kind, GError **error)
{
  WbRtValue *seq = wb_rt_value_new_sequence (kind);

  for (guint i = 0; i < v->n_items; i++)
    {
      WbRtValue *item = eval (in, s, b, v->items[i], error);
      if (item == NULL)
        {
          wb_rt_value_unref (seq);
          return NULL;
        }
      wb_rt_value_append (seq, item);
    }
  return seq;
}

/* A call in a prologue's annotated assignment or a value argument. */
static WbRtValue *
eval_call (WbInterp *in, Scope *s, const WbBsym *b, const WbValue *v, GError **error)
{
  WbDevice device;

  if (wb_value_get_device (v, &device))
    return wb_rt_value_new_device (&device);
  if (v->base && v->base->kind == WB_VALUE_ATTRIBUTE && g_strcmp0 (v->base->text, "get_parameter") == 0 &&
      v->n_items == 1 && v->items[0]->kind == WB_VALUE_STRING)
    {
      WbRtValue *p = in->options->parameters ? in->options->parameters (v->items[0]->v.s, in->options->parameters_data) : NULL;
      if (p == NULL)
        {
          fail (in, b, error, WB_EXECUTOR_ERROR_UNDEFINED_NAME, "no value for module parameter '%s'", v->items[0]->v.s);
          return NULL;
        }
      return p;
    }
  /* globals(), get_thunder_module(...), _get_cache_info(), get_submodule(...): objects not modelled */
  {
    g_autofree char *text = wb_value_to_string (v);
    return wb_rt_value_new_opaque (text);
  }
}

static WbRtValue *
eval (WbInterp *in, Scope *s, const WbBsym *b, const WbValue *v, GError **error)
{
  WbDtype  dtype;
  gboolean weak;
  WbDevice device;

  switch (v->kind)
    {
    case WB_VALUE_NONE:
      return wb_rt_value_new_none ();
    case WB_VALUE_BOOL:
      return wb_rt_value_new_bool (v->v.b);
    case WB_VALUE_INT:
      return wb_rt_value_new_int (v->v.i);
    case WB_VALUE_FLOAT:
      return wb_rt_value_new_float (v->v.f);
    case WB_VALUE_STRING:
      return wb_rt_value_new_string (v->v.s);
    case WB_VALUE_ELLIPSIS:
      return wb_rt_value_new_ellipsis ();
    case WB_VALUE_NAME:
      {
        WbRtValue *x = scope_lookup (s, v->text);
        if (x != NULL)
          return wb_rt_value_ref (x);
        if (wb_value_get_dtype (v, &dtype, &weak))
          return wb_rt_value_new_dtype (dtype, weak);
        /* call-context objects printed by name (_torch_memory_format_22, _object_3) */
        if (v->text[0] == '_')
          return wb_rt_value_new_opaque (v->text);
        fail (in, b, error, WB_EXECUTOR_ERROR_UNDEFINED_NAME, "name '%s' is not defined", v->text);
        return NULL;
      }
    case WB_VALUE_TUPLE:
      return eval_items (in, s, b, v, WB_RT_TUPLE, error);
    case WB_VALUE_LIST:
      return eval_items (in, s, b, v, WB_RT_LIST, error);
    case WB_VALUE_DICT:
      return eval_items (in, s, b, v, WB_RT_DICT, error);
    case WB_VALUE_SLICE:
      return eval_items (in, s, b, v, WB_RT_SLICE, error);
    case WB_VALUE_ATTRIBUTE:
      if (wb_value_get_dtype (v, &dtype, &weak))
        return wb_rt_value_new_dtype (dtype, weak);
      if (wb_value_get_device (v, &device))
        return wb_rt_value_new_device (&device);
      {
        g_autofree char *text = wb_value_to_string (v);
        return wb_rt_value_new_opaque (text);
      }
    case WB_VALUE_CALL:
      if (wb_value_get_dtype (v, &dtype, &weak))
        return wb_rt_value_new_dtype (dtype, weak);
      return eval_call (in, s, b, v, error);
    case WB_VALUE_SUBSCRIPT:
      {
        g_autoptr (WbRtValue) base = eval (in, s, b, v->base, error);
        g_autoptr (WbRtValue) index = NULL;
        if (base == NULL)
          return NULL;
        if (v->n_items != 1 || (index = eval (in, s, b, v->items[0], error)) == NULL)
          return NULL;
        if (wb_rt_value_is_sequence (base) && (index->kind == WB_RT_INT || index->kind == WB_RT_BOOL))
          {
            gint64 i = index->i < 0 ? index->i + base->items->len : index->i;
            if (i < 0 || i >= base->items->len)
              {
                fail (in, b, error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "index %" G_GINT64_FORMAT " out of range", index->i);
                return NULL;
              }
            return wb_rt_value_ref (base->items->pdata[i]);
          }
        if (base->kind == WB_RT_DICT && index->kind == WB_RT_STRING)
          {
            WbRtValue *x = wb_rt_value_dict_lookup (base, index->s);
            if (x != NULL)
              return wb_rt_value_ref (x);
          }
        {
          g_autofree char *text = wb_value_to_string (v);
          return wb_rt_value_new_opaque (text);
        }
      }
    case WB_VALUE_NEG:
      {
        g_autoptr (WbRtValue) x = eval (in, s, b, v->base, error);
        if (x == NULL)
          return NULL;
        if (x->kind == WB_RT_INT || x->kind == WB_RT_BOOL)
          return wb_rt_value_new_int (-x->i);
        if (x->kind == WB_RT_FLOAT)
          return wb_rt_value_new_float (-x->f);
        fail (in, b, error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "cannot negate a %s", wb_rt_value_kind_to_string (x->kind));
        return NULL;
      }
    default:
      {
        g_autofree char *text = wb_value_to_string (v);
        fail (in, b, error, WB_EXECUTOR_ERROR_UNSUPPORTED, "value '%s' is not supported", text);
        return NULL;
      }
    }
}

/* -- binding ----------------------------------------------------------------------------------- */

static gboolean
bind (WbInterp *in, Scope *s, const WbBsym *b, const WbValue *pattern, WbRtValue *value, GError **error)
{
  if (pattern->kind == WB_VALUE_NAME)
    {
      if (strcmp (pattern->text, "_") != 0)
        scope_set (s, pattern->text, wb_rt_value_ref (value));
      return TRUE;
    }
  if (pattern->kind == WB_VALUE_TUPLE || pattern->kind == WB_VALUE_LIST)
    {
      if (!wb_rt_value_is_sequence (value) || value->items->len != pattern->n_items)
        {
          g_autofree char *d = wb_rt_value_describe (value);
          return fail (in, b, error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "cannot unpack %s into %u names", d, pattern->n_items);
        }
      for (guint i = 0; i < pattern->n_items; i++)
        if (!bind (in, s, b, pattern->items[i], value->items->pdata[i], error))
          return FALSE;
      return TRUE;
    }
  return fail (in, b, error, WB_EXECUTOR_ERROR_UNSUPPORTED, "unsupported assignment target");
}

/* -- DTensor annotations ------------------------------------------------------------------------ */

static void
collect_dtensor_types (GHashTable *types, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->has_type && b->type.kind == WB_TYPE_DTENSOR)
        {
          if (b->kind == WB_BSYM_ANNOTATION && b->name != NULL)
            g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
          else if (b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
            g_hash_table_insert (types, (gpointer) b->outputs->text, (gpointer) &b->type);
        }
      collect_dtensor_types (types, b->subsymbols, b->n_subsymbols);
    }
}

/* The DTensor type @name is annotated with in the trace being run, or NULL (the table is built once per
 * interpreter, the first time a call asks). */
static const WbType *
dtensor_type (WbInterp *in, const char *name)
{
  if (in->trace == NULL)
    return NULL;
  if (in->dtensor_types == NULL)
    {
      in->dtensor_types = g_hash_table_new (g_str_hash, g_str_equal);
      collect_dtensor_types (in->dtensor_types, in->trace->body, in->trace->n_body);
    }
  return g_hash_table_lookup (in->dtensor_types, name);
}

/* -- annotation checks -------------------------------------------------------------------------- */

static gboolean
check_type (WbInterp *in, const WbBsym *b, const char *name, const WbType *type, WbRtValue *v, GError **error)
{
  char dev[32];

  if (type->kind == WB_TYPE_TENSOR)
    {
      gboolean ok = v->kind == WB_RT_TENSOR && v->tensor->dtype == type->dtype && v->tensor->rank == type->rank &&
                    memcmp (v->tensor->shape, type->shape, type->rank * sizeof (gint64)) == 0;
      if (!ok)
        {
          g_autofree char *want = wb_type_to_string (type);
          g_autofree char *got = wb_rt_value_describe (v);
          return fail (in, b, error, WB_EXECUTOR_ERROR_TYPE_MISMATCH, "%s: annotated %s, computed %s (device %s mapped to %s)",
                       name, want, got, wb_device_to_string (&type->device, dev), "cpu");
        }
    }
  else if (type->kind == WB_TYPE_INT || type->kind == WB_TYPE_FLOAT || type->kind == WB_TYPE_BOOL)
    {
      gboolean ok = wb_rt_value_is_number (v) || v->kind == WB_RT_OPAQUE;
      if (ok && type->has_value && v->kind != WB_RT_OPAQUE)
        {
          double x;
          wb_rt_value_get_number (v, &x);
          ok = type->kind == WB_TYPE_FLOAT ? TRUE /* printed with %g-like precision */ : x == (double) type->int_value;
        }
      if (!ok)
        {
          g_autofree char *want = wb_type_to_string (type);
          g_autofree char *got = wb_rt_value_describe (v);
          return fail (in, b, error, WB_EXECUTOR_ERROR_TYPE_MISMATCH, "%s: annotated %s, computed %s", name, want, got);
        }
    }
  return TRUE;
}

/* -- execution ---------------------------------------------------------------------------------- */

static gboolean run_body (WbInterp *in, Scope *s, const WbBsym *const *body, guint n, WbExecutor *executor, GHashTable *keep, GError **error);

static WbRtValue *
get_output_value (Scope *s, const WbBsym *b)
{
  if (b->outputs == NULL)
    return NULL;
  if (b->outputs->kind == WB_VALUE_NAME)
    return scope_lookup (s, b->outputs->text);
  return NULL;
}

static gboolean
check_outputs (WbInterp *in, Scope *s, const WbBsym *b, GError **error)
{
  WbRtValue *v;

  if (!b->has_type)
    return TRUE;
  v = b->type_name ? scope_lookup (s, b->type_name) : get_output_value (s, b);
  if (v == NULL)
    return TRUE;
  return check_type (in, b, b->type_name ? b->type_name : "output", &b->type, v, error);
}

/* --detect-nan: the tensor arguments named by @b, held (name, value) before the call frees last uses */
static GPtrArray *
hold_named_args (Scope *s, const WbBsym *b)
{
  GPtrArray *held = g_ptr_array_new ();

  for (guint i = 0; i < b->n_args + b->n_kwargs; i++)
    {
      const WbValue *a = i < b->n_args ? b->args[i] : b->kwargs[i - b->n_args].value;
      WbRtValue     *v = a && a->kind == WB_VALUE_NAME ? scope_lookup (s, a->text) : NULL;
      if (v != NULL)
        {
          g_ptr_array_add (held, (gpointer) a->text);
          g_ptr_array_add (held, wb_rt_value_ref (v));
        }
    }
  return held;
}

static void
release_named_args (GPtrArray *held)
{
  for (guint i = 1; i < held->len; i += 2)
    wb_rt_value_unref (held->pdata[i]);
  g_ptr_array_unref (held);
}

/* Fails on the first NaN in @b's outputs: the call made it when its held arguments are NaN-free, else
 * it only passed on a NaN that came from outside any call (a program input). */
static gboolean
check_nan (WbInterp *in, Scope *s, const WbBsym *b, GPtrArray *held, GError **error)
{
  const WbValue *o = b->outputs;
  guint          n = o == NULL ? 0 : o->kind == WB_VALUE_NAME ? 1
                                                              : o->n_items;

  for (guint i = 0; i < n; i++)
    {
      const WbValue *name = o->kind == WB_VALUE_NAME ? o : o->items[i];
      WbRtValue     *v = name->kind == WB_VALUE_NAME ? scope_lookup (s, name->text) : NULL;
      gint64         nan = wb_rt_value_count_nan (v);
      if (nan == 0)
        continue;
      for (guint k = 0; k < held->len; k += 2)
        if (wb_rt_value_count_nan (held->pdata[k + 1]) > 0)
          return fail (in, b, error, WB_EXECUTOR_ERROR_NAN,
                       "%s: %" G_GINT64_FORMAT " NaN in %s, passed on from its argument %s, which holds NaN "
                       "although no call made one (a program input?)",
                       b->name, nan, name->text, (const char *) held->pdata[k]);
      return fail (in, b, error, WB_EXECUTOR_ERROR_NAN,
                   "%s: first NaN of the run: %" G_GINT64_FORMAT " NaN in %s%s from NaN-free arguments",
                   b->name, nan, name->text, wb_rt_value_get_n_items (v) ? " (one of its items)" : "");
    }
  return TRUE;
}

static void
add_stat (WbInterp *in, const char *name, gint64 ns)
{
  WbKernelStat *st;

  if (in->stats == NULL)
    return;
  st = g_hash_table_lookup (in->stats, name);
  if (st == NULL)
    {
      st = g_new0 (WbKernelStat, 1);
      g_hash_table_insert (in->stats, g_strdup (name), st);
    }
  st->count++;
  st->ns += ns;
}

static gboolean
run_call_once (WbInterp *in, Scope *s, const WbBsym *b, WbExecutor *executor, GError **error)
{
  g_autofree char *why = NULL;
  gboolean         top = b->depth == 0;

  /* a cancel takes effect before the next top-level call, not at the end of the iteration */
  if (top && g_cancellable_set_error_if_cancelled (in->options->cancellable, error))
    return FALSE;
  if (top && !in->checking && in->options->call_started)
    in->options->call_started (in->trace, b, in->options->observer_data);
  if (top && in->checking)
    executor = in->options->check_executor;
  else if (top && (in->assignment || in->by_call))
    {
      WbExecutor *e = in->by_call ? g_hash_table_lookup (in->by_call, b) : NULL;
      if (e == NULL && in->assignment)
        e = g_hash_table_lookup (in->assignment, b->name);
      executor = e ? e : in->default_executor;
    }

  /* prims.get_grad(t): the cotangent of forward output t (JOINT traces) */
  if (g_strcmp0 (b->name, "prims.get_grad") == 0)
    {
      gpointer   idx = NULL;
      WbRtValue *out = NULL;
      WbRtValue *x;
      if (b->n_args != 1 || b->args[0]->kind != WB_VALUE_NAME || in->grad_index == NULL ||
          !(idx = g_hash_table_lookup (in->grad_index, b->args[0]->text)) || in->cotangent == NULL)
        return fail (in, b, error, WB_EXECUTOR_ERROR_UNSUPPORTED,
                     "prims.get_grad of a value that is not a forward output ('fw_flat_out')");
      x = scope_lookup (s, b->args[0]->text);
      if (x == NULL)
        return fail (in, b, error, WB_EXECUTOR_ERROR_UNDEFINED_NAME, "name '%s' is not defined", b->args[0]->text);
      out = in->cotangent (GPOINTER_TO_UINT (idx) - 1, x, in->cotangent_data, error);
      if (out == NULL)
        return FALSE;
      if (!bind (in, s, b, b->outputs, out, error))
        {
          wb_rt_value_unref (out);
          return FALSE;
        }
      if (top && !in->checking && in->options->observer)
        in->options->observer (in->trace, b, &x, 1, out, in->options->observer_data);
      wb_rt_value_unref (out);
      return TRUE;
    }

  if (wb_executor_can_execute (executor, b, &why))
    {
      WbKernelCall call = { 0 };
      GPtrArray   *args = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
      GPtrArray   *kwargs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
      const char  *names[32];
      gboolean     ok = FALSE;
      gint64       t0;

      for (guint i = 0; i < b->n_args; i++)
        {
          WbRtValue *v = eval (in, s, b, b->args[i], error);
          if (v == NULL)
            goto done;
          g_ptr_array_add (args, v);
        }
      for (guint i = 0; i < b->n_kwargs && i < G_N_ELEMENTS (names); i++)
        {
          WbRtValue *v = eval (in, s, b, b->kwargs[i].value, error);
          if (v == NULL)
            goto done;
          names[i] = b->kwargs[i].name;
          g_ptr_array_add (kwargs, v);
        }
      call.bsym = b;
      call.filename = trace_file (in);
      call.line = bsym_line (in, b);
      call.args = (WbRtValue **) args->pdata;
      call.n_args = args->len;
      call.kwarg_names = names;
      call.kwargs = (WbRtValue **) kwargs->pdata;
      call.n_kwargs = kwargs->len;
      call.state = &in->state;
      call.in_dtensor = b->n_args > 0 && b->args[0]->kind == WB_VALUE_NAME ? dtensor_type (in, b->args[0]->text) : NULL;
      t0 = in->stats ? wb_run_clock_ns () : 0;
      if (!wb_executor_run (executor, &call, error))
        {
          g_prefix_error (error, "%s:%u: %s: ", trace_file (in), bsym_line (in, b), b->name);
          goto done;
        }
      if (in->stats)
        add_stat (in, b->name, wb_run_clock_ns () - t0);
      if (b->outputs != NULL && !bind (in, s, b, b->outputs, call.result, error))
        goto done;
      if (top && !in->checking && in->options->observer)
        in->options->observer (in->trace, b, call.args, call.n_args, call.result, in->options->observer_data);
      ok = TRUE;
    done:
      g_clear_pointer (&call.result, wb_rt_value_unref);
      g_ptr_array_unref (args);
      g_ptr_array_unref (kwargs);
      return ok;
    }

  if (b->n_subsymbols > 0)
    {
      Scope       child;
      GHashTable *keep = g_hash_table_new (g_str_hash, g_str_equal);
      GPtrArray  *outs = g_ptr_array_new ();
      gboolean    ok;

      wb_bsym_get_output_names (b, outs);
      for (guint i = 0; i < outs->len; i++)
        g_hash_table_add (keep, outs->pdata[i]);
      scope_init (&child, s);
      ok = run_body (in, &child, (const WbBsym *const *) b->subsymbols, b->n_subsymbols, executor, keep, error);
      for (guint i = 0; ok && i < outs->len; i++)
        {
          WbRtValue *v = g_hash_table_lookup (child.vars, outs->pdata[i]);
          if (v == NULL)
            v = scope_lookup (s, outs->pdata[i]); /* an output that is an input passed through */
          if (v == NULL)
            ok = fail (in, b, error, WB_EXECUTOR_ERROR_UNDEFINED_NAME,
                       "the subsymbols of %s do not define its output '%s'", b->name, (char *) outs->pdata[i]);
          else
            scope_set (s, outs->pdata[i], wb_rt_value_ref (v));
        }
      if (ok && top && !in->checking && in->options->observer)
        {
          g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
          g_autoptr (WbRtValue) result = wb_rt_value_new_sequence (WB_RT_TUPLE);
          for (guint i = 0; ok && i < b->n_args; i++)
            {
              WbRtValue *v = eval (in, s, b, b->args[i], NULL);
              g_ptr_array_add (argv, v ? v : wb_rt_value_new_none ());
            }
          for (guint i = 0; i < outs->len; i++)
            wb_rt_value_append (result, wb_rt_value_ref (scope_lookup (s, outs->pdata[i])));
          in->options->observer (in->trace, b, (WbRtValue *const *) argv->pdata, argv->len, result, in->options->observer_data);
        }
      scope_clear (&child);
      g_ptr_array_unref (outs);
      g_hash_table_unref (keep);
      return ok;
    }

  if (wb_symbol_is_opaque (b->symbol))
    return fail (in, b, error, WB_EXECUTOR_ERROR_UNSUPPORTED,
                 "%s: unknown symbol with neither a kernel nor subsymbols (%s); to run it, record the trace with "
                 "its subsymbols (Thunder's repr form) or give an executor a kernel for it",
                 b->name, why ? why : "no kernel");
  return fail (in, b, error, WB_EXECUTOR_ERROR_UNSUPPORTED,
               "%s: the %s executor cannot run this symbol and it has no decomposition (%s)",
               b->name, wb_executor_get_name (executor), why ? why : "no kernel");
}

/* The values @b bound in @s, in output order (transfer full; NULL where a name is unbound) */
static GPtrArray *
bound_outputs (Scope *s, const WbBsym *b, GPtrArray *names)
{
  GPtrArray *values = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  wb_bsym_get_output_names (b, names);
  for (guint i = 0; i < names->len; i++)
    {
      WbRtValue *v = scope_lookup (s, names->pdata[i]);
      g_ptr_array_add (values, v ? wb_rt_value_ref (v) : NULL);
    }
  return values;
}

/* A top-level call, and for WbRunOptions.check_call (or every call that runs kernels, check_all) first on check_executor without the hooks and with the
 * random generator put back after it, then as usual: both calls' outputs go to check_done */
static gboolean
run_call (WbInterp *in, Scope *s, const WbBsym *b, WbExecutor *executor, GError **error)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GPtrArray) checked = NULL;
  g_autoptr (GPtrArray) got = NULL;
  guint64 offset = in->state.rng_offset;

  if (b->depth != 0 || in->options->check_executor == NULL || in->checking ||
      (b != in->options->check_call && !(in->options->check_all && !wb_executor_info_is_utility (b))))
    return run_call_once (in, s, b, executor, error);
  in->checking = TRUE;
  if (!run_call_once (in, s, b, executor, error))
    {
      in->checking = FALSE;
      return FALSE;
    }
  in->checking = FALSE;
  in->state.rng_offset = offset;
  names = g_ptr_array_new ();
  checked = bound_outputs (s, b, names);
  if (!run_call_once (in, s, b, executor, error))
    return FALSE;
  g_ptr_array_set_size (names, 0);
  got = bound_outputs (s, b, names);
  if (in->options->check_done)
    in->options->check_done (b, names, checked, got, in->options->observer_data);
  return TRUE;
}

static gboolean
run_body (WbInterp *in, Scope *s, const WbBsym *const *body, guint n, WbExecutor *executor, GHashTable *keep, GError **error)
{
  GPtrArray **last = _wb_last_uses_of (in, body, n);
  gboolean    ok = TRUE;

  for (guint i = 0; ok && i < n; i++)
    {
      const WbBsym *b = body[i];

      switch (b->kind)
        {
        case WB_BSYM_CALL:
          {
            GPtrArray *held = in->options->detect_nan ? hold_named_args (s, b) : NULL;
            ok = run_call (in, s, b, executor, error);
            if (ok && in->options->check_shapes)
              ok = check_outputs (in, s, b, error);
            if (ok && held != NULL)
              ok = check_nan (in, s, b, held, error);
            g_clear_pointer (&held, release_named_args);
          }
          break;

        case WB_BSYM_ASSIGN:
          {
            WbRtValue *v = eval (in, s, b, b->value, error);
            if (v == NULL)
              {
                ok = FALSE;
                break;
              }
            /* a module attribute or cache_info entry the workbench does not model: the annotation tells its value */
            if (v->kind == WB_RT_OPAQUE && b->has_type)
              {
                WbRtValue *typed = NULL;
                if (b->type.kind == WB_TYPE_BOOL && b->type.has_value)
                  typed = wb_rt_value_new_bool (b->type.int_value != 0);
                else if (b->type.kind == WB_TYPE_INT && b->type.has_value)
                  typed = wb_rt_value_new_int (b->type.int_value);
                else if (b->type.kind == WB_TYPE_FLOAT && b->type.has_value)
                  typed = wb_rt_value_new_float (b->type.float_value);
                if (typed)
                  {
                    wb_rt_value_unref (v);
                    v = typed;
                  }
              }
            if (b->has_type && v->kind != WB_RT_OPAQUE)
              ok = check_type (in, b, b->name ? b->name : "value", &b->type, v, error);
            if (ok)
              ok = bind (in, s, b, b->outputs, v, error);
            wb_rt_value_unref (v);
          }
          break;

        case WB_BSYM_UNPACK:
          {
            WbRtValue *v = eval (in, s, b, b->value, error);
            ok = v != NULL && bind (in, s, b, b->outputs, v, error);
            g_clear_pointer (&v, wb_rt_value_unref);
          }
          break;

        case WB_BSYM_DEL:
          for (guint k = 0; k < b->n_args; k++)
            if (b->args[k]->kind == WB_VALUE_NAME)
              for (Scope *sc = s; sc != NULL; sc = sc->parent)
                if (g_hash_table_remove (sc->vars, b->args[k]->text))
                  break;
          break;

        case WB_BSYM_RETURN:
          break; /* the caller evaluates it */

        case WB_BSYM_ANNOTATION:
          {
            WbRtValue *v = b->name ? scope_lookup (s, b->name) : NULL;
            if (v != NULL && b->has_type)
              ok = check_type (in, b, b->name, &b->type, v, error);
          }
          break;

        default:
          break;
        }

      /* release names whose last use this was (never the body's outputs, never the RETURN's) */
      if (ok && last[i] != NULL && b->kind != WB_BSYM_RETURN)
        for (guint k = 0; k < last[i]->len; k++)
          {
            const char *name = last[i]->pdata[k];
            if (keep == NULL || !g_hash_table_contains (keep, name))
              g_hash_table_remove (s->vars, name);
          }
    }
  if (in->last_uses == NULL)
    _wb_last_uses_release (last, n);
  return ok;
}

const WbBsym *
_wb_find_return (const WbTrace *trace)
{
  for (guint i = trace->n_body; i > 0; i--)
    if (trace->body[i - 1]->kind == WB_BSYM_RETURN)
      return trace->body[i - 1];
  return NULL;
}

const WbValue *
_wb_value_dict_get (const WbValue *dict, const char *key)
{
  if (dict == NULL || dict->kind != WB_VALUE_DICT)
    return NULL;
  for (guint i = 0; i + 1 < dict->n_items; i += 2)
    if (dict->items[i]->kind == WB_VALUE_STRING && g_strcmp0 (dict->items[i]->v.s, key) == 0)
      return dict->items[i + 1];
  return NULL;
}

const char *
_wb_param_name (const WbValue *param)
{
  if ((param->kind == WB_VALUE_STAR || param->kind == WB_VALUE_STARSTAR) && param->base)
    return param->base->text;
  return param->text;
}

WbRtValue *
_wb_interp_run_trace (WbInterp *in, const WbTrace *trace, GPtrArray *args, GError **error)
{
  Scope         top;
  const WbBsym *ret = _wb_find_return (trace);
  WbRtValue    *value = NULL;
  GHashTable   *keep = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable   *outer_types = in->dtensor_types; /* a trace run from inside another keeps the outer's */

  in->trace = trace;
  in->dtensor_types = NULL;
  if (args->len != trace->n_params)
    {
      in->dtensor_types = outer_types;
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s:%u: %s takes %u arguments, got %u", trace->filename ? trace->filename : "<trace>",
                   trace->first_line, trace->function_name ? trace->function_name : "the trace",
                   trace->n_params, args->len);
      g_hash_table_unref (keep);
      return NULL;
    }
  scope_init (&top, NULL);
  for (guint i = 0; i < trace->n_params; i++)
    scope_set (&top, _wb_param_name (trace->params[i]), wb_rt_value_ref (args->pdata[i]));
  if (run_body (in, &top, (const WbBsym *const *) trace->body, trace->n_body, in->default_executor, keep, error))
    {
      if (ret == NULL || ret->value == NULL)
        value = wb_rt_value_new_none ();
      else
        value = eval (in, &top, ret, ret->value, error);
    }
  scope_clear (&top);
  g_hash_table_unref (keep);
  g_clear_pointer (&in->dtensor_types, g_hash_table_unref);
  in->dtensor_types = outer_types;
  return value;
}
