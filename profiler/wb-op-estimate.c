/* wb-op-estimate.c — a fusion region's measured time split over its ops by kernel groups and the roofline
 * (the rules are in wb-op-estimate.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cuda.h"
#include "wb-profiler.h"

/* whether @name is the registry's cpu executor (a region it ran has no kernels of its own) */
static gboolean
is_cpu_executor (const char *name)
{
  return g_strcmp0 (name, wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_CPU))) == 0;
}

const char *
wb_op_estimate_basis_to_string (WbOpEstimateBasis basis)
{
  return basis == WB_OP_ESTIMATE_KERNELS ? "kernels" : "region";
}

void
wb_op_estimate_free (WbOpEstimate *estimate)
{
  if (estimate == NULL)
    return;
  g_free (estimate->region);
  g_free (estimate->symbol);
  g_free (estimate->output);
  g_free (estimate);
}

int
wb_op_estimate_compare_costliest (gconstpointer a, gconstpointer b)
{
  const WbOpEstimate *x = *(WbOpEstimate *const *) a;
  const WbOpEstimate *y = *(WbOpEstimate *const *) b;

  if (x->estimated_ns != y->estimated_ns)
    return x->estimated_ns > y->estimated_ns ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* One kernel group of a region: the ops it computes (indices into the region's subsymbols). */
typedef struct
{
  GArray  *ops;       /* (element-type guint) */
  gboolean fused;     /* one fused kernel group: intermediates move nothing */
  GArray  *iter_ns;   /* (element-type gint64) its kernels' time per timed iteration; NULL: not measured */
  int      merged_to; /* -1, or the group whose time it shares (consecutive matmul steps) */
} Group;

static void
group_clear (gpointer data)
{
  Group *g = data;

  g_clear_pointer (&g->ops, g_array_unref);
  g_clear_pointer (&g->iter_ns, g_array_unref);
}

static GArray *
new_groups (void)
{
  GArray *groups = g_array_new (FALSE, TRUE, sizeof (Group));

  g_array_set_clear_func (groups, group_clear);
  return groups;
}

static Group *
add_group (GArray *groups, gboolean fused)
{
  Group g = { g_array_new (FALSE, FALSE, sizeof (guint)), fused, NULL, -1 };

  g_array_append_val (groups, g);
  return &g_array_index (groups, Group, groups->len - 1);
}

/* Whether an op moves no memory of its own: a view as the cost model counts one, and in a fused group also
 * what the generator folds into its operand's indexing (wb-cuda-codegen.h). */
static gboolean
op_is_view (const WbBsym *op, gboolean fused)
{
  static const char *const folded[] = { "prims.shallow_copy", "prims.flip", "prims.stride_order", "prims.broadcast_in_dim" };

  if (wb_cost_bsym_is_view (op))
    return TRUE;
  for (guint i = 0; fused && op->name != NULL && i < G_N_ELEMENTS (folded); i++)
    if (strcmp (op->name, folded[i]) == 0)
      return TRUE;
  return FALSE;
}

/* -- kernel groups of a GPU region split at its matmuls ------------------------------------------------ */

static gboolean
is_generated (const WbKernelRecord *k)
{
  return k->name != NULL && g_str_has_prefix (k->name, "wb_k");
}

/* The kernels one launch of @plan runs after its first (its @once kernels run only at the first). */
static guint
plan_launch_kernels (const WbCudaPlan *plan)
{
  guint n = 0;

  for (guint i = 0; plan != NULL && i < plan->n_kernels; i++)
    n += !plan->kernels[i].once;
  return n;
}

/* Matches one iteration's kernels @ks (start order) to the steps; adds their times to @steps_ns (per step). */
static gboolean
match_iteration (const WbCudaSplit *split, GPtrArray *plans, GPtrArray *ks, gint64 *steps_ns, int *merged_to)
{
  guint pos = 0;

  for (guint s = 0; s < split->n_steps;)
    {
      if (split->steps[s].kind == WB_CUDA_STEP_FUSED)
        {
          guint n = plan_launch_kernels (plans->pdata[s]);

          for (guint j = 0; j < n; j++, pos++)
            {
              const WbKernelRecord *k = pos < ks->len ? ks->pdata[pos] : NULL;
              if (k == NULL || !is_generated (k))
                return FALSE;
              steps_ns[s] += k->end_ns - k->start_ns;
            }
          s++;
          continue;
        }
      {
        guint e = s, m = 0;

        while (e < split->n_steps && split->steps[e].kind == WB_CUDA_STEP_MATMUL)
          e++;
        while (pos + m < ks->len && !is_generated (ks->pdata[pos + m]))
          m++;
        if (m == 0)
          return FALSE;
        for (guint j = 0; j < m; j++)
          {
            const WbKernelRecord *k = ks->pdata[pos + j];
            guint                 at = m == e - s ? s + j : s;
            steps_ns[at] += k->end_ns - k->start_ns;
          }
        if (m != e - s)
          for (guint j = s + 1; j < e; j++)
            merged_to[j] = (int) s;
        pos += m;
        s = e;
      }
    }
  return pos == ks->len;
}

/* The op of @region that step @st computes as its matmul (itself or the composite whose single leaf it is). */
static int
matmul_op (const WbBsym *region, const WbCudaStep *st)
{
  for (guint i = 0; i < region->n_subsymbols; i++)
    if (region->subsymbols[i] == st->matmul || wb_cuda_split_matmul_leaf (region->subsymbols[i]) == st->matmul)
      return (int) i;
  return -1;
}

/* Groups of @region (a split region) from its kernel records @kernels (start order; NULL: none); FALSE when
 * they do not match its steps. Each iteration that recorded its kernels counts (the traced ones of a GPU run). */
static gboolean
split_groups (const WbTrace *trace, const WbBsym *region, GPtrArray *kernels, GArray *groups)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCudaSplit) split = wb_cuda_split_new (region, &error);
  g_autoptr (GPtrArray) plans = NULL;
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree gint64 *steps_ns = NULL;
  g_autofree int    *merged_to = NULL;
  g_autofree guint  *covered = NULL;
  g_autoptr (GArray) iterations = g_array_new (FALSE, FALSE, sizeof (guint)); /* the iterations recorded, in order */
  guint n_iters;

  for (guint k = 0; kernels != NULL && k < kernels->len; k++)
    {
      guint    it = ((const WbKernelRecord *) kernels->pdata[k])->iteration;
      gboolean seen = FALSE;

      for (guint j = 0; j < iterations->len && !seen; j++)
        seen = g_array_index (iterations, guint, j) == it;
      if (!seen)
        g_array_append_val (iterations, it);
    }
  n_iters = iterations->len;
  if (n_iters == 0 || split == NULL || (plans = wb_cuda_split_plans_annotated (trace, split, &error)) == NULL)
    return FALSE;
  for (guint i = 0; i < region->n_subsymbols; i++)
    g_hash_table_insert (index, region->subsymbols[i], GUINT_TO_POINTER (i + 1));
  steps_ns = g_new0 (gint64, (gsize) split->n_steps * n_iters);
  merged_to = g_new (int, MAX (split->n_steps, 1));
  for (guint s = 0; s < split->n_steps; s++)
    merged_to[s] = -1;
  for (guint it = 0; it < n_iters; it++)
    {
      g_autoptr (GPtrArray) ks = g_ptr_array_new ();

      for (guint k = 0; k < kernels->len; k++)
        {
          const WbKernelRecord *r = kernels->pdata[k];
          if (r->iteration == g_array_index (iterations, guint, it))
            g_ptr_array_add (ks, (gpointer) r);
        }
      if (!match_iteration (split, plans, ks, steps_ns + (gsize) it * split->n_steps, merged_to))
        return FALSE;
    }
  /* one group per step; merged matmul steps share the first's time */
  covered = g_new0 (guint, MAX (region->n_subsymbols, 1));
  for (guint s = 0; s < split->n_steps; s++)
    {
      const WbCudaStep *st = &split->steps[s];
      Group            *g = add_group (groups, st->kind == WB_CUDA_STEP_FUSED);

      g->merged_to = merged_to[s];
      g->iter_ns = g_array_new (FALSE, TRUE, sizeof (gint64));
      for (guint it = 0; it < n_iters; it++)
        g_array_append_val (g->iter_ns, steps_ns[(gsize) it * split->n_steps + s]);
      if (st->kind == WB_CUDA_STEP_FUSED)
        for (guint u = 0; u < st->n_units; u++)
          {
            guint i = GPOINTER_TO_UINT (g_hash_table_lookup (index, st->units[u]));
            if (i > 0 && covered[i - 1]++ == 0)
              g_array_append_val (g->ops, (guint){ i - 1 });
          }
      else
        {
          int i = matmul_op (region, st);
          if (i >= 0 && covered[i]++ == 0)
            g_array_append_val (g->ops, (guint){ (guint) i });
        }
    }
  /* an op no step computes (a view the split left out) joins the first group: it gets ~0 there */
  for (guint i = 0; i < region->n_subsymbols; i++)
    if (covered[i] == 0)
      {
        if (!op_is_view (region->subsymbols[i], TRUE))
          return FALSE;
        g_array_append_val (g_array_index (groups, Group, 0).ops, i);
      }
  return TRUE;
}

