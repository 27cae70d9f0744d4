/* wb-cuda-codegen-split.c — a fusion region with matmuls as fused runs between cuBLASLt calls (WbCudaSplit)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's torch.compile and nvFuser regions hold matmuls (ltorch.matmul, ltorch.linear) among
 * elementwise and reduction ops. The generator has no matmul, so such a region runs as steps: each
 * maximal run of fusible subsymbols is one plan (wb_cuda_plan_new), each matmul one cuBLASLt call. The
 * split is static, from the region's text alone, so the runtime (wb-cuda-exec-fusion.c) and
 * `export --region R --as cuda` see the same steps and the same plans. */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

gboolean
wb_cuda_codegen_outputs_named (const WbBsym *b)
{
  const WbValue *o = b->outputs;

  if (o == NULL)
    return FALSE;
  if (o->kind == WB_VALUE_NAME)
    return strcmp (o->text, "_") != 0;
  for (guint i = 0; i < o->n_items; i++)
    if (o->items[i]->kind != WB_VALUE_NAME || strcmp (o->items[i]->text, "_") == 0)
      return FALSE;
  return o->n_items > 0;
}

static gboolean
is_matmul_prim (const WbBsym *b)
{
  const WbSymbol *s = b->symbol, *like;
  const char     *name;

  if (s == NULL)
    return FALSE;
  if ((like = wb_symbol_get_like (s)) != NULL)
    s = like;
  if (wb_symbol_get_module (s) != WB_SYMBOL_MODULE_PRIMS)
    return FALSE;
  name = wb_symbol_get_name (s);
  return strcmp (name, "prims.matmul") == 0 || strcmp (name, "prims.linear") == 0;
}

const WbBsym *
wb_cuda_split_matmul_leaf (const WbBsym *unit)
{
  const WbBsym *u = unit;

  while (u != NULL && u->kind == WB_BSYM_CALL)
    {
      if (is_matmul_prim (u) && u->n_subsymbols == 0)
        return u;
      if (u->n_subsymbols != 1)
        return NULL;
      u = u->subsymbols[0];
    }
  return NULL;
}

static gboolean
fusible_unit (const WbBsym *u)
{
  return wb_cuda_codegen_can_fuse (u, NULL) && wb_cuda_codegen_outputs_named (u);
}

static void
add_name (const WbValue *name, gpointer set)
{
  g_hash_table_add (set, (gpointer) name->text);
}

static void
collect_uses (const WbValue *v, GHashTable *set)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME)
    g_hash_table_add (set, (gpointer) v->text);
  for (guint i = 0; i < v->n_items; i++)
    collect_uses (v->items[i], set);
  if (v->base)
    collect_uses (v->base, set);
}

static void
unit_uses (const WbBsym *u, GHashTable *set)
{
  for (guint i = 0; i < u->n_args; i++)
    collect_uses (u->args[i], set);
  for (guint i = 0; i < u->n_kwargs; i++)
    collect_uses (u->kwargs[i].value, set);
}

static int
cmp_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The fused step of @units[0..n): its inputs are the names it reads that @available holds (region inputs,
 * earlier steps' results), its outputs the names it defines that @later reads. */
static void
fused_step (WbCudaStep *st, const WbBsym *const *units, guint n, GHashTable *available, GHashTable *later)
{
  g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) ins = g_ptr_array_new ();
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  GHashTableIter it;
  gpointer       k;

  for (guint i = 0; i < n; i++)
    {
      unit_uses (units[i], used);
      wb_bsym_foreach_output (units[i], add_name, defined);
    }
  g_hash_table_iter_init (&it, used);
  while (g_hash_table_iter_next (&it, &k, NULL))
    if (!g_hash_table_contains (defined, k) && g_hash_table_contains (available, k))
      g_ptr_array_add (ins, k);
  g_ptr_array_sort (ins, cmp_names);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GPtrArray) o = g_ptr_array_new ();
      wb_bsym_get_output_names (units[i], o);
      for (guint j = 0; j < o->len; j++)
        if (g_hash_table_contains (later, o->pdata[j]))
          {
            g_ptr_array_add (outs, o->pdata[j]);
            g_hash_table_add (available, o->pdata[j]);
          }
    }
  st->kind = WB_CUDA_STEP_FUSED;
  st->units = units;
  st->n_units = n;
  st->n_inputs = ins->len;
  st->inputs = (const char **) g_memdup2 (ins->pdata, sizeof (gpointer) * MAX (ins->len, 1));
  st->n_outputs = outs->len;
  st->outputs = (const char **) g_memdup2 (outs->pdata, sizeof (gpointer) * MAX (outs->len, 1));
}

