/* test-runner-shm.c — tensor bytes through sealed memfds between the caller and the runner (wb-runner-shm.h):
 * every dtype, views, zero-size tensors and the fallbacks round-trip byte for byte; a bad memfd or descriptor
 * is a clear error; and the caller's whole path against the fake runner (tests/profiler/fake-runner.c), both
 * directions, with and without WB_RUNNER_NO_MEMFD, and against a runner that does not list the capability
 * SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* memfd_create */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wb-profiler.h"
#include "wb-test-common.h"

/* a tensor whose every byte is drawn (so that any byte moved or lost shows), of @dtype and @shape */
static WbTensor *
random_tensor (GRand *rng, WbDtype dtype, guint rank, const gint64 *shape)
{
  WbTensor *t = wb_tensor_new (dtype, rank, shape, NULL);
  guint8   *d = wb_tensor_get_data (t);

  for (gint64 i = 0; i < wb_tensor_nbytes (t); i++)
    d[i] = (guint8) g_rand_int_range (rng, 0, 256);
  return t;
}

/* @a and @b hold the same bytes element by element (any layout) */
static void
assert_same_tensor (WbTensor *a, WbTensor *b)
{
  g_autoptr (WbTensor) ca = wb_tensor_contiguous (a, NULL);
  g_autoptr (WbTensor) cb = wb_tensor_contiguous (b, NULL);

  g_assert_cmpint (a->dtype, ==, b->dtype);
  g_assert_cmpuint (a->rank, ==, b->rank);
  for (guint d = 0; d < a->rank; d++)
    g_assert_cmpint (a->shape[d], ==, b->shape[d]);
  g_assert_cmpmem (wb_tensor_get_data (ca), wb_tensor_nbytes (ca), wb_tensor_get_data (cb), wb_tensor_nbytes (cb));
}

static void
assert_same_values (GPtrArray *a, GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      WbRtValue       *x = a->pdata[i], *y = b->pdata[i];
      g_autofree char *dx = wb_rt_value_describe (x);
      g_autofree char *dy = wb_rt_value_describe (y);

      g_assert_cmpstr (dx, ==, dy);
      if (x->kind == WB_RT_TENSOR)
        assert_same_tensor (x->tensor, y->tensor);
      else if (x->items != NULL)
        assert_same_values (x->items, y->items);
    }
}

/* Two channels over a socket pair: what @tx sends, @rx receives. */
typedef struct
{
  WbRunnerShmChannel tx, rx;
} Pair;

static void
pair_init (Pair *p, gsize min_bytes)
{
  int sv[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), ==, 0);
  wb_runner_shm_channel_init (&p->tx, sv[0]);
  wb_runner_shm_channel_init (&p->rx, sv[1]);
  p->tx.min_bytes = min_bytes;
}

static void
pair_clear (Pair *p)
{
  wb_runner_shm_channel_clear (&p->tx);
  wb_runner_shm_channel_clear (&p->rx);
}

/* @values sent as "args" in a message that goes through the protocol's framing, and read back; *@msg_out
 * (nullable) the message read */
static GPtrArray *
send_and_receive (Pair *p, GPtrArray *values, GVariant **msg_out, GError **error)
{
  const char *const keys[] = { "args" };
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GVariant) msg = NULL;
  g_autoptr (GVariant) av = NULL;
  g_autoptr (WbRunnerShmMap) map = NULL;
  GVariantBuilder b;
  WbRunnerMsgType type;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  wb_runner_shm_add_values (&b, &p->tx, keys, &values, 1);
  g_assert_true (wb_runner_write_message (out, WB_RUNNER_MSG_RUN, g_variant_builder_end (&b), NULL));
  g_output_stream_close (out, NULL, NULL);
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  in = g_memory_input_stream_new_from_bytes (bytes);
  g_assert_true (wb_runner_read_message (in, &type, &msg, NULL));
  map = wb_runner_shm_receive_for (msg, &p->rx, error);
  if (error && *error)
    return NULL;
  av = g_variant_lookup_value (msg, "args", G_VARIANT_TYPE ("av"));
  if (msg_out)
    *msg_out = g_variant_ref (msg);
  return wb_runner_values_from_variant_shm (av, map, error);
}