/* -- bytes of an op in a fused group ---------------------------------------------------------------------- */

static void
add_name_cb (const WbValue *name, gpointer set)
{
  g_hash_table_add (set, (gpointer) name->text);
}

static void
collect_names (const WbValue *v, GHashTable *set)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (set, (gpointer) v->text);
  for (guint i = 0; i < v->n_items; i++)
    collect_names (v->items[i], set);
  for (guint i = 0; i < v->n_kwargs; i++)
    collect_names (v->kwargs[i].value, set);
  if (v->base != NULL)
    collect_names (v->base, set);
}

static GHashTable *
arg_names (const WbBsym *b)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < b->n_args; i++)
    collect_names (b->args[i], set);
  for (guint i = 0; i < b->n_kwargs; i++)
    collect_names (b->kwargs[i].value, set);
  return set;
}

static guint64
bytes_of (const WbCostModel *costs, const char *name)
{
  WbType t;

  if (!wb_cost_model_lookup_type (costs, name, &t) || (t.kind != WB_TYPE_TENSOR && t.kind != WB_TYPE_FUTURE_TENSOR))
    return 0;
  return (guint64) wb_type_nbytes (&t);
}

typedef struct
{
  GHashTable *view_of;  /* view output -> its source (views of the region) */
  GHashTable *group_of; /* name -> GUINT_TO_POINTER (group + 1) of the op defining it */
  GHashTable *needed;   /* name -> a set of groups + 1 that read it (GUINT_TO_POINTER (G_MAXUINT): outside the region) */
} Flow;

