/* test-cuda-vector.c — the vector variant of generated pointwise kernels against their scalar loop and the cpu
 * executor (suite gpu; --compile-only: suite executors)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case is one nvrtc region over inputs whose innermost extents are (mostly) multiples of the vector
 * width, in the operand forms the generator handles lane by lane or as vectors (broadcasts, transposes,
 * reshapes, slices, take, cat, pad, strided rows, mixed dtypes, row reductions; wb-cuda-codegen-pointwise.c).
 * On the GPU each region's plan runs three times on the same values: the vector plan on aligned inputs
 * (its vector loops), the vector plan on inputs one element off a 16-byte boundary (its scalar loops), and
 * the plan of WB_CUDA_NO_VECTOR=1. The first two must be equal bit for bit, and so must the third unless
 * the plan holds a vectorised reduction (which sums in another order: then within the dtype's
 * tolerance); all equal to the cpu executor's within the dtype's tolerance. The table cases (a pointwise group
 * of one 16-bit input looked up in a table of its 65536 values, wb-cuda-codegen-table.c) run every bit pattern:
 * their vector plan is the table's (WB_CUDA_TABLE=always) and must equal the computed plan of
 * WB_CUDA_NO_TABLE=1 bit for bit, NaNs included; its second launch reuses the table. A case of two inputs is a
 * partial table (a value of one input looked up inside a pointwise kernel). --compile-only (no GPU) checks
 * that the vector variant is chosen exactly where expected and that both plans compile for sm_90 with
 * NVRTC. */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "wb-cuda-toolkit.h"
#include "wb-test-common.h"
#include "wb-test-mixed-body.h"

typedef enum
{
  DOM_ANY = 0, /* [-2, -0.1] u [0.1, 2] */
  DOM_INDEX,   /* integers in [0, bound) */
  DOM_BOOL,
  DOM_INT,  /* integers in [-20, 20] */
  DOM_POS,  /* [0.5, 2.5]: sums without cancellation, compared across summation orders */
  DOM_BITS, /* 16-bit dtypes: every bit pattern (NaNs, infinities, subnormals), element k = 40503 k + 7 mod 2^16 */
} Domain;

typedef struct
{
  const char *name;
  WbDtype     dtype;
  guint       rank;
  gint64      shape[4];
  gint64      pitch; /* 0: contiguous; else the stride of dim rank - 2 (padded rows) */
  Domain      dom;
  gint64      bound;
} Input;

#define MAX_IN 4

typedef struct
{
  const char *label;
  Input       in[MAX_IN];
  guint       n_in;
  const char *body; /* prims, one a line */
  const char *outputs;
  guint       vec;   /* the vector width expected of the first kernel (0: scalar only) */
  gboolean    table; /* a lookup table (wb-cuda-codegen-table.c) with WB_CUDA_TABLE=always, against WB_CUDA_NO_TABLE=1 */
} Case;

#define F32 WB_DTYPE_FLOAT32
#define BF16 WB_DTYPE_BFLOAT16
#define F16 WB_DTYPE_FLOAT16
#define F64 WB_DTYPE_FLOAT64
#define I64 WB_DTYPE_INT64
#define I32 WB_DTYPE_INT32

