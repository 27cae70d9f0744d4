# distributed.py — which rank of a distributed program this process is, and how Thunder distributes it
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A program started by torchrun (RANK, WORLD_SIZE, LOCAL_RANK in the environment) or one that has
# initialised torch.distributed when a case is captured is recorded per rank: each rank writes its cases
# as CAPTURE/<case>/rank<R>/ and its own manifest CAPTURE/record-rank<R>.json (layout.py), so that ranks
# never write the same file. A world size of 1 launched through torchrun is recorded the same way.
#
# rank_info() says which rank this is; transform_info() reads the distributed transform off a jitted
# callable: Thunder's DDPTransform / FSDPTransform (thunder.distributed.ddp / fsdp, or
# thunder.jit(transforms=[...])), its tensor-parallel transforms (column_parallel / row_parallel), and
# DTensor parameters or inputs (torch.distributed.tensor.parallel.parallelize_module).

import os
import sys


def _env_int(name):
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return None


def rank_info():
    """{"world_size", "rank", "local_rank", "backend", "launcher"} of this process, or None when it is not
    one rank of a distributed program. Never raises."""
    rank, world, local = _env_int("RANK"), _env_int("WORLD_SIZE"), _env_int("LOCAL_RANK")
    backend = None
    launcher = "torchrun" if os.environ.get("TORCHELASTIC_RUN_ID") else ("environment" if rank is not None else None)
    dist = None
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            import torch.distributed as dist

            if not (dist.is_available() and dist.is_initialized()):
                dist = None
        except Exception:
            dist = None
    if dist is not None:
        try:
            rank, world = dist.get_rank(), dist.get_world_size()
            backend = str(dist.get_backend())
            launcher = launcher or "torch.distributed"
        except Exception:
            pass
    if rank is None or world is None or rank < 0 or world < 1:
        return None
    return {"world_size": world, "rank": rank, "local_rank": local if local is not None else rank,
            "backend": backend, "launcher": launcher}


def _transforms(jfn):
    out = list(getattr(jfn, "_lc_transforms", None) or [])
    try:
        import thunder

        cd = thunder.compile_data(jfn)
        for t in getattr(cd, "transforms", None) or []:
            if not any(t is u for u in out):
                out.append(t)
    except Exception:
        pass
    return out


def _is_dtensor(v):
    try:
        from torch.distributed.tensor import DTensor
    except Exception:
        return False
    return isinstance(v, DTensor)


def transform_info(jfn, fn=None, args=(), kwargs=None):
    """{"transform": "ddp"|"fsdp"|"tensor_parallel"|None, "sharding_strategy": "ZERO2"|"ZERO3"|None,
    "transforms": [class names], "dtensor": bool, ...} of a jitted callable @jfn (of @fn, called with
    @args and @kwargs). Never raises."""
    names = []
    transform = strategy = None
    extra = {}
    for t in _transforms(jfn):
        cls = type(t).__name__
        names.append(cls)
        if cls == "DDPTransform" and transform is None:
            transform = "ddp"
            extra["bucket_size_in_mb"] = getattr(t, "bucket_size_in_mb", None)
        elif cls == "FSDPTransform" and transform in (None, "ddp"):
            transform = "fsdp"
            s = getattr(t, "sharding_strategy", None)
            strategy = getattr(s, "name", None) or (str(s) if s is not None else None)
            b = getattr(t, "bucketing_strategy", None)
            extra["bucketing_strategy"] = getattr(b, "name", None) or (str(b) if b is not None else None)
        elif "TensorParallel" in cls or "ColumnWise" in cls or "RowWise" in cls:
            transform = transform or "tensor_parallel"
    dtensor = False
    try:
        values = list(args) + list((kwargs or {}).values())
        if fn is not None and hasattr(fn, "parameters"):
            values += list(fn.parameters())
        dtensor = any(_is_dtensor(v) for v in values)
    except Exception:
        pass
    if dtensor and transform is None:
        transform = "tensor_parallel"
    out = {"transform": transform, "sharding_strategy": strategy, "transforms": names, "dtensor": dtensor}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out
