/* test-memory-plan.c — the static memory plan (executors/wb-memory-plan.h) on real zoo programs and a
 * small hand-written one
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every check is computed here independently of the plan: the pairs of buffers whose lifetimes overlap
 * (all pairs, brute force, the program's outputs included) never share a byte; the arena holds at least
 * the bytes live at every step (each step's live bytes added up here); each buffer's name is read by no
 * step after its last one (the steps' names collected by this file's own walk of the printed values); a
 * name its trace never reads after defining it lives to that trace's end (the interpreter releases a name
 * at its last read only); what the program returns (gradients, outputs, the loss) lives to the last step;
 * its bytes are its annotation's. The ratios arena / sum of sizes and arena / live peak go to the TAP
 * log, with how many of the returned tensors have a place, and what is live at the peak step and when the
 * backward starts, by kind (saved for the backward, by the call that made them; returned; temporaries):
 * the set to compare with what PyTorch eager saves (tools/zoo/saved_tensors.py). */
#include "config.h"

#include <string.h>

#include "wb-executors.h"

/* this file's own walk: every NAME in @v */
static void
names_in_value (const WbValue *v, GHashTable *set)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (set, (gpointer) v->text);
  names_in_value (v->base, set);
  for (guint i = 0; i < v->n_items; i++)
    names_in_value (v->items[i], set);
  for (guint i = 0; i < v->n_kwargs; i++)
    names_in_value (v->kwargs[i].value, set);
}

static void
names_read (const WbBsym *b, GHashTable *set)
{
  for (guint i = 0; i < b->n_args; i++)
    names_in_value (b->args[i], set);
  for (guint i = 0; i < b->n_kwargs; i++)
    names_in_value (b->kwargs[i].value, set);
  if (b->kind != WB_BSYM_ASSIGN || b->value)
    names_in_value (b->value, set);
  for (guint i = 0; i < b->n_subsymbols; i++)
    names_read (b->subsymbols[i], set);
}

typedef struct
{
  gint64 arena, sum, live;
  guint  n, n_to_end; /* buffers; of them, those live at the last step (returned, or aliased by a returned name) */
  guint  peak_step;   /* the first step with the most bytes live */
} Figures;

/* the names the program returns: the backward's return, the forward's (a training forward's first item) */
static void
returned_names (const WbTrace *t, gboolean training_forward, GHashTable *set)
{
  for (guint i = t->n_body; i > 0; i--)
    if (t->body[i - 1]->kind == WB_BSYM_RETURN)
      {
        const WbValue *v = t->body[i - 1]->value;
        if (training_forward && v != NULL && v->kind == WB_VALUE_TUPLE && v->n_items == 2)
          v = v->items[0];
        names_in_value (v, set);
        return;
      }
}

/* names by their bytes in @data (name -> gint64 *), most first */
static gint
by_bytes_desc (gconstpointer a, gconstpointer b, gpointer data)
{
  gint64 x = *(gint64 *) g_hash_table_lookup (data, *(const char *const *) a), y = *(gint64 *) g_hash_table_lookup (data, *(const char *const *) b);

  return x > y ? -1 : x < y;
}

/* What is live at step @peak (@what; @most bytes), by kind, to the TAP log: saved for the backward (made by the
 * forward, live in the backward), what the program returns (gradients, outputs, the loss: live to the last
 * step), the step's temporaries; the saved ones by the call that made them. The kinds add up to @most. */