/* Every dtype the workbench knows, at several shapes (0-d, one element, zero elements, odd sizes), goes through
 * the memfd and comes back byte for byte, each tensor over the mapping (no copy). */
static void
test_round_trip (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (42);
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) msg = NULL;
  const gint64 shapes[][3] = { { 0 }, { 1 }, { 7 }, { 3, 5 }, { 2, 0, 4 }, { 33, 17, 3 } };
  const guint  ranks[] = { 0, 1, 1, 2, 3, 3 };
  guint        n_dtypes = 0, with_bytes = 0;
  guint64      size = 0;
  Pair         p;

  pair_init (&p, 0);
  for (int dt = WB_DTYPE_UNKNOWN + 1; dt < WB_N_DTYPES; dt++)
    {
      g_autoptr (WbTensor) probe = wb_tensor_new ((WbDtype) dt, 1, (gint64[]){ 1 }, NULL);
      if (probe == NULL) /* a dtype host tensors do not hold */
        continue;
      n_dtypes++;
      for (guint s = 0; s < G_N_ELEMENTS (ranks); s++)
        {
          WbTensor *t = random_tensor (rng, (WbDtype) dt, ranks[s], shapes[s]);
          with_bytes += wb_tensor_nbytes (t) > 0;
          g_ptr_array_add (values, wb_rt_value_take_tensor (t));
        }
    }
  g_test_message ("%u of %d dtypes", n_dtypes, WB_N_DTYPES - 1);
  g_assert_cmpuint (n_dtypes, >=, 20);
  /* numbers and the rest stay inline beside them, a tensor inside a tuple goes through the memfd */
  g_ptr_array_add (values, wb_rt_value_new_int (-7));
  g_ptr_array_add (values, wb_rt_value_new_float (2.5));
  g_ptr_array_add (values, wb_rt_value_new_none ());
  {
    WbRtValue *tuple = wb_rt_value_new_sequence (WB_RT_TUPLE);
    wb_rt_value_append (tuple, wb_rt_value_take_tensor (random_tensor (rng, WB_DTYPE_FLOAT32, 1, (gint64[]){ 9 })));
    wb_rt_value_append (tuple, wb_rt_value_new_bool (TRUE));
    g_ptr_array_add (values, tuple);
  }
  back = send_and_receive (&p, values, &msg, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p.tx.last_mapped, ==, n_dtypes * G_N_ELEMENTS (ranks) + 1);
  g_assert_cmpuint (p.tx.last_inline, ==, 0);
  g_assert_null (p.tx.last_fallback);
  g_assert_true (g_variant_lookup (msg, "shm", "(tt)", NULL, &size));
  g_assert_cmpuint (size, ==, (guint64) p.tx.last_bytes);
  assert_same_values (values, back);
  /* the tensors with bytes lie in the mapping: storage of the external kind, no host buffer of their own */
  for (guint i = 0, mapped = 0; i < back->len; i++)
    {
      WbRtValue *v = back->pdata[i];
      if (v->kind == WB_RT_TENSOR && wb_tensor_nbytes (v->tensor) > 0)
        {
          g_assert_nonnull (wb_tensor_get_external_data (v->tensor));
          g_assert_cmpuint ((guintptr) wb_tensor_get_data (v->tensor) % WB_RUNNER_SHM_ALIGN, ==, 0);
          mapped++;
        }
      if (i + 1 == back->len)
        g_assert_cmpuint (mapped, ==, with_bytes);
    }
  /* a mapped tensor may be written in place (copy-on-write): the sender's memfd is sealed against writes */
  {
    WbRtValue *v = back->pdata[3], *w = values->pdata[3];
    guint8    *d;
    g_assert_cmpint (v->kind, ==, WB_RT_TENSOR);
    d = wb_tensor_get_data (v->tensor);
    d[0] = (guint8) ~((guint8 *) wb_tensor_get_data (w->tensor))[0];
    g_assert_cmpuint (d[0], !=, ((guint8 *) wb_tensor_get_data (w->tensor))[0]);
  }
  /* a second message on the same pair: the next sequence number */
  {
    g_autoptr (GPtrArray) again = send_and_receive (&p, values, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p.rx.received, ==, 2);
    assert_same_values (values, again);
  }
  pair_clear (&p);
}

