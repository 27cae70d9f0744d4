/* test-op-estimate.c — a fusion region's measured time split over its ops (profiler/wb-op-estimate.h), on real
 * traces: the bundled llama_layer and gpt2_block, profiled on the cpu (their default stage, forward_06 +
 * backward_00, one timed iteration).
 *
 * What is checked, from the traces themselves:
 *   - every op (subsymbol) of every region the run timed gets one estimate, none negative, and a region's
 *     estimates add up to its measured median (whole ns: exactly);
 *   - a matmul or linear inside a region gets more than the elementwise op in the same region that computes its
 *     first operand, and on the cpu (ops run one by one) the two are in the ratio of their roofline times,
 *     computed here from the annotated shapes: linear 2·M·N·K (+ M·N with a bias) FLOPs and A + W + bias + Y
 *     bytes, an elementwise op its distinct tensor arguments and its output, at this test's ceilings;
 *   - in a fused GPU region (a run on "cuda:0" with no kernel records: one group) an op whose operands are
 *     intermediates and whose result only the region reads moves no bytes (its FLOPs only), and one whose
 *     result is a region output writes it: gpt2_block's t194 = add(t190, 1e-05) and t196 = rsqrt(t194),
 *     f32[8, 1024, 1];
 *   - a GPU run of gpt2_block's first region as the nvrtc executor runs it (split at its linear: wb_cuda_split_new,
 *     each fused step's plan's kernels, "wb_k…", then a cuBLASLt kernel), with kernel records made here in that
 *     order: the linear gets the region's time in the ratio of its kernel's time to all the kernels', and each
 *     fused step's ops share their kernels' ratio;
 *   - the reports carry them labelled: JSON "estimated_lines" with "estimated_ms", Markdown "est.".
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cuda.h"
#include "wb-data.h"
#include "wb-profiler.h"
#include "wb-test-common.h"

#define GBPS 20.0
#define TFLOPS 1.0

typedef struct
{
  WbCase          *c;
  WbProgram       *program;
  WbProfile       *profile;
  WbRun           *run;
  GPtrArray       *estimates;
  WbDeviceCeilings ceilings;
} Fixture;

static void
fixture_clear (Fixture *f)
{
  g_clear_pointer (&f->estimates, g_ptr_array_unref);
  g_clear_pointer (&f->run, wb_run_free);
  g_clear_pointer (&f->profile, wb_profile_free);
  g_clear_pointer (&f->program, wb_program_unref);
  g_clear_pointer (&f->c, wb_case_free);
}

/* A cpu profile of @name's default stage: one timed iteration after none (a minute on one thread: each case is
 * profiled once, kept in @cases until the end). */
static Fixture cases[2];

static void profile_case (Fixture *f, const char *name);

static Fixture *
get_case (const char *name)
{
  Fixture *f = &cases[strcmp (name, "llama_layer") == 0 ? 0 : 1];

  if (f->run == NULL)
    profile_case (f, name);
  return f;
}

static void
profile_case (Fixture *f, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (wb_test_traces_dir (), name, NULL);
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  const WbCaseStage *stage;
  WbProfileOptions   options;

  f->c = wb_case_load (path, &error);
  g_assert_no_error (error);
  stage = wb_case_get_default_stage (f->c);
  g_assert_nonnull (stage);
  f->program = wb_case_make_program (f->c, stage, &error);
  g_assert_no_error (error);
  f->profile = wb_profile_new (f->program, stage->label);
  inputs = wb_case_make_inputs (f->c, NULL, 0, &error);
  g_assert_no_error (error);
  args = wb_case_make_args (f->c, f->program, inputs, &error);
  g_assert_no_error (error);
  wb_profile_options_init (&options);
  options.iters = 1;
  options.warmup = 0;
  f->run = wb_profile_run (f->profile, args, NULL, &options, NULL, &error);
  g_assert_no_error (error);
  f->ceilings.device_model = (char *) "test";
  f->ceilings.copy_gbps = GBPS;
  f->ceilings.bf16_tflops = TFLOPS;
  f->estimates = wb_profile_estimate_ops (f->profile, f->run, &f->ceilings);
}

/* -- the shapes, read from the trace's annotations -------------------------------------------------------- */

