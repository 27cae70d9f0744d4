/* wb-cudnn-sdpa.cc — cuDNN scaled dot-product attention through cudnn-frontend, behind a C interface
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See wb-cudnn-sdpa.h. Everything that can throw (the frontend's dlopen of libcudart, std::bad_alloc) is
 * caught here and turned into a GError: no exception crosses into C. */
#include "config.h"

#include "wb-cudnn-sdpa.h"

#include <cudnn_frontend.h>
#include <memory>
#include <string>
#include <unordered_map>

#include "wb-cudnn-private.hh"

namespace fe = cudnn_frontend;

/* the frontend's dynamic loading resolves every cuDNN call through this handle (cudnn_frontend_shim.h) */
namespace cudnn_frontend
{
void *cudnn_dlhandle = nullptr;
}

struct _WbCudnnSdpaPlan
{
  std::shared_ptr<fe::graph::Graph> graph;
  int64_t                           workspace = 0;
  bool                              backward = false;
  std::string                       refusal; /* non-empty: no engine takes this key */
};

namespace
{

enum Uid : int64_t
{
  UID_Q = 1,
  UID_K,
  UID_V,
  UID_O,
  UID_STATS,
  UID_DO,
  UID_DQ,
  UID_DK,
  UID_DV,
};

struct State
{
  bool                                                               tried = false;
  std::string                                                        load_error;
  cudnnHandle_t                                                      handle = nullptr;
  size_t                                                             version = 0;
  std::unordered_map<std::string, std::unique_ptr<WbCudnnSdpaPlan> > plans; /* by the key's bytes */
  WbCudnnSdpaStats                                                   stats = {};
};

State &
state ()
{
  static State s;
  return s;
}

/* libcudart for the frontend: the one beside the NVRTC we opened, unless the user chose one */
void
point_frontend_at_cudart ()
{
  const char *nvrtc = wb_cuda_get_library_path ("nvrtc");
  if (g_getenv ("CUDNN_FRONTEND_CUDART_LIB_NAME") != nullptr || nvrtc == nullptr || !g_path_is_absolute (nvrtc))
    return;
  g_autofree char *dir = g_path_get_dirname (nvrtc);
  g_autofree char *so = g_strdup_printf ("libcudart.so.%d", WB_CUDA_MAJOR);
  g_autofree char *path = g_build_filename (dir, so, nullptr);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    g_setenv ("CUDNN_FRONTEND_CUDART_LIB_NAME", path, FALSE);
}

bool
load (GError **error)
{
  State &s = state ();

  if (!s.tried)
    {
      s.tried = true;
      GError *local = nullptr;
      char   *path = nullptr;
      try
        {
          fe::cudnn_dlhandle = wb_cuda_open_library ("libcudnn.so.9", &path, &local);
          g_free (path);
          if (fe::cudnn_dlhandle == nullptr)
            {
              s.load_error = local->message;
              g_clear_error (&local);
            }
          else
            {
              point_frontend_at_cudart ();
              s.version = fe::detail::get_backend_version ();
              cudnnStatus_t st = fe::detail::create_handle (&s.handle);
              if (st != CUDNN_STATUS_SUCCESS)
                s.load_error = std::string ("cudnnCreate: ") + fe::detail::get_error_string (st);
              else if (s.version < 90000)
                s.load_error = "cuDNN " + std::to_string (s.version) + " is older than 9.0";
            }
        }
      catch (const std::exception &e)
        {
          s.load_error = e.what ();
        }
      if (!s.load_error.empty ())
        s.handle = nullptr;
    }
  if (s.handle == nullptr)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY, "cuDNN is not available: %s", s.load_error.c_str ());
      return false;
    }
  return true;
}

std::vector<int64_t>
vec4 (const gint64 *v)
{
  return { v[0], v[1], v[2], v[3] };
}

std::shared_ptr<fe::graph::Tensor_attributes>
tensor (fe::graph::Graph &g, const char *name, Uid uid, std::vector<int64_t> dims, std::vector<int64_t> strides)
{
  return g.tensor (fe::graph::Tensor_attributes ().set_name (name).set_uid (uid).set_dim (dims).set_stride (strides));
}

