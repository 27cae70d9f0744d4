/* wb-cli-coverage-case.c — one case of `coverage`, in the child process: load, check, roundtrip,
 * recompile, run-cpu, run-gpu in order, each reported as a JSON line
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The levels work as the commands they stand for: load parses every trace file (`print`), check verifies
 * every trace (`check`), roundtrip prints every file back (`print`), recompile runs the pipeline (`stages
 * --recompile`), run-cpu and run-gpu run the default stage (`run`, `run --device cuda`) and compare its
 * outputs and gradients with tensors.safetensors when that holds every input (`run --compare`). A sub-set
 * folder (default_execs/, fallback/) without tensors.safetensors of its own uses its parent's: the same
 * model on the same inputs. */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "wb-cli-coverage-case-private.h"
#include "wb-cli-coverage.h"
#include "wb-cli-cuda.h"
#include "wb-cli-run.h"
#include "wb-executors.h"
#include "wb-profiler.h"

static void
case_work_clear (CaseWork *w)
{
  g_clear_pointer (&w->files, g_ptr_array_unref);
  g_clear_pointer (&w->traces, g_ptr_array_unref);
  g_clear_pointer (&w->errors, g_ptr_array_unref);
  g_clear_pointer (&w->skipped, g_array_unref);
  g_clear_pointer (&w->c, wb_case_free);
  g_clear_pointer (&w->c_error, g_free);
  g_clear_pointer (&w->tensors, wb_safetensors_free);
  g_clear_pointer (&w->tensors_path, g_free);
  g_clear_pointer (&w->tensors_error, g_free);
}

static int
cmp_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
add_py_files (GPtrArray *files, const char *dir, const char *prefix)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *full = g_build_filename (dir, name, NULL);

      if (g_str_has_suffix (name, ".py") && g_file_test (full, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, prefix ? g_build_filename (prefix, name, NULL) : g_strdup (name));
    }
}

GPtrArray *
wb_cli_coverage_list_files (const char *path)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (path != NULL, files);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_ptr_array_add (files, g_path_get_basename (path));
      return files;
    }
  {
    g_autofree char *stages = g_build_filename (path, "stages", NULL);

    add_py_files (files, path, NULL);
    add_py_files (files, stages, "stages");
  }
  g_ptr_array_sort (files, cmp_strings);
  return files;
}

static char *
full_path (const CaseWork *w, guint i)
{
  return w->is_dir ? g_build_filename (w->path, w->files->pdata[i], NULL) : g_strdup (w->path);
}

/* -- reporting ------------------------------------------------------------------------------------ */

static void
write_line (const CaseWork *w, JsonBuilder *builder)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  gsize            len, done = 0;

  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  line = g_strconcat (text, "\n", NULL);
  len = strlen (line);
  while (done < len)
    {
      ssize_t n = write (w->fd, line + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return; /* the parent is gone */
      done += (gsize) n;
    }
}

static void
report_start (const CaseWork *w, WbCliCoverageLevel level)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start");
  json_builder_add_string_value (b, wb_cli_coverage_level_to_string (level));
  json_builder_end_object (b);
  write_line (w, b);
}

static void
report_result (const CaseWork *w, WbCliCoverageLevel level, const WbCliCoverageResult *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "level");
  json_builder_add_string_value (b, wb_cli_coverage_level_to_string (level));
  json_builder_set_member_name (b, "result");
  wb_cli_coverage_result_to_json (r, b);
  json_builder_end_object (b);
  write_line (w, b);
}

static void
report_files (const CaseWork *w)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < w->files->len; i++)
    json_builder_add_string_value (b, w->files->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  write_line (w, b);
}

/* A file level's tally: @ok tells whether file @i passed; the first failure's error is @error. */
static void
count_file (WbCliCoverageResult *r, const CaseWork *w, guint i, gboolean ok, const char *error)
{
  r->has_files = TRUE;
  /* a file holding only `None` is no trace: neither counted nor failed (check lists it as a note) */
  if (w->skipped != NULL && g_array_index (w->skipped, gboolean, i))
    return;
  r->files++;
  if (ok)
    {
      r->files_ok++;
      return;
    }
  if (r->failed_files == NULL)
    r->failed_files = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (r->failed_files, g_strdup (w->files->pdata[i]));
  if (r->status != WB_CLI_COVERAGE_FAIL)
    wb_cli_coverage_result_set_fail (r, "%s", error);
}

