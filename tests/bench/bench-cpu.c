/* bench-cpu.c — the cpu executor on gpt2_block at its traced shapes: forward + backward time, the share
 * of matmul, and the matmul path against OpenBLAS's own sgemm at the same sizes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson compile -C build bench-cpu && build/tests/bench/bench-cpu [--case gpt2_block] [--iters N]
 *       [--warmup N] [--threads N] [--gemm-reps N] [--traces DIR]
 *
 * 1. Runs the case's final forward + backward (forward_06.py + backward_00.py: what Thunder runs) on
 *    seeded inputs, --warmup times untimed then --iters times; prints the median wall time and, from the
 *    per-kernel timings of the last iteration, the share of prims.linear + prims.matmul and of the sdpa
 *    ops (attention, also GEMMs inside).
 * 2. Collects every prims.linear / prims.matmul the stage runs (subsymbols of regions included) with its
 *    operand types, and times each distinct problem through the executor (the traced dtype, bf16: the
 *    path converts to f32, runs sgemm, rounds back) against cblas_sgemm alone on f32 operands of the same
 *    M, N, K and transposition. Prints GFLOP/s for both and their ratio (target >= 70%). */
#include "config.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wb-executors.h"

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* -- GEMM problems found in the traces ------------------------------------------------------------- */

typedef struct
{
  const WbBsym *bsym; /* a prims.linear or prims.matmul (for running it through the executor) */
  WbType        a, b; /* operand types */
  gboolean      has_bias;
  WbType        bias;
  guint         count; /* how many calls of this shape the stage makes */
} Gemm;

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

static gboolean
same_problem (const Gemm *g, const char *name, const WbType *a, const WbType *b)
{
  return strcmp (g->bsym->name, name) == 0 && wb_type_equal (&g->a, a) && wb_type_equal (&g->b, b);
}

static void
collect_gemms (const WbBsym *b, GHashTable *types, GArray *gemms)
{
  if (b->kind == WB_BSYM_CALL && (g_strcmp0 (b->name, "prims.linear") == 0 || g_strcmp0 (b->name, "prims.matmul") == 0) &&
      b->n_args >= 2 && b->args[0]->kind == WB_VALUE_NAME && b->args[1]->kind == WB_VALUE_NAME)
    {
      const WbType *a = g_hash_table_lookup (types, b->args[0]->text);
      const WbType *w = g_hash_table_lookup (types, b->args[1]->text);
      const WbType *bias = b->n_args > 2 && b->args[2]->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, b->args[2]->text) : NULL;
      gboolean      found = FALSE;
      if (a && w)
        {
          for (guint i = 0; i < gemms->len; i++)
            {
              Gemm *g = &g_array_index (gemms, Gemm, i);
              if (same_problem (g, b->name, a, w) && g->has_bias == (bias != NULL))
                {
                  g->count++;
                  found = TRUE;
                }
            }
          if (!found)
            {
              Gemm g = { b, *a, *w, bias != NULL, { 0 }, 1 };
              if (bias)
                g.bias = *bias;
              g_array_append_val (gemms, g);
            }
        }
    }
  for (guint i = 0; i < b->n_subsymbols; i++)
    collect_gemms (b->subsymbols[i], types, gemms);
}

/* Operands as traced: a transposed operand (a prims.transpose before the matmul) is not visible from the
 * types, so each problem is timed with contiguous operands; linear's weight is used as [N, K] (B^T). */
static WbTensor *
random_tensor (const WbType *t)
{
  WbTensor *x = wb_tensor_new (t->dtype, t->rank, t->shape, NULL);
  gint64    n = wb_tensor_numel (x);
  float    *buf = g_new (float, MAX (n, 1));

  wb_philox_uniform_f32 (1, (guint64) n, 0, buf, (gsize) n);
  for (gint64 i = 0; i < n; i++)
    {
      if (t->dtype == WB_DTYPE_BFLOAT16)
        ((guint16 *) wb_tensor_get_data (x))[i] = wb_f32_to_bf16 (buf[i] - 0.5f);
      else if (t->dtype == WB_DTYPE_FLOAT32)
        ((float *) wb_tensor_get_data (x))[i] = buf[i] - 0.5f;
      else
        wb_tensor_set_f64 (x, i, buf[i] - 0.5);
    }
  g_free (buf);
  return x;
}

