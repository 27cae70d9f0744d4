/* test-cuda-codegen-reduce.c — what the CUDA code generator emits for reductions, compiled to sm_90 without a
 * GPU (suite executors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A repeated conversion bound to the first (CSE), so that the column kernel stores one output; the column
 * kernel with its pointwise work and kept-shape epilogue (wb-cuda-codegen-column.c, -epilogue.c); the mix-order
 * reduction of column and row sums in one kernel (wb-cuda-codegen-mix.c); a row kernel that computes an output
 * it reads; grids sized by the SM count. On real regions of gpt2_block and llama_layer (WB_TRACES_DIR) and on
 * inline one-region traces. */
#include "config.h"

#include <string.h>

#include "wb-test-codegen.h"
#include "wb-test-mixed-body.h"

/* The output of @plan of dtype bf16 and @shape (rank 2 or 3), or -1. */
static int
output_of_shape (const WbCudaPlan *plan, guint rank, const gint64 *shape)
{
  for (guint i = 0; i < plan->n_outputs; i++)
    if (plan->outputs[i].dtype == WB_DTYPE_BFLOAT16 && plan->outputs[i].rank == rank && memcmp (plan->outputs[i].shape, shape, rank * sizeof (gint64)) == 0)
      return (int) i;
  return -1;
}

/* gpt2_block's recomputed backward converts one f32 value to bf16 twice (in its second layer norm's gradient
 * region), returning one as [8, 1024, 768] and reshaping the other to [8192, 768] for a matmul:
 * the generator binds the repeat to the first conversion, so the reshape is a view of the same buffer and the
 * column kernel stores one output per element, not two; WB_CUDA_NO_CSE=1 keeps two buffers. */
static void
test_cse (void)
{
  g_autoptr (GPtrArray) found = wb_test_cg_regions_of ("gpt2_block");
  const gint64 tokens[3] = { 8, 1024, 768 }, rows[2] = { 8192, 768 };
  guint        shared = 0, apart = 0;

  if (found->len == 0 || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs gpt2_block (WB_TRACES_DIR) and NVRTC");
      return;
    }
  for (int cse = 1; cse >= 0; cse--)
    {
      if (!cse)
        g_setenv ("WB_CUDA_NO_CSE", "1", TRUE);
      for (guint i = 0; i < found->len; i++)
        {
          WbTestCgFound *f = found->pdata[i];
          g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of (f);
          int a, b;
          if ((a = output_of_shape (plan, 3, tokens)) < 0 || (b = output_of_shape (plan, 2, rows)) < 0 || plan->n_kernels != 1 ||
              !g_str_has_prefix (plan->kernels[0].what, "sum over 2 of 3 dims"))
            continue;
          g_test_message ("%s%s: %s", f->name, cse ? "" : " (WB_CUDA_NO_CSE)", plan->kernels[0].what);
          if (cse)
            {
              g_assert_cmpuint (plan->outputs[a].slot, ==, plan->outputs[b].slot);
              g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per element"));
              wb_test_cg_compile (f->name, plan);
              shared++;
            }
          else
            apart += plan->outputs[a].slot != plan->outputs[b].slot;
        }
    }
  g_unsetenv ("WB_CUDA_NO_CSE");
  /* the second layer norm's backward; the MLP output gradient's region did it too until its reader took over the
   * other conversion (wb-pass-remat.c's backward rule: WB_NO_BACKWARD_REMAT=1 gives 2) */
  g_assert_cmpuint (shared, ==, 1);
  g_assert_cmpuint (apart, ==, 1);
}

/* Grids follow the SM count plans are built for (wb_cuda_codegen_set_sm_count; the runtime sets its device's):
 * the mixed RMS-norm backward's persistent grid is 2 blocks an SM and its partials as many, a column reduction's
 * slices fill the SMs; the default is 132 (H100 SXM, H200). An H100 PCIe's 114 SMs get one wave of 228 blocks,
 * not 264 (a second, partial wave). */
