/* test-kernel-names.c — kernel names in the profile reports: C++ names as CUPTI reports them (mangled, like
 * cuBLAS's and cuBLASLt's kernels) are shown demangled by the C++ runtime (wb_report_demangle); the JSON
 * report and the Chrome trace keep the recorded name; sessions store the recorded name
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "wb-test-runs.h"

/* Kernel names from libcublasLt.so.13 (CUDA 13; `strings`), and what c++filt makes of them. */
#define SGEMM_MANGLED "_Z18sgemm_largek_lds64ILb1ELb1ELi5ELi5ELi4ELi4ELi4ELi34EEvPfPKfS2_iiiiiiS2_S2_ffiiPiS3_"
#define SGEMM_DEMANGLED                                                                              \
  "void sgemm_largek_lds64<true, true, 5, 5, 4, 4, 4, 34>(float*, float const*, float const*, int, " \
  "int, int, int, int, int, float const*, float const*, float, float, int, int, int*, int*)"
#define SPLITK_MANGLED                                                                                    \
  "_ZN8cublasLt19splitKreduce_kernelILi8ELi32Eif13__nv_fp8_e4m3fS1_Lb1Ef6__halfS2_Lb0ELb0ELb0ELb0EEEvNS_" \
  "18cublasSplitKParamsIT4_EEPKT2_PKT8_PT7_PT3_PKS4_SH_PKT9_S8_PSI_PvlPS4_PiSN_SN_SH_SH_SH_SH_SH_"
#define SPLITK_DEMANGLED                                                                                      \
  "void cublasLt::splitKreduce_kernel<8, 32, int, float, __nv_fp8_e4m3, float, __nv_fp8_e4m3, true, float, "  \
  "__half, __half, false, false, false, false>(cublasLt::cublasSplitKParams<float>, float const*, __half "    \
  "const*, float*, __nv_fp8_e4m3*, float const*, float const*, __half const*, float const*, __half*, void*, " \
  "long, float*, int*, float*, float*, float const*, float const*, float const*, float const*, float const*)"
/* cuBLASLt's nvjet kernels and the generated ones are extern "C": shown as they are. */
#define PLAIN_NAME "nvjet_sm90_tst_128x256_64x4_1x2_h_bz_coopA_NNT"

static void
test_demangle (void)
{
  static const char *const unchanged[] = {
    PLAIN_NAME,
    "nvrtcFusion0",
    "triton_poi_fused_mul_silu_2",
    "cublasLt matmul",
    "f",       /* a type name to __cxa_demangle ("float"), not a function: stays */
    "_Z",      /* not a complete mangled name */
    "_Zbogus", /* does not demangle */
    "",
  };
  g_autofree char *sgemm = wb_report_demangle (SGEMM_MANGLED);
  g_autofree char *splitk = wb_report_demangle (SPLITK_MANGLED);

  g_assert_cmpstr (sgemm, ==, SGEMM_DEMANGLED);
  g_assert_cmpstr (splitk, ==, SPLITK_DEMANGLED);
  for (guint i = 0; i < G_N_ELEMENTS (unchanged); i++)
    {
      g_autofree char *same = wb_report_demangle (unchanged[i]);

      g_assert_cmpstr (same, ==, unchanged[i]);
    }
}

/* gpu_run: a synthetic GPU run whose kernels carry the names above (as the recorded names). */
static WbRun *
gpu_run (void)
{
  g_autoptr (GPtrArray) regions = wb_test_regions_from_string ("TorchCompile0:torchcompile:18;cublas_linear:cublas:31");
  WbRun             *run = wb_test_make_run (regions, 4, 6, 12);
  static const char *names[] = { SGEMM_MANGLED, SPLITK_MANGLED, PLAIN_NAME };

  for (guint i = 0; i < run->kernels->len; i++)
    {
      WbKernelRecord *k = run->kernels->pdata[i];

      g_free (k->name);
      k->name = g_strdup (names[i % G_N_ELEMENTS (names)]);
    }
  return run;
}

