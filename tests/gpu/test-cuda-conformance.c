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

static void pool_cases (void);
static void index_cases (void);

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
  pool_cases ();
  index_cases ();
}

/* -- pooling (wb-cuda-kernels-pool.c): the zoo's shapes (resnet50's 3x3 stride-2 max pool and global average
 * pools, efficientnet's squeeze-excite pools, r3d_18's 3d pool) and windows that overlap, dilate, round up or
 * are not square; the backward of each max pool from its own forward's indices ------------------------- */

static const WbDtype pool_dtypes[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT64 };

typedef struct
{
  const char *args; /* kernel_size, stride, padding, dilation, ceil_mode as printed */
  guint       f;
  gint64      in[5];
  gint64      k[3], s[3], p[3], d[3];
  gboolean    ceil;
} MaxPoolCase;

static const MaxPoolCase max_pool_cases[] = {
  { "3, 2, 1, 1, False", 2, { 2, 8, 32, 32 }, { 3, 3 }, { 2, 2 }, { 1, 1 }, { 1, 1 }, FALSE },
  { "3, 2, 1, 1, False", 2, { 2, 8, 16, 16 }, { 3, 3 }, { 2, 2 }, { 1, 1 }, { 1, 1 }, FALSE },
  { "2, 2, 0, 1, False", 2, { 2, 16, 8, 8 }, { 2, 2 }, { 2, 2 }, { 0, 0 }, { 1, 1 }, FALSE },
  { "3, 2, 0, 1, True", 2, { 2, 4, 14, 16 }, { 3, 3 }, { 2, 2 }, { 0, 0 }, { 1, 1 }, TRUE },
  { "(3, 2), (1, 2), (1, 0), (2, 1), False", 2, { 3, 5, 12, 11 }, { 3, 2 }, { 1, 2 }, { 1, 0 }, { 2, 1 }, FALSE },
  { "(3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), False", 3, { 2, 3, 7, 8, 8 }, { 3, 3, 3 }, { 2, 2, 2 }, { 1, 1, 1 }, { 1, 1, 1 }, FALSE },
  { "(2, 3, 3), (1, 2, 2), (1, 1, 1), (1, 1, 1), True", 3, { 1, 4, 4, 8, 8 }, { 2, 3, 3 }, { 1, 2, 2 }, { 1, 1, 1 }, { 1, 1, 1 }, TRUE },
};

/* ATen's pooling_output_shape */
static gint64
pooled (gint64 in, gint64 k, gint64 s, gint64 p, gint64 d, gboolean ceil)
{
  gint64 num = in + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0), out = num / s + 1;

  if (ceil && (out - 1) * s >= in + p)
    out--;
  return out;
}

/* the largest plane whose positions dtype @d counts exactly (Thunder types the indices like the input) */
static gint64
exact_positions (WbDtype d)
{
  return d == WB_DTYPE_BFLOAT16 ? 256 : d == WB_DTYPE_FLOAT16 ? 2048
                                                              : G_MAXINT32;
}

static void
max_pool_case (const MaxPoolCase *mc, WbDtype d)
{
  guint            rank = mc->f + 2;
  gint64           out[5], plane = 1;
  g_autofree char *body = NULL;
  g_autofree char *what = NULL;
  WbConfInput      in[2];

  memcpy (out, mc->in, sizeof out);
  for (guint i = 0; i < mc->f; i++)
    {
      out[2 + i] = pooled (mc->in[2 + i], mc->k[i], mc->s[i], mc->p[i], mc->d[i], mc->ceil);
      plane *= mc->in[2 + i];
    }
  if (plane > exact_positions (d))
    return;
  in[0] = wb_conf_input_shape ("a", d, rank, mc->in, WB_CONF_DOM_ANY);
  in[1] = wb_conf_input_shape ("g", d, rank, out, WB_CONF_DOM_ANY);
  body = g_strdup_printf ("(t0, t1) = max_pool%ud_with_indices(a, %s)\nt2 = max_pool%ud_with_indices_backward(g, a, %s, t1)", mc->f, mc->args, mc->f,
                          mc->args);
  what = g_strdup_printf ("max_pool%ud_with_indices+backward(%s) of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT, mc->f, mc->args,
                          mc->in[1], mc->in[2], mc->in[3]);
  add_kernel (what, d, in, 2, body, "t0, t1, t2", FALSE);
}

