/* test-cuda-split.c — regions with matmuls as fused runs between cuBLASLt calls (wb-cuda-codegen-split.c), on
 * Thunder's own traces (suite executors: no GPU; NVRTC compiles the plans when it is installed)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every torch.compile region of gpt2_block, llama_layer and mlp_small that holds matmuls is split; the
 * steps are checked as a program: each fused step reads only region inputs and earlier results, each
 * matmul's operands exist before it, every fusible op runs exactly once and every region output is
 * defined. On gpt2_block's backward region TorchCompile2 the placement of ops between the matmuls is
 * checked against Thunder's own order: less memory written between steps, and none of the f32 GELU
 * intermediates of [8, 1024, 3072] that the region's order would write. The column sum of the MLP
 * gradient loads that gradient from its buffer rather than computing it again, x ** 2 is a multiply, and
 * every kernel is named after its source's hash. In every split region, column reductions combine their
 * partials in their own last block, and sums over dims of extent 1 are views. */
#include "config.h"

#include <string.h>

#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"

static char *cache_dir;

/* The trace of @case_name that holds fusion region @name (the last such entry), or NULL. */
static WbTrace *
load_region (const char *case_name, const char *name, const WbBsym **region, WbTraceSet **set_out)
{
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  WbTraceSet *set;

  if (dir == NULL || !g_file_test ((path = g_build_filename (dir, case_name, NULL)), G_FILE_TEST_IS_DIR))
    return NULL;
  set = wb_trace_set_load (path, &error);
  g_assert_no_error (error);
  *set_out = set;
  for (guint i = wb_trace_set_get_n_entries (set); i > 0; i--)
    {
      WbTrace *t = wb_trace_set_get_entry (set, i - 1)->trace;
      for (guint b = 0; t && b < t->n_body; b++)
        if (t->body[b]->kind == WB_BSYM_CALL && g_strcmp0 (t->body[b]->name, name) == 0 && t->body[b]->n_subsymbols > 0)
          {
            *region = t->body[b];
            return t;
          }
    }
  return NULL;
}

static void
add_name (const WbValue *name, gpointer set)
{
  g_hash_table_add (set, (gpointer) name->text);
}

static void
assert_uses_defined (const WbValue *v, GHashTable *defined, const char *where)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME && !g_hash_table_contains (defined, v->text))
    g_error ("%s reads %s before any step defines it", where, v->text);
  for (guint i = 0; i < v->n_items; i++)
    assert_uses_defined (v->items[i], defined, where);
}

/* Bytes of the annotated tensor @name among @region's subsymbols, 0 when not annotated. */
static gint64
annotated_bytes (const WbBsym *region, const char *name, gboolean *is_big_f32)
{
  for (guint i = 0; i < region->n_subsymbols; i++)
    {
      const WbBsym *b = region->subsymbols[i];
      gint64        n = 1;
      if (b->kind != WB_BSYM_CALL || !b->has_type || g_strcmp0 (b->type_name, name) != 0 || b->type.kind != WB_TYPE_TENSOR)
        continue;
      for (guint d = 0; d < b->type.rank; d++)
        n *= b->type.shape[d];
      if (is_big_f32)
        *is_big_f32 = b->type.dtype == WB_DTYPE_FLOAT32 && n == 8 * 1024 * 3072;
      return n * (gint64) wb_dtype_size (b->type.dtype);
    }
  return 0;
}

/* Checks @split as a program over @region; returns the bytes its fused steps write for later steps and
 * counts in @big_f32 the f32 [8, 1024, 3072] values among them. */
