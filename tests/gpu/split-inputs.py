#!/usr/bin/env python3
# split-inputs.py — each rank's inputs of a data-parallel step, cut from the 1-rank recording of the same step
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tests/gpu/split-inputs.py --mode ddp|fsdp --world W [--whole-batch] ONE/tensors.safetensors OUTDIR
#
# Writes OUTDIR/inputs.rank<r>.safetensors for r < W from the 1-rank case's recorded tensors: every input.* cut
# along dim 0 into W equal parts (rank r takes part r: its share of the global batch, as tools/zoo/record_dist.py
# splits it; --whole-batch: every rank the whole batch, for cases whose ranks each ran a batch of the 1-rank size,
# as tests/dist's, where the ranks' mean gradient is then the 1-rank one); buffer.* and grad_output whole; param.* whole for ddp, and for fsdp Thunder's shard of rank r
# (thunder/distributed/__init__.py _shard_tensor: dim 0 padded with zeros to a multiple of W, then chunk r). With
# these as `profile --inputs OUTDIR/inputs.safetensors`, the W-rank run computes the 1-rank run's step, so
# compare-ranks.py can hold the two against each other whatever the recorder saved per rank. Standard library
# only (safetensors_lite.py).
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from safetensors_lite import Tensor, load, save  # noqa: E402


def shard(t, rank, world):
    chunk = (t.shape[0] + world - 1) // world
    have = max(0, min(t.shape[0], chunk * (rank + 1)) - chunk * rank)
    part = t.rows(chunk * rank, chunk * rank + have)
    pad = (chunk - have) * (len(t.data) // t.shape[0] if t.shape[0] else 0)
    return Tensor(t.dtype, [chunk] + t.shape[1:], part.data + b"\0" * pad)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=("ddp", "fsdp"), required=True)
    ap.add_argument("--world", type=int, required=True)
    ap.add_argument("--whole-batch", action="store_true",
                    help="every rank takes the whole batch (cases whose ranks each ran a batch of the 1-rank size)")
    ap.add_argument("one")
    ap.add_argument("outdir")
    a = ap.parse_args()
    one = load(a.one)
    os.makedirs(a.outdir, exist_ok=True)
    for r in range(a.world):
        out = {}
        for k, t in one.items():
            if k.startswith("input.") and t.shape and not a.whole_batch:
                n = t.shape[0] // a.world
                out[k] = t.rows(n * r, n * (r + 1))
            elif k.startswith("input.") or k.startswith("buffer.") or k == "grad_output":
                out[k] = t
            elif k.startswith("param."):
                out[k] = shard(t, r, a.world) if a.mode == "fsdp" and t.shape else t
        save(os.path.join(a.outdir, "inputs.rank%d.safetensors" % r), out)
        print("rank %d: %d tensors" % (r, len(out)))


if __name__ == "__main__":
    main()
