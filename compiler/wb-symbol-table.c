/* wb-symbol-table.c — the symbol table built from compiler/symbols/ (the .def files): lookup, signatures, binding
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-meta-private.h"

/* Rows as written in the .def files, before signatures are parsed and aliases resolved. */
typedef struct
{
  WbSymbolId       id;
  const char      *name;
  WbSymbolModule   module;
  WbSymbolCategory category;
  WbExecutorId     executor; /* the registry's row (wb-executor-info.def) */
  const char      *signature;
  WbMetaFunc       meta;
  int              meta_arg;
  int              target; /* alias target id, or -1 */
} Row;

#define CAT(c) WB_SYMBOL_CATEGORY_##c

static const Row rows[] = {
#define WB_PRIM(id, nm, cat, sig, meta, arg) \
  { WB_SYMBOL_PRIMS_##id, "prims." nm, WB_SYMBOL_MODULE_PRIMS, CAT (cat), WB_EXECUTOR_ID_NONE, sig, _wb_meta_##meta, arg, -1 },
#define WB_DIST_PRIM(id, nm, sig, meta, arg) \
  { WB_SYMBOL_DIST_##id, "thunder.distributed.prims." nm, WB_SYMBOL_MODULE_DISTRIBUTED, CAT (DISTRIBUTED), WB_EXECUTOR_ID_NONE, sig, _wb_meta_##meta, arg, -1 },
#define WB_DTENSOR_PRIM(id, nm, cat, sig, meta, arg) \
  { WB_SYMBOL_DTENSOR_##id, WB_DTENSOR_PREFIX nm, WB_SYMBOL_MODULE_DTENSOR, CAT (cat), WB_EXECUTOR_ID_NONE, sig, _wb_meta_##meta, arg, -1 },
#define WB_LTORCH(id, nm, cat, sig, meta, arg) \
  { WB_SYMBOL_LTORCH_##id, "ltorch." nm, WB_SYMBOL_MODULE_LTORCH, CAT (cat), WB_EXECUTOR_ID_NONE, sig, _wb_meta_##meta, arg, -1 },
#define WB_TORCH(id, nm, target) \
  { WB_SYMBOL_TORCH_##id, nm, WB_SYMBOL_MODULE_TORCH, 0, WB_EXECUTOR_ID_TORCH, NULL, NULL, 0, WB_SYMBOL_##target },
#define WB_EXECUTOR_OP(id, nm, exec, cat, sig, meta, arg) \
  { WB_SYMBOL_EXEC_##id, nm, WB_SYMBOL_MODULE_EXECUTOR, CAT (cat), WB_EXECUTOR_ID_##exec, sig, _wb_meta_##meta, arg, -1 },
#define WB_EXECUTOR_ALIAS(id, nm, exec, target) \
  { WB_SYMBOL_EXEC_##id, nm, WB_SYMBOL_MODULE_EXECUTOR, 0, WB_EXECUTOR_ID_##exec, NULL, NULL, 0, WB_SYMBOL_##target },
#define WB_FUSION(id, prefix, exec) \
  { WB_SYMBOL_FUSION_##id, prefix, WB_SYMBOL_MODULE_FUSION, CAT (FUSION), WB_EXECUTOR_ID_##exec, "*args", NULL, 0, -1 },
#include "symbols/wb-symbols-all.def"
#undef WB_PRIM
#undef WB_DIST_PRIM
#undef WB_DTENSOR_PRIM
#undef WB_LTORCH
#undef WB_TORCH
#undef WB_EXECUTOR_OP
#undef WB_EXECUTOR_ALIAS
#undef WB_FUSION
};

/* Counts per table, checked at compile time: every prim of thunder/core/prims.py (PrimIDs) has a row. */
enum
{
  N_PRIMS = 0
#define WB_PRIM(id, nm, cat, sig, meta, arg) +1
#define WB_DIST_PRIM(id, nm, sig, meta, arg)
#define WB_DTENSOR_PRIM(id, nm, cat, sig, meta, arg)
#define WB_LTORCH(id, nm, cat, sig, meta, arg)
#define WB_TORCH(id, nm, target)
#define WB_EXECUTOR_OP(id, nm, exec, cat, sig, meta, arg)
#define WB_EXECUTOR_ALIAS(id, nm, exec, target)
#define WB_FUSION(id, prefix, exec)
#include "symbols/wb-symbols-all.def"
#undef WB_PRIM
#undef WB_DIST_PRIM
#undef WB_DTENSOR_PRIM
#undef WB_LTORCH
#undef WB_TORCH
#undef WB_EXECUTOR_OP
#undef WB_EXECUTOR_ALIAS
#undef WB_FUSION
};

G_STATIC_ASSERT (N_PRIMS == 171);
G_STATIC_ASSERT (G_N_ELEMENTS (rows) == WB_N_SYMBOLS);

typedef struct
{
  const char *s;
  gsize       len;
} Key;

typedef struct
{
  WbSymbol    symbols[WB_N_SYMBOLS];
  GHashTable *by_name; /* Key* -> WbSymbol* */
  Key        *keys;
  const char *names[WB_N_SYMBOLS]; /* printed names, fusions excluded */
  guint       n_names;
} Table;

static Table *table;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;
  guint32    h = 2166136261u;
  for (gsize i = 0; i < k->len; i++)
    h = (h ^ (guint8) k->s[i]) * 16777619u;
  return h;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;
  return x->len == y->len && memcmp (x->s, y->s, x->len) == 0;
}

/* ---- signatures --------------------------------------------------------------------------------- */

static WbValue *
new_value (WbValueKind kind, const char *text)
{
  WbValue *v = g_new0 (WbValue, 1);
  v->kind = kind;
  v->text = g_intern_string (text);
  return v;
}

/* A default value as written in a signature: None, True, False, numbers, 'strings', or an opaque name
 * (torch.strided) kept as a NAME. */
static const WbValue *
parse_default (const char *text)
{
  WbValue *v;
  char    *end = NULL;

  if (strcmp (text, "None") == 0)
    return new_value (WB_VALUE_NONE, text);
  if (strcmp (text, "True") == 0 || strcmp (text, "False") == 0)
    {
      v = new_value (WB_VALUE_BOOL, text);
      v->v.b = text[0] == 'T';
      return v;
    }
  if (text[0] == '\'' || text[0] == '"')
    {
      gsize            n = strlen (text);
      g_autofree char *contents = g_strndup (text + 1, n >= 2 ? n - 2 : 0);
      v = new_value (WB_VALUE_STRING, text);
      v->v.s = g_intern_string (contents);
      return v;
    }
  if (g_ascii_isdigit (text[0]) || ((text[0] == '-' || text[0] == '.') && g_ascii_isdigit (text[1])))
    {
      gint64 i = g_ascii_strtoll (text, &end, 10);
      if (end != NULL && *end == '\0')
        {
          v = new_value (WB_VALUE_INT, text);
          v->v.i = i;
          return v;
        }
      v = new_value (WB_VALUE_FLOAT, text);
      v->v.f = g_ascii_strtod (text, NULL);
      return v;
    }
  return new_value (WB_VALUE_NAME, text);
}

/* Splits a Python parameter list at top-level commas (defaults may hold strings and brackets). */
static void
parse_signature (WbSymbol *sym)
{
  GArray     *params = g_array_new (FALSE, TRUE, sizeof (WbParam));
  const char *s = sym->signature;
  gboolean    after_star = FALSE, seen_slash = FALSE;
  gsize       start = 0, i, len = strlen (s);
  int         depth = 0;
  char        quote = 0;

  for (i = 0; i <= len; i++)
    {
      char c = s[i];
      if (quote)
        {
          if (c == quote)
            quote = 0;
          continue;
        }
      if (c == '\'' || c == '"')
        quote = c;
      else if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        depth--;
      else if ((c == ',' && depth == 0) || c == '\0')
        {
          g_autofree char *part = g_strstrip (g_strndup (s + start, i - start));
          WbParam          p = { 0 };
          char            *eq;
          start = i + 1;
          if (part[0] == '\0')
            continue;
          if (strcmp (part, "/") == 0)
            {
              for (guint k = 0; k < params->len; k++)
                g_array_index (params, WbParam, k).kind = WB_PARAM_POSITIONAL_ONLY;
              seen_slash = TRUE;
              continue;
            }
          if (strcmp (part, "*") == 0)
            {
              after_star = TRUE;
              continue;
            }
          if (g_str_has_prefix (part, "**"))
            {
              p.name = g_intern_string (part + 2);
              p.kind = WB_PARAM_VAR_KEYWORD;
            }
          else if (part[0] == '*')
            {
              p.name = g_intern_string (part + 1);
              p.kind = WB_PARAM_VAR_POSITIONAL;
              after_star = TRUE;
            }
          else
            {
              eq = strchr (part, '=');
              if (eq != NULL)
                {
                  *eq = '\0';
                  p.default_value = parse_default (g_strstrip (eq + 1));
                }
              p.name = g_intern_string (g_strstrip (part));
              p.kind = after_star ? WB_PARAM_KEYWORD_ONLY : WB_PARAM_POSITIONAL_OR_KEYWORD;
            }
          g_array_append_val (params, p);
        }
    }
  (void) seen_slash;
  g_assert (params->len <= WB_META_MAX_PARAMS);
  sym->n_params = params->len;
  sym->params = (WbParam *) g_array_free (params, FALSE);
}

static gpointer
build_table (gpointer data)
{
  Table *t = g_new0 (Table, 1);

  t->by_name = g_hash_table_new (key_hash, key_equal);
  t->keys = g_new0 (Key, WB_N_SYMBOLS);
  for (guint i = 0; i < WB_N_SYMBOLS; i++)
    {
      const Row *r = &rows[i];
      WbSymbol  *sym = &t->symbols[i];
      g_assert ((guint) r->id == i);
      sym->id = r->id;
      sym->name = r->name;
      sym->module = r->module;
      sym->category = r->category;
      sym->executor = r->executor != WB_EXECUTOR_ID_NONE ? wb_executor_info_get_name (wb_executor_info_get (r->executor)) : NULL;
      sym->signature = r->signature;
      sym->meta = r->meta;
      sym->meta_arg = r->meta_arg;
      if (r->target < 0)
        parse_signature (sym);
    }
  /* aliases share their target's signature, category and meta */
  for (guint i = 0; i < WB_N_SYMBOLS; i++)
    {
      const Row *r = &rows[i];
      WbSymbol  *sym = &t->symbols[i];
      if (r->target >= 0)
        {
          const WbSymbol *target = &t->symbols[r->target];
          while (target->like != NULL)
            target = target->like;
          sym->like = target;
          sym->category = target->category;
          sym->signature = target->signature;
          sym->meta = target->meta;
          sym->meta_arg = target->meta_arg;
          sym->params = target->params;
          sym->n_params = target->n_params;
        }
      if (sym->module != WB_SYMBOL_MODULE_FUSION)
        {
          t->keys[i].s = sym->name;
          t->keys[i].len = strlen (sym->name);
          g_assert (!g_hash_table_contains (t->by_name, &t->keys[i]));
          g_hash_table_insert (t->by_name, &t->keys[i], sym);
          t->names[t->n_names++] = sym->name;
        }
    }
  return t;
}

static inline Table *
get_table (void)
{
  static GOnce once = G_ONCE_INIT;
  if (G_LIKELY (table != NULL))
    return table;
  table = g_once (&once, build_table, NULL);
  return table;
}

/* ---- public queries ----------------------------------------------------------------------------- */

static const WbSymbol *
lookup_fusion (const char *name, gsize len)
{
  Table *t = get_table ();
  for (guint i = WB_SYMBOL_FUSION_TORCHCOMPILE; i < WB_N_SYMBOLS; i++)
    {
      const WbSymbol *sym = &t->symbols[i];
      gsize           plen = strlen (sym->name);
      gsize           k;
      if (len <= plen || memcmp (name, sym->name, plen) != 0)
        continue;
      for (k = plen; k < len && g_ascii_isdigit (name[k]); k++)
        ;
      if (k == len)
        return sym;
    }
  return NULL;
}

const WbSymbol *
wb_symbol_lookup (const char *name, gsize len)
{
  Table          *t;
  Key             key;
  const WbSymbol *sym;

  g_return_val_if_fail (name != NULL, NULL);
  t = get_table ();
  key.s = name;
  key.len = len;
  sym = g_hash_table_lookup (t->by_name, &key);
  if (sym != NULL)
    return sym;
  /* fusion names end in a digit: TorchCompile0, nvFusion12, CUDAGraph3 */
  if (len > 0 && g_ascii_isdigit (name[len - 1]))
    return lookup_fusion (name, len);
  return NULL;
}

/* ---- opaque symbols ---------------------------------------------------------------------------- */

static WbSymbolModule
module_from_prefix (const char *name)
{
  if (g_str_has_prefix (name, "prims."))
    return WB_SYMBOL_MODULE_PRIMS;
  if (g_str_has_prefix (name, "ltorch."))
    return WB_SYMBOL_MODULE_LTORCH;
  if (g_str_has_prefix (name, "thunder.distributed.prims."))
    return WB_SYMBOL_MODULE_DISTRIBUTED;
  if (g_str_has_prefix (name, WB_DTENSOR_PREFIX))
    return WB_SYMBOL_MODULE_DTENSOR;
  if (g_str_has_prefix (name, "torch.") || g_str_has_prefix (name, "Tensor."))
    return WB_SYMBOL_MODULE_TORCH;
  return WB_SYMBOL_MODULE_EXECUTOR;
}

const WbSymbol *
wb_symbol_get_opaque (const char *name, gsize len)
{
  static GMutex      lock;
  static GHashTable *opaque; /* name -> WbSymbol*, kept for the process (the names are its own copies: a
                              * file's unknown names must not grow GLib's interned strings, which are
                              * never freed) */
  g_autofree char *key = NULL;
  WbSymbol        *sym;

  g_return_val_if_fail (name != NULL, NULL);
  key = g_strndup (name, len);
  g_mutex_lock (&lock);
  if (opaque == NULL)
    opaque = g_hash_table_new (g_str_hash, g_str_equal);
  sym = g_hash_table_lookup (opaque, key);
  if (sym == NULL)
    {
      sym = g_new0 (WbSymbol, 1);
      sym->id = WB_SYMBOL_OPAQUE;
      sym->name = g_strdup (key);
      sym->module = module_from_prefix (sym->name);
      sym->category = WB_SYMBOL_CATEGORY_OPAQUE;
      sym->executor = sym->module == WB_SYMBOL_MODULE_TORCH ? wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_TORCH)) : NULL;
      sym->signature = "*args, **kwargs";
      sym->opaque = TRUE;
      parse_signature (sym);
      g_hash_table_insert (opaque, (gpointer) sym->name, sym);
    }
  g_mutex_unlock (&lock);
  return sym;
}

gboolean
wb_symbol_is_opaque (const WbSymbol *symbol)
{
  return symbol != NULL && symbol->opaque;
}

const char *
wb_symbol_get_name (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, NULL);
  return symbol->name;
}

gboolean
wb_symbol_is_fusion (const WbSymbol *symbol)
{
  return symbol != NULL && symbol->module == WB_SYMBOL_MODULE_FUSION;
}

WbSymbolId
wb_symbol_get_id (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, 0);
  return symbol->id;
}

const WbSymbol *
wb_symbol_get_by_id (WbSymbolId id)
{
  g_return_val_if_fail ((guint) id < WB_N_SYMBOLS, NULL);
  return &get_table ()->symbols[id];
}

WbSymbolModule
wb_symbol_get_module (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, 0);
  return symbol->module;
}

WbSymbolCategory
wb_symbol_get_category (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, 0);
  return symbol->category;
}

const char *
wb_symbol_get_executor (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, NULL);
  return symbol->executor;
}

