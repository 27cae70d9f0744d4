/* wb-cuda-codegen-reduce.c — the code generator's kernels: assembly, reductions, the pointwise kernel
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

/* -- kernel assembly ------------------------------------------------------------------------ */

static guint
grid_for (gint64 items, gint64 per_block)
{
  gint64 b = (items + per_block - 1) / per_block;

  return (guint) CLAMP (b, 0, 65536);
}

/* Appends kernel @k to the plan as wb_k<i>; @writes: slots it writes. */
static void
finish_kernel (Gen *g, Kern *k, const char *what, guint grid, gint64 elements, const guint *writes, guint n_writes, const char *prologue)
{
  WbCudaKernel kr = { 0 };
  guint        idx = g->kernels->len;

  kr.entry = g_strdup_printf ("wb_k%u", idx);
  kr.what = g_strdup (what);
  kr.grid = grid;
  kr.elements = elements;
  for (guint i = 0; i < n_writes; i++)
    (void) _wb_cg_param (k, writes[i]);
  kr.n_params = k->params->len;
  kr.params = g_memdup2 (k->params->data, sizeof (guint) * k->params->len);
  g_string_append_printf (g->source, "// %s\nextern \"C\" __global__ void __launch_bounds__ (%d)\n%s (", what, WB_CUDA_BLOCK, kr.entry);
  for (guint i = 0; i < k->params->len; i++)
    {
      guint    slot = g_array_index (k->params, guint, i);
      gboolean w = FALSE;
      WbDtype  dt;
      for (guint j = 0; j < n_writes; j++)
        w |= writes[j] == slot;
      if (slot < g->n_inputs)
        {
          Val *in = NULL;
          for (guint j = 0; j < g->vals->len && in == NULL; j++)
            {
              Val *x = g->vals->pdata[j];
              if (x && x->input == (int) slot)
                in = x;
            }
          dt = in->dtype;
        }
      else
        dt = g_array_index (g->buffers, WbCudaBuffer, slot - g->n_inputs).dtype;
      g_string_append_printf (g->source, "%s%s%s *__restrict__ p%u", i ? ", " : "", w ? "" : "const ", wb_cuda_storage_ctype (dt), slot);
    }
  g_string_append (g->source, ")\n{\n");
  if (prologue)
    g_string_append (g->source, prologue);
  g_string_append (g->source, k->body->str);
  g_string_append (g->source, "}\n\n");
  g_array_append_val (g->kernels, kr);
}

static int
add_buffer (Gen *g, Val *v)
{
  WbCudaBuffer b = { 0 };

  b.dtype = v->dtype;
  b.rank = v->rank;
  memcpy (b.shape, v->shape, sizeof (gint64) * v->rank);
  b.numel = _wb_cg_numel_of (v->rank, v->shape);
  g_array_append_val (g->buffers, b);
  return (int) g->buffers->len - 1;
}

static const char *
combine_expr (Gen *g, const char *op, Cls c, const char *a, const char *b)
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

static const char *
init_expr (const char *op, Cls c)
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

/* Reduces @acc across the T threads of an output group (every thread of the block calls this). */
static void
group_reduce (Kern *k, const char *acc, const char *ctype, const char *combine_op, Cls c, int T)
{
  if (T == 1)
    return;
  if (T <= 32)
    {
      _wb_cg_line (k, "for (int m = %d; m > 0; m >>= 1)", T / 2);
      _wb_cg_line (k, "  %s = %s;", acc, combine_expr (k->g, combine_op, c, acc, _wb_cg_gstr (k->g, "__shfl_xor_sync (0xffffffffu, %s, m)", acc)));
      return;
    }
  _wb_cg_line (k, "wb_sm[threadIdx.x] = %s;", acc);
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "for (int m = %d; m > 0; m >>= 1)", T / 2);
  _wb_cg_line (k, "{");
  _wb_cg_line (k, "  if (lane < m)");
  _wb_cg_line (k, "    wb_sm[threadIdx.x] = %s;", combine_expr (k->g, combine_op, c, "wb_sm[threadIdx.x]", "wb_sm[threadIdx.x + m]"));
  _wb_cg_line (k, "  __syncthreads ();");
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "%s = wb_sm[threadIdx.x - lane];", acc);
  _wb_cg_line (k, "__syncthreads ();");
  (void) ctype;
}