static const char *
root_of (const Flow *f, const char *name)
{
  const char *src;

  for (guint hops = 0; hops < 64 && (src = g_hash_table_lookup (f->view_of, name)) != NULL; hops++)
    name = src;
  return name;
}

/* Whether something outside group @g reads @name or a view of it. */
static gboolean
read_outside (const Flow *f, const char *name, guint g)
{
  GHashTable    *readers = g_hash_table_lookup (f->needed, name);
  GHashTableIter it;
  gpointer       key;

  if (readers == NULL)
    return FALSE;
  g_hash_table_iter_init (&it, readers);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (GPOINTER_TO_UINT (key) != g + 1)
      return TRUE;
  return FALSE;
}

static void
mark_needed (Flow *f, const char *name, guint reader)
{
  GHashTable *readers;

  for (guint hops = 0; name != NULL && hops < 64; hops++)
    {
      if ((readers = g_hash_table_lookup (f->needed, name)) == NULL)
        g_hash_table_insert (f->needed, (gpointer) name, readers = g_hash_table_new (g_direct_hash, g_direct_equal));
      g_hash_table_add (readers, GUINT_TO_POINTER (reader));
      name = g_hash_table_lookup (f->view_of, name);
    }
}

/* The dataflow of @region's ops over their groups (@group_of_op): views, which group defines and which groups read each name. */
static void
flow_init (Flow *f, const WbBsym *region, const guint *group_of_op)
{
  g_autoptr (GHashTable) outs = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer       key;

  f->view_of = g_hash_table_new (g_str_hash, g_str_equal);
  f->group_of = g_hash_table_new (g_str_hash, g_str_equal);
  f->needed = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  for (guint i = 0; i < region->n_subsymbols; i++)
    {
      const WbBsym *op = region->subsymbols[i];
      g_autoptr (GHashTable) defs = g_hash_table_new (g_str_hash, g_str_equal);

      wb_bsym_foreach_output (op, add_name_cb, defs);
      g_hash_table_iter_init (&it, defs);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          g_hash_table_insert (f->group_of, key, GUINT_TO_POINTER (group_of_op[i] + 1));
          if (op_is_view (op, TRUE) && op->n_args > 0 && op->args[0]->kind == WB_VALUE_NAME)
            g_hash_table_insert (f->view_of, key, (gpointer) op->args[0]->text);
        }
    }
  for (guint i = 0; i < region->n_subsymbols; i++)
    {
      const WbBsym *op = region->subsymbols[i];
      g_autoptr (GHashTable) args = NULL;

      if (op_is_view (op, TRUE))
        continue; /* a view reads nothing itself: its readers read its source */
      args = arg_names (op);
      g_hash_table_iter_init (&it, args);
      while (g_hash_table_iter_next (&it, &key, NULL))
        mark_needed (f, key, group_of_op[i] + 1);
    }
  wb_bsym_foreach_output (region, add_name_cb, outs);
  g_hash_table_iter_init (&it, outs);
  while (g_hash_table_iter_next (&it, &key, NULL))
    mark_needed (f, key, G_MAXUINT);
}

