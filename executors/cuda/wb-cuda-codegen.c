/* wb-cuda-codegen.c — CUDA C generation for fusion regions and single ops (WbCudaPlan)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Values are emitted lazily: emit (value, index) appends the statements that compute @value at the
 * multi-index @index to the kernel being built and returns a C expression (a variable or a literal). An
 * index is one C expression per dim, plus the row-major linear index when it is known to be exactly
 * that (so reshape and squeeze of a contiguous walk cost nothing). Emitted values are memoised per
 * (value, index) in a stack of scopes that follows the C blocks (loops of reductions, branches of pad and
 * cat), which is the common-subexpression elimination inside a kernel. */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-emit-private.h"
#include "wb-cuda-codegen-private.h"
#include "wb-cuda-prelude.h"

/* clang-format off */
G_DEFINE_QUARK (wb-cuda-codegen-error-quark, wb_cuda_codegen_error)
/* clang-format on */

/* -- the plan ------------------------------------------------------------------------------- */

/* Renames the kernels wb_k<i> to wb_k<i>_<h>, h the first 8 hex digits of the SHA-1 of the source as
 * generated: every distinct kernel has its own name in CUPTI's records, reports and nsys, and regions
 * that are the same up to names still produce the same source (and compile once). */
static void
name_kernels (Gen *g)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA1, g->source->str, g->source->len);

  for (guint i = 0; i < g->kernels->len; i++)
    {
      WbCudaKernel    *kr = &g_array_index (g->kernels, WbCudaKernel, i);
      g_autofree char *from = g_strdup_printf ("\n%s (", kr->entry);
      g_autofree char *to = NULL;
      char            *entry = g_strdup_printf ("%s_%.8s", kr->entry, sum);
      to = g_strdup_printf ("\n%s (", entry);
      g_string_replace (g->source, from, to, 1);
      g_free (kr->entry);
      kr->entry = entry;
    }
}

static void
mark_needed (Gen *g, Val *v)
{
  Node *n;

  if (v == NULL || v->needed)
    return;
  v->needed = TRUE;
  n = v->def;
  if (n == NULL)
    return;
  for (guint i = 0; i < n->n_arg; i++)
    {
      const WbValue *a = n->arg[i];
      if (a == NULL)
        continue;
      if (a->kind == WB_VALUE_NAME)
        mark_needed (g, g_hash_table_lookup (g->env, a->text));
      else if (wb_value_is_sequence (a))
        for (guint j = 0; j < a->n_items; j++)
          if (a->items[j]->kind == WB_VALUE_NAME)
            mark_needed (g, g_hash_table_lookup (g->env, a->items[j]->text));
    }
  for (guint i = 0; i < n->n_out; i++)
    n->out[i]->needed = TRUE;
}

/* Whether a value of @root's shape is computed by some pointwise kernel besides @v: an output in
 * @computed not in @deferred, or a value in @promoted. */
static gboolean
shape_is_computed (GPtrArray *computed, GHashTable *deferred, GPtrArray *promoted, const Val *v, const Val *root)
{
  GPtrArray *sets[2] = { computed, promoted };

  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < sets[s]->len; i++)
      {
        const Val *w = sets[s]->pdata[i];
        if (w != v && (s == 1 || !g_hash_table_contains (deferred, w)) && _wb_cg_same_shape (w, root))
          return TRUE;
      }
  return FALSE;
}

/* Each output in @computed not yet in @deferred that is a view of a value computed here (_wb_cg_view_root,
 * @need_move: through a transpose that moves the innermost dim; else only when another kernel computes
 * that value's shape anyway) joins @deferred, and that value @promoted. */
static void
defer_to_view_roots (Gen *g, GPtrArray *computed, GHashTable *deferred, GPtrArray *promoted, gboolean need_move)
{
  for (guint i = 0; i < computed->len; i++)
    {
      Val *v = computed->pdata[i], *root;
      if (g_hash_table_contains (deferred, v) || (root = _wb_cg_view_root (g, v, need_move)) == NULL || g_ptr_array_find (computed, root, NULL) ||
          (!need_move && !shape_is_computed (computed, deferred, promoted, v, root)))
        continue;
      g_hash_table_add (deferred, v);
      if (!g_ptr_array_find (promoted, root, NULL))
        g_ptr_array_add (promoted, root);
    }
}