/* Views: a transpose and a broadcast keep their strides (only their span is written), a strided slice is made
 * contiguous; each reads back element for element. */
static void
test_views (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (7);
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTensor) base = random_tensor (rng, WB_DTYPE_BFLOAT16, 2, (gint64[]){ 64, 48 });
  g_autoptr (WbTensor) row = random_tensor (rng, WB_DTYPE_FLOAT32, 2, (gint64[]){ 1, 300 });
  WbTensor *transposed = wb_tensor_permute (base, (gint64[]){ 1, 0 }, &error);
  WbTensor *broadcast = wb_tensor_broadcast_in_dim (row, 2, (gint64[]){ 50, 300 }, (gint64[]){ 0, 1 }, &error);
  WbTensor *sliced = wb_tensor_slice (base, (gint64[]){ 3, 1 }, (gint64[]){ 60, 47 }, (gint64[]){ 2, 3 }, &error);
  Pair      p;

  g_assert_no_error (error);
  g_ptr_array_add (values, wb_rt_value_take_tensor (transposed));
  g_ptr_array_add (values, wb_rt_value_take_tensor (broadcast));
  g_ptr_array_add (values, wb_rt_value_take_tensor (sliced));
  pair_init (&p, 0);
  back = send_and_receive (&p, values, NULL, &error);
  g_assert_no_error (error);
  assert_same_values (values, back);
  {
    WbTensor *t = ((WbRtValue *) back->pdata[0])->tensor, *b = ((WbRtValue *) back->pdata[1])->tensor;
    WbTensor *s = ((WbRtValue *) back->pdata[2])->tensor;
    g_assert_cmpint (t->strides[0], ==, 1); /* still a transpose */
    g_assert_cmpint (t->strides[1], ==, 48);
    g_assert_cmpint (b->strides[0], ==, 0); /* still a broadcast */
    g_assert_true (wb_tensor_is_contiguous (s));
  }
  /* the broadcast sent its 300 elements, not 15,000 */
  g_assert_cmpint (p.tx.last_bytes, <, 64 * 48 * 2 + 64 + 300 * 4 + 64 + 29 * 16 * 2 + 64);
  pair_clear (&p);
}

/* The inline path: tensors under min_bytes, a channel without a socket, and WB_RUNNER_NO_MEMFD=1 all give the
 * old encoding, with the same bytes. */
static void
test_fallback (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (3);
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_rt_value_unref);
  g_autoptr (GError) error = NULL;
  Pair p;

  g_ptr_array_add (values, wb_rt_value_take_tensor (random_tensor (rng, WB_DTYPE_FLOAT32, 1, (gint64[]){ 8 })));
  g_ptr_array_add (values, wb_rt_value_take_tensor (random_tensor (rng, WB_DTYPE_INT64, 2, (gint64[]){ 40, 40 })));
  g_ptr_array_add (values, wb_rt_value_new_int (5));
  pair_init (&p, WB_RUNNER_SHM_MIN_BYTES);
  {
    /* the small one inline, the 12,800-byte one mapped */
    g_autoptr (GPtrArray) back = send_and_receive (&p, values, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p.tx.last_mapped, ==, 1);
    g_assert_cmpuint (p.tx.last_inline, ==, 1);
    assert_same_values (values, back);
    g_assert_null (wb_tensor_get_external_data (((WbRtValue *) back->pdata[0])->tensor));
    g_assert_nonnull (wb_tensor_get_external_data (((WbRtValue *) back->pdata[1])->tensor));
  }
  {
    g_autoptr (GVariant) msg = NULL;
    g_autoptr (GPtrArray) back = NULL;
    g_setenv ("WB_RUNNER_NO_MEMFD", "1", TRUE);
    back = send_and_receive (&p, values, &msg, &error);
    g_unsetenv ("WB_RUNNER_NO_MEMFD");
    g_assert_no_error (error);
    g_assert_cmpuint (p.tx.last_mapped, ==, 0);
    g_assert_cmpuint (p.tx.last_inline, ==, 2);
    g_assert_nonnull (strstr (p.tx.last_fallback, "WB_RUNNER_NO_MEMFD"));
    g_assert_false (g_variant_lookup (msg, "shm", "(tt)", NULL, NULL));
    assert_same_values (values, back);
  }
  wb_runner_shm_channel_clear (&p.tx);
  wb_runner_shm_channel_init (&p.tx, -1); /* no socket: an older caller or runner */
  {
    g_autoptr (GPtrArray) back = send_and_receive (&p, values, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p.tx.last_mapped, ==, 0);
    g_assert_null (p.tx.last_fallback);
    assert_same_values (values, back);
  }
  pair_clear (&p);
}

