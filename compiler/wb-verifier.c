/* wb-verifier.c — re-derives every annotated type of a trace and checks names and fusion regions
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Types are propagated, not copied: function parameters take the types of their `# x: "…"` annotation
 * lines, prologue assignments and unpacked elements the types printed for them, and every call's outputs
 * the types its symbol's meta function derives from the DERIVED types of its inputs. Each type comment is
 * then compared with the derived type. A call whose symbol has no meta, or whose inputs have unknown
 * types, falls back to its annotation (and is counted in WbVerifyStats).
 *
 * Scopes: a call's subsymbols are checked in a child scope that sees the enclosing names; they may define
 * their parent's outputs again (the parent's outputs are defined only after its subsymbols). A fusion
 * region's body is a scope whose uses of outer names are its free inputs. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "wb-compiler.h"

typedef struct
{
  WbType  type;
  guint32 line;
  guint32 col;
  guint32 del_line; /* line of the `del` that ended it; 0 while live */
} Def;

typedef struct _Scope Scope;
struct _Scope
{
  Scope        *parent;
  GHashTable   *defs;        /* name -> Def* */
  const WbBsym *region;      /* the fusion call whose body this is, or NULL */
  GHashTable   *free_inputs; /* region scopes: name -> GUINT_TO_POINTER (first line using it) */
  GHashTable   *groups;      /* the top scope: process-group global -> its size (wb_dist_group_sizes_new) */
  GHashTable   *dtensor;     /* the top scope: DTensor mesh / placement global -> WbType (wb_dtensor_globals_new) */
};

typedef struct
{
  const WbBsym *bsym;
  char         *body;
} RegionSeen;

typedef struct
{
  const WbTrace *trace;
  WbVerifyFlags  flags;
  GPtrArray     *diags;
  WbVerifyStats *stats;
  GHashTable    *globals; /* names that are modules or builtins, not proxies */
  GHashTable    *regions; /* region name -> RegionSeen* */
  GHashTable    *unshard; /* (nullable) parameter -> GINT_TO_POINTER (group size): printed as a shard */
} Verifier;

/* The line of @bsym in the verified trace: computed stages share nodes, so lines belong to the trace. */
#define LINE(v, bsym) wb_trace_get_bsym_line ((v)->trace, (bsym))

/* ---- diagnostics -------------------------------------------------------------------------------- */

void
wb_diagnostic_free (WbDiagnostic *diagnostic)
{
  if (diagnostic == NULL)
    return;
  g_free (diagnostic->filename);
  g_free (diagnostic->message);
  g_free (diagnostic);
}

char *
wb_diagnostic_to_string (const WbDiagnostic *diagnostic)
{
  const char *sev;

  g_return_val_if_fail (diagnostic != NULL, NULL);
  sev = diagnostic->severity == WB_DIAGNOSTIC_ERROR ? "error" : diagnostic->severity == WB_DIAGNOSTIC_WARNING ? "warning"
                                                                                                              : "note";
  return g_strdup_printf ("%s:%u:%u: %s: %s", diagnostic->filename ? diagnostic->filename : "<string>", diagnostic->line,
                          diagnostic->col, sev, diagnostic->message);
}

guint
wb_diagnostics_count_errors (GPtrArray *diagnostics)
{
  guint n = 0;

  g_return_val_if_fail (diagnostics != NULL, 0);
  for (guint i = 0; i < diagnostics->len; i++)
    if (((WbDiagnostic *) g_ptr_array_index (diagnostics, i))->severity == WB_DIAGNOSTIC_ERROR)
      n++;
  return n;
}

static void diag (Verifier *v, WbDiagnosticSeverity severity, guint line, guint col, const char *format, ...) G_GNUC_PRINTF (5, 6);

static void
diag (Verifier *v, WbDiagnosticSeverity severity, guint line, guint col, const char *format, ...)
{
  WbDiagnostic *d = g_new0 (WbDiagnostic, 1);
  va_list       ap;

  d->severity = severity;
  d->filename = g_strdup (v->trace->filename ? v->trace->filename : "<string>");
  d->line = line;
  d->col = col;
  va_start (ap, format);
  d->message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_ptr_array_add (v->diags, d);
}

