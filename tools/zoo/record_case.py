# record_case.py — runs one zoo case eagerly, under torch.compile and under Thunder, under `thunder-wb record`
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   thunder-wb record --out CAP --save-inputs -- python3 tools/zoo/record_case.py CASE --extras DIR [--device cuda]
#
# The recorder (python/thunder_wb_record, put on PYTHONPATH by `record`) captures every trace Thunder
# compiles into CAP. This script writes beside it, into DIR:
#   CASE.json               what ran and how long: eager / torch.compile / Thunder medians (ms) and first-call
#                           wall times (s), measured in this process; errors with their tracebacks
#   CASE.ref.safetensors    the eager reference: output.0, grad_output (training), grad.input.<arg>,
#                           grad.param.<name> (the jitted module's parameter names)
# tools/zoo/record_zoo.py assembles CAP and DIR into the zoo's case folder.
#
# Timing: CUDA events around each iteration on a GPU (perf_counter on the cpu), after warm-up; the timed
# loops of concurrent cases take a file lock (ZOO_GPU_LOCK) so that only one case times the GPU at a time
# while the others compile.

import argparse
import contextlib
import fcntl
import json
import os
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("--extras", required=True)
    p.add_argument("--device", default="cuda")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile (slow on a small cpu)")
    return p.parse_args()


@contextlib.contextmanager
def gpu_lock():
    path = os.environ.get("ZOO_GPU_LOCK")
    if not path:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def sync(device):
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()


def step(fn, args, training, params):
    out = fn(*args)
    if training:
        out.backward()
        for p in params:
            p.grad = None
    return out


def time_it(fn, args, training, params, device, iters, warmup):
    import torch

    with gpu_lock():
        for _ in range(warmup):
            step(fn, args, training, params)
        sync(device)
        if device.startswith("cuda"):
            torch.cuda.reset_peak_memory_stats()
            before = torch.cuda.memory_allocated()
        times = []
        for _ in range(iters):
            if device.startswith("cuda"):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                step(fn, args, training, params)
                e.record()
                e.synchronize()
                times.append(s.elapsed_time(e))
            else:
                t0 = time.perf_counter()
                step(fn, args, training, params)
                times.append((time.perf_counter() - t0) * 1e3)
        r = {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times), "iters": iters,
             "warmup": warmup}
        if device.startswith("cuda"):
            r["peak_minus_before_mb"] = (torch.cuda.max_memory_allocated() - before) / 2**20
        return r


def first_call(fn, args, training, params, device):
    sync(device)
    t0 = time.perf_counter()
    out = step(fn, args, training, params)
    sync(device)
    return out, time.perf_counter() - t0


def reference(model, args, training):
    """The eager outputs and gradients, keyed as the workbench's tensors.safetensors."""
    import torch

    ref = {}
    args = tuple(a.detach().clone().requires_grad_(a.is_floating_point() and training) if torch.is_tensor(a) else a
                 for a in args)
    ctx = contextlib.nullcontext() if training else torch.no_grad()
    with ctx:
        out = model(*args)
    ref["output.0"] = out.detach()
    if training:
        go = torch.ones_like(out)
        out.backward(go)
        ref["grad_output"] = go
        names = input_names(model, args)
        for n, a in zip(names, args):
            if torch.is_tensor(a) and a.grad is not None:
                ref[f"grad.input.{n}"] = a.grad.detach()
        for n, p in model.named_parameters():
            if p.grad is not None:
                ref[f"grad.param.{n}"] = p.grad.detach()
        model.zero_grad(set_to_none=True)
    return ref


def input_names(model, args):
    import inspect

    try:
        params = [p for p in inspect.signature(model.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        var = next((p for p in inspect.signature(model.forward).parameters.values() if p.kind == p.VAR_POSITIONAL),
                   None)
    except (TypeError, ValueError):
        params, var = [], None
    out = []
    for i in range(len(args)):
        if i < len(params):
            out.append(params[i].name)
        elif var is not None:
            out.append(f"{var.name}{i - len(params)}")
        else:
            out.append(f"arg{i}")
    return out


def thunder_executors(spec):
    if spec == "default":
        return {}
    import thunder

    exs = []
    for name in spec.split(","):
        ex = thunder.extend.get_executor(name)
        if ex is None:
            raise RuntimeError(f"Thunder has no executor named {name!r} here "
                               f"(available: {[e.name for e in thunder.extend.get_all_executors()]})")
        exs.append(ex)
    return {"executors": exs}


def run_thunder(c, model, args, device, a, info):
    import thunder
    import torch

    training = c["training"]
    params = [p for p in model.parameters()]
    if c["frontend"] == "thunderfx":
        from thunder.dynamo import ThunderCompiler

        torch._dynamo.reset()
        fn = torch.compile(model, backend=ThunderCompiler(**thunder_executors(c["executors"])))
    else:
        fn = thunder.jit(model, **thunder_executors(c["executors"]))
        keep_partial_traces.fn = fn
    ctx = contextlib.nullcontext() if training else torch.no_grad()
    with ctx:
        _, wall = first_call(fn, args, training, params, device)
        info["timings"]["thunder_first_call_wall_s"] = wall
        info["timings"]["thunder"] = time_it(fn, args, training, params, device, a.iters, a.warmup)
    return fn


def keep_partial_traces(a, info):
    """Every trace Thunder produced before it failed (the interpreter's trace and the transforms after it)."""
    import thunder

    fn = getattr(keep_partial_traces, "fn", None)
    if fn is None:
        return
    out = os.path.join(a.extras, f"{a.case}.failed")
    n = 0
    for kind, get in (("prologue", thunder.last_prologue_traces), ("forward", thunder.last_traces),
                      ("backward", thunder.last_backward_traces)):
        try:
            traces = get(fn) or []
        except Exception:
            continue
        if not isinstance(traces, (list, tuple)):
            traces = [traces]
        for i, t in enumerate(traces):
            try:
                text = str(t)
            except Exception:
                continue
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, "%s_%02d.py" % (kind, i)), "w", encoding="utf-8") as f:
                f.write(text)
            n += 1
    info["partial_traces"] = n


