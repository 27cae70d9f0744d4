/* wb-compare.h — comparing a computed tensor with a reference: max abs and relative error, allclose
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Definitions (used by `thunder-wb run --compare` and the tests):
 *   abs error  max_i |c_i - r_i|
 *   rel error  abs error / max_i |r_i|  (norm-wise; a per-element ratio is meaningless near zeros)
 *   mismatches  elements with |c_i - r_i| > atol + rtol * |r_i| (torch.allclose); NaN equals NaN and
 *               equal infinities are equal
 *   rms error   sqrt (mean_i (c_i - r_i)^2) over the pairs where both are finite (coverage's f64 judge)
 * Both tensors are read in row-major order and converted to f64. A reference with fewer elements than
 * the computed tensor (a partial ".head" tensor of the samples, or any tensor saved truncated) is
 * compared on the computed tensor's leading elements when allow_head is set. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-tensor.h"

G_BEGIN_DECLS

typedef struct
{
  gint64   n;              /* elements compared */
  gboolean head;           /* only the leading n elements (partial reference) */
  double   max_abs;        /* abs error */
  double   max_ref;        /* max |r_i| */
  double   rel;            /* rel error (0 when the reference is all zeros and so is the difference) */
  gint64   mismatches;     /* elements outside atol + rtol * |r| */
  gint64   first_mismatch; /* row-major index of the first one, -1 if none */
  double   rms;            /* sqrt (mean_i (c_i - r_i)^2) over the finite pairs */
  double   rms_ref;        /* sqrt (mean_i r_i^2) over the same pairs */
  gint64   nonfinite;      /* pairs where either side is NaN or infinite (equal ones included) */
} WbCompareResult;

/* wb_tensor_compare: compares @computed with @reference. FALSE with WB_EXECUTOR_ERROR_BAD_ARGUMENT
 * when the shapes differ (and it is not a head comparison) — dtypes may differ. */
gboolean wb_tensor_compare (const WbTensor  *computed,
                            const WbTensor  *reference,
                            double           rtol,
                            double           atol,
                            gboolean         allow_head,
                            WbCompareResult *result,
                            GError         **error);

/* wb_dtype_default_tolerance: rtol and atol for comparing results of @dtype computed two ways (different
 * kernels or accumulation orders): f64 1e-7/1e-7, f32 1e-4/1e-5, f16 1e-2/1e-3, bf16 3e-2/1e-2,
 * integers and b8 exact (0/0). `run --compare` with these defaults scales the f16/bf16 atol by max |ref|
 * when that exceeds 1 (app/wb-cli-run.c): long reductions (weight gradients) summed in another order
 * differ by about one unit in the last place of the tensor's largest elements, wherever they cancel. */
void wb_dtype_default_tolerance (WbDtype dtype, double *rtol, double *atol);
/* wb_dtype_scaled_tolerance: wb_dtype_default_tolerance with the atol raised to at least rtol * @max_ref (the
 * reference's max |value|): the rule by which coverage, `bisect` and the runner's call check hold two correct
 * programs' results, whose elements that cancel to near zero differ by about the tensor's scale's round-off. */
void wb_dtype_scaled_tolerance (WbDtype dtype, double max_ref, double *rtol, double *atol);
/* wb_compare_adds_nonfinite: whether @cmp, a comparison with @reference, counts more NaN or Inf pairs than
 * @reference holds by itself: the result computed has a NaN or Inf where the reference has none. */
gboolean wb_compare_adds_nonfinite (const WbCompareResult *cmp, const WbTensor *reference);

G_END_DECLS
