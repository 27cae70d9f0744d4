/* wb-cli-executors.c — `thunder-wb --headless executors`: which executor runs which symbol, with dtypes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per symbol with a kernel (every symbol of the symbol table with --all): symbol, executor, how
 * (kernel, kernel as the prim an executor op aliases, subsymbols, runtime), input dtypes, note; then the
 * counts and the list of symbols no executor of this build can run. The executors are the registry's rows
 * (compiler/wb-executor-info.def): ours, and Thunder's marked read-only. --format json prints
 * {"executors": [{"name", "description", "runs", "device"}], "symbols": [{"symbol", "executor", "category",
 * "dtypes", "note"}]}. --claims PATH asks the registry's claim rule, as the planner, the runner and the
 * app do, for every top-level call of PATH's input stage and every executor. */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-cli.h"
#include "wb-executors.h"
#include "wb-profiler.h"

static const char *const runs_names[] = {
  [WB_EXECUTOR_RUNS_HERE] = "here",
  [WB_EXECUTOR_RUNS_RUNNER] = "runner",
  [WB_EXECUTOR_RUNS_THUNDER] = "thunder",
};

/* (transfer full) "in thunder-wb-runner (PATH); GPU: ..." or NULL when the build has no runner. */
static char *
cuda_availability (void)
{
  g_autofree char *runner = wb_runner_find_program ();
  g_autofree char *why = NULL;

  if (runner == NULL)
    return NULL;
  if (wb_cuda_is_available (&why))
    return g_strdup_printf ("GPU runner %s", runner);
  return g_strdup_printf ("GPU runner %s; not usable here: %s", runner, why);
}

/* (transfer full) the line about registry row @info that is not in the process: the GPU runner's (when
 * this build has the runner: @avail) and Thunder's; NULL for a runner row without a runner. */
static char *
other_executor_line (const WbExecutorInfo *info, const char *avail)
{
  const char *name = wb_executor_info_get_name (info);

  if (wb_executor_info_is_thunder (info))
    return g_strdup_printf (_ ("%s: %s (Thunder's executor: read-only, planned with and shown, never run here)"), name,
                            wb_executor_info_get_description (info));
  if (avail == NULL)
    return NULL;
  return g_strdup_printf ("%s: %s (%s)", name, wb_executor_info_get_description (info), avail);
}

/* --claims PATH: for each top-level call of PATH's input stage, every executor's answer. */
static int
print_claims (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = NULL;
  g_autoptr (GHashTable) types = NULL;
  const WbTraceEntry *input;

  if (!(set = wb_cli_load (path, &error)))
    return wb_cli_report_error (error);
  if ((input = wb_pipeline_find_input (set)) == NULL)
    return wb_cli_usage_error (_ ("%s: no trace to plan from"), path);
  types = wb_executor_info_types_new (input->trace);
  for (guint i = 0; i < input->trace->n_body; i++)
    {
      const WbBsym *b = input->trace->body[i];

      if (b->kind != WB_BSYM_CALL || wb_executor_info_is_utility (b))
        continue;
      g_print ("%s:%u: %s\n", input->path, wb_trace_get_bsym_line (input->trace, b), b->name);
      for (guint id = 1; id < WB_N_EXECUTOR_IDS; id++)
        {
          const WbExecutorInfo *info = wb_executor_info_get (id);
          g_autofree char      *why = NULL;
          gboolean              ok = wb_executor_info_can_run (info, b, wb_executor_info_types_lookup, types, &why);

          g_print ("  %s %-22s %s\n", ok ? "yes" : "no ", wb_executor_info_get_name (info), ok ? "" : why ? why
                                                                                                          : "");
        }
    }
  return WB_EXIT_OK;
}

int
wb_cli_check_runnable_executor (const char *option, const char *name)
{
  const WbExecutorInfo *info = name ? wb_executor_info_lookup (name) : NULL;
  g_auto (GStrv) known = NULL;
  g_autofree char *list = NULL;

  if (name == NULL || (info != NULL && !wb_executor_info_is_thunder (info)))
    return WB_EXIT_OK;
  known = wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE);
  list = g_strjoinv (", ", known);
  if (info != NULL)
    return wb_cli_usage_error (_ ("%s: “%s” is one of Thunder's executors, read-only here (known: %s)"), option, name, list);
  return wb_cli_usage_error (_ ("%s: unknown executor “%s” (known: %s)"), option, name, list);
}

static int
compare_strings (const char **a, const char **b)
{
  return strcmp (*a, *b);
}

/* How an executor runs symbol @name: "kernel", "kernel as prims.x" (an executor's alias of a prim),
 * "subsymbols" (composites and fusion regions run their printed decomposition), "runtime" (handled by the
 * interpreter), or NULL when it cannot. @row gets the kernel row. */
