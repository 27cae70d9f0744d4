/* wb-cuda-exec-state.c — the CUDA executors' run state: uploads, plan cache, dispatch statistics, host/device values
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cuda-exec-private.h"

static GHashTable         *uploaded;  /* host WbTensor* -> device WbTensor* (a run's uploads) */
static GHashTable         *plans;     /* printed call + argument layouts -> WbCudaPlan* (content keys: always valid) */
static GHashTable         *texts;     /* WbBsym* -> its printed text, for the current program only */
static GHashTable         *unfusable; /* printed calls whose plan failed: decomposed from now on */
static GHashTable         *splits;    /* WbBsym* -> its WbCudaSplit* or &no_split, for the current program only */
static GHashTable         *sites;     /* a region's WbBsym* or a split's WbCudaStep* -> Site*, for the current program only */
static GHashTable         *memo;      /* WbBsym* -> Memo: unfusable or not, paths by flavor, for the current program only */
static char                no_split;
static WbCudaDispatchStats stats;

/* the plan a call site ran last, and the argument layouts it ran with */
typedef struct
{
  WbCudaArg  *args;
  guint       n_args;
  WbCudaPlan *plan; /* owned by plans */
} Site;

/* what choose_path and _wb_cuda_exec_is_unfusable found for a bound symbol: both hash or walk the whole call
 * (kilobytes of printed text for a region: tens of µs of host time per call) */
typedef struct
{
  gint8  unfusable;                         /* -1 unknown, 0, 1 */
  guint8 paths[_WB_CUDA_EXEC_MEMO_FLAVORS]; /* path + 1, 0 unknown */
} Memo;

static Memo *
memo_of (const WbBsym *b)
{
  Memo *m = g_hash_table_lookup (memo, b);

  if (m == NULL)
    {
      m = g_new0 (Memo, 1);
      m->unfusable = -1;
      g_hash_table_insert (memo, (gpointer) b, m);
    }
  return m;
}

static void
free_site (gpointer p)
{
  Site *site = p;

  g_free (site->args);
  g_free (site);
}

static void
free_split (gpointer p)
{
  if (p != &no_split)
    wb_cuda_split_free (p);
}

void
_wb_cuda_exec_ensure_tables (void)
{
  if (plans == NULL)
    {
      plans = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) wb_cuda_plan_free);
      texts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      splits = g_hash_table_new_full (NULL, NULL, NULL, free_split);
      sites = g_hash_table_new_full (NULL, NULL, NULL, free_site);
      memo = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      unfusable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      stats.fallback_symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      stats.fallback_reasons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      stats.autotune_choices = g_ptr_array_new_with_free_func (g_free);
    }
}

WbCudaDispatchStats *
_wb_cuda_exec_stats (void)
{
  return &stats;
}

/* The printed form of @b (with its subsymbols): what a plan is cached under. Bound symbols are only
 * valid while their trace lives, so the text, not the pointer, is the key; the pointer -> text memo is
 * cleared with every run (wb_cuda_executors_begin_run). */
const char *
_wb_cuda_exec_text_of (const WbBsym *b)
{
  char *t = g_hash_table_lookup (texts, b);

  if (t == NULL)
    {
      GString *s = g_string_new (NULL);
      wb_bsym_print (b, 0, s);
      t = g_string_free (s, FALSE);
      g_hash_table_insert (texts, (gpointer) b, t);
    }
  return t;
}

/* The split of fusion region @b (wb_cuda_split_new), or NULL when it has none; memoised like the texts. */
const WbCudaSplit *
_wb_cuda_exec_split_of (const WbBsym *b)
{
  gpointer s = g_hash_table_lookup (splits, b);

  if (s == NULL)
    {
      s = wb_cuda_split_new (b, NULL);
      g_hash_table_insert (splits, (gpointer) b, s ? s : &no_split);
    }
  return s == &no_split ? NULL : s;
}

/* The plan call site @site (a region's bound symbol or a split's step) ran last, when @args (zeroed
 * before arg_describe, so that padding compares equal) are the layouts it ran with: the same text and
 * layouts, so the same plan, without printing and hashing the key (kilobytes of text per region: tens
 * of microseconds of host time per call). NULL otherwise. */
