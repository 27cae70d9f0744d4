/* bench-runner-shm.c — a run's inputs from the caller to the runner: the GVariant message over a pipe against
 * a sealed memfd (wb-runner-shm.h), side by side
 *
 *   meson compile -C build bench-runner-shm && build/tests/bench/bench-runner-shm [--rounds R] [CASE_DIR...]
 *
 * For each case (default: llama_layer and gpt2_block from the real traces, and the zoo's densenet121 and
 * llama_32layer first entries when the zoo is unpacked) the inputs are drawn as `profile` draws them
 * (wb_case_make_inputs, wb_case_make_args), then sent as a RUN message's "args" from one thread to another
 * over a real pipe, the way the caller talks to thunder-wb-runner: the old path builds the (yv) values with
 * every byte inside (wb_runner_values_to_variant), frames the normal form (wb_runner_write_message), and the
 * reader reads it whole and decodes every tensor into its own buffer; the new path writes the tensors once
 * into a memfd (wb_runner_shm_add_values), passes it over a unix socket with SCM_RIGHTS, frames the small
 * message, and the reader maps it and wraps the tensors around the mapping. Timed: from the first byte encoded
 * to the last value decoded, and then with one read of every byte on the reader's side (what the upload to
 * the device does next: the mapped pages are touched for the first time there). Best of R rounds; the
 * decoded bytes are checked equal to the sent ones once per case. Results go to tests/bench/README.md by hand.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wb-profiler.h"

#ifndef WB_BENCH_DEFAULT_TRACES
#define WB_BENCH_DEFAULT_TRACES "../shared/traces"
#endif
#ifndef WB_BENCH_ZOO
#define WB_BENCH_ZOO "build/tests/zoo/zoo"
#endif

static volatile guint64 sink; /* keeps the reads */

typedef struct
{
  GPtrArray         *args;
  gboolean           shm;
  GOutputStream     *out;
  WbRunnerShmChannel tx;
} Sender;

static gpointer
send_thread (gpointer data)
{
  Sender           *s = data;
  const char *const keys[] = { "args" };
  GVariantBuilder   b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  if (s->shm)
    wb_runner_shm_add_values (&b, &s->tx, keys, &s->args, 1);
  else
    g_variant_builder_add (&b, "{sv}", "args", wb_runner_values_to_variant (s->args));
  return GINT_TO_POINTER (wb_runner_write_message (s->out, WB_RUNNER_MSG_RUN, g_variant_builder_end (&b), NULL));
}

/* one byte of every 64 read, so that every page and cache line of every tensor is touched once */
static guint64
touch (GPtrArray *values)
{
  guint64 sum = 0;

  for (guint i = 0; i < values->len; i++)
    {
      WbRtValue *v = values->pdata[i];
      if (v->kind == WB_RT_TENSOR && wb_tensor_is_contiguous (v->tensor))
        {
          const guint8 *d = wb_tensor_get_data (v->tensor);
          for (gint64 k = 0; k < wb_tensor_nbytes (v->tensor); k += 64)
            sum += d[k];
        }
    }
  return sum;
}

/* One transfer of @args; its times in @us[0] (decoded) and @us[1] (and read once); the values read in @back */
static gboolean
transfer (GPtrArray *args, gboolean shm, gint64 us[2], GPtrArray **back, GError **error)
{
  int      p[2], sv[2];
  Sender   s = { .args = args, .shm = shm };
  GThread *th;
  gint64   t0;
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GVariant) msg = NULL;
  g_autoptr (GVariant) av = NULL;
  g_autoptr (WbRunnerShmMap) map = NULL;
  WbRunnerShmChannel rx;
  WbRunnerMsgType    type;
  gboolean           sent;

  if (pipe (p) != 0 || socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    g_error ("pipe: %s", g_strerror (errno));
  s.out = g_unix_output_stream_new (p[1], TRUE);
  in = g_unix_input_stream_new (p[0], TRUE);
  wb_runner_shm_channel_init (&s.tx, sv[0]);
  wb_runner_shm_channel_init (&rx, sv[1]);
  s.tx.min_bytes = WB_RUNNER_SHM_MIN_BYTES;
  t0 = g_get_monotonic_time ();
  th = g_thread_new ("send", send_thread, &s);
  if (wb_runner_read_message (in, &type, &msg, error) && ((map = wb_runner_shm_receive_for (msg, &rx, error)) != NULL || *error == NULL))
    {
      av = g_variant_lookup_value (msg, "args", G_VARIANT_TYPE ("av"));
      *back = wb_runner_values_from_variant_shm (av, map, error);
    }
  us[0] = g_get_monotonic_time () - t0;
  if (*back != NULL)
    {
      sink += touch (*back);
      us[1] = g_get_monotonic_time () - t0;
    }
  sent = GPOINTER_TO_INT (g_thread_join (th));
  if (shm && s.tx.last_fallback != NULL)
    g_printerr ("bench-runner-shm: the memfd path fell back: %s\n", s.tx.last_fallback);
  g_object_unref (s.out);
  wb_runner_shm_channel_clear (&s.tx);
  wb_runner_shm_channel_clear (&rx);
  return sent && *back != NULL;
}

