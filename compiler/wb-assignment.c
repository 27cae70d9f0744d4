/* wb-assignment.c — an assignment: region key -> executor id, parsed once and carried unchanged
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-assignment.h"

#include <string.h>

#include "wb-pipeline-private.h"

G_DEFINE_QUARK (wb - assignment - error - quark, wb_assignment_error)

typedef struct
{
  char *key;
  char *executor;
} Choice;

struct _WbAssignment
{
  gatomicrefcount ref;
  GArray         *choices; /* (element-type Choice) in the order given */
};

static void
choice_clear (gpointer data)
{
  Choice *c = data;

  g_free (c->key);
  g_free (c->executor);
}

WbAssignment *
wb_assignment_new (void)
{
  WbAssignment *a = g_new0 (WbAssignment, 1);

  g_atomic_ref_count_init (&a->ref);
  a->choices = g_array_new (FALSE, TRUE, sizeof (Choice));
  g_array_set_clear_func (a->choices, choice_clear);
  return a;
}

WbAssignment *
wb_assignment_ref (WbAssignment *assignment)
{
  g_return_val_if_fail (assignment != NULL, NULL);
  g_atomic_ref_count_inc (&assignment->ref);
  return assignment;
}

void
wb_assignment_unref (WbAssignment *assignment)
{
  if (assignment == NULL || !g_atomic_ref_count_dec (&assignment->ref))
    return;
  g_array_unref (assignment->choices);
  g_free (assignment);
}

/* A key or executor: non-empty UTF-8, no ',' or '=', no blank at either end. */
static gboolean
valid_word (const char *s)
{
  gsize n;

  if (s == NULL || *s == '\0' || strpbrk (s, ",=") != NULL || !g_utf8_validate (s, -1, NULL))
    return FALSE;
  n = strlen (s);
  return !g_ascii_isspace (s[0]) && !g_ascii_isspace (s[n - 1]);
}

gboolean
wb_assignment_set (WbAssignment *assignment, const char *key, const char *executor, GError **error)
{
  Choice c;

  g_return_val_if_fail (assignment != NULL, FALSE);
  if (!valid_word (key) || !valid_word (executor))
    {
      g_set_error (error, WB_ASSIGNMENT_ERROR, WB_ASSIGNMENT_ERROR_SYNTAX, "“%s=%s” is not REGION=EXECUTOR",
                   key ? key : "", executor ? executor : "");
      return FALSE;
    }
  for (guint i = 0; i < assignment->choices->len; i++)
    {
      Choice *old = &g_array_index (assignment->choices, Choice, i);

      if (strcmp (old->key, key) == 0)
        {
          g_free (old->executor);
          old->executor = g_strdup (executor);
          return TRUE;
        }
    }
  c.key = g_strdup (key);
  c.executor = g_strdup (executor);
  g_array_append_val (assignment->choices, c);
  return TRUE;
}

WbAssignment *
wb_assignment_parse (const char *spec, GError **error)
{
  g_autoptr (WbAssignment) a = wb_assignment_new ();
  g_auto (GStrv) items = NULL;

  if (spec == NULL || *spec == '\0')
    return g_steal_pointer (&a);
  items = g_strsplit (spec, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      char            *item = g_strstrip (items[i]);
      const char      *eq = strchr (item, '=');
      g_autofree char *key = NULL;
      g_autofree char *executor = NULL;

      if (*item == '\0')
        continue;
      if (eq == NULL || eq == item || eq[1] == '\0')
        {
          g_set_error (error, WB_ASSIGNMENT_ERROR, WB_ASSIGNMENT_ERROR_SYNTAX, "“%s” is not REGION=EXECUTOR", item);
          return NULL;
        }
      key = g_strstrip (g_strndup (item, eq - item));
      executor = g_strstrip (g_strdup (eq + 1));
      if (wb_assignment_lookup (a, key) != NULL)
        {
          g_set_error (error, WB_ASSIGNMENT_ERROR, WB_ASSIGNMENT_ERROR_DUPLICATE, "region “%s” is assigned twice", key);
          return NULL;
        }
      if (!wb_assignment_set (a, key, executor, NULL))
        {
          g_set_error (error, WB_ASSIGNMENT_ERROR, WB_ASSIGNMENT_ERROR_SYNTAX, "“%s” is not REGION=EXECUTOR", item);
          return NULL;
        }
    }
  return g_steal_pointer (&a);
}