static void
log_live_set (const WbMemoryPlan *plan, const WbTrace *fw, const WbTrace *bw, GHashTable *returned, const char *what, guint peak, gint64 most)
{
  enum
  {
    SAVED,
    RETURNED,
    TEMPORARY,
    N_KINDS
  };
  static const char *const kinds[N_KINDS] = { "saved for the backward", "returned (gradients, outputs)", "temporaries of the step" };
  guint                    n_fw = fw->n_body, n_steps = wb_memory_plan_get_n_steps (plan), count[N_KINDS] = { 0 };
  gint64                   bytes[N_KINDS] = { 0 };
  g_autoptr (GHashTable) by_call = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free); /* call name -> gint64 saved bytes */
  g_autoptr (GString) line = g_string_new (NULL);
  g_autoptr (GPtrArray) calls = g_ptr_array_new ();
  GHashTableIter it;
  gpointer       key;

  for (guint i = 0; i < wb_memory_plan_get_n_buffers (plan); i++)
    {
      const WbMemoryBuffer *a = wb_memory_plan_get_buffer (plan, i);
      guint                 k;
      if (a->first > peak || peak > a->last)
        continue;
      if (g_hash_table_contains (returned, a->name) || a->last == n_steps - 1)
        k = RETURNED;
      else if (a->first < n_fw && bw != NULL && peak >= n_fw)
        k = SAVED;
      else
        k = TEMPORARY;
      bytes[k] += a->size;
      count[k]++;
      if (k == SAVED)
        {
          gint64 *b = g_hash_table_lookup (by_call, a->def->name);
          if (b == NULL)
            g_hash_table_insert (by_call, (gpointer) a->def->name, (b = g_new0 (gint64, 1)));
          *b += a->size;
        }
    }
  g_assert_cmpint (bytes[SAVED] + bytes[RETURNED] + bytes[TEMPORARY], ==, most);
  g_string_printf (line, "live at %s, step %u (%s %u: %s): %.3f MiB", what, peak, peak < n_fw ? "forward" : "backward", peak < n_fw ? peak : peak - n_fw,
                   peak < n_fw ? fw->body[peak]->name : bw->body[peak - n_fw]->name, most / 1048576.0);
  for (guint k = 0; k < N_KINDS; k++)
    g_string_append_printf (line, "; %s %u, %.3f MiB", kinds[k], count[k], bytes[k] / 1048576.0);
  if (g_hash_table_size (by_call) > 0)
    g_string_append (line, "; saved, by the call that made them:");
  g_hash_table_iter_init (&it, by_call);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_ptr_array_add (calls, key);
  g_ptr_array_sort_with_data (calls, by_bytes_desc, by_call);
  for (guint i = 0; i < calls->len; i++)
    g_string_append_printf (line, " %s %.3f MiB", (const char *) calls->pdata[i], *(gint64 *) g_hash_table_lookup (by_call, calls->pdata[i]) / 1048576.0);
  g_test_message ("%s", line->str);
}

