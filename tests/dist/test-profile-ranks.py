#!/usr/bin/env python3
# test-profile-ranks.py — `profile` of cases recorded per rank (tests/dist/cases) where no GPU is needed: a
# multi-GPU case asks for one GPU per rank (exit 3 naming the rank, or a usage error for --device cpu), a
# 1-rank case runs on the cpu on its recorded inputs with its collectives; through the stand-in runner (one
# per rank, a made-up NCCL id), --session stores the ranks as a group and --baseline holds each rank against
# the same rank of a stored multi-GPU run: exit 0 when as fast, 1 naming the rank when slower, 2 when the
# baseline is not a run of as many ranks (suite app)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-profile-ranks.py THUNDER_WB CASES_DIR FAKE_RUNNER
import json
import os
import subprocess
import sys
import tempfile

wb, cases, fake = sys.argv[1], sys.argv[2], sys.argv[3]
results = []


def cli(*args, env=None):
    p = subprocess.run([wb, "--headless", *args], capture_output=True, text=True, timeout=240, env=env)
    return p.returncode, p.stdout, p.stderr


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def gate(ws2, tmp):
    """--session and --baseline of a 2-rank case through the stand-in runner"""
    env = dict(os.environ, WB_RUNNER=fake, FAKE_RUNNER_DEVICE="NVIDIA Fake 80GB, sm_90", FAKE_RUNNER_ITER_MS="0")
    sess, one = os.path.join(tmp, "ranks.wbsession"), os.path.join(tmp, "one.wbsession")
    run = ("profile", ws2, "--iters", "3", "--warmup", "1")
    rc, out, err = cli(*run, "--session", sess, env=env)
    ok(rc == 0 and "stored the 2 ranks' runs" in err, "--session stores a 2-rank run's ranks", err)
    rc, out, err = cli(*run, "--baseline", sess, "--fail-above", "5", env=env)
    ok(rc == 0, "--baseline: the same ranks again pass the gate", err)
    rep = os.path.join(tmp, "g.json")
    rc, out, err = cli(*run, "--baseline", sess, "--fail-above", "5", "--report", rep,
                       env=dict(env, FAKE_RUNNER_TIME_SCALE="2"))
    ranks = [json.load(open(os.path.join(tmp, "g.rank%d.json" % r))) for r in range(2) if rc == 1]
    ok(rc == 1 and "regression gate failed" in err and "(rank 1)" in err and
       all(r.get("gate", {}).get("failed") for r in ranks) and len(ranks) == 2,
       "--baseline: ranks twice as slow fail the gate, each rank's report holds its gate", err)
    rc, out, err = cli(*run, "--baseline", sess, "--fail-above", "5", env=dict(env, FAKE_RUNNER_TIME_SCALE="2"))
    ok(rc == 1 and "gate failed on rank 0" in err and "gate failed on rank 1" in err,
       "--baseline without --report names each rank whose gate failed", err)
    rc, out, err = cli("profile", os.path.join(cases, "ddp_ws1"), "--device", "cpu", "--iters", "1", "--session", one)
    rc, out, err = cli(*run, "--baseline", one, "--fail-above", "5", env=env)
    ok(rc == 2 and "multi-GPU run of 2 ranks, not one of 1" in err, "--baseline of a one-rank run is refused", err)


def main():
    if not os.path.isdir(cases):
        print("1..0 # SKIP tests/dist/cases are not unpacked")
        return 0
    ws2 = os.path.join(cases, "ddp_ws2")
    rc, out, err = cli("profile", ws2, "--device", "cpu", "--iters", "1")
    ok(rc == 2 and "2 ranks runs on 2 GPUs" in err and "rank0" in err, "a 2-rank case on the cpu is a usage error", err)
    with tempfile.TemporaryDirectory() as tmp:
        gate(ws2, tmp)
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
