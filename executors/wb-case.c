/* wb-case.c — WbCase: inputs, reference tensors and stages of one traces/<case>/ directory or file
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "wb-interpreter-private.h"

typedef struct
{
  WbCaseInput pub;
  int         arg_index; /* x = args[i]: i, else -1 */
  char       *kwarg;     /* x = kwargs['k']: k, else NULL */
  char       *where;     /* "FILE:LINE:COL" of the line that defines or annotates it, for messages */
} CaseInput;

struct _WbCase
{
  char          *path;
  char          *name;
  WbTraceSet    *set;
  GPtrArray     *inputs; /* (element-type CaseInput) in the computation's parameter order */
  GPtrArray     *stages; /* (element-type WbCaseStage) */
  WbSafetensors *reference;
  gboolean       reference_loaded;
  gboolean       from_set; /* wb_case_new_for_set: no folder behind it */
};

static void
case_input_free (CaseInput *in)
{
  g_free (in->pub.name);
  g_free (in->pub.trace_name);
  g_free (in->kwarg);
  g_free (in->where);
  g_free (in);
}

static void
case_stage_free (WbCaseStage *s)
{
  g_free (s->label);
  g_free (s->subset);
  g_free (s);
}

void
wb_case_free (WbCase *c)
{
  if (c == NULL)
    return;
  g_free (c->path);
  g_free (c->name);
  g_clear_pointer (&c->set, wb_trace_set_free);
  g_ptr_array_unref (c->inputs);
  g_ptr_array_unref (c->stages);
  g_clear_pointer (&c->reference, wb_safetensors_free);
  g_free (c);
}

/* meta.json "inputs"[i].name, or NULL */
static GPtrArray *
read_meta_input_names (const char *dir, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "meta.json", NULL);
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *text = NULL;
  gsize            len = 0;
  GPtrArray       *names;
  JsonNode        *root;
  JsonArray       *inputs;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  parser = json_parser_new ();
  /* never blocks on a FIFO, never reads a device; a meta.json is small */
  if (!wb_input_read_file (path, wb_input_get_max_trace_bytes (), &text, &len, &local))
    {
      g_set_error_literal (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, local->message);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, text, (gssize) len, &local))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "%s: %s", path, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root) || !json_object_has_member (json_node_get_object (root), "inputs"))
    return NULL;
  inputs = json_object_get_array_member (json_node_get_object (root), "inputs");
  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; inputs && i < json_array_get_length (inputs); i++)
    {
      JsonNode   *n = json_array_get_element (inputs, i);
      const char *s = JSON_NODE_HOLDS_OBJECT (n) ? json_object_get_string_member_with_default (json_node_get_object (n), "name", NULL) : NULL;
      g_ptr_array_add (names, g_strdup (s));
    }
  return names;
}

static const WbTraceEntry *
find_prologue (const WbTraceSet *set)
{
  const WbTraceEntry *best = NULL;

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      if (e->kind == WB_TRACE_KIND_PROLOGUE && (e->subset == NULL || e->subset[0] == '\0') &&
          (best == NULL || e->index > best->index))
        best = e;
    }
  return best;
}

static CaseInput *
input_new (const char *canonical, const char *trace_name, const WbType *type, gboolean is_param)
{
  CaseInput *in = g_new0 (CaseInput, 1);

  in->pub.name = g_strdup (canonical);
  in->pub.trace_name = g_strdup (trace_name);
  if (type)
    in->pub.type = *type;
  in->pub.is_param = is_param;
  in->arg_index = -1;
  return in;
}

