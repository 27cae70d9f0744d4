/* wb-cuda-codegen-accum.c — the reductions' building blocks: a reduction's layout, its accumulators, their
 * combines across a group of threads, the loops over the reduced space, the stores of the results
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every reduction kernel is made of (wb-cuda-codegen-reduce.c: the row kernel and one thread per output,
 * -column.c: the column kernel, -epilogue.c and -mix.c: the work a row kernel takes): which kernel a
 * reduction gets (_wb_cg_reduction_layout) and, for a column reduction, which values split into its rows and
 * columns (_wb_cg_column_split); the accumulators' identities and combines; a group of T threads combining
 * its accumulators by shuffles (and shared memory past a warp); the loop over the reduced index space, plain
 * or in lane order; a result's store. These call only the emitter and the kernel's text (-emit.c, -kern.c,
 * -graph.c), never the kernels that use them. */
#include "config.h"

#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

const char *
_wb_cg_combine_expr (Gen *g, const char *op, Cls c, const char *a, const char *b)
{
  const char *sfx = c == CLS_F ? "f" : c == CLS_D ? "d"
                                                  : "i";

  if (strcmp (op, "amax") == 0)
    return _wb_cg_gstr (g, "wb_max_%s (%s, %s)", sfx, a, b);
  if (strcmp (op, "amin") == 0)
    return _wb_cg_gstr (g, "wb_min_%s (%s, %s)", sfx, a, b);
  if (strcmp (op, "prod") == 0)
    return c == CLS_I ? _wb_cg_gstr (g, "(long long) ((unsigned long long) %s * (unsigned long long) %s)", a, b) : _wb_cg_gstr (g, "%s * %s", a, b);
  return c == CLS_I ? _wb_cg_gstr (g, "(long long) ((unsigned long long) %s + (unsigned long long) %s)", a, b) : _wb_cg_gstr (g, "%s + %s", a, b);
}

const char *
_wb_cg_init_expr (const char *op, Cls c)
{
  if (strcmp (op, "amax") == 0)
    return c == CLS_F ? "(-WB_INF_F)" : c == CLS_D ? "(-WB_INF_D)"
                                                   : "WB_I64_MIN";
  if (strcmp (op, "amin") == 0)
    return c == CLS_F ? "WB_INF_F" : c == CLS_D ? "WB_INF_D"
                                                : "WB_I64_MAX";
  if (strcmp (op, "prod") == 0)
    return c == CLS_F ? "1.0f" : c == CLS_D ? "1.0"
                                            : "1LL";
  return c == CLS_F ? "0.0f" : c == CLS_D ? "0.0"
                                          : "0LL";
}

void
_wb_cg_group_reduce (Kern *k, const char *acc, const char *ctype, const char *combine_op, Cls c, int T)
{
  if (T == 1)
    return;
  if (T <= 32)
    {
      _wb_cg_line (k, "for (int m = %d; m > 0; m >>= 1)", T / 2);
      _wb_cg_line (k, "  %s = %s;", acc, _wb_cg_combine_expr (k->g, combine_op, c, acc, _wb_cg_gstr (k->g, "__shfl_xor_sync (0xffffffffu, %s, m)", acc)));
      return;
    }
  /* each warp by shuffles, then the group's T / 32 warp results in warp order: two barriers, where a
   * tree in shared memory took one per halving (seven for T = 128) */
  _wb_cg_line (k, "for (int m = 16; m > 0; m >>= 1)");
  _wb_cg_line (k, "  %s = %s;", acc, _wb_cg_combine_expr (k->g, combine_op, c, acc, _wb_cg_gstr (k->g, "__shfl_xor_sync (0xffffffffu, %s, m)", acc)));
  _wb_cg_line (k, "if ((threadIdx.x & 31u) == 0)");
  _wb_cg_line (k, "  wb_sm[threadIdx.x / 32] = %s;", acc);
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "%s = wb_sm[(threadIdx.x - lane) / 32];", acc);
  _wb_cg_line (k, "for (int w = 1; w < %d; w++)", T / 32);
  _wb_cg_line (k, "  %s = %s;", acc, _wb_cg_combine_expr (k->g, combine_op, c, acc, "wb_sm[(threadIdx.x - lane) / 32 + w]"));
  _wb_cg_line (k, "__syncthreads ();");
  (void) ctype;
}

