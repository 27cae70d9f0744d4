/* wb-cli-cuda.c — the CUDA side of the headless commands: `run --device cuda` through the GPU runner and
 * `export PATH --region R --as cuda` (the generated CUDA C of a fusion region)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing here loads CUDA: runs go to thunder-wb-runner (profiler/wb-runner.h), and export only
 * generates text (executors/cuda/wb-cuda-codegen.h). */
#include "config.h"

#include "wb-cli-cuda.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-cuda.h"
#include "wb-profiler.h"

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The median of @ms (a copy is sorted) and, when wanted, its min and max; FALSE when @ms is NULL or empty. */
static gboolean
ms_median (GArray *ms, double *median, double *lo, double *hi)
{
  g_autoptr (GArray) sorted = NULL;

  if (ms == NULL || ms->len == 0)
    return FALSE;
  sorted = g_array_copy (ms);
  g_array_sort (sorted, cmp_double);
  *median = g_array_index (sorted, double, sorted->len / 2);
  if (lo != NULL)
    *lo = g_array_index (sorted, double, 0);
  if (hi != NULL)
    *hi = g_array_index (sorted, double, sorted->len - 1);
  return TRUE;
}

static void
print_times (const char *fmt, GArray *ms)
{
  double med, lo, hi;

  if (ms_median (ms, &med, &lo, &hi))
    g_print (fmt, med, ms->len, lo, hi);
}

static void
print_stats (GVariant *stats, const char *device, GArray *iter_ms, GArray *iter_gpu_ms)
{
  guint32     fused = 0, kernels = 0, ops = 0, mm = 0, fb = 0, compiles = 0, hits = 0, retries = 0, rebuilds = 0, side_calls = 0, side_joins = 0, pre_units = 0, pre_compiled = 0;
  double      cms = 0, pre_ms = 0;
  const char *attention = NULL, *convolution = NULL, *rebuild_reason = NULL;
  g_autoptr (GVariant) syms = NULL;
  g_autoptr (GVariant) reasons = NULL;

  g_variant_lookup (stats, "regions_fused", "u", &fused);
  g_variant_lookup (stats, "plan_kernels", "u", &kernels);
  g_variant_lookup (stats, "ops_generated", "u", &ops);
  g_variant_lookup (stats, "matmuls", "u", &mm);
  g_variant_lookup (stats, "fallbacks", "u", &fb);
  g_variant_lookup (stats, "nvrtc_compiles", "u", &compiles);
  g_variant_lookup (stats, "nvrtc_hits", "u", &hits);
  g_variant_lookup (stats, "compile_ms", "d", &cms);
  g_variant_lookup (stats, "retries", "u", &retries);
  g_print (_ ("device: %s\n"), device);
  g_print (_ ("executed: %u fused regions (%u kernels), %u one-op kernels, %u cuBLASLt matmuls, %u cpu fallbacks\n"), fused,
           kernels, ops, mm, fb);
  g_variant_lookup (stats, "precompile_units", "u", &pre_units);
  g_variant_lookup (stats, "precompile_compiled", "u", &pre_compiled);
  g_variant_lookup (stats, "precompile_ms", "d", &pre_ms);
  g_print (_ ("NVRTC ahead of the run: %u regions' units, %u compiled on every core in %.1f ms (the rest cached)\n"), pre_units, pre_compiled, pre_ms);
  g_print (_ ("NVRTC: %u compiled (%.1f ms), %u from the disk cache\n"), compiles, cms, hits);
  if (g_variant_lookup (stats, "attention", "&s", &attention))
    g_print (_ ("attention: %s\n"), attention);
  if (g_variant_lookup (stats, "convolution", "&s", &convolution))
    g_print (_ ("convolution: %s\n"), convolution);
  if (g_variant_lookup (stats, "side_calls", "u", &side_calls) && side_calls > 0)
    {
      const char *note = NULL;
      g_variant_lookup (stats, "side_joins", "u", &side_joins);
      g_variant_lookup (stats, "side_note", "&s", &note);
      g_print (_ ("streams: 2 (%u cuBLASLt matmuls a run on the second stream, the first waiting for it %u times)%s%s\n"), side_calls, side_joins,
               note ? "; " : "", note ? note : "");
    }
  if (g_variant_lookup (stats, "device_rebuilds", "u", &rebuilds) && rebuilds > 0)
    {
      g_variant_lookup (stats, "device_rebuild_reason", "&s", &rebuild_reason);
      g_print (_ ("  regions built again for this device's limits: %u (the first: %s)\n"), rebuilds, rebuild_reason ? rebuild_reason : "");
    }
  syms = g_variant_lookup_value (stats, "fallback_symbols", G_VARIANT_TYPE ("a{su}"));
  reasons = g_variant_lookup_value (stats, "fallback_reasons", G_VARIANT_TYPE ("a{ss}"));
  if (syms && g_variant_n_children (syms) > 0)
    {
      GVariantIter it;
      const char  *name;
      guint32      n;
      g_variant_iter_init (&it, syms);
      while (g_variant_iter_next (&it, "{&su}", &name, &n))
        g_print (_ ("  cpu fallback: %s x%u\n"), name, n);
    }
  if (reasons && g_variant_n_children (reasons) > 0)
    {
      GVariantIter it;
      const char  *name, *why;
      g_variant_iter_init (&it, reasons);
      while (g_variant_iter_next (&it, "{&s&s}", &name, &why))
        g_print (_ ("  not generated: %s: %s\n"), name, why);
    }
  print_times (_ ("time: median %.3f ms of %u runs (min %.3f, max %.3f), forward+backward, synchronised\n"), iter_ms);
  print_times (_ ("GPU time: median %.3f ms of %u runs (min %.3f, max %.3f), CUDA events at each run's start and end\n"), iter_gpu_ms);
}