static void
index_types (GHashTable *types, WbBsym *const *body, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const WbBsym *b = body[i];

      if (b->has_type && (b->kind == WB_BSYM_ANNOTATION || b->kind == WB_BSYM_ASSIGN) && b->name != NULL)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
      else if (b->has_type && b->kind == WB_BSYM_CALL && b->type_name != NULL)
        g_hash_table_insert (types, (gpointer) b->type_name, (gpointer) &b->type);
      else if (b->has_type && b->kind == WB_BSYM_CALL && b->outputs != NULL && b->outputs->kind == WB_VALUE_NAME)
        g_hash_table_insert (types, (gpointer) b->outputs->text, (gpointer) &b->type);
      index_types (types, b->subsymbols, b->n_subsymbols);
    }
}

static const WbType *
tensor (GHashTable *types, const WbValue *v)
{
  const WbType *t = v != NULL && v->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, v->text) : NULL;

  return t != NULL && t->kind == WB_TYPE_TENSOR ? t : NULL;
}

static double
numel (const WbType *t)
{
  double n = 1;

  for (guint d = 0; d < t->rank; d++)
    n *= (double) t->shape[d];
  return n;
}

static double
nbytes (const WbType *t)
{
  return numel (t) * (double) wb_dtype_size (t->dtype);
}

/* The roofline of a linear or matmul @b, seconds at this test's ceilings; < 0 when a shape is unknown. */
static double
matmul_roofline (GHashTable *types, const WbBsym *b)
{
  gboolean      linear = strcmp (b->name, "prims.linear") == 0;
  const WbType *a = b->n_args > 0 ? tensor (types, b->args[0]) : NULL;
  const WbType *w = b->n_args > 1 ? tensor (types, b->args[1]) : NULL;
  const WbType *bias = linear && b->n_args > 2 ? tensor (types, b->args[2]) : NULL;
  const WbType *y = b->has_type && b->type.kind == WB_TYPE_TENSOR ? &b->type : NULL;
  double        flops, bytes;

  if (a == NULL || w == NULL || y == NULL || a->rank == 0)
    return -1;
  flops = 2.0 * numel (y) * (double) a->shape[a->rank - 1] + (bias ? numel (y) : 0);
  bytes = nbytes (a) + nbytes (w) + (bias ? nbytes (bias) : 0) + nbytes (y);
  return MAX (bytes / (GBPS * 1e9), flops / (TFLOPS * 1e12));
}

/* The roofline of elementwise @b (its distinct tensor arguments read, its output written, one FLOP an element). */
static double
elementwise_roofline (GHashTable *types, const WbBsym *b)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const WbType *y = b->has_type && b->type.kind == WB_TYPE_TENSOR ? &b->type : NULL;
  double        bytes;

  if (y == NULL)
    return -1;
  bytes = nbytes (y);
  for (guint i = 0; i < b->n_args; i++)
    {
      const WbType *t = tensor (types, b->args[i]);

      if (t != NULL && !g_hash_table_contains (seen, b->args[i]->text))
        {
          g_hash_table_add (seen, (gpointer) b->args[i]->text);
          bytes += nbytes (t);
        }
    }
  return MAX (bytes / (GBPS * 1e9), numel (y) / (TFLOPS * 1e12));
}

/* -- the checks ------------------------------------------------------------------------------------------- */

static const WbOpEstimate *
find_estimate (GHashTable *index, const WbBsym *op)
{
  const WbOpEstimate *e = g_hash_table_lookup (index, op);

  g_assert_nonnull (e);
  return e;
}

/* The region's op that defines @name, or NULL. */
static const WbBsym *
producer (const WbBsym *region, const char *name)
{
  for (guint i = 0; i < region->n_subsymbols; i++)
    {
      const WbBsym *s = region->subsymbols[i];

      if (s->outputs != NULL && s->outputs->kind == WB_VALUE_NAME && strcmp (s->outputs->text, name) == 0)
        return s;
    }
  return NULL;
}

