#!/usr/bin/env python3
# run-all-stages.py — every stage of every case on cuda against the same stage on cpu (issue 5's
# acceptance table), through the headless CLI
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tests/gpu/run-all-stages.py THUNDER_WB TRACES_DIR OUTDIR [CASE...]
# For every entry of `thunder-wb --headless stages CASE --recompile` (Thunder's traces, stages/,
# default_execs/, fallback/ and the workbench's recomputed stages; a backward entry runs with its
# forward, so pairs are run once): `run --stage K --save-outputs cpu.safetensors` on cpu, then
# `run --device cuda --stage K --inputs cpu.safetensors --compare cpu.safetensors`. The tolerance is
# run's default per dtype (wb-compare.h). cpu runs go 4 at a time with 4 threads each, cuda runs 2 at a
# time. Prints one row per program (case, stage, kind, status, worst norm-wise error, elements outside
# the element-wise tolerance) and a summary per case; the table also goes to OUTDIR/all-stages.md. Each cpu
# run's safetensors file is deleted once its cuda run has compared against it.
# WB_ALL_STAGES_SECONDS=N stops starting runs after N seconds (the rest are listed as not run);
# WB_ALL_STAGES_ONLY=CASE:N,N-M,... runs only those entry numbers of CASE (to finish what an earlier call's
# time budget left; other cases run whole). Rows are
# printed as they finish. Exit 0 when every program that ran matches, 1 otherwise.
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import time

wb, traces, out = sys.argv[1], sys.argv[2], sys.argv[3]
deadline = time.time() + float(os.environ.get("WB_ALL_STAGES_SECONDS", "1e9"))
cases = sys.argv[4:] or sorted(d for d in os.listdir(traces) if os.path.isdir(os.path.join(traces, d)))
os.makedirs(out, exist_ok=True)
row_re = re.compile(r"^(\S+)\s+(\S+)\s+(\[[^\]]*\])\s+(\S+)\s+(\S+)\s+(.*)$")