WbCaseRun *
wb_cli_run_stage_on_cuda (WbCase *c, const WbCaseStage *stage, GHashTable *inputs, WbSafetensors *tensors, const WbRunOptions *options, guint iters, const char *default_executor, WbRunner *runner, int *exit_code, GError **error)
{
  return wb_cli_run_stage_on_cuda_with (c, stage, inputs, tensors, options, iters, default_executor, NULL, runner, exit_code, error);
}

WbCaseRun *
wb_cli_run_stage_on_cuda_with (WbCase *c, const WbCaseStage *stage, GHashTable *inputs, WbSafetensors *tensors, const WbRunOptions *options, guint iters, const char *default_executor, WbCliCudaCalls *calls, WbRunner *runner, int *exit_code, GError **error)
{
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autoptr (WbRunner) started = NULL;
  g_autoptr (WbRunnerResult) res = NULL;
  g_autofree char *device = NULL;
  WbRunnerRequest  req = { 0 };
  WbCaseRun       *run;

  *exit_code = WB_EXIT_ENVIRONMENT;
  if (stage->kind != WB_PROGRAM_INFERENCE && stage->kind != WB_PROGRAM_JOINT && stage->kind != WB_PROGRAM_TRAINING)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "stage %s is a %s trace: --device cuda runs computation stages (inference, joint, training); use --device cpu",
                   stage->label, wb_program_kind_to_string (stage->kind));
      return NULL;
    }
  if ((program = wb_case_make_program (c, stage, error)) == NULL)
    {
      *exit_code = WB_EXIT_BAD_INPUT;
      return NULL;
    }
  if ((args = wb_case_make_args (c, program, inputs, error)) == NULL)
    {
      *exit_code = WB_EXIT_BAD_INPUT;
      return NULL;
    }
  if (stage->kind != WB_PROGRAM_INFERENCE)
    cots = wb_case_make_cotangents (c, tensors, 1);
  if (runner == NULL)
    {
      if ((started = wb_runner_new (error)) == NULL || !wb_runner_probe (started, &device, error))
        return NULL;
      runner = started;
    }
  req.forward = wb_program_get_source (program, FALSE); /* the runner decomposes as wb_program_new did */
  req.backward = wb_program_get_source (program, TRUE);
  req.default_executor = default_executor;
  if (calls != NULL)
    {
      req.call_executors = calls->call_executors;
      req.n_call_executors = calls->n_call_executors;
      req.check = calls->check_call >= 0;
      req.check_call = calls->check_call >= 0 ? (guint) calls->check_call : 0;
      req.check_all = calls->check_all;
    }
  req.args = args;
  req.cotangents = cots;
  req.seed = options->seed;
  /* benchmarks (tests/bench): WB_CUDA_WARMUP runs before the WB_CUDA_ITERS timed ones (default 1), and
   * WB_CUDA_GRAPHS=1 replays them as a CUDA graph, as `profile --cuda-graphs` does */
  req.warmup = g_getenv ("WB_CUDA_WARMUP") ? MAX (1, (guint) g_ascii_strtoull (g_getenv ("WB_CUDA_WARMUP"), NULL, 10)) : 1;
  req.iters = iters;
  req.check_shapes = options->check_shapes;
  req.allow_cpu_fallback = options->allow_cpu_fallback;
  req.cuda_graphs = iters > 0 && g_strcmp0 (g_getenv ("WB_CUDA_GRAPHS"), "1") == 0;
  if ((res = wb_runner_run (runner, &req, exit_code, error)) == NULL)
    return NULL;
  /* more than one output: the file's grad_output.<i> now that their number is known */
  if (cots != NULL && res->result->outputs->len > 1 && tensors != NULL)
    {
      g_autoptr (GPtrArray) more = wb_case_make_cotangents (c, tensors, res->result->outputs->len);
      gboolean any = FALSE;
      for (guint i = 0; i < more->len; i++)
        any |= ((WbRtValue *) more->pdata[i])->kind != WB_RT_NONE;
      if (any)
        {
          req.cotangents = more;
          g_clear_pointer (&res, wb_runner_result_free);
          if ((res = wb_runner_run (runner, &req, exit_code, error)) == NULL)
            return NULL;
        }
    }
  if (calls != NULL && res->stats != NULL)
    {
      calls->check_result = g_variant_lookup_value (res->stats, "check_call", G_VARIANT_TYPE ("a(ssdddd)"));
      calls->check_all_result = g_variant_lookup_value (res->stats, "check_all", G_VARIANT_TYPE ("(uussddd)"));
    }
  if (calls == NULL || !calls->quiet)
    {
      g_print (_ ("case %s, stage %s (%s) on cuda through thunder-wb-runner\n"), wb_case_get_name (c), stage->label,
               wb_program_kind_to_string (stage->kind));
      print_stats (res->stats, res->device, res->iter_ms, res->iter_gpu_ms);
    }

  run = g_new0 (WbCaseRun, 1);
  run->stage = stage;
  run->names = g_ptr_array_new_with_free_func (g_free);
  run->values = wb_rt_value_array_new ();
  run->result = g_steal_pointer (&res->result);
  for (guint i = 0; i < run->result->outputs->len; i++)
    {
      g_ptr_array_add (run->names, g_strdup_printf ("output.%u", i));
      g_ptr_array_add (run->values, wb_rt_value_ref (run->result->outputs->pdata[i]));
    }
  for (guint i = 0; i < run->result->grads->len; i++)
    {
      const char *arg = i < run->result->flat_args->len ? run->result->flat_args->pdata[i] : NULL;
      g_ptr_array_add (run->names, arg ? wb_case_grad_name (c, arg) : g_strdup_printf ("grad.%u", i));
      g_ptr_array_add (run->values, wb_rt_value_ref (run->result->grads->pdata[i]));
    }
  *exit_code = WB_EXIT_OK;
  return run;
}