/* -- load, check, roundtrip ----------------------------------------------------------------------- */

static void
parse_files (CaseWork *w)
{
  if (w->traces != NULL)
    return;
  w->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  w->errors = g_ptr_array_new_with_free_func (g_free);
  w->skipped = g_array_new (FALSE, TRUE, sizeof (gboolean));
  for (guint i = 0; i < w->files->len; i++)
    {
      g_autofree char *path = full_path (w, i);
      g_autoptr (GError) error = NULL;
      GPtrArray *traces = wb_trace_parse_file (path, &error);
      gboolean   none = g_error_matches (error, WB_TRACE_ERROR, WB_TRACE_ERROR_NOT_A_TRACE);

      g_array_append_val (w->skipped, none);
      g_ptr_array_add (w->traces, traces);
      g_ptr_array_add (w->errors, error ? g_strdup (error->message) : NULL);
    }
}

static void
level_load (CaseWork *w, WbCliCoverageResult *r)
{
  parse_files (w);
  r->status = WB_CLI_COVERAGE_OK;
  for (guint i = 0; i < w->files->len; i++)
    count_file (r, w, i, w->traces->pdata[i] != NULL, w->errors->pdata[i]);
}

/* The verifier's first error in @trace as "FILE:LINE:COL: error: MESSAGE" (transfer full), or NULL. */
static char *
first_error (const WbTrace *trace, WbVerifyFlags flags, GHashTable *sharded)
{
  g_autoptr (GPtrArray) diagnostics = wb_trace_verify_full (trace, flags, sharded, NULL);

  for (guint d = 0; d < diagnostics->len; d++)
    if (((WbDiagnostic *) diagnostics->pdata[d])->severity == WB_DIAGNOSTIC_ERROR)
      return wb_diagnostic_to_string (diagnostics->pdata[d]);
  return NULL;
}

static void
level_check (CaseWork *w, WbCliCoverageResult *r)
{
  g_autoptr (GHashTable) sharded = g_hash_table_new (g_str_hash, g_str_equal);

  parse_files (w);
  r->status = WB_CLI_COVERAGE_OK;
  /* FSDP's sharded parameters, which Thunder prints as shards before its fsdp pass */
  for (guint i = 0; i < w->files->len; i++)
    for (guint t = 0; w->traces->pdata[i] != NULL && t < ((GPtrArray *) w->traces->pdata[i])->len; t++)
      wb_dist_sharded_params_add (sharded, ((GPtrArray *) w->traces->pdata[i])->pdata[t]);
  for (guint i = 0; i < w->files->len; i++)
    {
      GPtrArray       *traces = w->traces->pdata[i];
      g_autofree char *first = NULL;

      for (guint t = 0; traces != NULL && t < traces->len && first == NULL; t++)
        first = first_error (traces->pdata[t], WB_VERIFY_DEFAULT, sharded);
      count_file (r, w, i, traces != NULL && first == NULL, traces != NULL ? first : w->errors->pdata[i]);
    }
}

/* Where @printed first differs from @text: "FILE:LINE:COL: ..." with both lines (transfer full). */
static char *
describe_difference (const char *file, const char *text, gsize text_len, const char *printed, gsize printed_len)
{
  gsize       i = 0, line_start = 0;
  guint       line = 1;
  const char *a, *b;
  int         a_len, b_len;

  while (i < text_len && i < printed_len && text[i] == printed[i])
    {
      if (text[i] == '\n')
        line++, line_start = i + 1;
      i++;
    }
  a = text + line_start;
  b = printed + line_start;
  a_len = (int) (strcspn (a, "\n") < text_len - line_start ? strcspn (a, "\n") : text_len - line_start);
  b_len = (int) (strcspn (b, "\n") < printed_len - line_start ? strcspn (b, "\n") : printed_len - line_start);
  if (i >= text_len)
    return g_strdup_printf ("%s:%u:%u: printed back with more text than the file has: “%.*s”", file, line,
                            (guint) (i - line_start + 1), MIN (b_len, 120), b);
  if (i >= printed_len)
    return g_strdup_printf ("%s:%u:%u: printed back shorter: the file goes on with “%.*s”", file, line,
                            (guint) (i - line_start + 1), MIN (a_len, 120), a);
  return g_strdup_printf ("%s:%u:%u: printed back differently: the file has “%.*s”, the printer “%.*s”", file, line,
                          (guint) (i - line_start + 1), MIN (a_len, 120), a, MIN (b_len, 120), b);
}

