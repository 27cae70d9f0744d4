/* wb-cuda-toolkit.h — the part of executors/cuda/ that needs the CUDA toolkit (-Dcuda builds only)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: the loader of libcuda, libnvrtc and libcublasLt (dlopen: WbCuApi, WbNvrtcApi, WbLtApi), NVRTC
 * compiles with their disk cache, WbCudaRuntime (context, streams, the stream-ordered pool, device
 * tensors, modules, plan launches), the runner's nvrtc, cublas, cuda and cpu executors, CUDA graphs
 * (WbCudaGraph), convolution (cuDNN), attention (FlashAttention-2 kernels, cuBLASLt GEMMs and NVRTC row kernels) and the
 * hand-written kernels.
 * Depends on: wb-cuda.h (the code generation), executors, compiler, GLib; the toolkit's cuda.h, nvrtc.h
 * and cublasLt.h at build time. Only the runner process (profiler/thunder-wb-runner) and the tests
 * include it (they link wbcuda_dep); the app and the GUI include wb-cuda.h alone.
 * Threads: one runtime per process, used from one thread. */
#pragma once

#include "wb-cuda.h"

#define WB_EXECUTORS_INSIDE
#include "wb-cuda-attention.h"
#include "wb-cuda-conv.h"
#include "wb-cuda-executors.h"
#include "wb-cuda-flash.h"
#include "wb-cuda-graph.h"
#include "wb-cuda-kernels.h"
#include "wb-cuda-loader.h"
#include "wb-cuda-nccl.h"
#include "wb-cuda-runtime.h"
#include "wb-nvrtc.h"
#undef WB_EXECUTORS_INSIDE
