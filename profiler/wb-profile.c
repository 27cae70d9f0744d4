/* wb-profile.c — WbProfile: a program's entries (its top-level calls and regions, in execution order), their
 * executors (the assignment resolved by printed call name) and the stage's text; running it is wb-profile-run.c
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-profile-job-private.h"
#include "wb-runner.h"

/* clang-format off */
G_DEFINE_QUARK (wb-profile-error-quark, wb_profile_error)
/* clang-format on */

typedef WbProfileEntry Entry;

void
wb_profile_options_init (WbProfileOptions *options)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->iters = 20;
  options->warmup = 3;
  options->cuda_graphs = TRUE;
  options->memory_plan = FALSE; /* opt-in (--memory-plan): it does not lower the step peak yet */
}

const char *
wb_profile_phase_to_string (WbProfilePhase phase)
{
  switch (phase)
    {
    case WB_PROFILE_PHASE_CHECKED:
      return "checked run";
    case WB_PROFILE_PHASE_WARMUP:
      return "warm-up";
    case WB_PROFILE_PHASE_UNPROFILED:
      return "unprofiled";
    case WB_PROFILE_PHASE_TIMED:
      return "iteration";
    case WB_PROFILE_PHASE_TRACED:
      return "traced";
    default:
      return "?";
    }
}

gboolean
wb_cuda_is_available (char **why)
{
  g_autofree char *runner = wb_runner_find_program ();
  gboolean         gpu = g_file_test ("/dev/nvidiactl", G_FILE_TEST_EXISTS);

  if (runner != NULL && gpu)
    {
      if (why != NULL)
        *why = NULL;
      return TRUE;
    }
  if (why != NULL)
    {
      if (runner == NULL)
        *why = g_strdup_printf ("CUDA executors are not available in this build: no GPU runner (thunder-wb-runner; "
                                "configure with -Dcuda=enabled)%s",
                                gpu ? "" : "; no NVIDIA GPU was found on this machine either (/dev/nvidiactl is missing)");
      else
        *why = g_strdup ("CUDA executors are not available here: no NVIDIA GPU was found on this machine (/dev/nvidiactl is missing)");
    }
  return FALSE;
}

static void
entry_free (gpointer data)
{
  Entry *e = data;

  g_free (e->name);
  g_free (e->call_name);
  g_free (e->key);
  g_free (e);
}

/* Lines of @text as the stage counts them (a last line without a newline counts). */
static guint32
count_lines (const char *text)
{
  guint32 n = 0;
  gsize   len = strlen (text);

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  if (len > 0 && text[len - 1] != '\n')
    n++;
  return n;
}

static void
add_entries (WbProfile *p, const WbTrace *trace, guint32 offset, GHashTable *seen)
{
  g_autoptr (WbCostModel) costs = wb_cost_model_new ((WbTrace *) trace);
  guint32 first = trace->first_line > 0 ? trace->first_line : 1;

  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];
      Entry        *e;
      guint         n;
      guint         line;

      if (b->kind != WB_BSYM_CALL || b->name == NULL)
        continue;
      g_hash_table_add (p->call_names, g_strdup (b->name));
      if (wb_executor_info_is_utility (b)) /* never a region */
        continue;
      e = g_new0 (Entry, 1);
      e->call_name = g_strdup (b->name);
      n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, b->name)) + 1;
      g_hash_table_insert (seen, (gpointer) b->name, GUINT_TO_POINTER (n));
      e->name = n == 1 ? g_strdup (b->name) : g_strdup_printf ("%s#%u", b->name, n);
      e->trace = trace;
      e->bsym = b;
      e->key = wb_trace_get_call_key (trace, b);
      e->unfused_from = wb_trace_get_unfused_from (trace, b);
      e->is_region = wb_bsym_is_fusion (b);
      line = wb_trace_get_bsym_line (trace, b);
      e->stage_line = line >= first ? offset + (line - first + 1) : 0;
      wb_cost_model_count (costs, b, &e->bytes, &e->flops);
      g_ptr_array_add (p->entries, e);
      g_hash_table_insert (p->by_bsym, (gpointer) b, GUINT_TO_POINTER (p->entries->len));
    }
}