static gint64
check_split (const WbBsym *region, const WbCudaSplit *split, guint *big_f32)
{
  g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) ran = g_hash_table_new (NULL, NULL);
  gint64 written = 0;
  guint  n_matmuls = 0, n_fusible = 0;

  *big_f32 = 0;
  for (guint i = 0; i < region->n_args; i++)
    if (region->args[i]->kind == WB_VALUE_NAME)
      g_hash_table_add (defined, (gpointer) region->args[i]->text);
  for (guint i = 0; i < region->n_subsymbols; i++)
    if (region->subsymbols[i]->kind == WB_BSYM_CALL)
      wb_cuda_split_matmul_leaf (region->subsymbols[i]) ? n_matmuls++ : n_fusible++;
  for (guint s = 0; s < split->n_steps; s++)
    {
      const WbCudaStep *st = &split->steps[s];
      g_autofree char  *where = g_strdup_printf ("%s step %u", region->name, s + 1);
      if (st->kind == WB_CUDA_STEP_MATMUL)
        {
          for (guint k = 0; k < st->matmul->n_args; k++)
            assert_uses_defined (st->matmul->args[k], defined, where);
          g_hash_table_add (defined, (gpointer) st->matmul->outputs->text);
          n_matmuls--;
          continue;
        }
      g_assert_cmpuint (st->n_units, >, 0);
      for (guint i = 0; i < st->n_inputs; i++)
        g_assert_true (g_hash_table_contains (defined, st->inputs[i]));
      {
        /* inside the step, names are defined in the order its units run */
        g_autoptr (GHashTable) local = g_hash_table_new (g_str_hash, g_str_equal);
        GHashTableIter it;
        gpointer       k;
        g_hash_table_iter_init (&it, defined);
        while (g_hash_table_iter_next (&it, &k, NULL))
          g_hash_table_add (local, k);
        for (guint u = 0; u < st->n_units; u++)
          {
            const WbBsym *b = st->units[u];
            for (guint a = 0; a < b->n_args; a++)
              assert_uses_defined (b->args[a], local, where);
            wb_bsym_foreach_output (b, add_name, local);
            g_assert_true (g_hash_table_add (ran, (gpointer) b)); /* each op once */
          }
      }
      for (guint i = 0; i < st->n_outputs; i++)
        {
          gboolean big = FALSE;
          g_hash_table_add (defined, (gpointer) st->outputs[i]);
          written += annotated_bytes (region, st->outputs[i], &big);
          *big_f32 += big;
        }
    }
  g_assert_cmpuint (n_matmuls, ==, 0);
  g_assert_cmpuint (g_hash_table_size (ran), ==, n_fusible);
  {
    const WbValue *o = region->outputs;
    for (guint i = 0; i < (o->kind == WB_VALUE_NAME ? 1 : o->n_items); i++)
      g_assert_true (g_hash_table_contains (defined, (o->kind == WB_VALUE_NAME ? o : o->items[i])->text));
  }
  return written;
}

