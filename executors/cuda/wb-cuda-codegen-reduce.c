/* wb-cuda-codegen-reduce.c — a set of sibling reductions as one kernel: the row kernel, or one thread per output
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The top of the reductions' files: it assembles a set's kernel from the building blocks of
 * wb-cuda-codegen-accum.c and the work the kernel takes (-epilogue.c: the pointwise work after the rows; -mix.c: a
 * column set summed in the same walk), and hands column sets to the column kernel (-column.c); none of those
 * calls back here.
 *
 * A reduction of the innermost dim is a group of T threads per output (shuffles, or shared memory past a
 * warp); others one thread per output, or the column kernel for long columns (wb-cuda-codegen-column.c). Row
 * reductions whose innermost reduced extent is a multiple of the vector width V (wb-cuda-codegen-
 * pointwise.c) get a kernel in which each thread takes V consecutive elements per step and adds them in
 * order: one vector load per operand and step when the pointers are aligned, else the same elements in
 * the same order one by one (results do not depend on the alignment). T is then the power of two about
 * the row / V, or one warp when a warp covers the row in a few steps (no barrier). */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

static gboolean
reduction_loop (Kern *k, const Acc *accs, guint n_acc, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, int T, Cls c, const char *sq_mean, GError **error)
{
  const char *end = _wb_cg_gstr (k->g, "%" G_GINT64_FORMAT, _wb_cg_numel_of (n_red, red_shape));

  return _wb_cg_reduction_loop_range (k, accs, n_acc, red, kept_shape, n_kept, red_shape, n_red, T == 1 ? "0" : "lane", end, T, c, sq_mean, error);
}

/* The loop of reduction_loop in lane order: each of the T threads of a group takes @V consecutive
 * elements of the reduced space at a time (the innermost reduced extent is a multiple of V) and
 * accumulates them in order. The body is emitted once per lane: with k->vec = V its loads are vectors
 * where they can be (wb-cuda-codegen-pointwise.c), with k->vec = 0 element by element (the fallback of
 * misaligned pointers), in the same order, so both give the same result. */
static gboolean
reduction_loop_lanes (Kern *k, const Acc *accs, guint n_acc, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, int T, guint V, gint64 steps, Cls c, const char *sq_mean, GError **error)
{
  Val *a = accs[0].a;
  Idx  kx, rx;
  int  u = -1;

  for (guint d = 0; d < n_red; d++)
    if (red_shape[d] != 1)
      u = (int) d;
  _wb_cg_open_row_lanes (k, n_kept, kept_shape, n_red, red_shape, T, V, steps, &kx);
  _wb_cg_idx_unravel (k, "r0", n_red, red_shape, &rx);
  for (k->lane = 0; k->lane < V; k->lane++)
    {
      Idx   rj = rx, ax = { 0 };
      guint ki = 0, ri = 0;
      _wb_cg_idx_lane_unit (k, &rj, u, "r0");
      ax.rank = a->rank;
      for (guint d = 0; d < a->rank; d++)
        _wb_cg_idx_dim (&ax, d, red[d] ? &rj : &kx, red[d] ? ri++ : ki++);
      if (n_kept == 0 || _wb_cg_numel_of (n_kept, kept_shape) == 1)
        _wb_cg_idx_lin (&ax, &rj); /* everything reduced: r walks a in order */
      if (!_wb_cg_accumulate (k, accs, n_acc, &ax, c, sq_mean, error))
        {
          k->lane = 0;
          return FALSE;
        }
    }
  k->lane = 0;
  /* the row's elements of the inputs only the epilogue reads, to L1 while this row's loads are in flight:
   * the epilogue's loads come after its stores of the step before, so each step waited for DRAM (prefetching
   * to L2 instead does as well). WB_CUDA_NO_PREFETCH=1 leaves it out. */
  for (guint i = 0; sq_mean == NULL && k->prefetch != NULL && i < k->prefetch->len; i++)
    {
      guint slot = g_array_index (k->prefetch, guint, i);
      _wb_cg_line (k, "asm volatile (\"prefetch.global.L1 [%%0];\" ::\"l\"(%s + (o * %" G_GINT64_FORMAT " + r0)));", _wb_cg_param (k, slot),
                   _wb_cg_numel_of (n_red, red_shape));
    }
  _wb_cg_close_row_lanes (k);
  return TRUE;
}

