/* wb-cpu-creation.c — full, iota, empty, uniform, uniform_philox, randn, randint, tensor_from_sequence,
 * get_and_update_rng_state, exogenous_like
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Devices in the arguments are accepted and mapped to the run's device. empty is zero-filled so that
 * runs are deterministic. Random draws use Philox 4x32-10 (wb-philox.h for the counter layout):
 * uniform/randn/randint without a seed draw from the run's (seed, offset) and advance the offset by the
 * blocks they consume, so the same sequence of random calls gives the same values in every stage;
 * uniform_philox(seed, offset) draws exactly at (seed, offset). Floats: u in [0, 1) with 24 bits (f32,
 * bf16, f16) or 53 bits (f64), value = minval + (maxval - minval) * u, rounded to the dtype. With
 * WbRunState.draw_f64_as_f32 (a program read with float32 as float64), uniform and randn asked for f64
 * draw the f32 values of the same call and widen them, consuming the generator as the f32 draw does. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-cpu-private.h"

static gboolean
arg_shape (WbKernelCall *call, guint pos, const char *name, gint64 *shape, guint *rank, GError **error)
{
  if (!_wb_cpu_arg_ints (call, pos, name, TRUE, shape, WB_MAX_RANK, rank, error))
    return FALSE;
  for (guint d = 0; d < *rank; d++)
    if (shape[d] < 0)
      {
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "negative dim in shape");
        return FALSE;
      }
  return TRUE;
}

static gboolean
arg_out_dtype (WbKernelCall *call, guint pos, WbDtype def, WbDtype *dtype, GError **error)
{
  if (!_wb_cpu_arg_dtype (call, pos, "dtype", dtype, error))
    return FALSE;
  if (*dtype == WB_DTYPE_UNKNOWN)
    *dtype = def;
  return _wb_cpu_check_dtype (call, *dtype, WB_DT_ALL, error);
}

/* Fills @out (contiguous) with uniform values from (seed, stream 0, offset). Returns blocks used. */
static guint64
fill_uniform (WbTensor *out, double lo, double hi, guint64 seed, guint64 offset)
{
  gint64 n = wb_tensor_numel (out);
  gint64 chunk = 4096;

  for (gint64 s = 0; s < n; s += chunk)
    {
      gsize m = (gsize) MIN (chunk, n - s);
      if (out->dtype == WB_DTYPE_FLOAT64)
        {
          double *p = (double *) wb_tensor_get_data (out) + s;
          wb_philox_uniform_f64 (seed, 0, offset + (guint64) s / 2, p, m);
          for (gsize i = 0; i < m; i++)
            p[i] = lo + (hi - lo) * p[i];
        }
      else
        {
          float buf[4096];
          wb_philox_uniform_f32 (seed, 0, offset + (guint64) s / 4, buf, m);
          for (gsize i = 0; i < m; i++)
            buf[i] = (float) (lo + (hi - lo) * buf[i]);
          _wb_store_f32 ((guint8 *) wb_tensor_get_data (out) + s * (gint64) wb_dtype_size (out->dtype),
                         out->dtype, 1, buf, m);
        }
    }
  return out->dtype == WB_DTYPE_FLOAT64 ? (guint64) (n + 1) / 2 : wb_philox_blocks_for ((gsize) n);
}

static WbTensor *
create_full (WbKernelCall *call, GError **error)
{
  gint64     shape[WB_MAX_RANK];
  guint      rank = 0;
  WbDtype    dtype;
  WbTensor  *out;
  WbRtValue *fill = wb_kernel_call_get_arg (call, 1, "fill_value");
  double     v;
  g_autoptr (WbTensor) scalar = NULL;

  if (!arg_shape (call, 0, "shape", shape, &rank, error) ||
      !wb_rt_value_get_number (fill, &v) ||
      !arg_out_dtype (call, 99, fill && fill->kind == WB_RT_FLOAT ? WB_DTYPE_FLOAT32 : WB_DTYPE_INT64, &dtype, error))
    {
      if (error && *error == NULL)
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "full: fill_value is not a number");
      return NULL;
    }
  out = wb_tensor_new (dtype, rank, shape, error);
  if (out == NULL)
    return NULL;
  scalar = wb_tensor_new_scalar (dtype, v);
  if (fill->kind != WB_RT_FLOAT && _wb_dtype_class (dtype) == WB_CLASS_I64)
    {
      gint64 i = fill->i;
      _wb_store_i64 (wb_tensor_get_data (scalar), dtype, 1, &i, 1);
    }
  if (!wb_tensor_copy_into (out, scalar, error))
    {
      wb_tensor_unref (out);
      return NULL;
    }
  return out;
}

