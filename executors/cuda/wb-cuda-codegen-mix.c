/* wb-cuda-codegen-mix.c — a column reduction computed in the kernel of a row reduction over the same elements
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A layer-norm or RMS-norm backward reduces one tensor [R, C] two ways: over each row (the input gradient's
 * sums) and over each column (the weight and bias gradients). As two kernels, the column kernel
 * (wb-cuda-codegen-column.c) reads every element a second time, and the pair runs well below the copy bandwidth
 * that the row kernel alone reaches. TorchInductor's mix-order
 * reduction (torch/_inductor: "mix order reduction", 2025) computes both in the row kernel; so does this:
 *
 * - The row kernel walks its rows with its epilogue's element loop unrolled into steps (steps x T x V = C), so
 *   that the columns a thread visits are fixed: st * T * V + lane * V + l. Each thread keeps the column
 *   operands' sums of those steps x V columns in registers, over every row its block takes (the grid is capped
 *   at G blocks, a few per SM, and strides over the rows).
 * - After its rows, each block stores one partial row [G, C] per sum (the groups of a block of several rows
 *   added in group order in shared memory first), then takes a ticket (an arrival counter).
 * - The last KC blocks to arrive each wait until all G have arrived, then combine tiles of 32 columns (2 or 4 x 32
 *   where there would be more tiles than combiners): the G partials of a column added in a fixed order (8
 *   interleaved groups, then the groups in order), whichever blocks combine and however wide the tiles, so the
 *   result is deterministic; then the set's kept-shape outputs of that column (the gradients' conversion to
 *   bf16). The last combiner sets the counters back to zero.
 * - Waiting cannot deadlock where the device holds KC blocks of the kernel at once: at most KC - 1 blocks wait
 *   while one has not arrived, and a block that has not arrived is running or needs one of the other slots,
 *   which blocks that do not wait free when they finish. KC <= 64 is well below 2 blocks on each SM of a large
 *   device, but not of a small one (2 x 24 SMs); so the kernel states it (WbCudaKernel.resident = KC),
 *   wb_cuda_plan_launch compares it with the device's occupancy before launching the plan, and where the
 *   device holds fewer the nvrtc executor builds the plan again without mixing (WB_CUDA_CODEGEN_NO_WAIT).
 *   (Two mixed kernels running at once would need 2 KC - 1 between them; the runtime has one stream.)
 *
 * The column sums are then added in another order than the column kernel's (per block, then over blocks):
 * f32 sums that differ from it in the last bits, within every tolerance the executors are held to.
 *
 * The mixed kernel saves the second read of the elements, but walking rows a block at a time it runs at a
 * lower rate than the one-row-per-block kernel, so it is used for rows of one warp (_wb_cg_mix_fits) and for
 * rows whose sums can wait (below). The row walk keeps all of a row's loads in flight (its sums unrolled into
 * the same steps), has no barrier between the sums and the epilogue (the epilogue reads them from registers),
 * and prefetches the inputs only the epilogue reads to L1 during the sums. Its registers hold it to 2 blocks
 * per SM; a grid of 3 per SM spills. WB_CUDA_NO_MIX turns it off, WB_CUDA_MIX_BLOCKS_PER_SM sets the grid (and
 * the kernel's __launch_bounds__). The figures behind these choices are in tests/bench/README.md.
 *
 * Rows of a block (256 threads, rows of 4096) are mixed when their sums can wait (defer_ok, WbCgMix.defer): the
 * element outputs read none of them, so the block needs no barrier a row. The row sums are then taken in the
 * element walk beside the column sums (one set of loads), each warp's part parked in shared memory at the row's
 * turn, and after the walk each of the block's rows adds its warps' parts in warp order (group_reduce's order:
 * the same sums as the row kernel alone) and stores its results and kept-shape outputs. A body whose column sums
 * read few of its bytes keeps two kernels (the rule in defer_ok). WB_CUDA_NO_MIX_DEFER=1 turns it off.
 *
 * Most of the mixed kernel's time is its walk; storing the partials, the ticket and the combine are a small
 * part. Column sums in shared memory instead of registers (fewer registers, more blocks per SM) were slower. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

#define MIX_BLOCKS_PER_SM 2     /* the grid: G = SMs x this, the rows strided over it */
#define MIX_MAX_ACCUMULATORS 64 /* steps x V x siblings registers per thread */
#define MIX_MAX_SHARED 8192     /* floats: a block's groups' partials before they are added */
#define MIX_TILE 32             /* columns a combiner takes at a time: one per thread of a warp */
#define MIX_MAX_COMBINERS 64

