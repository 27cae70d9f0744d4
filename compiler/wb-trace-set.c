/* wb-trace-set.c — the traces of one case, from a file or a directory like traces/<case>/
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-compiler.h"
#include "wb-trace-private.h"

struct _WbTraceSet
{
  GArray       *entries;  /* WbTraceEntry */
  GArray       *failures; /* WbTraceFailure */
  GStringChunk *strings;
  int           world_size; /* 0 until known: wb_trace_set_get_world_size */
  int           rank;
};

const char *
wb_trace_kind_to_string (WbTraceKind kind)
{
  switch (kind)
    {
    case WB_TRACE_KIND_PROLOGUE:
      return "prologue";
    case WB_TRACE_KIND_FORWARD:
      return "forward";
    case WB_TRACE_KIND_BACKWARD:
      return "backward";
    case WB_TRACE_KIND_EPILOGUE:
      return "epilogue";
    case WB_TRACE_KIND_STAGE:
      return "stage";
    case WB_TRACE_KIND_UNKNOWN:
    default:
      return "trace";
    }
}

static void
entry_clear (gpointer data)
{
  WbTraceEntry *e = data;
  wb_trace_unref (e->trace);
}

WbTraceSet *
wb_trace_set_new (void)
{
  WbTraceSet *set = g_new0 (WbTraceSet, 1);
  set->entries = g_array_new (FALSE, TRUE, sizeof (WbTraceEntry));
  g_array_set_clear_func (set->entries, entry_clear);
  set->failures = g_array_new (FALSE, TRUE, sizeof (WbTraceFailure));
  set->strings = g_string_chunk_new (1024);
  return set;
}

void
wb_trace_set_free (WbTraceSet *set)
{
  if (set == NULL)
    return;
  g_array_free (set->entries, TRUE);
  g_array_free (set->failures, TRUE);
  g_string_chunk_free (set->strings);
  g_free (set);
}

void
wb_trace_set_add (WbTraceSet *set, WbTrace *trace, WbTraceKind kind, int index, const char *subset, const char *label, const char *path)
{
  WbTraceEntry e = { 0 };
  g_return_if_fail (set != NULL && trace != NULL);
  e.trace = wb_trace_ref (trace);
  e.kind = kind;
  e.index = index;
  e.subset = g_string_chunk_insert_const (set->strings, subset ? subset : "");
  e.label = label ? g_string_chunk_insert_const (set->strings, label) : NULL;
  e.path = path ? g_string_chunk_insert_const (set->strings, path) : NULL;
  g_array_append_val (set->entries, e);
}

guint
wb_trace_set_get_n_entries (const WbTraceSet *set)
{
  g_return_val_if_fail (set != NULL, 0);
  return set->entries->len;
}

const WbTraceEntry *
wb_trace_set_get_entry (const WbTraceSet *set, guint i)
{
  g_return_val_if_fail (set != NULL, NULL);
  g_return_val_if_fail (i < set->entries->len, NULL);
  return &g_array_index (set->entries, WbTraceEntry, i);
}

guint
wb_trace_set_get_n_failures (const WbTraceSet *set)
{
  g_return_val_if_fail (set != NULL, 0);
  return set->failures->len;
}

const WbTraceFailure *
wb_trace_set_get_failure (const WbTraceSet *set, guint i)
{
  g_return_val_if_fail (set != NULL, NULL);
  g_return_val_if_fail (i < set->failures->len, NULL);
  return &g_array_index (set->failures, WbTraceFailure, i);
}

static void
add_failure (WbTraceSet *set, const char *path, const GError *error)
{
  WbTraceFailure f = { 0 };
  f.path = g_string_chunk_insert_const (set->strings, path);
  f.message = g_string_chunk_insert (set->strings, error->message);
  f.code = error->code;
  f.not_a_trace = g_error_matches (error, WB_TRACE_ERROR, WB_TRACE_ERROR_NOT_A_TRACE);
  g_array_append_val (set->failures, f);
}

/* Appends @from's failures of files whose path starts with @prefix (NULL: all) to @set, their texts copied */
static void
copy_failures_under (WbTraceSet *set, const WbTraceSet *from, const char *prefix)
{
  for (guint i = 0; i < from->failures->len; i++)
    {
      WbTraceFailure f = g_array_index (from->failures, WbTraceFailure, i);

      if (prefix != NULL && !g_str_has_prefix (f.path, prefix))
        continue;
      f.path = g_string_chunk_insert_const (set->strings, f.path);
      f.message = g_string_chunk_insert (set->strings, f.message);
      g_array_append_val (set->failures, f);
    }
}

