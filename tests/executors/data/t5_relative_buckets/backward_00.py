# Constructed by Delete Last Used (took 1 milliseconds)
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # cotangents: "Collection"
  C0, C1, = saved_for_backward
  # C0: "Collection"
  # C1: "Collection"
  clear_mutable_collection(saved_for_backward)
  clear_mutable_collection(C1)
  del C1, saved_for_backward
  t32, t35, = cotangents
  # t32: "cuda:0 f32[2, 4, 32, 32]"
  # t35: "cuda:0 f32[1, 4, 32, 32]"
  clear_mutable_collection(cotangents)
  del cotangents
  t60, t49, = C0
  # t60: "cuda:0 b8[2, 4, 32, 32]"
  # t49: "cuda:0 i64[32, 32]"
  clear_mutable_collection(C0)
  del C0
  t63 = torch.where(t60, t32, 0)  # t63: "cuda:0 f32[2, 4, 32, 32]"
    # t63 = ltorch.where(t60, t32, 0)  # t63: "cuda:0 f32[2, 4, 32, 32]"
      # t63 = prims.where(t60, t32, 0.0)  # t63: "cuda:0 f32[2, 4, 32, 32]"
  del t60, t32
  t66 = torch.sum(t63, (0,), False, dtype=None)  # t66: "cuda:0 f32[4, 32, 32]"
    # t66 = ltorch.sum(t63, (0,), False, dtype=None)  # t66: "cuda:0 f32[4, 32, 32]"
      # t64 = ltorch.to(t63, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t64: "cuda:0 f32[2, 4, 32, 32]"
        # t64 = prims.shallow_copy(t63)  # t64: "cuda:0 f32[2, 4, 32, 32]"
      # t65 = prims.sum(t64, (0,))  # t65: "cuda:0 f32[4, 32, 32]"
      # t66 = ltorch.to(t65, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t66: "cuda:0 f32[4, 32, 32]"
        # t66 = prims.shallow_copy(t65)  # t66: "cuda:0 f32[4, 32, 32]"
  del t63
  t67 = torch.unsqueeze(t66, 0)  # t67: "cuda:0 f32[1, 4, 32, 32]"
    # t67 = ltorch.unsqueeze(t66, 0)  # t67: "cuda:0 f32[1, 4, 32, 32]"
      # t67 = prims.broadcast_in_dim(t66, [1, 4, 32, 32], [1, 2, 3])  # t67: "cuda:0 f32[1, 4, 32, 32]"
  del t66
  t68 = Tensor.expand(t67, [1, 4, 32, 32])  # t68: "cuda:0 f32[1, 4, 32, 32]"
    # t68 = ltorch.expand(t67, [1, 4, 32, 32])  # t68: "cuda:0 f32[1, 4, 32, 32]"
      # t68 = prims.broadcast_in_dim(t67, (1, 4, 32, 32), (0, 1, 2, 3))  # t68: "cuda:0 f32[1, 4, 32, 32]"
  del t67
  t54 = torch.add(t35, t68, alpha=1)  # t54: "cuda:0 f32[1, 4, 32, 32]"
    # t54 = ltorch.add(t35, t68, alpha=1)  # t54: "cuda:0 f32[1, 4, 32, 32]"
      # t54 = prims.add(t35, t68)  # t54: "cuda:0 f32[1, 4, 32, 32]"
  del t35, t68
  t71 = torch.sum(t54, (0,), False, dtype=None)  # t71: "cuda:0 f32[4, 32, 32]"
    # t71 = ltorch.sum(t54, (0,), False, dtype=None)  # t71: "cuda:0 f32[4, 32, 32]"
      # t69 = ltorch.to(t54, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t69: "cuda:0 f32[1, 4, 32, 32]"
        # t69 = prims.shallow_copy(t54)  # t69: "cuda:0 f32[1, 4, 32, 32]"
      # t70 = prims.sum(t69, (0,))  # t70: "cuda:0 f32[4, 32, 32]"
      # t71 = ltorch.to(t70, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t71: "cuda:0 f32[4, 32, 32]"
        # t71 = prims.shallow_copy(t70)  # t71: "cuda:0 f32[4, 32, 32]"
  del t54
  t55 = torch.permute(t71, (1, 2, 0))  # t55: "cuda:0 f32[32, 32, 4]"
    # t55 = ltorch.permute(t71, (1, 2, 0))  # t55: "cuda:0 f32[32, 32, 4]"
      # t55 = prims.transpose(t71, (1, 2, 0))  # t55: "cuda:0 f32[32, 32, 4]"
  del t71
  t72 = torch.torch.ops.aten.embedding_backward(t55, t49, 32, -1, False, False)  # t72: "cuda:0 f32[32, 4]"
    # t72 = ltorch.embedding_backward(t55, t49, 32, -1, False, False)  # t72: "cuda:0 f32[32, 4]"
      # t72 = prims.embedding_backward(t55, t49, 32, -1, False, False)  # t72: "cuda:0 f32[32, 4]"
  del t55, t49
  return (None, None, None, None, t72, None)