/* A row reduction (or sibling reductions): what its kernel body needs. */
typedef struct
{
  Node *const        *nodes;
  guint               nn;
  Acc                *accs;
  gboolean            red[WB_MAX_RANK];
  gint64              kept_shape[WB_MAX_RANK], red_shape[WB_MAX_RANK];
  guint               n_kept, n_red;
  gint64              NO, K;
  Cls                 c;
  const char         *ctype;
  gboolean            is_var;
  double              correction;
  const WbCgEpilogue *epi;
  const WbCgMix      *mix;    /* a column set computed here too (vector variants only) */
  const guint        *eslots; /* the epilogue's output slots, their buffers hidden for the whole kernel */
} Row;

static gboolean
row_loop (Kern *k, const Row *R, const Acc *accs, int T, guint V, const char *sq_mean, GError **error)
{
  guint n = sq_mean ? 1 : R->nn;

  if (V > 1)
    /* a block that walks many rows (the mixed kernel) unrolls the row's steps: all its loads in flight
     * at once (the loop kept one step's, and a warp waited for memory once per step); row kernels of one
     * row a group keep the loop, which needs fewer registers */
    return reduction_loop_lanes (k, accs, n, R->red, R->kept_shape, R->n_kept, R->red_shape, R->n_red, T, V, R->mix != NULL ? R->mix->steps : 0, R->c, sq_mean, error);
  return reduction_loop (k, accs, n, R->red, R->kept_shape, R->n_kept, R->red_shape, R->n_red, T, R->c, sq_mean, error);
}

/* The results of the row's reductions as variables of their dtypes, for the epilogue (k->resident) */
static void
resident_results (Kern *k, const Row *R)
{
  k->resident = g_hash_table_new (NULL, NULL);
  for (guint j = 0; j < R->nn; j++)
    for (guint i = 0; i < R->nodes[j]->n_out; i++)
      {
        Val *out = R->nodes[j]->out[i];
        g_hash_table_insert (k->resident, out, (gpointer) _wb_cg_new_var (k, _wb_cg_cls_ctype (_wb_cg_dtype_cls (out->dtype)), _wb_cg_result_expr (k->g, out, R->c, R->is_var ? (i == 0 ? "var" : "mean") : R->accs[j].acc)));
      }
}

static void
rows_layout (const Row *R, int T, guint V, WbCgRows *rows)
{
  memset (rows, 0, sizeof *rows);
  rows->red = R->red;
  rows->kept_shape = R->kept_shape;
  rows->n_kept = R->n_kept;
  rows->red_shape = R->red_shape;
  rows->n_red = R->n_red;
  rows->K = R->K;
  rows->T = T;
  rows->V = V;
  rows->a = R->accs[0].a;
  rows->mix = R->mix;
}

/* A mixed kernel's row whose sums can wait (WbCgMix.defer): the element walk takes the row sums beside the
 * column sums and the element outputs; each warp's part of them is parked in wb_mrow at the row's turn wb_it. */
static gboolean
deferred_row (Kern *k, const Row *R, int T, guint V, GError **error)
{
  const WbCgMix *m = R->mix;
  WbCgRows       rows;

  rows_layout (R, T, V, &rows);
  rows.accs = R->accs;
  rows.n_accs = R->nn;
  rows.c = R->c;
  if (!_wb_cg_emit_epilogue (k, R->epi, &rows, R->eslots, error))
    return FALSE;
  _wb_cg_line (k, "const int wb_it = (int) ((ob - (%s) blockIdx.x) / (%s) gridDim.x);", k->ity, k->ity);
  for (guint j = 0; j < R->nn; j++)
    _wb_cg_group_reduce (k, R->accs[j].acc, R->ctype, R->accs[j].op, R->c, 32);
  _wb_cg_line (k, "if (ok && (threadIdx.x & 31u) == 0)");
  _wb_cg_line (k, "{");
  for (guint j = 0; j < R->nn; j++)
    _wb_cg_line (k, "  wb_mrow[(%u * %" G_GINT64_FORMAT " + wb_it) * %d + threadIdx.x / 32] = %s;", j, m->rows_per_block, T / 32, R->accs[j].acc);
  _wb_cg_line (k, "}");
  return TRUE;
}

