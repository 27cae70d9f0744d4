#!/usr/bin/env python3
# bench-zoo-gpu.py — the workbench over the zoo on the GPU, beside the real models' eager and torch.compile
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tests/bench/bench-zoo-gpu.py --app BUNDLE/app/thunder-wb --zoo ZOO_DIR [--out DIR] [--iters N]
#                                        [--warmup N] [CASE...]
#
# Run on the GPU machine in one call (tests/bench/bench-zoo-gpu.sh sets it up), so that every figure of a
# row comes from the same machine and the same run:
#   1. `thunder-wb --headless coverage ZOO --levels run-gpu`: the zoo's GPU pass rate and first errors;
#   2. per training case of tools/zoo/cases.py (or CASE...): the real model (built by cases.py, as recorded)
#      eagerly and under torch.compile, one case at a time, CUDA events around each step, median of --iters
#      after --warmup;
#   3. the workbench's `profile --device cuda` of the case's recorded traces: its iteration median. For a
#      ThunderFX case, the sum of its subgraphs' medians (the compiled parts of a step; the eager glue
#      between them is not in it), marked so.
# Prints a table per case (ms, wb/compile, wb/eager) and the geometric means over the cases where every
# figure exists; writes OUT/bench-zoo.json. Cases the workbench cannot run show its first error.
# Setup: the workbench's cold (empty kernel cache) and warm (one command, kernels cached) command to
# report; torch.compile's first call cold, hot (again in this process after dynamo's reset) and warm (a new
# process, Inductor's disk caches filled: what a second run of the user's script finds).
# --only-compile-warm measures only torch.compile's cold and warm first calls (OUT/compile-warm.json).
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "zoo"))

import record_case  # noqa: E402  (tools/zoo: the recorder's timing loop)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--app", required=True)
    p.add_argument("--zoo", required=True)
    p.add_argument("--out", default="/tmp/wb-bench-zoo")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--device", default="cuda")
    p.add_argument("--no-compile", action="store_true")
    p.add_argument("--reduce-overhead", action="store_true",
                   help="also torch.compile(mode='reduce-overhead'): CUDA graphs, the like-for-like column for our graph replays")
    p.add_argument("--allow-tf32", action="store_true",
                   help="profile with --allow-tf32: f32 convolutions in TF32, as PyTorch's default for the eager and "
                        "torch.compile columns (torch.backends.cudnn.allow_tf32)")
    p.add_argument("--no-coverage", action="store_true", help="skip the coverage run-gpu pass over the zoo")
    p.add_argument("--no-extra", action="store_true", help="skip the warm-setup and no-graphs runs (more cases a call)")
    p.add_argument("--shard", default="0/1", help="K/N: every N-th case from the K-th (one GPU each, in parallel)")
    p.add_argument("--deadline", type=float, default=0, help="start no case after this many seconds (0: none)")
    p.add_argument("--compile-warm-child", help=argparse.SUPPRESS)
    p.add_argument("--only-compile-warm", action="store_true",
                   help="per case only torch.compile's warm first call in a new process (its caches filled first)")
    p.add_argument("cases", nargs="*")
    return p.parse_args()


def time_model(fn, args, device, iters, warmup, training, params):
    """The first call's wall time, then record_case.time_it: the zoo's own timing, CUDA events per step."""
    _, first = record_case.first_call(fn, args, training, params, device)
    r = record_case.time_it(fn, args, training, params, device, iters, warmup)
    r["first_call_s"] = first
    return r


def real_model(name, c, a):
    import torch

    dtype = getattr(torch, c["dtype"])
    model, args = c["build"](a.device, dtype, c["training"])
    model = model.to(device=a.device, dtype=dtype).train(c["training"])
    params = list(model.parameters())
    res = {}
    try:
        res["eager"] = time_model(model, args, a.device, a.iters, a.warmup, c["training"], params)
    except Exception as e:
        res["eager"] = {"error": f"{type(e).__name__}: {e}"[:300]}
    if not a.no_compile:
        try:
            torch._dynamo.reset()
            res["compile"] = time_model(torch.compile(model), args, a.device, a.iters, a.warmup, c["training"], params)
            # torch.compile's warm first call in this process (after dynamo's reset: its in-memory caches, cuDNN's
            # plans and loaded kernels, still warm) and in a new process, as a second run of the user's script
            # finds it: Inductor's caches on disk as the first compile left them
            torch._dynamo.reset()
            _, res["compile"]["hot_first_call_s"] = record_case.first_call(torch.compile(model), args, c["training"],
                                                                           params, a.device)
            res["compile"].update(compile_warm_child(name, a))
        except Exception as e:
            res["compile"] = {"error": f"{type(e).__name__}: {e}"[:300]}
    if a.reduce_overhead:
        try:
            torch._dynamo.reset()
            res["compile_ro"] = time_model(torch.compile(model, mode="reduce-overhead"), args, a.device, a.iters, a.warmup,
                                           c["training"], params)
        except Exception as e:
            res["compile_ro"] = {"error": f"{type(e).__name__}: {e}"[:300]}
    return res