static void
level_roundtrip (CaseWork *w, WbCliCoverageResult *r)
{
  parse_files (w);
  r->status = WB_CLI_COVERAGE_OK;
  for (guint i = 0; i < w->files->len; i++)
    {
      GPtrArray       *traces = w->traces->pdata[i];
      g_autofree char *path = full_path (w, i);
      g_autofree char *text = NULL;
      g_autofree char *why = NULL;
      g_autoptr (GString) out = g_string_new (NULL);
      g_autoptr (GError) error = NULL;
      gsize len = 0;

      if (traces == NULL)
        {
          count_file (r, w, i, FALSE, w->errors->pdata[i]);
          continue;
        }
      if (!wb_input_read_file (path, wb_input_get_max_trace_bytes (), &text, &len, &error))
        {
          why = g_strdup (error->message);
          count_file (r, w, i, FALSE, why);
          continue;
        }
      for (guint t = 0; t < traces->len; t++)
        wb_trace_print (traces->pdata[t], out);
      if (out->len != len || memcmp (out->str, text, len) != 0)
        why = describe_difference (path, text, len, out->str, out->len);
      count_file (r, w, i, why == NULL, why);
    }
}

/* -- recompile, run-cpu, run-gpu ------------------------------------------------------------------ */

/* The case as `run` loads it, without its sub-sets (each is a case of its own). */
static WbCase *
ensure_case (CaseWork *w, WbCliCoverageResult *r)
{
  g_autoptr (GError) error = NULL;

  if (w->c == NULL && w->c_error == NULL)
    {
      w->c = wb_case_load_full (w->path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
      if (w->c == NULL)
        w->c_error = g_strdup (error->message);
    }
  if (w->c == NULL)
    wb_cli_coverage_result_set_fail (r, "%s", w->c_error);
  return w->c;
}

/* The first error of the verifier (names defined before use and once, regions consistent; types are the
 * pipeline's own) in the traces the workbench computed, as first_error gives it; NULL when none. */
static char *
workbench_stage_error (const WbCase *c)
{
  const WbTraceSet *set = wb_case_get_trace_set (c);

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      g_autofree char    *first = g_strcmp0 (e->subset, "workbench") == 0 ? first_error (e->trace, WB_VERIFY_NO_TYPES, NULL) : NULL;

      if (first != NULL)
        return g_strdup_printf ("%s (a stage the workbench computed)", first);
    }
  return NULL;
}

static void
level_recompile (CaseWork *w, WbCliCoverageResult *r)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *bad = NULL;

  if (ensure_case (w, r) == NULL)
    return;
  if (!wb_case_add_workbench_stages (w->c, &error))
    wb_cli_coverage_result_set_fail (r, "%s", error->message);
  else if ((bad = workbench_stage_error (w->c)) != NULL)
    wb_cli_coverage_result_set_fail (r, "%s", bad);
  else
    r->status = WB_CLI_COVERAGE_OK;
}

