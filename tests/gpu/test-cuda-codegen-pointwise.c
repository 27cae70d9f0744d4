/* test-cuda-codegen-pointwise.c — what the CUDA code generator emits for pointwise kernels, compiled to sm_90
 * without a GPU (suite executors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The vector variant (wb-cuda-codegen-pointwise.c) is chosen where the innermost extent allows it and not
 * otherwise, loads what it can as vectors, and compiles, as does the scalar plan of WB_CUDA_NO_VECTOR=1, whose
 * loop the vector plan holds unchanged; what each operand form becomes in the vector loop (row sums take
 * vectors too, and an output that is a view of another is no second kernel); lookup tables of one 16-bit input
 * (wb-cuda-codegen-table.c) and partial tables; cat pieces through pointer selects; exact negations; bf16x2
 * words. On real regions of gpt2_block and llama_layer (WB_TRACES_DIR) and on inline one-region traces. */
#include "config.h"

#include <string.h>

#include "wb-test-codegen.h"

/* A real region: gpt2_block's GELU over bf16[8, 1024, 3072] (contiguous, 3072 = 384 x 8) takes 16-byte
 * vectors; the scalar plan of WB_CUDA_NO_VECTOR=1 has none, and its loop is the vector plan's fallback. */
static void
test_vector_chosen (void)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (WbCudaPlan) scalar = NULL;
  WbTestCgFound *f = NULL;
  const char    *loop;
  g_autoptr (WbCudaPlan) plan = NULL;

  g_setenv ("WB_CUDA_NO_TABLE", "1", TRUE); /* the computed kernel, not the lookup table (test_table_chosen) */
  plan = wb_test_cg_gpt2_block_plan (1, "pointwise over [8, 1024, 3072]: 1 output", &found, &f);
  if (plan == NULL)
    {
      g_unsetenv ("WB_CUDA_NO_TABLE");
      return;
    }
  g_assert_nonnull (strstr (plan->kernels[0].what, "vector: 8 per thread"));
  g_assert_nonnull (strstr (plan->source, "struct alignas (16) wb_v8h"));
  g_assert_nonnull (strstr (plan->source, "((unsigned long long) p0 | (unsigned long long) p1) & 15u) == 0"));
  g_assert_cmpuint (wb_test_cg_count (plan->source, "= *(const wb_v8h *) (p0 + B);"), ==, 1);
  g_assert_cmpuint (wb_test_cg_count (plan->source, "*(wb_v8h *) (p1 + B) = "), ==, 1);
  /* 25165824 / 8 elements in 256-thread blocks: capped at 132 SMs x 8 blocks x 4 waves */
  g_assert_cmpuint (plan->kernels[0].grid, ==, 132 * 8 * 4);
  wb_test_cg_compile (f->name, plan);
  scalar = wb_test_cg_plan_with (f, "WB_CUDA_NO_VECTOR");
  g_assert_null (strstr (scalar->kernels[0].what, "vector"));
  g_assert_null (strstr (scalar->source, "alignas"));
  loop = strstr (scalar->source, "  for (int L = ");
  g_assert_nonnull (loop);
  g_assert_nonnull (strstr (plan->source, loop)); /* the same scalar loop, to the end of the kernel */
  wb_test_cg_compile (f->name, scalar);
  g_unsetenv ("WB_CUDA_NO_TABLE");
}

/* V = 16 bytes of the narrowest element, halved until it divides the innermost extent (none when odd);
 * what each operand form becomes in the vector loop. */
