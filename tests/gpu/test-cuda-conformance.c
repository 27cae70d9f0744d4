/* test-cuda-conformance.c — every (executor, symbol, dtype) the CUDA executors implement against the cpu
 * executor on random inputs (suite gpu)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case is a small trace (one prim, or a short chain) run twice through the interpreter: on the cpu
 * executor and on a CUDA executor (cuda: one kernel per op; nvrtc: the same body as one fusion region;
 * cublas: matmul and linear), with inputs drawn fresh on every run (never zeros; positive where the op
 * needs it; indices in range) and compared with the tolerance of the output dtype
 * (wb_dtype_default_tolerance). A case must also run without any cpu fallback. Without a GPU every case
 * is skipped (the probe is the runner's: wb_cuda_probe). --compile-only generates and compiles the
 * nvrtc variant of every case with NVRTC, which needs no GPU (used before a run on the GPU machine).
 * Attention cases (forward and backward of the sdpa ops and ltorch.scaled_dot_product_attention) run on
 * the cuda and nvrtc executors as top-level calls, on the fused FlashAttention-2 kernels where they take
 * the dtype and head dim (wb-cuda-flash.h; each case checks which path ran) and on the unfused path
 * otherwise; --compile-only compiles their row kernels for the case's dtype (wb_cuda_attention_source)
 * and the fused kernels of its dtype and head dim (wb_cuda_flash_source), and runs the cpu side. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wb-cuda-attention.h"
#include "wb-cuda-executors.h"
#include "wb-cuda-flash.h"
#include "wb-cuda-kernels.h"
#include "wb-test-common.h"

typedef enum
{
  DOM_ANY = 1, /* [-2, -0.1] u [0.1, 2] */
  DOM_POS,     /* [0.5, 2.5] */
  DOM_UNIT,    /* [-0.9, 0.9] without (-0.05, 0.05) */
  DOM_INT,     /* integers in [-20, 20] without 0 */
  DOM_SHIFT,   /* integers in [0, 6] */
  DOM_BOOL,    /* 0 or 1 */
  DOM_INDEX,   /* integers in [0, bound) */
  DOM_SMALL,   /* [0.8, 1.2] (products) */
} Domain;

typedef struct
{
  const char *name;
  WbDtype     dtype;
  guint       rank;
  gint64      shape[4];
  Domain      dom;
  gint64      bound;
} Input;

typedef struct
{
  char       *label;    /* "cuda prims.add f32" */
  const char *executor; /* cuda, nvrtc, cublas */
  Input       in[4];
  guint       n_in;
  char       *body;      /* lines "t0 = prims.add(a, b)" separated by \n */
  char       *outputs;   /* "t0" or "t0, t1" */
  gboolean    region;    /* wrap the body in nvrtcFusion0 */
  WbDtype     attention; /* an attention case: the dtype of its row kernels (WB_DTYPE_UNKNOWN otherwise) */
  double      tol_mult;  /* the dtype's tolerance times this (0: 1) */
  gboolean    kernel;    /* a hand-written kernel of the cuda executor (wb-cuda-kernels.h): one op, no region */
  gboolean    exact;     /* compare bit for bit (random draws) */
} Case;

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

static Input
input (const char *name, WbDtype dtype, guint rank, gint64 d0, gint64 d1, gint64 d2, Domain dom)
{
  Input i = { name, dtype, rank, { d0, d1, d2, 1 }, dom, 0 };
  return i;
}

static void
add_case (const char *executor, const char *symbol, WbDtype dtype, const Input *in, guint n_in, const char *body, const char *outputs)
{
  for (int variant = 0; variant < 2; variant++)
    {
      Case    *c;
      gboolean region = g_strcmp0 (executor, "nvrtc") == 0 || (variant == 1 && g_strcmp0 (executor, "cuda") == 0);
      if (variant == 1 && g_strcmp0 (executor, "cuda") != 0)
        break;
      c = g_new0 (Case, 1);
      c->executor = region ? "nvrtc" : executor;
      c->label = g_strdup_printf ("%s %s %s", c->executor, symbol, dt (dtype));
      memcpy (c->in, in, sizeof (Input) * n_in);
      c->n_in = n_in;
      c->body = g_strdup (body);
      c->outputs = g_strdup (outputs);
      c->region = region;
      g_ptr_array_add (cases, c);
    }
}

static char *
case_text (const Case *c)
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
draw (Domain dom, gint64 bound)
{
  double u = g_test_rand_double_range (0.0, 1.0);

  switch (dom)
    {
    case DOM_POS:
      return 0.5 + 2.0 * u;
    case DOM_UNIT:
      return (u < 0.5 ? -1 : 1) * (0.05 + 0.85 * fabs (2 * u - 1));
    case DOM_INT:
      {
        gint64 x = g_test_rand_int_range (1, 21);
        return g_test_rand_bit () ? x : -x;
      }
    case DOM_SHIFT:
      return g_test_rand_int_range (0, 7);
    case DOM_BOOL:
      return g_test_rand_bit ();
    case DOM_INDEX:
      return g_test_rand_int_range (0, (gint32) bound);
    case DOM_SMALL:
      return 0.8 + 0.4 * u;
    default:
      return (u < 0.5 ? -1 : 1) * (0.1 + 1.9 * fabs (2 * u - 1));
    }
}

static WbTensor *
random_tensor (const Input *in)
{
  WbTensor *t = wb_tensor_new (in->dtype, in->rank, in->shape, NULL);
  gint64    n = wb_tensor_numel (t);

  for (gint64 i = 0; i < n; i++)
    wb_tensor_set_f64 (t, i, draw (in->dom, in->bound));
  return t;
}

static void kernel_case_compile (const Case *c, WbTrace *trace, const char *text);

/* whether attention case @c should run on the fused kernels: bf16/f16, head dim 64 or 128 (q's last dim;
 * v's the same), not WB_CUDA_ATTN=unfused */
