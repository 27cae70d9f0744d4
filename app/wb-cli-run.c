/* wb-cli-run.c — `thunder-wb --headless run PATH`: execute a stage on an executor and compare results
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * thunder-wb --headless run PATH [--stage K] [--device cpu] [--inputs F.safetensors] [--seed N]
 *     [--save-outputs F.safetensors] [--compare F.safetensors [--rtol R --atol A]] [--check-shapes]
 *     [--detect-nan]
 *     [--threads N] [--stats] [--recompile]
 * For a directory the default stage is the final forward (last forward_NN.py) with backward_00.py for
 * training cases; inputs are named as in tensors.safetensors (input.x, param.0.weight: executors/wb-case.h).
 * Prints one line per output and gradient: dtype, shape and, with --compare, the max abs and relative
 * error (relative = max abs / max |reference|) and whether every element is within atol + rtol * |ref|.
 * Exit: 0 ok; 1 a comparison, a --check-shapes/input check or --detect-nan failed; 2 bad input or usage;
 * 3 an op the executor cannot run (the message names the symbol and FILE:LINE) or no such device. */
#include "config.h"

#include "wb-cli-run.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wb-cli-cuda.h"
#include "wb-cli.h"
#include "wb-executors.h"

static int
executor_exit_code (const GError *error)
{
  return wb_cli_report_error (error);
}

const WbCaseStage *
wb_cli_pick_stage (WbCase *c, const char *stage)
{
  char  *end = NULL;
  gint64 k;

  if (stage == NULL)
    return wb_case_get_default_stage (c);
  k = g_ascii_strtoll (stage, &end, 10);
  if (end != stage && *end == '\0')
    return k >= 0 ? wb_case_find_stage (c, (int) k, NULL) : NULL;
  return wb_case_find_stage (c, -1, stage);
}

char *
wb_cli_ambiguous_default (WbCase *c, const char *path, const char *option)
{
  g_autoptr (GPtrArray) subsets = wb_case_list_subprograms (c);
  g_autoptr (GString) names = g_string_new (NULL);

  if (subsets == NULL)
    return NULL;
  for (guint j = 0; j < subsets->len && j < 3; j++)
    g_string_append_printf (names, "%s%s", j ? ", " : "", (const char *) subsets->pdata[j]);
  /* TRANSLATORS: the folder, how many sub-programs, some of their names, "..." when there are more, the option
   * that takes one program, then a sub-program's folder */
  return g_strdup_printf (_ ("%1$s holds %2$u sub-programs, each with its own inputs (%3$s%4$s): %5$s takes one program, so give the "
                             "folder of one, such as %1$s/%6$s (`stages %1$s` lists them all)"),
                          path, subsets->len, names->str, subsets->len > 3 ? ", ..." : "", option, (const char *) subsets->pdata[0]);
}

char *
wb_cli_subprogram_file (const char *file, const char *name, gboolean make_dir, GError **error)
{
  g_autofree char *dir = NULL, *base = NULL, *sub = NULL;

  if (file == NULL)
    return NULL;
  dir = g_path_get_dirname (file);
  base = g_path_get_basename (file);
  sub = g_build_filename (dir, name, NULL);
  if (make_dir && g_mkdir_with_parents (sub, 0755) != 0)
    {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", sub, g_strerror (e));
      return NULL;
    }
  return g_build_filename (sub, base, NULL);
}

const char *
wb_cli_case_failure (WbCase *c)
{
  WbTraceSet *set = wb_case_get_trace_set (c);

  for (guint i = 0; i < wb_trace_set_get_n_failures (set); i++)
    {
      const WbTraceFailure *f = wb_trace_set_get_failure (set, i);

      if (!f->not_a_trace && strstr (f->path, G_DIR_SEPARATOR_S "stages" G_DIR_SEPARATOR_S) == NULL)
        return f->message;
    }
  return NULL;
}

static gboolean have_reference_file;