/* -- placing the fused units between the matmuls ---------------------------------------------- */

/* Thunder prints a region's ops in an order of its own, so a value is often computed before a matmul and
 * read only after the next one: then it is written to memory and read back, often in f32. The region's
 * order fixes only the matmuls; each fusible unit may run in any fused run ("slot") between the last
 * one that defines its operands and the first one that reads its outputs. A local search places each
 * unit in the slot of least memory traffic: every value read in a slot other than its own costs its
 * bytes once per such slot, plus one write. Region inputs and matmul results are read wherever they are
 * used. Units are moved one at a time while that lowers the traffic. */

#define SLOT_COST (G_GINT64_CONSTANT (8) << 20)

typedef struct
{
  int      producer; /* unit index, or -1 for a region input */
  gint64   bytes;    /* -1: unknown (see value_bytes) */
  gboolean region_output;
} ValueInfo;

typedef struct
{
  int        matmul; /* >= 0: the index of the matmul this unit is; else -1 */
  gboolean   movable;
  gboolean   is_view; /* reshapes, transposes, squeezes only: its outputs are views, it reads and writes nothing */
  int        slot;    /* fusible units: 0..n_matmuls */
  GPtrArray *uses;    /* names read (no duplicates) */
  GPtrArray *defs;    /* names defined */
  gint64     out_bytes;
} SchedUnit;

typedef struct
{
  SchedUnit  *units;
  guint       n;
  int         n_matmuls;
  GHashTable *values;  /* name -> ValueInfo* */
  GHashTable *readers; /* name -> GArray of the indices of the units that read it, ascending */
} Sched;

static gint64
type_bytes (const WbType *t)
{
  gint64 n = 1;

  if (t == NULL || t->kind != WB_TYPE_TENSOR)
    return -1;
  for (guint d = 0; d < t->rank; d++)
    n *= t->shape[d];
  return n * (gint64) wb_dtype_size (t->dtype);
}

/* The bytes of @name read by unit @reader: its type when known, else about the reader's output. */
static gint64
value_bytes (Sched *sc, const char *name, const SchedUnit *reader)
{
  ValueInfo *vi = g_hash_table_lookup (sc->values, name);

  if (vi != NULL && vi->bytes >= 0)
    return vi->bytes;
  return MAX (reader->out_bytes, 0);
}

/* Slot in which unit @i's value becomes readable: a fusible unit's own slot, after matmul j: j + 1. */
static int
ready_slot (Sched *sc, int i)
{
  if (i < 0)
    return 0;
  return sc->units[i].matmul >= 0 ? sc->units[i].matmul + 1 : sc->units[i].slot;
}

static gint64
traffic (Sched *sc)
{
  gint64 total = 0;
  g_autoptr (GHashTable) reads = g_hash_table_new (g_str_hash, g_str_equal); /* name -> slot mask read from other slots */

  for (guint i = 0; i < sc->n; i++)
    {
      const SchedUnit *u = &sc->units[i];
      if (u->is_view)
        continue;
      for (guint k = 0; k < u->uses->len; k++)
        {
          const char *name = u->uses->pdata[k];
          ValueInfo  *vi = g_hash_table_lookup (sc->values, name);
          int         at = u->matmul >= 0 ? -1 : u->slot;
          guint64     mask;
          if (vi == NULL)
            continue;
          if (u->matmul >= 0)
            {
              /* a matmul reads its operands from memory: they must be written once */
              if (vi->producer >= 0 && sc->units[vi->producer].matmul < 0)
                g_hash_table_insert (reads, (gpointer) name,
                                     GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (reads, name)) | ((guint64) 1 << 63)));
              continue;
            }
          if (vi->producer >= 0 && sc->units[vi->producer].matmul < 0 && sc->units[vi->producer].slot == at)
            continue; /* fused: no traffic */
          mask = GPOINTER_TO_SIZE (g_hash_table_lookup (reads, name));
          if (!(mask & ((guint64) 1 << at)))
            {
              total += value_bytes (sc, name, u);
              g_hash_table_insert (reads, (gpointer) name, GSIZE_TO_POINTER (mask | ((guint64) 1 << at)));
            }
        }
    }
  {
    GHashTableIter it;
    gpointer       k, v;
    g_hash_table_iter_init (&it, sc->values);
    while (g_hash_table_iter_next (&it, &k, &v))
      {
        ValueInfo *vi = v;
        if (vi->producer < 0 || sc->units[vi->producer].matmul >= 0 || sc->units[vi->producer].is_view)
          continue;
        if (vi->region_output || g_hash_table_contains (reads, k))
          total += MAX (vi->bytes, 0); /* written once */
      }
  }
  /* each fused run is at least one more launch: about the time of this traffic (~2 us at 4 TB/s) */
  {
    guint64 used = 0;
    for (guint i = 0; i < sc->n; i++)
      if (sc->units[i].matmul < 0 && !sc->units[i].is_view)
        used |= (guint64) 1 << sc->units[i].slot;
    total += (gint64) __builtin_popcountll (used) * SLOT_COST;
  }
  return total;
}

