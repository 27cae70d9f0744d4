/* test-runner-protocol.c — the runner's message framing and value encoding round-trip, and the caller's
 * behaviour without a GPU (suite profiler: runs in CI)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-profiler.h"

static WbRtValue *
tensor_value (WbDtype dtype, guint rank, const gint64 *shape)
{
  WbTensor *t = wb_tensor_new (dtype, rank, shape, NULL);

  for (gint64 i = 0; i < wb_tensor_numel (t); i++)
    wb_tensor_set_f64 (t, i, (double) (i % 7) - 3.0);
  return wb_rt_value_take_tensor (t);
}

static void
test_values (void)
{
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) v = NULL;
  WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
  WbDevice   dev = { WB_DEVICE_CUDA, 0 };

  g_ptr_array_add (values, tensor_value (WB_DTYPE_FLOAT32, 2, (gint64[]){ 3, 5 }));
  g_ptr_array_add (values, tensor_value (WB_DTYPE_BFLOAT16, 1, (gint64[]){ 4 }));
  g_ptr_array_add (values, tensor_value (WB_DTYPE_INT64, 0, NULL));
  g_ptr_array_add (values, tensor_value (WB_DTYPE_BOOL8, 2, (gint64[]){ 0, 3 }));
  g_ptr_array_add (values, wb_rt_value_new_int (-7));
  g_ptr_array_add (values, wb_rt_value_new_float (2.5));
  g_ptr_array_add (values, wb_rt_value_new_bool (TRUE));
  g_ptr_array_add (values, wb_rt_value_new_none ());
  g_ptr_array_add (values, wb_rt_value_new_string ("x"));
  g_ptr_array_add (values, wb_rt_value_new_dtype (WB_DTYPE_FLOAT16, FALSE));
  g_ptr_array_add (values, wb_rt_value_new_device (&dev));
  wb_rt_value_append (tuple, tensor_value (WB_DTYPE_FLOAT64, 1, (gint64[]){ 2 }));
  wb_rt_value_append (tuple, wb_rt_value_new_int (3));
  g_ptr_array_add (values, tuple);
  v = g_variant_ref_sink (wb_runner_values_to_variant (values));
  back = wb_runner_values_from_variant (v, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, values->len);
  for (guint i = 0; i < values->len; i++)
    {
      g_autofree char *a = wb_rt_value_describe (values->pdata[i]);
      g_autofree char *b = wb_rt_value_describe (back->pdata[i]);
      WbRtValue       *x = values->pdata[i], *y = back->pdata[i];
      g_assert_cmpstr (a, ==, b);
      if (x->kind == WB_RT_TENSOR)
        {
          g_assert_cmpint (x->tensor->dtype, ==, y->tensor->dtype);
          g_assert_cmpmem (wb_tensor_get_data (x->tensor), wb_tensor_nbytes (x->tensor), wb_tensor_get_data (y->tensor),
                           wb_tensor_nbytes (y->tensor));
        }
    }
}

static void
test_framing (void)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) msg = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GVariantBuilder b;
  WbRunnerMsgType type;
  const char     *s = NULL;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "region", g_variant_new_string ("nvrtcFusion3"));
  g_assert_true (wb_runner_write_message (out, WB_RUNNER_MSG_PROGRESS, g_variant_builder_end (&b), &error));
  g_assert_true (wb_runner_write_message (out, WB_RUNNER_MSG_QUIT, NULL, &error));
  g_output_stream_close (out, NULL, NULL);
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 4, "WBR1", 4);
  in = g_memory_input_stream_new_from_bytes (bytes);
  g_assert_true (wb_runner_read_message (in, &type, &msg, &error));
  g_assert_cmpint (type, ==, WB_RUNNER_MSG_PROGRESS);
  g_assert_true (g_variant_lookup (msg, "region", "&s", &s));
  g_assert_cmpstr (s, ==, "nvrtcFusion3");
  g_clear_pointer (&msg, g_variant_unref);
  g_assert_true (wb_runner_read_message (in, &type, &msg, &error));
  g_assert_cmpint (type, ==, WB_RUNNER_MSG_QUIT);
  g_clear_pointer (&msg, g_variant_unref);
  g_assert_false (wb_runner_read_message (in, &type, &msg, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED);
  g_clear_error (&error);
  /* garbage is a protocol error, not a crash */
  {
    g_autoptr (GInputStream) junk = g_memory_input_stream_new_from_data ("XXXXyyyyzzzzwwww", 16, NULL);
    g_assert_false (wb_runner_read_message (junk, &type, &msg, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  }
}

/* On a machine without a driver the runner starts, and the probe and a run say why CUDA is unusable. */
static void
test_no_gpu (void)
{
  g_autoptr (WbRunner) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;

  r = wb_runner_new (&error);
  if (r == NULL)
    {
      g_assert_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NOT_FOUND);
      g_test_skip ("no runner in this build");
      return;
    }
  if (wb_runner_probe (r, &device, &error))
    {
      g_test_skip ("a GPU is present");
      return;
    }
  g_assert_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NO_GPU);
  g_assert_nonnull (strstr (error->message, "CUDA is not available"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  {
    /* 16 KiB: through the runner's memfd path (wb-runner-shm.h), whose descriptor it takes before answering */
    g_autoptr (WbTrace) t = wb_trace_parse ("def computation(a):\n  # a: \"cuda:0 f32[4096]\"\n  t0 = prims.neg(a)\n  return (t0,)\n", -1, "x.py", &error);
    g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
    WbRunnerRequest req = { 0 };
    int             code = 0;
    g_assert_no_error (error);
    g_ptr_array_add (args, tensor_value (WB_DTYPE_FLOAT32, 1, (gint64[]){ 4096 }));
    req.forward = t;
    req.args = args;
    g_assert_null (wb_runner_run (r, &req, &code, &error));
    g_assert_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NO_GPU);
    g_assert_cmpint (code, ==, 3);
    g_assert_true (wb_runner_is_alive (r));
    /* and again: the runner took the first request's descriptor, the second's is the next */
    g_clear_error (&error);
    g_assert_null (wb_runner_run (r, &req, &code, &error));
    g_assert_error (error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_NO_GPU);
    g_assert_true (wb_runner_is_alive (r));
  }
}

int
main (int argc, char **argv)
{
  const char *root = g_getenv ("WB_BUILD_ROOT");

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WB_RUNNER") == NULL && root != NULL)
    {
      g_autofree char *r = g_build_filename (root, "profiler", "thunder-wb-runner", NULL);
      g_setenv ("WB_RUNNER", r, TRUE);
    }
  g_test_add_func ("/runner/protocol/values", test_values);
  g_test_add_func ("/runner/protocol/framing", test_framing);
  g_test_add_func ("/runner/no-gpu", test_no_gpu);
  return g_test_run ();
}