static void
pool_cases (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (pool_dtypes); k++)
    {
      WbDtype      d = pool_dtypes[k];
      const gint64 global[4] = { 2, 64, 7, 7 }, global1[4] = { 2, 64, 1, 1 }, odd[4] = { 2, 16, 10, 9 }, odd_out[4] = { 2, 16, 4, 3 };
      const gint64 se[4] = { 2, 40, 8, 8 }, v3[5] = { 1, 32, 4, 5, 6 }, r3d[5] = { 1, 64, 2, 3, 3 };
      WbConfInput  gl[2] = { wb_conf_input_shape ("a", d, 4, global, WB_CONF_DOM_ANY), wb_conf_input_shape ("g", d, 4, global1, WB_CONF_DOM_ANY) };
      WbConfInput  ov[2] = { wb_conf_input_shape ("a", d, 4, odd, WB_CONF_DOM_ANY), wb_conf_input_shape ("g", d, 4, odd_out, WB_CONF_DOM_ANY) };
      WbConfInput  sq = wb_conf_input_shape ("a", d, 4, se, WB_CONF_DOM_ANY);
      WbConfInput  a3 = wb_conf_input_shape ("a", d, 5, v3, WB_CONF_DOM_ANY), r3 = wb_conf_input_shape ("a", d, 5, r3d, WB_CONF_DOM_ANY);

      for (guint i = 0; i < G_N_ELEMENTS (max_pool_cases); i++)
        max_pool_case (&max_pool_cases[i], d);
      {
        /* an unbatched [C, D, H, W] input: the symbol, not the rank, says there are 3 spatial dims */
        const gint64 cdhw[4] = { 3, 4, 8, 8 }, pooled3[4] = { 3, 2, 4, 4 };
        WbConfInput  ub[2] = { wb_conf_input_shape ("a", d, 4, cdhw, WB_CONF_DOM_ANY), wb_conf_input_shape ("g", d, 4, pooled3, WB_CONF_DOM_ANY) };
        add_kernel ("max_pool3d_with_indices+backward(2, 2, 0, 1, False) unbatched", d, ub, 2,
                    "(t0, t1) = max_pool3d_with_indices(a, 2, 2, 0, 1, False)\nt2 = max_pool3d_with_indices_backward(g, a, 2, 2, 0, 1, False, t1)",
                    "t0, t1, t2", FALSE);
      }
      add_kernel ("ltorch.adaptive_avg_pool2d+backward((1, 1))", d, gl, 2,
                  "t0 = ltorch.adaptive_avg_pool2d(a, (1, 1))\nt1 = ltorch.adaptive_avg_pool2d_backward(g, a)", "t0, t1", FALSE);
      add_kernel ("ltorch.adaptive_avg_pool2d+backward((4, 3), overlapping)", d, ov, 2,
                  "t0 = ltorch.adaptive_avg_pool2d(a, (4, 3))\nt1 = ltorch.adaptive_avg_pool2d_backward(g, a)", "t0, t1", FALSE);
      add_kernel ("ltorch.adaptive_avg_pool2d(1)", d, &sq, 1, "t0 = ltorch.adaptive_avg_pool2d(a, 1)", "t0", FALSE);
      add_kernel ("ltorch.adaptive_avg_pool3d((2, 3, 4))", d, &a3, 1, "t0 = ltorch.adaptive_avg_pool3d(a, (2, 3, 4))", "t0", FALSE);
      add_kernel ("torch.nn.functional.adaptive_avg_pool3d((1, 1, 1))", d, &r3, 1, "t0 = torch.nn.functional.adaptive_avg_pool3d(a, (1, 1, 1))", "t0", FALSE);
    }
}

