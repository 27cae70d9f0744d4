/* wb-test-mixed-body.h — the prims of llama_layer's RMS-norm backward's shape (nvrtcFusion10), shared by
 * test-cuda-codegen (what the plan is) and test-cuda-vector (what it computes on the GPU)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Inputs a, b, c, d (bf16): a row sum (over @ROWS) and a column sum (over @COLS) of a * b + c * d, 8 bytes an
 * element to the column sums, t6 = -0.5 x the row sums, and a + b as an element output t8 (converted from @E: t7,
 * or a reshape of it that @RESHAPE, "" or a line ending in a newline, defines). Outputs t8, t6, t5, t4. */
#define WB_TEST_MIXED_BODY(COLS, ROWS, RESHAPE, E)                                                                 \
  "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"       \
  "tc = prims.convert_element_type(c, dtypes.float32)\ntd = prims.convert_element_type(d, dtypes.float32)\n"       \
  "tp = prims.mul(t0, t1)\ntq = prims.mul(tc, td)\nt2 = prims.add(tp, tq)\nt3 = prims.sum(t2, " COLS ")\n"         \
  "t4 = prims.convert_element_type(t3, dtypes.bfloat16)\nt5 = prims.sum(t2, " ROWS ")\nt6 = prims.mul(t5, -0.5)\n" \
  "t7 = prims.add(t0, t1)\n" RESHAPE "t8 = prims.convert_element_type(" E ", dtypes.bfloat16)"

/* Inputs a, b (bf16 [1, @ROWS, @COLS]): t4 = a * b as a bf16 [@ROWS, @COLS] output, whose reshape back to the operand's
 * shape a row sum reads (t7, [1, @ROWS]); the output is of the operand's shape up to a dim of extent 1
 * (_wb_cg_read_by_reduction). Outputs t4, t7. */
#define WB_TEST_ROW_READS_OUTPUT_BODY(ROWS, COLS)                                                            \
  "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\n" \
  "t2 = prims.mul(t0, t1)\nt3 = prims.reshape(t2, (" ROWS ", " COLS "))\n"                                   \
  "t4 = prims.convert_element_type(t3, dtypes.bfloat16)\nt5 = prims.reshape(t4, (1, " ROWS ", " COLS "))\n"  \
  "t6 = prims.convert_element_type(t5, dtypes.float32)\nt7 = prims.sum(t6, (2,))"