WbAssignment *
wb_assignment_new_from_variant (GVariant *variant, GError **error)
{
  g_autoptr (WbAssignment) a = wb_assignment_new ();
  GVariantIter it;
  const char  *key, *executor;

  g_return_val_if_fail (variant != NULL && g_variant_is_of_type (variant, G_VARIANT_TYPE ("a{ss}")), NULL);
  g_variant_iter_init (&it, variant);
  while (g_variant_iter_next (&it, "{&s&s}", &key, &executor))
    {
      if (wb_assignment_lookup (a, key) != NULL)
        {
          g_set_error (error, WB_ASSIGNMENT_ERROR, WB_ASSIGNMENT_ERROR_DUPLICATE, "region “%s” is assigned twice", key);
          return NULL;
        }
      if (!wb_assignment_set (a, key, executor, error))
        return NULL;
    }
  return g_steal_pointer (&a);
}

WbAssignment *
wb_assignment_copy_with (const WbAssignment *assignment, const char *key, const char *executor, GError **error)
{
  g_autoptr (WbAssignment) a = wb_assignment_new ();

  for (guint i = 0; assignment != NULL && i < assignment->choices->len; i++)
    {
      const Choice *c = &g_array_index (assignment->choices, Choice, i);

      wb_assignment_set (a, c->key, c->executor, NULL);
    }
  if (!wb_assignment_set (a, key, executor, error))
    return NULL;
  return g_steal_pointer (&a);
}

guint
wb_assignment_get_n_choices (const WbAssignment *assignment)
{
  return assignment != NULL ? assignment->choices->len : 0;
}

const WbAssignmentChoice *
wb_assignment_get_choice (const WbAssignment *assignment, guint i)
{
  /* Choice and WbAssignmentChoice have the same layout (two strings) */
  G_STATIC_ASSERT (sizeof (Choice) == sizeof (WbAssignmentChoice));
  g_return_val_if_fail (assignment != NULL && i < assignment->choices->len, NULL);
  return (const WbAssignmentChoice *) &g_array_index (assignment->choices, Choice, i);
}

gboolean
wb_assignment_is_empty (const WbAssignment *assignment)
{
  return wb_assignment_get_n_choices (assignment) == 0;
}

const char *
wb_assignment_lookup (const WbAssignment *assignment, const char *key)
{
  for (guint i = 0; key != NULL && i < wb_assignment_get_n_choices (assignment); i++)
    {
      const Choice *c = &g_array_index (assignment->choices, Choice, i);

      if (strcmp (c->key, key) == 0)
        return c->executor;
    }
  return NULL;
}

const char *
wb_assignment_lookup_region (const WbAssignment *assignment, const char *name, const char *key)
{
  const char *by_key = wb_assignment_lookup (assignment, key);

  return by_key != NULL ? by_key : wb_assignment_lookup (assignment, name);
}

char *
wb_assignment_to_string (const WbAssignment *assignment)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < wb_assignment_get_n_choices (assignment); i++)
    {
      const Choice *c = &g_array_index (assignment->choices, Choice, i);

      g_string_append_printf (s, "%s%s=%s", i > 0 ? "," : "", c->key, c->executor);
    }
  return g_string_free (s, FALSE);
}

GVariant *
wb_assignment_to_variant (const WbAssignment *assignment)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; i < wb_assignment_get_n_choices (assignment); i++)
    {
      const Choice *c = &g_array_index (assignment->choices, Choice, i);

      g_variant_builder_add (&b, "{ss}", c->key, c->executor);
    }
  return g_variant_builder_end (&b);
}

gboolean
wb_assignment_equal (const WbAssignment *a, const WbAssignment *b)
{
  if (wb_assignment_get_n_choices (a) != wb_assignment_get_n_choices (b))
    return FALSE;
  for (guint i = 0; i < wb_assignment_get_n_choices (a); i++)
    {
      const Choice *x = &g_array_index (a->choices, Choice, i);
      const Choice *y = &g_array_index (b->choices, Choice, i);

      if (strcmp (x->key, y->key) != 0 || strcmp (x->executor, y->executor) != 0)
        return FALSE;
    }
  return TRUE;
}

/* -- region keys --------------------------------------------------------------------------------- */

