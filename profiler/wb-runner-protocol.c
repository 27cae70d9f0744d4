/* wb-runner-protocol.c — framing and value encoding of the runner protocol
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-runner-protocol.h"

#include <string.h>

static const char magic[4] = { 'W', 'B', 'R', '1' };

gboolean
wb_runner_write_message (GOutputStream *out, WbRunnerMsgType type, GVariant *payload, GError **error)
{
  guint8   header[16];
  guint32  t = GUINT32_TO_LE ((guint32) type);
  guint64  len;
  gboolean ok;
  g_autoptr (GVariant) p = payload ? g_variant_ref_sink (payload) : g_variant_ref_sink (g_variant_new ("a{sv}", NULL));
  g_autoptr (GVariant) norm = g_variant_get_normal_form (p);
  g_autoptr (GBytes) bytes = NULL;

  if (G_BYTE_ORDER != G_LITTLE_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (norm);
      g_variant_unref (norm);
      norm = swapped;
    }
  bytes = g_variant_get_data_as_bytes (norm);
  len = GUINT64_TO_LE ((guint64) g_bytes_get_size (bytes));
  memcpy (header, magic, 4);
  memcpy (header + 4, &t, 4);
  memcpy (header + 8, &len, 8);
  ok = g_output_stream_write_all (out, header, sizeof header, NULL, NULL, error) &&
       g_output_stream_write_all (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL, NULL, error) &&
       g_output_stream_flush (out, NULL, error);
  return ok;
}

gboolean
wb_runner_read_message (GInputStream *in, WbRunnerMsgType *type, GVariant **payload, GError **error)
{
  guint8    header[16];
  gsize     got = 0;
  guint32   t;
  guint64   len;
  guint8   *data;
  GBytes   *bytes;
  GVariant *v;

  if (!g_input_stream_read_all (in, header, sizeof header, &got, NULL, error))
    return FALSE;
  if (got == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, "the runner's pipe was closed");
      return FALSE;
    }
  if (got != sizeof header || memcmp (header, magic, 4) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "runner protocol: bad header (%zu bytes)", got);
      return FALSE;
    }
  memcpy (&t, header + 4, 4);
  memcpy (&len, header + 8, 8);
  t = GUINT32_FROM_LE (t);
  len = GUINT64_FROM_LE (len);
  if (t < WB_RUNNER_MSG_HELLO || t > WB_RUNNER_MSG_NCCL_ID_REPLY || len > WB_RUNNER_MAX_MESSAGE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "runner protocol: message type %u of %" G_GUINT64_FORMAT " bytes", t, len);
      return FALSE;
    }
  data = g_try_malloc (MAX (len, 1));
  if (data == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "runner protocol: cannot hold a message of %" G_GUINT64_FORMAT " bytes", len);
      return FALSE;
    }
  if (!g_input_stream_read_all (in, data, (gsize) len, &got, NULL, error))
    {
      g_free (data);
      return FALSE;
    }
  if (got != len)
    {
      g_free (data);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED, "runner protocol: message cut short (%zu of %" G_GUINT64_FORMAT " bytes)", got, len);
      return FALSE;
    }
  bytes = g_bytes_new_take (data, (gsize) len);
  v = g_variant_new_from_bytes (G_VARIANT_TYPE ("a{sv}"), bytes, FALSE);
  g_bytes_unref (bytes);
  if (G_BYTE_ORDER != G_LITTLE_ENDIAN)
    {
      GVariant *s = g_variant_byteswap (v);
      g_variant_unref (v);
      v = s;
    }
  *type = (WbRunnerMsgType) t;
  *payload = g_variant_ref_sink (v);
  return TRUE;
}

/* -- values --------------------------------------------------------------------------------------- */

static GVariant *
tagged (char tag, GVariant *payload)
{
  return g_variant_new ("(yv)", (guchar) tag, payload);
}

