/* wb-executors.h — the executors module: tensors and the runtime, the executor interface, the cpu
 * executor, programs and their runs, safetensors files, seeded inputs of a case
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: WbTensor (strided views of refcounted host storage), bf16/f16 conversion, Philox 4x32-10, the
 * interpreter's values (WbRtValue), the executor vtable (WbExecutor) and its registry, the `cpu`
 * executor, WbProgram (a stage + an assignment) and running it, safetensors reading and writing,
 * WbCase (a traces/<case>/ directory's inputs, references and stages) and tensor comparison.
 * Depends on: compiler (wb-compiler.h), GLib, json-glib, OpenBLAS. CUDA executors will live in a separate
 * shared module loaded by the runner process (DESIGN.md).
 * Threads: a run happens on the calling thread; kernels split large loops over worker threads. Traces
 * are shared read-only; WbRtValues of one run belong to that run. */
#pragma once

#define WB_EXECUTORS_INSIDE
#include "cpu/wb-cpu-executor.h"
#include "wb-case-run.h"
#include "wb-case.h"
#include "wb-compare.h"
#include "wb-compiler.h"
#include "wb-executor.h"
#include "wb-half.h"
#include "wb-memory-plan.h"
#include "wb-philox.h"
#include "wb-program.h"
#include "wb-rt-value.h"
#include "wb-safetensors.h"
#include "wb-tensor.h"
#undef WB_EXECUTORS_INSIDE