static void
test_vector_forms (void)
{
  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    /* odd innermost extent: scalar only; 12 = 3 x 4: 4 bf16 per thread (8-byte vectors) */
    g_autoptr (WbCudaPlan) odd = wb_test_cg_plan_of_body ("a bf16[7, 37]", "t0 = prims.neg(a)", "t0");
    g_autoptr (WbCudaPlan) four = wb_test_cg_plan_of_body ("a bf16[5, 12]", "t0 = prims.neg(a)", "t0");
    g_autoptr (WbCudaPlan) ones = wb_test_cg_plan_of_body ("a f32[16, 24, 1]", "t0 = prims.neg(a)", "t0");
    g_assert_null (strstr (odd->kernels[0].what, "vector"));
    g_assert_null (strstr (odd->source, "alignas"));
    g_assert_nonnull (strstr (four->kernels[0].what, "vector: 4 per thread"));
    g_assert_nonnull (strstr (four->source, "struct alignas (8) wb_v4h"));
    g_assert_nonnull (strstr (ones->kernels[0].what, "vector: 4 per thread")); /* the innermost dim of extent > 1 */
    wb_test_cg_compile ("odd", odd);
    wb_test_cg_compile ("four", four);
    wb_test_cg_compile ("ones", ones);
  }
  {
    /* a cat of two branches of 16 bf16 (2 vectors): warps of 16 rows x 2 vectors, each row's lanes a 32-byte sector; of
     * pieces of 8 (1 vector) the flat walk, which keeps sectors whole */
    g_autoptr (WbCudaPlan) two = wb_test_cg_plan_of_body ("a bf16[64, 16]\nb bf16[64, 16]", "t0 = prims.neg(b)\nt1 = prims.cat([a, t0], 1)", "t1");
    g_autoptr (WbCudaPlan) one = wb_test_cg_plan_of_body ("a bf16[64, 8]\nb bf16[64, 8]", "t0 = prims.neg(b)\nt1 = prims.cat([a, t0], 1)", "t1");
    g_autoptr (WbCudaPlan) few = wb_test_cg_plan_of_body ("a bf16[8, 16]\nb bf16[8, 16]", "t0 = prims.neg(b)\nt1 = prims.cat([a, t0], 1)", "t1");
    /* pieces alike (one branch through a pointer select): rows of 4 vectors that no boundary splits, the flat walk */
    g_autoptr (WbCudaPlan) alike = wb_test_cg_plan_of_body ("a bf16[64, 16]\nb bf16[64, 16]", "t0 = prims.cat([a, b], 1)\nt1 = prims.neg(t0)", "t1");
    g_assert_nonnull (strstr (two->kernels[0].what, "vector: 8 per thread when aligned, warps of 16 rows x 2 vectors"));
    g_assert_nonnull (strstr (two->source, "const int B = ((Q / 64) * 64 + ((Q % 32) / 2) * 4 + ((Q / 32) % 2) * 2 + (Q % 2)) * 8;"));
    g_assert_null (strstr (one->kernels[0].what, "warps of"));
    g_assert_nonnull (strstr (one->kernels[0].what, "vector: 8 per thread"));
    g_assert_null (strstr (few->kernels[0].what, "warps of")); /* 8 rows: fewer than a warp's 16 */
    g_assert_null (strstr (alike->kernels[0].what, "warps of"));
    wb_test_cg_compile ("warps of 16 rows", two);
  }
  {
    /* mixed widths: 8 lanes (16 bytes of bf16), the f32 output in two 16-byte stores; the row bias is one
     * vector load, the per-row scalar one load for all lanes */
    g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body ("a bf16[32, 64]\nbias bf16[64]\nscale f32[32, 1]",
                                                        "t0 = prims.broadcast_in_dim(bias, (32, 64), (1,))\n"
                                                        "t1 = prims.broadcast_in_dim(scale, (32, 64), (0, 1))\n"
                                                        "t2 = prims.convert_element_type(a, dtypes.float32)\n"
                                                        "t3 = prims.convert_element_type(t0, dtypes.float32)\n"
                                                        "t4 = prims.add(t2, t3)\nt5 = prims.mul(t4, t1)",
                                                        "t5");
    g_autofree char *loop = wb_test_cg_vector_loop (p->source);
    g_assert_nonnull (strstr (p->kernels[0].what, "vector: 8 per thread"));
    g_assert_cmpuint (wb_test_cg_count (loop, "*(const wb_v8h *)"), ==, 2);
    g_assert_cmpuint (wb_test_cg_count (loop, "p2["), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (loop, "*(wb_v4f *) (p3 + B"), ==, 2);
    g_assert_nonnull (strstr (loop, "*(wb_v4f *) (p3 + B + 4)"));
    wb_test_cg_compile ("mixed", p);
  }
  {
    /* a transposed operand and a slice starting off the vector boundary are read lane by lane; an
     * aligned slice and a reshape are vectors */
    g_autoptr (WbCudaPlan) tr = wb_test_cg_plan_of_body ("a bf16[16, 24]", "t0 = prims.transpose(a, (1, 0))\nt1 = prims.neg(t0)", "t1");
    g_autoptr (WbCudaPlan) sl = wb_test_cg_plan_of_body ("a bf16[12, 48]", "t0 = prims.slice_prim(a, [2, 3], [10, 35], [1, 1])\nt1 = prims.neg(t0)", "t1");
    g_autoptr (WbCudaPlan) al = wb_test_cg_plan_of_body ("a bf16[12, 48]", "t0 = prims.slice_prim(a, [2, 8], [10, 40], [1, 1])\nt1 = prims.neg(t0)", "t1");
    g_autoptr (WbCudaPlan) rs = wb_test_cg_plan_of_body ("a bf16[4, 6, 16]", "t0 = prims.reshape(a, (24, 16))\nt1 = prims.abs(t0)", "t1");
    g_autofree char *ltr = wb_test_cg_vector_loop (tr->source);
    g_autofree char *lsl = wb_test_cg_vector_loop (sl->source);
    g_autofree char *lal = wb_test_cg_vector_loop (al->source);
    g_autofree char *lrs = wb_test_cg_vector_loop (rs->source);
    g_assert_cmpuint (wb_test_cg_count (ltr, "*(const wb_v8h *)"), ==, 0);
    g_assert_cmpuint (wb_test_cg_count (ltr, "wb_bf16_to_f (p0["), ==, 8);
    g_assert_cmpuint (wb_test_cg_count (lsl, "*(const wb_v8h *)"), ==, 0);
    g_assert_cmpuint (wb_test_cg_count (lsl, "wb_bf16_to_f (p0["), ==, 8);
    g_assert_cmpuint (wb_test_cg_count (lal, "*(const wb_v8h *)"), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (lrs, "*(const wb_v8h *) (p0 + B)"), ==, 1);
    wb_test_cg_compile ("transpose", tr);
    wb_test_cg_compile ("slice", sl);
    wb_test_cg_compile ("aligned slice", al);
    wb_test_cg_compile ("reshape", rs);
  }
  {
    /* rotate_half (RoPE): cat of two halves whose bounds are multiples of 8: one branch for all lanes,
     * each half one vector load */
    g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body ("x bf16[2, 4, 32]\nc bf16[4, 32]",
                                                        "t0 = prims.slice_prim(x, [0, 0, 0], [2, 4, 16], [1, 1, 1])\n"
                                                        "t1 = prims.slice_prim(x, [0, 0, 16], [2, 4, 32], [1, 1, 1])\n"
                                                        "t2 = prims.neg(t1)\nt3 = prims.cat([t2, t0], -1)\n"
                                                        "t4 = prims.broadcast_in_dim(c, (2, 4, 32), (1, 2))\n"
                                                        "t5 = prims.convert_element_type(t3, dtypes.float32)\n"
                                                        "t6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.mul(t5, t6)\n"
                                                        "t8 = prims.convert_element_type(x, dtypes.float32)\nt9 = prims.add(t7, t8)",
                                                        "t9");
    g_autofree char *loop = wb_test_cg_vector_loop (p->source);
    g_assert_cmpuint (wb_test_cg_count (loop, "if ("), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (loop, "*(const wb_v8h *) (p0 + "), ==, 3);
    g_assert_cmpuint (wb_test_cg_count (loop, "*(const wb_v8h *) (p1 + "), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (loop, "p0["), ==, 0);
    wb_test_cg_compile ("rope", p);
  }
  {
    /* a row sum of bf16: 8 elements per thread and step, one warp for rows of 1000 (4 steps of 32 x 8: shuffles,
     * no barrier), one vector load per step; the misaligned fallback takes the same elements in the same
     * order. Rows of 4096 (16 warp steps) keep 256 threads. */
    g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body ("a bf16[5, 1000]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (1,))", "t1");
    g_autoptr (WbCudaPlan) wide = wb_test_cg_plan_of_body ("a bf16[3, 4096]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (1,))", "t1");
    g_autofree char *loop = NULL;
    const char      *vec = strstr (p->source, "for (int r0 = (int) lane * 8; r0 < 1000; r0 += 256)");
    g_assert_nonnull (strstr (p->kernels[0].what, "32 threads each; vector: 8 per thread"));
    g_assert_null (strstr (p->source, "__syncthreads"));
    g_assert_nonnull (strstr (wide->kernels[0].what, "256 threads each; vector: 8 per thread"));
    g_assert_nonnull (vec);
    g_assert_nonnull (strstr (vec + 1, "for (int r0 = (int) lane * 8; r0 < 1000; r0 += 256)"));
    loop = g_strndup (vec, strstr (vec + 1, "for (int r0") - vec);
    g_assert_cmpuint (wb_test_cg_count (loop, "*(const wb_v8h *) (p0 + "), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (loop, "acc = acc + v"), ==, 8); /* one per lane; then the group's shuffles */
    g_assert_cmpuint (wb_test_cg_count (loop, "acc = acc + __shfl_xor_sync (0xffffffffu, acc, m)"), ==, 1);
    wb_test_cg_compile ("row sum", p);
  }
  {
    /* outputs that are views of another output (its reshape, its transpose) are views of its buffer */
    g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body ("a bf16[4, 6, 16]", "t0 = prims.neg(a)\nt1 = prims.reshape(t0, (24, 16))\nt2 = prims.transpose(t1, (1, 0))",
                                                        "t0, t1, t2");
    g_assert_cmpuint (p->n_kernels, ==, 1);
    g_assert_cmpuint (p->n_outputs, ==, 3);
    g_assert_cmpuint (p->outputs[1].slot, ==, p->outputs[0].slot);
    g_assert_cmpuint (p->outputs[2].slot, ==, p->outputs[0].slot);
    g_assert_cmpint (p->outputs[1].strides[0], ==, 16);
    g_assert_cmpint (p->outputs[2].strides[0], ==, 1);
    g_assert_cmpint (p->outputs[2].strides[1], ==, 16);
  }
  {
    /* an embedding lookup: the index once per thread, the row as vectors */
    g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body ("w bf16[50, 32]\ni i64[24]", "t0 = prims.take(w, i, 0)", "t0");
    g_autofree char *loop = wb_test_cg_vector_loop (p->source);
    g_assert_cmpuint (wb_test_cg_count (loop, "p1["), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (loop, "wb_index_bad ("), ==, 1);
    g_assert_cmpuint (wb_test_cg_count (loop, "*(const wb_v8h *) (p0 + "), ==, 1);
    wb_test_cg_compile ("take", p);
  }
}