GVariant *
wb_runner_value_to_variant (WbRtValue *v)
{
  return wb_runner_value_to_variant_shm (v, NULL);
}

GVariant *
wb_runner_value_to_variant_shm (WbRtValue *v, WbRunnerShmWriter *shm)
{
  char      dev[32];
  GVariant *mapped;

  switch (v->kind)
    {
    case WB_RT_NONE:
      return tagged ('n', g_variant_new ("()"));
    case WB_RT_BOOL:
      return tagged ('b', g_variant_new_boolean (v->b));
    case WB_RT_INT:
      return tagged ('i', g_variant_new_int64 (v->i));
    case WB_RT_FLOAT:
      return tagged ('f', g_variant_new_double (v->f));
    case WB_RT_STRING:
      return tagged ('s', g_variant_new_string (v->s ? v->s : ""));
    case WB_RT_TENSOR:
      if (shm != NULL && (mapped = wb_runner_shm_writer_place (shm, v->tensor)) != NULL)
        return tagged ('m', mapped);
      {
        g_autoptr (WbTensor) c = wb_tensor_contiguous (v->tensor, NULL);
        GVariant *shape = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, v->tensor->shape, v->tensor->rank, sizeof (gint64));
        GVariant *data = g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, c ? wb_tensor_get_data (c) : "", c ? (gsize) wb_tensor_nbytes (c) : 0, 1);
        return tagged ('t', g_variant_new ("(s@ax@ay)", wb_dtype_shortname (v->tensor->dtype), shape, data));
      }
    case WB_RT_TUPLE:
    case WB_RT_LIST:
    case WB_RT_DICT:
    case WB_RT_SLICE:
      {
        GVariantBuilder b;
        g_variant_builder_init (&b, G_VARIANT_TYPE ("av"));
        for (guint i = 0; i < v->items->len; i++)
          g_variant_builder_add (&b, "v", wb_runner_value_to_variant_shm (v->items->pdata[i], shm));
        return tagged (v->kind == WB_RT_TUPLE ? 'T' : v->kind == WB_RT_LIST ? 'L'
                                                  : v->kind == WB_RT_DICT   ? 'D'
                                                                            : 'S',
                       g_variant_builder_end (&b));
      }
    case WB_RT_DTYPE:
      return tagged ('y', g_variant_new_string (wb_dtype_shortname (v->dtype)));
    case WB_RT_DEVICE:
      return tagged ('d', g_variant_new_string (wb_device_to_string (&v->device, dev)));
    default:
      return tagged ('o', g_variant_new_string (v->s ? v->s : "object"));
    }
}

static WbRtValue *
bad (GError **error, const char *what)
{
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "runner protocol: malformed value (%s)", what);
  return NULL;
}

WbRtValue *
wb_runner_value_from_variant (GVariant *variant, GError **error)
{
  return wb_runner_value_from_variant_shm (variant, NULL, error);
}

