/* wb-cuda-codegen-column.c — the column kernel: reductions over the leading dims of their operand
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bias and norm-weight gradients are sums over [tokens, features] -> [features]: few outputs, each
 * reducing a long column. One thread per output would leave most of the device idle (768 outputs = 3
 * blocks walking 8192 rows each), so the reduced range is split into S slices across blocks and each
 * block takes a tile of adjacent outputs of one slice: 32 column lanes x 8 row lanes (the warps), the
 * partial results in a scratch buffer [S, NO] of the accumulator type. The last block to finish a tile
 * (an arrival counter per tile) combines the tile's S partials in a fixed order: one kernel instead of a
 * second launch that combined them, with the same result whichever block is last (deterministic: the
 * counters are the only atomics; threadFenceReduction in the CUDA samples).
 *
 * When the innermost kept extent is a multiple of the vector width V (wb-cuda-codegen-pointwise.c), each
 * column lane takes V adjacent outputs with an accumulator each, so a warp reads 32 x 16 bytes of a row
 * with one vector load per operand instead of 32 x 2 (bf16) with one scalar load: the scalar kernel stays
 * far from the copy bandwidth (tests/bench/README.md has the figures). As for row
 * reductions, the vector variant runs when its pointers are aligned, else the same elements in the same
 * order one by one. The grid is sized to be resident at once (COLUMN_BLOCKS_PER_SM per SM; a tile of S
 * slices that needed a second wave of a few blocks took twice as long).
 *
 * A walk that also stores pointwise outputs at each element takes 2 rows an iteration (rows_per_step): both
 * rows' accumulations, then both rows' stores. A row at a time, the compiler kept each row's loads behind
 * the previous row's stores, one 16-byte load in flight per thread. 3 and 4 rows need more registers than
 * 4 blocks per SM leave. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

#define COL_LANES_SCALAR 32           /* column lanes of a block, one output each: a warp reads 32 adjacent elements */
#define COL_LANES_VECTOR 8            /* column lanes of V outputs each: a warp reads 4 rows of 8 x 16 bytes */
#define COLUMN_BLOCKS_PER_SM_SCALAR 8 /* one output per thread: many warps for enough loads in flight */
#define COLUMN_BLOCKS_PER_SM_VECTOR 4 /* V outputs per thread: 16-byte loads, more registers */
#define COLUMN_MAX_ACCUMULATORS 32    /* V x siblings */
#define COLUMN_ROWS_PER_STEP 2        /* rows an iteration of a walk that stores pointwise outputs (rows_per_step) */

typedef struct
{
  Node *const         *nodes;
  const Acc           *accs;
  guint                nn;
  const gboolean      *red;
  const gint64        *kept_shape, *red_shape;
  guint                n_kept, n_red;
  const Val           *a;
  gint64               NO, K, S, Kc, tiles;
  guint                V;     /* adjacent outputs per thread (1: scalar layout) */
  int                  CL, R; /* column lanes and row lanes of a block: thread t = column lane t % CL, row lane t / CL */
  int                  ua;    /* the operand's dim that the innermost kept index is */
  gboolean             lin;   /* the reduced dims lead: element (r, o) is r * NO + o */
  Cls                  c;
  const char          *ctype;
  const WbCgReduction *L;
  const WbCgEpilogue  *epi;    /* pointwise outputs of the operand's shape, computed at each element; NULL: none */
  const guint         *eslots; /* their buffers' slots */
  GPtrArray           *tail;   /* groups of pointwise outputs of the kept shape, after the combine; NULL: none */
  const guint         *tslots; /* their buffers' slots, in group order */
  const guint         *pslot;  /* the partial buffers, one per sibling */
  guint                cslot;  /* the arrival counters, one per tile */
} Col;

/* accumulator of sibling @j for output o + @l */
static const char *
acc_name (Gen *g, const Col *C, guint j, guint l)
{
  return C->V > 1 ? _wb_cg_gstr (g, "%s_%u", C->accs[j].acc, l) : C->accs[j].acc;
}