/* One loop over the reduced index space accumulating f(x) into @acc; @sq_mean: accumulate (x - mean)^2. */
static gboolean
reduction_loop_range (Kern *k, Val *a, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, const char *r_start, const char *r_end, int step, const char *acc, const char *op, Cls c, const char *sq_mean, GError **error)
{
  Idx         kx = { 0 }, rx = { 0 }, ax = { 0 };
  const char *x;
  guint       ki = 0, ri = 0;

  _wb_cg_line (k, "if (ok)");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "o", n_kept, kept_shape, &kx);
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
  x = _wb_cg_emit (k, a, &ax, error);
  if (x == NULL)
    return FALSE;
  x = _wb_cg_cast_cls (k->g, x, _wb_cg_dtype_cls (a->dtype), c);
  if (sq_mean)
    {
      const char *dlt = _wb_cg_new_var (k, _wb_cg_cls_ctype (c), _wb_cg_gstr (k->g, "%s - %s", x, sq_mean));
      _wb_cg_line (k, "%s += %s * %s;", acc, dlt, dlt);
    }
  else
    _wb_cg_line (k, "%s = %s;", acc, combine_expr (k->g, op, c, acc, x));
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  return TRUE;
}

static gboolean
reduction_loop (Kern *k, Val *a, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, int T, const char *acc, const char *op, Cls c, const char *sq_mean, GError **error)
{
  const char *end = _wb_cg_gstr (k->g, "%" G_GINT64_FORMAT, _wb_cg_numel_of (n_red, red_shape));

  return reduction_loop_range (k, a, red, kept_shape, n_kept, red_shape, n_red, T == 1 ? "0" : "lane", end, T, acc, op, c, sq_mean, error);
}

/* Column reductions (the innermost dim kept, few outputs, a long reduced range: the bias and norm-weight
 * gradients, sum over [tokens, features] -> [features]). One thread per output would leave most of the
 * device idle (768 outputs = 3 blocks walking 8192 rows each), so two kernels: blocks of 32 adjacent outputs
 * (coalesced reads) x 8 row lanes, the reduced range split into S slices across blocks, partial results in
 * a scratch buffer [S, NO] of the accumulator type; then one thread per output combines its S partials in
 * slice order (deterministic: no atomics). */
#define COL_W 32
#define COL_R (WB_CUDA_BLOCK / COL_W)