const WbSymbol *
wb_symbol_get_like (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, NULL);
  return symbol->like;
}

const char *
wb_symbol_get_signature (const WbSymbol *symbol)
{
  g_return_val_if_fail (symbol != NULL, NULL);
  return symbol->signature;
}

const WbParam *
wb_symbol_get_params (const WbSymbol *symbol, guint *n_params)
{
  g_return_val_if_fail (symbol != NULL, NULL);
  if (n_params != NULL)
    *n_params = symbol->n_params;
  return symbol->params;
}

gboolean
wb_symbol_is_inplace (const WbSymbol *symbol)
{
  const char *dot;
  gsize       n;

  g_return_val_if_fail (symbol != NULL, FALSE);
  dot = strrchr (symbol->name, '.');
  dot = dot != NULL ? dot + 1 : symbol->name;
  n = strlen (dot);
  /* "x_" but not "_x" alone or "__x__" */
  return n >= 2 && dot[n - 1] == '_' && dot[n - 2] != '_';
}

gboolean
wb_symbol_has_meta (const WbSymbol *symbol)
{
  return symbol != NULL && symbol->meta != NULL;
}

const char *
wb_symbol_category_to_string (WbSymbolCategory category)
{
  static const char *const names[] = {
    NULL,
    "elementwise",
    "shape",
    "indexing",
    "reduction",
    "nn",
    "creation",
    "conversion",
    "prologue",
    "utility",
    "fusion",
    "opaque",
    "distributed",
  };
  if ((guint) category < G_N_ELEMENTS (names) && names[category] != NULL)
    return names[category];
  return "unknown";
}

