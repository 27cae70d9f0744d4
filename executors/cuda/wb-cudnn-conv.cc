/* wb-cudnn-conv.cc — cuDNN convolution and transposed convolution through cudnn-frontend, behind a C interface
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See wb-cudnn-conv.h. The cuDNN library and handle are wb-cudnn-sdpa.cc's (wb_cudnn_get_handle). Everything
 * that can throw is caught here and turned into a GError: no exception crosses into C. */
#include "config.h"

#include "wb-cudnn-conv.h"

#include <cudnn_frontend.h>
#include <memory>
#include <string>
#include <unordered_map>

#include "wb-cudnn-private.hh"
#include "wb-cudnn-sdpa.h"

namespace fe = cudnn_frontend;

struct _WbCudnnConvPlan
{
  std::shared_ptr<fe::graph::Graph> graph;
  int64_t                           workspace = 0;
  bool                              bias = false;
  std::string                       refusal; /* non-empty: no engine takes this key */
};

namespace
{

enum Uid : int64_t
{
  UID_X = 1,
  UID_W,
  UID_B,
  UID_Y,
};

struct State
{
  std::unordered_map<std::string, std::unique_ptr<_WbCudnnConvPlan> > plans; /* by the key's bytes */
  WbCudnnConvStats                                                    stats = {};
};

State &
state ()
{
  static State s;
  return s;
}

std::vector<int64_t>
vec (const gint64 *v, int n)
{
  return std::vector<int64_t> (v, v + n);
}

std::vector<int64_t>
contiguous_strides (const std::vector<int64_t> &dims)
{
  std::vector<int64_t> s (dims.size ());
  int64_t              acc = 1;
  for (size_t i = dims.size (); i-- > 0;)
    {
      s[i] = acc;
      acc *= dims[i];
    }
  return s;
}

fe::DataType_t
io_type (gint32 dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_BFLOAT16:
      return fe::DataType_t::BFLOAT16;
    case WB_DTYPE_FLOAT16:
      return fe::DataType_t::HALF;
    default:
      return fe::DataType_t::FLOAT;
    }
}

/* the graph of @k, built into @p; the error's message when cuDNN has no engine for it */
fe::error_t
build (cudnnHandle_t handle, const WbCudnnConvKey *k, _WbCudnnConvPlan *p, bool strict)
{
  auto                 g = std::make_shared<fe::graph::Graph> ();
  int                  n = k->rank, s = k->rank - 2;
  std::vector<int64_t> y_dims = vec (k->y_dims, n);

  g->set_io_data_type (io_type (k->dtype)).set_intermediate_data_type (fe::DataType_t::FLOAT).set_compute_data_type (fe::DataType_t::FLOAT);
  auto                                          x = g->tensor (fe::graph::Tensor_attributes ().set_name ("x").set_uid (UID_X).set_dim (vec (k->x_dims, n)).set_stride (vec (k->x_strides, n)));
  auto                                          w = g->tensor (fe::graph::Tensor_attributes ().set_name ("w").set_uid (UID_W).set_dim (vec (k->w_dims, n)).set_stride (vec (k->w_strides, n)));
  std::shared_ptr<fe::graph::Tensor_attributes> y;
  if (!k->transposed)
    y = g->conv_fprop (x, w,
                       fe::graph::Conv_fprop_attributes ()
                           .set_name ("conv")
                           .set_pre_padding (vec (k->pre_padding, s))
                           .set_post_padding (vec (k->post_padding, s))
                           .set_stride (vec (k->stride, s))
                           .set_dilation (vec (k->dilation, s)));
  else
    y = g->conv_dgrad (x, w,
                       fe::graph::Conv_dgrad_attributes ()
                           .set_name ("conv_transpose")
                           .set_pre_padding (vec (k->pre_padding, s))
                           .set_post_padding (vec (k->post_padding, s))
                           .set_stride (vec (k->stride, s))
                           .set_dilation (vec (k->dilation, s)));
  y->set_dim (y_dims);
  if (k->bias)
    {
      /* the bias as [1, K, 1, ...]: one value per output channel, broadcast by the pointwise add */
      std::vector<int64_t> b_dims (n, 1);
      b_dims[1] = y_dims[1];
      auto b = g->tensor (fe::graph::Tensor_attributes ().set_name ("bias").set_uid (UID_B).set_dim (b_dims).set_stride (contiguous_strides (b_dims)));
      y->set_data_type (fe::DataType_t::FLOAT);
      y = g->pointwise (y, b, fe::graph::Pointwise_attributes ().set_name ("bias_add").set_mode (fe::PointwiseMode_t::ADD));
    }
  y->set_output (true).set_dim (y_dims).set_stride (contiguous_strides (y_dims)).set_uid (UID_Y).set_data_type (io_type (k->dtype));
  fe::error_t err = g->validate ();
  if (err.is_good ())
    err = g->build_operation_graph (handle);
  if (err.is_good ())
    err = g->create_execution_plans ({ fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK });
  /* f32 exactly: engines on tensor cores compute f32 in TF32, FFT and Winograd engines transform the
   * operands and lose digits that a batch norm over few elements then amplifies (densenet121's last block);
   * no engine that sums in an order that changes from run to run, so that graph replays are bit-identical.
   * @strict FALSE keeps only the first rule, for shapes that no strict engine takes */
  if (err.is_good () && k->dtype == WB_DTYPE_FLOAT32 && k->tf32)
    g->deselect_numeric_notes ({ fe::NumericalNote_t::FFT, fe::NumericalNote_t::NONDETERMINISTIC });
  else if (err.is_good () && k->dtype == WB_DTYPE_FLOAT32 && !strict)
    g->deselect_numeric_notes ({ fe::NumericalNote_t::TENSOR_CORE });
  else if (err.is_good () && k->dtype == WB_DTYPE_FLOAT32)
    g->deselect_numeric_notes ({ fe::NumericalNote_t::TENSOR_CORE, fe::NumericalNote_t::DOWN_CONVERT_INPUTS,
                                 fe::NumericalNote_t::REDUCED_PRECISION_REDUCTION, fe::NumericalNote_t::FFT,
                                 fe::NumericalNote_t::WINOGRAD, fe::NumericalNote_t::WINOGRAD_TILE_4x4,
                                 fe::NumericalNote_t::WINOGRAD_TILE_6x6, fe::NumericalNote_t::WINOGRAD_TILE_13x13,
                                 fe::NumericalNote_t::NONDETERMINISTIC });
  else if (err.is_good () && strict)
    g->deselect_numeric_notes ({ fe::NumericalNote_t::NONDETERMINISTIC });
  if (err.is_good ())
    err = g->check_support ();
  if (err.is_good ())
    err = g->build_plans ();
  if (err.is_bad ())
    return err;
  err = g->get_workspace_size (p->workspace);
  if (err.is_bad ())
    return err;
  p->graph = g;
  p->bias = k->bias != 0;
  return err;
}

} // namespace