/* Inputs from the prologue: its assignments name them, its return orders them. */
static gboolean
inputs_from_prologue (WbCase *c, const WbTrace *pro, GPtrArray *meta_names)
{
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  const WbBsym  *ret = _wb_find_return (pro);
  const WbValue *order;

  for (guint i = 0; i < pro->n_body; i++)
    {
      const WbBsym  *b = pro->body[i];
      const WbValue *v = b->value;
      CaseInput     *in = NULL;

      if (b->kind != WB_BSYM_ASSIGN || b->outputs == NULL || b->outputs->kind != WB_VALUE_NAME || v == NULL)
        continue;
      if (v->kind == WB_VALUE_SUBSCRIPT && v->base && v->base->kind == WB_VALUE_NAME && v->n_items == 1)
        {
          const WbValue *ix = v->items[0];
          if (strcmp (v->base->text, "args") == 0 && ix->kind == WB_VALUE_INT)
            {
              const char      *meta = meta_names && ix->v.i < meta_names->len ? meta_names->pdata[ix->v.i] : NULL;
              g_autofree char *canon = g_strdup_printf ("input.%s", meta ? meta : b->outputs->text);
              in = input_new (canon, b->outputs->text, b->has_type ? &b->type : NULL, FALSE);
              in->arg_index = (int) ix->v.i;
            }
          else if (strcmp (v->base->text, "kwargs") == 0 && ix->kind == WB_VALUE_STRING)
            {
              g_autofree char *canon = g_strdup_printf ("input.%s", ix->v.s);
              in = input_new (canon, b->outputs->text, b->has_type ? &b->type : NULL, FALSE);
              in->kwarg = g_strdup (ix->v.s);
            }
        }
      else if (v->kind == WB_VALUE_CALL && v->base && v->base->kind == WB_VALUE_ATTRIBUTE && v->n_items == 1 &&
               v->items[0]->kind == WB_VALUE_STRING &&
               (g_strcmp0 (v->base->text, "get_parameter") == 0 || g_strcmp0 (v->base->text, "get_buffer") == 0))
        {
          gboolean         param = g_strcmp0 (v->base->text, "get_parameter") == 0;
          g_autofree char *canon = g_strdup_printf ("%s.%s", param ? "param" : "buffer", v->items[0]->v.s);
          in = input_new (canon, b->outputs->text, b->has_type ? &b->type : NULL, TRUE);
        }
      if (in != NULL)
        {
          in->where = g_strdup_printf ("%s:%u:%u", pro->filename, b->line, b->col);
          g_hash_table_insert (by_name, in->pub.trace_name, in);
        }
    }
  if (ret == NULL || ret->value == NULL || ret->value->kind != WB_VALUE_TUPLE || ret->value->n_items < 1)
    return FALSE;
  order = ret->value->items[0];
  for (guint i = 0; i < order->n_items; i++)
    {
      const WbValue *n = order->items[i];
      CaseInput     *in = n->kind == WB_VALUE_NAME ? g_hash_table_lookup (by_name, n->text) : NULL;
      if (in == NULL)
        {
          g_autofree char *canon = g_strdup_printf ("input.%s", n->kind == WB_VALUE_NAME ? n->text : "?");
          in = input_new (canon, n->kind == WB_VALUE_NAME ? n->text : "?", NULL, FALSE);
          in->where = g_strdup_printf ("%s:%u:%u", pro->filename, ret->line, ret->col);
        }
      else
        g_hash_table_steal (by_name, n->text);
      g_ptr_array_add (c->inputs, in);
    }
  /* inputs the return does not pass on are dropped */
  {
    GHashTableIter it;
    gpointer       val;
    g_hash_table_iter_init (&it, by_name);
    while (g_hash_table_iter_next (&it, NULL, &val))
      case_input_free (val);
  }
  return TRUE;
}

static const WbTrace *
first_computation (const WbTraceSet *set)
{
  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      WbProgramKind       k = wb_program_classify_trace (e->trace);
      if (k == WB_PROGRAM_INFERENCE || k == WB_PROGRAM_JOINT || k == WB_PROGRAM_TRAINING)
        return e->trace;
    }
  return NULL;
}

static void
inputs_from_params (WbCase *c, const WbTrace *t)
{
  for (guint i = 0; i < t->n_params; i++)
    {
      const char      *name = _wb_param_name (t->params[i]);
      g_autofree char *canon = g_strdup_printf ("input.%s", name);
      CaseInput       *in = input_new (canon, name, NULL, FALSE);
      in->arg_index = (int) i;
      /* the `def` line, after the header lines */
      in->where = g_strdup_printf ("%s:%u:1", t->filename, t->first_line + wb_trace_count_header_lines (t));
      g_ptr_array_add (c->inputs, in);
    }
}

/* The annotated types of the computation's parameters fill in what the prologue did not say. */
static void
fill_input_types (WbCase *c, const WbTrace *t)
{
  for (guint i = 0; t && i < t->n_body; i++)
    {
      const WbBsym *b = t->body[i];
      if (b->kind != WB_BSYM_ANNOTATION || !b->has_type || b->name == NULL)
        continue;
      for (guint k = 0; k < c->inputs->len; k++)
        {
          CaseInput *in = c->inputs->pdata[k];
          if (strcmp (in->pub.trace_name, b->name) == 0 && in->pub.type.kind == WB_TYPE_UNKNOWN)
            {
              in->pub.type = b->type;
              g_free (in->where);
              in->where = g_strdup_printf ("%s:%u:%u", t->filename, b->line, b->col);
            }
        }
    }
}

