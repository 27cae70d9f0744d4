/* wb-cpu-nn.c — convolution (im2col + GEMM, and its transpose by col2im) and nll_loss_backward
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * convolution(a[N, Cin, *S], weight, bias, stride, padding, dilation, transposed, output_padding, groups)
 * for 1 to 3 spatial dims S. Not transposed: weight [Cout, Cin/groups, *K]; each (batch, group) unfolds
 * its input into columns [Cin/g * prod(K), prod(out)] and multiplies W_g by them with sgemm/dgemm.
 * Transposed: weight [Cin, Cout/groups, *K]; columns = W_g^T x_g, then scattered back (col2im).
 * f64 computes in f64; bf16/f16 compute in f32 and round once; bias is added in the compute dtype.
 *
 * kl_div: see op_kl_div; its vjp (kl_div_vjp, both gradients): see op_kl_div_vjp.
 *
 * nll_loss_backward(grad_output, input[N, C, ...] or [C], target, weight, reduction, ignore_index,
 * total_weight): zeros except grad[i, target_i] = -w[target_i] * g / total_weight ('mean'),
 * -w[target_i] * g ('sum') or -w[target_i] * g_i ('none'); ignored targets give 0. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

typedef struct
{
  gint64 in[3], k[3], out[3], stride[3], pad[3], dil[3];
} ConvGeom;

/* One im2col and one col2im per compute dtype (f32 for f32/bf16/f16, f64 for f64). */
#define WB_CONV_COLUMNS(T, SUF)                                                                                          \
  /* columns[c * K + kk, o] = x[c, o * stride - pad + kk * dil] (0 outside) */                                           \
  static void im2col_##SUF (const T *x, gint64 channels, const ConvGeom *g, T *col)                                      \
  {                                                                                                                      \
    gint64 ksize = g->k[0] * g->k[1] * g->k[2], osize = g->out[0] * g->out[1] * g->out[2];                               \
    for (gint64 c = 0; c < channels; c++)                                                                                \
      for (gint64 kk = 0; kk < ksize; kk++)                                                                              \
        {                                                                                                                \
          gint64 kd = kk / (g->k[1] * g->k[2]), kh = kk / g->k[2] % g->k[1], kw = kk % g->k[2];                          \
          T     *row = col + (c * ksize + kk) * osize;                                                                   \
          for (gint64 od = 0; od < g->out[0]; od++)                                                                      \
            {                                                                                                            \
              gint64 id = od * g->stride[0] - g->pad[0] + kd * g->dil[0];                                                \
              for (gint64 oh = 0; oh < g->out[1]; oh++)                                                                  \
                {                                                                                                        \
                  gint64 ih = oh * g->stride[1] - g->pad[1] + kh * g->dil[1];                                            \
                  T     *r = row + (od * g->out[1] + oh) * g->out[2];                                                    \
                  if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1])                                              \
                    {                                                                                                    \
                      memset (r, 0, (gsize) g->out[2] * sizeof (T));                                                     \
                      continue;                                                                                          \
                    }                                                                                                    \
                  for (gint64 ow = 0; ow < g->out[2]; ow++)                                                              \
                    {                                                                                                    \
                      gint64 iw = ow * g->stride[2] - g->pad[2] + kw * g->dil[2];                                        \
                      r[ow] = (iw < 0 || iw >= g->in[2]) ? 0 : x[((c * g->in[0] + id) * g->in[1] + ih) * g->in[2] + iw]; \
                    }                                                                                                    \
                }                                                                                                        \
            }                                                                                                            \
        }                                                                                                                \
  }                                                                                                                      \
  /* the adjoint of im2col: y[c, o * stride - pad + kk * dil] += columns[c * K + kk, o] */                               \
  static void col2im_##SUF (const T *col, gint64 channels, const ConvGeom *g, T *y)                                      \
  {                                                                                                                      \
    gint64 ksize = g->k[0] * g->k[1] * g->k[2], osize = g->out[0] * g->out[1] * g->out[2];                               \
    for (gint64 c = 0; c < channels; c++)                                                                                \
      for (gint64 kk = 0; kk < ksize; kk++)                                                                              \
        {                                                                                                                \
          gint64   kd = kk / (g->k[1] * g->k[2]), kh = kk / g->k[2] % g->k[1], kw = kk % g->k[2];                        \
          const T *row = col + (c * ksize + kk) * osize;                                                                 \
          for (gint64 od = 0; od < g->out[0]; od++)                                                                      \
            {                                                                                                            \
              gint64 id = od * g->stride[0] - g->pad[0] + kd * g->dil[0];                                                \
              if (id < 0 || id >= g->in[0])                                                                              \
                continue;                                                                                                \
              for (gint64 oh = 0; oh < g->out[1]; oh++)                                                                  \
                {                                                                                                        \
                  gint64 ih = oh * g->stride[1] - g->pad[1] + kh * g->dil[1];                                            \
                  if (ih < 0 || ih >= g->in[1])                                                                          \
                    continue;                                                                                            \
                  for (gint64 ow = 0; ow < g->out[2]; ow++)                                                              \
                    {                                                                                                    \
                      gint64 iw = ow * g->stride[2] - g->pad[2] + kw * g->dil[2];                                        \
                      if (iw >= 0 && iw < g->in[2])                                                                      \
                        y[((c * g->in[0] + id) * g->in[1] + ih) * g->in[2] + iw] +=                                      \
                            row[(od * g->out[1] + oh) * g->out[2] + ow];                                                 \
                    }                                                                                                    \
                }                                                                                                        \
            }                                                                                                            \
        }                                                                                                                \
  }