/* -- which sets ----------------------------------------------------------------------------- */

static gboolean
in_set (Gen *g, Node *n, gpointer data)
{
  (void) g;
  return g_hash_table_contains (data, n);
}

/* Whether computing any value of @vals (Val*) reads a result of a reduction of @set (Node*). */
static gboolean
any_reaches (Gen *g, GPtrArray *vals, GPtrArray *set)
{
  g_autoptr (GHashTable) nodes = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < set->len; i++)
    g_hash_table_add (nodes, set->pdata[i]);
  return _wb_cg_reads_reduction (g, (Val *const *) vals->pdata, vals->len, in_set, nodes);
}

/* Bytes an element of the inputs of @numel elements that computing @vals reads, each input once */
static gint64
input_bytes (Gen *g, Val *const *vals, guint n, gint64 numel)
{
  g_autoptr (GArray) slots = _wb_cg_row_inputs (g, vals, n, numel);
  gint64 bytes = 0;

  for (guint i = 0; i < slots->len; i++)
    bytes += (gint64) wb_dtype_size (_wb_cg_input_val (g, g_array_index (slots, guint, i))->dtype);
  return bytes;
}

/* Whether row set @rset (with epilogue @epi) can take column set @cset with rows longer than a warp's
 * (WbCgMix.defer): its element outputs read none of its results, and the bytes the mixed walk saves outweigh what
 * it costs. The mixed walk saves the column kernel's reads (col bytes an element: each input of the column sums
 * once) and costs a fixed ~9 us more than two kernels (its grid of a few blocks per SM walking the rows one after
 * the other, then the combine); both move their bytes at about 0.25 us per MB. So it is mixed when the
 * column kernel would read more than MIX_DEFER_MIN_BYTES: 9 us of those reads, rounded up. The rule was
 * checked at several shapes with tests/bench/bench-mix-defer.py (its figures: tests/bench/README.md).
 * WB_CUDA_MIX_DEFER_ALWAYS=1 mixes wherever the sums can wait (for the benchmark). */
#define MIX_DEFER_MIN_BYTES 40000000

static gboolean
defer_ok (Gen *g, GPtrArray *rset, const WbCgEpilogue *epi, GPtrArray *cset)
{
  WbCgReduction R;
  gint64        numel;
  g_autoptr (GPtrArray) cvals = g_ptr_array_new ();

  if (g->opt.no_mix_defer || !_wb_cg_reduction_layout (g, rset->pdata[0], &R, NULL) || R.is_var ||
      any_reaches (g, epi->elems, rset))
    return FALSE;
  numel = _wb_cg_numel_of (R.a->rank, R.a->shape);
  for (guint j = 0; j < cset->len; j++)
    g_ptr_array_add (cvals, _wb_cg_operand (g, ((Node *) cset->pdata[j])->arg[0]));
  return input_bytes (g, (Val *const *) cvals->pdata, cvals->len, numel) * numel > MIX_DEFER_MIN_BYTES ||
         g->opt.mix_defer_always;
}

static gint64
innermost_extent (const Val *v)
{
  for (int d = (int) v->rank - 1; d >= 0; d--)
    if (v->shape[d] != 1)
      return v->shape[d];
  return 1;
}

