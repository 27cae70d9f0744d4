#!/usr/bin/env python3
# test-profile-ranks.py — `profile` of cases recorded per rank (tests/dist/cases) where no GPU is needed: a
# multi-GPU case asks for one GPU per rank (exit 3 naming the rank, or a usage error for --device cpu), a
# 1-rank case runs on the cpu on its recorded inputs with its collectives, and the options that do not take
# a multi-GPU case yet say so (suite app)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-profile-ranks.py THUNDER_WB CASES_DIR
import json
import os
import subprocess
import sys
import tempfile

wb, cases = sys.argv[1], sys.argv[2]
results = []


def cli(*args, env=None):
    p = subprocess.run([wb, "--headless", *args], capture_output=True, text=True, timeout=240, env=env)
    return p.returncode, p.stdout, p.stderr


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def main():
    if not os.path.isdir(cases):
        print("1..0 # SKIP tests/dist/cases are not unpacked")
        return 0
    ws2 = os.path.join(cases, "ddp_ws2")
    rc, out, err = cli("profile", ws2, "--device", "cpu", "--iters", "1")
    ok(rc == 2 and "2 ranks runs on 2 GPUs" in err and "rank0" in err, "a 2-rank case on the cpu is a usage error", err)
    rc, out, err = cli("profile", ws2, "--baseline", "x.wbsession", "--fail-above", "5", "--iters", "1")
    ok(rc == 2 and "multi-GPU case" in err, "--baseline with a 2-rank case says it is not supported yet", err)
    # without a GPU (CI): the first rank that has none is named, exit 3 (environment)
    env = dict(os.environ, WB_RUNNER="/nonexistent/thunder-wb-runner")
    rc, out, err = cli("profile", ws2, "--iters", "1", env=env)
    ok(rc == 3 and "rank 0" in err and "GPU" in err, "a 2-rank case without GPUs: exit 3 naming the rank", err)
    # one rank: the case folder runs as its rank0, on its recorded inputs, on the cpu (collectives of one rank)
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, "w1.json")
        rc, out, err = cli("profile", os.path.join(cases, "ddp_ws1"), "--device", "cpu", "--iters", "2", "--warmup", "1",
                           "--report", rep)
        doc = json.load(open(rep)) if rc == 0 and os.path.exists(rep) else {}
        names = [r.get("name", "") for r in doc.get("regions", [])]
        kinds = {r.get("name"): r.get("kind") for r in doc.get("regions", [])}
        ok(rc == 0 and any("all_reduce" in n for n in names), "a 1-rank case profiles on the cpu with its all-reduces",
           err + repr(names[:8]))
        ok(all(kinds[n] == "collective" for n in names if "all_reduce" in n or "wait" in n),
           "its collective calls are of kind collective", repr(kinds))
    # a rank imported into a session is named after its case: ddp_ws1/rank0, not rank0
    with tempfile.TemporaryDirectory() as tmp:
        sess = os.path.join(tmp, "s.wbsession")
        rc, out, err = cli("import", os.path.join(cases, "ddp_ws1", "rank0"), "--session", sess)
        rc2, out2, err2 = cli("sessions", sess)
        ok(rc == 0 and rc2 == 0 and "ddp_ws1/rank0" in out2, "a rank's trace set is named CASE/rankN", out2 + err + err2)
    print(f"1..{len(results)}")
    for i, (good, name, detail) in enumerate(results, 1):
        print(f"{'ok' if good else 'not ok'} {i} {name}")
        if not good:
            for line in detail.splitlines()[-20:]:
                print(f"# {line}")
    return 0 if all(g for g, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