void
wb_trace_set_copy_failures (WbTraceSet *set, const WbTraceSet *from)
{
  g_return_if_fail (set != NULL && from != NULL);
  copy_failures_under (set, from, NULL);
  /* the distributed run it was recorded in stays the set's, whatever traces it is built from */
  if (from->world_size > 0)
    set->world_size = from->world_size;
  set->rank = from->rank;
}

static WbTraceKind
kind_from_function (const WbTrace *t)
{
  const char *f = t->function_name ? t->function_name : "";
  if (strcmp (f, "prologue") == 0)
    return WB_TRACE_KIND_PROLOGUE;
  if (strcmp (f, "epilogue") == 0)
    return WB_TRACE_KIND_EPILOGUE;
  if (strcmp (f, "backward_fn") == 0 || strcmp (f, "backward") == 0)
    return WB_TRACE_KIND_BACKWARD;
  return WB_TRACE_KIND_FORWARD;
}

/* "forward_03.py" -> FORWARD, 3 */
static gboolean
kind_from_filename (const char *name, WbTraceKind *kind, int *index)
{
  static const struct
  {
    const char *prefix;
    WbTraceKind kind;
  } prefixes[] = {
    { "prologue_", WB_TRACE_KIND_PROLOGUE },
    { "forward_", WB_TRACE_KIND_FORWARD },
    { "backward_", WB_TRACE_KIND_BACKWARD },
    { "epilogue_", WB_TRACE_KIND_EPILOGUE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i].prefix))
      {
        const char *num = name + strlen (prefixes[i].prefix);
        char       *end;
        long        v = strtol (num, &end, 10);
        if (end != num && strcmp (end, ".py") == 0)
          {
            *kind = prefixes[i].kind;
            *index = (int) v;
            return TRUE;
          }
      }
  return FALSE;
}

static GPtrArray *
parse_file (const char *path, WbTraceSetLoadFlags flags, GError **error)
{
  return wb_trace_parse_file_full (path, flags & WB_TRACE_SET_LOAD_F32_AS_F64 ? WB_TRACE_PARSE_F32_AS_F64 : WB_TRACE_PARSE_DEFAULT, error);
}

/* Adds the traces parsed from @path (@traces: transfer none; NULL: FALSE, nothing added) */
static gboolean
add_parsed (WbTraceSet *set, GPtrArray *traces, const char *path, const char *subset, gboolean in_stages)
{
  g_autofree char *base = g_path_get_basename (path);
  WbTraceKind      kind = WB_TRACE_KIND_UNKNOWN;
  int              index = -1;
  const char      *label = NULL;
  g_autofree char *label_buf = NULL;
  if (traces == NULL)
    return FALSE;
  if (in_stages)
    {
      char *end;
      long  v = strtol (base, &end, 10);
      kind = WB_TRACE_KIND_STAGE;
      if (end != base)
        {
          index = (int) v;
          if (*end == '_')
            end++;
          label_buf = g_strdup (end);
          if (g_str_has_suffix (label_buf, ".py"))
            label_buf[strlen (label_buf) - 3] = '\0';
          label = label_buf;
        }
    }
  else if (!kind_from_filename (base, &kind, &index))
    kind = WB_TRACE_KIND_UNKNOWN;
  for (guint i = 0; i < traces->len; i++)
    {
      WbTrace    *t = traces->pdata[i];
      WbTraceKind k = kind != WB_TRACE_KIND_UNKNOWN ? kind : kind_from_function (t);
      int         idx = traces->len > 1 ? (int) i : (index >= 0 ? index : (int) i);
      wb_trace_set_add (set, t, k, idx, subset, label, path);
    }
  return TRUE;
}

static gboolean
add_file (WbTraceSet *set, const char *path, const char *subset, gboolean in_stages, WbTraceSetLoadFlags flags, GError **error)
{
  g_autoptr (GPtrArray) traces = parse_file (path, flags, error);

  return add_parsed (set, traces, path, subset, in_stages);
}

static int
cmp_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static GPtrArray *
sorted_dir (const char *dir, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &local);
  GPtrArray  *names;
  const char *name;
  if (d == NULL)
    {
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read directory: %s", dir, local->message);
      return NULL;
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, cmp_names);
  return names;
}

/* One trace file of a folder: where it goes in the set, then what parsing it gave */
typedef struct
{
  char      *path;
  char      *subset;
  gboolean   in_stages;
  GPtrArray *traces; /* NULL: @error */
  GError    *error;
} FileJob;