/* -- index bounds ----------------------------------------------------------------------------------- */

typedef struct
{
  const char *name;
  int         index_pos, src_pos, dim_pos, fixed_dim; /* dim_pos < 0: fixed_dim */
} IndexUse;

static const IndexUse index_uses[] = {
  { "prims.take", 1, 0, 2, 0 },
  { "prims.take_along_axis", 1, 0, 2, 0 },
  { "prims.gather", 1, 0, 2, 0 },
  { "prims.index_add", 1, 0, 3, 0 },
  { "prims.index_copy", 1, 0, 3, 0 },
  { "prims.scatter", 1, 0, 3, 0 },
  { "prims.scatter_add", 1, 0, 3, 0 },
  { "prims.embedding", 0, 1, -1, 0 },
  { "ltorch.embedding", 0, 1, -1, 0 },
  { "torch.nn.functional.embedding", 0, 1, -1, 0 },
  { "ltorch.getitem", 1, 0, -1, 0 },
  { "Tensor.__getitem__", 1, 0, -1, 0 },
  { "ltorch.cross_entropy", 1, 0, -1, 1 },
  { "torch.nn.functional.cross_entropy", 1, 0, -1, 1 },
  { "ltorch.nll_loss", 1, 0, -1, 1 },
  { "torch.nn.functional.nll_loss", 1, 0, -1, 1 },
  { "ltorch.take_along_dim", 1, 0, 2, 0 },
  { "torch.take_along_dim", 1, 0, 2, 0 },
  { "ltorch.index_select", 2, 0, 1, 0 },
  { "ltorch.gather", 2, 0, 1, 0 },
};