/* Sums, signs and coverage of every region of @trace the run timed; returns the matmul/elementwise pairs checked. */
static guint
check_trace (Fixture *f, WbTrace *trace, GHashTable *index, guint *regions)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  guint pairs = 0;

  index_types (types, trace->body, trace->n_body);
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym        *region = trace->body[i];
      const WbRegionStats *stats;
      gint64               sum = 0;

      if (!wb_bsym_is_fusion (region) || (stats = wb_run_find_region (f->run, region->name)) == NULL || stats->median_ns <= 0)
        continue;
      (*regions)++;
      for (guint k = 0; k < region->n_subsymbols; k++)
        {
          const WbOpEstimate *e = find_estimate (index, region->subsymbols[k]);

          g_assert_cmpstr (e->region, ==, region->name);
          g_assert_cmpint (e->estimated_ns, >=, 0);
          g_assert_cmpuint (e->index, ==, k);
          g_assert_cmpuint (e->line, >, stats->stage_line);
          sum += e->estimated_ns;
        }
      g_assert_cmpint (sum, ==, stats->median_ns);
      /* a matmul against the elementwise op that computes its first operand */
      for (guint k = 0; k < region->n_subsymbols; k++)
        {
          const WbBsym       *m = region->subsymbols[k], *p;
          const WbOpEstimate *em, *ep;
          double              rm, rp, expected, actual;

          if (m->name == NULL || (strcmp (m->name, "prims.linear") != 0 && strcmp (m->name, "prims.matmul") != 0) || m->n_args == 0 ||
              m->args[0]->kind != WB_VALUE_NAME || (p = producer (region, m->args[0]->text)) == NULL || p->symbol == NULL ||
              (wb_symbol_get_category (p->symbol) != WB_SYMBOL_CATEGORY_ELEMENTWISE &&
               wb_symbol_get_category (p->symbol) != WB_SYMBOL_CATEGORY_CONVERSION))
            continue;
          rm = matmul_roofline (types, m);
          rp = elementwise_roofline (types, p);
          if (rm <= 0 || rp <= 0)
            continue;
          em = find_estimate (index, m);
          ep = find_estimate (index, p);
          g_assert_cmpint (em->estimated_ns, >, ep->estimated_ns);
          expected = rm / rp;
          actual = (double) em->estimated_ns / (double) MAX (ep->estimated_ns, 1);
          if (g_test_verbose ())
            g_test_message ("%s: %s %s %.3f ms vs %s %s %.3f ms: ratio %.2f, roofline %.2f", region->name, m->name, m->outputs->text,
                            em->estimated_ns / 1e6, p->name, p->outputs->text, ep->estimated_ns / 1e6, actual, expected);
          if (ep->estimated_ns >= 1000)
            g_assert_cmpfloat (fabs (actual / expected - 1.0), <, 1e-2);
          pairs++;
        }
    }
  return pairs;
}

static void
test_cpu (gconstpointer data)
{
  Fixture *f = get_case (data);
  g_autoptr (GHashTable) index = NULL;
  WbTrace *traces[2];
  guint    pairs = 0, regions = 0, ops = 0;

  index = wb_op_estimates_index (f->estimates);
  traces[0] = wb_program_get_forward (f->program);
  traces[1] = wb_program_get_backward (f->program);
  for (guint t = 0; t < 2; t++)
    if (traces[t] != NULL)
      pairs += check_trace (f, traces[t], index, &regions);
  for (guint i = 0; i < f->estimates->len; i++)
    {
      const WbOpEstimate *e = f->estimates->pdata[i];

      g_assert_cmpint (e->basis, ==, WB_OP_ESTIMATE_REGION); /* the cpu runs a region op by op: no kernels */
      g_assert_false (e->fused);
      ops++;
    }
  g_assert_cmpuint (g_hash_table_size (index), ==, ops);
  g_assert_cmpuint (regions, >=, 2);
  g_assert_cmpuint (pairs, >=, 1);
}

