/* wb-cuda.h — the CUDA part of executors/: code generation (always built), and with the toolkit the
 * NVRTC compiler with its disk cache, the driver-API runtime and the nvrtc, cublas and cuda executors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: WbCudaPlan (CUDA C for a region or an op: wb-cuda-codegen.h), and in builds with -Dcuda the
 * loader of libcuda/libnvrtc/libcublasLt (dlopen: nothing links against them, so every program starts on
 * a machine without a driver), WbCudaRuntime (context, one stream, stream-ordered pool, device tensors)
 * and the executors. Depends on: compiler, executors, GLib; CUDA headers only inside -Dcuda code.
 * Only the runner process (profiler/wb-runner-main.c) and the tests load CUDA; the app and the GUI use
 * the code generation alone (export --as cuda).
 * Threads: one runtime per process, used from one thread. */
#pragma once

#include "wb-executors.h"

#define WB_EXECUTORS_INSIDE
#include "wb-cuda-codegen.h"
#undef WB_EXECUTORS_INSIDE