int
_wb_cg_mix_pick (Gen *g, GPtrArray *sets, int held, const WbCgEpilogue *epi, int col_held, const WbCgEpilogue *cepi)
{
  WbCgReduction R, C;
  GPtrArray    *rset, *cset;
  int           cs = held - 1;
  g_autoptr (GPtrArray) rvals = g_ptr_array_new ();
  g_autoptr (GPtrArray) cvals = g_ptr_array_new ();

  if ((g->opt.flags & WB_CUDA_CODEGEN_NO_WAIT) || g->opt.no_mix || held < 1 || epi->elems == NULL || epi->elems->len == 0)
    return -1;
  rset = sets->pdata[held];
  cset = sets->pdata[cs];
  if (!_wb_cg_reduction_layout (g, rset->pdata[0], &R, NULL) || !R.row || !R.takes_epilogue || R.is_var)
    return -1;
  if (!_wb_cg_reduction_layout (g, cset->pdata[0], &C, NULL) || !C.column || !C.lead || C.is_var)
    return -1;
  /* longer rows than a warp's only when the row set's element outputs read none of its results (_wb_cg_mix_fits) */
  if ((col_held == cs && cepi->elems->len > 0) ||
      (R.K > WB_CG_ROW_WARP_STEPS * 32 * 8 && !defer_ok (g, rset, epi, cset)))
    return -1;
  /* the same elements: row o of the row set is row o of the columns, element o * C + r of both */
  if (_wb_cg_numel_of (R.a->rank, R.a->shape) != _wb_cg_numel_of (C.a->rank, C.a->shape) || R.K != C.NO || R.NO != C.K ||
      innermost_extent (R.a) != innermost_extent (C.a) || _wb_cg_column_split (C.a, &C) < 0)
    return -1;
  /* neither reads the other's results: the row set's operands and epilogue, the column set's operands and
   * kept-shape outputs */
  for (guint j = 0; j < rset->len; j++)
    g_ptr_array_add (rvals, _wb_cg_operand (g, ((Node *) rset->pdata[j])->arg[0]));
  for (guint i = 0; i < epi->rows->len; i++)
    g_ptr_array_extend (rvals, epi->rows->pdata[i], NULL, NULL);
  g_ptr_array_extend (rvals, epi->elems, NULL, NULL);
  for (guint j = 0; j < cset->len; j++)
    g_ptr_array_add (cvals, _wb_cg_operand (g, ((Node *) cset->pdata[j])->arg[0]));
  if (col_held == cs)
    for (guint i = 0; i < cepi->rows->len; i++)
      g_ptr_array_extend (cvals, cepi->rows->pdata[i], NULL, NULL);
  if (any_reaches (g, rvals, cset) || any_reaches (g, cvals, rset))
    return -1;
  return cs;
}

void
_wb_cg_mix_init (Gen *g, WbCgMix *m, GPtrArray *set, const WbCgEpilogue *cepi, GPtrArray *rset, const WbCgEpilogue *epi)
{
  WbCgReduction R;

  memset (m, 0, sizeof *m);
  m->defer_ok = defer_ok (g, rset, epi, set) && _wb_cg_reduction_layout (g, rset->pdata[0], &R, NULL);
  m->n_row = rset->len;
  m->row_ctype = m->defer_ok ? _wb_cg_cls_ctype (_wb_cg_dtype_cls (R.a->dtype)) : NULL;
  m->set = set;
  m->cepi = cepi != NULL && cepi->rows != NULL && cepi->rows->len > 0 ? cepi : NULL;
  (void) _wb_cg_reduction_layout (g, set->pdata[0], &m->L, NULL);
  m->c = _wb_cg_dtype_cls (m->L.a->dtype);
  m->ctype = _wb_cg_cls_ctype (m->c);
  m->np = _wb_cg_column_split (m->L.a, &m->L);
  m->C = m->L.NO; /* the columns: the row kernel's reduced extent */
  m->accs = g_new0 (Acc, set->len);
  for (guint j = 0; j < set->len; j++)
    {
      Node *n = set->pdata[j];
      m->accs[j].a = _wb_cg_operand (g, n->arg[0]);
      m->accs[j].op = n->op;
      m->accs[j].acc = _wb_cg_gstr (g, "wb_c%u", j);
    }
}