static void
file_job_free (gpointer p)
{
  FileJob *j = p;

  g_free (j->path);
  g_free (j->subset);
  g_clear_pointer (&j->traces, g_ptr_array_unref);
  g_clear_error (&j->error);
  g_free (j);
}

/* The trace files under @dir, in the order the set adds them (names sorted; stages/ and sub-sets where they are met) */
static gboolean
collect_dir (GPtrArray *jobs, const char *dir, const char *subset, gboolean in_stages, int depth, WbTraceSetLoadFlags flags, GError **error)
{
  g_autoptr (GPtrArray) names = sorted_dir (dir, error);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    {
      const char      *name = names->pdata[i];
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 2)
            continue;
          if (strcmp (name, "stages") == 0)
            {
              if (!collect_dir (jobs, path, subset, TRUE, depth + 1, flags, error))
                return FALSE;
            }
          else if (*subset == '\0' && !in_stages && !(flags & WB_TRACE_SET_LOAD_NO_SUBSETS))
            {
              if (!collect_dir (jobs, path, name, FALSE, depth + 1, flags, error))
                return FALSE;
            }
        }
      else if (g_str_has_suffix (name, ".py"))
        {
          FileJob *j = g_new0 (FileJob, 1);
          j->path = g_steal_pointer (&path);
          j->subset = g_strdup (subset);
          j->in_stages = in_stages;
          g_ptr_array_add (jobs, j);
        }
    }
  return TRUE;
}

typedef struct
{
  GPtrArray          *jobs;
  WbTraceSetLoadFlags flags;
  gint                next;
} ParseAll;

static gpointer
parse_worker (gpointer data)
{
  ParseAll *pa = data;
  gint      i;

  while ((i = g_atomic_int_add (&pa->next, 1)) < (gint) pa->jobs->len)
    {
      FileJob *j = pa->jobs->pdata[i];
      j->traces = parse_file (j->path, pa->flags, &j->error);
    }
  return NULL;
}

/* Parses every job's file, on up to one thread per processor (a parse touches only its own parser and arena;
 * the symbol table's lookups are read-only or locked: wb-symbol-table.c). A folder's files are independent, and
 * a case of several megabytes of traces (ResNet-50's nine files, llama_32layer's 32 sub-sets) loads in a
 * fraction of the time on a machine of many cores. */
static void
parse_all (GPtrArray *jobs, WbTraceSetLoadFlags flags)
{
  ParseAll pa = { jobs, flags, 0 };
  guint    n = MIN ((guint) g_get_num_processors (), MIN (jobs->len, 32u));
  g_autoptr (GPtrArray) threads = g_ptr_array_new ();

  for (guint t = 1; t < n; t++)
    {
      GThread *th = g_thread_try_new ("wb-parse", parse_worker, &pa, NULL);
      if (th != NULL)
        g_ptr_array_add (threads, th);
    }
  parse_worker (&pa);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (threads->pdata[t]);
}

static gboolean
add_dir (WbTraceSet *set, const char *dir, const char *subset, gboolean in_stages, int depth, WbTraceSetLoadFlags flags, GError **error)
{
  g_autoptr (GPtrArray) jobs = g_ptr_array_new_with_free_func (file_job_free);

  if (!collect_dir (jobs, dir, subset, in_stages, depth, flags, error))
    return FALSE;
  parse_all (jobs, flags);
  for (guint i = 0; i < jobs->len; i++)
    {
      FileJob *j = jobs->pdata[i];
      /* file by file: one that does not load is listed, the others still load */
      if (!add_parsed (set, j->traces, j->path, j->subset, j->in_stages))
        add_failure (set, j->path, j->error);
    }
  return TRUE;
}

static int
subset_rank (const char *s)
{
  return *s == '\0' ? 0 : 1;
}

static int
kind_rank (WbTraceKind k)
{
  switch (k)
    {
    case WB_TRACE_KIND_PROLOGUE:
      return 0;
    case WB_TRACE_KIND_FORWARD:
      return 1;
    case WB_TRACE_KIND_BACKWARD:
      return 2;
    case WB_TRACE_KIND_EPILOGUE:
      return 3;
    case WB_TRACE_KIND_STAGE:
      return 4;
    default:
      return 5;
    }
}

static int
cmp_entries (gconstpointer pa, gconstpointer pb)
{
  const WbTraceEntry *a = pa, *b = pb;
  int                 c = subset_rank (a->subset) - subset_rank (b->subset);
  if (c)
    return c;
  if ((c = strcmp (a->subset, b->subset)))
    return c;
  if ((c = kind_rank (a->kind) - kind_rank (b->kind)))
    return c;
  if (a->index != b->index)
    return a->index < b->index ? -1 : 1;
  return g_strcmp0 (a->path, b->path);
}

