/* wb-cuda-autotune.c — the code generator's variants of a plan timed on the device, the fastest kept
 * (wb_cuda_executors_set_autotune, wb-cuda-executors.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As torch.compile's "max-autotune" mode and Triton's autotuner do for their kernels: the generator's choices
 * of launch shape and structure (threads per block, a pointwise grid's size, 16-byte vectors, a row kernel's
 * threads per row, the column kernel's rows and blocks, epilogues, sibling reductions, mixed reductions, lookup
 * tables) are sound for every input but best only for some. With autotuning on, the first launch of a plan in a
 * run builds the plan again under each variant of the options (a list of changes of WbCudaCodegenOptions,
 * below), keeps those whose source differs from the others, launches each on the call's own inputs (their
 * outputs compared with the default's: a variant that does not agree is refused and counted), times them with
 * CUDA events (each launch alone, the L2 cache flushed before it) and keeps the fastest where it beats the
 * default by more than the noise. The choice is stored beside the kernel cache
 * (autotune.ini in wb_nvrtc_default_cache_dir) under the device (name, architecture, SMs) and the SHA-1 of the
 * default plan's source, which holds every shape and layout: a region that is the same up to names (a model's
 * repeated layers) is timed once, and a later run on the same device reads the choice instead of timing again.
 * Plans hold no random draws (those are hand-written kernels) and never write their inputs, so a plan may be
 * launched any number of times on the same inputs. Off by default: a run then builds every plan under the
 * default options only. */
#include "config.h"

#include <string.h>

#include "wb-compare.h"
#include "wb-cuda-codegen.h"
#include "wb-cuda-exec-private.h"
#include "wb-nvrtc.h"

/* A variant: one field of WbCudaCodegenOptions (a guint or a gboolean, both an int's size) set to @value. */
typedef struct
{
  const char *name;
  gsize       field; /* offsetof (WbCudaCodegenOptions, ...); unused for the default */
  guint       value;
} Variant;

#define OPT(f) G_STRUCT_OFFSET (WbCudaCodegenOptions, f)

/* Variant 0 is the default; the names are what the report and autotune.ini show. */
static const Variant variants[] = {
  { "default", 0, 0 },
  { "block 128", OPT (pointwise_block), 128 },
  { "block 512", OPT (pointwise_block), 512 },
  { "block 1024", OPT (pointwise_block), 1024 },
  { "one wave", OPT (pointwise_blocks_per_sm), 8 },
  { "scalar", OPT (no_vector), TRUE },
  { "no warp rows", OPT (no_warp_rows), TRUE },
  { "row warp", OPT (row_threads), 32 },
  { "row 128", OPT (row_threads), 128 },
  { "row block", OPT (no_row_warp), TRUE },
  { "no epilogue", OPT (no_epilogue), TRUE },
  { "no siblings", OPT (no_siblings), TRUE },
  { "no mix", OPT (no_mix), TRUE },
  { "no table", OPT (no_table), TRUE },
  { "column rows 1", OPT (column_rows), 1 },
  { "column rows 8", OPT (column_rows), 8 },
  { "column blocks 2", OPT (column_blocks_per_sm), 2 },
  { "column blocks 8", OPT (column_blocks_per_sm), 8 },
  { "mix blocks 1", OPT (mix_blocks_per_sm), 1 },
};

G_STATIC_ASSERT (sizeof (gboolean) == sizeof (guint));

/* Timing, as Triton's do_bench: each launch alone between two events, with the L2 cache flushed before it
 * (a memset of FLUSH_BYTES, more than any GPU's L2), so that a variant is not judged on inputs its own last
 * launch left in the cache; ROUNDS rounds over the candidates in turn (a drift of the clocks falls on all) of
 * REPS launches each; a candidate's time is the median of its launches. A variant replaces the default only
 * when it is faster by more than MARGIN: smaller differences are within one launch's noise. */
#define ROUNDS 3
#define REPS 7
#define FLUSH_BYTES (256 << 20)
#define MARGIN 0.03

static gboolean  enabled;
static GKeyFile *store; /* autotune.ini as read, with this process's choices added */

void
wb_cuda_executors_set_autotune (gboolean on)
{
  enabled = on;
}

gboolean
wb_cuda_executors_get_autotune (void)
{
  return enabled;
}

guint
_wb_cuda_autotune_n_variants (void)
{
  return G_N_ELEMENTS (variants);
}

const char *
_wb_cuda_autotune_variant_name (guint v)
{
  return v < G_N_ELEMENTS (variants) ? variants[v].name : NULL;
}

void
_wb_cuda_autotune_options (guint v, WbCudaCodegenFlags flags, WbCudaCodegenOptions *o)
{
  wb_cuda_codegen_options_init_from_env (o, flags);
  if (v > 0 && v < G_N_ELEMENTS (variants))
    G_STRUCT_MEMBER (guint, o, variants[v].field) = variants[v].value;
}