def main():
    a = parse_args()
    import cases
    import precision
    import torch

    c = cases.CASES[a.case]
    os.makedirs(a.extras, exist_ok=True)
    info = {"case": a.case, "what": c["what"], "family": c["family"], "training": c["training"], "dtype": c["dtype"],
            "executors": c["executors"], "frontend": c["frontend"], "thunder_source": c["thunder"],
            "device": a.device, "argv": sys.argv, "timings": {}, "errors": []}
    try:
        import thunder

        info["versions"] = {"torch": torch.__version__, "thunder": getattr(thunder, "__version__", "?"),
                            "thunder_file": os.path.dirname(thunder.__file__), "python": sys.version.split()[0]}
        if a.device.startswith("cuda"):
            info["versions"]["gpu"] = torch.cuda.get_device_name()
            info["versions"]["cuda"] = torch.version.cuda
        try:
            import transformers
            import torchvision

            info["versions"]["transformers"] = transformers.__version__
            info["versions"]["torchvision"] = torchvision.__version__
        except ImportError:
            pass
    except Exception as e:
        info["errors"].append({"stage": "import", "error": f"{type(e).__name__}: {e}"})

    dtype = getattr(torch, c["dtype"])
    model, args = c["build"](a.device, dtype, c["training"])
    model = model.to(device=a.device, dtype=dtype)
    model.train(c["training"])
    info["num_parameters"] = sum(p.numel() for p in model.parameters())
    params = list(model.parameters())
    training = c["training"]
    ctx = contextlib.nullcontext if training else torch.no_grad

    # the eager reference first, on a fixed RNG state (dropout and stochastic depth draw from it)
    torch.manual_seed(7)
    with precision.ieee_fp32():  # the reference in f32, not TF32 (precision.py); timed with the defaults
        ref = reference(model, args, training)
    info["reference_precision"] = precision.describe()
    from safetensors.torch import save_file

    save_file({k: v.contiguous().cpu() for k, v in ref.items()}, os.path.join(a.extras, f"{a.case}.ref.safetensors"))

    with ctx():
        try:
            _, wall = first_call(model, args, training, params, a.device)
            info["timings"]["eager_first_call_wall_s"] = wall
            info["timings"]["eager"] = time_it(model, args, training, params, a.device, a.iters, a.warmup)
        except Exception as e:
            info["errors"].append({"stage": "eager", "error": f"{type(e).__name__}: {e}",
                                   "traceback": traceback.format_exc()})
        if not a.no_compile:
            try:
                torch._dynamo.reset()
                cm = torch.compile(model)
                _, wall = first_call(cm, args, training, params, a.device)
                info["timings"]["torch_compile_first_call_wall_s"] = wall
                info["timings"]["torch_compile"] = time_it(cm, args, training, params, a.device, a.iters, a.warmup)
            except Exception as e:
                info["errors"].append({"stage": "torch.compile", "error": f"{type(e).__name__}: {e}",
                                       "traceback": traceback.format_exc()[-4000:]})
    try:
        torch._dynamo.reset()
        if c.get("setup"):
            c["setup"]()
        run_thunder(c, model, args, a.device, a, info)
        info["status"] = "ok"
    except Exception as e:
        info["status"] = "thunder failed"
        info["errors"].append({"stage": "thunder", "error": f"{type(e).__name__}: {e}",
                               "traceback": traceback.format_exc()[-6000:]})
        keep_partial_traces(a, info)
        if c["frontend"] == "jit":
            # as a user would: the same model again through ThunderFX, which splits the graph around what
            # thunder.jit cannot take; the recorder captures each subgraph Thunder compiled
            info["retry"] = "thunderfx"
            try:
                torch._dynamo.reset()
                run_thunder(dict(c, frontend="thunderfx"), model, args, a.device, a, info)
                info["status"] = "thunder.jit failed; ThunderFX ok"
            except Exception as e2:
                info["status"] = "thunder.jit and ThunderFX failed"
                info["errors"].append({"stage": "thunderfx", "error": f"{type(e2).__name__}: {e2}",
                                       "traceback": traceback.format_exc()[-6000:]})
    with open(os.path.join(a.extras, f"{a.case}.json"), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1, default=str)
    print(f"zoo: {a.case}: {info['status']}"
          + "".join(f"; {e['stage']}: {e['error'][:200]}" for e in info["errors"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