#define GELU_BODY                                                                                                    \
  "t1 = prims.convert_element_type(a, dtypes.float32)\nt4 = prims.mul(t1, 0.7071067811865476)\nt5 = prims.erf(t4)\n" \
  "t6 = prims.add(1.0, t5)\nt7 = prims.mul(t1, t6)\nt8 = prims.mul(0.5, t7)"

/* gpt2_block's exact GELU (bf16[8, 1024, 3072], one input, erf): a lookup table (wb-cuda-codegen-table.c), its
 * builder run once per plan and the lookup kernel of one 1024-thread block per SM with the table in 128 KiB of
 * dynamic shared memory. Groups of a cheap op, of two inputs, of an f32 output or of few elements are computed. */
static void
test_table_chosen (void)
{
  g_autoptr (GPtrArray) found = NULL;
  WbTestCgFound *f = NULL;
  g_autoptr (WbCudaPlan) plan = wb_test_cg_gpt2_block_plan (2, "lookup table", &found, &f);
  const char *lookup;

  if (plan == NULL)
    return;
  g_assert_true (plan->kernels[0].once);
  g_assert_cmpuint (plan->kernels[0].grid, ==, 256);
  g_assert_false (plan->kernels[1].once);
  g_assert_cmpuint (plan->kernels[1].block, ==, 1024);
  g_assert_cmpuint (plan->kernels[1].smem_bytes, ==, 131072);
  g_assert_cmpuint (plan->kernels[1].grid, ==, 132);
  g_assert_nonnull (strstr (plan->kernels[1].what, "pointwise over 25165824 elements by lookup"));
  g_assert_cmpuint (plan->n_buffers, ==, 2);
  g_assert_true (plan->buffers[0].table);
  g_assert_cmpint (plan->buffers[0].numel, ==, 65536);
  g_assert_false (plan->buffers[1].table);
  g_assert_cmpint (plan->buffers[1].numel, ==, 25165824);
  g_assert_cmpuint (plan->n_outputs, ==, 1);
  g_assert_cmpuint (plan->outputs[0].slot, ==, plan->n_inputs + 1);
  /* the builder evaluates the expression at the bit pattern L; the lookup kernel has no erf */
  lookup = strstr (plan->source, "__launch_bounds__ (1024, 1)");
  g_assert_nonnull (lookup);
  g_assert_nonnull (strstr (plan->source, "wb_bf16_to_f ((unsigned short) (L))"));
  g_assert_nonnull (g_strstr_len (plan->source, lookup - plan->source, "erff ("));
  g_assert_null (strstr (lookup, "erff ("));
  g_assert_nonnull (strstr (lookup, "extern __shared__ wb_u4 wb_table4[];"));
  g_assert_cmpuint (wb_test_cg_count (lookup, "wb_table[ca."), ==, 8);
  g_assert_cmpuint (wb_test_cg_count (lookup, "wb_table[cb."), ==, 8);
  g_assert_cmpuint (wb_test_cg_count (lookup, "ld.global.cs.v4.u32"), ==, 4); /* the elements are streamed */
  g_assert_cmpuint (wb_test_cg_count (lookup, "st.global.cs.v4.u32"), ==, 2);
  wb_test_cg_compile (f->name, plan);
  {
    g_autoptr (WbCudaPlan) big = wb_test_cg_plan_of_body ("a bf16[2048, 2048]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9");
    g_autoptr (WbCudaPlan) small = wb_test_cg_plan_of_body ("a bf16[2048, 2047]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9");
    g_autoptr (WbCudaPlan) wide = wb_test_cg_plan_of_body ("a bf16[2048, 2048]", GELU_BODY, "t8");
    g_autoptr (WbCudaPlan) two = wb_test_cg_plan_of_body ("a bf16[2048, 2048]\nb bf16[2048, 2048]",
                                                          GELU_BODY "\nt10 = prims.convert_element_type(b, dtypes.float32)\nt11 = prims.mul(t8, t10)\n"
                                                                    "t9 = prims.convert_element_type(t11, dtypes.bfloat16)",
                                                          "t9");
    g_autoptr (WbCudaPlan) cheap = wb_test_cg_plan_of_body ("a bf16[2048, 2048]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, 3.0)\nt2 = prims.add(t1, t0)\n"
                                                                                  "t3 = prims.convert_element_type(t2, dtypes.bfloat16)",
                                                            "t3");
    g_assert_cmpuint (big->n_kernels, ==, 2); /* 2^22 elements */
    g_assert_true (big->kernels[0].once);
    g_assert_cmpuint (small->n_kernels, ==, 1);
    g_assert_cmpuint (wide->n_kernels, ==, 1); /* an f32 output */
    g_assert_cmpuint (two->n_kernels, ==, 1);
    g_assert_cmpuint (cheap->n_kernels, ==, 1);
    g_setenv ("WB_CUDA_TABLE", "always", TRUE);
    {
      g_autoptr (WbCudaPlan) forced = wb_test_cg_plan_of_body ("a bf16[2048, 2048]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, 3.0)\n"
                                                                                     "t3 = prims.convert_element_type(t1, dtypes.bfloat16)",
                                                               "t3");
      g_assert_cmpuint (forced->n_kernels, ==, 2);
    }
    g_unsetenv ("WB_CUDA_TABLE");
    g_setenv ("WB_CUDA_NO_TABLE", "1", TRUE);
    {
      g_autoptr (WbCudaPlan) off = wb_test_cg_plan_of_body ("a bf16[2048, 2048]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9");
      g_assert_cmpuint (off->n_kernels, ==, 1);
    }
    g_unsetenv ("WB_CUDA_NO_TABLE");
  }
  {
    /* for a device that gives a block less than the table's 128 KiB (WB_CUDA_CODEGEN_NO_TABLE): the computed kernel,
     * no dynamic shared memory, even where WB_CUDA_TABLE=always would force a table */
    g_autoptr (WbCudaPlan) small_smem = NULL;
    g_setenv ("WB_CUDA_TABLE", "always", TRUE);
    small_smem = wb_test_cg_plan_of_body_flags ("a bf16[2048, 2048]", GELU_BODY "\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)", "t9",
                                                WB_CUDA_CODEGEN_NO_TABLE);
    g_unsetenv ("WB_CUDA_TABLE");
    g_assert_cmpuint (small_smem->n_kernels, ==, 1);
    g_assert_cmpuint (small_smem->kernels[0].smem_bytes, ==, 0);
    g_assert_null (strstr (small_smem->source, "wb_table"));
    wb_test_cg_compile ("GELU without a table", small_smem);
  }
}

