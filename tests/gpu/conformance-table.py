#!/usr/bin/env python3
# conformance-table.py — the conformance suite's table from its TAP logs (issue 43): per op and executor, one
# column per dtype, "ok N" (cases within the dtype's tolerance) or "FAIL M/N", and the worst relative error
# against the cpu executor.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   tests/gpu/conformance-table.py LOG...     (the logs tests/gpu/run-on-device.sh writes: test-cuda-conformance*.log)
#
# It reads the lines each case prints ("# cudnn prims.convolution(1-d) bf16 output 0 bf16[2, 16, 10]: max abs
# 0.000e+00, rel 0.000e+00, 0 of 320 outside"); a case that failed before comparing (an error, a fallback, a
# fault) shows as "not ok" in the TAP and is counted from there.
import re
import sys
from collections import defaultdict

DTYPES = r"(f64|f32|bf16|f16|i64|i32|i16|i8|ui8|u8|b8)"
# "# EXECUTOR SYMBOL[(variant)][ more words] DTYPE output N SHAPE: max abs X, rel Y, M of N outside"
LINE = re.compile(r"^# (\S+) ([^\s(]+)(.*?) " + DTYPES + r" output \d+ .*?: max abs (\S+), rel (\S+), (\d+) of (\d+) outside")
# "not ok N /cuda/conformance/NNN_EXECUTOR_SYMBOL[(variant)][_more_words]_DTYPE" (spaces became '_': the symbol
# is what comes before the first '(' or, without one, the rest)
NOT_OK = re.compile(r"^not ok \d+ /cuda/\S*?/\d+_([^_]+)_(\S+)_" + DTYPES + r"\s*(#.*)?$")


def main(paths):
    cells = defaultdict(lambda: {"cases": 0, "fail": 0, "rel": 0.0})
    dtypes = []
    for path in paths:
        seen = set()
        for line in open(path, encoding="utf-8", errors="replace"):
            m = LINE.match(line)
            if m:
                exe, sym, variant, dt, _, rel, bad, _ = m.groups()
                key = (sym, exe, dt, variant or "")
                c = cells[(sym, exe, dt)]
                if key not in seen:
                    c["cases"] += 1
                    seen.add(key)
                c["fail"] += int(bad) > 0
                c["rel"] = max(c["rel"], float(rel))
                if dt not in dtypes:
                    dtypes.append(dt)
                continue
            m = NOT_OK.match(line.strip())
            if m and "SKIP" not in (m.group(4) or ""):
                exe, rest, dt, _ = m.groups()
                sym = rest.split("(")[0]
                c = cells[(sym, exe, dt)]
                c["cases"] += 1
                c["fail"] += 1
                if dt not in dtypes:
                    dtypes.append(dt)
    order = [d for d in ("f64", "f32", "bf16", "f16", "i64", "i32", "i16", "i8", "ui8", "b8") if d in dtypes]
    order += [d for d in dtypes if d not in order]
    rows = sorted({(s, e) for (s, e, _) in cells})
    print("| op | executor | " + " | ".join(order) + " |")
    print("|---|---|" + "---|" * len(order))
    for sym, exe in rows:
        out = []
        for dt in order:
            c = cells.get((sym, exe, dt))
            if c is None:
                out.append("")
            elif c["fail"]:
                out.append(f"FAIL {c['fail']}/{c['cases']}")
            else:
                out.append(f"ok {c['cases']} ({c['rel']:.1e})")
        print(f"| {sym} | {exe} | " + " | ".join(out) + " |")
    total = sum(c["cases"] for c in cells.values())
    failed = sum(1 for c in cells.values() if c["fail"])
    print(f"\n{len(rows)} ops x executors, {total} cases; cells with a failure: {failed}. "
          "A cell: cases within the dtype's tolerance (worst relative error against the cpu executor).")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__ or "usage: conformance-table.py LOG...")
    main(sys.argv[1:])
