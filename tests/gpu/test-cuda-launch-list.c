/* test-cuda-launch-list.c — the launch list's recording and replay (wb-cuda-launch-list.c) with a fake driver
 * (suite executors: no GPU, no driver)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A runtime whose driver table logs every launch, memset, event record and stream wait, and answers
 * allocations with made-up addresses. A body as the runner's (allocations, launches with pointer and number
 * arguments, a tensor dropped mid-run, an uploaded number, a call on the second stream, a library call, a
 * memset) goes through the real paths. Checked: the replay launches exactly what the recording run launched
 * (functions, grids, blocks, streams, argument bytes), allocates nothing, forks and joins the second stream
 * as the run did and calls the library closure on the run's stream; tensors live at once never share a byte
 * of the arena; a second run that allocates differently, a synchronisation and a driver without
 * cuFuncGetParamInfo are refused with WB_CUDA_ERROR_CAPTURE, and the runtime works as before after. */
#include "config.h"

#include <string.h>

#include "wb-test-common.h"
#include "wb-test-fake-cuda.h"

#define POOL_BASE ((CUdeviceptr) 0x100000000ull)
#define F_COPY ((CUfunction) (guintptr) 0xf1)  /* (ptr, ptr, int64) */
#define F_SCALE ((CUfunction) (guintptr) 0xf2) /* (ptr, float) */

static CUdeviceptr next_pool = POOL_BASE;
static guint       n_allocs;
static GPtrArray  *log_lines; /* what the driver was asked, in order */
static GArray     *allocs;    /* (CUdeviceptr, size) pairs as gsize */

static CUresult
fake_alloc (CUdeviceptr *p, size_t n, CUstream s)
{
  gsize pair[2];

  (void) s;
  *p = next_pool;
  next_pool += (n + 0xfff) & ~(size_t) 0xfff;
  n_allocs++;
  pair[0] = *p, pair[1] = n;
  g_array_append_vals (allocs, pair, 2);
  return CUDA_SUCCESS;
}

static CUresult
fake_record (CUevent e, CUstream s)
{
  g_ptr_array_add (log_lines, g_strdup_printf ("E %p %p", (void *) s, (void *) e));
  return CUDA_SUCCESS;
}

static CUresult
fake_wait (CUstream s, CUevent e, unsigned int flags)
{
  (void) flags;
  g_ptr_array_add (log_lines, g_strdup_printf ("W %p %p", (void *) s, (void *) e));
  return CUDA_SUCCESS;
}

static CUresult
fake_memset8 (CUdeviceptr p, unsigned char v, size_t n, CUstream s)
{
  g_ptr_array_add (log_lines, g_strdup_printf ("M8 %p %#" G_GINT64_MODIFIER "x %u %zu", (void *) s, (guint64) p, v, n));
  return CUDA_SUCCESS;
}

static CUresult
fake_memset32 (CUdeviceptr p, unsigned int v, size_t n, CUstream s)
{
  g_ptr_array_add (log_lines, g_strdup_printf ("M32 %p %#" G_GINT64_MODIFIER "x %u %zu", (void *) s, (guint64) p, v, n));
  return CUDA_SUCCESS;
}

static CUresult
fake_param_info (CUfunction fn, size_t i, size_t *off, size_t *size)
{
  static const size_t copy[][2] = { { 0, 8 }, { 8, 8 }, { 16, 8 } }, scale[][2] = { { 0, 8 }, { 8, 4 } };
  const size_t (*l)[2] = fn == F_COPY ? copy : scale;
  size_t n = fn == F_COPY ? G_N_ELEMENTS (copy) : G_N_ELEMENTS (scale);

  if (i >= n)
    return CUDA_ERROR_INVALID_VALUE;
  *off = l[i][0], *size = l[i][1];
  return CUDA_SUCCESS;
}

/* "K fn grid block stream: argument bytes in hex" */
static CUresult
fake_launch (CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem, CUstream s, void **params, void **extra)
{
  GString *line = g_string_new (NULL);
  gsize    n = fn == F_COPY ? 3 : 2;

  (void) gy, (void) gz, (void) by, (void) bz, (void) smem, (void) extra;
  g_string_append_printf (line, "K %p %u %u %p:", (void *) fn, gx, bx, (void *) s);
  for (gsize i = 0; i < n; i++)
    {
      gsize size = fn == F_SCALE && i == 1 ? 4 : 8;
      for (gsize k = 0; k < size; k++)
        g_string_append_printf (line, "%02x", ((const guint8 *) params[i])[k]);
      g_string_append_c (line, ' ');
    }
  g_ptr_array_add (log_lines, g_string_free (line, FALSE));
  return CUDA_SUCCESS;
}

static WbCuApi fake_cu;