static void
test_sm_count (void)
{
  const char *in = "a bf16[2048, 4096]\nb bf16[2048, 4096]\nc bf16[2048, 4096]\nd bf16[2048, 4096]";
  const char *body = WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7");
  const char *column = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (0,))";
  g_autoptr (WbCudaPlan) h200 = NULL;
  g_autoptr (WbCudaPlan) pcie = NULL;
  g_autoptr (WbCudaPlan) again = NULL;
  g_autoptr (WbCudaPlan) col_h200 = NULL;
  g_autoptr (WbCudaPlan) col_pcie = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  g_assert_cmpuint (wb_cuda_codegen_get_sm_count (), ==, 132);
  h200 = wb_test_cg_plan_of_body (in, body, "t8, t6, t5, t4");
  col_h200 = wb_test_cg_plan_of_body ("a bf16[1048576, 64]", column, "t1");
  wb_cuda_codegen_set_sm_count (114);
  pcie = wb_test_cg_plan_of_body (in, body, "t8, t6, t5, t4");
  col_pcie = wb_test_cg_plan_of_body ("a bf16[1048576, 64]", column, "t1");
  wb_cuda_codegen_set_sm_count (0);
  g_assert_cmpuint (wb_cuda_codegen_get_sm_count (), ==, 132);
  again = wb_test_cg_plan_of_body (in, body, "t8, t6, t5, t4");

  g_assert_cmpuint (h200->n_kernels, ==, 1);
  g_assert_cmpuint (pcie->n_kernels, ==, 1);
  g_assert_cmpuint (h200->kernels[0].grid, ==, 264);
  g_assert_cmpuint (pcie->kernels[0].grid, ==, 228);
  g_assert_nonnull (strstr (h200->kernels[0].what, "partials of 264 blocks"));
  g_assert_nonnull (strstr (pcie->kernels[0].what, "partials of 228 blocks"));
  g_assert_cmpstr (again->source, ==, h200->source);
  g_assert_cmpuint (again->kernels[0].grid, ==, 264);
  /* the column kernel: its slices fill the SMs, so fewer SMs take fewer blocks */
  g_test_message ("column: %s, %u blocks / %s, %u blocks", col_h200->kernels[0].what, col_h200->kernels[0].grid, col_pcie->kernels[0].what, col_pcie->kernels[0].grid);
  g_assert_cmpuint (col_h200->kernels[0].grid % 132, ==, 0);
  g_assert_cmpuint (col_pcie->kernels[0].grid, ==, 114 * (col_h200->kernels[0].grid / 132));
  wb_test_cg_compile ("mixed, 114 SMs", pcie);
  wb_test_cg_compile ("column, 114 SMs", col_pcie);
}

/* gpt2_block's MLP backward (the recomputed program's region of the GELU gradient and the fc bias gradient):
 * the column sum over the 8192 tokens, the pointwise gradient it sums and the bias gradient's conversion to
 * bf16 (of the kept shape [3072], after the last block's combine) are one kernel, vector loads of 8 bf16 and 8
 * adjacent sums per thread, a grid that is resident at once; without epilogues, three kernels. */
static void
test_column_fused (void)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (WbCudaPlan) apart = NULL;
  WbTestCgFound *f = NULL;
  g_autoptr (WbCudaPlan) plan = wb_test_cg_gpt2_block_plan (1, "sum over 2 of 3 dims of f32[25165824 elements]: 3072 outputs", &found, &f);

  if (plan == NULL)
    return;
  g_assert_nonnull (strstr (plan->kernels[0].what, "vector: 8 outputs per thread"));
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per element; 1 pointwise output of the kept shape after the combine"));
  g_assert_cmpuint (plan->kernels[0].grid, <=, 132 * 4);
  /* the kept-shape output: threads x < 64 of the tile's last block, at tb + x, after the combine */
  g_assert_nonnull (strstr (plan->source, "if (threadIdx.x < 64 && tb + x < 3072)"));
  wb_test_cg_compile (f->name, plan);
  apart = wb_test_cg_plan_with (f, "WB_CUDA_NO_EPILOGUE");
  g_assert_cmpuint (apart->n_kernels, ==, 3);
  g_assert_null (strstr (apart->kernels[0].what, "pointwise output"));
  g_assert_true (g_str_has_prefix (apart->kernels[1].what, "pointwise over [8192, 3072]"));
  g_assert_true (g_str_has_prefix (apart->kernels[2].what, "pointwise over [3072]"));
}

