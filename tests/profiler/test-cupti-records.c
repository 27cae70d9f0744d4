/* test-cupti-records.c — CUPTI's API records (CUpti_ActivityAPI, as cuptiActivityGetNextRecord hands them)
 * read as the host's calls (wb_cupti_api_call_from_record) without a GPU or libcupti: the records are built
 * with the toolkit's cupti.h, so a field CUPTI moves breaks this test rather than the runner on a GPU.
 * Built only where cupti.h is (WB_HAVE_CUPTI).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cupti.h>
#include <string.h>

#include "wb-profiler.h"

static CUpti_ActivityAPI
api_record (CUpti_ActivityKind kind, CUpti_CallbackId cbid, uint64_t start, uint64_t end, uint32_t thread, uint32_t corr)
{
  CUpti_ActivityAPI r;

  memset (&r, 0, sizeof r);
  r.kind = kind;
  r.cbid = cbid;
  r.start = start;
  r.end = end;
  r.processId = 4000;
  r.threadId = thread;
  r.correlationId = corr;
  return r;
}

/* A driver launch, a runtime launch (its version suffix dropped), a call outside the runner's table (named by
 * its number: libcupti is not loaded here), an end before the start, and records of other kinds. */
static void
test_api_records (void)
{
  CUpti_ActivityAPI r;
  WbCuptiApiCall    c;

  r = api_record (CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1000, 1800, 77, 30);
  g_assert_true (wb_cupti_api_call_from_record (&r, &c));
  g_assert_cmpint (c.domain, ==, WB_CUPTI_API_DRIVER);
  g_assert_cmpstr (c.name, ==, "cuLaunchKernel");
  g_assert_true (c.name == g_intern_string ("cuLaunchKernel"));
  g_assert_cmpuint (c.cbid, ==, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
  g_assert_cmpint (c.start_ns, ==, 1000);
  g_assert_cmpint (c.end_ns, ==, 1800);
  g_assert_cmpuint (c.thread, ==, 77);
  g_assert_cmpuint (c.correlation_id, ==, 30);

  r = api_record (CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 2000, 2500, 78, 31);
  g_assert_true (wb_cupti_api_call_from_record (&r, &c));
  g_assert_cmpint (c.domain, ==, WB_CUPTI_API_RUNTIME);
  g_assert_cmpstr (c.name, ==, "cudaLaunchKernel");
  g_assert_cmpuint (c.thread, ==, 78);

  r = api_record (CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, 3000, 9000, 77, 32);
  g_assert_true (wb_cupti_api_call_from_record (&r, &c));
  g_assert_cmpstr (c.name, ==, "cuStreamSynchronize");
  r = api_record (CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, 3000, 9000, 77, 32);
  g_assert_true (wb_cupti_api_call_from_record (&r, &c));
  g_assert_cmpstr (c.name, ==, "cuMemcpyHtoDAsync_v2"); /* the driver's _v2 is part of its name */

  r = api_record (CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuInit, 10, 5, 77, 1);
  g_assert_true (wb_cupti_api_call_from_record (&r, &c));
  g_assert_cmpstr (c.name, ==, "driver API call 1"); /* cuInit's id, not in the runner's table */
  g_assert_cmpint (c.end_ns, ==, c.start_ns);

  r = api_record (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0, 10, 20, 77, 1);
  g_assert_false (wb_cupti_api_call_from_record (&r, &c));
  r = api_record (CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, 0, 10, 20, 77, 1);
  g_assert_false (wb_cupti_api_call_from_record (&r, &c));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cupti/api-records", test_api_records);
  return g_test_run ();
}