static void
compile_plans (const char *what, GPtrArray *plans)
{
  for (guint i = 0; i < plans->len; i++)
    {
      const WbCudaPlan *plan = plans->pdata[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (WbNvrtcImage) img = NULL;
      if (plan == NULL)
        continue;
      for (guint k = 0; k < plan->n_kernels; k++)
        {
          /* wb_k<index>_<8 hex digits of the source's SHA-1>, and the source defines it */
          g_autofree char *prefix = g_strdup_printf ("wb_k%u_", k);
          g_autofree char *def = g_strdup_printf ("\n%s (", plan->kernels[k].entry);
          g_assert_true (g_str_has_prefix (plan->kernels[k].entry, prefix));
          g_assert_cmpuint (strlen (plan->kernels[k].entry), ==, strlen (prefix) + 8);
          g_assert_nonnull (strstr (plan->source, def));
        }
      if (wb_cuda_load_nvrtc (NULL) == NULL)
        continue;
      img = wb_nvrtc_compile (plan->source, "sm_90", cache_dir, &error);
      if (img == NULL)
        g_error ("%s step plan %u: %s", what, i, error->message);
    }
}

static void
test_gpt2_backward (void)
{
  g_autoptr (WbTraceSet) set = NULL;
  const WbBsym *region = NULL;
  WbTrace      *trace = load_region ("gpt2_block", "TorchCompile2", &region, &set);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCudaSplit) placed = NULL;
  g_autoptr (WbCudaSplit) ordered = NULL;
  g_autoptr (GPtrArray) plans = NULL;
  gint64   placed_bytes, ordered_bytes;
  guint    placed_f32, ordered_f32, checked = 0, merged = 0;
  gboolean has_pow2 = FALSE;

  if (trace == NULL)
    {
      g_test_skip ("needs gpt2_block (WB_TRACES_DIR)");
      return;
    }
  placed = wb_cuda_split_new (region, &error);
  g_assert_no_error (error);
  g_setenv ("WB_CUDA_NO_RESCHEDULE", "1", TRUE);
  ordered = wb_cuda_split_new (region, &error);
  g_unsetenv ("WB_CUDA_NO_RESCHEDULE");
  g_assert_no_error (error);
  placed_bytes = check_split (region, placed, &placed_f32);
  ordered_bytes = check_split (region, ordered, &ordered_f32);
  g_test_message ("TorchCompile2: %u steps; written between steps: %.1f MB placed, %.1f MB in the region's order", placed->n_steps,
                  placed_bytes / 1e6, ordered_bytes / 1e6);
  g_assert_cmpint (ordered_f32, >, 0);
  g_assert_cmpint (placed_f32, ==, 0);
  g_assert_cmpint (placed_bytes, <, ordered_bytes);

  plans = wb_cuda_split_plans_annotated (trace, placed, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plans->len, ==, placed->n_steps);
  for (guint s = 0; s < placed->n_steps; s++)
    {
      const WbCudaStep *st = &placed->steps[s];
      const WbCudaPlan *plan = plans->pdata[s];
      if (st->kind != WB_CUDA_STEP_FUSED)
        continue;
      {
        /* x ** 2 (the GELU gradient's) is generated as a multiply: no powf where that is the step's only pow */
        guint pow2 = 0, pows = 0;
        for (guint u = 0; u < st->n_units; u++)
          if (strstr (st->units[u]->name, "pow") != NULL)
            {
              pows++;
              pow2 += st->units[u]->n_args == 2 && st->units[u]->args[1]->kind == WB_VALUE_INT && st->units[u]->args[1]->v.i == 2;
            }
        if (pow2 > 0 && pow2 == pows)
          {
            g_assert_null (strstr (plan->source, "powf"));
            has_pow2 = TRUE;
          }
      }
      /* the GELU gradient t513 ([8, 1024, 3072]) and t494, the GELU's reshape to [8192, 3072] for the weight
       * gradient (or the GELU t484 itself, when the reshape is placed in a later step of views only), come
       * from one kernel reading t418 once (not a second kernel over [8192, 3072]): the column kernel of t513's
       * sum over the tokens (the bias gradient) */
      {
        int o513 = -1, o494 = -1;
        for (guint i = 0; i < st->n_outputs; i++)
          {
            if (strcmp (st->outputs[i], "t513") == 0)
              o513 = (int) i;
            if (strcmp (st->outputs[i], "t494") == 0 || strcmp (st->outputs[i], "t484") == 0)
              o494 = (int) i;
          }
        if (o513 >= 0 && o494 >= 0)
          {
            gboolean together = FALSE;
            for (guint k = 0; k < plan->n_kernels; k++)
              {
                gboolean w513 = FALSE, w494 = FALSE;
                g_assert_null (strstr (plan->kernels[k].what, "pointwise over [8192, 3072]"));
                for (guint p = 0; p < plan->kernels[k].n_params; p++)
                  {
                    w513 |= plan->kernels[k].params[p] == plan->outputs[o513].slot;
                    w494 |= plan->kernels[k].params[p] == plan->outputs[o494].slot;
                  }
                together |= w513 && w494 && g_str_has_prefix (plan->kernels[k].what, "sum over") && strstr (plan->kernels[k].what, "then 2 pointwise outputs per element");
              }
            g_assert_true (together);
            merged++;
          }
      }
      /* the step summing t513 (the MLP's input gradient) over tokens also writes t513: one kernel computes it
       * at each element, stores it and sums it (no kernel before it writing t513 for the sum to load) */
      for (guint i = 0; i < st->n_outputs; i++)
        if (strcmp (st->outputs[i], "t513") == 0)
          {
            g_assert_cmpuint (plan->n_kernels, ==, 1);
            g_assert_true (g_str_has_prefix (plan->kernels[0].what, "sum over"));
            for (guint p = 0; p < plan->kernels[0].n_params; p++)
              if (plan->kernels[0].params[p] == plan->outputs[i].slot)
                checked++;
          }
    }
  g_assert_true (has_pow2);
  g_assert_cmpuint (checked, ==, 1);
  g_assert_cmpuint (merged, ==, 1);
  compile_plans ("gpt2_block/TorchCompile2", plans);
}

