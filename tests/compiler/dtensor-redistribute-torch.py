#!/usr/bin/env python3
# dtensor-redistribute-torch.py — what PyTorch's DTensor.redistribute communicates, per pair of placements
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   /work/venv-zoo/bin/python tests/compiler/dtensor-redistribute-torch.py > tests/compiler/dtensor-redistribute.tsv
#
# Runs torch.distributed.tensor's own redistribute (torch/distributed/tensor/_redistribute.py,
# redistribute_local_tensor) on rank 0 of a fake process group of 2 ranks (torch.testing's FakeStore, no
# communication), for a DTensor of global shape [4, 16, 256] (tp_mlp's activations) between every pair of
# Replicate(), Shard(0..2) and Partial(sum|avg|max|min), and records the collectives it calls by patching
# torch.distributed._functional_collectives (all_reduce, all_gather_tensor, reduce_scatter_tensor) and
# placement_types.shard_dim_alltoall. A pair without a collective is "split" (Replicate -> Shard: the rank's
# chunk), "partition" (Replicate -> Partial) or "none" (nothing changes); a pair torch refuses is "error".
# tests/compiler/test-dtensor.c compares wb_dtensor_redistribute_plan with this table.
import sys

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
import torch.distributed.tensor.placement_types as pt
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard
from torch.testing._internal.distributed.fake_pg import FakeStore

GLOBAL = (4, 16, 256)
calls = []


def _op(op):
    return str(op).lower().replace("reduceop.", "").replace("redopType.", "")


def patch():
    ar, ag, rs, a2a = funcol.all_reduce, funcol.all_gather_tensor, funcol.reduce_scatter_tensor, pt.shard_dim_alltoall

    def all_reduce(t, reduceOp, group, tag=""):
        calls.append(f"all_reduce({_op(reduceOp)})")
        return ar(t, reduceOp, group, tag)

    def all_gather_tensor(t, gather_dim, group, tag=""):
        calls.append(f"all_gather(dim={gather_dim})")
        return ag(t, gather_dim, group, tag)

    def reduce_scatter_tensor(t, reduceOp, scatter_dim, group, tag=""):
        calls.append(f"reduce_scatter({_op(reduceOp)}, dim={scatter_dim})")
        return rs(t, reduceOp, scatter_dim, group, tag)

    def shard_dim_alltoall(t, gather_dim, shard_dim, mesh, mesh_dim):
        calls.append(f"all_to_all({gather_dim}->{shard_dim})")
        out = torch.chunk(torch.cat([t] * mesh.size(mesh_dim), dim=gather_dim), mesh.size(mesh_dim), dim=shard_dim)[0]
        return out.contiguous()

    funcol.all_reduce, funcol.all_gather_tensor, funcol.reduce_scatter_tensor = all_reduce, all_gather_tensor, reduce_scatter_tensor
    pt.shard_dim_alltoall = shard_dim_alltoall


def local_shape(p):
    s = list(GLOBAL)
    if isinstance(p, Shard):
        s[p.dim] //= 2
    return s


def main():
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=2)
    mesh = init_device_mesh("cpu", (2,))
    patch()
    ps = [Replicate(), Shard(0), Shard(1), Shard(2), Partial("sum"), Partial("avg"), Partial("max"), Partial("min")]
    print("# src\tdst\twhat torch does (torch %s, mesh of 2, global %s)" % (torch.__version__, list(GLOBAL)))
    for a in ps:
        for b in ps:
            calls.clear()
            x = DTensor.from_local(torch.randn(local_shape(a)), mesh, [a], run_check=False, shape=GLOBAL,
                                   stride=torch.empty(GLOBAL).stride())
            try:
                y = x.redistribute(mesh, [b])
                what = ",".join(calls)
                if not what:
                    if a == b:
                        what = "none"
                    elif isinstance(b, Shard) and isinstance(a, Replicate):
                        what = f"split(dim={b.dim})"
                    elif isinstance(b, Partial) and isinstance(a, Replicate):
                        what = f"partition({b.reduce_op})"
                    else:
                        what = "local?"
                assert list(y.to_local().shape) == local_shape(b), (a, b, y.to_local().shape)
            except (RuntimeError, NotImplementedError, ValueError, AssertionError) as e:
                if isinstance(e, AssertionError) and e.args and isinstance(e.args[0], tuple):
                    raise
                what = "error"
            print(f"{a!r}\t{b!r}\t{what}")
    dist.destroy_process_group()


if __name__ == "__main__":
    sys.exit(main())
