/* test-cuda-conformance.c — every (executor, symbol, dtype) the CUDA executors implement against the cpu
 * executor on random inputs (suite gpu): elementwise ops, conversions, chains, reductions, shapes and
 * indexing, matmul and linear, and the hand-written kernels of the cuda executor; the attention ops are in
 * test-cuda-conformance-attention.c, the runner in wb-test-conformance.c
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-test-conformance.h"

/* -- the cases ------------------------------------------------------------------------------------ */

static void kernel_cases (void);

static void
unary (const char *op, WbConfDomain dom, gboolean floats, gboolean ints)
{
  for (guint k = 0; floats && k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbConfInput      in = wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 37, 41, 1, dom);
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      wb_conf_add_case ("cuda", sym, wb_conf_float_dtypes[k], &in, 1, body, "t0");
    }
  for (guint k = 0; ints && k < G_N_ELEMENTS (wb_conf_int_dtypes); k++)
    {
      WbConfInput      in = wb_conf_input ("a", wb_conf_int_dtypes[k], 2, 37, 41, 1, WB_CONF_DOM_INT);
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      wb_conf_add_case ("cuda", sym, wb_conf_int_dtypes[k], &in, 1, body, "t0");
    }
}

static void
binary (const char *op, WbConfDomain da, WbConfDomain db, gboolean floats, gboolean ints)
{
  for (guint k = 0; floats && k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbConfInput      in[2] = { wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 37, 41, 1, da), wb_conf_input ("b", wb_conf_float_dtypes[k], 2, 37, 41, 1, db) };
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a, b)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      wb_conf_add_case ("cuda", sym, wb_conf_float_dtypes[k], in, 2, body, "t0");
    }
  for (guint k = 0; ints && k < G_N_ELEMENTS (wb_conf_int_dtypes); k++)
    {
      WbConfInput      in[2] = { wb_conf_input ("a", wb_conf_int_dtypes[k], 2, 37, 41, 1, WB_CONF_DOM_INT),
                                 wb_conf_input ("b", wb_conf_int_dtypes[k], 2, 37, 41, 1, db == WB_CONF_DOM_SHIFT ? WB_CONF_DOM_SHIFT : WB_CONF_DOM_INT) };
      g_autofree char *body = g_strdup_printf ("t0 = prims.%s(a, b)", op);
      g_autofree char *sym = g_strdup_printf ("prims.%s", op);
      wb_conf_add_case ("cuda", sym, wb_conf_int_dtypes[k], in, 2, body, "t0");
    }
}