def sh(args, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return -1, "TIMEOUT", time.time() - t0


def programs(case):
    path = os.path.join(traces, case)
    rc, text, _ = sh([wb, "--headless", "stages", path, "--recompile", "--format", "json"], 300)
    if rc != 0:
        return [(case, None, f"stages failed: {text.strip()[:200]}")]
    return [(case, e["number"], e["kind"]) for e in json.loads(text)["entries"]]


def label_of(text):
    m = re.search(r"stage (\S+) \((\w+)\)", text)
    return (m.group(1), m.group(2)) if m else ("?", "?")


def cpu_run(job):
    case, k, _ = job
    if time.time() > deadline:
        return job, -2, "not run (time budget)", None
    f = os.path.join(out, f"{case}-{k}.safetensors")
    rc, text, s = sh([wb, "--headless", "run", os.path.join(traces, case), "--recompile", "--stage", str(k),
                      "--threads", "4", "--save-outputs", f], 900)
    return job, rc, text, f


def cuda_run(job, f):
    case, k, _ = job
    if time.time() > deadline:
        return -2, "not run (time budget)", 0
    return sh([wb, "--headless", "run", os.path.join(traces, case), "--recompile", "--stage", str(k),
               "--device", "cuda", "--inputs", f, "--compare", f], 900)


def drop(f):
    """the cpu run's outputs once compared: gpt2_block's and llama_layer's are hundreds of MB per stage"""
    try:
        os.remove(f)
    except OSError:
        pass


def worst(text):
    rel, bad, n = 0.0, 0, 0
    for line in text.splitlines():
        m = row_re.match(line)
        if not m or m.group(1) == "name":
            continue
        try:
            rel = max(rel, float(m.group(5)))
        except ValueError:
            continue
        n += 1
    for mm in re.finditer(r"(\d+) of (\d+) elements outside", text):
        bad += int(mm.group(1))
    return n, rel, bad


only = {}
for spec in filter(None, os.environ.get("WB_ALL_STAGES_ONLY", "").split(";")):
    c, _, nums = spec.partition(":")
    keep = set()
    for part in nums.split(","):
        lo, _, hi = part.partition("-")
        keep.update(range(int(lo), int(hi or lo) + 1))
    only[c] = keep
jobs = [j for c in cases for j in programs(c) if c not in only or j[1] is None or j[1] in only[c]]
rows, seen = [], set()
t0 = time.time()
with cf.ThreadPoolExecutor(4) as cpu_pool, cf.ThreadPoolExecutor(2) as gpu_pool:
    cpu_futs = [cpu_pool.submit(cpu_run, j) for j in jobs if j[1] is not None]
    for j in jobs:
        if j[1] is None:
            rows.append((j[0], "-", "-", "FAIL", 0, 0.0, 0, j[2]))
    gpu_futs = []
    for fut in cf.as_completed(cpu_futs):
        job, rc, text, f = fut.result()
        if rc == -2:
            # one row per entry: its label is not known without running it, so it is not deduplicated
            rows.append((job[0], f"#{job[1]}", "-", "not run", 0, 0.0, 0, "time budget"))
            continue
        label, kind = label_of(text)
        if (job[0], label) in seen:
            continue
        seen.add((job[0], label))
        if rc != 0 or kind in ("prologue", "epilogue", "region"):
            drop(f)
        if rc == 0 and kind in ("prologue", "epilogue", "region"):
            # host-side traces (Thunder runs prologues and epilogues on the host) and captured fusion-region
            # traces (their inputs come from the parent stage, which has its own row): cpu only
            rows.append((job[0], label, kind, "cpu only", 0, 0.0, 0, "a " + kind + " trace: --device cuda runs computation stages"))
            continue
        if rc != 0:
            rows.append((job[0], label, kind, "cpu-fail", 0, 0.0, 0, text.strip().splitlines()[-1][:160] if text.strip() else ""))
            continue
        gpu_futs.append((job, label, kind, f, gpu_pool.submit(cuda_run, job, f)))
    for job, label, kind, f, fut in gpu_futs:
        rc, text, s = fut.result()
        drop(f)
        n, rel, bad = worst(text)
        status = "ok" if rc == 0 else ("MISMATCH" if rc == 1 else "not run" if rc == -2 else "FAIL")
        note = "" if rc == 0 else (text.strip().splitlines()[-1][:160] if text.strip() else "")
        fb = re.search(r"cpu fallback[^\n]*", text)
        if fb and rc == 0:
            note = fb.group(0)[:160]
        rows.append((job[0], label, kind, status, n, rel, bad, note))
        print(f"{job[0]:<24} {label:<60} {status:<9} {rel:9.2e} {bad:6d} {s:6.1f}s {note}", flush=True)

rows.sort(key=lambda r: (r[0], r[1]))
lines = [f"| case | stage | kind | status | tensors | worst rel | el. outside tol | note |", "|---|---|---|---|---|---|---|---|"]
for r in rows:
    lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]:.2e} | {r[6]} | {r[7]} |")
summary = []
for c in cases:
    rs = [r for r in rows if r[0] == c]
    ok = sum(1 for r in rs if r[3] == "ok")
    nr = sum(1 for r in rs if r[3] == "not run")
    host = sum(1 for r in rs if r[3] == "cpu only")
    summary.append(f"{c}: {ok}/{len(rs) - nr - host} computation stages ok on cuda ({host} host/region traces cpu only, {nr} not run in the time budget), worst rel {max([r[5] for r in rs] or [0]):.2e}")
text = "\n".join(lines) + "\n\n" + "\n".join(summary) + f"\n({time.time() - t0:.0f} s)\n"
open(os.path.join(out, "all-stages.md"), "w").write(text)
print(text)
sys.exit(0 if all(r[3] in ("ok", "not run", "cpu only") for r in rows) else 1)
