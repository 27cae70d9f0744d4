# record_bucketing.py — Thunder's bucketing prims of DDP and FSDP called directly, for `thunder-wb record`
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   thunder-wb record --out CAP --save-inputs -- python record_bucketing.py REFDIR
#
# DDP and FSDP print pack, unpack, pack_for_fsdp and unpack_for_fsdp only when they bucket, which the
# CPU recordings of record_dist.py do not; this jits a function that calls them the way the transforms
# do (FSDP's reduce-scatter bucket: pack_for_fsdp 'scatter' of unsharded gradients, and its all-gather
# bucket: pack_for_fsdp 'gather' of shards unpacked with unpack_for_fsdp 'gather'; DDP's pack/unpack of
# one bucket), and writes Thunder's results (the torch executor's) to REFDIR/<pid>.safetensors.
import os
import sys

import torch
import thunder
import thunder.distributed.prims as dist_prims
from safetensors.torch import save_file


def buckets(w, b, g):
    scattered = dist_prims.pack_for_fsdp([w, b], 4, "scatter")
    gathered = dist_prims.pack_for_fsdp([w, b], 1, "gather")
    w4, b4 = dist_prims.unpack_for_fsdp(gathered, [w[:2], b[:2]], 2, "gather")
    w2, b2 = dist_prims.unpack_for_fsdp(scattered[:3], [w, b], 4, "scatter")
    bucket = dist_prims.pack([w, g], "wb-test-bucket")
    w1, g1 = dist_prims.unpack(bucket * 2, [w, g], "wb-test-bucket")
    return scattered, gathered, w4, b4, w2, b2, bucket, w1, g1


torch.manual_seed(0)
w, b, g = torch.randn(4, 2), torch.randn(4), torch.randn(3, 2)
jf = thunder.jit(buckets)
outs = jf(w, b, g)
ref = {"input.w": w, "input.b": b, "input.g": g}
for i, o in enumerate(outs):
    ref[f"output.{i}"] = o.detach().clone().contiguous()
os.makedirs(sys.argv[1], exist_ok=True)
save_file(ref, os.path.join(sys.argv[1], f"{os.getpid()}.safetensors"))
print(thunder.last_traces(jf)[-1])
