/* test-memory-plan-run.c — the static memory plan (executors/wb-memory-plan.h) against a real run: a zoo
 * program run on the cpu executor, every storage it makes and drops watched (wb_tensor_set_storage_hooks)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the plan expects is compared, call by call, with what the interpreter does: which storages each
 * top-level call makes, which of them it returns as which output, and after which call each is dropped.
 * The run's own events drive a simulated arena with the CUDA runtime's rule (wb-cuda-arena.c): a call's
 * allocation takes the first untaken place of the call's expected outputs of its size, unless a byte of
 * that place is still held by a live tensor (a miss). Checked, from the run alone:
 *   - no planned output outlives its plan: a storage is dropped no later than its buffer's last step;
 *   - a planned output is a storage its call made, of its bytes, or (an exception) the call's argument
 *     itself (a contiguous that had nothing to do: its place goes unused);
 *   - every storage a call makes and returns is planned, or (an exception) a reshape's copy of a layout no
 *     view can take (the plan counts reshapes as views: the runtime serves the copy from the pool);
 *   - the simulated arena has no miss, and every planned output takes its place, but where a temporary of its
 *     call and size took the place first (the runtime cannot tell them apart when it allocates).
 * Counts of each kind go to the TAP log. */
#include "config.h"

#include <string.h>

#include "wb-executors.h"

typedef struct
{
  gconstpointer id;
  gint64        nbytes;
  gint          step;     /* the top-level call that made it, -1 outside any */
  gint          freed_at; /* the last call started when it was dropped, -1 still held */
  gboolean      freed_in_call;
  gint          output; /* which output of its call it is, -1 none (a temporary, or not yet known) */
  gint64        offset; /* its place in the simulated arena, -1 none */
} Alloc;

typedef struct
{
  gint64   offset, nbytes;
  gboolean taken;
} Place;

typedef struct
{
  GMutex              lock;
  const WbMemoryPlan *plan;
  GHashTable         *step_of; /* const WbBsym * -> step + 1 */
  GHashTable         *live;    /* storage id -> Alloc * */
  GPtrArray          *allocs;  /* Alloc *, in order made */
  GArray             *places;  /* Place: the current call's expected outputs */
  GHashTable         *of_arg;  /* step * 1024 + output -> 1: an output whose storage is one of its call's arguments' */
  gint                cur;     /* the call started last, -1 none */
  gboolean            in_call;
  guint               misses, placed, unplaced;
} Watch;

static gboolean
overlaps_live (Watch *w, gint64 off, gint64 end)
{
  GHashTableIter it;
  gpointer       val;

  g_hash_table_iter_init (&it, w->live);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      const Alloc *a = val;
      if (a->offset >= 0 && a->offset < end && off < a->offset + a->nbytes)
        return TRUE;
    }
  return FALSE;
}

/* the runtime's rule (wb-cuda-arena.c _wb_cuda_arena_take) */
static void
arena_take (Watch *w, Alloc *a)
{
  for (guint i = 0; i < w->places->len; i++)
    {
      Place *p = &g_array_index (w->places, Place, i);
      if (p->taken || p->nbytes != a->nbytes)
        continue;
      p->taken = TRUE;
      if (overlaps_live (w, p->offset, p->offset + p->nbytes))
        {
          w->misses++;
          continue;
        }
      a->offset = p->offset;
      w->placed++;
      return;
    }
  if (w->places->len > 0)
    w->unplaced++;
}

static void
on_allocated (gconstpointer id, gsize nbytes, gpointer data)
{
  Watch *w = data;
  Alloc *a = g_new0 (Alloc, 1);

  g_mutex_lock (&w->lock);
  a->id = id;
  a->nbytes = (gint64) nbytes;
  a->step = w->in_call ? w->cur : -1;
  a->freed_at = -1;
  a->output = -1;
  a->offset = -1;
  if (w->in_call && nbytes > 0)
    arena_take (w, a);
  g_ptr_array_add (w->allocs, a);
  g_hash_table_insert (w->live, (gpointer) id, a);
  g_mutex_unlock (&w->lock);
}

static void
on_freed (gconstpointer id, gpointer data)
{
  Watch *w = data;
  Alloc *a;

  g_mutex_lock (&w->lock);
  a = g_hash_table_lookup (w->live, id);
  if (a != NULL)
    {
      a->freed_at = w->cur;
      a->freed_in_call = w->in_call && a->step == w->cur;
      g_hash_table_remove (w->live, id);
      /* a temporary of the call gives its place back (the runtime does the same) */
      for (guint i = 0; a->offset >= 0 && a->freed_in_call && i < w->places->len; i++)
        if (g_array_index (w->places, Place, i).offset == a->offset)
          g_array_index (w->places, Place, i).taken = FALSE;
    }
  g_mutex_unlock (&w->lock);
}

