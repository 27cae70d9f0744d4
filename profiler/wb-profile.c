/* wb-profile.c — WbProfile: warm-up and timed iterations of a program on the cpu, per-entry times and
 * kernel records (the timing rules are in wb-profile.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wb-profiler.h"
#include "wb-runner.h"

/* clang-format off */
G_DEFINE_QUARK (wb-profile-error-quark, wb_profile_error)
/* clang-format on */

typedef struct
{
  char          *name;      /* entry name: "TorchCompile0", "sdpafx_...#2" */
  char          *call_name; /* the printed call name (what --executors and kernel records use) */
  const WbTrace *trace;     /* forward or backward */
  const WbBsym  *bsym;
  char          *key;          /* wb_trace_get_call_key: through the pipeline's provenance when it made the trace */
  const char    *unfused_from; /* (nullable) wb_trace_get_unfused_from (owned by the trace) */
  guint32        stage_line;
  gboolean       is_region;
  guint64        bytes;
  guint64        flops;
} Entry;

struct _WbProfile
{
  WbProgram    *program;
  char         *stage_name;
  GPtrArray    *entries;    /* (element-type Entry) in execution order */
  GHashTable   *by_bsym;    /* const WbBsym* -> GUINT_TO_POINTER (index + 1) */
  GHashTable   *call_names; /* printed names of the top-level calls (utility ones included) */
  WbAssignment *assignment; /* (nullable) as given to wb_profile_set_assignment */
  GHashTable   *by_name;    /* printed call name -> executor name (both owned): the assignment resolved */
  guint32       backward_offset;
  gboolean      cuda;             /* runs in the GPU runner (wb_profile_set_device_cuda) */
  char         *default_executor; /* cuda: the executor of unassigned entries */
};

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
      if (!wb_bsym_is_fusion (b) && wb_executor_info_is_utility (b))
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

/* -- running ------------------------------------------------------------------------------------- */

typedef struct
{
  guint  entry;
  guint  iteration;
  gint64 start;
  gint64 end;
} Record;

typedef struct
{
  WbProfile *profile;
  gboolean   timing; /* a timed iteration is running */
  guint      iteration;
  gint64     origin; /* start of the first timed iteration */
  gint64     call_start;
  gint64     last_end;
  gint64    *acc;        /* per entry: its time in the current iteration */
  GArray    *records;    /* (element-type Record) */
  int        slow_entry; /* -1: none */
  gulong     slow_us;
} Timing;

#ifdef WB_RUN_OPTIONS_HAS_CALL_STARTED
static void
on_call_started (const WbTrace *trace, const WbBsym *bsym, gpointer user_data)
{
  Timing *t = user_data;

  t->call_start = wb_run_clock_ns ();
}
#endif

static void
on_call_done (const WbTrace *trace, const WbBsym *bsym, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer user_data)
{
  Timing *t = user_data;
  guint   index = GPOINTER_TO_UINT (g_hash_table_lookup (t->profile->by_bsym, bsym));
  gint64  end;

  if (index > 0 && (int) index - 1 == t->slow_entry)
    g_usleep (t->slow_us);
  end = wb_run_clock_ns ();
#ifndef WB_RUN_OPTIONS_HAS_CALL_STARTED
  t->call_start = t->last_end;
#endif
  if (index > 0 && t->timing)
    {
      Record r = { index - 1, t->iteration, t->call_start - t->origin, end - t->origin };

      t->acc[index - 1] += end - t->call_start;
      g_array_append_val (t->records, r);
    }
  t->last_end = wb_run_clock_ns ();
}

