/* wb-cuda-codegen-pointwise.c — the pointwise kernel and its vector variant (16-byte loads and stores)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pointwise kernel computes a group of outputs of one shape into their (contiguous) buffers: a
 * grid-stride loop, one element per thread and iteration. Its grid is at most WB_CG_POINTWISE_BLOCKS
 * blocks of WB_CUDA_BLOCK threads (132 SMs x 8 resident blocks x 4 waves), enough to keep every SM full;
 * the loop covers the rest.
 *
 * The vector variant. One 2-byte load per thread and iteration cannot keep enough bytes in flight to
 * reach the device's copy bandwidth, so when the innermost dim of the group's shape (of extent > 1) is
 * a multiple of V the kernel also holds a second loop in which each thread computes V consecutive
 * elements of that dim. V = 16 bytes / the narrowest element the kernel loads or stores, at most 8
 * (bf16/f16: 8, f32: 4, f64: 2; halved while it does not divide the innermost extent): the narrowest
 * operand moves in 16-byte loads and stores (uint4-sized aligned structs), wider ones in 2 or 4 of them
 * (mixed bf16/f32 kernels, the common case, keep 16-byte accesses for the bf16 tensors that dominate the
 * traffic). The body is emitted once per lane j < V with the index of lane j, so every element is
 * computed by exactly the same expression as in the scalar loop (results are bit-identical). Index
 * expressions carry their lane form (Idx.lane: the same in every lane, base + j with an aligned base,
 * or anything) through the views (broadcast, squeeze, transpose, reshape, aligned slices, take); a load
 * whose innermost index is base + j with stride 1 and whose other dims are the same in every lane is
 * one vector load at an offset that is a multiple of V; one the same in every lane (a broadcast
 * operand) is a scalar load emitted once for all lanes (the memo of emitted values is shared by the
 * lanes); anything else (a transposed or gathered operand, inside cat and pad) is loaded lane by lane
 * (the vector loads: _wb_cg_vec_load in wb-cuda-codegen-kern.c; a cat or pad branch the same in every lane
 * of a thread is emitted once for them all: wb-cuda-codegen-emit-index.c).
 * Outputs are stored as vectors. Base pointers are only known at launch and views carry their storage
 * offset in the pointer, so the kernel tests the alignment of every pointer it accesses with vectors
 * once and runs the scalar loop when one is not aligned: nothing is read out of bounds (each lane reads
 * only its own elements), and no tail is needed (the innermost extent is a multiple of V). Row
 * reductions use the same lanes for their loops (wb-cuda-codegen-reduce.c: reduction_loop_lanes).
 * WB_CUDA_NO_VECTOR=1 (read when a plan is built) generates the scalar kernels alone, for side-by-side
 * benchmarks. */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

/* -- the kernel ----------------------------------------------------------------------------- */

/* The vector width of a kernel whose loads and stores are at least k->min_bytes wide, along a dim of
 * @extent: 16 bytes of the narrowest element, at most 8, halved until it divides @extent; 0 when that
 * leaves less than 2 or WB_CUDA_NO_VECTOR is set. */
guint
_wb_cg_vec_width (Kern *k, gint64 extent)
{
  guint v = MIN (8u, 16u / MAX (k->min_bytes, 1u));

  if (k->g->opt.no_vector)
    return 0;
  while (v > 1 && (extent <= 0 || extent % v != 0))
    v /= 2;
  return v > 1 ? v : 0;
}

/* Starts the vector variant of @k (its scalar body is done): returns that body, to pass to
 * _wb_cg_vec_end once the vector variant is emitted. */
GString *
_wb_cg_vec_begin (Kern *k, guint vec)
{
  GString *scalar = k->body;

  k->body = g_string_new (NULL);
  k->decls = g_string_new (NULL);
  k->vslots = g_array_new (FALSE, FALSE, sizeof (guint));
  k->vec = vec;
  k->indent = 2;
  return scalar;
}

/* The kernel body: the vector variant when every pointer it accesses with vectors is aligned for them,
 * else @scalar (consumed). */
