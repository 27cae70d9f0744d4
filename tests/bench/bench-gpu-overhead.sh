#!/bin/sh
# bench-gpu-overhead.sh — what profiling costs on the GPU: CUPTI tracing vs CUDA events vs no profiling
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tests/bench/bench-gpu-overhead.sh [CASE...]      (default: gpt2_block llama_layer)
# env:   WB_BUILD_ROOT (the build folder or an unpacked gpu bundle), WB_TRACES_DIR, ITERS (default 20)
#
# Per case (its default stage: forward + backward), three runs of ITERS timed iterations on one GPU:
#   unprofiled  `run --device cuda` (WB_CUDA_ITERS): its "time: median" line
#   cupti       `profile --device cuda` (CUPTI activity records + CUDA events around iterations and regions)
#   events      `profile --device cuda` with WB_PROFILE_CUPTI=0 (CUDA events around every kernel launch too)
# and prints a Markdown table. "wall" is the host's time per timed run, synchronised (the same clock for all
# three; the profiled runs also include the profiler's work after the run: reading events, flushing
# CUPTI); "GPU" is the report's iteration median from CUDA events. ratio = profiled wall / unprofiled wall.
# Compare figures only within one table (one machine, one run). Exit 77 without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
traces=${WB_TRACES_DIR:?}
iters=${ITERS:-20}
cases=${*:-gpt2_block llama_layer}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"

median_of () { sed -n "s/$1/\\1/p" "$2" | head -1; }

echo "| case | kernel records | unprofiled wall ms | profiled wall ms | ratio | profiled GPU ms | attributed | dropped |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for c in $cases; do
  dir=$traces/$c
  [ -d "$dir" ] || { echo "| $c | (not found: $dir) | | | | | | |"; continue; }
  WB_CUDA_ITERS=$iters "$app" --headless run "$dir" --device cuda >"$out/run.log" 2>&1
  rc=$?
  if [ $rc -eq 3 ]; then
    echo "skip: $(tail -1 "$out/run.log")"
    exit 77
  fi
  base=$(median_of '^time: median \([0-9.]*\) ms.*' "$out/run.log")
  [ -n "$base" ] || { tail -5 "$out/run.log"; echo "| $c | run failed ($rc) | | | | | | |"; continue; }
  for mode in cupti events; do
    flag=1
    [ $mode = events ] && flag=0
    WB_PROFILE_CUPTI=$flag "$app" --headless profile "$dir" --device cuda --iters "$iters" --warmup 3 \
      --report "$out/$c-$mode.json" >/dev/null 2>"$out/$c-$mode.err"
    rc=$?
    wall=$(median_of '^profile: wall time per timed run.*median \([0-9.]*\) ms.*' "$out/$c-$mode.err")
    if [ $rc -ne 0 ] || [ -z "$wall" ]; then
      tail -3 "$out/$c-$mode.err"
      echo "| $c | $mode: failed ($rc) | $base | | | | | |"
      continue
    fi
    python3 - "$out/$c-$mode.json" "$c" "$base" "$wall" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
case, base, wall = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
a = d.get("attribution") or {}
src = a.get("kernel_source", "?")
share = "%.1f%%" % (100 * a["kernel_ms_attributed"] / a["kernel_ms_total"]) if a.get("kernel_ms_total") else "-"
print("| %s | %s | %.3f | %.3f | %.2f | %.3f | %s | %d |" % (case, src, base, wall, wall / base if base > 0 else 0,
      d["iteration"]["median_ms"], share, d["run"]["dropped_records"]))
PY
  done
done
