/* wb-test-conformance.h — the cases of the CUDA conformance tests and their runner (test-cuda-conformance*.c)
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
 * and the fused kernels of its dtype and head dim (wb_cuda_flash_source), and runs the cpu side.
 *
 * test-cuda-conformance.c            elementwise ops, conversions, chains, reductions, shapes and
 *                                    indexing, matmul and linear, the hand-written kernels
 * test-cuda-conformance-attention.c  the attention ops, and where the attention calls of real
 *                                    cases run */
#pragma once

#include "wb-cuda-toolkit.h"

G_BEGIN_DECLS

typedef enum
{
  WB_CONF_DOM_ANY = 1, /* [-2, -0.1] u [0.1, 2] */
  WB_CONF_DOM_POS,     /* [0.5, 2.5] */
  WB_CONF_DOM_UNIT,    /* [-0.9, 0.9] without (-0.05, 0.05) */
  WB_CONF_DOM_INT,     /* integers in [-20, 20] without 0 */
  WB_CONF_DOM_SHIFT,   /* integers in [0, 6] */
  WB_CONF_DOM_BOOL,    /* 0 or 1 */
  WB_CONF_DOM_INDEX,   /* integers in [0, bound) */
  WB_CONF_DOM_SMALL,   /* [0.8, 1.2] (products) */
} WbConfDomain;

typedef struct
{
  const char  *name;
  WbDtype      dtype;
  guint        rank;
  gint64       shape[5];
  WbConfDomain dom;
  gint64       bound;
} WbConfInput;

typedef struct
{
  char       *label;    /* "cuda prims.add f32" */
  const char *executor; /* cuda, nvrtc, cublas */
  WbConfInput in[4];
  guint       n_in;
  char       *body;            /* lines "t0 = prims.add(a, b)" separated by \n */
  char       *outputs;         /* "t0" or "t0, t1" */
  gboolean    region;          /* wrap the body in nvrtcFusion0 */
  WbDtype     attention;       /* an attention case: the dtype of its row kernels (WB_DTYPE_UNKNOWN otherwise) */
  double      attention_scale; /* an attention case: its scale (the default's value when None) */
  double      tol_mult;        /* the dtype's tolerance times this (0: 1) */
  gboolean    kernel;          /* a hand-written kernel of the cuda executor (wb-cuda-kernels.h): one op, no region */
  gboolean    exact;           /* compare bit for bit (random draws) */
} WbConfCase;

/* the float and integer dtypes most cases run in */
extern const WbDtype wb_conf_float_dtypes[4];
extern const WbDtype wb_conf_int_dtypes[4];

/* wb_conf_input: an input of rank @rank (at most 3) whose values are drawn from @dom. */
WbConfInput wb_conf_input (const char *name, WbDtype dtype, guint rank, gint64 d0, gint64 d1, gint64 d2, WbConfDomain dom);
/* wb_conf_input_shape: an input of shape @shape[@rank] (rank at most 5) whose values are drawn from @dom. */
WbConfInput wb_conf_input_shape (const char *name, WbDtype dtype, guint rank, const gint64 *shape, WbConfDomain dom);
/* wb_conf_case_new: (transfer full) the case "EXECUTOR SYMBOL DTYPE" of @body (its lines, with @n_in <= 4 inputs
 * @in) and @outputs, not yet added (wb_conf_append adds it). */
WbConfCase *wb_conf_case_new (const char *executor, const char *symbol, WbDtype dtype, const WbConfInput *in, guint n_in, const char *body, const char *outputs);
/* wb_conf_add_case: the case "EXECUTOR SYMBOL DTYPE" of @body with @outputs; on the cuda executor also its
 * nvrtc variant (the body as one fusion region). */
void wb_conf_add_case (const char *executor, const char *symbol, WbDtype dtype, const WbConfInput *in, guint n_in, const char *body, const char *outputs);
/* wb_conf_append: adds @c (transfer full) to the cases. */
void wb_conf_append (WbConfCase *c);

/* wb_conf_init: g_test_init, --compile-only, the kernel cache ($WB_KERNEL_CACHE_DIR) and an empty list of
 * cases. */
void wb_conf_init (int *argc, char ***argv);
/* wb_conf_add_tests: one test "/cuda/conformance/NNN LABEL" (spaces as '_') per case, in order. */
void wb_conf_add_tests (void);

G_END_DECLS