static const WbTensorStorageHooks hooks = { on_allocated, on_freed };

static void
call_started (const WbTrace *trace, const WbBsym *b, gpointer data)
{
  Watch                       *w = data;
  const WbMemoryBuffer *const *outs;
  guint                        n = 0;

  (void) trace;
  g_mutex_lock (&w->lock);
  w->cur = GPOINTER_TO_INT (g_hash_table_lookup (w->step_of, b)) - 1;
  g_assert_cmpint (w->cur, >=, 0);
  w->in_call = TRUE;
  g_array_set_size (w->places, 0);
  outs = wb_memory_plan_get_outputs (w->plan, b, &n);
  for (guint i = 0; i < n; i++)
    {
      Place p = { outs[i]->offset, outs[i]->nbytes, FALSE };
      g_array_append_val (w->places, p);
    }
  g_mutex_unlock (&w->lock);
}

/* the tensors bound to @pattern's names (not "_"), in order, as the interpreter binds them; a call run
 * through its subsymbols is observed with the tuple of its output names' values */
static void
bound_tensors (const WbValue *pattern, WbRtValue *v, GPtrArray *out)
{
  if (pattern == NULL)
    return;
  if (pattern->kind == WB_VALUE_NAME && v != NULL && wb_rt_value_is_sequence (v) && v->items->len == 1)
    v = v->items->pdata[0];
  if (pattern->kind == WB_VALUE_NAME)
    {
      if (strcmp (pattern->text, "_") != 0)
        g_ptr_array_add (out, v != NULL && v->kind == WB_RT_TENSOR ? v->tensor : NULL);
      return;
    }
  if (pattern->kind == WB_VALUE_TUPLE || pattern->kind == WB_VALUE_LIST)
    for (guint i = 0; i < pattern->n_items; i++)
      bound_tensors (pattern->items[i], v != NULL && wb_rt_value_is_sequence (v) && i < v->items->len ? v->items->pdata[i] : NULL, out);
}

/* every tensor in @v */
static void
all_tensors (WbRtValue *v, GPtrArray *out)
{
  if (v == NULL)
    return;
  if (v->kind == WB_RT_TENSOR)
    g_ptr_array_add (out, v->tensor);
  else if (wb_rt_value_is_sequence (v))
    for (guint i = 0; i < v->items->len; i++)
      all_tensors (v->items->pdata[i], out);
}

static void
call_done (const WbTrace *trace, const WbBsym *b, WbRtValue *const *args, guint n_args, WbRtValue *result, gpointer data)
{
  Watch *w = data;
  g_autoptr (GPtrArray) tensors = g_ptr_array_new ();
  g_autoptr (GPtrArray) in = g_ptr_array_new ();

  (void) trace;
  bound_tensors (b->outputs, result, tensors);
  for (guint i = 0; i < n_args; i++)
    all_tensors (args[i], in);
  g_mutex_lock (&w->lock);
  for (guint k = 0; k < tensors->len; k++)
    {
      Alloc *a = tensors->pdata[k] ? g_hash_table_lookup (w->live, wb_tensor_get_storage_id (tensors->pdata[k])) : NULL;
      if (a != NULL && a->step == w->cur && a->output < 0)
        a->output = (gint) k;
      for (guint i = 0; tensors->pdata[k] != NULL && i < in->len; i++)
        if (wb_tensor_get_storage_id (in->pdata[i]) == wb_tensor_get_storage_id (tensors->pdata[k]))
          g_hash_table_add (w->of_arg, GINT_TO_POINTER (w->cur * 1024 + (gint) k + 1));
    }
  w->in_call = FALSE;
  g_array_set_size (w->places, 0);
  g_mutex_unlock (&w->lock);
}

typedef struct
{
  guint produced, planned, exceptions, outlived, not_made, other_bytes, temporaries, temp_of_planned_size;
  guint unexplained, not_in_place, stolen; /* exceptions without a reason; planned outputs the simulated arena did not
                                            * place; of them, those whose place a temporary of the call held */
} Counts;

