/* dump-cuda-kernels.c — writes every kernel the code generator emits for a folder of cases (no GPU)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dump-cuda-kernels TRACES_DIR OUT_DIR: for every case folder of TRACES_DIR (sorted by name), the
 * compiler's pipeline with the default GPU assignment; then, into OUT_DIR/<case>.cu:
 *   - every nvrtc region's plan (wb_cuda_plan_new_annotated: inputs contiguous, as annotated) under each
 *     WbCudaCodegenFlags combination, or, for a region with matmuls, the plans of its split's fused steps;
 *   - the per-op plan (wb_cuda_plan_new of one bound symbol, as the `cuda` executor builds it) of every
 *     top-level call of every stage the pipeline computed, where the generator takes it.
 * Each plan is written as its description (wb_cuda_plan_describe) and its source; a plan the generator
 * refuses is written as its error message. The generator options come from the environment here, at
 * the edge, as the runner reads them (WB_CUDA_NO_*). OUT_DIR/SUMMARY lists plans and kernels per case.
 * tools/dump-cuda-kernels.sh runs it under several switch settings and compares two dumps byte for byte:
 * a refactoring of the generator must leave every dumped byte as it was. */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb-cuda.h"

typedef struct
{
  GString *out;
  guint    plans;
  guint    kernels;
  guint    refused;
} Dump;

static void
dump_plan (Dump *d, const char *label, const WbCudaPlan *plan, const GError *error)
{
  g_autofree char *desc = NULL;

  g_string_append_printf (d->out, "// ===== %s\n", label);
  if (plan == NULL)
    {
      g_string_append_printf (d->out, "// refused (%d): %s\n", error ? error->code : 0, error ? error->message : "?");
      d->refused++;
      return;
    }
  desc = wb_cuda_plan_describe (plan);
  g_string_append (d->out, desc);
  g_string_append (d->out, plan->source);
  d->plans++;
  d->kernels += plan->n_kernels;
}

static const struct
{
  const char        *name;
  WbCudaCodegenFlags flags;
} flag_sets[] = {
  { "default", WB_CUDA_CODEGEN_DEFAULT },
  { "no-wait", WB_CUDA_CODEGEN_NO_WAIT },
  { "no-table", WB_CUDA_CODEGEN_NO_TABLE },
  { "no-wait,no-table", WB_CUDA_CODEGEN_NO_WAIT | WB_CUDA_CODEGEN_NO_TABLE },
};

static void
dump_region (Dump *d, const WbTrace *trace, const WbRegion *r)
{
  for (guint f = 0; f < G_N_ELEMENTS (flag_sets); f++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbCudaPlan) plan = wb_cuda_plan_new_annotated (trace, r->bsym, flag_sets[f].flags, &error);
      g_autofree char *label = g_strdup_printf ("region %s (%s)", r->name, flag_sets[f].name);

      if (plan == NULL && f == 0)
        {
          g_autoptr (GError) split_error = NULL;
          g_autoptr (WbCudaSplit) split = wb_cuda_split_new (r->bsym, &split_error);
          g_autoptr (GPtrArray) plans = split ? wb_cuda_split_plans_annotated (trace, split, &split_error) : NULL;

          dump_plan (d, label, NULL, error);
          if (plans == NULL)
            {
              g_autofree char *l = g_strdup_printf ("region %s split", r->name);
              dump_plan (d, l, NULL, split_error);
              return;
            }
          for (guint s = 0; s < split->n_steps; s++)
            if (split->steps[s].kind == WB_CUDA_STEP_FUSED)
              {
                g_autofree char *l = g_strdup_printf ("region %s split step %u", r->name, s);
                dump_plan (d, l, plans->pdata[s], NULL);
              }
          return;
        }
      dump_plan (d, label, plan, error);
    }
}