static gboolean
emit_column_reduction (Gen *g, Node *n, const char *ity, Val *a, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, gint64 NO, gint64 K, Cls c, GError **error)
{
  const char      *ctype = _wb_cg_cls_ctype (c);
  gint64           col_blocks = (NO + COL_W - 1) / COL_W;
  gint64           S = MAX ((gint64) 1, MIN ((4 * 132 + col_blocks - 1) / col_blocks, K / (COL_R * 16)));
  gint64           Kc = (K + S - 1) / S;
  WbCudaBuffer     pb = { 0 };
  guint            pslot, writes[2];
  const char      *pname;
  Kern            *k;
  g_autofree char *what = NULL;
  g_autofree char *prologue = NULL;

  pb.dtype = c == CLS_F ? WB_DTYPE_FLOAT32 : c == CLS_D ? WB_DTYPE_FLOAT64
                                                        : WB_DTYPE_INT64;
  pb.rank = 2;
  pb.shape[0] = S;
  pb.shape[1] = NO;
  pb.numel = S * NO;
  g_array_append_val (g->buffers, pb);
  pslot = g->n_inputs + g->buffers->len - 1;

  /* kernel 1: partials */
  k = _wb_cg_kern_new (g, ity);
  pname = _wb_cg_param (k, pslot);
  _wb_cg_line (k, "for (%s bid = blockIdx.x; bid < %" G_GINT64_FORMAT "; bid += gridDim.x)", ity, col_blocks * S);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const %s s = bid / %" G_GINT64_FORMAT ";", ity, col_blocks);
  _wb_cg_line (k, "const %s o = (bid %% %" G_GINT64_FORMAT ") * %d + (%s) (threadIdx.x %% %d);", ity, col_blocks, COL_W, ity, COL_W);
  _wb_cg_line (k, "const bool ok = o < %" G_GINT64_FORMAT ";", NO);
  _wb_cg_line (k, "const %s r0 = s * %" G_GINT64_FORMAT " + (%s) (threadIdx.x / %d);", ity, Kc, ity, COL_W);
  _wb_cg_line (k, "const %s r1 = s * %" G_GINT64_FORMAT " + %" G_GINT64_FORMAT " < %" G_GINT64_FORMAT " ? s * %" G_GINT64_FORMAT " + %" G_GINT64_FORMAT " : %" G_GINT64_FORMAT ";",
               ity, Kc, Kc, K, Kc, Kc, K);
  _wb_cg_line (k, "%s acc = %s;", ctype, init_expr (n->op, c));
  if (!reduction_loop_range (k, a, red, kept_shape, n_kept, red_shape, n_red, "r0", "r1", COL_R, "acc", n->op, c, NULL, error))
    {
      _wb_cg_kern_free (k);
      return FALSE;
    }
  _wb_cg_line (k, "wb_sm[threadIdx.x] = acc;");
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "if (threadIdx.x < %d)", COL_W);
  _wb_cg_line (k, "{");
  _wb_cg_line (k, "  for (int j = 1; j < %d; j++)", COL_R);
  _wb_cg_line (k, "    acc = %s;", combine_expr (g, n->op, c, "acc", _wb_cg_gstr (g, "wb_sm[threadIdx.x + %d * j]", COL_W)));
  _wb_cg_line (k, "  if (ok)");
  _wb_cg_line (k, "    %s[s * %" G_GINT64_FORMAT " + o] = acc;", pname, NO);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  what = g_strdup_printf ("%s over %u of %u dims of %s[%" G_GINT64_FORMAT " elements], partials: %" G_GINT64_FORMAT " outputs x %" G_GINT64_FORMAT
                          " slices of %" G_GINT64_FORMAT,
                          n->op, n_red, a->rank, wb_dtype_shortname (a->dtype), _wb_cg_numel_of (a->rank, a->shape), NO, S, Kc);
  prologue = g_strdup_printf ("  __shared__ %s wb_sm[%d];\n", ctype, WB_CUDA_BLOCK);
  writes[0] = pslot;
  finish_kernel (g, k, what, (guint) MIN (col_blocks * S, 65536), _wb_cg_numel_of (a->rank, a->shape), writes, 1, prologue);
  _wb_cg_kern_free (k);
  g_clear_pointer (&what, g_free);

  /* kernel 2: combine the slices in order, store */
  k = _wb_cg_kern_new (g, ity);
  pname = _wb_cg_param (k, pslot);
  for (guint i = 0; i < n->n_out; i++)
    {
      n->out[i]->buffer = add_buffer (g, n->out[i]);
      writes[i] = g->n_inputs + (guint) n->out[i]->buffer;
    }
  _wb_cg_line (k, "for (%s o = (%s) blockIdx.x * %d + threadIdx.x; o < %" G_GINT64_FORMAT "; o += (%s) gridDim.x * %d)", ity, ity, WB_CUDA_BLOCK, NO, ity,
               WB_CUDA_BLOCK);
  _wb_cg_line (k, "{");
  _wb_cg_line (k, "  %s acc = %s[o];", ctype, pname);
  _wb_cg_line (k, "  for (int s = 1; s < %" G_GINT64_FORMAT "; s++)", S);
  _wb_cg_line (k, "    acc = %s;", combine_expr (g, n->op, c, "acc", _wb_cg_gstr (g, "%s[(%s) s * %" G_GINT64_FORMAT " + o]", pname, ity, NO)));
  for (guint i = 0; i < n->n_out; i++)
    {
      Val        *out = n->out[i];
      const char *x = _wb_cg_normalize (g, _wb_cg_cast_cls (g, "acc", c, _wb_cg_dtype_cls (out->dtype)), out->dtype);
      _wb_cg_line (k, "  %s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", g->n_inputs + (guint) out->buffer), "o", x, out->dtype));
    }
  _wb_cg_line (k, "}");
  what = g_strdup_printf ("%s: combines %" G_GINT64_FORMAT " partials of each of %" G_GINT64_FORMAT " outputs", n->op, S, NO);
  finish_kernel (g, k, what, grid_for (NO, WB_CUDA_BLOCK), NO * S, writes, n->n_out, NULL);
  _wb_cg_kern_free (k);
  n->done = TRUE;
  return TRUE;
}