/* The reference tensors: the folder's tensors.safetensors, else (a sub-set) its parent's. */
static WbSafetensors *
ensure_tensors (CaseWork *w)
{
  g_autofree char *parent = NULL;
  g_autoptr (GError) error = NULL;

  if (w->tensors_tried || !w->is_dir)
    return w->tensors;
  w->tensors_tried = TRUE;
  parent = g_path_get_dirname (w->path);
  w->tensors_path = g_build_filename (w->path, "tensors.safetensors", NULL);
  if (!g_file_test (w->tensors_path, G_FILE_TEST_EXISTS))
    {
      g_free (w->tensors_path);
      w->tensors_path = g_build_filename (parent, "tensors.safetensors", NULL);
      if (!g_file_test (w->tensors_path, G_FILE_TEST_EXISTS))
        {
          g_clear_pointer (&w->tensors_path, g_free);
          return NULL;
        }
    }
  if ((w->tensors = wb_safetensors_load (w->tensors_path, &error)) == NULL)
    w->tensors_error = g_strdup (error->message);
  return w->tensors;
}

/* The first input of @c that @tensors lacks (transfer none), or NULL when it holds them all. */
static const char *
missing_input (WbCase *c, WbSafetensors *tensors)
{
  for (guint i = 0; i < wb_case_get_n_inputs (c); i++)
    if (wb_safetensors_lookup (tensors, wb_case_get_input (c, i)->name) == NULL)
      return wb_case_get_input (c, i)->name;
  return NULL;
}

/* run-cpu (@on_cuda FALSE) or run-gpu: the default stage as `run` runs it. */
static void
level_run (CaseWork *w, WbCliCoverageResult *r, gboolean on_cuda)
{
  const WbCaseStage *stage;
  WbSafetensors     *tensors;
  const char        *missing = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (WbCaseRun) run = NULL;
  g_autoptr (GError) error = NULL;
  WbRunOptions options;
  double       gflop;

  if (ensure_case (w, r) == NULL)
    return;
  if ((stage = wb_case_get_default_stage (w->c)) == NULL)
    {
      wb_cli_coverage_result_set_fail (r, "%s: no computation trace to run", w->path);
      return;
    }
  /* one rank alone would run its collectives on a communicator of one (an all_gather returning its own shard):
   * both levels leave it to the multi-GPU profile, which starts a runner per rank */
  if (wb_trace_set_get_world_size (wb_case_get_trace_set (w->c)) > 1)
    {
      g_autofree char *parent = g_path_get_dirname (w->path);
      g_autofree char *rank = g_path_get_basename (parent);
      g_autofree char *entry = g_path_get_basename (w->path);
      g_autofree char *detail = NULL;

      /* an entry of a rank folder (CASE/rank<N>/<ENTRY>, ThunderFX's subgraphs): the case folder with --stage */
      if (g_str_has_prefix (rank, "rank") && g_ascii_isdigit (rank[4]))
        detail = g_strdup_printf ("world size %d: its collectives need every rank; `profile` of the case folder with "
                                  "--stage %s/%s runs it, one GPU and one runner per rank",
                                  wb_trace_set_get_world_size (wb_case_get_trace_set (w->c)), entry, stage->label);
      else
        detail = g_strdup_printf ("world size %d: its collectives need every rank; `profile` of the case folder runs it, "
                                  "one GPU and one runner per rank",
                                  wb_trace_set_get_world_size (wb_case_get_trace_set (w->c)));

      wb_cli_coverage_result_set_not_run (r, WB_CLI_COVERAGE_REASON_RANKS, detail);
      return;
    }
  if (on_cuda && w->options->no_cuda != NULL)
    {
      wb_cli_coverage_result_set_not_run (r, WB_CLI_COVERAGE_REASON_NO_CUDA, w->options->no_cuda);
      return;
    }
  gflop = wb_cli_coverage_estimate_gflop (w->c, stage);
  if (!on_cuda && gflop > w->options->cpu_budget_gflop)
    {
      g_autofree char *detail = g_strdup_printf ("%s: estimated %.1f GFLOP a run, above --cpu-budget-gflop %g",
                                                 stage->label, gflop, w->options->cpu_budget_gflop);

      wb_cli_coverage_result_set_not_run (r, WB_CLI_COVERAGE_REASON_BUDGET, detail);
      return;
    }
  tensors = ensure_tensors (w);
  if (w->tensors_error != NULL)
    {
      wb_cli_coverage_result_set_fail (r, "%s", w->tensors_error);
      return;
    }
  if (tensors != NULL && (missing = missing_input (w->c, tensors)) != NULL)
    tensors = NULL; /* inputs drawn: nothing to compare with */
  if ((inputs = wb_case_make_inputs (w->c, tensors, 0, &error)) == NULL)
    {
      wb_cli_coverage_result_set_fail (r, "%s", error->message);
      return;
    }
  wb_run_options_init (&options);
  if (on_cuda)
    {
      int code = WB_EXIT_ENVIRONMENT;

      run = wb_cli_run_stage_on_cuda (w->c, stage, inputs, tensors, &options, 0, NULL, NULL, &code, &error);
      if (run == NULL && error->domain == WB_RUNNER_ERROR &&
          (error->code == WB_RUNNER_ERROR_NOT_FOUND || error->code == WB_RUNNER_ERROR_NO_GPU))
        {
          wb_cli_coverage_result_set_not_run (r, WB_CLI_COVERAGE_REASON_NO_CUDA, error->message);
          return;
        }
    }
  else
    run = wb_case_run_stage (w->c, stage, inputs, tensors, &options, &error);
  if (run == NULL)
    {
      wb_cli_coverage_result_set_fail (r, "%s", error->message);
      return;
    }
  if (tensors != NULL)
    wb_cli_coverage_compare_results (r, run, tensors, w->tensors_path);
  else
    {
      r->status = WB_CLI_COVERAGE_OK;
      if (missing != NULL)
        r->detail = g_strdup_printf ("not compared: %s lacks %s; inputs drawn with seed 0", w->tensors_path, missing);
      else
        r->detail = g_strdup ("not compared: no reference tensors; inputs drawn with seed 0");
    }
  /* nothing recorded to compare the GPU's results with: the cpu executor is the reference */
  if (on_cuda && r->status == WB_CLI_COVERAGE_OK && r->detail != NULL && g_str_has_prefix (r->detail, "not compared"))
    _wb_cli_coverage_compare_with_cpu (w, r, stage, inputs, run, gflop);
}