/* gpt2_block's qkv gradient: a cat of three [8, 12, 1024, 64] gradients, transposed and reshaped, summed over
 * the 8192 tokens (the qkv bias gradient) and stored as [8192, 2304]. The stored value's index, a (row,
 * column) pair, reaches the cat through dim groups (8192 = 8 x 1024; 2304 = 3 x 768 = 3 x 12 x 64): the same
 * expressions as the sum's operand, so each row's cat branch is emitted once and read by both. With
 * WB_CUDA_RESHAPE_LINEAR=1 (the linear index unravelled) the store builds the cat a second time from E. The
 * walk takes 2 rows an iteration, their loads before their stores (WB_CUDA_COLUMN_ROWS). */
static void
test_column_cat_once (void)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (WbCudaPlan) linear = NULL;
  WbTestCgFound *f = NULL;
  g_autoptr (WbCudaPlan) plan = wb_test_cg_gpt2_block_plan (1, "sum over 2 of 3 dims of f32[18874368 elements]: 2304 outputs", &found, &f);
  guint grouped_cats, linear_cats;

  if (plan == NULL)
    return;
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per element"));
  g_assert_nonnull (strstr (plan->source, "for (; r + 32 < r1; r += 64)"));
  g_assert_nonnull (strstr (plan->source, "const int E_1 = r_1 * 2304 + o;"));
  g_assert_null (strstr (plan->source, "E / 2359296"));
  wb_test_cg_compile (f->name, plan);
  linear = wb_test_cg_plan_with (f, "WB_CUDA_RESHAPE_LINEAR");
  grouped_cats = wb_test_cg_count (plan->source, " < 768)");
  linear_cats = wb_test_cg_count (linear->source, " < 768)");
  g_test_message ("cat branches: %u grouped, %u linear", grouped_cats, linear_cats);
  g_assert_cmpuint (grouped_cats, >, 0);
  g_assert_cmpuint (linear_cats, ==, 2 * grouped_cats);
  g_assert_nonnull (strstr (linear->source, "E / 2359296"));
}

/* Values of a column kernel's kept shape that read its sums at their own index are computed by the last block
 * of each tile after its combine: one kernel where there were two. One that reads a sum at another index (a
 * flip of it) must wait for every tile, and stays a kernel of its own. */
static void
test_column_tail (void)
{
  const char      *body = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.sum(t1, (0, 1))\n"
                          "t3 = prims.sum(t0, (0, 1))\nt4 = prims.mul(t2, t3)\nt5 = prims.convert_element_type(t4, dtypes.bfloat16)\n"
                          "t6 = prims.broadcast_in_dim(t3, (1, 96), (1,))\nt7 = prims.add(t6, 1.0)";
  g_autofree char *flipped = g_strconcat (body, "\nt8 = prims.flip(t2, (0,))", NULL);

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of_body ("a bf16[4, 512, 96]", body, "t5, t7");
    g_autoptr (WbCudaPlan) apart = NULL;
    g_assert_cmpuint (plan->n_kernels, ==, 1);
    g_assert_nonnull (strstr (plan->kernels[0].what, "sum and 1 sibling over 2 of 3 dims"));
    g_assert_nonnull (strstr (plan->kernels[0].what, "2 pointwise outputs of the kept shape after the combine"));
    wb_test_cg_compile ("column tail", plan);
    g_setenv ("WB_CUDA_NO_EPILOGUE", "1", TRUE);
    apart = wb_test_cg_plan_of_body ("a bf16[4, 512, 96]", body, "t5, t7");
    g_unsetenv ("WB_CUDA_NO_EPILOGUE");
    g_assert_cmpuint (apart->n_kernels, ==, 3); /* the sums, then one pointwise kernel per shape ([96], [1, 96]) */
  }
  {
    g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of_body ("a bf16[4, 512, 96]", flipped, "t5, t7, t8");
    g_assert_cmpuint (plan->n_kernels, ==, 2);
    g_assert_nonnull (strstr (plan->kernels[0].what, "1 pointwise output of the kept shape after the combine"));
    g_assert_true (g_str_has_prefix (plan->kernels[1].what, "pointwise over [96]"));
    wb_test_cg_compile ("column tail, flipped", plan);
  }
}

/* A layer-norm backward's shape: column sums (the weight and bias gradients, one converted to bf16 after the
 * combine) over the same [rows, 512] elements as a row sum whose pointwise output follows. Rows of 512 bf16 are
 * one warp each (2 steps of 32 x 8), so the row kernel also computes the column sums (wb-cuda-codegen-mix.c): one
 * kernel, each thread 2 x 8 columns of each sum, partials of its block, combined by the last blocks to arrive;
 * WB_CUDA_NO_MIX gives the column kernel and the row kernel. Rows of 4096 take 256 threads: not mixed while the
 * element output reads the row sums (test_column_mixed_deferred for one that does not). */