static void
gemm_dims (const Gemm *g, gint64 *m, gint64 *n, gint64 *k, gint64 *batch, gboolean *trans_b)
{
  guint ra = g->a.rank, rb = g->b.rank;

  *k = g->a.shape[ra - 1];
  *m = 1;
  *batch = 1;
  if (strcmp (g->bsym->name, "prims.linear") == 0)
    {
      for (guint d = 0; d + 1 < ra; d++)
        *m *= g->a.shape[d];
      *n = g->b.shape[0];
      *trans_b = TRUE;
      return;
    }
  *m = ra >= 2 ? g->a.shape[ra - 2] : 1;
  *n = g->b.shape[rb - 1];
  for (guint d = 0; d + 2 < ra; d++)
    *batch *= g->a.shape[d];
  if (rb == 2 && ra > 2)
    *m *= *batch, *batch = 1; /* folded into one GEMM */
  *trans_b = FALSE;
}

static double
time_executor (const Gemm *g, guint reps)
{
  WbExecutor  *cpu = wb_cpu_executor_get ();
  WbRunState   state = { 0 };
  WbRtValue   *args[3];
  WbKernelCall call = { 0 };
  double       t[64];

  args[0] = wb_rt_value_take_tensor (random_tensor (&g->a));
  args[1] = wb_rt_value_take_tensor (random_tensor (&g->b));
  args[2] = g->has_bias ? wb_rt_value_take_tensor (random_tensor (&g->bias)) : wb_rt_value_new_none ();
  call.bsym = g->bsym;
  call.args = args;
  call.n_args = strcmp (g->bsym->name, "prims.linear") == 0 ? 3 : 2;
  call.state = &state;
  for (guint r = 0; r <= reps && r < 64; r++)
    {
      double t0 = now_s ();
      g_autoptr (GError) error = NULL;
      if (!wb_executor_run (cpu, &call, &error))
        g_error ("%s", error->message);
      t[r] = now_s () - t0;
      g_clear_pointer (&call.result, wb_rt_value_unref);
    }
  for (guint i = 0; i < 3; i++)
    wb_rt_value_unref (args[i]);
  return median (t + 1, MIN (reps, 63)); /* the first call is a warm-up */
}

static double
time_sgemm (gint64 m, gint64 n, gint64 k, gint64 batch, gboolean trans_b, guint reps)
{
  float *a = g_new (float, m *k), *b = g_new (float, k *n), *c = g_new (float, m *n);
  double t[64];

  for (gint64 i = 0; i < m * k; i++)
    a[i] = (float) ((i % 13) - 6) * 0.01f;
  for (gint64 i = 0; i < k * n; i++)
    b[i] = (float) ((i % 7) - 3) * 0.01f;
  for (guint r = 0; r <= reps && r < 64; r++)
    {
      double t0 = now_s ();
      for (gint64 bi = 0; bi < batch; bi++)
        cblas_sgemm (CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, (blasint) m, (blasint) n,
                     (blasint) k, 1.0f, a, (blasint) k, b, (blasint) (trans_b ? k : n), 0.0f, c, (blasint) n);
      t[r] = now_s () - t0;
    }
  g_free (a);
  g_free (b);
  g_free (c);
  return median (t + 1, MIN (reps, 63));
}