guint
wb_symbol_table_get_n_names (void)
{
  return get_table ()->n_names;
}

const char *
wb_symbol_table_get_name (guint i)
{
  Table *t = get_table ();
  g_return_val_if_fail (i < t->n_names, NULL);
  return t->names[i];
}

/* ---- binding and inference ---------------------------------------------------------------------- */

static gboolean
bind_args (WbMetaCall *call, const WbSymbol *target, WbValue *const *args, guint n_args, const WbKwarg *kwargs, guint n_kwargs, GError **error)
{
  guint    next = 0, vararg = G_MAXUINT;
  gboolean has_varkw = FALSE;

  for (guint p = 0; p < target->n_params; p++)
    {
      if (target->params[p].kind == WB_PARAM_VAR_POSITIONAL)
        vararg = p;
      else if (target->params[p].kind == WB_PARAM_VAR_KEYWORD)
        has_varkw = TRUE;
    }
  for (guint a = 0; a < n_args; a++)
    {
      while (next < target->n_params && target->params[next].kind != WB_PARAM_POSITIONAL_ONLY && target->params[next].kind != WB_PARAM_POSITIONAL_OR_KEYWORD)
        next++;
      if (next < target->n_params && (vararg == G_MAXUINT || next < vararg))
        {
          call->params[next] = args[a];
          call->given[next] = TRUE;
          next++;
          continue;
        }
      if (vararg != G_MAXUINT)
        {
          call->varargs = args + a;
          call->n_varargs = n_args - a;
          break;
        }
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "takes %u positional arguments but %u were given",
                            a, n_args);
    }
  for (guint k = 0; k < n_kwargs; k++)
    {
      guint p;
      for (p = 0; p < target->n_params; p++)
        if (target->params[p].kind != WB_PARAM_VAR_POSITIONAL && target->params[p].kind != WB_PARAM_VAR_KEYWORD && strcmp (target->params[p].name, kwargs[k].name) == 0)
          break;
      if (p == target->n_params)
        {
          if (has_varkw)
            continue;
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unexpected keyword argument '%s'", kwargs[k].name);
        }
      if (call->given[p])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "got multiple values for argument '%s'", kwargs[k].name);
      call->params[p] = kwargs[k].value;
      call->given[p] = TRUE;
    }
  for (guint p = 0; p < target->n_params; p++)
    {
      const WbParam *param = &target->params[p];
      if (call->given[p] || param->kind == WB_PARAM_VAR_POSITIONAL || param->kind == WB_PARAM_VAR_KEYWORD)
        continue;
      if (param->default_value == NULL)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "missing argument '%s'", param->name);
      call->params[p] = param->default_value;
    }
  return TRUE;
}