/* Reductions in @plans: a column reduction is one kernel whose last block per tile combines the partials,
 * counting arrivals in a counters buffer (no second "combines" launch); a sum over dims of extent 1 is a
 * view, not a kernel of one thread per output (gpt2_block's layer-norm backward had four). */
static void
check_reductions (const char *what, GPtrArray *plans)
{
  for (guint i = 0; i < plans->len; i++)
    {
      const WbCudaPlan *plan = plans->pdata[i];
      for (guint k = 0; plan != NULL && k < plan->n_kernels; k++) /* NULL: a matmul step */
        {
          const WbCudaKernel *kr = &plan->kernels[k];
          g_assert_null (strstr (kr->what, ": combines "));
          {
            /* "sum over 1 of 3 dims of f32[8192 elements]: 8192 outputs, ...": every output from one element */
            const char *e = strstr (kr->what, " elements]: ");
            const char *b = e ? g_strrstr_len (kr->what, e - kr->what, "[") : NULL;
            if (e != NULL && b != NULL && g_str_has_prefix (kr->what, "sum over"))
              g_assert_cmpint (g_ascii_strtoll (b + 1, NULL, 10), !=, g_ascii_strtoll (e + strlen (" elements]: "), NULL, 10));
          }
          if (strstr (kr->what, "combined by the last block") != NULL)
            {
              gboolean counted = FALSE;
              for (guint p = 0; p < kr->n_params; p++)
                counted |= kr->params[p] >= plan->n_inputs && plan->buffers[kr->params[p] - plan->n_inputs].counters;
              g_assert_true (counted);
              g_test_message ("%s: %s", what, kr->what);
            }
        }
    }
}

/* The element count of "pointwise over [8, 1024, 1]: ..." (-1: another kind of kernel). */
static gint64
pointwise_numel (const char *what)
{
  const char *p = what + strlen ("pointwise over [");
  gint64      n = 1;

  if (!g_str_has_prefix (what, "pointwise over ["))
    return -1;
  while (*p && *p != ']')
    {
      char *end;
      n *= g_ascii_strtoll (p, &end, 10);
      p = *end == ',' ? end + 2 : end;
    }
  return n;
}

/* Row reductions and what follows them in @plans: a plan's last row-reduction kernel computes the plan's
 * pointwise outputs of its operand's shape or of its outputs' shape itself ("; then N pointwise outputs per
 * row and M per element"), so no pointwise kernel of either size follows it (a layer norm forward was a
 * var_mean kernel, then the rsqrt over [8, 1024, 1], then the normalisation over [8, 1024, 768]). Counts in
 * @epilogues the kernels that have one and in @siblings those that compute sibling reductions. */