static void
build_cases (void)
{
  static const char   *conv_names[] = { "float64", "float32", "bfloat16", "float16", "int64", "int32", "int8", "uint8", "bool8" };
  static const WbDtype conv_dtypes[] = { WB_DTYPE_FLOAT64, WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_INT64,
                                         WB_DTYPE_INT32, WB_DTYPE_INT8, WB_DTYPE_UINT8, WB_DTYPE_BOOL8 };

  /* elementwise */
  unary ("abs", WB_CONF_DOM_ANY, TRUE, TRUE);
  unary ("neg", WB_CONF_DOM_ANY, TRUE, TRUE);
  unary ("exp", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("log", WB_CONF_DOM_POS, TRUE, FALSE);
  unary ("sqrt", WB_CONF_DOM_POS, TRUE, FALSE);
  unary ("rsqrt", WB_CONF_DOM_POS, TRUE, FALSE);
  unary ("tanh", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("sin", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("cos", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("erf", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("reciprocal", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("floor", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("round", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("sign", WB_CONF_DOM_ANY, TRUE, TRUE);
  unary ("log1p", WB_CONF_DOM_POS, TRUE, FALSE);
  unary ("expm1", WB_CONF_DOM_ANY, TRUE, FALSE);
  unary ("asin", WB_CONF_DOM_UNIT, TRUE, FALSE);
  unary ("bitwise_not", WB_CONF_DOM_INT, FALSE, TRUE);
  binary ("add", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("sub", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("mul", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("div", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("maximum", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("minimum", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, FALSE);
  binary ("pow", WB_CONF_DOM_POS, WB_CONF_DOM_ANY, TRUE, FALSE);
  binary ("atan2", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, FALSE);
  binary ("remainder", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("fmod", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("eq", WB_CONF_DOM_SHIFT, WB_CONF_DOM_SHIFT, TRUE, TRUE);
  binary ("lt", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, TRUE);
  binary ("ge", WB_CONF_DOM_ANY, WB_CONF_DOM_ANY, TRUE, FALSE);
  binary ("ne", WB_CONF_DOM_SHIFT, WB_CONF_DOM_SHIFT, TRUE, FALSE);
  binary ("bitwise_and", WB_CONF_DOM_INT, WB_CONF_DOM_INT, FALSE, TRUE);
  binary ("bitwise_xor", WB_CONF_DOM_INT, WB_CONF_DOM_INT, FALSE, TRUE);
  binary ("bitwise_left_shift", WB_CONF_DOM_INT, WB_CONF_DOM_SHIFT, FALSE, TRUE);
  binary ("bitwise_right_shift", WB_CONF_DOM_INT, WB_CONF_DOM_SHIFT, FALSE, TRUE);
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbConfInput in[3] = { wb_conf_input ("c", WB_DTYPE_BOOL8, 2, 37, 41, 1, WB_CONF_DOM_BOOL), wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 37, 41, 1, WB_CONF_DOM_ANY),
                            wb_conf_input ("b", wb_conf_float_dtypes[k], 2, 37, 41, 1, WB_CONF_DOM_ANY) };
      wb_conf_add_case ("cuda", "prims.where", wb_conf_float_dtypes[k], in, 3, "t0 = prims.where(c, a, b)", "t0");
      wb_conf_add_case ("cuda", "prims.mul(number)", wb_conf_float_dtypes[k], &in[1], 1, "t0 = prims.mul(a, 0.7978845608028654)\nt1 = prims.add(1.0, t0)", "t1");
    }
  /* conversions between every pair */
  for (guint i = 0; i < G_N_ELEMENTS (conv_dtypes); i++)
    for (guint j = 0; j < G_N_ELEMENTS (conv_dtypes); j++)
      {
        WbConfInput      in;
        g_autofree char *body = NULL;
        g_autofree char *sym = NULL;
        if (i == j)
          continue;
        in = wb_conf_input ("a", conv_dtypes[i], 2, 19, 23, 1,
                            conv_dtypes[i] == WB_DTYPE_BOOL8 ? WB_CONF_DOM_BOOL : conv_dtypes[i] == WB_DTYPE_UINT8 ? WB_CONF_DOM_SHIFT
                                                                              : wb_dtype_is_float (conv_dtypes[i]) ? WB_CONF_DOM_ANY
                                                                                                                   : WB_CONF_DOM_INT);
        if (wb_dtype_is_float (conv_dtypes[i]) && conv_dtypes[j] == WB_DTYPE_UINT8)
          in.dom = WB_CONF_DOM_POS;
        body = g_strdup_printf ("t0 = prims.convert_element_type(a, dtypes.%s)", conv_names[j]);
        sym = g_strdup_printf ("prims.convert_element_type(%s)", wb_dtype_shortname (conv_dtypes[j]));
        wb_conf_add_case ("cuda", sym, conv_dtypes[i], &in, 1, body, "t0");
      }
  /* broadcasts and chains (what regions look like) */
  for (guint k = 0; k < 3; k++)
    {
      WbConfInput in[2] = { wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 33, 65, 1, WB_CONF_DOM_ANY), wb_conf_input ("b", wb_conf_float_dtypes[k], 1, 65, 1, 1, WB_CONF_DOM_ANY) };
      wb_conf_add_case ("nvrtc", "chain broadcast_in_dim+gelu", wb_conf_float_dtypes[k], in, 2,
                        "t0 = prims.broadcast_in_dim(b, (33, 65), (1,))\nt1 = prims.convert_element_type(a, dtypes.float32)\n"
                        "t2 = prims.convert_element_type(t0, dtypes.float32)\nt3 = prims.add(t1, t2)\nt4 = prims.mul(t3, 0.7071067811865476)\n"
                        "t5 = prims.erf(t4)\nt6 = prims.add(1.0, t5)\nt7 = prims.mul(t3, t6)\nt8 = prims.mul(0.5, t7)",
                        "t8, t3");
      wb_conf_add_case ("cuda", "prims.broadcast_in_dim", wb_conf_float_dtypes[k], &in[1], 1, "t0 = prims.broadcast_in_dim(b, (7, 65), (1,))", "t0");
    }
  /* the exact GELU as Thunder prints it for bf16 / f16, every op's result rounded to the dtype: x / sqrt 2 between
   * two conversions is emitted as a multiply (wb-cuda-codegen-emit.c, narrow_div_is_mul) */
  for (guint k = 1; k < 3; k++)
    {
      WbConfInput      in = wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 64, 96, 1, WB_CONF_DOM_ANY);
      const char      *dn = wb_conf_float_dtypes[k] == WB_DTYPE_BFLOAT16 ? "bfloat16" : "float16";
      g_autofree char *body = g_strdup_printf ("t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.div(t0, 1.4142135623730951)\n"
                                               "t2 = prims.convert_element_type(t1, dtypes.%s)\nt3 = prims.convert_element_type(t2, dtypes.float32)\n"
                                               "t4 = prims.erf(t3)\nt5 = prims.convert_element_type(t4, dtypes.%s)\n"
                                               "t6 = prims.convert_element_type(t5, dtypes.float32)\nt7 = prims.add(1.0, t6)\n"
                                               "t8 = prims.mul(t0, t7)\nt9 = prims.convert_element_type(t8, dtypes.%s)\nt10 = prims.div(t0, 3.0)",
                                               dn, dn, dn);
      wb_conf_add_case ("nvrtc", "exact gelu, rounded per op", wb_conf_float_dtypes[k], &in, 1, body, "t9, t2, t10");
    }
  /* reductions */
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbDtype     d = wb_conf_float_dtypes[k];
      WbConfInput in1 = wb_conf_input ("a", d, 2, 37, 41, 1, WB_CONF_DOM_ANY);
      WbConfInput big = wb_conf_input ("a", d, 2, 3, 1000, 1, WB_CONF_DOM_ANY);
      WbConfInput col = wb_conf_input ("a", d, 2, 257, 40, 1, WB_CONF_DOM_ANY);
      WbConfInput thin = wb_conf_input ("a", d, 2, 100, 3, 1, WB_CONF_DOM_ANY);
      WbConfInput cube = wb_conf_input ("a", d, 3, 6, 7, 9, WB_CONF_DOM_ANY);
      WbConfInput smallv = wb_conf_input ("a", d, 2, 9, 12, 1, WB_CONF_DOM_SMALL);
      wb_conf_add_case ("cuda", "prims.sum(1)", d, &in1, 1, "t0 = prims.sum(a, (1,))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(0)", d, &in1, 1, "t0 = prims.sum(a, (0,))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(0,1)", d, &in1, 1, "t0 = prims.sum(a, (0, 1))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(1) 1000", d, &big, 1, "t0 = prims.sum(a, (1,))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(0) 257", d, &col, 1, "t0 = prims.sum(a, (0,))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(1) 3", d, &thin, 1, "t0 = prims.sum(a, (1,))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(0,2)", d, &cube, 1, "t0 = prims.sum(a, (0, 2))", "t0");
      wb_conf_add_case ("cuda", "prims.amax(1)", d, &col, 1, "t0 = prims.amax(a, (1,))", "t0");
      wb_conf_add_case ("cuda", "prims.amin(0)", d, &in1, 1, "t0 = prims.amin(a, (0,))", "t0");
      wb_conf_add_case ("cuda", "prims.prod(1)", d, &smallv, 1, "t0 = prims.prod(a, (1,))", "t0");
      wb_conf_add_case ("cuda", "prims.var_mean(1)", d, &big, 1, "(t0, t1) = prims.var_mean(a, (1,), correction=1)", "t0, t1");
      wb_conf_add_case ("cuda", "prims.var(0)", d, &in1, 1, "t0 = prims.var(a, (0,), correction=0)", "t0");
      {
        /* column reductions with few outputs and long columns take the two-kernel split path
         * (wb-cuda-codegen-reduce.c emit_column_reduction) */
        WbConfInput tall = wb_conf_input ("a", d, 2, 2048, 100, 1, WB_CONF_DOM_SMALL);
        WbConfInput tall3 = wb_conf_input ("a", d, 3, 4, 700, 37, WB_CONF_DOM_SMALL);
        wb_conf_add_case ("cuda", "prims.sum(0) 2048 split", d, &tall, 1, "t0 = prims.sum(a, (0,))", "t0");
        wb_conf_add_case ("cuda", "prims.amax(0) 2048 split", d, &tall, 1, "t0 = prims.amax(a, (0,))", "t0");
        wb_conf_add_case ("cuda", "prims.sum(0,1) 4x700 split", d, &tall3, 1, "t0 = prims.sum(a, (0, 1))", "t0");
      }
    }
  for (guint k = 0; k < 2; k++)
    {
      WbConfInput in1 = wb_conf_input ("a", wb_conf_int_dtypes[k], 2, 37, 41, 1, WB_CONF_DOM_INT);
      WbConfInput tall = wb_conf_input ("a", wb_conf_int_dtypes[k], 2, 3001, 70, 1, WB_CONF_DOM_INT);
      wb_conf_add_case ("cuda", "prims.sum(1)", wb_conf_int_dtypes[k], &in1, 1, "t0 = prims.sum(a, (1,))", "t0");
      wb_conf_add_case ("cuda", "prims.amax(0)", wb_conf_int_dtypes[k], &in1, 1, "t0 = prims.amax(a, (0,))", "t0");
      wb_conf_add_case ("cuda", "prims.sum(0) 3001 split", wb_conf_int_dtypes[k], &tall, 1, "t0 = prims.sum(a, (0,))", "t0");
      wb_conf_add_case ("cuda", "prims.amin(0) 3001 split", wb_conf_int_dtypes[k], &tall, 1, "t0 = prims.amin(a, (0,))", "t0");
    }
  /* softmax and layer norm as regions: reduction, broadcast, elementwise, a second reduction */
  for (guint k = 0; k < 3; k++)
    {
      WbConfInput in = wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 64, 768, 1, WB_CONF_DOM_ANY);
      wb_conf_add_case ("nvrtc", "softmax", wb_conf_float_dtypes[k], &in, 1,
                        "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.amax(t0, (1,))\n"
                        "t2 = prims.broadcast_in_dim(t1, (64, 768), (0,))\nt3 = prims.sub(t0, t2)\nt4 = prims.exp(t3)\n"
                        "t5 = prims.sum(t4, (1,))\nt6 = prims.broadcast_in_dim(t5, (64, 768), (0,))\nt7 = prims.div(t4, t6)",
                        "t7");
      wb_conf_add_case ("nvrtc", "layer_norm", wb_conf_float_dtypes[k], &in, 1,
                        "t0 = prims.convert_element_type(a, dtypes.float32)\n(t1, t2) = prims.var_mean(t0, (1,), correction=0)\n"
                        "t3 = prims.add(t1, 1e-05)\nt4 = prims.rsqrt(t3)\nt5 = prims.broadcast_in_dim(t2, (64, 768), (0,))\n"
                        "t6 = prims.sub(t0, t5)\nt7 = prims.broadcast_in_dim(t4, (64, 768), (0,))\nt8 = prims.mul(t6, t7)",
                        "t8, t2, t4");
    }
  /* a column sum and the pointwise values it sums in one kernel (wb-cuda-codegen-column.c, _wb_cg_column_pick):
   * an output of the operand's shape, one of a reshape of it ([2048, 96] of [4, 512, 96]), and one that reads
   * the sum, which must wait for it */
  for (guint k = 0; k < 3; k++)
    {
      WbConfInput g2 = wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 2048, 96, 1, WB_CONF_DOM_ANY);
      WbConfInput g3 = wb_conf_input ("a", wb_conf_float_dtypes[k], 3, 4, 512, 96, WB_CONF_DOM_ANY);
      wb_conf_add_case ("nvrtc", "column sum + its operand", wb_conf_float_dtypes[k], &g2, 1,
                        "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.sum(t1, (0,))", "t2, t1");
      wb_conf_add_case ("nvrtc", "column sum + a reshape", wb_conf_float_dtypes[k], &g3, 1,
                        "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.sum(t1, (0, 1))\n"
                        "t3 = prims.reshape(t1, (2048, 96))\nt4 = prims.neg(t3)",
                        "t2, t4");
      wb_conf_add_case ("nvrtc", "column sum + a reader of it", wb_conf_float_dtypes[k], &g2, 1,
                        "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.sum(t1, (0,))\n"
                        "t3 = prims.broadcast_in_dim(t2, (2048, 96), (1,))\nt4 = prims.sub(t1, t3)",
                        "t2, t4");
      /* values of the kept shape that read the sums at their own index (a weight gradient's conversion to its
       * dtype, a [1, 96] view of it): computed by the last block of each tile after its combine */
      wb_conf_add_case ("nvrtc", "column sums + kept-shape outputs", wb_conf_float_dtypes[k], &g3, 1,
                        "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.mul(t0, t0)\nt2 = prims.sum(t1, (0, 1))\n"
                        "t3 = prims.sum(t0, (0, 1))\nt4 = prims.mul(t2, t3)\nt5 = prims.convert_element_type(t4, dtypes.bfloat16)\n"
                        "t6 = prims.broadcast_in_dim(t3, (1, 96), (1,))\nt7 = prims.add(t6, 1.0)",
                        "t5, t7");
    }
  /* a layer-norm backward's sums: the column sums (weight and bias gradients) computed by the row kernel of the
   * same elements (wb-cuda-codegen-mix.c), rows of one warp: 512 bf16/f16 (2 steps of 32 x 8), 256 f32 (2 of
   * 32 x 4); 1000 rows: 125 blocks of 8, each row its own warp, combined by the last 8 (f32) or 16 blocks */
  for (guint k = 0; k < 3; k++)
    {
      gint64           C = wb_conf_float_dtypes[k] == WB_DTYPE_FLOAT32 ? 256 : 512;
      WbConfInput      ab[2] = { wb_conf_input ("a", wb_conf_float_dtypes[k], 2, 1000, C, 1, WB_CONF_DOM_ANY),
                                 wb_conf_input ("b", wb_conf_float_dtypes[k], 2, 1000, C, 1, WB_CONF_DOM_ANY) };
      g_autofree char *body = g_strdup_printf ("t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                                               "t2 = prims.mul(t0, t1)\nt3 = prims.sum(t2, (0,))\nt4 = prims.sum(t1, (0,))\n"
                                               "t5 = prims.convert_element_type(t3, dtypes.bfloat16)\nt6 = prims.sum(t2, (1,))\n"
                                               "t7 = prims.broadcast_in_dim(t6, (1000, %" G_GINT64_FORMAT "), (0,))\nt8 = prims.sub(t1, t7)",
                                               C);
      wb_conf_add_case ("nvrtc", "row sum + column sums, one kernel", wb_conf_float_dtypes[k], ab, 2, body, "t8, t6, t5, t4");
    }
  /* shapes and indexing */
  for (guint k = 0; k < 3; k++)
    {
      WbDtype      d = k == 0 ? WB_DTYPE_FLOAT32 : k == 1 ? WB_DTYPE_BFLOAT16
                                                          : WB_DTYPE_INT64;
      WbConfDomain dom = k == 2 ? WB_CONF_DOM_INT : WB_CONF_DOM_ANY;
      WbConfInput  a = wb_conf_input ("a", d, 2, 12, 33, 1, dom);
      WbConfInput  a3 = wb_conf_input ("a", d, 3, 4, 6, 10, dom);
      WbConfInput  two[2] = { wb_conf_input ("a", d, 2, 12, 33, 1, dom), wb_conf_input ("b", d, 2, 5, 33, 1, dom) };
      WbConfInput  tk[2] = { wb_conf_input ("a", d, 2, 12, 33, 1, dom), wb_conf_input ("i", WB_DTYPE_INT64, 1, 17, 1, 1, WB_CONF_DOM_INDEX) };
      WbConfInput  ta[2] = { wb_conf_input ("a", d, 2, 12, 33, 1, dom), wb_conf_input ("i", WB_DTYPE_INT64, 2, 12, 5, 1, WB_CONF_DOM_INDEX) };
      tk[1].bound = 12;
      ta[1].bound = 33;
      wb_conf_add_case ("cuda", "prims.reshape(view)", d, &a, 1, "t0 = prims.reshape(a, (4, 99))\nt1 = prims.neg(t0)", "t1");
      wb_conf_add_case ("cuda", "prims.transpose+reshape", d, &a, 1, "t0 = prims.transpose(a, (1, 0))\nt1 = prims.reshape(t0, (11, 36))\nt2 = prims.abs(t1)", "t2");
      wb_conf_add_case ("cuda", "prims.transpose(3d)", d, &a3, 1, "t0 = prims.transpose(a, (2, 0, 1))\nt1 = prims.neg(t0)", "t1");
      wb_conf_add_case ("cuda", "prims.slice_prim", d, &a, 1, "t0 = prims.slice_prim(a, [1, 2], [11, 31], [2, 3])\nt1 = prims.neg(t0)", "t1");
      wb_conf_add_case ("cuda", "prims.pad", d, &a, 1, k == 2 ? "t0 = prims.pad(a, 3, [(1, 2, 1), (-2, 3, 0)])" : "t0 = prims.pad(a, 0.5, [(1, 2, 1), (-2, 3, 0)])", "t0");
      wb_conf_add_case ("cuda", "prims.cat", d, two, 2, "t0 = prims.cat([a, b, a], 0)", "t0");
      wb_conf_add_case ("cuda", "prims.cat(-1)", d, two, 1, "t0 = prims.cat([a, a], -1)", "t0");
      wb_conf_add_case ("cuda", "prims.take", d, tk, 2, "t0 = prims.take(a, i, 0)", "t0");
      wb_conf_add_case ("cuda", "prims.take_along_axis", d, ta, 2, "t0 = prims.take_along_axis(a, i, 1)", "t0");
      wb_conf_add_case ("cuda", "prims.flip", d, &a, 1, "t0 = prims.flip(a, (0, 1))\nt1 = prims.neg(t0)", "t1");
      wb_conf_add_case ("cuda", "prims.squeeze", d, &a, 1, "t0 = prims.broadcast_in_dim(a, (12, 1, 33), (0, 2))\nt1 = prims.squeeze(t0, (1,))\nt2 = prims.neg(t1)", "t2");
    }
  {
    WbConfInput a = wb_conf_input ("a", WB_DTYPE_FLOAT32, 1, 10, 1, 1, WB_CONF_DOM_ANY);
    wb_conf_add_case ("cuda", "prims.iota", WB_DTYPE_INT64, &a, 1, "t0 = prims.iota(10, start=3, step=2, device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)\nt1 = prims.convert_element_type(t0, dtypes.float32)\nt2 = prims.add(a, t1)", "t2");
    wb_conf_add_case ("cuda", "prims.full", WB_DTYPE_FLOAT32, &a, 1, "t0 = prims.full((10,), 2.5, device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)\nt1 = prims.mul(a, t0)", "t1");
  }
  /* matmul and linear through cuBLASLt */
  for (guint k = 0; k < 3; k++)
    {
      WbDtype     d = wb_conf_float_dtypes[k];
      WbConfInput mm[2] = { wb_conf_input ("a", d, 2, 16, 64, 1, WB_CONF_DOM_ANY), wb_conf_input ("b", d, 2, 64, 24, 1, WB_CONF_DOM_ANY) };
      WbConfInput mt[2] = { wb_conf_input ("a", d, 2, 16, 64, 1, WB_CONF_DOM_ANY), wb_conf_input ("b", d, 2, 24, 64, 1, WB_CONF_DOM_ANY) };
      WbConfInput bm[2] = { wb_conf_input ("a", d, 3, 3, 16, 64, WB_CONF_DOM_ANY), wb_conf_input ("b", d, 3, 3, 64, 24, WB_CONF_DOM_ANY) };
      WbConfInput ln[3] = { wb_conf_input ("x", d, 3, 5, 7, 64, WB_CONF_DOM_ANY), wb_conf_input ("w", d, 2, 24, 64, 1, WB_CONF_DOM_ANY), wb_conf_input ("bias", d, 1, 24, 1, 1, WB_CONF_DOM_ANY) };
      wb_conf_add_case ("cublas", "prims.matmul", d, mm, 2, "t0 = prims.matmul(a, b)", "t0");
      wb_conf_add_case ("cublas", "prims.matmul(b^T)", d, mt, 2, "t0 = prims.transpose(b, (1, 0))\nt1 = prims.matmul(a, t0)", "t1");
      wb_conf_add_case ("cublas", "prims.matmul(a^T)", d, mm, 2, "t0 = prims.transpose(a, (1, 0))\nt1 = prims.matmul(t0, a)", "t1");
      wb_conf_add_case ("cublas", "prims.matmul(batched)", d, bm, 2, "t0 = prims.matmul(a, b)", "t0");
      wb_conf_add_case ("cublas", "prims.linear", d, ln, 3, "t0 = prims.linear(x, w, bias)", "t0");
      wb_conf_add_case ("cublas", "prims.linear(no bias)", d, ln, 2, "t0 = prims.linear(x, w, None)", "t0");
    }
  kernel_cases ();
}

/* -- hand-written kernels of the cuda executor (wb-cuda-kernels.h) ---------------------------------- */

static void
add_kernel (const char *what, WbDtype d, const WbConfInput *in, guint n_in, const char *body, const char *outputs, gboolean exact)
{
  WbConfCase *c = wb_conf_case_new ("cuda", what, d, in, n_in, body, outputs);

  c->kernel = TRUE;
  c->exact = exact;
  wb_conf_append (c);
}

static void
kernel_cases (void)
{
  static const char *const names[] = { "float32", "bfloat16", "float16", "float64" };
  static const WbDtype     sortable[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT64, WB_DTYPE_INT64, WB_DTYPE_INT32 };
  const char *const        dev = "device=devices.Device(\"cuda:0\")";

  /* random draws: the cpu's Philox numbers bit for bit (two draws: the second starts where the first ends) */
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbDtype          d = wb_conf_float_dtypes[k];
      WbConfInput      a = wb_conf_input ("a", d, 2, 37, 41, 1, WB_CONF_DOM_ANY);
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
    WbConfInput a = wb_conf_input ("a", WB_DTYPE_FLOAT32, 2, 37, 41, 1, WB_CONF_DOM_ANY);
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
    WbConfInput a = wb_conf_input ("a", WB_DTYPE_FLOAT32, 2, 7, 9, 1, WB_CONF_DOM_ANY);
    wb_conf_add_case ("cuda", "prims.empty", WB_DTYPE_FLOAT32, &a, 1, "t0 = prims.empty((7, 9), device=devices.Device(\"cuda:0\"), dtype=dtypes.float32)\nt1 = prims.add(a, t0)", "t1");
  }
  /* topk, sort, argmax: ties (DOM_SHIFT) check the stable order; long rows take the multi-pass sort */
  for (guint k = 0; k < G_N_ELEMENTS (sortable); k++)
    {
      WbDtype      d = sortable[k];
      WbConfDomain any = wb_dtype_is_float (d) ? WB_CONF_DOM_ANY : WB_CONF_DOM_INT;
      WbConfInput  a = wb_conf_input ("a", d, 2, 37, 41, 1, any);
      WbConfInput  ties = wb_conf_input ("a", d, 2, 37, 41, 1, WB_CONF_DOM_SHIFT);
      WbConfInput  a3 = wb_conf_input ("a", d, 3, 5, 6, 7, any);
      WbConfInput  longr = wb_conf_input ("a", d, 2, 3, 3000, 1, any);
      WbConfInput  longt = wb_conf_input ("a", d, 2, 2, 2500, 1, WB_CONF_DOM_SHIFT);
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
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbDtype     d = wb_conf_float_dtypes[k];
      WbConfInput mean[4] = { wb_conf_input ("g", d, 0, 1, 1, 1, WB_CONF_DOM_POS), wb_conf_input ("a", d, 2, 64, 100, 1, WB_CONF_DOM_ANY),
                              wb_conf_input ("target", WB_DTYPE_INT64, 1, 64, 1, 1, WB_CONF_DOM_INDEX), wb_conf_input ("tw", d, 0, 1, 1, 1, WB_CONF_DOM_POS) };
      WbConfInput sum[4] = { wb_conf_input ("g", d, 0, 1, 1, 1, WB_CONF_DOM_POS), wb_conf_input ("a", d, 2, 64, 100, 1, WB_CONF_DOM_ANY),
                             wb_conf_input ("target", WB_DTYPE_INT64, 1, 64, 1, 1, WB_CONF_DOM_INDEX), wb_conf_input ("w", d, 1, 100, 1, 1, WB_CONF_DOM_POS) };
      WbConfInput none[3] = { wb_conf_input ("g", d, 1, 64, 1, 1, WB_CONF_DOM_ANY), wb_conf_input ("a", d, 2, 64, 100, 1, WB_CONF_DOM_ANY),
                              wb_conf_input ("target", WB_DTYPE_INT64, 1, 64, 1, 1, WB_CONF_DOM_INDEX) };
      mean[2].bound = sum[2].bound = none[2].bound = 100;
      sum[2].dom = WB_CONF_DOM_SHIFT; /* classes 0..6, 3 ignored */
      add_kernel ("ltorch.nll_loss_backward(mean)", d, mean, 4, "t0 = ltorch.nll_loss_backward(g, a, target, None, 'mean', -100, tw)", "t0", TRUE);
      add_kernel ("ltorch.nll_loss_backward(sum, weight, ignore)", d, sum, 4, "t0 = ltorch.nll_loss_backward(g, a, target, w, 'sum', 3, 2.5)", "t0", TRUE);
      add_kernel ("ltorch.nll_loss_backward(none)", d, none, 3, "t0 = ltorch.nll_loss_backward(g, a, target, None, 'none', -100, 1.0)", "t0", TRUE);
    }
}

int
main (int argc, char **argv)
{
  wb_conf_init (&argc, &argv);
  build_cases ();
  wb_conf_add_tests ();
  return g_test_run ();
}