static const char *
how (const char *name, GArray *rows, const WbExecutorSupport **row, char **like_name)
{
  const WbSymbol          *sym = wb_symbol_lookup (name, strlen (name));
  const WbSymbol          *like;
  static const char *const runtime[] = { "prims.get_grad", "prims.python_del", "prims.python_return",
                                         "prims.unpack_trivial", "prims.unpack_sequence", "prims.unpack_tuple",
                                         "prims.unpack_list", "prims.unpack_attr", "prims.unpack_parameter",
                                         "prims.unpack_submodule", "prims.unpack_buffer", "prims.unpack_getitem",
                                         "prims.unpack_key", "prims.unpack_dict_key", "prims.unpack_function_obj",
                                         "prims.unpack_thunder_module", "prims.unpack_cache_info", NULL };

  *row = NULL;
  *like_name = NULL;
  for (guint i = 0; i < rows->len; i++)
    if (strcmp (g_array_index (rows, WbExecutorSupport, i).symbol, name) == 0)
      {
        *row = &g_array_index (rows, WbExecutorSupport, i);
        return "kernel";
      }
  if (sym != NULL && wb_symbol_get_module (sym) == WB_SYMBOL_MODULE_EXECUTOR && (like = wb_symbol_get_like (sym)) != NULL &&
      wb_symbol_get_module (like) == WB_SYMBOL_MODULE_PRIMS)
    for (guint i = 0; i < rows->len; i++)
      if (strcmp (g_array_index (rows, WbExecutorSupport, i).symbol, wb_symbol_get_name (like)) == 0)
        {
          *row = &g_array_index (rows, WbExecutorSupport, i);
          *like_name = g_strdup (wb_symbol_get_name (like));
          return "kernel";
        }
  if (g_strv_contains (runtime, name))
    return "runtime";
  if (sym != NULL && (wb_symbol_get_module (sym) == WB_SYMBOL_MODULE_LTORCH || wb_symbol_get_module (sym) == WB_SYMBOL_MODULE_TORCH ||
                      wb_symbol_get_module (sym) == WB_SYMBOL_MODULE_FUSION))
    return "subsymbols";
  return NULL;
}

/* One row per printed name of the symbol table (compiler/wb-symbol.h), or only the symbols with kernels. */
static void
print_symbol_table (const char *const *names, gboolean all)
{
  guint n = wb_symbol_table_get_n_names ();
  guint n_kernel = 0, n_sub = 0, n_runtime = 0, n_none = 0;
  g_autoptr (GPtrArray) none = g_ptr_array_new_with_free_func (g_free);

  g_print ("\n%-62s %-8s %-40s %-42s %s\n", "symbol", "executor", "how", "dtypes", "note");
  for (guint e = 0; names[e]; e++)
    {
      g_autoptr (GArray) rows = wb_executor_list_support (wb_executor_lookup (names[e]));
      g_autoptr (GPtrArray) sorted = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (sorted, g_strdup (wb_symbol_table_get_name (i)));
      /* kernels the table does not name (e.g. ltorch.nll_loss_backward printed bare) */
      for (guint i = 0; i < rows->len; i++)
        if (wb_symbol_lookup (g_array_index (rows, WbExecutorSupport, i).symbol,
                              strlen (g_array_index (rows, WbExecutorSupport, i).symbol)) == NULL)
          g_ptr_array_add (sorted, g_strdup (g_array_index (rows, WbExecutorSupport, i).symbol));
      g_ptr_array_sort (sorted, (GCompareFunc) compare_strings);
      for (guint i = 0; i < sorted->len; i++)
        {
          const char              *name = sorted->pdata[i];
          const WbExecutorSupport *row;
          g_autofree char         *like = NULL;
          g_autofree char         *how_s = NULL;
          g_autofree char         *dt = NULL;
          const char              *h;

          if (!g_hash_table_add (seen, (gpointer) name))
            continue;
          h = how (name, rows, &row, &like);
          if (h == NULL)
            {
              n_none++;
              g_ptr_array_add (none, g_strdup (name));
              if (!all)
                continue;
            }
          else if (row != NULL)
            n_kernel++;
          else if (strcmp (h, "runtime") == 0)
            n_runtime++;
          else
            n_sub++;
          if (!all && row == NULL)
            continue;
          how_s = like ? g_strdup_printf ("kernel as %s", like) : g_strdup (h ? h : "-");
          dt = row ? wb_dtype_mask_to_string (row->dtypes) : g_strdup ("-");
          g_print ("%-62s %-8s %-40s %-42s %s\n", name, h ? names[e] : "-", how_s, dt,
                   row && row->note ? row->note : "");
        }
    }
  g_print ("\n%u symbols with a kernel, %u through their printed subsymbols (ltorch.*, torch.*, regions), "
           "%u handled by the runtime, %u not supported%s\n",
           n_kernel, n_sub, n_runtime, n_none, all ? "" : " (--all lists every symbol)");
  if (!all && none->len > 0)
    {
      g_print ("%s", _ ("not supported (prims and executor ops without a kernel):"));
      for (guint i = 0; i < none->len; i++)
        g_print ("%s %s", i ? "," : "", (char *) none->pdata[i]);
      g_print ("\n");
    }
  g_print ("%s\n", _ ("Symbols without a kernel run through their printed subsymbols; prims.get_grad, unpacking, del and\n"
                      "return are handled by the runtime. Dtypes: input dtypes accepted (- = not dtype-specific); bf16/f16\n"
                      "compute in f32 and round to nearest even."));
}