int
main (int argc, char **argv)
{
  g_autofree char   *traces = NULL;
  g_autofree char   *case_name = NULL;
  gint               iters = 3, warmup = 1, threads = 0, gemm_reps = 5;
  const GOptionEntry entries[] = {
    { "traces", 0, 0, G_OPTION_ARG_FILENAME, &traces, "Folder of cases (../shared/traces)", "DIR" },
    { "case", 0, 0, G_OPTION_ARG_STRING, &case_name, "Case (gpt2_block)", "NAME" },
    { "iters", 0, 0, G_OPTION_ARG_INT, &iters, "Timed forward + backward iterations (3)", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Untimed iterations first (1)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Threads (default: all processors)", "N" },
    { "gemm-reps", 0, 0, G_OPTION_ARG_INT, &gemm_reps, "Timed repetitions per GEMM problem (5)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GArray) gemms = g_array_new (FALSE, TRUE, sizeof (Gemm));
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char   *dir = NULL;
  g_autofree char   *desc = NULL;
  const WbCaseStage *stage;
  double            *wall;
  WbRunOptions       options;
  gint64             mm_ns = 0, attn_ns = 0, total_ns = 0;
  double             ours_flops = 0, ours_s = 0, blas_s = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (traces == NULL)
    traces = g_strdup (g_getenv ("WB_TRACES_DIR") ? g_getenv ("WB_TRACES_DIR") : WB_BENCH_DEFAULT_TRACES);
  if (case_name == NULL)
    case_name = g_strdup ("gpt2_block");
  if (threads > 0)
    wb_cpu_executor_set_num_threads ((guint) threads);
  iters = CLAMP (iters, 1, 100);
  dir = g_build_filename (traces, case_name, NULL);
  c = wb_case_load (dir, &error);
  if (c == NULL)
    g_error ("%s", error->message);
  stage = wb_case_get_default_stage (c);
  inputs = wb_case_make_inputs (c, NULL, 0, &error);
  if (inputs == NULL)
    g_error ("%s", error->message);
  desc = wb_executor_describe (wb_cpu_executor_get ());
  printf ("bench-cpu: %s, stage %s (%s); %s\n", case_name, stage->label, wb_program_kind_to_string (stage->kind), desc);

  /* 1. forward + backward */
  wb_run_options_init (&options);
  wall = g_new (double, iters);
  for (gint i = 0; i < warmup + iters; i++)
    {
      g_autoptr (WbCaseRun) run = NULL;
      double t0 = now_s ();
      options.collect_stats = i == warmup + iters - 1;
      run = wb_case_run_stage (c, stage, inputs, NULL, &options, &error);
      if (run == NULL)
        g_error ("%s", error->message);
      if (i >= warmup)
        wall[i - warmup] = now_s () - t0;
      if (options.collect_stats)
        {
          GHashTableIter it;
          gpointer       k, v;
          g_hash_table_iter_init (&it, run->result->stats);
          while (g_hash_table_iter_next (&it, &k, &v))
            {
              WbKernelStat *s = v;
              total_ns += s->ns;
              if (strcmp (k, "prims.linear") == 0 || strcmp (k, "prims.matmul") == 0)
                mm_ns += s->ns;
              else if (g_str_has_prefix (k, "sdpa"))
                attn_ns += s->ns;
            }
          printf ("last iteration: forward %.1f ms, backward %.1f ms; kernels %.1f ms in all\n",
                  run->result->forward_ns / 1e6, run->result->backward_ns / 1e6, total_ns / 1e6);
        }
      fprintf (stderr, "iteration %d: %.1f ms\n", i, (now_s () - t0) * 1e3);
    }
  printf ("forward + backward: median %.1f ms of %d iterations (after %d warm-up)\n", median (wall, iters) * 1e3, iters, warmup);
  printf ("matmul (prims.linear + prims.matmul): %.1f ms, %.1f%% of kernel time; attention (sdpa ops, GEMMs inside): %.1f ms, %.1f%%\n",
          mm_ns / 1e6, 100.0 * mm_ns / MAX (total_ns, 1), attn_ns / 1e6, 100.0 * attn_ns / MAX (total_ns, 1));

  /* 2. GEMM problems of the stage vs OpenBLAS sgemm */
  {
    WbTraceSet *set = wb_case_get_trace_set (c);
    int         entries_[2] = { stage->entry, stage->backward_entry };
    for (guint e = 0; e < 2; e++)
      {
        const WbTrace *t;
        if (entries_[e] < 0)
          continue;
        t = wb_trace_set_get_entry (set, (guint) entries_[e])->trace;
        for (guint i = 0; i < t->n_body; i++)
          collect_types (t->body[i], types);
        for (guint i = 0; i < t->n_body; i++)
          collect_gemms (t->body[i], types, gemms);
      }
  }
  printf ("\n%-13s %-24s %-20s %5s %6s %6s %6s %5s %10s %10s %7s\n", "op", "a", "b", "calls", "M", "N", "K", "batch",
          "ours GF/s", "sgemm GF/s", "ratio");
  for (guint i = 0; i < gemms->len; i++)
    {
      Gemm            *g = &g_array_index (gemms, Gemm, i);
      gint64           m, n, k, batch;
      gboolean         tb;
      g_autofree char *as = wb_type_to_string (&g->a);
      g_autofree char *bs = wb_type_to_string (&g->b);
      double           ours, blas, flops;
      gemm_dims (g, &m, &n, &k, &batch, &tb);
      flops = 2.0 * m * n * k * batch;
      ours = time_executor (g, (guint) gemm_reps);
      blas = time_sgemm (m, n, k, batch, tb, (guint) gemm_reps);
      ours_flops += flops * g->count;
      ours_s += ours * g->count;
      blas_s += blas * g->count;
      printf ("%-13s %-24s %-20s %5u %6" G_GINT64_FORMAT " %6" G_GINT64_FORMAT " %6" G_GINT64_FORMAT " %5" G_GINT64_FORMAT
              " %10.1f %10.1f %6.1f%%\n",
              g->bsym->name + 6, strchr (as, ' ') + 1, strchr (bs, ' ') + 1, g->count, m, n, k, batch,
              flops / ours / 1e9, flops / blas / 1e9, 100.0 * blas / ours);
    }
  printf ("all GEMMs of the stage (weighted by calls): ours %.1f GFLOP/s, sgemm %.1f GFLOP/s: %.1f%% (target >= 70%%)\n",
          ours_flops / ours_s / 1e9, ours_flops / blas_s / 1e9, 100.0 * blas_s / ours_s);
  g_free (wall);
  return 0;
}
