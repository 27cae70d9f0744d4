/* wb-test-fake-cuda.h — a WbCudaRuntime over a fake driver table, for tests that need no GPU and no driver
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-cuda-arena.c and test-cuda-launch-list.c run the runtime's real paths (allocations, the second stream,
 * launch lists) against driver entry points they write themselves: the ones they log or answer in their own
 * way. This is what both need besides: made-up handles for the streams and the runtime's events (main stream
 * 0x10, second stream 0x20, fork, join and free events 0x30-0x32, already "made", so that forking only
 * records and waits), the tables a runtime keeps, and fakes for the entry points that only have to succeed.
 * Threads: the test's thread only. */
#pragma once

#include "wb-cuda-toolkit.h"
#define WB_EXECUTORS_COMPILATION
#include "wb-cuda-runtime-private.h"

G_BEGIN_DECLS

#define WB_TEST_FAKE_MAIN_STREAM ((CUstream) (guintptr) 0x10)
#define WB_TEST_FAKE_SIDE_STREAM ((CUstream) (guintptr) 0x20)

/* wb_test_fake_runtime_new: (transfer full) a runtime whose driver table is @cu (transfer none: it must outlive
 * the runtime). Entry points @cu leaves NULL among cuMemFreeAsync, cuEventRecord, cuStreamWaitEvent,
 * cuEventCreate, cuEventDestroy and cuStreamSynchronize are set to fakes that succeed (cuEventCreate hands out
 * new handles from 0x900). Free it with wb_test_fake_runtime_free. */
WbCudaRuntime *wb_test_fake_runtime_new (WbCuApi *cu);

/* wb_test_fake_runtime_free: frees @rt's tables (an arena the test set must be given back first) and @rt. */
void wb_test_fake_runtime_free (WbCudaRuntime *rt);

G_END_DECLS