/* The index of pointwise output @v (of the operand's shape when @same) at element E = r * NO + o of the
 * walk: its leading dims from r, the rest from o (_wb_cg_column_split), every lane form LANE_SAME but its
 * innermost dim's, base + lane. */
static void
output_idx (Kern *k, const Col *C, const Val *v, const Idx *ax, const char *r, const char *E, Idx *vx)
{
  int np = _wb_cg_column_split (v, C->L);

  if (_wb_cg_same_shape (v, C->a))
    *vx = *ax;
  else
    {
      Idx rx, ox;
      _wb_cg_idx_unravel_memo (k, r, (guint) np, v->shape, &rx);
      _wb_cg_idx_unravel_memo (k, "o", v->rank - (guint) np, v->shape + np, &ox);
      memset (vx, 0, sizeof *vx);
      vx->rank = v->rank;
      for (guint d = 0; d < v->rank; d++)
        _wb_cg_idx_dim (vx, d, d < (guint) np ? &rx : &ox, d < (guint) np ? d : d - (guint) np);
    }
  for (guint d = 0; d < vx->rank; d++)
    vx->lane[d] = LANE_SAME;
  vx->lin = E;
  vx->lin_lane = LANE_SAME;
}

static int
innermost (const Val *v)
{
  for (int d = (int) v->rank - 1; d >= 0; d--)
    if (v->shape[d] != 1)
      return d;
  return 0;
}

/* The pointwise outputs at the elements E + l, l < V (@ax: the operand's index at lane 0): after the
 * accumulations, in the same scope, so that those of the operand's shape share its loads and subexpressions;
 * vector stores in the vector variant, one call per shape. */
