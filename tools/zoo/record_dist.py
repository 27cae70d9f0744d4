# record_dist.py — one rank of a distributed zoo case (DDP, FSDP ZeRO-2/3, DTensor tensor parallel), run
# under torchrun inside `thunder-wb record`
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   thunder-wb record --out CAP --save-inputs -- \
#     torchrun --standalone --nproc-per-node W tools/zoo/record_dist.py CASE --extras DIR [--device cuda]
#
# Every rank builds the same model from one seed and takes its rows of one seeded global batch (rank r:
# rows r*B/W .. (r+1)*B/W-1), so that the averaged gradients of a W-rank run equal the gradients of the
# 1-rank run on the whole batch (the tensor-parallel case gives every rank the whole batch: its ranks
# split the weights, not the data). Each rank then
#   1. runs PyTorch's own step once, eagerly: DistributedDataParallel (ddp_*), FSDP2's fully_shard
#      (reshard_after_forward False for fsdp2_* = ZeRO-2, True for fsdp3_* = ZeRO-3), or
#      parallelize_module with ColwiseParallel/RowwiseParallel (tp_*), and saves that rank's loss and
#      gradients as DIR/CASE.rank<R>.ref.safetensors (output.0, grad_output, grad.param.<name>: the
#      rank's own gradient, the local shard for FSDP and DTensor parameters, whose whole gradient is
#      grad.full.param.<name>);
#   2. times that step: median ms of --iters iterations after --warmup, CUDA events on the rank's GPU
#      (perf_counter on the cpu), the ranks started together by a barrier;
#   3. runs and times Thunder's step: thunder.distributed.ddp / fsdp(sharding_strategy=ZERO2|ZERO3) of
#      thunder.jit(model), or for tp_* thunder.jit of the parallelized model and, when it fails, ThunderFX
#      (torch.compile(backend=ThunderCompiler())); the recorder captures every rank's traces as
#      CAP/<entry>/rank<R>/;
#   4. writes DIR/CASE.rank<R>.json: what ran, the versions, the timings and every error with its traceback.
# tools/zoo/record_dist_zoo.py assembles CAP and DIR into the zoo's case folder (ZOO/CASE_wW/rank<R>/).
# With --device cpu the process group is gloo's (what gloo cannot do is recorded as an error).

import argparse
import contextlib
import copy
import json
import os
import statistics
import sys
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F

import precision  # tools/zoo/precision.py, beside this script

GLOBAL_BATCH = 4  # rows of the global batch (divisible by 1, 2 and 4 ranks)
SEQ, VOCAB = 32, 512  # the language model's sequence and vocabulary
IMG = 64  # the convnet's image side


class LMLoss(nn.Module):
    """model(ids) -> cross entropy against the targets: the loss inside the jitted module."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, targets):
        logits = self.model(ids, targets)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


class ClsLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, y):
        return F.cross_entropy(self.model(x), y)


class MLP(nn.Module):
    """A transformer's MLP block twice: the tensor-parallel case's model (column-, then row-wise)."""

    def __init__(self, d=64, hidden=256):
        super().__init__()
        self.up = nn.Linear(d, hidden)
        self.down = nn.Linear(hidden, d)
        self.up2 = nn.Linear(d, hidden)
        self.down2 = nn.Linear(hidden, d)

    def forward(self, x):
        x = x + self.down(F.gelu(self.up(x)))
        x = x + self.down2(F.gelu(self.up2(x)))
        return x.pow(2).mean()


def _gen():
    g = torch.Generator(device="cpu")
    g.manual_seed(1234)
    return g


def build_llama():
    """Thunder's own Llama 2 (thunder.tests.llama2_model, from llama2.c): 2 layers, dim 64, GQA 4/2."""
    from thunder.tests.llama2_model import ModelArgs, Transformer

    torch.manual_seed(0)
    m = Transformer(ModelArgs(dim=64, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=VOCAB, multiple_of=32,
                              max_seq_len=SEQ, dropout=0.0))
    ids = torch.randint(4, VOCAB, (GLOBAL_BATCH, SEQ + 1), generator=_gen())
    return LMLoss(m), (ids[:, :-1].contiguous(), ids[:, 1:].contiguous())