void
_wb_cg_mix_clear (WbCgMix *m)
{
  g_clear_pointer (&m->accs, g_free);
  g_clear_pointer (&m->pslot, g_free);
  g_clear_pointer (&m->tslots, g_free);
}

gboolean
_wb_cg_mix_fits (Gen *g, WbCgMix *m, gint64 rows, int T, guint V)
{
  gint64 per_sm = g->opt.mix_blocks_per_sm > 0 ? g->opt.mix_blocks_per_sm : MIX_BLOCKS_PER_SM;

  /* rows of one warp, or rows of a block whose sums can wait (defer_ok): a group of several warps meets at two
   * barriers per row, which a block walking its rows waits out one row after the other (a kernel of one row
   * per block hides them behind its other resident blocks): with those barriers, mixing rows of a block was
   * not faster. Without them, see the header. */
  if (V < 2 || T < 1 || (T > 32 && (!m->defer_ok || T != WB_CUDA_BLOCK)) || m->C % ((gint64) T * V) != 0)
    return FALSE;
  m->T = T;
  m->V = V;
  m->opb = WB_CUDA_BLOCK / T;
  m->steps = m->C / ((gint64) T * V);
  if (m->steps * V * m->set->len > MIX_MAX_ACCUMULATORS || (m->opb > 1 && m->opb * m->C > MIX_MAX_SHARED))
    return FALSE;
  m->per_sm = (guint) per_sm;
  m->G = MIN ((gint64) _wb_cg_grid_for (rows, m->opb), per_sm * WB_CG_SMS);
  m->defer = T > 32;
  m->rows_per_block = (rows + m->G - 1) / m->G;
  if (m->defer && (gint64) m->n_row * m->rows_per_block * (T / 32) > MIX_MAX_SHARED)
    return FALSE;
  /* f32 partials and more tiles of MIX_TILE columns than combiners: tiles of 2 or 4 x MIX_TILE columns, loaded 8 or
   * 16 bytes at a time, the narrowest that leaves each combiner one tile (a combiner walks its tiles one after the
   * other); a column's order of additions does not depend on the tile, so the bits are the same. Where each
   * combiner has one tile already, wider tiles (fewer combiners) were slower. */
  m->cv = 1;
  if (m->c == CLS_F && !g->opt.mix_scalar_combine)
    while (m->cv < 4 && m->C / (MIX_TILE * m->cv) > MIX_MAX_COMBINERS && m->C % (MIX_TILE * m->cv * 2) == 0)
      m->cv *= 2;
  if ((gint64) WB_CUDA_BLOCK * m->cv * m->set->len > MIX_MAX_SHARED) /* the combine's tiles of every sum */
    m->cv = 1;
  if ((gint64) WB_CUDA_BLOCK * m->set->len > MIX_MAX_SHARED)
    return FALSE;
  m->tiles = (m->C + MIX_TILE * m->cv - 1) / (MIX_TILE * m->cv);
  m->combiners = (guint) MIN (MIN (m->tiles, (gint64) MIX_MAX_COMBINERS), m->G);
  return TRUE;
}

