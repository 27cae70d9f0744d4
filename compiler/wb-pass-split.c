/* wb-pass-split.c — splitting a joint trace into the forward and backward_fn with saved-for-backward
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Modelled on split_into_forward_and_backward (thunder/transforms/autodiff.py): the forward keeps what the
 * forward outputs need; the backward gets the rest; the forward values the backward reads are saved for
 * backward, tensors in C0 and the others in C1. The forward returns
 * `{'output', 'flat_args', 'flat_output'}, (C0, C1)` and the backward is
 * `backward_fn(saved_for_backward, cotangents)`, returning one gradient (or None) per flat argument. */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

gboolean
_wb_trace_is_joint (const WbTrace *trace)
{
  const WbBsym *ret = _wb_trace_return (trace);
  return ret != NULL && _wb_dict_get (ret->value, "fw_flat_out") != NULL;
}

GHashTable *
_wb_trace_find_backward (const WbTrace *trace)
{
  GHashTable *backward = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) needed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  const WbBsym  *ret = _wb_trace_return (trace);
  const WbValue *fw, *flat_args;
  if (ret == NULL || (fw = _wb_dict_get (ret->value, "fw_flat_out")) == NULL)
    return backward;
  {
    WbBsym probe = { 0 };
    probe.kind = WB_BSYM_RETURN;
    probe.value = (WbValue *) fw;
    _wb_bsym_add_inputs (&probe, names);
    /* the forward also returns flat_args, where an argument the program wrote in place (a BatchNorm running
     * statistic's copy_) is the copy's result: what computes it is forward work */
    if ((flat_args = _wb_dict_get (ret->value, "flat_args")) != NULL)
      {
        probe.value = (WbValue *) flat_args;
        _wb_bsym_add_inputs (&probe, names);
      }
  }
  for (guint k = 0; k < names->len; k++)
    g_hash_table_add (needed, names->pdata[k]);
  for (guint i = trace->n_body; i > 0; i--)
    {
      const WbBsym *b = trace->body[i - 1];
      gboolean      fw_needed = FALSE;
      if (b->kind != WB_BSYM_CALL && b->kind != WB_BSYM_ASSIGN && b->kind != WB_BSYM_UNPACK)
        continue;
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (b, names);
      for (guint k = 0; k < names->len; k++)
        fw_needed |= g_hash_table_contains (needed, names->pdata[k]);
      if (!fw_needed || _wb_bsym_is_get_grad (b))
        {
          g_hash_table_add (backward, (gpointer) b);
          continue;
        }
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_inputs (b, names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_add (needed, names->pdata[k]);
    }
  return backward;
}

static WbBsym *
annotation (WbTraceBuilder *b, const char *name, const WbType *type)
{
  WbBsym *a = wb_trace_builder_new_bsym (b, WB_BSYM_ANNOTATION);
  a->name = wb_trace_builder_strdup (b, name);
  a->has_type = TRUE;
  if (type != NULL)
    a->type = *type;
  else
    a->type.kind = WB_TYPE_ANY;
  return a;
}

static WbBsym *
unpack (WbTraceBuilder *b, GPtrArray *targets, const char *from)
{
  WbBsym   *u = wb_trace_builder_new_bsym (b, WB_BSYM_UNPACK);
  WbValue **items = g_newa (WbValue *, targets->len + 1);
  for (guint i = 0; i < targets->len; i++)
    items[i] = wb_trace_builder_name (b, targets->pdata[i]);
  u->outputs = wb_trace_builder_sequence (b, WB_VALUE_TUPLE, items, targets->len, WB_VALUE_FLAG_BARE | WB_VALUE_FLAG_TRAILING_COMMA);
  u->value = wb_trace_builder_name (b, from);
  return u;
}

static WbValue *
names_tuple (WbTraceBuilder *b, GPtrArray *names)
{
  WbValue **items = g_newa (WbValue *, names->len + 1);
  for (guint i = 0; i < names->len; i++)
    items[i] = wb_trace_builder_name (b, names->pdata[i]);
  return wb_trace_builder_sequence (b, WB_VALUE_TUPLE, items, names->len, 0);
}