/* The checks of the file's head on @plan of @fw (+ @bw); the figures for the caller */
static Figures
check_plan (const WbMemoryPlan *plan, const WbTrace *fw, const WbTrace *bw)
{
  guint                   n = wb_memory_plan_get_n_buffers (plan);
  guint                   n_fw = fw->n_body, n_steps = fw->n_body + (bw ? bw->n_body : 0);
  gint64                  arena = wb_memory_plan_get_arena_bytes (plan), sum = 0, most = 0;
  g_autofree GHashTable **read = g_new0 (GHashTable *, n_steps);
  g_autoptr (GHashTable) returned = g_hash_table_new (g_str_hash, g_str_equal);
  Figures f = { 0 };

  g_assert_cmpuint (wb_memory_plan_get_n_steps (plan), ==, n_steps);
  for (guint s = 0; s < n_steps; s++)
    {
      read[s] = g_hash_table_new (g_str_hash, g_str_equal);
      names_read (s < n_fw ? fw->body[s] : bw->body[s - n_fw], read[s]);
    }
  returned_names (fw, bw != NULL, returned);
  if (bw != NULL)
    returned_names (bw, FALSE, returned);
  for (guint i = 0; i < n; i++)
    {
      const WbMemoryBuffer *a = wb_memory_plan_get_buffer (plan, i);
      const WbBsym         *def = a->first < n_fw ? fw->body[a->first] : bw->body[a->first - n_fw];
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();

      /* where it is defined, its bytes, its place */
      g_assert_true (def == a->def);
      wb_bsym_get_output_names (def, outs);
      g_assert_cmpuint (a->output, <, outs->len);
      g_assert_cmpstr (outs->pdata[a->output], ==, a->name);
      if (def->has_type && g_strcmp0 (def->type_name, a->name) == 0)
        g_assert_cmpint (a->nbytes, ==, wb_type_nbytes (&def->type));
      g_assert_cmpint (a->size, >=, a->nbytes);
      g_assert_cmpint (a->size % WB_MEMORY_PLAN_ALIGN, ==, 0);
      g_assert_cmpint (a->offset % WB_MEMORY_PLAN_ALIGN, ==, 0);
      g_assert_cmpint (a->offset + a->size, <=, arena);
      g_assert_cmpuint (a->first, <=, a->last);
      for (guint s = a->last + 1; s < n_steps; s++)
        if (g_hash_table_contains (read[s], a->name))
          g_error ("%s (defined at step %u) is read at step %u after its last step %u", a->name, a->first, s, a->last);
      if (g_hash_table_contains (returned, a->name))
        g_assert_cmpuint (a->last, ==, n_steps - 1);
      f.n_to_end += a->last == n_steps - 1;
      {
        /* not read again in its own trace: held by the interpreter until that trace's end */
        guint    end = a->first < n_fw ? n_fw - 1 : n_steps - 1;
        gboolean read_later = FALSE;
        for (guint s = a->first + 1; s <= end && !read_later; s++)
          read_later = g_hash_table_contains (read[s], a->name);
        if (!read_later)
          g_assert_cmpuint (a->last, >=, end);
      }
      /* brute force: overlapping lifetimes never share bytes */
      for (guint k = i + 1; k < n; k++)
        {
          const WbMemoryBuffer *b = wb_memory_plan_get_buffer (plan, k);
          if (a->first <= b->last && b->first <= a->last && a->offset < b->offset + b->size && b->offset < a->offset + a->size)
            g_error ("%s [%u, %u] at %" G_GINT64_FORMAT "+%" G_GINT64_FORMAT " and %s [%u, %u] at %" G_GINT64_FORMAT "+%" G_GINT64_FORMAT
                     " are live together and overlap",
                     a->name, a->first, a->last, a->offset, a->size, b->name, b->first, b->last, b->offset, b->size);
        }
      sum += a->size;
    }
  for (guint s = 0; s < n_steps; s++)
    {
      gint64 live = 0;
      for (guint i = 0; i < n; i++)
        {
          const WbMemoryBuffer *a = wb_memory_plan_get_buffer (plan, i);
          if (a->first <= s && s <= a->last)
            live += a->size;
        }
      if (live > most)
        f.peak_step = s;
      most = MAX (most, live);
      g_hash_table_unref (read[s]);
    }
  log_live_set (plan, fw, bw, returned, "the peak", f.peak_step, most);
  if (bw != NULL)
    {
      /* what the forward saved: live when the backward starts */
      gint64 live = 0;
      for (guint i = 0; i < n; i++)
        {
          const WbMemoryBuffer *a = wb_memory_plan_get_buffer (plan, i);
          if (a->first <= n_fw && n_fw <= a->last)
            live += a->size;
        }
      log_live_set (plan, fw, bw, returned, "the backward's first step", n_fw, live);
    }
  g_assert_cmpint (sum, ==, wb_memory_plan_get_sum_bytes (plan));
  g_assert_cmpint (most, ==, wb_memory_plan_get_live_peak_bytes (plan));
  g_assert_cmpint (arena, >=, most);
  g_assert_cmpint (arena, <=, sum);
  f.arena = arena, f.sum = sum, f.live = most, f.n = n;
  return f;
}