/* The checks of the file's head over @w's events */
static Counts
check_run (Watch *w, const WbProgram *program, const char *name)
{
  const WbTrace *fw = wb_program_get_forward (program), *bw = wb_program_get_backward (program);
  guint          n_fw = fw->n_body;
  g_autoptr (GHashTable) made = g_hash_table_new (g_int64_hash, g_int64_equal); /* step * 1024 + output -> Alloc */
  g_autofree gint64 *keys = g_new0 (gint64, w->allocs->len + 1);
  g_autoptr (GHashTable) took = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL); /* "step:bytes" of temporaries that took a place */
  Counts c = { 0 };

  for (guint i = 0; i < w->allocs->len; i++)
    {
      Alloc *a = w->allocs->pdata[i];
      if (a->step < 0)
        continue;
      if (a->output < 0)
        {
          /* made and dropped within its call (or kept by no name: dropped at once after it) */
          const WbMemoryBuffer *const *outs;
          const WbBsym                *def = (guint) a->step < n_fw ? fw->body[a->step] : bw->body[a->step - n_fw];
          guint                        n = 0;
          c.temporaries++;
          if (a->offset >= 0)
            g_hash_table_add (took, g_strdup_printf ("%d:%" G_GINT64_FORMAT, a->step, a->nbytes));
          outs = wb_memory_plan_get_outputs (w->plan, def, &n);
          for (guint k = 0; k < n; k++)
            if (outs[k]->nbytes == a->nbytes)
              {
                c.temp_of_planned_size++;
                break;
              }
          continue;
        }
      c.produced++;
      keys[i] = (gint64) a->step * 1024 + a->output;
      g_hash_table_insert (made, &keys[i], a);
    }
  for (guint i = 0; i < wb_memory_plan_get_n_buffers (w->plan); i++)
    {
      const WbMemoryBuffer *b = wb_memory_plan_get_buffer (w->plan, i);
      gint64                key = (gint64) b->first * 1024 + b->output;
      Alloc                *a = g_hash_table_lookup (made, &key);
      if (a == NULL)
        {
          /* exception: a conversion (contiguous, clone) the executor answered with its argument itself */
          gboolean arg = g_hash_table_contains (w->of_arg, GINT_TO_POINTER ((gint) b->first * 1024 + (gint) b->output + 1));
          c.not_made++;
          c.unexplained += !arg;
          g_test_message ("%s: planned %s = %s (step %u output %u, %" G_GINT64_FORMAT " bytes) is not a storage its call made: %s", name, b->name,
                          b->def->name, b->first, b->output, b->nbytes,
                          arg ? "its argument itself (a conversion that had nothing to do; the place goes unused)" : "UNEXPLAINED");
          continue;
        }
      g_hash_table_remove (made, &key);
      c.planned++;
      if (a->nbytes != b->nbytes && c.other_bytes++ < 10)
        g_test_message ("%s: %s has %" G_GINT64_FORMAT " bytes, planned %" G_GINT64_FORMAT, name, b->name, a->nbytes, b->nbytes);
      if (a->freed_at > (gint) b->last && c.outlived++ < 10)
        g_test_message ("%s: %s [%u, %u] is held until step %d", name, b->name, b->first, b->last, a->freed_at);
      if (a->offset != b->offset)
        {
          /* a temporary of its call and size took its place first and held it while the output was made */
          g_autofree char *key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, b->first, b->nbytes);
          gboolean         temp = g_hash_table_contains (took, key);
          c.not_in_place++;
          c.stolen += temp;
          g_test_message ("%s: %s = %s did not take its place %" G_GINT64_FORMAT " (took %" G_GINT64_FORMAT "): %s", name, b->name, b->def->name, b->offset,
                          a->offset, temp ? "a temporary of its size held it" : "UNEXPLAINED");
        }
    }
  {
    GHashTableIter it;
    gpointer       val;
    g_hash_table_iter_init (&it, made);
    while (g_hash_table_iter_next (&it, NULL, &val))
      {
        const Alloc  *a = val;
        const WbBsym *def = (guint) a->step < n_fw ? fw->body[a->step] : bw->body[a->step - n_fw];
        g_autoptr (GPtrArray) names = g_ptr_array_new ();
        /* exception: a reshape the plan counts as a view, of a layout no view can take: the executor copies (the
         * runtime serves it from the pool) */
        gboolean reshape = strstr (def->name, "reshape") != NULL;
        wb_bsym_get_output_names (def, names);
        c.exceptions++;
        c.unexplained += !reshape;
        g_test_message ("%s: unplanned %s = %s (step %d, %" G_GINT64_FORMAT " bytes, dropped after step %d): %s", name, (const char *) names->pdata[a->output],
                        def->name, a->step, a->nbytes, a->freed_at, reshape ? "a reshape the executor had to copy" : "UNEXPLAINED");
      }
  }
  return c;
}