static gboolean
element_outputs (Kern *k, const Col *C, const Idx *ax, const char *r, const char *E, GError **error)
{
  Gen                 *g = k->g;
  GPtrArray           *elems = C->epi->elems;
  g_autofree gboolean *done = g_new0 (gboolean, elems->len);

  for (guint i = 0; i < elems->len; i++)
    {
      Val *first = elems->pdata[i];
      Idx  bx;
      g_autoptr (GPtrArray) outs = g_ptr_array_new ();
      g_autoptr (GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
      if (!_wb_cg_take_shape (elems, C->eslots, i, done, outs, slots))
        continue;
      output_idx (k, C, first, ax, r, E, &bx);
      if (k->vec > 1)
        {
          if (!_wb_cg_vec_store_outputs (k, outs, (const guint *) slots->data, &bx, innermost (first), E, error))
            return FALSE;
          continue;
        }
      for (k->lane = 0; k->lane < C->V; k->lane++)
        {
          Idx aj = bx;
          _wb_cg_idx_lane_unit (k, &aj, innermost (first), E);
          for (guint j = 0; j < outs->len; j++)
            {
              Val        *v = outs->pdata[j];
              const char *x = _wb_cg_emit (k, v, &aj, error);
              if (x == NULL)
                {
                  k->lane = 0;
                  return FALSE;
                }
              _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", g_array_index (slots, guint, j)), _wb_cg_lane_expr (k, E), x, v->dtype));
            }
        }
      k->lane = 0;
    }
  return TRUE;
}

/* Row @r of the walk (E = @r * NO + o, named @E): the accumulations of its V outputs; its operand's index
 * (lane 0) in @ax. */
static gboolean
row_step (Kern *k, const Col *C, const Idx *kx, const char *r, const char *E, Idx *ax, GError **error)
{
  Gen  *g = k->g;
  Idx   rx;
  guint ki = 0, ri = 0;

  _wb_cg_idx_unravel_memo (k, r, C->n_red, C->red_shape, &rx);
  memset (ax, 0, sizeof *ax);
  ax->rank = C->a->rank;
  for (guint d = 0; d < C->a->rank; d++)
    _wb_cg_idx_dim (ax, d, C->red[d] ? &rx : kx, C->red[d] ? ri++ : ki++);
  if (C->lin)
    _wb_cg_line (k, "const %s %s = %s * %" G_GINT64_FORMAT " + o;", k->ity, E, r, C->NO);
  for (k->lane = 0; k->lane < C->V; k->lane++)
    {
      Idx             aj = *ax;
      g_autofree Acc *lane_accs = g_new (Acc, C->nn);
      for (guint j = 0; j < C->nn; j++)
        {
          lane_accs[j] = C->accs[j];
          lane_accs[j].acc = acc_name (g, C, j, k->lane);
        }
      _wb_cg_idx_lane_unit (k, &aj, C->ua, C->lin ? E : NULL);
      if (!_wb_cg_accumulate (k, lane_accs, C->nn, &aj, C->c, NULL, error))
        {
          k->lane = 0;
          return FALSE;
        }
    }
  k->lane = 0;
  return TRUE;
}

/* How many rows an iteration of the walk takes when it stores pointwise outputs: their loads first, then
 * the accumulations in row order, then the stores (the compiler does not move a row's loads above the
 * previous row's stores). WB_CUDA_COLUMN_ROWS sets it (1: a row an iteration). */
static guint
rows_per_step (const Gen *g, const Col *C)
{
  if (C->epi == NULL || C->epi->elems->len == 0)
    return 1;
  return g->opt.column_rows > 0 ? g->opt.column_rows : COLUMN_ROWS_PER_STEP;
}

/* The accumulation over the block's rows r0, r0 + R, ... < r1 of the outputs o .. o + V - 1. */
static gboolean
column_loop (Kern *k, const Col *C, GError **error)
{
  Idx   kx, ax;
  guint U = rows_per_step (k->g, C);

  if (C->V == 1 && C->epi == NULL)
    return _wb_cg_reduction_loop_range (k, C->accs, C->nn, C->red, C->kept_shape, C->n_kept, C->red_shape, C->n_red, "r0", "r1", C->R, C->c, NULL,
                                        error);
  _wb_cg_line (k, "if (ok)");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel_memo (k, "o", C->n_kept, C->kept_shape, &kx);
  if (U > 1)
    {
      Idx         axu[8];
      const char *ru[8], *Eu[8];
      _wb_cg_line (k, "%s r = r0;", k->ity);
      _wb_cg_line (k, "#pragma unroll 1");
      _wb_cg_line (k, "for (; r + %u < r1; r += %u)", (U - 1) * (guint) C->R, U * (guint) C->R);
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      for (guint u = 0; u < U; u++)
        {
          ru[u] = u == 0 ? "r" : _wb_cg_gstr (k->g, "r_%u", u);
          Eu[u] = u == 0 ? "E" : _wb_cg_gstr (k->g, "E_%u", u);
          if (u > 0)
            _wb_cg_line (k, "const %s %s = r + %u;", k->ity, ru[u], u * (guint) C->R);
          if (!row_step (k, C, &kx, ru[u], Eu[u], &axu[u], error))
            return FALSE;
        }
      for (guint u = 0; u < U; u++)
        if (!element_outputs (k, C, &axu[u], ru[u], Eu[u], error))
          return FALSE;
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
      _wb_cg_line (k, "#pragma unroll 1");
      _wb_cg_line (k, "for (; r < r1; r += %d)", C->R);
    }
  else
    {
      _wb_cg_line (k, "#pragma unroll 4");
      _wb_cg_line (k, "for (%s r = r0; r < r1; r += %d)", k->ity, C->R);
    }
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  if (!row_step (k, C, &kx, "r", "E", &ax, error))
    return FALSE;
  if (C->epi != NULL && !element_outputs (k, C, &ax, "r", "E", error))
    return FALSE;
  _wb_cg_close_row_lanes (k);
  return TRUE;
}

/* Reduces the block's values @y (one per thread: thread t = x + TW g, x its column in the tile) over the
 * WB_CUDA_BLOCK / TW groups g in group order, in threads t < TW: opens their block ("if (t < TW) {"), which
 * the caller closes. @base: where in wb_sm. */
static void
combine_groups (Kern *k, const Col *C, guint j, const char *y, guint base)
{
  gint64 TW = C->CL * (gint64) C->V;

  _wb_cg_line (k, "wb_sm[%u + threadIdx.x] = %s;", base, y);
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (threadIdx.x < %" G_GINT64_FORMAT ")", TW);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "%s = wb_sm[%u + threadIdx.x];", y, base);
  _wb_cg_line (k, "for (int g = 1; g < %" G_GINT64_FORMAT "; g++)", WB_CUDA_BLOCK / TW);
  _wb_cg_line (k, "  %s = %s;", y,
               _wb_cg_combine_expr (k->g, C->accs[j].op, C->c, y, _wb_cg_gstr (k->g, "wb_sm[%u + threadIdx.x + %" G_GINT64_FORMAT " * g]", base, TW)));
}

/* The block's partial of sibling @j: every thread's V accumulators to wb_sm, then thread t = x + TW q adds
 * the V row lanes q V .. q V + V - 1 of column x of the tile (the lane its accumulator l = x % V holds),
 * then threads x < TW add the Q groups and store [s, tb + x]: coalesced, and every row lane added in
 * order by the block's threads together. */
static void
store_partial (Kern *k, const Col *C, guint j)
{
  Gen        *g = k->g;
  const char *op = C->accs[j].op;
  guint       B = WB_CUDA_BLOCK;

  for (guint l = 0; l < C->V; l++)
    _wb_cg_line (k, "wb_sm[%u + threadIdx.x] = %s;", l * B, acc_name (g, C, j, l));
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "%s y = wb_sm[(x %% %u) * %u + (q * %u) * %d + x / %u];", C->ctype, C->V, B, C->V, C->CL, C->V);
  _wb_cg_line (k, "for (int i = 1; i < %u; i++)", C->V);
  _wb_cg_line (k, "  y = %s;", _wb_cg_combine_expr (g, op, C->c, "y", _wb_cg_gstr (g, "wb_sm[(x %% %u) * %u + (q * %u + i) * %d + x / %u]", C->V, B, C->V, C->CL, C->V)));
  combine_groups (k, C, j, "y", C->V * B);
  _wb_cg_line (k, "if (tb + x < %" G_GINT64_FORMAT ")", C->NO);
  _wb_cg_line (k, "  p%u[s * %" G_GINT64_FORMAT " + tb + x] = y;", C->pslot[j], C->NO);
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "__syncthreads ();"); /* before wb_sm is written again */
}