/* a sealed memfd of @size bytes holding @size bytes of 0x5a, or (@seal FALSE) unsealed */
static int
make_memfd (gsize size, gboolean seal)
{
  int              fd = memfd_create ("test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  g_autofree char *buf = g_malloc (MAX (size, 1));

  g_assert_cmpint (fd, >=, 0);
  memset (buf, 0x5a, size);
  g_assert_cmpint (write (fd, buf, size), ==, (gssize) size);
  if (seal)
    g_assert_cmpint (fcntl (fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL), ==, 0);
  return fd;
}

static void
assert_io_error (GError *error, const char *part)
{
  g_assert_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, part));
}

/* Whatever the memfd or descriptor is wrong about, the reader gets a GError saying what, never a crash. */
static void
test_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRunnerShmMap) map = NULL;
  g_autoptr (WbTensor) t = NULL;
  Pair p;

  /* a memfd shorter than the message says (truncated) */
  g_assert_null (wb_runner_shm_map_new (make_memfd (100, TRUE), 4096, &error));
  assert_io_error (error, "truncated");
  g_clear_error (&error);
  /* not sealed: a later truncation would be a SIGBUS */
  g_assert_null (wb_runner_shm_map_new (make_memfd (256, FALSE), 256, &error));
  assert_io_error (error, "not sealed");
  g_clear_error (&error);

  map = wb_runner_shm_map_new (make_memfd (256, TRUE), 256, &error);
  g_assert_no_error (error);
  /* in bounds: a 4x4 f32 tensor at 64 */
  t = wb_runner_shm_map_tensor (map, g_variant_new ("(s@ax@axtt)", "f32", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]){ 4, 4 }, 2, 8), g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]){ 4, 1 }, 2, 8), (guint64) 64, (guint64) 64),
                                &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((guint8 *) wb_tensor_get_data (t))[63], ==, 0x5a);
  {
    const struct
    {
      guint64     offset, nbytes;
      gint64      stride0;
      const char *dtype, *says;
    } bad[] = {
      { 1024, 64, 4, "f32", "outside" },   /* a bad offset: past the end */
      { 192, 128, 4, "f32", "outside" },   /* runs past the end */
      { 8, 64, 4, "f32", "multiple of" },  /* misaligned */
      { 64, 60, 4, "f32", "layout" },      /* not whole elements / too few for the layout */
      { 0, 64, 400, "f32", "layout" },     /* strides reaching past its bytes */
      { 0, 64, 4, "q99", "unknown dtype" } /* no such dtype */
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        GVariant *pl = g_variant_new ("(s@ax@axtt)", bad[i].dtype, g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]){ 4, 4 }, 2, 8),
                                      g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]){ bad[i].stride0, 1 }, 2, 8), bad[i].offset, bad[i].nbytes);
        g_variant_ref_sink (pl);
        g_assert_null (wb_runner_shm_map_tensor (map, pl, &error));
        assert_io_error (error, bad[i].says);
        g_clear_error (&error);
        g_variant_unref (pl);
      }
  }
  /* an 'm' value in a message without a memfd */
  {
    GVariant *pl = g_variant_new ("(yv)", 'm', g_variant_new ("(s@ax@axtt)", "f32", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]){ 2 }, 1, 8), g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]){ 1 }, 1, 8), (guint64) 0, (guint64) 8));
    g_variant_ref_sink (pl);
    g_assert_null (wb_runner_value_from_variant (pl, &error));
    assert_io_error (error, "no memfd came");
    g_clear_error (&error);
    g_variant_unref (pl);
  }
  /* descriptors: none queued; one with an older number is dropped, a newer one is an error */
  pair_init (&p, 0);
  g_assert_cmpint (wb_runner_shm_receive_fd (p.rx.sock, 1, &error), ==, -1);
  assert_io_error (error, "no descriptor came");
  g_clear_error (&error);
  {
    int fd = make_memfd (64, TRUE), got;
    g_assert_true (wb_runner_shm_send_fd (p.tx.sock, fd, 1, NULL));
    g_assert_true (wb_runner_shm_send_fd (p.tx.sock, fd, 2, NULL));
    g_assert_true (wb_runner_shm_send_fd (p.tx.sock, fd, 5, NULL));
    got = wb_runner_shm_receive_fd (p.rx.sock, 2, &error);
    g_assert_no_error (error);
    g_assert_cmpint (got, >=, 0);
    close (got);
    g_assert_cmpint (wb_runner_shm_receive_fd (p.rx.sock, 3, &error), ==, -1);
    assert_io_error (error, "came before");
    g_clear_error (&error);
    close (fd);
  }
  /* a message that names a memfd, on a channel without a socket */
  {
    g_autoptr (GVariant) msg = g_variant_ref_sink (g_variant_new_parsed ("{'shm': <(@t 1, @t 64)>}"));
    WbRunnerShmChannel none;
    wb_runner_shm_channel_init (&none, -1);
    g_assert_null (wb_runner_shm_receive_for (msg, &none, &error));
    assert_io_error (error, "no descriptor socket");
    g_clear_error (&error);
  }
  /* the peer gone: sending fails with an error, not SIGPIPE */
  wb_runner_shm_channel_clear (&p.rx);
  {
    int fd = make_memfd (64, TRUE);
    g_assert_false (wb_runner_shm_send_fd (p.tx.sock, fd, 9, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    close (fd);
  }
  pair_clear (&p);
}

/* -- the caller and the fake runner, over a real process boundary ------------------------------------------ */

static char *
fake_runner_path (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *here = g_path_get_dirname (exe);

  return g_build_filename (here, "fake-runner", NULL);
}

/* mlp_small's program and its drawn inputs as the profile command makes them */
static void
mlp_request (WbCase **c, WbProgram **program, GPtrArray **args)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (wb_test_samples_dir (), "mlp_small", NULL);
  g_autoptr (GHashTable) inputs = NULL;

  *c = wb_case_load (dir, &error);
  g_assert_no_error (error);
  *program = wb_case_make_program (*c, wb_case_get_default_stage (*c), &error);
  g_assert_no_error (error);
  inputs = wb_case_make_inputs (*c, NULL, 0, &error);
  g_assert_no_error (error);
  *args = wb_case_make_args (*c, *program, inputs, &error);
  g_assert_no_error (error);
}