/* After the walk: each of the block's rows adds its warps' parts in warp order (the order of _wb_cg_group_reduce, so the
 * sums are those of the row kernel alone), stores the results and computes the kept-shape outputs. */
static gboolean
deferred_rows_finish (Kern *k, const Row *R, int T, GError **error)
{
  const WbCgMix *m = R->mix;
  const char    *ity = k->ity;
  gboolean       done;

  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "for (int wb_i = (int) threadIdx.x; wb_i < %" G_GINT64_FORMAT "; wb_i += %d)", m->rows_per_block, WB_CUDA_BLOCK);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const %s o = (%s) blockIdx.x + (%s) wb_i * (%s) gridDim.x;", ity, ity, ity, ity);
  _wb_cg_line (k, "if (o < %" G_GINT64_FORMAT ")", R->NO);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  for (guint j = 0; j < R->nn; j++)
    {
      const char *part = _wb_cg_gstr (k->g, "wb_mrow[(%u * %" G_GINT64_FORMAT " + wb_i) * %d", j, m->rows_per_block, T / 32);
      _wb_cg_line (k, "%s %s = %s];", R->ctype, R->accs[j].acc, part);
      _wb_cg_line (k, "for (int w = 1; w < %d; w++)", T / 32);
      _wb_cg_line (k, "  %s = %s;", R->accs[j].acc, _wb_cg_combine_expr (k->g, R->accs[j].op, R->c, R->accs[j].acc, _wb_cg_gstr (k->g, "%s + w]", part)));
      _wb_cg_line (k, "{");
      for (guint i = 0; i < R->nodes[j]->n_out; i++)
        _wb_cg_store_result (k, R->nodes[j]->out[i], R->c, R->accs[j].acc, "o");
      _wb_cg_line (k, "}");
    }
  resident_results (k, R);
  done = _wb_cg_emit_kept_values (k, R->epi->rows, "o", NULL, R->eslots, error);
  g_clear_pointer (&k->resident, g_hash_table_unref);
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return done;
}