static WbTensor *
create_iota (WbKernelCall *call, GError **error)
{
  gint64    length, start, step;
  WbDtype   dtype;
  WbTensor *out;

  if (!_wb_cpu_arg_int (call, 0, "length", FALSE, 0, &length, error) ||
      !_wb_cpu_arg_int (call, 99, "start", TRUE, 0, &start, error) ||
      !_wb_cpu_arg_int (call, 99, "step", TRUE, 1, &step, error) ||
      !arg_out_dtype (call, 99, WB_DTYPE_INT64, &dtype, error))
    return NULL;
  if (length < 0)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "iota of negative length");
      return NULL;
    }
  out = wb_tensor_new (dtype, 1, &length, error);
  if (out == NULL)
    return NULL;
  {
    g_autofree gint64 *v = g_new (gint64, MAX (length, 1));
    for (gint64 i = 0; i < length; i++)
      v[i] = start + i * step;
    _wb_store_i64 (wb_tensor_get_data (out), dtype, 1, v, (gsize) length);
  }
  return out;
}

static WbTensor *
create_empty (WbKernelCall *call, GError **error)
{
  gint64  shape[WB_MAX_RANK];
  guint   rank = 0;
  WbDtype dtype;

  if (!arg_shape (call, 0, "shape", shape, &rank, error) || !arg_out_dtype (call, 99, WB_DTYPE_FLOAT32, &dtype, error))
    return NULL;
  return wb_tensor_new_zeros (dtype, rank, shape, error);
}

/* The dtype a random op asked for @dtype draws in: f32 for f64 under draw_f64_as_f32. */
static WbDtype
draw_dtype (const WbKernelCall *call, WbDtype dtype)
{
  return dtype == WB_DTYPE_FLOAT64 && call->state != NULL && call->state->draw_f64_as_f32 ? WB_DTYPE_FLOAT32 : dtype;
}

/* (transfer full) @drawn (consumed) converted to @dtype when it was drawn in another (draw_dtype). */
static WbTensor *
widen_draw (WbTensor *drawn, WbDtype dtype, GError **error)
{
  WbTensor *out;

  if (drawn == NULL || drawn->dtype == dtype)
    return drawn;
  out = wb_tensor_to_dtype (drawn, dtype, error);
  wb_tensor_unref (drawn);
  return out;
}

/* uniform (the run's seed and offset, advanced) and uniform_philox (its own seed and offset) */
static WbTensor *
create_uniform (WbKernelCall *call, gboolean philox, GError **error)
{
  gint64    shape[WB_MAX_RANK];
  guint     rank = 0;
  WbDtype   dtype;
  WbTensor *out;
  double    lo, hi;

  if (!arg_shape (call, 0, "shape", shape, &rank, error) ||
      !_wb_cpu_arg_number (call, 1, "minval", FALSE, 0, &lo, error) ||
      !_wb_cpu_arg_number (call, 2, "maxval", FALSE, 0, &hi, error) ||
      !arg_out_dtype (call, 99, WB_DTYPE_FLOAT32, &dtype, error) ||
      !_wb_cpu_check_dtype (call, dtype, WB_DT_FLOATS, error))
    return NULL;
  out = wb_tensor_new (draw_dtype (call, dtype), rank, shape, error);
  if (out == NULL)
    return NULL;
  if (philox)
    {
      gint64 seed, offset;
      if (!_wb_cpu_arg_int (call, 99, "seed", FALSE, 0, &seed, error) ||
          !_wb_cpu_arg_int (call, 99, "offset", FALSE, 0, &offset, error))
        {
          wb_tensor_unref (out);
          return NULL;
        }
      fill_uniform (out, lo, hi, (guint64) seed, (guint64) offset);
    }
  else
    call->state->rng_offset += fill_uniform (out, lo, hi, call->state->rng_seed, call->state->rng_offset);
  return widen_draw (out, dtype, error);
}