/* -- index_add, scatter_add, embedding, cumsum, kl_div, detach (wb-cuda-kernels-index.c): the zoo's shapes (mixtral's
 * expert weights and swin's position bias by index_add, misc_ops' scatter_add over topk indices,
 * qwen2/llama's cumsum of a mask, no_grad_teacher's kl_div and kl_div_vjp) and indices long enough for the multi-pass
 * sort, middle dims, strided sources, long scans ---------------------------------------------------- */

static void
index_update_cases (WbDtype d)
{
  WbConfDomain dom = wb_dtype_is_float (d) ? WB_CONF_DOM_ANY : WB_CONF_DOM_INT;
  WbConfDomain pos = wb_dtype_is_float (d) ? WB_CONF_DOM_POS : WB_CONF_DOM_SHIFT;
  WbConfInput  mix[3] = { wb_conf_input ("a", d, 2, 64, 64, 1, dom), wb_conf_input ("i", WB_DTYPE_INT64, 1, 128, 1, 1, WB_CONF_DOM_INDEX),
                          wb_conf_input ("v", d, 2, 128, 64, 1, dom) };
  WbConfInput  swin[3] = { wb_conf_input ("a", d, 2, 49, 2, 1, dom), wb_conf_input ("i", WB_DTYPE_INT32, 1, 256, 1, 1, WB_CONF_DOM_INDEX),
                           wb_conf_input ("v", d, 2, 256, 2, 1, dom) };
  WbConfInput  mid[3] = { wb_conf_input ("a", d, 3, 8, 37, 5, dom), wb_conf_input ("i", WB_DTYPE_INT64, 1, 50, 1, 1, WB_CONF_DOM_INDEX),
                          wb_conf_input ("v", d, 3, 8, 50, 5, dom) };
  WbConfInput  longi[3] = { wb_conf_input ("a", d, 2, 100, 16, 1, pos), wb_conf_input ("i", WB_DTYPE_INT64, 1, 3000, 1, 1, WB_CONF_DOM_INDEX),
                            wb_conf_input ("v", d, 2, 3000, 16, 1, pos) };
  WbConfInput  topk[3] = { wb_conf_input ("a", d, 2, 16, 32, 1, dom), wb_conf_input ("i", WB_DTYPE_INT64, 2, 16, 4, 1, WB_CONF_DOM_INDEX),
                           wb_conf_input ("v", d, 2, 16, 4, 1, dom) };
  WbConfInput  big[3] = { wb_conf_input ("a", d, 3, 6, 7, 8, dom), wb_conf_input ("i", WB_DTYPE_INT64, 3, 10, 5, 8, WB_CONF_DOM_INDEX),
                          wb_conf_input ("v", d, 3, 12, 7, 8, dom) };
  WbConfInput  col[3] = { wb_conf_input ("a", d, 2, 50, 3, 1, pos), wb_conf_input ("i", WB_DTYPE_INT64, 2, 2500, 3, 1, WB_CONF_DOM_INDEX),
                          wb_conf_input ("v", d, 2, 2500, 3, 1, pos) };

  mix[1].bound = 64, swin[1].bound = 49, mid[1].bound = 37, longi[1].bound = 100;
  topk[1].bound = 32, big[1].bound = 6, col[1].bound = 50;
  add_kernel ("prims.index_add(dim 0, 128 into 64)", d, mix, 3, "t0 = prims.index_add(a, i, v, 0)", "t0", FALSE);
  add_kernel ("prims.index_add(dim 0, i32 index)", d, swin, 3, "t0 = prims.index_add(a, i, v, 0)", "t0", FALSE);
  add_kernel ("prims.index_add(dim 1)", d, mid, 3, "t0 = prims.index_add(a, i, v, 1)", "t0", FALSE);
  add_kernel ("prims.index_add(3000 indices)", d, longi, 3, "t0 = prims.index_add(a, i, v, 0)", "t0", FALSE);
  add_kernel ("prims.scatter_add(dim 1, topk)", d, topk, 3, "t0 = prims.scatter_add(a, i, v, 1)", "t0", FALSE);
  add_kernel ("prims.scatter_add(dim 0, larger source)", d, big, 3, "t0 = prims.scatter_add(a, i, v, 0)", "t0", FALSE);
  add_kernel ("prims.scatter_add(dim 0, 2500 indices)", d, col, 3, "t0 = prims.scatter_add(a, i, v, 0)", "t0", FALSE);
}

