#!/usr/bin/env python3
# bench-gpu.py — the workbench on the GPU against PyTorch on the same program (run by bench-gpu.sh)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# For each case (default gpt2_block llama_layer), forward + backward of Thunder's final stage (the last
# top-level forward trace and its backward, as `profile` runs by default and `export --stage K --as torch`
# exports), bf16 at the traced shapes:
#   1. thunder-wb profile --device cuda --iters N --warmup W            (its JSON report)
#   2. the same with --cuda-graphs
#   3. the exported PyTorch script, imported here: eager and torch.compile (CUDA events around each
#      forward+backward, median of N after W warm-ups, as the script's own --time does)
#   4. device-to-device copy bandwidth (a 1 GiB copy_, best of 20) measured in this process; then every
#      elementwise or reduction region with more than 64 MB of static traffic: its GB/s against that
#      bandwidth (target >= 80%; Thunder's TorchCompile regions all hold matmuls, so the target is checked on
#      the nvrtc regions of the workbench's recomputed program, profiled with `--recompile`, on the time of
#      the region's kernels in CUPTI's records; its spans are shown beside it, and so is what a copy_ of as many
#      bytes reaches against the 1 GiB copy in the same run, `cp@MB`), and
#      the matmul and attention work against PyTorch's own at the same shapes: the script's matmul/linear
#      calls and its SDPA calls (the aten flash/efficient kernels F.scaled_dot_product_attention dispatches
#      to) timed with CUDA events one by one in an instrumented eager run (target: at most 10% slower).
# Prints the summary table and the per-region tables; --json F writes everything measured.
# Needs torch with CUDA; run it from an unpacked tools/gpu-bundle.sh bundle (bench-gpu.sh sets that up).

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import time

BIG_BYTES = 64e6  # regions above this many bytes of static traffic get the bandwidth target
BW_TARGET = 0.80  # of the device-to-device copy bandwidth
REF_TARGET = 1.10  # matmul / attention time at most 10% above PyTorch's
MATMUL_KERNEL = re.compile(r"gemm|nvjet|xmma|cutlass|cublas|matmul", re.I)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, timeout, extra_env=None):
    t0 = time.time()
    env = dict(os.environ, **(extra_env or {}))
    if os.environ.get("WB_LD_LIBRARY_PATH"):
        env["LD_LIBRARY_PATH"] = os.environ["WB_LD_LIBRARY_PATH"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        log("  $ %s: timed out after %d s" % (" ".join(cmd), timeout))
        return subprocess.CompletedProcess(cmd, 124, "", "timed out after %d s" % timeout)
    log("  $ %s  (%.0f s, exit %d)" % (" ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd)), time.time() - t0,
                                         p.returncode))
    if p.returncode != 0:
        log("\n".join((p.stdout + p.stderr).strip().splitlines()[-15:]))
    return p


def last_forward_entry(app, case_dir, recompiled=False):
    """the entry number of the last top-level forward trace (Thunder's final stage) or, with recompiled, of the
    last forward of the workbench's recomputed stages (`stages --recompile`); None when there is none"""
    cmd = [app, "--headless", "stages", case_dir, "--format", "json"] + (["--recompile"] if recompiled else [])
    p = run(cmd, 120)
    if p.returncode != 0:
        return None
    subset = "workbench" if recompiled else ""
    fw = [e["number"] for e in json.loads(p.stdout)["entries"] if e["kind"] == "forward" and (e["subset"] or "") == subset]
    return fw[-1] if fw else None


def stats(times):
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times), "n": len(times)}


# -- the workbench -----------------------------------------------------------------------------------------