WbCudaPlan *
_wb_cuda_exec_site_plan (gconstpointer site, const WbCudaArg *args, guint n_args)
{
  Site *s = g_hash_table_lookup (sites, site);

  if (s != NULL && s->n_args == n_args && (n_args == 0 || memcmp (s->args, args, n_args * sizeof *args) == 0))
    return s->plan;
  return NULL;
}

/* Remembers that call site @site ran @plan (owned by the plan cache) with @args. */
void
_wb_cuda_exec_remember_site (gconstpointer site, const WbCudaArg *args, guint n_args, WbCudaPlan *plan)
{
  Site *s = g_new0 (Site, 1);

  s->args = g_memdup2 (args, MAX (n_args, 1) * sizeof *args);
  s->n_args = n_args;
  s->plan = plan;
  g_hash_table_replace (sites, (gpointer) site, s);
}

WbCudaPlan *
_wb_cuda_exec_lookup_plan (const char *key)
{
  return g_hash_table_lookup (plans, key);
}

/* Keeps @plan (transfer full when new; NULL: building it failed) in the plan cache under @key (transfer
 * full: freed or kept), unless it came from there. FALSE when @plan is NULL. */
gboolean
_wb_cuda_exec_keep_plan (GString *key, WbCudaPlan *plan)
{
  if (plan != NULL && g_hash_table_lookup (plans, key->str) != plan)
    g_hash_table_insert (plans, g_string_free (key, FALSE), plan);
  else
    g_string_free (key, TRUE);
  return plan != NULL;
}

gboolean
_wb_cuda_exec_is_unfusable (const WbBsym *b)
{
  Memo *m = memo_of (b);

  if (m->unfusable < 0)
    m->unfusable = g_hash_table_contains (unfusable, _wb_cuda_exec_text_of (b));
  return m->unfusable;
}

void
_wb_cuda_exec_set_unfusable (const WbBsym *b)
{
  g_hash_table_add (unfusable, g_strdup (_wb_cuda_exec_text_of (b)));
  /* other calls print the same (the repeated blocks of a model): every memo may have changed */
  g_hash_table_remove_all (memo);
  _wb_cuda_exec_streams_forget ();
}

guint
_wb_cuda_exec_memo_path (const WbBsym *b, guint flavor)
{
  Memo *m = g_hash_table_lookup (memo, b);

  g_return_val_if_fail (flavor < _WB_CUDA_EXEC_MEMO_FLAVORS, 0);
  return m ? m->paths[flavor] : 0;
}

void
_wb_cuda_exec_memo_set_path (const WbBsym *b, guint flavor, guint path)
{
  g_return_if_fail (flavor < _WB_CUDA_EXEC_MEMO_FLAVORS && path < 255);
  memo_of (b)->paths[flavor] = (guint8) (path + 1);
}

/* Keeps the first reason a call of @b's name did not run on its path. */
void
_wb_cuda_exec_note_reason (const WbBsym *b, const char *reason)
{
  if (!g_hash_table_contains (stats.fallback_reasons, b->name))
    g_hash_table_insert (stats.fallback_reasons, g_strdup (b->name), g_strdup (reason));
}

/* Empties the memos keyed by the current program's pointers: texts, splits, call sites. */
void
wb_cuda_executors_forget_program (void)
{
  _wb_cuda_exec_ensure_tables ();
  g_hash_table_remove_all (texts);
  g_hash_table_remove_all (splits);
  g_hash_table_remove_all (sites);
  g_hash_table_remove_all (memo);
}

void
wb_cuda_executors_begin_run (void)
{
  /* a run that failed between a call's start and its end (outside the executors) left the side stream current */
  wb_cuda_executors_call_finished (NULL, NULL, 0, NULL);
  wb_cuda_executors_forget_program ();
  g_clear_pointer (&uploaded, g_hash_table_unref);
  uploaded = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) wb_tensor_unref, (GDestroyNotify) wb_tensor_unref);
  stats.regions_fused = stats.plan_kernels = stats.ops_generated = stats.matmuls = stats.fallbacks = stats.device_rebuilds = 0;
  g_clear_pointer (&stats.device_rebuild_reason, g_free);
  stats.autotune_tuned = stats.autotune_cached = stats.autotune_changed = stats.autotune_refused = 0;
  g_clear_pointer (&stats.autotune_refusal, g_free);
  if (stats.autotune_choices != NULL)
    g_ptr_array_set_size (stats.autotune_choices, 0);
  g_hash_table_remove_all (stats.fallback_symbols);
  g_hash_table_remove_all (stats.fallback_reasons);
}