/* -- export --as cuda ----------------------------------------------------------------------------- */

static const WbBsym *
find_region (const WbTrace *t, const char *name)
{
  for (guint i = 0; t && i < t->n_body; i++)
    if (t->body[i]->kind == WB_BSYM_CALL && g_strcmp0 (t->body[i]->name, name) == 0 && t->body[i]->n_subsymbols > 0)
      return t->body[i];
  return NULL;
}

/* The CUDA C of a region split around its matmuls: each fused step's plan, each matmul as a comment. */
static int
export_split (const WbTrace *trace, const WbCudaSplit *split, const char *region, const char *where, const char *source_label, GString *out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) plans = wb_cuda_split_plans_annotated (trace, split, &error);
  guint n_fused = 0, n_matmul = 0;

  if (plans == NULL)
    {
      g_printerr ("thunder-wb: export: %s: %s\n", region, error->message);
      return error->code == WB_CUDA_CODEGEN_ERROR_UNSUPPORTED ? WB_EXIT_ENVIRONMENT : WB_EXIT_BAD_INPUT;
    }
  for (guint i = 0; i < split->n_steps; i++)
    split->steps[i].kind == WB_CUDA_STEP_FUSED ? n_fused++ : n_matmul++;
  g_string_append_printf (out, "// %s, region %s of %s (%s): the CUDA C the nvrtc executor compiles for inputs laid out\n"
                               "// as annotated (contiguous). The region holds matmuls, so it runs as %u steps: %u fused runs\n"
                               "// (one source each, below) between %u cuBLASLt calls, in this order.\n"
                               "// Compile each with NVRTC: -arch=sm_90 -std=c++17 -default-device.\n",
                          source_label, region, trace->filename ? trace->filename : "<trace>", where, split->n_steps, n_fused, n_matmul);
  for (guint i = 0; i < split->n_steps; i++)
    {
      const WbCudaStep *st = &split->steps[i];
      if (st->kind == WB_CUDA_STEP_MATMUL)
        {
          GString *line = g_string_new (NULL);
          wb_bsym_print (st->matmul, 0, line);
          g_string_append_printf (out, "\n// ---- step %u: cuBLASLt: %s", i + 1, line->str);
          if (line->len == 0 || line->str[line->len - 1] != '\n')
            g_string_append_c (out, '\n');
          g_string_free (line, TRUE);
        }
      else
        {
          const WbCudaPlan *plan = plans->pdata[i];
          g_autofree char  *desc = wb_cuda_plan_describe (plan);
          g_string_append_printf (out, "\n// ---- step %u: nvrtc, %u ops of the region; inputs:", i + 1, st->n_units);
          for (guint k = 0; k < st->n_inputs; k++)
            g_string_append_printf (out, " %s", st->inputs[k]);
          g_string_append (out, "; outputs:");
          for (guint k = 0; k < st->n_outputs; k++)
            g_string_append_printf (out, " %s", st->outputs[k]);
          g_string_append_printf (out, "\n%s", desc);
          g_string_append (out, plan->source);
        }
    }
  g_string_append (out, "\n// the device helpers every source above starts with:\n");
  g_string_append (out, wb_cuda_codegen_prelude ());
  return WB_EXIT_OK;
}