def build_convnext():
    """torchvision's ConvNeXt, small: 2 stages of 2 blocks, widths 32 and 64 (7x7 depthwise convs,
    LayerNorm2d, layer scale; no batch norm, so the ranks' gradients average to the whole batch's; no
    stochastic depth, which Thunder 0.2.6 cannot trace: bernoulli_), 10 classes, 64x64 images."""
    from torchvision.models.convnext import CNBlockConfig, ConvNeXt

    torch.manual_seed(0)
    m = ConvNeXt([CNBlockConfig(32, 64, 2), CNBlockConfig(64, None, 2)], stochastic_depth_prob=0.0, num_classes=10)
    x = torch.randn(GLOBAL_BATCH, 3, IMG, IMG, generator=_gen())
    y = torch.randint(0, 10, (GLOBAL_BATCH,), generator=_gen())
    return ClsLoss(m), (x, y)


def build_mlp():
    torch.manual_seed(0)
    return MLP(), (torch.randn(GLOBAL_BATCH, 16, 64, generator=_gen()),)


MODELS = {"llama": (build_llama, "Thunder's Llama 2 (thunder.tests.llama2_model), 2 layers, dim 64, GQA 4/2 heads"),
          "convnext": (build_convnext, "torchvision ConvNeXt, 2 stages of 2 blocks, widths 32/64, 64x64 images"),
          "mlp": (build_mlp, "two transformer MLP blocks, dim 64, hidden 256")}
TRANSFORMS = {"ddp": "DDP", "fsdp2": "FSDP ZeRO-2", "fsdp3": "FSDP ZeRO-3", "tp": "tensor parallel (DTensor)"}


def case_names():
    """Every case, the most wanted first (a deadline leaves out the last)."""
    return ["ddp_llama", "fsdp3_llama", "fsdp2_llama", "ddp_convnext", "fsdp3_convnext", "fsdp2_convnext", "tp_mlp"]


def split_case(name):
    t, _, m = name.partition("_")
    if t not in TRANSFORMS or m not in MODELS:
        raise SystemExit(f"record_dist.py: unknown case {name!r}; cases: {', '.join(case_names())}")
    return t, m


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("case", help="TRANSFORM_MODEL: " + ", ".join(case_names()))
    p.add_argument("--extras", required=True)
    p.add_argument("--device", default="cuda")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    return p.parse_args()


# -- the rank's step and its timing -------------------------------------------------------------------


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def step(fn, args, params):
    if not params:  # inference (the tensor-parallel case's last resort): forward only
        with torch.no_grad():
            return fn(*args)
    loss = fn(*args)
    loss.backward()
    for p in params:
        p.grad = None
    return loss


def barrier(dev):
    """All ranks here; NCCL is told the rank's GPU (it warns and guesses otherwise)."""
    import torch.distributed as dist

    if dev.type == "cuda":
        dist.barrier(device_ids=[dev.index])
    else:
        dist.barrier()


def time_step(fn, args, params, dev, iters, warmup):
    for _ in range(warmup):
        step(fn, args, params)
    sync(dev)
    barrier(dev)
    times = []
    for _ in range(iters):
        if dev.type == "cuda":
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            step(fn, args, params)
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
        else:
            t0 = time.perf_counter()
            step(fn, args, params)
            times.append((time.perf_counter() - t0) * 1e3)
    barrier(dev)
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times), "iters": iters,
            "warmup": warmup}


def _local(t):
    return t.to_local() if hasattr(t, "to_local") else t


def _full(t):
    return t.full_tensor() if hasattr(t, "full_tensor") else t


def reference(fn, module, args):
    """The rank's loss and gradients after PyTorch's own step, keyed as tensors.safetensors is."""
    loss = fn(*args)
    go = torch.ones_like(loss)
    loss.backward(go)
    ref = {"output.0": _full(loss).detach().clone(), "grad_output": _full(go).clone()}
    for n, p in module.named_parameters():
        if p.grad is None:
            continue
        ref[f"grad.param.{n}"] = _local(p.grad).detach().clone()
        if hasattr(p.grad, "full_tensor"):  # a replicated DTensor's local tensor is its whole: copies, not views
            ref[f"grad.full.param.{n}"] = p.grad.full_tensor().detach().clone()
    module.zero_grad(set_to_none=True)
    return ref