/* A zoo program and its live peak in bytes as tests/executors/memory-plan-walk.py computes it from the trace
 * text (Python's parser, the lifetimes of wb-memory-plan.h written again; identity-shaped calls, a flip over
 * dims of extent 1, a pad of zero widths and a cat of one tensor, are aliases of their argument). With
 * --identity-copies (them as new tensors, the plan before issue 44's change) it gives 111,585,792 for
 * resnet50 (106.42 MiB) and 73,332,736 for densenet121 (69.94 MiB), what this plan gave then. */
typedef struct
{
  const char *name;
  gint64      live_peak;
} ZooCase;

static const ZooCase zoo_cases[] = {
  { "resnet50", 111454720 },                            /* 106.29 MiB */
  { "densenet121/thunderfx_g0_GraphModule", 60610560 }, /* 57.80 MiB */
  { "llama/thunderfx_g0_GraphModule_3", 432128 },       /* 0.41 MiB */
};

static void
test_zoo_case (gconstpointer data)
{
  const ZooCase   *zc = data;
  const char      *name = zc->name;
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *path = g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbMemoryPlan) plan = NULL;
  const WbCaseStage *stage;
  WbTrace           *bw;
  Figures            f;
  gint64             t0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the zoo is not unpacked in this build");
      return;
    }
  c = wb_case_load_full (path, WB_TRACE_SET_LOAD_NO_SUBSETS, &error);
  g_assert_no_error (error);
  stage = wb_case_get_default_stage (c);
  program = wb_case_make_program (c, stage, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wb_program_get_kind (program), ==, WB_PROGRAM_TRAINING);
  t0 = g_get_monotonic_time ();
  plan = wb_memory_plan_new_for_program (program);
  t0 = g_get_monotonic_time () - t0;
  bw = wb_program_get_backward (program);
  f = check_plan (plan, wb_program_get_forward (program), bw);
  g_assert_cmpuint (f.n, >, 10);
  /* greedy by size comes within a few percent of the lower bound on these programs (1.000-1.04 measured) */
  g_assert_cmpfloat ((double) f.arena, <=, 1.10 * (double) f.live);
  /* the gradients have places (most are views of a fresh tensor: a weight gradient's permute): those buffers
   * live to the last step */
  g_assert_cmpuint (f.n_to_end, >, 0);
  g_assert_cmpint (f.live, ==, zc->live_peak);
  g_test_message ("%s: %u buffers (%u live to the end, %u aliases) over %u steps, planned in %.1f ms: arena %.2f MiB, sum of sizes %.2f MiB "
                  "(arena / sum %.3f), live peak %.2f MiB, %" G_GINT64_FORMAT " bytes (arena / live peak %.3f)",
                  name, f.n, f.n_to_end, wb_memory_plan_get_n_aliases (plan), wb_memory_plan_get_n_steps (plan), t0 / 1e3, f.arena / 1048576.0,
                  f.sum / 1048576.0, (double) f.arena / f.sum, f.live / 1048576.0, f.live, (double) f.arena / f.live);
}

/* A hand-written program: a view shares its base's storage and extends its life, copy_ writes into its
 * destination, its inputs are not planned, what it returns lives to the end */
static const char small_trace[] = "import torch\n"
                                  "def computation(x):\n"
                                  "  # x: \"cpu f32[256]\"\n"
                                  "  t0 = ltorch.exp(x)  # t0: \"cpu f32[256]\"\n"
                                  "  t1 = ltorch.reshape(t0, (16, 16))  # t1: \"cpu f32[16, 16]\"\n"
                                  "  t2 = ltorch.neg(x)  # t2: \"cpu f32[256]\"\n"
                                  "  t3 = ltorch.neg(t1)  # t3: \"cpu f32[16, 16]\"\n"
                                  "  t4 = ltorch.reshape(t3, (256,))  # t4: \"cpu f32[256]\"\n"
                                  "  t5 = prims.copy_(t4, t2)  # t5: \"cpu f32[256]\"\n"
                                  "  t6 = ltorch.exp(t5)  # t6: \"cpu f32[256]\"\n"
                                  "  t7 = ltorch.mul(t6, t2)  # t7: \"cpu f32[256]\"\n"
                                  "  return t7\n";