/* llama_layer's SiLU forward and backward (bf16[2048, 11008], two inputs): the sigmoid s = 1 / (1 + exp (-x)),
 * every op rounded to bf16, is a value of the gate x alone. It is looked up in a table of its 65536 values (a
 * builder run once per plan) inside the pointwise kernel, which runs one 1024-thread block per SM with the table
 * in 128 KiB of shared memory and computes the rest; the builder holds the exp and the division, the pointwise
 * kernel neither. One region of gpt2_block has one: the GELU backward, which recomputes the forward's
 * 0.5 * (1 + erf (x / sqrt (2))) of the bf16 [8, 1024, 3072] input (wb-pass-remat.c's backward rule) and writes
 * two outputs: the erf is in the builder, not in the pointwise kernel (measured on an H200: 0.0579 -> 0.0558 ms).
 * Its GELU forward has none (it moves 12 bytes an element for one erf: the halved occupancy costs more than the
 * erf, measured); WB_CUDA_NO_PARTIAL_TABLE=1 computes s (and the erf) again. */
static void
test_partial_table (void)
{
  g_autoptr (GPtrArray) llama = wb_test_cg_regions_of ("llama_layer");
  g_autoptr (GPtrArray) gpt2 = wb_test_cg_regions_of ("gpt2_block");
  guint with = 0, gpt2_with = 0;

  if (llama->len == 0 || gpt2->len == 0 || wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("needs llama_layer and gpt2_block (WB_TRACES_DIR) and NVRTC");
      return;
    }
  for (guint i = 0; i < llama->len; i++)
    {
      WbTestCgFound *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of (f);
      g_autoptr (WbCudaPlan) off = NULL;
      const char *main_kernel;
      guint       tables = 0;

      if (plan->n_kernels != 2 || strstr (plan->kernels[1].what, "looks up a value of in") == NULL)
        continue;
      g_test_message ("%s: %s", f->name, plan->kernels[1].what);
      with++;
      g_assert_nonnull (strstr (plan->kernels[1].what, "pointwise over [")); /* of [1, 2048, 11008] or [2048, 11008] */
      g_assert_nonnull (strstr (plan->kernels[1].what, "2048, 11008]"));
      g_assert_true (plan->kernels[0].once);
      g_assert_cmpuint (plan->kernels[0].grid, ==, 256);
      g_assert_false (plan->kernels[1].once);
      g_assert_cmpuint (plan->kernels[1].block, ==, 1024);
      g_assert_cmpuint (plan->kernels[1].smem_bytes, ==, 131072);
      g_assert_cmpuint (plan->kernels[1].grid, ==, 132);
      for (guint b = 0; b < plan->n_buffers; b++)
        if (plan->buffers[b].table)
          {
            g_assert_cmpint (plan->buffers[b].numel, ==, 65536);
            tables++;
          }
      g_assert_cmpuint (tables, ==, 1);
      main_kernel = strstr (plan->source, "__launch_bounds__ (1024, 1)");
      g_assert_nonnull (main_kernel);
      g_assert_nonnull (g_strstr_len (plan->source, main_kernel - plan->source, "expf ("));
      g_assert_nonnull (g_strstr_len (plan->source, main_kernel - plan->source, " / v")); /* 1 / (1 + exp (-x)) */
      g_assert_null (strstr (main_kernel, "expf ("));
      g_assert_null (strstr (main_kernel, " / v"));
      /* one lookup an element: 8 in the vector loop, 1 in the scalar one */
      g_assert_cmpuint (wb_test_cg_count (main_kernel, "wb_table[(__float_as_uint ("), ==, 9);
      g_assert_nonnull (strstr (main_kernel, "__syncthreads ();"));
      wb_test_cg_compile (f->name, plan);
      off = wb_test_cg_plan_with (f, "WB_CUDA_NO_PARTIAL_TABLE");
      g_assert_cmpuint (off->n_kernels, ==, 1);
      g_assert_nonnull (strstr (off->source, "expf ("));
      {
        /* WB_CUDA_CODEGEN_NO_TABLE (a device with less shared memory a block) computes it too */
        g_autoptr (GError) error = NULL;
        g_autoptr (WbCudaPlan) small_smem = wb_cuda_plan_new_annotated (f->trace, f->region, WB_CUDA_CODEGEN_NO_TABLE, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (small_smem->n_kernels, ==, 1);
        g_assert_cmpuint (small_smem->kernels[0].smem_bytes, ==, 0);
        g_assert_cmpstr (small_smem->source, ==, off->source);
      }
      g_assert_null (strstr (off->source, "wb_table"));
    }
  g_assert_cmpuint (with, ==, 2);
  for (guint i = 0; i < gpt2->len; i++)
    {
      WbTestCgFound *f = gpt2->pdata[i];
      g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of (f);
      g_autoptr (WbCudaPlan) off = NULL;
      const char *main_kernel;

      guint lookups = 0;

      for (guint k = 0; k < plan->n_kernels; k++)
        if (strstr (plan->kernels[k].what, "looks up a value") != NULL)
          {
            g_assert_cmpuint (plan->n_kernels, ==, 2); /* the builder, then the kernel that looks up */
            g_assert_cmpuint (k, ==, 1);
            lookups++;
          }
      if (lookups == 0)
        continue;
      g_test_message ("%s: %s", f->name, plan->kernels[1].what);
      gpt2_with++;
      g_assert_true (g_str_has_prefix (plan->kernels[1].what, "pointwise over [8, 1024, 3072]: 2 outputs"));
      g_assert_cmpuint (plan->kernels[1].smem_bytes, ==, 131072);
      main_kernel = strstr (plan->source, "__launch_bounds__ (1024, 1)");
      g_assert_nonnull (main_kernel);
      g_assert_nonnull (g_strstr_len (plan->source, main_kernel - plan->source, "erff ("));
      g_assert_null (strstr (main_kernel, "erff ("));
      wb_test_cg_compile (f->name, plan);
      off = wb_test_cg_plan_with (f, "WB_CUDA_NO_PARTIAL_TABLE");
      g_assert_cmpuint (off->n_kernels, ==, 1);
      g_assert_nonnull (strstr (off->source, "erff ("));
    }
  g_assert_cmpuint (gpt2_with, ==, 1);
}

/* The first rounded op of a vector loop: a rounding in f32 or an op on bf16x2 words */
static const char *
first_arithmetic (const char *loop)
{
  const char *f = strstr (loop, "wb_round_bf16 ("), *w = strstr (loop, "wb_bf16x2_mul (");

  g_assert_true (f != NULL || w != NULL);
  return f == NULL ? w : w == NULL ? f
                                   : MIN (f, w);
}

/* Cat pieces the same up to their inputs are one branch in the vector loop, their inputs read through a pointer
 * chosen per thread (wb-cuda-codegen-select.c): llama_layer's rotary backward (q and k the same expression of
 * two gradients, v a copy); a piece that reads an input also read by a value both pieces share is not taken
 * over. */
static void
test_cat_select (void)
{
  g_autoptr (GPtrArray) llama = wb_test_cg_regions_of ("llama_layer");
  guint rotary = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    /* t2 = -a is read by both pieces: a may not be read through a select */
    g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body ("a bf16[4, 1, 16]\nb bf16[4, 1, 16]",
                                                        "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                                                        "t2 = prims.neg(t0)\nt3 = prims.add(t0, t2)\nt4 = prims.add(t1, t2)\nt5 = prims.cat([t3, t4], 1)",
                                                        "t5");
    g_autoptr (WbCudaPlan) alike = wb_test_cg_plan_of_body ("a bf16[4, 1, 16]\nb bf16[4, 1, 16]",
                                                            "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                                                            "t2 = prims.neg(t0)\nt3 = prims.add(t0, t2)\nt4 = prims.neg(t1)\nt6 = prims.add(t1, t4)\nt5 = prims.cat([t3, t6], 1)",
                                                            "t5");
    g_autofree char *loop = wb_test_cg_vector_loop (p->source);
    g_autofree char *alike_loop = wb_test_cg_vector_loop (alike->source);
    g_assert_null (strstr (loop, "__restrict__ s"));
    g_assert_cmpuint (wb_test_cg_count (loop, "if ("), ==, 1);
    g_assert_nonnull (strstr (alike_loop, " == 0 ? p0 : p1;"));
    g_assert_cmpuint (wb_test_cg_count (alike_loop, "if ("), ==, 0);
    wb_test_cg_compile ("shared", p);
    wb_test_cg_compile ("alike", alike);
  }
  for (guint i = 0; i < llama->len; i++)
    {
      WbTestCgFound *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_of (f);
      g_autoptr (WbCudaPlan) old = NULL;
      g_autofree char *loop = NULL, *old_loop = NULL;
      if (plan->n_kernels != 1 || !g_str_has_prefix (plan->kernels[0].what, "pointwise over [2048, 12288]"))
        continue;
      loop = wb_test_cg_vector_loop (plan->source);
      if (wb_test_cg_count (loop, "__restrict__ s") == 0)
        continue;
      g_test_message ("%s: %s", f->name, plan->kernels[0].what);
      rotary++;
      /* q and k one branch with its two pads, v the other: the pads of k no longer emitted */
      g_assert_cmpuint (wb_test_cg_count (loop, "__restrict__ s"), ==, 1);
      g_assert_cmpuint (wb_test_cg_count (loop, "if ("), ==, 1 + 2);
      /* the pads meet at column 64 of each piece of 128: warps of 4 rows x 8 vectors of 8, each inside one pad */
      g_assert_nonnull (strstr (plan->kernels[0].what, ", warps of 4 rows x 8 vectors"));
      g_assert_nonnull (strstr (loop, "for (int Q = (int) blockIdx.x * 256 + (int) threadIdx.x; Q < 3145728; Q += (int) gridDim.x * 256)"));
      g_assert_nonnull (strstr (loop, "const int B = ((Q / 6144) * 6144 + ((Q % 32) / 8) * 1536 + ((Q / 32) % 192) * 8 + (Q % 8)) * 8;"));
      {
        g_autoptr (WbCudaPlan) flat = wb_test_cg_plan_with (f, "WB_CUDA_NO_WARP_ROWS");
        g_assert_null (strstr (flat->source, "for (int Q = "));
        g_assert_nonnull (strstr (flat->source, "for (int B = ((int) blockIdx.x * 256 + (int) threadIdx.x) * 8; B < 25165824; B += (int) gridDim.x * 2048)"));
      }
      /* the pads' vector loads, their indices clamped into the source, issued at the top of the q/k branch with the
       * branch's own loads, before the arithmetic that waits for those (4 of its 6 loads, in 2 uniform pad branches) */
      {
        g_autoptr (WbCudaPlan) late = wb_test_cg_plan_with (f, "WB_CUDA_NO_HOIST");
        g_autofree char *late_loop = wb_test_cg_vector_loop (late->source);
        g_autofree char *head = g_strndup (loop, first_arithmetic (loop) - loop);
        g_autofree char *late_head = g_strndup (late_loop, first_arithmetic (late_loop) - late_loop);
        g_assert_cmpuint (wb_test_cg_count (head, "= *(const wb_v8h *) ("), ==, 6);
        g_assert_cmpuint (wb_test_cg_count (head, " = min (max ("), ==, 2);
        g_assert_cmpuint (wb_test_cg_count (late_head, "= *(const wb_v8h *) ("), ==, 2);
        g_assert_null (strstr (late_loop, " = min (max ("));
        g_assert_cmpuint (wb_test_cg_count (loop, "= *(const wb_v8h *) ("), ==, wb_test_cg_count (late_loop, "= *(const wb_v8h *) ("));
      }
      old = wb_test_cg_plan_with (f, "WB_CUDA_NO_CAT_SELECT");
      old_loop = wb_test_cg_vector_loop (old->source);
      g_assert_null (strstr (old_loop, "__restrict__ s"));
      g_assert_cmpuint (wb_test_cg_count (old_loop, "if ("), ==, 2 + 4);
      wb_test_cg_compile (f->name, plan);
    }
  if (llama->len == 0)
    g_test_message ("llama_layer not found (WB_TRACES_DIR): its rotary backward not checked");
  else
    g_assert_cmpuint (rotary, ==, 1);
}

