#!/usr/bin/env python3
# bench-mix-defer.py — is the one-pass rule for long rows (defer_ok, executors/cuda/wb-cuda-codegen-mix.c) right
# at shapes other than the [2048, 4096] it was fitted on? (issue 5)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes one synthetic trace (the RMS-norm-backward shape of tests/gpu/wb-test-mixed-body.h: a row sum, a column
# sum and an element output over the same [R, K] bf16 elements; four mixes of column and row bytes, six shapes,
# each a region of its own; --shapes and --bodies take fewer) and profiles it on the GPU three times: as the rule chooses, with every such region in
# two kernels (WB_CUDA_NO_MIX_DEFER=1) and with every one in one pass (WB_CUDA_MIX_DEFER_ALWAYS=1). Prints, per
# region, the CUPTI kernel medians of both plans, which was faster and whether the rule chose it.
#
#   python3 tests/bench/bench-mix-defer.py BUILD/app/thunder-wb [--iters N] [--keep DIR]
#
# Synthetic on purpose: it measures the generator's choice across shapes, not a Thunder program; the real regions
# the rule was first fitted on, and this script's results, are in tests/bench/README.md (twenty-second and
# twenty-third sessions).
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# (label, column bytes an element, row bytes an element, inputs, outputs, prims); {R} {K} are the shape
BODIES = [
    ("col 8 row 10", 8, 10, "abcd", "t8, t6, t5, t4", [
        "t0 = prims.convert_element_type(a, dtypes.float32)", "t1 = prims.convert_element_type(b, dtypes.float32)",
        "tc = prims.convert_element_type(c, dtypes.float32)", "td = prims.convert_element_type(d, dtypes.float32)",
        "tp = prims.mul(t0, t1)", "tq = prims.mul(tc, td)", "t2 = prims.add(tp, tq)", "t3 = prims.sum(t2, (0,))",
        "t4 = prims.convert_element_type(t3, dtypes.bfloat16)", "t5 = prims.sum(t2, (1,))", "t6 = prims.mul(t5, -0.5)",
        "t7 = prims.add(t0, t1)", "t8 = prims.convert_element_type(t7, dtypes.bfloat16)"]),
    ("col 8 row 14", 8, 14, "abcd", "t8, t9, t6, t5, t4", [
        "t0 = prims.convert_element_type(a, dtypes.float32)", "t1 = prims.convert_element_type(b, dtypes.float32)",
        "tc = prims.convert_element_type(c, dtypes.float32)", "td = prims.convert_element_type(d, dtypes.float32)",
        "tp = prims.mul(t0, t1)", "tq = prims.mul(tc, td)", "t2 = prims.add(tp, tq)", "t3 = prims.sum(t2, (0,))",
        "t4 = prims.convert_element_type(t3, dtypes.bfloat16)", "t5 = prims.sum(t2, (1,))", "t6 = prims.mul(t5, -0.5)",
        "t7 = prims.add(t0, t1)", "t8 = prims.convert_element_type(t7, dtypes.bfloat16)", "t9 = prims.sub(t0, t1)"]),
    ("col 4 row 6", 4, 6, "ab", "t8, t6, t5, t4", [
        "t0 = prims.convert_element_type(a, dtypes.float32)", "t1 = prims.convert_element_type(b, dtypes.float32)",
        "t2 = prims.mul(t0, t1)", "t3 = prims.sum(t2, (0,))", "t4 = prims.convert_element_type(t3, dtypes.bfloat16)",
        "t5 = prims.sum(t2, (1,))", "t6 = prims.mul(t5, -0.5)", "t7 = prims.add(t0, t1)",
        "t8 = prims.convert_element_type(t7, dtypes.bfloat16)"]),
    ("col 4 row 10", 4, 10, "ab", "t8, t9, t6, t5, t4", [
        "t0 = prims.convert_element_type(a, dtypes.float32)", "t1 = prims.convert_element_type(b, dtypes.float32)",
        "t2 = prims.mul(t0, t1)", "t3 = prims.sum(t2, (0,))", "t4 = prims.convert_element_type(t3, dtypes.bfloat16)",
        "t5 = prims.sum(t2, (1,))", "t6 = prims.mul(t5, -0.5)", "t7 = prims.add(t0, t1)",
        "t8 = prims.convert_element_type(t7, dtypes.bfloat16)", "t9 = prims.sub(t0, t1)"]),
]
SHAPES = [(1024, 4096), (2048, 4096), (4096, 4096), (8192, 4096), (4096, 2048), (2048, 8192)]
MODES = [("rule", {}), ("two", {"WB_CUDA_NO_MIX_DEFER": "1"}), ("one", {"WB_CUDA_MIX_DEFER_ALWAYS": "1"})]