static void
test_small (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) t = wb_trace_parse (small_trace, -1, "small.py", &error);
  g_autoptr (WbMemoryPlan) plan = NULL;
  const WbMemoryBuffer *const *outs;
  const char                  *want[] = { "t0", "t2", "t3", "t6", "t7" };
  guint                        n_out;
  Figures                      f;

  g_assert_no_error (error);
  plan = wb_memory_plan_new (t, NULL);
  f = check_plan (plan, t, NULL);
  g_assert_cmpuint (f.n, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (wb_memory_plan_get_buffer (plan, i)->name, ==, want[i]);
  /* step 0 is x's annotation. t0 lives while its view t1 is read (step 4); t2 until t7 reads it after
   * copy_ wrote into it as t5 (step 8) */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 0)->last, ==, 4);
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 1)->last, ==, 8);
  /* t3 is read through its view t4 by copy_ (step 6); t6 dies at step 8 */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 2)->last, ==, 6);
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 3)->last, ==, 8);
  /* t7 is returned: until the return (step 9), and past it for the caller */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 4)->first, ==, 8);
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 4)->last, ==, 9);
  g_assert_cmpuint (wb_memory_plan_get_n_aliases (plan), ==, 3);
  g_assert_cmpint (f.sum, ==, 5 * 1024);
  g_assert_cmpuint (f.n_to_end, ==, 1);
  /* t0 [1, 4], t2 [3, 8], t3 [4, 6], t6 [7, 8], t7 [8, 9]: at most three live at once; t6 reuses t0's bytes */
  g_assert_cmpint (f.live, ==, 3 * 1024);
  g_assert_cmpint (f.arena, ==, 3 * 1024);
  g_assert_cmpint (wb_memory_plan_get_buffer (plan, 3)->offset, ==, wb_memory_plan_get_buffer (plan, 0)->offset);
  outs = wb_memory_plan_get_outputs (plan, t->body[1], &n_out);
  g_assert_cmpuint (n_out, ==, 1);
  g_assert_cmpstr (outs[0]->name, ==, "t0");
  g_assert_null (wb_memory_plan_get_outputs (plan, t->body[2], &n_out)); /* the view: no allocation */
  g_assert_cmpuint (n_out, ==, 0);
  g_assert_null (wb_memory_plan_get_outputs (plan, t->body[6], &n_out)); /* copy_ writes t2 in place */
  outs = wb_memory_plan_get_outputs (plan, t->body[8], &n_out);          /* t7, returned, has a place too */
  g_assert_cmpuint (n_out, ==, 1);
  g_assert_cmpstr (outs[0]->name, ==, "t7");
}

/* Lifetimes the interpreter gives that no read shows: a name never read again is held until its trace's
 * end; a slice (torch_slice_prim_impl, an executor's name for prims.slice_prim) is a view of its base; a
 * same-dtype conversion may be its argument itself, a dtype change never is; a sum over a dim of extent 1
 * may be a view of its argument (the CUDA generator makes it a squeeze) */
static const char held_trace[] = "import torch\n"
                                 "def computation(x):\n"
                                 "  # x: \"cpu f32[256]\"\n"
                                 "  t0 = ltorch.exp(x)  # t0: \"cpu f32[256]\"\n"
                                 "  t1 = ltorch.neg(x)  # t1: \"cpu f32[256]\"\n"
                                 "  t2 = torch_slice_prim_impl(t1, [0], [128], [1])  # t2: \"cpu f32[128]\"\n"
                                 "  t3 = ltorch.contiguous(t2)  # t3: \"cpu f32[128]\"\n"
                                 "  t4 = ltorch.to(t2, torch.float16)  # t4: \"cpu f16[128]\"\n"
                                 "  t5 = ltorch.exp(t3)  # t5: \"cpu f32[128]\"\n"
                                 "  t6 = ltorch.mul(t5, t5)  # t6: \"cpu f32[128]\"\n"
                                 "  t7 = ltorch.add(t6, t4)  # t7: \"cpu f32[128]\"\n"
                                 "  t8 = ltorch.unsqueeze(t7, 0)  # t8: \"cpu f32[1, 128]\"\n"
                                 "  t9 = ltorch.sum(t8, (0,))  # t9: \"cpu f32[128]\"\n"
                                 "  return t9\n";