# -- PyTorch's and Thunder's distributed models ------------------------------------------------------------


def tp_plan():
    from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel

    return {"up": ColwiseParallel(), "down": RowwiseParallel(), "up2": ColwiseParallel(), "down2": RowwiseParallel()}


def pytorch_model(transform, model, dev, world):
    """(callable, the module whose named_parameters name the gradients)."""
    if transform == "ddp":
        from torch.nn.parallel import DistributedDataParallel

        d = DistributedDataParallel(model, device_ids=[dev.index] if dev.type == "cuda" else None)
        return d, model
    if transform in ("fsdp2", "fsdp3"):
        from torch.distributed.fsdp import fully_shard

        reshard = transform == "fsdp3"
        blocks = getattr(getattr(model, "model", None), "layers", None)
        for b in blocks or []:
            fully_shard(b, reshard_after_forward=reshard)
        fully_shard(model, reshard_after_forward=reshard)
        return model, model
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import parallelize_module

    mesh = init_device_mesh(dev.type, (world,))
    return parallelize_module(model, mesh, tp_plan()), model


def thunder_model(transform, model, dev, world, info):
    import thunder

    if transform == "ddp":
        from thunder.distributed import ddp

        return ddp(thunder.jit(model))
    if transform in ("fsdp2", "fsdp3"):
        from thunder.distributed import FSDPType, fsdp

        strategy = FSDPType.ZERO2 if transform == "fsdp2" else FSDPType.ZERO3
        return fsdp(thunder.jit(model), device=dev, sharding_strategy=strategy)
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import parallelize_module

    mesh = init_device_mesh(dev.type, (world,))
    return parallelize_module(model, mesh, tp_plan())  # jitted by the caller (thunder.jit, then ThunderFX)


def run_thunder(transform, model, args, dev, world, a, info):
    import thunder

    fn = thunder_model(transform, model, dev, world, info)
    tries = [("jit", thunder.jit, True)] if transform == "tp" else [("jit", None, True)]
    if transform == "tp":  # thunder.jit cannot trace parallelize_module's hooks (Thunder 0.2.6): ThunderFX
        from thunder.dynamo import ThunderCompiler

        tries.append(("thunderfx", lambda m: torch.compile(m, backend=ThunderCompiler()), True))
        tries.append(("thunderfx inference", lambda m: torch.compile(m, backend=ThunderCompiler()), False))
    for k, (frontend, wrap, training) in enumerate(tries):
        try:
            jfn = wrap(fn) if wrap is not None else fn
            params = [p for p in jfn.parameters()] if hasattr(jfn, "parameters") else list(fn.parameters())
            params = params if training else []
            info["thunder_mode"] = "train" if training else "inference (forward under no_grad)"
            sync(dev)
            t0 = time.perf_counter()
            step(jfn, args, params)
            sync(dev)
            info["timings"]["thunder_first_call_wall_s"] = time.perf_counter() - t0
            info["frontend"] = frontend
            info["timings"]["thunder"] = time_step(jfn, args, params, dev, a.iters, a.warmup)
            return
        except Exception as e:
            if k + 1 == len(tries):
                raise
            info["errors"].append({"stage": f"thunder ({frontend})", "error": f"{type(e).__name__}: {e}"[:2000],
                                   "traceback": traceback.format_exc()[-6000:]})
            info["retry"] = tries[k + 1][0]
            torch._dynamo.reset()
            fn.zero_grad(set_to_none=True)


# -- the rank -----------------------------------------------------------------------------------------------


def versions(dev):
    v = {"torch": torch.__version__, "python": sys.version.split()[0]}
    try:
        import thunder

        v["thunder"] = getattr(thunder, "__version__", "?")
        v["thunder_file"] = os.path.dirname(thunder.__file__)
    except Exception as e:
        v["thunder"] = f"{type(e).__name__}: {e}"
    if dev.type == "cuda":
        v["gpu"] = torch.cuda.get_device_name(dev)
        v["cuda"] = torch.version.cuda
        try:
            n = torch.cuda.nccl.version()
            v["nccl"] = ".".join(map(str, n)) if isinstance(n, (tuple, list)) else str(n)
        except Exception as e:
            v["nccl"] = f"{type(e).__name__}: {e}"
    return v