gboolean
_wb_cg_accumulate (Kern *k, const Acc *accs, guint n_acc, const Idx *ax, Cls c, const char *sq_mean, GError **error)
{
  for (guint i = 0; i < n_acc; i++)
    {
      const char *x = _wb_cg_emit (k, accs[i].a, ax, error);
      if (x == NULL)
        return FALSE;
      x = _wb_cg_cast_cls (k->g, x, _wb_cg_dtype_cls (accs[i].a->dtype), c);
      if (sq_mean)
        {
          const char *dlt = _wb_cg_new_var (k, _wb_cg_cls_ctype (c), _wb_cg_gstr (k->g, "%s - %s", x, sq_mean));
          _wb_cg_line (k, "%s += %s * %s;", accs[i].acc, dlt, dlt);
        }
      else
        _wb_cg_line (k, "%s = %s;", accs[i].acc, _wb_cg_combine_expr (k->g, accs[i].op, c, accs[i].acc, x));
    }
  return TRUE;
}

/* One loop over the reduced index space accumulating into @accs (operands of one shape). */
gboolean
_wb_cg_reduction_loop_range (Kern *k, const Acc *accs, guint n_acc, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, const char *r_start, const char *r_end, int step, Cls c, const char *sq_mean, GError **error)
{
  Idx   kx = { 0 }, rx = { 0 }, ax = { 0 };
  Val  *a = accs[0].a;
  guint ki = 0, ri = 0;

  _wb_cg_line (k, "if (ok)");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "o", n_kept, kept_shape, &kx);
  /* unrolled: several loads in flight per thread; the sum is still taken in order */
  _wb_cg_line (k, "#pragma unroll 4");
  _wb_cg_line (k, "for (%s r = %s; r < %s; r += %d)", k->ity, r_start, r_end, step);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "r", n_red, red_shape, &rx);
  ax.rank = a->rank;
  for (guint d = 0; d < a->rank; d++)
    ax.e[d] = red[d] ? rx.e[ri++] : kx.e[ki++];
  ax.lin = NULL;
  if (n_kept == 0 || _wb_cg_numel_of (n_kept, kept_shape) == 1)
    ax.lin = rx.lin; /* everything reduced: r walks a in order */
  if (!_wb_cg_accumulate (k, accs, n_acc, &ax, c, sq_mean, error))
    return FALSE;
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return TRUE;
}

void
_wb_cg_open_row_lanes (Kern *k, guint n_kept, const gint64 *kept_shape, guint n_red, const gint64 *red_shape, int T, guint V, gint64 steps, Idx *kx)
{
  _wb_cg_line (k, "if (ok)");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "o", n_kept, kept_shape, kx);
  for (guint d = 0; d < n_kept; d++)
    kx->lane[d] = LANE_SAME;
  if (steps > 0)
    {
      _wb_cg_line (k, "#pragma unroll");
      _wb_cg_line (k, "for (int st = 0; st < %" G_GINT64_FORMAT "; st++)", steps);
      _wb_cg_line (k, "{");
      _wb_cg_open_block (k);
      _wb_cg_line (k, "const %s r0 = (%s) lane * %u + (%s) st * %d;", k->ity, k->ity, V, k->ity, T * (int) V);
      return;
    }
  _wb_cg_line (k, "for (%s r0 = (%s) lane * %u; r0 < %" G_GINT64_FORMAT "; r0 += %u)", k->ity, k->ity, V, _wb_cg_numel_of (n_red, red_shape), T * V);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
}

void
_wb_cg_close_row_lanes (Kern *k)
{
  k->lane = 0;
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
}

const char *
_wb_cg_result_expr (Gen *g, const Val *out, Cls c, const char *src)
{
  return _wb_cg_normalize (g, _wb_cg_cast_cls (g, src, c, _wb_cg_dtype_cls (out->dtype)), out->dtype);
}