static void
test_held (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) t = wb_trace_parse (held_trace, -1, "held.py", &error);
  g_autoptr (WbMemoryPlan) plan = NULL;
  const char *want[] = { "t0", "t1", "t3", "t4", "t5", "t6", "t7", "t9" };
  guint       n_out;

  g_assert_no_error (error);
  plan = wb_memory_plan_new (t, NULL);
  check_plan (plan, t, NULL);
  g_assert_cmpuint (wb_memory_plan_get_n_buffers (plan), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (wb_memory_plan_get_buffer (plan, i)->name, ==, want[i]);
  /* steps: 0 x's annotation, 1 t0, ..., 10 t9, 11 the return. t0 is never read: held to the end */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 0)->last, ==, 11);
  /* t1 is read last through its slice t2 (step 5, t4), and t3 (contiguous) may be t2 itself: read at step 6 */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 1)->last, ==, 6);
  g_assert_null (wb_memory_plan_get_outputs (plan, t->body[3], &n_out)); /* the slice: no allocation */
  /* t7 is read last through t8 (step 10), but t9, returned, may be a view of it: t7 lives to the end too */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 6)->last, ==, 11);
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 7)->last, ==, 11);
  g_assert_cmpuint (wb_memory_plan_get_n_aliases (plan), ==, 2);
  (void) n_out;
}

/* A same-dtype conversion is its argument (the cpu executor) or a view of it (a CUDA region): an alias; with
 * copy=True, or to another dtype, a new tensor. A region's output its subsymbols make a reshape of another of
 * its outputs is that output's alias */
static const char to_trace[] = "import torch\n"
                               "def computation(x):\n"
                               "  # x: \"cpu f32[256]\"\n"
                               "  t0 = ltorch.exp(x)  # t0: \"cpu f32[256]\"\n"
                               "  t1 = ltorch.to(t0, torch.float32)  # t1: \"cpu f32[256]\"\n"
                               "  t2 = ltorch.to(t0, torch.float32, copy=True)  # t2: \"cpu f32[256]\"\n"
                               "  t3 = ltorch.to(t1, torch.float16)  # t3: \"cpu f16[256]\"\n"
                               "  [t4, t5] = TorchCompile1(t3)\n"
                               "    # t4 = ltorch.neg(t3)  # t4: \"cpu f16[256]\"\n"
                               "    # t5 = ltorch.reshape(t4, (16, 16))  # t5: \"cpu f16[16, 16]\"\n"
                               "  t6 = ltorch.neg(t1)  # t6: \"cpu f32[256]\"\n"
                               "  return (t2, t5, t6)\n";

static void
test_to (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) t = wb_trace_parse (to_trace, -1, "to.py", &error);
  g_autoptr (WbMemoryPlan) plan = NULL;
  const char *want[] = { "t0", "t2", "t3", "t4", "t6" };

  g_assert_no_error (error);
  plan = wb_memory_plan_new (t, NULL);
  check_plan (plan, t, NULL);
  g_assert_cmpuint (wb_memory_plan_get_n_buffers (plan), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (wb_memory_plan_get_buffer (plan, i)->name, ==, want[i]);
  /* steps: 0 x's annotation, 1 t0, ..., 5 the region, 6 t6, 7 the return. t0 is read last as t1 (step 6: t6);
   * t2, a copy, does not keep it */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 0)->last, ==, 6);
  /* t4 lives as long as its reshape t5, which is returned */
  g_assert_cmpuint (wb_memory_plan_get_buffer (plan, 3)->last, ==, 7);
}