static gboolean
attention_fused (const Case *c)
{
  return g_strcmp0 (g_getenv ("WB_CUDA_ATTN"), "unfused") != 0 &&
         wb_cuda_flash_supported (c->attention, c->in[0].shape[3], c->in[2].shape[3], NULL);
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
  const Case      *c = data;
  g_autofree char *text = case_text (c);
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
    Case             rc = *c;
    g_autofree char *rtext = NULL;
    g_autoptr (WbTrace) rtrace = NULL;
    g_autoptr (WbCudaPlan) probe = NULL;
    rc.region = TRUE;
    rtext = case_text (&rc);
    rtrace = wb_trace_parse (rtext, -1, c->label, NULL);
    for (guint i = 0; c->attention == WB_DTYPE_UNKNOWN && rtrace && i < rtrace->n_body && probe == NULL && error == NULL; i++)
      if (wb_bsym_is_fusion (rtrace->body[i]))
        probe = wb_cuda_plan_new_annotated (rtrace, rtrace->body[i], &error);
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
          g_autoptr (WbProgram) p = wb_program_new (trace, NULL, &error);
          g_autoptr (WbRunResult) r = NULL;
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
          for (guint i = 0; i < c->n_in; i++)
            g_ptr_array_add (host, wb_rt_value_take_tensor (random_tensor (&c->in[i])));
          wb_run_options_init (&o);
          r = wb_program_run (p, &o, host, NULL, &error);
          if (r == NULL)
            g_error ("%s (cpu): %s\n%s", c->label, error->message, text);
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
          plan = wb_cuda_plan_new_annotated (trace, trace->body[i], &error);
      if (plan == NULL)
        g_error ("%s: %s\n%s", c->label, error ? error->message : "no region", text);
      img = wb_nvrtc_compile (plan->source, "sm_90", cache_dir, &error);
      if (img == NULL)
        g_error ("%s: %s\n%s", c->label, error->message, plan->source);
      /* and the reference side of the case runs */
      {
        g_autoptr (WbProgram) p = wb_program_new (trace, NULL, &error);
        g_autoptr (WbRunResult) r = NULL;
        g_assert_no_error (error);
        for (guint i = 0; i < c->n_in; i++)
          g_ptr_array_add (host, wb_rt_value_take_tensor (random_tensor (&c->in[i])));
        wb_run_options_init (&o);
        r = wb_program_run (p, &o, host, NULL, &error);
        if (r == NULL)
          g_error ("%s (cpu): %s\n%s", c->label, error->message, text);
      }
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
      wb_cuda_attention_get_stats (&as);
      if (as.fused + as.unfused == 0 || (fused ? as.unfused : as.fused) != 0)
        {
          g_test_fail_printf ("%s: %u fused and %u unfused attention calls, expected %s (%s)\n%s", c->label, as.fused, as.unfused,
                              fused ? "fused" : "unfused", as.why_unfused, text);
          g_string_free (report, TRUE);
          return;
        }
      if (!fused)
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

/* -- the cases ------------------------------------------------------------------------------------ */

static void attention_cases (void);
static void kernel_cases (void);

static const WbDtype float_dtypes[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT64 };
static const WbDtype int_dtypes[] = { WB_DTYPE_INT64, WB_DTYPE_INT32, WB_DTYPE_INT16, WB_DTYPE_INT8 };

static void
unary (const char *op, Domain dom, gboolean floats, gboolean ints)
{
  for (guint k = 0; floats && k < G_N_ELEMENTS (float_dtypes); k++)
    {
      Input            in = input ("a", float_dtypes[k], 2, 37, 41, 1, dom);
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      add_case ("cuda", sym, float_dtypes[k], &in, 1, body, "t0");
    }
  for (guint k = 0; ints && k < G_N_ELEMENTS (int_dtypes); k++)
    {
      Input            in = input ("a", int_dtypes[k], 2, 37, 41, 1, DOM_INT);
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      add_case ("cuda", sym, int_dtypes[k], &in, 1, body, "t0");
    }
}

static void
binary (const char *op, Domain da, Domain db, gboolean floats, gboolean ints)
{
  for (guint k = 0; floats && k < G_N_ELEMENTS (float_dtypes); k++)
    {
      Input            in[2] = { input ("a", float_dtypes[k], 2, 37, 41, 1, da), input ("b", float_dtypes[k], 2, 37, 41, 1, db) };
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a, b)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      add_case ("cuda", sym, float_dtypes[k], in, 2, body, "t0");
    }
  for (guint k = 0; ints && k < G_N_ELEMENTS (int_dtypes); k++)
    {
      Input            in[2] = { input ("a", int_dtypes[k], 2, 37, 41, 1, DOM_INT),
                                 input ("b", int_dtypes[k], 2, 37, 41, 1, db == DOM_SHIFT ? DOM_SHIFT : DOM_INT) };
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a, b)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      add_case ("cuda", sym, int_dtypes[k], in, 2, body, "t0");
    }
}