void
_wb_cg_vec_end (Kern *k, GString *scalar)
{
  GString *cond = g_string_new (NULL);
  GString *body = g_string_new (NULL);

  k->indent = 1;
  for (guint bytes = 2; bytes <= 16; bytes *= 2)
    {
      GString *ptrs = g_string_new (NULL);
      for (guint i = 0; i < k->vslots->len; i += 2)
        if (g_array_index (k->vslots, guint, i + 1) == bytes)
          g_string_append_printf (ptrs, "%s(unsigned long long) p%u", ptrs->len ? " | " : "", g_array_index (k->vslots, guint, i));
      if (ptrs->len)
        g_string_append_printf (cond, "%s((%s) & %uu) == 0", cond->len ? " && " : "", ptrs->str, bytes - 1);
      g_string_free (ptrs, TRUE);
    }
  g_string_append_printf (body, "  /* the vector variant: every pointer it accesses with vectors is aligned */\n  if (%s)\n  {\n%s    return;\n  }\n%s",
                          cond->len ? cond->str : "true", k->body->str, scalar->str);
  g_string_free (k->body, TRUE);
  g_string_free (scalar, TRUE);
  g_string_free (cond, TRUE);
  k->body = body;
}

gboolean
_wb_cg_vec_store_outputs (Kern *k, GPtrArray *outs, const guint *writes, const Idx *bx, int u, const char *base, GError **error)
{
  Gen                 *g = k->g;
  guint                ov = k->next_var++;
  g_autofree gboolean *words = g_new0 (gboolean, outs->len); /* computed in bf16x2 words (wb-cuda-codegen-pair.c) */

  for (guint i = 0; i < outs->len; i++)
    {
      Val  *v = outs->pdata[i];
      guint n = _wb_cg_vec_chunk (k, v->dtype);
      for (guint c = 0; c < k->vec / n; c++)
        _wb_cg_line (k, "%s o%u_%u_%u;", _wb_cg_vec_type (k, v->dtype, n), ov, i, c);
    }
  for (guint i = 0; i < outs->len; i++)
    words[i] = _wb_cg_pair_worth (k, outs->pdata[i]); /* bf16, V even: each word fills two elements of a chunk */
  for (k->lane = 0; k->lane < k->vec; k->lane++)
    {
      Idx ix = *bx;
      _wb_cg_idx_lane_unit (k, &ix, u, base);
      for (guint i = 0; i < outs->len; i++)
        {
          Val        *v = outs->pdata[i];
          guint       n = _wb_cg_vec_chunk (k, v->dtype);
          const char *x;
          if (words[i] && k->lane % 2 != 0)
            continue; /* stored with the lane before */
          k->pair = words[i];
          x = _wb_cg_emit (k, v, &ix, error);
          k->pair = FALSE;
          if (x == NULL)
            {
              k->lane = 0;
              return FALSE;
            }
          if (words[i])
            _wb_cg_line (k, "wb_bf16x2_store (&o%u_%u_%u.x[%u], %s);", ov, i, k->lane / n, k->lane % n, x);
          else
            _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "o%u_%u_%u.x", ov, i, k->lane / n), _wb_cg_gstr (g, "%u", k->lane % n), x, v->dtype));
        }
    }
  k->lane = 0;
  for (guint i = 0; i < outs->len; i++)
    {
      Val        *v = outs->pdata[i];
      guint       n = _wb_cg_vec_chunk (k, v->dtype);
      const char *type = _wb_cg_vec_type (k, v->dtype, n);
      for (guint c = 0; c < k->vec / n; c++)
        _wb_cg_line (k, "*(%s *) (p%u + %s%s) = o%u_%u_%u;", type, writes[i], base, c ? _wb_cg_gstr (g, " + %u", c * n) : "", ov, i, c);
      _wb_cg_note_slot (k, writes[i], n * (guint) wb_dtype_size (v->dtype));
    }
  return TRUE;
}

/* Lanes of a warp that take consecutive vectors of a row in the vector loop: 32, or fewer where its uniform
 * branches (k->seg) split a warp's 32 x V elements, rows of @inner elements (@N in all) allowing. A warp that
 * straddles a boundary runs both sides, each with part of its threads (a rotary backward's cat of q, k and v
 * pieces, each the sum of two pads that meet mid-piece, issues about twice the instructions one branch needs,
 * and is bound by issue). With fewer lanes a row, a warp takes 32 / lanes rows at a time instead, all inside one
 * run. A row's lanes keep at least a 32-byte sector of the narrowest element together (fewer would read sectors
 * by halves), and a run that is the whole row leaves the flat walk as it is (its warps take whole rows). */