/* One RUN through a fresh fake runner that echoes the args: the outputs come back equal; the values log
 * (request and result lines) is returned */
static char *
echo_run (GPtrArray *args, WbProgram *program, guint *mapped_outputs)
{
  g_autofree char *runner_path = fake_runner_path ();
  g_autofree char *log = g_build_filename (g_get_tmp_dir (), "test-runner-shm-XXXXXX", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WbRunner) r = NULL;
  g_autoptr (WbRunnerResult) res = NULL;
  WbRunnerRequest req = { 0 };
  char           *text = NULL;
  int             fd = g_mkstemp (log);

  close (fd);
  g_setenv ("FAKE_RUNNER_VALUES_LOG", log, TRUE);
  g_setenv ("FAKE_RUNNER_ECHO", "1", TRUE);
  g_setenv ("FAKE_RUNNER_ITER_MS", "0", TRUE);
  r = wb_runner_new_for_program (runner_path, &error);
  g_assert_no_error (error);
  req.forward = wb_program_get_source (program, FALSE);
  req.backward = wb_program_get_source (program, TRUE);
  req.args = args;
  req.iters = 1;
  res = wb_runner_run (r, &req, NULL, &error);
  g_assert_no_error (error);
  assert_same_values (args, res->result->outputs);
  *mapped_outputs = 0;
  for (guint i = 0; i < res->result->outputs->len; i++)
    {
      WbRtValue *v = res->result->outputs->pdata[i];
      *mapped_outputs += v->kind == WB_RT_TENSOR && wb_tensor_get_external_data (v->tensor) != NULL;
    }
  g_clear_pointer (&r, wb_runner_free);
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  g_unlink (log);
  g_unsetenv ("FAKE_RUNNER_VALUES_LOG");
  g_unsetenv ("FAKE_RUNNER_ECHO");
  return text;
}

