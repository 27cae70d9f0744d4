#!/usr/bin/env python3
# test-bisect.py — `bisect` finds the call that makes a GPU run wrong; coverage judges call by call (TAP)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-bisect.py THUNDER_WB FAKE_RUNNER ZOO_DIR SAMPLES_DIR
#
# The stand-in runner (tests/profiler/fake-runner.c, FAKE_RUNNER_EXECUTE=1) runs the program on the cpu
# executor as its "GPU" and makes the calls printed FAKE_RUNNER_BREAK come out 1% wrong there. bisect must
# name the top-level call of the default stage that holds the first such op, which this test finds in the
# trace files' text alone: the first line `= OP(` in the last forward_NN.py, else in backward_00.py, and the
# nearest top-level statement (two spaces of indent, not a comment) at or above it, and its outputs checked
# against the cpu executor must show more than round-off (the fake's 1%, or less where it feeds other ops).
# No break: the GPU agrees.
#
# coverage's run-gpu on DenseNet-121 (a batch norm over two values per channel in its last block amplifies
# round-off): every convolution off by 1e-6 of its values (what two correct f32 kernels differ by) turns the
# program's end-to-end result past the f64 judge, and coverage must then judge it call by call and pass; off
# by 1e-2, it must fail and name a convolution as the worst call.
import json
import math
import os
import re
import subprocess
import sys

# (entry, op whose calls the fake GPU gets wrong): a region (forward), a lone op, backward-only ops
CASES = [("misc_ops", "prims.exp"), ("misc_ops", "prims.topk"), ("misc_ops", "prims.scatter_add"),
         ("misc_ops", "prims.matmul"), ("SAMPLES/mlp_small", "prims.tanh")]


def expected(entry, op):
    fwd = sorted(f for f in os.listdir(entry) if re.fullmatch(r"forward_\d+\.py", f))[-1]
    for name in (fwd, "backward_00.py"):
        lines = open(os.path.join(entry, name)).read().splitlines()
        for i, ln in enumerate(lines):
            if f"= {op}(" in ln:
                for j in range(i, -1, -1):
                    if re.match(r"^  [^ #]", lines[j]):
                        return name, j + 1
    return None


def bisect(wb, runner, entry, brk, command="bisect", extra=(), scale=None):
    env = dict(os.environ, WB_RUNNER=runner, FAKE_RUNNER_DEVICE="NVIDIA Fake 80GB, sm_90", FAKE_RUNNER_EXECUTE="1",
               LC_ALL="C")
    env.pop("LANGUAGE", None)
    env.pop("FAKE_RUNNER_BREAK", None)
    env.pop("FAKE_RUNNER_BREAK_SCALE", None)
    if brk:
        env["FAKE_RUNNER_BREAK"] = brk
    if scale:
        env["FAKE_RUNNER_BREAK_SCALE"] = scale
    p = subprocess.run([wb, "--headless", command, entry, *extra], capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    wb, runner, zoo, samples = sys.argv[1:5]
    tests = len(CASES) + 4
    print(f"1..{tests}")
    n = 0
    for name, op in CASES:
        n += 1
        entry = os.path.join(samples, name[8:]) if name.startswith("SAMPLES/") else os.path.join(zoo, name)
        want = expected(entry, op)
        rc, out, err = bisect(wb, runner, entry, op)
        m = re.search(r"first call whose GPU result makes the program disagree: #\d+, (\S+):(\d+) ", out)
        got = (os.path.basename(m.group(1)), int(m.group(2))) if m else None
        kernels = re.search(r"(\d+) of them run kernels", out)
        runs = re.search(r"(\d+) runs in", out)
        # halving: at most ceil(log2(calls)) runs, plus all-GPU, all-cpu, the check against the cpu on the
        # same inputs and the one-kernel-per-op run
        bound = math.ceil(math.log2(max(2, int(kernels.group(1))))) + 4 if kernels else 0
        ok = (rc == 0 and want is not None and got == want and "every call on the GPU: FAIL" in out and
              "every call on the cpu (in the runner): pass" in out and
              "(one kernel per op): pass" in out and "that is more than round-off" in out and
              max((float(x) for x in re.findall(r"\(f32\): max abs error [0-9.e+-]+ \(([0-9.e+-]+) of max", out)), default=0) >= 1e-4 and runs is not None and int(runs.group(1)) <= bound)
        print(f"{'ok' if ok else 'not ok'} {n} - {name} with {op} wrong on the GPU: {got} (want {want})")
        if not ok:
            print("# exit %d, %s runs (bound %d)\n# " % (rc, runs.group(1) if runs else "?", bound) +
                  "\n# ".join((out + err).splitlines()[-30:]))
    n += 1
    rc, out, err = bisect(wb, runner, os.path.join(zoo, "misc_ops"), None)
    ok = rc == 0 and "the GPU agrees: nothing to bisect" in out and "first call" not in out
    print(f"{'ok' if ok else 'not ok'} {n} - nothing wrong: nothing to bisect")
    if not ok:
        print("# " + "\n# ".join((out + err).splitlines()[-20:]))
    n += 1
    rc, out, err = bisect(wb, "/nonexistent/thunder-wb-runner", os.path.join(zoo, "misc_ops"), "prims.exp")
    ok = rc == 3 and "thunder-wb:" in err
    print(f"{'ok' if ok else 'not ok'} {n} - no runner: exit 3 with a message")
    if not ok:
        print(f"# exit {rc}\n# " + "\n# ".join((out + err).splitlines()[-10:]))
    report = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"test-bisect-{os.getpid()}.json")
    for scale, want in (("1e-6", "ok"), ("1e-2", "fail")):
        n += 1
        rc, out, err = bisect(wb, runner, os.path.join(zoo, "densenet121"), "prims.convolution", "coverage",
                              ("--levels", "run-gpu", "--format", "json", "-o", report), scale)
        level = {}
        try:
            level = json.load(open(report))["cases"][0]["levels"]["run-gpu"]
        except (OSError, ValueError, KeyError, IndexError):
            pass
        text = (level.get("detail") or "") + (level.get("error") or "")
        if want == "ok":
            ok = level.get("status") == "ok" and "judged call by call" in text and "agrees with the cpu executor" in text
        else:
            m = re.search(r"call by call, (\d+) of (\d+) calls are outside .* the worst (\S+) ", text)
            ok = level.get("status") == "fail" and m is not None and int(m.group(1)) > 0 and m.group(3) == "torch.convolution"
        print(f"{'ok' if ok else 'not ok'} {n} - coverage run-gpu, convolutions off by {scale}: {level.get('status')}")
        if not ok:
            print(f"# exit {rc}: {text[-600:]}\n# " + "\n# ".join(err.splitlines()[-10:]))
    if os.path.exists(report):
        os.unlink(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