/* A negation (or absolute value) in f32 of a value converted from bf16, converted back to bf16, is a bf16 value:
 * no rounding after it (wb-cuda-codegen-emit.c, exactly_in). Of an f16 or f32 value it must round. llama_layer's
 * rotary backward negates so between its conversions: no negation of its kernel is rounded. */
static void
test_exact_neg (void)
{
  g_autoptr (GPtrArray) llama = wb_test_cg_regions_of ("llama_layer");
  guint rotary = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  {
    g_autoptr (WbCudaPlan) bf = wb_test_cg_plan_of_body ("a bf16[64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.neg(t0)\nt2 = prims.abs(t1)\nt3 = prims.convert_element_type(t2, dtypes.bfloat16)", "t3");
    g_autoptr (WbCudaPlan) half = wb_test_cg_plan_of_body ("a f16[64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.neg(t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2");
    g_autoptr (WbCudaPlan) f32 = wb_test_cg_plan_of_body ("a f32[64]", "t1 = prims.neg(a)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2");
    g_autoptr (WbCudaPlan) mul = wb_test_cg_plan_of_body ("a bf16[64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2");
    g_assert_null (strstr (wb_test_cg_kernel_text (bf), "wb_round_bf16"));
    g_assert_nonnull (strstr (wb_test_cg_kernel_text (half), "wb_round_bf16"));
    g_assert_nonnull (strstr (wb_test_cg_kernel_text (f32), "wb_round_bf16"));
    g_assert_nonnull (strstr (wb_test_cg_kernel_text (mul), "wb_round_bf16"));
    wb_test_cg_compile ("bf16 neg abs", bf);
    wb_test_cg_compile ("f16 neg", half);
  }
  for (guint i = 0; i < llama->len; i++)
    {
      WbTestCgFound *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) plan = wb_test_cg_plan_with (f, "WB_CUDA_NO_BF16X2"); /* its vector loop in f32 (else bf16x2 words) */
      const char *k = wb_test_cg_kernel_text (plan);
      guint       negs = 0;
      if (plan->n_kernels != 1 || !g_str_has_prefix (plan->kernels[0].what, "pointwise over [2048, 12288]") || wb_test_cg_count (k, "__restrict__ s") == 0)
        continue;
      rotary++;
      for (const char *p = strstr (k, " = (-v"); p != NULL; p = strstr (p + 1, " = (-v"))
        {
          const char      *name = p;
          g_autofree char *use = NULL;
          while (name > k && name[-1] != ' ')
            name--;
          use = g_strdup_printf ("wb_round_bf16 (%.*s)", (int) (p - name), name);
          g_assert_null (strstr (k, use));
          negs++;
        }
      g_test_message ("%s: %u negations, none rounded", f->name, negs);
      g_assert_cmpuint (negs, >=, 8); /* one a lane of the vector loop's pad at column 64 */
    }
  if (llama->len > 0)
    g_assert_cmpuint (rotary, ==, 1);
}