static void
node_free (Node *n)
{
  g_free (n);
}

static void
val_free (Val *v)
{
  g_free (v);
}

void
wb_cuda_plan_free (WbCudaPlan *plan)
{
  if (plan == NULL)
    return;
  g_clear_pointer (&plan->scratch, g_ptr_array_unref);
  for (guint i = 0; i < plan->n_kernels; i++)
    {
      g_free (plan->kernels[i].entry);
      g_free (plan->kernels[i].what);
      g_free (plan->kernels[i].params);
    }
  g_free (plan->kernels);
  g_free (plan->buffers);
  g_free (plan->outputs);
  g_free (plan->source);
  g_free (plan->functions);
  g_free (plan);
}

void
wb_cuda_arg_init_contiguous (WbCudaArg *arg, const WbType *type)
{
  memset (arg, 0, sizeof *arg);
  if (type->kind == WB_TYPE_TENSOR)
    {
      arg->kind = WB_CUDA_ARG_TENSOR;
      arg->dtype = type->dtype;
      arg->rank = type->rank;
      memcpy (arg->shape, type->shape, sizeof arg->shape);
      _wb_cg_contiguous_strides (type->rank, type->shape, arg->strides);
    }
  else if ((type->kind == WB_TYPE_INT || type->kind == WB_TYPE_BOOL || type->kind == WB_TYPE_FLOAT) && type->has_value)
    {
      arg->kind = WB_CUDA_ARG_NUMBER;
      arg->dtype = type->kind == WB_TYPE_FLOAT ? WB_DTYPE_FLOAT64 : type->kind == WB_TYPE_BOOL ? WB_DTYPE_BOOL8
                                                                                               : WB_DTYPE_INT64;
      arg->f = type->kind == WB_TYPE_FLOAT ? type->float_value : (double) type->int_value;
      arg->i = type->int_value;
    }
  else
    arg->kind = WB_CUDA_ARG_OTHER;
}

const char *
wb_cuda_codegen_prelude (void)
{
  return wb_cuda_prelude_text;
}

WbCudaPlan *
wb_cuda_plan_new (const WbBsym *const *body, guint n_body, const char *const *input_names, const WbCudaArg *inputs, guint n_inputs, const char *const *output_names, guint n_outputs, WbCudaCodegenFlags flags, GError **error)
{
  WbCudaCodegenOptions o;

  wb_cuda_codegen_options_init_from_env (&o, flags);
  return wb_cuda_plan_new_with_options (body, n_body, input_names, inputs, n_inputs, output_names, n_outputs, &o, error);
}

/* What building one plan keeps between its phases (wb_cuda_plan_new_with_options). */
typedef struct
{
  const char *const *output_names;
  guint              n_outputs;
  guint              n_inputs;
  const char        *ity;          /* the index type: "int", or "long long" for 2^30 elements or more */
  GArray            *outputs;      /* WbCudaOutput */
  GPtrArray         *groups;       /* pointwise groups after the reductions */
  GPtrArray         *computed;     /* outputs that are no view of an input or buffer */
  GHashTable        *deferred;     /* of those, views of another one */
  GPtrArray         *promoted;     /* values computed only for such views to be of */
  GPtrArray         *early;        /* groups before the reductions */
  GPtrArray         *free_outputs; /* computed outputs that read no reduction's result */
  GPtrArray         *sets;         /* reductions: sets of siblings */
  WbCgEpilogue       epi, cepi;    /* the row set's and the column set's pointwise work */
} Build;

/* What the emitter (wb-cuda-codegen-emit.c) dispatches to without calling it by name (WbCgEmitOps): the op
 * families, in the order it searches them, the bf16x2 words and the partial tables' lookups. Each of those
 * files calls the emitter for its operands; filled here, above them all, no two of them call each other. */
static const WbCgEmitFamily *const emit_families[] = { &_wb_cg_emit_creation, &_wb_cg_emit_indexing, &_wb_cg_emit_conversion, &_wb_cg_emit_views };