static void
group_add (GArray *group, guint unit)
{
  for (guint j = 0; j < group->len; j++)
    if (g_array_index (group, guint, j) == unit)
      return;
  g_array_append_val (group, unit);
}

/* The units that must move with unit @i to slot @s: earlier, the producers it reads that would not be ready
 * yet; later, the consumers that would read it too early. FALSE when one of them cannot move (a matmul, a
 * unit that is not movable). @group: unit indices, @i first. */
static gboolean
sched_group (Sched *sc, guint i, int s, GArray *group)
{
  int   home = sc->units[i].slot;
  guint gi = i;

  g_array_set_size (group, 0);
  g_array_append_val (group, gi);
  for (guint at = 0; at < group->len; at++)
    {
      const SchedUnit *m = &sc->units[g_array_index (group, guint, at)];
      if (s < home)
        for (guint k = 0; k < m->uses->len; k++)
          {
            ValueInfo *vi = g_hash_table_lookup (sc->values, m->uses->pdata[k]);
            guint      p;
            if (vi == NULL || vi->producer < 0 || ready_slot (sc, vi->producer) <= s)
              continue;
            p = (guint) vi->producer;
            if (sc->units[p].matmul >= 0 || !sc->units[p].movable)
              return FALSE;
            group_add (group, p);
          }
      else
        /* the readers of what it defines, through the index: a scan of every unit's reads for every definition
         * made a region's schedule cubic (seconds of host time on llama_32layer's regions) */
        for (guint k = 0; k < m->defs->len; k++)
          {
            GArray *rs = g_hash_table_lookup (sc->readers, m->defs->pdata[k]);
            for (guint r = 0; rs != NULL && r < rs->len; r++)
              {
                guint            w = g_array_index (rs, guint, r);
                const SchedUnit *c = &sc->units[w];
                int              at_slot = c->matmul >= 0 ? c->matmul : c->slot;
                if (at_slot >= s)
                  continue;
                if (c->matmul >= 0 || !c->movable)
                  return FALSE;
                group_add (group, w);
              }
          }
      if (group->len > 64)
        return FALSE;
    }
  return TRUE;
}

/* Moves units, each with the units that must move with it (sched_group), to the slot of least traffic while
 * that lowers it: a value computed before a matmul and read after it in f32 (gpt2_block's layer-norm
 * gradient t401, read by an add whose bf16 result feeds a later matmul) moves with its readers, which one
 * at a time could not move without first raising the traffic. */
static void
sched_place (Sched *sc)
{
  gint64 best = traffic (sc);
  g_autoptr (GArray) group = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree int *saved = g_new (int, MAX (sc->n, 1));

  for (int pass = 0; pass < 6; pass++)
    {
      gboolean moved = FALSE;
      for (guint i = 0; i < sc->n; i++)
        {
          SchedUnit *u = &sc->units[i];
          int        home = u->slot, to = home;
          if (!u->movable)
            continue;
          for (guint j = 0; j < sc->n; j++)
            saved[j] = sc->units[j].slot;
          for (int s = 0; s <= sc->n_matmuls; s++)
            {
              gint64 t;
              if (s == home || !sched_group (sc, i, s, group))
                continue;
              for (guint j = 0; j < group->len; j++)
                sc->units[g_array_index (group, guint, j)].slot = s;
              t = traffic (sc);
              if (t < best)
                {
                  best = t, to = s;
                  g_array_set_size (chosen, 0);
                  g_array_append_vals (chosen, group->data, group->len);
                }
              for (guint j = 0; j < sc->n; j++)
                sc->units[j].slot = saved[j];
            }
          if (to != home)
            {
              for (guint j = 0; j < chosen->len; j++)
                sc->units[g_array_index (chosen, guint, j)].slot = to;
              moved = TRUE;
            }
        }
      if (!moved)
        break;
    }
}