static void
test_column_mixed (void)
{
  const char      *body = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                          "t2 = prims.mul(t0, t1)\nt3 = prims.sum(t2, (0,))\nt4 = prims.sum(t1, (0,))\n"
                          "t5 = prims.convert_element_type(t3, dtypes.bfloat16)\nt6 = prims.sum(t2, (1,))\n"
                          "t7 = prims.broadcast_in_dim(t6, (1024, 512), (0,))\nt8 = prims.sub(t1, t7)\n"
                          "t9 = prims.convert_element_type(t8, dtypes.bfloat16)";
  g_autofree char *wide = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]", body, "t9, t6, t5, t4");
    g_autoptr (WbCudaPlan) apart = NULL;
    g_assert_cmpuint (plan->n_kernels, ==, 1);
    g_assert_nonnull (strstr (plan->kernels[0].what, "sum over 1 of 2 dims of f32[524288 elements]: 1024 outputs, 32 threads each"));
    g_assert_nonnull (strstr (plan->kernels[0].what, "and the column sum and 1 sibling over its 1024 rows: 512 outputs, 16 columns a thread, "
                                                     "partials of 128 blocks combined by the last 16; 1 pointwise output of the kept shape"));
    g_assert_cmpuint (plan->kernels[0].grid, ==, 128); /* 1024 rows, 8 a block */
    g_assert_cmpuint (plan->kernels[0].resident, ==, 16);
    g_assert_nonnull (strstr (plan->source, "for (int st = 0; st < 2; st++)"));
    g_assert_nonnull (strstr (plan->source, "wb_c1[st * 8 + 7] = wb_c1[st * 8 + 7] + "));
    /* its grid resident at once (2 blocks an SM); the row walk unrolled in the reduction too (its loads all in
     * flight), and the epilogue reads the row's sum from the register the group reduced it into */
    g_assert_nonnull (strstr (plan->source, "__launch_bounds__ (256, 2)"));
    g_assert_nonnull (strstr (strstr (plan->source, "for (int st = 0; st < 2; st++)") + 1, "for (int st = 0; st < 2; st++)"));
    g_assert_nonnull (strstr (plan->source, " = acc;\n"));
    g_assert_null (strstr (plan->source, "prefetch")); /* the epilogue reads only what the sums read */
    g_assert_nonnull (strstr (plan->source, "if (wb_ticket >= 112u)"));
    /* 512 columns: 16 tiles of 32, one a combiner, loaded 4 bytes at a time; both sums' partials in one loop (their
     * loads in flight together), then one barrier before the groups of each are added */
    g_assert_null (strstr (plan->source, "float4"));
    {
      const char *tile = strstr (plan->source, "for (int tile = (int) wb_ticket - 112; tile < 16; tile += 16)");
      const char *loop, *end;
      g_assert_nonnull (tile);
      loop = strstr (tile, "for (int i = q; i < 128; i += 8)");
      g_assert_nonnull (loop);
      end = strstr (loop, "__syncthreads ();");
      g_assert_nonnull (end);
      {
        g_autofree char *body_of_loop = g_strndup (loop, (gsize) (end - loop));
        g_assert_cmpuint (wb_test_cg_count (body_of_loop, "__ldcg ("), ==, 2);
        g_assert_nonnull (strstr (body_of_loop, "y0[0] = y0[0] + __ldcg (&p"));
        g_assert_nonnull (strstr (body_of_loop, "y1[0] = y1[0] + __ldcg (&p"));
      }
      {
        const char      *done = strstr (end, "atomicAdd ((unsigned int *) &p");
        g_autofree char *rest = NULL;
        g_assert_nonnull (done);
        rest = g_strndup (end, (gsize) (done - end));
        g_assert_nonnull (strstr (rest, "z = wb_msm[(256 + x) * 1 + l];"));
        g_assert_null (strstr (rest, "__ldcg (")); /* no partial loaded after the barrier */
        g_assert_cmpuint (wb_test_cg_count (rest, "__syncthreads ();"), ==, 2);
      }
    }
    wb_test_cg_compile ("mixed", plan);
    g_setenv ("WB_CUDA_NO_MIX", "1", TRUE);
    apart = wb_test_cg_plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]", body, "t9, t6, t5, t4");
    g_unsetenv ("WB_CUDA_NO_MIX");
    g_assert_cmpuint (apart->n_kernels, ==, 2);
    g_assert_nonnull (strstr (apart->kernels[0].what, "combined by the last block of each tile"));
    g_assert_null (strstr (apart->kernels[1].what, "column"));
  }
  {
    /* an input only the epilogue reads (c) is prefetched to L1 by the row walk, at the row's elements; the
     * inputs the sums read are not (they are loaded there) */
    g_autoptr (GString) b = g_string_new (body);
    g_autoptr (WbCudaPlan) plan = NULL;
    g_autoptr (WbCudaPlan) plain = NULL;
    g_string_replace (b, "t8 = prims.sub(t1, t7)", "t10 = prims.convert_element_type(c, dtypes.float32)\nt8 = prims.sub(t10, t7)", 0);
    plan = wb_test_cg_plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]\nc bf16[1024, 512]", b->str, "t9, t6, t5, t4");
    g_assert_cmpuint (plan->n_kernels, ==, 1);
    g_assert_cmpuint (wb_test_cg_count (plan->source, "prefetch.global.L1"), ==, 2); /* vector and scalar variants */
    g_assert_nonnull (strstr (plan->source, "prefetch.global.L1 [%0];\" ::\"l\"(p2 + (o * 512 + r0))"));
    wb_test_cg_compile ("mixed, prefetching", plan);
    g_setenv ("WB_CUDA_NO_PREFETCH", "1", TRUE);
    plain = wb_test_cg_plan_of_body ("a bf16[1024, 512]\nb bf16[1024, 512]\nc bf16[1024, 512]", b->str, "t9, t6, t5, t4");
    g_unsetenv ("WB_CUDA_NO_PREFETCH");
    g_assert_null (strstr (plain->source, "prefetch"));
  }
  {
    g_autoptr (GString) b = g_string_new (body);
    g_string_replace (b, "(1024, 512)", "(1024, 4096)", 0);
    wide = g_string_free (g_steal_pointer (&b), FALSE);
  }
  {
    g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of_body ("a bf16[1024, 4096]\nb bf16[1024, 4096]", wide, "t9, t6, t5, t4");
    g_assert_cmpuint (plan->n_kernels, ==, 2);
    g_assert_nonnull (strstr (plan->kernels[0].what, "combined by the last block of each tile"));
    g_assert_nonnull (strstr (plan->kernels[1].what, "256 threads each"));
  }
}

