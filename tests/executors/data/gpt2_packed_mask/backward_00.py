# Constructed by Delete Last Used (took 3 milliseconds)
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
  t164, _, t166, = cotangents
  # t164: "cuda:0 f32[64, 64]"
  # None
  # t166: "cuda:0 f32[2, 32, 64]"
  clear_mutable_collection(cotangents)
  del cotangents
  t299, t292, t303, t327, t305, t342, t304, t332, = C0
  # t299: "cuda:0 f32[2, 32]"
  # t292: "cuda:0 f32[2, 32, 64]"
  # t303: "cuda:0 f32[2, 32, 1]"
  # t327: "cuda:0 f32[2, 32, 64]"
  # t305: "cuda:0 f32[2, 32, 64]"
  # t342: "cuda:0 f32[2, 32, 64]"
  # t304: "cuda:0 f32[2, 32, 64]"
  # t332: "cuda:0 f32[2, 32, 64]"
  clear_mutable_collection(C0)
  del C0
  t338 = torch.unsqueeze(t299, 2)  # t338: "cuda:0 f32[2, 32, 1]"
    # t338 = ltorch.unsqueeze(t299, 2)  # t338: "cuda:0 f32[2, 32, 1]"
      # t338 = prims.broadcast_in_dim(t299, [2, 32, 1], [0, 1])  # t338: "cuda:0 f32[2, 32, 1]"
  del t299
  t339 = Tensor.expand(t338, [2, 32, 1])  # t339: "cuda:0 f32[2, 32, 1]"
    # t339 = ltorch.expand(t338, [2, 32, 1])  # t339: "cuda:0 f32[2, 32, 1]"
      # t339 = prims.broadcast_in_dim(t338, (2, 32, 1), (0, 1, 2))  # t339: "cuda:0 f32[2, 32, 1]"
  del t338
  t340 = Tensor.expand(t339, (2, 32, 64))  # t340: "cuda:0 f32[2, 32, 64]"
    # t340 = ltorch.expand(t339, (2, 32, 64))  # t340: "cuda:0 f32[2, 32, 64]"
      # t340 = prims.broadcast_in_dim(t339, (2, 32, 64), (0, 1, 2))  # t340: "cuda:0 f32[2, 32, 64]"
  del t339
  t319 = torch.sub(t292, t340, alpha=1)  # t319: "cuda:0 f32[2, 32, 64]"
    # t319 = ltorch.sub(t292, t340, alpha=1)  # t319: "cuda:0 f32[2, 32, 64]"
      # t319 = prims.sub(t292, t340)  # t319: "cuda:0 f32[2, 32, 64]"
  del t292, t340
  t315 = torch.pow(t303, 3.0)  # t315: "cuda:0 f32[2, 32, 1]"
    # t315 = ltorch.pow(t303, 3.0)  # t315: "cuda:0 f32[2, 32, 1]"
      # t315 = prims.pow(t303, 3.0)  # t315: "cuda:0 f32[2, 32, 1]"
  del t303
  t344 = torch_prims_reshape_impl(t164, (2, 32, 64))  # t344: "cuda:0 f32[2, 32, 64]"
  del t164
  t347 = torch.sum(t344, (0, 1), False, dtype=None)  # t347: "cuda:0 f32[64]"
    # t347 = ltorch.sum(t344, (0, 1), False, dtype=None)  # t347: "cuda:0 f32[64]"
      # t345 = ltorch.to(t344, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t345: "cuda:0 f32[2, 32, 64]"
        # t345 = prims.shallow_copy(t344)  # t345: "cuda:0 f32[2, 32, 64]"
      # t346 = prims.sum(t345, (0, 1))  # t346: "cuda:0 f32[64]"
      # t347 = ltorch.to(t346, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t347: "cuda:0 f32[64]"
        # t347 = prims.shallow_copy(t346)  # t347: "cuda:0 f32[64]"
  t309 = torch.mul(t327, t344)  # t309: "cuda:0 f32[2, 32, 64]"
    # t309 = ltorch.mul(t327, t344)  # t309: "cuda:0 f32[2, 32, 64]"
      # t309 = prims.mul(t327, t344)  # t309: "cuda:0 f32[2, 32, 64]"
  del t327
  t310 = torch.mul(t305, t344)  # t310: "cuda:0 f32[2, 32, 64]"
    # t310 = ltorch.mul(t305, t344)  # t310: "cuda:0 f32[2, 32, 64]"
      # t310 = prims.mul(t305, t344)  # t310: "cuda:0 f32[2, 32, 64]"
  del t305, t344
  t311 = torch.mul(t342, t309)  # t311: "cuda:0 f32[2, 32, 64]"
    # t311 = ltorch.mul(t342, t309)  # t311: "cuda:0 f32[2, 32, 64]"
      # t311 = prims.mul(t342, t309)  # t311: "cuda:0 f32[2, 32, 64]"
  del t342
  t312 = torch.mul(t304, t309)  # t312: "cuda:0 f32[2, 32, 64]"
    # t312 = ltorch.mul(t304, t309)  # t312: "cuda:0 f32[2, 32, 64]"
      # t312 = prims.mul(t304, t309)  # t312: "cuda:0 f32[2, 32, 64]"
  del t304, t309
  t350 = torch.sum(t310, (0, 1), False, dtype=None)  # t350: "cuda:0 f32[64]"
    # t350 = ltorch.sum(t310, (0, 1), False, dtype=None)  # t350: "cuda:0 f32[64]"
      # t348 = ltorch.to(t310, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t348: "cuda:0 f32[2, 32, 64]"
        # t348 = prims.shallow_copy(t310)  # t348: "cuda:0 f32[2, 32, 64]"
      # t349 = prims.sum(t348, (0, 1))  # t349: "cuda:0 f32[64]"
      # t350 = ltorch.to(t349, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t350: "cuda:0 f32[64]"
        # t350 = prims.shallow_copy(t349)  # t350: "cuda:0 f32[64]"
  del t310
  t353 = torch.sum(t312, (2,), False, dtype=None)  # t353: "cuda:0 f32[2, 32]"
    # t353 = ltorch.sum(t312, (2,), False, dtype=None)  # t353: "cuda:0 f32[2, 32]"
      # t351 = ltorch.to(t312, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t351: "cuda:0 f32[2, 32, 64]"
        # t351 = prims.shallow_copy(t312)  # t351: "cuda:0 f32[2, 32, 64]"
      # t352 = prims.sum(t351, (2,))  # t352: "cuda:0 f32[2, 32]"
      # t353 = ltorch.to(t352, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t353: "cuda:0 f32[2, 32]"
        # t353 = prims.shallow_copy(t352)  # t353: "cuda:0 f32[2, 32]"
  del t312
  t354 = torch.unsqueeze(t353, 2)  # t354: "cuda:0 f32[2, 32, 1]"
    # t354 = ltorch.unsqueeze(t353, 2)  # t354: "cuda:0 f32[2, 32, 1]"
      # t354 = prims.broadcast_in_dim(t353, [2, 32, 1], [0, 1])  # t354: "cuda:0 f32[2, 32, 1]"
  del t353
  t355 = Tensor.expand(t354, [2, 32, 1])  # t355: "cuda:0 f32[2, 32, 1]"
    # t355 = ltorch.expand(t354, [2, 32, 1])  # t355: "cuda:0 f32[2, 32, 1]"
      # t355 = prims.broadcast_in_dim(t354, (2, 32, 1), (0, 1, 2))  # t355: "cuda:0 f32[2, 32, 1]"
  del t354
  t356 = torch.neg(t311)  # t356: "cuda:0 f32[2, 32, 64]"
    # t356 = ltorch.neg(t311)  # t356: "cuda:0 f32[2, 32, 64]"
      # t356 = prims.neg(t311)  # t356: "cuda:0 f32[2, 32, 64]"
  t359 = torch.sum(t356, (2,), False, dtype=None)  # t359: "cuda:0 f32[2, 32]"
    # t359 = ltorch.sum(t356, (2,), False, dtype=None)  # t359: "cuda:0 f32[2, 32]"
      # t357 = ltorch.to(t356, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t357: "cuda:0 f32[2, 32, 64]"
        # t357 = prims.shallow_copy(t356)  # t357: "cuda:0 f32[2, 32, 64]"
      # t358 = prims.sum(t357, (2,))  # t358: "cuda:0 f32[2, 32]"
      # t359 = ltorch.to(t358, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t359: "cuda:0 f32[2, 32]"
        # t359 = prims.shallow_copy(t358)  # t359: "cuda:0 f32[2, 32]"
  del t356
  t360 = torch.unsqueeze(t359, 2)  # t360: "cuda:0 f32[2, 32, 1]"
    # t360 = ltorch.unsqueeze(t359, 2)  # t360: "cuda:0 f32[2, 32, 1]"
      # t360 = prims.broadcast_in_dim(t359, [2, 32, 1], [0, 1])  # t360: "cuda:0 f32[2, 32, 1]"
  del t359
  t361 = Tensor.expand(t360, [2, 32, 1])  # t361: "cuda:0 f32[2, 32, 1]"
    # t361 = ltorch.expand(t360, [2, 32, 1])  # t361: "cuda:0 f32[2, 32, 1]"
      # t361 = prims.broadcast_in_dim(t360, (2, 32, 1), (0, 1, 2))  # t361: "cuda:0 f32[2, 32, 1]"
  del t360
  t364 = torch.sum(t361, (2,), False, dtype=None)  # t364: "cuda:0 f32[2, 32]"
    # t364 = ltorch.sum(t361, (2,), False, dtype=None)  # t364: "cuda:0 f32[2, 32]"
      # t362 = ltorch.to(t361, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t362: "cuda:0 f32[2, 32, 1]"
        # t362 = prims.shallow_copy(t361)  # t362: "cuda:0 f32[2, 32, 1]"
      # t363 = prims.sum(t362, (2,))  # t363: "cuda:0 f32[2, 32]"
      # t364 = ltorch.to(t363, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t364: "cuda:0 f32[2, 32]"
        # t364 = prims.shallow_copy(t363)  # t364: "cuda:0 f32[2, 32]"
  del t361
  t365 = torch.unsqueeze(t364, 2)  # t365: "cuda:0 f32[2, 32, 1]"
    # t365 = ltorch.unsqueeze(t364, 2)  # t365: "cuda:0 f32[2, 32, 1]"
      # t365 = prims.broadcast_in_dim(t364, [2, 32, 1], [0, 1])  # t365: "cuda:0 f32[2, 32, 1]"
  del t364
  t366 = Tensor.expand(t365, [2, 32, 1])  # t366: "cuda:0 f32[2, 32, 1]"
    # t366 = ltorch.expand(t365, [2, 32, 1])  # t366: "cuda:0 f32[2, 32, 1]"
      # t366 = prims.broadcast_in_dim(t365, (2, 32, 1), (0, 1, 2))  # t366: "cuda:0 f32[2, 32, 1]"
  del t365
  t367 = Tensor.expand(t366, (2, 32, 64))  # t367: "cuda:0 f32[2, 32, 64]"
    # t367 = ltorch.expand(t366, (2, 32, 64))  # t367: "cuda:0 f32[2, 32, 64]"
      # t367 = prims.broadcast_in_dim(t366, (2, 32, 64), (0, 1, 2))  # t367: "cuda:0 f32[2, 32, 64]"
  del t366
  t313 = torch.add(t166, t311, alpha=1)  # t313: "cuda:0 f32[2, 32, 64]"
    # t313 = ltorch.add(t166, t311, alpha=1)  # t313: "cuda:0 f32[2, 32, 64]"
      # t313 = prims.add(t166, t311)  # t313: "cuda:0 f32[2, 32, 64]"
  del t166, t311
  t317 = torch.mul(0.015625, t367)  # t317: "cuda:0 f32[2, 32, 64]"
    # t317 = ltorch.mul(0.015625, t367)  # t317: "cuda:0 f32[2, 32, 64]"
      # t317 = prims.mul(0.015625, t367)  # t317: "cuda:0 f32[2, 32, 64]"
  del t367
  t314 = torch.mul(-0.5, t355)  # t314: "cuda:0 f32[2, 32, 1]"
    # t314 = ltorch.mul(-0.5, t355)  # t314: "cuda:0 f32[2, 32, 1]"
      # t314 = prims.mul(-0.5, t355)  # t314: "cuda:0 f32[2, 32, 1]"
  del t355
  t316 = torch.mul(t314, t315)  # t316: "cuda:0 f32[2, 32, 1]"
    # t316 = ltorch.mul(t314, t315)  # t316: "cuda:0 f32[2, 32, 1]"
      # t316 = prims.mul(t314, t315)  # t316: "cuda:0 f32[2, 32, 1]"
  del t314, t315
  t370 = torch.sum(t316, (2,), False, dtype=None)  # t370: "cuda:0 f32[2, 32]"
    # t370 = ltorch.sum(t316, (2,), False, dtype=None)  # t370: "cuda:0 f32[2, 32]"
      # t368 = ltorch.to(t316, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t368: "cuda:0 f32[2, 32, 1]"
        # t368 = prims.shallow_copy(t316)  # t368: "cuda:0 f32[2, 32, 1]"
      # t369 = prims.sum(t368, (2,))  # t369: "cuda:0 f32[2, 32]"
      # t370 = ltorch.to(t369, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t370: "cuda:0 f32[2, 32]"
        # t370 = prims.shallow_copy(t369)  # t370: "cuda:0 f32[2, 32]"
  del t316
  t371 = torch.unsqueeze(t370, 2)  # t371: "cuda:0 f32[2, 32, 1]"
    # t371 = ltorch.unsqueeze(t370, 2)  # t371: "cuda:0 f32[2, 32, 1]"
      # t371 = prims.broadcast_in_dim(t370, [2, 32, 1], [0, 1])  # t371: "cuda:0 f32[2, 32, 1]"
  del t370
  t372 = Tensor.expand(t371, [2, 32, 1])  # t372: "cuda:0 f32[2, 32, 1]"
    # t372 = ltorch.expand(t371, [2, 32, 1])  # t372: "cuda:0 f32[2, 32, 1]"
      # t372 = prims.broadcast_in_dim(t371, (2, 32, 1), (0, 1, 2))  # t372: "cuda:0 f32[2, 32, 1]"
  del t371
  t373 = Tensor.expand(t372, (2, 32, 64))  # t373: "cuda:0 f32[2, 32, 64]"
    # t373 = ltorch.expand(t372, (2, 32, 64))  # t373: "cuda:0 f32[2, 32, 64]"
      # t373 = prims.broadcast_in_dim(t372, (2, 32, 64), (0, 1, 2))  # t373: "cuda:0 f32[2, 32, 64]"
  del t372
  t318 = torch.mul(2, t373)  # t318: "cuda:0 f32[2, 32, 64]"
    # t318 = ltorch.mul(2, t373)  # t318: "cuda:0 f32[2, 32, 64]"
      # t318 = prims.mul(2.0, t373)  # t318: "cuda:0 f32[2, 32, 64]"
  del t373
  t320 = torch.mul(t318, t319)  # t320: "cuda:0 f32[2, 32, 64]"
    # t320 = ltorch.mul(t318, t319)  # t320: "cuda:0 f32[2, 32, 64]"
      # t320 = prims.mul(t318, t319)  # t320: "cuda:0 f32[2, 32, 64]"
  del t318, t319
  t374 = torch.true_divide(t320, 64)  # t374: "cuda:0 f32[2, 32, 64]"
    # t374 = ltorch.true_divide(t320, 64)  # t374: "cuda:0 f32[2, 32, 64]"
      # t374 = prims.div(t320, 64.0)  # t374: "cuda:0 f32[2, 32, 64]"
  del t320
  t321 = torch.add(t317, t374, alpha=1)  # t321: "cuda:0 f32[2, 32, 64]"
    # t321 = ltorch.add(t317, t374, alpha=1)  # t321: "cuda:0 f32[2, 32, 64]"
      # t321 = prims.add(t317, t374)  # t321: "cuda:0 f32[2, 32, 64]"
  del t317, t374
  t322 = torch.add(t313, t321, alpha=1)  # t322: "cuda:0 f32[2, 32, 64]"
    # t322 = ltorch.add(t313, t321, alpha=1)  # t322: "cuda:0 f32[2, 32, 64]"
      # t322 = prims.add(t313, t321)  # t322: "cuda:0 f32[2, 32, 64]"
  del t313, t321
  t323 = torch.mul(1.1111111111111112, t322)  # t323: "cuda:0 f32[2, 32, 64]"
    # t323 = ltorch.mul(1.1111111111111112, t322)  # t323: "cuda:0 f32[2, 32, 64]"
      # t323 = prims.mul(1.1111111111111112, t322)  # t323: "cuda:0 f32[2, 32, 64]"
  del t322
  t324 = torch.mul(t332, t323)  # t324: "cuda:0 f32[2, 32, 64]"
    # t324 = ltorch.mul(t332, t323)  # t324: "cuda:0 f32[2, 32, 64]"
      # t324 = prims.mul(t332, t323)  # t324: "cuda:0 f32[2, 32, 64]"
  del t332, t323
  return (None, None, None, None, None, t324, t350, t347)