static gboolean
contains_copy (const WbBsym *b, int depth)
{
  if (b->name != NULL && strstr (b->name, "copy_") != NULL)
    return TRUE;
  for (guint i = 0; depth < 16 && i < b->n_subsymbols; i++)
    if (contains_copy (b->subsymbols[i], depth + 1))
      return TRUE;
  return FALSE;
}

/* Whether every leaf of @b is a reshape, transpose or squeeze (the step's output is then a view). */
static gboolean
only_views (const WbBsym *b, int depth)
{
  static const char *const views[] = { "prims.reshape", "prims.transpose", "prims.squeeze", "prims.shallow_copy", NULL };
  const WbSymbol          *s = b->symbol;

  if (b->n_subsymbols > 0)
    {
      for (guint i = 0; i < b->n_subsymbols; i++)
        if (depth >= 16 || !only_views (b->subsymbols[i], depth + 1))
          return FALSE;
      return TRUE;
    }
  if (s == NULL)
    return FALSE;
  if (wb_symbol_get_like (s) != NULL)
    s = wb_symbol_get_like (s);
  for (guint i = 0; views[i]; i++)
    if (strcmp (wb_symbol_get_name (s), views[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
add_unique (const WbValue *name, gpointer arr)
{
  if (!g_ptr_array_find_with_equal_func (arr, name->text, g_str_equal, NULL))
    g_ptr_array_add (arr, (gpointer) name->text);
}

static void
uses_into (const WbValue *v, GPtrArray *arr)
{
  if (v == NULL)
    return;
  if (v->kind == WB_VALUE_NAME && !g_ptr_array_find_with_equal_func (arr, v->text, g_str_equal, NULL))
    g_ptr_array_add (arr, (gpointer) v->text);
  for (guint i = 0; i < v->n_items; i++)
    uses_into (v->items[i], arr);
  if (v->base)
    uses_into (v->base, arr);
}

/* Places the fusible ones of @units as above: @slots[i] is -1 for a matmul, else the slot (0..number of
 * matmuls) of unit i, on entry the region's order. @outs: the region's output names. */
static void
schedule (const WbBsym *region, GPtrArray *units, GPtrArray *outs, int *slots, gboolean reschedule)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  Sched sc = { 0 };
  int   m = 0;

  _wb_cg_collect_types ((const WbBsym *const *) region->subsymbols, region->n_subsymbols, types, owned);
  sc.n = units->len;
  sc.units = g_new0 (SchedUnit, MAX (sc.n, 1));
  sc.values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  for (guint i = 0; i < region->n_args; i++)
    if (region->args[i]->kind == WB_VALUE_NAME)
      {
        ValueInfo *vi = g_new0 (ValueInfo, 1);
        vi->producer = -1;
        vi->bytes = type_bytes (g_hash_table_lookup (types, region->args[i]->text));
        g_hash_table_replace (sc.values, (gpointer) region->args[i]->text, vi);
      }
  for (guint i = 0; i < sc.n; i++)
    {
      SchedUnit    *u = &sc.units[i];
      const WbBsym *b = units->pdata[i];
      u->uses = g_ptr_array_new ();
      u->defs = g_ptr_array_new ();
      for (guint k = 0; k < b->n_args; k++)
        uses_into (b->args[k], u->uses);
      for (guint k = 0; k < b->n_kwargs; k++)
        uses_into (b->kwargs[k].value, u->uses);
      wb_bsym_foreach_output (b, add_unique, u->defs);
      u->matmul = slots[i] < 0 ? m++ : -1;
      u->slot = slots[i];
      u->movable = u->matmul < 0 && !contains_copy (b, 0);
      u->is_view = u->matmul < 0 && only_views (b, 0);
      u->out_bytes = 0;
      for (guint k = 0; k < u->defs->len; k++)
        {
          ValueInfo *vi = g_new0 (ValueInfo, 1);
          vi->producer = (int) i;
          vi->bytes = type_bytes (g_hash_table_lookup (types, u->defs->pdata[k]));
          u->out_bytes = MAX (u->out_bytes, vi->bytes);
          g_hash_table_replace (sc.values, u->defs->pdata[k], vi);
        }
    }
  sc.n_matmuls = m;
  sc.readers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < sc.n; i++)
    for (guint k = 0; k < sc.units[i].uses->len; k++)
      {
        GArray *rs = g_hash_table_lookup (sc.readers, sc.units[i].uses->pdata[k]);
        if (rs == NULL)
          g_hash_table_insert (sc.readers, sc.units[i].uses->pdata[k], (rs = g_array_new (FALSE, FALSE, sizeof (guint))));
        g_array_append_val (rs, i);
      }
  for (guint i = 0; i < outs->len; i++)
    {
      ValueInfo *vi = g_hash_table_lookup (sc.values, outs->pdata[i]);
      if (vi != NULL)
        vi->region_output = TRUE;
    }
  if (reschedule && m > 0 && m < 63)
    sched_place (&sc);
  for (guint i = 0; i < sc.n; i++)
    {
      slots[i] = sc.units[i].slot;
      g_ptr_array_unref (sc.units[i].uses);
      g_ptr_array_unref (sc.units[i].defs);
    }
  g_free (sc.units);
  g_hash_table_unref (sc.values);
  g_hash_table_unref (sc.readers);
}

WbCudaSplit *
wb_cuda_split_new (const WbBsym *region, GError **error)
{
  WbCudaCodegenOptions o;

  wb_cuda_codegen_options_init_from_env (&o, WB_CUDA_CODEGEN_DEFAULT);
  return wb_cuda_split_new_with_options (region, &o, error);
}

WbCudaSplit *
wb_cuda_split_new_with_options (const WbBsym *region, const WbCudaCodegenOptions *options, GError **error)
{
  g_autoptr (GHashTable) available = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) outs = g_ptr_array_new ();
  g_autoptr (GPtrArray) units = g_ptr_array_new ();
  g_autoptr (GPtrArray) matmuls = g_ptr_array_new (); /* the matmul leaves, in the region's order */
  g_autofree int *slots = NULL;
  GArray         *steps;
  GPtrArray      *ordered;
  WbCudaSplit    *split;

  g_return_val_if_fail (region != NULL, NULL);
  if (!wb_bsym_is_fusion (region) || !wb_cuda_codegen_outputs_named (region))
    {
      g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s is not a fusion region with named outputs",
                   region->name);
      return NULL;
    }
  for (guint i = 0; i < region->n_subsymbols; i++)
    if (region->subsymbols[i]->kind == WB_BSYM_CALL)
      g_ptr_array_add (units, region->subsymbols[i]);
  slots = g_new0 (int, MAX (units->len, 1));
  for (guint i = 0; i < units->len; i++)
    {
      const WbBsym *u = units->pdata[i], *leaf;
      char         *why = NULL;
      if (fusible_unit (u))
        {
          slots[i] = (int) matmuls->len; /* the region's order: after the matmuls before it */
          continue;
        }
      if ((leaf = wb_cuda_split_matmul_leaf (u)) == NULL || leaf->outputs == NULL || leaf->outputs->kind != WB_VALUE_NAME)
        {
          wb_cuda_codegen_can_fuse (u, &why);
          g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: %s: %s", region->name, u->name,
                       why ? why : "its outputs are not plain names");
          g_free (why);
          return NULL;
        }
      for (guint k = 0; k < leaf->n_args; k++)
        if (leaf->args[k]->kind != WB_VALUE_NAME && leaf->args[k]->kind != WB_VALUE_NONE)
          {
            g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: %s: operand %u is not a name",
                         region->name, leaf->name, k);
            return NULL;
          }
      if (leaf->n_kwargs > 0)
        {
          g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "%s: %s: keyword arguments", region->name,
                       leaf->name);
          return NULL;
        }
      slots[i] = -1;
      g_ptr_array_add (matmuls, (gpointer) leaf);
    }
  if (matmuls->len == 0)
    {
      g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s has no matmul to split around", region->name);
      return NULL;
    }

  for (guint i = 0; i < region->n_args; i++)
    if (region->args[i]->kind == WB_VALUE_NAME)
      g_hash_table_add (available, (gpointer) region->args[i]->text);
  wb_bsym_get_output_names (region, outs);
  schedule (region, units, outs, slots, !options->no_reschedule);
  steps = g_array_new (FALSE, TRUE, sizeof (WbCudaStep));
  ordered = g_ptr_array_new ();
  for (guint s = 0; s <= matmuls->len; s++)
    {
      guint first = ordered->len;
      for (guint i = 0; i < units->len; i++)
        if (slots[i] == (int) s)
          g_ptr_array_add (ordered, units->pdata[i]);
      if (ordered->len > first)
        {
          /* names the run defines that later runs, later matmuls or the region's outputs read */
          g_autoptr (GHashTable) later = g_hash_table_new (g_str_hash, g_str_equal);
          WbCudaStep st = { 0 };
          for (guint i = 0; i < units->len; i++)
            if (slots[i] > (int) s)
              unit_uses (units->pdata[i], later);
          for (guint j = s; j < matmuls->len; j++)
            unit_uses (matmuls->pdata[j], later);
          for (guint j = 0; j < outs->len; j++)
            g_hash_table_add (later, outs->pdata[j]);
          fused_step (&st, (const WbBsym *const *) ordered->pdata + first, ordered->len - first, available, later);
          st.units = GUINT_TO_POINTER (first); /* an index into @ordered until it stops growing */
          g_array_append_val (steps, st);
        }
      if (s < matmuls->len)
        {
          const WbBsym *leaf = matmuls->pdata[s];
          WbCudaStep    st = { 0 };
          st.kind = WB_CUDA_STEP_MATMUL;
          st.matmul = leaf;
          g_array_append_val (steps, st);
          g_hash_table_add (available, (gpointer) leaf->outputs->text);
        }
    }
  for (guint i = 0; i < steps->len; i++)
    {
      WbCudaStep *st = &g_array_index (steps, WbCudaStep, i);
      if (st->kind == WB_CUDA_STEP_FUSED)
        st->units = (const WbBsym *const *) ordered->pdata + GPOINTER_TO_UINT (st->units);
    }
  split = g_new0 (WbCudaSplit, 1);
  split->region = region;
  split->n_steps = steps->len;
  split->steps = (WbCudaStep *) g_array_free (steps, FALSE);
  split->ordered = ordered;
  return split;
}