/* A directory where nothing loaded: the first real failure, else "empty". Returns NULL. */
static WbTraceSet *
no_entries (const WbTraceSet *set, const char *path, GError **error)
{
  for (guint i = 0; i < set->failures->len; i++)
    {
      const WbTraceFailure *f = &g_array_index (set->failures, WbTraceFailure, i);
      if (!f->not_a_trace)
        {
          g_set_error_literal (error, WB_TRACE_ERROR, f->code, f->message);
          return NULL;
        }
    }
  if (set->failures->len > 0)
    g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_EMPTY, "%s:1:1: no trace in this directory: every file is `None` (Thunder skipped those stages)", path);
  else
    g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_EMPTY, "%s:1:1: no trace files (*.py) in this directory", path);
  return NULL;
}

WbTraceSet *
wb_trace_set_new_subset (const WbTraceSet *set, const char *subset, const char *dir, GError **error)
{
  g_autoptr (WbTraceSet) sub = wb_trace_set_new ();
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *prefix = g_strconcat (dir, G_DIR_SEPARATOR_S, NULL);

  g_return_val_if_fail (set != NULL && subset != NULL && *subset != '\0' && dir != NULL, NULL);
  if ((names = sorted_dir (dir, error)) == NULL)
    return NULL;
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, (const char *) names->pdata[i], NULL);
      if (strcmp (names->pdata[i], "stages") != 0 && g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: holds the folder %s: load it on its own", dir,
                       (const char *) names->pdata[i]);
          return NULL;
        }
    }
  _wb_dist_read_meta (dir, &sub->world_size, &sub->rank);
  for (guint i = 0; i < set->entries->len; i++)
    {
      const WbTraceEntry *e = &g_array_index (set->entries, WbTraceEntry, i);
      if (strcmp (e->subset, subset) == 0)
        wb_trace_set_add (sub, e->trace, e->kind, e->index, "", e->label, e->path);
    }
  copy_failures_under (sub, set, prefix);
  if (sub->entries->len == 0)
    return no_entries (sub, dir, error);
  g_array_sort (sub->entries, cmp_entries);
  return g_steal_pointer (&sub);
}

WbTraceSet *
wb_trace_set_load (const char *path, GError **error)
{
  return wb_trace_set_load_full (path, WB_TRACE_SET_LOAD_DEFAULT, error);
}

WbTraceSet *
wb_trace_set_load_full (const char *path, WbTraceSetLoadFlags flags, GError **error)
{
  g_autoptr (WbTraceSet) set = wb_trace_set_new ();
  g_return_val_if_fail (path != NULL, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      _wb_dist_read_meta (path, &set->world_size, &set->rank);
      if (!add_dir (set, path, "", FALSE, 0, flags, error))
        return NULL;
      if (set->entries->len == 0)
        return no_entries (set, path, error);
      /* stable sort: GArray's sort is not stable, but keys are unique per file and index */
      g_array_sort (set->entries, cmp_entries);
    }
  else if (!add_file (set, path, "", FALSE, flags, error))
    return NULL;
  return g_steal_pointer (&set);
}

/* The world size from the first trace whose collectives size a process group (an all_gather,
 * reduce_scatter or FULLY_SHARDED synchronize annotation), else 1. */
static int
infer_world_size (const WbTraceSet *set)
{
  for (guint i = 0; i < set->entries->len; i++)
    {
      const WbTraceEntry *e = &g_array_index (set->entries, WbTraceEntry, i);
      g_autoptr (GHashTable) sizes = e->trace ? wb_dist_group_sizes_new (e->trace) : NULL;
      GHashTableIter it;
      gpointer       size;
      int            most = 0;
      if (sizes == NULL)
        continue;
      g_hash_table_iter_init (&it, sizes);
      while (g_hash_table_iter_next (&it, NULL, &size))
        most = MAX (most, GPOINTER_TO_INT (size));
      if (most > 0)
        return most;
    }
  return 1;
}

int
wb_trace_set_get_world_size (const WbTraceSet *set)
{
  int ws;

  g_return_val_if_fail (set != NULL, 1);
  ws = g_atomic_int_get (&set->world_size);
  if (ws <= 0)
    {
      /* inferred on first use (a walk over the traces); two threads racing compute the same value */
      ws = infer_world_size (set);
      g_atomic_int_set (&((WbTraceSet *) set)->world_size, ws);
    }
  return ws;
}

int
wb_trace_set_get_rank (const WbTraceSet *set)
{
  g_return_val_if_fail (set != NULL, 0);
  return set->rank;
}
