#!/bin/sh
# test-cuda-profile.sh — `profile --device cuda` of mlp_small through the GPU runner (gpu suite)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes all four report kinds and checks, per timed iteration, that the regions' CUDA-event times plus the
# gap add up to the iteration, that the gap is never negative, that kernels were recorded inside their
# region's iteration and that the device's ceilings were measured. Exit 77 (skip) without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
case_dir=${WB_TRACES_DIR:?}/${WB_PROFILE_CASE:-mlp_small}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"

"$app" --headless profile "$case_dir" --device cuda --iters 10 --warmup 2 \
  --report "$out/r.md" --report "$out/r.json" --report "$out/r.html" --chrome-trace "$out/t.json" \
  --session "$out/s.wbsession" 2>"$out/err"
rc=$?
if [ $rc -eq 3 ]; then
  echo "skip: $(cat "$out/err")"
  exit 77
fi
cat "$out/err" >&2
[ $rc -eq 0 ] || { echo "profile --device cuda exited $rc"; exit 1; }
for f in r.md r.json r.html t.json; do
  [ -s "$out/$f" ] || { echo "$f is missing"; exit 1; }
done
cat "$out/r.md"
python3 - "$out/r.json" "$out/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
json.load(open(sys.argv[2]))
it = d["iteration"]
assert d["device"], d["device"]
assert it["count"] == 10, it
regions = d["regions"]
assert regions, "no regions"
for k, total in enumerate(it["times_ms"]):
    s = sum(r["times_ms"][k] for r in regions)
    gap = it["gap_times_ms"][k]
    assert gap >= -1e-3, (k, total, s, gap)
    assert abs(s + gap - total) <= 1e-3 + 1e-6 * total, (k, total, s, gap)
    assert s > 0, (k, s)
assert d["kernels"], "no kernel records"
assert any(r["kernel_count"] > 0 for r in regions), regions
# the unprofiled iterations (no events around the regions) beside the timed ones: the note's second figure is the
# report's iteration median, and the first is not slower than it beyond noise
import re
cost = [n for n in d["notes"] if n.startswith("profiling's cost:")]
assert cost, d["notes"]
m = re.search(r"took ([0-9.]+) ms \(GPU time, median of (\d+) run before the timed ones\); the timed iterations' ([0-9.]+) ms", cost[0])
assert m and int(m.group(2)) == 10, cost[0]
assert abs(float(m.group(3)) - it["median_ms"]) <= 1e-3, (cost[0], it["median_ms"])
assert 0 < float(m.group(1)) <= 1.25 * it["median_ms"], cost[0]
print(cost[0])
c = d["ceilings"]
assert c and c.get("copy_gbps", 0) > 100 and c.get("matmul_tflops", 0) > 10, c
print("ok: %d regions, %d kernel records, iteration median %.3f ms, gap %.3f ms, copy %.0f GB/s, bf16 %.0f TFLOP/s"
      % (len(regions), len(d["kernels"]), it["median_ms"], it["gap_ms"], c["copy_gbps"], c["matmul_tflops"]))
PY