/* An RMS-norm backward's shape (llama_layer's nvrtcFusion10): rows of 4096 take 256 threads, and the element
 * outputs read none of the row sums, so the block walks its rows with no barrier: the row sums are taken in the
 * element walk beside the column sums, each warp's part parked in shared memory and added after the walk, with the
 * kept-shape output of each row (wb-cuda-codegen-mix.c, WbCgMix.defer). WB_CUDA_NO_MIX_DEFER=1: two kernels. The
 * column sums read 8 bytes an element of 8M: 67 MB, mixed (defer_ok: more than 40 MB); 4 bytes an element of the
 * same shape (34 MB), or 8 of half the rows, two kernels; 4 of four times the rows (134 MB), mixed. */
static void
test_column_mixed_deferred (void)
{
  const char *in = "a bf16[2048, 4096]\nb bf16[2048, 4096]\nc bf16[2048, 4096]\nd bf16[2048, 4096]";
  const char *body = WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7");
  /* the column sums of a * b alone: 4 bytes an element */
  const char *body2 = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                      "t2 = prims.mul(t0, t1)\nt3 = prims.sum(t2, (0,))\nt4 = prims.convert_element_type(t3, dtypes.bfloat16)\n"
                      "t5 = prims.sum(t2, (1,))\nt6 = prims.mul(t5, -0.5)\nt7 = prims.add(t0, t1)\nt8 = prims.convert_element_type(t7, dtypes.bfloat16)";
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (WbCudaPlan) apart = NULL;
  const char *walk, *after;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = wb_test_cg_plan_of_body (in, body, "t8, t6, t5, t4");
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_nonnull (strstr (plan->kernels[0].what, "2048 outputs, 256 threads each"));
  g_assert_nonnull (strstr (plan->kernels[0].what, "and the column sum over its 2048 rows: 4096 outputs, 16 columns a thread, partials of 264 blocks "
                                                   "combined by the last 64; the row sums taken in the element walk and added after it"));
  g_assert_cmpuint (plan->kernels[0].grid, ==, 264);
  /* its last 64 blocks wait for all 264: the launcher checks that the device holds 64 at once */
  g_assert_cmpuint (plan->kernels[0].resident, ==, 64);
  {
    /* where it does not, the plan built without waiting kernels: a column kernel and a row kernel */
    g_autoptr (WbCudaPlan) no_wait = wb_test_cg_plan_of_body_flags (in, body, "t8, t6, t5, t4", WB_CUDA_CODEGEN_NO_WAIT);
    g_assert_cmpuint (no_wait->n_kernels, ==, 2);
    g_assert_null (strstr (no_wait->source, "wb_ticket"));
    for (guint k = 0; k < no_wait->n_kernels; k++)
      g_assert_cmpuint (no_wait->kernels[k].resident, ==, 0);
    wb_test_cg_compile ("mixed, deferred row sums, built without waiting", no_wait);
  }
  /* 2048 rows over 264 blocks: 8 turns a block, 8 warps a row */
  g_assert_nonnull (strstr (plan->source, "__shared__ float wb_mrow[64];"));
  /* in the walk: no barrier; the sums' parts parked; after it, one barrier and the rows finished */
  walk = strstr (plan->source, "for (int ob = ");
  after = strstr (plan->source, "for (int wb_i = (int) threadIdx.x; wb_i < 8; wb_i += 256)");
  g_assert_nonnull (walk);
  g_assert_nonnull (after);
  g_assert_true (walk < after);
  {
    g_autofree char *w = g_strndup (walk, (gsize) (after - walk));
    g_assert_cmpuint (wb_test_cg_count (w, "__syncthreads"), ==, 1); /* the one before the rows are finished */
    g_assert_nonnull (strstr (w, "wb_mrow[(0 * 8 + wb_it) * 8 + threadIdx.x / 32] = acc;"));
    g_assert_nonnull (strstr (w, "acc = acc + "));
    g_assert_nonnull (strstr (w, "wb_c0[st * 8 + 7] = wb_c0[st * 8 + 7] + "));
  }
  g_assert_nonnull (strstr (after, "acc = acc + wb_mrow[(0 * 8 + wb_i) * 8 + w];"));
  g_assert_nonnull (strstr (after, " * ((float) -0.5));")); /* the kept-shape output of each row */
  /* 4096 columns: 128 tiles of 32 for at most 64 combiners, so 64 tiles of 2 x 32, loaded 8 bytes at a time */
  g_assert_nonnull (strstr (after, "const float2 t0 = __ldcg ((const float2 *) &p"));
  g_assert_nonnull (strstr (after, "for (int tile = (int) wb_ticket - 200; tile < 64; tile += 64)"));
  g_assert_null (strstr (after, "float4"));
  wb_test_cg_compile ("mixed, deferred row sums", plan);
  {
    /* 8192 columns (1024 rows: the column sums read 67 MB, one pass): 256 tiles of 32, so 64 of 4 x 32, 16 bytes a
     * load */
    g_autoptr (WbCudaPlan) wide = wb_test_cg_plan_of_body ("a bf16[1024, 8192]\nb bf16[1024, 8192]\nc bf16[1024, 8192]\nd bf16[1024, 8192]", body,
                                                           "t8, t6, t5, t4");
    g_assert_cmpuint (wide->n_kernels, ==, 1);
    g_assert_nonnull (strstr (wide->kernels[0].what, "8192 outputs, 32 columns a thread, partials of 264 blocks combined by the last 64"));
    g_assert_nonnull (strstr (wide->source, "const float4 t0 = __ldcg ((const float4 *) &p"));
    g_assert_nonnull (strstr (wide->source, "for (int tile = (int) wb_ticket - 200; tile < 64; tile += 64)"));
    wb_test_cg_compile ("mixed, deferred row sums, 8192 columns", wide);
  }
  {
    /* the column sums read 4 bytes an element (34 MB), the row kernel moves 6 (llama_layer's nvrtcFusion14), or 10
     * with an f32 output of every element as well (the same region without backward rematerialization): the mixed
     * walk would lose, two kernels */
    g_autofree char *more = g_strconcat (body2, "\nt9 = prims.sub(t0, t1)", NULL);
    g_autoptr (WbCudaPlan) two = wb_test_cg_plan_of_body (in, body2, "t8, t6, t5, t4");
    g_autoptr (WbCudaPlan) two_more = wb_test_cg_plan_of_body (in, more, "t8, t9, t6, t5, t4");
    g_assert_cmpuint (two->n_kernels, ==, 2);
    g_assert_null (strstr (two->source, "wb_mrow"));
    for (guint k = 0; k < two->n_kernels; k++) /* the column kernel's last block of a tile waits for none */
      g_assert_cmpuint (two->kernels[k].resident, ==, 0);
    g_assert_cmpuint (two_more->n_kernels, ==, 2);
    g_assert_null (strstr (two_more->source, "wb_mrow"));
  }
  {
    /* the rule goes by the column kernel's bytes, not bytes an element: 8 bytes of [1024, 4096] (34 MB), two
     * kernels; 4 bytes of [8192, 4096] (134 MB), one pass (0.87x of two kernels on an H200; the rule before chose
     * two) */
    const char *half = "a bf16[1024, 4096]\nb bf16[1024, 4096]\nc bf16[1024, 4096]\nd bf16[1024, 4096]";
    g_autoptr (WbCudaPlan) small = wb_test_cg_plan_of_body (half, body, "t8, t6, t5, t4");
    g_autoptr (WbCudaPlan) big = wb_test_cg_plan_of_body ("a bf16[8192, 4096]\nb bf16[8192, 4096]", body2, "t8, t6, t5, t4");
    g_assert_cmpuint (small->n_kernels, ==, 2);
    g_assert_null (strstr (small->source, "wb_mrow"));
    g_assert_cmpuint (big->n_kernels, ==, 1);
    g_assert_nonnull (strstr (big->kernels[0].what, "the row sums taken in the element walk and added after it"));
    wb_test_cg_compile ("mixed, 4 bytes of 32M elements", big);
  }
  g_setenv ("WB_CUDA_NO_MIX_DEFER", "1", TRUE);
  apart = wb_test_cg_plan_of_body (in, body, "t8, t6, t5, t4");
  g_unsetenv ("WB_CUDA_NO_MIX_DEFER");
  g_assert_cmpuint (apart->n_kernels, ==, 2);
  g_assert_null (strstr (apart->source, "wb_mrow"));
}