def compile_warm_child(name, a):
    """torch.compile's first call in a new process (this script with --compile-warm-child): warm_first_call_s
    the call alone (the model built and on the device before it), warm_process_s command to first result."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--app", "-", "--zoo", "-", "--device", a.device,
                            "--compile-warm-child", name], capture_output=True, text=True, timeout=600)
        d = json.loads(p.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError) as e:
        return {"warm_error": f"{type(e).__name__}: {e}"[:200]}
    d["warm_process_s"] = time.perf_counter() - t0
    return d


def compile_warm_child_main(a):
    import torch
    import cases

    c = cases.CASES[a.compile_warm_child]
    dtype = getattr(torch, c["dtype"])
    model, args = c["build"](a.device, dtype, c["training"])
    model = model.to(device=a.device, dtype=dtype).train(c["training"])
    params = list(model.parameters())
    _, first = record_case.first_call(torch.compile(model), args, c["training"], params, a.device)
    print(json.dumps({"warm_first_call_s": first}))
    return 0


def entries(case_dir):
    """The folders holding the case's traces: itself, or its ThunderFX subgraphs."""
    if any(f.startswith(("forward_", "prologue_")) for f in os.listdir(case_dir)):
        return [case_dir]
    return sorted(os.path.join(case_dir, d) for d in os.listdir(case_dir)
                  if d.startswith("thunderfx_") and os.path.isdir(os.path.join(case_dir, d)))


def profile_entry(app, entry, report, iters, warmup, extra=()):
    """One `profile --device cuda` of @entry: (report dict or None, error or None, wall seconds)."""
    cmd = [app, "--headless", "profile", entry, "--device", "cuda", "--iters", str(iters), "--warmup", str(warmup),
           "--report", report, *PROFILE_FLAGS, *extra]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        rc, err = p.returncode, (p.stderr.strip().splitlines() or ["?"])[-1]
    except subprocess.TimeoutExpired:
        rc, err = "timeout", "timed out after 300 s"
    wall = time.perf_counter() - t0
    if rc != 0 or not os.path.exists(report):
        return None, f"{os.path.basename(entry)}: exit {rc}: {err}"[:300], wall
    with open(report, encoding="utf-8") as f:
        return json.load(f), None, wall


def workbench(app, case_dir, out, iters, warmup, extra=True):
    """The case's entries profiled: the first time with a cold kernel cache for them (setup cold: command
    to report, wall, summed over the entries), then without CUDA graphs; then the whole case once more for
    one iteration, one command as a user runs it (setup warm: command to report, every kernel cached)."""
    total, plain, errors, n, graphs, cold, warm, peak, rt_compiles = 0.0, 0.0, [], 0, 0, 0.0, 0.0, 0, 0
    for e in entries(case_dir):
        base = os.path.join(out, os.path.relpath(e, os.path.dirname(case_dir)).replace("/", "__"))
        d, err, wall = profile_entry(app, e, base + ".json", iters, warmup)
        if err:
            errors.append(err)
            continue
        cold += wall
        rt_compiles += runtime_compiles(d)
        # the program's own time: no profiler event inside the step, as eager and torch.compile are timed
        total += d["iteration"].get("unprofiled_median_ms", d["iteration"]["median_ms"])
        graphs += bool(d["run"].get("cuda_graphs"))
        peak = max(peak, d["run"].get("device_step_peak_bytes", 0))
        n += 1
        if not extra:
            warm = plain = None
            continue
        d, err, _ = profile_entry(app, e, base + "-nographs.json", iters, warmup, ["--no-cuda-graphs"])
        plain += d["iteration"].get("unprofiled_median_ms", d["iteration"]["median_ms"]) if d else float("nan")
    if not n or errors:
        return {"error": errors[0] if errors else "no traces", "entries": n}
    if extra:
        # a folder of ThunderFX subgraphs profiles every sub-program in one command
        base = os.path.join(out, os.path.basename(case_dir))
        t0 = time.perf_counter()
        p = subprocess.run([app, "--headless", "profile", case_dir, "--device", "cuda", "--iters", "1", "--warmup", "0",
                            "--report", base + "-warm.json", *PROFILE_FLAGS], capture_output=True, text=True, timeout=600)
        warm = time.perf_counter() - t0 if p.returncode == 0 else float("nan")
    return {"median_ms": total, "plain_median_ms": plain, "entries": n, "graphs": graphs, "setup_cold_s": cold,
            "setup_warm_s": warm, "peak_mb": peak / 2**20, "runtime_compiles": rt_compiles}