/* WB_TEST_SLOW_REGION=NAME:MS */
static void
read_slow_knob (WbProfile *p, Timing *t)
{
  const char *env = g_getenv (WB_TEST_SLOW_REGION_ENV);
  const char *colon;
  double      ms;

  t->slow_entry = -1;
  if (env == NULL || (colon = strrchr (env, ':')) == NULL)
    return;
  ms = g_ascii_strtod (colon + 1, NULL);
  if (!(ms > 0))
    return;
  for (guint i = 0; i < p->entries->len; i++)
    {
      const Entry *e = p->entries->pdata[i];

      if (strlen (e->name) == (gsize) (colon - env) && strncmp (e->name, env, colon - env) == 0)
        {
          t->slow_entry = (int) i;
          t->slow_us = (gulong) (ms * 1000.0 + 0.5);
          return;
        }
    }
}

static const char *
entry_executor (const WbProfile *p, const Entry *e)
{
  const char *name = g_hash_table_lookup (p->by_name, e->call_name);

  return name != NULL ? name : p->cuda ? p->default_executor
                                       : wb_executor_info_get_name (wb_executor_info_get_default (FALSE));
}

static WbRun *
new_run (WbProfile *p, const WbProfileOptions *options)
{
  WbRun *run = wb_run_new ();
  g_autoptr (GHashTable) executors = g_hash_table_new (g_str_hash, g_str_equal);

  run->device_name = g_strdup ("cpu");
  run->device_model = wb_cpu_device_model ();
  run->iters = options->iters;
  run->warmup = options->warmup;
  run->cuda_graphs = FALSE;
  run->executors = p->assignment != NULL ? wb_assignment_to_string (p->assignment) : NULL;
  run->stage = g_strdup (p->stage_name);
  g_hash_table_add (executors, (gpointer) (p->cuda ? p->default_executor : wb_executor_info_get_name (wb_executor_info_get_default (FALSE))));
  for (guint i = 0; i < p->entries->len; i++)
    g_hash_table_add (executors, (gpointer) entry_executor (p, p->entries->pdata[i]));
  {
    g_autofree gpointer *names = g_hash_table_get_keys_as_array (executors, NULL);
    guint                n = g_hash_table_size (executors);

    qsort (names, n, sizeof (gpointer), (int (*) (const void *, const void *)) g_strcmp0);
    for (guint i = 0; i < n; i++)
      {
        WbExecutor      *e = wb_executor_lookup (names[i]);
        g_autofree char *describe = e ? wb_executor_describe (e) : NULL;
        g_autofree char *version = g_strdup_printf ("thunder-wb %s%s%s%s", PACKAGE_VERSION, describe ? " (" : "",
                                                    describe ? describe : "", describe ? ")" : "");

        wb_run_add_executor_version (run, names[i], version);
      }
  }
  return run;
}

/* Fills @run's regions and kernels from what @t measured over @n_iters iterations. */
static void
finish_run (WbProfile *p, WbRun *run, Timing *t, GArray *per_entry, guint n_iters)
{
  gint64 iteration_median = wb_run_get_iteration_median_ns (run);

  for (guint i = 0; i < p->entries->len; i++)
    {
      const Entry   *e = p->entries->pdata[i];
      WbRegionStats *s = wb_region_stats_new (e->name, entry_executor (p, e));

      s->stage_line = e->stage_line;
      s->key = g_strdup (e->key);
      s->contents = wb_call_contents (e->bsym);
      s->unfused_from = g_strdup (e->unfused_from);
      for (guint k = 0; k < n_iters; k++)
        wb_region_stats_add_time (s, g_array_index (per_entry, gint64, (gsize) k * p->entries->len + i));
      wb_region_stats_update (s);
      s->kernel_count = 1;
      s->bytes_moved = e->bytes;
      s->flops = e->flops;
      s->share = iteration_median > 0 ? (double) s->median_ns / (double) iteration_median : 0;
      wb_run_add_region (run, s);
    }
  for (guint k = 0; k < t->records->len; k++)
    {
      const Record   *r = &g_array_index (t->records, Record, k);
      const Entry    *e = p->entries->pdata[r->entry];
      WbKernelRecord *kr;

      if (r->iteration >= n_iters)
        continue;
      kr = wb_kernel_record_new (e->call_name, e->name);
      kr->trace_line = e->stage_line;
      kr->stream = 0;
      kr->start_ns = r->start;
      kr->end_ns = MAX (r->end, r->start);
      kr->iteration = r->iteration;
      wb_run_add_kernel (run, kr);
    }
}