static int
diag_cmp (gconstpointer a, gconstpointer b)
{
  const WbDiagnostic *x = *(const WbDiagnostic **) a, *y = *(const WbDiagnostic **) b;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  return 0;
}

/* ---- scopes ------------------------------------------------------------------------------------- */

static Scope *
scope_new (Scope *parent, const WbBsym *region)
{
  Scope *s = g_new0 (Scope, 1);
  s->parent = parent;
  s->defs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  s->region = region;
  if (region != NULL)
    s->free_inputs = g_hash_table_new (g_str_hash, g_str_equal);
  return s;
}

static void
scope_free (Scope *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->defs);
  if (s->groups)
    g_hash_table_unref (s->groups);
  if (s->dtensor)
    g_hash_table_unref (s->dtensor);
  if (s->free_inputs)
    g_hash_table_unref (s->free_inputs);
  g_free (s);
}

/* Finds @name from @scope outwards. With @use_line, a lookup that leaves a region body records the name
 * as one of the region's free inputs. */
static Def *
scope_find (Scope *scope, const char *name, guint use_line)
{
  for (Scope *s = scope; s != NULL; s = s->parent)
    {
      Def *d = g_hash_table_lookup (s->defs, name);
      if (d != NULL)
        return d;
      if (s->free_inputs != NULL && use_line != 0 && !g_hash_table_contains (s->free_inputs, name))
        g_hash_table_insert (s->free_inputs, (gpointer) name, GUINT_TO_POINTER (use_line));
    }
  return NULL;
}

static gboolean
lookup_type (const char *name, WbType *out, gpointer user_data)
{
  Def   *d = scope_find (user_data, name, 0);
  Scope *top = user_data;
  if (d == NULL)
    {
      /* a process-group global: an int holding the group's size, for the collectives' metas */
      const WbType *dt;
      while (top->parent != NULL)
        top = top->parent;
      /* a DTensor mesh or placement global: the type its annotated calls give it */
      if (top->dtensor != NULL && (dt = g_hash_table_lookup (top->dtensor, name)) != NULL)
        {
          *out = *dt;
          return TRUE;
        }
      if (top->groups == NULL || !g_hash_table_contains (top->groups, name))
        return FALSE;
      memset (out, 0, sizeof *out);
      out->kind = WB_TYPE_INT;
      out->has_value = TRUE;
      out->int_value = GPOINTER_TO_INT (g_hash_table_lookup (top->groups, name));
      return TRUE;
    }
  *out = d->type;
  return TRUE;
}

static void
define (Verifier *v, Scope *scope, const char *name, const WbType *type, guint line, guint col)
{
  Def *d;

  if (name == NULL || strcmp (name, "_") == 0)
    return;
  d = g_hash_table_lookup (scope->defs, name);
  if (d != NULL)
    diag (v, WB_DIAGNOSTIC_ERROR, line, col, "'%s' is defined twice (first at line %u)", name, d->line);
  else if ((d = scope_find (scope->parent, name, 0)) != NULL && d->del_line == 0)
    diag (v, WB_DIAGNOSTIC_ERROR, line, col, "'%s' is defined again (it is already defined at line %u)", name, d->line);
  d = g_new0 (Def, 1);
  if (type != NULL)
    d->type = *type;
  d->line = line;
  d->col = col;
  g_hash_table_replace (scope->defs, (gpointer) name, d);
}

/* ---- values ------------------------------------------------------------------------------------- */

/* The output names of a statement, flattened, "_" kept so positions line up with the meta's outputs. */
static void
collect_outputs (const WbValue *v, GPtrArray *names)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_ptr_array_add (names, (gpointer) v->text);
  else if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    for (guint i = 0; i < v->n_items; i++)
      collect_outputs (v->items[i], names);
}

static void
collect_names (const WbValue *v, GHashTable *set)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (set, (gpointer) v->text);
  else if (v->kind == WB_VALUE_TUPLE || v->kind == WB_VALUE_LIST)
    for (guint i = 0; i < v->n_items; i++)
      collect_names (v->items[i], set);
}