/* bf16 ops two lanes to a word in the vector loop (wb-cuda-codegen-pair.c): add, sub and mul of bf16 values
 * rounded to bf16 (by a number exactly a bf16 too), negations as a sign flip, through pads and cat; the scalar
 * loop stays in f32. Not for f16, a number that is no bf16, a division, or an f32 result. llama_layer's rotary
 * backward: every op of its vector loop in words, its scalar loop as in f32. (Their results bit for bit:
 * test-cuda-vector on the GPU, every bf16 bit pattern.) */
static void
test_bf16x2 (void)
{
  const char *in = "a bf16[4, 64]\nb bf16[4, 64]";
  const char *body = "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\nt2 = prims.mul(t0, t1)\n"
                     "t3 = prims.convert_element_type(t2, dtypes.bfloat16)\nt4 = prims.convert_element_type(t3, dtypes.float32)\nt5 = prims.sub(t4, t0)\n"
                     "t6 = prims.convert_element_type(t5, dtypes.bfloat16)\nt7 = prims.convert_element_type(t6, dtypes.float32)\nt8 = prims.mul(t7, 0.5)\n"
                     "t9 = prims.convert_element_type(t8, dtypes.bfloat16)\nt10 = prims.convert_element_type(t9, dtypes.float32)\nt11 = prims.neg(t10)\n"
                     "t12 = prims.convert_element_type(t11, dtypes.bfloat16)";
  const char *no[][3] = {
    { "a bf16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, 0.1)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2" },
    { "a f16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.convert_element_type(t1, dtypes.float16)", "t2" },
    { "a bf16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.div(t0, t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)", "t2" },
    { "a bf16[4, 64]", "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)", "t1" },
  };
  g_autoptr (GPtrArray) llama = wb_test_cg_regions_of ("llama_layer");
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (WbCudaPlan) f32 = NULL;
  g_autofree char *loop = NULL;
  guint            rotary = 0;

  if (wb_cuda_load_nvrtc (NULL) == NULL)
    {
      g_test_skip ("NVRTC is not installed");
      return;
    }
  plan = wb_test_cg_plan_of_body (in, body, "t12");
  g_setenv ("WB_CUDA_NO_BF16X2", "1", TRUE);
  f32 = wb_test_cg_plan_of_body (in, body, "t12");
  g_unsetenv ("WB_CUDA_NO_BF16X2");
  loop = wb_test_cg_vector_loop (plan->source);
  g_assert_cmpuint (wb_test_cg_count (loop, "wb_bf16x2_mul ("), ==, 2 * 4);
  g_assert_cmpuint (wb_test_cg_count (loop, "wb_bf16x2_sub ("), ==, 4);
  g_assert_cmpuint (wb_test_cg_count (loop, ", 0x3f003f00u)"), ==, 4); /* 0.5 */
  g_assert_cmpuint (wb_test_cg_count (loop, " ^ 0x80008000u;"), ==, 4);
  g_assert_cmpuint (wb_test_cg_count (loop, "wb_bf16x2_store ("), ==, 4);
  g_assert_null (strstr (loop, "wb_round_bf16 ("));
  g_assert_nonnull (strstr (strstr (plan->source, "for (int L = "), "wb_round_bf16 ("));
  g_assert_null (strstr (wb_test_cg_kernel_text (f32), "wb_bf16x2_"));
  g_assert_cmpstr (strstr (plan->source, "for (int L = "), ==, strstr (f32->source, "for (int L = "));
  wb_test_cg_compile ("bf16x2", plan);
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    {
      g_autoptr (WbCudaPlan) p = wb_test_cg_plan_of_body (no[i][0], no[i][1], no[i][2]);
      g_assert_nonnull (strstr (p->source, "for (int B = "));
      g_assert_null (strstr (wb_test_cg_kernel_text (p), "wb_bf16x2_"));
    }
  for (guint i = 0; i < llama->len; i++)
    {
      WbTestCgFound *f = llama->pdata[i];
      g_autoptr (WbCudaPlan) words = wb_test_cg_plan_of (f);
      g_autoptr (WbCudaPlan) floats = NULL;
      g_autofree char *wloop = NULL;
      if (words->n_kernels != 1 || !g_str_has_prefix (words->kernels[0].what, "pointwise over [2048, 12288]") ||
          wb_test_cg_count (wb_test_cg_kernel_text (words), "__restrict__ s") == 0)
        continue;
      rotary++;
      floats = wb_test_cg_plan_with (f, "WB_CUDA_NO_BF16X2");
      wloop = wb_test_cg_vector_loop (words->source);
      g_test_message ("%s: %u muls, %u adds in words", f->name, wb_test_cg_count (wloop, "wb_bf16x2_mul ("), wb_test_cg_count (wloop, "wb_bf16x2_add ("));
      /* per pair of lanes: the gradient times cos, the two pads' products, two sums; one pad negates */
      g_assert_cmpuint (wb_test_cg_count (wloop, "wb_bf16x2_mul ("), ==, 3 * 4);
      g_assert_cmpuint (wb_test_cg_count (wloop, "wb_bf16x2_add ("), ==, 2 * 4);
      g_assert_cmpuint (wb_test_cg_count (wloop, " ^ 0x80008000u;"), ==, 4);
      g_assert_cmpuint (wb_test_cg_count (wloop, "wb_bf16x2_store ("), ==, 4);
      g_assert_null (strstr (wloop, "wb_round_bf16 ("));
      g_assert_cmpstr (strstr (words->source, "for (int L = "), ==, strstr (floats->source, "for (int L = "));
      wb_test_cg_compile (f->name, words);
    }
  if (llama->len > 0)
    g_assert_cmpuint (rotary, ==, 1);
}

int
main (int argc, char **argv)
{
  wb_test_cg_init (&argc, &argv);
  g_test_add_func ("/cuda/codegen/vector/chosen", test_vector_chosen);
  g_test_add_func ("/cuda/codegen/vector/forms", test_vector_forms);
  g_test_add_func ("/cuda/codegen/table", test_table_chosen);
  g_test_add_func ("/cuda/codegen/partial-table", test_partial_table);
  g_test_add_func ("/cuda/codegen/exact-neg", test_exact_neg);
  g_test_add_func ("/cuda/codegen/bf16x2", test_bf16x2);
  g_test_add_func ("/cuda/codegen/vector/cat-select", test_cat_select);
  return wb_test_cg_run ();
}
