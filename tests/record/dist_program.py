# dist_program.py — a small training step under Thunder's DDP or FSDP, one process per rank (torchrun),
# for tests/record/test-record-dist.sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   torchrun --standalone --nproc-per-node W tests/record/dist_program.py ddp|zero2|zero3
#
# gloo on the cpu: every rank takes its rows of one seeded batch, runs one forward and backward of the
# jitted MLP, and prints its loss.
import os
import sys

import torch
import torch.distributed as dist

import thunder
from thunder.distributed import FSDPType, ddp, fsdp


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "ddp"
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 8))
    jm = thunder.jit(m)
    if mode == "ddp":
        jm = ddp(jm)
    else:
        strategy = FSDPType.ZERO2 if mode == "zero2" else FSDPType.ZERO3
        jm = fsdp(jm, sharding_strategy=strategy, device=torch.device("cpu"))
    x = torch.randn(4, 16, generator=torch.Generator().manual_seed(1))
    rows = 4 // world
    loss = jm(x[rank * rows:(rank + 1) * rows]).pow(2).mean()
    loss.backward()
    print(f"rank {rank} of {world}: loss {loss.item():.6f}", flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
