/* wb-meta-spatial.c — meta functions of the ops over an input's spatial dims: convolutions (forward and
 * transposed), max / average / adaptive pooling and their backward, batch / instance / group norm,
 * interpolate
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layouts are PyTorch's: input [N, C, d1..dk] (or unbatched [C, d1..dk] where PyTorch allows it),
 * convolution weight [Cout, Cin / groups, k1..kk] ([Cin, Cout / groups, k1..kk] when transposed).
 * Output sizes follow thunder/core/prims.py (convolution_meta), thunder/torch/__init__.py (_conv_helper,
 * the pooling and norm functions) and ATen's pooling_output_shape (aten/src/ATen/native/Pool.h), which
 * thunder/executors/torchex.py copies for max_pool2d_with_indices. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-meta-private.h"

#define MAXD (WB_MAX_RANK + 1)

/* The i-th of @n per-dim values of parameter @param: an int applies to every dim, a sequence of one
 * value too; None (or an empty sequence) gives @fallback, which may be -1 for "no default". */
static gboolean
per_dim (WbMetaCall *call, guint param, guint n, const gint64 *fallback, gint64 min_val, gint64 *out, GError **error)
{
  gint64 v[MAXD];
  guint  k = 0;

  if (!_wb_meta_arg_present (call, param) || (_wb_meta_value_ints (call, call->params[param], v, MAXD, &k, FALSE) && k == 0))
    {
      if (fallback == NULL)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "argument %u is required", param);
      memcpy (out, fallback, sizeof (gint64) * n);
      return TRUE;
    }
  if (!_wb_meta_arg_ints (call, param, v, MAXD, &k, TRUE, error))
    return FALSE;
  if (k != 1 && k != n)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected 1 or %u values for argument %u, got %u", n, param, k);
  for (guint i = 0; i < n; i++)
    {
      out[i] = v[k == 1 ? 0 : i];
      if (out[i] < min_val)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "value %" G_GINT64_FORMAT " is below %" G_GINT64_FORMAT,
                              out[i], min_val);
    }
  return TRUE;
}

/* Splits @a into leading (batch, channel) dims and @n spatial dims; @min_lead..2 leading dims allowed. */
static gboolean
spatial_input (WbMetaCall *call, const WbType *a, guint n, guint min_lead, GError **error)
{
  if (a->rank < n + min_lead || a->rank > n + 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected a %u-d or %u-d input, got rank %u", n + min_lead, n + 2,
                          a->rank);
  return TRUE;
}

/* ---- convolution -------------------------------------------------------------------------------- */

/* Output shape of a convolution of @a by @w with per-dim @stride, @padding, @dilation, @opad. */
static gboolean
conv_shape (WbMetaCall   *call,
            const WbType *a,
            const WbType *w,
            gboolean      transposed,
            gint64        groups,
            const gint64 *stride,
            const gint64 *padding,
            const gint64 *dilation,
            const gint64 *opad,
            gint64       *shape,
            GError      **error)
{
  guint  f = w->rank - 2, lead = a->rank - f, c = lead - 1;
  gint64 cin = transposed ? w->shape[0] : w->shape[1] * groups;

  if (w->rank < 3 || (a->rank != w->rank && a->rank != w->rank - 1) || groups <= 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input rank %u, weight rank %u, groups %" G_GINT64_FORMAT,
                          a->rank, w->rank, groups);
  if (a->dtype != w->dtype)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "input and weight have different dtypes (%s, %s)",
                          wb_dtype_shortname (a->dtype), wb_dtype_shortname (w->dtype));
  if (a->shape[c] != cin || (!transposed && w->shape[0] % groups != 0) || (transposed && w->shape[0] % groups != 0))
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%" G_GINT64_FORMAT " input channels do not match the weight and %" G_GINT64_FORMAT " groups",
                          a->shape[c], groups);
  memcpy (shape, a->shape, sizeof (gint64) * lead);
  shape[c] = transposed ? w->shape[1] * groups : w->shape[0];
  for (guint i = 0; i < f; i++)
    {
      gint64 in = a->shape[lead + i], dk = dilation[i] * (w->shape[i + 2] - 1) + 1;
      if (transposed)
        shape[lead + i] = (in - 1) * stride[i] - 2 * padding[i] + dk + opad[i];
      else if (in + 2 * padding[i] < dk)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "kernel larger than the padded input at dim %u", lead + i);
      else
        shape[lead + i] = (in + 2 * padding[i] - dk) / stride[i] + 1;
    }
  return TRUE;
}