/* bert's and llama's token embeddings: [2, 32] indices into [512, 64], the backward into [512, 64] (gpt2's
 * and llama's in bf16 and f32), with a padding row, and scaled by frequency over 3000 indices */
static void
embedding_cases (WbDtype d)
{
  WbConfInput fwd[2] = { wb_conf_input ("i", WB_DTYPE_INT64, 2, 2, 32, 1, WB_CONF_DOM_INDEX), wb_conf_input ("w", d, 2, 512, 64, 1, WB_CONF_DOM_ANY) };
  WbConfInput bwd[2] = { wb_conf_input ("g", d, 3, 2, 32, 64, WB_CONF_DOM_ANY), wb_conf_input ("i", WB_DTYPE_INT64, 2, 2, 32, 1, WB_CONF_DOM_INDEX) };
  WbConfInput freq[2] = { wb_conf_input ("g", d, 2, 3000, 8, 1, WB_CONF_DOM_POS), wb_conf_input ("i", WB_DTYPE_INT32, 1, 3000, 1, 1, WB_CONF_DOM_INDEX) };

  fwd[0].bound = bwd[1].bound = 512, freq[1].bound = 50;
  add_kernel ("prims.embedding(padding_idx=0)", d, fwd, 2,
              "t0 = prims.embedding(i, w, padding_idx=0, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False)", "t0", TRUE);
  add_kernel ("prims.embedding_backward", d, bwd, 2, "t0 = prims.embedding_backward(g, i, 512, -1, False, False)", "t0", FALSE);
  add_kernel ("prims.embedding_backward(padding 3, by frequency)", d, freq, 2, "t0 = prims.embedding_backward(g, i, 50, 3, True, False)", "t0", FALSE);
}

