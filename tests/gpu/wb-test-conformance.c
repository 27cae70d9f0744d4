/* wb-test-conformance.c — the cases of the CUDA conformance tests and their runner: a case's trace, random
 * inputs, the run on the cpu and on a CUDA executor, the comparison; --compile-only
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-test-conformance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wb-cuda-toolkit.h"

const WbDtype wb_conf_float_dtypes[4] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT64 };
const WbDtype wb_conf_int_dtypes[4] = { WB_DTYPE_INT64, WB_DTYPE_INT32, WB_DTYPE_INT16, WB_DTYPE_INT8 };

static gboolean   compile_only;
static GPtrArray *cases;
static char      *cache_dir;

static const char *
dt (WbDtype d)
{
  return wb_dtype_shortname (d);
}

static char *
shape_text (guint rank, const gint64 *shape)
{
  GString *s = g_string_new ("[");

  for (guint d = 0; d < rank; d++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", shape[d]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

WbConfInput
wb_conf_input (const char *name, WbDtype dtype, guint rank, gint64 d0, gint64 d1, gint64 d2, WbConfDomain dom)
{
  WbConfInput i = { name, dtype, rank, { d0, d1, d2, 1, 1 }, dom, 0 };
  return i;
}

WbConfInput
wb_conf_input_shape (const char *name, WbDtype dtype, guint rank, const gint64 *shape, WbConfDomain dom)
{
  WbConfInput i = { name, dtype, rank, { 1, 1, 1, 1, 1 }, dom, 0 };

  g_assert (rank <= G_N_ELEMENTS (i.shape));
  memcpy (i.shape, shape, sizeof (gint64) * rank);
  return i;
}

WbConfCase *
wb_conf_case_new (const char *executor, const char *symbol, WbDtype dtype, const WbConfInput *in, guint n_in, const char *body, const char *outputs)
{
  WbConfCase *c = g_new0 (WbConfCase, 1);

  c->executor = executor;
  c->label = g_strdup_printf ("%s %s %s", executor, symbol, dt (dtype));
  memcpy (c->in, in, sizeof (WbConfInput) * n_in);
  c->n_in = n_in;
  c->body = g_strdup (body);
  c->outputs = g_strdup (outputs);
  return c;
}

void
wb_conf_add_case (const char *executor, const char *symbol, WbDtype dtype, const WbConfInput *in, guint n_in, const char *body, const char *outputs)
{
  for (int variant = 0; variant < 2; variant++)
    {
      WbConfCase *c;
      gboolean    region = g_strcmp0 (executor, "nvrtc") == 0 || (variant == 1 && g_strcmp0 (executor, "cuda") == 0);
      if (variant == 1 && g_strcmp0 (executor, "cuda") != 0)
        break;
      c = wb_conf_case_new (region ? "nvrtc" : executor, symbol, dtype, in, n_in, body, outputs);
      c->region = region;
      g_ptr_array_add (cases, c);
    }
}

static char *
case_text (const WbConfCase *c)
{
  GString *s = g_string_new ("@torch.no_grad()\ndef computation(");
  g_auto (GStrv) lines = g_strsplit (c->body, "\n", -1);

  for (guint i = 0; i < c->n_in; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", c->in[i].name);
  g_string_append (s, "):\n");
  for (guint i = 0; i < c->n_in; i++)
    {
      g_autofree char *sh = shape_text (c->in[i].rank, c->in[i].shape);
      g_string_append_printf (s, "  # %s: \"cuda:0 %s%s\"\n", c->in[i].name, dt (c->in[i].dtype), sh);
    }
  if (c->region)
    {
      g_string_append_printf (s, "  [%s] = nvrtcFusion0(", c->outputs);
      for (guint i = 0; i < c->n_in; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : "", c->in[i].name);
      g_string_append (s, ")\n");
      for (guint i = 0; lines[i]; i++)
        if (lines[i][0])
          g_string_append_printf (s, "    # %s\n", lines[i]);
    }
  else
    for (guint i = 0; lines[i]; i++)
      if (lines[i][0])
        g_string_append_printf (s, "  %s\n", lines[i]);
  g_string_append_printf (s, "  return (%s,)\n", c->outputs);
  return g_string_free (s, FALSE);
}

static double
draw (WbConfDomain dom, gint64 bound)
{
  double u = g_test_rand_double_range (0.0, 1.0);

  switch (dom)
    {
    case WB_CONF_DOM_POS:
      return 0.5 + 2.0 * u;
    case WB_CONF_DOM_UNIT:
      return (u < 0.5 ? -1 : 1) * (0.05 + 0.85 * fabs (2 * u - 1));
    case WB_CONF_DOM_INT:
      {
        gint64 x = g_test_rand_int_range (1, 21);
        return g_test_rand_bit () ? x : -x;
      }
    case WB_CONF_DOM_SHIFT:
      return g_test_rand_int_range (0, 7);
    case WB_CONF_DOM_BOOL:
      return g_test_rand_bit ();
    case WB_CONF_DOM_INDEX:
      return g_test_rand_int_range (0, (gint32) bound);
    case WB_CONF_DOM_SMALL:
      return 0.8 + 0.4 * u;
    default:
      return (u < 0.5 ? -1 : 1) * (0.1 + 1.9 * fabs (2 * u - 1));
    }
}

static WbTensor *
random_tensor (const WbConfInput *in)
{
  WbTensor *t = wb_tensor_new (in->dtype, in->rank, in->shape, NULL);
  gint64    n = wb_tensor_numel (t);

  for (gint64 i = 0; i < n; i++)
    wb_tensor_set_f64 (t, i, draw (in->dom, in->bound));
  return t;
}

static void kernel_case_compile (const WbConfCase *c, WbTrace *trace, const char *text);

/* The cpu side of case @c (trace @trace, printed as @text) runs on random inputs. */
static void
cpu_side_runs (const WbConfCase *c, WbTrace *trace, const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbProgram) p = wb_program_new (trace, NULL, &error);
  g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (WbRunResult) r = NULL;
  WbRunOptions o;

  g_assert_no_error (error);
  for (guint i = 0; i < c->n_in; i++)
    g_ptr_array_add (host, wb_rt_value_take_tensor (random_tensor (&c->in[i])));
  wb_run_options_init (&o);
  r = wb_program_run (p, &o, host, NULL, &error);
  if (r == NULL)
    g_error ("%s (cpu): %s\n%s", c->label, error->message, text);
}