/* The body of a reduction kernel: groups of @T threads per output; @V > 1: the loops in lane order. */
static gboolean
row_body (Kern *k, const Row *R, int T, guint V, GError **error)
{
  const char *ity = k->ity, *ctype = R->ctype;
  Cls         c = R->c;

  _wb_cg_line (k, "const int T = %d, OPB = %d;", T, WB_CUDA_BLOCK / T);
  _wb_cg_line (k, "const int lane = threadIdx.x %% T;");
  _wb_cg_line (k, "(void) lane;");
  if (R->mix != NULL)
    _wb_cg_mix_declare (k, R->mix);
  _wb_cg_line (k, "for (%s ob = (%s) blockIdx.x * OPB; ob < %" G_GINT64_FORMAT "; ob += (%s) gridDim.x * OPB)", ity, ity, R->NO, ity);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const %s o = ob + (%s) (threadIdx.x / T);", ity, ity);
  _wb_cg_line (k, "const bool ok = o < %" G_GINT64_FORMAT ";", R->NO);
  for (guint j = 0; j < R->nn; j++)
    _wb_cg_line (k, "%s %s = %s;", ctype, R->accs[j].acc, R->is_var ? _wb_cg_init_expr ("sum", c) : _wb_cg_init_expr (R->nodes[j]->op, c));
  if (R->mix != NULL && R->mix->defer)
    {
      if (!deferred_row (k, R, T, V, error))
        return FALSE;
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
      return deferred_rows_finish (k, R, T, error) && _wb_cg_mix_finish (k, R->mix, error);
    }
  if (!row_loop (k, R, R->accs, T, V, NULL, error))
    return FALSE;
  for (guint j = 0; j < R->nn; j++)
    _wb_cg_group_reduce (k, R->accs[j].acc, ctype, R->accs[j].op, c, T);
  if (R->is_var)
    {
      Acc m2 = { R->accs[0].a, "m2", "sum" };
      _wb_cg_line (k, "const %s mean = acc / (%s) %" G_GINT64_FORMAT ";", ctype, ctype, R->K);
      _wb_cg_line (k, "%s m2 = %s;", ctype, _wb_cg_init_expr ("sum", c));
      if (!row_loop (k, R, &m2, T, V, "mean", error))
        return FALSE;
      _wb_cg_group_reduce (k, "m2", ctype, "sum", c, T);
      {
        double den = MAX ((double) R->K - R->correction, 0.0);
        char   buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd (buf, sizeof buf, "%.17g", den);
        _wb_cg_line (k, "%s var = m2 / (%s) %s;", ctype, ctype, buf);
      }
      if (strcmp (R->nodes[0]->op, "std") == 0)
        _wb_cg_line (k, "var = %s (var);", c == CLS_F ? "sqrtf" : "sqrt");
    }
  _wb_cg_line (k, "if (ok && lane == 0)");
  _wb_cg_line (k, "{");
  for (guint j = 0; j < R->nn; j++)
    for (guint i = 0; i < R->nodes[j]->n_out; i++)
      _wb_cg_store_result (k, R->nodes[j]->out[i], c, R->is_var ? (i == 0 ? "var" : "mean") : R->accs[j].acc, "o");
  _wb_cg_line (k, "}");
  if (R->epi != NULL)
    {
      WbCgRows rows;
      gboolean done;
      /* the epilogue reads the results from the registers they were stored from: a store and a load of
       * global memory per row less, and no barrier between them (wb-cuda-codegen-epilogue.c) */
      resident_results (k, R);
      rows_layout (R, T, V, &rows);
      done = _wb_cg_emit_epilogue (k, R->epi, &rows, R->eslots, error);
      g_clear_pointer (&k->resident, g_hash_table_unref);
      if (!done)
        return FALSE;
    }
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return R->mix == NULL || _wb_cg_mix_finish (k, R->mix, error);
}

/* @R's accumulators, the reduced and kept dims of operand @L->a, and the class the sums are in; *@u: the
 * innermost reduced dim of extent above 1 (an index into the reduced dims), else left as it is. */
static gboolean
row_setup (Gen *g, Row *R, const WbCgReduction *L, int *u, GError **error)
{
  Node *const *nodes = R->nodes;
  guint        nn = R->nn;
  Acc         *accs = (Acc *) R->accs;
  Val         *a = L->a;

  R->is_var = L->is_var;
  memcpy (R->red, L->red, sizeof R->red);
  for (guint j = 0; j < nn; j++)
    {
      accs[j].a = _wb_cg_operand (g, nodes[j]->arg[0]);
      accs[j].acc = nn == 1 ? "acc" : _wb_cg_gstr (g, "acc%u", j);
      accs[j].op = R->is_var ? "sum" : nodes[j]->op;
      if (accs[j].a == NULL || !accs[j].a->is_tensor)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: arguments of a form the generator does not handle", nodes[j]->op);
    }
  if (R->is_var)
    {
      Val *cv = nodes[0]->n_arg > 2 ? _wb_cg_number_of (g, nodes[0]->arg[2]) : NULL;
      if (cv == NULL)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: correction is not a number", nodes[0]->op);
      R->correction = cv->is_float ? cv->f : (double) cv->i;
    }
  for (guint d = 0; d < a->rank; d++)
    {
      if (R->red[d])
        {
          if (a->shape[d] != 1)
            *u = (int) R->n_red;
          R->red_shape[R->n_red++] = a->shape[d];
        }
      else
        R->kept_shape[R->n_kept++] = a->shape[d];
    }
  R->NO = _wb_cg_numel_of (R->n_kept, R->kept_shape);
  R->K = _wb_cg_numel_of (R->n_red, R->red_shape);
  R->c = _wb_cg_dtype_cls (a->dtype);
  if (R->is_var && R->c == CLS_I)
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of integers", nodes[0]->op);
  R->ctype = _wb_cg_cls_ctype (R->c);
  return TRUE;
}