static int
variant_by_name (const char *name)
{
  for (guint v = 0; name != NULL && v < G_N_ELEMENTS (variants); v++)
    if (strcmp (variants[v].name, name) == 0)
      return (int) v;
  return -1;
}

static char *
store_path (void)
{
  g_autofree char *dir = wb_nvrtc_default_cache_dir ();
  return g_build_filename (dir, "autotune.ini", NULL);
}

static char *
device_group (WbCudaRuntime *rt)
{
  const WbCudaDeviceInfo *info = wb_cuda_runtime_get_info (rt);
  return g_strdup_printf ("%s %s %d SMs", info->name, info->arch, info->sm_count);
}

/* The stored choice for @hash on @rt's device: a variant index, or -1 (none, or a name this build lacks). The
 * file is read once per process; the numbers after the name (default and chosen ns) are for people. */
static int
stored_choice (WbCudaRuntime *rt, const char *hash)
{
  g_autofree char *group = device_group (rt);
  g_autofree char *value = NULL;
  g_auto (GStrv) parts = NULL;

  if (store == NULL)
    {
      g_autofree char *path = store_path ();
      store = g_key_file_new ();
      g_key_file_load_from_file (store, path, G_KEY_FILE_NONE, NULL);
    }
  if ((value = g_key_file_get_string (store, group, hash, NULL)) == NULL)
    return -1;
  parts = g_strsplit (value, ";", 2);
  return variant_by_name (parts[0]);
}

/* Adds a choice to the store and writes it: the file read again first, so that runners tuning at the same
 * time lose at most each other's last entry; written atomically (g_key_file_save_to_file). A failure to
 * write costs a later run the timing again, nothing else: it is not an error. */
static void
store_choice (WbCudaRuntime *rt, const char *hash, guint v, double default_us, double best_us)
{
  g_autofree char *group = device_group (rt);
  g_autofree char *path = store_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *value = g_strdup_printf ("%s;%.0f;%.0f", variants[v].name, default_us * 1e3, best_us * 1e3);
  g_autoptr (GKeyFile) disk = g_key_file_new ();

  g_key_file_set_string (store, group, hash, value);
  g_mkdir_with_parents (dir, 0755);
  g_key_file_load_from_file (disk, path, G_KEY_FILE_NONE, NULL);
  g_key_file_set_string (disk, group, hash, value);
  g_key_file_save_to_file (disk, path, NULL);
}

static void
unref_outputs (WbTensor **outs, guint n)
{
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&outs[i], wb_tensor_unref);
}

/* Whether @plan's outputs on @inputs agree with @ref (the default plan's, downloaded) within the dtype's
 * tolerance for results computed two ways. FALSE with @error when the launch or a download fails. */
static gboolean
launch_agrees (WbCudaRuntime *rt, WbCudaPlan *plan, WbTensor *const *inputs, GPtrArray *ref, gboolean *agrees, GError **error)
{
  g_autofree WbTensor **outs = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));
  gboolean              ok = wb_cuda_plan_launch (rt, plan, inputs, outs, error);

  *agrees = ok && plan->n_outputs == ref->len;
  for (guint i = 0; ok && *agrees && i < plan->n_outputs; i++)
    {
      g_autoptr (WbTensor) host = wb_cuda_download (rt, outs[i], error);
      const WbTensor *r = ref->pdata[i];
      WbCompareResult cmp = { 0 };
      double          rtol, atol;

      if (host == NULL)
        ok = FALSE;
      else if (r == NULL)
        *agrees = FALSE;
      else
        {
          wb_dtype_default_tolerance (r->dtype, &rtol, &atol);
          *agrees = wb_tensor_compare (host, r, rtol, atol, FALSE, &cmp, NULL) && cmp.mismatches == 0 && !wb_compare_adds_nonfinite (&cmp, r);
        }
    }
  unref_outputs (outs, plan->n_outputs);
  return ok;
}

/* REPS launches of @plan, each after a flush of the L2 cache (@flush) and between two of @events: their GPU
 * times, µs, appended to @us. FALSE with @error. */