/* check_reports: every writer shows the demangled names; JSON and the Chrome trace keep the mangled ones. */
static void
check_reports (const WbRun *run)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbReport) report = wb_report_new (run, NULL, "names", NULL);
  g_autofree char *md = wb_report_to_markdown (report);
  g_autofree char *html = wb_report_to_html (report);
  g_autofree char *json = wb_report_to_json (report);
  g_autofree char *chrome = wb_report_to_chrome_trace (report);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) chrome_parser = json_parser_new ();
  JsonArray *kernels, *events;
  guint      seen = 0, seen_events = 0;

  /* as Markdown text: "<" and "*" would otherwise be an HTML tag and emphasis */
  {
    g_autofree char *escaped = wb_output_escape_text (SGEMM_DEMANGLED, -1, WB_ESCAPE_MARKDOWN);

    g_assert_nonnull (strstr (escaped, "sgemm_largek_lds64\\<true"));
    g_assert_nonnull (strstr (md, escaped));
  }
  g_assert_nonnull (strstr (md, "cublasLt::splitKreduce_kernel\\<8, 32, int"));
  g_assert_nonnull (strstr (md, PLAIN_NAME));
  g_assert_null (strstr (md, SGEMM_MANGLED));
  g_assert_nonnull (strstr (html, "void sgemm_largek_lds64&lt;true, true, 5, 5, 4, 4, 4, 34&gt;(float*"));
  g_assert_null (strstr (html, SGEMM_MANGLED));

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  kernels = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "kernels");
  g_assert_cmpuint (json_array_get_length (kernels), >, 0);
  for (guint i = 0; i < json_array_get_length (kernels); i++)
    {
      JsonObject *k = json_array_get_object_element (kernels, i);
      const char *name = json_object_get_string_member (k, "name");
      const char *mangled = json_object_get_string_member (k, "name_mangled");

      if (g_strcmp0 (mangled, SGEMM_MANGLED) == 0)
        {
          g_assert_cmpstr (name, ==, SGEMM_DEMANGLED);
          seen |= 1;
        }
      else if (g_strcmp0 (mangled, SPLITK_MANGLED) == 0)
        {
          g_assert_cmpstr (name, ==, SPLITK_DEMANGLED);
          seen |= 2;
        }
      else
        {
          g_assert_cmpstr (mangled, ==, PLAIN_NAME);
          g_assert_cmpstr (name, ==, PLAIN_NAME);
          seen |= 4;
        }
    }
  g_assert_cmpuint (seen, ==, 7);

  json_parser_load_from_data (chrome_parser, chrome, -1, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (chrome_parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      JsonObject *args = json_object_has_member (e, "args") ? json_object_get_object_member (e, "args") : NULL;

      if (g_strcmp0 (json_object_get_string_member_with_default (e, "cat", ""), "kernel") != 0)
        continue;
      if (g_strcmp0 (json_object_get_string_member (e, "name"), SGEMM_DEMANGLED) == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (args, "name_mangled"), ==, SGEMM_MANGLED);
          seen_events |= 1;
        }
      else if (g_strcmp0 (json_object_get_string_member (e, "name"), PLAIN_NAME) == 0)
        {
          g_assert_false (json_object_has_member (args, "name_mangled"));
          seen_events |= 2;
        }
    }
  g_assert_cmpuint (seen_events, ==, 3);
}

static void
test_reports (void)
{
  g_autoptr (WbRun) run = gpu_run ();

  check_reports (run);
}

/* A session keeps the recorded (mangled) name; a report of the run read back shows it demangled. */
static void
test_stored (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("wb-kernel-names-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "names.wbsession", NULL);
  g_autoptr (WbRun) run = gpu_run ();
  g_autoptr (WbRun) back = NULL;

  g_assert_no_error (error);
  {
    g_autoptr (WbSession) session = wb_session_open (path, WB_SESSION_OPEN_CREATE, &error);

    g_assert_no_error (error);
    g_assert_cmpint (wb_session_store_run (session, run, 0, &error), ==, 1);
    back = wb_session_get_run (session, 1, WB_SESSION_READ_KERNELS, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpstr (((WbKernelRecord *) back->kernels->pdata[0])->name, ==, SGEMM_MANGLED);
  g_assert_true (wb_run_equal (run, back));
  check_reports (back);
  g_unlink (path);
  g_rmdir (dir);
}

/* calls per iteration: a kernel launched once (twice) in each of 20 iterations shows exactly 1 (2), not the
 * sum of twenty 1/20 (1.0000000000000002) */
static void
test_calls_per_iteration (void)
{
  g_autoptr (GPtrArray) regions = wb_test_regions_from_string ("TorchCompile0:torchcompile:18");
  g_autoptr (WbRun) run = wb_test_make_run (regions, 4, 20, 0);
  g_autoptr (WbReport) report = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  JsonArray       *kernels;
  gint64           clock_ns = 1000;

  for (guint it = 0; it < 20; it++)
    for (guint j = 0; j < 3; j++)
      {
        WbKernelRecord *rec = wb_kernel_record_new (j == 0 ? "wb_k0_once" : "wb_k1_twice", "TorchCompile0");
        rec->trace_line = 18;
        rec->iteration = it;
        rec->start_ns = clock_ns;
        rec->end_ns = clock_ns + 5000;
        clock_ns += 6000;
        wb_run_add_kernel (run, rec);
      }
  report = wb_report_new (run, NULL, "calls", NULL);
  json = wb_report_to_json (report);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  kernels = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "kernels");
  g_assert_cmpuint (json_array_get_length (kernels), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *k = json_array_get_object_element (kernels, i);
      double      want = g_str_has_suffix (json_object_get_string_member (k, "name"), "twice") ? 2.0 : 1.0;
      g_assert_cmpfloat (json_object_get_double_member (k, "calls_per_iteration"), ==, want);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/kernel-names/demangle", test_demangle);
  g_test_add_func ("/data/kernel-names/reports", test_reports);
  g_test_add_func ("/data/kernel-names/stored", test_stored);
  g_test_add_func ("/data/kernel-names/calls-per-iteration", test_calls_per_iteration);
  return g_test_run ();
}