WB_CONV_COLUMNS (float, f)
WB_CONV_COLUMNS (double, d)

/* acc[n, cout, *out] = conv(x, w) in the compute dtype of @acc (f32 or f64); x and w already in it. */
static void
conv_compute (WbTensor *xc, WbTensor *wc, WbTensor *acc, gboolean transposed, gint64 n, gint64 cin, gint64 cout, gint64 groups, const ConvGeom *g)
{
  gboolean         dbl = acc->dtype == WB_DTYPE_FLOAT64;
  gsize            es = dbl ? sizeof (double) : sizeof (float);
  gint64           cin_g = cin / groups, cout_g = cout / groups, ksize = g->k[0] * g->k[1] * g->k[2];
  gint64           isize = g->in[0] * g->in[1] * g->in[2], osize = g->out[0] * g->out[1] * g->out[2];
  ConvGeom         t = *g;
  g_autofree void *col = NULL;

  /* transposed: the geometry of the forward convolution whose input gradient this is (in <-> out) */
  memcpy (t.in, g->out, sizeof t.in);
  memcpy (t.out, g->in, sizeof t.out);
  col = g_malloc (es * (gsize) MAX ((transposed ? cout_g * isize : cin_g * osize) * ksize, 1));
  for (gint64 b = 0; b < n; b++)
    for (gint64 gr = 0; gr < groups; gr++)
      {
        const char *x = (const char *) wb_tensor_get_data (xc) + es * (gsize) ((b * cin + gr * cin_g) * isize);
        const char *wg = (const char *) wb_tensor_get_data (wc) + es * (gsize) (gr * cout_g * cin_g * ksize);
        char       *y = (char *) wb_tensor_get_data (acc) + es * (gsize) ((b * cout + gr * cout_g) * osize);
        if (!transposed && !dbl)
          {
            im2col_f ((const float *) x, cin_g, g, col);
            _wb_cpu_sgemm (FALSE, FALSE, cout_g, osize, cin_g * ksize, 1.0f, (const float *) wg, cin_g * ksize, col,
                           osize, 0.0f, (float *) y, osize);
          }
        else if (!transposed)
          {
            im2col_d ((const double *) x, cin_g, g, col);
            _wb_cpu_dgemm (FALSE, FALSE, cout_g, osize, cin_g * ksize, 1.0, (const double *) wg, cin_g * ksize, col,
                           osize, 0.0, (double *) y, osize);
          }
        /* col[cout_g * K, isize] = W_g^T [cout_g * K, cin_g] x_g [cin_g, isize], then scattered back */
        else if (!dbl)
          {
            _wb_cpu_sgemm (TRUE, FALSE, cout_g * ksize, isize, cin_g, 1.0f, (const float *) wg, cout_g * ksize,
                           (const float *) x, isize, 0.0f, col, isize);
            col2im_f (col, cout_g, &t, (float *) y);
          }
        else
          {
            _wb_cpu_dgemm (TRUE, FALSE, cout_g * ksize, isize, cin_g, 1.0, (const double *) wg, cout_g * ksize,
                           (const double *) x, isize, 0.0, col, isize);
            col2im_d (col, cout_g, &t, (double *) y);
          }
      }
}