/* The per-op plan of every top-level call of @trace: its name operands described by the annotations. */
static void
dump_ops (Dump *d, const WbTrace *trace, guint stage)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      if (b->has_type && (b->kind == WB_BSYM_ANNOTATION || b->kind == WB_BSYM_ASSIGN) && b->name)
        g_hash_table_insert (types, (gpointer) b->name, (gpointer) &b->type);
      else if (b->has_type && b->kind == WB_BSYM_CALL && b->type_name)
        g_hash_table_insert (types, (gpointer) b->type_name, (gpointer) &b->type);
    }
  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      g_autoptr (GArray) args = g_array_new (FALSE, TRUE, sizeof (WbCudaArg));
      g_autoptr (GError) error = NULL;
      g_autoptr (WbCudaPlan) plan = NULL;
      g_autofree char *label = NULL;
      gboolean         typed = TRUE;

      if (b->kind != WB_BSYM_CALL || b->symbol == NULL || (b->n_subsymbols > 0 && g_str_has_prefix (b->name, "nvrtc")) ||
          !wb_cuda_codegen_outputs_named (b) || !wb_cuda_codegen_can_fuse (b, NULL))
        continue;
      for (guint a = 0; a < b->n_args; a++)
        {
          const WbValue *v = b->args[a];
          const WbType  *t = v->kind == WB_VALUE_NAME ? g_hash_table_lookup (types, v->text) : NULL;
          WbCudaArg      arg = { 0 };
          guint          k;
          if (v->kind != WB_VALUE_NAME)
            continue;
          if (t == NULL)
            {
              typed = FALSE;
              break;
            }
          for (k = 0; k < names->len && strcmp (names->pdata[k], v->text) != 0; k++)
            ;
          if (k < names->len)
            continue;
          if (t->kind == WB_TYPE_TENSOR)
            wb_cuda_arg_init_contiguous (&arg, t);
          else
            arg.kind = WB_CUDA_ARG_OTHER;
          g_ptr_array_add (names, (gpointer) v->text);
          g_array_append_val (args, arg);
        }
      if (!typed)
        continue;
      if (b->outputs->kind == WB_VALUE_NAME)
        g_ptr_array_add (outs, (gpointer) b->outputs->text);
      else
        for (guint k = 0; k < b->outputs->n_items; k++)
          g_ptr_array_add (outs, (gpointer) b->outputs->items[k]->text);
      plan = wb_cuda_plan_new (&b, 1, (const char *const *) names->pdata, (const WbCudaArg *) args->data, names->len,
                               (const char *const *) outs->pdata, outs->len, WB_CUDA_CODEGEN_DEFAULT, &error);
      label = g_strdup_printf ("stage %u op %u %s", stage, i, b->name);
      dump_plan (d, label, plan, error);
    }
}

static int
dump_case (const char *dir, const char *case_name, const char *out_dir, GString *summary)
{
  g_autofree char *path = g_build_filename (dir, case_name, NULL);
  g_autofree char *file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = wb_trace_set_load (path, &error);
  g_autoptr (WbPipeline) pipeline = NULL;
  const WbTraceEntry *input;
  GPtrArray          *regions;
  Dump                d = { g_string_new (NULL), 0, 0, 0 };

  if (set == NULL)
    {
      /* a folder without traces (a case recorded on another machine): listed, not an error */
      g_string_append_printf (summary, "%s: not loaded: %s\n", case_name, error->message);
      g_string_free (d.out, TRUE);
      return 0;
    }
  if ((input = wb_pipeline_find_input (set)) == NULL || (pipeline = wb_pipeline_run (input->trace, NULL, &error)) == NULL)
    {
      g_printerr ("%s: %s\n", case_name, error ? error->message : "no pipeline input");
      g_string_free (d.out, TRUE);
      return 1;
    }
  regions = wb_pipeline_get_regions (pipeline);
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion *r = regions->pdata[i];
      const WbTrace  *trace = NULL;
      if (g_strcmp0 (r->executor, "nvrtc") != 0)
        continue;
      for (guint s = wb_pipeline_get_n_stages (pipeline); s > 0 && trace == NULL; s--)
        {
          WbTrace *t = wb_stage_get_trace (wb_pipeline_get_stage (pipeline, s - 1));
          for (guint b = 0; b < t->n_body; b++)
            if (t->body[b] == r->bsym)
              trace = t;
        }
      if (trace != NULL)
        dump_region (&d, trace, r);
    }
  for (guint s = 0; s < wb_pipeline_get_n_stages (pipeline); s++)
    dump_ops (&d, wb_stage_get_trace (wb_pipeline_get_stage (pipeline, s)), s);
  g_string_append_printf (summary, "%s: %u plans, %u kernels, %u refused\n", case_name, d.plans, d.kernels, d.refused);
  file = g_strdup_printf ("%s/%s.cu", out_dir, case_name);
  if (!g_file_set_contents (file, d.out->str, (gssize) d.out->len, &error))
    {
      g_printerr ("%s\n", error->message);
      g_string_free (d.out, TRUE);
      return 1;
    }
  g_string_free (d.out, TRUE);
  return 0;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) summary = g_string_new (NULL);
  g_autofree char *summary_file = NULL;
  const char      *name;
  int              rc = 0;

  if (argc != 3)
    {
      g_printerr ("usage: %s TRACES_DIR OUT_DIR\n", argv[0]);
      return 2;
    }
  if ((dir = g_dir_open (argv[1], 0, &error)) == NULL || g_mkdir_with_parents (argv[2], 0755) != 0)
    {
      g_printerr ("%s\n", error ? error->message : "cannot create OUT_DIR");
      return 2;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *p = g_build_filename (argv[1], name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (cases, g_strdup (name));
    }
  g_ptr_array_sort (cases, compare_names);
  for (guint i = 0; i < cases->len; i++)
    rc |= dump_case (argv[1], cases->pdata[i], argv[2], summary);
  summary_file = g_build_filename (argv[2], "SUMMARY", NULL);
  g_file_set_contents (summary_file, summary->str, (gssize) summary->len, NULL);
  g_print ("%s", summary->str);
  return rc;
}