static const WbCgEmitOps emit_ops = {
  emit_families,
  G_N_ELEMENTS (emit_families),
  _wb_cg_emit_pair,
  _wb_cg_emit_partial_lookup,
};

static void
gen_init (Gen *g, guint n_inputs, const WbCudaCodegenOptions *options)
{
  g->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  g->cse = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g->env = g_hash_table_new (g_str_hash, g_str_equal);
  g->vals = g_ptr_array_new_with_free_func ((GDestroyNotify) val_free);
  g->strings = g_string_chunk_new (4096);
  g->buffers = g_array_new (FALSE, TRUE, sizeof (WbCudaBuffer));
  g->kernels = g_array_new (FALSE, TRUE, sizeof (WbCudaKernel));
  g->source = g_string_new (NULL);
  g->n_inputs = n_inputs;
  g->opt = *options;
  g->sms = options->sms > 0 ? options->sms : wb_cuda_codegen_get_sm_count ();
  g->emit = &emit_ops;
}

/* Binds every input name to its value; *@biggest: the most elements an input spans. */
static gboolean
bind_inputs (Gen *g, const char *const *input_names, const WbCudaArg *inputs, guint n_inputs, gint64 *biggest, GError **error)
{
  for (guint i = 0; i < n_inputs; i++)
    {
      Val *v;
      if (input_names[i] == NULL)
        continue;
      v = _wb_cg_val_new (g, g_string_chunk_insert (g->strings, input_names[i]));
      if (inputs[i].kind == WB_CUDA_ARG_TENSOR)
        {
          if (!_wb_cg_dtype_supported (inputs[i].dtype))
            return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "input %s: dtype %s is not supported", input_names[i],
                                wb_dtype_shortname (inputs[i].dtype));
          v->is_tensor = TRUE;
          v->dtype = inputs[i].dtype;
          v->rank = inputs[i].rank;
          memcpy (v->shape, inputs[i].shape, sizeof v->shape);
          memcpy (v->strides, inputs[i].strides, sizeof v->strides);
          v->input = (int) i;
          *biggest = MAX (*biggest, _wb_cg_numel_of (v->rank, v->shape));
          for (guint d = 0; d < v->rank; d++)
            *biggest = MAX (*biggest, (v->shape[d] - 1) * v->strides[d] + 1);
        }
      else if (inputs[i].kind == WB_CUDA_ARG_NUMBER)
        {
          v->dtype = inputs[i].dtype;
          v->is_float = inputs[i].dtype == WB_DTYPE_FLOAT64;
          v->f = inputs[i].f;
          v->i = inputs[i].i;
        }
      else
        continue;
      g_hash_table_replace (g->env, (gpointer) v->name, v);
    }
  return TRUE;
}

static Val *
output_val (Gen *g, const Build *b, guint i)
{
  return g_hash_table_lookup (g->env, b->output_names[i]);
}

/* Every output is a tensor the body defines; marks what they need. */
static gboolean
mark_outputs (Gen *g, Build *b, GError **error)
{
  for (guint i = 0; i < b->n_outputs; i++)
    {
      Val *v = output_val (g, b, i);
      if (v == NULL)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "output %s is not defined by the body", b->output_names[i]);
      if (!v->is_tensor)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "output %s is a number", b->output_names[i]);
      mark_needed (g, v);
    }
  return TRUE;
}

/* An output that a reduction reads through elementwise ops and that needs no reduction itself (a
 * gradient and its sum over the batch) is computed first, with the outputs of its shape that need no
 * reduction either, so that the reduction loads it instead of computing it again; not when the reduction is
 * a row or column kernel that computes it at each element itself (_wb_cg_read_by_reduction). */
