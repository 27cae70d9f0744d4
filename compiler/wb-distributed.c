/* wb-distributed.c — distributed traces: process-group sizes and a case's rank folders
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The metas of the collectives (wb-meta-distributed.c) read a process group's size through the type
 * environment; wb_dist_group_sizes_new infers the sizes from the trace's own annotations, which Thunder
 * prints on every collective: all_gather's output over its input, reduce_scatter's input over its
 * output, synchronize's unsharded output over its shard. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-trace-private.h"

static void
collect_types (GHashTable *types, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      if (b->kind == WB_BSYM_ANNOTATION && b->has_type)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
      else if ((b->kind == WB_BSYM_CALL || b->kind == WB_BSYM_ASSIGN) && b->has_type && b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
        g_hash_table_insert (types, (gpointer) b->outputs->text, (gpointer) &b->type);
      collect_types (types, b->subsymbols, b->n_subsymbols);
    }
}

/* +1: the output is the input with a dim times the group's size (all_gather, synchronize);
 * -1: divided by it (reduce_scatter); 0: not a sizing call. */
static int
sizing_direction (const WbSymbol *sym)
{
  const WbSymbol *base = sym;
  while (base != NULL && wb_symbol_get_like (base) != NULL)
    base = wb_symbol_get_like (base);
  if (base == NULL || wb_symbol_is_opaque (base))
    return 0;
  switch (wb_symbol_get_id (base))
    {
    case WB_SYMBOL_DIST_ALL_GATHER:
    case WB_SYMBOL_DIST_SYNCHRONIZE:
      return 1;
    case WB_SYMBOL_DIST_REDUCE_SCATTER:
      return -1;
    default:
      return 0;
    }
}

/* The group's size from one annotated call, or 0. */
static gint64
size_from_call (GHashTable *types, const WbBsym *b, int dir)
{
  const WbType *in, *out = b->has_type ? &b->type : NULL;
  gint64        num, den;

  if (b->n_args < 2 || b->args[0]->kind != WB_VALUE_NAME || out == NULL)
    return 0;
  in = g_hash_table_lookup (types, b->args[0]->text);
  if (in == NULL || (in->kind != WB_TYPE_TENSOR && in->kind != WB_TYPE_FUTURE_TENSOR) || in->rank != out->rank)
    return 0;
  for (guint d = 0; d < in->rank; d++)
    {
      if (in->shape[d] == out->shape[d])
        continue;
      num = dir > 0 ? out->shape[d] : in->shape[d];
      den = dir > 0 ? in->shape[d] : out->shape[d];
      return den > 0 && num % den == 0 ? num / den : 0;
    }
  return in->rank > 0 ? 1 : 0; /* every dim equal: a group of one */
}

static void
collect_sizes (GHashTable *sizes, GHashTable *types, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];
      int           dir = b->kind == WB_BSYM_CALL && b->symbol != NULL ? sizing_direction (b->symbol) : 0;

      if (dir != 0)
        {
          /* the group is the second argument of all_gather and synchronize, the third of reduce_scatter */
          guint  gi = dir > 0 ? 1 : 2;
          gint64 size = gi < b->n_args && b->args[gi]->kind == WB_VALUE_NAME && wb_dist_is_process_group (b->args[gi]->text)
                            ? size_from_call (types, b, dir)
                            : 0;
          if (size > 0 && size <= G_MAXINT && !g_hash_table_contains (sizes, b->args[gi]->text))
            g_hash_table_insert (sizes, (gpointer) b->args[gi]->text, GINT_TO_POINTER ((int) size));
        }
      collect_sizes (sizes, types, b->subsymbols, b->n_subsymbols);
    }
}

GHashTable *
wb_dist_group_sizes_new (const WbTrace *trace)
{
  GHashTable *sizes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (trace != NULL, sizes);
  collect_types (types, trace->body, trace->n_body);
  collect_sizes (sizes, types, trace->body, trace->n_body);
  return sizes;
}

static void
add_sharded (GHashTable *sharded, GHashTable *sizes, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym   *b = body[i];
      const WbSymbol *base = b->kind == WB_BSYM_CALL ? b->symbol : NULL;

      while (base != NULL && wb_symbol_get_like (base) != NULL)
        base = wb_symbol_get_like (base);
      if (base != NULL && !wb_symbol_is_opaque (base) && wb_symbol_get_id (base) == WB_SYMBOL_DIST_SYNCHRONIZE && b->n_args >= 3 &&
          b->args[0]->kind == WB_VALUE_NAME && b->args[1]->kind == WB_VALUE_NAME && b->args[2]->kind == WB_VALUE_NAME &&
          g_str_has_prefix (b->args[2]->text, "_DistParallelType_FULLY_SHARDED_") && g_hash_table_contains (sizes, b->args[1]->text))
        g_hash_table_insert (sharded, (gpointer) b->args[0]->text, g_hash_table_lookup (sizes, b->args[1]->text));
      add_sharded (sharded, sizes, b->subsymbols, b->n_subsymbols);
    }
}

void
wb_dist_sharded_params_add (GHashTable *sharded, const WbTrace *trace)
{
  g_autoptr (GHashTable) sizes = NULL;

  g_return_if_fail (sharded != NULL && trace != NULL);
  sizes = wb_dist_group_sizes_new (trace);
  add_sharded (sharded, sizes, trace->body, trace->n_body);
}

/* ---- rank folders -------------------------------------------------------------------------------- */