WbRtValue *
wb_runner_value_from_variant_shm (GVariant *variant, WbRunnerShmMap *map, GError **error)
{
  guchar tag;
  g_autoptr (GVariant) p = NULL;

  if (!g_variant_is_of_type (variant, G_VARIANT_TYPE ("(yv)")))
    return bad (error, "not (yv)");
  g_variant_get (variant, "(yv)", &tag, &p);
  switch (tag)
    {
    case 'n':
      return wb_rt_value_new_none ();
    case 'b':
      return g_variant_is_of_type (p, G_VARIANT_TYPE_BOOLEAN) ? wb_rt_value_new_bool (g_variant_get_boolean (p)) : bad (error, "bool");
    case 'i':
      return g_variant_is_of_type (p, G_VARIANT_TYPE_INT64) ? wb_rt_value_new_int (g_variant_get_int64 (p)) : bad (error, "int");
    case 'f':
      return g_variant_is_of_type (p, G_VARIANT_TYPE_DOUBLE) ? wb_rt_value_new_float (g_variant_get_double (p)) : bad (error, "float");
    case 's':
    case 'o':
      if (!g_variant_is_of_type (p, G_VARIANT_TYPE_STRING))
        return bad (error, "string");
      return tag == 's' ? wb_rt_value_new_string (g_variant_get_string (p, NULL)) : wb_rt_value_new_opaque (g_variant_get_string (p, NULL));
    case 'y':
      {
        WbDtype dt;
        if (!g_variant_is_of_type (p, G_VARIANT_TYPE_STRING) ||
            (dt = wb_dtype_from_shortname (g_variant_get_string (p, NULL), -1)) == WB_DTYPE_UNKNOWN)
          return bad (error, "dtype");
        return wb_rt_value_new_dtype (dt, FALSE);
      }
    case 'd':
      {
        WbDevice    dev;
        const char *s;
        if (!g_variant_is_of_type (p, G_VARIANT_TYPE_STRING))
          return bad (error, "device");
        s = g_variant_get_string (p, NULL);
        if (!wb_device_parse (s, -1, &dev))
          return bad (error, "device");
        return wb_rt_value_new_device (&dev);
      }
    case 't':
      {
        const char *dtn;
        g_autoptr (GVariant) shape_v = NULL;
        g_autoptr (GVariant) data_v = NULL;
        const gint64 *shape;
        gsize         rank = 0, nbytes = 0;
        const guint8 *data;
        WbDtype       dt;
        gint64        numel = 1;
        WbTensor     *t;
        if (!g_variant_is_of_type (p, G_VARIANT_TYPE ("(saxay)")))
          return bad (error, "tensor");
        g_variant_get (p, "(&s@ax@ay)", &dtn, &shape_v, &data_v);
        dt = wb_dtype_from_shortname (dtn, -1);
        shape = g_variant_get_fixed_array (shape_v, &rank, sizeof (gint64));
        data = g_variant_get_fixed_array (data_v, &nbytes, 1);
        if (dt == WB_DTYPE_UNKNOWN || rank > WB_MAX_RANK)
          return bad (error, "tensor dtype or rank");
        for (gsize d = 0; d < rank; d++)
          {
            if (shape[d] < 0 || (shape[d] > 0 && numel > G_MAXINT64 / 16 / shape[d]))
              return bad (error, "tensor shape");
            numel *= shape[d];
          }
        if ((guint64) numel * wb_dtype_size (dt) != nbytes)
          return bad (error, "tensor data size");
        if ((t = wb_tensor_new (dt, (guint) rank, shape, error)) == NULL)
          return NULL;
        if (nbytes)
          memcpy (wb_tensor_get_data (t), data, nbytes);
        return wb_rt_value_take_tensor (t);
      }
    case 'm':
      {
        WbTensor *t = wb_runner_shm_map_tensor (map, p, error);
        return t ? wb_rt_value_take_tensor (t) : NULL;
      }
    case 'T':
    case 'L':
    case 'D':
    case 'S':
      {
        GPtrArray *items;
        WbRtValue *seq;
        if (!g_variant_is_of_type (p, G_VARIANT_TYPE ("av")))
          return bad (error, "sequence");
        if ((items = wb_runner_values_from_variant_shm (p, map, error)) == NULL)
          return NULL;
        seq = wb_rt_value_new_sequence (tag == 'T' ? WB_RT_TUPLE : tag == 'L' ? WB_RT_LIST
                                                               : tag == 'D'   ? WB_RT_DICT
                                                                              : WB_RT_SLICE);
        for (guint i = 0; i < items->len; i++)
          wb_rt_value_append (seq, wb_rt_value_ref (items->pdata[i]));
        g_ptr_array_unref (items);
        return seq;
      }
    default:
      return bad (error, "unknown tag");
    }
}

GVariant *
wb_runner_values_to_variant (GPtrArray *values)
{
  return wb_runner_values_to_variant_shm (values, NULL);
}

