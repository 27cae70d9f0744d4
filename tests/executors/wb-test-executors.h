/* wb-test-executors.h — helpers for the executors tests: small tensors, running trace text
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-executors.h"

G_BEGIN_DECLS

/* wb_test_tensor: (transfer full) a tensor of @dtype and @shape (rank entries) filled from @values
 * (row-major, converted as wb_tensor_set_f64 does). */
WbTensor *wb_test_tensor (WbDtype dtype, guint rank, const gint64 *shape, const double *values);
/* wb_test_assert_values: every element of @t equals @values within @tol (absolute). */
void wb_test_assert_values (const WbTensor *t, const double *values, gint64 n, double tol);
/* wb_test_run_text: parses "def computation(PARAMS):" + BODY (2-space indented lines, ending with a
 * return) and runs it on @args (element-type WbRtValue, transfer none). Returns (transfer full) the
 * outputs (element-type WbRtValue), or NULL with @error set. */
GPtrArray *wb_test_run_text (const char *params, const char *body, GPtrArray *args, GError **error);
/* wb_test_args: (transfer full) a GPtrArray of WbRtValues wrapping the NULL-terminated tensors
 * (each reference is taken over). */
GPtrArray *wb_test_args (WbTensor *first, ...) G_GNUC_NULL_TERMINATED;
/* wb_test_output: (transfer none) the tensor of output @i. */
WbTensor *wb_test_output (GPtrArray *outputs, guint i);

G_END_DECLS
