#!/usr/bin/env python3
# compare-ranks.py — a multi-GPU run's outputs and gradients against the 1-GPU run of the same step
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tests/gpu/compare-ranks.py --mode ddp|fsdp W1.safetensors W2.rank0.safetensors W2.rank1.safetensors ...
#
# The files are `thunder-wb --headless profile CASE --save-outputs F` of a case recorded with one rank (on the
# whole batch) and of the same case recorded with N ranks (each on its 1/N of the batch): output.<i> and
# grad.<flat argument>. Data parallelism makes the N ranks' mean loss the 1-rank loss, and:
#   ddp:  every rank's gradient equals the 1-rank gradient (Thunder's DDP divides by N and all-reduces SUM);
#   fsdp: rank r holds shard r of dim 0 of each gradient (padded to a multiple of N): their concatenation,
#         trimmed, equals the 1-rank gradient.
# Prints one line per tensor (max abs error, error relative to the reference's max magnitude) and exits 1 when
# one is above the tolerance (--rtol, default 1e-4 of the reference's largest magnitude, + --atol 1e-6) or
# nothing was compared. Standard library only (safetensors_lite.py).
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from safetensors_lite import load  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=("ddp", "fsdp"), required=True)
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--atol", type=float, default=1e-6)
    ap.add_argument("one")
    ap.add_argument("ranks", nargs="+")
    a = ap.parse_args()
    one = load(a.one)
    ranks = [load(f) for f in a.ranks]
    n = len(ranks)
    worst, bad, rows = 0.0, 0, []

    def check(name, got, ref):
        nonlocal worst, bad
        if len(got) != len(ref):
            rows.append((name, "%d elements, expected %d" % (len(got), len(ref)), False))
            bad += 1
            return
        err = max((abs(g - r) for g, r in zip(got, ref)), default=0.0)
        scale = max((abs(r) for r in ref), default=0.0)
        rel = err / scale if scale > 0 else err
        ok = err <= a.rtol * scale + a.atol
        worst = max(worst, rel)
        bad += 0 if ok else 1
        rows.append((name, "max abs err %.3e, rel %.3e" % (err, rel), ok))

    for key in sorted(one):
        ref = one[key]
        if key.startswith("output."):
            vals = [r[key] for r in ranks if key in r]
            if len(vals) == n and ref.numel() == 1:
                check(key + " (mean over ranks)", [sum(v.values()[0] for v in vals) / n], ref.values())
        elif key.startswith("grad."):
            vals = [r.get(key) for r in ranks]
            if any(v is None for v in vals):
                rows.append((key, "missing in a rank's file", False))
                bad += 1
            elif a.mode == "ddp":
                for r, v in enumerate(vals):
                    check("%s rank %d" % (key, r), v.values(), ref.values())
            else:
                joined = [x for v in vals for x in v.values()]
                check(key + " (shards joined)", joined[: ref.numel()], ref.values())
    for name, text, ok in rows:
        print("%-4s %-48s %s" % ("ok" if ok else "FAIL", name, text))
    print("compared %d tensors of %d ranks with the 1-rank run: %d above tolerance, worst relative error %.3e" % (len(rows), n, bad, worst))
    return 1 if bad or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