static gboolean
spatial_arg (WbKernelCall *call, guint pos, const char *name, guint s, gint64 def, gint64 *out, GError **error)
{
  gint64     v[3];
  guint      n = 0;
  WbRtValue *x = wb_kernel_call_get_arg (call, pos, name);

  for (guint i = 0; i < 3; i++)
    out[i] = def;
  if (x == NULL || x->kind == WB_RT_NONE)
    return TRUE;
  if (!_wb_cpu_arg_ints (call, pos, name, TRUE, v, 3, &n, error))
    return FALSE;
  if (n != 1 && n != s)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "%s has %u entries for %u spatial dims", name, n, s);
      return FALSE;
    }
  for (guint i = 0; i < s; i++)
    out[3 - s + i] = n == 1 ? v[0] : v[i];
  return TRUE;
}

static WbTensor *
compute_copy (WbTensor *t, WbDtype cdt, GError **error)
{
  return cdt == WB_DTYPE_FLOAT64 ? _wb_cpu_to_f64 (t, error) : _wb_cpu_to_f32 (t, error);
}

static gboolean
op_convolution (WbKernelCall *call, GError **error)
{
  WbTensor *a, *w, *bias;
  gboolean  transposed;
  gint64    groups, n, cin, cout, cin_g, cout_g, out_pad[3], shape[WB_MAX_RANK];
  guint     s;
  ConvGeom  g;
  WbDtype   cdt;
  g_autoptr (WbTensor) xc = NULL;
  g_autoptr (WbTensor) wc = NULL;
  g_autoptr (WbTensor) acc = NULL;
  gint64    osize;
  WbTensor *out;

  if (!_wb_cpu_arg_tensor (call, 0, "a", &a, error) || !_wb_cpu_arg_tensor (call, 1, "weight", &w, error) ||
      !_wb_cpu_arg_tensor_opt (call, 2, "bias", &bias, error) ||
      !_wb_cpu_arg_bool (call, 6, "transposed", TRUE, FALSE, &transposed, error) ||
      !_wb_cpu_arg_int (call, 8, "groups", TRUE, 1, &groups, error))
    return FALSE;
  if (a->rank < 3 || a->rank > 5 || w->rank != a->rank || groups < 1)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "convolution supports [N, C, *spatial] inputs with 1-3 spatial dims (got rank %u)", a->rank);
      return FALSE;
    }
  s = a->rank - 2;
  if (!spatial_arg (call, 3, "stride", s, 1, g.stride, error) || !spatial_arg (call, 4, "padding", s, 0, g.pad, error) ||
      !spatial_arg (call, 5, "dilation", s, 1, g.dil, error) || !spatial_arg (call, 7, "output_padding", s, 0, out_pad, error))
    return FALSE;
  n = a->shape[0];
  cin = a->shape[1];
  cin_g = cin / groups;
  cout_g = transposed ? w->shape[1] : w->shape[0] / groups;
  cout = cout_g * groups;
  if (cin % groups != 0 || (transposed ? w->shape[0] != cin : w->shape[1] != cin_g) || (bias && bias->shape[0] != cout))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "convolution: channels, groups and weight do not fit");
      return FALSE;
    }
  for (guint i = 0; i < 3; i++)
    {
      guint    d = i + s - 3;
      gboolean real = i >= 3 - s;
      g.in[i] = real ? a->shape[2 + d] : 1;
      g.k[i] = real ? w->shape[2 + d] : 1;
      if (!transposed)
        g.out[i] = (g.in[i] + 2 * g.pad[i] - g.dil[i] * (g.k[i] - 1) - 1) / g.stride[i] + 1;
      else
        g.out[i] = (g.in[i] - 1) * g.stride[i] - 2 * g.pad[i] + g.dil[i] * (g.k[i] - 1) + out_pad[i] + 1;
      if (g.out[i] <= 0 || g.stride[i] < 1 || g.dil[i] < 1)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "convolution: empty or invalid output size");
          return FALSE;
        }
    }
  shape[0] = n;
  shape[1] = cout;
  for (guint i = 0; i < s; i++)
    shape[2 + i] = g.out[3 - s + i];
  cdt = a->dtype == WB_DTYPE_FLOAT64 ? WB_DTYPE_FLOAT64 : WB_DTYPE_FLOAT32;
  if ((xc = compute_copy (a, cdt, error)) == NULL || (wc = compute_copy (w, cdt, error)) == NULL ||
      (acc = wb_tensor_new_zeros (cdt, a->rank, shape, error)) == NULL)
    return FALSE;
  conv_compute (xc, wc, acc, transposed, n, cin, cout, groups, &g);
  osize = g.out[0] * g.out[1] * g.out[2];
  if (bias != NULL)
    {
      g_autoptr (WbTensor) bc = compute_copy (bias, cdt, error);
      if (bc == NULL)
        return FALSE;
      for (gint64 b = 0; b < n; b++)
        for (gint64 c = 0; c < cout; c++)
          for (gint64 o = 0; o < osize; o++)
            if (cdt == WB_DTYPE_FLOAT64)
              ((double *) wb_tensor_get_data (acc))[(b * cout + c) * osize + o] += ((const double *) wb_tensor_get_data (bc))[c];
            else
              ((float *) wb_tensor_get_data (acc))[(b * cout + c) * osize + o] += ((const float *) wb_tensor_get_data (bc))[c];
    }
  if (a->dtype == cdt)
    return _wb_cpu_set_result (call, g_steal_pointer (&acc));
  out = wb_tensor_to_dtype (acc, a->dtype, error);
  return out != NULL && _wb_cpu_set_result (call, out);
}

