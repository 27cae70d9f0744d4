/* wb-runner-inputs.c — inputs a program writes in place, given back before every run after the checked one
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's traces write into their inputs (copy_ into a buffer such as BatchNorm's running statistics or
 * T5's relative position buckets, in-place ops). The runner uploads the inputs once and runs the program
 * many times, so without care every warm-up and timed run would start from the previous run's writes:
 * statistics drift, and an index computed in place runs past its table. After the checked run each
 * device argument is compared with what the request sent; those that changed are kept as a pristine
 * device copy and copied back (device to device, on the run's stream) before every later run and graph
 * replay, so that every run sees the inputs the checked run saw. Also the uploads and downloads of a run's
 * values, and the request's executor choices applied to the program. */
#include "config.h"

#include <string.h>

#include "wb-runner-main-private.h"

gboolean
_wb_runner_find_written_inputs (WbCudaRuntime *rt, GPtrArray *args, GPtrArray *host_args, WbWrittenInputs *w, GError **error)
{
  w->dst = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  w->src = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  w->bytes = 0;
  for (guint i = 0; i < MIN (args->len, host_args->len); i++)
    {
      WbRtValue *d = args->pdata[i], *h = host_args->pdata[i];
      g_autoptr (WbTensor) back = NULL;
      g_autoptr (WbTensor) sent = NULL;
      WbTensor *pristine;
      gsize     n;

      if (d == NULL || h == NULL || d->kind != WB_RT_TENSOR || h->kind != WB_RT_TENSOR || !wb_cuda_tensor_is_device (d->tensor))
        continue;
      if ((back = wb_cuda_download (rt, d->tensor, error)) == NULL || (sent = wb_tensor_contiguous (h->tensor, error)) == NULL)
        return FALSE;
      n = (gsize) wb_tensor_nbytes (sent);
      if (n == 0 || (gsize) wb_tensor_nbytes (back) != n || memcmp (wb_tensor_get_data (back), wb_tensor_get_data (sent), n) == 0)
        continue;
      if ((pristine = wb_cuda_upload (rt, sent, error)) == NULL)
        return FALSE;
      g_ptr_array_add (w->dst, wb_tensor_ref (d->tensor));
      g_ptr_array_add (w->src, pristine);
      w->bytes += (gint64) n;
    }
  return TRUE;
}

gboolean
_wb_runner_restore_inputs (WbCudaRuntime *rt, const WbWrittenInputs *w, GError **error)
{
  const WbCuApi *cu = wb_cuda_runtime_get_api (rt);

  for (guint i = 0; w->dst != NULL && i < w->dst->len; i++)
    {
      WbTensor *d = w->dst->pdata[i], *s = w->src->pdata[i];
      if (!wb_cuda_check (cu->cuMemcpyDtoDAsync (wb_cuda_tensor_ptr (d), wb_cuda_tensor_ptr (s), (gsize) wb_tensor_nbytes (s),
                                                 wb_cuda_runtime_get_stream (rt)),
                          "cuMemcpyDtoDAsync", error))
        return FALSE;
    }
  return TRUE;
}

void
_wb_runner_written_inputs_clear (WbWrittenInputs *w)
{
  g_clear_pointer (&w->dst, g_ptr_array_unref);
  g_clear_pointer (&w->src, g_ptr_array_unref);
}

/* Device copies of @values (uploaded once for every run). */
GPtrArray *
_wb_runner_upload_all (WbCudaRuntime *rt, GPtrArray *values, GError **error)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  for (guint i = 0; values && i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      if (v->kind == WB_RT_TENSOR)
        {
          WbTensor *d = wb_cuda_upload (rt, v->tensor, error);
          if (d == NULL)
            {
              g_ptr_array_unref (out);
              return NULL;
            }
          g_ptr_array_add (out, wb_rt_value_take_tensor (d));
        }
      else
        g_ptr_array_add (out, wb_rt_value_ref (v));
    }
  return out;
}

/* Host copies of @values (transfer full), for the RESULT message (wb_runner_shm_add_values). */
GPtrArray *
_wb_runner_download_all (WbCudaRuntime *rt, GPtrArray *values, GError **error)
{
  g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);

  for (guint i = 0; values && i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      if (v->kind == WB_RT_TENSOR)
        {
          WbTensor *h = wb_cuda_download (rt, v->tensor, error);
          if (h == NULL)
            return NULL;
          g_ptr_array_add (host, wb_rt_value_take_tensor (h));
        }
      else
        g_ptr_array_add (host, wb_rt_value_ref (v));
    }
  return g_steal_pointer (&host);
}

/* -- the request's executor choices ---------------------------------------------------------------- */

/* Assigns the request's choices (wb_assignment_to_variant) to @program's calls: a region key ("@t12") to
 * the region of the program's traces that has it, a name to the calls printed with it. */
gboolean
_wb_runner_assign_choices (WbProgram *program, GVariant *assign, GError **error)
{
  g_autoptr (WbAssignment) assignment = wb_assignment_new_from_variant (assign, error);
  const WbTrace *traces[2] = { wb_program_get_forward (program), wb_program_get_backward (program) };

  if (assignment == NULL)
    return FALSE;
  for (guint i = 0; i < wb_assignment_get_n_choices (assignment); i++)
    {
      const WbAssignmentChoice *c = wb_assignment_get_choice (assignment, i);
      const char               *name = wb_assignment_resolve_key (c->key, traces, 2);
      WbExecutor               *e;

      if (name == NULL)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s=%s: no region has the key %s", c->key, c->executor, c->key);
          return FALSE;
        }
      if ((e = wb_cuda_executor_get (c->executor, error)) == NULL)
        return FALSE;
      wb_program_assign (program, name, e);
    }
  return TRUE;
}

/* The request's choices by call ordinal ("calls" a{us}: `bisect`), after those by name, which they beat */
gboolean
_wb_runner_assign_calls (WbProgram *program, GVariant *calls, GError **error)
{
  GVariantIter it;
  guint32      ordinal;
  const char  *name;

  g_variant_iter_init (&it, calls);
  while (g_variant_iter_next (&it, "{u&s}", &ordinal, &name))
    {
      WbExecutor *e = wb_cuda_executor_get (name, error);

      if (e == NULL)
        return FALSE;
      if (!wb_program_assign_call (program, ordinal, e))
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT, "call #%u=%s: the program has %u calls", ordinal, name,
                       wb_program_get_n_calls (program));
          return FALSE;
        }
    }
  return TRUE;
}
