/* fuzz-safetensors.c — libFuzzer harness for safetensors files (run --inputs, --compare)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every input is written to a file and loaded with wb_safetensors_load(): the 8-byte header length, the
 * JSON header (dtypes, shapes, data offsets) and the tensors it describes. A refusal must be a
 * WB_EXECUTOR_ERROR; a file that loads has every tensor read whole (its bytes summed), so an offset or
 * a shape that points outside the file shows up under AddressSanitizer. Build and run:
 * tests/fuzz/README.md. */
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb-executors.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static char *path;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  path = g_strdup_printf ("%s/wb-fuzz-%d.safetensors", g_get_tmp_dir (), (int) getpid ());
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  WbSafetensors  *st;
  volatile guint8 sum = 0;

  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    abort ();
  st = wb_safetensors_load (path, &error);
  if (st == NULL)
    {
      if (error == NULL || error->domain != WB_EXECUTOR_ERROR)
        {
          fprintf (stderr, "fuzz-safetensors: refused without a WB_EXECUTOR_ERROR: %s\n", error ? error->message : "(none)");
          abort ();
        }
      return 0;
    }
  for (guint i = 0; i < wb_safetensors_get_n (st); i++)
    {
      WbTensor     *t = wb_safetensors_get_tensor (st, i);
      const guint8 *bytes = wb_tensor_get_data (t);
      gsize         n = (gsize) wb_tensor_nbytes (t);

      if (wb_safetensors_get_name (st, i) == NULL)
        abort ();
      for (gsize k = 0; k < n; k++)
        sum += bytes[k];
    }
  wb_safetensors_free (st);
  return 0;
}