static gboolean
time_plan (WbCudaRuntime *rt, WbCudaPlan *plan, WbTensor *const *inputs, WbTensor *flush, CUevent *events, GArray *us, GError **error)
{
  const WbCuApi        *cu = wb_cuda_runtime_get_api (rt);
  CUstream              stream = wb_cuda_runtime_get_stream (rt);
  g_autofree WbTensor **outs = g_new0 (WbTensor *, MAX (plan->n_outputs, 1));

  for (guint r = 0; r < REPS; r++)
    {
      if (!wb_cuda_check (cu->cuMemsetD32Async (wb_cuda_tensor_ptr (flush), r, FLUSH_BYTES / 4, stream), "cuMemsetD32Async", error) ||
          !wb_cuda_check (cu->cuEventRecord (events[2 * r], stream), "cuEventRecord", error) || !wb_cuda_plan_launch (rt, plan, inputs, outs, error) ||
          !wb_cuda_check (cu->cuEventRecord (events[2 * r + 1], stream), "cuEventRecord", error))
        {
          unref_outputs (outs, plan->n_outputs);
          return FALSE;
        }
      unref_outputs (outs, plan->n_outputs);
    }
  if (!wb_cuda_check (cu->cuEventSynchronize (events[2 * REPS - 1]), "cuEventSynchronize", error))
    return FALSE;
  for (guint r = 0; r < REPS; r++)
    {
      float  ms = 0;
      double v;
      if (!wb_cuda_check (cu->cuEventElapsedTime (&ms, events[2 * r], events[2 * r + 1]), "cuEventElapsedTime", error))
        return FALSE;
      v = ms * 1e3;
      g_array_append_val (us, v);
    }
  return TRUE;
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

typedef struct
{
  guint       variant;
  WbCudaPlan *plan;  /* owned, except the default's (the plan cache's) */
  GArray     *times; /* (element-type double) µs of each timed launch */
  double      us;    /* their median */
} Candidate;

/* The candidates of @def: the default first, then every variant whose plan builds and whose source no earlier
 * candidate has. */
static GArray *
candidates_of (WbCudaPlanBuildFunc build, gconstpointer data, const WbCudaArg *args, WbCudaPlan *def)
{
  GArray   *cands = g_array_new (FALSE, TRUE, sizeof (Candidate));
  Candidate c = { 0, def, NULL, G_MAXDOUBLE };

  g_array_append_val (cands, c);
  for (guint v = 1; v < G_N_ELEMENTS (variants); v++)
    {
      WbCudaCodegenOptions o;
      gboolean             seen = FALSE;
      WbCudaPlan          *p;

      _wb_cuda_autotune_options (v, WB_CUDA_CODEGEN_DEFAULT, &o);
      if ((p = build (data, args, &o, NULL)) == NULL)
        continue;
      for (guint i = 0; i < cands->len && !seen; i++)
        seen = strcmp (g_array_index (cands, Candidate, i).plan->source, p->source) == 0;
      if (seen)
        {
          wb_cuda_plan_free (p);
          continue;
        }
      c.variant = v;
      c.plan = p;
      g_array_append_val (cands, c);
    }
  return cands;
}

static void
candidates_free (GArray *cands)
{
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = &g_array_index (cands, Candidate, i);
      if (i > 0)
        wb_cuda_plan_free (c->plan);
      g_clear_pointer (&c->times, g_array_unref);
    }
  g_array_unref (cands);
}

/* The default's outputs on @inputs, downloaded (element-type WbTensor), or NULL with @error. */
static GPtrArray *
reference_outputs (WbCudaRuntime *rt, WbCudaPlan *def, WbTensor *const *inputs, GError **error)
{
  g_autoptr (GPtrArray) ref = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  g_autofree WbTensor **outs = g_new0 (WbTensor *, MAX (def->n_outputs, 1));

  if (!wb_cuda_plan_launch (rt, def, inputs, outs, error))
    return NULL;
  for (guint i = 0; i < def->n_outputs; i++)
    {
      WbTensor *host = wb_cuda_download (rt, outs[i], error);
      if (host == NULL)
        {
          unref_outputs (outs, def->n_outputs);
          return NULL;
        }
      g_ptr_array_add (ref, host);
    }
  unref_outputs (outs, def->n_outputs);
  return g_steal_pointer (&ref);
}

/* Times @cands (the default first) on @inputs and returns the index of the fastest; the ones that fail to
 * launch or disagree with the default are dropped (refused). -1 with @error when the default itself fails. */
