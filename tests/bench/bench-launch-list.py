#!/usr/bin/env python3
"""The three ways the GPU runner repeats a program, side by side on the zoo's training cases (issue 44,
items 2 and 3): a CUDA graph replay (the default), the flat launch list (`--no-cuda-graphs`) and the
interpreter call by call (`--no-cuda-graphs` with WB_LAUNCH_LIST=0).

For each case, three `thunder-wb --headless profile CASE --device cuda` commands in a row on one GPU (the
first fills the kernel cache); per mode the sum over the case's sub-programs of the unprofiled median (ms, no
profiler event inside the step), and whether every sub-program's last replay was bit-identical to its
checked run (the runner's note). Prints a Markdown table with the ratios and their geometric means, and
writes OUT/bench-launch-list.json after every case (a call that runs out of time keeps what it measured).

    bench-launch-list.py --app build/app/thunder-wb --zoo ZOO --out DIR [--iters 10] [--warmup 2]
                         [--deadline S] [CASE ...]
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "zoo"))

MODES = (("graphs", [], {}), ("list", ["--no-cuda-graphs"], {}), ("interp", ["--no-cuda-graphs"], {"WB_LAUNCH_LIST": "0"}))


def reports(out):
    """The case's report(s): the one program's, or each sub-program's under OUT/<name>/."""
    top = os.path.join(out, "r.json")
    try:
        with open(top, encoding="utf-8") as f:
            d = json.load(f)
        if "iteration" in d:
            return [d]
    except (OSError, ValueError):
        return []
    found = []
    for p in sorted(glob.glob(os.path.join(out, "*", "r.json"))):
        with open(p, encoding="utf-8") as f:
            found.append(json.load(f))
    return found


def one(app, case_dir, out, iters, warmup, extra, env):
    """(summed unprofiled median ms or None, sub-programs, all bit-identical, error, wall s)"""
    os.makedirs(out, exist_ok=True)
    cmd = [app, "--headless", "profile", case_dir, "--device", "cuda", "--iters", str(iters), "--warmup", str(warmup),
           "--allow-tf32", "--report", os.path.join(out, "r.json"), *extra]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=400, env={**os.environ, **env})
        err = None if p.returncode == 0 else f"exit {p.returncode}: {(p.stderr.strip().splitlines() or ['?'])[-1]}"[:300]
    except subprocess.TimeoutExpired:
        err = "timed out after 400 s"
    wall = time.perf_counter() - t0
    rs = reports(out)
    if err or not rs:
        return None, len(rs), False, err or "no report", wall
    total, same = 0.0, True
    for r in rs:
        it = r["iteration"]
        total += it.get("unprofiled_median_ms", it["median_ms"])
        notes = " ".join(str(n) for n in r.get("notes", []))
        same &= "bit-identical" in notes
    return total, len(rs), same, None, wall


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--app", required=True)
    p.add_argument("--zoo", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--deadline", type=float, default=0, help="seconds after which no new case starts")
    p.add_argument("cases", nargs="*")
    a = p.parse_args()
    names = a.cases
    if not names:
        import cases

        names = [n for n, c in cases.CASES.items() if c["training"]]
    os.makedirs(a.out, exist_ok=True)
    started, rows = time.monotonic(), {}
    print("| case | programs | graphs ms | launch list ms | interpreter ms | list / graphs | interpreter / graphs | "
          "interpreter / list | replays bit-identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|", flush=True)
    for n in names:
        if a.deadline and time.monotonic() - started > a.deadline:
            print(f"| {n} | not run: the deadline ({a.deadline:.0f} s) had passed |", flush=True)
            continue
        row = {}
        for mode, extra, env in MODES:
            ms, k, same, err, wall = one(a.app, os.path.join(a.zoo, n), os.path.join(a.out, n, mode), a.iters, a.warmup, extra, env)
            row[mode] = {"median_ms": ms, "programs": k, "bit_identical": same, "error": err, "wall_s": wall}
        rows[n] = row
        g, li, it = (row[m]["median_ms"] for m in ("graphs", "list", "interp"))
        f = lambda x: "%.3f" % x if x else "-"
        r = lambda x, y: "%.2fx" % (x / y) if x and y else "-"
        errs = "; ".join(f"{m}: {row[m]['error']}" for m in row if row[m]["error"])
        same = "yes" if row["graphs"]["bit_identical"] and row["list"]["bit_identical"] else "no"
        print(f"| {n} | {row['graphs']['programs']} | {f(g)} | {f(li)} | {f(it)} | {r(li, g)} | {r(it, g)} | {r(it, li)} | "
              f"{same}{' (' + errs + ')' if errs else ''} |", flush=True)
        with open(os.path.join(a.out, "bench-launch-list.json"), "w", encoding="utf-8") as fo:
            json.dump(rows, fo, indent=1)
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    for x, y in (("list", "graphs"), ("interp", "graphs"), ("interp", "list")):
        rs = [v[x]["median_ms"] / v[y]["median_ms"] for v in rows.values() if v[x]["median_ms"] and v[y]["median_ms"]]
        print(f"geometric mean {x} / {y} over {len(rs)} cases: {gm(rs):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