static void
check_equal (GPtrArray *a, GPtrArray *b)
{
  g_assert (a->len == b->len);
  for (guint i = 0; i < a->len; i++)
    {
      WbRtValue *x = a->pdata[i], *y = b->pdata[i];
      if (x->kind == WB_RT_TENSOR)
        {
          g_autoptr (WbTensor) cx = wb_tensor_contiguous (x->tensor, NULL);
          g_autoptr (WbTensor) cy = wb_tensor_contiguous (y->tensor, NULL);
          if (wb_tensor_nbytes (cx) != wb_tensor_nbytes (cy) || memcmp (wb_tensor_get_data (cx), wb_tensor_get_data (cy), wb_tensor_nbytes (cx)) != 0)
            g_error ("bench-runner-shm: argument %u differs after the transfer", i);
        }
    }
}

static gboolean
bench_case (const char *path, guint rounds)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCase) c = wb_case_load (path, &error);
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GHashTable) inputs = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *zoo_json = g_build_filename (parent, "zoo.json", NULL);
  g_autofree char *pbase = g_path_get_basename (parent);
  g_autofree char *label = g_file_test (zoo_json, G_FILE_TEST_EXISTS) ? g_strdup_printf ("%s/%s", pbase, base) : g_strdup (base);
  gint64           best[2][2] = { { G_MAXINT64, G_MAXINT64 }, { G_MAXINT64, G_MAXINT64 } }, bytes = 0;
  guint            tensors = 0;

  if (c == NULL || (program = wb_case_make_program (c, wb_case_get_default_stage (c), &error)) == NULL ||
      (inputs = wb_case_make_inputs (c, NULL, 0, &error)) == NULL || (args = wb_case_make_args (c, program, inputs, &error)) == NULL)
    {
      g_printerr ("bench-runner-shm: %s: %s\n", path, error->message);
      return FALSE;
    }
  for (guint i = 0; i < args->len; i++)
    {
      WbRtValue *v = args->pdata[i];
      if (v->kind == WB_RT_TENSOR)
        tensors++, bytes += wb_tensor_nbytes (v->tensor);
    }
  for (guint r = 0; r < rounds; r++)
    for (int shm = 0; shm < 2; shm++)
      {
        g_autoptr (GPtrArray) back = NULL;
        gint64 us[2] = { 0, 0 };
        if (!transfer (args, shm, us, &back, &error))
          {
            g_printerr ("bench-runner-shm: %s: %s\n", path, error ? error->message : "the sender failed");
            return FALSE;
          }
        if (r == 0)
          check_equal (args, back);
        best[shm][0] = MIN (best[shm][0], us[0]);
        best[shm][1] = MIN (best[shm][1], us[1]);
      }
  g_print ("| %s | %u | %.1f | %.1f | %.1f | **%.1fx** | %.1f | %.1f | **%.1fx** |\n", label, tensors, bytes / 1048576.0, best[0][0] / 1e3,
           best[1][0] / 1e3, (double) best[0][0] / MAX (best[1][0], 1), best[0][1] / 1e3, best[1][1] / 1e3,
           (double) best[0][1] / MAX (best[1][1], 1));
  return TRUE;
}

int
main (int argc, char **argv)
{
  guint rounds = 3;
  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = (guint) MAX (1, atoi (argv[++i]));
    else
      g_ptr_array_add (cases, g_strdup (argv[i]));
  if (cases->len == 0)
    {
      const char *zoo[] = { "densenet121/thunderfx_g0_GraphModule", "llama_32layer/thunderfx_g0_GraphModule" };
      g_ptr_array_add (cases, g_build_filename (WB_BENCH_DEFAULT_TRACES, "llama_layer", NULL));
      g_ptr_array_add (cases, g_build_filename (WB_BENCH_DEFAULT_TRACES, "gpt2_block", NULL));
      for (guint i = 0; i < G_N_ELEMENTS (zoo); i++)
        {
          char *p = g_build_filename (WB_BENCH_ZOO, zoo[i], NULL);
          if (g_file_test (p, G_FILE_TEST_IS_DIR))
            g_ptr_array_add (cases, p);
          else
            g_free (p);
        }
    }
  g_print ("a RUN's args from thread to thread over a pipe, ms (best of %u): GVariant inline vs memfd\n\n", rounds);
  g_print ("| case | tensors | MiB | inline ms | memfd ms | ratio | inline + read ms | memfd + read ms | ratio |\n");
  g_print ("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint i = 0; i < cases->len; i++)
    ok &= bench_case (cases->pdata[i], rounds);
  return ok ? 0 : 1;
}
