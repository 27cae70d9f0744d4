/* wb-profile-group.h — a multi-GPU run: one WbProfileJob per rank, one runner per GPU, NCCL between them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ranks of a DDP, FSDP or tensor-parallel program each have their own traces (CASE/rank<N>/: each rank's
 * program, inputs and shards). wb_profile_group_run starts rank r's runner on GPU r (WB_CUDA_DEVICE), asks
 * rank 0's runner for NCCL's unique id, passes it to every rank, and runs the jobs at once, one thread each
 * (every runner blocks in ncclCommInitRank until all ranks joined, and in each collective until its peers
 * reach it). When a rank fails, the other ranks' runners are ended, so that no rank waits forever for a peer
 * that will not come; the error names the rank. Each run gets rank, world_size, clock_origin_ns (the ranks
 * of one host share CLOCK_MONOTONIC: their kernels align) and the group's id (WbRun.group).
 * Threads: call from one thread; it starts and joins one thread per rank. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include "wb-profile-job.h"

G_BEGIN_DECLS

/* wb_profile_group_run: runs @jobs (@n_jobs of them, job r is rank r; configured as for wb_profile_job_run,
 * device cuda, the device not chosen yet) as one multi-GPU run on GPUs 0..n_jobs-1. (transfer full)
 * (element-type WbRun) the runs in rank order, or NULL with the first failure: WB_PROFILE_ERROR_UNAVAILABLE
 * (fewer GPUs than ranks, no runner, no NCCL), or the failing rank's own error prefixed "rank N: ". Each job
 * keeps its notes, warnings and ceilings (wb_profile_job_get_*). */
GPtrArray *wb_profile_group_run (WbProfileJob **jobs, guint n_jobs, GError **error);

G_END_DECLS