static const Case cases[] = {
  { "gelu+bias bf16", { { "a", BF16, 2, { 33, 64 } }, { "b", BF16, 1, { 64 } } }, 2, "t0 = prims.broadcast_in_dim(b, (33, 64), (1,))\nt1 = prims.convert_element_type(a, dtypes.float32)\n"
                                                                                     "t2 = prims.convert_element_type(t0, dtypes.float32)\nt3 = prims.add(t1, t2)\nt4 = prims.mul(t3, 0.7071067811865476)\n"
                                                                                     "t5 = prims.erf(t4)\nt6 = prims.add(1.0, t5)\nt7 = prims.mul(t3, t6)\nt8 = prims.mul(0.5, t7)\nt9 = prims.convert_element_type(t8, dtypes.bfloat16)",
    "t9, t3",
    8 },
  { "gelu+bias f16", { { "a", F16, 2, { 33, 64 } }, { "b", F16, 1, { 64 } } }, 2, "t0 = prims.broadcast_in_dim(b, (33, 64), (1,))\nt1 = prims.convert_element_type(a, dtypes.float32)\n"
                                                                                  "t2 = prims.convert_element_type(t0, dtypes.float32)\nt3 = prims.add(t1, t2)\nt5 = prims.erf(t3)\nt9 = prims.convert_element_type(t5, dtypes.float16)",
    "t9",
    8 },
  { "row scale f32", { { "a", F32, 2, { 16, 40 } }, { "s", F32, 2, { 16, 1 } } }, 2, "t0 = prims.broadcast_in_dim(s, (16, 40), (0, 1))\nt1 = prims.sub(a, t0)\nt2 = prims.mul(t1, t0)", "t2", 4 },
  { "f64 add", { { "a", F64, 2, { 6, 10 } }, { "b", F64, 2, { 6, 10 } } }, 2, "t0 = prims.add(a, b)", "t0", 2 },
  { "i32 add", { { "a", I32, 2, { 8, 16 }, 0, DOM_INT }, { "b", I32, 2, { 8, 16 }, 0, DOM_INT } }, 2, "t0 = prims.add(a, b)", "t0", 4 },
  { "b8 where", { { "c", WB_DTYPE_BOOL8, 2, { 8, 16 }, 0, DOM_BOOL }, { "a", BF16, 2, { 8, 16 } }, { "b", BF16, 2, { 8, 16 } } }, 3, "t0 = prims.where(c, a, b)", "t0", 8 },
  { "ui8 to f32", { { "a", WB_DTYPE_UINT8, 2, { 8, 32 }, 0, DOM_INDEX, 200 } }, 1, "t0 = prims.convert_element_type(a, dtypes.float32)", "t0", 8 },
  { "transpose", { { "a", BF16, 2, { 16, 24 } } }, 1, "t0 = prims.transpose(a, (1, 0))\nt1 = prims.neg(t0)", "t1", 8 },
  { "reshape merge", { { "a", BF16, 3, { 4, 6, 16 } } }, 1, "t0 = prims.reshape(a, (24, 16))\nt1 = prims.abs(t0)", "t1", 8 },
  { "reshape inner", { { "a", F32, 2, { 6, 32 } } }, 1, "t0 = prims.reshape(a, (12, 16))\nt1 = prims.abs(t0)", "t1", 4 },
  /* dim groups (_wb_cg_idx_reshape_grouped): one dim split in two, its lanes carried to the inner one */
  { "reshape split", { { "a", BF16, 2, { 6, 64 } } }, 1, "t0 = prims.reshape(a, (6, 4, 16))\nt1 = prims.neg(t0)", "t1", 8 },
  { "reshape split of transpose", { { "a", BF16, 3, { 4, 6, 16 } } }, 1, "t0 = prims.transpose(a, (1, 0, 2))\nt1 = prims.reshape(t0, (6, 64))\nt2 = prims.neg(t1)", "t2", 8 },
  { "reshape unaligned", { { "a", F32, 2, { 10, 12 } } }, 1, "t0 = prims.reshape(a, (20, 6))\nt1 = prims.abs(t0)", "t1", 2 },
  { "reshape of transpose", { { "a", BF16, 3, { 16, 8, 4 } } }, 1, "t0 = prims.transpose(a, (2, 0, 1))\nt1 = prims.reshape(t0, (4, 128))\nt2 = prims.neg(t1)", "t2", 8 },
  { "slice aligned", { { "a", BF16, 2, { 12, 48 } } }, 1, "t0 = prims.slice_prim(a, [2, 8], [10, 40], [1, 1])\nt1 = prims.neg(t0)", "t1", 8 },
  { "slice unaligned", { { "a", BF16, 2, { 12, 48 } } }, 1, "t0 = prims.slice_prim(a, [2, 3], [10, 35], [1, 1])\nt1 = prims.neg(t0)", "t1", 8 },
  { "slice step", { { "a", F32, 2, { 12, 48 } } }, 1, "t0 = prims.slice_prim(a, [0, 0], [12, 48], [1, 2])\nt1 = prims.neg(t0)", "t1", 4 },
  { "flip", { { "a", F32, 2, { 8, 16 } } }, 1, "t0 = prims.flip(a, (0, 1))\nt1 = prims.neg(t0)", "t1", 4 },
  { "take rows", { { "w", BF16, 2, { 50, 32 } }, { "i", I64, 1, { 24 }, 0, DOM_INDEX, 50 } }, 2, "t0 = prims.take(w, i, 0)\nt1 = prims.neg(t0)", "t1", 8 },
  { "take_along_axis", { { "a", F32, 2, { 12, 32 } }, { "i", I64, 2, { 12, 16 }, 0, DOM_INDEX, 32 } }, 2, "t0 = prims.take_along_axis(a, i, 1)", "t0", 4 },
  { "cat inner", { { "a", BF16, 2, { 4, 12 } }, { "b", BF16, 2, { 4, 20 } } }, 2, "t0 = prims.cat([a, b], 1)\nt1 = prims.neg(t0)", "t1", 8 },
  { "cat inner aligned", { { "a", BF16, 2, { 4, 16 } }, { "b", BF16, 2, { 4, 24 } } }, 2, "t0 = prims.cat([a, b], 1)\nt1 = prims.neg(t0)", "t1", 8 },
  { "rotate_half", { { "x", BF16, 3, { 2, 4, 32 } }, { "c", BF16, 2, { 4, 32 } } }, 2, "t0 = prims.slice_prim(x, [0, 0, 0], [2, 4, 16], [1, 1, 1])\nt1 = prims.slice_prim(x, [0, 0, 16], [2, 4, 32], [1, 1, 1])\n"
                                                                                       "t2 = prims.neg(t1)\nt3 = prims.cat([t2, t0], -1)\nt4 = prims.broadcast_in_dim(c, (2, 4, 32), (1, 2))\n"
                                                                                       "t5 = prims.convert_element_type(t3, dtypes.float32)\nt6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.mul(t5, t6)\n"
                                                                                       "t8 = prims.convert_element_type(x, dtypes.float32)\nt9 = prims.add(t7, t8)\nt10 = prims.convert_element_type(t9, dtypes.bfloat16)",
    "t10",
    8 },
  /* rotate-half of rows of 128: branches at column 64, so warps of 4 rows x 8 vectors (emit_vector_loop) */
  { "rotate_half, warps of 4 rows", { { "x", BF16, 3, { 6, 8, 128 } }, { "c", BF16, 2, { 8, 128 } } }, 2, "t0 = prims.slice_prim(x, [0, 0, 0], [6, 8, 64], [1, 1, 1])\nt1 = prims.slice_prim(x, [0, 0, 64], [6, 8, 128], [1, 1, 1])\n"
                                                                                                          "t2 = prims.neg(t1)\nt3 = prims.cat([t2, t0], -1)\nt4 = prims.broadcast_in_dim(c, (6, 8, 128), (1, 2))\n"
                                                                                                          "t5 = prims.convert_element_type(t3, dtypes.float32)\nt6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.mul(t5, t6)\n"
                                                                                                          "t8 = prims.convert_element_type(x, dtypes.float32)\nt9 = prims.add(t7, t8)\nt10 = prims.convert_element_type(t9, dtypes.bfloat16)",
    "t10",
    8 },
  { "cat outer", { { "a", BF16, 2, { 3, 16 } }, { "b", BF16, 2, { 5, 16 } } }, 2, "t0 = prims.cat([a, b, a], 0)\nt1 = prims.neg(t0)", "t1", 8 },
  { "pad", { { "a", F32, 2, { 6, 13 } } }, 1, "t0 = prims.pad(a, 0.5, [(1, 1, 1), (2, 1, 0)])", "t0", 4 },
  /* pads whose lanes are all inside or all padding (vec_pad, wb-cuda-codegen-emit-index.c): rotate-half's backward, rows, inside cat */
  { "pad halves", { { "x", BF16, 3, { 2, 4, 32 } } }, 1, "t0 = prims.slice_prim(x, [0, 0, 16], [2, 4, 32], [1, 1, 1])\nt1 = prims.pad(t0, 0.0, [(0, 0, 0), (0, 0, 0), (0, 16, 0)])\n"
                                                         "t2 = prims.slice_prim(x, [0, 0, 0], [2, 4, 16], [1, 1, 1])\nt3 = prims.neg(t2)\nt4 = prims.pad(t3, 0.0, [(0, 0, 0), (0, 0, 0), (16, 0, 0)])\n"
                                                         "t5 = prims.convert_element_type(t1, dtypes.float32)\nt6 = prims.convert_element_type(t4, dtypes.float32)\nt7 = prims.add(t5, t6)\n"
                                                         "t8 = prims.convert_element_type(t7, dtypes.bfloat16)",
    "t8",
    8 },
  { "pad rows", { { "a", BF16, 2, { 3, 16 } } }, 1, "t0 = prims.pad(a, -1.5, [(2, 1, 0), (0, 0, 0)])\nt1 = prims.neg(t0)", "t1", 8 },
  { "pad unaligned", { { "a", BF16, 2, { 4, 32 } } }, 1, "t0 = prims.pad(a, 1.5, [(0, 0, 0), (3, 5, 0)])\nt1 = prims.neg(t0)", "t1", 8 },
  { "pad in cat", { { "a", BF16, 3, { 4, 2, 16 } }, { "b", BF16, 3, { 4, 1, 32 } } }, 2, "t0 = prims.pad(a, 0.0, [(0, 0, 0), (0, 0, 0), (16, 0, 0)])\nt1 = prims.cat([t0, b], 1)\nt2 = prims.neg(t1)", "t2", 8 },
  /* cat pieces the same up to their inputs, one branch through pointers chosen per thread
   * (wb-cuda-codegen-select.c): rotary-like pieces of extent 1 sharing an input, with pads; pieces of 16 along
   * the vector dim (the index inside a piece); pieces of 3 rows along an outer dim */
  { "cat select rotary", { { "q", BF16, 3, { 4, 1, 32 } }, { "k", BF16, 3, { 4, 1, 32 } }, { "c", BF16, 3, { 4, 1, 32 } } }, 3, "t0 = prims.convert_element_type(q, dtypes.float32)\nt1 = prims.convert_element_type(c, dtypes.float32)\nt2 = prims.mul(t0, t1)\n"
                                                                                                                                "t3 = prims.slice_prim(q, [0, 0, 16], [4, 1, 32], [1, 1, 1])\nt4 = prims.pad(t3, 0.0, [(0, 0, 0), (0, 0, 0), (0, 16, 0)])\n"
                                                                                                                                "t5 = prims.convert_element_type(t4, dtypes.float32)\nt6 = prims.add(t2, t5)\nt7 = prims.convert_element_type(t6, dtypes.bfloat16)\n"
                                                                                                                                "t10 = prims.convert_element_type(k, dtypes.float32)\nt12 = prims.mul(t10, t1)\n"
                                                                                                                                "t13 = prims.slice_prim(k, [0, 0, 16], [4, 1, 32], [1, 1, 1])\nt14 = prims.pad(t13, 0.0, [(0, 0, 0), (0, 0, 0), (0, 16, 0)])\n"
                                                                                                                                "t15 = prims.convert_element_type(t14, dtypes.float32)\nt16 = prims.add(t12, t15)\nt17 = prims.convert_element_type(t16, dtypes.bfloat16)\n"
                                                                                                                                "t20 = prims.cat([t7, t17, q], 1)\nt21 = prims.neg(t20)",
    "t21",
    8 },
  /* bf16 ops two lanes to a word (wb-cuda-codegen-pair.c) against the scalar loop's f32, bit for bit, over every
   * bf16 bit pattern (NaNs, infinities, subnormals; a against its rows reversed): mul, sub, add, a number, a
   * negation, three outputs; then the rotary backward's form (products, a negated pad, a pad, sums, cat) */
  { "bf16x2 every bit pattern", { { "a", BF16, 2, { 256, 256 }, 0, DOM_BITS } }, 1, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.flip(a, (0,))\n"
                                                                                    "t2 = prims.convert_element_type(t1, dtypes.float32)\nt3 = prims.mul(t0, t2)\nt4 = prims.convert_element_type(t3, dtypes.bfloat16)\n"
                                                                                    "t5 = prims.convert_element_type(t4, dtypes.float32)\nt6 = prims.sub(t5, t2)\nt7 = prims.convert_element_type(t6, dtypes.bfloat16)\n"
                                                                                    "t8 = prims.convert_element_type(t7, dtypes.float32)\nt9 = prims.add(t8, t0)\nt10 = prims.convert_element_type(t9, dtypes.bfloat16)\n"
                                                                                    "t11 = prims.convert_element_type(t10, dtypes.float32)\nt12 = prims.mul(t11, 0.5)\nt13 = prims.convert_element_type(t12, dtypes.bfloat16)\n"
                                                                                    "t14 = prims.convert_element_type(t13, dtypes.float32)\nt15 = prims.neg(t14)\nt16 = prims.convert_element_type(t15, dtypes.bfloat16)",
    "t4, t7, t16",
    8 },
  { "bf16x2 rotary backward", { { "g", BF16, 3, { 64, 2, 128 }, 0, DOM_BITS }, { "c", BF16, 2, { 2, 128 }, 0, DOM_BITS } }, 2, "t0 = prims.broadcast_in_dim(c, (64, 2, 128), (1, 2))\nt1 = prims.convert_element_type(t0, dtypes.float32)\nt2 = prims.convert_element_type(g, dtypes.float32)\n"
                                                                                                                               "t3 = prims.mul(t1, t2)\nt4 = prims.convert_element_type(t3, dtypes.bfloat16)\nt5 = prims.slice_prim(t4, [0, 0, 0], [64, 2, 64], [1, 1, 1])\n"
                                                                                                                               "t6 = prims.convert_element_type(t5, dtypes.float32)\nt7 = prims.neg(t6)\nt8 = prims.convert_element_type(t7, dtypes.bfloat16)\n"
                                                                                                                               "t9 = prims.pad(t8, 0.0, [(0, 0, 0), (0, 0, 0), (64, 0, 0)])\nt10 = prims.slice_prim(t4, [0, 0, 64], [64, 2, 128], [1, 1, 1])\n"
                                                                                                                               "t11 = prims.pad(t10, 0.0, [(0, 0, 0), (0, 0, 0), (0, 64, 0)])\nt12 = prims.convert_element_type(t4, dtypes.float32)\n"
                                                                                                                               "t13 = prims.convert_element_type(t9, dtypes.float32)\nt14 = prims.add(t12, t13)\nt15 = prims.convert_element_type(t14, dtypes.bfloat16)\n"
                                                                                                                               "t16 = prims.convert_element_type(t15, dtypes.float32)\nt17 = prims.convert_element_type(t11, dtypes.float32)\nt18 = prims.add(t16, t17)\n"
                                                                                                                               "t19 = prims.convert_element_type(t18, dtypes.bfloat16)\nt20 = prims.cat([t19, g], 1)",
    "t20",
    8 },
  { "cat select inner", { { "a", BF16, 2, { 4, 16 } }, { "b", BF16, 2, { 4, 16 } }, { "c", BF16, 2, { 4, 16 } } }, 3, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\nt2 = prims.convert_element_type(c, dtypes.float32)\n"
                                                                                                                      "t3 = prims.add(t0, t2)\nt4 = prims.add(t1, t2)\nt5 = prims.cat([t3, t4, t2], 1)\nt6 = prims.neg(t5)",
    "t6",
    8 },
  { "cat select declined", { { "a", BF16, 3, { 4, 1, 16 } }, { "b", BF16, 3, { 4, 1, 16 } } }, 2, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\nt2 = prims.neg(t0)\n"
                                                                                                  "t3 = prims.add(t0, t2)\nt4 = prims.add(t1, t2)\nt5 = prims.cat([t3, t4], 1)\nt6 = prims.convert_element_type(t5, dtypes.bfloat16)",
    "t6",
    8 },
  { "cat select outer", { { "a", BF16, 2, { 3, 16 } }, { "b", BF16, 2, { 3, 16 } } }, 2, "t0 = prims.neg(a)\nt1 = prims.neg(b)\nt2 = prims.cat([t0, t1, t0], 0)", "t2", 8 },
  /* x / c as a multiply and a correction (wb_div_by): f32 and bf16, a constant below and above 1 */
  { "div by number", { { "a", F32, 2, { 8, 32 } }, { "b", BF16, 2, { 8, 32 } } }, 2, "t0 = prims.div(a, 1.4142135623730951)\nt1 = prims.convert_element_type(b, dtypes.float32)\n"
                                                                                     "t2 = prims.div(t1, 0.1)\nt3 = prims.convert_element_type(t2, dtypes.bfloat16)",
    "t0, t3",
    8 },
  { "iota", { { "a", F32, 1, { 16 } } }, 1, "t0 = prims.iota(16, start=3, step=2, device=devices.Device(\"cuda:0\"), dtype=dtypes.int64)\nt1 = prims.convert_element_type(t0, dtypes.float32)\nt2 = prims.add(a, t1)", "t2", 4 },
  { "padded rows", { { "a", BF16, 2, { 8, 64 }, 72 } }, 1, "t0 = prims.neg(a)", "t0", 8 },
  { "padded rows unaligned", { { "a", BF16, 2, { 8, 64 }, 68 } }, 1, "t0 = prims.neg(a)", "t0", 8 },
  { "inner 12", { { "a", BF16, 2, { 5, 12 } } }, 1, "t0 = prims.neg(a)", "t0", 4 },
  { "inner odd", { { "a", BF16, 2, { 7, 37 } } }, 1, "t0 = prims.neg(a)", "t0", 0 },
  { "softmax tail", { { "a", F32, 2, { 8, 64 } } }, 1, "t0 = prims.amax(a, (1,))\nt1 = prims.broadcast_in_dim(t0, (8, 64), (0,))\nt2 = prims.sub(a, t1)\nt3 = prims.exp(t2)", "t3", 4 },
  { "outputs viewing an output", { { "a", BF16, 3, { 4, 6, 16 } } }, 1, "t0 = prims.neg(a)\nt1 = prims.reshape(t0, (24, 16))\nt2 = prims.transpose(t1, (1, 0))", "t0, t1, t2", 8 },
  /* row reductions: V consecutive elements per thread and step (one order for both loops of the kernel) */
  { "row sum bf16", { { "a", BF16, 2, { 5, 1000 }, 0, DOM_POS } }, 1, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.sum(t0, (1,))", "t1", 8 },
  { "row sum f32 long", { { "a", F32, 2, { 3, 4096 }, 0, DOM_POS } }, 1, "t0 = prims.sum(a, (1,))", "t0", 4 },
  { "row sum short", { { "a", F32, 2, { 40, 8 }, 0, DOM_POS } }, 1, "t0 = prims.sum(a, (1,))", "t0", 4 },
  { "row sum two dims", { { "a", F32, 3, { 3, 6, 16 }, 0, DOM_POS } }, 1, "t0 = prims.sum(a, (1, 2))", "t0", 4 },
  { "sum all", { { "a", F32, 2, { 6, 16 }, 0, DOM_POS } }, 1, "t0 = prims.sum(a, (0, 1))", "t0", 4 },
  { "row sum i64", { { "a", I64, 2, { 6, 32 }, 0, DOM_INT } }, 1, "t0 = prims.sum(a, (1,))", "t0", 2 },
  { "row sum transposed", { { "a", F32, 2, { 16, 24 }, 0, DOM_POS } }, 1, "t0 = prims.transpose(a, (1, 0))\nt1 = prims.sum(t0, (1,))", "t1", 4 },
  { "row sum odd", { { "a", F32, 2, { 5, 37 }, 0, DOM_POS } }, 1, "t0 = prims.sum(a, (1,))", "t0", 0 },
  /* mixed kernels (wb-cuda-codegen-mix.c): a row sum and the column sums over the same elements in one kernel, the
   * column partials combined by the last blocks (4, 8 or 16 bytes a load: 512, 4096 and 8192 columns); rows of one
   * warp (512), and rows of 4096 or 8192 whose element output reads no row sum (the row sums added after the walk,
   * the rows over fewer blocks) */
  { "mixed rows of a warp", { { "a", BF16, 2, { 600, 512 }, 0, DOM_POS }, { "b", BF16, 2, { 600, 512 }, 0, DOM_POS } }, 2, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.convert_element_type(b, dtypes.float32)\nt2 = prims.mul(t0, t1)\n"
                                                                                                                           "t3 = prims.sum(t2, (0,))\nt4 = prims.convert_element_type(t3, dtypes.bfloat16)\nt5 = prims.sum(t2, (1,))\nt6 = prims.broadcast_in_dim(t5, (600, 512), (0,))\n"
                                                                                                                           "t7 = prims.sub(t1, t6)\nt8 = prims.convert_element_type(t7, dtypes.bfloat16)",
    "t8, t5, t4",
    8 },
  /* llama_layer's RMS-norm backward (nvrtcFusion10): the column sums read 8 bytes an element, the row kernel would move
   * 10, 67 MB (wb-cuda-codegen-mix.c, defer_ok); then its element output of [2048, 4096] beside an operand of
   * [1, 2048, 4096] */
  { "mixed rows of 4096, row sums after the walk", { { "a", BF16, 2, { 2048, 4096 }, 0, DOM_POS }, { "b", BF16, 2, { 2048, 4096 }, 0, DOM_POS }, { "c", BF16, 2, { 2048, 4096 }, 0, DOM_POS }, { "d", BF16, 2, { 2048, 4096 }, 0, DOM_POS } }, 4, WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7"), "t8, t6, t5, t4", 8 },
  { "mixed rows of 4096, unit dims", { { "a", BF16, 3, { 1, 2048, 4096 }, 0, DOM_POS }, { "b", BF16, 3, { 1, 2048, 4096 }, 0, DOM_POS }, { "c", BF16, 3, { 1, 2048, 4096 }, 0, DOM_POS }, { "d", BF16, 3, { 1, 2048, 4096 }, 0, DOM_POS } }, 4, WB_TEST_MIXED_BODY ("(0, 1)", "(2,)", "t9 = prims.reshape(t7, (2048, 4096))\n", "t9"), "t8, t6, t5, t4", 8 },
  { "mixed rows of 8192", { { "a", BF16, 2, { 1024, 8192 }, 0, DOM_POS }, { "b", BF16, 2, { 1024, 8192 }, 0, DOM_POS }, { "c", BF16, 2, { 1024, 8192 }, 0, DOM_POS }, { "d", BF16, 2, { 1024, 8192 }, 0, DOM_POS } }, 4, WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7"), "t8, t6, t5, t4", 8 },
  /* square rows: the column sums' kept-shape output t4 is [4096] like the row sums, and computed after the combine */
  { "mixed square rows", { { "a", BF16, 2, { 4096, 4096 }, 0, DOM_POS }, { "b", BF16, 2, { 4096, 4096 }, 0, DOM_POS }, { "c", BF16, 2, { 4096, 4096 }, 0, DOM_POS }, { "d", BF16, 2, { 4096, 4096 }, 0, DOM_POS } }, 4, WB_TEST_MIXED_BODY ("(0,)", "(1,)", "", "t7"), "t8, t6, t5, t4", 8 },
  /* an output of [600, 4096] that the row sum of its reshape to [1, 600, 4096] reads: computed in the row kernel */
  { "row sum reads a unit-dims output", { { "a", BF16, 3, { 1, 600, 4096 }, 0, DOM_POS }, { "b", BF16, 3, { 1, 600, 4096 }, 0, DOM_POS } }, 2, WB_TEST_ROW_READS_OUTPUT_BODY ("600", "4096"), "t4, t7", 8 },
  { "softmax bf16", { { "a", BF16, 2, { 6, 96 } } }, 1, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.amax(t0, (1,))\nt2 = prims.broadcast_in_dim(t1, (6, 96), (0,))\n"
                                                        "t3 = prims.sub(t0, t2)\nt4 = prims.exp(t3)\nt5 = prims.sum(t4, (1,))\nt6 = prims.broadcast_in_dim(t5, (6, 96), (0,))\n"
                                                        "t7 = prims.div(t4, t6)\nt8 = prims.convert_element_type(t7, dtypes.bfloat16)",
    "t8",
    8 },
  { "layer_norm f32", { { "a", F32, 2, { 4, 768 }, 0, DOM_POS } }, 1, "(t1, t2) = prims.var_mean(a, (1,), correction=0)\nt3 = prims.add(t1, 1e-05)\nt4 = prims.rsqrt(t3)\n"
                                                                      "t5 = prims.broadcast_in_dim(t2, (4, 768), (0,))\nt6 = prims.sub(a, t5)\nt7 = prims.broadcast_in_dim(t4, (4, 768), (0,))\nt8 = prims.mul(t6, t7)",
    "t8, t2, t4",
    4 },
  /* lookup tables: Thunder's exact GELU in bf16 (each op rounded to bf16, as in gpt2_block) of every bf16 value (the
   * vector loop and the scalar one, two launches: the second reuses the table), f16 with a tail of N % 8 elements, a
   * reshape, a bf16 input and an f16 output. (The f32 form, 0.5 * (x * (1 + erf (x / sqrt 2))), is no case of every
   * value: ptxas folds the multiply by 0.5 into the product (FMUL.D2), so for x above 2^127 the GPU returns x where
   * f32 arithmetic overflows to inf, as the cpu executor does; the table copies the computed kernel either way.) */
  { "table gelu bf16", { { "a", BF16, 2, { 256, 264 }, 0, DOM_BITS } }, 1, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.div(t0, 1.4142135623730951)\n"
                                                                           "t2 = prims.convert_element_type(t1, dtypes.bfloat16)\nt3 = prims.convert_element_type(t2, dtypes.float32)\nt4 = prims.erf(t3)\n"
                                                                           "t5 = prims.convert_element_type(t4, dtypes.bfloat16)\nt6 = prims.convert_element_type(t5, dtypes.float32)\nt7 = prims.mul(0.5, t6)\n"
                                                                           "t8 = prims.convert_element_type(t7, dtypes.bfloat16)\nt9 = prims.convert_element_type(t8, dtypes.float32)\nt10 = prims.add(0.5, t9)\n"
                                                                           "t11 = prims.convert_element_type(t10, dtypes.bfloat16)\nt12 = prims.convert_element_type(t11, dtypes.float32)\nt13 = prims.mul(t0, t12)\n"
                                                                           "t14 = prims.convert_element_type(t13, dtypes.bfloat16)",
    "t14",
    8,
    TRUE },
  { "table exp f16 tail", { { "a", F16, 2, { 3, 7 } } }, 1, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.exp(t0)\nt2 = prims.mul(t1, t0)\nt3 = prims.convert_element_type(t2, dtypes.float16)", "t3", 8, TRUE },
  /* a partial table: llama_layer's SiLU backward, g * s * (1 + x * (1 - s)) with s = 1 / (1 + exp (-x)), each op
   * rounded to bf16; s is a value of x alone, looked up; x runs through every bf16 value */
  { "table silu-backward bf16", { { "a", BF16, 2, { 256, 264 }, 0, DOM_BITS }, { "b", BF16, 2, { 256, 264 } } }, 2, "t0 = prims.convert_element_type(a, dtypes.float32)\nt1 = prims.neg(t0)\nt2 = prims.convert_element_type(t1, dtypes.bfloat16)\n"
                                                                                                                    "t3 = prims.convert_element_type(t2, dtypes.float32)\nt4 = prims.exp(t3)\nt5 = prims.convert_element_type(t4, dtypes.bfloat16)\n"
                                                                                                                    "t6 = prims.convert_element_type(t5, dtypes.float32)\nt7 = prims.add(1.0, t6)\nt8 = prims.convert_element_type(t7, dtypes.bfloat16)\n"
                                                                                                                    "t9 = prims.convert_element_type(t8, dtypes.float32)\nt10 = prims.div(1.0, t9)\nt11 = prims.convert_element_type(t10, dtypes.bfloat16)\n"
                                                                                                                    "t12 = prims.convert_element_type(t11, dtypes.float32)\nt13 = prims.convert_element_type(b, dtypes.float32)\nt14 = prims.mul(t13, t12)\n"
                                                                                                                    "t15 = prims.convert_element_type(t14, dtypes.bfloat16)\nt16 = prims.sub(1.0, t12)\nt17 = prims.convert_element_type(t16, dtypes.bfloat16)\n"
                                                                                                                    "t18 = prims.convert_element_type(t17, dtypes.float32)\nt19 = prims.mul(t0, t18)\nt20 = prims.convert_element_type(t19, dtypes.bfloat16)\n"
                                                                                                                    "t21 = prims.convert_element_type(t20, dtypes.float32)\nt22 = prims.add(1.0, t21)\nt23 = prims.convert_element_type(t22, dtypes.bfloat16)\n"
                                                                                                                    "t24 = prims.convert_element_type(t23, dtypes.float32)\nt25 = prims.convert_element_type(t15, dtypes.float32)\nt26 = prims.mul(t25, t24)\n"
                                                                                                                    "t27 = prims.convert_element_type(t26, dtypes.bfloat16)",
    "t27",
    8,
    TRUE },
  { "table tanh reshape", { { "a", BF16, 2, { 16, 4100 }, 0, DOM_BITS } }, 1, "t0 = prims.reshape(a, (4100, 16))\nt1 = prims.convert_element_type(t0, dtypes.float32)\nt2 = prims.tanh(t1)\n"
                                                                              "t3 = prims.add(t2, t1)\nt4 = prims.convert_element_type(t3, dtypes.float16)",
    "t4",
    8,
    TRUE },
};

static gboolean compile_only;
static char    *cache_dir;

static char *
case_text (const Case *c)
{
  GString *s = g_string_new ("@torch.no_grad()\ndef computation(");
  GString *names = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (c->body, "\n", -1);

  for (guint i = 0; i < c->n_in; i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", c->in[i].name);
  g_string_append_printf (s, "%s):\n", names->str);
  for (guint i = 0; i < c->n_in; i++)
    {
      g_string_append_printf (s, "  # %s: \"cuda:0 %s[", c->in[i].name, wb_dtype_shortname (c->in[i].dtype));
      for (guint d = 0; d < c->in[i].rank; d++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", c->in[i].shape[d]);
      g_string_append (s, "]\"\n");
    }
  g_string_append_printf (s, "  [%s] = nvrtcFusion0(%s)\n", c->outputs, names->str);
  for (guint i = 0; lines[i]; i++)
    g_string_append_printf (s, "    # %s\n", lines[i]);
  g_string_append_printf (s, "  return (%s,)\n", c->outputs);
  g_string_free (names, TRUE);
  return g_string_free (s, FALSE);
}

/* The layout of input @in: row-major, or rows @pitch elements apart. */
static void
layout_of (const Input *in, gint64 *strides, gint64 *extent)
{
  gint64 acc = 1;

  for (int d = (int) in->rank - 1; d >= 0; d--)
    {
      strides[d] = acc;
      acc *= in->pitch && d == (int) in->rank - 1 ? in->pitch : in->shape[d];
    }
  *extent = 1;
  for (guint d = 0; d < in->rank; d++)
    *extent += (in->shape[d] - 1) * strides[d];
}

static WbCudaPlan *
make_plan (const Case *c, const WbBsym *region, gboolean vector, GError **error)
{
  WbCudaArg   args[MAX_IN];
  WbCudaPlan *plan;

  for (guint i = 0; i < c->n_in; i++)
    {
      gint64 extent;
      memset (&args[i], 0, sizeof args[i]);
      args[i].kind = WB_CUDA_ARG_TENSOR;
      args[i].dtype = c->in[i].dtype;
      args[i].rank = c->in[i].rank;
      memcpy (args[i].shape, c->in[i].shape, sizeof c->in[i].shape);
      layout_of (&c->in[i], args[i].strides, &extent);
      for (guint d = 0; d < args[i].rank; d++)
        if (args[i].shape[d] == 1)
          args[i].strides[d] = 0;
    }
  if (!vector)
    g_setenv ("WB_CUDA_NO_VECTOR", "1", TRUE);
  if (c->table)
    g_setenv (vector ? "WB_CUDA_TABLE" : "WB_CUDA_NO_TABLE", vector ? "always" : "1", TRUE);
  plan = wb_cuda_plan_new_region (region, args, c->n_in, WB_CUDA_CODEGEN_DEFAULT, error);
  g_unsetenv ("WB_CUDA_NO_VECTOR");
  g_unsetenv ("WB_CUDA_TABLE");
  g_unsetenv ("WB_CUDA_NO_TABLE");
  return plan;
}

static double
draw (const Input *in)
{
  double u = g_test_rand_double_range (0.0, 1.0);

  switch (in->dom)
    {
    case DOM_INDEX:
      return g_test_rand_int_range (0, (gint32) in->bound);
    case DOM_BOOL:
      return g_test_rand_bit ();
    case DOM_INT:
      return g_test_rand_int_range (-20, 21);
    case DOM_POS:
      return 0.5 + 2.0 * u;
    default:
      return (u < 0.5 ? -1 : 1) * (0.1 + 1.9 * fabs (2 * u - 1));
    }
}

/* The results of @plan on @host (contiguous host tensors), each input stored with its layout @shift
 * elements into a device buffer; (transfer full) contiguous host tensors. */
static GPtrArray *
run_plan (WbCudaRuntime *rt, const Case *c, WbCudaPlan *plan, GPtrArray *host, gint64 shift)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  WbTensor  *inputs[3] = { NULL };
  WbTensor  *outs[16] = { NULL };
  GPtrArray *res = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);

  g_assert_cmpuint (plan->n_outputs, <=, G_N_ELEMENTS (outs));
  for (guint i = 0; i < c->n_in; i++)
    {
      const Input *in = &c->in[i];
      WbTensor    *h = host->pdata[i];
      gint64       strides[4], extent, n;
      g_autoptr (WbTensor) storage = NULL;
      g_autoptr (WbTensor) dev = NULL;
      layout_of (in, strides, &extent);
      n = extent + shift;
      storage = wb_tensor_new_zeros (in->dtype, 1, &n, &error);
      g_assert_no_error (error);
      for (gint64 k = 0; k < wb_tensor_numel (h); k++)
        {
          gint64 off = shift, rem = k;
          for (int d = (int) in->rank - 1; d >= 0; d--)
            {
              off += (rem % in->shape[d]) * strides[d];
              rem /= in->shape[d];
            }
          wb_tensor_set_f64 (storage, off, wb_tensor_get_f64 (h, k));
        }
      dev = wb_cuda_upload (rt, storage, &error);
      g_assert_no_error (error);
      inputs[i] = wb_tensor_new_view (dev, in->dtype, in->rank, in->shape, strides, shift);
      g_ptr_array_add (keep, inputs[i]);
    }
  if (!wb_cuda_plan_launch (rt, plan, inputs, outs, &error))
    g_error ("%s: %s", c->label, error->message);
  for (guint i = 0; i < plan->n_outputs; i++)
    {
      WbTensor *h = wb_cuda_download (rt, outs[i], &error);
      g_assert_no_error (error);
      g_ptr_array_add (res, h);
      wb_tensor_unref (outs[i]);
    }
  return res;
}

static gboolean
same_bits (WbTensor *a, WbTensor *b)
{
  g_autoptr (WbTensor) ca = wb_tensor_contiguous (a, NULL);
  g_autoptr (WbTensor) cb = wb_tensor_contiguous (b, NULL);

  return ca->dtype == cb->dtype && wb_tensor_nbytes (ca) == wb_tensor_nbytes (cb) &&
         memcmp (wb_tensor_get_data (ca), wb_tensor_get_data (cb), wb_tensor_nbytes (ca)) == 0;
}

static void
test_case (gconstpointer data)
{
  const Case      *c = data;
  g_autofree char *text = case_text (c);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = wb_trace_parse (text, -1, c->label, &error);
  g_autoptr (WbCudaPlan) vplan = NULL;
  g_autoptr (WbCudaPlan) splan = NULL;
  const WbBsym  *region = NULL;
  const char    *vec_what = NULL;
  gboolean       reorders = FALSE; /* a vectorised reduction: sums in another order than the scalar plan */
  WbCudaRuntime *rt;

  g_assert_no_error (error);
  for (guint i = 0; i < trace->n_body; i++)
    if (wb_bsym_is_fusion (trace->body[i]))
      region = trace->body[i];
  g_assert_nonnull (region);
  if ((vplan = make_plan (c, region, TRUE, &error)) == NULL || (splan = make_plan (c, region, FALSE, &error)) == NULL)
    g_error ("%s: %s\n%s", c->label, error->message, text);
  g_assert_cmpuint (vplan->n_kernels, >, 0);
  vec_what = vplan->kernels[0].what;
  if (c->table)
    {
      /* the builder (once, into a kept table buffer), then the lookup kernel: 128 KiB of shared memory */
      guint tables = 0;
      g_assert_cmpuint (vplan->n_kernels, ==, 2);
      g_assert_true (vplan->kernels[0].once);
      for (guint b = 0; b < vplan->n_buffers; b++)
        if (vplan->buffers[b].table)
          {
            g_assert_cmpint (vplan->buffers[b].numel, ==, 65536);
            tables++;
          }
      g_assert_cmpuint (tables, ==, 1);
      if (c->n_in > 1) /* a partial table: the pointwise kernel looks one value up */
        g_assert_nonnull (strstr (vplan->kernels[1].what, "looks up a value of in0"));
      g_assert_cmpuint (vplan->kernels[1].smem_bytes, ==, 131072);
      g_assert_cmpuint (vplan->kernels[1].block, ==, 1024);
      g_assert_false (vplan->kernels[1].once);
      g_assert_cmpuint (splan->n_kernels, ==, 1);
      vec_what = vplan->kernels[1].what;
    }
  for (guint k = 0; k < vplan->n_kernels; k++)
    if (!g_str_has_prefix (vplan->kernels[k].what, "pointwise") && strstr (vplan->kernels[k].what, "vector"))
      reorders = TRUE;
  if (c->vec)
    {
      g_autofree char *expect = g_strdup_printf ("vector: %u per thread", c->vec);
      if (strstr (vec_what, expect) == NULL)
        g_error ("%s: %s, expected %s\n%s", c->label, vec_what, expect, vplan->source);
    }
  else
    g_assert_null (strstr (vec_what, "vector"));
  for (guint k = 0; k < splan->n_kernels; k++)
    g_assert_null (strstr (splan->kernels[k].what, "vector"));
  if (strstr (c->label, "warps of 4 rows") != NULL)
    g_assert_nonnull (strstr (vplan->kernels[0].what, "vector: 8 per thread when aligned, warps of 4 rows x 8 vectors"));
  if (g_str_has_prefix (c->label, "bf16x2"))
    g_assert_nonnull (strstr (vplan->source, "wb_bf16x2_mul ("));
  if (compile_only)
    {
      if (wb_cuda_load_nvrtc (NULL) == NULL)
        {
          g_test_skip ("NVRTC is not installed");
          return;
        }
      for (int v = 0; v < 2; v++)
        {
          g_autoptr (WbNvrtcImage) img = wb_nvrtc_compile ((v ? splan : vplan)->source, "sm_90", cache_dir, &error);
          if (img == NULL)
            g_error ("%s: %s\n%s", c->label, error->message, (v ? splan : vplan)->source);
        }
      return;
    }
  if ((rt = wb_cuda_runtime_get (&error)) == NULL)
    {
      g_test_skip (error->message);
      return;
    }
  {
    g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
    g_autoptr (GPtrArray) tensors = g_ptr_array_new ();
    g_autoptr (GPtrArray) aligned = NULL;
    g_autoptr (GPtrArray) shifted = NULL;
    g_autoptr (GPtrArray) scalar = NULL;
    g_autoptr (WbProgram) program = wb_program_new (trace, NULL, &error);
    g_autoptr (WbRunResult) ref = NULL;
    GPtrArray   *ref_out = g_ptr_array_new ();
    WbRunOptions o;
    gboolean     ok = TRUE;

    g_assert_no_error (error);
    for (guint i = 0; i < c->n_in; i++)
      {
        WbTensor *t = wb_tensor_new (c->in[i].dtype, c->in[i].rank, c->in[i].shape, NULL);
        for (gint64 k = 0; k < wb_tensor_numel (t); k++)
          if (c->in[i].dom == DOM_BITS)
            ((guint16 *) wb_tensor_get_data (t))[k] = (guint16) ((k * 40503 + 7) & 0xffff);
          else
            wb_tensor_set_f64 (t, k, draw (&c->in[i]));
        g_ptr_array_add (host, wb_rt_value_take_tensor (t));
        g_ptr_array_add (tensors, t);
      }
    aligned = run_plan (rt, c, vplan, tensors, 0);
    shifted = run_plan (rt, c, vplan, tensors, 1);
    scalar = run_plan (rt, c, splan, tensors, 0);
    wb_run_options_init (&o);
    wb_program_assign (program, NULL, wb_executor_lookup ("cpu"));
    ref = wb_program_run (program, &o, host, NULL, &error);
    if (ref == NULL)
      g_error ("%s (cpu): %s", c->label, error->message);
    for (guint i = 0; i < ref->outputs->len; i++)
      {
        WbRtValue *v = ref->outputs->pdata[i];
        if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST)
          for (guint j = 0; j < v->items->len; j++)
            g_ptr_array_add (ref_out, ((WbRtValue *) v->items->pdata[j])->tensor);
        else
          g_ptr_array_add (ref_out, v->tensor);
      }
    g_assert_cmpuint (ref_out->len, ==, aligned->len);
    for (guint i = 0; i < aligned->len; i++)
      {
        WbCompareResult res;
        double          rtol, atol;
        if (!same_bits (aligned->pdata[i], shifted->pdata[i]))
          g_test_fail_printf ("%s: output %u: the vector loop and the scalar loop of the same kernel differ", c->label, i), ok = FALSE;
        wb_dtype_default_tolerance (((WbTensor *) ref_out->pdata[i])->dtype, &rtol, &atol);
        if (reorders)
          {
            if (!wb_tensor_compare (aligned->pdata[i], scalar->pdata[i], rtol, atol, FALSE, &res, &error))
              g_error ("%s: %s", c->label, error->message);
            if (res.mismatches > 0)
              g_test_fail_printf ("%s: output %u: the vector plan and the WB_CUDA_NO_VECTOR plan differ beyond the tolerance", c->label, i), ok = FALSE;
          }
        else if (!same_bits (aligned->pdata[i], scalar->pdata[i]))
          g_test_fail_printf ("%s: output %u: the vector plan and the WB_CUDA_NO_VECTOR plan differ", c->label, i), ok = FALSE;
        if (!wb_tensor_compare (aligned->pdata[i], ref_out->pdata[i], rtol, atol, FALSE, &res, &error))
          g_error ("%s: %s", c->label, error->message);
        if (res.mismatches > 0)
          {
            g_autoptr (WbTensor) ca = wb_tensor_contiguous (aligned->pdata[i], NULL);
            g_autoptr (WbTensor) cr = wb_tensor_contiguous (ref_out->pdata[i], NULL);
            g_test_fail_printf ("%s: output %u: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " elements outside the tolerance of the cpu's, the first at %" G_GINT64_FORMAT
                                ": %.9g (cpu %.9g), first input %.9g",
                                c->label, i, res.mismatches, res.n, res.first_mismatch, wb_tensor_get_f64 (ca, res.first_mismatch), wb_tensor_get_f64 (cr, res.first_mismatch),
                                wb_tensor_get_f64 (tensors->pdata[0], res.first_mismatch % wb_tensor_numel (tensors->pdata[0])));
            ok = FALSE;
          }
      }
    g_ptr_array_unref (ref_out);
    if (!ok)
      g_test_message ("%s\n%s", text, vplan->source);
  }
}

/* The plan (default flags) of the last fusion region of the trace @text, parsed as @label into *@trace (transfer
 * full, both); the test fails on an error. */
static WbCudaPlan *
plan_of_text (const char *text, const char *label, WbTrace **trace)
{
  g_autoptr (GError) error = NULL;
  const WbBsym *region = NULL;
  WbCudaPlan   *plan;

  *trace = wb_trace_parse (text, -1, label, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < (*trace)->n_body; i++)
    if (wb_bsym_is_fusion ((*trace)->body[i]))
      region = (*trace)->body[i];
  plan = wb_cuda_plan_new_annotated (*trace, region, WB_CUDA_CODEGEN_DEFAULT, &error);
  g_assert_no_error (error);
  return plan;
}

/* A device limit the nvrtc executor builds around (WB_CUDA_CODEGEN_NO_WAIT, _NO_TABLE): case @label's plan (built
 * with @table_env set as WB_CUDA_TABLE, when not NULL) holds a kernel that needs more than the device is said to
 * give (@cap_var set to @refused); wb_cuda_plan_launch refuses it before launching anything with @code, naming the
 * kernel and @phrase, and accepts it at @accepted; under @cap_var = @fallback the executor builds the region again
 * (@kernels kernels), says so in its stats and matches the cpu executor. */
typedef struct
{
  const char *label, *table_env, *cap_var, *refused, *accepted, *fallback, *phrase;
  int         code;
  guint       kernels, outputs;
} Limit;

static void
test_device_limit (gconstpointer data)
{
  const Limit     *lim = data;
  const Case      *c = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) host = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) dev = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) ref_out = g_ptr_array_new ();
  g_autoptr (GPtrArray) got_out = g_ptr_array_new ();
  g_autoptr (WbRunResult) ref = NULL;
  g_autoptr (WbRunResult) got = NULL;
  WbTensor                  *inputs[MAX_IN] = { NULL };
  WbTensor                  *outs[16] = { NULL };
  const WbCudaDispatchStats *stats;
  WbCudaRuntime             *rt;
  WbExecutor                *exec;
  WbRunOptions               o;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    if (strcmp (cases[i].label, lim->label) == 0)
      c = &cases[i];
  g_assert_nonnull (c);
  if (compile_only || (rt = wb_cuda_runtime_get (&error)) == NULL)
    {
      g_test_skip (compile_only ? "needs a GPU" : error->message);
      return;
    }
  if (lim->table_env != NULL)
    g_setenv ("WB_CUDA_TABLE", lim->table_env, TRUE);
  text = case_text (c);
  plan = plan_of_text (text, c->label, &trace);
  for (guint i = 0; i < c->n_in; i++)
    {
      g_autoptr (WbTensor) t = wb_tensor_new (c->in[i].dtype, c->in[i].rank, c->in[i].shape, NULL);
      WbTensor *d;
      for (gint64 k = 0; k < wb_tensor_numel (t); k++)
        if (c->in[i].dom == DOM_BITS)
          ((guint16 *) wb_tensor_get_data (t))[k] = (guint16) ((k * 40503 + 7) & 0xffff);
        else
          wb_tensor_set_f64 (t, k, draw (&c->in[i]));
      d = wb_cuda_upload (rt, t, &error);
      g_assert_no_error (error);
      inputs[i] = d;
      g_ptr_array_add (host, wb_rt_value_new_tensor (t));
      g_ptr_array_add (dev, wb_rt_value_take_tensor (d));
    }

  g_setenv (lim->cap_var, lim->refused, TRUE);
  g_assert_false (wb_cuda_plan_launch (rt, plan, inputs, outs, &error));
  g_assert_error (error, WB_CUDA_ERROR, lim->code);
  g_assert_true (g_str_has_prefix (error->message, "wb_k")); /* the kernel's entry, then what it is */
  if (strstr (error->message, lim->phrase) == NULL)
    g_error ("%s: %s", lim->label, error->message);
  g_assert_null (outs[0]);
  g_clear_error (&error);
  g_setenv (lim->cap_var, lim->accepted, TRUE);
  g_assert_true (wb_cuda_plan_launch (rt, plan, inputs, outs, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < plan->n_outputs; i++)
    g_clear_pointer (&outs[i], wb_tensor_unref);

  program = wb_program_new (trace, NULL, &error);
  g_assert_no_error (error);
  wb_run_options_init (&o);
  wb_program_assign (program, NULL, wb_executor_lookup ("cpu"));
  ref = wb_program_run (program, &o, host, NULL, &error);
  g_assert_no_error (error);
  exec = wb_cuda_executor_get ("nvrtc", &error);
  g_assert_no_error (error);
  wb_program_assign (program, NULL, exec);
  g_setenv (lim->cap_var, lim->fallback, TRUE);
  wb_cuda_executors_begin_run ();
  got = wb_program_run (program, &o, dev, NULL, &error);
  g_unsetenv (lim->cap_var);
  g_unsetenv ("WB_CUDA_TABLE");
  g_assert_no_error (error);
  stats = wb_cuda_executors_get_stats ();
  g_assert_cmpuint (stats->regions_fused, ==, 1);
  g_assert_cmpuint (stats->device_rebuilds, ==, 1);
  g_assert_cmpuint (stats->plan_kernels, ==, lim->kernels);
  g_assert_cmpuint (stats->fallbacks, ==, 0);
  g_assert_nonnull (stats->device_rebuild_reason);
  g_assert_true (g_str_has_prefix (stats->device_rebuild_reason, "nvrtcFusion0: wb_k"));
  for (guint i = 0; i < ref->outputs->len; i++)
    {
      WbRtValue *r = ref->outputs->pdata[i], *g = got->outputs->pdata[i];
      if (r->kind == WB_RT_TUPLE || r->kind == WB_RT_LIST)
        for (guint j = 0; j < r->items->len; j++)
          {
            g_ptr_array_add (ref_out, ((WbRtValue *) r->items->pdata[j])->tensor);
            g_ptr_array_add (got_out, ((WbRtValue *) g->items->pdata[j])->tensor);
          }
      else
        {
          g_ptr_array_add (ref_out, r->tensor);
          g_ptr_array_add (got_out, g->tensor);
        }
    }
  g_assert_cmpuint (got_out->len, ==, lim->outputs);
  for (guint i = 0; i < ref_out->len; i++)
    {
      g_autoptr (WbTensor) h = wb_cuda_download (rt, got_out->pdata[i], &error);
      WbCompareResult res;
      double          rtol, atol;
      g_assert_no_error (error);
      wb_dtype_default_tolerance (((WbTensor *) ref_out->pdata[i])->dtype, &rtol, &atol);
      g_assert_true (wb_tensor_compare (h, ref_out->pdata[i], rtol, atol, FALSE, &res, &error));
      g_assert_no_error (error);
      if (res.mismatches > 0)
        g_test_fail_printf ("%s: output %u: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " elements outside the tolerance", lim->label, i, res.mismatches,
                            res.n);
    }
  wb_cuda_executors_end_run ();
}

/* A region that reads 80 tensors (densenet121's recomputed backward has one of 77): its kernel takes 81 slot
 * pointers, and wb_cuda_plan_launch passes them all (it once had room for 64 and refused the region). The sum of
 * x_k = k + j / 1000 over k, for each of the 256 elements j, equals the cpu's. */
static void
test_many_parameters (void)
{
  enum
  {
    N = 80,
    LEN = 256
  };
  GString *text = g_string_new ("@torch.no_grad()\ndef computation(");
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) trace = NULL;
  g_autoptr (WbCudaPlan) plan = NULL;
  g_autoptr (GPtrArray) dev = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  g_autoptr (WbTensor) got = NULL;
  WbTensor      *outs[1] = { NULL };
  WbCudaRuntime *rt;
  gint64         len = LEN;

  for (guint k = 0; k < N; k++)
    g_string_append_printf (text, "%sx%u", k ? ", " : "", k);
  g_string_append (text, "):\n");
  for (guint k = 0; k < N; k++)
    g_string_append_printf (text, "  # x%u: \"cuda:0 f32[%d]\"\n", k, LEN);
  g_string_append_printf (text, "  [t%d] = nvrtcFusion0(", N - 2);
  for (guint k = 0; k < N; k++)
    g_string_append_printf (text, "%sx%u", k ? ", " : "", k);
  g_string_append (text, ")\n    # t0 = prims.add(x0, x1)\n");
  for (guint k = 1; k + 1 < N; k++)
    g_string_append_printf (text, "    # t%u = prims.add(t%u, x%u)\n", k, k - 1, k + 1);
  g_string_append_printf (text, "  return (t%d,)\n", N - 2);
  plan = plan_of_text (text->str, "many parameters", &trace);
  g_string_free (text, TRUE);
  g_assert_cmpuint (plan->n_kernels, ==, 1);
  g_assert_cmpuint (plan->kernels[0].n_params, ==, N + 1);
  if (compile_only || (rt = wb_cuda_runtime_get (&error)) == NULL)
    {
      g_test_skip (compile_only ? "needs a GPU" : error->message);
      return;
    }
  for (guint k = 0; k < N; k++)
    {
      g_autoptr (WbTensor) h = wb_tensor_new (WB_DTYPE_FLOAT32, 1, &len, NULL);
      for (gint64 j = 0; j < LEN; j++)
        wb_tensor_set_f64 (h, j, k + j / 1000.0);
      g_ptr_array_add (dev, wb_cuda_upload (rt, h, &error));
      g_assert_no_error (error);
    }
  g_assert_true (wb_cuda_plan_launch (rt, plan, (WbTensor *const *) dev->pdata, outs, &error));
  g_assert_no_error (error);
  got = wb_cuda_download (rt, outs[0], &error);
  g_assert_no_error (error);
  wb_tensor_unref (outs[0]);
  for (gint64 j = 0; j < LEN; j++)
    {
      float want = 0;
      for (guint k = 0; k < N; k++)
        want += (float) (k + j / 1000.0);
      g_assert_cmpfloat_with_epsilon (wb_tensor_get_f64 (got, j), want, 1e-3);
    }
}