/* The vector variant of a row kernel: V = @vec consecutive elements per thread and step, groups of *@T threads
 * with T x V about the row (*@T set here), the scalar loop as its fallback; it takes the column set @mix where
 * that fits. NULL with @error. */
static Kern *
row_vector_kernel (Gen *g, Row *R, WbCgMix *mix, GArray *writes, guint vec, int *T_out, const char *ity, GError **error)
{
  guint    nn = R->nn;
  int      T;
  Kern    *kv = _wb_cg_kern_new (g, ity);
  GString *scalar;

  for (T = 1; T < WB_CUDA_BLOCK && T * (gint64) vec < R->K; T *= 2)
    ;
  /* a row that a warp covers in at most WB_CG_ROW_WARP_STEPS vector steps gets one warp: shuffles only, no
   * barrier (longer rows are faster with a block of threads) */
  if (T > 32 && R->K <= WB_CG_ROW_WARP_STEPS * 32 * (gint64) vec && !g->opt.no_row_warp)
    T = 32;
  while (g->opt.row_threads > 0 && T > 1 && (guint) T > g->opt.row_threads)
    T /= 2;
  /* the column set before it over the same elements, when each thread's columns are fixed
   * (wb-cuda-codegen-mix.c): one pass over them instead of two kernels */
  if (mix != NULL && R->epi != NULL && _wb_cg_mix_fits (g, mix, R->NO, T, vec))
    {
      _wb_cg_mix_buffers (g, mix, writes);
      mix->used = TRUE;
      R->mix = mix;
      kv->min_blocks = mix->per_sm;           /* its grid is resident at once: registers for that many blocks */
      if (!g->opt.no_prefetch && !mix->defer) /* deferred: one walk, nothing to prefetch */
        {
          g_autofree Val **ops = g_new (Val *, nn);
          for (guint j = 0; j < nn; j++)
            ops[j] = R->accs[j].a;
          kv->prefetch = _wb_cg_epilogue_only_inputs (g, R->epi, ops, nn, R->NO * R->K);
        }
    }
  if (!row_body (kv, R, T, vec, error))
    {
      _wb_cg_kern_free (kv);
      return NULL;
    }
  scalar = _wb_cg_vec_begin (kv, vec);
  if (!row_body (kv, R, T, vec, error))
    {
      g_string_free (scalar, TRUE);
      _wb_cg_kern_free (kv);
      return NULL;
    }
  _wb_cg_vec_end (kv, scalar);
  *T_out = T;
  return kv;
}

/* The description of a row kernel (WbCudaKernel.what). */
static char *
row_what (Gen *g, const Row *R, const Val *a, int T, guint vec)
{
  Node *const *nodes = R->nodes;
  guint        nn = R->nn;
  char        *what;

  what = g_strdup_printf ("%s%s over %u of %u dims of %s[%" G_GINT64_FORMAT " elements]: %" G_GINT64_FORMAT " outputs, %d threads each", nodes[0]->op,
                          _wb_cg_siblings_text (g, nn), R->n_red, a->rank, wb_dtype_shortname (a->dtype), _wb_cg_numel_of (a->rank, a->shape), R->NO, T);
  if (vec > 0)
    {
      g_autofree char *w = g_strdup_printf ("%s; vector: %u per thread when aligned", what, vec);
      g_free (what);
      what = g_steal_pointer (&w);
    }
  if (R->epi != NULL)
    {
      g_autofree char *w = g_strdup_printf ("%s; then %s%s", what, _wb_cg_epilogue_describe (g, R->epi), R->mix ? _wb_cg_mix_describe (g, R->mix) : "");
      g_free (what);
      what = g_steal_pointer (&w);
    }
  return what;
}