static void
check_epilogues (const char *what, GPtrArray *plans, guint *epilogues, guint *siblings)
{
  for (guint i = 0; i < plans->len; i++)
    {
      const WbCudaPlan *plan = plans->pdata[i];
      int               last = -1;
      gint64            elements = 0, outputs = 0;
      for (guint k = 0; plan != NULL && k < plan->n_kernels; k++)
        {
          const char *w = plan->kernels[k].what;
          const char *t = strstr (w, " threads each");
          *siblings += strstr (w, " sibling") != NULL;
          if (t != NULL && g_ascii_strtoll (g_strrstr_len (w, t - w, " ") + 1, NULL, 10) > 1) /* a row kernel: T > 1 threads per output */
            {
              const char *e = strstr (w, " elements]: ");
              const char *b = e ? g_strrstr_len (w, e - w, "[") : NULL;
              g_assert_nonnull (b);
              last = (int) k;
              elements = g_ascii_strtoll (b + 1, NULL, 10);
              outputs = g_ascii_strtoll (e + strlen (" elements]: "), NULL, 10);
            }
        }
      for (guint k = last + 1; plan != NULL && last >= 0 && k < plan->n_kernels; k++)
        {
          gint64 n = pointwise_numel (plan->kernels[k].what);
          if (n == elements || n == outputs)
            g_test_message ("%s: after \"%s\": \"%s\"", what, plan->kernels[last].what, plan->kernels[k].what);
          g_assert_cmpint (n, !=, elements);
          g_assert_cmpint (n, !=, outputs);
        }
      if (last >= 0 && strstr (plan->kernels[last].what, "; then ") != NULL)
        {
          (*epilogues)++;
          g_test_message ("%s: %s", what, plan->kernels[last].what);
        }
    }
}

static void
test_case (gconstpointer data)
{
  const char *case_name = data;
  guint       split_regions = 0, epilogues = 0, siblings = 0;

  for (int r = 0; r < 8; r++)
    {
      g_autoptr (WbTraceSet) set = NULL;
      g_autofree char *name = g_strdup_printf ("TorchCompile%d", r);
      const WbBsym    *region = NULL;
      WbTrace         *trace = load_region (case_name, name, &region, &set);
      g_autoptr (GError) error = NULL;
      g_autoptr (WbCudaSplit) split = NULL;
      g_autoptr (GPtrArray) plans = NULL;
      g_autofree char *what = NULL;
      guint            f32;
      if (trace == NULL)
        continue;
      if ((split = wb_cuda_split_new (region, &error)) == NULL)
        {
          g_test_message ("%s/%s: not split: %s", case_name, name, error->message);
          continue;
        }
      check_split (region, split, &f32);
      plans = wb_cuda_split_plans_annotated (trace, split, &error);
      g_assert_no_error (error);
      what = g_strdup_printf ("%s/%s", case_name, name);
      check_reductions (what, plans);
      check_epilogues (what, plans, &epilogues, &siblings);
      compile_plans (what, plans);
      split_regions++;
    }
  if (split_regions == 0)
    g_test_skip ("no traces of this case (WB_TRACES_DIR)");
  else
    g_test_message ("%s: %u regions split around their matmuls, %u row kernels with an epilogue, %u with siblings", case_name, split_regions,
                    epilogues, siblings);
  /* the layer norms (gpt2_block) and RMS norms (llama_layer), forward and backward; a layer norm backward's
   * two row sums, and its weight and bias gradients' column sums, are siblings */
  if (strcmp (case_name, "mlp_small") != 0 && split_regions > 0)
    g_assert_cmpuint (epilogues, >=, 4);
  if (strcmp (case_name, "gpt2_block") == 0 && split_regions > 0)
    g_assert_cmpuint (siblings, >=, 2);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  cache_dir = g_dir_make_tmp ("wb-split-XXXXXX", NULL);
  g_test_add_func ("/cuda/split/gpt2_block/TorchCompile2", test_gpt2_backward);
  g_test_add_data_func ("/cuda/split/gpt2_block", "gpt2_block", test_case);
  g_test_add_data_func ("/cuda/split/llama_layer", "llama_layer", test_case);
  g_test_add_data_func ("/cuda/split/mlp_small", "mlp_small", test_case);
  rc = g_test_run ();
  wb_test_remove_tree (cache_dir);
  g_free (cache_dir);
  return rc;
}
