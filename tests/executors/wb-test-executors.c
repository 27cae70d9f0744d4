/* wb-test-executors.c — helpers for the executors tests
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-test-executors.h"

#include <math.h>

WbTensor *
wb_test_tensor (WbDtype dtype, guint rank, const gint64 *shape, const double *values)
{
  WbTensor *t = wb_tensor_new (dtype, rank, shape, NULL);

  g_assert_nonnull (t);
  for (gint64 i = 0; i < wb_tensor_numel (t); i++)
    wb_tensor_set_f64 (t, i, values ? values[i] : 0);
  return t;
}

void
wb_test_assert_values (const WbTensor *t, const double *values, gint64 n, double tol)
{
  g_assert_cmpint (wb_tensor_numel (t), ==, n);
  for (gint64 i = 0; i < n; i++)
    {
      double v = wb_tensor_get_f64 (t, i);
      if (isnan (values[i]))
        g_assert_true (isnan (v));
      else if (isinf (values[i]))
        g_assert_cmpfloat (v, ==, values[i]);
      else if (fabs (v - values[i]) > tol)
        g_error ("element %" G_GINT64_FORMAT ": %.9g, expected %.9g", i, v, values[i]);
    }
}

GPtrArray *
wb_test_run_text (const char *params, const char *body, GPtrArray *args, GError **error)
{
  g_autofree char *text = g_strdup_printf ("import torch\nimport thunder.core.prims as prims\n"
                                           "from thunder.executors.torchex import no_autocast\n\n"
                                           "@torch.no_grad()\n@no_autocast\ndef computation(%s):\n%s",
                                           params, body);
  g_autoptr (WbTrace) trace = wb_trace_parse (text, -1, "test.py", error);
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbRunResult) r = NULL;
  WbRunOptions options;

  if (trace == NULL)
    return NULL;
  program = wb_program_new (trace, NULL, error);
  if (program == NULL)
    return NULL;
  wb_run_options_init (&options);
  options.check_shapes = TRUE;
  options.seed = 7;
  r = wb_program_run (program, &options, args, NULL, error);
  if (r == NULL)
    return NULL;
  return g_ptr_array_ref (r->outputs);
}

GPtrArray *
wb_test_args (WbTensor *first, ...)
{
  GPtrArray *a = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  va_list    ap;

  va_start (ap, first);
  for (WbTensor *t = first; t != NULL; t = va_arg (ap, WbTensor *))
    g_ptr_array_add (a, wb_rt_value_take_tensor (t));
  va_end (ap);
  return a;
}

WbTensor *
wb_test_output (GPtrArray *outputs, guint i)
{
  WbRtValue *v;

  g_assert_nonnull (outputs);
  g_assert_cmpuint (i, <, outputs->len);
  v = outputs->pdata[i];
  g_assert_cmpint (v->kind, ==, WB_RT_TENSOR);
  return v->tensor;
}
