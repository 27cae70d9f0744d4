#!/usr/bin/env python3
# test-dist-cli.py — thunder-wb on cases recorded per rank (tests/dist/cases): check, stages, run and
# coverage with their exit codes (suite app)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-dist-cli.py THUNDER_WB CASES_DIR
import json
import os
import subprocess
import sys

wb, cases = sys.argv[1], sys.argv[2]
results = []


def cli(*args):
    p = subprocess.run([wb, "--headless", *args], capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def main():
    if not os.path.isdir(cases):
        print("1..0 # SKIP tests/dist/cases are not unpacked")
        return 0
    # check: each rank folder is a case; no unknown symbol or uninterpreted annotation anywhere
    for c in ("ddp_ws1", "ddp_ws2", "zero2_ws1", "zero2_ws2", "zero3_ws1", "zero3_ws2", "bucketing"):
        rc, out, err = cli("check", os.path.join(cases, c))
        ranks = 2 if c.endswith("ws2") else 1
        ok(rc == 0 and out.count("traces checked, 0 errors, 0 warnings") == ranks, f"check {c}", out + err[-2000:])
    # stages of a case per rank: one table per rank, JSON with "ranks", --show refused
    rc, out, err = cli("stages", os.path.join(cases, "ddp_ws2"), "--recompile")
    ok(rc == 0 and out.count("### ") == 2 and out.count("workbench") >= 20, "stages --recompile per rank", err)
    rc, out, err = cli("stages", os.path.join(cases, "ddp_ws2"), "--format", "json")
    doc = json.loads(out) if rc == 0 else {}
    ok([os.path.basename(r["path"]) for r in doc.get("ranks", [])] == ["rank0", "rank1"], "stages --format json ranks")
    rc, out, err = cli("stages", os.path.join(cases, "ddp_ws2"), "--show", "3")
    ok(rc == 2 and "rank0" in err, "stages --show on ranks is a usage error", err)
    # run: world size 1 matches Thunder's outputs and gradients; world size 2 refused on the cpu
    for c in ("ddp_ws1", "zero2_ws1", "zero3_ws1"):
        r0 = os.path.join(cases, c, "rank0")
        t = os.path.join(r0, "tensors.safetensors")
        rc, out, err = cli("run", r0, "--inputs", t, "--compare", t)
        ok(rc == 0 and "5 compared: all within tolerance" in out, f"run {c} --compare", out + err)
    t = os.path.join(cases, "bucketing", "tensors.safetensors")
    rc, out, err = cli("run", os.path.join(cases, "bucketing"), "--inputs", t, "--compare", t)
    ok(rc == 0 and "9 compared: all within tolerance" in out, "run bucketing --compare", out + err)
    for c in ("ddp_ws2", "zero3_ws2"):
        r1 = os.path.join(cases, c, "rank1")
        rc, out, err = cli("run", r1)
        ok(rc == 2 and "over 2 ranks" in err and "one process per rank" in err and ".py:" in err, f"run {c} refused",
           err)
    # coverage: the ranks are cases; the world-size-2 ranks are not run on the cpu, the others pass
    rc, out, err = cli("coverage", os.path.join(cases, "ddp_ws1"), os.path.join(cases, "ddp_ws2"), "--levels",
                       "load,check,roundtrip,recompile,run-cpu", "--format", "json", "--jobs", "1")
    doc = json.loads(out) if out.startswith("{") else {}
    levels = {os.path.relpath(c["path"], cases): c["levels"]["run-cpu"]["status"] for c in doc.get("cases", [])}
    ok(levels.get("ddp_ws1/rank0") == "ok" and levels.get("ddp_ws2/rank0") == "not-run"
       and levels.get("ddp_ws2/rank1") == "not-run" and rc == 1, "coverage run-cpu per rank", repr(levels))
    print(f"1..{len(results)}")
    for i, (good, name, detail) in enumerate(results, 1):
        print(f"{'ok' if good else 'not ok'} {i} {name}")
        if not good:
            for line in detail.splitlines()[-20:]:
                print(f"# {line}")
    return 0 if all(g for g, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