void
_wb_cg_mix_buffers (Gen *g, WbCgMix *m, GArray *writes)
{
  WbCudaBuffer pb = { 0 }, cb = { 0 };
  guint        first;

  pb.dtype = m->c == CLS_F ? WB_DTYPE_FLOAT32 : m->c == CLS_D ? WB_DTYPE_FLOAT64
                                                              : WB_DTYPE_INT64;
  pb.rank = 2;
  pb.shape[0] = m->G;
  pb.shape[1] = m->C;
  pb.numel = m->G * m->C;
  m->pslot = g_new (guint, m->set->len);
  for (guint j = 0; j < m->set->len; j++)
    {
      g_array_append_val (g->buffers, pb);
      m->pslot[j] = g->n_inputs + g->buffers->len - 1;
    }
  /* [0]: blocks arrived, [1]: combiners done; zero between launches (WbCudaBuffer.counters) */
  cb.dtype = WB_DTYPE_INT32;
  cb.rank = 1;
  cb.shape[0] = 2;
  cb.numel = 2;
  cb.counters = TRUE;
  g_array_append_val (g->buffers, cb);
  m->cslot = g->n_inputs + g->buffers->len - 1;
  _wb_cg_add_output_buffers (g, (Node *const *) m->set->pdata, m->set->len, writes);
  g_array_append_vals (writes, m->pslot, m->set->len);
  g_array_append_val (writes, m->cslot);
  if (m->cepi != NULL)
    {
      first = writes->len;
      _wb_cg_epilogue_buffers (g, m->cepi, writes);
      m->tslots = g_memdup2 (&g_array_index (writes, guint, first), sizeof (guint) * (writes->len - first));
    }
}

/* -- emission ------------------------------------------------------------------------------- */

void
_wb_cg_mix_declare (Kern *k, const WbCgMix *m)
{
  gint64 n = m->steps * m->V;

  for (guint j = 0; j < m->set->len; j++)
    {
      _wb_cg_line (k, "%s %s[%" G_GINT64_FORMAT "];", m->ctype, m->accs[j].acc, n);
      _wb_cg_line (k, "#pragma unroll");
      _wb_cg_line (k, "for (int i = 0; i < %" G_GINT64_FORMAT "; i++)", n);
      _wb_cg_line (k, "  %s[i] = %s;", m->accs[j].acc, _wb_cg_init_expr (m->accs[j].op, m->c));
    }
}

gboolean
_wb_cg_mix_accumulate (Kern *k, const WbCgMix *m, GError **error)
{
  Gen            *g = k->g;
  const Val      *a = m->L.a;
  Idx             ox, rx, cx = { 0 };
  int             ua = -1;
  g_autofree Acc *lane_accs = g_new (Acc, m->set->len);

  for (int d = (int) a->rank - 1; d >= 0 && ua < 0; d--)
    if (a->shape[d] != 1)
      ua = d;
  /* element E = o * C + r0 of the row kernel is row o, column r0 of the column operand */
  _wb_cg_idx_unravel (k, "o", (guint) m->np, a->shape, &ox);
  _wb_cg_idx_unravel (k, "r0", a->rank - (guint) m->np, a->shape + m->np, &rx);
  cx.rank = a->rank;
  for (guint d = 0; d < a->rank; d++)
    _wb_cg_idx_dim (&cx, d, d < (guint) m->np ? &ox : &rx, d < (guint) m->np ? d : d - (guint) m->np);
  for (guint d = 0; d < cx.rank; d++)
    cx.lane[d] = LANE_SAME;
  cx.lin = "E";
  cx.lin_lane = LANE_SAME;
  for (k->lane = 0; k->lane < m->V; k->lane++)
    {
      Idx aj = cx;
      for (guint j = 0; j < m->set->len; j++)
        {
          lane_accs[j] = m->accs[j];
          lane_accs[j].acc = _wb_cg_gstr (g, "%s[st * %u + %u]", m->accs[j].acc, m->V, k->lane);
        }
      _wb_cg_idx_lane_unit (k, &aj, ua, "E");
      if (!_wb_cg_accumulate (k, lane_accs, m->set->len, &aj, m->c, NULL, error))
        {
          k->lane = 0;
          return FALSE;
        }
    }
  k->lane = 0;
  return TRUE;
}

/* The block's partial of each sum at row blockIdx.x of its buffer: a thread's columns directly, or (several rows
 * a block) the groups added in group order in shared memory first. */