static WbTensor *
create_randn (WbKernelCall *call, GError **error)
{
  gint64    shape[WB_MAX_RANK];
  guint     rank = 0;
  WbDtype   dtype;
  WbTensor *out;
  gint64    n;

  if (!arg_shape (call, 0, "shape", shape, &rank, error) ||
      !arg_out_dtype (call, 99, WB_DTYPE_FLOAT32, &dtype, error) ||
      !_wb_cpu_check_dtype (call, dtype, WB_DT_FLOATS, error))
    return NULL;
  out = wb_tensor_new (draw_dtype (call, dtype), rank, shape, error);
  if (out == NULL)
    return NULL;
  n = wb_tensor_numel (out);
  {
    g_autofree double *v = g_new (double, MAX (n, 1));
    wb_philox_normal_f64 (call->state->rng_seed, 0, call->state->rng_offset, v, (gsize) n);
    call->state->rng_offset += (guint64) (n + 1) / 2;
    _wb_store_f64 (wb_tensor_get_data (out), out->dtype, 1, v, (gsize) n);
  }
  return widen_draw (out, dtype, error);
}

static WbTensor *
create_randint (WbKernelCall *call, GError **error)
{
  gint64    shape[WB_MAX_RANK];
  guint     rank = 0;
  WbDtype   dtype;
  WbTensor *out;
  gint64    low, high, n;

  if (!_wb_cpu_arg_int (call, 0, "low", FALSE, 0, &low, error) ||
      !_wb_cpu_arg_int (call, 1, "high", FALSE, 0, &high, error) ||
      !arg_shape (call, 2, "shape", shape, &rank, error) ||
      !arg_out_dtype (call, 99, WB_DTYPE_INT64, &dtype, error))
    return NULL;
  if (high <= low)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "randint: high <= low");
      return NULL;
    }
  out = wb_tensor_new (dtype, rank, shape, error);
  if (out == NULL)
    return NULL;
  n = wb_tensor_numel (out);
  {
    g_autofree guint32 *w = g_new (guint32, MAX (2 * n, 1));
    g_autofree gint64  *v = g_new (gint64, MAX (n, 1));
    guint64             range = (guint64) (high - low);
    wb_philox_fill_u32 (call->state->rng_seed, 0, call->state->rng_offset, w, (gsize) (2 * n));
    call->state->rng_offset += wb_philox_blocks_for ((gsize) (2 * n));
    for (gint64 i = 0; i < n; i++)
      v[i] = low + (gint64) ((((guint64) w[2 * i] << 32) | w[2 * i + 1]) % range);
    _wb_store_i64 (wb_tensor_get_data (out), dtype, 1, v, (gsize) n);
  }
  return out;
}

