/* wb-cuda-conv.c — convolution on the GPU through cuDNN (wb-cuda-conv.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cuda-conv.h"

#include <string.h>

#include "wb-executors-private.h"
#if WB_HAVE_CUDNN
#include "wb-cuda-executors.h"
#include "wb-cudnn-conv.h"
#include "wb-cudnn-sdpa.h"
#endif

#define MAX_GRID 65535

static WbCudaConvStats stats;

/* -- the calls ------------------------------------------------------------------------------------ */

typedef enum
{
  FORM_NONE = 0,
  FORM_CONVOLUTION, /* (a, weight, bias, stride, padding, dilation, transposed, output_padding, groups) */
  FORM_CONV_ND,     /* (a, weight, bias, stride, padding, dilation, groups) */
} Form;

static Form
form_of (const WbBsym *b)
{
  static const char *const convolution[] = { "prims.convolution", "ltorch.convolution" };
  static const char *const conv_nd[] = { "ltorch.conv1d", "ltorch.conv2d", "ltorch.conv3d" };
  const WbSymbol          *s = b->symbol;
  const char              *name;

  if (b->kind != WB_BSYM_CALL || s == NULL)
    return FORM_NONE;
  if (wb_symbol_get_like (s) != NULL)
    s = wb_symbol_get_like (s);
  name = wb_symbol_get_name (s);
  for (guint i = 0; i < G_N_ELEMENTS (convolution); i++)
    if (strcmp (name, convolution[i]) == 0)
      return FORM_CONVOLUTION;
  for (guint i = 0; i < G_N_ELEMENTS (conv_nd); i++)
    if (strcmp (name, conv_nd[i]) == 0)
      return FORM_CONV_ND;
  return FORM_NONE;
}

gboolean
wb_cuda_conv_is_op (const WbBsym *b)
{
  return form_of (b) != FORM_NONE;
}

static gboolean
unsupported (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
unsupported (GError **error, const char *format, ...)
{
  va_list ap;
  char   *msg;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "convolution: %s", msg);
  g_free (msg);
  return FALSE;
}

/* Geometry: the call's arguments, read and checked, per spatial dim (s of them). */
typedef struct
{
  guint    s;
  gboolean transposed;
  gint64   groups;
  gint64   stride[3], dilation[3], pre[3], post[3], out_pad[3];
  gboolean same; /* padding="same" (conv_nd only): pre/post computed once the kernel size is known */
} Geom;

/* an int or a sequence of 1 or @s ints at @pos / @name into @out[0..s), @def when absent or None */
static gboolean
spatial_ints (WbKernelCall *call, guint pos, const char *name, guint s, gint64 def, gint64 *out, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);
  guint      n;

  for (guint i = 0; i < s; i++)
    out[i] = def;
  if (v == NULL || v->kind == WB_RT_NONE)
    return TRUE;
  if (v->kind == WB_RT_INT)
    {
      for (guint i = 0; i < s; i++)
        out[i] = v->i;
      return TRUE;
    }
  if (!wb_rt_value_is_sequence (v) || ((n = v->items->len) != 1 && n != s))
    return unsupported (error, "%s is not an int or %u ints", name, s);
  for (guint i = 0; i < s; i++)
    {
      WbRtValue *x = v->items->pdata[n == 1 ? 0 : i];
      if (x->kind != WB_RT_INT)
        return unsupported (error, "%s is not an int or %u ints", name, s);
      out[i] = x->i;
    }
  return TRUE;
}

