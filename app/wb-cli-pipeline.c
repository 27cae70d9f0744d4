/* wb-cli-pipeline.c — the options and output shared by commands that recompute stages
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-cli.h"

GOptionEntry *
wb_cli_pipeline_entries (WbCliPipelineOptions *o)
{
  const GOptionEntry entries[] = {
    { "recompile", 0, 0, G_OPTION_ARG_NONE, &o->recompile,
      N_ ("Recompute the hidden stages (claim, fusion, remat, CSE, split, del) after Thunder's"), NULL },
    { "executors", 0, 0, G_OPTION_ARG_STRING, &o->assignment,
      N_ ("Choose executors per region: REGION=EXECUTOR or REGION=unfuse, comma separated"), "ASSIGNMENT" },
    { "plan-with", 0, 0, G_OPTION_ARG_STRING, &o->plan_with,
      N_ ("Executors to plan with, in priority order (default for CUDA traces: cudnn,cublas,nvrtc,cuda)"), "LIST" },
    { "fusion", 0, 0, G_OPTION_ARG_STRING, &o->fusion, N_ ("Region formation: dataflow (default) or consecutive"), "TYPE" },
    { "remarks", 0, 0, G_OPTION_ARG_NONE, &o->remarks, N_ ("Also print every claim decision and its reason"), NULL },
    { NULL }
  };
  return g_memdup2 (entries, sizeof entries);
}

void
wb_cli_pipeline_options_clear (WbCliPipelineOptions *o)
{
  g_clear_pointer (&o->assignment, g_free);
  g_clear_pointer (&o->plan_with, g_free);
  g_clear_pointer (&o->fusion, g_free);
}

WbPipeline *
wb_cli_pipeline_run (WbTraceSet *set, const WbCliPipelineOptions *o, GError **error)
{
  const WbTraceEntry *input = wb_pipeline_find_input (set);
  g_auto (GStrv) plan = NULL;
  WbPipelineOptions opts = { 0 };
  WbPipeline       *p;
  g_autoptr (WbAssignment) assignment = NULL;
  g_autoptr (GError) local = NULL;
  guint n_programs = input == NULL ? wb_pipeline_count_subprograms (set) : 0;

  if (n_programs > 1)
    {
      /* a folder of several programs (ThunderFX's subgraphs, ranks): each has its own stages */
      const WbTraceEntry *first = wb_trace_set_get_entry (set, 0);
      g_autofree char    *dir = first->path != NULL ? g_path_get_dirname (first->path) : g_strdup ("<input>");
      g_autofree char    *top = g_path_get_dirname (dir);

      g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_NO_INPUT,
                   "%s: a folder of %u programs, each with its own stages: recompute one of them (%s/<name>, such as %s)", top, n_programs,
                   top, dir);
      return NULL;
    }
  if (input == NULL)
    {
      const WbTraceEntry *first = wb_trace_set_get_n_entries (set) > 0 ? wb_trace_set_get_entry (set, 0) : NULL;

      /* the input's fault: name it at its first trace (a set of only prologues, say) */
      g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_NO_INPUT,
                   "%s:%u:1: no joint (\"Grad transform pass\") or computation trace to recompute from",
                   first != NULL && first->path != NULL ? first->path : "<input>", first != NULL ? first->trace->first_line : 1);
      return NULL;
    }
  if (o->plan_with != NULL)
    {
      plan = g_strsplit (o->plan_with, ",", -1);
      for (guint i = 0; plan[i]; i++)
        g_strstrip (plan[i]);
      opts.executors = (const char *const *) plan;
    }
  if (o->fusion != NULL)
    {
      if (strcmp (o->fusion, "consecutive") == 0)
        opts.fusion_type = WB_FUSION_CONSECUTIVE;
      else if (strcmp (o->fusion, "dataflow") != 0)
        {
          g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT, "--fusion %s: expected dataflow or consecutive", o->fusion);
          return NULL;
        }
    }
  assignment = wb_assignment_parse (o->assignment, &local);
  if (assignment == NULL)
    {
      g_set_error (error, WB_PIPELINE_ERROR, WB_PIPELINE_ERROR_BAD_ASSIGNMENT, "--executors: %s", local->message);
      return NULL;
    }
  opts.assignment = assignment;
  p = wb_pipeline_run (input->trace, &opts, error);
  if (p != NULL)
    wb_pipeline_append_stages (p, set);
  return p;
}

void
wb_cli_pipeline_print_regions (const WbPipeline *p, gboolean remarks)
{
  GPtrArray *regions = wb_pipeline_get_regions (p);
  g_print ("\n%-16s  %-14s  %-11s  %5s  %6s  %7s\n", "region", "executor", "list", "ops", "inputs", "outputs");
  for (guint i = 0; i < regions->len; i++)
    {
      const WbRegion *r = regions->pdata[i];
      g_print ("%-16s  %-14s  %-11s  %5u  %6u  %7u\n", r->name, r->executor, wb_stage_list_to_string (r->list), r->n_ops,
               r->bsym->n_args, r->bsym->outputs ? r->bsym->outputs->n_items : 0);
    }
  g_print ("\n%s: %.2f ms\n", _ ("recomputed in"), wb_pipeline_get_total_ms (p));
  if (remarks)
    {
      GPtrArray *rs = wb_pipeline_get_remarks (p);
      g_print ("\n%6s  %-34s  %-8s  %s\n", "line", "symbol", "decision", "reason");
      for (guint i = 0; i < rs->len; i++)
        {
          const WbRemark *r = rs->pdata[i];
          g_print ("%6u  %-34s  %-8s  %s\n", r->line, r->symbol, r->accepted ? "accept" : "reject", r->reason);
        }
    }
}
