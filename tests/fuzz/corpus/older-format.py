import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast()
def augmented_forward_fn(*args):
  # args: "Collection" 
  t0, \
  t1, \
  = args
  t2 = ltorch.add(t0, t1)  # t2 
  clear_collection(args)
  return t2