static int
export_region (WbTraceSet *set, int stage, const char *region, const char *source_label, GString *out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (WbPipeline) pipeline = NULL;
  g_autofree char *desc = NULL;
  const WbTrace   *trace = NULL;
  const WbBsym    *bsym = NULL;
  const char      *where = NULL;

  if (region == NULL)
    return wb_cli_usage_error (_ ("--as cuda needs --region R (a fusion region such as nvrtcFusion0 or TorchCompile0)"));
  if (stage >= 0)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, (guint) stage);
      trace = e->trace;
      bsym = find_region (trace, region);
      where = e->label ? e->label : "the stage";
    }
  else
    {
      /* the workbench's own regions first (nvrtcFusionN), then the loaded traces (TorchCompileN) */
      const WbTraceEntry *input = wb_pipeline_find_input (set);
      if (input != NULL && (pipeline = wb_pipeline_run (input->trace, NULL, NULL)) != NULL)
        {
          GPtrArray *regions = wb_pipeline_get_regions (pipeline);
          for (guint i = 0; i < regions->len && bsym == NULL; i++)
            {
              const WbRegion *r = regions->pdata[i];
              if (g_strcmp0 (r->name, region) != 0)
                continue;
              for (guint s = wb_pipeline_get_n_stages (pipeline); s > 0 && bsym == NULL; s--)
                {
                  WbTrace *t = wb_stage_get_trace (wb_pipeline_get_stage (pipeline, s - 1));
                  for (guint b = 0; b < t->n_body; b++)
                    if (t->body[b] == r->bsym)
                      trace = t, bsym = r->bsym, where = wb_stage_get_pass (wb_pipeline_get_stage (pipeline, s - 1));
                }
            }
        }
      for (guint i = wb_trace_set_get_n_entries (set); i > 0 && bsym == NULL; i--)
        {
          const WbTraceEntry *e = wb_trace_set_get_entry (set, i - 1);
          if ((bsym = find_region (e->trace, region)) != NULL)
            trace = e->trace, where = e->label ? e->label : "a loaded trace";
        }
    }
  if (bsym == NULL)
    {
      g_printerr ("thunder-wb: export: %s\n", _ ("no fusion region of that name (see `stages PATH --recompile` for the regions)"));
      return WB_EXIT_BAD_INPUT;
    }
  if ((plan = wb_cuda_plan_new_annotated (trace, bsym, WB_CUDA_CODEGEN_DEFAULT, &error)) == NULL)
    {
      /* a region with matmuls: the fused runs between its cuBLASLt calls, as the runtime splits it */
      g_autoptr (WbCudaSplit) split = wb_cuda_split_new (bsym, NULL);
      if (split != NULL)
        return export_split (trace, split, region, where, source_label, out);
      g_printerr ("thunder-wb: export: %s: %s\n", region, error->message);
      return error->code == WB_CUDA_CODEGEN_ERROR_UNSUPPORTED ? WB_EXIT_ENVIRONMENT : WB_EXIT_BAD_INPUT;
    }
  desc = wb_cuda_plan_describe (plan);
  g_string_append_printf (out, "// %s, region %s of %s (%s): the CUDA C the nvrtc executor compiles for inputs laid out\n"
                               "// as annotated (contiguous). Compile with NVRTC: -arch=sm_90 -std=c++17 -default-device.\n",
                          source_label, region, trace->filename ? trace->filename : "<trace>", where);
  g_string_append (out, desc);
  g_string_append (out, "\n");
  g_string_append (out, wb_cuda_codegen_prelude ());
  g_string_append (out, "\n");
  g_string_append (out, plan->source);
  return WB_EXIT_OK;
}

int
wb_cli_export_cuda (const char *path, int stage, const char *region, const char *output)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *base = g_path_get_basename (path);
  int              code;

  if (!(set = wb_cli_load (path, &error)))
    return wb_cli_report_error (error);
  if (stage >= (int) wb_trace_set_get_n_entries (set))
    return wb_cli_usage_error (_ ("--stage %d: %s has %u entries, numbered from 0"), stage, path, wb_trace_set_get_n_entries (set));
  if ((code = export_region (set, stage, region, base, out)) != WB_EXIT_OK)
    return code;
  if (output != NULL && strcmp (output, "-") != 0)
    {
      if (!wb_output_write (output, out->str, (gssize) out->len, &error))
        {
          g_printerr ("thunder-wb: %s\n", error->message);
          return WB_EXIT_ENVIRONMENT;
        }
    }
  else
    wb_cli_write (out->str, out->len);
  return WB_EXIT_OK;
}