/* The last block of a tile: thread t = x + TW q adds slices q, q + Q, ... of column x, then threads x < TW
 * the Q groups in order, and store the result of sibling @j at tb + x. */
static void
combine_slices (Kern *k, const Col *C, guint j)
{
  Gen  *g = k->g;
  guint Q = WB_CUDA_BLOCK / (C->CL * C->V);

  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "%s y = %s;", C->ctype, _wb_cg_init_expr (C->accs[j].op, C->c));
  _wb_cg_line (k, "if (tb + x < %" G_GINT64_FORMAT ")", C->NO);
  _wb_cg_line (k, "  for (int i = q; i < %" G_GINT64_FORMAT "; i += %u)", C->S, Q);
  _wb_cg_line (k, "    y = %s;",
               _wb_cg_combine_expr (g, C->accs[j].op, C->c, "y", _wb_cg_gstr (g, "__ldcg (&p%u[(%s) i * %" G_GINT64_FORMAT " + tb + x])", C->pslot[j], k->ity, C->NO)));
  combine_groups (k, C, j, "y", C->V * WB_CUDA_BLOCK);
  _wb_cg_line (k, "if (tb + x < %" G_GINT64_FORMAT ")", C->NO);
  _wb_cg_line (k, "{");
  for (guint i = 0; i < C->nodes[j]->n_out; i++)
    _wb_cg_store_result (k, C->nodes[j]->out[i], C->c, "y", "tb + x");
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "__syncthreads ();");
}