WbRun *
wb_profile_build_run (WbProfile *profile, const WbProfileOptions *options, const WbProfileDeviceTimes *times)
{
  WbRun *run;
  gint64 iteration_median;

  g_return_val_if_fail (profile != NULL && options != NULL && times != NULL, NULL);
  run = new_run (profile, options);
  g_free (run->device_name);
  g_free (run->device_model);
  run->device_name = g_strdup (times->device_name ? times->device_name : "cuda:0");
  run->device_model = g_strdup (times->device_model ? times->device_model : "unknown GPU");
  run->driver_version = g_strdup (times->driver_version);
  run->cuda_graphs = times->cuda_graphs;
  run->dropped_records = times->dropped_records;
  for (guint k = 0; k < times->n_iters; k++)
    wb_run_add_iteration (run, times->iteration_ns[k]);
  iteration_median = wb_run_get_iteration_median_ns (run);
  for (guint i = 0; i < profile->entries->len; i++)
    {
      const Entry   *e = profile->entries->pdata[i];
      WbRegionStats *s = wb_region_stats_new (e->name, entry_executor (profile, e));
      guint          n_kernels = 0;

      s->stage_line = e->stage_line;
      s->key = g_strdup (e->key);
      s->contents = wb_call_contents (e->bsym);
      s->unfused_from = g_strdup (e->unfused_from);
      for (guint k = 0; k < times->n_iters; k++)
        wb_region_stats_add_time (s, times->entry_ns[(gsize) k * profile->entries->len + i]);
      wb_region_stats_update (s);
      for (guint k = 0; times->kernels && k < times->kernels->len; k++)
        {
          const WbKernelRecord *kr = times->kernels->pdata[k];

          n_kernels += g_strcmp0 (kr->region, e->name) == 0;
        }
      s->kernel_count = times->n_iters > 0 ? (n_kernels + times->n_iters - 1) / times->n_iters : 0;
      s->bytes_moved = e->bytes;
      s->flops = e->flops;
      s->share = iteration_median > 0 ? (double) s->median_ns / (double) iteration_median : 0;
      wb_run_add_region (run, s);
    }
  for (guint k = 0; times->kernels && k < times->kernels->len; k++)
    wb_run_add_kernel (run, wb_kernel_record_copy (times->kernels->pdata[k]));
  return run;
}

static void
init_run_options (WbRunOptions *ro, const WbProfileOptions *options)
{
  wb_run_options_init (ro);
  ro->seed = options->seed;
  ro->check_shapes = options->check_shapes;
  ro->parameters = options->parameters;
  ro->parameters_data = options->parameters_data;
  ro->cancellable = options->cancellable;
}

static gboolean
needs_cotangents (WbProgram *program)
{
  WbProgramKind kind = wb_program_get_kind (program);

  return kind == WB_PROGRAM_TRAINING || kind == WB_PROGRAM_JOINT;
}