static guint
row_lanes (Kern *k, gint64 inner, gint64 N)
{
  gint64 run = k->seg / k->vec;
  guint  lanes = 32;

  if (k->seg <= 0 || k->seg % k->vec != 0 || k->g->opt.no_warp_rows)
    return 32;
  while (lanes > 1 && run % lanes != 0)
    lanes /= 2;
  if (lanes == 32 || (gint64) lanes * k->vec == inner || (gint64) lanes * k->vec * MAX (k->min_bytes, 1) < 32 || inner % ((gint64) lanes * k->vec) != 0 ||
      (N / inner) % (32 / lanes) != 0)
    return 32;
  return lanes;
}

/* The vector loop over @outs (shape of @first, @N elements) into @writes, with *@lanes the lanes of a warp a row
 * takes (row_lanes); FALSE with @error. */
static gboolean
emit_vector_loop (Kern *k, GPtrArray *outs, const guint *writes, gint64 N, guint *lanes_out, GError **error)
{
  Val        *first = outs->pdata[0];
  int         u = _wb_cg_innermost_dim (first->rank, first->shape);
  Idx         bx;
  const char *ity = k->ity;
  guint       blk = k->block ? k->block : WB_CUDA_BLOCK;
  GString    *outer = k->body;
  GString    *inner;
  gboolean    ok;
  guint       lanes;
  WbCgHoist   hoist;

  /* the body first: its branches decide how warps walk the rows */
  k->seg = 0;
  k->body = g_string_new (NULL);
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "B", first->rank, first->shape, &bx);
  _wb_cg_hoist_open (k, &hoist);
  ok = _wb_cg_vec_store_outputs (k, outs, writes, &bx, u, "B", error);
  _wb_cg_hoist_close (k, &hoist);
  _wb_cg_close_block (k);
  inner = k->body;
  k->body = outer;
  lanes = u < 0 ? 32 : row_lanes (k, first->shape[u], N);
  *lanes_out = lanes;
  if (lanes == 32)
    {
      _wb_cg_line (k, "for (%s B = ((%s) blockIdx.x * %u + (%s) threadIdx.x) * %u; B < %" G_GINT64_FORMAT "; B += (%s) gridDim.x * %u)", ity, ity,
                   blk, ity, k->vec, N, ity, blk * k->vec);
      _wb_cg_line (k, "{");
    }
  else
    {
      /* vector Q of the walk: warp w = Q / 32 takes rows (w / S) R .. + R - 1, vectors (w % S) lanes .. + lanes - 1 of
       * each (S = the row's vectors / lanes), lane l of it row + l / lanes, vector + l % lanes */
      gint64 nv = first->shape[u] / k->vec, s = nv / lanes;
      guint  rows = 32 / lanes;
      _wb_cg_line (k, "for (%s Q = (%s) blockIdx.x * %u + (%s) threadIdx.x; Q < %" G_GINT64_FORMAT "; Q += (%s) gridDim.x * %u)", ity, ity, blk, ity,
                   N / k->vec, ity, blk);
      _wb_cg_line (k, "{");
      _wb_cg_line (k, "  /* warps of %u rows x %u vectors: the lanes of a warp inside one run of its branches */", rows, lanes);
      _wb_cg_line (k, "  const %s B = ((Q / %" G_GINT64_FORMAT ") * %" G_GINT64_FORMAT " + ((Q %% 32) / %u) * %" G_GINT64_FORMAT " + ((Q / 32) %% %" G_GINT64_FORMAT ") * %u + (Q %% %u)) * %u;",
                   ity, 32 * s, (gint64) rows * nv, lanes, nv, s, lanes, lanes, k->vec);
    }
  g_string_append (k->body, inner->str);
  g_string_free (inner, TRUE);
  _wb_cg_line (k, "}");
  return ok;
}