static void
flow_clear (Flow *f)
{
  g_hash_table_unref (f->view_of);
  g_hash_table_unref (f->group_of);
  g_hash_table_unref (f->needed);
}

/* Bytes op @i of group @g moves across the group's edge (wb-op-estimate.h). @readers: root name -> the number
 * of the group's ops that read it. */
static guint64
fused_bytes (const WbCostModel *costs, const Flow *f, const WbBsym *op, guint g, GHashTable *readers)
{
  g_autoptr (GHashTable) args = arg_names (op);
  g_autoptr (GHashTable) defs = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer       key;
  double         total = 0;

  g_hash_table_iter_init (&it, args);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      const char *root = root_of (f, key);
      guint       def = GPOINTER_TO_UINT (g_hash_table_lookup (f->group_of, root));
      guint64     b = bytes_of (costs, key), rb = bytes_of (costs, root);
      guint       n = GPOINTER_TO_UINT (g_hash_table_lookup (readers, root));

      if (def == g + 1) /* made in the group: in registers */
        continue;
      if (rb > 0 && (b == 0 || rb < b))
        b = rb;
      total += (double) b / MAX (n, 1);
    }
  wb_bsym_foreach_output (op, add_name_cb, defs);
  g_hash_table_iter_init (&it, defs);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (read_outside (f, key, g))
      total += (double) bytes_of (costs, key);
  return (guint64) (total + 0.5);
}

/* -- the split ---------------------------------------------------------------------------------------------- */

