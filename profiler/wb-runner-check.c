/* wb-runner-check.c — one call's outputs against the cpu executor's on the same inputs (wb-runner-check.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-runner-check.h"

#include <math.h>
#include <string.h>

void
wb_runner_check_clear (WbRunnerCheck *check)
{
  g_free (check->worst_call);
  g_free (check->worst_output);
  memset (check, 0, sizeof *check);
}

void
wb_runner_check_add (WbRunnerCheck *check, const char *call, GPtrArray *names, GPtrArray *checked, GPtrArray *got)
{
  gboolean outside = FALSE;

  for (guint i = 0; i < names->len && i < checked->len && i < got->len; i++)
    {
      WbRtValue      *c = checked->pdata[i], *g = got->pdata[i];
      WbCompareResult cmp;
      double          rtol, allowed, ratio;

      if (c == NULL || g == NULL || c->kind != WB_RT_TENSOR || g->kind != WB_RT_TENSOR ||
          !wb_tensor_compare (g->tensor, c->tensor, 0, 0, FALSE, &cmp, NULL))
        continue;
      wb_dtype_scaled_tolerance (c->tensor->dtype, cmp.max_ref, &rtol, &allowed);
      ratio = allowed > 0 ? cmp.max_abs / allowed : (cmp.max_abs > 0 ? INFINITY : 0);
      if (wb_compare_adds_nonfinite (&cmp, c->tensor))
        ratio = INFINITY;
      outside |= ratio > 1;
      if (check->worst_call == NULL || ratio > check->ratio)
        {
          g_free (check->worst_call);
          g_free (check->worst_output);
          check->worst_call = g_strdup (call);
          check->worst_output = g_strdup (names->pdata[i]);
          check->max_abs = cmp.max_abs, check->max_ref = cmp.max_ref, check->ratio = ratio;
        }
    }
  check->calls++;
  check->outside += outside;
}

GVariant *
wb_runner_check_outputs (GPtrArray *names, GPtrArray *checked, GPtrArray *got)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(ssdddd)"));
  for (guint i = 0; i < names->len && i < checked->len && i < got->len; i++)
    {
      WbRtValue      *c = checked->pdata[i], *g = got->pdata[i];
      WbCompareResult cmp;

      if (c != NULL && g != NULL && c->kind == WB_RT_TENSOR && g->kind == WB_RT_TENSOR &&
          wb_tensor_compare (g->tensor, c->tensor, 0, 0, FALSE, &cmp, NULL))
        g_variant_builder_add (&b, "(ssdddd)", (const char *) names->pdata[i], wb_dtype_shortname (c->tensor->dtype), cmp.max_abs,
                               cmp.max_ref, cmp.rms, cmp.rms_ref);
    }
  return g_variant_builder_end (&b);
}

GVariant *
wb_runner_check_to_variant (const WbRunnerCheck *check)
{
  return g_variant_new ("(uussddd)", check->calls, check->outside, check->worst_call ? check->worst_call : "",
                        check->worst_output ? check->worst_output : "", check->max_abs, check->max_ref,
                        isfinite (check->ratio) ? check->ratio : G_MAXDOUBLE);
}