static gboolean
op_nll_loss_backward (WbKernelCall *call, GError **error)
{
  WbTensor   *go, *input, *target, *weight;
  WbRtValue  *red = wb_kernel_call_get_arg (call, 4, "reduction");
  gint64      ignore, nb, nc, nr;
  double      total;
  const char *reduction = red && red->kind == WB_RT_STRING ? red->s : "mean";
  g_autoptr (WbTensor) tc = NULL;
  g_autoptr (WbTensor) g64 = NULL;
  g_autoptr (WbTensor) w64 = NULL;
  g_autoptr (WbTensor) acc = NULL;
  WbTensor *out;

  if (!_wb_cpu_arg_tensor (call, 0, "grad_output", &go, error) || !_wb_cpu_arg_tensor (call, 1, "input", &input, error) ||
      !_wb_cpu_arg_tensor (call, 2, "target", &target, error) || !_wb_cpu_arg_tensor_opt (call, 3, "weight", &weight, error) ||
      !_wb_cpu_arg_int (call, 5, "ignore_index", TRUE, -100, &ignore, error) ||
      !_wb_cpu_arg_number (call, 6, "total_weight", TRUE, 1.0, &total, error))
    return FALSE;
  if (input->rank == 1)
    nb = 1, nc = input->shape[0], nr = 1;
  else
    nb = input->shape[0], nc = input->shape[1], nr = _wb_cpu_numel (input->rank - 2, input->shape + 2);
  if (wb_tensor_numel (target) != nb * nr || (weight && wb_tensor_numel (weight) != nc))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "nll_loss_backward: target or weight does not fit the input");
      return FALSE;
    }
  if ((tc = wb_tensor_to_dtype (target, WB_DTYPE_INT64, error)) == NULL ||
      (g64 = wb_tensor_to_dtype (go, WB_DTYPE_FLOAT64, error)) == NULL ||
      (weight && (w64 = wb_tensor_to_dtype (weight, WB_DTYPE_FLOAT64, error)) == NULL) ||
      (acc = wb_tensor_new_zeros (WB_DTYPE_FLOAT64, input->rank, input->shape, error)) == NULL)
    return FALSE;
  for (gint64 b = 0; b < nb; b++)
    for (gint64 r = 0; r < nr; r++)
      {
        gint64 t = ((const gint64 *) wb_tensor_get_data (tc))[b * nr + r];
        double wt, gv;
        if (t == ignore)
          continue;
        if (t < 0 || t >= nc)
          {
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                         "nll_loss_backward: target %" G_GINT64_FORMAT " is out of range for %" G_GINT64_FORMAT " classes", t, nc);
            return FALSE;
          }
        wt = w64 ? ((const double *) wb_tensor_get_data (w64))[t] : 1.0;
        if (g_strcmp0 (reduction, "none") == 0)
          gv = ((const double *) wb_tensor_get_data (g64))[b * nr + r];
        else
          gv = ((const double *) wb_tensor_get_data (g64))[0];
        if (g_strcmp0 (reduction, "mean") == 0)
          gv /= total;
        ((double *) wb_tensor_get_data (acc))[(b * nc + t) * nr + r] = -wt * gv;
      }
  out = wb_tensor_to_dtype (acc, input->dtype, error);
  return out != NULL && _wb_cpu_set_result (call, out);
}