static void
test_zoo_case (gconstpointer data)
{
  const char      *name = data;
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbMemoryPlan) plan = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GPtrArray) cots = NULL;
  g_autoptr (WbRunResult) result = NULL;
  WbRunOptions options;
  Watch        w = { 0 };
  Counts       n;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked in this build");
      return;
    }
  c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
  g_assert_no_error (error);
  program = wb_case_make_program (c, wb_case_get_default_stage (c), &error);
  g_assert_no_error (error);
  g_assert_cmpint (wb_program_get_kind (program), ==, WB_PROGRAM_TRAINING);
  plan = wb_memory_plan_new_for_program (program);
  inputs = wb_case_make_inputs (c, NULL, 1234, &error);
  g_assert_no_error (error);
  args = wb_case_make_args (c, program, inputs, &error);
  g_assert_no_error (error);
  cots = wb_case_make_cotangents (c, NULL, 1);

  g_mutex_init (&w.lock);
  w.plan = plan;
  w.step_of = g_hash_table_new (NULL, NULL);
  w.live = g_hash_table_new (NULL, NULL);
  w.allocs = g_ptr_array_new_with_free_func (g_free);
  w.places = g_array_new (FALSE, FALSE, sizeof (Place));
  w.of_arg = g_hash_table_new (NULL, NULL);
  w.cur = -1;
  {
    const WbTrace *fw = wb_program_get_forward (program), *bw = wb_program_get_backward (program);
    for (guint i = 0; i < fw->n_body; i++)
      g_hash_table_insert (w.step_of, fw->body[i], GINT_TO_POINTER (i + 1));
    for (guint i = 0; bw != NULL && i < bw->n_body; i++)
      g_hash_table_insert (w.step_of, bw->body[i], GINT_TO_POINTER (fw->n_body + i + 1));
  }
  wb_run_options_init (&options);
  options.seed = 1234;
  options.call_started = call_started;
  options.observer = call_done;
  options.observer_data = &w;
  wb_tensor_set_storage_hooks (&hooks, &w);
  result = wb_program_run (program, &options, args, cots, &error);
  g_clear_pointer (&result, wb_run_result_free); /* the caller's results: held past the last step */
  wb_tensor_set_storage_hooks (NULL, NULL);
  g_assert_no_error (error);

  n = check_run (&w, program, name);
  g_test_message ("%s: %u buffers planned; the run made %u outputs (%u planned, %u not), %u temporaries (%u of a planned output's size); "
                  "%u planned outputs not made by their call, %u of other bytes, %u held past their last step; simulated arena: %u placed, "
                  "%u misses, %u allocations of a planned call without a place, %u planned outputs not in their place (%u: a temporary held it)",
                  name, wb_memory_plan_get_n_buffers (plan), n.produced, n.planned, n.exceptions, n.temporaries, n.temp_of_planned_size, n.not_made,
                  n.other_bytes, n.outlived, w.placed, w.misses, w.unplaced, n.not_in_place, n.stolen);
  /* the plan's lifetimes and sizes are the run's */
  g_assert_cmpuint (n.outlived, ==, 0);
  g_assert_cmpuint (n.other_bytes, ==, 0);
  /* every output is planned, or an exception with its reason */
  g_assert_cmpuint (n.unexplained, ==, 0);
  g_assert_cmpuint (n.planned + n.exceptions, ==, n.produced);
  /* the arena: no miss, and every planned output made by its call in its place, but where a temporary of its
   * size took the place first (the runtime cannot tell a temporary from an output when it allocates) */
  g_assert_cmpuint (w.misses, ==, 0);
  g_assert_cmpuint (n.not_in_place, ==, n.stolen);
  g_assert_cmpuint (n.planned, >, 0);
  g_hash_table_unref (w.step_of);
  g_hash_table_unref (w.live);
  g_ptr_array_unref (w.allocs);
  g_array_unref (w.places);
  g_hash_table_unref (w.of_arg);
  g_mutex_clear (&w.lock);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/memory-plan-run/resnet50", "resnet50", test_zoo_case);
  g_test_add_data_func ("/memory-plan-run/llama", "llama/thunderfx_g0_GraphModule_3", test_zoo_case);
  g_test_add_data_func ("/memory-plan-run/gpt2", "gpt2/thunderfx_g0_GraphModule_2", test_zoo_case);
  return g_test_run ();
}