static void
collect_types (const WbBsym *b, GHashTable *types)
{
  if (b->has_type && b->type.kind == WB_TYPE_TENSOR)
    {
      const char *n = b->kind == WB_BSYM_CALL ? b->type_name : b->name;
      if (n)
        g_hash_table_insert (types, (gpointer) n, (gpointer) &b->type);
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    collect_types (b->subsymbols[i], types);
}

/* The last component of a printed name: "add" for prims.add, torch.add and Tensor.add. */
static const char *
short_name (const char *name)
{
  const char *dot = strrchr (name, '.');
  return dot != NULL ? dot + 1 : name;
}

static gboolean
name_in (const char *name, const char *const *list)
{
  for (guint i = 0; list[i] != NULL; i++)
    if (strcmp (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Gives every case input that flows into an index of a dim of @bound elements that bound. The value
 * @name is followed back through the ops that keep its values (views, copies, conversions, the branches
 * of where) and through sums, whose @n terms each get bound / n so that the sum stays in range: T5's
 * relative position buckets are an input plus where() of two others. */
static void
bound_value (WbCase *c, GHashTable *producers, const char *name, gint64 bound, guint depth)
{
  static const char *const keep[] = { "reshape", "view", "expand", "broadcast_in_dim", "permute", "transpose", "squeeze", "unsqueeze",
                                      "convert_element_type", "to", "type_as", "long", "clone", "contiguous", "flatten", "shallow_copy",
                                      "copy_", "update_aliases", "torch_prims_reshape_impl", NULL };
  const WbBsym            *p;
  const char              *op;

  for (guint k = 0; k < c->inputs->len; k++)
    {
      CaseInput *in = c->inputs->pdata[k];
      if (strcmp (in->pub.trace_name, name) == 0 && (in->pub.index_bound == 0 || bound < in->pub.index_bound))
        in->pub.index_bound = bound;
    }
  if (depth > 32 || (p = g_hash_table_lookup (producers, name)) == NULL || p->n_args == 0)
    return;
  op = short_name (p->name);
  if (strcmp (op, "where") == 0 && p->n_args >= 3)
    {
      for (guint i = 1; i < 3; i++)
        if (p->args[i]->kind == WB_VALUE_NAME)
          bound_value (c, producers, p->args[i]->text, bound, depth + 1);
    }
  else if (strcmp (op, "add") == 0 && p->n_args >= 2)
    {
      for (guint i = 0; i < 2; i++)
        if (p->args[i]->kind == WB_VALUE_NAME)
          bound_value (c, producers, p->args[i]->text, MAX (bound / 2, 1), depth + 1);
    }
  else if (name_in (op, keep))
    {
      /* copy_ (src, dst) keeps both; update_aliases ((a, b)) its items */
      for (guint i = 0; i < MIN (p->n_args, 2u); i++)
        {
          const WbValue *a = p->args[i];
          if (a->kind == WB_VALUE_NAME && (i == 0 || strcmp (op, "copy_") == 0))
            bound_value (c, producers, a->text, bound, depth + 1);
          else if (i == 0 && (a->kind == WB_VALUE_TUPLE || a->kind == WB_VALUE_LIST))
            for (guint k = 0; k < a->n_items; k++)
              if (a->items[k]->kind == WB_VALUE_NAME)
                bound_value (c, producers, a->items[k]->text, bound, depth + 1);
        }
    }
}

/* Maps every name a call binds (top level and subsymbols) to that call. */
static void
collect_producers (const WbBsym *b, GHashTable *producers)
{
  if (b->kind == WB_BSYM_CALL && b->outputs != NULL)
    {
      const WbValue *o = b->outputs;
      if (o->kind == WB_VALUE_NAME)
        g_hash_table_insert (producers, (gpointer) o->text, (gpointer) b);
      else if (o->kind == WB_VALUE_TUPLE || o->kind == WB_VALUE_LIST)
        for (guint i = 0; i < o->n_items; i++)
          if (o->items[i]->kind == WB_VALUE_NAME)
            g_hash_table_insert (producers, (gpointer) o->items[i]->text, (gpointer) b);
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    collect_producers (b->subsymbols[i], producers);
}

static void
find_index_uses (WbCase *c, const WbBsym *b, GHashTable *types, GHashTable *producers)
{
  if (b->kind == WB_BSYM_CALL && b->name)
    for (guint u = 0; u < G_N_ELEMENTS (index_uses); u++)
      {
        const IndexUse *iu = &index_uses[u];
        const WbValue  *ix, *src;
        const WbType   *st;
        gint64          dim = iu->fixed_dim;
        if (strcmp (b->name, iu->name) != 0 || (guint) MAX (iu->index_pos, iu->src_pos) >= b->n_args)
          continue;
        ix = b->args[iu->index_pos];
        src = b->args[iu->src_pos];
        if (src->kind != WB_VALUE_NAME || (st = g_hash_table_lookup (types, src->text)) == NULL)
          continue;
        if (ix->kind == WB_VALUE_TUPLE && iu->dim_pos < 0 && iu->fixed_dim == 0)
          {
            /* a getitem key of several items: a tensor item indexes the dim it stands at (slices and ints
             * take one dim each, None none, ... the dims the items after it leave) */
            guint d = 0;
            for (guint k = 0; k < ix->n_items && d < st->rank; k++)
              {
                const WbValue *item = ix->items[k];
                if (item->kind == WB_VALUE_ELLIPSIS)
                  d = st->rank > ix->n_items - k - 1 ? st->rank - (ix->n_items - k - 1) : d;
                else if (item->kind == WB_VALUE_NONE)
                  continue;
                else
                  {
                    if (item->kind == WB_VALUE_NAME && st->shape[d] > 0)
                      bound_value (c, producers, item->text, st->shape[d], 0);
                    d++;
                  }
              }
            continue;
          }
        if (ix->kind != WB_VALUE_NAME)
          continue;
        if (iu->dim_pos >= 0 && ((guint) iu->dim_pos >= b->n_args || !wb_value_get_int (b->args[iu->dim_pos], &dim)))
          continue;
        if (iu->fixed_dim == 1 && st->rank == 1)
          dim = 0;
        if (dim < 0)
          dim += st->rank;
        if (dim < 0 || dim >= st->rank)
          continue;
        if (st->shape[dim] > 0)
          bound_value (c, producers, ix->text, st->shape[dim], 0);
      }
  for (guint i = 0; i < b->n_subsymbols; i++)
    find_index_uses (c, b->subsymbols[i], types, producers);
}

static void
compute_index_bounds (WbCase *c)
{
  for (guint i = 0; i < wb_trace_set_get_n_entries (c->set); i++)
    {
      const WbTrace *t = wb_trace_set_get_entry (c->set, i)->trace;
      g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr (GHashTable) producers = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint k = 0; k < t->n_body; k++)
        {
          collect_types (t->body[k], types);
          collect_producers (t->body[k], producers);
        }
      for (guint k = 0; k < t->n_body; k++)
        find_index_uses (c, t->body[k], types, producers);
    }
}

/* -- stages ---------------------------------------------------------------------------------------- */

static char *
entry_label (const WbCase *c, const WbTraceEntry *e)
{
  char *label;

  if (g_strcmp0 (e->subset, "workbench") == 0)
    {
      g_autofree char *pass = g_strdup (e->label ? e->label : e->trace->provenance ? e->trace->provenance
                                                                                   : "stage");
      for (char *p = pass; *p; p++)
        if (*p == ' ')
          *p = '_';
      return g_strdup_printf ("workbench/%02d_%s", e->index, pass);
    }

  if (c->from_set && e->path && !g_path_is_absolute (e->path))
    label = g_strdup (e->path); /* a set from a session: its entries' paths are relative to the case */
  else if (e->path && g_str_has_prefix (e->path, c->path) && e->path[strlen (c->path)] == G_DIR_SEPARATOR)
    label = g_strdup (e->path + strlen (c->path) + 1);
  else
    label = g_path_get_basename (e->path ? e->path : "trace");
  if (g_str_has_suffix (label, ".py"))
    label[strlen (label) - 3] = '\0';
  return label;
}

static void
build_stages (WbCase *c)
{
  guint     n = wb_trace_set_get_n_entries (c->set);
  gboolean *used = g_new0 (gboolean, n);

  for (guint i = 0; i < n; i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (c->set, i);
      WbProgramKind       k = wb_program_classify_trace (e->trace);
      WbCaseStage        *s;

      if (k == WB_PROGRAM_BACKWARD)
        continue;
      s = g_new0 (WbCaseStage, 1);
      s->entry = (int) i;
      s->backward_entry = -1;
      s->kind = k;
      s->subset = g_strdup (e->subset ? e->subset : "");
      /* the backward of a final forward: in the same sub-set and group (stages/ or not), the one with the
       * smallest index above the forward's (stages/17_split_forward -> 18_split_backward, the workbench's
       * split forward k -> backward k + 1), else the first (forward_06 -> backward_00) */
      if (k == WB_PROGRAM_TRAINING)
        {
          int first = -1, next = -1;
          for (guint j = 0; j < n; j++)
            {
              const WbTraceEntry *b = wb_trace_set_get_entry (c->set, j);
              gboolean            same_group = (e->kind == WB_TRACE_KIND_STAGE) == (b->kind == WB_TRACE_KIND_STAGE);
              if (g_strcmp0 (b->subset, e->subset) != 0 || !same_group ||
                  wb_program_classify_trace (b->trace) != WB_PROGRAM_BACKWARD)
                continue;
              if (first < 0)
                first = (int) j;
              if (b->index > e->index && (next < 0 || b->index < wb_trace_set_get_entry (c->set, (guint) next)->index))
                next = (int) j;
            }
          s->backward_entry = next >= 0 ? next : first;
          if (s->backward_entry >= 0)
            used[s->backward_entry] = TRUE;
        }
      {
        g_autofree char *fl = entry_label (c, e);
        if (s->backward_entry >= 0)
          {
            g_autofree char *bl = entry_label (c, wb_trace_set_get_entry (c->set, (guint) s->backward_entry));
            s->label = g_strdup_printf ("%s+%s", fl, bl);
          }
        else
          s->label = g_strdup (fl);
      }
      g_ptr_array_add (c->stages, s);
    }
  /* a backward nobody pairs with still shows up (it cannot run alone) */
  for (guint j = 0; j < n; j++)
    {
      const WbTraceEntry *b = wb_trace_set_get_entry (c->set, j);
      if (!used[j] && wb_program_classify_trace (b->trace) == WB_PROGRAM_BACKWARD)
        {
          WbCaseStage *s = g_new0 (WbCaseStage, 1);
          s->entry = (int) j;
          s->backward_entry = -1;
          s->kind = WB_PROGRAM_BACKWARD;
          s->subset = g_strdup (b->subset ? b->subset : "");
          s->label = entry_label (c, b);
          g_ptr_array_add (c->stages, s);
        }
    }
  g_free (used);
}

WbCase *
wb_case_load (const char *path, GError **error)
{
  return wb_case_load_full (path, WB_TRACE_SET_LOAD_DEFAULT, error);
}

/* Inputs, their index bounds and the stages of @c, whose set is loaded (@meta_names: nullable). */
static void
case_fill (WbCase *c, GPtrArray *meta_names)
{
  const WbTraceEntry *pro = find_prologue (c->set);

  if (pro == NULL || !inputs_from_prologue (c, pro->trace, meta_names))
    {
      const WbTrace *t = first_computation (c->set);
      g_ptr_array_set_size (c->inputs, 0);
      if (t)
        inputs_from_params (c, t);
    }
  fill_input_types (c, first_computation (c->set));
  compute_index_bounds (c);
  build_stages (c);
}

static WbCase *
case_new (const char *path)
{
  WbCase *c = g_new0 (WbCase, 1);

  c->path = g_strdup (path);
  while (strlen (c->path) > 1 && g_str_has_suffix (c->path, G_DIR_SEPARATOR_S))
    c->path[strlen (c->path) - 1] = '\0';
  c->name = g_path_get_basename (c->path);
  c->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) case_input_free);
  c->stages = g_ptr_array_new_with_free_func ((GDestroyNotify) case_stage_free);
  return c;
}

WbCase *
wb_case_load_full (const char *path, WbTraceSetLoadFlags flags, GError **error)
{
  g_autoptr (WbCase) c = case_new (path);
  g_autoptr (GPtrArray) meta_names = NULL;
  gboolean is_dir = g_file_test (path, G_FILE_TEST_IS_DIR);

  c->set = wb_trace_set_load_full (path, flags, error);
  if (c->set == NULL)
    return NULL;
  if (is_dir)
    {
      GError *local = NULL;
      meta_names = read_meta_input_names (path, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
    }
  case_fill (c, meta_names);
  return g_steal_pointer (&c);
}

WbCase *
wb_case_new_for_set (WbTraceSet *set, const char *name)
{
  WbCase *c;

  g_return_val_if_fail (set != NULL && name != NULL, NULL);
  c = case_new (name);
  c->from_set = TRUE;
  c->set = set;
  case_fill (c, NULL);
  return c;
}

const char *
wb_case_get_name (const WbCase *c)
{
  return c->name;
}

const char *
wb_case_get_path (const WbCase *c)
{
  return c->path;
}

WbTraceSet *
wb_case_get_trace_set (const WbCase *c)
{
  return c->set;
}

WbSafetensors *
wb_case_get_reference (WbCase *c, GError **error)
{
  if (!c->reference_loaded)
    {
      g_autofree char *p = g_build_filename (c->path, "tensors.safetensors", NULL);
      c->reference_loaded = TRUE;
      if (!c->from_set && g_file_test (c->path, G_FILE_TEST_IS_DIR) && g_file_test (p, G_FILE_TEST_EXISTS))
        c->reference = wb_safetensors_load (p, error);
    }
  return c->reference;
}

guint
wb_case_get_n_inputs (const WbCase *c)
{
  return c->inputs->len;
}

const WbCaseInput *
wb_case_get_input (const WbCase *c, guint i)
{
  g_return_val_if_fail (i < c->inputs->len, NULL);
  return &((CaseInput *) c->inputs->pdata[i])->pub;
}

const WbCaseInput *
wb_case_find_input (const WbCase *c, const char *trace_name)
{
  for (guint i = 0; i < c->inputs->len; i++)
    if (strcmp (((CaseInput *) c->inputs->pdata[i])->pub.trace_name, trace_name) == 0)
      return &((CaseInput *) c->inputs->pdata[i])->pub;
  return NULL;
}

GPtrArray *
wb_case_get_stages (const WbCase *c)
{
  return c->stages;
}

const WbCaseStage *
wb_case_get_default_stage (const WbCase *c)
{
  const WbCaseStage *best = NULL;
  int                best_index = -1;

  for (guint i = 0; i < c->stages->len; i++)
    {
      const WbCaseStage  *s = c->stages->pdata[i];
      const WbTraceEntry *e = wb_trace_set_get_entry (c->set, (guint) s->entry);
      if (s->subset[0] != '\0' || e->kind != WB_TRACE_KIND_FORWARD || s->kind == WB_PROGRAM_BACKWARD)
        continue;
      if (best == NULL || e->index >= best_index)
        best = s, best_index = e->index;
    }
  if (best == NULL)
    for (guint i = 0; i < c->stages->len; i++)
      {
        const WbCaseStage *s = c->stages->pdata[i];
        if (s->kind == WB_PROGRAM_INFERENCE || s->kind == WB_PROGRAM_JOINT || s->kind == WB_PROGRAM_TRAINING)
          best = s;
      }
  return best;
}

const WbCaseStage *
wb_case_find_stage (const WbCase *c, int entry, const char *label)
{
  for (guint i = 0; i < c->stages->len; i++)
    {
      const WbCaseStage *s = c->stages->pdata[i];
      if ((entry >= 0 && (s->entry == entry || s->backward_entry == entry)) ||
          (label != NULL && (g_strcmp0 (s->label, label) == 0 ||
                             (g_str_has_prefix (s->label, label) && s->label[strlen (label)] == '+'))))
        return s;
    }
  return NULL;
}

WbProgram *
wb_case_make_program (const WbCase *c, const WbCaseStage *stage, GError **error)
{
  WbTrace *fw = wb_trace_set_get_entry (c->set, (guint) stage->entry)->trace;
  WbTrace *bw = stage->backward_entry >= 0 ? wb_trace_set_get_entry (c->set, (guint) stage->backward_entry)->trace : NULL;

  return wb_program_new (fw, bw, error);
}

/* -- inputs ---------------------------------------------------------------------------------------- */

/* the conversion of a drawn input into its dtype, over threads (elements [begin, end)): params scaled from
 * [0, 1) into [lo, hi), integers from [0, 1) into [0, range) */
typedef struct
{
  WbDtype  dtype;
  guint8  *dst;
  double  *v;
  gboolean scale;
  double   lo, hi;
  gint64   range; /* > 0: an integer dtype */
} Store;

static void
store_part (gint64 begin, gint64 end, gpointer data)
{
  const Store *st = data;
  gsize        size = wb_dtype_size (st->dtype), n = (gsize) (end - begin);
  double      *v = st->v + begin;

  if (st->range > 0)
    {
      g_autofree gint64 *iv = g_new (gint64, MAX (n, 1));
      for (gsize i = 0; i < n; i++)
        iv[i] = MIN ((gint64) (v[i] * (double) st->range), st->range - 1);
      _wb_store_i64 (st->dst + (gsize) begin * size, st->dtype, 1, iv, n);
      return;
    }
  if (st->scale)
    for (gsize i = 0; i < n; i++)
      v[i] = st->lo + (st->hi - st->lo) * v[i];
  _wb_store_f64 (st->dst + (gsize) begin * size, st->dtype, 1, v, n);
}

static WbTensor *
generate (const CaseInput *in, guint64 seed, GError **error)
{
  const WbType      *t = &in->pub.type;
  guint64            stream = wb_philox_stream_from_name (in->pub.name);
  WbTensor          *out;
  gint64             n;
  g_autofree double *v = NULL;
  Store              st = { 0 };

  if (t->kind != WB_TYPE_TENSOR)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "%s: input %s (%s) has no tensor annotation: cannot draw it", in->where ? in->where : "?",
                   in->pub.name, in->pub.trace_name);
      return NULL;
    }
  if (!_wb_dtype_is_supported (t->dtype))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "input %s: dtype %s is not supported",
                   in->pub.name, wb_dtype_shortname (t->dtype));
      return NULL;
    }
  out = wb_tensor_new (t->dtype, t->rank, t->shape, error);
  if (out == NULL)
    return NULL;
  n = wb_tensor_numel (out);
  v = g_new (double, MAX (n, 1));
  st.dtype = t->dtype;
  st.dst = wb_tensor_get_data (out);
  st.v = v;
  if (wb_dtype_is_float (t->dtype))
    {
      if (!in->pub.is_param)
        wb_philox_normal_f64 (seed, stream, 0, v, (gsize) n);
      else
        {
          wb_philox_uniform_f64 (seed, stream, 0, v, (gsize) n);
          st.scale = TRUE;
          if (t->rank >= 2)
            {
              double bound = 1.0 / sqrt ((double) MAX (n / MAX (t->shape[0], 1), 1));
              st.lo = -bound, st.hi = bound;
            }
          else if (g_str_has_suffix (in->pub.name, "weight"))
            st.lo = 0.5, st.hi = 1.5;
          else
            st.lo = -0.1, st.hi = 0.1;
        }
    }
  else
    {
      st.range = t->dtype == WB_DTYPE_BOOL8 ? 2 : (in->pub.index_bound > 0 ? in->pub.index_bound : 16);
      wb_philox_uniform_f64 (seed, stream, 0, v, (gsize) n);
    }
  _wb_parallel_for (n, 1 << 17, store_part, &st);
  return out;
}