/* The median over iterations of @g's time with the groups merged into it. */
static double
group_kernel_ns (GArray *groups, guint g)
{
  const Group *x = &g_array_index (groups, Group, g);
  g_autoptr (GArray) sums = g_array_new (FALSE, TRUE, sizeof (gint64));

  if (x->iter_ns == NULL)
    return 0;
  g_array_set_size (sums, x->iter_ns->len);
  for (guint k = 0; k < groups->len; k++)
    {
      const Group *y = &g_array_index (groups, Group, k);
      if (k != g && y->merged_to != (int) g)
        continue;
      for (guint it = 0; it < sums->len && it < y->iter_ns->len; it++)
        g_array_index (sums, gint64, it) += g_array_index (y->iter_ns, gint64, it);
    }
  return (double) wb_times_median_ns ((const gint64 *) sums->data, sums->len);
}

/* Whole ns that add up to @total: each exact value rounded down, the rest handed out one ns at a time by largest
 * remainder (what floating point leaves beyond that goes to the largest estimate). */
static void
round_to_total (GPtrArray *made, const double *exact, gint64 total)
{
  g_autofree double *rest = g_new0 (double, MAX (made->len, 1));
  gint64             sum = 0;
  guint              big = 0;

  for (guint k = 0; k < made->len; k++)
    {
      WbOpEstimate *e = made->pdata[k];
      e->estimated_ns = (gint64) floor (MAX (exact[k], 0));
      rest[k] = MAX (exact[k], 0) - (double) e->estimated_ns;
      sum += e->estimated_ns;
    }
  for (guint given = 0; sum < total && given < made->len; given++, sum++)
    {
      guint best = 0;
      for (guint k = 1; k < made->len; k++)
        if (rest[k] > rest[best])
          best = k;
      ((WbOpEstimate *) made->pdata[best])->estimated_ns++;
      rest[best] = -1;
    }
  for (guint k = 1; k < made->len; k++)
    if (((WbOpEstimate *) made->pdata[k])->estimated_ns > ((WbOpEstimate *) made->pdata[big])->estimated_ns)
      big = k;
  if (made->len > 0 && sum != total)
    {
      WbOpEstimate *e = made->pdata[big];
      e->estimated_ns = MAX (e->estimated_ns + (total - sum), 0);
    }
  for (guint k = 0; k < made->len; k++)
    {
      WbOpEstimate *e = made->pdata[k];
      e->share = total > 0 ? (double) e->estimated_ns / (double) total : 0;
    }
}

static int
cmp_index (gconstpointer a, gconstpointer b)
{
  const WbOpEstimate *x = *(WbOpEstimate *const *) a;
  const WbOpEstimate *y = *(WbOpEstimate *const *) b;

  return x->index < y->index ? -1 : x->index > y->index;
}

typedef struct
{
  const WbTrace     *trace;
  const WbBsym      *region;
  const char        *entry;
  guint32            line_offset;
  const WbRun       *run;
  double             bytes_per_s, flops_per_s;
  gboolean           gpu;
  const WbCostModel *costs;
  GHashTable        *kernels; /* entry name -> its kernel records (GPtrArray, start order): a GPU run's */
} Ctx;