/* The fused rule on gpt2_block's first region in a GPU run of 1 ms (no kernel records: one group). */
static void
test_fused (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (wb_test_traces_dir (), "gpt2_block", "forward_06.py", NULL);
  g_autoptr (GPtrArray) parsed = wb_trace_parse_file (path, &error);
  WbTrace *trace = parsed ? parsed->pdata[0] : NULL;
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (GPtrArray) estimates = NULL;
  g_autoptr (GHashTable) index = NULL;
  WbRegionStats      *s = wb_region_stats_new ("TorchCompile0", "nvrtc");
  const WbBsym       *region = NULL, *add = NULL, *rsqrt = NULL;
  const WbOpEstimate *ea, *er;

  g_assert_no_error (error);
  for (guint i = 0; i < trace->n_body && region == NULL; i++)
    if (g_strcmp0 (trace->body[i]->name, "TorchCompile0") == 0)
      region = trace->body[i];
  g_assert_nonnull (region);
  add = producer (region, "t194");
  rsqrt = producer (region, "t196");
  g_assert_nonnull (add);
  g_assert_nonnull (rsqrt);
  run->device_name = g_strdup ("cuda:0");
  wb_run_add_iteration (run, 2000000);
  wb_region_stats_add_time (s, 1000000);
  wb_region_stats_update (s);
  wb_run_add_region (run, s);
  {
    WbTrace         *traces[1] = { trace };
    WbDeviceCeilings c = { (char *) "test", GBPS, TFLOPS, 0 };

    estimates = wb_op_estimates_compute (traces, NULL, 1, run, &c);
  }
  index = wb_op_estimates_index (estimates);
  ea = find_estimate (index, add);
  er = find_estimate (index, rsqrt);
  g_assert_true (ea->fused);
  /* t194 = add(t190, 1e-05): t190 an intermediate, t194 read only by the rsqrt: registers only */
  g_assert_cmpuint (ea->bytes, ==, 0);
  g_assert_cmpuint (ea->flops, ==, 8 * 1024);
  g_assert_cmpfloat (fabs (ea->roofline_ns - 8 * 1024 / (TFLOPS * 1e12) * 1e9), <, 1e-9);
  /* t196 = rsqrt(t194) is a region output: written, f32[8, 1024, 1] */
  g_assert_cmpuint (er->bytes, ==, 8 * 1024 * 4);
  g_assert_cmpint (er->estimated_ns, >, ea->estimated_ns);
  {
    gint64 sum = 0;

    for (guint i = 0; i < estimates->len; i++)
      sum += ((const WbOpEstimate *) estimates->pdata[i])->estimated_ns;
    g_assert_cmpint (sum, ==, 1000000);
  }
}

static WbKernelRecord *
kernel (const char *name, guint iteration, gint64 *clock, gint64 ns)
{
  WbKernelRecord *k = wb_kernel_record_new (name, "TorchCompile0");

  k->iteration = iteration;
  k->start_ns = *clock;
  k->end_ns = *clock + ns;
  *clock += ns + 1000;
  return k;
}