static void
store_partials (Kern *k, const WbCgMix *m)
{
  Gen   *g = k->g;
  gint64 TV = (gint64) m->T * m->V;

  for (guint j = 0; j < m->set->len; j++)
    {
      const char *acc = m->accs[j].acc;
      const char *dst = m->opb == 1 ? _wb_cg_gstr (g, "p%u[(%s) blockIdx.x * %" G_GINT64_FORMAT " + ", m->pslot[j], k->ity, m->C)
                                    : _wb_cg_gstr (g, "wb_msm[(threadIdx.x / %d) * %" G_GINT64_FORMAT " + ", m->T, m->C);
      _wb_cg_line (k, "#pragma unroll");
      _wb_cg_line (k, "for (int st = 0; st < %" G_GINT64_FORMAT "; st++)", m->steps);
      _wb_cg_line (k, "{");
      _wb_cg_line (k, "  #pragma unroll");
      _wb_cg_line (k, "  for (int l = 0; l < %u; l++)", m->V);
      _wb_cg_line (k, "    %sst * %" G_GINT64_FORMAT " + lane * %u + l] = %s[st * %u + l];", dst, TV, m->V, acc, m->V);
      _wb_cg_line (k, "}");
      if (m->opb == 1)
        continue;
      _wb_cg_line (k, "__syncthreads ();");
      _wb_cg_line (k, "for (int wb_col = threadIdx.x; wb_col < %" G_GINT64_FORMAT "; wb_col += %d)", m->C, WB_CUDA_BLOCK);
      _wb_cg_line (k, "{");
      _wb_cg_line (k, "  %s y = wb_msm[wb_col];", m->ctype);
      _wb_cg_line (k, "  for (int grp = 1; grp < %d; grp++)", m->opb);
      _wb_cg_line (k, "    y = %s;", _wb_cg_combine_expr (g, m->accs[j].op, m->c, "y", _wb_cg_gstr (g, "wb_msm[grp * %" G_GINT64_FORMAT " + wb_col]", m->C)));
      _wb_cg_line (k, "  p%u[(%s) blockIdx.x * %" G_GINT64_FORMAT " + wb_col] = y;", m->pslot[j], k->ity, m->C);
      _wb_cg_line (k, "}");
      _wb_cg_line (k, "__syncthreads ();");
    }
}

/* A combiner's tile of MIX_TILE x cv columns (cv = 2 or 4: f32 partials loaded as float2 or float4): column
 * wb_col0 + l of each sum from its G partials, 8 groups of interleaved blocks then the groups in order; the
 * results and the kept-shape outputs at wb_col by threads < MIX_TILE. The sums' partials are loaded in one loop
 * (each sum's own order unchanged), so that the loads of all of them are in flight together, and added across
 * the groups after one barrier. */
static const char *
smem_at (Gen *g, guint j) /* sum j's part of wb_msm, in units of cv values */
{
  return j == 0 ? "" : _wb_cg_gstr (g, "%u + ", j * WB_CUDA_BLOCK);
}