extern "C" WbCudnnConvPlan *
wb_cudnn_conv_plan (const WbCudnnConvKey *key, gint64 *workspace_bytes, GError **error)
{
  State        &s = state ();
  cudnnHandle_t handle;

  g_return_val_if_fail (key != nullptr && workspace_bytes != nullptr, nullptr);
  g_return_val_if_fail (key->rank == 4 || key->rank == 5, nullptr);
  if ((handle = static_cast<cudnnHandle_t> (wb_cudnn_get_handle (error))) == nullptr)
    return nullptr;
  try
    {
      _WbCudnnConvPlan *p = wb_cudnn::cached_plan (s.plans, s.stats, key, [handle, key] (_WbCudnnConvPlan *plan) {
        fe::error_t err = build (handle, key, plan, true);
        return err.is_good () ? err : build (handle, key, plan, false);
      });
      if (!p->refusal.empty ())
        {
          g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NOT_SUPPORTED, "cuDNN takes no %s%s graph of these shapes: %s",
                       key->transposed ? "transposed convolution" : "convolution", key->bias ? " + bias" : "", p->refusal.c_str ());
          return nullptr;
        }
      *workspace_bytes = p->workspace;
      return p;
    }
  catch (const std::exception &e)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NOT_SUPPORTED, "cuDNN convolution: %s", e.what ());
      return nullptr;
    }
}

extern "C" gboolean
wb_cudnn_conv_execute (WbCudnnConvPlan *plan, CUstream stream, CUdeviceptr x, CUdeviceptr w, CUdeviceptr bias, CUdeviceptr y, CUdeviceptr workspace, GError **error)
{
  cudnnHandle_t handle;

  g_return_val_if_fail (plan != nullptr && plan->graph != nullptr, FALSE);
  if ((handle = static_cast<cudnnHandle_t> (wb_cudnn_get_handle (error))) == nullptr)
    return FALSE;
  try
    {
      auto                                ptr = [] (CUdeviceptr p) { return reinterpret_cast<void *> (static_cast<uintptr_t> (p)); };
      std::unordered_map<int64_t, void *> pack = { { UID_X, ptr (x) }, { UID_W, ptr (w) }, { UID_Y, ptr (y) } };
      if (plan->bias)
        pack.emplace (UID_B, ptr (bias));
      return wb_cudnn::execute (handle, *plan->graph, stream, pack, workspace, "cuDNN convolution", error);
    }
  catch (const std::exception &e)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "cuDNN convolution: %s", e.what ());
      return FALSE;
    }
}

extern "C" void
wb_cudnn_conv_get_stats (WbCudnnConvStats *out)
{
  *out = state ().stats;
}