/* prims.convolution and ltorch.convolution (a, weight, bias, stride, padding, dilation, transposed,
 * output_padding, groups). */
gboolean
_wb_meta_prim_convolution (WbMetaCall *call, GError **error)
{
  WbType a, w;
  gint64 groups, transposed, stride[MAXD], padding[MAXD], dilation[MAXD], opad[MAXD], shape[MAXD];
  guint  f;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &w, error) || !_wb_meta_arg_int (call, 6, &transposed, error) || !_wb_meta_arg_int (call, 8, &groups, error))
    return FALSE;
  if (w.rank < 3)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "weight rank %u is below 3", w.rank);
  f = w.rank - 2;
  if (!per_dim (call, 3, f, NULL, 1, stride, error) || !per_dim (call, 4, f, NULL, 0, padding, error) || !per_dim (call, 5, f, NULL, 1, dilation, error) || !per_dim (call, 7, f, NULL, 0, opad, error))
    return FALSE;
  if (!conv_shape (call, &a, &w, transposed != 0, groups, stride, padding, dilation, opad, shape, error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* ltorch.conv1d/2d/3d (a, weight, bias=None, stride=1, padding=0, dilation=1, groups=1); meta_arg is the
 * number of spatial dims; padding may be 'valid' or 'same'. */
gboolean
_wb_meta_conv_nd (WbMetaCall *call, GError **error)
{
  static const gint64 zeros[MAXD] = { 0 };
  WbType              a, w;
  guint               f = (guint) call->arg;
  gint64              groups = 1, stride[MAXD], padding[MAXD], dilation[MAXD], shape[MAXD];
  const char         *pad_mode = _wb_meta_arg_string (call, 4);

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_tensor (call, 1, &w, error))
    return FALSE;
  if (_wb_meta_arg_present (call, 6) && !_wb_meta_arg_int (call, 6, &groups, error))
    return FALSE;
  if (w.rank != f + 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected a %u-d weight, got rank %u", f + 2, w.rank);
  if (!per_dim (call, 3, f, NULL, 1, stride, error) || !per_dim (call, 5, f, NULL, 1, dilation, error))
    return FALSE;
  if (pad_mode != NULL && strcmp (pad_mode, "valid") == 0)
    memcpy (padding, zeros, sizeof padding);
  else if (pad_mode != NULL && strcmp (pad_mode, "same") == 0)
    {
      /* 'same' keeps the input's spatial size (PyTorch requires stride 1): pad by dilation * (k - 1) */
      if (a.rank < f + 1 || a.shape[a.rank - f - 1] != w.shape[1] * groups)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "input channels do not match the weight");
      memcpy (shape, a.shape, sizeof (gint64) * a.rank);
      shape[a.rank - f - 1] = w.shape[0];
      return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
    }
  else if (pad_mode != NULL)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "unknown padding mode '%s'", pad_mode);
  else if (!per_dim (call, 4, f, NULL, 0, padding, error))
    return FALSE;
  if (!conv_shape (call, &a, &w, FALSE, groups, stride, padding, dilation, zeros, shape, error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* ---- pooling ------------------------------------------------------------------------------------ */

gint64
wb_pool_output_size (gint64 in, gint64 kernel, gint64 padding, gint64 stride, gint64 dilation, gboolean ceil_mode)
{
  gint64 num = in + 2 * padding - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  gint64 out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + padding)
    out--;
  return out;
}

/* Shared by max and average pooling: kernel at param 1, stride 2, padding 3, dilation @dil_p (or none). */
static gboolean
pool_shape (WbMetaCall *call, WbType *a, guint f, int dil_p, int ceil_p, gint64 *shape, GError **error)
{
  static const gint64 ones[MAXD] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 }, zeros[MAXD] = { 0 };
  gint64              kernel[MAXD], stride[MAXD], padding[MAXD], dilation[MAXD];
  gboolean            ceil_mode = FALSE;
  guint               lead;

  if (!_wb_meta_arg_tensor (call, 0, a, error) || !spatial_input (call, a, f, 1, error))
    return FALSE;
  if (!per_dim (call, 1, f, NULL, 1, kernel, error) || !per_dim (call, 2, f, kernel, 1, stride, error) || !per_dim (call, 3, f, zeros, 0, padding, error))
    return FALSE;
  if (dil_p < 0)
    memcpy (dilation, ones, sizeof dilation);
  else if (!per_dim (call, (guint) dil_p, f, ones, 1, dilation, error))
    return FALSE;
  if (!_wb_meta_arg_bool (call, (guint) ceil_p, FALSE, &ceil_mode, error))
    return FALSE;
  lead = a->rank - f;
  memcpy (shape, a->shape, sizeof (gint64) * lead);
  for (guint i = 0; i < f; i++)
    {
      if (padding[i] * 2 > kernel[i])
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "padding %" G_GINT64_FORMAT " is more than half the kernel %" G_GINT64_FORMAT,
                              padding[i], kernel[i]);
      shape[lead + i] = wb_pool_output_size (a->shape[lead + i], kernel[i], padding[i], stride[i], dilation[i], ceil_mode);
      if (shape[lead + i] <= 0)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "the output of dim %u would be empty", lead + i);
    }
  return TRUE;
}

