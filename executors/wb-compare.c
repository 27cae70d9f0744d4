/* wb-compare.c — tensor comparison (see wb-compare.h for the definitions)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-executors-private.h"

void
wb_dtype_default_tolerance (WbDtype dtype, double *rtol, double *atol)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
      *rtol = 1e-7, *atol = 1e-7;
      break;
    case WB_DTYPE_FLOAT32:
      *rtol = 1e-4, *atol = 1e-5;
      break;
    case WB_DTYPE_FLOAT16:
      *rtol = 1e-2, *atol = 1e-3;
      break;
    case WB_DTYPE_BFLOAT16:
      *rtol = 3e-2, *atol = 1e-2;
      break;
    default:
      *rtol = 0, *atol = 0;
      break;
    }
}

void
wb_dtype_scaled_tolerance (WbDtype dtype, double max_ref, double *rtol, double *atol)
{
  wb_dtype_default_tolerance (dtype, rtol, atol);
  *atol = MAX (*atol, *rtol * max_ref);
}

gboolean
wb_compare_adds_nonfinite (const WbCompareResult *cmp, const WbTensor *reference)
{
  WbCompareResult own;

  return cmp->nonfinite > 0 && wb_tensor_compare (reference, reference, 0, 0, FALSE, &own, NULL) && own.nonfinite < cmp->nonfinite;
}

gboolean
wb_tensor_compare (const WbTensor *computed, const WbTensor *reference, double rtol, double atol, gboolean allow_head, WbCompareResult *r, GError **error)
{
  gint64   nc = wb_tensor_numel (computed), nr = wb_tensor_numel (reference);
  gboolean same_shape = computed->rank == reference->rank;
  g_autoptr (WbTensor) c64 = NULL;
  g_autoptr (WbTensor) r64 = NULL;
  const double *c, *ref;
  double        sum_d2 = 0, sum_r2 = 0;

  for (guint d = 0; same_shape && d < computed->rank; d++)
    same_shape = computed->shape[d] == reference->shape[d];
  memset (r, 0, sizeof *r);
  r->first_mismatch = -1;
  if (!same_shape && !(allow_head && nr <= nc))
    {
      g_autofree char *a = wb_tensor_shape_to_string (computed);
      g_autofree char *b = wb_tensor_shape_to_string (reference);
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_BAD_ARGUMENT,
                   "shapes differ: computed %s, reference %s", a, b);
      return FALSE;
    }
  r->head = !same_shape;
  r->n = MIN (nc, nr);
  c64 = wb_tensor_to_dtype ((WbTensor *) computed, WB_DTYPE_FLOAT64, error);
  r64 = c64 ? wb_tensor_to_dtype ((WbTensor *) reference, WB_DTYPE_FLOAT64, error) : NULL;
  if (r64 == NULL)
    return FALSE;
  c = wb_tensor_get_data (c64);
  ref = wb_tensor_get_data (r64);
  for (gint64 i = 0; i < r->n; i++)
    {
      double   a = c[i], b = ref[i], d;
      gboolean bad;
      if (isnan (a) || isnan (b))
        {
          bad = !(isnan (a) && isnan (b));
          d = bad ? INFINITY : 0;
          r->nonfinite++;
        }
      else if (isinf (a) || isinf (b))
        {
          bad = a != b;
          d = bad ? INFINITY : 0;
          r->nonfinite++;
        }
      else
        {
          d = fabs (a - b);
          bad = d > atol + rtol * fabs (b);
          r->max_ref = MAX (r->max_ref, fabs (b));
          sum_d2 += d * d;
          sum_r2 += b * b;
        }
      r->max_abs = MAX (r->max_abs, d);
      if (bad)
        {
          if (r->mismatches == 0)
            r->first_mismatch = i;
          r->mismatches++;
        }
    }
  r->rel = r->max_ref > 0 ? r->max_abs / r->max_ref : (r->max_abs > 0 ? INFINITY : 0);
  if (r->n > r->nonfinite)
    {
      r->rms = sqrt (sum_d2 / (double) (r->n - r->nonfinite));
      r->rms_ref = sqrt (sum_r2 / (double) (r->n - r->nonfinite));
    }
  return TRUE;
}