def rule(col, numel):
    """defer_ok's choice: one pass when the column kernel would read more than 40 MB (col bytes an element)"""
    return col * numel > 40e6


def write_trace(path, bodies, shapes):
    """One region per (body, shape), its names suffixed with its number; returns [(region, label, col, row, R, K)]"""
    params, decls, calls, outs, regions = [], [], [], [], []
    n = 0
    for label, col, row, ins, out, prims in bodies:
        for R, K in shapes:
            local = set(ins) | {p.split(" = ", 1)[0] for p in prims}
            sfx = lambda m: "%s_%d" % (m.group(0), n) if m.group(0) in local else m.group(0)
            names = ["%s_%d" % (x, n) for x in ins]
            onames = ["%s_%d" % (o.strip(), n) for o in out.split(",")]
            params += names
            decls += ['  # %s: "cuda:0 bf16[%d, %d]"' % (x, R, K) for x in names]
            calls.append("  [%s] = nvrtcFusion%d(%s)" % (", ".join(onames), n, ", ".join(names)))
            calls += ["    # " + re.sub(r"\b\w+\b", sfx, p) for p in prims]
            outs += onames
            regions.append(("nvrtcFusion%d" % n, label, col, row, R, K))
            n += 1
    with open(path, "w") as f:
        f.write("@torch.no_grad()\ndef computation(%s):\n" % ", ".join(params))
        f.write("\n".join(decls + calls) + "\n")
        f.write("  return (%s,)\n" % ", ".join(outs))
    return regions


def profile(wb, trace, env, iters, report):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run([wb, "--headless", "profile", trace, "--device", "cuda", "--iters", str(iters), "--warmup", "5",
                        "--report", report, "-q"], env=e, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("profile failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    with open(report) as f:
        d = json.load(f)
    out = {}
    for k in d["kernels"]:
        ms, n = out.get(k["region"], (0.0, 0))
        out[k["region"]] = (ms + k["median_ms"] * k["calls_per_iteration"], n + 1)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thunder_wb")
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--keep", help="write the trace and reports here")
    ap.add_argument("--shapes", help="R:K,... (default: %s)" % ",".join("%d:%d" % s for s in SHAPES))
    ap.add_argument("--bodies", help="column bytes of the bodies to run, e.g. 4 (default: all)")
    a = ap.parse_args()
    shapes = [tuple(int(x) for x in s.split(":")) for s in a.shapes.split(",")] if a.shapes else SHAPES
    bodies = [b for b in BODIES if a.bodies is None or str(b[1]) in a.bodies.split(",")]
    d = a.keep or tempfile.mkdtemp(prefix="wb-mix-defer-")
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, "mix-defer.py")
    regions = write_trace(trace, bodies, shapes)
    got = {}
    for name, env in MODES:
        got[name] = profile(a.thunder_wb, trace, env, a.iters, os.path.join(d, "mix-defer-%s.json" % name))
    print("| body | shape | MB | rule | two kernels ms | one pass ms | one/two | faster | rule right |")
    print("|---|---|---:|---|---:|---:|---:|---|---|")
    right = 0
    for reg, label, col, row, R, K in regions:
        two, n2 = got["two"][reg]
        one, n1 = got["one"][reg]
        chosen, nr = got["rule"][reg]
        mixed = rule(col, R * K)
        if (nr == 1) != mixed or n1 != 1 or n2 < 2:
            print("warning: %s: kernels rule %d, one %d, two %d (rule says %s)" % (reg, nr, n1, n2, "one" if mixed else "two"))
        faster = "one" if one < two else "two"
        ok = (faster == "one") == mixed
        right += ok
        mb = R * K * (row + 0.0) / 1e6
        print("| %s | [%d, %d] | %.1f | %s | %.4f | %.4f | %.2f | %s | %s |" % (label, R, K, mb, "one" if mixed else "two",
                                                                           two, one, one / two, faster, "yes" if ok else "NO"))
    print("\nrule right for %d of %d regions (rule: one pass when the column kernel would read more than 40 MB)" % (right, len(regions)))


if __name__ == "__main__":
    main()