/* the graph of @k, built; the error's message when cuDNN has no engine for it */
fe::error_t
build (const WbCudnnSdpaKey *k, _WbCudnnSdpaPlan *p)
{
  State               &s = state ();
  auto                 g = std::make_shared<fe::graph::Graph> ();
  auto                 io = k->dtype == WB_DTYPE_BFLOAT16 ? fe::DataType_t::BFLOAT16 : fe::DataType_t::HALF;
  std::vector<int64_t> q_dims = { k->b, k->h, k->tq, k->e }, kv_dims = { k->b, k->h, k->tk, k->e };
  std::vector<int64_t> stats_dims = { k->b, k->h, k->tq, 1 }, stats_strides = { k->h * k->lse_len, k->lse_len, 1, 1 };

  g->set_io_data_type (io).set_intermediate_data_type (fe::DataType_t::FLOAT).set_compute_data_type (fe::DataType_t::FLOAT);
  auto q = tensor (*g, "q", UID_Q, q_dims, vec4 (k->q_strides));
  auto kk = tensor (*g, "k", UID_K, kv_dims, vec4 (k->k_strides));
  auto v = tensor (*g, "v", UID_V, kv_dims, vec4 (k->v_strides));
  if (!k->backward)
    {
      auto opts = fe::graph::SDPA_attributes ().set_name ("sdpa").set_generate_stats (true).set_causal_mask (k->causal != 0).set_attn_scale (k->scale);
      auto [o, stats] = g->sdpa (q, kk, v, opts);
      o->set_output (true).set_dim (q_dims).set_stride (vec4 (k->o_strides)).set_uid (UID_O);
      stats->set_output (true).set_data_type (fe::DataType_t::FLOAT).set_dim (stats_dims).set_stride (stats_strides).set_uid (UID_STATS);
    }
  else
    {
      auto o = tensor (*g, "o", UID_O, q_dims, vec4 (k->o_strides));
      auto d_o = tensor (*g, "do", UID_DO, q_dims, vec4 (k->do_strides));
      auto stats = tensor (*g, "stats", UID_STATS, stats_dims, stats_strides);
      stats->set_data_type (fe::DataType_t::FLOAT);
      auto opts = fe::graph::SDPA_backward_attributes ().set_name ("sdpa_backward").set_causal_mask (k->causal != 0).set_attn_scale (k->scale);
      auto [dq, dk, dv] = g->sdpa_backward (q, kk, v, o, d_o, stats, opts);
      std::vector<int64_t> q_c = { k->h * k->tq * k->e, k->tq * k->e, k->e, 1 }, kv_c = { k->h * k->tk * k->e, k->tk * k->e, k->e, 1 };
      dq->set_output (true).set_dim (q_dims).set_stride (q_c).set_uid (UID_DQ);
      dk->set_output (true).set_dim (kv_dims).set_stride (kv_c).set_uid (UID_DK);
      dv->set_output (true).set_dim (kv_dims).set_stride (kv_c).set_uid (UID_DV);
    }
  auto err = g->build (s.handle, { fe::HeurMode_t::A });
  if (err.is_bad ())
    return err;
  err = g->get_workspace_size (p->workspace);
  if (err.is_bad ())
    return err;
  p->graph = g;
  p->backward = k->backward != 0;
  return err;
}

} // namespace

extern "C" gboolean
wb_cudnn_load (gsize *version, GError **error)
{
  if (!load (error))
    return FALSE;
  if (version)
    *version = state ().version;
  return TRUE;
}

extern "C" gpointer
wb_cudnn_get_handle (GError **error)
{
  return load (error) ? static_cast<gpointer> (state ().handle) : nullptr;
}

extern "C" WbCudnnSdpaPlan *
wb_cudnn_sdpa_plan (const WbCudnnSdpaKey *key, gint64 *workspace_bytes, GError **error)
{
  State &s = state ();

  g_return_val_if_fail (key != nullptr && workspace_bytes != nullptr, nullptr);
  if (!load (error))
    return nullptr;
  try
    {
      _WbCudnnSdpaPlan *p = wb_cudnn::cached_plan (s.plans, s.stats, key, [key] (_WbCudnnSdpaPlan *plan) { return build (key, plan); });
      if (!p->refusal.empty ())
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NOT_SUPPORTED, "cuDNN %zu takes no %s graph of these shapes: %s", s.version,
                       key->backward ? "backward" : "forward", p->refusal.c_str ());
          return nullptr;
        }
      *workspace_bytes = p->workspace;
      return p;
    }
  catch (const std::exception &e)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NOT_SUPPORTED, "cuDNN: %s", e.what ());
      return nullptr;
    }
}

extern "C" gboolean
wb_cudnn_sdpa_execute (WbCudnnSdpaPlan *plan, CUstream stream, const CUdeviceptr *ptrs, CUdeviceptr workspace, GError **error)
{
  State &s = state ();

  g_return_val_if_fail (plan != nullptr && plan->graph != nullptr, FALSE);
  try
    {
      static const Uid                    fwd[] = { UID_Q, UID_K, UID_V, UID_O, UID_STATS };
      static const Uid                    bwd[] = { UID_Q, UID_K, UID_V, UID_O, UID_DO, UID_STATS, UID_DQ, UID_DK, UID_DV };
      const Uid                          *uids = plan->backward ? bwd : fwd;
      size_t                              n = plan->backward ? G_N_ELEMENTS (bwd) : G_N_ELEMENTS (fwd);
      std::unordered_map<int64_t, void *> pack;
      for (size_t i = 0; i < n; i++)
        pack.emplace (uids[i], reinterpret_cast<void *> (static_cast<uintptr_t> (ptrs[i])));
      return wb_cudnn::execute (s.handle, *plan->graph, stream, pack, workspace, plan->backward ? "cuDNN attention backward" : "cuDNN attention forward",
                                error);
    }
  catch (const std::exception &e)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cuDNN attention: %s", e.what ());
      return FALSE;
    }
}

extern "C" void
wb_cudnn_sdpa_get_stats (WbCudnnSdpaStats *out)
{
  *out = state ().stats;
}