/* whether attention case @c should run on the fused kernels: bf16/f16, head dim 64 or 128 (q's last dim;
 * v's the same), a device of sm_90 or newer, not WB_CUDA_ATTN=unfused */
static gboolean
attention_fused (const WbConfCase *c)
{
  WbCudaRuntime *rt = wb_cuda_runtime_get (NULL);

  return g_strcmp0 (g_getenv ("WB_CUDA_ATTN"), "unfused") != 0 &&
         wb_cuda_flash_supported (c->attention, c->in[0].shape[3], c->in[2].shape[3], NULL) &&
         (rt == NULL || wb_cuda_flash_arch_ok (wb_cuda_runtime_get_info (rt)->cc_major, wb_cuda_runtime_get_info (rt)->cc_minor, NULL));
}

static void
flatten_outputs (WbRtValue *v, GPtrArray *out)
{
  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
    for (guint i = 0; i < v->items->len; i++)
      flatten_outputs (v->items->pdata[i], out);
  else
    g_ptr_array_add (out, v);
}

static void
test_case (gconstpointer data)
{
  const WbConfCase *c = data;
  g_autofree char  *text = case_text (c);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (text, -1, c->label, &error);
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) dev = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (WbRunResult) ref = NULL;
  g_autoptr (WbRunResult) got = NULL;
  g_autoptr (GPtrArray) ref_out = g_ptr_array_new ();
  g_autoptr (GPtrArray) got_out = g_ptr_array_new ();
  WbCudaRuntime *rt;
  WbExecutor    *exec;
  WbRunOptions   o;
  GString       *report = g_string_new (NULL);
  gboolean       ok = TRUE;

  if (trace == NULL)
    g_error ("%s: %s\n%s", c->label, error->message, text);
  {
    /* a body Thunder's meta functions reject (prims.exp of bf16: ltorch upcasts first) is not a case */
    WbConfCase       rc = *c;
    g_autofree char *rtext = NULL;
    g_autoptr (WbTrace) rtrace = NULL;
    g_autoptr (WbCudaPlan) probe = NULL;
    rc.region = TRUE;
    rtext = case_text (&rc);
    rtrace = wb_trace_parse (rtext, -1, c->label, NULL);
    for (guint i = 0; c->attention == WB_DTYPE_UNKNOWN && rtrace && i < rtrace->n_body && probe == NULL && error == NULL; i++)
      if (wb_bsym_is_fusion (rtrace->body[i]))
        probe = wb_cuda_plan_new_annotated (rtrace, rtrace->body[i], WB_CUDA_CODEGEN_DEFAULT, &error);
    if (error != NULL && strstr (error->message, "unsupported input dtype") != NULL)
      {
        g_test_skip ("Thunder's meta rejects this dtype");
        g_string_free (report, TRUE);
        return;
      }
    g_clear_error (&error);
  }
  if (compile_only)
    {
      /* the region's code, generated from the annotations and compiled for sm_90 (no GPU needed) */
      g_autoptr (WbCudaPlan) plan = NULL;
      g_autoptr (WbNvrtcImage) img = NULL;
      if (c->attention != WB_DTYPE_UNKNOWN)
        {
          /* the attention row kernels of this dtype and the fused kernels of its head dim compile for sm_90,
           * and the cpu side runs */
          g_autofree char *src = wb_cuda_attention_source (c->attention);
          g_autofree char *fsrc = wb_cuda_flash_source (c->attention, c->in[0].shape[3]);
          g_assert_nonnull (src);
          for (guint s = 0; s < 2; s++)
            {
              const char *text_s = s == 0 ? src : fsrc;
              g_autoptr (WbNvrtcImage) im = text_s ? wb_nvrtc_compile (text_s, "sm_90", cache_dir, &error) : NULL;
              if (text_s != NULL && im == NULL)
                g_error ("%s: %s\n%s", c->label, error->message, text_s);
              g_assert_true (text_s == NULL || g_bytes_get_size (im->image) > 0);
            }
          g_assert_no_error (error);
          cpu_side_runs (c, trace, text);
          g_string_free (report, TRUE);
          return;
        }
      if (c->kernel)
        {
          kernel_case_compile (c, trace, text);
          g_string_free (report, TRUE);
          return;
        }
      if (!c->region)
        {
          g_test_skip ("--compile-only compiles the nvrtc variants");
          g_string_free (report, TRUE);
          return;
        }
      for (guint i = 0; i < trace->n_body && plan == NULL; i++)
        if (wb_bsym_is_fusion (trace->body[i]))
          plan = wb_cuda_plan_new_annotated (trace, trace->body[i], WB_CUDA_CODEGEN_DEFAULT, &error);
      if (plan == NULL)
        g_error ("%s: %s\n%s", c->label, error ? error->message : "no region", text);
      img = wb_nvrtc_compile (plan->source, "sm_90", cache_dir, &error);
      if (img == NULL)
        g_error ("%s: %s\n%s", c->label, error->message, plan->source);
      /* and the reference side of the case runs */
      cpu_side_runs (c, trace, text);
      g_string_free (report, TRUE);
      return;
    }
  if ((rt = wb_cuda_runtime_get (&error)) == NULL)
    {
      g_test_skip (error->message);
      g_string_free (report, TRUE);
      return;
    }
  program = wb_program_new (trace, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < c->n_in; i++)
    {
      g_autoptr (WbTensor) t = random_tensor (&c->in[i]);
      WbTensor *d = wb_cuda_upload (rt, t, &error);
      g_assert_no_error (error);
      g_ptr_array_add (host, wb_rt_value_new_tensor (t));
      g_ptr_array_add (dev, wb_rt_value_take_tensor (d));
    }
  wb_run_options_init (&o);
  o.seed = g_test_rand_int ();
  wb_program_assign (program, NULL, wb_executor_lookup ("cpu"));
  ref = wb_program_run (program, &o, host, NULL, &error);
  if (ref == NULL)
    g_error ("%s (cpu): %s", c->label, error->message);
  exec = wb_cuda_executor_get (c->executor, &error);
  g_assert_no_error (error);
  wb_program_assign (program, NULL, exec);
  wb_cuda_executors_begin_run ();
  wb_cuda_attention_reset_stats ();
  wb_cuda_runtime_set_sync (rt, TRUE);
  got = wb_program_run (program, &o, dev, NULL, &error);
  if (got == NULL)
    {
      g_test_fail_printf ("%s (%s): %s\n%s", c->label, c->executor, error->message, text);
      if (error->domain == WB_CUDA_ERROR && error->code == WB_CUDA_ERROR_FAULT)
        {
          /* the context is lost: end the process (run-on-device.sh resumes after this case) */
          g_printerr ("FAULT in %s: %s\n", c->label, error->message);
          exit (99);
        }
      g_string_free (report, TRUE);
      return;
    }
  if (wb_cuda_executors_get_stats ()->fallbacks != 0 || (c->region && wb_cuda_executors_get_stats ()->regions_fused != 1))
    {
      g_test_fail_printf ("%s: ran with %u cpu fallbacks and %u fused regions\n%s", c->label, wb_cuda_executors_get_stats ()->fallbacks,
                          wb_cuda_executors_get_stats ()->regions_fused, text);
      g_string_free (report, TRUE);
      return;
    }
  if (c->attention != WB_DTYPE_UNKNOWN)
    {
      /* every attention call took the path expected of its dtype and head dim */
      WbCudaAttentionStats as;
      gboolean             fused = attention_fused (c);
      g_autofree char     *why_not_cudnn = NULL;
      gboolean             cudnn = wb_cuda_attention_cudnn_takes (c->attention, c->in[0].shape[3], c->in[2].shape[3], c->attention_scale,
                                                                  &why_not_cudnn);
      wb_cuda_attention_get_stats (&as);
      /* cuDNN takes every call it is offered (a refusal is a failure: it would hide a broken graph), else
       * the FlashAttention-2 kernels or the unfused path, as the dtype and head dim say */
      if (cudnn ? (as.cudnn == 0 || as.fused + as.unfused != 0)
                : (as.cudnn != 0 || as.fused + as.unfused == 0 || (fused ? as.unfused : as.fused) != 0))
        {
          g_test_fail_printf ("%s: %u cuDNN, %u fused and %u unfused attention calls, expected %s (%s)\n%s", c->label, as.cudnn, as.fused,
                              as.unfused, cudnn ? "cuDNN" : fused ? "fused"
                                                                  : "unfused",
                              cudnn ? as.why_not_cudnn : as.why_unfused, text);
          g_string_free (report, TRUE);
          return;
        }
      if (!cudnn)
        g_test_message ("%s: not cuDNN: %s", c->label, why_not_cudnn);
      if (!cudnn && !fused)
        g_test_message ("%s: unfused: %s", c->label, as.why_unfused);
    }
  flatten_outputs (ref->value, ref_out);
  flatten_outputs (got->value, got_out);
  if (ref_out->len != got_out->len)
    {
      g_test_fail_printf ("%s: %u outputs, cpu %u", c->label, got_out->len, ref_out->len);
      g_string_free (report, TRUE);
      return;
    }
  for (guint i = 0; i < ref_out->len; i++)
    {
      WbRtValue *r = ref_out->pdata[i], *gv = got_out->pdata[i];
      g_autoptr (WbTensor) h = NULL;
      WbCompareResult res;
      double          rtol, atol;
      if (r->kind != WB_RT_TENSOR || gv->kind != WB_RT_TENSOR || !wb_cuda_tensor_is_device (gv->tensor) ||
          gv->tensor->dtype != r->tensor->dtype)
        {
          g_autofree char *a = wb_rt_value_describe (gv);
          g_autofree char *b = wb_rt_value_describe (r);
          g_test_fail_printf ("%s: output %u is %s, cpu %s", c->label, i, a, b);
          ok = FALSE;
          continue;
        }
      h = wb_cuda_download (rt, gv->tensor, &error);
      if (h == NULL)
        {
          g_test_fail_printf ("%s: download: %s", c->label, error->message);
          if (error->domain == WB_CUDA_ERROR && error->code == WB_CUDA_ERROR_FAULT)
            exit (99);
          g_string_free (report, TRUE);
          return;
        }
      wb_dtype_default_tolerance (r->tensor->dtype, &rtol, &atol);
      if (c->tol_mult > 0)
        rtol *= c->tol_mult, atol *= c->tol_mult;
      if (c->exact)
        rtol = atol = 0;
      if (!wb_tensor_compare (h, r->tensor, rtol, atol, FALSE, &res, &error))
        {
          g_test_fail_printf ("%s: %s", c->label, error->message);
          ok = FALSE;
          g_clear_error (&error);
          continue;
        }
      g_string_append_printf (report, "%s output %u %s%s: max abs %.3e, rel %.3e, %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " outside",
                              c->label, i, dt (h->dtype), wb_tensor_shape_to_string (h), res.max_abs, res.rel, res.mismatches, res.n);
      if (res.mismatches > 0)
        {
          gint64 k = res.first_mismatch;
          g_string_append_printf (report, " (first #%" G_GINT64_FORMAT ": gpu %.9g, cpu %.9g)", k, wb_tensor_get_f64 (h, k),
                                  wb_tensor_get_f64 (r->tensor, k));
          ok = FALSE;
        }
      g_string_append_c (report, '\n');
    }
  wb_cuda_executors_end_run ();
  g_test_message ("%s", report->str);
  if (!ok)
    g_test_fail_printf ("%s\n%s", report->str, text);
  g_string_free (report, TRUE);
}