static gboolean
emit_early (Gen *g, Build *b, GError **error)
{
  for (guint i = 0; i < b->n_outputs; i++)
    {
      Val       *v = output_val (g, b, i);
      WbCgLayout L;
      if (!_wb_cg_as_view (g, v, &L, 0) && !_wb_cg_depends_on_reduction (g, v))
        g_ptr_array_add (b->free_outputs, v);
    }
  for (guint i = 0; i < b->free_outputs->len; i++)
    if (_wb_cg_read_by_reduction (g, b->free_outputs->pdata[i]))
      _wb_cg_add_to_group (b->early, b->free_outputs->pdata[i]);
  for (guint i = 0; i < b->free_outputs->len; i++)
    {
      Val *v = b->free_outputs->pdata[i];
      if (_wb_cg_group_of_shape (b->early, v) != NULL)
        _wb_cg_add_to_group (b->early, v);
    }
  /* and a value that an output only reshapes (a [8, 1024, 3072] value for the next op, viewed as
   * [8192, 3072] for a matmul) joins the early kernel of its shape, the output becoming a view of it */
  for (guint i = 0; i < b->free_outputs->len; i++)
    {
      Val *root = _wb_cg_view_root (g, b->free_outputs->pdata[i], FALSE);
      if (root != NULL && _wb_cg_group_of_shape (b->early, root) != NULL)
        _wb_cg_add_to_group (b->early, root);
    }
  for (guint j = 0; j < b->early->len; j++)
    if (!_wb_cg_emit_pointwise (g, b->early->pdata[j], b->ity, error))
      return FALSE;
  return TRUE;
}

/* The reductions, siblings sharing a kernel (wb-cuda-codegen-epilogue.c); their results get their buffers
 * now, so that the pointwise groups see them as computed, and they are emitted once it is known which of
 * those groups a row kernel computes itself. */
static void
reduction_buffers (Gen *g, Build *b)
{
  b->sets = _wb_cg_reduction_sets (g);
  for (guint s = 0; s < b->sets->len; s++)
    {
      GPtrArray *set = b->sets->pdata[s];
      for (guint j = 0; j < set->len; j++)
        for (guint i = 0; i < ((Node *) set->pdata[j])->n_out; i++)
          {
            Val *r = ((Node *) set->pdata[j])->out[i];
            if (r->buffer < 0)
              r->buffer = _wb_cg_add_buffer (g, r);
          }
    }
}

/* Which computed outputs are views of other computed outputs or of values computed for them. */
static void
defer_views (Gen *g, Build *b)
{
  /* an output that is a view of another computed output (its reshape for a matmul, say) becomes a view
   * of that output's buffer, not a second kernel computing it again */
  for (guint i = 0; i < b->n_outputs; i++)
    {
      Val       *v = output_val (g, b, i);
      WbCgLayout L;
      if (!_wb_cg_as_view (g, v, &L, 0) && !g_ptr_array_find (b->computed, v, NULL))
        g_ptr_array_add (b->computed, v);
    }
  for (guint i = 0; i < b->computed->len; i++)
    {
      Val       *v = b->computed->pdata[i];
      WbCgLayout L;
      gboolean   view;
      for (guint j = 0; j < b->computed->len; j++)
        if (j != i && !g_hash_table_contains (b->deferred, b->computed->pdata[j]))
          ((Val *) b->computed->pdata[j])->buffer = 0; /* as if computed: only its shape matters */
      view = _wb_cg_as_view (g, v, &L, 0);
      for (guint j = 0; j < b->computed->len; j++)
        ((Val *) b->computed->pdata[j])->buffer = -1;
      if (view)
        g_hash_table_add (b->deferred, v);
    }
  /* an output that transposes a computed value (x.T for a weight-gradient matmul) becomes a strided view of
   * that value written in its own, coalesced layout (cuBLASLt reads it with op T), not a transposing copy */
  defer_to_view_roots (g, b->computed, b->deferred, b->promoted, TRUE);
  /* an output that only reshapes a computed value whose shape another output's kernel has (a GELU's
   * [8, 1024, 3072] for the next op and [8192, 3072] for a matmul) is a view of that value computed
   * in that kernel: the two share their loads and subexpressions instead of two kernels computing them */
  defer_to_view_roots (g, b->computed, b->deferred, b->promoted, FALSE);
  for (guint i = 0; i < b->promoted->len; i++)
    _wb_cg_add_to_group (b->groups, b->promoted->pdata[i]);
}

/* Each output's layout where it is known now: a view of an input or buffer, or a computed value (its
 * slot filled in by finish_outputs). */
