# record_dist.py — one training step of a small MLP under Thunder's DDP or FSDP (ZeRO-2, ZeRO-3, with
# or without LAYER bucketing), on the CPU with gloo, for `thunder-wb record` (tests/dist/README.md)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   thunder-wb record --out CAP --save-inputs -- python record_dist.py ddp|zero2|zero3|zero2_layer|zero3_layer REFDIR
#   thunder-wb record --python PY --out CAP --save-inputs -- torchrun --nproc-per-node 2 record_dist.py MODE REFDIR
#
# Writes REFDIR/<pid>.safetensors with what the workbench compares a run with, keyed as a case's
# tensors.safetensors: input.input, param.<name> (the jitted module's parameters, this rank's shards for
# FSDP), output.0, grad_output and grad.param.<name> (Thunder's own results of the step, after its
# collectives), and REFDIR/<pid>.json with the rank and world size, so that layout.py can tell which
# captured entry belongs to which rank.
import json
import os
import sys

import torch
import torch.distributed as dist
import thunder
from thunder.distributed import ddp, fsdp, FSDPType
from safetensors.torch import save_file

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29531")
rank = int(os.environ.get("RANK", "0"))
world = int(os.environ.get("WORLD_SIZE", "1"))
dist.init_process_group("gloo", rank=rank, world_size=world)
mode, refdir = sys.argv[1], sys.argv[2]
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 8))
if mode == "ddp":
    jm = ddp(thunder.jit(m))
elif mode in ("zero2", "zero3", "zero2_layer", "zero3_layer"):
    from thunder.distributed import FSDPBucketingStrategy

    kind = FSDPType.ZERO2 if mode.startswith("zero2") else FSDPType.ZERO3
    buckets = FSDPBucketingStrategy.LAYER if mode.endswith("_layer") else FSDPBucketingStrategy.NONE
    jm = fsdp(thunder.jit(m), sharding_strategy=kind, bucketing_strategy=buckets, device=torch.device("cpu"))
else:
    raise SystemExit(f"unknown mode {mode}")
torch.manual_seed(1 + rank)
x = torch.randn(4, 16)
ref = {"input.input": x.clone()}
for n, p in jm.named_parameters():
    ref[f"param.{n}"] = p.detach().clone()
out = jm(x)
go = torch.ones_like(out)
out.backward(go)
ref["output.0"] = out.detach().clone()
ref["grad_output"] = go
for n, p in jm.named_parameters():
    if p.grad is not None:
        ref[f"grad.param.{n}"] = p.grad.detach().clone()
os.makedirs(refdir, exist_ok=True)
save_file({k: v.contiguous() for k, v in ref.items()}, os.path.join(refdir, f"{os.getpid()}.safetensors"))
with open(os.path.join(refdir, f"{os.getpid()}.json"), "w") as f:
    json.dump({"rank": rank, "world_size": world, "mode": mode}, f)
print("rank", rank, "of", world, "loss", float(out.sum()), flush=True)
dist.destroy_process_group()