gboolean
_wb_cg_emit_reduction (Gen *g, Node *const *nodes, guint nn, const WbCgEpilogue *epi, WbCgMix *mix, const char *ity, GError **error)
{
  Row           R = { 0 };
  WbCgReduction L;
  Val          *a;
  int           T = 1, u = -1;
  guint         vec = 0;
  Kern         *k;
  g_autoptr (GArray) writes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree Acc   *accs = g_new0 (Acc, nn);
  g_autofree char  *what = NULL;
  g_autofree char  *prologue = NULL;
  gboolean          ok = FALSE;
  g_autofree guint *eslots = NULL;

  R.nodes = nodes;
  R.nn = nn;
  R.accs = accs;
  if (!_wb_cg_reduction_layout (g, nodes[0], &L, error) || !row_setup (g, &R, &L, &u, error))
    return FALSE;
  a = L.a;
  /* the innermost dim reduced: a group of T threads cooperates on one output; otherwise one thread
   * per output walks the reduced dims (adjacent threads read adjacent elements) */
  if (L.row)
    while (T < WB_CUDA_BLOCK && T < R.K)
      T *= 2;

  if (L.column)
    return _wb_cg_emit_column_reduction (g, nodes, accs, nn, ity, &L, R.kept_shape, R.n_kept, R.red_shape, R.n_red, R.c, epi, error);

  _wb_cg_add_output_buffers (g, nodes, nn, writes);
  if (epi != NULL && T > 1)
    {
      R.epi = epi;
      _wb_cg_epilogue_buffers (g, epi, writes);
      /* hidden for the whole kernel: an output that a reduction's operand is computed from (after common
       * subexpressions, a layer norm's input sum both returned and normalised) is computed in the reductions'
       * loops too, not loaded before the epilogue has stored it */
      R.eslots = eslots = _wb_cg_epilogue_hide (g, epi);
    }
  k = _wb_cg_kern_new (g, ity);
  if (!row_body (k, &R, T, 0, error))
    goto out;
  /* rows (the innermost dim reduced) whose innermost reduced extent is a multiple of V: the kernel again,
   * with V consecutive elements per thread and step, groups of T threads with T x V about the row; the
   * vector variant when its pointers are aligned, else the same order element by element */
  if (T > 1 && u >= 0 && (vec = _wb_cg_vec_width (k, R.red_shape[u])) > 0)
    {
      Kern *kv = row_vector_kernel (g, &R, mix, writes, vec, &T, ity, error);
      if (kv == NULL)
        goto out;
      _wb_cg_kern_free (k);
      k = kv;
    }
  what = row_what (g, &R, a, T, vec);
  prologue = g_strdup_printf ("%s%s", k->decls ? k->decls->str : "", R.mix ? _wb_cg_mix_shared (g, R.mix) : "");
  if (T > 32)
    {
      g_autofree char *p = g_strdup_printf ("%s  __shared__ %s wb_sm[%d];\n", prologue, R.ctype, WB_CUDA_BLOCK);
      g_free (prologue);
      prologue = g_steal_pointer (&p);
    }
  _wb_cg_finish_kernel (g, k, what, R.mix ? (guint) R.mix->G : _wb_cg_grid_for (R.NO, WB_CUDA_BLOCK / T), _wb_cg_numel_of (a->rank, a->shape), (guint *) writes->data,
                        writes->len, *prologue ? prologue : NULL);
  if (R.mix != NULL) /* its combiners wait for every block to arrive (wb-cuda-codegen-mix.c) */
    g_array_index (g->kernels, WbCudaKernel, g->kernels->len - 1).resident = R.mix->combiners;
  for (guint j = 0; j < nn; j++)
    nodes[j]->done = TRUE;
  if (R.mix != NULL)
    for (guint j = 0; j < R.mix->set->len; j++)
      ((Node *) R.mix->set->pdata[j])->done = TRUE;
  ok = TRUE;

out:
  if (eslots != NULL)
    _wb_cg_epilogue_show (g, epi, eslots);
  _wb_cg_kern_free (k);
  return ok;
}