static const char *
first_output_name (const WbValue *v)
{
  if (v == NULL)
    return NULL;
  if (v->kind == WB_VALUE_NAME)
    return strcmp (v->text, "_") != 0 ? v->text : NULL;
  if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    for (guint i = 0; i < v->n_items; i++)
      {
        const char *name = first_output_name (v->items[i]);

        if (name != NULL)
          return name;
      }
  return NULL;
}

char *
_wb_region_key_of_members (const WbBsym *const *members, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = members[i];
      const char   *name = NULL;

      if (b->kind == WB_BSYM_CALL || b->kind == WB_BSYM_ASSIGN || b->kind == WB_BSYM_UNPACK)
        name = first_output_name (b->outputs);
      if (name != NULL)
        return g_strconcat ("@", name, NULL);
    }
  return NULL;
}

char *
wb_region_key (const WbBsym *region)
{
  g_return_val_if_fail (region != NULL, NULL);
  return _wb_region_key_of_members ((const WbBsym *const *) region->subsymbols, region->n_subsymbols);
}

char *
wb_call_key (const WbBsym *call)
{
  const char *name;

  g_return_val_if_fail (call != NULL, NULL);
  if (wb_bsym_is_fusion (call))
    return wb_region_key (call);
  name = first_output_name (call->outputs);
  return name != NULL ? g_strconcat ("@", name, NULL) : NULL;
}

char *
wb_trace_get_call_key (const WbTrace *trace, const WbBsym *call)
{
  const char *key;

  g_return_val_if_fail (trace != NULL && call != NULL, NULL);
  if (trace->region_keys != NULL && call->name != NULL && wb_bsym_is_fusion (call) && (key = g_hash_table_lookup (trace->region_keys, call->name)) != NULL)
    return g_strdup (key);
  return wb_call_key (call);
}

const char *
wb_trace_get_unfused_from (const WbTrace *trace, const WbBsym *call)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (trace != NULL && call != NULL, NULL);
  if (trace->unfused_from == NULL || wb_bsym_is_fusion (call) || (key = wb_call_key (call)) == NULL)
    return NULL;
  return g_hash_table_lookup (trace->unfused_from, key);
}

/* "symbol(outputs)" of @b, appended to @items */
static void
add_member (GPtrArray *items, const WbBsym *b)
{
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  GString *s = g_string_new (b->name ? b->name : "?");

  wb_bsym_get_output_names (b, outs);
  g_string_append_c (s, '(');
  for (guint i = 0; i < outs->len; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "", (const char *) outs->pdata[i]);
  g_string_append_c (s, ')');
  g_ptr_array_add (items, g_string_free (s, FALSE));
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

char *
wb_call_contents (const WbBsym *call)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA1);

  g_return_val_if_fail (call != NULL, NULL);
  if (wb_bsym_is_fusion (call))
    {
      for (guint i = 0; i < call->n_subsymbols; i++)
        if (call->subsymbols[i]->kind == WB_BSYM_CALL || call->subsymbols[i]->kind == WB_BSYM_ASSIGN)
          add_member (items, call->subsymbols[i]);
    }
  else
    add_member (items, call);
  /* a set: the same bound symbols in another order are the same contents */
  g_ptr_array_sort (items, compare_strings);
  for (guint i = 0; i < items->len; i++)
    {
      g_checksum_update (sum, (const guchar *) items->pdata[i], -1);
      g_checksum_update (sum, (const guchar *) ";", 1);
    }
  return g_strndup (g_checksum_get_string (sum), 16);
}

const WbBsym *
wb_trace_find_region (const WbTrace *trace, const char *key_or_name)
{
  g_return_val_if_fail (trace != NULL && key_or_name != NULL, NULL);
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];

      if (!wb_bsym_is_fusion (b))
        continue;
      if (key_or_name[0] == '@')
        {
          g_autofree char *key = wb_trace_get_call_key (trace, b);

          if (g_strcmp0 (key, key_or_name) == 0)
            return b;
        }
      else if (g_strcmp0 (b->name, key_or_name) == 0)
        return b;
    }
  return NULL;
}

const char *
wb_assignment_resolve_key (const char *key, const WbTrace *const *traces, guint n_traces)
{
  g_return_val_if_fail (key != NULL, NULL);
  if (key[0] != '@')
    return key;
  for (guint i = 0; i < n_traces; i++)
    {
      const WbBsym *b = traces[i] ? wb_trace_find_region (traces[i], key) : NULL;

      if (b != NULL)
        return b->name;
    }
  return NULL;
}