/* --f64 --inputs F: F's float32 tensors as float64, the cotangents (grad_output) among them; takes @st */
static WbSafetensors *
file_to_f64 (WbSafetensors *st, GError **error)
{
  g_autoptr (WbSafetensors) in = st;
  g_autoptr (WbSafetensors) out = wb_safetensors_new ();

  for (guint i = 0; i < wb_safetensors_get_n (in); i++)
    {
      WbTensor *t = wb_safetensors_get_tensor (in, i);
      g_autoptr (WbTensor) t64 = t->dtype == WB_DTYPE_FLOAT32 ? wb_tensor_to_dtype (t, WB_DTYPE_FLOAT64, error) : wb_tensor_ref (t);

      if (t64 == NULL)
        return NULL;
      wb_safetensors_add (out, wb_safetensors_get_name (in, i), t64);
    }
  return g_steal_pointer (&out);
}

gboolean
wb_cli_compare_tensor (const WbTensor *got, const WbTensor *ref, gboolean have_tol, double rtol, double atol, WbCompareResult *r, double *rtol_used, double *atol_used, GError **error)
{
  g_return_val_if_fail (got != NULL && ref != NULL && r != NULL, FALSE);

  if (!have_tol)
    wb_dtype_default_tolerance (ref->dtype, &rtol, &atol);
  if (wb_tensor_compare (got, ref, rtol, atol, TRUE, r, error) && !have_tol && r->mismatches > 0 && r->max_ref > 1 &&
      (ref->dtype == WB_DTYPE_BFLOAT16 || ref->dtype == WB_DTYPE_FLOAT16))
    {
      /* half precision by default: the absolute tolerance is relative to the tensor's scale (max |ref|). A
       * weight gradient sums thousands of products; two correct kernels that sum in different orders differ
       * by about one unit in the last place of the tensor's largest elements, wherever the element is
       * small itself (cancellation), which a fixed atol cannot express */
      atol *= r->max_ref;
      wb_tensor_compare (got, ref, rtol, atol, TRUE, r, NULL);
    }
  if (rtol_used != NULL)
    *rtol_used = rtol;
  if (atol_used != NULL)
    *atol_used = atol;
  return error == NULL || *error == NULL;
}