def main():
    a = parse_args()
    import torch.distributed as dist

    transform, model_name = split_case(a.case)
    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    local = int(os.environ.get("LOCAL_RANK", rank))
    if a.device.startswith("cuda"):
        torch.cuda.set_device(local)
        dev = torch.device("cuda", local)
    else:
        dev = torch.device("cpu")
    dist.init_process_group("nccl" if dev.type == "cuda" else "gloo")
    os.makedirs(a.extras, exist_ok=True)
    build, what = MODELS[model_name]
    info = {"case": a.case, "what": f"{TRANSFORMS[transform]} training of {what}", "transform": transform,
            "model": model_name, "world_size": world, "rank": rank, "local_rank": local,
            "backend": str(dist.get_backend()), "device": str(dev), "argv": sys.argv, "timings": {}, "errors": [],
            "global_batch": GLOBAL_BATCH, "versions": versions(dev)}
    try:
        model, args = build()
    except Exception as e:
        info["status"] = "model not built"
        info["errors"].append({"stage": "build", "error": f"{type(e).__name__}: {e}"[:2000],
                               "traceback": traceback.format_exc()[-6000:]})
        return finish(a, info, dist, 1)
    if transform != "tp":
        if GLOBAL_BATCH % world:
            raise SystemExit(f"record_dist.py: the global batch of {GLOBAL_BATCH} rows does not split into {world}")
        rows = GLOBAL_BATCH // world
        args = tuple(t[rank * rows:(rank + 1) * rows] for t in args)
        info["rows"] = [rank * rows, (rank + 1) * rows - 1]
    else:
        info["rows"] = [0, GLOBAL_BATCH - 1]
        info["note"] = "tensor parallel: every rank takes the whole batch; the ranks split the weights"
    args = tuple(t.to(dev) for t in args)
    model = model.to(dev)
    info["num_parameters"] = sum(p.numel() for p in model.parameters())
    thunder_copy = copy.deepcopy(model)

    status = []
    try:
        fn, module = pytorch_model(transform, model, dev, world)
        torch.manual_seed(7)
        with precision.ieee_fp32():  # the reference in f32, not TF32 (precision.py); timed with the defaults
            ref = reference(fn, module, args)
        info["reference_precision"] = precision.describe()
        from safetensors.torch import save_file

        save_file({k: v.contiguous().cpu() for k, v in ref.items()},
                  os.path.join(a.extras, f"{a.case}.rank{rank}.ref.safetensors"))
        info["timings"]["eager"] = time_step(fn, args, list(module.parameters()), dev, a.iters, a.warmup)
        status.append("eager ok")
    except Exception as e:
        status.append("eager failed")
        info["errors"].append({"stage": "eager", "error": f"{type(e).__name__}: {e}"[:2000],
                               "traceback": traceback.format_exc()[-6000:]})
    try:
        run_thunder(transform, thunder_copy, args, dev, world, a, info)
        status.append("thunder ok" if not info.get("retry") else f"thunder.jit failed; {info['retry']} ok")
    except Exception as e:
        status.append("thunder failed")
        info["errors"].append({"stage": "thunder", "error": f"{type(e).__name__}: {e}"[:2000],
                               "traceback": traceback.format_exc()[-6000:]})
    info["status"] = "; ".join(status)
    return finish(a, info, dist, 0)


def finish(a, info, dist, rc):
    """Writes DIR/CASE.rank<R>.json, prints the rank's line, leaves the process group; returns @rc."""
    with open(os.path.join(a.extras, f"{a.case}.rank{info['rank']}.json"), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1, default=str)
    t = info["timings"]
    med = lambda k: ("%.3f" % t[k]["median_ms"]) if k in t else "-"
    print(f"zoo: {a.case} rank {info['rank']}/{info['world_size']}: {info['status']}; eager {med('eager')} ms, "
          f"thunder {med('thunder')} ms" + "".join(f"; {e['stage']}: {e['error'][:160]}" for e in info["errors"]),
          file=sys.stderr, flush=True)
    with contextlib.suppress(Exception):
        barrier(torch.device(info["device"]))
        dist.destroy_process_group()
    return rc


if __name__ == "__main__":
    sys.exit(main())