static void
layout_outputs (Gen *g, Build *b)
{
  for (guint i = 0; i < b->n_outputs; i++)
    {
      Val         *v = output_val (g, b, i);
      WbCgLayout   L;
      WbCudaOutput o = { 0 };
      o.dtype = v->dtype;
      if (g_hash_table_contains (b->deferred, v))
        o.slot = G_MAXUINT - 1; /* a view of a buffer: filled below */
      else if (_wb_cg_as_view (g, v, &L, 0))
        {
          o.slot = L.slot;
          o.rank = L.rank;
          memcpy (o.shape, L.shape, sizeof o.shape);
          memcpy (o.strides, L.strides, sizeof o.strides);
          o.offset = L.offset;
        }
      else
        {
          _wb_cg_add_to_group (b->groups, v);
          o.slot = G_MAXUINT; /* filled below */
          o.rank = v->rank;
          memcpy (o.shape, v->shape, sizeof o.shape);
          _wb_cg_contiguous_strides (v->rank, v->shape, o.strides);
        }
      g_array_append_val (b->outputs, o);
    }
}

/* The reduction kernels: the set that takes pointwise work (held), the column set that does (col_held), and
 * the column set the held set's kernel computes too (mix_set). */
static gboolean
emit_reductions (Gen *g, Build *b, GError **error)
{
  GPtrArray *sets = b->sets;
  int        held = _wb_cg_epilogue_pick (g, sets, b->groups, &b->epi);
  int        col_held = _wb_cg_column_pick (g, sets, b->groups, &b->cepi);
  int        mix_set = held >= 0 ? _wb_cg_mix_pick (g, sets, held, &b->epi, col_held, &b->cepi) : -1;

  for (guint s = 0; s < sets->len; s++)
    {
      GPtrArray *set = sets->pdata[s], *cset = mix_set >= 0 ? sets->pdata[mix_set] : NULL;
      WbCgMix    mix, *m = NULL;
      gboolean   done;
      if ((int) s == mix_set)
        continue; /* with the next set's kernel, or after it when that cannot take it */
      if ((int) s == held && mix_set >= 0)
        _wb_cg_mix_init (g, m = &mix, cset, mix_set == col_held ? &b->cepi : NULL, set, &b->epi);
      done = _wb_cg_emit_reduction (g, (Node *const *) set->pdata, set->len, (int) s == held ? &b->epi : (int) s == col_held ? &b->cepi
                                                                                                                             : NULL,
                                    m, b->ity, error);
      /* neither set reads the other's results (_wb_cg_mix_pick): the column kernel can run after */
      if (done && m != NULL && !m->used)
        done = _wb_cg_emit_reduction (g, (Node *const *) cset->pdata, cset->len, mix_set == col_held ? &b->cepi : NULL, NULL, b->ity, error);
      if (m != NULL)
        _wb_cg_mix_clear (m);
      if (!done)
        return FALSE;
    }
  return TRUE;
}

/* The slots of computed outputs and of views of their buffers, now that every kernel is emitted. */
static gboolean
finish_outputs (Gen *g, Build *b, GError **error)
{
  for (guint i = 0; i < b->n_outputs; i++)
    {
      WbCudaOutput *o = &g_array_index (b->outputs, WbCudaOutput, i);
      Val          *v = output_val (g, b, i);
      WbCgLayout    L;
      if (o->slot == G_MAXUINT)
        o->slot = b->n_inputs + (guint) v->buffer;
      else if (o->slot == G_MAXUINT - 1)
        {
          if (!_wb_cg_as_view (g, v, &L, 0))
            return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "internal: output %s is not a view of a buffer", b->output_names[i]);
          o->slot = L.slot;
          o->rank = L.rank;
          memcpy (o->shape, L.shape, sizeof o->shape);
          memcpy (o->strides, L.strides, sizeof o->strides);
          o->offset = L.offset;
        }
    }
  return TRUE;
}

