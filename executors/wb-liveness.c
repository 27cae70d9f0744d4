/* wb-liveness.c — which names each bound symbol of a body uses last, so that the interpreter frees a value
 * after its last use; computed once per body and kept by the program (WbLastUses)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-interpreter-private.h"

/* -- liveness -------------------------------------------------------------------------------- */

static void
collect_names (const WbValue *v, GHashTable *set)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (set, (gpointer) v->text);
  if (v->base)
    collect_names (v->base, set);
  for (guint i = 0; i < v->n_items; i++)
    collect_names (v->items[i], set);
  for (guint i = 0; i < v->n_kwargs; i++)
    collect_names (v->kwargs[i].value, set);
}

void
_wb_bsym_collect_uses (const WbBsym *b, GHashTable *set)
{
  for (guint i = 0; i < b->n_args; i++)
    collect_names (b->args[i], set);
  for (guint i = 0; i < b->n_kwargs; i++)
    collect_names (b->kwargs[i].value, set);
  if (b->kind != WB_BSYM_ASSIGN || b->value)
    collect_names (b->value, set);
  if (b->kind == WB_BSYM_ANNOTATION && b->name)
    g_hash_table_add (set, (gpointer) b->name);
  for (guint i = 0; i < b->n_subsymbols; i++)
    _wb_bsym_collect_uses (b->subsymbols[i], set);
}

/* For a body: last[i] = names whose last use is bsym i (NULL-terminated arrays, or NULL). */
static GPtrArray **
compute_last_uses (const WbBsym *const *body, guint n)
{
  GHashTable *last = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray **out = g_new0 (GPtrArray *, n);
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n; i++)
    {
      GHashTableIter it;
      gpointer       key;
      g_hash_table_remove_all (set);
      _wb_bsym_collect_uses (body[i], set);
      g_hash_table_iter_init (&it, set);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_hash_table_insert (last, key, GUINT_TO_POINTER (i + 1));
    }
  {
    GHashTableIter it;
    gpointer       key, val;
    g_hash_table_iter_init (&it, last);
    while (g_hash_table_iter_next (&it, &key, &val))
      {
        guint i = GPOINTER_TO_UINT (val) - 1;
        if (out[i] == NULL)
          out[i] = g_ptr_array_new ();
        g_ptr_array_add (out[i], key);
      }
  }
  g_hash_table_unref (set);
  g_hash_table_unref (last);
  return out;
}

void
_wb_last_uses_release (GPtrArray **last, guint n)
{
  for (guint i = 0; i < n; i++)
    if (last[i])
      g_ptr_array_unref (last[i]);
  g_free (last);
}

typedef struct
{
  GPtrArray **last;
  guint       n;
} BodyLastUses;

static void
body_last_uses_free (gpointer p)
{
  BodyLastUses *b = p;

  _wb_last_uses_release (b->last, b->n);
  g_free (b);
}

struct _WbLastUses
{
  GMutex      lock;   /* a program may run on several threads at once */
  GHashTable *bodies; /* body address -> BodyLastUses* */
};

WbLastUses *
_wb_last_uses_new (void)
{
  WbLastUses *c = g_new0 (WbLastUses, 1);

  g_mutex_init (&c->lock);
  c->bodies = g_hash_table_new_full (NULL, NULL, NULL, body_last_uses_free);
  return c;
}

void
_wb_last_uses_free (WbLastUses *c)
{
  if (c == NULL)
    return;
  g_hash_table_unref (c->bodies);
  g_mutex_clear (&c->lock);
  g_free (c);
}

GPtrArray **
_wb_last_uses_of (WbInterp *in, const WbBsym *const *body, guint n)
{
  BodyLastUses *b;

  if (in->last_uses == NULL)
    return compute_last_uses (body, n);
  g_mutex_lock (&in->last_uses->lock);
  if ((b = g_hash_table_lookup (in->last_uses->bodies, body)) == NULL)
    {
      b = g_new0 (BodyLastUses, 1);
      b->last = compute_last_uses (body, n);
      b->n = n;
      g_hash_table_insert (in->last_uses->bodies, (gpointer) body, b);
    }
  g_mutex_unlock (&in->last_uses->lock);
  return b->last;
}