/* The last block of a tile, thread x < TW: the pointwise outputs of the kept shape at output tb + x, which
 * read the results it has just stored there (the weight and bias gradients' conversion to their dtype, that
 * was a kernel of its own: a launch and its gap in a region of 30 us). Scalar code: one value per thread. */
static gboolean
tail_outputs (Kern *k, const Col *C, GError **error)
{
  _wb_cg_line (k, "if (threadIdx.x < %" G_GINT64_FORMAT " && tb + x < %" G_GINT64_FORMAT ")", C->CL * (gint64) C->V, C->NO);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const %s ot = tb + x;", k->ity);
  if (!_wb_cg_emit_kept_values (k, C->tail, "ot", NULL, C->tslots, error))
    return FALSE;
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return TRUE;
}

static gboolean
column_body (Kern *k, const Col *C, GError **error)
{
  Gen        *g = k->g;
  const char *ity = k->ity, *cname;
  gint64      TW = C->CL * (gint64) C->V;

  for (guint j = 0; j < C->nn; j++)
    (void) _wb_cg_param (k, C->pslot[j]);
  cname = _wb_cg_param (k, C->cslot);
  _wb_cg_line (k, "const int x = (int) (threadIdx.x %% %" G_GINT64_FORMAT "), q = (int) (threadIdx.x / %" G_GINT64_FORMAT ");", TW, TW);
  _wb_cg_line (k, "(void) q;");
  _wb_cg_line (k, "for (%s bid = blockIdx.x; bid < %" G_GINT64_FORMAT "; bid += gridDim.x)", ity, C->tiles * C->S);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const %s s = bid / %" G_GINT64_FORMAT ";", ity, C->tiles);
  _wb_cg_line (k, "const %s tb = (bid %% %" G_GINT64_FORMAT ") * %" G_GINT64_FORMAT ";", ity, C->tiles, TW);
  _wb_cg_line (k, "const %s o = tb + (%s) (threadIdx.x %% %d) * %u;", ity, ity, C->CL, C->V);
  _wb_cg_line (k, "const bool ok = o < %" G_GINT64_FORMAT ";", C->NO);
  _wb_cg_line (k, "const %s r0 = s * %" G_GINT64_FORMAT " + (%s) (threadIdx.x / %d);", ity, C->Kc, ity, C->CL);
  _wb_cg_line (k, "const %s r1 = s * %" G_GINT64_FORMAT " + %" G_GINT64_FORMAT " < %" G_GINT64_FORMAT " ? s * %" G_GINT64_FORMAT " + %" G_GINT64_FORMAT " : %" G_GINT64_FORMAT ";",
               ity, C->Kc, C->Kc, C->K, C->Kc, C->Kc, C->K);
  for (guint j = 0; j < C->nn; j++)
    for (guint l = 0; l < C->V; l++)
      _wb_cg_line (k, "%s %s = %s;", C->ctype, acc_name (g, C, j, l), _wb_cg_init_expr (C->accs[j].op, C->c));
  if (!column_loop (k, C, error))
    return FALSE;
  for (guint j = 0; j < C->nn; j++)
    store_partial (k, C, j);
  /* the block that finishes a tile last combines its S partials, in an order that does not depend on
   * which block came last; then it sets the tile's counter back to zero */
  _wb_cg_line (k, "__threadfence ();");
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (threadIdx.x == 0)");
  _wb_cg_line (k, "  wb_last = atomicAdd ((unsigned int *) &%s[bid %% %" G_GINT64_FORMAT "], 1u) == %" G_GINT64_FORMAT "u;", cname, C->tiles, C->S - 1);
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (wb_last)");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  for (guint j = 0; j < C->nn; j++)
    combine_slices (k, C, j);
  if (C->tail != NULL && !tail_outputs (k, C, error))
    return FALSE;
  _wb_cg_line (k, "if (threadIdx.x == 0)");
  _wb_cg_line (k, "  %s[bid %% %" G_GINT64_FORMAT "] = 0;", cname, C->tiles);
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return TRUE;
}

