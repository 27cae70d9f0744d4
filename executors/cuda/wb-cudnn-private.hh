/* wb-cudnn-private.hh — what the runner's cuDNN graphs share (wb-cudnn-sdpa.cc, wb-cudnn-conv.cc): the cache of
 * built graphs, one per key, refusals remembered; and a graph's run on a stream
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * C++ only, for the two files that include cudnn-frontend. Exceptions are the callers' to catch. */
#pragma once

#include <chrono>
#include <cudnn_frontend.h>
#include <memory>
#include <string>
#include <unordered_map>

#include "wb-cuda-runtime.h"

namespace wb_cudnn
{

/* The plan of @key (compared byte for byte) in @plans: on first use made and built by @build (a callable taking
 * the new plan, returning cudnn-frontend's error), the time added to @stats.build_ms and @stats.built or
 * @stats.refused counted; a refusal is kept in the plan's `refusal` (cuDNN's message, or the error code) so that
 * the key is not built again. (transfer none: @plans owns it) */
template <typename Plan, typename Key, typename Stats, typename Build>
Plan *
cached_plan (std::unordered_map<std::string, std::unique_ptr<Plan> > &plans, Stats &stats, const Key *key, Build &&build)
{
  std::string id (reinterpret_cast<const char *> (key), sizeof *key);
  auto        it = plans.find (id);

  if (it == plans.end ())
    {
      auto   plan = std::make_unique<Plan> ();
      auto   t0 = std::chrono::steady_clock::now ();
      auto   err = build (plan.get ());
      double ms = std::chrono::duration<double, std::milli> (std::chrono::steady_clock::now () - t0).count ();
      stats.build_ms += ms;
      if (err.is_bad ())
        {
          plan->refusal = err.get_message ();
          if (plan->refusal.empty ())
            plan->refusal = "no engine (error code " + std::to_string (static_cast<int> (err.get_code ())) + ")";
          stats.refused++;
        }
      else
        stats.built++;
      it = plans.emplace (id, std::move (plan)).first;
    }
  return it->second.get ();
}

/* Runs @graph with the device addresses of @pack (by tensor uid) and @workspace on @stream. FALSE with
 * WB_CUDA_ERROR_CALL, "cudnnSetStream: ..." or "@what: cuDNN's message". */
inline gboolean
execute (cudnnHandle_t handle, cudnn_frontend::graph::Graph &graph, CUstream stream, std::unordered_map<int64_t, void *> &pack, CUdeviceptr workspace, const char *what, GError **error)
{
  cudnnStatus_t st = cudnn_frontend::detail::set_stream (handle, reinterpret_cast<cudaStream_t> (stream));

  if (st != CUDNN_STATUS_SUCCESS)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cudnnSetStream: %s", cudnn_frontend::detail::get_error_string (st));
      return FALSE;
    }
  auto err = graph.execute (handle, pack, reinterpret_cast<void *> (static_cast<uintptr_t> (workspace)));
  if (err.is_bad ())
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "%s: %s", what, err.get_message ().c_str ());
      return FALSE;
    }
  return TRUE;
}

} // namespace wb_cudnn