GHashTable *
wb_case_make_inputs (const WbCase *c, WbSafetensors *tensors, guint64 seed, GError **error)
{
  g_autoptr (GHashTable) map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_tensor_unref);

  for (guint i = 0; i < c->inputs->len; i++)
    {
      const CaseInput *in = c->inputs->pdata[i];
      WbTensor        *t = tensors ? wb_safetensors_lookup (tensors, in->pub.name) : NULL;
      if (t != NULL)
        t = wb_tensor_ref (t);
      else if ((t = generate (in, seed, error)) == NULL)
        return NULL;
      g_hash_table_insert (map, g_strdup (in->pub.name), t);
    }
  return g_steal_pointer (&map);
}

WbRtValue *
wb_case_parameter_lookup (const char *name, gpointer inputs)
{
  g_autofree char *key = g_strdup_printf ("param.%s", name);
  WbTensor        *t = g_hash_table_lookup (inputs, key);

  if (t == NULL)
    {
      g_free (key);
      key = g_strdup_printf ("buffer.%s", name);
      t = g_hash_table_lookup (inputs, key);
    }
  return t ? wb_rt_value_new_tensor (t) : NULL;
}

GPtrArray *
wb_case_make_args (const WbCase *c, WbProgram *program, GHashTable *inputs, GError **error)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  GPtrArray    *params = wb_program_get_param_names (program);
  WbProgramKind kind = wb_program_get_kind (program);
  gboolean      by_name = TRUE;

  if (kind == WB_PROGRAM_PROLOGUE)
    {
      WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
      WbRtValue *dict = wb_rt_value_new_sequence (WB_RT_DICT);
      int        n_args = 0;
      for (guint i = 0; i < c->inputs->len; i++)
        n_args = MAX (n_args, ((CaseInput *) c->inputs->pdata[i])->arg_index + 1);
      for (int a = 0; a < n_args; a++)
        {
          WbRtValue *v = NULL;
          for (guint i = 0; i < c->inputs->len; i++)
            {
              const CaseInput *in = c->inputs->pdata[i];
              if (in->arg_index == a)
                v = wb_rt_value_new_tensor (g_hash_table_lookup (inputs, in->pub.name));
            }
          wb_rt_value_append (tuple, v ? v : wb_rt_value_new_none ());
        }
      for (guint i = 0; i < c->inputs->len; i++)
        {
          const CaseInput *in = c->inputs->pdata[i];
          if (in->kwarg)
            {
              wb_rt_value_append (dict, wb_rt_value_new_string (in->kwarg));
              wb_rt_value_append (dict, wb_rt_value_new_tensor (g_hash_table_lookup (inputs, in->pub.name)));
            }
        }
      g_ptr_array_add (args, tuple);
      g_ptr_array_add (args, dict);
      return g_steal_pointer (&args);
    }
  if (kind != WB_PROGRAM_INFERENCE && kind != WB_PROGRAM_JOINT && kind != WB_PROGRAM_TRAINING)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "a %s trace takes values computed by another trace, not the case's inputs",
                   wb_program_kind_to_string (kind));
      return NULL;
    }
  for (guint i = 0; i < params->len; i++)
    if (wb_case_find_input (c, params->pdata[i]) == NULL)
      by_name = FALSE;
  if (!by_name && params->len != c->inputs->len)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "the trace takes %u arguments but the case has %u inputs", params->len, c->inputs->len);
      return NULL;
    }
  for (guint i = 0; i < params->len; i++)
    {
      const WbCaseInput *in = by_name ? wb_case_find_input (c, params->pdata[i]) : &((CaseInput *) c->inputs->pdata[i])->pub;
      WbTensor          *t = g_hash_table_lookup (inputs, in->name);
      if (t == NULL)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "no value for input %s", in->name);
          return NULL;
        }
      g_ptr_array_add (args, wb_rt_value_new_tensor (t));
    }
  return g_steal_pointer (&args);
}

