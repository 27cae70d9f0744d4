# Constructed by Delete Last Used (took 2 milliseconds)
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(kv_indices, q_indices, result, packed_sequence_mask, batch_indices, hidden_states, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_):
  # kv_indices: "cuda:0 i64[1, 1, 1, 32]"
  # q_indices: "cuda:0 i64[1, 1, 32, 1]"
  # result: "cuda:0 b8[]"
  # packed_sequence_mask: "cuda:0 i64[2, 32]"
  # batch_indices: "cuda:0 i64[2, 1, 1, 1]"
  # hidden_states: "cuda:0 f32[2, 32, 64]"
  # l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_: "cuda:0 f32[64]"
  # l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_: "cuda:0 f32[64]"

  # <eval_with_key>.32:14: 	    hidden_states_1 = torch.nn.functional.dropout(hidden_states, 0.1, True, False);  hidden_states = None
  t287 = uniform((2, 32, 64), 0.0, 1.0, device=torch.device("cuda:0"), dtype=torch.float32)  # t287: "cuda:0 f32[2, 32, 64]"
  t249 = torch.le(kv_indices, q_indices)  # t249: "cuda:0 b8[1, 1, 32, 32]"
    # t249 = ltorch.le(kv_indices, q_indices)  # t249: "cuda:0 b8[1, 1, 32, 32]"
      # t247 = prims.broadcast_in_dim(kv_indices, (1, 1, 32, 32), (0, 1, 2, 3))  # t247: "cuda:0 i64[1, 1, 32, 32]"
      # t248 = prims.broadcast_in_dim(q_indices, (1, 1, 32, 32), (0, 1, 2, 3))  # t248: "cuda:0 i64[1, 1, 32, 32]"
      # t249 = prims.le(t247, t248)  # t249: "cuda:0 b8[1, 1, 32, 32]"

  # <eval_with_key>.32:8: 	    getitem_5 = packed_sequence_mask[(batch_indices, q_indices)];  q_indices = None
  t266 = Tensor.__getitem__(packed_sequence_mask, (batch_indices, q_indices))  # t266: "cuda:0 i64[2, 1, 32, 1]"
    # t266 = ltorch.getitem(packed_sequence_mask, (batch_indices, q_indices))  # t266: "cuda:0 i64[2, 1, 32, 1]"
      # t253 = prims.lt(batch_indices, 0)  # t253: "cuda:0 b8[2, 1, 1, 1]"
      # t254 = prims.where(t253, 2, 0)  # t254: "cuda:0 i64[2, 1, 1, 1]"
      # t255 = prims.add(batch_indices, t254)  # t255: "cuda:0 i64[2, 1, 1, 1]"
      # t256 = prims.lt(q_indices, 0)  # t256: "cuda:0 b8[1, 1, 32, 1]"
      # t257 = prims.where(t256, 32, 0)  # t257: "cuda:0 i64[1, 1, 32, 1]"
      # t258 = prims.add(q_indices, t257)  # t258: "cuda:0 i64[1, 1, 32, 1]"
      # t259 = prims.reshape(packed_sequence_mask, (64,))  # t259: "cuda:0 i64[64]"
      # t260 = prims.mul(t255, 32)  # t260: "cuda:0 i64[2, 1, 1, 1]"
      # t261 = prims.broadcast_in_dim(t260, (2, 1, 32, 1), (0, 1, 2, 3))  # t261: "cuda:0 i64[2, 1, 32, 1]"
      # t262 = prims.broadcast_in_dim(t258, (2, 1, 32, 1), (0, 1, 2, 3))  # t262: "cuda:0 i64[2, 1, 32, 1]"
      # t263 = prims.add(t261, t262)  # t263: "cuda:0 i64[2, 1, 32, 1]"
      # t264 = prims.reshape(t263, (64,))  # t264: "cuda:0 i64[64]"
      # t265 = prims.take(t259, t264, 0)  # t265: "cuda:0 i64[64]"
      # t266 = prims.reshape(t265, (2, 1, 32, 1))  # t266: "cuda:0 i64[2, 1, 32, 1]"

  # <eval_with_key>.32:9: 	    getitem_6 = packed_sequence_mask[(batch_indices, kv_indices)];  packed_sequence_mask = batch_indices = kv_indices = None
  t280 = Tensor.__getitem__(packed_sequence_mask, (batch_indices, kv_indices))  # t280: "cuda:0 i64[2, 1, 1, 32]"
    # t280 = ltorch.getitem(packed_sequence_mask, (batch_indices, kv_indices))  # t280: "cuda:0 i64[2, 1, 1, 32]"
      # t267 = prims.lt(batch_indices, 0)  # t267: "cuda:0 b8[2, 1, 1, 1]"
      # t268 = prims.where(t267, 2, 0)  # t268: "cuda:0 i64[2, 1, 1, 1]"
      # t269 = prims.add(batch_indices, t268)  # t269: "cuda:0 i64[2, 1, 1, 1]"
      # t270 = prims.lt(kv_indices, 0)  # t270: "cuda:0 b8[1, 1, 1, 32]"
      # t271 = prims.where(t270, 32, 0)  # t271: "cuda:0 i64[1, 1, 1, 32]"
      # t272 = prims.add(kv_indices, t271)  # t272: "cuda:0 i64[1, 1, 1, 32]"
      # t273 = prims.reshape(packed_sequence_mask, (64,))  # t273: "cuda:0 i64[64]"
      # t274 = prims.mul(t269, 32)  # t274: "cuda:0 i64[2, 1, 1, 1]"
      # t275 = prims.broadcast_in_dim(t274, (2, 1, 1, 32), (0, 1, 2, 3))  # t275: "cuda:0 i64[2, 1, 1, 32]"
      # t276 = prims.broadcast_in_dim(t272, (2, 1, 1, 32), (0, 1, 2, 3))  # t276: "cuda:0 i64[2, 1, 1, 32]"
      # t277 = prims.add(t275, t276)  # t277: "cuda:0 i64[2, 1, 1, 32]"
      # t278 = prims.reshape(t277, (64,))  # t278: "cuda:0 i64[64]"
      # t279 = prims.take(t273, t278, 0)  # t279: "cuda:0 i64[64]"
      # t280 = prims.reshape(t279, (2, 1, 1, 32))  # t280: "cuda:0 i64[2, 1, 1, 32]"

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t325 = torch.unsqueeze(l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, 0)  # t325: "cuda:0 f32[1, 64]"
    # t325 = ltorch.unsqueeze(l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, 0)  # t325: "cuda:0 f32[1, 64]"
      # t325 = prims.broadcast_in_dim(l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, [1, 64], [1])  # t325: "cuda:0 f32[1, 64]"
  t326 = torch.unsqueeze(t325, 1)  # t326: "cuda:0 f32[1, 1, 64]"
    # t326 = ltorch.unsqueeze(t325, 1)  # t326: "cuda:0 f32[1, 1, 64]"
      # t326 = prims.broadcast_in_dim(t325, [1, 1, 64], [0, 2])  # t326: "cuda:0 f32[1, 1, 64]"
  del t325

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t327 = Tensor.expand(t326, (2, 32, 64))  # t327: "cuda:0 f32[2, 32, 64]"
    # t327 = ltorch.expand(t326, (2, 32, 64))  # t327: "cuda:0 f32[2, 32, 64]"
      # t327 = prims.broadcast_in_dim(t326, (2, 32, 64), (0, 1, 2))  # t327: "cuda:0 f32[2, 32, 64]"
  del t326

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t328 = torch.unsqueeze(l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 0)  # t328: "cuda:0 f32[1, 64]"
    # t328 = ltorch.unsqueeze(l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 0)  # t328: "cuda:0 f32[1, 64]"
      # t328 = prims.broadcast_in_dim(l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, [1, 64], [1])  # t328: "cuda:0 f32[1, 64]"
  t329 = torch.unsqueeze(t328, 1)  # t329: "cuda:0 f32[1, 1, 64]"
    # t329 = ltorch.unsqueeze(t328, 1)  # t329: "cuda:0 f32[1, 1, 64]"
      # t329 = prims.broadcast_in_dim(t328, [1, 1, 64], [0, 2])  # t329: "cuda:0 f32[1, 1, 64]"
  del t328

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t330 = Tensor.expand(t329, (2, 32, 64))  # t330: "cuda:0 f32[2, 32, 64]"
    # t330 = ltorch.expand(t329, (2, 32, 64))  # t330: "cuda:0 f32[2, 32, 64]"
      # t330 = prims.broadcast_in_dim(t329, (2, 32, 64), (0, 1, 2))  # t330: "cuda:0 f32[2, 32, 64]"
  del t329

  # <eval_with_key>.32:14: 	    hidden_states_1 = torch.nn.functional.dropout(hidden_states, 0.1, True, False);  hidden_states = None
  t288 = torch.lt(t287, 0.9)  # t288: "cuda:0 b8[2, 32, 64]"
    # t288 = ltorch.lt(t287, 0.9)  # t288: "cuda:0 b8[2, 32, 64]"
      # t288 = prims.lt(t287, 0.9)  # t288: "cuda:0 b8[2, 32, 64]"
  del t287

  # <eval_with_key>.32:6: 	    to_1 = le.to(device(type='cuda', index=0));  le = None
  t250 = Tensor.to(t249, copy=False, device=torch.device("cuda:0"))  # t250: "cuda:0 b8[1, 1, 32, 32]"
    # t250 = ltorch.to(t249, None, None, device=torch.device("cuda:0"), dtype=None, copy=False, memory_format=None)  # t250: "cuda:0 b8[1, 1, 32, 32]"
      # t250 = prims.shallow_copy(t249)  # t250: "cuda:0 b8[1, 1, 32, 32]"
  del t249

  # <eval_with_key>.32:10: 	    eq = getitem_5.__eq__(getitem_6);  getitem_5 = getitem_6 = None
  t283 = torch.eq(t266, t280)  # t283: "cuda:0 b8[2, 1, 32, 32]"
    # t283 = ltorch.eq(t266, t280)  # t283: "cuda:0 b8[2, 1, 32, 32]"
      # t281 = prims.broadcast_in_dim(t266, (2, 1, 32, 32), (0, 1, 2, 3))  # t281: "cuda:0 i64[2, 1, 32, 32]"
      # t282 = prims.broadcast_in_dim(t280, (2, 1, 32, 32), (0, 1, 2, 3))  # t282: "cuda:0 i64[2, 1, 32, 32]"
      # t283 = prims.eq(t281, t282)  # t283: "cuda:0 b8[2, 1, 32, 32]"
  del t266, t280

  # <eval_with_key>.32:14: 	    hidden_states_1 = torch.nn.functional.dropout(hidden_states, 0.1, True, False);  hidden_states = None
  t332 = Tensor.to(t288, torch.float32, copy=True)  # t332: "cuda:0 f32[2, 32, 64]"
    # t332 = ltorch.to(t288, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t332: "cuda:0 f32[2, 32, 64]"
      # t331 = prims.clone(t288)  # t331: "cuda:0 b8[2, 32, 64]"
      # t332 = prims.convert_element_type(t331, dtypes.float32)  # t332: "cuda:0 f32[2, 32, 64]"
  del t288

  # <eval_with_key>.32:7: 	    result_1 = result & to_1;  result = to_1 = None
  t252 = torch.bitwise_and(result, t250)  # t252: "cuda:0 b8[1, 1, 32, 32]"
    # t252 = ltorch.bitwise_and(result, t250)  # t252: "cuda:0 b8[1, 1, 32, 32]"
      # t251 = prims.broadcast_in_dim(result, (1, 1, 32, 32), ())  # t251: "cuda:0 b8[1, 1, 32, 32]"
      # t252 = prims.bitwise_and(t251, t250)  # t252: "cuda:0 b8[1, 1, 32, 32]"
  del t250

  # <eval_with_key>.32:11: 	    to_2 = eq.to(device(type='cuda', index=0));  eq = None
  t284 = Tensor.to(t283, copy=False, device=torch.device("cuda:0"))  # t284: "cuda:0 b8[2, 1, 32, 32]"
    # t284 = ltorch.to(t283, None, None, device=torch.device("cuda:0"), dtype=None, copy=False, memory_format=None)  # t284: "cuda:0 b8[2, 1, 32, 32]"
      # t284 = prims.shallow_copy(t283)  # t284: "cuda:0 b8[2, 1, 32, 32]"
  del t283

  # <eval_with_key>.32:14: 	    hidden_states_1 = torch.nn.functional.dropout(hidden_states, 0.1, True, False);  hidden_states = None
  t289 = torch.mul(hidden_states, t332)  # t289: "cuda:0 f32[2, 32, 64]"
    # t289 = ltorch.mul(hidden_states, t332)  # t289: "cuda:0 f32[2, 32, 64]"
      # t289 = prims.mul(hidden_states, t332)  # t289: "cuda:0 f32[2, 32, 64]"

  # <eval_with_key>.32:12: 	    result_2 = result_1 & to_2;  result_1 = to_2 = None
  t286 = torch.bitwise_and(t252, t284)  # t286: "cuda:0 b8[2, 1, 32, 32]"
    # t286 = ltorch.bitwise_and(t252, t284)  # t286: "cuda:0 b8[2, 1, 32, 32]"
      # t285 = prims.broadcast_in_dim(t252, (2, 1, 32, 32), (0, 1, 2, 3))  # t285: "cuda:0 b8[2, 1, 32, 32]"
      # t286 = prims.bitwise_and(t285, t284)  # t286: "cuda:0 b8[2, 1, 32, 32]"
  del t252, t284

  # <eval_with_key>.32:14: 	    hidden_states_1 = torch.nn.functional.dropout(hidden_states, 0.1, True, False);  hidden_states = None
  t290 = torch.mul(t289, 1.1111111111111112)  # t290: "cuda:0 f32[2, 32, 64]"
    # t290 = ltorch.mul(t289, 1.1111111111111112)  # t290: "cuda:0 f32[2, 32, 64]"
      # t290 = prims.mul(t289, 1.1111111111111112)  # t290: "cuda:0 f32[2, 32, 64]"
  del t289

  # <eval_with_key>.32:13: 	    attention_mask = result_2.expand(2, -1, 32, 32);  result_2 = None
  t333 = Tensor.expand(t286, 2, -1, 32, 32)  # t333: "cuda:0 b8[2, 1, 32, 32]"
    # t333 = ltorch.expand(t286, 2, -1, 32, 32)  # t333: "cuda:0 b8[2, 1, 32, 32]"
      # t333 = prims.broadcast_in_dim(t286, (2, 1, 32, 32), (0, 1, 2, 3))  # t333: "cuda:0 b8[2, 1, 32, 32]"
  del t286

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t291 = shallow_copy(t290)  # t291: "cuda:0 f32[2, 32, 64]"
  t292 = shallow_copy(t291)  # t292: "cuda:0 f32[2, 32, 64]"
  del t291

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  (t298, t299) = torch.var_mean(t292, (2,), correction=0)
    # (t298, t299) = ltorch.var_mean(t292, (2,), keepdim=False, correction=0)
      # t293 = ltorch.to(t292, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t293: "cuda:0 f32[2, 32, 64]"
        # t293 = prims.shallow_copy(t292)  # t293: "cuda:0 f32[2, 32, 64]"
      # (t296, t297) = prims.var_mean(t293, (2,), correction=0)
      # t298 = ltorch.to(t296, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t298: "cuda:0 f32[2, 32]"
        # t298 = prims.shallow_copy(t296)  # t298: "cuda:0 f32[2, 32]"
      # t299 = ltorch.to(t297, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t299: "cuda:0 f32[2, 32]"
        # t299 = prims.shallow_copy(t297)  # t299: "cuda:0 f32[2, 32]"
  t334 = torch.unsqueeze(t298, 2)  # t334: "cuda:0 f32[2, 32, 1]"
    # t334 = ltorch.unsqueeze(t298, 2)  # t334: "cuda:0 f32[2, 32, 1]"
      # t334 = prims.broadcast_in_dim(t298, [2, 32, 1], [0, 1])  # t334: "cuda:0 f32[2, 32, 1]"
  del t298

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t335 = Tensor.expand(t334, [2, 32, 1])  # t335: "cuda:0 f32[2, 32, 1]"
    # t335 = ltorch.expand(t334, [2, 32, 1])  # t335: "cuda:0 f32[2, 32, 1]"
      # t335 = prims.broadcast_in_dim(t334, (2, 32, 1), (0, 1, 2))  # t335: "cuda:0 f32[2, 32, 1]"
  del t334

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t336 = torch.unsqueeze(t299, 2)  # t336: "cuda:0 f32[2, 32, 1]"
    # t336 = ltorch.unsqueeze(t299, 2)  # t336: "cuda:0 f32[2, 32, 1]"
      # t336 = prims.broadcast_in_dim(t299, [2, 32, 1], [0, 1])  # t336: "cuda:0 f32[2, 32, 1]"
  t337 = Tensor.expand(t336, [2, 32, 1])  # t337: "cuda:0 f32[2, 32, 1]"
    # t337 = ltorch.expand(t336, [2, 32, 1])  # t337: "cuda:0 f32[2, 32, 1]"
      # t337 = prims.broadcast_in_dim(t336, (2, 32, 1), (0, 1, 2))  # t337: "cuda:0 f32[2, 32, 1]"
  del t336

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t300 = shallow_copy(t335)  # t300: "cuda:0 f32[2, 32, 1]"
  del t335

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t301 = shallow_copy(t337)  # t301: "cuda:0 f32[2, 32, 1]"
  del t337

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t302 = torch.add(t300, 1e-05, alpha=1)  # t302: "cuda:0 f32[2, 32, 1]"
    # t302 = ltorch.add(t300, 1e-05, alpha=1)  # t302: "cuda:0 f32[2, 32, 1]"
      # t302 = prims.add(t300, 1e-05)  # t302: "cuda:0 f32[2, 32, 1]"
  del t300

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t341 = Tensor.expand(t301, (2, 32, 64))  # t341: "cuda:0 f32[2, 32, 64]"
    # t341 = ltorch.expand(t301, (2, 32, 64))  # t341: "cuda:0 f32[2, 32, 64]"
      # t341 = prims.broadcast_in_dim(t301, (2, 32, 64), (0, 1, 2))  # t341: "cuda:0 f32[2, 32, 64]"
  del t301

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t303 = torch.rsqrt(t302)  # t303: "cuda:0 f32[2, 32, 1]"
    # t303 = ltorch.rsqrt(t302)  # t303: "cuda:0 f32[2, 32, 1]"
      # t303 = prims.rsqrt(t302)  # t303: "cuda:0 f32[2, 32, 1]"
  del t302

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t304 = torch.sub(t290, t341, alpha=1)  # t304: "cuda:0 f32[2, 32, 64]"
    # t304 = ltorch.sub(t290, t341, alpha=1)  # t304: "cuda:0 f32[2, 32, 64]"
      # t304 = prims.sub(t290, t341)  # t304: "cuda:0 f32[2, 32, 64]"
  del t341

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t342 = Tensor.expand(t303, (2, 32, 64))  # t342: "cuda:0 f32[2, 32, 64]"
    # t342 = ltorch.expand(t303, (2, 32, 64))  # t342: "cuda:0 f32[2, 32, 64]"
      # t342 = prims.broadcast_in_dim(t303, (2, 32, 64), (0, 1, 2))  # t342: "cuda:0 f32[2, 32, 64]"
  t305 = torch.mul(t304, t342)  # t305: "cuda:0 f32[2, 32, 64]"
    # t305 = ltorch.mul(t304, t342)  # t305: "cuda:0 f32[2, 32, 64]"
      # t305 = prims.mul(t304, t342)  # t305: "cuda:0 f32[2, 32, 64]"
  t306 = torch.mul(t305, t327)  # t306: "cuda:0 f32[2, 32, 64]"
    # t306 = ltorch.mul(t305, t327)  # t306: "cuda:0 f32[2, 32, 64]"
      # t306 = prims.mul(t305, t327)  # t306: "cuda:0 f32[2, 32, 64]"
  t307 = torch.add(t306, t330, alpha=1)  # t307: "cuda:0 f32[2, 32, 64]"
    # t307 = ltorch.add(t306, t330, alpha=1)  # t307: "cuda:0 f32[2, 32, 64]"
      # t307 = prims.add(t306, t330)  # t307: "cuda:0 f32[2, 32, 64]"
  del t306, t330

  # <eval_with_key>.32:15: 	    hidden_states_2 = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_ = None
  t308 = shallow_copy(t307)  # t308: "cuda:0 f32[2, 32, 64]"
  del t307

  # <eval_with_key>.32:16: 	    view_1 = hidden_states_2.view(-1, 64);  hidden_states_2 = None
  t343 = torch_prims_reshape_impl(t308, (64, 64))  # t343: "cuda:0 f32[64, 64]"
  del t308
  return {'output': (t343, t333, t290), 'flat_args': [kv_indices, q_indices, result, packed_sequence_mask, batch_indices, hidden_states, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_transformer_modules_h_modules_0_modules_ln_1_parameters_bias_], 'flat_output': (t343, t333, t290)}, ((t299, t292, t303, t327, t305, t342, t304, t332), ())