void
_wb_cg_store_result (Kern *k, const Val *out, Cls c, const char *src, const char *at)
{
  Gen        *g = k->g;
  const char *x = _wb_cg_result_expr (g, out, c, src);

  _wb_cg_line (k, "  %s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", g->n_inputs + (guint) out->buffer), at, x, out->dtype));
}

void
_wb_cg_add_output_buffers (Gen *g, Node *const *nodes, guint nn, GArray *writes)
{
  for (guint j = 0; j < nn; j++)
    for (guint i = 0; i < nodes[j]->n_out; i++)
      {
        guint slot;
        if (nodes[j]->out[i]->buffer < 0)
          nodes[j]->out[i]->buffer = _wb_cg_add_buffer (g, nodes[j]->out[i]);
        slot = g->n_inputs + (guint) nodes[j]->out[i]->buffer;
        g_array_append_val (writes, slot);
      }
}

/* " and N siblings" for a kernel of @nn reductions, else "" */
const char *
_wb_cg_siblings_text (Gen *g, guint nn)
{
  return nn > 1 ? _wb_cg_gstr (g, " and %u sibling%s", nn - 1, nn > 2 ? "s" : "") : "";
}

gboolean
_wb_cg_reduction_layout (Gen *g, Node *n, WbCgReduction *out, GError **error)
{
  Val     *a = _wb_cg_operand (g, n->arg[0]);
  gint64   dims[WB_MAX_RANK];
  guint    nd = 0;
  gboolean trailing = TRUE, seen = FALSE, seen_kept = FALSE;

  memset (out, 0, sizeof *out);
  if (a == NULL || !a->is_tensor || !_wb_cg_get_ints (n->arg[1], dims, WB_MAX_RANK, &nd))
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: arguments of a form the generator does not handle", n->op);
  for (guint i = 0; i < nd; i++)
    {
      gint64 d = dims[i] < 0 ? dims[i] + a->rank : dims[i];
      if (d < 0 || d >= a->rank)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "prims.%s: dim %" G_GINT64_FORMAT " out of range", n->op, dims[i]);
      out->red[d] = TRUE;
    }
  out->a = a;
  out->is_var = strcmp (n->op, "var") == 0 || strcmp (n->op, "var_mean") == 0 || strcmp (n->op, "std") == 0;
  out->NO = out->K = 1;
  out->lead = TRUE;
  for (guint d = 0; d < a->rank; d++)
    {
      if (out->red[d])
        {
          out->K *= a->shape[d], seen |= a->shape[d] != 1;
          if (seen_kept && a->shape[d] != 1)
            out->lead = FALSE;
        }
      else
        {
          out->NO *= a->shape[d];
          seen_kept |= a->shape[d] != 1;
          if (seen && a->shape[d] != 1)
            trailing = FALSE; /* dims of extent 1 aside: element (o, r) is o * K + r */
        }
    }
  out->row = a->rank > 0 && out->red[a->rank - 1] && out->K > 1;
  out->column = !out->row && !out->is_var && out->K >= WB_CG_COLUMN_MIN_K && _wb_cg_grid_for (out->NO, WB_CUDA_BLOCK) < WB_CG_SMS &&
                !g->opt.no_column_split;
  out->takes_epilogue = out->row && trailing;
  return TRUE;
}

int
_wb_cg_column_split (const Val *v, const WbCgReduction *L)
{
  gint64 K = L->K, lead = 1;
  int    ua = -1, uv = -1;

  if (_wb_cg_numel_of (v->rank, v->shape) != _wb_cg_numel_of (L->a->rank, L->a->shape))
    return -1;
  for (int d = (int) L->a->rank - 1; d >= 0 && ua < 0; d--)
    if (L->a->shape[d] != 1)
      ua = d;
  for (int d = (int) v->rank - 1; d >= 0 && uv < 0; d--)
    if (v->shape[d] != 1)
      uv = d;
  if (ua < 0 || uv < 0 || v->shape[uv] != L->a->shape[ua])
    return -1;
  for (guint d = 0; d <= v->rank; d++)
    {
      if (lead == K)
        return (int) d;
      if (d == v->rank || lead > K)
        break;
      lead *= v->shape[d];
    }
  return -1;
}