/* --compile-only: the kernels' units compile for sm_90 (the first case compiles them, the others hit the
 * cache), every call of the case goes to a kernel or a generated plan (no cpu fallback), and the cpu side
 * runs. */
static void
kernel_case_compile (const WbConfCase *c, WbTrace *trace, const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) where = g_string_new (NULL);

  for (guint u = 0; wb_cuda_kernels_source (u) != NULL; u++)
    {
      g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (wb_cuda_kernels_source (u), "sm_90", cache_dir, &error);
      if (img == NULL)
        g_error ("%s: unit %u: %s", c->label, u, error->message);
      g_assert_cmpuint (g_bytes_get_size (img->image), >, 0);
    }
  if (wb_cuda_executors_explain (trace, "cuda", where) != 0 || strstr (where->str, "cuda (kernel)") == NULL)
    g_test_fail_printf ("%s: not dispatched to a kernel:\n%s", c->label, where->str);
  cpu_side_runs (c, trace, text);
}

void
wb_conf_append (WbConfCase *c)
{
  g_ptr_array_add (cases, c);
}

void
wb_conf_init (int *argc, char ***argv)
{
  for (int i = 1; i < *argc; i++)
    if (strcmp ((*argv)[i], "--compile-only") == 0)
      compile_only = TRUE;
  g_test_init (argc, argv, NULL);
  cache_dir = g_strdup (g_getenv ("WB_KERNEL_CACHE_DIR"));
  cases = g_ptr_array_new ();
}

void
wb_conf_add_tests (void)
{
  for (guint i = 0; i < cases->len; i++)
    {
      WbConfCase      *c = cases->pdata[i];
      g_autofree char *path = g_strdup_printf ("/cuda/conformance/%03u %s", i, c->label);
      for (char *p = path + 1; *p; p++)
        if (*p == ' ')
          *p = '_';
      g_test_add_data_func (path, c, test_case);
    }
}