static void
index_cases (void)
{
  static const WbDtype update_dtypes[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_FLOAT64, WB_DTYPE_INT64, WB_DTYPE_INT32 };

  for (guint k = 0; k < G_N_ELEMENTS (update_dtypes); k++)
    index_update_cases (update_dtypes[k]);
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    embedding_cases (wb_conf_float_dtypes[k]);
  {
    WbConfInput mask = wb_conf_input ("a", WB_DTYPE_BOOL8, 2, 2, 32, 1, WB_CONF_DOM_BOOL);
    WbConfInput i32 = wb_conf_input ("a", WB_DTYPE_INT32, 2, 9, 700, 1, WB_CONF_DOM_INT);
    WbConfInput i64 = wb_conf_input ("a", WB_DTYPE_INT64, 3, 4, 3000, 3, WB_CONF_DOM_INT);
    WbConfInput f32 = wb_conf_input ("a", WB_DTYPE_FLOAT32, 2, 5, 3000, 1, WB_CONF_DOM_ANY);
    add_kernel ("ltorch.cumsum(b8 mask, -1)", WB_DTYPE_BOOL8, &mask, 1, "t0 = ltorch.cumsum(a, -1, dtype=None)", "t0", TRUE);
    add_kernel ("torch.cumsum(i32, 1)", WB_DTYPE_INT32, &i32, 1, "t0 = torch.cumsum(a, 1)", "t0", TRUE);
    add_kernel ("ltorch.cumsum(i64, 1, strided)", WB_DTYPE_INT64, &i64, 1, "t0 = ltorch.cumsum(a, 1, dtype=None)", "t0", TRUE);
    add_kernel ("ltorch.cumsum(i32 -> f32)", WB_DTYPE_INT32, &i32, 1, "t0 = ltorch.cumsum(a, 1, dtype=dtypes.float32)", "t0", FALSE);
    add_kernel ("ltorch.cumsum(f32 -> f64)", WB_DTYPE_FLOAT32, &f32, 1, "t0 = ltorch.cumsum(a, 1, dtype=dtypes.float64)", "t0", FALSE);
  }
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbDtype     d = wb_conf_float_dtypes[k];
      WbConfInput rows = wb_conf_input ("a", d, 2, 37, 41, 1, WB_CONF_DOM_ANY), longr = wb_conf_input ("a", d, 2, 3, 3000, 1, WB_CONF_DOM_ANY);
      WbConfInput mid = wb_conf_input ("a", d, 3, 6, 300, 5, WB_CONF_DOM_ANY), cols = wb_conf_input ("a", d, 2, 1000, 40, 1, WB_CONF_DOM_ANY);
      WbConfInput kl[2] = { wb_conf_input ("a", d, 2, 16, 10, 1, WB_CONF_DOM_ANY), wb_conf_input ("t", d, 2, 16, 10, 1, WB_CONF_DOM_POS) };
      WbConfInput klbig[2] = { wb_conf_input ("a", d, 2, 300, 257, 1, WB_CONF_DOM_ANY), wb_conf_input ("t", d, 2, 300, 257, 1, WB_CONF_DOM_POS) };
      WbConfInput kllog[2] = { wb_conf_input ("a", d, 2, 37, 41, 1, WB_CONF_DOM_ANY), wb_conf_input ("t", d, 2, 37, 41, 1, WB_CONF_DOM_UNIT) };
      add_kernel ("ltorch.cumsum(rows of 41)", d, &rows, 1, "t0 = ltorch.cumsum(a, 1, dtype=None)", "t0", FALSE);
      add_kernel ("ltorch.cumsum(rows of 3000)", d, &longr, 1, "t0 = ltorch.cumsum(a, -1, dtype=None)", "t0", FALSE);
      add_kernel ("ltorch.cumsum(middle dim of 300)", d, &mid, 1, "t0 = ltorch.cumsum(a, 1, dtype=None)", "t0", FALSE);
      add_kernel ("ltorch.cumsum(dim 0 of 1000)", d, &cols, 1, "t0 = ltorch.cumsum(a, 0, dtype=None)", "t0", FALSE);
      add_kernel ("torch.nn.functional.kl_div(batchmean)", d, kl, 2, "t0 = torch.nn.functional.kl_div(a, t, reduction='batchmean')", "t0", FALSE);
      add_kernel ("ltorch.kl_div(sum)", d, klbig, 2, "t0 = ltorch.kl_div(a, t, None, None, 'sum', False)", "t0", FALSE);
      add_kernel ("ltorch.kl_div(mean)", d, klbig, 2, "t0 = ltorch.kl_div(a, t, None, None, 'mean', False)", "t0", FALSE);
      add_kernel ("ltorch.kl_div(none, log_target)", d, kllog, 2, "t0 = ltorch.kl_div(a, t, None, None, 'none', True)", "t0", FALSE);
      /* kl_div_vjp (no_grad_teacher's backward): a 0-d cotangent, or one of the input's shape for 'none' */
      {
        WbConfInput vjp[3] = { kl[0], kl[1], wb_conf_input ("g", d, 0, 1, 1, 1, WB_CONF_DOM_ANY) };
        WbConfInput vjpbig[3] = { klbig[0], klbig[1], wb_conf_input ("g", d, 2, 300, 257, 1, WB_CONF_DOM_ANY) };
        WbConfInput vjpsum[3] = { klbig[0], klbig[1], wb_conf_input ("g", d, 0, 1, 1, 1, WB_CONF_DOM_ANY) };
        WbConfInput vjplog[3] = { kllog[0], kllog[1], wb_conf_input ("g", d, 0, 1, 1, 1, WB_CONF_DOM_ANY) };
        add_kernel ("kl_div_vjp(batchmean)", d, vjp, 3, "(t0, t1) = kl_div_vjp(((a, t), {'reduction': \"batchmean\"}), g)", "t0, t1", FALSE);
        add_kernel ("kl_div_vjp(none)", d, vjpbig, 3, "(t0, t1) = kl_div_vjp(((a, t), {'reduction': 'none'}), g)", "t0, t1", FALSE);
        add_kernel ("kl_div_vjp(sum)", d, vjpsum, 3, "(t0, t1) = kl_div_vjp(((a, t), {'reduction': 'sum', 'log_target': False}), g)", "t0, t1",
                    FALSE);
        add_kernel ("kl_div_vjp(mean, log_target)", d, vjplog, 3, "(t0, t1) = kl_div_vjp(((a, t), {'reduction': 'mean', 'log_target': True}), g)",
                    "t0, t1", FALSE);
      }
      add_kernel ("torch.detach", d, &rows, 1, "t0 = torch.detach(a)\nt1 = ltorch.detach(t0)", "t1", TRUE);
    }
  /* copy_with_setitem (whisper's and BART's shifted decoder inputs, T5's): a slice from a tensor, an int row
   * from a broadcast row, a number through an Ellipsis */
  for (guint k = 0; k < G_N_ELEMENTS (wb_conf_float_dtypes); k++)
    {
      WbDtype     d = wb_conf_float_dtypes[k];
      WbConfInput sl[2] = { wb_conf_input ("a", d, 2, 2, 8, 1, WB_CONF_DOM_ANY), wb_conf_input ("v", d, 2, 2, 7, 1, WB_CONF_DOM_ANY) };
      WbConfInput row[2] = { wb_conf_input ("a", d, 3, 3, 5, 6, WB_CONF_DOM_ANY), wb_conf_input ("v", d, 1, 6, 1, 1, WB_CONF_DOM_ANY) };
      add_kernel ("copy_with_setitem_impl(slice from a tensor)", d, sl, 2,
                  "t0 = copy_with_setitem_impl(a, (slice(None, None, None), slice(1, None, None)), v)", "t0", TRUE);
      add_kernel ("prims.copy_with_setitem(int row, broadcast)", d, row, 2, "t0 = prims.copy_with_setitem(a, (1, -2), v)", "t0", TRUE);
      add_kernel ("prims.copy_with_setitem(number, Ellipsis)", d, row, 1, "t0 = prims.copy_with_setitem(a, (..., slice(0, 6, 2)), 0.5)", "t0",
                  TRUE);
    }
  {
    WbConfInput ids[2] = { wb_conf_input ("a", WB_DTYPE_INT64, 2, 2, 8, 1, WB_CONF_DOM_INT), wb_conf_input ("v", WB_DTYPE_INT64, 2, 2, 7, 1, WB_CONF_DOM_INT) };
    add_kernel ("copy_with_setitem_impl(i64 token ids)", WB_DTYPE_INT64, ids, 2,
                "t0 = copy_with_setitem_impl(a, (slice(None, None, None), slice(1, None, None)), v)", "t0", TRUE);
  }
}