WbProfile *
wb_profile_new (WbProgram  *program,
                const char *stage_name)
{
  WbProfile *p;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  WbTrace *forward, *backward;

  g_return_val_if_fail (program != NULL, NULL);
  p = g_new0 (WbProfile, 1);
  p->program = wb_program_ref (program);
  p->stage_name = g_strdup (stage_name);
  p->entries = g_ptr_array_new_with_free_func (entry_free);
  p->by_bsym = g_hash_table_new (g_direct_hash, g_direct_equal);
  p->call_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  forward = wb_program_get_forward (program);
  backward = wb_program_get_backward (program);
  add_entries (p, forward, 0, seen);
  if (backward != NULL)
    {
      g_autofree char *text = wb_trace_to_string (forward);

      p->backward_offset = count_lines (text);
      add_entries (p, backward, p->backward_offset, seen);
    }
  return p;
}

void
wb_profile_free (WbProfile *profile)
{
  if (profile == NULL)
    return;
  g_ptr_array_unref (profile->entries);
  g_hash_table_unref (profile->by_bsym);
  g_hash_table_unref (profile->call_names);
  g_clear_pointer (&profile->assignment, wb_assignment_unref);
  g_hash_table_unref (profile->by_name);
  g_free (profile->stage_name);
  g_free (profile->default_executor);
  wb_program_unref (profile->program);
  g_free (profile);
}

/* A comma-separated list of the fusion regions, for messages. */
static char *
list_regions (const WbProfile *p)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->entries->len; i++)
    {
      const Entry *e = p->entries->pdata[i];

      if (!e->is_region)
        continue;
      if (s->len > 0)
        g_string_append (s, ", ");
      g_string_append (s, e->call_name);
    }
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

void
wb_profile_set_device_cuda (WbProfile *profile, const char *default_executor)
{
  g_return_if_fail (profile != NULL);
  profile->cuda = TRUE;
  g_free (profile->default_executor);
  profile->default_executor = g_strdup (default_executor ? default_executor : wb_executor_info_get_name (wb_executor_info_get_default (TRUE)));
}

const char *
wb_profile_get_default_executor (const WbProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return profile->cuda ? profile->default_executor : NULL;
}

const WbAssignment *
wb_profile_get_assignment (const WbProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return profile->assignment;
}

int
wb_profile_find_entry (const WbProfile *profile, const WbBsym *bsym)
{
  g_return_val_if_fail (profile != NULL, -1);
  return (int) GPOINTER_TO_UINT (g_hash_table_lookup (profile->by_bsym, bsym)) - 1;
}

static WbExecutor *
find_executor (const char *name, GError **error)
{
  WbExecutor           *executor = wb_executor_lookup (name);
  const WbExecutorInfo *info;

  if (executor != NULL)
    return executor;
  info = wb_executor_info_lookup (name);
  if (info != NULL && wb_executor_info_is_thunder (info))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) wb_executor_get_names ());

      g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNKNOWN_EXECUTOR,
                   "--executors: “%s” is one of Thunder's executors; thunder-wb runs its own (this build has: %s)",
                   name, known);
    }
  else if (info != NULL)
    {
      g_autofree char *why = NULL;

      wb_cuda_is_available (&why);
      g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNAVAILABLE, "--executors: executor “%s”: %s", name, why);
    }
  else
    {
      g_autofree char *known = g_strjoinv (", ", (char **) wb_executor_get_names ());

      g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNKNOWN_EXECUTOR,
                   "--executors: unknown executor “%s” (this build has: %s)", name, known);
    }
  return NULL;
}

/* The printed call name @key stands for in the profile's program, or NULL (wb_assignment_resolve_key). */
static const char *
resolve_key (const WbProfile *p, const char *key)
{
  const WbTrace *traces[2] = { wb_program_get_forward (p->program), wb_program_get_backward (p->program) };
  const char    *name = wb_assignment_resolve_key (key, traces, 2);

  return name != NULL && g_hash_table_contains (p->call_names, name) ? name : NULL;
}