/* -- the child's entry point ---------------------------------------------------------------------- */

int
wb_cli_coverage_run_case (const char *path, const WbCliCoverageCaseOptions *options, int fd)
{
  CaseWork w = { 0 };
  gboolean failed = FALSE;

  g_return_val_if_fail (path != NULL && options != NULL, WB_EXIT_BAD_INPUT);
  w.path = path;
  w.options = options;
  w.fd = fd;
  w.is_dir = g_file_test (path, G_FILE_TEST_IS_DIR);
  w.files = wb_cli_coverage_list_files (path);
  if (options->threads > 0)
    wb_cpu_executor_set_num_threads (options->threads);
  report_files (&w);

  for (guint level = 0; level < WB_CLI_COVERAGE_N_LEVELS; level++)
    {
      WbCliCoverageResult r = { 0 };
      gint64              start = g_get_monotonic_time ();

      if (!(options->levels & (1u << level)))
        continue;
      report_start (&w, level);
      if (failed)
        wb_cli_coverage_result_set_not_run (&r, WB_CLI_COVERAGE_REASON_EARLIER, NULL);
      else
        switch ((WbCliCoverageLevel) level)
          {
          case WB_CLI_COVERAGE_LOAD:
            level_load (&w, &r);
            break;
          case WB_CLI_COVERAGE_CHECK:
            level_check (&w, &r);
            break;
          case WB_CLI_COVERAGE_ROUNDTRIP:
            level_roundtrip (&w, &r);
            break;
          case WB_CLI_COVERAGE_RECOMPILE:
            level_recompile (&w, &r);
            break;
          case WB_CLI_COVERAGE_RUN_CPU:
          case WB_CLI_COVERAGE_RUN_GPU:
            level_run (&w, &r, level == WB_CLI_COVERAGE_RUN_GPU);
            break;
          case WB_CLI_COVERAGE_N_LEVELS:
          default:
            g_assert_not_reached ();
          }
      r.seconds = (g_get_monotonic_time () - start) / 1e6;
      failed |= r.status == WB_CLI_COVERAGE_FAIL;
      report_result (&w, level, &r);
      wb_cli_coverage_result_clear (&r);
    }
  case_work_clear (&w);
  return WB_EXIT_OK;
}
