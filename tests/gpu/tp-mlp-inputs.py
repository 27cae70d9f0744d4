#!/usr/bin/env python3
# tp-mlp-inputs.py — each rank's inputs and expected outputs of the zoo's tp_mlp_thunder_main_w2 subgraphs
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tests/gpu/tp-mlp-inputs.py ZOO/tp_mlp_thunder_main_w2 OUT      (needs PyTorch; cpu is enough)
#
# The recorder saved the subgraphs' DTensor inputs as uninitialised memory (their tensors.safetensors hold NaNs
# and 1e38s), so a run on them compares nothing. This rebuilds the recorded model exactly as
# tools/zoo/record_dist.py does (torch.manual_seed(0), MLP(64, 256); x from torch.Generator seed 1234) and
# its tensor-parallel layout (ColwiseParallel up/up2: rank r holds rows r*128.. of the weight and bias, its
# output Shard(2); RowwiseParallel down/down2: rank r holds columns r*128.. of the weight, the output is
# Partial(sum), the replicated bias entering as Partial: bias / 2 on each rank, as DTensor's addmm does), then
# writes for every subgraph G and rank R:
#   OUT/G.in.rankR.safetensors     input.<name>: the rank's local tensor (what `profile --inputs` reads)
#   OUT/G.want.rankR.safetensors   output.<i>: the rank's local outputs, computed here in float64, stored f32
# and checks itself against the recording: the plain tensor inputs Thunder saved (x, and x1 in the last subgraph)
# and each rank's reference.safetensors output.0 (the loss PyTorch's own eager step computed on the GPU).
import os
import sys

import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file


def model():
    torch.manual_seed(0)
    lin = [torch.nn.Linear(64, 256), torch.nn.Linear(256, 64), torch.nn.Linear(64, 256), torch.nn.Linear(256, 64)]
    g = torch.Generator(device="cpu")
    g.manual_seed(1234)
    x = torch.randn(4, 16, 64, generator=g)
    return [(m.weight.detach().double(), m.bias.detach().double()) for m in lin], x.double()


def main():
    case, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    (up, down, up2, down2), x = model()
    W, H = 2, 128
    x1 = x + F.linear(F.gelu(F.linear(x, *up)), *down)
    loss = (x1 + F.linear(F.gelu(F.linear(x1, *up2)), *down2)).pow(2).mean()
    bad = 0
    for r in range(W):
        rows = slice(r * H, (r + 1) * H)

        def col(x_, p):  # ColwiseParallel: the rank's columns of the output
            return F.linear(x_, p[0][rows], p[1][rows])

        def row(h_, p):  # RowwiseParallel: the rank's partial sum, with half the bias
            return F.linear(h_, p[0][:, rows]) + p[1] / W

        h, h2 = F.gelu(col(x, up)), F.gelu(col(x1, up2))
        cases = {
            "thunderfx_g0_GraphModule": ({"l_x_": x}, [x]),
            "thunderfx_g0_GraphModule_1": ({"l_x_": x}, [x]),
            "thunderfx_g0_GraphModule_2": ({"linear": col(x, up)}, [h]),
            "thunderfx_g0_GraphModule_3": ({"linear_1": row(h, down), "l_x_": x}, [x1, x1]),
            "thunderfx_g0_GraphModule_4": ({"linear_2": col(x1, up2)}, [h2]),
            "thunderfx_g0_GraphModule_5": ({"linear_3": row(h2, down2), "x": x1}, [loss]),
        }
        ref = load_file(os.path.join(case, f"rank{r}", "reference.safetensors"))
        e = abs(ref["output.0"].double() - loss).item()
        print(f"rank {r}: loss {loss.item():.6f}, PyTorch's eager step on the GPU {ref['output.0'].item():.6f} (|diff| {e:.2e})")
        bad += e > 1e-4
        for gname, (ins, outs) in cases.items():
            rec = load_file(os.path.join(case, f"rank{r}", gname, "tensors.safetensors"))
            for k, v in ins.items():
                saved = rec.get(f"input.{k}")
                if k.startswith("linear"):  # a DTensor: recorded as uninitialised memory, nothing to compare
                    continue
                if saved is not None and saved.shape == v.shape:
                    e = (saved.double() - v).abs().max().item()
                    print(f"  {gname} rank {r} input.{k}: recorded vs rebuilt max |diff| {e:.2e}")
                    bad += e > 1e-4
            save_file({f"input.{k}": v.float().contiguous() for k, v in ins.items()},
                      os.path.join(out, f"{gname}.in.rank{r}.safetensors"))
            save_file({f"output.{i}": v.float().contiguous() for i, v in enumerate(outs)},
                      os.path.join(out, f"{gname}.want.rank{r}.safetensors"))
    print("rebuilt model matches the recording" if not bad else f"{bad} mismatches with the recording")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
