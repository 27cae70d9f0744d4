/* fake-runner.c — a stand-in for thunder-wb-runner that answers HELLO and PROBE only, for the device
 * choice of WbProfileJob on machines without a GPU
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * FAKE_RUNNER_DEVICE=TEXT: the probe reports that device ("NVIDIA Fake 80GB, sm_90"), model
 * "NVIDIA Fake 80GB"; unset: the probe answers that CUDA is unusable ("no NVIDIA driver (fake)").
 * FAKE_RUNNER_LOG=FILE: each start appends a line "start" to FILE (how many runners a command started).
 * Any other message ends it. */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <stdio.h>
#include <unistd.h>

#include "wb-profiler.h"

int
main (void)
{
  g_autoptr (GOutputStream) out = g_unix_output_stream_new (1, FALSE);
  g_autoptr (GInputStream) in = g_unix_input_stream_new (0, FALSE);
  const char     *device = g_getenv ("FAKE_RUNNER_DEVICE");
  GVariantBuilder b;
  WbRunnerMsgType type;
  g_autoptr (GVariant) payload = NULL;
  const char *log = g_getenv ("FAKE_RUNNER_LOG");

  if (log != NULL)
    {
      FILE *f = fopen (log, "a");

      if (f == NULL)
        return 1;
      fputs ("start\n", f);
      fclose (f);
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_int32 (WB_RUNNER_PROTOCOL_VERSION));
  g_variant_builder_add (&b, "{sv}", "pid", g_variant_new_int32 ((gint32) getpid ()));
  if (!wb_runner_write_message (out, WB_RUNNER_MSG_HELLO, g_variant_builder_end (&b), NULL))
    return 1;
  while (wb_runner_read_message (in, &type, &payload, NULL))
    {
      g_clear_pointer (&payload, g_variant_unref);
      if (type != WB_RUNNER_MSG_PROBE)
        return 0;
      g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
      g_variant_builder_add (&b, "{sv}", "ok", g_variant_new_boolean (device != NULL));
      g_variant_builder_add (&b, "{sv}", "message", g_variant_new_string (device ? device : "no NVIDIA driver (fake)"));
      if (device != NULL)
        g_variant_builder_add (&b, "{sv}", "model", g_variant_new_string ("NVIDIA Fake 80GB"));
      if (!wb_runner_write_message (out, WB_RUNNER_MSG_PROBE_REPLY, g_variant_builder_end (&b), NULL))
        return 1;
    }
  return 0;
}