GPtrArray *
wb_case_make_cotangents (const WbCase *c, WbSafetensors *tensors, guint n_outputs)
{
  GPtrArray *cots = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  for (guint i = 0; i < n_outputs; i++)
    {
      g_autofree char *name = n_outputs == 1 ? g_strdup ("grad_output") : g_strdup_printf ("grad_output.%u", i);
      WbTensor        *t = tensors ? wb_safetensors_lookup (tensors, name) : NULL;
      g_ptr_array_add (cots, t ? wb_rt_value_new_tensor (t) : wb_rt_value_new_none ());
    }
  return cots;
}

char *
wb_case_grad_name (const WbCase *c, const char *trace_name)
{
  const WbCaseInput *in = wb_case_find_input (c, trace_name);

  return g_strdup_printf ("grad.%s", in ? in->name : trace_name);
}

gboolean
wb_case_add_workbench_stages (WbCase *c, GError **error)
{
  const WbTraceEntry *input = wb_pipeline_find_input (c->set);
  g_autoptr (WbPipeline) pipeline = NULL;
  WbPipelineOptions options = { NULL, WB_FUSION_DATAFLOW, NULL };

  if (input == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s: no trace to recompute stages from", c->path);
      return FALSE;
    }
  pipeline = wb_pipeline_run (input->trace, &options, error);
  if (pipeline == NULL)
    return FALSE;
  wb_pipeline_append_stages (pipeline, c->set);
  g_ptr_array_set_size (c->stages, 0);
  build_stages (c);
  return TRUE;
}
