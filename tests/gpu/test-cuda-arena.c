/* test-cuda-arena.c — the memory plan arena's bookkeeping (wb-cuda-arena.c) with fake device pointers
 * (suite executors: no GPU, no driver)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A runtime whose driver table answers allocations with made-up addresses: device tensors are made and
 * dropped through the real paths (wb_cuda_tensor_new, the tensor's destroy), so what is checked is the
 * arena's rule itself: a planned place is never handed out while a tensor still holds a byte of it. The
 * cases: a run's result the caller keeps (the checked run's outputs, which later runs and graph replays
 * must never write, or the comparison would compare memory with itself); a partial overlap; a block
 * from before a capture dropped during it (every replay reads it); the side stream, whose ranges are held
 * until it is joined; a temporary of a call that gives its place back to the call's output. */
#include "config.h"

#include <string.h>

#include "wb-test-common.h"
#include "wb-test-fake-cuda.h"

#define ARENA_BASE ((CUdeviceptr) 0x7f0000000000ull)
#define ARENA_SIZE ((gint64) 1 << 20)
#define POOL_BASE ((CUdeviceptr) 0x100000000ull)

static CUdeviceptr next_pool = POOL_BASE;

/* the arena is the first allocation of each runtime; the pool's blocks are far from it */
static CUresult
fake_alloc (CUdeviceptr *p, size_t n, CUstream s)
{
  (void) s;
  if (n == (size_t) ARENA_SIZE)
    *p = ARENA_BASE;
  else
    {
      *p = next_pool;
      next_pool += (n + 0xfff) & ~(size_t) 0xfff;
    }
  return CUDA_SUCCESS;
}

static WbCuApi fake_cu;

static WbCudaRuntime *
fake_runtime (void)
{
  WbCudaRuntime *rt;
  g_autoptr (GError) error = NULL;

  fake_cu.cuMemAllocAsync = fake_alloc;
  rt = wb_test_fake_runtime_new (&fake_cu);
  g_assert_true (wb_cuda_runtime_set_arena (rt, ARENA_SIZE, &error));
  g_assert_no_error (error);
  return rt;
}

static void
fake_runtime_free (WbCudaRuntime *rt)
{
  g_assert_true (wb_cuda_runtime_set_arena (rt, 0, NULL));
  wb_test_fake_runtime_free (rt);
}

/* a device tensor of @nbytes (f32) made while the call's places are @off (one place of @nbytes) */
static WbTensor *
alloc_at (WbCudaRuntime *rt, gint64 off, gint64 nbytes)
{
  gint64 shape[1] = { nbytes / 4 };
  g_autoptr (GError) error = NULL;
  WbTensor *t;

  if (off >= 0)
    wb_cuda_runtime_expect (rt, &off, &nbytes, 1);
  t = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, shape, &error);
  g_assert_no_error (error);
  wb_cuda_runtime_expect (rt, NULL, NULL, 0);
  return t;
}

static gboolean
bytes_meet (const WbTensor *a, const WbTensor *b)
{
  CUdeviceptr pa = wb_cuda_tensor_ptr (a), pb = wb_cuda_tensor_ptr (b);

  return pa < pb + (CUdeviceptr) wb_tensor_nbytes (b) && pb < pa + (CUdeviceptr) wb_tensor_nbytes (a);
}

/* A result the caller keeps holds its place: the next run's output planned there takes the pool's path */
static void
test_kept_result (void)
{
  WbCudaRuntime     *rt = fake_runtime ();
  WbCudaRuntimeStats st;
  WbTensor          *checked = alloc_at (rt, 0, 4096), *again, *after;

  g_assert_true (wb_cuda_tensor_in_arena (checked));
  g_assert_true (wb_cuda_tensor_ptr (checked) == ARENA_BASE);
  again = alloc_at (rt, 0, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (again));
  g_assert_false (bytes_meet (checked, again));
  wb_cuda_runtime_get_stats (rt, &st);
  g_assert_cmpuint (st.arena_allocs, ==, 1);
  g_assert_cmpuint (st.arena_misses, ==, 1);
  /* a place that covers part of it is refused too */
  after = alloc_at (rt, 2048, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (after));
  g_assert_false (bytes_meet (checked, after));
  wb_tensor_unref (after);
  wb_tensor_unref (again);
  /* a view keeps the storage: the place stays busy while it lives */
  {
    gint64    shape[1] = { 512 }, strides[1] = { 1 };
    WbTensor *view = wb_tensor_new_view (checked, WB_DTYPE_FLOAT32, 1, shape, strides, 512);
    wb_tensor_unref (checked);
    after = alloc_at (rt, 0, 4096);
    g_assert_false (wb_cuda_tensor_in_arena (after));
    wb_tensor_unref (after);
    wb_tensor_unref (view);
  }
  /* dropped: the place is free again */
  after = alloc_at (rt, 0, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (after));
  wb_tensor_unref (after);
  fake_runtime_free (rt);
}