/* The plan of what @g generated (its source, kernels and buffers move into it). */
static WbCudaPlan *
take_plan (Gen *g, Build *b)
{
  WbCudaPlan *plan = g_new0 (WbCudaPlan, 1);

  name_kernels (g);
  plan->source = g_string_free (g->source, FALSE);
  g->source = NULL;
  plan->n_kernels = g->kernels->len;
  plan->kernels = (WbCudaKernel *) g_array_free (g->kernels, FALSE);
  g->kernels = NULL;
  plan->n_buffers = g->buffers->len;
  plan->buffers = (WbCudaBuffer *) g_array_free (g->buffers, FALSE);
  g->buffers = NULL;
  plan->n_outputs = b->outputs->len;
  plan->outputs = (WbCudaOutput *) g_array_free (b->outputs, FALSE);
  b->outputs = NULL;
  plan->n_inputs = b->n_inputs;
  plan->n_ops = g->n_ops;
  return plan;
}

static void
build_clear (Gen *g, Build *b)
{
  if (g->kernels)
    {
      for (guint i = 0; i < g->kernels->len; i++)
        {
          WbCudaKernel *kr = &g_array_index (g->kernels, WbCudaKernel, i);
          g_free (kr->entry);
          g_free (kr->what);
          g_free (kr->params);
        }
      g_array_unref (g->kernels);
    }
  if (g->buffers)
    g_array_unref (g->buffers);
  if (b->outputs)
    g_array_unref (b->outputs);
  if (g->source)
    g_string_free (g->source, TRUE);
  g_ptr_array_unref (b->groups);
  g_ptr_array_unref (b->computed);
  g_ptr_array_unref (b->promoted);
  g_ptr_array_unref (b->early);
  g_ptr_array_unref (b->free_outputs);
  if (b->sets)
    g_ptr_array_unref (b->sets);
  _wb_cg_epilogue_clear (&b->epi);
  _wb_cg_epilogue_clear (&b->cepi);
  g_hash_table_unref (b->deferred);
  g_ptr_array_unref (g->nodes);
  g_hash_table_unref (g->cse);
  g_hash_table_unref (g->env);
  g_ptr_array_unref (g->vals);
  g_string_chunk_free (g->strings);
}

WbCudaPlan *
wb_cuda_plan_new_with_options (const WbBsym *const *body, guint n_body, const char *const *input_names, const WbCudaArg *inputs, guint n_inputs, const char *const *output_names, guint n_outputs, const WbCudaCodegenOptions *options, GError **error)
{
  Gen         g = { 0 };
  Build       b = { 0 };
  WbCudaPlan *plan = NULL;
  gint64      biggest = 0;
  gboolean    ok;

  b.output_names = output_names;
  b.n_outputs = n_outputs;
  b.n_inputs = n_inputs;
  b.outputs = g_array_new (FALSE, TRUE, sizeof (WbCudaOutput));
  b.groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  b.computed = g_ptr_array_new ();
  b.deferred = g_hash_table_new (NULL, NULL);
  b.promoted = g_ptr_array_new ();
  b.early = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  b.free_outputs = g_ptr_array_new ();
  gen_init (&g, n_inputs, options);

  ok = bind_inputs (&g, input_names, inputs, n_inputs, &biggest, error) && _wb_cg_add_body (&g, body, n_body, 0, error);
  if (ok)
    {
      for (guint i = 0; i < g.vals->len; i++)
        {
          Val *v = g.vals->pdata[i];
          if (v && v->is_tensor)
            biggest = MAX (biggest, _wb_cg_numel_of (v->rank, v->shape));
        }
      b.ity = biggest < (G_GINT64_CONSTANT (1) << 30) ? "int" : "long long";
      ok = mark_outputs (&g, &b, error) && emit_early (&g, &b, error);
    }
  if (ok)
    {
      reduction_buffers (&g, &b);
      defer_views (&g, &b);
      layout_outputs (&g, &b);
      ok = emit_reductions (&g, &b, error);
      for (guint j = 0; ok && j < b.groups->len; j++)
        ok = _wb_cg_emit_pointwise (&g, b.groups->pdata[j], b.ity, error);
      ok = ok && finish_outputs (&g, &b, error);
    }
  if (ok)
    plan = take_plan (&g, &b);
  build_clear (&g, &b);
  return plan;
}