/* the mixed kernel of "mixed rows of 4096": 64 combiners wait for its 264 blocks; on a GPU of 20 SMs (40 blocks)
 * the column kernel and the row kernel. The partial table of "table silu-backward bf16" (WB_CUDA_TABLE=always):
 * 128 KiB of shared memory a block; with 99 KiB (sm_86, sm_89) the computed kernel alone. */
static const Limit limits[] = {
  { "mixed rows of 4096, row sums after the walk", NULL, "WB_CUDA_RESIDENT_BLOCKS", "63", "64", "40", "64 of them must be resident at once; ",
    WB_CUDA_ERROR_RESIDENT, 2, 4 },
  { "table silu-backward bf16", "always", "WB_CUDA_SHARED_OPTIN_BYTES", "131071", "131072", "101376", "asks for 131072 bytes of shared memory a block",
    WB_CUDA_ERROR_SHARED_MEMORY, 1, 1 },
};

int
main (int argc, char **argv)
{
  int rc;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--compile-only") == 0)
      compile_only = TRUE;
  g_test_init (&argc, &argv, NULL);
  cache_dir = g_dir_make_tmp ("wb-vector-XXXXXX", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/cuda/vector/%s", cases[i].label);
      g_strdelimit (path + 1, " +", '-');
      g_test_add_data_func (path, &cases[i], test_case);
    }
  g_test_add_data_func ("/cuda/vector/resident-fallback", &limits[0], test_device_limit);
  g_test_add_data_func ("/cuda/vector/shared-memory-fallback", &limits[1], test_device_limit);
  g_test_add_func ("/cuda/vector/many-parameters", test_many_parameters);
  rc = g_test_run ();
  {
    /* the cache directory: its entries, then itself */
    GDir       *d = g_dir_open (cache_dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name (d)))
      {
        g_autofree char *p = g_build_filename (cache_dir, n, NULL);
        g_remove (p);
      }
    if (d)
      g_dir_close (d);
    g_rmdir (cache_dir);
  }
  g_free (cache_dir);
  return rc;
}