static void
print_value_line (const char *name, WbRtValue *v, WbTensor *ref, double rtol_opt, double atol_opt, gboolean have_tol, gboolean *all_ok, guint *compared)
{
  g_autofree char *shape = NULL;
  WbCompareResult  r;
  g_autoptr (GError) error = NULL;
  double rtol, atol;

  if (v == NULL || v->kind != WB_RT_TENSOR)
    {
      g_autofree char *d = wb_rt_value_describe (v);
      g_print ("%-28s %-5s %-18s %s\n", name, "-", "-", d);
      return;
    }
  shape = wb_tensor_shape_to_string (v->tensor);
  if (ref == NULL)
    {
      /* with --compare, a name the file lacks says so; without, the line is just the value's type */
      g_print ("%-28s %-5s %-18s %s\n", name, wb_dtype_shortname (v->tensor->dtype), shape,
               have_reference_file ? _ ("(not in the reference file)") : "");
      return;
    }
  if (!wb_cli_compare_tensor (v->tensor, ref, have_tol, rtol_opt, atol_opt, &r, &rtol, &atol, &error))
    {
      g_print ("%-28s %-5s %-18s %s\n", name, wb_dtype_shortname (v->tensor->dtype), shape, error->message);
      *all_ok = FALSE;
      return;
    }
  (*compared)++;
  if (r.mismatches > 0)
    *all_ok = FALSE;
  g_print ("%-28s %-5s %-18s %11.3e %11.3e  %s%s\n", name, wb_dtype_shortname (v->tensor->dtype), shape,
           r.max_abs, r.rel, r.mismatches ? "FAIL" : "ok", r.head ? _ (" (leading elements)") : "");
  if (r.mismatches)
    g_print ("%-28s %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " elements outside atol %g + rtol %g * |ref| (first: #%" G_GINT64_FORMAT ")\n",
             "", r.mismatches, r.n, atol, rtol, r.first_mismatch);
}

/* The reference tensor for @name: exact, else "NAME.head" (a partial sample). */
WbTensor *
wb_cli_find_reference (WbSafetensors *ref, const char *name)
{
  g_autofree char *head = NULL;
  WbTensor        *t;

  if (ref == NULL)
    return NULL;
  if ((t = wb_safetensors_lookup (ref, name)) != NULL)
    return t;
  head = g_strdup_printf ("%s.head", name);
  return wb_safetensors_lookup (ref, head);
}

/* --stats: the time per kernel (element-type utf8 WbKernelStat). */
static void
print_kernel_stats (GHashTable *stats)
{
  GHashTableIter it;
  gpointer       k, v;
  gint64         total = 0;
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_hash_table_iter_init (&it, stats);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_ptr_array_add (keys, k), total += ((WbKernelStat *) v)->ns;
  g_print ("\n%-60s %7s %12s %6s\n", "kernel", "calls", "ms", "share");
  for (guint i = 0; i < keys->len; i++)
    {
      WbKernelStat *s = g_hash_table_lookup (stats, keys->pdata[i]);
      g_print ("%-60s %7u %12.3f %5.1f%%\n", (char *) keys->pdata[i], s->count, s->ns / 1e6,
               total ? 100.0 * s->ns / total : 0);
    }
}

/* A tolerance: @text (nullable: 0) as a number >= 0 into *@value; FALSE when it is not one. */
static gboolean
parse_tolerance (const char *text, double *value)
{
  char *end = NULL;

  *value = text ? g_ascii_strtod (text, &end) : 0;
  return text == NULL || (*end == '\0' && *value >= 0);
}

/* Runs @stage in the GPU runner once the device is chosen as `profile` and the app choose it
 * (WbProfileJob: a missing runner or GPU is said the same way everywhere), on the runner the job started
 * and probed for that choice; NULL with the exit code. */
static WbCaseRun *
run_on_cuda (WbCase *c, const WbCaseStage *stage, GHashTable *inputs, WbSafetensors *input_file, const WbRunOptions *options, const char *default_executor, int *code, GError **error)
{
  g_autoptr (WbProgram) program = wb_case_make_program (c, stage, NULL);
  g_autoptr (WbProfileJob) job = program ? wb_profile_job_new (c, program, stage->label) : NULL;
  g_autoptr (WbRunner) runner = NULL;
  const char *iters = g_getenv ("WB_CUDA_ITERS");

  if (job != NULL)
    {
      wb_profile_job_set_device (job, WB_PROFILE_DEVICE_CUDA);
      if (!wb_profile_job_choose_device (job, error))
        {
          *code = WB_EXIT_ENVIRONMENT;
          return NULL;
        }
      runner = wb_profile_job_steal_runner (job);
    }
  return wb_cli_run_stage_on_cuda (c, stage, inputs, input_file, options, (guint) g_ascii_strtoull (iters ? iters : "0", NULL, 10), default_executor,
                                   runner, code, error);
}

/* What ran: the case, stage and device, where the inputs came from, the run's note and (cpu) its times */
static void
print_run_header (WbCase *c, const WbCaseStage *stage, WbCaseRun *run, WbSafetensors *input_file, const char *inputs_path, gint64 seed, gboolean on_cuda)
{
  guint n_from_file = 0;

  for (guint i = 0; i < wb_case_get_n_inputs (c); i++)
    if (input_file && wb_safetensors_lookup (input_file, wb_case_get_input (c, i)->name))
      n_from_file++;
  if (!on_cuda)
    g_print (_ ("case %s, stage %s (%s) on cpu; traced device mapped to cpu\n"), wb_case_get_name (c), stage->label,
             wb_program_kind_to_string (stage->kind));
  if (input_file)
    g_print (_ ("inputs: %u of %u from %s, the rest drawn with seed %lld\n"), n_from_file,
             wb_case_get_n_inputs (c), inputs_path, (long long) seed);
  else
    g_print (_ ("inputs: %u drawn with seed %lld\n"), wb_case_get_n_inputs (c), (long long) seed);
  if (run->note)
    g_print ("%s\n", run->note);
  if (!on_cuda) /* the runner prints synchronised timings (wb-cli-cuda.c) */
    g_print (_ ("time: forward %.3f ms, backward %.3f ms\n"), run->result->forward_ns / 1e6, run->result->backward_ns / 1e6);
}

/* A line per output and gradient, compared with @compare_file's tensor of its name when there is one, and
 * the outputs against the case's reference outputs */
static void
print_values (WbCaseRun *run, WbSafetensors *compare_file, double rtol, double atol, gboolean have_tol, gboolean *all_ok, guint *compared)
{
  have_reference_file = compare_file != NULL;
  if (compare_file)
    g_print ("%-28s %-5s %-18s %11s %11s  %s\n", "name", "dtype", "shape", "max abs", "rel", "status");
  else
    g_print ("%-28s %-5s %-18s\n", "name", "dtype", "shape");
  for (guint i = 0; i < run->names->len; i++)
    print_value_line (run->names->pdata[i], run->values->pdata[i],
                      wb_cli_find_reference (compare_file, run->names->pdata[i]), rtol, atol, have_tol, all_ok, compared);
  if (run->reference)
    for (guint i = 0; i < run->reference->len && i < run->result->outputs->len; i++)
      {
        WbRtValue       *want = run->reference->pdata[i], *got = run->result->outputs->pdata[i];
        g_autofree char *name = g_strdup_printf ("output.%u vs reference", i);
        if (want->kind == WB_RT_TENSOR)
          print_value_line (name, got, want->tensor, 0, 0, TRUE, all_ok, compared);
      }
}

/* --save-outputs: the inputs, cotangents, outputs and gradients of @run into @save_path */
static gboolean
save_outputs (WbCase *c, const WbCaseStage *stage, GHashTable *inputs, WbCaseRun *run, const char *save_path, GError **error)
{
  g_autoptr (WbSafetensors) out = wb_safetensors_new ();

  for (guint i = 0; i < wb_case_get_n_inputs (c); i++)
    {
      const char *n = wb_case_get_input (c, i)->name;
      wb_safetensors_add (out, n, g_hash_table_lookup (inputs, n));
    }
  for (guint i = 0; i < run->result->cotangents->len; i++)
    {
      WbRtValue       *v = run->result->cotangents->pdata[i];
      g_autofree char *n = run->result->cotangents->len == 1 ? g_strdup ("grad_output") : g_strdup_printf ("grad_output.%u", i);
      if (v->kind == WB_RT_TENSOR)
        wb_safetensors_add (out, n, v->tensor);
    }
  for (guint i = 0; i < run->names->len; i++)
    {
      WbRtValue *v = run->values->pdata[i];
      if (v->kind == WB_RT_TENSOR)
        wb_safetensors_add (out, run->names->pdata[i], v->tensor);
    }
  wb_safetensors_set_metadata (out, "producer", "thunder-wb run");
  wb_safetensors_set_metadata (out, "stage", stage->label);
  if (!wb_safetensors_save (out, save_path, error))
    return FALSE;
  g_print (_ ("saved %u tensors to %s\n"), wb_safetensors_get_n (out), save_path);
  return TRUE;
}

/* What `run` was asked, once the options are read: for PATH, or for each sub-program of a folder of several. */
typedef struct
{
  WbRunOptions options;
  gboolean     f64, recompile, stats, on_cuda, have_tol;
  gboolean     strict; /* a sub-program of several: a file that did not parse fails it (wb_cli_case_failure) */
  double       rtol, atol;
  gint64       seed;
  const char  *stage_arg, *inputs_path, *compare_path, *save_path, *default_executor;
  /* a sub-program of a folder run_subprograms loaded: its case shares the folder's parse (wb_case_load_subset) */
  const WbCase *parent;
  const char   *subprogram;
} RunArgs;

/* What `run` reads before it runs: the case, its stage, the --inputs and --compare files, the inputs (drawn,
 * or from the file; widened with --f64) and, for --save-outputs, a copy of them as the run starts. */
typedef struct
{
  WbCase            *c;
  WbCase            *c32; /* --f64: the f32 case whose inputs were drawn */
  const WbCaseStage *stage;
  WbSafetensors     *input_file;
  WbSafetensors     *compare_file;
  GHashTable        *inputs;
  GHashTable        *saved_inputs;
} Loaded;

static void
loaded_clear (Loaded *l)
{
  g_clear_pointer (&l->saved_inputs, g_hash_table_unref);
  g_clear_pointer (&l->inputs, g_hash_table_unref);
  g_clear_pointer (&l->compare_file, wb_safetensors_free);
  g_clear_pointer (&l->input_file, wb_safetensors_free);
  g_clear_pointer (&l->c32, wb_case_free);
  g_clear_pointer (&l->c, wb_case_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Loaded, loaded_clear)

/* Fills @l for PATH and the options; -1, or the exit code after the message. */
static int
load_inputs (Loaded *l, const char *path, const RunArgs *a, gint64 seed)
{
  g_autoptr (GError) error = NULL;
  gboolean    f64 = a->f64, recompile = a->recompile;
  const char *stage_arg = a->stage_arg, *inputs_path = a->inputs_path, *compare_path = a->compare_path, *save_path = a->save_path;
  const char *failure;

  if (!wb_cli_check_path (path, &error))
    return wb_cli_report_error (error);
  if (a->parent != NULL && !f64)
    l->c = wb_case_load_subset (a->parent, a->subprogram, &error);
  else
    l->c = wb_case_load_full (path, f64 ? WB_TRACE_SET_LOAD_F32_AS_F64 : WB_TRACE_SET_LOAD_DEFAULT, &error);
  if (l->c == NULL)
    return wb_cli_report_error (error);
  if (recompile && !wb_case_add_workbench_stages (l->c, &error))
    return executor_exit_code (error);
  if (a->strict && (failure = wb_cli_case_failure (l->c)) != NULL)
    {
      g_printerr ("%s\n", failure);
      return WB_EXIT_BAD_INPUT;
    }
  l->stage = wb_cli_pick_stage (l->c, stage_arg);
  if (l->stage == NULL)
    {
      if (stage_arg)
        return wb_cli_usage_error (_ ("no stage “%s” in %s (see “thunder-wb --headless stages %s”)"), stage_arg, path, path);
      g_printerr ("thunder-wb: %s: %s\n", path, _ ("no computation trace to run"));
      return WB_EXIT_BAD_INPUT;
    }
  if (inputs_path && (l->input_file = wb_safetensors_load (inputs_path, &error)) == NULL)
    return executor_exit_code (error);
  if (f64 && l->input_file != NULL && (l->input_file = file_to_f64 (g_steal_pointer (&l->input_file), &error)) == NULL)
    return executor_exit_code (error);
  if (compare_path && (l->compare_file = wb_safetensors_load (compare_path, &error)) == NULL)
    return executor_exit_code (error);
  /* --f64 draws the inputs the f32 program would get, then converts them, as coverage's judge does */
  if (f64 && (l->c32 = wb_case_load (path, &error)) == NULL)
    return wb_cli_report_error (error);
  l->inputs = wb_case_make_inputs (f64 ? l->c32 : l->c, l->input_file, (guint64) seed, &error);
  if (l->inputs == NULL)
    return executor_exit_code (error);
  if (f64)
    {
      GHashTable *wide = wb_case_inputs_copy (l->inputs, TRUE, &error);

      if (wide == NULL)
        return executor_exit_code (error);
      g_hash_table_unref (l->inputs);
      l->inputs = wide;
    }
  /* --save-outputs writes the inputs the run starts from: the cpu executor writes the program's in-place
   * updates (BatchNorm's running statistics, through copy_) into the tensors it is given, the GPU run does
   * not, and `run --inputs` of the file must start where this run did */
  if (save_path != NULL && (l->saved_inputs = wb_case_inputs_copy (l->inputs, FALSE, &error)) == NULL)
    return executor_exit_code (error);
  return -1;
}

/* Runs the stage of @path and prints its values and comparisons; the exit code. */
static int
run_path (const RunArgs *a, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_auto (Loaded) l = { 0 };
  g_autoptr (WbCaseRun) run = NULL;
  gboolean all_ok = TRUE;
  guint    compared = 0;
  int      loaded;

  if ((loaded = load_inputs (&l, path, a, a->seed)) >= 0)
    return loaded;
  if (a->on_cuda)
    {
      int code = WB_EXIT_ENVIRONMENT;

      if ((run = run_on_cuda (l.c, l.stage, l.inputs, l.input_file, &a->options, a->default_executor, &code, &error)) == NULL)
        {
          g_printerr ("thunder-wb: %s\n", error->message);
          return code;
        }
    }
  else
    run = wb_case_run_stage (l.c, l.stage, l.inputs, l.input_file, &a->options, &error);
  if (run == NULL)
    return executor_exit_code (error);

  print_run_header (l.c, l.stage, run, l.input_file, a->inputs_path, a->seed, a->on_cuda);
  print_values (run, l.compare_file, a->rtol, a->atol, a->have_tol, &all_ok, &compared);
  if (a->stats && run->result->stats)
    print_kernel_stats (run->result->stats);
  if (a->save_path && !save_outputs (l.c, l.stage, l.saved_inputs, run, a->save_path, &error))
    return executor_exit_code (error);
  if (l.compare_file)
    {
      g_print (_ ("%u compared: %s\n"), compared, all_ok ? _ ("all within tolerance") : _ ("MISMATCH"));
      if (compared == 0)
        g_print (_ ("note: %s holds none of these names\n"), a->compare_path);
    }
  return all_ok ? WB_EXIT_OK : WB_EXIT_CHECK_FAILED;
}

/* A folder of several sub-programs (ThunderFX's subgraphs) and no --stage: each runs in turn (PATH/<name>, its
 * case made from the folder's parse), then a line per sub-program; the first failure's exit code. A file option F is each one's DIR(F)/<name>/BASENAME(F)
 * (wb_cli_subprogram_file): --inputs PATH/tensors.safetensors runs each on its recorded inputs, --compare F
 * compares each with its own reference tensors. -1 when @path is one program (or does not load: run_path
 * says why). */
static int
run_subprograms (const RunArgs *a, const char *path)
{
  g_autoptr (WbCase) c = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autofree int *codes = NULL;
  int             exit_code = WB_EXIT_OK;

  if (a->stage_arg != NULL || !g_file_test (path, G_FILE_TEST_IS_DIR) || (c = wb_case_load (path, NULL)) == NULL ||
      (names = wb_case_list_subprograms (c)) == NULL)
    return -1;
  codes = g_new0 (int, names->len);
  for (guint i = 0; i < names->len; i++)
    {
      const char      *name = names->pdata[i];
      g_autofree char *dir = g_build_filename (path, name, NULL);
      g_autoptr (GError) error = NULL;
      RunArgs          each = *a;
      g_autofree char *inputs = wb_cli_subprogram_file (a->inputs_path, name, FALSE, NULL);
      g_autofree char *compare = wb_cli_subprogram_file (a->compare_path, name, FALSE, NULL);
      g_autofree char *save = wb_cli_subprogram_file (a->save_path, name, TRUE, &error);

      each.strict = TRUE;
      each.parent = c, each.subprogram = name; /* parsed once, with the folder */
      each.inputs_path = inputs;
      each.compare_path = compare;
      each.save_path = save;
      /* TRANSLATORS: the sub-program's number, how many there are, its folder */
      g_print (_ ("== sub-program %u of %u: %s ==\n"), i + 1, names->len, dir);
      fflush (stdout);
      codes[i] = error != NULL ? wb_cli_report_error (error) : run_path (&each, dir);
      fflush (stdout);
      if (codes[i] != WB_EXIT_OK && exit_code == WB_EXIT_OK)
        exit_code = codes[i];
      g_print ("\n");
    }
  g_print (_ ("%s: %u sub-programs, each run on its own\n"), path, names->len);
  for (guint i = 0; i < names->len; i++)
    g_print ("  %-40s %s\n", (const char *) names->pdata[i],
             codes[i] == WB_EXIT_OK             ? _ ("ok")
             : codes[i] == WB_EXIT_CHECK_FAILED ? _ ("MISMATCH (or a failed check)")
             : codes[i] == WB_EXIT_ENVIRONMENT  ? _ ("failed: an op or device it needs is missing (above)")
                                                : _ ("failed: bad input (above)"));
  return exit_code;
}

int
wb_cli_command_run (int    argc,
                    char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  g_auto (GStrv) stage_v = NULL, device_v = NULL, inputs_v = NULL, save_v = NULL, compare_v = NULL;
  g_autofree char   *stage_arg = NULL;
  g_autofree char   *device = NULL;
  g_autofree char   *inputs_path = NULL;
  g_autofree char   *save_path = NULL;
  g_autofree char   *compare_path = NULL;
  g_autofree char   *rtol_s = NULL;
  g_autofree char   *atol_s = NULL;
  g_autofree char   *default_executor = NULL;
  g_autofree char   *accumulate = NULL;
  gint64             seed = 0;
  gint               threads = 0;
  gboolean           check_shapes = FALSE, detect_nan = FALSE, stats = FALSE, recompile = FALSE, allow_cpu_fallback = FALSE;
  gboolean           f64 = FALSE;
  const GOptionEntry entries[] = {
    { "stage", 0, 0, G_OPTION_ARG_STRING_ARRAY, &stage_v,
      N_ ("Entry K of `stages PATH`, or a stage label such as forward_04 (default: the final forward, with its backward)"), "K" },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &device_v, N_ ("Device: cpu (default) or cuda"), "DEVICE" },
    { "default-executor", 0, 0, G_OPTION_ARG_STRING, &default_executor,
      N_ ("With --device cuda: the executor of every call (default: the registry's, `executors` lists them)"), "EXEC" },
    { "inputs", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs_v, N_ ("Take inputs (and grad_output) from a safetensors file"), "F" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_ ("Seed of the drawn inputs, cotangents and random ops (default 0)"), "N" },
    { "save-outputs", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &save_v, N_ ("Write inputs, outputs and gradients to a safetensors file"), "F" },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &compare_v, N_ ("Compare outputs and gradients with a safetensors file"), "F" },
    { "rtol", 0, 0, G_OPTION_ARG_STRING, &rtol_s, N_ ("Relative tolerance of --compare (default per dtype)"), "R" },
    { "atol", 0, 0, G_OPTION_ARG_STRING, &atol_s, N_ ("Absolute tolerance of --compare (default per dtype)"), "A" },
    { "check-shapes", 0, 0, G_OPTION_ARG_NONE, &check_shapes,
      N_ ("Check every executed bound symbol's output against its annotation"), NULL },
    { "detect-nan", 0, 0, G_OPTION_ARG_NONE, &detect_nan,
      N_ ("Stop at the first call whose output holds a NaN and name it (cpu; as torch.autograd.detect_anomaly)"), NULL },
    { "allow-cpu-fallback", 0, 0, G_OPTION_ARG_NONE, &allow_cpu_fallback,
      N_ ("With --device cuda: let calls no GPU executor takes run on the cpu (without it they fail the run)"), NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, N_ ("Threads for kernels and OpenBLAS (default: all processors)"), "N" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, N_ ("Print the time spent per kernel"), NULL },
    { "f64", 0, 0, G_OPTION_ARG_NONE, &f64,
      N_ ("Read every float32 of the program and its inputs as float64 (cpu): the reference coverage judges the GPU by"), NULL },
    { "accumulate", 0, 0, G_OPTION_ARG_STRING, &accumulate,
      N_ ("How the cpu accumulates f32/bf16/f16 reductions: f64 (default) or f32, rounded at every step as a plain f32 "
          "GPU kernel (the error coverage's judge allows the GPU)"),
      "f32|f64" },
    { "recompile", 0, 0, G_OPTION_ARG_NONE, &recompile,
      N_ ("Add the workbench's recomputed stages (as `stages --recompile`): --stage can name them"), NULL },
    { NULL }
  };
  RunArgs     a = { 0 };
  double      rtol = 0, atol = 0;
  gboolean    have_tol = FALSE, on_cuda = FALSE;
  const char *path;
  int         code;

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  g_set_prgname ("thunder-wb --headless run");
  context = g_option_context_new ("PATH");
  g_option_context_set_summary (context, _ ("Runs a stage of PATH on an executor (cpu) and prints its outputs and gradients;\n"
                                            "with --compare, their errors against reference tensors."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      return wb_cli_usage_error ("%s", error->message);
    }
  g_set_prgname ("thunder-wb");
  if (g_strv_length (args) != 2)
    return wb_cli_usage_error (_ ("“%s” takes one PATH"), "run");
  if (wb_cli_option_once ("--stage", stage_v, &stage_arg) || wb_cli_option_once ("--device", device_v, &device) || wb_cli_option_once ("--inputs", inputs_v, &inputs_path) || wb_cli_option_once ("--save-outputs", save_v, &save_path) || wb_cli_option_once ("--compare", compare_v, &compare_path))
    return WB_EXIT_BAD_INPUT;
  if (save_path != NULL && ((inputs_path != NULL && wb_cli_same_file (save_path, inputs_path)) || (compare_path != NULL && wb_cli_same_file (save_path, compare_path))))
    return wb_cli_usage_error (_ ("--save-outputs %s would overwrite the file it reads (--inputs or --compare)"), save_path);
  path = args[1];
  if (rtol_s || atol_s)
    {
      if (!parse_tolerance (rtol_s, &rtol))
        return wb_cli_usage_error (_ ("--rtol takes a number >= 0, not “%s”"), rtol_s);
      if (!parse_tolerance (atol_s, &atol))
        return wb_cli_usage_error (_ ("--atol takes a number >= 0, not “%s”"), atol_s);
      have_tol = TRUE;
    }
  if (device != NULL && g_strcmp0 (device, "cpu") != 0)
    {
      if (g_strcmp0 (device, "cuda") == 0 || g_str_has_prefix (device, "cuda:"))
        on_cuda = TRUE; /* runs in the GPU runner (wb-cli-cuda.c) */
      else
        return wb_cli_usage_error (_ ("unknown device “%s” (known: cpu, cuda)"), device);
    }
  if (threads < 0)
    return wb_cli_usage_error (_ ("--threads takes a number >= 1"));
  if (f64 && on_cuda)
    return wb_cli_usage_error (_ ("--f64 runs on the cpu only"));
  if (accumulate != NULL && g_strcmp0 (accumulate, "f32") != 0 && g_strcmp0 (accumulate, "f64") != 0)
    return wb_cli_usage_error (_ ("--accumulate takes f32 or f64, not “%s”"), accumulate);
  if (accumulate != NULL && on_cuda)
    return wb_cli_usage_error (_ ("--accumulate sets the cpu executor's reductions: it runs on the cpu only"));
  if (wb_cli_check_runnable_executor ("--default-executor", default_executor) != WB_EXIT_OK)
    return WB_EXIT_BAD_INPUT;
  if (threads > 0)
    wb_cpu_executor_set_num_threads ((guint) threads);

  wb_run_options_init (&a.options);
  a.options.seed = (guint64) seed;
  a.options.check_shapes = check_shapes;
  a.options.detect_nan = detect_nan;
  a.options.allow_cpu_fallback = allow_cpu_fallback;
  a.options.collect_stats = stats;
  a.options.accumulate = g_strcmp0 (accumulate, "f32") == 0 ? WB_ACCUMULATE_F32 : WB_ACCUMULATE_F64;
  /* the f64 reading draws the f32 program's random numbers, widened, as coverage's judge does */
  a.options.draw_f64_as_f32 = f64;
  a.f64 = f64;
  a.recompile = recompile;
  a.stats = stats;
  a.on_cuda = on_cuda;
  a.have_tol = have_tol;
  a.rtol = rtol;
  a.atol = atol;
  a.seed = seed;
  a.stage_arg = stage_arg;
  a.inputs_path = inputs_path;
  a.compare_path = compare_path;
  a.save_path = save_path;
  a.default_executor = default_executor;
  if ((code = run_subprograms (&a, path)) >= 0)
    return code;
  return run_path (&a, path);
}
