#!/bin/sh
# test-cuda-autotune.sh — `profile --autotune` on the GPU (gpu suite; wb-cuda-autotune.c)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The bundled llama_layer and gpt2_block (forward + backward), each profiled three times with an empty kernel
# cache of their own:
#   1. without autotuning: the report has no autotune line;
#   2. with --autotune: plans' variants are timed (the report's "autotune" line counts them and names the
#      variant of every plan that left the default), none of them refused (every variant's outputs agreed with
#      the default plan's on the call's own inputs), and autotune.ini holds a choice per plan timed;
#   3. with --autotune again: nothing is timed, every plan's variant comes from autotune.ini (as many as were
#      timed and read in run 2).
# The medians of runs 1 and 3 are printed side by side (not asserted: timings are not tests).
# Exit 77 (skip) without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for case in ${WB_AUTOTUNE_CASES:-llama_layer gpt2_block}; do
  case_dir=${WB_TRACES_DIR:?}/$case
  export WB_KERNEL_CACHE_DIR="$out/$case-cache"
  for name in plain tuned cached; do
    extra=
    [ "$name" = plain ] || extra=--autotune
    "$app" --headless profile "$case_dir" --device cuda --iters 20 --warmup 3 --report "$out/$case-$name.json" $extra 2>"$out/$case-$name.err"
    rc=$?
    if [ $rc -eq 3 ] && [ "$name" = plain ]; then
      echo "skip: $(cat "$out/$case-$name.err")"
      exit 77
    fi
    cat "$out/$case-$name.err" >&2
    [ $rc -eq 0 ] || { echo "profile $case $name exited $rc"; exit 1; }
  done
  python3 - "$out" "$case" "$WB_KERNEL_CACHE_DIR/autotune.ini" <<'PY' || exit 1
import configparser, json, re, sys
out, case, ini = sys.argv[1:4]
rep = {n: json.load(open("%s/%s-%s.json" % (out, case, n))) for n in ("plain", "tuned", "cached")}

def autotune(r):
    lines = [v[len("autotune="):] for v in r["run"]["executor_versions"] if v.startswith("autotune=")]
    return lines[0] if lines else None

assert autotune(rep["plain"]) is None, rep["plain"]["run"]["executor_versions"]
t = autotune(rep["tuned"])
assert t is not None, rep["tuned"]["run"]["executor_versions"]
print(case, "tuned:", t[:2000])
m = re.match(r"(\d+) plans' variants timed on this device, (\d+) read from the autotune cache; (\d+) run a variant", t)
assert m, t
tuned, read, changed = map(int, m.groups())
assert tuned > 0, t
assert not any("autotune" in w for w in rep["tuned"].get("warnings", [])), rep["tuned"].get("warnings")
# every plan that left the default is named with its variant and both times
assert changed == 0 or t.count(" us, the default ") + t.count("(from the cache)") >= min(changed, 40), t
cfg = configparser.ConfigParser(interpolation=None, delimiters=("=",))
cfg.optionxform = str
cfg.read(ini)
stored = sum(len(cfg[s]) for s in cfg.sections())
assert stored >= tuned, (stored, tuned)
c = autotune(rep["cached"])
m2 = re.match(r"(\d+) plans' variants timed on this device, (\d+) read from the autotune cache; (\d+) run", c)
assert m2, c
assert int(m2.group(1)) == 0, c
assert int(m2.group(2)) == tuned + read, (c, t)
assert int(m2.group(3)) == changed, (c, t)
med = lambda r: r["iteration"].get("unprofiled_median_ms") or r["iteration"]["median_ms"]
print("%s: median %.4f ms default, %.4f ms autotuned (%.3fx); %d of %d plans on another variant" %
      (case, med(rep["plain"]), med(rep["cached"]), med(rep["cached"]) / med(rep["plain"]), changed, tuned + read))
PY
done
echo "ok"