static gboolean
combine_tile (Kern *k, const WbCgMix *m, GError **error)
{
  Gen  *g = k->g;
  guint Q = WB_CUDA_BLOCK / MIX_TILE, cv = m->cv;

  _wb_cg_line (k, "const %s wb_col0 = (%s) tile * %u + (%s) x * %u;", k->ity, k->ity, MIX_TILE * cv, k->ity, cv);
  for (guint j = 0; j < m->set->len; j++)
    {
      _wb_cg_line (k, "%s y%u[%u];", m->ctype, j, cv);
      _wb_cg_line (k, "#pragma unroll");
      _wb_cg_line (k, "for (int l = 0; l < %u; l++)", cv);
      _wb_cg_line (k, "  y%u[l] = %s;", j, _wb_cg_init_expr (m->accs[j].op, m->c));
    }
  _wb_cg_line (k, "if (wb_col0 < %" G_GINT64_FORMAT ")", m->C);
  _wb_cg_line (k, "{");
  _wb_cg_line (k, "  #pragma unroll 16");
  _wb_cg_line (k, "  for (int i = q; i < %" G_GINT64_FORMAT "; i += %u)", m->G, Q);
  _wb_cg_line (k, "  {");
  for (guint j = 0; j < m->set->len; j++)
    {
      const char *at = _wb_cg_gstr (g, "&p%u[(%s) i * %" G_GINT64_FORMAT " + wb_col0]", m->pslot[j], k->ity, m->C);
      const char *y = _wb_cg_gstr (g, "y%u", j);
      if (cv > 1) /* float2 / float4 */
        {
          _wb_cg_line (k, "    const float%u t%u = __ldcg ((const float%u *) %s);", cv, j, cv, at);
          for (guint l = 0; l < cv; l++)
            _wb_cg_line (k, "    %s[%u] = %s;", y, l, _wb_cg_combine_expr (g, m->accs[j].op, m->c, _wb_cg_gstr (g, "%s[%u]", y, l), _wb_cg_gstr (g, "t%u.%c", j, "xyzw"[l])));
        }
      else
        _wb_cg_line (k, "    %s[0] = %s;", y, _wb_cg_combine_expr (g, m->accs[j].op, m->c, _wb_cg_gstr (g, "%s[0]", y), _wb_cg_gstr (g, "__ldcg (%s)", at)));
    }
  _wb_cg_line (k, "  }");
  _wb_cg_line (k, "}");
  for (guint j = 0; j < m->set->len; j++)
    {
      _wb_cg_line (k, "#pragma unroll");
      _wb_cg_line (k, "for (int l = 0; l < %u; l++)", cv);
      _wb_cg_line (k, "  wb_msm[(%sthreadIdx.x) * %u + l] = y%u[l];", smem_at (g, j), cv, j);
    }
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (threadIdx.x < %d && wb_col0 < %" G_GINT64_FORMAT ")", MIX_TILE, m->C);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  for (guint j = 0; j < m->set->len; j++)
    {
      Node *n = m->set->pdata[j];
      _wb_cg_line (k, "#pragma unroll");
      _wb_cg_line (k, "for (int l = 0; l < %u; l++)", cv);
      _wb_cg_line (k, "{");
      _wb_cg_line (k, "  const %s wb_col = wb_col0 + l;", k->ity);
      _wb_cg_line (k, "  %s z = wb_msm[(%sx) * %u + l];", m->ctype, smem_at (g, j), cv);
      _wb_cg_line (k, "  for (int grp = 1; grp < %u; grp++)", Q);
      _wb_cg_line (k, "    z = %s;", _wb_cg_combine_expr (g, m->accs[j].op, m->c, "z", _wb_cg_gstr (g, "wb_msm[(%sx + %d * grp) * %u + l]", smem_at (g, j), MIX_TILE, cv)));
      for (guint i = 0; i < n->n_out; i++)
        _wb_cg_store_result (k, n->out[i], m->c, "z", "wb_col");
      _wb_cg_line (k, "}");
    }
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "__syncthreads ();");
  if (m->cepi != NULL)
    {
      g_autoptr (GPtrArray) tail = g_ptr_array_new ();
      gboolean ok;
      for (guint i = 0; i < m->cepi->rows->len; i++)
        g_ptr_array_extend (tail, m->cepi->rows->pdata[i], NULL, NULL);
      for (guint i = 0; i < tail->len; i++)
        ((Val *) tail->pdata[i])->buffer = -1; /* computed here, never loaded */
      _wb_cg_line (k, "if (threadIdx.x < %d && wb_col0 < %" G_GINT64_FORMAT ")", MIX_TILE, m->C);
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      _wb_cg_line (k, "for (int l = 0; l < %u; l++)", cv);
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      _wb_cg_line (k, "const %s ot = wb_col0 + l;", k->ity);
      ok = _wb_cg_emit_kept_values (k, m->cepi->rows, "ot", NULL, m->tslots, error);
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
      _wb_cg_close_block (k);
      _wb_cg_line (k, "}");
      for (guint i = 0; i < tail->len; i++)
        ((Val *) tail->pdata[i])->buffer = (int) (m->tslots[i] - g->n_inputs);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

gboolean
_wb_cg_mix_finish (Kern *k, const WbCgMix *m, GError **error)
{
  const char *cnt = _wb_cg_param (k, m->cslot);
  gint64      first = m->G - m->combiners;

  for (guint j = 0; j < m->set->len; j++)
    (void) _wb_cg_param (k, m->pslot[j]);
  _wb_cg_line (k, "/* the column sums: this block's partials, then the last %u blocks to arrive combine them */", m->combiners);
  store_partials (k, m);
  _wb_cg_line (k, "__threadfence ();");
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (threadIdx.x == 0)");
  _wb_cg_line (k, "  wb_ticket = atomicAdd ((unsigned int *) &%s[0], 1u);", cnt);
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (wb_ticket >= %" G_GINT64_FORMAT "u)", first);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "if (threadIdx.x == 0)");
  _wb_cg_line (k, "  while (*(volatile unsigned int *) &%s[0] < %" G_GINT64_FORMAT "u)", cnt, m->G);
  _wb_cg_line (k, "    __nanosleep (32);");
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "__threadfence ();");
  _wb_cg_line (k, "const int x = (int) (threadIdx.x %% %d), q = (int) (threadIdx.x / %d);", MIX_TILE, MIX_TILE);
  _wb_cg_line (k, "for (int tile = (int) wb_ticket - %" G_GINT64_FORMAT "; tile < %" G_GINT64_FORMAT "; tile += %u)", first, m->tiles, m->combiners);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  if (!combine_tile (k, m, error))
    return FALSE;
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "if (threadIdx.x == 0 && atomicAdd ((unsigned int *) &%s[1], 1u) == %uu)", cnt, m->combiners - 1);
  _wb_cg_line (k, "{");
  _wb_cg_line (k, "  %s[0] = 0;", cnt);
  _wb_cg_line (k, "  %s[1] = 0;", cnt);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return TRUE;
}