GVariant *
wb_runner_values_to_variant_shm (GPtrArray *values, WbRunnerShmWriter *shm)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("av"));
  for (guint i = 0; values && i < values->len; i++)
    g_variant_builder_add (&b, "v", wb_runner_value_to_variant_shm (values->pdata[i], shm));
  return g_variant_builder_end (&b);
}

GPtrArray *
wb_runner_values_from_variant (GVariant *av, GError **error)
{
  return wb_runner_values_from_variant_shm (av, NULL, error);
}

GPtrArray *
wb_runner_values_from_variant_shm (GVariant *av, WbRunnerShmMap *map, GError **error)
{
  GPtrArray *out;
  gsize      n;

  if (av == NULL || !g_variant_is_of_type (av, G_VARIANT_TYPE ("av")))
    {
      bad (error, "not av");
      return NULL;
    }
  n = g_variant_n_children (av);
  out = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr (GVariant) boxed = g_variant_get_child_value (av, i);
      g_autoptr (GVariant) inner = g_variant_get_variant (boxed);
      WbRtValue *v = wb_runner_value_from_variant_shm (inner, map, error);
      if (v == NULL)
        {
          g_ptr_array_unref (out);
          return NULL;
        }
      g_ptr_array_add (out, v);
    }
  return out;
}

/* -- PROGRESS: the checked run's calls and every phase's iterations ----------------------------------- */

static const char *const phase_names[] = { NULL, "warmup", "unprofiled", "timed", "traced" };

const char *
wb_runner_phase_to_string (WbRunnerPhase phase)
{
  return (guint) phase < G_N_ELEMENTS (phase_names) ? phase_names[phase] : NULL;
}

WbRunnerPhase
wb_runner_phase_from_string (const char *name)
{
  for (guint i = 1; name != NULL && i < G_N_ELEMENTS (phase_names); i++)
    if (strcmp (name, phase_names[i]) == 0)
      return (WbRunnerPhase) i;
  return WB_RUNNER_PHASE_NONE;
}

void
wb_runner_progress_limit_init (WbRunnerProgressLimit *limit)
{
  limit->interval_us = WB_RUNNER_PROGRESS_INTERVAL_US;
  limit->last_us = 0;
  limit->sent = 0;
}

gboolean
wb_runner_send_call (GOutputStream *out, const char *name, guint line, const char *trace, GError **error)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "region", g_variant_new_string (name));
  g_variant_builder_add (&b, "{sv}", "line", g_variant_new_uint32 (line));
  if (trace != NULL)
    g_variant_builder_add (&b, "{sv}", "trace", g_variant_new_string (trace));
  return wb_runner_write_message (out, WB_RUNNER_MSG_PROGRESS, g_variant_builder_end (&b), error);
}

gboolean
wb_runner_send_iteration (GOutputStream *out, WbRunnerProgressLimit *limit, WbRunnerPhase phase, guint done, guint total, gint64 iteration_ns, GError **error)
{
  gint64          now = g_get_monotonic_time ();
  GVariantBuilder b;

  g_return_val_if_fail (wb_runner_phase_to_string (phase) != NULL, FALSE);
  /* the last of a phase always goes (the caller sees each phase end); others once per interval */
  if (done < total && limit->last_us != 0 && now - limit->last_us < limit->interval_us)
    return FALSE;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "phase", g_variant_new_string (wb_runner_phase_to_string (phase)));
  g_variant_builder_add (&b, "{sv}", "iteration", g_variant_new_uint32 (done));
  g_variant_builder_add (&b, "{sv}", "iterations", g_variant_new_uint32 (total));
  g_variant_builder_add (&b, "{sv}", "iteration_ns", g_variant_new_int64 (iteration_ns));
  limit->last_us = now;
  limit->sent++;
  return wb_runner_write_message (out, WB_RUNNER_MSG_PROGRESS, g_variant_builder_end (&b), error);
}