void
wb_cuda_split_free (WbCudaSplit *split)
{
  if (split == NULL)
    return;
  for (guint i = 0; i < split->n_steps; i++)
    {
      g_free (split->steps[i].inputs);
      g_free (split->steps[i].outputs);
    }
  g_free (split->steps);
  g_ptr_array_unref (split->ordered);
  g_free (split);
}

GPtrArray *
wb_cuda_split_plans_annotated (const WbTrace *trace, const WbCudaSplit *split, GError **error)
{
  WbCudaCodegenOptions o;

  wb_cuda_codegen_options_init_from_env (&o, WB_CUDA_CODEGEN_DEFAULT);
  return wb_cuda_split_plans_annotated_with_options (trace, split, &o, error);
}

GPtrArray *
wb_cuda_split_plans_annotated_with_options (const WbTrace *trace, const WbCudaSplit *split, const WbCudaCodegenOptions *options, GError **error)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) plans = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_cuda_plan_free);

  g_return_val_if_fail (trace != NULL && split != NULL, NULL);
  _wb_cg_collect_types ((const WbBsym *const *) trace->body, trace->n_body, types, owned);
  for (guint s = 0; s < split->n_steps; s++)
    {
      const WbCudaStep     *st = &split->steps[s];
      g_autofree WbCudaArg *args = NULL;
      WbCudaPlan           *plan;
      if (st->kind != WB_CUDA_STEP_FUSED)
        {
          g_ptr_array_add (plans, NULL);
          continue;
        }
      args = g_new0 (WbCudaArg, MAX (st->n_inputs, 1));
      for (guint i = 0; i < st->n_inputs; i++)
        {
          const WbType *t = g_hash_table_lookup (types, st->inputs[i]);
          if (t == NULL)
            {
              g_set_error (error, WB_CUDA_CODEGEN_ERROR, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "%s: %s has no type annotation in the trace",
                           split->region->name, st->inputs[i]);
              return NULL;
            }
          wb_cuda_arg_init_contiguous (&args[i], t);
        }
      plan = wb_cuda_plan_new_with_options (st->units, st->n_units, st->inputs, args, st->n_inputs, st->outputs, st->n_outputs, options, error);
      if (plan == NULL)
        return NULL;
      g_ptr_array_add (plans, plan);
    }
  return g_steal_pointer (&plans);
}