static WbCudaRuntime *
fake_runtime (void)
{
  WbCudaRuntime *rt;

  fake_cu.cuMemAllocAsync = fake_alloc;
  fake_cu.cuEventRecord = fake_record;
  fake_cu.cuStreamWaitEvent = fake_wait;
  fake_cu.cuMemsetD8Async = fake_memset8;
  fake_cu.cuMemsetD32Async = fake_memset32;
  fake_cu.cuLaunchKernel = fake_launch;
  rt = wb_test_fake_runtime_new (&fake_cu);
  rt->func_get_param_info = fake_param_info;
  if (log_lines == NULL)
    {
      log_lines = g_ptr_array_new_with_free_func (g_free);
      allocs = g_array_new (FALSE, FALSE, sizeof (gsize));
    }
  g_ptr_array_set_size (log_lines, 0);
  g_array_set_size (allocs, 0);
  return rt;
}

typedef struct
{
  WbCudaRuntime *rt;
  guint          pass;       /* bodies run so far */
  gboolean       vary;       /* the second run allocates another size */
  gboolean       sync;       /* the body synchronises */
  WbTensor      *kept[3];    /* what the run returns: c, d and b's result */
  CUdeviceptr    ptrs[2][4]; /* per pass: a, b, c, d */
  guint          calls;      /* the library closure's replays */
} Body;

static WbTensor *
f32 (WbCudaRuntime *rt, gint64 n)
{
  g_autoptr (GError) error = NULL;
  WbTensor *t = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, &n, &error);

  g_assert_no_error (error);
  return t;
}

static gboolean
library_call (gpointer data, CUstream stream, GError **error)
{
  Body *b = data;

  (void) error;
  g_assert_true (stream == b->rt->main);
  b->calls++;
  return TRUE;
}

static void
launch (WbCudaRuntime *rt, CUfunction fn, void **args)
{
  const guint grid[3] = { 4, 1, 1 };
  g_autoptr (GError) error = NULL;

  g_assert_true (wb_cuda_runtime_launch_ex (rt, fn, grid, 128, 0, args, "test", &error));
  g_assert_no_error (error);
}

static gboolean
body (gpointer data, GError **error)
{
  Body          *b = data;
  WbCudaRuntime *rt = b->rt;
  guint          k = MIN (b->pass, 1);
  WbTensor      *a = f32 (rt, b->vary && b->pass == 1 ? 512 : 256), *t_b = f32 (rt, 64), *c, *d;
  CUdeviceptr    pa = wb_cuda_tensor_ptr (a), pb = wb_cuda_tensor_ptr (t_b), pc, pd;
  gint64         n = 256;
  float          half = 0.5f, one = 1.0f;
  g_autoptr (WbTensor) host = NULL;
  g_autoptr (WbTensor) number = NULL;

  b->pass++;
  for (guint i = 0; i < 3; i++)
    g_clear_pointer (&b->kept[i], wb_tensor_unref);
  launch (rt, F_COPY, (void *[]){ &pa, &pb, &n });
  c = f32 (rt, 512);
  pc = wb_cuda_tensor_ptr (c);
  wb_tensor_unref (a); /* a's bytes may serve d */
  launch (rt, F_SCALE, (void *[]){ &pc, &half });
  host = wb_tensor_new (WB_DTYPE_FLOAT32, 0, NULL, NULL);
  *(float *) wb_tensor_get_data (host) = 2.0f;
  number = wb_cuda_upload (rt, host, error); /* a number the trace passes as a tensor */
  g_assert_nonnull (number);
  if (!wb_cuda_runtime_begin_side (rt, error))
    return FALSE;
  launch (rt, F_SCALE, (void *[]){ &pb, &one });
  wb_cuda_runtime_end_side (rt, &t_b, 1);
  if (wb_cuda_runtime_is_listing (rt))
    wb_cuda_runtime_record_call (rt, library_call, b, NULL);
  if (!wb_cuda_runtime_memset (rt, pc, 0, 16, error))
    return FALSE;
  d = f32 (rt, 256);
  pd = wb_cuda_tensor_ptr (d);
  launch (rt, F_COPY, (void *[]){ &pd, &pc, &n });
  b->ptrs[k][0] = pa, b->ptrs[k][1] = pb, b->ptrs[k][2] = pc, b->ptrs[k][3] = pd;
  b->kept[0] = c, b->kept[1] = d, b->kept[2] = t_b;
  return !b->sync || wb_cuda_runtime_synchronize (rt, error);
}

static GPtrArray *
kernel_lines (guint from)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = from; i < log_lines->len; i++)
    if (((const char *) log_lines->pdata[i])[0] == 'K')
      g_ptr_array_add (out, log_lines->pdata[i]);
  return out;
}

static void
body_clear (Body *b)
{
  for (guint i = 0; i < 3; i++)
    g_clear_pointer (&b->kept[i], wb_tensor_unref);
}

