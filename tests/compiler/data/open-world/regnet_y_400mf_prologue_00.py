import thunder
import thunder.core.prims as prims
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def prologue(*args, **kwargs):
  # args: "Any"
  prims.check_len(args, 2)
  # kwargs: "Any"
  prims.check_len(kwargs, 0)
  x: "cuda:0 f32[2, 3, 64, 64]" = args[0]
  module0: "Any" = globals()['__function_obj']
  module: "Any" = thunder.core.module.get_thunder_module(module0)
  weight: "cuda:0 f32[32, 3, 3, 3]" = module.get_parameter('model.stem.0.weight')
  t_model_stem_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.stem.1.num_batches_tracked')
  t_model_stem_1_running_mean: "cuda:0 f32[32]" = module.get_buffer('model.stem.1.running_mean')
  t_model_stem_1_running_var: "cuda:0 f32[32]" = module.get_buffer('model.stem.1.running_var')
  t_model_stem_1_weight: "cuda:0 f32[32]" = module.get_parameter('model.stem.1.weight')
  t_model_stem_1_bias: "cuda:0 f32[32]" = module.get_parameter('model.stem.1.bias')
  t_model_trunk_output_block1_block1-0_proj_0_weight: "cuda:0 f32[48, 32, 1, 1]" = module.get_parameter('model.trunk_output.block1.block1-0.proj.0.weight')
  t_model_trunk_output_block1_block1-0_proj_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block1.block1-0.proj.1.num_batches_tracked')
  t_model_trunk_output_block1_block1-0_proj_1_running_mean: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.proj.1.running_mean')
  t_model_trunk_output_block1_block1-0_proj_1_running_var: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.proj.1.running_var')
  t_model_trunk_output_block1_block1-0_proj_1_weight: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.proj.1.weight')
  t_model_trunk_output_block1_block1-0_proj_1_bias: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.proj.1.bias')
  t_model_trunk_output_block1_block1-0_f_a_0_weight: "cuda:0 f32[48, 32, 1, 1]" = module.get_parameter('model.trunk_output.block1.block1-0.f.a.0.weight')
  t_model_trunk_output_block1_block1-0_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block1.block1-0.f.a.1.num_batches_tracked')
  t_model_trunk_output_block1_block1-0_f_a_1_running_mean: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.f.a.1.running_mean')
  t_model_trunk_output_block1_block1-0_f_a_1_running_var: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.f.a.1.running_var')
  t_model_trunk_output_block1_block1-0_f_a_1_weight: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.a.1.weight')
  t_model_trunk_output_block1_block1-0_f_a_1_bias: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.a.1.bias')
  t_model_trunk_output_block1_block1-0_f_b_0_weight: "cuda:0 f32[48, 8, 3, 3]" = module.get_parameter('model.trunk_output.block1.block1-0.f.b.0.weight')
  t_model_trunk_output_block1_block1-0_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block1.block1-0.f.b.1.num_batches_tracked')
  t_model_trunk_output_block1_block1-0_f_b_1_running_mean: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.f.b.1.running_mean')
  t_model_trunk_output_block1_block1-0_f_b_1_running_var: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.f.b.1.running_var')
  t_model_trunk_output_block1_block1-0_f_b_1_weight: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.b.1.weight')
  t_model_trunk_output_block1_block1-0_f_b_1_bias: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.b.1.bias')
  t_model_trunk_output_block1_block1-0_f_se_fc1_weight: "cuda:0 f32[8, 48, 1, 1]" = module.get_parameter('model.trunk_output.block1.block1-0.f.se.fc1.weight')
  bias: "cuda:0 f32[8]" = module.get_parameter('model.trunk_output.block1.block1-0.f.se.fc1.bias')
  t_model_trunk_output_block1_block1-0_f_se_fc2_weight: "cuda:0 f32[48, 8, 1, 1]" = module.get_parameter('model.trunk_output.block1.block1-0.f.se.fc2.weight')
  t_model_trunk_output_block1_block1-0_f_se_fc2_bias: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.se.fc2.bias')
  t_model_trunk_output_block1_block1-0_f_c_0_weight: "cuda:0 f32[48, 48, 1, 1]" = module.get_parameter('model.trunk_output.block1.block1-0.f.c.0.weight')
  t_model_trunk_output_block1_block1-0_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block1.block1-0.f.c.1.num_batches_tracked')
  t_model_trunk_output_block1_block1-0_f_c_1_running_mean: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.f.c.1.running_mean')
  t_model_trunk_output_block1_block1-0_f_c_1_running_var: "cuda:0 f32[48]" = module.get_buffer('model.trunk_output.block1.block1-0.f.c.1.running_var')
  t_model_trunk_output_block1_block1-0_f_c_1_weight: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.c.1.weight')
  t_model_trunk_output_block1_block1-0_f_c_1_bias: "cuda:0 f32[48]" = module.get_parameter('model.trunk_output.block1.block1-0.f.c.1.bias')
  t_model_trunk_output_block2_block2-0_proj_0_weight: "cuda:0 f32[104, 48, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-0.proj.0.weight')
  t_model_trunk_output_block2_block2-0_proj_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-0.proj.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-0_proj_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.proj.1.running_mean')
  t_model_trunk_output_block2_block2-0_proj_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.proj.1.running_var')
  t_model_trunk_output_block2_block2-0_proj_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.proj.1.weight')
  t_model_trunk_output_block2_block2-0_proj_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.proj.1.bias')
  t_model_trunk_output_block2_block2-0_f_a_0_weight: "cuda:0 f32[104, 48, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-0.f.a.0.weight')
  t_model_trunk_output_block2_block2-0_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-0.f.a.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-0_f_a_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.f.a.1.running_mean')
  t_model_trunk_output_block2_block2-0_f_a_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.f.a.1.running_var')
  t_model_trunk_output_block2_block2-0_f_a_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.a.1.weight')
  t_model_trunk_output_block2_block2-0_f_a_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.a.1.bias')
  t_model_trunk_output_block2_block2-0_f_b_0_weight: "cuda:0 f32[104, 8, 3, 3]" = module.get_parameter('model.trunk_output.block2.block2-0.f.b.0.weight')
  t_model_trunk_output_block2_block2-0_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-0.f.b.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-0_f_b_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.f.b.1.running_mean')
  t_model_trunk_output_block2_block2-0_f_b_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.f.b.1.running_var')
  t_model_trunk_output_block2_block2-0_f_b_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.b.1.weight')
  t_model_trunk_output_block2_block2-0_f_b_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.b.1.bias')
  t_model_trunk_output_block2_block2-0_f_se_fc1_weight: "cuda:0 f32[12, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-0.f.se.fc1.weight')
  t_model_trunk_output_block2_block2-0_f_se_fc1_bias: "cuda:0 f32[12]" = module.get_parameter('model.trunk_output.block2.block2-0.f.se.fc1.bias')
  t_model_trunk_output_block2_block2-0_f_se_fc2_weight: "cuda:0 f32[104, 12, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-0.f.se.fc2.weight')
  t_model_trunk_output_block2_block2-0_f_se_fc2_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.se.fc2.bias')
  t_model_trunk_output_block2_block2-0_f_c_0_weight: "cuda:0 f32[104, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-0.f.c.0.weight')
  t_model_trunk_output_block2_block2-0_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-0.f.c.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-0_f_c_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.f.c.1.running_mean')
  t_model_trunk_output_block2_block2-0_f_c_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-0.f.c.1.running_var')
  t_model_trunk_output_block2_block2-0_f_c_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.c.1.weight')
  t_model_trunk_output_block2_block2-0_f_c_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-0.f.c.1.bias')
  t_model_trunk_output_block2_block2-1_f_a_0_weight: "cuda:0 f32[104, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-1.f.a.0.weight')
  t_model_trunk_output_block2_block2-1_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-1.f.a.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-1_f_a_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-1.f.a.1.running_mean')
  t_model_trunk_output_block2_block2-1_f_a_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-1.f.a.1.running_var')
  t_model_trunk_output_block2_block2-1_f_a_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.a.1.weight')
  t_model_trunk_output_block2_block2-1_f_a_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.a.1.bias')
  t_model_trunk_output_block2_block2-1_f_b_0_weight: "cuda:0 f32[104, 8, 3, 3]" = module.get_parameter('model.trunk_output.block2.block2-1.f.b.0.weight')
  t_model_trunk_output_block2_block2-1_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-1.f.b.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-1_f_b_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-1.f.b.1.running_mean')
  t_model_trunk_output_block2_block2-1_f_b_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-1.f.b.1.running_var')
  t_model_trunk_output_block2_block2-1_f_b_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.b.1.weight')
  t_model_trunk_output_block2_block2-1_f_b_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.b.1.bias')
  t_model_trunk_output_block2_block2-1_f_se_fc1_weight: "cuda:0 f32[26, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-1.f.se.fc1.weight')
  t_model_trunk_output_block2_block2-1_f_se_fc1_bias: "cuda:0 f32[26]" = module.get_parameter('model.trunk_output.block2.block2-1.f.se.fc1.bias')
  t_model_trunk_output_block2_block2-1_f_se_fc2_weight: "cuda:0 f32[104, 26, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-1.f.se.fc2.weight')
  t_model_trunk_output_block2_block2-1_f_se_fc2_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.se.fc2.bias')
  t_model_trunk_output_block2_block2-1_f_c_0_weight: "cuda:0 f32[104, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-1.f.c.0.weight')
  t_model_trunk_output_block2_block2-1_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-1.f.c.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-1_f_c_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-1.f.c.1.running_mean')
  t_model_trunk_output_block2_block2-1_f_c_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-1.f.c.1.running_var')
  t_model_trunk_output_block2_block2-1_f_c_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.c.1.weight')
  t_model_trunk_output_block2_block2-1_f_c_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-1.f.c.1.bias')
  t_model_trunk_output_block2_block2-2_f_a_0_weight: "cuda:0 f32[104, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-2.f.a.0.weight')
  t_model_trunk_output_block2_block2-2_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-2.f.a.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-2_f_a_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-2.f.a.1.running_mean')
  t_model_trunk_output_block2_block2-2_f_a_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-2.f.a.1.running_var')
  t_model_trunk_output_block2_block2-2_f_a_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.a.1.weight')
  t_model_trunk_output_block2_block2-2_f_a_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.a.1.bias')
  t_model_trunk_output_block2_block2-2_f_b_0_weight: "cuda:0 f32[104, 8, 3, 3]" = module.get_parameter('model.trunk_output.block2.block2-2.f.b.0.weight')
  t_model_trunk_output_block2_block2-2_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-2.f.b.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-2_f_b_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-2.f.b.1.running_mean')
  t_model_trunk_output_block2_block2-2_f_b_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-2.f.b.1.running_var')
  t_model_trunk_output_block2_block2-2_f_b_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.b.1.weight')
  t_model_trunk_output_block2_block2-2_f_b_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.b.1.bias')
  t_model_trunk_output_block2_block2-2_f_se_fc1_weight: "cuda:0 f32[26, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-2.f.se.fc1.weight')
  t_model_trunk_output_block2_block2-2_f_se_fc1_bias: "cuda:0 f32[26]" = module.get_parameter('model.trunk_output.block2.block2-2.f.se.fc1.bias')
  t_model_trunk_output_block2_block2-2_f_se_fc2_weight: "cuda:0 f32[104, 26, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-2.f.se.fc2.weight')
  t_model_trunk_output_block2_block2-2_f_se_fc2_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.se.fc2.bias')
  t_model_trunk_output_block2_block2-2_f_c_0_weight: "cuda:0 f32[104, 104, 1, 1]" = module.get_parameter('model.trunk_output.block2.block2-2.f.c.0.weight')
  t_model_trunk_output_block2_block2-2_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block2.block2-2.f.c.1.num_batches_tracked')
  t_model_trunk_output_block2_block2-2_f_c_1_running_mean: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-2.f.c.1.running_mean')
  t_model_trunk_output_block2_block2-2_f_c_1_running_var: "cuda:0 f32[104]" = module.get_buffer('model.trunk_output.block2.block2-2.f.c.1.running_var')
  t_model_trunk_output_block2_block2-2_f_c_1_weight: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.c.1.weight')
  t_model_trunk_output_block2_block2-2_f_c_1_bias: "cuda:0 f32[104]" = module.get_parameter('model.trunk_output.block2.block2-2.f.c.1.bias')
  t_model_trunk_output_block3_block3-0_proj_0_weight: "cuda:0 f32[208, 104, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-0.proj.0.weight')
  t_model_trunk_output_block3_block3-0_proj_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-0.proj.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-0_proj_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.proj.1.running_mean')
  t_model_trunk_output_block3_block3-0_proj_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.proj.1.running_var')
  t_model_trunk_output_block3_block3-0_proj_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.proj.1.weight')
  t_model_trunk_output_block3_block3-0_proj_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.proj.1.bias')
  t_model_trunk_output_block3_block3-0_f_a_0_weight: "cuda:0 f32[208, 104, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-0.f.a.0.weight')
  t_model_trunk_output_block3_block3-0_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-0.f.a.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-0_f_a_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.f.a.1.running_mean')
  t_model_trunk_output_block3_block3-0_f_a_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.f.a.1.running_var')
  t_model_trunk_output_block3_block3-0_f_a_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.a.1.weight')
  t_model_trunk_output_block3_block3-0_f_a_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.a.1.bias')
  t_model_trunk_output_block3_block3-0_f_b_0_weight: "cuda:0 f32[208, 8, 3, 3]" = module.get_parameter('model.trunk_output.block3.block3-0.f.b.0.weight')
  t_model_trunk_output_block3_block3-0_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-0.f.b.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-0_f_b_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.f.b.1.running_mean')
  t_model_trunk_output_block3_block3-0_f_b_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.f.b.1.running_var')
  t_model_trunk_output_block3_block3-0_f_b_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.b.1.weight')
  t_model_trunk_output_block3_block3-0_f_b_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.b.1.bias')
  t_model_trunk_output_block3_block3-0_f_se_fc1_weight: "cuda:0 f32[26, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-0.f.se.fc1.weight')
  t_model_trunk_output_block3_block3-0_f_se_fc1_bias: "cuda:0 f32[26]" = module.get_parameter('model.trunk_output.block3.block3-0.f.se.fc1.bias')
  t_model_trunk_output_block3_block3-0_f_se_fc2_weight: "cuda:0 f32[208, 26, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-0.f.se.fc2.weight')
  t_model_trunk_output_block3_block3-0_f_se_fc2_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.se.fc2.bias')
  t_model_trunk_output_block3_block3-0_f_c_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-0.f.c.0.weight')
  t_model_trunk_output_block3_block3-0_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-0.f.c.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-0_f_c_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.f.c.1.running_mean')
  t_model_trunk_output_block3_block3-0_f_c_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-0.f.c.1.running_var')
  t_model_trunk_output_block3_block3-0_f_c_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.c.1.weight')
  t_model_trunk_output_block3_block3-0_f_c_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-0.f.c.1.bias')
  t_model_trunk_output_block3_block3-1_f_a_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-1.f.a.0.weight')
  t_model_trunk_output_block3_block3-1_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-1.f.a.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-1_f_a_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-1.f.a.1.running_mean')
  t_model_trunk_output_block3_block3-1_f_a_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-1.f.a.1.running_var')
  t_model_trunk_output_block3_block3-1_f_a_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.a.1.weight')
  t_model_trunk_output_block3_block3-1_f_a_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.a.1.bias')
  t_model_trunk_output_block3_block3-1_f_b_0_weight: "cuda:0 f32[208, 8, 3, 3]" = module.get_parameter('model.trunk_output.block3.block3-1.f.b.0.weight')
  t_model_trunk_output_block3_block3-1_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-1.f.b.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-1_f_b_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-1.f.b.1.running_mean')
  t_model_trunk_output_block3_block3-1_f_b_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-1.f.b.1.running_var')
  t_model_trunk_output_block3_block3-1_f_b_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.b.1.weight')
  t_model_trunk_output_block3_block3-1_f_b_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.b.1.bias')
  t_model_trunk_output_block3_block3-1_f_se_fc1_weight: "cuda:0 f32[52, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-1.f.se.fc1.weight')
  t_model_trunk_output_block3_block3-1_f_se_fc1_bias: "cuda:0 f32[52]" = module.get_parameter('model.trunk_output.block3.block3-1.f.se.fc1.bias')
  t_model_trunk_output_block3_block3-1_f_se_fc2_weight: "cuda:0 f32[208, 52, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-1.f.se.fc2.weight')
  t_model_trunk_output_block3_block3-1_f_se_fc2_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.se.fc2.bias')
  t_model_trunk_output_block3_block3-1_f_c_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-1.f.c.0.weight')
  t_model_trunk_output_block3_block3-1_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-1.f.c.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-1_f_c_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-1.f.c.1.running_mean')
  t_model_trunk_output_block3_block3-1_f_c_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-1.f.c.1.running_var')
  t_model_trunk_output_block3_block3-1_f_c_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.c.1.weight')
  t_model_trunk_output_block3_block3-1_f_c_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-1.f.c.1.bias')
  t_model_trunk_output_block3_block3-2_f_a_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-2.f.a.0.weight')
  t_model_trunk_output_block3_block3-2_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-2.f.a.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-2_f_a_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-2.f.a.1.running_mean')
  t_model_trunk_output_block3_block3-2_f_a_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-2.f.a.1.running_var')
  t_model_trunk_output_block3_block3-2_f_a_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.a.1.weight')
  t_model_trunk_output_block3_block3-2_f_a_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.a.1.bias')
  t_model_trunk_output_block3_block3-2_f_b_0_weight: "cuda:0 f32[208, 8, 3, 3]" = module.get_parameter('model.trunk_output.block3.block3-2.f.b.0.weight')
  t_model_trunk_output_block3_block3-2_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-2.f.b.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-2_f_b_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-2.f.b.1.running_mean')
  t_model_trunk_output_block3_block3-2_f_b_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-2.f.b.1.running_var')
  t_model_trunk_output_block3_block3-2_f_b_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.b.1.weight')
  t_model_trunk_output_block3_block3-2_f_b_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.b.1.bias')
  t_model_trunk_output_block3_block3-2_f_se_fc1_weight: "cuda:0 f32[52, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-2.f.se.fc1.weight')
  t_model_trunk_output_block3_block3-2_f_se_fc1_bias: "cuda:0 f32[52]" = module.get_parameter('model.trunk_output.block3.block3-2.f.se.fc1.bias')
  t_model_trunk_output_block3_block3-2_f_se_fc2_weight: "cuda:0 f32[208, 52, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-2.f.se.fc2.weight')
  t_model_trunk_output_block3_block3-2_f_se_fc2_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.se.fc2.bias')
  t_model_trunk_output_block3_block3-2_f_c_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-2.f.c.0.weight')
  t_model_trunk_output_block3_block3-2_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-2.f.c.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-2_f_c_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-2.f.c.1.running_mean')
  t_model_trunk_output_block3_block3-2_f_c_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-2.f.c.1.running_var')
  t_model_trunk_output_block3_block3-2_f_c_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.c.1.weight')
  t_model_trunk_output_block3_block3-2_f_c_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-2.f.c.1.bias')
  t_model_trunk_output_block3_block3-3_f_a_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-3.f.a.0.weight')
  t_model_trunk_output_block3_block3-3_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-3.f.a.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-3_f_a_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-3.f.a.1.running_mean')
  t_model_trunk_output_block3_block3-3_f_a_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-3.f.a.1.running_var')
  t_model_trunk_output_block3_block3-3_f_a_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.a.1.weight')
  t_model_trunk_output_block3_block3-3_f_a_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.a.1.bias')
  t_model_trunk_output_block3_block3-3_f_b_0_weight: "cuda:0 f32[208, 8, 3, 3]" = module.get_parameter('model.trunk_output.block3.block3-3.f.b.0.weight')
  t_model_trunk_output_block3_block3-3_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-3.f.b.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-3_f_b_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-3.f.b.1.running_mean')
  t_model_trunk_output_block3_block3-3_f_b_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-3.f.b.1.running_var')
  t_model_trunk_output_block3_block3-3_f_b_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.b.1.weight')
  t_model_trunk_output_block3_block3-3_f_b_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.b.1.bias')
  t_model_trunk_output_block3_block3-3_f_se_fc1_weight: "cuda:0 f32[52, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-3.f.se.fc1.weight')
  t_model_trunk_output_block3_block3-3_f_se_fc1_bias: "cuda:0 f32[52]" = module.get_parameter('model.trunk_output.block3.block3-3.f.se.fc1.bias')
  t_model_trunk_output_block3_block3-3_f_se_fc2_weight: "cuda:0 f32[208, 52, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-3.f.se.fc2.weight')
  t_model_trunk_output_block3_block3-3_f_se_fc2_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.se.fc2.bias')
  t_model_trunk_output_block3_block3-3_f_c_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-3.f.c.0.weight')
  t_model_trunk_output_block3_block3-3_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-3.f.c.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-3_f_c_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-3.f.c.1.running_mean')
  t_model_trunk_output_block3_block3-3_f_c_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-3.f.c.1.running_var')
  t_model_trunk_output_block3_block3-3_f_c_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.c.1.weight')
  t_model_trunk_output_block3_block3-3_f_c_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-3.f.c.1.bias')
  t_model_trunk_output_block3_block3-4_f_a_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-4.f.a.0.weight')
  t_model_trunk_output_block3_block3-4_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-4.f.a.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-4_f_a_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-4.f.a.1.running_mean')
  t_model_trunk_output_block3_block3-4_f_a_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-4.f.a.1.running_var')
  t_model_trunk_output_block3_block3-4_f_a_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.a.1.weight')
  t_model_trunk_output_block3_block3-4_f_a_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.a.1.bias')
  t_model_trunk_output_block3_block3-4_f_b_0_weight: "cuda:0 f32[208, 8, 3, 3]" = module.get_parameter('model.trunk_output.block3.block3-4.f.b.0.weight')
  t_model_trunk_output_block3_block3-4_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-4.f.b.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-4_f_b_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-4.f.b.1.running_mean')
  t_model_trunk_output_block3_block3-4_f_b_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-4.f.b.1.running_var')
  t_model_trunk_output_block3_block3-4_f_b_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.b.1.weight')
  t_model_trunk_output_block3_block3-4_f_b_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.b.1.bias')
  t_model_trunk_output_block3_block3-4_f_se_fc1_weight: "cuda:0 f32[52, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-4.f.se.fc1.weight')
  t_model_trunk_output_block3_block3-4_f_se_fc1_bias: "cuda:0 f32[52]" = module.get_parameter('model.trunk_output.block3.block3-4.f.se.fc1.bias')
  t_model_trunk_output_block3_block3-4_f_se_fc2_weight: "cuda:0 f32[208, 52, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-4.f.se.fc2.weight')
  t_model_trunk_output_block3_block3-4_f_se_fc2_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.se.fc2.bias')
  t_model_trunk_output_block3_block3-4_f_c_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-4.f.c.0.weight')
  t_model_trunk_output_block3_block3-4_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-4.f.c.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-4_f_c_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-4.f.c.1.running_mean')
  t_model_trunk_output_block3_block3-4_f_c_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-4.f.c.1.running_var')
  t_model_trunk_output_block3_block3-4_f_c_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.c.1.weight')
  t_model_trunk_output_block3_block3-4_f_c_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-4.f.c.1.bias')
  t_model_trunk_output_block3_block3-5_f_a_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-5.f.a.0.weight')
  t_model_trunk_output_block3_block3-5_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-5.f.a.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-5_f_a_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-5.f.a.1.running_mean')
  t_model_trunk_output_block3_block3-5_f_a_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-5.f.a.1.running_var')
  t_model_trunk_output_block3_block3-5_f_a_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.a.1.weight')
  t_model_trunk_output_block3_block3-5_f_a_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.a.1.bias')
  t_model_trunk_output_block3_block3-5_f_b_0_weight: "cuda:0 f32[208, 8, 3, 3]" = module.get_parameter('model.trunk_output.block3.block3-5.f.b.0.weight')
  t_model_trunk_output_block3_block3-5_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-5.f.b.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-5_f_b_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-5.f.b.1.running_mean')
  t_model_trunk_output_block3_block3-5_f_b_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-5.f.b.1.running_var')
  t_model_trunk_output_block3_block3-5_f_b_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.b.1.weight')
  t_model_trunk_output_block3_block3-5_f_b_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.b.1.bias')
  t_model_trunk_output_block3_block3-5_f_se_fc1_weight: "cuda:0 f32[52, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-5.f.se.fc1.weight')
  t_model_trunk_output_block3_block3-5_f_se_fc1_bias: "cuda:0 f32[52]" = module.get_parameter('model.trunk_output.block3.block3-5.f.se.fc1.bias')
  t_model_trunk_output_block3_block3-5_f_se_fc2_weight: "cuda:0 f32[208, 52, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-5.f.se.fc2.weight')
  t_model_trunk_output_block3_block3-5_f_se_fc2_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.se.fc2.bias')
  t_model_trunk_output_block3_block3-5_f_c_0_weight: "cuda:0 f32[208, 208, 1, 1]" = module.get_parameter('model.trunk_output.block3.block3-5.f.c.0.weight')
  t_model_trunk_output_block3_block3-5_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block3.block3-5.f.c.1.num_batches_tracked')
  t_model_trunk_output_block3_block3-5_f_c_1_running_mean: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-5.f.c.1.running_mean')
  t_model_trunk_output_block3_block3-5_f_c_1_running_var: "cuda:0 f32[208]" = module.get_buffer('model.trunk_output.block3.block3-5.f.c.1.running_var')
  t_model_trunk_output_block3_block3-5_f_c_1_weight: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.c.1.weight')
  t_model_trunk_output_block3_block3-5_f_c_1_bias: "cuda:0 f32[208]" = module.get_parameter('model.trunk_output.block3.block3-5.f.c.1.bias')
  t_model_trunk_output_block4_block4-0_proj_0_weight: "cuda:0 f32[440, 208, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-0.proj.0.weight')
  t_model_trunk_output_block4_block4-0_proj_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-0.proj.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-0_proj_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.proj.1.running_mean')
  t_model_trunk_output_block4_block4-0_proj_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.proj.1.running_var')
  t_model_trunk_output_block4_block4-0_proj_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.proj.1.weight')
  t_model_trunk_output_block4_block4-0_proj_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.proj.1.bias')
  t_model_trunk_output_block4_block4-0_f_a_0_weight: "cuda:0 f32[440, 208, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-0.f.a.0.weight')
  t_model_trunk_output_block4_block4-0_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-0.f.a.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-0_f_a_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.f.a.1.running_mean')
  t_model_trunk_output_block4_block4-0_f_a_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.f.a.1.running_var')
  t_model_trunk_output_block4_block4-0_f_a_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.a.1.weight')
  t_model_trunk_output_block4_block4-0_f_a_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.a.1.bias')
  t_model_trunk_output_block4_block4-0_f_b_0_weight: "cuda:0 f32[440, 8, 3, 3]" = module.get_parameter('model.trunk_output.block4.block4-0.f.b.0.weight')
  t_model_trunk_output_block4_block4-0_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-0.f.b.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-0_f_b_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.f.b.1.running_mean')
  t_model_trunk_output_block4_block4-0_f_b_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.f.b.1.running_var')
  t_model_trunk_output_block4_block4-0_f_b_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.b.1.weight')
  t_model_trunk_output_block4_block4-0_f_b_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.b.1.bias')
  t_model_trunk_output_block4_block4-0_f_se_fc1_weight: "cuda:0 f32[52, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-0.f.se.fc1.weight')
  t_model_trunk_output_block4_block4-0_f_se_fc1_bias: "cuda:0 f32[52]" = module.get_parameter('model.trunk_output.block4.block4-0.f.se.fc1.bias')
  t_model_trunk_output_block4_block4-0_f_se_fc2_weight: "cuda:0 f32[440, 52, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-0.f.se.fc2.weight')
  t_model_trunk_output_block4_block4-0_f_se_fc2_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.se.fc2.bias')
  t_model_trunk_output_block4_block4-0_f_c_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-0.f.c.0.weight')
  t_model_trunk_output_block4_block4-0_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-0.f.c.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-0_f_c_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.f.c.1.running_mean')
  t_model_trunk_output_block4_block4-0_f_c_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-0.f.c.1.running_var')
  t_model_trunk_output_block4_block4-0_f_c_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.c.1.weight')
  t_model_trunk_output_block4_block4-0_f_c_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-0.f.c.1.bias')
  t_model_trunk_output_block4_block4-1_f_a_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-1.f.a.0.weight')
  t_model_trunk_output_block4_block4-1_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-1.f.a.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-1_f_a_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-1.f.a.1.running_mean')
  t_model_trunk_output_block4_block4-1_f_a_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-1.f.a.1.running_var')
  t_model_trunk_output_block4_block4-1_f_a_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.a.1.weight')
  t_model_trunk_output_block4_block4-1_f_a_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.a.1.bias')
  t_model_trunk_output_block4_block4-1_f_b_0_weight: "cuda:0 f32[440, 8, 3, 3]" = module.get_parameter('model.trunk_output.block4.block4-1.f.b.0.weight')
  t_model_trunk_output_block4_block4-1_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-1.f.b.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-1_f_b_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-1.f.b.1.running_mean')
  t_model_trunk_output_block4_block4-1_f_b_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-1.f.b.1.running_var')
  t_model_trunk_output_block4_block4-1_f_b_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.b.1.weight')
  t_model_trunk_output_block4_block4-1_f_b_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.b.1.bias')
  t_model_trunk_output_block4_block4-1_f_se_fc1_weight: "cuda:0 f32[110, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-1.f.se.fc1.weight')
  t_model_trunk_output_block4_block4-1_f_se_fc1_bias: "cuda:0 f32[110]" = module.get_parameter('model.trunk_output.block4.block4-1.f.se.fc1.bias')
  t_model_trunk_output_block4_block4-1_f_se_fc2_weight: "cuda:0 f32[440, 110, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-1.f.se.fc2.weight')
  t_model_trunk_output_block4_block4-1_f_se_fc2_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.se.fc2.bias')
  t_model_trunk_output_block4_block4-1_f_c_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-1.f.c.0.weight')
  t_model_trunk_output_block4_block4-1_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-1.f.c.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-1_f_c_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-1.f.c.1.running_mean')
  t_model_trunk_output_block4_block4-1_f_c_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-1.f.c.1.running_var')
  t_model_trunk_output_block4_block4-1_f_c_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.c.1.weight')
  t_model_trunk_output_block4_block4-1_f_c_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-1.f.c.1.bias')
  t_model_trunk_output_block4_block4-2_f_a_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-2.f.a.0.weight')
  t_model_trunk_output_block4_block4-2_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-2.f.a.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-2_f_a_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-2.f.a.1.running_mean')
  t_model_trunk_output_block4_block4-2_f_a_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-2.f.a.1.running_var')
  t_model_trunk_output_block4_block4-2_f_a_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.a.1.weight')
  t_model_trunk_output_block4_block4-2_f_a_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.a.1.bias')
  t_model_trunk_output_block4_block4-2_f_b_0_weight: "cuda:0 f32[440, 8, 3, 3]" = module.get_parameter('model.trunk_output.block4.block4-2.f.b.0.weight')
  t_model_trunk_output_block4_block4-2_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-2.f.b.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-2_f_b_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-2.f.b.1.running_mean')
  t_model_trunk_output_block4_block4-2_f_b_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-2.f.b.1.running_var')
  t_model_trunk_output_block4_block4-2_f_b_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.b.1.weight')
  t_model_trunk_output_block4_block4-2_f_b_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.b.1.bias')
  t_model_trunk_output_block4_block4-2_f_se_fc1_weight: "cuda:0 f32[110, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-2.f.se.fc1.weight')
  t_model_trunk_output_block4_block4-2_f_se_fc1_bias: "cuda:0 f32[110]" = module.get_parameter('model.trunk_output.block4.block4-2.f.se.fc1.bias')
  t_model_trunk_output_block4_block4-2_f_se_fc2_weight: "cuda:0 f32[440, 110, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-2.f.se.fc2.weight')
  t_model_trunk_output_block4_block4-2_f_se_fc2_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.se.fc2.bias')
  t_model_trunk_output_block4_block4-2_f_c_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-2.f.c.0.weight')
  t_model_trunk_output_block4_block4-2_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-2.f.c.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-2_f_c_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-2.f.c.1.running_mean')
  t_model_trunk_output_block4_block4-2_f_c_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-2.f.c.1.running_var')
  t_model_trunk_output_block4_block4-2_f_c_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.c.1.weight')
  t_model_trunk_output_block4_block4-2_f_c_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-2.f.c.1.bias')
  t_model_trunk_output_block4_block4-3_f_a_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-3.f.a.0.weight')
  t_model_trunk_output_block4_block4-3_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-3.f.a.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-3_f_a_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-3.f.a.1.running_mean')
  t_model_trunk_output_block4_block4-3_f_a_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-3.f.a.1.running_var')
  t_model_trunk_output_block4_block4-3_f_a_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.a.1.weight')
  t_model_trunk_output_block4_block4-3_f_a_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.a.1.bias')
  t_model_trunk_output_block4_block4-3_f_b_0_weight: "cuda:0 f32[440, 8, 3, 3]" = module.get_parameter('model.trunk_output.block4.block4-3.f.b.0.weight')
  t_model_trunk_output_block4_block4-3_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-3.f.b.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-3_f_b_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-3.f.b.1.running_mean')
  t_model_trunk_output_block4_block4-3_f_b_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-3.f.b.1.running_var')
  t_model_trunk_output_block4_block4-3_f_b_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.b.1.weight')
  t_model_trunk_output_block4_block4-3_f_b_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.b.1.bias')
  t_model_trunk_output_block4_block4-3_f_se_fc1_weight: "cuda:0 f32[110, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-3.f.se.fc1.weight')
  t_model_trunk_output_block4_block4-3_f_se_fc1_bias: "cuda:0 f32[110]" = module.get_parameter('model.trunk_output.block4.block4-3.f.se.fc1.bias')
  t_model_trunk_output_block4_block4-3_f_se_fc2_weight: "cuda:0 f32[440, 110, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-3.f.se.fc2.weight')
  t_model_trunk_output_block4_block4-3_f_se_fc2_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.se.fc2.bias')
  t_model_trunk_output_block4_block4-3_f_c_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-3.f.c.0.weight')
  t_model_trunk_output_block4_block4-3_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-3.f.c.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-3_f_c_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-3.f.c.1.running_mean')
  t_model_trunk_output_block4_block4-3_f_c_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-3.f.c.1.running_var')
  t_model_trunk_output_block4_block4-3_f_c_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.c.1.weight')
  t_model_trunk_output_block4_block4-3_f_c_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-3.f.c.1.bias')
  t_model_trunk_output_block4_block4-4_f_a_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-4.f.a.0.weight')
  t_model_trunk_output_block4_block4-4_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-4.f.a.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-4_f_a_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-4.f.a.1.running_mean')
  t_model_trunk_output_block4_block4-4_f_a_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-4.f.a.1.running_var')
  t_model_trunk_output_block4_block4-4_f_a_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.a.1.weight')
  t_model_trunk_output_block4_block4-4_f_a_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.a.1.bias')
  t_model_trunk_output_block4_block4-4_f_b_0_weight: "cuda:0 f32[440, 8, 3, 3]" = module.get_parameter('model.trunk_output.block4.block4-4.f.b.0.weight')
  t_model_trunk_output_block4_block4-4_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-4.f.b.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-4_f_b_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-4.f.b.1.running_mean')
  t_model_trunk_output_block4_block4-4_f_b_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-4.f.b.1.running_var')
  t_model_trunk_output_block4_block4-4_f_b_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.b.1.weight')
  t_model_trunk_output_block4_block4-4_f_b_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.b.1.bias')
  t_model_trunk_output_block4_block4-4_f_se_fc1_weight: "cuda:0 f32[110, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-4.f.se.fc1.weight')
  t_model_trunk_output_block4_block4-4_f_se_fc1_bias: "cuda:0 f32[110]" = module.get_parameter('model.trunk_output.block4.block4-4.f.se.fc1.bias')
  t_model_trunk_output_block4_block4-4_f_se_fc2_weight: "cuda:0 f32[440, 110, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-4.f.se.fc2.weight')
  t_model_trunk_output_block4_block4-4_f_se_fc2_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.se.fc2.bias')
  t_model_trunk_output_block4_block4-4_f_c_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-4.f.c.0.weight')
  t_model_trunk_output_block4_block4-4_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-4.f.c.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-4_f_c_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-4.f.c.1.running_mean')
  t_model_trunk_output_block4_block4-4_f_c_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-4.f.c.1.running_var')
  t_model_trunk_output_block4_block4-4_f_c_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.c.1.weight')
  t_model_trunk_output_block4_block4-4_f_c_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-4.f.c.1.bias')
  t_model_trunk_output_block4_block4-5_f_a_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-5.f.a.0.weight')
  t_model_trunk_output_block4_block4-5_f_a_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-5.f.a.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-5_f_a_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-5.f.a.1.running_mean')
  t_model_trunk_output_block4_block4-5_f_a_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-5.f.a.1.running_var')
  t_model_trunk_output_block4_block4-5_f_a_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.a.1.weight')
  t_model_trunk_output_block4_block4-5_f_a_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.a.1.bias')
  t_model_trunk_output_block4_block4-5_f_b_0_weight: "cuda:0 f32[440, 8, 3, 3]" = module.get_parameter('model.trunk_output.block4.block4-5.f.b.0.weight')
  t_model_trunk_output_block4_block4-5_f_b_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-5.f.b.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-5_f_b_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-5.f.b.1.running_mean')
  t_model_trunk_output_block4_block4-5_f_b_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-5.f.b.1.running_var')
  t_model_trunk_output_block4_block4-5_f_b_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.b.1.weight')
  t_model_trunk_output_block4_block4-5_f_b_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.b.1.bias')
  t_model_trunk_output_block4_block4-5_f_se_fc1_weight: "cuda:0 f32[110, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-5.f.se.fc1.weight')
  t_model_trunk_output_block4_block4-5_f_se_fc1_bias: "cuda:0 f32[110]" = module.get_parameter('model.trunk_output.block4.block4-5.f.se.fc1.bias')
  t_model_trunk_output_block4_block4-5_f_se_fc2_weight: "cuda:0 f32[440, 110, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-5.f.se.fc2.weight')
  t_model_trunk_output_block4_block4-5_f_se_fc2_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.se.fc2.bias')
  t_model_trunk_output_block4_block4-5_f_c_0_weight: "cuda:0 f32[440, 440, 1, 1]" = module.get_parameter('model.trunk_output.block4.block4-5.f.c.0.weight')
  t_model_trunk_output_block4_block4-5_f_c_1_num_batches_tracked: "cuda:0 i64[]" = module.get_buffer('model.trunk_output.block4.block4-5.f.c.1.num_batches_tracked')
  t_model_trunk_output_block4_block4-5_f_c_1_running_mean: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-5.f.c.1.running_mean')
  t_model_trunk_output_block4_block4-5_f_c_1_running_var: "cuda:0 f32[440]" = module.get_buffer('model.trunk_output.block4.block4-5.f.c.1.running_var')
  t_model_trunk_output_block4_block4-5_f_c_1_weight: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.c.1.weight')
  t_model_trunk_output_block4_block4-5_f_c_1_bias: "cuda:0 f32[440]" = module.get_parameter('model.trunk_output.block4.block4-5.f.c.1.bias')
  t_model_fc_weight: "cuda:0 f32[10, 440]" = module.get_parameter('model.fc.weight')
  t_model_fc_bias: "cuda:0 f32[10]" = module.get_parameter('model.fc.bias')
  y: "cuda:0 i64[2]" = args[1]
  prims.check_tensor_shape_and_metadata(x, (2, 3, 64, 64), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(y, (2,), 'cuda:0', torch.int64, False)
  i0: "bool True" = module.training
  prims.check_number_type_and_value(i0, True)
  m1: "Any" = module.get_submodule('model')
  i1: "bool True" = m1.training
  prims.check_number_type_and_value(i1, True)
  m2: "Any" = module.get_submodule('model.stem.0')
  i2: "bool True" = m2.training
  prims.check_number_type_and_value(i2, True)
  i3: "int 3" = m2.in_channels
  prims.check_number_type_and_value(i3, 3)
  i4: "int 32" = m2.out_channels
  prims.check_number_type_and_value(i4, 32)
  i5: "bool False" = m2.transposed
  prims.check_number_type_and_value(i5, False)
  i6: "int 1" = m2.groups
  prims.check_number_type_and_value(i6, 1)
  s7: "str" = m2.padding_mode
  prims.check_string_value(s7, 'zeros')
  prims.check_tensor_shape_and_metadata(weight, (32, 3, 3, 3), 'cuda:0', torch.float32, True)
  s8: "str" = m2.padding_mode
  prims.check_string_value(s8, 'zeros')
  obj3: "Any" = m2.stride
  i9: "int 2" = obj3[0]
  prims.check_number_type_and_value(i9, 2)
  i10: "int 2" = obj3[1]
  prims.check_number_type_and_value(i10, 2)
  obj4: "Any" = m2.padding
  i11: "int 1" = obj4[0]
  prims.check_number_type_and_value(i11, 1)
  i12: "int 1" = obj4[1]
  prims.check_number_type_and_value(i12, 1)
  obj5: "Any" = m2.dilation
  i13: "int 1" = obj5[0]
  prims.check_number_type_and_value(i13, 1)
  i14: "int 1" = obj5[1]
  prims.check_number_type_and_value(i14, 1)
  i15: "int 1" = m2.groups
  prims.check_number_type_and_value(i15, 1)
  m6: "Any" = module.get_submodule('model.stem.1')
  f17: "float 0.1" = m6.momentum
  prims.check_number_type_and_value(f17, 0.1)
  i18: "bool True" = m6.training
  prims.check_number_type_and_value(i18, True)
  i19: "bool True" = m6.track_running_stats
  prims.check_number_type_and_value(i19, True)
  i20: "bool True" = m6.training
  prims.check_number_type_and_value(i20, True)
  i21: "int 32" = m6.num_features
  prims.check_number_type_and_value(i21, 32)
  f22: "float 1e-05" = m6.eps
  prims.check_number_type_and_value(f22, 1e-05)
  f23: "float 0.1" = m6.momentum
  prims.check_number_type_and_value(f23, 0.1)
  i24: "bool True" = m6.affine
  prims.check_number_type_and_value(i24, True)
  i25: "bool True" = m6.track_running_stats
  prims.check_number_type_and_value(i25, True)
  prims.check_tensor_shape_and_metadata(t_model_stem_1_weight, (32,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_stem_1_bias, (32,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_stem_1_running_mean, (32,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_stem_1_running_var, (32,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_stem_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f28: "float 1e-05" = m6.eps
  prims.check_number_type_and_value(f28, 1e-05)
  m7: "Any" = module.get_submodule('model.stem.2')
  i61: "bool True" = m7.inplace
  prims.check_number_type_and_value(i61, True)
  m8: "Any" = module.get_submodule('model.trunk_output.block1.block1-0')
  i65: "bool True" = m8.training
  prims.check_number_type_and_value(i65, True)
  m9: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.proj.0')
  i66: "bool True" = m9.training
  prims.check_number_type_and_value(i66, True)
  i67: "int 32" = m9.in_channels
  prims.check_number_type_and_value(i67, 32)
  i68: "int 48" = m9.out_channels
  prims.check_number_type_and_value(i68, 48)
  i69: "bool False" = m9.transposed
  prims.check_number_type_and_value(i69, False)
  i70: "int 1" = m9.groups
  prims.check_number_type_and_value(i70, 1)
  s71: "str" = m9.padding_mode
  prims.check_string_value(s71, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_proj_0_weight, (48, 32, 1, 1), 'cuda:0', torch.float32, True)
  s72: "str" = m9.padding_mode
  prims.check_string_value(s72, 'zeros')
  obj10: "Any" = m9.stride
  i73: "int 2" = obj10[0]
  prims.check_number_type_and_value(i73, 2)
  i74: "int 2" = obj10[1]
  prims.check_number_type_and_value(i74, 2)
  obj11: "Any" = m9.padding
  i75: "int 0" = obj11[0]
  prims.check_number_type_and_value(i75, 0)
  i76: "int 0" = obj11[1]
  prims.check_number_type_and_value(i76, 0)
  obj12: "Any" = m9.dilation
  i77: "int 1" = obj12[0]
  prims.check_number_type_and_value(i77, 1)
  i78: "int 1" = obj12[1]
  prims.check_number_type_and_value(i78, 1)
  i79: "int 1" = m9.groups
  prims.check_number_type_and_value(i79, 1)
  m13: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.proj.1')
  f81: "float 0.1" = m13.momentum
  prims.check_number_type_and_value(f81, 0.1)
  i82: "bool True" = m13.training
  prims.check_number_type_and_value(i82, True)
  i83: "bool True" = m13.track_running_stats
  prims.check_number_type_and_value(i83, True)
  i84: "bool True" = m13.training
  prims.check_number_type_and_value(i84, True)
  i85: "int 48" = m13.num_features
  prims.check_number_type_and_value(i85, 48)
  f86: "float 1e-05" = m13.eps
  prims.check_number_type_and_value(f86, 1e-05)
  f87: "float 0.1" = m13.momentum
  prims.check_number_type_and_value(f87, 0.1)
  i88: "bool True" = m13.affine
  prims.check_number_type_and_value(i88, True)
  i89: "bool True" = m13.track_running_stats
  prims.check_number_type_and_value(i89, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_proj_1_weight, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_proj_1_bias, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_proj_1_running_mean, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_proj_1_running_var, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_proj_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f92: "float 1e-05" = m13.eps
  prims.check_number_type_and_value(f92, 1e-05)
  m14: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.a.0')
  i125: "bool True" = m14.training
  prims.check_number_type_and_value(i125, True)
  i126: "int 32" = m14.in_channels
  prims.check_number_type_and_value(i126, 32)
  i127: "int 48" = m14.out_channels
  prims.check_number_type_and_value(i127, 48)
  i128: "bool False" = m14.transposed
  prims.check_number_type_and_value(i128, False)
  i129: "int 1" = m14.groups
  prims.check_number_type_and_value(i129, 1)
  s130: "str" = m14.padding_mode
  prims.check_string_value(s130, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_a_0_weight, (48, 32, 1, 1), 'cuda:0', torch.float32, True)
  s131: "str" = m14.padding_mode
  prims.check_string_value(s131, 'zeros')
  obj15: "Any" = m14.stride
  i132: "int 1" = obj15[0]
  prims.check_number_type_and_value(i132, 1)
  i133: "int 1" = obj15[1]
  prims.check_number_type_and_value(i133, 1)
  obj16: "Any" = m14.padding
  i134: "int 0" = obj16[0]
  prims.check_number_type_and_value(i134, 0)
  i135: "int 0" = obj16[1]
  prims.check_number_type_and_value(i135, 0)
  obj17: "Any" = m14.dilation
  i136: "int 1" = obj17[0]
  prims.check_number_type_and_value(i136, 1)
  i137: "int 1" = obj17[1]
  prims.check_number_type_and_value(i137, 1)
  i138: "int 1" = m14.groups
  prims.check_number_type_and_value(i138, 1)
  m18: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.a.1')
  f140: "float 0.1" = m18.momentum
  prims.check_number_type_and_value(f140, 0.1)
  i141: "bool True" = m18.training
  prims.check_number_type_and_value(i141, True)
  i142: "bool True" = m18.track_running_stats
  prims.check_number_type_and_value(i142, True)
  i143: "bool True" = m18.training
  prims.check_number_type_and_value(i143, True)
  i144: "int 48" = m18.num_features
  prims.check_number_type_and_value(i144, 48)
  f145: "float 1e-05" = m18.eps
  prims.check_number_type_and_value(f145, 1e-05)
  f146: "float 0.1" = m18.momentum
  prims.check_number_type_and_value(f146, 0.1)
  i147: "bool True" = m18.affine
  prims.check_number_type_and_value(i147, True)
  i148: "bool True" = m18.track_running_stats
  prims.check_number_type_and_value(i148, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_a_1_weight, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_a_1_bias, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_a_1_running_mean, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_a_1_running_var, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f151: "float 1e-05" = m18.eps
  prims.check_number_type_and_value(f151, 1e-05)
  m19: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.a.2')
  i184: "bool True" = m19.inplace
  prims.check_number_type_and_value(i184, True)
  m20: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.b.0')
  i188: "bool True" = m20.training
  prims.check_number_type_and_value(i188, True)
  i189: "int 48" = m20.in_channels
  prims.check_number_type_and_value(i189, 48)
  i190: "int 48" = m20.out_channels
  prims.check_number_type_and_value(i190, 48)
  i191: "bool False" = m20.transposed
  prims.check_number_type_and_value(i191, False)
  i192: "int 6" = m20.groups
  prims.check_number_type_and_value(i192, 6)
  s193: "str" = m20.padding_mode
  prims.check_string_value(s193, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_b_0_weight, (48, 8, 3, 3), 'cuda:0', torch.float32, True)
  s194: "str" = m20.padding_mode
  prims.check_string_value(s194, 'zeros')
  obj21: "Any" = m20.stride
  i195: "int 2" = obj21[0]
  prims.check_number_type_and_value(i195, 2)
  i196: "int 2" = obj21[1]
  prims.check_number_type_and_value(i196, 2)
  obj22: "Any" = m20.padding
  i197: "int 1" = obj22[0]
  prims.check_number_type_and_value(i197, 1)
  i198: "int 1" = obj22[1]
  prims.check_number_type_and_value(i198, 1)
  obj23: "Any" = m20.dilation
  i199: "int 1" = obj23[0]
  prims.check_number_type_and_value(i199, 1)
  i200: "int 1" = obj23[1]
  prims.check_number_type_and_value(i200, 1)
  i201: "int 6" = m20.groups
  prims.check_number_type_and_value(i201, 6)
  m24: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.b.1')
  f203: "float 0.1" = m24.momentum
  prims.check_number_type_and_value(f203, 0.1)
  i204: "bool True" = m24.training
  prims.check_number_type_and_value(i204, True)
  i205: "bool True" = m24.track_running_stats
  prims.check_number_type_and_value(i205, True)
  i206: "bool True" = m24.training
  prims.check_number_type_and_value(i206, True)
  i207: "int 48" = m24.num_features
  prims.check_number_type_and_value(i207, 48)
  f208: "float 1e-05" = m24.eps
  prims.check_number_type_and_value(f208, 1e-05)
  f209: "float 0.1" = m24.momentum
  prims.check_number_type_and_value(f209, 0.1)
  i210: "bool True" = m24.affine
  prims.check_number_type_and_value(i210, True)
  i211: "bool True" = m24.track_running_stats
  prims.check_number_type_and_value(i211, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_b_1_weight, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_b_1_bias, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_b_1_running_mean, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_b_1_running_var, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f214: "float 1e-05" = m24.eps
  prims.check_number_type_and_value(f214, 1e-05)
  m25: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.b.2')
  i247: "bool True" = m25.inplace
  prims.check_number_type_and_value(i247, True)
  m26: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.se')
  i251: "bool True" = m26.training
  prims.check_number_type_and_value(i251, True)
  m27: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.se.avgpool')
  i252: "int 1" = m27.output_size
  prims.check_number_type_and_value(i252, 1)
  m28: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.se.fc1')
  i254: "bool True" = m28.training
  prims.check_number_type_and_value(i254, True)
  i255: "int 48" = m28.in_channels
  prims.check_number_type_and_value(i255, 48)
  i256: "int 8" = m28.out_channels
  prims.check_number_type_and_value(i256, 8)
  i257: "bool False" = m28.transposed
  prims.check_number_type_and_value(i257, False)
  i258: "int 1" = m28.groups
  prims.check_number_type_and_value(i258, 1)
  s259: "str" = m28.padding_mode
  prims.check_string_value(s259, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_se_fc1_weight, (8, 48, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(bias, (8,), 'cuda:0', torch.float32, True)
  s260: "str" = m28.padding_mode
  prims.check_string_value(s260, 'zeros')
  obj29: "Any" = m28.stride
  i261: "int 1" = obj29[0]
  prims.check_number_type_and_value(i261, 1)
  i262: "int 1" = obj29[1]
  prims.check_number_type_and_value(i262, 1)
  obj30: "Any" = m28.padding
  i263: "int 0" = obj30[0]
  prims.check_number_type_and_value(i263, 0)
  i264: "int 0" = obj30[1]
  prims.check_number_type_and_value(i264, 0)
  obj31: "Any" = m28.dilation
  i265: "int 1" = obj31[0]
  prims.check_number_type_and_value(i265, 1)
  i266: "int 1" = obj31[1]
  prims.check_number_type_and_value(i266, 1)
  i267: "int 1" = m28.groups
  prims.check_number_type_and_value(i267, 1)
  m32: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.se.activation')
  i269: "bool False" = m32.inplace
  prims.check_number_type_and_value(i269, False)
  m33: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.se.fc2')
  i272: "bool True" = m33.training
  prims.check_number_type_and_value(i272, True)
  i273: "int 8" = m33.in_channels
  prims.check_number_type_and_value(i273, 8)
  i274: "int 48" = m33.out_channels
  prims.check_number_type_and_value(i274, 48)
  i275: "bool False" = m33.transposed
  prims.check_number_type_and_value(i275, False)
  i276: "int 1" = m33.groups
  prims.check_number_type_and_value(i276, 1)
  s277: "str" = m33.padding_mode
  prims.check_string_value(s277, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_se_fc2_weight, (48, 8, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_se_fc2_bias, (48,), 'cuda:0', torch.float32, True)
  s278: "str" = m33.padding_mode
  prims.check_string_value(s278, 'zeros')
  obj34: "Any" = m33.stride
  i279: "int 1" = obj34[0]
  prims.check_number_type_and_value(i279, 1)
  i280: "int 1" = obj34[1]
  prims.check_number_type_and_value(i280, 1)
  obj35: "Any" = m33.padding
  i281: "int 0" = obj35[0]
  prims.check_number_type_and_value(i281, 0)
  i282: "int 0" = obj35[1]
  prims.check_number_type_and_value(i282, 0)
  obj36: "Any" = m33.dilation
  i283: "int 1" = obj36[0]
  prims.check_number_type_and_value(i283, 1)
  i284: "int 1" = obj36[1]
  prims.check_number_type_and_value(i284, 1)
  i285: "int 1" = m33.groups
  prims.check_number_type_and_value(i285, 1)
  m37: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.c.0')
  i293: "bool True" = m37.training
  prims.check_number_type_and_value(i293, True)
  i294: "int 48" = m37.in_channels
  prims.check_number_type_and_value(i294, 48)
  i295: "int 48" = m37.out_channels
  prims.check_number_type_and_value(i295, 48)
  i296: "bool False" = m37.transposed
  prims.check_number_type_and_value(i296, False)
  i297: "int 1" = m37.groups
  prims.check_number_type_and_value(i297, 1)
  s298: "str" = m37.padding_mode
  prims.check_string_value(s298, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_c_0_weight, (48, 48, 1, 1), 'cuda:0', torch.float32, True)
  s299: "str" = m37.padding_mode
  prims.check_string_value(s299, 'zeros')
  obj38: "Any" = m37.stride
  i300: "int 1" = obj38[0]
  prims.check_number_type_and_value(i300, 1)
  i301: "int 1" = obj38[1]
  prims.check_number_type_and_value(i301, 1)
  obj39: "Any" = m37.padding
  i302: "int 0" = obj39[0]
  prims.check_number_type_and_value(i302, 0)
  i303: "int 0" = obj39[1]
  prims.check_number_type_and_value(i303, 0)
  obj40: "Any" = m37.dilation
  i304: "int 1" = obj40[0]
  prims.check_number_type_and_value(i304, 1)
  i305: "int 1" = obj40[1]
  prims.check_number_type_and_value(i305, 1)
  i306: "int 1" = m37.groups
  prims.check_number_type_and_value(i306, 1)
  m41: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.f.c.1')
  f308: "float 0.1" = m41.momentum
  prims.check_number_type_and_value(f308, 0.1)
  i309: "bool True" = m41.training
  prims.check_number_type_and_value(i309, True)
  i310: "bool True" = m41.track_running_stats
  prims.check_number_type_and_value(i310, True)
  i311: "bool True" = m41.training
  prims.check_number_type_and_value(i311, True)
  i312: "int 48" = m41.num_features
  prims.check_number_type_and_value(i312, 48)
  f313: "float 1e-05" = m41.eps
  prims.check_number_type_and_value(f313, 1e-05)
  f314: "float 0.1" = m41.momentum
  prims.check_number_type_and_value(f314, 0.1)
  i315: "bool True" = m41.affine
  prims.check_number_type_and_value(i315, True)
  i316: "bool True" = m41.track_running_stats
  prims.check_number_type_and_value(i316, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_c_1_weight, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_c_1_bias, (48,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_c_1_running_mean, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_c_1_running_var, (48,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block1_block1-0_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f319: "float 1e-05" = m41.eps
  prims.check_number_type_and_value(f319, 1e-05)
  m42: "Any" = module.get_submodule('model.trunk_output.block1.block1-0.activation')
  i353: "bool True" = m42.inplace
  prims.check_number_type_and_value(i353, True)
  m43: "Any" = module.get_submodule('model.trunk_output.block2.block2-0')
  i357: "bool True" = m43.training
  prims.check_number_type_and_value(i357, True)
  m44: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.proj.0')
  i358: "bool True" = m44.training
  prims.check_number_type_and_value(i358, True)
  i359: "int 48" = m44.in_channels
  prims.check_number_type_and_value(i359, 48)
  i360: "int 104" = m44.out_channels
  prims.check_number_type_and_value(i360, 104)
  i361: "bool False" = m44.transposed
  prims.check_number_type_and_value(i361, False)
  i362: "int 1" = m44.groups
  prims.check_number_type_and_value(i362, 1)
  s363: "str" = m44.padding_mode
  prims.check_string_value(s363, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_proj_0_weight, (104, 48, 1, 1), 'cuda:0', torch.float32, True)
  s364: "str" = m44.padding_mode
  prims.check_string_value(s364, 'zeros')
  obj45: "Any" = m44.stride
  i365: "int 2" = obj45[0]
  prims.check_number_type_and_value(i365, 2)
  i366: "int 2" = obj45[1]
  prims.check_number_type_and_value(i366, 2)
  obj46: "Any" = m44.padding
  i367: "int 0" = obj46[0]
  prims.check_number_type_and_value(i367, 0)
  i368: "int 0" = obj46[1]
  prims.check_number_type_and_value(i368, 0)
  obj47: "Any" = m44.dilation
  i369: "int 1" = obj47[0]
  prims.check_number_type_and_value(i369, 1)
  i370: "int 1" = obj47[1]
  prims.check_number_type_and_value(i370, 1)
  i371: "int 1" = m44.groups
  prims.check_number_type_and_value(i371, 1)
  m48: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.proj.1')
  f373: "float 0.1" = m48.momentum
  prims.check_number_type_and_value(f373, 0.1)
  i374: "bool True" = m48.training
  prims.check_number_type_and_value(i374, True)
  i375: "bool True" = m48.track_running_stats
  prims.check_number_type_and_value(i375, True)
  i376: "bool True" = m48.training
  prims.check_number_type_and_value(i376, True)
  i377: "int 104" = m48.num_features
  prims.check_number_type_and_value(i377, 104)
  f378: "float 1e-05" = m48.eps
  prims.check_number_type_and_value(f378, 1e-05)
  f379: "float 0.1" = m48.momentum
  prims.check_number_type_and_value(f379, 0.1)
  i380: "bool True" = m48.affine
  prims.check_number_type_and_value(i380, True)
  i381: "bool True" = m48.track_running_stats
  prims.check_number_type_and_value(i381, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_proj_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_proj_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_proj_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_proj_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_proj_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f384: "float 1e-05" = m48.eps
  prims.check_number_type_and_value(f384, 1e-05)
  m49: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.a.0')
  i417: "bool True" = m49.training
  prims.check_number_type_and_value(i417, True)
  i418: "int 48" = m49.in_channels
  prims.check_number_type_and_value(i418, 48)
  i419: "int 104" = m49.out_channels
  prims.check_number_type_and_value(i419, 104)
  i420: "bool False" = m49.transposed
  prims.check_number_type_and_value(i420, False)
  i421: "int 1" = m49.groups
  prims.check_number_type_and_value(i421, 1)
  s422: "str" = m49.padding_mode
  prims.check_string_value(s422, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_a_0_weight, (104, 48, 1, 1), 'cuda:0', torch.float32, True)
  s423: "str" = m49.padding_mode
  prims.check_string_value(s423, 'zeros')
  obj50: "Any" = m49.stride
  i424: "int 1" = obj50[0]
  prims.check_number_type_and_value(i424, 1)
  i425: "int 1" = obj50[1]
  prims.check_number_type_and_value(i425, 1)
  obj51: "Any" = m49.padding
  i426: "int 0" = obj51[0]
  prims.check_number_type_and_value(i426, 0)
  i427: "int 0" = obj51[1]
  prims.check_number_type_and_value(i427, 0)
  obj52: "Any" = m49.dilation
  i428: "int 1" = obj52[0]
  prims.check_number_type_and_value(i428, 1)
  i429: "int 1" = obj52[1]
  prims.check_number_type_and_value(i429, 1)
  i430: "int 1" = m49.groups
  prims.check_number_type_and_value(i430, 1)
  m53: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.a.1')
  f432: "float 0.1" = m53.momentum
  prims.check_number_type_and_value(f432, 0.1)
  i433: "bool True" = m53.training
  prims.check_number_type_and_value(i433, True)
  i434: "bool True" = m53.track_running_stats
  prims.check_number_type_and_value(i434, True)
  i435: "bool True" = m53.training
  prims.check_number_type_and_value(i435, True)
  i436: "int 104" = m53.num_features
  prims.check_number_type_and_value(i436, 104)
  f437: "float 1e-05" = m53.eps
  prims.check_number_type_and_value(f437, 1e-05)
  f438: "float 0.1" = m53.momentum
  prims.check_number_type_and_value(f438, 0.1)
  i439: "bool True" = m53.affine
  prims.check_number_type_and_value(i439, True)
  i440: "bool True" = m53.track_running_stats
  prims.check_number_type_and_value(i440, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_a_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_a_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_a_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_a_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f443: "float 1e-05" = m53.eps
  prims.check_number_type_and_value(f443, 1e-05)
  m54: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.a.2')
  i476: "bool True" = m54.inplace
  prims.check_number_type_and_value(i476, True)
  m55: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.b.0')
  i480: "bool True" = m55.training
  prims.check_number_type_and_value(i480, True)
  i481: "int 104" = m55.in_channels
  prims.check_number_type_and_value(i481, 104)
  i482: "int 104" = m55.out_channels
  prims.check_number_type_and_value(i482, 104)
  i483: "bool False" = m55.transposed
  prims.check_number_type_and_value(i483, False)
  i484: "int 13" = m55.groups
  prims.check_number_type_and_value(i484, 13)
  s485: "str" = m55.padding_mode
  prims.check_string_value(s485, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_b_0_weight, (104, 8, 3, 3), 'cuda:0', torch.float32, True)
  s486: "str" = m55.padding_mode
  prims.check_string_value(s486, 'zeros')
  obj56: "Any" = m55.stride
  i487: "int 2" = obj56[0]
  prims.check_number_type_and_value(i487, 2)
  i488: "int 2" = obj56[1]
  prims.check_number_type_and_value(i488, 2)
  obj57: "Any" = m55.padding
  i489: "int 1" = obj57[0]
  prims.check_number_type_and_value(i489, 1)
  i490: "int 1" = obj57[1]
  prims.check_number_type_and_value(i490, 1)
  obj58: "Any" = m55.dilation
  i491: "int 1" = obj58[0]
  prims.check_number_type_and_value(i491, 1)
  i492: "int 1" = obj58[1]
  prims.check_number_type_and_value(i492, 1)
  i493: "int 13" = m55.groups
  prims.check_number_type_and_value(i493, 13)
  m59: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.b.1')
  f495: "float 0.1" = m59.momentum
  prims.check_number_type_and_value(f495, 0.1)
  i496: "bool True" = m59.training
  prims.check_number_type_and_value(i496, True)
  i497: "bool True" = m59.track_running_stats
  prims.check_number_type_and_value(i497, True)
  i498: "bool True" = m59.training
  prims.check_number_type_and_value(i498, True)
  i499: "int 104" = m59.num_features
  prims.check_number_type_and_value(i499, 104)
  f500: "float 1e-05" = m59.eps
  prims.check_number_type_and_value(f500, 1e-05)
  f501: "float 0.1" = m59.momentum
  prims.check_number_type_and_value(f501, 0.1)
  i502: "bool True" = m59.affine
  prims.check_number_type_and_value(i502, True)
  i503: "bool True" = m59.track_running_stats
  prims.check_number_type_and_value(i503, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_b_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_b_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_b_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_b_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f506: "float 1e-05" = m59.eps
  prims.check_number_type_and_value(f506, 1e-05)
  m60: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.b.2')
  i539: "bool True" = m60.inplace
  prims.check_number_type_and_value(i539, True)
  m61: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.se')
  i543: "bool True" = m61.training
  prims.check_number_type_and_value(i543, True)
  m62: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.se.avgpool')
  i544: "int 1" = m62.output_size
  prims.check_number_type_and_value(i544, 1)
  m63: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.se.fc1')
  i546: "bool True" = m63.training
  prims.check_number_type_and_value(i546, True)
  i547: "int 104" = m63.in_channels
  prims.check_number_type_and_value(i547, 104)
  i548: "int 12" = m63.out_channels
  prims.check_number_type_and_value(i548, 12)
  i549: "bool False" = m63.transposed
  prims.check_number_type_and_value(i549, False)
  i550: "int 1" = m63.groups
  prims.check_number_type_and_value(i550, 1)
  s551: "str" = m63.padding_mode
  prims.check_string_value(s551, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_se_fc1_weight, (12, 104, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_se_fc1_bias, (12,), 'cuda:0', torch.float32, True)
  s552: "str" = m63.padding_mode
  prims.check_string_value(s552, 'zeros')
  obj64: "Any" = m63.stride
  i553: "int 1" = obj64[0]
  prims.check_number_type_and_value(i553, 1)
  i554: "int 1" = obj64[1]
  prims.check_number_type_and_value(i554, 1)
  obj65: "Any" = m63.padding
  i555: "int 0" = obj65[0]
  prims.check_number_type_and_value(i555, 0)
  i556: "int 0" = obj65[1]
  prims.check_number_type_and_value(i556, 0)
  obj66: "Any" = m63.dilation
  i557: "int 1" = obj66[0]
  prims.check_number_type_and_value(i557, 1)
  i558: "int 1" = obj66[1]
  prims.check_number_type_and_value(i558, 1)
  i559: "int 1" = m63.groups
  prims.check_number_type_and_value(i559, 1)
  m67: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.se.activation')
  i561: "bool False" = m67.inplace
  prims.check_number_type_and_value(i561, False)
  m68: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.se.fc2')
  i564: "bool True" = m68.training
  prims.check_number_type_and_value(i564, True)
  i565: "int 12" = m68.in_channels
  prims.check_number_type_and_value(i565, 12)
  i566: "int 104" = m68.out_channels
  prims.check_number_type_and_value(i566, 104)
  i567: "bool False" = m68.transposed
  prims.check_number_type_and_value(i567, False)
  i568: "int 1" = m68.groups
  prims.check_number_type_and_value(i568, 1)
  s569: "str" = m68.padding_mode
  prims.check_string_value(s569, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_se_fc2_weight, (104, 12, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_se_fc2_bias, (104,), 'cuda:0', torch.float32, True)
  s570: "str" = m68.padding_mode
  prims.check_string_value(s570, 'zeros')
  obj69: "Any" = m68.stride
  i571: "int 1" = obj69[0]
  prims.check_number_type_and_value(i571, 1)
  i572: "int 1" = obj69[1]
  prims.check_number_type_and_value(i572, 1)
  obj70: "Any" = m68.padding
  i573: "int 0" = obj70[0]
  prims.check_number_type_and_value(i573, 0)
  i574: "int 0" = obj70[1]
  prims.check_number_type_and_value(i574, 0)
  obj71: "Any" = m68.dilation
  i575: "int 1" = obj71[0]
  prims.check_number_type_and_value(i575, 1)
  i576: "int 1" = obj71[1]
  prims.check_number_type_and_value(i576, 1)
  i577: "int 1" = m68.groups
  prims.check_number_type_and_value(i577, 1)
  m72: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.c.0')
  i585: "bool True" = m72.training
  prims.check_number_type_and_value(i585, True)
  i586: "int 104" = m72.in_channels
  prims.check_number_type_and_value(i586, 104)
  i587: "int 104" = m72.out_channels
  prims.check_number_type_and_value(i587, 104)
  i588: "bool False" = m72.transposed
  prims.check_number_type_and_value(i588, False)
  i589: "int 1" = m72.groups
  prims.check_number_type_and_value(i589, 1)
  s590: "str" = m72.padding_mode
  prims.check_string_value(s590, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_c_0_weight, (104, 104, 1, 1), 'cuda:0', torch.float32, True)
  s591: "str" = m72.padding_mode
  prims.check_string_value(s591, 'zeros')
  obj73: "Any" = m72.stride
  i592: "int 1" = obj73[0]
  prims.check_number_type_and_value(i592, 1)
  i593: "int 1" = obj73[1]
  prims.check_number_type_and_value(i593, 1)
  obj74: "Any" = m72.padding
  i594: "int 0" = obj74[0]
  prims.check_number_type_and_value(i594, 0)
  i595: "int 0" = obj74[1]
  prims.check_number_type_and_value(i595, 0)
  obj75: "Any" = m72.dilation
  i596: "int 1" = obj75[0]
  prims.check_number_type_and_value(i596, 1)
  i597: "int 1" = obj75[1]
  prims.check_number_type_and_value(i597, 1)
  i598: "int 1" = m72.groups
  prims.check_number_type_and_value(i598, 1)
  m76: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.f.c.1')
  f600: "float 0.1" = m76.momentum
  prims.check_number_type_and_value(f600, 0.1)
  i601: "bool True" = m76.training
  prims.check_number_type_and_value(i601, True)
  i602: "bool True" = m76.track_running_stats
  prims.check_number_type_and_value(i602, True)
  i603: "bool True" = m76.training
  prims.check_number_type_and_value(i603, True)
  i604: "int 104" = m76.num_features
  prims.check_number_type_and_value(i604, 104)
  f605: "float 1e-05" = m76.eps
  prims.check_number_type_and_value(f605, 1e-05)
  f606: "float 0.1" = m76.momentum
  prims.check_number_type_and_value(f606, 0.1)
  i607: "bool True" = m76.affine
  prims.check_number_type_and_value(i607, True)
  i608: "bool True" = m76.track_running_stats
  prims.check_number_type_and_value(i608, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_c_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_c_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_c_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_c_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-0_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f611: "float 1e-05" = m76.eps
  prims.check_number_type_and_value(f611, 1e-05)
  m77: "Any" = module.get_submodule('model.trunk_output.block2.block2-0.activation')
  i645: "bool True" = m77.inplace
  prims.check_number_type_and_value(i645, True)
  m78: "Any" = module.get_submodule('model.trunk_output.block2.block2-1')
  i649: "bool True" = m78.training
  prims.check_number_type_and_value(i649, True)
  m79: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.a.0')
  i650: "bool True" = m79.training
  prims.check_number_type_and_value(i650, True)
  i651: "int 104" = m79.in_channels
  prims.check_number_type_and_value(i651, 104)
  i652: "int 104" = m79.out_channels
  prims.check_number_type_and_value(i652, 104)
  i653: "bool False" = m79.transposed
  prims.check_number_type_and_value(i653, False)
  i654: "int 1" = m79.groups
  prims.check_number_type_and_value(i654, 1)
  s655: "str" = m79.padding_mode
  prims.check_string_value(s655, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_a_0_weight, (104, 104, 1, 1), 'cuda:0', torch.float32, True)
  s656: "str" = m79.padding_mode
  prims.check_string_value(s656, 'zeros')
  obj80: "Any" = m79.stride
  i657: "int 1" = obj80[0]
  prims.check_number_type_and_value(i657, 1)
  i658: "int 1" = obj80[1]
  prims.check_number_type_and_value(i658, 1)
  obj81: "Any" = m79.padding
  i659: "int 0" = obj81[0]
  prims.check_number_type_and_value(i659, 0)
  i660: "int 0" = obj81[1]
  prims.check_number_type_and_value(i660, 0)
  obj82: "Any" = m79.dilation
  i661: "int 1" = obj82[0]
  prims.check_number_type_and_value(i661, 1)
  i662: "int 1" = obj82[1]
  prims.check_number_type_and_value(i662, 1)
  i663: "int 1" = m79.groups
  prims.check_number_type_and_value(i663, 1)
  m83: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.a.1')
  f665: "float 0.1" = m83.momentum
  prims.check_number_type_and_value(f665, 0.1)
  i666: "bool True" = m83.training
  prims.check_number_type_and_value(i666, True)
  i667: "bool True" = m83.track_running_stats
  prims.check_number_type_and_value(i667, True)
  i668: "bool True" = m83.training
  prims.check_number_type_and_value(i668, True)
  i669: "int 104" = m83.num_features
  prims.check_number_type_and_value(i669, 104)
  f670: "float 1e-05" = m83.eps
  prims.check_number_type_and_value(f670, 1e-05)
  f671: "float 0.1" = m83.momentum
  prims.check_number_type_and_value(f671, 0.1)
  i672: "bool True" = m83.affine
  prims.check_number_type_and_value(i672, True)
  i673: "bool True" = m83.track_running_stats
  prims.check_number_type_and_value(i673, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_a_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_a_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_a_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_a_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f676: "float 1e-05" = m83.eps
  prims.check_number_type_and_value(f676, 1e-05)
  m84: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.a.2')
  i709: "bool True" = m84.inplace
  prims.check_number_type_and_value(i709, True)
  m85: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.b.0')
  i713: "bool True" = m85.training
  prims.check_number_type_and_value(i713, True)
  i714: "int 104" = m85.in_channels
  prims.check_number_type_and_value(i714, 104)
  i715: "int 104" = m85.out_channels
  prims.check_number_type_and_value(i715, 104)
  i716: "bool False" = m85.transposed
  prims.check_number_type_and_value(i716, False)
  i717: "int 13" = m85.groups
  prims.check_number_type_and_value(i717, 13)
  s718: "str" = m85.padding_mode
  prims.check_string_value(s718, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_b_0_weight, (104, 8, 3, 3), 'cuda:0', torch.float32, True)
  s719: "str" = m85.padding_mode
  prims.check_string_value(s719, 'zeros')
  obj86: "Any" = m85.stride
  i720: "int 1" = obj86[0]
  prims.check_number_type_and_value(i720, 1)
  i721: "int 1" = obj86[1]
  prims.check_number_type_and_value(i721, 1)
  obj87: "Any" = m85.padding
  i722: "int 1" = obj87[0]
  prims.check_number_type_and_value(i722, 1)
  i723: "int 1" = obj87[1]
  prims.check_number_type_and_value(i723, 1)
  obj88: "Any" = m85.dilation
  i724: "int 1" = obj88[0]
  prims.check_number_type_and_value(i724, 1)
  i725: "int 1" = obj88[1]
  prims.check_number_type_and_value(i725, 1)
  i726: "int 13" = m85.groups
  prims.check_number_type_and_value(i726, 13)
  m89: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.b.1')
  f728: "float 0.1" = m89.momentum
  prims.check_number_type_and_value(f728, 0.1)
  i729: "bool True" = m89.training
  prims.check_number_type_and_value(i729, True)
  i730: "bool True" = m89.track_running_stats
  prims.check_number_type_and_value(i730, True)
  i731: "bool True" = m89.training
  prims.check_number_type_and_value(i731, True)
  i732: "int 104" = m89.num_features
  prims.check_number_type_and_value(i732, 104)
  f733: "float 1e-05" = m89.eps
  prims.check_number_type_and_value(f733, 1e-05)
  f734: "float 0.1" = m89.momentum
  prims.check_number_type_and_value(f734, 0.1)
  i735: "bool True" = m89.affine
  prims.check_number_type_and_value(i735, True)
  i736: "bool True" = m89.track_running_stats
  prims.check_number_type_and_value(i736, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_b_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_b_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_b_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_b_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f739: "float 1e-05" = m89.eps
  prims.check_number_type_and_value(f739, 1e-05)
  m90: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.b.2')
  i772: "bool True" = m90.inplace
  prims.check_number_type_and_value(i772, True)
  m91: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.se')
  i776: "bool True" = m91.training
  prims.check_number_type_and_value(i776, True)
  m92: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.se.avgpool')
  i777: "int 1" = m92.output_size
  prims.check_number_type_and_value(i777, 1)
  m93: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.se.fc1')
  i779: "bool True" = m93.training
  prims.check_number_type_and_value(i779, True)
  i780: "int 104" = m93.in_channels
  prims.check_number_type_and_value(i780, 104)
  i781: "int 26" = m93.out_channels
  prims.check_number_type_and_value(i781, 26)
  i782: "bool False" = m93.transposed
  prims.check_number_type_and_value(i782, False)
  i783: "int 1" = m93.groups
  prims.check_number_type_and_value(i783, 1)
  s784: "str" = m93.padding_mode
  prims.check_string_value(s784, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_se_fc1_weight, (26, 104, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_se_fc1_bias, (26,), 'cuda:0', torch.float32, True)
  s785: "str" = m93.padding_mode
  prims.check_string_value(s785, 'zeros')
  obj94: "Any" = m93.stride
  i786: "int 1" = obj94[0]
  prims.check_number_type_and_value(i786, 1)
  i787: "int 1" = obj94[1]
  prims.check_number_type_and_value(i787, 1)
  obj95: "Any" = m93.padding
  i788: "int 0" = obj95[0]
  prims.check_number_type_and_value(i788, 0)
  i789: "int 0" = obj95[1]
  prims.check_number_type_and_value(i789, 0)
  obj96: "Any" = m93.dilation
  i790: "int 1" = obj96[0]
  prims.check_number_type_and_value(i790, 1)
  i791: "int 1" = obj96[1]
  prims.check_number_type_and_value(i791, 1)
  i792: "int 1" = m93.groups
  prims.check_number_type_and_value(i792, 1)
  m97: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.se.activation')
  i794: "bool False" = m97.inplace
  prims.check_number_type_and_value(i794, False)
  m98: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.se.fc2')
  i797: "bool True" = m98.training
  prims.check_number_type_and_value(i797, True)
  i798: "int 26" = m98.in_channels
  prims.check_number_type_and_value(i798, 26)
  i799: "int 104" = m98.out_channels
  prims.check_number_type_and_value(i799, 104)
  i800: "bool False" = m98.transposed
  prims.check_number_type_and_value(i800, False)
  i801: "int 1" = m98.groups
  prims.check_number_type_and_value(i801, 1)
  s802: "str" = m98.padding_mode
  prims.check_string_value(s802, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_se_fc2_weight, (104, 26, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_se_fc2_bias, (104,), 'cuda:0', torch.float32, True)
  s803: "str" = m98.padding_mode
  prims.check_string_value(s803, 'zeros')
  obj99: "Any" = m98.stride
  i804: "int 1" = obj99[0]
  prims.check_number_type_and_value(i804, 1)
  i805: "int 1" = obj99[1]
  prims.check_number_type_and_value(i805, 1)
  obj100: "Any" = m98.padding
  i806: "int 0" = obj100[0]
  prims.check_number_type_and_value(i806, 0)
  i807: "int 0" = obj100[1]
  prims.check_number_type_and_value(i807, 0)
  obj101: "Any" = m98.dilation
  i808: "int 1" = obj101[0]
  prims.check_number_type_and_value(i808, 1)
  i809: "int 1" = obj101[1]
  prims.check_number_type_and_value(i809, 1)
  i810: "int 1" = m98.groups
  prims.check_number_type_and_value(i810, 1)
  m102: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.c.0')
  i818: "bool True" = m102.training
  prims.check_number_type_and_value(i818, True)
  i819: "int 104" = m102.in_channels
  prims.check_number_type_and_value(i819, 104)
  i820: "int 104" = m102.out_channels
  prims.check_number_type_and_value(i820, 104)
  i821: "bool False" = m102.transposed
  prims.check_number_type_and_value(i821, False)
  i822: "int 1" = m102.groups
  prims.check_number_type_and_value(i822, 1)
  s823: "str" = m102.padding_mode
  prims.check_string_value(s823, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_c_0_weight, (104, 104, 1, 1), 'cuda:0', torch.float32, True)
  s824: "str" = m102.padding_mode
  prims.check_string_value(s824, 'zeros')
  obj103: "Any" = m102.stride
  i825: "int 1" = obj103[0]
  prims.check_number_type_and_value(i825, 1)
  i826: "int 1" = obj103[1]
  prims.check_number_type_and_value(i826, 1)
  obj104: "Any" = m102.padding
  i827: "int 0" = obj104[0]
  prims.check_number_type_and_value(i827, 0)
  i828: "int 0" = obj104[1]
  prims.check_number_type_and_value(i828, 0)
  obj105: "Any" = m102.dilation
  i829: "int 1" = obj105[0]
  prims.check_number_type_and_value(i829, 1)
  i830: "int 1" = obj105[1]
  prims.check_number_type_and_value(i830, 1)
  i831: "int 1" = m102.groups
  prims.check_number_type_and_value(i831, 1)
  m106: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.f.c.1')
  f833: "float 0.1" = m106.momentum
  prims.check_number_type_and_value(f833, 0.1)
  i834: "bool True" = m106.training
  prims.check_number_type_and_value(i834, True)
  i835: "bool True" = m106.track_running_stats
  prims.check_number_type_and_value(i835, True)
  i836: "bool True" = m106.training
  prims.check_number_type_and_value(i836, True)
  i837: "int 104" = m106.num_features
  prims.check_number_type_and_value(i837, 104)
  f838: "float 1e-05" = m106.eps
  prims.check_number_type_and_value(f838, 1e-05)
  f839: "float 0.1" = m106.momentum
  prims.check_number_type_and_value(f839, 0.1)
  i840: "bool True" = m106.affine
  prims.check_number_type_and_value(i840, True)
  i841: "bool True" = m106.track_running_stats
  prims.check_number_type_and_value(i841, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_c_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_c_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_c_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_c_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-1_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f844: "float 1e-05" = m106.eps
  prims.check_number_type_and_value(f844, 1e-05)
  m107: "Any" = module.get_submodule('model.trunk_output.block2.block2-1.activation')
  i878: "bool True" = m107.inplace
  prims.check_number_type_and_value(i878, True)
  m108: "Any" = module.get_submodule('model.trunk_output.block2.block2-2')
  i882: "bool True" = m108.training
  prims.check_number_type_and_value(i882, True)
  m109: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.a.0')
  i883: "bool True" = m109.training
  prims.check_number_type_and_value(i883, True)
  i884: "int 104" = m109.in_channels
  prims.check_number_type_and_value(i884, 104)
  i885: "int 104" = m109.out_channels
  prims.check_number_type_and_value(i885, 104)
  i886: "bool False" = m109.transposed
  prims.check_number_type_and_value(i886, False)
  i887: "int 1" = m109.groups
  prims.check_number_type_and_value(i887, 1)
  s888: "str" = m109.padding_mode
  prims.check_string_value(s888, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_a_0_weight, (104, 104, 1, 1), 'cuda:0', torch.float32, True)
  s889: "str" = m109.padding_mode
  prims.check_string_value(s889, 'zeros')
  obj110: "Any" = m109.stride
  i890: "int 1" = obj110[0]
  prims.check_number_type_and_value(i890, 1)
  i891: "int 1" = obj110[1]
  prims.check_number_type_and_value(i891, 1)
  obj111: "Any" = m109.padding
  i892: "int 0" = obj111[0]
  prims.check_number_type_and_value(i892, 0)
  i893: "int 0" = obj111[1]
  prims.check_number_type_and_value(i893, 0)
  obj112: "Any" = m109.dilation
  i894: "int 1" = obj112[0]
  prims.check_number_type_and_value(i894, 1)
  i895: "int 1" = obj112[1]
  prims.check_number_type_and_value(i895, 1)
  i896: "int 1" = m109.groups
  prims.check_number_type_and_value(i896, 1)
  m113: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.a.1')
  f898: "float 0.1" = m113.momentum
  prims.check_number_type_and_value(f898, 0.1)
  i899: "bool True" = m113.training
  prims.check_number_type_and_value(i899, True)
  i900: "bool True" = m113.track_running_stats
  prims.check_number_type_and_value(i900, True)
  i901: "bool True" = m113.training
  prims.check_number_type_and_value(i901, True)
  i902: "int 104" = m113.num_features
  prims.check_number_type_and_value(i902, 104)
  f903: "float 1e-05" = m113.eps
  prims.check_number_type_and_value(f903, 1e-05)
  f904: "float 0.1" = m113.momentum
  prims.check_number_type_and_value(f904, 0.1)
  i905: "bool True" = m113.affine
  prims.check_number_type_and_value(i905, True)
  i906: "bool True" = m113.track_running_stats
  prims.check_number_type_and_value(i906, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_a_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_a_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_a_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_a_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f909: "float 1e-05" = m113.eps
  prims.check_number_type_and_value(f909, 1e-05)
  m114: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.a.2')
  i942: "bool True" = m114.inplace
  prims.check_number_type_and_value(i942, True)
  m115: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.b.0')
  i946: "bool True" = m115.training
  prims.check_number_type_and_value(i946, True)
  i947: "int 104" = m115.in_channels
  prims.check_number_type_and_value(i947, 104)
  i948: "int 104" = m115.out_channels
  prims.check_number_type_and_value(i948, 104)
  i949: "bool False" = m115.transposed
  prims.check_number_type_and_value(i949, False)
  i950: "int 13" = m115.groups
  prims.check_number_type_and_value(i950, 13)
  s951: "str" = m115.padding_mode
  prims.check_string_value(s951, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_b_0_weight, (104, 8, 3, 3), 'cuda:0', torch.float32, True)
  s952: "str" = m115.padding_mode
  prims.check_string_value(s952, 'zeros')
  obj116: "Any" = m115.stride
  i953: "int 1" = obj116[0]
  prims.check_number_type_and_value(i953, 1)
  i954: "int 1" = obj116[1]
  prims.check_number_type_and_value(i954, 1)
  obj117: "Any" = m115.padding
  i955: "int 1" = obj117[0]
  prims.check_number_type_and_value(i955, 1)
  i956: "int 1" = obj117[1]
  prims.check_number_type_and_value(i956, 1)
  obj118: "Any" = m115.dilation
  i957: "int 1" = obj118[0]
  prims.check_number_type_and_value(i957, 1)
  i958: "int 1" = obj118[1]
  prims.check_number_type_and_value(i958, 1)
  i959: "int 13" = m115.groups
  prims.check_number_type_and_value(i959, 13)
  m119: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.b.1')
  f961: "float 0.1" = m119.momentum
  prims.check_number_type_and_value(f961, 0.1)
  i962: "bool True" = m119.training
  prims.check_number_type_and_value(i962, True)
  i963: "bool True" = m119.track_running_stats
  prims.check_number_type_and_value(i963, True)
  i964: "bool True" = m119.training
  prims.check_number_type_and_value(i964, True)
  i965: "int 104" = m119.num_features
  prims.check_number_type_and_value(i965, 104)
  f966: "float 1e-05" = m119.eps
  prims.check_number_type_and_value(f966, 1e-05)
  f967: "float 0.1" = m119.momentum
  prims.check_number_type_and_value(f967, 0.1)
  i968: "bool True" = m119.affine
  prims.check_number_type_and_value(i968, True)
  i969: "bool True" = m119.track_running_stats
  prims.check_number_type_and_value(i969, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_b_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_b_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_b_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_b_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f972: "float 1e-05" = m119.eps
  prims.check_number_type_and_value(f972, 1e-05)
  m120: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.b.2')
  i1005: "bool True" = m120.inplace
  prims.check_number_type_and_value(i1005, True)
  m121: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.se')
  i1009: "bool True" = m121.training
  prims.check_number_type_and_value(i1009, True)
  m122: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.se.avgpool')
  i1010: "int 1" = m122.output_size
  prims.check_number_type_and_value(i1010, 1)
  m123: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.se.fc1')
  i1012: "bool True" = m123.training
  prims.check_number_type_and_value(i1012, True)
  i1013: "int 104" = m123.in_channels
  prims.check_number_type_and_value(i1013, 104)
  i1014: "int 26" = m123.out_channels
  prims.check_number_type_and_value(i1014, 26)
  i1015: "bool False" = m123.transposed
  prims.check_number_type_and_value(i1015, False)
  i1016: "int 1" = m123.groups
  prims.check_number_type_and_value(i1016, 1)
  s1017: "str" = m123.padding_mode
  prims.check_string_value(s1017, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_se_fc1_weight, (26, 104, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_se_fc1_bias, (26,), 'cuda:0', torch.float32, True)
  s1018: "str" = m123.padding_mode
  prims.check_string_value(s1018, 'zeros')
  obj124: "Any" = m123.stride
  i1019: "int 1" = obj124[0]
  prims.check_number_type_and_value(i1019, 1)
  i1020: "int 1" = obj124[1]
  prims.check_number_type_and_value(i1020, 1)
  obj125: "Any" = m123.padding
  i1021: "int 0" = obj125[0]
  prims.check_number_type_and_value(i1021, 0)
  i1022: "int 0" = obj125[1]
  prims.check_number_type_and_value(i1022, 0)
  obj126: "Any" = m123.dilation
  i1023: "int 1" = obj126[0]
  prims.check_number_type_and_value(i1023, 1)
  i1024: "int 1" = obj126[1]
  prims.check_number_type_and_value(i1024, 1)
  i1025: "int 1" = m123.groups
  prims.check_number_type_and_value(i1025, 1)
  m127: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.se.activation')
  i1027: "bool False" = m127.inplace
  prims.check_number_type_and_value(i1027, False)
  m128: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.se.fc2')
  i1030: "bool True" = m128.training
  prims.check_number_type_and_value(i1030, True)
  i1031: "int 26" = m128.in_channels
  prims.check_number_type_and_value(i1031, 26)
  i1032: "int 104" = m128.out_channels
  prims.check_number_type_and_value(i1032, 104)
  i1033: "bool False" = m128.transposed
  prims.check_number_type_and_value(i1033, False)
  i1034: "int 1" = m128.groups
  prims.check_number_type_and_value(i1034, 1)
  s1035: "str" = m128.padding_mode
  prims.check_string_value(s1035, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_se_fc2_weight, (104, 26, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_se_fc2_bias, (104,), 'cuda:0', torch.float32, True)
  s1036: "str" = m128.padding_mode
  prims.check_string_value(s1036, 'zeros')
  obj129: "Any" = m128.stride
  i1037: "int 1" = obj129[0]
  prims.check_number_type_and_value(i1037, 1)
  i1038: "int 1" = obj129[1]
  prims.check_number_type_and_value(i1038, 1)
  obj130: "Any" = m128.padding
  i1039: "int 0" = obj130[0]
  prims.check_number_type_and_value(i1039, 0)
  i1040: "int 0" = obj130[1]
  prims.check_number_type_and_value(i1040, 0)
  obj131: "Any" = m128.dilation
  i1041: "int 1" = obj131[0]
  prims.check_number_type_and_value(i1041, 1)
  i1042: "int 1" = obj131[1]
  prims.check_number_type_and_value(i1042, 1)
  i1043: "int 1" = m128.groups
  prims.check_number_type_and_value(i1043, 1)
  m132: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.c.0')
  i1051: "bool True" = m132.training
  prims.check_number_type_and_value(i1051, True)
  i1052: "int 104" = m132.in_channels
  prims.check_number_type_and_value(i1052, 104)
  i1053: "int 104" = m132.out_channels
  prims.check_number_type_and_value(i1053, 104)
  i1054: "bool False" = m132.transposed
  prims.check_number_type_and_value(i1054, False)
  i1055: "int 1" = m132.groups
  prims.check_number_type_and_value(i1055, 1)
  s1056: "str" = m132.padding_mode
  prims.check_string_value(s1056, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_c_0_weight, (104, 104, 1, 1), 'cuda:0', torch.float32, True)
  s1057: "str" = m132.padding_mode
  prims.check_string_value(s1057, 'zeros')
  obj133: "Any" = m132.stride
  i1058: "int 1" = obj133[0]
  prims.check_number_type_and_value(i1058, 1)
  i1059: "int 1" = obj133[1]
  prims.check_number_type_and_value(i1059, 1)
  obj134: "Any" = m132.padding
  i1060: "int 0" = obj134[0]
  prims.check_number_type_and_value(i1060, 0)
  i1061: "int 0" = obj134[1]
  prims.check_number_type_and_value(i1061, 0)
  obj135: "Any" = m132.dilation
  i1062: "int 1" = obj135[0]
  prims.check_number_type_and_value(i1062, 1)
  i1063: "int 1" = obj135[1]
  prims.check_number_type_and_value(i1063, 1)
  i1064: "int 1" = m132.groups
  prims.check_number_type_and_value(i1064, 1)
  m136: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.f.c.1')
  f1066: "float 0.1" = m136.momentum
  prims.check_number_type_and_value(f1066, 0.1)
  i1067: "bool True" = m136.training
  prims.check_number_type_and_value(i1067, True)
  i1068: "bool True" = m136.track_running_stats
  prims.check_number_type_and_value(i1068, True)
  i1069: "bool True" = m136.training
  prims.check_number_type_and_value(i1069, True)
  i1070: "int 104" = m136.num_features
  prims.check_number_type_and_value(i1070, 104)
  f1071: "float 1e-05" = m136.eps
  prims.check_number_type_and_value(f1071, 1e-05)
  f1072: "float 0.1" = m136.momentum
  prims.check_number_type_and_value(f1072, 0.1)
  i1073: "bool True" = m136.affine
  prims.check_number_type_and_value(i1073, True)
  i1074: "bool True" = m136.track_running_stats
  prims.check_number_type_and_value(i1074, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_c_1_weight, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_c_1_bias, (104,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_c_1_running_mean, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_c_1_running_var, (104,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block2_block2-2_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1077: "float 1e-05" = m136.eps
  prims.check_number_type_and_value(f1077, 1e-05)
  m137: "Any" = module.get_submodule('model.trunk_output.block2.block2-2.activation')
  i1111: "bool True" = m137.inplace
  prims.check_number_type_and_value(i1111, True)
  m138: "Any" = module.get_submodule('model.trunk_output.block3.block3-0')
  i1115: "bool True" = m138.training
  prims.check_number_type_and_value(i1115, True)
  m139: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.proj.0')
  i1116: "bool True" = m139.training
  prims.check_number_type_and_value(i1116, True)
  i1117: "int 104" = m139.in_channels
  prims.check_number_type_and_value(i1117, 104)
  i1118: "int 208" = m139.out_channels
  prims.check_number_type_and_value(i1118, 208)
  i1119: "bool False" = m139.transposed
  prims.check_number_type_and_value(i1119, False)
  i1120: "int 1" = m139.groups
  prims.check_number_type_and_value(i1120, 1)
  s1121: "str" = m139.padding_mode
  prims.check_string_value(s1121, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_proj_0_weight, (208, 104, 1, 1), 'cuda:0', torch.float32, True)
  s1122: "str" = m139.padding_mode
  prims.check_string_value(s1122, 'zeros')
  obj140: "Any" = m139.stride
  i1123: "int 2" = obj140[0]
  prims.check_number_type_and_value(i1123, 2)
  i1124: "int 2" = obj140[1]
  prims.check_number_type_and_value(i1124, 2)
  obj141: "Any" = m139.padding
  i1125: "int 0" = obj141[0]
  prims.check_number_type_and_value(i1125, 0)
  i1126: "int 0" = obj141[1]
  prims.check_number_type_and_value(i1126, 0)
  obj142: "Any" = m139.dilation
  i1127: "int 1" = obj142[0]
  prims.check_number_type_and_value(i1127, 1)
  i1128: "int 1" = obj142[1]
  prims.check_number_type_and_value(i1128, 1)
  i1129: "int 1" = m139.groups
  prims.check_number_type_and_value(i1129, 1)
  m143: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.proj.1')
  f1131: "float 0.1" = m143.momentum
  prims.check_number_type_and_value(f1131, 0.1)
  i1132: "bool True" = m143.training
  prims.check_number_type_and_value(i1132, True)
  i1133: "bool True" = m143.track_running_stats
  prims.check_number_type_and_value(i1133, True)
  i1134: "bool True" = m143.training
  prims.check_number_type_and_value(i1134, True)
  i1135: "int 208" = m143.num_features
  prims.check_number_type_and_value(i1135, 208)
  f1136: "float 1e-05" = m143.eps
  prims.check_number_type_and_value(f1136, 1e-05)
  f1137: "float 0.1" = m143.momentum
  prims.check_number_type_and_value(f1137, 0.1)
  i1138: "bool True" = m143.affine
  prims.check_number_type_and_value(i1138, True)
  i1139: "bool True" = m143.track_running_stats
  prims.check_number_type_and_value(i1139, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_proj_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_proj_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_proj_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_proj_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_proj_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1142: "float 1e-05" = m143.eps
  prims.check_number_type_and_value(f1142, 1e-05)
  m144: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.a.0')
  i1175: "bool True" = m144.training
  prims.check_number_type_and_value(i1175, True)
  i1176: "int 104" = m144.in_channels
  prims.check_number_type_and_value(i1176, 104)
  i1177: "int 208" = m144.out_channels
  prims.check_number_type_and_value(i1177, 208)
  i1178: "bool False" = m144.transposed
  prims.check_number_type_and_value(i1178, False)
  i1179: "int 1" = m144.groups
  prims.check_number_type_and_value(i1179, 1)
  s1180: "str" = m144.padding_mode
  prims.check_string_value(s1180, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_a_0_weight, (208, 104, 1, 1), 'cuda:0', torch.float32, True)
  s1181: "str" = m144.padding_mode
  prims.check_string_value(s1181, 'zeros')
  obj145: "Any" = m144.stride
  i1182: "int 1" = obj145[0]
  prims.check_number_type_and_value(i1182, 1)
  i1183: "int 1" = obj145[1]
  prims.check_number_type_and_value(i1183, 1)
  obj146: "Any" = m144.padding
  i1184: "int 0" = obj146[0]
  prims.check_number_type_and_value(i1184, 0)
  i1185: "int 0" = obj146[1]
  prims.check_number_type_and_value(i1185, 0)
  obj147: "Any" = m144.dilation
  i1186: "int 1" = obj147[0]
  prims.check_number_type_and_value(i1186, 1)
  i1187: "int 1" = obj147[1]
  prims.check_number_type_and_value(i1187, 1)
  i1188: "int 1" = m144.groups
  prims.check_number_type_and_value(i1188, 1)
  m148: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.a.1')
  f1190: "float 0.1" = m148.momentum
  prims.check_number_type_and_value(f1190, 0.1)
  i1191: "bool True" = m148.training
  prims.check_number_type_and_value(i1191, True)
  i1192: "bool True" = m148.track_running_stats
  prims.check_number_type_and_value(i1192, True)
  i1193: "bool True" = m148.training
  prims.check_number_type_and_value(i1193, True)
  i1194: "int 208" = m148.num_features
  prims.check_number_type_and_value(i1194, 208)
  f1195: "float 1e-05" = m148.eps
  prims.check_number_type_and_value(f1195, 1e-05)
  f1196: "float 0.1" = m148.momentum
  prims.check_number_type_and_value(f1196, 0.1)
  i1197: "bool True" = m148.affine
  prims.check_number_type_and_value(i1197, True)
  i1198: "bool True" = m148.track_running_stats
  prims.check_number_type_and_value(i1198, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_a_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_a_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_a_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_a_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1201: "float 1e-05" = m148.eps
  prims.check_number_type_and_value(f1201, 1e-05)
  m149: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.a.2')
  i1234: "bool True" = m149.inplace
  prims.check_number_type_and_value(i1234, True)
  m150: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.b.0')
  i1238: "bool True" = m150.training
  prims.check_number_type_and_value(i1238, True)
  i1239: "int 208" = m150.in_channels
  prims.check_number_type_and_value(i1239, 208)
  i1240: "int 208" = m150.out_channels
  prims.check_number_type_and_value(i1240, 208)
  i1241: "bool False" = m150.transposed
  prims.check_number_type_and_value(i1241, False)
  i1242: "int 26" = m150.groups
  prims.check_number_type_and_value(i1242, 26)
  s1243: "str" = m150.padding_mode
  prims.check_string_value(s1243, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_b_0_weight, (208, 8, 3, 3), 'cuda:0', torch.float32, True)
  s1244: "str" = m150.padding_mode
  prims.check_string_value(s1244, 'zeros')
  obj151: "Any" = m150.stride
  i1245: "int 2" = obj151[0]
  prims.check_number_type_and_value(i1245, 2)
  i1246: "int 2" = obj151[1]
  prims.check_number_type_and_value(i1246, 2)
  obj152: "Any" = m150.padding
  i1247: "int 1" = obj152[0]
  prims.check_number_type_and_value(i1247, 1)
  i1248: "int 1" = obj152[1]
  prims.check_number_type_and_value(i1248, 1)
  obj153: "Any" = m150.dilation
  i1249: "int 1" = obj153[0]
  prims.check_number_type_and_value(i1249, 1)
  i1250: "int 1" = obj153[1]
  prims.check_number_type_and_value(i1250, 1)
  i1251: "int 26" = m150.groups
  prims.check_number_type_and_value(i1251, 26)
  m154: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.b.1')
  f1253: "float 0.1" = m154.momentum
  prims.check_number_type_and_value(f1253, 0.1)
  i1254: "bool True" = m154.training
  prims.check_number_type_and_value(i1254, True)
  i1255: "bool True" = m154.track_running_stats
  prims.check_number_type_and_value(i1255, True)
  i1256: "bool True" = m154.training
  prims.check_number_type_and_value(i1256, True)
  i1257: "int 208" = m154.num_features
  prims.check_number_type_and_value(i1257, 208)
  f1258: "float 1e-05" = m154.eps
  prims.check_number_type_and_value(f1258, 1e-05)
  f1259: "float 0.1" = m154.momentum
  prims.check_number_type_and_value(f1259, 0.1)
  i1260: "bool True" = m154.affine
  prims.check_number_type_and_value(i1260, True)
  i1261: "bool True" = m154.track_running_stats
  prims.check_number_type_and_value(i1261, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_b_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_b_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_b_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_b_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1264: "float 1e-05" = m154.eps
  prims.check_number_type_and_value(f1264, 1e-05)
  m155: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.b.2')
  i1297: "bool True" = m155.inplace
  prims.check_number_type_and_value(i1297, True)
  m156: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.se')
  i1301: "bool True" = m156.training
  prims.check_number_type_and_value(i1301, True)
  m157: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.se.avgpool')
  i1302: "int 1" = m157.output_size
  prims.check_number_type_and_value(i1302, 1)
  m158: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.se.fc1')
  i1304: "bool True" = m158.training
  prims.check_number_type_and_value(i1304, True)
  i1305: "int 208" = m158.in_channels
  prims.check_number_type_and_value(i1305, 208)
  i1306: "int 26" = m158.out_channels
  prims.check_number_type_and_value(i1306, 26)
  i1307: "bool False" = m158.transposed
  prims.check_number_type_and_value(i1307, False)
  i1308: "int 1" = m158.groups
  prims.check_number_type_and_value(i1308, 1)
  s1309: "str" = m158.padding_mode
  prims.check_string_value(s1309, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_se_fc1_weight, (26, 208, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_se_fc1_bias, (26,), 'cuda:0', torch.float32, True)
  s1310: "str" = m158.padding_mode
  prims.check_string_value(s1310, 'zeros')
  obj159: "Any" = m158.stride
  i1311: "int 1" = obj159[0]
  prims.check_number_type_and_value(i1311, 1)
  i1312: "int 1" = obj159[1]
  prims.check_number_type_and_value(i1312, 1)
  obj160: "Any" = m158.padding
  i1313: "int 0" = obj160[0]
  prims.check_number_type_and_value(i1313, 0)
  i1314: "int 0" = obj160[1]
  prims.check_number_type_and_value(i1314, 0)
  obj161: "Any" = m158.dilation
  i1315: "int 1" = obj161[0]
  prims.check_number_type_and_value(i1315, 1)
  i1316: "int 1" = obj161[1]
  prims.check_number_type_and_value(i1316, 1)
  i1317: "int 1" = m158.groups
  prims.check_number_type_and_value(i1317, 1)
  m162: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.se.activation')
  i1319: "bool False" = m162.inplace
  prims.check_number_type_and_value(i1319, False)
  m163: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.se.fc2')
  i1322: "bool True" = m163.training
  prims.check_number_type_and_value(i1322, True)
  i1323: "int 26" = m163.in_channels
  prims.check_number_type_and_value(i1323, 26)
  i1324: "int 208" = m163.out_channels
  prims.check_number_type_and_value(i1324, 208)
  i1325: "bool False" = m163.transposed
  prims.check_number_type_and_value(i1325, False)
  i1326: "int 1" = m163.groups
  prims.check_number_type_and_value(i1326, 1)
  s1327: "str" = m163.padding_mode
  prims.check_string_value(s1327, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_se_fc2_weight, (208, 26, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_se_fc2_bias, (208,), 'cuda:0', torch.float32, True)
  s1328: "str" = m163.padding_mode
  prims.check_string_value(s1328, 'zeros')
  obj164: "Any" = m163.stride
  i1329: "int 1" = obj164[0]
  prims.check_number_type_and_value(i1329, 1)
  i1330: "int 1" = obj164[1]
  prims.check_number_type_and_value(i1330, 1)
  obj165: "Any" = m163.padding
  i1331: "int 0" = obj165[0]
  prims.check_number_type_and_value(i1331, 0)
  i1332: "int 0" = obj165[1]
  prims.check_number_type_and_value(i1332, 0)
  obj166: "Any" = m163.dilation
  i1333: "int 1" = obj166[0]
  prims.check_number_type_and_value(i1333, 1)
  i1334: "int 1" = obj166[1]
  prims.check_number_type_and_value(i1334, 1)
  i1335: "int 1" = m163.groups
  prims.check_number_type_and_value(i1335, 1)
  m167: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.c.0')
  i1343: "bool True" = m167.training
  prims.check_number_type_and_value(i1343, True)
  i1344: "int 208" = m167.in_channels
  prims.check_number_type_and_value(i1344, 208)
  i1345: "int 208" = m167.out_channels
  prims.check_number_type_and_value(i1345, 208)
  i1346: "bool False" = m167.transposed
  prims.check_number_type_and_value(i1346, False)
  i1347: "int 1" = m167.groups
  prims.check_number_type_and_value(i1347, 1)
  s1348: "str" = m167.padding_mode
  prims.check_string_value(s1348, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_c_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s1349: "str" = m167.padding_mode
  prims.check_string_value(s1349, 'zeros')
  obj168: "Any" = m167.stride
  i1350: "int 1" = obj168[0]
  prims.check_number_type_and_value(i1350, 1)
  i1351: "int 1" = obj168[1]
  prims.check_number_type_and_value(i1351, 1)
  obj169: "Any" = m167.padding
  i1352: "int 0" = obj169[0]
  prims.check_number_type_and_value(i1352, 0)
  i1353: "int 0" = obj169[1]
  prims.check_number_type_and_value(i1353, 0)
  obj170: "Any" = m167.dilation
  i1354: "int 1" = obj170[0]
  prims.check_number_type_and_value(i1354, 1)
  i1355: "int 1" = obj170[1]
  prims.check_number_type_and_value(i1355, 1)
  i1356: "int 1" = m167.groups
  prims.check_number_type_and_value(i1356, 1)
  m171: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.f.c.1')
  f1358: "float 0.1" = m171.momentum
  prims.check_number_type_and_value(f1358, 0.1)
  i1359: "bool True" = m171.training
  prims.check_number_type_and_value(i1359, True)
  i1360: "bool True" = m171.track_running_stats
  prims.check_number_type_and_value(i1360, True)
  i1361: "bool True" = m171.training
  prims.check_number_type_and_value(i1361, True)
  i1362: "int 208" = m171.num_features
  prims.check_number_type_and_value(i1362, 208)
  f1363: "float 1e-05" = m171.eps
  prims.check_number_type_and_value(f1363, 1e-05)
  f1364: "float 0.1" = m171.momentum
  prims.check_number_type_and_value(f1364, 0.1)
  i1365: "bool True" = m171.affine
  prims.check_number_type_and_value(i1365, True)
  i1366: "bool True" = m171.track_running_stats
  prims.check_number_type_and_value(i1366, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_c_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_c_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_c_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_c_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-0_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1369: "float 1e-05" = m171.eps
  prims.check_number_type_and_value(f1369, 1e-05)
  m172: "Any" = module.get_submodule('model.trunk_output.block3.block3-0.activation')
  i1403: "bool True" = m172.inplace
  prims.check_number_type_and_value(i1403, True)
  m173: "Any" = module.get_submodule('model.trunk_output.block3.block3-1')
  i1407: "bool True" = m173.training
  prims.check_number_type_and_value(i1407, True)
  m174: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.a.0')
  i1408: "bool True" = m174.training
  prims.check_number_type_and_value(i1408, True)
  i1409: "int 208" = m174.in_channels
  prims.check_number_type_and_value(i1409, 208)
  i1410: "int 208" = m174.out_channels
  prims.check_number_type_and_value(i1410, 208)
  i1411: "bool False" = m174.transposed
  prims.check_number_type_and_value(i1411, False)
  i1412: "int 1" = m174.groups
  prims.check_number_type_and_value(i1412, 1)
  s1413: "str" = m174.padding_mode
  prims.check_string_value(s1413, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_a_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s1414: "str" = m174.padding_mode
  prims.check_string_value(s1414, 'zeros')
  obj175: "Any" = m174.stride
  i1415: "int 1" = obj175[0]
  prims.check_number_type_and_value(i1415, 1)
  i1416: "int 1" = obj175[1]
  prims.check_number_type_and_value(i1416, 1)
  obj176: "Any" = m174.padding
  i1417: "int 0" = obj176[0]
  prims.check_number_type_and_value(i1417, 0)
  i1418: "int 0" = obj176[1]
  prims.check_number_type_and_value(i1418, 0)
  obj177: "Any" = m174.dilation
  i1419: "int 1" = obj177[0]
  prims.check_number_type_and_value(i1419, 1)
  i1420: "int 1" = obj177[1]
  prims.check_number_type_and_value(i1420, 1)
  i1421: "int 1" = m174.groups
  prims.check_number_type_and_value(i1421, 1)
  m178: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.a.1')
  f1423: "float 0.1" = m178.momentum
  prims.check_number_type_and_value(f1423, 0.1)
  i1424: "bool True" = m178.training
  prims.check_number_type_and_value(i1424, True)
  i1425: "bool True" = m178.track_running_stats
  prims.check_number_type_and_value(i1425, True)
  i1426: "bool True" = m178.training
  prims.check_number_type_and_value(i1426, True)
  i1427: "int 208" = m178.num_features
  prims.check_number_type_and_value(i1427, 208)
  f1428: "float 1e-05" = m178.eps
  prims.check_number_type_and_value(f1428, 1e-05)
  f1429: "float 0.1" = m178.momentum
  prims.check_number_type_and_value(f1429, 0.1)
  i1430: "bool True" = m178.affine
  prims.check_number_type_and_value(i1430, True)
  i1431: "bool True" = m178.track_running_stats
  prims.check_number_type_and_value(i1431, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_a_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_a_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_a_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_a_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1434: "float 1e-05" = m178.eps
  prims.check_number_type_and_value(f1434, 1e-05)
  m179: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.a.2')
  i1467: "bool True" = m179.inplace
  prims.check_number_type_and_value(i1467, True)
  m180: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.b.0')
  i1471: "bool True" = m180.training
  prims.check_number_type_and_value(i1471, True)
  i1472: "int 208" = m180.in_channels
  prims.check_number_type_and_value(i1472, 208)
  i1473: "int 208" = m180.out_channels
  prims.check_number_type_and_value(i1473, 208)
  i1474: "bool False" = m180.transposed
  prims.check_number_type_and_value(i1474, False)
  i1475: "int 26" = m180.groups
  prims.check_number_type_and_value(i1475, 26)
  s1476: "str" = m180.padding_mode
  prims.check_string_value(s1476, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_b_0_weight, (208, 8, 3, 3), 'cuda:0', torch.float32, True)
  s1477: "str" = m180.padding_mode
  prims.check_string_value(s1477, 'zeros')
  obj181: "Any" = m180.stride
  i1478: "int 1" = obj181[0]
  prims.check_number_type_and_value(i1478, 1)
  i1479: "int 1" = obj181[1]
  prims.check_number_type_and_value(i1479, 1)
  obj182: "Any" = m180.padding
  i1480: "int 1" = obj182[0]
  prims.check_number_type_and_value(i1480, 1)
  i1481: "int 1" = obj182[1]
  prims.check_number_type_and_value(i1481, 1)
  obj183: "Any" = m180.dilation
  i1482: "int 1" = obj183[0]
  prims.check_number_type_and_value(i1482, 1)
  i1483: "int 1" = obj183[1]
  prims.check_number_type_and_value(i1483, 1)
  i1484: "int 26" = m180.groups
  prims.check_number_type_and_value(i1484, 26)
  m184: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.b.1')
  f1486: "float 0.1" = m184.momentum
  prims.check_number_type_and_value(f1486, 0.1)
  i1487: "bool True" = m184.training
  prims.check_number_type_and_value(i1487, True)
  i1488: "bool True" = m184.track_running_stats
  prims.check_number_type_and_value(i1488, True)
  i1489: "bool True" = m184.training
  prims.check_number_type_and_value(i1489, True)
  i1490: "int 208" = m184.num_features
  prims.check_number_type_and_value(i1490, 208)
  f1491: "float 1e-05" = m184.eps
  prims.check_number_type_and_value(f1491, 1e-05)
  f1492: "float 0.1" = m184.momentum
  prims.check_number_type_and_value(f1492, 0.1)
  i1493: "bool True" = m184.affine
  prims.check_number_type_and_value(i1493, True)
  i1494: "bool True" = m184.track_running_stats
  prims.check_number_type_and_value(i1494, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_b_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_b_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_b_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_b_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1497: "float 1e-05" = m184.eps
  prims.check_number_type_and_value(f1497, 1e-05)
  m185: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.b.2')
  i1530: "bool True" = m185.inplace
  prims.check_number_type_and_value(i1530, True)
  m186: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.se')
  i1534: "bool True" = m186.training
  prims.check_number_type_and_value(i1534, True)
  m187: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.se.avgpool')
  i1535: "int 1" = m187.output_size
  prims.check_number_type_and_value(i1535, 1)
  m188: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.se.fc1')
  i1537: "bool True" = m188.training
  prims.check_number_type_and_value(i1537, True)
  i1538: "int 208" = m188.in_channels
  prims.check_number_type_and_value(i1538, 208)
  i1539: "int 52" = m188.out_channels
  prims.check_number_type_and_value(i1539, 52)
  i1540: "bool False" = m188.transposed
  prims.check_number_type_and_value(i1540, False)
  i1541: "int 1" = m188.groups
  prims.check_number_type_and_value(i1541, 1)
  s1542: "str" = m188.padding_mode
  prims.check_string_value(s1542, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_se_fc1_weight, (52, 208, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_se_fc1_bias, (52,), 'cuda:0', torch.float32, True)
  s1543: "str" = m188.padding_mode
  prims.check_string_value(s1543, 'zeros')
  obj189: "Any" = m188.stride
  i1544: "int 1" = obj189[0]
  prims.check_number_type_and_value(i1544, 1)
  i1545: "int 1" = obj189[1]
  prims.check_number_type_and_value(i1545, 1)
  obj190: "Any" = m188.padding
  i1546: "int 0" = obj190[0]
  prims.check_number_type_and_value(i1546, 0)
  i1547: "int 0" = obj190[1]
  prims.check_number_type_and_value(i1547, 0)
  obj191: "Any" = m188.dilation
  i1548: "int 1" = obj191[0]
  prims.check_number_type_and_value(i1548, 1)
  i1549: "int 1" = obj191[1]
  prims.check_number_type_and_value(i1549, 1)
  i1550: "int 1" = m188.groups
  prims.check_number_type_and_value(i1550, 1)
  m192: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.se.activation')
  i1552: "bool False" = m192.inplace
  prims.check_number_type_and_value(i1552, False)
  m193: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.se.fc2')
  i1555: "bool True" = m193.training
  prims.check_number_type_and_value(i1555, True)
  i1556: "int 52" = m193.in_channels
  prims.check_number_type_and_value(i1556, 52)
  i1557: "int 208" = m193.out_channels
  prims.check_number_type_and_value(i1557, 208)
  i1558: "bool False" = m193.transposed
  prims.check_number_type_and_value(i1558, False)
  i1559: "int 1" = m193.groups
  prims.check_number_type_and_value(i1559, 1)
  s1560: "str" = m193.padding_mode
  prims.check_string_value(s1560, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_se_fc2_weight, (208, 52, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_se_fc2_bias, (208,), 'cuda:0', torch.float32, True)
  s1561: "str" = m193.padding_mode
  prims.check_string_value(s1561, 'zeros')
  obj194: "Any" = m193.stride
  i1562: "int 1" = obj194[0]
  prims.check_number_type_and_value(i1562, 1)
  i1563: "int 1" = obj194[1]
  prims.check_number_type_and_value(i1563, 1)
  obj195: "Any" = m193.padding
  i1564: "int 0" = obj195[0]
  prims.check_number_type_and_value(i1564, 0)
  i1565: "int 0" = obj195[1]
  prims.check_number_type_and_value(i1565, 0)
  obj196: "Any" = m193.dilation
  i1566: "int 1" = obj196[0]
  prims.check_number_type_and_value(i1566, 1)
  i1567: "int 1" = obj196[1]
  prims.check_number_type_and_value(i1567, 1)
  i1568: "int 1" = m193.groups
  prims.check_number_type_and_value(i1568, 1)
  m197: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.c.0')
  i1576: "bool True" = m197.training
  prims.check_number_type_and_value(i1576, True)
  i1577: "int 208" = m197.in_channels
  prims.check_number_type_and_value(i1577, 208)
  i1578: "int 208" = m197.out_channels
  prims.check_number_type_and_value(i1578, 208)
  i1579: "bool False" = m197.transposed
  prims.check_number_type_and_value(i1579, False)
  i1580: "int 1" = m197.groups
  prims.check_number_type_and_value(i1580, 1)
  s1581: "str" = m197.padding_mode
  prims.check_string_value(s1581, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_c_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s1582: "str" = m197.padding_mode
  prims.check_string_value(s1582, 'zeros')
  obj198: "Any" = m197.stride
  i1583: "int 1" = obj198[0]
  prims.check_number_type_and_value(i1583, 1)
  i1584: "int 1" = obj198[1]
  prims.check_number_type_and_value(i1584, 1)
  obj199: "Any" = m197.padding
  i1585: "int 0" = obj199[0]
  prims.check_number_type_and_value(i1585, 0)
  i1586: "int 0" = obj199[1]
  prims.check_number_type_and_value(i1586, 0)
  obj200: "Any" = m197.dilation
  i1587: "int 1" = obj200[0]
  prims.check_number_type_and_value(i1587, 1)
  i1588: "int 1" = obj200[1]
  prims.check_number_type_and_value(i1588, 1)
  i1589: "int 1" = m197.groups
  prims.check_number_type_and_value(i1589, 1)
  m201: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.f.c.1')
  f1591: "float 0.1" = m201.momentum
  prims.check_number_type_and_value(f1591, 0.1)
  i1592: "bool True" = m201.training
  prims.check_number_type_and_value(i1592, True)
  i1593: "bool True" = m201.track_running_stats
  prims.check_number_type_and_value(i1593, True)
  i1594: "bool True" = m201.training
  prims.check_number_type_and_value(i1594, True)
  i1595: "int 208" = m201.num_features
  prims.check_number_type_and_value(i1595, 208)
  f1596: "float 1e-05" = m201.eps
  prims.check_number_type_and_value(f1596, 1e-05)
  f1597: "float 0.1" = m201.momentum
  prims.check_number_type_and_value(f1597, 0.1)
  i1598: "bool True" = m201.affine
  prims.check_number_type_and_value(i1598, True)
  i1599: "bool True" = m201.track_running_stats
  prims.check_number_type_and_value(i1599, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_c_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_c_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_c_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_c_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-1_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1602: "float 1e-05" = m201.eps
  prims.check_number_type_and_value(f1602, 1e-05)
  m202: "Any" = module.get_submodule('model.trunk_output.block3.block3-1.activation')
  i1636: "bool True" = m202.inplace
  prims.check_number_type_and_value(i1636, True)
  m203: "Any" = module.get_submodule('model.trunk_output.block3.block3-2')
  i1640: "bool True" = m203.training
  prims.check_number_type_and_value(i1640, True)
  m204: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.a.0')
  i1641: "bool True" = m204.training
  prims.check_number_type_and_value(i1641, True)
  i1642: "int 208" = m204.in_channels
  prims.check_number_type_and_value(i1642, 208)
  i1643: "int 208" = m204.out_channels
  prims.check_number_type_and_value(i1643, 208)
  i1644: "bool False" = m204.transposed
  prims.check_number_type_and_value(i1644, False)
  i1645: "int 1" = m204.groups
  prims.check_number_type_and_value(i1645, 1)
  s1646: "str" = m204.padding_mode
  prims.check_string_value(s1646, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_a_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s1647: "str" = m204.padding_mode
  prims.check_string_value(s1647, 'zeros')
  obj205: "Any" = m204.stride
  i1648: "int 1" = obj205[0]
  prims.check_number_type_and_value(i1648, 1)
  i1649: "int 1" = obj205[1]
  prims.check_number_type_and_value(i1649, 1)
  obj206: "Any" = m204.padding
  i1650: "int 0" = obj206[0]
  prims.check_number_type_and_value(i1650, 0)
  i1651: "int 0" = obj206[1]
  prims.check_number_type_and_value(i1651, 0)
  obj207: "Any" = m204.dilation
  i1652: "int 1" = obj207[0]
  prims.check_number_type_and_value(i1652, 1)
  i1653: "int 1" = obj207[1]
  prims.check_number_type_and_value(i1653, 1)
  i1654: "int 1" = m204.groups
  prims.check_number_type_and_value(i1654, 1)
  m208: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.a.1')
  f1656: "float 0.1" = m208.momentum
  prims.check_number_type_and_value(f1656, 0.1)
  i1657: "bool True" = m208.training
  prims.check_number_type_and_value(i1657, True)
  i1658: "bool True" = m208.track_running_stats
  prims.check_number_type_and_value(i1658, True)
  i1659: "bool True" = m208.training
  prims.check_number_type_and_value(i1659, True)
  i1660: "int 208" = m208.num_features
  prims.check_number_type_and_value(i1660, 208)
  f1661: "float 1e-05" = m208.eps
  prims.check_number_type_and_value(f1661, 1e-05)
  f1662: "float 0.1" = m208.momentum
  prims.check_number_type_and_value(f1662, 0.1)
  i1663: "bool True" = m208.affine
  prims.check_number_type_and_value(i1663, True)
  i1664: "bool True" = m208.track_running_stats
  prims.check_number_type_and_value(i1664, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_a_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_a_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_a_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_a_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1667: "float 1e-05" = m208.eps
  prims.check_number_type_and_value(f1667, 1e-05)
  m209: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.a.2')
  i1700: "bool True" = m209.inplace
  prims.check_number_type_and_value(i1700, True)
  m210: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.b.0')
  i1704: "bool True" = m210.training
  prims.check_number_type_and_value(i1704, True)
  i1705: "int 208" = m210.in_channels
  prims.check_number_type_and_value(i1705, 208)
  i1706: "int 208" = m210.out_channels
  prims.check_number_type_and_value(i1706, 208)
  i1707: "bool False" = m210.transposed
  prims.check_number_type_and_value(i1707, False)
  i1708: "int 26" = m210.groups
  prims.check_number_type_and_value(i1708, 26)
  s1709: "str" = m210.padding_mode
  prims.check_string_value(s1709, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_b_0_weight, (208, 8, 3, 3), 'cuda:0', torch.float32, True)
  s1710: "str" = m210.padding_mode
  prims.check_string_value(s1710, 'zeros')
  obj211: "Any" = m210.stride
  i1711: "int 1" = obj211[0]
  prims.check_number_type_and_value(i1711, 1)
  i1712: "int 1" = obj211[1]
  prims.check_number_type_and_value(i1712, 1)
  obj212: "Any" = m210.padding
  i1713: "int 1" = obj212[0]
  prims.check_number_type_and_value(i1713, 1)
  i1714: "int 1" = obj212[1]
  prims.check_number_type_and_value(i1714, 1)
  obj213: "Any" = m210.dilation
  i1715: "int 1" = obj213[0]
  prims.check_number_type_and_value(i1715, 1)
  i1716: "int 1" = obj213[1]
  prims.check_number_type_and_value(i1716, 1)
  i1717: "int 26" = m210.groups
  prims.check_number_type_and_value(i1717, 26)
  m214: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.b.1')
  f1719: "float 0.1" = m214.momentum
  prims.check_number_type_and_value(f1719, 0.1)
  i1720: "bool True" = m214.training
  prims.check_number_type_and_value(i1720, True)
  i1721: "bool True" = m214.track_running_stats
  prims.check_number_type_and_value(i1721, True)
  i1722: "bool True" = m214.training
  prims.check_number_type_and_value(i1722, True)
  i1723: "int 208" = m214.num_features
  prims.check_number_type_and_value(i1723, 208)
  f1724: "float 1e-05" = m214.eps
  prims.check_number_type_and_value(f1724, 1e-05)
  f1725: "float 0.1" = m214.momentum
  prims.check_number_type_and_value(f1725, 0.1)
  i1726: "bool True" = m214.affine
  prims.check_number_type_and_value(i1726, True)
  i1727: "bool True" = m214.track_running_stats
  prims.check_number_type_and_value(i1727, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_b_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_b_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_b_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_b_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1730: "float 1e-05" = m214.eps
  prims.check_number_type_and_value(f1730, 1e-05)
  m215: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.b.2')
  i1763: "bool True" = m215.inplace
  prims.check_number_type_and_value(i1763, True)
  m216: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.se')
  i1767: "bool True" = m216.training
  prims.check_number_type_and_value(i1767, True)
  m217: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.se.avgpool')
  i1768: "int 1" = m217.output_size
  prims.check_number_type_and_value(i1768, 1)
  m218: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.se.fc1')
  i1770: "bool True" = m218.training
  prims.check_number_type_and_value(i1770, True)
  i1771: "int 208" = m218.in_channels
  prims.check_number_type_and_value(i1771, 208)
  i1772: "int 52" = m218.out_channels
  prims.check_number_type_and_value(i1772, 52)
  i1773: "bool False" = m218.transposed
  prims.check_number_type_and_value(i1773, False)
  i1774: "int 1" = m218.groups
  prims.check_number_type_and_value(i1774, 1)
  s1775: "str" = m218.padding_mode
  prims.check_string_value(s1775, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_se_fc1_weight, (52, 208, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_se_fc1_bias, (52,), 'cuda:0', torch.float32, True)
  s1776: "str" = m218.padding_mode
  prims.check_string_value(s1776, 'zeros')
  obj219: "Any" = m218.stride
  i1777: "int 1" = obj219[0]
  prims.check_number_type_and_value(i1777, 1)
  i1778: "int 1" = obj219[1]
  prims.check_number_type_and_value(i1778, 1)
  obj220: "Any" = m218.padding
  i1779: "int 0" = obj220[0]
  prims.check_number_type_and_value(i1779, 0)
  i1780: "int 0" = obj220[1]
  prims.check_number_type_and_value(i1780, 0)
  obj221: "Any" = m218.dilation
  i1781: "int 1" = obj221[0]
  prims.check_number_type_and_value(i1781, 1)
  i1782: "int 1" = obj221[1]
  prims.check_number_type_and_value(i1782, 1)
  i1783: "int 1" = m218.groups
  prims.check_number_type_and_value(i1783, 1)
  m222: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.se.activation')
  i1785: "bool False" = m222.inplace
  prims.check_number_type_and_value(i1785, False)
  m223: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.se.fc2')
  i1788: "bool True" = m223.training
  prims.check_number_type_and_value(i1788, True)
  i1789: "int 52" = m223.in_channels
  prims.check_number_type_and_value(i1789, 52)
  i1790: "int 208" = m223.out_channels
  prims.check_number_type_and_value(i1790, 208)
  i1791: "bool False" = m223.transposed
  prims.check_number_type_and_value(i1791, False)
  i1792: "int 1" = m223.groups
  prims.check_number_type_and_value(i1792, 1)
  s1793: "str" = m223.padding_mode
  prims.check_string_value(s1793, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_se_fc2_weight, (208, 52, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_se_fc2_bias, (208,), 'cuda:0', torch.float32, True)
  s1794: "str" = m223.padding_mode
  prims.check_string_value(s1794, 'zeros')
  obj224: "Any" = m223.stride
  i1795: "int 1" = obj224[0]
  prims.check_number_type_and_value(i1795, 1)
  i1796: "int 1" = obj224[1]
  prims.check_number_type_and_value(i1796, 1)
  obj225: "Any" = m223.padding
  i1797: "int 0" = obj225[0]
  prims.check_number_type_and_value(i1797, 0)
  i1798: "int 0" = obj225[1]
  prims.check_number_type_and_value(i1798, 0)
  obj226: "Any" = m223.dilation
  i1799: "int 1" = obj226[0]
  prims.check_number_type_and_value(i1799, 1)
  i1800: "int 1" = obj226[1]
  prims.check_number_type_and_value(i1800, 1)
  i1801: "int 1" = m223.groups
  prims.check_number_type_and_value(i1801, 1)
  m227: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.c.0')
  i1809: "bool True" = m227.training
  prims.check_number_type_and_value(i1809, True)
  i1810: "int 208" = m227.in_channels
  prims.check_number_type_and_value(i1810, 208)
  i1811: "int 208" = m227.out_channels
  prims.check_number_type_and_value(i1811, 208)
  i1812: "bool False" = m227.transposed
  prims.check_number_type_and_value(i1812, False)
  i1813: "int 1" = m227.groups
  prims.check_number_type_and_value(i1813, 1)
  s1814: "str" = m227.padding_mode
  prims.check_string_value(s1814, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_c_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s1815: "str" = m227.padding_mode
  prims.check_string_value(s1815, 'zeros')
  obj228: "Any" = m227.stride
  i1816: "int 1" = obj228[0]
  prims.check_number_type_and_value(i1816, 1)
  i1817: "int 1" = obj228[1]
  prims.check_number_type_and_value(i1817, 1)
  obj229: "Any" = m227.padding
  i1818: "int 0" = obj229[0]
  prims.check_number_type_and_value(i1818, 0)
  i1819: "int 0" = obj229[1]
  prims.check_number_type_and_value(i1819, 0)
  obj230: "Any" = m227.dilation
  i1820: "int 1" = obj230[0]
  prims.check_number_type_and_value(i1820, 1)
  i1821: "int 1" = obj230[1]
  prims.check_number_type_and_value(i1821, 1)
  i1822: "int 1" = m227.groups
  prims.check_number_type_and_value(i1822, 1)
  m231: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.f.c.1')
  f1824: "float 0.1" = m231.momentum
  prims.check_number_type_and_value(f1824, 0.1)
  i1825: "bool True" = m231.training
  prims.check_number_type_and_value(i1825, True)
  i1826: "bool True" = m231.track_running_stats
  prims.check_number_type_and_value(i1826, True)
  i1827: "bool True" = m231.training
  prims.check_number_type_and_value(i1827, True)
  i1828: "int 208" = m231.num_features
  prims.check_number_type_and_value(i1828, 208)
  f1829: "float 1e-05" = m231.eps
  prims.check_number_type_and_value(f1829, 1e-05)
  f1830: "float 0.1" = m231.momentum
  prims.check_number_type_and_value(f1830, 0.1)
  i1831: "bool True" = m231.affine
  prims.check_number_type_and_value(i1831, True)
  i1832: "bool True" = m231.track_running_stats
  prims.check_number_type_and_value(i1832, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_c_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_c_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_c_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_c_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-2_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1835: "float 1e-05" = m231.eps
  prims.check_number_type_and_value(f1835, 1e-05)
  m232: "Any" = module.get_submodule('model.trunk_output.block3.block3-2.activation')
  i1869: "bool True" = m232.inplace
  prims.check_number_type_and_value(i1869, True)
  m233: "Any" = module.get_submodule('model.trunk_output.block3.block3-3')
  i1873: "bool True" = m233.training
  prims.check_number_type_and_value(i1873, True)
  m234: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.a.0')
  i1874: "bool True" = m234.training
  prims.check_number_type_and_value(i1874, True)
  i1875: "int 208" = m234.in_channels
  prims.check_number_type_and_value(i1875, 208)
  i1876: "int 208" = m234.out_channels
  prims.check_number_type_and_value(i1876, 208)
  i1877: "bool False" = m234.transposed
  prims.check_number_type_and_value(i1877, False)
  i1878: "int 1" = m234.groups
  prims.check_number_type_and_value(i1878, 1)
  s1879: "str" = m234.padding_mode
  prims.check_string_value(s1879, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_a_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s1880: "str" = m234.padding_mode
  prims.check_string_value(s1880, 'zeros')
  obj235: "Any" = m234.stride
  i1881: "int 1" = obj235[0]
  prims.check_number_type_and_value(i1881, 1)
  i1882: "int 1" = obj235[1]
  prims.check_number_type_and_value(i1882, 1)
  obj236: "Any" = m234.padding
  i1883: "int 0" = obj236[0]
  prims.check_number_type_and_value(i1883, 0)
  i1884: "int 0" = obj236[1]
  prims.check_number_type_and_value(i1884, 0)
  obj237: "Any" = m234.dilation
  i1885: "int 1" = obj237[0]
  prims.check_number_type_and_value(i1885, 1)
  i1886: "int 1" = obj237[1]
  prims.check_number_type_and_value(i1886, 1)
  i1887: "int 1" = m234.groups
  prims.check_number_type_and_value(i1887, 1)
  m238: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.a.1')
  f1889: "float 0.1" = m238.momentum
  prims.check_number_type_and_value(f1889, 0.1)
  i1890: "bool True" = m238.training
  prims.check_number_type_and_value(i1890, True)
  i1891: "bool True" = m238.track_running_stats
  prims.check_number_type_and_value(i1891, True)
  i1892: "bool True" = m238.training
  prims.check_number_type_and_value(i1892, True)
  i1893: "int 208" = m238.num_features
  prims.check_number_type_and_value(i1893, 208)
  f1894: "float 1e-05" = m238.eps
  prims.check_number_type_and_value(f1894, 1e-05)
  f1895: "float 0.1" = m238.momentum
  prims.check_number_type_and_value(f1895, 0.1)
  i1896: "bool True" = m238.affine
  prims.check_number_type_and_value(i1896, True)
  i1897: "bool True" = m238.track_running_stats
  prims.check_number_type_and_value(i1897, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_a_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_a_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_a_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_a_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1900: "float 1e-05" = m238.eps
  prims.check_number_type_and_value(f1900, 1e-05)
  m239: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.a.2')
  i1933: "bool True" = m239.inplace
  prims.check_number_type_and_value(i1933, True)
  m240: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.b.0')
  i1937: "bool True" = m240.training
  prims.check_number_type_and_value(i1937, True)
  i1938: "int 208" = m240.in_channels
  prims.check_number_type_and_value(i1938, 208)
  i1939: "int 208" = m240.out_channels
  prims.check_number_type_and_value(i1939, 208)
  i1940: "bool False" = m240.transposed
  prims.check_number_type_and_value(i1940, False)
  i1941: "int 26" = m240.groups
  prims.check_number_type_and_value(i1941, 26)
  s1942: "str" = m240.padding_mode
  prims.check_string_value(s1942, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_b_0_weight, (208, 8, 3, 3), 'cuda:0', torch.float32, True)
  s1943: "str" = m240.padding_mode
  prims.check_string_value(s1943, 'zeros')
  obj241: "Any" = m240.stride
  i1944: "int 1" = obj241[0]
  prims.check_number_type_and_value(i1944, 1)
  i1945: "int 1" = obj241[1]
  prims.check_number_type_and_value(i1945, 1)
  obj242: "Any" = m240.padding
  i1946: "int 1" = obj242[0]
  prims.check_number_type_and_value(i1946, 1)
  i1947: "int 1" = obj242[1]
  prims.check_number_type_and_value(i1947, 1)
  obj243: "Any" = m240.dilation
  i1948: "int 1" = obj243[0]
  prims.check_number_type_and_value(i1948, 1)
  i1949: "int 1" = obj243[1]
  prims.check_number_type_and_value(i1949, 1)
  i1950: "int 26" = m240.groups
  prims.check_number_type_and_value(i1950, 26)
  m244: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.b.1')
  f1952: "float 0.1" = m244.momentum
  prims.check_number_type_and_value(f1952, 0.1)
  i1953: "bool True" = m244.training
  prims.check_number_type_and_value(i1953, True)
  i1954: "bool True" = m244.track_running_stats
  prims.check_number_type_and_value(i1954, True)
  i1955: "bool True" = m244.training
  prims.check_number_type_and_value(i1955, True)
  i1956: "int 208" = m244.num_features
  prims.check_number_type_and_value(i1956, 208)
  f1957: "float 1e-05" = m244.eps
  prims.check_number_type_and_value(f1957, 1e-05)
  f1958: "float 0.1" = m244.momentum
  prims.check_number_type_and_value(f1958, 0.1)
  i1959: "bool True" = m244.affine
  prims.check_number_type_and_value(i1959, True)
  i1960: "bool True" = m244.track_running_stats
  prims.check_number_type_and_value(i1960, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_b_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_b_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_b_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_b_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f1963: "float 1e-05" = m244.eps
  prims.check_number_type_and_value(f1963, 1e-05)
  m245: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.b.2')
  i1996: "bool True" = m245.inplace
  prims.check_number_type_and_value(i1996, True)
  m246: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.se')
  i2000: "bool True" = m246.training
  prims.check_number_type_and_value(i2000, True)
  m247: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.se.avgpool')
  i2001: "int 1" = m247.output_size
  prims.check_number_type_and_value(i2001, 1)
  m248: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.se.fc1')
  i2003: "bool True" = m248.training
  prims.check_number_type_and_value(i2003, True)
  i2004: "int 208" = m248.in_channels
  prims.check_number_type_and_value(i2004, 208)
  i2005: "int 52" = m248.out_channels
  prims.check_number_type_and_value(i2005, 52)
  i2006: "bool False" = m248.transposed
  prims.check_number_type_and_value(i2006, False)
  i2007: "int 1" = m248.groups
  prims.check_number_type_and_value(i2007, 1)
  s2008: "str" = m248.padding_mode
  prims.check_string_value(s2008, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_se_fc1_weight, (52, 208, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_se_fc1_bias, (52,), 'cuda:0', torch.float32, True)
  s2009: "str" = m248.padding_mode
  prims.check_string_value(s2009, 'zeros')
  obj249: "Any" = m248.stride
  i2010: "int 1" = obj249[0]
  prims.check_number_type_and_value(i2010, 1)
  i2011: "int 1" = obj249[1]
  prims.check_number_type_and_value(i2011, 1)
  obj250: "Any" = m248.padding
  i2012: "int 0" = obj250[0]
  prims.check_number_type_and_value(i2012, 0)
  i2013: "int 0" = obj250[1]
  prims.check_number_type_and_value(i2013, 0)
  obj251: "Any" = m248.dilation
  i2014: "int 1" = obj251[0]
  prims.check_number_type_and_value(i2014, 1)
  i2015: "int 1" = obj251[1]
  prims.check_number_type_and_value(i2015, 1)
  i2016: "int 1" = m248.groups
  prims.check_number_type_and_value(i2016, 1)
  m252: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.se.activation')
  i2018: "bool False" = m252.inplace
  prims.check_number_type_and_value(i2018, False)
  m253: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.se.fc2')
  i2021: "bool True" = m253.training
  prims.check_number_type_and_value(i2021, True)
  i2022: "int 52" = m253.in_channels
  prims.check_number_type_and_value(i2022, 52)
  i2023: "int 208" = m253.out_channels
  prims.check_number_type_and_value(i2023, 208)
  i2024: "bool False" = m253.transposed
  prims.check_number_type_and_value(i2024, False)
  i2025: "int 1" = m253.groups
  prims.check_number_type_and_value(i2025, 1)
  s2026: "str" = m253.padding_mode
  prims.check_string_value(s2026, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_se_fc2_weight, (208, 52, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_se_fc2_bias, (208,), 'cuda:0', torch.float32, True)
  s2027: "str" = m253.padding_mode
  prims.check_string_value(s2027, 'zeros')
  obj254: "Any" = m253.stride
  i2028: "int 1" = obj254[0]
  prims.check_number_type_and_value(i2028, 1)
  i2029: "int 1" = obj254[1]
  prims.check_number_type_and_value(i2029, 1)
  obj255: "Any" = m253.padding
  i2030: "int 0" = obj255[0]
  prims.check_number_type_and_value(i2030, 0)
  i2031: "int 0" = obj255[1]
  prims.check_number_type_and_value(i2031, 0)
  obj256: "Any" = m253.dilation
  i2032: "int 1" = obj256[0]
  prims.check_number_type_and_value(i2032, 1)
  i2033: "int 1" = obj256[1]
  prims.check_number_type_and_value(i2033, 1)
  i2034: "int 1" = m253.groups
  prims.check_number_type_and_value(i2034, 1)
  m257: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.c.0')
  i2042: "bool True" = m257.training
  prims.check_number_type_and_value(i2042, True)
  i2043: "int 208" = m257.in_channels
  prims.check_number_type_and_value(i2043, 208)
  i2044: "int 208" = m257.out_channels
  prims.check_number_type_and_value(i2044, 208)
  i2045: "bool False" = m257.transposed
  prims.check_number_type_and_value(i2045, False)
  i2046: "int 1" = m257.groups
  prims.check_number_type_and_value(i2046, 1)
  s2047: "str" = m257.padding_mode
  prims.check_string_value(s2047, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_c_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2048: "str" = m257.padding_mode
  prims.check_string_value(s2048, 'zeros')
  obj258: "Any" = m257.stride
  i2049: "int 1" = obj258[0]
  prims.check_number_type_and_value(i2049, 1)
  i2050: "int 1" = obj258[1]
  prims.check_number_type_and_value(i2050, 1)
  obj259: "Any" = m257.padding
  i2051: "int 0" = obj259[0]
  prims.check_number_type_and_value(i2051, 0)
  i2052: "int 0" = obj259[1]
  prims.check_number_type_and_value(i2052, 0)
  obj260: "Any" = m257.dilation
  i2053: "int 1" = obj260[0]
  prims.check_number_type_and_value(i2053, 1)
  i2054: "int 1" = obj260[1]
  prims.check_number_type_and_value(i2054, 1)
  i2055: "int 1" = m257.groups
  prims.check_number_type_and_value(i2055, 1)
  m261: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.f.c.1')
  f2057: "float 0.1" = m261.momentum
  prims.check_number_type_and_value(f2057, 0.1)
  i2058: "bool True" = m261.training
  prims.check_number_type_and_value(i2058, True)
  i2059: "bool True" = m261.track_running_stats
  prims.check_number_type_and_value(i2059, True)
  i2060: "bool True" = m261.training
  prims.check_number_type_and_value(i2060, True)
  i2061: "int 208" = m261.num_features
  prims.check_number_type_and_value(i2061, 208)
  f2062: "float 1e-05" = m261.eps
  prims.check_number_type_and_value(f2062, 1e-05)
  f2063: "float 0.1" = m261.momentum
  prims.check_number_type_and_value(f2063, 0.1)
  i2064: "bool True" = m261.affine
  prims.check_number_type_and_value(i2064, True)
  i2065: "bool True" = m261.track_running_stats
  prims.check_number_type_and_value(i2065, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_c_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_c_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_c_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_c_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-3_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2068: "float 1e-05" = m261.eps
  prims.check_number_type_and_value(f2068, 1e-05)
  m262: "Any" = module.get_submodule('model.trunk_output.block3.block3-3.activation')
  i2102: "bool True" = m262.inplace
  prims.check_number_type_and_value(i2102, True)
  m263: "Any" = module.get_submodule('model.trunk_output.block3.block3-4')
  i2106: "bool True" = m263.training
  prims.check_number_type_and_value(i2106, True)
  m264: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.a.0')
  i2107: "bool True" = m264.training
  prims.check_number_type_and_value(i2107, True)
  i2108: "int 208" = m264.in_channels
  prims.check_number_type_and_value(i2108, 208)
  i2109: "int 208" = m264.out_channels
  prims.check_number_type_and_value(i2109, 208)
  i2110: "bool False" = m264.transposed
  prims.check_number_type_and_value(i2110, False)
  i2111: "int 1" = m264.groups
  prims.check_number_type_and_value(i2111, 1)
  s2112: "str" = m264.padding_mode
  prims.check_string_value(s2112, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_a_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2113: "str" = m264.padding_mode
  prims.check_string_value(s2113, 'zeros')
  obj265: "Any" = m264.stride
  i2114: "int 1" = obj265[0]
  prims.check_number_type_and_value(i2114, 1)
  i2115: "int 1" = obj265[1]
  prims.check_number_type_and_value(i2115, 1)
  obj266: "Any" = m264.padding
  i2116: "int 0" = obj266[0]
  prims.check_number_type_and_value(i2116, 0)
  i2117: "int 0" = obj266[1]
  prims.check_number_type_and_value(i2117, 0)
  obj267: "Any" = m264.dilation
  i2118: "int 1" = obj267[0]
  prims.check_number_type_and_value(i2118, 1)
  i2119: "int 1" = obj267[1]
  prims.check_number_type_and_value(i2119, 1)
  i2120: "int 1" = m264.groups
  prims.check_number_type_and_value(i2120, 1)
  m268: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.a.1')
  f2122: "float 0.1" = m268.momentum
  prims.check_number_type_and_value(f2122, 0.1)
  i2123: "bool True" = m268.training
  prims.check_number_type_and_value(i2123, True)
  i2124: "bool True" = m268.track_running_stats
  prims.check_number_type_and_value(i2124, True)
  i2125: "bool True" = m268.training
  prims.check_number_type_and_value(i2125, True)
  i2126: "int 208" = m268.num_features
  prims.check_number_type_and_value(i2126, 208)
  f2127: "float 1e-05" = m268.eps
  prims.check_number_type_and_value(f2127, 1e-05)
  f2128: "float 0.1" = m268.momentum
  prims.check_number_type_and_value(f2128, 0.1)
  i2129: "bool True" = m268.affine
  prims.check_number_type_and_value(i2129, True)
  i2130: "bool True" = m268.track_running_stats
  prims.check_number_type_and_value(i2130, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_a_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_a_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_a_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_a_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2133: "float 1e-05" = m268.eps
  prims.check_number_type_and_value(f2133, 1e-05)
  m269: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.a.2')
  i2166: "bool True" = m269.inplace
  prims.check_number_type_and_value(i2166, True)
  m270: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.b.0')
  i2170: "bool True" = m270.training
  prims.check_number_type_and_value(i2170, True)
  i2171: "int 208" = m270.in_channels
  prims.check_number_type_and_value(i2171, 208)
  i2172: "int 208" = m270.out_channels
  prims.check_number_type_and_value(i2172, 208)
  i2173: "bool False" = m270.transposed
  prims.check_number_type_and_value(i2173, False)
  i2174: "int 26" = m270.groups
  prims.check_number_type_and_value(i2174, 26)
  s2175: "str" = m270.padding_mode
  prims.check_string_value(s2175, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_b_0_weight, (208, 8, 3, 3), 'cuda:0', torch.float32, True)
  s2176: "str" = m270.padding_mode
  prims.check_string_value(s2176, 'zeros')
  obj271: "Any" = m270.stride
  i2177: "int 1" = obj271[0]
  prims.check_number_type_and_value(i2177, 1)
  i2178: "int 1" = obj271[1]
  prims.check_number_type_and_value(i2178, 1)
  obj272: "Any" = m270.padding
  i2179: "int 1" = obj272[0]
  prims.check_number_type_and_value(i2179, 1)
  i2180: "int 1" = obj272[1]
  prims.check_number_type_and_value(i2180, 1)
  obj273: "Any" = m270.dilation
  i2181: "int 1" = obj273[0]
  prims.check_number_type_and_value(i2181, 1)
  i2182: "int 1" = obj273[1]
  prims.check_number_type_and_value(i2182, 1)
  i2183: "int 26" = m270.groups
  prims.check_number_type_and_value(i2183, 26)
  m274: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.b.1')
  f2185: "float 0.1" = m274.momentum
  prims.check_number_type_and_value(f2185, 0.1)
  i2186: "bool True" = m274.training
  prims.check_number_type_and_value(i2186, True)
  i2187: "bool True" = m274.track_running_stats
  prims.check_number_type_and_value(i2187, True)
  i2188: "bool True" = m274.training
  prims.check_number_type_and_value(i2188, True)
  i2189: "int 208" = m274.num_features
  prims.check_number_type_and_value(i2189, 208)
  f2190: "float 1e-05" = m274.eps
  prims.check_number_type_and_value(f2190, 1e-05)
  f2191: "float 0.1" = m274.momentum
  prims.check_number_type_and_value(f2191, 0.1)
  i2192: "bool True" = m274.affine
  prims.check_number_type_and_value(i2192, True)
  i2193: "bool True" = m274.track_running_stats
  prims.check_number_type_and_value(i2193, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_b_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_b_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_b_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_b_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2196: "float 1e-05" = m274.eps
  prims.check_number_type_and_value(f2196, 1e-05)
  m275: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.b.2')
  i2229: "bool True" = m275.inplace
  prims.check_number_type_and_value(i2229, True)
  m276: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.se')
  i2233: "bool True" = m276.training
  prims.check_number_type_and_value(i2233, True)
  m277: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.se.avgpool')
  i2234: "int 1" = m277.output_size
  prims.check_number_type_and_value(i2234, 1)
  m278: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.se.fc1')
  i2236: "bool True" = m278.training
  prims.check_number_type_and_value(i2236, True)
  i2237: "int 208" = m278.in_channels
  prims.check_number_type_and_value(i2237, 208)
  i2238: "int 52" = m278.out_channels
  prims.check_number_type_and_value(i2238, 52)
  i2239: "bool False" = m278.transposed
  prims.check_number_type_and_value(i2239, False)
  i2240: "int 1" = m278.groups
  prims.check_number_type_and_value(i2240, 1)
  s2241: "str" = m278.padding_mode
  prims.check_string_value(s2241, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_se_fc1_weight, (52, 208, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_se_fc1_bias, (52,), 'cuda:0', torch.float32, True)
  s2242: "str" = m278.padding_mode
  prims.check_string_value(s2242, 'zeros')
  obj279: "Any" = m278.stride
  i2243: "int 1" = obj279[0]
  prims.check_number_type_and_value(i2243, 1)
  i2244: "int 1" = obj279[1]
  prims.check_number_type_and_value(i2244, 1)
  obj280: "Any" = m278.padding
  i2245: "int 0" = obj280[0]
  prims.check_number_type_and_value(i2245, 0)
  i2246: "int 0" = obj280[1]
  prims.check_number_type_and_value(i2246, 0)
  obj281: "Any" = m278.dilation
  i2247: "int 1" = obj281[0]
  prims.check_number_type_and_value(i2247, 1)
  i2248: "int 1" = obj281[1]
  prims.check_number_type_and_value(i2248, 1)
  i2249: "int 1" = m278.groups
  prims.check_number_type_and_value(i2249, 1)
  m282: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.se.activation')
  i2251: "bool False" = m282.inplace
  prims.check_number_type_and_value(i2251, False)
  m283: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.se.fc2')
  i2254: "bool True" = m283.training
  prims.check_number_type_and_value(i2254, True)
  i2255: "int 52" = m283.in_channels
  prims.check_number_type_and_value(i2255, 52)
  i2256: "int 208" = m283.out_channels
  prims.check_number_type_and_value(i2256, 208)
  i2257: "bool False" = m283.transposed
  prims.check_number_type_and_value(i2257, False)
  i2258: "int 1" = m283.groups
  prims.check_number_type_and_value(i2258, 1)
  s2259: "str" = m283.padding_mode
  prims.check_string_value(s2259, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_se_fc2_weight, (208, 52, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_se_fc2_bias, (208,), 'cuda:0', torch.float32, True)
  s2260: "str" = m283.padding_mode
  prims.check_string_value(s2260, 'zeros')
  obj284: "Any" = m283.stride
  i2261: "int 1" = obj284[0]
  prims.check_number_type_and_value(i2261, 1)
  i2262: "int 1" = obj284[1]
  prims.check_number_type_and_value(i2262, 1)
  obj285: "Any" = m283.padding
  i2263: "int 0" = obj285[0]
  prims.check_number_type_and_value(i2263, 0)
  i2264: "int 0" = obj285[1]
  prims.check_number_type_and_value(i2264, 0)
  obj286: "Any" = m283.dilation
  i2265: "int 1" = obj286[0]
  prims.check_number_type_and_value(i2265, 1)
  i2266: "int 1" = obj286[1]
  prims.check_number_type_and_value(i2266, 1)
  i2267: "int 1" = m283.groups
  prims.check_number_type_and_value(i2267, 1)
  m287: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.c.0')
  i2275: "bool True" = m287.training
  prims.check_number_type_and_value(i2275, True)
  i2276: "int 208" = m287.in_channels
  prims.check_number_type_and_value(i2276, 208)
  i2277: "int 208" = m287.out_channels
  prims.check_number_type_and_value(i2277, 208)
  i2278: "bool False" = m287.transposed
  prims.check_number_type_and_value(i2278, False)
  i2279: "int 1" = m287.groups
  prims.check_number_type_and_value(i2279, 1)
  s2280: "str" = m287.padding_mode
  prims.check_string_value(s2280, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_c_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2281: "str" = m287.padding_mode
  prims.check_string_value(s2281, 'zeros')
  obj288: "Any" = m287.stride
  i2282: "int 1" = obj288[0]
  prims.check_number_type_and_value(i2282, 1)
  i2283: "int 1" = obj288[1]
  prims.check_number_type_and_value(i2283, 1)
  obj289: "Any" = m287.padding
  i2284: "int 0" = obj289[0]
  prims.check_number_type_and_value(i2284, 0)
  i2285: "int 0" = obj289[1]
  prims.check_number_type_and_value(i2285, 0)
  obj290: "Any" = m287.dilation
  i2286: "int 1" = obj290[0]
  prims.check_number_type_and_value(i2286, 1)
  i2287: "int 1" = obj290[1]
  prims.check_number_type_and_value(i2287, 1)
  i2288: "int 1" = m287.groups
  prims.check_number_type_and_value(i2288, 1)
  m291: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.f.c.1')
  f2290: "float 0.1" = m291.momentum
  prims.check_number_type_and_value(f2290, 0.1)
  i2291: "bool True" = m291.training
  prims.check_number_type_and_value(i2291, True)
  i2292: "bool True" = m291.track_running_stats
  prims.check_number_type_and_value(i2292, True)
  i2293: "bool True" = m291.training
  prims.check_number_type_and_value(i2293, True)
  i2294: "int 208" = m291.num_features
  prims.check_number_type_and_value(i2294, 208)
  f2295: "float 1e-05" = m291.eps
  prims.check_number_type_and_value(f2295, 1e-05)
  f2296: "float 0.1" = m291.momentum
  prims.check_number_type_and_value(f2296, 0.1)
  i2297: "bool True" = m291.affine
  prims.check_number_type_and_value(i2297, True)
  i2298: "bool True" = m291.track_running_stats
  prims.check_number_type_and_value(i2298, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_c_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_c_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_c_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_c_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-4_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2301: "float 1e-05" = m291.eps
  prims.check_number_type_and_value(f2301, 1e-05)
  m292: "Any" = module.get_submodule('model.trunk_output.block3.block3-4.activation')
  i2335: "bool True" = m292.inplace
  prims.check_number_type_and_value(i2335, True)
  m293: "Any" = module.get_submodule('model.trunk_output.block3.block3-5')
  i2339: "bool True" = m293.training
  prims.check_number_type_and_value(i2339, True)
  m294: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.a.0')
  i2340: "bool True" = m294.training
  prims.check_number_type_and_value(i2340, True)
  i2341: "int 208" = m294.in_channels
  prims.check_number_type_and_value(i2341, 208)
  i2342: "int 208" = m294.out_channels
  prims.check_number_type_and_value(i2342, 208)
  i2343: "bool False" = m294.transposed
  prims.check_number_type_and_value(i2343, False)
  i2344: "int 1" = m294.groups
  prims.check_number_type_and_value(i2344, 1)
  s2345: "str" = m294.padding_mode
  prims.check_string_value(s2345, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_a_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2346: "str" = m294.padding_mode
  prims.check_string_value(s2346, 'zeros')
  obj295: "Any" = m294.stride
  i2347: "int 1" = obj295[0]
  prims.check_number_type_and_value(i2347, 1)
  i2348: "int 1" = obj295[1]
  prims.check_number_type_and_value(i2348, 1)
  obj296: "Any" = m294.padding
  i2349: "int 0" = obj296[0]
  prims.check_number_type_and_value(i2349, 0)
  i2350: "int 0" = obj296[1]
  prims.check_number_type_and_value(i2350, 0)
  obj297: "Any" = m294.dilation
  i2351: "int 1" = obj297[0]
  prims.check_number_type_and_value(i2351, 1)
  i2352: "int 1" = obj297[1]
  prims.check_number_type_and_value(i2352, 1)
  i2353: "int 1" = m294.groups
  prims.check_number_type_and_value(i2353, 1)
  m298: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.a.1')
  f2355: "float 0.1" = m298.momentum
  prims.check_number_type_and_value(f2355, 0.1)
  i2356: "bool True" = m298.training
  prims.check_number_type_and_value(i2356, True)
  i2357: "bool True" = m298.track_running_stats
  prims.check_number_type_and_value(i2357, True)
  i2358: "bool True" = m298.training
  prims.check_number_type_and_value(i2358, True)
  i2359: "int 208" = m298.num_features
  prims.check_number_type_and_value(i2359, 208)
  f2360: "float 1e-05" = m298.eps
  prims.check_number_type_and_value(f2360, 1e-05)
  f2361: "float 0.1" = m298.momentum
  prims.check_number_type_and_value(f2361, 0.1)
  i2362: "bool True" = m298.affine
  prims.check_number_type_and_value(i2362, True)
  i2363: "bool True" = m298.track_running_stats
  prims.check_number_type_and_value(i2363, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_a_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_a_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_a_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_a_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2366: "float 1e-05" = m298.eps
  prims.check_number_type_and_value(f2366, 1e-05)
  m299: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.a.2')
  i2399: "bool True" = m299.inplace
  prims.check_number_type_and_value(i2399, True)
  m300: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.b.0')
  i2403: "bool True" = m300.training
  prims.check_number_type_and_value(i2403, True)
  i2404: "int 208" = m300.in_channels
  prims.check_number_type_and_value(i2404, 208)
  i2405: "int 208" = m300.out_channels
  prims.check_number_type_and_value(i2405, 208)
  i2406: "bool False" = m300.transposed
  prims.check_number_type_and_value(i2406, False)
  i2407: "int 26" = m300.groups
  prims.check_number_type_and_value(i2407, 26)
  s2408: "str" = m300.padding_mode
  prims.check_string_value(s2408, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_b_0_weight, (208, 8, 3, 3), 'cuda:0', torch.float32, True)
  s2409: "str" = m300.padding_mode
  prims.check_string_value(s2409, 'zeros')
  obj301: "Any" = m300.stride
  i2410: "int 1" = obj301[0]
  prims.check_number_type_and_value(i2410, 1)
  i2411: "int 1" = obj301[1]
  prims.check_number_type_and_value(i2411, 1)
  obj302: "Any" = m300.padding
  i2412: "int 1" = obj302[0]
  prims.check_number_type_and_value(i2412, 1)
  i2413: "int 1" = obj302[1]
  prims.check_number_type_and_value(i2413, 1)
  obj303: "Any" = m300.dilation
  i2414: "int 1" = obj303[0]
  prims.check_number_type_and_value(i2414, 1)
  i2415: "int 1" = obj303[1]
  prims.check_number_type_and_value(i2415, 1)
  i2416: "int 26" = m300.groups
  prims.check_number_type_and_value(i2416, 26)
  m304: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.b.1')
  f2418: "float 0.1" = m304.momentum
  prims.check_number_type_and_value(f2418, 0.1)
  i2419: "bool True" = m304.training
  prims.check_number_type_and_value(i2419, True)
  i2420: "bool True" = m304.track_running_stats
  prims.check_number_type_and_value(i2420, True)
  i2421: "bool True" = m304.training
  prims.check_number_type_and_value(i2421, True)
  i2422: "int 208" = m304.num_features
  prims.check_number_type_and_value(i2422, 208)
  f2423: "float 1e-05" = m304.eps
  prims.check_number_type_and_value(f2423, 1e-05)
  f2424: "float 0.1" = m304.momentum
  prims.check_number_type_and_value(f2424, 0.1)
  i2425: "bool True" = m304.affine
  prims.check_number_type_and_value(i2425, True)
  i2426: "bool True" = m304.track_running_stats
  prims.check_number_type_and_value(i2426, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_b_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_b_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_b_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_b_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2429: "float 1e-05" = m304.eps
  prims.check_number_type_and_value(f2429, 1e-05)
  m305: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.b.2')
  i2462: "bool True" = m305.inplace
  prims.check_number_type_and_value(i2462, True)
  m306: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.se')
  i2466: "bool True" = m306.training
  prims.check_number_type_and_value(i2466, True)
  m307: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.se.avgpool')
  i2467: "int 1" = m307.output_size
  prims.check_number_type_and_value(i2467, 1)
  m308: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.se.fc1')
  i2469: "bool True" = m308.training
  prims.check_number_type_and_value(i2469, True)
  i2470: "int 208" = m308.in_channels
  prims.check_number_type_and_value(i2470, 208)
  i2471: "int 52" = m308.out_channels
  prims.check_number_type_and_value(i2471, 52)
  i2472: "bool False" = m308.transposed
  prims.check_number_type_and_value(i2472, False)
  i2473: "int 1" = m308.groups
  prims.check_number_type_and_value(i2473, 1)
  s2474: "str" = m308.padding_mode
  prims.check_string_value(s2474, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_se_fc1_weight, (52, 208, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_se_fc1_bias, (52,), 'cuda:0', torch.float32, True)
  s2475: "str" = m308.padding_mode
  prims.check_string_value(s2475, 'zeros')
  obj309: "Any" = m308.stride
  i2476: "int 1" = obj309[0]
  prims.check_number_type_and_value(i2476, 1)
  i2477: "int 1" = obj309[1]
  prims.check_number_type_and_value(i2477, 1)
  obj310: "Any" = m308.padding
  i2478: "int 0" = obj310[0]
  prims.check_number_type_and_value(i2478, 0)
  i2479: "int 0" = obj310[1]
  prims.check_number_type_and_value(i2479, 0)
  obj311: "Any" = m308.dilation
  i2480: "int 1" = obj311[0]
  prims.check_number_type_and_value(i2480, 1)
  i2481: "int 1" = obj311[1]
  prims.check_number_type_and_value(i2481, 1)
  i2482: "int 1" = m308.groups
  prims.check_number_type_and_value(i2482, 1)
  m312: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.se.activation')
  i2484: "bool False" = m312.inplace
  prims.check_number_type_and_value(i2484, False)
  m313: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.se.fc2')
  i2487: "bool True" = m313.training
  prims.check_number_type_and_value(i2487, True)
  i2488: "int 52" = m313.in_channels
  prims.check_number_type_and_value(i2488, 52)
  i2489: "int 208" = m313.out_channels
  prims.check_number_type_and_value(i2489, 208)
  i2490: "bool False" = m313.transposed
  prims.check_number_type_and_value(i2490, False)
  i2491: "int 1" = m313.groups
  prims.check_number_type_and_value(i2491, 1)
  s2492: "str" = m313.padding_mode
  prims.check_string_value(s2492, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_se_fc2_weight, (208, 52, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_se_fc2_bias, (208,), 'cuda:0', torch.float32, True)
  s2493: "str" = m313.padding_mode
  prims.check_string_value(s2493, 'zeros')
  obj314: "Any" = m313.stride
  i2494: "int 1" = obj314[0]
  prims.check_number_type_and_value(i2494, 1)
  i2495: "int 1" = obj314[1]
  prims.check_number_type_and_value(i2495, 1)
  obj315: "Any" = m313.padding
  i2496: "int 0" = obj315[0]
  prims.check_number_type_and_value(i2496, 0)
  i2497: "int 0" = obj315[1]
  prims.check_number_type_and_value(i2497, 0)
  obj316: "Any" = m313.dilation
  i2498: "int 1" = obj316[0]
  prims.check_number_type_and_value(i2498, 1)
  i2499: "int 1" = obj316[1]
  prims.check_number_type_and_value(i2499, 1)
  i2500: "int 1" = m313.groups
  prims.check_number_type_and_value(i2500, 1)
  m317: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.c.0')
  i2508: "bool True" = m317.training
  prims.check_number_type_and_value(i2508, True)
  i2509: "int 208" = m317.in_channels
  prims.check_number_type_and_value(i2509, 208)
  i2510: "int 208" = m317.out_channels
  prims.check_number_type_and_value(i2510, 208)
  i2511: "bool False" = m317.transposed
  prims.check_number_type_and_value(i2511, False)
  i2512: "int 1" = m317.groups
  prims.check_number_type_and_value(i2512, 1)
  s2513: "str" = m317.padding_mode
  prims.check_string_value(s2513, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_c_0_weight, (208, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2514: "str" = m317.padding_mode
  prims.check_string_value(s2514, 'zeros')
  obj318: "Any" = m317.stride
  i2515: "int 1" = obj318[0]
  prims.check_number_type_and_value(i2515, 1)
  i2516: "int 1" = obj318[1]
  prims.check_number_type_and_value(i2516, 1)
  obj319: "Any" = m317.padding
  i2517: "int 0" = obj319[0]
  prims.check_number_type_and_value(i2517, 0)
  i2518: "int 0" = obj319[1]
  prims.check_number_type_and_value(i2518, 0)
  obj320: "Any" = m317.dilation
  i2519: "int 1" = obj320[0]
  prims.check_number_type_and_value(i2519, 1)
  i2520: "int 1" = obj320[1]
  prims.check_number_type_and_value(i2520, 1)
  i2521: "int 1" = m317.groups
  prims.check_number_type_and_value(i2521, 1)
  m321: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.f.c.1')
  f2523: "float 0.1" = m321.momentum
  prims.check_number_type_and_value(f2523, 0.1)
  i2524: "bool True" = m321.training
  prims.check_number_type_and_value(i2524, True)
  i2525: "bool True" = m321.track_running_stats
  prims.check_number_type_and_value(i2525, True)
  i2526: "bool True" = m321.training
  prims.check_number_type_and_value(i2526, True)
  i2527: "int 208" = m321.num_features
  prims.check_number_type_and_value(i2527, 208)
  f2528: "float 1e-05" = m321.eps
  prims.check_number_type_and_value(f2528, 1e-05)
  f2529: "float 0.1" = m321.momentum
  prims.check_number_type_and_value(f2529, 0.1)
  i2530: "bool True" = m321.affine
  prims.check_number_type_and_value(i2530, True)
  i2531: "bool True" = m321.track_running_stats
  prims.check_number_type_and_value(i2531, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_c_1_weight, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_c_1_bias, (208,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_c_1_running_mean, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_c_1_running_var, (208,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block3_block3-5_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2534: "float 1e-05" = m321.eps
  prims.check_number_type_and_value(f2534, 1e-05)
  m322: "Any" = module.get_submodule('model.trunk_output.block3.block3-5.activation')
  i2568: "bool True" = m322.inplace
  prims.check_number_type_and_value(i2568, True)
  m323: "Any" = module.get_submodule('model.trunk_output.block4.block4-0')
  i2572: "bool True" = m323.training
  prims.check_number_type_and_value(i2572, True)
  m324: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.proj.0')
  i2573: "bool True" = m324.training
  prims.check_number_type_and_value(i2573, True)
  i2574: "int 208" = m324.in_channels
  prims.check_number_type_and_value(i2574, 208)
  i2575: "int 440" = m324.out_channels
  prims.check_number_type_and_value(i2575, 440)
  i2576: "bool False" = m324.transposed
  prims.check_number_type_and_value(i2576, False)
  i2577: "int 1" = m324.groups
  prims.check_number_type_and_value(i2577, 1)
  s2578: "str" = m324.padding_mode
  prims.check_string_value(s2578, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_proj_0_weight, (440, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2579: "str" = m324.padding_mode
  prims.check_string_value(s2579, 'zeros')
  obj325: "Any" = m324.stride
  i2580: "int 2" = obj325[0]
  prims.check_number_type_and_value(i2580, 2)
  i2581: "int 2" = obj325[1]
  prims.check_number_type_and_value(i2581, 2)
  obj326: "Any" = m324.padding
  i2582: "int 0" = obj326[0]
  prims.check_number_type_and_value(i2582, 0)
  i2583: "int 0" = obj326[1]
  prims.check_number_type_and_value(i2583, 0)
  obj327: "Any" = m324.dilation
  i2584: "int 1" = obj327[0]
  prims.check_number_type_and_value(i2584, 1)
  i2585: "int 1" = obj327[1]
  prims.check_number_type_and_value(i2585, 1)
  i2586: "int 1" = m324.groups
  prims.check_number_type_and_value(i2586, 1)
  m328: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.proj.1')
  f2588: "float 0.1" = m328.momentum
  prims.check_number_type_and_value(f2588, 0.1)
  i2589: "bool True" = m328.training
  prims.check_number_type_and_value(i2589, True)
  i2590: "bool True" = m328.track_running_stats
  prims.check_number_type_and_value(i2590, True)
  i2591: "bool True" = m328.training
  prims.check_number_type_and_value(i2591, True)
  i2592: "int 440" = m328.num_features
  prims.check_number_type_and_value(i2592, 440)
  f2593: "float 1e-05" = m328.eps
  prims.check_number_type_and_value(f2593, 1e-05)
  f2594: "float 0.1" = m328.momentum
  prims.check_number_type_and_value(f2594, 0.1)
  i2595: "bool True" = m328.affine
  prims.check_number_type_and_value(i2595, True)
  i2596: "bool True" = m328.track_running_stats
  prims.check_number_type_and_value(i2596, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_proj_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_proj_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_proj_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_proj_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_proj_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2599: "float 1e-05" = m328.eps
  prims.check_number_type_and_value(f2599, 1e-05)
  m329: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.a.0')
  i2632: "bool True" = m329.training
  prims.check_number_type_and_value(i2632, True)
  i2633: "int 208" = m329.in_channels
  prims.check_number_type_and_value(i2633, 208)
  i2634: "int 440" = m329.out_channels
  prims.check_number_type_and_value(i2634, 440)
  i2635: "bool False" = m329.transposed
  prims.check_number_type_and_value(i2635, False)
  i2636: "int 1" = m329.groups
  prims.check_number_type_and_value(i2636, 1)
  s2637: "str" = m329.padding_mode
  prims.check_string_value(s2637, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_a_0_weight, (440, 208, 1, 1), 'cuda:0', torch.float32, True)
  s2638: "str" = m329.padding_mode
  prims.check_string_value(s2638, 'zeros')
  obj330: "Any" = m329.stride
  i2639: "int 1" = obj330[0]
  prims.check_number_type_and_value(i2639, 1)
  i2640: "int 1" = obj330[1]
  prims.check_number_type_and_value(i2640, 1)
  obj331: "Any" = m329.padding
  i2641: "int 0" = obj331[0]
  prims.check_number_type_and_value(i2641, 0)
  i2642: "int 0" = obj331[1]
  prims.check_number_type_and_value(i2642, 0)
  obj332: "Any" = m329.dilation
  i2643: "int 1" = obj332[0]
  prims.check_number_type_and_value(i2643, 1)
  i2644: "int 1" = obj332[1]
  prims.check_number_type_and_value(i2644, 1)
  i2645: "int 1" = m329.groups
  prims.check_number_type_and_value(i2645, 1)
  m333: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.a.1')
  f2647: "float 0.1" = m333.momentum
  prims.check_number_type_and_value(f2647, 0.1)
  i2648: "bool True" = m333.training
  prims.check_number_type_and_value(i2648, True)
  i2649: "bool True" = m333.track_running_stats
  prims.check_number_type_and_value(i2649, True)
  i2650: "bool True" = m333.training
  prims.check_number_type_and_value(i2650, True)
  i2651: "int 440" = m333.num_features
  prims.check_number_type_and_value(i2651, 440)
  f2652: "float 1e-05" = m333.eps
  prims.check_number_type_and_value(f2652, 1e-05)
  f2653: "float 0.1" = m333.momentum
  prims.check_number_type_and_value(f2653, 0.1)
  i2654: "bool True" = m333.affine
  prims.check_number_type_and_value(i2654, True)
  i2655: "bool True" = m333.track_running_stats
  prims.check_number_type_and_value(i2655, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_a_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_a_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_a_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_a_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2658: "float 1e-05" = m333.eps
  prims.check_number_type_and_value(f2658, 1e-05)
  m334: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.a.2')
  i2691: "bool True" = m334.inplace
  prims.check_number_type_and_value(i2691, True)
  m335: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.b.0')
  i2695: "bool True" = m335.training
  prims.check_number_type_and_value(i2695, True)
  i2696: "int 440" = m335.in_channels
  prims.check_number_type_and_value(i2696, 440)
  i2697: "int 440" = m335.out_channels
  prims.check_number_type_and_value(i2697, 440)
  i2698: "bool False" = m335.transposed
  prims.check_number_type_and_value(i2698, False)
  i2699: "int 55" = m335.groups
  prims.check_number_type_and_value(i2699, 55)
  s2700: "str" = m335.padding_mode
  prims.check_string_value(s2700, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_b_0_weight, (440, 8, 3, 3), 'cuda:0', torch.float32, True)
  s2701: "str" = m335.padding_mode
  prims.check_string_value(s2701, 'zeros')
  obj336: "Any" = m335.stride
  i2702: "int 2" = obj336[0]
  prims.check_number_type_and_value(i2702, 2)
  i2703: "int 2" = obj336[1]
  prims.check_number_type_and_value(i2703, 2)
  obj337: "Any" = m335.padding
  i2704: "int 1" = obj337[0]
  prims.check_number_type_and_value(i2704, 1)
  i2705: "int 1" = obj337[1]
  prims.check_number_type_and_value(i2705, 1)
  obj338: "Any" = m335.dilation
  i2706: "int 1" = obj338[0]
  prims.check_number_type_and_value(i2706, 1)
  i2707: "int 1" = obj338[1]
  prims.check_number_type_and_value(i2707, 1)
  i2708: "int 55" = m335.groups
  prims.check_number_type_and_value(i2708, 55)
  m339: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.b.1')
  f2710: "float 0.1" = m339.momentum
  prims.check_number_type_and_value(f2710, 0.1)
  i2711: "bool True" = m339.training
  prims.check_number_type_and_value(i2711, True)
  i2712: "bool True" = m339.track_running_stats
  prims.check_number_type_and_value(i2712, True)
  i2713: "bool True" = m339.training
  prims.check_number_type_and_value(i2713, True)
  i2714: "int 440" = m339.num_features
  prims.check_number_type_and_value(i2714, 440)
  f2715: "float 1e-05" = m339.eps
  prims.check_number_type_and_value(f2715, 1e-05)
  f2716: "float 0.1" = m339.momentum
  prims.check_number_type_and_value(f2716, 0.1)
  i2717: "bool True" = m339.affine
  prims.check_number_type_and_value(i2717, True)
  i2718: "bool True" = m339.track_running_stats
  prims.check_number_type_and_value(i2718, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_b_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_b_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_b_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_b_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2721: "float 1e-05" = m339.eps
  prims.check_number_type_and_value(f2721, 1e-05)
  m340: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.b.2')
  i2754: "bool True" = m340.inplace
  prims.check_number_type_and_value(i2754, True)
  m341: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.se')
  i2758: "bool True" = m341.training
  prims.check_number_type_and_value(i2758, True)
  m342: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.se.avgpool')
  i2759: "int 1" = m342.output_size
  prims.check_number_type_and_value(i2759, 1)
  m343: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.se.fc1')
  i2761: "bool True" = m343.training
  prims.check_number_type_and_value(i2761, True)
  i2762: "int 440" = m343.in_channels
  prims.check_number_type_and_value(i2762, 440)
  i2763: "int 52" = m343.out_channels
  prims.check_number_type_and_value(i2763, 52)
  i2764: "bool False" = m343.transposed
  prims.check_number_type_and_value(i2764, False)
  i2765: "int 1" = m343.groups
  prims.check_number_type_and_value(i2765, 1)
  s2766: "str" = m343.padding_mode
  prims.check_string_value(s2766, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_se_fc1_weight, (52, 440, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_se_fc1_bias, (52,), 'cuda:0', torch.float32, True)
  s2767: "str" = m343.padding_mode
  prims.check_string_value(s2767, 'zeros')
  obj344: "Any" = m343.stride
  i2768: "int 1" = obj344[0]
  prims.check_number_type_and_value(i2768, 1)
  i2769: "int 1" = obj344[1]
  prims.check_number_type_and_value(i2769, 1)
  obj345: "Any" = m343.padding
  i2770: "int 0" = obj345[0]
  prims.check_number_type_and_value(i2770, 0)
  i2771: "int 0" = obj345[1]
  prims.check_number_type_and_value(i2771, 0)
  obj346: "Any" = m343.dilation
  i2772: "int 1" = obj346[0]
  prims.check_number_type_and_value(i2772, 1)
  i2773: "int 1" = obj346[1]
  prims.check_number_type_and_value(i2773, 1)
  i2774: "int 1" = m343.groups
  prims.check_number_type_and_value(i2774, 1)
  m347: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.se.activation')
  i2776: "bool False" = m347.inplace
  prims.check_number_type_and_value(i2776, False)
  m348: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.se.fc2')
  i2779: "bool True" = m348.training
  prims.check_number_type_and_value(i2779, True)
  i2780: "int 52" = m348.in_channels
  prims.check_number_type_and_value(i2780, 52)
  i2781: "int 440" = m348.out_channels
  prims.check_number_type_and_value(i2781, 440)
  i2782: "bool False" = m348.transposed
  prims.check_number_type_and_value(i2782, False)
  i2783: "int 1" = m348.groups
  prims.check_number_type_and_value(i2783, 1)
  s2784: "str" = m348.padding_mode
  prims.check_string_value(s2784, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_se_fc2_weight, (440, 52, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_se_fc2_bias, (440,), 'cuda:0', torch.float32, True)
  s2785: "str" = m348.padding_mode
  prims.check_string_value(s2785, 'zeros')
  obj349: "Any" = m348.stride
  i2786: "int 1" = obj349[0]
  prims.check_number_type_and_value(i2786, 1)
  i2787: "int 1" = obj349[1]
  prims.check_number_type_and_value(i2787, 1)
  obj350: "Any" = m348.padding
  i2788: "int 0" = obj350[0]
  prims.check_number_type_and_value(i2788, 0)
  i2789: "int 0" = obj350[1]
  prims.check_number_type_and_value(i2789, 0)
  obj351: "Any" = m348.dilation
  i2790: "int 1" = obj351[0]
  prims.check_number_type_and_value(i2790, 1)
  i2791: "int 1" = obj351[1]
  prims.check_number_type_and_value(i2791, 1)
  i2792: "int 1" = m348.groups
  prims.check_number_type_and_value(i2792, 1)
  m352: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.c.0')
  i2800: "bool True" = m352.training
  prims.check_number_type_and_value(i2800, True)
  i2801: "int 440" = m352.in_channels
  prims.check_number_type_and_value(i2801, 440)
  i2802: "int 440" = m352.out_channels
  prims.check_number_type_and_value(i2802, 440)
  i2803: "bool False" = m352.transposed
  prims.check_number_type_and_value(i2803, False)
  i2804: "int 1" = m352.groups
  prims.check_number_type_and_value(i2804, 1)
  s2805: "str" = m352.padding_mode
  prims.check_string_value(s2805, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_c_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s2806: "str" = m352.padding_mode
  prims.check_string_value(s2806, 'zeros')
  obj353: "Any" = m352.stride
  i2807: "int 1" = obj353[0]
  prims.check_number_type_and_value(i2807, 1)
  i2808: "int 1" = obj353[1]
  prims.check_number_type_and_value(i2808, 1)
  obj354: "Any" = m352.padding
  i2809: "int 0" = obj354[0]
  prims.check_number_type_and_value(i2809, 0)
  i2810: "int 0" = obj354[1]
  prims.check_number_type_and_value(i2810, 0)
  obj355: "Any" = m352.dilation
  i2811: "int 1" = obj355[0]
  prims.check_number_type_and_value(i2811, 1)
  i2812: "int 1" = obj355[1]
  prims.check_number_type_and_value(i2812, 1)
  i2813: "int 1" = m352.groups
  prims.check_number_type_and_value(i2813, 1)
  m356: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.f.c.1')
  f2815: "float 0.1" = m356.momentum
  prims.check_number_type_and_value(f2815, 0.1)
  i2816: "bool True" = m356.training
  prims.check_number_type_and_value(i2816, True)
  i2817: "bool True" = m356.track_running_stats
  prims.check_number_type_and_value(i2817, True)
  i2818: "bool True" = m356.training
  prims.check_number_type_and_value(i2818, True)
  i2819: "int 440" = m356.num_features
  prims.check_number_type_and_value(i2819, 440)
  f2820: "float 1e-05" = m356.eps
  prims.check_number_type_and_value(f2820, 1e-05)
  f2821: "float 0.1" = m356.momentum
  prims.check_number_type_and_value(f2821, 0.1)
  i2822: "bool True" = m356.affine
  prims.check_number_type_and_value(i2822, True)
  i2823: "bool True" = m356.track_running_stats
  prims.check_number_type_and_value(i2823, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_c_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_c_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_c_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_c_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-0_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2826: "float 1e-05" = m356.eps
  prims.check_number_type_and_value(f2826, 1e-05)
  m357: "Any" = module.get_submodule('model.trunk_output.block4.block4-0.activation')
  i2860: "bool True" = m357.inplace
  prims.check_number_type_and_value(i2860, True)
  m358: "Any" = module.get_submodule('model.trunk_output.block4.block4-1')
  i2864: "bool True" = m358.training
  prims.check_number_type_and_value(i2864, True)
  m359: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.a.0')
  i2865: "bool True" = m359.training
  prims.check_number_type_and_value(i2865, True)
  i2866: "int 440" = m359.in_channels
  prims.check_number_type_and_value(i2866, 440)
  i2867: "int 440" = m359.out_channels
  prims.check_number_type_and_value(i2867, 440)
  i2868: "bool False" = m359.transposed
  prims.check_number_type_and_value(i2868, False)
  i2869: "int 1" = m359.groups
  prims.check_number_type_and_value(i2869, 1)
  s2870: "str" = m359.padding_mode
  prims.check_string_value(s2870, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_a_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s2871: "str" = m359.padding_mode
  prims.check_string_value(s2871, 'zeros')
  obj360: "Any" = m359.stride
  i2872: "int 1" = obj360[0]
  prims.check_number_type_and_value(i2872, 1)
  i2873: "int 1" = obj360[1]
  prims.check_number_type_and_value(i2873, 1)
  obj361: "Any" = m359.padding
  i2874: "int 0" = obj361[0]
  prims.check_number_type_and_value(i2874, 0)
  i2875: "int 0" = obj361[1]
  prims.check_number_type_and_value(i2875, 0)
  obj362: "Any" = m359.dilation
  i2876: "int 1" = obj362[0]
  prims.check_number_type_and_value(i2876, 1)
  i2877: "int 1" = obj362[1]
  prims.check_number_type_and_value(i2877, 1)
  i2878: "int 1" = m359.groups
  prims.check_number_type_and_value(i2878, 1)
  m363: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.a.1')
  f2880: "float 0.1" = m363.momentum
  prims.check_number_type_and_value(f2880, 0.1)
  i2881: "bool True" = m363.training
  prims.check_number_type_and_value(i2881, True)
  i2882: "bool True" = m363.track_running_stats
  prims.check_number_type_and_value(i2882, True)
  i2883: "bool True" = m363.training
  prims.check_number_type_and_value(i2883, True)
  i2884: "int 440" = m363.num_features
  prims.check_number_type_and_value(i2884, 440)
  f2885: "float 1e-05" = m363.eps
  prims.check_number_type_and_value(f2885, 1e-05)
  f2886: "float 0.1" = m363.momentum
  prims.check_number_type_and_value(f2886, 0.1)
  i2887: "bool True" = m363.affine
  prims.check_number_type_and_value(i2887, True)
  i2888: "bool True" = m363.track_running_stats
  prims.check_number_type_and_value(i2888, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_a_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_a_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_a_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_a_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2891: "float 1e-05" = m363.eps
  prims.check_number_type_and_value(f2891, 1e-05)
  m364: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.a.2')
  i2924: "bool True" = m364.inplace
  prims.check_number_type_and_value(i2924, True)
  m365: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.b.0')
  i2928: "bool True" = m365.training
  prims.check_number_type_and_value(i2928, True)
  i2929: "int 440" = m365.in_channels
  prims.check_number_type_and_value(i2929, 440)
  i2930: "int 440" = m365.out_channels
  prims.check_number_type_and_value(i2930, 440)
  i2931: "bool False" = m365.transposed
  prims.check_number_type_and_value(i2931, False)
  i2932: "int 55" = m365.groups
  prims.check_number_type_and_value(i2932, 55)
  s2933: "str" = m365.padding_mode
  prims.check_string_value(s2933, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_b_0_weight, (440, 8, 3, 3), 'cuda:0', torch.float32, True)
  s2934: "str" = m365.padding_mode
  prims.check_string_value(s2934, 'zeros')
  obj366: "Any" = m365.stride
  i2935: "int 1" = obj366[0]
  prims.check_number_type_and_value(i2935, 1)
  i2936: "int 1" = obj366[1]
  prims.check_number_type_and_value(i2936, 1)
  obj367: "Any" = m365.padding
  i2937: "int 1" = obj367[0]
  prims.check_number_type_and_value(i2937, 1)
  i2938: "int 1" = obj367[1]
  prims.check_number_type_and_value(i2938, 1)
  obj368: "Any" = m365.dilation
  i2939: "int 1" = obj368[0]
  prims.check_number_type_and_value(i2939, 1)
  i2940: "int 1" = obj368[1]
  prims.check_number_type_and_value(i2940, 1)
  i2941: "int 55" = m365.groups
  prims.check_number_type_and_value(i2941, 55)
  m369: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.b.1')
  f2943: "float 0.1" = m369.momentum
  prims.check_number_type_and_value(f2943, 0.1)
  i2944: "bool True" = m369.training
  prims.check_number_type_and_value(i2944, True)
  i2945: "bool True" = m369.track_running_stats
  prims.check_number_type_and_value(i2945, True)
  i2946: "bool True" = m369.training
  prims.check_number_type_and_value(i2946, True)
  i2947: "int 440" = m369.num_features
  prims.check_number_type_and_value(i2947, 440)
  f2948: "float 1e-05" = m369.eps
  prims.check_number_type_and_value(f2948, 1e-05)
  f2949: "float 0.1" = m369.momentum
  prims.check_number_type_and_value(f2949, 0.1)
  i2950: "bool True" = m369.affine
  prims.check_number_type_and_value(i2950, True)
  i2951: "bool True" = m369.track_running_stats
  prims.check_number_type_and_value(i2951, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_b_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_b_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_b_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_b_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f2954: "float 1e-05" = m369.eps
  prims.check_number_type_and_value(f2954, 1e-05)
  m370: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.b.2')
  i2987: "bool True" = m370.inplace
  prims.check_number_type_and_value(i2987, True)
  m371: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.se')
  i2991: "bool True" = m371.training
  prims.check_number_type_and_value(i2991, True)
  m372: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.se.avgpool')
  i2992: "int 1" = m372.output_size
  prims.check_number_type_and_value(i2992, 1)
  m373: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.se.fc1')
  i2994: "bool True" = m373.training
  prims.check_number_type_and_value(i2994, True)
  i2995: "int 440" = m373.in_channels
  prims.check_number_type_and_value(i2995, 440)
  i2996: "int 110" = m373.out_channels
  prims.check_number_type_and_value(i2996, 110)
  i2997: "bool False" = m373.transposed
  prims.check_number_type_and_value(i2997, False)
  i2998: "int 1" = m373.groups
  prims.check_number_type_and_value(i2998, 1)
  s2999: "str" = m373.padding_mode
  prims.check_string_value(s2999, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_se_fc1_weight, (110, 440, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_se_fc1_bias, (110,), 'cuda:0', torch.float32, True)
  s3000: "str" = m373.padding_mode
  prims.check_string_value(s3000, 'zeros')
  obj374: "Any" = m373.stride
  i3001: "int 1" = obj374[0]
  prims.check_number_type_and_value(i3001, 1)
  i3002: "int 1" = obj374[1]
  prims.check_number_type_and_value(i3002, 1)
  obj375: "Any" = m373.padding
  i3003: "int 0" = obj375[0]
  prims.check_number_type_and_value(i3003, 0)
  i3004: "int 0" = obj375[1]
  prims.check_number_type_and_value(i3004, 0)
  obj376: "Any" = m373.dilation
  i3005: "int 1" = obj376[0]
  prims.check_number_type_and_value(i3005, 1)
  i3006: "int 1" = obj376[1]
  prims.check_number_type_and_value(i3006, 1)
  i3007: "int 1" = m373.groups
  prims.check_number_type_and_value(i3007, 1)
  m377: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.se.activation')
  i3009: "bool False" = m377.inplace
  prims.check_number_type_and_value(i3009, False)
  m378: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.se.fc2')
  i3012: "bool True" = m378.training
  prims.check_number_type_and_value(i3012, True)
  i3013: "int 110" = m378.in_channels
  prims.check_number_type_and_value(i3013, 110)
  i3014: "int 440" = m378.out_channels
  prims.check_number_type_and_value(i3014, 440)
  i3015: "bool False" = m378.transposed
  prims.check_number_type_and_value(i3015, False)
  i3016: "int 1" = m378.groups
  prims.check_number_type_and_value(i3016, 1)
  s3017: "str" = m378.padding_mode
  prims.check_string_value(s3017, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_se_fc2_weight, (440, 110, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_se_fc2_bias, (440,), 'cuda:0', torch.float32, True)
  s3018: "str" = m378.padding_mode
  prims.check_string_value(s3018, 'zeros')
  obj379: "Any" = m378.stride
  i3019: "int 1" = obj379[0]
  prims.check_number_type_and_value(i3019, 1)
  i3020: "int 1" = obj379[1]
  prims.check_number_type_and_value(i3020, 1)
  obj380: "Any" = m378.padding
  i3021: "int 0" = obj380[0]
  prims.check_number_type_and_value(i3021, 0)
  i3022: "int 0" = obj380[1]
  prims.check_number_type_and_value(i3022, 0)
  obj381: "Any" = m378.dilation
  i3023: "int 1" = obj381[0]
  prims.check_number_type_and_value(i3023, 1)
  i3024: "int 1" = obj381[1]
  prims.check_number_type_and_value(i3024, 1)
  i3025: "int 1" = m378.groups
  prims.check_number_type_and_value(i3025, 1)
  m382: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.c.0')
  i3033: "bool True" = m382.training
  prims.check_number_type_and_value(i3033, True)
  i3034: "int 440" = m382.in_channels
  prims.check_number_type_and_value(i3034, 440)
  i3035: "int 440" = m382.out_channels
  prims.check_number_type_and_value(i3035, 440)
  i3036: "bool False" = m382.transposed
  prims.check_number_type_and_value(i3036, False)
  i3037: "int 1" = m382.groups
  prims.check_number_type_and_value(i3037, 1)
  s3038: "str" = m382.padding_mode
  prims.check_string_value(s3038, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_c_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3039: "str" = m382.padding_mode
  prims.check_string_value(s3039, 'zeros')
  obj383: "Any" = m382.stride
  i3040: "int 1" = obj383[0]
  prims.check_number_type_and_value(i3040, 1)
  i3041: "int 1" = obj383[1]
  prims.check_number_type_and_value(i3041, 1)
  obj384: "Any" = m382.padding
  i3042: "int 0" = obj384[0]
  prims.check_number_type_and_value(i3042, 0)
  i3043: "int 0" = obj384[1]
  prims.check_number_type_and_value(i3043, 0)
  obj385: "Any" = m382.dilation
  i3044: "int 1" = obj385[0]
  prims.check_number_type_and_value(i3044, 1)
  i3045: "int 1" = obj385[1]
  prims.check_number_type_and_value(i3045, 1)
  i3046: "int 1" = m382.groups
  prims.check_number_type_and_value(i3046, 1)
  m386: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.f.c.1')
  f3048: "float 0.1" = m386.momentum
  prims.check_number_type_and_value(f3048, 0.1)
  i3049: "bool True" = m386.training
  prims.check_number_type_and_value(i3049, True)
  i3050: "bool True" = m386.track_running_stats
  prims.check_number_type_and_value(i3050, True)
  i3051: "bool True" = m386.training
  prims.check_number_type_and_value(i3051, True)
  i3052: "int 440" = m386.num_features
  prims.check_number_type_and_value(i3052, 440)
  f3053: "float 1e-05" = m386.eps
  prims.check_number_type_and_value(f3053, 1e-05)
  f3054: "float 0.1" = m386.momentum
  prims.check_number_type_and_value(f3054, 0.1)
  i3055: "bool True" = m386.affine
  prims.check_number_type_and_value(i3055, True)
  i3056: "bool True" = m386.track_running_stats
  prims.check_number_type_and_value(i3056, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_c_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_c_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_c_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_c_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-1_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3059: "float 1e-05" = m386.eps
  prims.check_number_type_and_value(f3059, 1e-05)
  m387: "Any" = module.get_submodule('model.trunk_output.block4.block4-1.activation')
  i3093: "bool True" = m387.inplace
  prims.check_number_type_and_value(i3093, True)
  m388: "Any" = module.get_submodule('model.trunk_output.block4.block4-2')
  i3097: "bool True" = m388.training
  prims.check_number_type_and_value(i3097, True)
  m389: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.a.0')
  i3098: "bool True" = m389.training
  prims.check_number_type_and_value(i3098, True)
  i3099: "int 440" = m389.in_channels
  prims.check_number_type_and_value(i3099, 440)
  i3100: "int 440" = m389.out_channels
  prims.check_number_type_and_value(i3100, 440)
  i3101: "bool False" = m389.transposed
  prims.check_number_type_and_value(i3101, False)
  i3102: "int 1" = m389.groups
  prims.check_number_type_and_value(i3102, 1)
  s3103: "str" = m389.padding_mode
  prims.check_string_value(s3103, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_a_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3104: "str" = m389.padding_mode
  prims.check_string_value(s3104, 'zeros')
  obj390: "Any" = m389.stride
  i3105: "int 1" = obj390[0]
  prims.check_number_type_and_value(i3105, 1)
  i3106: "int 1" = obj390[1]
  prims.check_number_type_and_value(i3106, 1)
  obj391: "Any" = m389.padding
  i3107: "int 0" = obj391[0]
  prims.check_number_type_and_value(i3107, 0)
  i3108: "int 0" = obj391[1]
  prims.check_number_type_and_value(i3108, 0)
  obj392: "Any" = m389.dilation
  i3109: "int 1" = obj392[0]
  prims.check_number_type_and_value(i3109, 1)
  i3110: "int 1" = obj392[1]
  prims.check_number_type_and_value(i3110, 1)
  i3111: "int 1" = m389.groups
  prims.check_number_type_and_value(i3111, 1)
  m393: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.a.1')
  f3113: "float 0.1" = m393.momentum
  prims.check_number_type_and_value(f3113, 0.1)
  i3114: "bool True" = m393.training
  prims.check_number_type_and_value(i3114, True)
  i3115: "bool True" = m393.track_running_stats
  prims.check_number_type_and_value(i3115, True)
  i3116: "bool True" = m393.training
  prims.check_number_type_and_value(i3116, True)
  i3117: "int 440" = m393.num_features
  prims.check_number_type_and_value(i3117, 440)
  f3118: "float 1e-05" = m393.eps
  prims.check_number_type_and_value(f3118, 1e-05)
  f3119: "float 0.1" = m393.momentum
  prims.check_number_type_and_value(f3119, 0.1)
  i3120: "bool True" = m393.affine
  prims.check_number_type_and_value(i3120, True)
  i3121: "bool True" = m393.track_running_stats
  prims.check_number_type_and_value(i3121, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_a_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_a_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_a_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_a_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3124: "float 1e-05" = m393.eps
  prims.check_number_type_and_value(f3124, 1e-05)
  m394: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.a.2')
  i3157: "bool True" = m394.inplace
  prims.check_number_type_and_value(i3157, True)
  m395: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.b.0')
  i3161: "bool True" = m395.training
  prims.check_number_type_and_value(i3161, True)
  i3162: "int 440" = m395.in_channels
  prims.check_number_type_and_value(i3162, 440)
  i3163: "int 440" = m395.out_channels
  prims.check_number_type_and_value(i3163, 440)
  i3164: "bool False" = m395.transposed
  prims.check_number_type_and_value(i3164, False)
  i3165: "int 55" = m395.groups
  prims.check_number_type_and_value(i3165, 55)
  s3166: "str" = m395.padding_mode
  prims.check_string_value(s3166, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_b_0_weight, (440, 8, 3, 3), 'cuda:0', torch.float32, True)
  s3167: "str" = m395.padding_mode
  prims.check_string_value(s3167, 'zeros')
  obj396: "Any" = m395.stride
  i3168: "int 1" = obj396[0]
  prims.check_number_type_and_value(i3168, 1)
  i3169: "int 1" = obj396[1]
  prims.check_number_type_and_value(i3169, 1)
  obj397: "Any" = m395.padding
  i3170: "int 1" = obj397[0]
  prims.check_number_type_and_value(i3170, 1)
  i3171: "int 1" = obj397[1]
  prims.check_number_type_and_value(i3171, 1)
  obj398: "Any" = m395.dilation
  i3172: "int 1" = obj398[0]
  prims.check_number_type_and_value(i3172, 1)
  i3173: "int 1" = obj398[1]
  prims.check_number_type_and_value(i3173, 1)
  i3174: "int 55" = m395.groups
  prims.check_number_type_and_value(i3174, 55)
  m399: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.b.1')
  f3176: "float 0.1" = m399.momentum
  prims.check_number_type_and_value(f3176, 0.1)
  i3177: "bool True" = m399.training
  prims.check_number_type_and_value(i3177, True)
  i3178: "bool True" = m399.track_running_stats
  prims.check_number_type_and_value(i3178, True)
  i3179: "bool True" = m399.training
  prims.check_number_type_and_value(i3179, True)
  i3180: "int 440" = m399.num_features
  prims.check_number_type_and_value(i3180, 440)
  f3181: "float 1e-05" = m399.eps
  prims.check_number_type_and_value(f3181, 1e-05)
  f3182: "float 0.1" = m399.momentum
  prims.check_number_type_and_value(f3182, 0.1)
  i3183: "bool True" = m399.affine
  prims.check_number_type_and_value(i3183, True)
  i3184: "bool True" = m399.track_running_stats
  prims.check_number_type_and_value(i3184, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_b_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_b_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_b_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_b_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3187: "float 1e-05" = m399.eps
  prims.check_number_type_and_value(f3187, 1e-05)
  m400: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.b.2')
  i3220: "bool True" = m400.inplace
  prims.check_number_type_and_value(i3220, True)
  m401: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.se')
  i3224: "bool True" = m401.training
  prims.check_number_type_and_value(i3224, True)
  m402: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.se.avgpool')
  i3225: "int 1" = m402.output_size
  prims.check_number_type_and_value(i3225, 1)
  m403: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.se.fc1')
  i3227: "bool True" = m403.training
  prims.check_number_type_and_value(i3227, True)
  i3228: "int 440" = m403.in_channels
  prims.check_number_type_and_value(i3228, 440)
  i3229: "int 110" = m403.out_channels
  prims.check_number_type_and_value(i3229, 110)
  i3230: "bool False" = m403.transposed
  prims.check_number_type_and_value(i3230, False)
  i3231: "int 1" = m403.groups
  prims.check_number_type_and_value(i3231, 1)
  s3232: "str" = m403.padding_mode
  prims.check_string_value(s3232, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_se_fc1_weight, (110, 440, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_se_fc1_bias, (110,), 'cuda:0', torch.float32, True)
  s3233: "str" = m403.padding_mode
  prims.check_string_value(s3233, 'zeros')
  obj404: "Any" = m403.stride
  i3234: "int 1" = obj404[0]
  prims.check_number_type_and_value(i3234, 1)
  i3235: "int 1" = obj404[1]
  prims.check_number_type_and_value(i3235, 1)
  obj405: "Any" = m403.padding
  i3236: "int 0" = obj405[0]
  prims.check_number_type_and_value(i3236, 0)
  i3237: "int 0" = obj405[1]
  prims.check_number_type_and_value(i3237, 0)
  obj406: "Any" = m403.dilation
  i3238: "int 1" = obj406[0]
  prims.check_number_type_and_value(i3238, 1)
  i3239: "int 1" = obj406[1]
  prims.check_number_type_and_value(i3239, 1)
  i3240: "int 1" = m403.groups
  prims.check_number_type_and_value(i3240, 1)
  m407: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.se.activation')
  i3242: "bool False" = m407.inplace
  prims.check_number_type_and_value(i3242, False)
  m408: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.se.fc2')
  i3245: "bool True" = m408.training
  prims.check_number_type_and_value(i3245, True)
  i3246: "int 110" = m408.in_channels
  prims.check_number_type_and_value(i3246, 110)
  i3247: "int 440" = m408.out_channels
  prims.check_number_type_and_value(i3247, 440)
  i3248: "bool False" = m408.transposed
  prims.check_number_type_and_value(i3248, False)
  i3249: "int 1" = m408.groups
  prims.check_number_type_and_value(i3249, 1)
  s3250: "str" = m408.padding_mode
  prims.check_string_value(s3250, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_se_fc2_weight, (440, 110, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_se_fc2_bias, (440,), 'cuda:0', torch.float32, True)
  s3251: "str" = m408.padding_mode
  prims.check_string_value(s3251, 'zeros')
  obj409: "Any" = m408.stride
  i3252: "int 1" = obj409[0]
  prims.check_number_type_and_value(i3252, 1)
  i3253: "int 1" = obj409[1]
  prims.check_number_type_and_value(i3253, 1)
  obj410: "Any" = m408.padding
  i3254: "int 0" = obj410[0]
  prims.check_number_type_and_value(i3254, 0)
  i3255: "int 0" = obj410[1]
  prims.check_number_type_and_value(i3255, 0)
  obj411: "Any" = m408.dilation
  i3256: "int 1" = obj411[0]
  prims.check_number_type_and_value(i3256, 1)
  i3257: "int 1" = obj411[1]
  prims.check_number_type_and_value(i3257, 1)
  i3258: "int 1" = m408.groups
  prims.check_number_type_and_value(i3258, 1)
  m412: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.c.0')
  i3266: "bool True" = m412.training
  prims.check_number_type_and_value(i3266, True)
  i3267: "int 440" = m412.in_channels
  prims.check_number_type_and_value(i3267, 440)
  i3268: "int 440" = m412.out_channels
  prims.check_number_type_and_value(i3268, 440)
  i3269: "bool False" = m412.transposed
  prims.check_number_type_and_value(i3269, False)
  i3270: "int 1" = m412.groups
  prims.check_number_type_and_value(i3270, 1)
  s3271: "str" = m412.padding_mode
  prims.check_string_value(s3271, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_c_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3272: "str" = m412.padding_mode
  prims.check_string_value(s3272, 'zeros')
  obj413: "Any" = m412.stride
  i3273: "int 1" = obj413[0]
  prims.check_number_type_and_value(i3273, 1)
  i3274: "int 1" = obj413[1]
  prims.check_number_type_and_value(i3274, 1)
  obj414: "Any" = m412.padding
  i3275: "int 0" = obj414[0]
  prims.check_number_type_and_value(i3275, 0)
  i3276: "int 0" = obj414[1]
  prims.check_number_type_and_value(i3276, 0)
  obj415: "Any" = m412.dilation
  i3277: "int 1" = obj415[0]
  prims.check_number_type_and_value(i3277, 1)
  i3278: "int 1" = obj415[1]
  prims.check_number_type_and_value(i3278, 1)
  i3279: "int 1" = m412.groups
  prims.check_number_type_and_value(i3279, 1)
  m416: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.f.c.1')
  f3281: "float 0.1" = m416.momentum
  prims.check_number_type_and_value(f3281, 0.1)
  i3282: "bool True" = m416.training
  prims.check_number_type_and_value(i3282, True)
  i3283: "bool True" = m416.track_running_stats
  prims.check_number_type_and_value(i3283, True)
  i3284: "bool True" = m416.training
  prims.check_number_type_and_value(i3284, True)
  i3285: "int 440" = m416.num_features
  prims.check_number_type_and_value(i3285, 440)
  f3286: "float 1e-05" = m416.eps
  prims.check_number_type_and_value(f3286, 1e-05)
  f3287: "float 0.1" = m416.momentum
  prims.check_number_type_and_value(f3287, 0.1)
  i3288: "bool True" = m416.affine
  prims.check_number_type_and_value(i3288, True)
  i3289: "bool True" = m416.track_running_stats
  prims.check_number_type_and_value(i3289, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_c_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_c_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_c_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_c_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-2_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3292: "float 1e-05" = m416.eps
  prims.check_number_type_and_value(f3292, 1e-05)
  m417: "Any" = module.get_submodule('model.trunk_output.block4.block4-2.activation')
  i3326: "bool True" = m417.inplace
  prims.check_number_type_and_value(i3326, True)
  m418: "Any" = module.get_submodule('model.trunk_output.block4.block4-3')
  i3330: "bool True" = m418.training
  prims.check_number_type_and_value(i3330, True)
  m419: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.a.0')
  i3331: "bool True" = m419.training
  prims.check_number_type_and_value(i3331, True)
  i3332: "int 440" = m419.in_channels
  prims.check_number_type_and_value(i3332, 440)
  i3333: "int 440" = m419.out_channels
  prims.check_number_type_and_value(i3333, 440)
  i3334: "bool False" = m419.transposed
  prims.check_number_type_and_value(i3334, False)
  i3335: "int 1" = m419.groups
  prims.check_number_type_and_value(i3335, 1)
  s3336: "str" = m419.padding_mode
  prims.check_string_value(s3336, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_a_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3337: "str" = m419.padding_mode
  prims.check_string_value(s3337, 'zeros')
  obj420: "Any" = m419.stride
  i3338: "int 1" = obj420[0]
  prims.check_number_type_and_value(i3338, 1)
  i3339: "int 1" = obj420[1]
  prims.check_number_type_and_value(i3339, 1)
  obj421: "Any" = m419.padding
  i3340: "int 0" = obj421[0]
  prims.check_number_type_and_value(i3340, 0)
  i3341: "int 0" = obj421[1]
  prims.check_number_type_and_value(i3341, 0)
  obj422: "Any" = m419.dilation
  i3342: "int 1" = obj422[0]
  prims.check_number_type_and_value(i3342, 1)
  i3343: "int 1" = obj422[1]
  prims.check_number_type_and_value(i3343, 1)
  i3344: "int 1" = m419.groups
  prims.check_number_type_and_value(i3344, 1)
  m423: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.a.1')
  f3346: "float 0.1" = m423.momentum
  prims.check_number_type_and_value(f3346, 0.1)
  i3347: "bool True" = m423.training
  prims.check_number_type_and_value(i3347, True)
  i3348: "bool True" = m423.track_running_stats
  prims.check_number_type_and_value(i3348, True)
  i3349: "bool True" = m423.training
  prims.check_number_type_and_value(i3349, True)
  i3350: "int 440" = m423.num_features
  prims.check_number_type_and_value(i3350, 440)
  f3351: "float 1e-05" = m423.eps
  prims.check_number_type_and_value(f3351, 1e-05)
  f3352: "float 0.1" = m423.momentum
  prims.check_number_type_and_value(f3352, 0.1)
  i3353: "bool True" = m423.affine
  prims.check_number_type_and_value(i3353, True)
  i3354: "bool True" = m423.track_running_stats
  prims.check_number_type_and_value(i3354, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_a_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_a_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_a_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_a_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3357: "float 1e-05" = m423.eps
  prims.check_number_type_and_value(f3357, 1e-05)
  m424: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.a.2')
  i3390: "bool True" = m424.inplace
  prims.check_number_type_and_value(i3390, True)
  m425: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.b.0')
  i3394: "bool True" = m425.training
  prims.check_number_type_and_value(i3394, True)
  i3395: "int 440" = m425.in_channels
  prims.check_number_type_and_value(i3395, 440)
  i3396: "int 440" = m425.out_channels
  prims.check_number_type_and_value(i3396, 440)
  i3397: "bool False" = m425.transposed
  prims.check_number_type_and_value(i3397, False)
  i3398: "int 55" = m425.groups
  prims.check_number_type_and_value(i3398, 55)
  s3399: "str" = m425.padding_mode
  prims.check_string_value(s3399, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_b_0_weight, (440, 8, 3, 3), 'cuda:0', torch.float32, True)
  s3400: "str" = m425.padding_mode
  prims.check_string_value(s3400, 'zeros')
  obj426: "Any" = m425.stride
  i3401: "int 1" = obj426[0]
  prims.check_number_type_and_value(i3401, 1)
  i3402: "int 1" = obj426[1]
  prims.check_number_type_and_value(i3402, 1)
  obj427: "Any" = m425.padding
  i3403: "int 1" = obj427[0]
  prims.check_number_type_and_value(i3403, 1)
  i3404: "int 1" = obj427[1]
  prims.check_number_type_and_value(i3404, 1)
  obj428: "Any" = m425.dilation
  i3405: "int 1" = obj428[0]
  prims.check_number_type_and_value(i3405, 1)
  i3406: "int 1" = obj428[1]
  prims.check_number_type_and_value(i3406, 1)
  i3407: "int 55" = m425.groups
  prims.check_number_type_and_value(i3407, 55)
  m429: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.b.1')
  f3409: "float 0.1" = m429.momentum
  prims.check_number_type_and_value(f3409, 0.1)
  i3410: "bool True" = m429.training
  prims.check_number_type_and_value(i3410, True)
  i3411: "bool True" = m429.track_running_stats
  prims.check_number_type_and_value(i3411, True)
  i3412: "bool True" = m429.training
  prims.check_number_type_and_value(i3412, True)
  i3413: "int 440" = m429.num_features
  prims.check_number_type_and_value(i3413, 440)
  f3414: "float 1e-05" = m429.eps
  prims.check_number_type_and_value(f3414, 1e-05)
  f3415: "float 0.1" = m429.momentum
  prims.check_number_type_and_value(f3415, 0.1)
  i3416: "bool True" = m429.affine
  prims.check_number_type_and_value(i3416, True)
  i3417: "bool True" = m429.track_running_stats
  prims.check_number_type_and_value(i3417, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_b_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_b_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_b_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_b_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3420: "float 1e-05" = m429.eps
  prims.check_number_type_and_value(f3420, 1e-05)
  m430: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.b.2')
  i3453: "bool True" = m430.inplace
  prims.check_number_type_and_value(i3453, True)
  m431: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.se')
  i3457: "bool True" = m431.training
  prims.check_number_type_and_value(i3457, True)
  m432: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.se.avgpool')
  i3458: "int 1" = m432.output_size
  prims.check_number_type_and_value(i3458, 1)
  m433: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.se.fc1')
  i3460: "bool True" = m433.training
  prims.check_number_type_and_value(i3460, True)
  i3461: "int 440" = m433.in_channels
  prims.check_number_type_and_value(i3461, 440)
  i3462: "int 110" = m433.out_channels
  prims.check_number_type_and_value(i3462, 110)
  i3463: "bool False" = m433.transposed
  prims.check_number_type_and_value(i3463, False)
  i3464: "int 1" = m433.groups
  prims.check_number_type_and_value(i3464, 1)
  s3465: "str" = m433.padding_mode
  prims.check_string_value(s3465, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_se_fc1_weight, (110, 440, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_se_fc1_bias, (110,), 'cuda:0', torch.float32, True)
  s3466: "str" = m433.padding_mode
  prims.check_string_value(s3466, 'zeros')
  obj434: "Any" = m433.stride
  i3467: "int 1" = obj434[0]
  prims.check_number_type_and_value(i3467, 1)
  i3468: "int 1" = obj434[1]
  prims.check_number_type_and_value(i3468, 1)
  obj435: "Any" = m433.padding
  i3469: "int 0" = obj435[0]
  prims.check_number_type_and_value(i3469, 0)
  i3470: "int 0" = obj435[1]
  prims.check_number_type_and_value(i3470, 0)
  obj436: "Any" = m433.dilation
  i3471: "int 1" = obj436[0]
  prims.check_number_type_and_value(i3471, 1)
  i3472: "int 1" = obj436[1]
  prims.check_number_type_and_value(i3472, 1)
  i3473: "int 1" = m433.groups
  prims.check_number_type_and_value(i3473, 1)
  m437: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.se.activation')
  i3475: "bool False" = m437.inplace
  prims.check_number_type_and_value(i3475, False)
  m438: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.se.fc2')
  i3478: "bool True" = m438.training
  prims.check_number_type_and_value(i3478, True)
  i3479: "int 110" = m438.in_channels
  prims.check_number_type_and_value(i3479, 110)
  i3480: "int 440" = m438.out_channels
  prims.check_number_type_and_value(i3480, 440)
  i3481: "bool False" = m438.transposed
  prims.check_number_type_and_value(i3481, False)
  i3482: "int 1" = m438.groups
  prims.check_number_type_and_value(i3482, 1)
  s3483: "str" = m438.padding_mode
  prims.check_string_value(s3483, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_se_fc2_weight, (440, 110, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_se_fc2_bias, (440,), 'cuda:0', torch.float32, True)
  s3484: "str" = m438.padding_mode
  prims.check_string_value(s3484, 'zeros')
  obj439: "Any" = m438.stride
  i3485: "int 1" = obj439[0]
  prims.check_number_type_and_value(i3485, 1)
  i3486: "int 1" = obj439[1]
  prims.check_number_type_and_value(i3486, 1)
  obj440: "Any" = m438.padding
  i3487: "int 0" = obj440[0]
  prims.check_number_type_and_value(i3487, 0)
  i3488: "int 0" = obj440[1]
  prims.check_number_type_and_value(i3488, 0)
  obj441: "Any" = m438.dilation
  i3489: "int 1" = obj441[0]
  prims.check_number_type_and_value(i3489, 1)
  i3490: "int 1" = obj441[1]
  prims.check_number_type_and_value(i3490, 1)
  i3491: "int 1" = m438.groups
  prims.check_number_type_and_value(i3491, 1)
  m442: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.c.0')
  i3499: "bool True" = m442.training
  prims.check_number_type_and_value(i3499, True)
  i3500: "int 440" = m442.in_channels
  prims.check_number_type_and_value(i3500, 440)
  i3501: "int 440" = m442.out_channels
  prims.check_number_type_and_value(i3501, 440)
  i3502: "bool False" = m442.transposed
  prims.check_number_type_and_value(i3502, False)
  i3503: "int 1" = m442.groups
  prims.check_number_type_and_value(i3503, 1)
  s3504: "str" = m442.padding_mode
  prims.check_string_value(s3504, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_c_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3505: "str" = m442.padding_mode
  prims.check_string_value(s3505, 'zeros')
  obj443: "Any" = m442.stride
  i3506: "int 1" = obj443[0]
  prims.check_number_type_and_value(i3506, 1)
  i3507: "int 1" = obj443[1]
  prims.check_number_type_and_value(i3507, 1)
  obj444: "Any" = m442.padding
  i3508: "int 0" = obj444[0]
  prims.check_number_type_and_value(i3508, 0)
  i3509: "int 0" = obj444[1]
  prims.check_number_type_and_value(i3509, 0)
  obj445: "Any" = m442.dilation
  i3510: "int 1" = obj445[0]
  prims.check_number_type_and_value(i3510, 1)
  i3511: "int 1" = obj445[1]
  prims.check_number_type_and_value(i3511, 1)
  i3512: "int 1" = m442.groups
  prims.check_number_type_and_value(i3512, 1)
  m446: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.f.c.1')
  f3514: "float 0.1" = m446.momentum
  prims.check_number_type_and_value(f3514, 0.1)
  i3515: "bool True" = m446.training
  prims.check_number_type_and_value(i3515, True)
  i3516: "bool True" = m446.track_running_stats
  prims.check_number_type_and_value(i3516, True)
  i3517: "bool True" = m446.training
  prims.check_number_type_and_value(i3517, True)
  i3518: "int 440" = m446.num_features
  prims.check_number_type_and_value(i3518, 440)
  f3519: "float 1e-05" = m446.eps
  prims.check_number_type_and_value(f3519, 1e-05)
  f3520: "float 0.1" = m446.momentum
  prims.check_number_type_and_value(f3520, 0.1)
  i3521: "bool True" = m446.affine
  prims.check_number_type_and_value(i3521, True)
  i3522: "bool True" = m446.track_running_stats
  prims.check_number_type_and_value(i3522, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_c_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_c_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_c_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_c_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-3_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3525: "float 1e-05" = m446.eps
  prims.check_number_type_and_value(f3525, 1e-05)
  m447: "Any" = module.get_submodule('model.trunk_output.block4.block4-3.activation')
  i3559: "bool True" = m447.inplace
  prims.check_number_type_and_value(i3559, True)
  m448: "Any" = module.get_submodule('model.trunk_output.block4.block4-4')
  i3563: "bool True" = m448.training
  prims.check_number_type_and_value(i3563, True)
  m449: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.a.0')
  i3564: "bool True" = m449.training
  prims.check_number_type_and_value(i3564, True)
  i3565: "int 440" = m449.in_channels
  prims.check_number_type_and_value(i3565, 440)
  i3566: "int 440" = m449.out_channels
  prims.check_number_type_and_value(i3566, 440)
  i3567: "bool False" = m449.transposed
  prims.check_number_type_and_value(i3567, False)
  i3568: "int 1" = m449.groups
  prims.check_number_type_and_value(i3568, 1)
  s3569: "str" = m449.padding_mode
  prims.check_string_value(s3569, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_a_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3570: "str" = m449.padding_mode
  prims.check_string_value(s3570, 'zeros')
  obj450: "Any" = m449.stride
  i3571: "int 1" = obj450[0]
  prims.check_number_type_and_value(i3571, 1)
  i3572: "int 1" = obj450[1]
  prims.check_number_type_and_value(i3572, 1)
  obj451: "Any" = m449.padding
  i3573: "int 0" = obj451[0]
  prims.check_number_type_and_value(i3573, 0)
  i3574: "int 0" = obj451[1]
  prims.check_number_type_and_value(i3574, 0)
  obj452: "Any" = m449.dilation
  i3575: "int 1" = obj452[0]
  prims.check_number_type_and_value(i3575, 1)
  i3576: "int 1" = obj452[1]
  prims.check_number_type_and_value(i3576, 1)
  i3577: "int 1" = m449.groups
  prims.check_number_type_and_value(i3577, 1)
  m453: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.a.1')
  f3579: "float 0.1" = m453.momentum
  prims.check_number_type_and_value(f3579, 0.1)
  i3580: "bool True" = m453.training
  prims.check_number_type_and_value(i3580, True)
  i3581: "bool True" = m453.track_running_stats
  prims.check_number_type_and_value(i3581, True)
  i3582: "bool True" = m453.training
  prims.check_number_type_and_value(i3582, True)
  i3583: "int 440" = m453.num_features
  prims.check_number_type_and_value(i3583, 440)
  f3584: "float 1e-05" = m453.eps
  prims.check_number_type_and_value(f3584, 1e-05)
  f3585: "float 0.1" = m453.momentum
  prims.check_number_type_and_value(f3585, 0.1)
  i3586: "bool True" = m453.affine
  prims.check_number_type_and_value(i3586, True)
  i3587: "bool True" = m453.track_running_stats
  prims.check_number_type_and_value(i3587, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_a_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_a_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_a_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_a_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3590: "float 1e-05" = m453.eps
  prims.check_number_type_and_value(f3590, 1e-05)
  m454: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.a.2')
  i3623: "bool True" = m454.inplace
  prims.check_number_type_and_value(i3623, True)
  m455: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.b.0')
  i3627: "bool True" = m455.training
  prims.check_number_type_and_value(i3627, True)
  i3628: "int 440" = m455.in_channels
  prims.check_number_type_and_value(i3628, 440)
  i3629: "int 440" = m455.out_channels
  prims.check_number_type_and_value(i3629, 440)
  i3630: "bool False" = m455.transposed
  prims.check_number_type_and_value(i3630, False)
  i3631: "int 55" = m455.groups
  prims.check_number_type_and_value(i3631, 55)
  s3632: "str" = m455.padding_mode
  prims.check_string_value(s3632, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_b_0_weight, (440, 8, 3, 3), 'cuda:0', torch.float32, True)
  s3633: "str" = m455.padding_mode
  prims.check_string_value(s3633, 'zeros')
  obj456: "Any" = m455.stride
  i3634: "int 1" = obj456[0]
  prims.check_number_type_and_value(i3634, 1)
  i3635: "int 1" = obj456[1]
  prims.check_number_type_and_value(i3635, 1)
  obj457: "Any" = m455.padding
  i3636: "int 1" = obj457[0]
  prims.check_number_type_and_value(i3636, 1)
  i3637: "int 1" = obj457[1]
  prims.check_number_type_and_value(i3637, 1)
  obj458: "Any" = m455.dilation
  i3638: "int 1" = obj458[0]
  prims.check_number_type_and_value(i3638, 1)
  i3639: "int 1" = obj458[1]
  prims.check_number_type_and_value(i3639, 1)
  i3640: "int 55" = m455.groups
  prims.check_number_type_and_value(i3640, 55)
  m459: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.b.1')
  f3642: "float 0.1" = m459.momentum
  prims.check_number_type_and_value(f3642, 0.1)
  i3643: "bool True" = m459.training
  prims.check_number_type_and_value(i3643, True)
  i3644: "bool True" = m459.track_running_stats
  prims.check_number_type_and_value(i3644, True)
  i3645: "bool True" = m459.training
  prims.check_number_type_and_value(i3645, True)
  i3646: "int 440" = m459.num_features
  prims.check_number_type_and_value(i3646, 440)
  f3647: "float 1e-05" = m459.eps
  prims.check_number_type_and_value(f3647, 1e-05)
  f3648: "float 0.1" = m459.momentum
  prims.check_number_type_and_value(f3648, 0.1)
  i3649: "bool True" = m459.affine
  prims.check_number_type_and_value(i3649, True)
  i3650: "bool True" = m459.track_running_stats
  prims.check_number_type_and_value(i3650, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_b_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_b_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_b_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_b_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3653: "float 1e-05" = m459.eps
  prims.check_number_type_and_value(f3653, 1e-05)
  m460: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.b.2')
  i3686: "bool True" = m460.inplace
  prims.check_number_type_and_value(i3686, True)
  m461: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.se')
  i3690: "bool True" = m461.training
  prims.check_number_type_and_value(i3690, True)
  m462: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.se.avgpool')
  i3691: "int 1" = m462.output_size
  prims.check_number_type_and_value(i3691, 1)
  m463: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.se.fc1')
  i3693: "bool True" = m463.training
  prims.check_number_type_and_value(i3693, True)
  i3694: "int 440" = m463.in_channels
  prims.check_number_type_and_value(i3694, 440)
  i3695: "int 110" = m463.out_channels
  prims.check_number_type_and_value(i3695, 110)
  i3696: "bool False" = m463.transposed
  prims.check_number_type_and_value(i3696, False)
  i3697: "int 1" = m463.groups
  prims.check_number_type_and_value(i3697, 1)
  s3698: "str" = m463.padding_mode
  prims.check_string_value(s3698, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_se_fc1_weight, (110, 440, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_se_fc1_bias, (110,), 'cuda:0', torch.float32, True)
  s3699: "str" = m463.padding_mode
  prims.check_string_value(s3699, 'zeros')
  obj464: "Any" = m463.stride
  i3700: "int 1" = obj464[0]
  prims.check_number_type_and_value(i3700, 1)
  i3701: "int 1" = obj464[1]
  prims.check_number_type_and_value(i3701, 1)
  obj465: "Any" = m463.padding
  i3702: "int 0" = obj465[0]
  prims.check_number_type_and_value(i3702, 0)
  i3703: "int 0" = obj465[1]
  prims.check_number_type_and_value(i3703, 0)
  obj466: "Any" = m463.dilation
  i3704: "int 1" = obj466[0]
  prims.check_number_type_and_value(i3704, 1)
  i3705: "int 1" = obj466[1]
  prims.check_number_type_and_value(i3705, 1)
  i3706: "int 1" = m463.groups
  prims.check_number_type_and_value(i3706, 1)
  m467: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.se.activation')
  i3708: "bool False" = m467.inplace
  prims.check_number_type_and_value(i3708, False)
  m468: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.se.fc2')
  i3711: "bool True" = m468.training
  prims.check_number_type_and_value(i3711, True)
  i3712: "int 110" = m468.in_channels
  prims.check_number_type_and_value(i3712, 110)
  i3713: "int 440" = m468.out_channels
  prims.check_number_type_and_value(i3713, 440)
  i3714: "bool False" = m468.transposed
  prims.check_number_type_and_value(i3714, False)
  i3715: "int 1" = m468.groups
  prims.check_number_type_and_value(i3715, 1)
  s3716: "str" = m468.padding_mode
  prims.check_string_value(s3716, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_se_fc2_weight, (440, 110, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_se_fc2_bias, (440,), 'cuda:0', torch.float32, True)
  s3717: "str" = m468.padding_mode
  prims.check_string_value(s3717, 'zeros')
  obj469: "Any" = m468.stride
  i3718: "int 1" = obj469[0]
  prims.check_number_type_and_value(i3718, 1)
  i3719: "int 1" = obj469[1]
  prims.check_number_type_and_value(i3719, 1)
  obj470: "Any" = m468.padding
  i3720: "int 0" = obj470[0]
  prims.check_number_type_and_value(i3720, 0)
  i3721: "int 0" = obj470[1]
  prims.check_number_type_and_value(i3721, 0)
  obj471: "Any" = m468.dilation
  i3722: "int 1" = obj471[0]
  prims.check_number_type_and_value(i3722, 1)
  i3723: "int 1" = obj471[1]
  prims.check_number_type_and_value(i3723, 1)
  i3724: "int 1" = m468.groups
  prims.check_number_type_and_value(i3724, 1)
  m472: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.c.0')
  i3732: "bool True" = m472.training
  prims.check_number_type_and_value(i3732, True)
  i3733: "int 440" = m472.in_channels
  prims.check_number_type_and_value(i3733, 440)
  i3734: "int 440" = m472.out_channels
  prims.check_number_type_and_value(i3734, 440)
  i3735: "bool False" = m472.transposed
  prims.check_number_type_and_value(i3735, False)
  i3736: "int 1" = m472.groups
  prims.check_number_type_and_value(i3736, 1)
  s3737: "str" = m472.padding_mode
  prims.check_string_value(s3737, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_c_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3738: "str" = m472.padding_mode
  prims.check_string_value(s3738, 'zeros')
  obj473: "Any" = m472.stride
  i3739: "int 1" = obj473[0]
  prims.check_number_type_and_value(i3739, 1)
  i3740: "int 1" = obj473[1]
  prims.check_number_type_and_value(i3740, 1)
  obj474: "Any" = m472.padding
  i3741: "int 0" = obj474[0]
  prims.check_number_type_and_value(i3741, 0)
  i3742: "int 0" = obj474[1]
  prims.check_number_type_and_value(i3742, 0)
  obj475: "Any" = m472.dilation
  i3743: "int 1" = obj475[0]
  prims.check_number_type_and_value(i3743, 1)
  i3744: "int 1" = obj475[1]
  prims.check_number_type_and_value(i3744, 1)
  i3745: "int 1" = m472.groups
  prims.check_number_type_and_value(i3745, 1)
  m476: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.f.c.1')
  f3747: "float 0.1" = m476.momentum
  prims.check_number_type_and_value(f3747, 0.1)
  i3748: "bool True" = m476.training
  prims.check_number_type_and_value(i3748, True)
  i3749: "bool True" = m476.track_running_stats
  prims.check_number_type_and_value(i3749, True)
  i3750: "bool True" = m476.training
  prims.check_number_type_and_value(i3750, True)
  i3751: "int 440" = m476.num_features
  prims.check_number_type_and_value(i3751, 440)
  f3752: "float 1e-05" = m476.eps
  prims.check_number_type_and_value(f3752, 1e-05)
  f3753: "float 0.1" = m476.momentum
  prims.check_number_type_and_value(f3753, 0.1)
  i3754: "bool True" = m476.affine
  prims.check_number_type_and_value(i3754, True)
  i3755: "bool True" = m476.track_running_stats
  prims.check_number_type_and_value(i3755, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_c_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_c_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_c_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_c_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-4_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3758: "float 1e-05" = m476.eps
  prims.check_number_type_and_value(f3758, 1e-05)
  m477: "Any" = module.get_submodule('model.trunk_output.block4.block4-4.activation')
  i3792: "bool True" = m477.inplace
  prims.check_number_type_and_value(i3792, True)
  m478: "Any" = module.get_submodule('model.trunk_output.block4.block4-5')
  i3796: "bool True" = m478.training
  prims.check_number_type_and_value(i3796, True)
  m479: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.a.0')
  i3797: "bool True" = m479.training
  prims.check_number_type_and_value(i3797, True)
  i3798: "int 440" = m479.in_channels
  prims.check_number_type_and_value(i3798, 440)
  i3799: "int 440" = m479.out_channels
  prims.check_number_type_and_value(i3799, 440)
  i3800: "bool False" = m479.transposed
  prims.check_number_type_and_value(i3800, False)
  i3801: "int 1" = m479.groups
  prims.check_number_type_and_value(i3801, 1)
  s3802: "str" = m479.padding_mode
  prims.check_string_value(s3802, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_a_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3803: "str" = m479.padding_mode
  prims.check_string_value(s3803, 'zeros')
  obj480: "Any" = m479.stride
  i3804: "int 1" = obj480[0]
  prims.check_number_type_and_value(i3804, 1)
  i3805: "int 1" = obj480[1]
  prims.check_number_type_and_value(i3805, 1)
  obj481: "Any" = m479.padding
  i3806: "int 0" = obj481[0]
  prims.check_number_type_and_value(i3806, 0)
  i3807: "int 0" = obj481[1]
  prims.check_number_type_and_value(i3807, 0)
  obj482: "Any" = m479.dilation
  i3808: "int 1" = obj482[0]
  prims.check_number_type_and_value(i3808, 1)
  i3809: "int 1" = obj482[1]
  prims.check_number_type_and_value(i3809, 1)
  i3810: "int 1" = m479.groups
  prims.check_number_type_and_value(i3810, 1)
  m483: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.a.1')
  f3812: "float 0.1" = m483.momentum
  prims.check_number_type_and_value(f3812, 0.1)
  i3813: "bool True" = m483.training
  prims.check_number_type_and_value(i3813, True)
  i3814: "bool True" = m483.track_running_stats
  prims.check_number_type_and_value(i3814, True)
  i3815: "bool True" = m483.training
  prims.check_number_type_and_value(i3815, True)
  i3816: "int 440" = m483.num_features
  prims.check_number_type_and_value(i3816, 440)
  f3817: "float 1e-05" = m483.eps
  prims.check_number_type_and_value(f3817, 1e-05)
  f3818: "float 0.1" = m483.momentum
  prims.check_number_type_and_value(f3818, 0.1)
  i3819: "bool True" = m483.affine
  prims.check_number_type_and_value(i3819, True)
  i3820: "bool True" = m483.track_running_stats
  prims.check_number_type_and_value(i3820, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_a_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_a_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_a_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_a_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_a_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3823: "float 1e-05" = m483.eps
  prims.check_number_type_and_value(f3823, 1e-05)
  m484: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.a.2')
  i3856: "bool True" = m484.inplace
  prims.check_number_type_and_value(i3856, True)
  m485: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.b.0')
  i3860: "bool True" = m485.training
  prims.check_number_type_and_value(i3860, True)
  i3861: "int 440" = m485.in_channels
  prims.check_number_type_and_value(i3861, 440)
  i3862: "int 440" = m485.out_channels
  prims.check_number_type_and_value(i3862, 440)
  i3863: "bool False" = m485.transposed
  prims.check_number_type_and_value(i3863, False)
  i3864: "int 55" = m485.groups
  prims.check_number_type_and_value(i3864, 55)
  s3865: "str" = m485.padding_mode
  prims.check_string_value(s3865, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_b_0_weight, (440, 8, 3, 3), 'cuda:0', torch.float32, True)
  s3866: "str" = m485.padding_mode
  prims.check_string_value(s3866, 'zeros')
  obj486: "Any" = m485.stride
  i3867: "int 1" = obj486[0]
  prims.check_number_type_and_value(i3867, 1)
  i3868: "int 1" = obj486[1]
  prims.check_number_type_and_value(i3868, 1)
  obj487: "Any" = m485.padding
  i3869: "int 1" = obj487[0]
  prims.check_number_type_and_value(i3869, 1)
  i3870: "int 1" = obj487[1]
  prims.check_number_type_and_value(i3870, 1)
  obj488: "Any" = m485.dilation
  i3871: "int 1" = obj488[0]
  prims.check_number_type_and_value(i3871, 1)
  i3872: "int 1" = obj488[1]
  prims.check_number_type_and_value(i3872, 1)
  i3873: "int 55" = m485.groups
  prims.check_number_type_and_value(i3873, 55)
  m489: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.b.1')
  f3875: "float 0.1" = m489.momentum
  prims.check_number_type_and_value(f3875, 0.1)
  i3876: "bool True" = m489.training
  prims.check_number_type_and_value(i3876, True)
  i3877: "bool True" = m489.track_running_stats
  prims.check_number_type_and_value(i3877, True)
  i3878: "bool True" = m489.training
  prims.check_number_type_and_value(i3878, True)
  i3879: "int 440" = m489.num_features
  prims.check_number_type_and_value(i3879, 440)
  f3880: "float 1e-05" = m489.eps
  prims.check_number_type_and_value(f3880, 1e-05)
  f3881: "float 0.1" = m489.momentum
  prims.check_number_type_and_value(f3881, 0.1)
  i3882: "bool True" = m489.affine
  prims.check_number_type_and_value(i3882, True)
  i3883: "bool True" = m489.track_running_stats
  prims.check_number_type_and_value(i3883, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_b_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_b_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_b_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_b_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_b_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3886: "float 1e-05" = m489.eps
  prims.check_number_type_and_value(f3886, 1e-05)
  m490: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.b.2')
  i3919: "bool True" = m490.inplace
  prims.check_number_type_and_value(i3919, True)
  m491: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.se')
  i3923: "bool True" = m491.training
  prims.check_number_type_and_value(i3923, True)
  m492: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.se.avgpool')
  i3924: "int 1" = m492.output_size
  prims.check_number_type_and_value(i3924, 1)
  m493: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.se.fc1')
  i3926: "bool True" = m493.training
  prims.check_number_type_and_value(i3926, True)
  i3927: "int 440" = m493.in_channels
  prims.check_number_type_and_value(i3927, 440)
  i3928: "int 110" = m493.out_channels
  prims.check_number_type_and_value(i3928, 110)
  i3929: "bool False" = m493.transposed
  prims.check_number_type_and_value(i3929, False)
  i3930: "int 1" = m493.groups
  prims.check_number_type_and_value(i3930, 1)
  s3931: "str" = m493.padding_mode
  prims.check_string_value(s3931, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_se_fc1_weight, (110, 440, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_se_fc1_bias, (110,), 'cuda:0', torch.float32, True)
  s3932: "str" = m493.padding_mode
  prims.check_string_value(s3932, 'zeros')
  obj494: "Any" = m493.stride
  i3933: "int 1" = obj494[0]
  prims.check_number_type_and_value(i3933, 1)
  i3934: "int 1" = obj494[1]
  prims.check_number_type_and_value(i3934, 1)
  obj495: "Any" = m493.padding
  i3935: "int 0" = obj495[0]
  prims.check_number_type_and_value(i3935, 0)
  i3936: "int 0" = obj495[1]
  prims.check_number_type_and_value(i3936, 0)
  obj496: "Any" = m493.dilation
  i3937: "int 1" = obj496[0]
  prims.check_number_type_and_value(i3937, 1)
  i3938: "int 1" = obj496[1]
  prims.check_number_type_and_value(i3938, 1)
  i3939: "int 1" = m493.groups
  prims.check_number_type_and_value(i3939, 1)
  m497: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.se.activation')
  i3941: "bool False" = m497.inplace
  prims.check_number_type_and_value(i3941, False)
  m498: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.se.fc2')
  i3944: "bool True" = m498.training
  prims.check_number_type_and_value(i3944, True)
  i3945: "int 110" = m498.in_channels
  prims.check_number_type_and_value(i3945, 110)
  i3946: "int 440" = m498.out_channels
  prims.check_number_type_and_value(i3946, 440)
  i3947: "bool False" = m498.transposed
  prims.check_number_type_and_value(i3947, False)
  i3948: "int 1" = m498.groups
  prims.check_number_type_and_value(i3948, 1)
  s3949: "str" = m498.padding_mode
  prims.check_string_value(s3949, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_se_fc2_weight, (440, 110, 1, 1), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_se_fc2_bias, (440,), 'cuda:0', torch.float32, True)
  s3950: "str" = m498.padding_mode
  prims.check_string_value(s3950, 'zeros')
  obj499: "Any" = m498.stride
  i3951: "int 1" = obj499[0]
  prims.check_number_type_and_value(i3951, 1)
  i3952: "int 1" = obj499[1]
  prims.check_number_type_and_value(i3952, 1)
  obj500: "Any" = m498.padding
  i3953: "int 0" = obj500[0]
  prims.check_number_type_and_value(i3953, 0)
  i3954: "int 0" = obj500[1]
  prims.check_number_type_and_value(i3954, 0)
  obj501: "Any" = m498.dilation
  i3955: "int 1" = obj501[0]
  prims.check_number_type_and_value(i3955, 1)
  i3956: "int 1" = obj501[1]
  prims.check_number_type_and_value(i3956, 1)
  i3957: "int 1" = m498.groups
  prims.check_number_type_and_value(i3957, 1)
  m502: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.c.0')
  i3965: "bool True" = m502.training
  prims.check_number_type_and_value(i3965, True)
  i3966: "int 440" = m502.in_channels
  prims.check_number_type_and_value(i3966, 440)
  i3967: "int 440" = m502.out_channels
  prims.check_number_type_and_value(i3967, 440)
  i3968: "bool False" = m502.transposed
  prims.check_number_type_and_value(i3968, False)
  i3969: "int 1" = m502.groups
  prims.check_number_type_and_value(i3969, 1)
  s3970: "str" = m502.padding_mode
  prims.check_string_value(s3970, 'zeros')
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_c_0_weight, (440, 440, 1, 1), 'cuda:0', torch.float32, True)
  s3971: "str" = m502.padding_mode
  prims.check_string_value(s3971, 'zeros')
  obj503: "Any" = m502.stride
  i3972: "int 1" = obj503[0]
  prims.check_number_type_and_value(i3972, 1)
  i3973: "int 1" = obj503[1]
  prims.check_number_type_and_value(i3973, 1)
  obj504: "Any" = m502.padding
  i3974: "int 0" = obj504[0]
  prims.check_number_type_and_value(i3974, 0)
  i3975: "int 0" = obj504[1]
  prims.check_number_type_and_value(i3975, 0)
  obj505: "Any" = m502.dilation
  i3976: "int 1" = obj505[0]
  prims.check_number_type_and_value(i3976, 1)
  i3977: "int 1" = obj505[1]
  prims.check_number_type_and_value(i3977, 1)
  i3978: "int 1" = m502.groups
  prims.check_number_type_and_value(i3978, 1)
  m506: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.f.c.1')
  f3980: "float 0.1" = m506.momentum
  prims.check_number_type_and_value(f3980, 0.1)
  i3981: "bool True" = m506.training
  prims.check_number_type_and_value(i3981, True)
  i3982: "bool True" = m506.track_running_stats
  prims.check_number_type_and_value(i3982, True)
  i3983: "bool True" = m506.training
  prims.check_number_type_and_value(i3983, True)
  i3984: "int 440" = m506.num_features
  prims.check_number_type_and_value(i3984, 440)
  f3985: "float 1e-05" = m506.eps
  prims.check_number_type_and_value(f3985, 1e-05)
  f3986: "float 0.1" = m506.momentum
  prims.check_number_type_and_value(f3986, 0.1)
  i3987: "bool True" = m506.affine
  prims.check_number_type_and_value(i3987, True)
  i3988: "bool True" = m506.track_running_stats
  prims.check_number_type_and_value(i3988, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_c_1_weight, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_c_1_bias, (440,), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_c_1_running_mean, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_c_1_running_var, (440,), 'cuda:0', torch.float32, False)
  prims.check_tensor_shape_and_metadata(t_model_trunk_output_block4_block4-5_f_c_1_num_batches_tracked, (), 'cuda:0', torch.int64, False)
  f3991: "float 1e-05" = m506.eps
  prims.check_number_type_and_value(f3991, 1e-05)
  m507: "Any" = module.get_submodule('model.trunk_output.block4.block4-5.activation')
  i4025: "bool True" = m507.inplace
  prims.check_number_type_and_value(i4025, True)
  m508: "Any" = module.get_submodule('model.avgpool')
  obj509: "Any" = m508.output_size
  i4029: "int 1" = obj509[0]
  prims.check_number_type_and_value(i4029, 1)
  i4030: "int 1" = obj509[1]
  prims.check_number_type_and_value(i4030, 1)
  m510: "Any" = module.get_submodule('model.fc')
  i4033: "bool True" = m510.training
  prims.check_number_type_and_value(i4033, True)
  i4034: "int 440" = m510.in_features
  prims.check_number_type_and_value(i4034, 440)
  i4035: "int 10" = m510.out_features
  prims.check_number_type_and_value(i4035, 10)
  prims.check_tensor_shape_and_metadata(t_model_fc_weight, (10, 440), 'cuda:0', torch.float32, True)
  prims.check_tensor_shape_and_metadata(t_model_fc_bias, (10,), 'cuda:0', torch.float32, True)
  cache_info: "Any" = thunder._get_cache_info()
  cache_info_default_dtype: "<class 'torch.dtype'>" = cache_info['default_dtype']
  prims.check_literal_like(cache_info_default_dtype, torch.float32)
  cache_info_default_device: "<class 'torch.device'>" = cache_info['default_device']
  prims.check_literal_like(cache_info_default_device, torch.device("cpu"))
  cache_info_is_autocast_enabled: "bool False" = cache_info['is_autocast_enabled']
  prims.check_number_type_and_value(cache_info_is_autocast_enabled, False)
  cache_info_alias_tensor_indices: "str" = cache_info['alias_tensor_indices']
  prims.check_string_value(cache_info_alias_tensor_indices, '')
  cache_info_is_grad_enabled: "bool True" = cache_info['is_grad_enabled']
  prims.check_number_type_and_value(cache_info_is_grad_enabled, True)
  cache_info_no_grad_sync: "bool False" = cache_info['no_grad_sync']
  prims.check_number_type_and_value(cache_info_no_grad_sync, False)
  return ((x, y, t_model_fc_bias, t_model_fc_weight, weight, t_model_stem_1_bias, t_model_stem_1_num_batches_tracked, t_model_stem_1_running_mean, t_model_stem_1_running_var, t_model_stem_1_weight, t_model_trunk_output_block1_block1-0_f_a_0_weight, t_model_trunk_output_block1_block1-0_f_a_1_bias, t_model_trunk_output_block1_block1-0_f_a_1_num_batches_tracked, t_model_trunk_output_block1_block1-0_f_a_1_running_mean, t_model_trunk_output_block1_block1-0_f_a_1_running_var, t_model_trunk_output_block1_block1-0_f_a_1_weight, t_model_trunk_output_block1_block1-0_f_b_0_weight, t_model_trunk_output_block1_block1-0_f_b_1_bias, t_model_trunk_output_block1_block1-0_f_b_1_num_batches_tracked, t_model_trunk_output_block1_block1-0_f_b_1_running_mean, t_model_trunk_output_block1_block1-0_f_b_1_running_var, t_model_trunk_output_block1_block1-0_f_b_1_weight, t_model_trunk_output_block1_block1-0_f_c_0_weight, t_model_trunk_output_block1_block1-0_f_c_1_bias, t_model_trunk_output_block1_block1-0_f_c_1_num_batches_tracked, t_model_trunk_output_block1_block1-0_f_c_1_running_mean, t_model_trunk_output_block1_block1-0_f_c_1_running_var, t_model_trunk_output_block1_block1-0_f_c_1_weight, bias, t_model_trunk_output_block1_block1-0_f_se_fc1_weight, t_model_trunk_output_block1_block1-0_f_se_fc2_bias, t_model_trunk_output_block1_block1-0_f_se_fc2_weight, t_model_trunk_output_block1_block1-0_proj_0_weight, t_model_trunk_output_block1_block1-0_proj_1_bias, t_model_trunk_output_block1_block1-0_proj_1_num_batches_tracked, t_model_trunk_output_block1_block1-0_proj_1_running_mean, t_model_trunk_output_block1_block1-0_proj_1_running_var, t_model_trunk_output_block1_block1-0_proj_1_weight, t_model_trunk_output_block2_block2-0_f_a_0_weight, t_model_trunk_output_block2_block2-0_f_a_1_bias, t_model_trunk_output_block2_block2-0_f_a_1_num_batches_tracked, t_model_trunk_output_block2_block2-0_f_a_1_running_mean, t_model_trunk_output_block2_block2-0_f_a_1_running_var, t_model_trunk_output_block2_block2-0_f_a_1_weight, t_model_trunk_output_block2_block2-0_f_b_0_weight, t_model_trunk_output_block2_block2-0_f_b_1_bias, t_model_trunk_output_block2_block2-0_f_b_1_num_batches_tracked, t_model_trunk_output_block2_block2-0_f_b_1_running_mean, t_model_trunk_output_block2_block2-0_f_b_1_running_var, t_model_trunk_output_block2_block2-0_f_b_1_weight, t_model_trunk_output_block2_block2-0_f_c_0_weight, t_model_trunk_output_block2_block2-0_f_c_1_bias, t_model_trunk_output_block2_block2-0_f_c_1_num_batches_tracked, t_model_trunk_output_block2_block2-0_f_c_1_running_mean, t_model_trunk_output_block2_block2-0_f_c_1_running_var, t_model_trunk_output_block2_block2-0_f_c_1_weight, t_model_trunk_output_block2_block2-0_f_se_fc1_bias, t_model_trunk_output_block2_block2-0_f_se_fc1_weight, t_model_trunk_output_block2_block2-0_f_se_fc2_bias, t_model_trunk_output_block2_block2-0_f_se_fc2_weight, t_model_trunk_output_block2_block2-0_proj_0_weight, t_model_trunk_output_block2_block2-0_proj_1_bias, t_model_trunk_output_block2_block2-0_proj_1_num_batches_tracked, t_model_trunk_output_block2_block2-0_proj_1_running_mean, t_model_trunk_output_block2_block2-0_proj_1_running_var, t_model_trunk_output_block2_block2-0_proj_1_weight, t_model_trunk_output_block2_block2-1_f_a_0_weight, t_model_trunk_output_block2_block2-1_f_a_1_bias, t_model_trunk_output_block2_block2-1_f_a_1_num_batches_tracked, t_model_trunk_output_block2_block2-1_f_a_1_running_mean, t_model_trunk_output_block2_block2-1_f_a_1_running_var, t_model_trunk_output_block2_block2-1_f_a_1_weight, t_model_trunk_output_block2_block2-1_f_b_0_weight, t_model_trunk_output_block2_block2-1_f_b_1_bias, t_model_trunk_output_block2_block2-1_f_b_1_num_batches_tracked, t_model_trunk_output_block2_block2-1_f_b_1_running_mean, t_model_trunk_output_block2_block2-1_f_b_1_running_var, t_model_trunk_output_block2_block2-1_f_b_1_weight, t_model_trunk_output_block2_block2-1_f_c_0_weight, t_model_trunk_output_block2_block2-1_f_c_1_bias, t_model_trunk_output_block2_block2-1_f_c_1_num_batches_tracked, t_model_trunk_output_block2_block2-1_f_c_1_running_mean, t_model_trunk_output_block2_block2-1_f_c_1_running_var, t_model_trunk_output_block2_block2-1_f_c_1_weight, t_model_trunk_output_block2_block2-1_f_se_fc1_bias, t_model_trunk_output_block2_block2-1_f_se_fc1_weight, t_model_trunk_output_block2_block2-1_f_se_fc2_bias, t_model_trunk_output_block2_block2-1_f_se_fc2_weight, t_model_trunk_output_block2_block2-2_f_a_0_weight, t_model_trunk_output_block2_block2-2_f_a_1_bias, t_model_trunk_output_block2_block2-2_f_a_1_num_batches_tracked, t_model_trunk_output_block2_block2-2_f_a_1_running_mean, t_model_trunk_output_block2_block2-2_f_a_1_running_var, t_model_trunk_output_block2_block2-2_f_a_1_weight, t_model_trunk_output_block2_block2-2_f_b_0_weight, t_model_trunk_output_block2_block2-2_f_b_1_bias, t_model_trunk_output_block2_block2-2_f_b_1_num_batches_tracked, t_model_trunk_output_block2_block2-2_f_b_1_running_mean, t_model_trunk_output_block2_block2-2_f_b_1_running_var, t_model_trunk_output_block2_block2-2_f_b_1_weight, t_model_trunk_output_block2_block2-2_f_c_0_weight, t_model_trunk_output_block2_block2-2_f_c_1_bias, t_model_trunk_output_block2_block2-2_f_c_1_num_batches_tracked, t_model_trunk_output_block2_block2-2_f_c_1_running_mean, t_model_trunk_output_block2_block2-2_f_c_1_running_var, t_model_trunk_output_block2_block2-2_f_c_1_weight, t_model_trunk_output_block2_block2-2_f_se_fc1_bias, t_model_trunk_output_block2_block2-2_f_se_fc1_weight, t_model_trunk_output_block2_block2-2_f_se_fc2_bias, t_model_trunk_output_block2_block2-2_f_se_fc2_weight, t_model_trunk_output_block3_block3-0_f_a_0_weight, t_model_trunk_output_block3_block3-0_f_a_1_bias, t_model_trunk_output_block3_block3-0_f_a_1_num_batches_tracked, t_model_trunk_output_block3_block3-0_f_a_1_running_mean, t_model_trunk_output_block3_block3-0_f_a_1_running_var, t_model_trunk_output_block3_block3-0_f_a_1_weight, t_model_trunk_output_block3_block3-0_f_b_0_weight, t_model_trunk_output_block3_block3-0_f_b_1_bias, t_model_trunk_output_block3_block3-0_f_b_1_num_batches_tracked, t_model_trunk_output_block3_block3-0_f_b_1_running_mean, t_model_trunk_output_block3_block3-0_f_b_1_running_var, t_model_trunk_output_block3_block3-0_f_b_1_weight, t_model_trunk_output_block3_block3-0_f_c_0_weight, t_model_trunk_output_block3_block3-0_f_c_1_bias, t_model_trunk_output_block3_block3-0_f_c_1_num_batches_tracked, t_model_trunk_output_block3_block3-0_f_c_1_running_mean, t_model_trunk_output_block3_block3-0_f_c_1_running_var, t_model_trunk_output_block3_block3-0_f_c_1_weight, t_model_trunk_output_block3_block3-0_f_se_fc1_bias, t_model_trunk_output_block3_block3-0_f_se_fc1_weight, t_model_trunk_output_block3_block3-0_f_se_fc2_bias, t_model_trunk_output_block3_block3-0_f_se_fc2_weight, t_model_trunk_output_block3_block3-0_proj_0_weight, t_model_trunk_output_block3_block3-0_proj_1_bias, t_model_trunk_output_block3_block3-0_proj_1_num_batches_tracked, t_model_trunk_output_block3_block3-0_proj_1_running_mean, t_model_trunk_output_block3_block3-0_proj_1_running_var, t_model_trunk_output_block3_block3-0_proj_1_weight, t_model_trunk_output_block3_block3-1_f_a_0_weight, t_model_trunk_output_block3_block3-1_f_a_1_bias, t_model_trunk_output_block3_block3-1_f_a_1_num_batches_tracked, t_model_trunk_output_block3_block3-1_f_a_1_running_mean, t_model_trunk_output_block3_block3-1_f_a_1_running_var, t_model_trunk_output_block3_block3-1_f_a_1_weight, t_model_trunk_output_block3_block3-1_f_b_0_weight, t_model_trunk_output_block3_block3-1_f_b_1_bias, t_model_trunk_output_block3_block3-1_f_b_1_num_batches_tracked, t_model_trunk_output_block3_block3-1_f_b_1_running_mean, t_model_trunk_output_block3_block3-1_f_b_1_running_var, t_model_trunk_output_block3_block3-1_f_b_1_weight, t_model_trunk_output_block3_block3-1_f_c_0_weight, t_model_trunk_output_block3_block3-1_f_c_1_bias, t_model_trunk_output_block3_block3-1_f_c_1_num_batches_tracked, t_model_trunk_output_block3_block3-1_f_c_1_running_mean, t_model_trunk_output_block3_block3-1_f_c_1_running_var, t_model_trunk_output_block3_block3-1_f_c_1_weight, t_model_trunk_output_block3_block3-1_f_se_fc1_bias, t_model_trunk_output_block3_block3-1_f_se_fc1_weight, t_model_trunk_output_block3_block3-1_f_se_fc2_bias, t_model_trunk_output_block3_block3-1_f_se_fc2_weight, t_model_trunk_output_block3_block3-2_f_a_0_weight, t_model_trunk_output_block3_block3-2_f_a_1_bias, t_model_trunk_output_block3_block3-2_f_a_1_num_batches_tracked, t_model_trunk_output_block3_block3-2_f_a_1_running_mean, t_model_trunk_output_block3_block3-2_f_a_1_running_var, t_model_trunk_output_block3_block3-2_f_a_1_weight, t_model_trunk_output_block3_block3-2_f_b_0_weight, t_model_trunk_output_block3_block3-2_f_b_1_bias, t_model_trunk_output_block3_block3-2_f_b_1_num_batches_tracked, t_model_trunk_output_block3_block3-2_f_b_1_running_mean, t_model_trunk_output_block3_block3-2_f_b_1_running_var, t_model_trunk_output_block3_block3-2_f_b_1_weight, t_model_trunk_output_block3_block3-2_f_c_0_weight, t_model_trunk_output_block3_block3-2_f_c_1_bias, t_model_trunk_output_block3_block3-2_f_c_1_num_batches_tracked, t_model_trunk_output_block3_block3-2_f_c_1_running_mean, t_model_trunk_output_block3_block3-2_f_c_1_running_var, t_model_trunk_output_block3_block3-2_f_c_1_weight, t_model_trunk_output_block3_block3-2_f_se_fc1_bias, t_model_trunk_output_block3_block3-2_f_se_fc1_weight, t_model_trunk_output_block3_block3-2_f_se_fc2_bias, t_model_trunk_output_block3_block3-2_f_se_fc2_weight, t_model_trunk_output_block3_block3-3_f_a_0_weight, t_model_trunk_output_block3_block3-3_f_a_1_bias, t_model_trunk_output_block3_block3-3_f_a_1_num_batches_tracked, t_model_trunk_output_block3_block3-3_f_a_1_running_mean, t_model_trunk_output_block3_block3-3_f_a_1_running_var, t_model_trunk_output_block3_block3-3_f_a_1_weight, t_model_trunk_output_block3_block3-3_f_b_0_weight, t_model_trunk_output_block3_block3-3_f_b_1_bias, t_model_trunk_output_block3_block3-3_f_b_1_num_batches_tracked, t_model_trunk_output_block3_block3-3_f_b_1_running_mean, t_model_trunk_output_block3_block3-3_f_b_1_running_var, t_model_trunk_output_block3_block3-3_f_b_1_weight, t_model_trunk_output_block3_block3-3_f_c_0_weight, t_model_trunk_output_block3_block3-3_f_c_1_bias, t_model_trunk_output_block3_block3-3_f_c_1_num_batches_tracked, t_model_trunk_output_block3_block3-3_f_c_1_running_mean, t_model_trunk_output_block3_block3-3_f_c_1_running_var, t_model_trunk_output_block3_block3-3_f_c_1_weight, t_model_trunk_output_block3_block3-3_f_se_fc1_bias, t_model_trunk_output_block3_block3-3_f_se_fc1_weight, t_model_trunk_output_block3_block3-3_f_se_fc2_bias, t_model_trunk_output_block3_block3-3_f_se_fc2_weight, t_model_trunk_output_block3_block3-4_f_a_0_weight, t_model_trunk_output_block3_block3-4_f_a_1_bias, t_model_trunk_output_block3_block3-4_f_a_1_num_batches_tracked, t_model_trunk_output_block3_block3-4_f_a_1_running_mean, t_model_trunk_output_block3_block3-4_f_a_1_running_var, t_model_trunk_output_block3_block3-4_f_a_1_weight, t_model_trunk_output_block3_block3-4_f_b_0_weight, t_model_trunk_output_block3_block3-4_f_b_1_bias, t_model_trunk_output_block3_block3-4_f_b_1_num_batches_tracked, t_model_trunk_output_block3_block3-4_f_b_1_running_mean, t_model_trunk_output_block3_block3-4_f_b_1_running_var, t_model_trunk_output_block3_block3-4_f_b_1_weight, t_model_trunk_output_block3_block3-4_f_c_0_weight, t_model_trunk_output_block3_block3-4_f_c_1_bias, t_model_trunk_output_block3_block3-4_f_c_1_num_batches_tracked, t_model_trunk_output_block3_block3-4_f_c_1_running_mean, t_model_trunk_output_block3_block3-4_f_c_1_running_var, t_model_trunk_output_block3_block3-4_f_c_1_weight, t_model_trunk_output_block3_block3-4_f_se_fc1_bias, t_model_trunk_output_block3_block3-4_f_se_fc1_weight, t_model_trunk_output_block3_block3-4_f_se_fc2_bias, t_model_trunk_output_block3_block3-4_f_se_fc2_weight, t_model_trunk_output_block3_block3-5_f_a_0_weight, t_model_trunk_output_block3_block3-5_f_a_1_bias, t_model_trunk_output_block3_block3-5_f_a_1_num_batches_tracked, t_model_trunk_output_block3_block3-5_f_a_1_running_mean, t_model_trunk_output_block3_block3-5_f_a_1_running_var, t_model_trunk_output_block3_block3-5_f_a_1_weight, t_model_trunk_output_block3_block3-5_f_b_0_weight, t_model_trunk_output_block3_block3-5_f_b_1_bias, t_model_trunk_output_block3_block3-5_f_b_1_num_batches_tracked, t_model_trunk_output_block3_block3-5_f_b_1_running_mean, t_model_trunk_output_block3_block3-5_f_b_1_running_var, t_model_trunk_output_block3_block3-5_f_b_1_weight, t_model_trunk_output_block3_block3-5_f_c_0_weight, t_model_trunk_output_block3_block3-5_f_c_1_bias, t_model_trunk_output_block3_block3-5_f_c_1_num_batches_tracked, t_model_trunk_output_block3_block3-5_f_c_1_running_mean, t_model_trunk_output_block3_block3-5_f_c_1_running_var, t_model_trunk_output_block3_block3-5_f_c_1_weight, t_model_trunk_output_block3_block3-5_f_se_fc1_bias, t_model_trunk_output_block3_block3-5_f_se_fc1_weight, t_model_trunk_output_block3_block3-5_f_se_fc2_bias, t_model_trunk_output_block3_block3-5_f_se_fc2_weight, t_model_trunk_output_block4_block4-0_f_a_0_weight, t_model_trunk_output_block4_block4-0_f_a_1_bias, t_model_trunk_output_block4_block4-0_f_a_1_num_batches_tracked, t_model_trunk_output_block4_block4-0_f_a_1_running_mean, t_model_trunk_output_block4_block4-0_f_a_1_running_var, t_model_trunk_output_block4_block4-0_f_a_1_weight, t_model_trunk_output_block4_block4-0_f_b_0_weight, t_model_trunk_output_block4_block4-0_f_b_1_bias, t_model_trunk_output_block4_block4-0_f_b_1_num_batches_tracked, t_model_trunk_output_block4_block4-0_f_b_1_running_mean, t_model_trunk_output_block4_block4-0_f_b_1_running_var, t_model_trunk_output_block4_block4-0_f_b_1_weight, t_model_trunk_output_block4_block4-0_f_c_0_weight, t_model_trunk_output_block4_block4-0_f_c_1_bias, t_model_trunk_output_block4_block4-0_f_c_1_num_batches_tracked, t_model_trunk_output_block4_block4-0_f_c_1_running_mean, t_model_trunk_output_block4_block4-0_f_c_1_running_var, t_model_trunk_output_block4_block4-0_f_c_1_weight, t_model_trunk_output_block4_block4-0_f_se_fc1_bias, t_model_trunk_output_block4_block4-0_f_se_fc1_weight, t_model_trunk_output_block4_block4-0_f_se_fc2_bias, t_model_trunk_output_block4_block4-0_f_se_fc2_weight, t_model_trunk_output_block4_block4-0_proj_0_weight, t_model_trunk_output_block4_block4-0_proj_1_bias, t_model_trunk_output_block4_block4-0_proj_1_num_batches_tracked, t_model_trunk_output_block4_block4-0_proj_1_running_mean, t_model_trunk_output_block4_block4-0_proj_1_running_var, t_model_trunk_output_block4_block4-0_proj_1_weight, t_model_trunk_output_block4_block4-1_f_a_0_weight, t_model_trunk_output_block4_block4-1_f_a_1_bias, t_model_trunk_output_block4_block4-1_f_a_1_num_batches_tracked, t_model_trunk_output_block4_block4-1_f_a_1_running_mean, t_model_trunk_output_block4_block4-1_f_a_1_running_var, t_model_trunk_output_block4_block4-1_f_a_1_weight, t_model_trunk_output_block4_block4-1_f_b_0_weight, t_model_trunk_output_block4_block4-1_f_b_1_bias, t_model_trunk_output_block4_block4-1_f_b_1_num_batches_tracked, t_model_trunk_output_block4_block4-1_f_b_1_running_mean, t_model_trunk_output_block4_block4-1_f_b_1_running_var, t_model_trunk_output_block4_block4-1_f_b_1_weight, t_model_trunk_output_block4_block4-1_f_c_0_weight, t_model_trunk_output_block4_block4-1_f_c_1_bias, t_model_trunk_output_block4_block4-1_f_c_1_num_batches_tracked, t_model_trunk_output_block4_block4-1_f_c_1_running_mean, t_model_trunk_output_block4_block4-1_f_c_1_running_var, t_model_trunk_output_block4_block4-1_f_c_1_weight, t_model_trunk_output_block4_block4-1_f_se_fc1_bias, t_model_trunk_output_block4_block4-1_f_se_fc1_weight, t_model_trunk_output_block4_block4-1_f_se_fc2_bias, t_model_trunk_output_block4_block4-1_f_se_fc2_weight, t_model_trunk_output_block4_block4-2_f_a_0_weight, t_model_trunk_output_block4_block4-2_f_a_1_bias, t_model_trunk_output_block4_block4-2_f_a_1_num_batches_tracked, t_model_trunk_output_block4_block4-2_f_a_1_running_mean, t_model_trunk_output_block4_block4-2_f_a_1_running_var, t_model_trunk_output_block4_block4-2_f_a_1_weight, t_model_trunk_output_block4_block4-2_f_b_0_weight, t_model_trunk_output_block4_block4-2_f_b_1_bias, t_model_trunk_output_block4_block4-2_f_b_1_num_batches_tracked, t_model_trunk_output_block4_block4-2_f_b_1_running_mean, t_model_trunk_output_block4_block4-2_f_b_1_running_var, t_model_trunk_output_block4_block4-2_f_b_1_weight, t_model_trunk_output_block4_block4-2_f_c_0_weight, t_model_trunk_output_block4_block4-2_f_c_1_bias, t_model_trunk_output_block4_block4-2_f_c_1_num_batches_tracked, t_model_trunk_output_block4_block4-2_f_c_1_running_mean, t_model_trunk_output_block4_block4-2_f_c_1_running_var, t_model_trunk_output_block4_block4-2_f_c_1_weight, t_model_trunk_output_block4_block4-2_f_se_fc1_bias, t_model_trunk_output_block4_block4-2_f_se_fc1_weight, t_model_trunk_output_block4_block4-2_f_se_fc2_bias, t_model_trunk_output_block4_block4-2_f_se_fc2_weight, t_model_trunk_output_block4_block4-3_f_a_0_weight, t_model_trunk_output_block4_block4-3_f_a_1_bias, t_model_trunk_output_block4_block4-3_f_a_1_num_batches_tracked, t_model_trunk_output_block4_block4-3_f_a_1_running_mean, t_model_trunk_output_block4_block4-3_f_a_1_running_var, t_model_trunk_output_block4_block4-3_f_a_1_weight, t_model_trunk_output_block4_block4-3_f_b_0_weight, t_model_trunk_output_block4_block4-3_f_b_1_bias, t_model_trunk_output_block4_block4-3_f_b_1_num_batches_tracked, t_model_trunk_output_block4_block4-3_f_b_1_running_mean, t_model_trunk_output_block4_block4-3_f_b_1_running_var, t_model_trunk_output_block4_block4-3_f_b_1_weight, t_model_trunk_output_block4_block4-3_f_c_0_weight, t_model_trunk_output_block4_block4-3_f_c_1_bias, t_model_trunk_output_block4_block4-3_f_c_1_num_batches_tracked, t_model_trunk_output_block4_block4-3_f_c_1_running_mean, t_model_trunk_output_block4_block4-3_f_c_1_running_var, t_model_trunk_output_block4_block4-3_f_c_1_weight, t_model_trunk_output_block4_block4-3_f_se_fc1_bias, t_model_trunk_output_block4_block4-3_f_se_fc1_weight, t_model_trunk_output_block4_block4-3_f_se_fc2_bias, t_model_trunk_output_block4_block4-3_f_se_fc2_weight, t_model_trunk_output_block4_block4-4_f_a_0_weight, t_model_trunk_output_block4_block4-4_f_a_1_bias, t_model_trunk_output_block4_block4-4_f_a_1_num_batches_tracked, t_model_trunk_output_block4_block4-4_f_a_1_running_mean, t_model_trunk_output_block4_block4-4_f_a_1_running_var, t_model_trunk_output_block4_block4-4_f_a_1_weight, t_model_trunk_output_block4_block4-4_f_b_0_weight, t_model_trunk_output_block4_block4-4_f_b_1_bias, t_model_trunk_output_block4_block4-4_f_b_1_num_batches_tracked, t_model_trunk_output_block4_block4-4_f_b_1_running_mean, t_model_trunk_output_block4_block4-4_f_b_1_running_var, t_model_trunk_output_block4_block4-4_f_b_1_weight, t_model_trunk_output_block4_block4-4_f_c_0_weight, t_model_trunk_output_block4_block4-4_f_c_1_bias, t_model_trunk_output_block4_block4-4_f_c_1_num_batches_tracked, t_model_trunk_output_block4_block4-4_f_c_1_running_mean, t_model_trunk_output_block4_block4-4_f_c_1_running_var, t_model_trunk_output_block4_block4-4_f_c_1_weight, t_model_trunk_output_block4_block4-4_f_se_fc1_bias, t_model_trunk_output_block4_block4-4_f_se_fc1_weight, t_model_trunk_output_block4_block4-4_f_se_fc2_bias, t_model_trunk_output_block4_block4-4_f_se_fc2_weight, t_model_trunk_output_block4_block4-5_f_a_0_weight, t_model_trunk_output_block4_block4-5_f_a_1_bias, t_model_trunk_output_block4_block4-5_f_a_1_num_batches_tracked, t_model_trunk_output_block4_block4-5_f_a_1_running_mean, t_model_trunk_output_block4_block4-5_f_a_1_running_var, t_model_trunk_output_block4_block4-5_f_a_1_weight, t_model_trunk_output_block4_block4-5_f_b_0_weight, t_model_trunk_output_block4_block4-5_f_b_1_bias, t_model_trunk_output_block4_block4-5_f_b_1_num_batches_tracked, t_model_trunk_output_block4_block4-5_f_b_1_running_mean, t_model_trunk_output_block4_block4-5_f_b_1_running_var, t_model_trunk_output_block4_block4-5_f_b_1_weight, t_model_trunk_output_block4_block4-5_f_c_0_weight, t_model_trunk_output_block4_block4-5_f_c_1_bias, t_model_trunk_output_block4_block4-5_f_c_1_num_batches_tracked, t_model_trunk_output_block4_block4-5_f_c_1_running_mean, t_model_trunk_output_block4_block4-5_f_c_1_running_var, t_model_trunk_output_block4_block4-5_f_c_1_weight, t_model_trunk_output_block4_block4-5_f_se_fc1_bias, t_model_trunk_output_block4_block4-5_f_se_fc1_weight, t_model_trunk_output_block4_block4-5_f_se_fc2_bias, t_model_trunk_output_block4_block4-5_f_se_fc2_weight), ())