/* The N of "rank<N>" (decimal, no leading zeros), or -1. */
static gint64
rank_of_name (const char *name)
{
  const char *d = name + 4;
  gint64      r = 0;

  if (strncmp (name, "rank", 4) != 0 || *d == '\0' || (d[0] == '0' && d[1] != '\0') || strlen (d) > 6)
    return -1;
  for (; *d; d++)
    {
      if (!g_ascii_isdigit (*d))
        return -1;
      r = r * 10 + (*d - '0');
    }
  return r;
}

static int
cmp_rank (gconstpointer a, gconstpointer b)
{
  gint64 x = rank_of_name (*(const char *const *) a), y = rank_of_name (*(const char *const *) b);
  return x < y ? -1 : x > y;
}

char **
wb_case_dir_list_ranks (const char *dir, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GDir) d = NULL;
  g_autoptr (GPtrArray) names = NULL;
  GPtrArray  *paths;
  const char *name;

  g_return_val_if_fail (dir != NULL, NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  d = g_dir_open (dir, 0, &local);
  if (d == NULL)
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s: cannot list its rank folders: %s", dir, local->message);
      return NULL;
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      if (rank_of_name (name) < 0)
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (names, g_strdup (name));
    }
  if (names->len == 0)
    return NULL;
  g_ptr_array_sort (names, cmp_rank);
  for (guint i = 0; i < names->len; i++)
    if (rank_of_name (names->pdata[i]) != (gint64) i)
      {
        g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s: rank folders are numbered from rank0 without a gap: rank%u/ is missing (found %s/)", dir,
                     i, (const char *) names->pdata[i]);
        return NULL;
      }
  paths = g_ptr_array_new ();
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (paths, g_build_filename (dir, names->pdata[i], NULL));
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

/* ---- meta.json's "distributed" ------------------------------------------------------------------- */

/* Skips one JSON value whose first token is @t (objects and arrays with their contents). */
static void
skip_value (GScanner *sc, GTokenType t)
{
  int depth = 0;
  for (;;)
    {
      if (t == G_TOKEN_LEFT_CURLY || t == G_TOKEN_LEFT_BRACE)
        depth++;
      else if (t == G_TOKEN_RIGHT_CURLY || t == G_TOKEN_RIGHT_BRACE)
        depth--;
      if (depth <= 0 || t == G_TOKEN_EOF || t == G_TOKEN_ERROR)
        return;
      t = g_scanner_get_next_token (sc);
    }
}

/* Reads the members of the object after "distributed": (its '{' already read). */
static void
read_distributed (GScanner *sc, gint64 *ws, gint64 *rank)
{
  GTokenType t;
  while ((t = g_scanner_get_next_token (sc)) == G_TOKEN_STRING)
    {
      g_autofree char *key = g_strdup (sc->value.v_string);
      if (g_scanner_get_next_token (sc) != ':')
        return;
      t = g_scanner_get_next_token (sc);
      if (t == G_TOKEN_INT && strcmp (key, "world_size") == 0)
        *ws = (gint64) sc->value.v_int64;
      else if (t == G_TOKEN_INT && strcmp (key, "rank") == 0)
        *rank = (gint64) sc->value.v_int64;
      else
        skip_value (sc, t);
      if (g_scanner_peek_next_token (sc) == ',')
        g_scanner_get_next_token (sc);
    }
}

void
_wb_dist_read_meta (const char *dir, int *world_size, int *rank)
{
  g_autofree char *path = g_build_filename (dir, "meta.json", NULL);
  g_autofree char *text = NULL;
  GScannerConfig   config = { 0 };
  GScanner        *sc;
  gsize            len = 0;
  gint64           ws = -1, r = 0;
  int              depth = 0;
  GTokenType       t;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !wb_input_read_file (path, 16 * 1024 * 1024, &text, &len, NULL))
    return;
  config.cset_skip_characters = (char *) " \t\r\n";
  config.cset_identifier_first = (char *) G_CSET_a_2_z G_CSET_A_2_Z;
  config.cset_identifier_nth = (char *) G_CSET_a_2_z   G_CSET_A_2_Z;
  config.scan_string_dq = TRUE;
  config.scan_float = TRUE;
  config.numbers_2_int = TRUE;
  config.int_2_float = FALSE;
  config.scan_identifier = TRUE;
  config.char_2_token = TRUE;
  config.store_int64 = TRUE;
  config.scan_hex = FALSE;
  config.scan_octal = FALSE;
  sc = g_scanner_new (&config);
  g_scanner_input_text (sc, text, (guint) MIN (len, G_MAXUINT));
  while ((t = g_scanner_get_next_token (sc)) != G_TOKEN_EOF && t != G_TOKEN_ERROR)
    {
      if (t == G_TOKEN_LEFT_CURLY)
        depth++;
      else if (t == G_TOKEN_RIGHT_CURLY)
        depth--;
      else if (t == G_TOKEN_STRING && depth == 1 && strcmp (sc->value.v_string, "distributed") == 0 &&
               g_scanner_peek_next_token (sc) == ':')
        {
          g_scanner_get_next_token (sc);
          if (g_scanner_get_next_token (sc) == G_TOKEN_LEFT_CURLY)
            read_distributed (sc, &ws, &r);
          break;
        }
    }
  g_scanner_destroy (sc);
  if (ws >= 1 && ws <= 1 << 20 && r >= 0 && r < ws)
    {
      *world_size = (int) ws;
      *rank = (int) r;
    }
}