def runtime_compiles(report):
    """The kernels NVRTC compiled during the run, after the ones compiled ahead (the report's "nvrtc kernels")."""
    for v in report.get("run", {}).get("executor_versions") or []:
        if v.startswith("nvrtc kernels=") and "; then " in v:
            try:
                return int(v.split("; then ", 1)[1].split()[0])
            except ValueError:
                return 0
    return 0


def recorded_thunder(case_dir):
    """Thunder's median and first call as the recorder measured them (zoo.json; another call, same GPU kind)."""
    try:
        with open(os.path.join(case_dir, "zoo.json"), encoding="utf-8") as f:
            t = json.load(f).get("timings", {})
        return t.get("thunder", {}).get("median_ms"), t.get("thunder_first_call_wall_s")
    except (OSError, ValueError):
        return None, None


def only_compile_warm(a, cases):
    """--only-compile-warm: per case a compile in this process (fills Inductor's caches), then the child's."""
    import torch

    names = a.cases or [n for n, c in cases.CASES.items() if c["training"]]
    k, n_shards = (int(x) for x in a.shard.split("/"))
    out, started = {}, time.monotonic()
    os.makedirs(a.out, exist_ok=True)
    for n in names[k::n_shards]:
        if a.deadline and time.monotonic() - started > a.deadline:
            print(f"{n}: not run (deadline)", flush=True)
            continue
        c = cases.CASES[n]
        try:
            dtype = getattr(torch, c["dtype"])
            model, args = c["build"](a.device, dtype, c["training"])
            model = model.to(device=a.device, dtype=dtype).train(c["training"])
            torch._dynamo.reset()
            _, cold = record_case.first_call(torch.compile(model), args, c["training"], list(model.parameters()), a.device)
            out[n] = {"first_call_s": cold, **compile_warm_child(n, a)}
        except Exception as e:
            out[n] = {"error": f"{type(e).__name__}: {e}"[:200]}
        print(n, json.dumps(out[n]), flush=True)
        # after every case: a call that runs out of time keeps what it measured
        with open(os.path.join(a.out, "compile-warm.json"), "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


PROFILE_FLAGS = []  # options every profile of the run takes (--allow-tf32)


def main():
    a = parse_args()
    if a.compile_warm_child:
        return compile_warm_child_main(a)
    import cases

    if a.only_compile_warm:
        return only_compile_warm(a, cases)
    if a.allow_tf32:
        PROFILE_FLAGS.append("--allow-tf32")
    os.makedirs(a.out, exist_ok=True)
    if not a.no_coverage:
        cov = os.path.join(a.out, "coverage-gpu.json")
        p = subprocess.run([a.app, "--headless", "coverage", a.zoo, "--levels", "load,run-gpu", "--jobs", "1",
                            "--format", "json", "-o", cov], capture_output=True, text=True)
        print(p.stdout[p.stdout.find("## SUMMARY"):] if "## SUMMARY" in p.stdout else p.stdout + p.stderr[-2000:])
    names = a.cases or [n for n, c in cases.CASES.items() if c["training"]]
    k, n_shards = (int(x) for x in a.shard.split("/"))
    names = names[k::n_shards]
    started = time.monotonic()
    print("| case | wb ms (graphs) | wb ms (no graphs) | eager ms | compile ms | Thunder ms (recorded) | wb/compile | "
          "wb/eager | wb setup cold / warm s | compile first call cold / warm, Thunder first call s | "
          "step peak MiB wb / eager / compile | note |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    rows, ratios_c, ratios_e, ratios_ro = [], [], [], []
    for n in names:
        if a.deadline and time.monotonic() - started > a.deadline:
            print(f"| {n} | not run: the call's deadline ({a.deadline:.0f} s) had passed |", flush=True)
            continue
        c = cases.CASES[n]
        case_dir = os.path.join(a.zoo, n)
        r = {"case": n}
        r.update(real_model(n, c, a))
        r["workbench"] = workbench(a.app, case_dir, a.out, a.iters, a.warmup, not a.no_extra) if os.path.isdir(case_dir) else \
            {"error": "not in the zoo"}
        rows.append(r)
        wb, e, cm = (r["workbench"].get("median_ms"), r["eager"].get("median_ms"),
                     r.get("compile", {}).get("median_ms"))
        if wb and cm:
            ratios_c.append(wb / cm)
        if wb and e:
            ratios_e.append(wb / e)
        f = lambda d, k="median_ms": "%.3f" % d[k] if d.get(k) is not None else "-"
        wbd = r["workbench"]
        th_ms, th_first = recorded_thunder(case_dir)
        r["thunder_recorded"] = {"median_ms": th_ms, "first_call_s": th_first}
        note = wbd.get("error", "")
        if wbd.get("entries", 0) > 1 and not note:
            note = f"sum of {wbd['entries']} ThunderFX subgraphs"
        if "graphs" in wbd:
            note += f"{'; ' if note else ''}CUDA graph in {wbd['graphs']} of {wbd['entries']}"
        ro = r.get("compile_ro", {}).get("median_ms")
        if ro:
            note += f"{'; ' if note else ''}torch.compile reduce-overhead {ro:.3f} ms: wb {wb / ro:.2f}x" if wb else \
                f"{'; ' if note else ''}torch.compile reduce-overhead {ro:.3f} ms"
            if wb:
                ratios_ro.append(wb / ro)
        elif "compile_ro" in r:
            note += f"{'; ' if note else ''}reduce-overhead: {r['compile_ro'].get('error', '?')[:120]}"
        if wbd.get("runtime_compiles"):
            note += f"; {wbd['runtime_compiles']} kernels compiled during the run"
        cfirst = r.get("compile", {}).get("first_call_s")
        cwarm = r.get("compile", {}).get("warm_first_call_s")
        tpeak = r.get("compile", {}).get("peak_minus_before_mb")
        epeak = r.get("eager", {}).get("peak_minus_before_mb")
        print(f"| {n} | {f(wbd)} | {f(wbd, 'plain_median_ms')} | {f(r['eager'])} | {f(r.get('compile', {}))} | "
              f"{'%.3f' % th_ms if th_ms else '-'} | "
              f"{'%.2fx' % (wb / cm) if wb and cm else '-'} | {'%.2fx' % (wb / e) if wb and e else '-'} | "
              f"{'%.1f' % wbd['setup_cold_s'] if wbd.get('setup_cold_s') is not None else '-'} / "
              f"{'%.1f' % wbd['setup_warm_s'] if wbd.get('setup_warm_s') is not None else '-'} | "
              f"{'%.1f' % cfirst if cfirst else '-'} / {'%.1f' % cwarm if cwarm else '-'} / "
              f"{'%.1f' % th_first if th_first else '-'} | "
              f"{'%.1f' % wbd['peak_mb'] if 'peak_mb' in wbd else '-'} / {'%.1f' % epeak if epeak is not None else '-'} / "
              f"{'%.1f' % tpeak if tpeak is not None else '-'} | "
              f"{note} |", flush=True)
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None
    summary = {"geomean_wb_over_compile": gm(ratios_c), "geomean_wb_over_eager": gm(ratios_e),
               "geomean_wb_over_compile_reduce_overhead": gm(ratios_ro), "cases_with_ratios": len(ratios_c), "cases": len(rows)}
    print(f"geometric mean over {len(ratios_c)} of {len(rows)} cases: wb/compile "
          f"{summary['geomean_wb_over_compile'] or '-'}, wb/eager {summary['geomean_wb_over_eager'] or '-'}, "
          f"wb/compile reduce-overhead over {len(ratios_ro)}: {summary['geomean_wb_over_compile_reduce_overhead'] or '-'}")
    with open(os.path.join(a.out, "bench-zoo.json"), "w", encoding="utf-8") as f:
        json.dump({"rows": rows, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