/* An element output of the operand's shape up to dims of extent 1 ([2048, 4096] beside an operand of [1, 2048, 4096])
 * is the row set's like one of its exact shape, so the one-pass kernel above still applies; until then it went to
 * the column kernel and the region was two kernels. llama_layer's RMS-norm backward nvrtcFusion10 in the recomputed
 * program (since the backward rematerialization rule its one element output is a bf16 [2048, 4096] of an f32
 * [1, 2048, 4096] operand) is that one kernel; nvrtcFusion14, the same shape with 4 bytes an element to its column
 * sums, stays two (defer_ok). */
static void
test_column_mixed_unit_dims (void)
{
  const char *in = "a bf16[1, 2048, 4096]\nb bf16[1, 2048, 4096]\nc bf16[1, 2048, 4096]\nd bf16[1, 2048, 4096]";
  const char *body = WB_TEST_MIXED_BODY ("(0, 1)", "(2,)", "t9 = prims.reshape(t7, (2048, 4096))\n", "t9");
  g_autoptr (GPtrArray) llama = wb_test_cg_regions_of ("llama_layer");
  g_autoptr (WbCudaPlan) plan = NULL;
  guint one_pass = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = wb_test_cg_plan_of_body (in, body, "t8, t6, t5, t4");
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per row and 1 per element; and the column sum over its 2048 rows"));
  /* the [2048, 4096] output stored at the operand's linear index, 8 bf16 at a time */
  g_assert_nonnull (strstr (plan->source, "*(wb_v8h *) (p"));
  wb_test_cg_compile ("mixed, unit dims", plan);
  for (guint i = 0; i < llama->len; i++)
    {
      WbTestCgFound *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of (f);
      if (p->n_kernels != 1 || strstr (p->kernels[0].what, "and the column sum over its 2048 rows") == NULL)
        continue;
      g_test_message ("%s: %s", f->name, p->kernels[0].what);
      g_assert_cmpstr (f->name, ==, "llama_layer/nvrtcFusion10");
      g_assert_nonnull (strstr (p->kernels[0].what, " and 1 per element;"));
      g_assert_cmpuint (p->n_outputs, ==, 3);
      wb_test_cg_compile (f->name, p);
      one_pass++;
    }
  if (llama->len == 0)
    g_test_message ("llama_layer not found (WB_TRACES_DIR): its RMS-norm backward not checked");
  else
    g_assert_cmpuint (one_pass, ==, 1);
}