/* Kernel groups: gpt2_block's TorchCompile0 split at its linear, two iterations of kernel records. */
static void
test_kernel_groups (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (wb_test_traces_dir (), "gpt2_block", "forward_06.py", NULL);
  g_autoptr (GPtrArray) parsed = wb_trace_parse_file (path, &error);
  WbTrace *trace = parsed ? parsed->pdata[0] : NULL;
  g_autoptr (WbRun) run = wb_run_new ();
  g_autoptr (GPtrArray) estimates = NULL;
  g_autoptr (GHashTable) index = NULL;
  g_autoptr (WbCudaSplit) split = NULL;
  g_autoptr (GPtrArray) plans = NULL;
  g_autofree gint64 *step_ns = NULL;
  WbRegionStats     *s = wb_region_stats_new ("TorchCompile0", "nvrtc");
  const WbBsym      *region = NULL;
  gint64             kernels_ns = 0, region_ns;

  g_assert_no_error (error);
  for (guint i = 0; i < trace->n_body && region == NULL; i++)
    if (g_strcmp0 (trace->body[i]->name, "TorchCompile0") == 0)
      region = trace->body[i];
  g_assert_nonnull (region);
  split = wb_cuda_split_new (region, &error);
  g_assert_no_error (error);
  plans = wb_cuda_split_plans_annotated (trace, split, &error);
  g_assert_no_error (error);
  run->device_name = g_strdup ("cuda:0");
  /* per step: 20 us a generated kernel, 300 us the matmul; the same in both iterations */
  step_ns = g_new0 (gint64, split->n_steps);
  for (guint it = 0; it < 2; it++)
    {
      gint64 clock = 1000000 * (gint64) (it + 1);

      for (guint st = 0; st < split->n_steps; st++)
        {
          const WbCudaPlan *plan = plans->pdata[st];

          if (split->steps[st].kind == WB_CUDA_STEP_MATMUL)
            {
              wb_run_add_kernel (run, kernel ("sm90_xmma_gemm_bf16bf16_bf16f32", it, &clock, 300000));
              step_ns[st] += it == 0 ? 300000 : 0;
              continue;
            }
          for (guint k = 0; k < plan->n_kernels; k++)
            if (!plan->kernels[k].once)
              {
                wb_run_add_kernel (run, kernel (plan->kernels[k].entry, it, &clock, 20000));
                step_ns[st] += it == 0 ? 20000 : 0;
              }
        }
    }
  for (guint st = 0; st < split->n_steps; st++)
    kernels_ns += step_ns[st];
  region_ns = kernels_ns + kernels_ns / 10; /* launch gaps */
  wb_run_add_iteration (run, 2 * region_ns);
  wb_run_add_iteration (run, 2 * region_ns);
  wb_region_stats_add_time (s, region_ns);
  wb_region_stats_add_time (s, region_ns);
  wb_region_stats_update (s);
  wb_run_add_region (run, s);
  {
    WbTrace *traces[1] = { trace };

    estimates = wb_op_estimates_compute (traces, NULL, 1, run, NULL);
  }
  index = wb_op_estimates_index (estimates);
  /* each step's ops add up to its kernels' share of the region's time (within a ns each) */
  for (guint st = 0; st < split->n_steps; st++)
    {
      const WbCudaStep *step = &split->steps[st];
      double            expected = (double) region_ns * (double) step_ns[st] / (double) kernels_ns;
      gint64            sum = 0;
      guint             n = 0;

      if (step->kind == WB_CUDA_STEP_MATMUL)
        {
          for (guint i = 0; i < region->n_subsymbols; i++)
            if (region->subsymbols[i] == step->matmul || wb_cuda_split_matmul_leaf (region->subsymbols[i]) == step->matmul)
              {
                const WbOpEstimate *e = find_estimate (index, region->subsymbols[i]);

                g_assert_cmpint (e->basis, ==, WB_OP_ESTIMATE_KERNELS);
                g_assert_false (e->fused);
                sum += e->estimated_ns, n++;
              }
        }
      else
        for (guint u = 0; u < step->n_units; u++)
          {
            const WbOpEstimate *e = find_estimate (index, step->units[u]);

            g_assert_true (e->fused);
            sum += e->estimated_ns, n++;
          }
      g_test_message ("step %u (%s, %u ops): %" G_GINT64_FORMAT " ns, expected %.1f", st, step->kind == WB_CUDA_STEP_MATMUL ? "matmul" : "fused",
                      n, sum, expected);
      g_assert_cmpuint (n, >, 0);
      g_assert_cmpfloat (fabs ((double) sum - expected), <=, (double) n + 1);
    }
}

/* The reports say what the estimates are. */
static void
test_reports (void)
{
  Fixture *f = get_case ("llama_layer");
  g_autoptr (WbReport) report = NULL;
  g_autofree char *json = NULL, *markdown = NULL, *html = NULL;
  g_autofree char *text = NULL;

  text = wb_profile_dup_stage_text (f->profile);
  report = wb_report_new (f->run, &f->ceilings, "llama_layer", text);
  wb_report_set_op_estimates (report, f->estimates);
  json = wb_report_to_json (report);
  markdown = wb_report_to_markdown (report);
  html = wb_report_to_html (report);
  g_assert_nonnull (strstr (json, "\"estimated_lines\""));
  g_assert_nonnull (strstr (json, "\"estimated_ms\""));
  g_assert_nonnull (strstr (json, "\"estimated_share_of_region\""));
  g_assert_nonnull (strstr (markdown, "Estimated time per op inside regions (est.)"));
  g_assert_nonnull (strstr (html, "est. "));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/profiler/op-estimate/cpu/llama_layer", "llama_layer", test_cpu);
  g_test_add_data_func ("/profiler/op-estimate/cpu/gpt2_block", "gpt2_block", test_cpu);
  g_test_add_func ("/profiler/op-estimate/fused", test_fused);
  g_test_add_func ("/profiler/op-estimate/kernel-groups", test_kernel_groups);
  g_test_add_func ("/profiler/op-estimate/reports", test_reports);
  {
    int status = g_test_run ();

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      fixture_clear (&cases[i]);
    return status;
  }
}
