# Constructed by Unwrap the actual return value
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x, y):
  # x: "cuda:0 f32[4096]"
  # y: "cuda:0 f32[4096]"
  [t5] = TorchCompile0(x, y)
    # t0 = ltorch.sin(x)  # t0: "cuda:0 f32[4096]"
      # t0 = prims.sin(x)  # t0: "cuda:0 f32[4096]"
    # t1 = ltorch.exp(y)  # t1: "cuda:0 f32[4096]"
      # t1 = prims.exp(y)  # t1: "cuda:0 f32[4096]"
    # t2 = ltorch.mul(t0, t1)  # t2: "cuda:0 f32[4096]"
      # t2 = prims.mul(t0, t1)  # t2: "cuda:0 f32[4096]"
    # t3 = ltorch.mul(x, 0.5)  # t3: "cuda:0 f32[4096]"
      # t3 = prims.mul(x, 0.5)  # t3: "cuda:0 f32[4096]"
    # t4 = ltorch.tanh(t3)  # t4: "cuda:0 f32[4096]"
      # t4 = prims.tanh(t3)  # t4: "cuda:0 f32[4096]"
    # t5 = ltorch.add(t2, t4, alpha=1)  # t5: "cuda:0 f32[4096]"
      # t5 = prims.add(t2, t4)  # t5: "cuda:0 f32[4096]"
  return (t5,)

import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def epilogue(t5):
  # t5: "cuda:0 f32[4096]"
  return t5