static gboolean
read_geom (WbKernelCall *call, Form form, guint s, Geom *g, GError **error)
{
  WbRtValue *v;
  gint64     pad[3];
  guint      groups_pos = form == FORM_CONVOLUTION ? 8 : 6;

  memset (g, 0, sizeof *g);
  g->s = s;
  if (form == FORM_CONVOLUTION && (v = wb_kernel_call_get_arg (call, 6, "transposed")) != NULL && v->kind != WB_RT_NONE)
    {
      if (v->kind != WB_RT_BOOL && v->kind != WB_RT_INT)
        return unsupported (error, "transposed is not a bool");
      g->transposed = v->kind == WB_RT_BOOL ? v->b : v->i != 0;
    }
  g->groups = 1;
  if ((v = wb_kernel_call_get_arg (call, groups_pos, "groups")) != NULL && v->kind != WB_RT_NONE)
    {
      if (v->kind != WB_RT_INT || v->i < 1)
        return unsupported (error, "groups is not a positive int");
      g->groups = v->i;
    }
  if (!spatial_ints (call, 3, "stride", s, 1, g->stride, error) || !spatial_ints (call, 5, "dilation", s, 1, g->dilation, error))
    return FALSE;
  if (form == FORM_CONVOLUTION && !spatial_ints (call, 7, "output_padding", s, 0, g->out_pad, error))
    return FALSE;
  v = wb_kernel_call_get_arg (call, 4, "padding");
  if (v != NULL && v->kind == WB_RT_STRING)
    {
      if (strcmp (v->s, "same") == 0)
        g->same = TRUE;
      else if (strcmp (v->s, "valid") != 0)
        return unsupported (error, "padding \"%s\" is neither \"valid\" nor \"same\"", v->s);
      pad[0] = pad[1] = pad[2] = 0;
    }
  else if (!spatial_ints (call, 4, "padding", s, 0, pad, error))
    return FALSE;
  for (guint i = 0; i < s; i++)
    {
      g->pre[i] = g->post[i] = pad[i];
      if (g->stride[i] < 1 || g->dilation[i] < 1 || pad[i] < 0 || g->out_pad[i] < 0)
        return unsupported (error, "stride and dilation must be positive, padding not negative");
    }
  return TRUE;
}

/* -- cuDNN ---------------------------------------------------------------------------------------- */

gboolean
wb_cuda_conv_available (char **why_not)
{
#if WB_HAVE_CUDNN
  g_autoptr (GError) local = NULL;

  if (wb_cudnn_load (NULL, &local))
    return TRUE;
  if (why_not != NULL)
    *why_not = g_strdup (local->message);
  return FALSE;
#else
  if (why_not != NULL)
    *why_not = g_strdup ("this build has no cuDNN support (cudnn-frontend was not found at build time)");
  return FALSE;
#endif
}

/* @t as cuDNN takes it: a device tensor of @dtype whose strides are positive and describe a dense layout
 * (some permutation of a contiguous one) at a 16-byte aligned address; @t itself when it is, else a copy
 * (transfer full) */
static WbTensor *
dense_device (WbCudaRuntime *rt, WbTensor *t, WbDtype dtype, GError **error)
{
  g_autoptr (WbTensor) dev = wb_cuda_tensor_is_device (t) ? wb_tensor_ref (t) : wb_cuda_upload (rt, t, error);
  WbTensor *out;

  if (dev == NULL)
    return NULL;
  if (dev->dtype == dtype && wb_tensor_is_contiguous (dev) && wb_cuda_tensor_ptr (dev) % 16 == 0)
    return g_steal_pointer (&dev);
  stats.copies++;
  if ((out = wb_cuda_tensor_new (rt, dtype, dev->rank, dev->shape, error)) == NULL)
    return NULL;
  if (!wb_cuda_copy_into (rt, out, dev, error))
    g_clear_pointer (&out, wb_tensor_unref);
  return out;
}

/* the bias kernels: y[i] += b[(i / inner) % channels], y contiguous [N, C, *O], computed in f32 */
static const char bias_source[] =
    "#define WB_BIAS(name, S, LD, ST) extern \"C\" __global__ void name (S *y, const S *b, long long inner, long long c, long long n) { \\\n"
    "  for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; i < n; i += (long long) gridDim.x * blockDim.x) \\\n"
    "    y[i] = ST (LD (y[i]) + LD (b[(i / inner) % c])); }\n"
    "#define WB_ID(x) (x)\n"
    "WB_BIAS (wb_conv_bias_f32, float, WB_ID, WB_ID)\n"
    "WB_BIAS (wb_conv_bias_bf16, unsigned short, wb_bf16_to_f, wb_f_to_bf16)\n"
    "WB_BIAS (wb_conv_bias_f16, unsigned short, wb_f16_to_f, wb_f_to_f16)\n";

const char *
wb_cuda_conv_bias_source (void)
{
  return bias_source;
}