gboolean
_wb_meta_bind (WbMetaCall      *call,
               const WbSymbol  *symbol,
               WbValue *const  *args,
               guint            n_args,
               const WbKwarg   *kwargs,
               guint            n_kwargs,
               WbTypeLookupFunc lookup,
               gpointer         user_data,
               GError         **error)
{
  const WbSymbol *target = symbol->like != NULL ? symbol->like : symbol;

  memset (call, 0, sizeof *call);
  call->symbol = target;
  call->name = symbol->name;
  call->arg = target->meta_arg;
  call->lookup = lookup;
  call->lookup_data = user_data;
  for (guint a = 0; a < n_args; a++)
    if (args[a] == NULL)
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "argument %u is missing", a);
  return bind_args (call, target, args, n_args, kwargs, n_kwargs, error);
}

gboolean
wb_symbol_infer (const WbSymbol  *symbol,
                 WbValue *const  *args,
                 guint            n_args,
                 const WbKwarg   *kwargs,
                 guint            n_kwargs,
                 WbTypeLookupFunc lookup,
                 gpointer         user_data,
                 GArray          *outputs,
                 GError         **error)
{
  WbMetaCall call;
  gboolean   ok;

  g_return_val_if_fail (symbol != NULL, FALSE);
  g_return_val_if_fail (outputs != NULL, FALSE);
  g_return_val_if_fail (n_args == 0 || args != NULL, FALSE);
  g_return_val_if_fail (n_kwargs == 0 || kwargs != NULL, FALSE);

  if ((symbol->like != NULL ? symbol->like : symbol)->meta == NULL)
    {
      memset (&call, 0, sizeof call);
      call.symbol = symbol->like != NULL ? symbol->like : symbol;
      call.name = symbol->name;
      return _wb_meta_fail (error, WB_SYMBOL_ERROR_NO_META, &call, "no meta function");
    }
  if (!_wb_meta_bind (&call, symbol, args, n_args, kwargs, n_kwargs, lookup, user_data, error))
    return FALSE;
  call.outputs = g_array_new (FALSE, TRUE, sizeof (WbType));
  ok = call.symbol->meta (&call, error);
  if (ok)
    g_array_append_vals (outputs, call.outputs->data, call.outputs->len);
  g_array_unref (call.outputs);
  return ok;
}
