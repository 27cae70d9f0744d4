#!/usr/bin/env python3
# make-fsdp3-convnext-torch.py — PyTorch's own result of fsdp3_convnext_w1/rank0's training step, computed
# on the cpu in f64 from the inputs and parameters recorded in its tensors.safetensors, for test-numerics
# (/zoo/numerics/recorded-reference-precision). Independent of the workbench: torchvision's ConvNeXt
# (tools/zoo/record_dist.py's build_convnext: 2 stages of 2 blocks, widths 32/64, 10 classes) and
# F.cross_entropy, as the zoo recorded it (world size 1: FSDP2's gradients are the whole model's).
#   /work/venv-zoo/bin/python make-fsdp3-convnext-torch.py build/tests/zoo/zoo/fsdp3_convnext_w1/rank0 OUT
# Writes output.0 and the gradients of the convolutions, the LayerNorms around them and the classifier
# (the tensors that TF32 moved in the recorded reference), cast to f32 (f64's rounding to f32 is 6e-8
# relative, far inside f32's rtol 1e-4).
# SPDX-License-Identifier: GPL-3.0-or-later
import sys

import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file
from torchvision.models.convnext import CNBlockConfig, ConvNeXt

KEEP = ("classifier.", "features.0.", "features.2.")


def main():
    case, out = sys.argv[1], sys.argv[2]
    r = load_file(case + "/tensors.safetensors")
    m = ConvNeXt([CNBlockConfig(32, 64, 2), CNBlockConfig(64, None, 2)], stochastic_depth_prob=0.0, num_classes=10)
    m.load_state_dict({k[len("param.model."):]: v for k, v in r.items() if k.startswith("param.")})
    m = m.double()
    loss = F.cross_entropy(m(r["input.x"].double()), r["input.y"])
    loss.backward()
    res = {"output.0": loss.detach().float()}
    for n, p in m.named_parameters():
        if n.startswith(KEEP):
            res[f"grad.param.model.{n}"] = p.grad.float().contiguous()
    save_file(res, out, metadata={"creator": "tests/zoo/data/make-fsdp3-convnext-torch.py",
                                  "torch": torch.__version__, "precision": "f64 on the cpu, stored as f32"})
    print(f"{len(res)} tensors, loss {loss.item():.9f}")


if __name__ == "__main__":
    main()