gboolean
_wb_cg_emit_reduction (Gen *g, Node *n, const char *ity, GError **error)
{
  Val             *a = _wb_cg_operand (g, n->arg[0]);
  gint64           dims[WB_MAX_RANK];
  guint            nd = 0;
  gboolean         red[WB_MAX_RANK] = { FALSE };
  gint64           kept_shape[WB_MAX_RANK], red_shape[WB_MAX_RANK];
  guint            n_kept = 0, n_red = 0;
  gint64           NO, K;
  int              T = 1;
  Cls              c;
  const char      *ctype;
  Kern            *k;
  gboolean         is_var = strcmp (n->op, "var") == 0 || strcmp (n->op, "var_mean") == 0 || strcmp (n->op, "std") == 0;
  double           correction = 0;
  guint            writes[2];
  g_autofree char *what = NULL;
  g_autofree char *prologue = NULL;
  const char      *combine_op = is_var ? "sum" : n->op;

  if (a == NULL || !a->is_tensor || !_wb_cg_get_ints (n->arg[1], dims, WB_MAX_RANK, &nd))
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: arguments of a form the generator does not handle", n->op);
  if (is_var)
    {
      Val *cv = n->n_arg > 2 ? _wb_cg_number_of (g, n->arg[2]) : NULL;
      if (cv == NULL)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s: correction is not a number", n->op);
      correction = cv->is_float ? cv->f : (double) cv->i;
    }
  for (guint i = 0; i < nd; i++)
    {
      gint64 d = dims[i] < 0 ? dims[i] + a->rank : dims[i];
      if (d < 0 || d >= a->rank)
        return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_BAD_REGION, "prims.%s: dim %" G_GINT64_FORMAT " out of range", n->op, dims[i]);
      red[d] = TRUE;
    }
  for (guint d = 0; d < a->rank; d++)
    {
      if (red[d])
        red_shape[n_red++] = a->shape[d];
      else
        kept_shape[n_kept++] = a->shape[d];
    }
  NO = _wb_cg_numel_of (n_kept, kept_shape);
  K = _wb_cg_numel_of (n_red, red_shape);
  c = _wb_cg_dtype_cls (a->dtype);
  if (is_var && c == CLS_I)
    return _wb_cg_fail (error, WB_CUDA_CODEGEN_ERROR_UNSUPPORTED, "prims.%s of integers", n->op);
  ctype = _wb_cg_cls_ctype (c);
  /* the innermost dim reduced: a group of T threads cooperates on one output; otherwise one thread
   * per output walks the reduced dims (adjacent threads read adjacent elements) */
  if (a->rank > 0 && red[a->rank - 1])
    while (T < WB_CUDA_BLOCK && T < K)
      T *= 2;

  if (T == 1 && !is_var && K >= 4 * COL_R * 16 && grid_for (NO, WB_CUDA_BLOCK) < 132 && g_getenv ("WB_CUDA_NO_COLUMN_SPLIT") == NULL)
    return emit_column_reduction (g, n, ity, a, red, kept_shape, n_kept, red_shape, n_red, NO, K, c, error);

  k = _wb_cg_kern_new (g, ity);
  for (guint i = 0; i < n->n_out; i++)
    {
      n->out[i]->buffer = add_buffer (g, n->out[i]);
      writes[i] = g->n_inputs + (guint) n->out[i]->buffer;
    }
  _wb_cg_line (k, "const int T = %d, OPB = %d;", T, WB_CUDA_BLOCK / T);
  _wb_cg_line (k, "const int lane = threadIdx.x %% T;");
  _wb_cg_line (k, "(void) lane;");
  _wb_cg_line (k, "for (%s ob = (%s) blockIdx.x * OPB; ob < %" G_GINT64_FORMAT "; ob += (%s) gridDim.x * OPB)", ity, ity, NO, ity);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const %s o = ob + (%s) (threadIdx.x / T);", ity, ity);
  _wb_cg_line (k, "const bool ok = o < %" G_GINT64_FORMAT ";", NO);
  _wb_cg_line (k, "%s acc = %s;", ctype, is_var ? init_expr ("sum", c) : init_expr (n->op, c));
  if (!reduction_loop (k, a, red, kept_shape, n_kept, red_shape, n_red, T, "acc", combine_op, c, NULL, error))
    goto fail;
  group_reduce (k, "acc", ctype, combine_op, c, T);
  if (is_var)
    {
      _wb_cg_line (k, "const %s mean = acc / (%s) %" G_GINT64_FORMAT ";", ctype, ctype, K);
      _wb_cg_line (k, "%s m2 = %s;", ctype, init_expr ("sum", c));
      if (!reduction_loop (k, a, red, kept_shape, n_kept, red_shape, n_red, T, "m2", "sum", c, "mean", error))
        goto fail;
      group_reduce (k, "m2", ctype, "sum", c, T);
      {
        double den = MAX ((double) K - correction, 0.0);
        char   buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd (buf, sizeof buf, "%.17g", den);
        _wb_cg_line (k, "%s var = m2 / (%s) %s;", ctype, ctype, buf);
      }
      if (strcmp (n->op, "std") == 0)
        _wb_cg_line (k, "var = %s (var);", c == CLS_F ? "sqrtf" : "sqrt");
    }
  _wb_cg_line (k, "if (ok && lane == 0)");
  _wb_cg_line (k, "{");
  for (guint i = 0; i < n->n_out; i++)
    {
      Val        *out = n->out[i];
      const char *src = is_var ? (i == 0 ? "var" : "mean") : "acc";
      const char *x = _wb_cg_normalize (g, _wb_cg_cast_cls (g, src, c, _wb_cg_dtype_cls (out->dtype)), out->dtype);
      _wb_cg_line (k, "  %s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", g->n_inputs + (guint) out->buffer), "o", x, out->dtype));
    }
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  what = g_strdup_printf ("%s over %u of %u dims of %s[%" G_GINT64_FORMAT " elements]: %" G_GINT64_FORMAT " outputs, %d threads each",
                          n->op, n_red, a->rank, wb_dtype_shortname (a->dtype), _wb_cg_numel_of (a->rank, a->shape), NO, T);
  if (T > 32)
    prologue = g_strdup_printf ("  __shared__ %s wb_sm[%d];\n", ctype, WB_CUDA_BLOCK);
  finish_kernel (g, k, what, grid_for (NO, WB_CUDA_BLOCK / T), _wb_cg_numel_of (a->rank, a->shape), writes, n->n_out, prologue);
  _wb_cg_kern_free (k);
  n->done = TRUE;
  return TRUE;