/* Appends the estimates of one region to @out. */
static void
estimate_region (const Ctx *c, const WbRegionStats *stats, GPtrArray *out)
{
  const WbBsym *region = c->region;
  guint         n = region->n_subsymbols;
  g_autoptr (GArray) groups = new_groups ();
  g_autofree guint  *group_of_op = g_new0 (guint, MAX (n, 1));
  g_autofree double *exact = g_new0 (double, MAX (n, 1));
  g_autofree double *group_ns = NULL;
  g_autoptr (GPtrArray) made = g_ptr_array_new ();
  gboolean by_kernels = FALSE;
  double   kernel_total = 0;
  guint32  first = c->trace->first_line > 0 ? c->trace->first_line : 1;
  Flow     flow;

  if (n == 0)
    return;
  if (c->gpu && !is_cpu_executor (stats->executor))
    by_kernels = split_groups (c->trace, region, g_hash_table_lookup (c->kernels, c->entry), groups);
  if (by_kernels)
    for (guint g = 0; g < groups->len; g++)
      if (g_array_index (groups, Group, g).merged_to < 0)
        kernel_total += group_kernel_ns (groups, g);
  if (!by_kernels || !(kernel_total > 0))
    {
      Group *g;

      by_kernels = FALSE;
      g_array_set_size (groups, 0);
      g = add_group (groups, c->gpu && !is_cpu_executor (stats->executor));
      for (guint i = 0; i < n; i++)
        g_array_append_val (g->ops, i);
    }
  /* merged groups hand their ops to the group whose time they share */
  for (guint g = 0; g < groups->len; g++)
    {
      Group *x = &g_array_index (groups, Group, g);
      if (x->merged_to >= 0)
        {
          g_array_append_vals (g_array_index (groups, Group, x->merged_to).ops, x->ops->data, x->ops->len);
          g_array_set_size (x->ops, 0);
        }
    }
  for (guint g = 0; g < groups->len; g++)
    for (guint k = 0; k < g_array_index (groups, Group, g).ops->len; k++)
      group_of_op[g_array_index (g_array_index (groups, Group, g).ops, guint, k)] = g;
  flow_init (&flow, region, group_of_op);

  group_ns = g_new0 (double, groups->len);
  for (guint g = 0; g < groups->len; g++)
    {
      Group *x = &g_array_index (groups, Group, g);
      g_autoptr (GHashTable) readers = g_hash_table_new (g_str_hash, g_str_equal);
      double sum = 0;
      guint  counted = 0;

      if (x->ops->len == 0)
        continue;
      group_ns[g] = by_kernels ? (double) stats->median_ns * group_kernel_ns (groups, g) / kernel_total : (double) stats->median_ns;
      for (guint k = 0; k < x->ops->len; k++)
        {
          const WbBsym *op = region->subsymbols[g_array_index (x->ops, guint, k)];
          g_autoptr (GHashTable) args = NULL;
          GHashTableIter it;
          gpointer       key;

          if (!x->fused || op_is_view (op, TRUE))
            continue;
          args = arg_names (op);
          g_hash_table_iter_init (&it, args);
          while (g_hash_table_iter_next (&it, &key, NULL))
            {
              const char *root = root_of (&flow, key);
              g_hash_table_insert (readers, (gpointer) root, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (readers, root)) + 1));
            }
        }
      for (guint k = 0; k < x->ops->len; k++)
        {
          guint         i = g_array_index (x->ops, guint, k);
          const WbBsym *op = region->subsymbols[i];
          WbOpEstimate *e = g_new0 (WbOpEstimate, 1);
          guint         line = wb_trace_get_bsym_line (c->trace, op);
          g_autoptr (GPtrArray) names = g_ptr_array_new ();

          e->region = g_strdup (c->entry);
          e->region_line = stats->stage_line;
          e->line = line >= first ? c->line_offset + (line - first + 1) : 0;
          e->index = i;
          e->symbol = g_strdup (op->name);
          wb_bsym_get_output_names (op, names);
          e->output = names->len > 0 ? g_strdup (names->pdata[0]) : NULL;
          e->fused = x->fused;
          e->group = g;
          e->basis = by_kernels ? WB_OP_ESTIMATE_KERNELS : WB_OP_ESTIMATE_REGION;
          e->bsym = op;
          if (op->kind == WB_BSYM_CALL && !op_is_view (op, x->fused))
            {
              wb_cost_model_count (c->costs, op, x->fused ? NULL : &e->bytes, &e->flops);
              if (x->fused)
                e->bytes = fused_bytes (c->costs, &flow, op, g, readers);
              e->roofline_ns = 1e9 * MAX ((double) e->bytes / c->bytes_per_s, (double) e->flops / c->flops_per_s);
              counted++;
            }
          sum += e->roofline_ns;
          g_ptr_array_add (made, e);
        }
      /* the group's time by roofline; without any counted work, evenly over its ops that are not views (all of
       * them when every one is a view) */
      for (guint k = made->len - x->ops->len; k < made->len; k++)
        {
          WbOpEstimate *e = made->pdata[k];
          gboolean      work = e->bsym != NULL && ((const WbBsym *) e->bsym)->kind == WB_BSYM_CALL && !op_is_view (e->bsym, x->fused);

          if (sum > 0)
            exact[k] = group_ns[g] * e->roofline_ns / sum;
          else if (counted > 0)
            exact[k] = work ? group_ns[g] / counted : 0;
          else
            exact[k] = group_ns[g] / x->ops->len;
        }
    }
  flow_clear (&flow);
  round_to_total (made, exact, stats->median_ns);
  /* in region order */
  g_ptr_array_sort (made, cmp_index);
  for (guint k = 0; k < made->len; k++)
    g_ptr_array_add (out, made->pdata[k]);
}