/* kl_div (input, target, size_average, reduce, reduction='mean', log_target=False): pointwise
 * target * (log target - input), 0 where target is 0 (PyTorch's xlogy), or exp(target) * (target - input)
 * with log_target; then 'none', 'sum', 'mean' (over every element) or 'batchmean' (sum / input.shape[0]).
 * Accumulates in f64. */
static gboolean
op_kl_div (WbKernelCall *call, GError **error)
{
  WbTensor   *input, *target;
  WbRtValue  *red = wb_kernel_call_get_arg (call, 4, "reduction");
  const char *reduction = red && red->kind == WB_RT_STRING ? red->s : "mean";
  gboolean    log_target = FALSE;
  g_autoptr (WbTensor) x = NULL;
  g_autoptr (WbTensor) t = NULL;
  g_autoptr (WbTensor) acc = NULL;
  gint64    n;
  double    sum = 0, divisor;
  WbTensor *out;

  if (!_wb_cpu_arg_tensor (call, 0, "input", &input, error) || !_wb_cpu_arg_tensor (call, 1, "target", &target, error) ||
      !_wb_cpu_arg_bool (call, 5, "log_target", TRUE, FALSE, &log_target, error))
    return FALSE;
  if (input->rank != target->rank || memcmp (input->shape, target->shape, sizeof (gint64) * input->rank) != 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "kl_div: input and target shapes differ (broadcasting is not supported)");
      return FALSE;
    }
  if ((x = _wb_cpu_to_f64 (input, error)) == NULL || (t = _wb_cpu_to_f64 (target, error)) == NULL ||
      (acc = wb_tensor_new (WB_DTYPE_FLOAT64, input->rank, input->shape, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (input);
  for (gint64 i = 0; i < n; i++)
    {
      double xi = ((const double *) wb_tensor_get_data (x))[i], ti = ((const double *) wb_tensor_get_data (t))[i], v;
      if (log_target)
        v = exp (ti) * (ti - xi);
      else
        v = ti > 0 ? ti * (log (ti) - xi) : (ti == 0 ? 0.0 : NAN);
      ((double *) wb_tensor_get_data (acc))[i] = v;
      sum += v;
    }
  if ((divisor = _wb_kl_div_divisor (reduction, input)) < 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "kl_div: unknown reduction '%s'", reduction);
      return FALSE;
    }
  out = divisor == 0 ? wb_tensor_to_dtype (acc, input->dtype, error) : wb_tensor_new_scalar (input->dtype, sum / divisor);
  return out != NULL && _wb_cpu_set_result (call, out);
}

double
_wb_kl_div_divisor (const char *reduction, const WbTensor *input)
{
  if (g_strcmp0 (reduction, "none") == 0)
    return 0;
  if (g_strcmp0 (reduction, "sum") == 0)
    return 1;
  if (g_strcmp0 (reduction, "mean") == 0)
    return (double) MAX (wb_tensor_numel (input), 1);
  if (g_strcmp0 (reduction, "batchmean") == 0)
    return (double) MAX (input->rank > 0 ? input->shape[0] : 1, 1);
  return -1;
}

static gboolean
vjp_fail (GError **error, int code, const char *message)
{
  g_set_error (error, WB_EXECUTOR_ERROR, code, "kl_div_vjp: %s", message);
  return FALSE;
}

/* The keyword arguments kl_div's vjp saved: reduction and log_target, nothing else. */
static gboolean
kl_div_vjp_kwargs (const WbRtValue *kwargs, WbKlDivVjpArgs *out, GError **error)
{
  for (guint i = 0; i + 1 < kwargs->items->len; i += 2)
    {
      const WbRtValue *k = kwargs->items->pdata[i], *v = kwargs->items->pdata[i + 1];
      if (k->kind != WB_RT_STRING)
        return vjp_fail (error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "keyword names must be strings");
      if (strcmp (k->s, "reduction") == 0 && v->kind == WB_RT_STRING)
        out->reduction = v->s;
      else if (strcmp (k->s, "log_target") == 0 && v->kind == WB_RT_BOOL)
        out->log_target = v->b;
      else
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                       "kl_div_vjp: unsupported keyword argument '%s' of kl_div (reduction: a string, log_target: a bool)", k->s);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
_wb_kl_div_vjp_args (const WbKernelCall *call, WbKlDivVjpArgs *out, GError **error)
{
  const WbRtValue *saved = wb_kernel_call_get_arg (call, 0, "saved_for_backward"), *args, *kwargs, *g = wb_kernel_call_get_arg (call, 1, NULL);
  WbTensor        *x, *t;

  memset (out, 0, sizeof *out);
  out->reduction = "mean";
  if (saved == NULL || saved->kind != WB_RT_TUPLE || saved->items->len != 2 || (args = saved->items->pdata[0])->kind != WB_RT_TUPLE ||
      (kwargs = saved->items->pdata[1])->kind != WB_RT_DICT)
    return vjp_fail (error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "saved_for_backward must be ((input, target), {keyword arguments})");
  if (args->items->len != 2 || ((const WbRtValue *) args->items->pdata[0])->kind != WB_RT_TENSOR ||
      ((const WbRtValue *) args->items->pdata[1])->kind != WB_RT_TENSOR)
    return vjp_fail (error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "kl_div's positional arguments must be the tensors (input, target)");
  if (g == NULL || g->kind != WB_RT_TENSOR || call->n_args != 2)
    return vjp_fail (error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "takes one cotangent tensor");
  if (!kl_div_vjp_kwargs (kwargs, out, error))
    return FALSE;
  x = out->input = ((WbRtValue *) args->items->pdata[0])->tensor;
  t = out->target = ((WbRtValue *) args->items->pdata[1])->tensor;
  out->g = g->tensor;
  if (!wb_dtype_is_float (x->dtype) || !wb_dtype_is_float (t->dtype))
    return vjp_fail (error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "input and target must be floating point");
  if (x->rank != t->rank || memcmp (x->shape, t->shape, sizeof (gint64) * x->rank) != 0)
    return vjp_fail (error, WB_EXECUTOR_ERROR_UNSUPPORTED, "input and target shapes differ (broadcasting is not supported)");
  /* 'none' scales the elementwise cotangent by 1 */
  if ((out->divisor = _wb_kl_div_divisor (out->reduction, x)) < 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "kl_div_vjp: unknown reduction '%s'", out->reduction);
      return FALSE;
    }
  out->divisor = MAX (out->divisor, 1);
  if (strcmp (out->reduction, "none") == 0 ? out->g->rank != x->rank || memcmp (out->g->shape, x->shape, sizeof (gint64) * x->rank) != 0
                                           : wb_tensor_numel (out->g) != 1)
    return vjp_fail (error, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "the cotangent's shape is not the loss's");
  return TRUE;
}

/* kl_div_vjp: both gradients of kl_div at once, in f64, as PyTorch's autograd computes them (Thunder's vjp
 * is torch.autograd.functional.vjp). With h = g / divisor (g elementwise for 'none'):
 *   log_target False: grad_input = -target * h, grad_target = (log target + 1 - input) * h, NaN where
 *     target is 0 as in PyTorch (the xlogy(target, target) term's derivative target / target is 0 / 0)
 *   log_target True:  grad_input = -exp(target) * h, grad_target = exp(target) * (target - input + 1) * h */
static gboolean
op_kl_div_vjp (WbKernelCall *call, GError **error)
{
  WbKlDivVjpArgs a;
  g_autoptr (WbTensor) x = NULL;
  g_autoptr (WbTensor) t = NULL;
  g_autoptr (WbTensor) g = NULL;
  g_autoptr (WbTensor) gi = NULL;
  g_autoptr (WbTensor) gt = NULL;
  WbTensor *gi_out, *gt_out;
  gint64    n, g_step;

  if (!_wb_kl_div_vjp_args (call, &a, error))
    return FALSE;
  if ((x = _wb_cpu_to_f64 (a.input, error)) == NULL || (t = _wb_cpu_to_f64 (a.target, error)) == NULL || (g = _wb_cpu_to_f64 (a.g, error)) == NULL ||
      (gi = wb_tensor_new (WB_DTYPE_FLOAT64, x->rank, x->shape, error)) == NULL || (gt = wb_tensor_new (WB_DTYPE_FLOAT64, x->rank, x->shape, error)) == NULL)
    return FALSE;
  n = wb_tensor_numel (x);
  g_step = wb_tensor_numel (g) == n ? 1 : 0;
  for (gint64 i = 0; i < n; i++)
    {
      const double xi = ((const double *) wb_tensor_get_data (x))[i], ti = ((const double *) wb_tensor_get_data (t))[i];
      const double h = ((const double *) wb_tensor_get_data (g))[i * g_step] / a.divisor;
      double      *pi = (double *) wb_tensor_get_data (gi) + i, *pt = (double *) wb_tensor_get_data (gt) + i;
      if (a.log_target)
        {
          double e = exp (ti);
          *pi = -e * h;
          *pt = e * (ti - xi + 1) * h;
        }
      else
        {
          *pi = -ti * h;
          *pt = ti == 0 ? NAN : (log (ti) + 1 - xi) * h;
        }
    }
  if ((gi_out = wb_tensor_to_dtype (gi, a.input->dtype, error)) == NULL)
    return FALSE;
  if ((gt_out = wb_tensor_to_dtype (gt, a.target->dtype, error)) == NULL)
    {
      wb_tensor_unref (gi_out);
      return FALSE;
    }
  call->result = wb_rt_value_new_sequence (WB_RT_TUPLE);
  wb_rt_value_append (call->result, wb_rt_value_take_tensor (gi_out));
  wb_rt_value_append (call->result, wb_rt_value_take_tensor (gt_out));
  return TRUE;
}

gboolean
_wb_cpu_nn (WbKernelCall *call, int op, GError **error)
{
  switch (op)
    {
    case WB_NN_KL_DIV:
      return op_kl_div (call, error);
    case WB_NN_KL_DIV_VJP:
      return op_kl_div_vjp (call, error);
    case WB_NN_CONVOLUTION:
      return op_convolution (call, error);
    case WB_NN_NLL_LOSS_BACKWARD:
      return op_nll_loss_backward (call, error);
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}
