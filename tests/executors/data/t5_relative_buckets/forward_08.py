# Constructed by Delete Last Used (took 1 milliseconds)
import torch
from torch import Tensor
import torch.nn.functional
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(is_small, relative_position_1, relative_position_if_large_1, relative_buckets, l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, attention_mask_1):
  # is_small: "cuda:0 b8[32, 32]"
  # relative_position_1: "cuda:0 i64[32, 32]"
  # relative_position_if_large_1: "cuda:0 i64[32, 32]"
  # relative_buckets: "cuda:0 i64[32, 32]"
  # l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_: "cuda:0 f32[32, 4]"
  # attention_mask_1: "cuda:0 b8[2, 1, 32, 32]"

  # <eval_with_key>.38:5: 	    where = torch.where(is_small, relative_position_1, relative_position_if_large_1);  is_small = relative_position_1 = relative_position_if_large_1 = None
  t57 = torch.where(is_small, relative_position_1, relative_position_if_large_1)  # t57: "cuda:0 i64[32, 32]"
    # t57 = ltorch.where(is_small, relative_position_1, relative_position_if_large_1)  # t57: "cuda:0 i64[32, 32]"
      # t57 = prims.where(is_small, relative_position_1, relative_position_if_large_1)  # t57: "cuda:0 i64[32, 32]"
  (t47,) = update_aliases((relative_buckets,))
  del relative_buckets

  # <eval_with_key>.38:6: 	    relative_buckets += where;  relative_buckets_1 = relative_buckets;  relative_buckets = where = None
  t48 = torch.add(t47, t57, alpha=1)  # t48: "cuda:0 i64[32, 32]"
    # t48 = ltorch.add(t47, t57, alpha=1)  # t48: "cuda:0 i64[32, 32]"
      # t48 = prims.add(t47, t57)  # t48: "cuda:0 i64[32, 32]"
  del t57

  # <eval_with_key>.38:6: 	    relative_buckets += where;  relative_buckets_1 = relative_buckets;  relative_buckets = where = None
  t49 = copy_(t48, t47, grad_enabled=True)  # t49: "cuda:0 i64[32, 32]"
  del t48, t47

  # <eval_with_key>.38:7: 	    values = torch.nn.functional.embedding(relative_buckets_1, l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, None, None, 2.0, False, False);  relative_buckets_1 = l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_ = None
  t52 = torch.nn.functional.embedding(t49, l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, None, None, 2.0, False, False)  # t52: "cuda:0 f32[32, 32, 4]"
    # t52 = ltorch.embedding(t49, l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, None, None, 2.0, False, False)  # t52: "cuda:0 f32[32, 32, 4]"
      # t50 = ltorch.reshape(t49, [1024])  # t50: "cuda:0 i64[1024]"
        # t50 = prims.reshape(t49, (1024,))  # t50: "cuda:0 i64[1024]"
      # t51 = prims.take(l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, t50, 0)  # t51: "cuda:0 f32[1024, 4]"
      # t52 = ltorch.reshape(t51, [32, 32, 4])  # t52: "cuda:0 f32[32, 32, 4]"
        # t52 = prims.reshape(t51, (32, 32, 4))  # t52: "cuda:0 f32[32, 32, 4]"

  # <eval_with_key>.38:8: 	    permute = values.permute([2, 0, 1]);  values = None
  t53 = torch.permute(t52, (2, 0, 1))  # t53: "cuda:0 f32[4, 32, 32]"
    # t53 = ltorch.permute(t52, (2, 0, 1))  # t53: "cuda:0 f32[4, 32, 32]"
      # t53 = prims.transpose(t52, (2, 0, 1))  # t53: "cuda:0 f32[4, 32, 32]"
  del t52

  # <eval_with_key>.38:9: 	    values_1 = permute.unsqueeze(0);  permute = None
  t58 = torch.unsqueeze(t53, 0)  # t58: "cuda:0 f32[1, 4, 32, 32]"
    # t58 = ltorch.unsqueeze(t53, 0)  # t58: "cuda:0 f32[1, 4, 32, 32]"
      # t58 = prims.broadcast_in_dim(t53, [1, 4, 32, 32], [1, 2, 3])  # t58: "cuda:0 f32[1, 4, 32, 32]"
  del t53

  # <eval_with_key>.38:9: 	    values_1 = permute.unsqueeze(0);  permute = None
  t59 = Tensor.expand(t58, [1, 4, 32, 32])  # t59: "cuda:0 f32[1, 4, 32, 32]"
    # t59 = ltorch.expand(t58, [1, 4, 32, 32])  # t59: "cuda:0 f32[1, 4, 32, 32]"
      # t59 = prims.broadcast_in_dim(t58, (1, 4, 32, 32), (0, 1, 2, 3))  # t59: "cuda:0 f32[1, 4, 32, 32]"
  del t58

  # <eval_with_key>.38:10: 	    position_bias_mask = torch.where(attention_mask_1, values_1, -3.4028234663852886e+38);  attention_mask_1 = None
  t60 = Tensor.expand(attention_mask_1, (2, 4, 32, 32))  # t60: "cuda:0 b8[2, 4, 32, 32]"
    # t60 = ltorch.expand(attention_mask_1, (2, 4, 32, 32))  # t60: "cuda:0 b8[2, 4, 32, 32]"
      # t60 = prims.broadcast_in_dim(attention_mask_1, (2, 4, 32, 32), (0, 1, 2, 3))  # t60: "cuda:0 b8[2, 4, 32, 32]"
  t61 = Tensor.expand(t59, (2, 4, 32, 32))  # t61: "cuda:0 f32[2, 4, 32, 32]"
    # t61 = ltorch.expand(t59, (2, 4, 32, 32))  # t61: "cuda:0 f32[2, 4, 32, 32]"
      # t61 = prims.broadcast_in_dim(t59, (2, 4, 32, 32), (0, 1, 2, 3))  # t61: "cuda:0 f32[2, 4, 32, 32]"
  t62 = torch.where(t60, t61, -3.4028234663852886e+38)  # t62: "cuda:0 f32[2, 4, 32, 32]"
    # t62 = ltorch.where(t60, t61, -3.4028234663852886e+38)  # t62: "cuda:0 f32[2, 4, 32, 32]"
      # t62 = prims.where(t60, t61, -3.4028234663852886e+38)  # t62: "cuda:0 f32[2, 4, 32, 32]"
  del t61
  return {'output': (t62, t59), 'flat_args': [is_small, relative_position_1, relative_position_if_large_1, t49, l_self_modules_model_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, attention_mask_1], 'flat_output': (t62, t59)}, ((t60, t49), ())