/* -- an index out of range on the GPU (the prelude's wb_index_bad): the checked run's call fails with
 * WB_EXECUTOR_ERROR_BAD_ARGUMENT naming the index, as on the cpu, and the context stays usable: the same
 * program runs again with good indices. Through a generated gather (prims.take in an nvrtc region) and a
 * hand-written kernel (prims.index_add on cuda). ------------------------------------------------------ */

typedef struct
{
  const char *executor;
  const char *text;
} IndexCase;

static const IndexCase index_cases_bad[] = {
  { "nvrtc", "@torch.no_grad()\ndef computation(a, i, v):\n  # a: \"cuda:0 f32[8, 4]\"\n  # i: \"cuda:0 i64[3]\"\n  # v: \"cuda:0 f32[3, 4]\"\n"
             "  [t0] = nvrtcFusion0(a, i)\n    # t0 = prims.take(a, i, 0)  # t0: \"cuda:0 f32[3, 4]\"\n  return (t0,)\n" },
  { "cuda", "@torch.no_grad()\ndef computation(a, i, v):\n  # a: \"cuda:0 f32[8, 4]\"\n  # i: \"cuda:0 i64[3]\"\n  # v: \"cuda:0 f32[3, 4]\"\n"
            "  t0 = prims.index_add(a, i, v, 0)\n  return (t0,)\n" },
};