/* wb_memory_plan_place on lifetimes that are not a program's (the launch list's recorded allocations): a
 * hand-made set with a known arena, then random sets checked pair by pair */
static void
check_placed (GArray *bufs, guint n_steps, gint64 arena, gint64 live_peak)
{
  g_autofree gint64 *live = g_new0 (gint64, n_steps);
  gint64             most = 0, top = 0;

  for (guint i = 0; i < bufs->len; i++)
    {
      const WbMemoryBuffer *a = &g_array_index (bufs, WbMemoryBuffer, i);
      g_assert_cmpint (a->offset % WB_MEMORY_PLAN_ALIGN, ==, 0);
      g_assert_cmpint (a->offset, >=, 0);
      top = MAX (top, a->offset + a->size);
      for (guint s = a->first; s <= a->last; s++)
        live[s] += a->size;
      for (guint j = i + 1; j < bufs->len; j++)
        {
          const WbMemoryBuffer *b = &g_array_index (bufs, WbMemoryBuffer, j);
          if (a->first <= b->last && b->first <= a->last)
            g_assert_true (a->offset + a->size <= b->offset || b->offset + b->size <= a->offset);
        }
    }
  for (guint s = 0; s < n_steps; s++)
    most = MAX (most, live[s]);
  g_assert_cmpint (live_peak, ==, most);
  g_assert_cmpint (arena, ==, top);
  g_assert_cmpint (arena, >=, most);
}

static void
add_buffer (GArray *bufs, gint64 size, guint first, guint last)
{
  WbMemoryBuffer b = { 0 };

  b.nbytes = b.size = size;
  b.first = first;
  b.last = last;
  g_array_append_val (bufs, b);
}

static void
test_place (void)
{
  g_autoptr (GArray) bufs = g_array_new (FALSE, TRUE, sizeof (WbMemoryBuffer));
  gint64 peak = 0, arena;

  /* two short 512-byte lives one after the other share their bytes above a 1024-byte one that spans both */
  add_buffer (bufs, 512, 0, 1);
  add_buffer (bufs, 512, 2, 3);
  add_buffer (bufs, 1024, 0, 3);
  arena = wb_memory_plan_place (bufs, 4, &peak);
  check_placed (bufs, 4, arena, peak);
  g_assert_cmpint (arena, ==, 1536);
  g_assert_cmpint (g_array_index (bufs, WbMemoryBuffer, 0).offset, ==, g_array_index (bufs, WbMemoryBuffer, 1).offset);
  g_assert_cmpint (wb_memory_plan_place (g_array_set_size (bufs, 0), 1, &peak), ==, 0);
  for (guint round = 0; round < 50; round++)
    {
      guint n = (guint) g_test_rand_int_range (1, 300), steps = 2 * n;
      g_array_set_size (bufs, 0);
      for (guint i = 0; i < n; i++)
        {
          guint first = (guint) g_test_rand_int_range (0, (gint32) steps);
          guint last = (guint) g_test_rand_int_range ((gint32) first, (gint32) steps);
          add_buffer (bufs, WB_MEMORY_PLAN_ALIGN * g_test_rand_int_range (1, 64), first, last);
        }
      arena = wb_memory_plan_place (bufs, steps, &peak);
      check_placed (bufs, steps, arena, peak);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-plan/small", test_small);
  g_test_add_func ("/memory-plan/held", test_held);
  g_test_add_func ("/memory-plan/to", test_to);
  g_test_add_func ("/memory-plan/place", test_place);
  g_test_add_data_func ("/memory-plan/zoo/resnet50", &zoo_cases[0], test_zoo_case);
  g_test_add_data_func ("/memory-plan/zoo/densenet121", &zoo_cases[1], test_zoo_case);
  g_test_add_data_func ("/memory-plan/zoo/llama", &zoo_cases[2], test_zoo_case);
  return g_test_run ();
}