/* The vector width of the column kernel of @C (0: the scalar layout): the loads' narrowest element,
 * learnt from emitting the accumulation once, the innermost kept extent and the accumulators it needs. */
static guint
column_vec_width (Gen *g, Col *C, const char *ity)
{
  Kern  *probe;
  guint  V = 0;
  int    ua = -1;
  gint64 inner = 0;

  for (int d = (int) C->a->rank - 1; d >= 0 && ua < 0; d--)
    if (C->a->shape[d] != 1)
      ua = d;
  if (ua < 0 || C->red[ua])
    return 0;
  inner = C->a->shape[ua];
  C->ua = ua;
  C->V = 1;
  C->CL = COL_LANES_SCALAR;
  C->R = WB_CUDA_BLOCK / C->CL;
  probe = _wb_cg_kern_new (g, ity);
  if (column_loop (probe, C, NULL))
    V = _wb_cg_vec_width (probe, inner);
  _wb_cg_kern_free (probe);
  while (V > 1 && V * C->nn > COLUMN_MAX_ACCUMULATORS)
    V /= 2;
  return V > 1 ? V : 0;
}

gboolean
_wb_cg_emit_column_reduction (Gen *g, Node *const *nodes, const Acc *accs, guint nn, const char *ity, const WbCgReduction *L, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, Cls c, const WbCgEpilogue *epi, GError **error)
{
  Col                 C = { 0 };
  g_autofree guint   *eslots = NULL;
  guint               n_tail = 0; /* the epilogue's kept-shape outputs */
  const WbCgEpilogue *elems = epi != NULL && epi->elems->len > 0 ? epi : NULL;
  WbCudaBuffer        pb = { 0 }, cb = { 0 };
  g_autofree guint   *pslot = g_new (guint, nn);
  gint64              per_sm, blocks;
  guint               vec;
  Kern               *k;
  g_autoptr (GArray) writes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *what = NULL;
  g_autofree char *prologue = NULL;
  gboolean         ok = FALSE;
  gint64           NO = L->NO, K = L->K;

  C.L = L;
  C.nodes = nodes;
  C.accs = accs;
  C.nn = nn;
  C.red = L->red;
  C.kept_shape = kept_shape;
  C.n_kept = n_kept;
  C.red_shape = red_shape;
  C.n_red = n_red;
  C.a = accs[0].a;
  C.NO = NO;
  C.K = K;
  C.c = c;
  C.ctype = _wb_cg_cls_ctype (c);
  C.lin = L->lead;
  vec = column_vec_width (g, &C, ity);
  C.V = vec > 1 ? vec : 1;
  C.CL = C.V > 1 ? COL_LANES_VECTOR : COL_LANES_SCALAR;
  C.R = WB_CUDA_BLOCK / C.CL;
  C.lin = C.lin && (C.V > 1 || elems != NULL);
  if (elems != NULL && !C.lin)
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "internal: pointwise outputs in a column kernel whose reduced dims do not lead");
  /* the grid: every block resident at once, each slice at least 16 rows per row lane (4 with vectors: an
   * unrolled step) */
  per_sm = C.V > 1 ? COLUMN_BLOCKS_PER_SM_VECTOR : COLUMN_BLOCKS_PER_SM_SCALAR;
  if (g->opt.column_blocks_per_sm > 0)
    per_sm = g->opt.column_blocks_per_sm;
  C.tiles = (NO + C.CL * (gint64) C.V - 1) / (C.CL * (gint64) C.V);
  C.S = MAX ((gint64) 1, MIN (per_sm * WB_CG_SMS / C.tiles, K / (C.R * (C.V > 1 ? 4 : 16))));
  C.Kc = (K + C.S - 1) / C.S;
  C.S = (K + C.Kc - 1) / C.Kc; /* no empty slice */
  blocks = C.tiles * C.S;

  pb.dtype = c == CLS_F ? WB_DTYPE_FLOAT32 : c == CLS_D ? WB_DTYPE_FLOAT64
                                                        : WB_DTYPE_INT64;
  pb.rank = 2;
  pb.shape[0] = C.S;
  pb.shape[1] = NO;
  pb.numel = C.S * NO;
  for (guint j = 0; j < nn; j++)
    {
      g_array_append_val (g->buffers, pb);
      pslot[j] = g->n_inputs + g->buffers->len - 1;
    }
  /* one arrival counter per tile, kept at zero between launches (WbCudaBuffer.counters) */
  cb.dtype = WB_DTYPE_INT32;
  cb.rank = 1;
  cb.shape[0] = C.tiles;
  cb.numel = C.tiles;
  cb.counters = TRUE;
  g_array_append_val (g->buffers, cb);
  C.cslot = g->n_inputs + g->buffers->len - 1;
  C.pslot = pslot;
  _wb_cg_add_output_buffers (g, nodes, nn, writes);
  g_array_append_vals (writes, pslot, nn);
  g_array_append_val (writes, C.cslot);
  if (epi != NULL)
    {
      guint first = writes->len;
      _wb_cg_epilogue_buffers (g, epi, writes); /* the rows' (tail's) slots, then the elements' */
      n_tail = writes->len - first - epi->elems->len;
      eslots = _wb_cg_epilogue_hide (g, epi); /* computed here, never loaded */
      C.epi = elems;
      C.eslots = eslots + n_tail;
      C.tail = epi->rows->len > 0 ? epi->rows : NULL;
      C.tslots = eslots;
    }

  k = _wb_cg_kern_new (g, ity);
  if (!column_body (k, &C, error))
    goto out;
  if (C.V > 1)
    {
      /* the body above walks the lanes element by element (misaligned pointers); the vector variant */
      GString *scalar = _wb_cg_vec_begin (k, C.V);
      if (!column_body (k, &C, error))
        {
          g_string_free (scalar, TRUE);
          goto out;
        }
      _wb_cg_vec_end (k, scalar);
    }
  what = g_strdup_printf ("%s%s over %u of %u dims of %s[%" G_GINT64_FORMAT " elements]: %" G_GINT64_FORMAT " outputs, %" G_GINT64_FORMAT
                          " slices of %" G_GINT64_FORMAT " combined by the last block of each tile of %" G_GINT64_FORMAT "%s%s%s",
                          nodes[0]->op, _wb_cg_siblings_text (g, nn), n_red, C.a->rank, wb_dtype_shortname (C.a->dtype),
                          _wb_cg_numel_of (C.a->rank, C.a->shape), NO, C.S, C.Kc, C.CL * (gint64) C.V,
                          C.V > 1 ? _wb_cg_gstr (g, "; vector: %u outputs per thread, loads of %u when aligned", C.V, C.V) : "",
                          elems != NULL ? _wb_cg_gstr (g, "; then %u pointwise output%s per element", epi->elems->len, epi->elems->len == 1 ? "" : "s") : "",
                          C.tail != NULL ? _wb_cg_gstr (g, "; %u pointwise output%s of the kept shape after the combine", n_tail, n_tail == 1 ? "" : "s")
                                         : "");
  prologue = g_strdup_printf ("%s  __shared__ %s wb_sm[%u];\n  __shared__ bool wb_last;\n", k->decls ? k->decls->str : "", C.ctype,
                              WB_CUDA_BLOCK * (C.V + 1));
  _wb_cg_finish_kernel (g, k, what, (guint) MIN (blocks, 65536), _wb_cg_numel_of (C.a->rank, C.a->shape), (guint *) writes->data, writes->len,
                        prologue);
  for (guint j = 0; j < nn; j++)
    nodes[j]->done = TRUE;
  ok = TRUE;

out:
  if (eslots != NULL)
    _wb_cg_epilogue_show (g, epi, eslots);
  _wb_cg_kern_free (k);
  return ok;
}