/* the leaves of @v in order (tuples and lists flattened), a name or NULL for another value */
static void
flat_leaves (const WbValue *v, GPtrArray *leaves)
{
  if (v != NULL && wb_value_is_sequence (v))
    for (guint i = 0; i < v->n_items; i++)
      flat_leaves (v->items[i], leaves);
  else
    g_ptr_array_add (leaves, v != NULL && v->kind == WB_VALUE_NAME ? (gpointer) v->text : NULL);
}

/* The backward's cotangents, one per flat forward output as the caller passes them (Thunder's
 * `_, t552, t557, = cotangents`): the get_grad output of that output, or "_" where nothing reads its
 * gradient. NULL when a get_grad reads a value that is not a forward output (then @cotangents as found). */
static GPtrArray *
cotangent_targets (const WbTrace *in, const WbValue *fw_out)
{
  g_autoptr (GHashTable) grad_of = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) leaves = g_ptr_array_new ();
  GPtrArray *targets = g_ptr_array_new ();
  guint      matched = 0, n_grads = 0;

  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *b = in->body[i];
      if (_wb_bsym_is_get_grad (b) && b->n_args == 1 && b->args[0]->kind == WB_VALUE_NAME && b->outputs != NULL &&
          b->outputs->kind == WB_VALUE_NAME)
        {
          g_hash_table_insert (grad_of, (gpointer) b->args[0]->text, (gpointer) b->outputs->text);
          n_grads++;
        }
    }
  flat_leaves (fw_out, leaves);
  for (guint i = 0; i < leaves->len; i++)
    {
      const char *g = leaves->pdata[i] ? g_hash_table_lookup (grad_of, leaves->pdata[i]) : NULL;
      if (g != NULL && g_hash_table_remove (grad_of, leaves->pdata[i]))
        matched++;
      g_ptr_array_add (targets, (gpointer) (g != NULL ? g : "_"));
    }
  if (matched != n_grads)
    g_clear_pointer (&targets, g_ptr_array_unref);
  return targets;
}