static int
time_candidates (WbCudaRuntime *rt, const char *where, GArray *cands, WbTensor *const *inputs, WbCudaDispatchStats *stats, GError **error)
{
  const WbCuApi *cu = wb_cuda_runtime_get_api (rt);
  g_autoptr (GPtrArray) ref = NULL;
  CUevent   events[2 * REPS] = { NULL };
  WbTensor *flush = NULL;
  gint64    flush_n = FLUSH_BYTES / 4;
  gboolean  sync = wb_cuda_runtime_get_sync (rt);
  int       best = -1;

  if ((ref = reference_outputs (rt, g_array_index (cands, Candidate, 0).plan, inputs, error)) == NULL)
    return -1;
  /* a launch each in the checked run's synchronised mode: a fault or an index out of range refuses the variant */
  for (guint i = 1; i < cands->len; i++)
    {
      Candidate *c = &g_array_index (cands, Candidate, i);
      gboolean   agrees = FALSE;
      g_autoptr (GError) local = NULL;
      gboolean launched = launch_agrees (rt, c->plan, inputs, ref, &agrees, &local);
      if (!launched || !agrees)
        {
          /* a launch the device refuses (a small GPU's limits) drops the variant; results that differ are a
           * generator's error, counted and named */
          if (launched && !agrees)
            {
              stats->autotune_refused++;
              if (stats->autotune_refusal == NULL)
                stats->autotune_refusal = g_strdup_printf ("%s of %s", variants[c->variant].name, where);
            }
          wb_cuda_plan_free (c->plan);
          g_array_remove_index (cands, i--);
        }
    }
  if (cands->len < 2)
    return 0;
  if ((flush = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &flush_n, error)) == NULL)
    return -1;
  wb_cuda_tensor_untrack (flush); /* the tuner's memory, not the program's */
  for (guint e = 0; e < G_N_ELEMENTS (events); e++)
    if (!wb_cuda_check (cu->cuEventCreate (&events[e], CU_EVENT_DEFAULT), "cuEventCreate", error))
      goto out;
  wb_cuda_runtime_set_sync (rt, FALSE);
  for (guint round = 0; round < ROUNDS; round++)
    for (guint i = 0; i < cands->len; i++)
      {
        Candidate *c = &g_array_index (cands, Candidate, i);
        if (c->times == NULL)
          c->times = g_array_new (FALSE, FALSE, sizeof (double));
        if (!time_plan (rt, c->plan, inputs, flush, events, c->times, error))
          goto out;
      }
  best = 0;
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = &g_array_index (cands, Candidate, i);
      g_array_sort (c->times, cmp_double);
      c->us = g_array_index (c->times, double, c->times->len / 2);
      if (c->us < g_array_index (cands, Candidate, best).us)
        best = (int) i;
    }
  /* the default stays unless the fastest beats it by more than the margin */
  if (g_array_index (cands, Candidate, best).us > g_array_index (cands, Candidate, 0).us * (1 - MARGIN))
    best = 0;

out:
  wb_cuda_runtime_set_sync (rt, sync);
  for (guint e = 0; e < G_N_ELEMENTS (events); e++)
    if (events[e] != NULL)
      cu->cuEventDestroy (events[e]);
  g_clear_pointer (&flush, wb_tensor_unref);
  return best;
}

int
_wb_cuda_autotune_choose (WbCudaRuntime *rt, WbCudaPlanBuildFunc build, gconstpointer data, const char *where, const WbCudaArg *args, WbTensor *const *inputs, WbCudaPlan *def, GError **error)
{
  WbCudaDispatchStats *stats = _wb_cuda_exec_stats ();
  g_autofree char     *hash = NULL;
  GArray              *cands;
  Candidate           *win;
  int                  v, best;

  if (!enabled || def->n_kernels == 0 || wb_cuda_runtime_is_capturing (rt) || wb_cuda_runtime_in_side (rt))
    return 0;
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, def->source, -1);
  if ((v = stored_choice (rt, hash)) >= 0)
    {
      stats->autotune_cached++;
      if (v > 0)
        {
          stats->autotune_changed++;
          g_ptr_array_add (stats->autotune_choices, g_strdup_printf ("%s: %s (from the cache)", where, variants[v].name));
        }
      return v;
    }
  if (!wb_cuda_runtime_synchronize (rt, error))
    return -1;
  cands = candidates_of (build, data, args, def);
  if ((best = cands->len > 1 ? time_candidates (rt, where, cands, inputs, stats, error) : 0) < 0)
    {
      candidates_free (cands);
      return -1;
    }
  win = &g_array_index (cands, Candidate, best);
  v = (int) win->variant;
  stats->autotune_tuned++;
  if (v > 0)
    {
      stats->autotune_changed++;
      g_ptr_array_add (stats->autotune_choices, g_strdup_printf ("%s: %s (%.1f us, the default %.1f us, of %u variants)", where, variants[v].name,
                                                                 win->us, g_array_index (cands, Candidate, 0).us, cands->len));
    }
  store_choice (rt, hash, (guint) v, g_array_index (cands, Candidate, 0).us, win->us);
  candidates_free (cands);
  return v;
}

void
_wb_cuda_autotune_variant_sources (WbCudaPlanBuildFunc build, gconstpointer data, const WbCudaArg *args, const WbCudaPlan *def, GPtrArray *sources)
{
  for (guint v = 1; enabled && v < G_N_ELEMENTS (variants); v++)
    {
      WbCudaCodegenOptions o;
      g_autoptr (WbCudaPlan) p = NULL;

      _wb_cuda_autotune_options (v, WB_CUDA_CODEGEN_DEFAULT, &o);
      if ((p = build (data, args, &o, NULL)) != NULL && strcmp (p->source, def->source) != 0)
        g_ptr_array_add (sources, g_strdup (p->source));
    }
}