/* tensors in @args, and those of them large enough for the memfd */
static guint
count_tensors (GPtrArray *args, guint *large)
{
  guint n = 0;

  *large = 0;
  for (guint i = 0; i < args->len; i++)
    {
      WbRtValue *v = args->pdata[i];
      n += v->kind == WB_RT_TENSOR;
      *large += v->kind == WB_RT_TENSOR && (gsize) wb_tensor_nbytes (v->tensor) >= WB_RUNNER_SHM_MIN_BYTES;
    }
  return n;
}

/* The caller sends a real case's inputs through a memfd, the fake runner reads them as the real one does and
 * sends them back as outputs through another; WB_RUNNER_NO_MEMFD=1 and a runner without the capability get
 * the same values inline. */
static void
test_fake_runner (void)
{
  g_autoptr (WbCase) c = NULL;
  g_autoptr (WbProgram) program = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autofree char *expect = NULL;
  guint            large, mapped = 0, n;

  mlp_request (&c, &program, &args);
  n = count_tensors (args, &large);
  g_assert_cmpuint (large, >, 0);
  expect = g_strdup_printf ("request mapped=%u inline=%u\nresult mapped=%u inline=%u\n", large, n - large, large, n - large);
  {
    g_autofree char *log = echo_run (args, program, &mapped);
    g_assert_cmpstr (log, ==, expect);
    g_assert_cmpuint (mapped, ==, large);
  }
  g_setenv ("WB_RUNNER_NO_MEMFD", "1", TRUE);
  {
    g_autofree char *log = echo_run (args, program, &mapped);
    g_autofree char *inl = g_strdup_printf ("request mapped=0 inline=%u\nresult mapped=0 inline=%u\n", n, n);
    g_assert_cmpstr (log, ==, inl);
    g_assert_cmpuint (mapped, ==, 0);
  }
  g_unsetenv ("WB_RUNNER_NO_MEMFD");
  g_setenv ("FAKE_RUNNER_NO_CAPS", "1", TRUE);
  {
    g_autofree char *log = echo_run (args, program, &mapped);
    g_autofree char *inl = g_strdup_printf ("request mapped=0 inline=%u\nresult mapped=0 inline=%u\n", n, n);
    g_assert_cmpstr (log, ==, inl);
  }
  g_unsetenv ("FAKE_RUNNER_NO_CAPS");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("WB_RUNNER_NO_MEMFD");
  g_test_add_func ("/runner/shm/round-trip", test_round_trip);
  g_test_add_func ("/runner/shm/views", test_views);
  g_test_add_func ("/runner/shm/fallback", test_fallback);
  g_test_add_func ("/runner/shm/errors", test_errors);
  g_test_add_func ("/runner/shm/fake-runner", test_fake_runner);
  return g_test_run ();
}