static WbTensor *
create_tensor_from_sequence (WbKernelCall *call, GError **error)
{
  gint64     shape[WB_MAX_RANK];
  guint      rank = 0;
  WbDtype    dtype;
  WbTensor  *out;
  WbRtValue *seq = wb_kernel_call_get_arg (call, 0, "seq");
  GArray    *vals = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean   any_float = FALSE;
  /* nested sequences of numbers, rectangular */
  WbRtValue *cur = seq;

  while (wb_rt_value_is_sequence (cur) && rank < WB_MAX_RANK)
    {
      shape[rank++] = cur->items->len;
      cur = cur->items->len ? cur->items->pdata[0] : NULL;
    }
  {
    GPtrArray *stack = g_ptr_array_new ();
    g_ptr_array_add (stack, seq);
    /* depth-first in order */
    for (guint i = 0; i < stack->len; i++)
      {
        WbRtValue *v = stack->pdata[i];
        if (wb_rt_value_is_sequence (v))
          {
            /* replace by children, keeping order: process later by rebuilding */
            g_ptr_array_remove_index (stack, i);
            for (guint j = 0; j < v->items->len; j++)
              g_ptr_array_insert (stack, (gint) (i + j), v->items->pdata[j]);
            i--;
          }
      }
    for (guint i = 0; i < stack->len; i++)
      {
        double f;
        if (!wb_rt_value_get_number (stack->pdata[i], &f))
          {
            g_ptr_array_unref (stack);
            g_array_unref (vals);
            g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "tensor_from_sequence: not a number");
            return NULL;
          }
        any_float |= ((WbRtValue *) stack->pdata[i])->kind == WB_RT_FLOAT;
        g_array_append_val (vals, f);
      }
    g_ptr_array_unref (stack);
  }
  if (!arg_out_dtype (call, 99, any_float ? WB_DTYPE_FLOAT32 : WB_DTYPE_INT64, &dtype, error) ||
      (gint64) vals->len != _wb_cpu_numel (rank, shape))
    {
      g_array_unref (vals);
      if (error && *error == NULL)
        g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "tensor_from_sequence: ragged sequence");
      return NULL;
    }
  out = wb_tensor_new (dtype, rank, shape, error);
  if (out != NULL)
    _wb_store_f64 (wb_tensor_get_data (out), dtype, 1, (double *) vals->data, vals->len);
  g_array_unref (vals);
  return out;
}

/* get_and_update_rng_state(seed, offset, device) -> (seed, offset); None means the run's */
static gboolean
create_rng_state (WbKernelCall *call)
{
  WbRtValue *s = wb_kernel_call_get_arg (call, 0, "seed");
  WbRtValue *o = wb_kernel_call_get_arg (call, 1, "offset");
  WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  gint64     seed = (gint64) call->state->rng_seed, offset = (gint64) call->state->rng_offset;

  if (s && s->kind != WB_RT_NONE)
    wb_rt_value_get_int (s, &seed);
  if (o && o->kind != WB_RT_NONE)
    wb_rt_value_get_int (o, &offset);
  wb_rt_value_append (tuple, wb_rt_value_new_int (seed));
  wb_rt_value_append (tuple, wb_rt_value_new_int (offset));
  call->state->rng_offset = (guint64) offset + 4;
  call->result = tuple;
  return TRUE;
}

static gboolean
create_exogenous_like (WbKernelCall *call, GError **error)
{
  WbRtValue *likes = wb_kernel_call_get_arg (call, 0, "likes");
  WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);

  for (guint i = 0; likes && likes->items && i < likes->items->len; i++)
    {
      WbRtValue *l = likes->items->pdata[i];
      if (l->kind == WB_RT_TENSOR)
        {
          WbTensor *z = wb_tensor_new_zeros (l->tensor->dtype, l->tensor->rank, l->tensor->shape, error);
          if (z == NULL)
            {
              wb_rt_value_unref (tuple);
              return FALSE;
            }
          wb_rt_value_append (tuple, wb_rt_value_take_tensor (z));
        }
      else
        wb_rt_value_append (tuple, wb_rt_value_new_none ());
    }
  call->result = tuple;
  return TRUE;
}

/* Draws @k categories per row of @w64 ([rows, n], f64) into @out ([rows, k], i64) from the uniforms @u
 * by the inverse CDF; without @replacement a drawn category gets weight 0. */
static void
multinomial_draw (WbTensor *w64, gint64 rows, gint64 n, gint64 k, gboolean replacement, const double *u, WbTensor *out)
{
  g_autofree double *p = g_new (double, MAX (n, 1));

  for (gint64 r = 0; r < rows; r++)
    {
      memcpy (p, (double *) wb_tensor_get_data (w64) + r * n, (gsize) n * sizeof (double));
      for (gint64 s = 0; s < k; s++)
        {
          double total = 0, acc = 0, target;
          gint64 pick = n - 1;
          for (gint64 j = 0; j < n; j++)
            total += p[j] > 0 ? p[j] : 0;
          target = u[r * k + s] * total;
          for (gint64 j = 0; j < n; j++)
            {
              acc += p[j] > 0 ? p[j] : 0;
              if (p[j] > 0 && acc > target)
                {
                  pick = j;
                  break;
                }
            }
          ((gint64 *) wb_tensor_get_data (out))[r * k + s] = pick;
          if (!replacement)
            p[pick] = 0;
        }
    }
}