static void
build_cases (void)
{
  static const char   *conv_names[] = { "float64", "float32", "bfloat16", "float16", "int64", "int32", "int8", "uint8", "bool8" };
  static const WbDtype conv_dtypes[] = { WB_DTYPE_FLOAT64, WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_INT64,
                                         WB_DTYPE_INT32, WB_DTYPE_INT8, WB_DTYPE_UINT8, WB_DTYPE_BOOL8 };

  cases = g_ptr_array_new ();
  /* elementwise */
  unary ("abs", DOM_ANY, TRUE, TRUE);
  unary ("neg", DOM_ANY, TRUE, TRUE);
  unary ("exp", DOM_ANY, TRUE, FALSE);
  unary ("log", DOM_POS, TRUE, FALSE);
  unary ("sqrt", DOM_POS, TRUE, FALSE);
  unary ("rsqrt", DOM_POS, TRUE, FALSE);
  unary ("tanh", DOM_ANY, TRUE, FALSE);
  unary ("sin", DOM_ANY, TRUE, FALSE);
  unary ("cos", DOM_ANY, TRUE, FALSE);
  unary ("erf", DOM_ANY, TRUE, FALSE);
  unary ("reciprocal", DOM_ANY, TRUE, FALSE);
  unary ("floor", DOM_ANY, TRUE, FALSE);
  unary ("round", DOM_ANY, TRUE, FALSE);
  unary ("sign", DOM_ANY, TRUE, TRUE);
  unary ("log1p", DOM_POS, TRUE, FALSE);
  unary ("expm1", DOM_ANY, TRUE, FALSE);
  unary ("asin", DOM_UNIT, TRUE, FALSE);
  unary ("bitwise_not", DOM_INT, FALSE, TRUE);
  binary ("add", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("sub", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("mul", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("div", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("maximum", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("minimum", DOM_ANY, DOM_ANY, TRUE, FALSE);
  binary ("pow", DOM_POS, DOM_ANY, TRUE, FALSE);
  binary ("atan2", DOM_ANY, DOM_ANY, TRUE, FALSE);
  binary ("remainder", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("fmod", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("eq", DOM_SHIFT, DOM_SHIFT, TRUE, TRUE);
  binary ("lt", DOM_ANY, DOM_ANY, TRUE, TRUE);
  binary ("ge", DOM_ANY, DOM_ANY, TRUE, FALSE);
  binary ("ne", DOM_SHIFT, DOM_SHIFT, TRUE, FALSE);
  binary ("bitwise_and", DOM_INT, DOM_INT, FALSE, TRUE);
  binary ("bitwise_xor", DOM_INT, DOM_INT, FALSE, TRUE);
  binary ("bitwise_left_shift", DOM_INT, DOM_SHIFT, FALSE, TRUE);
  binary ("bitwise_right_shift", DOM_INT, DOM_SHIFT, FALSE, TRUE);
  for (guint k = 0; k < G_N_ELEMENTS (float_dtypes); k++)
    {
      Input in[3] = { input ("c", WB_DTYPE_BOOL8, 2, 37, 41, 1, DOM_BOOL), input ("a", float_dtypes[k], 2, 37, 41, 1, DOM_ANY),
                      input ("b", float_dtypes[k], 2, 37, 41, 1, DOM_ANY) };
      add_case ("cuda", "prims.where", float_dtypes[k], in, 3, "t0 = prims.where(c, a, b)", "t0");
      add_case ("cuda", "prims.mul(number)", float_dtypes[k], &in[1], 1, "t0 = prims.mul(a, 0.7978845608028654)\nt1 = prims.add(1.0, t0)", "t1");
    }
  /* conversions between every pair */
  for (guint i = 0; i < G_N_ELEMENTS (conv_dtypes); i++)
    for (guint j = 0; j < G_N_ELEMENTS (conv_dtypes); j++)
      {
        Input            in;
        g_autofree char *body = NULL;
        g_autofree char *sym = NULL;
        if (i == j)
          continue;
        in = input ("a", conv_dtypes[i], 2, 19, 23, 1,
                    conv_dtypes[i] == WB_DTYPE_BOOL8 ? DOM_BOOL : conv_dtypes[i] == WB_DTYPE_UINT8 ? DOM_SHIFT
                                                              : wb_dtype_is_float (conv_dtypes[i]) ? DOM_ANY
                                                                                                   : DOM_INT);
        if (wb_dtype_is_float (conv_dtypes[i]) && conv_dtypes[j] == WB_DTYPE_UINT8)
          in.dom = DOM_POS;
        body = g_strdup_printf ("t0 = prims.convert_element_type(a, dtypes.%s)", conv_names[j]);
        sym = g_strdup_printf ("prims.convert_element_type(%s)", wb_dtype_shortname (conv_dtypes[j]));
        add_case ("cuda", sym, conv_dtypes[i], &in, 1, body, "t0");
      }
  /* broadcasts and chains (what regions look like) */
  for (guint k = 0; k < 3; k++)
    {
      Input in[2] = { input ("a", float_dtypes[k], 2, 33, 65, 1, DOM_ANY), input ("b", float_dtypes[k], 1, 65, 1, 1, DOM_ANY) };
      add_case ("nvrtc", "chain broadcast_in_dim+gelu", float_dtypes[k], in, 2,
                "t0 = prims.broadcast_in_dim(b, (33, 65), (1,))\nt1 = prims.convert_element_type(a, dtypes.float32)\n"
                "t2 = prims.convert_element_type(t0, dtypes.float32)\nt3 = prims.add(t1, t2)\nt4 = prims.mul(t3, 0.7071067811865476)\n"
                "t5 = prims.erf(t4)\nt6 = prims.add(1.0, t5)\nt7 = prims.mul(t3, t6)\nt8 = prims.mul(0.5, t7)",
                "t8, t3");
      add_case ("cuda", "prims.broadcast_in_dim", float_dtypes[k], &in[1], 1, "t0 = prims.broadcast_in_dim(b, (7, 65), (1,))", "t0");
    }
  /* reductions */
  for (guint k = 0; k < G_N_ELEMENTS (float_dtypes); k++)
    {
      WbDtype d = float_dtypes[k];
      Input   in1 = input ("a", d, 2, 37, 41, 1, DOM_ANY);
      Input   big = input ("a", d, 2, 3, 1000, 1, DOM_ANY);
      Input   col = input ("a", d, 2, 257, 40, 1, DOM_ANY);
      Input   thin = input ("a", d, 2, 100, 3, 1, DOM_ANY);
      Input   cube = input ("a", d, 3, 6, 7, 9, DOM_ANY);
      Input   smallv = input ("a", d, 2, 9, 12, 1, DOM_SMALL);
      add_case ("cuda", "prims.sum(1)", d, &in1, 1, "t0 = prims.sum(a, (1,))", "t0");
      add_case ("cuda", "prims.sum(0)", d, &in1, 1, "t0 = prims.sum(a, (0,))", "t0");
      add_case ("cuda", "prims.sum(0,1)", d, &in1, 1, "t0 = prims.sum(a, (0, 1))", "t0");
      add_case ("cuda", "prims.sum(1) 1000", d, &big, 1, "t0 = prims.sum(a, (1,))", "t0");
      add_case ("cuda", "prims.sum(0) 257", d, &col, 1, "t0 = prims.sum(a, (0,))", "t0");
      add_case ("cuda", "prims.sum(1) 3", d, &thin, 1, "t0 = prims.sum(a, (1,))", "t0");
      add_case ("cuda", "prims.sum(0,2)", d, &cube, 1, "t0 = prims.sum(a, (0, 2))", "t0");
      add_case ("cuda", "prims.amax(1)", d, &col, 1, "t0 = prims.amax(a, (1,))", "t0");
      add_case ("cuda", "prims.amin(0)", d, &in1, 1, "t0 = prims.amin(a, (0,))", "t0");
      add_case ("cuda", "prims.prod(1)", d, &smallv, 1, "t0 = prims.prod(a, (1,))", "t0");
      add_case ("cuda", "prims.var_mean(1)", d, &big, 1, "(t0, t1) = prims.var_mean(a, (1,), correction=1)", "t0, t1");
      add_case ("cuda", "prims.var(0)", d, &in1, 1, "t0 = prims.var(a, (0,), correction=0)", "t0");
      {
        /* column reductions with few outputs and long columns take the two-kernel split path
         * (wb-cuda-codegen-reduce.c emit_column_reduction) */
        Input tall = input ("a", d, 2, 2048, 100, 1, DOM_SMALL);
        Input tall3 = input ("a", d, 3, 4, 700, 37, DOM_SMALL);
        add_case ("cuda", "prims.sum(0) 2048 split", d, &tall, 1, "t0 = prims.sum(a, (0,))", "t0");
        add_case ("cuda", "prims.amax(0) 2048 split", d, &tall, 1, "t0 = prims.amax(a, (0,))", "t0");
        add_case ("cuda", "prims.sum(0,1) 4x700 split", d, &tall3, 1, "t0 = prims.sum(a, (0, 1))", "t0");
      }
    }
  for (guint k = 0; k < 2; k++)
    {
      Input in1 = input ("a", int_dtypes[k], 2, 37, 41, 1, DOM_INT);
      Input tall = input ("a", int_dtypes[k], 2, 3001, 70, 1, DOM_INT);
      add_case ("cuda", "prims.sum(1)", int_dtypes[k], &in1, 1, "t0 = prims.sum(a, (1,))", "t0");
      add_case ("cuda", "prims.amax(0)", int_dtypes[k], &in1, 1, "t0 = prims.amax(a, (0,))", "t0");
      add_case ("cuda", "prims.sum(0) 3001 split", int_dtypes[k], &tall, 1, "t0 = prims.sum(a, (0,))", "t0");
      add_case ("cuda", "prims.amin(0) 3001 split", int_dtypes[k], &tall, 1, "t0 = prims.amin(a, (0,))", "t0");
    }
  /* softmax and layer norm as regions: reduction, broadcast, elementwise, a second reduction */
  for (guint k = 0; k < 3; k++)
    {
      Input in = input ("a", float_dtypes[k], 2, 64, 768, 1, DOM_ANY);
      add_case ("nvrtc", "softmax", float_dtypes[k], &in, 1,
                "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.amax(t0, (1,))\n"
                "t2 = prims.broadcast_in_dim(t1, (64, 768), (0,))\nt3 = prims.sub(t0, t2)\nt4 = prims.exp(t3)\n"
                "t5 = prims.sum(t4, (1,))\nt6 = prims.broadcast_in_dim(t5, (64, 768), (0,))\nt7 = prims.div(t4, t6)",
                "t7");
      add_case ("nvrtc", "layer_norm", float_dtypes[k], &in, 1,
                "t0 = prims.convert_element_type(a, dtypes.float32)\n(t1, t2) = prims.var_mean(t0, (1,), correction=0)\n"
                "t3 = prims.add(t1, 1e-05)\nt4 = prims.rsqrt(t3)\nt5 = prims.broadcast_in_dim(t2, (64, 768), (0,))\n"
                "t6 = prims.sub(t0, t5)\nt7 = prims.broadcast_in_dim(t4, (64, 768), (0,))\nt8 = prims.mul(t6, t7)",
                "t8, t2, t4");
    }
  /* shapes and indexing */
  for (guint k = 0; k < 3; k++)
    {
      WbDtype d = k == 0 ? WB_DTYPE_FLOAT32 : k == 1 ? WB_DTYPE_BFLOAT16
                                                     : WB_DTYPE_INT64;
      Domain  dom = k == 2 ? DOM_INT : DOM_ANY;
      Input   a = input ("a", d, 2, 12, 33, 1, dom);
      Input   a3 = input ("a", d, 3, 4, 6, 10, dom);
      Input   two[2] = { input ("a", d, 2, 12, 33, 1, dom), input ("b", d, 2, 5, 33, 1, dom) };
      Input   tk[2] = { input ("a", d, 2, 12, 33, 1, dom), input ("i", WB_DTYPE_INT64, 1, 17, 1, 1, DOM_INDEX) };
      Input   ta[2] = { input ("a", d, 2, 12, 33, 1, dom), input ("i", WB_DTYPE_INT64, 2, 12, 5, 1, DOM_INDEX) };
      tk[1].bound = 12;
      ta[1].bound = 33;
      add_case ("cuda", "prims.reshape(view)", d, &a, 1, "t0 = prims.reshape(a, (4, 99))\nt1 = prims.neg(t0)", "t1");
      add_case ("cuda", "prims.transpose+reshape", d, &a, 1, "t0 = prims.transpose(a, (1, 0))\nt1 = prims.reshape(t0, (11, 36))\nt2 = prims.abs(t1)", "t2");
      add_case ("cuda", "prims.transpose(3d)", d, &a3, 1, "t0 = prims.transpose(a, (2, 0, 1))\nt1 = prims.neg(t0)", "t1");
      add_case ("cuda", "prims.slice_prim", d, &a, 1, "t0 = prims.slice_prim(a, [1, 2], [11, 31], [2, 3])\nt1 = prims.neg(t0)", "t1");
      add_case ("cuda", "prims.pad", d, &a, 1, k == 2 ? "t0 = prims.pad(a, 3, [(1, 2, 1), (-2, 3, 0)])" : "t0 = prims.pad(a, 0.5, [(1, 2, 1), (-2, 3, 0)])", "t0");
      add_case ("cuda", "prims.cat", d, two, 2, "t0 = prims.cat([a, b, a], 0)", "t0");
      add_case ("cuda", "prims.cat(-1)", d, two, 1, "t0 = prims.cat([a, a], -1)", "t0");
      add_case ("cuda", "prims.take", d, tk, 2, "t0 = prims.take(a, i, 0)", "t0");
      add_case ("cuda", "prims.take_along_axis", d, ta, 2, "t0 = prims.take_along_axis(a, i, 1)", "t0");
      add_case ("cuda", "prims.flip", d, &a, 1, "t0 = prims.flip(a, (0, 1))\nt1 = prims.neg(t0)", "t1");
      add_case ("cuda", "prims.squeeze", d, &a, 1, "t0 = prims.broadcast_in_dim(a, (12, 1, 33), (0, 2))\nt1 = prims.squeeze(t0, (1,))\nt2 = prims.neg(t1)", "t2");
    }
  {
    Input a = input ("a", WB_DTYPE_FLOAT32, 1, 10, 1, 1, DOM_ANY);
    add_case ("cuda", "prims.iota", WB_DTYPE_INT64, &a, 1, "t0 = prims.iota(10, start=3, step=2, device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)\nt1 = prims.convert_element_type(t0, dtypes.float32)\nt2 = prims.add(a, t1)", "t2");
    add_case ("cuda", "prims.full", WB_DTYPE_FLOAT32, &a, 1, "t0 = prims.full((10,), 2.5, device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)\nt1 = prims.mul(a, t0)", "t1");
  }
  /* matmul and linear through cuBLASLt */
  for (guint k = 0; k < 3; k++)
    {
      WbDtype d = float_dtypes[k];
      Input   mm[2] = { input ("a", d, 2, 16, 64, 1, DOM_ANY), input ("b", d, 2, 64, 24, 1, DOM_ANY) };
      Input   mt[2] = { input ("a", d, 2, 16, 64, 1, DOM_ANY), input ("b", d, 2, 24, 64, 1, DOM_ANY) };
      Input   bm[2] = { input ("a", d, 3, 3, 16, 64, DOM_ANY), input ("b", d, 3, 3, 64, 24, DOM_ANY) };
      Input   ln[3] = { input ("x", d, 3, 5, 7, 64, DOM_ANY), input ("w", d, 2, 24, 64, 1, DOM_ANY), input ("bias", d, 1, 24, 1, 1, DOM_ANY) };
      add_case ("cublas", "prims.matmul", d, mm, 2, "t0 = prims.matmul(a, b)", "t0");
      add_case ("cublas", "prims.matmul(b^T)", d, mt, 2, "t0 = prims.transpose(b, (1, 0))\nt1 = prims.matmul(a, t0)", "t1");
      add_case ("cublas", "prims.matmul(a^T)", d, mm, 2, "t0 = prims.transpose(a, (1, 0))\nt1 = prims.matmul(t0, a)", "t1");
      add_case ("cublas", "prims.matmul(batched)", d, bm, 2, "t0 = prims.matmul(a, b)", "t0");
      add_case ("cublas", "prims.linear", d, ln, 3, "t0 = prims.linear(x, w, bias)", "t0");
      add_case ("cublas", "prims.linear(no bias)", d, ln, 2, "t0 = prims.linear(x, w, None)", "t0");
    }
  attention_cases ();
  kernel_cases ();
}

/* -- attention ---------------------------------------------------------------------------------- */

static void
add_attention (const char *executor, const char *what, WbDtype d, const Input *in, guint n_in, const char *body, const char *outputs, double tol_mult)
{
  Case *c = g_new0 (Case, 1);

  c->executor = executor;
  c->label = g_strdup_printf ("%s %s %s", executor, what, dt (d));
  memcpy (c->in, in, sizeof (Input) * n_in);
  c->n_in = n_in;
  c->body = g_strdup (body);
  c->outputs = g_strdup (outputs);
  c->attention = d;
  c->tol_mult = tol_mult;
  g_ptr_array_add (cases, c);
}

static Input
input4 (const char *name, WbDtype dtype, gint64 b, gint64 h, gint64 t, gint64 e)
{
  Input i = { name, dtype, 4, { b, h, t, e }, DOM_ANY, 0 };
  return i;
}

/* ltorch.scaled_dot_product_attention with the decomposition Thunder prints (gpt2_block/forward_00.py):
 * q and k^T scaled by sqrt(scale) and rounded to the dtype, S = their matmul in the dtype, the causal mask
 * by iota/ge/where, softmax in f32 rounded to the dtype, O = P V. */
static char *
sdpa_decomposition (WbDtype d, gint64 b, gint64 h, gint64 t, gint64 e, gboolean causal)
{
  const char *dn = d == WB_DTYPE_BFLOAT16 ? "bfloat16" : d == WB_DTYPE_FLOAT16 ? "float16"
                                                                               : "float32";
  double      s4 = sqrt (1.0 / sqrt ((double) e));
  GString    *s = g_string_new (NULL);
  const char *scores = causal ? "a15" : "a7";

  g_string_append_printf (s, "y = ltorch.scaled_dot_product_attention(q, k, v, None, 0.0, %s, scale=None)\n", causal ? "True" : "False");
  g_string_append_printf (s, "  # a0 = prims.convert_element_type(q, dtypes.float32)\n  # a1 = prims.mul(a0, %.17g)\n"
                             "  # a2 = prims.convert_element_type(a1, dtypes.%s)\n  # a3 = prims.transpose(k, (0, 1, 3, 2))\n"
                             "  # a4 = prims.convert_element_type(a3, dtypes.float32)\n  # a5 = prims.mul(a4, %.17g)\n"
                             "  # a6 = prims.convert_element_type(a5, dtypes.%s)\n  # a7 = prims.matmul(a2, a6)\n",
                          s4, dn, s4, dn);
  if (causal)
    g_string_append_printf (s,
                            "  # a8 = prims.iota(%" G_GINT64_FORMAT ", start=0, step=1, device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)\n"
                            "  # a9 = prims.broadcast_in_dim(a8, [%" G_GINT64_FORMAT ", 1], [0])\n"
                            "  # a10 = prims.broadcast_in_dim(a8, [1, %" G_GINT64_FORMAT "], [1])\n"
                            "  # a11 = prims.broadcast_in_dim(a9, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1))\n"
                            "  # a12 = prims.broadcast_in_dim(a10, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1))\n"
                            "  # a13 = prims.ge(a11, a12)\n"
                            "  # a14 = prims.broadcast_in_dim(a13, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (2, 3))\n"
                            "  # a15 = prims.where(a14, a7, -float('inf'))\n",
                            t, t, t, t, t, t, t, b, h, t, t);
  g_string_append_printf (s,
                          "  # a16 = prims.convert_element_type(%s, dtypes.float32)\n  # a17 = prims.amax(a16, (3,))\n"
                          "  # a18 = prims.broadcast_in_dim(a17, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1, 2))\n"
                          "  # a19 = prims.sub(a16, a18)\n  # a20 = prims.exp(a19)\n  # a21 = prims.sum(a20, (3,))\n"
                          "  # a22 = prims.broadcast_in_dim(a21, (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), (0, 1, 2))\n"
                          "  # a23 = prims.div(a20, a22)\n  # a24 = prims.convert_element_type(a23, dtypes.%s)\n  # y = prims.matmul(a24, v)",
                          scores, b, h, t, t, b, h, t, t, dn);
  return g_string_free (s, FALSE);
}

static void fused_attention_cases (void);

static void
attention_cases (void)
{
  /* (B, H, Tq, Tk, E, causal, scale): an odd length, head dims 64 and 128, cross attention, an arbitrary scale */
  static const struct
  {
    gint64      b, h, tq, tk, e;
    gboolean    causal;
    const char *scale;
  } shapes[] = {
    { 2, 3, 77, 77, 64, TRUE, "None" },
    { 2, 3, 77, 77, 64, FALSE, "0.3" },
    { 1, 2, 128, 128, 128, TRUE, "0.08838834764831843" },
    { 2, 2, 40, 77, 64, FALSE, "None" },
    { 1, 2, 40, 77, 128, TRUE, "0.125" },
  };
  static const WbDtype dtypes[] = { WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT32 };

  for (guint k = 0; k < G_N_ELEMENTS (dtypes); k++)
    for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
      {
        WbDtype          d = dtypes[k];
        gboolean         flash = d != WB_DTYPE_FLOAT32; /* sdpafx takes bf16/f16 only (Thunder's meta) */
        double           bwd_tol = flash ? 8 : 0;                  /* see below */
        const char      *c = shapes[i].causal ? "True" : "False";
        Input            in[4] = { input4 ("q", d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e),
                                   input4 ("k", d, shapes[i].b, shapes[i].h, shapes[i].tk, shapes[i].e),
                                   input4 ("v", d, shapes[i].b, shapes[i].h, shapes[i].tk, shapes[i].e),
                                   input4 ("g", d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e) };
        g_autofree char *what = g_strdup_printf ("%s %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "%s",
                                                 flash ? "sdpafx" : "sdpaex", shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].tk, shapes[i].e,
                                                 shapes[i].causal ? " causal" : "");
        g_autofree char *fwd = NULL;
        g_autofree char *bwd = NULL;
        g_autofree char *fwd_label = g_strdup_printf ("%s forward", what);
        g_autofree char *bwd_label = g_strdup_printf ("%s backward", what);
        if (flash)
          {
            fwd = g_strdup_printf ("(o, lse, cq, ck, mq, mk, seed, off, dbg) = sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, %s, scale=%s)", c,
                                   shapes[i].scale);
            bwd = g_strdup_printf ("%s\n(dq, dk, dv) = sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, lse, cq, ck, %" G_GINT64_FORMAT
                                   ", %" G_GINT64_FORMAT ", 0.0, %s, seed, off, scale=%s)",
                                   fwd, shapes[i].tq, shapes[i].tk, c, shapes[i].scale);
          }
        else
          {
            fwd = g_strdup_printf ("(o, lse, seed, off) = sdpaex_grad_forward_scaled_dot_product_efficient_attention(q, k, v, None, 0.0, %s, %s)", c, shapes[i].scale);
            bwd = g_strdup_printf ("%s\n(dq, dk, dv, dm) = sdpaex_scaled_dot_product_efficient_attention_backward(g, q, k, v, None, o, lse, seed, off, 0.0, %s, scale=%s)",
                                   fwd, c, shapes[i].scale);
          }
        /* the backward rounds dS = P (dP - D) to the input dtype before the dQ and dK GEMMs, as FlashAttention-2
         * does before its tensor-core MMAs; the cpu keeps dS in f32. Seen on the H200: up to 1.3% of the elements
         * of dQ/dK beyond the default half tolerance (norm-wise error <= 9e-3 bf16, 1.4e-3 f16), up to 0.005 off
         * where dQ cancels to near 0 in f16 (0.0070 vs 0.0021); 8x the default covers it */
        add_attention ("cuda", fwd_label, d, in, 3, fwd, flash ? "o, lse, cq, seed" : "o, lse, seed", 0);
        add_attention ("cuda", bwd_label, d, in, 4, bwd, "dq, dk, dv", bwd_tol);
        if (i == 0)
          {
            /* the nvrtc executor takes the same path; ltorch's composite runs whole (the cpu runs its decomposition) */
            g_autofree char *sdpa = sdpa_decomposition (d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e, TRUE);
            g_autofree char *sdpa_nc = sdpa_decomposition (d, shapes[i].b, shapes[i].h, shapes[i].tq, shapes[i].e, FALSE);
            add_attention ("nvrtc", bwd_label, d, in, 4, bwd, "dq, dk, dv", bwd_tol);
            /* the reference rounds S to the dtype before the softmax (Thunder's decomposition): looser for halves */
            add_attention ("nvrtc", "ltorch.scaled_dot_product_attention 2x3x77x64 causal", d, in, 3, sdpa, "y", flash ? 3 : 1);
            add_attention ("cuda", "ltorch.scaled_dot_product_attention 2x3x77x64", d, in, 3, sdpa_nc, "y", flash ? 3 : 1);
          }
      }
  fused_attention_cases ();
}

/* sdpafx forward and backward of (B, H, Tq, Tk, E) on @executor; with @transposed, q, k, v and the gradient
 * are [B, T, H, E] inputs that prims.transpose turns into [B, H, T, E] views (Thunder's layout: the fused
 * kernels read them through their strides). */
static void
add_sdpafx (const char *executor, WbDtype d, gint64 b, gint64 h, gint64 tq, gint64 tk, gint64 e, gboolean causal, const char *scale, gboolean transposed)
{
  const char      *c = causal ? "True" : "False";
  Input            in[4] = { input4 ("q", d, b, h, tq, e), input4 ("k", d, b, h, tk, e), input4 ("v", d, b, h, tk, e), input4 ("g", d, b, h, tq, e) };
  g_autofree char *what = g_strdup_printf ("sdpafx %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "%s%s%s%s",
                                           b, h, tq, tk, e, causal ? " causal" : "", strcmp (scale, "None") ? " scale " : "",
                                           strcmp (scale, "None") ? scale : "", transposed ? " transposed" : "");
  g_autofree char *pre = transposed ? g_strdup ("q = prims.transpose(q0, (0, 2, 1, 3))\nk = prims.transpose(k0, (0, 2, 1, 3))\n"
                                                "v = prims.transpose(v0, (0, 2, 1, 3))\n")
                                    : g_strdup ("");
  g_autofree char *fwd = g_strdup_printf ("%s(o, lse, cq, ck, mq, mk, seed, off, dbg) = sdpafx_grad_forward_scaled_dot_product_efficient_attention(q, k, v, 0.0, %s, scale=%s)",
                                          pre, c, scale);
  g_autofree char *bwd = g_strdup_printf ("%s\n%s(dq, dk, dv) = sdpafx_scaled_dot_product_efficient_attention_backward(g, q, k, v, o, lse, cq, ck, %" G_GINT64_FORMAT
                                          ", %" G_GINT64_FORMAT ", 0.0, %s, seed, off, scale=%s)",
                                          fwd, transposed ? "g = prims.transpose(g0, (0, 2, 1, 3))\n" : "", tq, tk, c, scale);
  g_autofree char *fwd_label = g_strdup_printf ("%s forward", what);
  g_autofree char *bwd_label = g_strdup_printf ("%s backward", what);

  if (transposed)
    {
      static const char *const names[] = { "q0", "k0", "v0", "g0" };
      for (guint i = 0; i < 4; i++)
        {
          gint64 t = in[i].shape[2];
          in[i].name = names[i];
          in[i].shape[1] = t, in[i].shape[2] = h;
        }
    }
  /* the backward's tolerance: see attention_cases */
  add_attention (executor, fwd_label, d, in, 3, fwd, "o, lse, cq, seed", 0);
  add_attention (executor, bwd_label, d, in, 4, bwd, "dq, dk, dv", 8);
}

/* Shapes that exercise the fused kernels' tiles (128 query rows, key tiles of 64/32, dK/dV blocks of
 * 128/64 keys, query tiles of 32): gpt2_block's attention scaled down (200 is not a multiple of any tile),
 * llama_layer's head dim 128 with its scale, cross attention in both directions (causal too: top-left
 * aligned, so keys past Tq get zero gradients), Thunder's transposed views, and head dim 32 (unfused). */
static void
fused_attention_cases (void)
{
  add_sdpafx ("nvrtc", WB_DTYPE_BFLOAT16, 2, 3, 200, 200, 64, TRUE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 2, 3, 200, 200, 64, TRUE, "None", FALSE);
  add_sdpafx ("nvrtc", WB_DTYPE_FLOAT16, 1, 2, 200, 200, 128, TRUE, "0.08838834764831843", FALSE);
  add_sdpafx ("nvrtc", WB_DTYPE_BFLOAT16, 1, 2, 200, 200, 128, TRUE, "0.08838834764831843", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 2, 2, 150, 333, 64, FALSE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 1, 3, 333, 150, 128, FALSE, "0.2", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 1, 2, 300, 130, 64, TRUE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 1, 2, 130, 300, 128, TRUE, "-0.1", FALSE);
  add_sdpafx ("nvrtc", WB_DTYPE_BFLOAT16, 2, 3, 200, 200, 64, TRUE, "None", TRUE);
  add_sdpafx ("cuda", WB_DTYPE_FLOAT16, 1, 4, 160, 97, 128, FALSE, "None", TRUE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 1, 2, 530, 530, 64, TRUE, "None", FALSE);
  add_sdpafx ("cuda", WB_DTYPE_BFLOAT16, 2, 2, 90, 90, 32, TRUE, "None", FALSE);
}

/* Where the attention calls of a real case would run (Thunder's final stages and the workbench's, from the
 * structure alone: no GPU needed): on the attention path, none on the cpu. */
static void
test_attention_dispatch (gconstpointer data)
{
  const char      *dir = wb_test_traces_dir ();
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  guint taken = 0;

  if (dir == NULL || !g_file_test ((path = g_build_filename (dir, (const char *) data, NULL)), G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no traces of this case (WB_TRACES_DIR)");
      return;
    }
  c = wb_case_load (path, &error);
  g_assert_no_error (error);
  program = wb_case_make_program (c, wb_case_get_default_stage (c), &error);
  g_assert_no_error (error);
  for (guint e = 0; e < 2; e++)
    {
      const char *exec = e == 0 ? "nvrtc" : "cuda";
      wb_cuda_executors_explain (wb_program_get_forward (program), exec, out);
      if (wb_program_get_backward (program))
        wb_cuda_executors_explain (wb_program_get_backward (program), exec, out);
    }
  g_test_message ("%s", out->str);
  lines = g_strsplit (out->str, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], "scaled_dot_product") != NULL)
      {
        g_assert_nonnull (strstr (lines[i], ": attention (cublasLt + nvrtc)"));
        taken++;
      }
  /* forward and backward, on both executors */
  g_assert_cmpuint (taken, ==, 4);
}

/* -- hand-written kernels of the cuda executor (wb-cuda-kernels.h) ---------------------------------- */

static void
add_kernel (const char *what, WbDtype d, const Input *in, guint n_in, const char *body, const char *outputs, gboolean exact)
{
  Case *c = g_new0 (Case, 1);

  c->executor = "cuda";
  c->label = g_strdup_printf ("cuda %s %s", what, dt (d));
  memcpy (c->in, in, sizeof (Input) * n_in);
  c->n_in = n_in;
  c->body = g_strdup (body);
  c->outputs = g_strdup (outputs);
  c->kernel = TRUE;
  c->exact = exact;
  g_ptr_array_add (cases, c);
}

/* --compile-only: the kernels compile for sm_90 (the first case compiles, the others hit the cache), every
 * call of the case goes to a kernel or a generated plan (no cpu fallback), and the cpu side runs. */
static void
kernel_case_compile (const Case *c, WbTrace *trace, const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile (wb_cuda_kernels_source (), "sm_90", cache_dir, &error);
  g_autoptr (GString) where = g_string_new (NULL);
  g_autoptr (WbProgram) p = NULL;
  g_autoptr (WbRunResult) r = NULL;
  g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  WbRunOptions o;

  if (img == NULL)
    g_error ("%s: %s", c->label, error->message);
  g_assert_cmpuint (g_bytes_get_size (img->image), >, 0);
  if (wb_cuda_executors_explain (trace, "cuda", where) != 0 || strstr (where->str, "cuda (kernel)") == NULL)
    g_test_fail_printf ("%s: not dispatched to a kernel:\n%s", c->label, where->str);
  p = wb_program_new (trace, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < c->n_in; i++)
    g_ptr_array_add (host, wb_rt_value_take_tensor (random_tensor (&c->in[i])));
  wb_run_options_init (&o);
  r = wb_program_run (p, &o, host, NULL, &error);
  if (r == NULL)
    g_error ("%s (cpu): %s\n%s", c->label, error->message, text);
}

static void
kernel_cases (void)
{
  static const char *const names[] = { "float32", "bfloat16", "float16", "float64" };
  static const WbDtype     sortable[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT64, WB_DTYPE_INT64, WB_DTYPE_INT32 };
  const char *const        dev = "device=devices.Device(\"cuda:0\")";

  /* random draws: the cpu's Philox numbers bit for bit (two draws: the second starts where the first ends) */
  for (guint k = 0; k < G_N_ELEMENTS (float_dtypes); k++)
    {
      WbDtype          d = float_dtypes[k];
      Input            a = input ("a", d, 2, 37, 41, 1, DOM_ANY);
      g_autofree char *uni = g_strdup_printf ("t0 = prims.uniform((37, 41), -1.5, 2.5, %s, dtype=dtypes.%s)\n"
                                              "t1 = prims.uniform((5, 3), 0.0, 1.0, %s, dtype=dtypes.%s)",
                                              dev, names[k], dev, names[k]);
      g_autofree char *phi = g_strdup_printf ("t0 = prims.uniform_philox((37, 41), 0.0, 1.0, %s, dtype=dtypes.%s, seed=1234567, offset=10)", dev, names[k]);
      g_autofree char *rn = g_strdup_printf ("t0 = prims.randn((37, 41), %s, dtype=dtypes.%s)\nt1 = prims.randn((3,), %s, dtype=dtypes.%s)", dev,
                                             names[k], dev, names[k]);
      add_kernel ("prims.uniform", d, &a, 1, uni, "t0, t1", TRUE);
      add_kernel ("prims.uniform_philox", d, &a, 1, phi, "t0", TRUE);
      add_kernel ("prims.randn", d, &a, 1, rn, "t0, t1", FALSE);
    }
  {
    Input a = input ("a", WB_DTYPE_FLOAT32, 2, 37, 41, 1, DOM_ANY);
    add_kernel ("uniform (torch)", WB_DTYPE_FLOAT32, &a, 1,
                "t0 = uniform((512, 256), 0, 1, device=torch.device(\"cuda:0\"), dtype=torch.float32)\n"
                "t1 = prims.uniform((7,), 0, 1, device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)",
                "t0, t1", TRUE);
    add_kernel ("prims.randint", WB_DTYPE_INT64, &a, 1,
                "t0 = prims.randint(-5, 1000, (37, 41), device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)\n"
                "t1 = prims.randint(0, 3, (9,), device=devices.Device(\"cuda:0\"), dtype=dtypes.int32)",
                "t0, t1", TRUE);
    add_kernel ("prims.update_aliases", WB_DTYPE_FLOAT32, &a, 1, "(t0,) = prims.update_aliases((a,))\nt1 = prims.neg(t0)", "t1", TRUE);
  }
  /* prims.empty is generated (zeros, as on the cpu), so it fuses */
  {
    Input a = input ("a", WB_DTYPE_FLOAT32, 2, 7, 9, 1, DOM_ANY);
    add_case ("cuda", "prims.empty", WB_DTYPE_FLOAT32, &a, 1, "t0 = prims.empty((7, 9), device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)\nt1 = prims.add(a, t0)", "t1");
  }
  /* topk, sort, argmax: ties (DOM_SHIFT) check the stable order; long rows take the multi-pass sort */
  for (guint k = 0; k < G_N_ELEMENTS (sortable); k++)
    {
      WbDtype d = sortable[k];
      Domain  any = wb_dtype_is_float (d) ? DOM_ANY : DOM_INT;
      Input   a = input ("a", d, 2, 37, 41, 1, any);
      Input   ties = input ("a", d, 2, 37, 41, 1, DOM_SHIFT);
      Input   a3 = input ("a", d, 3, 5, 6, 7, any);
      Input   longr = input ("a", d, 2, 3, 3000, 1, any);
      Input   longt = input ("a", d, 2, 2, 2500, 1, DOM_SHIFT);
      add_kernel ("prims.topk(k 5, dim 1, largest)", d, &a, 1, "(t0, t1) = prims.topk(a, 5, 1, True, True)", "t0, t1", TRUE);
      add_kernel ("prims.topk(ties)", d, &ties, 1, "(t0, t1) = prims.topk(a, 9, 1, True, True)", "t0, t1", TRUE);
      add_kernel ("prims.topk(k 4, dim 0, smallest)", d, &ties, 1, "(t0, t1) = prims.topk(a, 4, 0, False, True)", "t0, t1", TRUE);
      add_kernel ("prims.topk(3d, dim 1)", d, &a3, 1, "(t0, t1) = prims.topk(a, 3, 1, True, True)", "t0, t1", TRUE);
      add_kernel ("prims.topk(rows of 3000)", d, &longr, 1, "(t0, t1) = prims.topk(a, 7, 1, True, True)", "t0, t1", TRUE);
      add_kernel ("prims.sort(dim 1)", d, &ties, 1, "(t0, t1) = prims.sort(a, 1, False, True)", "t0, t1", TRUE);
      add_kernel ("prims.sort(dim 0, descending)", d, &a, 1, "(t0, t1) = prims.sort(a, 0, True, True)", "t0, t1", TRUE);
      add_kernel ("prims.sort(rows of 2500, ties)", d, &longt, 1, "(t0, t1) = prims.sort(a, 1, True, True)", "t0, t1", TRUE);
      add_kernel ("prims.argmax(1)", d, &ties, 1, "t0 = prims.argmax(a, 1)", "t0", TRUE);
      add_kernel ("prims.argmin(0)", d, &ties, 1, "t0 = prims.argmin(a, 0)", "t0", TRUE);
      add_kernel ("prims.argmax(None)", d, &a, 1, "t0 = prims.argmax(a, None)", "t0", TRUE);
    }
  /* nll_loss_backward as ce_loss's backward prints it: 'mean' with a total_weight tensor; 'sum' with a weight
   * and an ignored class; 'none' */
  for (guint k = 0; k < G_N_ELEMENTS (float_dtypes); k++)
    {
      WbDtype d = float_dtypes[k];
      Input   mean[4] = { input ("g", d, 0, 1, 1, 1, DOM_POS), input ("a", d, 2, 64, 100, 1, DOM_ANY),
                          input ("target", WB_DTYPE_INT64, 1, 64, 1, 1, DOM_INDEX), input ("tw", d, 0, 1, 1, 1, DOM_POS) };
      Input   sum[4] = { input ("g", d, 0, 1, 1, 1, DOM_POS), input ("a", d, 2, 64, 100, 1, DOM_ANY),
                         input ("target", WB_DTYPE_INT64, 1, 64, 1, 1, DOM_INDEX), input ("w", d, 1, 100, 1, 1, DOM_POS) };
      Input   none[3] = { input ("g", d, 1, 64, 1, 1, DOM_ANY), input ("a", d, 2, 64, 100, 1, DOM_ANY),
                          input ("target", WB_DTYPE_INT64, 1, 64, 1, 1, DOM_INDEX) };
      mean[2].bound = sum[2].bound = none[2].bound = 100;
      sum[2].dom = DOM_SHIFT; /* classes 0..6, 3 ignored */
      add_kernel ("ltorch.nll_loss_backward(mean)", d, mean, 4, "t0 = ltorch.nll_loss_backward(g, a, target, None, 'mean', -100, tw)", "t0", TRUE);
      add_kernel ("ltorch.nll_loss_backward(sum, weight, ignore)", d, sum, 4, "t0 = ltorch.nll_loss_backward(g, a, target, w, 'sum', 3, 2.5)", "t0", TRUE);
      add_kernel ("ltorch.nll_loss_backward(none)", d, none, 3, "t0 = ltorch.nll_loss_backward(g, a, target, None, 'none', -100, 1.0)", "t0", TRUE);
    }
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--compile-only") == 0)
      compile_only = TRUE;
  g_test_init (&argc, &argv, NULL);
  cache_dir = g_strdup (g_getenv ("WB_KERNEL_CACHE_DIR"));
  build_cases ();
  for (guint i = 0; i < cases->len; i++)
    {
      Case            *c = cases->pdata[i];
      g_autofree char *path = g_strdup_printf ("/cuda/conformance/%03u %s", i, c->label);
      for (char *p = path + 1; *p; p++)
        if (*p == ' ')
          *p = '_';
      g_test_add_data_func (path, c, test_case);
    }
  g_test_add_data_func ("/cuda/attention/dispatch/gpt2_block", "gpt2_block", test_attention_dispatch);
  g_test_add_data_func ("/cuda/attention/dispatch/llama_layer", "llama_layer", test_attention_dispatch);
  return g_test_run ();
}