/* One pointwise kernel computing @outs (Val*, all of one shape) into their buffers. */
static gboolean
emit_pointwise_kernel (Gen *g, GPtrArray *outs, const char *ity, GError **error)
{
  Val     *first = outs->pdata[0];
  gint64   N = _wb_cg_numel_of (first->rank, first->shape);
  int      u = _wb_cg_innermost_dim (first->rank, first->shape);
  Kern    *k = _wb_cg_kern_new (g, ity);
  Idx      ix = { 0 };
  guint   *writes = g_new (guint, outs->len);
  GString *what = g_string_new (NULL);
  GString *shape = g_string_new ("[");
  gint64   items = N;
  guint    vec, lanes = 32;
  gboolean ok = FALSE;
  Val     *tv, *tin = NULL;
  guint    blk;
  char    *prologue = NULL;

  for (guint i = 0; i < outs->len; i++)
    {
      Val *v = outs->pdata[i];
      v->buffer = _wb_cg_add_buffer (g, v);
      writes[i] = g->n_inputs + (guint) v->buffer;
    }
  /* the group's own outputs are computed, never loaded: another thread may not have written them yet */
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = -1;
  if ((tv = _wb_cg_partial_table (g, outs, &tin)) != NULL && !_wb_cg_partial_table_begin (g, k, tv, tin, error))
    goto out;
  if (k->block == 0 && g->opt.pointwise_block >= 32 && g->opt.pointwise_block <= 1024 && g->opt.pointwise_block % 32 == 0)
    k->block = g->opt.pointwise_block;
  blk = k->block ? k->block : WB_CUDA_BLOCK;
  _wb_cg_line (k, "for (%s L = (%s) blockIdx.x * %u + threadIdx.x; L < %" G_GINT64_FORMAT "; L += (%s) gridDim.x * %u)", ity, ity, blk, N,
               ity, blk);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "L", first->rank, first->shape, &ix);
  for (guint i = 0; i < outs->len; i++)
    {
      Val        *v = outs->pdata[i];
      const char *x = _wb_cg_emit (k, v, &ix, error);
      if (x == NULL)
        goto out;
      _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", writes[i]), "L", x, v->dtype));
    }
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");

  /* the vector variant */
  for (guint i = 0; i < outs->len; i++)
    {
      guint bytes = (guint) wb_dtype_size (((Val *) outs->pdata[i])->dtype);
      if (k->min_bytes == 0 || bytes < k->min_bytes)
        k->min_bytes = bytes;
    }
  if ((vec = _wb_cg_vec_width (k, u < 0 ? 0 : first->shape[u])) > 0)
    {
      GString *scalar = _wb_cg_vec_begin (k, vec);
      if (!emit_vector_loop (k, outs, writes, N, &lanes, error))
        {
          g_string_free (scalar, TRUE);
          goto out;
        }
      _wb_cg_vec_end (k, scalar);
      items = N / vec;
    }
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = (int) (writes[i] - g->n_inputs);
  for (guint d = 0; d < first->rank; d++)
    g_string_append_printf (shape, "%s%" G_GINT64_FORMAT, d ? ", " : "", first->shape[d]);
  g_string_append_c (shape, ']');
  g_string_printf (what, "pointwise over %s: %u output%s", shape->str, outs->len, outs->len == 1 ? "" : "s");
  if (vec > 0)
    g_string_append_printf (what, "; vector: %u per thread when aligned", vec);
  if (vec > 0 && lanes < 32)
    g_string_append_printf (what, ", warps of %u rows x %u vectors", 32 / lanes, lanes);
  if (tv != NULL)
    prologue = _wb_cg_partial_table_end (k, what);
  _wb_cg_finish_kernel (g, k, what->str, MIN (_wb_cg_grid_for (items, blk), tv != NULL ? WB_CG_SMS : WB_CG_POINTWISE_BLOCKS), N * outs->len, writes,
                        outs->len, prologue ? prologue : k->decls ? k->decls->str
                                                                  : NULL);
  ok = TRUE;

out:
  if (!ok)
    for (guint i = 0; i < outs->len; i++)
      ((Val *) outs->pdata[i])->buffer = (int) (writes[i] - g->n_inputs);
  _wb_cg_kern_free (k);
  g_free (writes);
  g_free (prologue);
  g_string_free (what, TRUE);
  g_string_free (shape, TRUE);
  return ok;
}

gboolean
_wb_cg_emit_pointwise (Gen *g, GPtrArray *outs, const char *ity, GError **error)
{
  Val *in = _wb_cg_table_input (g, outs);

  return in != NULL ? _wb_cg_emit_table (g, outs, in, ity, error) : emit_pointwise_kernel (g, outs, ity, error);
}