/* ltorch.max_pool1d/2d/3d (a, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
 * ceil_mode=False); with return_indices, a second output of i64 indices. meta_arg: spatial dims. */
gboolean
_wb_meta_max_pool (WbMetaCall *call, GError **error)
{
  WbType   a;
  gint64   shape[MAXD];
  gboolean indices = FALSE;

  if (!pool_shape (call, &a, (guint) call->arg, 4, 6, shape, error) || !_wb_meta_arg_bool (call, 5, FALSE, &indices, error))
    return FALSE;
  if (!_wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error))
    return FALSE;
  return !indices || _wb_meta_out_shape (call, &a, WB_DTYPE_INT64, shape, a.rank, error);
}

/* The torch executor's max_pool2d_with_indices / max_pool3d_with_indices (a, kernel_size, stride,
 * padding, dilation, ceil_mode): the pooled values and their indices, both typed like the input, as
 * Thunder's meta types them (thunder/executors/torchex.py); its traces annotate the saved indices so. */
gboolean
_wb_meta_max_pool_with_indices (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD];

  if (!pool_shape (call, &a, (guint) call->arg, 4, 5, shape, error))
    return FALSE;
  if (!_wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* ltorch.avg_pool1d/2d/3d (a, kernel_size, stride=None, padding=0, ceil_mode=False,
 * count_include_pad=True, divisor_override=None). meta_arg: spatial dims. */
gboolean
_wb_meta_avg_pool (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 shape[MAXD];

  if (!pool_shape (call, &a, (guint) call->arg, -1, 4, shape, error))
    return FALSE;
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* ltorch.adaptive_avg_pool2d/3d (a, output_size): the leading dims and output_size (an int for every
 * dim, or a sequence whose None entries keep the input's size). meta_arg: spatial dims. */
gboolean
_wb_meta_adaptive_pool (WbMetaCall *call, GError **error)
{
  WbType          a;
  guint           f = (guint) call->arg, lead;
  gint64          shape[MAXD], v;
  WbValue *const *items;
  guint           n;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !spatial_input (call, &a, f, 1, error))
    return FALSE;
  lead = a.rank - f;
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (_wb_meta_arg_int (call, 1, &v, NULL))
    {
      for (guint i = 0; i < f; i++)
        shape[lead + i] = v;
    }
  else
    {
      if (!_wb_meta_arg_items (call, 1, &items, &n, error))
        return FALSE;
      if (n != f && n != 1)
        return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "output_size needs %u values, got %u", f, n);
      for (guint i = 0; i < f; i++)
        {
          const WbValue *item = items[n == 1 ? 0 : i];
          if (item == NULL || item->kind == WB_VALUE_NONE)
            continue;
          if (!_wb_meta_value_int (call, item, &shape[lead + i]))
            return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "output_size entries must be ints or None");
        }
    }
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}

/* Backward ops whose gradient has the forward input's type: adaptive_avg_pool2d_backward (g, a),
 * max_pool2d_with_indices_backward (grad, a, ...): the tensor at parameter 1. */