static gboolean
add_bias (WbCudaRuntime *rt, WbTensor *y, WbTensor *bias, GError **error)
{
  const char *entry = y->dtype == WB_DTYPE_FLOAT32 ? "wb_conv_bias_f32" : y->dtype == WB_DTYPE_BFLOAT16 ? "wb_conv_bias_bf16"
                                                                                                        : "wb_conv_bias_f16";
  CUdeviceptr yp = wb_cuda_tensor_ptr (y), bp = wb_cuda_tensor_ptr (bias);
  gint64      n = wb_tensor_numel (y), c = y->shape[1], inner = c > 0 ? n / MAX (y->shape[0], 1) / c : 1;
  void       *args[] = { &yp, &bp, &inner, &c, &n };
  CUfunction  fn;

  if (n == 0)
    return TRUE;
  if ((fn = wb_cuda_runtime_get_static_function (rt, bias_source, entry, error)) == NULL)
    return FALSE;
  return wb_cuda_runtime_launch (rt, fn, (guint) CLAMP ((n + WB_CUDA_BLOCK - 1) / WB_CUDA_BLOCK, 1, MAX_GRID), args, "convolution bias", error);
}

#if WB_HAVE_CUDNN
/* @t's dims, and the strides of that shape contiguous (dense_device made it so), as cuDNN sees them: a 1-d
 * convolution's [N, C, L] as [N, C, 1, L] */
static void
cudnn_dims (const WbTensor *t, gint64 *dims, gint64 *strides)
{
  guint  n = t->rank == 3 ? 4 : t->rank;
  gint64 acc = 1;

  for (guint d = 0, k = 0; d < n; d++)
    dims[d] = t->rank == 3 && d == 2 ? 1 : t->shape[k++];
  for (guint d = n; d-- > 0;)
    {
      strides[d] = acc;
      acc *= dims[d];
    }
}

/* one cuDNN convolution with its device addresses, as a launch list repeats it (wb_cuda_runtime_record_call) */
typedef struct
{
  WbCudnnConvPlan *plan; /* the process's, never freed */
  CUdeviceptr      x, w, bias, y, workspace;
} ConvReplay;

static gboolean
conv_replay (gpointer data, CUstream stream, GError **error)
{
  ConvReplay *r = data;

  return wb_cudnn_conv_execute (r->plan, stream, r->x, r->w, r->bias, r->y, r->workspace, error);
}

static gboolean
cudnn_run (WbCudaRuntime *rt, const WbCudnnConvKey *key, WbTensor *x, WbTensor *w, WbTensor *bias, WbTensor *y, GError **error)
{
  g_autoptr (WbTensor) ws = NULL;
  ConvReplay       r = { 0 };
  WbCudnnConvPlan *plan;
  gint64           workspace = 0;

  if ((plan = wb_cudnn_conv_plan (key, &workspace, error)) == NULL)
    return FALSE;
  if (workspace > 0 && (ws = wb_cuda_tensor_new (rt, WB_DTYPE_UINT8, 1, &workspace, error)) == NULL)
    return FALSE;
  r.plan = plan;
  r.x = wb_cuda_tensor_ptr (x), r.w = wb_cuda_tensor_ptr (w), r.bias = bias ? wb_cuda_tensor_ptr (bias) : 0, r.y = wb_cuda_tensor_ptr (y);
  r.workspace = ws ? wb_cuda_tensor_ptr (ws) : 0;
  if (!conv_replay (&r, wb_cuda_runtime_get_stream (rt), error))
    return FALSE;
  if (wb_cuda_runtime_is_listing (rt))
    wb_cuda_runtime_record_call (rt, conv_replay, g_memdup2 (&r, sizeof r), g_free);
  return TRUE;
}

