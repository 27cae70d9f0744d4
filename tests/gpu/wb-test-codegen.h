/* wb-test-codegen.h — what the code generation tests (test-cuda-codegen, -pointwise, -reduce) share: the nvrtc
 * regions of a real trace, plans of a one-region trace written inline, NVRTC compiles into a private cache
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plans are built without a GPU and compiled for sm_90 (NVRTC needs no driver); a test that needs NVRTC or a
 * trace and does not find it calls g_test_skip. Failures abort the test (g_assert, g_error). */
#pragma once

#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"

G_BEGIN_DECLS

/* An nvrtc region of the pipeline's final stages and the trace holding it (the pointers are kept for the
 * test's run; @name is "CASE/REGION"). */
typedef struct
{
  const WbTrace *trace;
  const WbBsym  *region;
  char          *name;
} WbTestCgFound;

/* The kernel cache of this test program (a temporary folder, removed by wb_test_cg_run). */
extern char *wb_test_cg_cache_dir;

/* g_test_init, then the temporary kernel cache. */
void wb_test_cg_init (int *argc, char ***argv);
/* g_test_run, then removes the kernel cache; returns g_test_run's status. */
int wb_test_cg_run (void);

/* Every fusion region of the pipeline's final stages of @case_name (under WB_TRACES_DIR), element-type
 * WbTestCgFound; empty when the case is not there. (transfer container) */
GPtrArray *wb_test_cg_regions_of (const char *case_name);
/* How many times @needle occurs in @haystack (overlaps counted). */
guint wb_test_cg_count (const char *haystack, const char *needle);
/* Compiles @plan's source for sm_90 into the test's cache; a compile error fails the test, naming @what. */
void wb_test_cg_compile (const char *what, const WbCudaPlan *plan);
/* The plan of a one-region trace under @flags: @inputs "name dtype[shape]" lines, the region's @body (prims,
 * one a line), @outputs the names it returns ("t8, t6"). (transfer full) */
WbCudaPlan *wb_test_cg_plan_of_body_flags (const char *inputs, const char *body, const char *outputs, WbCudaCodegenFlags flags);
/* ... under WB_CUDA_CODEGEN_DEFAULT. (transfer full) */
WbCudaPlan *wb_test_cg_plan_of_body (const char *inputs, const char *body, const char *outputs);
/* The vector loop of @source (between the alignment test and the scalar loop; over vectors Q where warps take
 * several rows). (transfer full) */
char *wb_test_cg_vector_loop (const char *source);
/* The plan of @f's region (the test fails on an error). (transfer full) */
WbCudaPlan *wb_test_cg_plan_of (const WbTestCgFound *f);
/* The plan of the first region of gpt2_block whose plan has @n_kernels kernels, the first's description
 * starting with @what, and that region in @f (kept by @found); NULL when the test is skipped (no traces or
 * no NVRTC). Fails the test when no region matches. (transfer full) */
WbCudaPlan *wb_test_cg_gpt2_block_plan (guint n_kernels, const char *what, GPtrArray **found, WbTestCgFound **f);
/* The plan of @f's region built with environment variable @var set to "1" (a switch of the generator).
 * (transfer full) */
WbCudaPlan *wb_test_cg_plan_with (const WbTestCgFound *f, const char *var);
/* The kernel of @plan's source (after the prelude, which defines the rounding helpers). (transfer none) */
const char *wb_test_cg_kernel_text (const WbCudaPlan *plan);

G_END_DECLS