const char *
_wb_cg_mix_describe (Gen *g, const WbCgMix *m)
{
  Node *n = m->set->pdata[0];
  guint n_tail = 0;

  if (m->cepi != NULL)
    for (guint i = 0; i < m->cepi->rows->len; i++)
      n_tail += ((GPtrArray *) m->cepi->rows->pdata[i])->len;
  return _wb_cg_gstr (g, "; and the column %s%s over its %" G_GINT64_FORMAT " rows: %" G_GINT64_FORMAT " outputs, %" G_GINT64_FORMAT " columns a thread, partials of %" G_GINT64_FORMAT " blocks combined by the last %u%s%s",
                      n->op, _wb_cg_siblings_text (g, m->set->len), m->L.K, m->C, m->steps * m->V, m->G, m->combiners,
                      m->defer ? "; the row sums taken in the element walk and added after it" : "",
                      n_tail > 0 ? _wb_cg_gstr (g, "; %u pointwise output%s of the kept shape after the combine", n_tail, n_tail == 1 ? "" : "s") : "");
}

const char *
_wb_cg_mix_shared (Gen *g, const WbCgMix *m)
{
  gint64      n = MAX ((gint64) WB_CUDA_BLOCK * m->cv * m->set->len, m->opb > 1 ? m->opb * m->C : 0);
  const char *rows = m->defer ? _wb_cg_gstr (g, "  __shared__ %s wb_mrow[%" G_GINT64_FORMAT "];\n", m->row_ctype, (gint64) m->n_row * m->rows_per_block * (m->T / 32)) : "";

  return _wb_cg_gstr (g, "  __shared__ %s wb_msm[%" G_GINT64_FORMAT "];\n  __shared__ unsigned int wb_ticket;\n%s", m->ctype, n, rows);
}
