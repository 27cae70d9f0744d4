/* wb-profiler.h — the profiler module: runs, per-region statistics, kernel records, device ceilings,
 * the static cost model, and profiling a program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: the plain data of a profiling run (WbRun, WbRegionStats, WbKernelRecord, WbDeviceCeilings) and
 * order statistics over iteration times; bytes moved and FLOPs counted from a trace's types (WbCostModel);
 * the cpu's ceilings and their cache; WbProfile, which runs a program warm-up + N timed iterations on the
 * cpu and fills a WbRun; WbProfileJob, the profiling job every caller shares (device choice, the GPU runner
 * or the in-process cpu, ceilings, notes); the caller's side of the GPU runner process (WbRunner, wb-runner.h) and its
 * protocol (wb-runner-protocol.h); CUPTI activity records and their attribution to regions; the
 * communication of a multi-GPU run's ranks (wb-run-comm.h: collectives, NCCL kernels, overlap).
 * Depends on: compiler, executors (running), GLib, json-glib (the ceilings cache), OpenBLAS (the sgemm
 * ceiling). Nothing here knows SQLite or GTK.
 * Threads: the data types are plain structs with no locking: fill one from one thread, then share it
 * read-only. A WbProfile runs on the calling thread. */
#pragma once

#define WB_PROFILER_INSIDE
#include "wb-ceilings.h"
#include "wb-cost.h"
#include "wb-cupti.h"
#include "wb-op-estimate.h"
#include "wb-profile-group.h"
#include "wb-profile-job.h"
#include "wb-profile.h"
#include "wb-run-comm.h"
#include "wb-run.h"
#include "wb-runner-check.h"
#include "wb-runner.h"
#undef WB_PROFILER_INSIDE