static void
check_uses (Verifier *v, Scope *scope, const WbValue *value, const WbBsym *b)
{
  if (value == NULL)
    return;
  switch (value->kind)
    {
    case WB_VALUE_NAME:
      {
        const char *name = value->text;
        Def        *d;
        if (strcmp (name, "_") == 0)
          return;
        d = scope_find (scope, name, LINE (v, b));
        if (d != NULL)
          {
            if (d->del_line != 0)
              diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), value->col ? value->col : b->col,
                    "'%s' is used after `del` at line %u", name, d->del_line);
          }
        else if (!g_hash_table_contains (v->globals, name) && name[0] != '_')
          diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), value->col ? value->col : b->col, "'%s' is used but never defined", name);
        return;
      }
    case WB_VALUE_ATTRIBUTE:
    case WB_VALUE_NEG:
    case WB_VALUE_STAR:
    case WB_VALUE_STARSTAR:
      check_uses (v, scope, value->base, b);
      return;
    case WB_VALUE_SUBSCRIPT:
    case WB_VALUE_CALL:
      check_uses (v, scope, value->base, b);
      G_GNUC_FALLTHROUGH;
    case WB_VALUE_TUPLE:
    case WB_VALUE_LIST:
    case WB_VALUE_DICT:
    case WB_VALUE_SLICE:
      for (guint i = 0; i < value->n_items; i++)
        check_uses (v, scope, value->items[i], b);
      for (guint i = 0; i < value->n_kwargs; i++)
        check_uses (v, scope, value->kwargs[i].value, b);
      return;
    default:
      return;
    }
}

static void
mismatch (Verifier *v, const WbBsym *b, const char *name, const WbType *annotated, const WbType *derived, const char *how)
{
  g_autofree char *x = wb_type_to_string (annotated), *y = wb_type_to_string (derived);
  diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "type of '%s' is annotated \"%s\" but %s \"%s\"", name, x, how, y);
}

/* ---- statements --------------------------------------------------------------------------------- */

static void verify_body (Verifier *v, WbBsym *const *body, guint n, Scope *scope);

static void
check_region (Verifier *v, const WbBsym *b, Scope *body_scope, GPtrArray *outputs, GArray *derived)
{
  g_autoptr (GHashTable) args = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer       key, value;
  g_autoptr (GString) text = g_string_new (NULL);
  RegionSeen *seen;

  for (guint i = 0; i < b->n_args; i++)
    collect_names (b->args[i], args);
  for (guint i = 0; i < b->n_kwargs; i++)
    collect_names (b->kwargs[i].value, args);

  /* inputs: the body's free names must be arguments; unused arguments are suspicious */
  g_hash_table_iter_init (&it, body_scope->free_inputs);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (!g_hash_table_contains (args, key) && !g_hash_table_contains (v->globals, key) && ((const char *) key)[0] != '_')
      diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "region %s uses '%s' (line %u) but does not take it as an input",
            b->name, (const char *) key, GPOINTER_TO_UINT (value));
  g_hash_table_iter_init (&it, args);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (!g_hash_table_contains (body_scope->free_inputs, key))
      diag (v, WB_DIAGNOSTIC_WARNING, LINE (v, b), b->col, "region %s takes '%s' but its body does not use it", b->name,
            (const char *) key);

  /* outputs: each must be produced by the body; its type is the body's */
  for (guint i = 0; i < outputs->len; i++)
    {
      const char *name = g_ptr_array_index (outputs, i);
      Def        *d = g_hash_table_lookup (body_scope->defs, name);
      WbType      t = { 0 };
      if (strcmp (name, "_") != 0 && d == NULL)
        diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "region %s lists output '%s', which its body does not produce",
              b->name, name);
      else if (d != NULL)
        t = d->type;
      g_array_append_val (derived, t);
    }

  /* one name, one body: two different regions with one name run the wrong compiled function */
  for (guint i = 0; i < b->n_subsymbols; i++)
    wb_bsym_print (b->subsymbols[i], 1, text);
  seen = g_hash_table_lookup (v->regions, b->name);
  if (seen == NULL)
    {
      seen = g_new0 (RegionSeen, 1);
      seen->bsym = b;
      seen->body = g_strdup (text->str);
      g_hash_table_insert (v->regions, (gpointer) b->name, seen);
    }
  else if (strcmp (seen->body, text->str) != 0)
    {
      diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col,
            "two different fusion regions are named %s (lines %u and %u): calls of the name run one compiled function",
            b->name, LINE (v, seen->bsym), LINE (v, b));
      diag (v, WB_DIAGNOSTIC_NOTE, LINE (v, seen->bsym), seen->bsym->col, "the first region named %s is here", b->name);
    }
}

