# Constructed by Delete Last Used (took 1 milliseconds)
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
  t118, = cotangents
  # t118: "cuda:0 f32[]"
  clear_mutable_collection(cotangents)
  del cotangents
  t106, t167, t_student_2_weight, t180, t169, x, = C0
  # t106: "cuda:0 f32[16, 10]"
  # t167: "cuda:0 f32[16, 10]"
  # t_student_2_weight: "cuda:0 f32[10, 128]"
  # t180: "cuda:0 f32[16, 128]"
  # t169: "cuda:0 b8[16, 128]"
  # x: "cuda:0 f32[16, 64]"
  clear_mutable_collection(C0)
  del C0
  (t181, t182) = kl_div_vjp(((t106, t167), {'reduction': "batchmean"}), t118)
  del t182, t167, t118
  [t116, t77] = TorchCompile1(t106, t181)
    # t116 = ltorch.log_softmax_backward(t181, t106, -1, dtypes.float32)  # t116: "cuda:0 f32[16, 10]"
      # t108 = ltorch.exp(t106)  # t108: "cuda:0 f32[16, 10]"
        # t108 = prims.exp(t106)  # t108: "cuda:0 f32[16, 10]"
      # t112 = ltorch.sum(t181, -1, True, dtype=None)  # t112: "cuda:0 f32[16, 1]"
        # t109 = ltorch.to(t181, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t109: "cuda:0 f32[16, 10]"
          # t109 = prims.shallow_copy(t181)  # t109: "cuda:0 f32[16, 10]"
        # t110 = prims.sum(t109, (1,))  # t110: "cuda:0 f32[16]"
        # t111 = prims.broadcast_in_dim(t110, [16, 1], [0])  # t111: "cuda:0 f32[16, 1]"
        # t112 = ltorch.to(t111, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t112: "cuda:0 f32[16, 1]"
          # t112 = prims.shallow_copy(t111)  # t112: "cuda:0 f32[16, 1]"
      # t114 = ltorch.mul(t108, t112)  # t114: "cuda:0 f32[16, 10]"
        # t113 = prims.broadcast_in_dim(t112, (16, 10), (0, 1))  # t113: "cuda:0 f32[16, 10]"
        # t114 = prims.mul(t108, t113)  # t114: "cuda:0 f32[16, 10]"
      # t115 = ltorch.sub(t181, t114, alpha=1)  # t115: "cuda:0 f32[16, 10]"
        # t115 = prims.sub(t181, t114)  # t115: "cuda:0 f32[16, 10]"
      # t116 = ltorch.to(t115, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t116: "cuda:0 f32[16, 10]"
        # t116 = prims.shallow_copy(t115)  # t116: "cuda:0 f32[16, 10]"
    # t77 = ltorch.reshape(t116, -1, 10)  # t77: "cuda:0 f32[16, 10]"
      # t77 = prims.reshape(t116, (16, 10))  # t77: "cuda:0 f32[16, 10]"
  del t106, t181
  t173 = torch.matmul(t77, t_student_2_weight)  # t173: "cuda:0 f32[16, 128]"
    # t173 = ltorch.matmul(t77, t_student_2_weight)  # t173: "cuda:0 f32[16, 128]"
      # t173 = prims.matmul(t77, t_student_2_weight)  # t173: "cuda:0 f32[16, 128]"
  del t77, t_student_2_weight
  t174 = torch.reshape(t173, (16, 128))  # t174: "cuda:0 f32[16, 128]"
    # t174 = ltorch.reshape(t173, (16, 128))  # t174: "cuda:0 f32[16, 128]"
      # t174 = prims.shallow_copy(t173)  # t174: "cuda:0 f32[16, 128]"
  del t173
  t183 = torch.reshape(t116, (-1, 10))  # t183: "cuda:0 f32[16, 10]"
    # t183 = ltorch.reshape(t116, (-1, 10))  # t183: "cuda:0 f32[16, 10]"
      # t183 = prims.reshape(t116, (16, 10))  # t183: "cuda:0 f32[16, 10]"
  t175 = torch.permute(t183, (1, 0))  # t175: "cuda:0 f32[10, 16]"
    # t175 = ltorch.permute(t183, (1, 0))  # t175: "cuda:0 f32[10, 16]"
      # t175 = prims.transpose(t183, (1, 0))  # t175: "cuda:0 f32[10, 16]"
  del t183
  t184 = torch.reshape(t180, (-1, 128))  # t184: "cuda:0 f32[16, 128]"
    # t184 = ltorch.reshape(t180, (-1, 128))  # t184: "cuda:0 f32[16, 128]"
      # t184 = prims.reshape(t180, (16, 128))  # t184: "cuda:0 f32[16, 128]"
  del t180
  t176 = torch.matmul(t175, t184)  # t176: "cuda:0 f32[10, 128]"
    # t176 = ltorch.matmul(t175, t184)  # t176: "cuda:0 f32[10, 128]"
      # t176 = prims.matmul(t175, t184)  # t176: "cuda:0 f32[10, 128]"
  del t175, t184
  t187 = torch.sum(t116, (0,), False, dtype=None)  # t187: "cuda:0 f32[10]"
    # t187 = ltorch.sum(t116, (0,), False, dtype=None)  # t187: "cuda:0 f32[10]"
      # t185 = ltorch.to(t116, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t185: "cuda:0 f32[16, 10]"
        # t185 = prims.shallow_copy(t116)  # t185: "cuda:0 f32[16, 10]"
      # t186 = prims.sum(t185, (0,))  # t186: "cuda:0 f32[10]"
      # t187 = ltorch.to(t186, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t187: "cuda:0 f32[10]"
        # t187 = prims.shallow_copy(t186)  # t187: "cuda:0 f32[10]"
  del t116
  t188 = torch.where(t169, t174, 0)  # t188: "cuda:0 f32[16, 128]"
    # t188 = ltorch.where(t169, t174, 0)  # t188: "cuda:0 f32[16, 128]"
      # t188 = prims.where(t169, t174, 0.0)  # t188: "cuda:0 f32[16, 128]"
  del t169, t174
  t189 = torch.reshape(t188, (-1, 128))  # t189: "cuda:0 f32[16, 128]"
    # t189 = ltorch.reshape(t188, (-1, 128))  # t189: "cuda:0 f32[16, 128]"
      # t189 = prims.reshape(t188, (16, 128))  # t189: "cuda:0 f32[16, 128]"
  t177 = torch.permute(t189, (1, 0))  # t177: "cuda:0 f32[128, 16]"
    # t177 = ltorch.permute(t189, (1, 0))  # t177: "cuda:0 f32[128, 16]"
      # t177 = prims.transpose(t189, (1, 0))  # t177: "cuda:0 f32[128, 16]"
  del t189
  t190 = torch.reshape(x, (-1, 64))  # t190: "cuda:0 f32[16, 64]"
    # t190 = ltorch.reshape(x, (-1, 64))  # t190: "cuda:0 f32[16, 64]"
      # t190 = prims.reshape(x, (16, 64))  # t190: "cuda:0 f32[16, 64]"
  del x
  t178 = torch.matmul(t177, t190)  # t178: "cuda:0 f32[128, 64]"
    # t178 = ltorch.matmul(t177, t190)  # t178: "cuda:0 f32[128, 64]"
      # t178 = prims.matmul(t177, t190)  # t178: "cuda:0 f32[128, 64]"
  del t177, t190
  t193 = torch.sum(t188, (0,), False, dtype=None)  # t193: "cuda:0 f32[128]"
    # t193 = ltorch.sum(t188, (0,), False, dtype=None)  # t193: "cuda:0 f32[128]"
      # t191 = ltorch.to(t188, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t191: "cuda:0 f32[16, 128]"
        # t191 = prims.shallow_copy(t188)  # t191: "cuda:0 f32[16, 128]"
      # t192 = prims.sum(t191, (0,))  # t192: "cuda:0 f32[128]"
      # t193 = ltorch.to(t192, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t193: "cuda:0 f32[128]"
        # t193 = prims.shallow_copy(t192)  # t193: "cuda:0 f32[128]"
  del t188
  return (None, t193, t178, t187, t176, None, None, None, None)