int
wb_cli_command_executors (int    argc,
                          char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = g_new0 (char *, argc + 1);
  g_autofree char   *format = NULL;
  g_autofree char   *claims = NULL;
  gboolean           all = FALSE;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_ ("Output format: text (default) or json"), "FORMAT" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, N_ ("List every symbol of the symbol table, not only those with kernels"), NULL },
    { "claims", 0, 0, G_OPTION_ARG_FILENAME, &claims, N_ ("For each top-level call of PATH's input stage, whether each executor takes it, and why not"), "PATH" },
    { NULL }
  };
  const char *const *names = wb_executor_get_names ();

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  g_set_prgname ("thunder-wb --headless executors");
  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _ ("Lists the executors of this build and, per symbol, which one runs it on which dtypes."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_set_prgname ("thunder-wb");
      return wb_cli_usage_error ("%s", error->message);
    }
  g_set_prgname ("thunder-wb");
  if (g_strv_length (args) != 1)
    return wb_cli_usage_error (_ ("“%s” takes no PATH"), "executors");
  if (format != NULL && g_strcmp0 (format, "text") != 0 && g_strcmp0 (format, "json") != 0)
    return wb_cli_usage_error (_ ("unknown format “%s” (known: text, json)"), format);
  if (claims != NULL)
    return print_claims (claims);

  if (g_strcmp0 (format, "json") == 0)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "executors");
      json_builder_begin_array (b);
      for (guint e = 0; names[e]; e++)
        {
          g_autofree char *d = wb_executor_describe (wb_executor_lookup (names[e]));
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, names[e]);
          json_builder_set_member_name (b, "description");
          json_builder_add_string_value (b, d);
          json_builder_set_member_name (b, "runs");
          json_builder_add_string_value (b, runs_names[WB_EXECUTOR_RUNS_HERE]);
          json_builder_end_object (b);
        }
      {
        g_autofree char *avail = cuda_availability ();

        for (guint id = 1; id < WB_N_EXECUTOR_IDS; id++)
          {
            const WbExecutorInfo *info = wb_executor_info_get (id);
            g_autofree char      *d = NULL;

            if (wb_executor_info_get_runs (info) == WB_EXECUTOR_RUNS_HERE || (d = other_executor_line (info, avail)) == NULL)
              continue;
            json_builder_begin_object (b);
            json_builder_set_member_name (b, "name");
            json_builder_add_string_value (b, wb_executor_info_get_name (info));
            json_builder_set_member_name (b, "description");
            json_builder_add_string_value (b, d);
            json_builder_set_member_name (b, "runs");
            json_builder_add_string_value (b, runs_names[wb_executor_info_get_runs (info)]);
            if (!wb_executor_info_is_thunder (info))
              {
                json_builder_set_member_name (b, "device");
                json_builder_add_string_value (b, "cuda"); /* the device */
              }
            json_builder_end_object (b);
          }
      }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "symbols");
      json_builder_begin_array (b);
      for (guint e = 0; names[e]; e++)
        {
          g_autoptr (GArray) rows = wb_executor_list_support (wb_executor_lookup (names[e]));
          for (guint i = 0; i < rows->len; i++)
            {
              const WbExecutorSupport *r = &g_array_index (rows, WbExecutorSupport, i);
              g_autofree char         *dt = wb_dtype_mask_to_string (r->dtypes);
              json_builder_begin_object (b);
              json_builder_set_member_name (b, "symbol");
              json_builder_add_string_value (b, r->symbol);
              json_builder_set_member_name (b, "executor");
              json_builder_add_string_value (b, names[e]);
              json_builder_set_member_name (b, "category");
              json_builder_add_string_value (b, r->category);
              json_builder_set_member_name (b, "dtypes");
              json_builder_add_string_value (b, dt);
              json_builder_set_member_name (b, "note");
              if (r->note)
                json_builder_add_string_value (b, r->note);
              else
                json_builder_add_null_value (b);
              json_builder_end_object (b);
            }
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      g_print ("%s\n", text);
      return WB_EXIT_OK;
    }

  for (guint e = 0; names[e]; e++)
    {
      g_autofree char *d = wb_executor_describe (wb_executor_lookup (names[e]));
      g_print ("%s\n", d);
    }
  {
    g_autofree char *avail = cuda_availability ();

    for (guint id = 1; id < WB_N_EXECUTOR_IDS; id++)
      {
        const WbExecutorInfo *info = wb_executor_info_get (id);
        g_autofree char      *line = NULL;

        if (wb_executor_info_get_runs (info) != WB_EXECUTOR_RUNS_HERE && (line = other_executor_line (info, avail)) != NULL)
          g_print ("%s\n", line);
      }
  }
  print_symbol_table (names, all);
  return WB_EXIT_OK;
}