static gboolean
is_gpu (const WbRun *run)
{
  return run->device_name != NULL && g_str_has_prefix (run->device_name, "cuda");
}

GPtrArray *
wb_op_estimates_compute (WbTrace *const         *traces,
                         const guint32          *line_offsets,
                         guint                   n_traces,
                         const WbRun            *run,
                         const WbDeviceCeilings *ceilings)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_op_estimate_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) kernels = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
  gboolean gpu;
  double   gbps, tflops;

  g_return_val_if_fail (run != NULL, out);
  gpu = is_gpu (run);
  gbps = ceilings != NULL && ceilings->copy_gbps > 0 ? ceilings->copy_gbps : gpu ? WB_OP_ESTIMATE_GPU_GBPS
                                                                                 : WB_OP_ESTIMATE_CPU_GBPS;
  tflops = ceilings != NULL && ceilings->bf16_tflops > 0 ? ceilings->bf16_tflops : gpu ? WB_OP_ESTIMATE_GPU_TFLOPS
                                                                                       : WB_OP_ESTIMATE_CPU_TFLOPS;
  /* a GPU run's kernel records by the entry they are attributed to, in start order */
  for (guint k = 0; gpu && k < run->kernels->len; k++)
    {
      WbKernelRecord *r = run->kernels->pdata[k];
      GPtrArray      *list;

      if (r->region == NULL)
        continue;
      if ((list = g_hash_table_lookup (kernels, r->region)) == NULL)
        g_hash_table_insert (kernels, r->region, list = g_ptr_array_new ());
      g_ptr_array_add (list, r);
    }
  for (guint t = 0; t < n_traces; t++)
    {
      g_autoptr (WbCostModel) costs = NULL;
      WbTrace *trace = traces[t];

      if (trace == NULL)
        continue;
      for (guint i = 0; i < trace->n_body; i++)
        {
          const WbBsym        *b = trace->body[i];
          const WbRegionStats *stats;
          g_autofree char     *entry = NULL;
          guint                k;

          if (b->kind != WB_BSYM_CALL || b->name == NULL || wb_executor_info_is_utility (b))
            continue;
          /* the entry's name as wb-profile.h gives it */
          k = GPOINTER_TO_UINT (g_hash_table_lookup (seen, b->name)) + 1;
          g_hash_table_insert (seen, (gpointer) b->name, GUINT_TO_POINTER (k));
          entry = k == 1 ? g_strdup (b->name) : g_strdup_printf ("%s#%u", b->name, k);
          if (!wb_bsym_is_fusion (b) || (stats = wb_run_find_region (run, entry)) == NULL || stats->median_ns <= 0)
            continue;
          if (costs == NULL)
            costs = wb_cost_model_new (trace);
          {
            Ctx c = { trace, b, entry, line_offsets ? line_offsets[t] : 0, run, gbps * 1e9, tflops * 1e12, gpu, costs, kernels };
            estimate_region (&c, stats, out);
          }
        }
    }
  return out;
}

GHashTable *
wb_op_estimates_index (GPtrArray *estimates)
{
  GHashTable *index = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint i = 0; estimates != NULL && i < estimates->len; i++)
    {
      WbOpEstimate *e = estimates->pdata[i];
      if (e->bsym != NULL)
        g_hash_table_insert (index, (gpointer) e->bsym, e);
    }
  return index;
}