/* multinomial(input [rows, n] or [n] weights, num_samples, replacement, seed=None): inverse-CDF draws
 * with Philox uniforms; without replacement, drawn categories get weight 0 */
static WbTensor *
create_multinomial (WbKernelCall *call, GError **error)
{
  gint64     shape[WB_MAX_RANK];
  WbTensor  *out;
  WbTensor  *w;
  gint64     k, rows, n, seed = (gint64) call->state->rng_seed;
  gboolean   replacement, own_seed;
  WbRtValue *sv = wb_kernel_call_get_arg (call, 3, "seed");
  g_autoptr (WbTensor) w64 = NULL;
  g_autofree double *u = NULL;

  if (!_wb_cpu_arg_tensor (call, 0, "input", &w, error) || !_wb_cpu_arg_int (call, 1, "num_samples", FALSE, 0, &k, error) ||
      !_wb_cpu_arg_bool (call, 2, "replacement", TRUE, FALSE, &replacement, error))
    return NULL;
  own_seed = sv != NULL && sv->kind != WB_RT_NONE;
  if (own_seed && !wb_rt_value_get_int (sv, &seed))
    return NULL;
  if (w->rank < 1 || w->rank > 2)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "multinomial takes 1-D or 2-D weights");
      return NULL;
    }
  n = w->shape[w->rank - 1];
  rows = w->rank == 2 ? w->shape[0] : 1;
  if (k < 0 || (!replacement && k > n))
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "multinomial: cannot draw %" G_GINT64_FORMAT " samples", k);
      return NULL;
    }
  if ((w64 = wb_tensor_to_dtype (w, WB_DTYPE_FLOAT64, error)) == NULL)
    return NULL;
  shape[0] = rows, shape[1] = k;
  out = wb_tensor_new (WB_DTYPE_INT64, w->rank, w->rank == 2 ? shape : &k, error);
  if (out == NULL)
    return NULL;
  u = g_new (double, MAX (rows * k, 1));
  wb_philox_uniform_f64 ((guint64) seed, 0, own_seed ? 0 : call->state->rng_offset, u, (gsize) (rows * k));
  if (!own_seed)
    call->state->rng_offset += (guint64) (rows * k + 1) / 2;
  multinomial_draw (w64, rows, n, k, replacement, u, out);
  return out;
}

gboolean
_wb_cpu_creation (WbKernelCall *call, int op, GError **error)
{
  WbTensor *out = NULL;

  switch (op)
    {
    case WB_CREATE_FULL:
      out = create_full (call, error);
      break;
    case WB_CREATE_IOTA:
      out = create_iota (call, error);
      break;
    case WB_CREATE_EMPTY:
      out = create_empty (call, error);
      break;
    case WB_CREATE_UNIFORM:
    case WB_CREATE_UNIFORM_PHILOX:
      out = create_uniform (call, op == WB_CREATE_UNIFORM_PHILOX, error);
      break;
    case WB_CREATE_RANDN:
      out = create_randn (call, error);
      break;
    case WB_CREATE_RANDINT:
      out = create_randint (call, error);
      break;
    case WB_CREATE_TENSOR_FROM_SEQUENCE:
      out = create_tensor_from_sequence (call, error);
      break;
    case WB_CREATE_RNG_STATE:
      return create_rng_state (call);
    case WB_CREATE_EXOGENOUS_LIKE:
      return create_exogenous_like (call, error);
    case WB_CREATE_MULTINOMIAL:
      out = create_multinomial (call, error);
      break;
    default:
      g_assert_not_reached ();
    }
  if (out == NULL)
    return FALSE;
  return _wb_cpu_set_result (call, out);
}