/* A block from before a capture, dropped during it, is read by every replay: its place is never handed out
 * again. A run's result kept across the capture (the checked run's outputs, were they in the arena) is
 * never a captured output's place, so no replay writes it. */
static void
test_capture (void)
{
  WbCudaRuntime *rt = fake_runtime ();
  WbTensor      *checked = alloc_at (rt, 0, 4096), *before = alloc_at (rt, 8192, 4096), *t, *u;

  rt->capturing = TRUE;
  rt->capture_serial = 1;
  wb_tensor_unref (before);
  t = alloc_at (rt, 8192, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (t));
  u = alloc_at (rt, 0, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (u));
  g_assert_false (bytes_meet (checked, u));
  wb_tensor_unref (u);
  /* the capture's own blocks: dropped during it, their places serve the capture again */
  wb_tensor_unref (t);
  t = alloc_at (rt, 16384, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  u = alloc_at (rt, 16384, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (u));
  rt->capturing = FALSE;
  /* after the capture, the pinned range stays busy */
  t = alloc_at (rt, 8192, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  wb_tensor_unref (u);
  wb_tensor_unref (checked);
  fake_runtime_free (rt);
}

/* A place the side stream took, or a range dropped while a call runs there, is busy until the join */
static void
test_side (void)
{
  WbCudaRuntime *rt = fake_runtime ();
  WbTensor      *s, *t;
  GError        *error = NULL;

  g_assert_true (wb_cuda_runtime_begin_side (rt, &error));
  g_assert_no_error (error);
  s = alloc_at (rt, 0, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (s));
  wb_cuda_runtime_end_side (rt, &s, 1);
  wb_tensor_unref (s); /* dropped on the run's stream, side work not joined */
  t = alloc_at (rt, 0, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  /* a temporary dropped during a side call, never marked by its end */
  g_assert_true (wb_cuda_runtime_begin_side (rt, &error));
  s = alloc_at (rt, 4096, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (s));
  wb_tensor_unref (s);
  wb_cuda_runtime_end_side (rt, NULL, 0);
  t = alloc_at (rt, 4096, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  /* made on the run's stream, dropped while a side call (which may read it) runs */
  s = alloc_at (rt, 8192, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (s));
  g_assert_true (wb_cuda_runtime_begin_side (rt, &error));
  wb_tensor_unref (s);
  wb_cuda_runtime_end_side (rt, NULL, 0);
  t = alloc_at (rt, 8192, 4096);
  g_assert_false (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  g_assert_true (wb_cuda_runtime_join_side (rt, &error));
  g_assert_no_error (error);
  t = alloc_at (rt, 8192, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  t = alloc_at (rt, 0, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  t = alloc_at (rt, 4096, 4096);
  g_assert_true (wb_cuda_tensor_in_arena (t));
  wb_tensor_unref (t);
  fake_runtime_free (rt);
}

/* Within one call: a temporary of the output's size that is dropped before the output is made gives the
 * place back; one still alive does not */
static void
test_temporary (void)
{
  WbCudaRuntime *rt = fake_runtime ();
  gint64         off = 0, nbytes = 4096, shape[1] = { 1024 };
  WbTensor      *tmp, *out, *out2;

  wb_cuda_runtime_expect (rt, &off, &nbytes, 1);
  tmp = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, shape, NULL);
  g_assert_true (wb_cuda_tensor_in_arena (tmp));
  wb_tensor_unref (tmp);
  out = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, shape, NULL);
  g_assert_true (wb_cuda_tensor_in_arena (out));
  out2 = wb_cuda_tensor_new (rt, WB_DTYPE_FLOAT32, 1, shape, NULL);
  g_assert_false (wb_cuda_tensor_in_arena (out2));
  g_assert_false (bytes_meet (out, out2));
  wb_cuda_runtime_expect (rt, NULL, NULL, 0);
  wb_tensor_unref (out2);
  wb_tensor_unref (out);
  fake_runtime_free (rt);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cuda-arena/kept-result", test_kept_result);
  g_test_add_func ("/cuda-arena/capture", test_capture);
  g_test_add_func ("/cuda-arena/side", test_side);
  g_test_add_func ("/cuda-arena/temporary", test_temporary);
  return g_test_run ();
}