static void
note_trusted (Verifier *v, const WbBsym *b, gboolean no_meta)
{
  if (v->stats == NULL)
    return;
  v->stats->n_trusted++;
  if (!no_meta)
    return;
  v->stats->n_no_meta++;
  if (v->stats->no_meta_symbols != NULL)
    {
      gpointer old = g_hash_table_lookup (v->stats->no_meta_symbols, b->name);
      g_hash_table_replace (v->stats->no_meta_symbols, g_strdup (b->name), GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
    }
}

static const WbType *annotated_type (const WbType *type);

static void
verify_call (Verifier *v, const WbBsym *b, Scope *scope)
{
  gboolean types = !(v->flags & WB_VERIFY_NO_TYPES);
  g_autoptr (GPtrArray) outputs = g_ptr_array_new ();
  g_autoptr (GArray) derived = g_array_new (FALSE, TRUE, sizeof (WbType));
  gboolean derived_ok = FALSE;
  Scope   *child = NULL;

  if (v->stats)
    v->stats->n_calls++;
  for (guint i = 0; i < b->n_args; i++)
    check_uses (v, scope, b->args[i], b);
  for (guint i = 0; i < b->n_kwargs; i++)
    check_uses (v, scope, b->kwargs[i].value, b);
  collect_outputs (b->outputs, outputs);

  if (wb_bsym_is_fusion (b))
    {
      child = scope_new (scope, b);
      verify_body (v, b->subsymbols, b->n_subsymbols, child);
      check_region (v, b, child, outputs, derived);
      derived_ok = TRUE;
      for (guint i = 0; i < derived->len; i++)
        if (g_array_index (derived, WbType, i).kind == WB_TYPE_UNKNOWN && strcmp (g_ptr_array_index (outputs, i), "_") != 0)
          derived_ok = FALSE;
      if (v->stats && derived_ok)
        v->stats->n_derived++;
      else if (!derived_ok)
        note_trusted (v, b, FALSE);
    }
  else
    {
      if (b->n_subsymbols > 0)
        {
          child = scope_new (scope, NULL);
          verify_body (v, b->subsymbols, b->n_subsymbols, child);
        }
      if (wb_symbol_is_opaque (b->symbol))
        {
          diag (v, WB_DIAGNOSTIC_WARNING, LINE (v, b), b->col, "unknown symbol '%s': no meta, types taken from the annotations",
                b->name);
          note_trusted (v, b, TRUE);
        }
      else if (types && b->symbol != NULL)
        {
          g_autoptr (GError) error = NULL;
          derived_ok = wb_symbol_infer (b->symbol, b->args, b->n_args, b->kwargs, b->n_kwargs, lookup_type, scope, derived,
                                        &error);
          if (derived_ok)
            {
              if (v->stats)
                v->stats->n_derived++;
            }
          else if (g_error_matches (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_NO_META))
            note_trusted (v, b, TRUE);
          else if (g_error_matches (error, WB_SYMBOL_ERROR, WB_SYMBOL_ERROR_UNKNOWN))
            note_trusted (v, b, FALSE);
          else
            {
              diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "%s", error ? error->message : "meta function failed");
              note_trusted (v, b, FALSE);
            }
        }
    }

  /* the printed outputs and the derived ones line up one to one */
  if (derived_ok && outputs->len > 0 && derived->len != outputs->len)
    {
      if (derived->len == 1 && g_array_index (derived, WbType, 0).kind == WB_TYPE_ANY)
        {
          WbType any = g_array_index (derived, WbType, 0);
          while (derived->len < outputs->len)
            g_array_append_val (derived, any);
        }
      else
        {
          diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "%u outputs are printed but %s gives %u", outputs->len, b->name,
                derived->len);
          derived_ok = FALSE;
        }
    }

  if (b->has_type && outputs->len > 0)
    {
      const char *out0 = g_ptr_array_index (outputs, 0);
      if (b->type_name != NULL && strcmp (b->type_name, out0) != 0)
        diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "the type comment names '%s' but the output is '%s'", b->type_name, out0);
      if (types && derived_ok)
        {
          const WbType *d = &g_array_index (derived, WbType, 0);
          if (v->stats)
            v->stats->n_compared++;
          if (!b->type.uninterpreted && wb_type_check_shape (&b->type, NULL) && !wb_type_equal (&b->type, d))
            mismatch (v, b, out0, &b->type, d, wb_bsym_is_fusion (b) ? "the region's body derives" : "its inputs derive");
        }
    }

  /* subsymbols that define the parent's outputs must agree with the parent */
  if (types && derived_ok && child != NULL && child->region == NULL)
    for (guint i = 0; i < outputs->len && i < derived->len; i++)
      {
        const char   *name = g_ptr_array_index (outputs, i);
        Def          *d = g_hash_table_lookup (child->defs, name);
        const WbType *t = &g_array_index (derived, WbType, i);
        if (d != NULL && d->type.kind != WB_TYPE_UNKNOWN && t->kind != WB_TYPE_UNKNOWN && !wb_type_equal (&d->type, t))
          {
            g_autofree char *x = wb_type_to_string (&d->type), *y = wb_type_to_string (t);
            diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "the subsymbols give '%s' type \"%s\" but %s derives \"%s\"", name, x,
                  b->name, y);
          }
      }

  for (guint i = 0; i < outputs->len; i++)
    {
      const WbType *t = NULL;
      if (derived_ok && i < derived->len)
        t = &g_array_index (derived, WbType, i);
      else if (b->has_type && i == 0)
        t = annotated_type (&b->type);
      else if (child != NULL && child->region == NULL)
        {
          /* no meta and no annotation: the subsymbols that define the output type it */
          Def *d = g_hash_table_lookup (child->defs, g_ptr_array_index (outputs, i));
          t = d != NULL ? &d->type : NULL;
        }
      define (v, scope, g_ptr_array_index (outputs, i), t, LINE (v, b), b->col);
    }
  scope_free (child);
}

