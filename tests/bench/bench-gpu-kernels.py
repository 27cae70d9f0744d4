#!/usr/bin/env python3
# bench-gpu-kernels.py — the GPU kernels PyTorch runs for a workbench-exported script, eager or under
# torch.compile, with their time per iteration (torch.profiler), to set beside the workbench's own
# per-kernel profile (`thunder-wb --headless profile CASE --report F.md`, "Top kernels").
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: bench-gpu-kernels.py SCRIPT.py [--mode compile|eager] [--iters N] [--top K]
#   SCRIPT.py: `thunder-wb --headless export CASE --stage K --as torch -o SCRIPT.py` (the same program as
#   bench-gpu.sh times). Prints one table: kernel, calls per iteration, ms per iteration (total of its
#   calls, mean over the profiled iterations), share of the kernels' time; then the sum. A tool for
#   finding where one side spends time, not a test: nothing is asserted.
import argparse
import importlib.util
import os
import sys


def load_script(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # torch.compile (dynamo) looks the module up by name
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("script")
    ap.add_argument("--mode", choices=("compile", "eager"), default="compile")
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()

    import torch
    from torch.profiler import ProfilerActivity, profile

    name = "wb_kernels_" + os.path.splitext(os.path.basename(a.script))[0]
    mod = load_script(a.script, name)
    mod._wb_set_device("cuda")
    torch.manual_seed(0)
    runner = mod._WbRun(argparse.Namespace(device="cuda", inputs=None, seed=0))
    if a.mode == "compile":
        fw = torch.compile(runner.forward)
        bw = torch.compile(runner.backward) if runner.backward is not None else None
        step = lambda: runner.run(fw, bw)  # noqa: E731
    else:
        step = lambda: runner.run()  # noqa: E731
    for _ in range(a.warmup):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(a.iters):
            step()
        torch.cuda.synchronize()

    kernels = {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        us = e.time_range.elapsed_us()  # a device event: the kernel's (copy's, memset's) own duration
        k = kernels.setdefault(e.name, [0, 0.0])
        k[0] += 1
        k[1] += us
    total = sum(v[1] for v in kernels.values()) or 1.0
    print("%s, %s, %d profiled iterations after %d warm-ups; %s" % (os.path.basename(a.script), a.mode, a.iters, a.warmup,
                                                                  torch.cuda.get_device_name()))
    print("%-90s %9s %9s %7s" % ("kernel", "calls/it", "ms/it", "share"))
    for n, (calls, us) in sorted(kernels.items(), key=lambda kv: -kv[1][1])[: a.top]:
        print("%-90s %9.2f %9.3f %6.1f%%" % (n[:90], calls / a.iters, us / 1000.0 / a.iters, 100.0 * us / total))
    print("%-90s %9.2f %9.3f" % ("(all %d kernels)" % len(kernels), sum(v[0] for v in kernels.values()) / a.iters,
                                 total / 1000.0 / a.iters))


if __name__ == "__main__":
    main()
