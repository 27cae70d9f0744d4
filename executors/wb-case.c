/* wb-case.c — WbCase: inputs, reference tensors and stages of one traces/<case>/ directory or file
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "wb-case-private.h"

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
  {
    /* Python's json writes NaN where a statistic was not finite */
    g_autofree char *finite = wb_input_json_finite (text, len, &len);
    if (!json_parser_load_from_data (parser, finite, (gssize) len, &local))
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "%s: %s", path, local->message);
        return NULL;
      }
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

/* A DTensor input is passed as its local tensor: the rank's shard of its global shape (the rank the set
 * was recorded on, meta.json's "distributed"). */
static void
localize_dtensor_inputs (WbCase *c)
{
  gint64 rank = c->set != NULL ? wb_trace_set_get_rank (c->set) : 0;

  for (guint k = 0; k < c->inputs->len; k++)
    {
      CaseInput *in = c->inputs->pdata[k];
      if (in->pub.type.kind != WB_TYPE_DTENSOR)
        continue;
      in->dtensor = in->pub.type;
      wb_type_dtensor_mesh_coord (&in->dtensor, rank, in->coord);
      wb_type_dtensor_local (&in->dtensor, in->coord, &in->pub.type);
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
  localize_dtensor_inputs (c);
  _wb_case_compute_index_bounds (c);
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

/* The rest of @c's load once its set is: the folder's meta.json (@is_dir) names the inputs, then case_fill. FALSE
 * with WB_EXECUTOR_ERROR_IO (meta.json). */
static gboolean
case_finish (WbCase *c, gboolean is_dir, GError **error)
{
  g_autoptr (GPtrArray) meta_names = NULL;

  if (is_dir)
    {
      GError *local = NULL;
      meta_names = read_meta_input_names (c->path, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  case_fill (c, meta_names);
  return TRUE;
}

WbCase *
wb_case_load_full (const char *path, WbTraceSetLoadFlags flags, GError **error)
{
  g_autoptr (WbCase) c = case_new (path);

  c->set = wb_trace_set_load_full (path, flags, error);
  if (c->set == NULL || !case_finish (c, g_file_test (path, G_FILE_TEST_IS_DIR), error))
    return NULL;
  return g_steal_pointer (&c);
}

WbCase *
wb_case_load_subset (const WbCase *parent, const char *name, GError **error)
{
  g_autofree char *path = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (parent != NULL && parent->set != NULL && name != NULL, NULL);
  path = g_build_filename (parent->path, name, NULL);
  c = case_new (path);
  if ((c->set = wb_trace_set_new_subset (parent->set, name, path, &local)) == NULL)
    {
      /* a sub-folder with folders of its own: its sub-sets were not loaded with the parent */
      if (g_error_matches (local, WB_TRACE_ERROR, WB_TRACE_ERROR_IO))
        return wb_case_load (path, error);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!case_finish (c, TRUE, error))
    return NULL;
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

GPtrArray *
wb_case_list_subprograms (const WbCase *c)
{
  const WbCaseStage *def = wb_case_get_default_stage (c);
  g_autoptr (GPtrArray) subsets = g_ptr_array_new ();
  GPtrArray *stages = wb_case_get_stages (c);

  if (def == NULL || def->subset[0] == '\0' || wb_trace_set_get_world_size (wb_case_get_trace_set (c)) > 1)
    return NULL;
  for (guint i = 0; i < stages->len; i++)
    {
      const WbCaseStage *s = stages->pdata[i];
      gboolean           seen = FALSE;

      if (s->kind != WB_PROGRAM_INFERENCE && s->kind != WB_PROGRAM_JOINT && s->kind != WB_PROGRAM_TRAINING)
        continue;
      for (guint j = 0; j < subsets->len && !seen; j++)
        seen = strcmp (subsets->pdata[j], s->subset) == 0;
      if (!seen)
        g_ptr_array_add (subsets, s->subset);
    }
  return subsets->len < 2 ? NULL : g_steal_pointer (&subsets);
}

const char *
wb_case_choose_subprogram (const WbCase *c, const WbTraceSet *set, guint entry, const char *fallback)
{
  g_autoptr (GPtrArray) names = wb_case_list_subprograms (c);
  const char *subset = set != NULL && entry < wb_trace_set_get_n_entries (set) ? wb_trace_set_get_entry (set, entry)->subset : NULL;

  if (names == NULL)
    return NULL;
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (names->pdata[i], subset) == 0)
      return names->pdata[i];
  for (guint i = 0; fallback != NULL && i < names->len; i++)
    if (strcmp (names->pdata[i], fallback) == 0)
      return names->pdata[i];
  return names->pdata[0];
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