/* The type an annotation gives its name: none (unknown) when the annotation is kept as text or its
 * shape cannot exist (reported by check_annotation()). */
static const WbType *
annotated_type (const WbType *type)
{
  static const WbType unknown = { 0 };
  return type->uninterpreted || !wb_type_check_shape (type, NULL) ? &unknown : type;
}

/* Every annotation passes here once: one kept as text is a warning, a shape that cannot exist (a
 * negative dimension, an element count or byte size over 64 bits: wb_type_check_shape()) an error. */
static void
check_annotation (Verifier *v, const WbBsym *b)
{
  g_autofree char *why = NULL;
  if (!b->has_type)
    return;
  if (b->type.uninterpreted)
    diag (v, WB_DIAGNOSTIC_WARNING, LINE (v, b), b->col, "annotation \"%s\" is not understood: kept as text, not checked",
          b->type.text);
  else if (!wb_type_check_shape (&b->type, &why))
    {
      g_autofree char *text = wb_type_to_string (&b->type);
      diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "annotation \"%s\" is an impossible shape: %s", text, why);
    }
}

static void
verify_bsym (Verifier *v, const WbBsym *b, Scope *scope)
{
  check_annotation (v, b);
  switch (b->kind)
    {
    case WB_BSYM_CALL:
      verify_call (v, b, scope);
      break;
    case WB_BSYM_ANNOTATION:
      {
        Def *d = b->name ? scope_find (scope, b->name, LINE (v, b)) : NULL;
        if (d == NULL)
          {
            diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), b->col, "'%s' is annotated but not defined", b->name ? b->name : "?");
            break;
          }
        if (!b->has_type)
          break;
        if (b->type.uninterpreted || !wb_type_check_shape (&b->type, NULL))
          break;
        if (d->type.kind == WB_TYPE_UNKNOWN)
          {
            d->type = b->type;
            /* a FULLY_SHARDED parameter Thunder printed with its shard's shape (see unsharded_params) */
            if (v->unshard != NULL && d->type.kind == WB_TYPE_TENSOR && d->type.rank > 0 && g_hash_table_contains (v->unshard, b->name))
              d->type.shape[0] *= GPOINTER_TO_INT (g_hash_table_lookup (v->unshard, b->name));
          }
        else if (!(v->flags & WB_VERIFY_NO_TYPES) && !wb_type_equal (&b->type, &d->type))
          mismatch (v, b, b->name, &b->type, &d->type, "it was derived as");
        break;
      }
    case WB_BSYM_ASSIGN:
      {
        g_autoptr (GPtrArray) outputs = g_ptr_array_new ();
        check_uses (v, scope, b->value, b);
        collect_outputs (b->outputs, outputs);
        if (outputs->len == 0 && b->name != NULL)
          g_ptr_array_add (outputs, (gpointer) b->name);
        for (guint i = 0; i < outputs->len; i++)
          define (v, scope, g_ptr_array_index (outputs, i), b->has_type && outputs->len == 1 ? annotated_type (&b->type) : NULL, LINE (v, b), b->col);
        break;
      }
    case WB_BSYM_UNPACK:
      {
        g_autoptr (GPtrArray) outputs = g_ptr_array_new ();
        check_uses (v, scope, b->value, b);
        collect_outputs (b->outputs, outputs);
        for (guint i = 0; i < outputs->len; i++)
          define (v, scope, g_ptr_array_index (outputs, i), NULL, LINE (v, b), b->col);
        break;
      }
    case WB_BSYM_DEL:
      for (guint i = 0; i < b->n_args; i++)
        {
          const WbValue *a = b->args[i];
          Def           *d;
          if (a == NULL || a->kind != WB_VALUE_NAME)
            continue;
          d = scope_find (scope, a->text, LINE (v, b));
          if (d == NULL)
            diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), a->col ? a->col : b->col, "`del` of '%s', which is not defined", a->text);
          else if (d->del_line != 0)
            diag (v, WB_DIAGNOSTIC_ERROR, LINE (v, b), a->col ? a->col : b->col, "'%s' is deleted twice (first at line %u)", a->text,
                  d->del_line);
          else
            d->del_line = LINE (v, b);
        }
      break;
    case WB_BSYM_RETURN:
      check_uses (v, scope, b->value, b);
      break;
    case WB_BSYM_COMMENT:
    case WB_BSYM_BLANK:
    default:
      break;
    }
}