void
wb_cuda_executors_end_run (void)
{
  g_clear_pointer (&uploaded, g_hash_table_unref);
  if (plans != NULL) /* the tables exist (_wb_cuda_exec_ensure_tables makes them together) */
    wb_cuda_executors_forget_program ();
}

const WbCudaDispatchStats *
wb_cuda_executors_get_stats (void)
{
  _wb_cuda_exec_ensure_tables ();
  return &stats;
}

/* -- values between host and device ------------------------------------------------------------ */

/* A tuple or list of @fn applied to each item of @v (a tuple or list), or NULL with @error set. */
static WbRtValue *
map_items (WbCudaRuntime *rt, WbRtValue *v, WbRtValue *(*fn) (WbCudaRuntime *rt, WbRtValue *v, GError **error), GError **error)
{
  WbRtValue *seq = wb_rt_value_new_sequence (v->kind);

  for (guint i = 0; i < v->items->len; i++)
    {
      WbRtValue *x = fn (rt, v->items->pdata[i], error);
      if (x == NULL)
        {
          wb_rt_value_unref (seq);
          return NULL;
        }
      wb_rt_value_append (seq, x);
    }
  return seq;
}

WbRtValue *
_wb_cuda_exec_to_device (WbCudaRuntime *rt, WbRtValue *v, GError **error)
{
  if (v->kind == WB_RT_TENSOR)
    {
      WbTensor *d;
      if (wb_cuda_tensor_is_device (v->tensor))
        return wb_rt_value_ref (v);
      d = uploaded ? g_hash_table_lookup (uploaded, v->tensor) : NULL;
      if (d == NULL)
        {
          if ((d = wb_cuda_upload (rt, v->tensor, error)) == NULL)
            return NULL;
          if (uploaded)
            g_hash_table_insert (uploaded, wb_tensor_ref (v->tensor), d);
          else
            return wb_rt_value_take_tensor (d);
        }
      return wb_rt_value_new_tensor (d);
    }
  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
    return map_items (rt, v, _wb_cuda_exec_to_device, error);
  return wb_rt_value_ref (v);
}

WbRtValue *
_wb_cuda_exec_to_host (WbCudaRuntime *rt, WbRtValue *v, GError **error)
{
  if (v->kind == WB_RT_TENSOR)
    {
      WbTensor *h = wb_cuda_download (rt, v->tensor, error);
      return h ? wb_rt_value_take_tensor (h) : NULL;
    }
  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
    return map_items (rt, v, _wb_cuda_exec_to_host, error);
  return wb_rt_value_ref (v);
}

/* -- symbols -------------------------------------------------------------------------------------- */

/* The prim @b stands for: its own name, or the prim an executor alias names; NULL for other symbols. */
const char *
_wb_cuda_exec_prim_name (const WbBsym *b)
{
  const WbSymbol *s = b->symbol, *like;

  if (s == NULL)
    return NULL;
  like = wb_symbol_get_like (s);
  if (like != NULL)
    s = like;
  if (wb_symbol_get_module (s) != WB_SYMBOL_MODULE_PRIMS)
    return NULL;
  return wb_symbol_get_name (s);
}

/* -- results -------------------------------------------------------------------------------------- */

WbRtValue *
_wb_cuda_exec_make_result (const WbBsym *b, WbTensor **outs, guint n)
{
  WbRtValue *seq;

  if (b->outputs == NULL)
    return wb_rt_value_new_none ();
  if (b->outputs->kind == WB_VALUE_NAME)
    return wb_rt_value_take_tensor (outs[0]);
  seq = wb_rt_value_new_sequence (WB_RT_TUPLE);
  for (guint i = 0; i < n; i++)
    wb_rt_value_append (seq, wb_rt_value_take_tensor (outs[i]));
  return seq;
}