WbTrace *
_wb_pass_split (WbPassContext *ctx, WbTrace **backward_out, GError **error)
{
  WbTrace       *in = ctx->in;
  const WbBsym  *ret = _wb_trace_return (in);
  const WbValue *grads, *flat_args, *fw_out;
  g_autoptr (GHashTable) backward = NULL;
  g_autoptr (GHashTable) fw_defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) saved_set = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) saved_tensors = g_ptr_array_new (), saved_other = g_ptr_array_new ();
  g_autoptr (GPtrArray) cotangents = g_ptr_array_new (), names = g_ptr_array_new ();
  g_autoptr (WbTraceBuilder) fb = NULL, bb = NULL;
  WbBsym *fret, *bret;

  if (ret == NULL || (grads = _wb_dict_get (ret->value, "output")) == NULL || (flat_args = _wb_dict_get (ret->value, "flat_args")) == NULL || (fw_out = _wb_dict_get (ret->value, "fw_flat_out")) == NULL)
    {
      g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_TRACE,
                   "%s: a joint trace returns {'output': ..., 'flat_args': ..., 'fw_flat_out': ...}", in->filename);
      return NULL;
    }
  backward = _wb_trace_find_backward (in);

  /* what the forward defines, and what of it the backward reads */
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *b = in->body[i];
      if (g_hash_table_contains (backward, b) || b->kind == WB_BSYM_RETURN)
        continue;
      g_ptr_array_set_size (names, 0);
      _wb_bsym_add_outputs (b, names);
      for (guint k = 0; k < names->len; k++)
        g_hash_table_add (fw_defined, names->pdata[k]);
    }
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *b = in->body[i];
      if (!g_hash_table_contains (backward, b) && b->kind != WB_BSYM_RETURN)
        continue;
      if (_wb_bsym_is_get_grad (b))
        {
          g_ptr_array_set_size (names, 0);
          _wb_bsym_add_outputs (b, names);
          g_ptr_array_extend (cotangents, names, NULL, NULL);
          continue;
        }
      g_ptr_array_set_size (names, 0);
      if (b->kind == WB_BSYM_RETURN)
        {
          WbBsym probe = { 0 };
          probe.kind = WB_BSYM_RETURN;
          probe.value = (WbValue *) grads;
          _wb_bsym_add_inputs (&probe, names);
        }
      else
        _wb_bsym_add_inputs (b, names);
      for (guint k = 0; k < names->len; k++)
        {
          const char *n = names->pdata[k];
          WbType     *t;
          if (!g_hash_table_contains (fw_defined, n) || g_hash_table_contains (saved_set, n))
            continue;
          g_hash_table_add (saved_set, (gpointer) n);
          t = g_hash_table_lookup (ctx->types, n);
          g_ptr_array_add (t != NULL && t->kind == WB_TYPE_TENSOR ? saved_tensors : saved_other, (gpointer) n);
        }
    }

  /* forward */
  fb = wb_trace_builder_new (in);
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *b = in->body[i];
      if (!g_hash_table_contains (backward, b) && b->kind != WB_BSYM_RETURN)
        wb_trace_builder_append (fb, b);
    }
  {
    const char *keys[] = { "output", "flat_args", "flat_output" };
    WbValue    *vals[3] = { (WbValue *) fw_out, (WbValue *) flat_args, (WbValue *) fw_out };
    WbValue    *saved[2], *pair[2];
    saved[0] = names_tuple (fb, saved_tensors);
    saved[1] = names_tuple (fb, saved_other);
    pair[0] = wb_trace_builder_dict (fb, keys, vals, 3);
    pair[1] = wb_trace_builder_sequence (fb, WB_VALUE_TUPLE, saved, 2, 0);
    fret = wb_trace_builder_new_bsym (fb, WB_BSYM_RETURN);
    fret->value = wb_trace_builder_sequence (fb, WB_VALUE_TUPLE, pair, 2, WB_VALUE_FLAG_BARE);
    _wb_sources_add (ctx->sources, fret, ret);
    wb_trace_builder_append (fb, fret);
  }

  /* backward */
  bb = wb_trace_builder_new (in);
  {
    const char *params[] = { "saved_for_backward", "cotangents" };
    WbType      coll = { 0 };
    g_autoptr (GPtrArray) cc = g_ptr_array_new ();
    coll.kind = WB_TYPE_COLLECTION;
    wb_trace_builder_set_signature (bb, "backward_fn", params, 2);
    wb_trace_builder_append (bb, annotation (bb, "saved_for_backward", &coll));
    wb_trace_builder_append (bb, annotation (bb, "cotangents", &coll));
    g_ptr_array_add (cc, "C0");
    g_ptr_array_add (cc, "C1");
    wb_trace_builder_append (bb, unpack (bb, cc, "saved_for_backward"));
    wb_trace_builder_append (bb, annotation (bb, "C0", &coll));
    wb_trace_builder_append (bb, annotation (bb, "C1", &coll));
    if (cotangents->len > 0)
      {
        g_autoptr (GPtrArray) targets = cotangent_targets (in, fw_out);
        GPtrArray *unpacked = targets != NULL ? targets : cotangents;

        wb_trace_builder_append (bb, unpack (bb, unpacked, "cotangents"));
        for (guint i = 0; i < unpacked->len; i++)
          if (strcmp (unpacked->pdata[i], "_") != 0)
            wb_trace_builder_append (bb, annotation (bb, unpacked->pdata[i], g_hash_table_lookup (ctx->types, unpacked->pdata[i])));
      }
    if (saved_tensors->len > 0)
      {
        wb_trace_builder_append (bb, unpack (bb, saved_tensors, "C0"));
        for (guint i = 0; i < saved_tensors->len; i++)
          wb_trace_builder_append (bb, annotation (bb, saved_tensors->pdata[i], g_hash_table_lookup (ctx->types, saved_tensors->pdata[i])));
      }
    if (saved_other->len > 0)
      {
        wb_trace_builder_append (bb, unpack (bb, saved_other, "C1"));
        for (guint i = 0; i < saved_other->len; i++)
          wb_trace_builder_append (bb, annotation (bb, saved_other->pdata[i], g_hash_table_lookup (ctx->types, saved_other->pdata[i])));
      }
  }
  for (guint i = 0; i < in->n_body; i++)
    {
      const WbBsym *b = in->body[i];
      if (g_hash_table_contains (backward, b) && !_wb_bsym_is_get_grad (b))
        wb_trace_builder_append (bb, b);
    }
  bret = wb_trace_builder_new_bsym (bb, WB_BSYM_RETURN);
  bret->value = (WbValue *) grads;
  wb_trace_builder_append (bb, bret);

  *backward_out = wb_trace_builder_end (g_steal_pointer (&bb));
  return wb_trace_builder_end (g_steal_pointer (&fb));
}