static void
verify_body (Verifier *v, WbBsym *const *body, guint n, Scope *scope)
{
  for (guint i = 0; i < n; i++)
    if (body[i] != NULL)
      verify_bsym (v, body[i], scope);
}

/* Module and builtin names a printed trace refers to without defining them. */
static void
add_globals (Verifier *v)
{
  static const char *const builtins[] = {
    "torch",
    "thunder",
    "ltorch",
    "prims",
    "dtypes",
    "devices",
    "Tensor",
    "globals",
    "float",
    "int",
    "bool",
    "complex",
    "slice",
    "str",
    "tuple",
    "list",
    "dict",
    "len",
    "math",
    "operator",
    "builtins",
    "None",
    "True",
    "False",
    "Ellipsis",
  };

  for (guint i = 0; i < G_N_ELEMENTS (builtins); i++)
    g_hash_table_add (v->globals, g_strdup (builtins[i]));
  for (guint i = 0; i < v->trace->n_header; i++)
    {
      const WbHeaderLine *h = &v->trace->header[i];
      g_auto (GStrv) words = NULL;
      guint n;
      if (h->kind != WB_HEADER_IMPORT || h->text == NULL)
        continue;
      /* import a.b as c | import a.b | from a import b */
      words = g_strsplit_set (h->text, " \t,", -1);
      n = g_strv_length (words);
      for (guint k = 0; k < n; k++)
        {
          char *w = words[k];
          char *dot;
          if (*w == '\0' || strcmp (w, "import") == 0 || strcmp (w, "from") == 0 || strcmp (w, "as") == 0)
            continue;
          if (k + 1 < n && strcmp (words[k + 1], "as") == 0)
            continue;
          if (k > 0 && strcmp (words[0], "from") == 0 && k == 1)
            continue;
          dot = strchr (w, '.');
          if (dot != NULL)
            *dot = '\0';
          if (!g_hash_table_contains (v->globals, w))
            g_hash_table_add (v->globals, g_strdup (w));
        }
    }
}