/* Square rows ([4096, 4096]): the column sums and the row sums are both [4096], so a kept-shape output of the column
 * sums (t4) looked like one of the row kernel's to its epilogue, which took it; the column set then read nothing the
 * row set's kernel could give it at that point and the region was two kernels. Values reading a column reduction's
 * results are now left to the column kernel's epilogue (split_for_column), and the square region is one pass, as
 * [2048, 4096] is (0.72x of two kernels on an H200, bench-mix-defer.py). */
static void
test_column_mixed_square (void)
{
  const char *in = "a bf16[4096, 4096]\nb bf16[4096, 4096]\nc bf16[4096, 4096]\nd bf16[4096, 4096]";
  g_autoptr (WbCudaPlan) plan = NULL;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = wb_test_cg_plan_of_body (in, WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7"), "t8, t6, t5, t4");
  g_test_message ("%u kernels: %s", plan->n_kernels, plan->kernels[0].what);
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_nonnull (strstr (plan->kernels[0].what, "then 1 pointwise output per row and 1 per element; and the column sum over its 4096 rows"));
  g_assert_nonnull (strstr (plan->kernels[0].what, "1 pointwise output of the kept shape after the combine"));
  wb_test_cg_compile ("mixed, square", plan);
}

/* An output that a row reduction reads, of the operand's shape up to dims of extent 1 (a bf16 [600, 4096] gradient
 * whose reshape to [1, 600, 4096] is summed over its rows), is computed by the row kernel at each element, as one of
 * the operand's exact shape is (_wb_cg_read_by_reduction): one kernel that reads the inputs once, not a pointwise
 * kernel first whose output the row kernel loads again. */
static void
test_reduction_reads_unit_dims_output (void)
{
  const char *in = "a bf16[1, 600, 4096]\nb bf16[1, 600, 4096]";
  const char *body = WB_TEST_ROW_READS_OUTPUT_BODY ("600", "4096");
  const char *exact = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                      "t2 = prims.mul(t0, t1)\nt4 = prims.convert_element_type(t2, dtypes.bfloat16)\n"
                      "t6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.sum(t6, (2,))";

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) same = wb_test_cg_plan_of_body (in, exact, "t4, t7");
    g_autoptr (WbCudaPlan) unit = wb_test_cg_plan_of_body (in, body, "t4, t7");
    g_test_message ("exact: %u kernels: %s", same->n_kernels, same->kernels[0].what);
    g_test_message ("unit: %u kernels: %s", unit->n_kernels, unit->kernels[0].what);
    g_assert_cmpuint (same->n_kernels, ==, 1);
    g_assert_cmpuint (unit->n_kernels, ==, 1);
    g_assert_nonnull (strstr (unit->kernels[0].what, "1 per element"));
    wb_test_cg_compile ("reduction reads a unit-dims output", unit);
  }
}

int
main (int argc, char **argv)
{
  wb_test_cg_init (&argc, &argv);
  g_test_add_func ("/cuda/codegen/cse", test_cse);
  g_test_add_func ("/cuda/codegen/sm-count", test_sm_count);
  g_test_add_func ("/cuda/codegen/column/fused", test_column_fused);
  g_test_add_func ("/cuda/codegen/column/tail", test_column_tail);
  g_test_add_func ("/cuda/codegen/column/cat-once", test_column_cat_once);
  g_test_add_func ("/cuda/codegen/column/mixed", test_column_mixed);
  g_test_add_func ("/cuda/codegen/column/mixed-deferred", test_column_mixed_deferred);
  g_test_add_func ("/cuda/codegen/column/mixed-unit-dims", test_column_mixed_unit_dims);
  g_test_add_func ("/cuda/codegen/column/mixed-square", test_column_mixed_square);
  g_test_add_func ("/cuda/codegen/row/reduction-reads-unit-dims", test_reduction_reads_unit_dims_output);
  return wb_test_cg_run ();
}