/* y = conv(x, w) (+ bias): in one graph when cuDNN takes the bias, else the graph without it and the kernel */
static gboolean
convolve (WbCudaRuntime *rt, const Geom *g, WbTensor *x, WbTensor *w, WbTensor *bias, WbTensor *y, GError **error)
{
  g_autoptr (GError) local = NULL;
  WbCudnnConvKey key;
  guint          off = g->s == 1 ? 1 : 0; /* a 1-d convolution's unit height */

  memset (&key, 0, sizeof key);
  key.dtype = x->dtype;
  key.transposed = g->transposed;
  key.tf32 = x->dtype == WB_DTYPE_FLOAT32 && wb_cuda_executors_get_tf32 ();
  key.rank = (gint32) (x->rank + off);
  cudnn_dims (x, key.x_dims, key.x_strides);
  cudnn_dims (w, key.w_dims, key.w_strides);
  {
    gint64 unused[WB_CUDNN_CONV_MAX_RANK];
    cudnn_dims (y, key.y_dims, unused);
  }
  for (guint i = 0; i < g->s + off; i++)
    {
      gboolean unit = off && i == 0;
      key.pre_padding[i] = unit ? 0 : g->pre[i - off];
      key.post_padding[i] = unit ? 0 : g->post[i - off];
      key.stride[i] = unit ? 1 : g->stride[i - off];
      key.dilation[i] = unit ? 1 : g->dilation[i - off];
    }
  stats.calls++;
  if (bias != NULL)
    {
      key.bias = 1;
      if (cudnn_run (rt, &key, x, w, bias, y, &local))
        {
          stats.bias_fused++;
          return TRUE;
        }
      if (!g_error_matches (local, WB_CUDA_ERROR, WB_CUDA_ERROR_NOT_SUPPORTED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_snprintf (stats.why_unfused, sizeof stats.why_unfused, "%s", local->message);
      key.bias = 0;
    }
  if (!cudnn_run (rt, &key, x, w, NULL, y, error))
    return FALSE;
  if (bias != NULL)
    {
      stats.bias_kernel++;
      return add_bias (rt, y, bias, error);
    }
  return TRUE;
}
#endif

/* -- the call ------------------------------------------------------------------------------------- */

static WbTensor *
arg_tensor (WbKernelCall *call, guint pos, const char *name, gboolean optional, GError **error)
{
  WbRtValue *v = wb_kernel_call_get_arg (call, pos, name);

  if (v != NULL && v->kind == WB_RT_TENSOR)
    return v->tensor;
  if (!optional || (v != NULL && v->kind != WB_RT_NONE))
    unsupported (error, "argument %s is not a tensor", name);
  return NULL;
}

/* the output's shape from the input, the weight and @g (checked); "same" padding resolved into @g */
static gboolean
output_shape (const WbTensor *a, const WbTensor *w, const WbTensor *bias, Geom *g, gint64 *shape, GError **error)
{
  gint64 cin = a->shape[1], cout;

  if (cin % g->groups != 0 || (g->transposed ? w->shape[0] != cin : w->shape[1] * g->groups != cin))
    return unsupported (error, "%" G_GINT64_FORMAT " input channels do not fit weight [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", ...] and %" G_GINT64_FORMAT " groups",
                        cin, w->shape[0], w->shape[1], g->groups);
  cout = g->transposed ? w->shape[1] * g->groups : w->shape[0];
  if (!g->transposed && cout % g->groups != 0)
    return unsupported (error, "%" G_GINT64_FORMAT " output channels are not a multiple of %" G_GINT64_FORMAT " groups", cout, g->groups);
  if (bias != NULL && (bias->rank != 1 || bias->shape[0] != cout))
    return unsupported (error, "bias is not [%" G_GINT64_FORMAT "]", cout);
  shape[0] = a->shape[0];
  shape[1] = cout;
  for (guint i = 0; i < g->s; i++)
    {
      gint64 in = a->shape[2 + i], span = g->dilation[i] * (w->shape[2 + i] - 1);
      if (g->same)
        {
          if (g->stride[i] != 1)
            return unsupported (error, "padding=\"same\" needs stride 1");
          g->pre[i] = span / 2;
          g->post[i] = span - span / 2;
        }
      if (!g->transposed)
        shape[2 + i] = (in + g->pre[i] + g->post[i] - span - 1) / g->stride[i] + 1;
      else
        shape[2 + i] = (in - 1) * g->stride[i] - g->pre[i] - g->post[i] + span + g->out_pad[i] + 1;
      if (shape[2 + i] <= 0 || (g->transposed && g->pre[i] != g->post[i]))
        return unsupported (error, "empty or invalid output size along spatial dim %u", i);
    }
  return TRUE;
}

gboolean
wb_cuda_conv_run (WbCudaRuntime *rt, WbKernelCall *call, GError **error)
{
  Form      form = form_of (call->bsym);
  WbTensor *a, *w, *b;
  Geom      g;
  gint64    shape[WB_MAX_RANK];
  WbDtype   dt;
  g_autoptr (WbTensor) x = NULL;
  g_autoptr (WbTensor) wd = NULL;
  g_autoptr (WbTensor) bd = NULL;
  g_autoptr (WbTensor) y = NULL;

  g_return_val_if_fail (form != FORM_NONE, FALSE);
  if ((a = arg_tensor (call, 0, "a", FALSE, error)) == NULL || (w = arg_tensor (call, 1, "weight", FALSE, error)) == NULL)
    return FALSE;
  b = arg_tensor (call, 2, "bias", TRUE, error);
  if (b == NULL && error != NULL && *error != NULL)
    return FALSE;
  if (a->rank < 3 || a->rank > 5 || w->rank != a->rank)
    return unsupported (error, "input [N, C, *spatial] with 1-3 spatial dims and a weight of the same rank expected (ranks %u and %u)", a->rank, w->rank);
  dt = a->dtype;
  if (dt != WB_DTYPE_FLOAT32 && dt != WB_DTYPE_BFLOAT16 && dt != WB_DTYPE_FLOAT16)
    return unsupported (error, "dtype %s is not supported (f32, bf16, f16)", wb_dtype_shortname (dt));
  if (w->dtype != dt || (b != NULL && b->dtype != dt))
    return unsupported (error, "input, weight and bias have different dtypes");
  if (!read_geom (call, form, a->rank - 2, &g, error) || !output_shape (a, w, b, &g, shape, error))
    return FALSE;
  if ((y = wb_cuda_tensor_new (rt, dt, a->rank, shape, error)) == NULL)
    return FALSE;
  if (wb_tensor_numel (y) > 0)
    {
#if WB_HAVE_CUDNN
      if ((x = dense_device (rt, a, dt, error)) == NULL || (wd = dense_device (rt, w, dt, error)) == NULL ||
          (b != NULL && (bd = dense_device (rt, b, dt, error)) == NULL))
        return FALSE;
      if (wb_tensor_numel (x) == 0 || wb_tensor_numel (wd) == 0)
        return unsupported (error, "an empty input or weight with a non-empty output");
      if (!convolve (rt, &g, x, wd, bd, y, error))
        return FALSE;
#else
      (void) x, (void) wd, (void) bd;
      return unsupported (error, "this build has no cuDNN support (cudnn-frontend was not found at build time)");
#endif
    }
  call->result = wb_rt_value_take_tensor (g_steal_pointer (&y));
  return TRUE;
}

/* -- statistics ----------------------------------------------------------------------------------- */

void
wb_cuda_conv_get_stats (WbCudaConvStats *out)
{
  *out = stats;
}

void
wb_cuda_conv_reset_stats (void)
{
  memset (&stats, 0, sizeof stats);
}

char *
wb_cuda_conv_describe (void)
{
  GString *s;

  if (stats.calls == 0)
    return NULL;
  s = g_string_new (NULL);
#if WB_HAVE_CUDNN
  {
    gsize            v = 0;
    WbCudnnConvStats cs;
    wb_cudnn_conv_get_stats (&cs);
    if (wb_cudnn_load (&v, NULL))
      g_string_append_printf (s, "cuDNN %u.%u.%u: ", (guint) (v / 10000), (guint) (v / 100 % 100), (guint) (v % 100));
    g_string_append_printf (s, "%u convolutions, %u graphs built in %.1f ms", stats.calls, cs.built, cs.build_ms);
  }
#endif
  if (stats.bias_fused + stats.bias_kernel > 0)
    g_string_append_printf (s, ", bias in the graph %u, by kernel %u", stats.bias_fused, stats.bias_kernel);
  if (stats.copies > 0)
    g_string_append_printf (s, ", %u inputs copied dense first", stats.copies);
  return g_string_free (s, FALSE);
}