static void
test_replay (void)
{
  WbCudaRuntime *rt = fake_runtime ();
  Body           b = { .rt = rt };
  g_autoptr (GError) error = NULL;
  g_autoptr (WbCudaGraph) list = NULL;
  g_autoptr (GPtrArray) recorded = NULL;
  g_autoptr (GPtrArray) replayed = NULL;
  g_autofree char *desc = NULL;
  guint            allocs_before, lines_before, side_kernel = 0, fork = 0, join = 0;

  list = wb_cuda_graph_record_list (rt, body, &b, &error);
  g_assert_no_error (error);
  g_assert_nonnull (list);
  g_assert_true (wb_cuda_graph_is_list (list));
  g_assert_cmpuint (b.pass, ==, 2);
  desc = wb_cuda_graph_describe_list (list);
  g_test_message ("%s", desc);
  g_assert_nonnull (strstr (desc, "(4 kernel launches, 1 library calls, 1 memsets"));
  g_assert_nonnull (strstr (desc, "1 numbers kept"));
  /* the second run's launches, as the log has them: the last 4 kernels so far */
  {
    g_autoptr (GPtrArray) all = kernel_lines (0);
    g_assert_cmpuint (all->len, ==, 8);
    recorded = g_ptr_array_new ();
    for (guint i = 4; i < 8; i++)
      g_ptr_array_add (recorded, all->pdata[i]);
  }
  /* tensors live at once (c and d; b, which side work read) never share a byte */
  {
    const CUdeviceptr *p = b.ptrs[1];
    g_assert_true (p[2] + 512 * 4 <= p[3] || p[3] + 256 * 4 <= p[2]);
    g_assert_true (p[1] + 64 * 4 <= p[3] || p[3] + 256 * 4 <= p[1]);
    g_assert_true (p[1] + 64 * 4 <= p[2] || p[2] + 512 * 4 <= p[1]);
  }
  allocs_before = n_allocs;
  lines_before = log_lines->len;
  g_assert_true (wb_cuda_graph_launch (list, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_allocs, ==, allocs_before);
  g_assert_cmpuint (b.calls, ==, 1);
  replayed = kernel_lines (lines_before);
  g_assert_cmpuint (replayed->len, ==, recorded->len);
  for (guint i = 0; i < recorded->len; i++)
    g_assert_cmpstr (replayed->pdata[i], ==, recorded->pdata[i]);
  /* the side stream's kernel: after a wait of the side stream (the fork), and the run's stream waits after it */
  for (guint i = lines_before; i < log_lines->len; i++)
    {
      const char *l = log_lines->pdata[i];
      if (l[0] == 'K' && strstr (l, " 0x20:") != NULL)
        side_kernel = i;
      else if (g_str_has_prefix (l, "W 0x20 ") && side_kernel == 0)
        fork = i;
      else if (g_str_has_prefix (l, "W 0x10 ") && side_kernel != 0)
        join = i;
    }
  g_assert_cmpuint (side_kernel, >, 0);
  g_assert_cmpuint (fork, >, 0);
  g_assert_cmpuint (join, >, side_kernel);
  /* the memset of c repeats; the uploaded number's words do not (a constant the list keeps) */
  {
    guint m8 = 0, m32 = 0;
    for (guint i = lines_before; i < log_lines->len; i++)
      m8 += g_str_has_prefix (log_lines->pdata[i], "M8 "), m32 += g_str_has_prefix (log_lines->pdata[i], "M32 ");
    g_assert_cmpuint (m8, ==, 1);
    g_assert_cmpuint (m32, ==, 0);
  }
  g_assert_true (wb_cuda_graph_launch (list, &error));
  g_assert_cmpuint (b.calls, ==, 2);
  body_clear (&b);
  g_clear_pointer (&list, wb_cuda_graph_free);
  g_assert_null (rt->list);
  wb_test_fake_runtime_free (rt);
}

/* what a list cannot repeat: refused, and the runtime works as before after */
static void
test_refusals (void)
{
  struct
  {
    gboolean    vary, sync, no_info;
    const char *why;
  } cases[] = {
    { TRUE, FALSE, FALSE, "allocates differently" },
    { FALSE, TRUE, FALSE, "synchronises the stream" },
    { FALSE, FALSE, TRUE, "cuFuncGetParamInfo" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WbCudaRuntime *rt = fake_runtime ();
      Body           b = { .rt = rt, .vary = cases[i].vary, .sync = cases[i].sync };
      g_autoptr (GError) error = NULL;
      WbCudaGraph *list;
      WbTensor    *after;

      if (cases[i].no_info)
        rt->func_get_param_info = NULL;
      list = wb_cuda_graph_record_list (rt, body, &b, &error);
      g_assert_null (list);
      g_assert_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CAPTURE);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, cases[i].why));
      g_assert_null (rt->list);
      g_assert_false (wb_cuda_runtime_is_capturing (rt));
      body_clear (&b);
      after = f32 (rt, 16); /* from the pool, as before */
      g_assert_true (wb_cuda_tensor_ptr (after) >= POOL_BASE);
      wb_tensor_unref (after);
      wb_test_fake_runtime_free (rt);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cuda-launch-list/replay", test_replay);
  g_test_add_func ("/cuda-launch-list/refusals", test_refusals);
  return g_test_run ();
}