/* Marks in @read the names a communication call of @body (at any depth) reads. */
static void
communication_reads (GHashTable *read, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->kind == WB_BSYM_CALL && b->symbol != NULL && wb_symbol_get_category (b->symbol) == WB_SYMBOL_CATEGORY_DISTRIBUTED)
        for (guint a = 0; a < b->n_args; a++)
          if (b->args[a]->kind == WB_VALUE_NAME)
            g_hash_table_add (read, (gpointer) b->args[a]->text);
      communication_reads (read, b->subsymbols, b->n_subsymbols);
    }
}

/* The parameters of @trace that @sharded names (FULLY_SHARDED elsewhere in the set) and that no collective
 * of @trace reads: Thunder's FSDP transform changes the parameters' proxies in place, so the traces it
 * printed before its "fsdp pass" annotate this rank's shard while their ops were traced with the whole
 * parameter. NULL when there is none. */
static GHashTable *
unsharded_params (const WbTrace *trace, GHashTable *sharded)
{
  g_autoptr (GHashTable) read = NULL;
  GHashTable *out = NULL;

  if (sharded == NULL || g_hash_table_size (sharded) == 0)
    return NULL;
  read = g_hash_table_new (g_str_hash, g_str_equal);
  communication_reads (read, trace->body, trace->n_body);
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      if (p == NULL || p->kind != WB_VALUE_NAME || !g_hash_table_contains (sharded, p->text) || g_hash_table_contains (read, p->text))
        continue;
      if (out == NULL)
        out = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (out, (gpointer) p->text, g_hash_table_lookup (sharded, p->text));
    }
  return out;
}

GPtrArray *
wb_trace_verify_with_stats (const WbTrace *trace, WbVerifyFlags flags, WbVerifyStats *stats)
{
  return wb_trace_verify_full (trace, flags, NULL, stats);
}

GPtrArray *
wb_trace_verify_full (const WbTrace *trace, WbVerifyFlags flags, GHashTable *sharded, WbVerifyStats *stats)
{
  Verifier v = { 0 };
  Scope   *top;
  guint    def_line;

  g_return_val_if_fail (trace != NULL, NULL);
  v.trace = trace;
  v.unshard = unsharded_params (trace, sharded);
  v.flags = flags;
  v.diags = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_diagnostic_free);
  v.stats = stats;
  v.globals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  v.regions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  add_globals (&v);

  top = scope_new (NULL, NULL);
  top->groups = wb_dist_group_sizes_new (trace);
  top->dtensor = wb_dtensor_globals_new (trace);
  def_line = trace->n_body > 0 && trace->body[0]->line > 0 ? trace->body[0]->line - 1 : trace->first_line;
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue *p = trace->params[i];
      if (p != NULL && (p->kind == WB_VALUE_STAR || p->kind == WB_VALUE_STARSTAR))
        p = p->base;
      if (p != NULL && p->kind == WB_VALUE_NAME)
        define (&v, top, p->text, NULL, def_line, p->col);
    }
  verify_body (&v, trace->body, trace->n_body, top);
  scope_free (top);

  {
    GHashTableIter it;
    gpointer       value;
    g_hash_table_iter_init (&it, v.regions);
    while (g_hash_table_iter_next (&it, NULL, &value))
      g_free (((RegionSeen *) value)->body);
  }
  g_hash_table_unref (v.regions);
  g_hash_table_unref (v.globals);
  g_clear_pointer (&v.unshard, g_hash_table_unref);
  g_ptr_array_sort (v.diags, diag_cmp);
  return v.diags;
}

GPtrArray *
wb_trace_verify (const WbTrace *trace, WbVerifyFlags flags)
{
  return wb_trace_verify_with_stats (trace, flags, NULL);
}
