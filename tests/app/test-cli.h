/* test-cli.h — what the test-cli*.c files share: the sample they run on, RUN
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-test-common.h"

/* data/samples/mlp_small (transfer none) */
static inline const char *
sample_dir (void)
{
  static char *dir;

  if (dir == NULL)
    dir = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  return dir;
}

/* RUN: thunder-wb with the arguments, in the C locale (wb_test_run_thunder_wb). */
#define RUN(run, ...) wb_test_run_thunder_wb ((run), NULL, (const char *const[]){ __VA_ARGS__, NULL })