WbRun *
wb_profile_run (WbProfile              *profile,
                GPtrArray              *args,
                GPtrArray              *cotangents,
                const WbProfileOptions *options,
                WbRun                 **failed_run,
                GError                **error)
{
  g_autoptr (WbRun) run = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autoptr (GArray) per_entry = NULL;
  g_autofree gint64 *acc = NULL;
  WbRunOptions       ro;
  Timing             t = { 0 };
  guint              n_entries;
  guint              total;

  g_return_val_if_fail (profile != NULL && args != NULL && options != NULL, NULL);
  g_return_val_if_fail (options->iters >= 1, NULL);

  n_entries = profile->entries->len;
  run = new_run (profile, options);
  cots = cotangents ? g_ptr_array_ref (cotangents) : NULL;
  acc = g_new0 (gint64, MAX (n_entries, 1));
  per_entry = g_array_new (FALSE, TRUE, sizeof (gint64));
  t.profile = profile;
  t.acc = acc;
  t.records = g_array_sized_new (FALSE, FALSE, sizeof (Record), (guint) MIN ((guint64) n_entries * options->iters, 1u << 20));
  read_slow_knob (profile, &t);

  init_run_options (&ro, options);
  ro.observer = on_call_done;
  ro.observer_data = &t;
#ifdef WB_RUN_OPTIONS_HAS_CALL_STARTED
  ro.call_started = on_call_started;
#endif

  total = options->warmup + options->iters;
  for (guint it = 0; it < total; it++)
    {
      gboolean timed = it >= options->warmup;
      g_autoptr (WbRunResult) result = NULL;
      gint64 t0, t1;

      if (timed)
        {
          t.iteration = it - options->warmup;
          memset (acc, 0, sizeof (gint64) * MAX (n_entries, 1));
        }
      t.timing = timed;
      t0 = wb_run_clock_ns ();
      if (timed && t.iteration == 0)
        t.origin = t0;
      t.last_end = t0;
      result = wb_program_run (profile->program, &ro, args, cots, error);
      t1 = wb_run_clock_ns ();
      if (result == NULL)
        {
          if (failed_run != NULL)
            {
              guint done = timed ? t.iteration : 0;

              g_array_set_size (run->iteration_ns, MIN (run->iteration_ns->len, done));
              finish_run (profile, run, &t, per_entry, done);
              run->status = WB_RUN_STATUS_FAILED;
              run->error = g_strdup (error && *error ? (*error)->message : "the run failed");
              *failed_run = g_steal_pointer (&run);
            }
          g_array_unref (t.records);
          return NULL;
        }
      if (cots == NULL && needs_cotangents (profile->program) && result->cotangents != NULL)
        cots = g_ptr_array_ref (result->cotangents);
      if (timed)
        {
          wb_run_add_iteration (run, t1 - t0);
          g_array_append_vals (per_entry, acc, n_entries);
        }
      if (options->progress != NULL)
        options->progress (timed ? WB_PROFILE_PHASE_TIMED : WB_PROFILE_PHASE_WARMUP,
                           timed ? t.iteration + 1 : it + 1, timed ? options->iters : options->warmup, t1 - t0,
                           options->progress_data);
    }
  finish_run (profile, run, &t, per_entry, options->iters);
  g_array_unref (t.records);
  return g_steal_pointer (&run);
}

gboolean
wb_profile_time_unprofiled (WbProfile              *profile,
                            GPtrArray              *args,
                            GPtrArray              *cotangents,
                            const WbProfileOptions *options,
                            GArray                 *iteration_ns,
                            GError                **error)
{
  g_autoptr (GPtrArray) cots = NULL;
  WbRunOptions ro;
  guint        total;

  g_return_val_if_fail (profile != NULL && args != NULL && options != NULL && iteration_ns != NULL, FALSE);
  cots = cotangents ? g_ptr_array_ref (cotangents) : NULL;
  init_run_options (&ro, options);
  total = options->warmup + options->iters;
  for (guint it = 0; it < total; it++)
    {
      g_autoptr (WbRunResult) result = NULL;
      gint64 t0 = wb_run_clock_ns ();
      gint64 t1;

      result = wb_program_run (profile->program, &ro, args, cots, error);
      t1 = wb_run_clock_ns ();
      if (result == NULL)
        return FALSE;
      if (cots == NULL && needs_cotangents (profile->program) && result->cotangents != NULL)
        cots = g_ptr_array_ref (result->cotangents);
      if (it >= options->warmup)
        {
          gint64 ns = t1 - t0;

          g_array_append_val (iteration_ns, ns);
        }
    }
  return TRUE;
}
