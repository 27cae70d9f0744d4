#!/usr/bin/env python3
# saved_tensors.py — what PyTorch eager keeps for the backward of a zoo case's training step, on the cpu
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The model is built by cases.py as it was recorded (same seed, batch and input shapes). Two figures, to set
# beside the workbench's static memory plan (tests/executors/test-memory-plan logs its live set):
#   - the tensors saved for the backward (torch.autograd.graph.saved_tensors_hooks), deduplicated by storage,
#     parameters, buffers (batch norm's running statistics) and the step's inputs left out (they are below both step peaks), each rounded up to 512
#     bytes (the caching allocator's block), grouped by the autograd node that made them ("nograd": made
#     without a grad_fn, such as batch norm's saved mean and inverse std, max pooling's indices);
#   - the step's own allocations replayed from torch.profiler's memory events (profile_memory=True, each
#     rounded to 512 bytes): the most bytes live above the step's start, and what is live when the backward
#     starts. The cpu kernels are not cuDNN's (no workspaces), so this is close to, not equal to,
#     the CUDA step peak of meta.json "timings".
# torchvision's ReLU(inplace=True) saves its output once: the next convolution saves the same storage.
#
#   /work/venv-zoo/bin/python tools/zoo/saved_tensors.py resnet50

import argparse
import collections
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402

MIB = 2**20


def rounded(n):
    return (abs(n) + 511) // 512 * 512 * (1 if n >= 0 else -1)


def saved_for_backward(model, args):
    """{node name: [bytes, count]} of the storages saved for the backward, with the step's output"""
    skip = {p.untyped_storage().data_ptr() for p in list(model.parameters()) + list(model.buffers())}
    skip |= {a.untyped_storage().data_ptr() for a in args if torch.is_tensor(a)}
    seen, by = set(), collections.defaultdict(lambda: [0, 0])

    def pack(t):
        s = t.untyped_storage()
        if s.data_ptr() not in seen and s.data_ptr() not in skip and s.nbytes() > 0:
            seen.add(s.data_ptr())
            kind = by[t.grad_fn.name() if t.grad_fn is not None else "nograd"]
            kind[0] += rounded(s.nbytes())
            kind[1] += 1
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(*args)
    return by, out


def step_memory(model, args):
    """(most bytes live above the step's start, bytes live when the backward starts), from the profiler"""
    from torch.profiler import ProfilerActivity, profile, record_function

    params = list(model.parameters())
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        out = model(*args)
        with record_function("backward"):
            out.backward()
        for p in params:
            p.grad = None
        del out
    events = prof.profiler.kineto_results.events()
    start = min(e.start_ns() for e in events if e.name() == "backward")
    live, peak, at_backward = 0, 0, 0
    for e in sorted((e for e in events if e.name() == "[memory]"), key=lambda e: e.start_ns()):
        if e.start_ns() <= start:
            at_backward = live + rounded(e.nbytes())
        live += rounded(e.nbytes())
        peak = max(peak, live)
    return peak, at_backward


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("case", nargs="?", default="resnet50")
    ap.add_argument("--warmup", type=int, default=2, help="steps before the profiled one")
    o = ap.parse_args()
    c = cases.CASES[o.case]
    if not c["training"]:
        sys.exit(f"{o.case}: not a training case")
    torch.manual_seed(0)
    model, args = c["build"]("cpu", torch.float32, True)
    model.train()
    by, out = saved_for_backward(model, args)
    out.backward()
    for p in model.parameters():
        p.grad = None
    total = sum(b for b, _ in by.values())
    print(f"{o.case}: saved for the backward {sum(n for _, n in by.values())} storages, {total / MIB:.3f} MiB")
    for name, (b, n) in sorted(by.items(), key=lambda kv: -kv[1][0]):
        print(f"  {name:<36} {n:4d} {b / MIB:8.3f} MiB")
    grads = sum(rounded(p.numel() * p.element_size()) for p in model.parameters())
    print(f"gradients {grads / MIB:.3f} MiB")
    for _ in range(o.warmup):
        model(*args).backward()
        for p in model.parameters():
            p.grad = None
    peak, at_backward = step_memory(model, args)
    print(f"step (cpu, profiler): peak {peak / MIB:.3f} MiB above its start, {at_backward / MIB:.3f} MiB live when the backward starts")


if __name__ == "__main__":
    main()