def workbench(app, case_dir, entry, out, iters, warmup, graphs, recompile=False):
    report = os.path.join(out, "%s-%s.json" % (os.path.basename(case_dir), ("recompiled-graphs" if graphs else "recompiled") if recompile
                                               else "graphs" if graphs else "wb"))
    cmd = [app, "--headless", "profile", case_dir, "--device", "cuda", "--stage", str(entry), "--iters", str(iters),
           "--warmup", str(warmup), "--report", report]
    cmd.append("--cuda-graphs" if graphs else "--no-cuda-graphs")
    if recompile:
        cmd.append("--recompile")
    # the recomputed programs give the per-region table: each region's kernels timed alone, on one stream.
    # With the runner's second stream (the default) their weight-gradient matmuls run beside the regions
    # that follow them, which makes the program faster and each of those kernels slower (test-cuda-streams.sh)
    p = run(cmd, 420, {"WB_CUDA_STREAMS": "1"} if recompile else None)
    if p.returncode != 0 or not os.path.exists(report):
        return {"error": "exit %d: %s" % (p.returncode, (p.stderr.strip().splitlines() or ["?"])[-1])}
    d = json.load(open(report))
    it = d["iteration"]
    res = {"median_ms": it["median_ms"], "min_ms": it["min_ms"], "max_ms": it["max_ms"], "n": it["count"],
           "stage": d["run"]["stage"], "cuda_graphs": d["run"]["cuda_graphs"], "notes": d["notes"],
           "ceilings": d["ceilings"], "device": d["device"], "regions": [], "report": report}
    # the runner's unprofiled iterations (before the timed ones, no events around the regions): profile's note
    for n in d["notes"]:
        m = re.search(r"^profiling's cost: .* took ([0-9.]+) ms", n)
        if m:
            res["unprofiled_ms"] = float(m.group(1))
    for r in d["regions"]:
        mm = sum(k["median_ms"] for k in d["kernels"] if k["region"] == r["name"] and MATMUL_KERNEL.search(k["name"] or ""))
        # the GPU's time executing the region's kernels (CUPTI's start and end of each, summed per iteration; the
        # report's median per kernel): what Nsight Systems shows, without the launch and event-node gaps of a span
        kern = [k for k in d["kernels"] if k["region"] == r["name"]]
        res["regions"].append({"name": r["name"], "kind": r["kind"], "bytes": r["bytes"], "median_ms": r["median_ms"],
                               "gbps": r["gbps"], "bound": r["bound"], "matmul_kernel_ms": mm,
                               "kernel_ms": sum(k["median_ms"] for k in kern) if kern else None,
                               "kernel_count": r.get("kernel_count")})
    return res


# -- PyTorch -----------------------------------------------------------------------------------------------