gboolean
wb_profile_set_assignment (WbProfile          *profile,
                           const WbAssignment *assignment,
                           GError            **error)
{
  guint n = wb_assignment_get_n_choices (assignment);

  g_return_val_if_fail (profile != NULL, FALSE);
  /* check everything first: a bad choice changes nothing */
  for (guint i = 0; i < n; i++)
    {
      const WbAssignmentChoice *c = wb_assignment_get_choice (assignment, i);

      if (resolve_key (profile, c->key) == NULL)
        {
          g_autofree char *regions = list_regions (profile);

          g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNKNOWN_REGION,
                       "--executors: no region or top-level call named “%s” in %s (regions: %s)", c->key,
                       profile->stage_name ? profile->stage_name : "the program", regions);
          return FALSE;
        }
      if (profile->cuda)
        {
          const WbExecutorInfo *info = wb_executor_info_lookup (c->executor);

          if (info == NULL || wb_executor_info_is_thunder (info))
            {
              g_auto (GStrv) known = wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE);
              g_autofree char *list = g_strjoinv (", ", known);

              g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNKNOWN_EXECUTOR,
                           "--executors: unknown executor “%s” on --device cuda (the GPU runner has: %s)", c->executor, list);
              return FALSE;
            }
        }
      else if (find_executor (c->executor, error) == NULL)
        return FALSE;
    }
  g_hash_table_remove_all (profile->by_name);
  for (guint i = 0; i < n; i++)
    {
      const WbAssignmentChoice *c = wb_assignment_get_choice (assignment, i);
      const char               *name = resolve_key (profile, c->key);

      if (!profile->cuda)
        wb_program_assign (profile->program, name, find_executor (c->executor, NULL));
      g_hash_table_replace (profile->by_name, g_strdup (name), g_strdup (c->executor));
    }
  g_clear_pointer (&profile->assignment, wb_assignment_unref);
  if (n > 0)
    profile->assignment = wb_assignment_ref ((WbAssignment *) assignment);
  return TRUE;
}

WbAssignment *
wb_profile_dup_assignment_by_name (const WbProfile *profile)
{
  WbAssignment *by_name;

  g_return_val_if_fail (profile != NULL, NULL);
  if (profile->assignment == NULL)
    return NULL;
  by_name = wb_assignment_new ();
  for (guint i = 0; i < wb_assignment_get_n_choices (profile->assignment); i++)
    {
      const WbAssignmentChoice *c = wb_assignment_get_choice (profile->assignment, i);
      const char               *name = resolve_key (profile, c->key);

      /* checked by wb_profile_set_assignment: every key resolves */
      wb_assignment_set (by_name, name ? name : c->key, c->executor, NULL);
    }
  return by_name;
}

gboolean
wb_profile_set_executors (WbProfile  *profile,
                          const char *spec,
                          GError    **error)
{
  g_autoptr (WbAssignment) assignment = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (profile != NULL, FALSE);
  if ((assignment = wb_assignment_parse (spec, &local)) == NULL)
    {
      g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_BAD_OPTION, "--executors: %s", local->message);
      return FALSE;
    }
  return wb_profile_set_assignment (profile, assignment, error);
}

guint
wb_profile_get_n_entries (const WbProfile *profile)
{
  g_return_val_if_fail (profile != NULL, 0);
  return profile->entries->len;
}

const char *
wb_profile_get_entry_name (const WbProfile *profile,
                           guint            i)
{
  g_return_val_if_fail (profile != NULL && i < profile->entries->len, NULL);
  return ((const Entry *) profile->entries->pdata[i])->name;
}

gboolean
wb_profile_get_entry_is_region (const WbProfile *profile,
                                guint            i)
{
  g_return_val_if_fail (profile != NULL && i < profile->entries->len, FALSE);
  return ((const Entry *) profile->entries->pdata[i])->is_region;
}

const char *
wb_profile_get_stage_name (const WbProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return profile->stage_name;
}

char *
wb_profile_dup_stage_text (const WbProfile *profile)
{
  g_autofree char *forward = NULL;
  WbTrace         *backward;
  GString         *s;

  g_return_val_if_fail (profile != NULL, NULL);
  forward = wb_trace_to_string (wb_program_get_forward (profile->program));
  s = g_string_new (forward);
  backward = wb_program_get_backward (profile->program);
  if (backward != NULL)
    {
      g_autofree char *text = wb_trace_to_string (backward);

      if (s->len > 0 && s->str[s->len - 1] != '\n')
        g_string_append_c (s, '\n');
      g_string_append (s, text);
    }
  return g_string_free (s, FALSE);
}

GPtrArray *
wb_profile_estimate_ops (const WbProfile *profile, const WbRun *run, const WbDeviceCeilings *ceilings)
{
  WbTrace *traces[2];
  guint32  offsets[2] = { 0, 0 };

  g_return_val_if_fail (profile != NULL && run != NULL, NULL);
  traces[0] = wb_program_get_forward (profile->program);
  traces[1] = wb_program_get_backward (profile->program);
  offsets[1] = profile->backward_offset;
  return wb_op_estimates_compute (traces, offsets, 2, run, ceilings);
}
