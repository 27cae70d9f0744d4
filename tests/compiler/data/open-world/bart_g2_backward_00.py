# Constructed by Delete Last Used (took 0 milliseconds)
import torch
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
  t9, = cotangents
  # t9: "cuda:0 f32[2, 32, 64]"
  clear_mutable_collection(cotangents)
  del cotangents
  t18, = C0
  # t18: "cuda:0 i64[2, 32]"
  clear_mutable_collection(C0)
  del C0
  t24 = torch.torch.ops.aten.embedding_backward(t9, t18, 130, -1, False, False)  # t24: "cuda:0 f32[130, 64]"
    # t24 = ltorch.embedding_backward(t9, t18, 130, -1, False, False)  # t24: "cuda:0 f32[130, 64]"
      # t24 = prims.embedding_backward(t9, t18, 130, -1, False, False)  # t24: "cuda:0 f32[130, 64]"
  del t9, t18
  return (t24,)