gboolean
_wb_meta_like_input (WbMetaCall *call, GError **error)
{
  WbType g, a;

  if (!_wb_meta_arg_tensor (call, 0, &g, error) || !_wb_meta_arg_tensor (call, 1, &a, error))
    return FALSE;
  if (g.rank != a.rank)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "grad rank %u differs from the input's %u", g.rank, a.rank);
  _wb_meta_out_like (call, &a, g.dtype);
  return TRUE;
}

/* ---- norms -------------------------------------------------------------------------------------- */

/* A per-channel tensor argument (weight, bias, running statistics): None, or 1-d of @channels. */
static gboolean
check_channels (WbMetaCall *call, guint i, gint64 channels, GError **error)
{
  WbType t;

  if (!_wb_meta_arg_present (call, i))
    return TRUE;
  if (!_wb_meta_arg_tensor (call, i, &t, error))
    return FALSE;
  if (t.rank != 1 || t.shape[0] != channels)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "argument %u must be 1-d of %" G_GINT64_FORMAT " channels", i, channels);
  return TRUE;
}

/* ltorch.batch_norm and instance_norm (a, running_mean, running_var, weight, bias, ...): input [N, C, ...],
 * the statistics and affine parameters [C]; the output is like the input. */
gboolean
_wb_meta_channel_norm (WbMetaCall *call, GError **error)
{
  WbType a;

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (a.rank < 2)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected an input of rank 2 or more, got %u", a.rank);
  for (guint i = 1; i <= 4; i++)
    if (!check_channels (call, i, a.shape[1], error))
      return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ltorch.group_norm (a, num_groups, weight=None, bias=None, eps=1e-05) */
gboolean
_wb_meta_group_norm (WbMetaCall *call, GError **error)
{
  WbType a;
  gint64 groups;

  if (!_wb_meta_arg_tensor (call, 0, &a, error) || !_wb_meta_arg_int (call, 1, &groups, error))
    return FALSE;
  if (a.rank < 2 || groups <= 0 || a.shape[1] % groups != 0)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "%" G_GINT64_FORMAT " groups do not divide the channels of a rank-%u input",
                          groups, a.rank);
  if (!check_channels (call, 2, a.shape[1], error) || !check_channels (call, 3, a.shape[1], error))
    return FALSE;
  _wb_meta_out_like (call, &a, WB_DTYPE_UNKNOWN);
  return TRUE;
}

/* ---- interpolate -------------------------------------------------------------------------------- */

/* ltorch.interpolate (a, size=None, scale_factor=None, mode='nearest', ...): input [N, C, d...]; each
 * spatial dim is size, or floor(dim * scale_factor). */
gboolean
_wb_meta_interpolate (WbMetaCall *call, GError **error)
{
  WbType          a;
  gint64          shape[MAXD], size[MAXD];
  guint           f, n;
  WbValue *const *items;
  double          scale[MAXD];

  if (!_wb_meta_arg_tensor (call, 0, &a, error))
    return FALSE;
  if (a.rank < 3)
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_SHAPE, call, "expected an input [N, C, d...], got rank %u", a.rank);
  f = a.rank - 2;
  memcpy (shape, a.shape, sizeof (gint64) * a.rank);
  if (_wb_meta_arg_present (call, 1))
    {
      if (!per_dim (call, 1, f, NULL, 0, size, error))
        return FALSE;
      memcpy (shape + 2, size, sizeof (gint64) * f);
    }
  else if (_wb_meta_arg_number (call, 2, &scale[0]))
    for (guint i = 0; i < f; i++)
      shape[2 + i] = (gint64) floor ((double) a.shape[2 + i] * scale[0]);
  else if (_wb_meta_arg_items (call, 2, &items, &n, NULL) && n == f)
    for (guint i = 0; i < f; i++)
      {
        WbMetaCall tmp = *call;
        tmp.params[0] = items[i];
        if (!_wb_meta_arg_number (&tmp, 0, &scale[i]))
          return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_TYPE, call, "scale_factor entries must be numbers");
        shape[2 + i] = (gint64) floor ((double) a.shape[2 + i] * scale[i]);
      }
  else
    return _wb_meta_fail (error, WB_SYMBOL_ERROR_BAD_ARGS, call, "needs size or scale_factor (one number or %u)", f);
  return _wb_meta_out_shape (call, &a, WB_DTYPE_UNKNOWN, shape, a.rank, error);
}
