#!/usr/bin/env python3
# test-recompiled-runs.py — the workbench's own recomputed programs run and agree with Thunder's (TAP)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-recompiled-runs.py THUNDER_WB ZOO_DIR OUT_DIR
#
# For zoo entries chosen for what broke before: a forward output with no gradient (ConvNeXt's `noise`:
# Thunder's backward unpacks `_` for it), copy_ into a BatchNorm statistic returned in flat_args (ResNet-50,
# inplace_ops), an unknown symbol's untyped outputs beside rematerialisation (no_grad_teacher), attention
# (BERT, CLIP), rematerialisation beside in-place writes (MobileNetV3's first subgraph): Thunder's final
# forward and backward run on the cpu executor with drawn inputs and save their outputs and gradients; then the workbench's final recomputed stages (`--recompile`, the last "Delete Last
# Used" forward and its backward) run on the same inputs and are compared with them, within the dtype's
# tolerance. Both programs compute the same step, so they must agree.
import os
import subprocess
import sys

ENTRIES = ["convnext_tiny/thunderfx_g0_GraphModule", "resnet50", "inplace_ops", "no_grad_teacher",
           "bert/thunderfx_g0_GraphModule", "bert/thunderfx_g0_GraphModule_1", "clip/thunderfx_g0_GraphModule_2",
           "llama/thunderfx_g0_GraphModule_1", "checkpointing", "misc_ops", "mobilenet_v3_small/thunderfx_g0_GraphModule"]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stdout + p.stderr).strip().splitlines()


def last_workbench_forward(wb, entry):
    rc, lines = run([wb, "--headless", "stages", entry, "--recompile"])
    ks = [ln.split()[0] for ln in lines if ln.split()[1:2] == ["forward"] and "workbench" in ln and "Delete Last Used" in ln]
    return ks[-1] if rc == 0 and ks else None


def main():
    wb, zoo, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    print(f"1..{len(ENTRIES)}")
    failed = 0
    for i, name in enumerate(ENTRIES, 1):
        entry = os.path.join(zoo, name)
        if not os.path.isdir(entry):
            print(f"ok {i} {name} # SKIP not in the unpacked zoo")
            continue
        ref = os.path.join(out, name.replace("/", "__") + ".safetensors")
        rc, lines = run([wb, "--headless", "run", entry, "--device", "cpu", "--save-outputs", ref])
        k = last_workbench_forward(wb, entry)
        if rc != 0 or k is None:
            print(f"not ok {i} {name}: Thunder's program: {lines[-1] if lines else rc}; stage {k}")
            failed += 1
            continue
        rc, lines = run([wb, "--headless", "run", entry, "--recompile", "--stage", k, "--device", "cpu", "--compare", ref])
        verdict = lines[-1] if lines else ""
        if rc == 0 and verdict.endswith("all within tolerance"):
            print(f"ok {i} {name}: stage {k}: {verdict}")
        else:
            print(f"not ok {i} {name}: stage {k}: exit {rc}: {verdict}")
            for ln in lines[-12:]:
                print("# " + ln)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