def copy_bandwidth(torch):
    n = 1 << 30
    x = torch.ones(n, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    best = None
    for i in range(23):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        y.copy_(x)
        e.record()
        e.synchronize()
        if i >= 3:
            ms = s.elapsed_time(e)
            best = ms if best is None else min(best, ms)
    del x, y
    torch.cuda.empty_cache()
    return 2.0 * n / (best * 1e-3) / 1e9  # bytes read + written, as the workbench's ceiling counts them


def copy_gbps_of(torch, nbytes, batch=20, repeats=10):
    """GB/s (bytes read + written) of a copy_ that moves @nbytes in all, half read and half written: what a plain
    copy reaches at a region's own size. Timed as the regions' kernels are (their GPU time, without launch gaps):
    @batch copies back to back between two CUDA events, each on its own buffers (pairs filling 256 MB, four times the
    L2, so that no copy finds its source in the L2), the best of @repeats batches, as the 1 GiB copy
    takes its best. At tens of MB it sits below the 1 GiB figure (ramp and tail are a larger share of a short
    kernel); informational, the target stays against the 1 GiB copy."""
    n = max(int(nbytes) // 2, 1)
    pairs = max(2, -(-256 * 2**20 // (2 * n)))
    bufs = [(torch.ones(n, dtype=torch.uint8, device="cuda"), torch.empty(n, dtype=torch.uint8, device="cuda"))
            for _ in range(pairs)]
    best = None
    for i in range(repeats + 1):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for j in range(batch):
            x, y = bufs[(i * batch + j) % pairs]
            y.copy_(x)
        e.record()
        e.synchronize()
        if i >= 1:
            ms = s.elapsed_time(e) / batch
            best = ms if best is None else min(best, ms)
    del bufs
    torch.cuda.empty_cache()
    return 2.0 * n / (best * 1e-3) / 1e9


def load_script(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # torch.compile (dynamo) looks the module up by name
    spec.loader.exec_module(mod)
    return mod


class Instrument:
    """CUDA events around every region function, every SDPA call and every matmul/linear call of the
    exported program (module globals and torch attributes looked up at call time), per iteration."""

    def __init__(self, torch, mod):
        self.torch, self.mod = torch, mod
        self.saved = []
        self.region = None
        self.depth = 0
        self.calls = []  # (kind, name, start event, end event)

    def _wrap(self, owner, attr, kind, label=None):
        fn = getattr(owner, attr)
        me = self

        def wrapper(*a, **k):
            if kind == "sdpa" and me.depth > 0:
                return fn(*a, **k)
            s, e = me.torch.cuda.Event(enable_timing=True), me.torch.cuda.Event(enable_timing=True)
            outer = me.region
            if kind == "region":
                me.region = label
            if kind == "sdpa":
                me.depth += 1
            s.record()
            try:
                return fn(*a, **k)
            finally:
                e.record()
                if kind == "sdpa":
                    me.depth -= 1
                me.calls.append((kind, label if kind != "matmul" else me.region, s, e))
                me.region = outer

        self.saved.append((owner, attr, fn))
        setattr(owner, attr, wrapper)

    def __enter__(self):
        for name in self.mod._WB_REGIONS:
            self._wrap(self.mod, name, "region", name)
        for name in dir(self.mod):
            if name.startswith("_wb_sdpa_") and (name.endswith("_forward") or name.endswith("_backward")):
                self._wrap(self.mod, name, "sdpa", name)
        self._wrap(self.torch, "matmul", "matmul")
        self._wrap(self.torch.nn.functional, "linear", "matmul")
        return self

    def __exit__(self, *exc):
        for owner, attr, fn in reversed(self.saved):
            setattr(owner, attr, fn)

    def iteration(self, fn):
        """Runs fn once; returns {"region": {name: ms}, "matmul": {region: ms}, "sdpa": [ms, ...] in call order}."""
        self.calls = []
        fn()
        self.torch.cuda.synchronize()
        out = {"region": {}, "matmul": {}, "sdpa": []}
        seen = {}
        for kind, name, s, e in self.calls:
            ms = s.elapsed_time(e)
            if kind == "region":
                seen[name] = seen.get(name, 0) + 1
                key = name if seen[name] == 1 else "%s#%d" % (name, seen[name])
                out["region"][key] = ms
            elif kind == "matmul":
                out["matmul"][name] = out["matmul"].get(name, 0.0) + ms
            else:
                out["sdpa"].append(ms)
        return out


def pytorch(torch, script, case, iters, warmup):
    mod = load_script(script, "wb_bench_" + case)
    mod._wb_set_device("cuda")
    torch.manual_seed(0)
    ns = argparse.Namespace(device="cuda", inputs=None, seed=0)
    runner = mod._WbRun(ns)
    res = {"source": mod._WB_SOURCE}
    res["eager"] = dict(zip(("median_ms", "min_ms", "max_ms"), mod._wb_time(lambda: runner.run(), iters, warmup, runner.device)))
    try:
        torch._dynamo.reset()
        fw = torch.compile(runner.forward)
        bw = torch.compile(runner.backward) if runner.backward is not None else None
        t0 = time.time()
        res["compile"] = dict(zip(("median_ms", "min_ms", "max_ms"),
                                  mod._wb_time(lambda: runner.run(fw, bw), iters, warmup, runner.device)))
        res["compile"]["wall_s"] = time.time() - t0
    except Exception as e:  # noqa: BLE001 - reported in the table
        res["compile"] = {"error": "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:200])}
    torch._dynamo.reset()
    # the instrumented eager run: per region, per matmul and per SDPA call
    per = []
    with Instrument(torch, mod) as ins:
        for i in range(warmup + iters):
            r = ins.iteration(lambda: runner.run())
            if i >= warmup:
                per.append(r)
    regions = {}
    for r in per:
        for k, v in r["region"].items():
            regions.setdefault(k, []).append(v)
    matmul = {}
    for r in per:
        for k, v in r["matmul"].items():
            matmul.setdefault(k, []).append(v)
    n_sdpa = min(len(r["sdpa"]) for r in per) if per else 0
    res["region_ms"] = {k: statistics.median(v) for k, v in regions.items()}
    res["matmul_ms"] = {k: statistics.median(v) for k, v in matmul.items()}
    res["sdpa_ms"] = [statistics.median(r["sdpa"][i] for r in per) for i in range(n_sdpa)]
    del runner, mod
    torch.cuda.empty_cache()
    return res


# -- tables ------------------------------------------------------------------------------------------------


def fmt3(s):
    if not s or "median_ms" not in s:
        return "failed"
    return "%.3f / %.3f / %.3f" % (s["median_ms"], s["min_ms"], s["max_ms"])


def ratio(a, b):
    if not a or not b or "median_ms" not in a or "median_ms" not in b:
        return "-"
    return "%.2fx" % (a["median_ms"] / b["median_ms"])


def views_only(r, copy_gbps):
    """A region that ran no kernel and whose static bytes would need more than twice the copy bandwidth: its
    outputs are views of its inputs, and nothing moved. The cost model counts the views it knows (reshape,
    transpose, slice, split, broadcast: profiler/wb-cost.c) as nothing; this catches one it does not."""
    return r.get("kernel_count") == 0 and copy_gbps and r["gbps"] > 2 * copy_gbps


def region_rows(case, wb, pt, copy_gbps):
    rows = []
    attn = [r for r in wb["regions"] if re.search(r"scaled_dot_product|sdpa|attention", r["name"])]
    for r in wb["regions"]:
        row = {"case": case, "region": r["name"], "mb": r["bytes"] / 1e6, "wb_ms": r["median_ms"], "gbps": r["gbps"],
               "bound": r["bound"] or "-", "checks": []}
        if r["bytes"] > BIG_BYTES and copy_gbps:
            pct = 100.0 * r["gbps"] / copy_gbps
            if views_only(r, copy_gbps):
                row["checks"].append("n/a: no kernel ran (views only)")
            elif r["matmul_kernel_ms"] > 0 or r in attn:
                # the target is for elementwise and reduction regions; GEMMs and attention are compute-bound
                row["checks"].append("%.0f%% of copy BW (n/a: %s)" % (pct, "attention" if r in attn else "holds matmuls"))
            else:
                row["checks"].append("%.0f%% of copy BW %s" % (pct, "met" if pct >= 100 * BW_TARGET else "MISSED"))
        base = r["name"].split("#")[0]
        torch_mm = pt.get("matmul_ms", {}).get(base) if pt else None
        if r["matmul_kernel_ms"] > 0 and torch_mm:
            q = r["matmul_kernel_ms"] / torch_mm
            row["checks"].append("matmul %.3f vs torch %.3f ms (%.2fx) %s" % (r["matmul_kernel_ms"], torch_mm, q,
                                                                          "met" if q <= REF_TARGET else "MISSED"))
        if r in attn and pt and attn.index(r) < len(pt.get("sdpa_ms", [])):
            t = pt["sdpa_ms"][attn.index(r)]
            q = r["median_ms"] / t
            row["checks"].append("attention vs torch SDPA %.3f ms (%.2fx) %s" % (t, q, "met" if q <= REF_TARGET else "MISSED"))
        row["torch_ms"] = pt.get("region_ms", {}).get(r["name"]) if pt else None
        if row["torch_ms"] is None and r in attn and pt and attn.index(r) < len(pt.get("sdpa_ms", [])):
            row["torch_ms"] = pt["sdpa_ms"][attn.index(r)]
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--root", required=True, help="the unpacked bundle (app/thunder-wb, traces/)")
    ap.add_argument("--out", required=True, help="folder for reports and exported scripts")
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--json", help="write everything measured to this file")
    ap.add_argument("cases", nargs="*", default=["gpt2_block", "llama_layer"])
    a = ap.parse_args()
    import torch

    app = os.path.join(a.root, "app", "thunder-wb")
    os.makedirs(a.out, exist_ok=True)
    log("torch %s, %s" % (torch.__version__, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA"))
    if not torch.cuda.is_available():
        print("bench-gpu: torch.cuda.is_available() is False")
        return 3
    copy_gbps = copy_bandwidth(torch)
    log("device-to-device copy (torch, 1 GiB copy_, best of 20): %.0f GB/s" % copy_gbps)
    results = {"copy_gbps": copy_gbps, "torch": torch.__version__, "device": torch.cuda.get_device_name(0), "cases": {}}
    for case in a.cases:
        case_dir = os.path.join(a.root, "traces", case)
        if not os.path.isdir(case_dir):
            log("%s: not in the bundle, skipped" % case)
            continue
        log("== %s" % case)
        entry = last_forward_entry(app, case_dir)
        if entry is None:
            log("%s: `stages` found no forward trace, skipped" % case)
            continue
        c = {"entry": entry}
        c["wb"] = workbench(app, case_dir, entry, a.out, a.iters, a.warmup, False)
        c["graphs"] = workbench(app, case_dir, entry, a.out, a.iters, a.warmup, True)
        # the workbench's own recomputed program: its nvrtc regions hold only elementwise ops and reductions
        # (matmuls and attention are ops of their own), so the bandwidth target applies to them
        wentry = last_forward_entry(app, case_dir, recompiled=True)
        c["recompiled"] = (workbench(app, case_dir, wentry, a.out, a.iters, a.warmup, False, recompile=True)
                           if wentry is not None else {"error": "stages --recompile found no workbench forward"})
        # and replayed as a CUDA graph: each region's span between its event nodes is the GPU's time on its
        # kernels, without any host launch latency that the spans of an unreplayed run would include where the
        # GPU waits for the next launch. (On an H200, eleventh session, the two spans differed by under 2 us a
        # region: the 2-3 us by which a region's span exceeds its kernels' CUPTI times is not the host's.)
        c["recompiled_graphs"] = (workbench(app, case_dir, wentry, a.out, a.iters, a.warmup, True, recompile=True)
                                  if wentry is not None else {"error": "stages --recompile found no workbench forward"})
        script = os.path.join(a.out, case + ".py")
        p = run([app, "--headless", "export", case_dir, "--stage", str(entry), "--as", "torch", "-o", script], 120)
        if p.returncode == 0:
            try:
                c["torch"] = pytorch(torch, script, case, a.iters, a.warmup)
            except Exception as e:  # noqa: BLE001
                c["torch"] = {"error": "%s: %s" % (type(e).__name__, str(e)[:300])}
        else:
            c["torch"] = {"error": "export failed"}
        results["cases"][case] = c

    # the summary
    print()
    print("forward+backward per iteration, ms (median / min / max of %d after %d warm-ups), CUDA events; %s, torch %s"
          % (a.iters, a.warmup, results["device"], results["torch"]))
    head = ("case", "workbench", "+graphs", "eager", "torch.compile", "wb/compile", "wb/eager")
    print("%-12s | %-26s | %-26s | %-26s | %-26s | %-10s | %-8s" % head)
    print("-" * 151)
    for case, c in results["cases"].items():
        t = c.get("torch", {})
        print("%-12s | %-26s | %-26s | %-26s | %-26s | %-10s | %-8s" % (
            case, fmt3(c["wb"]), fmt3(c["graphs"]), fmt3(t.get("eager")), fmt3(t.get("compile")),
            ratio(c["wb"], t.get("compile")), ratio(c["wb"], t.get("eager"))))
    for case, c in results["cases"].items():
        for key in ("wb", "graphs"):
            if "error" in c[key]:
                print("%s %s: %s" % (case, key, c[key]["error"]))
        if "error" in c.get("torch", {}):
            print("%s torch: %s" % (case, c["torch"]["error"]))
        if "compile" in c.get("torch", {}) and "error" in c["torch"]["compile"]:
            print("%s torch.compile: %s" % (case, c["torch"]["compile"]["error"]))
        for key, what in (("wb", "workbench"), ("graphs", "+graphs")):
            if c[key].get("unprofiled_ms"):
                print("%s %s: %.3f ms without the profiler's events around each region (the runner's unprofiled iterations;"
                      " the profiled median is %.2fx that)" % (case, what, c[key]["unprofiled_ms"],
                                                              c[key]["median_ms"] / c[key]["unprofiled_ms"]))
        g = c["graphs"]
        if "notes" in g:
            print("%s --cuda-graphs: used=%s; %s" % (case, g["cuda_graphs"],
                                                     "; ".join(n for n in g["notes"] if "graph" in n.lower()) or "(no note)"))
        if "stage" in c["wb"] and "source" in c.get("torch", {}):
            print("%s program: workbench stage %s, PyTorch script of %s" % (case, c["wb"]["stage"], c["torch"]["source"]))

    # the regions
    wb_copy = [c["wb"]["ceilings"]["copy_gbps"] for c in results["cases"].values() if c["wb"].get("ceilings")]
    print()
    print("regions (the workbench's default run): bandwidth target >= %d%% of %.0f GB/s (torch 1 GiB copy_ in this run%s) for"
          " regions over %d MB; matmul and attention at most %d%% slower than PyTorch's at the same shapes"
          % (100 * BW_TARGET, copy_gbps, "; the profile's ceiling: %.0f GB/s" % wb_copy[0] if wb_copy else "", BIG_BYTES / 1e6,
             round(100 * (REF_TARGET - 1))))
    print("%-12s %-58s %9s %9s %9s %8s %10s  %s" % ("case", "region", "MB", "wb ms", "GB/s", "bound", "torch ms", "targets"))
    missed = 0
    for case, c in results["cases"].items():
        if "regions" not in c["wb"]:
            continue
        rows = region_rows(case, c["wb"], c.get("torch") if "error" not in c.get("torch", {}) else None, copy_gbps)
        c["region_rows"] = rows
        for r in rows:
            missed += sum("MISSED" in x for x in r["checks"])
            print("%-12s %-58s %9.1f %9.3f %9.1f %8s %10s  %s" % (
                case, r["region"][:58], r["mb"], r["wb_ms"], r["gbps"], r["bound"],
                "%.3f" % r["torch_ms"] if r["torch_ms"] is not None else "-", "; ".join(r["checks"]) or "-"))
    print()
    print("the workbench's recomputed program (`profile --recompile --stage K`, K its last forward; nvrtc regions hold"
          " elementwise ops and reductions only): bandwidth target >= %d%% of %.0f GB/s for regions over %d MB, on the GPU's"
          " time executing the region's kernels (CUPTI's kernel records of the unreplayed run, as Nsight Systems shows them:"
          " `kern ms`, and its %% of copy bandwidth)" % (100 * BW_TARGET, copy_gbps, BIG_BYTES / 1e6))
    print("beside it, the region's span in the unreplayed run (`wb ms`: adds the host's launch latency where the GPU waits"
          " for it) and in the CUDA-graph replay (`graph ms`, GB/s): each span also holds the event-record nodes the profiler"
          " puts around the region, ~2 us (the runner's iterations without them run the kernels back to back), so a span is"
          " informational; without kernel records the target falls back to the graph span")
    print("`cp@MB`: a copy_ of as many bytes as the region moves (half read, half written; 20 back to back on their own buffers"
          " between two events, best of 10) as % of the 1 GiB copy: what a plain copy reaches at that size in this run"
          " (informational; the target stays against the 1 GiB copy)")
    print("%-12s %-40s %7s %8s %6s %9s %7s %9s %6s %6s %7s  %s" % ("case", "region", "MB", "wb ms", "%copy", "graph ms", "GB/s", "kern ms",
                                                                "%copy", "cp@MB", "bound", "target"))
    span_below = span_n = 0
    for case, c in results["cases"].items():
        rc, rg = c.get("recompiled", {}), c.get("recompiled_graphs", {})
        if "error" in rc:
            print("%-12s %s" % (case, rc["error"]))
            continue
        unprof = " (without the profiler's events around each region: %s / %s ms)" % (
            "%.3f" % rc["unprofiled_ms"] if rc.get("unprofiled_ms") else "-",
            "%.3f" % rg["unprofiled_ms"] if rg.get("unprofiled_ms") else "-")
        print("%-12s iteration %s ms; replayed as a graph %s ms%s (Thunder's program: %s)" % (
            case, fmt3(rc), fmt3(rg) if "error" not in rg else rg["error"], unprof, fmt3(c["wb"])))
        graph_ms = {r["name"]: r["median_ms"] for r in rg.get("regions", [])} if rg.get("cuda_graphs") else {}
        graph_kern = {r["name"]: r["kernel_ms"] for r in rg.get("regions", [])} if rg.get("cuda_graphs") else {}
        c["recompiled_rows"] = []
        for r in rc["regions"]:
            if r["kind"] != "region" or r["matmul_kernel_ms"] > 0:
                continue
            gms = graph_ms.get(r["name"])
            # the unreplayed run's kernels: CUPTI joins them to their launches by correlation id, where the replays'
            # are placed in regions by their times (wb_cupti_align_ranges)
            kms = r["kernel_ms"] or graph_kern.get(r["name"])
            row = {"region": r["name"], "mb": r["bytes"] / 1e6, "wb_ms": r["median_ms"], "gbps": r["gbps"], "graph_ms": gms,
                   "graph_gbps": r["bytes"] / 1e6 / gms if gms else None, "kernel_ms": kms,
                   "kernel_pct": 100.0 * r["bytes"] / 1e6 / kms / copy_gbps if kms and copy_gbps else None, "check": "-"}
            if r["bytes"] > BIG_BYTES and row["graph_gbps"] is not None and copy_gbps and not views_only(r, copy_gbps):
                span_n += 1
                span_below += row["graph_gbps"] < BW_TARGET * copy_gbps
            if r["bytes"] > BIG_BYTES and views_only(r, copy_gbps):
                row["check"] = "n/a: no kernel ran (views only)"
            elif r["bytes"] > BIG_BYTES and copy_gbps:
                if row["kernel_pct"] is not None:
                    pct, how = row["kernel_pct"], ""
                else:
                    gbps = row["graph_gbps"] if row["graph_gbps"] is not None else r["gbps"]
                    pct = 100.0 * gbps / copy_gbps
                    how = " (graph span: no kernel records)" if row["graph_gbps"] is not None else " (span: no kernel records, no graph replay)"
                row["check"] = "%.0f%% of copy BW %s%s" % (pct, "met" if pct >= 100 * BW_TARGET else "MISSED", how)
                missed += "MISSED" in row["check"]
            if r["bytes"] > BIG_BYTES and copy_gbps and not views_only(r, copy_gbps):
                row["copy_at_size_gbps"] = copy_gbps_of(torch, r["bytes"])
                row["copy_at_size_pct"] = 100.0 * row["copy_at_size_gbps"] / copy_gbps
            c["recompiled_rows"].append(row)
            print("%-12s %-40s %7.1f %8.3f %5.0f%% %9s %7.0f %9s %6s %6s %7s  %s" % (
                case, r["name"][:40], row["mb"], row["wb_ms"], 100.0 * r["gbps"] / copy_gbps if copy_gbps else 0,
                "%.4f" % gms if gms else "-", row["graph_gbps"] or r["gbps"], "%.4f" % kms if kms else "-",
                "%.0f%%" % row["kernel_pct"] if row["kernel_pct"] is not None else "-",
                "%.0f%%" % row["copy_at_size_pct"] if "copy_at_size_pct" in row else "-", r["bound"] or "-", row["check"]))
    if span_n:
        print("on the graph spans (with the profiler's event nodes): %d of %d regions over %d MB below %d%% of copy bandwidth"
              " (informational)" % (span_below, span_n, BIG_BYTES / 1e6, 100 * BW_TARGET))
    print("\n%d target(s) MISSED" % missed)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
        log("wrote %s" % a.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