WbCudaPlan *
wb_cuda_plan_new_region (const WbBsym *region, const WbCudaArg *args, guint n_args, WbCudaCodegenFlags flags, GError **error)
{
  WbCudaCodegenOptions o;

  wb_cuda_codegen_options_init_from_env (&o, flags);
  return wb_cuda_plan_new_region_with_options (region, args, n_args, &o, error);
}

WbCudaPlan *
wb_cuda_plan_new_region_with_options (const WbBsym *region, const WbCudaArg *args, guint n_args, const WbCudaCodegenOptions *options, GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();

  g_return_val_if_fail (region != NULL && n_args == region->n_args, NULL);
  for (guint i = 0; i < n_args; i++)
    g_ptr_array_add (names, region->args[i]->kind == WB_VALUE_NAME ? (gpointer) region->args[i]->text : NULL);
  wb_bsym_get_output_names (region, outs);
  return wb_cuda_plan_new_with_options ((const WbBsym *const *) region->subsymbols, region->n_subsymbols, (const char *const *) names->pdata,
                                        args, n_args, (const char *const *) outs->pdata, outs->len, options, error);
}

static gboolean
can_fuse (const WbBsym *b, char **why_not, int depth)
{
  const WbSymbol *like;

  if (b->kind != WB_BSYM_CALL)
    return TRUE;
  if (b->symbol == NULL)
    {
      if (why_not)
        *why_not = g_strdup_printf ("%s: unknown symbol", b->name);
      return FALSE;
    }
  like = wb_symbol_get_like (b->symbol);
  if (wb_symbol_get_module (b->symbol) == WB_SYMBOL_MODULE_PRIMS && like == NULL)
    {
      if (_wb_cg_op_supported (b->name + strlen ("prims.")))
        return TRUE;
      if (why_not)
        *why_not = g_strdup_printf ("no CUDA C generator for %s", b->name);
      return FALSE;
    }
  if (b->n_subsymbols > 0 && depth < 16 && !wb_symbol_is_fusion (b->symbol))
    {
      for (guint i = 0; i < b->n_subsymbols; i++)
        if (!can_fuse (b->subsymbols[i], why_not, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (b->n_subsymbols > 0 && wb_symbol_is_fusion (b->symbol) && depth == 0)
    {
      for (guint i = 0; i < b->n_subsymbols; i++)
        if (!can_fuse (b->subsymbols[i], why_not, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (like != NULL && wb_symbol_get_module (like) == WB_SYMBOL_MODULE_PRIMS && _wb_cg_op_supported (wb_symbol_get_name (like) + strlen ("prims.")))
    return TRUE;
  if (why_not)
    *why_not = g_strdup_printf ("%s has no decomposition into prims with a CUDA C generator", b->name);
  return FALSE;
}

gboolean
wb_cuda_codegen_can_fuse (const WbBsym *bsym, char **why_not)
{
  g_return_val_if_fail (bsym != NULL, FALSE);
  if (why_not)
    *why_not = NULL;
  return can_fuse (bsym, why_not, 0);
}

char *
wb_cuda_plan_describe (const WbCudaPlan *plan)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "// %u prims -> %u kernel%s, %u buffer%s; block %d threads\n", plan->n_ops, plan->n_kernels,
                          plan->n_kernels == 1 ? "" : "s", plan->n_buffers, plan->n_buffers == 1 ? "" : "s", WB_CUDA_BLOCK);
  for (guint i = 0; i < plan->n_kernels; i++)
    {
      const WbCudaKernel *k = &plan->kernels[i];
      if (k->smem_bytes > 0)
        g_string_append_printf (s, "//   %s<<<%u, %u, %u>>>(", k->entry, k->grid, k->block ? k->block : WB_CUDA_BLOCK, k->smem_bytes);
      else
        g_string_append_printf (s, "//   %s<<<%u, %u>>>(", k->entry, k->grid, k->block ? k->block : WB_CUDA_BLOCK);
      for (guint j = 0; j < k->n_params; j++)
        {
          guint slot = k->params[j];
          if (slot < plan->n_inputs)
            g_string_append_printf (s, "%sin%u", j ? ", " : "", slot);
          else
            g_string_append_printf (s, "%sbuf%u", j ? ", " : "", slot - plan->n_inputs);
        }
      g_string_append_printf (s, "): %s\n", k->what);
    }
  for (guint i = 0; i < plan->n_outputs; i++)
    {
      const WbCudaOutput *o = &plan->outputs[i];
      g_string_append_printf (s, "//   output %u: %s %s%u", i, wb_dtype_shortname (o->dtype), o->slot < plan->n_inputs ? "view of in" : "buf",
                              o->slot < plan->n_inputs ? o->slot : o->slot - plan->n_inputs);
      g_string_append (s, " [");
      for (guint d = 0; d < o->rank; d++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", o->shape[d]);
      g_string_append (s, "] strides (");
      for (guint d = 0; d < o->rank; d++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", o->strides[d]);
      g_string_append_printf (s, ") offset %" G_GINT64_FORMAT "\n", o->offset);
    }
  return g_string_free (s, FALSE);
}

static gboolean
annotated_type (const char *name, WbType *out, gpointer data)
{
  const WbType *t = g_hash_table_lookup (data, name);

  if (t == NULL)
    return FALSE;
  *out = *t;
  return TRUE;
}

/* Types of every name of @body: annotations, else what the symbol's meta derives (tuple outputs of
 * library calls carry no annotation). Derived types are stored in @owned. */
void
_wb_cg_collect_types (const WbBsym *const *body, guint n, GHashTable *types, GPtrArray *owned)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->has_type && (b->kind == WB_BSYM_ANNOTATION || b->kind == WB_BSYM_ASSIGN) && b->name)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
      else if (b->has_type && b->kind == WB_BSYM_CALL && b->type_name)
        g_hash_table_insert (types, (gpointer) b->type_name, (gpointer) &b->type);
      _wb_cg_collect_types ((const WbBsym *const *) b->subsymbols, b->n_subsymbols, types, owned);
      if (b->kind == WB_BSYM_CALL && b->symbol && b->outputs && !b->has_type && wb_symbol_has_meta (b->symbol))
        {
          g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (WbType));
          const WbValue *o = b->outputs;
          guint          n_names = o->kind == WB_VALUE_NAME ? 1 : o->n_items;
          if (!wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, annotated_type, types, out, NULL))
            continue;
          for (guint k = 0; k < n_names && k < out->len; k++)
            {
              const WbValue *nm = o->kind == WB_VALUE_NAME ? o : o->items[k];
              WbType        *t;
              if (nm->kind != WB_VALUE_NAME || g_hash_table_contains (types, nm->text))
                continue;
              t = g_memdup2 (&g_array_index (out, WbType, k), sizeof (WbType));
              g_ptr_array_add (owned, t);
              g_hash_table_insert (types, (gpointer) nm->text, t);
            }
        }
    }
}

WbCudaPlan *
wb_cuda_plan_new_annotated (const WbTrace *trace, const WbBsym *region, WbCudaCodegenFlags flags, GError **error)
{
  WbCudaCodegenOptions o;

  wb_cuda_codegen_options_init_from_env (&o, flags);
  return wb_cuda_plan_new_annotated_with_options (trace, region, &o, error);
}

WbCudaPlan *
wb_cuda_plan_new_annotated_with_options (const WbTrace *trace, const WbBsym *region, const WbCudaCodegenOptions *options, GError **error)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  g_autofree WbCudaArg *args = NULL;

  g_return_val_if_fail (trace != NULL && region != NULL, NULL);
  _wb_cg_collect_types ((const WbBsym *const *) trace->body, trace->n_body, types, owned);
  args = g_new0 (WbCudaArg, MAX (region->n_args, 1));
  for (guint i = 0; i < region->n_args; i++)
    {
      const WbValue *a = region->args[i];
      const WbType  *t = a->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, a->text) : NULL;
      if (t != NULL)
        wb_cuda_arg_init_contiguous (&args[i], t);
      else if (a->kind == WB_VALUE_NAME)
        {
          g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_BAD_REGION,
                       "%s: input %s has no type annotation in the trace", region->name, a->text);
          return NULL;
        }
      else
        args[i].kind = WB_CUDA_ARG_OTHER;
    }
  return wb_cuda_plan_new_region_with_options (region, args, region->n_args, options, error);
}