static WbRunResult *
run_with_index (WbCudaRuntime *rt, WbProgram *program, gint64 bad, GError **error)
{
  g_autoptr (GPtrArray) dev = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  const gint64 shapes[3][2] = { { 8, 4 }, { 3, 1 }, { 3, 4 } };
  WbRunOptions o;

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr (WbTensor) h = wb_tensor_new (k == 1 ? WB_DTYPE_INT64 : WB_DTYPE_FLOAT32, k == 1 ? 1 : 2, shapes[k], NULL);
      for (gint64 e = 0; e < wb_tensor_numel (h); e++)
        wb_tensor_set_f64 (h, e, k == 1 ? (e == 1 ? (double) bad : (double) e * 3) : 0.5 + (double) e);
      g_ptr_array_add (dev, wb_rt_value_take_tensor (wb_cuda_upload (rt, h, NULL)));
    }
  wb_run_options_init (&o);
  return wb_program_run (program, &o, dev, NULL, error);
}

static void
test_index_out_of_range (gconstpointer data)
{
  const IndexCase *ic = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (ic->text, -1, "index.py", &error);
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (WbRunResult) bad = NULL;
  g_autoptr (WbRunResult) good = NULL;
  WbCudaRuntime *rt;

  g_assert_no_error (error);
  if ((rt = wb_cuda_runtime_get (&error)) == NULL)
    {
      g_test_skip (error->message);
      return;
    }
  program = wb_program_new (trace, NULL, &error);
  g_assert_no_error (error);
  wb_program_assign (program, NULL, wb_cuda_executor_get (ic->executor, &error));
  g_assert_no_error (error);
  wb_cuda_runtime_set_sync (rt, TRUE);
  wb_cuda_executors_begin_run ();
  bad = run_with_index (rt, program, 1000000, &error);
  g_assert_null (bad);
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "index 1000000 is out of range for a dim of size 8"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  wb_cuda_executors_begin_run ();
  good = run_with_index (rt, program, 7, &error);
  g_assert_no_error (error);
  g_assert_nonnull (good);
  wb_cuda_executors_end_run ();
}

int
main (int argc, char **argv)
{
  gboolean compile_only = FALSE;

  for (int i = 1; i < argc; i++)
    compile_only |= strcmp (argv[i], "--compile-only") == 0;
  wb_conf_init (&argc, &argv);
  build_cases ();
  wb_conf_add_tests ();
  /* needs a GPU: not with --compile-only, so that the compile-only run has nothing to skip */
  if (!compile_only)
    {
      g_test_add_data_func ("/cuda/index-out-of-range/nvrtc-take", &index_cases_bad[0], test_index_out_of_range);
      g_test_add_data_func ("/cuda/index-out-of-range/cuda-index_add", &index_cases_bad[1], test_index_out_of_range);
    }
  return g_test_run ();
}