fail:
  _wb_cg_kern_free (k);
  return FALSE;
}

/* One pointwise kernel computing @outs (Val*, all of one shape) into their buffers. */
gboolean
_wb_cg_emit_pointwise (Gen *g, GPtrArray *outs, const char *ity, GError **error)
{
  Val     *first = outs->pdata[0];
  gint64   N = _wb_cg_numel_of (first->rank, first->shape);
  Kern    *k = _wb_cg_kern_new (g, ity);
  Idx      ix = { 0 };
  guint   *writes = g_new (guint, outs->len);
  GString *what = g_string_new (NULL);
  char    *shape = NULL;

  for (guint i = 0; i < outs->len; i++)
    {
      Val *v = outs->pdata[i];
      v->buffer = add_buffer (g, v);
      writes[i] = g->n_inputs + (guint) v->buffer;
    }
  _wb_cg_line (k, "for (%s L = (%s) blockIdx.x * %d + threadIdx.x; L < %" G_GINT64_FORMAT "; L += (%s) gridDim.x * %d)", ity, ity,
               WB_CUDA_BLOCK, N, ity, WB_CUDA_BLOCK);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "L", first->rank, first->shape, &ix);
  /* the group's own outputs are computed, never loaded: another thread may not have written them yet */
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = -1;
  for (guint i = 0; i < outs->len; i++)
    {
      Val        *v = outs->pdata[i];
      const char *x = _wb_cg_emit (k, v, &ix, error);
      if (x == NULL)
        {
          _wb_cg_kern_free (k);
          g_free (writes);
          g_string_free (what, TRUE);
          return FALSE;
        }
      _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", writes[i]), "L", x, v->dtype));
    }
  for (guint i = 0; i < outs->len; i++)
    ((Val *) outs->pdata[i])->buffer = (int) (writes[i] - g->n_inputs);
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  {
    GString *s = g_string_new ("[");
    for (guint d = 0; d < first->rank; d++)
      g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", first->shape[d]);
    g_string_append_c (s, ']');
    shape = g_string_free (s, FALSE);
  }
  g_string_printf (what, "pointwise over %s: %u output%s", shape, outs->len, outs->len == 1 ? "" : "s");
  finish_kernel (g, k, what->str, grid_for (N, WB_CUDA_BLOCK), N * outs->len, writes, outs->len, NULL);
  _wb_cg_kern_free (k);
  g_free (writes);
  g_free (shape);
  g_string_free (what, TRUE);
  return TRUE;
}
